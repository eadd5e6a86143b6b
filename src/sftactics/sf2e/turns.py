"""Turn upkeep: what happens by itself at the start and the end of a creature's turn.

Start of turn: fast healing and regeneration restore HP (E2-29, E2-30); a creature still dying then attempts its
recovery check (E2-33); the budget is refreshed: 3 actions (quickened/slowed), the reaction regained (E2-42).
The seed does not order healing and the recovery check; healing comes first here, so a creature that fast
healing brings to 1 HP is no longer dying and rolls nothing.

End of turn: persistent damage and its flat checks (E2-26), then frightened and slowed count down (E2-54,
E2-59) and regeneration's time off runs down (E2-30).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sftactics.dice.source import DiceSource
from sftactics.sf2e.actions import TurnBudget, end_turn, start_turn
from sftactics.sf2e.conditions import end_of_turn as conditions_end_of_turn
from sftactics.sf2e.creature import Creature2e
from sftactics.sf2e.injury import InjuryResult2e, recovery_check, turn_end_regeneration, turn_start_healing
from sftactics.sf2e.options import DEFAULT_OPTIONS, Sf2eOptions
from sftactics.sf2e.persistent import PersistentTick, persistent_damage_turn_end


@dataclass(frozen=True, slots=True)
class TurnStart:
    creature: Creature2e
    budget: TurnBudget
    healing: InjuryResult2e
    recovery: InjuryResult2e | None


def start_of_turn(
    creature: Creature2e,
    dice: DiceSource,
    *,
    budget: TurnBudget | None = None,
    quickened_for: Iterable[str] = (),
    heroic_recovery: bool = False,
    deed: str = "",
) -> TurnStart:
    """Healing, the recovery check if dying, and a fresh budget."""
    healed = turn_start_healing(creature)
    c = healed.creature
    recovery = None
    if c.dying and not c.dead:
        recovery = recovery_check(c, dice, heroic_recovery=heroic_recovery, deed=deed)
        c = recovery.creature
    return TurnStart(c, start_turn(c, budget, quickened_for=quickened_for), healed, recovery)


@dataclass(frozen=True, slots=True)
class TurnEnd:
    creature: Creature2e
    budget: TurnBudget
    persistent: PersistentTick


def end_of_turn(
    creature: Creature2e,
    budget: TurnBudget,
    dice: DiceSource,
    *,
    frightened_sustained: bool = False,
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> TurnEnd:
    """Persistent damage, then conditions that wear off, then regeneration's countdown."""
    ended = end_turn(budget)
    tick = persistent_damage_turn_end(creature, dice, options=options)
    c = tick.creature
    if not c.dead:
        c = conditions_end_of_turn(c, frightened_sustained=frightened_sustained, options=options)
        c = turn_end_regeneration(c)
    return TurnEnd(c, ended, tick)
