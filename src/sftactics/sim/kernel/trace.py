"""The grid package's lines (``grid.lines``, ``grid.cover``) for one-square spaces, compiled: what a miss of the
kernel's cover cache asks.

A miss of the cover cache (cover by the corner rule, a line of sight, a line of effect) used to ask the grid
package from object mode, about 0.1 to 0.3 ms each; on a map with walls inside, a fight meets dozens of new
pairs of squares, so the misses took most of a tactical fight's time until the cache had filled (thousands of
fights). Here the same questions are answered by compiled code over a per-map table built once in Python from
the map itself (:func:`line_tables`: the line categories of every square, and the walls and windows on edges),
so a miss costs microseconds. The answers are the grid package's, by the same arithmetic:

* :func:`contact` is ``grid.lines.contact`` (how a segment meets a closed box, exact integer arithmetic);
* :func:`_sealed` is ``grid.lines.sealed_at_end`` (a line may not leave a space's corner through a wall that
  meets it), the eight positions around the point as bits;
* :func:`_line` is what ``grid.lines.trace`` and ``segment_flags`` find on one line: line of effect and of sight
  blocked (through, along a wall when ``line_along_wall_blocks``, pinched between blocking things that touch the
  line at one point from both sides, sealed at an end), cover objects, soft cover (soft squares and creatures
  passed through) and low obstacles that count (MOD-10, ``low_obstacle_within``);
* :func:`space_cover` is ``grid.cover.cover`` between spaces of any side (the attacker's corner, of any of its
  squares, that leaves the least cover; total cover when no line from any corner has a line of effect), and
  :func:`space_line` is ``has_line_of_effect`` / ``has_line_of_sight`` between spaces; :func:`fast_cover` and
  :func:`fast_line` are the two for one-square spaces.

The Python versions look only at the things near the two spaces (a conservative filter); here every thing
whose box meets the segment's bounding box is looked at, which gives the same verdicts since a thing that
does not touch the segment changes nothing. ``tests/sim/test_kernel_trace.py`` checks the answers against the
grid package's on maps with wall squares, walls and windows on edges, cover objects, low obstacles and soft
squares, with creatures in the way, for spaces of side 1 to 4 (a miss of the big creatures' cache asked the
grid package from object mode until issue 22's second benchmark room showed it took half a fight's time).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.grid.lines import B_COVER, B_LOE, B_LOS, B_LOW, B_SOFT, cell_cats
from sftactics.grid.map import VERTICAL, GridMap
from sftactics.grid.options import GridOptions
from sftactics.sim.kernel.geo import _jit

__all__ = ["contact", "fast_cover", "fast_line", "line_tables", "space_cover", "space_line"]

# how a line meets a box (``grid.lines``' codes)
_NONE, _ENDPOINT, _INTERIOR, _ALONG, _GRAZE, _CROSS = range(6)
#: A flag of :func:`_line`'s answer: a low obstacle the line passes counts (MOD-10).
LOW_COUNTS = 64
_COV, _SOFT, _TOTAL = 3, 1, 5  # CoverKind values


def line_tables(grid: GridMap, options: GridOptions) -> tuple[NDArray[np.uint8], NDArray[np.int64], int, int]:
    """``(cats [H, W], edges [E, 5], along, low_mode)``: the line categories of every square (``cell_cats``),
    the walls (blocking line of effect and sight) and windows (line of effect) on edges as boxes ``(x0, y0, x1,
    y1, cats)``, whether a line along a wall blocks, and 1 when a low obstacle counts by its distance to the
    target (``low_obstacle_within = obstacle``), 0 by the attacker's."""
    flags = grid.array
    cats = np.zeros(flags.shape, dtype=np.uint8)
    for v in np.unique(flags).tolist():
        cats[flags == v] = cell_cats(int(v))
    rows = []
    for edges, ecats in ((grid.walls, B_LOE | B_LOS), (grid.windows, B_LOE)):
        for x, y, o in sorted(edges):
            x1, y1 = (x, y + 1) if o == VERTICAL else (x + 1, y)
            rows.append((x, y, x1, y1, ecats))
    table = np.array(rows, dtype=np.int64).reshape(-1, 5)
    return cats, table, int(options.line_along_wall_blocks), int(options.low_obstacle_within == "obstacle")


