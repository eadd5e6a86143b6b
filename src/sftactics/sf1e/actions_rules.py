"""The numbers of special attack actions, without the map or the turn order (ACT-15, ACT-17, ACT-19, ACT-50,
ACT-51, ACT-54, ATK-12, ATK-13).

Each function checks the request, rolls what the rule rolls and returns a frozen result: the new creatures, the
terms the encounter must put on later rolls, and how long they last. Positions (line of effect, adjacency,
charge lanes, where a grenade lands and who is in its burst) come from the grid through the caller; durations
anchored to a turn ("until the start of your next turn") are the encounter's to keep, so results name them in
the encounter's own words: ``expires`` ("turn_start" or "turn_end") of ``expires_anchor`` (a combatant id).

* **Covering fire** (ACT-15) and **harrying fire** (ACT-19): a ranged attack roll against AC 15 that deals no
  damage (only the roll is resolved; natural 1 and 20 count, as for any attack roll). A hit gives a +2
  circumstance term: to the chosen ally's AC against the next attack from a creature in the shooter's line of
  effect (covering), or to the next ally's attack roll against the foe (harrying), either until the shooter's
  next turn. Covering fire from several shooters does not stack (same kind of source, BON-05, §22 default;
  ``covering_fire_stacks`` switches that).
* **Feint** (ACT-17): Bluff against max(10 + the target's Sense Motive total, 15 + 1½ × its CR, rounded down);
  not against a creature without Intelligence. Success: the target is flat-footed against the feinter's next
  attack before the end of the feinter's next turn (a -2 AC term with the flat-footed condition's source, so it
  does not add to a real flat-footed).
* **Charge** (ACT-50): -2 to the attack, -2 AC until the start of the charger's next turn, a move of 10 ft to
  twice the speed; refused while entangled, fatigued or exhausted.
* **Coup de grace** (ACT-51): an automatic critical hit against a helpless creature; a survivor saves
  (Fortitude, DC 10 + the attacker's level or CR) or dies. Against a creature immune to critical hits: normal
  damage, no critical effect, no save.
* **Run** (ACT-54): up to 4 × speed in a straight line; the runner is flat-footed until the start of its next
  turn (§22 default); refused while entangled, fatigued or exhausted.
* **Grenades** (ATK-12, ATK-13): :func:`throw_grenade` is the ranged attack against AC 5 on a grid intersection
  and, on a miss, the d8 (direction) and d4 (squares) of the scatter, turned into a landing point by the grid's
  scatter function the caller passes in (this package does not import the grid); :func:`explode` deals the
  damage to the creatures the caller found in the area, each with a Reflex save for half (rounded down).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import Final, Literal

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain
from sftactics.core.check import CheckKind, CheckResult, resolve
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import criticals, damage, injury, saves, stats
from sftactics.sf1e.attack import Situation, check_can_attack, fixed_ac
from sftactics.sf1e.injury import InjuryContext, InjuryResult
from sftactics.sf1e.options import DEFAULT_OPTIONS, Sf1eOptions
from sftactics.sf1e.statblock import ModifierSpec, Weapon
from sftactics.sf1e.state import ConditionInstance, Creature

B = BonusType.BASE
C = BonusType.CIRCUMSTANCE

#: The fixed AC of covering and harrying fire (ACT-15, ACT-19, ATK-18).
SUPPORT_FIRE_AC: Final = 15
#: Their circumstance bonus (ACT-15, ACT-19).
SUPPORT_FIRE_BONUS: Final = 2
#: ACT-15 default (§22): covering fire from several shooters is the same kind of source and does not stack.
COVERING_FIRE_STACKS: Final = False
#: The AC of a grid intersection (ATK-12).
INTERSECTION_AC: Final = 5
#: Feint DC parts (ACT-17).
FEINT_SENSE_MOTIVE_BASE: Final = 10
FEINT_CR_BASE: Final = 15
FEINT_CR_FACTOR: Final = Fraction(3, 2)
#: Charge numbers (ACT-50).
CHARGE_PENALTY: Final = 2
CHARGE_MIN_FT: Final = 10
CHARGE_SPEED_MULTIPLE: Final = 2
#: Run (ACT-54).
RUN_SPEED_MULTIPLE: Final = 4
#: Coup de grace save DC base (ACT-51).
COUP_DE_GRACE_DC_BASE: Final = 10
#: Base of an item's save DC when none is printed: 10 + half item level + key ability modifier (SV-07, XREF).
ITEM_DC_BASE: Final = 10

#: The default: no situational terms.
NO_SITUATION: Final = Situation()

Expires = Literal["turn_start", "turn_end"]
Point = tuple[int, int]


def _lines_of(bd: Breakdown, label: str) -> list[str]:
    out = [f"  {label}: {bd.describe()}"]
    out += [f"    (not counted: {s.term.describe()} - {s.reason})" for s in bd.suppressed]
    return out


def _full_action(creature: Creature, rule: str, what: str) -> None:
    """Refuse a full action the creature's conditions do not allow (staggered, nauseated...)."""
    if not stats.action_limits(creature).full:
        blockers = sorted(n for n, d in cond.active(creature).items() if not d.actions.full)
        r = cond.CONDITIONS[blockers[0]].rule if blockers else rule
        raise RuleViolation(r, f"{creature.name} cannot take a full action ({what}) while {', '.join(blockers)}")


