"""Grid geometry for the compiled fight kernel: numpy tables and numba functions for one-square land movers.

The rules stay in :mod:`sftactics.grid`. Wherever a table can be filled by asking the grid package (legal steps,
threatened squares, bursts, cover), it is; only the per-move search and a few closed-form measures are written
again here, and the tests check each of them against the grid package.

Squares are numbered ``idx = y * width + x``; grid intersections (points) ``p = py * (width + 1) + px``.

What is here:

* :func:`map_tables`: per map, the legal steps of a one-square (Small or Medium, or with ``size`` a Tiny or
  smaller) land mover in each of the eight :data:`~sftactics.grid.geometry.DIRECTIONS`, their terrain doublings
  and where such a creature fits. Built from the same step table :func:`sftactics.grid.movement.find_path` uses.
* :func:`search`: the cheapest-path search of :func:`sftactics.grid.movement.find_path` and
  :func:`~sftactics.grid.movement.reachable` for that mover (MOV-10, MOV-11, MOV-13..18, the squeeze surcharge
  of MOV-19), with attacks of opportunity as the second key (AOO-06); :func:`path_to` rebuilds a path.
* :func:`distance_ft`, :func:`range_ft`, :func:`distance_to_point_ft`: the 5-10-5 count between one-square
  spaces and from a space to a point.
* :func:`threatens` (reach on an open grid) and :func:`threat_table` / :func:`threatens_on_map` (reach on a map,
  where walls and line of effect matter) (AOO-01..05).
* :func:`flank_line` (MOD-17), :func:`burst_table` (EFF-03).
* :func:`register_map`, :func:`cover_cache` and :func:`pair_table`: the maps njit code may name, each map's cover
  cache and its creature-free pair table; the cover answers themselves are
  :mod:`~sftactics.sim.kernel.coverkind`'s (:func:`~sftactics.sim.kernel.coverkind.cover_kind`, by the corner rule,
  MOD-07..15, asking :func:`sftactics.grid.cover.cover` from object mode on a miss).

The njit functions are compiled on first call and cached on disk (``cache=True``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numba import types as nb_types
from numpy.typing import NDArray

from sftactics.grid.areas import burst
from sftactics.grid.cover import CoverKind
from sftactics.grid.geometry import DIRECTIONS, Footprint, Square
from sftactics.grid.map import GridMap
from sftactics.grid.movement import MoveMode, Mover, Occupant, _Ctx
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.grid.space import Size, footprint_side, is_sub_square, threatened_squares

__all__ = [
    "COVER_CACHE_LIMIT",
    "COVER_KEY_CREATURES",
    "PAIR_LOE",
    "PAIR_LOS",
    "PAIR_MELEE",
    "PAIR_RANGED",
    "PAIR_TABLE_SQUARES",
    "PROV_BITS",
    "MapTables",
    "SearchBuffers",
    "ThreatTable",
    "alive",
    "burst_table",
    "cover_cache",
    "cover_fallback_calls",
    "distance_ft",
    "distance_to_point_ft",
    "flank_line",
    "map_tables",
    "no_pair_table",
    "occupancy_arrays",
    "pair_get",
    "pair_put",
    "pair_table",
    "path_to",
    "provoking_array",
    "range_ft",
    "register_map",
    "run_search",
    "search",
    "threat_table",
    "threatens",
    "threatens_on_map",
]

_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(fn: _F) -> _F:
    """numba nopython compilation, cached on disk; mypy keeps seeing the plain Python signature. Every kernel
    module compiles its functions through this one decorator."""
    return cast(_F, numba.njit(cache=True)(fn))


@numba.njit(cache=True, inline="always")
def alive(m: Any, st: Any) -> None:
    """Nothing, at run time. Called just before each return of a hot helper that takes the model and the state
    and calls no other compiled function, it makes their last use the same on every path, so LLVM's pruning pairs
    and removes the reference counts numba puts around them (docs/simulation.md, session 16; numba's own
    inlining of such a helper, or a call to another compiled function, keeps them)."""


# --- movement tables ------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MapTables:
    """Per-map movement tables for a one-square land mover (see :func:`map_tables`).

    * ``step_to``  int32 ``[n, 8]``: square reached by a step in each of the 8 DIRECTIONS, -1 if illegal (edge of
      the map, wall square, cover object, impassable ground, a wall or window on the edge, a hard corner on the
      diagonal, a space where the mover does not fit);
    * ``step_k``   int8 ``[n, 8]``: doublings of that step from the map: 1 for difficult terrain, plus the squeeze
      surcharge (1, or 2 with ``squeeze_speed="quarter"``) when the square entered is narrow (MOV-17, MOV-19);
    * ``step_diag`` bool ``[8]``: whether each direction is a diagonal;
    * ``fits``     bool ``[n]``: where the mover's space may be at all.
    """

    width: int
    height: int
    step_to: NDArray[np.int32]
    step_k: NDArray[np.int8]
    step_diag: NDArray[np.bool_]
    fits: NDArray[np.bool_]

    @property
    def n(self) -> int:
        return self.width * self.height


def _one_square_mover(size: Size, pass_enemies: bool = False) -> Mover:
    if footprint_side(size) != 1:
        raise ValueError(f"the kernel tables are for creatures of one square or less, not {size}")
    return Mover(size=size, mode=MoveMode.LAND, pass_enemies=pass_enemies)


def map_tables(grid: GridMap, options: GridOptions = DEFAULT_OPTIONS, size: Size = Size.MEDIUM) -> MapTables:
    """The movement tables of ``grid`` for a land mover of ``size`` (one square or less), cached on the map.

    Small and Medium get the same tables; Tiny and smaller creatures differ in that narrow squares cost them
    nothing extra (MOV-19 is about Small and larger). The steps are read from the grid package's own step table
    (built by :class:`sftactics.grid.movement._Ctx` for this mover), so the masks are exactly those of
    :func:`~sftactics.grid.movement.find_path`.
    """
    mover = _one_square_mover(size)
    key = ("kernel.geo.tables", is_sub_square(size), options)
    found = grid.memo.get(key)
    if found is not None:
        return cast(MapTables, found)
    ctx = _Ctx(grid, mover, None, None, options)
    table = ctx.tables[0]
    n = grid.width * grid.height
    dirs, tdbl, narrow = table.array("dirs"), table.array("tdbl"), table.array("narrow")
    here = np.arange(n, dtype=np.int32)
    step_to = np.full((n, 8), -1, dtype=np.int32)
    step_k = np.zeros((n, 8), dtype=np.int8)
    for di, (dx, dy) in enumerate(DIRECTIONS):
        legal = (dirs >> di) & 1 != 0
        dest = here[legal] + (dy * grid.width + dx)
        step_to[legal, di] = dest
        step_k[legal, di] = tdbl[dest] + ctx.sqd * narrow[dest]
    tables = MapTables(
        grid.width,
        grid.height,
        step_to,
        step_k,
        np.array([bool(dx and dy) for dx, dy in DIRECTIONS], dtype=np.bool_),
        table.array("fits").astype(np.bool_),
    )
    grid.memo[key] = tables
    return tables


def occupancy_arrays(
    grid: GridMap,
    occupants: Mapping[Square, Occupant] | None = None,
    hampered: Mapping[Square, int] | None = None,
    *,
    size: Size = Size.MEDIUM,
    pass_enemies: bool = False,
    options: GridOptions = DEFAULT_OPTIONS,
) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.int8]]:
    """``(passable, stoppable, extra_k)`` per square for :func:`search`, from occupants as the mover sees them
    (MOV-13..16) and extra doublings per square, by the grid package's own table (not charging)."""
    ctx = _Ctx(grid, _one_square_mover(size, pass_enemies), occupants, hampered, options)
    n = grid.width * grid.height
    passable = np.ones(n, dtype=np.bool_)
    stoppable = np.ones(n, dtype=np.bool_)
    extra_k = np.zeros(n, dtype=np.int8)
    for idx, (p, s, k) in ctx.occ[0].items():
        passable[idx], stoppable[idx], extra_k[idx] = p, s, k
    return passable, stoppable, extra_k


