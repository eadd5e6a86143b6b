"""A simple built-in decision maker: close in on the nearest foe and attack it.

It only proposes commands; the engine decides whether they are legal. On its turn a combatant:
spends Resolve to stabilize if dying, stays in the fight if stable and able; otherwise picks the nearest
enemy still fighting; throws a grenade if one can catch two foes and no ally; attacks the nearest foe if a
weapon reaches, else moves toward it (using the grid's reachable
squares) and attacks if it can; then ends its turn. With no foe located it makes a Search (Perception), then
moves toward the foes its side has located or else where the foes started (``encounter.seek``).
"""

from __future__ import annotations

from collections.abc import Callable

from sftactics.core.errors import RuleViolation
from sftactics.encounter import confusion, space
from sftactics.encounter.commands import (
    Attack,
    Command,
    EndTurn,
    Move,
    Search,
    StabilizeWithResolve,
    StayInTheFight,
    ThrowGrenade,
)
from sftactics.encounter.engine import Fight, pending
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid.geometry import footprint_distance_ft
from sftactics.sf1e.statblock import Weapon

Policy = Callable[[Fight, str], None]


def _foes(state: Encounter, me: Combatant) -> list[Combatant]:
    """Enemies still fighting that this combatant knows the location of (it acts only on what it perceives)."""
    from sftactics.encounter.perception import perceived_enemies

    return [c for c in perceived_enemies(state, me.id) if not c.out_of_fight]


def _nearest(state: Encounter, me: Combatant) -> Combatant | None:
    foes = _foes(state, me)
    if not foes:
        return None
    return min(foes, key=lambda f: (space.distance_ft(me, f) or 0, f.id))


def _nearest_of(state: Encounter, me: Combatant, ids: tuple[str, ...]) -> Combatant | None:
    them = [state.get(i) for i in ids if i in state.combatants]
    return min(them, key=lambda f: (space.distance_ft(me, f) or 0, f.id)) if them else None


def _usable_weapon(state: Encounter, me: Combatant, target: Combatant) -> Weapon | None:
    """The first weapon (stat block order) that can attack ``target`` from here."""
    for w in me.creature.stat.weapons:
        if w.is_grenade or w.name in me.on_ground:  # a thrown weapon lying on the map (ACT-34)
            continue
        try:
            space.attack_geometry(state, me, target, w)
        except RuleViolation:
            continue
        return w
    return None


def _approach(state: Encounter, me: Combatant, target: Combatant) -> tuple[int, int] | None:
    """The reachable square (one move action) closest to ``target``, preferring one that flanks it with an
    ally; None if none is closer than where it stands."""
    if me.position is None or target.position is None or state.grid is None:
        return None
    from sftactics.encounter.movement import mover_for, occupants
    from sftactics.grid.flanking import flank_line
    from sftactics.grid.geometry import Footprint
    from sftactics.grid.movement import reachable

    fp_t = space.footprint(target)
    here = space.footprint(me)
    assert fp_t is not None and here is not None
    rm = reachable(
        state.grid, me.position, mover_for(me), occupants=occupants(state, me), diagonals_before=me.diagonals
    )
    allies = [
        fp
        for c in state.combatants.values()
        if c.side == me.side and c.id != me.id and not c.out_of_fight
        for fp in [space.footprint(c)]
        if fp is not None and footprint_distance_ft(fp, fp_t) <= 5
    ]
    best: tuple[int, int, int, tuple[int, int]] | None = None
    for sq, acts in rm.actions.items():
        if acts != 1 or sq in rm.squeezed:
            continue
        fp = Footprint(sq[0], sq[1], here.side)
        d = footprint_distance_ft(fp, fp_t)
        flanks = 0 if any(flank_line(fp, a, fp_t) for a in allies) and d <= 5 else 1
        cand = (d, flanks, rm.cost[sq], sq)
        if best is None or cand < best:
            best = cand
    if best is None or best[0] >= footprint_distance_ft(here, fp_t):
        return None
    return best[3]


