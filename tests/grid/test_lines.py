"""Line of effect and line of sight (EFF-35, EFF-37) and the exact line primitive under them."""

import pytest

from sftactics.grid.geometry import Footprint
from sftactics.grid.lines import (
    ALONG,
    CROSS,
    ENDPOINT,
    GRAZE,
    INTERIOR,
    NONE,
    contact,
    has_line_of_effect,
    has_line_of_sight,
    things_near,
    trace,
)
from sftactics.grid.map import parse_map
from sftactics.grid.options import GridOptions


def test_contact_tells_apart_every_way_a_line_meets_a_box() -> None:
    box = (1, 1, 2, 2)  # the unit square [1, 2] x [1, 2]
    assert contact(0, 0, 3, 3, *box)[0] == INTERIOR  # along its diagonal
    assert contact(0, 3, 3, -3, *box)[0] == INTERIOR  # along the other diagonal
    assert contact(0, 1, 3, 0, *box)[0] == ALONG  # along its top border
    assert contact(1, 0, 2, 2, *box) == (GRAZE, 2, 1)  # through its top-right corner only
    assert contact(0, 2, 2, -2, *box) == (GRAZE, 1, 1)
    assert contact(0, 0, 1, 1, *box)[0] == ENDPOINT  # ends at its corner
    assert contact(5, 5, 1, 0, *box)[0] == NONE
    edge = (2, 0, 2, 2)  # a vertical edge from (2, 0) to (2, 2)
    assert contact(1, 1, 2, 0, *edge)[0] == CROSS
    assert contact(1, 2, 2, 0, *edge) == (GRAZE, 2, 2)  # through its lower end
    assert contact(2, -1, 0, 4, *edge)[0] == ALONG


@pytest.mark.rule("EFF-35")
def test_walls_block_line_of_effect_smoke_and_darkness_do_not() -> None:
    m = parse_map(
        """
        A.#.B
        .....
        C.*.D

        light 0,2..4,2 dark
        """
    )
    g = m.map
    a, b, c, d = (Footprint(*m.at(k)) for k in "ABCD")
    assert not has_line_of_effect(g, a, b)
    assert has_line_of_effect(g, c, d)
    assert has_line_of_effect(g, a, d)


@pytest.mark.rule("EFF-35", "EFF-37")
def test_windows_stop_effects_but_not_sight_and_fog_the_other_way_round() -> None:
    m = parse_map(
        """
        A...B
        .....
        C.".D

        window 2,0 W
        window 2,1 W
        window 2,0 N
        """
    )
    g = m.map
    a, b, c, d = (Footprint(*m.at(k)) for k in "ABCD")
    assert not has_line_of_effect(g, a, b)
    assert has_line_of_sight(g, a, b)
    assert has_line_of_effect(g, c, d)
    assert not has_line_of_sight(g, c, d)


@pytest.mark.rule("EFF-37")
def test_squares_the_observer_cannot_see_through_block_sight_only() -> None:
    m = parse_map(
        """
        ###
        A.B
        ###
        """
    )
    a, b = Footprint(*m.at("A")), Footprint(*m.at("B"))
    assert has_line_of_sight(m.map, a, b)
    assert not has_line_of_sight(m.map, a, b, blocks_sight=[(1, 1)])
    assert has_line_of_effect(m.map, a, b)


@pytest.mark.rule("EFF-35")
def test_a_line_cannot_slip_between_two_wall_squares_meeting_at_a_corner() -> None:
    m = parse_map(
        """
        A#.
        #.B
        """
    )
    g = m.map
    things = things_near(g, 0, 0, 3, 2)
    assert trace((1, 1), (2, 2), things).loe_blocked is False  # from the pinch point itself: an end
    pinch = trace((0, 0), (2, 2), things)
    assert pinch.loe_blocked and "between" in pinch.blocked_by
    # a single wall corner is only grazed
    m2 = parse_map(
        """
        A#.
        ..B
        """
    )
    assert not trace((0, 0), (2, 2), things_near(m2.map, 0, 0, 3, 2)).loe_blocked


@pytest.mark.rule("EFF-35")
def test_a_line_along_a_wall_is_blocked_unless_the_option_says_otherwise() -> None:
    m = parse_map(
        """
        ####
        A..B
        """
    )
    things = things_near(m.map, 0, 0, 4, 2)
    along = trace((1, 1), (3, 1), things)
    assert along.loe_blocked and along.blocked_by.startswith("along")
    assert not trace((1, 1), (3, 1), things, options=GridOptions(line_along_wall_blocks=False)).loe_blocked
    assert not trace((1, 2), (3, 1), things).loe_blocked


@pytest.mark.rule("EFF-35")
def test_line_of_effect_to_a_point() -> None:
    m = parse_map(
        """
        A.#.
        ..#.
        """
    )
    a = Footprint(*m.at("A"))
    assert has_line_of_effect(m.map, a, (2, 1))  # the wall square's corner on this side
    assert not has_line_of_effect(m.map, a, (4, 1))
