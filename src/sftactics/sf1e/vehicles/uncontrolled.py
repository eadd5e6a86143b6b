"""Vehicles nobody pilots in a grid battle, and crashes (VEH-24..26): an uncontrolled vehicle goes straight ahead
as two drives, each 3/4 of the last (VEH-24); autocontrol repeats the last pilot action each round (VEH-26);
running into something crashes, with double collision damage to both (VEH-25).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sftactics.core.breakdown import Term, explain
from sftactics.core.check import CheckKind, CheckResult, judge, resolve
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.grid.geometry import Footprint
from sftactics.grid.map import GridMap
from sftactics.sf1e.objects import ObjectState
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles.checks import PilotLike, check_bonus, floor5, roll_collision, strike
from sftactics.sf1e.vehicles.heading import Obstruction, first_obstruction, straight_line
from sftactics.sf1e.vehicles.options import DEFAULT_VEHICLE_OPTIONS, VehicleOptions
from sftactics.sf1e.vehicles.pilot_guards import Terrain, _moved
from sftactics.sf1e.vehicles.racing import _race_move
from sftactics.sf1e.vehicles.state import Vehicle, collision_dc, damage_vehicle

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


__all__ = [
    "CrashResult",
    "UnpilotedMove",
    "crash",
    "unpiloted_turn",
]
