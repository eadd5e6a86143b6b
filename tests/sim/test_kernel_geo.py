"""The compiled kernel's grid geometry agrees with the grid package (the rules' single source of truth)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sftactics.core.errors import RuleViolation
from sftactics.grid.areas import burst
from sftactics.grid.cover import CoverKind, can_make_attack_of_opportunity, cover
from sftactics.grid.flanking import flank_line
from sftactics.grid.geometry import DIRECTIONS, Footprint, Square, attack_range_ft, footprint_distance_ft
from sftactics.grid.geometry import distance_to_point_ft as grid_distance_to_point_ft
from sftactics.grid.map import GridMap, parse_map
from sftactics.grid.movement import Mover, Occupant, find_path, price_path, reachable
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.grid.space import Size, threatened_squares
from sftactics.sim.kernel import coverkind, geo

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# floor is the most common square; then difficult, impassable, low, cover object, soft cover, concealing,
# obscuring, narrow, canopy and wall squares
CHARS = '.......~~%o=&*",^#'
ROUGH = ".~~~%,"  # a second palette: mostly difficult terrain, impassable ground and narrow squares
OCCUPANTS = [
    Occupant.ALLY,
    Occupant.ENEMY,
    Occupant.HELPLESS,
    Occupant.HELPLESS_OBSTACLE,
    Occupant.PARALYZED,
    Occupant.FILLING,
]


@st.composite
def text_maps(draw: st.DrawFn, max_side: int = 7) -> GridMap:
    """A random map written in the text format: squares, then wall, window, corner and feature directives."""
    w = draw(st.integers(2, max_side))
    h = draw(st.integers(2, max_side))
    palette = draw(st.sampled_from([CHARS, CHARS, ROUGH]))
    cells = draw(st.lists(st.sampled_from(palette), min_size=w * h, max_size=w * h))
    rows = ["".join(cells[y * w : (y + 1) * w]) for y in range(h)]
    square = st.tuples(st.integers(0, w - 1), st.integers(0, h - 1))
    directives = []
    for kind in ("wall", "window"):
        for (x, y), side in draw(st.lists(st.tuples(square, st.sampled_from("NESW")), max_size=4)):
            directives.append(f"{kind} {x},{y} {side}")
    for x, y in draw(st.lists(st.tuples(st.integers(0, w), st.integers(0, h)), max_size=2)):
        directives.append(f"corner {x},{y}")
    for x, y in draw(st.lists(square, max_size=3)):
        directives.append(f"{draw(st.sampled_from(['difficult', 'narrow', 'low']))} {x},{y}")
    text = "\n".join(rows) + ("\n\n" + "\n".join(directives) if directives else "")
    return parse_map(text).map


@dataclass(frozen=True)
class Scene:
    grid: GridMap
    options: GridOptions
    start: Square
    parity: int
    speed: int
    occupants: dict[Square, Occupant]
    hampered: dict[Square, int]
    zone: frozenset[Square]


@st.composite
def scenes(draw: st.DrawFn) -> Scene:
    grid = draw(text_maps())
    options = GridOptions(
        hampered_diagonal_counts=draw(st.booleans()), squeeze_speed=draw(st.sampled_from(["half", "quarter"]))
    )
    tables = geo.map_tables(grid, options)
    free = [(i % grid.width, i // grid.width) for i in range(tables.n) if tables.fits[i]]
    assume(free)
    start = draw(st.sampled_from(free))
    everywhere = list(grid.squares())
    others = [s for s in everywhere if s != start]
    occupants = draw(st.dictionaries(st.sampled_from(others), st.sampled_from(OCCUPANTS), max_size=6))
    hampered = draw(st.dictionaries(st.sampled_from(everywhere), st.integers(1, 2), max_size=2))
    zone = frozenset(draw(st.lists(st.sampled_from(everywhere), max_size=12)))
    return Scene(
        grid,
        options,
        start,
        draw(st.integers(0, 1)),
        draw(st.sampled_from([5, 10, 15, 20, 30])),
        occupants,
        hampered,
        zone,
    )


def run(scene: Scene) -> geo.SearchBuffers:
    grid = scene.grid
    tables = geo.map_tables(grid, scene.options)
    passable, stoppable, extra_k = geo.occupancy_arrays(grid, scene.occupants, scene.hampered, options=scene.options)
    buffers = geo.SearchBuffers.for_squares(tables.n)
    geo.run_search(
        tables,
        buffers,
        scene.start[1] * grid.width + scene.start[0],
        scene.speed,
        parity=scene.parity,
        passable=passable,
        stoppable=stoppable,
        extra_k=extra_k,
        provoking=geo.provoking_array(grid, scene.zone),
        options=scene.options,
    )
    return buffers


def costs(grid: GridMap, buffers: geo.SearchBuffers) -> dict[Square, int]:
    w = grid.width
    return {(i % w, i // w): int(c) for i, c in enumerate(buffers.cost) if c >= 0}


# --- movement tables ---------------------------------------------------------------------------------------------


@pytest.mark.rule("MOV-01", "MOV-11", "MOV-17", "MOV-19")
@SETTINGS
@given(text_maps(max_side=5), st.sampled_from(["half", "quarter"]), st.sampled_from([Size.MEDIUM, Size.TINY]))
def test_step_tables_match_the_legal_steps_of_price_path(grid: GridMap, squeeze: str, size: Size) -> None:
    options = GridOptions(squeeze_speed=squeeze)  # type: ignore[arg-type]
    tables = geo.map_tables(grid, options, size)
    if size is Size.MEDIUM:
        small = geo.map_tables(grid, options, Size.SMALL)
        assert np.array_equal(small.step_to, tables.step_to) and np.array_equal(small.step_k, tables.step_k)
    assert tables.step_to.dtype == np.int32 and tables.step_k.dtype == np.int8 and tables.fits.dtype == np.bool_
    assert list(tables.step_diag) == [False, True] * 4
    w = grid.width
    for idx in range(tables.n):
        x, y = idx % w, idx // w
        for d, (dx, dy) in enumerate(DIRECTIONS):
            to = (x + dx, y + dy)
            try:
                p = price_path(grid, (x, y), [to], Mover(size=size), options=options)
            except RuleViolation:
                assert tables.step_to[idx, d] == -1
                continue
            assert tables.step_to[idx, d] == to[1] * w + to[0]
            assert tables.step_k[idx, d] == p.steps[0].doublings
            assert tables.fits[idx] and tables.fits[tables.step_to[idx, d]]
    assert geo.map_tables(grid, options, size) is tables  # cached on the map


def test_map_tables_refuse_creatures_bigger_than_a_square() -> None:
    with pytest.raises(ValueError, match="one square"):
        geo.map_tables(GridMap(3, 3), size=Size.LARGE)


# --- the search -------------------------------------------------------------------------------------------------


@pytest.mark.rule("MOV-10", "MOV-13", "MOV-14", "MOV-15", "MOV-16", "MOV-17", "MOV-18", "MOV-19")
@SETTINGS
@given(scenes())
def test_search_costs_equal_reachable(scene: Scene) -> None:
    mine = costs(scene.grid, run(scene))
    r = reachable(
        scene.grid,
        scene.start,
        Mover(speed=scene.speed),
        occupants=scene.occupants,
        hampered=scene.hampered,
        diagonals_before=scene.parity,
        options=scene.options,
    )
    assert mine == r.cost
    assert set(mine) == {s for s, a in r.actions.items() if a <= 1}


@pytest.mark.rule("MOV-10", "MOV-17")
@SETTINGS
@given(scenes(), st.integers(0, 3))
def test_box_reset_agrees_with_full_reset(scene: Scene, warmups: int) -> None:
    """Resetting only the box the budget can reach (``width``) gives the same outputs inside it as a search that
    resets every square, even after searches elsewhere left stale entries."""
    grid, w = scene.grid, scene.grid.width
    tables = geo.map_tables(grid, scene.options)
    passable, stoppable, extra_k = geo.occupancy_arrays(grid, scene.occupants, scene.hampered, options=scene.options)
    provoking = geo.provoking_array(grid, scene.zone)
    start = scene.start[1] * w + scene.start[0]
    kw = {"parity": scene.parity, "passable": passable, "stoppable": stoppable, "extra_k": extra_k,
          "provoking": provoking, "options": scene.options}  # fmt: skip
    by_heap = geo.SearchBuffers.for_squares(tables.n)
    geo.run_search(tables, by_heap, start, scene.speed, **kw)  # type: ignore[arg-type]
    boxed = geo.SearchBuffers.for_squares(tables.n)
    for i in range(warmups):  # leave stale entries from searches elsewhere
        geo.run_search(tables, boxed, (start + 7 * (i + 1)) % tables.n, 40, **kw)  # type: ignore[arg-type]
    geo.search(tables.step_to, tables.step_k, tables.step_diag, start, scene.parity, scene.speed, passable,
               stoppable, extra_k, provoking, scene.options.hampered_diagonal_counts, -1, boxed.dist, boxed.parent,
               boxed.heap, boxed.cost, boxed.provocations, boxed.state, w)  # fmt: skip
    r = scene.speed // 5
    sx, sy = scene.start
    for y in range(max(0, sy - r), min(grid.height, sy + r + 1)):
        for x in range(max(0, sx - r), min(w, sx + r + 1)):
            i = y * w + x
            assert (boxed.cost[i], boxed.provocations[i], boxed.state[i]) == (
                by_heap.cost[i],
                by_heap.provocations[i],
                by_heap.state[i],
            ), (x, y)


@pytest.mark.rule("MOV-10", "MOV-17", "AOO-06")
@SETTINGS
@given(scenes(), st.data())
def test_search_paths_equal_find_path(scene: Scene, data: st.DataObject) -> None:
    buffers = run(scene)
    grid, w = scene.grid, scene.grid.width
    reached = costs(grid, buffers)
    assume(reached)
    goal = data.draw(st.sampled_from(sorted(reached)))
    gi = goal[1] * w + goal[0]
    p = find_path(
        grid,
        scene.start,
        goal,
        Mover(speed=scene.speed),
        occupants=scene.occupants,
        hampered=scene.hampered,
        threats={"e": scene.zone},
        budget_ft=scene.speed,
        diagonals_before=scene.parity,
        options=scene.options,
    )
    assert p is not None
    assert p.cost_ft == buffers.cost[gi]
    assert len(p.provocations) == buffers.provocations[gi]
    squares, leaving = geo.path_to(gi, buffers.state, buffers.parent, geo.provoking_array(grid, scene.zone))
    # ties are broken as the grid package breaks them, so even the path is the same
    assert [(int(s) % w, int(s) // w) for s in squares] == list(p.squares)
    assert [int(i) for i in leaving] == [q.step for q in p.provocations]
    assert [Footprint(int(squares[i]) % w, int(squares[i]) // w) for i in leaving] == [q.left for q in p.provocations]


@pytest.mark.rule("MOV-10", "MOV-17")
@pytest.mark.parametrize("counts", [False, True])
def test_a_diagonal_into_difficult_terrain_and_the_next_diagonal(counts: bool) -> None:
    grid = parse_map(
        """
        .%%%
        %~%%
        %%..
        """
    ).map
    options = GridOptions(hampered_diagonal_counts=counts)
    tables = geo.map_tables(grid, options)
    buffers = geo.SearchBuffers.for_squares(tables.n)
    geo.run_search(tables, buffers, 0, 30, options=options)
    expected = 15 + (10 if counts else 5)  # the second diagonal is the expensive one only if the first counted
    assert buffers.cost[2 * 4 + 2] == expected == reachable(grid, (0, 0), options=options).cost[(2, 2)]


def test_search_with_a_goal_stops_there_and_unreached_goals_have_no_path() -> None:
    grid = parse_map(
        """
        ..#...
        ..#...
        ......
        """
    ).map
    tables = geo.map_tables(grid)
    buffers = geo.SearchBuffers.for_squares(tables.n)
    geo.run_search(tables, buffers, 0, 30, goal=13)
    assert buffers.cost[13] == 10 and buffers.cost[5] == -1  # (5, 0) lies beyond the goal
    squares, leaving = geo.path_to(5, buffers.state, buffers.parent, np.zeros(tables.n, dtype=np.bool_))
    assert len(squares) == 0 and len(leaving) == 0
    with pytest.raises(ValueError, match="budget"):
        geo.run_search(tables, buffers, 0, -5)


@cache
def benchmark() -> tuple[GridMap, list[tuple[str, str, Square, Size]]]:
    from sftactics.sim.benchmark import benchmark_encounter

    enc = benchmark_encounter()
    people = [(c.id, c.side, c.position, Size(c.creature.stat.size)) for c in enc.combatants.values()]
    return enc.grid, people  # type: ignore[return-value]


@pytest.mark.rule("MOV-10", "MOV-13", "MOV-16", "AOO-06")
def test_search_on_the_benchmark_map() -> None:
    grid, people = benchmark()
    w = grid.width
    rng = np.random.default_rng(7)
    for name, side, pos, size in people:
        occ = {p: (Occupant.ALLY if s == side else Occupant.ENEMY) for n, s, p, _ in people if n != name}
        zone = frozenset().union(*(threatened_squares(p, grid=grid) for _, s, p, _ in people if s != side))
        tables = geo.map_tables(grid, size=size)
        passable, stoppable, extra_k = geo.occupancy_arrays(grid, occ, size=size)
        provoking = geo.provoking_array(grid, zone)
        buffers = geo.SearchBuffers.for_squares(tables.n)
        for budget in (30, 60):
            start = pos[1] * w + pos[0]
            geo.run_search(
                tables,
                buffers,
                start,
                budget,
                passable=passable,
                stoppable=stoppable,
                extra_k=extra_k,
                provoking=provoking,
            )
            mover = Mover(size=size, speed=budget)
            assert costs(grid, buffers) == reachable(grid, pos, mover, occupants=occ).cost
            reached = sorted(costs(grid, buffers))
            for k in rng.choice(len(reached), size=6, replace=False):
                goal = reached[int(k)]
                p = find_path(grid, pos, goal, mover, occupants=occ, threats={"e": zone}, budget_ft=budget)
                gi = goal[1] * w + goal[0]
                assert p is not None and p.cost_ft == buffers.cost[gi]
                assert len(p.provocations) == buffers.provocations[gi]
                squares, _ = geo.path_to(gi, buffers.state, buffers.parent, provoking)
                assert [(int(s) % w, int(s) // w) for s in squares] == list(p.squares)


# --- distances, reach, flanking -----------------------------------------------------------------------------------

W = 12
coord = st.tuples(st.integers(0, W - 1), st.integers(0, W - 1))


@pytest.mark.rule("MOV-10", "ATK-10")
@settings(max_examples=200, deadline=None)
@given(coord, coord, st.tuples(st.integers(0, W), st.integers(0, W)))
def test_distances(a: Square, b: Square, p: Square) -> None:
    ai, bi = a[1] * W + a[0], b[1] * W + b[0]
    fa, fb = Footprint(*a), Footprint(*b)
    assert geo.distance_ft(ai, bi, W) == footprint_distance_ft(fa, fb)
    assert geo.range_ft(ai, bi, W) == attack_range_ft(fa, fb)
    pi = p[1] * (W + 1) + p[0]
    assert geo.distance_to_point_ft(ai, pi, W) == grid_distance_to_point_ft(fa, p) == attack_range_ft(fa, p)


@pytest.mark.rule("AOO-02", "AOO-03", "AOO-04", "AOO-05")
@pytest.mark.parametrize("reach", [0, 5, 10, 15, 20])
@pytest.mark.parametrize("reach_weapon", [False, True])
@pytest.mark.parametrize("adjacent_option", [False, True])
def test_threatens_on_an_open_grid(reach: int, reach_weapon: bool, adjacent_option: bool) -> None:
    options = GridOptions(reach_weapon_threatens_adjacent=adjacent_option)
    width, a = 15, (7, 7)
    zone = threatened_squares(a, Size.MEDIUM, reach, reach_weapon=reach_weapon, options=options)
    total = reach + (5 if reach_weapon else 0)
    adjacent_too = not (reach_weapon and not adjacent_option)
    ai = a[1] * width + a[0]
    for bi in range(width * width):
        b = (bi % width, bi // width)
        assert geo.threatens(ai, bi, width, total, adjacent_too) == (b in zone), b


@pytest.mark.rule("AOO-02", "AOO-03", "AOO-04", "EFF-35")
@settings(max_examples=30, deadline=None)
@given(text_maps(max_side=6), st.sampled_from([0, 5, 10]), st.booleans(), st.booleans())
def test_threat_table_equals_threatened_squares_on_a_map(
    grid: GridMap, reach: int, reach_weapon: bool, adjacent_option: bool
) -> None:
    options = GridOptions(reach_weapon_threatens_adjacent=adjacent_option)
    table = geo.threat_table(grid, reach, reach_weapon=reach_weapon, options=options)
    w, n = grid.width, grid.width * grid.height
    for ai in range(n):
        zone = threatened_squares(
            (ai % w, ai // w), Size.MEDIUM, reach, reach_weapon=reach_weapon, grid=grid, options=options
        )
        got = {(bi % w, bi // w) for bi in range(n) if geo.threatens_on_map(table.table, table.radius, ai, bi, w)}
        assert got == zone


@pytest.mark.rule("MOD-17")
def test_flank_line_from_the_centre_against_every_pair() -> None:
    width, a = 9, 4 * 9 + 4
    for b, t in itertools.product(range(width * width), repeat=2):
        fa, fb, ft = (Footprint(s % width, s // width) for s in (a, b, t))
        assert geo.flank_line(a, b, t, width) == (flank_line(fa, fb, ft) is not None), (b, t)


@pytest.mark.rule("MOD-17")
@settings(max_examples=200, deadline=None)
@given(coord, coord, coord)
def test_flank_line(a: Square, b: Square, t: Square) -> None:
    got = geo.flank_line(a[1] * W + a[0], b[1] * W + b[0], t[1] * W + t[0], W)
    assert got == (flank_line(Footprint(*a), Footprint(*b), Footprint(*t)) is not None)


# --- bursts ------------------------------------------------------------------------------------------------------


@pytest.mark.rule("EFF-02", "EFF-03", "EFF-36")
@settings(max_examples=10, deadline=None)
@given(text_maps(max_side=6), st.sampled_from([5, 10, 15, 20]))
def test_burst_table(grid: GridMap, radius: int) -> None:
    offsets, squares = geo.burst_table(grid, radius)
    w, h = grid.width, grid.height
    assert offsets.dtype == np.int32 and squares.dtype == np.int32 and len(offsets) == (w + 1) * (h + 1) + 1
    for p in range((w + 1) * (h + 1)):
        area = burst(grid, (p % (w + 1), p // (w + 1)), radius)
        got = {(int(s) % w, int(s) // w) for s in squares[offsets[p] : offsets[p + 1]]}
        assert got == area.squares
    assert geo.burst_table(grid, radius)[0] is offsets


# --- cover -------------------------------------------------------------------------------------------------------


@st.composite
def cover_cases(draw: st.DrawFn) -> tuple[GridMap, Square, Square, list[Square]]:
    grid = draw(text_maps(max_side=8))
    sq = st.tuples(st.integers(0, grid.width - 1), st.integers(0, grid.height - 1))
    a, t = draw(sq), draw(sq)
    assume(a != t)
    box = st.tuples(st.integers(min(a[0], t[0]), max(a[0], t[0])), st.integers(min(a[1], t[1]), max(a[1], t[1])))
    return grid, a, t, draw(st.lists(sq, max_size=8)) + draw(st.lists(box, max_size=10))


def in_box(s: Square, a: Square, t: Square) -> bool:
    return min(a[0], t[0]) <= s[0] <= max(a[0], t[0]) and min(a[1], t[1]) <= s[1] <= max(a[1], t[1])


@pytest.mark.rule("MOD-07", "MOD-11")
@SETTINGS
@given(cover_cases())
def test_creatures_outside_the_box_of_the_two_squares_never_change_cover(
    case: tuple[GridMap, Square, Square, list[Square]],
) -> None:
    grid, a, t, crowd = case
    everyone = [Footprint(*s) for s in crowd]
    inside = [Footprint(*s) for s in crowd if in_box(s, a, t)]
    full = cover(grid, Footprint(*a), Footprint(*t), creatures=everyone, explain=False)
    assert full.kind == cover(grid, Footprint(*a), Footprint(*t), creatures=inside, explain=False).kind


@pytest.mark.rule("MOD-07", "MOD-08", "MOD-10", "MOD-11", "MOD-14")
@SETTINGS
@given(cover_cases(), st.booleans())
def test_cover_kind_equals_cover(case: tuple[GridMap, Square, Square, list[Square]], ranged: bool) -> None:
    grid, a, t, crowd = case
    w = grid.width
    map_id = geo.register_map(grid)
    cache = geo.cover_cache(map_id)
    pair = geo.pair_table(map_id)
    squares = np.array([y * w + x for x, y in crowd], dtype=np.int32)
    expected = cover(
        grid, Footprint(*a), Footprint(*t), ranged=ranged, creatures=[Footprint(*s) for s in crowd], explain=False
    ).kind
    for _ in range(2):
        assert coverkind.cover_kind(
            cache, pair, map_id, w, a[1] * w + a[0], t[1] * w + t[0], ranged, squares, len(squares)
        ) == int(expected)
    reactor, provoker = a[1] * w + a[0], t[1] * w + t[0]
    assert coverkind.can_aoo_geometry(cache, pair, map_id, reactor, provoker) == can_make_attack_of_opportunity(
        grid, Footprint(*a), Footprint(*t)
    )


@pytest.mark.rule("MOD-11")
def test_a_creature_in_line_gives_soft_cover_through_the_cache() -> None:
    grid = GridMap(9, 9)
    w = grid.width
    map_id = geo.register_map(grid)
    cache = geo.cover_cache(map_id)
    pair = geo.pair_table(map_id)
    for a, t, between in (((0, 4), (8, 4), (4, 4)), ((4, 0), (4, 8), (4, 5)), ((0, 0), (6, 6), (3, 3))):
        crowd = np.array([between[1] * w + between[0]], dtype=np.int32)
        got = coverkind.cover_kind(cache, pair, map_id, w, a[1] * w + a[0], t[1] * w + t[0], True, crowd, 1)
        assert got == int(CoverKind.SOFT)
        assert coverkind.cover_kind(cache, pair, map_id, w, a[1] * w + a[0], t[1] * w + t[0], False, crowd, 1) == 0


@pytest.mark.rule("MOD-07", "MOD-11")
def test_cover_cache_asks_python_once_per_key() -> None:
    grid = parse_map(  # nothing between (0, 0) and (5, 3) but the creatures; a crate and a low wall off the line
        """
        .......=
        ........
        .......o
        ........
        """
    ).map
    w = grid.width
    map_id = geo.register_map(grid)
    assert geo.register_map(grid) == map_id and geo.register_map(grid, GridOptions(line_along_wall_blocks=False)) != (
        map_id
    )
    cache = geo.cover_cache(map_id)
    pair = geo.pair_table(map_id)
    crowd = np.array([1 * w + 3, 3 * w + 7], dtype=np.int32)  # (3, 1) in the box, (7, 3) outside it
    before = geo.cover_fallback_calls()
    first = coverkind.cover_kind(cache, pair, map_id, w, 0, 3 * w + 5, True, crowd, 2)
    # two questions: the walls alone (no cover there, a key every fight shares), then with the creature
    assert first < int(CoverKind.COVER)
    assert geo.cover_fallback_calls() == before + 2
    assert coverkind.cover_kind(cache, pair, map_id, w, 0, 3 * w + 5, True, crowd, 2) == first
    assert (
        coverkind.cover_kind(cache, pair, map_id, w, 0, 3 * w + 5, True, crowd, 1) == first
    )  # same key: (7, 3) is outside
    twice = np.array([1 * w + 3, 0, 1 * w + 3, 3 * w + 5], dtype=np.int32)  # a duplicate, the attacker, the target
    assert coverkind.cover_kind(cache, pair, map_id, w, 0, 3 * w + 5, True, twice, 4) == first  # still the same key
    assert geo.cover_fallback_calls() == before + 2
    assert coverkind.can_aoo_geometry(cache, pair, map_id, 0, 3 * w + 5) == coverkind.can_aoo_geometry(
        cache, pair, map_id, 0, 3 * w + 5
    )
    assert geo.cover_fallback_calls() == before + 3
    # more creatures in the box than a key holds: answered every time, never stored
    many = np.array([y * w + x for y in range(4) for x in range(1, 6)], dtype=np.int32)
    expected = cover(
        grid, Footprint(0, 0), Footprint(5, 3), creatures=[Footprint(int(s) % w, int(s) // w) for s in many]
    ).kind
    size = len(cache)
    for k in range(2):
        assert coverkind.cover_kind(cache, pair, map_id, w, 0, 3 * w + 5, True, many, len(many)) == int(expected)
        assert geo.cover_fallback_calls() == before + 4 + k  # the walls-alone answer is known already
    assert len(cache) == size
    with pytest.raises(KeyError):
        geo.cover_cache(10**9)


@pytest.mark.rule("MOD-07", "MOD-09", "MOD-11")
def test_cover_on_the_benchmark_map() -> None:
    grid, people = benchmark()
    w = grid.width
    map_id = geo.register_map(grid)
    cache = geo.cover_cache(map_id)
    pair = geo.pair_table(map_id)
    crowd = [p for _, _, p, _ in people]
    squares = np.array([y * w + x for x, y in crowd], dtype=np.int32)
    rng = np.random.default_rng(3)
    spots = [(x, y) for x, y in grid.squares() if not grid.cells[y * w + x] & 1]  # not wall squares
    for _ in range(150):
        i, j = rng.choice(len(spots), size=2, replace=False)
        a, t = spots[int(i)], spots[int(j)]
        ai, ti = a[1] * w + a[0], t[1] * w + t[0]
        expected = cover(grid, Footprint(*a), Footprint(*t), creatures=[Footprint(*s) for s in crowd], explain=False)
        assert coverkind.cover_kind(cache, pair, map_id, w, ai, ti, True, squares, len(squares)) == int(expected.kind)
        aoo = can_make_attack_of_opportunity(grid, Footprint(*a), Footprint(*t), options=DEFAULT_OPTIONS)
        assert coverkind.can_aoo_geometry(cache, pair, map_id, ai, ti) == aoo
