"""A ledger line: one explained step of a damage pipeline, shared by both editions' damage rules.

Where a :class:`~sftactics.core.breakdown.Breakdown` explains how a number is made, a ledger explains what
happened to it afterwards (halved, reduced by DR, doubled by a critical hit...), step by step.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One step of a damage pipeline: what happened and by how much the running total changed."""

    step: str
    amount: int
    detail: str
    rule: str = ""

    def describe(self) -> str:
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{self.step}: {self.detail}{rule}"
