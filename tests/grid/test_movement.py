"""Movement on the grid: costs, legality, paths, reach and attacks of opportunity on the way
(MOV-05, MOV-10..20, MOD-19, ACT-33, ACT-55, ACT-56, AOO-07, EX-09, EX-14)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sftactics.core.errors import RuleViolation
from sftactics.grid.geometry import Footprint, distance_ft
from sftactics.grid.map import Feature, GridMap, edge, parse_map
from sftactics.grid.movement import (
    MoveMode,
    Mover,
    Occupant,
    find_path,
    guarded_step_squares,
    minimum_move_squares,
    price_path,
    reachable,
    step_cost,
)
from sftactics.grid.options import GridOptions
from sftactics.grid.space import Body, Size

OPEN = parse_map("\n".join(["." * 9] * 9)).map


def costs(reach: dict[tuple[int, int], int], width: int, height: int) -> list[str]:
    """A reach map drawn as feet / 5 per square ('.' = out of reach)."""
    return ["".join(str(reach[(x, y)] // 5) if (x, y) in reach else "." for x in range(width)) for y in range(height)]


@pytest.mark.rule("MOV-10", "MOV-05")
def test_one_move_of_fifteen_feet_in_open_ground() -> None:
    grid = parse_map("\n".join(["." * 7] * 7)).map
    r = reachable(grid, (3, 3), Mover(speed=15))
    assert costs(r.cost, 7, 7) == [
        "..333..",
        ".32223.",
        "3211123",
        "3210123",
        "3211123",
        ".32223.",
        "..333..",
    ]
    assert r.actions[(3, 3)] == 0 and r.actions[(5, 5)] == 1
    assert r.within(1) == frozenset(r.cost)


@pytest.mark.rule("MOV-10")
def test_in_open_ground_every_square_costs_its_distance() -> None:
    r = reachable(OPEN, (4, 4), Mover(speed=30))
    assert r.cost == {sq: distance_ft((4, 4), sq) for sq in OPEN.squares()}


@pytest.mark.rule("MOV-10")
def test_the_diagonal_count_carries_through_a_path_and_into_the_next() -> None:
    p = price_path(OPEN, (0, 0), [(1, 1), (2, 2), (3, 3), (4, 4)])
    assert [s.cost_ft for s in p.steps] == [5, 10, 5, 10]
    assert p.diagonals == 4
    q = price_path(OPEN, (0, 0), [(1, 1)], diagonals_before=1)
    assert q.cost_ft == 10 and q.diagonals == 2


@pytest.mark.rule("MOV-10", "MOV-05")
def test_double_move_carries_the_diagonal_count_unless_the_option_resets_it() -> None:
    speed5 = Mover(speed=5)
    assert reachable(OPEN, (0, 0), speed5, actions=2).actions.get((2, 2)) is None  # 5 + 10 > 5 for the second
    reset = GridOptions(diagonal_count_resets="move_action")
    r = reachable(OPEN, (0, 0), speed5, actions=2, options=reset)
    assert r.actions[(2, 2)] == 2 and r.cost[(2, 2)] == 10


@pytest.mark.rule("EX-09", "MOV-10", "MOV-17")
def test_ex09_altronus_spends_thirty_feet_then_needs_a_second_move_for_the_diagonal_into_difficult() -> None:
    m = parse_map(
        """
        ....~~
        ....~~
        ..B...
        AZ....
        """
    )
    a = m.at("A")
    path = price_path(m.map, a, [m.at("Z"), m.at("B"), (3, 1), (4, 1)])
    assert [s.cost_ft for s in path.steps] == [5, 5, 10, 10]
    assert path.cost_ft == 30
    onward = price_path(m.map, (4, 1), [(5, 0)], diagonals_before=path.diagonals)
    assert onward.steps[0].cost_ft == 15 and onward.steps[0].doublings == 1
    r = reachable(m.map, a, Mover(speed=30), actions=2)
    assert r.actions[(4, 1)] == 1
    assert r.actions[(5, 0)] == 2


@pytest.mark.rule("MOV-11")
def test_no_diagonal_past_a_hard_corner() -> None:
    m = parse_map(
        """
        K#.
        .T.
        """
    )
    with pytest.raises(RuleViolation) as err:
        price_path(m.map, m.at("K"), [m.at("T")])
    assert err.value.rule == "MOV-11"
    around = find_path(m.map, m.at("K"), m.at("T"))
    assert around is not None and around.cost_ft == 10 and around.squares == ((0, 0), (0, 1), (1, 1))


@pytest.mark.rule("MOV-11")
def test_the_ksarik_must_go_all_the_way_around_a_building_corner() -> None:
    building = """
        ....
        .##.
        K##.
        ....
        """
    m = parse_map(building)
    p = find_path(m.map, m.at("K"), (3, 1))
    assert p is not None and p.cost_ft == 30 and len(p.steps) == 6
    # over a chasm (no hard corners) it could cut the corners diagonally
    chasm = parse_map(building.replace("#", "%"))
    q = find_path(chasm.map, chasm.at("K"), (3, 1))
    assert q is not None and q.cost_ft == 25


@pytest.mark.rule("MOV-11")
def test_walls_on_edges_block_and_make_corners() -> None:
    m = parse_map(
        """
        A.
        ..

        wall 0,0 E
        """
    )
    with pytest.raises(RuleViolation, match="wall"):
        price_path(m.map, (0, 0), [(1, 0)])
    with pytest.raises(RuleViolation, match="hard corner"):
        price_path(m.map, (0, 0), [(1, 1)])  # passes the wall's lower end
    assert price_path(m.map, (0, 0), [(0, 1), (1, 1), (1, 0)]).cost_ft == 15


@pytest.mark.rule("MOV-11")
def test_moving_diagonally_past_creatures_and_soft_objects_is_allowed() -> None:
    m = parse_map(
        """
        A&
        E.
        """
    )
    occ = {m.at("E"): Occupant.ENEMY}
    assert price_path(m.map, m.at("A"), [(1, 1)], occupants=occ).cost_ft == 5


@pytest.mark.rule("MOV-13")
def test_allies_can_be_passed_but_not_while_charging() -> None:
    m = parse_map(
        """
        ###.
        A1B.
        ###.
        """
    )
    occ = {m.at("1"): Occupant.ALLY}
    assert price_path(m.map, m.at("A"), [(1, 1), m.at("B")], occupants=occ).cost_ft == 10
    with pytest.raises(RuleViolation) as err:
        price_path(m.map, m.at("A"), [(1, 1)], Mover(charging=True), occupants=occ)
    assert err.value.rule == "MOV-13"


@pytest.mark.rule("MOV-14", "MOD-19")
def test_opponents_block_unless_helpless_tumbled_or_filling() -> None:
    m = parse_map(
        """
        ###.
        AEB.
        ###.
        """
    )
    e = m.at("E")
    with pytest.raises(RuleViolation) as err:
        price_path(m.map, m.at("A"), [e, m.at("B")], occupants={e: Occupant.ENEMY})
    assert err.value.rule == "MOV-14"
    assert price_path(m.map, m.at("A"), [e, m.at("B")], occupants={e: Occupant.HELPLESS}).cost_ft == 10
    tumble = Mover(pass_enemies=True)
    assert price_path(m.map, m.at("A"), [e, m.at("B")], tumble, occupants={e: Occupant.ENEMY}).cost_ft == 10
    with pytest.raises(RuleViolation):
        price_path(m.map, m.at("A"), [e], tumble, occupants={e: Occupant.FILLING})
    big = price_path(m.map, m.at("A"), [e, m.at("B")], occupants={e: Occupant.HELPLESS_OBSTACLE})
    assert [s.cost_ft for s in big.steps] == [10, 5]


@pytest.mark.rule("MOV-15")
def test_a_paralyzed_creatures_square_costs_double_to_anyone() -> None:
    m = parse_map("APB\n")
    p = price_path(m.map, m.at("A"), [m.at("P"), m.at("B")], occupants={m.at("P"): Occupant.PARALYZED})
    assert [s.cost_ft for s in p.steps] == [10, 5] and p.end_legal


@pytest.mark.rule("MOV-16", "MOD-19")
def test_movement_cannot_end_in_another_creatures_square_unless_helpless() -> None:
    m = parse_map("A12.\n")
    occ = {m.at("1"): Occupant.ALLY, m.at("2"): Occupant.ALLY}
    p = price_path(m.map, m.at("A"), [(1, 0), (2, 0)], occupants=occ)
    assert not p.end_legal and p.last_legal == 0  # it stops back where it started
    r = reachable(m.map, m.at("A"), occupants=occ)
    assert (1, 0) not in r.cost and (2, 0) not in r.cost and r.cost[(3, 0)] == 15
    helpless = price_path(m.map, m.at("A"), [(1, 0)], occupants={(1, 0): Occupant.HELPLESS})
    assert helpless.end_legal


@pytest.mark.rule("MOV-03", "AOO-05", "MOV-16")
def test_a_tiny_creature_may_enter_and_stay_in_an_opponents_square() -> None:
    m = parse_map("TE.\n")
    occ = {m.at("E"): Occupant.ENEMY}
    p = price_path(m.map, m.at("T"), [m.at("E")], Mover(size=Size.TINY), occupants=occ)
    assert p.end_legal
    with pytest.raises(RuleViolation):
        price_path(m.map, m.at("T"), [m.at("E")], Mover(size=Size.MEDIUM), occupants=occ)


@pytest.mark.rule("MOV-17")
def test_difficult_terrain_costs_double_and_cannot_be_run_or_charged_across() -> None:
    m = parse_map(
        """
        A~.
        ...
        """
    )
    assert price_path(m.map, (0, 0), [(1, 0)]).cost_ft == 10
    assert price_path(m.map, (0, 1), [(1, 0)]).cost_ft == 15
    for mover in (Mover(running=True), Mover(charging=True)):
        with pytest.raises(RuleViolation) as err:
            price_path(m.map, (0, 0), [(1, 0)], mover)
        assert err.value.rule == "MOV-17"
    assert price_path(m.map, (0, 0), [(1, 0)], Mover(mode=MoveMode.FLY)).cost_ft == 5
    assert price_path(m.map, (0, 0), [(1, 0)], Mover(incorporeal=True)).cost_ft == 5


@pytest.mark.rule("MOV-17")
def test_canopy_hampers_only_fliers() -> None:
    m = parse_map("A^.\n")
    assert price_path(m.map, (0, 0), [(1, 0)]).cost_ft == 5
    assert price_path(m.map, (0, 0), [(1, 0)], Mover(mode=MoveMode.FLY)).cost_ft == 10


@pytest.mark.rule("MOV-17", "MOV-04")
def test_a_large_creature_moves_at_the_rate_of_its_most_difficult_square() -> None:
    m = parse_map(
        """
        LL..
        LL~.
        ....
        """
    )
    p = price_path(m.map, m.space("L"), [(1, 0)], Mover(size=Size.LARGE))
    assert p.cost_ft == 10 and p.end == Footprint(1, 0, 2)


@pytest.mark.rule("MOV-18")
def test_doubled_costs_compound() -> None:
    assert [step_cost(False, k, 0) for k in range(4)] == [5, 10, 20, 40]
    assert [step_cost(True, k, 0) for k in range(4)] == [5, 15, 30, 60]
    m = parse_map("A~.\n..\n".replace("..\n", "...\n"))
    p = price_path(m.map, (0, 0), [(1, 0)], hampered={(1, 0): 1})
    assert p.cost_ft == 20 and p.steps[0].doublings == 2
    q = price_path(m.map, (0, 0), [(1, 0)], occupants={(1, 0): Occupant.PARALYZED}, hampered={(1, 0): 1})
    assert q.cost_ft == 40


@pytest.mark.rule("MOV-19")
def test_a_medium_creature_squeezes_through_a_crawlspace_at_half_speed() -> None:
    m = parse_map("A,,.\n")
    p = price_path(m.map, (0, 0), [(1, 0), (2, 0), (3, 0)])
    assert [s.cost_ft for s in p.steps] == [10, 10, 5]
    assert [s.squeezed for s in p.steps] == [True, True, False]
    quarter = price_path(m.map, (0, 0), [(1, 0)], options=GridOptions(squeeze_speed="quarter"))
    assert quarter.cost_ft == 20
    tiny = price_path(m.map, (0, 0), [(1, 0)], Mover(size=Size.TINY))
    assert tiny.cost_ft == 5
    with pytest.raises(RuleViolation) as err:
        price_path(m.map, (0, 0), [(1, 0)], Mover(can_squeeze=False))
    assert err.value.rule == "MOV-19"


@pytest.mark.rule("MOV-19", "MOV-04")
def test_a_large_creature_squeezes_through_a_one_square_passage() -> None:
    m = parse_map(
        """
        LL#...
        LL....
        ..#...
        """
    )
    large = Mover(size=Size.LARGE, speed=40)
    r = reachable(m.map, m.space("L"), large)
    assert r.squeezed == {(2, 1)}  # half its width, in the gap; squeezed only where it must be
    assert r.cost[(2, 1)] == 10  # the square of the gap at double cost
    assert r.cost[(3, 0)] == 20 and r.cost[(4, 0)] == 25  # through, and grown back to its size
    assert r.cost[(0, 1)] == 5  # shrinking and growing back is no free step
    narrow = reachable(m.map, m.space("L"), Mover(size=Size.LARGE, speed=40, can_squeeze=False))
    assert (3, 0) not in narrow.cost
    path = r.path_to((3, 0))
    assert any(s.squeezed for s in path.steps)
    assert path.end == Footprint(3, 0, 2)


@pytest.mark.rule("MOV-20", "ACT-56")
def test_minimum_movement_takes_one_square_whatever_it_costs_but_not_through_walls() -> None:
    m = parse_map(
        """
        ~#.
        ~A.
        ~~.

        wall 1,1 E
        """
    )
    # (0, 0) is past the wall square's corner, the east squares behind the wall or past its ends
    assert minimum_move_squares(m.map, m.at("A")) == {(0, 1), (0, 2), (1, 2)}
    # it is movement like any other: leaving a threatened square provokes
    p = price_path(m.map, m.at("A"), [(0, 1)], threats={"ogre": {m.at("A")}})
    assert p.provokers() == {"ogre": 0}


@pytest.mark.rule("ACT-33")
def test_a_guarded_step_is_five_feet_only() -> None:
    m = parse_map(
        """
        ~..
        .A.
        ...
        """
    )
    steps = guarded_step_squares(m.map, m.at("A"))
    assert (0, 0) not in steps and len(steps) == 7
    assert (0, 0) in guarded_step_squares(m.map, m.at("A"), options=GridOptions(guarded_step_into_difficult=True))
    # a second diagonal in the same turn would cost 10 ft
    assert (2, 2) not in guarded_step_squares(m.map, m.at("A"), diagonals_before=1)


@pytest.mark.rule("MOV-05")
def test_separate_and_pooled_double_moves_differ_when_a_step_straddles_the_actions() -> None:
    m = parse_map("A.~.\n")
    mover = Mover(speed=10)
    separate = reachable(m.map, (0, 0), mover, actions=2)
    pooled = reachable(m.map, (0, 0), mover, actions=2, options=GridOptions(double_move="pooled"))
    assert separate.actions[(2, 0)] == 2 and (3, 0) not in separate.cost
    assert pooled.actions[(3, 0)] == 2 and pooled.cost[(3, 0)] == 20


@pytest.mark.rule("MOV-05", "MOV-16")
def test_each_move_action_of_a_double_move_must_end_in_a_legal_square() -> None:
    m = parse_map("A1..\n")
    occ = {(1, 0): Occupant.ALLY}
    r = reachable(m.map, (0, 0), Mover(speed=5), occupants=occ, actions=2)
    assert (2, 0) not in r.cost  # the first move action would end in the ally's square
    pooled = reachable(
        m.map, (0, 0), Mover(speed=5), occupants=occ, actions=2, options=GridOptions(double_move="pooled")
    )
    assert pooled.cost[(2, 0)] == 10


@pytest.mark.rule("EX-14", "AOO-07", "ACT-55", "AOO-06")
def test_ex14_which_squares_provoke_on_the_way() -> None:
    m = parse_map(
        """
        ..........
        ..........
        ..........
        ..G...K...
        ..........
        ..........
        ..........
        """
    )
    ksarik = Body.at(m.at("K"), reach_ft=10)
    goblin = Body.at(m.at("G"))
    threats = {"ksarik": ksarik.threatened(m.map), "goblin": goblin.threatened(m.map)}
    # 1: approach the ksarik from the north: only the last square is threatened, nothing is left
    safe = price_path(m.map, (6, 0), [(6, 1)], threats=threats)
    assert safe.provocations == ()
    # 2: pass between them through squares both threaten: two attacks of opportunity, one from each
    busy = price_path(m.map, (1, 2), [(2, 2), (3, 2), (4, 2), (5, 2)], threats=threats)
    assert busy.provokers() == {"goblin": 0, "ksarik": 3}
    # 3: withdrawing from the goblin: the start square does not count for seen enemies, the next one does
    navasi = m.at("G")[0] + 1, m.at("G")[1]
    away = price_path(m.map, navasi, [(4, 2), (4, 1), (4, 0)], threats=threats, start_exempt={"goblin", "ksarik"})
    assert away.provokers() == {"ksarik": 1}
    # a guarded step instead provokes nothing and is available
    assert (4, 2) in guarded_step_squares(m.map, navasi)


@pytest.mark.rule("AOO-07")
def test_find_path_prefers_the_path_that_provokes_least_among_the_cheapest() -> None:
    m = parse_map(
        """
        A....
        .....
        ....B
        """
    )
    threats = {"orc": {(1, 1), (2, 1)}}
    p = find_path(m.map, m.at("A"), m.at("B"), threats=threats)
    assert p is not None and p.cost_ft == 25 and p.provocations == ()
    blunt = price_path(m.map, m.at("A"), [(1, 1), (2, 1), (3, 1), (4, 2)], threats=threats)
    assert blunt.cost_ft == 25 and blunt.provokers() == {"orc": 1}


def test_find_path_respects_a_budget_and_reports_no_way() -> None:
    m = parse_map(
        """
        A#.
        .#.
        .#B
        """
    )
    assert find_path(m.map, m.at("A"), m.at("B")) is None
    assert find_path(OPEN, (0, 0), (6, 0), budget_ft=25) is None
    assert find_path(OPEN, (0, 0), (6, 0), budget_ft=30) is not None


@pytest.mark.rule("MOV-29", "MOV-30", "MOV-34")
def test_running_is_not_allowed_while_burrowing_or_climbing() -> None:
    for mode, rule in ((MoveMode.BURROW, "MOV-29"), (MoveMode.CLIMB, "MOV-30")):
        with pytest.raises(RuleViolation) as err:
            reachable(OPEN, (0, 0), Mover(mode=mode, running=True))
        assert err.value.rule == rule
    assert reachable(OPEN, (0, 0), Mover(mode=MoveMode.SWIM, running=True, speed=20)).cost[(4, 0)] == 20


@pytest.mark.rule("MOV-29")
def test_burrowers_go_under_the_surface_but_not_through_rock() -> None:
    m = parse_map(
        """
        A~=#.
        .....
        """
    )
    burrow = Mover(mode=MoveMode.BURROW, speed=20)
    assert price_path(m.map, (0, 0), [(1, 0), (2, 0)], burrow).cost_ft == 10
    with pytest.raises(RuleViolation):
        price_path(m.map, (0, 0), [(1, 0), (2, 0), (3, 0)], burrow)
    rock = Mover(mode=MoveMode.BURROW, speed=20, through_rock=True)
    assert price_path(m.map, (0, 0), [(1, 0), (2, 0), (3, 0)], rock).cost_ft == 15


@pytest.mark.rule("MOV-32")
def test_fliers_pay_for_turns_on_the_map() -> None:
    fly = Mover(mode=MoveMode.FLY, speed=60)
    p = price_path(OPEN, (0, 4), [(1, 4), (2, 4), (3, 3)], fly)
    assert [s.cost_ft for s in p.steps] == [5, 5, 10] and p.steps[2].turn_ft == 5
    assert p.heading == 1  # north-east
    back = price_path(OPEN, (3, 3), [(2, 3)], fly, heading=p.heading)
    assert back.steps[0].turn_ft == 15  # NE to W is 135 degrees
    fly_reach = reachable(OPEN, (4, 4), Mover(mode=MoveMode.FLY, speed=10))
    assert fly_reach.cost[(4, 2)] == 10 and fly_reach.cost[(5, 3)] == 5
    assert (5, 2) not in fly_reach.cost  # straight then a 45-degree turn: 15 ft
    assert reachable(OPEN, (4, 4), Mover(speed=10)).cost[(5, 2)] == 10


@pytest.mark.rule("MOV-10")
@settings(max_examples=40, deadline=None)
@given(
    st.tuples(st.integers(0, 7), st.integers(0, 7)),
    st.tuples(st.integers(0, 7), st.integers(0, 7)),
    st.sets(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=14),
    st.sets(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=6),
)
def test_a_path_never_costs_less_than_the_straight_distance(
    a: tuple[int, int], b: tuple[int, int], difficult: set[tuple[int, int]], walls: set[tuple[int, int]]
) -> None:
    grid = GridMap.build(
        8,
        8,
        features={**{s: Feature.DIFFICULT for s in difficult}, **{s: Feature.SOLID for s in walls - {a, b}}},
    )
    p = find_path(grid, a, b)
    if p is not None:
        assert p.cost_ft >= distance_ft(a, b)
        assert price_path(grid, a, p.squares[1:]).cost_ft == p.cost_ft
    r = reachable(grid, a, Mover(speed=30))
    for sq, c in r.cost.items():
        assert c >= distance_ft(a, sq) and c <= 30


def test_walls_between_squares_affect_large_creatures_too() -> None:
    grid = GridMap.build(5, 4, walls={edge((2, 1), "W")})
    with pytest.raises(RuleViolation, match="wall"):
        price_path(grid, Footprint(0, 0, 2), [(1, 0)], Mover(size=Size.LARGE))
    with pytest.raises(ValueError, match="actions=1 or 2"):
        reachable(grid, (0, 0), actions=3)


@settings(max_examples=30, deadline=None)
@given(
    st.tuples(st.integers(0, 7), st.integers(0, 7)),
    st.sets(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=16),
    st.sets(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=5),
    st.sampled_from([10, 15, 20]),
)
def test_every_double_move_path_splits_into_two_legal_move_actions(
    start: tuple[int, int], difficult: set[tuple[int, int]], allies: set[tuple[int, int]], speed: int
) -> None:
    grid = GridMap.build(8, 8, features={s: Feature.DIFFICULT for s in difficult})
    occ = {s: Occupant.ALLY for s in allies - {start}}
    r = reachable(grid, start, Mover(speed=speed), occupants=occ, actions=2)
    for sq, n in r.actions.items():
        path = r.path_to(sq)
        assert path.end.anchor == sq and path.cost_ft == r.cost[sq]
        assert price_path(grid, start, path.squares[1:], Mover(speed=speed), occupants=occ).cost_ft == path.cost_ft
        # some split point leaves both parts within the speed, the first ending on a free square
        spent = [0]
        for s in path.steps:
            spent.append(spent[-1] + s.cost_ft)
        splits = [i for i in range(len(spent)) if spent[i] <= speed and spent[-1] - spent[i] <= speed]
        assert any(path.positions[i].anchor not in occ for i in splits)
        assert (n <= 1) == (path.cost_ft <= speed)


@pytest.mark.rule("MOV-11", "AOO-01")
def test_a_long_thin_wall_keeps_creatures_apart() -> None:
    m = parse_map(
        """
        ....
        .AB.
        ....

        wall 1,0..1,2 E
        """
    )
    zone = Body.at(m.at("A")).threatened(m.map)
    assert m.at("B") not in zone and (0, 0) in zone
    assert find_path(m.map, m.at("A"), m.at("B")) is None


@pytest.mark.rule("ACT-55", "AOO-06", "AOO-07", "MOV-19")
def test_a_big_withdraw_takes_the_equally_cheap_path_that_provokes_nothing() -> None:
    """A Gargantuan creature withdraws past the rubble of the crater: two paths cost 55 ft, one leaves its
    starting space (threatened, but exempt) by a step, the other by a squeeze and later leaves a space a foe
    threatens. The starting space does not count, so the first is taken and nothing is provoked."""
    grid = parse_map(
        """
        ##############################
        #............................#
        #...o.........~~.............#
        #.............~~.......o.....#
        #............................#
        #....~~......................#
        #....~~..............~~......#
        #....................~~......#
        #...o........................#
        #............................#
        ##############################
        """
    ).map
    foes = {"Sorin": (2, 1), "Krask": (1, 8), "Vela": (6, 8), "Nyx": (1, 1)}
    threats = {k: frozenset((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)) - {(x, y)}
               for k, (x, y) in foes.items()}  # fmt: skip
    occ = {sq: Occupant.ENEMY for sq in foes.values()}
    mover = Mover(size=Size.GARGANTUAN, speed=40)
    kept = find_path(grid, Footprint(1, 4, 4), (14, 6), mover, occupants=occ, threats=threats, budget_ft=80)
    assert kept is not None and kept.provokers() == {"Sorin": 3}  # not a withdraw: the start counts
    away = find_path(grid, Footprint(1, 4, 4), (14, 6), mover, occupants=occ, threats=threats,
                     start_exempt=frozenset(threats), budget_ft=80)  # fmt: skip
    assert away is not None and away.cost_ft == kept.cost_ft == 55
    assert away.provokers() == {}


@pytest.mark.rule("ACT-55", "MOV-19", "AOO-06")
def test_a_withdrawing_big_mover_takes_the_path_that_provokes_nobody() -> None:
    """Leaving the start provokes nobody when every foe is exempt (a withdrawal): of two paths of the same cost,
    the search takes the one that leaves the start at once rather than the one that first squeezes into part of
    the start and then leaves that threatened squeezed space."""
    grid = parse_map("......\n......\n......\n..#...\n...#..\n......\n.....#").map
    zone = frozenset({(1, 2), (1, 3), (4, 3), (5, 3)})
    mover = Mover(size=Size.LARGE, speed=30)
    path = find_path(grid, (4, 3), (3, 0), mover, threats={"foe": zone}, start_exempt={"foe"})
    assert path is not None and path.cost_ft == 15
    assert path.provocations == ()
