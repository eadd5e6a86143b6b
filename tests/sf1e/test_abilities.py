"""Ability damage, penalties, drain and negative levels (sftactics.sf1e.abilities).

The builders' character (``pc()``): 4th level, key ability Str 16 (+3), Dex 14 (+2), Con 12 (+1); HP 30,
SP 28, RP 5; Fort +4 base. The builders' NPC (``npc()``): CR 2, HP 25, Con +2 (score 14), Fort +4 printed.
"""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.sf1e import stats
from sftactics.sf1e.abilities import (
    RAISED_SURVIVAL_ROUNDS,
    damage_ability,
    death_threshold,
    drain_ability,
    gain_negative_levels,
    meets_prerequisites,
    negative_level_count,
    negative_level_daily_save,
    penalize_ability,
    remove_negative_levels,
    restore_ability,
    revival_survival_rounds,
)
from sftactics.sf1e.injury import DEAD, DYING, STABLE, UNCONSCIOUS, InjuryContext, kill, night_rest
from sftactics.sf1e.options import DEFAULT_OPTIONS, Sf1eOptions
from sftactics.sf1e.statblock import Ability
from sftactics.sf1e.state import Creature
from tests.builders import npc, pc

rule = pytest.mark.rule


def mod(c: Creature, ability: Ability) -> int:
    return stats.ability_mod(c, ability).total


# ---------------------------------------------------------------- ability damage
@rule("ABL-01")
def test_every_two_points_of_damage_lower_the_modifier() -> None:
    c = pc()
    r = damage_ability(c, "str", 3)
    assert r.points == 3 and r.creature.state.ability_damage == {"str": 3}
    assert mod(r.creature, "str") == 2
    r = damage_ability(r.creature, "str", 1)
    assert mod(r.creature, "str") == 1
    assert "ABL-01" in r.lines[0]


@rule("ABL-02", "CON-35")
def test_damage_equal_to_score_knocks_out_and_stops() -> None:
    r = damage_ability(pc(), "dex", 14)
    assert r.became_unconscious and r.creature.has(UNCONSCIOUS) and not r.died
    r2 = damage_ability(r.creature, "dex", 3)
    assert r2.points == 0 and r2.creature.state.ability_damage["dex"] == 14
    r3 = damage_ability(pc(), "dex", 20)
    assert r3.points == 14
    woke = restore_ability(r.creature, "dex", 1)
    assert not woke.creature.has(UNCONSCIOUS) and woke.became_conscious


@rule("ABL-02", "INJ-06", "CON-10")
def test_constitution_damage_equal_to_score_kills() -> None:
    r = damage_ability(pc(), "con", 12)
    assert r.died and r.creature.has(DEAD) and r.cause == "Constitution damage"
    assert not damage_ability(pc(), "con", 11).died


@rule("ABL-03")
def test_reduced_modifiers_reach_saves_initiative_and_checks() -> None:
    c = damage_ability(pc(), "dex", 4).creature  # Dex +2 -> +0
    assert stats.save_bonus(c, "ref").total == 1
    assert stats.initiative(c).total == 0
    c = damage_ability(pc(), "con", 4).creature  # Con +1 -> -1
    assert stats.save_bonus(c, "fort").total == 3
    assert stats.ability_check_bonus(c, "con").total == -1


@rule("ABL-04", "EX-04")
def test_constitution_damage_costs_level_in_stamina() -> None:
    r = damage_ability(pc(), "con", 5)
    assert r.sp_lost == 8 and r.creature.state.sp == 20
    assert stats.max_sp(r.creature).total == 20


@rule("ABL-04", "EX-04")
def test_con_damage_takes_the_lost_maximum_off_current_stamina_by_default() -> None:
    r = damage_ability(pc().with_state(sp=10), "con", 5)
    assert r.sp_lost == 8 and r.creature.state.sp == 2
    r = damage_ability(pc().with_state(sp=5), "con", 5)
    assert r.sp_lost == 5 and r.creature.state.sp == 0


@rule("ABL-04")
def test_clamp_option_keeps_stamina_below_the_new_maximum() -> None:
    r = damage_ability(pc().with_state(sp=10), "con", 5, Sf1eOptions(ability_pool_loss="clamp"))
    assert r.sp_lost == 0 and r.creature.state.sp == 10
    full = damage_ability(pc(), "con", 5, Sf1eOptions(ability_pool_loss="clamp"))
    assert full.sp_lost == 8 and full.creature.state.sp == 20


