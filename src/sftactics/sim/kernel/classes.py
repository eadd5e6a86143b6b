"""Class abilities in the compiled kernel (issues 16, 22): what ``encounter.class_moves`` does and ``sim.choices``
decides with the pregens' Resolve-costed heals (the healer mystic's *healing channel*), on the arrays of
:mod:`sftactics.sim.kernel.specials` (``Model.ab``: ``target`` T_SELF / T_ALLY / T_ALLIES, ``rcost``).

* :func:`affordable` is ``choices._affordable``: a heal that costs Resolve Points keeps 1 for stabilizing.
* :func:`spend` is what ``class_moves.do_class_move`` takes: the action the heal names (a heal of the user a move
  action, of an ally a standard action, of every ally in range a full action) and its Resolve cost.
* :func:`first_heal` is the start of ``choices.heal``: a healer who is itself a patient heals itself as a move
  action when the policy allows it (the tactical policy; its turn goes on), else a heal of every ally in range
  when the first such heal the healer can pay reaches two patients or more (the best one is used).

The heal of one ally (the touch form) is ``kernel.abilities.heal``'s like any other, ranked by
``choices._heal_worth`` (``Specials.heal_rank``) among the heals the healer can pay.

Attack riders and marks (the operative's *trick attack*, the envoy's *get 'em*), on the arrays of
:mod:`sftactics.sim.kernel.riders` (``Model.rm``), as ``encounter.class_moves`` plays them and
``sim.class_choices`` chooses them:

* :func:`trick_attack` is ``class_moves._rider``: a full action; the move first when the command has one (the
  whole command refused, changing nothing, when the attack would be impossible from the square or no path leads
  there); the skill check (d20 + the bonus against DC ``dc_base`` + the target's CR, no automatic results); the
  ammunition, attacks of opportunity for a ranged attack, then the attack, on a success with the extra dice
  rolled after the weapon's in each roll (:func:`rider_roll`) and the target flat-footed (-2 AC) unless it is
  already (surprised, unable to see the attacker, or always: :func:`rider_ac`);
* :func:`do_mark` is ``class_moves._mark``: a move action; its bonus goes to every attack roll of the user's
  side against the foe (``one_attack``'s ``target:`` tag), stacked as ``stats.attack_bonus`` stacks it
  (:func:`mark_bonus`: the model's table per attacker, weapon and set of marks in force), until the start of the
  user's next turn (or the round after, if that turn never comes: ``timing.due``);
* :func:`simple` is ``class_choices.simple_rider`` then ``simple_mark``; :func:`plans` is
  ``class_choices.class_plans`` (:func:`execute` carries its commands out).

Who sees whom is looked at again when the command ends (``perception.refresh`` after each command): the attack
after a trick attack's move reads the awareness of the command's start (a foe heard, not seen, from where the
operative stood is attacked with total concealment), as the engine's does. Known difference: when the attack
after the move is impossible the engine refuses the whole command (the move undone); the kernel cannot undo a
move and attacks nothing then (the policies choose only squares from which the attack is possible).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sftactics.sim.class_choices import MARK_SHARE
from sftactics.sim.kernel import bigtactics as _bt
from sftactics.sim.kernel import tacplaces as _tplaces
from sftactics.sim.kernel import tacsquares as _tsquares
from sftactics.sim.kernel import tactics as _tac
from sftactics.sim.kernel import tacturn as _tturn
from sftactics.sim.kernel.attacks import _attack_numbers, _one_attack, _provoke_all
from sftactics.sim.kernel.books import (
    ENDED,
    FRESH,
    MOVE,
    ROUND,
    RP_SPENT,
    STD,
    _can,
    _die,
    _geo_miss,
    _knows,
    _log,
    _out,
    _sight_refresh,
    _spend,
)
from sftactics.sim.kernel.flow import _check_end
from sftactics.sim.kernel.footprints import fp_distance_ft
from sftactics.sim.kernel.geo import _jit
from sftactics.sim.kernel.movement import _move, _prepare_move, _unmark
from sftactics.sim.kernel.sight import CONCEALMENT_MISS
from sftactics.sim.kernel.simple import _attack_now
from sftactics.sim.kernel.specials import T_ALLIES, T_SELF
from sftactics.sim.kernel.tables import NEED_HI, NEED_LO

#: the tactical plans' commands (``tactics._command`` hands them here): a trick attack (``a``: target + N x
#: (square + 1) with a move first, else the target; ``b``: the weapon) and a mark (``a``: the foe)
C_TRICK, C_MARK = 20, 21
#: ``st.body``'s column for a creature's mark: (round it ends << 16) | (foe + 1); 0: none (kernel.bodies leaves
#: column 3 free)
MARKED = 3
#: log rows: the rider's skill check (a ``save`` row, kind 4) and a mark (a ``condition`` row, code 9)
CHECK_ROW, MARK_ROW = 4, 9


@_jit
def affordable(m: Any, st: Any, c: int, j: int) -> bool:
    """``choices._affordable``: no Resolve cost, or 1 Resolve Point left after paying it."""
    r = m.ab.rcost[c, j]
    return bool(r == 0 or st.rp[c] - r >= 1)


@_jit
def _ready(m: Any, st: Any, c: int, j: int) -> bool:
    ab = m.ab
    if not ab.ok[c, j] or ab.hn[c, j] < 0:
        return False
    if ab.uses[c, j] >= 0 and st.ab_spent[c, ab.pool[c, j]] >= ab.uses[c, j]:
        return False
    return affordable(m, st, c, j)


@_jit
def spend(m: Any, st: Any, c: int, j: int) -> None:
    """The action slot ``j`` takes (``_spend``: a standard action unless it heals the user or every ally in
    range) and its Resolve cost (Resolve spent by choice in the results)."""
    t = m.ab.target[c, j]
    if t == T_SELF:
        _spend(st, 1)
    elif t == T_ALLIES:
        st.sc[STD] = 1
        st.sc[MOVE] = 1
    else:
        _spend(st, 0)
    st.rp[c] -= m.ab.rcost[c, j]
    st.res[c, RP_SPENT] += m.ab.rcost[c, j]  # spent by choice (sim.fight's tracker)


@_jit
def _best(m: Any, st: Any, me: int, kind: int) -> int:
    """The heal of ``kind`` the healer can use and pay with the highest rank (-1: none)."""
    ab = m.ab
    best = -1
    for j in range(ab.ok.shape[1]):
        better = best < 0 or ab.heal_rank[me, j] > ab.heal_rank[me, best]
        if ab.target[me, j] == kind and _ready(m, st, me, j) and better:
            best = j
    return best


@_jit
def first_heal(m: Any, st: Any, me: int, need: Any, self_move: bool) -> tuple[int, int]:
    """``choices.heal`` before its heal of one ally, given each creature's ``need`` (``_need``; 0 for the other
    side): (1, slot) to heal the user as a move action (the turn goes on), (2, slot) to heal every ally in
    range (a full action), or (0, -1)."""
    ab = m.ab
    if self_move and need[me] > 0 and _can(m, st, me, 1):
        j = _best(m, st, me, T_SELF)
        if j >= 0:
            return 1, j
    if not _tsquares._can_full(m, st, me):
        return 0, -1
    first = -1
    for j in range(ab.ok.shape[1]):  # ``burst[0]``: the first such heal in the stat block's order
        if ab.target[me, j] == T_ALLIES and _ready(m, st, me, j):
            first = j
            break
    if first < 0:
        return 0, -1
    within = max(ab.rng[me, first], 5)
    near = 0
    for c in range(m.n):
        d = fp_distance_ft(st.pos[me], m.fside[me], st.pos[c], m.fside[c], m.width)
        if need[c] > 0 and (c == me or d <= within):
            near += 1
    if near < 2:
        return 0, -1
    return 2, _best(m, st, me, T_ALLIES)


@_jit
def in_burst(m: Any, st: Any, me: int, j: int, c: int) -> bool:
    """Whether the heal of every ally in range (slot ``j``) reaches ``c`` (``class_moves._patients``)."""
    if m.side[c] != m.side[me] or st.dead[c]:
        return False
    return bool(c == me or fp_distance_ft(st.pos[me], m.fside[me], st.pos[c], m.fside[c], m.width) <= m.ab.rng[me, j])


# ---------------------------------------------------------------- marks (get 'em)
@_jit
def mark_bonus(m: Any, st: Any, a: int, k: int, t: int) -> int:
    """What the marks on ``t`` by ``a``'s side add to ``a``'s attack roll with weapon ``k``."""
    rm = m.rm
    if rm.mk_delta.shape[2] == 1:
        return 0
    bits = 0
    for u in range(m.n):
        b = rm.mk_index[u]
        if b < 0 or m.side[u] != m.side[a]:
            continue
        v = st.body[u, MARKED]
        if v > 0 and (v & 0xFFFF) - 1 == t:
            bits |= 1 << b
    return int(rm.mk_delta[a, k, bits])


@_jit
def start_turn(st: Any, c: int) -> None:
    """The mark ``c`` gave ends as its turn starts (``timing.until_start_of_next_turn``)."""
    st.body[c, MARKED] = 0


@_jit
def round_start(m: Any, st: Any) -> None:
    """A mark whose user never got to its next turn ends the round after (``timing.due``)."""
    for c in range(m.n):
        v = st.body[c, MARKED]
        if v > 0 and st.sc[ROUND] > (v >> 16) + 1:
            st.body[c, MARKED] = 0


@_jit
def do_mark(m: Any, st: Any, c: int, t: int) -> None:
    """``class_moves._mark`` after its checks: a move action; the side's bonus against ``t`` from now."""
    _spend(st, 1)
    st.sc[FRESH] = 0
    st.body[c, MARKED] = ((st.sc[ROUND] + 1) << 16) | (t + 1)
    _log(st.log, st.nlog, 7, st.sc[ROUND], t, MARK_ROW, c, m.rm.mk_bonus[c], 0, 0)


