"""2E damage: rolling it, doubling and halving it, and what immunities, weaknesses and resistances do to it
(E2-19..25, E2-74).

The five steps (E2-19), and where each happens here:

1. roll the damage dice (:func:`roll_damage`, one :class:`DamagePart` per typed run of dice);
2. add the attribute modifier and other bonuses (:func:`damage_bonus` builds them; they go with the first part,
   the weapon's own type);
3. the damage types are those of the parts; the per-type amounts are then doubled (a critical hit, a critical
   failure on a basic save) or halved (a success on a basic save): the *total* is doubled or halved, halving
   rounds down with a minimum of 1 (E2-22); several multipliers combine, each after the first adding 1 less
   (x2 and x2 = x3, E2-74);
4. :func:`mitigate` applies **immunities, then weaknesses, then resistances**, type by type (E2-23..25); where
   several weaknesses or resistances cover a type (its own and its category's: ``physical``/``energy``), the
   highest is used; resistance cannot take a type below 0;
5. the result reduces Hit Points (:mod:`sftactics.sf2e.injury`).

Every step writes a :class:`LedgerLine`, so the outcome explains itself. Decisions the seed leaves open:

* a part below 0 after penalties counts as ``Sf2eOptions.minimum_damage`` at most (default 0);
* halving shares the halved total out so no point is lost to rounding each type separately (the largest
  remainders get the odd points, ties to the first part);
* weakness applies to a type only if some damage of it gets past immunity (a 0 is not "damage of that type");
* immunity to critical hits turns a critical hit's doubling into normal damage (E2-23); other effects of the
  critical still happen (the caller's business);
* vitality and void damage harm only undead and living creatures respectively (``vitality_void_only_harm``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from sftactics.core.breakdown import Breakdown, Term, combine_multipliers
from sftactics.core.ledger import LedgerLine
from sftactics.dice.expr import DiceExpr, parse
from sftactics.dice.roll import RolledExpr, roll
from sftactics.dice.source import DiceSource
from sftactics.sf2e.creature import Attribute, Creature2e, Life, PersistentDamage
from sftactics.sf2e.damage_types import DamageType, damage_type, keys_for
from sftactics.sf2e.degrees import Degree
from sftactics.sf2e.modifiers import base, explain
from sftactics.sf2e.options import DEFAULT_OPTIONS, Sf2eOptions

#: The immunity that makes critical hits deal normal damage (E2-23).
CRITICAL_HITS = "critical-hits"


@dataclass(frozen=True, slots=True)
class DamagePart:
    """``dice`` (a plain expression such as ``"2d6"`` or ``"7"``) of one damage type; ``persistent`` parts are
    not dealt now but start persistent damage (E2-26)."""

    dice: str
    type: DamageType
    persistent: bool = False

    @property
    def expr(self) -> DiceExpr:
        e = parse(self.dice)
        if e.types:
            raise ValueError(f"write the damage type beside the dice, not in them: {self.dice!r}")
        return e

    def describe(self) -> str:
        return f"{self.dice}{' persistent' if self.persistent else ''} {self.type}"


def damage(dice: str, type: str | DamageType, *, persistent: bool = False) -> DamagePart:
    """Shorthand: ``damage("2d6", "fire")``."""
    t = damage_type(type)
    return DamagePart(dice, t, persistent or t is DamageType.BLEED)


@dataclass(frozen=True, slots=True)
class Portion:
    """An amount of damage of one type."""

    type: DamageType
    amount: int


def _merge(portions: Iterable[Portion]) -> tuple[Portion, ...]:
    totals: dict[DamageType, int] = {}
    for p in portions:
        totals[p.type] = totals.get(p.type, 0) + p.amount
    return tuple(Portion(t, a) for t, a in totals.items())


def _show(portions: Iterable[Portion]) -> str:
    return " + ".join(f"{p.amount} {p.type}" for p in portions) or "0"


@dataclass(frozen=True, slots=True)
class DamageRoll2e:
    """Damage rolled and multiplied, before the target's defenses. ``persistent`` lists the persistent damage
    the hit starts (E2-26)."""

    rolls: tuple[RolledExpr, ...]
    portions: tuple[Portion, ...]
    persistent: tuple[PersistentDamage, ...]
    ledger: tuple[LedgerLine, ...]
    critical: bool = False

    @property
    def total(self) -> int:
        return sum(p.amount for p in self.portions)

    def describe(self) -> str:
        return "; ".join(line.describe() for line in self.ledger)


def halve_total(total: int) -> int:
    """Half, rounded down, at least 1 if there was any damage (E2-22, E2-74): 7 -> 3, 1 -> 1, 0 -> 0."""
    return 0 if total <= 0 else max(1, total // 2)


def _share(portions: Sequence[Portion], target: int) -> tuple[Portion, ...]:
    """Scale portions so they add up to ``target``: each gets its share rounded down, the odd points go to the
    largest remainders (ties: the earlier portion)."""
    total = sum(p.amount for p in portions)
    if total <= 0:
        return tuple(portions)
    shares = [p.amount * target // total for p in portions]
    remainders = sorted(range(len(portions)), key=lambda i: (-(portions[i].amount * target % total), i))
    for i in remainders[: target - sum(shares)]:
        shares[i] += 1
    return tuple(Portion(p.type, s) for p, s in zip(portions, shares, strict=True))


def roll_damage(
    parts: Sequence[DamagePart],
    dice: DiceSource,
    *,
    bonus: Breakdown | None = None,
    critical: bool = False,
    immune_to_critical_hits: bool = False,
    multipliers: Sequence[float] = (),
    halve: bool = False,
    purpose: str = "damage",
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> DamageRoll2e:
    """Roll ``parts``, add ``bonus`` to the first part, then double/multiply or halve the total (E2-19, E2-22).

    ``critical`` doubles (x2, combined with any other ``multipliers`` per E2-74) unless the target is immune to
    critical hits (E2-23). ``halve`` halves after any multiplier (basic save success).
    """
    if not parts:
        raise ValueError("damage needs at least one part")
    ledger: list[LedgerLine] = []
    rolls: list[RolledExpr] = []
    portions: list[Portion] = []
    persistent_parts: list[DamagePart] = []
    for part in parts:
        if part.persistent:
            persistent_parts.append(part)
            continue
        r = roll(part.expr, dice, f"{purpose} ({part.type})")
        rolls.append(r)
        portions.append(Portion(part.type, r.total))
        ledger.append(LedgerLine("roll", r.total, f"{r.describe()} {part.type}", "E2-19"))
    if bonus is not None and bonus.total and portions:
        first = portions[0]
        portions[0] = Portion(first.type, first.amount + bonus.total)
        ledger.append(LedgerLine("bonus", bonus.total, f"{bonus.describe()} (with the {first.type})", "E2-19"))
    floor = options.minimum_damage
    for i, p in enumerate(portions):
        if p.amount < floor:
            portions[i] = Portion(p.type, floor)
            ledger.append(LedgerLine("minimum", floor - p.amount, f"{p.type} {p.amount} counts as {floor}"))
    factors = list(multipliers)
    if critical:
        if immune_to_critical_hits:
            ledger.append(LedgerLine("critical", 0, "target is immune to critical hits: not doubled", "E2-23"))
        else:
            factors.append(2)
    doubled = critical and not immune_to_critical_hits and options.persistent_on_critical == "double"
    persistent = tuple(PersistentDamage(dice=p.dice, type=p.type, doubled=doubled) for p in persistent_parts)
    for pd in persistent:
        ledger.append(LedgerLine("persistent", 0, f"starts {pd.describe()}", "E2-26"))
    rolled = DamageRoll2e(tuple(rolls), _merge(portions), persistent, tuple(ledger), critical)
    why = "critical hit" if critical and not immune_to_critical_hits else ""
    return scale(rolled, factors=factors, halve=halve, why=why)


def scale(roll: DamageRoll2e, *, factors: Sequence[float] = (), halve: bool = False, why: str = "") -> DamageRoll2e:
    """Multiply the rolled total by ``factors`` (combined per E2-74: x2 and x2 = x3), then halve it (rounded
    down, minimum 1) if ``halve``: the total is scaled and shared out among the damage types (E2-22)."""
    merged, ledger = roll.portions, list(roll.ledger)
    prefix = f"{why}, " if why else ""
    if factors:
        m = combine_multipliers(factors)
        before = sum(p.amount for p in merged)
        target = math.floor(before * m)
        merged = _share(merged, target)
        shown = " and ".join(f"x{f:g}" for f in factors) + (f" = x{m:g}" if len(factors) > 1 else "")
        ledger.append(LedgerLine("multiply", target - before, f"{prefix}{shown}: {before} -> {target}", "E2-22"))
    if halve:
        before = sum(p.amount for p in merged)
        target = halve_total(before)
        merged = _share(merged, target)
        detail = f"{prefix}half of {before}, rounded down (minimum 1) = {target}"
        ledger.append(LedgerLine("halve", target - before, detail, "E2-22"))
    return DamageRoll2e(roll.rolls, merged, roll.persistent, tuple(ledger), roll.critical)


def basic_save_damage(roll: DamageRoll2e, degree: Degree, *, options: Sf2eOptions = DEFAULT_OPTIONS) -> DamageRoll2e:
    """The damage a creature takes from ``roll`` after a basic save of ``degree`` (E2-17): critical success
    none, success half, failure all, critical failure double.

    Persistent damage: none on a critical success; doubled on a critical failure when
    ``options.persistent_on_critical`` is "double"; otherwise as rolled (halving it is not in the seed).
    """
    why = f"basic save {degree.label}"
    if degree is Degree.CRITICAL_SUCCESS:
        line = LedgerLine("basic save", -roll.total, f"{why}: no damage", "E2-17")
        zero = tuple(Portion(p.type, 0) for p in roll.portions)
        return DamageRoll2e(roll.rolls, zero, (), (*roll.ledger, line), roll.critical)
    if degree is Degree.SUCCESS:
        return scale(roll, halve=True, why=why)
    if degree is Degree.FAILURE:
        line = LedgerLine("basic save", 0, f"{why}: full damage", "E2-17")
        return DamageRoll2e(roll.rolls, roll.portions, roll.persistent, (*roll.ledger, line), roll.critical)
    doubled = roll.persistent
    if options.persistent_on_critical == "double":
        doubled = tuple(pd.model_copy(update={"doubled": True}) for pd in roll.persistent)
    out = scale(roll, factors=(2,), why=why)
    return DamageRoll2e(out.rolls, out.portions, doubled, out.ledger, roll.critical)


# --- defenses (E2-23..25) --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DamageOutcome2e:
    """What gets through the target's defenses: per-type amounts, the total and the ledger of every step."""

    incoming: tuple[Portion, ...]
    portions: tuple[Portion, ...]
    ledger: tuple[LedgerLine, ...]
    critical: bool = False
    persistent: tuple[PersistentDamage, ...] = ()

    @property
    def total(self) -> int:
        return sum(p.amount for p in self.portions)

    @property
    def types_dealt(self) -> frozenset[DamageType]:
        return frozenset(p.type for p in self.portions if p.amount > 0)

    def describe(self) -> str:
        return "; ".join(line.describe() for line in self.ledger) + f" => {self.total}"


