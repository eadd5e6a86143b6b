"""Exact odds of a 2E check or Strike: the chance of each degree of success over the twenty faces of the d20
(E2-03, E2-04), and the expected damage of a Strike (a critical success doubles the total, E2-22)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sftactics.dice.expr import parse
from sftactics.sf2e.degrees import Degree, DegreeOfSuccess


@dataclass(frozen=True, slots=True)
class Odds2e:
    """The chance of each degree (``chances[Degree]``), and with damage its mean on a hit and per Strike."""

    modifier: int
    dc: int
    chances: dict[Degree, Fraction]
    damage_mean: Fraction | None = None
    minimum_damage: int = 0

    @property
    def expected_damage(self) -> Fraction | None:
        """Per Strike: success deals the damage, a critical success twice it (E2-22), failures nothing."""
        if self.damage_mean is None:
            return None
        return self.chances[Degree.SUCCESS] * self.damage_mean + self.chances[Degree.CRITICAL_SUCCESS] * 2 * (
            self.damage_mean
        )

    def faces(self, degree: Degree) -> list[int]:
        """The natural d20 results that give ``degree``."""
        return [n for n in range(1, 21) if DegreeOfSuccess(n + self.modifier, self.dc, n).degree is degree]


def check_odds(modifier: int, dc: int, damage: str | None = None, *, minimum_damage: int = 0) -> Odds2e:
    """The odds of d20 + ``modifier`` against ``dc``; ``damage`` (a plain expression, e.g. ``1d8+4``) adds its
    mean, counting a total below ``minimum_damage`` as that (``Sf2eOptions.minimum_damage``)."""
    counts = dict.fromkeys(Degree, 0)
    for natural in range(1, 21):
        counts[DegreeOfSuccess(natural + modifier, dc, natural).degree] += 1
    chances = {d: Fraction(n, 20) for d, n in counts.items()}
    mean = None if damage is None else _mean(damage, minimum_damage)
    return Odds2e(modifier, dc, chances, mean, minimum_damage)


def _mean(text: str, floor: int) -> Fraction:
    """The exact mean of a plain damage expression, each total below ``floor`` counted as ``floor``."""
    expr = parse(text)
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for t in expr.terms:
        faces = [t.sign * t.count] if t.is_flat else None
        for _ in range(1 if t.is_flat else t.count):
            step = faces or [t.sign * v for v in range(1, t.sides + 1)]
            new: dict[int, Fraction] = {}
            for total, p in dist.items():
                for v in step:
                    new[total + v] = new.get(total + v, Fraction(0)) + p / len(step)
            dist = new
    return sum((max(floor, v) * p for v, p in dist.items()), Fraction(0))
