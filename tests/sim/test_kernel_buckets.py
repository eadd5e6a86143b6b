"""The bucket search (``kernel/buckets.py``) gives exactly what the heap search (``geo.search``) gives: the same
outputs in every buffer, stale entries and an early stop at a goal included, so the kernel's moves do not change."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sftactics.grid.geometry import DIRECTIONS
from sftactics.grid.space import threatened_squares
from sftactics.sim.kernel import buckets, geo
from tests.sim.test_kernel_geo import SETTINGS, Scene, benchmark, scenes

Buffers = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _buffers(n: int, junk: int) -> Buffers:
    """Search buffers holding the same leftovers, as a state's buffers do after earlier searches."""
    rng = np.random.default_rng(junk)
    return (
        rng.integers(0, 1 << 40, 2 * n).astype(np.int64),
        rng.integers(-1, 2 * n, 2 * n).astype(np.int32),
        rng.integers(-(1 << 62), 1 << 62, 16 * n + 4096).astype(np.int64),  # room for a tiny map's buckets
        rng.integers(-1, 50, n).astype(np.int32),
        rng.integers(-1, 5, n).astype(np.int32),
        rng.integers(-1, 2 * n, n).astype(np.int32),
    )


def _both(tables: geo.MapTables, arrays: tuple[np.ndarray, ...], start: int, parity: int, budget: int, goal: int,
          width: int, hampered: bool, junk: int = 0) -> tuple[int, int, Buffers, Buffers]:  # fmt: skip
    passable, stoppable, extra_k, provoking = arrays
    heap_out, bucket_out = _buffers(tables.n, junk), _buffers(tables.n, junk)
    args = (tables.step_to, tables.step_k, tables.step_diag, start, parity, budget, passable, stoppable, extra_k,
            provoking, hampered, goal)  # fmt: skip
    assert buckets.fits(start, budget, width, tables.n, bucket_out[2].shape[0])
    a = geo.search(*args, *heap_out, width)
    b = buckets.bucket_search(*args, *bucket_out, width)
    return a, b, heap_out, bucket_out


def _assert_same(a: int, b: int, heap_out: Buffers, bucket_out: Buffers) -> None:
    assert a == b
    for name, x, y in zip(("dist", "parent", "cost", "provocations", "state"), heap_out[:2] + heap_out[3:],
                          bucket_out[:2] + bucket_out[3:], strict=True):  # fmt: skip
        assert np.array_equal(x, y), name


def test_step_tables_follow_the_directions_the_buckets_assume() -> None:
    grid, _ = benchmark()
    tables = geo.map_tables(grid)
    w = grid.width
    for i in range(tables.n):
        for d, (dx, dy) in enumerate(DIRECTIONS):
            if tables.step_to[i, d] >= 0:
                assert tables.step_to[i, d] == i + dy * w + dx
    assert tuple(zip(*DIRECTIONS, strict=True)) == (buckets._DX, buckets._DY)


@pytest.mark.rule("MOV-10", "MOV-17", "AOO-06")
@SETTINGS
@given(scenes(), st.sampled_from([0, 5, 15, 25, 30, 40, 60]), st.integers(-1, 48), st.integers(0, 3))
def test_bucket_search_equals_the_heap_search(scene: Scene, budget: int, goal: int, junk: int) -> None:
    grid, w = scene.grid, scene.grid.width
    tables = geo.map_tables(grid, scene.options)
    passable, stoppable, extra_k = geo.occupancy_arrays(grid, scene.occupants, scene.hampered, options=scene.options)
    arrays = (passable, stoppable, extra_k, geo.provoking_array(grid, scene.zone))
    start = scene.start[1] * w + scene.start[0]
    goal = goal if goal < tables.n else -1
    _assert_same(*_both(tables, arrays, start, scene.parity, budget, goal, w,
                        scene.options.hampered_diagonal_counts, junk))  # fmt: skip


@pytest.mark.rule("MOV-10", "MOV-13", "MOV-16", "AOO-06")
def test_bucket_search_on_the_benchmark_map() -> None:
    """Every combatant of the benchmark, from every square it could stand on, with the others where they start."""
    from sftactics.grid.movement import Occupant

    grid, people = benchmark()
    w = grid.width
    for name, side, _, size in people:
        occ = {p: (Occupant.ALLY if s == side else Occupant.ENEMY) for n, s, p, _ in people if n != name}
        zone = frozenset().union(*(threatened_squares(p, grid=grid) for _, s, p, _ in people if s != side))
        tables = geo.map_tables(grid, size=size)
        passable, stoppable, extra_k = geo.occupancy_arrays(grid, occ, size=size)
        arrays = (passable, stoppable, extra_k, geo.provoking_array(grid, zone))
        for start in range(0, tables.n, 7):
            if not tables.fits[start]:
                continue
            for budget in (25, 30, 40, 60):
                _assert_same(*_both(tables, arrays, start, start & 1, budget, -1, w, False, start))


def test_fits() -> None:
    n, w = 900, 30
    assert buckets.fits(465, 30, w, n, 16 * n + 16)
    assert not buckets.fits(465, 30, 0, n, 16 * n + 16)  # no box: the heap search resets every square
    assert not buckets.fits(465, buckets.MAX_BUDGET + 5, w, n, 10**9)  # the search for foes nobody located
    assert not buckets.fits(465, 60, w, n, 100)  # the buckets would not fit the buffer
