"""2E damage (sftactics.sf2e.damage, damage_types): E2-17, E2-19..25, E2-74, EX-20."""

from __future__ import annotations

import pytest

from sftactics.dice.source import ScriptedDice
from sftactics.sf2e.creature import Life
from sftactics.sf2e.damage import (
    CRITICAL_HITS,
    DamageKind,
    Portion,
    basic_save_damage,
    damage,
    damage_bonus,
    halve_total,
    mitigate,
    roll_damage,
)
from sftactics.sf2e.damage_types import CATEGORY, Category, DamageType, damage_type
from sftactics.sf2e.degrees import Degree
from sftactics.sf2e.modifiers import Kind, base, explain, mod
from sftactics.sf2e.options import Sf2eOptions

from .make import foe, hero

FIRE, COLD = DamageType.FIRE, DamageType.COLD


@pytest.mark.rule("E2-21")
def test_damage_types_and_their_groups() -> None:
    assert {t for t, c in CATEGORY.items() if c is Category.PHYSICAL} == {
        DamageType.BLUDGEONING,
        DamageType.PIERCING,
        DamageType.SLASHING,
    }
    energy = {t.value for t, c in CATEGORY.items() if c is Category.ENERGY}
    assert energy == {"acid", "cold", "electricity", "fire", "sonic", "vitality", "void"}
    other = {t.value for t, c in CATEGORY.items() if c is Category.OTHER}
    assert other == {"force", "spirit", "mental", "poison", "bleed", "precision"}
    assert damage_type("S") is DamageType.SLASHING and damage_type("Void") is DamageType.VOID
    with pytest.raises(ValueError, match="unknown 2E damage type"):
        damage_type("kinetic")
    assert damage("1d6", "bleed").persistent  # bleed is persistent damage


@pytest.mark.rule("EX-20", "E2-24", "E2-19")
def test_ex20_weakness_adds_to_the_roll() -> None:
    target = foe(weaknesses={"fire": 5})
    rolled = roll_damage([damage("2d6", "fire")], ScriptedDice([3, 4]))
    assert rolled.total == 7
    out = mitigate(rolled, target)
    assert out.total == 12  # 2d6 + 5
    assert out.ledger[-1].describe() == "weakness: fire 7 + weakness 5 (fire) = 12 [E2-24]"


@pytest.mark.rule("EX-20", "E2-25")
def test_ex20_resistance_reduces_the_damage() -> None:
    out = mitigate([Portion(FIRE, 7)], foe(resistances={"fire": 5}))
    assert out.total == 2
    assert mitigate([Portion(FIRE, 3)], foe(resistances={"fire": 5})).total == 0  # never below 0


@pytest.mark.rule("E2-24", "E2-25")
def test_the_highest_weakness_or_resistance_applies() -> None:
    target = foe(weaknesses={"fire": 5, "energy": 3}, resistances={"physical": 5, "slashing": 2})
    assert mitigate([Portion(FIRE, 4)], target).total == 9
    assert mitigate([Portion(COLD, 4)], target).total == 7  # energy weakness 3
    assert mitigate([Portion(DamageType.SLASHING, 8)], target).total == 3  # physical 5 beats slashing 2


@pytest.mark.rule("E2-19", "E2-23", "E2-24", "E2-25")
def test_immunity_then_weakness_then_resistance() -> None:
    # weakness before resistance: 2 + 3 = 5, - 5 = 0 (the other order would give 0 + 3 = 3)
    target = foe(weaknesses={"fire": 3}, resistances={"fire": 5}, immunities=frozenset({"cold"}))
    out = mitigate([Portion(FIRE, 2), Portion(COLD, 9)], target)
    assert out.total == 0
    assert [line.step for line in out.ledger] == ["weakness", "resistance", "immunity"]
    assert out.types_dealt == frozenset()


@pytest.mark.rule("E2-24")
def test_weakness_needs_some_damage_of_the_type() -> None:
    target = foe(weaknesses={"fire": 5}, immunities=frozenset({"fire"}))
    assert mitigate([Portion(FIRE, 6)], target).total == 0


@pytest.mark.rule("E2-21")
def test_vitality_harms_undead_and_void_harms_the_living() -> None:
    living, undead, construct = foe(), foe(life=Life.UNDEAD), foe(life=Life.NEITHER)
    vit, void = [Portion(DamageType.VITALITY, 6)], [Portion(DamageType.VOID, 6)]
    assert mitigate(vit, undead).total == 6 and mitigate(vit, living).total == 0
    assert mitigate(void, living).total == 6 and mitigate(void, undead).total == 0
    assert mitigate(void, construct).total == 0
    assert mitigate(vit, living, options=Sf2eOptions(vitality_void_only_harm=False)).total == 6


@pytest.mark.rule("E2-22", "E2-19")
def test_critical_doubles_the_total_after_bonuses() -> None:
    bonus = explain("damage bonus", [base(4, "Str")])
    r = roll_damage([damage("1d8", "slashing")], ScriptedDice([6]), bonus=bonus, critical=True)
    assert r.total == 20  # (6 + 4) x 2, not 2d8 + 4
    assert r.ledger[-1].describe() == "multiply: critical hit, x2: 10 -> 20 [E2-22]"


@pytest.mark.rule("E2-23")
def test_immunity_to_critical_hits_means_normal_damage() -> None:
    r = roll_damage([damage("1d8", "slashing")], ScriptedDice([6]), critical=True, immune_to_critical_hits=True)
    assert r.total == 6
    assert "immune to critical hits" in r.describe()
    assert CRITICAL_HITS == "critical-hits"


