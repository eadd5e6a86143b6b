"""Where the tactical policy stands (:mod:`~sftactics.sim.kernel.tactics`): the damage it expects at a square
(cover, range, melee reach), the attacks of opportunity a path or a shot provokes, and the attacks it can make
from a square (weapons loaded, in reach or range, grenades) with their values."""

from __future__ import annotations

from typing import Any

import numpy as np

from sftactics.sim import kernel as _kernel
from sftactics.sim.kernel import bigfight as _big
from sftactics.sim.kernel import bigsqueeze as _sqz
from sftactics.sim.kernel.blasts import ON_NEGATES, R_KIND, RIDER_BURNING, RIDER_NONE
from sftactics.sim.kernel.books import TSTAMP, _in_zone, _knows
from sftactics.sim.kernel.geo import _jit, alive, distance_ft, distance_to_point_ft
from sftactics.sim.kernel.grenades import _burst_has
from sftactics.sim.kernel.modes import path_for
from sftactics.sim.kernel.tacturn import (
    C_ATTACK,
    C_FULL,
    COVER,
    DANGER,
    EXACT,
    MELEE_FOCUS,
    RISK,
    _ac,
    _atk,
    _attack_value,
    _exact,
    _hp_value,
    _plain_mean,
    _pool,
    _search_a,
    _tab,
    _threat,
    _value,
)


# ---------------------------------------------------------------- positions
@_jit
def _covered_from(m: Any, sq: int, e_sq: int) -> bool:
    """A cover object or low obstacle next to ``sq`` on the side of ``e_sq`` (the cheap cover hint)."""
    w = m.width
    dx = e_sq % w - sq % w
    dy = e_sq // w - sq // w
    sx = 1 if dx > 0 else (-1 if dx < 0 else 0)
    sy = 1 if dy > 0 else (-1 if dy < 0 else 0)
    if sx == 0 and sy == 0:
        return False
    return bool(m.cover_side[sq] >> ((sx + 1) * 3 + sy + 1) & 1)


@_jit
def _cover_hint(m: Any, st: Any, sq: int) -> int:
    n = 0
    for i in range(st.t_n[0]):
        if _covered_from(m, sq, st.pos[st.t_foes[i]]):
            n += 1
    return n


@_jit
def _threatened_count(m: Any, st: Any, sq: int) -> int:
    """How many foes that could react threaten ``sq`` (``threatened_by``)."""
    n = 0
    for i in range(st.t_n[2]):
        e = st.t_zones[i]
        if _kernel.bigtactics.threat_at(m, st, e, sq, st.t_n[6]):
            n += 1
    return n


@_jit
def _aoo_one(m: Any, st: Any, e: int, me: int) -> float:
    best = 0.0
    first = True
    for k in range(m.w_ok.shape[1]):
        if m.w_ok[e, k] and m.w_attack[e, k] and m.w_aoo[e, k]:
            v = _plain_mean(m, st, e, me, k, 1)
            if first or v > best:
                best = v
                first = False
    return best


@_jit
def _aoo_here(m: Any, st: Any, me: int, sq: int) -> float:
    """``aoo_cost(threatened_by(sq))``."""
    total = 0.0
    for i in range(st.t_n[2]):
        e = st.t_zones[i]
        if _kernel.bigtactics.threat_at(m, st, e, sq, me):
            total += _aoo_one(m, st, e, me)
    return float(total * _hp_value(m, st, me) * m.tw[RISK])


@_jit
def _provokers(m: Any, st: Any, me: int, sq: int) -> tuple[int, float]:
    """``_Turn.provokers(sq)``: the attacks of opportunity a move to ``sq`` provokes on the engine's path (one
    move; each square left, its foes by id), as (how many, the sum of their expected damage with the foe's best
    melee weapon). With no path, every foe that could react counts."""
    if st.t_n[2] == 0:
        return 0, 0.0
    if m.fside[me] > 1:
        return _kernel.bigtactics.provokers_big(m, st, me, sq)
    _search_a(m, st, me)
    n = 0
    total = 0.0
    squares, leaving = path_for(m, me, sq, st.best_state, st.parent, st.provoking)
    if squares.shape[0] == 0:
        for i in range(st.t_n[2]):
            total += _aoo_one(m, st, st.t_zones[i], me)
        return st.t_n[2], total
    for li in range(leaving.shape[0]):
        q = squares[leaving[li]]
        for r in range(m.n):  # by id, as the provocations are sorted
            for i in range(st.t_n[5]):
                e = st.threat_ids[i]
                if m.rank[e] == r and (_big.threat_space(m, st, e, m.zone[e], q, 1) if m.big else
                                       _in_zone(m, m.zone[e], st.pos[e], q)):  # fmt: skip
                    n += 1
                    total += _aoo_one(m, st, e, me)
    return n, total


