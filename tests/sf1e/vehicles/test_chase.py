from fractions import Fraction

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.sf1e.vehicles import chase as ch
from sftactics.sf1e.vehicles.chase import (
    Board,
    Collide,
    DoubleManeuver,
    EndRound,
    Forfeit,
    LeaveUncontrolled,
    Outcome,
    Pass,
    PilotAction,
    PilotRecord,
    Progress,
    Rejoin,
    step,
)
from sftactics.sf1e.vehicles.environment import (
    TABLE_8_4,
    AlteredAttack,
    AlteredMovement,
    Environment,
    Hazard,
    NewTrick,
    Route,
    Zone,
    hazard_row,
    sample_environment,
)
from sftactics.sf1e.vehicles.options import VehicleOptions
from tests.builders import pc
from tests.sf1e.vehicles.chase_helpers import buggy, chase_of, entry
from tests.sf1e.vehicles.helpers import enercycle_stat, foundry_stat, stat

GUNS = [
    {"name": "azimuth laser pistol", "category": "small_arm", "damage": "1d4 F", "range_ft": 80},
    {"name": "tactical semi-auto pistol", "category": "small_arm", "damage": "1d6 P", "range_ft": 30},
]


def run(c: ch.Chase, dice: ScriptedDice, *cmds: ch.Command, options: VehicleOptions | None = None) -> ch.ChaseStep:
    s = ch.ChaseStep(c)
    for cmd in cmds:
        s = step(s.chase, cmd, dice, options or VehicleOptions())
    return s


# ---------------------------------------------------------------- the worked examples


def _sample_chase(options: VehicleOptions) -> ch.Chase:
    """EX-18 up to the combat phase: Buddy's double maneuver, the two ysoki speed up."""
    c = chase_of(buggy(), entry("cycle1", "Redliners"), entry("cycle2", "Redliners"))
    dice = ScriptedDice([18, 5, 12, 2])
    s = run(c, dice, DoubleManeuver("buggy"), PilotAction("buggy", "speed_up"), options=options)
    sp = s.checks[0]
    assert (sp.natural, sp.total, sp.dc, sp.success) == (18, 22, 18, True)  # 18 - 4 + 8 = 22 vs 17 + 1
    assert s.chase.get("buggy").zone == 1  # one zone now
    s = step(s.chase, PilotAction("buggy", "trick"), dice, options)
    trick = s.checks[0]
    assert (trick.dc, trick.success) == (16, False)
    s = step(s.chase, PilotAction("cycle1", "speed_up"), dice, options)
    assert s.checks[0].total == 19 and s.checks[0].success  # 12 + 5 + 2 (the enercycle's Piloting modifier)
    s = step(s.chase, PilotAction("cycle2", "speed_up"), dice, options)
    assert s.checks[0].total == 9 and not s.checks[0].success  # 2 + 5 + 2: failed by 9
    assert s.chase.phase == "chase_progress" and trick.total in (9, 11)
    return s.chase


@pytest.mark.rule("CHS-41", "CHS-12", "CHS-14", "CHS-20", "CHS-03", "EX-18")
def test_ex18_sample_chase_pilot_actions_and_progress() -> None:
    c = _sample_chase(VehicleOptions())
    rec = c.record("buggy")
    assert rec is not None and rec.actions[1].failed_by == 7  # trick 5 - 4 + 8 = 9 vs 16 (no being-ahead bonus)
    p = step(c, Progress(), ScriptedDice([]))
    z = p.chase.zones()
    assert (z["buggy"], z["cycle1"], z["cycle2"]) == (2, 2, 0)  # the double maneuver still moves only one zone
    assert p.chase.get("cycle2").status == "left_behind" and p.chase.get("buggy").status == "in"
    assert p.chase.phase == "combat"
    assert any("left behind [CHS-20]" in line for line in p.lines)


@pytest.mark.rule("CHS-41", "CHS-03", "EX-18")
def test_ex18_trick_with_the_current_positions_option() -> None:
    c = _sample_chase(VehicleOptions(ahead_during_pilot_actions="current"))
    rec = c.record("buggy")
    assert rec is not None and rec.actions[1].failed_by == 5  # 11: +2 for having just sped past every enemy