@_jit
def contact(ax: int, ay: int, dx: int, dy: int, x0: int, y0: int, x1: int, y1: int) -> tuple[int, int, int]:
    """``grid.lines.contact``: how the segment ``a + t*d`` (0 <= t <= 1) meets the closed box (code, vx, vy)."""
    ln, ld, hn, hd = 0, 1, 1, 1
    open_ok = True
    if dx == 0:
        if ax < x0 or ax > x1:
            return _NONE, 0, 0
        if not (x0 < ax and ax < x1):
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
            return _NONE, 0, 0
        if not (y0 < ay and ay < y1):
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
        return _NONE, 0, 0
    if c < 0:
        return (_INTERIOR if open_ok and x0 < x1 and y0 < y1 else _ALONG), 0, 0
    if ln == 0:
        return _ENDPOINT, 0, 0
    if ln == ld:
        return _ENDPOINT, 1, 0
    px = ax * ld + dx * ln
    py = ay * ld + dy * ln
    if (x0 == x1 and y0 * ld < py and py < y1 * ld) or (y0 == y1 and x0 * ld < px and px < x1 * ld):
        return _CROSS, 0, 0
    vx = x0 if px == x0 * ld else x1
    vy = y0 if py == y0 * ld else y1
    return _GRAZE, vx, vy


@_jit
def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


@_jit
def _pos(sx: int, sy: int) -> int:
    """``grid.lines._POS``: the eight positions around a point, counterclockwise from east (y grows down)."""
    if sy == 0:
        return 0 if sx > 0 else 4
    if sy < 0:
        return 1 if sx > 0 else (2 if sx == 0 else 3)
    return 7 if sx > 0 else (6 if sx == 0 else 5)


@_jit
def _sealed(px: int, py: int, dx: int, dy: int, ox0: int, oy0: int, ox1: int, oy1: int, touching: Any, nt: int) -> bool:
    """``grid.lines.sealed_at_end``: a line leaving corner ``p`` of the owner box in direction ``d`` passes
    through the things that touch ``p`` (``touching[:nt]``, boxes)."""
    occupied = 0
    for sx, sy in ((1, -1), (-1, -1), (-1, 1), (1, 1)):
        qx, qy = px + sx, py + sy
        if ox0 <= min(px, qx) and max(px, qx) <= ox1 and oy0 <= min(py, qy) and max(py, qy) <= oy1:
            occupied |= 1 << _pos(sx, sy)
    count = 0
    for k in range(8):
        if occupied >> k & 1:
            count += 1
    if count == 0 or count == 4:
        return False
    core = occupied
    for k in (0, 2, 4, 6):
        if occupied >> ((k + 7) % 8) & 1 and occupied >> ((k + 1) % 8) & 1:
            core |= 1 << k
    pd = _pos(_sign(dx), _sign(dy))
    if core >> pd & 1:
        return False
    blocked = 0
    for i in range(nt):
        ox = touching[i, 0] + touching[i, 2] - 2 * px
        oy = touching[i, 1] + touching[i, 3] - 2 * py
        blocked |= 1 << _pos(_sign(ox), _sign(oy))
    first = 0  # ``next(iter(core))``: a set of small ints iterates in ascending order
    while not core >> first & 1:
        first += 1
    for step in (1, 7):  # each way round (7: one step back)
        k = first
        while core >> ((k + step) % 8) & 1:
            k = (k + step) % 8
        k = (k + step) % 8
        hit = False
        while k != pd:
            if blocked >> k & 1:
                hit = True
                break
            k = (k + step) % 8
        if not hit:
            return False
    return True


