"""The combat phase of a vehicle chase (CHS-05, CHS-24..28): ending the round, whether a pilot can still attack
(CHS-06, CHS-25), smashing into an engaged enemy (CHS-28), boarding an engaged vehicle (CHS-27), rejoining the
chase (CHS-22), and attacks in a chase: what the chase adds to an attack from a vehicle (range, being ahead, the
vehicle's attack penalty, cover, melee only between engaged vehicles with reach weapons, the environment:
CHS-24..26, CHS-32, CHS-03) and a creature's attack on a vehicle.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sftactics.core.breakdown import BonusType, Term
from sftactics.core.check import CheckKind, CheckResult, resolve
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.grid.cover import CoverKind
from sftactics.grid.geometry import check_range
from sftactics.sf1e import damage as dmg
from sftactics.sf1e import stats
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles.chase_checks import _active_effects, is_ahead, pilot_check_bonus, vehicle_ac, vehicle_kac
from sftactics.sf1e.vehicles.chase_commands import Board, Collide, Rejoin
from sftactics.sf1e.vehicles.chase_pilot_actions import _settle_turn
from sftactics.sf1e.vehicles.chase_progress import _route_here
from sftactics.sf1e.vehicles.chase_state import Chase, ChaseStep, damage
from sftactics.sf1e.vehicles.checks import roll_check, roll_collision
from sftactics.sf1e.vehicles.options import DEFAULT_VEHICLE_OPTIONS, VehicleOptions
from sftactics.sf1e.vehicles.riders import BoardResult, attack_penalty, boarding, passenger_cover

# ---------------------------------------------------------------- combat phase


def end_round(chase: Chase) -> ChaseStep:
    """Close the combat phase; the next round opens with pilot actions (CHS-05)."""
    if chase.phase != "combat":
        raise RuleViolation("CHS-05", f"the round ends after the combat phase (now: {chase.phase})")
    nxt = chase.round + 1
    kept = tuple(e for e in chase.effects if e.until > (nxt, 0, 0))
    chase = chase.model_copy(update={"round": nxt, "phase": "pilot_actions", "turn": 0, "records": (), "effects": kept})
    chase = chase.model_copy(update={"round_start_zones": chase.zones()})
    chase, more = _settle_turn(chase)
    return ChaseStep(chase, (), (f"round {nxt}: pilot actions [CHS-05]", *more))


def _combat(chase: Chase, what: str) -> None:
    if chase.phase != "combat":
        raise RuleViolation("CHS-05", f"{what} happens in the combat phase (now: {chase.phase})")


def pilot_can_attack(chase: Chase, vid: str, *, full_attack: bool = False) -> bool:
    """CHS-25, CHS-06: in the combat phase a pilot attacks only with a standard action left (none after a double
    maneuver), and makes a full attack only after leaving the vehicle uncontrolled in the pilot actions phase."""
    rec = chase.record(vid)
    if rec is None:
        return True
    if full_attack:
        return rec.uncontrolled
    return rec.used != "full"


def collide(
    chase: Chase, cmd: Collide, dice: DiceSource, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS
) -> ChaseStep:
    """CHS-28: a standard action in the combat phase: Piloting check, DC the engaged enemy's KAC; on a success the
    enemy takes the vehicle's collision damage and the vehicle half of it (rolled once)."""
    _combat(chase, "a collision")
    cv, tg = chase.get(cmd.vehicle), chase.get(cmd.target)
    if tg.id not in chase.engagement(cv.id) or tg.side == cv.side:
        raise RuleViolation("CHS-28", f"{cv.id} can only smash into an enemy vehicle it is engaged with")
    if not cv.controlled:
        raise RuleViolation("CHS-28", f"{cv.id} has no pilot to steer it into {tg.id}")
    if not pilot_can_attack(chase, cv.id):
        raise RuleViolation("CHS-06", f"{cv.id}'s pilot spent a full action on pilot actions: no standard action left")
    dc = vehicle_kac(chase, tg.id, options)
    bonus = pilot_check_bonus(chase, cv.id, "collide", targets=[tg.id], bonus=cmd.bonus, options=options)
    check = roll_check(bonus, dc, dice, f"{cv.id} collides with {tg.id}")
    lines = [f"{cv.id} smashes into {tg.id}: Piloting {check.describe()} (KAC) [CHS-28]"]
    if not check.success:
        return ChaseStep(chase, (check,), tuple(lines))
    coll = roll_collision(cv.vehicle, dice, self_share="half", purpose="collision", options=options)
    lines += coll.lines
    s1 = damage(chase, tg.id, coll.roll.total, ignores_hardness=cv.vehicle.stat.collision.ignores_hardness,
                source=f"{cv.id}'s collision", options=options)  # fmt: skip
    s2 = damage(s1.chase, cv.id, coll.to_self, source="its own collision", options=options)
    lines += [*s1.lines, f"{cv.id} takes half, {coll.to_self} [CHS-28]", *s2.lines]
    return ChaseStep(s2.chase, (check,), tuple(lines))


