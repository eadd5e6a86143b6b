import pytest
from hypothesis import given
from hypothesis import strategies as st

from sftactics.core.breakdown import BonusType, Term, combine_multipliers, explain, half

T = BonusType


@pytest.mark.rule("BON-01")
def test_different_types_stack_same_type_takes_highest() -> None:
    b = explain(
        "attack",
        [
            Term(5, "BAB", type=T.BASE),
            Term(2, "bless", type=T.MORALE),
            Term(1, "get 'em", type=T.MORALE),
            Term(1, "precognition", type=T.INSIGHT),
            Term(1, "luck charm", type=T.LUCK),
            Term(2, "flanking"),
            Term(1, "untyped gadget"),
        ],
    )
    assert b.total == 5 + 2 + 1 + 1 + 2 + 1
    assert [s.term.label for s in b.suppressed] == ["get 'em"]
    assert "morale bonuses do not stack" in b.suppressed[0].reason


@pytest.mark.rule("BON-01", "EX-12")
def test_keskodai_conditional_morale_bonus_only_competes_where_it_applies() -> None:
    terms = [
        Term(3, "base Will", type=T.BASE),
        Term(2, "aura of mettle", type=T.MORALE),
        Term(4, "death ward", type=T.MORALE, when=frozenset({"vs:death"})),
    ]
    assert explain("Will", terms, tags=frozenset({"vs:death"})).total == 3 + 4
    other = explain("Will", terms)
    assert other.total == 3 + 2
    assert other.suppressed[0].reason == "does not apply here"


@pytest.mark.rule("BON-05", "EX-13")
def test_circumstance_bonuses_stack_unless_same_source() -> None:
    firecracker = Term(2, "firecracker distraction", type=T.CIRCUMSTANCE)
    guards = Term(2, "nervous guards", type=T.CIRCUMSTANCE)
    assert explain("Stealth", [firecracker, guards]).total == 4
    again = Term(1, "second firecracker", type=T.CIRCUMSTANCE, source="firecracker distraction")
    assert explain("Stealth", [firecracker, again]).total == 2


@pytest.mark.rule("BON-12", "EX-13")
def test_same_penalty_counts_once_different_penalties_stack() -> None:
    ice = Term(-2, "frozen lake", source="ice")
    refrozen = Term(-4, "refrozen lake", source="ice")
    assert explain("Acrobatics", [ice, refrozen]).total == -4
    oil = Term(-2, "oil slick")
    wind = Term(-1, "wind")
    uneven = Term(-1, "uneven ice")
    assert explain("Acrobatics", [ice, refrozen, oil, wind, uneven]).total == -8


@pytest.mark.rule("BON-02")
def test_negative_base_terms_are_not_penalties() -> None:
    # a -1 ability modifier and a -1 penalty are different things and both count
    b = explain("check", [Term(-1, "Charisma modifier", type=T.BASE), Term(-1, "sickened", source="sickened")])
    assert b.total == -2


@pytest.mark.rule("BON-03")
def test_armor_bonuses_do_not_stack_with_each_other() -> None:
    b = explain("KAC", [Term(10, "base", type=T.BASE), Term(6, "armor", type=T.ARMOR),
                        Term(4, "force field", type=T.ARMOR), Term(2, "Dex", type=T.BASE)])  # fmt: skip
    assert b.total == 18


@pytest.mark.rule("BON-06", "BON-07", "BON-08", "BON-09", "BON-11")
@pytest.mark.parametrize("kind", [T.DIVINE, T.ENHANCEMENT, T.INSIGHT, T.LUCK, T.RACIAL])
def test_each_named_bonus_type_keeps_only_its_highest(kind: BonusType) -> None:
    b = explain("x", [Term(1, "a", type=kind), Term(3, "b", type=kind), Term(2, "c", type=T.CIRCUMSTANCE)])
    assert b.total == 5


@pytest.mark.rule("BON-10")
def test_no_intelligence_no_morale_bonus() -> None:
    terms = [Term(2, "inspiring boost", type=T.MORALE), Term(1, "untyped")]
    assert explain("x", terms, morale_ok=False).total == 1
    assert explain("x", terms).total == 3


@pytest.mark.rule("BON-13")
def test_condition_and_action_modifiers_are_untyped_and_stack() -> None:
    # cover +4, fight defensively +2 (untyped) stack with each other and with armor
    b = explain("AC", [Term(4, "cover"), Term(2, "fighting defensively"), Term(5, "armor", type=T.ARMOR)])
    assert b.total == 11


@pytest.mark.rule("GEN-03", "EX-05")
def test_rounding_down() -> None:
    assert half(7) == 3
    assert half(1) == 0
    assert half(-3) == -2


@pytest.mark.rule("GEN-04", "EX-05")
def test_multiplying_more_than_once() -> None:
    assert combine_multipliers([2, 2]) == 3
    assert combine_multipliers([2, 3]) == 4
    assert combine_multipliers([]) == 1


def test_breakdown_explains_itself() -> None:
    b = explain("EAC", [Term(10, "base", "ATK-06", T.BASE), Term(3, "Dexterity", "ATK-06", T.BASE),
                        Term(-2, "flat-footed", "CON-18")])  # fmt: skip
    assert b.describe() == "EAC 11 = +10 base [ATK-06] +3 Dexterity [ATK-06] -2 flat-footed [CON-18]"
    d = b.to_dict()
    assert d["total"] == 11 and len(d["terms"]) == 3  # type: ignore[arg-type]


terms_st = st.lists(
    st.builds(
        Term,
        st.integers(-5, 5),
        st.sampled_from(["a", "b", "c", "d"]),
        st.just(""),
        st.sampled_from(list(BonusType)),
    ),
    max_size=8,
)


@given(terms_st)
def test_stacking_never_counts_a_term_twice_and_never_beats_plain_sum_of_bonuses(terms: list[Term]) -> None:
    b = explain("x", terms)
    assert len(b.applied) + len(b.suppressed) <= len(terms)
    positives = sum(t.value for t in terms if t.value > 0)
    negatives = sum(t.value for t in terms if t.value < 0)
    assert negatives <= b.total <= positives
    # order does not matter
    assert explain("x", list(reversed(terms))).total == b.total


@pytest.mark.rule("BON-12")
def test_suppressed_penalty_names_the_one_that_counts() -> None:
    b = explain("x", [Term(-2, "frozen lake", source="ice"), Term(-4, "refrozen lake", source="ice")])
    assert [t.label for t in b.applied] == ["refrozen lake"]
    assert b.suppressed[0].term.label == "frozen lake"
    assert b.suppressed[0].reason == "same penalty as refrozen lake (BON-12)"
    b2 = explain("x", [Term(-4, "refrozen lake", source="ice"), Term(-2, "frozen lake", source="ice")])
    assert b2.suppressed[0].reason == "same penalty as refrozen lake (BON-12)"
