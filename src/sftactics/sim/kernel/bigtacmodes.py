"""The tactical policy's moves for a creature of two squares or more that flies (MOV-04, MOV-19, MOV-32).

:mod:`~sftactics.sim.kernel.bigtactics` plans a big mover's turn over the search of ``footprints.big_search``; a
big flier's search keeps a heading in every state (``bigmodes.big_fly_search``: 5 ft per 45 degrees turned, no
heading at the start of a move action), so where that module reads the walker's states it hands a flier to
these, which read the flier's ``(((anchor * 2 + squeezed) * 2 + parity) * 2 + shifted) * 9 + heading``:

* :func:`first_move_fly` and :func:`second_move_fly`: ``grid.movement.reachable``'s two searches (nothing
  marked): one move from where the flier stands without a heading, then the second move of a double move from
  every state of the first where it may stop, keeping the heading it arrived with and keyed by the feet spent;
* :func:`seek_field_fly`: ``encounter.seek.distance_field`` for a big flier (``reachable`` with a far speed:
  turning costs included), for a flier going looking for its foes.

Swimmers and climbers walk the land tables and burrowers their own (``bigmodes.table_key``), with the walker's
states, and a burrower or climber never charges (it cannot run: MOV-29, MOV-30). (A fight of a Huge burrower and
swimmer that once parted from the engine's was the model's bug: an arc's damage read the last combatant's
incorporeality; with a climber around the fen's pools, a path among equally cheap end states: ``kernel.bigpath``.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.sim.kernel.bigmodes import _can_stop, big_fly_search, fly_state_of
from sftactics.sim.kernel.flymemo import ONE_MOVE, SECOND_MOVE, claim, keep, recall
from sftactics.sim.kernel.geo import PROV_BITS, _jit
from sftactics.sim.kernel.modes import HEADINGS, NO_HEADING

__all__ = ["first_move_fly", "second_move_fly", "seek_field_fly"]

_INF = 1 << 62
_MASK = (1 << PROV_BITS) - 1
_DIAG = 4  # ``books.DIAG``: the scalar of the diagonals counted this turn


@_jit
def _search(m: Any, c: int, seeds: Any, keys: Any, budget: int, dist: Any, parent: Any) -> None:
    """The flier ``c``'s search, nothing marked, into ``dist`` and ``parent``."""
    g = m.bg[c]
    big_fly_search(m.bg_step_to[g], m.bg_step_k[g], m.step_diag, m.bg_shift[g], m.bg_stop[g], m.bg_sqd, seeds,
                   keys, budget, m.bw_pass, m.bw_stop, m.bw_k, m.bw_prov, False, False, m.hampered_diagonal_counts,
                   -1, dist, parent, m.bw_heap)  # fmt: skip


@_jit
def first_move_fly(m: Any, st: Any, c: int) -> None:
    """One move action of the flier ``c`` from where it stands, without a heading (after ``bigtactics._anchors``;
    kept and recalled: ``kernel.flymemo``)."""
    g, seed, speed = m.bg[c], fly_state_of(st.pos[c], 0, st.sc[_DIAG] & 1, 0, NO_HEADING), m.speed[c]
    if recall(m, g, seed, speed, ONE_MOVE) != -2:
        return
    seeds = np.empty(1, dtype=np.int64)
    seeds[0] = seed
    entry = claim(m)
    _search(m, c, seeds, np.zeros(1, dtype=np.int64), speed, m.bw_dist, m.bw_parent)
    keep(m, entry, g, seed, speed, ONE_MOVE, -1)


@_jit
def second_move_fly(m: Any, st: Any, c: int) -> None:
    """The second move of a double move (after :func:`first_move_fly`): from every state of the first where the
    flier may stop, with the heading it has there, keyed by the feet it cost (``reachable``'s ``seeds2``). Those
    seeds are a pure function of the first move's inputs, so the memory keys it by them (``kernel.flymemo``)."""
    g, seed, speed = m.bg[c], fly_state_of(st.pos[c], 0, st.sc[_DIAG] & 1, 0, NO_HEADING), m.speed[c]
    if recall(m, g, seed, speed, SECOND_MOVE) != -2:
        return
    n = 8 * HEADINGS * m.width * m.height
    dist, squeeze_stop, a_stop = m.bw_dist, m.bg_stop[m.bg[c]], m.bw_stop  # (a field read in a loop costs)
    count = 0
    for s in range(n):
        if dist[s] < _INF and _can_stop(s, squeeze_stop, a_stop):
            count += 1
    seeds = np.empty(count, dtype=np.int64)
    keys = np.empty(count, dtype=np.int64)
    j = 0
    for s in range(n):
        if dist[s] < _INF and _can_stop(s, squeeze_stop, a_stop):
            seeds[j] = s
            keys[j] = dist[s] & _MASK
            j += 1
    entry = claim(m)  # (not the first move's entry: the most recently used)
    _search(m, c, seeds, keys, speed, m.bw_dist, m.bw_parent)
    keep(m, entry, g, seed, speed, SECOND_MOVE, -1)


@_jit
def seek_field_fly(m: Any, start: int, budget: int, out: NDArray[np.int32], me: int) -> None:
    """``bigsight.seek_field`` for a flier: the cost of the cheapest path, turns included and without a heading
    at ``start``, to every anchor where its space (or its squeezed space) may stop, creatures ignored (the work
    arrays already cleared of them)."""
    g = m.bg[me]
    seeds = np.empty(1, dtype=np.int64)
    seeds[0] = fly_state_of(start, 0, 0, 0, NO_HEADING)
    dist = m.bw_dist0  # the model's own buffers (the seek fields are kept apart: ``bigsight.seek_field``)
    _search(m, me, seeds, np.zeros(1, dtype=np.int64), budget, dist, m.bw_parent0)
    stop = m.bg_stop[g]
    per = 4 * HEADINGS
    for q in range(out.shape[0]):
        best = _INF
        for layer in range(2):
            if layer == 1 and not stop[q]:
                continue
            first = (q * 2 + layer) * per
            for s in range(first, first + per):
                k = dist[s]
                if k < best:
                    best = k
        out[q] = -1 if best >= _INF else np.int32(best >> PROV_BITS)
    out[start] = 0
