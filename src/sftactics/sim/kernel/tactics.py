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

The turn's lists and numbers are :mod:`~sftactics.sim.kernel.tacturn`'s, where it stands and what it can attack
from there :mod:`~sftactics.sim.kernel.tacplaces`', the squares it weighs, the side's position and first aid
:mod:`~sftactics.sim.kernel.tacsquares`'; this module makes the plan, charges, and carries the plan out.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sftactics.sim.kernel import seek as _seek_mod
from sftactics.sim.kernel import setup as _setup
from sftactics.sim.kernel.attacks import _attack_numbers, _one_attack
from sftactics.sim.kernel.books import (
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
    WINNER,
    _can,
    _down_now,
    _knows,
    _log,
    _out,
    _sight_refresh,
    _spend,
)
from sftactics.sim.kernel.flow import _check_end
from sftactics.sim.kernel.geo import PROV_BITS, _jit, distance_ft, threatens
from sftactics.sim.kernel.grenades import _throw
from sftactics.sim.kernel.modes import state_square
from sftactics.sim.kernel.movement import _move, _prepare_move, _unmark
from sftactics.sim.kernel.simple import _attack_now, _resolve_start, _simple_actions
from sftactics.sim.kernel.tacplaces import (
    _aoo_here,
    _aoo_path,
    _attacks_from,
    _cover_hint,
    _grenade_from,
    _loaded,
    _risk_cost,
)
from sftactics.sim.kernel.tacsquares import (
    _can_full,
    _candidates,
    _first_aid,
    _guarded_steps,
    _move_then_standard,
    _pick,
    _retreat,
    _safest_step,
    _safest_withdraw,
    _zoned,
)
from sftactics.sim.kernel.tacturn import (
    C_ATTACK,
    C_CHARGE,
    C_FULL,
    C_GRENADE,
    C_GSTEP,
    C_MOVE,
    C_NONE,
    C_RELOAD,
    C_WITHDRAW,
    KEEP,
    L_APPROACH,
    L_CHARGE,
    L_OTHER,
    _attack_value,
    _begin,
    _box,
    _done,
    _exact,
    _plain_mean,
    _pool,
    _rcost,
    _reach,
    _threat,
)


# ---------------------------------------------------------------- the plan
@_jit
def _keep(st: Any, value: float, ncmd: int, c1: int, a1: int, b1: int, c2: int, a2: int, b2: int, label: int,
          after: bool, target: int) -> None:  # fmt: skip
    """Keep the plan if it beats the best so far by (value, fewer commands), in ``p_v[0]``, ``p_n[0:5]`` and
    ``p_c[0:6]``; and, if it is not a charge, if it beats the best other plan so far, in ``p_v[1]``, ``p_n[8:13]``
    and ``p_c[6:12]`` (what the turn does when its charge is refused: :func:`_without_charge`). Every plan is
    logged (LOG_PLAN)."""
    _log(st.log, st.nlog, LOG_PLAN, st.sc[ROUND], c1, a1, c2, a2, int(value * 10_000), b2 if c2 else b1)
    if st.p_n[0] == 0 or (value, float(-ncmd)) > (st.p_v[0], float(-st.p_n[1])):
        _put(st, 0, 0, 0, value, ncmd, c1, a1, b1, c2, a2, b2, label, after, target)
    if c1 != C_CHARGE and (st.p_n[8] == 0 or (value, float(-ncmd)) > (st.p_v[1], float(-st.p_n[9]))):
        _put(st, 1, 8, 6, value, ncmd, c1, a1, b1, c2, a2, b2, label, after, target)


