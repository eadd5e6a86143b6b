"""Size, space and reach: Table 8-1, footprints and threatened squares (MOV-02..04, AOO-01..05).

* Fine, Diminutive and Tiny creatures take less than a square; several share one (100, 25 and 4 per square) and
  their footprint is the one square they are in.
* Small and Medium creatures fill one square; Large 2x2, Huge 3x3, Gargantuan 4x4, Colossal 6x6.
* Reach is measured from the creature's space with the 5-10-5 count, except that a reach of exactly 10 ft also
  takes the second square along a diagonal (AOO-04). A creature with 0-ft reach threatens only its own squares
  (it can attack into its own square, AOO-05); a creature that can make only unarmed strikes threatens nothing
  (AOO-01). A reach weapon adds 5 ft to natural reach: 10 ft for Small and Medium (AOO-03); whether it still
  threatens adjacent squares is ``GridOptions.reach_weapon_threatens_adjacent``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from sftactics.grid.geometry import FEET_PER_SQUARE, Footprint, Square, as_footprint, count_squares
from sftactics.grid.lines import has_line_of_effect
from sftactics.grid.map import Feature, GridMap
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions


class Size(StrEnum):
    FINE = "fine"
    DIMINUTIVE = "diminutive"
    TINY = "tiny"
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    HUGE = "huge"
    GARGANTUAN = "gargantuan"
    COLOSSAL = "colossal"


@dataclass(frozen=True, slots=True)
class SizeRow:
    """One row of Table 8-1 (MOV-02): typical height or length, weight, space and natural reach."""

    size: Size
    height: str
    weight: str
    space_ft: Fraction
    reach_tall_ft: int
    reach_long_ft: int
    side: int  # squares per side of the footprint (1 for anything that fits in one square)
    per_square: int  # how many fit in one square (1 for Small and larger, MOV-03)


SIZES: dict[Size, SizeRow] = {
    r.size: r
    for r in (
        SizeRow(Size.FINE, "6 in. or less", "1/8 lb. or less", Fraction(1, 2), 0, 0, 1, 100),
        SizeRow(Size.DIMINUTIVE, "6 in.-1 ft.", "1/8-1 lb.", Fraction(1), 0, 0, 1, 25),
        SizeRow(Size.TINY, "1-2 ft.", "1-8 lb.", Fraction(5, 2), 0, 0, 1, 4),
        SizeRow(Size.SMALL, "2-4 ft.", "8-60 lb.", Fraction(5), 5, 5, 1, 1),
        SizeRow(Size.MEDIUM, "4-8 ft.", "60-500 lb.", Fraction(5), 5, 5, 1, 1),
        SizeRow(Size.LARGE, "8-16 ft.", "500 lb.-2 tons", Fraction(10), 10, 5, 2, 1),
        SizeRow(Size.HUGE, "16-32 ft.", "2-16 tons", Fraction(15), 15, 10, 3, 1),
        SizeRow(Size.GARGANTUAN, "32-64 ft.", "16-125 tons", Fraction(20), 20, 15, 4, 1),
        SizeRow(Size.COLOSSAL, "64 ft. or more", "125 tons or more", Fraction(30), 30, 20, 6, 1),
    )
}
_ORDER = list(Size)


def size_order(size: Size) -> int:
    """Position of a size in the table (Fine = 0 ... Colossal = 8), for comparisons."""
    return _ORDER.index(size)


def is_sub_square(size: Size) -> bool:
    """Fine, Diminutive and Tiny creatures take less than one square and can share squares (MOV-03)."""
    return SIZES[size].per_square > 1


def footprint_side(size: Size) -> int:
    """Squares per side of a creature's space (MOV-04)."""
    return SIZES[size].side


def footprint(position: Square, size: Size) -> Footprint:
    """The space of a creature of ``size`` whose top-left square is ``position``."""
    return Footprint(position[0], position[1], SIZES[size].side)


def natural_reach(size: Size, *, long: bool = False) -> int:
    """Typical natural reach in feet for a tall (biped) or long (quadruped) creature (Table 8-1, AOO-02)."""
    row = SIZES[size]
    return row.reach_long_ft if long else row.reach_tall_ft


def effective_reach(size: Size, reach_ft: int | None = None, *, reach_weapon: bool = False, long: bool = False) -> int:
    """Reach in feet: natural reach (given, or typical for the size) plus 5 ft with a reach weapon (AOO-03)."""
    base = natural_reach(size, long=long) if reach_ft is None else reach_ft
    return base + FEET_PER_SQUARE if reach_weapon else base


def _gap(a0: int, a_len: int, s: int) -> int:
    return max(0, s - (a0 + a_len - 1), a0 - s)


