"""Vehicles in a grid battle: pilot actions, uncontrolled vehicles, collisions, attacking from a vehicle
(VEH-01, VEH-05..33).

Every function is pure: it takes a :class:`~sftactics.sf1e.vehicles.state.Vehicle` (and the creatures or objects
involved) and returns a result object with the new values, the d20 checks rolled and explanation lines that end in
the rule ID. A refused action raises :class:`~sftactics.core.errors.RuleViolation` before anything is rolled.
Spending the actions (:data:`ACTION_COST`) and moving tokens are the encounter engine's job; where a function
takes a ``grid`` it only computes the path (``sftactics.sf1e.vehicles.heading``).

Summary of the numbers:

* race (full): Piloting DC 10 + item level, +5 from a dead stop; failure stalls (dead stop), or moves half full
  speed (rough terrain) or full speed off course into a d4 arc (flat terrain) (VEH-06, VEH-07); unsafe racing:
  DC 20 + item level when it meets the obstacle, failure crashes or spins out (VEH-08);
* ram (full): a race with a ram at the end; a creature saves (Reflex vs collision DC) to avoid it, a vehicle's
  pilot makes a Piloting check against the rammer's result (the rammer wins ties); the target takes double the
  collision damage, the rammer half (VEH-11, VEH-12);
* run over (full): up to twice the drive speed over creatures two or more sizes smaller; collision damage
  rolled once, Reflex vs collision DC for half; the vehicle takes half the roll for each creature; once per
  round per creature (VEH-13);
* stop short (move): the distance the vehicle coasts after a race is cut by the Piloting result, rounded down to
  5 ft (VEH-17, EX-10);
* uncontrolled: two straight drives at the heading, each 3/4 of the last (VEH-24); crashing into something deals
  double collision damage to both (VEH-25);
* attacking from a vehicle: its attack penalty while it moves, the larger one after moving at full speed in the
  last round, none when stopped (VEH-28).

The rules live in smaller modules, re-exported here:

* :mod:`~sftactics.sf1e.vehicles.pilot_guards` - what each action costs, :class:`PilotResult`, the guards every
  pilot action passes (VEH-01, VEH-09, VEH-16, VEH-18, VEH-20);
* :mod:`~sftactics.sf1e.vehicles.racing` - race, unsafe race, ram and run over (VEH-06..13);
* :mod:`~sftactics.sf1e.vehicles.uncontrolled` - vehicles nobody pilots, autocontrol and crashes (VEH-24..26);
* :mod:`~sftactics.sf1e.vehicles.riders` - boarding, attacking from a vehicle, passengers' cover, escaping on foot
  (VEH-10, VEH-14, VEH-15, VEH-28..33).

This module keeps the new round (VEH-06, VEH-13, VEH-28), grid or chase (VEH-01, VEH-31) and the move and swift
actions: start, drive, stop, stop short, taking and handing over control, autocontrol, autopilot (VEH-15..23,
VEH-27).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Literal

from sftactics.core.breakdown import Term
from sftactics.core.check import CheckKind, judge
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.grid.geometry import Footprint, Square
from sftactics.grid.map import GridMap
from sftactics.grid.movement import Provocation
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles.checks import PilotLike, check_bonus, floor5
from sftactics.sf1e.vehicles.heading import check_heading, drive_path
from sftactics.sf1e.vehicles.options import DEFAULT_VEHICLE_OPTIONS, VehicleOptions
from sftactics.sf1e.vehicles.pilot_guards import (
    ACTION_COST,
    AFTER_RACE,
    PilotResult,
    _after_race,
    _moved,
    _pilot_name,
    _require_control,
)
from sftactics.sf1e.vehicles.pilot_guards import ActionCost as ActionCost
from sftactics.sf1e.vehicles.pilot_guards import Terrain as Terrain
from sftactics.sf1e.vehicles.racing import (
    RamResult,
    RunOverResult,
    race,
    race_dc,
    ram,
    run_over,
    run_over_path,
    unsafe_race,
)
from sftactics.sf1e.vehicles.riders import (
    BoardResult,
    aoo_ac_terms,
    attack_penalty,
    boarding,
    falling_damage,
    foot_escape,
    is_terrain,
    occupant_provokes,
    passenger_cover,
    vehicle_weapon_terms,
)
from sftactics.sf1e.vehicles.state import Vehicle, drive_speed, full_speed
from sftactics.sf1e.vehicles.uncontrolled import CrashResult, UnpilotedMove, crash, unpiloted_turn

# ---------------------------------------------------------------- a new round, grid or chase


def new_round(vehicle: Vehicle) -> Vehicle:
    """The vehicle at the start of a new round: this round's movement becomes last round's (dead stop, VEH-06;
    full speed during the last round, VEH-28); run-over victims are forgotten (VEH-13); a vehicle that did not
    move and was not racing has stopped."""
    st = vehicle.state
    moving = st.moving if (st.moved_this_round or st.last_action == "race") else False
    return vehicle.with_state(
        moved_last_round=st.moved_this_round,
        raced_last_round=st.raced_this_round,
        moved_this_round=False,
        raced_this_round=False,
        run_over=frozenset(),
        moving=moving,
    )


def battle_mode(*, both_sides_in_vehicles: bool) -> Literal["grid", "chase"]:
    """VEH-01, VEH-31: vehicles against creatures on foot fight on the grid; vehicles pursuing vehicles over long
    distances use the chase rules."""
    return "chase" if both_sides_in_vehicles else "grid"


# ---------------------------------------------------------------- move and swift actions


def start_vehicle(vehicle: Vehicle, actions: int = 1) -> PilotResult:
    """VEH-16: firing the ignition is a move action; a vehicle with a multistage start needs more of them."""
    need = vehicle.stat.systems.start_actions
    if vehicle.wrecked:
        raise RuleViolation("VEH-32", f"{vehicle.name} is wrecked: it will not start")
    if actions < need:
        raise RuleViolation("VEH-16", f"{vehicle.name} needs {need} move actions to start, not {actions}")
    v = vehicle.with_state(started=True)
    return PilotResult(v, "start", "move", lines=(f"{vehicle.name} starts ({need} move action(s)) [VEH-16]",))


def drive(
    vehicle: Vehicle,
    pilot: PilotLike | None,
    *,
    distance_ft: int | None = None,
    heading: str | None = None,
    grid: GridMap | None = None,
    goal: Square | None = None,
    occupied: Collection[Square] = (),
    threats: Mapping[str, Collection[Square]] | None = None,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> PilotResult:
    """VEH-15: move up to the drive speed, turning as needed, and set the heading at the end (VEH-03).

    With a ``grid``, a ``goal`` and the vehicle's ``position``, the path is found on the grid: creatures'
    squares (``occupied``) can never be passed, allies' included, and the attacks of opportunity the vehicle
    provokes (``threats``) are reported. Otherwise ``distance_ft`` (default: the whole drive speed) is checked
    against the speed."""
    _require_control(vehicle, pilot, "drive")
    _after_race(vehicle, "drive")
    speed = drive_speed(vehicle, options).total
    new_heading = check_heading(heading) if heading else vehicle.state.heading
    path: tuple[Footprint, ...] = ()
    provs: tuple[Provocation, ...] = ()
    pos = vehicle.state.position
    if grid is not None and goal is not None:
        if pos is None:
            raise RuleViolation("VEH-15", f"{vehicle.name} has no position on the grid")
        start = Footprint(pos[0], pos[1], vehicle.stat.side_squares)
        priced = drive_path(grid, start, goal, vehicle.stat.grid_size, speed, occupied=occupied, threats=threats)
        distance = priced.cost_ft
        path, provs, pos = priced.positions[1:], priced.provocations, priced.end.anchor
    else:
        distance = speed if distance_ft is None else distance_ft
        if not 0 <= distance <= speed:
            raise RuleViolation("VEH-15", f"{vehicle.name} drives up to {speed} ft, not {distance}")
    v = _moved(vehicle, "drive", distance, full=False, heading=new_heading, position=pos)
    lines = [
        f"{_pilot_name(pilot)} drives {vehicle.name} {distance} ft (drive speed {speed} ft), heading {new_heading} "
        "[VEH-15]",
    ]
    if distance:
        lines.append(f"a driving vehicle provokes attacks of opportunity ({len(provs)} on this path) [VEH-15]")
    return PilotResult(v, "drive", "move", True, distance, (), tuple(lines), path, provs)


def stop(vehicle: Vehicle) -> PilotResult:
    """VEH-22: stopping after a drive takes no action. After a race it takes a stop short (VEH-17)."""
    st = vehicle.state
    if st.moving and st.last_action in ("race", "ram"):
        raise RuleViolation("VEH-17", f"{vehicle.name} is racing: stopping takes a stop short (a move action)")
    return PilotResult(vehicle.with_state(moving=False), "stop", "none", lines=(f"{vehicle.name} stops [VEH-22]",))


def stop_short(
    vehicle: Vehicle,
    pilot: PilotLike | None,
    dice: DiceSource,
    *,
    extra: Sequence[Term] = (),
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> PilotResult:
    """VEH-17: after a race the vehicle coasts before it stops (option ``coast_after_race``: its full speed); a
    Piloting check takes its result, rounded down to 5 ft, off that distance (EX-10: 17 -> 15 ft less)."""
    _require_control(vehicle, pilot, "stop short")
    if vehicle.state.last_action not in ("race", "ram") or not vehicle.state.moving:
        raise RuleViolation("VEH-17", f"{vehicle.name} is not racing: stopping after a drive takes no action")
    coast = full_speed(vehicle, options).total if options.coast_after_race == "full_speed" else options.coast_after_race
    bonus = check_bonus(vehicle, pilot, extra=extra, options=options)
    natural = dice.d20(f"{vehicle.name} stop short")
    check = judge(CheckKind.SKILL, bonus, 0, natural, note="no DC: the result shortens the stop")
    cut = floor5(check.total)
    distance = max(0, coast - cut)
    v = vehicle.with_state(
        moving=False, moved_this_round=vehicle.state.moved_this_round or distance > 0, last_action=None,
        last_move_ft=distance, last_piloting=check.total,
    )  # fmt: skip
    lines = (
        f"stop short: Piloting d20 {natural} {bonus.total:+d} = {check.total} [VEH-17]",
        f"{vehicle.name} would coast {coast} ft; {check.total} rounded down to 5 ft = {cut} ft less: "
        f"it stops after {distance} ft [VEH-17]",
    )
    return PilotResult(v, "stop_short", "move", True, distance, (check,), lines)


def take_control(vehicle: Vehicle, pilot: Creature | str, initiative: int | None = None) -> PilotResult:
    """VEH-18: a move action; the vehicle moves no farther during it, then moves on the new pilot's initiative
    count (VEH-05) and the pilot may spend the rest of the turn piloting it."""
    who = pilot.id if isinstance(pilot, Creature) else pilot
    if vehicle.controlled:
        raise RuleViolation("VEH-18", f"{vehicle.name} is already controlled ({vehicle.state.pilot or 'autopilot'})")
    if vehicle.state.control == "autocontrol":
        raise RuleViolation("VEH-19", f"{vehicle.name} is on autocontrol: disengage it (a swift action)")
    v = vehicle.with_state(control="pilot", pilot=who, initiative=initiative)
    when = f" on initiative count {initiative}" if initiative is not None else ""
    return PilotResult(v, "take_control", "move", lines=(f"{who} takes control of {vehicle.name}{when} [VEH-18]",))


def relinquish(vehicle: Vehicle, to: Creature | str | None = None, initiative: int | None = None) -> PilotResult:
    """VEH-21: a swift action handing the vehicle to another pilot; with nobody taking over it is uncontrolled."""
    if vehicle.state.control != "pilot":
        raise RuleViolation("VEH-21", f"{vehicle.name} has no pilot to relinquish it")
    if to is None:
        v = vehicle.with_state(control="uncontrolled", pilot=None)
        line = f"{vehicle.state.pilot} lets go of {vehicle.name}: it is uncontrolled [VEH-21]"
    else:
        who = to.id if isinstance(to, Creature) else to
        v = vehicle.with_state(pilot=who, initiative=initiative if initiative is not None else vehicle.state.initiative)
        line = f"{vehicle.state.pilot} hands {vehicle.name} to {who} [VEH-21]"
    return PilotResult(v, "relinquish", "swift", lines=(line,))


def lose_control(
    vehicle: Vehicle, reason: Literal["knocked out", "stopped piloting", "delayed"] = "stopped piloting"
) -> PilotResult:
    """VEH-23: a pilot knocked out, or no longer piloting, leaves the vehicle uncontrolled. A pilot who delays
    does too, and the vehicle keeps acting on the initiative count it had (the counts separate)."""
    if vehicle.state.control != "pilot":
        return PilotResult(vehicle, "lose_control", "none", lines=(f"{vehicle.name} has no pilot [VEH-23]",))
    v = vehicle.with_state(control="uncontrolled", pilot=None)
    when = vehicle.state.initiative
    tail = f"; it keeps initiative count {when}" if when is not None else ""
    return PilotResult(
        v,
        "lose_control",
        "none",
        lines=(f"{vehicle.state.pilot} {reason}: {vehicle.name} is uncontrolled{tail} [VEH-23]",),
    )


def engage_autocontrol(vehicle: Vehicle) -> PilotResult:
    """VEH-19, VEH-26: a swift action right after a drive or race this turn; the vehicle is then uncontrolled but
    repeats that movement each round, with the pilot's last Piloting result."""
    st = vehicle.state
    if not vehicle.stat.systems.autocontrol:
        raise RuleViolation("VEH-19", f"{vehicle.name} has no autocontrol")
    if st.control != "pilot" or not st.moved_this_round or st.last_action not in ("drive", "race"):
        raise RuleViolation("VEH-19", "autocontrol is engaged after a drive or race action")
    v = vehicle.with_state(control="autocontrol", pilot=None)
    return PilotResult(
        v, "engage_autocontrol", "swift",
        lines=(f"{vehicle.name} autocontrol engaged: repeats its {st.last_action} each round [VEH-19] [VEH-26]",),
    )  # fmt: skip


