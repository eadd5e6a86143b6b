"""The valid range of the numbers and names that files and commands give (issue 20).

A bound is chosen to let in every creature and item of the books (the largest in the Foundry compendium sample
and the bundled data are checked by ``tests/sf1e/test_limits.py``) with room to spare, and to refuse what no
stat block can mean: a negative Hit Point maximum, a speed of a billion feet, ``1000d1000``. The fields use
them as pydantic ``Field`` bounds, so the JSON Schemas in ``docs/`` show them and an error names the field and
the bound. ``docs/statblocks.md`` has the table.

Distances that the grid measures in 5-ft squares (speeds, reach, ranges, area sizes) must be multiples of 5
feet, as every printed one is; a creature's space need not be (a Tiny creature takes 2.5 ft).
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import AfterValidator, Field
from pydantic_core import PydanticUndefined

from sftactics.core.errors import DiceError
from sftactics.dice.expr import parse

#: the longest name (creature, weapon, armor, combatant, side) a file may give
NAME_MAX = 100
#: Hit Points: the largest creatures of the books have well under 1,000
HP_MAX = 5_000
SP_MAX = 2_000
RP_MAX = 100
#: character level and challenge rating
LEVEL_MAX = 30
CR_MAX = 30
#: printed and built totals
AC_MIN, AC_MAX = 1, 100
SAVE_MIN, SAVE_MAX = -20, 60
#: printed attack bonus: one compendium creature prints +180 (a typo for +18) and is kept as written
ATTACK_MIN, ATTACK_MAX = -20, 200
BAB_MAX = 30
SKILL_MIN, SKILL_MAX = -20, 100
INIT_MIN, INIT_MAX = -20, 100
SCORE_MIN, SCORE_MAX = 1, 50
MOD_MIN, MOD_MAX = -5, 20
#: feet
SPEED_MAX = 500
REACH_MAX = 100
SPACE_MAX = 100
RANGE_MAX = 10_000
AREA_MAX = 1_000
SENSE_MAX = 10_000
DC_MIN, DC_MAX = 1, 100
DR_MAX = 100
RESIST_MAX = 100
SR_MAX = 100
BONUS_MIN, BONUS_MAX = -50, 50
ITEM_LEVEL_MAX = 30
CAPACITY_MAX = 1_000
USAGE_MAX = 100
INCREMENTS_MAX = 20
#: a scenario's rolled initiative count, a condition's remaining rounds, a GM's damage or healing
ROUNDS_MAX = 100_000
AMOUNT_MAX = 100_000
HARDNESS_MAX = 1_000
#: credits (the dearest item of the Core Rulebook costs 950,000)
PRICE_MAX = 100_000_000
ABILITY_DAMAGE_MAX = SCORE_MAX
NEGATIVE_LEVELS_MAX = 40

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _name(v: str) -> str:
    if not v.strip():
        raise ValueError("a name, not empty text")
    if _CONTROL.search(v):
        raise ValueError("a name without control characters")
    return v


#: A name a file must give: not blank, at most ``NAME_MAX`` characters, no control characters.
Name = Annotated[str, Field(min_length=1, max_length=NAME_MAX), AfterValidator(_name)]


def feet(default: Any, hi: int, what: str) -> Any:
    """A field: a distance in feet from 0 to ``hi`` in whole 5-ft squares (``...``: no default)."""
    return Field(_d(default), ge=0, le=hi, multiple_of=5, description=f"{what} (feet, 0 to {hi}, a multiple of 5)")


def ranged(default: Any, lo: int, hi: int, what: str) -> Any:
    """A field: a whole number from ``lo`` to ``hi`` (``...``: no default)."""
    return Field(_d(default), ge=lo, le=hi, description=f"{what} ({lo} to {hi})")


def _d(default: Any) -> Any:
    return PydanticUndefined if default is ... else default


#: a whole number of feet the grid counts in squares
Speed = Annotated[int, Field(ge=0, le=SPEED_MAX, multiple_of=5)]
SenseRange = Annotated[int, Field(ge=0, le=SENSE_MAX)]
Save = Annotated[int, Field(ge=SAVE_MIN, le=SAVE_MAX)]
AbilityMod = Annotated[int, Field(ge=MOD_MIN, le=MOD_MAX)]
AbilityScore = Annotated[int, Field(ge=SCORE_MIN, le=SCORE_MAX)]
Skill = Annotated[int, Field(ge=SKILL_MIN, le=SKILL_MAX)]
Resist = Annotated[int, Field(ge=0, le=RESIST_MAX)]
ClassLevel = Annotated[int, Field(ge=1, le=20)]
#: the longest side of a map (``grid.map.MAX_SIDE``, which a test keeps equal)
MAP_SIDE_MAX = 2000
Coordinate = Annotated[int, Field(ge=0, lt=MAP_SIDE_MAX, description="a column or row of the map (0 to 1999)")]
#: a square ``[x, y]`` of the map
Square = tuple[Coordinate, Coordinate]
#: a square or grid point a command names: any the engine can refuse by the rules (off the map, out of reach)
#: as long as it is not absurdly far (a fight without a map has no edge)
COMMAND_COORD_MAX = 10_000
CommandCoordinate = Annotated[int, Field(ge=-COMMAND_COORD_MAX, le=COMMAND_COORD_MAX)]
CommandSquare = tuple[CommandCoordinate, CommandCoordinate]


def _dice_parses(v: str) -> str:
    try:
        parse(v)
    except DiceError as e:
        raise ValueError(str(e)) from None
    return v


#: A dice expression kept as written (``"1d6+2 F"``), checked to parse (within the dice limits) when read.
DiceText = Annotated[str, AfterValidator(_dice_parses)]