@_jit
def _aoo_path(m: Any, st: Any, me: int, sq: int) -> float:
    """``aoo_cost(provokers(sq))``."""
    return float(_provokers(m, st, me, sq)[1] * _hp_value(m, st, me) * m.tw[RISK])


@_jit
def _nearest_foe_ft(m: Any, st: Any, sq: int, default: int) -> int:
    if m.big:
        return _kernel.bigtactics.nearest_foe_ft(m, st, st.t_n[6], sq, default)
    d = default
    first = True
    for i in range(st.t_n[0]):
        x = distance_ft(sq, st.pos[st.t_foes[i]], m.width)
        if first or x < d:
            d = x
            first = False
    return d


@_jit
def _risk(m: Any, st: Any, me: int, sq: int, exact: bool) -> float:
    """``_Turn.risk``: expected damage the actor takes next round if it ends its turn on ``sq``."""
    row = 0 if exact else 1
    if st.rk_stamp[row, sq] == st.sc[TSTAMP]:
        return float(st.rk[row, sq])
    here = st.pos[me]
    st.pos[me] = sq
    n_side = 1 + st.t_n[1]
    total = 0.0
    for i in range(st.t_n[0]):
        e = st.t_foes[i]
        efp = st.pos[e]
        dist = _kernel.bigtactics.dist_at(m, st, me, sq, e)
        best = 0.0
        weight = 1.0 / n_side
        for k in range(m.w_ok.shape[1]):  # melee weapons (not thrown)
            if not (m.w_ok[e, k] and m.w_attack[e, k] and m.w_melee_geom[e, k]):
                continue
            reach = m.w_reach[e, k]
            single = _plain_mean(m, st, e, me, k, 1)
            full = 0.0 if m.w_unwieldy[e, k] else _plain_mean(m, st, e, me, k, 2)
            if dist <= reach:
                mean = max(single, full)
            elif dist <= m.speed[e] + reach:
                mean = single
            else:
                continue
            if mean > best:
                nearer = False
                for f in range(st.t_n[1]):
                    if _kernel.bigtactics.dist_pair(m, st, e, st.t_friends[f]) < dist:
                        nearer = True
                best = mean
                weight = m.tw[MELEE_FOCUS] if nearer else 1.0
        # ranged weapons, best first (by plain mean, then name)
        nr = 0
        for k in range(m.w_ok.shape[1]):
            if m.w_ok[e, k] and m.w_attack[e, k] and not m.w_melee_geom[e, k]:
                st.t_rw[nr] = k
                nr += 1
        for a in range(1, nr):
            j = a
            while j > 0:
                k1, k0 = st.t_rw[j], st.t_rw[j - 1]
                m1, m0 = _plain_mean(m, st, e, me, k1, 1), _plain_mean(m, st, e, me, k0, 1)
                if (-m1, float(m.w_rank[e, k1])) < (-m0, float(m.w_rank[e, k0])):
                    st.t_rw[j], st.t_rw[j - 1] = k0, k1
                    j -= 1
                else:
                    break
        for a in range(nr):
            k = st.t_rw[a]
            d5 = dist // 5
            if d5 >= m.w_range.shape[2] or m.w_range[e, k, d5] <= -10_000:
                continue
            if exact:
                ok, bonus, ac = _exact(m, st, e, k, me)
                if not ok:
                    break
            else:
                bonus = _atk(m, st, e, k, me) + m.w_range[e, k, d5]
                ac = _ac(m, st, e, k, me) + (m.cover_ac[COVER] if _covered_from(m, sq, efp) else 0)
            mean = _tab(m, st, e, k, me, bonus, ac, 1, exact)[2]  # the rough geometry has no miss chance
            if mean > best:
                best = mean
                weight = 1.0 / n_side
            if exact:
                break
        total += best * weight
    st.pos[me] = here
    st.rk[row, sq] = total
    st.rk_stamp[row, sq] = st.sc[TSTAMP]
    return total


@_jit
def _risk_cost(m: Any, st: Any, me: int, sq: int, exact: bool) -> float:
    r = _risk(m, st, me, sq, exact)
    cost = r * _hp_value(m, st, me) * m.tw[RISK]
    if m.pc[me]:
        pool = _pool(st, me)
        cost += m.tw[DANGER] * _threat(m, st, me, me) * max(0.0, r - 0.5 * pool) / pool
    return float(cost)


# ---------------------------------------------------------------- attacks from a square
@_jit
def _loaded(m: Any, st: Any, c: int, k: int, shots: int) -> bool:
    loaded = bool(m.w_cap[c, k] < 0 or st.ammo[c, k] >= m.w_usage[c, k] * shots)
    alive(m, st)
    return loaded


