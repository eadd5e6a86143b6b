"""Checks, flat checks, secret checks, rerolls (sftactics.sf2e.checks): E2-02, E2-07, E2-08, E2-72."""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.sf2e.checks import flat_check, judge, reroll, roll_check
from sftactics.sf2e.degrees import Degree
from sftactics.sf2e.modifiers import Kind, base, explain, mod
from sftactics.sf2e.options import Sf2eOptions

SKILL = explain("Athletics", [base(3, "Str modifier"), base(5, "trained"), mod(1, "status bonus", Kind.STATUS)])


@pytest.mark.rule("E2-02")
def test_check_is_d20_plus_modifier_against_dc() -> None:
    dice = ScriptedDice([11])
    c = roll_check("Athletics", SKILL, 20, dice, purpose="climb")
    assert (c.natural, c.total, c.dc.total, c.degree) == (11, 20, 20, Degree.SUCCESS)
    assert dice.history[0].purpose == "climb"
    assert c.describe() == "Athletics: d20 11 +9 = 20 vs DC 20: success"


@pytest.mark.rule("E2-02", "E2-03", "E2-04")
@pytest.mark.parametrize(
    ("natural", "dc", "degree"),
    [
        (19, 20, Degree.SUCCESS),  # 28: short of 30
        (20, 20, Degree.CRITICAL_SUCCESS),  # 29: success, improved by the natural 20
        (2, 20, Degree.FAILURE),  # 11
        (1, 20, Degree.CRITICAL_FAILURE),  # 10: 10 below the DC, and a natural 1
        (1, 10, Degree.FAILURE),  # 10 meets DC 10: success, worsened by the natural 1
    ],
)
def test_check_reads_four_degrees_and_the_natural_shift(natural: int, dc: int, degree: Degree) -> None:
    assert roll_check("x", SKILL, dc, ScriptedDice([natural])).degree is degree


@pytest.mark.rule("E2-07")
def test_flat_check_uses_no_modifiers() -> None:
    c = flat_check(11, ScriptedDice([11]))
    assert c.flat and c.modifier.total == 0 and c.total == 11 and c.degree is Degree.SUCCESS
    assert flat_check(11, ScriptedDice([10])).degree is Degree.FAILURE
    assert flat_check(5, ScriptedDice([20])).degree is Degree.CRITICAL_SUCCESS


@pytest.mark.rule("E2-07")
@pytest.mark.parametrize(
    ("dc", "degree"), [(1, Degree.SUCCESS), (0, Degree.SUCCESS), (21, Degree.FAILURE), (25, Degree.FAILURE)]
)
def test_flat_check_automatic_results_roll_nothing(dc: int, degree: Degree) -> None:
    dice = ScriptedDice([])
    c = flat_check(dc, dice)
    assert c.degree is degree and c.natural is None and c.automatic and dice.history == []
    assert "E2-07" in c.describe()


@pytest.mark.rule("E2-08")
def test_secret_check_hides_its_result_from_the_player() -> None:
    c = roll_check("Perception", SKILL, 15, ScriptedDice([3]), secret=True)
    assert c.degree is Degree.FAILURE
    assert c.player_view() == "Perception: the GM rolled a secret check"
    unknown = roll_check("Perception", SKILL, 15, ScriptedDice([3]), secret=True, player_knows=False)
    assert unknown.player_view() == ""
    assert roll_check("Perception", SKILL, 15, ScriptedDice([3])).player_view().endswith("failure")


@pytest.mark.rule("E2-08", "E2-72")
def test_fortune_applies_to_a_secret_check_only_if_the_player_knows_of_it() -> None:
    known = roll_check("Perception", SKILL, 15, ScriptedDice([3]), secret=True)
    assert reroll(known, ScriptedDice([12])).degree is Degree.SUCCESS
    unknown = roll_check("Perception", SKILL, 15, ScriptedDice([3]), secret=True, player_knows=False)
    with pytest.raises(RuleViolation, match="E2-08"):
        reroll(unknown, ScriptedDice([12]))


@pytest.mark.rule("E2-72")
def test_reroll_keeps_the_second_result_even_if_worse() -> None:
    first = roll_check("x", SKILL, 20, ScriptedDice([15]))
    assert first.degree is Degree.SUCCESS
    again = reroll(first, ScriptedDice([4]))
    assert again.natural == 4 and again.rolls == (15, 4) and again.degree is Degree.FAILURE and again.fortune
    assert "kept the second result" in again.describe()


@pytest.mark.rule("E2-72")
def test_one_fortune_effect_per_check_is_an_option() -> None:
    again = reroll(roll_check("x", SKILL, 20, ScriptedDice([5])), ScriptedDice([6]))
    with pytest.raises(RuleViolation, match="E2-72"):
        reroll(again, ScriptedDice([7]))
    thrice = reroll(again, ScriptedDice([17]), options=Sf2eOptions(one_fortune_per_check=False))
    assert thrice.rolls == (5, 6, 17) and thrice.degree is Degree.SUCCESS
    with pytest.raises(RuleViolation, match="E2-07"):
        reroll(flat_check(1, ScriptedDice([])), ScriptedDice([5]))


@pytest.mark.rule("E2-02")
def test_judge_refuses_impossible_dice() -> None:
    with pytest.raises(ValueError):
        judge("x", SKILL, 10, 21)
