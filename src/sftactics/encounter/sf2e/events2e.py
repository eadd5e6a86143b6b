"""The 2E events: checks with their degree of success, Strikes, a creature's new state, the action economy.

Like every event they carry results, never instructions: replaying them needs no dice and no rules. A check's
data says what was rolled, the modifier and the DC with their terms, the degree from the numbers and the degree
after a natural 20 or 1 (and why), so narration and tools read the same numbers (docs/events.md).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from sftactics.core.breakdown import Breakdown, Term
from sftactics.core.ledger import LedgerLine
from sftactics.encounter.outcomes import BreakdownData, TermData
from sftactics.encounter.sf2e.model import Body2e
from sftactics.sf2e.checks import Check2e
from sftactics.sf2e.creature import Creature2e
from sftactics.sf2e.modifiers import Mod

Degree2e = Literal["critical success", "success", "failure", "critical failure"]


class _Ev(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def term2e(t: Term) -> TermData:
    """A 2E term as data: its kind (circumstance, item, status, untyped, base) is its type."""
    kind = t.kind.value if isinstance(t, Mod) else str(t.type)
    return TermData(value=t.value, label=t.label, type=kind, rule=t.rule, source=t.source)


def breakdown2e(b: Breakdown) -> BreakdownData:
    return BreakdownData(label=b.label, total=b.total, terms=tuple(term2e(t) for t in b.applied))


class Check2eData(BaseModel):
    """One 2E check (E2-02..08): the kept d20 (``natural``; every d20 in ``rolls``), the modifier and the DC
    with their terms, the ``total``; the degree from the numbers (``unshifted``) and the final ``degree``,
    moved one step by a natural 20 or 1 (``why`` says so). An automatic flat check has no die: ``automatic``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str
    natural: int | None
    rolls: tuple[int, ...] = ()
    modifier: BreakdownData
    dc: BreakdownData
    total: int | None
    unshifted: Degree2e | None = None
    degree: Degree2e
    why: str = ""
    flat: bool = False
    automatic: str = ""
    note: str = ""


def check2e(c: Check2e) -> Check2eData:
    why = ""
    unshifted = None
    if c.outcome is not None:
        unshifted = c.outcome.unshifted.label
        if c.outcome.degree is not c.outcome.unshifted:
            verb = "one step better" if c.outcome.shift > 0 else "one step worse"
            why = f"natural {c.natural}: {verb} (E2-04)"
    return Check2eData(
        label=c.label, natural=c.natural, rolls=c.rolls, modifier=breakdown2e(c.modifier), dc=breakdown2e(c.dc),
        total=c.total, unshifted=unshifted, degree=c.degree.label, why=why, flat=c.flat, automatic=c.automatic,
        note=c.note,
    )  # fmt: skip


class LedgerData(BaseModel):
    """One step of 2E damage or injury: what happened, the amount it changed, the rule."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    step: str
    amount: int = 0
    detail: str
    rule: str = ""


def ledger2e(lines: tuple[LedgerLine, ...] | list[LedgerLine]) -> tuple[LedgerData, ...]:
    return tuple(LedgerData(step=x.step, amount=x.amount, detail=x.detail, rule=x.rule) for x in lines)


class Creature2eChanged(_Ev):
    """A 2E creature's new live state, with the steps that changed it (damage, injury, healing, conditions)."""

    type: Literal["creature2e_changed"] = "creature2e_changed"
    id: str
    creature: Creature2e
    steps: tuple[LedgerData, ...] = ()
    notes: tuple[str, ...] = ()


class Body2eChanged(_Ev):
    """Bookkeeping on a 2E combatant's turn (actions left, reaction, attacks, cover taken, who perceives it)."""

    type: Literal["body2e_changed"] = "body2e_changed"
    id: str
    changes: dict[str, Any]


class Acted2e(_Ev):
    """An action taken: its name, what it cost (1-3 actions, ``reaction`` or ``free``), the actions left."""

    type: Literal["acted2e"] = "acted2e"
    id: str
    action: str
    cost: Literal["1", "2", "3", "reaction", "free"] = "1"
    left: int
    rule: str = "E2-42"


class Check2eMade(_Ev):
    """A check with its degree of success: a save, a flat check, a recovery check, Perception (Seek,
    initiative)..."""

    type: Literal["check2e_made"] = "check2e_made"
    id: str
    what: str
    check: Check2eData
    notes: tuple[str, ...] = ()


class Strike2eMade(_Ev):
    """One Strike (E2-10..14, E2-50): the targeting flat check (concealed, hidden), the attack roll against AC
    with its degree, and the damage through the target's defenses (``damage``: each step; ``total``: dealt)."""

    type: Literal["strike2e_made"] = "strike2e_made"
    attacker: str
    target: str
    weapon: str
    attack_number: int = 1
    targeting: Check2eData | None = None
    attack: Check2eData | None = None
    degree: Degree2e
    damage: tuple[LedgerData, ...] = ()
    total: int = 0
    notes: tuple[str, ...] = ()


def body_with(body: Body2e, **changes: Any) -> Body2e:
    """``body`` with fields replaced, each given its own type again (values read back from JSON are lists)."""
    return Body2e.model_validate({**body.model_dump(), **changes})
