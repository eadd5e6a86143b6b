"""The tactical policy's geometry when a creature of two squares or more takes part (Large to Colossal, MOV-04).

:mod:`~sftactics.sim.kernel.tactics` asks these where a position meets another and a big creature is in the fight
(``m.big``), or where the actor itself is big (``m.fside[me] > 1``); the rest of its turn is unchanged. Each is
the question ``sim.policies._Turn`` asks between footprints (``footprint_distance_ft``, ``reach_covers``,
``flank_line``, the squares a foe threatens with any square of the actor's space), and for a big actor:

* its moves: ``grid.movement.reachable`` for its space (one move or a double move, squeezing included, every
  anchor where its full space may stop; an anchor where it would end squeezed is no candidate, as
  ``ReachMap.squeezed`` says), the first move of a double move (``_Turn._midpoint``), the guarded steps of its
  full space (``guarded_step_squares``) and the attacks of opportunity on its path (``_Turn.provokers``);
* its grenades (``_Turn.grenade_from``: the corners of the foes' spaces, three by three for a big foe; the burst
  must not hold the thrower's anchor square);
* its charge (``do_charge``: the nearest space from which it reaches the target, then the one most directly
  toward it; a clear straight line for its whole space, ``movement.clear_line``).

With one-square creatures only, every function answers as the one-square code does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sftactics.sim.kernel import bigfight as _big
from sftactics.sim.kernel import bigsqueeze as _sqz
from sftactics.sim.kernel import bigtacmodes as _tm
from sftactics.sim.kernel import tacplaces as _tplaces
from sftactics.sim.kernel import tacturn as _tturn
from sftactics.sim.kernel.bigpath import best_full
from sftactics.sim.kernel.blasts import ON_NEGATES
from sftactics.sim.kernel.books import DIAG, _down_now, _in_zone
from sftactics.sim.kernel.flymemo import anchor_states, last_entry, pin, scratch
from sftactics.sim.kernel.footprints import (
    anchor_occupancy,
    big_walk_search,
    fp_distance_ft,
    fp_distance_to_point_ft,
    fp_flank_line,
    fp_reaches,
    state_of,
)
from sftactics.sim.kernel.geo import PROV_BITS, _jit, distance_ft, flank_line, step_cost, threatens
from sftactics.sim.kernel.grenades import _burst_has, _burst_hits
from sftactics.sim.kernel.modes import HEADINGS
from sftactics.sim.kernel.movement import _clear, _occupancy

_INF = 1 << 62
_MASK = (1 << PROV_BITS) - 1


# ---------------------------------------------------------------- between spaces
@_jit
def dist_at(m: Any, st: Any, a: int, q: int, b: int) -> int:
    """``footprint_distance_ft`` between ``a``'s space anchored at ``q`` and ``b``'s space."""
    if m.big:
        return fp_distance_ft(q, m.fside[a], st.pos[b], m.fside[b], m.width)
    return distance_ft(q, st.pos[b], m.width)


@_jit
def dist_pair(m: Any, st: Any, a: int, b: int) -> int:
    """``footprint_distance_ft`` between the spaces of ``a`` and ``b``."""
    return dist_at(m, st, a, st.pos[a], b)


@_jit
def reaches_at(m: Any, st: Any, a: int, q: int, t: int, reach: int) -> bool:
    """Some square of ``t``'s space is within ``reach`` ft of ``a``'s space anchored at ``q`` (``reach_covers``)."""
    if m.big:
        return fp_reaches(q, m.fside[a], st.pos[t], m.fside[t], m.width, reach)
    return threatens(q, st.pos[t], m.width, reach, True)


@_jit
def flanks_at(m: Any, st: Any, a: int, q: int, f: int, t: int) -> bool:
    """Friend ``f`` stands next to ``t`` and a line from ``a``'s space at ``q`` to ``f``'s crosses ``t``'s
    space between opposite sides (``_rough_geometry``'s and ``_flank_hint``'s test)."""
    w = m.width
    if m.big:
        pf, pt = st.pos[f], st.pos[t]
        return fp_distance_ft(pf, m.fside[f], pt, m.fside[t], w) <= 5 and fp_flank_line(
            q, m.fside[a], pf, m.fside[f], pt, m.fside[t], w
        )
    return distance_ft(st.pos[f], st.pos[t], w) <= 5 and flank_line(q, st.pos[f], st.pos[t], w)


@_jit
def threat_at(m: Any, st: Any, e: int, q: int, a: int) -> bool:
    """``e`` threatens a square of ``a``'s space anchored at ``q`` (``threatened_by``)."""
    if m.big:
        return _big.threat_space(m, st, e, m.zone[e], q, m.fside[a])
    return _in_zone(m, m.zone[e], st.pos[e], q)


