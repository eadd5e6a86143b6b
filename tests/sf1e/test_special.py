"""Special abilities with exact numbers: Ex/Sp/Su, daily uses, incorporeal, invisible, spell resistance
(SPA-01..05, SPA-13..23)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sftactics.core.breakdown import BonusType
from sftactics.core.check import CheckKind
from sftactics.core.errors import RuleViolation, SftError
from sftactics.dice.source import ScriptedDice
from sftactics.grid.cover import CoverKind
from sftactics.grid.map import Light
from sftactics.sf1e import damage, maneuvers
from sftactics.sf1e import senses as sn
from sftactics.sf1e import special as sp
from sftactics.sf1e.senses import Awareness as A
from sftactics.sf1e.special import AbilityKind as K
from sftactics.sf1e.special import DailyUses
from sftactics.sf1e.state import ConditionInstance
from tests.builders import npc, pc, with_conditions

H = 60  # minutes per hour


# ------------------------------------------------------------------------------------------- SPA-01..04
@pytest.mark.rule("SPA-01", "SPA-02", "SPA-03")
def test_what_each_kind_is_subject_to() -> None:
    rows = {
        k: (r.magical, r.spell_resistance, r.dispel, r.disrupted, r.works_where_magic_suppressed, r.provokes)
        for k, r in sp.KIND_RULES.items()
    }
    assert rows[K.EX] == (False, False, False, False, True, False)
    assert rows[K.SP] == (True, True, True, True, False, True)
    assert rows[K.SU] == (True, False, False, False, False, False)
    assert [sp.kind_rules(k).default_action for k in (K.EX, K.SP, K.SU)] == ["standard"] * 3
    assert not sp.kind_rules("Sp").pays_costs and sp.kind_rules("spell").pays_costs
    assert [sp.kind_rules(k).rule for k in (K.EX, K.SP, K.SU)] == ["SPA-01", "SPA-02", "SPA-03"]


@pytest.mark.rule("SPA-04")
def test_untyped_abilities_are_extraordinary() -> None:
    assert sp.ability_kind(None) is K.EX
    assert sp.ability_kind("") is K.EX and sp.ability_kind("()") is K.EX
    assert sp.ability_kind("(Su)") is K.SU and sp.ability_kind("Spell-Like") is K.SP
    assert sp.ability_kind("extraordinary") is K.EX and sp.ability_kind(K.SP) is K.SP
    with pytest.raises(SftError, match="unknown kind"):
        sp.ability_kind("psionic")


@pytest.mark.rule("SPA-02")
def test_spell_like_abilities_provoke_unless_their_text_says_otherwise() -> None:
    assert sp.provokes("Sp") and sp.provokes(K.SPELL)
    assert not sp.provokes("Sp", text_says=False)
    assert not sp.provokes("Ex") and not sp.provokes("Su") and not sp.provokes(None)


@pytest.mark.rule("SPA-01", "SPA-02", "SPA-03")
def test_ability_dcs_reuse_the_save_formulas() -> None:
    # Ex/Su: 10 + half of 7 (3) + 4 = 17; Sp: 10 + spell level 2 + Cha 3 = 15
    ex = sp.ability_dc("Ex", level=7, ability_mod=4)
    assert ex.total == 17 and ex.applied[0].rule == "SV-05"
    assert sp.ability_dc("Su", level=7, ability_mod=4).total == 17
    sla = sp.ability_dc("Sp", level=7, ability_mod=3, spell_level=2)
    assert sla.total == 15 and sla.applied[0].rule == "SV-06"
    with pytest.raises(RuleViolation) as e:
        sp.ability_dc("Sp", level=7, ability_mod=3)
    assert e.value.rule == "SPA-02"


@pytest.mark.rule("SPA-02")
def test_spell_like_caster_level_is_level_or_cr() -> None:
    assert sp.spell_like_caster_level(pc().stat) == 4
    assert sp.spell_like_caster_level(npc().stat) == 2
    assert sp.spell_like_caster_level(npc(cr="1/3").stat) == 1
    assert sp.spell_like_caster_level(npc().stat, printed=6) == 6


@pytest.mark.rule("SPA-23", "SPA-01", "SPA-02", "SPA-03")
def test_works_where_magic_is_suppressed() -> None:
    assert [sp.works_where(k, True) for k in ("Ex", "Sp", "Su", "spell", None)] == [True, False, False, False, True]
    assert all(sp.works_where(k, False) for k in K)


# ------------------------------------------------------------------------------------------- SPA-05
@pytest.mark.rule("SPA-05")
def test_uses_run_out() -> None:
    d = DailyUses(3).use().use(2)
    assert d.left == 0
    with pytest.raises(RuleViolation) as e:
        d.use()
    assert e.value.rule == "SPA-05"
    with pytest.raises(SftError):
        DailyUses(2, used=3)
    with pytest.raises(SftError):
        DailyUses(2).use(0)


@pytest.mark.rule("SPA-05")
def test_regain_after_24_hours_and_8_hours_of_rest() -> None:
    d = DailyUses(3).use(3).activity(14 * H).rest(8 * H)  # 22 h
    assert d.rest_done and d.why_not() is not None and "24 h needed" in (d.why_not() or "")
    with pytest.raises(RuleViolation, match="not regained yet"):
        d.regain()
    d = d.activity(2 * H - 1)
    assert not d.can_regain
    d = d.activity(1)
    assert d.now == 24 * H and d.can_regain
    back = d.regain()
    assert back.left == 3 and back.last_regained == 24 * H and not back.rest_done
    # the next day needs a new rest
    assert not back.activity(24 * H).can_regain


@pytest.mark.rule("SPA-05")
def test_each_interruption_adds_an_hour() -> None:
    d = DailyUses(1).use().activity(16 * H).rest(4 * H).interrupt(10).rest(4 * H)
    assert d.interruptions == 1 and d.rest_needed == 9 * H and d.rested == 8 * H and not d.rest_done
    assert "480 of 540" in (d.why_not() or "")
    d = d.interrupt().rest(H)
    assert d.rest_needed == 10 * H and not d.rest_done
    d = d.rest(H)
    assert d.rest_done and d.now >= 24 * H and d.can_regain


@pytest.mark.rule("SPA-05")
def test_other_activity_abandons_an_unfinished_rest() -> None:
    d = DailyUses(1).use().activity(10 * H).rest(5 * H).activity(H).rest(5 * H)
    assert d.rested == 5 * H and not d.rest_done
    finished = DailyUses(1).rest(8 * H).activity(16 * H)
    assert finished.rest_done and finished.can_regain  # a finished rest is kept
    # an interruption outside any rest is just activity
    assert DailyUses(1).interrupt(30).interruptions == 0
    with pytest.raises(SftError):
        DailyUses(1).rest(-1)


@pytest.mark.rule("SPA-05")
def test_spell_slots_need_15_minutes_of_concentration_after_the_rest() -> None:
    d = DailyUses(4, spell_slots=True).use(4).activity(16 * H).rest(8 * H)
    assert "15 minutes of concentration" in (d.why_not() or "")
    early = DailyUses(4, spell_slots=True).concentrate().rest(8 * H).activity(16 * H)
    assert early.concentrated == 0 and not early.can_regain  # concentration before the rest counts for nothing
    d = d.concentrate(14)
    assert not d.can_regain
    d = d.concentrate(1)
    assert d.concentrated == 15 and d.now == 24 * H + 15 and d.regain().left == 4
    # abilities (not slots) need no concentration
    assert DailyUses(1).use().activity(16 * H).rest(8 * H).can_regain


@pytest.mark.rule("SPA-05")
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["rest", "interrupt", "activity", "concentrate"]), st.integers(0, 600))))
def test_uses_never_come_back_sooner_than_24_hours_or_without_8_hours_of_rest(
    steps: list[tuple[str, int]],
) -> None:
    d = DailyUses(2, spell_slots=True).use(2)
    for name, minutes in steps:
        d = getattr(d, name)(minutes)
    if d.can_regain:
        assert d.now - d.last_regained >= 24 * H and d.rest_done and d.concentrated >= 15
        assert sum(m for n, m in steps if n == "rest") >= 8 * H


# ------------------------------------------------------------------------------------------- SPA-13
@pytest.mark.rule("SPA-13")
def test_no_physical_handling_by_or_of_incorporeal_creatures() -> None:
    ghost = npc(incorporeal=True)
    with pytest.raises(RuleViolation) as e:
        sp.check_physical_interaction(ghost, pc(), "a disarm")
    assert e.value.rule == "SPA-13" and "cannot take a disarm" in str(e.value)
    with pytest.raises(RuleViolation, match="be subject to"):
        sp.check_physical_interaction(pc(), ghost)
    sp.check_physical_interaction(pc(), npc())  # corporeal: fine
    # the maneuver rules refuse the same, before any die
    dice = ScriptedDice([20])
    with pytest.raises(RuleViolation) as e2:
        maneuvers.attempt("trip", pc(), ghost, "baton", dice)
    assert e2.value.rule == "SPA-13" and dice.remaining == 1


@pytest.mark.rule("SPA-13")
def test_incorporeal_attacks_target_eac_in_the_damage_rules() -> None:
    assert damage.weapon_targets_ac(frozenset({"S"}), incorporeal_attacker=True)[0] == "eac"
    assert damage.weapon_targets_ac(frozenset({"S"}))[0] == "kac"


# ------------------------------------------------------------------------------------------- SPA-14
@pytest.mark.rule("SPA-14")
def test_staying_adjacent_to_the_outside_of_an_object() -> None:
    block = {(x, y) for x in range(3) for y in range(3)}  # a 15-ft cube
    assert sp.may_occupy_inside([(0, 0)], block)
    assert sp.may_occupy_inside([(1, 0)], block)
    assert not sp.may_occupy_inside([(1, 1)], block)  # its centre
    assert sp.may_occupy_inside([(5, 5)], block)  # not inside at all
    big = {(x, y) for x in range(4) for y in range(4)}
    assert not sp.may_occupy_inside([(1, 1), (2, 1), (1, 2), (2, 2)], big)  # a Large creature in the middle
    assert sp.may_occupy_inside([(0, 1), (1, 1), (0, 2), (1, 2)], big)
    assert sp.may_occupy_inside([(3, 1), (4, 1), (3, 2), (4, 2)], big)  # half outside


@pytest.mark.rule("SPA-14")
def test_crossing_walls() -> None:
    assert [sp.can_pass_through(t, 5) for t in (5, 10, 15)] == [True, True, False]
    assert [sp.can_pass_through(t, 10) for t in (15, 20)] == [True, False]
    assert sp.can_pass_through(10, 2.5) and not sp.can_pass_through(15, 2.5)
    assert [sp.can_pass_through(t, 5, strict=True) for t in (5, 10)] == [True, False]
    assert not sp.can_pass_through(0.1, 5, force_effect=True)


@pytest.mark.rule("SPA-14", "SPA-16")
def test_incorporeal_movement_facts() -> None:
    m = sp.INCORPOREAL_MOVEMENT
    assert not m.falls and not m.falling_damage and m.weight == 0 and not m.triggers_weight_traps
    assert m.media_as_air == ("vacuum", "water", "zero gravity") and not m.passes_force_effects
    assert m.full_speed_when_unable_to_see and m.silent
    assert sp.moves_blind_at_full_speed(npc(incorporeal=True)) and not sp.moves_blind_at_full_speed(npc())


# ------------------------------------------------------------------------------------------- SPA-15
@pytest.mark.rule("SPA-15")
def test_inside_an_object() -> None:
    hidden = sp.inside_object()
    assert hidden.cover is CoverKind.TOTAL and hidden.ac_terms == () and hidden.reflex_terms == ()
    assert hidden.miss_chance == 50 and hidden.senses_range_ft == 5
    out = sp.inside_object(attacking_out=True)
    assert out.cover is CoverKind.COVER
    assert [(t.value, t.rule) for t in out.ac_terms] == [(4, "MOD-08")]
    assert [(t.value, t.rule) for t in out.reflex_terms] == [(2, "MOD-08")]
    assert "only cover" in out.lines[0]


@pytest.mark.rule("SPA-15")
def test_inside_an_object_it_senses_only_adjacent_creatures_and_is_out_of_sight() -> None:
    ghost, tess = npc(incorporeal=True), pc()
    near = sn.observe_creature(ghost, tess, distance_ft=5, observer_inside_object=True)
    far = sn.observe_creature(ghost, tess, distance_ft=10, observer_inside_object=True)
    assert near.awareness is A.AWARE_OF_LOCATION and far.ceiling is A.UNAWARE
    assert sn.can_target(near.awareness).miss_chance == sp.inside_object().miss_chance
    assert sn.observe_creature(tess, ghost, distance_ft=5, inside_object=True).ceiling is A.UNAWARE


# ------------------------------------------------------------------------------------------- SPA-16
@pytest.mark.rule("SPA-16")
def test_incorporeal_creatures_are_missed_by_scent_sound_and_touch() -> None:
    assert [sp.perceivable_by(m) for m in ("scent", "sound", "touch", "vibration")] == [False] * 4
    assert [sp.perceivable_by(m) for m in ("vision", "thought", "emotion", "life")] == [True] * 4
    assert sp.perceivable_by("sound", audible=True)
    hound = pc(senses={"blindsense (scent)": 30})
    ghost = npc(incorporeal=True)
    o = sn.observe_creature(hound, ghost, distance_ft=10, light=Light.DARK)
    assert o.ceiling is A.UNAWARE
    with pytest.raises(RuleViolation, match="no sense"):
        sn.perception_vs_stealth(hound, ghost, ScriptedDice([1, 20]), observation=o)


# ------------------------------------------------------------------------------------------- SPA-17
@pytest.mark.rule("SPA-17")
def test_invisible_creatures_are_unseen_to_vision() -> None:
    shade = with_conditions(npc(), "invisible")
    assert sp.is_invisible(shade) and not sp.is_invisible(npc())
    o = sn.observe_creature(pc(), shade, distance_ft=10)
    assert (o.awareness, o.on_notice, o.ceiling) == (A.UNAWARE, A.AWARE_OF_PRESENCE, A.AWARE_OF_LOCATION)
    assert o.rule == "SPA-17"
    # even in fog and underwater it stays invisible; blindsight observes it normally
    bat = pc(senses={"blindsight (sound)": 30})
    assert sn.observe_creature(bat, shade, distance_ft=10, line_of_sight=False).awareness is A.OBSERVING
    assert sn.observe_creature(pc(senses={"darkvision": 60}), shade, distance_ft=10).awareness is A.UNAWARE


@pytest.mark.rule("SPA-17")
def test_a_perception_success_gives_only_presence() -> None:
    shade = with_conditions(npc(), "invisible")
    r = sn.perception_vs_dc(pc(skills={"perception": 5}), 15, ScriptedDice([10]), target=shade)
    assert r.check.total == 15 and r.check.success and r.after is A.AWARE_OF_PRESENCE


# ------------------------------------------------------------------------------------------- SPA-18
@pytest.mark.rule("SPA-18")
def test_items_of_an_invisible_creature() -> None:
    assert not sp.item_visible("worn") and not sp.item_visible("tucked")
    assert sp.item_visible("dropped") and sp.item_visible("picked_up")
    assert not sp.item_visible("worn", extends_ft=10) and sp.item_visible("worn", extends_ft=10.5)
    assert sp.item_visible("tucked", extends_ft=15)


@pytest.mark.rule("SPA-18", "VIS-08")
def test_light_is_never_invisible() -> None:
    assert sp.light_visible(source_invisible=True) and sp.light_visible()
    assert sn.light_level_at((1, 0), Light.DARK, [sn.LightSource((0, 0), 10, invisible=True)]) is Light.NORMAL


# ------------------------------------------------------------------------------------------- SPA-19
@pytest.mark.rule("SPA-19")
def test_invisible_while_grappled_escapes_with_plus_2() -> None:
    held = pc(skills={"acrobatics": 5}).with_state(conditions=(ConditionInstance(name="grappled", source="Ksarik"),))
    # Acrobatics 5 + d20 8 = 13 fails DC 15; invisible: +2 circumstance makes 15
    assert not maneuvers.escape(held, 15, ScriptedDice([8])).escaped
    unseen = with_conditions(held, "invisible")
    r = maneuvers.escape(unseen, 15, ScriptedDice([8]))
    assert r.escaped and r.check.total == 15
    assert any(t.value == 2 and t.type is BonusType.CIRCUMSTANCE for t in r.check.bonus.applied)
    # no other benefit: it cannot hide from its grappler
    assert not sp.may_hide_from(unseen, "Ksarik") and sp.may_hide_from(unseen, "Tess")
    assert sp.may_hide_from(with_conditions(pc(), "invisible"), "Ksarik")


@pytest.mark.rule("SPA-19", "SEN-12", "VIS-05")
def test_gaze_and_divination() -> None:
    assert not sp.can_use_gaze(with_conditions(npc(), "invisible")) and sp.can_use_gaze(npc())
    assert not sp.subject_to_gaze(sn.parse_senses({"blindsight (vibration)": 30}))
    assert sp.subject_to_gaze(sn.parse_senses({"darkvision": 60}))
    assert not sp.thwarts_divination(with_conditions(npc(), "invisible"))


# ------------------------------------------------------------------------------------------- SPA-20
@pytest.mark.rule("SPA-20")
def test_the_caster_level_check() -> None:
    # CL 5 vs SR 16: d20 11 -> 16 meets it; 10 -> 15 fails
    ok = sp.sr_check(5, 16, ScriptedDice([11]))
    assert ok.kind is CheckKind.CASTER_LEVEL and ok.total == 16 and ok.dc == 16 and ok.success
    assert not sp.sr_check(5, 16, ScriptedDice([10])).success
    # no automatic success on a natural 20, nor failure on a natural 1
    assert not sp.sr_check(1, 25, ScriptedDice([20])).success
    assert sp.sr_check(20, 15, ScriptedDice([1])).success
    assert ok.bonus.applied[0].rule == "SPA-20"


@pytest.mark.rule("SPA-20", "SPA-03", "SPA-22")
def test_when_sr_gets_a_check() -> None:
    assert sp.sr_applies(16).applies
    assert sp.sr_applies(16, "Sp").applies
    assert not sp.sr_applies(0).applies
    su = sp.sr_applies(16, "Su")
    assert not su.applies and su.rule == "SPA-03"
    assert not sp.sr_applies(16, "Ex").applies
    assert not sp.sr_applies(16, own_effect=True).applies
    assert sp.sr_applies(16, ignores_sr=True).rule == "SPA-22"
    assert sp.sr_applies(16, lowered=True).rule == "SPA-21"


# ------------------------------------------------------------------------------------------- SPA-21
@pytest.mark.rule("SPA-21")
def test_lowering_sr() -> None:
    lich = npc(sr=16)
    low = sp.lower_sr(lich)
    assert (low.action, low.expires, low.expires_anchor, low.keep) == ("standard", "turn_start", "Ksarik", False)
    assert "returns at the start" in low.lines[1]
    assert sp.lower_sr(lich, keep=True).keep
    with pytest.raises(RuleViolation) as e:
        sp.lower_sr(npc())
    assert e.value.rule == "SPA-21"


# ------------------------------------------------------------------------------------------- SPA-22
@pytest.mark.rule("SPA-22", "SPA-20")
def test_one_check_per_casting_per_creature() -> None:
    ledger = sp.SrLedger()
    # CL 5 + d20 10 = 15 < SR 16: resisted
    ledger, first = ledger.expose("fireball#1", "Ksarik", 16, 5, ScriptedDice([10]))
    assert first.resisted and not first.affected and first.check is not None and first.check.total == 15
    # entering the same area again: the same result, no die
    ledger, again = ledger.expose("fireball#1", "Ksarik", 16, 5, ScriptedDice([]))
    assert again.reused and again.resisted and again.rule == "SPA-22"
    # another casting checks again; another creature is checked separately
    ledger, other = ledger.expose("fireball#2", "Ksarik", 16, 5, ScriptedDice([11]))
    assert other.affected and not other.reused
    ledger, second = ledger.expose("fireball#1", "Zo", 12, 5, ScriptedDice([7]))
    assert second.affected and len(ledger.records) == 3
    # a failure also holds
    ledger, same = ledger.expose("fireball#2", "Ksarik", 16, 5, ScriptedDice([]))
    assert same.affected and same.reused


@pytest.mark.rule("SPA-22")
def test_a_single_target_spell_is_stopped_an_area_only_for_the_resister() -> None:
    _, hold = sp.SrLedger().expose("hold#1", "Ksarik", 16, 5, ScriptedDice([20]), single_target=True)
    assert hold.affected and not hold.stops_spell
    _, stopped = sp.SrLedger().expose("hold#1", "Ksarik", 16, 5, ScriptedDice([1]), single_target=True)
    assert stopped.resisted and stopped.stops_spell
    _, area = sp.SrLedger().expose("fireball#1", "Ksarik", 16, 5, ScriptedDice([1]))
    assert area.resisted and not area.stops_spell


@pytest.mark.rule("SPA-22", "SPA-21")
def test_lowered_sr_checks_once_when_it_returns() -> None:
    ledger, ex = sp.SrLedger().expose("web#1", "Ksarik", 16, 5, ScriptedDice([]), lowered=True)
    assert ex.affected and not ex.resisted and ledger.get("web#1", "Ksarik") is not None
    rec = ledger.get("web#1", "Ksarik")
    assert rec is not None and rec.resisted is None
    ledger, again = ledger.expose("web#1", "Ksarik", 16, 9, ScriptedDice([]), lowered=True)
    assert again.affected
    ledger, resumed = ledger.resume("Ksarik", 16, ScriptedDice([10]))
    (r,) = resumed
    assert r.resisted and r.check is not None and r.check.total == 15  # caster level 5 from the first exposure
    ledger, later = ledger.expose("web#1", "Ksarik", 16, 5, ScriptedDice([]))
    assert later.reused and later.resisted
    assert ledger.resume("Ksarik", 16, ScriptedDice([]))[1] == ()


@pytest.mark.rule("SPA-20", "SPA-03")
def test_no_check_against_su_or_own_effects() -> None:
    dice = ScriptedDice([])
    ledger, su = sp.SrLedger().expose("breath", "Ksarik", 16, 5, dice, kind="Su")
    assert su.affected and su.check is None and ledger.records == ()
    _, own = sp.SrLedger().expose("aura", "Ksarik", 16, 5, dice, own_effect=True)
    assert own.affected and "own effects" in own.lines[0]