@_jit
def _in_reach_or_range(m: Any, st: Any, me: int, sq: int, t: int, k: int) -> bool:
    if m.w_melee_geom[me, k]:
        return _kernel.bigtactics.reaches_at(m, st, me, sq, t, m.w_reach[me, k])
    d5 = _kernel.bigtactics.dist_at(m, st, me, sq, t) // 5
    return bool(d5 < m.w_range.shape[2] and m.w_range[me, k, d5] > -10_000)


@_jit
def _values(
    m: Any, st: Any, me: int, t: int, k: int, bonus: int, ac: int, full: bool, out: int, placed: bool = False
) -> int:
    """``_Turn._values`` into the option buffers from ``out``; the new count. ``placed``: with the engine's
    geometry (its miss chance), not the rough one."""
    if _loaded(m, st, me, k, 1):
        st.o_v[out] = _attack_value(m, st, me, t, k, bonus, ac, 1, placed)
        st.o_c[out] = C_ATTACK
        st.o_t[out] = t
        st.o_k[out] = k
        out += 1
    if full and not m.w_unwieldy[me, k] and _loaded(m, st, me, k, 2):
        st.o_v[out] = _attack_value(m, st, me, t, k, bonus - 4, ac, 2, placed)
        st.o_c[out] = C_FULL
        st.o_t[out] = t
        st.o_k[out] = k
        out += 1
    return out


