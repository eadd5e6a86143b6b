"""Straight lines on the grid: line of effect and line of sight (EFF-35..37), and the line tests cover and
concealment are built on.

A line is a segment between two points of the map, normally two grid intersections (corners of squares). The
arithmetic is exact: points are integers, in units of ``1/scale`` square, so a line that passes exactly through a
corner is never mistaken for one that misses it.

How a line meets a thing on the map:

* it **passes through** a square if it crosses the square's interior;
* it **crosses** a wall edge if it goes through the edge anywhere but at the edge's ends;
* it **runs along** a wall edge or the border of a wall square if it shares a stretch of positive length with it;
  by default that counts as blocked (``GridOptions.line_along_wall_blocks``, MOD-07, CRB cover diagram #2);
* it **grazes** a thing if it touches it at a single point: an end of a wall or a corner of a square. Grazing does
  not block, except where blocking things touch the line at the same point from both sides (the line would slip
  through a zero-width gap, e.g. between two wall squares that meet at a corner);
* touching something only at the line's own end points does not count (a creature standing against a wall is
  not covered by that wall), except that a line may not leave the corner of a creature's space straight
  through a wall that meets that corner (see :func:`sealed_at_end`).

Line of effect is blocked by wall squares, walls and windows; line of sight by wall squares, walls, obscuring
squares and whatever else the caller says blocks sight (darkness for an observer without darkvision), but not by
windows. Between two spaces there is line of effect (or sight) when at least one line from a corner of the one
to a corner of the other is clear.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from sftactics.grid.geometry import Footprint, Point, Square
from sftactics.grid.map import VERTICAL, Feature, GridMap
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions

# What a thing on the map does to a line that meets it (bit set).
B_LOE = 1  # blocks line of effect
B_LOS = 2  # blocks line of sight
B_COVER = 4  # gives cover (an object)
B_LOW = 8  # low obstacle (cover only within 30 ft, MOD-10)
B_SOFT = 16  # soft cover (creatures, soft objects; ranged attacks only)
B_CONCEAL = 32  # concealment

# How a line meets a box.
NONE, ENDPOINT, INTERIOR, ALONG, GRAZE, CROSS = range(6)

_CELL_CATS: tuple[tuple[Feature, int], ...] = (
    (Feature.SOLID, B_LOE | B_LOS),
    (Feature.OBSCURE, B_LOS),
    (Feature.COVER, B_COVER),
    (Feature.LOW, B_LOW),
    (Feature.SOFT, B_SOFT),
    (Feature.CONCEAL, B_CONCEAL),
)
_LINE_FEATURES = Feature.SOLID | Feature.OBSCURE | Feature.COVER | Feature.LOW | Feature.SOFT | Feature.CONCEAL
_CHUNK = 8

#: A thing a line can meet: (x0, y0, x1, y1, categories, tag) with the box in squares (an edge has zero width).
Thing = tuple[int, int, int, int, int, object]


def cell_cats(flags: int) -> int:
    """Line categories of a square with the given :class:`Feature` flags."""
    cats = 0
    for f, c in _CELL_CATS:
        if flags & f:
            cats |= c
    return cats


#: How many 8x8 chunks of things the line index of a map keeps built before it starts afresh.
CHUNKS_KEPT = 4096


class _Index:
    """Things on the map that matter to lines, bucketed by 8x8 chunk of their top-left corner.

    A chunk's list is built from the map's numpy arrays the first time a line passes near it, so a map of
    millions of squares costs a byte per square (the line categories) plus the chunks lines have looked at."""

    def __init__(self, grid: GridMap) -> None:
        h, w = grid.height, grid.width
        cells = grid.array
        cats = np.zeros((h, w), dtype=np.uint8)
        for f, c in _CELL_CATS:
            cats[(cells & int(f)) != 0] |= c
        self.cats = cats
        self.width, self.height = w, h
        self.edges: dict[tuple[int, int], list[Thing]] = {}
        for edges, ecats, name in ((grid.walls, B_LOE | B_LOS, "wall"), (grid.windows, B_LOE, "window")):
            for e in edges:
                x, y, o = e
                x1, y1 = (x, y + 1) if o == VERTICAL else (x + 1, y)
                self.edges.setdefault((x // _CHUNK, y // _CHUNK), []).append((x, y, x1, y1, ecats, (name, e)))
        cw, ch = -(-w // _CHUNK), -(-h // _CHUNK)
        padded = np.zeros((ch * _CHUNK, cw * _CHUNK), dtype=np.bool_)
        padded[:h, :w] = cats != 0
        self.busy: NDArray[np.bool_] = np.asarray(padded.reshape(ch, _CHUNK, cw, _CHUNK).any(axis=(1, 3)))
        self.empty = not self.edges and not bool(self.busy.any())
        self.built: dict[tuple[int, int], list[Thing]] = {}

    def get(self, key: tuple[int, int]) -> list[Thing]:
        """The things of chunk ``(cx, cy)`` (empty off the map)."""
        found = self.built.get(key)
        if found is not None:
            return found
        cx, cy = key
        if not (0 <= cy < self.busy.shape[0] and 0 <= cx < self.busy.shape[1]):
            return self.edges.get(key, [])  # the east and south border edges sit just off the squares
        out: list[Thing] = []
        if self.busy[cy, cx]:
            x0, y0 = cx * _CHUNK, cy * _CHUNK
            block = self.cats[y0 : y0 + _CHUNK, x0 : x0 + _CHUNK]
            ys, xs = np.nonzero(block)
            for dy, dx in zip(ys.tolist(), xs.tolist(), strict=True):
                x, y = x0 + dx, y0 + dy
                out.append((x, y, x + 1, y + 1, int(block[dy, dx]), ("square", (x, y))))
        out += self.edges.get(key, [])
        if len(self.built) >= CHUNKS_KEPT:
            self.built.clear()
        self.built[key] = out
        return out


def _index(grid: GridMap) -> _Index:
    """The line index of the map (cached on the map)."""
    key = "lines.index"
    found = grid.memo.get(key)
    if found is None:
        found = grid.memo[key] = _Index(grid)
    return found  # type: ignore[return-value]


def things_near(grid: GridMap, x0: int, y0: int, x1: int, y1: int) -> list[Thing]:
    """Map things whose box touches the closed box from point ``(x0, y0)`` to point ``(x1, y1)``."""
    index = _index(grid)
    if index.empty:
        return []
    out: list[Thing] = []
    for cy in range((y0 - 1) // _CHUNK, y1 // _CHUNK + 1):
        for cx in range((x0 - 1) // _CHUNK, x1 // _CHUNK + 1):
            for t in index.get((cx, cy)):
                if t[0] <= x1 and t[2] >= x0 and t[1] <= y1 and t[3] >= y0:
                    out.append(t)
    return out


def things_along(grid: GridMap, box_a: tuple[int, int, int, int], box_b: tuple[int, int, int, int]) -> list[Thing]:
    """Map things near the band between two boxes (see :func:`near_band`), visiting only the chunks the band
    crosses: cheaper than :func:`things_near` on the two boxes' bounding box when they are far apart."""
    index = _index(grid)
    if index.empty:
        return []
    ax, ay = (box_a[0] + box_a[2]) * 0.5, (box_a[1] + box_a[3]) * 0.5
    bx, by = (box_b[0] + box_b[2]) * 0.5, (box_b[1] + box_b[3]) * 0.5
    wa, wb = box_a[2] - box_a[0], box_b[2] - box_b[0]
    m = (wa if wa > wb else wb) * 1.1 + 2.0  # generous: band half-width, slope, thing size
    swap = abs(bx - ax) < abs(by - ay)
    if swap:  # walk along the longer axis
        ax, ay, bx, by = ay, ax, by, bx
    if ax > bx:
        ax, ay, bx, by = bx, by, ax, ay
    slope = (by - ay) / (bx - ax) if bx != ax else 0.0
    out: list[Thing] = []
    for c in range(int((ax - m) // _CHUNK), int((bx + m) // _CHUNK) + 1):
        xa = min(max(c * _CHUNK - 1.0, ax), bx)
        xb = min(max(c * _CHUNK + _CHUNK + 1.0, ax), bx)
        ya, yb = ay + (xa - ax) * slope, ay + (xb - ax) * slope
        lo, hi = (ya, yb) if ya <= yb else (yb, ya)
        for r in range(int((lo - m) // _CHUNK), int((hi + m) // _CHUNK) + 1):
            found = index.get((r, c) if swap else (c, r))
            if found:
                out.extend(found)
    return out


def square_things(squares: Iterable[Square], cats: int, tag: str) -> list[Thing]:
    """Extra things for a line query: whole squares with the given categories (e.g. darkness blocking sight)."""
    return [(x, y, x + 1, y + 1, cats, (tag, (x, y))) for x, y in squares]


def space_things(spaces: Iterable[Footprint], cats: int = B_SOFT) -> list[Thing]:
    """Extra things for a line query: creature spaces (soft cover by default, MOD-11)."""
    return [(s.x, s.y, s.x + s.side, s.y + s.side, cats, ("creature", s)) for s in spaces]


def contact(ax: int, ay: int, dx: int, dy: int, x0: int, y0: int, x1: int, y1: int) -> tuple[int, int, int]:
    """How the segment ``a + t*d`` (0 <= t <= 1) meets the closed box ``[x0, x1] x [y0, y1]``.

    Returns ``(code, vx, vy)``: code is NONE, ENDPOINT (only an end of the segment touches: ``vx`` is 0 for the
    start, 1 for the end), INTERIOR, ALONG, CROSS (through an edge box away from its ends) or GRAZE (a single
    point strictly inside the segment: a corner of the box, whose position is ``(vx, vy)``). All in the same
    integer units.
    """
    ln, ld, hn, hd = 0, 1, 1, 1
    open_ok = True
    if dx == 0:
        if ax < x0 or ax > x1:
            return NONE, 0, 0
        if not x0 < ax < x1:
            open_ok = False
    else:
        if dx > 0:
            n0, n1, dd = x0 - ax, x1 - ax, dx
        else:
            n0, n1, dd = ax - x1, ax - x0, -dx
        if n0 * ld > ln * dd:
            ln, ld = n0, dd
        if n1 * hd < hn * dd:
            hn, hd = n1, dd
    if dy == 0:
        if ay < y0 or ay > y1:
            return NONE, 0, 0
        if not y0 < ay < y1:
            open_ok = False
    else:
        if dy > 0:
            n0, n1, dd = y0 - ay, y1 - ay, dy
        else:
            n0, n1, dd = ay - y1, ay - y0, -dy
        if n0 * ld > ln * dd:
            ln, ld = n0, dd
        if n1 * hd < hn * dd:
            hn, hd = n1, dd
    c = ln * hd - hn * ld
    if c > 0:
        return NONE, 0, 0
    if c < 0:
        return (INTERIOR if open_ok and x0 < x1 and y0 < y1 else ALONG), 0, 0
    if ln == 0:
        return ENDPOINT, 0, 0
    if ln == ld:
        return ENDPOINT, 1, 0
    # single point at t = ln/ld: where on the box?
    px = ax * ld + dx * ln  # point * ld
    py = ay * ld + dy * ln
    if (x0 == x1 and y0 * ld < py < y1 * ld) or (y0 == y1 and x0 * ld < px < x1 * ld):
        return CROSS, 0, 0
    vx = x0 if px == x0 * ld else x1
    vy = y0 if py == y0 * ld else y1
    return GRAZE, vx, vy


Box = tuple[int, int, int, int]
_POS = {(1, 0): 0, (1, -1): 1, (0, -1): 2, (-1, -1): 3, (-1, 0): 4, (-1, 1): 5, (0, 1): 6, (1, 1): 7}


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def sealed_at_end(
    px: int, py: int, dx: int, dy: int, owner: Box, touching: Sequence[tuple[int, int, int, int]]
) -> bool:
    """Whether a line leaving point ``p`` (a corner of the ``owner`` box) in direction ``d`` passes through the
    things that touch ``p``: walls ending at ``p`` and wall squares with a corner there. Around ``p`` there are
    eight positions (four rays along the grid lines, four quadrants); the line is sealed in if, going either
    way round from the owner's quadrants to the line's direction, it meets a blocking thing. So a line from a
    corner of a creature standing against a long thin wall cannot start on the wall and go to the other side,
    while a line that slips round the very end of a wall still passes (it only grazes it)."""
    x0, y0, x1, y1 = owner
    occupied = set()
    for sx, sy in ((1, -1), (-1, -1), (-1, 1), (1, 1)):
        qx, qy = px + sx, py + sy  # a point inside that quadrant, one unit away
        if x0 <= min(px, qx) and max(px, qx) <= x1 and y0 <= min(py, qy) and max(py, qy) <= y1:
            occupied.add(_POS[(sx, sy)])
    if not occupied or len(occupied) == 4:
        return False
    core = occupied | {k for k in (0, 2, 4, 6) if (k - 1) % 8 in occupied and (k + 1) % 8 in occupied}
    pd = _POS[(_sign(dx), _sign(dy))]
    if pd in core:
        return False
    blocked = set()
    for bx0, by0, bx1, by1 in touching:
        ox, oy = bx0 + bx1 - 2 * px, by0 + by1 - 2 * py  # towards the thing's middle (doubled)
        blocked.add(_POS[(_sign(ox), _sign(oy))])

    def side(step: int) -> bool:
        k = next(iter(core))
        while (k + step) % 8 in core:
            k = (k + step) % 8
        k = (k + step) % 8
        while k != pd:
            if k in blocked:
                return True
            k = (k + step) % 8
        return False

    return side(1) and side(-1)


@dataclass(frozen=True, slots=True)
class LineHits:
    """What one line meets. ``blocker`` is how and what first stopped line of effect (None if nothing did)."""

    start: tuple[int, int]
    end: tuple[int, int]
    scale: int
    loe_blocked: bool
    los_blocked: bool
    blocker: tuple[str, object] | None
    cover: tuple[object, ...]  # tags of cover objects passed through
    low: tuple[Square, ...]  # low-obstacle squares passed through
    soft: tuple[object, ...]  # tags of creatures / soft objects passed through
    conceal: bool  # passes through or touches a concealing square

    @property
    def blocked_by(self) -> str:
        """A short description of what stops line of effect ('' if nothing)."""
        if self.blocker is None:
            return ""
        how, tag = self.blocker
        if how == "pinch":
            return f"between blocking things meeting at point {tag}"
        if how == "sealed":
            return f"through the wall at its own corner {tag}"
        if isinstance(tag, tuple) and len(tag) == 2:
            return f"{how} {tag[0]} at {tag[1]}"
        return f"{how} {tag}"


def trace(
    a: tuple[int, int],
    b: tuple[int, int],
    things: Sequence[Thing],
    *,
    scale: int = 1,
    owners: tuple[Box | None, Box | None] = (None, None),
    options: GridOptions = DEFAULT_OPTIONS,
) -> LineHits:
    """Everything the line from ``a`` to ``b`` (in units of ``1/scale`` square) meets among ``things``.

    ``owners`` are the spaces (boxes in squares) whose corners ``a`` and ``b`` are, if any: a line may not start
    or end by passing through a wall that meets the corner (see :func:`sealed_at_end`).
    """
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    lo_x, hi_x = (ax, bx) if ax <= bx else (bx, ax)
    lo_y, hi_y = (ay, by) if ay <= by else (by, ay)
    along_blocks = options.line_along_wall_blocks
    loe = los = conceal = False
    blocker: tuple[str, object] | None = None
    cover: tuple[object, ...] = ()
    low: tuple[Square, ...] = ()
    soft: tuple[object, ...] = ()
    pinch: dict[tuple[int, int], list[int]] | None = None
    at_ends: list[tuple[int, int, int, int, int, int]] = []  # (end, cats, box) of things touching an end
    if dx or dy:
        for x0, y0, x1, y1, cats, tag in things:
            if scale != 1:
                x0, y0, x1, y1 = x0 * scale, y0 * scale, x1 * scale, y1 * scale
            if x1 < lo_x or x0 > hi_x or y1 < lo_y or y0 > hi_y:
                continue
            code, vx, vy = contact(ax, ay, dx, dy, x0, y0, x1, y1)
            if code <= ENDPOINT:
                if code == ENDPOINT and cats & (B_LOE | B_LOS) and owners[vx] is not None:
                    at_ends.append((vx, cats, x0, y0, x1, y1))
                continue
            if code in (INTERIOR, CROSS):
                if cats & B_LOE and not loe:
                    loe, blocker = True, ("through", tag)
                if cats & B_LOS:
                    los = True
                if cats & B_COVER:
                    cover += (tag,)
                if cats & B_LOW:
                    low += (tag[1],)  # type: ignore[index]
                if cats & B_SOFT:
                    soft += (tag,)
                if cats & B_CONCEAL:
                    conceal = True
            elif code == ALONG:
                if along_blocks and cats & B_LOE and not loe:
                    loe, blocker = True, ("along", tag)
                if along_blocks and cats & B_LOS:
                    los = True
                if cats & B_CONCEAL:
                    conceal = True
            else:  # GRAZE: remember on which side of the line the thing touches the point
                if cats & B_CONCEAL:
                    conceal = True
                if cats & (B_LOE | B_LOS):
                    ox, oy = (x0 + x1 - 2 * vx, y0 + y1 - 2 * vy)
                    side = 1 if dx * oy - dy * ox > 0 else 2
                    if pinch is None:
                        pinch = {}
                    sides = pinch.setdefault((vx, vy), [0, 0])
                    if cats & B_LOE:
                        sides[0] |= side
                    if cats & B_LOS:
                        sides[1] |= side
        if pinch:
            for (vx, vy), (m_loe, m_los) in pinch.items():
                if m_loe == 3 and not loe:
                    loe, blocker = True, ("pinch", (vx / scale, vy / scale))
                if m_los == 3:
                    los = True
        for end in (0, 1) if at_ends else ():
            here = [t for t in at_ends if t[0] == end]
            if not here:
                continue
            px, py, sx, sy = (ax, ay, dx, dy) if end == 0 else (bx, by, -dx, -dy)
            box = _scaled(owners[end], scale)
            if not loe and sealed_at_end(px, py, sx, sy, box, [t[2:] for t in here if t[1] & B_LOE]):
                loe, blocker = True, ("sealed", (px / scale, py / scale))
            if not los and sealed_at_end(px, py, sx, sy, box, [t[2:] for t in here if t[1] & B_LOS]):
                los = True
    return LineHits(a, b, scale, loe, los, blocker, cover, low, soft, conceal)


def _scaled(box: Box | None, scale: int) -> Box:
    assert box is not None
    return box if scale == 1 else (box[0] * scale, box[1] * scale, box[2] * scale, box[3] * scale)


def ends(obj: Footprint | Point, *, every_corner: bool) -> tuple[tuple[Point, ...], tuple[int, int, int, int]]:
    """The points lines start from (or go to) for a space or a point, and the box they lie in.

    A space offers its four outer corners, or every corner of each of its squares (``every_corner``, the side
    that picks a corner: a big attacker may use any corner of any square it occupies).
    """
    if isinstance(obj, Footprint):
        pts = obj.points if every_corner else obj.corners
        return pts, (obj.x, obj.y, obj.x + obj.side, obj.y + obj.side)
    return (obj,), (obj[0], obj[1], obj[0], obj[1])


def owner_boxes(a: Footprint | Point, b: Footprint | Point) -> tuple[Box | None, Box | None]:
    """The boxes of the spaces whose corners lines start and end at (None for a bare point)."""

    def box(x: Footprint | Point) -> Box | None:
        return (x.x, x.y, x.x + x.side, x.y + x.side) if isinstance(x, Footprint) else None

    return box(a), box(b)


def things_between(
    grid: GridMap, box_a: tuple[int, int, int, int], box_b: tuple[int, int, int, int], extra: Sequence[Thing] = ()
) -> list[Thing]:
    """Map things (and ``extra`` things) that a line between the two boxes could meet."""
    x0, y0 = min(box_a[0], box_b[0]), min(box_a[1], box_b[1])
    x1, y1 = max(box_a[2], box_b[2]), max(box_a[3], box_b[3])
    near = things_near(grid, x0, y0, x1, y1)
    if extra:
        near += [t for t in extra if t[0] <= x1 and t[2] >= x0 and t[1] <= y1 and t[3] >= y0]
    return near


def segment_flags(
    a: tuple[int, int],
    b: tuple[int, int],
    things: Sequence[Thing],
    along_blocks: bool,
    owners: tuple[Box | None, Box | None] = (None, None),
) -> tuple[int, tuple[Square, ...]]:
    """A quick verdict on one line for cover: (bits, low obstacles passed). Bits are B_LOE (line of effect
    blocked, which ends the check), B_COVER and B_SOFT; see :func:`trace` for the full account."""
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    if not (dx or dy):
        return 0, ()
    lo_x, hi_x = (ax, bx) if ax <= bx else (bx, ax)
    lo_y, hi_y = (ay, by) if ay <= by else (by, ay)
    bits = 0
    low: tuple[Square, ...] = ()
    pinch: dict[tuple[int, int], int] | None = None
    at_ends: list[tuple[int, int, int, int, int]] | None = None
    for x0, y0, x1, y1, cats, tag in things:
        if x1 < lo_x or x0 > hi_x or y1 < lo_y or y0 > hi_y:
            continue
        code, vx, vy = contact(ax, ay, dx, dy, x0, y0, x1, y1)
        if code <= ENDPOINT:
            if code == ENDPOINT and cats & B_LOE and owners[vx] is not None:
                if at_ends is None:
                    at_ends = []
                at_ends.append((vx, x0, y0, x1, y1))
            continue
        if code in (INTERIOR, CROSS):
            if cats & B_LOE:
                return B_LOE, low
            bits |= cats & (B_COVER | B_SOFT)
            if cats & B_LOW:
                low += (tag[1],)  # type: ignore[index]
        elif code == ALONG:
            if along_blocks and cats & B_LOE:
                return B_LOE, low
        elif cats & B_LOE:  # GRAZE
            side = 1 if dx * (y0 + y1 - 2 * vy) - dy * (x0 + x1 - 2 * vx) > 0 else 2
            if pinch is None:
                pinch = {}
            mask = pinch.get((vx, vy), 0) | side
            if mask == 3:
                return B_LOE, low
            pinch[(vx, vy)] = mask
    if at_ends:
        for end in (0, 1):
            here = [t[1:] for t in at_ends if t[0] == end]
            if here:
                px, py, sx, sy = (ax, ay, dx, dy) if end == 0 else (bx, by, -dx, -dy)
                if sealed_at_end(px, py, sx, sy, _scaled(owners[end], 1), here):
                    return B_LOE, low
    return bits, low


def near_band(
    things: Sequence[Thing], box_a: tuple[int, int, int, int], box_b: tuple[int, int, int, int]
) -> list[Thing]:
    """The things that a segment from a point of ``box_a`` to a point of ``box_b`` could meet.

    Every such segment stays within the band around the segment between the boxes' centres that is as wide as
    the larger box's half-diagonal; a thing farther from that centre segment than this (plus its own
    half-diagonal) is dropped. A cheap, conservative filter.
    """
    ax, ay = (box_a[0] + box_a[2]) * 0.5, (box_a[1] + box_a[3]) * 0.5
    bx, by = (box_b[0] + box_b[2]) * 0.5, (box_b[1] + box_b[3]) * 0.5
    wa, wb = box_a[2] - box_a[0], box_b[2] - box_b[0]
    ra = (wa if wa > wb else wb) * 0.7072 + 0.01
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy or 1.0
    out = []
    for t in things:
        x0, y0, x1, y1 = t[0], t[1], t[2], t[3]
        cx, cy = (x0 + x1) * 0.5 - ax, (y0 + y1) * 0.5 - ay
        w, h = x1 - x0, y1 - y0
        r = ra + (w if w > h else h) * 0.7072
        u = (cx * dx + cy * dy) / ll
        if u < 0:
            u = 0.0
        elif u > 1:
            u = 1.0
        px, py = u * dx - cx, u * dy - cy
        if px * px + py * py <= r * r:
            out.append(t)
    return out


def _line_exists(
    grid: GridMap,
    a: Footprint | Point,
    b: Footprint | Point,
    *,
    sight: bool,
    extra: Sequence[Thing] = (),
    options: GridOptions = DEFAULT_OPTIONS,
) -> bool:
    starts, box_a = ends(a, every_corner=True)
    goals, box_b = ends(b, every_corner=False)
    things = things_between(grid, box_a, box_b, extra)
    if not any(t[4] & (B_LOS if sight else B_LOE) for t in things):
        return True
    owners = owner_boxes(a, b)
    for p in starts:
        for q in goals:
            if p == q:
                continue  # a shared corner is no line
            hits = trace(p, q, things, owners=owners, options=options)
            if not (hits.los_blocked if sight else hits.loe_blocked):
                return True
    return False


def has_line_of_effect(
    grid: GridMap, a: Footprint | Point, b: Footprint | Point, *, options: GridOptions = DEFAULT_OPTIONS
) -> bool:
    """Line of effect between two spaces or points (EFF-35): some line from a corner of ``a`` to a corner of
    ``b`` is not blocked by a wall square, a wall or a window."""
    return _line_exists(grid, a, b, sight=False, options=options)


def has_line_of_sight(
    grid: GridMap,
    a: Footprint | Point,
    b: Footprint | Point,
    *,
    blocks_sight: Iterable[Square] = (),
    options: GridOptions = DEFAULT_OPTIONS,
) -> bool:
    """Line of sight between two spaces or points (EFF-37): like line of effect, but windows do not block it
    and obscuring squares (and ``blocks_sight``, e.g. darkness for this observer) do."""
    extra = square_things(blocks_sight, B_LOS, "dark")
    return _line_exists(grid, a, b, sight=True, extra=extra, options=options)
