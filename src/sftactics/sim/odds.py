"""Exact odds for decisions: the kernel's numbers and the kernel's dice distributions, cached.

Policies compare options by expected damage against the target's actual AC (cover, flanking, range and
conditions included), using :func:`sftactics.dice.distribution.attack_odds` for the exact distribution of one
attack (misses, normal hits and doubled critical hits) and the kernel's breakdowns for the attack bonus, the AC
and the damage bonus. On top of the distribution a :class:`DamageTable` gives the chance to bring a target to 0
(``p_at_least``) and the expected damage that counts (``capped_mean``: damage beyond what the target has left
is wasted).

Approximations (documented in ``docs/simulation.md``): DR and energy resistance are subtracted from each attack
(the smallest reduction when a weapon deals several types, as the kernel does for a portion protected against
every type); vulnerability, incorporeal halving and critical hit effects are ignored; a concealment miss chance
turns that share of hits into misses.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import icepool

from sftactics.core.breakdown import Breakdown, Term, explain
from sftactics.dice.distribution import attack_odds, check_chance
from sftactics.dice.expr import DiceExpr, damage_type
from sftactics.sf1e import criticals, stats
from sftactics.sf1e.attack import Situation, attack_terms_against, target_ac
from sftactics.sf1e.damage import best_dr
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.state import Creature

KINETIC = frozenset({"bludgeoning", "piercing", "slashing"})
IMMUNE = 10_000  # a reduction that takes everything


@dataclass(frozen=True, slots=True)
class DamageTable:
    """The distribution of damage dealt by a number of attacks (0 on a miss): values ascending, probabilities."""

    values: tuple[int, ...]
    probs: tuple[float, ...]
    mean: float
    hit: float  # chance that at least some damage gets through

    def p_at_least(self, amount: int) -> float:
        """Chance of dealing at least ``amount`` (1.0 for nothing to deal)."""
        if amount <= 0:
            return 1.0
        return sum(p for v, p in zip(self.values, self.probs, strict=True) if v >= amount)

    def capped_mean(self, cap: int) -> float:
        """Expected damage counting at most ``cap`` (what the target has left)."""
        return sum(min(v, cap) * p for v, p in zip(self.values, self.probs, strict=True))


def _table(die: Any) -> DamageTable:
    den = die.denominator()
    items = sorted((int(k), q / den) for k, q in die.items())
    values = tuple(v for v, _ in items)
    probs = tuple(p for _, p in items)
    mean = sum(v * p for v, p in items)
    hit = sum(p for v, p in items if v > 0)
    return DamageTable(values, probs, mean, hit)


@lru_cache(maxsize=65_536)
def damage_table(
    attack_bonus: int,
    ac: int,
    expr: DiceExpr,
    damage_bonus: int,
    *,
    crit_immune: bool = False,
    reduction: int = 0,
    miss_chance: int = 0,
    attacks: int = 1,
) -> DamageTable:
    """Exact damage distribution of ``attacks`` independent attacks at ``attack_bonus`` against ``ac`` (the
    kernel's :func:`attack_odds`), after a flat ``reduction`` per attack and a ``miss_chance`` (percent)."""
    die: Any = attack_odds(attack_bonus, ac, expr, damage_bonus, crit_immune=crit_immune).damage
    if reduction:
        r = reduction
        die = die.map(lambda x: max(0, x - r))
    if miss_chance > 0:
        m = min(100, miss_chance)
        die = icepool.Die([die, icepool.Die([0])], times=[100 - m, m]) if m < 100 else icepool.Die([0])
    total = die
    for _ in range(attacks - 1):
        total = total + die
    return _table(total)


@lru_cache(maxsize=65_536)
def flat_table(expr: DiceExpr, bonus: int, reduction: int, p_apply: float, p_half: float) -> DamageTable:
    """Damage of an effect that applies with chance ``p_apply`` (a grenade reaching its point) and is halved
    with chance ``p_half`` (a successful save), after ``reduction``: an approximation of the distribution that
    keeps the exact mean of each branch."""
    from sftactics.dice.distribution import damage_die

    full: Any = damage_die(expr, bonus)
    if reduction:
        r = reduction
        full = full.map(lambda x: max(0, x - r))
    half: Any = full.map(lambda x: x // 2)
    weights = [round(1000 * p_apply * (1 - p_half)), round(1000 * p_apply * p_half)]
    weights.append(1000 - sum(weights))
    parts = [d for d, w in zip((full, half, icepool.Die([0])), weights, strict=True) if w > 0]
    times = [w for w in weights if w > 0]
    return _table(icepool.Die(parts, times=times))


@lru_cache(maxsize=4096)
def chance(bonus: int, dc: int) -> float:
    """Chance that a d20 + ``bonus`` meets ``dc`` (natural 1 and 20 as for saves and attacks)."""
    return float(check_chance(bonus, dc))


# ---------------------------------------------------------------- the kernel's numbers
def attack_numbers(
    attacker: Creature,
    defender: Creature,
    weapon: Weapon,
    attack_terms: tuple[Any, ...],
    ac_terms: tuple[Any, ...],
    options: Sf1eOptions,
    extra_attack: tuple[Any, ...] = (),
) -> tuple[int, int, int]:
    """(attack bonus, target AC, damage bonus) of ``attacker`` hitting ``defender`` with ``weapon``, with the
    terms the positions give (as :func:`sftactics.encounter.space.attack_geometry` returns them): the kernel's
    own functions, as :func:`sftactics.sf1e.attack.resolve_attack` calls them."""
    extra = [*attack_terms, *extra_attack, *attack_terms_against(attacker, defender, weapon, options)]
    bonus = stats.attack_bonus(attacker, weapon, extra=extra, options=options).total
    ac = target_ac(attacker, defender, weapon, Situation(ac_terms=tuple(ac_terms)), options)[2].total
    dmg = stats.damage_bonus(attacker, weapon, options=options).total
    return bonus, ac, dmg


@dataclass(frozen=True, slots=True)
class AttackBasis:
    """One attacker, weapon and target without the positions: the kernel's breakdowns computed once, so that
    the numbers for each position only restack the position's terms with them (the same stacking, the same
    totals as :func:`attack_numbers`, much cheaper)."""

    label: str
    terms: tuple[Term, ...]  # every term of the attack bonus (applied and suppressed)
    tags: frozenset[str]
    morale_ok: bool
    bonus: int
    ac: Breakdown
    vs: str
    damage_bonus: int
    crit_immune: bool
    reduction: int

    @classmethod
    def of(cls, attacker: Creature, defender: Creature, weapon: Weapon, options: Sf1eOptions) -> AttackBasis:
        against = attack_terms_against(attacker, defender, weapon, options)
        bd = stats.attack_bonus(attacker, weapon, extra=against, options=options)
        ac = target_ac(attacker, defender, weapon, Situation(), options)[2]
        return cls(
            label=bd.label,
            terms=(*bd.applied, *(x.term for x in bd.suppressed)),
            tags=stats.attack_kind_tags(weapon),
            morale_ok=stats.morale_ok(attacker),
            bonus=bd.total,
            ac=ac,
            vs="melee" if weapon.is_melee else "ranged",
            damage_bonus=stats.damage_bonus(attacker, weapon, options=options).total,
            crit_immune=criticals.immune_to_crits(defender),
            reduction=reduction(defender, weapon),
        )

    def numbers(self, attack_terms: tuple[Term, ...] = (), ac_terms: tuple[Term, ...] = ()) -> tuple[int, int]:
        """(attack bonus, AC) with the positions' terms."""
        bonus = self.bonus
        if attack_terms:
            bonus = explain(self.label, (*self.terms, *attack_terms), tags=self.tags, morale_ok=self.morale_ok).total
        ac = self.ac.total
        if ac_terms:
            ac = self.ac.plus(*ac_terms, tags=frozenset({f"vs:{self.vs}"})).total
        return bonus, ac


def crit_immune(defender: Creature) -> bool:
    return criticals.immune_to_crits(defender)


def reduction(defender: Creature, weapon: Weapon) -> int:
    """The flat reduction each hit of ``weapon`` suffers against ``defender``: immunity (everything), DR for
    purely kinetic damage, energy resistance; the smallest when several types must all be reduced."""
    stat = defender.stat
    types = weapon.damage_types
    if not types:
        return 0
    immune = {damage_type(t) for t in stat.immunities if _is_type(t)}
    if types <= immune:
        return IMMUNE
    pools: list[int] = []
    qualities = frozenset(weapon.materials) | frozenset(weapon.alignment) | ({"magic"} if weapon.magic else set())
    dr, _ = best_dr(defender, frozenset(qualities))
    resist = {damage_type(k): v for k, v in stat.resistances.items()}
    for t in types:
        if t in immune:
            continue
        if t in KINETIC:
            pools.append(dr.value if dr is not None else 0)
        else:
            pools.append(resist.get(t, 0))
    return min(pools) if pools else 0


def _is_type(word: str) -> bool:
    try:
        damage_type(word)
    except Exception:
        return False
    return True
