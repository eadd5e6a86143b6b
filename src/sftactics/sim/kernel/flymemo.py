"""Searches of a big flier kept and recalled (MOV-32): ``bigmodes.big_fly_search`` is the costliest thing a
fight of a big flier does (72 states per square), and a fight asks the same search again and again: a flier
in melee looks at its withdrawal every turn from the same space with everyone where they were, and the first
round of one fight is often the first round of the next. A search is a pure function of its inputs, so its
results are kept, per model (the map does not change from fight to fight), with every input it read:

* scalars: the movement tables ``g``, the seed state, the budget, and what kind of search it is
  (:data:`ONE_MOVE`; :data:`SECOND_MOVE`: the double move's second search, whose seeds are a pure function of
  the first's and of where the flier may stop; :data:`MARKED` and :data:`MARKED_CHARGING`: provocations
  counted, the second charging);
* the per-anchor occupancy it searched over (``m.bw_pass``, ``m.bw_stop``, ``m.bw_k``) and, for a marked
  search, the provoking anchors (``m.bw_prov``), as bytes compared in full on a recall (a hash only picks the
  candidate entry).

A search is made straight into an entry's buffers and a recall points ``m.bw_dist`` and ``m.bw_parent`` at
them (nothing copied: copying a search's 390 kB in and out cost a tenth of a fight in the second benchmark
room); searches the memory does not keep go to the model's own buffers (:func:`scratch`). A recalled search
reads exactly as the search itself left its buffers (``dist``, ``parent``, the end state), so a fight is the
same whether its searches were made or recalled; ``tests/sim/test_kernel_flymemo.py`` plays the same fights with
the memory off, warm, and emptied before each fight, and compares them. The memory holds :func:`entries`
searches (as many as fit in about 128 MB for the map, 4 to 400), the least recently used one giving way. The
tactical policy reads a double move's two searches for its midpoint straight from their entries
(``bigtactics.midpoint_big``): :func:`pin` holds them so that no other search is made into them (without the
memory, they are copied).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sftactics.sim.kernel.bigpath import best_full, settled_at
from sftactics.sim.kernel.geo import _jit

__all__ = [
    "BY_KIND",
    "HITS",
    "KEPT",
    "MADE",
    "MARKED",
    "MARKED_CHARGING",
    "OFF",
    "ONE_MOVE",
    "SECOND_MOVE",
    "anchor_states",
    "claim",
    "entries",
    "keep",
    "key_bytes",
    "last_entry",
    "memo_fields",
    "pin",
    "recall",
    "scratch",
]

#: Kinds of search (the scalar ``kind`` of a key).
ONE_MOVE = 1
SECOND_MOVE = 2
MARKED = 3
MARKED_CHARGING = 4

_BUDGET_BYTES = 128 << 20  # (numpy's zeros: pages of entries never used are never touched)
_MIX = np.uint64(0x9E3779B97F4A7C15)

# columns of ``m.fm_scal``
# (``_BEST``: nonzero once the entry's ``fm_best`` row holds its per-anchor states, :func:`anchor_states`)
_STAMP, _HASH, _G, _SEED, _BUDGET, _KIND, _END, _BEST = range(8)
_COLUMNS = 8
# ``m.fm_count``: the clock, recalls, searches kept, the hash of the key last filled, the switch (nonzero: off,
# for comparing and measuring), the entry last recalled or claimed (-1: none), the two pinned entries (plus one:
# 0 is none), then per kind of search its recalls (``BY_KIND + kind``) and its searches made (``MADE + kind``)
_CLOCK, HITS, KEPT, _PENDING, OFF, _LAST, _PIN = range(7)  # (``_PIN`` and ``_PIN + 1``)
BY_KIND = 8
MADE = BY_KIND + 8
_COUNTS = MADE + 8


def key_bytes(nsq: int) -> int:
    """Bytes of a search's occupancy key on a map of ``nsq`` squares (four layers of two, whole words)."""
    return (8 * nsq + 7) // 8 * 8