@_jit
def _gap(a: int, sa: int, b: int, sb: int) -> int:
    """Empty squares between the spans ``[a, a + sa)`` and ``[b, b + sb)`` on one axis, plus one (0 when they
    overlap): ``geometry._gap``."""
    if b >= a + sa:
        return b - (a + sa) + 1
    if a >= b + sb:
        return a - (b + sb) + 1
    return 0


@_jit
def _dist(ax: int, ay: int, sa: int, bx: int, by: int, sb: int) -> int:
    """``footprint_distance_ft`` between the space of side ``sa`` anchored at ``(ax, ay)`` and that of ``sb``."""
    dx, dy = _gap(ax, sa, bx, sb), _gap(ay, sa, by, sb)
    if dx < dy:
        dx, dy = dy, dx
    return 5 * (dx + dy // 2)


@_jit
def _meet(
    ax: int,
    ay: int,
    dx: int,
    dy: int,
    x0: int,
    y0: int,
    x1: int,
    y1: int,
    c: int,
    along: bool,
    oax: int,
    oay: int,
    sa: int,
    obx: int,
    oby: int,
    sb: int,
    low_mode: int,
    out: int,
    pinch: Any,
    npinch: int,
    ends: Any,
    nend: int,
) -> tuple[int, int, int]:
    """One thing (box ``x0, y0, x1, y1`` with categories ``c``) against the line: the loop body of
    ``grid.lines.trace``. Returns the line's flags so far, the pinch points and the things at its ends kept."""
    code, vx, vy = contact(ax, ay, dx, dy, x0, y0, x1, y1)
    if code <= _ENDPOINT:
        if code == _ENDPOINT and c & (B_LOE | B_LOS) and nend < ends.shape[0]:
            ends[nend, 0] = x0
            ends[nend, 1] = y0
            ends[nend, 2] = x1
            ends[nend, 3] = y1
            ends[nend, 4] = c
            ends[nend, 5] = vx
            nend += 1
        return out, npinch, nend
    if code in (_INTERIOR, _CROSS):
        out |= c & (B_LOE | B_LOS | B_COVER | B_SOFT)
        if c & B_LOW:
            to_target = _dist(obx, oby, sb, x0, y0, 1)
            limit = to_target if low_mode == 1 else _dist(oax, oay, sa, obx, oby, sb)
            if limit <= 30 and _dist(oax, oay, sa, x0, y0, 1) >= to_target:
                out |= LOW_COUNTS
    elif code == _ALONG:
        if along:
            out |= c & (B_LOE | B_LOS)
    elif c & (B_LOE | B_LOS):  # a graze: on which side of the line the thing touches the point
        side = 1 if dx * (y0 + y1 - 2 * vy) - dy * (x0 + x1 - 2 * vx) > 0 else 2
        k = 0
        while k < npinch and (pinch[k, 0] != vx or pinch[k, 1] != vy):
            k += 1
        if k == npinch:
            if npinch == pinch.shape[0]:
                return out, npinch, nend  # (never: a line has fewer grid points than the scratch has rows)
            pinch[k, 0] = vx
            pinch[k, 1] = vy
            pinch[k, 2] = 0
            pinch[k, 3] = 0
            npinch += 1
        if c & B_LOE:
            pinch[k, 2] |= side
        if c & B_LOS:
            pinch[k, 3] |= side
    return out, npinch, nend


@_jit
def _floor_div(a: int, b: int) -> int:
    """``a // b`` rounded down for any signs (b != 0)."""
    if b < 0:
        a, b = -a, -b
    return a // b


@_jit
def _line(
    ax: int,
    ay: int,
    bx: int,
    by: int,
    cats: Any,
    edges: Any,
    crowd: Any,
    crowd_side: Any,
    ncrowd: int,
    along: bool,
    owner_a: int,
    sa: int,
    owner_b: int,
    sb: int,
    width: int,
    skip_own: bool,
    low_mode: int,
    pinch: Any,
    ends: Any,
) -> int:
    """What the line from corner ``a`` of the space of side ``sa`` anchored at square ``owner_a`` to corner ``b``
    of the space of side ``sb`` at ``owner_b`` meets (``grid.lines.trace`` / ``segment_flags``): B_LOE and B_LOS
    when blocked, B_COVER, B_SOFT, and :data:`LOW_COUNTS` for a low obstacle that counts against an attack from
    the one space at the other. ``crowd[:ncrowd]``: the anchors of creatures' spaces (soft cover), of sides
    ``crowd_side``; ``skip_own``: cover objects and low obstacles in the two spaces' own squares are ignored
    (``cover``'s rule). ``pinch`` and ``ends`` are scratch arrays. The squares
    looked at are those of each column that the segment could touch (a few more do no harm)."""
    dx, dy = bx - ax, by - ay
    if dx == 0 and dy == 0:
        return 0
    lo_x, hi_x = (ax, bx) if ax <= bx else (bx, ax)
    lo_y, hi_y = (ay, by) if ay <= by else (by, ay)
    h, w = cats.shape[0], cats.shape[1]
    oax, oay = owner_a % width, owner_a // width
    obx, oby = owner_b % width, owner_b // width
    out, npinch, nend = 0, 0, 0
    for x0 in range(max(0, lo_x - 1), min(w - 1, hi_x) + 1):
        ya, yb = lo_y - 1, hi_y  # the rows a square of this column may touch the segment in
        if dx != 0:
            xa, xb = max(lo_x, x0), min(hi_x, x0 + 1)
            na, nb = ay * dx + (xa - ax) * dy, ay * dx + (xb - ax) * dy  # y * dx at both ends
            lo_n, hi_n = (na, nb) if (na <= nb) == (dx > 0) else (nb, na)
            ya = max(ya, _floor_div(lo_n, dx) - 1)
            yb = min(yb, _floor_div(hi_n, dx))
        for y0 in range(max(0, ya), min(h - 1, yb) + 1):
            c = int(cats[y0, x0])
            if c == 0:
                continue
            if (
                skip_own
                and c & (B_COVER | B_LOW)
                and ((oax <= x0 < oax + sa and oay <= y0 < oay + sa) or (obx <= x0 < obx + sb and oby <= y0 < oby + sb))
            ):
                continue
            if x0 + 1 < lo_x or x0 > hi_x or y0 + 1 < lo_y or y0 > hi_y:
                continue
            out, npinch, nend = _meet(ax, ay, dx, dy, x0, y0, x0 + 1, y0 + 1, c, along, oax, oay, sa, obx, oby,
                                      sb, low_mode, out, pinch, npinch, ends, nend)  # fmt: skip
    for j in range(edges.shape[0]):
        x0, y0, x1, y1 = edges[j, 0], edges[j, 1], edges[j, 2], edges[j, 3]
        if x1 < lo_x or x0 > hi_x or y1 < lo_y or y0 > hi_y:
            continue
        out, npinch, nend = _meet(ax, ay, dx, dy, x0, y0, x1, y1, edges[j, 4], along, oax, oay, sa, obx, oby,
                                  sb, low_mode, out, pinch, npinch, ends, nend)  # fmt: skip
    for j in range(ncrowd):
        x0, y0, cs = crowd[j] % width, crowd[j] // width, crowd_side[j]
        if x0 + cs < lo_x or x0 > hi_x or y0 + cs < lo_y or y0 > hi_y:
            continue
        out, npinch, nend = _meet(ax, ay, dx, dy, x0, y0, x0 + cs, y0 + cs, B_SOFT, along, oax, oay, sa, obx,
                                  oby, sb, low_mode, out, pinch, npinch, ends, nend)  # fmt: skip
    for k in range(npinch):
        if pinch[k, 2] == 3:
            out |= B_LOE
        if pinch[k, 3] == 3:
            out |= B_LOS
    if nend:
        touching = np.empty((nend, 4), dtype=np.int64)
        for end in range(2):
            px, py, sx, sy = (ax, ay, dx, dy) if end == 0 else (bx, by, -dx, -dy)
            owner, side = (owner_a, sa) if end == 0 else (owner_b, sb)
            ox0, oy0 = owner % width, owner // width
            for flag in (B_LOE, B_LOS):
                if out & flag:
                    continue
                nt = 0
                for k in range(nend):
                    if ends[k, 5] == end and ends[k, 4] & flag:
                        for j in range(4):
                            touching[nt, j] = ends[k, j]
                        nt += 1
                if nt and _sealed(px, py, sx, sy, ox0, oy0, ox0 + side, oy0 + side, touching, nt):
                    out |= flag
    return out


@_jit
def _scratch(cats: Any) -> tuple[Any, Any]:
    return np.empty((cats.shape[0] + cats.shape[1] + 4, 4), dtype=np.int64), np.empty((32, 6), dtype=np.int64)


@_jit
def _overlap(a: int, sa: int, b: int, sb: int, width: int) -> bool:
    return _gap(a % width, sa, b % width, sb) == 0 and _gap(a // width, sa, b // width, sb) == 0


@_jit
def space_cover(
    cats: Any,
    edges: Any,
    along: bool,
    low_mode: int,
    width: int,
    attacker: int,
    sa: int,
    target: int,
    stt: int,
    ranged: bool,
    others: Any,
    others_side: Any,
    count: int,
) -> int:
    """``cover(grid, attacker, target, ranged=..., creatures=...)``'s kind between the space of side ``sa``
    anchored at square ``attacker`` and that of side ``stt`` at ``target``, the creatures' spaces anchored at
    ``others[:count]`` with sides ``others_side`` (ranged attacks only; those overlapping either space skipped).
    The attacker may pick any corner of any of its squares; the lines go to the target's four outer corners."""
    crowd = np.empty(max(count, 1), dtype=np.int64)
    crowd_side = np.empty(max(count, 1), dtype=np.int64)
    n = 0
    if ranged:
        for i in range(count):
            s, cs = others[i], others_side[i]
            if not _overlap(s, cs, attacker, sa, width) and not _overlap(s, cs, target, stt, width):
                crowd[n] = s
                crowd_side[n] = cs
                n += 1
    pinch, ends = _scratch(cats)
    ax, ay = attacker % width, attacker // width
    tx, ty = target % width, target // width
    best = _TOTAL + 1
    for pj in range(sa + 1):
        for pi in range(sa + 1):
            px, py = ax + pi, ay + pj
            worst = 0
            all_blocked = True
            for qi in range(4):
                qx, qy = tx + stt * (qi % 2), ty + stt * (qi // 2)
                if px == qx and py == qy:
                    continue
                f = _line(px, py, qx, qy, cats, edges, crowd, crowd_side, n, along, attacker, sa, target, stt,
                          width, True, low_mode, pinch, ends)  # fmt: skip
                kind = _COV if f & (B_LOE | B_COVER | LOW_COUNTS) else (_SOFT if ranged and f & B_SOFT else 0)
                if not f & B_LOE:
                    all_blocked = False
                if kind > worst:
                    worst = kind
            level = _TOTAL if all_blocked else worst
            if level < best:
                best = level
                if best == 0:
                    return best
    return best


@_jit
def fast_cover(
    cats: Any,
    edges: Any,
    along: bool,
    low_mode: int,
    width: int,
    attacker: int,
    target: int,
    ranged: bool,
    others: Any,
    count: int,
) -> int:
    """:func:`space_cover` between the one-square spaces in squares ``attacker`` and ``target``, the creatures
    in squares ``others[:count]``."""
    return space_cover(cats, edges, along, low_mode, width, attacker, 1, target, 1, ranged, others,
                       np.ones(max(count, 1), dtype=np.int64), count)  # fmt: skip


@_jit
def space_line(cats: Any, edges: Any, along: bool, width: int, a: int, sa: int, b: int, sb: int, sight: bool) -> bool:
    """``has_line_of_sight`` (``sight``) or ``has_line_of_effect`` between the space of side ``sa`` anchored at
    square ``a`` and that of side ``sb`` at ``b``: some line from a corner of one of ``a``'s squares to an outer
    corner of ``b``'s space is not blocked."""
    flag = B_LOS if sight else B_LOE
    crowd = np.empty(1, dtype=np.int64)
    pinch, ends = _scratch(cats)
    ax, ay = a % width, a // width
    bx, by = b % width, b // width
    for pj in range(sa + 1):
        for pi in range(sa + 1):
            px, py = ax + pi, ay + pj
            for qi in range(4):
                qx, qy = bx + sb * (qi % 2), by + sb * (qi // 2)
                if px == qx and py == qy:
                    continue
                f = _line(px, py, qx, qy, cats, edges, crowd, crowd, 0, along, a, sa, b, sb, width, False, 1, pinch,
                          ends)  # fmt: skip
                if not f & flag:
                    return True
    return False


@_jit
def fast_line(cats: Any, edges: Any, along: bool, width: int, a: int, b: int, sight: bool) -> bool:
    """:func:`space_line` between the one-square spaces in squares ``a`` and ``b``."""
    return space_line(cats, edges, along, width, a, 1, b, 1, sight)


# ---------------------------------------------------------------- what a cache miss asks (from object mode)
#: Maps with more walls and windows on edges than this ask the grid package (each line looks at every edge).
EDGES_LIMIT = 4096
_TABLES: dict[int, tuple[NDArray[np.uint8], NDArray[np.int64], bool, int] | None] = {}


def _tables(map_id: int) -> tuple[NDArray[np.uint8], NDArray[np.int64], bool, int] | None:
    """The line tables of a registered map (built on its first miss), None for a map that asks the grid."""
    key = int(map_id)
    if key not in _TABLES:
        from sftactics.sim.kernel.geo import _MAPS

        grid, options = _MAPS[key]
        cats, edges, along, low = line_tables(grid, options)
        _TABLES[key] = (cats, edges, bool(along), low) if edges.shape[0] <= EDGES_LIMIT else None
    return _TABLES[key]


def cover_answer(map_id: int, attacker: int, target: int, ranged: int, others: NDArray[np.int64], count: int) -> int:
    """``coverkind._cover_from_grid``'s answer by :func:`fast_cover` (-1 where the grid package must answer)."""
    t = _tables(map_id)
    if t is None:
        return -1
    cats, edges, along, low = t
    return int(fast_cover(cats, edges, along, low, cats.shape[1], int(attacker), int(target), bool(ranged), others,
                          int(count)))  # fmt: skip


def line_answer(map_id: int, a: int, b: int, sight: bool) -> int:
    """``sight.lines_from_grid``'s answer between one-square spaces by :func:`fast_line` (-1 where the grid
    package must answer)."""
    t = _tables(map_id)
    if t is None:
        return -1
    cats, edges, along, _ = t
    return int(fast_line(cats, edges, along, cats.shape[1], int(a), int(b), sight))


def space_cover_answer(
    map_id: int, a: int, sa: int, t: int, stt: int, ranged: int, others: NDArray[np.int64], count: int
) -> int:
    """``bigcover._fp_cover_from_grid``'s answer by :func:`space_cover` (-1 where the grid package must answer);
    ``others[:count]``: the other creatures' spaces as ``anchor * 8 + side``."""
    t_ = _tables(map_id)
    if t_ is None:
        return -1
    cats, edges, along, low = t_
    crowd = np.asarray(others[: int(count)], dtype=np.int64)
    return int(space_cover(cats, edges, along, low, cats.shape[1], int(a), int(sa), int(t), int(stt), bool(ranged),
                           crowd // 8, crowd % 8, int(count)))  # fmt: skip


def space_line_answer(map_id: int, a: int, sa: int, b: int, sb: int, sight: bool) -> int:
    """``sight.lines_from_grid``'s answer between bigger spaces by :func:`space_line` (-1 where the grid package
    must answer)."""
    t = _tables(map_id)
    if t is None:
        return -1
    cats, edges, along, _ = t
    return int(space_line(cats, edges, along, cats.shape[1], int(a), int(sa), int(b), int(sb), bool(sight)))
