import pytest

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain
from sftactics.core.check import CheckKind, RollMode, judge, resolve
from sftactics.dice.source import ScriptedDice


def bonus(n: int) -> Breakdown:
    return explain("bonus", [Term(n, "bonus", type=BonusType.BASE)])


@pytest.mark.rule("GEN-01")
def test_meets_or_beats() -> None:
    assert resolve(CheckKind.SKILL, bonus(5), 15, ScriptedDice([10])).success
    assert not resolve(CheckKind.SKILL, bonus(5), 15, ScriptedDice([9])).success
    r = resolve(CheckKind.SKILL, bonus(5), 15, ScriptedDice([10]))
    assert (r.natural, r.total, r.dc) == (10, 15, 15)


@pytest.mark.rule("ATK-05", "SV-02", "ATK-01")
@pytest.mark.parametrize("kind", [CheckKind.ATTACK, CheckKind.SAVE])
def test_natural_1_and_20_decide_attacks_and_saves(kind: CheckKind) -> None:
    hi = resolve(kind, bonus(-10), 40, ScriptedDice([20]))
    assert hi.success and hi.automatic == "natural 20"
    lo = resolve(kind, bonus(30), 5, ScriptedDice([1]))
    assert not lo.success and lo.automatic == "natural 1"


@pytest.mark.rule("GEN-02")
def test_skill_and_ability_checks_have_no_automatic_results() -> None:
    assert not resolve(CheckKind.ABILITY, bonus(-10), 40, ScriptedDice([20])).success
    assert resolve(CheckKind.SKILL, bonus(30), 5, ScriptedDice([1])).success


@pytest.mark.rule("GEN-06")
def test_roll_twice_take_better_or_worse() -> None:
    better = resolve(CheckKind.ATTACK, bonus(0), 10, ScriptedDice([4, 15]), mode=RollMode(better=True))
    assert better.natural == 15 and better.rolls == (4, 15) and better.success
    worse = resolve(CheckKind.SAVE, bonus(0), 10, ScriptedDice([4, 15]), mode=RollMode(worse=True))
    assert worse.natural == 4 and not worse.success


@pytest.mark.rule("GEN-05")
def test_reroll_keeps_the_better_result() -> None:
    asked: list[int] = []

    def reroll_on_low(first: int) -> bool:
        asked.append(first)
        return first < 10

    r = resolve(CheckKind.SAVE, bonus(0), 10, ScriptedDice([3, 2]), mode=RollMode(reroll=reroll_on_low))
    assert asked == [3]
    assert r.rolls == (3, 2) and r.natural == 3  # the reroll was worse: keep the first
    r2 = resolve(CheckKind.SAVE, bonus(0), 10, ScriptedDice([3, 12]), mode=RollMode(reroll=reroll_on_low))
    assert r2.natural == 12 and r2.success
    r3 = resolve(CheckKind.SAVE, bonus(0), 10, ScriptedDice([15]), mode=RollMode(reroll=reroll_on_low))
    assert r3.rolls == (15,)


@pytest.mark.rule("GEN-07")
def test_better_and_worse_cancel_into_one_roll_that_cannot_be_rerolled() -> None:
    called: list[int] = []
    mode = RollMode(better=True, worse=True, reroll=lambda r: called.append(r) is None)
    r = resolve(CheckKind.ATTACK, bonus(0), 10, ScriptedDice([7]), mode=mode)
    assert r.rolls == (7,) and called == []
    assert "cancel" in r.note


def test_judge_uses_a_known_natural() -> None:
    r = judge(CheckKind.ATTACK, bonus(4), 15, 11)
    assert r.total == 15 and r.success
    assert r.describe() == "d20 11 +4 = 15 vs 15: success"
