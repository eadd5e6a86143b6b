"""The kernel's footprint geometry (``sim.kernel.footprints``) agrees with the grid package for creatures of two
squares or more: movement with squeezing, occupancy per anchor, distances, reach and flanking."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sftactics.grid.flanking import flank_line
from sftactics.grid.geometry import Footprint, footprint_distance_ft
from sftactics.grid.geometry import distance_to_point_ft as grid_distance_to_point_ft
from sftactics.grid.map import GridMap, parse_map
from sftactics.grid.movement import Occupant, _Ctx, find_path, reachable
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.grid.space import Size, footprint_side, threatened_squares
from sftactics.sim.kernel import footprints as fp

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BIG = [Size.LARGE, Size.HUGE, Size.GARGANTUAN, Size.COLOSSAL]
# floor mostly; difficult, impassable, cover objects, narrow squares and walls
PALETTE = "..........~~%o,#"
OCCUPANTS = [Occupant.ALLY, Occupant.ENEMY, Occupant.HELPLESS, Occupant.HELPLESS_OBSTACLE, Occupant.PARALYZED]


@st.composite
def rooms(draw: st.DrawFn, max_side: int = 14) -> GridMap:
    """A random room: squares of the palette, some walls on edges, and a wall line with a gap (a doorway a
    big creature must squeeze through)."""
    w = draw(st.integers(6, max_side))
    h = draw(st.integers(6, max_side))
    cells = draw(st.lists(st.sampled_from(PALETTE), min_size=w * h, max_size=w * h))
    if draw(st.booleans()):
        col = draw(st.integers(2, w - 3))
        gap = draw(st.integers(0, h - 1))
        width = draw(st.integers(1, 3))
        for y in range(h):
            if not gap <= y < gap + width:
                cells[y * w + col] = "#"
    rows = ["".join(cells[y * w : (y + 1) * w]) for y in range(h)]
    square = st.tuples(st.integers(0, w - 1), st.integers(0, h - 1))
    edges = draw(st.lists(st.tuples(square, st.sampled_from("NESW")), max_size=3))
    walls = [f"wall {x},{y} {s}" for (x, y), s in edges]
    text = "\n".join(rows) + ("\n\n" + "\n".join(walls) if walls else "")
    return parse_map(text).map


def _anchors(grid: GridMap, size: Size) -> list[tuple[int, int]]:
    t = fp.big_tables(grid, size)
    return [(a % grid.width, a // grid.width) for a in np.flatnonzero(t.fits[0]).tolist()]


def _occupants(draw: st.DrawFn, grid: GridMap) -> dict[tuple[int, int], Occupant]:
    square = st.tuples(st.integers(0, grid.width - 1), st.integers(0, grid.height - 1))
    return draw(st.dictionaries(square, st.sampled_from(OCCUPANTS), max_size=4))


@pytest.mark.rule("MOV-04", "MOV-10", "MOV-11", "MOV-17", "MOV-19")
@SETTINGS
@given(st.data())
def test_reachable_matches_the_grid(data: st.DataObject) -> None:
    grid = data.draw(rooms())
    size = data.draw(st.sampled_from(BIG))
    anchors = _anchors(grid, size)
    if not anchors:
        return
    start = data.draw(st.sampled_from(anchors))
    occ = _occupants(data.draw, grid)
    occ = {s: o for s, o in occ.items() if not Footprint(start[0], start[1], footprint_side(size)).contains(s)}
    speed = data.draw(st.sampled_from([20, 30, 40]))
    actions = data.draw(st.sampled_from([1, 2]))
    diag = data.draw(st.integers(0, 1))
    from sftactics.grid.movement import Mover

    want = reachable(grid, start, Mover(size=size, speed=speed), occupants=occ, actions=actions,
                     diagonals_before=diag)  # fmt: skip
    cost, acts, squeezed = fp.big_reachable(grid, start, size, speed, occupants=occ, actions=actions,
                                            diagonals_before=diag)  # fmt: skip
    assert cost == want.cost
    assert acts == want.actions
    assert squeezed == want.squeezed


@pytest.mark.rule("MOV-04", "MOV-10", "MOV-19", "AOO-06")
@SETTINGS
@given(st.data())
def test_find_path_matches_the_grid(data: st.DataObject) -> None:
    """The same path, space for space (squeezed spaces included), the same cost and the same spaces left while
    threatened, for a goal anywhere on the map, with creatures in the way and threatened squares; stopping at the
    goal, or searching the whole map as the fight does and taking the end state the grid's search settles first
    (``kernel.bigpath``: equally cheap end states by either parity, stepped into or grown back into)."""
    grid = data.draw(rooms())
    size = data.draw(st.sampled_from(BIG))
    anchors = _anchors(grid, size)
    if not anchors:
        return
    start = data.draw(st.sampled_from(anchors))
    goal = data.draw(st.sampled_from(anchors))
    side = footprint_side(size)
    occ = _occupants(data.draw, grid)
    occ = {s: o for s, o in occ.items() if not Footprint(start[0], start[1], side).contains(s)}
    square = st.tuples(st.integers(0, grid.width - 1), st.integers(0, grid.height - 1))
    zone = frozenset(data.draw(st.lists(square, max_size=25)))
    charging = data.draw(st.booleans())
    from sftactics.grid.movement import Mover

    mover = Mover(size=size, charging=charging)
    want = find_path(grid, start, goal, mover, occupants=occ, threats={"foe": zone})
    whole = data.draw(st.booleans())
    got = fp.big_find_path(grid, start, goal, size, occupants=occ, threats=zone, charging=charging, whole=whole)
    if want is None:
        assert got is None
        return
    assert got is not None
    assert got.cost_ft == want.cost_ft
    assert got.spaces == (want.start, *(s.to for s in want.steps))
    assert got.leaving == tuple(p.step for p in want.provocations)


@pytest.mark.rule("MOV-13", "MOV-14", "MOV-15", "MOV-16")
@SETTINGS
@given(st.data())
def test_anchor_occupancy_matches_the_grid(data: st.DataObject) -> None:
    """The kernel's per-anchor occupancy, from its per-square arrays, is ``_Ctx.occ`` for both layers."""
    from sftactics.grid.movement import Mover
    from sftactics.sim.kernel.geo import occupancy_arrays

    grid = data.draw(rooms(10))
    size = data.draw(st.sampled_from(BIG))
    occ = _occupants(data.draw, grid)
    t = fp.big_tables(grid, size)
    p, s, k = occupancy_arrays(grid, occ, size=Size.MEDIUM)
    a_pass = np.empty((2, t.n), dtype=np.bool_)
    a_stop = np.empty((2, t.n), dtype=np.bool_)
    a_k = np.empty((2, t.n), dtype=np.int8)
    fp.anchor_occupancy(t.width, t.height, t.side, t.small, p, s, k, a_pass, a_stop, a_k)
    ctx = _Ctx(grid, Mover(size=size), occ, None, DEFAULT_OPTIONS)
    for layer in (0, 1):
        side = t.side if layer == 0 else t.small
        for a in range(t.n):
            if a % t.width > t.width - side or a // t.width > t.height - side:
                continue
            want = ctx.occ[layer].get(a, (True, True, 0))
            assert (bool(a_pass[layer, a]), bool(a_stop[layer, a]), int(a_k[layer, a])) == want