def disengage_autocontrol(vehicle: Vehicle, pilot: Creature | str) -> PilotResult:
    """VEH-19: a swift action, at any time; whoever disengages it pilots the vehicle."""
    if vehicle.state.control != "autocontrol":
        raise RuleViolation("VEH-19", f"{vehicle.name} autocontrol is not engaged")
    who = pilot.id if isinstance(pilot, Creature) else pilot
    v = vehicle.with_state(control="pilot", pilot=who)
    return PilotResult(v, "disengage_autocontrol", "swift", lines=(f"{who} disengages the autocontrol [VEH-19]",))


def engage_autopilot(vehicle: Vehicle) -> PilotResult:
    """VEH-20, VEH-27: a swift action; the vehicle counts as controlled while the autopilot is engaged."""
    if vehicle.stat.systems.autopilot is None:
        raise RuleViolation("VEH-20", f"{vehicle.name} has no autopilot")
    v = vehicle.with_state(control="autopilot", pilot=None)
    return PilotResult(v, "engage_autopilot", "swift", lines=(f"{vehicle.name} autopilot engaged [VEH-20]",))


def disengage_autopilot(vehicle: Vehicle, pilot: Creature | str | None = None) -> PilotResult:
    """VEH-20: a swift action; the creature that disengages it pilots the vehicle (or nobody does)."""
    if vehicle.state.control != "autopilot":
        raise RuleViolation("VEH-20", f"{vehicle.name} autopilot is not engaged")
    who = pilot.id if isinstance(pilot, Creature) else pilot
    v = vehicle.with_state(control="pilot" if who else "uncontrolled", pilot=who, destination=None)
    return PilotResult(v, "disengage_autopilot", "swift", lines=(f"{vehicle.name} autopilot disengaged [VEH-20]",))