def provoking_array(grid: GridMap, squares: Collection[Square]) -> NDArray[np.bool_]:
    """A per-square mask of the given squares (e.g. every square some enemy threatens), off-map ones ignored."""
    out = np.zeros(grid.width * grid.height, dtype=np.bool_)
    for x, y in squares:
        if grid.in_bounds((x, y)):
            out[y * grid.width + x] = True
    return out


# --- the search -----------------------------------------------------------------------------------------------

#: A search key is ``feet << PROV_BITS | provocations``; heap items are ``key << state_bits | state``.
PROV_BITS = 20
_PROV_MASK = (1 << PROV_BITS) - 1
_INF = 1 << 62


@dataclass(frozen=True, eq=False)
class SearchBuffers:
    """Work and output arrays of :func:`search` for a map of ``n`` squares (a state is ``square * 2 + parity``).

    Outputs, per square: ``cost`` (int32, feet; -1 if not reached or not a place to stop), ``provocations``
    (int32, steps out of provoking squares on the way) and ``state`` (int32, the state the path ends in, for
    :func:`path_to`). Work arrays: ``dist`` int64 ``[2n]`` (keys), ``parent`` int32 ``[2n]`` (previous state,
    -1 for none), ``heap`` int64 ``[16n + 1]`` (each settled state pushes at most 8 entries).
    """

    dist: NDArray[np.int64]
    parent: NDArray[np.int32]
    heap: NDArray[np.int64]
    cost: NDArray[np.int32]
    provocations: NDArray[np.int32]
    state: NDArray[np.int32]

    @classmethod
    def for_squares(cls, n: int) -> SearchBuffers:
        return cls(
            np.empty(2 * n, dtype=np.int64),
            np.empty(2 * n, dtype=np.int32),
            np.empty(16 * n + 1, dtype=np.int64),
            np.empty(n, dtype=np.int32),
            np.empty(n, dtype=np.int32),
            np.empty(n, dtype=np.int32),
        )