@rule("ABL-05")
def test_key_ability_damage_costs_resolve() -> None:
    r = damage_ability(pc(), "str", 2)
    assert r.rp_lost == 1 and r.creature.state.rp == 4
    r = damage_ability(r.creature, "str", 2)
    assert r.rp_lost == 1 and r.creature.state.rp == 3
    assert damage_ability(pc(), "dex", 4).rp_lost == 0


@rule("ABL-06")
def test_ability_damage_heals_per_night_and_bed_rest() -> None:
    c = damage_ability(damage_ability(pc(), "str", 3).creature, "dex", 1).creature
    r = night_rest(c)
    assert r.creature.state.ability_damage == {"str": 2}
    r = night_rest(c, bed_rest=True)
    assert r.creature.state.ability_damage == {"str": 1}
    assert night_rest(c, interrupted=True).creature.state.ability_damage == {"str": 3, "dex": 1}


@rule("ABL-06", "ABL-02")
def test_rest_wakes_a_creature_whose_damage_falls_below_its_score() -> None:
    c = damage_ability(pc(), "wis", 10).creature
    assert c.has(UNCONSCIOUS)
    r = night_rest(c)
    assert not r.creature.has(UNCONSCIOUS) and r.creature.state.ability_damage == {"wis": 9}


@rule("ABL-06")
def test_restoring_damage_does_not_return_current_pools() -> None:
    c = damage_ability(pc(), "con", 4).creature  # max SP 20
    r = restore_ability(c, "con")
    assert r.points == 4 and r.creature.state.ability_damage == {}
    assert stats.max_sp(r.creature).total == 28 and r.creature.state.sp == 20


# ---------------------------------------------------------------- penalties
@rule("ABL-07")
def test_penalties_lower_modifiers_but_never_knock_out() -> None:
    r = penalize_ability(pc(), "str", 20)
    assert not r.became_unconscious and not r.creature.has(UNCONSCIOUS)
    assert mod(r.creature, "str") == 3 - 10
    r = penalize_ability(pc(), "con", 12)
    assert not r.died and r.creature.state.sp == 28 and stats.max_sp(r.creature).total == 28
    r2 = restore_ability(r.creature, "con", kind="penalty")
    assert r2.creature.state.ability_penalty == {}


# ---------------------------------------------------------------- drain
@rule("ABL-08")
def test_drain_lowers_the_score() -> None:
    r = drain_ability(pc(), "str", 1)  # 16 -> 15: +3 -> +2
    assert mod(r.creature, "str") == 2 and r.creature.state.ability_drain == {"str": 1}
    odd = pc(scores={"str": 16, "dex": 15, "con": 12, "int": 10, "wis": 10, "cha": 10})
    r = drain_ability(odd, "dex", 1)  # 15 -> 14: still +2
    assert mod(r.creature, "dex") == 2


@rule("ABL-08", "ABL-04", "ABL-05")
def test_drain_recalculates_pools() -> None:
    r = drain_ability(pc(), "con", 4)  # 12 -> 8: +1 -> -1
    assert r.sp_lost == 8
    r = drain_ability(pc(), "str", 2)  # 16 -> 14: +3 -> +2
    assert r.rp_lost == 1


@rule("ABL-08")
def test_drain_does_not_heal_overnight_but_restoration_removes_it() -> None:
    c = drain_ability(pc(), "str", 2).creature
    assert night_rest(c).creature.state.ability_drain == {"str": 2}
    assert restore_ability(c, "str", kind="drain").creature.state.ability_drain == {}


@rule("ABL-08")
@pytest.mark.parametrize("as_damage", [False, True])
def test_drain_can_be_booked_as_damage(as_damage: bool) -> None:
    r = drain_ability(pc(), "str", 2, as_damage=as_damage)
    s = r.creature.state
    if as_damage:
        assert s.ability_damage == {"str": 2} and s.ability_drain == {}
        assert "[ABL-08]" in r.lines[0]
    else:
        assert s.ability_drain == {"str": 2} and s.ability_damage == {}
    assert mod(r.creature, "str") == 2


