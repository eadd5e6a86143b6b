"""Persistent damage (sftactics.sf2e.persistent): E2-26."""

from __future__ import annotations

import pytest

from sftactics.dice.source import ScriptedDice
from sftactics.sf2e.creature import PersistentDamage
from sftactics.sf2e.damage_types import DamageType
from sftactics.sf2e.options import Sf2eOptions
from sftactics.sf2e.persistent import add_persistent, average, persistent_damage_turn_end

from .make import foe, hero

FIRE = PersistentDamage(dice="1d6", type=DamageType.FIRE)
BLEED = PersistentDamage(dice="1d4", type=DamageType.BLEED)


@pytest.mark.rule("E2-26")
def test_persistent_damage_at_the_end_of_the_turn_then_a_dc_15_flat_check() -> None:
    c = hero(persistent=(FIRE,))
    tick = persistent_damage_turn_end(c, ScriptedDice([4, 14]))
    assert tick.creature.hp == 26 and tick.creature.persistent == (FIRE,)
    assert tick.checks[0].dc.total == 15 and not tick.checks[0].succeeded
    ends = persistent_damage_turn_end(c, ScriptedDice([4, 15]))
    assert ends.creature.persistent == () and ends.ended == (FIRE,)


@pytest.mark.rule("E2-26", "E2-24", "E2-25")
def test_persistent_damage_goes_through_defenses() -> None:
    c = hero(persistent=(FIRE, BLEED), resistances={"fire": 5}, weaknesses={"bleed": 2})
    tick = persistent_damage_turn_end(c, ScriptedDice([4, 20, 3, 2]))
    assert [o.total for o in tick.damage] == [0, 5]
    assert tick.creature.hp == 25 and tick.creature.persistent == (BLEED,)


@pytest.mark.rule("E2-26", "E2-22")
def test_doubled_persistent_damage() -> None:
    c = hero(persistent=(PersistentDamage(dice="1d6", type=DamageType.FIRE, doubled=True),))
    assert persistent_damage_turn_end(c, ScriptedDice([4, 2])).creature.hp == 22
    assert average(c.persistent[0]) == 7


@pytest.mark.rule("E2-26", "E2-74")
def test_one_persistent_damage_per_type_keeps_the_higher() -> None:
    bigger = PersistentDamage(dice="2d6", type=DamageType.FIRE)
    c = add_persistent(hero(), [FIRE])
    assert add_persistent(c, [bigger]).persistent == (bigger,)
    assert add_persistent(add_persistent(hero(), [bigger]), [FIRE]).persistent == (bigger,)
    both = add_persistent(c, [bigger], options=Sf2eOptions(persistent_same_type="stack"))
    assert both.persistent == (FIRE, bigger)
    assert add_persistent(c, [BLEED]).persistent == (FIRE, BLEED)


@pytest.mark.rule("E2-26", "E2-31")
def test_persistent_damage_can_kill_and_then_stops() -> None:
    c = foe(hp=3, persistent=(FIRE, BLEED))
    tick = persistent_damage_turn_end(c, ScriptedDice([5]))
    assert tick.creature.dead and tick.checks == () and len(tick.damage) == 1