@_jit
def _dist(m: Any, st: Any, a: int, b: int) -> int:
    return fp_distance_ft(st.pos[a], m.fside[a], st.pos[b], m.fside[b], m.width)


# ---------------------------------------------------------------- riders (trick attack)
@_jit
def rider_ac(m: Any, st: Any, a: int, t: int) -> int:
    """The rider's flat-footed target (-2 AC), unless it is flat-footed already (surprised, or always)."""
    rm = m.rm
    if not rm.r_ff[a] or st.surprised[t] or rm.ff_already[t]:
        return 0
    return -2


@_jit
def rider_roll(m: Any, st: Any, a: int, k: int, times: int) -> int:
    """The weapon's damage with the rider's extra dice (``with_extra_damage``: the weapon's dice, then the
    extra ones, each roll), ``times`` times."""
    total = 0
    for _ in range(times):
        for _ in range(m.w_ndice[a, k]):
            total += _die(st, m.w_sides[a, k])
        for _ in range(m.rm.r_xn[a]):
            total += _die(st, m.rm.r_xs[a])
        total += m.w_flat[a, k]
    return total


@_jit
def trick_attack(m: Any, st: Any, c: int, t: int, k: int, dest: int) -> bool:
    """``class_moves._rider`` with weapon ``k`` on ``t`` (``dest`` >= 0: moving there first); False when the
    engine refuses the command (nothing happened)."""
    if not _tsquares._can_full(m, st, c) or st.dead[t] or not _tplaces._loaded(m, st, c, k, 1):
        return False
    if dest >= 0 and dest != st.pos[c]:
        nthreat = _prepare_move(m, st, c)
        here = st.pos[c]
        ok = st.best_cost[dest] >= 0
        if ok:
            st.pos[c] = dest
            ok = _attack_numbers(m, st, c, k, t)[0]
            st.pos[c] = here
        if not ok:
            _unmark(m, st, nthreat)
            return False
        _move(m, st, c, dest, nthreat, True, False)  # who sees whom is looked at when the command ends
        st.sc[FRESH] = 0
        _check_end(m, st)
        # the awareness is still the command's start's; a foe not located or out of reach after the move: the
        # engine refuses the whole command (the module docstring)
        able = not (st.sc[ENDED] or _out(st, c) or st.dead[t])
        if able and _knows(m, st, c, t) and _attack_numbers(m, st, c, k, t)[0]:
            _rider_attack(m, st, c, t, k)
        _sight_refresh(m, st, c)
        _check_end(m, st)
        return True
    else:
        if not _knows(m, st, c, t) or not _attack_numbers(m, st, c, k, t)[0]:
            return False
        st.sc[STD] = 1
        st.sc[MOVE] = 1
        st.sc[FRESH] = 0
    _rider_attack(m, st, c, t, k)
    return True


