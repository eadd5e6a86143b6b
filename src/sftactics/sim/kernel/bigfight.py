"""The fight's geometry when a creature of two squares or more takes part (Large to Colossal, MOV-04).

:mod:`~sftactics.sim.kernel.fight` calls these where a position meets another (``m.big``, or the mover or the
reactor is big): distances and reach between spaces (``footprint_distance_ft``, ``space.in_reach``), what a
creature threatens (any square of a space, AOO-02..05, the engine's ``threat.weapon_zone`` as tables), cover
between spaces with the creatures in the way (MOD-07..15), flanking from any square (MOD-17), the squares a big
creature fills for the others' movement (MOV-13..16) and the movement of a big creature itself: the grid's search
with squeezing (``footprints.big_walk_search``), its path and the spaces it leaves while threatened (AOO-06), and the
simple policy's approach (``SimplePolicy._approach``: the space of one move nearest the target, flanking it if
it can). A one-square creature is a space of side 1 here, with the same answers as the one-square code.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.sf1e.actions_rules import CHARGE_PENALTY
from sftactics.sim.kernel import setup as _setup
from sftactics.sim.kernel.bigcover import fp_can_aoo_geometry, fp_cover_kind
from sftactics.sim.kernel.bigmodes import path_big_fly, search_big_fly
from sftactics.sim.kernel.bigpath import store_best
from sftactics.sim.kernel.bodies import base_numbers
from sftactics.sim.kernel.flymemo import scratch
from sftactics.sim.kernel.footprints import (
    anchor_occupancy,
    anchor_provoking,
    big_walk_search,
    fp_distance_ft,
    fp_flank_line,
    fp_reaches,
    fp_threatens_box,
    state_of,
)
from sftactics.sim.kernel.geo import _jit, threatens_on_map

_TOTAL_COVER = 5
_DIAG = 4  # ``books.DIAG``: the scalar of the diagonals counted this turn


@_jit
def _out(st: Any, c: int) -> bool:
    return bool(st.dead[c] or st.unconscious[c] or st.dying[c] or st.stable[c])


@_jit
def pair_dist(m: Any, st: Any, a: int, b: int) -> int:
    """``space.distance_ft`` between two combatants' spaces."""
    return fp_distance_ft(st.pos[a], m.fside[a], st.pos[b], m.fside[b], m.width)


@_jit
def threat_space(m: Any, st: Any, c: int, z: int, q: int, sq: int) -> bool:
    """Whether ``c`` threatens, with the reach of its zone table ``z``, a square of the space of side ``sq``
    anchored at ``q`` (walls and lines of effect included)."""
    if z < 0:
        return False
    w = m.width
    sc = m.fside[c]
    pc = st.pos[c]
    if sc > 1:
        return fp_threatens_box(m.bz[z], m.bz_radius, m.bz_box, sc, pc, q, sq, w)
    if sq == 1:
        return threatens_on_map(m.zones[z], m.zone_radius, pc, q, w)
    qx, qy = q % w, q // w
    for j in range(sq):
        for i in range(sq):
            if threatens_on_map(m.zones[z], m.zone_radius, pc, (qy + j) * w + qx + i, w):
                return True
    return False


@_jit
def threat_fp(m: Any, st: Any, c: int, z: int, t: int) -> bool:
    """Whether ``c`` threatens a square of ``t``'s space with zone table ``z`` (``Body.threatens``)."""
    return threat_space(m, st, c, z, st.pos[t], m.fside[t])


@_jit
def mark_big(m: Any, st: Any, e: int, value: bool) -> None:
    """``movement._mark`` for a big enemy: every square it threatens."""
    w = m.width
    r = m.bz_radius
    box = m.bz_box
    se = m.fside[e]
    pe = st.pos[e]
    z = m.zone[e]
    ex, ey = pe % w, pe // w
    for dy in range(-r, r + se):
        for dx in range(-r, r + se):
            x, y = ex + dx, ey + dy
            if 0 <= x < w and 0 <= y < m.height and m.bz[z, pe, (dy + r) * box + dx + r]:
                st.provoking[y * w + x] = value


