"""Grenades: targeting an intersection and where a miss lands (ATK-12, ATK-13, EX-07)."""

import pytest

from sftactics.grid.geometry import Footprint
from sftactics.grid.map import parse_map
from sftactics.grid.options import GridOptions
from sftactics.grid.scatter import intersection_ac, scatter, scatter_direction


@pytest.mark.rule("ATK-12")
def test_a_grid_intersection_is_ac_5() -> None:
    ac = intersection_ac()
    assert ac.total == 5 and ac.applied[0].rule == "ATK-12"


@pytest.mark.rule("EX-07", "ATK-13")
def test_ex07_a_one_and_a_two_fall_two_squares_short_toward_the_thrower() -> None:
    m = parse_map(
        """
        .......
        .......
        .......
        .......
        .......
        .......
        ...T...
        """
    )
    thrower = m.space("T")
    target = (4, 2)  # the intersection aimed at, due north of the thrower's square
    assert scatter(target, thrower, 1, 2) == (4, 4)


@pytest.mark.rule("ATK-13")
def test_two_to_eight_turn_clockwise_in_45_degree_steps() -> None:
    thrower = Footprint(5, 10)  # due south of the target
    target = (6, 4)
    landings = [scatter(target, thrower, d8, 1) for d8 in range(1, 9)]
    assert landings == [(6, 5), (5, 5), (5, 4), (5, 3), (6, 3), (7, 3), (7, 4), (7, 5)]
    ccw = GridOptions(scatter_rotation="counterclockwise")
    assert scatter(target, thrower, 2, 1, options=ccw) == (7, 5)


@pytest.mark.rule("ATK-13")
def test_direction_one_is_rounded_to_the_nearest_compass_point() -> None:
    # thrower mostly west and a bit north of the target square: back toward it is west
    assert scatter_direction((8, 5), Footprint(1, 3), 1, target_is_square=True) == (-1, 0)
    # thrower diagonally south-east
    assert scatter_direction((2, 2), Footprint(6, 6), 1) == (1, 1)
    assert scatter((2, 2), Footprint(2, 9), 5, 4, target_is_square=True) == (2, -2)
    with pytest.raises(ValueError, match="1 to 8"):
        scatter((0, 0), Footprint(3, 3), 9, 1)
    with pytest.raises(ValueError, match="1 to 4"):
        scatter((0, 0), Footprint(3, 3), 1, 5)
    with pytest.raises(ValueError, match="stands on the target"):
        scatter((3, 3), Footprint(3, 3), 1, 1, target_is_square=True)
