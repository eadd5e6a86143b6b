"""Conditions (CON-00..36) checked through the public stat functions, plus the compiled modifier tables
(MOD-21..23) and penalty stacking (BON-12). The condition helpers (adding, removing, ticks, burning, confusion)
are tested in test_condition_helpers.py.

Baseline numbers of ``pc()`` (see tests/builders.py): tactical baton +7 (BAB 4 + Str 3), damage +3;
semi-auto pistol +6 (BAB 4 + Dex 2), damage +0; frag grenade +7 (thrown: Str), damage +0; EAC 17, KAC 18;
Fort +5, Ref +3, Will +1; initiative +2; land speed 30 ft; Str check +3, Dex check +2.
"""

from __future__ import annotations

from functools import reduce

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sftactics.core.breakdown import Breakdown, explain
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats
from sftactics.sf1e.conditions import BLINDED_MOVE_DC, CONDITIONS, PANICKED_CORNERED_ACTIONS
from sftactics.sf1e.modifiers import NO_ACTIONS, ActionLimits
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.statblock import Ability
from sftactics.sf1e.state import Creature
from tests.builders import npc, pc, with_conditions

ALL = sorted(CONDITIONS)

BASE_MELEE, BASE_RANGED, BASE_THROWN = 7, 6, 7
BASE_EAC, BASE_KAC = 17, 18
BASE_SAVES = {"fort": 5, "ref": 3, "will": 1}
BASE_INIT = 2


def _c(*names: str) -> Creature:
    return with_conditions(pc(), *names)


def _atk(c: Creature, weapon: str, tags: frozenset[str] = frozenset()) -> int:
    return stats.attack_bonus(c, c.stat.weapon(weapon), tags=tags).total


def _dmg(c: Creature, weapon: str, options: Sf1eOptions | None = None) -> int:
    if options is None:
        return stats.damage_bonus(c, c.stat.weapon(weapon)).total
    return stats.damage_bonus(c, c.stat.weapon(weapon), options=options).total


def _skill(c: Creature, skill: str, ability: Ability, *tags: str) -> int:
    """A skill check with a +5 bonus before conditions."""
    return stats.skill_bonus(c, skill, bonus=5, ability=ability, tags=frozenset(tags)).total


def _against(c: Creature, kind: str) -> Breakdown:
    """What the target's conditions add to a ``kind`` ("melee"/"ranged") attack made against it."""
    tags = frozenset({kind})
    return explain("attacks against", stats.condition_terms(c, {"attack_against"}, tags), tags=tags)


def test_registry_holds_every_condition_in_con_order() -> None:
    expected = [
        "asleep", "bleeding", "blinded", "burning", "corroding", "confused", "cowering", "dazed", "dazzled", "dead",
        "deafened", "dying", "encumbered", "entangled", "exhausted", "fascinated", "fatigued", "flat-footed",
        "frightened", "grappled", "helpless", "nauseated", "off-kilter", "off-target", "overburdened",
        "panicked", "paralyzed", "pinned", "prone", "shaken", "sickened", "stable", "staggered", "stunned",
        "unconscious", "invisible",
    ]  # fmt: skip
    assert list(CONDITIONS) == expected
    rules = [CONDITIONS[n].rule for n in expected]
    assert rules == sorted(rules)
    assert all(d.summary and d.ends for d in CONDITIONS.values())


# ================================================================ compiled tables (MOD-21, MOD-22, MOD-23)
# attack deltas for (melee baton, ranged pistol); helpless-type conditions make Dex -5 (ranged: 2 -> -5)
ATTACK_TABLE: dict[str, tuple[int, int]] = {
    "asleep": (0, -7), "bleeding": (0, 0), "blinded": (0, 0), "burning": (0, 0), "corroding": (0, 0),
    "confused": (0, 0),
    "cowering": (0, 0), "dazed": (0, 0), "dazzled": (-1, -1), "dead": (0, 0), "deafened": (0, 0),
    "dying": (0, -7), "encumbered": (0, 0), "entangled": (-2, -2), "exhausted": (-3, -3),
    "fascinated": (0, 0), "fatigued": (-1, -1), "flat-footed": (0, 0), "frightened": (-2, -2),
    "grappled": (-2, -2), "helpless": (0, -7), "nauseated": (0, 0), "off-kilter": (-2, -2),
    "off-target": (-2, -2), "overburdened": (0, 0), "panicked": (0, 0), "paralyzed": (0, -7),
    "pinned": (-4, -4), "prone": (-4, 0), "shaken": (-2, -2), "sickened": (-2, -2), "stable": (0, -7),
    "staggered": (0, 0), "stunned": (0, 0), "unconscious": (0, -7), "invisible": (0, 0),
}  # fmt: skip