@_jit
def occupy(m: Any, st: Any, o: int, stop: bool, passable: bool) -> None:
    """Set every square of ``o``'s space in the movement arrays."""
    w = m.width
    p = st.pos[o]
    s = m.fside[o]
    for j in range(s):
        for i in range(s):
            q = p + j * w + i
            st.stoppable[q] = stop
            st.passable[q] = passable


@_jit
def search_big(m: Any, st: Any, c: int, budget: int, charging: bool, exempt_start: bool) -> None:
    """``movement._search`` for a big mover (the per-square arrays set): the grid's search with squeezing; per
    anchor of its full space, ``st.best_cost``, ``st.best_prov`` and ``st.best_state`` of the best state where it
    may stop (-1 elsewhere), as the one-square search leaves them: among equally cheap states the one the engine's
    search settles first (``bigpath.store_best``), whose path ``find_path`` walks back."""
    if m.fly[c]:  # a flier's states have headings (``bigmodes``)
        search_big_fly(m, st, c, budget, charging, exempt_start)
        return
    w, h = m.width, m.height
    g = m.bg[c]
    side = m.fside[c]
    small = m.bg_small[g]
    anchor_occupancy(w, h, side, small, st.passable, st.stoppable, st.extra_k, m.bw_pass, m.bw_stop, m.bw_k)
    anchor_provoking(w, h, side, small, st.provoking, m.bw_prov)
    here = st.pos[c]
    if exempt_start:
        m.bw_prov[0, here] = False
    seeds = np.empty(1, dtype=np.int64)
    seeds[0] = state_of(here, 0, st.sc[_DIAG] & 1, 0)
    keys = np.zeros(1, dtype=np.int64)
    scratch(m)  # (a flier's kept searches are not written over: ``kernel.flymemo``)
    big_walk_search(m.bg_step_to[g], m.bg_step_k[g], m.step_diag, m.bg_shift[g], m.bg_stop[g], m.bg_sqd, seeds, keys,
               budget, m.bw_pass, m.bw_stop, m.bw_k, m.bw_prov, True, charging, m.hampered_diagonal_counts, -1,
               m.bw_dist, m.bw_parent, m.bw_heap)  # fmt: skip
    store_best(m, st, 1)  # the state (parity, shifted) the engine's find_path settles first among the cheapest


@_jit
def path_big(m: Any, st: Any, c: int, dest: int) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int32]]:
    """The path :func:`search_big` found to ``dest``: (anchors, indexes of the spaces left while threatened,
    side of each space). A squeeze shift (the side changes) leaves no space."""
    if m.fly[c]:
        return path_big_fly(m, st, c, dest)
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
        states[i] = x
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


@_jit
def crowd(m: Any, st: Any, a: int, t: int) -> int:
    """``space.others``: the spaces of the creatures (not dead) other than ``a`` and ``t``, anchors into
    ``st.crowd`` and sides into ``m.bw_crowd_side``; their count."""
    k = 0
    for c in range(m.n):
        if c != a and c != t and not st.dead[c]:
            st.crowd[k] = st.pos[c]
            m.bw_crowd_side[k] = m.fside[c]
            k += 1
    return k


@_jit
def cover_fp(m: Any, st: Any, a: int, t: int, ranged: bool) -> int:
    """The cover of ``t``'s space against ``a`` (``space.cover_between``)."""
    count = crowd(m, st, a, t)
    return fp_cover_kind(st.cover_cache, st.pair, m.map_id, m.width, st.pos[a], m.fside[a], st.pos[t], m.fside[t],
                         ranged, st.crowd, m.bw_crowd_side, count)  # fmt: skip


@_jit
def can_aoo_fp(m: Any, st: Any, e: int, c: int) -> bool:
    """MOD-09 between spaces."""
    return fp_can_aoo_geometry(st.cover_cache, st.pair, m.map_id, st.pos[e], m.fside[e], st.pos[c], m.fside[c])


