"""Rolling a parsed expression with an injected dice source."""

from __future__ import annotations

from dataclasses import dataclass

from sftactics.dice.expr import DiceExpr, DiceTerm
from sftactics.dice.source import DiceSource


@dataclass(frozen=True, slots=True)
class PartRoll:
    """The dice shown and the total for one typed part of an expression."""

    types: frozenset[str]
    dice: tuple[tuple[DiceTerm, tuple[int, ...]], ...]
    total: int

    def describe(self) -> str:
        bits = []
        for term, faces in self.dice:
            sign = "-" if term.sign < 0 else "+"
            bits.append(f"{sign}{term.count}" if term.is_flat else f"{sign}{term}[{','.join(map(str, faces))}]")
        text = " ".join(bits).lstrip("+")
        return text + (f" {' & '.join(sorted(self.types))}" if self.types else "")


@dataclass(frozen=True, slots=True)
class RolledExpr:
    """An expression rolled once: per-part results and the grand total."""

    expr: DiceExpr
    parts: tuple[PartRoll, ...]

    @property
    def total(self) -> int:
        return sum(p.total for p in self.parts)

    def describe(self) -> str:
        return " + ".join(p.describe() for p in self.parts) + f" = {self.total}"


def roll(expr: DiceExpr, dice: DiceSource, purpose: str = "") -> RolledExpr:
    """Roll every die of ``expr`` once from ``dice``; each die is recorded with ``purpose``."""
    parts = []
    for part in expr.parts:
        shown = []
        total = 0
        for term in part.terms:
            if term.is_flat:
                faces: tuple[int, ...] = ()
                value = term.count
            else:
                faces = tuple(dice.die(term.sides, purpose) for _ in range(term.count))
                value = sum(faces)
            shown.append((term, faces))
            total += term.sign * value
        parts.append(PartRoll(part.types, tuple(shown), total))
    return RolledExpr(expr, tuple(parts))
