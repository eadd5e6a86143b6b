"""Going to look for foes nobody has located: the moves a policy makes toward a square it cannot see.

The engine's own movement decides everything (``grid.movement``: the costs, walls, corners, squeezes and the
creatures in the way of a ``move`` command): :func:`distance_field` is the cost of the cheapest path from a square
to every square a creature can stop on, and :func:`step_toward` the square of one move action that brings it
closest to a goal by path. The built-in policy (``encounter.policy.simple``) goes toward the foes its side has
located, else toward where the foes started (:func:`toward_foes`); the simulation's policies add a memory and a
search pattern (``sim.search``).
"""

from __future__ import annotations

import dataclasses

from sftactics.encounter import perception, space
from sftactics.encounter.movement import mover_for, occupants
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid.geometry import Footprint, footprint_distance_ft
from sftactics.grid.map import cached
from sftactics.grid.movement import Mover, reachable
from sftactics.sf1e.senses import Awareness

Square = tuple[int, int]

NEAR_FT = 10  # a square counts as looked at once a member of the side stands this near it
_FAR = 500_000  # feet: a speed that reaches every square of any map in one search
_NONE = 1 << 60


def distance_field(state: Encounter, mover: Mover, start: Square) -> dict[Square, int]:
    """The cost in feet of the cheapest path from ``start`` to every square where ``mover`` can stop, ignoring
    creatures (who stands where changes; the map does not). Remembered per map."""
    grid = state.grid
    far = dataclasses.replace(mover, speed=_FAR)
    key = ("seek-field", start, mover.size, mover.mode, mover.incorporeal)
    return cached(grid, key, lambda: dict(reachable(grid, start, far).cost))


def step_toward(state: Encounter, me: Combatant, goal: Square) -> Square | None:
    """The square of one move action closest to ``goal`` by path (then the cheapest to reach, then the lowest
    x and y), with the creatures where they stand; None if no square is closer than where ``me`` stands."""
    if state.grid is None or me.position is None:
        return None
    mover = mover_for(me)
    to_goal = distance_field(state, mover, goal)
    rm = reachable(state.grid, me.position, mover, occupants=occupants(state, me), diagonals_before=me.diagonals)
    best: tuple[int, int, Square] | None = None
    for sq, acts in rm.actions.items():
        if acts != 1 or sq in rm.squeezed:
            continue
        cand = (to_goal.get(sq, _NONE), rm.cost[sq], sq)
        if best is None or cand < best:
            best = cand
    if best is None or best[0] >= to_goal.get(me.position, _NONE):
        return None
    return best[2]


def near_side(state: Encounter, side: str, sq: Square) -> bool:
    """A member of ``side`` still able to fight stands within ``NEAR_FT`` of ``sq``."""
    spot = Footprint(sq[0], sq[1], 1)
    return any(
        footprint_distance_ft(fp, spot) <= NEAR_FT
        for c in state.combatants.values()
        if c.side == side and not c.out_of_fight
        for fp in [space.footprint(c)]
        if fp is not None
    )


def search_could_locate(state: Encounter, me: Combatant) -> bool:
    """``me`` knows a foe is there but not where, and its senses could pinpoint it: a Search may find it."""
    for foe in state.enemies_of(me.id):
        if foe.out_of_fight:
            continue
        if perception.view(state, me.id, foe.id) != Awareness.AWARE_OF_PRESENCE:
            continue
        if perception.observation(state, me, foe).ceiling >= Awareness.AWARE_OF_LOCATION:
            return True
    return False


def toward_foes(start: Encounter, state: Encounter, me: Combatant) -> Square | None:
    """Where the built-in policy moves a combatant that has located no foe (one move action): toward the nearest
    foe (by path) a member of its side has located, else toward the nearest square where a foe started (in
    ``start``) that no able member of its side stands near; None if there is nowhere to go."""
    if state.grid is None or me.position is None:
        return None
    known = perception.side_knows(state, me.side)
    located = [
        f.position
        for f in state.enemies_of(me.id)
        if not f.out_of_fight and f.position is not None and known[f.id] >= Awareness.AWARE_OF_LOCATION
    ]
    starts = [
        c.position
        for c in start.combatants.values()
        if c.side != me.side and c.position is not None and not near_side(state, me.side, c.position)
    ]
    reach = distance_field(state, mover_for(me), me.position)
    for goals in (located, starts):
        options = sorted((reach[sq], sq) for sq in goals if sq in reach)
        for _, sq in options:
            step = step_toward(state, me, sq)
            if step is not None:
                return step
    return None
