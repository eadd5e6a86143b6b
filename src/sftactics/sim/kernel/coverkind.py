"""Cover between one-square spaces in the compiled fight (MOD-07..15): :func:`cover_kind` by the corner rule
through the map's cover cache (a numba dict, after the creature-free pair table), asking the grid package from
object mode on a miss (:func:`_cover_from_grid`, which tries ``kernel.trace``'s compiled lines first), and
:func:`can_aoo_geometry` (no attack of opportunity through total cover). The map registry, the caches and the
pair table are :mod:`~sftactics.sim.kernel.geo`'s."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

from sftactics.grid.cover import cover
from sftactics.grid.geometry import Footprint
from sftactics.sim.kernel.geo import (
    _COVER,
    _FALLBACK,
    _MAPS,
    _PARTIAL,
    COVER_CACHE_LIMIT,
    COVER_KEY_CREATURES,
    PAIR_MELEE,
    PAIR_RANGED,
    _jit,
    pair_get,
    pair_put,
)


def _cover_from_grid(
    map_id: int, attacker: int, target: int, ranged: int, others: NDArray[np.int64], count: int
) -> int:
    """The grid package's answer, called from object mode on a cache miss."""
    _FALLBACK[0] += 1
    from sftactics.sim.kernel.trace import cover_answer  # (compiled lines: the same answers, kernel/trace.py)

    fast = cover_answer(map_id, attacker, target, ranged, others, count)
    if fast >= 0:
        return fast
    grid, options = _MAPS[int(map_id)]
    w = grid.width
    creatures = [Footprint(int(s) % w, int(s) // w) for s in others[: int(count)]]
    result = cover(
        grid,
        Footprint(int(attacker) % w, int(attacker) // w),
        Footprint(int(target) % w, int(target) // w),
        ranged=bool(ranged),
        creatures=creatures,
        explain=False,
        options=options,
    )
    return int(result.kind)


_objmode: Any = numba.objmode  # reached through an Any so the typed bodies below type-check


@_jit
def _cover_lookup(cache: Any, map_id: int, attacker: int, target: int, ranged: int, others: NDArray[np.int64]) -> int:
    count = 0
    while count < COVER_KEY_CREATURES and others[count] >= 0:
        count += 1
    key = (
        np.int64(attacker),
        np.int64(target),
        np.int64(ranged),
        others[0],
        others[1],
        others[2],
        others[3],
        others[4],
        others[5],
        others[6],
        others[7],
    )
    if key in cache:
        hit: int = cache[key]  # (``get`` with a default would type as an optional in callers)
        return hit
    with _objmode(kind="int64"):
        kind = _cover_from_grid(map_id, attacker, target, ranged, others, count)
    if len(cache) >= COVER_CACHE_LIMIT:
        cache.clear()
    cache[key] = kind
    return kind


@_jit
def _alone_lookup(cache: Any, pair: NDArray[np.int8], map_id: int, attacker: int, target: int, ranged: int) -> int:
    """:func:`_cover_lookup` with no creatures in the key, without building an array unless Python is asked;
    the pair table first."""
    slot = PAIR_RANGED if ranged else PAIR_MELEE
    known = pair_get(pair, slot, attacker, 1, target, 1)
    if known >= 0:
        return known
    n = np.int64(-1)
    key = (np.int64(attacker), np.int64(target), np.int64(ranged), n, n, n, n, n, n, n, n)
    if key in cache:
        hit: int = cache[key]
    else:
        hit = _cover_lookup(cache, map_id, attacker, target, ranged, np.full(COVER_KEY_CREATURES + 1, -1, np.int64))
    pair_put(pair, slot, attacker, 1, target, 1, hit)
    return hit


@_jit
def cover_kind(
    cache: Any,
    pair: NDArray[np.int8],
    map_id: int,
    width: int,
    attacker: int,
    target: int,
    ranged: bool,
    creatures: NDArray[np.int32],
    n_creatures: int,
) -> int:
    """The cover (a :class:`CoverKind` value) of a one-square target in square ``target`` against a one-square
    attacker in square ``attacker``, by ``cover(grid, ..., ranged=ranged, creatures=...)`` (MOD-07..15).

    ``creatures[:n_creatures]`` are the squares of the creatures on the map (the attacker's and the target's own
    squares are skipped, as ``cover`` does); they give soft cover against ranged attacks only (MOD-11). Only
    those inside the bounding box of the two squares go into the key: every line of the corner rule runs inside
    that box (between corners of the two squares), and a creature counts only if a line passes through its
    interior, so a square outside the box can never change the answer (the tests check this against ``cover``
    with every creature). ``cache`` is :func:`cover_cache` of the registered ``map_id`` and ``pair`` its
    :func:`pair_table`; a miss asks the grid package from object mode and stores the answer.
    """
    if not ranged:
        return _alone_lookup(cache, pair, map_id, attacker, target, 0)
    ax, ay = attacker % width, attacker // width
    tx, ty = target % width, target // width
    x0, x1 = min(ax, tx), max(ax, tx)
    y0, y1 = min(ay, ty), max(ay, ty)
    inside = False
    for i in range(n_creatures):
        s = np.int64(creatures[i])
        if s != attacker and s != target and x0 <= s % width <= x1 and y0 <= s // width <= y1:
            inside = True
            break
    # Creatures can only add soft cover to lines that had none, so when the walls and objects alone give cover
    # (or total cover) from every corner, creatures change nothing: ask without them first (a key every fight
    # shares), and only when that is "none" with the creatures in the box.
    alone = _alone_lookup(cache, pair, map_id, attacker, target, 1)
    if not inside or alone >= _COVER:
        return alone
    others = np.full(COVER_KEY_CREATURES + 1, -1, dtype=np.int64)
    count = 0
    for i in range(n_creatures):
        s = np.int64(creatures[i])
        if s == attacker:  # the attacker's and the target's own squares never count
            continue
        if s == target:
            continue
        sx, sy = s % width, s // width
        if sx < x0 or sx > x1 or sy < y0 or sy > y1:
            continue
        j = 0  # insert in order, without duplicates
        while j < count and others[j] < s:
            j += 1
        if j < count and others[j] == s:
            continue
        for m in range(count, j, -1):
            others[m] = others[m - 1]
        others[j] = s
        count += 1
        if count > COVER_KEY_CREATURES:
            return _cover_all(map_id, attacker, target, creatures, n_creatures)
    return _cover_lookup(cache, map_id, attacker, target, 1, others)


@_jit
def _cover_all(map_id: int, attacker: int, target: int, creatures: NDArray[np.int32], n_creatures: int) -> int:
    """More creatures in the box than a key holds: ask the grid package with all of them, cache nothing."""
    others = np.empty(n_creatures, dtype=np.int64)
    for i in range(n_creatures):
        others[i] = creatures[i]
    with _objmode(kind="int64"):
        kind = _cover_from_grid(map_id, attacker, target, 1, others, n_creatures)
    return kind


@_jit
def can_aoo_geometry(cache: Any, pair: NDArray[np.int8], map_id: int, reactor: int, provoker: int) -> bool:
    """MOD-09: whether cover lets the creature in ``reactor`` make an attack of opportunity against the one in
    ``provoker``, as ``not cover(grid, reactor, provoker, ranged=False).blocks_attacks_of_opportunity``
    (creatures do not matter to melee cover). Through the same cache as :func:`cover_kind`."""
    return _alone_lookup(cache, pair, map_id, reactor, provoker, 0) < _PARTIAL
