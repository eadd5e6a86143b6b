"""Hero Points (sftactics.sf2e.hero_points): E2-71..73."""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.sf2e.checks import roll_check
from sftactics.sf2e.defenses import Save, save_modifier
from sftactics.sf2e.degrees import Degree
from sftactics.sf2e.hero_points import HERO_POINTS_MAX, award, heroic_recovery, reroll_with_hero_point, start_session

from .make import hero


@pytest.mark.rule("E2-71")
def test_one_point_per_session_at_most_three() -> None:
    assert start_session(hero(hero_points=3)).hero_points == 1  # reset, not carried over
    assert award(hero(hero_points=1), 5).hero_points == HERO_POINTS_MAX == 3
    assert award(hero(hero_points=0)).hero_points == 1


@pytest.mark.rule("E2-72")
def test_spend_one_to_reroll_and_keep_the_second_result() -> None:
    h = hero()  # 2 Hero Points
    will = save_modifier(h, Save.WILL)  # +6
    failed = roll_check("Will save", will, 18, ScriptedDice([5]))
    r = reroll_with_hero_point(h, failed, ScriptedDice([14]), deed="remembers her crew")
    assert r.creature.hero_points == 1 and r.check.degree is Degree.SUCCESS and r.check.rolls == (5, 14)
    worse = reroll_with_hero_point(h, roll_check("Will save", will, 18, ScriptedDice([12])), ScriptedDice([3]))
    assert worse.check.degree is Degree.FAILURE  # 9 vs 18: the second result stands, though the first succeeded
    with pytest.raises(RuleViolation, match="E2-72"):
        reroll_with_hero_point(hero(hero_points=0), failed, ScriptedDice([14]))


@pytest.mark.rule("E2-72", "E2-40")
def test_hero_points_work_while_unable_to_act() -> None:
    out = hero(hp=0, conditions={"dying": 1, "unconscious": 1})
    check = roll_check("recovery", save_modifier(out, Save.FORTITUDE), 11, ScriptedDice([3]))
    assert reroll_with_hero_point(out, check, ScriptedDice([15])).creature.hero_points == 1


@pytest.mark.rule("E2-73", "E2-36")
def test_avoid_death_spends_them_all() -> None:
    r = heroic_recovery(hero(hp=0, hero_points=3, conditions={"dying": 3, "unconscious": 1}), deed="a last breath")
    assert r.creature.hero_points == 0 and r.creature.dying == 0 and r.creature.wounded == 0