@_jit
def nearest_foe_ft(m: Any, st: Any, me: int, q: int, default: int) -> int:
    """The distance from ``me``'s space at ``q`` to the nearest foe of the turn's list."""
    d = default
    for i in range(st.t_n[0]):
        x = dist_at(m, st, me, q, st.t_foes[i])
        if i == 0 or x < d:
            d = x
    return d


# ---------------------------------------------------------------- a big mover's moves
@_jit
def _anchors(m: Any, st: Any, c: int) -> None:
    """The per-anchor occupancy of ``c``'s layers (``movement.occupants``, not charging)."""
    _occupancy(m, st, c)
    anchor_occupancy(m.width, m.height, m.fside[c], m.bg_small[m.bg[c]], st.passable, st.stoppable, st.extra_k,
                     m.bw_pass, m.bw_stop, m.bw_k)  # fmt: skip
    _clear(m, st)


@_jit
def _search(m: Any, st: Any, c: int, seeds: Any, keys: Any) -> None:
    g = m.bg[c]
    scratch(m)  # (a flier's kept searches are not written over: ``kernel.flymemo``)
    big_walk_search(m.bg_step_to[g], m.bg_step_k[g], m.step_diag, m.bg_shift[g], m.bg_stop[g], m.bg_sqd, seeds, keys,
               m.speed[c], m.bw_pass, m.bw_stop, m.bw_k, m.bw_prov, False, False, m.hampered_diagonal_counts, -1,
               m.bw_dist, m.bw_parent, m.bw_heap)  # fmt: skip


@_jit
def _first_move(m: Any, st: Any, c: int) -> None:
    if m.fly[c]:  # a flier's states have headings (``bigtacmodes``)
        _tm.first_move_fly(m, st, c)
        return
    seeds = np.empty(1, dtype=np.int64)
    seeds[0] = state_of(st.pos[c], 0, st.sc[DIAG] & 1, 0)
    _search(m, st, c, seeds, np.zeros(1, dtype=np.int64))


@_jit
def _second_move(m: Any, st: Any, c: int) -> None:
    """The second move of a double move: from every state of the first where the mover may stop, keyed by the
    feet it cost (``reachable``'s ``seeds2``)."""
    if m.fly[c]:
        _tm.second_move_fly(m, st, c)
        return
    g = m.bg[c]
    n = 8 * m.width * m.height
    dist = m.bw_dist  # (a field read in a loop costs)
    count = 0
    for s in range(n):
        if dist[s] < _INF and _stops(m, g, s):
            count += 1
    seeds = np.empty(count, dtype=np.int64)
    keys = np.empty(count, dtype=np.int64)
    j = 0
    for s in range(n):
        if dist[s] < _INF and _stops(m, g, s):
            seeds[j] = s
            keys[j] = dist[s] & _MASK
            j += 1
    _search(m, st, c, seeds, keys)


@_jit
def _stops(m: Any, g: int, s: int) -> bool:
    """``_Ctx.can_stop``: the space of state ``s`` may end a move (a squeezed one only where no full space
    around it fits)."""
    idx = s >> 3
    layer = (s >> 2) & 1
    if layer == 1 and not m.bg_stop[g, idx]:
        return False
    return bool(m.bw_stop[layer, idx])


@_jit
def reach_big(m: Any, st: Any, c: int, actions: int) -> None:
    """``_reach`` for a big mover: per anchor the feet of one move (``st.bc2``) and of a double move
    (``st.r2c``, with its state in ``st.r2s``), -1 where its full space cannot stop."""
    if st.t_n[3] >= actions:
        return
    _tturn._done(m, st)  # the planning search's paths share the big search's buffers: it is made again when needed
    _anchors(m, st, c)
    _keep_moves(m, st, c, actions)
    n = m.width * m.height
    fly = m.fly[c]
    # (the fields read once: a field read in the loop costs a reference count taken and given back)
    bc2, bs2, r2c, r2s, stop = st.bc2, st.bs2, st.r2c, st.r2s, m.bw_stop
    dist = m.bw_dist
    if fly:  # a flier's states per anchor are kept with its searches (``flymemo.anchor_states``)
        _from_states(dist, anchor_states(m, HEADINGS, False), bc2, bs2)
    else:
        for q in range(n):
            _from_state(dist, best_full(dist, stop, q, 1), bc2, bs2, q)
    r2c[:n] = -1
    r2s[:n] = -1
    if actions == 2:
        _keep_second(m, st, c)
        dist = m.bw_dist
        if fly:
            _from_states(dist, anchor_states(m, HEADINGS, False), r2c, r2s)
        else:
            for q in range(n):
                _from_state(dist, best_full(dist, stop, q, 1), r2c, r2s, q)
    st.t_n[3] = actions


