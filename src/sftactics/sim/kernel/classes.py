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

Attack riders (trick attack) and marks (get 'em) stay with the engine: ``specials.unsupported_ability`` refuses
them, so a fight with one is played by the engine.
"""

from __future__ import annotations

from typing import Any

from sftactics.sim.kernel.fight import MOVE, RP_SPENT, STD, _can, _jit, _spend
from sftactics.sim.kernel.footprints import fp_distance_ft
from sftactics.sim.kernel.specials import T_ALLIES, T_SELF
from sftactics.sim.kernel.tactics import _can_full


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
    if not _can_full(m, st, me):
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


__all__ = ["affordable", "first_heal", "in_burst", "spend"]
