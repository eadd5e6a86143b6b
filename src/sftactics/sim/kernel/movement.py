"""Movement in the compiled fight (MOV-*, AOO-06..12): occupancy of the squares, the search with provoking squares
marked (one search serves the choice of a square and the path with the fewest provocations), the simple
policy's approach, and the move itself with the attacks of opportunity it provokes."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.sim.kernel import bigfight as _big
from sftactics.sim.kernel import setup as _setup
from sftactics.sim.kernel.attacks import _aoo, _can_take_aoo
from sftactics.sim.kernel.books import DIAG, MOVE, ROUND, STD, _down_now, _in_zone, _log, _out, _sight_refresh, _spend
from sftactics.sim.kernel.geo import _count_ft, _jit, distance_ft, flank_line
from sftactics.sim.kernel.modes import path_for, search_for


# ---------------------------------------------------------------- movement
@_jit
def _occupancy(m: Any, st: Any, c: int, charging: bool = False) -> None:
    """``movement.occupants`` as the search's arrays (set for the others' squares; :func:`_clear` undoes).
    ``charging``: no passing through allies either (MOV-13). A creature smaller than a square enters and shares
    any square (MOV-03: ``grid.movement``'s occupancy for a sub-square mover)."""
    if m.sub[c]:
        return
    for o in range(m.n):
        if o == c or st.dead[o]:
            continue
        q = st.pos[o]
        if _down_now(st, o):  # helpless: pass and stop
            continue
        if m.fside[o] > 1:  # every square of a big creature's space
            _big.occupy(m, st, o, False, not (m.side[o] != m.side[c] or charging))
            continue
        st.stoppable[q] = False
        if m.side[o] != m.side[c] or charging:
            st.passable[q] = False


@_jit
def _clear(m: Any, st: Any) -> None:
    for o in range(m.n):
        q = st.pos[o]
        if m.fside[o] > 1:
            _big.occupy(m, st, o, True, True)
            continue
        st.stoppable[q] = True
        st.passable[q] = True


@_jit
def _search(m: Any, st: Any, c: int, goal: int, budget: int) -> None:
    search_for(m, c, st.pos[c], st.sc[DIAG] & 1, budget, st.passable, st.stoppable, st.extra_k, st.provoking,
               goal, st.dist, st.parent, st.heap, st.best_cost, st.best_prov, st.best_state, m.width)  # fmt: skip


@_jit
def _approach(m: Any, st: Any, c: int, t: int) -> int:
    """``SimplePolicy._approach``: the square of one move nearest to ``t`` (flanking it if possible, then the
    cheapest, then the lowest x, y); -1 if none is nearer than where it stands. Reads the search of
    :func:`_prepare_move`."""
    if m.big:
        return _big.approach_fp(m, st, c, t)
    w = m.width
    pt = st.pos[t]
    here = distance_ft(st.pos[c], pt, w)
    nm = 0
    for a in range(m.n):
        if a != c and m.side[a] == m.side[c] and not _out(st, a) and distance_ft(st.pos[a], pt, w) <= 5:
            st.mates[nm] = st.pos[a]
            nm += 1
    best = -1
    bd, bf, bc, bx, by = 0, 0, 0, 0, 0
    # one move reaches at most speed / 5 squares away: look only there (in x, then y order as the full scan)
    r = m.speed[c] // 5
    cx, cy = st.pos[c] % w, st.pos[c] // w
    for qx in range(max(0, cx - r), min(w, cx + r + 1)):
        for qy in range(max(0, cy - r), min(m.height, cy + r + 1)):
            q = qy * w + qx
            cost = st.best_cost[q]
            if cost <= 0:
                continue
            if best >= 0 and _count_ft(qx - pt % w, qy - pt // w) > bd:
                continue  # farther than the best so far: it cannot win (distance comes first)
            best, bd, bf, bc, bx, by = _approach_pick(st, q, cost, pt, w, nm, best, bd, bf, bc, bx, by)
    if best < 0 or bd >= here:
        return -1
    return best


@_jit
def _approach_pick(st: Any, q: int, cost: int, pt: int, w: int, nm: int, best: int, bd: int, bf: int, bc: int,
                   bx: int, by: int) -> tuple[int, int, int, int, int, int]:  # fmt: skip
    """Keep ``q`` if it beats the best so far by (distance, not flanking, cost, x, y)."""
    d = distance_ft(q, pt, w)
    flanks = 1
    if d <= 5:
        for i in range(nm):
            if flank_line(q, st.mates[i], pt, w):
                flanks = 0
                break
    qx, qy = q % w, q // w
    if best < 0 or (d, flanks, cost, qx, qy) < (bd, bf, bc, bx, by):
        return q, d, flanks, cost, qx, qy
    return best, bd, bf, bc, bx, by


@_jit
def _prepare_move(m: Any, st: Any, c: int, actions: int = 1, exempt_start: bool = False, charging: bool = False) -> int:
    """The movement search from where ``c`` stands, with the squares it would provoke in leaving marked: the
    enemies that could react (``reactions.threats_against``) go to ``st.threat_ids`` (their count returned).
    Costs come first in the search's key, so one search serves both the choice of a square (``reachable``) and
    the path to it with the fewest provocations (``find_path``). :func:`_unmark` undoes the marks. ``actions``
    2: a budget of twice the speed (a withdrawal); ``exempt_start``: leaving the starting square provokes
    nothing (ACT-55); ``charging``: allies' squares may not be passed (MOV-13)."""
    nthreat = 0
    for e in range(m.n):
        if m.zone[e] >= 0 and _can_take_aoo(m, st, e, c):
            st.threat_ids[nthreat] = e
            nthreat += 1
    _mark(m, st, nthreat, True)  # the provoking squares: every square an able enemy that could react threatens
    _occupancy(m, st, c, charging)
    # The start is exempt as a space, as the engine's ``_exempt_start``: a big mover's full space at its anchor
    # (``bigfight.search_big``; a space squeezed onto the anchor, a path that begins by squeezing in place, still
    # provokes when left, ``movement._provocations``), a one-square mover's square (its only space; left so for
    # ``path_to``, and ``_unmark`` clears every marked square anyway).
    if m.fside[c] > 1:
        _big.search_big(m, st, c, actions * m.speed[c], charging, exempt_start)
    else:
        if exempt_start:
            st.provoking[st.pos[c]] = False
        _search(m, st, c, -1, actions * m.speed[c])
    _clear(m, st)
    return nthreat


@_jit
def _unmark(m: Any, st: Any, nthreat: int) -> None:
    _mark(m, st, nthreat, False)


@_jit
def _mark(m: Any, st: Any, nthreat: int, value: bool) -> None:
    """Set ``st.provoking`` to ``value`` on the squares the enemies in ``st.threat_ids`` threaten (unmarking
    before anyone moves clears exactly what marking set)."""
    w = m.width
    r = m.zone_radius
    for i in range(nthreat):
        e = st.threat_ids[i]
        if m.fside[e] > 1:
            _big.mark_big(m, st, e, value)
            continue
        pe = st.pos[e]
        ex, ey = pe % w, pe // w
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                x, y = ex + dx, ey + dy
                if 0 <= x < w and 0 <= y < m.height and _in_zone(m, m.zone[e], pe, y * w + x):
                    st.provoking[y * w + x] = value


@_jit
def _move(m: Any, st: Any, c: int, dest: int, nthreat: int, full: bool = False, refresh: bool = True) -> None:
    """``do_move`` after :func:`_prepare_move`: the path with the fewest provocations, attacks of opportunity
    where it leaves threatened squares (each enemy once), a mover that drops stays where it was. ``full``: the
    movement of a full action (a withdrawal). ``refresh``: the command ends with the move (who sees whom is
    looked at again; a trick attack's move leaves that to the end of its command, as a charge does)."""
    w = m.width
    if m.fside[c] > 1:
        squares, leaving, sides = _big.path_big(m, st, c, dest)
    else:
        squares, leaving = path_for(m, c, dest, st.best_state, st.parent, st.provoking)
        sides = squares[:0]  # one square throughout
    _unmark(m, st, nthreat)
    if squares.shape[0] == 0:
        return
    _setup.moved(m, st, c)  # a grappler that moves away lets go (MAN-07)
    if full:
        st.sc[STD] = 1
        st.sc[MOVE] = 1
    else:
        _spend(st, 1)
    _log(st.log, st.nlog, 3, st.sc[ROUND], c, squares[0], dest, st.best_cost[dest], 0, 0)
    done = 0
    for li in range(leaving.shape[0]):
        step = leaving[li]
        q = squares[step]
        # the enemies whose zone holds the square left, by id (sorted provocations)
        for _ in range(nthreat):
            pick = -1
            for i in range(nthreat):
                e = st.threat_ids[i]
                if e < 0:
                    continue
                if not (_big.threat_space(m, st, e, m.zone[e], q, sides[step] if sides.shape[0] else 1) if m.big
                        else _in_zone(m, m.zone[e], st.pos[e], q)):  # fmt: skip
                    continue
                if pick < 0 or m.rank[e] < m.rank[st.threat_ids[pick]]:
                    pick = i
            if pick < 0:
                break
            e = st.threat_ids[pick]
            st.threat_ids[pick] = -1 - e  # asked once per square; restored below
            if step > done:
                _walk(st, c, squares, done, step, w, sides)
                done = step
            _aoo(m, st, e, c)
            if _out(st, c):
                for i in range(nthreat):
                    if st.threat_ids[i] < 0:
                        st.threat_ids[i] = -1 - st.threat_ids[i]
                if not st.charging[c] and refresh:
                    _sight_refresh(m, st, c)
                return
        for i in range(nthreat):
            if st.threat_ids[i] < 0:
                st.threat_ids[i] = -1 - st.threat_ids[i]
    if done < squares.shape[0] - 1:
        _walk(st, c, squares, done, squares.shape[0] - 1, w, sides)
    if not st.charging[c] and refresh:  # a charge's command ends after its attack (tactics._charge refreshes then)
        _sight_refresh(m, st, c)


@_jit
def _walk(st: Any, c: int, squares: NDArray[np.int32], a: int, b: int, w: int,
          sides: NDArray[np.int32]) -> None:  # fmt: skip
    """Along ``squares`` from index ``a`` to ``b``: the diagonals counted (``sides``, for a big mover: a squeeze
    shift changes the side and is no step), the position."""
    for i in range(a, b):
        p, q = squares[i], squares[i + 1]
        if sides.shape[0] and sides[i] != sides[i + 1]:
            continue
        if p % w != q % w and p // w != q // w:
            st.sc[DIAG] += 1
    st.pos[c] = squares[b]
