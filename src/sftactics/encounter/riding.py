"""A rider's turn for the built-in policies (the engine's simple policy and the simulation's simple and tactical
ones). A pilot out of range, beyond its weapon's first range increment or next to a foe drives to a square from
which its longest-ranged weapon reaches the nearest foe in fewer increments, never next to a foe (a pilot with
only melee weapons runs over or rams a foe ahead of it), then attacks from the vehicle; a passenger stays aboard
and attacks. Every command goes through the engine (refused ones change nothing).
"""

from __future__ import annotations

from collections.abc import Callable

from sftactics.core.errors import RuleViolation
from sftactics.encounter import space
from sftactics.encounter import vehicles as V
from sftactics.encounter.commands import Attack, Command, Reload
from sftactics.encounter.engine import Fight
from sftactics.encounter.state import Combatant, Encounter, FightVehicle
from sftactics.encounter.vehicle_commands import Drive, Ram, RunOver
from sftactics.grid import geometry
from sftactics.grid.geometry import Footprint
from sftactics.grid.space import Size, size_order
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.vehicles.state import drive_speed

Square = tuple[int, int]
Chooser = Callable[[Encounter, Combatant], Combatant | None]
_TRIES = 24  # drive destinations tried, best first


def _try(fight: Fight, cmd: Command) -> bool:
    try:
        fight.do(cmd)
    except RuleViolation:
        return False
    return True


def _weapons(me: Combatant) -> list[Weapon]:
    ws = [w for w in me.creature.stat.weapons if not w.is_grenade]
    return sorted(ws, key=lambda w: (w.is_melee, -w.range_ft))


def _usable(s: Encounter, me: Combatant, target: Combatant) -> Weapon | None:
    for w in _weapons(me):
        try:
            space.attack_geometry(s, me, target, w, explain=False)
        except RuleViolation:
            continue
        return w
    return None


def _foes(s: Encounter, me: Combatant) -> list[Combatant]:
    return [c for c in s.enemies_of(me.id) if not c.out_of_fight and c.position is not None]


def _nearest(s: Encounter, me: Combatant) -> Combatant | None:
    foes = _foes(s, me)
    return min(foes, key=lambda f: (space.distance_ft(me, f) or 0, f.id)) if foes else None


def _shoot(fight: Fight, cid: str, choose: Chooser) -> bool:
    s = fight.state
    me = s.get(cid)
    target = choose(s, me)
    if target is None:
        return False
    w = _usable(s, me, target)
    if w is None:
        return False
    if _try(fight, Attack(actor=cid, target=target.id, weapon=w.name)):
        return True
    return w.capacity is not None and _try(fight, Reload(actor=cid, weapon=w.name))  # out of shots: reload


def _destinations(s: Encounter, fv: FightVehicle, me: Combatant, target: Combatant) -> list[Square]:
    """Anchors within one drive that shorten the range to ``target`` by at least one increment of the rider's
    longest-ranged weapon (or, next to a foe, any square away from them), not next to a foe: fewest increments
    first, then the shortest drive."""
    v, fp = fv.vehicle, V.footprint(fv)
    ft, rp = space.footprint(target), me.position
    grid = s.grid
    if fp is None or ft is None or rp is None or grid is None:
        return []
    ranged = [w for w in _weapons(me) if not w.is_melee]
    if not ranged:
        return []
    inc = max(ranged[0].range_ft, 5)
    squares = drive_speed(v, s.vehicle_options).total // 5
    dx, dy = rp[0] - fp.x, rp[1] - fp.y
    foes = [f for f in (space.footprint(c) for c in _foes(s, me)) if f is not None]
    here = geometry.footprint_distance_ft(Footprint(rp[0], rp[1], 1), ft)
    in_melee = min((geometry.footprint_distance_ft(fp, f) for f in foes), default=99) <= 5
    now = 10_000 if in_melee else max(1, -(-here // inc))  # next to a foe: any square away is better
    scored = []
    for x in range(fp.x - squares, fp.x + squares + 1):
        for y in range(fp.y - squares, fp.y + squares + 1):
            cand = Footprint(x, y, fp.side)
            if not grid.fits(cand):
                continue
            rider = Footprint(x + dx, y + dy, 1)
            dist = geometry.footprint_distance_ft(rider, ft)
            near = min((geometry.footprint_distance_ft(cand, f) for f in foes), default=99)
            if near <= 5:
                continue
            steps = max(1, -(-dist // inc))  # range increments: fewer is a smaller penalty (ATK-10)
            if steps >= now:
                continue
            scored.append((steps, abs(x - fp.x) + abs(y - fp.y), (x, y)))
    return [sq for _, _, sq in sorted(scored)[:_TRIES]]


def _pilot_turn(fight: Fight, cid: str, fv: FightVehicle, choose: Chooser) -> None:
    s = fight.state
    me = s.get(cid)
    target = choose(s, me)
    if target is None:
        return
    ranged = any(not w.is_melee for w in _weapons(me))
    if not ranged:
        small = size_order(fv.vehicle.stat.grid_size) - size_order(Size(target.creature.stat.size)) >= 2
        if small and target.position is not None and _try(fight, RunOver(actor=cid, to=_beyond(s, fv, target))):
            return
        if _try(fight, Ram(actor=cid, target=target.id)):
            return
    w = _usable(s, me, target)
    far = w is not None and not w.is_melee and (space.distance_ft(me, target) or 0) > w.range_ft
    if w is None or far or _adjacent_foe(s, fv):  # out of range, beyond the first increment, or in melee
        for dest in _destinations(s, fv, me, target):
            if _try(fight, Drive(actor=cid, to=dest)):
                break
    _shoot(fight, cid, choose)


def _adjacent_foe(s: Encounter, fv: FightVehicle) -> bool:
    fp = V.footprint(fv)
    me = s.get(fv.riders[0]) if fv.riders and fv.riders[0] in s.combatants else None
    if fp is None or me is None:
        return False
    return any(geometry.footprint_distance_ft(fp, f) <= 5 for f in (space.footprint(c) for c in _foes(s, me)) if f)


def _beyond(s: Encounter, fv: FightVehicle, target: Combatant) -> Square:
    """The anchor just past ``target`` in the vehicle's direction of travel toward it (for a run over)."""
    fp, tp = V.footprint(fv), target.position
    assert fp is not None and tp is not None
    sx = (tp[0] > fp.x) - (tp[0] < fp.x)
    sy = (tp[1] > fp.y) - (tp[1] < fp.y)
    return (tp[0] + sx * fp.side if sx else fp.x, tp[1] + sy * fp.side if sy else fp.y)


def ride(fight: Fight, cid: str, choose: Chooser | None = None) -> bool:
    """Take the turn of ``cid`` if it rides a vehicle (True), as the module docstring says; the caller ends
    the turn. ``choose`` picks the foe (default: the nearest)."""
    s = fight.state
    fv = V.aboard(s, cid)
    if fv is None or s.get(cid).out_of_fight:
        return False
    pick = choose or _nearest
    if fv.vehicle.state.control == "pilot" and fv.vehicle.state.pilot == cid and not fv.vehicle.wrecked:
        _pilot_turn(fight, cid, fv, pick)
    else:
        _shoot(fight, cid, pick)
    return True


__all__ = ["ride"]