def board(chase: Chase, cmd: Board, dice: DiceSource, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> ChaseStep:
    """CHS-27: a passenger of an engaged vehicle jumps across: a move action that provokes attacks of
    opportunity, and an Acrobatics or Athletics check, DC 5 + the KAC of the vehicle boarded (see
    :func:`~sftactics.sf1e.vehicles.piloting.boarding` for failing)."""
    _combat(chase, "boarding")
    src, dst = chase.get(cmd.from_vehicle), chase.get(cmd.to_vehicle)
    if dst.id not in chase.engagement(src.id):
        raise RuleViolation("CHS-27", f"{src.id} and {dst.id} must be engaged to board")
    if src.pilot is not None and src.pilot.id == cmd.creature.id and src.controlled:
        raise RuleViolation("CHS-27", "boarding is for passengers: the pilot must hand over control first")
    evade = tuple(
        Term(e.value, "evading", "CHS-09", BonusType.CIRCUMSTANCE, source="evade")
        for e in _active_effects(chase, dst.id, "evade")
    )
    res: BoardResult = boarding(cmd.creature, dst.vehicle, dice, skill=cmd.skill, fall_ft=cmd.fall_ft, rule="CHS-27",
                                ac_extra=evade, options=options)  # fmt: skip
    lines = [f"{cmd.creature.name} jumps from {src.id} to {dst.id}: a move action that provokes [CHS-27]", *res.lines]
    return ChaseStep(chase, tuple(c for c in (res.check,) if c is not None), tuple(lines), res.creature)


def rejoin(chase: Chase, cmd: Rejoin) -> ChaseStep:
    """CHS-22: only in extraordinary circumstances, at the GM's discretion."""
    cv = chase.get(cmd.vehicle)
    if cv.status not in ("escaped", "left_behind"):
        raise RuleViolation("CHS-22", f"{cv.id} has not left the chase")
    if not cmd.gm_allows:
        raise RuleViolation("CHS-22", "rejoining a chase takes extraordinary circumstances and the GM's say-so")
    chase = chase.with_vehicle(cv.model_copy(update={"status": "in", "zone": cmd.zone}))
    if chase.phase == "over" and len({c.side for c in chase.active}) > 1:
        chase = chase.model_copy(update={"phase": "combat"})
    return ChaseStep(chase, (), (f"{cv.id} rejoins the chase in zone {cmd.zone} (GM) [CHS-22]",))


# ---------------------------------------------------------------- attacks in a chase


@dataclass(frozen=True, slots=True)
class ChaseAttack:
    """What the chase adds to one attack: attack terms (vehicle penalty, being ahead, range), AC terms (cover of a
    rider, evade), the range in feet, a miss chance from the environment, and explanation lines."""

    range_ft: int
    attack_terms: tuple[Term, ...]
    ac_terms: tuple[Term, ...]
    miss_chance: int = 0
    lines: tuple[str, ...] = field(default_factory=tuple)


def chase_distance_ft(chase: Chase, a: str, b: str, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> int | None:
    """CHS-02: engaged 5 ft (adjacent), same zone 50 ft, one zone apart 200 ft; farther: out of range (None)."""
    if b in chase.engagement(a):
        return options.engaged_ft
    gap = abs(chase.get(a).zone - chase.get(b).zone)
    if gap == 0:
        return options.same_zone_ft
    if gap == 1:
        return options.one_zone_ft
    return None


def attack_setup(
    chase: Chase,
    from_vehicle: str,
    target_vehicle: str,
    *,
    melee: bool = False,
    reach: bool = False,
    range_increment_ft: int | None = None,
    grenade: bool = False,
    target_rider: bool = False,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> ChaseAttack:
    """The chase's part of an attack from a creature on ``from_vehicle`` at ``target_vehicle`` or someone on it
    (``target_rider``) (CHS-24..26, CHS-32, CHS-03). Refuses attacks the chase forbids."""
    _combat(chase, "an attack")
    src, dst = chase.get(from_vehicle), chase.get(target_vehicle)
    if not (src.active and dst.active):
        raise RuleViolation("CHS-20", "both vehicles must still be in the chase")
    if _route_here(chase, src) != _route_here(chase, dst) and src.zone == dst.zone:
        raise RuleViolation("CHS-35", "vehicles on different routes of a split zone cannot interact")
    lines: list[str] = []
    attack: list[Term] = list(attack_penalty(src.vehicle, chase=True))
    for a in chase.environment.attacks(src.zone):
        if a.kind == "easier" and a.reduction and attack:
            attack.append(Term(min(a.reduction, -attack[0].value), a.name, "CHS-32"))
    if melee:
        if dst.id not in chase.engagement(src.id):
            raise RuleViolation("CHS-26", "melee attacks reach only riders of an engaged vehicle")
        if not reach:
            raise RuleViolation("CHS-26", "melee attacks between vehicles need a reach weapon")
        lines.append("melee with a reach weapon across engaged vehicles; no squares are threatened [CHS-26]")
    if grenade and not options.grenades_in_chase:
        raise RuleViolation("CHS-25", "throwing a grenade between speeding vehicles is all but impossible (GM)")
    distance = chase_distance_ft(chase, src.id, dst.id, options)
    if distance is None:
        raise RuleViolation("CHS-25", f"{dst.id} is more than one zone away: out of range")
    if not melee and range_increment_ft:
        rc = check_range(distance, range_increment_ft)
        if not rc.in_range:
            raise RuleViolation("ATK-11", f"{distance} ft is beyond the weapon's range")
        attack += rc.terms
    if src.side != dst.side and is_ahead(chase, src.id, dst.id):
        attack.append(Term(2, f"{src.id} is ahead of {dst.id}", "CHS-03", source="ahead"))
    ac: list[Term] = []
    if target_rider:
        kind, cover_ac, _ = passenger_cover(dst.vehicle)
        if kind is CoverKind.TOTAL:
            raise RuleViolation("MOD-14", f"riders of {dst.id} have total cover")
        ac += cover_ac
    else:
        ac += [
            Term(e.value, "evading", "CHS-09", BonusType.CIRCUMSTANCE, source="evade")
            for e in _active_effects(chase, dst.id, "evade")
        ]
    miss = 0
    for a in chase.environment.attacks(dst.zone):
        if a.kind == "concealment":
            miss = max(miss, 20)
        elif a.kind == "total_concealment":
            miss = max(miss, 50)
        elif a.kind in ("cover", "improved_cover") and not any(t.source == "cover" for t in ac):
            ac.append(Term(4 if a.kind == "cover" else 8, a.name, "CHS-32", source="cover"))
    lines.append(f"range {distance} ft; the attacker's vehicle gives its normal attack penalty [CHS-24] [CHS-25]")
    return ChaseAttack(distance, tuple(attack), tuple(ac), miss, tuple(lines))


@dataclass(frozen=True, slots=True)
class VehicleAttackResult:
    chase: Chase
    hit: bool
    critical: bool
    check: CheckResult
    damage: int
    lines: tuple[str, ...]


def attack_vehicle(
    chase: Chase,
    attacker: Creature,
    weapon: str,
    from_vehicle: str,
    target_vehicle: str,
    dice: DiceSource,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
    *,
    extra: tuple[Term, ...] = (),
) -> VehicleAttackResult:
    """A creature's attack on a vehicle in the chase: the attacker's attack bonus with the chase's terms (see
    :func:`attack_setup`) and ``extra`` ones (a full attack's -4) against the vehicle's EAC or KAC (by damage
    type, ATK-08); a natural 20 that hits is a critical hit, damage rolled twice (ATK-14); the damage goes through
    :func:`damage` (hardness)."""
    w = attacker.stat.weapon(weapon)
    setup = attack_setup(chase, from_vehicle, target_vehicle, melee=w.is_melee, reach=w.reach,
                         range_increment_ft=w.range_ft or None, grenade=w.is_grenade, options=options)  # fmt: skip
    kind, why = dmg.weapon_targets_ac(w.damage_types, explicit=w.targets)
    ac = vehicle_ac(chase, target_vehicle, "eac" if kind == "eac" else "kac", options)
    ac = ac.plus(*setup.ac_terms)
    bonus = stats.attack_bonus(attacker, w, extra=(*setup.attack_terms, *extra))
    check = resolve(CheckKind.ATTACK, bonus, ac.total, dice, purpose=f"{attacker.name} attacks {target_vehicle}")
    terms = " ".join(t.describe() for t in bonus.applied)
    verdict = "hit" if check.success else "miss"
    lines = [
        *setup.lines,
        f"{attacker.name} attacks {target_vehicle} with {w.name}: d20 {check.natural} ({terms}) = {check.total} "
        f"vs {kind.upper()} {ac.total} ({why}): {verdict} [ATK-01]",
    ]
    if not check.success:
        return VehicleAttackResult(chase, False, False, check, 0, tuple(lines))
    if setup.miss_chance and dice.percentile(f"{attacker.name} miss chance") <= setup.miss_chance:
        lines.append(f"concealment: the shot misses ({setup.miss_chance}%) [MOD-04]")
        return VehicleAttackResult(chase, False, False, check, 0, tuple(lines))
    crit = check.natural == 20 and check.total >= ac.total  # ATK-14: the total must also meet the AC
    roll = dmg.roll_damage(w.damage_expr, stats.damage_bonus(attacker, w), dice, critical=crit,
                           purpose=f"{w.name} damage")  # fmt: skip
    lines.append(("critical hit: " if crit else "") + f"damage {' + '.join(roll.rolls)} = {roll.total} "
                 + ("[ATK-14]" if crit else "[DMG-01]"))  # fmt: skip
    st = damage(chase, target_vehicle, roll.total, source=f"{attacker.name}'s {w.name}", options=options)
    lines += st.lines
    return VehicleAttackResult(st.chase, True, crit, check, roll.total, tuple(lines))


__all__ = [
    "ChaseAttack",
    "VehicleAttackResult",
    "attack_setup",
    "attack_vehicle",
    "board",
    "chase_distance_ft",
    "collide",
    "end_round",
    "pilot_can_attack",
    "rejoin",
]