def _grenade_point(state: Encounter, me: Combatant) -> tuple[str, tuple[int, int]] | None:
    """A grenade and an intersection whose burst catches at least two foes and no ally (in range)."""
    from sftactics.encounter.actions import ammo_left
    from sftactics.grid import areas, geometry

    grid = state.grid
    here = space.footprint(me)
    if grid is None or here is None:
        return None
    foes = {c.id: fp for c in _foes(state, me) for fp in [space.footprint(c)] if fp is not None}
    friends = {c.id: fp for c in state.combatants.values() if c.side == me.side and not c.creature.has("dead")
               for fp in [space.footprint(c)] if fp is not None}  # fmt: skip
    best: tuple[int, str, tuple[int, int]] | None = None
    for w in me.creature.stat.weapons:
        if not w.is_grenade or w.area is None or not ammo_left(me, w):
            continue
        top = geometry.max_range_ft(max(w.range_ft, 5), thrown=True, max_increments=w.max_increments)
        points = {(fp.x + dx, fp.y + dy) for fp in foes.values() for dx in (0, 1) for dy in (0, 1)}
        for p in sorted(points):
            if geometry.distance_to_point_ft(here, p) > top:
                continue
            area = areas.burst(grid, p, w.area.size_ft)
            hit = areas.in_area(area, foes)
            if len(hit) < 2 or areas.in_area(area, friends):
                continue
            if best is None or len(hit) > best[0]:
                best = (len(hit), w.name, p)
    return None if best is None else (best[1], best[2])


def try_command(fight: Fight, cmd: Command) -> bool:
    """Do ``cmd`` if the rules allow it: True if it was done, False (state unchanged) if it was refused."""
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
        try_command(fight, StabilizeWithResolve(actor=cid))
    elif (cr.has("stable") or cr.has("unconscious")) and cr.state.hp == 0:
        try_command(fight, StayInTheFight(actor=cid))
    if fight.state.vehicles:  # a rider drives and shoots from its vehicle (encounter.riding)
        from sftactics.encounter.riding import ride

        if ride(fight, cid, _nearest):
            s = fight.state
            if s.result is None and s.timeline.turn in (None, cid) and pending(s) == cid:
                fight.do(EndTurn(actor=cid))
            return
    for moves in range(3):  # attack if possible; otherwise close in and try again (at most a double move)
        s = fight.state
        if s.result is not None or s.timeline.turn not in (None, cid):
            return
        me = s.get(cid)
        forced = confusion.forced_targets(s, cid)  # confused: bound to attack these (CON-06)
        target = _nearest(s, me) if forced is None else _nearest_of(s, me, forced)
        if target is None and not me.out_of_fight and moves == 0 and try_command(fight, Search(actor=cid)):
            continue  # no foe located: look for one
        if target is None and not me.out_of_fight and forced is None and moves < 2:
            from sftactics.encounter.seek import toward_foes

            dest = toward_foes(fight.start, s, me)  # still none: go toward them (encounter.seek)
            if dest is not None and try_command(fight, Move(actor=cid, to=dest)):
                continue
        if me.out_of_fight or target is None:
            break
        grenade = _grenade_point(s, me) if forced is None else None
        if grenade is not None and try_command(fight, ThrowGrenade(actor=cid, weapon=grenade[0], at=grenade[1])):
            break
        weapon = _usable_weapon(s, me, target)
        first = me.creature.stat.weapons[0] if me.creature.stat.weapons else None
        if first is not None and first.is_melee and weapon is not None and not weapon.is_melee and moves < 2:
            # a melee fighter closes in rather than shooting, while it still can move
            dest = _approach(s, me, target)
            if dest is not None and try_command(fight, Move(actor=cid, to=dest)):
                continue
        if weapon is not None and try_command(fight, Attack(actor=cid, target=target.id, weapon=weapon.name)):
            break
        dest = _approach(s, me, target) if moves < 2 else None
        if dest is None or not try_command(fight, Move(actor=cid, to=dest)):
            break
    s = fight.state
    if s.result is None and s.timeline.turn in (None, cid) and pending(s) == cid:
        fight.do(EndTurn(actor=cid))
