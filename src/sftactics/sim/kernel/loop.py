"""A whole fight and a batch of fights in the compiled kernel: the engine's round loop with each combatant's
policy (:data:`~sftactics.sim.kernel.books.POLICY_SIMPLE` or ``POLICY_TACTICAL``, per combatant in ``st.pol``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.sim.kernel import corrode as _corrode
from sftactics.sim.kernel.books import (
    COLUMNS,
    CONCEDED,
    CUR,
    DIED,
    DYING_END,
    ENDED,
    F_CONCEDED,
    F_REASON,
    F_ROUNDS,
    F_WINNER,
    LOG_END,
    POLICY_TACTICAL,
    REASON_LIMIT,
    REASON_SC,
    ROUND,
    WINNER,
    _able_side,
    _log,
)
from sftactics.sim.kernel.fight import _reset
from sftactics.sim.kernel.flow import _can_choose, _end_turn, _expire, _initiative, _start_turn
from sftactics.sim.kernel.geo import _jit
from sftactics.sim.kernel.simple import _simple_turn
from sftactics.sim.kernel.tactics import concede, end_by_concession, tactical_turn


@_jit
def play(m: Any, st: Any, seed: int, max_rounds: int) -> None:
    """One whole fight from the model's starting state; the results stay in ``st`` (``sc``, ``res``). A
    script (see :func:`~sftactics.sim.kernel.fight.new_state`) is read from its start again."""
    np.random.seed(seed)
    _reset(m, st)
    _initiative(m, st)
    rnd = 0 if m.surprise else 1  # round 0: the surprise round (CF-08), only the aware act in it (CF-09)
    if m.start_round > 0:  # a fight already under way (CF-12): it opens that round, everyone has acted before
        rnd = m.start_round
        for c in range(m.n):
            st.acted[c] = st.acted[c] or rnd > 1 or m.start_done[c]
    waiting = m.start_round > 0 and m.start_turn >= 0  # the turns before ``start_turn`` were had already
    asking = -1  # the side of the last turn: run_fight asks whether it concedes before the next decision
    while True:
        st.sc[ROUND] = rnd
        # past the round limit the engine still starts the round and its turns up to the first creature with a
        # decision to make (bleeding, dying creatures' turns), then the GM ends the fight (``run_fight``)
        limit = rnd > max_rounds
        _expire(m, st, -1, True)
        for c in range(m.n):
            st.burn_taken[c] = 0
            _corrode.new_round(st, c)
        for i in range(m.n):
            c = st.order[i]
            if rnd == 0 and not m.aware[c]:
                continue  # unaware in the surprise round: its turn is skipped
            if m.start_round > 0 and rnd == m.start_round:
                if c == m.start_turn:
                    waiting = False
                if waiting or m.start_done[c]:
                    st.acted[c] = True
                    continue  # it had its turn this round before the scenario begins
            if st.dead[c]:
                continue
            _start_turn(m, st, c)
            if st.sc[ENDED]:
                break
            if not _can_choose(m, st, c):
                _end_turn(m, st, c)
                if st.sc[ENDED]:
                    break
                continue
            # here run_fight has the fight back (the engine has started this creature's turn)
            if asking >= 0:
                side = asking
                asking = -1
                if concede(m, st, side):
                    end_by_concession(m, st, side)
                    break
            if limit:
                break
            if st.pol[c] == POLICY_TACTICAL:
                tactical_turn(m, st, c)
            else:
                _simple_turn(m, st, c)
            if st.sc[ENDED]:
                break
            _end_turn(m, st, c)
            if st.sc[ENDED]:
                break
            asking = m.side[c]  # (only a side whose able members all retreat concedes: sim.morale)
        if st.sc[ENDED]:
            break
        if limit:
            st.sc[REASON_SC] = REASON_LIMIT
            side = _able_side(m, st)  # EndCombat: the one side still able to fight, if only one
            st.sc[WINNER] = side if side >= 0 else -1
            break
        rnd += 1
    st.sc[CUR] = -1
    for c in range(m.n):
        st.res[c, DIED] = 1 if st.dead[c] else 0
        st.res[c, DYING_END] = 1 if st.dying[c] else 0
    _log(st.log, st.nlog, LOG_END, st.sc[ROUND], st.sc[WINNER], st.sc[REASON_SC], 0, 0, 0, 0)


@_jit
def play_batch(
    m: Any,
    st: Any,
    seeds: NDArray[np.int64],
    max_rounds: int,
    fight_out: NDArray[np.int64],
    comb_out: NDArray[np.int64],
) -> None:
    """Play one fight per seed (seeds as 32-bit values) into ``fight_out[i]`` (winner side index or -1, rounds,
    reason, the side that conceded or -1) and ``comb_out[i]`` (per combatant, the ``COLUMNS``)."""
    for i in range(seeds.shape[0]):
        play(m, st, seeds[i], max_rounds)
        fight_out[i, F_WINNER] = st.sc[WINNER]
        fight_out[i, F_ROUNDS] = st.sc[ROUND]
        fight_out[i, F_REASON] = st.sc[REASON_SC]
        fight_out[i, F_CONCEDED] = st.sc[CONCEDED]
        for c in range(m.n):
            for j in range(COLUMNS):
                comb_out[i, c, j] = st.res[c, j]