def entries(nsq: int, states: int) -> int:
    """How many searches of ``states`` states the memory keeps on a map of ``nsq`` squares."""
    per = states * 12 + key_bytes(nsq) + 8 * _COLUMNS + 4 * nsq
    return max(4, min(400, _BUDGET_BYTES // per))


def memo_fields(nsq: int, states: int) -> dict[str, Any]:
    """The model's fields of the memory (``bigmodel.big_fields``: with a big flier only)."""
    e = entries(nsq, states)
    return {
        "fm_scal": np.zeros((e, _COLUMNS), dtype=np.int64),
        "fm_key": np.zeros((e, key_bytes(nsq)), dtype=np.uint8),
        "fm_work": np.zeros(key_bytes(nsq), dtype=np.uint8),
        "fm_dist": np.zeros((e, states), dtype=np.int64),
        "fm_parent": np.zeros((e, states), dtype=np.int32),
        "fm_best": np.full((e + 1, nsq), -1, dtype=np.int32),  # (the last row: with the memory off)
        "fm_count": np.zeros(_COUNTS, dtype=np.int64),
    }


@_jit
def _fill(m: Any, marked: bool) -> int:
    """Writes the occupancy (and for a marked search the provoking anchors) into ``m.fm_work``; its hash."""
    work = m.fm_work
    pas, stop, k, prov = m.bw_pass, m.bw_stop, m.bw_k, m.bw_prov
    n = pas.shape[1]
    for layer in range(2):
        o = layer * n
        for i in range(n):
            work[o + i] = pas[layer, i]
            work[2 * n + o + i] = stop[layer, i]
            work[4 * n + o + i] = np.uint8(k[layer, i])
            work[6 * n + o + i] = prov[layer, i] if marked else False
    words = work.view(np.uint64)
    h = np.uint64(0)
    for i in range(words.shape[0]):
        h = (h ^ words[i]) * _MIX
        h ^= h >> np.uint64(29)
    return int(h >> np.uint64(1))


@_jit
def _same(m: Any, e: int) -> bool:
    a = m.fm_work.view(np.uint64)
    b = m.fm_key[e].view(np.uint64)
    for i in range(a.shape[0]):  # noqa: SIM110 (numba)
        if a[i] != b[i]:
            return False
    return True


@_jit
def scratch(m: Any) -> None:
    """Point ``m.bw_dist`` and ``m.bw_parent`` back at the model's own buffers (``bw_dist0``, ``bw_parent0``):
    before a search the memory does not keep (a big walker's) writes into them, so that it never writes over a
    kept one. (A seek field's search writes the model's own buffers by name.)"""
    m.bw_dist = m.bw_dist0
    m.bw_parent = m.bw_parent0


@_jit
def recall(m: Any, g: int, seed: int, budget: int, kind: int) -> int:
    """The end state of the kept search with these inputs (the occupancy in ``m.bw_*``), ``m.bw_dist`` and
    ``m.bw_parent`` then pointing at its buffers (read them, do not write them); -2 when none is kept (then
    ``m.fm_work`` holds the key for :func:`claim` and :func:`keep`)."""
    count = m.fm_count
    if count[OFF]:
        return -2
    h = _fill(m, kind >= MARKED)
    scal = m.fm_scal
    count[_CLOCK] += 1
    for e in range(scal.shape[0]):
        if (
            scal[e, _STAMP] > 0
            and scal[e, _HASH] == h
            and scal[e, _G] == g
            and scal[e, _SEED] == seed
            and scal[e, _BUDGET] == budget
            and scal[e, _KIND] == kind
            and _same(m, e)
        ):
            scal[e, _STAMP] = count[_CLOCK]
            count[HITS] += 1
            count[BY_KIND + kind] += 1
            count[_LAST] = e
            m.bw_dist = m.fm_dist[e]
            m.bw_parent = m.fm_parent[e]
            return int(scal[e, _END])
    count[_PENDING] = h
    return -2


@_jit
def claim(m: Any) -> int:
    """After a :func:`recall` that found none: the entry the search is to be kept in (the least recently used,
    forgotten now; never a pinned one), ``m.bw_dist`` and ``m.bw_parent`` pointing at its buffers for the search
    to write; -1 (the model's own buffers) when the memory is off."""
    count = m.fm_count
    if count[OFF]:
        count[_LAST] = -1
        scratch(m)
        return -1
    scal = m.fm_scal
    pa, pb = count[_PIN] - 1, count[_PIN + 1] - 1
    victim = -1
    for e in range(scal.shape[0]):  # (at least 4 entries: ``entries``)
        if e != pa and e != pb and (victim < 0 or scal[e, _STAMP] < scal[victim, _STAMP]):
            victim = e
    count[_LAST] = victim
    scal[victim, _STAMP] = 0
    scal[victim, _BEST] = 0
    m.bw_dist = m.fm_dist[victim]
    m.bw_parent = m.fm_parent[victim]
    return victim


@_jit
def keep(m: Any, victim: int, g: int, seed: int, budget: int, kind: int, end: int) -> None:
    """The search just made into the buffers of :func:`claim`'s entry ``victim`` is kept, with its key."""
    if victim < 0:
        return
    count = m.fm_count
    count[MADE + kind] += 1
    scal = m.fm_scal
    scal[victim, _STAMP] = count[_CLOCK]
    scal[victim, _HASH] = count[_PENDING]
    scal[victim, _G] = g
    scal[victim, _SEED] = seed
    scal[victim, _BUDGET] = budget
    scal[victim, _KIND] = kind
    scal[victim, _END] = end
    m.fm_key[victim, :] = m.fm_work
    count[KEPT] += 1


@_jit
def last_entry(m: Any) -> int:
    """The entry of the search last recalled or made (after :func:`recall` and, when it found none, :func:`claim`
    and the search); -1 when it went to the model's own buffers (the memory off)."""
    return int(m.fm_count[_LAST])


@_jit
def pin(m: Any, slot: int, e: int) -> None:
    """Holds entry ``e`` (``slot`` 0 or 1; it lets go of the entry held there before) out of :func:`claim`'s
    reach, for a search read after others were made (the double move's for its midpoint); -1 holds none."""
    m.fm_count[_PIN + slot] = e + 1


@_jit
def anchor_states(m: Any, heads: int, marked: bool) -> Any:
    """Per anchor, the state of the full space that the search last recalled or made leaves for it (``m.bw_dist``
    and ``m.bw_parent`` as it left them, over ``m.bw_stop``): for a ``marked`` search the one the engine's search
    settles first (``bigpath.settled_at``), else the one ``reachable`` keeps (``bigpath.best_full``); -1 where
    none. A pure function of the search, so it is worked out once per kept entry and read again on every recall
    (scanning every state per anchor cost about 6% of a fight in the second benchmark room); read it, do not
    write it."""
    e = int(m.fm_count[_LAST])
    best = m.fm_best
    out = best[best.shape[0] - 1 if e < 0 else e]
    scal = m.fm_scal
    if e >= 0 and scal[e, _BEST] != 0:
        return out
    dist, parent, stop = m.bw_dist, m.bw_parent, m.bw_stop
    for q in range(out.shape[0]):
        out[q] = settled_at(dist, parent, stop, q, heads) if marked else best_full(dist, stop, q, heads)
    if e >= 0:
        scal[e, _BEST] = 1
    return out
