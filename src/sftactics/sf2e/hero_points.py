"""Hero Points (E2-71..73).

A character starts each session with 1 Hero Point (what it had left does not carry over: the points reset) and
can hold at most 3; the GM awards more for selfless, daring or beyond-expectation deeds. Spending is not an
action and works even when the character can't act:

* **1 point: reroll a check** and use the second result, better or worse (a fortune effect, E2-72);
* **all points (at least 1): avoid death** = heroic recovery (E2-36, E2-73), in :mod:`sftactics.sf2e.injury`.

When spending, the player describes the deed, determination or remembered item that makes it possible; the
functions take that text as ``deed`` and keep it in the record.
"""

from __future__ import annotations

from dataclasses import dataclass

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.sf2e.checks import Check2e, reroll
from sftactics.sf2e.creature import Creature2e
from sftactics.sf2e.injury import heroic_recovery
from sftactics.sf2e.options import DEFAULT_OPTIONS, Sf2eOptions

HERO_POINTS_MAX = 3
HERO_POINTS_AT_SESSION_START = 1

__all__ = [
    "HERO_POINTS_AT_SESSION_START",
    "HERO_POINTS_MAX",
    "HeroReroll",
    "award",
    "heroic_recovery",
    "reroll_with_hero_point",
    "start_session",
]


def start_session(creature: Creature2e) -> Creature2e:
    """The session begins: Hero Points reset to 1 (E2-71)."""
    return creature.changed(hero_points=HERO_POINTS_AT_SESSION_START)


def award(creature: Creature2e, points: int = 1) -> Creature2e:
    """The GM awards Hero Points, to a maximum of 3 (E2-71)."""
    if points < 0:
        raise ValueError("an award is never negative")
    return creature.changed(hero_points=min(HERO_POINTS_MAX, creature.hero_points + points))


@dataclass(frozen=True, slots=True)
class HeroReroll:
    creature: Creature2e
    check: Check2e
    deed: str = ""


def reroll_with_hero_point(
    creature: Creature2e, check: Check2e, dice: DiceSource, *, deed: str = "", options: Sf2eOptions = DEFAULT_OPTIONS
) -> HeroReroll:
    """Spend 1 Hero Point to reroll ``check``, keeping the second result (E2-72)."""
    if creature.hero_points < 1:
        raise RuleViolation("E2-72", f"{creature.name} has no Hero Points")
    again = reroll(check, dice, why="Hero Point", options=options)
    return HeroReroll(creature.changed(hero_points=creature.hero_points - 1), again, deed)
