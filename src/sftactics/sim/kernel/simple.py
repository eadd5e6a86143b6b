"""The simple policy's turn in the compiled fight (:class:`~sftactics.sim.policies.SimplePolicy`): Resolve to
stabilize or stay up, abilities first, a grenade, the first weapon in reach or range, reloading, and
otherwise a move toward the nearest foe."""

from __future__ import annotations

from typing import Any

from sftactics.sim import kernel as _kernel
from sftactics.sim.kernel import bigfight as _big
from sftactics.sim.kernel import setup as _setup
from sftactics.sim.kernel.attacks import _attack_numbers, _one_attack, _provoke_all
from sftactics.sim.kernel.bodies import LINGER
from sftactics.sim.kernel.books import (
    ENDED,
    FRESH,
    MOVE,
    ROUND,
    STD,
    _can,
    _knows,
    _log,
    _out,
    _side_knows,
    _sight_refresh,
    _spend,
)
from sftactics.sim.kernel.flow import _check_end
from sftactics.sim.kernel.geo import _jit, distance_ft
from sftactics.sim.kernel.grenades import _grenade_point, _throw
from sftactics.sim.kernel.injury import _track
from sftactics.sim.kernel.movement import _approach, _move, _prepare_move, _unmark


# ---------------------------------------------------------------- the simple policy's turn
@_jit
def _nearest(m: Any, st: Any, c: int) -> int:
    """``SimplePolicy._nearest``: the nearest foe ``c`` has located itself, else the nearest its side knows of."""
    t = _nearest_of(m, st, c, True)
    return t if t >= 0 else _nearest_of(m, st, c, False)


@_jit
def _nearest_of(m: Any, st: Any, c: int, own: bool) -> int:
    best, bd, br = -1, 0, 0
    for f in range(m.n):
        if m.side[f] == m.side[c] or _out(st, f) or not _side_knows(m, st, m.side[c], f):
            continue
        if own and not _knows(m, st, c, f):
            continue
        d = _big.pair_dist(m, st, c, f) if m.big else distance_ft(st.pos[c], st.pos[f], m.width)
        if best < 0 or (d, m.rank[f]) < (bd, br):
            best, bd, br = f, d, m.rank[f]
    return best


@_jit
def _usable(m: Any, st: Any, c: int, t: int) -> int:
    for k in range(m.w_ok.shape[1]):
        if m.w_ok[c, k] and m.w_attack[c, k]:
            ok, _, _ = _attack_numbers(m, st, c, k, t)
            if ok:
                return k
    return -1


@_jit
def _first_attack_weapon(m: Any, c: int) -> int:
    for k in range(m.w_ok.shape[1]):
        if m.w_ok[c, k] and m.w_attack[c, k]:
            return k
    return -1


@_jit
def _simple_turn(m: Any, st: Any, c: int) -> None:
    if _resolve_start(m, st, c, False) and not _kernel.abilities.simple_first(m, st, c):  # morale, heals, areas
        _simple_actions(m, st, c)


@_jit
def _resolve_start(m: Any, st: Any, c: int, keep_reserve: bool) -> bool:
    """Resolve at the start of the turn (INJ-11, INJ-12): a dying creature stabilizes if it can (and its turn
    is over: False); a stable one at 0 HP stays in the fight (with ``keep_reserve``, only while it keeps enough
    to stabilize again)."""
    if st.dying[c]:
        if st.rp[c] >= m.stab_cost[c]:
            st.rp[c] -= m.stab_cost[c]
            st.res[c, 3] += m.stab_cost[c]
            st.stab_round[c] = st.sc[ROUND]
            st.dying[c] = False
            st.stable[c] = True
            st.body[c, LINGER] = 0
            _track(st, c, -1, -1)
            _log(st.log, st.nlog, 8, st.sc[ROUND], c, 1, m.stab_cost[c], 0, 0, 0)
        return False
    if (
        st.stable[c]
        and st.hp[c] == 0
        and st.rp[c] >= 1
        and st.stab_round[c] != st.sc[ROUND]
        and st.sc[FRESH]
        and not (keep_reserve and st.rp[c] - 1 < m.stab_cost[c])
    ):  # INJ-12: stay in the fight
        st.rp[c] -= 1
        st.res[c, 3] += 1
        st.hp[c] = 1
        st.stable[c] = False
        st.dying[c] = False
        st.unconscious[c] = False
        st.dropped_round[c] = -1
        st.dropped_own[c] = False
        st.zero_rp_at_drop[c] = False
        st.stab_round[c] = -1
        st.hp_dmg_round[c] = -1
        _track(st, c, -1, -1)
        _log(st.log, st.nlog, 8, st.sc[ROUND], c, 2, 1, 0, 0, 0)
        _sight_refresh(m, st, c)  # back in the fight: it looks around again
    return True