@pytest.mark.rule("CHS-41", "CHS-24", "CHS-25", "ATK-14", "CHS-23", "EX-18")
def test_ex18_sample_chase_combat() -> None:
    sample = VehicleOptions(hardness_vs_attacks="ignored")
    c = step(_sample_chase(sample), Progress(), ScriptedDice([]), sample).chase
    sssazza, merris, chalak = (pc(name=n, weapons=GUNS) for n in ("Sssazza", "Merris", "Cha'lak"))
    # Sssazza: d20 5 + BAB 4 + Dex 2 - 2 (the buggy's penalty) = 9 vs the enercycle's EAC 10: a miss
    a = ch.attack_vehicle(c, sssazza, "azimuth laser pistol", "buggy", "cycle1", ScriptedDice([5]), sample)
    assert not a.hit and a.check.total == 9 and a.check.dc == 10
    b = ch.attack_vehicle(a.chase, merris, "azimuth laser pistol", "buggy", "cycle1", ScriptedDice([11, 2]), sample)
    assert b.hit and b.check.total == 15 and b.damage == 2 and b.chase.get("cycle1").vehicle.state.hp == 5
    # the ysoki shoots back from his enercycle at -1 (the normal penalty, even in a chase)
    setup = ch.attack_setup(b.chase, "cycle1", "buggy", target_rider=True)
    assert [t.value for t in setup.attack_terms] == [-1] and setup.range_ft == 50
    assert [t.value for t in setup.ac_terms] == [2]  # the buggy's partial cover for its riders
    # Cha'lak: natural 20 with the semi-auto pistol (kinetic: KAC 12; 50 ft is its 2nd increment, -2)
    d = ch.attack_vehicle(b.chase, chalak, "tactical semi-auto pistol", "buggy", "cycle1", ScriptedDice([20, 2, 3]),
                          sample)  # fmt: skip
    assert d.critical and d.damage == 5 and d.check.total == 22  # damage rolled twice (ATK-14)
    assert d.chase.get("cycle1").status == "wrecked" and d.chase.over
    # by the rule text, hardness 5 stops both hits and the enercycle is untouched
    c2 = step(_sample_chase(VehicleOptions()), Progress(), ScriptedDice([])).chase
    b2 = ch.attack_vehicle(c2, merris, "azimuth laser pistol", "buggy", "cycle1", ScriptedDice([11, 2]))
    d2 = ch.attack_vehicle(b2.chase, chalak, "tactical semi-auto pistol", "buggy", "cycle1", ScriptedDice([20, 2, 3]))
    assert d2.chase.get("cycle1").vehicle.state.hp == 7 and not d2.chase.over


@pytest.mark.rule("CHS-20", "CHS-23", "EX-17")
def test_ex17_one_cruiser_escape() -> None:
    cruiser = stat(foundry_stat("hovertrike"), name="police cruiser")  # item level 2: speed up DC 19
    c = chase_of(buggy(zone=1), entry("cruiser", "police", 0, stat=cruiser))
    dice = ScriptedDice([15, 10])
    s = step(c, PilotAction("buggy", "speed_up"), dice)
    assert s.chase.get("buggy").zone == 2 and s.checks[0].total == 15 + 8 + 2  # +2: ahead of every enemy
    s = step(s.chase, PilotAction("cruiser", "speed_up"), dice)
    cr = s.chase.record("cruiser")
    assert cr is not None and cr.actions[0].failed_by == 4  # 10 + 5 = 15 vs 19: less than 5, still advances
    p = step(s.chase, Progress(), ScriptedDice([]))
    assert p.chase.get("buggy").zone == 3 and p.chase.get("cruiser").zone == 1
    assert p.chase.get("buggy").status == "escaped" and p.chase.over


@pytest.mark.rule("CHS-20", "CHS-21", "EX-17")
def test_ex17_two_cruisers_and_declining_escape() -> None:
    cruiser = stat(foundry_stat("hovertrike"), name="police cruiser")
    c = chase_of(buggy(zone=1), entry("A", "police", 0, stat=cruiser), entry("B", "police", 0, stat=cruiser))
    s = run(c, ScriptedDice([15, 14, 10]), *(PilotAction(v, "speed_up") for v in ("buggy", "A", "B")))
    p = step(s.chase, Progress(), ScriptedDice([]))
    z = p.chase.zones()
    assert (z["buggy"], z["A"], z["B"]) == (3, 2, 1)
    assert p.chase.get("B").status == "left_behind" and p.chase.get("buggy").status == "in" and not p.chase.over
    # one cruiser, and the PCs would rather stay in the chase
    c1 = chase_of(buggy(zone=1), entry("cruiser", "police", 0, stat=cruiser))
    s1 = run(c1, ScriptedDice([15, 10]), PilotAction("buggy", "speed_up"), PilotAction("cruiser", "speed_up"))
    p1 = step(s1.chase, Progress(decline_escape=frozenset({"buggy"})), ScriptedDice([]))
    assert p1.chase.get("buggy").zone == 2 and p1.chase.get("buggy").status == "in" and not p1.chase.over


# ---------------------------------------------------------------- positions, phases, initiative


@pytest.mark.rule("CHS-02")
def test_relative_positions() -> None:
    c = chase_of(entry("a", "x", 0), entry("b", "y", 0), entry("c", "y", 1), entry("d", "y", 2))
    c = c.model_copy(update={"engagements": (frozenset({"a", "b"}),)})
    assert ch.chase_distance_ft(c, "a", "b") == 5
    assert ch.chase_distance_ft(c, "b", "a") == 5
    assert ch.chase_distance_ft(c, "c", "b") == 200 and ch.chase_distance_ft(c, "a", "d") is None
    c2 = c.model_copy(update={"engagements": ()})
    assert ch.chase_distance_ft(c2, "a", "b") == 50


