import pytest

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.grid.geometry import Footprint
from sftactics.grid.map import Feature, GridMap
from sftactics.grid.space import Size
from sftactics.sf1e.objects import ObjectState
from sftactics.sf1e.vehicles import piloting as p
from sftactics.sf1e.vehicles.checks import check_bonus
from sftactics.sf1e.vehicles.heading import check_heading, forward_squares, straight_line, swept
from sftactics.sf1e.vehicles.options import VehicleOptions
from sftactics.sf1e.vehicles.state import Vehicle
from tests.builders import npc, pc
from tests.sf1e.vehicles.helpers import buggy_stat, cycle, enercycle_stat, foundry_stat, pilot, stat

YSOKI = pilot()  # Piloting +5; with the enercycle's +2: +7


@pytest.mark.rule("VEH-01")
def test_vehicles_are_objects_that_need_a_pilot() -> None:
    v = cycle(pilot_name=None)
    with pytest.raises(RuleViolation, match="VEH-01"):
        check_bonus(v, None)
    assert p.battle_mode(both_sides_in_vehicles=False) == "grid"
    assert p.battle_mode(both_sides_in_vehicles=True) == "chase"
    assert p.race_dc(cycle()) == 11  # item level feeds the DCs


@pytest.mark.rule("VEH-03")
def test_heading_is_an_edge() -> None:
    assert check_heading("e") == "E"
    with pytest.raises(RuleViolation, match="VEH-03"):
        check_heading("NE")
    r = p.drive(cycle(), YSOKI, distance_ft=20, heading="W")
    assert r.vehicle.state.heading == "W"


@pytest.mark.rule("VEH-04")
def test_straight_line_movement() -> None:
    start = Footprint(5, 10, 2)
    path = straight_line(start, "N", 20)
    assert [f.anchor for f in path] == [(5, 9), (5, 8), (5, 7), (5, 6)]
    assert forward_squares(20, 2) == 3  # 3 forward + 2 to the side = 5-10-5 count of 20 ft
    angled = straight_line(start, "N", 20, drift=2)
    assert angled[-1].anchor == (7, 7)
    assert straight_line(start, "E", 10, drift=-1)[-1].anchor == (7, 9)  # 2 east, 1 to the left (north)
    with pytest.raises(RuleViolation, match="VEH-04"):
        straight_line(start, "N", 10, drift=3)  # steeper than 45 degrees
    with pytest.raises(RuleViolation, match="VEH-04"):
        straight_line(start, "N", 20, drift=1, uncontrolled=True)


@pytest.mark.rule("VEH-05", "VEH-18", "VEH-23")
def test_control_and_initiative() -> None:
    v = cycle(pilot_name=None, moving=True)
    with pytest.raises(RuleViolation, match="VEH-18"):
        p.drive(v, YSOKI)
    taken = p.take_control(v, YSOKI, initiative=11)
    assert taken.cost == "move" and taken.vehicle.state.pilot == "Ysoki" and taken.vehicle.state.initiative == 11
    assert taken.distance_ft == 0  # it moves no farther during the action
    with pytest.raises(RuleViolation, match="VEH-18"):
        p.take_control(taken.vehicle, "Other")
    with pytest.raises(RuleViolation, match="VEH-18"):
        p.drive(taken.vehicle, pilot("Other"))
    lost = p.lose_control(taken.vehicle, "delayed")
    assert lost.vehicle.state.control == "uncontrolled" and lost.vehicle.state.initiative == 11
    assert "keeps initiative count 11" in lost.lines[0]


@pytest.mark.rule("VEH-06", "VEH-10")
def test_race() -> None:
    r = p.race(cycle(), YSOKI, ScriptedDice([4]))  # 4 + 7 = 11 vs DC 11 (moving)
    assert r.success and r.distance_ft == 200 and r.cost == "full"
    assert r.checks[0].dc == 11 and r.vehicle.state.raced_this_round and r.vehicle.state.last_piloting == 11
    assert p.aoo_ac_terms(r.vehicle)[0].value == 2
    dead = cycle(moving=False)
    r2 = p.race(dead, YSOKI, ScriptedDice([9]))  # 16 vs DC 16 from a dead stop
    assert r2.checks[0].dc == 16 and r2.success
    assert p.aoo_ac_terms(cycle()) == ()


