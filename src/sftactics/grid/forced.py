"""Forced movement: a creature moved by someone else's maneuver (MAN-02 bull rush, MAN-09 reposition, MAN-10
the drag of a full-action reposition).

Such movement is not the creature's own: it pays no terrain costs (difficult terrain does not slow a push) and
it may only go where the creature could stand. One step is refused when the new space

* leaves the map, holds a wall square, a cover object or impassable ground, or a narrow square the creature
  could enter only by squeezing (a push never squeezes anyone: a decision, the text only says "obstacle");
* crosses a wall or window edge, or passes diagonally by a hard corner (MOV-11);
* overlaps another creature's space (``taken``: the caller decides who counts, dead bodies do not).

:func:`push` goes square by square in one direction and stops before the first such step: the creature ends in
the last space it could legally enter (MAN-02). :func:`shift` finds the shortest route to a chosen square in
which every space is allowed (a reposition stays within the attacker's reach the whole way, MAN-09); distances
count diagonals 5-10-5 (MOV-10).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection
from dataclasses import dataclass

from sftactics.grid.geometry import DIRECTIONS, Footprint, Square
from sftactics.grid.map import Feature, GridMap, edge_between

#: Squares no creature is ever forced into.
OBSTACLES = Feature.SOLID | Feature.COVER | Feature.IMPASSABLE


@dataclass(frozen=True, slots=True)
class ForcedPath:
    """Where a forced movement went: every space, start first, and why it stopped short (empty if it did
    not)."""

    positions: tuple[Footprint, ...]
    stopped_by: str = ""

    @property
    def end(self) -> Footprint:
        return self.positions[-1]

    @property
    def moved_ft(self) -> int:
        """Feet moved, diagonals counted 5-10-5 (MOV-10)."""
        feet = diagonals = 0
        for a, b in zip(self.positions, self.positions[1:], strict=False):
            diagonal = a.x != b.x and a.y != b.y
            feet += 10 if diagonal and diagonals % 2 else 5
            diagonals += diagonal
        return feet

    @property
    def squares(self) -> tuple[Square, ...]:
        return tuple(p.anchor for p in self.positions)


def blocked_step(
    grid: GridMap,
    here: Footprint,
    to: Footprint,
    taken: Collection[Square] = (),
    *,
    can_enter_narrow: bool = False,
) -> str:
    """Why the creature in ``here`` cannot be moved one step to ``to`` (empty string: it can)."""
    dx, dy = to.x - here.x, to.y - here.y
    if not grid.fits(to):
        return "the edge of the map"
    blocking = OBSTACLES if can_enter_narrow else OBSTACLES | Feature.NARROW
    for sq in to.squares:
        f = grid.features(sq)
        if f & blocking:
            what = "a narrow passage" if f & Feature.NARROW and not f & OBSTACLES else "a wall or an obstacle"
            return f"{what} at {sq[0]},{sq[1]}"
        if sq in taken:
            return f"a creature at {sq[0]},{sq[1]}"
    for sq in here.squares:
        t = (sq[0] + dx, sq[1] + dy)
        if here.contains(t):
            continue
        if dx and dy:
            if grid.is_hard_point((max(sq[0], t[0]), max(sq[1], t[1]))):
                return f"a corner between {sq[0]},{sq[1]} and {t[0]},{t[1]}"
        elif edge_between(sq, t) in grid.blocking_edges:
            return f"a wall between {sq[0]},{sq[1]} and {t[0]},{t[1]}"
    if to.side > 1:
        edges = grid.blocking_edges
        for j in range(to.side):
            for i in range(to.side):
                if (i and (to.x + i, to.y + j, 0) in edges) or (j and (to.x + i, to.y + j, 1) in edges):
                    return f"a wall through the space at {to.x},{to.y}"
    return ""


def push(
    grid: GridMap,
    start: Footprint,
    direction: tuple[int, int],
    squares: int,
    taken: Collection[Square] = (),
    *,
    can_enter_narrow: bool = False,
) -> ForcedPath:
    """Move ``start`` up to ``squares`` steps of ``direction`` ((dx, dy), each -1, 0 or 1), stopping before
    the first step that is not possible (MAN-02)."""
    dx, dy = direction
    path = [start]
    if (dx, dy) == (0, 0):
        return ForcedPath(tuple(path), "no direction to push in")
    here = start
    for _ in range(squares):
        nxt = Footprint(here.x + dx, here.y + dy, here.side)
        why = blocked_step(grid, here, nxt, taken, can_enter_narrow=can_enter_narrow)
        if why:
            return ForcedPath(tuple(path), why)
        path.append(nxt)
        here = nxt
    return ForcedPath(tuple(path))


def shift(
    grid: GridMap,
    start: Footprint,
    goal: Square,
    max_ft: int,
    taken: Collection[Square] = (),
    *,
    allowed: Callable[[Footprint], bool] = lambda fp: True,
    can_enter_narrow: bool = False,
) -> ForcedPath | None:
    """The shortest way to move ``start`` to ``goal`` within ``max_ft``, every space on the way ``allowed``
    and every step possible (MAN-09, MAN-10); None if there is none."""
    target = Footprint(goal[0], goal[1], start.side)
    if target == start:
        return ForcedPath((start,))
    # Dijkstra over (space, parity of diagonals so far): the 5-10-5 count makes parity part of the state
    best: dict[tuple[Footprint, int], int] = {(start, 0): 0}
    parent: dict[tuple[Footprint, int], tuple[Footprint, int]] = {}
    queue: list[tuple[int, int, int, int]] = [(0, start.x, start.y, 0)]
    while queue:
        cost, x, y, parity = heapq.heappop(queue)
        here = Footprint(x, y, start.side)
        if best.get((here, parity), cost + 1) < cost:
            continue
        if here == target:
            chain = [(here, parity)]
            while chain[-1] in parent:
                chain.append(parent[chain[-1]])
            return ForcedPath(tuple(fp for fp, _ in reversed(chain)))
        for dx, dy in DIRECTIONS:
            diagonal = bool(dx and dy)
            step = 10 if diagonal and parity else 5
            nxt = Footprint(x + dx, y + dy, start.side)
            total = cost + step
            if total > max_ft or not allowed(nxt):
                continue
            if blocked_step(grid, here, nxt, taken, can_enter_narrow=can_enter_narrow):
                continue
            key = (nxt, parity ^ diagonal)
            if total < best.get(key, max_ft + 1):
                best[key] = total
                parent[key] = (here, parity)
                heapq.heappush(queue, (total, nxt.x, nxt.y, key[1]))
    return None


def toward(
    grid: GridMap,
    start: Footprint,
    goal: Square,
    max_ft: int,
    taken: Collection[Square] = (),
    *,
    allowed: Callable[[Footprint], bool] = lambda fp: True,
    can_enter_narrow: bool = False,
) -> ForcedPath:
    """Move ``start`` straight toward ``goal`` (each step diagonal while both coordinates differ), at most
    ``max_ft``, stopping before the first step that is not possible or not ``allowed``: where a forced
    movement with no clear way to its goal ends (MAN-02, MAN-09)."""
    path = [start]
    here, cost, diagonals = start, 0, 0
    while here.anchor != goal:
        dx = (goal[0] > here.x) - (goal[0] < here.x)
        dy = (goal[1] > here.y) - (goal[1] < here.y)
        diagonal = bool(dx and dy)
        step = 10 if diagonal and diagonals % 2 else 5
        if cost + step > max_ft:
            break
        nxt = Footprint(here.x + dx, here.y + dy, here.side)
        why = blocked_step(grid, here, nxt, taken, can_enter_narrow=can_enter_narrow)
        if not why and not allowed(nxt):
            why = f"the limit of the move at {nxt.x},{nxt.y}"
        if why:
            return ForcedPath(tuple(path), why)
        path.append(nxt)
        here, cost, diagonals = nxt, cost + step, diagonals + diagonal
    return ForcedPath(tuple(path))


def drag(
    grid: GridMap,
    mover: Footprint,
    dragged: Footprint,
    goal: Square,
    max_ft: int,
    taken: Collection[Square] = (),
    *,
    can_enter_narrow: tuple[bool, bool] = (False, False),
) -> tuple[ForcedPath, ForcedPath]:
    """A full-action reposition's drag (MAN-10): ``mover`` goes straight toward ``goal`` (at most ``max_ft``)
    and ``dragged`` keeps the same place relative to it, so it stays within reach. Each step must be possible
    for both (either may enter the squares the other leaves); the two stop together before the first step that
    is not. ``taken`` is everyone else's squares."""
    a_path, t_path = [mover], [dragged]
    a, t, cost, diagonals = mover, dragged, 0, 0
    why = ""
    while a.anchor != goal:
        dx = (goal[0] > a.x) - (goal[0] < a.x)
        dy = (goal[1] > a.y) - (goal[1] < a.y)
        diagonal = bool(dx and dy)
        step = 10 if diagonal and diagonals % 2 else 5
        if cost + step > max_ft:
            break
        na, nt = Footprint(a.x + dx, a.y + dy, a.side), Footprint(t.x + dx, t.y + dy, t.side)
        why = blocked_step(grid, a, na, taken, can_enter_narrow=can_enter_narrow[0]) or blocked_step(
            grid, t, nt, taken, can_enter_narrow=can_enter_narrow[1]
        )
        if why:
            break
        a_path.append(na)
        t_path.append(nt)
        a, t, cost, diagonals = na, nt, cost + step, diagonals + diagonal
    return ForcedPath(tuple(a_path), why), ForcedPath(tuple(t_path), why)