@_jit
def _put(st: Any, v: int, n: int, c: int, value: float, ncmd: int, c1: int, a1: int, b1: int, c2: int, a2: int,
         b2: int, label: int, after: bool, target: int) -> None:  # fmt: skip
    """One plan into the slots from ``p_v[v]``, ``p_n[n]`` and ``p_c[c]``."""
    st.p_v[v] = value
    st.p_n[n] = 1
    st.p_n[n + 1] = ncmd
    st.p_c[c], st.p_c[c + 1], st.p_c[c + 2] = c1, a1, b1
    st.p_c[c + 3], st.p_c[c + 4], st.p_c[c + 5] = c2, a2, b2
    st.p_n[n + 2] = label
    st.p_n[n + 3] = 1 if after else 0
    st.p_n[n + 4] = target


@_jit
def _without_charge(st: Any) -> None:
    """The plan chosen becomes the best plan but the charge (``p_n[0]`` 0 when there is none): what planning the
    turn again without the charge chooses, since a refused charge changes nothing (``_Turn.without_charge``)."""
    st.p_v[0] = st.p_v[1]
    for i in range(5):
        st.p_n[i] = st.p_n[8 + i]
    for i in range(6):
        st.p_c[i] = st.p_c[6 + i]


@_jit
def _best_plan(m: Any, st: Any, me: int) -> None:
    """``_Turn.best_plan`` into ``st.p_*`` (``p_n[0]`` 0: nothing to do; ``p_n[8]`` 0: nothing but a charge)."""
    st.p_n[0] = 0
    st.p_n[8] = 0
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
        _approach(m, st, me, can_full, can_move)


@_jit
def _approach(m: Any, st: Any, me: int, can_full: bool, can_move: bool) -> None:
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
    if can_full and melee:
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
def _charge_goal(m: Any, st: Any, me: int, t: int, k: int) -> int:
    """``_charge``'s goal for a one-square charger: the nearest square from which ``k`` reaches ``t`` (then the
    one most directly toward it, then the lowest x, y), 10 ft to twice the speed away in a clear straight line;
    -1 when there is none."""
    w = m.width
    here = st.pos[me]
    pt = st.pos[t]
    reach = m.w_reach[me, k]
    if threatens(here, pt, w, reach, True):
        return -1  # it can already attack
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
        return -1
    straight = distance_ft(here, goal, w)
    if straight < 10 or straight > 2 * m.speed[me] or not _clear_line(m, st, me, goal):
        return -1
    return goal


@_jit
def _charge(m: Any, st: Any, me: int, t: int, k: int) -> bool:
    """``do_charge`` (ACT-50): to the nearest square from which ``k`` reaches ``t`` (then the one most directly
    toward it), 10 ft to twice the speed away in a clear straight line (as far as its space moves, a big one's
    too: ``geometry.space_shift_ft``), by a path that costs no more than that line; -2 AC until the start of its
    next turn, attacks of opportunity on the way, one attack at -2. False (nothing done) when the engine would
    refuse it, its attack at the end included (:func:`_can_attack_from`; the engine keeps a charge whose charger
    an attack of opportunity drops on the way, which the kernel cannot know before it moves: a charge at a foe
    it could not attack then parts the two)."""
    w = m.width
    if not _can_full(m, st, me) or not m.w_melee_geom[me, k] or _out(st, t):
        return False
    if not _knows(m, st, me, t):
        return False  # its attack would be refused (SEN-04), and the whole charge with it
    if m.no_run[me]:
        return False  # a charge runs: not while burrowing or climbing (MOV-29, MOV-30)
    here = st.pos[me]
    goal = _bt.charge_goal_fp(m, st, me, t, k) if m.big else _charge_goal(m, st, me, t, k)
    if goal < 0:
        return False
    straight = distance_ft(here, goal, w)  # how far its space moves (a big one's anchor too)
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
    _best_plan(m, st, me)
    label = st.p_n[2]
    after = st.p_n[3] == 1
    target = st.p_n[4]
    done = _execute(m, st, me)
    if st.p_n[0] and target >= 0 and done:
        st.focus[m.side[me]] = target
    if not done and label == L_CHARGE and not st.sc[ENDED] and not _out(st, me):
        _begin(m, st, me)  # the charge was refused (nothing changed): the best of the other plans
        _without_charge(st)
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
            _best_plan(m, st, me)
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