@pytest.mark.rule("CHS-03")
def test_being_ahead() -> None:
    c = chase_of(entry("a", "x", 1), entry("b", "y", 0), entry("c", "y", 1))
    terms = ch.pilot_check_bonus(c, "a", "keep_pace").applied
    assert not any(t.rule == "CHS-03" for t in terms)  # c is level with a
    vs_b = ch.pilot_check_bonus(c, "a", "break_free", targets=["b"])
    assert [t.value for t in vs_b.applied if t.rule == "CHS-03"] == [2]
    c2 = chase_of(entry("a", "x", 1), entry("b", "y", 0), entry("c", "y", 0))
    both = ch.pilot_check_bonus(c2, "a", "break_free", targets=["b"])
    assert [t.value for t in both.applied if t.rule == "CHS-03"] == [2]  # alternatives: at most +2
    stacked = ch.pilot_check_bonus(c2, "a", "break_free", targets=["b"], options=VehicleOptions(ahead_bonus="stack"))
    assert sum(t.value for t in stacked.applied if t.rule == "CHS-03") == 4
    trick = ch.pilot_check_bonus(c2, "a", "trick", skill="bluff")
    assert not any(t.rule == "CHS-03" for t in trick.applied)  # Piloting checks only
    combat = c2.model_copy(update={"phase": "combat"})
    assert any(t.rule == "CHS-03" and t.value == 2 for t in ch.attack_setup(combat, "a", "b").attack_terms)
    assert not any(t.rule == "CHS-03" for t in ch.attack_setup(combat, "b", "a").attack_terms)


@pytest.mark.rule("CHS-04")
def test_chase_initiative() -> None:
    cars = [entry("cycle", "y"), buggy(), entry("empty", "y", piloted=False)]
    s = ch.start_chase(cars, dice=ScriptedDice([9, 14]))  # ysoki 9 + 2 = 11, Buddy 14 + 2 = 16
    assert s.chase.order == ("buggy", "cycle", "empty") and len(s.checks) == 2
    kept = ch.start_chase(cars, order=["cycle", "empty", "buggy"])
    assert kept.chase.order == ("cycle", "empty", "buggy") and "keeps the initiative order" in kept.lines[0]
    with pytest.raises(RuleViolation, match="CHS-04"):
        ch.start_chase(cars, order=["cycle"])


@pytest.mark.rule("CHS-05", "CHS-06")
def test_phases_in_order() -> None:
    c = chase_of(buggy(), entry("cycle", "y"))
    dice = ScriptedDice([10, 10])
    with pytest.raises(RuleViolation, match="CHS-05"):
        step(c, PilotAction("cycle", "keep_pace"), dice)
    with pytest.raises(RuleViolation, match="CHS-05"):
        step(c, Progress(), dice)
    with pytest.raises(RuleViolation, match="CHS-05"):
        step(c, EndRound(), dice)
    s = step(c, PilotAction("buggy", "keep_pace"), dice)
    assert s.chase.get("buggy").zone == 0  # only speed up moves during pilot actions
    assert s.chase.current_pilot == "cycle"
    s = run(s.chase, dice, LeaveUncontrolled("cycle"), Progress())
    assert s.chase.phase == "combat"
    assert ch.pilot_can_attack(s.chase, "buggy") and not ch.pilot_can_attack(s.chase, "buggy", full_attack=True)
    assert ch.pilot_can_attack(s.chase, "cycle", full_attack=True)
    r2 = step(s.chase, EndRound(), dice)
    assert r2.chase.round == 2 and r2.chase.phase == "pilot_actions" and r2.chase.records == ()


# ---------------------------------------------------------------- pilot actions (Table 8-3)


@pytest.mark.rule("CHS-15")
def test_table_8_3() -> None:
    assert set(ch.TABLE_8_3) == {"break_free", "double_maneuver", "engage", "evade", "keep_pace", "slow_down",
                                 "speed_up", "trick"}  # fmt: skip
    c = chase_of(entry("a", "x"), entry("b", "y"))
    assert [ch.action_dc(c, "a", a).total for a in ("evade", "keep_pace", "speed_up", "trick")] == [11, 11, 18, 16]
    assert ch.action_dc(c, "a", "engage", "b").total == 12
    with pytest.raises(RuleViolation, match="CHS-15"):
        ch.action_dc(c, "a", "slow_down")


