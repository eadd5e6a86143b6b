"""Modes of play (E2-01) and the general conventions (E2-74).

* **Modes of play**: encounter (structured, initiative, 6-second rounds), exploration (flexible pacing, travel
  speed, exploration activities; minutes to hours) and downtime (low-risk activities; days or longer).
* **Conventions**: the GM has the final say and specific rules override general ones (nothing to compute); round
  down unless told otherwise, but halving 1 gives 1; several multipliers on one value add up, each after the
  first counting 1 less (x2 and x2 = x3, the shared :func:`~sftactics.core.breakdown.combine_multipliers`);
  of duplicate effects only the one of highest level applies, the newer one if their levels are equal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from sftactics.core.breakdown import combine_multipliers
from sftactics.sf2e.damage import halve_total

__all__ = ["MODES", "ROUND_SECONDS", "Effect", "Mode", "ModeDef", "combine_multipliers", "halve", "winning_effect"]

#: Seconds in an encounter round (E2-01).
ROUND_SECONDS = 6


class Mode(StrEnum):
    ENCOUNTER = "encounter"
    EXPLORATION = "exploration"
    DOWNTIME = "downtime"


@dataclass(frozen=True, slots=True)
class ModeDef:
    mode: Mode
    description: str
    timing: str


MODES: dict[Mode, ModeDef] = {
    Mode.ENCOUNTER: ModeDef(
        Mode.ENCOUNTER, "highly structured: combat and stressful situations, with initiative", "6-second rounds"
    ),
    Mode.EXPLORATION: ModeDef(
        Mode.EXPLORATION, "flexible pacing: travel speed and exploration activities", "minutes to hours"
    ),
    Mode.DOWNTIME: ModeDef(Mode.DOWNTIME, "low-risk activities such as crafting and research", "days or longer"),
}


def halve(value: int) -> int:
    """Half, rounded down, except that half of 1 is 1 (E2-74): 7 -> 3, 1 -> 1, 0 -> 0."""
    return halve_total(value)


@dataclass(frozen=True, slots=True)
class Effect:
    """An effect that may be duplicated: its name, level (or rank) and when it started (higher = newer)."""

    name: str
    level: int
    started: int = 0


def winning_effect(duplicates: Sequence[Effect]) -> Effect:
    """Of several instances of the same effect, the one that applies (E2-74): the highest level, and of equal
    levels the newest."""
    if not duplicates:
        raise ValueError("no effects to choose from")
    return max(duplicates, key=lambda e: (e.level, e.started))
