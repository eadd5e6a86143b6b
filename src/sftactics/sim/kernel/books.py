"""The compiled fight's books (:mod:`~sftactics.sim.kernel.fight`): the result columns and the fight's scalars,
the log, the dice, and what a creature's state allows (out of the fight, down, staggered, the actions it has
left); who sees whom after a command (CF-11, VIS-*: :mod:`~sftactics.sim.kernel.sight`'s tables)."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

from sftactics.sf1e.actions_rules import CHARGE_PENALTY as _CHARGE_PENALTY
from sftactics.sim.kernel import bigsight as _bigsight
from sftactics.sim.kernel import setup as _setup
from sftactics.sim.kernel.geo import _jit, distance_ft, threatens_on_map
from sftactics.sim.kernel.sight import (
    CONCEALMENT_MISS,
    LOCATED,
    OBSERVING,
    TOTAL_MISS,
    UNAWARE,
    line_of_effect,
    line_of_sight,
)

_objmode: Any = numba.objmode

# combatant results, per fight: columns of ``comb_out``
KO, DIED, DYING_END, RP_SPENT, RP_LOST, DEALT, TAKEN, CAUSE, CAUSE_A, CAUSE_W, DROP_A, DROP_W = range(12)
COLUMNS = 12
# death causes
CAUSE_NONE, CAUSE_MASSIVE, CAUSE_ZERO_HP, CAUSE_RP = 0, 1, 2, 3
# fight results: columns of ``fight_out``
F_WINNER, F_ROUNDS, F_REASON, F_CONCEDED = range(4)
REASON_END, REASON_LIMIT, REASON_CONCEDE = 0, 1, 2
#: Policies by code (``State.pol``, per combatant).
POLICY_SIMPLE, POLICY_TACTICAL = 0, 1
# log rows: (kind, round, a, b, c, d, e, f)
LOG_INIT, LOG_TURN, LOG_MOVE, LOG_ATTACK, LOG_DAMAGE, LOG_SAVE, LOG_COND, LOG_RESOLVE, LOG_GRENADE, LOG_END, LOG_DIE = (
    range(1, 12)
)
#: A plan the tactical policy weighed: (kind, round, command, arg, second command, arg, value x 10^4, weapon)
LOG_PLAN = 12
LOG_WIDTH = 8
TOTAL_COVER = 5
CRIT_BLEED, CRIT_STAGGER, CRIT_DEAFEN, CRIT_BURN, CRIT_ARC, CRIT_KNOCKDOWN, CRIT_CORRODE = 1, 2, 3, 4, 5, 6, 7
ARC_REACH_FT = 10
#: A charge's penalty to the attack and to the charger's AC (``actions_rules.CHARGE_PENALTY``, ACT-50).
CHARGE_PENALTY = _CHARGE_PENALTY
#: Burning instances kept per creature (CON-05: every source burns; more are not kept).
BURNS = 16


# the fight's scalars: ``st.sc[...]``
ROUND, CUR, STD, MOVE, DIAG, FRESH, ENDED, WINNER, REASON_SC, SCRIPT_POS, SCRIPT_N, TSTAMP, CONCEDED = range(13)
SCALARS = 16


@_jit
def _log(log: NDArray[np.int32], nlog: NDArray[np.int64], kind: int, rnd: int, a: int, b: int, c: int, d: int,
         e: int, f: int) -> None:  # fmt: skip
    i = nlog[0]
    if i < log.shape[0]:
        log[i, 0] = kind
        log[i, 1] = rnd
        log[i, 2] = a
        log[i, 3] = b
        log[i, 4] = c
        log[i, 5] = d
        log[i, 6] = e
        log[i, 7] = f
    nlog[0] = i + 1


@_jit
def _die(st: Any, sides: int) -> int:
    """One die: the next scripted value when the fight has a script (``st.script``), else numpy's generator.
    Every roll is written to the log (when there is one)."""
    i = st.sc[SCRIPT_POS]
    v: int = 0
    if i < st.sc[SCRIPT_N]:
        v = st.script[i]
        st.sc[SCRIPT_POS] = i + 1
        if v < 1 or v > sides:
            v = sides if v > sides else 1  # a script value that does not fit the die is clamped
    else:
        v = np.random.randint(1, sides + 1)
    _log(st.log, st.nlog, LOG_DIE, st.sc[ROUND], sides, v, 0, 0, 0, 0)
    return v


@_jit
def _in_zone(m: Any, z: int, a: int, b: int) -> bool:
    """Whether a creature in ``a`` threatens ``b`` with the reach of zone table ``z`` (walls and lines of effect
    included: the grid package's table)."""
    return threatens_on_map(m.zones[z], m.zone_radius, a, b, m.width)


# ---------------------------------------------------------------- the fight's state
@_jit
def _out(st: Any, c: int) -> bool:
    return bool(st.dead[c] or st.unconscious[c] or st.dying[c] or st.stable[c])


# ---------------------------------------------------------------- who sees whom (:mod:`sftactics.sim.kernel.sight`)
@_jit
def _sight_pair(m: Any, st: Any, o: int, t: int) -> None:
    """``perception.compute`` for one pair whose observer is in the fight (``senses.observe`` and ``settle``):
    vision observes along a line of sight (in the dark as far as darkvision reaches); without it, a line of
    effect lets ordinary senses know the location at most, which a blindsense within reach or hearing a foe
    fighting (not down, the observer not deafened) gives at once, and which is otherwise kept if known."""
    if m.setup and st.hide[o, t]:
        return _setup.hiding_pair(m, st, o, t)  # it hides from the observer (the scenario's setup)
    if m.big:  # between spaces (:mod:`sftactics.sim.kernel.bigsight`)
        _bigsight.sight_pair(m, st, o, t)
        return
    pa, pt = st.pos[o], st.pos[t]
    if line_of_sight(st.cover_cache, st.pair, m.map_id, pa, pt) and (
        not m.dark[pt] or m.dv_ft[o] >= distance_ft(pa, pt, m.width)
    ):
        st.aw[o, t] = OBSERVING
        return
    if not line_of_effect(st.cover_cache, st.pair, m.map_id, pa, pt):
        st.aw[o, t] = UNAWARE
        return
    auto = UNAWARE
    if m.bsense_ft[o] >= distance_ft(pa, pt, m.width) or (not _out(st, t) and not st.deaf[o]):
        auto = LOCATED
    st.aw[o, t] = max(auto, min(st.aw[o, t], LOCATED))


@_jit
def _geo_miss(m: Any, st: Any, a: int, t: int) -> int:
    """``attack_geometry``'s miss chance from the light on ``t``'s square against ``a`` (VIS-03, VIS-04)."""
    if m.big:
        return _bigsight.geo_miss(m, st, a, t)
    pt = st.pos[t]
    if m.dark[pt] and m.dark_miss[a]:
        return TOTAL_MISS
    if m.dim[pt] and m.dim_miss[a]:
        return CONCEALMENT_MISS
    return 0


@_jit
def _sight_refresh(m: Any, st: Any, c: int) -> None:
    """``perception.refresh`` after a command that moved or changed ``c`` (every pair with ``c < 0``): each
    pair of opponents whose observer is in the fight is what the lines of sight give now; an observer out of
    the fight keeps what it had. Nothing on maps without walls (everyone observes everyone)."""
    if not m.sight:
        return
    if _setup.take_pending(m, st):
        c = -1  # someone gave its hiding up: every pair is looked at again (``perception._EVERYONE``)
    for o in range(m.n):
        if _out(st, o):
            continue
        for t in range(m.n):
            if m.side[t] != m.side[o] and (c < 0 or o == c or t == c):
                _sight_pair(m, st, o, t)


@_jit
def _knows(m: Any, st: Any, o: int, t: int) -> bool:
    """``sim.perception.knows``: ``o`` knows where ``t`` is (aware of its location at least)."""
    return not m.sight or st.aw[o, t] >= LOCATED


@_jit
def _side_knows(m: Any, st: Any, side: int, t: int) -> bool:
    """A member of ``side`` (any member, down or dead ones with what they last knew) knows where ``t`` is."""
    known = not m.sight
    for a in range(m.n):
        if m.side[a] == side and st.aw[a, t] >= LOCATED:
            known = True
            break
    return known


@_jit
def _down_now(st: Any, c: int) -> bool:
    return bool(st.unconscious[c] or st.dying[c] or st.dead[c] or st.stable[c])


@_jit
def _staggered(st: Any, c: int) -> bool:
    return bool(st.stag_round[c] >= 0)


@_jit
def _can(m: Any, st: Any, c: int, kind: int) -> bool:
    """``budget.take``: kind 0 standard, 1 move. Staggered: a move or a standard action, not both (CON-33)."""
    single = _staggered(st, c) or st.sc[ROUND] == 0  # staggered, or the surprise round (CF-09)
    if single and (st.sc[STD] or st.sc[MOVE]):
        return False
    if kind == 0:
        return not st.sc[STD]
    return not st.sc[MOVE] or not st.sc[STD]


@_jit
def _spend(st: Any, kind: int) -> None:
    if kind == 0:
        st.sc[STD] = 1
    elif not st.sc[MOVE]:
        st.sc[MOVE] = 1
    else:
        st.sc[STD] = 1


@_jit
def _able_side(m: Any, st: Any) -> int:
    """-2 while two or more sides can fight on; else the one side that can (-1: none)."""
    found = -1
    for c in range(m.n):
        if not _out(st, c):
            if found == -1:
                found = m.side[c]
            elif m.side[c] != found:
                return -2
    return found
