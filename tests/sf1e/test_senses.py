"""Senses, awareness and light with exact numbers (SEN-01..15, VIS-01..08, MOD-05, MOD-06, MOD-20, EX-19).

Observers are Tess (tests/builders.py, a PC with ordinary senses) given printed Perception totals; targets are
Ksarik given a printed Stealth total. Dice: the Stealth d20 first, then the Perception d20, then roll-offs.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sftactics.core.breakdown import Term, explain
from sftactics.core.check import CheckKind
from sftactics.core.errors import RuleViolation, SftError
from sftactics.dice.source import ScriptedDice
from sftactics.grid.concealment import ConcealmentKind, light_concealment
from sftactics.grid.geometry import Footprint
from sftactics.grid.map import GridMap, Light
from sftactics.sf1e import senses as s
from sftactics.sf1e.attack import Situation, target_ac
from sftactics.sf1e.senses import Awareness as A
from sftactics.sf1e.senses import Barrier, LightSource, Mechanism, Senses, TargetTraits
from tests.builders import npc, pc, with_conditions

ORDINARY = Senses()
VISIBLE = TargetTraits()
INVISIBLE = TargetTraits(invisible=True)


def look(senses: Senses = ORDINARY, target: TargetTraits = VISIBLE, **over: Any) -> s.Observation:
    """observe() with everything clear unless told: 30 ft, normal light, both lines open, no conditions."""
    kw: dict[str, Any] = {
        "conditions": (),
        "distance_ft": 30,
        "light": Light.NORMAL,
        "line_of_sight": True,
        "line_of_effect": True,
    }
    kw.update(over)
    return s.observe(
        senses, kw.pop("conditions"), target, kw.pop("distance_ft"), kw.pop("light"), kw.pop("line_of_sight"),
        kw.pop("line_of_effect"), **kw,
    )  # fmt: skip


def sensed(**table: int) -> Senses:
    return s.parse_senses(table)


def watcher(**over: Any) -> Any:
    return pc(skills={"perception": 7}, **over)


def sneak(**over: Any) -> Any:
    return npc(skills={"stealth": 9}, **over)


# ------------------------------------------------------------------------------------------- SEN-01, SEN-02
@pytest.mark.rule("SEN-01")
def test_precise_and_imprecise_senses() -> None:
    sn = sensed(**{"blindsight (vibration)": 30, "blindsense (scent)": 60})
    chans = {c.name: c for c in s.channels(sn)}
    assert chans["vision"].precise and not chans["vision"].keen
    assert chans["blindsight (vibration)"].precise and chans["blindsight (vibration)"].keen
    assert not chans["blindsense (scent)"].precise and chans["blindsense (scent)"].keen
    assert not chans["hearing"].precise and not chans["hearing"].keen
    assert chans["touch"].range_ft == 5
    assert sn.blindsight[0].precise and not sn.blindsense[0].precise
    # sense through is as precise as the sense it extends
    st_ = sensed(**{"sense through (vision)": 30, "sense through (scent)": 30}).sense_through
    assert [x.precise for x in st_] == [True, False]


@pytest.mark.rule("SEN-01", "SEN-02", "SEN-13", "SEN-14")
def test_parse_senses_reads_every_documented_key() -> None:
    sn = s.parse_senses(
        {
            "Darkvision": 60,
            "low_light vision": 0,
            "blindsight (vibration)": 30,
            "blindsense (scent, sound)": 20,
            "sense through (vision [smoke only])": 40,
            "sense through (scent [blocked by silver and lead])": 15,
            "telepathy": 0,
            "limited telepathy": 30,
            "echolocation": 10,
        }
    )
    assert sn.darkvision_ft == 60 and sn.low_light_vision and sn.vision
    assert [(x.mechanism, x.range_ft) for x in sn.blindsight] == [(Mechanism.VIBRATION, 30)]
    assert [x.mechanism for x in sn.blindsense] == [Mechanism.SCENT, Mechanism.SOUND]
    assert sn.sense_through[0].only == frozenset({"smoke"}) and sn.sense_through[0].range_ft == 40
    assert sn.sense_through[1].blocked_by == frozenset({"silver", "lead"})
    assert sn.telepathy_ft == 100 and sn.limited_telepathy_ft == 30
    assert sn.unrecognized == ("echolocation",)
    with pytest.raises(SftError, match="unknown sense"):
        s.parse_senses({"echolocation": 10}, strict=True)
    with pytest.raises(SftError, match="negative"):
        s.parse_senses({"darkvision": -5})
    with pytest.raises(SftError, match=r"\[X only\]"):
        s.parse_senses({"sense through (vision [sideways])": 5})
    assert not s.parse_senses({"blind": 0}).vision
    assert s.parse_senses({"see in darkness": 0}).darkvision_reaches(10_000)
    assert s.parse_senses({"blindsight": 30}).blindsight[0].mechanism is Mechanism.UNSPECIFIED
    assert s.parse_senses({"blindsense (electroreception)": 30}).blindsense[0].mechanism is Mechanism.OTHER


@pytest.mark.rule("SEN-01")
def test_parse_senses_reads_bundled_stat_blocks() -> None:
    sn = s.parse_senses(npc(senses={"blindsense": 30, "low-light vision": 0}).stat)
    assert sn.blindsense[0].range_ft == 30 and sn.low_light_vision and sn.darkvision_ft == 0
    assert s.describe_senses(sn) == "low-light vision, blindsense 30 ft"
    assert s.describe_senses(ORDINARY) == "ordinary senses"


@pytest.mark.rule("SEN-02", "SEN-15")
def test_losing_the_mechanism_loses_the_sense() -> None:
    sn = sensed(**{"blindsense (sound)": 30, "blindsight (scent)": 10})
    target = TargetTraits(hiding=False)
    heard = look(sn, target, light=Light.DARK)
    assert heard.awareness is A.AWARE_OF_LOCATION
    deaf = look(sn, target, light=Light.DARK, conditions=("deafened",))
    assert deaf.awareness is A.UNAWARE and "blindsense (sound): sound unusable" in deaf.notes
    # blindsight (scent) at 10 ft is untouched by deafness
    close = look(sn, target, light=Light.DARK, conditions=("deafened",), distance_ft=10)
    assert close.awareness is A.OBSERVING
    assert s.lost_mechanisms(("blinded", "deafened")) == {Mechanism.VISION, Mechanism.SOUND}


# ------------------------------------------------------------------------------------------- SEN-03..07
@pytest.mark.rule("SEN-03")
def test_the_four_states_are_ordered() -> None:
    assert A.UNAWARE < A.AWARE_OF_PRESENCE < A.AWARE_OF_LOCATION < A.OBSERVING
    assert [x.unseen for x in A] == [True, True, True, False]
    assert A.AWARE_OF_LOCATION.text == "aware of location"
    assert s.AWARENESS_RULE[A.UNAWARE] == "SEN-04"


@pytest.mark.rule("SEN-04", "SEN-05", "SEN-06", "SEN-07", "MOD-05")
def test_can_target_per_state() -> None:
    rows = {a: s.can_target(a) for a in A}
    assert [(t.attack, t.miss_chance, t.wrong_square_misses, t.targeted_effects) for t in rows.values()] == [
        ("none", 0, False, False),
        ("guess", 50, True, False),
        ("square", 50, False, False),
        ("normal", 0, False, True),
    ]
    assert all(t.area_effects for t in rows.values())
    assert [t.rule for t in rows.values()] == ["SEN-04", "MOD-05", "SEN-06", "SEN-07"]


@pytest.mark.rule("MOD-05", "SEN-05", "SEN-04")
def test_attacking_a_guessed_square() -> None:
    wrong = s.attack_awareness(A.AWARE_OF_PRESENCE, A.OBSERVING, right_square=False)
    assert wrong.automatic_miss and wrong.miss_chance == 0 and wrong.rule == "MOD-05"
    right = s.attack_awareness(A.AWARE_OF_PRESENCE, A.OBSERVING, right_square=True)
    assert not right.automatic_miss and right.miss_chance == 50
    with pytest.raises(RuleViolation, match="name the square") as e:
        s.attack_awareness(A.AWARE_OF_PRESENCE, A.OBSERVING)
    assert e.value.rule == "SEN-05"
    with pytest.raises(RuleViolation) as e2:
        s.attack_awareness(A.UNAWARE, A.OBSERVING, right_square=True)
    assert e2.value.rule == "SEN-04"
    assert s.attack_awareness(A.AWARE_OF_LOCATION, A.OBSERVING).miss_chance == 50
    seen = s.attack_awareness(A.OBSERVING, A.OBSERVING)
    assert seen.miss_chance == 0 and seen.ac_terms == () and not seen.automatic_miss


@pytest.mark.rule("SEN-07", "VIS-01", "VIS-02")
def test_vision_in_bright_or_normal_light_observes() -> None:
    for level in (Light.BRIGHT, Light.NORMAL):
        o = look(light=level)
        assert (o.awareness, o.on_notice, o.ceiling) == (A.OBSERVING,) * 3
        assert o.precise and o.rule == "SEN-07"
        assert s.vision_concealment(level, ORDINARY) == 0


@pytest.mark.rule("SEN-05", "SEN-04")
def test_ordinary_hearing_needs_checks_notice_then_pinpoint() -> None:
    # no line of sight (a thick fog), line of effect open: only hearing, smell (and touch in reach)
    o = look(line_of_sight=False)
    assert (o.awareness, o.on_notice, o.ceiling) == (A.UNAWARE, A.AWARE_OF_PRESENCE, A.AWARE_OF_LOCATION)
    assert [c.name for c in o.perceiving] == ["hearing", "smell"]
    assert o.after_success(A.UNAWARE) is A.AWARE_OF_PRESENCE
    assert o.after_success(A.AWARE_OF_PRESENCE) is A.AWARE_OF_LOCATION
    assert o.after_success(A.OBSERVING) is A.OBSERVING  # never lower
    # nothing reaches at all without line of effect
    assert look(line_of_sight=False, line_of_effect=False).ceiling is A.UNAWARE


@pytest.mark.rule("SEN-03", "SEN-08")
def test_settle_keeps_what_checks_found_within_what_senses_allow() -> None:
    fog = look(line_of_sight=False)
    assert fog.settle(A.OBSERVING) is A.AWARE_OF_LOCATION  # it stepped into fog: where it was is known
    assert fog.settle(A.AWARE_OF_PRESENCE) is A.AWARE_OF_PRESENCE
    assert look().settle(A.UNAWARE) is A.OBSERVING  # in plain view
    hidden = look(target=TargetTraits(hiding=True))
    assert hidden.awareness is A.UNAWARE and hidden.settle(A.AWARE_OF_PRESENCE) is A.AWARE_OF_PRESENCE


# ------------------------------------------------------------------------------------------- SEN-08
@pytest.mark.rule("SEN-08")
def test_breaking_observation() -> None:
    seen = look()
    assert not s.break_observation(seen).broken
    assert s.break_observation(seen, distraction=True).means == "a distraction (Bluff)"
    assert s.break_observation(look(target=INVISIBLE)).broken  # invisibility masks it
    assert s.break_observation(look(light=Light.DARK)).broken  # darkness masks it
    assert s.break_observation(look(line_of_sight=False)).broken  # fog masks it
    assert s.break_observation(seen, concealment=20).broken
    displaced = s.break_observation(seen, concealment=20, everywhere=True)
    assert not displaced.broken and "displacement" in displaced.means


@pytest.mark.rule("SEN-08", "MOD-06", "SEN-12")
def test_blindsight_sees_through_concealment_but_not_cover() -> None:
    o = look(sensed(**{"blindsight (vibration)": 30}), light=Light.DARK, line_of_sight=False)
    assert o.awareness is A.OBSERVING and o.by_blindsight
    assert not s.break_observation(o, concealment=50).broken
    assert s.break_observation(o, cover="cover").broken


@pytest.mark.rule("SEN-08")
def test_cover_but_not_soft_cover_breaks_observation() -> None:
    seen = look()
    assert [s.break_observation(seen, cover=c).broken for c in ("soft", "partial", "cover", "improved")] == [
        False, True, True, True,
    ]  # fmt: skip
    assert s.break_observation(seen, cover="cover").rule == "MOD-16"
    assert s.break_observation(seen, cover="soft").rule == "MOD-11"


@pytest.mark.rule("SEN-08", "CF-07")
def test_an_observed_creature_cannot_use_stealth() -> None:
    with pytest.raises(RuleViolation) as e:
        s.perception_vs_stealth(watcher(), sneak(), ScriptedDice([10, 10]), before=A.OBSERVING)
    assert e.value.rule == "SEN-08"
    # after breaking observation it hides: the observer keeps only its presence
    r = s.perception_vs_stealth(watcher(), sneak(), ScriptedDice([10, 5]), before=A.OBSERVING, broke_observation=True)
    assert not r.noticed and r.after is A.AWARE_OF_PRESENCE


# ------------------------------------------------------------------------------------------- SEN-09..11
@pytest.mark.rule("SEN-09", "MOD-20")
def test_unseen_attackers_make_the_defender_flat_footed() -> None:
    for view in (A.UNAWARE, A.AWARE_OF_PRESENCE, A.AWARE_OF_LOCATION):
        (t,) = s.unseen_attack_terms(view)
        assert (t.value, t.source, t.rule) == (-2, "flat-footed", "MOD-20")
    assert s.unseen_attack_terms(A.OBSERVING) == ()
    # the same penalty as the flat-footed condition: it counts once (BON-12)
    real = Term(-2, "flat-footed", "CON-14", source="flat-footed")
    assert explain("AC", [Term(15, "KAC", type=real.type), real, *s.unseen_attack_terms(A.UNAWARE)]).total == 13


@pytest.mark.rule("SEN-09", "MOD-20")
def test_unseen_attack_terms_lower_the_ac_of_an_attack() -> None:
    tess, ksarik = pc(), npc()
    _, _, plain = target_ac(tess, ksarik, tess.stat.weapon("baton"))
    terms = s.attack_awareness(A.OBSERVING, A.UNAWARE).ac_terms
    _, _, vs_unseen = target_ac(tess, ksarik, tess.stat.weapon("baton"), Situation(ac_terms=terms))
    assert plain.total == 15 and vs_unseen.total == 13
    flat = with_conditions(ksarik, "flat-footed")
    _, _, both = target_ac(tess, flat, tess.stat.weapon("baton"), Situation(ac_terms=terms))
    assert both.total == 13


@pytest.mark.rule("SEN-09")
def test_unseen_stealth_bonus() -> None:
    assert s.unseen_stealth_term(moving=False, negated=False) == Term(40, "unseen (stationary)", "SEN-09")
    moving = s.unseen_stealth_term(moving=True, negated=False)
    assert moving is not None and moving.value == 20
    assert s.unseen_stealth_term(moving=False, negated=True) is None
    # an invisible hider: 9 + 40 = 49 + d20 3 = 52 against 7 + 20 = 27
    r = s.perception_vs_stealth(watcher(), with_conditions(sneak(), "invisible"), ScriptedDice([3, 20]))
    assert r.stealth_total == 52 and r.perception.total == 27 and not r.noticed
    moving_r = s.perception_vs_stealth(
        watcher(), with_conditions(sneak(), "invisible"), ScriptedDice([3, 20]), moving=True
    )
    assert moving_r.stealth_total == 32 and not moving_r.noticed


@pytest.mark.rule("SEN-10")
def test_locate_an_adjacent_melee_attacker() -> None:
    ch = s.locate_attacker(A.UNAWARE, melee=True, adjacent=True)
    assert ch.after is A.AWARE_OF_LOCATION and ch.changed and ch.rule == "SEN-10"
    assert s.locate_attacker(A.AWARE_OF_PRESENCE, melee=True, adjacent=True).after is A.AWARE_OF_LOCATION
    assert not s.locate_attacker(A.UNAWARE, melee=False, adjacent=True).changed
    assert not s.locate_attacker(A.UNAWARE, melee=True, adjacent=False).changed
    assert s.locate_attacker(A.OBSERVING, melee=True, adjacent=True).after is A.OBSERVING


@pytest.mark.rule("SEN-11")
def test_blindsense_gives_location_not_observation() -> None:
    sn = sensed(**{"blindsense (scent)": 30})
    o = look(sn, INVISIBLE)
    assert (o.awareness, o.on_notice, o.ceiling) == (A.AWARE_OF_LOCATION,) * 3 and o.keen and not o.precise
    assert o.rule == "SEN-11"
    assert s.can_target(o.awareness).miss_chance == 50  # still total concealment
    assert s.unseen_attack_terms(o.awareness)  # and still flat-footed against it
    assert look(sn, INVISIBLE, distance_ft=35).awareness is A.UNAWARE  # out of range: hearing only


@pytest.mark.rule("SEN-11", "SEN-09")
def test_blindsense_negates_the_unseen_stealth_bonus_and_notices_location() -> None:
    obs = pc(skills={"perception": 7}, senses={"blindsense (scent)": 30})
    hider = with_conditions(sneak(), "invisible")
    r = s.perception_vs_stealth(obs, hider, ScriptedDice([3, 10]))
    assert r.stealth_total == 12 and r.perception.total == 17 and r.noticed
    assert r.after is A.AWARE_OF_LOCATION
    assert any("no unseen bonus" in line for line in r.lines)


# ------------------------------------------------------------------------------------------- SEN-12
@pytest.mark.rule("SEN-12", "MOD-06")
def test_blindsight_observes_the_invisible_in_fog_and_darkness() -> None:
    sn = sensed(**{"blindsight (vibration)": 30})
    o = look(sn, INVISIBLE, light=Light.DARK, line_of_sight=False)
    assert o.awareness is A.OBSERVING and o.rule == "SEN-12"
    assert look(sn, INVISIBLE, distance_ft=35).ceiling is A.AWARE_OF_LOCATION  # beyond it: hearing
    assert s.vision_concealment(Light.DARK, sn, distance_ft=30) == 0
    assert s.vision_concealment(Light.DARK, sn, distance_ft=35) == 50
    assert look(sn, TargetTraits(ethereal=True)).ceiling is A.UNAWARE
    # blindsight needs line of effect
    assert look(sn, INVISIBLE, line_of_effect=False, line_of_sight=False).ceiling is A.UNAWARE


@pytest.mark.rule("SEN-12")
def test_blindsight_in_vacuum_depends_on_its_mechanism() -> None:
    for key, works in (("blindsight (vibration)", True), ("blindsight (emotion)", True), ("blindsight", False),
                       ("blindsight (sound)", False)):  # fmt: skip
        o = look(sensed(**{key: 30}), INVISIBLE, vacuum=True)
        assert (o.awareness is A.OBSERVING) is works, key
    # the blinded condition does not stop blindsight
    assert look(sensed(**{"blindsight (emotion)": 30}), conditions=("blinded",)).awareness is A.OBSERVING


@pytest.mark.rule("SEN-12", "SEN-05")
def test_blindsight_notices_a_hider_as_observing() -> None:
    obs = pc(skills={"perception": 7}, senses={"blindsight (vibration)": 30})
    r = s.perception_vs_stealth(obs, sneak(), ScriptedDice([5, 10]))
    assert r.stealth_total == 14 and r.perception.total == 17 and r.after is A.OBSERVING


# ------------------------------------------------------------------------------------------- SEN-13, EX-19
@pytest.mark.rule("EX-19", "SEN-13")
@pytest.mark.parametrize(
    ("barriers", "passes"),
    [
        ((Barrier("wood", 9.5),), True),
        ((Barrier("wood", 10),), False),
        ((Barrier("plastic", 10),), False),
        ((Barrier("stone", 4.5),), True),
        ((Barrier("stone", 5),), False),
        ((Barrier("steel", 0.5),), True),
        ((Barrier("common metal", 1),), False),
        ((Barrier("lead", 0.5),), False),
        ((Barrier("lead", 0.25),), True),
        ((Barrier("adamantine", 0.5),), False),
        ((Barrier("starmetal", 0.4),), True),
        ((Barrier("stone", 2.5), Barrier("steel", 0.5)), False),
        ((Barrier("stone", 2.5), Barrier("wood", 4)), True),
        ((Barrier("glass", 100),), True),
        ((Barrier("force field"),), False),
        ((Barrier("shimmer", energy_field=True),), False),
        ((), True),
    ],
)
def test_density_limits(barriers: tuple[Barrier, ...], passes: bool) -> None:
    (st_,) = sensed(**{"sense through (vision)": 60}).sense_through
    assert s.sense_through_penetrates(st_, barriers).passes is passes


@pytest.mark.rule("EX-19")
def test_density_table() -> None:
    assert {k: float(v) for k, v in s.DENSITY_LIMIT_FT.items()} == {
        "wood": 10.0, "plastic": 10.0, "stone": 5.0, "metal": 1.0, "lead": 0.5, "starmetal": 0.5,
    }  # fmt: skip
    assert s.sense_through_penetrates(sensed(**{"sense through (vision)": 5}).sense_through[0], [
        Barrier("stone", 5)]).rule == "EX-19"  # fmt: skip


@pytest.mark.rule("SEN-13")
def test_sense_through_brackets() -> None:
    smoke_only = sensed(**{"sense through (vision [smoke only])": 60}).sense_through[0]
    assert s.sense_through_penetrates(smoke_only, [Barrier("smoke", 20)]).passes
    assert not s.sense_through_penetrates(smoke_only, [Barrier("wood", 0.1)]).passes
    silver = sensed(**{"sense through (scent [blocked by silver])": 30}).sense_through[0]
    assert not s.sense_through_penetrates(silver, [Barrier("silver", 0.01)]).passes
    assert s.sense_through_penetrates(silver, [Barrier("wood", 2)]).passes
    with pytest.raises(SftError):
        s.sense_through_penetrates(sensed(blindsight=30).blindsight[0], [])


@pytest.mark.rule("SEN-13")
def test_sense_through_vision_sees_past_a_wall_and_grants_darkvision() -> None:
    sn = sensed(**{"sense through (vision)": 30})
    assert sn.darkvision_ft == 60
    assert sensed(**{"sense through (vision)": 30, "darkvision": 120}).darkvision_ft == 120
    wall = (Barrier("wood", 5),)
    through = look(sn, line_of_sight=False, line_of_effect=False, barriers=wall)
    assert through.awareness is A.OBSERVING
    assert "vision reaches through with sense through (vision)" in through.notes
    assert look(sn, line_of_sight=False, line_of_effect=False, barriers=wall, distance_ft=35).ceiling is A.UNAWARE
    assert look(sn, line_of_sight=False, line_of_effect=False, barriers=(Barrier("stone", 5),)).ceiling is A.UNAWARE
    # it augments vision: blinded, it is lost
    blind = look(sn, conditions=("blinded",), line_of_sight=False, line_of_effect=False, barriers=wall)
    assert blind.ceiling is A.UNAWARE
    # without barriers named, a blocked line stays blocked
    assert look(sn, line_of_sight=False, line_of_effect=False).ceiling is A.UNAWARE


@pytest.mark.rule("SEN-13")
def test_hearing_and_sound_are_the_same_mechanism() -> None:
    a = sensed(**{"sense through (hearing)": 30}).sense_through[0]
    b = sensed(**{"sense through (sound)": 30}).sense_through[0]
    assert a.mechanism is b.mechanism is Mechanism.SOUND
    assert s.mechanism_of("Hearing") is Mechanism.SOUND and s.mechanism_of("smell") is Mechanism.SCENT
    wall = (Barrier("stone", 1),)
    heard = look(sensed(**{"sense through (hearing)": 30}), line_of_sight=False, line_of_effect=False, barriers=wall)
    assert heard.on_notice is A.AWARE_OF_PRESENCE and [c.name for c in heard.perceiving] == ["hearing"]
    deaf = look(
        sensed(**{"sense through (hearing)": 30}), conditions=("deafened",), line_of_sight=False,
        line_of_effect=False, barriers=wall,
    )  # fmt: skip
    assert deaf.ceiling is A.UNAWARE


# ------------------------------------------------------------------------------------------- SEN-14
@pytest.mark.rule("SEN-14")
def test_telepathy() -> None:
    tele = sensed(telepathy=100)
    assert s.telepathy_reaches(tele, 100, target_knows_language=True).possible
    assert not s.telepathy_reaches(tele, 105, target_knows_language=True).possible
    assert not s.telepathy_reaches(tele, 10, target_knows_language=False).possible
    lim = sensed(**{"limited telepathy": 30})
    assert s.telepathy_reaches(lim, 30, target_knows_language=True, shares_language=True).possible
    no = s.telepathy_reaches(lim, 30, target_knows_language=True, shares_language=False)
    assert not no.possible and "shared language" in no.reason
    assert s.telepathy_reaches(ORDINARY, 5, target_knows_language=True).reason == "no telepathy"


# ------------------------------------------------------------------------------------------- SEN-15
@pytest.mark.rule("SEN-15")
def test_conditions_and_traits_change_which_senses_work() -> None:
    blind = look(conditions=("blinded",))
    assert blind.awareness is A.UNAWARE and blind.ceiling is A.AWARE_OF_LOCATION
    dark = look(light=Light.DARK)
    assert dark.ceiling is A.AWARE_OF_LOCATION and "vision: darkness, no darkvision reaching it (VIS-04)" in dark.notes
    assert look(conditions=("unconscious",)).ceiling is A.UNAWARE
    assert look(conditions=("dead",)).rule == "SEN-15"
    # blind, deaf, invisible: smell still notices its presence; incorporeal too: nothing
    assert look(target=INVISIBLE, conditions=("blinded", "deafened")).on_notice is A.AWARE_OF_PRESENCE
    ghost = TargetTraits(invisible=True, incorporeal=True)
    assert look(target=ghost).ceiling is A.UNAWARE


@pytest.mark.rule("SEN-15", "SPA-16")
def test_observe_creature_reads_conditions_and_traits() -> None:
    o = s.observe_creature(with_conditions(pc(), "blinded"), with_conditions(npc(), "invisible"), distance_ft=10)
    assert o.on_notice is A.AWARE_OF_PRESENCE and not o.precise
    ghost = npc(incorporeal=True)
    assert s.observe_creature(pc(), ghost, distance_ft=10).awareness is A.OBSERVING
    assert s.observe_creature(pc(), ghost, distance_ft=10, line_of_sight=False).ceiling is A.UNAWARE
    loud = s.observe_creature(pc(), ghost, distance_ft=10, line_of_sight=False, audible=True)
    assert [c.name for c in loud.perceiving] == ["hearing"]
    assert s.observe_state(ORDINARY, (), VISIBLE, 10, Light.DIM, True, True) is A.OBSERVING


@pytest.mark.rule("SPA-16", "SEN-15")
def test_incorporeal_targets_escape_scent_sound_touch_and_vibration() -> None:
    ghost = TargetTraits(incorporeal=True)
    for key in ("blindsense (scent)", "blindsight (sound)", "blindsight (vibration)"):
        assert look(sensed(**{key: 30}), ghost, light=Light.DARK).ceiling is A.UNAWARE, key
    assert look(sensed(**{"blindsight (thought)": 30}), ghost, light=Light.DARK).awareness is A.OBSERVING
    assert not s.incorporeal_perceivable_by(Mechanism.TOUCH)
    assert s.incorporeal_perceivable_by(Mechanism.SOUND, audible=True)
    assert s.incorporeal_perceivable_by(Mechanism.VISION)


@pytest.mark.rule("SPA-15")
def test_an_incorporeal_observer_inside_an_object_senses_adjacent_squares() -> None:
    near = look(distance_ft=5, observer_inside_object=True)
    assert (near.awareness, near.ceiling, near.rule) == (A.AWARE_OF_LOCATION, A.AWARE_OF_LOCATION, "SPA-15")
    assert look(distance_ft=10, observer_inside_object=True).ceiling is A.UNAWARE
    # a creature inside an object is out of every line
    assert look(target=TargetTraits(incorporeal=True, inside_object=True)).ceiling is A.UNAWARE


# ------------------------------------------------------------------------------------------- CF-07: checks
@pytest.mark.rule("CF-07", "SEN-05")
def test_perception_against_stealth_exact_numbers() -> None:
    # Stealth 9 + 10 = 19, Perception 7 + 13 = 20: noticed; a visible hider is then observed
    r = s.perception_vs_stealth(watcher(), sneak(), ScriptedDice([10, 13]))
    assert (r.stealth_total, r.perception.total, r.noticed, r.after) == (19, 20, True, A.OBSERVING)
    assert r.perception.kind is CheckKind.SKILL and r.perception.dc == 19 and r.perception.success
    lost = s.perception_vs_stealth(watcher(), sneak(), ScriptedDice([12, 13]))
    assert (lost.stealth_total, lost.perception.total, lost.noticed, lost.after) == (21, 20, False, A.UNAWARE)
    assert any("stays hidden" in line for line in lost.lines)


@pytest.mark.rule("CF-07")
def test_ties() -> None:
    # 9 + 10 = 19 against 7 + 12 = 19: the higher bonus (the hider's +9) wins
    r = s.perception_vs_stealth(watcher(), sneak(), ScriptedDice([10, 12]))
    assert not r.noticed and "higher bonus" in r.tie and not r.perception.success
    assert s.perception_vs_stealth(watcher(), sneak(), ScriptedDice([10, 12]), ties="observer").noticed
    assert not s.perception_vs_stealth(watcher(), sneak(), ScriptedDice([10, 12]), ties="hider").noticed
    # equal bonuses: roll-off (hider first) until it breaks
    even = s.perception_vs_stealth(watcher(), sneak(), ScriptedDice([12, 12, 5, 5, 3, 17]), stealth_bonus=7)
    assert even.rolloffs == ((5, 5), (3, 17)) and even.noticed and even.after is A.OBSERVING


@pytest.mark.rule("CF-07", "SEN-15")
def test_blinded_and_deafened_observers() -> None:
    # blinded: -4 to the opposed Perception; vision lost, so the hider is unseen: +40
    r = s.perception_vs_stealth(with_conditions(watcher(), "blinded"), sneak(), ScriptedDice([1, 20]))
    assert r.perception.total == 23 and r.stealth_total == 50 and not r.noticed
    deaf = s.perception_vs_stealth(with_conditions(watcher(), "deafened"), sneak(), ScriptedDice([10, 15]))
    assert deaf.perception.total == 18 and deaf.stealth_total == 19
    with pytest.raises(RuleViolation) as e:
        s.perception_vs_stealth(with_conditions(watcher(), "blinded"), sneak(), ScriptedDice([10, 10]),
                                via=Mechanism.VISION)  # fmt: skip
    assert e.value.rule == "CON-03"
    with pytest.raises(RuleViolation) as e2:
        s.perception_vs_stealth(with_conditions(watcher(), "deafened"), sneak(), ScriptedDice([10, 10]),
                                via=Mechanism.SOUND)  # fmt: skip
    assert e2.value.rule == "CON-11"


@pytest.mark.rule("CF-07", "SEN-04")
def test_a_check_no_sense_could_win_is_refused_before_rolling() -> None:
    dice = ScriptedDice([10, 10])
    with pytest.raises(RuleViolation, match="no sense"):
        s.perception_vs_stealth(watcher(), sneak(incorporeal=True), dice, observation=look(
            target=TargetTraits(incorporeal=True, invisible=True)))  # fmt: skip
    assert dice.remaining == 2


@pytest.mark.rule("CF-07")
def test_situational_terms_and_overrides() -> None:
    r = s.perception_vs_stealth(
        watcher(), sneak(), ScriptedDice([10, 10]), observer_bonus=3, stealth_bonus=2,
        situational=(Term(2, "listening hard", "SPA-17", source="gm"),),
        stealth_situational=(Term(-5, "noisy armor", ""),),
    )  # fmt: skip
    assert r.perception.total == 15 and r.stealth_total == 7 and r.noticed


@pytest.mark.rule("SPA-17", "SEN-05")
def test_noticing_an_invisible_creature_then_pinpointing_it() -> None:
    obs = look(target=INVISIBLE)
    first = s.perception_vs_dc(watcher(), 20, ScriptedDice([13]), observation=obs)
    assert first.check.total == 20 and first.after is A.AWARE_OF_PRESENCE
    second = s.perception_vs_dc(watcher(), 20, ScriptedDice([13]), observation=obs, before=first.after)
    assert second.after is A.AWARE_OF_LOCATION and "pinpoints" in second.lines[1]
    miss = s.perception_vs_dc(watcher(), 20, ScriptedDice([12]), target=with_conditions(npc(), "invisible"))
    assert not miss.check.success and miss.after is A.UNAWARE


@pytest.mark.rule("CF-07", "CF-08")
def test_aware_for_surprise() -> None:
    assert not s.aware_for_surprise([A.UNAWARE, A.UNAWARE])
    assert s.aware_for_surprise([A.UNAWARE, A.AWARE_OF_PRESENCE])
    assert not s.aware_for_surprise([])


# ------------------------------------------------------------------------------------------- VIS
@pytest.mark.rule("VIS-03", "MOD-06")
def test_dim_light_concealment() -> None:
    assert s.vision_concealment(Light.DIM, ORDINARY) == 20
    assert s.vision_concealment(Light.DIM, sensed(**{"low-light vision": 0})) == 0
    assert s.vision_concealment(Light.DIM, sensed(darkvision=60)) == 0
    assert s.vision_concealment(Light.DIM, sensed(darkvision=60), distance_ft=65) == 20  # beyond its range
    assert s.vision_concealment(Light.DIM, sensed(blindsight=30)) == 0
    o = look(light=Light.DIM)
    assert o.awareness is A.OBSERVING  # shapes are seen, but it may hide
    assert s.break_observation(o, concealment=s.vision_concealment(Light.DIM, ORDINARY)).broken
    assert s.dim_light_allows_stealth(Light.DIM, ORDINARY)
    assert not s.dim_light_allows_stealth(Light.DIM, sensed(**{"low-light vision": 0}))


@pytest.mark.rule("VIS-03", "VIS-07")
def test_just_beyond_a_light_source_is_dim() -> None:
    lamp = LightSource((0, 0), 20)
    assert [s.light_level_at((x, 0), Light.DARK, [lamp]) for x in (0, 4, 5, 8, 9)] == [
        Light.NORMAL, Light.NORMAL, Light.DIM, Light.DIM, Light.DARK,
    ]  # fmt: skip
    narrow = LightSource((0, 0), 20, dim_band_ft=5, kind="flashlight")
    assert [s.light_level_at((x, 0), Light.DARK, [narrow]) for x in (4, 5, 6)] == [Light.NORMAL, Light.DIM, Light.DARK]
    # diagonals count 5-10-5: (3,3) is 20 ft away
    assert s.light_level_at((3, 3), Light.DARK, [lamp]) is Light.NORMAL
    assert s.light_level_at((4, 4), Light.DARK, [lamp]) is Light.DIM


@pytest.mark.rule("VIS-01", "VIS-07")
def test_light_sources_only_raise_the_light() -> None:
    lamp = LightSource((0, 0), 10)
    assert s.light_level_at((0, 0), Light.BRIGHT, [lamp]) is Light.BRIGHT
    assert s.light_level_at((0, 0), Light.DARK, [lamp, LightSource((0, 0), 5, Light.BRIGHT)]) is Light.BRIGHT
    candle = LightSource((0, 0), 5, Light.DIM)
    assert [s.light_level_at((x, 0), Light.DARK, [candle]) for x in (1, 2)] == [Light.DIM, Light.DARK]
    assert s.light_level_at((3, 0), {(3, 0): Light.DIM}) is Light.DIM
    assert s.light_level_at((2, 0), {(3, 0): Light.DIM}) is Light.NORMAL
    with pytest.raises(SftError):
        LightSource((0, 0), -5)
    with pytest.raises(SftError):
        LightSource((0, 0), 10, Light.DARK)


@pytest.mark.rule("VIS-08")
def test_an_invisible_light_source_still_lights() -> None:
    ghost_lamp = LightSource((0, 0), 20, invisible=True)
    assert s.light_level_at((2, 0), Light.DARK, [ghost_lamp]) is Light.NORMAL


@pytest.mark.rule("VIS-04", "VIS-07")
def test_lit_maps_feed_the_grids_concealment() -> None:
    dark = GridMap(6, 1, light=(int(Light.DARK),) * 6)
    lamp_map = s.lit(dark, [LightSource((0, 0), 10)])
    assert [lamp_map.light_at((x, 0)) for x in range(6)] == [
        Light.NORMAL, Light.NORMAL, Light.NORMAL, Light.DIM, Light.DIM, Light.DARK,
    ]  # fmt: skip
    assert s.lit(dark, []) is dark
    assert light_concealment(lamp_map, Footprint(5, 0, 1)) is ConcealmentKind.TOTAL
    assert light_concealment(lamp_map, Footprint(4, 0, 1)) is ConcealmentKind.CONCEALMENT
    assert s.light_level_at((5, 0), lamp_map) is Light.DARK


@pytest.mark.rule("VIS-04")
def test_darkness_blinds_without_darkvision() -> None:
    assert s.vision_concealment(Light.DARK, ORDINARY) == 50
    assert not s.sees_at(Light.DARK, ORDINARY)
    assert s.sees_at(Light.DIM, ORDINARY)
    assert look(light=Light.DARK).awareness is A.UNAWARE
    assert s.vision_concealment(Light.NORMAL, ORDINARY, blinded=True) == 50
    assert s.vision_concealment(Light.NORMAL, sensed(blind=0)) == 50


@pytest.mark.rule("VIS-05")
def test_darkvision_range_and_limits() -> None:
    dv = sensed(darkvision=60)
    assert look(dv, light=Light.DARK, distance_ft=60).awareness is A.OBSERVING
    assert look(dv, light=Light.DARK, distance_ft=65).awareness is A.UNAWARE
    assert s.vision_concealment(Light.DARK, dv, distance_ft=60) == 0
    assert s.vision_concealment(Light.DARK, dv, distance_ft=65) == 50
    assert look(dv, INVISIBLE, light=Light.DARK).on_notice is A.AWARE_OF_PRESENCE  # no help against invisibility
    assert s.effective_light(Light.DARK, dv) is Light.NORMAL
    assert s.effective_light(Light.DARK, dv, distance_ft=65) is Light.DARK
    assert s.sees_at(Light.DARK, dv, distance_ft=60) and not s.sees_at(Light.DARK, dv, blinded=True)


@pytest.mark.rule("VIS-06")
def test_low_light_vision() -> None:
    llv = sensed(**{"low-light vision": 0})
    assert s.effective_light(Light.DIM, llv) is Light.NORMAL
    assert s.effective_light(Light.DIM, ORDINARY) is Light.DIM
    assert s.effective_light(Light.DARK, llv) is Light.DARK
    assert s.vision_concealment(Light.DARK, llv) == 50


@pytest.mark.rule("MOD-06")
def test_grid_and_senses_agree_on_light_concealment() -> None:
    for level in Light:
        grid = GridMap(1, 1, light=(int(level),))
        for kw in ({}, {"low_light_vision": True}, {"darkvision": True}):
            sn = Senses(
                low_light_vision=bool(kw.get("low_light_vision")), darkvision_ft=60 * bool(kw.get("darkvision"))
            )
            kind = light_concealment(grid, Footprint(0, 0, 1), **kw)
            assert s.vision_concealment(level, sn) == {0: 0, 1: 20, 2: 50}[int(kind)], (level, kw)


# ------------------------------------------------------------------------------------------- properties
SENSE_TABLES = st.fixed_dictionaries(
    {},
    optional={
        "darkvision": st.sampled_from([30, 60]),
        "low-light vision": st.just(0),
        "blindsight (vibration)": st.sampled_from([10, 30]),
        "blindsight (scent)": st.sampled_from([10, 30]),
        "blindsense (sound)": st.sampled_from([10, 30]),
        "blindsense (emotion)": st.sampled_from([10, 30]),
        "sense through (vision)": st.sampled_from([10, 30]),
        "blind": st.just(0),
    },
)
TRAITS = st.builds(TargetTraits, st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.booleans())
SITUATION = st.fixed_dictionaries(
    {
        "conditions": st.sets(st.sampled_from(["blinded", "deafened"])),
        "distance_ft": st.sampled_from([None, 5, 10, 25, 30, 60, 65]),
        "line_of_sight": st.booleans(),
        "line_of_effect": st.booleans(),
        "vacuum": st.booleans(),
        "barriers": st.sampled_from([(), (Barrier("wood", 5),), (Barrier("stone", 5),)]),
    }
)


def best_allowed(sn: Senses, t: TargetTraits, sit: dict[str, Any], light: Light) -> A:
    """An independent, coarse upper bound: the best state any sense in range could ever give."""
    if t.ethereal:
        return A.UNAWARE
    d = sit["distance_ft"]
    blinded = "blinded" in sit["conditions"]
    vision = sn.vision and not blinded and not t.invisible and (light is not Light.DARK or sn.darkvision_reaches(d))
    blindsight = any(d is None or d <= x.range_ft for x in sn.blindsight)
    if vision or blindsight:
        return A.OBSERVING
    return A.AWARE_OF_LOCATION


@pytest.mark.rule("SEN-03", "SEN-12", "SEN-15")
@settings(max_examples=300, deadline=None)
@given(SENSE_TABLES, TRAITS, SITUATION, st.sampled_from(list(Light)))
def test_awareness_never_exceeds_what_the_best_sense_allows(
    table: dict[str, int], t: TargetTraits, sit: dict[str, Any], light: Light
) -> None:
    sn = s.parse_senses(table)
    o = look(sn, t, light=light, **sit)
    assert o.awareness <= o.on_notice <= o.ceiling <= best_allowed(sn, t, sit, light)
    if t.hiding:
        assert o.awareness is A.UNAWARE
    if o.awareness is A.OBSERVING:
        assert o.precise
    for stored in A:
        assert o.awareness <= o.settle(stored) <= max(o.awareness, o.ceiling)
        assert o.after_success(stored) >= stored


@pytest.mark.rule("VIS-01", "VIS-02", "VIS-03", "VIS-04", "VIS-06")
@settings(max_examples=300, deadline=None)
@given(SENSE_TABLES, TRAITS, SITUATION, st.sampled_from(list(Light)), st.sampled_from(list(Light)))
def test_more_light_never_reduces_what_vision_gives(
    table: dict[str, int], t: TargetTraits, sit: dict[str, Any], a: Light, b: Light
) -> None:
    sn = s.parse_senses(table)
    lo, hi = min(a, b), max(a, b)
    dim, bright = look(sn, t, light=lo, **sit), look(sn, t, light=hi, **sit)
    assert dim.awareness <= bright.awareness and dim.on_notice <= bright.on_notice and dim.ceiling <= bright.ceiling
    d = sit["distance_ft"]
    assert s.vision_concealment(hi, sn, distance_ft=d) <= s.vision_concealment(lo, sn, distance_ft=d)


@pytest.mark.rule("VIS-03", "VIS-07")
@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.builds(
            LightSource,
            st.tuples(st.integers(0, 6), st.integers(0, 6)),
            st.sampled_from([0, 5, 10, 20]),
            st.sampled_from([Light.DIM, Light.NORMAL, Light.BRIGHT]),
        ),
        max_size=3,
    ),
    st.sampled_from(list(Light)),
    st.tuples(st.integers(0, 6), st.integers(0, 6)),
)
def test_adding_a_light_never_darkens_a_square(sources: list[LightSource], base: Light, sq: tuple[int, int]) -> None:
    before = s.light_level_at(sq, base, sources)
    after = s.light_level_at(sq, base, [*sources, LightSource((3, 3), 10)])
    assert base <= before <= after
