"""Vehicle upkeep in a grid fight (VEH-06, VEH-23, VEH-24, VEH-26..28): a pilot knocked out, gone or delaying
leaves the vehicle uncontrolled on the count it had; a moving uncontrolled vehicle (or one on autocontrol) moves
on that count each round, before the first combatant with a lower count, and crashes into what it runs into; an
autopilot drives toward its destination on its count; at a new round each vehicle's movement becomes last
round's.
"""

from __future__ import annotations

from sftactics.encounter import vehicles as V
from sftactics.encounter.events import CheckMade
from sftactics.encounter.outcomes import check_data
from sftactics.encounter.state import FightVehicle
from sftactics.encounter.tx import Tx
from sftactics.encounter.vehicle_attacks import _emit_state
from sftactics.encounter.vehicle_movement import _cost, _emit_path, _traverse, crash_into
from sftactics.encounter.vehicles import VehicleChanged
from sftactics.grid.movement import Mover, find_path
from sftactics.sf1e.vehicles import piloting as P
from sftactics.sf1e.vehicles.state import drive_speed

# ---------------------------------------------------------------- upkeep: rounds, lost pilots, unpiloted vehicles


def settle(tx: Tx) -> None:
    """VEH-23: a pilot who is knocked out, dead, gone or delaying leaves the vehicle uncontrolled on the count
    it had; a vehicle its pilot already moved this round moves on its own from the next round."""
    s = tx.state
    for fv in list(s.vehicles.values()):
        st = fv.vehicle.state
        if st.control != "pilot" or st.pilot is None:
            continue
        p = s.combatants.get(st.pilot)
        if p is None:
            continue
        reason = None
        if p.out_of_fight:
            reason = "knocked out"
        elif p.delaying:
            reason = "delayed"
        if reason is None:
            continue
        v = fv.vehicle.with_state(initiative=st.initiative if st.initiative is not None else p.initiative)
        lost = P.lose_control(v, reason)  # type: ignore[arg-type]
        done = st.pilot in s.timeline.done or s.timeline.turn == st.pilot or st.moved_this_round
        _emit_state(tx, fv.id, lost.vehicle, lost.lines)
        if done:
            _mark_round(tx, fv.id)


def _mark_round(tx: Tx, vid: str) -> None:
    """The vehicle has had its movement this round (its pilot's, or its own)."""
    fv = tx.state.vehicles[vid]
    tx.emit(VehicleChanged(id=vid, state=fv.vehicle.state, unpiloted_round=tx.state.timeline.round))


def _due(tx: Tx, count: int | None) -> list[str]:
    """Unpiloted vehicles whose count comes before ``count`` this round (None: every one left)."""
    out = []
    rnd = tx.state.timeline.round
    for fv in tx.state.vehicles.values():
        st = fv.vehicle.state
        if st.control in ("pilot",) or fv.unpiloted_round >= rnd or fv.vehicle.wrecked:
            continue
        if st.control == "autopilot" and st.destination is None:
            continue
        if st.control in ("uncontrolled", "autocontrol") and not st.moving:
            continue
        if count is None or st.initiative is None or st.initiative >= count:
            out.append(fv.id)
    return sorted(out, key=lambda vid: -(tx.state.vehicles[vid].vehicle.state.initiative or 0))


def before_turn(tx: Tx, cid: str) -> None:
    """Unpiloted vehicles whose count is at or above ``cid``'s move before its turn starts (VEH-23, VEH-24)."""
    if not tx.state.vehicles:
        return
    c = tx.state.get(cid)
    for vid in _due(tx, c.initiative if c.initiative is not None else 0):
        unpiloted_move(tx, vid)


def round_over(tx: Tx) -> None:
    """The round ends: unpiloted vehicles that have not moved yet move now; then each vehicle's movement this
    round becomes last round's (VEH-06 dead stop, VEH-28 full speed during the last round)."""
    if not tx.state.vehicles or tx.state.timeline.round < 1:
        return
    for vid in _due(tx, None):
        unpiloted_move(tx, vid)


def new_round(tx: Tx) -> None:
    for vid, fv in tx.state.vehicles.items():
        nv = P.new_round(fv.vehicle)
        if nv.state != fv.vehicle.state:
            _emit_state(tx, vid, nv)


def unpiloted_move(tx: Tx, vid: str) -> None:
    """VEH-24, VEH-26, VEH-27: a vehicle nobody pilots moves on its count."""
    fv = tx.state.vehicles[vid]
    _mark_round(tx, vid)
    v, opts = fv.vehicle, tx.state.vehicle_options
    if v.state.control == "autopilot":
        _autopilot_drive(tx, fv)
        return
    res = P.unpiloted_turn(v, dice=tx.dice, grid=tx.state.grid, occupied=V.spaces_around(tx.state, fv), options=opts)
    for ch in res.checks:
        tx.emit(CheckMade(id=vid, what="autocontrol Piloting (VEH-26)", success=ch.success, check=check_data(ch)))
    start = V.footprint(fv)
    rule = "VEH-26" if v.state.control == "autocontrol" else "VEH-24"
    for line in res.lines:
        tx.note(line)
    if start is not None and res.path:
        _emit_path(tx, vid, [start, *res.path], _cost([start, *res.path]), res.vehicle, "rolls on, unpiloted", rule)
    else:
        _emit_state(tx, vid, res.vehicle)
    if res.obstruction is not None:
        crash_into(tx, vid, res.obstruction.what if res.obstruction.kind == "occupant" else None)


def _autopilot_drive(tx: Tx, fv: FightVehicle) -> None:
    """VEH-27: the autopilot drives toward its destination (one drive on its count; it never rams or runs over)."""
    v = fv.vehicle
    start, dest, grid = V.footprint(fv), v.state.destination, tx.state.grid
    speed = drive_speed(v, tx.state.vehicle_options).total
    if start is None or dest is None or grid is None or speed == 0:
        return
    occupied = {sq: "filling" for f in V.spaces_around(tx.state, fv).values() for sq in f.squares}
    from sftactics.grid.movement import Occupant

    occ = {sq: Occupant.FILLING for sq in occupied}
    mover = Mover(size=v.stat.grid_size, speed=speed, can_squeeze=False)
    found = find_path(grid, start, dest, mover, occupants=occ, budget_ft=speed * 20)
    if found is None or not found.steps:
        tx.note(f"{fv.id}'s autopilot finds no way to {dest[0]},{dest[1]} and waits [VEH-27]")
        return
    path, spent = [start], 0
    for st in found.steps:
        if spent + st.cost_ft > speed:
            break
        spent += st.cost_ft
        path.append(st.to)
    new = v.with_state(moving=spent > 0, moved_this_round=True, last_action="drive", last_move_ft=spent)
    if path[-1].anchor == dest:
        new = new.with_state(destination=None)
    tx.note(f"{fv.id}'s autopilot drives toward {dest[0]},{dest[1]} [VEH-27]")
    _traverse(tx, fv, path, new, "drives (autopilot)", "VEH-27", racing=False)


__all__ = [
    "before_turn",
    "new_round",
    "round_over",
    "settle",
    "unpiloted_move",
]
