"""Size, space, reach and threatened squares (MOV-02..04, AOO-01..05)."""

from fractions import Fraction

import pytest

from sftactics.grid.geometry import Footprint
from sftactics.grid.map import parse_map
from sftactics.grid.options import GridOptions
from sftactics.grid.space import (
    SIZES,
    Body,
    Size,
    effective_reach,
    footprint,
    footprint_side,
    is_sub_square,
    natural_reach,
    size_order,
    threatened_squares,
)


def draw(zone: frozenset[tuple[int, int]], width: int, height: int, me: Footprint) -> list[str]:
    return [
        "".join("M" if me.contains((x, y)) else ("x" if (x, y) in zone else ".") for x in range(width))
        for y in range(height)
    ]


@pytest.mark.rule("MOV-02", "AOO-02")
def test_table_8_1() -> None:
    rows = [(r.space_ft, r.reach_tall_ft, r.reach_long_ft) for r in SIZES.values()]
    assert rows == [
        (Fraction(1, 2), 0, 0),
        (Fraction(1), 0, 0),
        (Fraction(5, 2), 0, 0),
        (Fraction(5), 5, 5),
        (Fraction(5), 5, 5),
        (Fraction(10), 10, 5),
        (Fraction(15), 15, 10),
        (Fraction(20), 20, 15),
        (Fraction(30), 30, 20),
    ]
    assert SIZES[Size.HUGE].height == "16-32 ft." and SIZES[Size.COLOSSAL].weight == "125 tons or more"
    assert natural_reach(Size.GARGANTUAN) == 20 and natural_reach(Size.GARGANTUAN, long=True) == 15
    assert size_order(Size.FINE) == 0 and size_order(Size.COLOSSAL) == 8


@pytest.mark.rule("MOV-03")
def test_creatures_smaller_than_a_square_share_squares() -> None:
    assert [SIZES[s].per_square for s in (Size.FINE, Size.DIMINUTIVE, Size.TINY, Size.SMALL)] == [100, 25, 4, 1]
    assert is_sub_square(Size.TINY) and not is_sub_square(Size.SMALL)
    assert footprint((3, 3), Size.TINY) == Footprint(3, 3, 1)


@pytest.mark.rule("MOV-04")
def test_footprints_grow_with_size() -> None:
    assert [footprint_side(s) for s in Size] == [1, 1, 1, 1, 1, 2, 3, 4, 6]
    assert len(footprint((0, 0), Size.COLOSSAL).squares) == 36


@pytest.mark.rule("AOO-01")
def test_a_medium_creature_threatens_the_eight_squares_around_it() -> None:
    me = Footprint(2, 2)
    zone = threatened_squares(me, Size.MEDIUM)
    assert draw(zone, 5, 5, me) == [
        ".....",
        ".xxx.",
        ".xMx.",
        ".xxx.",
        ".....",
    ]
    assert threatened_squares(me, Size.MEDIUM, armed=False) == frozenset()  # unarmed strikes only


@pytest.mark.rule("AOO-03", "AOO-04")
def test_a_reach_weapon_threatens_ten_feet_with_the_second_diagonal() -> None:
    me = Footprint(2, 2)
    zone = threatened_squares(me, Size.MEDIUM, reach_weapon=True)
    assert draw(zone, 5, 5, me) == [
        "xxxxx",
        "xxxxx",
        "xxMxx",
        "xxxxx",
        "xxxxx",
    ]
    ring = threatened_squares(
        me, Size.MEDIUM, reach_weapon=True, options=GridOptions(reach_weapon_threatens_adjacent=False)
    )
    assert draw(ring, 5, 5, me) == [
        "xxxxx",
        "x...x",
        "x.M.x",
        "x...x",
        "xxxxx",
    ]
    assert effective_reach(Size.MEDIUM, reach_weapon=True) == 10
    assert effective_reach(Size.LARGE, reach_weapon=True) == 15


@pytest.mark.rule("AOO-04")
def test_other_reaches_count_diagonals_normally() -> None:
    me = Footprint(3, 3)
    zone = threatened_squares(me, Size.MEDIUM, 15)
    assert draw(zone, 7, 7, me) == [
        "..xxx..",
        ".xxxxx.",
        "xxxxxxx",
        "xxxMxxx",
        "xxxxxxx",
        ".xxxxx.",
        "..xxx..",
    ]
    # 5 ft of reach never takes a diagonal two squares away, 10 ft does (the exception), 15 ft counts 5-10-5
    assert (5, 5) in threatened_squares(me, Size.MEDIUM, 10)
    assert (6, 5) not in threatened_squares(me, Size.MEDIUM, 10)
    assert (6, 4) in zone and (6, 5) not in zone and (5, 5) in zone


@pytest.mark.rule("AOO-02", "AOO-04", "MOV-04")
def test_a_large_creature_threatens_ten_feet_around_its_space() -> None:
    me = Footprint(2, 2, 2)
    zone = threatened_squares(me, Size.LARGE)
    assert draw(zone, 6, 6, me) == [
        "xxxxxx",
        "xxxxxx",
        "xxMMxx",
        "xxMMxx",
        "xxxxxx",
        "xxxxxx",
    ]
    long_body = threatened_squares(me, Size.LARGE, long=True)
    assert len(long_body - set(me.squares)) == 12


@pytest.mark.rule("AOO-05")
def test_zero_reach_threatens_only_its_own_square() -> None:
    tiny = Footprint(1, 1)
    assert threatened_squares(tiny, Size.TINY) == {(1, 1)}
    assert threatened_squares(Footprint(1, 1), Size.MEDIUM, zero_reach=True) == {(1, 1)}
    # with a reach weapon it reaches the adjacent squares
    assert len(threatened_squares(tiny, Size.TINY, reach_weapon=True)) == 9


@pytest.mark.rule("AOO-01")
def test_on_a_map_threat_stops_at_walls_and_the_edge() -> None:
    m = parse_map(
        """
        ..#..
        .M#..
        ..#..
        """
    )
    me = Footprint(*m.at("M"))
    zone = threatened_squares(me, Size.MEDIUM, reach_weapon=True, grid=m.map)
    assert draw(zone, 5, 3, me) == [
        "xx...",
        "xM...",
        "xx...",
    ]


def test_body_bundles_space_and_reach() -> None:
    ksarik = Body.at((4, 4), Size.MEDIUM, reach_ft=10)
    assert ksarik.reach == 10
    assert ksarik.threatens(Footprint(6, 6))
    assert not ksarik.threatens((7, 4))
    ogre = Body.at((0, 0), Size.LARGE, reach_weapon=True)
    assert ogre.space == Footprint(0, 0, 2) and ogre.reach == 15
