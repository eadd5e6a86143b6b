"""Exact probability distributions of dice expressions and attacks (with icepool).

For analysis, never for play: the odds of an attack hitting a given AC, of a critical hit, and the full
distribution and expectation of its damage, crits included. Probabilities are exact fractions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import icepool

from sftactics.dice.expr import DiceExpr


def _term_die(count: int, sides: int, sign: int) -> Any:
    if sides == 0:
        return icepool.Die([sign * count])
    die = count @ icepool.d(sides)
    return -die if sign < 0 else die


@lru_cache(maxsize=1024)
def expr_die(expr: DiceExpr, bonus: int = 0) -> Any:
    """The distribution of one roll of ``expr`` plus a flat ``bonus`` (an icepool Die)."""
    die: Any = icepool.Die([bonus])
    for t in expr.terms:
        die = die + _term_die(t.count, t.sides, t.sign)
    return die


def damage_die(expr: DiceExpr, bonus: int = 0, times: int = 1) -> Any:
    """Damage of ``times`` independent rolls of ``expr + bonus`` (a critical rolls twice, DMG-04), with the
    minimum of 1 when penalties would take it lower (DMG-05)."""
    one = expr_die(expr, bonus)
    total: Any = one
    for _ in range(times - 1):
        total = total + one
    return total.map(lambda x: max(1, x)) if bonus < 0 else total


def chances(attack_bonus: int, ac: int) -> tuple[Fraction, Fraction]:
    """(hit chance, critical chance) of a d20 attack: natural 20 always hits, natural 1 always misses
    (ATK-05); only a natural 20 whose total also meets the AC is a critical hit (ATK-14)."""
    hits = 0
    crits = 0
    for natural in range(1, 21):
        total = natural + attack_bonus
        if natural == 20:
            hits += 1
            crits += 1 if total >= ac else 0
        elif natural != 1 and total >= ac:
            hits += 1
    return Fraction(hits, 20), Fraction(crits, 20)


@dataclass(frozen=True, slots=True)
class AttackOdds:
    attack_bonus: int
    ac: int
    hit: Fraction
    critical: Fraction
    expected_damage: Fraction
    expected_on_hit: Fraction
    damage: Any  # icepool Die over damage per attack (0 on a miss)

    def table(self) -> list[tuple[int, Fraction]]:
        return [(int(k), Fraction(q, self.damage.denominator())) for k, q in self.damage.items()]


def attack_odds(
    attack_bonus: int,
    ac: int,
    damage: DiceExpr | None = None,
    damage_bonus: int = 0,
    crit_immune: bool = False,
) -> AttackOdds:
    """Exact odds of one attack against ``ac``: chance to hit, to crit, and the damage distribution."""
    hit, crit = chances(attack_bonus, ac)
    if crit_immune:
        crit = Fraction(0)
    if damage is None:
        zero = icepool.Die([0])
        return AttackOdds(attack_bonus, ac, hit, crit, Fraction(0), Fraction(0), zero)
    normal = damage_die(damage, damage_bonus, 1)
    doubled = damage_die(damage, damage_bonus, 2)
    miss = 1 - hit
    parts = []
    weights = []
    for die, p in ((icepool.Die([0]), miss), (normal, hit - crit), (doubled, crit)):
        if p:
            parts.append(die)
            weights.append(int(p * 20))
    mix = icepool.Die(parts, times=weights)
    expected = Fraction(mix.mean())
    on_hit = Fraction(0) if hit == 0 else (expected / hit)
    return AttackOdds(attack_bonus, ac, hit, crit, expected, on_hit, mix)


def check_chance(bonus: int, dc: int, natural_rules: bool = True) -> Fraction:
    """Chance that d20 + ``bonus`` meets ``dc`` (with natural 1/20 for attacks and saves)."""
    ok = 0
    for natural in range(1, 21):
        success = natural + bonus >= dc
        if natural_rules:
            success = natural == 20 or (natural != 1 and success)
        ok += success
    return Fraction(ok, 20)