@pytest.mark.rule("CHS-07")
def test_break_free() -> None:
    walker = stat(enercycle_stat(), kac=15)
    c = chase_of(entry("a", "x"), entry("b", "y"), entry("c", "y", stat=walker))
    c1 = c.model_copy(update={"engagements": (frozenset({"a", "b"}),)})
    assert ch.action_dc(c1, "a", "break_free").total == 17  # 5 + 12
    c2 = c.model_copy(update={"engagements": (frozenset({"a", "b", "c"}),)})
    assert ch.action_dc(c2, "a", "break_free").total == 25  # 5 + 15 + 5 per extra enemy
    assert ch.action_dc(c2, "a", "break_free", options=VehicleOptions(break_free_dc="drop_base")).total == 20
    s = run(c2, ScriptedDice([18]), PilotAction("a", "break_free"))  # 18 + 7 = 25
    assert s.chase.engagement("a") == frozenset() and s.chase.engagement("b") == {"b", "c"}
    w = step(c1, PilotAction("a", "break_free", willing=True), ScriptedDice([]))
    assert w.checks == () and w.chase.engagement("a") == frozenset()
    rec = w.chase.record("a")
    assert rec is not None and ch.progress_delta(rec) == 1


@pytest.mark.rule("CHS-08", "CHS-16")
def test_engage() -> None:
    c = chase_of(entry("a", "x"), entry("b", "y"), entry("c", "y"), entry("d", "y", 1), entry("e", "x"))
    c = c.model_copy(update={"engagements": (frozenset({"b", "c"}),)})
    s = step(c, PilotAction("a", "engage", target="b"), ScriptedDice([5]))  # 5 + 7 = 12 vs KAC 12
    assert s.checks[0].dc == 12 and s.chase.engagement("a") == {"a", "b", "c"}  # with everyone in it
    with pytest.raises(RuleViolation, match="same zone"):
        step(c, PilotAction("a", "engage", target="d"), ScriptedDice([20]))
    with pytest.raises(RuleViolation, match="CHS-16"):
        step(s.chase, PilotAction("b", "speed_up"), ScriptedDice([20]))
    with pytest.raises(RuleViolation, match="CHS-16"):
        step(s.chase, PilotAction("b", "slow_down"), ScriptedDice([20]))
    c3 = c.model_copy(update={"turn": 4})
    ally = step(c3, PilotAction("e", "engage", target="a"), ScriptedDice([]))
    assert ally.checks == () and ally.chase.engagement("e") == {"a", "e"}


@pytest.mark.rule("CHS-09")
def test_evade() -> None:
    c = chase_of(entry("a", "x"), entry("b", "y"))
    s = run(c, ScriptedDice([8, 8]), DoubleManeuver("a"), PilotAction("a", "evade"), PilotAction("a", "evade"))
    ac = ch.vehicle_ac(s.chase, "a", "kac")
    assert ac.total == 14 and len(ac.suppressed) == 1  # +2 circumstance; the second evade does not stack
    s = run(s.chase, ScriptedDice([]), Pass("b"), Progress(), EndRound())
    assert ch.vehicle_ac(s.chase, "a", "kac").total == 12  # 1 round: gone when a's turn comes again
    rec = PilotRecord(vehicle="a", actions=(Outcome(action="evade", success=True),))
    assert ch.progress_delta(rec) == 1


@pytest.mark.rule("CHS-10", "CHS-11", "CHS-17")
def test_keep_pace_slow_down_and_progress() -> None:
    c = chase_of(entry("a", "x", 0), entry("b", "y", 0), entry("c", "y", 0))
    s = run(c, ScriptedDice([4, 3, 19]), PilotAction("a", "keep_pace"), PilotAction("b", "keep_pace"),
            DoubleManeuver("c"), PilotAction("c", "evade"), PilotAction("c", "slow_down"), Progress())  # fmt: skip
    z = s.chase.zones()
    assert (z["a"], z["b"], z["c"]) == (1, -1, 0)  # success +1; failure back 1; evade + slow down: no advance

    def rec(*outs: tuple[str, bool, int, bool]) -> PilotRecord:
        return PilotRecord(vehicle="v", actions=tuple(Outcome(action=a, success=ok, failed_by=fb, checked=chk)
                                                      for a, ok, fb, chk in outs))  # fmt: skip

    d = ch.progress_delta
    assert d(PilotRecord(vehicle="v", uncontrolled=True)) == 0 and d(PilotRecord(vehicle="v")) == 0
    assert d(rec(("speed_up", False, 4, True))) == 1
    assert d(rec(("speed_up", False, 5, True), ("speed_up", False, 6, True))) == 0
    assert d(rec(("keep_pace", False, 1, True), ("evade", True, 0, True))) == 1
    assert d(rec(("keep_pace", False, 1, True), ("evade", False, 1, True))) == -1
    only = VehicleOptions(keep_pace_fallback="only_check")
    assert d(rec(("keep_pace", False, 1, True), ("evade", False, 1, True)), only) == 0
    assert d(rec(("keep_pace", False, 1, True), ("keep_pace", False, 2, True)), only) == -1
    assert d(rec(("break_free", True, 0, False))) == 1
    assert d(rec(("break_free", True, 0, False)), VehicleOptions(checkless_success=False)) == 0