@_jit
def _attack_now(m: Any, st: Any, c: int, t: int, k: int, full: bool) -> None:
    """``do_attack`` (or ``do_full_attack``: two attacks at -4, the second if the target still lives) after
    the checks: the action, the ammunition, attacks of opportunity for a ranged attack, the attacks."""
    if full:
        st.sc[STD] = 1
        st.sc[MOVE] = 1
    else:
        _spend(st, 0)
    st.sc[FRESH] = 0
    shots = 2 if full else 1
    if m.w_cap[c, k] >= 0:
        st.ammo[c, k] -= m.w_usage[c, k] * shots
    if not m.w_is_melee[c, k]:
        _provoke_all(m, st, c)
    if _out(st, c):
        _check_end(m, st)
        return
    _one_attack(m, st, c, t, k, False, -4 if full else 0)
    if full and not st.dead[t] and not _out(st, c):
        _one_attack(m, st, c, t, k, False, -4)
    if _setup.pending(m, st):
        _sight_refresh(m, st, -1)  # the command's end looks again at the pairs of who gave its hiding up
    _check_end(m, st)


@_jit
def _simple_actions(m: Any, st: Any, c: int) -> None:
    """The simple policy's actions after Resolve (``SimplePolicy.__call__``)."""
    for moves in range(3):
        if st.sc[ENDED]:
            return
        if _out(st, c) or not _can(m, st, c, 1):
            break
        t = _nearest(m, st, c)
        if t < 0:
            if moves < 2 and _kernel.seek.seek_step(m, st, c):
                continue  # nobody located: go looking (``sim.search``)
            break
        if _can(m, st, c, 0):
            gk, gp = _grenade_point(m, st, c)
            if gk >= 0:
                _throw(m, st, c, gk, gp)
                _check_end(m, st)
                st.sc[FRESH] = 0
                break
        weapon = _usable(m, st, c, t)
        first = _first_attack_weapon(m, c)
        if first >= 0 and m.w_is_melee[c, first] and weapon >= 0 and not m.w_is_melee[c, weapon] and moves < 2:
            nthreat = _prepare_move(m, st, c)
            dest = _approach(m, st, c, t)
            if dest >= 0:
                _move(m, st, c, dest, nthreat)
                st.sc[FRESH] = 0
                _check_end(m, st)
                continue
            _unmark(m, st, nthreat)
        if weapon >= 0 and _can(m, st, c, 0):
            cap = m.w_cap[c, weapon]
            if cap >= 0 and st.ammo[c, weapon] < m.w_usage[c, weapon]:
                if st.ammo[c, weapon] < cap:  # reload (a move action)
                    _spend(st, 1)
                    st.ammo[c, weapon] = cap
                    st.sc[FRESH] = 0
                    continue
            elif _kernel.classes.simple(m, st, c, t, weapon):  # trick attack or get 'em first (class_choices)
                break
            elif _knows(m, st, c, t):  # the engine refuses an attack on a foe not located (SEN-04)
                _attack_now(m, st, c, t, weapon, False)
                break
        if moves >= 2:
            break
        nthreat = _prepare_move(m, st, c)
        dest = _approach(m, st, c, t)
        if dest < 0:
            _unmark(m, st, nthreat)
            break
        _move(m, st, c, dest, nthreat)
        st.sc[FRESH] = 0
        _check_end(m, st)
