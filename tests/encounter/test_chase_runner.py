"""The chase runner (encounter/chase.py) driven by commands with scripted dice: exact numbers, events as data,
refusals that change nothing, replay without dice, the policy. Data: tests/data/chases."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice, SeededDice
from sftactics.encounter.chase import ChaseFight
from sftactics.encounter.chase_commands import CHASE_COMMAND_LIST
from sftactics.encounter.chase_policy import auto_play, chance, next_command
from sftactics.encounter.chase_state import ChaseEncounter
from sftactics.io.chase_scenario import load_chase, parse_chase

DATA = Path(__file__).parent.parent / "data" / "chases"
BUGGY = str(DATA.parent / "vehicles" / "sample-chase-buggy.yaml")
SAMPLE = DATA / "sample.yaml"
#: The sample chase's dice (CHS-41): speed up 18, trick 5, cycle1 12, cycle2 2, the gunner's 20, damage 3 and 4.
SAMPLE_DICE = [18, 5, 12, 2, 20, 3, 4]


def sample_fight(dice: list[int]) -> ChaseFight:
    return ChaseFight(load_chase(SAMPLE), ScriptedDice(dice))


def do_all(fight: ChaseFight, cmds: list[dict[str, Any]]) -> None:
    for c in CHASE_COMMAND_LIST.validate_python(cmds):
        fight.do(c)


def terms(check: dict[str, Any]) -> list[tuple[int, str]]:
    bonus = check["bonus"]
    return [(t["value"], t["rule"]) for t in bonus["terms"]]


ROUND_ONE = [
    {"type": "begin"},
    {"type": "double_maneuver", "vehicle": "buggy"},
    {"type": "pilot", "vehicle": "buggy", "action": "speed_up"},
    {"type": "pilot", "vehicle": "buggy", "action": "trick"},
    {"type": "pilot", "vehicle": "cycle1", "action": "speed_up"},
    {"type": "pilot", "vehicle": "cycle2", "action": "speed_up"},
    {"type": "progress"},
]


@pytest.mark.rule("CHS-41", "CHS-14", "CHS-12", "CHS-13", "CHS-17", "CHS-20", "CHS-24", "CHS-23", "CHS-04", "CHS-40")
def test_the_sample_chase_through_the_runner() -> None:
    fight = sample_fight(SAMPLE_DICE)
    do_all(fight, ROUND_ONE)
    ev = {e.kind + str(i): e for i, e in enumerate(fight.all_events())}
    checks = [c for e in fight.all_events() for c in e.checks]
    # buggy: 18 + 8 - 4 = 22 vs 18; trick 5 + 8 - 4 = 9 vs 16; cycles 12 + 5 + 2 = 19 and 2 + 7 = 9 vs 18
    assert [(c["natural"], c["total"], c["dc"], c["success"]) for c in checks] == [
        (18, 22, 18, True), (5, 9, 16, False), (12, 19, 18, True), (2, 9, 18, False),
    ]  # fmt: skip
    assert (-4, "CHS-14") in terms(checks[0]) and (8, "GEN-01") in terms(checks[0])
    assert ev["pilot2"].dcs[0]["total"] == 18
    assert [(t["value"], t["rule"]) for t in ev["pilot2"].dcs[0]["terms"]] == [(17, "CHS-12"), (1, "CHS-12")]
    chase = fight.state.chase
    assert chase.zones() == {"buggy": 2, "cycle1": 2, "cycle2": 0}
    assert chase.get("cycle2").status == "left_behind"
    assert chase.phase == "combat"
    fight.do(CHASE_COMMAND_LIST.validate_python([{"type": "attack", "actor": "Gunner", "target": "cycle1"}])[0])
    attack = fight.all_events()[-2]
    assert attack.checks[0]["natural"] == 20 and attack.checks[0]["total"] == 24  # +6 rifle -2 buggy
    assert (-2, "CHS-24") in terms(attack.checks[0])
    assert [d["result"] for d in attack.dice] == [20, 3, 4]  # critical: the rifle's 1d8 twice (ATK-14)
    res = fight.state.result
    assert res is not None and res.winner == "PCs" and res.wrecked == ("cycle1",) and res.left_behind == ("cycle2",)
    assert fight.all_events()[-1].kind == "result"
    assert fight.dice.remaining == 0
    assert res.xp_crs == ("1", "1")  # CHS-40: both riders (CR 1), each once; no hazard met


@pytest.mark.rule("CHS-05", "CHS-06")
def test_a_refused_command_changes_nothing_and_keeps_the_dice() -> None:
    fight = sample_fight(SAMPLE_DICE)
    do_all(fight, ROUND_ONE[:2])
    before = fight.state
    with pytest.raises(RuleViolation) as e:
        do_all(fight, [{"type": "progress"}])
    assert e.value.rule == "CHS-05"
    with pytest.raises(RuleViolation) as e2:
        do_all(fight, [{"type": "pilot", "vehicle": "cycle1", "action": "keep_pace"}])
    assert e2.value.rule == "CHS-05"  # not cycle1's turn
    assert fight.state is before and fight.dice.remaining == len(SAMPLE_DICE)


@pytest.mark.rule("CHS-06", "CHS-25")
def test_a_pilot_after_a_double_maneuver_has_no_standard_action() -> None:
    fight = sample_fight([18, 5, 12, 12])
    do_all(fight, [*ROUND_ONE[:5], {"type": "pilot", "vehicle": "cycle2", "action": "speed_up"}, {"type": "progress"}])
    with pytest.raises(RuleViolation) as e:
        do_all(fight, [{"type": "attack", "actor": "Pilot", "target": "cycle1"}])
    assert e.value.rule == "CHS-06"


def test_a_saved_chase_replays_without_dice(tmp_path: Path) -> None:
    fight = sample_fight(SAMPLE_DICE)
    do_all(fight, ROUND_ONE)
    path = tmp_path / "chase.jsonl"
    fight.save(path)
    again = ChaseFight.load(path, ScriptedDice([]))
    assert again.state == fight.state
    assert len(again.all_events()) == len(fight.all_events())
    again.undo()
    assert again.state.chase.phase == "chase_progress"


def test_undo_rewinds_the_dice() -> None:
    fight = ChaseFight(load_chase(SAMPLE), SeededDice(7), seed=7)
    do_all(fight, ROUND_ONE[:3])
    first = fight.all_events()[-1].checks[0]["natural"]
    fight.undo()
    do_all(fight, ROUND_ONE[2:3])
    assert fight.all_events()[-1].checks[0]["natural"] == first


def engaged_chase(**changes: Any) -> ChaseEncounter:
    data: dict[str, Any] = {
        "kind": "chase",
        "goal": {"side": "PCs", "wants": "catch"},
        "initiative": "listed",
        "vehicles": [
            {"id": "buggy", "side": "PCs", "vehicle": BUGGY,
             "pilot": {"id": "Pilot", "statblock": str(DATA / "driver.yaml")},
             "crew": [{"id": "Gunner", "statblock": str(DATA / "shooter.yaml")}]},
            {"id": "cycle", "side": "Gang", "vehicle": "basic enercycle",
             "pilot": {"id": "Y1", "statblock": str(DATA / "rider.yaml")}},
        ],
    }  # fmt: skip
    data.update(changes)
    parse_chase(data)  # valid as it stands
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "engaged.json"
        path.write_text(json.dumps(data))
        return load_chase(path)


ENGAGE = [
    {"type": "begin"},
    {"type": "pilot", "vehicle": "buggy", "action": "engage", "target": "cycle"},
    {"type": "pilot", "vehicle": "cycle", "action": "keep_pace"},
    {"type": "progress"},
]


@pytest.mark.rule("CHS-08", "CHS-18", "CHS-27")
def test_engage_then_board_with_the_dc_from_the_kac() -> None:
    # engage: 10 + 8 = 18 vs cycle KAC 12; cycle keep pace 1 + 7 = 8 vs 11 fails: it moves on with the buggy
    fight = ChaseFight(engaged_chase(), ScriptedDice([10, 1, 9]))
    do_all(fight, ENGAGE)
    chase = fight.state.chase
    assert chase.engagement("buggy") == {"buggy", "cycle"}
    assert chase.zones() == {"buggy": 1, "cycle": 1} and ("buggy", "cycle") in chase.virtual_ahead
    # board: Acrobatics 9 + 7 = 16 vs 5 + KAC 12 = 17: failure by 1, stays aboard the buggy
    do_all(fight, [{"type": "board", "actor": "Gunner", "to": "cycle"}])
    ev = fight.all_events()[-1]
    assert (ev.checks[0]["total"], ev.checks[0]["dc"], ev.checks[0]["success"]) == (16, 17, False)
    assert fight.state.rider("Gunner") is not None and fight.state.rider("Gunner").vehicle == "buggy"  # type: ignore[union-attr]
    with pytest.raises(RuleViolation):
        do_all(fight, [{"type": "board", "actor": "Gunner", "to": "cycle"}])  # one action each combat phase


@pytest.mark.rule("CHS-27")
def test_a_successful_boarding_moves_the_rider() -> None:
    fight = ChaseFight(engaged_chase(), ScriptedDice([10, 1, 15]))
    do_all(fight, [*ENGAGE, {"type": "board", "actor": "Gunner", "to": "cycle"}])
    rider = fight.state.rider("Gunner")
    assert rider is not None and rider.vehicle == "cycle"


@pytest.mark.rule("CHS-28")
def test_collision_damage_both_ways() -> None:
    # collide: Piloting 10 + 8 + 0 (+2 ahead: the buggy counts one zone ahead, CHS-18) = 20 vs KAC 12;
    # buggy collision 3d4 = 2+3+4 = 9: cycle takes 9 - hardness 5 = 4; the buggy takes half (4) - 5 = 0
    fight = ChaseFight(engaged_chase(), ScriptedDice([10, 1, 10, 2, 3, 4]))
    do_all(fight, [*ENGAGE, {"type": "collide", "vehicle": "buggy", "target": "cycle"}])
    ev = fight.all_events()[-1]
    assert ev.checks[0]["total"] == 20 and ev.checks[0]["dc"] == 12
    assert fight.state.chase.get("cycle").vehicle.state.hp == 3
    assert fight.state.chase.get("buggy").vehicle.state.hp == 30
    assert "Pilot" in fight.state.acted


@pytest.mark.rule("CHS-25", "CHS-17")
def test_shooting_the_pilot_leaves_the_vehicle_uncontrolled() -> None:
    fight = ChaseFight(engaged_chase(), ScriptedDice([10, 1, 19, 8]))
    do_all(fight, ENGAGE)
    # the gunner shoots the cycle's pilot: no cover on an enercycle; 19 + 6 - 2 + 2 (ahead, CHS-18) = 25 vs EAC 11
    hurt = fight.state.creature("Y1")[0].model_copy()
    do_all(fight, [{"type": "attack", "actor": "Gunner", "target": "cycle", "rider": "Y1"}])
    y1 = fight.state.creature("Y1")[0]
    assert y1.state.hp == hurt.state.hp - 8
    fight2 = ChaseFight(engaged_chase(), ScriptedDice([10, 1, 19, 8]))
    do_all(fight2, ENGAGE)
    low = fight2.state.chase.get("cycle")
    weak = low.pilot.with_state(hp=3)  # type: ignore[union-attr]
    fight2.state = fight2.state.model_copy(update={"chase": fight2.state.chase.with_vehicle(low.model_copy(
        update={"pilot": weak}))})  # fmt: skip
    do_all(fight2, [{"type": "attack", "actor": "Gunner", "target": "cycle", "rider": "Y1"}])
    cv = fight2.state.chase.get("cycle")
    assert cv.vehicle.state.control == "uncontrolled" and not cv.controlled
    assert any("uncontrolled" in line for line in fight2.all_events()[-1].lines)


@pytest.mark.rule("CHS-19", "CHS-30", "CHS-39")
def test_the_highway_sample_puts_oncoming_traffic_in_zone_2() -> None:
    start = engaged_chase(environment="highway")
    zone2 = start.chase.environment.zone(2)
    assert [h.name for h in zone2.hazards] == ["oncoming traffic"]
    # the cycle (zone 1 after a speed up) is attacked as it enters zone 2 in chase progress: +8 (CR 1) vs KAC 12
    start = start.model_copy(update={"chase": start.chase.with_vehicle(start.chase.get("cycle").model_copy(
        update={"zone": 1}))})  # fmt: skip
    fight = ChaseFight(start, ScriptedDice([1, 15, 5, 1, 1, 1, 1]))
    do_all(fight, [{"type": "begin"}, {"type": "pilot", "vehicle": "buggy", "action": "keep_pace"},
                   {"type": "pilot", "vehicle": "cycle", "action": "keep_pace"}, {"type": "progress"}])  # fmt: skip
    ev = next(e for e in fight.all_events() if e.kind == "progress")
    hazard = ev.checks[0]  # the hazard's attack roll as data: Table 8-4's +8 for CR 1
    assert (hazard["natural"], hazard["total"], hazard["dc"], terms(hazard)) == (5, 13, 12, [(8, "CHS-30")])
    assert [d["result"] for d in ev.dice] == [5, 1, 1, 1, 1]
    assert any("oncoming traffic attacks cycle: d20 5 +8 = 13 vs 12" in line for line in ev.lines)
    assert fight.state.chase.get("cycle").vehicle.state.hp == 7  # 4 damage - hardness 5
    assert [h.name for h in fight.state.hazards_met] == ["oncoming traffic"]  # for experience (CHS-40)


@pytest.mark.rule("CHS-16", "CHS-23")
def test_caught_when_engaged_at_the_end_of_the_round() -> None:
    fight = ChaseFight(engaged_chase(), ScriptedDice([10, 1]))
    do_all(fight, [*ENGAGE, {"type": "end_round"}])
    res = fight.state.result
    assert res is not None and res.winner == "PCs" and "engaged" in res.reason and res.rounds == 1


def test_the_round_limit_ends_the_chase_undecided() -> None:
    fight = ChaseFight(engaged_chase(max_rounds=1), ScriptedDice([1, 1]))
    do_all(fight, [{"type": "begin"}, {"type": "pilot", "vehicle": "buggy", "action": "slow_down"},
                   {"type": "pilot", "vehicle": "cycle", "action": "evade"}, {"type": "progress"},
                   {"type": "end_round"}])  # fmt: skip
    res = fight.state.result
    assert res is not None and res.winner is None and "undecided" in res.reason
    with pytest.raises(RuleViolation):
        do_all(fight, [{"type": "end_round"}])


@pytest.mark.rule("CHS-10", "CHS-12")
def test_the_policy_picks_the_move_with_more_expected_zones() -> None:
    assert chance(8, 18) == pytest.approx(0.55)
    start = load_chase(SAMPLE)
    for vid in ("cycle1", "cycle2"):
        start = start.model_copy(update={"chase": start.chase.with_vehicle(start.chase.get(vid).model_copy(
            update={"zone": 1}))})  # fmt: skip
    fight = ChaseFight(start, ScriptedDice([]))
    do_all(fight, [{"type": "begin"}])
    # the buggy (+8): speed up 2 x 0.55 + (0.75 - 0.55) = 1.3 beats keep pace 0.9 - 0.1 = 0.8
    cmd = next_command(fight.state)
    assert cmd.model_dump() == {"type": "pilot", "vehicle": "buggy", "action": "speed_up", "target": None,
                                "skill": "piloting", "route": None, "trick": None, "willing": False}  # fmt: skip
    # in the quarry's zone a pursuer engages instead (CHS-08)
    fight2 = ChaseFight(load_chase(SAMPLE), ScriptedDice([]))
    do_all(fight2, [{"type": "begin"}])
    assert next_command(fight2.state).model_dump()["action"] == "engage"


def test_the_policy_plays_a_chase_to_the_end_deterministically() -> None:
    a = auto_play(ChaseFight(load_chase(SAMPLE), SeededDice(3), seed=3))
    b = auto_play(ChaseFight(load_chase(SAMPLE), SeededDice(3), seed=3))
    assert a.state.result is not None and a.state == b.state
    assert [e.model_dump() for e in a.all_events()] == [e.model_dump() for e in b.all_events()]


def armed_buggy_chase() -> ChaseEncounter:
    import yaml

    from sftactics.io.files import load_model
    from sftactics.sf1e.vehicles.statblock import VehicleStat

    buggy = load_model(Path(BUGGY), VehicleStat).model_dump(mode="json")
    buggy["weapons"] = [
        {"weapon": {"name": "turret laser", "category": "longarm", "damage": "2d6 F", "range_ft": 100,
                    "targets": "eac"}},
        {"weapon": {"name": "dash gun", "category": "small_arm", "damage": "1d6 P", "range_ft": 60},
         "pilot_controlled": True},
    ]  # fmt: skip
    vehicles = [
        {"id": "buggy", "side": "PCs", "vehicle": yaml.safe_load(json.dumps(buggy)),
         "pilot": {"id": "Pilot", "statblock": str(DATA / "driver.yaml")},
         "crew": [{"id": "Gun", "statblock": str(DATA / "shooter.yaml"), "role": "gunner", "mounted": "turret laser"},
                  {"id": "Rider", "statblock": str(DATA / "shooter.yaml")}]},
        {"id": "cycle", "side": "Gang", "vehicle": "basic enercycle",
         "pilot": {"id": "Y1", "statblock": str(DATA / "rider.yaml")}},
    ]  # fmt: skip
    return engaged_chase(vehicles=vehicles)


KEEP_UP = [
    {"type": "begin"},
    {"type": "pilot", "vehicle": "buggy", "action": "keep_pace"},
    {"type": "pilot", "vehicle": "cycle", "action": "keep_pace"},
    {"type": "progress"},
]


@pytest.mark.rule("VEH-29", "CHS-25", "CHS-24")
def test_gunners_and_pilots_fire_mounted_weapons() -> None:
    # both keep pace (10 + 8 = 18 vs 11; 10 + 7 = 17 vs 11): same zone, 50 ft
    fight = ChaseFight(armed_buggy_chase(), ScriptedDice([10, 10, 15, 3, 4, 15, 2]))
    do_all(fight, KEEP_UP)
    do_all(fight, [{"type": "attack", "actor": "Gun", "target": "cycle"}])
    gun = fight.all_events()[-1]
    # the gunner's own bonus with the mounted laser: BAB 0 + Dex 3, -2 from the buggy = +1: 15 + 1 = 16 vs EAC 10
    assert gun.checks[0]["total"] == 16 and (-2, "CHS-24") in terms(gun.checks[0])
    assert any("[VEH-29]" in line for line in gun.lines)
    assert fight.state.chase.get("cycle").vehicle.state.hp == 5  # 2d6 = 7 - hardness 5
    do_all(fight, [{"type": "attack", "actor": "Pilot", "target": "cycle", "weapon": "dash gun"}])
    assert fight.all_events()[-1].checks[0]["total"] == 16


@pytest.mark.rule("VEH-29")
def test_mounted_weapons_off_the_controls_need_a_gunner() -> None:
    fight = ChaseFight(armed_buggy_chase(), ScriptedDice([10, 10]))
    do_all(fight, KEEP_UP)
    for actor in ("Pilot", "Rider"):
        with pytest.raises(RuleViolation) as e:
            do_all(fight, [{"type": "attack", "actor": actor, "target": "cycle", "weapon": "turret laser"}])
        assert e.value.rule == "VEH-29"


WRECKED = {"side": "PCs", "wants": "catch", "caught": "wrecked"}


def two(cycle_zone: int = 0, cycle_first: bool = False, **changes: Any) -> ChaseEncounter:
    """The buggy (Driver +8, with Gunner) and the cycle (Rider +5, vehicle +2), caught only when wrecked."""
    buggy = {"id": "buggy", "side": "PCs", "vehicle": BUGGY,
             "pilot": {"id": "Pilot", "statblock": str(DATA / "driver.yaml")},
             "crew": [{"id": "Gunner", "statblock": str(DATA / "shooter.yaml")}]}  # fmt: skip
    cycle = {"id": "cycle", "side": "Gang", "vehicle": "basic enercycle", "zone": cycle_zone,
             "pilot": {"id": "Y1", "statblock": str(DATA / "rider.yaml")}}  # fmt: skip
    vehicles = [cycle, buggy] if cycle_first else [buggy, cycle]
    return engaged_chase(vehicles=vehicles, goal=WRECKED, **changes)


@pytest.mark.rule("CHS-07", "CHS-16")
def test_break_free_against_5_plus_the_kac() -> None:
    # round 1: engage 10 + 8 = 18 vs 12, the cycle's keep pace fails (1); round 2: keep pace 10 + 8, break free
    # 12 + 5 + 2 = 19 vs 5 + KAC 14 = 19
    fight = ChaseFight(two(), ScriptedDice([10, 1, 10, 12]))
    do_all(fight, [*ENGAGE, {"type": "end_round"}, {"type": "pilot", "vehicle": "buggy", "action": "keep_pace"}])
    with pytest.raises(RuleViolation) as e:
        do_all(fight, [{"type": "pilot", "vehicle": "cycle", "action": "speed_up"}])
    assert e.value.rule == "CHS-16"
    do_all(fight, [{"type": "pilot", "vehicle": "cycle", "action": "break_free"}])
    ev = fight.all_events()[-1]
    assert [(t["value"], t["rule"]) for t in ev.dcs[0]["terms"]] == [(5, "CHS-07"), (14, "CHS-07")]
    assert ev.checks[0]["total"] == 19 and ev.checks[0]["success"]
    assert fight.state.chase.engagement("cycle") == frozenset()


@pytest.mark.rule("CHS-09")
def test_evade_adds_2_to_the_vehicles_ac_for_the_round() -> None:
    # keep pace 10 + 8 = 18; evade 10 + 7 = 17 vs 11; the gunner's rifle 11 + 6 - 2 = 15 vs EAC 10 + 2 = 12
    fight = ChaseFight(two(), ScriptedDice([10, 10, 11, 1]))
    do_all(fight, [{"type": "begin"}, {"type": "pilot", "vehicle": "buggy", "action": "keep_pace"},
                   {"type": "pilot", "vehicle": "cycle", "action": "evade"}, {"type": "progress"},
                   {"type": "attack", "actor": "Gunner", "target": "cycle"}])  # fmt: skip
    shot = fight.all_events()[-1]
    assert (shot.checks[0]["total"], shot.checks[0]["dc"]) == (15, 12)


@pytest.mark.rule("CHS-13", "CHS-03", "CHS-11")
def test_a_trick_ahead_gives_the_pilots_behind_minus_2() -> None:
    # the cycle (zone 1, ahead of all: +2) tricks: 10 + 7 + 2 = 19 vs 16; the buggy keeps pace: 10 + 8 - 2 = 16
    fight = ChaseFight(two(cycle_zone=1, cycle_first=True), ScriptedDice([10, 10]))
    do_all(fight, [{"type": "begin"}, {"type": "pilot", "vehicle": "cycle", "action": "trick"},
                   {"type": "pilot", "vehicle": "buggy", "action": "keep_pace"}])  # fmt: skip
    trick, keep = (e.checks[0] for e in fight.all_events()[-2:])
    assert trick["total"] == 19 and (2, "CHS-03") in terms(trick)
    assert keep["total"] == 16 and (-2, "CHS-13") in terms(keep)
    slow = ChaseFight(two(cycle_zone=1), ScriptedDice([10]))
    do_all(slow, [{"type": "begin"}, {"type": "pilot", "vehicle": "buggy", "action": "slow_down"},
                  {"type": "pilot", "vehicle": "cycle", "action": "keep_pace"},
                  {"type": "progress", "decline_escape": ["cycle"]}])  # fmt: skip
    # slow down: the buggy stays in zone 0; the cycle would escape (zone 2) but declines: one zone ahead (CHS-21)
    assert slow.state.chase.zones() == {"buggy": 0, "cycle": 1}
    assert slow.state.chase.get("cycle").status == "in" and slow.state.result is None


@pytest.mark.rule("CHS-26")
def test_melee_needs_an_engagement_and_a_reach_weapon() -> None:
    fight = ChaseFight(two(), ScriptedDice([10, 10, 12, 3]))
    do_all(fight, [{"type": "begin"}, {"type": "pilot", "vehicle": "buggy", "action": "keep_pace"},
                   {"type": "pilot", "vehicle": "cycle", "action": "keep_pace"}, {"type": "progress"}])  # fmt: skip
    with pytest.raises(RuleViolation) as e:
        do_all(fight, [{"type": "attack", "actor": "Gunner", "target": "cycle", "weapon": "pike"}])
    assert e.value.rule == "CHS-26"
    engaged = ChaseFight(two(), ScriptedDice([10, 1, 12, 3]))
    do_all(engaged, [*ENGAGE, {"type": "attack", "actor": "Gunner", "target": "cycle", "weapon": "pike"}])
    pike = engaged.all_events()[-1]
    # 12 + 5 - 2 (the buggy's penalty) + 2 (a zone ahead, CHS-18) = 17 vs KAC 12
    assert pike.checks[0]["total"] == 17 and any("reach weapon" in line for line in pike.lines)


@pytest.mark.rule("CHS-35", "CHS-33")
def test_a_split_route_chosen_ahead_gives_its_movement_modifier() -> None:
    env = {"sample": "desert", "zones": {"1": {"routes": ["narrow canyon"]}}}
    fight = ChaseFight(two(environment=env), ScriptedDice([10, 10, 10, 10]))
    do_all(fight, [{"type": "begin"},
                   {"type": "pilot", "vehicle": "buggy", "action": "keep_pace", "route": "narrow canyon"},
                   {"type": "pilot", "vehicle": "cycle", "action": "keep_pace"}, {"type": "progress"},
                   {"type": "end_round"}, {"type": "pilot", "vehicle": "buggy", "action": "keep_pace"}])  # fmt: skip
    assert fight.state.chase.get("buggy").route == "narrow canyon"
    keep = fight.all_events()[-1].checks[0]
    assert (2, "CHS-33") in terms(keep) and keep["total"] == 20  # 10 + 8 + 2 canyon shortcut


@pytest.mark.rule("CHS-25", "ACT-53", "CHS-17")
def test_a_pilot_full_attacks_only_after_leaving_the_vehicle_uncontrolled() -> None:
    # the cycle's pilot leaves it uncontrolled (it fails everything: stays); the buggy keeps pace (10 + 8)
    fight = ChaseFight(two(cycle_zone=1), ScriptedDice([10, 12, 17, 2]))
    do_all(fight, [{"type": "begin"}, {"type": "pilot", "vehicle": "buggy", "action": "keep_pace"},
                   {"type": "uncontrolled", "vehicle": "cycle"}, {"type": "progress"}])  # fmt: skip
    assert fight.state.chase.zones() == {"buggy": 1, "cycle": 1}
    with pytest.raises(RuleViolation) as e:
        do_all(fight, [{"type": "attack", "actor": "Pilot", "target": "cycle", "full_attack": True}])
    assert e.value.rule == "CHS-25"
    # Y1's pistol twice at -4: 12 + 4 - 1 (enercycle) - 2 (50 ft, 30-ft increment) - 4 = 9, then 17: 14 vs KAC 14
    do_all(fight, [{"type": "attack", "actor": "Y1", "target": "buggy", "full_attack": True}])
    ev = fight.all_events()[-1]
    assert [(c["natural"], c["total"], c["success"]) for c in ev.checks] == [(12, 9, False), (17, 14, True)]
    assert all((-4, "ACT-53") in terms(c) for c in ev.checks)
    assert fight.state.chase.get("buggy").vehicle.state.hp == 30  # 1d4 = 2, hardness 5


@pytest.mark.rule("CHS-38", "CHS-32")
def test_a_missed_shot_ricochets_into_a_vehicle_next_to_the_target() -> None:
    # the forest's ricocheting shots (10%); the cycle and an allied cycle are engaged; the gunner misses
    # (2 + 6 - 2 = 6 vs EAC 10), d% 7 <= 10: the shot hits the other cycle for 1d8 = 8 - hardness 5 = 3
    vehicles = [
        {"id": "buggy", "side": "PCs", "vehicle": BUGGY, "zone": 1,
         "pilot": {"id": "Pilot", "statblock": str(DATA / "driver.yaml")},
         "crew": [{"id": "Gunner", "statblock": str(DATA / "shooter.yaml")}]},
        {"id": "cycle", "side": "Gang", "vehicle": "basic enercycle", "zone": 1,
         "pilot": {"id": "Y1", "statblock": str(DATA / "rider.yaml")}},
        {"id": "other", "side": "Gang", "vehicle": "basic enercycle", "zone": 1,
         "pilot": {"id": "Y2", "statblock": str(DATA / "rider.yaml")}},
    ]  # fmt: skip
    env = {"sample": "forest", "everywhere": {"attacks": ["ricocheting shots"]}}
    start = engaged_chase(vehicles=vehicles, environment=env, goal=WRECKED)
    fight = ChaseFight(start, ScriptedDice([10]))  # engaging an ally takes no check (CHS-08)
    do_all(fight, [{"type": "begin"}, {"type": "pilot", "vehicle": "buggy", "action": "keep_pace"},
                   {"type": "pilot", "vehicle": "cycle", "action": "engage", "target": "other"},
                   {"type": "no_pilot_action", "vehicle": "other"}, {"type": "progress"}])  # fmt: skip
    assert fight.state.chase.engagement("cycle") == {"cycle", "other"}
    fight2 = ChaseFight(fight.state, ScriptedDice([2, 7, 8]))
    do_all(fight2, [{"type": "attack", "actor": "Gunner", "target": "cycle"}])
    ev = fight2.all_events()[-1]
    assert ev.checks[0]["total"] == 6 and not ev.checks[0]["success"]
    assert any("ricochets into other (d% 7 <= 10): damage 8 [CHS-38]" in line for line in ev.lines)
    assert fight2.state.chase.get("other").vehicle.state.hp == 4


@pytest.mark.rule("CHS-22", "CHS-20")
def test_the_gm_brings_back_a_vehicle_that_escaped() -> None:
    # the buggy and cycle2 fail their evades (1) and stay in zone 0; cycle1 speeds up (18 + 7 = 25 vs 18): zone 2,
    # two ahead of the buggy: it escapes while cycle2 is still in the chase
    fight = sample_fight([1, 18, 1])
    do_all(fight, [{"type": "begin"}, {"type": "pilot", "vehicle": "buggy", "action": "evade"},
                   {"type": "pilot", "vehicle": "cycle1", "action": "speed_up"},
                   {"type": "pilot", "vehicle": "cycle2", "action": "evade"}, {"type": "progress"}])  # fmt: skip
    assert fight.state.chase.get("cycle1").status == "escaped" and fight.state.result is None
    do_all(fight, [{"type": "rejoin", "vehicle": "cycle1", "zone": 0}])
    assert fight.state.chase.get("cycle1").status == "in" and fight.state.chase.get("cycle1").zone == 0
    assert "(GM) [CHS-22]" in fight.all_events()[-1].lines[0]


def test_a_loaded_seeded_chase_continues_the_same_dice_stream(tmp_path: Path) -> None:
    fight = ChaseFight(load_chase(SAMPLE), SeededDice(11), seed=11)
    do_all(fight, ROUND_ONE[:3])
    path = tmp_path / "c.jsonl"
    fight.save(path)
    again = ChaseFight.load(path)  # seeded with the log's seed, moved past the dice it rolled
    do_all(fight, ROUND_ONE[3:5])
    do_all(again, ROUND_ONE[3:5])
    assert again.state == fight.state
    assert [e.dice for e in again.all_events()] == [e.dice for e in fight.all_events()]
    again.undo()
    do_all(again, ROUND_ONE[4:5])
    assert again.state == fight.state  # undo after loading rewinds to the same dice