# AC deltas (vs melee, vs ranged), same for EAC and KAC; overburdened caps the +2 Dex bonus at +0
AC_TABLE: dict[str, tuple[int, int]] = {
    "asleep": (-7, -7), "bleeding": (0, 0), "blinded": (-2, -2), "burning": (0, 0), "corroding": (0, 0),
    "confused": (0, 0),
    "cowering": (-2, -2), "dazed": (0, 0), "dazzled": (0, 0), "dead": (0, 0), "deafened": (0, 0),
    "dying": (-7, -7), "encumbered": (0, 0), "entangled": (-2, -2), "exhausted": (-3, -3),
    "fascinated": (0, 0), "fatigued": (-1, -1), "flat-footed": (-2, -2), "frightened": (0, 0),
    "grappled": (-2, -2), "helpless": (-7, -7), "nauseated": (0, 0), "off-kilter": (-2, -2),
    "off-target": (0, 0), "overburdened": (-2, -2), "panicked": (0, 0), "paralyzed": (-7, -7),
    "pinned": (-6, -6), "prone": (-4, 4), "shaken": (0, 0), "sickened": (0, 0), "stable": (-7, -7),
    "staggered": (0, 0), "stunned": (-2, -2), "unconscious": (-7, -7), "invisible": (0, 0),
}  # fmt: skip

# save deltas (Fort, Ref, Will)
SAVE_TABLE: dict[str, tuple[int, int, int]] = {
    "asleep": (0, -7, 0), "bleeding": (0, 0, 0), "blinded": (0, 0, 0), "burning": (0, 0, 0), "corroding": (0, 0, 0),
    "confused": (0, 0, 0), "cowering": (0, 0, 0), "dazed": (0, 0, 0), "dazzled": (0, 0, 0),
    "dead": (0, 0, 0), "deafened": (0, 0, 0), "dying": (0, -7, 0), "encumbered": (0, 0, 0),
    "entangled": (0, -2, 0), "exhausted": (0, -3, 0), "fascinated": (0, 0, 0), "fatigued": (0, -1, 0),
    "flat-footed": (0, 0, 0), "frightened": (-2, -2, -2), "grappled": (0, -2, 0), "helpless": (0, -7, 0),
    "nauseated": (0, 0, 0), "off-kilter": (0, 0, 0), "off-target": (0, 0, 0), "overburdened": (0, 0, 0),
    "panicked": (-2, -2, -2), "paralyzed": (0, -7, 0), "pinned": (0, -4, 0), "prone": (0, 0, 0),
    "shaken": (-2, -2, -2), "sickened": (-2, -2, -2), "stable": (0, -7, 0), "staggered": (0, 0, 0),
    "stunned": (0, 0, 0), "unconscious": (0, -7, 0), "invisible": (0, 0, 0),
}  # fmt: skip

# initiative deltas (option initiative_is_ability_check off, the default)
INIT_TABLE: dict[str, int] = {
    "asleep": -7, "deafened": -4, "dying": -7, "entangled": -2, "exhausted": -3, "fatigued": -1,
    "grappled": -2, "helpless": -7, "paralyzed": -7, "pinned": -4, "stable": -7, "unconscious": -7,
}  # fmt: skip

# damage deltas (melee baton, ranged pistol, thrown grenade) with fatigued_thrown_damage on (default)
DAMAGE_TABLE: dict[str, tuple[int, int, int]] = {
    "exhausted": (-3, 0, -3),
    "fatigued": (-1, 0, -1),
    "sickened": (-2, -2, -2),
}

SPEED_TABLE: dict[str, int] = {
    "encumbered": 20, "entangled": 15, "exhausted": 15, "grappled": 0, "off-kilter": 0, "overburdened": 5,
    "paralyzed": 0, "pinned": 0,
}  # fmt: skip