@pytest.mark.rule("MOV-10", "ATK-10")
@settings(max_examples=200, deadline=None)
@given(
    st.tuples(st.integers(0, 20), st.integers(0, 20), st.sampled_from([1, 2, 3, 4, 6])),
    st.tuples(st.integers(0, 20), st.integers(0, 20), st.sampled_from([1, 2, 3, 4, 6])),
    st.tuples(st.integers(0, 27), st.integers(0, 27)),
)
def test_distances_match_the_grid(a: tuple[int, int, int], b: tuple[int, int, int], p: tuple[int, int]) -> None:
    w = 27
    fa, fb = Footprint(*a), Footprint(*b)
    assert fp.fp_distance_ft(a[1] * w + a[0], a[2], b[1] * w + b[0], b[2], w) == footprint_distance_ft(fa, fb)
    assert fp.fp_distance_to_point_ft(a[1] * w + a[0], a[2], p[1] * (w + 1) + p[0], w) == (
        grid_distance_to_point_ft(fa, p)
    )


@pytest.mark.rule("MOD-17")
@settings(max_examples=300, deadline=None)
@given(
    st.tuples(st.integers(0, 12), st.integers(0, 12), st.sampled_from([1, 2, 3, 4])),
    st.tuples(st.integers(0, 12), st.integers(0, 12), st.sampled_from([1, 2, 3, 4])),
    st.tuples(st.integers(3, 9), st.integers(3, 9), st.sampled_from([1, 2, 3])),
)
def test_flank_line_matches_the_grid(a: tuple[int, int, int], b: tuple[int, int, int], t: tuple[int, int, int]) -> None:
    w = 20
    got = fp.fp_flank_line(a[1] * w + a[0], a[2], b[1] * w + b[0], b[2], t[1] * w + t[0], t[2], w)
    assert got == (flank_line(Footprint(*a), Footprint(*b), Footprint(*t)) is not None)