@_jit
def _from_states(dist: Any, states: Any, cost: Any, state: Any) -> None:
    """Per anchor, the feet and the state of ``states`` (-1 and -1 where none)."""
    for q in range(states.shape[0]):
        _from_state(dist, states[q], cost, state, q)


@_jit
def _from_state(dist: Any, s: int, cost: Any, state: Any, q: int) -> None:
    """Anchor ``q``'s feet and state from state ``s`` of the search in ``dist`` (-1 and -1 where ``s`` is -1:
    ``reachable`` keeps none for it)."""
    state[q] = s
    cost[q] = dist[s] & _MASK if s >= 0 else -1


@_jit
def rcost_big(m: Any, st: Any, c: int, q: int, actions: int) -> tuple[int, int]:
    """``_rcost`` for a big mover (after :func:`reach_big`)."""
    if st.bc2[q] >= 0:
        return int(st.bc2[q]), 0 if q == st.pos[c] else 1
    if actions == 2 and st.r2c[q] >= 0:
        return int(st.r2c[q]), 2
    return -1, -1


@_jit
def _keep_moves(m: Any, st: Any, c: int, actions: int) -> None:
    """The one move and (``actions == 2``) the double move of ``c`` from where it stands, unmarked, kept for
    :func:`midpoint_big` (other searches of the turn reuse ``bw_dist``); after :func:`_anchors`. A flier's are
    the memory's entries, held there (``flymemo.pin``, their numbers in ``m.bw_kept[1]`` and ``[2]``); anyone
    else's (or a flier's with the memory off) are copied to ``m.bw_dist1``/``bw_parent1`` and
    ``bw_dist2``/``bw_parent2`` (the entry numbers then -1)."""
    _first_move(m, st, c)
    if actions == 2:
        _hold(m, c, 0)
        m.bw_kept[0] = -1


@_jit
def _keep_second(m: Any, st: Any, c: int) -> None:
    _second_move(m, st, c)
    _hold(m, c, 1)
    m.bw_kept[0] = c


@_jit
def _hold(m: Any, c: int, which: int) -> None:
    """Keeps the search just made or recalled for ``c`` as the double move's first (``which`` 0) or second."""
    e = last_entry(m) if m.fly[c] else -1
    m.bw_kept[1 + which] = e
    if e >= 0:
        pin(m, which, e)
    elif which == 0:
        m.bw_dist1[:] = m.bw_dist
        m.bw_parent1[:] = m.bw_parent
    else:
        m.bw_dist2[:] = m.bw_dist
        m.bw_parent2[:] = m.bw_parent


