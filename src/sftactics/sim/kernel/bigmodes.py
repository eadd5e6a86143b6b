"""Creatures of two squares or more that fly, swim, climb or burrow, in the compiled kernel (MOV-04, MOV-19,
MOV-29..35).

The engine moves a big creature as it moves any other: by the speed :func:`sftactics.sf1e.stats.move_mode` names,
through :func:`sftactics.encounter.movement.mover_for`, with the grid's tables for a space of its side and that
mode (:mod:`sftactics.grid.movement`). So here:

* :func:`table_key` and :func:`big_mode_tables`: the step tables of a big mover (``footprints.big_tables`` built for
  its mode): a flier's space passes over impassable ground and is hampered by canopy only, a burrower's goes under
  everything but wall squares and is never hampered, an incorporeal walker's is not hampered by difficult terrain;
  a swimmer or climber walks the land tables (the grid has no water or walls to climb: only its speed differs).
  Squeezing (MOV-19) is the same for every mode.
* :func:`big_fly_search`: ``footprints.big_search`` with headings, for a flier (MOV-32): states
  ``(((anchor * 2 + squeezed) * 2 + parity) * 2 + shifted) * 9 + heading``, which is the grid's own state number
  for a space (``((anchor * 2 + squeezed) * 2 + parity) * 18 + shifted * 9 + heading``), so ties settle in the
  same order and the paths are the same. A step costs what a land step costs plus 5 ft per 45 degrees turned from
  the heading of the step before, and sets the heading; a squeeze shift keeps the heading and costs nothing.
  Within a move's budget (``bigbuckets.BUCKET_MAX_BUDGET``) the states settle from buckets, one per key, each a
  bitset over the states (``bigbuckets.space_bucket_search``, as ``kernel/buckets.py`` does for one-square movers,
  the same code as a big walker's); beyond it
  (a seek field's far search) from a binary heap (:func:`fly_heap_search`). Both settle every state in the
  order (key, state), so their outputs are the same; the buckets cost about half as much (a flier's searches
  took 60% of a fight's time in the second benchmark room). Both leave out the steps of a state that another
  heading of the same space dominates (:func:`_dominated`: settled before it, for no more than its key less
  the turn between the two headings); on the second room that is half to three quarters of the states, and
  the outputs are those of the search that makes every step (the tests compare every buffer).
* :func:`search_big_fly` and :func:`path_big_fly`: ``bigfight.search_big`` and ``bigfight.path_big`` for a big
  flier (each move action starts without a heading, as the engine's ``move`` command does).
* :func:`big_fly_find_path` and :func:`big_fly_reachable`: ``find_path`` and ``reachable`` for a big flier, for
  the tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.encounter.state import Combatant
from sftactics.grid.geometry import Footprint, Square
from sftactics.grid.map import GridMap
from sftactics.grid.movement import MoveMode, Occupant, _Ctx
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.grid.space import Size
from sftactics.sim.kernel.bigbuckets import bucket_lanes, bucket_size, space_bucket_search
from sftactics.sim.kernel.bigpath import settled_at, store_states
from sftactics.sim.kernel.flymemo import MARKED, MARKED_CHARGING, anchor_states, claim, keep, recall
from sftactics.sim.kernel.footprints import (
    BigPath,
    BigTables,
    anchor_occupancy,
    anchor_provoking,
    big_mover,
    big_tables,
)
from sftactics.sim.kernel.geo import PROV_BITS, _heap_pop, _heap_push, _jit, step_cost
from sftactics.sim.kernel.modes import HEADINGS, NO_HEADING, _turn, kernel_mover

__all__ = [
    "BIG_FLY_MAX_SQUARES",
    "big_fly_find_path",
    "big_fly_reachable",
    "big_fly_search",
    "big_mode_tables",
    "fly_heap_search",
    "fly_heap_size",
    "fly_state_of",
    "path_big_fly",
    "search_big_fly",
    "table_key",
]


_INF = 1 << 62
_PROV_MASK = (1 << PROV_BITS) - 1
_DIAG = 4  # ``books.DIAG``: the scalar of the diagonals counted this turn
#: The largest map on which the kernel plays a flier of several squares: its search keeps 72 states a square.
BIG_FLY_MAX_SQUARES = 10_000


# --- tables ---------------------------------------------------------------------------------------------------


def table_key(c: Combatant) -> tuple[Size, MoveMode, bool]:
    """What a big creature's movement tables depend on: its size, its mode (a swimmer or climber walks the land
    tables) and, for a walker, whether it is incorporeal (not hampered by difficult terrain)."""
    mover = kernel_mover(c)
    mode = MoveMode.LAND if mover.mode in (MoveMode.SWIM, MoveMode.CLIMB) else mover.mode
    return mover.size, mode, mover.incorporeal and mode is MoveMode.LAND


def big_mode_tables(
    grid: GridMap, key: tuple[Size, MoveMode, bool], options: GridOptions = DEFAULT_OPTIONS
) -> BigTables:
    """``footprints.big_tables`` for the mover of :func:`table_key` ``key``."""
    size, mode, incorporeal = key
    return big_tables(grid, size, options, mode=mode, incorporeal=incorporeal)


def fly_heap_size(nsq: int, nshift: int) -> int:
    """Entries a big flier's search heap may need on a map of ``nsq`` squares: each settled state pushes at most
    its 8 steps and, unshifted (half of them), its ``nshift`` squeeze shifts; the seeds come first."""
    states = 8 * HEADINGS * nsq
    return states * 9 + (states // 2) * nshift + 1


# --- the search -----------------------------------------------------------------------------------------------


@_jit
def fly_state_of(anchor: int, squeezed: int, parity: int, shifted: int, heading: int) -> int:
    return (((anchor * 2 + squeezed) * 2 + parity) * 2 + shifted) * HEADINGS + heading


@_jit
def _can_stop(s: int, squeeze_stop: NDArray[np.bool_], a_stop: NDArray[np.bool_]) -> bool:
    b = s // HEADINGS
    idx = b >> 3
    sq = (b >> 2) & 1
    if sq == 1 and not squeeze_stop[idx]:
        return False
    return bool(a_stop[sq, idx])


@_jit
def _dominated(dist: NDArray[np.int64], s: int, head: int, key: int, use_provoking: bool) -> bool:
    """Whether state ``s`` (heading ``head``, being settled at ``key``) is dominated by a state of the same
    space, parity and shift with another heading, settled before it: one whose key plus the feet of turning from
    its heading to ``head`` is no more than ``key``. Every step from ``s`` then costs at least what the same step
    costs from that state (a turn from it to any direction is at most the turn to ``head`` and on from there), and
    the other state made its steps first, so a step from ``s`` never improves a state: :func:`fly_heap_search` and
    ``bigbuckets.space_bucket_search`` leave these steps out, their outputs unchanged. (Squeeze shifts keep the heading,
    so they are still made.) Keys in a search that counts no provocations hold the feet twice."""
    first = s - head
    for h in range(HEADINGS):
        if h == head:
            continue
        k = dist[first + h]
        if k >= key:  # (not settled before ``s``: a state without a heading turns for nothing, so ties matter)
            continue
        t = _turn(h, head)
        if k + (t << PROV_BITS) + (0 if use_provoking else t) <= key:
            return True
    return False


@_jit
def fly_heap_search(
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
    prune: bool = True,
) -> int:
    """``footprints.big_search`` for a flier from a binary heap: the same arguments and keys, with the heading in
    the state (see the module docstring); ``dist`` and ``parent`` hold ``72 n`` entries, ``heap``
    :func:`fly_heap_size`. Returns the state the goal (an anchor of the full space) was settled in, or -1."""
    n = step_to.shape[1]
    n_states = 8 * HEADINGS * n
    sb = 1
    while (1 << sb) < n_states:
        sb += 1
    smask = (1 << sb) - 1
    if budget < 0 or budget >= (1 << (62 - PROV_BITS - sb)):
        raise ValueError("budget out of range for the search key")
    cap = heap.shape[0]
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
        head = s % HEADINGS
        b = s // HEADINGS
        shifted = b & 1
        par = (b >> 1) & 1
        sq = (b >> 2) & 1
        idx = b >> 3
        if goal >= 0 and idx == goal and sq == 0 and _can_stop(s, squeeze_stop, a_stop):
            return s
        used = key >> PROV_BITS
        leave = -1
        if use_provoking:
            leave = 1 if provoking[sq, idx] else 0
        steps = 0 if prune and _dominated(dist, s, head, key, use_provoking) else 8
        for d in range(steps):
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
            c += _turn(head, d)
            if used + c > budget:
                continue
            ns = (((nidx * 2 + sq) * 2 + npar) * 2) * HEADINGS + d
            nkey = key + (c << PROV_BITS) + (c if leave < 0 else leave)
            if nkey < dist[ns]:
                if size >= cap:
                    raise ValueError("the big flier's search heap is full")
                dist[ns] = nkey
                parent[ns] = s
                size = _heap_push(heap, size, (nkey << sb) | ns)
        if shifted == 0:
            to_sq = 1 - sq
            for j in range(nshift):
                cidx = shift_to[sq, idx, j]
                if cidx < 0 or not a_pass[to_sq, cidx]:
                    continue
                ns = (((cidx * 2 + to_sq) * 2 + par) * 2 + 1) * HEADINGS + head
                if key < dist[ns]:
                    if size >= cap:
                        raise ValueError("the big flier's search heap is full")
                    dist[ns] = key
                    parent[ns] = s
                    size = _heap_push(heap, size, (key << sb) | ns)
    return -1


@_jit
def big_fly_search(
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
    """``footprints.big_search`` for a flier (see the module docstring): ``bigbuckets.space_bucket_search`` where its
    buckets apply and fit the heap buffer (a move's budget), else :func:`fly_heap_search` (the far searches of
    a seek field); the two give the same outputs."""
    lw = bucket_lanes(seeds, seed_keys, budget, use_provoking)
    if lw > 0 and bucket_size(budget, lw, 8 * HEADINGS * step_to.shape[1]) <= heap.shape[0]:
        return space_bucket_search(step_to, step_k, step_diag, shift_to, squeeze_stop, sqd, seeds, seed_keys, budget,
                                   a_pass, a_stop, a_k, provoking, use_provoking, no_difficult,
                                   hampered_diagonal_counts, goal, dist, parent, heap, lw, HEADINGS, True)  # fmt: skip
    return fly_heap_search(step_to, step_k, step_diag, shift_to, squeeze_stop, sqd, seeds, seed_keys, budget,
                           a_pass, a_stop, a_k, provoking, use_provoking, no_difficult, hampered_diagonal_counts,
                           goal, dist, parent, heap)  # fmt: skip


# --- in the fight (``bigfight.search_big`` and ``path_big`` hand a flier over to these) ------------------------


@_jit
def search_big_fly(m: Any, st: Any, c: int, budget: int, charging: bool, exempt_start: bool) -> None:
    """``bigfight.search_big`` for a flier: per anchor of its full space, ``st.best_cost``, ``st.best_prov`` and
    ``st.best_state`` of the best state where it may stop (the lowest key, then the one the engine's search settles
    first: ``bigpath.settled_at``, kept with the search: ``flymemo.anchor_states``)."""
    w, h = m.width, m.height
    g = m.bg[c]
    side = m.fside[c]
    small = m.bg_small[g]
    anchor_occupancy(w, h, side, small, st.passable, st.stoppable, st.extra_k, m.bw_pass, m.bw_stop, m.bw_k)
    anchor_provoking(w, h, side, small, st.provoking, m.bw_prov)
    here = st.pos[c]
    if exempt_start:
        m.bw_prov[0, here] = False
    seed = fly_state_of(here, 0, st.sc[_DIAG] & 1, 0, NO_HEADING)
    kind = MARKED_CHARGING if charging else MARKED
    if recall(m, g, seed, budget, kind) == -2:  # not kept (``kernel.flymemo``)
        seeds = np.empty(1, dtype=np.int64)
        seeds[0] = seed
        keys = np.zeros(1, dtype=np.int64)
        entry = claim(m)
        big_fly_search(m.bg_step_to[g], m.bg_step_k[g], m.step_diag, m.bg_shift[g], m.bg_stop[g], m.bg_sqd, seeds,
                       keys, budget, m.bw_pass, m.bw_stop, m.bw_k, m.bw_prov, True, charging,
                       m.hampered_diagonal_counts, -1, m.bw_dist, m.bw_parent, m.bw_heap)  # fmt: skip
        keep(m, entry, g, seed, budget, kind, -1)
    store_states(m, st, anchor_states(m, HEADINGS, True))


@_jit
def path_big_fly(m: Any, st: Any, c: int, dest: int) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int32]]:
    """``bigfight.path_big`` for the states of :func:`search_big_fly`."""
    s = st.best_state[dest]
    if s < 0:
        e = np.empty(0, dtype=np.int32)
        return e, e, e
    side = m.fside[c]
    small = m.bg_small[m.bg[c]]
    length = 1
    x = s
    while m.bw_parent[x] >= 0:
        x = m.bw_parent[x]
        length += 1
    states = np.empty(length, dtype=np.int64)
    x = s
    for i in range(length - 1, -1, -1):
        states[i] = x // HEADINGS
        x = m.bw_parent[x]
    squares = np.empty(length, dtype=np.int32)
    sides = np.empty(length, dtype=np.int32)
    count = 0
    for i in range(length):
        squares[i] = states[i] >> 3
        sides[i] = small if (states[i] >> 2) & 1 else side
        if i < length - 1 and (states[i + 1] & 1) == 0 and m.bw_prov[(states[i] >> 2) & 1, states[i] >> 3]:
            count += 1
    leaving = np.empty(count, dtype=np.int32)
    j = 0
    for i in range(length - 1):
        if (states[i + 1] & 1) == 0 and m.bw_prov[(states[i] >> 2) & 1, states[i] >> 3]:
            leaving[j] = i
            j += 1
    return squares, leaving, sides


# --- Python front ends (the tests) ----------------------------------------------------------------------------


class _Work:
    """Per-search arrays of a big flier on a map of ``n`` squares."""

    def __init__(self, t: BigTables) -> None:
        n = t.n
        self.dist = np.empty(8 * HEADINGS * n, dtype=np.int64)
        self.parent = np.empty(8 * HEADINGS * n, dtype=np.int32)
        self.heap = np.empty(fly_heap_size(n, t.shift_to.shape[2]), dtype=np.int64)
        self.a_pass = np.ones((2, n), dtype=np.bool_)
        self.a_stop = np.ones((2, n), dtype=np.bool_)
        self.a_k = np.zeros((2, n), dtype=np.int8)
        self.prov = np.zeros((2, n), dtype=np.bool_)


def _setup(
    grid: GridMap, size: Size, occupants: Mapping[Square, Occupant] | None, charging: bool, options: GridOptions
) -> tuple[BigTables, _Work]:
    t = big_tables(grid, size, options, mode=MoveMode.FLY)
    work = _Work(t)
    ctx = _Ctx(grid, big_mover(size, charging=charging, mode=MoveMode.FLY), occupants, None, options)
    for layer in (0, 1):
        for idx, (p, s, k) in ctx.occ[layer].items():
            work.a_pass[layer, idx], work.a_stop[layer, idx], work.a_k[layer, idx] = p, s, k
    return t, work


def _footprint(t: BigTables, s: int) -> Footprint:
    b = s // HEADINGS
    idx, sq = b >> 3, (b >> 2) & 1
    return Footprint(idx % t.width, idx // t.width, t.small if sq else t.side)


def big_fly_find_path(
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
    """``grid.movement.find_path`` for a flier of ``size`` (Large or bigger), starting without a heading, to the
    full space anchored at ``goal``; ``threats``: every threatened square. ``whole``: search the whole map as the
    fight does and take the end state the engine settles first (``bigpath.settled_at``)."""
    t, work = _setup(grid, size, occupants, charging, options)
    zone = np.zeros(t.n, dtype=np.bool_)
    for x, y in threats or ():
        if grid.in_bounds((x, y)):
            zone[y * t.width + x] = True
    anchor_provoking(t.width, t.height, t.side, t.small, zone, work.prov)
    seed = fly_state_of(start[1] * t.width + start[0], 0, diagonals_before % 2, 0, NO_HEADING)
    want = goal[1] * t.width + goal[0]
    end = big_fly_search(
        t.step_to, t.step_k, t.step_diag, t.shift_to, t.squeeze_stop, t.sqd,
        np.array([seed], dtype=np.int64), np.zeros(1, dtype=np.int64), budget_ft, work.a_pass, work.a_stop,
        work.a_k, work.prov, True, charging, options.hampered_diagonal_counts, -1 if whole else want,
        work.dist, work.parent, work.heap,
    )  # fmt: skip
    if whole:
        end = settled_at(work.dist, work.parent, work.a_stop, want, HEADINGS)
    if end < 0:
        return None
    states = [end]
    while work.parent[states[-1]] >= 0:
        states.append(int(work.parent[states[-1]]))
    states.reverse()
    base = [s // HEADINGS for s in states]
    leaving = tuple(
        i for i in range(len(base) - 1) if not (base[i + 1] & 1) and work.prov[(base[i] >> 2) & 1, base[i] >> 3]
    )
    return BigPath(tuple(_footprint(t, s) for s in states), int(work.dist[end] >> PROV_BITS), leaving)


def big_fly_reachable(
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
    """``grid.movement.reachable`` for a flier of ``size``: (cost, actions, squeezed) per anchor square; the
    second move of a double move keeps the heading the first ended with. Only the default double move."""
    if options.double_move != "separate" or options.diagonal_count_resets != "turn":
        raise ValueError("only the default double move and diagonal count")
    t, work = _setup(grid, size, occupants, False, options)
    w = t.width
    seed = fly_state_of(start[1] * w + start[0], 0, diagonals_before % 2, 0, NO_HEADING)

    def run(seeds: list[int], keys: list[int]) -> NDArray[np.int64]:
        big_fly_search(
            t.step_to, t.step_k, t.step_diag, t.shift_to, t.squeeze_stop, t.sqd, np.array(seeds, dtype=np.int64),
            np.array(keys, dtype=np.int64), speed, work.a_pass, work.a_stop, work.a_k, work.prov, False, False,
            options.hampered_diagonal_counts, -1, work.dist, work.parent, work.heap,
        )  # fmt: skip
        return work.dist.copy()

    best: dict[int, tuple[int, int, int, int, int]] = {}

    def consider(d: NDArray[np.int64], stage: int) -> list[int]:
        stops = [s for s in np.flatnonzero(d < _INF).tolist() if _can_stop(s, t.squeeze_stop, work.a_stop)]
        for s in stops:
            acts = 2 if stage == 2 else (0 if s == seed else 1)
            b = s // HEADINGS
            cand = (acts, int(d[s] & _PROV_MASK), (b >> 2) & 1, stage, s)
            old = best.get(b >> 3)
            if old is None or cand < old:
                best[b >> 3] = cand
        return stops

    d1 = run([seed], [0])
    stops = consider(d1, 1)
    if actions == 2:
        consider(run(stops, [int(d1[s] & _PROV_MASK) for s in stops]), 2)
    cost = {(a % w, a // w): v[1] for a, v in best.items()}
    acts = {(a % w, a // w): v[0] for a, v in best.items()}
    squeezed = frozenset((a % w, a // w) for a, v in best.items() if v[2])
    return cost, acts, squeezed
