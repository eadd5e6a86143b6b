"""The squares the tactical policy weighs (:mod:`~sftactics.sim.kernel.tactics`): candidate squares ranked roughly
and the best examined exactly, guarded steps and the safest withdrawal; the side's position (hopeless, retreat);
and first aid for a dying ally who cannot stabilize on its own (INJ-09)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sftactics.sim import kernel as _kernel
from sftactics.sim.kernel.bodies import LINGER
from sftactics.sim.kernel.books import ENDED, FRESH, MOVE, ROUND, STD, _can, _die, _log, _out, _spend, _staggered
from sftactics.sim.kernel.flow import _check_end
from sftactics.sim.kernel.geo import _jit
from sftactics.sim.kernel.injury import _track
from sftactics.sim.kernel.movement import _clear, _move, _occupancy, _prepare_move
from sftactics.sim.kernel.tacplaces import (
    _aoo_path,
    _cover_hint,
    _nearest_foe_ft,
    _provokers,
    _risk_cost,
    _threatened_count,
)
from sftactics.sim.kernel.tacturn import (
    C_GSTEP,
    C_MOVE,
    C_NONE,
    CANDIDATES,
    HOPELESS,
    _box,
    _done,
    _dpr,
    _guarded,
    _pool,
    _rcost,
    _reach,
    _search_a,
    _threat,
)


# ---------------------------------------------------------------- candidate squares
@_jit
def _flank_hint(m: Any, st: Any, sq: int) -> int:
    n = 0
    for i in range(st.t_n[0]):
        t = st.t_foes[i]
        if _kernel.bigtactics.dist_at(m, st, st.t_n[6], sq, t) > 5:
            continue
        for f in range(st.t_n[1]):
            if _kernel.bigtactics.flanks_at(m, st, st.t_n[6], sq, st.t_friends[f], t):
                n += 1
                break
    return n


@_jit
def _zoned(m: Any, st: Any, sq: int) -> bool:
    return _threatened_count(m, st, sq) > 0


@_jit
def _pick(keys: Any, n: int, limit: int, out: Any) -> int:
    """Indexes of the ``limit`` smallest rows of ``keys[:n]`` (compared as tuples, in order; equal rows in the
    order of their indexes) into ``out``, smallest first; their count. (One pass, each row put in its place among
    the smallest so far: a pass per pick had cost about 3% of a fight.)"""
    k = min(limit, n)
    got = 0
    for j in range(n):
        if got == k:
            if not _row_less(keys, j, out[got - 1]):
                continue  # not below the largest kept (an equal one came first)
            pos = got - 1
        else:
            pos = got
            got += 1
        while pos > 0 and _row_less(keys, j, out[pos - 1]):
            out[pos] = out[pos - 1]
            pos -= 1
        out[pos] = j
    return got


@_jit
def _row_less(keys: Any, a: int, b: int) -> bool:
    """Row ``a`` of ``keys`` before row ``b``, compared as tuples."""
    for c in range(keys.shape[1]):
        if keys[a, c] < keys[b, c]:
            return True
        if keys[a, c] > keys[b, c]:
            return False
    return False


@_jit
def _candidates(m: Any, st: Any, me: int) -> int:
    """``_Turn.candidates``: squares of one move worth examining for a move and an attack, into ``st.cand``."""
    _search_a(m, st, me)
    w = m.width
    here = st.pos[me]
    speed = m.speed[me]
    x0, x1, y0, y1 = _box(m, st, me, speed)
    has_melee, has_ranged = False, False
    reach, top = 0, 0
    for k in range(m.w_ok.shape[1]):
        if not (m.w_ok[me, k] and m.w_attack[me, k]):
            continue
        if m.w_melee_geom[me, k]:
            if not has_melee or m.w_reach[me, k] > reach:
                reach = m.w_reach[me, k]
            has_melee = True
        else:
            if not has_ranged or m.w_range_ft[me, k] > top:
                top = m.w_range_ft[me, k]
            has_ranged = True
    picked = 0
    if has_melee:
        n = 0
        for qx in range(x0, x1):
            for qy in range(y0, y1):
                q = qy * w + qx
                cost = st.best_cost[q]
                if cost <= 0 or cost > speed or q == here:
                    continue
                if _nearest_foe_ft(m, st, q, 999) <= reach:
                    st.keys[n, 0] = -_flank_hint(m, st, q)
                    st.keys[n, 1] = cost
                    st.keys[n, 2] = qx
                    st.keys[n, 3] = qy
                    st.keys[n, 4] = 0
                    st.sqs[n] = q
                    n += 1
        got = _pick(st.keys, n, 2 * int(m.tw[CANDIDATES]), st.idx)
        for j in range(got):
            st.cand[picked] = st.sqs[st.idx[j]]
            picked += 1
    if has_ranged:
        n = 0
        for qx in range(x0, x1):
            for qy in range(y0, y1):
                q = qy * w + qx
                cost = st.best_cost[q]
                if cost <= 0 or cost > speed or q == here:
                    continue
                d = _nearest_foe_ft(m, st, q, 999)
                if d > 10 * top:
                    continue
                st.keys[n, 0] = -(0 if _zoned(m, st, q) else 1)
                st.keys[n, 1] = -_cover_hint(m, st, q)
                st.keys[n, 2] = 1 if d > top else 0
                st.keys[n, 3] = cost
                st.keys[n, 4] = qx * 10_000 + qy
                st.sqs[n] = q
                n += 1
        got = _pick(st.keys, n, int(m.tw[CANDIDATES]), st.idx)
        for j in range(got):
            q = st.sqs[st.idx[j]]
            dup = False
            for i in range(picked):
                if st.cand[i] == q:
                    dup = True
            if not dup:
                st.cand[picked] = q
                picked += 1
    return picked


@_jit
def _guarded_steps(m: Any, st: Any, me: int, out_from: int) -> int:
    """Squares a guarded step reaches, in (x, y) order, into ``st.cand[out_from:]``; the new end."""
    if m.fside[me] > 1:
        return _kernel.bigtactics.guarded_steps_big(m, st, me, out_from)
    w = m.width
    here = st.pos[me]
    n = out_from
    _occupancy(m, st, me)
    for qx in range(max(0, here % w - 1), min(w, here % w + 2)):
        for qy in range(max(0, here // w - 1), min(m.height, here // w + 2)):
            q = qy * w + qx
            if q != here and _guarded(m, st, me, q):
                st.cand[n] = q
                n += 1
    _clear(m, st)
    return n


@_jit
def _drift(m: Any, st: Any, me: int, sq: int) -> float:
    """A small cost for ending out of range of every foe."""
    top = -1
    for k in range(m.w_ok.shape[1]):
        if m.w_ok[me, k] and m.w_attack[me, k]:
            r = 5 if m.w_melee_geom[me, k] else m.w_range_ft[me, k]
            top = max(top, r)
    if top < 0:
        return 0.0
    d = _nearest_foe_ft(m, st, sq, 0)
    return 0.0 if d <= top else 0.05 * _threat(m, st, me, me)


@_jit
def _shortlist_keys(m: Any, st: Any, me: int, sq: int, cost: int, row: int) -> None:
    w = m.width
    reached = 0
    for i in range(st.t_n[0]):
        e = st.t_foes[i]
        for k in range(m.w_ok.shape[1]):
            melee = m.w_ok[e, k] and m.w_attack[e, k] and m.w_melee_geom[e, k]
            if melee and _kernel.bigtactics.dist_at(m, st, me, sq, e) <= m.w_reach[e, k] + 30:
                reached += 1
    st.keys[row, 0] = (1 if _zoned(m, st, sq) else 0) + reached
    st.keys[row, 1] = -_cover_hint(m, st, sq)
    st.keys[row, 2] = _nearest_foe_ft(m, st, sq, 0)
    st.keys[row, 3] = cost
    st.keys[row, 4] = (sq % w) * 10_000 + sq // w


@_jit
def _ranked_best(m: Any, st: Any, me: int, n: int, with_path: bool, start_cost: float, strict: bool) -> int:
    """Of the squares ``st.sqs[:n]`` (costs in ``st.costs``): the shortlist of 12, ranked by rough risk and drift,
    the best three examined exactly; the first whose exact cost beats ``start_cost`` by more than a hair
    (``strict``) or the cheapest; -1 if none."""
    got = _pick(st.keys, n, 12, st.idx)
    for j in range(got):
        q = st.sqs[st.idx[j]]
        st.fkeys[j, 0] = _risk_cost(m, st, me, q, False) + _drift(m, st, me, q)
        st.fkeys[j, 1] = st.costs[st.idx[j]]
        st.fkeys[j, 2] = (q % m.width) * 10_000 + q // m.width
        st.sqs2[j] = q
    best = -1
    best_cost = start_cost
    first = True
    order = np.empty(3, dtype=np.int64)
    k = _pick(st.fkeys, got, 3, order)
    for j in range(k):
        q = st.sqs2[order[j]]
        c = _risk_cost(m, st, me, q, True)
        if with_path:
            c += _aoo_path(m, st, me, q)
        c += _drift(m, st, me, q)
        if strict:
            if c < best_cost - 1e-9:
                best_cost, best = c, q
        elif first or c < best_cost:
            best_cost, best = c, q
            first = False
    return best


@_jit
def _safest_step(m: Any, st: Any, me: int) -> tuple[int, int]:
    """``_Turn.safest_step``: (command, square) of the move after attacking, or (C_NONE, -1)."""
    here = st.pos[me]
    best_cost = _risk_cost(m, st, me, here, True)
    if _zoned(m, st, here):
        n = _guarded_steps(m, st, me, 0)
        for j in range(n):
            q = st.cand[j]
            st.fkeys[j, 0] = _risk_cost(m, st, me, q, False)
            st.fkeys[j, 1] = (q % m.width) * 10_000 + q // m.width
            st.fkeys[j, 2] = 0
            st.sqs2[j] = q
        order = np.empty(3, dtype=np.int64)
        k = _pick(st.fkeys, n, 3, order)
        best = -1
        for j in range(k):
            q = st.sqs2[order[j]]
            c = _risk_cost(m, st, me, q, True)
            if c < best_cost - 1e-9:
                best_cost, best = c, q
        return (C_GSTEP, best) if best >= 0 else (C_NONE, -1)
    _search_a(m, st, me)
    speed = m.speed[me]
    x0, x1, y0, y1 = _box(m, st, me, speed)
    n = 0
    for qx in range(x0, x1):
        for qy in range(y0, y1):
            q = qy * m.width + qx
            cost = st.best_cost[q]
            if cost <= 0 or cost > speed or q == here:
                continue
            _shortlist_keys(m, st, me, q, cost, n)
            st.sqs[n] = q
            st.costs[n] = cost
            n += 1
    best = _ranked_best(m, st, me, n, True, best_cost, True)
    return (C_MOVE, best) if best >= 0 else (C_NONE, -1)


@_jit
def _safest_withdraw(m: Any, st: Any, me: int) -> int:
    speed = m.speed[me]
    _reach(m, st, me, 2)
    here = st.pos[me]
    x0, x1, y0, y1 = _box(m, st, me, 2 * speed)
    n = 0
    for qx in range(x0, x1):
        for qy in range(y0, y1):
            q = qy * m.width + qx
            cost, _ = _rcost(m, st, me, q, 2)
            if cost < 0 or cost > 2 * speed or q == here:
                continue
            _shortlist_keys(m, st, me, q, cost, n)
            st.sqs[n] = q
            st.costs[n] = cost
            n += 1
    return _ranked_best(m, st, me, n, False, 0.0, False)


# ---------------------------------------------------------------- the side
@_jit
def _hopeless(m: Any, st: Any, me: int) -> bool:
    """``_Turn.hopeless``."""
    side = m.side[me]
    nm = 0
    everyone = 0
    for a in range(m.n):
        if m.side[a] == side:
            everyone += 1
            if not _out(st, a):
                st.t_tmp[nm] = a
                nm += 1
    nf = st.t_n[0]
    if nm == 0 or nf == 0:
        return False
    lost = everyone - nm
    hurt = 2 * _pool(st, me) < m.stat_pool[me]
    if not (2 * lost >= everyone or (lost > 0 and hurt)):
        return False
    our_dpr = 0.0
    for i in range(nm):
        our_dpr += _dpr(m, st, st.t_tmp[i], st.t_foes, nf)
    their_dpr = 0.0
    for i in range(nf):
        their_dpr += _dpr(m, st, st.t_foes[i], st.t_tmp, nm)
    our_pool = 0
    for i in range(nm):
        our_pool += _pool(st, st.t_tmp[i])
    their_pool = 0
    for i in range(nf):
        their_pool += _pool(st, st.t_foes[i])
    if their_dpr <= 0:
        return False
    t_us = their_pool / max(our_dpr, 0.01)
    t_them = our_pool / their_dpr
    return bool(t_us > m.tw[HOPELESS] * t_them)


@_jit
def _retreat(m: Any, st: Any, me: int) -> bool:
    """``TacticalPolicy._retreat``: withdraw (or move) to the square farthest from the foes."""
    full = _can_full(m, st, me)
    if not full and not _can(m, st, me, 1):
        return False  # no move left: the engine's Move is refused (its retreat fails, the creature fights on)
    speed = m.speed[me]
    limit = 2 * speed if full else speed
    actions = 2 if full else 1
    _reach(m, st, me, actions)
    here = st.pos[me]
    x0, x1, y0, y1 = _box(m, st, me, limit)
    best, bn, bc = -1, 0, 0
    for qx in range(x0, x1):
        for qy in range(y0, y1):
            q = qy * m.width + qx
            cost, _ = _rcost(m, st, me, q, actions)
            if cost < 0 or cost > limit:
                continue
            near = _nearest_foe_ft(m, st, q, 0)
            if best < 0 or (int(near), -int(cost)) > (int(bn), -int(bc)):
                best, bn, bc = q, near, cost
    if best < 0 or bn <= _nearest_foe_ft(m, st, here, 0):
        return False
    _done(m, st)
    if full:
        nthreat = _prepare_move(m, st, me, 2, True)
        _move(m, st, me, best, nthreat, True)
    elif bc <= speed:
        nthreat = _prepare_move(m, st, me)
        _move(m, st, me, best, nthreat)
    else:
        return False
    st.sc[FRESH] = 0
    _check_end(m, st)
    return True


@_jit
def _can_full(m: Any, st: Any, c: int) -> bool:
    return not st.sc[STD] and not st.sc[MOVE] and not _staggered(st, c) and st.sc[ROUND] != 0  # (CF-09)


@_jit
def _move_then_standard(m: Any, st: Any, c: int) -> bool:
    return _can_full(m, st, c)


# ---------------------------------------------------------------- first aid
@_jit
def _first_aid(m: Any, st: Any, me: int) -> bool:
    """``TacticalPolicy._first_aid``: a dying ally who cannot stabilize on its own gets a Medicine check
    (DC 15, INJ-09), after a move to its side that provokes nothing if needed."""
    if m.medicine[me] <= -10_000 or not _can(m, st, me, 0):
        return False
    w = m.width
    for a in range(m.n):
        if a == me or m.side[a] != m.side[me] or not st.dying[a] or st.dead[a]:
            continue
        if st.rp[a] >= m.stab_cost[a]:
            continue
        if _kernel.bigtactics.dist_pair(m, st, me, a) <= 5:
            _done(m, st)
            _aid(m, st, me, a)
            return True
        if not _move_then_standard(m, st, me):
            continue
        _search_a(m, st, me)
        speed = m.speed[me]
        x0, x1, y0, y1 = _box(m, st, me, speed)
        n = 0
        for qx in range(x0, x1):
            for qy in range(y0, y1):
                q = qy * w + qx
                cost = st.best_cost[q]
                if cost <= 0 or cost > speed or _kernel.bigtactics.dist_at(m, st, me, q, a) > 5:
                    continue
                st.keys[n, 0] = cost
                st.keys[n, 1] = qx
                st.keys[n, 2] = qy
                st.keys[n, 3] = 0
                st.keys[n, 4] = 0
                st.sqs[n] = q
                n += 1
        got = _pick(st.keys, n, 4, st.idx)
        for j in range(got):
            q = st.sqs[st.idx[j]]
            if _provokers(m, st, me, q)[0] == 0:
                _done(m, st)
                nthreat = _prepare_move(m, st, me)
                _move(m, st, me, q, nthreat)
                st.sc[FRESH] = 0
                _check_end(m, st)
                if st.sc[ENDED] or _out(st, me):
                    return True
                _aid(m, st, me, a)
                return True
    return False


@_jit
def _aid(m: Any, st: Any, me: int, a: int) -> None:
    _spend(st, 0)
    st.sc[FRESH] = 0
    d = _die(st, 20)
    ok = d + m.medicine[me] >= 15
    _log(st.log, st.nlog, 6, st.sc[ROUND], a, 3, d, d + m.medicine[me], 15, int(ok))
    if ok:
        st.dying[a] = False
        st.stable[a] = True
        st.body[a, LINGER] = 0  # stabilized: no longer lingering (INJ-07)
        _track(st, a, -1, -1)
