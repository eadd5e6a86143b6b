"""Effects: descriptors, durations, ranges and targets (EFF-14..51, ACT-31, ACT-75, GEN-16, CON-00)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sftactics.core.breakdown import constant
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.encounter.state import Expiry
from sftactics.grid.geometry import Footprint
from sftactics.sf1e import effect_rules as er
from sftactics.sf1e.effect_rules import (
    Candidate,
    ChargeStatus,
    CharmOrder,
    Communication,
    Conjured,
    Descriptor,
    DescriptorContext,
    Duration,
    DurationKind,
    EffectEnd,
    EffectRange,
    Location,
    Moment,
    Perceiving,
    RangeKind,
    RunningEffect,
    TargetCategory,
    TimeUnit,
    TouchCharge,
    VehicleEffect,
)
from sftactics.sf1e.senses import TelepathyCheck, observe_creature
from sftactics.sf1e.state import ConditionInstance, Creature
from tests.builders import npc, npc_block, pc, with_conditions

NPC_ABILITIES = {"str": 3, "dex": 2, "con": 2, "int": -3, "wis": 1, "cha": -2}


def mindless() -> Creature:
    return npc(abilities={**NPC_ABILITIES, "int": None}, creature_type="construct (technological)")


# =========================================================================================== descriptors
@pytest.mark.rule("EFF-14")
def test_the_35_descriptors_and_which_have_rules_of_their_own() -> None:
    assert len(Descriptor) == 35
    assert set(er.DESCRIPTOR_INFO) == set(Descriptor)
    own = {d.value for d, info in er.DESCRIPTOR_INFO.items() if info.own_rules}
    assert own == {
        "calling", "charm", "compulsion", "creation", "language-dependent", "mind-affecting", "pain", "scrying",
        "sense-dependent", "shadow", "summoning", "teleportation",
    }  # fmt: skip
    assert er.descriptor("Mind Affecting") is Descriptor.MIND_AFFECTING
    assert er.descriptor("language_dependent") is Descriptor.LANGUAGE_DEPENDENT
    with pytest.raises(RuleViolation) as e:
        er.descriptor("psychic")
    assert e.value.rule == "EFF-14"
    assert er.save_tags(["fear", Descriptor.MIND_AFFECTING]) == frozenset({"vs:fear", "vs:mind-affecting"})


@pytest.mark.rule("EFF-14")
def test_descriptor_immunities_read_the_stat_block_but_energy_is_damage_immunity() -> None:
    brave = npc(immunities=["fear effects", "fire", "poison"])
    assert er.immune_to_descriptor(brave, "fear")
    assert er.immune_to_descriptor(brave, Descriptor.POISON)
    assert not er.immune_to_descriptor(brave, Descriptor.FIRE)  # fire damage is sf1e.damage's business
    assert not er.immune_to_descriptor(brave, Descriptor.DEATH)
    gate = er.descriptor_gate(brave, ["fear", "fire"], DescriptorContext())
    assert not gate and gate.rule == "EFF-14" and "fear" in gate.reason


@pytest.mark.rule("EFF-17", "EFF-24")
def test_compulsion_and_shadow_are_documented_data() -> None:
    assert er.DESCRIPTOR_INFO[Descriptor.COMPULSION].rule == "EFF-17"
    assert "free will" in er.DESCRIPTOR_INFO[Descriptor.COMPULSION].summary
    assert er.DESCRIPTOR_INFO[Descriptor.SHADOW].rule == "EFF-24"
    assert er.SHADOW_DAMAGE_IS_REAL is True


@pytest.mark.rule("EFF-20")
def test_mind_affecting_needs_intelligence_1_or_more() -> None:
    assert er.intelligence_score(pc()) == 10
    assert er.mind_affecting_works(pc())
    no_mind = er.mind_affecting_works(mindless())
    assert not no_mind and no_mind.rule == "EFF-20"
    # a printed modifier means a score of at least 1: -5 is Int 1 at worst
    dim = npc(abilities={**NPC_ABILITIES, "int": -5})
    assert er.intelligence_score(dim) == 1
    assert er.mind_affecting_works(dim)
    drained = pc().with_state(ability_drain={"int": 10})
    assert er.intelligence_score(drained) == 0
    assert not er.mind_affecting_works(drained)
    damaged = pc().with_state(ability_damage={"int": 10})  # damage lowers the modifier, not the score
    assert er.mind_affecting_works(damaged)
    assert not er.mind_affecting_works(npc(immunities=["mind-affecting effects"]))
    assert not er.descriptor_gate(mindless(), ["mind-affecting", "fear"], DescriptorContext())


@pytest.mark.rule("EFF-19")
def test_language_dependent_needs_a_shared_way_to_communicate() -> None:
    target = npc()
    heard = er.communication(["Common", "Vesk"], target, ["vesk"])
    assert heard == Communication(True, audible=True)
    assert er.language_dependent_works(heard)
    stranger = er.communication(["Common"], target, ["Ysoki"])
    assert not er.language_dependent_works(stranger)
    deaf = er.communication(["Common"], with_conditions(target, "deafened"), ["Common"])
    assert not deaf.audible and not er.language_dependent_works(deaf)
    signs = er.communication(["Common"], with_conditions(target, "deafened"), ["Common"], signs=True, sees_user=True)
    assert er.language_dependent_works(signs)
    assert not er.communication(["Common"], target, ["Common"], vacuum=True).audible
    mind = er.communication(["Common"], target, ["Ysoki"], vacuum=True, telepathy=TelepathyCheck(True, "telepathy"))
    assert er.language_dependent_works(mind)
    with pytest.raises(RuleViolation) as e:
        er.descriptor_gate(target, ["language-dependent"], DescriptorContext())
    assert e.value.rule == "EFF-19"
    assert not er.descriptor_gate(target, ["language-dependent"], DescriptorContext(communication=stranger))


@pytest.mark.rule("EFF-21")
def test_pain_fails_against_fortitude_immunity() -> None:
    assert er.pain_works(npc())
    undead = npc(immunities=["effects that require a Fortitude save"])
    gate = er.pain_works(undead)
    assert not gate and gate.rule == "EFF-21"
    assert not er.pain_works(npc(), immune_to_fortitude_effects=True)
    assert not er.pain_works(npc(immunities=["pain effects"]))
    assert not er.descriptor_gate(undead, ["pain"], DescriptorContext())
    assert er.descriptor_gate(undead, ["pain"], DescriptorContext(immune_to_fortitude_effects=False))


@pytest.mark.rule("EFF-23")
def test_sense_dependent_needs_each_to_see_or_hear_the_other() -> None:
    assert er.sense_dependent_works(Perceiving(user_hears_target=True, target_sees_user=True))
    assert not er.sense_dependent_works(Perceiving(user_sees_target=True))
    assert not er.sense_dependent_works(Perceiving(target_hears_user=True))
    user, target = pc(), npc()
    both = er.perceiving_from(
        observe_creature(user, target, distance_ft=10), observe_creature(target, user, distance_ft=10)
    )
    assert both == Perceiving(True, True, True, True)
    # a blinded user still hears the target: it works
    blind = with_conditions(user, "blinded")
    p = er.perceiving_from(
        observe_creature(blind, target, distance_ft=10), observe_creature(target, blind, distance_ft=10)
    )
    assert p.user_hears_target and not p.user_sees_target and er.sense_dependent_works(p)
    # a blinded and deafened target perceives nobody by sight or sound
    numb = with_conditions(target, "blinded", "deafened")
    q = er.perceiving_from(observe_creature(user, numb, distance_ft=10), observe_creature(numb, user, distance_ft=10))
    gate = er.sense_dependent_works(q)
    assert not gate and "target" in gate.reason
    assert not er.descriptor_gate(numb, ["sense-dependent"], DescriptorContext(perceiving=q))


@pytest.mark.rule("EFF-22")
def test_scrying_sensor_dc_notice_check_and_blocking() -> None:
    sensor = er.ScryingSensor("Oracle", effect_level=3)
    assert sensor.notice_dc == 23
    assert (
        er.scrying_notice_dc(3).describe()
        == "scrying sensor Perception DC 23 = +20 base [EFF-22] +3 effect level [EFF-22]"
    )
    hit = er.notice_scrying_sensor(pc(), sensor, ScriptedDice([18]), perception_bonus=5)
    assert hit.total == 23 and hit.success
    miss = er.notice_scrying_sensor(pc(), sensor, ScriptedDice([17]), perception_bonus=5)
    assert miss.total == 22 and not miss.success
    blocked = er.scrying_blocked(["steel", "lead sheeting"])
    assert not blocked and "senses" in blocked.reason and blocked.rule == "EFF-22"
    assert er.scrying_blocked(["steel"])
    assert not er.scrying_blocked(["abadarite plating"], also_blocking=["abadarite plating"])


# ------------------------------------------------------------------------------------------------ charm
@pytest.mark.rule("EFF-16")
def test_charm_ordinary_and_self_destructive_orders_need_no_roll() -> None:
    dice = ScriptedDice([])
    ok = er.answer_charm_order(pc(), npc(), CharmOrder.ORDINARY, dice)
    assert ok.obeys and ok.still_charmed and not ok.checks
    no = er.answer_charm_order(pc(), npc(), CharmOrder.SELF_DESTRUCTIVE, dice)
    assert not no.obeys and no.still_charmed and not no.checks


@pytest.mark.rule("EFF-16")
def test_charm_out_of_character_order_opposed_charisma() -> None:
    charmed, charmer = pc(), npc()  # Cha +0 against Cha -2
    refuse = er.answer_charm_order(charmed, charmer, CharmOrder.OUT_OF_CHARACTER, ScriptedDice([10, 11]))
    assert [c.total for c in refuse.checks] == [10, 9]
    assert not refuse.obeys and refuse.still_charmed
    obey = er.answer_charm_order(charmed, charmer, CharmOrder.OUT_OF_CHARACTER, ScriptedDice([5, 12]))
    assert [c.total for c in obey.checks] == [5, 10] and obey.obeys
    # a tie in totals goes to the higher Charisma bonus
    tie = er.answer_charm_order(charmed, charmer, CharmOrder.OUT_OF_CHARACTER, ScriptedDice([8, 10]))
    assert [c.total for c in tie.checks] == [8, 8] and not tie.obeys
    # equal bonuses roll again
    twin = er.answer_charm_order(pc(), pc(), CharmOrder.OUT_OF_CHARACTER, ScriptedDice([10, 10, 3, 4]))
    assert [c.total for c in twin.checks] == [10, 10, 3, 4] and twin.obeys


@pytest.mark.rule("EFF-16")
def test_charm_vehemently_opposed_order_allows_a_new_save() -> None:
    charmed, charmer = pc(), npc()  # Will +1
    free = er.answer_charm_order(charmed, charmer, CharmOrder.VEHEMENTLY_OPPOSED, ScriptedDice([14]), dc=15)
    assert free.checks[0].total == 15 and not free.still_charmed and not free.obeys
    assert free.checks[0].bonus.label == "Will save"
    held = er.answer_charm_order(charmed, charmer, CharmOrder.VEHEMENTLY_OPPOSED, ScriptedDice([2, 15, 3]), dc=15)
    assert [c.total for c in held.checks] == [3, 15, 1]
    assert held.still_charmed and not held.obeys
    meek = er.answer_charm_order(
        charmed, charmer, CharmOrder.VEHEMENTLY_OPPOSED, ScriptedDice([2]), dc=15, check_after_failed_save=False
    )
    assert meek.still_charmed and meek.obeys
    with pytest.raises(RuleViolation):
        er.answer_charm_order(charmed, charmer, CharmOrder.VEHEMENTLY_OPPOSED, ScriptedDice([10]))


@pytest.mark.rule("EFF-16")
def test_charm_freed_when_openly_attacked_by_the_charmers_side() -> None:
    assert er.charm_freed_by_attack("Mira", "Mira", set())
    assert er.charm_freed_by_attack("Tess", "Mira", {"Tess"})
    assert not er.charm_freed_by_attack("Tess", "Mira", {"Tess"}, openly=False)
    assert not er.charm_freed_by_attack("Ksarik", "Mira", {"Tess"})
    assert er.charmed_may_fight_former_friend(True) and not er.charmed_may_fight_former_friend(False)


# ------------------------------------------------------------------------- summoning, calling, creation
@pytest.mark.rule("EFF-25", "GEN-16")
def test_summoned_creature_at_zero_hp_reforms_for_24_hours_and_its_spells_end() -> None:
    fate = er.fate_at_zero_hp(Conjured.SUMMONED)
    assert fate.what == "returns" and not fate.really_dead
    assert er.summoned_goes_away(npc().with_state(hp=0))
    assert not er.summoned_goes_away(npc())
    gone = er.summon_departure("Eel", reason="0 HP", now_round=5, effects_cast_by=[(1, "Eel"), (2, "Tess"), (3, "Eel")])
    assert er.REFORM_ROUNDS == 14_400
    assert gone.available_from == 14_405 and gone.expired_effects == (1, 3) and not gone.really_dead
    wait = er.can_be_summoned(gone.available_from, 14_404)
    assert not wait and "1 more rounds" in wait.reason
    assert er.can_be_summoned(gone.available_from, 14_405)
    ended = er.summon_departure("Eel", reason="effect ended", now_round=5, effects_cast_by=[(1, "Eel")])
    assert ended.available_from is None and ended.expired_effects == (1,)
    assert er.fate_when_effect_ends(Conjured.SUMMONED, Duration.timed(1, per_level=True)).what == "returns"
    assert er.fate_when_effect_ends(Conjured.SUMMONED, Duration.timed(1), creature=False).what == "stays"
    assert er.fate_when_effect_ends(Conjured.SUMMONED, Duration.timed(1), creature=False, sent_back=True).what == (
        "returns"
    )
    with pytest.raises(RuleViolation) as e:
        er.check_summoned_may_summon(True)
    assert e.value.rule == "EFF-25"
    er.check_summoned_may_summon(False)


@pytest.mark.rule("EFF-15")
def test_called_creatures_really_die_and_cannot_be_dispelled() -> None:
    fate = er.fate_at_zero_hp(Conjured.CALLED)
    assert fate.what == "dies" and fate.really_dead and fate.rule == "EFF-15"
    with pytest.raises(RuleViolation) as e:
        er.check_dispellable(Conjured.CALLED)
    assert e.value.rule == "EFF-15"
    er.check_dispellable(Conjured.SUMMONED)
    assert er.fate_when_effect_ends(Conjured.CALLED, Duration.timed(1)).what == "stays"


@pytest.mark.rule("EFF-18", "EFF-29")
def test_creations_vanish_unless_instantaneous() -> None:
    assert er.fate_when_effect_ends(Conjured.CREATED, Duration.instantaneous()).what == "stays"
    gone = er.fate_when_effect_ends(Conjured.CREATED, er.parse_duration("1 hour/level (D)"))
    assert gone.what == "vanishes" and gone.rule == "EFF-18"
    assert er.fate_at_zero_hp(Conjured.CREATED).what == "normal"


@pytest.mark.rule("EFF-26")
def test_teleportation_is_blocked_with_astral_travel() -> None:
    assert not er.teleportation_works(astral_travel_blocked=True)
    assert er.teleportation_works(astral_travel_blocked=True, effect_ignores_blocks=True)
    assert er.teleportation_works(astral_travel_blocked=False)


# =========================================================================================== durations
@pytest.mark.rule("GEN-16", "EFF-28")
def test_time_units_in_rounds() -> None:
    assert [er.units_to_rounds(1, u) for u in TimeUnit] == [1, 10, 600, 14_400, 100_800, 5_256_000]
    assert er.to_rounds(er.parse_duration("10 minutes/level"), level=3) == 300
    assert er.to_rounds(Duration.timed(24, TimeUnit.HOUR)) == 14_400
    with pytest.raises(RuleViolation) as e:
        er.to_rounds(Duration.timed(1, per_level=True))
    assert e.value.rule == "EFF-28"


@pytest.mark.rule("EFF-28")
def test_variable_durations_are_rolled_secretly() -> None:
    dice = ScriptedDice([3])
    rolled = er.roll_duration(Duration.rolled("1d4"), dice)
    assert rolled.rounds == 3 and rolled.secret
    assert "secret" in dice.history[0].purpose and dice.history[0].sides == 4
    minutes = er.roll_duration(er.parse_duration("1d4+1 minutes"), ScriptedDice([2]))
    assert minutes.rounds == 30
    fixed = er.roll_duration(Duration.timed(2, per_level=True), ScriptedDice([]), level=4)
    assert fixed.rounds == 8 and not fixed.secret and fixed.roll is None
    with pytest.raises(RuleViolation):
        er.to_rounds(Duration.rolled("1d4"))
    assert er.to_rounds(Duration.rolled("1d4"), rolled=2) == 2
    with pytest.raises(RuleViolation):
        Duration.rolled("1d4-3")  # could be below 1
    with pytest.raises(RuleViolation):
        er.parse_duration("1d4 rounds/level")


@pytest.mark.rule("EFF-27", "EFF-28", "EFF-29", "EFF-30", "EFF-31", "EFF-32", "EFF-34")
def test_parse_duration_forms() -> None:
    p = er.parse_duration
    assert p("Instantaneous") == Duration.instantaneous()
    assert p("permanent (D)") == Duration.permanent(dismissible=True)
    assert p("concentration") == Duration.concentration()
    assert p("concentration + 1 round/level") == Duration.concentration(linger_per_level=1)
    assert p("concentration + 3 rounds") == Duration.concentration(linger_rounds=3)
    assert p("1 round/level (D)") == Duration.timed(1, per_level=True, dismissible=True)
    assert p("10 min./level") == Duration.timed(10, TimeUnit.MINUTE, per_level=True)
    assert p("1 hour or until discharged") == Duration.timed(1, TimeUnit.HOUR, discharge=True)
    assert p("1d4 rounds") == Duration.rolled("1d4")
    assert p("24 hours").describe() == "24 hours"
    assert p("1 round/level (D)").describe() == "1 round/level (D)"
    for bad in ("a while", "instantaneous (D)", "0 rounds"):
        with pytest.raises(RuleViolation):
            p(bad)


@pytest.mark.rule("EFF-27", "EFF-28", "EFF-29", "EFF-30")
def test_end_times_map_onto_the_encounters_expiries() -> None:
    start = Moment(2, 15)
    end = er.end_of(Duration.timed(3), start)
    assert end == EffectEnd("count", 5, 15)
    assert Expiry(**end.expiry_fields()) == Expiry(kind="count", round=5, count=15)
    assert not end.is_over(Moment(5, 16)) and end.is_over(Moment(5, 15)) and end.is_over(Moment(6, 30))
    assert er.end_of(er.parse_duration("1 minute/level"), start, level=2) == EffectEnd("count", 22, 15)
    forever = er.end_of(Duration.permanent(), start)
    assert forever.kind == "never" and not forever.is_over(Moment(10**6, 0))
    assert Expiry(**forever.expiry_fields()).kind == "never"
    instant = er.end_of(Duration.instantaneous(), start)
    assert instant.is_over(start)
    with pytest.raises(RuleViolation):
        instant.expiry_fields()
    assert er.end_of(Duration.concentration(), start).kind == "never"


@pytest.mark.rule("EFF-27", "CON-00")
def test_suppression_keeps_the_original_end() -> None:
    running = RunningEffect("haste", er.end_of(Duration.timed(3), Moment(2, 15)))
    held = er.suppress(running, until=Moment(4, 10))
    assert held.end == running.end
    assert er.effect_status(held, Moment(3, 20)) == "suppressed"
    assert er.effect_status(held, Moment(4, 11)) == "suppressed"
    assert er.effect_status(held, Moment(4, 10)) == "active"
    assert er.effect_status(held, Moment(5, 16)) == "active"
    assert er.effect_status(held, Moment(5, 15)) == "ended"
    open_ended = er.suppress(running)
    assert er.effect_status(open_ended, Moment(5, 16)) == "suppressed"
    assert er.effect_status(open_ended, Moment(5, 15)) == "ended"  # it ran out while suppressed
    assert er.effect_status(er.lift_suppression(open_ended), Moment(3, 1)) == "active"


@pytest.mark.rule("EFF-31")
def test_concentration_standard_action_each_round_and_lingering() -> None:
    duration = er.parse_duration("concentration + 1 round/level")
    c = er.start_concentration("Mira", "telekinesis", duration, Moment(1, 18), level=5)
    assert c.linger == 5 and c.maintained_round == 1
    assert er.MAINTAIN_CONCENTRATION.action == "standard"
    assert er.concentration_at_turn_end(c, Moment(1, 18)).going
    c2 = er.maintain(c, 2)
    with pytest.raises(RuleViolation):
        er.maintain(c2, 2)
    assert er.concentration_at_turn_end(c2, Moment(2, 18)).going
    stopped = er.concentration_at_turn_end(c2, Moment(3, 18))
    assert not stopped.going and stopped.end == EffectEnd("count", 8, 18)
    broken = er.stop_concentrating(c2, Moment(2, 18), broken=True)
    assert broken.end == EffectEnd("instant")
    assert er.stop_concentrating(c2, Moment(2, 18), broken=True, linger_when_broken=True).end == EffectEnd(
        "count", 7, 18
    )
    plain = er.start_concentration("Mira", "light show", Duration.concentration(), Moment(1, 18))
    assert er.stop_concentrating(plain, Moment(1, 18)).end == EffectEnd("instant")
    with pytest.raises(RuleViolation):
        er.start_concentration("Mira", "shield", Duration.timed(1), Moment(1, 18))


@pytest.mark.rule("EFF-31")
def test_no_casting_or_second_concentration_while_concentrating() -> None:
    c = er.start_concentration("Mira", "telekinesis", Duration.concentration(), Moment(1, 18))
    with pytest.raises(RuleViolation) as e:
        er.start_concentration("Mira", "hold", Duration.concentration(), Moment(2, 18), current=c)
    assert e.value.rule == "EFF-31"
    with pytest.raises(RuleViolation):
        er.check_may_cast(c)
    er.check_may_cast(None)
    # the narrower reading: only in a round spent maintaining
    er.check_may_cast(c, now_round=2, reading="same_round")
    with pytest.raises(RuleViolation):
        er.check_may_cast(c, now_round=1, reading="same_round")


@pytest.mark.rule("EFF-32")
def test_discharge_adds_a_way_to_end() -> None:
    d = er.parse_duration("1 hour or until discharged")
    assert d.discharge and er.end_of(d, Moment(1, 10)) == EffectEnd("count", 601, 10)
    assert Duration.permanent(discharge=True).describe() == "permanent or until discharged"


@pytest.mark.rule("EFF-33")
def test_holding_the_charge_of_a_touch_effect() -> None:
    charge = TouchCharge("shocking grasp", created_round=1)
    missed = er.touch(charge, "Ksarik", round_=1, hit=False)
    assert missed.status is ChargeStatus.FRESH
    held = er.charge_at_round_end(missed, 1)
    assert held.status is ChargeStatus.HELD
    assert er.charge_at_round_end(held, 5).status is ChargeStatus.HELD  # held indefinitely
    done = er.touch(held, "Ksarik", round_=4)
    assert done.status is ChargeStatus.DISCHARGED and done.touched == ("Ksarik",)
    with pytest.raises(RuleViolation):
        er.touch(done, "Ksarik", round_=4)
    gone = er.charge_after_other_action(held, "spell")
    assert gone.status is ChargeStatus.DISSIPATED
    with pytest.raises(RuleViolation) as e:
        er.touch(gone, "Ksarik", round_=4)
    assert e.value.rule == "EFF-33"


@pytest.mark.rule("EFF-33", "EFF-40")
def test_multi_target_touches_cannot_be_held() -> None:
    friends = [pc(), pc(name="Ana"), pc(name="Bo")]
    charge = TouchCharge("mystic cure", created_round=2, targets=3)
    charge, cost = er.touch_many(charge, friends[:2], round_=2, willing={"Tess", "Ana"})
    assert cost is None and charge.touched == ("Tess", "Ana") and charge.status is ChargeStatus.FRESH
    lapsed = er.charge_at_round_end(charge, 2)
    assert lapsed.status is ChargeStatus.LAPSED
    with pytest.raises(RuleViolation) as e:
        er.touch(charge, "Bo", round_=3)
    assert e.value.rule == "EFF-33"
    with pytest.raises(RuleViolation) as e:
        er.touch_many(charge, friends[2:], round_=2, willing=set())
    assert e.value.rule == "EFF-40"
    sleeper = pc(name="Bo").with_state(conditions=(ConditionInstance(name="unconscious"),))
    full, _ = er.touch_many(charge, [sleeper], round_=2, willing=set())
    assert full.status is ChargeStatus.DISCHARGED


@pytest.mark.rule("EFF-40")
def test_touching_six_over_several_rounds_is_a_full_action() -> None:
    seven = [pc(name=f"P{i}") for i in range(7)]
    ids = {c.id for c in seven}
    charge = TouchCharge("blessing", created_round=1, targets=12, over_rounds=True)
    with pytest.raises(RuleViolation):
        er.touch_many(charge, seven, round_=1, willing=ids)
    charge, cost = er.touch_many(charge, seven[:6], round_=3, willing=ids)
    assert cost is not None and cost.action == "full" and len(charge.touched) == 6
    later = er.charge_at_round_end(charge, 3)
    assert later.live and later.status is ChargeStatus.HELD  # the rest may be touched in later rounds


@pytest.mark.rule("EFF-34")
def test_dismissing() -> None:
    assert er.dismiss(er.parse_duration("1 minute/level (D)"), within_range=True).action == "standard"
    assert er.dismiss(Duration.concentration(), within_range=False).action == "none"
    with pytest.raises(RuleViolation):
        er.dismiss(Duration.concentration(), within_range=True, own_turn=False)
    for kwargs in ({"within_range": False}, {"within_range": True, "meets_conditions": False}):
        with pytest.raises(RuleViolation) as e:
            er.dismiss(Duration.permanent(dismissible=True), **kwargs)
        assert e.value.rule == "EFF-34"
    with pytest.raises(RuleViolation):
        er.dismiss(Duration.timed(1), within_range=True)
    assert Duration.concentration().dismissible_at_will and not Duration.timed(1).dismissible_at_will


# =========================================================================================== ranges
@pytest.mark.rule("EFF-41", "EFF-42", "EFF-43")
def test_level_based_ranges() -> None:
    assert [er.close_range_ft(lvl) for lvl in (0, 1, 2, 3, 5, 20)] == [25, 25, 30, 30, 35, 75]
    assert [er.medium_range_ft(lvl) for lvl in (1, 5, 20)] == [110, 150, 300]
    assert [er.long_range_ft(lvl) for lvl in (1, 5, 20)] == [440, 600, 1200]
    bd = er.levelled_range(RangeKind.CLOSE, 7)
    assert bd.describe() == "close range (ft) 40 = +25 close base [EFF-41] +15 5 ft x 3 (7 levels / 2) [EFF-41]"
    with pytest.raises(RuleViolation):
        er.levelled_range(RangeKind.TOUCH, 3)


@pytest.mark.rule("EFF-38")
def test_which_level_drives_a_range_and_wasted_area() -> None:
    assert er.range_level("spell", caster_level=7, class_level=3) == 7
    assert er.range_level("Class Feature", class_level=3) == 3
    assert er.range_level("weapon", item_level=4) == 4
    with pytest.raises(RuleViolation) as e:
        er.range_level("spell", class_level=3)
    assert e.value.rule == "EFF-38"
    with pytest.raises(RuleViolation):
        er.range_level("prayer", caster_level=1)
    kept, wasted = er.area_in_range([(4, 0), (5, 0), (6, 0)], Footprint(0, 0), 25)
    assert kept == ((4, 0), (5, 0)) and wasted == ((6, 0),)


@pytest.mark.rule("EFF-38", "EFF-39", "EFF-40", "EFF-41", "EFF-45")
def test_checking_range_by_kind() -> None:
    personal = er.check_effect_range(EffectRange(RangeKind.PERSONAL))
    assert not personal.in_range and personal.rule == "EFF-39"
    assert er.check_effect_range(EffectRange(RangeKind.PERSONAL), target_is_user=True).in_range
    touch = er.parse_range("touch")
    assert er.check_effect_range(touch, distance_ft=5).in_range
    assert not er.check_effect_range(touch, distance_ft=10).in_range
    assert er.check_effect_range(touch, distance_ft=10, reach_ft=10).in_range
    close = er.check_effect_range(er.parse_range("Close"), distance_ft=35, level=5)
    assert close.in_range and close.limit_ft == 35 and close.rule == "EFF-41"
    far = er.check_effect_range(er.parse_range("close"), distance_ft=40, level=5)
    assert not far.in_range
    with pytest.raises(RuleViolation):
        far.require()
    with pytest.raises(RuleViolation):
        er.check_effect_range(er.parse_range("medium"), distance_ft=40)  # no level
    feet = er.parse_range("60 ft.")
    assert feet == EffectRange(RangeKind.FEET, 60)
    assert er.check_effect_range(feet, distance_ft=60).in_range
    assert not er.check_effect_range(feet, distance_ft=65).in_range
    with pytest.raises(RuleViolation):
        er.parse_range("a stone's throw")


@pytest.mark.rule("EFF-45")
def test_range_increments_delegate_to_the_grid() -> None:
    rng = er.parse_range("30 ft. increment")
    assert rng == EffectRange(RangeKind.INCREMENT, 30)
    r = er.check_effect_range(rng, distance_ft=70)
    assert r.in_range and r.penalty == -4 and r.limit_ft == 300 and r.terms[0].rule == "ATK-10"
    out = er.check_effect_range(rng, distance_ft=310)
    assert not out.in_range and out.rule == "ATK-11"
    thrown = er.check_effect_range(EffectRange(RangeKind.INCREMENT, 10, thrown=True), distance_ft=55)
    assert not thrown.in_range and thrown.limit_ft == 50


@pytest.mark.rule("EFF-44", "EFF-35", "EFF-37")
def test_planetary_system_plane_and_unlimited_ranges() -> None:
    absalom = Location("material", "pact worlds", "absalom station")
    akiton = Location("material", "pact worlds", "akiton")
    moon = Location("material", "pact worlds", "akiton")  # in orbit: counts as Akiton's
    vesk = Location("material", "veskarium", "vesk prime")
    hell = Location("hell")

    def ok(kind: RangeKind, a: Location, b: Location) -> bool:
        return er.check_effect_range(EffectRange(kind), user_at=a, target_at=b).in_range

    assert ok(RangeKind.PLANETARY, akiton, moon) and not ok(RangeKind.PLANETARY, akiton, absalom)
    assert ok(RangeKind.SYSTEM, akiton, absalom) and not ok(RangeKind.SYSTEM, akiton, vesk)
    assert ok(RangeKind.PLANE, akiton, vesk) and not ok(RangeKind.PLANE, akiton, hell)
    assert ok(RangeKind.UNLIMITED, akiton, hell)
    assert not er.within_planetary_range(Location("material", "pact worlds"), Location("material", "pact worlds"))
    with pytest.raises(RuleViolation) as e:
        er.check_effect_range(EffectRange(RangeKind.PLANETARY), user_at=akiton)
    assert e.value.rule == "EFF-44"


# =========================================================================================== targets
@pytest.mark.rule("EFF-47")
def test_target_categories() -> None:
    human = npc(creature_type="humanoid (human)")
    robot = mindless()
    ghoul = npc(creature_type="Undead")
    android = npc(creature_type="humanoid (android)")
    corpse = with_conditions(npc(), "dead")
    assert er.is_living(human) and er.is_living(android) and not er.is_living(robot) and not er.is_living(ghoul)
    assert er.qualifies(android, TargetCategory.LIVING)
    assert not er.qualifies(robot, TargetCategory.LIVING)
    assert er.qualifies(robot, TargetCategory.CONSTRUCT) and not er.qualifies(human, TargetCategory.CONSTRUCT)
    assert er.qualifies(ghoul, TargetCategory.UNDEAD)
    assert not er.qualifies(corpse, TargetCategory.CREATURE) and er.qualifies(corpse, TargetCategory.CORPSE)
    assert not er.qualifies(human, TargetCategory.CORPSE)
    woi = TargetCategory.WILLING_OR_UNCONSCIOUS
    assert not er.qualifies(human, woi)
    assert er.qualifies(human, woi, willing=True)
    assert er.qualifies(with_conditions(human, "unconscious"), woi)


@pytest.mark.rule("EFF-46", "EFF-47")
def test_choosing_targets_when_activation_finishes() -> None:
    a, b = npc(), Creature.fresh(npc_block(), id="Ksarik 2")
    assert er.choose_targets([Candidate(a), Candidate(b)], max_targets=2) == ("Ksarik", "Ksarik 2")
    for bad, rule in (
        ([Candidate(a, line_of_effect=False)], "EFF-46"),
        ([Candidate(a), Candidate(b)], "EFF-46"),
        ([], "EFF-46"),
    ):
        with pytest.raises(RuleViolation) as e:
            er.choose_targets(bad)
        assert e.value.rule == rule
    with pytest.raises(RuleViolation):
        er.choose_targets([Candidate(a), Candidate(a)], max_targets=2)
    with pytest.raises(RuleViolation) as e:
        er.choose_targets([Candidate(a)], category=TargetCategory.WILLING_OR_UNCONSCIOUS)
    assert e.value.rule == "EFF-47"
    assert er.choose_targets([Candidate(a, willing=True)], category=TargetCategory.WILLING_OR_UNCONSCIOUS) == (
        "Ksarik",
    )


@pytest.mark.rule("EFF-48", "ACT-75")
def test_declaring_willingness_costs_nothing_at_any_time() -> None:
    assert er.DECLARE_WILLING.action == "none" and er.DECLARE_WILLING.any_time and not er.DECLARE_WILLING.provokes
    willing = er.declare_willing(frozenset(), "Tess")
    assert willing == {"Tess"}
    assert er.declare_willing(willing, "Tess", is_willing=False) == frozenset()


@pytest.mark.rule("EFF-49", "ACT-31")
def test_redirecting_is_a_move_action_that_does_not_provoke() -> None:
    cost = er.redirect_cost()
    assert cost.action == "move" and not cost.provokes and cost.rule == "EFF-49"
    swift = er.redirect_cost("swift")
    assert swift.action == "swift" and not swift.provokes


@pytest.mark.rule("EFF-40")
def test_touch_attacks_target_eac_unless_willing_or_unconscious() -> None:
    target = npc()  # EAC 13, KAC 15
    bonus = constant("melee attack", 5)
    hit = er.touch_attack(target, bonus, ScriptedDice([8]))
    assert hit.hit and hit.check is not None and hit.check.total == 13 and hit.ac is not None and hit.ac.total == 13
    assert not er.touch_attack(target, bonus, ScriptedDice([7])).hit
    assert er.touch_attack(target, bonus, ScriptedDice([9]), ac_kind="kac").ac.total == 15  # type: ignore[union-attr]
    friendly = er.touch_attack(target, bonus, ScriptedDice([]), willing=True)
    assert friendly.hit and friendly.check is None
    asleep = er.touch_attack(with_conditions(target, "unconscious"), bonus, ScriptedDice([]))
    assert asleep.hit and asleep.check is None
    crit = er.touch_attack(target, bonus, ScriptedDice([20]), damaging=True)
    assert crit.critical and crit.damage_multiplier == 2
    assert er.touch_attack(target, bonus, ScriptedDice([20])).damage_multiplier == 1  # nothing to double


@pytest.mark.rule("EFF-50")
def test_effects_with_attack_rolls_crit_and_last_on_a_hit() -> None:
    bonus, ac = constant("ray attack", 6), constant("EAC", 16)
    duration = er.parse_duration("1 round/level")
    hit = er.effect_attack(bonus, ac, ScriptedDice([10]), duration=duration, start=Moment(2, 12), level=3)
    assert hit.hit and not hit.critical and hit.lasts == EffectEnd("count", 5, 12)
    miss = er.effect_attack(bonus, ac, ScriptedDice([9]), duration=duration, start=Moment(2, 12), level=3)
    assert not miss.hit and miss.lasts is None
    crit = er.effect_attack(bonus, ac, ScriptedDice([20]))
    assert crit.critical and crit.damage_multiplier == 2
    immune = er.effect_attack(bonus, ac, ScriptedDice([20]), crit_immune=True)
    assert immune.critical and immune.damage_multiplier == 1
    low = er.effect_attack(constant("weak", 0), constant("EAC", 25), ScriptedDice([20]))
    assert low.hit and not low.critical  # natural 20 hits, but the total is below the AC
    with pytest.raises(RuleViolation):
        er.effect_attack(bonus, ac, ScriptedDice([10]), duration=duration, level=3)


# =========================================================================================== vehicles
@pytest.mark.rule("EFF-51")
def test_large_vehicles_act_as_terrain() -> None:
    assert er.vehicle_acts_as_terrain(size="colossal")
    assert not er.vehicle_acts_as_terrain(size="gargantuan")
    assert er.vehicle_acts_as_terrain(kind="Starship", size="tiny")
    assert not er.vehicle_acts_as_terrain(size="colossal", gm_ruling=False)
    assert er.vehicle_acts_as_terrain(size="large", gm_ruling=True)
    with pytest.raises(RuleViolation):
        er.vehicle_acts_as_terrain(size="titanic")
    assert not er.counts_as_object(component=False, terrain=True)
    assert er.counts_as_object(component=True, terrain=True)
    assert er.counts_as_object(component=False, terrain=False)
    assert er.moves_with_vehicle(VehicleEffect.STATIONARY, terrain=True) == "moves"
    assert er.moves_with_vehicle(VehicleEffect.ANCHORED, terrain=True) == "moves"
    assert er.moves_with_vehicle(VehicleEffect.AREA_ON_BOARD, terrain=True) == "moves"
    assert er.moves_with_vehicle(VehicleEffect.OTHER, terrain=True) == "gm"
    assert er.moves_with_vehicle(VehicleEffect.STATIONARY, terrain=False) == "fixed"
    assert er.moves_with_vehicle(VehicleEffect.ON_SUBJECT, terrain=False) == "with subject"


# =========================================================================================== properties
@pytest.mark.rule("EFF-41", "EFF-42", "EFF-43", "EFF-27", "CON-00")
@given(
    level=st.integers(0, 200),
    rounds=st.integers(1, 50),
    start=st.tuples(st.integers(1, 20), st.integers(0, 40)),
    until=st.none() | st.tuples(st.integers(1, 80), st.integers(0, 40)),
    probe=st.tuples(st.integers(1, 80), st.integers(0, 40)),
)
def test_ranges_grow_and_suppression_never_extends_an_end(
    level: int, rounds: int, start: tuple[int, int], until: tuple[int, int] | None, probe: tuple[int, int]
) -> None:
    assert er.close_range_ft(level) < er.medium_range_ft(level) < er.long_range_ft(level)
    running = RunningEffect("x", er.end_of(Duration.timed(rounds), Moment(*start)))
    held = er.suppress(running, until=None if until is None else Moment(*until))
    at = Moment(*probe)
    assert held.end == running.end
    assert (er.effect_status(held, at) == "ended") == (er.effect_status(running, at) == "ended")
    assert held.end.kind == "count" and held.end.round == start[0] + rounds


@pytest.mark.rule("EFF-27", "EFF-31", "EFF-45")
def test_duration_kinds_are_validated() -> None:
    with pytest.raises(RuleViolation):
        Duration(DurationKind.PERMANENT, amount=3)
    with pytest.raises(RuleViolation):
        Duration(DurationKind.TIMED, linger_rounds=2, amount=1)
    with pytest.raises(RuleViolation):
        EffectRange(RangeKind.FEET)
