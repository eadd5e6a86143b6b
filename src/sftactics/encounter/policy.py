"""A simple built-in decision maker: close in on the nearest foe and attack it.

It only proposes commands; the engine decides whether they are legal. On its turn a combatant:
spends Resolve to stabilize if dying, stays in the fight if stable and able; otherwise picks the nearest
enemy still fighting, attacks it if a weapon reaches, else moves toward it (using the grid's reachable
squares) and attacks if it can; then ends its turn.
"""

from __future__ import annotations

from collections.abc import Callable

from sftactics.core.errors import RuleViolation
from sftactics.encounter import space
from sftactics.encounter.commands import Attack, Command, EndTurn, Move, StabilizeWithResolve, StayInTheFight
from sftactics.encounter.engine import Fight, pending
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid.geometry import footprint_distance_ft
from sftactics.sf1e.statblock import Weapon

Policy = Callable[[Fight, str], None]


def _foes(state: Encounter, me: Combatant) -> list[Combatant]:
    return [c for c in state.enemies_of(me.id) if not c.out_of_fight]


def _nearest(state: Encounter, me: Combatant) -> Combatant | None:
    foes = _foes(state, me)
    if not foes:
        return None
    return min(foes, key=lambda f: (space.distance_ft(me, f) or 0, f.id))


def _usable_weapon(state: Encounter, me: Combatant, target: Combatant) -> Weapon | None:
    """The first weapon (stat block order) that can attack ``target`` from here."""
    for w in me.creature.stat.weapons:
        if w.is_grenade:
            continue
        try:
            space.attack_geometry(state, me, target, w)
        except RuleViolation:
            continue
        return w
    return None


def _approach(state: Encounter, me: Combatant, target: Combatant) -> tuple[int, int] | None:
    """The reachable square (one move action) closest to ``target``; None if none is closer."""
    if me.position is None or target.position is None or state.grid is None:
        return None
    from sftactics.encounter.movement import mover_for, occupants
    from sftactics.grid.movement import reachable

    fp_t = space.footprint(target)
    assert fp_t is not None
    rm = reachable(
        state.grid, me.position, mover_for(me), occupants=occupants(state, me), diagonals_before=me.diagonals
    )
    here = space.footprint(me)
    assert here is not None
    best: tuple[int, int, tuple[int, int]] | None = None
    side = here.side
    from sftactics.grid.geometry import Footprint

    for sq, acts in rm.actions.items():
        if acts != 1:
            continue
        d = footprint_distance_ft(Footprint(sq[0], sq[1], side), fp_t)
        cand = (d, rm.cost[sq], sq)
        if best is None or cand < best:
            best = cand
    if best is None or best[0] >= footprint_distance_ft(here, fp_t):
        return None
    return best[2]


def _try(fight: Fight, cmd: Command) -> bool:
    try:
        fight.do(cmd)
    except RuleViolation:
        return False
    return True


def simple(fight: Fight, cid: str) -> None:
    """Take ``cid``'s whole turn with the simple policy."""
    s = fight.state
    me = s.get(cid)
    cr = me.creature
    if cr.has("dying"):
        _try(fight, StabilizeWithResolve(actor=cid))
    elif (cr.has("stable") or cr.has("unconscious")) and cr.state.hp == 0:
        _try(fight, StayInTheFight(actor=cid))
    for moves in range(3):  # attack if possible; otherwise close in and try again (at most a double move)
        s = fight.state
        if s.result is not None or s.timeline.turn not in (None, cid):
            return
        me = s.get(cid)
        target = _nearest(s, me)
        if me.out_of_fight or target is None:
            break
        weapon = _usable_weapon(s, me, target)
        if weapon is not None and _try(fight, Attack(actor=cid, target=target.id, weapon=weapon.name)):
            break
        dest = _approach(s, me, target) if moves < 2 else None
        if dest is None or not _try(fight, Move(actor=cid, to=dest)):
            break
    s = fight.state
    if s.result is None and s.timeline.turn in (None, cid) and pending(s) == cid:
        fight.do(EndTurn(actor=cid))
