"""Damage rolling and mitigation (DMG-01..16, SPA-06..12, ATK-08, ATK-14, ATK-16, GEN-04)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain
from sftactics.core.errors import DiceError, RuleViolation
from sftactics.dice import parse
from sftactics.dice.expr import ENERGY, KINETIC
from sftactics.dice.source import ScriptedDice
from sftactics.sf1e import stats
from sftactics.sf1e.damage import (
    DamagePortion,
    DamageRoll,
    bypass_options,
    halve,
    mitigate,
    roll_damage,
    times_rolled,
    weapon_targets_ac,
)
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.state import Creature
from tests.builders import npc, pc

NONE = Breakdown("no bonus", 0, ())
B = BonusType.BASE


def bonus(*values: int) -> Breakdown:
    return explain("damage bonus", [Term(v, f"term {i}", "", B) for i, v in enumerate(values)])


def by_type(r: DamageRoll | Any) -> dict[str, int]:
    portions = r.portions if isinstance(r, DamageRoll) else r.by_type
    return {" & ".join(sorted(p.types)) or "untyped": p.amount for p in portions}


def plain_roll(**amounts: int) -> DamageRoll:
    """A DamageRoll with given portions, e.g. plain_roll(piercing=7, fire=4)."""
    portions = tuple(DamagePortion(frozenset({t}) if t != "untyped" else frozenset(), a) for t, a in amounts.items())
    total = sum(amounts.values())
    return DamageRoll(portions, total, 1, False, False, (), ())


def target(**over: Any) -> Creature:
    return npc(**over)


# ---------------------------------------------------------------- rolling
@pytest.mark.rule("DMG-01", "DMG-02", "DMG-03")
def test_melee_damage_is_weapon_dice_plus_strength() -> None:
    tess = pc()
    baton = tess.stat.weapon("tactical baton")
    bd = stats.damage_bonus(tess, baton)
    assert bd.total == 3
    r = roll_damage(baton.damage_expr, bd, ScriptedDice([2]))
    assert r.total == 5  # 1d4 [2] + 3 Strength
    assert by_type(r) == {"bludgeoning": 5}
    assert r.times_rolled == 1 and not r.nonlethal and not r.minimum_applied


@pytest.mark.rule("DMG-02", "DMG-03")
def test_ranged_and_grenade_damage_add_no_strength() -> None:
    tess = pc()
    pistol = tess.stat.weapon("tactical semi-auto pistol")
    grenade = tess.stat.weapon("frag grenade I")
    assert roll_damage(pistol.damage_expr, stats.damage_bonus(tess, pistol), ScriptedDice([4])).total == 4
    assert roll_damage(grenade.damage_expr, stats.damage_bonus(tess, grenade), ScriptedDice([6])).total == 6


@pytest.mark.rule("DMG-01", "DMG-08")
def test_bonus_goes_to_the_first_typed_part() -> None:
    r = roll_damage(parse("1d6 S + 1d6 F"), bonus(3), ScriptedDice([2, 5]))
    assert by_type(r) == {"slashing": 5, "fire": 5}
    assert r.total == 10


@pytest.mark.rule("ATK-14", "DMG-04", "GEN-04")
def test_critical_rolls_dice_and_bonus_twice() -> None:
    r = roll_damage(parse("1d8 S"), bonus(3), ScriptedDice([5, 2]), critical=True)
    assert r.times_rolled == 2
    assert r.total == (5 + 3) + (2 + 3)
    assert len(r.rolls) == 2
    assert r.critical


@pytest.mark.rule("EX-05", "GEN-04", "DMG-04")
def test_doubling_twice_rolls_three_times() -> None:
    dice = ScriptedDice([1, 2, 3])
    r = roll_damage(parse("1d6 P"), bonus(2), dice, multipliers=[2], critical=True)
    assert r.times_rolled == 3
    assert r.total == (1 + 2) + (2 + 2) + (3 + 2)
    assert dice.remaining == 0
    assert times_rolled([2, 2]) == 3
    assert times_rolled([3, 2]) == 4
    assert times_rolled([]) == 1


@pytest.mark.rule("GEN-04")
def test_multipliers_below_one_are_refused() -> None:
    with pytest.raises(DiceError):
        roll_damage(parse("1d6"), NONE, ScriptedDice([1]), multipliers=[0.5])
    assert times_rolled([1.5]) == 1  # x1.5 cannot be a whole number of rolls: rounds down


@pytest.mark.rule("ATK-16")
def test_an_effect_with_an_attack_roll_crits_like_a_weapon() -> None:
    ray = parse("2d6 F")  # a spell's ray: no flat bonus
    r = roll_damage(ray, NONE, ScriptedDice([3, 4, 6, 1]), critical=True)
    assert r.total == 14
    assert by_type(r) == {"fire": 14}


@pytest.mark.rule("DMG-05")
def test_penalties_below_one_give_one_nonlethal() -> None:
    sick = explain("damage bonus", [Term(-2, "sickened", "CON-31"), Term(-2, "broken weapon", "CON-04")])
    r = roll_damage(parse("1d4 B"), sick, ScriptedDice([2]))
    assert r.total == 1
    assert r.minimum_applied and r.nonlethal
    assert by_type(r) == {"bludgeoning": 1}
    assert [line.rule for line in r.ledger if line.step == "minimum"] == ["DMG-05"]


@pytest.mark.rule("DMG-05")
def test_minimum_damage_needs_penalties_and_counts_the_whole_total() -> None:
    # a negative printed flat term is a penalty too
    r = roll_damage(parse("1d4-3 P"), NONE, ScriptedDice([1]))
    assert (r.total, r.minimum_applied, r.nonlethal) == (1, True, True)
    # a crit: each roll adds the penalty, the sum decides: (1-2) + (4-2) = 1, no minimum needed
    r2 = roll_damage(parse("1d4 P"), bonus(-2), ScriptedDice([1, 4]), critical=True)
    assert (r2.total, r2.minimum_applied, r2.nonlethal) == (1, False, False)
    # exactly 1 after penalties: normal lethal damage
    r3 = roll_damage(parse("1d4 P"), bonus(-1), ScriptedDice([2]))
    assert (r3.total, r3.minimum_applied) == (1, False)


@pytest.mark.rule("DMG-05", "DMG-16")
def test_minimum_damage_comes_before_dr() -> None:
    r = roll_damage(parse("1d4 S"), bonus(-4), ScriptedDice([2]))
    out = mitigate(r, target(dr=[{"value": 5}]))
    assert r.total == 1
    assert out.amount == 0 and out.negated and out.nonlethal


@pytest.mark.rule("DMG-08")
def test_a_part_below_zero_passes_its_deficit_on() -> None:
    r = roll_damage(parse("1d4 S + 1d6 F"), bonus(-3), ScriptedDice([1, 5]))
    assert r.total == 3
    assert by_type(r) == {"fire": 3}


@pytest.mark.rule("DMG-08")
def test_two_type_part_splits_half_each_with_odd_point_to_kinetic() -> None:
    r = roll_damage(parse("1d8 A & P"), NONE, ScriptedDice([7]))
    assert by_type(r) == {"piercing": 4, "acid": 3}
    assert [sorted(p.types) for p in r.portions] == [["piercing"], ["acid"]]


@pytest.mark.rule("DMG-08")
def test_two_type_part_all_each_keeps_one_portion() -> None:
    opts = Sf1eOptions(multi_type_split="all_each")
    r = roll_damage(parse("1d8 A & P"), NONE, ScriptedDice([7]), options=opts)
    assert by_type(r) == {"acid & piercing": 7}
    # DR alone does not reduce it; DR and acid resistance together reduce it by the smaller
    assert mitigate(r, target(dr=[{"value": 5}]), options=opts).amount == 7
    both = target(dr=[{"value": 5}], resistances={"acid": 3})
    assert mitigate(r, both, options=opts).amount == 4


def test_nonlethal_weapon_or_label_makes_nonlethal_damage() -> None:
    assert roll_damage(parse("1d6 B"), NONE, ScriptedDice([3]), nonlethal=True).nonlethal
    labelled = roll_damage(parse("1d6 nonlethal"), NONE, ScriptedDice([3]))
    assert labelled.nonlethal and by_type(labelled) == {"untyped": 3}


@pytest.mark.rule("DMG-14")
def test_half_damage_rounds_the_total_down() -> None:
    r = roll_damage(parse("1d6 P + 1d6 F"), NONE, ScriptedDice([3, 4]))
    h = halve(r)
    assert h.total == 3  # half of 7
    assert sum(p.amount for p in h.portions) == 3
    assert by_type(h) == {"piercing": 1, "fire": 2}  # 3 -> 1, 4 -> 2: no rounding point left to share
    odd = halve(roll_damage(parse("1d6 P + 1d6 F"), NONE, ScriptedDice([3, 5])))
    assert by_type(odd) == {"piercing": 2, "fire": 2}  # half of 8: the rounding point goes to the first odd
    assert odd.ledger[-1].rule == "DMG-14"


# ---------------------------------------------------------------- which AC
@pytest.mark.rule("ATK-08")
@pytest.mark.parametrize(
    ("types", "expected"),
    [
        ({"fire"}, "eac"),
        ({"acid", "electricity"}, "eac"),
        ({"piercing"}, "kac"),
        ({"slashing", "fire"}, "kac"),
        (set(), "kac"),
        ({"force"}, "kac"),
    ],
)
def test_which_ac_an_attack_targets(types: set[str], expected: str) -> None:
    which, why = weapon_targets_ac(frozenset(types))
    assert which == expected
    assert "ATK-08" in why


@pytest.mark.rule("ATK-08", "SPA-13")
def test_incorporeal_attackers_and_explicit_targets() -> None:
    assert weapon_targets_ac(frozenset({"slashing"}), incorporeal_attacker=True)[0] == "eac"
    assert weapon_targets_ac(frozenset({"slashing"}), explicit="eac")[0] == "eac"
    assert weapon_targets_ac(frozenset({"fire"}), explicit="KAC")[0] == "kac"
    with pytest.raises(RuleViolation):
        weapon_targets_ac(frozenset(), options=Sf1eOptions(default_ac_is_kac=False))
    with pytest.raises(RuleViolation):
        weapon_targets_ac(frozenset({"fire"}), explicit="touch")


# ---------------------------------------------------------------- immunities
@pytest.mark.rule("DMG-16")
def test_immunity_removes_only_its_type() -> None:
    out = mitigate(plain_roll(slashing=6, fire=5), target(immunities=["fire"]))
    assert out.amount == 6
    assert by_type(out) == {"slashing": 6}
    assert [line.step for line in out.ledger].count("immunity") == 1


@pytest.mark.rule("DMG-16")
def test_immunity_to_nonlethal_damage() -> None:
    r = roll_damage(parse("1d6 B"), NONE, ScriptedDice([4]), nonlethal=True)
    out = mitigate(r, target(immunities=["nonlethal"]))
    assert out.amount == 0 and out.negated


# ---------------------------------------------------------------- damage reduction
@pytest.mark.rule("SPA-06")
def test_dr_reduces_kinetic_damage_once_per_attack() -> None:
    out = mitigate(plain_roll(piercing=7, slashing=4), target(dr=[{"value": 5}]))
    assert out.amount == 6  # 11 kinetic - 5 once
    assert by_type(out) == {"piercing": 2, "slashing": 4}


@pytest.mark.rule("SPA-06", "DMG-08")
def test_dr_does_not_touch_energy_or_untyped_damage() -> None:
    out = mitigate(plain_roll(bludgeoning=9, fire=4, untyped=3), target(dr=[{"value": 5}]))
    assert by_type(out) == {"bludgeoning": 4, "fire": 4, "untyped": 3}
    assert out.amount == 11


@pytest.mark.rule("SPA-07")
@pytest.mark.parametrize(
    ("bypass", "magic", "materials", "alignment", "reduced"),
    [
        ("—", True, {"adamantine"}, {"good"}, True),
        ("magic", True, set(), set(), False),
        ("magic", False, set(), set(), True),
        ("adamantine", False, {"adamantine"}, set(), False),
        ("cold iron", False, {"adamantine"}, set(), True),
        ("good || magic", False, set(), {"good"}, False),
        ("good or magic", True, set(), set(), False),
        ("good or magic", False, set(), {"evil"}, True),
        ("lawful && magic", True, set(), set(), True),
        ("lawful and magic", True, set(), {"lawful"}, False),
        ("lawful and magic", False, set(), {"lawful"}, True),
    ],
)
def test_dr_bypass_syntax(bypass: str, magic: bool, materials: set[str], alignment: set[str], reduced: bool) -> None:
    t = target(dr=[{"value": 5, "bypass": bypass}])
    out = mitigate(
        plain_roll(slashing=8), t, magic=magic, materials=frozenset(materials), alignment=frozenset(alignment)
    )
    assert out.amount == (3 if reduced else 8)


@pytest.mark.rule("SPA-07")
def test_bypass_text_parses_into_alternatives() -> None:
    assert bypass_options("—") == []
    assert bypass_options("magic") == [frozenset({"magic"})]
    assert bypass_options("good || Magic") == [frozenset({"good"}), frozenset({"magic"})]
    assert bypass_options("lawful && magic") == [frozenset({"lawful", "magic"})]
    assert bypass_options("cold iron or good and magic") == [frozenset({"cold iron"}), frozenset({"good", "magic"})]


@pytest.mark.rule("SPA-09")
def test_best_applicable_dr_counts_and_entries_do_not_stack() -> None:
    t = target(dr=[{"value": 5, "bypass": "—"}, {"value": 10, "bypass": "magic"}])
    assert mitigate(plain_roll(piercing=12), t).amount == 2  # DR 10/magic is best, not 15
    assert mitigate(plain_roll(piercing=12), t, magic=True).amount == 7  # only DR 5/— applies


@pytest.mark.rule("SPA-08", "SPA-06")
def test_dr_that_negates_all_damage_negates_the_attack() -> None:
    out = mitigate(plain_roll(slashing=4), target(dr=[{"value": 5}]))
    assert out.amount == 0 and out.negated
    kept = mitigate(plain_roll(slashing=4, fire=1), target(dr=[{"value": 5}]))
    assert kept.amount == 1 and not kept.negated  # energy damage in the attack is not negated by DR


# ---------------------------------------------------------------- energy resistance
@pytest.mark.rule("SPA-10")
def test_energy_resistance_reduces_only_the_matching_portion() -> None:
    t = target(resistances={"fire": 5})
    out = mitigate(plain_roll(bludgeoning=10, fire=4, cold=3), t)
    assert by_type(out) == {"bludgeoning": 10, "cold": 3}
    assert out.amount == 13


@pytest.mark.rule("SPA-10", "SPA-11")
def test_each_resistance_applies_once_per_attack() -> None:
    r = roll_damage(parse("1d6 F + 1d6 F + 1d6 E"), NONE, ScriptedDice([6, 6, 6]))
    assert by_type(r) == {"fire": 12, "electricity": 6}  # same-type parts are one portion
    out = mitigate(r, target(resistances={"fire": 5, "electricity": 10}))
    assert by_type(out) == {"fire": 7}
    assert out.amount == 7


@pytest.mark.rule("SPA-11")
def test_resistance_that_negates_everything_negates_the_attack() -> None:
    out = mitigate(plain_roll(fire=5), target(resistances={"fire": 10}))
    assert out.negated and out.amount == 0
    assert not mitigate(plain_roll(), target()).negated  # nothing to negate


# ---------------------------------------------------------------- incorporeal
@pytest.mark.rule("SPA-12")
def test_incorporeal_ignores_nonmagical_kinetic_and_halves_the_rest() -> None:
    ghost = target(incorporeal=True)
    out = mitigate(plain_roll(slashing=9, fire=7), ghost)
    assert by_type(out) == {"fire": 3}
    magic = mitigate(plain_roll(slashing=9, fire=7), ghost, magic=True)
    assert magic.amount == 8  # half of 16


@pytest.mark.rule("SPA-12")
def test_incorporeal_takes_full_damage_from_force_and_incorporeal_sources() -> None:
    ghost = target(incorporeal=True)
    assert mitigate(plain_roll(slashing=9), ghost, from_incorporeal=True).amount == 9
    assert mitigate(plain_roll(untyped=9), ghost, force=True).amount == 9
    assert mitigate(plain_roll(force=9, fire=4), ghost).amount == 11  # force portion full, fire halved


@pytest.mark.rule("SPA-12", "DMG-16")
def test_incorporeal_halving_order_option() -> None:
    ghost = target(incorporeal=True, resistances={"fire": 5})
    before = mitigate(plain_roll(fire=20), ghost)
    after = mitigate(plain_roll(fire=20), ghost, options=Sf1eOptions(incorporeal_halve_before_reduction=False))
    assert before.amount == 5  # 20 / 2 = 10, - 5
    assert after.amount == 7  # 20 - 5 = 15, / 2 = 7


# ---------------------------------------------------------------- vulnerability and the whole pipeline
@pytest.mark.rule("DMG-16")
def test_vulnerability_multiplies_what_gets_through() -> None:
    t = target(resistances={"fire": 5}, vulnerabilities=["fire"])
    out = mitigate(plain_roll(fire=11, piercing=3), t)
    assert by_type(out) == {"fire": 9, "piercing": 3}  # (11 - 5) x 1.5
    double = mitigate(
        plain_roll(fire=5), target(vulnerabilities=["F"]), options=Sf1eOptions(vulnerability_multiplier=2)
    )
    assert double.amount == 10


@pytest.mark.rule("DMG-16", "ATK-14", "SPA-06", "SPA-10")
def test_pipeline_crit_with_dr_and_resistance_and_ledger_adds_up() -> None:
    t = target(dr=[{"value": 5, "bypass": "magic"}], resistances={"acid": 5})
    r = roll_damage(parse("1d8 A & P"), bonus(3), ScriptedDice([5, 6]), critical=True)
    assert by_type(r) == {"piercing": 9, "acid": 8}  # 17 = 8 + 9, odd point to piercing
    out = mitigate(r, t)
    assert by_type(out) == {"piercing": 4, "acid": 3}
    assert out.amount == 7
    assert sum(line.amount for line in out.ledger) == out.amount
    assert sum(line.amount for line in r.ledger) == r.total
    assert [line.rule for line in out.ledger] == ["DMG-16", "SPA-06", "SPA-10", "DMG-16"]


# ---------------------------------------------------------------- properties
portion_types = st.sampled_from([*sorted(KINETIC | ENERGY | {"force"}), ""])


@st.composite
def rolls(draw: st.DrawFn) -> DamageRoll:
    items = draw(st.lists(st.tuples(portion_types, st.integers(0, 60)), min_size=0, max_size=4))
    merged: dict[str, int] = {}
    for t, a in items:
        merged[t] = merged.get(t, 0) + a
    portions = tuple(DamagePortion(frozenset({t}) if t else frozenset(), a) for t, a in merged.items())
    return DamageRoll(portions, sum(merged.values()), 1, draw(st.booleans()), False, (), ())


@st.composite
def defenders(draw: st.DrawFn, vulnerable: bool = False) -> Creature:
    energy = sorted(ENERGY)
    dr = draw(st.lists(st.fixed_dictionaries({"value": st.integers(0, 15), "bypass": st.sampled_from(
        ["—", "magic", "adamantine", "good or magic", "lawful and magic"])}), max_size=2))  # fmt: skip
    res = draw(st.dictionaries(st.sampled_from(energy), st.integers(0, 20), max_size=3))
    imm = draw(st.lists(st.sampled_from([*energy, "piercing", "nonlethal"]), max_size=2))
    vul = draw(st.lists(st.sampled_from(energy), max_size=2)) if vulnerable else []
    return npc(dr=dr, resistances=res, immunities=imm, vulnerabilities=vul, incorporeal=draw(st.booleans()))


@pytest.mark.rule("SPA-06", "SPA-10", "SPA-12")
@settings(max_examples=200, deadline=None)
@given(rolls(), defenders(), st.booleans(), st.booleans(), st.booleans())
def test_mitigation_never_increases_damage_without_vulnerability(
    r: DamageRoll, t: Creature, magic: bool, force: bool, half_first: bool
) -> None:
    opts = Sf1eOptions(incorporeal_halve_before_reduction=half_first)
    out = mitigate(r, t, magic=magic, force=force, options=opts)
    assert 0 <= out.amount <= r.total
    assert all(p.amount >= 0 for p in out.by_type)
    assert sum(line.amount for line in out.ledger) == out.amount
    assert out.negated == (r.total > 0 and out.amount == 0)


@pytest.mark.rule("SPA-06", "SPA-10")
@settings(max_examples=200, deadline=None)
@given(rolls(), defenders(vulnerable=True))
def test_mitigation_never_returns_negative_amounts(r: DamageRoll, t: Creature) -> None:
    out = mitigate(r, t)
    assert out.amount >= 0
    assert all(p.amount > 0 for p in out.by_type)


@pytest.mark.rule("SPA-06", "SPA-10", "DMG-08")
@settings(max_examples=200, deadline=None)
@given(rolls(), st.integers(0, 30), st.dictionaries(st.sampled_from(sorted(ENERGY)), st.integers(0, 30)))
def test_dr_and_resistance_never_reduce_another_types_portion(r: DamageRoll, dr: int, res: dict[str, int]) -> None:
    t = npc(dr=[{"value": dr}], resistances=res)
    out = mitigate(r, t)
    after = {p.types: p.amount for p in out.by_type}
    for p in r.portions:
        got = after.get(p.types, 0)
        if p.types and p.types <= KINETIC:
            continue  # DR may take from any kinetic portion
        (only,) = p.types or {""}
        if only in ENERGY:
            assert got >= p.amount - res.get(only, 0)
        else:
            assert got == p.amount  # untyped and force: neither DR nor resistance
    kinetic_in = sum(p.amount for p in r.portions if p.types and p.types <= KINETIC)
    kinetic_out = sum(a for ts, a in after.items() if ts and ts <= KINETIC)
    assert kinetic_out == max(kinetic_in - dr, 0)


@pytest.mark.rule("DMG-04", "DMG-05")
@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1, 6), min_size=3, max_size=3),
    st.integers(-8, 8),
    st.booleans(),
)
def test_rolled_portions_add_up_and_are_never_negative(faces: list[int], flat: int, crit: bool) -> None:
    dice = ScriptedDice(faces * 2)
    r = roll_damage(parse("1d6 S + 1d6 F + 1d6 A & P"), bonus(flat), dice, critical=crit)
    assert r.total >= 1  # every die shows at least 1, so only penalties can push it lower (DMG-05)
    assert sum(p.amount for p in r.portions) == r.total
    assert all(p.amount >= 0 for p in r.portions)
    assert sum(line.amount for line in r.ledger) == r.total
