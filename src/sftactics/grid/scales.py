"""Movement scales and paces (MOV-05, MOV-07..09): how far a speed carries in a round, a minute or a day.

Tactical movement is counted in feet per round, local movement in feet per minute, overland movement in miles
per hour or per day (MOV-07). The three paces (MOV-08): walking is unhurried, hustling is a jog (any round in
which a creature moves its speed and also takes another move or standard action, or moves twice), running is
four times the speed. Characters in combat hustle or run.

The movement table (MOV-09) follows from two formulas: a round at a pace covers speed x 1 (walk), x 2 (hustle)
or x 4 (run); a minute is ten rounds. Walking, a creature covers speed / 10 miles per hour (30 ft: 3 mph) and
eight hours of that in a day; hustling doubles the hourly figure (the seeds have no hour row: this is the
inventory's derivation).
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction


class Pace(StrEnum):
    WALK = "walk"
    HUSTLE = "hustle"
    RUN = "run"


PACE_MULTIPLIER = {Pace.WALK: 1, Pace.HUSTLE: 2, Pace.RUN: 4}
ROUNDS_PER_MINUTE = 10
TRAVEL_HOURS_PER_DAY = 8


def feet_per_round(speed: int, pace: Pace) -> int:
    """Feet covered in one round at a pace: 30 ft speed walks 30, hustles 60, runs 120 (MOV-05, MOV-09)."""
    return speed * PACE_MULTIPLIER[pace]


def feet_per_minute(speed: int, pace: Pace) -> int:
    """Feet covered in one minute (local scale): ten rounds (MOV-09)."""
    return feet_per_round(speed, pace) * ROUNDS_PER_MINUTE


def miles_per_hour(speed: int, pace: Pace = Pace.WALK) -> Fraction:
    """Overland miles per hour: speed / 10 walking, twice that hustling (MOV-09). Running is not an overland
    pace (MOV-25)."""
    if pace is Pace.RUN:
        raise ValueError("running cannot be kept up for an hour overland; it works out to a hustle")
    return Fraction(speed, 10) * (2 if pace is Pace.HUSTLE else 1)


def miles_per_day(speed: int) -> Fraction:
    """Overland miles in a day of walking: eight hours (MOV-09): 30 ft speed gives 24 miles."""
    return miles_per_hour(speed) * TRAVEL_HOURS_PER_DAY


def is_hustling(moved_speed: bool, other_move_or_standard: bool, moved_twice: bool) -> bool:
    """A creature hustles in a round in which it moves its speed and takes another move or standard action,
    or moves its speed twice (MOV-08)."""
    return (moved_speed and other_move_or_standard) or moved_twice
