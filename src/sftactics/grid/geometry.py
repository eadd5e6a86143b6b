"""Squares, intersections, footprints and distance on the battle grid (MOV-01, MOV-10, MOV-12, ATK-10, ATK-11).

Coordinates:

* a **square** is ``(x, y)``: column ``x`` counted from the left edge, row ``y`` counted from the top; each
  square is 5 ft on a side (MOV-01);
* a **point** (grid intersection) is ``(i, j)``: the corner where squares ``(i-1, j-1)``, ``(i, j-1)``,
  ``(i-1, j)`` and ``(i, j)`` meet, so square ``(x, y)`` spans the points ``(x, y)`` to ``(x+1, y+1)``;
* a :class:`Footprint` is the block of squares a creature occupies: its top-left square and its side in
  squares (1 for Small, Medium and smaller, 2 for Large, ... 6 for Colossal).

North is up (row 0), east is to the right. Distances follow the 5-10-5 count: every other diagonal costs two
squares (MOV-10). Between footprints the distance is measured between their nearest squares; to a point it is
measured from the nearest corner of the footprint.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from sftactics.core.breakdown import Term
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions

Square = tuple[int, int]
Point = tuple[int, int]

FEET_PER_SQUARE = 5

#: The eight compass directions as (dx, dy), clockwise from north (y grows southward).
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def direction_index(name: str) -> int:
    """Index in :data:`DIRECTIONS` of a compass name such as ``"NE"`` (case-insensitive)."""
    try:
        return DIRECTION_NAMES.index(name.upper())
    except ValueError:
        raise ValueError(f"unknown direction {name!r}; expected one of {', '.join(DIRECTION_NAMES)}") from None


@dataclass(frozen=True, slots=True, order=True)
class Footprint:
    """The squares a creature (or object) occupies: ``side`` x ``side`` squares whose top-left is ``(x, y)``."""

    x: int
    y: int
    side: int = 1

    def __post_init__(self) -> None:
        if self.side < 1:
            raise ValueError(f"a footprint is at least 1 square wide, not {self.side}")

    @property
    def anchor(self) -> Square:
        return (self.x, self.y)

    @property
    def squares(self) -> tuple[Square, ...]:
        return tuple((self.x + i, self.y + j) for j in range(self.side) for i in range(self.side))

    def contains(self, square: Square) -> bool:
        return self.x <= square[0] < self.x + self.side and self.y <= square[1] < self.y + self.side

    @property
    def corners(self) -> tuple[Point, Point, Point, Point]:
        """The four outer corners of the space (top-left, top-right, bottom-left, bottom-right)."""
        x0, y0, x1, y1 = self.x, self.y, self.x + self.side, self.y + self.side
        return ((x0, y0), (x1, y0), (x0, y1), (x1, y1))

    @property
    def points(self) -> tuple[Point, ...]:
        """Every corner of every square of the space (the outer corners first)."""
        outer = self.corners
        rest = tuple(
            (self.x + i, self.y + j)
            for j in range(self.side + 1)
            for i in range(self.side + 1)
            if (self.x + i, self.y + j) not in outer
        )
        return outer + rest

    @property
    def centre2(self) -> tuple[int, int]:
        """Centre of the space in half-square units (doubled coordinates, so it stays an integer)."""
        return (2 * self.x + self.side, 2 * self.y + self.side)

    def overlaps(self, other: Footprint) -> bool:
        return (
            self.x < other.x + other.side
            and other.x < self.x + self.side
            and self.y < other.y + other.side
            and other.y < self.y + self.side
        )


def as_footprint(position: Square | Footprint, side: int = 1) -> Footprint:
    """A footprint from a footprint (unchanged) or from a top-left square and a side."""
    if isinstance(position, Footprint):
        return position
    return Footprint(position[0], position[1], side)


def count_squares(dx: int, dy: int, diagonals_before: int = 0) -> int:
    """Squares of movement for an offset of ``(dx, dy)`` with the 5-10-5 count (MOV-10).

    ``diagonals_before`` is how many diagonals were already counted in this movement: after an odd number the
    next diagonal is the expensive one.
    """
    dx, dy = abs(dx), abs(dy)
    diag = min(dx, dy)
    doubled = (diagonals_before + diag) // 2 - diagonals_before // 2
    return max(dx, dy) + doubled


def distance_ft(a: Square, b: Square) -> int:
    """Distance in feet between two squares (MOV-10); symmetric, 0 for the same square."""
    return FEET_PER_SQUARE * count_squares(a[0] - b[0], a[1] - b[1])


def _gap(a0: int, a_len: int, b0: int, b_len: int) -> int:
    """Squares between two runs of squares along one axis, counted like a move (adjacent = 1, overlap = 0)."""
    return max(0, b0 - (a0 + a_len - 1), a0 - (b0 + b_len - 1))


def footprint_distance_ft(a: Footprint, b: Footprint) -> int:
    """Distance in feet between the nearest squares of two spaces (adjacent = 5 ft, overlapping = 0)."""
    dx = _gap(a.x, a.side, b.x, b.side)
    dy = _gap(a.y, a.side, b.y, b.side)
    return FEET_PER_SQUARE * count_squares(dx, dy)


def space_shift_ft(a: Footprint, b: Footprint) -> int:
    """How far a space moves from ``a`` to ``b`` of the same size: its anchor's shift counted like a move (MOV-10).
    For one-square spaces the same as :func:`footprint_distance_ft`; for a bigger space more (a Large space four
    squares on has a gap of three squares to where it was, but has moved four)."""
    return distance_ft(a.anchor, b.anchor)


def point_distance_ft(p: Point, q: Point) -> int:
    """Distance in feet between two grid intersections, counted intersection to intersection (EFF-02)."""
    return FEET_PER_SQUARE * count_squares(p[0] - q[0], p[1] - q[1])


def distance_to_point_ft(space: Footprint, p: Point) -> int:
    """Distance in feet from the nearest corner of a space to a grid intersection (e.g. a grenade's target)."""
    dx = max(0, space.x - p[0], p[0] - (space.x + space.side))
    dy = max(0, space.y - p[1], p[1] - (space.y + space.side))
    return FEET_PER_SQUARE * count_squares(dx, dy)


def closest(origin: Footprint, candidates: Iterable[Footprint]) -> list[Footprint]:
    """The candidates nearest to ``origin`` (all of them when tied: the acting creature picks, MOV-12)."""
    pool = list(candidates)
    if not pool:
        return []
    best = min(footprint_distance_ft(origin, c) for c in pool)
    return [c for c in pool if footprint_distance_ft(origin, c) == best]


def adjacent(a: Footprint, b: Footprint) -> bool:
    """True when two spaces touch along an edge or at a corner without overlapping."""
    return footprint_distance_ft(a, b) == FEET_PER_SQUARE


# --- range (ATK-10, ATK-11) ------------------------------------------------------------------------------


def range_increment_number(distance: int, increment_ft: int, options: GridOptions = DEFAULT_OPTIONS) -> int:
    """Which range increment a distance falls in (1 = within the listed range), per ``options.range_penalty``."""
    if increment_ft <= 0:
        raise ValueError("a range increment is a positive number of feet")
    if distance <= increment_ft:
        return 1
    if options.range_penalty == "full":
        return distance // increment_ft
    return math.ceil(distance / increment_ft)


def range_penalty(distance: int, increment_ft: int, options: GridOptions = DEFAULT_OPTIONS) -> Term | None:
    """The attack penalty for attacking at ``distance`` feet: -2 per increment beyond the first (ATK-10).

    None within the first increment.
    """
    n = range_increment_number(distance, increment_ft, options)
    if n <= 1:
        return None
    return Term(-2 * (n - 1), f"range ({distance} ft, increment {n} of {increment_ft} ft)", "ATK-10")


def max_range_ft(increment_ft: int, *, thrown: bool = False, max_increments: int | None = None) -> int:
    """Maximum range: 10 increments, 5 for thrown weapons, unless the weapon says otherwise (ATK-11)."""
    n = max_increments if max_increments is not None else (5 if thrown else 10)
    return increment_ft * n


@dataclass(frozen=True, slots=True)
class RangeCheck:
    """Whether a ranged attack can reach, and its penalty. ``terms`` holds the penalty term (or nothing)."""

    distance_ft: int
    increment_ft: int
    increment: int
    max_range_ft: int
    in_range: bool
    terms: tuple[Term, ...]
    rule: str

    @property
    def penalty(self) -> int:
        return sum(t.value for t in self.terms)


def check_range(
    distance: int,
    increment_ft: int,
    *,
    thrown: bool = False,
    max_increments: int | None = None,
    options: GridOptions = DEFAULT_OPTIONS,
) -> RangeCheck:
    """Range penalty (ATK-10) and maximum range (ATK-11) for an attack at ``distance`` feet."""
    top = max_range_ft(increment_ft, thrown=thrown, max_increments=max_increments)
    pen = range_penalty(distance, increment_ft, options)
    ok = distance <= top
    return RangeCheck(
        distance,
        increment_ft,
        range_increment_number(distance, increment_ft, options),
        top,
        ok,
        () if pen is None else (pen,),
        "ATK-10" if ok else "ATK-11",
    )


def attack_range_ft(attacker: Footprint, target: Footprint | Point) -> int:
    """Distance used for range: nearest squares of the two spaces, or nearest corner to a grid intersection."""
    if isinstance(target, Footprint):
        return footprint_distance_ft(attacker, target)
    return distance_to_point_ft(attacker, target)
