"""The creatures aboard a vehicle (VEH-10, VEH-14, VEH-15, VEH-28..33, CHS-24, CHS-27): boarding or leaving a
moving vehicle and falling off, attacking from a vehicle (its attack penalty, mounted weapons, +2 AC against the
attacks of opportunity a racing vehicle provokes), when riders provoke, the cover a vehicle gives its passengers,
vehicles as terrain, and getting away from enemies on foot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sftactics.core.breakdown import Term, explain
from sftactics.core.check import CheckResult
from sftactics.core.errors import RuleViolation
from sftactics.dice import parse
from sftactics.dice.source import DiceSource
from sftactics.grid.cover import CoverKind, cover_terms
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import damage as dmg
from sftactics.sf1e import injury
from sftactics.sf1e.state import ConditionInstance, Creature
from sftactics.sf1e.vehicles.checks import PilotLike, roll_check, skill_of
from sftactics.sf1e.vehicles.options import DEFAULT_VEHICLE_OPTIONS, VehicleOptions
from sftactics.sf1e.vehicles.state import Vehicle, armor_class

# ---------------------------------------------------------------- boarding


@dataclass(frozen=True, slots=True)
class BoardResult:
    creature: Creature
    boarded: bool
    fell: bool
    check: CheckResult | None
    lines: tuple[str, ...]


def falling_damage(
    fall_ft: float, dice: DiceSource, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS
) -> dmg.DamageRoll:
    """CHS-27 / X-18: falling off while boarding deals double the normal falling damage for the fall (option
    ``falling_die`` per 10 ft, doubled by rolling it twice, GEN-04), or 1d6 for a fall of less than 10 ft."""
    zero = explain("falling", [])
    if fall_ft < 10:
        return dmg.roll_damage(parse("1d6 B"), zero, dice, purpose="falling (under 10 ft)")
    n = int(fall_ft // 10)
    expr = parse(" + ".join([options.falling_die] * n) + " B")
    return dmg.roll_damage(expr, zero, dice, multipliers=(2.0,), purpose=f"falling {int(fall_ft)} ft (doubled)")


def boarding(
    creature: Creature,
    target: Vehicle,
    dice: DiceSource,
    *,
    moving: bool = True,
    skill: Literal["acrobatics", "athletics"] = "acrobatics",
    bonus: PilotLike | None = None,
    fall_ft: float | None = None,
    rule: str = "VEH-14",
    ac_extra: tuple[Term, ...] = (),
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> BoardResult:
    """VEH-14, CHS-27: boarding (or leaving) a vehicle is a move action; while it moves it takes an Acrobatics or
    Athletics check, DC 5 + the KAC of the vehicle boarded (option ``board_moving_dc`` on the grid). Failing by
    less than 5 leaves the creature where it was; by 5 or more it falls, lands prone and takes falling damage
    (:func:`falling_damage`; ``fall_ft`` defaults to the height of the vehicle boarded, or 5 ft)."""
    if not moving or (rule == "VEH-14" and options.board_moving_dc == "none"):
        return BoardResult(
            creature, True, False, None, (f"{creature.name} boards {target.name} (a move action) [{rule}]",)
        )
    dc = 5 + armor_class(target, "kac", ac_extra, options=options).total
    sk = skill_of(bonus if bonus is not None else creature, skill)
    check = roll_check(sk, dc, dice, f"{creature.name} boards {target.name}")
    lines = [f"{creature.name} boards {target.name}: {skill.title()} {check.describe()} (5 + KAC) [{rule}]"]
    if check.success:
        lines.append(f"{creature.name} is aboard and now takes {target.name}'s attack penalty [CHS-27]")
        return BoardResult(creature, True, False, check, tuple(lines))
    if check.dc - check.total < 5:
        lines.append(f"failed by less than 5: {creature.name} stays where it was [CHS-27]")
        return BoardResult(creature, False, False, check, tuple(lines))
    height = fall_ft if fall_ft is not None else (target.stat.dimensions.height_ft if target.stat.dimensions else 5.0)
    roll = falling_damage(height, dice, options)
    out = dmg.mitigate(roll, creature)
    res = injury.apply_damage(creature, out.amount)
    c = cond.add_condition(res.creature, ConditionInstance(name="prone", source="fell while boarding"))
    lines += [f"failed by 5 or more: {creature.name} falls {height:g} ft and lands prone; falling damage "
              f"{' + '.join(roll.rolls)} [CHS-27]", *res.lines]  # fmt: skip
    return BoardResult(c, False, True, check, tuple(lines))


# ---------------------------------------------------------------- attacking from a vehicle, cover, escape


def attack_penalty(vehicle: Vehicle, *, chase: bool = False) -> tuple[Term, ...]:
    """VEH-28, CHS-24: anyone attacking from the vehicle takes its attack penalty; the larger full-speed penalty if
    it moved at full speed during the last round (this round or the previous one); none while it is stopped. In a
    chase it is always the normal penalty (the speeds cancel out)."""
    m = vehicle.stat.modifiers
    if not vehicle.state.moving and not chase:
        return ()
    full = vehicle.state.raced_this_round or vehicle.state.raced_last_round
    if full and not chase and m.full_speed_attack:
        return (Term(m.full_speed_attack, f"attacking from {vehicle.name} at full speed", "VEH-28"),)
    if m.attack:
        return (Term(m.attack, f"attacking from {vehicle.name}", "CHS-24" if chase else "VEH-28"),)
    return ()


def vehicle_weapon_terms(
    vehicle: Vehicle, weapon: str, *, by_pilot: bool, pilot_full_action: bool = False, chase: bool = False
) -> tuple[Term, ...]:
    """VEH-29: firing a mounted weapon works like a ranged attack and takes the vehicle's attack penalty. The pilot
    fires only weapons bound to the controls, and not on a turn of a race or another full action; other weapons
    need a gunner. Returns the attack terms."""
    w = vehicle.stat.weapon(weapon)
    if by_pilot and not w.pilot_controlled:
        raise RuleViolation("VEH-29", f"{w.weapon.name} is not on the pilot's controls: a gunner fires it")
    if by_pilot and pilot_full_action:
        raise RuleViolation("VEH-29", "the pilot spent a full action piloting: no action left to fire")
    return attack_penalty(vehicle, chase=chase)


def aoo_ac_terms(vehicle: Vehicle) -> tuple[Term, ...]:
    """VEH-10: a racing vehicle gets +2 AC against the attacks of opportunity it provokes."""
    if vehicle.state.moving and vehicle.state.raced_this_round:
        return (Term(2, "racing vehicle vs attacks of opportunity", "VEH-10"),)
    return ()


def occupant_provokes(vehicle: Vehicle, action_provokes: bool) -> bool:
    """VEH-15: someone in a driving vehicle provokes for an action that would provoke anyway (a ranged attack
    included), unless the vehicle gives total cover."""
    return action_provokes and vehicle.stat.cover != "total"


_COVER = {
    "none": CoverKind.NONE,
    "partial": CoverKind.PARTIAL,
    "cover": CoverKind.COVER,
    "improved": CoverKind.IMPROVED,
    "total": CoverKind.TOTAL,
}


def passenger_cover(vehicle: Vehicle) -> tuple[CoverKind, tuple[Term, ...], tuple[Term, ...]]:
    """VEH-33: the cover the vehicle gives the creatures in it (its stat block's cover), with its AC and Reflex
    terms (MOD-08, MOD-12..14)."""
    kind = _COVER[vehicle.stat.cover]
    ac, ref = cover_terms(kind)
    return kind, ac, ref


def is_terrain(vehicle: Vehicle, *, gm: bool | None = None, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> bool:
    """VEH-33: an exceptionally large vehicle counts as terrain for spells and abilities (the GM decides; by
    default Colossal vehicles, option ``terrain_size``)."""
    if gm is not None:
        return gm
    return options.terrain_size == "colossal" and vehicle.stat.size == "colossal"


def foot_escape(
    distance_ft: int, pursuers_move_ft: int, *, volley_taken: bool
) -> Literal["in reach", "last volley", "escaped"]:
    """VEH-31: a vehicle gets away from enemies on foot once it is beyond how far they can run, after they get one
    more volley (the GM has the last word; enemies who board vehicles start a chase instead)."""
    if distance_ft <= pursuers_move_ft:
        return "in reach"
    return "escaped" if volley_taken else "last volley"


__all__ = [
    "BoardResult",
    "aoo_ac_terms",
    "attack_penalty",
    "boarding",
    "falling_damage",
    "foot_escape",
    "is_terrain",
    "occupant_provokes",
    "passenger_cover",
    "vehicle_weapon_terms",
]
