"""The full pilot actions of a grid battle that move a vehicle fast (VEH-06..13): race (Piloting DC 10 + item
level, +5 from a dead stop; a failure stalls, or moves half speed or off course, VEH-06, VEH-07), unsafe racing
(VEH-08), ram (VEH-11, VEH-12) and run over (VEH-13). An autopilot rams or runs over only in a war machine
(VEH-27).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sftactics.core.breakdown import Term, explain
from sftactics.core.check import CheckKind, CheckResult, judge, resolve
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.grid.geometry import Footprint, Square
from sftactics.grid.map import GridMap
from sftactics.grid.space import Size, size_order
from sftactics.sf1e import damage as dmg
from sftactics.sf1e import saves
from sftactics.sf1e.objects import ObjectState
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles.checks import PilotLike, Struck, check_bonus, floor5, roll_check, roll_collision, strike
from sftactics.sf1e.vehicles.heading import drive_path, first_obstruction, off_course_arc, straight_line
from sftactics.sf1e.vehicles.options import DEFAULT_VEHICLE_OPTIONS, VehicleOptions
from sftactics.sf1e.vehicles.pilot_guards import (
    PilotResult,
    Terrain,
    _after_race,
    _moved,
    _pilot_name,
    _require_control,
)
from sftactics.sf1e.vehicles.state import Vehicle, collision_dc, damage_vehicle, drive_speed, full_speed

# ---------------------------------------------------------------- the race DC, war machines


def race_dc(vehicle: Vehicle) -> int:
    """VEH-06: 10 + item level, +5 from a dead stop (the vehicle did not move last round)."""
    dead = not vehicle.state.moved_last_round and not vehicle.state.moved_this_round
    return 10 + vehicle.stat.item_level + (5 if dead else 0)


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


__all__ = [
    "RamResult",
    "RunOverResult",
    "race",
    "race_dc",
    "ram",
    "run_over",
    "run_over_path",
    "unsafe_race",
]
