"""What every simulation policy (``sim.policies``) asks before it proposes a command.

Whether it is the combatant's turn and what kinds of action it can still take (:func:`_can`), which weapons it
holds, has loaded and can attack with, Resolve spent at the start of the turn (stabilize, stay in the fight), the
squares it can reach, the squares a burst covers and the sides from which a square next to cover has it (both
remembered per map), and the retreat every policy and morale uses (:func:`retreat`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from sftactics.core.errors import RuleViolation
from sftactics.encounter import budget, space
from sftactics.encounter.actions import ammo_left
from sftactics.encounter.commands import EndTurn, Move, StabilizeWithResolve, StayInTheFight, Withdraw
from sftactics.encounter.engine import Fight, pending
from sftactics.encounter.movement import mover_for, occupants
from sftactics.encounter.policy import try_command
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid import areas
from sftactics.grid.geometry import Footprint, footprint_distance_ft
from sftactics.grid.map import Feature
from sftactics.grid.movement import ReachMap, reachable
from sftactics.sf1e import injury, stats
from sftactics.sf1e.statblock import Weapon
from sftactics.sim.perception import able_enemies

Policy = Callable[[Fight, str], None]
Square = tuple[int, int]


# ---------------------------------------------------------------- shared helpers
def _my_turn(fight: Fight, cid: str) -> bool:
    s = fight.state
    return s.result is None and s.timeline.turn in (None, cid) and pending(s) == cid


def _end_turn(fight: Fight, cid: str) -> None:
    if _my_turn(fight, cid):
        fight.do(EndTurn(actor=cid))


def _surprise(state: Encounter) -> bool:
    return state.timeline.phase == "surprise"


def _can(c: Combatant, kind: budget.Kind, state: Encounter) -> bool:
    try:
        budget.take(c, kind, surprise=_surprise(state))
    except RuleViolation:
        return False
    return True


def _can_move_then_standard(c: Combatant, state: Encounter) -> bool:
    """A move action and then a standard action are both still possible this turn."""
    if not (_can(c, "move", state) and _can(c, "standard", state)):
        return False
    if _surprise(state) or stats.action_limits(c.creature).move_or_standard_only:
        return False
    return "move" not in c.spent and "standard" not in c.spent


def _held(c: Combatant, w: Weapon) -> bool:
    return c.in_hand is None or w.category in ("natural", "unarmed") or w.is_grenade or w.name in c.in_hand


def _loaded(c: Combatant, w: Weapon, shots: int = 1) -> bool:
    left = ammo_left(c, w)
    return left is None or left >= (w.usage if not w.is_grenade else 1) * shots


def _attack_weapons(c: Combatant) -> list[Weapon]:
    """Weapons it can attack with now: held (when tracked), not lying where a throw left them (ACT-34). A melee
    weapon with the thrown property counts as a melee weapon: the policies strike with it, never throw it."""
    return [w for w in c.creature.stat.weapons if not w.is_grenade and _held(c, w) and w.name not in c.on_ground]


def _resolve_start(fight: Fight, cid: str, *, keep_reserve: bool) -> None:
    """Spend Resolve at the start of the turn: stabilize if dying; stay in the fight if stable at 0 HP (with
    ``keep_reserve``, only while enough Resolve is left to stabilize again afterwards)."""
    s = fight.state
    me = s.get(cid)
    cr = me.creature
    if cr.has("dying"):
        if cr.state.rp >= injury.stabilize_cost(cr, s.options):
            try_command(fight, StabilizeWithResolve(actor=cid))
        return
    if cr.has("stable") and cr.state.hp == 0:
        rp = cr.state.rp
        if rp < 1 or cr.state.stabilized_round == s.timeline.round or not s.timeline.turn_fresh:
            return
        if keep_reserve and rp - 1 < injury.stabilize_cost(cr, s.options):
            return
        try_command(fight, StayInTheFight(actor=cid))


def _reach_map(state: Encounter, me: Combatant, actions: int = 1) -> ReachMap | None:
    grid = state.grid
    if grid is None or me.position is None:
        return None
    return reachable(
        grid, me.position, mover_for(me), occupants=occupants(state, me), actions=actions, diagonals_before=me.diagonals
    )


# bursts depend only on the map, the point and the radius: remembered per map (the map object is kept with its
# answers, so a new map can never be mistaken for an old one that had the same id)
_BURSTS: dict[int, tuple[Any, dict[tuple[Square, int], frozenset[Square]]]] = {}


def _burst(state: Encounter, point: Square, radius: int) -> frozenset[Square]:
    grid = state.grid
    entry = _BURSTS.get(id(grid))
    if entry is None or entry[0] is not grid:
        if len(_BURSTS) > 64:
            _BURSTS.clear()
        entry = (grid, {})
        _BURSTS[id(grid)] = entry
    store = entry[1]
    hit = store.get((point, radius))
    if hit is None:
        if len(store) > 20_000:
            store.clear()
        hit = frozenset(areas.burst(grid, point, radius).squares)
        store[(point, radius)] = hit
    return hit


_SIDES: dict[int, tuple[Any, dict[Square, frozenset[tuple[int, int]]]]] = {}


def _cover_sides(grid: Any) -> dict[Square, frozenset[tuple[int, int]]]:
    """For each square next to a cover object or low obstacle, the directions (sx, sy) from which a foe would
    find it between them: the neighbour in x, in y or on the diagonal toward the foe holds one. Per map."""
    hit = _SIDES.get(id(grid))
    if hit is not None and hit[0] is grid:
        return hit[1]
    h, w = grid.height, grid.width
    blk = np.zeros((h + 2, w + 2), dtype=np.bool_)  # a frame of open squares around the map
    blk[1:-1, 1:-1] = (grid.array & int(Feature.COVER | Feature.LOW)) != 0
    dirs = [(sx, sy) for sx in (-1, 0, 1) for sy in (-1, 0, 1) if (sx, sy) != (0, 0)]
    bits = np.zeros((h, w), dtype=np.int32)
    for k, (sx, sy) in enumerate(dirs):  # the neighbour in x, in y or on the diagonal holds one
        near = blk[1 + sy : 1 + sy + h, 1 + sx : 1 + sx + w].copy()
        if sx:
            near |= blk[1 : 1 + h, 1 + sx : 1 + sx + w]
        if sy:
            near |= blk[1 + sy : 1 + sy + h, 1 : 1 + w]
        bits |= near.astype(np.int32) << k
    out: dict[Square, frozenset[tuple[int, int]]] = {}
    ys, xs = np.nonzero(bits)  # only squares next to something: the rest of a large map costs nothing here
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        b = int(bits[y, x])
        out[(x, y)] = frozenset(d for k, d in enumerate(dirs) if b >> k & 1)
    if len(_SIDES) > 64:
        _SIDES.clear()
    _SIDES[id(grid)] = (grid, out)
    return out


def _grenades(me: Combatant) -> list[Weapon]:
    return [w for w in me.creature.stat.weapons if w.is_grenade and w.area is not None and _loaded(me, w)]


# ---------------------------------------------------------------- retreat
def retreat(fight: Fight, cid: str) -> bool:
    """Withdraw (or move) to the square farthest from the able foes the side sees; False if nowhere is better
    than here. The retreat of every policy and morale (``sim.morale``)."""
    s = fight.state
    me = s.get(cid)
    if me.position is None or s.grid is None:
        return False
    full = _can(me, "full", s)
    rm = _reach_map(s, me, 2 if full else 1)
    if rm is None:
        return False
    speed = stats.speed(me.creature).total
    limit = 2 * speed if full else speed
    here = space.footprint(me)
    side_len = here.side if here is not None else 1
    foe_fps = [fp for c in able_enemies(s, me.side) for fp in [space.footprint(c)] if fp is not None]

    def far(sq: Square) -> tuple[int, int]:
        fp = Footprint(sq[0], sq[1], side_len)
        near = min((footprint_distance_ft(fp, f) for f in foe_fps), default=0)
        return near, -rm.cost.get(sq, 0)  # the square it stands on may be no stopping place of the search

    spots = [sq for sq, c in rm.cost.items() if c <= limit and sq not in rm.squeezed]
    if not spots:
        return False
    best = max(spots, key=lambda sq: (*far(sq), -sq[0], -sq[1]))  # ties: the lowest x, then y
    if far(best)[0] <= far(me.position)[0]:
        return False
    if full and try_command(fight, Withdraw(actor=cid, to=best)):
        return True
    return try_command(fight, Move(actor=cid, to=best)) if rm.cost.get(best, 999) <= speed else False
