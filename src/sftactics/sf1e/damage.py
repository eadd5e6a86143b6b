"""Damage: rolling it, and what a target's defenses take off it (DMG-01..16, SPA-06..12).

The pipeline (DMG-16), in this order:

1. roll the damage dice with every flat modifier; a critical hit rolls it all again (x2 combines with
   other multipliers per GEN-04: roll ``1 + sum(m - 1)`` times and add) (DMG-04, ATK-14);
2. minimum damage: if penalties brought the result below 1, the hit deals 1 nonlethal damage (DMG-05);
3. split by damage type (typed parts; a part with two types splits per option ``multi_type_split``);
4. immunities (damage types; incorporeal immunity to nonmagical kinetic damage), incorporeal halving
   (SPA-12; before DR/ER by option ``incorporeal_halve_before_reduction``);
5. DR against the kinetic portion, once per attack (SPA-06, SPA-07, SPA-09); energy resistance against each
   matching energy portion (SPA-10, SPA-11); vulnerabilities (XREF);
6. the total is then applied to temporary HP, SP and HP by ``injury.apply_damage``.

Every step is one line in the :class:`DamageOutcome` ledger.

Decisions this module makes (the seeds leave them open):

* **Flat modifiers go with the weapon.** The bonus (Strength, specialization, penalties) is added to the first
  typed part, so "1d6 S + 1d6 fire" with Strength +3 deals 1d6+3 slashing and 1d6 fire.
* **What counts as a penalty for minimum damage (DMG-05).** Every negative number in the roll counts: penalty
  terms of the bonus, a negative ability modifier, and negative flat terms of the expression. The minimum
  applies when the total is below 1 but would be at least 1 without them. The 1 nonlethal point keeps the
  type of the first typed part, so DR and resistance can still take it away (the inventory's §22 default).
* **A part below 0 after penalties** passes its deficit on to the next parts, so the portions always add up
  to the total.
* **Splitting two-type parts** ("1d8 A & P"): ``half_each`` gives each type an equal share and the odd point
  to the first type, kinetic before energy (alphabetical within each group, since the parsed part no longer
  remembers reading order). ``all_each`` keeps one portion of both types: an immunity, DR or resistance
  counts against it only if the creature has it against every type of the portion, and then the smallest
  applies.
* **"nonlethal" and "untyped" labels are not types.** A part labelled ``nonlethal`` makes the whole roll
  nonlethal (a roll carries one lethality); ``untyped`` leaves the part without a type.
* **Halving** (incorporeal targets, half on a save) halves the sum of the halved portions, rounded down, and
  shares the result out so no point is lost to rounding each portion separately.
* **Incorporeal targets (SPA-12)** are treated portion by portion: a purely kinetic portion of a nonmagical
  attack is ignored; every other portion is halved (energy, magical kinetic, untyped); portions typed
  ``force``, and everything when ``force`` or ``from_incorporeal`` is set, pass in full.
* **Vulnerability comes last**, after DR and resistance: the creature takes half again as much of whatever
  gets through (``options.vulnerability_multiplier``, rounded down). So a creature with fire resistance 5
  and fire vulnerability hit for 11 fire takes ``(11 - 5) x 1.5 = 9``.
* **Immunity to nonlethal damage** (``"nonlethal"`` in immunities, as constructs have) negates a nonlethal
  roll entirely.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from sftactics.core.breakdown import Breakdown, combine_multipliers
from sftactics.core.errors import DiceError, RuleViolation
from sftactics.core.ledger import LedgerLine
from sftactics.dice.expr import ENERGY, KINETIC, DiceExpr, DiceTerm, Part, damage_type
from sftactics.dice.roll import roll as roll_expr
from sftactics.dice.source import DiceSource
from sftactics.sf1e.options import DEFAULT_OPTIONS, Sf1eOptions
from sftactics.sf1e.statblock import DamageReduction
from sftactics.sf1e.state import Creature


@dataclass(frozen=True, slots=True)
class DamagePortion:
    """Damage of one type set after splitting (``types`` empty: untyped)."""

    types: frozenset[str]
    amount: int

    def describe(self) -> str:
        return f"{self.amount} {type_label(self.types)}"


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """Damage as rolled (before the target's defenses): per-type portions, the dice shown, the multiplier."""

    portions: tuple[DamagePortion, ...]
    total: int
    times_rolled: int
    nonlethal: bool
    minimum_applied: bool
    rolls: tuple[str, ...]  # human-readable dice, one per roll
    ledger: tuple[LedgerLine, ...]
    critical: bool = False

    @property
    def types(self) -> frozenset[str]:
        """Every damage type in the roll."""
        out: frozenset[str] = frozenset()
        for p in self.portions:
            out |= p.types
        return out


@dataclass(frozen=True, slots=True)
class DamageOutcome:
    """Damage after the target's defenses: the amount to apply to temp HP/SP/HP and the ledger of every step.
    ``negated`` is True when defenses reduced a damaging attack to 0 (riders are negated too, SPA-08/11)."""

    amount: int
    nonlethal: bool
    negated: bool
    by_type: tuple[DamagePortion, ...]
    ledger: tuple[LedgerLine, ...]

    def describe(self) -> str:
        return "\n".join(line.describe() for line in self.ledger)


# ---------------------------------------------------------------- helpers on types and portions
_NOT_TYPES = frozenset({"nonlethal", "untyped"})


def _type_rank(t: str) -> tuple[int, str]:
    """Kinetic types first, then energy, then the rest; alphabetical within a group."""
    return (0 if t in KINETIC else 1 if t in ENERGY else 2, t)


def ordered_types(types: Iterable[str]) -> list[str]:
    """Damage types in the order odd points and reductions go: kinetic, energy, others."""
    return sorted(types, key=_type_rank)


def type_label(types: frozenset[str]) -> str:
    return " & ".join(ordered_types(types)) if types else "untyped"


def _merge(portions: Iterable[DamagePortion]) -> tuple[DamagePortion, ...]:
    """Add portions of the same type set together, keeping the order of first appearance."""
    totals: dict[frozenset[str], int] = {}
    for p in portions:
        totals[p.types] = totals.get(p.types, 0) + p.amount
    return tuple(DamagePortion(t, a) for t, a in totals.items())


def _halve_amounts(amounts: Sequence[int]) -> list[int]:
    """Half of the sum of ``amounts`` (rounded down, GEN-03), shared out: each keeps half of itself and the
    points left over by rounding go, one each, to the odd amounts in order."""
    target = sum(amounts) // 2
    out = [a // 2 for a in amounts]
    left = target - sum(out)
    for i, a in enumerate(amounts):
        if left <= 0:
            break
        if a % 2:
            out[i] += 1
            left -= 1
    return out


def _halve_indices(portions: list[DamagePortion], idxs: Sequence[int]) -> None:
    new = _halve_amounts([portions[i].amount for i in idxs])
    for i, a in zip(idxs, new, strict=True):
        portions[i] = replace(portions[i], amount=a)


def _describe_portions(portions: Iterable[DamagePortion]) -> str:
    shown = [p.describe() for p in portions if p.amount]
    return ", ".join(shown) or "nothing"


# ---------------------------------------------------------------- rolling
def _first_typed(expr: DiceExpr) -> int:
    for i, p in enumerate(expr.parts):
        if p.types - _NOT_TYPES:
            return i
    return 0


def _with_bonus(expr: DiceExpr, value: int) -> DiceExpr:
    """``expr`` with a flat ``value`` added to its first typed part (the weapon's own damage)."""
    if value == 0:
        return expr
    i = _first_typed(expr)
    part = expr.parts[i]
    term = DiceTerm(abs(value), 0, 1 if value > 0 else -1)
    parts = list(expr.parts)
    parts[i] = Part((*part.terms, term), part.types)
    return DiceExpr(tuple(parts))


def _negative_in_expr(expr: DiceExpr) -> int:
    """Sum of the expression's own negative flat terms (a printed "1d4-1")."""
    return sum(-t.count for t in expr.terms if t.is_flat and t.sign < 0)


def _split(types: frozenset[str], amount: int, options: Sf1eOptions) -> list[DamagePortion]:
    real = types - _NOT_TYPES
    if len(real) <= 1 or options.multi_type_split == "all_each":
        return [DamagePortion(frozenset(real), amount)]
    order = ordered_types(real)
    share, odd = divmod(amount, len(order))
    return [DamagePortion(frozenset({t}), share + (1 if i < odd else 0)) for i, t in enumerate(order)]


def times_rolled(multipliers: Iterable[float]) -> int:
    """How many times damage is rolled for these multipliers (GEN-04: x2 and x2 make 3 rolls).

    Multipliers below 1 are not damage multipliers (halving is :func:`halve`). A combined multiplier that is
    not whole (x1.5) rounds down (GEN-03): rolls cannot be split."""
    ms = list(multipliers)
    for m in ms:
        if m < 1:
            raise DiceError(f"a damage multiplier must be at least 1, not {m} (halve damage with halve())")
    return max(1, math.floor(combine_multipliers(ms)))


def roll_damage(
    expr: DiceExpr,
    bonus: Breakdown,
    dice: DiceSource,
    *,
    multipliers: Sequence[float] = (),
    critical: bool = False,
    nonlethal: bool = False,
    purpose: str = "damage",
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> DamageRoll:
    """Roll ``expr`` plus the flat ``bonus`` (DMG-01..03), as many times as the multipliers say (DMG-04; a
    critical hit is one more x2, ATK-14), apply minimum damage (DMG-05) and split the result by type (DMG-08).

    Each roll rolls every die again and adds the whole bonus again. ``nonlethal`` marks nonlethal damage (a
    nonlethal weapon); a part labelled ``nonlethal`` does the same."""
    all_mults = [*multipliers, *([2.0] if critical else [])]
    n = times_rolled(all_mults)
    full = _with_bonus(expr, bonus.total)
    ledger: list[LedgerLine] = []
    if all_mults:
        shown = " and ".join(f"x{m:g}" for m in all_mults)
        why = "critical hit" if critical and not multipliers else "multipliers"
        ledger.append(LedgerLine("multiply", 0, f"{why} {shown}: roll the damage {n} times and add them", "GEN-04"))
    part_totals = [0] * len(full.parts)
    shown_rolls: list[str] = []
    for k in range(n):
        label = purpose if n == 1 else f"{purpose} (roll {k + 1} of {n})"
        rolled = roll_expr(full, dice, label)
        for i, pr in enumerate(rolled.parts):
            part_totals[i] += pr.total
        shown_rolls.append(rolled.describe())
        rule = "DMG-01" if n == 1 else "DMG-04"
        ledger.append(LedgerLine(f"roll {k + 1}" if n > 1 else "roll", rolled.total, rolled.describe(), rule))
    if bonus.applied:
        ledger.append(LedgerLine("bonus", 0, f"each roll adds {bonus.describe()}"))
    total = sum(part_totals)

    labelled_nonlethal = any("nonlethal" in p.types for p in expr.parts)
    is_nonlethal = nonlethal or labelled_nonlethal
    if labelled_nonlethal:
        ledger.append(LedgerLine("nonlethal", 0, "a part is labelled nonlethal: the damage is nonlethal", "DMG-10"))

    # minimum damage (DMG-05)
    negatives = sum(t.value for t in bonus.applied if t.value < 0) + _negative_in_expr(expr)
    without_penalties = total - n * negatives
    minimum = total < 1 and without_penalties >= 1
    portions: list[DamagePortion]
    if minimum:
        first = full.parts[_first_typed(full)]
        portions = [DamagePortion(frozenset(first.types - _NOT_TYPES), 1)]
        ledger.append(
            LedgerLine(
                "minimum",
                1 - total,
                f"penalties brought the damage to {total}: the hit deals 1 nonlethal damage instead",
                "DMG-05",
            )
        )
        is_nonlethal = True
        total = 1
    else:
        portions = []
        carry = 0
        for part, amount in zip(full.parts, part_totals, strict=True):
            amount += carry
            carry = min(amount, 0)
            portions += _split(part.types, max(amount, 0), options)
        if total < 0:
            ledger.append(LedgerLine("floor", -total, f"damage cannot be negative ({total} -> 0)", "DMG-05"))
            total = 0
    every = _merge(portions)
    merged = tuple(p for p in every if p.amount) or every[:1]
    if any(len(p.types - _NOT_TYPES) > 1 for p in full.parts):
        how = "half of each type" if options.multi_type_split == "half_each" else "each type applies to all"
        ledger.append(LedgerLine("split", 0, f"two-type part: {how} -> {_describe_portions(merged)}", "DMG-08"))
    ledger.append(LedgerLine("rolled", 0, f"total {total} ({_describe_portions(merged)})", "DMG-16"))
    return DamageRoll(
        portions=merged,
        total=total,
        times_rolled=n,
        nonlethal=is_nonlethal,
        minimum_applied=minimum,
        rolls=tuple(shown_rolls),
        ledger=tuple(ledger),
        critical=critical,
    )


def halve(roll: DamageRoll, *, reason: str = "successful save for half") -> DamageRoll:
    """Half damage (DMG-14, SV-09): half the total, rounded down (GEN-03), shared out over the portions."""
    amounts = _halve_amounts([p.amount for p in roll.portions])
    portions = tuple(DamagePortion(p.types, a) for p, a in zip(roll.portions, amounts, strict=True))
    total = sum(amounts)
    line = LedgerLine("half", total - roll.total, f"{reason}: {roll.total} -> {total}", "DMG-14")
    return replace(roll, portions=portions, total=total, ledger=(*roll.ledger, line))


# ---------------------------------------------------------------- which AC
def weapon_targets_ac(
    types: frozenset[str],
    *,
    explicit: str | None = None,
    incorporeal_attacker: bool = False,
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> tuple[str, str]:
    """Which AC an attack targets (ATK-08), as ``("eac" | "kac", why)``.

    An incorporeal attacker always targets EAC (SPA-13; this wins even over a weapon's own ``targets``, as
    the rule says "always"); then a weapon that names its AC; then any kinetic damage means KAC even with
    energy damage too; only energy damage means EAC; anything else (untyped, force) targets KAC when
    ``options.default_ac_is_kac`` (the Compendium's default), and otherwise must name its AC."""
    if incorporeal_attacker:
        return "eac", "incorporeal attackers always target EAC (SPA-13)"
    if explicit is not None:
        which = explicit.lower()
        if which not in ("eac", "kac"):
            raise RuleViolation("ATK-08", f"an attack targets EAC or KAC, not {explicit!r}")
        return which, f"the attack says it targets {which.upper()} (ATK-08)"
    real = frozenset(types) - _NOT_TYPES
    if real & KINETIC:
        if real & ENERGY:
            return "kac", "kinetic damage targets KAC, even with energy damage too (ATK-08)"
        return "kac", "kinetic damage targets KAC (ATK-08)"
    if real and real <= ENERGY:
        return "eac", "only energy damage: targets EAC (ATK-08)"
    if options.default_ac_is_kac:
        return "kac", "no kinetic or energy damage: attacks that do not say target KAC (ATK-08)"
    raise RuleViolation("ATK-08", "this attack deals neither kinetic nor energy damage: it must name its AC")


# ---------------------------------------------------------------- damage reduction
_OR = re.compile(r"\s*(?:\|\||\bor\b|,)\s*", re.IGNORECASE)
_AND = re.compile(r"\s*(?:&&|\band\b|&)\s*", re.IGNORECASE)
_NOTHING = frozenset({"", "—", "–", "-", "none"})


def bypass_options(bypass: str) -> list[frozenset[str]]:
    """A DR entry's bypass text as alternatives, each a set of qualities needed together (SPA-07).

    "—" -> ``[]`` (nothing bypasses); "magic" -> ``[{magic}]``; "good || magic" / "good or magic" ->
    ``[{good}, {magic}]``; "lawful && magic" / "lawful and magic" -> ``[{lawful, magic}]``. "or" binds
    looser than "and"."""
    text = bypass.strip().lower()
    if text in _NOTHING:
        return []
    out = []
    for alt in _OR.split(text):
        need = frozenset(q.strip() for q in _AND.split(alt) if q.strip())
        if need:
            out.append(need)
    return out


def dr_bypassed(entry: DamageReduction, qualities: frozenset[str]) -> bool:
    """True when an attack with ``qualities`` (materials, alignments, "magic") overcomes ``entry``."""
    have = frozenset(q.lower() for q in qualities)
    return any(need <= have for need in bypass_options(entry.bypass))


def _dr_text(entry: DamageReduction) -> str:
    bypass = entry.bypass.strip() or "—"
    return f"DR {entry.value}/{bypass}"


def best_dr(target: Creature, qualities: frozenset[str]) -> tuple[DamageReduction | None, list[str]]:
    """The best DR entry the attack does not overcome (SPA-09: entries do not stack), and notes on the
    entries it overcomes."""
    best: DamageReduction | None = None
    notes = []
    for entry in target.stat.dr:
        if entry.value <= 0:
            continue
        if dr_bypassed(entry, qualities):
            notes.append(f"{_dr_text(entry)} overcome")
            continue
        if best is None or entry.value > best.value:
            best = entry
    return best, notes


# ---------------------------------------------------------------- mitigation
def _canonical(words: Iterable[str]) -> frozenset[str]:
    out = set()
    for w in words:
        try:
            out.add(damage_type(w))
        except DiceError:
            out.add(w.strip().lower())
    return frozenset(out)


def _pool_key(t: str) -> str | None:
    if t in KINETIC:
        return "DR"
    if t in ENERGY:
        return t
    return None


def mitigate(
    roll: DamageRoll,
    target: Creature,
    *,
    magic: bool = False,
    materials: frozenset[str] = frozenset(),
    alignment: frozenset[str] = frozenset(),
    force: bool = False,
    from_incorporeal: bool = False,
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> DamageOutcome:
    """Apply ``target``'s defenses to ``roll``: immunities, incorporeal immunity and halving (SPA-12), DR
    (SPA-06, SPA-07, SPA-09), energy resistance (SPA-10, SPA-11) and vulnerability (XREF), in the order the
    module docstring gives. ``magic``, ``materials`` and ``alignment`` are the attack's qualities for DR;
    ``force`` marks a force effect and ``from_incorporeal`` an incorporeal attacker or effect (both deal
    full damage to incorporeal targets)."""
    stat = target.stat
    ledger: list[LedgerLine] = [LedgerLine("incoming", roll.total, _describe_portions(roll.portions), "DMG-16")]
    portions = list(roll.portions)

    def running() -> int:
        return sum(p.amount for p in portions)

    # 1. immunities
    immune = _canonical(stat.immunities)
    if roll.nonlethal and "nonlethal" in immune and running():
        before = running()
        portions = [replace(p, amount=0) for p in portions]
        ledger.append(LedgerLine("immunity", -before, "immune to nonlethal damage", "X-22"))
    for i, p in enumerate(portions):
        if p.amount and p.types and p.types <= immune:
            ledger.append(LedgerLine("immunity", -p.amount, f"immune to {type_label(p.types)}", "DMG-16"))
            portions[i] = replace(p, amount=0)

    # 2. incorporeal targets
    halve_later: list[int] = []
    if stat.incorporeal and running():
        if force or from_incorporeal:
            why = "a force effect" if force else "an incorporeal source"
            ledger.append(LedgerLine("incorporeal", 0, f"full damage from {why}", "SPA-12"))
        else:
            for i, p in enumerate(portions):
                if p.amount and p.types and p.types <= KINETIC and not magic:
                    ledger.append(
                        LedgerLine(
                            "incorporeal",
                            -p.amount,
                            f"immune to nonmagical kinetic damage ({p.describe()})",
                            "SPA-12",
                        )
                    )
                    portions[i] = replace(p, amount=0)
            halve_later = [i for i, p in enumerate(portions) if p.amount and "force" not in p.types]
            if options.incorporeal_halve_before_reduction:
                _incorporeal_halving(portions, halve_later, ledger, "before DR and resistance")
                halve_later = []

    # 3. DR and energy resistance
    qualities = frozenset(materials) | frozenset(alignment) | ({"magic"} if magic else frozenset())
    dr, dr_notes = best_dr(target, qualities)
    pools: dict[str, int] = {}
    if dr is not None:
        pools["DR"] = dr.value
    for k, v in stat.resistances.items():
        if v > 0:
            key = damage_type(k)
            pools[key] = max(pools.get(key, 0), v)

    def reduce(select: list[int], keys: frozenset[str], step: str, what: str, rule: str) -> None:
        """Take the pools ``keys`` off the selected portions in order, once per attack."""
        if not select:
            return
        budget = min(pools.get(k, 0) for k in keys)
        before = sum(portions[i].amount for i in select)
        left = budget
        for i in select:
            cut = min(left, portions[i].amount)
            portions[i] = replace(portions[i], amount=portions[i].amount - cut)
            left -= cut
        used = budget - left
        for k in keys:
            pools[k] = pools.get(k, 0) - used
        after = before - used
        ledger.append(LedgerLine(step, -used, f"{what}: {before} -> {after}", rule))

    kinetic_only = [i for i, p in enumerate(portions) if p.amount and p.types and p.types <= KINETIC]
    if dr is not None or dr_notes:
        notes = f" ({'; '.join(dr_notes)})" if dr_notes else ""
        if dr is None:
            ledger.append(LedgerLine("DR", 0, f"every DR entry is overcome{notes}", "SPA-07"))
        elif kinetic_only:
            reduce(kinetic_only, frozenset({"DR"}), "DR", f"{_dr_text(dr)} on kinetic damage{notes}", "SPA-06")
        else:
            ledger.append(LedgerLine("DR", 0, f"{_dr_text(dr)}: no purely kinetic damage{notes}", "SPA-06"))
    for et in ordered_types(t for t in pools if t in ENERGY):
        select = [i for i, p in enumerate(portions) if p.amount and p.types == frozenset({et})]
        if select:
            reduce(select, frozenset({et}), "resistance", f"{et} resistance {pools[et]}", "SPA-10")
    for i, p in enumerate(portions):  # several types in one portion (option all_each)
        keys = [_pool_key(t) for t in p.types]
        if p.amount and len(p.types) > 1 and all(k is not None and pools.get(k, 0) > 0 for k in keys):
            ks = frozenset(k for k in keys if k is not None)
            what = f"{type_label(p.types)}: protected against every type, the smallest reduction applies"
            reduce([i], ks, "DR and resistance", what, "SPA-06, SPA-10")

    if halve_later:
        _incorporeal_halving(portions, halve_later, ledger, "after DR and resistance")

    # 4. vulnerabilities
    vulnerable = _canonical(stat.vulnerabilities)
    mult = Fraction(str(options.vulnerability_multiplier))
    for i, p in enumerate(portions):
        hit = p.types & vulnerable
        if p.amount and hit:
            new = math.floor(p.amount * mult)
            ledger.append(
                LedgerLine(
                    "vulnerability",
                    new - p.amount,
                    f"vulnerable to {type_label(hit)}: {p.amount} x {float(mult):g} -> {new}",
                    "X-22",
                )
            )
            portions[i] = replace(p, amount=new)

    amount = running()
    negated = roll.total > 0 and amount == 0
    verdict = " (negated: riders of the attack are negated too)" if negated else ""
    ledger.append(LedgerLine("total", 0, f"{amount} damage{verdict}", "SPA-08" if negated else "DMG-16"))
    return DamageOutcome(
        amount=amount,
        nonlethal=roll.nonlethal,
        negated=negated,
        by_type=tuple(p for p in portions if p.amount),
        ledger=tuple(ledger),
    )


def _incorporeal_halving(portions: list[DamagePortion], idxs: list[int], ledger: list[LedgerLine], when: str) -> None:
    idxs = [i for i in idxs if portions[i].amount]
    if not idxs:
        return
    before = sum(portions[i].amount for i in idxs)
    _halve_indices(portions, idxs)
    after = sum(portions[i].amount for i in idxs)
    ledger.append(LedgerLine("incorporeal", after - before, f"half damage, {when}: {before} -> {after}", "SPA-12"))


__all__ = [
    "DamageOutcome",
    "DamagePortion",
    "DamageRoll",
    "LedgerLine",
    "best_dr",
    "bypass_options",
    "dr_bypassed",
    "halve",
    "mitigate",
    "ordered_types",
    "roll_damage",
    "times_rolled",
    "type_label",
    "weapon_targets_ac",
]
