"""Squeezing's penalties for a creature of two squares or more in the compiled kernel (MOV-19, CON-14).

The engine gives a creature that stands squeezed the squeezing effect (``encounter.footing.refresh_squeezing``:
entangled's -2 to AC, attack rolls and Reflex saves) after every command and after every stretch of a move, so
an attack of opportunity on a big creature leaving a space in the middle of a gap meets its lowered AC, and a big
creature dropped there (or getting back up there) keeps the penalties while it stays. A big creature squeezes
where a square of its full space is off the map or too tight (``grid.squeezing.squeezed_at``: a wall, an object,
a narrow square); a space that only straddles a wall on an edge is not squeezed. The kernel reads that from a
table per footprint side and anchor (:func:`squeeze_table`, ``Model.fp_sqz``) where the creature stands now.

The tactical policy weighs its options with the creatures as they are (``_Turn.table`` reads the attacker's and
the target's effects, the squeezing one too), also for the spaces the actor only considers moving to: when it
takes a fresh look (``tacturn._begin``) :func:`note` writes who stands squeezed into the ``st.body`` column
:data:`SQUEEZED`, and its numbers read that column (:func:`held`), not the space under consideration.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.grid.map import GridMap
from sftactics.grid.squeezing import _TOO_TIGHT
from sftactics.sf1e.movement_rules import squeezing_modifiers
from sftactics.sim.kernel.corrode import CORR_COLUMNS
from sftactics.sim.kernel.geo import _jit

__all__ = ["PENALTY", "SQUEEZED", "held", "note", "penalty", "squeeze_table"]

#: The ``st.body`` column (after the corroding ones) that says a creature has the squeezing effect as the
#: tactical policy sees it (1) or not (0).
SQUEEZED = CORR_COLUMNS


def _penalty() -> int:
    """The squeezing effect's AC penalty (entangled's: the same for attack rolls and Reflex saves)."""
    values = {m.value for m in squeezing_modifiers()}
    assert len(values) == 1, "squeezing's penalties are all the same number"
    return -int(values.pop())


#: What squeezing takes off AC, attack rolls and Reflex saves (2).
PENALTY = _penalty()


def squeeze_table(grid: GridMap, sides: set[int]) -> NDArray[np.bool_]:
    """``[side, anchor]``: a creature of that footprint side standing there is squeezed (``squeezed_at``: a
    square of the space off the map or too tight), for the ``sides`` of two squares or more present (rows up to
    6; the others all False). Held to ``squeezed_at`` by the tests."""
    w, h = grid.width, grid.height
    tight = (np.asarray(grid.array) & int(_TOO_TIGHT)) != 0
    out = np.zeros((7, h, w), dtype=np.bool_)
    for s in sorted(sides):
        if s < 2:
            continue
        hit = np.ones((h, w), dtype=np.bool_)  # off the map unless the whole space is on it
        inner = np.zeros((h - s + 1, w - s + 1), dtype=np.bool_)
        for j in range(s):
            for i in range(s):
                inner |= tight[j : j + h - s + 1, i : i + w - s + 1]
        hit[: h - s + 1, : w - s + 1] = inner
        out[s] = hit
    return out.reshape(7, h * w)


@_jit
def penalty(m: Any, st: Any, c: int) -> int:
    """What squeezing takes off ``c``'s AC, attack rolls and Reflex saves where it stands now (0 or 2)."""
    return PENALTY if m.fp_sqz[m.fside[c], st.pos[c]] else 0


@_jit
def note(m: Any, st: Any) -> None:
    """Who has the squeezing effect now (every creature where it stands), into ``st.body[:, SQUEEZED]``."""
    for c in range(m.n):
        st.body[c, SQUEEZED] = 1 if m.big and m.fp_sqz[m.fside[c], st.pos[c]] else 0


@_jit
def held(st: Any, c: int) -> int:
    """What squeezing takes off ``c``'s AC, attack rolls and Reflex saves as :func:`note` last saw it (0 or 2)."""
    return PENALTY if st.body[c, SQUEEZED] else 0