@rule("ABL-09", "CON-35")
def test_drain_to_zero_knocks_out_and_restoration_wakes() -> None:
    r = drain_ability(pc(), "int", 12)
    assert r.points == 10 and r.became_unconscious and r.creature.has(UNCONSCIOUS)
    woke = restore_ability(r.creature, "int", 1, kind="drain")
    assert not woke.creature.has(UNCONSCIOUS)


@rule("ABL-09", "INJ-06")
def test_constitution_drained_to_zero_kills() -> None:
    r = drain_ability(pc(), "con", 12)
    assert r.died and r.cause == "Constitution drain"


@rule("ABL-09", "ABL-02")
def test_drain_that_meets_existing_damage_knocks_out() -> None:
    c = damage_ability(pc(), "str", 10).creature
    r = drain_ability(c, "str", 6)  # score 10, damage 10
    assert r.creature.has(UNCONSCIOUS) and r.creature.state.ability_damage["str"] == 10


# ---------------------------------------------------------------- negative levels
@rule("ABL-10")
def test_negative_levels_cost_hp_sp_and_impose_penalties() -> None:
    c = pc()
    r = gain_negative_levels(c, 2, source="wraith", dc=15)
    s = r.creature.state
    assert (s.hp, s.sp, r.hp_lost, r.sp_lost) == (20, 18, 10, 10)
    assert stats.max_hp(r.creature).total == 20 and stats.max_sp(r.creature).total == 18
    assert stats.save_bonus(r.creature, "fort").total == stats.save_bonus(c, "fort").total - 2
    assert negative_level_count(r.creature) == 2


@rule("ABL-10")
def test_negative_levels_from_one_source_are_kept_together() -> None:
    c = gain_negative_levels(pc(), 1, source="wraith", dc=15).creature
    c = gain_negative_levels(c, 1, source="wraith").creature
    c = gain_negative_levels(c, 1, source="ghoul", dc=12).creature
    assert [(n.source, n.count, n.dc) for n in c.state.negative_levels] == [("wraith", 2, 15), ("ghoul", 1, 12)]


@rule("ABL-10")
@pytest.mark.parametrize(("mode", "dying"), [("dying", True), ("unconscious", False)])
def test_negative_levels_to_zero_hp(mode: str, dying: bool) -> None:
    opts = Sf1eOptions(negative_levels_to_zero_hp=mode)
    c = pc().with_state(hp=4)
    r = gain_negative_levels(c, 1, source="wraith", dc=15, options=opts, ctx=InjuryContext(2, False))
    assert r.creature.state.hp == 0 and r.creature.has(UNCONSCIOUS) and not r.died
    assert r.creature.has(DYING) is dying
    assert r.creature.has(STABLE) is not dying
    if dying:
        assert r.became_dying and r.creature.state.dropped_round == 2
    assert DEFAULT_OPTIONS.negative_levels_to_zero_hp == "dying"


@rule("ABL-10", "INJ-07")
def test_negative_levels_to_zero_hp_kill_a_creature_without_resolve() -> None:
    r = gain_negative_levels(npc().with_state(hp=5), 1, source="wraith", dc=15)
    assert r.died


@rule("ABL-11", "INJ-06")
def test_negative_levels_equal_to_level_or_cr_kill() -> None:
    assert not gain_negative_levels(pc(), 3, source="x", dc=10).died
    r = gain_negative_levels(pc(), 4, source="x", dc=10)
    assert r.died and r.cause == "negative levels" and r.creature.has(DEAD)
    assert death_threshold(npc()) == 2
    assert gain_negative_levels(npc(), 2, source="x", dc=10).died
    assert gain_negative_levels(npc(cr="1/2"), 1, source="x", dc=10).died


