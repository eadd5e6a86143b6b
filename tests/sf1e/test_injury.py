"""Injury, dying, death, stabilizing and healing (sftactics.sf1e.injury).

The builders' character (``pc()``): 4th level, HP 30, SP 28, RP 5, Con 12 (+1). The builders' NPC
(``npc()``): CR 2, HP 25, no SP, no RP.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sftactics.core.errors import RuleViolation, SftError
from sftactics.dice.source import ScriptedDice
from sftactics.sf1e import stats
from sftactics.sf1e.injury import (
    DEAD,
    DYING,
    STABLE,
    UNCONSCIOUS,
    ZERO_HP,
    InjuryContext,
    add_temp_hp,
    apply_damage,
    dying_end_of_turn,
    fatigue_from_nonlethal,
    first_aid,
    heal,
    kill,
    long_term_stability_check,
    lose_temp_hp,
    night_rest,
    recover_stamina,
    stabilize,
    stabilize_cost,
    stabilize_with_resolve,
    stay_in_the_fight,
    uses_dying_rules,
)
from sftactics.sf1e.options import DEFAULT_OPTIONS, Sf1eOptions
from sftactics.sf1e.state import ConditionInstance, Creature
from tests.builders import npc, pc

rule = pytest.mark.rule


def ctx(round: int = 1, own_turn: bool = False) -> InjuryContext:
    return InjuryContext(round=round, own_turn=own_turn)


def dying_pc(*, round: int = 1, own_turn: bool = False, rp: int | None = None, max_rp: int = 5) -> Creature:
    """A character (maximum RP ``max_rp``, current ``rp``) brought from 10 HP / 0 SP to 0 HP by a 10-point hit."""
    c = pc(rp=max_rp).with_state(hp=10, sp=0, rp=max_rp if rp is None else rp)
    r = apply_damage(c, 10, ctx=ctx(round, own_turn))
    assert r.became_dying
    return r.creature


def stable_pc(*, rp: int = 5) -> Creature:
    """A character knocked out by nonlethal damage: 0 HP, unconscious and stable."""
    c = pc().with_state(hp=10, sp=0, rp=rp)
    return apply_damage(c, 10, nonlethal=True).creature


# ---------------------------------------------------------------- damage application
@rule("DMG-06", "EX-01")
def test_stamina_soaks_damage_before_hit_points() -> None:
    c = pc().with_state(sp=6)
    r = apply_damage(c, 9)
    assert (r.sp_lost, r.hp_lost) == (6, 3)
    assert (r.creature.state.sp, r.creature.state.hp) == (0, 27)
    assert "DMG-06" in r.rules


@rule("DMG-06")
def test_creature_without_stamina_takes_damage_to_hit_points() -> None:
    r = apply_damage(npc(), 7)
    assert (r.sp_lost, r.hp_lost, r.creature.state.hp) == (0, 7, 18)


@rule("DMG-06", "DMG-09")
def test_temporary_hit_points_go_first() -> None:
    c = pc().with_state(temp_hp=5)
    r = apply_damage(c, 12)
    assert (r.temp_lost, r.sp_lost, r.hp_lost) == (5, 7, 0)
    assert (r.creature.state.temp_hp, r.creature.state.sp, r.creature.state.hp) == (0, 21, 30)


@rule("DMG-07")
def test_hit_points_stop_at_zero_and_leftover_is_reported() -> None:
    r = apply_damage(pc().with_state(sp=0, hp=10), 14)
    assert r.creature.state.hp == 0
    assert (r.hp_lost, r.overflow) == (10, 4)
    assert "DMG-07" in r.rules


@rule("DMG-07")
def test_stamina_does_not_help_at_zero_hit_points() -> None:
    c = dying_pc()
    r = heal(c, sp=10)
    assert r.creature.state.sp == 10
    assert r.creature.has(DYING) and r.creature.state.hp == 0
    assert "DMG-07" in r.rules


@rule("INJ-01")
def test_three_pools_damage_never_touches_resolve() -> None:
    r = apply_damage(pc(), 40)
    assert (r.creature.state.sp, r.creature.state.hp, r.creature.state.rp) == (0, 18, 5)


@rule("INJ-01", "INJ-05")
def test_losing_resolve_at_zero_resolve_is_death() -> None:
    c = dying_pc(rp=1)
    r1 = dying_end_of_turn(c, 1)
    assert r1.creature.state.rp == 0 and not r1.died
    r2 = dying_end_of_turn(r1.creature, 2)
    assert r2.died and r2.creature.has(DEAD)


@rule("INJ-02", "EX-02", "CON-35")
def test_navasi_drops_to_zero_and_is_dying() -> None:
    navasi = pc(name="Navasi", hp=17, sp=1)
    r1 = apply_damage(navasi, 12)
    assert (r1.creature.state.hp, r1.creature.state.sp) == (6, 0)
    assert not r1.creature.has(UNCONSCIOUS)
    r2 = apply_damage(r1.creature, 15)
    s = r2.creature.state
    assert s.hp == 0
    assert r2.became_dying and r2.became_unconscious and not r2.died
    assert r2.creature.has(DYING) and s.has(UNCONSCIOUS)
    assert ConditionInstance(name=UNCONSCIOUS, source=ZERO_HP) in s.conditions
    assert "INJ-02" in r2.rules


@rule("INJ-02", "INJ-04")
def test_drop_records_dying_bookkeeping() -> None:
    c = dying_pc(round=3, own_turn=True, rp=0)
    s = c.state
    assert (s.dropped_round, s.dropped_on_own_turn, s.zero_rp_at_drop) == (3, True, True)


# ---------------------------------------------------------------- massive damage
@rule("INJ-03", "EX-03", "INJ-06", "CON-10")
def test_massive_damage_leftover_at_least_max_hp_kills() -> None:
    navasi = pc(name="Navasi", hp=22).with_state(hp=5, sp=0)
    r = apply_damage(navasi, 30)
    assert r.overflow == 25
    assert r.died and r.cause == "massive damage"
    assert r.creature.has(DEAD) and not r.creature.has(DYING)


@rule("INJ-03")
def test_leftover_just_below_max_hp_only_drops() -> None:
    r = apply_damage(pc(hp=22).with_state(hp=5, sp=0), 26)  # 21 left over
    assert not r.died and r.became_dying


@rule("INJ-03")
def test_leftover_equal_to_max_hp_kills() -> None:
    r = apply_damage(pc(hp=22).with_state(hp=5, sp=0), 27)  # 22 left over
    assert r.died


@rule("INJ-03", "INJ-14")
def test_one_attack_of_max_hp_at_zero_kills() -> None:
    r = apply_damage(dying_pc(), 30, ctx=ctx(1))
    assert r.died and r.cause == "massive damage"


@rule("INJ-03")
@pytest.mark.parametrize(("mode", "dies"), [("hp_damage", False), ("total", True)])
def test_massive_damage_at_zero_counts_hp_damage_or_total(mode: str, dies: bool) -> None:
    c = dying_pc().with_state(sp=10)  # 0 HP but 10 SP regained
    opts = Sf1eOptions(massive_damage_at_zero=mode)
    r = apply_damage(c, 35, ctx=ctx(2), options=opts)  # 25 reaches HP, 35 in total; max HP 30
    assert r.died is dies
    if not dies:
        assert r.rp_lost == 1
    assert DEFAULT_OPTIONS.massive_damage_at_zero == "hp_damage"


@rule("INJ-03", "DMG-10")
def test_nonlethal_damage_is_never_massive() -> None:
    r = apply_damage(pc(hp=22).with_state(hp=5, sp=0), 60, nonlethal=True)
    assert not r.died and r.creature.has(STABLE)


# ---------------------------------------------------------------- dying over time
@rule("INJ-04", "CON-12")
def test_dying_loses_one_resolve_at_end_of_each_turn() -> None:
    c = dying_pc(round=1, own_turn=False)
    r = dying_end_of_turn(c, 1)
    assert r.rp_lost == 1 and r.creature.state.rp == 4
    r = dying_end_of_turn(r.creature, 2)
    assert r.creature.state.rp == 3
    assert "INJ-04" in r.rules


@rule("INJ-04")
def test_dropping_on_own_turn_delays_loss_to_next_turn() -> None:
    c = dying_pc(round=2, own_turn=True)
    r = dying_end_of_turn(c, 2)
    assert r.rp_lost == 0 and r.creature.state.rp == 5
    r = dying_end_of_turn(r.creature, 3)
    assert r.rp_lost == 1 and r.creature.state.rp == 4


@rule("INJ-05")
def test_zero_resolve_at_drop_gets_one_round() -> None:
    c = dying_pc(round=3, own_turn=False, rp=0)
    r = dying_end_of_turn(c, 3)
    assert not r.died and r.creature.has(DYING)
    assert "INJ-05" in r.rules
    r = dying_end_of_turn(r.creature, 4)
    assert r.died and r.cause == "Resolve exhausted"


@rule("INJ-05", "INJ-04")
def test_zero_resolve_drop_on_own_turn_dies_end_of_next_turn() -> None:
    c = dying_pc(round=3, own_turn=True, rp=0)
    assert not dying_end_of_turn(c, 3).died
    assert dying_end_of_turn(c, 4).died


@rule("INJ-05", "INJ-10")
def test_zero_resolve_saved_by_healing_within_the_round() -> None:
    c = dying_pc(round=3, rp=0)
    c = dying_end_of_turn(c, 3).creature
    healed = heal(c, hp=3).creature
    r = dying_end_of_turn(healed, 4)
    assert not r.died and healed.state.hp == 3


@rule("INJ-05", "INJ-14")
def test_zero_resolve_grace_does_not_protect_from_damage() -> None:
    c = dying_pc(round=3, rp=0)
    r = apply_damage(c, 2, ctx=ctx(3))
    assert r.died and r.cause == "Resolve exhausted"


@rule("INJ-08", "CON-32")
def test_stable_creature_loses_nothing_at_end_of_turn() -> None:
    c = stabilize_with_resolve(dying_pc(), 1).creature
    r = dying_end_of_turn(c, 2)
    assert r.rp_lost == 0 and not r.died
    assert r.creature.has(STABLE) and r.creature.has(UNCONSCIOUS) and r.creature.state.hp == 0
    assert "INJ-08" in r.rules


# ---------------------------------------------------------------- damage while dying or stable
@rule("INJ-14")
def test_first_hit_point_damage_each_round_costs_one_resolve() -> None:
    c = dying_pc(round=1)
    r = apply_damage(c, 3, ctx=ctx(2))
    assert r.rp_lost == 1 and r.creature.state.hp_damaged_round == 2
    r = apply_damage(r.creature, 3, ctx=ctx(2))  # later small hit: free
    assert r.rp_lost == 0
    r = apply_damage(r.creature, 15, ctx=ctx(2))  # exactly half max HP: not more than half
    assert r.rp_lost == 0
    r = apply_damage(r.creature, 16, ctx=ctx(2))  # more than half, less than max
    assert r.rp_lost == 1
    r = apply_damage(r.creature, 1, ctx=ctx(3))  # new round
    assert r.rp_lost == 1
    assert r.creature.state.rp == 2


@rule("INJ-14")
def test_the_dropping_hit_does_not_count_as_damage_while_dying() -> None:
    c = dying_pc(round=1)
    r = apply_damage(c, 2, ctx=ctx(1))
    assert r.rp_lost == 1


@rule("INJ-14")
@pytest.mark.parametrize(("first_costs", "lost"), [(1, 1), (2, 2)])
def test_big_first_hit_costs_one_or_two(first_costs: int, lost: int) -> None:
    opts = Sf1eOptions(big_hit_first_costs=first_costs)
    r = apply_damage(dying_pc(), 20, ctx=ctx(2), options=opts)
    assert r.rp_lost == lost
    assert DEFAULT_OPTIONS.big_hit_first_costs == 1


@rule("INJ-14")
def test_stamina_still_soaks_damage_while_dying() -> None:
    c = dying_pc().with_state(sp=5)
    r = apply_damage(c, 4, ctx=ctx(2))
    assert r.sp_lost == 4 and r.rp_lost == 0 and r.creature.state.rp == 5


@rule("INJ-14", "INJ-05")
def test_losing_resolve_with_none_left_kills_instantly() -> None:
    c = dying_pc(rp=1)
    r = apply_damage(c, 20, ctx=ctx(2), options=Sf1eOptions(big_hit_first_costs=2))
    assert r.rp_lost == 1 and r.died


@rule("INJ-15", "CON-32")
def test_damage_while_stable_makes_dying_again() -> None:
    c = stabilize_with_resolve(dying_pc(), 1).creature
    r = apply_damage(c, 2, ctx=ctx(2))
    assert r.became_dying and r.creature.has(DYING) and not r.creature.has(STABLE)
    assert r.rp_lost == 1
    assert "INJ-15" in r.rules


@rule("INJ-15", "DMG-10")
def test_nonlethal_damage_at_zero_changes_nothing() -> None:
    c = stable_pc()
    r = apply_damage(c, 5, nonlethal=True, ctx=ctx(2))
    assert r.creature.has(STABLE) and not r.creature.has(DYING) and r.rp_lost == 0


# ---------------------------------------------------------------- nonlethal damage
@rule("DMG-10", "INJ-21", "CON-35")
def test_nonlethal_damage_knocks_out_stable_at_exactly_zero() -> None:
    r = apply_damage(pc().with_state(hp=10, sp=0), 25, nonlethal=True)
    s = r.creature.state
    assert s.hp == 0 and r.hp_lost == 10
    assert r.became_unconscious and r.became_stable and not r.became_dying and not r.died
    assert r.creature.has(UNCONSCIOUS) and r.creature.has(STABLE) and not r.creature.has(DYING)


@rule("INJ-21", "INJ-12")
def test_nonlethal_knockout_may_stay_in_the_fight_at_once() -> None:
    c = apply_damage(pc().with_state(hp=10, sp=0), 25, nonlethal=True, ctx=ctx(4)).creature
    r = stay_in_the_fight(c, 4)
    assert r.creature.state.hp == 1 and r.creature.state.rp == 4 and r.became_conscious


@rule("DMG-13", "INJ-07")
def test_npc_knocked_out_by_nonlethal_damage_lives() -> None:
    r = apply_damage(npc(), 30, nonlethal=True)
    assert not r.died and r.creature.has(UNCONSCIOUS) and r.creature.has(STABLE)
    assert "DMG-13" in r.rules


@rule("DMG-13", "INJ-07")
def test_knocked_out_npc_dies_from_lethal_damage() -> None:
    c = apply_damage(npc(), 30, nonlethal=True).creature
    assert apply_damage(c, 1).died


@rule("DMG-12")
def test_nonlethal_fatigue_ends_when_damage_is_recovered() -> None:
    r = fatigue_from_nonlethal(pc(), 3)
    c = r.creature
    assert c.has("fatigued") and c.state.nonlethal_fatigue and c.state.sp == 25
    c = heal(c, sp=2).creature
    assert c.has("fatigued")
    r2 = heal(c, sp=1)
    assert not r2.creature.has("fatigued") and not r2.creature.state.nonlethal_fatigue
    assert "DMG-12" in r2.rules


@rule("DMG-12")
def test_nonlethal_fatigue_ends_after_rest() -> None:
    c = fatigue_from_nonlethal(pc(), 40).creature  # 28 SP and 12 HP
    r = night_rest(c)
    assert not r.creature.has("fatigued") and "DMG-12" in r.rules


@rule("DMG-12")
def test_other_fatigue_is_not_cleared_by_healing() -> None:
    c = pc().with_state(conditions=(ConditionInstance(name="fatigued", source="spell"),))
    c = fatigue_from_nonlethal(c, 2).creature
    c = heal(c, sp=2).creature
    assert c.has("fatigued")
    assert [x.source for x in c.state.conditions if x.name == "fatigued"] == ["spell"]


# ---------------------------------------------------------------- monsters and NPCs
@rule("INJ-07")
def test_npc_without_resolve_dies_at_zero() -> None:
    r = apply_damage(npc(), 25)
    assert r.died and r.creature.has(DEAD)
    assert not uses_dying_rules(npc())


@rule("INJ-07")
def test_three_round_option_lingers_then_dies() -> None:
    opts = Sf1eOptions(npc_without_rp_at_zero="three_rounds")
    r = apply_damage(npc(), 25, ctx=ctx(1), options=opts)
    assert not r.died and r.creature.has(DYING) and r.creature.state.lingering_rounds == 3
    c = r.creature
    for rnd, left in ((1, 2), (2, 1)):
        c = dying_end_of_turn(c, rnd).creature
        assert c.state.lingering_rounds == left and not c.has(DEAD)
    assert dying_end_of_turn(c, 3).died


@rule("INJ-07")
def test_three_round_option_dropped_on_own_turn_counts_from_next_turn() -> None:
    opts = Sf1eOptions(npc_without_rp_at_zero="three_rounds")
    c = apply_damage(npc(), 25, ctx=ctx(1, True), options=opts).creature
    assert dying_end_of_turn(c, 1).creature.state.lingering_rounds == 3


@rule("INJ-07")
def test_three_round_option_more_damage_kills_healing_saves() -> None:
    opts = Sf1eOptions(npc_without_rp_at_zero="three_rounds")
    c = apply_damage(npc(), 25, options=opts).creature
    assert apply_damage(c, 1, options=opts).died
    assert not apply_damage(c, 1, nonlethal=True, options=opts).died
    h = heal(c, hp=4)
    assert h.creature.state.hp == 4 and h.creature.state.lingering_rounds is None and h.became_conscious


@rule("INJ-07")
@pytest.mark.parametrize(("mode", "dies"), [("dies", True), ("pc_rules", False)])
def test_npc_with_resolve_dies_or_follows_dying_rules(mode: str, dies: bool) -> None:
    opts = Sf1eOptions(npc_with_rp=mode)
    r = apply_damage(npc(rp=3), 25, options=opts)
    assert r.died is dies
    assert r.became_dying is not dies
    assert DEFAULT_OPTIONS.npc_with_rp == "dies"


# ---------------------------------------------------------------- stabilizing
@rule("INJ-11")
@pytest.mark.parametrize(("max_rp", "cost"), [(2, 1), (5, 1), (8, 2), (12, 3), (20, 3)])
def test_stabilize_cost_is_quarter_of_max_resolve(max_rp: int, cost: int) -> None:
    assert stabilize_cost(pc(rp=max_rp)) == cost


@rule("INJ-11", "CON-12")
def test_stabilize_with_resolve() -> None:
    c = dying_pc(max_rp=12)
    r = stabilize_with_resolve(c, 2)
    assert r.rp_lost == 3 and r.creature.state.rp == 9
    assert r.creature.has(STABLE) and r.creature.has(UNCONSCIOUS) and not r.creature.has(DYING)
    assert r.creature.state.stabilized_round == 2 and r.became_stable


@rule("INJ-11", "CON-12")
def test_flat_three_resolve_option() -> None:
    opts = Sf1eOptions(stabilize_cost="three")
    assert stabilize_cost(pc(), opts) == 3
    r = stabilize_with_resolve(dying_pc(rp=5), 1, options=opts)
    assert r.creature.state.rp == 2
    with pytest.raises(RuleViolation) as e:
        stabilize_with_resolve(dying_pc(rp=2), 1, options=opts)
    assert e.value.rule == "CON-12"
    assert DEFAULT_OPTIONS.stabilize_cost == "formula"


@rule("INJ-11")
def test_stabilize_refused_without_enough_resolve_or_when_not_dying() -> None:
    with pytest.raises(RuleViolation) as e:
        stabilize_with_resolve(dying_pc(rp=0), 1)
    assert e.value.rule == "INJ-11"
    with pytest.raises(RuleViolation) as e:
        stabilize_with_resolve(pc(), 1)
    assert e.value.rule == "INJ-11"


@rule("INJ-09")
def test_first_aid_stabilizes_on_dc_15() -> None:
    dice = ScriptedDice([10])
    r = first_aid(dying_pc(), 5, dice)
    assert r.checks[0].total == 15 and r.checks[0].success
    assert r.creature.has(STABLE) and not r.creature.has(DYING)
    assert r.creature.state.stabilized_round is None


@rule("INJ-09")
def test_first_aid_failure_changes_nothing() -> None:
    r = first_aid(dying_pc(), 5, ScriptedDice([9]))
    assert not r.checks[0].success and r.creature.has(DYING)


@rule("INJ-09")
def test_first_aid_needs_a_dying_creature() -> None:
    with pytest.raises(RuleViolation) as e:
        first_aid(pc(), 5, ScriptedDice([20]))
    assert e.value.rule == "INJ-09"


@rule("INJ-10")
def test_stabilize_spell_heal_of_nothing_stabilizes() -> None:
    r = heal(dying_pc())
    assert r.became_stable and r.creature.has(STABLE) and r.creature.state.hp == 0
    r2 = stabilize(dying_pc(), how="stabilize spell")
    assert r2.creature.has(STABLE)


# ---------------------------------------------------------------- stay in the fight
@rule("INJ-12")
def test_stay_in_the_fight_after_stabilizing_next_round() -> None:
    c = stabilize_with_resolve(dying_pc(), 2).creature
    with pytest.raises(RuleViolation) as e:
        stay_in_the_fight(c, 2)
    assert e.value.rule == "INJ-12"
    r = stay_in_the_fight(c, 3)
    assert r.creature.state.hp == 1 and r.creature.state.rp == 3
    assert not r.creature.has(UNCONSCIOUS) and not r.creature.has(STABLE)
    assert r.became_conscious and r.creature.state.dropped_round is None


@rule("INJ-12")
def test_stay_in_the_fight_refused_while_dying_or_without_resolve() -> None:
    with pytest.raises(RuleViolation):
        stay_in_the_fight(dying_pc(), 3)
    with pytest.raises(RuleViolation) as e:
        stay_in_the_fight(stable_pc(rp=0), 3)
    assert e.value.rule == "INJ-12"


@rule("INJ-12")
def test_stay_in_the_fight_after_first_aid_same_round() -> None:
    c = first_aid(dying_pc(round=2), 5, ScriptedDice([10])).creature
    assert stay_in_the_fight(c, 2).creature.state.hp == 1


# ---------------------------------------------------------------- long-term stability
def no_rp_stable() -> Creature:
    return stable_pc(rp=0)


@rule("INJ-13")
@pytest.mark.parametrize(
    ("roll", "outcome"),
    [(19, "wake"), (20, "wake"), (18, "stable"), (9, "stable"), (8, "dead"), (1, "dead")],
)
def test_long_term_stability_table(roll: int, outcome: str) -> None:
    r = long_term_stability_check(no_rp_stable(), ScriptedDice([roll]), hour=1)  # Con +1
    if outcome == "wake":
        assert r.creature.state.hp == 1 and r.became_conscious
    elif outcome == "stable":
        assert r.creature.has(STABLE) and r.creature.state.hp == 0 and not r.died
    else:
        assert r.died
    assert r.checks[-1].total == roll + 1


@rule("INJ-13")
def test_tending_healer_adds_two_and_floors_at_ten() -> None:
    r = long_term_stability_check(no_rp_stable(), ScriptedDice([10, 1]), tended_medicine_bonus=5, hour=2)
    assert r.checks[0].success and r.checks[1].total == 4
    assert not r.died and r.creature.has(STABLE)
    r = long_term_stability_check(no_rp_stable(), ScriptedDice([10, 17]), tended_medicine_bonus=5, hour=2)
    assert r.checks[1].total == 20 and r.creature.state.hp == 1


@rule("INJ-13")
def test_failed_tending_gives_nothing() -> None:
    r = long_term_stability_check(no_rp_stable(), ScriptedDice([9, 7]), tended_medicine_bonus=5, hour=2)
    assert not r.checks[0].success and r.checks[1].total == 8 and r.died


@rule("INJ-13")
def test_after_eight_hours_wake_with_one_hp_per_level() -> None:
    r = long_term_stability_check(no_rp_stable(), ScriptedDice([12]), hour=8)
    assert r.creature.state.hp == 4 and r.became_conscious


@rule("INJ-13")
def test_long_term_stability_preconditions() -> None:
    with pytest.raises(RuleViolation):
        long_term_stability_check(stable_pc(rp=1), ScriptedDice([10]), hour=1)
    with pytest.raises(RuleViolation):
        long_term_stability_check(no_rp_stable(), ScriptedDice([10]), hour=9)
    with pytest.raises(RuleViolation):
        long_term_stability_check(dying_pc(rp=0), ScriptedDice([10]), hour=1)


# ---------------------------------------------------------------- healing
@rule("INJ-10")
def test_healing_a_dying_creature_wakes_it_fully() -> None:
    c = dying_pc()
    r = heal(c, hp=5)
    s = r.creature.state
    assert s.hp == 5 and r.became_conscious
    assert not (r.creature.has(DYING) or r.creature.has(STABLE) or r.creature.has(UNCONSCIOUS))
    assert (s.dropped_round, s.hp_damaged_round, s.zero_rp_at_drop) == (None, None, False)


@rule("INJ-10", "CON-35")
def test_healing_leaves_ability_unconsciousness() -> None:
    c = dying_pc()
    c = c.with_state(conditions=(*c.state.conditions, ConditionInstance(name=UNCONSCIOUS, source="str damage")))
    r = heal(c, hp=5)
    assert r.creature.has(UNCONSCIOUS) and not r.became_conscious


@rule("INJ-18")
def test_healing_restores_hit_points_only_unless_stamina_given() -> None:
    c = pc().with_state(hp=20, sp=10)
    r = heal(c, hp=5)
    assert (r.creature.state.hp, r.creature.state.sp) == (25, 10)
    r = heal(c, hp=5, sp=5)
    assert (r.creature.state.hp, r.creature.state.sp) == (25, 15)


@rule("INJ-19")
def test_healing_is_capped_at_maximum() -> None:
    r = heal(pc().with_state(hp=27, sp=20), hp=10, sp=20)
    assert (r.hp_healed, r.sp_healed) == (3, 8)
    assert (r.creature.state.hp, r.creature.state.sp) == (30, 28)
    assert "INJ-19" in r.rules


@rule("INJ-20", "CON-10")
def test_dead_creatures_cannot_be_healed_or_stabilized() -> None:
    dead = kill(pc(), "INJ-06", "test").creature
    with pytest.raises(RuleViolation) as e:
        heal(dead, hp=5)
    assert e.value.rule == "INJ-20"
    with pytest.raises(RuleViolation):
        first_aid(dead, 10, ScriptedDice([20]))
    with pytest.raises(RuleViolation):
        stabilize(dead)


@rule("CON-10")
def test_dead_creature_takes_no_further_change() -> None:
    dead = apply_damage(npc(), 25).creature
    r = apply_damage(dead, 10)
    assert r.creature == dead and r.hp_lost == 0
    assert dying_end_of_turn(dead, 2).creature == dead


@rule("CON-02")
def test_healing_hit_points_stops_bleeding() -> None:
    c = pc().with_state(hp=20, conditions=(ConditionInstance(name="bleeding", value="1d6"),))
    assert not heal(c, hp=1).creature.has("bleeding")
    assert heal(c, sp=1).creature.has("bleeding")


@rule("DMG-09")
@pytest.mark.parametrize(("mode", "after"), [("highest", 8), ("add", 13)])
def test_temporary_hit_points_stacking(mode: str, after: int) -> None:
    opts = Sf1eOptions(temp_hp_stacking=mode)
    c = add_temp_hp(pc(), 5, opts).creature
    r = add_temp_hp(c, 8, opts)
    assert r.creature.state.temp_hp == after
    assert add_temp_hp(r.creature, 2, opts).creature.state.temp_hp == (8 if mode == "highest" else 15)
    assert DEFAULT_OPTIONS.temp_hp_stacking == "highest"


@rule("DMG-09")
def test_temporary_hit_points_vanish_and_are_not_healed() -> None:
    c = add_temp_hp(pc(), 6).creature
    c = apply_damage(c, 4).creature
    assert c.state.temp_hp == 2
    assert heal(c, hp=10).creature.state.temp_hp == 2
    r = lose_temp_hp(c)
    assert r.creature.state.temp_hp == 0 and r.temp_lost == 2


@rule("INJ-16")
def test_spend_resolve_to_recover_all_stamina() -> None:
    c = pc().with_state(sp=3)
    r = recover_stamina(c)
    assert (r.creature.state.sp, r.creature.state.rp, r.rp_lost, r.sp_healed) == (28, 4, 1, 25)


@rule("INJ-16")
def test_recover_stamina_refusals() -> None:
    with pytest.raises(RuleViolation) as e:
        recover_stamina(pc().with_state(sp=3, rp=0))
    assert e.value.rule == "INJ-16"
    with pytest.raises(RuleViolation):
        recover_stamina(pc())
    with pytest.raises(RuleViolation):
        recover_stamina(stable_pc())


@rule("INJ-16", "INJ-17")
def test_night_rest_restores_stamina_and_level_in_hp() -> None:
    r = night_rest(pc().with_state(hp=10, sp=0))
    assert (r.creature.state.hp, r.creature.state.sp) == (14, 28)
    assert r.creature.state.rp == 5


@rule("INJ-17")
def test_bed_rest_doubles_and_interruption_stops_healing() -> None:
    assert night_rest(pc().with_state(hp=10), bed_rest=True).creature.state.hp == 18
    r = night_rest(pc().with_state(hp=10, sp=0), interrupted=True)
    assert (r.creature.state.hp, r.creature.state.sp) == (10, 0)
    assert night_rest(pc().with_state(hp=29)).creature.state.hp == 30


@rule("INJ-17")
def test_resting_wakes_a_stable_creature_and_refuses_dying() -> None:
    r = night_rest(stable_pc())
    assert r.creature.state.hp == 4 and not r.creature.has(UNCONSCIOUS)
    with pytest.raises(RuleViolation):
        night_rest(dying_pc())


@rule("INJ-06")
def test_other_causes_of_death_reach_the_dead_condition() -> None:
    r = kill(pc(), "MAN-99", "coup de grace")
    assert r.died and r.creature.has(DEAD) and r.cause == "coup de grace"


@rule("DMG-06", "INJ-19")
def test_negative_damage_is_an_error() -> None:
    with pytest.raises(SftError):
        apply_damage(pc(), -1)
    with pytest.raises(SftError):
        heal(pc(), hp=-1)


# ---------------------------------------------------------------- properties
ops = st.lists(
    st.tuples(st.sampled_from(["damage", "nonlethal", "heal", "temp", "end"]), st.integers(0, 70)),
    max_size=12,
)


@rule("DMG-07", "INJ-19")
@given(ops)
def test_hit_points_stay_between_zero_and_maximum(steps: list[tuple[str, int]]) -> None:
    c = pc()
    max_hp = stats.max_hp(c).total
    for rnd, (op, n) in enumerate(steps):
        if op in ("damage", "nonlethal"):
            c = apply_damage(c, n, nonlethal=op == "nonlethal", ctx=ctx(rnd)).creature
        elif op == "heal" and not c.has(DEAD):
            c = heal(c, hp=n, sp=n).creature
        elif op == "temp" and not c.has(DEAD):
            c = add_temp_hp(c, n).creature
        elif op == "end":
            c = dying_end_of_turn(c, rnd).creature
        assert 0 <= c.state.hp <= max_hp
        assert 0 <= c.state.sp <= stats.max_sp(c).total
        assert c.state.rp >= 0


@rule("INJ-10", "INJ-19")
@given(st.integers(0, 100), st.booleans(), st.integers(0, 30), st.integers(0, 28))
def test_damage_then_full_heal_restores_max_unless_dead(amount: int, nonlethal: bool, hp: int, sp: int) -> None:
    c = pc().with_state(hp=max(hp, 1), sp=sp)
    r = apply_damage(c, amount, nonlethal=nonlethal)
    if r.died:
        assert r.creature.has(DEAD) and not nonlethal
        return
    h = heal(r.creature, hp=30)
    assert h.creature.state.hp == 30
    assert not h.creature.has(DYING) and not h.creature.has(UNCONSCIOUS)


@rule("DMG-09", "DMG-06")
@given(st.integers(0, 50), st.integers(0, 80))
def test_temporary_hit_points_absorb_first(temp: int, amount: int) -> None:
    c = pc().with_state(temp_hp=temp)
    r = apply_damage(c, amount)
    assert r.temp_lost == min(temp, amount)
    if amount <= temp:
        assert (r.creature.state.sp, r.creature.state.hp) == (28, 30)
    else:
        assert r.creature.state.temp_hp == 0
    assert r.temp_lost + r.sp_lost + r.hp_lost + r.overflow == amount


@rule("INJ-11", "ABL-05", "CON-21")
def test_a_helpless_creature_keeps_its_maximum_resolve() -> None:
    """Dexterity treated as 0 while helpless is no damage or drain: a dying character whose key ability is Dex
    keeps 12 maximum RP, so stabilizing costs 12 // 4 = 3 (not 1, as 12 - 7 lost modifier points would give)."""
    c = apply_damage(pc(rp=12, key_ability="dex").with_state(hp=10, sp=0, rp=12), 10).creature
    assert c.has(DYING) and stats.ability_mod(c, "dex").total == -5
    assert stats.max_rp(c).total == 12
    assert stabilize_cost(c) == 3