@_jit
def attack_numbers_fp(m: Any, st: Any, a: int, k: int, t: int) -> tuple[bool, int, int]:
    """``attacks._attack_numbers`` between spaces: reach, range, cover and flanking (``space.attack_geometry``)."""
    w = m.width
    pa, sa = st.pos[a], m.fside[a]
    pt, stt = st.pos[t], m.fside[t]
    melee = m.w_melee_geom[a, k]
    down = bool(st.unconscious[t] or st.dying[t] or st.dead[t] or st.stable[t])
    bonus, base_ac = base_numbers(m, st, a, k, t, down)
    if melee:
        if not fp_reaches(pa, sa, pt, stt, w, m.w_reach[a, k]):
            return False, 0, 0
    else:
        d = fp_distance_ft(pa, sa, pt, stt, w) // 5
        if d >= m.w_range.shape[2] or m.w_range[a, k, d] <= -10_000:
            return False, 0, 0
        bonus += m.w_range[a, k, d]
    kind = _setup.with_imposed(m, t, a, cover_fp(m, st, a, t, not melee))
    if kind == _TOTAL_COVER:
        return False, 0, 0
    ac = base_ac + m.cover_ac[kind] - (CHARGE_PENALTY if st.charging[t] else 0)
    if melee and m.armed[a] and m.w_reach[a, k] > 0 and threat_fp(m, st, a, m.w_zone[a, k], t):
        for p in range(m.n):
            if p in (a, t) or _out(st, p) or m.side[p] == m.side[t]:
                continue
            if m.flank_ally_only and m.side[p] != m.side[a]:
                continue
            if m.body_reach[p] <= 0 or not threat_fp(m, st, p, m.zone[p], t):
                continue
            if fp_flank_line(pa, sa, st.pos[p], m.fside[p], pt, stt, w):
                bonus += m.flank_bonus
                break
    return True, bonus, ac


@_jit
def approach_fp(m: Any, st: Any, c: int, t: int) -> int:
    """``SimplePolicy._approach`` between spaces: the anchor of one move nearest ``t``'s space (flanking it with
    an ally next to it if possible, then the cheapest, then the lowest x, y); -1 if none is nearer than here.
    Reads the search of ``movement._prepare_move``."""
    w = m.width
    pt, stt = st.pos[t], m.fside[t]
    sc = m.fside[c]
    here = fp_distance_ft(st.pos[c], sc, pt, stt, w)
    nm = 0
    for a in range(m.n):
        if a != c and m.side[a] == m.side[c] and not _out(st, a) and pair_dist(m, st, a, t) <= 5:
            st.mates[nm] = a
            nm += 1
    best = -1
    bd, bf, bc, bx, by = 0, 0, 0, 0, 0
    # one move reaches at most speed / 5 squares away (the one-square search sets only that box); a big mover's
    # squeeze shifts move its anchor further than its steps do: every anchor of the map (its search sets them all)
    r = m.speed[c] // 5 if sc == 1 else w + m.height
    cx, cy = st.pos[c] % w, st.pos[c] // w
    for qx in range(max(0, cx - r), min(w, cx + r + 1)):
        for qy in range(max(0, cy - r), min(m.height, cy + r + 1)):
            q = qy * w + qx
            cost = st.best_cost[q]
            if cost <= 0:
                continue
            d = fp_distance_ft(q, sc, pt, stt, w)
            flanks = 1
            if d <= 5:
                for i in range(nm):
                    mate = st.mates[i]
                    if fp_flank_line(q, sc, st.pos[mate], m.fside[mate], pt, stt, w):
                        flanks = 0
                        break
            if best < 0 or (d, flanks, cost, qx, qy) < (bd, bf, bc, bx, by):
                best, bd, bf, bc, bx, by = q, d, flanks, cost, qx, qy
    if best < 0 or bd >= here:
        return -1
    return best