@pytest.mark.rule("VEH-07")
def test_race_failures() -> None:
    stall = p.race(cycle(moving=False), YSOKI, ScriptedDice([8]))  # 15 vs 16
    assert stall.stalled and stall.distance_ft == 0 and not stall.vehicle.state.moving
    rough = p.race(cycle(), YSOKI, ScriptedDice([1]), terrain="rough")
    assert rough.distance_ft == 100 and rough.off_course is None and not rough.vehicle.state.raced_this_round
    flat = p.race(cycle(), YSOKI, ScriptedDice([1, 1]))
    assert flat.distance_ft == 200 and flat.off_course == (-90, -45)
    assert p.race(cycle(), YSOKI, ScriptedDice([1, 4])).off_course == (45, 90)


@pytest.mark.rule("VEH-08")
def test_unsafe_racing() -> None:
    grid = GridMap.build(12, 14).with_features([(4, 3)], Feature.SOLID)
    r = p.race(cycle(), YSOKI, ScriptedDice([15]), grid=grid)
    assert r.obstruction is not None and r.obstruction.kind == "terrain"
    assert r.path[-1].anchor == (4, 4)  # stops short of the wall square
    ok = p.unsafe_race(cycle(), YSOKI, ScriptedDice([14]))  # 21 vs 20 + 1
    assert ok.success and ok.checks[0].dc == 21
    bad = p.unsafe_race(cycle(), YSOKI, ScriptedDice([13]))
    assert not bad.success and "crashes or spins out" in bad.lines[0]
    assert not p.unsafe_race(cycle(pilot_name=None), None, ScriptedDice([])).success


@pytest.mark.rule("VEH-09", "VEH-17", "VEH-22")
def test_after_a_race() -> None:
    raced = p.race(cycle(), YSOKI, ScriptedDice([10])).vehicle
    nxt = p.new_round(raced)
    assert nxt.state.moving and nxt.state.moved_last_round
    with pytest.raises(RuleViolation, match="VEH-17"):
        p.stop(nxt)
    with pytest.raises(RuleViolation, match="VEH-09"):
        p.run_over(nxt, YSOKI, [], ScriptedDice([]))
    driven = p.drive(nxt, YSOKI).vehicle
    assert p.stop(driven).cost == "none" and not p.stop(driven).vehicle.state.moving
    with pytest.raises(RuleViolation, match="VEH-17"):
        p.stop_short(driven, YSOKI, ScriptedDice([10]))


@pytest.mark.rule("VEH-17", "EX-10")
def test_stop_short_ex10() -> None:
    raced = p.new_round(p.race(cycle(), YSOKI, ScriptedDice([10])).vehicle)
    r = p.stop_short(raced, YSOKI, ScriptedDice([10]))  # 10 + 7 = 17 -> 15 ft less (EX-10)
    assert r.checks[0].total == 17 and r.distance_ft == 200 - 15
    assert not r.vehicle.state.moving and r.cost == "move"
    fixed = p.stop_short(raced, YSOKI, ScriptedDice([10]), options=VehicleOptions(coast_after_race=30))
    assert fixed.distance_ft == 15
    assert p.stop_short(raced, YSOKI, ScriptedDice([20]), options=VehicleOptions(coast_after_race=20)).distance_ft == 0


@pytest.mark.rule("VEH-11", "VEH-12")
def test_ram_a_creature() -> None:
    target = npc()  # Ref +4, 25 HP
    # race 10 + 7 = 17; Reflex 2 + 4 = 6 vs collision DC 8; 2d4 = 3 + 4 = 7
    r = p.ram(cycle(), YSOKI, target, ScriptedDice([10, 2, 3, 4]))
    assert r.hit and r.target_damage == 14 and r.target.state.hp == 11  # type: ignore[union-attr]
    assert r.vehicle.state.hp == 7 and r.self_damage == 0  # half of 7 = 3, all stopped by hardness 5
    saved = p.ram(cycle(), YSOKI, target, ScriptedDice([10, 10]))
    assert not saved.hit and saved.target == target
    missed = p.ram(cycle(), YSOKI, target, ScriptedDice([1, 1]))  # failed race check: the ram fails
    assert not missed.hit and "ram misses" in missed.lines[-1]


