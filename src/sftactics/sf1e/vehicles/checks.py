"""Piloting checks and collision damage, shared by the grid rules and the chase rules.

A Piloting check for a vehicle (X-05, VEH-27) is the pilot's Piloting bonus plus the vehicle's Piloting modifier
(Modifiers entry; 2 lower when broken, VEH-32). An autopilot uses its own modifier (Systems entry) in place of a
pilot's, then the vehicle's. Other skills (a trick with Bluff or Stealth, boarding with Acrobatics or Athletics)
use the creature's bonus alone.

A pilot is given as a :class:`~sftactics.sf1e.state.Creature` (its Piloting bonus comes from its stat block and
its conditions), as a ready :class:`~sftactics.core.breakdown.Breakdown`, or as a plain number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain, half
from sftactics.core.check import CheckKind, CheckResult, resolve
from sftactics.core.errors import RuleViolation
from sftactics.core.ledger import LedgerLine
from sftactics.dice.source import DiceSource
from sftactics.sf1e import damage as dmg
from sftactics.sf1e import injury, stats
from sftactics.sf1e.objects import ObjectState, damage_object
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles.options import DEFAULT_VEHICLE_OPTIONS, VehicleOptions
from sftactics.sf1e.vehicles.state import Vehicle, damage_vehicle, piloting_modifier

B = BonusType.BASE
PilotLike = Creature | Breakdown | int


def skill_of(pilot: PilotLike, skill: str = "piloting") -> Breakdown:
    """A creature's bonus for ``skill`` (with its conditions), a given breakdown, or a plain number."""
    if isinstance(pilot, Creature):
        return stats.skill_bonus(pilot, skill)
    if isinstance(pilot, Breakdown):
        return pilot
    return explain(f"{skill} bonus", [Term(pilot, f"{skill} bonus", "X-05", B)])