@pytest.mark.rule("CHS-12")
def test_speed_up_failures() -> None:
    c = chase_of(entry("a", "x"), entry("b", "y"), entry("z", "y", 1))
    s = run(c, ScriptedDice([7, 6]), PilotAction("a", "speed_up"), PilotAction("b", "speed_up"), Pass("z"), Progress())
    assert s.chase.get("a").zone == 1 and s.chase.get("b").zone == 0  # failed by 4: +1; by 5: nothing


@pytest.mark.rule("CHS-13")
def test_trick_penalties() -> None:
    c = chase_of(entry("a", "x", 2), entry("c", "x", 2), entry("b", "y", 1))
    s = run(c, ScriptedDice([14, 14, 14]), DoubleManeuver("a"), PilotAction("a", "trick"), PilotAction("a", "trick"))
    pen = [t for t in ch.pilot_check_bonus(s.chase, "b", "keep_pace").applied if t.rule == "CHS-13"]
    assert [t.value for t in pen] == [-2]  # the same pilot's tricks do not stack
    s = step(s.chase, PilotAction("c", "trick"), ScriptedDice([14]))  # 14 + 7 = 21 vs 16, no ahead bonus (-0)
    pen2 = [t for t in ch.pilot_check_bonus(s.chase, "b", "keep_pace").applied if t.rule == "CHS-13"]
    assert sum(t.value for t in pen2) == -4  # different pilots ahead: they stack
    bluff = step(c, PilotAction("a", "trick", skill="bluff", bonus=1), ScriptedDice([15]))
    assert bluff.checks[0].total == 16 and bluff.checks[0].success  # no vehicle modifier on a Bluff check


@pytest.mark.rule("CHS-14")
def test_double_maneuver() -> None:
    walker = stat(foundry_stat("heavy_walker"), item_level=1)  # full speed 550 vs the enercycle's 200
    c = chase_of(entry("a", "x"), entry("fast", "x", stat=walker), entry("b", "y"))
    assert ch.double_penalty(c, "a").value == -4 and ch.double_penalty(c, "fast").value == -2
    s = run(c, ScriptedDice([8, 8]), DoubleManeuver("a"), PilotAction("a", "keep_pace"), PilotAction("a", "keep_pace"))
    assert [x.total for x in s.checks] == [11]  # 8 + 7 - 4 = 11 vs 11: success
    rec = s.chase.record("a")
    assert rec is not None and rec.used == "full" and ch.progress_delta(rec) == 1  # at most one zone
    f = run(c, ScriptedDice([10]), DoubleManeuver("a"), PilotAction("a", "evade"), Forfeit("a"))
    assert f.chase.current_pilot == "fast"
    with pytest.raises(RuleViolation, match="CHS-14"):
        step(c, Forfeit("a"), ScriptedDice([]))


@pytest.mark.rule("CHS-18")
def test_engaged_vehicles_move_together() -> None:
    c = chase_of(entry("a", "x"), entry("b", "y"), entry("z", "y", 1))
    c = c.model_copy(update={"engagements": (frozenset({"a", "b"}),)})
    s = run(c, ScriptedDice([10, 1]), PilotAction("a", "keep_pace"), PilotAction("b", "keep_pace"), Pass("z"),
            Progress())  # fmt: skip
    assert s.chase.get("a").zone == 1 and s.chase.get("b").zone == 1
    assert ch.is_ahead(s.chase, "a", "b") and not ch.is_ahead(s.chase, "b", "a")
    combat_terms = ch.attack_setup(s.chase, "a", "b").attack_terms
    assert any(t.rule == "CHS-03" for t in combat_terms)
    none = run(c, ScriptedDice([1, 1]), PilotAction("a", "keep_pace"), PilotAction("b", "keep_pace"), Pass("z"),
               Progress())  # fmt: skip
    assert none.chase.get("a").zone == 0 and none.chase.get("b").zone == 0


@pytest.mark.rule("CHS-19", "CHS-29", "CHS-30")
def test_hazards_on_entering_a_zone() -> None:
    rocks = Hazard(name="oncoming traffic", cr="1")  # Table 8-4: +8, 4d4
    env = Environment(zones={1: Zone(hazards=(rocks,))})
    c = chase_of(entry("a", "x"), entry("b", "y"), env=env)
    # speed up 11 + 7 = 18; at once the hazard attacks: 4 + 8 = 12 vs KAC 12, 4d4 = 4+4+4+4 = 16 - hardness 5
    s = step(c, PilotAction("a", "speed_up"), ScriptedDice([11, 4, 4, 4, 4, 4]))
    assert s.chase.get("a").zone == 1 and s.chase.get("a").vehicle.wrecked
    assert any("oncoming traffic attacks a" in line for line in s.lines) and s.chase.over
    assert hazard_row("1/3") == (4, "2d4") and TABLE_8_4["20"] == (32, "25d10") and len(TABLE_8_4) == 23
    with pytest.raises(RuleViolation, match="CHS-30"):
        hazard_row("21")