@pytest.mark.rule("VEH-11", "VEH-12")
def test_ram_a_vehicle_attacker_wins_ties() -> None:
    rammer = cycle("rammer")
    victim = Vehicle.fresh(buggy_stat(), "buggy", started=True, pilot="Buddy")
    buddy = pilot("Buddy", 8)
    # rammer 10 + 7 = 17; the defender rolls 9 + 8 = 17: a tie, the rammer wins; damage 2d4 = 2 + 2
    tie = p.ram(rammer, YSOKI, victim, ScriptedDice([10, 9, 2, 2]), target_pilot=buddy)
    assert tie.hit and tie.target_damage == 8 - 5  # doubled roll 8, less the buggy's hardness 5
    dodge = p.ram(rammer, YSOKI, victim, ScriptedDice([10, 10]), target_pilot=buddy)
    assert not dodge.hit
    opt = VehicleOptions(ram_damage="roll_per_multiple", hardness_vs_attacks="ignored")
    twice = p.ram(rammer, YSOKI, victim, ScriptedDice([10, 1, 1, 2, 4, 4]), target_pilot=buddy, options=opt)
    assert twice.target_damage == 3 + 8 and twice.self_damage == 1  # two rolls for the target; half the first
    wall = p.ram(rammer, YSOKI, ObjectState("door", 20, 20, hardness=5), ScriptedDice([10, 4, 4]))
    assert wall.target.hp == 20 - (16 - 5)  # type: ignore[union-attr]


@pytest.mark.rule("VEH-13")
def test_run_over() -> None:
    small = pc(name="Small", size="small", base_saves={"fort": 0, "ref": 0, "will": 0})  # Ref +2 (Dex)
    tiny = pc(name="Tiny", size="tiny")
    # 2d4 = 3 + 4 = 7 once for everyone; Small: Ref 2 + 2 = 4 vs 8 fails (7); Tiny: 18 saves (3)
    r = p.run_over(cycle(), YSOKI, [small, tiny], ScriptedDice([3, 4, 2, 18]), distance_ft=40)
    assert r.hit == ("Small", "Tiny") and r.distance_ft == 40
    assert r.victims[0].state.sp == 28 - 7 and r.victims[1].state.sp == 28 - 3  # type: ignore[union-attr]
    assert r.vehicle.state.run_over == {"Small", "Tiny"}
    again = p.run_over(r.vehicle, YSOKI, [small], ScriptedDice([1, 1]), distance_ft=10)
    assert again.hit == () and "already run over" in again.lines[-1]
    assert p.run_over(p.new_round(r.vehicle), YSOKI, [small], ScriptedDice([1, 1, 20])).hit == ("Small",)
    with pytest.raises(RuleViolation, match="two size categories"):
        p.run_over(cycle(), YSOKI, [pc(name="Medium")], ScriptedDice([]))
    with pytest.raises(RuleViolation, match="twice the drive speed"):
        p.run_over(cycle(), YSOKI, [], ScriptedDice([]), distance_ft=45)


@pytest.mark.rule("VEH-13")
def test_run_over_stops_when_the_vehicle_breaks_down() -> None:
    frail = Vehicle.fresh(stat(enercycle_stat(), hp=3, broken_threshold=1, hardness=0), "frail", started=True,
                          pilot="Ysoki")  # fmt: skip
    a, b = pc(name="A", size="small"), pc(name="B", size="small")
    # 2d4 = 4 + 4 = 8, half 4 wrecks the 3-HP vehicle at the first victim
    r = p.run_over(frail, YSOKI, [a, b], ScriptedDice([4, 4, 1]))
    assert r.stopped_early and r.hit == ("A",) and r.victims[1] == b and r.vehicle.wrecked
    spaces = {"A": Footprint(5, 6), "B": Footprint(5, 2), "C": Footprint(9, 9)}
    assert swept(straight_line(Footprint(5, 10, 2), "N", 40), spaces) == ["A", "B"]


