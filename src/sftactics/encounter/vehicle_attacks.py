"""Attacks against a vehicle in a grid fight, and from its mounted weapons (ATK-08..14, VEH-10, VEH-15, VEH-29,
VEH-32, AOO-13): an ``attack`` whose target is a vehicle hits its EAC or KAC and hardness comes off the damage;
the GM's damage to a vehicle; the attacks of opportunity a moving vehicle provokes (+2 AC while racing); firing a
vehicle's weapon with its attack penalty. A wrecked vehicle stops and can no longer be piloted (VEH-32). Each
records what happened as events (``AttackMade``, ``VehicleChanged``).
"""

from __future__ import annotations

from typing import Any

from sftactics.core.breakdown import Term
from sftactics.core.check import CheckKind, resolve
from sftactics.core.errors import RuleViolation, SftError
from sftactics.encounter import reactions, space
from sftactics.encounter import threat as threat_
from sftactics.encounter import vehicles as V
from sftactics.encounter.actions import Ctx, _actor, _check_ammo, _check_in_hand, _slot, _spend, _use_ammo, _weapon
from sftactics.encounter.commands import Attack
from sftactics.encounter.events import ActionSpent, AttackMade, Note
from sftactics.encounter.state import Combatant, FightVehicle
from sftactics.encounter.tx import Tx
from sftactics.encounter.vehicle_commands import FireVehicleWeapon
from sftactics.encounter.vehicles import VehicleChanged
from sftactics.grid import geometry
from sftactics.grid.space import reach_covers
from sftactics.sf1e import damage as dmg
from sftactics.sf1e import stats
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.vehicles import piloting as P
from sftactics.sf1e.vehicles.state import Vehicle, armor_class, damage_vehicle

# ---------------------------------------------------------------- shared steps


def _emit_state(tx: Tx, vid: str, new: Vehicle, lines: tuple[str, ...] | list[str] = ()) -> None:
    tx.emit(VehicleChanged(id=vid, state=new.state, notes=tuple(lines)))


# ---------------------------------------------------------------- attacks against a vehicle


def _vehicle_geometry(tx: Tx, attacker: Combatant, fv: FightVehicle, weapon: Weapon) -> tuple[list[Term], str]:
    """Reach or range from ``attacker`` to the vehicle's space (ATK-09..11); the attack terms and a note."""
    fa, fb = space.footprint(attacker), V.footprint(fv)
    terms = list(V.rider_attack_terms(tx.state, attacker))
    if fa is None or fb is None:
        return terms, ""
    dist = geometry.footprint_distance_ft(fa, fb)
    if weapon.is_melee:
        reach = space.weapon_reach(attacker, weapon)
        if not any(reach_covers(fa, sq, reach) for sq in fb.squares):
            raise RuleViolation("ATK-09", f"{fv.id} is {dist} ft away, out of {attacker.id}'s {reach}-ft reach")
        return terms, ""
    rc = space.range_check(fa, fb, weapon)
    if not rc.in_range:
        raise RuleViolation("ATK-11", f"{fv.id} is {dist} ft away, beyond {weapon.name}'s {rc.max_range_ft}-ft range")
    return terms + list(rc.terms), f"range {dist} ft" if rc.terms else ""