@pytest.mark.rule("E2-22", "E2-74")
def test_halving_rounds_down_with_a_minimum_of_1() -> None:
    assert [halve_total(n) for n in (7, 6, 2, 1, 0)] == [3, 3, 1, 1, 0]
    r = roll_damage([damage("1d4", "fire")], ScriptedDice([1]), halve=True)
    assert r.total == 1


@pytest.mark.rule("E2-74", "E2-22")
def test_multipliers_combine_each_after_the_first_adding_one_less() -> None:
    r = roll_damage([damage("5", "force")], ScriptedDice([]), multipliers=(2,), critical=True)
    assert r.total == 15  # x2 and x2 = x3
    assert "x2 and x2 = x3" in r.describe()


@pytest.mark.rule("E2-22")
def test_halving_shares_the_total_across_types() -> None:
    r = roll_damage([damage("3", "fire"), damage("3", "cold")], ScriptedDice([]), halve=True)
    assert r.total == 3
    assert [(p.type, p.amount) for p in r.portions] == [(FIRE, 2), (COLD, 1)]


@pytest.mark.rule("E2-19", "E2-20")
def test_bonus_goes_with_the_first_part() -> None:
    bonus = explain("damage bonus", [base(3, "Str")])
    r = roll_damage([damage("1d6", "slashing"), damage("1d6", "fire")], ScriptedDice([2, 5]), bonus=bonus)
    assert [(p.type.value, p.amount) for p in r.portions] == [("slashing", 5), ("fire", 5)]


@pytest.mark.rule("E2-19", "E2-20")
@pytest.mark.parametrize(
    ("kind", "strength", "expected"),
    [
        (DamageKind.MELEE, 3, 3),
        (DamageKind.THROWN, 3, 3),
        (DamageKind.PROPULSIVE, 3, 1),
        (DamageKind.PROPULSIVE, 4, 2),
        (DamageKind.RANGED, 3, 0),
        (DamageKind.SPELL, 3, 0),
        (DamageKind.MELEE, -1, -1),
        (DamageKind.PROPULSIVE, -3, -3),
    ],
)
def test_attribute_added_to_damage(kind: DamageKind, strength: int, expected: int) -> None:
    c = hero(attributes={"str": strength})
    assert damage_bonus(c, kind).total == expected


@pytest.mark.rule("E2-19")
@pytest.mark.parametrize(("reading", "expected"), [("full", -3), ("half", -2), ("none", 0)])
def test_propulsive_with_negative_strength_is_an_option(reading: str, expected: int) -> None:
    opts = Sf2eOptions.model_validate({"propulsive_negative_strength": reading})
    assert damage_bonus(hero(attributes={"str": -3}), DamageKind.PROPULSIVE, options=opts).total == expected


@pytest.mark.rule("E2-20", "E2-06")
def test_damage_bonuses_stack_by_2e_rules() -> None:
    extra = [mod(2, "inspire", Kind.STATUS), mod(1, "bless", Kind.STATUS), mod(-1, "enfeebled", Kind.STATUS)]
    assert damage_bonus(hero(attributes={"str": 2}), DamageKind.MELEE, extra=extra).total == 3


@pytest.mark.rule("E2-19")
def test_minimum_damage_after_penalties_is_an_option() -> None:
    bonus = explain("damage bonus", [base(-3, "Str")])
    assert roll_damage([damage("1d4", "bludgeoning")], ScriptedDice([1]), bonus=bonus).total == 0
    r = roll_damage(
        [damage("1d4", "bludgeoning")], ScriptedDice([1]), bonus=bonus, options=Sf2eOptions(minimum_damage=1)
    )
    assert r.total == 1


@pytest.mark.rule("E2-17")
@pytest.mark.parametrize(
    ("degree", "total"),
    [(Degree.CRITICAL_SUCCESS, 0), (Degree.SUCCESS, 5), (Degree.FAILURE, 11), (Degree.CRITICAL_FAILURE, 22)],
)
def test_basic_save_damage(degree: Degree, total: int) -> None:
    rolled = roll_damage([damage("2d6", "fire")], ScriptedDice([5, 6]))
    assert basic_save_damage(rolled, degree).total == total


@pytest.mark.rule("E2-17", "E2-26")
def test_basic_save_and_persistent_damage() -> None:
    rolled = roll_damage([damage("2d6", "fire"), damage("1d6", "fire", persistent=True)], ScriptedDice([5, 6]))
    assert basic_save_damage(rolled, Degree.CRITICAL_SUCCESS).persistent == ()
    assert not basic_save_damage(rolled, Degree.FAILURE).persistent[0].doubled
    assert basic_save_damage(rolled, Degree.CRITICAL_FAILURE).persistent[0].doubled


@pytest.mark.rule("E2-26", "E2-19")
def test_persistent_parts_are_not_dealt_at_once() -> None:
    r = roll_damage(
        [damage("1d8", "slashing"), damage("1d6", "fire", persistent=True)], ScriptedDice([4]), critical=True
    )
    assert r.total == 8 and len(r.persistent) == 1 and r.persistent[0].doubled
    normal = Sf2eOptions(persistent_on_critical="normal")
    r2 = roll_damage(
        [damage("1d6", "fire", persistent=True), damage("1d8", "slashing")],
        ScriptedDice([4]),
        critical=True,
        options=normal,
    )
    assert not r2.persistent[0].doubled
    # persistent damage of a type the target is immune to never starts
    assert mitigate(r, foe(immunities=frozenset({"fire"}))).persistent == ()