@_jit
def _heap_push(heap: NDArray[np.int64], size: int, item: int) -> int:
    i = size
    while i > 0:
        up = (i - 1) >> 1
        if heap[up] <= item:
            break
        heap[i] = heap[up]
        i = up
    heap[i] = item
    return size + 1


@_jit
def _heap_pop(heap: NDArray[np.int64], size: int) -> tuple[int, int]:
    top = heap[0]
    size -= 1
    last = heap[size]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and heap[c + 1] < heap[c]:
            c += 1
        if heap[c] >= last:
            break
        heap[i] = heap[c]
        i = c
    heap[i] = last
    return top, size


@_jit
def search(
    step_to: NDArray[np.int32],
    step_k: NDArray[np.int8],
    step_diag: NDArray[np.bool_],
    start: int,
    parity: int,
    budget: int,
    passable: NDArray[np.bool_],
    stoppable: NDArray[np.bool_],
    extra_k: NDArray[np.int8],
    provoking: NDArray[np.bool_],
    hampered_diagonal_counts: bool,
    goal: int,
    dist: NDArray[np.int64],
    parent: NDArray[np.int32],
    heap: NDArray[np.int64],
    best_cost: NDArray[np.int32],
    best_prov: NDArray[np.int32],
    best_state: NDArray[np.int32],
    width: int = 0,
) -> int:
    """Least-cost movement of a one-square land mover from square ``start``, within ``budget`` feet.

    The same search as :func:`sftactics.grid.movement._search` for that mover (not running or charging, no
    squeeze shifts, no flight): states are (square, diagonal parity); a step costs 5 ft, a diagonal 10 ft on odd
    parity; with ``k`` doublings (the map's ``step_k`` plus ``extra_k`` of the square entered) 5 x 2^k, or
    15 x 2^(k-1) on a diagonal (MOV-10, MOV-17, MOV-18). A diagonal flips the parity if ``k == 0``, or always
    with ``hampered_diagonal_counts``. ``parity`` is the count of diagonals already made, modulo 2.

    Squares where ``passable`` is False are never entered (an opponent's square); where ``stoppable`` is False
    the mover may pass but not stop (any other creature's square). The key is (feet, number of steps that leave
    a ``provoking`` square), compared in that order, exactly as ``find_path`` ranks paths.

    Outputs (``best_*``, per square): cost in feet, provocations and end state of the best path over both parity
    states, for squares where the mover may stop (the start counts, at cost 0, if it is stoppable); -1
    elsewhere. ``dist`` and ``parent`` (per state ``square * 2 + parity``) are kept for :func:`path_to`. With
    ``goal >= 0`` the search stops once the goal is settled where the mover may stop (then only squares
    settled before it have outputs). Returns the number of squares with an output.

    With ``width`` (the map's width) only the squares within ``budget / 5`` squares of the start are reset and
    have outputs (the others keep whatever an earlier search left): the same answers for a fraction of the work.

    Ties: the heap orders entries by (key, state), the order of Python's heap of ``(key, state)`` tuples in the
    grid package, whose state numbers sort the same way; so states settle in the same order, parents are the
    same and :func:`path_to` gives the same path as ``find_path`` (and equally cheap paths are chosen alike).
    """
    n = step_to.shape[0]
    n_states = 2 * n
    sb = 1
    while (1 << sb) < n_states:
        sb += 1
    smask = (1 << sb) - 1
    if budget < 0 or budget >= (1 << (62 - PROV_BITS - sb)):
        raise ValueError("budget out of range for the search key")
    if width <= 0:
        for i in range(n_states):
            dist[i] = _INF
            parent[i] = -1
        for i in range(n):
            best_cost[i] = -1
            best_prov[i] = -1
            best_state[i] = -1
    else:
        # every step costs at least 5 ft: nothing beyond budget / 5 squares can be reached or even looked at
        # (the budget test comes before any read of a neighbour's entry), so only that box is reset
        r = budget // 5 + 1
        height = n // width
        sx, sy = start % width, start // width
        for y in range(max(0, sy - r), min(height, sy + r + 1)):
            for x in range(max(0, sx - r), min(width, sx + r + 1)):
                i = y * width + x
                dist[2 * i] = _INF
                dist[2 * i + 1] = _INF
                parent[2 * i] = -1
                parent[2 * i + 1] = -1
                best_cost[i] = -1
                best_prov[i] = -1
                best_state[i] = -1
    s0 = start * 2 + (parity & 1)
    dist[s0] = 0
    heap[0] = s0
    size = 1
    found = 0
    while size > 0:
        item, size = _heap_pop(heap, size)
        key = item >> sb
        st = item & smask
        if key != dist[st]:
            continue  # a stale entry
        idx = st >> 1
        par = st & 1
        if stoppable[idx] and best_state[idx] < 0:
            best_state[idx] = st
            best_cost[idx] = key >> PROV_BITS
            best_prov[idx] = key & _PROV_MASK
            found += 1
            if idx == goal:
                break
        used = key >> PROV_BITS
        leave = 1 if provoking[idx] else 0
        for d in range(8):
            nidx = step_to[idx, d]
            if nidx < 0 or not passable[nidx]:
                continue
            c, npar = step_cost(int(step_k[idx, d]) + int(extra_k[nidx]), step_diag[d], par, hampered_diagonal_counts)
            if used + c > budget:
                continue
            nst = nidx * 2 + npar
            nkey = key + (c << PROV_BITS) + leave
            if nkey < dist[nst]:
                dist[nst] = nkey
                parent[nst] = st
                size = _heap_push(heap, size, (nkey << sb) | nst)
    return found


