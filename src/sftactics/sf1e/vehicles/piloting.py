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
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from sftactics.core.breakdown import Term, explain
from sftactics.core.check import CheckKind, CheckResult, judge, resolve
from sftactics.core.errors import RuleViolation
from sftactics.dice import parse
from sftactics.dice.source import DiceSource
from sftactics.grid.cover import CoverKind, cover_terms
from sftactics.grid.geometry import Footprint, Square
from sftactics.grid.map import GridMap
from sftactics.grid.movement import Provocation
from sftactics.grid.space import Size, size_order
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import damage as dmg
from sftactics.sf1e import injury, saves
from sftactics.sf1e.objects import ObjectState
from sftactics.sf1e.state import ConditionInstance, Creature
from sftactics.sf1e.vehicles.checks import (
    PilotLike,
    Struck,
    check_bonus,
    floor5,
    roll_check,
    roll_collision,
    skill_of,
    strike,
)
from sftactics.sf1e.vehicles.heading import (
    Obstruction,
    check_heading,
    drive_path,
    first_obstruction,
    off_course_arc,
    straight_line,
)
from sftactics.sf1e.vehicles.options import DEFAULT_VEHICLE_OPTIONS, VehicleOptions
from sftactics.sf1e.vehicles.state import (
    Heading,
    MoveAction,
    Vehicle,
    armor_class,
    collision_dc,
    damage_vehicle,
    drive_speed,
    full_speed,
)

ActionCost = Literal["full", "move", "swift", "none"]

#: What each vehicle action costs the creature taking it (VEH-06..22, VEH-27).
ACTION_COST: dict[str, ActionCost] = {
    "race": "full",
    "ram": "full",
    "run_over": "full",
    "drive": "move",
    "board": "move",
    "disembark": "move",
    "start": "move",
    "stop_short": "move",
    "take_control": "move",
    "set_destination": "move",
    "engage_autocontrol": "swift",
    "disengage_autocontrol": "swift",
    "engage_autopilot": "swift",
    "disengage_autopilot": "swift",
    "relinquish": "swift",
    "stop": "none",
}
#: What a pilot may do on the turn after a race (VEH-09); a ram moves like a race, so it is allowed too.
AFTER_RACE: frozenset[str] = frozenset({"race", "ram", "drive", "stop_short", "relinquish"})
Terrain = Literal["flat", "rough"]


@dataclass(frozen=True, slots=True)
class PilotResult:
    """The outcome of a pilot action: the vehicle after it, what it cost, whether it worked, how far the vehicle
    went (and, on a grid, through which spaces), the checks and the ledger."""

    vehicle: Vehicle
    action: str
    cost: ActionCost
    success: bool = True
    distance_ft: int = 0
    checks: tuple[CheckResult, ...] = ()
    lines: tuple[str, ...] = ()
    path: tuple[Footprint, ...] = ()
    provocations: tuple[Provocation, ...] = ()
    stalled: bool = False
    off_course: tuple[int, int] | None = None
    obstruction: Obstruction | None = None

    def describe(self) -> str:
        return "\n".join(self.lines)


# ---------------------------------------------------------------- guards and bookkeeping


def _pilot_name(pilot: PilotLike | None) -> str:
    if pilot is None:
        return "the autopilot"
    return pilot.name if isinstance(pilot, Creature) else "the pilot"


def _require_control(vehicle: Vehicle, pilot: PilotLike | None, action: str) -> None:
    st = vehicle.state
    if vehicle.wrecked:
        raise RuleViolation("VEH-32", f"{vehicle.name} is wrecked: it cannot {action}")
    if not st.started:
        raise RuleViolation("VEH-16", f"{vehicle.name} must be started first (a move action)")
    if pilot is None:
        if st.control != "autopilot":
            raise RuleViolation("VEH-01", f"{vehicle.name} is an object: it needs a pilot or an engaged autopilot")
        return
    if st.control == "uncontrolled" or st.control == "autocontrol":
        raise RuleViolation("VEH-18", f"{vehicle.name} is uncontrolled: take control of it first (a move action)")
    if st.control == "autopilot":
        raise RuleViolation("VEH-20", f"{vehicle.name} is on autopilot: disengage it first (a swift action)")
    if isinstance(pilot, Creature) and st.pilot is not None and pilot.id != st.pilot:
        raise RuleViolation("VEH-18", f"{pilot.name} does not control {vehicle.name} ({st.pilot} does)")


def _after_race(vehicle: Vehicle, action: str) -> None:
    st = vehicle.state
    if st.last_action == "race" and st.moving and not st.moved_this_round and action not in AFTER_RACE:
        raise RuleViolation(
            "VEH-09", f"after a race {vehicle.name} keeps going: race, drive, stop short or relinquish control"
        )


