"""Movement modes in the compiled kernel: fliers, swimmers, climbers, burrowers and incorporeal creatures.

The engine moves a creature by the speed :func:`sftactics.sf1e.stats.move_mode` names (land if it has a land
speed, else its first other speed) through :func:`sftactics.encounter.movement.mover_for`, and the grid package
prices each step for that mover (:mod:`sftactics.grid.movement`). What differs between the modes is all in the
grid's step tables and one extra cost:

* a **flier** passes over impassable ground, is hampered by canopy rather than difficult terrain, and pays 5 ft
  for each 45 degrees it turns away from the heading of its last step (MOV-32); each move action starts without
  a heading (the first step sets it for free), and the second move of ``reachable``'s double move keeps the
  heading the first ended with;
* a **burrower** goes under everything but wall squares (walls on edges still stop it), never hampered;
* a **swimmer** or **climber** moves on the map as a land mover does (the grid has no water or walls to climb:
  only the speed differs, and running, which the policies never do);
* an **incorporeal** creature is not hampered by difficult terrain (a flier still is by canopy); walls stop it
  as they stop anyone (the grid has no passing through walls).

So each combatant gets the step table of its own mover (:func:`mover_tables`, read from the grid package's own
``_Ctx`` as :func:`sftactics.sim.kernel.geo.map_tables` reads the land one), and a flier's searches run over
(square, diagonal parity, heading) states (:func:`fly_search`, the same least-cost search as
``grid.movement._search`` with its turning costs); the land search (:func:`sftactics.sim.kernel.geo.search`) is
unchanged. A flier's state is ``(square * 2 + parity) * 9 + heading`` (heading 8: none yet), which sorts as the
grid package's state numbers do, so ties settle in the same order and the paths are the same.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from sftactics.encounter.movement import mover_for
from sftactics.encounter.state import Combatant
from sftactics.grid.geometry import DIRECTIONS
from sftactics.grid.map import GridMap
from sftactics.grid.movement import CAN_RUN, MoveMode, Mover, _Ctx
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.sim.kernel import buckets as _buckets
from sftactics.sim.kernel.geo import PROV_BITS, _heap_pop, _heap_push, _jit, path_to, search, step_cost
from sftactics.sim.kernel.sight import has_darkness

__all__ = [
    "FLY_MAX_SQUARES",
    "HEADINGS",
    "NO_HEADING",
    "fly_path_to",
    "fly_search",
    "fly_second_move",
    "kernel_mover",
    "mode_fields",
    "mode_refusals",
    "mover_tables",
    "path_for",
    "search_for",
    "state_square",
    "steps_for",
]

#: Heading values of a flier's search state: the eight DIRECTIONS, and 8 for none yet.
HEADINGS = 9
NO_HEADING = 8
_INF = 1 << 62
#: The largest map on which the kernel plays a flier (200 x 200): its searches keep 18 states a square.
FLY_MAX_SQUARES = 40_000


def mode_refusals(c: Combatant, grid: GridMap | None) -> list[str]:
    """What about ``c``'s movement the kernel leaves to the engine: a flier on a very large map, and an
    incorporeal creature in the dark (it makes no sound, SPA-16: those who cannot see it do not hear it fight,
    and which senses perceive it is the engine's). A creature of several squares moves by its own mode
    (``sim.kernel.bigmodes``)."""
    out: list[str] = []
    if grid is None:
        return out
    mover = kernel_mover(c)
    if mover.mode is MoveMode.FLY and grid.width * grid.height > FLY_MAX_SQUARES:
        out.append(f"a flier on a map of more than {FLY_MAX_SQUARES:,} squares (its searches keep headings)")
    if c.creature.stat.incorporeal and has_darkness(grid):
        out.append("incorporeal in the dark (silent, SPA-16: who perceives it is the engine's)")
    return out


def kernel_mover(c: Combatant) -> Mover:
    """The engine's mover for ``c`` (``movement.mover_for``) with the speed left out: what the step tables
    depend on (size, mode, incorporeal)."""
    m = mover_for(c)
    return Mover(size=m.size, mode=m.mode, incorporeal=m.incorporeal)


def mover_tables(
    grid: GridMap, mover: Mover, options: GridOptions = DEFAULT_OPTIONS
) -> tuple[NDArray[np.int32], NDArray[np.int8]]:
    """``(step_to [S, 8], step_k [S, 8])`` of a one-square ``mover`` on ``grid``, as
    :func:`sftactics.sim.kernel.geo.map_tables` builds them for a land mover: read from the step table the grid
    package's own search builds for this mover (its masks of what blocks and what hampers), cached on the map."""
    key = ("kernel.modes.tables", mover.size, mover.mode, mover.incorporeal, options)
    found = grid.memo.get(key)
    if found is not None:
        return cast(tuple[NDArray[np.int32], NDArray[np.int8]], found)
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
    grid.memo[key] = (step_to, step_k)
    return step_to, step_k


def mode_fields(
    grid: GridMap,
    combatants: list[Combatant],
    land: tuple[NDArray[np.int32], NDArray[np.int8]],
    options: GridOptions = DEFAULT_OPTIONS,
) -> dict[str, Any]:
    """The model's movement-mode fields: ``mv_to`` and ``mv_k`` (``[T, S, 8]``: the step tables, the land
    mover's first), ``mv_tab`` (``[N]``: each combatant's table), ``fly`` (``[N]``: it flies, so its searches
    have headings), ``no_run`` (``[N]``: its mode forbids running, so it cannot charge: MOV-29, MOV-30) and
    ``hs`` (heading states per square and parity in the search buffers: 9 when anyone flies, else 1)."""
    tables = [land]
    keys: list[object] = [None]
    tab = np.zeros(len(combatants), dtype=np.int32)
    fly = np.zeros(len(combatants), dtype=np.bool_)
    no_run = np.zeros(len(combatants), dtype=np.bool_)
    for i, c in enumerate(combatants):
        mover = kernel_mover(c)
        fly[i] = mover.mode is MoveMode.FLY
        no_run[i] = not CAN_RUN[mover.mode]
        key = (mover.size, mover.mode, mover.incorporeal)
        if mover.mode in (MoveMode.LAND, MoveMode.SWIM, MoveMode.CLIMB) and not mover.incorporeal:
            continue  # the land table (swimming and climbing differ from walking only in speed and running)
        if key not in keys:
            keys.append(key)
            tables.append(mover_tables(grid, mover, options))
        tab[i] = keys.index(key)
    return {
        "mv_to": np.ascontiguousarray(np.stack([t[0] for t in tables])),
        "mv_k": np.ascontiguousarray(np.stack([t[1] for t in tables])),
        "mv_tab": tab,
        "fly": fly,
        "no_run": no_run,
        "hs": HEADINGS if fly.any() else 1,
    }


# ---------------------------------------------------------------- the flier's search
@_jit
def _turn(head: int, d: int) -> int:
    """Feet to turn from ``head`` to direction ``d`` (``movement.turn_cost``): 5 per 45 degrees, none without a
    heading."""
    if head == NO_HEADING:
        return 0
    t = (d - head + 8) % 8
    return 5 * (t if t <= 4 else 8 - t)


@_jit
def fly_search(
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
    """:func:`sftactics.sim.kernel.geo.search` for a flier: the same arguments and outputs, with states
    ``(square * 2 + parity) * 9 + heading`` (``dist`` and ``parent`` hold 18 per square, ``heap`` 144 per
    square and 16 more). The search starts without a heading; a step costs what a land step costs plus
    5 ft per 45 degrees turned from the heading of the step before (MOV-32), and sets the heading. The best
    state of a square is the first settled where the flier may stop, as in the land search."""
    n = step_to.shape[0]
    n_states = 2 * HEADINGS * n
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
        r = budget // 5 + 1  # every step costs at least 5 ft (see geo.search)
        height = n // width
        sx, sy = start % width, start // width
        for y in range(max(0, sy - r), min(height, sy + r + 1)):
            for x in range(max(0, sx - r), min(width, sx + r + 1)):
                i = y * width + x
                for j in range(2 * HEADINGS * i, 2 * HEADINGS * (i + 1)):
                    dist[j] = _INF
                    parent[j] = -1
                best_cost[i] = -1
                best_prov[i] = -1
                best_state[i] = -1
    s0 = (start * 2 + (parity & 1)) * HEADINGS + NO_HEADING
    dist[s0] = 0
    heap[0] = s0
    size = 1
    found = 0
    mask = (1 << PROV_BITS) - 1
    while size > 0:
        item, size = _heap_pop(heap, size)
        key = item >> sb
        st = item & smask
        if key != dist[st]:
            continue
        head = st % HEADINGS
        rest = st // HEADINGS
        idx = rest >> 1
        par = rest & 1
        if stoppable[idx] and best_state[idx] < 0:
            best_state[idx] = st
            best_cost[idx] = key >> PROV_BITS
            best_prov[idx] = key & mask
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
            c += _turn(head, d)
            if used + c > budget:
                continue
            nst = (nidx * 2 + npar) * HEADINGS + d
            nkey = key + (c << PROV_BITS) + leave
            if nkey < dist[nst]:
                dist[nst] = nkey
                parent[nst] = st
                size = _heap_push(heap, size, (nkey << sb) | nst)
    return found


@_jit
def fly_path_to(
    goal: int, best_state: NDArray[np.int32], parent: NDArray[np.int32], provoking: NDArray[np.bool_]
) -> tuple[NDArray[np.int32], NDArray[np.int32]]:
    """:func:`sftactics.sim.kernel.geo.path_to` for the states of :func:`fly_search`."""
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
        squares[i] = (s // HEADINGS) >> 1
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


# ---------------------------------------------------------------- per combatant
@_jit
def steps_for(m: Any, c: int) -> tuple[NDArray[np.int32], NDArray[np.int8]]:
    """The step tables of combatant ``c``'s mover."""
    t = m.mv_tab[c]
    return m.mv_to[t], m.mv_k[t]


@_jit
def search_for(
    m: Any,
    c: int,
    start: int,
    parity: int,
    budget: int,
    passable: NDArray[np.bool_],
    stoppable: NDArray[np.bool_],
    extra_k: NDArray[np.int8],
    provoking: NDArray[np.bool_],
    goal: int,
    dist: NDArray[np.int64],
    parent: NDArray[np.int32],
    heap: NDArray[np.int64],
    best_cost: NDArray[np.int32],
    best_prov: NDArray[np.int32],
    best_state: NDArray[np.int32],
    width: int = 0,
) -> int:
    """The movement search of combatant ``c`` (its own tables; a flier's with headings)."""
    to, k = steps_for(m, c)
    if m.fly[c]:
        return fly_search(to, k, m.step_diag, start, parity, budget, passable, stoppable, extra_k, provoking,
                          m.hampered_diagonal_counts, goal, dist, parent, heap, best_cost, best_prov, best_state,
                          width)  # fmt: skip
    if _buckets.fits(start, budget, width, to.shape[0], heap.shape[0]):  # the same search, faster (buckets.py)
        return _buckets.bucket_search(to, k, m.step_diag, start, parity, budget, passable, stoppable, extra_k,
                                      provoking, m.hampered_diagonal_counts, goal, dist, parent, heap, best_cost,
                                      best_prov, best_state, width)  # fmt: skip
    return search(to, k, m.step_diag, start, parity, budget, passable, stoppable, extra_k, provoking,
                  m.hampered_diagonal_counts, goal, dist, parent, heap, best_cost, best_prov, best_state,
                  width)  # fmt: skip


@_jit
def path_for(
    m: Any, c: int, goal: int, best_state: NDArray[np.int32], parent: NDArray[np.int32], provoking: NDArray[np.bool_]
) -> tuple[NDArray[np.int32], NDArray[np.int32]]:
    """The path :func:`search_for` found for ``c`` to ``goal`` (``geo.path_to``)."""
    if m.fly[c]:
        return fly_path_to(goal, best_state, parent, provoking)
    return path_to(goal, best_state, parent, provoking)


@_jit
def state_square(m: Any, c: int, s: int) -> int:
    """The square of search state ``s`` of ``c``'s searches."""
    if m.fly[c]:
        return (s // HEADINGS) >> 1
    return s >> 1


@_jit
def fly_second_move(
    m: Any,
    st: Any,
    c: int,
    x0: int,
    x1: int,
    y0: int,
    y1: int,
    a0: int,
    a1: int,
    b0: int,
    b1: int,
    inf: int,
) -> None:
    """The second move of ``reachable``'s double move for a flier (``tacturn._second_move`` with headings):
    seeded from every state of the first move's search (``st.dist2``) where the flier may stop, each keeping
    the heading it arrived with, keyed by the feet of the first move; ranked by the feet of the second move
    and then the total; per square the state with the lowest total (then the lowest state number) into
    ``st.r2c`` / ``st.r2s``. ``x0..y1``: the box a double move reaches; ``a0..b1``: the box of one move."""
    w = m.width
    speed = m.speed[c]
    to, kk = steps_for(m, c)
    per = 2 * HEADINGS
    for qx in range(x0, x1):
        for qy in range(y0, y1):
            q = qy * w + qx
            for s in range(per * q, per * (q + 1)):
                st.dist3[s] = inf
                st.parent3[s] = -1
            st.r2c[q] = -1
            st.r2s[q] = -1
    n_states = per * to.shape[0]
    sb = 1
    while (1 << sb) < n_states:
        sb += 1
    smask = (1 << sb) - 1
    size = 0
    for qx in range(a0, a1):
        for qy in range(b0, b1):
            q = qy * w + qx
            if not st.stoppable[q]:
                continue
            for s in range(per * q, per * (q + 1)):
                if st.dist2[s] < inf:
                    key = st.dist2[s] >> PROV_BITS
                    st.dist3[s] = key
                    size = _heap_push(st.heap3, size, (key << sb) | s)
    mask = (1 << PROV_BITS) - 1
    while size > 0:
        item, size = _heap_pop(st.heap3, size)
        key = item >> sb
        s = item & smask
        if key != st.dist3[s]:
            continue
        head = s % HEADINGS
        rest = s // HEADINGS
        idx = rest >> 1
        par = rest & 1
        used = key >> PROV_BITS
        for d in range(8):
            nidx = to[idx, d]
            if nidx < 0 or not st.passable[nidx]:
                continue
            cost, npar = step_cost(int(kk[idx, d]) + int(st.extra_k[nidx]), m.step_diag[d], par,
                                   m.hampered_diagonal_counts)  # fmt: skip
            cost += _turn(head, d)
            if used + cost > speed:
                continue
            ns = (nidx * 2 + npar) * HEADINGS + d
            nkey = key + (cost << PROV_BITS) + cost
            if nkey < st.dist3[ns]:
                st.dist3[ns] = nkey
                st.parent3[ns] = s
                size = _heap_push(st.heap3, size, (nkey << sb) | ns)
    for qx in range(x0, x1):
        for qy in range(y0, y1):
            q = qy * w + qx
            if not st.stoppable[q]:
                continue
            for s in range(per * q, per * (q + 1)):
                if st.dist3[s] < inf:
                    total = st.dist3[s] & mask
                    if st.r2c[q] < 0 or total < st.r2c[q]:
                        st.r2c[q] = total
                        st.r2s[q] = s