ACTION_TABLE: dict[str, ActionLimits] = {
    **{n: NO_ACTIONS for n in ("asleep", "cowering", "dazed", "dead", "dying", "fascinated", "stable",
                               "stunned", "unconscious")},
    **{n: ActionLimits(reaction=False) for n in ("blinded", "flat-footed", "off-kilter", "pinned")},
    "nauseated": ActionLimits(standard=False, swift=False, full=False, reaction=False, attack=False),
    "panicked": ActionLimits(reaction=False, attack=False),
    "paralyzed": ActionLimits(mental_only=True),
    "staggered": ActionLimits(full=False, reaction=False, move_or_standard_only=True),
}  # fmt: skip

FLAT_FOOTED = {"blinded", "cowering", "flat-footed", "off-kilter", "pinned", "stunned"}
DEX_MINUS_5 = {"asleep", "dying", "helpless", "paralyzed", "stable", "unconscious"}


def test_tables_cover_every_condition() -> None:
    assert set(ATTACK_TABLE) == set(AC_TABLE) == set(SAVE_TABLE) == set(CONDITIONS)


@pytest.mark.rule("MOD-21", "ATK-19", "CON-09", "CON-14", "CON-15", "CON-17", "CON-19", "CON-20", "CON-23")
@pytest.mark.rule("CON-24", "CON-28", "CON-29", "CON-30", "CON-31", "CON-21", "CON-27", "MOD-18")
@pytest.mark.parametrize("name", ALL)
def test_attack_table(name: str) -> None:
    melee, ranged = ATTACK_TABLE[name]
    c = _c(name)
    assert _atk(c, "baton") == BASE_MELEE + melee
    assert _atk(c, "pistol") == BASE_RANGED + ranged


@pytest.mark.rule("MOD-22", "MOD-18", "MOD-19", "MOD-20", "CON-18", "CON-03", "CON-07", "CON-14", "CON-15")
@pytest.mark.rule("CON-17", "CON-20", "CON-21", "CON-23", "CON-27", "CON-28", "CON-29", "CON-34", "CON-35")
@pytest.mark.parametrize("name", ALL)
def test_ac_table(name: str) -> None:
    vs_melee, vs_ranged = AC_TABLE[name]
    c = _c(name)
    assert stats.armor_class(c, "eac", vs="melee").total == BASE_EAC + vs_melee
    assert stats.armor_class(c, "eac", vs="ranged").total == BASE_EAC + vs_ranged
    assert stats.armor_class(c, "kac", vs="melee").total == BASE_KAC + vs_melee
    assert stats.armor_class(c, "kac", vs="ranged").total == BASE_KAC + vs_ranged


@pytest.mark.rule("MOD-23", "SV-12", "CON-14", "CON-15", "CON-17", "CON-19", "CON-20", "CON-26", "CON-28")
@pytest.mark.rule("CON-30", "CON-31", "CON-21")
@pytest.mark.parametrize("name", ALL)
def test_save_table(name: str) -> None:
    c = _c(name)
    for save, delta in zip(("fort", "ref", "will"), SAVE_TABLE[name], strict=True):
        assert stats.save_bonus(c, save).total == BASE_SAVES[save] + delta


@pytest.mark.rule("CF-03", "CON-11", "CON-14", "CON-15", "CON-17", "CON-20", "CON-28")
@pytest.mark.parametrize("name", ALL)
def test_initiative_table(name: str) -> None:
    assert stats.initiative(_c(name)).total == BASE_INIT + INIT_TABLE.get(name, 0)


@pytest.mark.rule("CON-15", "CON-17", "CON-31")
@pytest.mark.parametrize("name", ALL)
def test_damage_table(name: str) -> None:
    melee, ranged, thrown = DAMAGE_TABLE.get(name, (0, 0, 0))
    c = _c(name)
    assert (_dmg(c, "baton"), _dmg(c, "pistol"), _dmg(c, "grenade")) == (3 + melee, ranged, thrown)


@pytest.mark.rule("MOV-06", "CON-13", "CON-14", "CON-15", "CON-20", "CON-23", "CON-25", "CON-27", "CON-28")
@pytest.mark.parametrize("name", ALL)
def test_speed_table(name: str) -> None:
    assert stats.speed(_c(name)).total == SPEED_TABLE.get(name, 30)


