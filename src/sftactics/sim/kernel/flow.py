"""The flow of the compiled fight (CF-*): the end of the fight, durations that end, turns that start and end
(bleeding, burning, Resolve lost while dying), initiative with ties broken by roll-offs."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.sim import kernel as _kernel
from sftactics.sim.kernel import corrode as _corrode
from sftactics.sim.kernel import setup as _setup
from sftactics.sim.kernel.attacks import _roll_damage, _save
from sftactics.sim.kernel.bodies import LINGER
from sftactics.sim.kernel.books import (
    CUR,
    DIAG,
    ENDED,
    FRESH,
    MOVE,
    ROUND,
    STD,
    WINNER,
    _able_side,
    _die,
    _log,
    _sight_refresh,
)
from sftactics.sim.kernel.geo import _jit
from sftactics.sim.kernel.injury import _damage, _kill, _lose_rp, _track


# ---------------------------------------------------------------- flow
@_jit
def _check_end(m: Any, st: Any) -> None:
    if st.sc[ENDED]:
        return
    side = _able_side(m, st)
    if side != -2:
        st.sc[ENDED] = 1
        st.sc[WINNER] = side


@_jit
def _expire(m: Any, st: Any, who: int, at_round_start: bool) -> None:
    """``timing.due`` for the count-anchored staggered condition (and marks, ``kernel.classes``)."""
    if at_round_start:
        _kernel.classes.round_start(m, st)
    for c in range(m.n):
        r = st.stag_round[c]
        if r < 0:
            continue
        if at_round_start:
            due = st.sc[ROUND] > r
        else:
            due = st.sc[ROUND] > r or (st.sc[ROUND] == r and st.init[who] <= st.stag_count[c])
        if due:
            st.stag_round[c] = -1


@_jit
def _can_choose(m: Any, st: Any, c: int) -> bool:
    if st.dead[c]:
        return False
    if st.dying[c]:
        return bool(st.rp[c] >= m.stab_cost[c])
    if st.stable[c] or (st.unconscious[c] and st.hp[c] == 0):
        return bool(st.rp[c] >= 1 and st.stab_round[c] != st.sc[ROUND])
    return True


@_jit
def _end_turn(m: Any, st: Any, c: int) -> None:
    if st.dying[c] and not st.dead[c]:
        if st.dropped_own[c] and st.dropped_round[c] == st.sc[ROUND]:
            pass
        elif st.body[c, LINGER] > 0:  # INJ-07: the countdown of an NPC lingering at 0 HP
            st.body[c, LINGER] -= 1
            if st.body[c, LINGER] <= 0:
                _kill(m, st, c, 2, -1, -1)
        elif st.zero_rp_at_drop[c]:
            if st.sc[ROUND] >= st.dropped_round[c] + m.grace_rounds:  # injury.grace_deadline
                _kill(m, st, c, 3, -1, -1)
        else:
            _lose_rp(m, st, c, 1, -1, -1)
        _track(st, c, -1, -1)
    # CON-05: a burning creature saves at the end of its turn (DC 10 + this round's burning damage, +2 per
    # earlier consecutive attempt: conditions.burning_save_dc and burning_save_bonus); success puts it out
    if st.burn_count[c] > 0 and not st.dead[c]:
        if _save(m, st, c, 1, 2 * st.burn_saves[c], 10 + st.burn_taken[c]):
            st.burn_count[c] = 0
            st.burn_saves[c] = 0
        else:
            st.burn_saves[c] += 1
    else:
        st.burn_saves[c] = 0
    if _corrode.count(st, c) > 0 and not st.dead[c]:  # corroding likewise, on its own count (corrode.py)
        _corrode.saved(st, c, _save(m, st, c, 1, _corrode.save_bonus(st, c), _corrode.save_dc(st, c)))
    else:
        _corrode.no_save(st, c)
    if _setup.turn_ended(m, st, c):  # its grapples end (MAN-07)
        _sight_refresh(m, st, -1)
    st.acted[c] = True
    _check_end(m, st)


@_jit
def _start_turn(m: Any, st: Any, c: int) -> None:
    _expire(m, st, c, False)
    st.sc[CUR] = c
    st.react_used[c] = False
    st.charging[c] = False  # ACT-50: until the start of its next turn
    st.surprised[c] = False  # CF-11: flat-footed from surprise until its first turn
    _kernel.classes.start_turn(st, c)  # its mark ends (get 'em)
    st.sc[STD] = 0
    st.sc[MOVE] = 0
    st.sc[DIAG] = 0
    st.sc[FRESH] = 1
    _log(st.log, st.nlog, 2, st.sc[ROUND], c, st.hp[c], st.sp[c], st.rp[c], 0, 0)
    # bleeding, burning and corroding (CON-02, CON-05), in the order the creature's conditions list them: each
    # group moves to the end of the list when an instance of it is gained; every instance rolls, even on a
    # creature its group's earlier tick killed (the engine takes the list before the first tick)
    for p in range(3):
        g = _corrode.group_at(st, c, p)
        if g == _corrode.G_BLEED:
            _bleed_tick(m, st, c)
        elif g == _corrode.G_BURN:
            for i in range(st.burn_count[c]):
                raw = _roll_damage(st, st.burn_n[c, i], st.burn_s[c, i], st.burn_flat[c, i], 1)
                amount = m.mit[c, st.burn_prof[c, i], min(max(raw, 0), m.mit.shape[2] - 1)]
                _damage(m, st, c, amount, -1, -1)
                st.burn_taken[c] += amount
        else:
            for i in range(_corrode.count(st, c)):
                n, s, flat, prof = _corrode.instance(st, c, i)
                raw = _roll_damage(st, n, s, flat, 1)
                amount = m.mit[c, prof, min(max(raw, 0), m.mit.shape[2] - 1)]
                _damage(m, st, c, amount, -1, -1)
                _corrode.took(st, c, amount)
    _check_end(m, st)


@_jit
def _bleed_tick(m: Any, st: Any, c: int) -> None:
    if st.bleed_prof[c] >= 0:
        raw = _roll_damage(st, st.bleed_n[c], st.bleed_s[c], st.bleed_flat[c], 1)
        raw = min(max(raw, 0), m.mit.shape[2] - 1)
        _damage(m, st, c, m.mit[c, st.bleed_prof[c], raw], -1, -1)


@_jit
def _initiative(m: Any, st: Any) -> None:
    n = m.n
    for c in range(n):
        if m.init_given[c] > -10_000:
            st.init[c] = m.init_given[c]
        else:
            st.init[c] = _die(st, 20) + m.init_mod[c]
        _log(st.log, st.nlog, 1, 0, c, st.init[c], m.init_mod[c], 0, 0, 0)
    # sort: higher count, then higher modifier, then roll-offs (repeated among those still tied)
    keys = np.empty(n, dtype=np.int64)
    for c in range(n):
        keys[c] = -(np.int64(st.init[c]) * 1000 + m.init_mod[c]) * 64 + c  # encounter order inside a group
    idx = np.argsort(keys)
    out = 0
    i = 0
    while i < n:
        j = i
        gk = keys[idx[i]] // 64
        while j < n and keys[idx[j]] // 64 == gk:
            j += 1
        if j - i == 1:
            st.order[out] = idx[i]
            out += 1
        else:
            group = idx[i:j].copy()
            out = _roll_off(st, group, out)
        i = j


@_jit
def _roll_off(st: Any, group: NDArray[np.int64], out: int) -> int:
    """CF-04 as ``flow.sort_order`` does it: one roll-off for the tied group, highest first; those tied again
    go to :func:`_break_ties` group by group (highest roll first). Appends the order to ``st.order``."""
    g = group.shape[0]
    rolls = np.empty(g, dtype=np.int64)
    for i in range(g):
        rolls[i] = _die(st, 20)
    order = np.argsort(-rolls * 64 + np.arange(g))
    i = 0
    while i < g:
        j = i
        while j < g and rolls[order[j]] == rolls[order[i]]:
            j += 1
        if j - i == 1:
            st.order[out] = group[order[i]]
            out += 1
        else:
            sub = np.empty(j - i, dtype=np.int64)
            for q in range(i, j):
                sub[q - i] = group[order[q]]
            out = _break_ties(st, sub, out)
        i = j
    return out


@_jit
def _break_ties(st: Any, group: NDArray[np.int64], out: int) -> int:
    """``flow._break_ties``: the whole group rolls again until every roll differs, then highest first."""
    g = group.shape[0]
    rolls = np.empty(g, dtype=np.int64)
    while True:
        for i in range(g):
            rolls[i] = _die(st, 20)
        distinct = True
        for i in range(g):
            for k in range(i + 1, g):
                if rolls[i] == rolls[k]:
                    distinct = False
        if distinct:
            break
    order = np.argsort(-rolls)
    for i in range(g):
        st.order[out] = group[order[i]]
        out += 1
    return out
