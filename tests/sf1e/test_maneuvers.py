"""Combat maneuvers with scripted dice and exact numbers (MAN-01..14, SPA-13).

Tess (tests/builders.py): tactical baton +7 (BAB 4, Str 3), KAC 18, speed 30. Ksarik: KAC 15, claw +9.
``weak`` is Ksarik with KAC 5, so a maneuver against it needs 13 (KAC + 8) and a pin 18 (KAC + 13).
"""

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sftactics.core.breakdown import Term
from sftactics.core.check import CheckKind
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import maneuvers as m
from sftactics.sf1e.maneuvers import Maneuver, attempt
from sftactics.sf1e.objects import ObjectState
from sftactics.sf1e.state import ConditionInstance, Creature, NegativeLevels
from tests.builders import npc, pc, with_conditions


def weak(**over: Any) -> Creature:
    return npc(kac=5, **over)


def held(c: Creature, name: str = "grappled", by: str = "Tess") -> Creature:
    """``c`` grappled (or pinned) by ``by``."""
    return c.with_state(conditions=(*c.state.conditions, ConditionInstance(name=name, source=by)))


# ------------------------------------------------------------------------------------------- MAN-01
@pytest.mark.rule("MAN-01", "ATK-18")
def test_the_target_is_kac_plus_8_with_every_kac_term() -> None:
    t = m.maneuver_target(npc())
    assert t.total == 23 and t.label == "KAC + 8"
    assert [x.rule for x in t.applied][-1] == "MAN-01"
    # flat-footed and prone count against a melee attack: 15 - 2 - 4 + 8
    assert m.maneuver_target(with_conditions(npc(), "flat-footed", "prone")).total == 17
    cover = Term(4, "cover", "MOD-07")
    assert m.maneuver_target(npc(), ac_terms=(cover,)).total == 27


@pytest.mark.rule("MAN-01")
def test_a_maneuver_is_a_melee_attack_roll_against_kac_plus_8() -> None:
    r = attempt("trip", pc(), npc(), "baton", ScriptedDice([16]))
    assert r.roll.kind is CheckKind.ATTACK
    assert r.roll.total == 23 and r.target.total == 23 and r.success and r.steps == 0
    miss = attempt("trip", pc(), npc(), "baton", ScriptedDice([15]))
    assert not miss.success and miss.defender == npc() and miss.condition is None


@pytest.mark.rule("MAN-01")
def test_steps_are_full_fives_over_kac_plus_8() -> None:
    assert [m.steps(t, 23) for t in (22, 23, 27, 28, 32, 33)] == [0, 0, 0, 1, 1, 2]
    assert m.steps(40, 23, success=False) == 0
    r = attempt("bull rush", pc(), weak(), "baton", ScriptedDice([16]))  # 23 vs 13
    assert r.steps == 2


@pytest.mark.rule("MAN-01")
def test_natural_20_succeeds_and_natural_1_fails() -> None:
    cover = (Term(4, "cover", "MOD-07"),)
    r = attempt("trip", pc(), pc(name="Other"), "baton", ScriptedDice([20]), ac_terms=cover)
    # 20 + 7 = 27 against 18 + 4 + 8 = 30: a natural 20 still succeeds, with no extra step
    assert r.roll.total == 27 and r.target.total == 30
    assert r.success and r.steps == 0 and r.defender.has("prone")
    big = (Term(20, "huge bonus", ""),)
    r1 = attempt("trip", pc(), weak(), "baton", ScriptedDice([1]), extra_terms=big)
    assert r1.roll.total == 28 and not r1.success and r1.steps == 0


@pytest.mark.rule("MAN-01", "ABL-10")
def test_negative_levels_lower_the_maneuver_roll() -> None:
    drained = pc().with_state(negative_levels=(NegativeLevels(count=2),))
    r = attempt("trip", drained, npc(), "baton", ScriptedDice([17]))
    assert r.roll.bonus.total == 5 and r.roll.total == 22 and not r.success


@pytest.mark.rule("MAN-01", "MOD-19")
def test_a_helpless_targets_plus_4_to_melee_applies() -> None:
    r = attempt("trip", pc(), with_conditions(npc(), "helpless"), "baton", ScriptedDice([5]))
    assert any(t.value == 4 and "helpless" in t.label for t in r.roll.bonus.applied)


@pytest.mark.rule("MAN-01", "SPA-13")
def test_incorporeal_creatures_neither_make_nor_suffer_maneuvers() -> None:
    ghost = npc(incorporeal=True)
    with pytest.raises(RuleViolation) as e:
        attempt("trip", pc(), ghost, "baton", ScriptedDice([20]))
    assert e.value.rule == "SPA-13"
    with pytest.raises(RuleViolation) as e:
        attempt("grapple", ghost, pc(), "claw", ScriptedDice([20]))
    assert e.value.rule == "SPA-13"