@pytest.mark.rule("CON-00", "CON-01", "CON-07", "CON-08", "CON-10", "CON-12", "CON-16", "CON-22", "CON-26")
@pytest.mark.rule("CON-27", "CON-32", "CON-33", "CON-34", "CON-35", "CON-18")
@pytest.mark.parametrize("name", ALL)
def test_action_limits_table(name: str) -> None:
    c = _c(name)
    limits = stats.action_limits(c)
    assert limits == ACTION_TABLE.get(name, ActionLimits())
    assert stats.can_react(c) is limits.reaction
    assert stats.is_flat_footed(c) is (name in FLAT_FOOTED)


@pytest.mark.rule("CON-21", "CON-27", "MOD-19")
@pytest.mark.parametrize("name", ALL)
def test_dexterity_treated_as_zero(name: str) -> None:
    assert stats.ability_mod(_c(name), "dex").total == (-5 if name in DEX_MINUS_5 else 2)


@pytest.mark.rule("CON-02", "CON-05", "CON-19", "CON-30")
def test_data_flags() -> None:
    flags = CONDITIONS.values()
    assert {d.name for d in flags if d.no_run_charge} == {"entangled", "exhausted", "fatigued"}
    assert {d.name for d in flags if d.drops_held_items} == {"panicked", "stunned"}
    assert {d.name: d.max_dex for d in flags if d.max_dex is not None} == {"encumbered": 2, "overburdened": 0}
    assert {d.name: d.stacking for d in flags if d.stacking != "replace"} == {
        "bleeding": "worst",
        "burning": "cumulative",
        "corroding": "cumulative",
        "frightened": "extend",
        "shaken": "extend",
    }
    assert {d.name: d.tick for d in flags if d.tick} == {"bleeding": "bleed", "burning": "burn", "corroding": "corrode"}
    assert {d.name for d in flags if d.unconscious} == {"unconscious"}


@pytest.mark.rule("CON-20", "CON-28", "CON-18", "CON-22", "CON-26", "CON-27", "CON-33", "CON-06")
def test_no_attacks_of_opportunity() -> None:
    no_aoo = {n for n in ALL if any(d.no_aoo for d in cond.active(_c(n)).values())}
    assert no_aoo == {
        "asleep", "blinded", "cowering", "dazed", "dead", "dying", "fascinated", "flat-footed", "grappled",
        "nauseated", "off-kilter", "panicked", "paralyzed", "pinned", "stable", "staggered", "stunned",
        "unconscious",
    }  # fmt: skip


# ================================================================ one condition at a time
@pytest.mark.rule("CON-01", "CON-21")
def test_asleep() -> None:
    c = _c("asleep")
    assert set(cond.active(c)) == {"asleep", "helpless"}
    assert _skill(c, "perception", "wis") == -5
    assert _skill(c, "perception", "wis", "opposed") == -5
    assert _skill(c, "diplomacy", "cha") == 5
    assert stats.action_limits(c).none


@pytest.mark.rule("CON-03")
def test_blinded_checks() -> None:
    c = _c("blinded")
    assert _skill(c, "acrobatics", "dex") == 1
    assert _skill(c, "athletics", "str") == 1
    assert _skill(c, "perception", "wis", "opposed") == 1
    assert _skill(c, "perception", "wis") == 5
    assert _skill(c, "diplomacy", "cha") == 5
    assert stats.ability_check_bonus(c, "dex").total == 2  # skill checks only
    assert cond.auto_fail_reason(c, {"sense:sight"}) == "blinded"
    assert cond.auto_fail_reason(c, {"sense:sound"}) is None
    assert BLINDED_MOVE_DC == 10
    assert cond.blinded_move_dc == 10


@pytest.mark.rule("CON-09")
def test_dazzled_perception() -> None:
    c = _c("dazzled")
    assert _skill(c, "perception", "wis", "sense:sight") == 4
    assert _skill(c, "perception", "wis", "sense:sound") == 5


@pytest.mark.rule("CON-10")
def test_dead_cannot_act() -> None:
    c = _c("dead")
    assert stats.action_limits(c) == NO_ACTIONS
    assert stats.action_limits(c).none


@pytest.mark.rule("CON-11")
def test_deafened() -> None:
    c = _c("deafened")
    assert stats.initiative(c).total == -2
    assert _skill(c, "perception", "wis", "opposed") == 1
    assert _skill(c, "perception", "wis") == 5
    assert cond.auto_fail_reason(c, {"skill:perception", "sense:sound"}) == "deafened"
    assert cond.auto_fail_reason(c, {"sense:sight"}) is None


