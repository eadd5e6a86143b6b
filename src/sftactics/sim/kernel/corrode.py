"""The corrode critical effect in the compiled fight: acid that eats on at the start of every turn.

``criticals.apply_critical`` gives the target an instance of *corroding* (``conditions``: burning's acid twin,
CON-05) carrying the effect's amount; every instance deals its acid damage at the start of the creature's
turn (``flow._ticks``, through its defenses like any tick). It ends as burning does, on its own count: a Reflex
save at the end of the creature's turn (after burning's) against DC 10 + the acid it took from corroding this
round, +2 per previous consecutive attempt (``flow._reflex_ends``); success ends every instance.

The engine ticks a creature's conditions in the order of its list, and gaining an instance moves all the
instances of that condition to the end of the list (``conditions.add_condition``), so the three ticking groups
(bleeding, burning, corroding) each tick together, in the order in which each last gained an instance. The
fight keeps bleeding against burning in ``st.bleed_last``; this module keeps where corroding stands against
each of them (:data:`CORR_ORDER`: a bit for "after bleeding" and one for "after burning") and the instances
themselves, in the fight's ``st.body`` columns.
"""

from __future__ import annotations

from typing import Any

from sftactics.sim.kernel.geo import _jit

#: Corroding instances kept per creature (each critical hit adds one; more are not kept).
CORRODES = 6
#: ``st.body`` columns (after :mod:`~sftactics.sim.kernel.bodies`' own): where corroding stands in the tick order
#: (bit 1: after bleeding, bit 2: after burning), how many instances, then per instance dice, sides, flat, profile.
CORR_ORDER, CORR_COUNT, CORR_BASE = 4, 5, 6
#: then the acid taken from corroding this round and the consecutive saves attempted against it (CON-05)
CORR_TAKEN = CORR_BASE + 4 * CORRODES
CORR_SAVES = CORR_TAKEN + 1
CORR_COLUMNS = CORR_SAVES + 1
AFTER_BLEED, AFTER_BURN = 1, 2
#: The ticking groups, as :func:`group_at` names them.
G_BLEED, G_BURN, G_CORRODE = 0, 1, 2


@_jit
def add_corrode(st: Any, t: int, n: int, s: int, flat: int, prof: int) -> None:
    """``t`` gains an instance of corroding (``n``d``s`` + ``flat`` acid, damage profile ``prof``); the group
    moves to the end of the tick order."""
    i = st.body[t, CORR_COUNT]
    if i < CORRODES:
        base = CORR_BASE + 4 * i
        st.body[t, base] = n
        st.body[t, base + 1] = s
        st.body[t, base + 2] = flat
        st.body[t, base + 3] = prof
        st.body[t, CORR_COUNT] = i + 1
    st.body[t, CORR_ORDER] = AFTER_BLEED | AFTER_BURN


@_jit
def gained_burn(st: Any, t: int) -> None:
    """``t`` gained burning: burning now ticks after corroding."""
    st.body[t, CORR_ORDER] &= ~AFTER_BURN


@_jit
def gained_bleed(st: Any, t: int) -> None:
    """``t`` gained bleeding: bleeding now ticks after corroding."""
    st.body[t, CORR_ORDER] &= ~AFTER_BLEED


@_jit
def group_at(st: Any, c: int, p: int) -> int:
    """The ticking group that comes ``p``-th (0, 1, 2) at the start of ``c``'s turn (:data:`G_BLEED`...)."""
    order = st.body[c, CORR_ORDER]
    after_bleed = (order & AFTER_BLEED) != 0
    after_burn = (order & AFTER_BURN) != 0
    bleed_last = st.bleed_last[c]
    # each group's place: how many of the other two come before it
    bleed_at = (1 if bleed_last else 0) + (0 if after_bleed else 1)
    burn_at = (0 if bleed_last else 1) + (0 if after_burn else 1)
    if p == bleed_at:
        return G_BLEED
    if p == burn_at:
        return G_BURN
    return G_CORRODE


@_jit
def count(st: Any, c: int) -> int:
    return int(st.body[c, CORR_COUNT])


@_jit
def instance(st: Any, c: int, i: int) -> tuple[int, int, int, int]:
    """(dice, sides, flat, profile) of ``c``'s ``i``-th corroding instance."""
    base = CORR_BASE + 4 * i
    return int(st.body[c, base]), int(st.body[c, base + 1]), int(st.body[c, base + 2]), int(st.body[c, base + 3])


@_jit
def took(st: Any, c: int, amount: int) -> None:
    """``c`` took ``amount`` acid from corroding this round (the save's DC)."""
    st.body[c, CORR_TAKEN] += amount


@_jit
def new_round(st: Any, c: int) -> None:
    st.body[c, CORR_TAKEN] = 0


@_jit
def save_dc(st: Any, c: int) -> int:
    """``conditions.burning_save_dc`` of this round's corroding damage."""
    return 10 + int(st.body[c, CORR_TAKEN])


@_jit
def save_bonus(st: Any, c: int) -> int:
    """``conditions.burning_save_bonus``: +2 per previous consecutive attempt."""
    return 2 * int(st.body[c, CORR_SAVES])


@_jit
def saved(st: Any, c: int, success: bool) -> None:
    """The end-of-turn save's outcome: success ends every instance; a failure counts the attempt."""
    if success:
        st.body[c, CORR_COUNT] = 0
        st.body[c, CORR_SAVES] = 0
    else:
        st.body[c, CORR_SAVES] += 1


@_jit
def no_save(st: Any, c: int) -> None:
    """No corroding (or dead) at the end of its turn: the consecutive attempts start over."""
    st.body[c, CORR_SAVES] = 0