@pytest.mark.rule("MAN-01")
def test_refusals_change_nothing_and_roll_nothing() -> None:
    dice = ScriptedDice([20])
    with pytest.raises(RuleViolation) as e:
        attempt("trip", pc(), npc(), "semi-auto", dice)  # a ranged weapon
    assert e.value.rule == "MAN-01" and dice.remaining == 1
    with pytest.raises(RuleViolation) as e:
        attempt("trip", with_conditions(pc(), "stunned"), npc(), "baton", dice)
    assert e.value.rule == "CON-34" and dice.remaining == 1
    with pytest.raises(RuleViolation) as e:
        attempt("trip", pc(), with_conditions(npc(), "dead"), "baton", dice)
    assert e.value.rule == "CON-10"
    with pytest.raises(RuleViolation) as e:
        attempt("headbutt", pc(), npc(), "baton", dice)
    assert e.value.rule == "MAN-01" and dice.remaining == 1


@pytest.mark.rule("MAN-01")
def test_no_weapon_means_an_unarmed_strike() -> None:
    r = attempt("trip", pc(), weak(), None, ScriptedDice([10]))
    assert r.weapon.name == "unarmed strike" and r.roll.total == 17 and r.success


# ------------------------------------------------------------------------------------------- MAN-02
@pytest.mark.rule("MAN-02", "MAN-13")
def test_bull_rush_pushes_5_ft_plus_5_per_step_directly_away() -> None:
    r = attempt("bull rush", pc(), weak(), "baton", ScriptedDice([6]))  # 13 vs 13
    assert r.success and r.distance_ft == 5 and r.direction == m.BULL_RUSH_DIRECTION
    assert not r.provokes
    r = attempt("bull rush", pc(), weak(), "baton", ScriptedDice([16]))  # 23 vs 13: 2 steps
    assert r.distance_ft == 15
    assert r.defender == weak() and r.lines[-2].endswith("[MAN-02]")
    fail = attempt("bull rush", pc(), npc(), "baton", ScriptedDice([2]))
    assert fail.distance_ft == 0 and fail.direction == ""


# ------------------------------------------------------------------------------------------- MAN-03
@pytest.mark.rule("MAN-03")
def test_dirty_trick_gives_the_chosen_condition_for_1_plus_steps_rounds() -> None:
    r = attempt("dirty trick", pc(), weak(), "baton", ScriptedDice([11]), condition="shaken")  # 18 vs 13
    assert r.steps == 1
    assert r.condition == ConditionInstance(name="shaken", source="dirty trick: Tess", rounds=2)
    assert r.defender.state.conditions == (r.condition,)
    r = attempt("dirty trick", pc(), weak(), "baton", ScriptedDice([6]), condition="off target")
    assert r.condition is not None and r.condition.name == "off-target" and r.condition.rounds == 1


@pytest.mark.rule("MAN-03")
def test_dirty_trick_choices_are_limited_and_required() -> None:
    with pytest.raises(RuleViolation) as e:
        attempt("dirty trick", pc(), weak(), "baton", ScriptedDice([20]), condition="stunned")
    assert e.value.rule == "MAN-03"
    with pytest.raises(RuleViolation) as e:
        attempt("dirty trick", pc(), weak(), "baton", ScriptedDice([20]), condition="itchy")
    assert e.value.rule == "MAN-03"
    with pytest.raises(RuleViolation):
        attempt("dirty trick", pc(), weak(), "baton", ScriptedDice([20]))


@pytest.mark.rule("MAN-03")
def test_a_ranged_dirty_trick_takes_minus_2_per_5_ft() -> None:
    r = attempt("dirty trick", pc(), weak(), "baton", ScriptedDice([12]), condition="blinded", range_ft=15)
    assert r.roll.bonus.total == 1 and r.roll.total == 13 and r.success
    with pytest.raises(RuleViolation):
        attempt("trip", pc(), weak(), "baton", ScriptedDice([12]), range_ft=15)


@pytest.mark.rule("MAN-03")
def test_a_creature_immune_to_the_condition_is_unchanged() -> None:
    brave = weak(immunities=["fear"])
    r = attempt("dirty trick", pc(), brave, "baton", ScriptedDice([11]), condition="shaken")
    assert r.success and r.condition is None and r.defender == brave


