"""Attack rolls, the multiple attack penalty, range, and a Strike from roll to injury (E2-10..14, E2-19, E2-20).

* **Melee attack** = d20 + Str modifier (Dex for a finesse weapon, whichever is higher) + proficiency +
  modifiers (E2-10). **Ranged attack** = d20 + Dex + proficiency + modifiers (E2-11; thrown weapons too).
* **Multiple attack penalty** (E2-13): the second attack of a turn takes -5 (-4 agile), the third and later -10
  (-8 agile), counted with the weapon used for *that* attack; only on the attacker's own turn (a reaction on
  another creature's turn takes none). The count lives in :class:`~sftactics.sf2e.actions.TurnBudget`.
* **Range** (E2-14): no penalty in the first range increment, -2 for each increment after it, at most 6
  increments (a 120-ft rifle reaches 720 ft, with -10 in the sixth increment). How a distance is assigned to an
  increment is ``Sf2eOptions.range_increments`` (the seed's rule and its example disagree); the arithmetic is
  the grid's :func:`~sftactics.grid.geometry.range_increment_number`.
* :func:`strike` resolves one Strike: the flat check for a concealed or hidden target, the attack roll against
  AC (with off-guard from flanking), damage on a success (doubled on a critical success unless the target is
  immune to critical hits), the target's defenses, and the injury.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sftactics.core.breakdown import Breakdown, Term
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.grid.geometry import range_increment_number
from sftactics.grid.options import GridOptions
from sftactics.sf2e.checks import Check2e, roll_check
from sftactics.sf2e.conditions import Awareness, condition_mods, targeting
from sftactics.sf2e.creature import Attribute, Creature2e
from sftactics.sf2e.damage import (
    CRITICAL_HITS,
    DamageKind,
    DamageOutcome2e,
    DamagePart,
    damage,
    damage_bonus,
    mitigate,
    roll_damage,
)
from sftactics.sf2e.defenses import armor_class, statistic
from sftactics.sf2e.degrees import Degree
from sftactics.sf2e.hero_points import reroll_with_hero_point
from sftactics.sf2e.injury import InjuryResult2e, apply_damage
from sftactics.sf2e.modifiers import Kind, Mod, base, mod
from sftactics.sf2e.options import DEFAULT_OPTIONS, Sf2eOptions
from sftactics.sf2e.persistent import add_persistent

#: Maximum range in range increments (E2-14).
MAX_RANGE_INCREMENTS = 6
#: Penalty per range increment beyond the first (E2-14).
RANGE_PENALTY_PER_INCREMENT = 2
#: Multiple attack penalty for the 2nd and for the 3rd and later attacks: (normal, agile) (E2-13).
MAP_SECOND = (5, 4)
MAP_THIRD = (10, 8)

_GRID_READING = {
    "started": GridOptions(range_penalty="fraction"),
    "completed": GridOptions(range_penalty="full"),
}


@dataclass(frozen=True, slots=True)
class Weapon2e:
    """What a Strike needs to know about a weapon. Traits used: ``agile``, ``finesse``, ``thrown``,
    ``propulsive``. ``range_increment`` makes it a ranged weapon unless ``melee`` (a thrown melee weapon has
    both). ``item_bonus`` is an item bonus to attack rolls (XREF: the armory)."""

    name: str
    damage: tuple[DamagePart, ...]
    melee: bool = True
    range_increment: int | None = None
    traits: frozenset[str] = frozenset()
    item_bonus: int = 0
    proficiency: str = "attack"

    def has(self, trait: str) -> bool:
        return trait in self.traits


def weapon(
    name: str,
    dice: str,
    type: str,
    *,
    traits: Iterable[str] = (),
    range_increment: int | None = None,
    melee: bool | None = None,
    item_bonus: int = 0,
    extra_damage: Sequence[DamagePart] = (),
) -> Weapon2e:
    """Shorthand: ``weapon("rifle", "1d8", "piercing", range_increment=120)``."""
    ts = frozenset(traits)
    is_melee = melee if melee is not None else (range_increment is None or "thrown" in ts)
    return Weapon2e(name, (damage(dice, type), *extra_damage), is_melee, range_increment, ts, item_bonus)


def multiple_attack_penalty(attack_number: int, *, agile: bool = False, on_own_turn: bool = True) -> Mod | None:
    """The multiple attack penalty for the ``attack_number``-th attack this turn (E2-13); None if there is none."""
    if attack_number < 1:
        raise ValueError("attacks are counted from 1")
    if attack_number == 1 or not on_own_turn:
        return None
    normal, nimble = MAP_SECOND if attack_number == 2 else MAP_THIRD
    value = nimble if agile else normal
    nth = "2nd" if attack_number == 2 else f"{attack_number}{'rd' if attack_number == 3 else 'th'}"
    return mod(
        -value,
        f"multiple attack penalty ({nth} attack{', agile' if agile else ''})",
        Kind.UNTYPED,
        "E2-13",
        source="MAP",
    )


@dataclass(frozen=True, slots=True)
class RangeCheck2e:
    distance_ft: int
    increment_ft: int
    increment: int
    max_range_ft: int
    in_range: bool
    penalty: Mod | None

    @property
    def value(self) -> int:
        return self.penalty.value if self.penalty else 0


def range_check(distance_ft: int, increment_ft: int, *, options: Sf2eOptions = DEFAULT_OPTIONS) -> RangeCheck2e:
    """The range increment a distance falls in, its penalty, and whether it is within 6 increments (E2-14)."""
    top = increment_ft * MAX_RANGE_INCREMENTS
    n = range_increment_number(distance_ft, increment_ft, _GRID_READING[options.range_increments])
    n = max(1, n)
    pen = None
    if n > 1:
        label = f"range ({distance_ft} ft: increment {n} of {increment_ft} ft)"
        pen = mod(-RANGE_PENALTY_PER_INCREMENT * (n - 1), label, Kind.UNTYPED, "E2-14", source="range")
    return RangeCheck2e(distance_ft, increment_ft, n, top, distance_ft <= top, pen)


def attack_modifier(
    attacker: Creature2e,
    weapon: Weapon2e,
    *,
    ranged: bool | None = None,
    attack_number: int = 1,
    on_own_turn: bool = True,
    distance_ft: int | None = None,
    extra: Iterable[Term] = (),
    tags: frozenset[str] = frozenset(),
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> Breakdown:
    """The attack roll modifier with ``weapon`` (E2-10, E2-11, E2-13, E2-14).

    ``ranged`` picks the mode of a weapon that has both (a thrown melee weapon); by default a weapon is ranged
    when it is not a melee weapon. A ranged attack at ``distance_ft`` beyond 6 increments raises
    :class:`RuleViolation` (E2-14).
    """
    is_ranged = (not weapon.melee) if ranged is None else ranged
    if is_ranged and weapon.range_increment is None:
        raise RuleViolation("E2-11", f"{weapon.name} has no range increment: it can't make ranged attacks")
    if not is_ranged and not weapon.melee:
        raise RuleViolation("E2-10", f"{weapon.name} is not a melee weapon")
    s, d = attacker.attribute(Attribute.STR), attacker.attribute(Attribute.DEX)
    if is_ranged:
        attr = [base(d, "Dex modifier (ranged)", "E2-11")]
    elif weapon.has("finesse") and d > s:
        attr = [base(d, "Dex modifier (finesse)", "E2-10")]
    else:
        attr = [base(s, "Str modifier (melee)", "E2-10")]
    terms: list[Term] = []
    if weapon.item_bonus:
        terms.append(mod(weapon.item_bonus, f"{weapon.name}", Kind.ITEM, "E2-10", source=weapon.name))
    penalty = multiple_attack_penalty(attack_number, agile=weapon.has("agile"), on_own_turn=on_own_turn)
    if penalty is not None:
        terms.append(penalty)
    if is_ranged and distance_ft is not None and weapon.range_increment is not None:
        rc = range_check(distance_ft, weapon.range_increment, options=options)
        if not rc.in_range:
            raise RuleViolation(
                "E2-14", f"{distance_ft} ft is beyond {weapon.name}'s maximum range of {rc.max_range_ft} ft"
            )
        if rc.penalty is not None:
            terms.append(rc.penalty)
    return statistic(
        attacker,
        f"{weapon.name} attack",
        "attack",
        attr,
        weapon.proficiency,
        extra=[*terms, *extra],
        tags=tags,
        options=options,
    )


def damage_kind(weapon: Weapon2e, ranged: bool) -> DamageKind:
    if not ranged:
        return DamageKind.MELEE
    if weapon.has("thrown"):
        return DamageKind.THROWN
    if weapon.has("propulsive"):
        return DamageKind.PROPULSIVE
    return DamageKind.RANGED


@dataclass(frozen=True, slots=True)
class StrikeResult:
    """One Strike: the flat check (if any), the attack, the damage through the target's defenses, the injury."""

    attacker: str
    weapon: str
    targeting: Check2e | None
    attack: Check2e | None
    degree: Degree
    damage: DamageOutcome2e | None = None
    injury: InjuryResult2e | None = None
    notes: tuple[str, ...] = ()
    attacker_after: Creature2e | None = None  # the attacker after spending a Hero Point on a reroll (E2-72)

    @property
    def hit(self) -> bool:
        return self.degree.succeeded

    def target_after(self, target: Creature2e) -> Creature2e:
        return self.injury.creature if self.injury is not None else target

    def describe(self) -> str:
        out = []
        if self.targeting is not None:
            out.append(self.targeting.describe())
        if self.attack is not None:
            out.append(self.attack.describe())
        if self.damage is not None:
            out.append(self.damage.describe())
        if self.injury is not None and self.injury.lines:
            out.append(self.injury.describe())
        return "\n".join([*out, *self.notes])