@_jit
def _attacks_from(m: Any, st: Any, me: int, sq: int, full: bool, exact: bool) -> int:
    """``_Turn.attacks_from``: the attacks the actor can make from ``sq`` into the option buffers (``o_*``);
    their count."""
    here = st.pos[me]
    st.pos[me] = sq
    nr = 0
    for i in range(st.t_n[0]):  # targets: the able foes the actor has located itself (``targets_for``)
        t = st.t_foes[i]
        if not _knows(m, st, me, t):
            continue
        pt = st.pos[t]
        for k in range(m.w_ok.shape[1]):
            if not (m.w_ok[me, k] and m.w_attack[me, k]) or not _in_reach_or_range(m, st, me, sq, t, k):
                continue
            if m.w_melee_geom[me, k]:
                flank = False
                for f in range(st.t_n[1]):
                    if _kernel.bigtactics.flanks_at(m, st, me, sq, st.t_friends[f], t):
                        flank = True
                        break
                bonus = _atk(m, st, me, k, t) + (m.flank_bonus if flank else 0)
                ac = _ac(m, st, me, k, t)
            else:
                bonus = _atk(m, st, me, k, t) + m.w_range[me, k, _kernel.bigtactics.dist_at(m, st, me, sq, t) // 5]
                ac = _ac(m, st, me, k, t) + (m.cover_ac[COVER] if _covered_from(m, pt, sq) else 0)
            n = _values(m, st, me, t, k, bonus, ac, full, 0)
            if n == 0:
                continue
            best = st.o_v[0]
            for j in range(1, n):
                if st.o_v[j] > best:
                    best = st.o_v[j]
            st.r_v[nr] = best
            st.r_t[nr] = t
            st.r_k[nr] = k
            st.r_b[nr] = bonus
            st.r_a[nr] = ac
            nr += 1
    if exact:
        # the most promising pairs (value, then target id, then weapon name), with the kernel's geometry
        chosen = 0
        limit = int(m.tw[EXACT])
        for _ in range(min(limit, nr)):
            pick = -1
            for j in range(nr):
                if st.r_t[j] < 0:
                    continue
                key = (-st.r_v[j], float(m.rank[st.r_t[j]]), float(m.w_rank[me, st.r_k[j]]))
                if pick < 0 or key < (-st.r_v[pick], float(m.rank[st.r_t[pick]]), float(m.w_rank[me, st.r_k[pick]])):
                    pick = j
            t, k = st.r_t[pick], st.r_k[pick]
            st.r_t[pick] = -1 - t
            ok, bonus, ac = _exact(m, st, me, k, t)
            if ok:
                st.x_t[chosen] = t
                st.x_k[chosen] = k
                st.x_b[chosen] = bonus
                st.x_a[chosen] = ac
                chosen += 1
        out = 0
        for j in range(chosen):
            out = _values(m, st, me, st.x_t[j], st.x_k[j], st.x_b[j], st.x_a[j], full, out, True)
    else:
        for j in range(nr):
            st.x_t[j] = st.r_t[j]
            st.x_k[j] = st.r_k[j]
            st.x_b[j] = st.r_b[j]
            st.x_a[j] = st.r_a[j]
        out = 0
        for j in range(nr):
            out = _values(m, st, me, st.x_t[j], st.x_k[j], st.x_b[j], st.x_a[j], full, out)
    st.pos[me] = here
    return out


@_jit
def _round_half_even(x: float) -> int:
    f = np.floor(x)
    d = x - f
    r = int(f)
    if d > 0.5 or (d == 0.5 and r % 2 == 1):
        r += 1
    return r


@_jit
def _grenade_value(m: Any, st: Any, me: int, k: int, e: int, p_land: float, p_half: float) -> float:
    """``attack_value`` of ``odds.flat_table``'s mixture: full damage, halved, or none."""
    w1 = _round_half_even(1000 * p_land * (1 - p_half))
    w2 = _round_half_even(1000 * p_land * p_half)
    w3 = 1000 - w1 - w2
    off, ln, den = m.g_off[me, k, e], m.g_len[me, k, e], m.g_den[me, k, e]
    total_den = 1000 * den
    hit = 0.0
    for j in range(ln):
        v = m.g_val[off + j]
        num = w1 * m.g_nf[off + j] + w2 * m.g_nh[off + j] + (w3 * den if v == 0 else 0)
        st.g_v[j] = v
        st.g_p[j] = num / total_den
        if v > 0:
            hit += st.g_p[j]
    return _value(m, st, me, e, st.g_v, st.g_p, 0, ln, hit)


@_jit
def _rider_value(m: Any, st: Any, me: int, k: int, e: int, p: float) -> float:
    """``choices.rider_value``: the riders of grenade ``k`` on foe ``e``, who gets them with chance ``p``."""
    value = 0.0
    for r in range(m.g_rider.shape[2]):
        kind = m.g_rider[me, k, r, R_KIND]
        if kind == RIDER_NONE:
            break
        if kind == RIDER_BURNING:
            pool = _pool(st, e)
            value += p * _threat(m, st, me, e) * min(1.0, m.g_rval[me, k, r, 1] / pool)
        else:
            value += p * m.g_rval[me, k, r, 0] * m.g_rval[me, k, r, 1] * _threat(m, st, me, e)
    return value


@_jit
def _grenade_from(m: Any, st: Any, me: int, sq: int) -> tuple[bool, float, int, int]:
    """``_Turn.grenade_from``: (found, value, weapon, point) of the best throw from ``sq``."""
    if m.big:
        return _kernel.bigtactics.grenade_from(m, st, me, sq)
    w = m.width
    found = False
    best_v, best_k, best_p = 0.0, -1, -1
    nf = st.t_n[0]
    for k in range(m.w_ok.shape[1]):
        if not (m.w_ok[me, k] and m.w_grenade[me, k]) or st.ammo[me, k] < 1:
            continue
        npts = 0
        for i in range(nf):
            q = st.pos[st.t_foes[i]]
            for dx in range(2):
                for dy in range(2):
                    st.points[npts] = (q % w + dx) * (m.height + 1) + q // w + dy
                    npts += 1
        pts = st.points[:npts]
        pts.sort()
        r = m.w_bidx[me, k]
        for j in range(npts):
            if j > 0 and pts[j] == pts[j - 1]:
                continue
            px, py = pts[j] // (m.height + 1), pts[j] % (m.height + 1)
            p = py * (w + 1) + px
            dist = distance_to_point_ft(sq, p, w)
            if dist > m.w_top_ft[me, k]:
                continue
            hit = 0
            for i in range(nf):
                if _burst_has(m, r, p, st.pos[st.t_foes[i]]):
                    hit += 1
            if hit < 2 or _burst_has(m, r, p, sq):
                continue
            friend = False
            for a in range(m.n):
                if a != me and m.side[a] == m.side[me] and _burst_has(m, r, p, st.pos[a]):
                    friend = True
                    break
            if friend:
                continue
            d5 = dist // 5
            p_land = m.g_land[me, k, d5, st.body[me, _sqz.SQUEEZED]]
            value = 0.0
            for i in range(nf):
                e = st.t_foes[i]
                if not _burst_has(m, r, p, st.pos[e]):
                    continue
                p_half = m.g_half[me, k, e, st.body[e, _sqz.SQUEEZED]]
                if m.g_mode[me, k, 1] == ON_NEGATES:  # a success keeps it all off (SV-09)
                    v = _grenade_value(m, st, me, k, e, p_land * (1 - p_half), 0.0)
                else:
                    v = _grenade_value(m, st, me, k, e, p_land, p_half)
                value += v + _rider_value(m, st, me, k, e, p_land * (1 - p_half))
            if not found or value > best_v:
                found = True
                best_v, best_k, best_p = value, k, p
    return found, best_v, best_k, best_p
