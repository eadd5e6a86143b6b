"""Squares, distance with 5-10-5 diagonals, range increments (MOV-01, MOV-10, MOV-12, ATK-10, ATK-11)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sftactics.grid.geometry import (
    Footprint,
    adjacent,
    attack_range_ft,
    check_range,
    closest,
    count_squares,
    distance_ft,
    distance_to_point_ft,
    footprint_distance_ft,
    max_range_ft,
    point_distance_ft,
    range_penalty,
    space_shift_ft,
)
from sftactics.grid.map import parse_map
from sftactics.grid.options import GridOptions

squares = st.tuples(st.integers(-30, 30), st.integers(-30, 30))


@pytest.mark.rule("MOV-01")
def test_a_square_is_five_feet_and_a_space_is_its_squares() -> None:
    m = parse_map(
        """
        A.B
        ...
        """
    )
    assert distance_ft(m.at("A"), m.at("B")) == 10
    assert Footprint(1, 1, 2).squares == ((1, 1), (2, 1), (1, 2), (2, 2))
    assert Footprint(0, 0).corners == ((0, 0), (1, 0), (0, 1), (1, 1))


@pytest.mark.rule("MOV-10")
def test_diagonals_alternate_five_and_ten_feet() -> None:
    assert [distance_ft((0, 0), (n, n)) for n in range(1, 6)] == [5, 15, 20, 30, 35]
    assert distance_ft((0, 0), (4, 1)) == 20  # one diagonal, three straight
    assert distance_ft((0, 0), (3, 2)) == 20  # 5 + 10 + 5
    # after an odd number of diagonals the next one is the expensive one
    assert count_squares(1, 1, diagonals_before=1) == 2
    assert count_squares(2, 2, diagonals_before=1) == 3


@pytest.mark.rule("MOV-10")
def test_five_ten_five_breaks_the_triangle_inequality_by_at_most_one_square() -> None:
    # two separately measured single diagonals (5 + 5) versus one measure of two diagonals (15)
    assert distance_ft((0, 0), (2, 2)) == 15
    assert distance_ft((0, 0), (1, 1)) + distance_ft((1, 1), (2, 2)) == 10


@given(squares, squares)
def test_distance_is_symmetric_and_zero_only_on_the_same_square(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert distance_ft(a, b) == distance_ft(b, a)
    assert (distance_ft(a, b) == 0) == (a == b)


@given(squares, squares, squares)
def test_triangle_inequality_holds_within_one_square(
    a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]
) -> None:
    assert distance_ft(a, c) <= distance_ft(a, b) + distance_ft(b, c) + 5


@given(squares, squares)
def test_distance_lies_between_king_moves_and_one_and_a_half_times_them(a: tuple[int, int], b: tuple[int, int]) -> None:
    king = max(abs(a[0] - b[0]), abs(a[1] - b[1]))
    assert 5 * king <= distance_ft(a, b) <= 5 * king * 3 // 2


@pytest.mark.rule("MOV-01", "MOV-04")
def test_distance_between_spaces_is_between_nearest_squares() -> None:
    m = parse_map(
        """
        LL....
        LL..M.
        ......
        """
    )
    large, medium = m.space("L"), m.space("M")
    assert large.side == 2
    assert footprint_distance_ft(large, medium) == 15  # from (1, 1) to (4, 1)
    assert footprint_distance_ft(medium, large) == 15
    assert adjacent(Footprint(2, 0), large)
    assert not adjacent(medium, large)
    assert footprint_distance_ft(large, Footprint(1, 1)) == 0


@pytest.mark.rule("MOV-10", "MOV-04")
def test_a_space_moves_as_far_as_its_anchor() -> None:
    """A Large space moved four squares on has moved 20 ft, though the gap to where it was is three squares;
    a diagonal shift counts 5-10-5; for one square the move and the gap are the same."""
    large = Footprint(0, 0, 2)
    assert space_shift_ft(large, Footprint(4, 0, 2)) == 20
    assert footprint_distance_ft(large, Footprint(4, 0, 2)) == 15
    assert space_shift_ft(large, Footprint(3, 2, 2)) == 20  # 3 squares, 2 of them diagonal: 5 + 10 + 5
    assert space_shift_ft(large, Footprint(1, 1, 2)) == 5 and footprint_distance_ft(large, Footprint(1, 1, 2)) == 0


@given(squares, squares)
def test_a_one_square_space_moves_as_far_as_the_gap(a: tuple[int, int], b: tuple[int, int]) -> None:
    fa, fb = Footprint(*a), Footprint(*b)
    assert space_shift_ft(fa, fb) == footprint_distance_ft(fa, fb) == space_shift_ft(fb, fa)


@pytest.mark.rule("MOV-12")
def test_closest_returns_every_tied_square_for_the_actor_to_pick() -> None:
    m = parse_map(
        """
        A...
        ..B.
        .C..
        ...D
        """
    )
    me = Footprint(*m.at("A"))
    found = closest(me, [Footprint(*m.at(k)) for k in "BCD"])
    assert found == [Footprint(*m.at("B")), Footprint(*m.at("C"))]
    assert closest(me, []) == []


@pytest.mark.rule("EFF-02")
def test_point_distances_count_intersection_to_intersection() -> None:
    assert point_distance_ft((0, 0), (2, 2)) == 15
    # from a space, measure to a point from the space's nearest corner
    assert distance_to_point_ft(Footprint(0, 0), (3, 0)) == 10
    assert distance_to_point_ft(Footprint(0, 0), (1, 1)) == 0
    assert attack_range_ft(Footprint(0, 0), (4, 4)) == 20


@pytest.mark.rule("ATK-10")
def test_range_penalty_counts_started_increments() -> None:
    assert range_penalty(30, 30) is None
    pen = range_penalty(31, 30)
    assert pen is not None and pen.value == -2 and pen.rule == "ATK-10"
    assert range_penalty(60, 30).value == -2  # type: ignore[union-attr]
    assert range_penalty(61, 30).value == -4  # type: ignore[union-attr]
    assert range_penalty(120, 30).value == -6  # type: ignore[union-attr]


@pytest.mark.rule("ATK-10")
def test_range_penalty_option_counts_only_full_increments() -> None:
    full = GridOptions(range_penalty="full")
    assert range_penalty(45, 30, full) is None
    assert range_penalty(60, 30, full).value == -2  # type: ignore[union-attr]
    assert range_penalty(89, 30, full).value == -2  # type: ignore[union-attr]


@pytest.mark.rule("ATK-11")
def test_maximum_range_is_ten_increments_or_five_when_thrown() -> None:
    assert max_range_ft(30) == 300
    assert max_range_ft(20, thrown=True) == 100
    assert max_range_ft(50, max_increments=3) == 150
    ok = check_range(100, 20, thrown=True)
    assert ok.in_range and ok.penalty == -8 and ok.increment == 5
    far = check_range(105, 20, thrown=True)
    assert not far.in_range and far.rule == "ATK-11"
    near = check_range(15, 20)
    assert near.terms == () and near.penalty == 0


@pytest.mark.rule("ATK-10", "MOV-01")
def test_range_on_a_map_uses_the_nearest_squares() -> None:
    m = parse_map(
        """
        A.......
        ........
        .......T
        """
    )
    d = attack_range_ft(Footprint(*m.at("A")), Footprint(*m.at("T")))
    assert d == 40  # 7 across, 2 down: 2 diagonals (15) + 5 straight (25)
    assert check_range(d, 30).penalty == -2
