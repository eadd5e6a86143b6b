"""Who sees whom when a creature of two squares or more takes part, on maps with walls and light (issue 22).

The engine asks every perception question between spaces (``encounter.perception``): the lines of sight and of
effect between the observer's space and the target's (``grid.lines.has_line_of_sight`` / ``has_line_of_effect``
for two ``Footprint``s), the distance between their nearest squares (``footprint_distance_ft``) and the light on
the target's *best-lit* square (``perception._body``; ``grid.concealment.light_concealment`` for the miss chance
of an attack, VIS-03, VIS-04). The kernel asks the same here:

* :func:`light_table` (Python, once per map): per footprint side and anchor the best light of the space, from the
  map's own light array (``Model.fp_lit``);
* :func:`fp_line_of_sight` / :func:`fp_line_of_effect`: the grid package's answer for two spaces, kept in the
  map's pair table and cover cache (``sight.line_between``, which one-square spaces use too);
* :func:`sight_pair` and :func:`geo_miss`: ``books._sight_pair`` and ``books._geo_miss`` between spaces;
* :func:`seek_field`: ``encounter.seek.distance_field`` for a big mover (the grid's search with squeezing, no
  creatures, every anchor where the space may stop: the squeezed ones too), so that a big creature goes looking
  for foes as the engine's ``sim.search.Seeker`` makes it.

A one-square creature is a space of side 1 throughout, with the same answers as the one-square code.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.grid.map import GridMap, Light
from sftactics.sim.kernel.bigtacmodes import seek_field_fly
from sftactics.sim.kernel.footprints import big_search, fp_distance_ft, state_of
from sftactics.sim.kernel.geo import PROV_BITS, _jit
from sftactics.sim.kernel.sight import (
    CONCEALMENT_MISS,
    LOCATED,
    OBSERVING,
    TOTAL_MISS,
    UNAWARE,
    line_between,
)

__all__ = ["fp_line_of_effect", "fp_line_of_sight", "geo_miss", "light_table", "seek_field", "sight_pair"]

_DARK = int(Light.DARK)
_DIM = int(Light.DIM)
#: The largest footprint side (Colossal, 6 x 6): ``light_table`` has a row per side up to it.
MAX_SIDE = 6
_INF = 1 << 62


def light_table(grid: GridMap) -> NDArray[np.int8]:
    """``[side, anchor]``: the light on the best-lit square of the space of ``side`` anchored there (its squares
    on the map; ``perception._body``), for sides 1 to :data:`MAX_SIDE` (row 0 unused)."""
    h, w = grid.height, grid.width
    light = grid.light_array.astype(np.int8)
    out = np.full((MAX_SIDE + 1, h, w), int(Light.NORMAL), dtype=np.int8)
    for s in range(1, MAX_SIDE + 1):
        best = np.full((h, w), -1, dtype=np.int8)
        for j in range(s):
            for i in range(s):
                best[: h - j, : w - i] = np.maximum(best[: h - j, : w - i], light[j:, i:])
        out[s] = best
    return out.reshape(MAX_SIDE + 1, h * w)


@_jit
def fp_line_of_sight(cache: Any, pair: NDArray[np.int8], map_id: int, a: int, sa: int, b: int, sb: int) -> bool:
    """``has_line_of_sight`` from the space of side ``sa`` anchored at ``a`` to that of ``sb`` at ``b``."""
    return line_between(cache, pair, map_id, a, sa, b, sb, 1)


@_jit
def fp_line_of_effect(cache: Any, pair: NDArray[np.int8], map_id: int, a: int, sa: int, b: int, sb: int) -> bool:
    """``has_line_of_effect`` between two spaces."""
    return line_between(cache, pair, map_id, a, sa, b, sb, 0)


@_jit
def _out(st: Any, c: int) -> bool:
    return bool(st.dead[c] or st.unconscious[c] or st.dying[c] or st.stable[c])


@_jit
def sight_pair(m: Any, st: Any, o: int, t: int) -> None:
    """``books._sight_pair`` between spaces: vision observes along a line of sight between the two spaces (in
    the dark, where the target's best-lit square is dark, as far as darkvision reaches the nearest squares);
    without it a line of effect lets a blindsense within reach, or hearing a foe fighting, locate it."""
    pa, sa = st.pos[o], m.fside[o]
    pt, stt = st.pos[t], m.fside[t]
    d = fp_distance_ft(pa, sa, pt, stt, m.width)
    if fp_line_of_sight(st.cover_cache, st.pair, m.map_id, pa, sa, pt, stt) and (
        m.fp_lit[stt, pt] != _DARK or m.dv_ft[o] >= d
    ):
        st.aw[o, t] = OBSERVING
        return
    if not fp_line_of_effect(st.cover_cache, st.pair, m.map_id, pa, sa, pt, stt):
        st.aw[o, t] = UNAWARE
        return
    auto = UNAWARE
    if m.bsense_ft[o] >= d or (not _out(st, t) and not st.deaf[o]):
        auto = LOCATED
    st.aw[o, t] = max(auto, min(st.aw[o, t], LOCATED))


@_jit
def geo_miss(m: Any, st: Any, a: int, t: int) -> int:
    """``books._geo_miss`` for a space: the light on the target's best-lit square (``light_concealment``)."""
    lit = m.fp_lit[m.fside[t], st.pos[t]]
    if lit == _DARK and m.dark_miss[a]:
        return TOTAL_MISS
    if lit == _DIM and m.dim_miss[a]:
        return CONCEALMENT_MISS
    return 0


@_jit
def seek_field(m: Any, start: int, budget: int, out: NDArray[np.int32], me: int) -> None:
    """``encounter.seek.distance_field`` for the big mover ``me``: ``reachable(grid, start, far).cost`` with no
    creatures, the cost of the cheapest path to every anchor where its space (or its squeezed space) may stop,
    into ``out`` (-1 where none; 0 at ``start``). Uses the big movers' work arrays (``m.bw_*``); the last fields
    made are kept in ``m.bs_*`` (the map does not change: a field made in one fight serves the next)."""
    g = m.bg[me]
    for layer in range(2):
        for q in range(out.shape[0]):
            m.bw_pass[layer, q] = True
            m.bw_stop[layer, q] = True
            m.bw_k[layer, q] = 0
            m.bw_prov[layer, q] = False
    # the field depends on the mover's tables and the start only: kept per (tables, start), a slot each
    key = (g * out.shape[0] + start) * 2 + (1 if m.fly[me] else 0)
    slot = key % m.bs_key.shape[0]
    if m.bs_key[slot] == key and m.bs_budget[slot] == budget:
        out[:] = m.bs_out[slot]
        return
    _seek_search(m, start, budget, out, me)
    m.bs_key[slot] = key
    m.bs_budget[slot] = budget
    m.bs_out[slot] = out


@_jit
def _seek_search(m: Any, start: int, budget: int, out: NDArray[np.int32], me: int) -> None:
    g = m.bg[me]
    if m.fly[me]:  # a flier's states have headings, and its turns cost (``bigtacmodes``)
        seek_field_fly(m, start, budget, out, me)
        return
    seeds = np.empty(1, dtype=np.int64)
    seeds[0] = state_of(start, 0, 0, 0)
    keys = np.zeros(1, dtype=np.int64)
    dist = m.bw_dist0  # the model's own buffers (a flier's kept searches are not written over: ``flymemo``)
    big_search(m.bg_step_to[g], m.bg_step_k[g], m.step_diag, m.bg_shift[g], m.bg_stop[g], m.bg_sqd, seeds, keys,
               budget, m.bw_pass, m.bw_stop, m.bw_k, m.bw_prov, False, False, m.hampered_diagonal_counts, -1,
               dist, m.bw_parent0, m.bw_heap)  # fmt: skip
    stop = m.bg_stop[g]
    for q in range(out.shape[0]):
        best = _INF
        for layer in range(2):
            if layer == 1 and not stop[q]:
                continue
            for rest in range(4):  # parity, shifted
                k = dist[((q * 2 + layer) * 2) * 2 + rest]
                if k < best:
                    best = k
        out[q] = -1 if best >= _INF else np.int32(best >> PROV_BITS)
    out[start] = 0