@pytest.mark.rule("CON-12", "CON-32", "CON-35", "CON-21")
@pytest.mark.parametrize("name", ["dying", "stable"])
def test_dying_and_stable_are_unconscious_and_helpless(name: str) -> None:
    assert set(cond.active(_c(name))) == {name, "unconscious", "helpless"}


@pytest.mark.rule("CON-13", "CON-25")
@pytest.mark.parametrize(("name", "eac", "speed"), [("encumbered", 17, 20), ("overburdened", 15, 5)])
def test_encumbrance_caps_dexterity(name: str, eac: int, speed: int) -> None:
    quick = pc(
        abilities={"str": 3, "dex": 4, "con": 1, "int": 0, "wis": 0, "cha": 0},
        scores={"str": 16, "dex": 18, "con": 12, "int": 10, "wis": 10, "cha": 10},
    )
    assert stats.armor_class(quick, "eac").total == 19  # 10 + 5 armor + 4 Dex
    c = with_conditions(quick, name)
    assert stats.armor_class(c, "eac").total == eac
    assert stats.max_dex(c) == (2 if name == "encumbered" else 0)
    assert stats.speed(c).total == speed
    assert _skill(c, "acrobatics", "dex") == 0
    assert _skill(c, "athletics", "str") == 0
    assert _skill(c, "perception", "wis") == 5
    assert stats.ability_check_bonus(c, "str").total == -2
    assert stats.ability_check_bonus(c, "dex").total == -1
    assert stats.ability_check_bonus(c, "wis").total == 0


@pytest.mark.rule("CON-14")
def test_entangled_checks() -> None:
    c = _c("entangled")
    assert _skill(c, "acrobatics", "dex") == 3
    assert _skill(c, "athletics", "str") == 5
    assert stats.ability_check_bonus(c, "dex").total == 0
    assert stats.ability_check_bonus(c, "str").total == 3


@pytest.mark.rule("CON-15")
def test_exhausted_checks_and_thrown_damage() -> None:
    c = _c("exhausted")
    assert _skill(c, "acrobatics", "dex") == 2
    assert _skill(c, "athletics", "str") == 2
    assert _skill(c, "perception", "wis") == 5
    assert stats.ability_check_bonus(c, "str").total == 0
    off = Sf1eOptions(fatigued_thrown_damage=False)
    assert _dmg(c, "grenade", off) == -3  # exhausted's thrown penalty does not depend on the option


@pytest.mark.rule("CON-16")
def test_fascinated() -> None:
    c = _c("fascinated")
    assert _skill(c, "perception", "wis", "passive") == 1
    assert _skill(c, "perception", "wis") == 5
    assert stats.action_limits(c).none


@pytest.mark.rule("CON-17")
def test_fatigued_thrown_damage_follows_option() -> None:
    c = _c("fatigued")
    assert _dmg(c, "grenade") == -1
    assert _dmg(c, "grenade", Sf1eOptions(fatigued_thrown_damage=False)) == 0
    assert _dmg(c, "baton", Sf1eOptions(fatigued_thrown_damage=False)) == 2
    assert _skill(c, "athletics", "str") == 4
    assert stats.ability_check_bonus(c, "dex").total == 1


@pytest.mark.rule("CON-20", "MAN-07")
def test_grappled_spares_grapple_and_escape() -> None:
    c = _c("grappled")
    escape = frozenset({"grapple_or_escape"})
    assert _atk(c, "baton") == 5
    assert _atk(c, "baton", escape) == 7
    assert _skill(c, "acrobatics", "dex") == 3
    assert _skill(c, "acrobatics", "dex", "grapple_or_escape") == 5
    assert stats.ability_check_bonus(c, "dex").total == 0
    assert stats.ability_check_bonus(c, "dex", escape).total == 2
    assert stats.armor_class(c, "kac").total == 16  # AC has no exception
    assert stats.can_react(c)  # only attacks of opportunity are barred
    assert cond.CONDITIONS["grappled"].no_aoo


