"""A vehicle moving on the grid in a fight (VEH-10, VEH-15, VEH-25, AOO-06, AOO-13): it moves along its path with
its riders, stops for the attacks of opportunity it provokes from the enemies whose threatened squares it leaves
(they strike the vehicle, which has +2 AC against them while racing), and crashes into what it runs into: double
collision damage to the vehicle and to what it hit, a controlled vehicle dodging as if rammed.
"""

from __future__ import annotations

import itertools

from sftactics.encounter import reactions
from sftactics.encounter import vehicles as V
from sftactics.encounter.events import CheckMade
from sftactics.encounter.outcomes import check_data
from sftactics.encounter.state import FightVehicle
from sftactics.encounter.tx import Tx
from sftactics.encounter.vehicle_attacks import _emit_state, _wrecked, vehicle_aoo
from sftactics.encounter.vehicles import VehicleMoved
from sftactics.grid.geometry import Footprint
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles import piloting as P
from sftactics.sf1e.vehicles.checks import roll_collision, strike
from sftactics.sf1e.vehicles.state import Vehicle, damage_vehicle

Square = tuple[int, int]


# ---------------------------------------------------------------- moving along a path


def _rider_positions(tx: Tx, fv: FightVehicle, to: Square) -> dict[str, Square]:
    pos = fv.vehicle.state.position
    if pos is None:
        return {}
    dx, dy = to[0] - pos[0], to[1] - pos[1]
    out: dict[str, Square] = {}
    for r in fv.riders:
        rp = tx.state.combatants[r].position if r in tx.state.combatants else None
        if rp is not None:
            out[r] = (rp[0] + dx, rp[1] + dy)
    return out


def _emit_path(tx: Tx, vid: str, path: list[Footprint], cost: int, new: Vehicle, verb: str, rule: str) -> None:
    """Move the vehicle (and its riders) along ``path`` (start first) and give it the state ``new`` there."""
    fv = tx.state.vehicles[vid]
    end = path[-1].anchor
    riders = _rider_positions(tx, fv, end)
    state = new.state.model_copy(update={"position": end})
    tx.emit(VehicleMoved(id=vid, path=tuple(f.anchor for f in path), cost_ft=cost, state=state, riders=riders,
                         verb=verb, rule=rule))  # fmt: skip


def _cost(path: list[Footprint]) -> int:
    diag = 0
    total = 0
    for a, b in itertools.pairwise(path):
        if a.x != b.x and a.y != b.y:
            diag += 1
            total += 10 if diag % 2 == 0 else 5
        else:
            total += 5
    return total


def _threats(tx: Tx, fv: FightVehicle) -> dict[str, frozenset[Square]]:
    """The enemies that could take an attack of opportunity against the vehicle, with their threatened squares
    (AOO-13: judged as against its pilot, or any rider)."""
    s = tx.state
    proxy = V.pilot_of(s, fv) or next((s.combatants[r] for r in fv.riders if r in s.combatants), None)
    if proxy is None:
        return {}
    return {k: v for k, v in reactions.threats_against(s, proxy).items() if k not in fv.riders}


def _provocations(path: list[Footprint], zones: dict[str, frozenset[Square]]) -> list[tuple[int, str]]:
    """(step, enemy): the first step at which the vehicle leaves a square ``enemy`` threatens (AOO-06)."""
    out: list[tuple[int, str]] = []
    for enemy, zone in zones.items():
        for i in range(len(path) - 1):
            if any(sq in zone for sq in path[i].squares) and path[i + 1] != path[i]:
                out.append((i, enemy))
                break
    return sorted(out)


def _traverse(
    tx: Tx,
    fv: FightVehicle,
    path: list[Footprint],
    new: Vehicle,
    verb: str,
    rule: str,
    *,
    racing: bool,
    provocations: list[tuple[int, str]] | None = None,
) -> bool:
    """Move the vehicle along ``path``, stopping for the attacks of opportunity it provokes (they hit the
    vehicle; +2 AC while racing, VEH-10). False if it was wrecked on the way (it stays where it was hit).
    ``provocations``: (step, enemy) as the path finder found them (default: worked out here)."""
    done = 0
    pending = provocations if provocations is not None else _provocations(path, _threats(tx, fv))
    for i, enemy in sorted(pending):
        if i > done:
            seg = path[done : i + 1]
            _emit_path(tx, fv.id, seg, _cost(seg), _keep_hp(tx, fv.id, new), verb if done == 0 else "goes on", rule)
            done = i
        vehicle_aoo(tx, enemy, fv.id, racing=racing)
        if tx.state.vehicles[fv.id].vehicle.wrecked:
            tx.note(f"{fv.id} is wrecked and stops at {path[done].x},{path[done].y}", "VEH-32")
            return False
    if done < len(path) - 1 or len(path) == 1:
        seg = path[done:]
        _emit_path(tx, fv.id, seg, _cost(seg), _keep_hp(tx, fv.id, new), verb if done == 0 else "goes on", rule)
    return True


def _keep_hp(tx: Tx, vid: str, new: Vehicle) -> Vehicle:
    """``new`` with the Hit Points the vehicle has now (attacks on the way may have changed them)."""
    return new.with_state(hp=tx.state.vehicles[vid].vehicle.state.hp)


# ---------------------------------------------------------------- crashes


def crash_into(tx: Tx, vid: str, what: str | None) -> None:
    """VEH-25: a crash deals double collision damage to the vehicle and to what it hit (a controlled vehicle may
    dodge, as if rammed); the vehicle stops. A creature in the way takes the doubled damage too."""
    fv = tx.state.vehicles[vid]
    v, opts = fv.vehicle, tx.state.vehicle_options
    if what is not None and what in tx.state.vehicles:
        ofv = tx.state.vehicles[what]
        op = V.pilot_of(tx.state, ofv)
        res = P.crash(v, tx.dice, ofv.vehicle, obstacle_pilot=op.creature if op is not None else None, options=opts)
        for ch in res.checks:
            tx.emit(CheckMade(id=what, what="Piloting to avoid a crash (VEH-25)", success=ch.success,
                              check=check_data(ch)))  # fmt: skip
        _emit_state(tx, vid, res.vehicle, res.lines)
        if isinstance(res.obstacle, Vehicle):
            _emit_state(tx, what, res.obstacle)
            if res.obstacle.wrecked:
                _wrecked(tx, what)
    elif what is not None and what in tx.state.combatants:
        coll = roll_collision(v, tx.dice, target_times=2, self_share="double", purpose="crash", options=opts)
        hit = strike(tx.state.creature(what), coll.to_target, source=f"{vid}'s crash", options=opts)
        own = damage_vehicle(v, coll.to_self, source="its crash", options=opts)
        lines = [*coll.lines, f"{vid} crashes into {what}: double collision damage ({coll.to_target.total}) to "
                 "both [VEH-25]", *own.lines]  # fmt: skip
        _emit_state(tx, vid, own.vehicle.with_state(moving=False, last_move_ft=0), lines)
        assert isinstance(hit.target, Creature)
        tx.creature(what, hit.target, hit.lines)
    else:
        res = P.crash(v, tx.dice, None, options=opts)
        _emit_state(tx, vid, res.vehicle, res.lines)
    if tx.state.vehicles[vid].vehicle.wrecked:
        _wrecked(tx, vid)


__all__ = [
    "crash_into",
]
