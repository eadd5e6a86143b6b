"""The numbers of an event as data: terms, d20 checks, attacks, damage, injury, movement and state changes.

The rules layer explains its numbers with dataclasses (:class:`~sftactics.core.breakdown.Breakdown`,
:class:`~sftactics.core.check.CheckResult`, damage ledgers, :class:`~sftactics.sf1e.injury.InjuryResult`...).
Events carry the same numbers as the frozen pydantic models below, so they serialise to JSON, validate against
``docs/events.schema.json`` and replay from a saved log. The converters (``*_data``) are pure; the text a person
reads is rendered from these models by :mod:`sftactics.encounter.narrate` and nowhere else.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from sftactics.core.breakdown import Breakdown, Term
from sftactics.core.check import CheckResult
from sftactics.core.ledger import LedgerLine
from sftactics.dice.source import DieRoll
from sftactics.sf1e import stats
from sftactics.sf1e.attack import AttackResult
from sftactics.sf1e.damage import DamageOutcome, DamagePortion, DamageRoll, ordered_types
from sftactics.sf1e.injury import InjuryResult
from sftactics.sf1e.options import DEFAULT_OPTIONS, Sf1eOptions
from sftactics.sf1e.senses import AwarenessCheck
from sftactics.sf1e.state import ConditionInstance, Creature, CreatureState


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# ---------------------------------------------------------------- explained numbers
class TermData(_Data):
    """One term of a number: its value, bonus type (``base`` for the 10 of an AC, BAB, ability modifiers...),
    label, the rule behind it, the source used for same-source stacking and the situation tags it needs."""

    value: int
    label: str
    type: str = "untyped"
    rule: str = ""
    source: str = ""
    when: tuple[str, ...] = ()


class SuppressedTermData(TermData):
    """A term that did not count, and why (stacking, a situation that does not apply)."""

    reason: str


class BreakdownData(_Data):
    """A number with the terms that make it (``terms``) and those left out (``suppressed``)."""

    label: str
    total: int
    terms: tuple[TermData, ...] = ()
    suppressed: tuple[SuppressedTermData, ...] = ()


def term_data(t: Term) -> TermData:
    return TermData(value=t.value, label=t.label, type=str(t.type), rule=t.rule, source=t.source,
                    when=tuple(sorted(t.when)))  # fmt: skip


def breakdown_data(b: Breakdown) -> BreakdownData:
    return BreakdownData(
        label=b.label,
        total=b.total,
        terms=tuple(term_data(t) for t in b.applied),
        suppressed=tuple(SuppressedTermData(**term_data(s.term).model_dump(), reason=s.reason) for s in b.suppressed),
    )


class CheckData(_Data):
    """A d20 roll against a number (attack roll, save, skill or ability check, Perception against Stealth):
    ``natural`` is the kept die (``rolls`` every d20 rolled, two when rolling twice or rerolling), ``bonus``
    the modifier with its terms, ``total`` = natural + bonus, ``dc`` the number to meet (AC for attacks, the
    Stealth total for Perception). ``degree`` is the verdict; ``automatic`` names a natural 1 or 20 that
    decided it; ``margin`` is total - dc."""

    kind: str
    natural: int
    rolls: tuple[int, ...]
    bonus: BreakdownData
    total: int
    dc: int
    degree: Literal["success", "failure"]
    margin: int
    automatic: str = ""
    note: str = ""

    @property
    def success(self) -> bool:
        return self.degree == "success"


def check_data(r: CheckResult) -> CheckData:
    return CheckData(
        kind=str(r.kind),
        natural=r.natural,
        rolls=tuple(r.rolls),
        bonus=breakdown_data(r.bonus),
        total=r.total,
        dc=r.dc,
        degree="success" if r.success else "failure",
        margin=r.total - r.dc,
        automatic=r.automatic,
        note=r.note,
    )


class OpposedData(_Data):
    """The other side of an opposed check (the hider's Stealth against a Perception check, CF-07, SEN-05)."""

    skill: str
    natural: int
    bonus: BreakdownData
    total: int
    tie: str = ""
    rolloffs: tuple[tuple[int, int], ...] = ()


def opposed_data(a: AwarenessCheck) -> OpposedData:
    """The Stealth side of a Perception-against-Stealth check."""
    return OpposedData(skill="stealth", natural=a.stealth_natural, bonus=breakdown_data(a.stealth),
                       total=a.stealth_total, tie=a.tie, rolloffs=a.rolloffs)  # fmt: skip


class DieData(_Data):
    """One die: sides, result and what it was rolled for."""

    sides: int
    result: int
    purpose: str = ""


def dice_data(rolls: Iterable[DieRoll]) -> tuple[DieData, ...]:
    return tuple(DieData(sides=d.sides, result=d.result, purpose=d.purpose) for d in rolls)


# ---------------------------------------------------------------- damage and injury
class LedgerStepData(_Data):
    """One step of the damage pipeline. ``step`` names it: ``roll``/``roll N``, ``bonus``, ``multiply``,
    ``minimum``, ``floor``, ``split``, ``rolled``, ``half`` (a save for half), ``incoming``, ``immunity``,
    ``incorporeal``, ``DR``, ``resistance``, ``DR and resistance``, ``vulnerability``, ``total``. ``amount``
    is how much the step changed the running total (negative: taken off)."""

    step: str
    amount: int
    detail: str
    rule: str = ""


def ledger_data(lines: Iterable[LedgerLine]) -> tuple[LedgerStepData, ...]:
    return tuple(LedgerStepData(step=x.step, amount=x.amount, detail=x.detail, rule=x.rule) for x in lines)


class PortionData(_Data):
    """Damage of one type set (``types`` empty: untyped)."""

    types: tuple[str, ...]
    amount: int


def portions_data(ps: Iterable[DamagePortion]) -> tuple[PortionData, ...]:
    return tuple(PortionData(types=tuple(ordered_types(p.types)), amount=p.amount) for p in ps)


class ConditionData(_Data):
    """A condition instance: name, source, value (bleed dice...) and remaining rounds if timed."""

    name: str
    source: str = ""
    value: str | None = None
    rounds: int | None = None


def condition_data(c: ConditionInstance) -> ConditionData:
    return ConditionData(name=c.name, source=c.source, value=c.value, rounds=c.rounds)


class PoolsData(_Data):
    """A creature's pools and conditions at one moment."""

    temp_hp: int
    sp: int
    hp: int
    rp: int
    conditions: tuple[ConditionData, ...] = ()


def pools_data(s: CreatureState) -> PoolsData:
    return PoolsData(temp_hp=s.temp_hp, sp=s.sp, hp=s.hp, rp=s.rp,
                     conditions=tuple(condition_data(c) for c in s.conditions))  # fmt: skip


class MassiveDamageData(_Data):
    """The massive damage test (INJ-03): the damage it measured against the maximum HP, and the verdict."""

    measured: int
    threshold: int
    dead: bool
    rule: str = "INJ-03"


class InjuryData(_Data):
    """What damage or healing did to a creature's pools (DMG-06, DMG-07, INJ-*): how much went to temporary
    HP, SP and HP, the damage past 0 HP (``overflow``), the Resolve Points lost, what changed state, the
    massive damage test when there was one, the pools afterwards, and the rule's own explanation
    (``lines``, each ending with its rule ID; the placeholders ``{damage}`` and ``{overflow}`` stand for the
    lines that say where the damage went and what was left past 0 HP, rendered from the numbers here)."""

    creature: str = ""
    nonlethal: bool = False
    temp_hp: int = 0
    sp: int = 0
    hp: int = 0
    overflow: int = 0
    rp: int = 0
    temp_gained: int = 0
    sp_healed: int = 0
    hp_healed: int = 0
    became_dying: bool = False
    became_unconscious: bool = False
    became_stable: bool = False
    became_conscious: bool = False
    died: bool = False
    cause: str = ""
    massive: MassiveDamageData | None = None
    after: PoolsData
    lines: tuple[str, ...] = ()


def injury_data(
    res: InjuryResult,
    before: Creature | None = None,
    *,
    amount: int = 0,
    nonlethal: bool = False,
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> InjuryData:
    """``before`` (the creature before damage) and ``amount`` let the massive damage test be reported."""
    massive = None
    if before is not None and amount > 0 and not nonlethal and not before.has("dead"):
        max_hp = stats.max_hp(before).total
        hp_damage = amount - res.temp_lost - res.sp_lost
        if before.state.hp > 0 and res.creature.state.hp == 0 and hp_damage > 0:
            massive = MassiveDamageData(measured=res.overflow, threshold=max_hp, dead=res.overflow >= max_hp)
        elif before.state.hp == 0 and (before.has("dying") or before.has("stable")):
            measured = hp_damage if options.massive_damage_at_zero == "hp_damage" else amount
            massive = MassiveDamageData(measured=measured, threshold=max_hp, dead=measured >= max_hp)
    from sftactics.encounter import narrate

    data = InjuryData(
        creature=res.creature.id,
        nonlethal=nonlethal,
        temp_hp=res.temp_lost,
        sp=res.sp_lost,
        hp=res.hp_lost,
        overflow=res.overflow,
        rp=res.rp_lost,
        temp_gained=res.temp_gained,
        sp_healed=res.sp_healed,
        hp_healed=res.hp_healed,
        became_dying=res.became_dying,
        became_unconscious=res.became_unconscious,
        became_stable=res.became_stable,
        became_conscious=res.became_conscious,
        died=res.died,
        cause=res.cause,
        massive=massive,
        after=pools_data(res.creature.state),
        lines=res.lines,
    )
    return data.model_copy(update={"lines": narrate.injury_templated(data)})


class DamageData(_Data):
    """Damage from rolling to the pools. ``dice``: each die rolled for it; ``rolls``: each roll as shown
    (a critical hit rolls twice); ``bonus``: the flat modifier added to each roll; ``rolled`` and
    ``rolled_by_type``: before the target's defenses; ``roll_steps``: how the roll was made (multipliers,
    minimum damage, halving for a save); ``defenses``: each defense step (immunity, incorporeal, DR,
    resistance, vulnerability) with its amount; ``amount``/``by_type``: what got through; ``injury``: where it
    went. ``note``: what decided the amount before the roll (a save's verdict); ``source``: what dealt it."""

    kind: Literal["attack", "gm", "effect", "condition"] = "attack"
    source: str = ""
    note: str = ""
    dice: tuple[DieData, ...] = ()
    rolls: tuple[str, ...] = ()
    times_rolled: int = 1
    critical: bool = False
    bonus: BreakdownData | None = None
    rolled: int
    rolled_by_type: tuple[PortionData, ...] = ()
    minimum: bool = False
    roll_steps: tuple[LedgerStepData, ...] = ()
    defenses: tuple[LedgerStepData, ...] = ()
    amount: int
    by_type: tuple[PortionData, ...] = ()
    nonlethal: bool = False
    negated: bool = False
    injury: InjuryData | None = None


def damage_data(
    roll: DamageRoll,
    outcome: DamageOutcome,
    injury: InjuryResult | None,
    before: Creature | None,
    *,
    bonus: Breakdown | None = None,
    dice: Sequence[DieRoll] = (),
    kind: Literal["attack", "gm", "effect", "condition"] = "attack",
    source: str = "",
    note: str = "",
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> DamageData:
    inj = None
    if injury is not None:
        inj = injury_data(injury, before, amount=outcome.amount, nonlethal=outcome.nonlethal, options=options)
    return DamageData(
        kind=kind,
        source=source,
        note=note,
        dice=dice_data(dice),
        rolls=roll.rolls,
        times_rolled=roll.times_rolled,
        critical=roll.critical,
        bonus=None if bonus is None or not bonus.applied else breakdown_data(bonus),
        rolled=roll.total,
        rolled_by_type=portions_data(roll.portions),
        minimum=roll.minimum_applied,
        roll_steps=ledger_data(roll.ledger),
        defenses=ledger_data(outcome.ledger),
        amount=outcome.amount,
        by_type=portions_data(outcome.by_type),
        nonlethal=outcome.nonlethal,
        negated=outcome.negated,
        injury=inj,
    )


# ---------------------------------------------------------------- attacks
class ConcealmentData(_Data):
    """The miss chance of a concealed target (MOD-04, MOD-05): percent, why, the d% and whether it missed."""

    chance: int
    reason: str = ""
    roll: int
    missed: bool


AttackKind = Literal["weapon", "maneuver", "covering_fire", "harrying_fire", "grenade", "ability", "coup_de_grace"]
AttackOutcome = Literal["miss", "hit", "critical"]


class AttackData(_Data):
    """One attack roll and what came of it. ``ac_kind`` (eac/kac) and ``ac`` (the target number with its
    terms, cover included) against ``roll`` (the attack bonus terms in ``roll.bonus``, natural, total).
    ``outcome``: miss, hit or critical; ``automatic`` says what decided it without the numbers ("natural 20",
    "natural 1", or the reason of an automatic miss with no roll, when ``roll`` is None); ``critical_save`` is
    the save against a critical effect, or a coup de grace's save against death. ``cover`` (none,
    partial, cover, improved) and ``flanking`` as applied; ``range_ft``/``range_increment`` for ranged
    attacks. ``damage`` is the damage dealt, ``critical_effect`` the critical effect's explanation,
    ``secondary`` the creature an arc effect reached, ``after`` the target's pools afterwards. ``dice`` lists
    every die the attack rolled."""

    kind: AttackKind = "weapon"
    attacker: str
    target: str
    weapon: str
    ac_kind: str = ""
    ac_reason: str = ""
    ac: BreakdownData | None = None
    roll: CheckData | None = None
    outcome: AttackOutcome
    automatic: str = ""
    critical_note: str = ""
    concealment: ConcealmentData | None = None
    cover: str = "none"
    flanking: bool = False
    range_ft: int | None = None
    range_increment: int | None = None
    damage: DamageData | None = None
    critical_effect: tuple[str, ...] = ()
    critical_save: CheckData | None = None
    secondary: str | None = None
    secondary_injury: InjuryData | None = None
    after: PoolsData | None = None
    dice: tuple[DieData, ...] = ()


# ---------------------------------------------------------------- movement and changes
class MoveStepData(_Data):
    """One square of a path: where the mover's space is after the step, what the step cost and whether it
    was diagonal; ``provokes`` lists the enemies whose attack of opportunity leaving the square before it
    provoked (AOO-06)."""

    to: tuple[int, int]
    cost_ft: int
    diagonal: bool = False
    provokes: tuple[str, ...] = ()


class ConditionChangeData(_Data):
    """Conditions gained, refreshed (the same condition again with a new duration or value) or lost."""

    gained: tuple[ConditionData, ...] = ()
    refreshed: tuple[ConditionData, ...] = ()
    lost: tuple[ConditionData, ...] = ()


class StateChangeData(_Data):
    """A creature's pools before and after an event, and its condition changes."""

    before: PoolsData
    after: PoolsData
    conditions: ConditionChangeData = ConditionChangeData()


def state_change(before: CreatureState, after: CreatureState) -> StateChangeData:
    old, new = list(before.conditions), list(after.conditions)
    gained, lost, refreshed = [], [], []
    for inst in after.conditions:
        if inst in old:
            old.remove(inst)
            new.remove(inst)
    for inst in new:
        same = next((o for o in old if o.name == inst.name and o.source == inst.source), None)
        if same is not None:
            old.remove(same)
            refreshed.append(condition_data(inst))
        else:
            gained.append(condition_data(inst))
    lost = [condition_data(o) for o in old]
    change = ConditionChangeData(gained=tuple(gained), refreshed=tuple(refreshed), lost=tuple(lost))
    return StateChangeData(before=pools_data(before), after=pools_data(after), conditions=change)


def attack_data(
    r: AttackResult,
    before: Creature,
    *,
    dice: Sequence[DieRoll] = (),
    concealment: ConcealmentData | None = None,
    cover: str = "none",
    flanking: bool = False,
    range_ft: int | None = None,
    range_increment: int | None = None,
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> AttackData:
    """A weapon attack resolved by ``sf1e.attack.resolve_attack`` as data (``before``: the target before it)."""
    damage = None
    if r.damage_roll is not None and r.damage is not None:
        purpose = f"{r.attacker.name} damage ({r.weapon.name})"
        damage = damage_data(
            r.damage_roll,
            r.damage,
            r.injury,
            before,
            bonus=stats.damage_bonus(r.attacker, r.weapon, options=options),
            dice=[d for d in dice if d.purpose.startswith(purpose)],
            options=options,
        )
    outcome: AttackOutcome = "critical" if r.critical else ("hit" if r.hit else "miss")
    return AttackData(
        attacker=r.attacker.id,
        target=r.defender.id,
        weapon=r.weapon.name,
        ac_kind=r.ac_kind,
        ac_reason=r.ac_reason,
        ac=breakdown_data(r.ac),
        roll=check_data(r.roll),
        outcome=outcome,
        automatic=r.roll.automatic,
        critical_note=r.critical_note,
        concealment=concealment,
        cover=cover,
        flanking=flanking,
        range_ft=range_ft,
        range_increment=range_increment,
        damage=damage,
        critical_effect=() if r.critical_effect is None else tuple(r.critical_effect.lines),
        critical_save=None
        if r.critical_effect is None or r.critical_effect.save is None
        else check_data(r.critical_effect.save),
        secondary=None if r.secondary is None else r.secondary.id,
        secondary_injury=None if r.secondary_injury is None else injury_data(r.secondary_injury),
        after=pools_data(r.defender.state),
        dice=dice_data(dice),
    )
