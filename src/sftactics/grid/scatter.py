"""Thrown area weapons: targeting a grid intersection and where a miss lands (ATK-12, ATK-13).

A grenade (or any thrown weapon with an area) is aimed at a grid intersection, as a ranged attack against AC 5
(ATK-12). On a miss it scatters: a d8 picks the direction and a d4 the number of squares it lands away from the
target, on an intersection when an intersection was targeted (or a square when a square was).

Direction convention (the rules' diagram exists only as a picture; ``GridOptions.scatter_rotation``): 1 points
from the target back toward the thrower (the throw falls short), rounded to the nearest of the eight compass
directions; 2 to 8 turn from there in 45-degree steps clockwise as seen on the map with north up. So with the
thrower due south of the target, 1 = south, 2 = south-west, 3 = west, 4 = north-west, 5 = north (long),
6 = north-east, 7 = east, 8 = south-east.
"""

from __future__ import annotations

import math

from sftactics.core.breakdown import Breakdown, constant
from sftactics.grid.geometry import DIRECTIONS, Footprint, Point, Square
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions

INTERSECTION_AC = 5


def intersection_ac() -> Breakdown:
    """The number to hit when targeting a grid intersection (ATK-12)."""
    return constant("AC of a grid intersection", INTERSECTION_AC, "ATK-12")


def _nearest_direction(vx: int, vy: int) -> int:
    """Index of the compass direction (DIRECTIONS) nearest to the vector (x east, y south)."""
    if vx == 0 and vy == 0:
        raise ValueError("the thrower stands on the target: no direction back toward the thrower")
    bearing = math.degrees(math.atan2(vx, -vy)) % 360  # 0 = north, growing clockwise
    return round(bearing / 45) % 8


def scatter_direction(
    target: Point | Square,
    thrower: Footprint,
    d8: int,
    *,
    target_is_square: bool = False,
    options: GridOptions = DEFAULT_OPTIONS,
) -> tuple[int, int]:
    """The (dx, dy) unit step a miss moves in for a d8 roll (see the module docstring for the convention)."""
    if not 1 <= d8 <= 8:
        raise ValueError(f"a d8 shows 1 to 8, not {d8}")
    tx, ty = (2 * target[0] + 1, 2 * target[1] + 1) if target_is_square else (2 * target[0], 2 * target[1])
    cx, cy = thrower.centre2
    back = _nearest_direction(cx - tx, cy - ty)
    turn = d8 - 1 if options.scatter_rotation == "clockwise" else -(d8 - 1)
    return DIRECTIONS[(back + turn) % 8]


def scatter(
    target: Point | Square,
    thrower: Footprint,
    d8: int,
    d4: int,
    *,
    target_is_square: bool = False,
    options: GridOptions = DEFAULT_OPTIONS,
) -> tuple[int, int]:
    """Where a missed thrown weapon lands: ``d4`` squares from the target in the ``d8`` direction (ATK-13).
    The result is an intersection (or a square, with ``target_is_square``)."""
    if not 1 <= d4 <= 4:
        raise ValueError(f"a d4 shows 1 to 4, not {d4}")
    dx, dy = scatter_direction(target, thrower, d8, target_is_square=target_is_square, options=options)
    return (target[0] + dx * d4, target[1] + dy * d4)
