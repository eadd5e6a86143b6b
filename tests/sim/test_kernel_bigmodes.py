"""The compiled kernel moves creatures of two squares or more that fly, swim or burrow as the engine does (issue 22).

A big flier's search is the grid's with squeezing and headings (``sim.kernel.bigmodes``): checked space for
space against ``grid.movement.reachable`` and ``find_path``. Then same dice, same fight: a Large flier (the
bundled barathu, 10-ft reach) and a faster Large flier over impassable pools, reeds and canopy; a Huge burrower
(under pools and crates), a Huge swimmer and a Large incorporeal walker (reeds do not hamper it); and the shipped
melee brawl with its barathu, the simple policy on every side.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from sftactics.encounter.state import Encounter
from sftactics.grid.geometry import Footprint
from sftactics.grid.map import GridMap, parse_map
from sftactics.grid.movement import MoveMode, Mover, Occupant, find_path, reachable
from sftactics.grid.space import Size, footprint_side
from sftactics.io.scenario import load_scenario
from sftactics.sim.choices import without_riders_and_marks
from sftactics.sim.kernel import bigbuckets, bigmodes, footprints
from sftactics.sim.kernel.model import compile_encounter, unsupported
from sftactics.sim.kernel.modes import HEADINGS
from tests.sim.test_kernel import FIGHTS, SCENARIOS, _build, assert_same_fight, scripts

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BIG = [Size.LARGE, Size.HUGE, Size.GARGANTUAN, Size.COLOSSAL]
# floor mostly; difficult terrain, impassable ground, canopy, cover objects, low walls, narrow squares and walls
PALETTE = ".........~~%%^^=o,#"
OCCUPANTS = [Occupant.ALLY, Occupant.ENEMY, Occupant.HELPLESS, Occupant.HELPLESS_OBSTACLE, Occupant.PARALYZED]


@st.composite
def rooms(draw: st.DrawFn, max_side: int = 14) -> GridMap:
    """A random room of the palette, some walls on edges, and a wall line with a gap a big creature squeezes
    through."""
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
    return parse_map("\n".join(rows) + ("\n\n" + "\n".join(walls) if walls else "")).map


def _fly_anchors(grid: GridMap, size: Size) -> list[tuple[int, int]]:
    t = bigmodes.big_mode_tables(grid, (size, MoveMode.FLY, False))
    return [(a % grid.width, a // grid.width) for a in np.flatnonzero(t.fits[0]).tolist()]


def _occupants(data: st.DataObject, grid: GridMap, start: tuple[int, int], side: int) -> dict[Any, Occupant]:
    square = st.tuples(st.integers(0, grid.width - 1), st.integers(0, grid.height - 1))
    occ = data.draw(st.dictionaries(square, st.sampled_from(OCCUPANTS), max_size=4))
    return {s: o for s, o in occ.items() if not Footprint(start[0], start[1], side).contains(s)}


@pytest.mark.rule("MOV-32", "MOV-04", "MOV-10", "MOV-17", "MOV-19")
@SETTINGS
@given(st.data())
def test_big_fliers_reachable_matches_the_grid(data: st.DataObject) -> None:
    """Every space a big flier reaches with one move or two, its cost and whether it is squeezed, as
    ``reachable`` finds them (turning 5 ft per 45 degrees, pools crossed, canopy hampers, the second move
    keeping the first's heading)."""
    grid = data.draw(rooms())
    size = data.draw(st.sampled_from(BIG))
    anchors = _fly_anchors(grid, size)
    if not anchors:
        return
    start = data.draw(st.sampled_from(anchors))
    occ = _occupants(data, grid, start, footprint_side(size))
    speed = data.draw(st.sampled_from([20, 30, 40, 60]))
    actions = data.draw(st.sampled_from([1, 2]))
    diag = data.draw(st.integers(0, 1))
    mover = Mover(size=size, speed=speed, mode=MoveMode.FLY)
    want = reachable(grid, start, mover, occupants=occ, actions=actions, diagonals_before=diag)
    cost, acts, squeezed = bigmodes.big_fly_reachable(grid, start, size, speed, occupants=occ, actions=actions,
                                                      diagonals_before=diag)  # fmt: skip
    assert cost == want.cost
    assert acts == want.actions
    assert squeezed == want.squeezed


@pytest.mark.rule("MOV-32", "MOV-04", "MOV-19", "AOO-06")
@SETTINGS
@given(st.data())
def test_big_fliers_find_path_matches_the_grid(data: st.DataObject) -> None:
    """The same path space for space (squeezed spaces included), cost and spaces left while threatened; also
    from a search of the whole map, with the end state the grid's search settles first."""
    grid = data.draw(rooms())
    size = data.draw(st.sampled_from(BIG))
    anchors = _fly_anchors(grid, size)
    if not anchors:
        return
    start = data.draw(st.sampled_from(anchors))
    goal = data.draw(st.sampled_from(anchors))
    occ = _occupants(data, grid, start, footprint_side(size))
    square = st.tuples(st.integers(0, grid.width - 1), st.integers(0, grid.height - 1))
    zone = frozenset(data.draw(st.lists(square, max_size=25)))
    charging = data.draw(st.booleans())
    mover = Mover(size=size, mode=MoveMode.FLY, charging=charging)
    want = find_path(grid, start, goal, mover, occupants=occ, threats={"foe": zone})
    whole = data.draw(st.booleans())  # the whole map searched, as the fight does (``kernel.bigpath``)
    got = bigmodes.big_fly_find_path(grid, start, goal, size, occupants=occ, threats=zone, charging=charging,
                                     whole=whole)  # fmt: skip
    if want is None:
        assert got is None
        return
    assert got is not None
    assert got.cost_ft == want.cost_ft
    assert got.spaces == (want.start, *(s.to for s in want.steps))
    assert got.leaving == tuple(p.step for p in want.provocations)


def _search_inputs(
    data: st.DataObject, rng: np.random.Generator, start: int, n_states: int, goals: list[int]
) -> tuple[bool, int, NDArray[np.int64], NDArray[np.int64], int, bool, bool]:
    """What a big mover's search is asked, drawn: (use_provoking, budget, seeds, keys, goal, hampered,
    no_difficult); the seeds one state at ``start`` (the start of a move, key 0) or up to 40 states of the map
    with keys (a double move's second search)."""
    use_provoking = data.draw(st.booleans())
    budget = data.draw(st.sampled_from([5, 15, 30, 40, 60, 120]))
    if data.draw(st.booleans()):
        seeds = np.array([start], dtype=np.int64)
        keys = np.zeros(1, dtype=np.int64)
    else:
        seeds = rng.choice(n_states, size=data.draw(st.integers(1, 40)), replace=False).astype(np.int64)
        keys = rng.integers(0, 7, seeds.shape[0]).astype(np.int64) * (1 if use_provoking else 5)
    goal = data.draw(st.sampled_from([-1, *goals]))
    return use_provoking, budget, seeds, keys, goal, data.draw(st.booleans()), data.draw(st.booleans())


def _same_buffers(outs: list[tuple[int, NDArray[np.int64], NDArray[np.int32]]]) -> None:
    """Every search's (end state, dist, parent) is the first's."""
    for end, dist, parent in outs[1:]:
        assert end == outs[0][0]
        assert np.array_equal(dist, outs[0][1])
        assert np.array_equal(parent, outs[0][2])


@pytest.mark.rule("MOV-32", "MOV-04", "MOV-19", "AOO-06")
@SETTINGS
@given(st.data())
def test_the_fliers_bucket_search_is_its_heap_search(data: st.DataObject) -> None:
    """The flier's bucket search (``bigbuckets.space_bucket_search`` with headings) leaves every buffer as
    ``fly_heap_search`` does (stale entries, an early stop at a goal), from one seed or from many keyed seeds (a
    double move's second search), counting provocations or not, buffers holding leftovers of earlier searches;
    and both as the heap search that makes every state's steps (leaving out those of a state another heading
    dominates changes nothing)."""
    grid = data.draw(rooms())
    size = data.draw(st.sampled_from(BIG))
    anchors = _fly_anchors(grid, size)
    if not anchors:
        return
    start = data.draw(st.sampled_from(anchors))
    occ = _occupants(data, grid, start, footprint_side(size))
    t, work = bigmodes._setup(grid, size, occ, False, bigmodes.DEFAULT_OPTIONS)
    rng = np.random.default_rng(data.draw(st.integers(0, 1000)))
    work.prov[...] = rng.random(work.prov.shape) < 0.2
    w = grid.width
    n_states = 8 * HEADINGS * t.n
    seed = bigmodes.fly_state_of(start[1] * w + start[0], 0, data.draw(st.integers(0, 1)), 0, bigmodes.NO_HEADING)
    use_provoking, budget, seeds, keys, goal, hampered, no_difficult = _search_inputs(
        data, rng, seed, n_states, [a[1] * w + a[0] for a in anchors[:5]]
    )
    lw = bigbuckets.bucket_lanes(seeds, keys, budget, use_provoking)
    assert lw > 0
    buckets = bigbuckets.bucket_size(budget, lw, n_states)  # (the fight's searches fit the heap's buffer)
    heap_size = max(bigmodes.fly_heap_size(t.n, t.shift_to.shape[2]), buckets)
    outs = []
    # the heap search with every state's steps made, then both searches as the fight makes them (a state
    # dominated by another heading at the same place makes none: ``bigmodes._dominated``)
    for search, prune in ((bigmodes.fly_heap_search, False), (bigmodes.fly_heap_search, True),
                          (bigbuckets.space_bucket_search, True)):  # fmt: skip
        dist = rng.integers(0, 1 << 40, n_states).astype(np.int64)
        parent = rng.integers(-1, n_states, n_states).astype(np.int32)
        heap = rng.integers(-(1 << 40), 1 << 40, heap_size)
        args = (t.step_to, t.step_k, t.step_diag, t.shift_to, t.squeeze_stop, t.sqd, seeds, keys, budget,
                work.a_pass, work.a_stop, work.a_k, work.prov, use_provoking, no_difficult, hampered, goal, dist,
                parent, heap)  # fmt: skip
        extra = (prune,) if search is bigmodes.fly_heap_search else (lw, HEADINGS, prune)
        outs.append((search(*args, *extra), dist, parent))
    _same_buffers(outs)


@pytest.mark.rule("MOV-04", "MOV-19", "AOO-06")
@SETTINGS
@given(st.data())
def test_the_walkers_bucket_search_is_its_heap_search(data: st.DataObject) -> None:
    """A big walker's search from buckets (``footprints.big_walk_search``: ``bigbuckets.space_bucket_search``
    without headings) leaves every buffer as the heap search (``footprints.big_search``) does, as for a flier."""
    grid = data.draw(rooms())
    size = data.draw(st.sampled_from(BIG))
    t = footprints.big_tables(grid, size)
    anchors = [(a % grid.width, a // grid.width) for a in np.flatnonzero(t.fits[0]).tolist()]
    if not anchors:
        return
    start = data.draw(st.sampled_from(anchors))
    occ = _occupants(data, grid, start, footprint_side(size))
    work = footprints._Work(t)
    footprints._occupancy(t, work, grid, size, occ, False, bigmodes.DEFAULT_OPTIONS)
    rng = np.random.default_rng(data.draw(st.integers(0, 1000)))
    work.prov[...] = rng.random(work.prov.shape) < 0.2
    w = grid.width
    n_states = 8 * t.n
    seed = footprints.state_of(start[1] * w + start[0], 0, data.draw(st.integers(0, 1)), 0)
    use_provoking, budget, seeds, keys, goal, hampered, no_difficult = _search_inputs(
        data, rng, seed, n_states, [a[1] * w + a[0] for a in anchors[:5]]
    )
    lw = bigbuckets.bucket_lanes(seeds, keys, budget, use_provoking)
    assert lw > 0
    heap_size = max(72 * t.n + 1, bigbuckets.bucket_size(budget, lw, n_states))
    outs = []
    for search in (footprints.big_search, footprints.big_walk_search):
        dist = rng.integers(0, 1 << 40, n_states).astype(np.int64)
        parent = rng.integers(-1, n_states, n_states).astype(np.int32)
        heap = rng.integers(-(1 << 40), 1 << 40, heap_size)
        end = search(t.step_to, t.step_k, t.step_diag, t.shift_to, t.squeeze_stop, t.sqd, seeds, keys, budget,
                     work.a_pass, work.a_stop, work.a_k, work.prov, use_provoking, no_difficult, hampered, goal, dist,
                     parent, heap)  # fmt: skip
        outs.append((end, dist, parent))
    _same_buffers(outs)


@pytest.mark.rule("MOV-32", "MOV-19")
def test_a_large_flier_crosses_a_pool_and_turns() -> None:
    """A Large flier crosses a pool a walker goes around; its path (with a turn or a squeezed step, which tie)
    is the grid's."""
    text = "\n".join(["..........", "...%%%%...", "...%%%%...", "....#.....", "....#.....", ".........."])
    grid = parse_map(text).map
    got = bigmodes.big_fly_find_path(grid, (0, 0), (7, 1), Size.LARGE)
    want = find_path(grid, (0, 0), (7, 1), Mover(size=Size.LARGE, mode=MoveMode.FLY))
    assert got is not None and want is not None
    assert got.spaces == (want.start, *(s.to for s in want.steps))
    assert got.cost_ft == want.cost_ft == 35  # over the pool; turning east costs as much as a squeezed step
    walker = find_path(grid, (0, 0), (7, 1), Mover(size=Size.LARGE))
    assert walker is not None and walker.cost_ft == 60  # around the pool


# ---------------------------------------------------------------- same dice, same fight


def _big(name: str, size: str, speed: dict[str, int], reach: int, **more: Any) -> dict[str, Any]:
    return {
        "name": name,
        "kind": "npc",
        "cr": "4",
        "size": size,
        "reach_ft": reach,
        "abilities": {"str": 5, "dex": 2, "con": 3, "int": -3, "wis": 1, "cha": -2},
        "eac": 15,
        "kac": 17,
        "saves": {"fort": 7, "ref": 5, "will": 3},
        "initiative": 2,
        "hp": 45,
        "speed": speed,
        "weapons": [{"name": "bite", "category": "natural", "damage": "1d8+6 P", "attack_bonus": 11}],
        **more,
    }


WYVERN = _big("Test Wyvern", "large", {"land": 0, "fly": 50}, 5)
WORM = _big("Test Worm", "huge", {"land": 0, "burrow": 20}, 10)
EEL = _big("Test Great Eel", "huge", {"land": 0, "swim": 30}, 10)
WRAITH = _big("Test Wraith", "large", {"land": 30}, 10, incorporeal=True)

# Pools (%) fliers cross and burrowers go under, reeds (~: difficult for walkers), canopy (^: hampers fliers),
# crates (=) and a low wall (o); no walls inside.
FEN = """\
######################
#......%%%...........#
#..~~..%%%.....^^....#
#..~~..........^^....#
#.........%%%%.......#
#..==.....%%%%...o...#
#......~~............#
#......~~.......%%...#
#...............%%...#
######################
"""


@cache
def aerie() -> Encounter:
    """A level-4 party against the barathu (Large, fly 30, 10-ft reach) and a Large flier of 50 ft."""
    return _build(
        "aerie",
        FEN,
        [
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-4", "at": [2, 2]},
            {"id": "Nyx", "side": "party", "statblock": "pregen-operative-4", "at": [1, 5]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-4", "at": [2, 7]},
            {"id": "Barathu", "side": "sky", "statblock": "barathu", "at": [17, 2]},
            {"id": "Wyvern", "side": "sky", "statblock": WYVERN, "at": [18, 6]},
        ],
    )


@cache
def deeps() -> Encounter:
    """A level-4 party against a Huge burrower, a Huge swimmer and a Large incorporeal walker."""
    return _build(
        "deeps",
        FEN,
        [
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-4", "at": [2, 2]},
            {"id": "Nyx", "side": "party", "statblock": "pregen-operative-4", "at": [1, 5]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-4", "at": [2, 7]},
            {"id": "Worm", "side": "deep", "statblock": WORM, "at": [17, 1]},
            {"id": "Eel", "side": "deep", "statblock": EEL, "at": [13, 6]},
            {"id": "Wraith", "side": "deep", "statblock": WRAITH, "at": [18, 4]},
        ],
    )


@cache
def brawl() -> Encounter:
    """The shipped melee brawl (a Large flier with 10-ft reach) without trick attack and get 'em."""
    return without_riders_and_marks(load_scenario(SCENARIOS / "melee-brawl.yaml"))


def test_the_kernel_takes_big_fliers_swimmers_and_burrowers() -> None:
    for enc in (aerie(), deeps(), brawl()):
        assert unsupported(enc) == []
    m = compile_encounter(aerie()).model
    assert list(m.fly) == [False, False, False, True, True]
    assert m.bw_dist.shape[0] == 8 * HEADINGS * m.width * m.height
    m = compile_encounter(deeps()).model
    assert list(m.bg) == [-1, -1, -1, 1, 2, 0]  # three tables: the Large wraith, then the Huge burrower and walker


def test_a_big_flier_on_a_very_large_map_is_left_to_the_engine() -> None:
    room = "\n".join(["." * 101] * 100)
    enc = _build("sky", room, [
        {"id": "Krask", "side": "party", "statblock": "pregen-soldier-4", "at": [2, 2]},
        {"id": "Wyvern", "side": "sky", "statblock": WYVERN, "at": [50, 50]},
    ])  # fmt: skip
    assert unsupported(enc) == [
        "a flier bigger than a square on a map of more than 10,000 squares (its search keeps headings for every space)"
    ]


@pytest.mark.rule("MOV-32", "MOV-04", "MOV-19", "AOO-03", "AOO-06", "CF-02")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_large_fliers(values: list[int]) -> None:
    assert_same_fight(aerie(), values)


@pytest.mark.rule("MOV-29", "MOV-34", "SPA-14", "MOV-04", "AOO-06", "CF-02")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_huge_burrower_and_swimmer(values: list[int]) -> None:
    assert_same_fight(deeps(), values)


@pytest.mark.rule("MOV-32", "AOO-03", "MOD-17", "CF-02")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_melee_brawl(values: list[int]) -> None:
    assert_same_fight(brawl(), values)