@_jit
def step_cost(k: int, diag: bool, parity: int, hampered_diagonal_counts: bool) -> tuple[int, int]:
    """(feet, new diagonal parity) of one step with ``k`` doublings (MOV-10, MOV-17, MOV-18): 5 ft, a
    diagonal 10 ft on odd parity; hampered 5 x 2^k, or 15 x 2^(k-1) on a diagonal, which flips the parity only
    with ``hampered_diagonal_counts``."""
    if k == 0:
        return (10 if (diag and parity == 1) else 5), (parity ^ 1 if diag else parity)
    return ((15 << (k - 1)) if diag else (5 << k)), (parity ^ 1 if (diag and hampered_diagonal_counts) else parity)


@_jit
def path_to(
    goal: int, best_state: NDArray[np.int32], parent: NDArray[np.int32], provoking: NDArray[np.bool_]
) -> tuple[NDArray[np.int32], NDArray[np.int32]]:
    """The path :func:`search` found to ``goal``: ``(squares, leaving)``. ``squares`` runs from the start to the
    goal; ``leaving`` holds the indexes ``i`` into ``squares`` of the steps that leave a provoking square
    (``squares[i]`` is the square left, as ``Provocation.step`` and ``Provocation.left``). Both empty if the goal
    was not reached."""
    st = best_state[goal]
    if st < 0:
        return np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int32)
    length = 1
    s = st
    while parent[s] >= 0:
        s = parent[s]
        length += 1
    squares = np.empty(length, dtype=np.int32)
    s = st
    for i in range(length - 1, -1, -1):
        squares[i] = s >> 1
        s = parent[s]
    count = 0
    for i in range(length - 1):
        if provoking[squares[i]]:
            count += 1
    leaving = np.empty(count, dtype=np.int32)
    j = 0
    for i in range(length - 1):
        if provoking[squares[i]]:
            leaving[j] = i
            j += 1
    return squares, leaving


