"""Creatures of two squares or more in the compiled kernel: footprint tables and numba functions (MOV-04, MOV-19).

A Large (2x2), Huge (3x3), Gargantuan (4x4) or Colossal (6x6) creature stands on a *footprint* named by its
anchor, the top-left square (``idx = y * width + x``, as :func:`sftactics.grid.space.footprint`). Everything
here is the grid package's answer for such a footprint, read from the grid's own tables (one source of truth)
or written again in a few lines and held to the grid package by ``tests/sim/test_kernel_footprints.py``:

* :func:`big_tables`: per map and footprint side, the legal steps of the full space and of the squeezed one
  (half as wide, rounded up: MOV-19), where each fits, where a squeezed space may stop (only where no full space
  around it fits) and the squeeze shifts (shrinking into part of the space, growing back around it), read from
  :class:`sftactics.grid.movement._Ctx` for that mover: the same masks as ``find_path``. Built once per map.
* :func:`anchor_occupancy` and :func:`anchor_provoking`: per anchor of each layer, what the creatures in its
  squares allow (the and of passable and stoppable, the most doublings) and whether any square of the space is
  threatened, as ``_Ctx._occupancy`` and ``_Ctx.anchor_set`` make them from the squares.
* :func:`big_search`: ``grid.movement._search`` for that mover, state for state: (anchor, squeezed, diagonal
  parity, last move a shift), ranked by (feet, steps out of threatened spaces) or (feet, total feet) and then the
  state number in the same order as the grid's, so the same states settle in the same order and the paths are
  the same (squeezing through a gap, and on open ground the squeezed detour that ties with the plain path).
  :func:`big_find_path` and :func:`big_reachable` are ``find_path`` and ``reachable`` (one move action or a
  double move) built on it, for Python callers and the tests.
* :func:`fp_distance_ft` (``footprint_distance_ft``, also ``attack_range_ft`` between spaces),
  :func:`fp_distance_to_point_ft`, :func:`fp_threat_table` / :func:`fp_threatens` (the squares a footprint
  threatens with a reach, walls and lines of effect included, and whether any square of a target's space is one
  of them: AOO-02..05) and :func:`fp_flank_line` (MOD-17 with any square of either flanker).

Cover between spaces is :mod:`~sftactics.sim.kernel.bigcover`'s. A one-square creature is a footprint of side 1
throughout, so the same functions answer for every pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import cast

import numpy as np
from numpy.typing import NDArray

from sftactics.grid.geometry import DIRECTIONS, Footprint, Square
from sftactics.grid.map import GridMap
from sftactics.grid.movement import MoveMode, Mover, Occupant, _Ctx
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.grid.space import Size, footprint_side, threatened_squares
from sftactics.sim.kernel.bigbuckets import bucket_lanes, bucket_size, space_bucket_search
from sftactics.sim.kernel.bigpath import settled_at
from sftactics.sim.kernel.geo import PROV_BITS, _heap_pop, _heap_push, _jit, _opposite_sides, step_cost

__all__ = [
    "BigPath",
    "BigTables",
    "anchor_occupancy",
    "anchor_provoking",
    "big_find_path",
    "big_reachable",
    "big_search",
    "big_tables",
    "big_walk_search",
    "fp_distance_ft",
    "fp_distance_to_point_ft",
    "fp_flank_line",
    "fp_threat_table",
    "fp_threatens",
    "state_of",
]


_INF = 1 << 62
_PROV_MASK = (1 << PROV_BITS) - 1

# --- tables ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class BigTables:
    """The movement tables of a land mover of ``side`` squares (2 or more) on one map.

    Layer 0 is the full space (``side``), layer 1 the squeezed one (``small``, MOV-19); arrays are indexed
    ``[layer, anchor, ...]``:

    * ``step_to`` int32 ``[2, n, 8]``: the anchor a step in each of the 8 DIRECTIONS leads to, -1 if illegal;
    * ``step_k`` int8 ``[2, n, 8]``: the terrain doublings of that step (the new space's most difficult square);
    * ``fits`` bool ``[2, n]``: where a space of the layer may be;
    * ``squeeze_stop`` bool ``[n]``: where a squeezed space may stop (no full space around it fits);
    * ``shift_to`` int32 ``[2, n, k]``: the anchors of the other layer a squeeze shift reaches (shrinking into
      any part of the space from layer 0, growing back around it from layer 1), -1 where the space would leave
      the map or does not fit, in the grid's order;
    * ``sqd``: the doublings squeezing adds to a step (1, or 2 with ``squeeze_speed="quarter"``).
    """

    width: int
    height: int
    side: int
    small: int
    step_to: NDArray[np.int32]
    step_k: NDArray[np.int8]
    step_diag: NDArray[np.bool_]
    fits: NDArray[np.bool_]
    squeeze_stop: NDArray[np.bool_]
    shift_to: NDArray[np.int32]
    sqd: int

    @property
    def n(self) -> int:
        return self.width * self.height


def big_mover(
    size: Size, *, charging: bool = False, pass_enemies: bool = False, mode: MoveMode = MoveMode.LAND,
    incorporeal: bool = False,
) -> Mover:  # fmt: skip
    """The mover of a creature of ``size`` as the engine makes it (``encounter.movement.mover_for``); land unless
    ``mode`` says otherwise (``sim.kernel.bigmodes``)."""
    if footprint_side(size) < 2:
        raise ValueError(f"a {size} creature fills one square or less: the kernel's one-square tables are its")
    return Mover(size=size, mode=mode, charging=charging, pass_enemies=pass_enemies, incorporeal=incorporeal)


def big_tables(
    grid: GridMap, size: Size, options: GridOptions = DEFAULT_OPTIONS, *, mode: MoveMode = MoveMode.LAND,
    incorporeal: bool = False,
) -> BigTables:  # fmt: skip
    """The :class:`BigTables` of ``grid`` for a land mover of ``size`` (Large or bigger), or one of ``mode``
    (``sim.kernel.bigmodes``), cached on the map."""
    side = footprint_side(size)
    key = ("kernel.footprints.tables", side, options, mode, incorporeal)
    found = grid.memo.get(key)
    if found is not None:
        return cast(BigTables, found)
    ctx = _Ctx(grid, big_mover(size, mode=mode, incorporeal=incorporeal), None, None, options)
    w, h = grid.width, grid.height
    n = w * h
    here = np.arange(n, dtype=np.int32)
    step_to = np.full((2, n, 8), -1, dtype=np.int32)
    step_k = np.zeros((2, n, 8), dtype=np.int8)
    fits = np.zeros((2, n), dtype=np.bool_)
    for layer, table in enumerate(ctx.tables):
        dirs, tdbl = table.array("dirs"), table.array("tdbl")
        fits[layer] = np.frombuffer(ctx.fits[layer], dtype=np.uint8).astype(np.bool_)
        for di, (dx, dy) in enumerate(DIRECTIONS):
            legal = (dirs >> di) & 1 != 0
            dest = here[legal] + (dy * w + dx)
            step_to[layer, legal, di] = dest
            step_k[layer, legal, di] = tdbl[dest]
    small = ctx.sides[1]
    span = side - small
    k = (span + 1) * (span + 1)
    shift_to = np.full((2, n, k), -1, dtype=np.int32)
    for layer in (0, 1):
        to_side = ctx.sides[1 - layer]
        for idx in range(n):
            x, y = idx % w, idx // w
            j = 0
            for jy in range(span + 1):
                for ix in range(span + 1):
                    cx, cy = (x + ix, y + jy) if layer == 0 else (x - ix, y - jy)
                    if 0 <= cx <= w - to_side and 0 <= cy <= h - to_side and fits[1 - layer, cy * w + cx]:
                        shift_to[layer, idx, j] = cy * w + cx
                    j += 1
    tables = BigTables(
        w,
        h,
        side,
        small,
        step_to,
        step_k,
        np.array([bool(dx and dy) for dx, dy in DIRECTIONS], dtype=np.bool_),
        fits,
        np.frombuffer(ctx.squeeze_stop, dtype=np.uint8).astype(np.bool_),
        shift_to,
        ctx.sqd,
    )
    grid.memo[key] = tables
    return tables


@_jit
def anchor_occupancy(
    width: int,
    height: int,
    side: int,
    small: int,
    passable: NDArray[np.bool_],
    stoppable: NDArray[np.bool_],
    extra_k: NDArray[np.int8],
    a_pass: NDArray[np.bool_],
    a_stop: NDArray[np.bool_],
    a_k: NDArray[np.int8],
) -> None:
    """Per anchor of each layer (``a_*[layer, anchor]``): whether the space may be entered (every square
    passable), stopped in (every square stoppable), and the most extra doublings of its squares, from the
    per-square arrays of the kernel's one-square occupancy (``_Ctx._occupancy`` for the two spaces)."""
    for layer in range(2):
        s = side if layer == 0 else small
        for ay in range(height):  # (by row and column: no division per anchor)
            for ax in range(width):
                a = ay * width + ax
                p = True
                q = True
                kk = 0
                if ax <= width - s and ay <= height - s:
                    for j in range(s):
                        for i in range(s):
                            sq = (ay + j) * width + ax + i
                            p = p and passable[sq]
                            q = q and stoppable[sq]
                            kk = max(kk, int(extra_k[sq]))
                a_pass[layer, a] = p
                a_stop[layer, a] = q
                a_k[layer, a] = kk


@_jit
def anchor_provoking(
    width: int, height: int, side: int, small: int, zone: NDArray[np.bool_], out: NDArray[np.bool_]
) -> None:
    """``out[layer, anchor]``: a square of that layer's space at the anchor is in ``zone`` (per square), as
    ``_Ctx.anchor_set`` (the anchors of the spaces on the map holding a square of the zone)."""
    for layer in range(2):
        s = side if layer == 0 else small
        for ay in range(height):
            for ax in range(width):
                hit = False
                if ax <= width - s and ay <= height - s:
                    for j in range(s):
                        for i in range(s):
                            if zone[(ay + j) * width + ax + i]:
                                hit = True
                out[layer, ay * width + ax] = hit


# --- the search -----------------------------------------------------------------------------------------------
# A state is ((anchor * 2 + squeezed) * 2 + parity) * 2 + shifted: the order of the grid's states
# ((anchor * 2 + squeezed) * 2 + parity) * 18 + shifted * 9 + heading for a land mover (heading 8 always).


@_jit
def state_of(anchor: int, squeezed: int, parity: int, shifted: int) -> int:
    return ((anchor * 2 + squeezed) * 2 + parity) * 2 + shifted


@_jit
def _can_stop(s: int, squeeze_stop: NDArray[np.bool_], a_stop: NDArray[np.bool_]) -> bool:
    idx = s >> 3
    sq = (s >> 2) & 1
    if sq == 1 and not squeeze_stop[idx]:
        return False
    return bool(a_stop[sq, idx])


@_jit
def big_search(
    step_to: NDArray[np.int32],
    step_k: NDArray[np.int8],
    step_diag: NDArray[np.bool_],
    shift_to: NDArray[np.int32],
    squeeze_stop: NDArray[np.bool_],
    sqd: int,
    seeds: NDArray[np.int64],
    seed_keys: NDArray[np.int64],
    budget: int,
    a_pass: NDArray[np.bool_],
    a_stop: NDArray[np.bool_],
    a_k: NDArray[np.int8],
    provoking: NDArray[np.bool_],
    use_provoking: bool,
    no_difficult: bool,
    hampered_diagonal_counts: bool,
    goal: int,
    dist: NDArray[np.int64],
    parent: NDArray[np.int32],
    heap: NDArray[np.int64],
) -> int:
    """``grid.movement._search`` for a mover of two squares or more, from ``seeds`` (states) with their keys.

    Keys are ``feet << PROV_BITS | secondary``: the secondary is the number of steps out of ``provoking``
    spaces with ``use_provoking``, else the feet again (plus what the seed's key held), as the grid ranks them.
    A step costs as in :func:`~sftactics.sim.kernel.geo.step_cost` with the new space's terrain doublings, the
    extra doublings of the creatures there (``a_k``) and ``sqd`` more while squeezed; a squeeze shift costs
    nothing, never follows another and provokes nothing. ``no_difficult``: a charge enters no difficult terrain.
    With ``goal >= 0`` (an anchor of the full space) the search stops once it settles a state there where the
    mover may stop. ``dist`` and ``parent`` (per state, ``8 n`` entries; ``heap`` ``8 * 9 n + 1``) hold the
    answer. Returns the state the goal was settled in, or -1.
    """
    n = step_to.shape[1]
    n_states = 8 * n
    sb = 1
    while (1 << sb) < n_states:
        sb += 1
    smask = (1 << sb) - 1
    if budget < 0 or budget >= (1 << (62 - PROV_BITS - sb)):
        raise ValueError("budget out of range for the search key")
    for i in range(n_states):
        dist[i] = _INF
        parent[i] = -1
    size = 0
    for i in range(seeds.shape[0]):
        s = seeds[i]
        if seed_keys[i] < dist[s]:
            dist[s] = seed_keys[i]
            size = _heap_push(heap, size, (seed_keys[i] << sb) | s)
    nshift = shift_to.shape[2]
    while size > 0:
        item, size = _heap_pop(heap, size)
        key = item >> sb
        s = item & smask
        if key != dist[s]:
            continue
        shifted = s & 1
        par = (s >> 1) & 1
        sq = (s >> 2) & 1
        idx = s >> 3
        if goal >= 0 and idx == goal and sq == 0 and _can_stop(s, squeeze_stop, a_stop):
            return s
        used = key >> PROV_BITS
        leave = -1
        if use_provoking:
            leave = 1 if provoking[sq, idx] else 0
        for d in range(8):
            nidx = step_to[sq, idx, d]
            if nidx < 0:
                continue
            k = int(step_k[sq, idx, d])
            if k > 0 and no_difficult:
                continue
            if not a_pass[sq, nidx]:
                continue
            k += int(a_k[sq, nidx])
            if sq == 1:
                k += sqd
            c, npar = step_cost(k, step_diag[d], par, hampered_diagonal_counts)
            if used + c > budget:
                continue
            ns = ((nidx * 2 + sq) * 2 + npar) * 2
            nkey = key + (c << PROV_BITS) + (c if leave < 0 else leave)
            if nkey < dist[ns]:
                dist[ns] = nkey
                parent[ns] = s
                size = _heap_push(heap, size, (nkey << sb) | ns)
        if shifted == 0:
            to_sq = 1 - sq
            for j in range(nshift):
                cidx = shift_to[sq, idx, j]
                if cidx < 0 or not a_pass[to_sq, cidx]:
                    continue
                ns = ((cidx * 2 + to_sq) * 2 + par) * 2 + 1
                if key < dist[ns]:
                    dist[ns] = key
                    parent[ns] = s
                    size = _heap_push(heap, size, (key << sb) | ns)
    return -1


@_jit
def big_walk_search(
    step_to: NDArray[np.int32],
    step_k: NDArray[np.int8],
    step_diag: NDArray[np.bool_],
    shift_to: NDArray[np.int32],
    squeeze_stop: NDArray[np.bool_],
    sqd: int,
    seeds: NDArray[np.int64],
    seed_keys: NDArray[np.int64],
    budget: int,
    a_pass: NDArray[np.bool_],
    a_stop: NDArray[np.bool_],
    a_k: NDArray[np.int8],
    provoking: NDArray[np.bool_],
    use_provoking: bool,
    no_difficult: bool,
    hampered_diagonal_counts: bool,
    goal: int,
    dist: NDArray[np.int64],
    parent: NDArray[np.int32],
    heap: NDArray[np.int64],
) -> int:
    """:func:`big_search` (the same arguments and outputs) from buckets (``bigbuckets.space_bucket_search``, no
    headings) where they apply and fit the heap buffer (a move's budget), else from the heap."""
    lw = bucket_lanes(seeds, seed_keys, budget, use_provoking)
    if lw > 0 and bucket_size(budget, lw, 8 * step_to.shape[1]) <= heap.shape[0]:
        return space_bucket_search(step_to, step_k, step_diag, shift_to, squeeze_stop, sqd, seeds, seed_keys, budget,
                                   a_pass, a_stop, a_k, provoking, use_provoking, no_difficult,
                                   hampered_diagonal_counts, goal, dist, parent, heap, lw, 1, False)  # fmt: skip
    return big_search(step_to, step_k, step_diag, shift_to, squeeze_stop, sqd, seeds, seed_keys, budget, a_pass,
                      a_stop, a_k, provoking, use_provoking, no_difficult, hampered_diagonal_counts, goal, dist,
                      parent, heap)  # fmt: skip


# --- Python front ends (the tests, and the model's questions) -------------------------------------------------


@dataclass(frozen=True)
class BigPath:
    """A path of :func:`big_find_path`: the spaces from the start (``Footprint``s: a squeezed one is smaller),
    its cost in feet and the indexes of the spaces left while threatened (as ``Provocation.step``)."""

    spaces: tuple[Footprint, ...]
    cost_ft: int
    leaving: tuple[int, ...]


class _Work:
    """Per-search arrays for a map of ``n`` squares."""

    def __init__(self, t: BigTables) -> None:
        n = t.n
        self.dist = np.empty(8 * n, dtype=np.int64)
        self.parent = np.empty(8 * n, dtype=np.int32)
        self.heap = np.empty(72 * n + 1, dtype=np.int64)
        self.a_pass = np.ones((2, n), dtype=np.bool_)
        self.a_stop = np.ones((2, n), dtype=np.bool_)
        self.a_k = np.zeros((2, n), dtype=np.int8)
        self.prov = np.zeros((2, n), dtype=np.bool_)


def _occupancy(
    t: BigTables, work: _Work, grid: GridMap, size: Size, occupants: Mapping[Square, Occupant] | None,
    charging: bool, options: GridOptions,
) -> None:  # fmt: skip
    """The grid's own per-anchor answer (``_Ctx.occ``) into the work arrays."""
    ctx = _Ctx(grid, big_mover(size, charging=charging), occupants, None, options)
    for layer in (0, 1):
        for idx, (p, s, k) in ctx.occ[layer].items():
            work.a_pass[layer, idx], work.a_stop[layer, idx], work.a_k[layer, idx] = p, s, k


def _spaces(t: BigTables, parent: NDArray[np.int32], end: int) -> list[int]:
    states = [end]
    while parent[states[-1]] >= 0:
        states.append(int(parent[states[-1]]))
    states.reverse()
    return states


def _footprint(t: BigTables, s: int) -> Footprint:
    idx, sq = s >> 3, (s >> 2) & 1
    return Footprint(idx % t.width, idx // t.width, t.small if sq else t.side)


def big_find_path(
    grid: GridMap,
    start: Square,
    goal: Square,
    size: Size,
    *,
    occupants: Mapping[Square, Occupant] | None = None,
    threats: Iterable[Square] | None = None,
    budget_ft: int = (1 << 20) - 1,
    diagonals_before: int = 0,
    charging: bool = False,
    options: GridOptions = DEFAULT_OPTIONS,
    whole: bool = False,
) -> BigPath | None:
    """``grid.movement.find_path`` for a land mover of ``size`` (Large or bigger) from the space anchored at
    ``start`` to the full space anchored at ``goal``; ``threats``: every threatened square (of any enemy).
    ``whole``: search the whole map, as the fight does (``bigfight.search_big``), and take the end state the
    engine's search settles first (``bigpath.settled_at``) instead of stopping there."""
    t = big_tables(grid, size, options)
    work = _Work(t)
    _occupancy(t, work, grid, size, occupants, charging, options)
    zone = np.zeros(t.n, dtype=np.bool_)
    for x, y in threats or ():
        if grid.in_bounds((x, y)):
            zone[y * t.width + x] = True
    anchor_provoking(t.width, t.height, t.side, t.small, zone, work.prov)
    seed = state_of(start[1] * t.width + start[0], 0, diagonals_before % 2, 0)
    want = goal[1] * t.width + goal[0]
    end = big_search(
        t.step_to, t.step_k, t.step_diag, t.shift_to, t.squeeze_stop, t.sqd,
        np.array([seed], dtype=np.int64), np.zeros(1, dtype=np.int64), budget_ft, work.a_pass, work.a_stop,
        work.a_k, work.prov, True, charging, options.hampered_diagonal_counts, -1 if whole else want,
        work.dist, work.parent, work.heap,
    )  # fmt: skip
    if whole:
        end = settled_at(work.dist, work.parent, work.a_stop, want, 1)
    if end < 0:
        return None
    states = _spaces(t, work.parent, end)
    spaces = tuple(_footprint(t, s) for s in states)
    leaving = tuple(
        i for i in range(len(states) - 1) if not (states[i + 1] & 1) and work.prov[(states[i] >> 2) & 1, states[i] >> 3]
    )
    return BigPath(spaces, int(work.dist[end] >> PROV_BITS), leaving)


def big_reachable(
    grid: GridMap,
    start: Square,
    size: Size,
    speed: int,
    *,
    occupants: Mapping[Square, Occupant] | None = None,
    actions: int = 1,
    diagonals_before: int = 0,
    options: GridOptions = DEFAULT_OPTIONS,
) -> tuple[dict[Square, int], dict[Square, int], frozenset[Square]]:
    """``grid.movement.reachable`` for a land mover of ``size``: (cost, actions, squeezed) per anchor square.
    Only ``double_move = "separate"`` with the diagonal count carried over (the defaults)."""
    if options.double_move != "separate" or options.diagonal_count_resets != "turn":
        raise ValueError("only the default double move and diagonal count")
    t = big_tables(grid, size, options)
    w = t.width
    work = _Work(t)
    _occupancy(t, work, grid, size, occupants, False, options)
    seed = state_of(start[1] * w + start[0], 0, diagonals_before % 2, 0)
    big_search(
        t.step_to, t.step_k, t.step_diag, t.shift_to, t.squeeze_stop, t.sqd,
        np.array([seed], dtype=np.int64), np.zeros(1, dtype=np.int64), speed, work.a_pass, work.a_stop,
        work.a_k, work.prov, False, False, options.hampered_diagonal_counts, -1, work.dist, work.parent, work.heap,
    )  # fmt: skip
    best: dict[int, tuple[int, int, int, int, int]] = {}
    d1 = work.dist.copy()
    stops = [s for s in np.flatnonzero(d1 < _INF).tolist() if _can_stop(s, t.squeeze_stop, work.a_stop)]
    for s in stops:
        total = int(d1[s] & _PROV_MASK)
        cand = (0 if s == seed else 1, total, (s >> 2) & 1, 1, s)
        old = best.get(s >> 3)
        if old is None or cand < old:
            best[s >> 3] = cand
    if actions == 2:
        seeds = np.array(stops, dtype=np.int64)
        keys = np.array([int(d1[s] & _PROV_MASK) for s in stops], dtype=np.int64)
        big_search(
            t.step_to, t.step_k, t.step_diag, t.shift_to, t.squeeze_stop, t.sqd, seeds, keys, speed,
            work.a_pass, work.a_stop, work.a_k, work.prov, False, False, options.hampered_diagonal_counts, -1,
            work.dist, work.parent, work.heap,
        )  # fmt: skip
        for s in np.flatnonzero(work.dist < _INF).tolist():
            if not _can_stop(s, t.squeeze_stop, work.a_stop):
                continue
            cand = (2, int(work.dist[s] & _PROV_MASK), (s >> 2) & 1, 2, s)
            old = best.get(s >> 3)
            if old is None or cand < old:
                best[s >> 3] = cand
    cost = {(a % w, a // w): v[1] for a, v in best.items()}
    acts = {(a % w, a // w): v[0] for a, v in best.items()}
    squeezed = frozenset((a % w, a // w) for a, v in best.items() if v[2])
    return cost, acts, squeezed


# --- distances, reach, flanking -------------------------------------------------------------------------------


@_jit
def _gap(a0: int, a_len: int, b0: int, b_len: int) -> int:
    return max(0, b0 - (a0 + a_len - 1), a0 - (b0 + b_len - 1))


@_jit
def fp_distance_ft(a: int, sa: int, b: int, sb: int, width: int) -> int:
    """``footprint_distance_ft`` (and ``attack_range_ft``) between the spaces of side ``sa`` anchored at ``a``
    and of side ``sb`` anchored at ``b``: the 5-10-5 count between their nearest squares."""
    ay, by = a // width, b // width
    dx = _gap(a - ay * width, sa, b - by * width, sb)
    dy = _gap(ay, sa, by, sb)
    if dx < dy:
        dx, dy = dy, dx
    return 5 * (dx + dy // 2)


@_jit
def fp_distance_to_point_ft(a: int, sa: int, p: int, width: int) -> int:
    """``distance_to_point_ft``: from the nearest corner of the space to point ``p = py * (width + 1) + px``."""
    ax, ay = a % width, a // width
    px, py = p % (width + 1), p // (width + 1)
    dx = max(0, ax - px, px - (ax + sa))
    dy = max(0, ay - py, py - (ay + sa))
    if dx < dy:
        dx, dy = dy, dx
    return 5 * (dx + dy // 2)


@dataclass(frozen=True, eq=False)
class FootprintThreat:
    """What a creature of footprint ``side`` threatens on one map, per anchor: ``table[a, (dy + radius) * box +
    dx + radius]`` for the square ``(dx, dy)`` from the anchor (``box = 2 * radius + side``)."""

    radius: int
    side: int
    box: int
    table: NDArray[np.bool_]


def fp_threat_table(
    grid: GridMap,
    size: Size,
    reach_ft: int,
    *,
    reach_weapon: bool = False,
    options: GridOptions = DEFAULT_OPTIONS,
) -> FootprintThreat:
    """Per anchor, ``threatened_squares(Footprint(x, y, side), size, reach_ft, reach_weapon=..., zero_reach=...,
    grid=grid)`` as ``encounter.threat.weapon_zone`` asks it (``reach_ft`` natural, a reach weapon adds 5 ft),
    for every anchor where the space fits on the map. Cached on the map."""
    side = footprint_side(size)
    key = ("kernel.footprints.threat", side, reach_ft, reach_weapon, options)
    found = grid.memo.get(key)
    if found is not None:
        return cast(FootprintThreat, found)
    reach = reach_ft + (5 if reach_weapon else 0)
    r = max(2, reach // 5)
    box = 2 * r + side
    w, h = grid.width, grid.height
    table = np.zeros((w * h, box * box), dtype=np.bool_)
    for y in range(h - side + 1):
        for x in range(w - side + 1):
            zone = threatened_squares(
                Footprint(x, y, side), size, reach_ft, reach_weapon=reach_weapon, zero_reach=reach == 0,
                grid=grid, options=options,
            )  # fmt: skip
            row = table[y * w + x]
            for sx, sy in zone:
                row[(sy - y + r) * box + sx - x + r] = True
    out = FootprintThreat(r, side, box, table)
    grid.memo[key] = out
    return out


@_jit
def fp_threatens(table: NDArray[np.bool_], radius: int, side: int, a: int, b: int, sb: int, width: int) -> bool:
    """Whether the creature anchored at ``a`` (a :func:`fp_threat_table` of its side and reach) threatens any
    square of the space of side ``sb`` anchored at ``b`` (``Body.threatens``)."""
    box = 2 * radius + side
    ax, ay = a % width, a // width
    bx, by = b % width, b // width
    for j in range(sb):
        dy = by + j - ay
        if dy < -radius or dy >= radius + side:
            continue
        for i in range(sb):
            dx = bx + i - ax
            if dx < -radius or dx >= radius + side:
                continue
            if table[a, (dy + radius) * box + dx + radius]:
                return True
    return False


@_jit
def fp_flank_line(a: int, sa: int, b: int, sb: int, t: int, stt: int, width: int) -> bool:
    """``grid.flanking.flank_line``: the centres of some square of ``a``'s space and some square of ``b``'s are
    joined by a line that crosses the target's space (side ``stt``, anchored at ``t``) between opposite sides."""
    x0, y0 = 2 * (t % width), 2 * (t // width)
    x1, y1 = x0 + 2 * stt, y0 + 2 * stt
    ax0, ay0 = a % width, a // width
    bx0, by0 = b % width, b // width
    for j in range(sa):
        for i in range(sa):
            for jj in range(sb):
                for ii in range(sb):
                    if _opposite_sides(
                        2 * (ax0 + i) + 1, 2 * (ay0 + j) + 1, 2 * (bx0 + ii) + 1, 2 * (by0 + jj) + 1, x0, y0, x1, y1
                    ):
                        return True
    return False


@_jit
def fp_reaches(a: int, sa: int, b: int, sb: int, width: int, reach_ft: int) -> bool:
    """Whether some square of ``b``'s space is within ``reach_ft`` of ``a``'s space on an open grid
    (``space.in_reach``: ``reach_covers`` with AOO-04's 10-ft diagonal; overlapping spaces always)."""
    ay, by = a // width, b // width
    dx = _gap(a - ay * width, sa, b - by * width, sb)
    dy = _gap(ay, sa, by, sb)
    if dx == 0 and dy == 0:
        return True
    if reach_ft == 10:
        return max(dx, dy) <= 2
    if dx < dy:
        dx, dy = dy, dx
    return 5 * (dx + dy // 2) <= reach_ft


@_jit
def fp_threatens_box(
    table: NDArray[np.bool_], radius: int, box: int, side: int, a: int, b: int, sb: int, width: int
) -> bool:
    """:func:`fp_threatens` on a table laid out with a wider ``box`` (tables of several sides stacked)."""
    ax, ay = a % width, a // width
    bx, by = b % width, b // width
    for j in range(sb):
        dy = by + j - ay
        if dy < -radius or dy >= radius + side:
            continue
        for i in range(sb):
            dx = bx + i - ax
            if dx < -radius or dx >= radius + side:
                continue
            if table[a, (dy + radius) * box + dx + radius]:
                return True
    return False
