"""Bucket queues for the movement search of a space of two squares or more, walking or flying (MOV-04, MOV-19,
MOV-32).

``footprints.big_search`` (a walker) and ``bigmodes.fly_heap_search`` (a flier, whose states also keep a heading)
settle their states from a binary heap in the order (key, state). Within a move's budget
(:data:`BUCKET_MAX_BUDGET`) :func:`space_bucket_search` gives the same order from buckets, one per key, each a
bitset over the states: the lowest set bit of the lowest bucket is the heap's next (key, state), so every output
is the same (the tests compare every buffer). A state is ``base * heads + heading``, ``base`` the walker's
``((anchor * 2 + squeezed) * 2 + parity) * 2 + shifted`` and ``heads`` 1 for a walker (no heading, no turns) or
``modes.HEADINGS`` for a flier (a step pays 5 ft per 45 degrees turned and sets the heading).

A key is ``(feet << PROV_BITS) + low``, the low part counting provocations (a marked search) or, in a search that
marks none, the feet again on top of the seed's low part: a bucket per 5 ft of feet and per value of the low part
(:func:`bucket_lanes` of them per 5 ft). A bucket's bitset is cleared when the search first puts a state in it
(most buckets never hold one: in a search that marks nothing, the low part is the feet plus the seed's).

A squeeze shift costs nothing and lands in the bucket being settled, perhaps below the state just taken: the scan
goes back to its word (``kernel/buckets.py`` for one-square movers never needs to: every step costs 5 ft or more).
A summary word per 64 words of a bucket, to clear and scan less, was tried: no faster on the second benchmark
room, where the steps cost the most. The loop over a state's steps and shifts is the heap searches', written out
again on purpose (shared as a helper that hands the improved states back, even inlined by numba, it made the
flier's search 1.5 to 2.5 times as slow).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from sftactics.sim.kernel.buckets import _lowest_bit
from sftactics.sim.kernel.geo import _INF, PROV_BITS, _jit, step_cost
from sftactics.sim.kernel.modes import _turn

__all__ = ["BUCKET_MAX_BUDGET", "bucket_lanes", "bucket_size", "space_bucket_search"]

#: The largest budget (feet) a big mover's search settles from buckets: a double move.
BUCKET_MAX_BUDGET = 120
_PROV_MASK = (1 << PROV_BITS) - 1
# ``s // heads`` as a product and a shift (no division in the loop): exact for every state below 2 ** 24 and
# ``heads`` up to 16 (the flier's 9)
_DIV_SHIFT = 33
_MAX_STATES = 1 << 24


@_jit
def bucket_lanes(seeds: NDArray[np.int64], seed_keys: NDArray[np.int64], budget: int, use_provoking: bool) -> int:
    """The buckets per 5 ft of :func:`space_bucket_search` (one per value of the key's low part; 0: the heap
    must search). The feet and a low part that counts feet are multiples of 5 ft; provocations are at most one
    per step, and a step costs 5 ft or more."""
    if budget < 0 or budget > BUCKET_MAX_BUDGET:
        return 0
    top = 0
    for i in range(seed_keys.shape[0]):
        k = seed_keys[i]
        low = k & _PROV_MASK
        if k >> PROV_BITS != 0 or (not use_provoking and low % 5 != 0):
            return 0
        top = max(top, low)
    if use_provoking:
        return top + budget // 5 + 1
    return (top + budget) // 5 + 1


@_jit
def bucket_size(budget: int, lw: int, n_states: int) -> int:
    """The entries of the heap buffer :func:`space_bucket_search` uses: a flag per bucket (its bitset cleared for
    this search), then a bitset over the states per bucket."""
    nb = (budget // 5 + 1) * lw
    return nb + nb * ((n_states + 63) >> 6)


@_jit
def _open_bucket(heap: NDArray[np.int64], nb: int, b: int, words: int) -> None:
    """Clear bucket ``b``'s bitset in :func:`space_bucket_search`'s buffer and flag it as in use."""
    heap[b] = 1
    base = nb + b * words
    for i in range(base, base + words):
        heap[i] = 0


@_jit
def space_bucket_search(
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
    lw: int,
    heads: int,
    prune: bool,
) -> int:
    """The heap search of a big walker (``heads`` 1: ``footprints.big_search``) or flier (``heads`` 9:
    ``bigmodes.fly_heap_search``), the same arguments and outputs (stale entries included), from buckets where
    :func:`bucket_lanes` gives ``lw`` > 0 and :func:`bucket_size` fits ``heap``. ``prune``: leave out the steps
    of a state another heading of its space dominates (``bigmodes._dominated``; nothing changes but the time).
    Returns the state the goal was settled in, or -1."""
    n = step_to.shape[1]
    n_states = 8 * heads * n
    if n_states >= _MAX_STATES or heads > 16:
        raise ValueError("too many states for the bucket search")
    mul = ((1 << _DIV_SHIFT) + heads - 1) // heads
    words = (n_states + 63) >> 6
    unit = 1 if use_provoking else 5
    nb = (budget // 5 + 1) * lw
    for i in range(nb):  # a bucket's bitset is cleared when first used (most buckets never are)
        heap[i] = 0
    for i in range(n_states):
        dist[i] = _INF
        parent[i] = -1
    for i in range(seeds.shape[0]):
        s = seeds[i]
        if seed_keys[i] < dist[s]:
            dist[s] = seed_keys[i]
            b = seed_keys[i] // unit
            if heap[b] == 0:
                _open_bucket(heap, nb, b, words)
            heap[nb + b * words + (s >> 6)] |= np.int64(1) << (s & 63)
    nshift = shift_to.shape[2]
    for b in range(nb):
        if heap[b] == 0:
            continue
        used = (b // lw) * 5
        key = (used << PROV_BITS) + (b % lw) * unit
        base = nb + b * words
        wi = 0
        while wi < words:
            word = heap[base + wi]
            if word == 0:
                wi += 1
                continue
            heap[base + wi] = word & (word - 1)
            s = (wi << 6) + _lowest_bit(word)
            if key != dist[s]:
                continue
            bs = (s * mul) >> _DIV_SHIFT
            head = s - bs * heads
            shifted = bs & 1
            par = (bs >> 1) & 1
            sq = (bs >> 2) & 1
            idx = bs >> 3
            if goal >= 0 and idx == goal and sq == 0 and a_stop[0, idx]:  # (the full space may stop there)
                return s
            leave = -1
            if use_provoking:
                leave = 1 if provoking[sq, idx] else 0
            steps = 8
            if prune:  # ``bigmodes._dominated`` written out (called, it took 5% of a fight in the second room)
                first = s - head
                for h in range(heads):
                    if h == head:
                        continue
                    k1 = dist[first + h]
                    if k1 >= key:
                        continue
                    t = _turn(h, head)
                    if k1 + (t << PROV_BITS) + (0 if use_provoking else t) <= key:
                        steps = 0
                        break
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
                if heads > 1:
                    c += _turn(head, d)
                if used + c > budget:
                    continue
                ns = (((nidx * 2 + sq) * 2 + npar) * 2) * heads + (d if heads > 1 else 0)
                nkey = key + (c << PROV_BITS) + (c if leave < 0 else leave)
                if nkey < dist[ns]:
                    dist[ns] = nkey
                    parent[ns] = s
                    low = nkey & _PROV_MASK  # (the lane without dividing by ``unit``, a number unknown to the compiler)
                    nbk = ((used + c) // 5) * lw + (low if use_provoking else low // 5)
                    if heap[nbk] == 0:
                        _open_bucket(heap, nb, nbk, words)
                    heap[nb + nbk * words + (ns >> 6)] |= np.int64(1) << (ns & 63)
            if shifted == 0:
                to_sq = 1 - sq
                for j in range(nshift):
                    cidx = shift_to[sq, idx, j]
                    if cidx < 0 or not a_pass[to_sq, cidx]:
                        continue
                    ns = (((cidx * 2 + to_sq) * 2 + par) * 2 + 1) * heads + head
                    if key < dist[ns]:
                        dist[ns] = key
                        parent[ns] = s
                        heap[base + (ns >> 6)] |= np.int64(1) << (ns & 63)
                        if (ns >> 6) < wi:
                            wi = ns >> 6
    return -1
