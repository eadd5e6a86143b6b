"""Persistent damage (E2-26): damage that comes back at the end of each of the creature's turns.

At the end of its turn the creature takes each persistent damage (rolled anew, through its immunities,
weaknesses and resistances), then attempts a DC 15 flat check for each: a success ends that persistent damage.
Persistent damage from a critical hit is doubled by default (``Sf2eOptions.persistent_on_critical``). Gaining
persistent damage of a type it already takes keeps the one with the higher average by default
(``persistent_same_type``, the duplicate-effects convention of E2-74).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from sftactics.core.ledger import LedgerLine
from sftactics.dice.expr import parse
from sftactics.dice.source import DiceSource
from sftactics.sf2e.checks import Check2e, flat_check
from sftactics.sf2e.creature import Creature2e, PersistentDamage
from sftactics.sf2e.damage import DamageOutcome2e, DamagePart, mitigate, roll_damage
from sftactics.sf2e.injury import InjuryResult2e, apply_damage
from sftactics.sf2e.options import DEFAULT_OPTIONS, Sf2eOptions

#: The flat check that ends persistent damage (E2-26).
PERSISTENT_RECOVERY_DC = 15


def average(pd: PersistentDamage) -> Fraction:
    """The average damage of a persistent damage (doubled if it is doubled)."""
    lo, hi = parse(pd.dice).bounds()
    return Fraction(lo + hi, 2) * (2 if pd.doubled else 1)


def add_persistent(
    creature: Creature2e, new: Iterable[PersistentDamage], *, options: Sf2eOptions = DEFAULT_OPTIONS
) -> Creature2e:
    """The creature with more persistent damage; one of each type unless ``persistent_same_type="stack"``."""
    current = list(creature.persistent)
    for pd in new:
        same = [i for i, old in enumerate(current) if old.type == pd.type]
        if options.persistent_same_type == "stack" or not same:
            current.append(pd)
        elif average(pd) > average(current[same[0]]):
            current[same[0]] = pd
    return creature.changed(persistent=tuple(current))


@dataclass(frozen=True, slots=True)
class PersistentTick:
    """One end-of-turn round of persistent damage: what each did, the injuries and the flat checks."""

    creature: Creature2e
    damage: tuple[DamageOutcome2e, ...]
    injuries: tuple[InjuryResult2e, ...]
    checks: tuple[Check2e, ...]
    ended: tuple[PersistentDamage, ...]

    @property
    def lines(self) -> tuple[LedgerLine, ...]:
        return tuple(line for i in self.injuries for line in i.lines)


def persistent_damage_turn_end(
    creature: Creature2e, dice: DiceSource, *, options: Sf2eOptions = DEFAULT_OPTIONS
) -> PersistentTick:
    """Deal each persistent damage, then roll the DC 15 flat check to end it (E2-26). Stops if the creature dies."""
    c = creature
    outcomes: list[DamageOutcome2e] = []
    injuries: list[InjuryResult2e] = []
    checks: list[Check2e] = []
    ended: list[PersistentDamage] = []
    for pd in creature.persistent:
        if c.dead:
            break
        rolled = roll_damage(
            [DamagePart(pd.dice, pd.type)],
            dice,
            multipliers=(2,) if pd.doubled else (),
            purpose=f"persistent {pd.type}",
            options=options,
        )
        outcome = mitigate(rolled, c, options=options)
        outcomes.append(outcome)
        hurt = apply_damage(
            c,
            outcome.total,
            types=outcome.types_dealt,
            during_own_turn=True,
            cause="persistent damage",
            options=options,
        )
        injuries.append(hurt)
        c = hurt.creature
        if c.dead:
            break
        check = flat_check(PERSISTENT_RECOVERY_DC, dice, label=f"flat check to end {pd.describe()}")
        checks.append(check)
        if check.succeeded:
            ended.append(pd)
    if ended:
        left = list(c.persistent)
        for pd in ended:
            left.remove(pd)
        c = c.changed(persistent=tuple(left))
    return PersistentTick(c, tuple(outcomes), tuple(injuries), tuple(checks), tuple(ended))