@pytest.mark.rule("CHS-30", "CHS-31")
def test_hazard_kinds() -> None:
    env = Environment(zones={1: Zone(hazards=(Hazard(name="tree", cr="1", effect="both", trigger="first_entry"),))})
    c = chase_of(entry("a", "x"), entry("b", "x"), entry("y", "y", 1), env=env)
    # a: 14 + 7 = 21 speeds up; tree: 6 + 8 - 2 = 12 hits KAC 12; 4d4 = 16 halved = 8 - 5 hardness = 3
    s = step(c, PilotAction("a", "speed_up"), ScriptedDice([14, 6, 4, 4, 4, 4]))
    a = s.chase.get("a")
    assert a.vehicle.state.hp == 4 and any("knocked off course" in line for line in s.lines)
    terms = ch.pilot_check_bonus(s.chase, "a", "keep_pace").applied
    assert [t.value for t in terms if t.rule == "CHS-31"] == [-4]
    s2 = step(s.chase, PilotAction("b", "speed_up"), ScriptedDice([14]))  # the tree fell only once
    assert s2.chase.get("b").zone == 1 and s2.chase.get("b").vehicle.state.hp == 7
    eac = ch.hazard_attack(c, Hazard(name="arc", cr="1/4", ac="eac"), "a", ScriptedDice([7, 1, 1]))
    assert "vs 10" in eac[1][0] and "(EAC)" in eac[1][0]


@pytest.mark.rule("CHS-30", "CHS-36")
def test_hazards_that_follow_the_chase() -> None:
    shark = Hazard(name="megashark", cr="1", trigger="rear_after_progress", effect="off_course")
    env = Environment(zones={1: Zone(hazards=(shark,))})
    c = chase_of(entry("a", "x", 0), entry("b", "y", 0), env=env)
    # a speeds up into zone 1 (wakes the shark); b keeps pace; after progress the shark goes for the rearmost (b)
    s = run(c, ScriptedDice([11, 10, 15]), PilotAction("a", "speed_up"), PilotAction("b", "keep_pace"), Progress())
    assert any("goes after the rearmost vehicle: b" in line for line in s.lines)
    assert any(e.kind == "off_course" and e.vehicle == "b" for e in s.chase.effects)
    assert len(s.chase.active_hazards) == 1


@pytest.mark.rule("CHS-32", "CHS-38")
def test_altered_attacks() -> None:
    env = Environment(everywhere=Zone(attacks=(AlteredAttack(name="smoke", kind="concealment"),
                                               AlteredAttack(name="pillars", kind="cover"))))  # fmt: skip
    c = chase_of(entry("a", "x"), entry("b", "y"), env=env, phase="combat")
    setup = ch.attack_setup(c, "a", "b")
    assert setup.miss_chance == 20 and [t.value for t in setup.ac_terms] == [4]
    assert ch.ricochet(ScriptedDice([10])) and not ch.ricochet(ScriptedDice([11]))


@pytest.mark.rule("CHS-33")
def test_altered_movement() -> None:
    env = Environment(
        zones={0: Zone(movement=(AlteredMovement(name="deep sand", modifier=-2),
                                 AlteredMovement(name="anti-grav fault", modifier=-2, kinds=frozenset({"air"})),
                                 AlteredMovement(name="downhill", by_action={"speed_up": 2, "keep_pace": -2})))}
    )  # fmt: skip
    c = chase_of(entry("a", "x"), entry("b", "y"), env=env)
    sp = [t.value for t in ch.pilot_check_bonus(c, "a", "speed_up").applied if t.rule == "CHS-33"]
    kp = [t.value for t in ch.pilot_check_bonus(c, "a", "keep_pace").applied if t.rule == "CHS-33"]
    assert sorted(sp) == [-2, 2] and sorted(kp) == [-2, -2]  # the air-only effect skips a land vehicle
    slope = Environment(everywhere=Zone(movement=(AlteredMovement(name="steep slope", slow_down_dc=15),)))
    s = step(chase_of(entry("a", "x"), entry("b", "y"), env=slope), PilotAction("a", "slow_down"), ScriptedDice([8]))
    assert s.checks[0].dc == 15 and s.checks[0].total == 15


@pytest.mark.rule("CHS-34")
def test_new_tricks() -> None:
    rocks = Hazard(name="toppled rocks", cr="1")
    env = Environment(everywhere=Zone(tricks=(NewTrick(name="topple rocks", dc_increase=3, pursuer_penalty=-4,
                                                       hazard=rocks),)))  # fmt: skip
    c = chase_of(entry("a", "x", 3), entry("b", "y", 2), env=env)
    s = step(c, PilotAction("a", "trick", trick="topple rocks"), ScriptedDice([10]))  # 10 + 7 + 2 ahead = 19 vs 19
    assert s.checks[0].dc == 19 and s.checks[0].success
    assert [t.value for t in ch.pilot_check_bonus(s.chase, "b", "keep_pace").applied if t.rule == "CHS-13"] == [-4]
    assert s.chase.added_hazards == ((2, rocks),)
    with pytest.raises(RuleViolation, match="CHS-34"):
        step(c, PilotAction("a", "trick", trick="nope"), ScriptedDice([10]))