def run_search(
    tables: MapTables,
    buffers: SearchBuffers,
    start: int,
    budget: int,
    *,
    parity: int = 0,
    passable: NDArray[np.bool_] | None = None,
    stoppable: NDArray[np.bool_] | None = None,
    extra_k: NDArray[np.int8] | None = None,
    provoking: NDArray[np.bool_] | None = None,
    goal: int = -1,
    options: GridOptions = DEFAULT_OPTIONS,
) -> int:
    """:func:`search` with defaults (an empty map of creatures, nothing provoking) for Python callers (every
    square reset: outputs everywhere)."""
    n = tables.n
    return search(
        tables.step_to,
        tables.step_k,
        tables.step_diag,
        start,
        parity,
        budget,
        np.ones(n, dtype=np.bool_) if passable is None else passable,
        np.ones(n, dtype=np.bool_) if stoppable is None else stoppable,
        np.zeros(n, dtype=np.int8) if extra_k is None else extra_k,
        np.zeros(n, dtype=np.bool_) if provoking is None else provoking,
        options.hampered_diagonal_counts,
        goal,
        buffers.dist,
        buffers.parent,
        buffers.heap,
        buffers.cost,
        buffers.provocations,
        buffers.state,
    )


# --- distances ------------------------------------------------------------------------------------------------


