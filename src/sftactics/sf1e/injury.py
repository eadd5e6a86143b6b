"""Injury, dying, death, stabilizing and healing (INJ-01..21, DMG-06, DMG-07, DMG-09, DMG-10, DMG-13)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class InjuryContext:
    """When damage lands: the round number and whether it is the damaged creature's own turn (INJ-04).
    Outside an encounter both stay at their defaults."""

    round: int = 0
    own_turn: bool = False