@_jit
def _rider_attack(m: Any, st: Any, c: int, t: int, k: int) -> None:
    """The rest of ``class_moves._rider``: the check, the ammunition, attacks of opportunity for a ranged
    attack, the attack."""
    rm = m.rm
    success = True
    if rm.r_check[c]:
        d = _die(st, 20)
        success = d + rm.r_bonus[c] >= rm.r_dc[c, t]
        _log(st.log, st.nlog, 6, st.sc[ROUND], t, CHECK_ROW, d, d + rm.r_bonus[c], rm.r_dc[c, t], int(success))
    if m.w_cap[c, k] >= 0:
        st.ammo[c, k] -= m.w_usage[c, k]
    if not m.w_is_melee[c, k]:
        _provoke_all(m, st, c)
        if _out(st, c):
            _check_end(m, st)
            return
    _one_attack(m, st, c, t, k, False, 0, success)
    _check_end(m, st)


# ---------------------------------------------------------------- the simple policy
@_jit
def simple(m: Any, st: Any, c: int, t: int, weapon: int) -> bool:
    """``class_choices.simple_rider`` (a trick attack on ``t`` from here with the first weapon that qualifies
    and reaches), else ``simple_mark`` (mark ``t``, then attack it with ``weapon``): True when one was used."""
    rm = m.rm
    if rm.rider[c] >= 0 and _tsquares._can_full(m, st, c):
        for k in range(m.w_ok.shape[1]):
            usable = m.w_ok[c, k] and m.w_attack[c, k] and rm.r_ok[c, k] and _attack_numbers(m, st, c, k, t)[0]
            if usable and trick_attack(m, st, c, t, k, -1):
                return True
    if rm.mark[c] >= 0 and _can(m, st, c, 1) and _tsquares._move_then_standard(m, st, c) and not st.dead[t]:
        if rm.mk_rng[c] > 0 and _dist(m, st, c, t) > rm.mk_rng[c]:
            return False
        do_mark(m, st, c, t)
        if _knows(m, st, c, t):  # the attack on a foe not located is refused (SEN-04)
            _attack_now(m, st, c, t, weapon, False)
        return True
    return False