@pytest.mark.rule("MAN-03")
def test_removing_a_dirty_trick_is_a_move_action_helper() -> None:
    r = attempt("dirty trick", pc(), weak(), "baton", ScriptedDice([11]), condition="sickened")
    victim = cond.add_condition(r.defender, ConditionInstance(name="blinded", source="spell"))
    out = m.remove_dirty_trick(victim)
    assert [c.name for c in out.removed] == ["sickened"]
    assert [c.name for c in out.creature.state.conditions] == ["blinded"]
    assert "move action" in out.lines[0]
    with pytest.raises(RuleViolation) as e:
        m.remove_dirty_trick(out.creature)
    assert e.value.rule == "MAN-03"


# ------------------------------------------------------------------------------------------- MAN-04
@pytest.mark.rule("MAN-04")
def test_disarm_knocks_the_chosen_item_away_or_into_a_free_hand() -> None:
    # Ksarik claw +9 against Tess's KAC 18 + 8 = 26
    r = attempt("disarm", npc(), pc(), "claw", ScriptedDice([17]))
    assert r.success and r.item == "tactical baton" and r.item_to == "attacker"
    r = attempt("disarm", npc(), pc(), "claw", ScriptedDice([17]), item="frag grenade I", free_hand=False)
    assert r.item == "frag grenade I" and r.item_to == "ground" and "square" in r.lines[-1]
    r = attempt("disarm", npc(), pc(), "claw", ScriptedDice([17]), catch=False)
    assert r.item_to == "ground"
    with pytest.raises(RuleViolation) as e:  # Ksarik holds nothing but its own claws
        attempt("disarm", pc(), npc(), "baton", ScriptedDice([20]))
    assert e.value.rule == "MAN-04"


# ------------------------------------------------------------------------------------------- MAN-05..07
@pytest.mark.rule("MAN-05", "MAN-07")
def test_grapple_gives_grappled_until_the_end_of_the_grapplers_next_turn() -> None:
    r = attempt("grapple", pc(), weak(), "baton", ScriptedDice([10]))  # 17: at least 13, below 18
    assert r.success and not r.pinned
    assert r.condition == ConditionInstance(name="grappled", source="Tess")
    assert r.defender.has("grappled") and not r.attacker.has("grappled")
    assert (r.expires, r.expires_anchor) == ("turn_end", "Tess")
    assert m.grappled_by(r.defender) == "Tess"


@pytest.mark.rule("MAN-06")
def test_grapple_pins_at_kac_plus_13() -> None:
    assert m.pin_target(weak()).total == 18
    r = attempt("grapple", pc(), weak(), "baton", ScriptedDice([11]))  # 18
    assert r.pinned and r.condition is not None and r.condition.name == "pinned"
    active = cond.active(r.defender)
    assert "grappled" in active and "flat-footed" in active


@pytest.mark.rule("MAN-05")
def test_grapple_needs_a_free_hand() -> None:
    with pytest.raises(RuleViolation) as e:
        attempt("grapple", pc(), weak(), "baton", ScriptedDice([20]), free_hand=False)
    assert e.value.rule == "MAN-05"


@pytest.mark.rule("MAN-07")
def test_one_grappled_target_at_a_time() -> None:
    with pytest.raises(RuleViolation) as e:
        attempt("grapple", pc(), weak(), "baton", ScriptedDice([20]), holding="Goblin")
    assert e.value.rule == "MAN-07"


@pytest.mark.rule("MAN-07")
def test_renewal_sets_the_state_from_the_new_roll() -> None:
    pinned = held(weak(), "pinned")
    # the held creature's KAC counts its current state: 5 - 4 (pinned) - 2 (flat-footed) = -1, so 7 and 12
    assert m.maneuver_target(pinned).total == 7 and m.pin_target(pinned).total == 12
    r = attempt("grapple", pc(), pinned, "baton", ScriptedDice([3]), holding="Ksarik")  # 10: grappled only
    assert r.renewal and r.success and not r.pinned
    assert [c.name for c in r.defender.state.conditions] == ["grappled"]
    # grappled: 5 - 2 = 3, so 11 and 16
    r = attempt("grapple", pc(), held(weak()), "baton", ScriptedDice([9]), holding="Ksarik")  # 16: pinned
    assert r.renewal and r.pinned and [c.name for c in r.defender.state.conditions] == ["pinned"]
    fail = attempt("grapple", pc(), held(npc()), "baton", ScriptedDice([2]), holding="Ksarik")
    assert fail.renewal and not fail.success and fail.defender == held(npc())
    assert "ends at the end of Tess's turn" in fail.lines[-1]