def _highest(table: dict[str, int], keys: tuple[str, ...]) -> tuple[int, str]:
    found = [(table[k], k) for k in keys if k in table]
    return max(found) if found else (0, "")


def _precision_as_weapon_type(
    incoming: tuple[Portion, ...], target: Creature2e, ledger: list[LedgerLine]
) -> tuple[Portion, ...]:
    """The usual 2E reading of precision damage (``precision_damage="weapon_type"``): it joins the first other
    damage type (the weapon's), unless the target is immune to precision (then it is lost)."""
    main = next((p.type for p in incoming if p.type is not DamageType.PRECISION), None)
    if main is None or not any(p.type is DamageType.PRECISION for p in incoming):
        return incoming
    out: list[Portion] = []
    for p in incoming:
        if p.type is not DamageType.PRECISION:
            out.append(p)
        elif "precision" in target.immunities:
            ledger.append(LedgerLine("immunity", -p.amount, f"{p.amount} precision: immune to precision", "E2-23"))
        else:
            ledger.append(LedgerLine("precision", 0, f"{p.amount} precision counts as {main} (weapon's type)", "E2-21"))
            out.append(Portion(main, p.amount))
    return _merge(out)


def _harmless(t: DamageType, target: Creature2e, options: Sf2eOptions) -> str:
    if not options.vitality_void_only_harm:
        return ""
    if t is DamageType.VITALITY and target.life is not Life.UNDEAD:
        return "vitality damage harms only undead"
    if t is DamageType.VOID and target.life is not Life.LIVING:
        return "void damage harms only the living"
    return ""