@_jit
def _count_ft(dx: int, dy: int) -> int:
    """5-10-5 count of an offset (no diagonals before), in feet."""
    dx = abs(dx)
    dy = abs(dy)
    if dx < dy:
        dx, dy = dy, dx
    return 5 * (dx + dy // 2)


@_jit
def distance_ft(a: int, b: int, width: int) -> int:
    """Feet between two one-square spaces (MOV-10): ``footprint_distance_ft`` (adjacent 5 ft, same 0 ft)."""
    return _count_ft(a % width - b % width, a // width - b // width)


@_jit
def range_ft(a: int, b: int, width: int) -> int:
    """Range between two one-square spaces (ATK-10): ``attack_range_ft``, the same count as :func:`distance_ft`."""
    return _count_ft(a % width - b % width, a // width - b // width)


@_jit
def distance_to_point_ft(a: int, p: int, width: int) -> int:
    """Feet from the nearest corner of square ``a`` to point ``p = py * (width + 1) + px``
    (``distance_to_point_ft``)."""
    ax = a % width
    ay = a // width
    px = p % (width + 1)
    py = p // (width + 1)
    dx = max(0, ax - px, px - (ax + 1))
    dy = max(0, ay - py, py - (ay + 1))
    return _count_ft(dx, dy)


# --- reach ----------------------------------------------------------------------------------------------------


@_jit
def threatens(a: int, b: int, width: int, reach_ft: int, adjacent_too: bool) -> bool:
    """Whether a one-square creature in ``a`` with ``reach_ft`` feet of reach (reach weapon included) threatens
    square ``b`` on an open grid: ``b in threatened_squares(Footprint(a), reach_ft=..., grid=None)`` (AOO-02..05,
    with AOO-04's 10-ft diagonal). ``adjacent_too`` False: a reach weapon that does not threaten adjacent squares
    (``reach_weapon and not options.reach_weapon_threatens_adjacent``). The creature's own square always counts.
    On a map walls matter: use :func:`threat_table` and :func:`threatens_on_map`."""
    dx = abs(a % width - b % width)
    dy = abs(a // width - b // width)
    if dx == 0 and dy == 0:
        return True
    if not adjacent_too and dx <= 1 and dy <= 1:
        return False
    if reach_ft == 10:
        return max(dx, dy) <= 2
    return _count_ft(dx, dy) <= reach_ft


@dataclass(frozen=True, eq=False)
class ThreatTable:
    """Threatened squares of a one-square creature on one map, per square: ``table[a, (dy + radius) * side + dx
    + radius]`` (bool ``[n, side * side]``, ``side = 2 * radius + 1``) says whether the creature in ``a``
    threatens the square ``(dx, dy)`` away."""

    radius: int
    side: int
    table: NDArray[np.bool_]


def _near_blockers(grid: GridMap, radius: int) -> NDArray[np.bool_]:
    """Per square (flat): a wall square, or a square on either side of a wall or window, within ``radius``
    squares (a line from the square to anything within ``radius - 2`` squares could meet it)."""
    from sftactics.grid.map import VERTICAL, Feature

    h, w = grid.height, grid.width
    blocker = np.zeros((h + 2 * radius + 1, w + 2 * radius + 1), dtype=np.int32)  # padded, one spare row/col
    inner = blocker[radius : radius + h, radius : radius + w]
    inner[(grid.array & int(Feature.SOLID)) != 0] = 1
    for x, y, o in grid.blocking_edges:
        for sx, sy in ((x - 1, y), (x, y)) if o == VERTICAL else ((x, y - 1), (x, y)):
            if 0 <= sx < w and 0 <= sy < h:
                inner[sy, sx] = 1
    sums = np.zeros((blocker.shape[0] + 1, blocker.shape[1] + 1), dtype=np.int64)
    sums[1:, 1:] = blocker.cumsum(0).cumsum(1)
    k = 2 * radius + 1  # the count of blockers in the k x k box centred on each square
    count = sums[k : k + h, k : k + w] - sums[:h, k : k + w] - sums[k : k + h, :w] + sums[:h, :w]
    return np.asarray(count > 0).reshape(-1)


def threat_table(
    grid: GridMap,
    reach_ft: int = 5,
    *,
    reach_weapon: bool = False,
    options: GridOptions = DEFAULT_OPTIONS,
) -> ThreatTable:
    """Per square, what a Medium creature standing there threatens on ``grid``: ``threatened_squares(square,
    Size.MEDIUM, reach_ft, reach_weapon=..., grid=grid, options=options)`` for every square (``reach_ft`` is the
    natural reach; a reach weapon adds 5 ft). A table, because with a map the grid package leaves out wall squares
    and squares out of line of effect (AOO-02..05, EFF-35). Cached on the map."""
    key = ("kernel.geo.threat", reach_ft, reach_weapon, options)
    found = grid.memo.get(key)
    if found is not None:
        return cast(ThreatTable, found)
    reach = reach_ft + (5 if reach_weapon else 0)
    r = max(2, reach // 5)
    side = 2 * r + 1
    w, h, n = grid.width, grid.height, grid.width * grid.height
    # in the open, a square's zone is the open-field pattern cut at the map's edges ...
    pattern = np.zeros((side, side), dtype=np.bool_)
    for sx, sy in threatened_squares(Footprint(r, r), Size.MEDIUM, reach_ft, reach_weapon=reach_weapon,
                                     options=options):  # fmt: skip
        pattern[sy, sx] = True
    offsets = np.arange(side) - r
    on_x = (np.arange(w)[:, None] + offsets[None, :] >= 0) & (np.arange(w)[:, None] + offsets[None, :] < w)
    on_y = (np.arange(h)[:, None] + offsets[None, :] >= 0) & (np.arange(h)[:, None] + offsets[None, :] < h)
    table = (on_y[:, None, :, None] & on_x[None, :, None, :] & pattern[None, None]).reshape(n, side * side)
    # ... and near a wall square, a wall or a window (what blocks line of effect) the grid package answers
    for idx in np.flatnonzero(_near_blockers(grid, r + 2)).tolist():
        x, y = idx % w, idx // w
        table[idx] = False
        zone = threatened_squares(
            Footprint(x, y), Size.MEDIUM, reach_ft, reach_weapon=reach_weapon, grid=grid, options=options
        )
        for sx, sy in zone:
            table[idx, (sy - y + r) * side + sx - x + r] = True
    out = ThreatTable(r, side, table)
    grid.memo[key] = out
    return out


@_jit
def threatens_on_map(table: NDArray[np.bool_], radius: int, a: int, b: int, width: int) -> bool:
    """Whether the creature in square ``a`` threatens square ``b``, by a :func:`threat_table`."""
    dx = b % width - a % width
    dy = b // width - a // width
    if dx < -radius or dx > radius or dy < -radius or dy > radius:
        return False
    return bool(table[a, (dy + radius) * (2 * radius + 1) + dx + radius])


# --- flanking -------------------------------------------------------------------------------------------------


@_jit
def _opposite_sides(ax: int, ay: int, bx: int, by: int, x0: int, y0: int, x1: int, y1: int) -> bool:
    """The segment a-b enters the open box and leaves it by opposite sides (corners count for both sides).
    Same integer arithmetic as ``sftactics.grid.flanking._crosses_opposite_sides``."""
    dx = bx - ax
    dy = by - ay
    ln, ld, hn, hd = 0, 1, 1, 1
    if dx == 0:
        if not (x0 < ax < x1):
            return False
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
        if not (y0 < ay < y1):
            return False
    else:
        if dy > 0:
            n0, n1, dd = y0 - ay, y1 - ay, dy
        else:
            n0, n1, dd = ay - y1, ay - y0, -dy
        if n0 * ld > ln * dd:
            ln, ld = n0, dd
        if n1 * hd < hn * dd:
            hn, hd = n1, dd
    if ln * hd >= hn * ld:
        return False
    ex, ey = ax * ld + dx * ln, ay * ld + dy * ln  # entry point, scaled by ld
    lx, ly = ax * hd + dx * hn, ay * hd + dy * hn  # exit point, scaled by hd
    enter_w, enter_e = ex == x0 * ld, ex == x1 * ld
    enter_n, enter_s = ey == y0 * ld, ey == y1 * ld
    leave_w, leave_e = lx == x0 * hd, lx == x1 * hd
    leave_n, leave_s = ly == y0 * hd, ly == y1 * hd
    return (enter_w and leave_e) or (enter_e and leave_w) or (enter_n and leave_s) or (enter_s and leave_n)


@_jit
def flank_line(a: int, b: int, t: int, width: int) -> bool:
    """Whether the line between the centres of squares ``a`` and ``b`` crosses square ``t`` between opposite
    sides: ``flank_line(Footprint(a), Footprint(b), Footprint(t)) is not None`` (MOD-17, the geometry only)."""
    tx = 2 * (t % width)
    ty = 2 * (t // width)
    return _opposite_sides(
        2 * (a % width) + 1, 2 * (a // width) + 1, 2 * (b % width) + 1, 2 * (b // width) + 1, tx, ty, tx + 2, ty + 2
    )


# --- areas ----------------------------------------------------------------------------------------------------


def burst_table(
    grid: GridMap, radius_ft: int, *, options: GridOptions = DEFAULT_OPTIONS
) -> tuple[NDArray[np.int32], NDArray[np.int32]]:
    """For every point ``p = py * (width + 1) + px`` of the map, the squares of a burst of ``radius_ft`` centred
    there (EFF-02, EFF-03, EFF-36), as CSR arrays ``(offsets int32[P + 1], squares int32[...])``: the squares of
    point ``p`` are ``squares[offsets[p]:offsets[p + 1]]``, in increasing order. Filled by
    :func:`sftactics.grid.areas.burst` itself; cached on the map."""
    key = ("kernel.geo.burst", radius_ft, options)
    found = grid.memo.get(key)
    if found is not None:
        return cast(tuple[NDArray[np.int32], NDArray[np.int32]], found)
    w, h = grid.width, grid.height
    n_points = (w + 1) * (h + 1)
    offsets = np.zeros(n_points + 1, dtype=np.int32)
    chunks: list[list[int]] = []
    for p in range(n_points):
        area = burst(grid, (p % (w + 1), p // (w + 1)), radius_ft, options=options)
        found_sq = sorted(y * w + x for x, y in area.squares)
        chunks.append(found_sq)
        offsets[p + 1] = offsets[p] + len(found_sq)
    squares = np.fromiter(itertools.chain.from_iterable(chunks), dtype=np.int32, count=int(offsets[-1]))
    out = (offsets, squares)
    grid.memo[key] = out
    return out


# --- cover ----------------------------------------------------------------------------------------------------

#: How many other creatures' squares a cover key holds; with more in the box the answer is computed but not kept.
COVER_KEY_CREATURES = 8
#: How many answers a map's cover cache keeps before it starts afresh (like ``grid.map.RESULT_CACHE_LIMIT``).
COVER_CACHE_LIMIT = 200_000
_COVER_KEY = nb_types.UniTuple(nb_types.int64, 3 + COVER_KEY_CREATURES)  # type: ignore[no-untyped-call]

#: The creature-free answers between two spaces of side 1 or 2 (cover in melee, cover at range, a line of sight, a
#: line of effect) are also kept in a table per map, read before the cover cache (no key built, no hash): on maps
#: of up to this many squares (16 bytes per pair of squares: 16 MB at this size).
PAIR_TABLE_SQUARES = 1024
#: Slots of a pair table (times 4, plus 2 * (side - 1) of the first space and side - 1 of the second).
PAIR_MELEE, PAIR_RANGED, PAIR_LOS, PAIR_LOE = range(4)

_MAPS: dict[int, tuple[GridMap, GridOptions]] = {}
_MAP_IDS: dict[tuple[int, GridOptions], int] = {}
_CACHES: dict[int, Any] = {}
_PAIRS: dict[int, NDArray[np.int8]] = {}
_FALLBACK = [0]
_PARTIAL = int(CoverKind.PARTIAL)
_COVER = int(CoverKind.COVER)


def register_map(grid: GridMap, options: GridOptions = DEFAULT_OPTIONS) -> int:
    """An int id for ``grid`` with ``options`` that njit code can pass to :func:`cover_kind`. The registry keeps
    the map alive (so the id stays valid); the same map and options always get the same id."""
    key = (id(grid), options)
    found = _MAP_IDS.get(key)
    if found is not None and _MAPS[found][0] is grid:
        return found
    map_id = len(_MAPS)
    _MAPS[map_id] = (grid, options)
    _MAP_IDS[key] = map_id
    return map_id


def cover_cache(map_id: int) -> Any:
    """The cover cache of a registered map: a numba typed ``Dict`` from a key (attacker, target, ranged, the
    sorted squares of the other creatures in the box, padded with -1) to a :class:`CoverKind` value."""
    found = _CACHES.get(map_id)
    if found is None:
        if map_id not in _MAPS:
            raise KeyError(f"map id {map_id} is not registered (see register_map)")
        from sftactics.sim.kernel.share import empty_cover_cache  # (made by cached code: no compile)

        found = _CACHES[map_id] = empty_cover_cache()
    return found


def pair_table(map_id: int) -> NDArray[np.int8]:
    """The pair table of a registered map (-1: not known yet), in front of its cover cache: every answer in it
    is one the cache gave (so the two never disagree); empty (nothing kept) on a map of more than
    :data:`PAIR_TABLE_SQUARES` squares."""
    found = _PAIRS.get(map_id)
    if found is None:
        if map_id not in _MAPS:
            raise KeyError(f"map id {map_id} is not registered (see register_map)")
        grid = _MAPS[map_id][0]
        n = grid.width * grid.height
        n = n if n <= PAIR_TABLE_SQUARES else 0
        found = _PAIRS[map_id] = np.full((16, n, n), -1, dtype=np.int8)
    return found


def no_pair_table() -> NDArray[np.int8]:
    """A pair table that keeps nothing (for fights and tests made without one)."""
    return np.full((16, 0, 0), -1, dtype=np.int8)


@_jit
def _pair_index(pair: NDArray[np.int8], slot: int, sa: int, sb: int) -> int:
    """The first index into :func:`pair_table` of ``slot`` between spaces of sides ``sa`` and ``sb``, or -1 where
    the table keeps nothing for them (an empty table, a side above 2)."""
    if pair.shape[1] == 0 or sa > 2 or sb > 2:
        return -1
    return slot * 4 + (sa - 1) * 2 + sb - 1


@_jit
def pair_get(pair: NDArray[np.int8], slot: int, a: int, sa: int, b: int, sb: int) -> int:
    """The answer :func:`pair_table` keeps for ``slot`` between the space of side ``sa`` at ``a`` and that of
    side ``sb`` at ``b``, or -1."""
    i = _pair_index(pair, slot, sa, sb)
    return -1 if i < 0 else int(pair[i, a, b])


@_jit
def pair_put(pair: NDArray[np.int8], slot: int, a: int, sa: int, b: int, sb: int, value: int) -> None:
    """Keeps ``value`` (the cover cache's answer) for :func:`pair_get`."""
    i = _pair_index(pair, slot, sa, sb)
    if i >= 0:
        pair[i, a, b] = np.int8(value)


def cover_fallback_calls() -> int:
    """How many times njit code has asked the grid package for cover (cache misses), since import."""
    return _FALLBACK[0]
