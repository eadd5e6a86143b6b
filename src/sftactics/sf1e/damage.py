"""Damage: rolling it, and what a target's defenses take off it (DMG-01..16, SPA-06..12).

The pipeline (DMG-16), in this order:

1. roll the damage dice with every flat modifier; a critical hit rolls it all again (x2 combines with
   other multipliers per GEN-04: roll ``1 + sum(m - 1)`` times and add) (DMG-04, ATK-14);
2. minimum damage: if penalties brought the result below 1, the hit deals 1 nonlethal damage (DMG-05);
3. split by damage type (typed parts; a part with two types splits per option ``multi_type_split``);
4. immunities (damage types; incorporeal immunity to nonmagical kinetic damage), incorporeal halving
   (SPA-12; before DR/ER by option ``incorporeal_halve_before_reduction``);
5. DR against the kinetic portion, once per attack (SPA-06, SPA-07, SPA-09); energy resistance against each
   matching energy portion (SPA-10, SPA-11); vulnerabilities (XREF);
6. the total is then applied to temporary HP, SP and HP by ``injury.apply_damage``.

Every step is one line in the :class:`DamageOutcome` ledger.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One step of the damage pipeline: what happened and by how much the running total changed."""

    step: str
    amount: int
    detail: str
    rule: str = ""

    def describe(self) -> str:
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{self.step}: {self.detail}{rule}"


@dataclass(frozen=True, slots=True)
class DamagePortion:
    """Damage of one type set after splitting (``types`` empty: untyped)."""

    types: frozenset[str]
    amount: int


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """Damage as rolled (before the target's defenses): per-type portions, the dice shown, the multiplier."""

    portions: tuple[DamagePortion, ...]
    total: int
    times_rolled: int
    nonlethal: bool
    minimum_applied: bool
    rolls: tuple[str, ...]  # human-readable dice, one per roll
    ledger: tuple[LedgerLine, ...]


@dataclass(frozen=True, slots=True)
class DamageOutcome:
    """Damage after the target's defenses: the amount to apply to temp HP/SP/HP and the ledger of every step.
    ``negated`` is True when defenses reduced a damaging attack to 0 (riders are negated too, SPA-08/11)."""

    amount: int
    nonlethal: bool
    negated: bool
    by_type: tuple[DamagePortion, ...]
    ledger: tuple[LedgerLine, ...]