@pytest.mark.rule("VEH-13")
def test_run_over_paths() -> None:
    grid = GridMap.build(12, 14)
    v = cycle()  # at (4, 10), heading N, 2 x drive speed = 40 ft
    small = {"gob": Footprint(4, 7)}
    big = {"ogre": Footprint(4, 4, 2)}
    free = p.run_over_path(v, grid, goal=(4, 6), blockers=big)
    assert free[-1].anchor == (4, 6) and swept(free, small) == ["gob"]
    with pytest.raises(RuleViolation, match="VEH-15"):
        p.run_over_path(v, grid, goal=(4, 4), blockers=big)  # cannot end on a creature it cannot run over
    straight = p.run_over_path(v, grid, blockers=big, options=VehicleOptions(run_over_movement="straight"))
    assert straight[-1].anchor == (4, 6)  # stops before the ogre's space
    with pytest.raises(RuleViolation, match="goal"):
        p.run_over_path(v, grid)


@pytest.mark.rule("VEH-14")
def test_boarding_on_the_grid() -> None:
    rider = pc(name="Rider")  # Acrobatics 0 (no skill printed)
    still = p.boarding(rider, cycle(moving=False), ScriptedDice([]), moving=False)
    assert still.boarded and still.check is None
    ok = p.boarding(rider, cycle(), ScriptedDice([17]))  # DC 5 + KAC 12 = 17
    assert ok.boarded and ok.check is not None and ok.check.dc == 17
    near = p.boarding(rider, cycle(), ScriptedDice([13]))
    assert not near.boarded and not near.fell
    fell = p.boarding(rider, cycle(), ScriptedDice([12, 5]))  # failed by 5: falls 3 ft, 1d6 = 5
    assert fell.fell and fell.creature.has("prone") and fell.creature.state.sp == 28 - 5
    assert p.boarding(rider, cycle(), ScriptedDice([]), options=VehicleOptions(board_moving_dc="none")).boarded


@pytest.mark.rule("VEH-15")
def test_drive_on_the_grid() -> None:
    grid = GridMap.build(12, 14)
    v = cycle()
    r = p.drive(v, YSOKI, grid=grid, goal=(3, 6), occupied=[(5, 8)], heading="N")
    assert r.vehicle.state.position == (3, 6) and r.distance_ft == 20 and r.path[-1].anchor == (3, 6)
    assert all(not f.contains((5, 8)) for f in r.path)  # never through a creature's square, even an ally's
    with pytest.raises(RuleViolation, match="VEH-15"):
        p.drive(v, YSOKI, grid=grid, goal=(4, 6), occupied=[(4, 8), (3, 8), (6, 8), (2, 8)])
    threat = {"goblin": frozenset({(4, 9), (5, 9)})}
    provoked = p.drive(v, YSOKI, grid=grid, goal=(4, 7), threats=threat)
    assert provoked.provocations and provoked.provocations[0].enemy == "goblin"
    with pytest.raises(RuleViolation, match="VEH-15"):
        p.drive(v, YSOKI, grid=grid, goal=(4, 2))
    with pytest.raises(RuleViolation, match="VEH-15"):
        p.drive(v, YSOKI, distance_ft=25)
    assert p.occupant_provokes(v, True) and not p.occupant_provokes(Vehicle.fresh(foundry_stat("water_bear")), True)


@pytest.mark.rule("VEH-16")
def test_starting_a_vehicle() -> None:
    off = Vehicle.fresh(enercycle_stat(), "cycle", pilot="Ysoki")
    with pytest.raises(RuleViolation, match="VEH-16"):
        p.drive(off, YSOKI)
    assert p.start_vehicle(off).vehicle.state.started and p.start_vehicle(off).cost == "move"
    fussy = Vehicle.fresh(stat(foundry_stat("hovertrike"), systems={"start_actions": 2}))
    with pytest.raises(RuleViolation, match="2 move actions"):
        p.start_vehicle(fussy)
    assert p.start_vehicle(fussy, actions=2).vehicle.state.started