@pytest.mark.rule("CHS-35")
def test_split_routes() -> None:
    cave = Route(name="hidden cave", movement=(AlteredMovement(name="cave", by_action={"keep_pace": 2}),))
    env = Environment(zones={1: Zone(routes=(cave,))})
    c = chase_of(entry("a", "x", 1), entry("b", "y", 1), entry("z", "y", 0), env=env)
    c = c.model_copy(update={"engagements": (frozenset({"a", "b"}),)})
    s = step(c, PilotAction("a", "keep_pace", route="hidden cave"), ScriptedDice([2]))  # 2 + 7 + 2 = 11 vs 11
    assert s.checks[0].success and s.chase.engagement("a") == frozenset()
    assert s.chase.split_engaged == (("a", "b"),)
    with pytest.raises(RuleViolation, match="CHS-35"):
        step(s.chase, PilotAction("b", "engage", target="a"), ScriptedDice([20]))
    s = run(s.chase, ScriptedDice([4, 1]), PilotAction("b", "keep_pace"), PilotAction("z", "keep_pace"), Progress())
    assert s.chase.get("a").zone == 2 and s.chase.get("b").zone == 2
    assert s.chase.engagement("a") == {"a", "b"} and any("engaged again" in line for line in s.lines)
    with pytest.raises(RuleViolation, match="CHS-35"):
        step(c, PilotAction("a", "keep_pace", route="tunnel"), ScriptedDice([2]))


@pytest.mark.rule("CHS-36", "CHS-37", "CHS-38", "CHS-39")
def test_sample_environments() -> None:
    aq = sample_environment("aquatic")
    assert [h.trigger for h in aq.hazards] == ["rear_after_progress", "random_after_progress"]
    assert {m.modifier for m in aq.movement} == {-2, 2} and aq.tricks[0].pursuer_penalty == -4
    desert = sample_environment("desert", cr="3")
    assert desert.hazards[1].base_attack == 10 and desert.attacks[1].kind == "total_concealment"
    forest = sample_environment("forest")
    assert forest.hazards[0].rounds == 2 and forest.attacks[1].chance == 10
    ramp = forest.routes[1].movement[0]
    assert ramp.for_action("speed_up", frozenset({"land"})) == 2 and ramp.for_action("evade", frozenset()) == -2
    hw = sample_environment("highway")
    tube = hw.routes[0].movement[0]
    assert tube.for_action("speed_up", frozenset()) == 4 and tube.for_action("keep_pace", frozenset()) == -2
    assert [m.modifier for m in hw.movement] == [-1, 1, -1] and hw.tricks[1].pursuer_penalty == -2
    with pytest.raises(RuleViolation, match="CHS-29"):
        sample_environment("space")


# ---------------------------------------------------------------- combat phase


@pytest.mark.rule("CHS-22", "CHS-23")
def test_ending_and_rejoining() -> None:
    c = chase_of(buggy(zone=2), entry("cycle", "y", 0))
    s = run(c, ScriptedDice([]), Pass("buggy"), Pass("cycle"), Progress())
    assert s.chase.over and s.chase.get("buggy").status == "escaped"
    assert s.chase.get("cycle").status == "left_behind"  # settled in the same step (CHS-20)
    with pytest.raises(RuleViolation, match="CHS-23"):
        step(s.chase, EndRound(), ScriptedDice([]))
    with pytest.raises(RuleViolation, match="CHS-22"):
        step(s.chase, Rejoin("buggy", 0), ScriptedDice([]))
    back = step(s.chase, Rejoin("buggy", 1, gm_allows=True), ScriptedDice([]))
    assert back.chase.get("buggy").status == "in" and back.chase.over  # nobody to chase it
    back = step(back.chase, Rejoin("cycle", 0, gm_allows=True), ScriptedDice([]))
    assert back.chase.get("cycle").status == "in" and not back.chase.over


@pytest.mark.rule("CHS-24", "CHS-25")
def test_ranged_attacks_in_a_chase() -> None:
    c = chase_of(buggy(), entry("near", "y", 1), entry("far", "y", 2), phase="combat")
    c = c.model_copy(update={"vehicles": tuple(v.model_copy(update={"vehicle": v.vehicle.with_state(
        raced_this_round=True, moving=True)}) for v in c.vehicles)})  # fmt: skip
    s = ch.attack_setup(c, "buggy", "near", range_increment_ft=30)
    assert s.range_ft == 200 and sorted(t.value for t in s.attack_terms) == [-12, -2]  # normal -2; 200 ft: 7th inc.
    with pytest.raises(RuleViolation, match="out of range"):
        ch.attack_setup(c, "buggy", "far")
    with pytest.raises(RuleViolation, match="grenade"):
        ch.attack_setup(c, "buggy", "near", grenade=True)
    assert ch.attack_setup(c, "buggy", "near", grenade=True, options=VehicleOptions(grenades_in_chase=True))
    walker = chase_of(entry("a", "x"), entry("w", "y", stat=foundry_stat("heavy_walker")), phase="combat")
    with pytest.raises(RuleViolation, match="total cover"):
        ch.attack_setup(walker, "a", "w", target_rider=True)


