"""Degrees of success (E2-03, E2-04): the four outcomes of every 2E check.

The total is compared with the DC: 10 or more over the DC is a critical success, meeting it a success, falling
short a failure, and 10 or more short a critical failure. A natural 20 then moves the result one step up, a natural
1 one step down; the steps stop at the ends (a critical success stays one).

This module is deliberately tiny and pure: :class:`Degree` is an ordered enum and :class:`DegreeOfSuccess` a value
that remembers how the degree was reached, so an explanation can say "failure, improved to success by a natural
20".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Degree(IntEnum):
    """The four degrees, ordered from worst to best so they compare and shift as numbers."""

    CRITICAL_FAILURE = 0
    FAILURE = 1
    SUCCESS = 2
    CRITICAL_SUCCESS = 3

    def shifted(self, steps: int) -> Degree:
        """This degree moved ``steps`` up (negative: down), kept within the four degrees."""
        return Degree(min(max(self + steps, Degree.CRITICAL_FAILURE), Degree.CRITICAL_SUCCESS))

    def improved(self) -> Degree:
        return self.shifted(1)

    def worsened(self) -> Degree:
        return self.shifted(-1)

    @property
    def succeeded(self) -> bool:
        """Success or critical success."""
        return self >= Degree.SUCCESS

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")


#: How far past the DC (either way) makes a result critical (E2-03).
CRITICAL_MARGIN = 10


def degree_for(total: int, dc: int) -> Degree:
    """The degree of a total against a DC, before any natural 20 or 1 (E2-03)."""
    if total >= dc + CRITICAL_MARGIN:
        return Degree.CRITICAL_SUCCESS
    if total >= dc:
        return Degree.SUCCESS
    if total <= dc - CRITICAL_MARGIN:
        return Degree.CRITICAL_FAILURE
    return Degree.FAILURE


def natural_shift(natural: int | None) -> int:
    """The step a natural die result gives (E2-04): +1 for a 20, -1 for a 1, 0 otherwise or with no die."""
    if natural == 20:
        return 1
    if natural == 1:
        return -1
    return 0


@dataclass(frozen=True, slots=True)
class DegreeOfSuccess:
    """A total against a DC and, if a d20 was rolled, its natural result.

    ``natural`` is None when no die decides (an automatic result, or a total given without its roll).
    """

    total: int
    dc: int
    natural: int | None = None

    @property
    def unshifted(self) -> Degree:
        """The degree from the numbers alone (E2-03)."""
        return degree_for(self.total, self.dc)

    @property
    def shift(self) -> int:
        return natural_shift(self.natural)

    @property
    def degree(self) -> Degree:
        """The final degree: the unshifted one moved a step by a natural 20 or 1 (E2-04)."""
        return self.unshifted.shifted(self.shift)

    def describe(self, dc_label: str = "DC") -> str:
        out = f"{self.total} vs {dc_label} {self.dc}: {self.unshifted.label}"
        if self.degree is not self.unshifted:
            verb = "improved" if self.shift > 0 else "worsened"
            out += f", {verb} to {self.degree.label} by a natural {self.natural}"
        elif self.shift:
            out += f" (natural {self.natural}: already the {'best' if self.shift > 0 else 'worst'} degree)"
        return out