@pytest.mark.rule("VEH-19", "VEH-26")
def test_autocontrol() -> None:
    bear = Vehicle.fresh(foundry_stat("water_bear"), "bear", started=True, pilot="Ysoki")
    with pytest.raises(RuleViolation, match="VEH-19"):
        p.engage_autocontrol(bear)  # no drive or race yet
    with pytest.raises(RuleViolation, match="no autocontrol"):
        p.engage_autocontrol(cycle())
    driven = p.drive(bear, YSOKI).vehicle
    auto = p.engage_autocontrol(driven)
    assert auto.cost == "swift" and auto.vehicle.state.control == "autocontrol" and not auto.vehicle.controlled
    turn = p.unpiloted_turn(p.new_round(auto.vehicle))
    assert turn.distances == (25, 25)
    raced = p.race(p.new_round(driven), YSOKI, ScriptedDice([11])).vehicle  # 11 + 5 = 16 vs 10 + 6
    rauto = p.engage_autocontrol(raced).vehicle
    rturn = p.unpiloted_turn(p.new_round(rauto))
    assert rturn.distances == (600,) and rturn.checks[0].total == 16 and rturn.checks[0].success
    back = p.disengage_autocontrol(rauto, YSOKI)
    assert back.vehicle.state.control == "pilot"


@pytest.mark.rule("VEH-20", "VEH-27")
def test_autopilot() -> None:
    walker = Vehicle.fresh(foundry_stat("heavy_walker"), "walker", started=True)
    with pytest.raises(RuleViolation, match="VEH-01"):
        p.drive(walker, None)
    on = p.engage_autopilot(walker).vehicle
    assert on.controlled and check_bonus(on, None).total == 26
    assert p.set_destination(on, (3, 3)).vehicle.state.destination == (3, 3)
    assert p.set_destination(on, (3, 3)).cost == "move"
    with pytest.raises(RuleViolation, match="VEH-27"):
        p.ram(on, None, npc(), ScriptedDice([]))
    war = on.model_copy(update={"stat": stat(on.stat, systems={"autopilot": 26, "war_machine": True})})
    assert p.ram(war.with_state(moved_last_round=True), None, npc(), ScriptedDice([1, 20])).move.success
    with pytest.raises(RuleViolation, match="no autopilot"):
        p.engage_autopilot(cycle())
    off = p.disengage_autopilot(on, YSOKI).vehicle
    assert off.state.control == "pilot" and off.state.pilot == "Ysoki"


@pytest.mark.rule("VEH-21")
def test_relinquish() -> None:
    handed = p.relinquish(cycle(), "Friend")
    assert handed.cost == "swift" and handed.vehicle.state.pilot == "Friend"
    dropped = p.relinquish(cycle())
    assert dropped.vehicle.state.control == "uncontrolled"
    with pytest.raises(RuleViolation, match="VEH-21"):
        p.relinquish(dropped.vehicle)


@pytest.mark.rule("VEH-24")
def test_uncontrolled_vehicle_slows_down() -> None:
    raced = p.race(cycle(), YSOKI, ScriptedDice([10])).vehicle
    loose = p.new_round(p.lose_control(raced, "knocked out").vehicle)
    t1 = p.unpiloted_turn(loose)
    assert t1.distances == (150, 110) and t1.vehicle.state.moving  # 3/4 of 200, then of 150 (112.5 -> 110)
    drove = p.new_round(p.lose_control(p.drive(cycle(), YSOKI).vehicle).vehicle)
    t2 = p.unpiloted_turn(drove)
    assert t2.distances == (15, 10)
    t3 = p.unpiloted_turn(p.new_round(t2.vehicle))
    assert t3.distances == (5,) and not t3.vehicle.state.moving
    assert p.unpiloted_turn(p.new_round(t3.vehicle)).distances == ()
    zero_g = p.unpiloted_turn(drove, factor=1.0)
    assert zero_g.distances == (20, 20)
    with pytest.raises(RuleViolation, match="VEH-24"):
        p.unpiloted_turn(cycle())