def strike_vehicle(
    tx: Tx,
    attacker_id: str,
    vid: str,
    weapon: Weapon,
    *,
    reaction: bool = False,
    ac_extra: tuple[Term, ...] = (),
) -> None:
    """One attack on a vehicle: the attacker's attack bonus (with range and its own vehicle's penalty) against
    the vehicle's EAC or KAC by damage type (ATK-08, VEH-02, broken -2, VEH-32); a natural 20 that hits is a
    critical hit (damage rolled twice, ATK-14); hardness comes off the damage (option ``hardness_vs_attacks``)."""
    s = tx.state
    attacker, fv = s.get(attacker_id), V.get(s, vid)
    terms, note = _vehicle_geometry(tx, attacker, fv, weapon)
    opts = s.vehicle_options
    kind, why = dmg.weapon_targets_ac(weapon.damage_types, explicit=weapon.targets)
    ac = armor_class(fv.vehicle, "eac" if kind == "eac" else "kac", ac_extra, options=opts)
    bonus = stats.attack_bonus(attacker.creature, weapon, extra=terms, options=s.options)
    check = resolve(CheckKind.ATTACK, bonus, ac.total, tx.dice, purpose=f"{attacker_id} attacks {vid}")
    crit = check.success and check.natural == 20 and check.total >= ac.total
    parts = " ".join(t.describe() for t in bonus.applied)
    lines = [f"{attacker_id} attacks {vid} with {weapon.name}: d20 {check.natural} ({parts}) = {check.total} vs "
             f"{kind.upper()} {ac.total} ({ac.describe()}; {why}): {'hit' if check.success else 'miss'} "
             "[ATK-01] [VEH-02]"]  # fmt: skip
    if note:
        lines.insert(0, note)
    if not check.success:
        tx.emit(AttackMade(attacker=attacker_id, target=vid, weapon=weapon.name, hit=False, critical=False,
                           damage=None, notes=tuple(lines), reaction=reaction))  # fmt: skip
        return
    roll = dmg.roll_damage(weapon.damage_expr, stats.damage_bonus(attacker.creature, weapon, options=s.options),
                           tx.dice, critical=crit, purpose=f"{attacker_id} damage ({weapon.name})",
                           options=s.options)  # fmt: skip
    lines.append(("critical hit: " if crit else "") + f"damage {' + '.join(roll.rolls)} = {roll.total} "
                 + ("[ATK-14]" if crit else "[DMG-01]"))  # fmt: skip
    hurt = damage_vehicle(fv.vehicle, roll.total, source=f"{attacker_id}'s {weapon.name}", options=opts)
    tx.emit(AttackMade(attacker=attacker_id, target=vid, weapon=weapon.name, hit=True, critical=crit,
                       damage=hurt.dealt, notes=tuple(lines), reaction=reaction))  # fmt: skip
    _emit_state(tx, vid, hurt.vehicle, hurt.lines)
    if hurt.wrecked:
        _wrecked(tx, vid)


def _wrecked(tx: Tx, vid: str) -> None:
    """VEH-32: a wrecked vehicle stops and nobody controls it any more."""
    v = tx.state.vehicles[vid].vehicle
    if v.state.control != "uncontrolled":
        _emit_state(tx, vid, v.with_state(control="uncontrolled", pilot=None, moving=False),
                    [f"{vid} is wrecked: it stops and can no longer be piloted [VEH-32]"])  # fmt: skip


def gm_damage_vehicle(tx: Tx, cmd: Any) -> None:
    """The GM's ``damage`` command aimed at a vehicle: an amount or a roll; hardness comes off (VEH-32)."""
    fv = V.get(tx.state, cmd.target)
    if (cmd.amount is None) == (cmd.roll is None):
        raise SftError("damage needs exactly one of 'amount' or 'roll'")
    if cmd.roll is not None:
        from sftactics.core.breakdown import explain
        from sftactics.dice import parse

        roll = dmg.roll_damage(parse(cmd.roll), explain("", []), tx.dice, purpose=f"GM damage to {fv.id}")
        amount, lines = roll.total, [f"GM damage to {fv.id}: {' + '.join(roll.rolls)} = {roll.total}"]
    else:
        amount, lines = max(cmd.amount, 0), []
    hurt = damage_vehicle(fv.vehicle, amount, source="the GM", options=tx.state.vehicle_options)
    _emit_state(tx, fv.id, hurt.vehicle, [*lines, *hurt.lines])
    if hurt.wrecked:
        _wrecked(tx, fv.id)


def vehicle_aoo(tx: Tx, reactor_id: str, vid: str, *, racing: bool) -> bool:
    """An attack of opportunity against a moving vehicle (VEH-15, VEH-10: +2 AC while racing)."""
    s = tx.state
    fv = V.get(s, vid)
    reactor = s.get(reactor_id)
    proxy = V.pilot_of(s, fv) or next((s.combatants[r] for r in fv.riders if r in s.combatants), None)
    if proxy is None or not reactions.can_take_aoo(s, reactor, proxy)[0]:
        return False
    fp = V.footprint(fv)
    weapon = None
    if fp is not None:
        for w in threat_.aoo_weapons(reactor):
            if any(sq in threat_.weapon_zone(s, reactor, w) for sq in fp.squares):
                weapon = w
                break
    if weapon is None:
        return False
    why = f"{vid} moves out of a square it threatens"
    pilot = V.pilot_of(s, fv)
    if s.vehicle_options.vehicle_aoo_target == "pilot" and pilot is not None:
        return reactions.attack_of_opportunity(tx, reactor_id, pilot.id, f"{why} (option vehicle_aoo_target)")
    if tx.decide is not None and not tx.decide(s, reactor_id, proxy.id, why):
        tx.emit(Note(text=f"{reactor_id} lets {vid} go: no attack of opportunity", rule="AOO-13"))
        return False
    tx.emit(Note(text=f"{vid} provokes an attack of opportunity from {reactor_id}: {why}", rule="AOO-13"))
    tx.emit(ActionSpent(id=reactor_id, slot="reaction", action=f"attack of opportunity on {vid}", rule="ACT-60"))
    extra = P.aoo_ac_terms(fv.vehicle) if racing else ()
    strike_vehicle(tx, reactor_id, vid, weapon, reaction=True, ac_extra=extra)
    return True


