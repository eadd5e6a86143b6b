"""2E bonus and penalty stacking, proficiency, DCs from modifiers (sftactics.sf2e.modifiers): E2-05, E2-06, E2-09."""

from __future__ import annotations

import pytest

from sftactics.core.breakdown import BonusType, Term
from sftactics.sf2e.modifiers import Kind, Proficiency, add, base, dc_from, explain, mod, proficiency_term
from sftactics.sf2e.options import Sf2eOptions

C, ITEM, S, U = Kind.CIRCUMSTANCE, Kind.ITEM, Kind.STATUS, Kind.UNTYPED


@pytest.mark.rule("E2-05")
@pytest.mark.parametrize(
    ("rank", "level", "bonus"),
    [
        (Proficiency.UNTRAINED, 5, 0),
        (Proficiency.TRAINED, 5, 7),
        (Proficiency.EXPERT, 5, 9),
        (Proficiency.MASTER, 5, 11),
        (Proficiency.LEGENDARY, 5, 13),
        (Proficiency.TRAINED, 1, 3),
    ],
)
def test_proficiency_bonus(rank: Proficiency, level: int, bonus: int) -> None:
    assert rank.bonus(level) == bonus
    assert proficiency_term(rank, level).value == bonus


@pytest.mark.rule("E2-05")
def test_proficiency_term_explains_itself() -> None:
    assert (
        proficiency_term(Proficiency.EXPERT, 4, "Reflex").describe()
        == "+8 expert proficiency in Reflex (level 4 + 4) [E2-05]"
    )
    assert proficiency_term(Proficiency.UNTRAINED, 4).describe() == "+0 untrained proficiency (+0) [E2-05]"


@pytest.mark.rule("E2-06")
def test_highest_bonus_of_each_type_counts() -> None:
    b = explain(
        "attack",
        [
            base(7, "base"),
            mod(1, "bless", S),
            mod(2, "heroism", S),
            mod(1, "aim", C),
            mod(2, "cover", C),
            mod(1, "rifle", ITEM),
        ],
    )
    assert b.total == 7 + 2 + 2 + 1
    assert sorted(t.label for t in b.applied) == ["base", "cover", "heroism", "rifle"]
    assert {s.term.label for s in b.suppressed} == {"bless", "aim"}
    assert all("E2-06" in s.reason for s in b.suppressed)


@pytest.mark.rule("E2-06")
def test_worst_typed_penalty_counts_and_untyped_penalties_all_stack() -> None:
    b = explain(
        "AC",
        [
            base(18, "base"),
            mod(-2, "off-guard", C),
            mod(-1, "other", C),
            mod(-4, "unconscious", S),
            mod(-1, "frightened 1", S),
            mod(-2, "range", U),
            mod(-5, "MAP", U),
        ],
    )
    assert b.total == 18 - 2 - 4 - 2 - 5
    assert {s.term.label for s in b.suppressed} == {"other", "frightened 1"}


@pytest.mark.rule("E2-06")
def test_a_bonus_and_a_penalty_of_one_type_both_count() -> None:
    b = explain("Perception", [base(6, "base"), mod(2, "status bonus", S), mod(-4, "blinded", S)])
    assert b.total == 4 and not b.suppressed


@pytest.mark.rule("E2-06")
def test_untyped_bonuses_are_an_option() -> None:
    terms = [mod(1, "a"), mod(3, "b"), mod(2, "c")]
    assert explain("x", terms).total == 6
    only_best = explain("x", terms, options=Sf2eOptions(untyped_bonuses="highest"))
    assert only_best.total == 3 and len(only_best.suppressed) == 2


@pytest.mark.rule("E2-06")
def test_situational_terms_apply_only_with_their_tags() -> None:
    terms = [base(5, "base"), mod(2, "vs fear", S, when={"vs:fear"}), mod(1, "bless", S)]
    assert explain("Will", terms).total == 6
    assert explain("Will", terms, tags=frozenset({"vs:fear"})).total == 7


@pytest.mark.rule("E2-06")
def test_mod_is_a_term_with_a_2e_type() -> None:
    m = mod(-2, "off-guard", C, "E2-57")
    assert isinstance(m, Term) and m.type is BonusType.CIRCUMSTANCE and m.is_penalty
    assert mod(1, "rifle", ITEM).type is BonusType.UNTYPED
    assert base(3, "Dex").type is BonusType.BASE and not base(-1, "Str").is_penalty
    assert m.describe() == "-2 circumstance off-guard [E2-57]"
    assert m.to_dict() == {"value": -2, "label": "off-guard", "type": "circumstance", "rule": "E2-57"}
    # plain 1E terms are accepted when their type means the same in 2E; the others are refused
    assert explain("x", [Term(2, "cover", type=BonusType.CIRCUMSTANCE), mod(1, "aim", C)]).total == 2
    with pytest.raises(ValueError, match="morale"):
        explain("x", [Term(2, "cheer", type=BonusType.MORALE)])


@pytest.mark.rule("E2-06")
def test_add_restacks_with_the_2e_rules() -> None:
    ac = explain("AC", [base(18, "base"), mod(-2, "off-guard", C, source="off-guard")])
    again = add(ac, mod(-2, "off-guard (flanked)", C, source="off-guard"))
    assert again.total == 16  # off-guard does not stack with itself
    assert add(ac, mod(2, "cover", C)).total == 18


@pytest.mark.rule("E2-09")
def test_dc_is_ten_plus_the_modifier() -> None:
    reflex = explain("Reflex", [base(4, "Dex"), base(7, "expert"), mod(-1, "frightened 1", S)])
    dc = dc_from(reflex)
    assert dc.total == 20 and dc.label == "Reflex DC"
    assert dc.describe() == "Reflex DC 20 = +10 DC base [E2-09] +4 Dex +7 expert -1 status frightened 1"