@pytest.mark.rule("VEH-25")
def test_crashes() -> None:
    grid = GridMap.build(12, 14).with_features([(4, 6)], Feature.SOLID)
    loose = p.new_round(p.lose_control(p.drive(cycle(), YSOKI).vehicle).vehicle)
    move = p.unpiloted_turn(loose, grid=grid)
    assert move.obstruction is not None and move.vehicle.state.position == (4, 7)
    # double collision damage to both, rolled once: 2d4 = 4 + 4 -> 16
    c = p.crash(move.vehicle, ScriptedDice([4, 4]), ObjectState("pillar", 30, 30, hardness=8))
    assert c.crashed and c.damage == 16 and c.obstacle is not None and c.obstacle.hp == 22  # type: ignore[union-attr]
    assert c.vehicle.wrecked and not c.vehicle.state.moving  # 16 - 5 = 11 > 7 HP
    other = Vehicle.fresh(buggy_stat(), "buggy", started=True, pilot="Buddy")
    buddy = pilot("Buddy", 8)
    dodged = p.crash(move.vehicle, ScriptedDice([1]), other, obstacle_pilot=buddy)  # 9 beats the collision DC 8
    assert not dodged.crashed and "keeps moving" in dodged.lines[-1]
    tie = p.crash(move.vehicle, ScriptedDice([1, 1, 1]), other, obstacle_pilot=pilot("Slow", 7))  # 8 = 8: crash
    assert tie.crashed


@pytest.mark.rule("VEH-28", "CHS-24")
def test_attack_penalties() -> None:
    assert p.attack_penalty(cycle(moving=False)) == ()
    assert p.attack_penalty(cycle())[0].value == -1
    raced = p.race(cycle(), YSOKI, ScriptedDice([10])).vehicle
    assert p.attack_penalty(raced)[0].value == -2
    assert p.attack_penalty(p.new_round(raced))[0].value == -2  # still within the last round
    later = p.new_round(p.drive(p.new_round(raced), YSOKI).vehicle)
    assert p.attack_penalty(later)[0].value == -1
    assert p.attack_penalty(raced, chase=True)[0].value == -1


@pytest.mark.rule("VEH-29")
def test_firing_vehicle_weapons() -> None:
    walker = Vehicle.fresh(foundry_stat("heavy_walker"), "walker", started=True).with_state(moving=True)
    assert p.vehicle_weapon_terms(walker, "Reaction cannon, advanced", by_pilot=False) == ()
    with pytest.raises(RuleViolation, match="gunner"):
        p.vehicle_weapon_terms(walker, "Reaction cannon, advanced", by_pilot=True)
    bound = stat(walker.stat, weapons=[{**walker.stat.weapons[0].model_dump(), "pilot_controlled": True}])
    wv = walker.model_copy(update={"stat": bound})
    assert p.vehicle_weapon_terms(wv, "reaction cannon, advanced", by_pilot=True) == ()
    with pytest.raises(RuleViolation, match="full action"):
        p.vehicle_weapon_terms(wv, "Reaction cannon, advanced", by_pilot=True, pilot_full_action=True)
    gun = Vehicle.fresh(stat(enercycle_stat(), weapons=[{"weapon": {"name": "gun", "damage": "1d6 P"}}]))
    assert p.vehicle_weapon_terms(gun.with_state(moving=True), "gun", by_pilot=False)[0].value == -1


@pytest.mark.rule("VEH-31")
def test_escaping_on_a_vehicle() -> None:
    assert p.foot_escape(60, 120, volley_taken=False) == "in reach"
    assert p.foot_escape(200, 120, volley_taken=False) == "last volley"
    assert p.foot_escape(200, 120, volley_taken=True) == "escaped"


@pytest.mark.rule("VEH-33")
def test_passenger_cover_and_terrain() -> None:
    kind, ac, ref = p.passenger_cover(Vehicle.fresh(foundry_stat("hovertrike")))
    assert kind.name == "PARTIAL" and ac[0].value == 2 and ref[0].value == 1
    assert p.passenger_cover(cycle())[1] == ()
    huge = Vehicle.fresh(stat(enercycle_stat(), size="colossal"))
    assert p.is_terrain(huge) and not p.is_terrain(cycle()) and p.is_terrain(cycle(), gm=True)
    assert not p.is_terrain(huge, options=VehicleOptions(terrain_size="never"))
    assert Size(huge.stat.size) is Size.COLOSSAL
