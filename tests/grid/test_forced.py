"""Forced movement on the grid (MAN-02, MAN-09): pushes and shifts stop at walls, obstacles and creatures."""

import pytest

from sftactics.grid.forced import push, shift, toward
from sftactics.grid.geometry import Footprint
from sftactics.grid.map import parse_map

OPEN = parse_map("\n".join(["." * 8] * 5)).map


@pytest.mark.rule("MAN-02", "MOV-01")
def test_a_push_stops_at_the_edge_of_the_map_and_at_creatures() -> None:
    p = push(OPEN, Footprint(5, 2), (1, 0), 4)
    assert p.squares == ((5, 2), (6, 2), (7, 2)) and "edge" in p.stopped_by and p.moved_ft == 10
    p = push(OPEN, Footprint(2, 2), (1, 1), 3, taken={(4, 4)})
    assert p.end.anchor == (3, 3) and "creature" in p.stopped_by


@pytest.mark.rule("MAN-02", "MOV-11")
def test_a_large_creature_is_pushed_until_any_of_its_squares_meets_a_wall() -> None:
    grid = parse_map("\n".join(["." * 8] * 5) + "\n\nwall 5,3 E\n").map
    p = push(grid, Footprint(2, 2, 2), (1, 0), 3)  # its lower row meets the wall after 10 ft
    assert p.end == Footprint(4, 2, 2) and "wall" in p.stopped_by


@pytest.mark.rule("MAN-09", "MOV-10")
def test_a_shift_counts_diagonals_five_ten_five_and_keeps_to_the_allowed_spaces() -> None:
    assert shift(OPEN, Footprint(0, 0), (2, 2), 10) is None  # two diagonals: 15 ft
    path = shift(OPEN, Footprint(0, 0), (2, 2), 15)
    assert path is not None and path.moved_ft == 15
    assert shift(OPEN, Footprint(0, 0), (2, 0), 10, allowed=lambda fp: fp.anchor != (1, 0)) is None
    assert toward(OPEN, Footprint(0, 0), (3, 0), 15, taken={(2, 0)}).end.anchor == (1, 0)
