"""What a movement question on the grid is asked and answered in, and the cost of one step (MOV-10, MOV-17,
MOV-18, MOV-32): the mover and its mode (MOV-29..35), who stands in a square as the mover sees it (MOV-13..16),
a step, a provocation on the way (AOO-06) and a priced path. :mod:`sftactics.grid.movement` finds and prices
the paths.

Cost of one step, in feet:

* straight 5 ft; diagonal 5 ft or 10 ft, alternating (MOV-10). The count of diagonals so far comes in as
  ``diagonals_before`` and goes out as :attr:`PricedPath.diagonals`; whether it carries over from one move action
  to the next is ``GridOptions.diagonal_count_resets``;
* every hampering of the step doubles it, and doublings compound (MOV-18): entering difficult terrain (MOV-17),
  squeezing (MOV-19), a helpless creature that is still an obstacle or a paralyzed creature's square
  (MOV-14/15), and any extra doublings the caller gives for squares. With ``k`` doublings a straight step costs
  ``5 x 2^k`` and a diagonal ``15 x 2^(k-1)`` (a diagonal into difficult terrain is 15 ft, EX-09). Whether such a
  diagonal still counts in the 1-2 alternation is ``GridOptions.hampered_diagonal_counts``;
* a multi-square creature pays for the most difficult terrain in the space it moves into (MOV-17);
* a flier pays 5 ft more for each 45 degrees it turns away from the heading of its last step (MOV-32); the first
  step of its turn sets the heading for free unless a ``heading`` is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sftactics.grid.geometry import Footprint, Square
from sftactics.grid.space import Size, footprint_side

_NO_HEADING = 8


class Occupant(StrEnum):
    """Who stands in a square, as the mover sees it."""

    ALLY = "ally"
    ENEMY = "enemy"
    HELPLESS = "helpless"  # may be passed and shared (MOV-14, MOV-16)
    HELPLESS_OBSTACLE = "helpless_obstacle"  # helpless but still in the way: double cost (MOV-14)
    PARALYZED = "paralyzed"  # anyone may pass at double cost (MOV-15); not helpless: no stopping (MOV-16)
    FILLING = "filling"  # fills its squares completely: never passed (MOV-14)


class MoveMode(StrEnum):
    LAND = "land"
    FLY = "fly"
    CLIMB = "climb"
    SWIM = "swim"
    BURROW = "burrow"


#: Whether each mode allows the run action (MOV-29 burrow: no; MOV-30 climb: no; MOV-34 swim: straight only).
CAN_RUN: dict[MoveMode, bool] = {
    MoveMode.LAND: True,
    MoveMode.FLY: True,
    MoveMode.CLIMB: False,
    MoveMode.SWIM: True,
    MoveMode.BURROW: False,
}


@dataclass(frozen=True, slots=True)
class Mover:
    """What the grid needs to know about the creature that moves: plain values, no stat block.

    ``speed`` is the speed of ``mode`` in feet for one move action. ``pass_enemies``: it may move through
    opponents' squares (after a successful tumble). ``incorporeal``: difficult terrain does not hamper it.
    ``through_rock``: a burrower that can tunnel through rock and walls.
    """

    size: Size = Size.MEDIUM
    speed: int = 30
    mode: MoveMode = MoveMode.LAND
    charging: bool = False
    running: bool = False
    pass_enemies: bool = False
    can_squeeze: bool = True
    incorporeal: bool = False
    through_rock: bool = False

    @property
    def side(self) -> int:
        return footprint_side(self.size)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a path: the space after it, its cost and why (``doublings``, ``turn_ft``)."""

    to: Footprint
    cost_ft: int
    diagonal: bool
    doublings: int
    squeezed: bool
    turn_ft: int = 0


@dataclass(frozen=True, slots=True)
class Provocation:
    """The step with index ``step`` leaves ``left``, a space threatened by ``enemy``."""

    step: int
    left: Footprint
    enemy: str


@dataclass(frozen=True, slots=True)
class PricedPath:
    """A legal path and its price. ``last_legal`` is the index in :attr:`positions` of the last space the mover
    may stop in (MOV-16: an illegal end stops it there)."""

    start: Footprint
    steps: tuple[Step, ...]
    cost_ft: int
    diagonals: int
    heading: int | None
    provocations: tuple[Provocation, ...]
    end_legal: bool
    last_legal: int

    @property
    def positions(self) -> tuple[Footprint, ...]:
        return (self.start, *(s.to for s in self.steps))

    @property
    def end(self) -> Footprint:
        return self.steps[-1].to if self.steps else self.start

    @property
    def squares(self) -> tuple[Square, ...]:
        """The top-left square of each position, start first."""
        return tuple(p.anchor for p in self.positions)

    def provokers(self) -> dict[str, int]:
        """Each enemy provoked, with the index of the first step that provokes it (one reaction each)."""
        out: dict[str, int] = {}
        for p in self.provocations:
            out.setdefault(p.enemy, p.step)
        return out


def step_cost(diagonal: bool, doublings: int, diagonals_before: int) -> int:
    """Feet for one step (MOV-10, MOV-17, MOV-18): see the module docstring."""
    if doublings <= 0:
        return 10 if diagonal and diagonals_before % 2 else 5
    return (15 << (doublings - 1)) if diagonal else (5 << doublings)


def turn_cost(heading: int | None, direction: int) -> int:
    """Feet a flier pays to turn from ``heading`` to ``direction`` (indexes of DIRECTIONS): 5 per 45 degrees."""
    if heading is None or heading == _NO_HEADING:
        return 0
    d = abs(direction - heading) % 8
    return 5 * min(d, 8 - d)
