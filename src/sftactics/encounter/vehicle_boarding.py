"""Boarding and leaving a vehicle in a grid fight (VEH-14, VEH-23): a move action onto a free square of an
adjacent vehicle's space, or off it to a free square next to it; a moving vehicle takes an Acrobatics or Athletics
check (5 + KAC) and a bad failure is a fall; a pilot who leaves lets go of the vehicle.
"""

from __future__ import annotations

from sftactics.core.errors import RuleViolation
from sftactics.encounter import space
from sftactics.encounter import vehicles as V
from sftactics.encounter.actions import Ctx, _actor, _slot, _spend
from sftactics.encounter.events import CheckMade, Moved
from sftactics.encounter.outcomes import check_data
from sftactics.encounter.state import Combatant, FightVehicle
from sftactics.encounter.tx import Tx
from sftactics.encounter.vehicle_commands import Board, Disembark
from sftactics.encounter.vehicles import VehicleChanged
from sftactics.grid import geometry
from sftactics.grid.geometry import Footprint
from sftactics.sf1e.vehicles import piloting as P

Square = tuple[int, int]


# ---------------------------------------------------------------- boarding and leaving


def _capacity(fv: FightVehicle) -> int:
    crew = fv.vehicle.stat.crew
    return crew.pilots + crew.crew + crew.passengers


def _free_inside(tx: Tx, fv: FightVehicle) -> list[Square]:
    fp = V.footprint(fv)
    if fp is None:
        return []
    taken = {tx.state.combatants[r].position for r in fv.riders if r in tx.state.combatants}
    return [sq for sq in fp.squares if sq not in taken]


def _board_check(tx: Tx, c: Combatant, fv: FightVehicle, skill: str, verb: str) -> bool:
    """VEH-14: boarding or leaving a moving vehicle takes an Acrobatics or Athletics check (5 + KAC)."""
    res = P.boarding(c.creature, fv.vehicle, tx.dice, moving=fv.vehicle.state.moving, skill=skill,  # type: ignore[arg-type]
                     options=tx.state.vehicle_options)  # fmt: skip
    if res.check is not None:
        tx.emit(CheckMade(id=c.id, what=f"{skill.title()} to {verb} {fv.id} (VEH-14)", success=res.check.success,
                          check=check_data(res.check)))  # fmt: skip
    for line in res.lines:
        tx.note(line)
    if res.fell:
        tx.creature(c.id, res.creature)
    return res.boarded


def do_board(tx: Tx, cmd: Board, ctx: Ctx) -> None:
    """VEH-14: a move action onto a free square of an adjacent vehicle's space."""
    c = _actor(tx, cmd.actor, ctx)
    fv = V.get(tx.state, cmd.vehicle)
    slot = _slot(tx, c, "move", "board", ctx)
    if V.aboard(tx.state, c.id) is not None:
        raise RuleViolation("VEH-14", f"{c.id} is already aboard {V.aboard(tx.state, c.id).id}")  # type: ignore[union-attr]
    if fv.vehicle.wrecked:
        raise RuleViolation("VEH-32", f"{fv.id} is wrecked")
    if len(fv.riders) >= _capacity(fv):
        raise RuleViolation("VEH-14", f"{fv.id} holds {_capacity(fv)} and is full")
    fa, fb = space.footprint(c), V.footprint(fv)
    free = _free_inside(tx, fv)
    if fa is not None and fb is not None:
        if geometry.footprint_distance_ft(fa, fb) > 5:
            raise RuleViolation("VEH-14", f"{c.id} must be next to {fv.id} to board it")
        if cmd.at is not None:
            if tuple(cmd.at) not in free:
                raise RuleViolation("VEH-14", f"{tuple(cmd.at)} is not a free square of {fv.id}'s space")
            free = [tuple(cmd.at)]  # type: ignore[list-item]
        if not free:
            raise RuleViolation("VEH-14", f"no free square in {fv.id}'s space")
        here = c.position or (0, 0)
        free.sort(key=lambda sq: (max(abs(sq[0] - here[0]), abs(sq[1] - here[1])), sq))
    _spend(tx, c, "move", f"board {fv.id}", "VEH-14", ctx, slot)
    if not _board_check(tx, c, fv, cmd.skill, "board"):
        return
    if free and c.position is not None:
        tx.emit(Moved(id=c.id, path=(c.position, free[0]), cost_ft=5, kind="board", verb="climbs aboard",
                      rule="VEH-14"))  # fmt: skip
    now = tx.state.vehicles[fv.id]
    tx.emit(VehicleChanged(id=fv.id, state=now.vehicle.state, riders=(*now.riders, c.id),
                           notes=(f"{c.id} is aboard {fv.id} [VEH-14]",)))  # fmt: skip


def do_disembark(tx: Tx, cmd: Disembark, ctx: Ctx) -> None:
    """VEH-14: a move action to a free square next to the vehicle; a pilot who leaves lets go (VEH-23)."""
    c = _actor(tx, cmd.actor, ctx)
    fv = V.aboard(tx.state, c.id)
    if fv is None:
        raise RuleViolation("VEH-14", f"{c.id} is in no vehicle")
    slot = _slot(tx, c, "move", "disembark", ctx)
    fb = V.footprint(fv)
    spot: Square | None = None
    if fb is not None and c.position is not None:
        blocked = V.vehicle_squares(tx.state) | {
            sq for o in tx.state.combatants.values() if o.id != c.id and not o.creature.has("dead")
            for sq in (space.footprint(o).squares if space.footprint(o) is not None else ())  # type: ignore[union-attr]
        }  # fmt: skip
        grid = tx.state.grid
        ring = sorted({(x, y) for x in range(fb.x - 1, fb.x + fb.side + 1) for y in range(fb.y - 1, fb.y + fb.side + 1)
                       if not fb.contains((x, y))},
                      key=lambda sq: (max(abs(sq[0] - c.position[0]), abs(sq[1] - c.position[1])), sq))  # type: ignore[index]  # fmt: skip
        ok = [sq for sq in ring if sq not in blocked and (grid is None or (grid.in_bounds(sq) and grid.fits(
            Footprint(sq[0], sq[1], 1))))]  # fmt: skip
        if cmd.to is not None:
            if tuple(cmd.to) not in ok:
                raise RuleViolation("VEH-14", f"{tuple(cmd.to)} is not a free square next to {fv.id}")
            spot = tuple(cmd.to)  # type: ignore[assignment]
        elif not ok:
            raise RuleViolation("VEH-14", f"no free square next to {fv.id}")
        else:
            spot = ok[0]
    _spend(tx, c, "move", f"leave {fv.id}", "VEH-14", ctx, slot)
    if not _board_check(tx, c, fv, cmd.skill, "leave"):
        return
    v = fv.vehicle
    lines = [f"{c.id} leaves {fv.id} [VEH-14]"]
    if v.state.control == "pilot" and v.state.pilot == c.id:
        lost = P.lose_control(v.with_state(initiative=v.state.initiative or c.initiative), "stopped piloting")
        v = lost.vehicle
        lines += lost.lines
    if spot is not None and c.position is not None:
        tx.emit(Moved(id=c.id, path=(c.position, spot), cost_ft=5, kind="disembark", verb="climbs out",
                      rule="VEH-14"))  # fmt: skip
    tx.emit(VehicleChanged(id=fv.id, state=v.state, riders=tuple(r for r in fv.riders if r != c.id),
                           notes=tuple(lines)))  # fmt: skip


__all__ = [
    "do_board",
    "do_disembark",
]