@pytest.mark.rule("CON-28", "BON-12")
def test_pinned_applies_to_escape_too() -> None:
    c = _c("pinned")
    assert set(cond.active(c)) == {"pinned", "grappled", "flat-footed"}
    assert _atk(c, "baton", frozenset({"grapple_or_escape"})) == 3
    assert _skill(c, "acrobatics", "dex", "grapple_or_escape") == 1
    assert stats.ability_check_bonus(c, "dex").total == -2


@pytest.mark.rule("CON-21", "MOD-19")
def test_helpless_gives_melee_attackers_four() -> None:
    c = with_conditions(npc(), "helpless")
    melee = _against(c, "melee")
    assert melee.total == 4
    assert [(t.value, t.rule) for t in melee.applied] == [(4, "MOD-19")]
    assert _against(c, "ranged").total == 0
    assert stats.armor_class(c, "eac").total == 6  # printed 13, Dex +2 becomes -5
    assert stats.save_bonus(c, "ref").total == -3
    assert stats.initiative(c).total == -5
    assert _atk(c, "spit") == -1  # printed +6 with Dex +2 becoming -5
    assert _atk(c, "claw") == 9


@pytest.mark.rule("MOD-19", "MOD-18", "CON-21", "CON-29")
def test_helpless_and_prone_stack_against_melee() -> None:
    c = with_conditions(npc(), "helpless", "prone")
    assert stats.armor_class(c, "eac", vs="melee").total == 2  # 13 - 7 (Dex) - 4 (prone)
    assert stats.armor_class(c, "eac", vs="ranged").total == 10  # 13 - 7 + 4
    assert _against(c, "melee").total == 4


@pytest.mark.rule("CON-22")
def test_nauseated_single_move_action() -> None:
    limits = stats.action_limits(_c("nauseated"))
    assert (limits.move, limits.standard, limits.full, limits.swift, limits.attack) == (
        True,
        False,
        False,
        False,
        False,
    )


@pytest.mark.rule("CON-23")
def test_off_kilter_is_flat_footed() -> None:
    c = _c("off-kilter")
    assert set(cond.active(c)) == {"off-kilter", "flat-footed"}
    assert stats.armor_class(c, "eac").total == 15


@pytest.mark.rule("CON-26")
def test_panicked() -> None:
    c = _c("panicked")
    assert _atk(c, "baton") == 7
    assert stats.save_bonus(c, "will").total == -1
    assert _skill(c, "stealth", "dex") == 3
    assert stats.ability_check_bonus(c, "int").total == -2
    assert not stats.action_limits(c).attack
    assert frozenset({"total_defense"}) == PANICKED_CORNERED_ACTIONS


@pytest.mark.rule("CON-27")
def test_paralyzed_is_not_helpless() -> None:
    c = _c("paralyzed")
    assert set(cond.active(c)) == {"paralyzed"}
    assert stats.action_limits(c).mental_only
    assert _against(c, "melee").total == 0


@pytest.mark.rule("CON-29", "MOD-18")
def test_prone_thrown_attack_is_not_melee() -> None:
    c = _c("prone")
    assert _atk(c, "grenade") == BASE_THROWN
    assert stats.armor_class(c, "kac").total == BASE_KAC  # attack kind unknown: neither applies


@pytest.mark.rule("CON-30", "CON-19", "CON-31")
@pytest.mark.parametrize("name", ["shaken", "frightened", "sickened"])
def test_fear_and_sickness_checks(name: str) -> None:
    c = _c(name)
    assert _skill(c, "diplomacy", "cha") == 3
    assert stats.ability_check_bonus(c, "int").total == -2
    assert stats.initiative(c).total == BASE_INIT
    assert stats.initiative(c, Sf1eOptions(initiative_is_ability_check=True)).total == 0


@pytest.mark.rule("CON-36")
def test_invisible_is_a_plain_marker() -> None:
    d = CONDITIONS["invisible"]
    assert (d.mods, d.implies, d.actions, d.speed) == ((), (), ActionLimits(), None)


# ================================================================ penalty stacking (BON-12)
@pytest.mark.rule("BON-12", "CON-19", "CON-30")
def test_shaken_and_frightened_stack() -> None:
    c = _c("shaken", "frightened")
    assert _atk(c, "baton") == 3
    assert stats.save_bonus(c, "will").total == -3


