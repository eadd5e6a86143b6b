"""2E modifiers and their stacking (E2-05, E2-06).

Why a second stacking function: the 1st-edition one (:func:`sftactics.core.breakdown.stack`, BON-01..13) knows
the 1E bonus types (armor, enhancement, insight, morale...), lets circumstance bonuses from different sources add
up and groups penalties by source. The 2E rules are different in each of those points:

* there are three bonus types, **circumstance**, **item** and **status**, and of each only the **highest**
  bonus counts (circumstance bonuses included);
* penalties are typed too: of each type only the **worst** penalty counts, and **untyped penalties all stack**;
* a bonus and a penalty of the same type both count (they are compared separately);
* untyped bonuses are not mentioned by the seed: ``Sf2eOptions.untyped_bonuses`` decides (default: they stack).

The 2E terms are still :class:`~sftactics.core.breakdown.Term` values (a :class:`Mod` is a ``Term`` with a 2E
``kind``), so a 2E number is an ordinary :class:`~sftactics.core.breakdown.Breakdown` that every view can show.
One caution: ``Breakdown.plus`` restacks with the 1E rules; to add terms to a 2E number use :func:`add`.

``BASE`` terms are the parts of a formula that are not bonuses at all (the 10 of a DC, the attribute modifier,
the proficiency bonus): they always count, negative or not.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from sftactics.core.breakdown import BonusType, Breakdown, Suppressed, Term
from sftactics.sf2e.options import DEFAULT_OPTIONS, Sf2eOptions


class Kind(StrEnum):
    """The 2E kinds of terms: formula parts (base), untyped, and the three bonus/penalty types."""

    BASE = "base"
    UNTYPED = "untyped"
    CIRCUMSTANCE = "circumstance"
    ITEM = "item"
    STATUS = "status"


_MIRROR = {Kind.BASE: BonusType.BASE, Kind.CIRCUMSTANCE: BonusType.CIRCUMSTANCE}
_FROM_1E = {BonusType.BASE: Kind.BASE, BonusType.UNTYPED: Kind.UNTYPED, BonusType.CIRCUMSTANCE: Kind.CIRCUMSTANCE}


@dataclass(frozen=True, slots=True)
class Mod(Term):
    """A 2E term: a :class:`Term` with a 2E ``kind``.

    The inherited ``type`` mirrors the kind where 1E has the same word (base, circumstance) and is ``untyped``
    otherwise, so code that reads only ``Term`` (``is_penalty``, views) still behaves.
    """

    kind: Kind = Kind.UNTYPED

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", _MIRROR.get(self.kind, BonusType.UNTYPED))

    def describe(self) -> str:
        kind = "" if self.kind in (Kind.BASE, Kind.UNTYPED) else f" {self.kind}"
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{self.value:+d}{kind} {self.label}{rule}"

    def to_dict(self) -> dict[str, object]:
        d = Term.to_dict(self)
        d["type"] = str(self.kind)
        return d


def mod(
    value: int,
    label: str,
    kind: Kind = Kind.UNTYPED,
    rule: str = "",
    *,
    source: str = "",
    when: Iterable[str] = (),
) -> Mod:
    """Shorthand for a :class:`Mod` (``when`` lists situation tags the term needs)."""
    return Mod(value, label, rule, source=source, when=frozenset(when), kind=kind)


def base(value: int, label: str, rule: str = "") -> Mod:
    """A formula part that always counts (the 10 of a DC, an attribute modifier, a proficiency bonus)."""
    return Mod(value, label, rule, kind=Kind.BASE)


def kind_of(term: Term) -> Kind:
    """The 2E kind of any term; a plain 1E term must be base, untyped or circumstance."""
    if isinstance(term, Mod):
        return term.kind
    if term.type not in _FROM_1E:
        raise ValueError(f"a {term.type} term ({term.label}) has no meaning in the 2E rules")
    return _FROM_1E[term.type]


def stack(
    terms: Iterable[Term], *, tags: frozenset[str] = frozenset(), options: Sf2eOptions = DEFAULT_OPTIONS
) -> tuple[list[Term], list[Suppressed]]:
    """Apply the 2E stacking rules (module docstring) to ``terms``; returns (applied, suppressed)."""
    items = list(terms)
    suppressed: list[Suppressed] = []
    chosen: set[int] = set()
    best: dict[tuple[Kind, bool], int] = {}  # (kind, is_penalty) -> index of the term that counts
    for i, t in enumerate(items):
        k = kind_of(t)
        if t.when and not t.when <= tags:
            suppressed.append(Suppressed(t, "does not apply here"))
            continue
        if t.value == 0 and k is not Kind.BASE:
            continue
        penalty = t.value < 0
        if k is Kind.BASE or (k is Kind.UNTYPED and (penalty or options.untyped_bonuses == "stack")):
            chosen.add(i)
            continue
        key = (k, penalty)
        prev = best.get(key)
        if prev is None:
            best[key] = i
            continue
        stronger = abs(t.value) > abs(items[prev].value)
        loser, best[key] = (prev, i) if stronger else (i, prev)
        plural = "penalties" if penalty else "bonuses"
        what = plural if k is Kind.UNTYPED else f"{k} {plural}"
        keep = "worst" if penalty else "highest"
        suppressed.append(Suppressed(items[loser], f"{what} do not stack: only the {keep} counts (E2-06)"))
    chosen |= set(best.values())
    return [t for i, t in enumerate(items) if i in chosen], suppressed


def explain(
    label: str, terms: Iterable[Term], *, tags: frozenset[str] = frozenset(), options: Sf2eOptions = DEFAULT_OPTIONS
) -> Breakdown:
    """Stack ``terms`` by the 2E rules and total them into a :class:`Breakdown`."""
    applied, suppressed = stack(terms, tags=tags, options=options)
    return Breakdown(label, sum(t.value for t in applied), tuple(applied), tuple(suppressed))


def add(
    number: Breakdown,
    *terms: Term,
    tags: frozenset[str] = frozenset(),
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> Breakdown:
    """``number`` with more terms, restacked by the 2E rules together with the terms it already counts.

    Terms the number had already left out stay out (they lost against terms it still has).
    """
    again = explain(number.label, (*number.applied, *terms), tags=tags, options=options)
    return Breakdown(again.label, again.total, again.applied, (*number.suppressed, *again.suppressed))


def dc_from(modifier: Breakdown, label: str = "", rule: str = "E2-09") -> Breakdown:
    """The DC of a statistic: 10 + its total modifier (E2-09), keeping the modifier's terms as the explanation."""
    name = label or f"{modifier.label} DC"
    ten = base(10, "DC base", rule)
    return Breakdown(name, 10 + modifier.total, (ten, *modifier.applied), modifier.suppressed)


# --- proficiency (E2-05) --------------------------------------------------------------------------------


class Proficiency(IntEnum):
    """Proficiency ranks, ordered; the bonus is level + 2 per rank above untrained (untrained: +0)."""

    UNTRAINED = 0
    TRAINED = 1
    EXPERT = 2
    MASTER = 3
    LEGENDARY = 4

    def bonus(self, level: int) -> int:
        """The proficiency bonus at ``level`` (E2-05): +0 untrained; level + 2/4/6/8 trained...legendary."""
        return 0 if self is Proficiency.UNTRAINED else level + 2 * int(self)

    @property
    def label(self) -> str:
        return self.name.lower()


def proficiency_term(rank: Proficiency, level: int, what: str = "") -> Mod:
    """The proficiency bonus as a base term, labelled with the rank and how it was counted."""
    how = "+0" if rank is Proficiency.UNTRAINED else f"level {level} + {2 * int(rank)}"
    label = f"{rank.label} proficiency{' in ' + what if what else ''} ({how})"
    return base(rank.bonus(level), label, "E2-05")
