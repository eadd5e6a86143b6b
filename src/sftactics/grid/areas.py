"""Areas of effect: bursts, emanations, spreads, cones, cylinders, lines and spheres (EFF-01..13, EFF-36).

Measuring (EFF-02): an area starts at a grid intersection (its point of origin, EFF-01) and is counted point to
point with the 5-10-5 diagonals. A square is inside when its far corner (the one farthest from the origin) is
within the area; a square the area only touches on its near side is outside. So a 5-ft burst is the four squares
around the point, a 10-ft burst 12 squares (a 4x4 block without its corners) and a 20-ft burst 44.

An emanation centred on a creature may be measured from its whole space instead of a point: a square is inside
if it is inside for some corner of the space (a 10-ft emanation around a Medium creature is the 5x5 block without
its corners).

* **burst** and **emanation** (EFF-03, EFF-04): the measured shape, minus squares with no line of effect from
  the origin (EFF-36): a square counts if a straight line from the origin reaches its centre or a point just
  inside one of its corners without being blocked. An emanation is a burst that lasts; that is the caller's.
* **spread** (EFF-05): distance is measured along the way the effect can travel, square to square around walls
  and corners (never through them, never diagonally past a hard corner), starting in the squares around the
  point of origin; no line of effect is needed beyond the origin.
* **cone** (EFF-06): a quarter circle from a corner of the user's square in one of eight directions: the squares
  of the burst whose centre lies within 45 degrees of the direction; line of effect from the corner.
* **line** (EFF-08): from a corner of the user's square toward a chosen square's centre (or a point): every square
  whose interior the line crosses, up to the length, stopping where line of effect is blocked.
* **cylinder** (EFF-07): the burst's shape on the floor with a height; it ignores obstructions.
* **sphere** (EFF-09): a burst, emanation or spread of the given radius.
* **shapable** (EFF-10): a set of 10-ft cubes, or any set of squares in which every square is part of a 2x2 block
  of the set (no dimension under 10 ft).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from sftactics.grid.geometry import (
    DIRECTIONS,
    FEET_PER_SQUARE,
    Footprint,
    Point,
    Square,
    count_squares,
    direction_index,
)
from sftactics.grid.lines import ALONG, B_LOE, CROSS, GRAZE, INTERIOR, Thing, contact, things_near, trace
from sftactics.grid.map import Feature, GridMap
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions


class AreaKind(StrEnum):
    BURST = "burst"
    EMANATION = "emanation"
    SPREAD = "spread"


@dataclass(frozen=True, slots=True)
class Area:
    """The squares an effect covers. ``shadowed`` are squares of the shape that line of effect from the origin
    does not reach (left out); ``rule`` names the inventory item of the shape."""

    shape: str
    kind: AreaKind | None
    origin: Point | Footprint
    size_ft: int
    squares: frozenset[Square]
    shadowed: frozenset[Square]
    rule: str

    def __contains__(self, square: object) -> bool:
        return square in self.squares


def _far_gap(x: int, lo: int, hi: int) -> int:
    """Squares from the nearest origin coordinate in [lo, hi] to the far side of square coordinate ``x``."""
    if x < lo:
        return lo - x
    if x >= hi:
        return x + 1 - hi
    return 1


def radius_squares(origin: Point | Footprint, radius_ft: int, grid: GridMap | None = None) -> frozenset[Square]:
    """Squares whose far corner is within ``radius_ft`` of the origin (EFF-02), clipped to the map if given."""
    if isinstance(origin, Footprint):
        lx, ly, hx, hy = origin.x, origin.y, origin.x + origin.side, origin.y + origin.side
    else:
        lx, hx, ly, hy = origin[0], origin[0], origin[1], origin[1]
    r = radius_ft // FEET_PER_SQUARE
    out = set()
    for y in range(ly - r, hy + r):
        for x in range(lx - r, hx + r):
            if FEET_PER_SQUARE * count_squares(_far_gap(x, lx, hx), _far_gap(y, ly, hy)) <= radius_ft:
                out.add((x, y))
    if grid is not None:
        out = {s for s in out if grid.in_bounds(s)}
    return frozenset(out)


_SCALE = 4  # points just inside a square's corners, in quarter squares


def _samples(square: Square) -> tuple[tuple[int, int], ...]:
    x, y = square[0] * _SCALE, square[1] * _SCALE
    return ((x + 2, y + 2), (x + 1, y + 1), (x + 3, y + 1), (x + 1, y + 3), (x + 3, y + 3))


def _origin_points(origin: Point | Footprint) -> tuple[Point, ...]:
    return origin.corners if isinstance(origin, Footprint) else (origin,)


def _reached(
    grid: GridMap, origin: Point | Footprint, squares: Iterable[Square], options: GridOptions
) -> tuple[frozenset[Square], frozenset[Square]]:
    """Split squares into those with line of effect from the origin and those without (EFF-36)."""
    pts = _origin_points(origin)
    # lines from a creature's own corners may not start straight through a wall it stands against
    owner = (
        (origin.x, origin.y, origin.x + origin.side, origin.y + origin.side) if isinstance(origin, Footprint) else None
    )
    owners = (owner, None)
    inside: set[Square] = set()
    shadow: set[Square] = set()
    for sq in squares:
        if grid.in_bounds(sq) and grid.cells[sq[1] * grid.width + sq[0]] & Feature.SOLID:
            shadow.add(sq)
            continue
        x0 = min(min(p[0] for p in pts), sq[0])
        y0 = min(min(p[1] for p in pts), sq[1])
        x1 = max(max(p[0] for p in pts), sq[0] + 1)
        y1 = max(max(p[1] for p in pts), sq[1] + 1)
        things = [t for t in things_near(grid, x0, y0, x1, y1) if t[4] & B_LOE]
        ok = not things or any(
            not trace(
                (p[0] * _SCALE, p[1] * _SCALE), s, things, scale=_SCALE, owners=owners, options=options
            ).loe_blocked
            for p in pts
            for s in _samples(sq)
        )
        (inside if ok else shadow).add(sq)
    return frozenset(inside), frozenset(shadow)


def burst(
    grid: GridMap,
    origin: Point | Footprint,
    radius_ft: int,
    *,
    kind: AreaKind = AreaKind.BURST,
    options: GridOptions = DEFAULT_OPTIONS,
) -> Area:
    """A burst or emanation (EFF-03, EFF-04, EFF-09): the measured shape within line of effect of the origin."""
    if kind is AreaKind.SPREAD:
        if isinstance(origin, Footprint):
            raise ValueError("a spread starts at a grid intersection")
        return spread(grid, origin, radius_ft, options=options)
    inside, shadow = _reached(grid, origin, radius_squares(origin, radius_ft, grid), options)
    rule = "EFF-04" if kind is AreaKind.EMANATION else "EFF-03"
    return Area("sphere", kind, origin, radius_ft, inside, shadow, rule)


def emanation(
    grid: GridMap, origin: Point | Footprint, radius_ft: int, *, options: GridOptions = DEFAULT_OPTIONS
) -> Area:
    """An emanation (EFF-04): a burst that keeps radiating from its origin for its duration."""
    return burst(grid, origin, radius_ft, kind=AreaKind.EMANATION, options=options)


def sphere(
    grid: GridMap,
    origin: Point,
    radius_ft: int,
    kind: AreaKind = AreaKind.BURST,
    *,
    options: GridOptions = DEFAULT_OPTIONS,
) -> Area:
    """A sphere (EFF-09), as a burst, an emanation or a spread."""
    area = burst(grid, origin, radius_ft, kind=kind, options=options)
    return Area("sphere", kind, origin, radius_ft, area.squares, area.shadowed, "EFF-09")


def spread(grid: GridMap, origin: Point, radius_ft: int, *, options: GridOptions = DEFAULT_OPTIONS) -> Area:
    """A spread (EFF-05): squares within ``radius_ft`` measured along the way the effect travels around walls."""
    w, h, cells = grid.width, grid.height, grid.cells
    ox, oy = origin
    heap: list[tuple[int, int, Square]] = []
    dist: dict[tuple[Square, int], int] = {}
    for sq in ((ox - 1, oy - 1), (ox, oy - 1), (ox - 1, oy), (ox, oy)):
        if 0 <= sq[0] < w and 0 <= sq[1] < h and not cells[sq[1] * w + sq[0]] & Feature.SOLID:
            dist[(sq, 1)] = FEET_PER_SQUARE  # the far corner is one (first) diagonal away
            heap.append((FEET_PER_SQUARE, 1, sq))
    heapq.heapify(heap)
    reached: dict[Square, int] = {}
    while heap:
        d, par, sq = heapq.heappop(heap)
        if dist.get((sq, par)) != d:
            continue
        reached.setdefault(sq, d)
        x, y = sq
        for dx, dy in DIRECTIONS:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < w and 0 <= ny < h) or cells[ny * w + nx] & Feature.SOLID:
                continue
            if grid.crossing_blocked(sq, (nx, ny)):
                continue
            diag = bool(dx and dy)
            nd = d + (10 if diag and par else 5)
            if nd > radius_ft:
                continue
            npar = par ^ 1 if diag else par
            if nd < dist.get(((nx, ny), npar), 1 << 30):
                dist[((nx, ny), npar)] = nd
                heapq.heappush(heap, (nd, npar, (nx, ny)))
    shape = radius_squares(origin, radius_ft, grid)
    squares = frozenset(reached)
    return Area("spread", AreaKind.SPREAD, origin, radius_ft, squares, frozenset(shape - squares), "EFF-05")


def _check_corner(origin: Point, caster: Footprint | None) -> None:
    if caster is not None and origin not in caster.points:
        raise ValueError(f"{origin} is not a corner of the user's space {caster}")


def cone(
    grid: GridMap,
    origin: Point,
    direction: str | int,
    length_ft: int,
    *,
    caster: Footprint | None = None,
    kind: AreaKind = AreaKind.BURST,
    options: GridOptions = DEFAULT_OPTIONS,
) -> Area:
    """A cone (EFF-06) from corner ``origin`` of the user's space toward ``direction`` ('N', 'NE', ... or an
    index of DIRECTIONS): burst squares whose centre is within 45 degrees of the direction."""
    _check_corner(origin, caster)
    di = direction_index(direction) if isinstance(direction, str) else direction
    ddx, ddy = DIRECTIONS[di]
    dd = ddx * ddx + ddy * ddy
    shape = set()
    for sq in radius_squares(origin, length_ft, grid):
        vx, vy = 2 * sq[0] + 1 - 2 * origin[0], 2 * sq[1] + 1 - 2 * origin[1]
        dot = vx * ddx + vy * ddy
        if dot > 0 and 2 * dot * dot >= (vx * vx + vy * vy) * dd:
            shape.add(sq)
    if caster is not None:
        shape -= set(caster.squares)
    inside, shadow = _reached(grid, origin, shape, options)
    return Area("cone", kind, origin, length_ft, inside, shadow, "EFF-06")


def line(
    grid: GridMap,
    origin: Point,
    toward: Square | Point,
    length_ft: int,
    *,
    toward_point: bool = False,
    caster: Footprint | None = None,
    options: GridOptions = DEFAULT_OPTIONS,
) -> Area:
    """A line (EFF-08) from corner ``origin`` of the user's space toward the centre of square ``toward`` (or
    toward the point, with ``toward_point``): every square whose interior it crosses within ``length_ft``,
    up to the first thing that blocks line of effect."""
    _check_corner(origin, caster)
    ax, ay = 2 * origin[0], 2 * origin[1]
    tx, ty = (2 * toward[0], 2 * toward[1]) if toward_point else (2 * toward[0] + 1, 2 * toward[1] + 1)
    vx, vy = tx - ax, ty - ay
    if vx == 0 and vy == 0:
        raise ValueError("a line needs a direction")
    reach = 2 * (length_ft // FEET_PER_SQUARE + 2)
    k = math.ceil(reach / max(abs(vx), abs(vy)))
    dx, dy = vx * k, vy * k
    x0, x1 = sorted((ax // 2, (ax + dx) // 2))
    y0, y1 = sorted((ay // 2, (ay + dy) // 2))
    things = [t for t in things_near(grid, x0 - 1, y0 - 1, x1 + 2, y1 + 2) if t[4] & B_LOE]
    block = _first_block(ax, ay, dx, dy, things, options)
    shape = radius_squares(origin, length_ft, grid)
    squares = set()
    for sq in shape:
        bx, by = 2 * sq[0], 2 * sq[1]
        if contact(ax, ay, dx, dy, bx, by, bx + 2, by + 2)[0] != INTERIOR:
            continue
        n, d = _entry(ax, ay, dx, dy, bx, by, bx + 2, by + 2)
        if block is None or n * block[1] < block[0] * d:
            squares.add(sq)
    return Area("line", None, origin, length_ft, frozenset(squares), frozenset(), "EFF-08")


def _first_block(
    ax: int, ay: int, dx: int, dy: int, things: list[Thing], options: GridOptions
) -> tuple[int, int] | None:
    """Parameter t = n/d (on the doubled-scale segment) where line of effect is first blocked, or None."""
    best: tuple[int, int] | None = None
    sides: dict[tuple[int, int], tuple[int, tuple[int, int]]] = {}
    for t in things:
        box = (2 * t[0], 2 * t[1], 2 * t[2], 2 * t[3])
        code, vx, vy = contact(ax, ay, dx, dy, *box)
        if code in (INTERIOR, CROSS) or (code == ALONG and options.line_along_wall_blocks):
            at = _entry(ax, ay, dx, dy, *box)
        elif code == GRAZE:
            ox, oy = box[0] + box[2] - 2 * vx, box[1] + box[3] - 2 * vy
            side = 1 if dx * oy - dy * ox > 0 else 2
            mask = sides.get((vx, vy), (0, (0, 1)))[0]
            sides[(vx, vy)] = (mask | side, _entry(ax, ay, dx, dy, *box))
            continue
        else:
            continue
        if best is None or at[0] * best[1] < best[0] * at[1]:
            best = at
    for mask, at in sides.values():
        if mask == 3 and (best is None or at[0] * best[1] < best[0] * at[1]):
            best = at
    return best


def _entry(ax: int, ay: int, dx: int, dy: int, x0: int, y0: int, x1: int, y1: int) -> tuple[int, int]:
    """Parameter t = n/d at which the segment first touches the closed box (assumes it does)."""
    ln, ld = 0, 1
    for a0, d, lo, hi in ((ax, dx, x0, x1), (ay, dy, y0, y1)):
        if d == 0:
            continue
        n0, dd = (lo - a0, d) if d > 0 else (a0 - hi, -d)
        if n0 * ld > ln * dd:
            ln, ld = n0, dd
    return ln, ld


def cylinder(grid: GridMap, origin: Point, radius_ft: int, height_ft: int) -> Area:
    """A cylinder (EFF-07): the circle's squares on the map, ignoring obstructions; ``size_ft`` is the radius
    and the height is the caller's to apply in three dimensions."""
    squares = radius_squares(origin, radius_ft, grid)
    return Area(f"cylinder {height_ft} ft high", None, origin, radius_ft, squares, frozenset(), "EFF-07")