@_jit
def midpoint_big(m: Any, st: Any, me: int, goal: int, speed: int) -> int:
    """``_Turn._midpoint`` for a big mover: along the path of the double move to ``goal`` (the first move's
    steps, then the second's), the last anchor within one move's feet that one move reaches (not squeezed). The
    two searches are :func:`reach_big`'s of this look when it made them for ``me``, else made again."""
    if st.r2s[goal] < 0:
        return -1
    _tturn._done(m, st)
    if not (st.t_n[3] >= 2 and st.t_n[6] == me and m.bw_kept[0] == me):
        _anchors(m, st, me)
        _keep_moves(m, st, me, 2)
        _keep_second(m, st, me)
    e1, e2 = m.bw_kept[1], m.bw_kept[2]
    dist1 = m.fm_dist[e1] if e1 >= 0 else m.bw_dist1
    parent1 = m.fm_parent[e1] if e1 >= 0 else m.bw_parent1
    dist2 = m.fm_dist[e2] if e2 >= 0 else m.bw_dist2
    parent2 = m.fm_parent[e2] if e2 >= 0 else m.bw_parent2
    per = HEADINGS if m.fly[me] else 1  # a flier's states have headings (``bigtacmodes``)
    cap = 8 * per * m.width * m.height + 1
    states = np.empty(cap, dtype=np.int64)
    totals = np.empty(cap, dtype=np.int64)
    n = 0
    s = st.r2s[goal]
    while s >= 0:  # the second move, back to its seed
        states[n] = s
        totals[n] = dist2[s] & _MASK
        n += 1
        s = parent2[s]
    s = parent1[states[n - 1]]
    while s >= 0:  # the first move, back to the start
        states[n] = s
        totals[n] = dist1[s] & _MASK
        n += 1
        s = parent1[s]
    here = st.pos[me]
    bc2 = st.bc2
    mid = -1
    for i in range(n - 2, -1, -1):  # forward, the start left out
        if totals[i] > speed:
            break
        q = (states[i] // per) >> 3
        if q != here and bc2[q] >= 0:
            mid = int(q)
    return mid


@_jit
def guarded_steps_big(m: Any, st: Any, me: int, out_from: int) -> int:
    """``guarded_step_squares`` for a big mover: the anchors one step of its full space (5 ft) reaches where it
    may stop, in (x, y) order, into ``st.cand[out_from:]``; the new end."""
    w = m.width
    g = m.bg[me]
    here = st.pos[me]
    par = st.sc[DIAG] & 1
    _anchors(m, st, me)
    found = np.empty(8, dtype=np.int64)
    nf = 0
    for d in range(8):
        q = m.bg_step_to[g, 0, here, d]
        if q < 0 or not m.bw_pass[0, q] or not m.bw_stop[0, q]:
            continue
        cost, _ = step_cost(int(m.bg_step_k[g, 0, here, d]) + int(m.bw_k[0, q]), m.step_diag[d], par, False)
        if cost <= 5:
            found[nf] = (q % w) * 100_000 + q // w
            nf += 1
    keys = np.sort(found[:nf])
    n = out_from
    for j in range(nf):
        st.cand[n] = (keys[j] % 100_000) * w + keys[j] // 100_000
        n += 1
    return n


@_jit
def provokers_big(m: Any, st: Any, me: int, sq: int) -> tuple[int, float]:
    """``_provokers`` for a big mover: on the path of its planning search, each space it leaves while a foe that
    could react threatens a square of it."""
    _tturn._search_a(m, st, me)
    n = 0
    total = 0.0
    squares, leaving, sides = _big.path_big(m, st, me, sq)
    if squares.shape[0] == 0:
        for i in range(st.t_n[2]):
            total += _tplaces._aoo_one(m, st, st.t_zones[i], me)
        return st.t_n[2], total
    for li in range(leaving.shape[0]):
        q = squares[leaving[li]]
        s = sides[leaving[li]]
        for r in range(m.n):  # by id, as the provocations are sorted
            for i in range(st.t_n[5]):
                e = st.threat_ids[i]
                if m.rank[e] == r and _big.threat_space(m, st, e, m.zone[e], q, s):
                    n += 1
                    total += _tplaces._aoo_one(m, st, e, me)
    return n, total


# ---------------------------------------------------------------- grenades
@_jit
def grenade_from(m: Any, st: Any, me: int, sq: int) -> tuple[bool, float, int, int]:
    """``_Turn.grenade_from`` between spaces: (found, value, weapon, point) of the best throw from ``sq``."""
    w = m.width
    found = False
    best_v, best_k, best_p = 0.0, -1, -1
    nf = st.t_n[0]
    points = np.empty(9 * nf + 1, dtype=np.int64)
    for k in range(m.w_ok.shape[1]):
        if not (m.w_ok[me, k] and m.w_grenade[me, k]) or st.ammo[me, k] < 1:
            continue
        npts = 0
        for i in range(nf):
            e = st.t_foes[i]
            q = st.pos[e]
            span = 3 if m.fside[e] > 1 else 2
            for dx in range(span):
                for dy in range(span):
                    points[npts] = (q % w + dx) * (m.height + 1) + q // w + dy
                    npts += 1
        pts = np.sort(points[:npts])
        r = m.w_bidx[me, k]
        for j in range(npts):
            if j > 0 and pts[j] == pts[j - 1]:
                continue
            px, py = pts[j] // (m.height + 1), pts[j] % (m.height + 1)
            if px > w or py > m.height:
                continue
            p = py * (w + 1) + px
            dist = fp_distance_to_point_ft(sq, m.fside[me], p, w)
            if dist > m.w_top_ft[me, k]:
                continue
            hit = 0
            for i in range(nf):
                if _burst_hits(m, st, r, p, st.t_foes[i]):
                    hit += 1
            if hit < 2 or _burst_has(m, r, p, sq):
                continue
            friend = False
            for a in range(m.n):
                if a != me and m.side[a] == m.side[me] and _burst_hits(m, st, r, p, a):
                    friend = True
                    break
            if friend:
                continue
            p_land = m.g_land[me, k, dist // 5, st.body[me, _sqz.SQUEEZED]]
            value = 0.0
            for i in range(nf):
                e = st.t_foes[i]
                if not _burst_hits(m, st, r, p, e):
                    continue
                p_half = m.g_half[me, k, e, st.body[e, _sqz.SQUEEZED]]
                if m.g_mode[me, k, 1] == ON_NEGATES:  # a success keeps it all off (SV-09)
                    v = _tplaces._grenade_value(m, st, me, k, e, p_land * (1 - p_half), 0.0)
                else:
                    v = _tplaces._grenade_value(m, st, me, k, e, p_land, p_half)
                value += v + _tplaces._rider_value(m, st, me, k, e, p_land * (1 - p_half))
            if not found or value > best_v:
                found = True
                best_v, best_k, best_p = value, k, p
    return found, best_v, best_k, best_p


# ---------------------------------------------------------------- the charge
@_jit
def _clear_line_fp(m: Any, st: Any, me: int, goal: int) -> bool:
    """``movement.clear_line`` for ``me``'s space: every square the space covers along the straight line from its
    centre to ``goal``'s is free of walls, obstacles, difficult terrain and creatures (helpless ones excepted)."""
    w = m.width
    here = st.pos[me]
    side = m.fside[me]
    half = side / 2
    mx, my = here % w, here // w
    x0, y0 = mx + half, my + half
    x1, y1 = goal % w + half, goal // w + half
    n = int(max(abs(x1 - x0), abs(y1 - y0)) * 8) + 1
    for i in range(n + 1):
        t = i / n
        cx = x0 + (x1 - x0) * t
        cy = y0 + (y1 - y0) * t
        for sx in range(int(cx - half + 1e-9), int(cx + half - 1e-9) + 1):
            for sy in range(int(cy - half + 1e-9), int(cy + half - 1e-9) + 1):
                if mx <= sx < mx + side and my <= sy < my + side:
                    continue
                if sx < 0 or sy < 0 or sx >= w or sy >= m.height or m.charge_block[sy * w + sx]:
                    return False
                for o in range(m.n):
                    if o == me or st.dead[o] or _down_now(st, o):
                        continue
                    po, so = st.pos[o], m.fside[o]
                    if po % w <= sx < po % w + so and po // w <= sy < po // w + so:
                        return False
    return True


@_jit
def charge_goal_fp(m: Any, st: Any, me: int, t: int, k: int) -> int:
    """``_charge``'s goal between spaces (after its checks of the actor and the target): the nearest space from
    which ``k`` reaches ``t``'s space by how far the actor's space moves (then the one most directly toward it,
    then the lowest x, y), 10 ft to twice the speed away in a clear straight line; -1 when there is none."""
    w, h = m.width, m.height
    here = st.pos[me]
    sm = m.fside[me]
    pt, stt = st.pos[t], m.fside[t]
    reach = m.w_reach[me, k]
    if fp_reaches(here, sm, pt, stt, w, reach):
        return -1  # it can already attack
    if m.fp_sqz[sm, here]:
        return -1  # no charge while squeezing (MOV-19: the engine refuses it)
    r = max(2, reach // 5) + sm - 1
    tx, ty, mx, my = pt % w, pt // w, here % w, here // w
    ax = 2 * tx + stt - 2 * mx - sm  # twice the offsets between the centres (``attack_squares``' key)
    ay = 2 * ty + stt - 2 * my - sm
    goal = -1
    g0, g1, g2, g3 = 0, 0, 0, 0
    for qx in range(max(0, tx - r), min(w, tx + stt + r)):
        for qy in range(max(0, ty - r), min(h, ty + stt + r)):
            if qx + sm > w or qy + sm > h:
                continue
            q = qy * w + qx
            if not fp_reaches(q, sm, pt, stt, w, reach):
                continue
            off = abs(ax * (qy - my) - ay * (qx - mx))
            key = (distance_ft(here, q, w), off, qx, qy)  # geometry.space_shift_ft: the anchor's shift
            if goal < 0 or key < (g0, g1, g2, g3):
                goal, g0, g1, g2, g3 = q, key[0], key[1], key[2], key[3]
    if goal < 0:
        return -1
    straight = distance_ft(here, goal, w)
    if straight < 10 or straight > 2 * m.speed[me] or not _clear_line_fp(m, st, me, goal):
        return -1
    return goal
