"""Turn upkeep (sftactics.sf2e.turns): E2-26, E2-29, E2-30, E2-33, E2-42, E2-44, E2-54, E2-59."""

from __future__ import annotations

import pytest

from sftactics.dice.source import ScriptedDice
from sftactics.sf2e.actions import BASIC_ACTIONS, use
from sftactics.sf2e.creature import PersistentDamage
from sftactics.sf2e.damage_types import DamageType
from sftactics.sf2e.injury import apply_damage
from sftactics.sf2e.turns import end_of_turn, start_of_turn

from .make import hero


@pytest.mark.rule("E2-29")
def test_fast_healing_at_the_start_of_the_turn() -> None:
    s = start_of_turn(hero(hp=20, fast_healing=3), ScriptedDice([]))
    assert s.creature.hp == 23 and s.budget.actions == 3 and s.recovery is None
    assert s.healing.lines[0].describe() == "start of turn: fast healing 3 [E2-29]"


@pytest.mark.rule("E2-30")
def test_regeneration_stops_after_its_bypass_damage_until_the_end_of_the_next_turn() -> None:
    troll = hero(hp=20, regeneration=5, regeneration_bypass=frozenset({DamageType.ACID}))
    assert start_of_turn(troll, ScriptedDice([])).creature.hp == 25
    burnt = apply_damage(troll, 2, types=frozenset({DamageType.ACID})).creature  # on someone else's turn
    s = start_of_turn(burnt, ScriptedDice([]))
    assert s.creature.hp == 18  # no regeneration this turn
    e = end_of_turn(s.creature, s.budget, ScriptedDice([]))
    assert start_of_turn(e.creature, ScriptedDice([])).creature.hp == 23  # back after the end of its turn


@pytest.mark.rule("E2-33", "E2-29")
def test_a_dying_creature_rolls_its_recovery_check_after_healing() -> None:
    down = hero(hp=0, conditions={"dying": 1, "unconscious": 1})
    s = start_of_turn(down, ScriptedDice([15]))
    assert s.recovery is not None and s.creature.dying == 0 and s.creature.wounded == 1
    assert s.budget.actions == 0  # still unconscious at 0 HP
    healed = start_of_turn(hero(hp=0, fast_healing=2, conditions={"dying": 1, "unconscious": 1}), ScriptedDice([]))
    assert healed.recovery is None and healed.creature.hp == 2 and healed.budget.actions == 3


@pytest.mark.rule("E2-26", "E2-54", "E2-59", "E2-44")
def test_end_of_turn_upkeep() -> None:
    c = hero(
        conditions={"frightened": 2, "slowed": 1}, persistent=(PersistentDamage(dice="1d6", type=DamageType.FIRE),)
    )
    s = start_of_turn(c, ScriptedDice([]))
    assert s.budget.actions == 2
    b = use(s.budget, BASIC_ACTIONS["Strike"])
    e = end_of_turn(s.creature, b, ScriptedDice([3, 18]))
    assert e.creature.hp == 27 and e.creature.persistent == ()
    assert e.creature.condition("frightened") == 1 and not e.creature.has("slowed")
    assert (e.budget.actions, e.budget.attacks, e.budget.own_turn, e.budget.reaction) == (0, 0, False, True)