def check_bonus(
    vehicle: Vehicle,
    pilot: PilotLike | None,
    *,
    skill: str = "piloting",
    extra: Sequence[Term] = (),
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> Breakdown:
    """The bonus for a pilot's check with ``vehicle``: the pilot's skill (or the autopilot's modifier when
    ``pilot`` is None and the autopilot is engaged, VEH-27), the vehicle's Piloting modifier for Piloting checks
    (VEH-02, VEH-32), and ``extra`` terms (being ahead, tricks, environment...)."""
    if pilot is None:
        ap = vehicle.stat.systems.autopilot
        if vehicle.state.control != "autopilot" or ap is None:
            raise RuleViolation("VEH-01", f"{vehicle.name} is an object: someone (or its autopilot) must pilot it")
        terms = [Term(ap, "autopilot's Piloting modifier", "VEH-27", B)]
        label = f"{vehicle.name} autopilot {skill} check"
    else:
        sk = skill_of(pilot, skill)
        terms = list(sk.applied)
        who = pilot.name if isinstance(pilot, Creature) else "pilot"
        label = f"{who} {skill} check"
    if skill == "piloting":
        terms += piloting_modifier(vehicle, options).applied
    terms += extra
    return explain(label, terms)


def roll_check(bonus: Breakdown, dc: int, dice: DiceSource, purpose: str) -> CheckResult:
    """A skill check (no automatic results on 1 or 20, GEN-01)."""
    return resolve(CheckKind.SKILL, bonus, dc, dice, purpose=purpose)


def failed_by(check: CheckResult) -> int:
    """How much a check missed its DC by (0 on a success)."""
    return 0 if check.success else check.dc - check.total


def floor5(value: int) -> int:
    """Rounded down to a 5-ft multiple (never below 0)."""
    return max(0, value) // 5 * 5


# ---------------------------------------------------------------- collision damage


@dataclass(frozen=True, slots=True)
class CollisionRoll:
    """Collision damage as rolled once (``roll``), and the two shares: ``to_target`` (doubled for a ram or a
    crash, whole for a run over or a chase collision) and ``to_self`` (half of the roll, or doubled in a crash)."""

    roll: dmg.DamageRoll
    to_target: dmg.DamageRoll
    to_self: int
    lines: tuple[str, ...]


def _scaled(roll: dmg.DamageRoll, times: int, reason: str) -> dmg.DamageRoll:
    portions = tuple(dmg.DamagePortion(p.types, p.amount * times) for p in roll.portions)
    total = roll.total * times
    line = LedgerLine("multiply", total - roll.total, f"{reason}: {roll.total} x{times} = {total}", "VEH-11")
    return replace(roll, portions=portions, total=total, ledger=(*roll.ledger, line))


def _added(rolls: Sequence[dmg.DamageRoll]) -> dmg.DamageRoll:
    by_type: dict[frozenset[str], int] = {}
    for r in rolls:
        for part in r.portions:
            by_type[part.types] = by_type.get(part.types, 0) + part.amount
    total = sum(r.total for r in rolls)
    ledger = tuple(line for r in rolls for line in r.ledger)
    portions = tuple(dmg.DamagePortion(t, a) for t, a in by_type.items())
    shown = tuple(x for r in rolls for x in r.rolls)
    return replace(rolls[0], portions=portions, total=total, times_rolled=len(rolls), rolls=shown, ledger=ledger)


def roll_collision(
    vehicle: Vehicle,
    dice: DiceSource,
    *,
    target_times: int = 1,
    self_share: str = "half",
    purpose: str = "collision damage",
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> CollisionRoll:
    """Roll the vehicle's collision damage (Attack (Collision) entry).

    ``target_times`` 2 doubles it for the target (ram VEH-11, crash VEH-25): the one roll is doubled, or with
    option ``ram_damage: roll_per_multiple`` a second roll is added (GEN-04). ``self_share`` is what the vehicle
    takes itself: ``half`` of the (first) roll, ``double`` it (a crash), or ``none``."""
    expr = vehicle.stat.collision.expr
    zero = explain("collision damage bonus", [])
    first = dmg.roll_damage(expr, zero, dice, purpose=f"{vehicle.name} {purpose}")
    lines = [f"{vehicle.name} collision damage {vehicle.stat.collision.damage}: {' '.join(first.rolls)}"]
    if target_times == 1:
        to_target = first
    elif options.ram_damage == "roll_once":
        to_target = _scaled(first, target_times, "doubled, rolled once (option ram_damage)")
        lines.append(f"the target takes the roll doubled: {to_target.total} [VEH-11]")
    else:
        rolls = [first]
        for k in range(2, target_times + 1):
            rolls.append(dmg.roll_damage(expr, zero, dice, purpose=f"{vehicle.name} {purpose} (roll {k})"))
        to_target = _added(rolls)
        lines.append(f"the target takes the damage rolled {target_times} times and added: {to_target.total} [GEN-04]")
    if self_share == "half":
        to_self = half(first.total)
    elif self_share == "double":
        to_self = to_target.total
    else:
        to_self = 0
    return CollisionRoll(first, to_target, to_self, tuple(lines))


@dataclass(frozen=True, slots=True)
class Struck:
    """What a collision did to what it hit: the new creature, vehicle or object and the ledger."""

    target: Creature | Vehicle | ObjectState
    dealt: int
    lines: tuple[str, ...]


def strike(
    target: Creature | Vehicle | ObjectState,
    roll: dmg.DamageRoll,
    *,
    ignores_hardness: int = 0,
    source: str = "",
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> Struck:
    """Apply collision damage to a creature (its defenses, then injury), a vehicle (hardness) or an object."""
    if isinstance(target, Creature):
        out = dmg.mitigate(roll, target)
        res = injury.apply_damage(target, out.amount, nonlethal=out.nonlethal)
        lines = [*(ln.describe() for ln in out.ledger[1:]), *res.lines]
        return Struck(res.creature, out.amount, tuple(lines))
    if isinstance(target, Vehicle):
        vd = damage_vehicle(target, roll.total, ignores_hardness=ignores_hardness, source=source, options=options)
        return Struck(vd.vehicle, vd.dealt, vd.lines)
    eff = roll.total + min(ignores_hardness, target.hardness)
    od = damage_object(target, eff)
    return Struck(od.obj, od.dealt, od.lines)


__all__ = [
    "CollisionRoll",
    "PilotLike",
    "Struck",
    "check_bonus",
    "failed_by",
    "floor5",
    "roll_check",
    "roll_collision",
    "skill_of",
    "strike",
]