def _moved(
    vehicle: Vehicle,
    action: MoveAction,
    distance: int,
    *,
    full: bool,
    heading: Heading | None = None,
    position: tuple[int, int] | None = None,
    piloting: int | None = None,
) -> Vehicle:
    st = vehicle.state
    changes: dict[str, object] = {
        "moving": distance > 0 or (full and st.moving),
        "moved_this_round": st.moved_this_round or distance > 0,
        "raced_this_round": st.raced_this_round or full,
        "last_action": action,
        "last_move_ft": distance,
    }
    if heading is not None:
        changes["heading"] = heading
    if position is not None:
        changes["position"] = position
    if piloting is not None:
        changes["last_piloting"] = piloting
    return vehicle.with_state(**changes)


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


def race_dc(vehicle: Vehicle) -> int:
    """VEH-06: 10 + item level, +5 from a dead stop (the vehicle did not move last round)."""
    dead = not vehicle.state.moved_last_round and not vehicle.state.moved_this_round
    return 10 + vehicle.stat.item_level + (5 if dead else 0)


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


def _war_machine(vehicle: Vehicle, pilot: PilotLike | None, action: str) -> None:
    if pilot is None and not vehicle.stat.systems.war_machine:
        raise RuleViolation("VEH-27", f"an autopilot never tries to {action} unless it is a war machine")


# ---------------------------------------------------------------- race and ram


