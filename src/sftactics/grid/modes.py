"""Additional movement types where they are geometry: flying in three dimensions, climbing, swimming and
burrowing (MOV-29..35). Skill checks (Acrobatics to fly, Athletics to climb or swim) are the caller's; their
results come in as parameters.

Flying (MOV-32): at the start of its turn a flier picks a heading. Flying straight costs the normal 5-10-5
movement; each 45-degree turn costs 5 ft more; each square climbed costs 5 ft more (nothing in zero or low
gravity, 10 ft in high gravity). The rules leave some things open; the grid settles them so (MOV-32 gap):

* flying straight down or up does not change the heading and is not a turn;
* descending costs no extra (``GridOptions.flight_descent_extra_ft``);
* a step that moves along two or three axes at once counts as a diagonal in the 5-10-5 alternation;
* turning more than 45 degrees costs 5 ft per 45 degrees, the short way round.

Worked example (EX-08): fly speed 60; forward 20 ft, turn 45 degrees and fly one square diagonally: 30 ft; then
up 15 ft: 3 squares at 5 + 5 ft = 30 ft; 60 ft in all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from sftactics.core.breakdown import Term
from sftactics.grid.geometry import DIRECTIONS
from sftactics.grid.map import Gravity
from sftactics.grid.movement import CAN_RUN, MoveMode, turn_cost
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions


class Maneuverability(StrEnum):
    CLUMSY = "clumsy"
    AVERAGE = "average"
    PERFECT = "perfect"


MANEUVERABILITY_MODIFIER = {Maneuverability.CLUMSY: -8, Maneuverability.AVERAGE: 0, Maneuverability.PERFECT: 8}


def maneuverability(given: str | None, options: GridOptions = DEFAULT_OPTIONS) -> Maneuverability:
    """A flier's maneuverability, or the default when its statistics give none (MOV-31)."""
    return Maneuverability(given or options.default_maneuverability)


def fly_check_term(m: Maneuverability) -> Term | None:
    """The modifier to Acrobatics checks to fly: -8 clumsy, +8 perfect, none for average (MOV-31)."""
    value = MANEUVERABILITY_MODIFIER[m]
    return Term(value, f"{m} maneuverability", "MOV-31") if value else None


@dataclass(frozen=True, slots=True)
class HoverRules:
    """What the maneuverability allows for hovering (MOV-33)."""

    can_hover: bool
    automatic: bool  # no check needed (also to avoid falling damage)
    swift_action_hover: bool  # may still attempt the check to hover as a swift action


def hover_rules(m: Maneuverability) -> HoverRules:
    if m is Maneuverability.CLUMSY:
        return HoverRules(False, False, False)
    if m is Maneuverability.PERFECT:
        return HoverRules(True, True, True)
    return HoverRules(True, False, False)


def ascent_extra_ft(gravity: Gravity) -> int:
    """Extra feet per square flown upward: 5, none in zero or low gravity, doubled in high gravity (MOV-32)."""
    if gravity in (Gravity.ZERO, Gravity.LOW):
        return 0
    return 10 if gravity is Gravity.HIGH else 5


@dataclass(frozen=True, slots=True)
class FlightLeg:
    """One priced step of a flight: the offset (dx, dy, dz with z up) and what it cost."""

    offset: tuple[int, int, int]
    move_ft: int
    turn_ft: int
    climb_ft: int

    @property
    def cost_ft(self) -> int:
        return self.move_ft + self.turn_ft + self.climb_ft


@dataclass(frozen=True, slots=True)
class Flight:
    legs: tuple[FlightLeg, ...]
    cost_ft: int
    heading: int | None
    diagonals: int


def price_flight(
    steps: Sequence[tuple[int, int, int]],
    *,
    heading: int | None = None,
    gravity: Gravity = Gravity.NORMAL,
    diagonals_before: int = 0,
    options: GridOptions = DEFAULT_OPTIONS,
) -> Flight:
    """Price a flight given as unit steps ``(dx, dy, dz)`` (x east, y south, z up; each -1, 0 or 1).

    ``heading`` is the direction index (see DIRECTIONS) already chosen this turn, or None to let the first
    horizontal step set it for free (MOV-32).
    """
    legs = []
    diagonals = diagonals_before
    head = heading
    up = ascent_extra_ft(gravity)
    for dx, dy, dz in steps:
        if {dx, dy, dz} - {-1, 0, 1} or (dx, dy, dz) == (0, 0, 0):
            raise ValueError(f"a flight step moves one square along some axes, not {(dx, dy, dz)}")
        axes = (dx != 0) + (dy != 0) + (dz != 0)
        if axes >= 2:
            move = 10 if diagonals % 2 else 5
            diagonals += 1
        else:
            move = 5
        turn = 0
        if dx or dy:
            d = DIRECTIONS.index((dx, dy))
            turn = turn_cost(head, d)
            head = d
        climb = up if dz > 0 else (options.flight_descent_extra_ft if dz < 0 else 0)
        legs.append(FlightLeg((dx, dy, dz), move, turn, climb))
    return Flight(tuple(legs), sum(leg.cost_ft for leg in legs), head, diagonals)


def can_run(mode: MoveMode) -> bool:
    """Whether the run action is allowed with this movement type: not burrowing (MOV-29) or climbing
    (MOV-30); swimming only in a straight line (MOV-34)."""
    return CAN_RUN[mode]


def climb_budget_ft(climb_speed: int, *, accelerated: bool = False) -> int:
    """Feet a creature with a climb speed climbs in one move action: its climb speed, or double that after a
    successful Athletics check at -5 (the check is the caller's) (MOV-30)."""
    return climb_speed * (2 if accelerated else 1)


def falls(*, flying: bool, paralyzed: bool, wings: bool = True, incorporeal: bool = False) -> bool:
    """A flier that is paralyzed while flying with wings (physical means) falls; incorporeal creatures never
    fall (MOV-35)."""
    return flying and paralyzed and wings and not incorporeal


#: How far a flier knocked prone by a trip descends (MOV-35, MAN-12).
TRIP_DESCENT_FT = 10
