"""Cover between spaces of any side in the compiled fight (MOD-07..15, AOO-*): :func:`fp_cover_kind` reads the
same per-map cover cache as ``coverkind.cover_kind`` (a space bigger than a square is keyed by a negative
number) and asks the grid package from object mode on a miss; :func:`fp_can_aoo_geometry` and
:func:`_fp_alone` (the answer with no other creature around) build on it."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

from sftactics.grid.geometry import Footprint
from sftactics.sim.kernel.geo import PAIR_MELEE, PAIR_RANGED, _jit, pair_get, pair_put

# --- cover between spaces -------------------------------------------------------------------------------------
# Keys of spaces bigger than a square go into the same per-map cache as the one-square keys of
# ``coverkind.cover_kind``, told apart by sign: a space is ``-(anchor * 8 + side) - 2`` (never a square's index).

_objmode: Any = numba.objmode


def _fp_cover_from_grid(
    map_id: int, a: int, sa: int, t: int, stt: int, ranged: int, others: NDArray[np.int64], count: int
) -> int:
    """The grid package's answer for spaces (object mode, on a cache miss)."""
    from sftactics.grid.cover import cover
    from sftactics.sim.kernel import geo

    geo._FALLBACK[0] += 1
    from sftactics.sim.kernel.trace import space_cover_answer  # (compiled lines: the same answers)

    fast = space_cover_answer(map_id, a, sa, t, stt, ranged, others, count)
    if fast >= 0:
        return fast
    grid, options = geo._MAPS[int(map_id)]
    w = grid.width
    creatures = [Footprint(int(c) // 8 % w, int(c) // 8 // w, int(c) % 8) for c in others[: int(count)]]
    res = cover(
        grid,
        Footprint(int(a) % w, int(a) // w, int(sa)),
        Footprint(int(t) % w, int(t) // w, int(stt)),
        ranged=bool(ranged),
        creatures=creatures,
        explain=False,
        options=options,
    )
    return int(res.kind)


@_jit
def _fp_lookup(
    cache: Any, map_id: int, a: int, sa: int, t: int, stt: int, ranged: int, others: NDArray[np.int64], count: int
) -> int:
    pad = np.full(8, -1, dtype=np.int64)
    for i in range(min(count, 8)):
        pad[i] = others[i]
    key = (
        np.int64(-(a * 8 + sa) - 2),
        np.int64(-(t * 8 + stt) - 2),
        np.int64(ranged),
        pad[0],
        pad[1],
        pad[2],
        pad[3],
        pad[4],
        pad[5],
        pad[6],
        pad[7],
    )
    if count <= 8 and key in cache:
        hit: int = cache[key]
        return hit
    with _objmode(kind="int64"):
        kind = _fp_cover_from_grid(map_id, a, sa, t, stt, ranged, others, count)
    if count <= 8:
        if len(cache) >= 200_000:
            cache.clear()
        cache[key] = kind
    return kind


@_jit
def fp_cover_kind(
    cache: Any,
    pair: NDArray[np.int8],
    map_id: int,
    width: int,
    a: int,
    sa: int,
    t: int,
    stt: int,
    ranged: bool,
    crowd: NDArray[np.int32],
    crowd_side: NDArray[np.int32],
    n_crowd: int,
) -> int:
    """``cover(grid, Footprint(a, sa), Footprint(t, stt), ranged=..., creatures=...)`` (MOD-07..15) for spaces of
    any side, through the map's cover cache. ``crowd[:n_crowd]`` are the anchors of the other creatures and
    ``crowd_side`` their sides; only those whose space meets the box of the two spaces can matter (every line of
    the corner rule runs inside it). Without creatures in the box, or when the walls alone give cover, the answer
    without creatures is the answer (creatures add soft cover only to lines that had none); those answers are in
    the map's pair table too (``geo.pair_table``)."""
    if not ranged:
        return _fp_alone(cache, pair, map_id, a, sa, t, stt, 0)
    alone = _fp_alone(cache, pair, map_id, a, sa, t, stt, 1)
    if alone >= 3:  # CoverKind.COVER and above: creatures change nothing
        return alone
    ax, ay, tx, ty = a % width, a // width, t % width, t // width
    x0, x1 = min(ax, tx), max(ax + sa, tx + stt) - 1
    y0, y1 = min(ay, ty), max(ay + sa, ty + stt) - 1
    others = np.empty(n_crowd, dtype=np.int64)
    count = 0
    for i in range(n_crowd):
        s = crowd[i]
        cs = crowd_side[i]
        cx, cy = s % width, s // width
        if cx > x1 or cx + cs - 1 < x0 or cy > y1 or cy + cs - 1 < y0:
            continue
        others[count] = np.int64(s) * 8 + cs
        count += 1
    if count == 0:
        return alone
    found = np.sort(others[:count])
    return _fp_lookup(cache, map_id, a, sa, t, stt, 1, found, count)


@_jit
def fp_can_aoo_geometry(cache: Any, pair: NDArray[np.int8], map_id: int, e: int, se: int, c: int, sc: int) -> bool:
    """MOD-09 for spaces of any side: cover does not stop the reactor's attack of opportunity."""
    return _fp_alone(cache, pair, map_id, e, se, c, sc, 0) < 2  # below PARTIAL


@_jit
def _fp_alone(cache: Any, pair: NDArray[np.int8], map_id: int, a: int, sa: int, t: int, stt: int, ranged: int) -> int:
    """:func:`_fp_lookup` without creatures: the pair table first."""
    slot = PAIR_RANGED if ranged else PAIR_MELEE
    known = pair_get(pair, slot, a, sa, t, stt)
    if known >= 0:
        return known
    kind = _fp_lookup(cache, map_id, a, sa, t, stt, ranged, np.empty(0, dtype=np.int64), 0)
    pair_put(pair, slot, a, sa, t, stt, kind)
    return kind