def set_destination(vehicle: Vehicle, destination: tuple[int, int]) -> PilotResult:
    """VEH-27: inputting a destination is a move action; the autopilot (driven by the GM) tries to reach it."""
    if vehicle.state.control != "autopilot":
        raise RuleViolation("VEH-27", f"{vehicle.name} autopilot is not engaged")
    v = vehicle.with_state(destination=destination)
    return PilotResult(
        v, "set_destination", "move", lines=(f"{vehicle.name} autopilot heads for {destination} [VEH-27]",)
    )


__all__ = [
    "ACTION_COST",
    "AFTER_RACE",
    "BoardResult",
    "CrashResult",
    "PilotResult",
    "RamResult",
    "RunOverResult",
    "UnpilotedMove",
    "aoo_ac_terms",
    "attack_penalty",
    "battle_mode",
    "boarding",
    "crash",
    "disengage_autocontrol",
    "disengage_autopilot",
    "drive",
    "engage_autocontrol",
    "engage_autopilot",
    "falling_damage",
    "foot_escape",
    "is_terrain",
    "lose_control",
    "new_round",
    "occupant_provokes",
    "passenger_cover",
    "race",
    "race_dc",
    "ram",
    "relinquish",
    "run_over",
    "run_over_path",
    "set_destination",
    "start_vehicle",
    "stop",
    "stop_short",
    "take_control",
    "unpiloted_turn",
    "unsafe_race",
    "vehicle_weapon_terms",
]