def other_area(name: str, squares: Iterable[Square], origin: Point) -> Area:
    """An area an effect defines for itself (EFF-11), given as its squares."""
    return Area(name, None, origin, 0, frozenset(squares), frozenset(), "EFF-11")


def is_shapable(squares: Iterable[Square]) -> bool:
    """EFF-10: no dimension under 10 ft: every square belongs to a 2x2 block wholly inside the set."""
    s = set(squares)
    return bool(s) and all(
        any(all((x + i + ox, y + j + oy) in s for i in (0, 1) for j in (0, 1)) for ox in (-1, 0) for oy in (-1, 0))
        for x, y in s
    )


def cubes(anchors: Iterable[Square], *, max_cubes: int | None = None) -> Area:
    """A shaped area made of 10-ft cubes (EFF-10), each given by its top-left square; they must touch face to
    face (form one piece) and number at most ``max_cubes``."""
    pts = list(dict.fromkeys(anchors))
    if not pts:
        raise ValueError("a shaped area needs at least one 10-ft cube")
    if max_cubes is not None and len(pts) > max_cubes:
        raise ValueError(f"{len(pts)} cubes, at most {max_cubes}")
    squares = frozenset((x + i, y + j) for x, y in pts for i in (0, 1) for j in (0, 1))
    seen = {pts[0]}
    todo = [pts[0]]
    while todo:
        x, y = todo.pop()
        for p in pts:
            if p not in seen and _faces_touch((x, y), p):
                seen.add(p)
                todo.append(p)
    if len(seen) != len(pts):
        raise ValueError("the cubes of a shaped area must form one piece")
    return Area("cubes", None, pts[0], 10 * len(pts), squares, frozenset(), "EFF-10")


def _faces_touch(a: Square, b: Square) -> bool:
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (dx == 2 and dy < 2) or (dy == 2 and dx < 2) or (dx < 2 and dy < 2 and a != b)


def in_area(area: Area, spaces: Mapping[str, Footprint]) -> list[str]:
    """Names of the creatures with at least one square in the area (EFF-12: everyone qualifying is affected;
    who qualifies is the caller's)."""
    return [name for name, fp in spaces.items() if any(s in area.squares for s in fp.squares)]


def area_changes(
    area: Area, before: Mapping[str, Footprint], after: Mapping[str, Footprint]
) -> tuple[list[str], list[str]]:
    """Who entered and who left a lasting area between two moments (EFF-13)."""
    was = set(in_area(area, before))
    now = set(in_area(area, after))
    return sorted(now - was), sorted(was - now)