@pytest.mark.rule("CHS-26")
def test_melee_between_vehicles() -> None:
    c = chase_of(entry("a", "x"), entry("b", "y"), phase="combat")
    with pytest.raises(RuleViolation, match="engaged"):
        ch.attack_setup(c, "a", "b", melee=True, reach=True)
    e = c.model_copy(update={"engagements": (frozenset({"a", "b"}),)})
    with pytest.raises(RuleViolation, match="reach"):
        ch.attack_setup(e, "a", "b", melee=True)
    ok = ch.attack_setup(e, "a", "b", melee=True, reach=True, target_rider=True)
    assert ok.range_ft == 5 and "no squares are threatened" in ok.lines[0]


@pytest.mark.rule("CHS-27")
def test_boarding_in_a_chase() -> None:
    c = chase_of(entry("a", "x"), entry("b", "y"), phase="combat")
    rider = pc(name="Rider", skills={"athletics": 4})
    with pytest.raises(RuleViolation, match="engaged"):
        step(c, Board(rider, "a", "b"), ScriptedDice([20]))
    e = c.model_copy(update={"engagements": (frozenset({"a", "b"}),)})
    ok = step(e, Board(rider, "a", "b", skill="athletics"), ScriptedDice([13]))  # 13 + 4 vs 5 + 12
    assert ok.checks[0].dc == 17 and ok.checks[0].success and ok.creature is not None
    fall = step(e, Board(rider, "a", "b", skill="athletics", fall_ft=20), ScriptedDice([8, 3, 4, 5, 6]))
    assert fall.creature is not None and fall.creature.has("prone")
    assert fall.creature.state.sp == 28 - 18  # 20 ft: 2d6 doubled = rolled twice, 3 + 4 + 5 + 6
    with pytest.raises(RuleViolation, match="passengers"):
        step(e, Board(e.get("a").pilot, "a", "b"), ScriptedDice([20]))  # type: ignore[arg-type]


@pytest.mark.rule("CHS-28")
def test_collisions() -> None:
    c = chase_of(buggy(), entry("cycle", "y"), phase="combat")
    with pytest.raises(RuleViolation, match="engaged"):
        step(c, Collide("buggy", "cycle"), ScriptedDice([20]))
    e = c.model_copy(update={"engagements": (frozenset({"buggy", "cycle"}),)})
    # 4 + 8 = 12 vs KAC 12; 3d4 = 4 + 4 + 4 = 12: the enercycle takes 12 - 5, the buggy half (6) - 5
    s = step(e, Collide("buggy", "cycle"), ScriptedDice([4, 4, 4, 4]))
    assert s.checks[0].success and s.chase.get("cycle").vehicle.state.hp == 0 and s.chase.over
    assert s.chase.get("buggy").vehicle.state.hp == 29
    double = e.model_copy(update={"records": (PilotRecord(vehicle="buggy", double=True, done=True),)})
    with pytest.raises(RuleViolation, match="CHS-06"):
        step(double, Collide("buggy", "cycle"), ScriptedDice([20]))


@pytest.mark.rule("CHS-17")
def test_uncontrolled_vehicles_fail_everything() -> None:
    c = chase_of(entry("a", "x"), entry("ghost", "y", piloted=False), entry("b", "y"))
    assert c.current_pilot == "a"
    s = run(c, ScriptedDice([10, 10]), PilotAction("a", "keep_pace"), PilotAction("b", "keep_pace"), Progress())
    assert s.chase.get("ghost").zone == 0 and s.chase.get("a").zone == 1
    rec = s.chase.record("ghost")
    assert rec is not None and rec.uncontrolled


@pytest.mark.rule("CHS-40")
def test_chase_experience() -> None:
    crs = ch.chase_xp_crs([("y1", "1/2"), ("y2", "1/2")], [Hazard(name="shark", cr="2")], already_awarded=["y2"])
    assert crs == [Fraction(1, 2), Fraction(2)]


@pytest.mark.rule("CHS-05")
def test_a_chase_is_a_value_that_round_trips_through_json() -> None:
    env = Environment(zones={1: Zone(routes=(Route(name="tunnel"),), hazards=(Hazard(name="traffic"),))})
    c = chase_of(buggy(), entry("cycle", "y"), env=env)
    s = run(c, ScriptedDice([10, 10]), DoubleManeuver("buggy"), PilotAction("buggy", "evade"))
    again = ch.Chase.model_validate_json(s.chase.model_dump_json())
    assert again == s.chase
