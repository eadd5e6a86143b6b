"""The movement search of :func:`sftactics.sim.kernel.geo.search` with bucket queues instead of a binary heap.

:func:`geo.search <sftactics.sim.kernel.geo.search>` settles the states of a one-square mover in the order of
(key, state), the key being (feet, provocations), from a binary heap. Here the same order comes from buckets,
one per key: every step costs a multiple of 5 ft and at least 5 ft, so within a budget of ``B`` feet a key is
one of ``(B // 5 + 1) ** 2`` (feet // 5, provocations) pairs, and a step always lands in a later bucket than the
one being settled. Each bucket is a bitset over the states of the box the search can reach (the box of
``geo.search``'s partial reset), numbered in the same order as the states themselves, so scanning a bucket's
bits from the lowest gives its states in increasing state order: the heap's order exactly. Every state settles
in the same order, with the same parent, so every output (``dist``, ``parent``, ``best_*``, the return value) is
the same as ``geo.search``'s, stale entries included (``tests/sim/test_kernel_buckets.py`` compares them).

It is cheaper (the benchmark's searches of 25-40 ft take about 40% less time) because a heap push and pop
cost a sift through the heap each, with hard-to-predict branches, where a bucket costs setting one bit and
finding it again. :func:`fits` says when it applies: a search with a box (``width > 0``) whose buckets fit the
heap buffer and whose budget is at most :data:`MAX_BUDGET` (beyond it the buckets are many and mostly empty:
the search for foes nobody has located, ``sim.kernel.seek``, keeps the heap).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros
from numpy.typing import NDArray

from sftactics.sim.kernel.geo import _INF, PROV_BITS, _jit

__all__ = ["MAX_BUDGET", "bucket_search", "fits"]

#: The largest budget (feet) searched with buckets: a double move at 60 ft has 625 buckets.
MAX_BUDGET = 120

# the eight DIRECTIONS (``grid.geometry``) as offsets: a step table's entry ``d`` is the square at these
_DX = (0, 1, 1, 1, 0, -1, -1, -1)
_DY = (-1, -1, 0, 1, 1, 1, 0, -1)


@_jit
def _lowest_bit(word: int) -> int:
    """The index of the lowest set bit of a nonzero int64 (LLVM's ``cttz``: one instruction)."""
    return int(trailing_zeros(word))  # type: ignore[call-arg]  # (a numba intrinsic, typed by numba)


@_jit
def _box(start: int, budget: int, width: int, n: int) -> tuple[int, int, int, int]:
    """``geo.search``'s box: (x0, y0, side in x, rows), the squares within ``budget // 5 + 1`` of ``start``."""
    height = n // width
    r = budget // 5 + 1
    sx, sy = start % width, start // width
    x0, x1 = max(0, sx - r), min(width - 1, sx + r)
    y0, y1 = max(0, sy - r), min(height - 1, sy + r)
    return x0, y0, x1 - x0 + 1, y1 - y0 + 1


@_jit
def fits(start: int, budget: int, width: int, n: int, heap_size: int) -> bool:
    """Whether :func:`bucket_search` plays this search (its buckets fit a heap buffer of ``heap_size``)."""
    if width <= 0 or budget < 0 or budget > MAX_BUDGET:
        return False
    _, _, bw, bh = _box(start, budget, width, n)
    pm = budget // 5 + 1
    return pm * pm * ((bw * bh * 2 + 63) >> 6) <= heap_size


@_jit
def bucket_search(
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
    width: int,
) -> int:
    """:func:`geo.search <sftactics.sim.kernel.geo.search>` (same arguments, same outputs) where :func:`fits`
    says so; ``heap`` holds the buckets' bits."""
    x0, y0, bw, bh = _box(start, budget, width, step_to.shape[0])
    words = (bw * bh * 2 + 63) >> 6
    pm = budget // 5 + 1  # provocations per feet // 5: at most one per step, a step at least 5 ft
    for i in range(pm * pm * words):
        heap[i] = 0
    for y in range(y0, y0 + bh):
        for x in range(x0, x0 + bw):
            i = y * width + x
            dist[2 * i] = _INF
            dist[2 * i + 1] = _INF
            parent[2 * i] = -1
            parent[2 * i + 1] = -1
            best_cost[i] = -1
            best_prov[i] = -1
            best_state[i] = -1
    dloc = np.empty(8, dtype=np.int64)  # a step's offset between the box's states (a state: square * 2 + parity)
    for d in range(8):
        dloc[d] = 2 * (_DY[d] * bw + _DX[d])
    sx, sy = start % width, start // width
    dist[start * 2 + (parity & 1)] = 0
    l0 = ((sy - y0) * bw + (sx - x0)) * 2 + (parity & 1)
    heap[l0 >> 6] |= np.int64(1) << (l0 & 63)
    found = 0
    for b in range(pm * pm):
        fb = b // pm
        used = fb * 5
        prov = b - fb * pm
        key = (used << PROV_BITS) + prov
        base = b * words
        for wi in range(words):
            word = heap[base + wi]
            while word != 0:
                ls = (wi << 6) + _lowest_bit(word)
                word &= word - 1
                par = ls & 1
                lsq = ls >> 1
                ly = lsq // bw
                idx = (y0 + ly) * width + x0 + lsq - ly * bw
                st = idx * 2 + par
                if key != dist[st]:
                    continue  # a stale entry: the state settled from an earlier bucket
                if stoppable[idx] and best_state[idx] < 0:
                    best_state[idx] = st
                    best_cost[idx] = used
                    best_prov[idx] = prov
                    found += 1
                    if idx == goal:
                        return found
                if used + 5 > budget:
                    continue  # no step left (every step costs 5 ft at least)
                leave = 1 if provoking[idx] else 0
                here = ls - par
                for d in range(8):
                    nidx = step_to[idx, d]
                    if nidx < 0 or not passable[nidx]:
                        continue
                    k = int(step_k[idx, d]) + int(extra_k[nidx])
                    diag = step_diag[d]
                    if k == 0:  # ``geo.step_cost``
                        c = 10 if (diag and par == 1) else 5
                        npar = par ^ 1 if diag else par
                    else:
                        c = (15 << (k - 1)) if diag else (5 << k)
                        npar = par ^ 1 if (diag and hampered_diagonal_counts) else par
                    if used + c > budget:
                        continue
                    nst = nidx * 2 + npar
                    nkey = key + (c << PROV_BITS) + leave
                    if nkey < dist[nst]:
                        dist[nst] = nkey
                        parent[nst] = st
                        nl = here + dloc[d] + npar
                        nb = ((used + c) // 5) * pm + prov + leave
                        heap[nb * words + (nl >> 6)] |= np.int64(1) << (nl & 63)
    return found