def mitigate(
    damage_in: DamageRoll2e | Iterable[Portion],
    target: Creature2e,
    *,
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> DamageOutcome2e:
    """Apply the target's immunities, then weaknesses, then resistances, type by type (E2-19, E2-23..25)."""
    if isinstance(damage_in, DamageRoll2e):
        incoming = damage_in.portions
        ledger = list(damage_in.ledger)
        critical, persistent = damage_in.critical, damage_in.persistent
    else:
        incoming = _merge(damage_in)
        ledger, critical, persistent = [], False, ()
    if options.precision_damage == "weapon_type":
        incoming = _precision_as_weapon_type(tuple(incoming), target, ledger)
    out: list[Portion] = []
    for p in incoming:
        amount = p.amount
        keys = keys_for(p.type, bleed_is_physical=options.bleed_is_physical)
        immune = next((k for k in keys if k in target.immunities), "")
        harmless = _harmless(p.type, target, options)
        if immune or harmless:
            why = harmless or f"immune to {immune}"
            ledger.append(
                LedgerLine("immunity", -amount, f"{amount} {p.type}: {why}", "E2-21" if harmless else "E2-23")
            )
            out.append(Portion(p.type, 0))
            continue
        weak, weak_key = _highest(target.weaknesses, keys)
        if weak and amount > 0:
            ledger.append(
                LedgerLine(
                    "weakness", weak, f"{p.type} {amount} + weakness {weak} ({weak_key}) = {amount + weak}", "E2-24"
                )
            )
            amount += weak
        res, res_key = _highest(target.resistances, keys)
        if res and amount > 0:
            reduced = max(0, amount - res)
            ledger.append(
                LedgerLine(
                    "resistance",
                    reduced - amount,
                    f"{p.type} {amount} - resistance {res} ({res_key}) = {reduced}",
                    "E2-25",
                )
            )
            amount = reduced
        out.append(Portion(p.type, amount))
    persistent = tuple(
        pd
        for pd in persistent
        if not any(k in target.immunities for k in keys_for(pd.type, bleed_is_physical=options.bleed_is_physical))
    )
    return DamageOutcome2e(tuple(incoming), tuple(out), tuple(ledger), critical, persistent)


# --- the bonus to damage (E2-19, E2-20) ---------------------------------------------------------------------------


class DamageKind(StrEnum):
    """What delivers the damage, which decides the attribute added (E2-19, E2-20)."""

    MELEE = "melee"
    RANGED = "ranged"
    THROWN = "thrown"
    PROPULSIVE = "propulsive"
    SPELL = "spell"  # also grenades: no attribute unless the effect says so


def damage_bonus(
    creature: Creature2e,
    kind: DamageKind,
    *,
    extra: Iterable[Term] = (),
    tags: frozenset[str] = frozenset(),
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> Breakdown:
    """The flat part of a damage roll (E2-20): melee and thrown add Strength, propulsive half Strength (rounded
    down; a negative modifier per ``options.propulsive_negative_strength``), ranged and spells nothing; plus
    ``extra`` bonuses and penalties, stacked by the 2E rules."""
    s = creature.attribute(Attribute.STR)
    terms: list[Term] = []
    if kind in (DamageKind.MELEE, DamageKind.THROWN):
        terms.append(base(s, f"Str modifier ({kind})", "E2-19"))
    elif kind is DamageKind.PROPULSIVE:
        if s >= 0:
            terms.append(base(s // 2, f"half Str modifier {s:+d} (propulsive)", "E2-19"))
        elif options.propulsive_negative_strength == "full":
            terms.append(base(s, "Str modifier (propulsive, negative: in full)", "E2-19"))
        elif options.propulsive_negative_strength == "half":
            terms.append(base(s // 2, f"half Str modifier {s:+d}, rounded down (propulsive)", "E2-19"))
    return explain("damage bonus", [*terms, *extra], tags=tags, options=options)