@rule("ABL-12")
@pytest.mark.parametrize(("mode", "left"), [("all_from_source", 0), ("one", 1)])
def test_daily_save_removes_levels_of_one_source(mode: str, left: int) -> None:
    opts = Sf1eOptions(negative_level_save_removes=mode)
    c = gain_negative_levels(pc(), 2, source="wraith", dc=15).creature
    c = gain_negative_levels(c, 1, source="x", dc=99).creature
    # Fort: base 4 + Con 1 - 3 negative levels = +2; 13 + 2 = 15 meets DC 15
    r = negative_level_daily_save(c, "wraith", ScriptedDice([13]), opts)
    assert r.checks[0].total == 15 and r.checks[0].success
    wraith = [n.count for n in r.creature.state.negative_levels if n.source == "wraith"]
    assert sum(wraith) == left
    assert [n.count for n in r.creature.state.negative_levels if n.source == "x"] == [1]
    assert DEFAULT_OPTIONS.negative_level_save_removes == "all_from_source"


@rule("ABL-12")
def test_failed_daily_save_keeps_levels_and_current_hp_stays_down() -> None:
    c = gain_negative_levels(pc(), 2, source="wraith", dc=15).creature
    r = negative_level_daily_save(c, "wraith", ScriptedDice([11]))  # 11 + 3 = 14
    assert not r.checks[0].success and negative_level_count(r.creature) == 2
    ok = negative_level_daily_save(c, "wraith", ScriptedDice([12])).creature
    assert negative_level_count(ok) == 0
    assert stats.max_hp(ok).total == 30 and ok.state.hp == 20


@rule("ABL-12")
def test_daily_save_needs_a_known_dc_and_a_temporary_source() -> None:
    c = gain_negative_levels(pc(), 1, source="curse").creature
    with pytest.raises(RuleViolation) as e:
        negative_level_daily_save(c, "curse", ScriptedDice([20]))
    assert e.value.rule == "ABL-12"
    with pytest.raises(RuleViolation):
        negative_level_daily_save(c, "nothing", ScriptedDice([20]))


@rule("ABL-13")
def test_permanent_levels_get_no_save_and_survive_death() -> None:
    c = gain_negative_levels(pc(), 2, source="devourer", dc=18, permanent=True).creature
    with pytest.raises(RuleViolation) as e:
        negative_level_daily_save(c, "devourer", ScriptedDice([20]))
    assert e.value.rule == "ABL-13"
    dead = kill(c, "INJ-03", "massive damage").creature
    assert negative_level_count(dead) == 2
    assert remove_negative_levels(c).points == 0
    assert remove_negative_levels(c, include_permanent=True).creature.state.negative_levels == ()


@rule("ABL-13")
def test_raised_creature_with_permanent_levels_lives_three_rounds() -> None:
    dead = gain_negative_levels(pc(), 4, source="devourer", permanent=True).creature
    assert dead.has(DEAD)
    assert revival_survival_rounds(dead) == RAISED_SURVIVAL_ROUNDS == 3
    some = gain_negative_levels(pc(), 3, source="devourer", permanent=True).creature
    assert revival_survival_rounds(some) is None


@rule("ABL-12", "ABL-13")
def test_remove_negative_levels_takes_temporary_first() -> None:
    c = gain_negative_levels(pc(), 1, source="a", permanent=True).creature
    c = gain_negative_levels(c, 2, source="b", dc=12).creature
    r = remove_negative_levels(c, 2, include_permanent=True)
    assert r.points == 2
    assert [(n.source, n.count, n.permanent) for n in r.creature.state.negative_levels] == [("a", 1, True)]


@rule("ABL-14")
def test_prerequisites_after_drain_and_negative_levels() -> None:
    c = pc()
    assert meets_prerequisites(c, min_scores={"str": 15}, min_level=4) == (True, ())
    drained = drain_ability(c, "str", 2).creature
    ok, why = meets_prerequisites(drained, min_scores={"str": 15})
    assert not ok and why == ("Strength 14 < 15",)
    damaged = damage_ability(c, "str", 4).creature  # damage lowers only the modifier
    assert meets_prerequisites(damaged, min_scores={"str": 15})[0]
    leveled = gain_negative_levels(c, 1, source="x", dc=10).creature
    assert meets_prerequisites(leveled, min_level=4) == (False, ("effective level 3 < 4",))


@rule("CON-10")
def test_dead_creatures_take_no_ability_changes() -> None:
    dead = damage_ability(pc(), "con", 12).creature
    assert damage_ability(dead, "str", 4).creature == dead
    assert gain_negative_levels(dead, 1, source="x").creature == dead
    with pytest.raises(RuleViolation):
        negative_level_daily_save(dead, "x", ScriptedDice([20]))