@pytest.mark.rule("BON-12", "CON-30")
def test_same_condition_twice_counts_once() -> None:
    c = _c("shaken", "shaken")
    assert _atk(c, "baton") == 5
    bd = stats.attack_bonus(c, c.stat.weapon("baton"))
    assert [t.value for t in bd.applied if t.label == "shaken"] == [-2]


@pytest.mark.rule("BON-12", "CON-28", "CON-20")
def test_pinned_replaces_grappled() -> None:
    c = _c("grappled", "pinned")
    assert _atk(c, "baton") == 3  # -4, not -6
    assert stats.armor_class(c, "eac").total == 11  # -4 pinned, -2 flat-footed
    assert stats.save_bonus(c, "ref").total == -1
    assert stats.initiative(c).total == -2
    labels = {t.label for t in stats.armor_class(c, "eac").applied}
    assert "grappled" not in labels and {"pinned", "flat-footed"} <= labels


@pytest.mark.rule("BON-12", "CON-14", "CON-18")
def test_entangled_and_flat_footed_stack() -> None:
    assert stats.armor_class(_c("entangled", "flat-footed"), "eac").total == 13


@pytest.mark.rule("BON-12", "CON-15", "CON-17")
def test_exhausted_replaces_fatigued_even_if_both_listed() -> None:
    c = _c("fatigued", "exhausted")
    assert _atk(c, "baton") == 4
    assert stats.armor_class(c, "eac").total == 14


@pytest.mark.rule("BON-12", "CF-03", "CON-14")
def test_one_condition_counts_once_when_two_selectors_meet() -> None:
    """Initiative as an ability check: entangled's initiative and Dex-check penalties are one penalty."""
    opt = Sf1eOptions(initiative_is_ability_check=True)
    assert stats.initiative(_c("entangled"), opt).total == 0
    assert stats.initiative(_c("fatigued"), opt).total == 1
    assert stats.initiative(_c("entangled", "shaken"), opt).total == -2


@pytest.mark.rule("MOV-06", "CON-13", "CON-14", "CON-15")
@pytest.mark.parametrize(
    ("names", "speed"),
    [(("encumbered", "entangled"), 10), (("entangled", "exhausted"), 15), (("overburdened", "entangled"), 5)],
)
def test_speed_combinations(names: tuple[str, ...], speed: int) -> None:
    assert stats.speed(_c(*names)).total == speed


# ================================================================ properties
names_st = st.lists(st.sampled_from(ALL), max_size=6)


@pytest.mark.rule("MOD-21", "MOD-22", "MOD-23", "ATK-19", "SV-12")
@settings(max_examples=150, deadline=None)
@given(names_st)
def test_conditions_never_help(names: list[str]) -> None:
    """No set of conditions raises an attack, a save or an AC, except prone's +4 AC against ranged attacks."""
    c = _c(*names)
    assert _atk(c, "baton") <= BASE_MELEE
    assert _atk(c, "pistol") <= BASE_RANGED
    for save, base in BASE_SAVES.items():
        assert stats.save_bonus(c, save).total <= base
    assert stats.armor_class(c, "eac", vs="melee").total <= BASE_EAC
    ranged_cap = BASE_EAC + (4 if "prone" in names else 0)
    assert stats.armor_class(c, "eac", vs="ranged").total <= ranged_cap


@pytest.mark.rule("CON-00", "BON-12")
@settings(max_examples=150, deadline=None)
@given(names_st)
def test_penalties_of_a_set_are_the_sum_of_distinct_conditions(names: list[str]) -> None:
    """Attack penalties add up across distinct conditions (each once), pinned standing in for grappled."""
    distinct = set()
    for n in names:
        distinct |= set(cond.active(_c(n)))
    if "pinned" in distinct:
        distinct.discard("grappled")
    if "exhausted" in distinct:
        distinct.discard("fatigued")
    pen = [ATTACK_TABLE[n][0] for n in distinct if n not in DEX_MINUS_5 and n != "paralyzed"]
    assert _atk(_c(*names), "baton") == BASE_MELEE + sum(pen)


@pytest.mark.rule("CON-00")
@settings(max_examples=150, deadline=None)
@given(names_st)
def test_action_limits_of_a_set_are_the_and_of_each(names: list[str]) -> None:
    each = [stats.action_limits(_c(n)) for n in names]
    assert stats.action_limits(_c(*names)) == reduce(lambda a, b: a & b, each, ActionLimits())
