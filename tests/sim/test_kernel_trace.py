"""The kernel's compiled lines (``sim.kernel.trace``) give the grid package's answers: cover by the corner rule
with creatures in the way, line of sight and line of effect, between one-square spaces and spaces of any side,
on random rooms with wall squares, walls and windows on edges, cover objects, low obstacles and soft-cover squares,
and on the second benchmark room."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sftactics.grid.cover import cover
from sftactics.grid.geometry import Footprint
from sftactics.grid.lines import has_line_of_effect, has_line_of_sight
from sftactics.grid.map import GridMap, parse_map
from sftactics.grid.options import GridOptions
from sftactics.sim.kernel import coverkind, geo
from sftactics.sim.kernel import trace as kt

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# floor mostly; wall squares, cover objects, low obstacles, soft-cover squares, obscuring squares
PALETTE = '..........####=o&"'
OPTIONS = [GridOptions(), GridOptions(line_along_wall_blocks=False, low_obstacle_within="attacker")]


@st.composite
def rooms(draw: st.DrawFn, max_side: int = 12) -> GridMap:
    """A random room: squares of the palette and some walls and windows on edges."""
    w = draw(st.integers(4, max_side))
    h = draw(st.integers(4, max_side))
    cells = draw(st.lists(st.sampled_from(PALETTE), min_size=w * h, max_size=w * h))
    rows = ["".join(cells[y * w : (y + 1) * w]) for y in range(h)]
    square = st.tuples(st.integers(0, w - 1), st.integers(0, h - 1))
    kind = st.sampled_from(["wall", "window"])
    edges = draw(st.lists(st.tuples(kind, square, st.sampled_from("NESW")), max_size=6))
    lines = [f"{k} {x},{y} {s}" for k, (x, y), s in edges]
    return parse_map("\n".join(rows) + ("\n\n" + "\n".join(lines) if lines else "")).map


def _free(grid: GridMap) -> list[int]:
    flags = grid.array.reshape(-1)
    return [i for i in range(grid.width * grid.height) if not flags[i] & 1]


def _check(grid: GridMap, options: GridOptions, a: int, t: int, crowd: list[int], ranged: bool) -> None:
    cats, edges, along, low = kt.line_tables(grid, options)
    w = grid.width
    fa, ft = Footprint(a % w, a // w), Footprint(t % w, t // w)
    creatures = [Footprint(s % w, s // w) for s in crowd]
    want = cover(grid, fa, ft, ranged=ranged, creatures=creatures, explain=False, options=options).kind
    others = np.array([*crowd, -1], dtype=np.int64)
    assert kt.fast_cover(cats, edges, bool(along), low, w, a, t, ranged, others, len(crowd)) == int(want)
    assert kt.fast_line(cats, edges, bool(along), w, a, t, True) == has_line_of_sight(grid, fa, ft, options=options)
    assert kt.fast_line(cats, edges, bool(along), w, a, t, False) == has_line_of_effect(grid, fa, ft, options=options)


@pytest.mark.rule("MOD-07", "MOD-08", "MOD-10", "MOD-11", "MOD-14", "MOD-15", "EFF-35", "EFF-37")
@SETTINGS
@given(st.data())
def test_compiled_lines_are_the_grid_packages(data: st.DataObject) -> None:
    grid = data.draw(rooms())
    free = _free(grid)
    if len(free) < 2:
        return
    options = data.draw(st.sampled_from(OPTIONS))
    for _ in range(6):
        a, t = data.draw(st.lists(st.sampled_from(free), min_size=2, max_size=2, unique=True))
        crowd = sorted(data.draw(st.lists(st.sampled_from(free), max_size=5, unique=True)))
        _check(grid, options, a, t, crowd, data.draw(st.booleans()))


def _spaces(grid: GridMap, side: int) -> list[int]:
    """The anchors of spaces of ``side`` that lie on the map and hold no wall square."""
    flags = grid.array
    w, h = grid.width, grid.height
    return [y * w + x for y in range(h - side + 1) for x in range(w - side + 1)
            if not (flags[y : y + side, x : x + side] & 1).any()]  # fmt: skip


def _check_spaces(
    grid: GridMap, options: GridOptions, a: tuple[int, int], t: tuple[int, int], crowd: list[tuple[int, int]],
    ranged: bool,
) -> None:  # fmt: skip
    cats, edges, along, low = kt.line_tables(grid, options)
    w = grid.width
    fa, ft = Footprint(a[0] % w, a[0] // w, a[1]), Footprint(t[0] % w, t[0] // w, t[1])
    creatures = [Footprint(s % w, s // w, side) for s, side in crowd]
    want = cover(grid, fa, ft, ranged=ranged, creatures=creatures, explain=False, options=options).kind
    anchors = np.array([s for s, _ in crowd] or [0], dtype=np.int64)
    sides = np.array([side for _, side in crowd] or [1], dtype=np.int64)
    got = kt.space_cover(cats, edges, bool(along), low, w, a[0], a[1], t[0], t[1], ranged, anchors, sides, len(crowd))
    assert got == int(want), (fa, ft, creatures, ranged)
    for sight, grid_answer in ((True, has_line_of_sight), (False, has_line_of_effect)):
        assert kt.space_line(cats, edges, bool(along), w, a[0], a[1], t[0], t[1], sight) == grid_answer(
            grid, fa, ft, options=options
        ), (fa, ft, sight)


@pytest.mark.rule("MOD-07", "MOD-08", "MOD-10", "MOD-11", "MOD-14", "MOD-15", "EFF-35", "EFF-37")
@SETTINGS
@given(st.data())
def test_compiled_lines_between_spaces_of_any_side_are_the_grid_packages(data: st.DataObject) -> None:
    """Spaces of side 1 to 4 (a big attacker picks any corner of any of its squares; the lines go to the
    target's outer corners), creatures of sides 1 to 3 in the way."""
    grid = data.draw(rooms())
    options = data.draw(st.sampled_from(OPTIONS))
    by_side = {side: _spaces(grid, side) for side in (1, 2, 3, 4)}
    sides = [side for side, anchors in by_side.items() if anchors]
    if not sides:
        return
    for _ in range(6):
        sa, stt = data.draw(st.sampled_from(sides)), data.draw(st.sampled_from(sides))
        a, t = data.draw(st.sampled_from(by_side[sa])), data.draw(st.sampled_from(by_side[stt]))
        crowd = []
        for _ in range(data.draw(st.integers(0, 4))):
            side = data.draw(st.sampled_from([s for s in sides if s <= 3] or [1]))
            if by_side.get(side):
                crowd.append((data.draw(st.sampled_from(by_side[side])), side))
        _check_spaces(grid, options, (a, sa), (t, stt), crowd, data.draw(st.booleans()))


@pytest.mark.rule("MOD-07", "MOD-08", "MOD-10", "MOD-14", "EFF-35", "EFF-37")
def test_compiled_lines_in_the_second_benchmark_room() -> None:
    """Every pair of squares of a part of the second benchmark room (its doorways and walls), both ways."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from reach_bench import ROOM2_MAP

    grid = parse_map(ROOM2_MAP).map
    w = grid.width
    squares = [q for q in _free(grid) if 2 <= q % w <= 14 and 2 <= q // w <= 12]
    rng = np.random.default_rng(5)
    for a in squares[::3]:
        for t in squares[1::4]:
            if a != t:
                crowd = sorted(set(rng.choice(squares, 3).tolist()) - {a, t})
                _check(grid, OPTIONS[0], a, t, crowd, bool(rng.integers(2)))


def test_a_cache_miss_asks_the_compiled_lines() -> None:
    """``geo``'s miss answers (cover, line of sight and effect) come from the compiled lines, which a map with
    too many edges leaves to the grid package."""
    grid = parse_map("....\n.#..\n....\n\nwall 2,0 E\nwindow 0,2 S").map
    map_id = geo.register_map(grid)
    assert kt._tables(map_id) is not None
    others = np.full(9, -1, dtype=np.int64)
    a, t = 0, 2 * 4 + 2
    assert coverkind._cover_from_grid(map_id, a, t, 1, others, 0) == int(
        cover(grid, Footprint(0, 0), Footprint(2, 2)).kind
    )
    many = parse_map("\n".join(["." * 100] * 30) + "\n\nwall 0,0..99,29 N S E W").map  # 6,130 edges
    assert kt._tables(geo.register_map(many)) is None