def reach_covers(space: Footprint, square: Square, reach: int) -> bool:
    """True if ``square`` is within ``reach`` feet of ``space`` (AOO-04's 10-ft diagonal exception included).

    The creature's own squares are always within reach (anyone can attack into their own square, AOO-05).
    """
    dx = _gap(space.x, space.side, square[0])
    dy = _gap(space.y, space.side, square[1])
    if dx == 0 and dy == 0:
        return True
    if reach == 10:
        return max(dx, dy) <= 2
    return FEET_PER_SQUARE * count_squares(dx, dy) <= reach


def threatened_squares(
    position: Square | Footprint,
    size: Size = Size.MEDIUM,
    reach_ft: int | None = None,
    *,
    reach_weapon: bool = False,
    zero_reach: bool = False,
    long: bool = False,
    armed: bool = True,
    grid: GridMap | None = None,
    options: GridOptions = DEFAULT_OPTIONS,
) -> frozenset[Square]:
    """Every square the creature threatens (AOO-01..05).

    ``position`` is the creature's space or its top-left square (then ``size`` gives the space). ``reach_ft``
    is its natural reach (default: typical for ``size``, tall unless ``long``); ``zero_reach`` forces 0 ft;
    ``reach_weapon`` adds 5 ft; ``armed=False`` (unarmed strikes only) threatens nothing. With a ``grid``,
    squares off the map, wall squares and squares the creature has no line of effect to are left out.
    """
    space = as_footprint(position, footprint_side(size))
    if not armed:
        return frozenset()
    if grid is not None:
        from sftactics.grid.map import cached

        key = ("threat", space, size, reach_ft, reach_weapon, zero_reach, long, options)
        return cached(
            grid, key, lambda: _threatened(space, size, reach_ft, reach_weapon, zero_reach, long, grid, options)
        )
    return _threatened(space, size, reach_ft, reach_weapon, zero_reach, long, None, options)


def _threatened(
    space: Footprint,
    size: Size,
    reach_ft: int | None,
    reach_weapon: bool,
    zero_reach: bool,
    long: bool,
    grid: GridMap | None,
    options: GridOptions,
) -> frozenset[Square]:
    natural = 0 if zero_reach else (natural_reach(size, long=long) if reach_ft is None else reach_ft)
    reach = natural + FEET_PER_SQUARE if reach_weapon else natural
    r = max(2, reach // FEET_PER_SQUARE)
    out: set[Square] = set()
    skip_adjacent = reach_weapon and not options.reach_weapon_threatens_adjacent
    for y in range(space.y - r, space.y + space.side + r):
        for x in range(space.x - r, space.x + space.side + r):
            if not reach_covers(space, (x, y), reach):
                continue
            if skip_adjacent and reach_covers(space, (x, y), FEET_PER_SQUARE) and not space.contains((x, y)):
                continue
            out.add((x, y))
    if grid is not None:
        out = {
            s
            for s in out
            if grid.in_bounds(s)
            and not grid.cells[s[1] * grid.width + s[0]] & Feature.SOLID
            and (space.contains(s) or has_line_of_effect(grid, space, Footprint(s[0], s[1])))
        }
    return frozenset(out)


@dataclass(frozen=True, slots=True)
class Body:
    """A creature's geometric presence: its space, size, reach and side (a team label).

    ``reach_ft`` None means the typical natural reach for the size. ``armed=False`` means it can make only
    unarmed strikes (threatens nothing).
    """

    space: Footprint
    size: Size = Size.MEDIUM
    reach_ft: int | None = None
    reach_weapon: bool = False
    long: bool = False
    armed: bool = True
    side: str = ""

    @classmethod
    def at(
        cls,
        position: Square,
        size: Size = Size.MEDIUM,
        *,
        reach_ft: int | None = None,
        reach_weapon: bool = False,
        long: bool = False,
        armed: bool = True,
        side: str = "",
    ) -> Body:
        """A body whose space's top-left square is ``position``."""
        return cls(footprint(position, size), size, reach_ft, reach_weapon, long, armed, side)

    @property
    def reach(self) -> int:
        return effective_reach(self.size, self.reach_ft, reach_weapon=self.reach_weapon, long=self.long)

    def threatened(self, grid: GridMap | None = None, options: GridOptions = DEFAULT_OPTIONS) -> frozenset[Square]:
        return threatened_squares(
            self.space,
            self.size,
            self.reach_ft,
            reach_weapon=self.reach_weapon,
            long=self.long,
            armed=self.armed,
            grid=grid,
            options=options,
        )

    def threatens(
        self, target: Footprint | Square, grid: GridMap | None = None, options: GridOptions = DEFAULT_OPTIONS
    ) -> bool:
        """True if any square of ``target`` is threatened."""
        zone = self.threatened(grid, options)
        return any(s in zone for s in as_footprint(target).squares)
