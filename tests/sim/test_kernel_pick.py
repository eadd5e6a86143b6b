"""The tactical policy's shortlists (``kernel.tacsquares._pick``): the ``limit`` smallest rows of a key table,
compared as tuples, equal rows in the order of their indexes (``sorted`` on (row, index), as the engine's policy
ranks its candidates), whatever the keys and ties."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sftactics.sim.kernel import run as _run  # noqa: F401  (imports the kernel in its own order)
from sftactics.sim.kernel.tacsquares import _pick

# small values, so that whole rows and leading columns tie often
_ROWS = st.lists(st.lists(st.integers(-2, 2), min_size=3, max_size=3), min_size=0, max_size=40)


@settings(max_examples=200, deadline=None)
@given(rows=_ROWS, limit=st.integers(0, 45), spare=st.integers(0, 5))
def test_pick_takes_the_smallest_rows_in_order(rows: list[list[int]], limit: int, spare: int) -> None:
    n = len(rows)
    want = sorted(range(n), key=lambda j: (tuple(rows[j]), j))[:limit]
    for dtype in (np.int64, np.float64):  # the policy's two key tables (``st.keys``, ``st.fkeys``)
        keys = np.array(rows + [[-9, -9, -9]] * spare, dtype=dtype).reshape(n + spare, 3)  # rows past n: ignored
        out = np.full(n + 1, -1, dtype=np.int64)
        got = _pick(keys, n, limit, out)
        assert got == len(want)
        assert list(out[:got]) == want
