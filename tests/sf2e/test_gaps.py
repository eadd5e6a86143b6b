"""Rules gaps found by cross-checking the 2E kernel (issue 21): several weaknesses or resistances to one type,
immunity cancelling death effects, and the named readings of precision, bleed and minimum damage."""

from __future__ import annotations

import pytest

from sftactics.dice.source import ScriptedDice
from sftactics.sf2e.damage import Portion, damage, mitigate, roll_damage
from sftactics.sf2e.damage_types import DamageType
from sftactics.sf2e.injury import DEATH_EFFECTS, apply_damage, kill
from sftactics.sf2e.modifiers import base, explain
from sftactics.sf2e.options import Sf2eOptions

from .make import foe, hero

FIRE, BLEED, PRECISION = DamageType.FIRE, DamageType.BLEED, DamageType.PRECISION


@pytest.mark.rule("E2-25")
def test_several_resistances_to_one_type_only_the_highest_applies() -> None:
    target = foe(resistances=[{"type": "fire", "value": 5}, {"type": "fire", "value": 10, "source": "armor"}])
    assert target.resistances == {"fire": 10}
    out = mitigate([Portion(FIRE, 12)], target)
    assert out.total == 2


@pytest.mark.rule("E2-24")
def test_several_weaknesses_to_one_type_only_the_highest_applies() -> None:
    target = foe(weaknesses=[{"type": "fire", "value": 3}, {"type": "fire", "value": 5}])
    assert mitigate([Portion(FIRE, 7)], target).total == 12
    # a new weakness keeps the higher of the two; a lower one changes nothing
    assert foe().with_weakness("fire", 3).with_weakness("fire", 5).with_weakness("fire", 2).weaknesses == {"fire": 5}
    assert foe().with_resistance("fire", 10).with_resistance("fire", 5).resistances == {"fire": 10}


@pytest.mark.rule("E2-24")
def test_a_bad_entry_is_refused() -> None:
    with pytest.raises(ValueError, match="type"):
        foe(resistances=[{"type": "fire", "amount": 5}])


@pytest.mark.rule("E2-23", "E2-38")
def test_immunity_to_death_effects_cancels_the_death_effect() -> None:
    pc = hero(hp=5, immunities=frozenset({DEATH_EFFECTS}))
    r = apply_damage(pc, 5, death_effect=True)
    assert not r.died
    assert r.creature.dying == 1  # only the damage applies: knocked out as by any damage
    assert "immune to death effects" in r.describe()
    assert apply_damage(hero(hp=5), 5, death_effect=True).died


@pytest.mark.rule("E2-23", "E2-38")
def test_immunity_to_death_effects_cancels_an_outright_kill_by_one() -> None:
    assert not kill(hero(immunities=frozenset({DEATH_EFFECTS})), "a death spell", death_effect=True).died
    assert kill(hero(), "a death spell", death_effect=True).died
    assert kill(hero(immunities=frozenset({DEATH_EFFECTS})), "the GM's call").died


@pytest.mark.rule("E2-21", "E2-24")
def test_precision_damage_is_its_own_type_by_default_and_the_weapons_type_as_an_option() -> None:
    target = foe(weaknesses={"piercing": 5})
    incoming = [Portion(DamageType.PIERCING, 6), Portion(PRECISION, 4)]
    assert mitigate(incoming, target).total == 6 + 5 + 4  # seed: precision is not piercing
    usual = Sf2eOptions(precision_damage="weapon_type")
    out = mitigate(incoming, target, options=usual)
    assert out.total == 6 + 4 + 5  # one piercing portion of 10, weakness once
    assert [p.type for p in out.portions] == [DamageType.PIERCING]
    immune = foe(immunities=frozenset({"precision"}), resistances={"piercing": 2})
    assert mitigate(incoming, immune, options=usual).total == 4  # precision lost, 6 - 2
    assert mitigate(incoming, immune).total == 4  # own type: immune to it either way


@pytest.mark.rule("E2-21", "E2-25")
def test_bleed_counts_as_physical_only_as_an_option() -> None:
    target = foe(resistances={"physical": 3})
    assert mitigate([Portion(BLEED, 5)], target).total == 5
    assert mitigate([Portion(BLEED, 5)], target, options=Sf2eOptions(bleed_is_physical=True)).total == 2


@pytest.mark.rule("E2-19", "E2-22")
def test_minimum_damage_after_penalties_is_zero_by_default_and_one_as_an_option() -> None:
    penalty = explain("damage bonus", [base(-3, "enfeebled-like penalty")])
    part = [damage("1d4", "bludgeoning")]
    assert roll_damage(part, ScriptedDice([2]), bonus=penalty).total == 0
    one = Sf2eOptions(minimum_damage=1)
    assert roll_damage(part, ScriptedDice([2]), bonus=penalty, options=one).total == 1
