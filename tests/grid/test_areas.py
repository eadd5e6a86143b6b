"""Areas of effect (EFF-01..13, EFF-36) drawn on small maps."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sftactics.grid.areas import (
    Area,
    AreaKind,
    area_changes,
    burst,
    cone,
    cubes,
    cylinder,
    emanation,
    in_area,
    is_shapable,
    line,
    other_area,
    radius_squares,
    sphere,
    spread,
)
from sftactics.grid.geometry import Footprint
from sftactics.grid.map import GridMap, parse_map


def draw(area: Area | frozenset[tuple[int, int]], grid: GridMap) -> list[str]:
    squares = area.squares if isinstance(area, Area) else area
    return [
        "".join(
            "X" if (x, y) in squares else ("#" if grid.cells[y * grid.width + x] & 1 else ".")
            for x in range(grid.width)
        )
        for y in range(grid.height)
    ]


def blank(w: int, h: int) -> GridMap:
    return GridMap(w, h)


@pytest.mark.rule("EFF-01", "EFF-02", "EFF-03")
def test_bursts_of_5_10_and_20_feet_by_the_far_corner_rule() -> None:
    g = blank(8, 8)
    assert draw(burst(g, (4, 4), 5), g)[3:5] == ["...XX...", "...XX..."]
    assert draw(burst(g, (4, 4), 10), g) == [
        "........",
        "........",
        "...XX...",
        "..XXXX..",
        "..XXXX..",
        "...XX...",
        "........",
        "........",
    ]
    assert draw(burst(g, (4, 4), 20), g) == [
        "...XX...",
        ".XXXXXX.",
        ".XXXXXX.",
        "XXXXXXXX",
        "XXXXXXXX",
        ".XXXXXX.",
        ".XXXXXX.",
        "...XX...",
    ]
    assert [len(radius_squares((0, 0), r)) for r in (5, 10, 15, 20, 30)] == [4, 12, 24, 44, 96]


@pytest.mark.rule("EFF-02")
def test_a_square_only_touched_on_its_near_side_is_outside() -> None:
    # the square (6, 4) is 10 ft away at its near edge but 15 ft at its far edge
    assert (6, 4) not in radius_squares((4, 4), 10)
    assert (5, 4) in radius_squares((4, 4), 10)


@pytest.mark.rule("EFF-03", "EFF-36", "MOD-14")
def test_a_burst_does_not_reach_behind_walls() -> None:
    m = parse_map(
        """
        ........
        ........
        .....#..
        .....#..
        .....#..
        ........
        """
    )
    a = burst(m.map, (3, 3), 20)
    assert draw(a, m.map) == [
        "XXXXXX..",
        "XXXXXX..",
        "XXXXX#..",
        "XXXXX#..",
        "XXXXX#..",
        "XXXXXX..",
    ]
    assert a.shadowed == {(5, 2), (5, 3), (5, 4), (6, 2), (6, 3)} and a.rule == "EFF-03"
    assert burst(GridMap(8, 6), (3, 3), 20).squares >= {(6, 2), (6, 3)}  # in the open they are inside


@pytest.mark.rule("EFF-04")
def test_an_emanation_around_a_creature_is_measured_from_its_space() -> None:
    g = blank(7, 7)
    me = Footprint(3, 3)
    a = emanation(g, me, 10)
    assert a.kind is AreaKind.EMANATION and a.rule == "EFF-04"
    assert draw(a, g) == [
        ".......",
        "..XXX..",
        ".XXXXX.",
        ".XXXXX.",
        ".XXXXX.",
        "..XXX..",
        ".......",
    ]


@pytest.mark.rule("EFF-05")
def test_a_spread_goes_around_corners_measured_along_the_way() -> None:
    m = parse_map(
        """
        .......
        ###.###
        .......
        .......
        """
    )
    s = spread(m.map, (3, 3), 15)
    assert draw(s, m.map) == [
        "...X...",
        "###X###",
        "XXXXXX.",
        "XXXXXX.",
    ]
    b = burst(m.map, (3, 3), 15)
    assert (3, 0) in b.squares  # straight up through the gap: in line of effect too
    far = spread(m.map, (3, 3), 25)
    assert (1, 0) in far.squares and (1, 0) not in burst(m.map, (3, 3), 25).squares
    assert s.rule == "EFF-05" and burst(m.map, (3, 3), 15, kind=AreaKind.SPREAD).squares == s.squares


@pytest.mark.rule("EFF-06")
def test_cones_of_15_feet_straight_and_diagonal() -> None:
    g = blank(8, 8)
    me = Footprint(3, 4)
    north = cone(g, (4, 4), "N", 15, caster=me)
    assert draw(north, g)[:4] == [
        "........",
        "...XX...",
        "..XXXX..",
        "...XX...",
    ]
    ne = cone(g, (4, 4), "NE", 15, caster=me)
    assert draw(ne, g)[:4] == [
        "........",
        "....X...",
        "....XX..",
        "....XXX.",
    ]
    assert len(cone(blank(20, 20), (10, 10), "NE", 30).squares) == len(radius_squares((0, 0), 30)) // 4


@pytest.mark.rule("EFF-01", "EFF-06", "EFF-08")
def test_cones_and_lines_start_at_a_corner_of_the_users_square() -> None:
    g = blank(6, 6)
    with pytest.raises(ValueError, match="not a corner"):
        cone(g, (0, 0), "N", 15, caster=Footprint(3, 3))
    with pytest.raises(ValueError, match="not a corner"):
        line(g, (0, 0), (5, 5), 30, caster=Footprint(3, 3))


@pytest.mark.rule("EFF-06", "EFF-36")
def test_a_cone_stops_at_walls() -> None:
    m = parse_map(
        """
        ......
        ..#...
        ......
        ......
        """
    )
    c = cone(m.map, (2, 3), "N", 15)
    assert (2, 0) in c.shadowed and (1, 0) in c.squares


@pytest.mark.rule("EFF-07")
def test_a_cylinder_ignores_obstructions() -> None:
    m = parse_map(
        """
        ....
        .#..
        ....
        """
    )
    c = cylinder(m.map, (2, 2), 10, 40)
    assert (0, 1) in c.squares and c.rule == "EFF-07" and "40 ft" in c.shape
    assert (0, 1) not in burst(m.map, (2, 2), 10).squares


@pytest.mark.rule("EFF-08")
def test_a_line_covers_the_squares_it_crosses_and_stops_at_a_wall() -> None:
    g = blank(10, 5)
    straight = line(g, (1, 1), (9, 1), 30, caster=Footprint(0, 0))
    assert draw(straight, g)[1] == ".XXXXXX..."
    diagonal = line(g, (1, 1), (8, 8), 30)
    assert diagonal.squares == {(1, 1), (2, 2), (3, 3), (4, 4)}
    m = parse_map(
        """
        ..........
        .....#....
        """
    )
    blocked = line(m.map, (1, 1), (9, 1), 40, caster=Footprint(0, 1))
    assert draw(blocked, m.map)[1] == ".XXXX#...."


@pytest.mark.rule("EFF-09")
def test_spheres_are_bursts_emanations_or_spreads() -> None:
    m = parse_map(".....\n.#...\n.....\n.....\n")
    assert sphere(m.map, (3, 2), 10).squares == burst(m.map, (3, 2), 10).squares
    assert sphere(m.map, (3, 2), 10, AreaKind.SPREAD).squares == spread(m.map, (3, 2), 10).squares
    assert sphere(m.map, (3, 2), 10).rule == "EFF-09"


@pytest.mark.rule("EFF-10")
def test_shaped_areas_have_no_dimension_under_ten_feet() -> None:
    assert is_shapable({(0, 0), (1, 0), (0, 1), (1, 1), (2, 0), (2, 1)})
    assert not is_shapable({(0, 0), (1, 0), (2, 0)})
    assert not is_shapable(set())
    area = cubes([(0, 0), (2, 0), (2, 2)], max_cubes=4)
    assert len(area.squares) == 12 and is_shapable(area.squares)
    with pytest.raises(ValueError, match="one piece"):
        cubes([(0, 0), (4, 4)])
    with pytest.raises(ValueError, match="at most 2"):
        cubes([(0, 0), (2, 0), (4, 0)], max_cubes=2)


@pytest.mark.rule("EFF-11", "EFF-12")
def test_areas_affect_every_creature_inside_them() -> None:
    wall_of_fire = other_area("wall of fire", {(x, 2) for x in range(5)}, (0, 2))
    assert wall_of_fire.rule == "EFF-11"
    spaces = {"ogre": Footprint(3, 1, 2), "mouse": Footprint(0, 0), "hero": Footprint(1, 2)}
    assert in_area(wall_of_fire, spaces) == ["ogre", "hero"]


@pytest.mark.rule("EFF-13")
def test_creatures_entering_and_leaving_a_lasting_area() -> None:
    fog = burst(blank(6, 6), (3, 3), 5)
    before = {"a": Footprint(2, 2), "b": Footprint(0, 0)}
    after = {"a": Footprint(0, 5), "b": Footprint(3, 3)}
    assert area_changes(fog, before, after) == (["b"], ["a"])


origins = st.tuples(st.integers(3, 9), st.integers(3, 9))


@given(origins, st.sampled_from([5, 10, 15, 20, 25, 30]))
def test_a_burst_in_the_open_is_symmetric(origin: tuple[int, int], radius: int) -> None:
    ox, oy = origin
    squares = radius_squares(origin, radius)
    for x, y in squares:
        assert (2 * ox - 1 - x, y) in squares
        assert (x, 2 * oy - 1 - y) in squares
        assert (ox + (y - oy), oy + (x - ox)) in squares  # transposed about the origin


@pytest.mark.rule("EFF-04", "EFF-36")
def test_an_emanation_does_not_leak_through_a_thin_wall_its_creature_stands_against() -> None:
    m = parse_map(
        """
        .....
        ..M..
        .....

        wall 2,0..2,2 E
        """
    )
    aura = emanation(m.map, m.space("M"), 5)
    assert draw(aura, m.map) == [
        ".XX..",
        ".XX..",
        ".XX..",
    ]
    assert aura.shadowed == {(3, 0), (3, 1), (3, 2)}
