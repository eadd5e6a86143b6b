"""Modes of play, conventions, and what differs from the 1st edition (sftactics.sf2e.general): E2-01, E2-74,
E2-75."""

from __future__ import annotations

import pytest

from sftactics.core.breakdown import BonusType, Term
from sftactics.core.breakdown import explain as explain_1e
from sftactics.core.check import CheckKind, RollMode, resolve
from sftactics.core.check import judge as judge_1e
from sftactics.dice.source import ScriptedDice
from sftactics.sf1e.damage import times_rolled
from sftactics.sf2e.checks import judge, reroll
from sftactics.sf2e.damage import damage, roll_damage
from sftactics.sf2e.degrees import Degree
from sftactics.sf2e.general import MODES, ROUND_SECONDS, Effect, Mode, combine_multipliers, halve, winning_effect
from sftactics.sf2e.injury import MASSIVE_DAMAGE_FACTOR, apply_damage
from sftactics.sf2e.modifiers import Kind, base, explain, mod

from .make import hero


@pytest.mark.rule("E2-01")
def test_three_modes_of_play() -> None:
    assert list(MODES) == [Mode.ENCOUNTER, Mode.EXPLORATION, Mode.DOWNTIME]
    assert MODES[Mode.ENCOUNTER].timing == "6-second rounds" and ROUND_SECONDS == 6
    assert MODES[Mode.EXPLORATION].timing == "minutes to hours"
    assert MODES[Mode.DOWNTIME].timing == "days or longer"


@pytest.mark.rule("E2-74")
def test_rounding_and_multipliers() -> None:
    assert [halve(n) for n in (7, 1, 0)] == [3, 1, 0]
    assert combine_multipliers([2, 2]) == 3
    assert combine_multipliers([2, 3]) == 4


@pytest.mark.rule("E2-74")
def test_duplicate_effects_highest_level_then_newest() -> None:
    a, b, c = Effect("haste", 3, started=1), Effect("haste", 5, started=0), Effect("haste", 5, started=2)
    assert winning_effect([a, b]) is b
    assert winning_effect([a, b, c]) is c
    with pytest.raises(ValueError):
        winning_effect([])


@pytest.mark.rule("E2-75")
def test_success_is_binary_in_1e_and_four_degrees_in_2e() -> None:
    bonus = explain("attack", [base(5, "bonus")])
    one = judge_1e(CheckKind.ATTACK, explain_1e("attack", [Term(5, "bonus", type=BonusType.BASE)]), 15, 20)
    assert one.success is True
    assert judge("attack", bonus, 15, 20).degree is Degree.CRITICAL_SUCCESS


@pytest.mark.rule("E2-75", "E2-22")
def test_1e_rolls_again_where_2e_doubles_the_total() -> None:
    assert times_rolled([2]) == 2  # 1E: roll the damage twice
    r = roll_damage([damage("1d6", "fire")], ScriptedDice([4]), critical=True)
    assert r.total == 8  # 2E: one roll, doubled


@pytest.mark.rule("E2-75", "E2-72")
def test_1e_reroll_keeps_the_better_2e_keeps_the_second() -> None:
    bonus1 = explain_1e("save", [Term(0, "bonus", type=BonusType.BASE)])
    r1 = resolve(CheckKind.SAVE, bonus1, 10, ScriptedDice([12, 3]), mode=RollMode(reroll=lambda _: True))
    assert r1.natural == 12
    r2 = reroll(judge("save", explain("save", [base(0, "bonus")]), 10, 12), ScriptedDice([3]))
    assert r2.natural == 3


@pytest.mark.rule("E2-75", "E2-06")
def test_circumstance_bonuses_add_in_1e_and_do_not_in_2e() -> None:
    one = explain_1e("AC", [Term(2, "cover", type=BonusType.CIRCUMSTANCE), Term(1, "aim", type=BonusType.CIRCUMSTANCE)])
    two = explain("AC", [mod(2, "cover", Kind.CIRCUMSTANCE), mod(1, "aim", Kind.CIRCUMSTANCE)])
    assert (one.total, two.total) == (3, 2)


@pytest.mark.rule("E2-75", "E2-39")
def test_massive_damage_is_twice_the_maximum_in_2e() -> None:
    assert MASSIVE_DAMAGE_FACTOR == 2
    assert not apply_damage(hero(), 45).died and apply_damage(hero(), 60).died
