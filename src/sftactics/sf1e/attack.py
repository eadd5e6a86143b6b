"""One attack, resolved by the book and explained (ATK-01..08, ATK-14..19, DMG-01..16).

:func:`resolve_attack` is the kernel's whole attack: which AC and why (ATK-08), the attack total term by term,
the d20 with natural 1/20 (ATK-05), the critical hit test (ATK-14, ATK-17), damage rolled and mitigated
(``damage.py``), applied to the target's pools (``injury.py``), and the weapon's critical effect
(``criticals.py``). Positions, range, cover and flanking belong to the grid; the caller passes what they give as
:class:`Situation` terms. Nothing is changed when the attack is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sftactics.core.breakdown import Breakdown, Term, constant
from sftactics.core.check import NORMAL, CheckKind, CheckResult, RollMode, resolve
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import criticals, damage, injury, stats
from sftactics.sf1e.injury import InjuryResult
from sftactics.sf1e.modifiers import terms_from_mods
from sftactics.sf1e.options import DEFAULT_OPTIONS, Sf1eOptions
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.state import Creature


@dataclass(frozen=True, slots=True)
class Situation:
    """What the surroundings add to one attack. ``attack_terms`` and ``ac_terms`` come from the grid and the
        action (cover +4 AC, flanking +2, charge -2, range penalty...). ``target_ac`` replaces the target's AC for
        attacks against a fixed number (AC 15 covering fire, AC 5 grid intersection: ATK-18). ``nonlethal``: deal
        nonlethal damage (a lethal weapon used so takes -4, DMG-11); ``lethal``: a nonlethal weapon used to kill
        (-4, DMG-11). ``force``: a force effect (full damage to incorporeal creatures, SPA-12). ``secondary``: the
        creature an Arc critical effect jumps to (the nearest one within 10 ft, found by the grid), ``secondary_ctx``
    when its damage lands. ``miss_chance``:
        the target's concealment in percent (20, or 50 for total concealment): a hit still misses on a d% roll at or
        under it (MOD-04, MOD-05)."""

    attack_terms: tuple[Term, ...] = ()
    ac_terms: tuple[Term, ...] = ()
    tags: frozenset[str] = frozenset()
    target_ac: Breakdown | None = None
    nonlethal: bool = False
    lethal: bool = False
    multipliers: tuple[float, ...] = ()
    force: bool = False
    zero_gravity: bool = False
    secondary: Creature | None = None
    secondary_ctx: injury.InjuryContext = field(default_factory=injury.InjuryContext)
    miss_chance: int = 0
    miss_reason: str = ""
    mode: RollMode = NORMAL
    ctx: injury.InjuryContext = field(default_factory=injury.InjuryContext)


@dataclass(frozen=True, slots=True)
class AttackResult:
    attacker: Creature
    defender: Creature
    weapon: Weapon
    ac_kind: str
    ac_reason: str
    ac: Breakdown
    roll: CheckResult
    hit: bool
    critical: bool
    critical_note: str
    damage_roll: damage.DamageRoll | None
    damage: damage.DamageOutcome | None
    injury: InjuryResult | None
    critical_effect: criticals.CriticalResult | None
    secondary: Creature | None = None
    secondary_injury: InjuryResult | None = None
    concealment: str = ""

    def lines(self) -> list[str]:
        """The attack explained, one line per step, for people."""
        a, d = self.attacker.name, self.defender.name
        out = [f"{a} attacks {d} with {self.weapon.name}."]
        out.append(f"Target: {self.ac_kind.upper()} ({self.ac_reason})")
        out.append(f"  {self.ac.describe()}")
        for s in self.ac.suppressed:
            out.append(f"    (not counted: {s.term.describe()} - {s.reason})")
        out.append(f"Attack: {self.roll.bonus.describe()}")
        for s in self.roll.bonus.suppressed:
            out.append(f"    (not counted: {s.term.describe()} - {s.reason})")
        out.append(f"  Roll: {self.roll.describe()}" + (f" - {self.roll.note}" if self.roll.note else ""))
        if self.concealment:
            out.append(f"  {self.concealment}")
        verdict = "critical hit" if self.critical else ("hit" if self.hit else "miss")
        out.append(f"  Result: {verdict}" + (f" ({self.critical_note})" if self.critical_note else ""))
        if self.damage_roll is not None:
            out.append("Damage:")
            out += [f"  {line.describe()}" for line in self.damage_roll.ledger]
        if self.damage is not None:
            # the full ledger stays in the result; for people, skip the lines that repeat the roll
            steps = [x for x in self.damage.ledger if x.step not in ("incoming", "total")]
            out += [f"  {line.describe()}" for line in steps]
            if steps:
                out += [f"  {line.describe()}" for line in self.damage.ledger if line.step == "total"]
        if self.injury is not None:
            out += [f"  {line}" for line in self.injury.lines]
        if self.critical_effect is not None:
            out += [f"Critical effect: {line}" for line in self.critical_effect.lines]
        if self.secondary_injury is not None:
            out += [f"  {line}" for line in self.secondary_injury.lines]
        st = self.defender.state
        out.append(f"{d}: SP {st.sp}, HP {st.hp}, RP {st.rp}" + _conditions_suffix(self.defender))
        return out

    def to_dict(self) -> dict[str, object]:
        return {
            "attacker": self.attacker.id,
            "defender": self.defender.id,
            "weapon": self.weapon.name,
            "ac_kind": self.ac_kind,
            "ac_reason": self.ac_reason,
            "ac": self.ac.to_dict(),
            "roll": self.roll.to_dict(),
            "hit": self.hit,
            "critical": self.critical,
            "critical_note": self.critical_note,
            "damage": None if self.damage is None else self.damage.amount,
            "defender_after": self.defender.state.model_dump(mode="json"),
            "lines": self.lines(),
        }


def _conditions_suffix(c: Creature) -> str:
    names = [ci.name + (f" {ci.value}" if ci.value else "") for ci in c.state.conditions]
    return f"; {', '.join(names)}" if names else ""


def target_ac(
    attacker: Creature,
    defender: Creature,
    weapon: Weapon,
    situation: Situation = Situation(),
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> tuple[str, str, Breakdown]:
    """Which AC the attack targets (ATK-08) and its value against this attack."""
    kind, reason = damage.weapon_targets_ac(
        weapon.damage_types,
        explicit=weapon.targets,
        incorporeal_attacker=attacker.stat.incorporeal,
        options=options,
    )
    if situation.target_ac is not None:
        return kind, f"fixed target number: {situation.target_ac.label} (ATK-18)", situation.target_ac
    vs = "melee" if weapon.is_melee else "ranged"
    ac = stats.armor_class(defender, kind, vs=vs, tags=situation.tags, options=options)
    if situation.ac_terms:
        ac = ac.plus(*situation.ac_terms, tags=situation.tags | {f"vs:{vs}"})
    return kind, reason, ac


def attack_terms_against(attacker: Creature, defender: Creature, weapon: Weapon, options: Sf1eOptions) -> list[Term]:
    """Terms the *target's* state adds to attacks against it (helpless: +4 to melee, MOD-19)."""
    tags = stats.attack_kind_tags(weapon)
    active = cond.active(defender)
    out: list[Term] = []
    for name, d in active.items():
        out += terms_from_mods(f"target {name}", d.rule, d.mods, frozenset({"attack_against"}), tags)
    if not options.helpless_prone_stack and "prone" in active:
        out = [t for t in out if "helpless" not in t.label]
    return out