# ---------------------------------------------------------------- the tactical policy
@_jit
def _rider_value(m: Any, st: Any, me: int, t: int, k: int, bonus: int, ac: int, placed: bool) -> float:
    """``class_choices.rider_value``: the check's chance times the attack with the extra dice on a flat-footed
    target, plus the failed check's chance times the plain attack."""
    rm = m.rm
    plain = _tturn._attack_value(m, st, me, t, k, bonus, ac, 1, placed)
    p = rm.r_p[me, t]
    acb = ac + rm.ff_val[me, k, t, 1 if st.surprised[t] else 0]
    need = min(max(acb - bonus, NEED_LO), NEED_HI) - NEED_LO
    x = 0
    if placed and rm.b_off.shape[4] > 1:
        g = _geo_miss(m, st, me, t)
        x = m.miss_slot[0 if g == 0 else (1 if g == CONCEALMENT_MISS else 2)]
    off, ln, hit = rm.b_off[me, k, t, need, x], rm.b_len[me, k, t, need, x], rm.b_hit[me, k, t, need, x]
    boosted = _tturn._value(m, st, me, t, rm.b_val, rm.b_prob, off, ln, hit)
    return float(p * boosted + (1 - p) * plain)


@_jit
def _rough(m: Any, st: Any, me: int, sq: int, t: int, k: int) -> tuple[bool, int, int]:
    """``_Turn._rough_geometry``'s numbers from ``sq`` (reach or range, flanking by position, the cover hint)."""
    if not _tplaces._in_reach_or_range(m, st, me, sq, t, k):
        return False, 0, 0
    pt = st.pos[t]
    if m.w_melee_geom[me, k]:  # between spaces (``footprint_distance_ft``, ``flank_line``): a big foe's too
        flank = False
        for f in range(st.t_n[1]):
            if _bt.flanks_at(m, st, me, sq, st.t_friends[f], t):
                flank = True
                break
        return True, _tturn._atk(m, st, me, k, t) + (m.flank_bonus if flank else 0), _tturn._ac(m, st, me, k, t)
    bonus = _tturn._atk(m, st, me, k, t) + m.w_range[me, k, _bt.dist_at(m, st, me, sq, t) // 5]
    return (
        True,
        bonus,
        _tturn._ac(m, st, me, k, t) + (m.cover_ac[_tturn.COVER] if _tplaces._covered_from(m, pt, sq) else 0),
    )


@_jit
def _rider_plans(m: Any, st: Any, me: int) -> bool:
    """``class_choices.rider_plans``: from here, and from the best three of the move's candidate squares."""
    rm = m.rm
    here = st.pos[me]
    squares = np.empty(4, dtype=np.int64)
    squares[0] = here
    nsq = 1
    if rm.r_move[me]:
        n = _tsquares._candidates(m, st, me)
        ns = 0
        for j in range(n):
            q = st.cand[j]
            best = 0.0
            st.pos[me] = q
            for i in range(st.t_n[0]):
                t = st.t_foes[i]
                if not _knows(m, st, me, t):
                    continue
                for k in range(m.w_ok.shape[1]):
                    if not (m.w_ok[me, k] and m.w_attack[me, k] and rm.r_ok[me, k]):
                        continue
                    ok, bonus, ac = _rough(m, st, me, q, t, k)
                    if ok:
                        best = max(best, _rider_value(m, st, me, t, k, bonus, ac, False))
            st.pos[me] = here
            if best > 0:
                st.fkeys[ns, 0] = -(best - _tplaces._risk_cost(m, st, me, q, False))
                st.fkeys[ns, 1] = (q % m.width) * 10_000 + q // m.width
                st.fkeys[ns, 2] = 0
                st.sqs2[ns] = q
                ns += 1
        order = np.empty(3, dtype=np.int64)
        top = _tsquares._pick(st.fkeys, ns, 3, order)
        for j in range(top):
            squares[nsq] = st.sqs2[order[j]]
            nsq += 1
    found = False
    for s in range(nsq):
        q = squares[s]
        cost = _tplaces._risk_cost(m, st, me, q, True) + (0.0 if q == here else _tplaces._aoo_path(m, st, me, q))
        aoo_end = _tplaces._aoo_here(m, st, me, q)
        for i in range(st.t_n[0]):
            t = st.t_foes[i]
            if not _knows(m, st, me, t):
                continue
            for k in range(m.w_ok.shape[1]):
                if not (m.w_ok[me, k] and m.w_attack[me, k] and rm.r_ok[me, k]):
                    continue
                if not _tplaces._in_reach_or_range(m, st, me, q, t, k):
                    continue
                st.pos[me] = q
                ok, bonus, ac = _tturn._exact(m, st, me, k, t)
                v = _rider_value(m, st, me, t, k, bonus, ac, True) if ok else 0.0
                st.pos[me] = here
                if not ok:
                    continue
                v = v - cost
                if not m.w_is_melee[me, k]:
                    v -= aoo_end
                a = t if q == here else t + m.n * (q + 1)
                _tac._keep(st, v, 1, C_TRICK, a, k, _tturn.C_NONE, 0, 0, _tturn.L_OTHER, False, t)
                found = True
    return found


@_jit
def _mark_gain(m: Any, st: Any, me: int, t: int, bonus: int) -> float:
    """``class_choices.mark_gain``: +``bonus`` on the side's attack rolls against ``t`` for a round."""
    one = np.empty(1, dtype=np.int64)
    one[0] = t
    extra = MARK_SHARE * bonus * _tturn._dpr(m, st, me, one, 1)
    for f in range(st.t_n[1]):
        extra += MARK_SHARE * bonus * _tturn._dpr(m, st, st.t_friends[f], one, 1)
    return float(_tturn._threat(m, st, me, t) * min(1.0, extra / _tturn._pool(st, t)))


@_jit
def _mark_plans(m: Any, st: Any, me: int, stay_cost: float) -> bool:
    """``class_choices.mark_plans``: the mark and each attack from here on a foe in its range."""
    rm = m.rm
    here = st.pos[me]
    n = _tplaces._attacks_from(m, st, me, here, False, True)
    if n == 0:
        return False
    aoo_here = _tplaces._aoo_here(m, st, me, here)
    b = rm.mk_bonus[me]
    found = False
    for j in range(n):
        if st.o_c[j] != _tturn.C_ATTACK:
            continue
        t, k, v = st.o_t[j], st.o_k[j], st.o_v[j]
        if rm.mk_rng[me] > 0 and _dist(m, st, me, t) > rm.mk_rng[me]:
            continue
        gain = _mark_gain(m, st, me, t, b)
        boosted = v * (1 + MARK_SHARE * b)
        cost = stay_cost + (aoo_here if not m.w_is_melee[me, k] else 0.0)
        _tac._keep(st, boosted + gain - cost, 2, C_MARK, t, 0, _tturn.C_ATTACK, t, k, _tturn.L_OTHER, False, t)
        found = True
    return found


@_jit
def plans(m: Any, st: Any, me: int, stay_cost: float) -> bool:
    """``class_choices.class_plans`` into the turn's best plan; True when one was weighed (an offensive plan)."""
    rm = m.rm
    found = False
    if rm.rider[me] >= 0 and _tsquares._can_full(m, st, me):
        found = _rider_plans(m, st, me)
    if rm.mark[me] >= 0 and _tsquares._move_then_standard(m, st, me) and _can(m, st, me, 1):
        found = _mark_plans(m, st, me, stay_cost) or found
    return found


@_jit
def execute(m: Any, st: Any, me: int, cmd: int, a: int, b: int) -> bool:
    """A plan's trick attack or mark (``use_ability``); False when the engine would refuse it."""
    if cmd == C_TRICK:
        return trick_attack(m, st, me, a % m.n, b, a // m.n - 1)
    if not _can(m, st, me, 1) or st.dead[a] or m.side[a] == m.side[me]:
        return False
    if m.rm.mk_rng[me] > 0 and _dist(m, st, me, a) > max(m.rm.mk_rng[me], 5):
        return False
    do_mark(m, st, me, a)
    return True


__all__ = [
    "C_MARK",
    "C_TRICK",
    "affordable",
    "do_mark",
    "execute",
    "first_heal",
    "in_burst",
    "mark_bonus",
    "plans",
    "rider_ac",
    "rider_roll",
    "round_start",
    "simple",
    "spend",
    "start_turn",
    "trick_attack",
]