@pytest.mark.rule("MAN-07")
def test_taking_an_item_on_renewal_ends_the_grapple() -> None:
    r = attempt("grapple", pc(), held(weak()), "baton", ScriptedDice([10]), item="datapad")
    assert r.renewal and r.grapple_ended and r.item == "datapad" and r.item_to == "attacker"
    assert not r.defender.has("grappled") and r.condition is None
    with pytest.raises(RuleViolation) as e:  # not held: nothing to renew
        attempt("grapple", pc(), weak(), "baton", ScriptedDice([10]), item="datapad")
    assert e.value.rule == "MAN-07"


@pytest.mark.rule("MAN-07")
def test_ending_a_grapple_removes_only_that_grapplers_hold() -> None:
    both = held(held(npc()), "grappled", "Goblin")
    out = m.end_grapple(both, "Tess", "grappler moved away")
    assert out.ended and [c.source for c in out.creature.state.conditions] == ["Goblin"]
    assert "moved away" in out.lines[0]
    assert not m.end_grapple(npc(), "Tess").ended


# ------------------------------------------------------------------------------------------- MAN-08
@pytest.mark.rule("MAN-08", "CON-20")
def test_grappled_penalty_does_not_apply_to_grappling_back() -> None:
    ksarik = held(npc())
    # trip: grappled's -2 applies: 17 + 9 - 2 = 24 < 26
    trip = attempt("trip", ksarik, pc(), "claw", ScriptedDice([17]))
    assert trip.roll.total == 24 and not trip.success
    # grapple back: no -2: 17 + 9 = 26 - the grappler is now grappled and Ksarik is free
    r = attempt("grapple", ksarik, pc(), "claw", ScriptedDice([17]))
    assert r.roll.total == 26 and r.success and r.reversed
    assert not r.attacker.has("grappled")
    assert r.defender.state.conditions == (ConditionInstance(name="grappled", source="Ksarik"),)
    assert (r.expires, r.expires_anchor) == ("turn_end", "Ksarik")


@pytest.mark.rule("MAN-08", "CON-28")
def test_pinned_penalty_applies_to_grappling_back_and_pinned_can_do_nothing_else() -> None:
    ksarik = held(npc(), "pinned")
    r = attempt("grapple", ksarik, pc(), "claw", ScriptedDice([17]))
    assert r.roll.total == 22 and not r.success and r.attacker == ksarik
    with pytest.raises(RuleViolation) as e:
        attempt("trip", ksarik, pc(), "claw", ScriptedDice([17]))
    assert e.value.rule == "CON-28"


@pytest.mark.rule("MAN-08")
def test_acrobatics_escape_with_supplied_bonus_and_dc() -> None:
    grappled = held(npc())
    r = m.escape(grappled, 20, ScriptedDice([10]), bonus=10)  # grappled's -2 does not count: 20
    assert r.check.kind is CheckKind.SKILL and r.check.total == 20 and r.escaped
    assert not r.creature.has("grappled") and r.grappler == "Tess"
    pinned = held(npc(), "pinned")
    r = m.escape(pinned, 20, ScriptedDice([10]), bonus=10)  # pinned's -4 counts: 16
    assert r.check.total == 16 and not r.escaped and r.creature == pinned


@pytest.mark.rule("MAN-08", "CON-36")
def test_invisibility_gives_plus_2_circumstance_to_escape() -> None:
    r = m.escape(held(npc()), 20, ScriptedDice([8]), bonus=10, invisible=True)
    assert r.check.total == 20 and r.escaped
    marked = with_conditions(held(npc()), "invisible")
    assert m.escape(marked, 20, ScriptedDice([8]), bonus=10).escaped


@pytest.mark.rule("MAN-08")
def test_escape_needs_a_grapple_and_natural_20_is_not_automatic() -> None:
    with pytest.raises(RuleViolation) as e:
        m.escape(npc(), 20, ScriptedDice([10]), bonus=10)
    assert e.value.rule == "MAN-08"
    assert not m.escape(held(npc()), 40, ScriptedDice([20]), bonus=0).escaped


# ------------------------------------------------------------------------------------------- MAN-09, MAN-10
@pytest.mark.rule("MAN-09", "MAN-13")
def test_reposition_moves_up_to_5_ft_plus_5_per_step() -> None:
    r = attempt("reposition", pc(), weak(), "baton", ScriptedDice([11]))  # 18: 1 step
    assert r.distance_ft == 10 and r.drag_ft == 0 and not r.provokes
    r = attempt("reposition", pc(), weak(), "baton", ScriptedDice([11]), forced_movement_provokes=True)
    assert r.provokes and "provokes" in r.lines[-1]


