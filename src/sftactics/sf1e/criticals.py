"""Critical hit effects of weapons (ATK-15, ATK-17, SV-07, CON-04; XREF X-09).

A critical hit doubles damage (``damage.roll_damage(critical=True)``, ATK-14); some weapons add an effect,
named in the weapon's ``critical`` text ("Burn 1d6", "Knockdown", "Staggered [DC 17]", "Wound [DC 14]").
The effects are not in the seeds; they come from the Core Rulebook's weapon chapter (p. 182), restated here:

Arc X
    X damage (rolled once, not doubled) of the weapon's damage type to a second creature: the nearest one
    within 10 feet of the target. Choosing it needs the grid, so the caller passes ``secondary``; the damage
    is rolled and mitigated against it and returned as ``secondary_damage`` for the caller to apply to its
    pools. Without a secondary creature the effect is only recorded.
Bleed X
    The target gains *bleeding* with value X (CON-02). No save.
Burn X
    The target gains *burning* with value X (fire, CON-05; no amount: the condition's default 1d6). No save.
Corrode X
    Works like burning but with acid damage: the target gains the *corroding* condition with the amount.
Deafen
    Fortitude save; on a failure the target is *deafened* for 1d4 minutes (10 rounds each).
Knockdown
    The target falls *prone* (no save); in zero gravity it becomes *off-kilter* instead (MOD-18, CON-23).
Staggered
    Fortitude save; on a failure the target is *staggered* for 1 round.
Injection DC +2
    A poison or drug the weapon delivers on this hit has its DC raised by 2: recorded (the poison rules are
    not part of the engine yet).
Wound, Severe Wound
    A roll (two rolls, the attacker picks one, for a severe wound) on the wounding weapons table, whose rows
    may allow a save: recorded with the DC, not applied yet.
Degeneration
    Fire damage and fatigue each round until a Fortitude save ends it: recorded with the DC, not applied yet.
Anything else
    Recorded by name with its DC (Armory and creature effects such as "confuse").

The DC of a critical effect that allows a save (SV-07): a DC printed in the effect text ("[DC 14]") or on the
weapon (``Weapon.critical_dc``) wins; otherwise ``options.critical_dc_base`` + half the weapon's item level +
the wielder's key ability modifier. A wielder without a key ability (most NPCs) uses the modifier of the
weapon's attack ability instead. A wielder not proficient with the weapon lowers the DC by 4 (GEN-13).

No effect applies when the weapon is broken (CON-04: it still deals double damage) or the target is immune to
critical hits (ATK-17: ``"critical hits"`` or ``"criticals"`` in its immunities, or incorporeal, SPA-12); such
a target also takes normal damage, which the attack code handles with :func:`immune_to_crits`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain
from sftactics.core.check import CheckKind, CheckResult, resolve
from sftactics.core.errors import DiceError
from sftactics.core.ledger import LedgerLine
from sftactics.dice.expr import DiceExpr, parse
from sftactics.dice.source import DiceSource
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats
from sftactics.sf1e.damage import DamageOutcome, mitigate, roll_damage
from sftactics.sf1e.options import DEFAULT_OPTIONS, Sf1eOptions
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.state import ConditionInstance, Creature

B = BonusType.BASE

CriticalStatus = Literal["applied", "resisted", "immune", "recorded", "suppressed"]

#: Canonical effect names, with the spellings found in weapon and creature data.
_NAMES: Final[dict[str, str]] = {
    "arc": "arc",
    "bleed": "bleed",
    "burn": "burn",
    "corrode": "corrode",
    "deafen": "deafen",
    "knockdown": "knockdown",
    "knock down": "knockdown",
    "staggered": "staggered",
    "stagger": "staggered",
    "severe wound": "severe wound",
    "wound": "wound",
    "injection": "injection",
    "degeneration": "degeneration",
}

#: The save each known effect allows ("table": the wounding table row decides), None for no save.
_SAVES: Final[dict[str, str | None]] = {
    "arc": None,
    "bleed": None,
    "burn": None,
    "corrode": None,
    "deafen": "fort",
    "knockdown": None,
    "staggered": "fort",
    "severe wound": "table",
    "wound": "table",
    "injection": None,
    "degeneration": "fort",
}

_SAVE_WORDS: Final[dict[str, str]] = {
    "fort": "fort",
    "fortitude": "fort",
    "ref": "ref",
    "reflex": "ref",
    "will": "will",
}

#: Effects the engine carries out; the others are recorded.
APPLIED: Final = frozenset({"arc", "bleed", "burn", "corrode", "deafen", "knockdown", "staggered"})

CRIT_IMMUNITY_WORDS: Final = frozenset({"critical hits", "criticals", "critical hit", "crits"})

#: Name of the acid twin of burning that Corrode gives, used once the conditions table defines it.
CORRODING: Final = "corroding"


@dataclass(frozen=True, slots=True)
class CriticalEffect:
    """A weapon's critical hit effect as written.

    ``name`` is canonical ("burn", "severe wound"; unknown effects keep their own lower-case name);
    ``amount`` a dice expression such as "1d6" or "2" when the effect has one; ``dc`` a DC printed with it;
    ``save`` the save it allows ("fort", "ref", "will"; "table" for wounds, whose table row decides; None);
    ``dc_bonus`` the raise of an Injection effect; ``detail`` any other words (such as "10 ft.")."""

    name: str
    text: str
    amount: str | None = None
    dc: int | None = None
    save: str | None = None
    dc_bonus: int = 0
    detail: str = ""

    @property
    def known(self) -> bool:
        return self.name in _SAVES

    @property
    def has_dc(self) -> bool:
        """True when the effect allows a save, so it has a DC."""
        return self.dc is not None or self.save is not None

    def describe(self) -> str:
        bits = [self.name]
        if self.amount:
            bits.append(self.amount)
        if self.dc_bonus:
            bits.append(f"DC {self.dc_bonus:+d}")
        if self.detail:
            bits.append(self.detail)
        return " ".join(bits)


_BRACKET = re.compile(r"[\[(]([^\])\[(]*)(?:[\])]|$)")
_DC = re.compile(r"\bDC\s*(\d+)", re.IGNORECASE)
_INJECTION = re.compile(r"^injection\b(?:\s*DC)?\s*([+-]\s*\d+)?\s*(.*)$", re.IGNORECASE)
_NAME = re.compile(r"^([A-Za-z][A-Za-z'\- ]*?)\s*(?=\d|$)(.*)$")


def parse_critical(text: str) -> CriticalEffect | None:
    """Read a critical effect such as "Burn 1d6", "Arc 2", "Staggered [DC 17]", "staggered [Fort]",
    "Injection DC +2", "Wound [DC 14]" or "critical confuse [DC 22]". Empty text (or "—") gives None."""
    raw = (text or "").strip()
    if raw.lower() in ("", "—", "-", "none"):
        return None
    body = raw
    dc: int | None = None
    save: str | None = None
    for m in _BRACKET.finditer(raw):
        inside = m.group(1)
        found = _DC.search(inside)
        if found:
            dc = int(found.group(1))
        for word in re.findall(r"[A-Za-z]+", inside):
            if word.lower() in _SAVE_WORDS:
                save = _SAVE_WORDS[word.lower()]
    body = _BRACKET.sub(" ", body)
    if dc is None:
        found = _DC.search(body)
        if found and not _INJECTION.match(body):
            dc = int(found.group(1))
            body = body[: found.start()] + body[found.end() :]
    body = " ".join(body.split())
    body = re.sub(r"^critical\s+", "", body, flags=re.IGNORECASE)

    inj = _INJECTION.match(body)
    if inj:
        bonus = int(inj.group(1).replace(" ", "")) if inj.group(1) else 2
        return CriticalEffect("injection", raw, dc=dc, save=save, dc_bonus=bonus, detail=inj.group(2).strip())

    lowered = body.lower()
    name = ""
    rest = ""
    for spelling in sorted(_NAMES, key=len, reverse=True):
        if lowered == spelling or lowered.startswith(spelling + " "):
            name = _NAMES[spelling]
            rest = body[len(spelling) :].strip()
            break
    if not name:
        named = _NAME.match(body)
        if named:
            name, rest = named.group(1).strip().lower(), named.group(2).strip()
        else:
            name, rest = lowered, ""
    amount: str | None = None
    detail = ""
    if rest:
        try:
            parse(rest)
            amount = rest
        except DiceError:
            detail = rest
    if save is None:
        save = _SAVES.get(name)
    return CriticalEffect(name, raw, amount=amount, dc=dc, save=save, detail=detail)


def immune_to_crits(creature: Creature) -> bool:
    """Immune to critical hits (ATK-17): the stat block says so, or the creature is incorporeal (SPA-12).
    Such a creature takes normal damage from a critical hit and no critical effect."""
    if creature.stat.incorporeal:
        return True
    return any(w.strip().lower() in CRIT_IMMUNITY_WORDS for w in creature.stat.immunities)


def critical_dc_breakdown(
    weapon: Weapon,
    wielder: Creature,
    options: Sf1eOptions = DEFAULT_OPTIONS,
    effect: CriticalEffect | None = None,
) -> Breakdown | None:
    """The DC of ``effect`` (default: the weapon's own critical effect) with its terms (SV-07), or None when
    the effect allows no save. A DC printed in the effect text, then ``Weapon.critical_dc``, win over the
    formula; a wielder not proficient with the weapon lowers any of them by 4 (GEN-13)."""
    eff = effect if effect is not None else parse_critical(weapon.critical)
    if eff is None or not eff.has_dc:
        return None
    terms: list[Term] = []
    if eff.dc is not None:
        terms.append(Term(eff.dc, f"DC printed with {eff.name}", "SV-07", B))
    elif weapon.critical_dc is not None:
        terms.append(Term(weapon.critical_dc, f"DC printed for {weapon.name}", "SV-07", B))
    else:
        terms.append(Term(options.critical_dc_base, "base", "SV-07", B))
        terms.append(Term(weapon.item_level // 2, f"half item level {weapon.item_level}", "SV-07", B))
        key = wielder.stat.key_ability
        ability = key if key is not None else stats.weapon_ability(weapon)
        mod = stats.ability_mod(wielder, ability).total
        why = "key ability" if key is not None else "no key ability: attack ability"
        terms.append(Term(mod, f"{stats.NAMES[ability]} modifier ({why})", "SV-07", B))
    if not stats.weapon_proficient(wielder, weapon):
        terms.append(Term(-4, "wielder not proficient with the weapon", "GEN-13", B))
    return explain(f"{eff.name} DC", terms)


def critical_dc(weapon: Weapon, wielder: Creature, options: Sf1eOptions = DEFAULT_OPTIONS) -> int | None:
    """The DC of the weapon's critical effect (SV-07), or None when it has no effect or the effect allows no
    save. See :func:`critical_dc_breakdown` for the terms."""
    bd = critical_dc_breakdown(weapon, wielder, options)
    return None if bd is None else bd.total


@dataclass(frozen=True, slots=True)
class CriticalResult:
    """What a critical effect did.

    ``status``: "applied" (the engine changed the defender), "resisted" (a save kept it off), "immune" (the
    creature is immune to the condition it would give), "recorded" (named in the log only; not carried out
    yet, or it needs something the caller did not give), "suppressed" (broken weapon, target immune to
    critical hits). ``applied`` is True when the engine resolved the effect for real (applied, resisted or
    immune); False when it was only recorded or suppressed.
    ``secondary_damage`` is arc damage already mitigated against ``secondary``, for the caller to apply with
    ``injury.apply_damage``."""

    effect: CriticalEffect
    defender: Creature
    status: CriticalStatus
    ledger: tuple[LedgerLine, ...]
    dc: Breakdown | None = None
    save: CheckResult | None = None
    added: tuple[ConditionInstance, ...] = ()
    secondary: Creature | None = None
    secondary_damage: DamageOutcome | None = None

    @property
    def applied(self) -> bool:
        return self.status in ("applied", "resisted", "immune")

    @property
    def recorded_only(self) -> bool:
        return self.status == "recorded"

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(line.describe() for line in self.ledger)


def apply_critical(
    effect: CriticalEffect,
    *,
    attacker: Creature,
    defender: Creature,
    weapon: Weapon,
    dice: DiceSource,
    broken: bool,
    zero_gravity: bool = False,
    secondary: Creature | None = None,
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> CriticalResult:
    """Carry out ``effect`` of a critical hit by ``attacker`` with ``weapon`` on ``defender`` (ATK-15).

    Saves are rolled from ``dice`` with the defender's save bonus. Conditions are added with
    ``conditions.add_condition`` (so stacking rules and condition immunities apply). ``secondary`` is the
    creature an arc leaps to, chosen by the caller with the grid. See the module docstring for each effect."""
    src = f"{attacker.name}'s {weapon.name} (critical: {effect.text})"
    ledger: list[LedgerLine] = []

    def note(text: str, rule: str = "ATK-15") -> None:
        ledger.append(LedgerLine("critical effect", 0, text, rule))

    def done(
        status: CriticalStatus,
        *,
        after: Creature | None = None,
        save: CheckResult | None = None,
        added: tuple[ConditionInstance, ...] = (),
        secondary_damage: DamageOutcome | None = None,
    ) -> CriticalResult:
        return CriticalResult(
            effect,
            after if after is not None else defender,
            status,
            tuple(ledger),
            dc=dc,
            save=save,
            added=added,
            secondary=secondary if secondary_damage is not None else None,
            secondary_damage=secondary_damage,
        )

    dc: Breakdown | None = None
    if broken or weapon.broken:
        note(f"{effect.describe()}: none, the weapon is broken", "CON-04")
        return done("suppressed")
    if immune_to_crits(defender):
        why = "incorporeal" if defender.stat.incorporeal else "immune to critical hits"
        note(f"{effect.describe()}: none, {defender.name} is {why}", "ATK-17")
        return done("suppressed")

    dc = critical_dc_breakdown(weapon, attacker, options, effect)
    name = effect.name

    def add(inst: ConditionInstance, what: str, save: CheckResult | None = None) -> CriticalResult:
        if cond.is_immune(defender, inst.name):
            note(f"{what}: {defender.name} is immune to {inst.name}")
            return done("immune", save=save)
        after = cond.add_condition(defender, inst)
        note(f"{what}: {defender.name} is {_shown(inst)}")
        return done("applied", after=after, save=save, added=(inst,))

    if name in ("deafen", "staggered"):
        gives = "deafened" if name == "deafen" else "staggered"
        if cond.is_immune(defender, gives):
            note(f"{effect.describe()}: {defender.name} is immune to {gives}")
            return done("immune")
        assert dc is not None  # both allow a save
        kind = effect.save if effect.save in ("fort", "ref", "will") else "fort"
        bonus = stats.save_bonus(defender, kind, options=options)
        save = resolve(CheckKind.SAVE, bonus, dc.total, dice, purpose=f"{defender.name} save vs {name}")
        verdict = f"{save.describe()} ({dc.describe()})"
        if save.success:
            note(f"{effect.describe()}: saved, {verdict}", "SV-07")
            return done("resisted", save=save)
        note(f"{effect.describe()}: save failed, {verdict}", "SV-07")
        if name == "staggered":
            inst = ConditionInstance(name="staggered", source=src, rounds=1)
            return add(inst, "staggered for 1 round", save)
        minutes = dice.die(4, f"{defender.name} deafened (minutes)")
        inst = ConditionInstance(name="deafened", source=src, rounds=minutes * 10)
        return add(inst, f"deafened for 1d4 [{minutes}] minutes = {minutes * 10} rounds", save)

    if name == "knockdown":
        if zero_gravity:
            inst = ConditionInstance(name="off-kilter", source=src)
            return add(inst, "knocked down in zero gravity: off-kilter instead of prone (CON-23)")
        if defender.has("prone"):
            note(f"knockdown: {defender.name} is already prone")
            return done("applied")
        return add(ConditionInstance(name="prone", source=src), "knocked down (MOD-18)")

    if name == "bleed":
        if not effect.amount:
            note("bleed without an amount: recorded")
            return done("recorded")
        inst = ConditionInstance(name="bleeding", source=src, value=effect.amount)
        return add(inst, f"bleed {effect.amount}")

    if name == "burn":
        shown = effect.amount or f"{cond.BURNING_DEFAULT} (the condition's default)"
        inst = ConditionInstance(name="burning", source=src, value=effect.amount)
        return add(inst, f"burn {shown}")

    if name == "corrode":
        if effect.amount:
            inst = ConditionInstance(name=CORRODING, source=src, value=effect.amount)
            return add(inst, f"corrode {effect.amount}")
        note(f"{effect.describe()}: no amount of acid damage given; recorded")
        return done("recorded")

    if name == "arc":
        if not effect.amount or secondary is None:
            why = "no amount" if not effect.amount else "no other creature within 10 ft of the target"
            note(f"{effect.describe()}: recorded ({why})")
            return done("recorded")
        expr: DiceExpr = parse(effect.amount)
        if not expr.types:
            expr = expr.typed(weapon.damage_types)
        droll = roll_damage(expr, Breakdown("arc", 0, ()), dice, purpose=f"arc to {secondary.name}", options=options)
        outcome = mitigate(
            droll,
            secondary,
            magic=weapon.magic,
            materials=weapon.materials,
            alignment=weapon.alignment,
            from_incorporeal=attacker.stat.incorporeal,
            options=options,
        )
        note(f"arc {effect.amount} (not doubled): {secondary.name} takes {outcome.amount} ({droll.rolls[0]})")
        return done("applied", secondary_damage=outcome)

    # recorded only: wounds, injection, degeneration and effects the engine does not know
    dc_text = f", DC {dc.total}" if dc is not None else ""
    kind = "not applied yet" if effect.known else "unknown effect"
    note(f"{effect.describe()}{dc_text}: recorded ({kind})")
    return done("recorded")


def _shown(inst: ConditionInstance) -> str:
    bits = [inst.name]
    if inst.value:
        bits.append(inst.value)
    if inst.rounds is not None:
        bits.append(f"for {inst.rounds} round{'s' if inst.rounds != 1 else ''}")
    return " ".join(bits)


__all__ = [
    "APPLIED",
    "CriticalEffect",
    "CriticalResult",
    "CriticalStatus",
    "apply_critical",
    "critical_dc",
    "critical_dc_breakdown",
    "immune_to_crits",
    "parse_critical",
]