def strike(
    attacker: Creature2e,
    target: Creature2e,
    weapon: Weapon2e,
    dice: DiceSource,
    *,
    ranged: bool | None = None,
    attack_number: int = 1,
    on_own_turn: bool = True,
    distance_ft: int | None = None,
    awareness: Awareness = Awareness.OBSERVED,
    flanked: bool = False,
    attack_extra: Iterable[Term] = (),
    ac_extra: Iterable[Term] = (),
    damage_extra: Iterable[Term] = (),
    tags: frozenset[str] = frozenset(),
    hero_point: bool = False,
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> StrikeResult:
    """Resolve a Strike (E2-50) from the attack roll to the target's new state. ``hero_point``: if the attack
    roll fails and the attacker has a Hero Point, spend it to reroll, keeping the second result (E2-72).

    Dice are taken in this order: the targeting flat check (concealed/hidden), the d20, the damage dice.
    ``flanked``: the target is off-guard to this attacker (E2-69), which does not stack with being off-guard
    already. ``attack_number`` is the attack's place in the turn (``TurnBudget.attack_number``).
    """
    is_ranged = (not weapon.melee) if ranged is None else ranged
    attack_mod = attack_modifier(
        attacker,
        weapon,
        ranged=is_ranged,
        attack_number=attack_number,
        on_own_turn=on_own_turn,
        distance_ft=distance_ft,
        extra=attack_extra,
        tags=tags,
        options=options,
    )
    aim = targeting(awareness, dice, options)
    if aim is not None and not aim.succeeded:
        return StrikeResult(
            attacker.name, weapon.name, aim, None, Degree.FAILURE, notes=("the flat check fails: the Strike misses",)
        )
    extra_ac = list(ac_extra)
    if flanked:
        extra_ac += condition_mods({"off-guard": 1}, "ac", options)
    ac = armor_class(target, extra=extra_ac, tags=tags, options=options)
    attack = roll_check(f"{attacker.name}'s Strike with {weapon.name}", attack_mod, ac, dice)
    after = None
    if hero_point and not attack.succeeded and attacker.hero_points:
        spent = reroll_with_hero_point(attacker, attack, dice, options=options)
        attack, after = spent.check, spent.creature
    if not attack.succeeded:
        return StrikeResult(attacker.name, weapon.name, aim, attack, attack.degree, attacker_after=after)
    critical = attack.degree is Degree.CRITICAL_SUCCESS
    bonus = damage_bonus(attacker, damage_kind(weapon, is_ranged), extra=damage_extra, tags=tags, options=options)
    rolled = roll_damage(
        weapon.damage,
        dice,
        bonus=bonus,
        critical=critical,
        immune_to_critical_hits=CRITICAL_HITS in target.immunities,
        purpose=f"{weapon.name} damage",
        options=options,
    )
    outcome = mitigate(rolled, target, options=options)
    injury = apply_damage(
        target,
        outcome.total,
        critical=critical and CRITICAL_HITS not in target.immunities,
        types=outcome.types_dealt,
        cause=f"{attacker.name}'s {weapon.name}",
        options=options,
    )
    if outcome.persistent and not injury.creature.dead:
        after = add_persistent(injury.creature, outcome.persistent, options=options)
        injury = InjuryResult2e(after, injury.lines, injury.knocked_out, injury.checks)
    return StrikeResult(attacker.name, weapon.name, aim, attack, attack.degree, outcome, injury, attacker_after=after)