@pytest.mark.rule("MAN-10")
def test_reposition_as_a_full_action_drags_up_to_the_speed() -> None:
    r = attempt("reposition", pc(), weak(), "baton", ScriptedDice([11]), full_action=True)
    assert r.drag_ft == 10
    big = (Term(30, "huge bonus", ""),)
    r = attempt("reposition", pc(), weak(), "baton", ScriptedDice([10]), full_action=True, extra_terms=big)
    # 47 vs 13: 6 steps, 35 ft; the drag stops at the speed, 30 ft
    assert r.distance_ft == 35 and r.drag_ft == 30


# ------------------------------------------------------------------------------------------- MAN-11
@pytest.mark.rule("MAN-11", "DMG-15")
def test_sunder_deals_the_weapon_damage_less_hardness() -> None:
    gland = ObjectState("spit gland", hp=10, max_hp=10, hardness=3)
    r = attempt("sunder", pc(), weak(), "baton", ScriptedDice([16, 4]), obj=gland)
    # 1d4 [4] + 3 Strength = 7, less hardness 3 = 4
    assert r.damage_roll is not None and r.damage_roll.total == 7
    assert r.object_damage is not None and r.object_damage.dealt == 4 and r.object_damage.obj.hp == 6
    assert r.item == "spit gland" and r.defender == weak()
    with pytest.raises(RuleViolation) as e:
        attempt("sunder", pc(), weak(), "baton", ScriptedDice([16, 4]))
    assert e.value.rule == "MAN-11"
    miss = attempt("sunder", pc(), npc(), "baton", ScriptedDice([2]), obj=gland)
    assert miss.object_damage is None


# ------------------------------------------------------------------------------------------- MAN-12
@pytest.mark.rule("MAN-12")
def test_trip_knocks_prone() -> None:
    r = attempt("trip", pc(), weak(), "baton", ScriptedDice([6]))
    assert r.condition == ConditionInstance(name="prone", source="Tess") and r.defender.has("prone")


@pytest.mark.rule("MAN-12")
def test_a_tripped_flier_descends_10_ft_and_is_prone_only_if_it_lands() -> None:
    high = attempt("trip", pc(), weak(), "baton", ScriptedDice([6]), altitude_ft=30)
    assert high.descent_ft == 10 and high.condition is None and not high.defender.has("prone")
    low = attempt("trip", pc(), weak(), "baton", ScriptedDice([6]), altitude_ft=10)
    assert low.descent_ft == 10 and low.defender.has("prone")
    lower = attempt("trip", pc(), weak(), "baton", ScriptedDice([6]), altitude_ft=5)
    assert lower.descent_ft == 5 and lower.defender.has("prone")


@pytest.mark.rule("MAN-12", "CON-23")
def test_a_trip_in_zero_gravity_leaves_the_target_off_kilter() -> None:
    r = attempt("trip", pc(), weak(), "baton", ScriptedDice([6]), zero_gravity=True)
    assert r.condition is not None and r.condition.name == "off-kilter"
    assert not r.defender.has("prone") and "flat-footed" in cond.active(r.defender)


# ------------------------------------------------------------------------------------------- MAN-13, MAN-14
@pytest.mark.rule("MAN-13")
def test_forced_movement_does_not_provoke_by_default() -> None:
    assert m.FORCED_MOVEMENT_PROVOKES is False
    r = attempt("bull rush", pc(), weak(), "baton", ScriptedDice([6]), forced_movement_provokes=True)
    assert r.provokes


@pytest.mark.rule("MAN-14")
def test_feint_is_not_a_maneuver() -> None:
    assert "feint" not in {k.value for k in Maneuver}
    with pytest.raises(ValueError):
        Maneuver("feint")


# ------------------------------------------------------------------------------------------- properties
@pytest.mark.rule("MAN-01", "MAN-02")
@settings(max_examples=80, deadline=None)
@given(st.integers(1, 20), st.integers(-5, 30), st.integers(1, 30))
def test_steps_are_never_negative_and_bull_rush_is_5_per_step_plus_5(d20: int, bonus: int, kac: int) -> None:
    target = npc(kac=kac)
    r = attempt("bull rush", pc(), target, "baton", ScriptedDice([d20]), extra_terms=(Term(bonus, "x", ""),))
    assert r.steps >= 0
    expected_success = d20 == 20 or (d20 != 1 and r.roll.total >= kac + 8)
    assert r.success == expected_success
    if r.success:
        assert r.steps == max(0, (r.roll.total - (kac + 8)) // 5)
        assert r.distance_ft == 5 * (1 + r.steps)
    else:
        assert r.steps == 0 and r.distance_ft == 0