def do_attack_vehicle(tx: Tx, cmd: Attack, ctx: Ctx) -> None:
    """An ``attack`` command whose target is a vehicle: a standard action (ACT-11) against its EAC or KAC."""
    c = _actor(tx, cmd.actor, ctx)
    weapon = _weapon(c, cmd.weapon)
    slot = _slot(tx, c, "standard", "an attack", ctx)
    fv = V.get(tx.state, cmd.target)
    if c.id in fv.riders:
        raise RuleViolation("ATK-09", f"{c.id} rides {fv.id}: it does not attack its own vehicle")
    if fv.vehicle.wrecked:
        raise RuleViolation("VEH-32", f"{fv.id} is already wrecked")
    _vehicle_geometry(tx, c, fv, weapon)
    _check_in_hand(c, weapon)
    _check_ammo(c, weapon)
    _spend(tx, c, "standard", f"attack {fv.id} with {weapon.name}", "ACT-11", ctx, slot)
    _use_ammo(tx, c, weapon)
    if not weapon.is_melee and V.rider_provokes(tx.state, c.id):
        reactions.provoke_all(tx, c.id, "makes a ranged attack while threatened (AOO-12)")
        if tx.state.get(c.id).out_of_fight or tx.state.result is not None:
            return
    strike_vehicle(tx, c.id, fv.id, weapon)


# ---------------------------------------------------------------- a vehicle's mounted weapons


def do_fire_vehicle_weapon(tx: Tx, cmd: FireVehicleWeapon, ctx: Ctx) -> None:
    """VEH-29: a mounted weapon fired as a ranged attack (a standard action) with the vehicle's attack penalty."""
    from sftactics.encounter.actions import fire_readied, one_attack

    c = _actor(tx, cmd.actor, ctx)
    fv = V.aboard(tx.state, c.id)
    if fv is None:
        raise RuleViolation("VEH-29", f"{c.id} is in no vehicle")
    slot = _slot(tx, c, "standard", "fire a vehicle weapon", ctx)
    is_pilot = fv.vehicle.state.control == "pilot" and fv.vehicle.state.pilot == c.id
    try:
        vw = fv.vehicle.stat.weapon(cmd.weapon)
    except SftError as e:
        raise RuleViolation("VEH-29", str(e)) from None
    P.vehicle_weapon_terms(fv.vehicle, cmd.weapon, by_pilot=is_pilot, pilot_full_action="full" in c.spent)
    weapon = vw.weapon
    if cmd.target in tx.state.vehicles:
        tfv = V.get(tx.state, cmd.target)
        _vehicle_geometry(tx, c, tfv, weapon)
    else:
        target = tx.state.get(cmd.target)
        space.attack_geometry(tx.state, c, target, weapon)
    _spend(tx, c, "standard", f"fire {fv.id}'s {weapon.name} at {cmd.target}", "VEH-29", ctx, slot)
    if V.rider_provokes(tx.state, c.id):
        reactions.provoke_all(tx, c.id, "makes a ranged attack while threatened (AOO-12, AOO-13)")
        if tx.state.get(c.id).out_of_fight or tx.state.result is not None:
            return
    if cmd.target in tx.state.vehicles:
        strike_vehicle(tx, c.id, cmd.target, weapon)
        return
    one_attack(tx, c.id, cmd.target, weapon, [])
    fire_readied(tx, trigger_attacker=c.id, trigger_target=cmd.target)


__all__ = [
    "do_attack_vehicle",
    "do_fire_vehicle_weapon",
    "gm_damage_vehicle",
    "strike_vehicle",
    "vehicle_aoo",
]