def _race_move(
    vehicle: Vehicle,
    check: CheckResult,
    dice: DiceSource,
    terrain: Terrain,
    dead_stop: bool,
    options: VehicleOptions,
) -> tuple[int, bool, bool, tuple[int, int] | None, list[str]]:
    """Distance, moved at full speed, stalled, off-course arc, lines: for a race check's outcome (VEH-07)."""
    full = full_speed(vehicle, options).total
    if check.success:
        return full, True, False, None, [f"{vehicle.name} races {full} ft at heading {vehicle.state.heading} [VEH-06]"]
    if dead_stop:
        return 0, False, True, None, [f"{vehicle.name} stalls and does not move (failed from a dead stop) [VEH-07]"]
    if terrain == "rough":
        d = floor5(full // 2)
        return d, False, False, None, [f"rough terrain: {vehicle.name} moves half its full speed, {d} ft [VEH-07]"]
    arc = off_course_arc(dice.die(4, f"{vehicle.name} off-course arc"))
    return (
        full,
        True,
        False,
        arc,
        [
            f"flat terrain: {vehicle.name} moves {full} ft but off course, into the arc {arc[0]} to {arc[1]} degrees "
            "from its heading [VEH-07]"
        ],
    )


def race(
    vehicle: Vehicle,
    pilot: PilotLike | None,
    dice: DiceSource,
    *,
    terrain: Terrain = "flat",
    drift: int = 0,
    grid: GridMap | None = None,
    occupied: Mapping[str, Footprint] | None = None,
    extra: Sequence[Term] = (),
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> PilotResult:
    """VEH-06, VEH-07, VEH-10: a full action moving at full speed in a straight line at the heading (``drift``
    squares to the side, at most 45 degrees, VEH-04). Piloting DC 10 + item level, +5 from a dead stop.

    With a ``grid`` and the vehicle's position, the straight path is computed and the first obstruction on it
    (terrain, a wall, another space in ``occupied``) is reported: racing into it is unsafe (:func:`unsafe_race`)
    or a crash (:func:`crash`), the caller's next step. An off-course move is left for the GM to place."""
    _require_control(vehicle, pilot, "race")
    _after_race(vehicle, "race")
    dead = not vehicle.state.moved_last_round and not vehicle.state.moved_this_round
    dc = race_dc(vehicle)
    bonus = check_bonus(vehicle, pilot, extra=extra, options=options)
    check = roll_check(bonus, dc, dice, f"{vehicle.name} race")
    lines = [
        f"race: Piloting {check.describe()} (DC 10 + item level {vehicle.stat.item_level}"
        + (" + 5 from a dead stop" if dead else "")
        + ") [VEH-06]"
    ]
    distance, full, stalled, arc, more = _race_move(vehicle, check, dice, terrain, dead, options)
    lines += more
    path: tuple[Footprint, ...] = ()
    obstruction = None
    pos = vehicle.state.position
    if grid is not None and pos is not None and distance and arc is None:
        start = Footprint(pos[0], pos[1], vehicle.stat.side_squares)
        path = straight_line(start, vehicle.state.heading, distance, drift=drift)
        obstruction = first_obstruction(grid, start, path, occupied)
        if obstruction is not None:
            path = path[: obstruction.index]
            lines.append(f"the path runs into {obstruction.what}: an unsafe race or a crash [VEH-08]")
        if path:
            pos = path[-1].anchor
    if distance:
        lines.append("a racing vehicle provokes attacks of opportunity, with +2 AC against them [VEH-10]")
    v = (
        _moved(vehicle, "race", distance, full=full, position=pos, piloting=check.total)
        if not stalled
        else (vehicle.with_state(last_piloting=check.total, moving=False))
    )
    return PilotResult(v, "race", "full", check.success, distance, (check,), tuple(lines), path, (), stalled, arc,
                       obstruction)  # fmt: skip


def unsafe_race(
    vehicle: Vehicle,
    pilot: PilotLike | None,
    dice: DiceSource,
    *,
    dc: int | None = None,
    extra: Sequence[Term] = (),
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> PilotResult:
    """VEH-08: racing through difficult terrain, over an obstacle or to a place the pilot cannot see takes a
    Piloting check when the vehicle gets there (the GM sets the DC; usually 20 + item level). A failure, or an
    uncontrolled vehicle, crashes or spins out (the GM says which)."""
    dc = 20 + vehicle.stat.item_level if dc is None else dc
    if not vehicle.controlled and vehicle.state.control != "autocontrol":
        line = f"{vehicle.name} is uncontrolled: it crashes or spins out (GM) [VEH-08]"
        return PilotResult(vehicle, "unsafe_race", "none", False, lines=(line,))
    if vehicle.state.control == "autocontrol":
        last = vehicle.state.last_piloting or 0
        bonus = explain("autocontrol", [Term(last, "last Piloting result", "VEH-26")])
        check = judge(CheckKind.SKILL, bonus, dc, 0, note="autocontrol reuses the last result")
    else:
        check = roll_check(
            check_bonus(vehicle, pilot, extra=extra, options=options), dc, dice, f"{vehicle.name} unsafe race"
        )
    verdict = "gets through" if check.success else "crashes or spins out (GM)"
    line = f"unsafe race: Piloting {check.total} vs DC {dc}: {vehicle.name} {verdict} [VEH-08]"
    return PilotResult(vehicle, "unsafe_race", "none", check.success, 0, (check,), (line,))


@dataclass(frozen=True, slots=True)
class RamResult:
    """A ram: the race part (``move``), whether the target was hit, the target and the rammer after it."""

    move: PilotResult
    hit: bool
    vehicle: Vehicle
    target: Creature | Vehicle | ObjectState
    checks: tuple[CheckResult, ...]
    lines: tuple[str, ...]
    target_damage: int = 0
    self_damage: int = 0

    def describe(self) -> str:
        return "\n".join(self.lines)


def ram(
    vehicle: Vehicle,
    pilot: PilotLike | None,
    target: Creature | Vehicle | ObjectState,
    dice: DiceSource,
    *,
    target_pilot: PilotLike | None = None,
    terrain: Terrain = "flat",
    extra: Sequence[Term] = (),
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> RamResult:
    """VEH-11, VEH-12, VEH-27: race at the target and hit it. A failed Piloting check fails the ram (the vehicle
    moves as a failed race). A creature avoids the hit with a Reflex save against the collision DC; a vehicle's
    pilot (``target_pilot``; None for its autopilot) with a Piloting check whose DC is the rammer's result,
    the rammer winning ties; an uncontrolled vehicle or an object cannot avoid it. On a hit the collision damage
    is rolled once: the target takes it doubled and the rammer half (option ``ram_damage``)."""
    _war_machine(vehicle, pilot, "ram")
    move = race(vehicle, pilot, dice, terrain=terrain, extra=extra, options=options)
    lines = [*move.lines]
    checks = list(move.checks)
    v = move.vehicle.with_state(last_action="ram")
    if not move.success:
        lines.append(f"the Piloting check failed: the ram misses {_target_name(target)} [VEH-11]")
        return RamResult(move, False, v, target, tuple(checks), tuple(lines))
    rammer_result = move.checks[0].total
    avoided = False
    if isinstance(target, Creature):
        dc = collision_dc(vehicle, options).total
        save = saves.saving_throw(target, "ref", dc, dice)
        checks.append(save)
        avoided = save.success
        lines.append(f"{target.name} Reflex {save.describe()} vs collision DC: "
                     + ("avoids the ram" if avoided else "is hit") + " [VEH-12]")  # fmt: skip
    elif isinstance(target, Vehicle) and (target.controlled or target_pilot is not None):
        bonus = check_bonus(target, target_pilot, options=options)
        # the rammer wins ties: the defender needs to beat the result, i.e. meet result + 1
        dodge = resolve(CheckKind.SKILL, bonus, rammer_result + 1, dice, purpose=f"{target.name} avoids a ram")
        checks.append(dodge)
        avoided = dodge.success
        lines.append(
            f"{target.name}'s pilot: Piloting d20 {dodge.natural} {bonus.total:+d} = {dodge.total} against the "
            f"rammer's {rammer_result} (the rammer wins ties): " + ("avoided" if avoided else "hit") + " [VEH-12]"
        )
    if avoided:
        return RamResult(move, False, v, target, tuple(checks), tuple(lines))
    coll = roll_collision(vehicle, dice, target_times=2, self_share="half", purpose="ram", options=options)
    lines += coll.lines
    hit = strike(target, coll.to_target, ignores_hardness=vehicle.stat.collision.ignores_hardness,
                 source=f"{vehicle.name}'s ram", options=options)  # fmt: skip
    lines += hit.lines
    own = damage_vehicle(v, coll.to_self, source="its own ram", options=options)
    lines.append(f"{vehicle.name} takes half the collision damage, {coll.to_self} [VEH-11]")
    lines += own.lines
    return RamResult(move, True, own.vehicle, hit.target, tuple(checks), tuple(lines), hit.dealt, own.dealt)


def _target_name(t: Creature | Vehicle | ObjectState) -> str:
    return t.name


# ---------------------------------------------------------------- run over


@dataclass(frozen=True, slots=True)
class RunOverResult:
    vehicle: Vehicle
    victims: tuple[Creature | ObjectState, ...]  # in the order given, after the run over
    hit: tuple[str, ...]  # names of those actually run over
    checks: tuple[CheckResult, ...]
    lines: tuple[str, ...]
    distance_ft: int
    stopped_early: bool = False

    def describe(self) -> str:
        return "\n".join(self.lines)


def run_over(
    vehicle: Vehicle,
    pilot: PilotLike | None,
    victims: Sequence[Creature | ObjectState],
    dice: DiceSource,
    *,
    distance_ft: int | None = None,
    victim_sizes: Mapping[str, Size] | None = None,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> RunOverResult:
    """VEH-13: a full action moving up to twice the drive speed over ``victims`` (in the order the path reaches
    them; :func:`~sftactics.sf1e.vehicles.heading.swept` finds them on a grid). Each must be at least two size
    categories smaller than the vehicle. The collision damage is rolled once: each creature saves (Reflex vs the
    collision DC) for half; objects get no save. The vehicle takes half the roll for each victim and stops if
    that wrecks it; each creature is run over at most once per round by this vehicle. No Piloting check
    (option ``run_over_movement`` only says how the path may bend)."""
    _require_control(vehicle, pilot, "run over")
    _after_race(vehicle, "run_over")
    _war_machine(vehicle, pilot, "run over")
    limit = 2 * drive_speed(vehicle, options).total
    distance = limit if distance_ft is None else distance_ft
    if not 0 <= distance <= limit:
        raise RuleViolation("VEH-13", f"a run over moves up to twice the drive speed ({limit} ft), not {distance}")
    my_size = size_order(vehicle.stat.grid_size)
    sizes = victim_sizes or {}
    for victim in victims:
        vsize = Size(victim.stat.size) if isinstance(victim, Creature) else sizes.get(victim.name)
        if vsize is None:
            raise RuleViolation("VEH-13", f"the size of {victim.name} is needed (victim_sizes)")
        if my_size - size_order(vsize) < 2:
            raise RuleViolation("VEH-13", f"{victim.name} ({vsize}) is not two size categories smaller than "
                                          f"{vehicle.name} ({vehicle.stat.size}): it blocks the vehicle")  # fmt: skip
    dc = collision_dc(vehicle, options).total
    coll = roll_collision(vehicle, dice, target_times=1, self_share="half", purpose="run over", options=options)
    lines = [f"{_pilot_name(pilot)} runs {vehicle.name} over up to {distance} ft [VEH-13]", *coll.lines,
             f"the damage is rolled once for every creature run over: {coll.roll.total} [VEH-13]"]  # fmt: skip
    checks: list[CheckResult] = []
    out: list[Creature | ObjectState] = list(victims)
    hit: list[str] = []
    v = vehicle
    stopped = False
    for i, victim in enumerate(victims):
        key = victim.id if isinstance(victim, Creature) else victim.name
        if key in v.state.run_over:
            lines.append(f"{victim.name} was already run over by {vehicle.name} this round: no damage [VEH-13]")
            continue
        roll = coll.roll
        if isinstance(victim, Creature):
            save = saves.saving_throw(victim, "ref", dc, dice)
            checks.append(save)
            lines.append(
                f"{victim.name} Reflex {save.describe()} vs collision DC" + (": half damage" if save.success else "")
            )
            if save.success:
                roll = dmg.halve(roll)
        struck: Struck = strike(victim, roll, ignores_hardness=vehicle.stat.collision.ignores_hardness,
                                source=f"{vehicle.name} running it over", options=options)  # fmt: skip
        out[i] = struck.target  # type: ignore[assignment]
        hit.append(key)
        lines += struck.lines
        own = damage_vehicle(v, coll.to_self, source=f"running over {victim.name}", options=options)
        lines.append(f"{vehicle.name} takes half the damage rolled, {coll.to_self} [VEH-13]")
        lines += own.lines
        v = own.vehicle.with_state(run_over=own.vehicle.state.run_over | {key})
        if v.wrecked and i < len(victims) - 1:
            stopped = True
            lines.append(f"{vehicle.name} cannot go on: it stops here [VEH-13]")
            break
    v = _moved(v, "run_over", distance, full=False) if not v.wrecked else v
    return RunOverResult(v, tuple(out), tuple(hit), tuple(checks), tuple(lines), distance, stopped)


def run_over_path(
    vehicle: Vehicle,
    grid: GridMap,
    *,
    goal: Square | None = None,
    distance_ft: int | None = None,
    drift: int = 0,
    blockers: Mapping[str, Footprint] | None = None,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> tuple[Footprint, ...]:
    """The spaces a run over passes through (VEH-13), up to twice the drive speed: a free path to ``goal`` like a
    drive (option ``run_over_movement: free``), or a straight line at the heading (``straight``, with ``drift``).
    ``blockers``: the spaces of creatures too big to run over (they stop the vehicle); small ones are left out,
    since the vehicle goes over them (:func:`~sftactics.sf1e.vehicles.heading.swept` lists them)."""
    pos = vehicle.state.position
    if pos is None:
        raise RuleViolation("VEH-13", f"{vehicle.name} has no position on the grid")
    start = Footprint(pos[0], pos[1], vehicle.stat.side_squares)
    limit = 2 * drive_speed(vehicle, options).total
    walls = blockers or {}
    if options.run_over_movement == "straight":
        path = straight_line(start, vehicle.state.heading, limit if distance_ft is None else distance_ft, drift=drift)
        hit = first_obstruction(grid, start, path, walls)
        return path if hit is None else path[: hit.index]
    if goal is None:
        raise RuleViolation("VEH-13", "a free run over needs a goal square")
    occupied = [sq for space in walls.values() for sq in space.squares]
    return drive_path(grid, start, goal, vehicle.stat.grid_size, limit, occupied=occupied).positions[1:]


# ---------------------------------------------------------------- uncontrolled vehicles, autocontrol, crashes


@dataclass(frozen=True, slots=True)
class UnpilotedMove:
    """A round of movement nobody pilots: the distance of each action (two drives, or a race under autocontrol),
    the vehicle after it, and what it ran into on the grid (a crash is the caller's next step)."""

    vehicle: Vehicle
    distances: tuple[int, ...]
    lines: tuple[str, ...]
    checks: tuple[CheckResult, ...] = ()
    path: tuple[Footprint, ...] = ()
    obstruction: Obstruction | None = None

    @property
    def distance_ft(self) -> int:
        return sum(self.distances)


def unpiloted_turn(
    vehicle: Vehicle,
    *,
    factor: float | None = None,
    dice: DiceSource | None = None,
    terrain: Terrain = "flat",
    grid: GridMap | None = None,
    occupied: Mapping[str, Footprint] | None = None,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> UnpilotedMove:
    """The movement of a vehicle nobody pilots on its initiative count.

    Uncontrolled (VEH-24): straight ahead at its heading as two drive actions, each covering ``factor`` (option
    ``uncontrolled_slowdown``, 3/4) of the previous action's distance rounded down to 5 ft, the first one based
    on the last pilot action; it stops when an action would cover 0 ft. A GM passes another ``factor`` for a
    slope, rough ground or zero-g.

    Autocontrol (VEH-26): the same distance, heading and speed as the last pilot action each round: two drives of
    that distance after a drive, a race after a race (its Piloting check is the pilot's last result; a failure
    follows the race rules, so ``dice`` is needed for an off-course arc).

    With a ``grid`` and a position the straight path is traced: the vehicle stops before the first obstruction,
    which is reported for :func:`crash`."""
    st = vehicle.state
    if vehicle.controlled:
        raise RuleViolation("VEH-24", f"{vehicle.name} is controlled: its pilot moves it")
    lines: list[str] = []
    checks: list[CheckResult] = []
    if vehicle.wrecked or not st.moving:
        return UnpilotedMove(vehicle, (), (f"{vehicle.name} is not moving [VEH-24]",))
    if st.control == "autocontrol":
        if st.last_action == "race":
            dc = 10 + vehicle.stat.item_level
            last = st.last_piloting or 0
            bonus = explain("autocontrol", [Term(last, "pilot's last Piloting result", "VEH-26")])
            check = judge(CheckKind.SKILL, bonus, dc, 0, note="autocontrol reuses the last result")
            checks.append(check)
            lines.append(f"autocontrol races with the pilot's last Piloting result {last} vs DC {dc} [VEH-26]")
            if not check.success and dice is None:
                raise RuleViolation("VEH-26", "a failed autocontrol race needs dice for the off-course arc")
            d, full, _, arc, more = _race_move(vehicle, check, dice or _NoDice(), terrain, False, options)
            lines += more
            distances: tuple[int, ...] = (d,)
            v = _moved(vehicle, "race", d, full=full)
            v = v.with_state(control="autocontrol", last_piloting=last)
            if arc is not None:
                return UnpilotedMove(v, distances, tuple(lines), tuple(checks))
        else:
            d = st.last_move_ft
            distances = (d, d)
            lines.append(f"autocontrol repeats the last drive: two drives of {d} ft at heading {st.heading} [VEH-26]")
            v = _moved(vehicle, "drive", d, full=False).with_state(last_move_ft=d)
        total = sum(distances)
    else:
        f = options.uncontrolled_slowdown if factor is None else factor
        first = floor5(int(st.last_move_ft * f))
        second = floor5(int(first * f))
        distances = tuple(x for x in (first, second) if x > 0)
        total = sum(distances)
        lines.append(
            f"uncontrolled: straight ahead at heading {st.heading}, two drives slowing to {f:g} of the last: "
            f"{st.last_move_ft} -> {first} -> {second} ft [VEH-24]"
        )
        last = distances[-1] if distances else 0
        v = vehicle.with_state(
            moving=second > 0, moved_this_round=total > 0 or st.moved_this_round, last_action="uncontrolled",
            last_move_ft=last, raced_this_round=False,
        )  # fmt: skip
        if second == 0:
            lines.append(f"{vehicle.name} comes to a stop [VEH-24]")
    path: tuple[Footprint, ...] = ()
    obstruction = None
    if grid is not None and st.position is not None and total:
        start = Footprint(st.position[0], st.position[1], vehicle.stat.side_squares)
        path = straight_line(start, st.heading, total, uncontrolled=True)
        obstruction = first_obstruction(grid, start, path, occupied)
        if obstruction is not None:
            path = path[: obstruction.index]
            lines.append(f"{vehicle.name} runs into {obstruction.what}: it crashes [VEH-25]")
        v = v.with_state(position=path[-1].anchor if path else st.position)
    return UnpilotedMove(v, distances, tuple(lines), tuple(checks), path, obstruction)


class _NoDice(DiceSource):
    def _next(self, sides: int, purpose: str) -> int:
        raise RuleViolation("VEH-26", f"no dice were given for {purpose}")


@dataclass(frozen=True, slots=True)
class CrashResult:
    vehicle: Vehicle
    obstacle: Vehicle | ObjectState | None
    crashed: bool
    checks: tuple[CheckResult, ...]
    lines: tuple[str, ...]
    damage: int = 0

    def describe(self) -> str:
        return "\n".join(self.lines)


def crash(
    vehicle: Vehicle,
    dice: DiceSource,
    obstacle: Vehicle | ObjectState | None = None,
    *,
    obstacle_pilot: PilotLike | None = None,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> CrashResult:
    """VEH-25: an uncontrolled vehicle that runs into an obstacle or another vehicle crashes: double its collision
    damage to itself and to what it hit (rolled once, option ``ram_damage``), and it stops. A controlled vehicle's
    pilot (``obstacle_pilot``; None for an autopilot) may try a Piloting check to avoid it as if rammed: the DC is
    the autocontrol's last Piloting result, otherwise option ``uncontrolled_dodge_dc`` (the collision DC); the
    uncontrolled vehicle wins ties. If avoided, it keeps moving. ``obstacle`` None: a wall or terrain."""
    lines: list[str] = []
    checks: list[CheckResult] = []
    if isinstance(obstacle, Vehicle) and obstacle.controlled:
        if vehicle.state.control == "autocontrol" and vehicle.state.last_piloting is not None:
            dc, why = vehicle.state.last_piloting, "the autocontrol's last Piloting result"
        elif options.uncontrolled_dodge_dc == "last_piloting" and vehicle.state.last_piloting is not None:
            dc, why = vehicle.state.last_piloting, "its last pilot's Piloting result"
        else:
            dc, why = collision_dc(vehicle, options).total, "its collision DC"
        bonus = check_bonus(obstacle, obstacle_pilot, options=options)
        dodge = resolve(CheckKind.SKILL, bonus, dc + 1, dice, purpose=f"{obstacle.name} avoids a crash")
        checks.append(dodge)
        lines.append(f"{obstacle.name}'s pilot: Piloting {dodge.total} against {dc} ({why}; ties go to the "
                     "uncontrolled vehicle) [VEH-25]")  # fmt: skip
        if dodge.success:
            lines.append(f"{obstacle.name} avoids {vehicle.name}, which keeps moving [VEH-25]")
            return CrashResult(vehicle, obstacle, False, tuple(checks), tuple(lines))
    coll = roll_collision(vehicle, dice, target_times=2, self_share="double", purpose="crash", options=options)
    lines += coll.lines
    lines.append(f"{vehicle.name} crashes: double collision damage ({coll.to_target.total}) to itself and to "
                 f"{obstacle.name if obstacle is not None else 'the obstacle'} [VEH-25]")  # fmt: skip
    new_obstacle: Vehicle | ObjectState | None = obstacle
    if obstacle is not None:
        hit = strike(obstacle, coll.to_target, ignores_hardness=vehicle.stat.collision.ignores_hardness,
                     source=f"{vehicle.name}'s crash", options=options)  # fmt: skip
        assert not isinstance(hit.target, Creature)
        new_obstacle = hit.target
        lines += hit.lines
    own = damage_vehicle(vehicle, coll.to_self, source="its crash", options=options)
    lines += own.lines
    v = own.vehicle.with_state(moving=False, last_move_ft=0)
    return CrashResult(v, new_obstacle, True, tuple(checks), tuple(lines), coll.to_target.total)


# ---------------------------------------------------------------- boarding


@dataclass(frozen=True, slots=True)
class BoardResult:
    creature: Creature
    boarded: bool
    fell: bool
    check: CheckResult | None
    lines: tuple[str, ...]


def falling_damage(
    fall_ft: float, dice: DiceSource, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS
) -> dmg.DamageRoll:
    """CHS-27 / X-18: falling off while boarding deals double the normal falling damage for the fall (option
    ``falling_die`` per 10 ft, doubled by rolling it twice, GEN-04), or 1d6 for a fall of less than 10 ft."""
    zero = explain("falling", [])
    if fall_ft < 10:
        return dmg.roll_damage(parse("1d6 B"), zero, dice, purpose="falling (under 10 ft)")
    n = int(fall_ft // 10)
    expr = parse(" + ".join([options.falling_die] * n) + " B")
    return dmg.roll_damage(expr, zero, dice, multipliers=(2.0,), purpose=f"falling {int(fall_ft)} ft (doubled)")


def boarding(
    creature: Creature,
    target: Vehicle,
    dice: DiceSource,
    *,
    moving: bool = True,
    skill: Literal["acrobatics", "athletics"] = "acrobatics",
    bonus: PilotLike | None = None,
    fall_ft: float | None = None,
    rule: str = "VEH-14",
    ac_extra: tuple[Term, ...] = (),
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> BoardResult:
    """VEH-14, CHS-27: boarding (or leaving) a vehicle is a move action; while it moves it takes an Acrobatics or
    Athletics check, DC 5 + the KAC of the vehicle boarded (option ``board_moving_dc`` on the grid). Failing by
    less than 5 leaves the creature where it was; by 5 or more it falls, lands prone and takes falling damage
    (:func:`falling_damage`; ``fall_ft`` defaults to the height of the vehicle boarded, or 5 ft)."""
    if not moving or (rule == "VEH-14" and options.board_moving_dc == "none"):
        return BoardResult(
            creature, True, False, None, (f"{creature.name} boards {target.name} (a move action) [{rule}]",)
        )
    dc = 5 + armor_class(target, "kac", ac_extra, options=options).total
    sk = skill_of(bonus if bonus is not None else creature, skill)
    check = roll_check(sk, dc, dice, f"{creature.name} boards {target.name}")
    lines = [f"{creature.name} boards {target.name}: {skill.title()} {check.describe()} (5 + KAC) [{rule}]"]
    if check.success:
        lines.append(f"{creature.name} is aboard and now takes {target.name}'s attack penalty [CHS-27]")
        return BoardResult(creature, True, False, check, tuple(lines))
    if check.dc - check.total < 5:
        lines.append(f"failed by less than 5: {creature.name} stays where it was [CHS-27]")
        return BoardResult(creature, False, False, check, tuple(lines))
    height = fall_ft if fall_ft is not None else (target.stat.dimensions.height_ft if target.stat.dimensions else 5.0)
    roll = falling_damage(height, dice, options)
    out = dmg.mitigate(roll, creature)
    res = injury.apply_damage(creature, out.amount)
    c = cond.add_condition(res.creature, ConditionInstance(name="prone", source="fell while boarding"))
    lines += [f"failed by 5 or more: {creature.name} falls {height:g} ft and lands prone; falling damage "
              f"{' + '.join(roll.rolls)} [CHS-27]", *res.lines]  # fmt: skip
    return BoardResult(c, False, True, check, tuple(lines))


# ---------------------------------------------------------------- attacking from a vehicle, cover, escape


def attack_penalty(vehicle: Vehicle, *, chase: bool = False) -> tuple[Term, ...]:
    """VEH-28, CHS-24: anyone attacking from the vehicle takes its attack penalty; the larger full-speed penalty if
    it moved at full speed during the last round (this round or the previous one); none while it is stopped. In a
    chase it is always the normal penalty (the speeds cancel out)."""
    m = vehicle.stat.modifiers
    if not vehicle.state.moving and not chase:
        return ()
    full = vehicle.state.raced_this_round or vehicle.state.raced_last_round
    if full and not chase and m.full_speed_attack:
        return (Term(m.full_speed_attack, f"attacking from {vehicle.name} at full speed", "VEH-28"),)
    if m.attack:
        return (Term(m.attack, f"attacking from {vehicle.name}", "CHS-24" if chase else "VEH-28"),)
    return ()


def vehicle_weapon_terms(
    vehicle: Vehicle, weapon: str, *, by_pilot: bool, pilot_full_action: bool = False, chase: bool = False
) -> tuple[Term, ...]:
    """VEH-29: firing a mounted weapon works like a ranged attack and takes the vehicle's attack penalty. The pilot
    fires only weapons bound to the controls, and not on a turn of a race or another full action; other weapons
    need a gunner. Returns the attack terms."""
    w = vehicle.stat.weapon(weapon)
    if by_pilot and not w.pilot_controlled:
        raise RuleViolation("VEH-29", f"{w.weapon.name} is not on the pilot's controls: a gunner fires it")
    if by_pilot and pilot_full_action:
        raise RuleViolation("VEH-29", "the pilot spent a full action piloting: no action left to fire")
    return attack_penalty(vehicle, chase=chase)


def aoo_ac_terms(vehicle: Vehicle) -> tuple[Term, ...]:
    """VEH-10: a racing vehicle gets +2 AC against the attacks of opportunity it provokes."""
    if vehicle.state.moving and vehicle.state.raced_this_round:
        return (Term(2, "racing vehicle vs attacks of opportunity", "VEH-10"),)
    return ()


def occupant_provokes(vehicle: Vehicle, action_provokes: bool) -> bool:
    """VEH-15: someone in a driving vehicle provokes for an action that would provoke anyway (a ranged attack
    included), unless the vehicle gives total cover."""
    return action_provokes and vehicle.stat.cover != "total"


_COVER = {
    "none": CoverKind.NONE,
    "partial": CoverKind.PARTIAL,
    "cover": CoverKind.COVER,
    "improved": CoverKind.IMPROVED,
    "total": CoverKind.TOTAL,
}


def passenger_cover(vehicle: Vehicle) -> tuple[CoverKind, tuple[Term, ...], tuple[Term, ...]]:
    """VEH-33: the cover the vehicle gives the creatures in it (its stat block's cover), with its AC and Reflex
    terms (MOD-08, MOD-12..14)."""
    kind = _COVER[vehicle.stat.cover]
    ac, ref = cover_terms(kind)
    return kind, ac, ref


def is_terrain(vehicle: Vehicle, *, gm: bool | None = None, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> bool:
    """VEH-33: an exceptionally large vehicle counts as terrain for spells and abilities (the GM decides; by
    default Colossal vehicles, option ``terrain_size``)."""
    if gm is not None:
        return gm
    return options.terrain_size == "colossal" and vehicle.stat.size == "colossal"


def foot_escape(
    distance_ft: int, pursuers_move_ft: int, *, volley_taken: bool
) -> Literal["in reach", "last volley", "escaped"]:
    """VEH-31: a vehicle gets away from enemies on foot once it is beyond how far they can run, after they get one
    more volley (the GM has the last word; enemies who board vehicles start a chase instead)."""
    if distance_ft <= pursuers_move_ft:
        return "in reach"
    return "escaped" if volley_taken else "last volley"


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
