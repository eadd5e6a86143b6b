"""The tactical policy in the compiled kernel: :class:`~sftactics.sim.policies.TacticalPolicy`'s turn in numba.

The same decisions by the same numbers: each option of the turn is valued by the exact damage distributions of
the attacks (:mod:`sftactics.sim.kernel.tables`, made by ``sim.odds``), weighed by the target's threat and what
it has left (focus fire), less the damage the actor expects where it ends its turn (cover, range, melee reach)
and the attacks of opportunity a move or a shot provokes. The options are those of ``_Turn.best_plan``: attack
or full attack from here (keeping the move for a safer square afterwards), a move or a guarded step and then an
attack or a grenade (candidate squares ranked roughly, the best three examined with the kernel's geometry), a
reload and an attack, a withdrawal, and otherwise closing in; first aid for a dying ally who cannot stabilize on
its own; retreat when the side's position is hopeless (a side whose able members all retreat concedes). Heals,
the abilities' plans and the morale are :mod:`~sftactics.sim.kernel.abilities`' (hooked in here).

Where the kernel differs from the Python policy (see ``docs/simulation.md``):

* it does not charge: a charge the engine would accept is rare on the maps it plays (none in 60 measured
  tactical fights of the benchmark and grenade-alley), and the Python policy moves instead when one is refused;
* ties between equally good squares go to the first in (x, y) order where the Python policy takes the first in
  its search's order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sftactics.grid.cover import CoverKind
from sftactics.sim.kernel import bigfight as _big
from sftactics.sim.kernel import bigsqueeze as _sqz
from sftactics.sim.kernel import seek as _seek_mod
from sftactics.sim.kernel import setup as _setup
from sftactics.sim.kernel.blasts import ON_NEGATES, R_KIND, RIDER_BURNING, RIDER_NONE
from sftactics.sim.kernel.bodies import LINGER, base_numbers
from sftactics.sim.kernel.fight import (
    CHARGE_PENALTY,
    CONCEDED,
    DIAG,
    ENDED,
    FRESH,
    LOG_PLAN,
    MOVE,
    REASON_CONCEDE,
    REASON_SC,
    ROUND,
    STD,
    TSTAMP,
    WINNER,
    _attack_now,
    _attack_numbers,
    _burst_has,
    _can,
    _can_take_aoo,
    _check_end,
    _clear,
    _die,
    _down_now,
    _geo_miss,
    _in_zone,
    _jit,
    _knows,
    _log,
    _move,
    _occupancy,
    _one_attack,
    _out,
    _prepare_move,
    _resolve_start,
    _side_knows,
    _sight_refresh,
    _simple_actions,
    _spend,
    _staggered,
    _throw,
    _track,
    _unmark,
)
from sftactics.sim.kernel.geo import (
    PROV_BITS,
    _heap_pop,
    _heap_push,
    distance_ft,
    distance_to_point_ft,
    step_cost,
    threatens,
)
from sftactics.sim.kernel.modes import fly_second_move, path_for, search_for, state_square, steps_for
from sftactics.sim.kernel.sight import CONCEALMENT_MISS
from sftactics.sim.kernel.tables import NEED_HI, NEED_LO

# weights: Model.tw (tables.TACTICAL_WEIGHTS)
DROP, RISK, DANGER, FOCUS, KEEP, HOPELESS, CANDIDATES, EXACT, MELEE_FOCUS = range(9)
# commands of a plan
C_NONE, C_ATTACK, C_FULL, C_GRENADE, C_MOVE, C_GSTEP, C_RELOAD, C_WITHDRAW, C_CHARGE = range(9)
# plan labels that change what happens next
L_OTHER, L_APPROACH, L_CHARGE = 0, 1, 2
COVER = int(CoverKind.COVER)
INF = 1 << 62


# ---------------------------------------------------------------- the turn's lists
@_jit
def _begin(m: Any, st: Any, c: int) -> None:
    """A fresh look at the fight (``_Turn.__init__``): foes (the able ones the side knows of), friends, caches."""
    st.sc[TSTAMP] += 1
    nf = 0
    nr = 0
    for e in range(m.n):
        if _out(st, e):
            continue
        if m.side[e] != m.side[c]:
            if not _side_knows(m, st, m.side[c], e):
                continue
            st.t_foes[nf] = e
            nf += 1
        elif e != c:
            st.t_friends[nr] = e
            nr += 1
    st.t_n[0] = nf
    st.t_n[1] = nr
    nz = 0
    for i in range(nf):
        e = st.t_foes[i]
        if m.zone[e] >= 0 and _can_take_aoo(m, st, e, c):
            st.t_zones[nz] = e
            nz += 1
    st.t_n[2] = nz
    st.t_n[3] = -1  # the actions of the unmarked search in buffers B (-1: none)
    st.t_n[4] = 0  # the marked search (buffers A) is done
    st.t_n[6] = c  # the actor (the size of its space, bigtactics)
    if m.big:
        _sqz.note(m, st)  # who stands squeezed: the effects the policy's numbers read (``bigsqueeze.held``)


@_jit
def _done(m: Any, st: Any) -> None:
    """Undo the marks of the planning search before anything moves."""
    if st.t_n[4]:
        _unmark(m, st, st.t_n[5])
        st.t_n[4] = 0


@_jit
def _search_a(m: Any, st: Any, c: int) -> None:
    """One move from here, provoking squares marked (``reach(1)`` and ``find_path``), once per look."""
    if not st.t_n[4]:
        st.t_n[5] = _prepare_move(m, st, c)
        st.t_n[4] = 1


@_jit
def _reach(m: Any, st: Any, c: int, actions: int) -> None:
    """``grid.movement.reachable`` (nothing marked) for one move action or a double move, once per look: the
    first move's search into buffers B, the second's, from every square where the first may stop, into
    buffers C (``GridOptions.double_move`` "separate", the diagonal count carried over). Read with
    :func:`_rcost`."""
    if m.fside[c] > 1:
        return _bt.reach_big(m, st, c, actions)
    if st.t_n[3] < 1:
        _occupancy(m, st, c)
        search_for(m, c, st.pos[c], st.sc[DIAG] & 1, m.speed[c], st.passable, st.stoppable, st.extra_k,
                   st.noprov, -1, st.dist2, st.parent2, st.heap2, st.bc2, st.bp2, st.bs2, m.width)  # fmt: skip
        _clear(m, st)
        st.t_n[3] = 1
    if actions == 2 and st.t_n[3] < 2:
        _occupancy(m, st, c)
        _second_move(m, st, c)
        _clear(m, st)
        st.t_n[3] = 2


@_jit
def _second_move(m: Any, st: Any, c: int) -> None:
    """The second move of a double move: the search of ``movement._search`` from the seeds of the first (each
    state where the mover may stop, keyed by the feet it cost), ranked by the feet of the second move and then
    the total; per square, the state with the lowest total (then the lowest state number)."""
    w = m.width
    speed = m.speed[c]
    x0, x1, y0, y1 = _box(m, st, c, 2 * speed)
    if m.fly[c]:  # a flier's states have headings (modes.py)
        a0, a1, b0, b1 = _box(m, st, c, speed)
        fly_second_move(m, st, c, x0, x1, y0, y1, a0, a1, b0, b1, INF)
        return
    step_to, step_k = steps_for(m, c)
    # (the fields read once: a field read in the loops costs a reference count taken and given back)
    dist2, dist3, parent3, heap3 = st.dist2, st.dist3, st.parent3, st.heap3
    passable, stoppable, extra_k, r2c, r2s = st.passable, st.stoppable, st.extra_k, st.r2c, st.r2s
    step_diag, hdc = m.step_diag, m.hampered_diagonal_counts
    for qx in range(x0, x1):
        for qy in range(y0, y1):
            q = qy * w + qx
            dist3[2 * q] = INF
            dist3[2 * q + 1] = INF
            parent3[2 * q] = -1
            parent3[2 * q + 1] = -1
            r2c[q] = -1
            r2s[q] = -1
    n_states = 2 * step_to.shape[0]
    sb = 1
    while (1 << sb) < n_states:
        sb += 1
    smask = (1 << sb) - 1
    size = 0
    a0, a1, b0, b1 = _box(m, st, c, speed)
    for qx in range(a0, a1):
        for qy in range(b0, b1):
            q = qy * w + qx
            if not stoppable[q]:
                continue
            for par in range(2):
                s = 2 * q + par
                if dist2[s] < INF:
                    key = dist2[s] >> PROV_BITS  # used 0, total the first move's feet
                    dist3[s] = key
                    size = _heap_push(heap3, size, (key << sb) | s)
    mask = (1 << PROV_BITS) - 1
    while size > 0:
        item, size = _heap_pop(heap3, size)
        key = item >> sb
        s = item & smask
        if key != dist3[s]:
            continue
        idx = s >> 1
        par = s & 1
        used = key >> PROV_BITS
        for d in range(8):
            nidx = step_to[idx, d]
            if nidx < 0 or not passable[nidx]:
                continue
            k = int(step_k[idx, d]) + int(extra_k[nidx])
            cost, npar = step_cost(k, step_diag[d], par, hdc)
            if used + cost > speed:
                continue
            ns = nidx * 2 + npar
            nkey = key + (cost << PROV_BITS) + cost
            if nkey < dist3[ns]:
                dist3[ns] = nkey
                parent3[ns] = s
                size = _heap_push(heap3, size, (nkey << sb) | ns)
    for qx in range(x0, x1):
        for qy in range(y0, y1):
            q = qy * w + qx
            if not stoppable[q]:
                continue
            for par in range(2):
                s = 2 * q + par
                if dist3[s] < INF:
                    total = dist3[s] & mask
                    if r2c[q] < 0 or total < r2c[q]:
                        r2c[q] = total
                        r2s[q] = s


@_jit
def _rcost(m: Any, st: Any, c: int, q: int, actions: int) -> tuple[int, int]:
    """(feet, move actions) to reach ``q`` and stop there (``ReachMap.cost`` and ``actions``; 0 actions for
    the start), or (-1, -1); after :func:`_reach` with at least ``actions``."""
    if m.fside[c] > 1:
        return _bt.rcost_big(m, st, c, q, actions)
    w = m.width
    r1 = m.speed[c] // 5 + 1
    dx = abs(q % w - st.pos[c] % w)
    dy = abs(q // w - st.pos[c] // w)
    if dx <= r1 and dy <= r1 and st.bc2[q] >= 0:
        return int(st.bc2[q]), 0 if q == st.pos[c] else 1
    if actions == 2:
        r2 = 2 * m.speed[c] // 5 + 1
        if dx <= r2 and dy <= r2 and st.r2c[q] >= 0:
            return int(st.r2c[q]), 2
    return -1, -1


@_jit
def _guarded(m: Any, st: Any, c: int, q: int) -> bool:
    """Whether a guarded step reaches ``q`` (``guarded_step_squares``: one step of 5 ft where it may stop)."""
    here = st.pos[c]
    par = st.sc[DIAG] & 1
    step_to, step_k = steps_for(m, c)
    for d in range(8):
        if step_to[here, d] != q or not st.passable[q] or not st.stoppable[q]:
            continue
        cost, _ = step_cost(int(step_k[here, d]) + int(st.extra_k[q]), m.step_diag[d], par, False)
        return cost <= 5
    return False


# ---------------------------------------------------------------- numbers
@_jit
def _pool(st: Any, c: int) -> int:
    return int(max(1, st.sp[c] + st.hp[c] + st.temp[c]))


@_jit
def _tab(
    m: Any, st: Any, a: int, k: int, t: int, bonus: int, ac: int, attacks: int, placed: bool = False
) -> tuple[int, int, float, float]:
    """(offset, length, mean, hit) of the damage distribution of ``attacks`` attacks at ``bonus`` against ``ac``;
    ``placed``: the attack is made where the two stand (``attack_geometry``'s miss chance: dim light on the
    target's square conceals it from an attacker without low-light vision or darkvision, VIS-03)."""
    need = min(max(ac - bonus, NEED_LO), NEED_HI) - NEED_LO
    j = attacks - 1
    x = 0
    if placed and m.t_off.shape[5] > 1:
        g = _geo_miss(m, st, a, t)
        x = m.miss_slot[0 if g == 0 else (1 if g == CONCEALMENT_MISS else 2)]
    return (m.t_off[a, k, t, need, j, x], m.t_len[a, k, t, need, j, x], m.t_mean[a, k, t, need, j, x],
            m.t_hit[a, k, t, need, j, x])  # fmt: skip


@_jit
def _plain_mean(m: Any, st: Any, a: int, t: int, k: int, attacks: int) -> float:
    """Expected damage of ``k`` from ``a`` on ``t`` with no help from positions (``_Turn.plain_mean``)."""
    pen = -4 if attacks > 1 else 0
    return _tab(m, st, a, k, t, _atk(m, st, a, k, t) + pen, _ac(m, st, a, k, t), attacks)[2]


@_jit
def _ac(m: Any, st: Any, a: int, k: int, t: int) -> int:
    """The AC ``k`` targets on ``t``, with a charger's penalty and a squeezed target's (the policy reads the
    creature as it is)."""
    return base_numbers(m, st, a, k, t, False)[1] - (CHARGE_PENALTY if st.charging[t] else 0) - _sqz.held(st, t)


@_jit
def _atk(m: Any, st: Any, a: int, k: int, t: int) -> int:
    """The attack bonus of ``k`` from ``a`` on ``t`` before the positions' terms (prone ones included, and a
    squeezed attacker's penalty)."""
    return base_numbers(m, st, a, k, t, False)[0] - _sqz.held(st, a)


@_jit
def _exact(m: Any, st: Any, a: int, k: int, t: int) -> tuple[bool, int, int]:
    """``fight._attack_numbers`` as the policy weighs them (``_Turn.table`` on the engine's geometry): with the
    squeezing effects the attacker and the target have now (``bigsqueeze.held``), wherever the actor would stand."""
    ok, bonus, ac = _attack_numbers(m, st, a, k, t)
    return ok, bonus - _sqz.held(st, a), ac - _sqz.held(st, t)


@_jit
def _dpr(m: Any, st: Any, c: int, against: Any, na: int) -> float:
    """Expected damage per round of ``c``'s best weapon, averaged over ``against[:na]``."""
    if na == 0:
        return 0.0
    best = 0.0
    for k in range(m.w_ok.shape[1]):
        if not (m.w_ok[c, k] and m.w_attack[c, k]):
            continue
        total = 0.0
        for i in range(na):
            total += _plain_mean(m, st, c, against[i], k, 1)
        mean = total / na
        best = max(best, mean)
    return best


@_jit
def _threat(m: Any, st: Any, me: int, c: int) -> float:
    """Expected damage per round ``c`` deals to the other side, at least 0.5 (cached per look)."""
    if st.thr_stamp[c] == st.sc[TSTAMP]:
        return float(st.thr[c])
    if m.side[c] != m.side[me]:
        na = 0
        for a in range(m.n):
            if m.side[a] == m.side[me] and not _out(st, a):
                st.t_tmp[na] = a
                na += 1
        v = max(0.5, _dpr(m, st, c, st.t_tmp, na))
    else:
        v = max(0.5, _dpr(m, st, c, st.t_foes, st.t_n[0]))
    st.thr[c] = v
    st.thr_stamp[c] = st.sc[TSTAMP]
    return v


@_jit
def _capped(vals: Any, probs: Any, off: int, ln: int, cap: int) -> float:
    s = 0.0
    for j in range(ln):
        s += min(vals[off + j], cap) * probs[off + j]
    return s


@_jit
def _at_least(vals: Any, probs: Any, off: int, ln: int, amount: int) -> float:
    if amount <= 0:
        return 1.0
    s = 0.0
    for j in range(ln):
        if vals[off + j] >= amount:
            s += probs[off + j]
    return s


@_jit
def _value(m: Any, st: Any, me: int, t: int, vals: Any, probs: Any, off: int, ln: int, hit: float) -> float:
    """``_Turn.attack_value``: the share of the target's threat the damage removes, a bonus for dropping it, and
    one for the side's focus target."""
    pool = _pool(st, t)
    thr = _threat(m, st, me, t)
    v = thr * (_capped(vals, probs, off, ln, pool) / pool + m.tw[DROP] * _at_least(vals, probs, off, ln, pool))
    if st.focus[m.side[me]] == t:
        v += m.tw[FOCUS] * thr * hit
    return float(v)


@_jit
def _attack_value(
    m: Any, st: Any, me: int, t: int, k: int, bonus: int, ac: int, attacks: int, placed: bool = False
) -> float:
    off, ln, _, hit = _tab(m, st, me, k, t, bonus, ac, attacks, placed)
    return _value(m, st, me, t, m.t_val, m.t_prob, off, ln, hit)


@_jit
def _hp_value(m: Any, st: Any, me: int) -> float:
    return _threat(m, st, me, me) / _pool(st, me)


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
        if _bt.threat_at(m, st, e, sq, st.t_n[6]):
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
        if _bt.threat_at(m, st, e, sq, me):
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
        return _bt.provokers_big(m, st, me, sq)
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
        return _bt.nearest_foe_ft(m, st, st.t_n[6], sq, default)
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
        dist = _bt.dist_at(m, st, me, sq, e)
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
                    if _bt.dist_pair(m, st, e, st.t_friends[f]) < dist:
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
    return bool(m.w_cap[c, k] < 0 or st.ammo[c, k] >= m.w_usage[c, k] * shots)


@_jit
def _in_reach_or_range(m: Any, st: Any, me: int, sq: int, t: int, k: int) -> bool:
    if m.w_melee_geom[me, k]:
        return _bt.reaches_at(m, st, me, sq, t, m.w_reach[me, k])
    d5 = _bt.dist_at(m, st, me, sq, t) // 5
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
                    if _bt.flanks_at(m, st, me, sq, st.t_friends[f], t):
                        flank = True
                        break
                bonus = _atk(m, st, me, k, t) + (m.flank_bonus if flank else 0)
                ac = _ac(m, st, me, k, t)
            else:
                bonus = _atk(m, st, me, k, t) + m.w_range[me, k, _bt.dist_at(m, st, me, sq, t) // 5]
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
        return _bt.grenade_from(m, st, me, sq)
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


# ---------------------------------------------------------------- candidate squares
@_jit
def _flank_hint(m: Any, st: Any, sq: int) -> int:
    n = 0
    for i in range(st.t_n[0]):
        t = st.t_foes[i]
        if _bt.dist_at(m, st, st.t_n[6], sq, t) > 5:
            continue
        for f in range(st.t_n[1]):
            if _bt.flanks_at(m, st, st.t_n[6], sq, st.t_friends[f], t):
                n += 1
                break
    return n


@_jit
def _zoned(m: Any, st: Any, sq: int) -> bool:
    return _threatened_count(m, st, sq) > 0


@_jit
def _box(m: Any, st: Any, c: int, budget: int) -> tuple[int, int, int, int]:
    if m.fside[c] > 1:  # its squeeze shifts move its anchor further than its steps: every anchor
        return 0, m.width, 0, m.height
    r = budget // 5 + 1
    w = m.width
    cx, cy = st.pos[c] % w, st.pos[c] // w
    return max(0, cx - r), min(w, cx + r + 1), max(0, cy - r), min(m.height, cy + r + 1)


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
        return _bt.guarded_steps_big(m, st, me, out_from)
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
            if melee and _bt.dist_at(m, st, me, sq, e) <= m.w_reach[e, k] + 30:
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
        if _bt.dist_pair(m, st, me, a) <= 5:
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
                if cost <= 0 or cost > speed or _bt.dist_at(m, st, me, q, a) > 5:
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


# ---------------------------------------------------------------- the plan
@_jit
def _keep(st: Any, value: float, ncmd: int, c1: int, a1: int, b1: int, c2: int, a2: int, b2: int, label: int,
          after: bool, target: int) -> None:  # fmt: skip
    """Keep the plan if it beats the best so far by (value, fewer commands). Every plan is logged (LOG_PLAN)."""
    _log(st.log, st.nlog, LOG_PLAN, st.sc[ROUND], c1, a1, c2, a2, int(value * 10_000), b2 if c2 else b1)
    if st.p_n[0] == 0 or (value, float(-ncmd)) > (st.p_v[0], float(-st.p_n[1])):
        st.p_v[0] = value
        st.p_n[0] = 1
        st.p_n[1] = ncmd
        st.p_c[0], st.p_c[1], st.p_c[2] = c1, a1, b1
        st.p_c[3], st.p_c[4], st.p_c[5] = c2, a2, b2
        st.p_n[2] = label
        st.p_n[3] = 1 if after else 0
        st.p_n[4] = target


@_jit
def _best_plan(m: Any, st: Any, me: int, no_charge: bool) -> None:
    """``_Turn.best_plan`` into ``st.p_*`` (``p_n[0]`` 0: nothing to do)."""
    st.p_n[0] = 0
    here = st.pos[me]
    can_std = _can(m, st, me, 0)
    can_full = _can_full(m, st, me)
    can_move = _can(m, st, me, 1)
    both = _move_then_standard(m, st, me)
    stay_cost = _risk_cost(m, st, me, here, True)
    offensive = False
    if can_std or can_full:
        aoo_here = _aoo_here(m, st, me, here)
        n = _attacks_from(m, st, me, here, can_full, True)
        for j in range(n):
            full = st.o_c[j] == C_FULL
            if (full and not can_full) or (not full and not can_std):
                continue
            v = st.o_v[j]
            ranged = not m.w_is_melee[me, st.o_k[j]]  # a thrown melee weapon provokes nothing (do_attack)
            cost = stay_cost + (aoo_here if ranged else 0.0)
            keep = (not full) and can_move and both
            bonus = m.tw[KEEP] * v if keep else 0.0
            _keep(st, v - cost + bonus, 1, st.o_c[j], st.o_t[j], st.o_k[j], C_NONE, 0, 0, L_OTHER, keep, st.o_t[j])
            offensive = True
        if can_std:
            found, gv, gk, gp = _grenade_from(m, st, me, here)
            if found:
                _keep(st, gv - (stay_cost + aoo_here), 1, C_GRENADE, gk, gp, C_NONE, 0, 0, L_OTHER, both, -1)
                offensive = True
            if abilities.plans(m, st, me, stay_cost, both):  # choices.ability_plans
                offensive = True
    if both:
        n = _candidates(m, st, me)
        n2 = _guarded_steps(m, st, me, n) if _zoned(m, st, here) else n
        # rank every square by its best attack and a rough risk; examine the best three exactly
        ns = 0
        for j in range(n2):
            q = st.cand[j]
            k = _attacks_from(m, st, me, q, False, False)
            if k == 0:
                continue
            aoo_end = _aoo_here(m, st, me, q)
            best = 0.0
            for i in range(k):
                v = st.o_v[i] - (aoo_end if not m.w_is_melee[me, st.o_k[i]] else 0.0)
                if i == 0 or v > best:
                    best = v
            st.fkeys[ns, 0] = -(best - _risk_cost(m, st, me, q, False))
            st.fkeys[ns, 1] = (q % m.width) * 10_000 + q // m.width
            st.fkeys[ns, 2] = 1 if j >= n else 0
            st.sqs2[ns] = q
            st.costs[ns] = 1 if j >= n else 0
            ns += 1
        order = np.empty(3, dtype=np.int64)
        top = _pick(st.fkeys, ns, 3, order)
        for j in range(top):
            q = st.sqs2[order[j]]
            guarded = st.costs[order[j]] == 1
            k = _attacks_from(m, st, me, q, False, True)
            if k == 0:
                continue
            aoo_end = _aoo_here(m, st, me, q)
            bv, bc, bt, bk = 0.0, C_NONE, -1, -1
            for i in range(k):
                v = st.o_v[i] - (aoo_end if not m.w_is_melee[me, st.o_k[i]] else 0.0)
                if i == 0 or v > bv:
                    bv, bc, bt, bk = v, st.o_c[i], st.o_t[i], st.o_k[i]
            end_cost = _risk_cost(m, st, me, q, True)
            value = bv - end_cost
            ca, cb = bt, bk
            target = bt
            if st.t_n[0] > 1:
                found, gv, gk, gp = _grenade_from(m, st, me, q)
                if found and gv - aoo_end > bv:
                    value = gv - aoo_end - end_cost
                    bc, ca, cb, target = C_GRENADE, gk, gp, -1
            if guarded:
                _keep(st, value, 2, C_GSTEP, q, 0, bc, ca, cb, L_OTHER, False, target)
            else:
                value -= _aoo_path(m, st, me, q)
                _keep(st, value, 2, C_MOVE, q, 0, bc, ca, cb, L_OTHER, False, target)
            if target >= 0 or bc == C_GRENADE:
                offensive = True
    # reload an empty weapon and attack from here
    if both:
        for k in range(m.w_ok.shape[1]):
            if not (m.w_ok[me, k] and m.w_attack[me, k]) or m.w_cap[me, k] < 0 or _loaded(m, st, me, k, 1):
                continue
            ammo = st.ammo[me, k]
            st.ammo[me, k] = m.w_cap[me, k]
            aoo_here = _aoo_here(m, st, me, here)
            for i in range(st.t_n[0]):
                t = st.t_foes[i]
                if not _knows(m, st, me, t):
                    continue
                ok, bonus, ac = _exact(m, st, me, k, t)
                if not ok:
                    continue
                v = _attack_value(m, st, me, t, k, bonus, ac, 1, True)
                _keep(st, v - (stay_cost + aoo_here), 2, C_RELOAD, k, 0, C_ATTACK, t, k, L_OTHER, False, t)
                offensive = True
            st.ammo[me, k] = ammo
    if _classes.plans(m, st, me, stay_cost):  # class_choices.class_plans: trick attack, get 'em
        offensive = True
    # get out of reach without provoking: withdraw (a full action)
    if can_full and _zoned(m, st, here):
        spot = _safest_withdraw(m, st, me)
        if spot >= 0:
            _keep(st, -_risk_cost(m, st, me, spot, True), 1, C_WITHDRAW, spot, 0, C_NONE, 0, 0, L_OTHER, False, -1)
    if not offensive:
        _approach(m, st, me, can_full, can_move, no_charge)


@_jit
def _approach(m: Any, st: Any, me: int, can_full: bool, can_move: bool, no_charge: bool) -> None:
    """``_Turn.approach_plans``: charge the most valuable foe, or move toward it (to the reach of its best
    weapon, or to the first range increment of a ranged one, preferring squares with cover)."""
    nf = st.t_n[0]
    if nf == 0 or not can_move:
        return
    w = m.width
    here = st.pos[me]
    target = -1
    bw = 0.0
    for i in range(nf):
        t = st.t_foes[i]
        d = _bt.dist_pair(m, st, me, t)
        v = _threat(m, st, me, t) / _pool(st, t) / (1 + d / 30)
        if target < 0 or (v, float(m.rank[t])) > (bw, float(m.rank[target])):
            target, bw = t, v
    primary = -1
    pm = 0.0
    for k in range(m.w_ok.shape[1]):
        if not (m.w_ok[me, k] and m.w_attack[me, k]):
            continue
        v = _plain_mean(m, st, me, target, k, 1)
        if primary < 0 or (v, float(m.w_rank[me, k])) > (pm, float(m.w_rank[me, primary])):
            primary, pm = k, v
    if primary < 0:
        return
    melee = m.w_melee_geom[me, primary]
    if can_full and melee and not no_charge:
        v = 0.5 * _threat(m, st, me, target) / _pool(st, target)
        _keep(st, v, 1, C_CHARGE, target, primary, C_NONE, 0, 0, L_CHARGE, False, target)
    speed = m.speed[me]
    budget = 2 * speed if can_full else speed
    actions = 2 if can_full else 1
    _reach(m, st, me, actions)
    want = m.w_reach[me, primary] if melee else max(m.w_range_ft[me, primary], 5)
    x0, x1, y0, y1 = _box(m, st, me, budget)
    best = -1
    b0, b1, b2, b3, b4, b5 = 0, 0, 0, 0, 0, 0
    for qx in range(x0, x1):
        for qy in range(y0, y1):
            q = qy * w + qx
            cost, acts = _rcost(m, st, me, q, actions)
            if cost < 0 or q == here:
                continue
            k0 = max(0, _bt.dist_at(m, st, me, q, target) - want)
            k1 = 0 if melee else -_cover_hint(m, st, q)
            cand = (int(k0), int(k1), int(acts), int(cost), int(qx), int(qy))
            if best < 0 or cand < (b0, b1, b2, b3, b4, b5):
                best, b0, b1, b2, b3, b4, b5 = q, cand[0], cand[1], cand[2], cand[3], cand[4], cand[5]
    if best < 0:
        return
    h0 = max(0, _bt.dist_at(m, st, me, here, target) - want)
    h1 = 0 if melee else -_cover_hint(m, st, here)
    if (b0, b1) >= (int(h0), int(h1)):
        return
    step = best if b2 == 1 else _midpoint(m, st, me, best, speed)
    if step >= 0:
        _keep(st, 0.0, 1, C_MOVE, step, 0, C_NONE, 0, 0, L_APPROACH, False, -1)


@_jit
def _midpoint(m: Any, st: Any, me: int, goal: int, speed: int) -> int:
    """``_Turn._midpoint``: where the first move of a double move to ``goal`` ends, the last square of its path
    within one move's feet that one move reaches (the second move's steps, then the first's)."""
    if m.fside[me] > 1:
        return _bt.midpoint_big(m, st, me, goal, speed)
    mask = (1 << PROV_BITS) - 1
    mid = -1
    s = st.r2s[goal]
    seed = s
    while s >= 0:  # the second move, back to its seed
        q = state_square(m, me, s)
        _, acts = _rcost(m, st, me, q, 1)
        if mid < 0 and (st.dist3[s] & mask) <= speed and acts == 1:
            mid = q
        seed = s
        s = st.parent3[s]
    s = st.parent2[seed]
    if mid < 0:
        q = state_square(m, me, seed)
        _, acts = _rcost(m, st, me, q, 1)
        if (st.dist2[seed] >> PROV_BITS) <= speed and acts == 1:
            return int(q)
    while s >= 0 and mid < 0:  # the first move
        q = state_square(m, me, s)
        _, acts = _rcost(m, st, me, q, 1)
        if (st.dist2[s] >> PROV_BITS) <= speed and acts == 1:
            mid = q
        s = st.parent2[s]
    return mid


# ---------------------------------------------------------------- the charge
@_jit
def _clear_line(m: Any, st: Any, me: int, goal: int) -> bool:
    """``movement.clear_line``: every square the straight line from the charger's square to ``goal`` crosses is
    free of walls, obstacles, difficult terrain and creatures (helpless ones excepted)."""
    w = m.width
    here = st.pos[me]
    x0, y0 = here % w + 0.5, here // w + 0.5
    x1, y1 = goal % w + 0.5, goal // w + 0.5
    n = int(max(abs(x1 - x0), abs(y1 - y0)) * 8) + 1
    for i in range(n + 1):
        t = i / n
        cx = x0 + (x1 - x0) * t
        cy = y0 + (y1 - y0) * t
        for sx in range(int(cx - 0.5 + 1e-9), int(cx + 0.5 - 1e-9) + 1):
            for sy in range(int(cy - 0.5 + 1e-9), int(cy + 0.5 - 1e-9) + 1):
                q = sy * w + sx
                if sx == here % w and sy == here // w:
                    continue
                if sx < 0 or sy < 0 or sx >= w or sy >= m.height or m.charge_block[q]:
                    return False
                for o in range(m.n):
                    if o != me and not st.dead[o] and st.pos[o] == q and not _down_now(st, o):
                        return False
    return True


@_jit
def _can_attack_from(m: Any, st: Any, me: int, k: int, t: int, q: int) -> bool:
    """Whether ``k`` could attack ``t`` from square ``q`` (``space.attack_geometry`` from there: the GM's total
    cover, a wall's). A charge whose attack would be refused is taken back whole by the engine (``do_charge``:
    the attack's refusal refuses the command), so the kernel does not start it."""
    here = st.pos[me]
    st.pos[me] = q
    ok = _attack_numbers(m, st, me, k, t)[0]
    st.pos[me] = here
    return ok


@_jit
def _charge(m: Any, st: Any, me: int, t: int, k: int) -> bool:
    """``do_charge`` (ACT-50): to the nearest square from which ``k`` reaches ``t`` (then the one most directly
    toward it), 10 ft to twice the speed away in a clear straight line, by a path that costs no more than that
    line; -2 AC until the start of its next turn, attacks of opportunity on the way, one attack at -2. False
    (nothing done) when the engine would refuse it, its attack at the end included (:func:`_can_attack_from`; the
    engine keeps a charge whose charger an attack of opportunity drops on the way, which the kernel cannot know
    before it moves: a charge at a foe it could not attack then parts the two)."""
    w = m.width
    if not _can_full(m, st, me) or not m.w_melee_geom[me, k] or _out(st, t):
        return False
    if not _knows(m, st, me, t):
        return False  # its attack would be refused (SEN-04), and the whole charge with it
    if m.no_run[me]:
        return False  # a charge runs: not while burrowing or climbing (MOV-29, MOV-30)
    if m.big:
        return _bt.charge_fp(m, st, me, t, k)
    here = st.pos[me]
    pt = st.pos[t]
    reach = m.w_reach[me, k]
    if threatens(here, pt, w, reach, True):
        return False  # it can already attack
    r = reach // 5 + 1
    goal = -1
    g0, g1, g2, g3 = 0, 0, 0, 0
    tx, ty, mx, my = pt % w, pt // w, here % w, here // w
    for qx in range(max(0, tx - r), min(w, tx + r + 1)):
        for qy in range(max(0, ty - r), min(m.height, ty + r + 1)):
            q = qy * w + qx
            if not threatens(q, pt, w, reach, True):
                continue
            off = abs((tx - mx) * (qy - my) - (ty - my) * (qx - mx))
            key = (distance_ft(here, q, w), off, qx, qy)
            if goal < 0 or key < (g0, g1, g2, g3):
                goal, g0, g1, g2, g3 = q, key[0], key[1], key[2], key[3]
    if goal < 0:
        return False
    straight = distance_ft(here, goal, w)
    if straight < 10 or straight > 2 * m.speed[me] or not _clear_line(m, st, me, goal):
        return False
    nthreat = _prepare_move(m, st, me, 2, False, True)
    if st.best_cost[goal] != straight or not _can_attack_from(m, st, me, k, t, goal):
        _unmark(m, st, nthreat)
        return False
    st.sc[STD] = 1
    st.sc[MOVE] = 1
    st.sc[FRESH] = 0
    st.charging[me] = True
    _move(m, st, me, goal, nthreat, True)
    if not _out(st, me) and not st.dead[t]:
        _one_attack(m, st, me, t, k, False, -CHARGE_PENALTY)
    _sight_refresh(m, st, me)  # the command ends here (``_move`` leaves a charge's refresh to it)
    _check_end(m, st)
    return True


# ---------------------------------------------------------------- carrying out a plan
@_jit
def _execute(m: Any, st: Any, me: int) -> bool:
    """``TacticalPolicy._execute``: the plan's commands in order; False if one is refused."""
    _done(m, st)
    if st.p_n[0] == 0:
        return True
    for i in range(st.p_n[1]):
        cmd, a, b = st.p_c[3 * i], st.p_c[3 * i + 1], st.p_c[3 * i + 2]
        if not _command(m, st, me, cmd, a, b):
            return False
        if st.sc[ENDED] or _out(st, me):
            return True
    return True


@_jit
def _command(m: Any, st: Any, me: int, cmd: int, a: int, b: int) -> bool:
    if cmd in (C_ATTACK, C_FULL):
        full = cmd == C_FULL
        if (full and not _can_full(m, st, me)) or (not full and not _can(m, st, me, 0)):
            return False
        if _out(st, a) or not _loaded(m, st, me, b, 2 if full else 1):
            return False
        if not _knows(m, st, me, a):
            return False  # an attack on a foe it has not located is refused (SEN-04)
        ok, _, _ = _attack_numbers(m, st, me, b, a)
        if not ok:
            return False
        _attack_now(m, st, me, a, b, full)
        return True
    if cmd == C_GRENADE:
        if not _can(m, st, me, 0) or st.ammo[me, a] < 1:
            return False
        _throw(m, st, me, a, b)
        _check_end(m, st)
        st.sc[FRESH] = 0
        return True
    if cmd == C_MOVE:
        if not _can(m, st, me, 1):
            return False
        nthreat = _prepare_move(m, st, me)
        if st.best_cost[a] < 0:
            _unmark(m, st, nthreat)
            return False
        _move(m, st, me, a, nthreat)
        st.sc[FRESH] = 0
        _check_end(m, st)
        return True
    if cmd == C_GSTEP:
        if not _can(m, st, me, 1):
            return False
        p, q = st.pos[me], a
        _spend(st, 1)
        if p % m.width != q % m.width and p // m.width != q // m.width:
            st.sc[DIAG] += 1
        _setup.moved(m, st, me)  # a grappler that steps away lets go (MAN-07)
        st.pos[me] = q
        st.sc[FRESH] = 0
        _log(st.log, st.nlog, 3, st.sc[ROUND], me, p, q, 5, 1, 0)
        _sight_refresh(m, st, me)
        return True
    if cmd == C_RELOAD:
        if not _can(m, st, me, 1):
            return False
        _spend(st, 1)
        st.ammo[me, a] = m.w_cap[me, a]
        st.sc[FRESH] = 0
        return True
    if cmd == C_CHARGE:
        return _charge(m, st, me, a, b)
    if cmd == abilities.C_ABILITY:
        return abilities.execute(m, st, me, a, b)
    if cmd == _classes.C_TRICK or cmd == _classes.C_MARK:
        return _classes.execute(m, st, me, cmd, a, b)
    if cmd == C_WITHDRAW:
        if not _can_full(m, st, me):
            return False
        nthreat = _prepare_move(m, st, me, 2, True)
        _move(m, st, me, a, nthreat, True)
        st.sc[FRESH] = 0
        _check_end(m, st)
        return True
    return False


@_jit
def tactical_turn(m: Any, st: Any, me: int) -> None:
    """``TacticalPolicy.__call__`` (the turn's end is the caller's)."""
    if not _resolve_start(m, st, me, True):
        return
    if st.sc[ENDED] or _out(st, me):
        return
    _begin(m, st, me)
    if abilities.heal(m, st, me, True):  # choices.heal, before anything else
        _done(m, st)
        return
    _seek_mod.note(m, st, m.side[me])  # ``seeker.note``: where the side sees its foes now
    if st.t_n[0] == 0 and (st.retreating[me] or not _seek(m, st, me)):
        return
    if _first_aid(m, st, me):
        _done(m, st)
        return
    if st.retreating[me] or abilities.breaks(m, st, me):  # sim.morale
        st.retreating[me] = True
        if _retreat(m, st, me):
            _done(m, st)
            return
        st.retreating[me] = False
    _best_plan(m, st, me, False)
    label = st.p_n[2]
    after = st.p_n[3] == 1
    target = st.p_n[4]
    done = _execute(m, st, me)
    if st.p_n[0] and target >= 0 and done:
        st.focus[m.side[me]] = target
    if not done and label == L_CHARGE and not st.sc[ENDED] and not _out(st, me):
        _begin(m, st, me)  # the charge was refused: plan again without it
        _best_plan(m, st, me, True)
        label = st.p_n[2]
        after = st.p_n[3] == 1
        done = _execute(m, st, me)
    if not done:
        if not st.sc[ENDED] and not _out(st, me):
            _seek_mod.scratch(m, st)  # ``SimplePolicy()``: a fresh policy, with a fresh search memory
            if not abilities.fallback(m, st, me):  # (its heal or blast first)
                _simple_actions(m, st, me)
            _seek_mod.own_memory(st)
        return
    if st.p_n[0] == 0:
        return
    if label == L_APPROACH:
        for _ in range(2):  # a double move: plan the second move from where the first one ended
            if st.sc[ENDED] or _out(st, me):
                return
            _begin(m, st, me)
            if st.t_n[0] == 0:
                return
            _best_plan(m, st, me, False)
            if st.p_n[0] == 0:
                _done(m, st)
                break
            again = st.p_n[2]
            ok = _execute(m, st, me)  # (the focus stays the first plan's, as in the Python policy)
            if not ok or again != L_APPROACH:
                break
        return
    if after and not st.sc[ENDED] and not _out(st, me):
        _begin(m, st, me)
        if st.t_n[0] > 0 and _can(m, st, me, 1):
            cmd, q = _safest_step(m, st, me)
            _done(m, st)
            if cmd != C_NONE:
                _command(m, st, me, cmd, q, 0)
        _done(m, st)


@_jit
def _seek(m: Any, st: Any, me: int) -> bool:
    """``TacticalPolicy._seek``: nobody on the side has located an able foe; look for one, a move action at a
    time (twice at most); True (and the turn's lists fresh) once one is found."""
    for _ in range(2):
        if st.sc[ENDED] or _out(st, me) or not _can(m, st, me, 1):
            return False
        if not _seek_mod.seek_step(m, st, me) or st.sc[ENDED]:
            return False
        _begin(m, st, me)
        if st.t_n[0] > 0:
            return True
    return False


@_jit
def concede(m: Any, st: Any, side: int) -> bool:
    """``TacticalPolicy.concedes``: every able member of ``side`` retreats."""
    able = False
    for a in range(m.n):
        if m.side[a] == side and not _out(st, a):
            able = True
            if not st.retreating[a]:
                return False
    return able


@_jit
def end_by_concession(m: Any, st: Any, side: int) -> None:
    """``EndCombat`` for a side that retreats: the winner is the one other side still able to fight, if one."""
    st.sc[ENDED] = 1
    st.sc[REASON_SC] = REASON_CONCEDE
    st.sc[CONCEDED] = side
    winner = -1
    count = 0
    for s in range(m.n):
        if s == side:
            continue
        found = False
        for a in range(m.n):
            if m.side[a] == s and not _out(st, a):
                found = True
        if found:
            winner = s
            count += 1
    st.sc[WINNER] = winner if count == 1 else -1


# the abilities and morale build on this module; its functions reach theirs through the module (numba resolves
# them when it compiles, after both are loaded)
from sftactics.sim.kernel import abilities  # noqa: E402
from sftactics.sim.kernel import bigtactics as _bt  # noqa: E402
from sftactics.sim.kernel import classes as _classes  # noqa: E402
