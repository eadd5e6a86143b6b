"""Planning a move action for a combatant: the grid's path finder with the creature's speed and the other
combatants as allies, enemies or helpless bodies (ACT-35, MOV-05..20).

One move action moves up to the creature's speed (after conditions and armor, MOV-06); a second move action
is a second command (a double move). The 1-2 diagonal count carries over between the moves of one turn
(MOV-10 default).
"""

from __future__ import annotations

from sftactics.core.errors import RuleViolation
from sftactics.encounter import space
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid.geometry import count_squares
from sftactics.grid.movement import Mover, Occupant, find_path, price_path
from sftactics.grid.space import Size
from sftactics.sf1e import stats

Square = tuple[int, int]


def occupants(state: Encounter, mover: Combatant) -> dict[Square, Occupant]:
    out: dict[Square, Occupant] = {}
    for c in state.combatants.values():
        if c.id == mover.id or c.position is None or c.fled:
            continue
        fp = space.footprint(c)
        assert fp is not None
        cr = c.creature
        if "helpless" in _conditions(c):
            kind = Occupant.HELPLESS
        elif cr.has("paralyzed"):
            kind = Occupant.PARALYZED
        elif c.side == mover.side:
            kind = Occupant.ALLY
        else:
            kind = Occupant.ENEMY
        for sq in fp.squares:
            out[sq] = kind
    return out


def _conditions(c: Combatant) -> set[str]:
    from sftactics.sf1e import conditions as cond

    return set(cond.active(c.creature))


def mover_for(c: Combatant) -> Mover:
    return Mover(
        size=Size(c.creature.stat.size),
        speed=stats.speed(c.creature).total,
        incorporeal=c.creature.stat.incorporeal,
    )


def plan(
    state: Encounter, c: Combatant, *, to: Square | None, path: tuple[Square, ...] | None
) -> tuple[tuple[Square, ...], int, int, list[str]]:
    """(path with start, cost in feet, diagonals counted, explanation) for one move action, or RuleViolation."""
    if c.position is None:
        raise RuleViolation("MOV-05", f"{c.id} has no position on the map")
    if (to is None) == (path is None):
        raise RuleViolation("ACT-35", "a move needs either a destination ('to') or a 'path'")
    speed_bd = stats.speed(c.creature)
    speed = speed_bd.total
    if speed <= 0:
        raise RuleViolation("MOV-06", f"{c.id} cannot move ({speed_bd.describe()})")
    grid = state.grid
    mover = mover_for(c)
    if grid is None:
        goal = to if to is not None else (path[-1] if path else c.position)
        dx, dy = abs(goal[0] - c.position[0]), abs(goal[1] - c.position[1])
        cost = 5 * count_squares(dx, dy, c.diagonals)
        if cost > speed:
            raise RuleViolation("ACT-35", f"{goal} is {cost} ft away; {c.id} moves {speed} ft per move action")
        taken = _occupied(state, c, goal)
        if taken:
            raise RuleViolation("MOV-16", f"{c.id} cannot end its move in {taken}'s square")
        return (c.position, goal), cost, min(dx, dy), [f"{c.id} moves {cost} ft to {goal} ({speed_bd.describe()})"]
    occ = occupants(state, c)
    if path is not None:
        priced = price_path(grid, c.position, list(path), mover, occupants=occ, diagonals_before=c.diagonals)
        if priced.cost_ft > speed:
            raise RuleViolation(
                "ACT-35", f"that path costs {priced.cost_ft} ft; {c.id} moves {speed} ft per move action"
            )
        if not priced.end_legal:
            raise RuleViolation("MOV-16", f"{c.id} cannot end its move in an occupied square")
    else:
        assert to is not None
        found = find_path(grid, c.position, to, mover, occupants=occ, budget_ft=speed, diagonals_before=c.diagonals)
        if found is None:
            raise RuleViolation("ACT-35", f"{c.id} has no legal path to {to} within {speed} ft")
        priced = found
    squares = priced.squares
    diagonals = priced.diagonals - c.diagonals
    line = f"{c.id} moves {priced.cost_ft} ft: {' -> '.join(f'{x},{y}' for x, y in squares)} (speed {speed} ft)"
    return squares, priced.cost_ft, diagonals, [line]


def _occupied(state: Encounter, c: Combatant, square: Square) -> str | None:
    for o in state.combatants.values():
        if o.id == c.id or o.position is None or o.creature.has("dead"):
            continue
        fp = space.footprint(o)
        if fp is not None and fp.contains(square):
            return o.id
    return None
