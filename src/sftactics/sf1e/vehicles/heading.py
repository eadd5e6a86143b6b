"""Vehicles on the battle grid: heading, straight-line movement, what a path runs into (VEH-03, VEH-04, VEH-07,
VEH-13, VEH-15, VEH-25).

A vehicle's space is the square block of its size (Table 8-1, as for creatures: Large 2x2, Huge 3x3...), and it
faces one edge of that space: north, east, south or west, never a corner (VEH-03).

Straight-line movement (race, ram, uncontrolled, autocontrol; VEH-04) starts at the middle of the front edge and
goes straight ahead or at an angle of up to 45 degrees; the heading does not change. On the grid that is a move of
``forward`` squares along the heading with ``drift`` squares to the side spread evenly over it (``|drift| <=
forward``), costed with the 5-10-5 count. An uncontrolled vehicle moves straight ahead only (``drift`` 0).

Free movement (drive, and run over by default) uses the grid's path finder; creatures block a vehicle even when
they are allies (VEH-15), so every occupied square is given to it as one it can never pass - except, for a run
over, the squares of creatures small enough to be run over (VEH-13).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from sftactics.core.errors import RuleViolation
from sftactics.grid.geometry import FEET_PER_SQUARE, Footprint, Square, count_squares
from sftactics.grid.map import Feature, GridMap
from sftactics.grid.movement import Mover, Occupant, PricedPath, find_path
from sftactics.grid.space import Size
from sftactics.sf1e.vehicles.state import HEADINGS, Heading

#: Unit step of each heading (y grows southward).
HEADING_STEP: dict[Heading, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
#: The direction to the right of each heading (positive drift).
RIGHT_OF: dict[Heading, tuple[int, int]] = {"N": (1, 0), "E": (0, 1), "S": (-1, 0), "W": (0, -1)}

_BLOCKING = Feature.SOLID | Feature.COVER | Feature.IMPASSABLE


def check_heading(heading: str) -> Heading:
    """A valid heading (an edge of the space). Diagonals and anything else are refused (VEH-03)."""
    h = heading.upper()
    for ok in HEADINGS:
        if h == ok:
            return ok
    raise RuleViolation("VEH-03", f"a vehicle faces an edge of its space (N, E, S or W), not {heading!r}")


def forward_squares(distance_ft: int, drift: int = 0) -> int:
    """How many squares forward a straight-line move of ``distance_ft`` covers with ``drift`` squares to the side
    (5-10-5 count, MOV-10). Refuses a drift that the distance cannot reach at 45 degrees or less (VEH-04)."""
    d = abs(drift)
    if FEET_PER_SQUARE * count_squares(d, d) > distance_ft:
        raise RuleViolation("VEH-04", f"{distance_ft} ft is too short to drift {d} squares at 45 degrees or less")
    f = d
    while FEET_PER_SQUARE * count_squares(f + 1, d) <= distance_ft:
        f += 1
    return f


def straight_line(
    space: Footprint, heading: Heading, distance_ft: int, *, drift: int = 0, uncontrolled: bool = False
) -> tuple[Footprint, ...]:
    """The spaces a vehicle passes through moving ``distance_ft`` in a straight line at ``heading`` (VEH-04), one
    per square moved, without the start. ``drift`` squares to the right (negative: to the left) make the angle;
    an uncontrolled vehicle may not drift."""
    if uncontrolled and drift:
        raise RuleViolation("VEH-04", "an uncontrolled vehicle moves straight ahead at its heading (no angle)")
    n = forward_squares(distance_ft, drift)
    (fx, fy), (rx, ry) = HEADING_STEP[heading], RIGHT_OF[heading]
    out = []
    for k in range(1, n + 1):
        side = round(k * drift / n) if n else 0
        out.append(Footprint(space.x + fx * k + rx * side, space.y + fy * k + ry * side, space.side))
    return tuple(out)


def off_course_arc(roll: int) -> tuple[int, int]:
    """VEH-07: a failed race on flat terrain goes off course into one of four 45-degree arcs of the half circle
    in front of the vehicle, chosen with a d4: 1 is the leftmost (-90 to -45 degrees from the heading), 4 the
    rightmost (45 to 90)."""
    if not 1 <= roll <= 4:
        raise ValueError(f"the off-course arc is a d4 roll, not {roll}")
    lo = -90 + 45 * (roll - 1)
    return lo, lo + 45


@dataclass(frozen=True, slots=True)
class Obstruction:
    """The first thing a straight-line path runs into: at position ``index`` of the path (0 = the first square
    moved), ``kind`` is ``edge`` (off the map), ``terrain`` (a wall square, an object, impassable ground),
    ``wall`` (a wall or window edge) or ``occupant`` (``what`` names it)."""

    index: int
    kind: str
    what: str


def first_obstruction(
    grid: GridMap,
    start: Footprint,
    path: Sequence[Footprint],
    occupied: Mapping[str, Footprint] | None = None,
) -> Obstruction | None:
    """What stops a straight-line path first, or None if the whole path is clear (VEH-08, VEH-25)."""
    prev = start
    others = occupied or {}
    for i, fp in enumerate(path):
        if not grid.fits(fp):
            return Obstruction(i, "edge", "the edge of the map")
        for sq in fp.squares:
            if grid.features(sq) & _BLOCKING:
                return Obstruction(i, "terrain", f"square {sq}")
        dx, dy = fp.x - prev.x, fp.y - prev.y
        for sq in prev.squares:
            nxt = (sq[0] + dx, sq[1] + dy)
            if not prev.contains(nxt) and grid.crossing_blocked(sq, nxt):
                return Obstruction(i, "wall", f"between {sq} and {nxt}")
        for name, space in others.items():
            if fp.overlaps(space):
                return Obstruction(i, "occupant", name)
        prev = fp
    return None


def swept(path: Sequence[Footprint], spaces: Mapping[str, Footprint]) -> list[str]:
    """The names of ``spaces`` the path passes over, in the order it reaches them (for run over, VEH-13)."""
    order: list[str] = []
    for fp in path:
        for name, space in spaces.items():
            if name not in order and fp.overlaps(space):
                order.append(name)
    return order


def drive_path(
    grid: GridMap,
    start: Footprint,
    goal: Square | Footprint,
    size: Size,
    speed_ft: int,
    *,
    occupied: Collection[Square] = (),
    threats: Mapping[str, Collection[Square]] | None = None,
) -> PricedPath:
    """The cheapest drive (or run over) path to ``goal`` within ``speed_ft``, turning as needed (VEH-15). Every
    square in ``occupied`` blocks the vehicle, allies' included. The path reports the attacks of opportunity it
    provokes (``threats``). Refused (VEH-15) when there is no such path."""
    mover = Mover(size=size, speed=speed_ft, can_squeeze=False)
    occupants = dict.fromkeys(occupied, Occupant.FILLING)
    path = find_path(grid, start, goal, mover, occupants=occupants, threats=threats, budget_ft=speed_ft)
    if path is None:
        raise RuleViolation("VEH-15", f"no drive path to {goal} within {speed_ft} ft that avoids every creature")
    return path


__all__ = [
    "HEADING_STEP",
    "RIGHT_OF",
    "Obstruction",
    "check_heading",
    "drive_path",
    "first_obstruction",
    "forward_squares",
    "off_course_arc",
    "straight_line",
    "swept",
]
