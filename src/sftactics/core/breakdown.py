"""Explained numbers: a :class:`Breakdown` is a total together with the terms that make it.

Every derived number in the engine (attack total, AC, damage bonus, DC, speed) is a Breakdown, so it can be
shown to a person term by term, each with its source and the inventory rule behind it.

Bonus stacking (BON-01..13) lives in exactly one function, :func:`stack`:

* ``BASE`` terms (the 10 of an AC, base attack bonus, an ability modifier, a printed total) are not bonuses in
  the stacking sense; they always count, negative or not;
* untyped bonuses stack with everything (BON-01);
* typed bonuses of the same type do not stack: the highest counts (BON-01, BON-03, BON-06..11);
* circumstance bonuses stack unless they come from the same source (BON-05);
* morale bonuses do not apply to creatures without Intelligence (BON-10);
* penalties have no type; the same penalty (same ``source``) counts once, at its worst; penalties from
  different sources stack (BON-12);
* a term may apply only in some situations (``when``): it counts only when every tag in ``when`` is in the
  situation's tags, so "+4 morale vs death effects" competes with "+2 morale" only on death-effect saves (EX-12).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class BonusType(StrEnum):
    BASE = "base"
    UNTYPED = "untyped"
    ARMOR = "armor"
    CIRCUMSTANCE = "circumstance"
    DIVINE = "divine"
    ENHANCEMENT = "enhancement"
    INSIGHT = "insight"
    LUCK = "luck"
    MORALE = "morale"
    RACIAL = "racial"


@dataclass(frozen=True, slots=True)
class Term:
    """One contribution to a number.

    ``source`` is the identity used for same-source stacking (defaults to ``label``); ``when`` lists the
    situation tags the term needs (e.g. ``{"vs:death"}``).
    """

    value: int
    label: str
    rule: str = ""
    type: BonusType = BonusType.UNTYPED
    source: str = ""
    when: frozenset[str] = field(default_factory=frozenset)

    @property
    def key(self) -> str:
        return self.source or self.label

    @property
    def is_penalty(self) -> bool:
        return self.value < 0 and self.type is not BonusType.BASE

    def describe(self) -> str:
        kind = "" if self.type in (BonusType.BASE, BonusType.UNTYPED) or self.value < 0 else f" {self.type}"
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{self.value:+d}{kind} {self.label}{rule}"

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"value": self.value, "label": self.label, "type": str(self.type)}
        if self.rule:
            d["rule"] = self.rule
        if self.source:
            d["source"] = self.source
        if self.when:
            d["when"] = sorted(self.when)
        return d


@dataclass(frozen=True, slots=True)
class Suppressed:
    term: Term
    reason: str


@dataclass(frozen=True, slots=True)
class Breakdown:
    """A total and its explanation: the terms applied and the ones left out (with why)."""

    label: str
    total: int
    applied: tuple[Term, ...]
    suppressed: tuple[Suppressed, ...] = ()

    def __int__(self) -> int:
        return self.total

    def describe(self) -> str:
        body = " ".join(t.describe() for t in self.applied) or "0"
        return f"{self.label} {self.total} = {body}"

    def lines(self) -> list[str]:
        out = [t.describe() for t in self.applied]
        out += [f"(not counted: {s.term.describe()} - {s.reason})" for s in self.suppressed]
        return out

    def to_dict(self) -> dict[str, object]:
        return {
            "label": self.label,
            "total": self.total,
            "terms": [t.to_dict() for t in self.applied],
            "suppressed": [{**s.term.to_dict(), "reason": s.reason} for s in self.suppressed],
        }

    def plus(self, *terms: Term, tags: frozenset[str] = frozenset()) -> Breakdown:
        """A new breakdown with more terms (restacked together with the applied ones)."""
        return explain(self.label, (*self.applied, *terms), tags=tags)


def stack(
    terms: Iterable[Term], *, tags: frozenset[str] = frozenset(), morale_ok: bool = True
) -> tuple[list[Term], list[Suppressed]]:
    """Apply the stacking rules (module docstring) to ``terms``; returns (applied, suppressed)."""
    kept: list[int] = []
    suppressed: list[Suppressed] = []
    best_typed: dict[BonusType, int] = {}
    best_circ: dict[str, int] = {}
    worst_pen: dict[str, int] = {}
    items = list(terms)

    def compete(table: dict[Any, int], key: Any, i: int, better: bool, reason: str) -> None:
        prev = table.get(key)
        if prev is None:
            table[key] = i
        elif better:
            suppressed.append(Suppressed(items[prev], reason))
            table[key] = i
        else:
            suppressed.append(Suppressed(items[i], reason))

    for i, t in enumerate(items):
        if t.when and not t.when <= tags:
            suppressed.append(Suppressed(t, "does not apply here"))
        elif t.value == 0 and t.type is not BonusType.BASE:
            continue
        elif t.type is BonusType.BASE or (t.type is BonusType.UNTYPED and t.value > 0):
            kept.append(i)
        elif t.value < 0:
            prev = worst_pen.get(t.key)
            same = items[prev].label if prev is not None else ""
            worse = prev is not None and t.value < items[prev].value
            compete(worst_pen, t.key, i, worse, f"same penalty as {same if not worse else t.label} (BON-12)")
        elif t.type is BonusType.MORALE and not morale_ok:
            suppressed.append(Suppressed(t, "no Intelligence: no morale bonuses (BON-10)"))
        elif t.type is BonusType.CIRCUMSTANCE:
            prev = best_circ.get(t.key)
            higher = prev is not None and t.value > items[prev].value
            compete(best_circ, t.key, i, higher, "same source circumstance bonus (BON-05)")
        else:
            prev = best_typed.get(t.type)
            higher = prev is not None and t.value > items[prev].value
            compete(best_typed, t.type, i, higher, f"{t.type} bonuses do not stack (BON-01)")
    chosen = set(kept) | set(best_typed.values()) | set(best_circ.values()) | set(worst_pen.values())
    return [t for i, t in enumerate(items) if i in chosen], suppressed


def explain(
    label: str, terms: Iterable[Term], *, tags: frozenset[str] = frozenset(), morale_ok: bool = True
) -> Breakdown:
    """Stack ``terms`` and total them into a :class:`Breakdown`."""
    applied, suppressed = stack(terms, tags=tags, morale_ok=morale_ok)
    return Breakdown(label, sum(t.value for t in applied), tuple(applied), tuple(suppressed))


def constant(label: str, value: int, rule: str = "") -> Breakdown:
    """A number with a single base term (a printed DC, a fixed AC 15)."""
    return Breakdown(label, value, (Term(value, label, rule, BonusType.BASE),))


def half(value: int) -> int:
    """Half, rounded down (GEN-03): ``half(7) == 3``. Negative values round toward minus infinity."""
    return value // 2


def combine_multipliers(multipliers: Iterable[float]) -> float:
    """Several multipliers on one value add their excess over 1 (GEN-04): x2 and x2 make x3, not x4."""
    return 1 + sum(m - 1 for m in multipliers)
