"""The tactical policy's turn in the compiled kernel (:mod:`~sftactics.sim.kernel.tactics`): its weights, commands
and labels; the lists it keeps for a look (who it fights, the searches made once per look: ``reachable`` for one
move and a double move, the marked one-move search); and the numbers it weighs options by: the exact damage
tables, hit chances, the target's threat and what it has left (focus fire)."""

from __future__ import annotations

from typing import Any

from sftactics.grid.cover import CoverKind
from sftactics.sim import kernel as _kernel
from sftactics.sim.kernel import bigsqueeze as _sqz
from sftactics.sim.kernel.attacks import _attack_numbers, _can_take_aoo
from sftactics.sim.kernel.bodies import base_numbers
from sftactics.sim.kernel.books import CHARGE_PENALTY, DIAG, TSTAMP, _geo_miss, _out, _side_knows
from sftactics.sim.kernel.geo import PROV_BITS, _heap_pop, _heap_push, _jit, alive, step_cost
from sftactics.sim.kernel.modes import fly_second_move, search_for, steps_for
from sftactics.sim.kernel.movement import _clear, _occupancy, _prepare_move, _unmark
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
        return _kernel.bigtactics.reach_big(m, st, c, actions)
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
        return _kernel.bigtactics.rcost_big(m, st, c, q, actions)
    w = m.width
    r1 = m.speed[c] // 5 + 1
    dx = abs(q % w - st.pos[c] % w)
    dy = abs(q // w - st.pos[c] // w)
    cost, acts = -1, -1
    if dx <= r1 and dy <= r1 and st.bc2[q] >= 0:
        cost, acts = int(st.bc2[q]), 0 if q == st.pos[c] else 1
    elif actions == 2:
        r2 = 2 * m.speed[c] // 5 + 1
        if dx <= r2 and dy <= r2 and st.r2c[q] >= 0:
            cost, acts = int(st.r2c[q]), 2
    alive(m, st)  # (a one-square mover's cost is asked for every square the policy weighs)
    return cost, acts


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


@_jit
def _box(m: Any, st: Any, c: int, budget: int) -> tuple[int, int, int, int]:
    if m.fside[c] > 1:  # its squeeze shifts move its anchor further than its steps: every anchor
        return 0, m.width, 0, m.height
    r = budget // 5 + 1
    w = m.width
    cx, cy = st.pos[c] % w, st.pos[c] // w
    return max(0, cx - r), min(w, cx + r + 1), max(0, cy - r), min(m.height, cy + r + 1)


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
    """``attacks._attack_numbers`` as the policy weighs them (``_Turn.table`` on the engine's geometry): with the
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