def _no_run_charge(creature: Creature, what: str) -> None:
    """Entangled, fatigued and exhausted creatures can neither run nor charge (CON-14, CON-15, CON-17)."""
    for name, d in sorted(cond.active(creature).items()):
        if d.no_run_charge:
            raise RuleViolation(d.rule, f"{creature.name} cannot {what} while {name}")


# ------------------------------------------------------------------------------------------- covering/harrying
@dataclass(frozen=True, slots=True)
class SupportFireResult:
    """Covering fire or harrying fire: the roll against AC 15 and, on a hit, the +2 circumstance term.

    ``ac_term`` (covering fire): for ``ally``'s AC against the next attack by a creature in the shooter's line
    of effect. ``attack_term`` (harrying fire): for the next ally's attack roll against ``foe``. Either lasts
    until the start of the shooter's next turn (``expires`` of ``expires_anchor``) or until used once."""

    kind: Literal["covering fire", "harrying fire"]
    attacker: Creature
    weapon: Weapon
    ac: Breakdown
    roll: CheckResult
    hit: bool
    ally: str
    foe: str
    ac_term: Term | None
    attack_term: Term | None
    expires: Expires
    expires_anchor: str
    lines: tuple[str, ...]

    def describe(self) -> str:
        return "\n".join(self.lines)


def _support_roll(
    attacker: Creature, weapon: Weapon | str, dice: DiceSource, situation: Situation, rule: str, what: str,
    options: Sf1eOptions,
) -> tuple[Weapon, Breakdown, Breakdown, CheckResult]:  # fmt: skip
    wpn = attacker.stat.weapon(weapon) if isinstance(weapon, str) else weapon
    check_can_attack(attacker)
    if wpn.is_melee and not wpn.thrown:
        raise RuleViolation(rule, f"{what} is a ranged attack: {wpn.name} is a melee weapon")
    ac = fixed_ac(what, SUPPORT_FIRE_AC, rule)
    bonus = stats.attack_bonus(attacker, wpn, tags=situation.tags, extra=situation.attack_terms, options=options)
    roll = resolve(
        CheckKind.ATTACK, bonus, ac.total, dice, purpose=f"{attacker.name} {what} ({wpn.name})", mode=situation.mode
    )
    return wpn, ac, bonus, roll