def check_can_attack(attacker: Creature) -> None:
    """Refuse an attack by a creature whose conditions forbid attacking."""
    limits = stats.action_limits(attacker)
    if limits.none:
        blockers = [n for n, d in cond.active(attacker).items() if d.actions.none]
        rule = cond.CONDITIONS[blockers[0]].rule if blockers else "CF-17"
        raise RuleViolation(rule, f"{attacker.name} cannot act ({', '.join(sorted(blockers)) or 'restricted'})")
    if not limits.attack or limits.mental_only:
        blockers = [n for n, d in cond.active(attacker).items() if not d.actions.attack or d.actions.mental_only]
        rule = cond.CONDITIONS[blockers[0]].rule if blockers else "CF-17"
        raise RuleViolation(rule, f"{attacker.name} cannot attack while {', '.join(sorted(blockers))}")


def resolve_attack(
    attacker: Creature,
    defender: Creature,
    weapon: Weapon | str,
    dice: DiceSource,
    situation: Situation = Situation(),
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> AttackResult:
    """Resolve one attack roll and its consequences. Raises RuleViolation (changing nothing) if the attacker
    cannot attack."""
    if isinstance(weapon, str):
        weapon = attacker.stat.weapon(weapon)
    check_can_attack(attacker)
    if defender.has("dead") and not situation.target_ac:
        raise RuleViolation("CON-10", f"{defender.name} is already dead")
    kind, reason, ac = target_ac(attacker, defender, weapon, situation, options)

    extra = list(situation.attack_terms)
    extra += attack_terms_against(attacker, defender, weapon, options)
    nonlethal = situation.nonlethal or (weapon.nonlethal and not situation.lethal)
    if situation.nonlethal and not weapon.nonlethal:
        extra.append(Term(-4, "nonlethal damage with a lethal weapon", "DMG-11"))
    if situation.lethal and weapon.nonlethal:
        extra.append(Term(-4, "lethal damage with a nonlethal weapon", "DMG-11"))
    bonus = stats.attack_bonus(attacker, weapon, tags=situation.tags, extra=extra, options=options)
    roll = resolve(
        CheckKind.ATTACK, bonus, ac.total, dice, purpose=f"{attacker.name} attack ({weapon.name})",
        mode=situation.mode,
    )  # fmt: skip
    hit = roll.success
    crit = hit and roll.natural == 20 and roll.total >= ac.total
    note = ""
    if hit and roll.natural == 20 and not crit:
        note = "natural 20 hits, but the total is below the AC: normal damage (ATK-14)"
    if crit and criticals.immune_to_crits(defender):
        crit = False
        note = f"{defender.name} is immune to critical hits: normal damage, no critical effect (ATK-17)"

    concealed = ""
    if hit and situation.miss_chance > 0:
        d100 = dice.percentile(f"{attacker.name} miss chance against {defender.name}")
        why = f" ({situation.miss_reason})" if situation.miss_reason else ""
        if d100 <= situation.miss_chance:
            hit = crit = False
            note = ""
            concealed = f"Concealment {situation.miss_chance}%{why}: d% {d100}, the attack misses (MOD-04)"
        else:
            concealed = f"Concealment {situation.miss_chance}%{why}: d% {d100}, the attack gets through (MOD-04)"
    if not hit:
        return AttackResult(
            attacker, defender, weapon, kind, reason, ac, roll, False, False, note, None, None, None, None,
            concealment=concealed,
        )  # fmt: skip

    dmg_bonus = stats.damage_bonus(attacker, weapon, tags=situation.tags, options=options)
    droll = damage.roll_damage(
        weapon.damage_expr,
        dmg_bonus,
        dice,
        multipliers=situation.multipliers,
        critical=crit,
        nonlethal=nonlethal,
        purpose=f"{attacker.name} damage ({weapon.name})",
        options=options,
    )
    outcome = damage.mitigate(
        droll,
        defender,
        magic=weapon.magic,
        materials=weapon.materials,
        alignment=weapon.alignment,
        force=situation.force,
        from_incorporeal=attacker.stat.incorporeal,
        options=options,
    )
    inj = injury.apply_damage(defender, outcome.amount, nonlethal=outcome.nonlethal, ctx=situation.ctx,
                              options=options)  # fmt: skip
    after = inj.creature
    crit_result = None
    secondary, secondary_injury = situation.secondary, None
    if crit and weapon.critical:
        effect = criticals.parse_critical(weapon.critical)
        if effect is not None and not outcome.negated and not after.has("dead"):
            crit_result = criticals.apply_critical(
                effect,
                attacker=attacker,
                defender=after,
                weapon=weapon,
                dice=dice,
                broken=weapon.broken,
                zero_gravity=situation.zero_gravity,
                secondary=situation.secondary,
                options=options,
            )
            after = crit_result.defender
            if crit_result.secondary is not None and crit_result.secondary_damage is not None:
                secondary_injury = injury.apply_damage(
                    crit_result.secondary,
                    crit_result.secondary_damage.amount,
                    nonlethal=crit_result.secondary_damage.nonlethal,
                    ctx=situation.secondary_ctx,
                    options=options,
                )
                secondary = secondary_injury.creature
    return AttackResult(
        attacker, after, weapon, kind, reason, ac, roll, True, crit, note, droll, outcome, inj, crit_result,
        secondary, secondary_injury, concealed,
    )  # fmt: skip


def fixed_ac(label: str, value: int, rule: str) -> Breakdown:
    """A fixed target number such as AC 15 (covering fire) or AC 5 (grid intersection), ATK-18."""
    return constant(label, value, rule)
