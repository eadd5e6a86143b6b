"""Where a creature stands squeezed (MOV-19): the geometric half of squeezing.

The path finder (:mod:`~sftactics.grid.movement`) already charges double movement for the squares a creature
squeezes through. This module answers the question that matters once it stops: is the space it occupies
narrower than its own? A Small or Medium creature squeezes in a narrow square (a crawlspace, ``,`` on a map);
a creature of two squares or more squeezes where its full space would overlap a wall, an object or a narrow
square (it squeezed into a passage half its width and stopped there). Creatures smaller than a square never
squeeze.
"""

from __future__ import annotations

from sftactics.grid.geometry import Footprint
from sftactics.grid.map import Feature, GridMap
from sftactics.grid.space import Size, is_sub_square

#: What a space of two squares or more cannot hold without squeezing.
_TOO_TIGHT = Feature.SOLID | Feature.COVER | Feature.NARROW


def has_narrow_squares(grid: GridMap) -> bool:
    """Whether any square of the map is a narrow passage (remembered per map)."""
    return grid.any_with(Feature.NARROW)


def squeezed_at(grid: GridMap, space: Footprint, size: Size) -> bool:
    """Whether a creature of ``size`` occupying ``space`` is squeezing there (MOV-19)."""
    if is_sub_square(size):
        return False
    squares = [s for s in space.squares if grid.in_bounds(s)]
    if space.side == 1:
        return any(grid.has(s, Feature.NARROW) for s in squares)
    return len(squares) < space.side * space.side or any(grid.features(s) & _TOO_TIGHT for s in squares)