def covering_fire(
    attacker: Creature,
    weapon: Weapon | str,
    ally: Creature | str,
    dice: DiceSource,
    *,
    situation: Situation = NO_SITUATION,
    covering_fire_stacks: bool = COVERING_FIRE_STACKS,
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> SupportFireResult:
    """Covering fire for ``ally`` (ACT-15): a ranged attack roll against AC 15, no damage; a hit gives the ally
    +2 circumstance to AC against the next attack from a creature in the shooter's line of effect before the
    shooter's next turn. ``situation`` gives the shot's own terms (range penalty...) and roll mode; its
    ``target_ac`` is ignored. With ``covering_fire_stacks`` (not the default) each shooter's bonus is its own
    source."""
    ally_id = ally if isinstance(ally, str) else ally.id
    wpn, ac, bonus, roll = _support_roll(attacker, weapon, dice, situation, "ACT-15", "covering fire", options)
    lines = [f"{attacker.name} lays down covering fire for {ally_id} with {wpn.name} [ACT-15]"]
    lines += _lines_of(ac, "Target") + _lines_of(bonus, "Attack")
    lines.append(f"  Roll: {roll.describe()}" + (f" - {roll.note}" if roll.note else ""))
    term = None
    if roll.success:
        source = f"covering fire ({attacker.id})" if covering_fire_stacks else "covering fire"
        term = Term(SUPPORT_FIRE_BONUS, f"covering fire from {attacker.name}", "ACT-15", C, source)
        lines.append(
            f"hit, no damage: {ally_id} gets {term.describe()} to AC against the next attack from a creature in "
            f"{attacker.name}'s line of effect, until {attacker.name}'s next turn [ACT-15]"
        )
    else:
        lines.append("miss: no covering fire [ACT-15]")
    return SupportFireResult(
        "covering fire", attacker, wpn, ac, roll, roll.success, ally_id, "", term, None, "turn_start", attacker.id,
        tuple(lines),
    )  # fmt: skip


def harrying_fire(
    attacker: Creature,
    weapon: Weapon | str,
    foe: Creature | str,
    dice: DiceSource,
    *,
    situation: Situation = NO_SITUATION,
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> SupportFireResult:
    """Harrying fire at ``foe`` (ACT-19): a ranged attack roll against AC 15, no damage; a hit gives the next
    ally to attack the foe +2 circumstance to that attack roll, if it comes before the shooter's next turn."""
    foe_id = foe if isinstance(foe, str) else foe.id
    wpn, ac, bonus, roll = _support_roll(attacker, weapon, dice, situation, "ACT-19", "harrying fire", options)
    lines = [f"{attacker.name} harries {foe_id} with {wpn.name} [ACT-19]"]
    lines += _lines_of(ac, "Target") + _lines_of(bonus, "Attack")
    lines.append(f"  Roll: {roll.describe()}" + (f" - {roll.note}" if roll.note else ""))
    term = None
    if roll.success:
        term = Term(SUPPORT_FIRE_BONUS, f"harrying fire from {attacker.name}", "ACT-19", C, "harrying fire")
        lines.append(
            f"hit, no damage: the next ally to attack {foe_id} gets {term.describe()} on that attack roll, "
            f"until {attacker.name}'s next turn [ACT-19]"
        )
    else:
        lines.append("miss: no harrying fire [ACT-19]")
    return SupportFireResult(
        "harrying fire", attacker, wpn, ac, roll, roll.success, "", foe_id, None, term, "turn_start", attacker.id,
        tuple(lines),
    )  # fmt: skip


# ------------------------------------------------------------------------------------------- feint
@dataclass(frozen=True, slots=True)
class FeintResult:
    """A feint (ACT-17). On a success ``ac_term`` (-2, flat-footed) goes on ``defender``'s AC against
    ``attacker``'s next attack, if it comes before the end of the attacker's next turn (``expires``)."""

    attacker: Creature
    defender: Creature
    dc: Breakdown
    check: CheckResult
    success: bool
    ac_term: Term | None
    expires: Expires
    expires_anchor: str
    lines: tuple[str, ...]

    def describe(self) -> str:
        return "\n".join(self.lines)


_SENSE_MOTIVE_KEYS: Final = ("sense_motive", "sense motive", "sense-motive", "sensemotive")


def sense_motive_total(creature: Creature) -> Breakdown:
    """A creature's Sense Motive total: its printed bonus (key ``sense_motive`` or ``sense motive``), or its
    Wisdom modifier when none is printed (an untrained check, XREF Sense Motive), with condition modifiers."""
    for key in _SENSE_MOTIVE_KEYS:
        if key in creature.stat.skills:
            return stats.skill_bonus(creature, key, ability="wis")
    wis = stats.ability_mod(creature, "wis").total
    return stats.skill_bonus(creature, "sense_motive", bonus=wis, ability="wis")


def feint_dc(defender: Creature, *, sense_motive: int | Breakdown | None = None) -> Breakdown:
    """The feint DC (ACT-17): the greater of 10 + the target's Sense Motive total and 15 + 1½ × its CR (rounded
    down, §22 default; a character's level stands for CR). ``sense_motive`` overrides the total."""
    if sense_motive is None:
        sm = sense_motive_total(defender).total
    else:
        sm = sense_motive if isinstance(sense_motive, int) else sense_motive.total
    by_skill = explain(
        "feint DC",
        [Term(FEINT_SENSE_MOTIVE_BASE, "base", "ACT-17", B), Term(sm, f"{defender.name}'s Sense Motive", "ACT-17", B)],
    )
    cr = defender.stat.cr_value
    scaled = floor(FEINT_CR_FACTOR * cr)
    by_cr = explain(
        "feint DC",
        [Term(FEINT_CR_BASE, "base", "ACT-17", B), Term(scaled, f"1½ × CR {cr} (rounded down)", "ACT-17", B)],
    )
    return by_skill if by_skill.total >= by_cr.total else by_cr


def feint(
    attacker: Creature,
    defender: Creature,
    dice: DiceSource,
    *,
    bluff: int | None = None,
    sense_motive: int | Breakdown | None = None,
) -> FeintResult:
    """Feint (ACT-17): a Bluff check (``bluff``: the attacker's bonus, default its printed one) against
    :func:`feint_dc`. Refused against a creature without Intelligence. No taking 10 or 20: it is always rolled.
    A skill check, so natural 1 and 20 are not automatic."""
    if defender.stat.base_mod("int") is None:
        raise RuleViolation("ACT-17", f"{defender.name} has no Intelligence score: it cannot be feinted")
    if defender.has("dead"):
        raise RuleViolation("CON-10", f"{defender.name} is dead")
    dc = feint_dc(defender, sense_motive=sense_motive)
    bonus = stats.skill_bonus(attacker, "bluff", bonus=bluff, ability="cha")
    check = resolve(CheckKind.SKILL, bonus, dc.total, dice, purpose=f"{attacker.name} feint (Bluff)")
    lines = [f"{attacker.name} feints against {defender.name} [ACT-17]"]
    lines += _lines_of(dc, "DC") + _lines_of(bonus, "Bluff")
    lines.append(f"  Roll: {check.describe()}")
    term = None
    if check.success:
        term = Term(-2, f"flat-footed against {attacker.name} (feint)", "ACT-17", source="flat-footed")
        lines.append(
            f"success: {defender.name} is flat-footed ({term.value}) against {attacker.name}'s next attack before "
            f"the end of {attacker.name}'s next turn [ACT-17]"
        )
    else:
        lines.append(f"failure: {defender.name} is not fooled [ACT-17]")
    return FeintResult(attacker, defender, dc, check, check.success, term, "turn_end", attacker.id, tuple(lines))


# ------------------------------------------------------------------------------------------- charge
@dataclass(frozen=True, slots=True)
class ChargeResult:
    """The numbers of a charge (ACT-50). ``attack_term`` goes on the charge's one melee attack (Situation
    attack_terms); ``ac_modifier`` is the charger's -2 AC, to keep until the start of its next turn
    (``expires``; ``ac_term`` is the same as a term). The move is ``min_ft`` to ``max_ft``, straight at the
    opponent along a clear lane (the grid checks that)."""

    creature: Creature
    attack_term: Term
    ac_term: Term
    ac_modifier: ModifierSpec
    min_ft: int
    max_ft: int
    expires: Expires
    expires_anchor: str
    lines: tuple[str, ...]


def charge(creature: Creature, *, distance_ft: int | None = None) -> ChargeResult:
    """The rules part of a charge (ACT-50): refused for a creature that cannot take a full action or attack,
    or that is entangled, fatigued or exhausted; a move of at least 10 ft and at most twice its speed
    (``distance_ft``, when given, is checked against those)."""
    _full_action(creature, "ACT-50", "charge")
    check_can_attack(creature)
    _no_run_charge(creature, "charge")
    speed = stats.speed(creature).total
    max_ft = CHARGE_SPEED_MULTIPLE * speed
    if max_ft < CHARGE_MIN_FT:
        raise RuleViolation("ACT-50", f"{creature.name} cannot move the {CHARGE_MIN_FT} ft a charge needs")
    if distance_ft is not None and not CHARGE_MIN_FT <= distance_ft <= max_ft:
        raise RuleViolation(
            "ACT-50", f"a charge moves {CHARGE_MIN_FT} to {max_ft} ft (twice {speed} ft), not {distance_ft} ft"
        )
    atk = Term(-CHARGE_PENALTY, "charge", "ACT-50")
    ac = Term(-CHARGE_PENALTY, "charging", "ACT-50")
    mod = ModifierSpec(selector="ac", value=-CHARGE_PENALTY, label="charging", rule="ACT-50")
    lines = (
        f"{creature.name} charges: moves {CHARGE_MIN_FT} to {max_ft} ft straight at the opponent, then one melee "
        f"attack at {atk.value} [ACT-50]",
        f"{creature.name} takes {ac.value} AC until the start of its next turn [ACT-50]",
    )
    return ChargeResult(creature, atk, ac, mod, CHARGE_MIN_FT, max_ft, "turn_start", creature.id, lines)


# ------------------------------------------------------------------------------------------- run
@dataclass(frozen=True, slots=True)
class RunResult:
    """A run (ACT-54): ``creature`` now flat-footed (``condition``) until the start of its next turn
    (``expires``); it may move up to ``max_ft`` in a straight line, and the move provokes as movement does."""

    creature: Creature
    max_ft: int
    condition: ConditionInstance
    expires: Expires
    expires_anchor: str
    provokes: bool
    lines: tuple[str, ...]


RUN_SOURCE: Final = "running"


def run(creature: Creature, *, mode: str | None = None, rounds_run: int = 0) -> RunResult:
    """The rules part of running (ACT-54): refused for a creature that cannot take a full action, is entangled,
    fatigued or exhausted, is burrowing or climbing, cannot move, or has already run as many rounds as its
    Constitution score (``rounds_run``; a creature without Constitution has no limit)."""
    _full_action(creature, "ACT-54", "run")
    _no_run_charge(creature, "run")
    if mode is None:
        mode = stats.move_mode(creature)
    if mode in ("burrow", "climb"):
        raise RuleViolation("ACT-54", f"{creature.name} cannot run while {mode}ing (burrowing or climbing)")
    con = stats.ability_score(creature, "con")
    if con is not None and rounds_run >= con:
        raise RuleViolation(
            "ACT-54", f"{creature.name} has run {rounds_run} rounds: its limit is its Constitution {con}"
        )
    speed = stats.speed(creature, mode).total
    if speed <= 0:
        raise RuleViolation("ACT-54", f"{creature.name} has no {mode} speed to run with")
    inst = ConditionInstance(name="flat-footed", source=RUN_SOURCE)
    after = cond.add_condition(creature, inst)
    max_ft = RUN_SPEED_MULTIPLE * speed
    lines = (
        f"{creature.name} runs: up to {max_ft} ft ({RUN_SPEED_MULTIPLE} × {speed} ft) in a straight line; the move "
        "provokes attacks of opportunity [ACT-54]",
        f"{creature.name} is flat-footed until the start of its next turn [ACT-54]",
    )
    return RunResult(after, max_ft, inst, "turn_start", creature.id, True, lines)


# ------------------------------------------------------------------------------------------- coup de grace
@dataclass(frozen=True, slots=True)
class CoupDeGraceResult:
    """A coup de grace (ACT-51): the damage (a critical unless the target is immune), the critical effect, and
    the save against death a survivor makes (``dc``/``save``; None when none was due)."""

    attacker: Creature
    defender: Creature
    weapon: Weapon
    critical: bool
    damage_roll: damage.DamageRoll
    damage: damage.DamageOutcome
    injury: InjuryResult
    critical_effect: criticals.CriticalResult | None
    dc: Breakdown | None
    save: CheckResult | None
    died: bool
    lines: tuple[str, ...]

    def describe(self) -> str:
        return "\n".join(self.lines)


def coup_de_grace_dc(attacker: Creature) -> Breakdown:
    """10 + the attacker's level, or its CR (rounded down) when it has no level (ACT-51)."""
    if attacker.stat.level is not None:
        part = Term(attacker.stat.level, f"{attacker.name}'s level", "ACT-51", B)
    else:
        part = Term(floor(attacker.stat.cr_value), f"{attacker.name}'s CR {attacker.stat.cr}", "ACT-51", B)
    return explain("coup de grace DC", [Term(COUP_DE_GRACE_DC_BASE, "base", "ACT-51", B), part])


def coup_de_grace(
    attacker: Creature,
    defender: Creature,
    weapon: Weapon | str,
    dice: DiceSource,
    *,
    zero_gravity: bool = False,
    ctx: InjuryContext = injury.NO_CONTEXT,
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> CoupDeGraceResult:
    """Coup de grace (ACT-51) on an adjacent (the grid's check) helpless defender: no attack roll, an automatic
    critical hit (damage rolled twice, the weapon's critical effect), then a Fortitude save against
    :func:`coup_de_grace_dc` or death if the defender survived. A defender immune to critical hits takes normal
    damage, no critical effect and no save. Dice: damage, then the critical effect's, then the save."""
    wpn = attacker.stat.weapon(weapon) if isinstance(weapon, str) else weapon
    _full_action(attacker, "ACT-51", "coup de grace")
    check_can_attack(attacker)
    if defender.has("dead"):
        raise RuleViolation("CON-10", f"{defender.name} is already dead")
    if "helpless" not in cond.active(defender):
        raise RuleViolation("ACT-51", f"{defender.name} is not helpless: no coup de grace")
    a, d = attacker.name, defender.name
    immune = criticals.immune_to_crits(defender)
    lines = [f"{a} delivers a coup de grace to helpless {d} with {wpn.name}: automatic hit [ACT-51]"]
    if immune:
        lines.append(f"{d} is immune to critical hits: normal damage, no critical effect, no save or die [ATK-17]")
    else:
        lines.append("automatic critical hit [ACT-51]")
    dmg_bonus = stats.damage_bonus(attacker, wpn, options=options)
    droll = damage.roll_damage(
        wpn.damage_expr, dmg_bonus, dice, critical=not immune, nonlethal=wpn.nonlethal,
        purpose=f"{a} coup de grace ({wpn.name})", options=options,
    )  # fmt: skip
    outcome = damage.mitigate(
        droll, defender, magic=wpn.magic, materials=wpn.materials, alignment=wpn.alignment,
        from_incorporeal=attacker.stat.incorporeal, options=options,
    )  # fmt: skip
    lines += [f"  {line.describe()}" for line in droll.ledger]
    lines += [f"  {line.describe()}" for line in outcome.ledger if line.step not in ("incoming", "total")]
    inj = injury.apply_damage(defender, outcome.amount, nonlethal=outcome.nonlethal, ctx=ctx, options=options)
    lines += [f"  {line}" for line in inj.lines]
    after = inj.creature
    crit_result = None
    if not immune and wpn.critical and not outcome.negated and not after.has("dead"):
        effect = criticals.parse_critical(wpn.critical)
        if effect is not None:
            crit_result = criticals.apply_critical(
                effect, attacker=attacker, defender=after, weapon=wpn, dice=dice, broken=wpn.broken,
                zero_gravity=zero_gravity, options=options,
            )  # fmt: skip
            after = crit_result.defender
            lines += [f"Critical effect: {line}" for line in crit_result.lines]
    dc: Breakdown | None = None
    save: CheckResult | None = None
    if not immune and not after.has("dead"):
        dc = coup_de_grace_dc(attacker)
        save = saves.saving_throw(after, "fort", dc.total, dice, tags=frozenset({"vs:death"}), options=options)
        lines.append(f"{d} survives: Fortitude save or die, {save.describe()} ({dc.describe()}) [ACT-51]")
        if not save.success:
            after = injury.kill(after, "ACT-51", "coup de grace").creature
            lines.append(f"{d} dies (coup de grace) [ACT-51]")
    return CoupDeGraceResult(
        attacker, after, wpn, not immune, droll, outcome, inj, crit_result, dc, save, after.has("dead"), tuple(lines)
    )


# ------------------------------------------------------------------------------------------- grenades
@dataclass(frozen=True, slots=True)
class GrenadeThrow:
    """A thrown area weapon aimed at the intersection ``target`` (ATK-12). On a hit it lands there; on a miss
    ``scatter_d8``/``scatter_d4`` say where it goes (ATK-13) and ``lands_at`` is where the grid put it (None if
    the caller gave no scatter function)."""

    thrower: Creature
    weapon: Weapon
    target: Point
    ac: Breakdown
    roll: CheckResult
    hit: bool
    scatter_d8: int | None
    scatter_d4: int | None
    lands_at: Point | None
    lines: tuple[str, ...]

    def describe(self) -> str:
        return "\n".join(self.lines)


def _check_area_weapon(weapon: Weapon) -> None:
    if weapon.area is None or not (weapon.is_grenade or weapon.thrown):
        raise RuleViolation("ATK-12", f"{weapon.name} is not a thrown weapon with an area: it targets creatures")


def throw_grenade(
    thrower: Creature,
    weapon: Weapon | str,
    target: Point,
    dice: DiceSource,
    *,
    scatter: Callable[[int, int], Point] | None = None,
    situation: Situation = NO_SITUATION,
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> GrenadeThrow:
    """Throw a grenade (or another thrown area weapon) at a grid intersection: a ranged attack against AC 5
    (ATK-12; natural 1 and 20 count). On a miss a d8 gives the direction and a d4 the squares (ATK-13);
    ``scatter(d8, d4)`` turns them into the landing point, e.g. ``functools.partial(grid.scatter.scatter,
    target, thrower_footprint)``. ``situation`` gives the range penalty and other terms. Dice: d20, then on a
    miss d8 and d4."""
    wpn = thrower.stat.weapon(weapon) if isinstance(weapon, str) else weapon
    _check_area_weapon(wpn)
    check_can_attack(thrower)
    ac = fixed_ac("AC of a grid intersection", INTERSECTION_AC, "ATK-12")
    bonus = stats.attack_bonus(thrower, wpn, tags=situation.tags, extra=situation.attack_terms, options=options)
    roll = resolve(
        CheckKind.ATTACK, bonus, ac.total, dice, purpose=f"{thrower.name} throw ({wpn.name})", mode=situation.mode
    )
    lines = [f"{thrower.name} throws {wpn.name} at intersection {target} [ATK-12]"]
    lines += _lines_of(ac, "Target") + _lines_of(bonus, "Attack")
    lines.append(f"  Roll: {roll.describe()}" + (f" - {roll.note}" if roll.note else ""))
    if roll.success:
        lines.append(f"hit: it lands on {target} [ATK-12]")
        return GrenadeThrow(thrower, wpn, target, ac, roll, True, None, None, target, tuple(lines))
    d8 = dice.die(8, f"{wpn.name} scatter direction")
    d4 = dice.die(4, f"{wpn.name} scatter distance")
    where = "straight back toward the thrower" if d8 == 1 else f"direction {d8} (clockwise from 1, toward the thrower)"
    lands = scatter(d8, d4) if scatter is not None else None
    at = f": it lands at {lands}" if lands is not None else " (the grid places it)"
    lines.append(f"miss: it scatters {d4} square{'s' if d4 != 1 else ''}, d8 {d8} = {where}{at} [ATK-13]")
    return GrenadeThrow(thrower, wpn, target, ac, roll, False, d8, d4, lands, tuple(lines))


def area_dc(thrower: Creature, weapon: Weapon) -> Breakdown:
    """The save DC of a grenade or other area weapon: the DC printed on it, or 10 + half its item level + the
    thrower's Dexterity modifier (SV-07; CRB "Grenades"); a thrower not proficient with it takes the attack's
    -4 on the DC too (GEN-13)."""
    proficient = stats.weapon_proficient(thrower, weapon)
    if weapon.area is not None and weapon.area.dc is not None:
        return saves.item_dc(weapon.area.dc, wielder_proficient=proficient)
    terms = [
        Term(ITEM_DC_BASE, "base", "SV-07", B),
        Term(weapon.item_level // 2, f"half item level {weapon.item_level}", "SV-07", B),
        Term(stats.ability_mod(thrower, "dex").total, "Dexterity modifier", "SV-07", B),
    ]
    if not proficient:
        terms.append(Term(-4, "thrower not proficient", "GEN-13"))
    return explain(f"{weapon.name} DC", terms)