@pytest.mark.rule("AOO-02", "AOO-03", "AOO-04", "AOO-05")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rooms(10),
    st.sampled_from([*BIG, Size.MEDIUM]),
    st.sampled_from([(0, False), (5, False), (10, False), (15, False), (20, False), (5, True), (10, True)]),
    st.tuples(st.integers(0, 9), st.integers(0, 9), st.sampled_from([1, 2, 3])),
    st.sampled_from([DEFAULT_OPTIONS, GridOptions(reach_weapon_threatens_adjacent=False)]),
)
def test_threat_tables_match_the_grid(
    grid: GridMap, size: Size, reach: tuple[int, int], target: tuple[int, int, int], options: GridOptions
) -> None:
    """For every anchor where the creature fits: whether it threatens a space of any side, as
    ``threatened_squares`` (walls and lines of effect included) says of any square of that space."""
    reach_ft, weapon = reach
    table = fp.fp_threat_table(grid, size, reach_ft, reach_weapon=weapon, options=options)
    side = footprint_side(size)
    w = grid.width
    tx, ty, ts = target[0] % (w - target[2] + 1), target[1] % (grid.height - target[2] + 1), target[2]
    for y in range(grid.height - side + 1):
        for x in range(w - side + 1):
            zero = reach_ft + (5 if weapon else 0) == 0
            space = Footprint(x, y, side)
            zone = threatened_squares(space, size, reach_ft, reach_weapon=weapon, zero_reach=zero, grid=grid,
                                      options=options)  # fmt: skip
            want = any(s in zone for s in Footprint(tx, ty, ts).squares)
            got = fp.fp_threatens(table.table, table.radius, side, y * w + x, ty * w + tx, ts, w)
            assert got == want, (x, y)


@pytest.mark.rule("MOV-19")
def test_a_large_creature_squeezes_through_a_doorway() -> None:
    """A Large creature crosses a one-square doorway squeezed (double cost there), as the grid moves it."""
    text = "\n".join("......" + ("." if y == 3 else "#") + "......" for y in range(7))
    grid = parse_map(text).map
    got = fp.big_find_path(grid, (3, 2), (8, 2), Size.LARGE)
    from sftactics.grid.movement import Mover

    want = find_path(grid, (3, 2), (8, 2), Mover(size=Size.LARGE))
    assert got is not None and want is not None
    assert any(s.side == 1 for s in got.spaces)
    assert got.spaces == (want.start, *(s.to for s in want.steps))
    assert got.cost_ft == want.cost_ft
