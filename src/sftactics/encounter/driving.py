"""Vehicle commands and vehicle upkeep in a grid fight (VEH-05..33, AOO-13): each pilot action spends the pilot's
actions (``piloting.ACTION_COST``), runs the pure rule of ``sftactics.sf1e.vehicles.piloting`` and records what
happened as events (``VehicleMoved``, ``VehicleChanged``, ``CheckMade``, ``AttackMade``, ``CreatureChanged``).

* The vehicle moves on its pilot's turn (VEH-05); on the grid a drive follows the cheapest path that passes no
  creature (VEH-15), a race or a ram goes straight at the heading (VEH-04). A moving vehicle provokes attacks of
  opportunity from the enemies whose threatened squares it leaves; they strike the vehicle, which has +2 AC
  against them while racing (VEH-10, VEH-15, AOO-13).
* Racing into something (a wall, the map's edge, a creature, another vehicle) stops the vehicle before it and
  takes an unsafe-race Piloting check, DC 20 + item level (VEH-08); a failure crashes into it (VEH-25).
* A pilot knocked out, gone or delaying leaves the vehicle uncontrolled on the count it had (VEH-23); a moving
  uncontrolled vehicle (or one on autocontrol) moves on that count each round (VEH-24, VEH-26), before the
  first combatant with a lower count, and crashes into what it runs into (VEH-25). An autopilot drives toward
  its destination on its count (VEH-27).
* Attacks against a vehicle (an ``attack`` whose target is a vehicle) hit its EAC or KAC; hardness comes off the
  damage; broken and wrecked follow (VEH-32).
"""

from __future__ import annotations

import itertools
from typing import Any

from sftactics.core.breakdown import Term
from sftactics.core.check import CheckKind, CheckResult, resolve
from sftactics.core.errors import RuleViolation, SftError
from sftactics.encounter import reactions, space
from sftactics.encounter import threat as threat_
from sftactics.encounter import vehicles as V
from sftactics.encounter.actions import Ctx, _actor, _check_ammo, _check_in_hand, _slot, _spend, _use_ammo, _weapon
from sftactics.encounter.commands import Attack
from sftactics.encounter.events import ActionSpent, AttackMade, CheckMade, Moved, Note
from sftactics.encounter.outcomes import check_data
from sftactics.encounter.state import Combatant, FightVehicle
from sftactics.encounter.tx import Tx
from sftactics.encounter.vehicle_commands import Board, Disembark, Drive, FireVehicleWeapon, Pilot, Race, Ram, RunOver
from sftactics.encounter.vehicles import VehicleChanged, VehicleMoved
from sftactics.grid import geometry
from sftactics.grid.geometry import Footprint
from sftactics.grid.movement import Mover, find_path
from sftactics.grid.space import Size, reach_covers, size_order
from sftactics.sf1e import damage as dmg
from sftactics.sf1e import stats
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles import piloting as P
from sftactics.sf1e.vehicles.checks import roll_collision, strike
from sftactics.sf1e.vehicles.heading import drive_path, first_obstruction, straight_line, swept
from sftactics.sf1e.vehicles.state import Vehicle, armor_class, damage_vehicle, drive_speed, full_speed

Square = tuple[int, int]
_FOOT_MOVES = frozenset({"move", "guarded_step", "crawl", "withdraw", "run", "charge", "minimum_move"})


# ---------------------------------------------------------------- shared steps


def _sq(x: Any) -> Square:
    return (int(x[0]), int(x[1]))


def check_command(state: Any, command: Any) -> None:
    """Refuse walking away while riding (VEH-14: leaving a vehicle is its own move action)."""
    actor = getattr(command, "actor", None)
    if actor is None or command.type not in _FOOT_MOVES:
        return
    fv = V.aboard(state, actor)
    if fv is not None:
        raise RuleViolation("VEH-14", f"{actor} rides {fv.id}: disembark first (a move action)")


def _vehicle(tx: Tx, c: Combatant, name: str | None, *, action: str) -> FightVehicle:
    """The vehicle a command is about: the one named, else the one ``c`` pilots, else the one it rides."""
    if name is not None:
        fv = V.get(tx.state, name)
    else:
        found = V.piloted_by(tx.state, c.id) or V.aboard(tx.state, c.id)
        if found is None:
            raise RuleViolation("VEH-05", f"{c.id} is in no vehicle: it cannot {action}")
        fv = found
    if c.id not in fv.riders:
        raise RuleViolation("VEH-05", f"{c.id} is not aboard {fv.id}: it cannot {action}")
    return fv


def _pilot_check(fv: FightVehicle, c: Combatant, action: str) -> None:
    st = fv.vehicle.state
    if st.control == "pilot" and st.pilot != c.id:
        raise RuleViolation("VEH-18", f"{st.pilot} pilots {fv.id}, not {c.id}: {c.id} cannot {action}")


def _rider_positions(tx: Tx, fv: FightVehicle, to: Square) -> dict[str, Square]:
    pos = fv.vehicle.state.position
    if pos is None:
        return {}
    dx, dy = to[0] - pos[0], to[1] - pos[1]
    out: dict[str, Square] = {}
    for r in fv.riders:
        rp = tx.state.combatants[r].position if r in tx.state.combatants else None
        if rp is not None:
            out[r] = (rp[0] + dx, rp[1] + dy)
    return out


def _emit_state(tx: Tx, vid: str, new: Vehicle, lines: tuple[str, ...] | list[str] = ()) -> None:
    tx.emit(VehicleChanged(id=vid, state=new.state, notes=tuple(lines)))


def _emit_path(tx: Tx, vid: str, path: list[Footprint], cost: int, new: Vehicle, verb: str, rule: str) -> None:
    """Move the vehicle (and its riders) along ``path`` (start first) and give it the state ``new`` there."""
    fv = tx.state.vehicles[vid]
    end = path[-1].anchor
    riders = _rider_positions(tx, fv, end)
    state = new.state.model_copy(update={"position": end})
    tx.emit(VehicleMoved(id=vid, path=tuple(f.anchor for f in path), cost_ft=cost, state=state, riders=riders,
                         verb=verb, rule=rule))  # fmt: skip


def _cost(path: list[Footprint]) -> int:
    diag = 0
    total = 0
    for a, b in itertools.pairwise(path):
        if a.x != b.x and a.y != b.y:
            diag += 1
            total += 10 if diag % 2 == 0 else 5
        else:
            total += 5
    return total


def _threats(tx: Tx, fv: FightVehicle) -> dict[str, frozenset[Square]]:
    """The enemies that could take an attack of opportunity against the vehicle, with their threatened squares
    (AOO-13: judged as against its pilot, or any rider)."""
    s = tx.state
    proxy = V.pilot_of(s, fv) or next((s.combatants[r] for r in fv.riders if r in s.combatants), None)
    if proxy is None:
        return {}
    return {k: v for k, v in reactions.threats_against(s, proxy).items() if k not in fv.riders}


def _provocations(path: list[Footprint], zones: dict[str, frozenset[Square]]) -> list[tuple[int, str]]:
    """(step, enemy): the first step at which the vehicle leaves a square ``enemy`` threatens (AOO-06)."""
    out: list[tuple[int, str]] = []
    for enemy, zone in zones.items():
        for i in range(len(path) - 1):
            if any(sq in zone for sq in path[i].squares) and path[i + 1] != path[i]:
                out.append((i, enemy))
                break
    return sorted(out)


def _traverse(
    tx: Tx,
    fv: FightVehicle,
    path: list[Footprint],
    new: Vehicle,
    verb: str,
    rule: str,
    *,
    racing: bool,
    provocations: list[tuple[int, str]] | None = None,
) -> bool:
    """Move the vehicle along ``path``, stopping for the attacks of opportunity it provokes (they hit the
    vehicle; +2 AC while racing, VEH-10). False if it was wrecked on the way (it stays where it was hit).
    ``provocations``: (step, enemy) as the path finder found them (default: worked out here)."""
    done = 0
    pending = provocations if provocations is not None else _provocations(path, _threats(tx, fv))
    for i, enemy in sorted(pending):
        if i > done:
            seg = path[done : i + 1]
            _emit_path(tx, fv.id, seg, _cost(seg), _keep_hp(tx, fv.id, new), verb if done == 0 else "goes on", rule)
            done = i
        vehicle_aoo(tx, enemy, fv.id, racing=racing)
        if tx.state.vehicles[fv.id].vehicle.wrecked:
            tx.note(f"{fv.id} is wrecked and stops at {path[done].x},{path[done].y}", "VEH-32")
            return False
    if done < len(path) - 1 or len(path) == 1:
        seg = path[done:]
        _emit_path(tx, fv.id, seg, _cost(seg), _keep_hp(tx, fv.id, new), verb if done == 0 else "goes on", rule)
    return True


def _keep_hp(tx: Tx, vid: str, new: Vehicle) -> Vehicle:
    """``new`` with the Hit Points the vehicle has now (attacks on the way may have changed them)."""
    return new.with_state(hp=tx.state.vehicles[vid].vehicle.state.hp)


def _checks(tx: Tx, who: str, what: str, checks: tuple[CheckResult, ...], lines: tuple[str, ...] = ()) -> None:
    for ch in checks:
        tx.emit(CheckMade(id=who, what=what, success=ch.success, check=check_data(ch)))
    for line in lines:
        tx.note(line)


def _with_initiative(tx: Tx, c: Combatant, v: Vehicle) -> Vehicle:
    return v.with_state(initiative=c.initiative)


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


# ---------------------------------------------------------------- pilot actions


def _begin(tx: Tx, cmd: Any, ctx: Ctx, action: str) -> tuple[Combatant, FightVehicle, str]:
    """The actor, its vehicle, and the slot the pilot action takes (checked before anything happens)."""
    c = _actor(tx, cmd.actor, ctx)
    fv = _vehicle(tx, c, getattr(cmd, "vehicle", None), action=action.replace("_", " "))
    cost = P.ACTION_COST[action]
    slot = "none" if cost == "none" else _slot(tx, c, cost, action.replace("_", " "), ctx)
    return c, fv, slot


def _pay(tx: Tx, c: Combatant, action: str, rule: str, ctx: Ctx, slot: str) -> None:
    cost = P.ACTION_COST[action]
    if cost != "none":
        _spend(tx, c, cost, action.replace("_", " "), rule, ctx, slot)


def do_drive(tx: Tx, cmd: Drive, ctx: Ctx) -> None:
    """VEH-15: a move action; up to the drive speed, any path that passes no creature; sets the heading."""
    c, fv, slot = _begin(tx, cmd, ctx, "drive")
    _pilot_check(fv, c, "drive")
    grid = tx.state.grid
    opts = tx.state.vehicle_options
    occupied = [sq for fp in V.spaces_around(tx.state, fv).values() for sq in fp.squares]
    goal = _sq(cmd.to) if cmd.to is not None else None
    turn_only = goal is None and grid is not None and fv.vehicle.state.position is not None  # a new heading only
    res = P.drive(fv.vehicle, c.creature, heading=cmd.heading, grid=grid if goal is not None else None,
                  goal=goal, occupied=occupied, threats=_threats(tx, fv), distance_ft=0 if turn_only else None,
                  options=opts)  # fmt: skip
    _pay(tx, c, "drive", "VEH-15", ctx, slot)
    new = _with_initiative(tx, c, res.vehicle)
    start = V.footprint(fv)
    for line in res.lines:
        tx.note(line)
    if start is None or not res.path:
        _emit_state(tx, fv.id, new)
        return
    provs = [(p.step, p.enemy) for p in res.provocations]
    _traverse(tx, fv, [start, *res.path], new, "drives", "VEH-15", racing=False, provocations=provs)


def _straight_move(tx: Tx, fv: FightVehicle, res: P.PilotResult, verb: str, rule: str, pilot: Combatant | None) -> None:
    """After a race (or a ram's race): move along its straight path with the attacks of opportunity; an
    obstruction is an unsafe race (VEH-08) and, failed, a crash (VEH-25)."""
    start = V.footprint(fv)
    new = res.vehicle
    if pilot is not None:
        new = new.with_state(initiative=pilot.initiative)
    if res.off_course is not None:
        tx.note(f"{fv.id} goes off course: the GM places it in the arc {res.off_course[0]} to {res.off_course[1]} "
                "degrees from its heading (it stays on its square here) [VEH-07]")  # fmt: skip
    if start is None or not res.path:
        _emit_state(tx, fv.id, new)
    elif not _traverse(tx, fv, [start, *res.path], new, verb, rule, racing=True):
        return
    if res.obstruction is not None:
        _obstructed(tx, fv.id, res.obstruction.kind, res.obstruction.what, pilot)


def _obstructed(tx: Tx, vid: str, kind: str, what: str, pilot: Combatant | None) -> None:
    """VEH-08: racing into an obstacle takes a Piloting check at DC 20 + item level; failing it crashes."""
    v = tx.state.vehicles[vid].vehicle
    res = P.unsafe_race(v, pilot.creature if pilot is not None else None, tx.dice, options=tx.state.vehicle_options)
    tx.note(f"{vid} races into {what} and stops before it [VEH-08]")
    _checks(tx, pilot.id if pilot is not None else vid, "Piloting: unsafe race (VEH-08)", res.checks, res.lines)
    if res.success:
        _emit_state(tx, vid, v.with_state(moving=False, last_move_ft=0),
                    [f"{vid} swerves and stops short of {what} [VEH-08]"])  # fmt: skip
        return
    crash_into(tx, vid, what if kind == "occupant" else None)


def do_race(tx: Tx, cmd: Race, ctx: Ctx) -> None:
    """VEH-06, VEH-07, VEH-10: a full action at full speed straight ahead; Piloting DC 10 + item level (+5 from a
    dead stop)."""
    c, fv, slot = _begin(tx, cmd, ctx, "race")
    _pilot_check(fv, c, "race")
    res = P.race(fv.vehicle, c.creature, tx.dice, terrain=cmd.terrain, drift=cmd.drift, grid=tx.state.grid,
                 occupied=V.spaces_around(tx.state, fv), options=tx.state.vehicle_options)  # fmt: skip
    _pay(tx, c, "race", "VEH-06", ctx, slot)
    _checks(tx, c.id, "Piloting: race (VEH-06)", res.checks, res.lines)
    _straight_move(tx, fv, res, "races", "VEH-06", c)


def _target_of(tx: Tx, name: str) -> Creature | Vehicle:
    if name in tx.state.vehicles:
        return tx.state.vehicles[name].vehicle
    return tx.state.get(name).creature


def _target_space(tx: Tx, name: str) -> Footprint | None:
    if name in tx.state.vehicles:
        return V.footprint(tx.state.vehicles[name])
    return space.footprint(tx.state.get(name))


def do_ram(tx: Tx, cmd: Ram, ctx: Ctx) -> None:
    """VEH-11, VEH-12: race straight at a creature or vehicle in the path and hit it."""
    c, fv, slot = _begin(tx, cmd, ctx, "ram")
    _pilot_check(fv, c, "ram")
    if cmd.target in fv.riders or cmd.target == fv.id:
        raise RuleViolation("VEH-11", f"{fv.id} cannot ram {cmd.target}")
    target = _target_of(tx, cmd.target)
    opts = tx.state.vehicle_options
    path: list[Footprint] = []
    start, aim = V.footprint(fv), _target_space(tx, cmd.target)
    grid = tx.state.grid
    if grid is not None and start is not None and aim is not None:
        full = full_speed(fv.vehicle, opts).total
        line = straight_line(start, fv.vehicle.state.heading, full, drift=cmd.drift)
        hit_at = next((i for i, fp in enumerate(line) if fp.overlaps(aim)), None)
        if hit_at is None:
            raise RuleViolation("VEH-11", f"{cmd.target} is not in {fv.id}'s straight path at heading "
                                          f"{fv.vehicle.state.heading} within its full speed ({full} ft)")  # fmt: skip
        others = {k: f for k, f in V.spaces_around(tx.state, fv).items() if k != cmd.target}
        block = first_obstruction(grid, start, line[:hit_at], others)
        if block is not None:
            raise RuleViolation("VEH-11", f"{block.what} is in the way before {cmd.target}")
        path = [start, *line[:hit_at]]
    tpilot = None
    if isinstance(target, Vehicle):
        tfv = tx.state.vehicles[cmd.target]
        tp = V.pilot_of(tx.state, tfv)
        tpilot = tp.creature if tp is not None else None
    res = P.ram(fv.vehicle, c.creature, target, tx.dice, target_pilot=tpilot, terrain=cmd.terrain, options=opts)
    _pay(tx, c, "ram", "VEH-11", ctx, slot)
    _checks(tx, c.id, "Piloting: ram (VEH-11)", res.checks[:1], ())
    for ch in res.checks[1:]:
        tx.emit(CheckMade(id=cmd.target, what="avoids the ram (VEH-12)", success=ch.success, check=check_data(ch)))
    moved = res.move
    new = res.vehicle.with_state(initiative=c.initiative)
    if path and not moved.stalled and moved.off_course is None:
        if not moved.success and cmd.terrain == "rough":
            squares = max(0, moved.distance_ft // 5)
            path = path[: squares + 1]
        if not _traverse(tx, fv, path, new.with_state(hp=fv.vehicle.state.hp), "rams", "VEH-11", racing=True):
            tx.note(f"{fv.id} is wrecked on the way: the ram never reaches {cmd.target} [VEH-11]")
            return
    for line_ in res.lines:
        tx.note(line_)
    if not res.hit:
        _emit_state(tx, fv.id, _keep_hp(tx, fv.id, new))
        return
    # the collision: the rammer's own share (its state from the rule) and the target's
    own = tx.state.vehicles[fv.id].vehicle
    hurt = own.state.hp - (fv.vehicle.state.hp - res.vehicle.state.hp)
    _emit_state(tx, fv.id, new.with_state(hp=max(0, hurt), position=own.state.position))
    if isinstance(res.target, Creature):
        tx.creature(cmd.target, res.target)
    elif isinstance(res.target, Vehicle):
        _emit_state(tx, cmd.target, res.target)
        if res.target.wrecked:
            _wrecked(tx, cmd.target)
    if tx.state.vehicles[fv.id].vehicle.wrecked:
        _wrecked(tx, fv.id)


def do_run_over(tx: Tx, cmd: RunOver, ctx: Ctx) -> None:
    """VEH-13: up to twice the drive speed over creatures two or more sizes smaller."""
    c, fv, slot = _begin(tx, cmd, ctx, "run_over")
    _pilot_check(fv, c, "run over")
    grid, opts = tx.state.grid, tx.state.vehicle_options
    v = fv.vehicle
    start = V.footprint(fv)
    my_size = size_order(v.stat.grid_size)
    spaces = V.spaces_around(tx.state, fv)
    small = {k: f for k, f in spaces.items() if k in tx.state.combatants
             and my_size - size_order(Size(tx.state.combatants[k].creature.stat.size)) >= 2}  # fmt: skip
    blockers = {k: f for k, f in spaces.items() if k not in small}
    path: list[Footprint] = []
    distance = None
    if grid is not None and start is not None:
        limit = 2 * drive_speed(v, opts).total
        occupied = [sq for f in blockers.values() for sq in f.squares]
        if opts.run_over_movement == "straight":
            steps = list(P.run_over_path(v, grid, blockers=blockers, options=opts))
        else:
            priced = drive_path(grid, start, _sq(cmd.to), v.stat.grid_size, limit, occupied=occupied)
            steps = list(priced.positions[1:])
        path = [start, *steps]
        end = path[-1]
        if any(end.overlaps(f) for f in small.values()):
            raise RuleViolation("VEH-13", f"a run over ends on a free space, not on a creature ({end.x},{end.y})")
        distance = _cost(path)
        victims = [tx.state.combatants[k].creature for k in swept(path[1:], small)]
        if not victims:
            raise RuleViolation("VEH-13", f"no creature two or more sizes smaller than {fv.id} lies on that path "
                                          "(drive or race to move without running anyone over)")  # fmt: skip
    else:
        raise RuleViolation("VEH-13", "a run over needs a map: who is run over depends on the path")
    res = P.run_over(v, c.creature, victims, tx.dice, distance_ft=distance, options=opts)
    _pay(tx, c, "run_over", "VEH-13", ctx, slot)
    saved = [k for k in res.hit if k in tx.state.combatants]
    for who, ch in zip(saved, res.checks, strict=False):
        tx.emit(CheckMade(id=who, what="Reflex against a run over (VEH-13)", success=ch.success,
                          check=check_data(ch)))  # fmt: skip
    for line in res.lines:
        tx.note(line)
    new = res.vehicle.with_state(initiative=c.initiative)
    if path:
        heading = cmd.heading or v.state.heading
        _emit_path(tx, fv.id, path, distance or 0, new.with_state(heading=heading), "runs over", "VEH-13")
    else:
        _emit_state(tx, fv.id, new)
    for victim in res.victims:
        if isinstance(victim, Creature) and victim.id in res.hit:
            tx.creature(victim.id, victim)
    if res.vehicle.wrecked:
        _wrecked(tx, fv.id)


_PILOT_RULES = {
    "start": "VEH-16",
    "stop": "VEH-22",
    "stop_short": "VEH-17",
    "take_control": "VEH-18",
    "relinquish": "VEH-21",
    "engage_autopilot": "VEH-20",
    "disengage_autopilot": "VEH-20",
    "set_destination": "VEH-27",
    "engage_autocontrol": "VEH-19",
    "disengage_autocontrol": "VEH-19",
}


def do_pilot(tx: Tx, cmd: Pilot, ctx: Ctx) -> None:
    """The other pilot actions (VEH-16..22, VEH-27)."""
    action = "stop" if cmd.action == "hover" else cmd.action
    c, fv, slot = _begin(tx, cmd, ctx, action)
    v, opts = fv.vehicle, tx.state.vehicle_options
    res: P.PilotResult
    if action == "start":
        _pilot_check(fv, c, "start it")
        res = P.start_vehicle(v, v.stat.systems.start_actions)
    elif action == "stop":
        _pilot_check(fv, c, "stop it")
        res = P.stop(v)
    elif action == "stop_short":
        _pilot_check(fv, c, "stop short")
        res = P.stop_short(v, c.creature, tx.dice, options=opts)
        _pay(tx, c, action, _PILOT_RULES[action], ctx, slot)
        _checks(tx, c.id, "Piloting: stop short (VEH-17)", res.checks, res.lines)
        _coast(tx, fv, res.vehicle, res.distance_ft)
        return
    elif action == "take_control":
        res = P.take_control(v, c.creature, c.initiative)
    elif action == "relinquish":
        _pilot_check(fv, c, "relinquish control")
        to = None
        if cmd.to is not None:
            if cmd.to not in fv.riders:
                raise RuleViolation("VEH-21", f"{cmd.to} is not aboard {fv.id}")
            to = tx.state.get(cmd.to)
        res = P.relinquish(v, to.creature if to is not None else None, to.initiative if to is not None else None)
    elif action == "engage_autopilot":
        _pilot_check(fv, c, "engage the autopilot")
        res = P.engage_autopilot(v)
    elif action == "disengage_autopilot":
        res = P.disengage_autopilot(v, c.creature)
    elif action == "set_destination":
        if cmd.destination is None:
            raise RuleViolation("VEH-27", "set_destination needs a destination square")
        res = P.set_destination(v, _sq(cmd.destination))
    elif action == "engage_autocontrol":
        _pilot_check(fv, c, "engage the autocontrol")
        res = P.engage_autocontrol(v)
    else:
        res = P.disengage_autocontrol(v, c.creature)
    rules = _PILOT_RULES
    _pay(tx, c, action, rules[action], ctx, slot)
    new = res.vehicle
    if action in ("take_control", "disengage_autopilot", "disengage_autocontrol"):
        new = new.with_state(initiative=c.initiative)
    elif action == "engage_autocontrol" or action == "engage_autopilot":
        new = new.with_state(initiative=c.initiative)
        if new.state.moved_this_round:
            _mark_round(tx, fv.id)
    if res.checks:
        _checks(tx, c.id, f"Piloting: {action.replace('_', ' ')} ({rules[action]})", res.checks)
    lines = list(res.lines)
    if cmd.action == "hover":
        lines = [f"{fv.id} hovers where it is (stopping after a drive takes no action) [VEH-22]"]
    _emit_state(tx, fv.id, new, lines)


def _coast(tx: Tx, fv: FightVehicle, new: Vehicle, distance: int) -> None:
    """VEH-17: the vehicle coasts straight ahead before it stops; on the grid it stops early before whatever is in
    its way (its pilot brakes) or at the map's edge."""
    start, grid = V.footprint(fv), tx.state.grid
    if start is None or grid is None or distance <= 0:
        _emit_state(tx, fv.id, new)
        return
    line = straight_line(start, fv.vehicle.state.heading, distance, uncontrolled=True)
    block = first_obstruction(grid, start, line, V.spaces_around(tx.state, fv))
    if block is not None:
        line = line[: block.index]
        tx.note(f"{fv.id} stops early, before {block.what} [VEH-17]")
    if not line:
        _emit_state(tx, fv.id, new)
        return
    path = [start, *line]
    _emit_path(tx, fv.id, path, _cost(path), new, "coasts to a stop", "VEH-17")


# ---------------------------------------------------------------- boarding and leaving


def _capacity(fv: FightVehicle) -> int:
    crew = fv.vehicle.stat.crew
    return crew.pilots + crew.crew + crew.passengers


def _free_inside(tx: Tx, fv: FightVehicle) -> list[Square]:
    fp = V.footprint(fv)
    if fp is None:
        return []
    taken = {tx.state.combatants[r].position for r in fv.riders if r in tx.state.combatants}
    return [sq for sq in fp.squares if sq not in taken]


def _board_check(tx: Tx, c: Combatant, fv: FightVehicle, skill: str, verb: str) -> bool:
    """VEH-14: boarding or leaving a moving vehicle takes an Acrobatics or Athletics check (5 + KAC)."""
    res = P.boarding(c.creature, fv.vehicle, tx.dice, moving=fv.vehicle.state.moving, skill=skill,  # type: ignore[arg-type]
                     options=tx.state.vehicle_options)  # fmt: skip
    if res.check is not None:
        tx.emit(CheckMade(id=c.id, what=f"{skill.title()} to {verb} {fv.id} (VEH-14)", success=res.check.success,
                          check=check_data(res.check)))  # fmt: skip
    for line in res.lines:
        tx.note(line)
    if res.fell:
        tx.creature(c.id, res.creature)
    return res.boarded


def do_board(tx: Tx, cmd: Board, ctx: Ctx) -> None:
    """VEH-14: a move action onto a free square of an adjacent vehicle's space."""
    c = _actor(tx, cmd.actor, ctx)
    fv = V.get(tx.state, cmd.vehicle)
    slot = _slot(tx, c, "move", "board", ctx)
    if V.aboard(tx.state, c.id) is not None:
        raise RuleViolation("VEH-14", f"{c.id} is already aboard {V.aboard(tx.state, c.id).id}")  # type: ignore[union-attr]
    if fv.vehicle.wrecked:
        raise RuleViolation("VEH-32", f"{fv.id} is wrecked")
    if len(fv.riders) >= _capacity(fv):
        raise RuleViolation("VEH-14", f"{fv.id} holds {_capacity(fv)} and is full")
    fa, fb = space.footprint(c), V.footprint(fv)
    free = _free_inside(tx, fv)
    if fa is not None and fb is not None:
        if geometry.footprint_distance_ft(fa, fb) > 5:
            raise RuleViolation("VEH-14", f"{c.id} must be next to {fv.id} to board it")
        if cmd.at is not None:
            if tuple(cmd.at) not in free:
                raise RuleViolation("VEH-14", f"{tuple(cmd.at)} is not a free square of {fv.id}'s space")
            free = [tuple(cmd.at)]  # type: ignore[list-item]
        if not free:
            raise RuleViolation("VEH-14", f"no free square in {fv.id}'s space")
        here = c.position or (0, 0)
        free.sort(key=lambda sq: (max(abs(sq[0] - here[0]), abs(sq[1] - here[1])), sq))
    _spend(tx, c, "move", f"board {fv.id}", "VEH-14", ctx, slot)
    if not _board_check(tx, c, fv, cmd.skill, "board"):
        return
    if free and c.position is not None:
        tx.emit(Moved(id=c.id, path=(c.position, free[0]), cost_ft=5, kind="board", verb="climbs aboard",
                      rule="VEH-14"))  # fmt: skip
    now = tx.state.vehicles[fv.id]
    tx.emit(VehicleChanged(id=fv.id, state=now.vehicle.state, riders=(*now.riders, c.id),
                           notes=(f"{c.id} is aboard {fv.id} [VEH-14]",)))  # fmt: skip


def do_disembark(tx: Tx, cmd: Disembark, ctx: Ctx) -> None:
    """VEH-14: a move action to a free square next to the vehicle; a pilot who leaves lets go (VEH-23)."""
    c = _actor(tx, cmd.actor, ctx)
    fv = V.aboard(tx.state, c.id)
    if fv is None:
        raise RuleViolation("VEH-14", f"{c.id} is in no vehicle")
    slot = _slot(tx, c, "move", "disembark", ctx)
    fb = V.footprint(fv)
    spot: Square | None = None
    if fb is not None and c.position is not None:
        blocked = V.vehicle_squares(tx.state) | {
            sq for o in tx.state.combatants.values() if o.id != c.id and not o.creature.has("dead")
            for sq in (space.footprint(o).squares if space.footprint(o) is not None else ())  # type: ignore[union-attr]
        }  # fmt: skip
        grid = tx.state.grid
        ring = sorted({(x, y) for x in range(fb.x - 1, fb.x + fb.side + 1) for y in range(fb.y - 1, fb.y + fb.side + 1)
                       if not fb.contains((x, y))},
                      key=lambda sq: (max(abs(sq[0] - c.position[0]), abs(sq[1] - c.position[1])), sq))  # type: ignore[index]  # fmt: skip
        ok = [sq for sq in ring if sq not in blocked and (grid is None or (grid.in_bounds(sq) and grid.fits(
            Footprint(sq[0], sq[1], 1))))]  # fmt: skip
        if cmd.to is not None:
            if tuple(cmd.to) not in ok:
                raise RuleViolation("VEH-14", f"{tuple(cmd.to)} is not a free square next to {fv.id}")
            spot = tuple(cmd.to)  # type: ignore[assignment]
        elif not ok:
            raise RuleViolation("VEH-14", f"no free square next to {fv.id}")
        else:
            spot = ok[0]
    _spend(tx, c, "move", f"leave {fv.id}", "VEH-14", ctx, slot)
    if not _board_check(tx, c, fv, cmd.skill, "leave"):
        return
    v = fv.vehicle
    lines = [f"{c.id} leaves {fv.id} [VEH-14]"]
    if v.state.control == "pilot" and v.state.pilot == c.id:
        lost = P.lose_control(v.with_state(initiative=v.state.initiative or c.initiative), "stopped piloting")
        v = lost.vehicle
        lines += lost.lines
    if spot is not None and c.position is not None:
        tx.emit(Moved(id=c.id, path=(c.position, spot), cost_ft=5, kind="disembark", verb="climbs out",
                      rule="VEH-14"))  # fmt: skip
    tx.emit(VehicleChanged(id=fv.id, state=v.state, riders=tuple(r for r in fv.riders if r != c.id),
                           notes=tuple(lines)))  # fmt: skip


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


# ---------------------------------------------------------------- upkeep: rounds, lost pilots, unpiloted vehicles


def settle(tx: Tx) -> None:
    """VEH-23: a pilot who is knocked out, dead, gone or delaying leaves the vehicle uncontrolled on the count
    it had; a vehicle its pilot already moved this round moves on its own from the next round."""
    s = tx.state
    for fv in list(s.vehicles.values()):
        st = fv.vehicle.state
        if st.control != "pilot" or st.pilot is None:
            continue
        p = s.combatants.get(st.pilot)
        if p is None:
            continue
        reason = None
        if p.out_of_fight:
            reason = "knocked out"
        elif p.delaying:
            reason = "delayed"
        if reason is None:
            continue
        v = fv.vehicle.with_state(initiative=st.initiative if st.initiative is not None else p.initiative)
        lost = P.lose_control(v, reason)  # type: ignore[arg-type]
        done = st.pilot in s.timeline.done or s.timeline.turn == st.pilot or st.moved_this_round
        _emit_state(tx, fv.id, lost.vehicle, lost.lines)
        if done:
            _mark_round(tx, fv.id)


def _mark_round(tx: Tx, vid: str) -> None:
    """The vehicle has had its movement this round (its pilot's, or its own)."""
    fv = tx.state.vehicles[vid]
    tx.emit(VehicleChanged(id=vid, state=fv.vehicle.state, unpiloted_round=tx.state.timeline.round))


def _due(tx: Tx, count: int | None) -> list[str]:
    """Unpiloted vehicles whose count comes before ``count`` this round (None: every one left)."""
    out = []
    rnd = tx.state.timeline.round
    for fv in tx.state.vehicles.values():
        st = fv.vehicle.state
        if st.control in ("pilot",) or fv.unpiloted_round >= rnd or fv.vehicle.wrecked:
            continue
        if st.control == "autopilot" and st.destination is None:
            continue
        if st.control in ("uncontrolled", "autocontrol") and not st.moving:
            continue
        if count is None or st.initiative is None or st.initiative >= count:
            out.append(fv.id)
    return sorted(out, key=lambda vid: -(tx.state.vehicles[vid].vehicle.state.initiative or 0))


def before_turn(tx: Tx, cid: str) -> None:
    """Unpiloted vehicles whose count is at or above ``cid``'s move before its turn starts (VEH-23, VEH-24)."""
    if not tx.state.vehicles:
        return
    c = tx.state.get(cid)
    for vid in _due(tx, c.initiative if c.initiative is not None else 0):
        unpiloted_move(tx, vid)


def round_over(tx: Tx) -> None:
    """The round ends: unpiloted vehicles that have not moved yet move now; then each vehicle's movement this
    round becomes last round's (VEH-06 dead stop, VEH-28 full speed during the last round)."""
    if not tx.state.vehicles or tx.state.timeline.round < 1:
        return
    for vid in _due(tx, None):
        unpiloted_move(tx, vid)


def new_round(tx: Tx) -> None:
    for vid, fv in tx.state.vehicles.items():
        nv = P.new_round(fv.vehicle)
        if nv.state != fv.vehicle.state:
            _emit_state(tx, vid, nv)


def unpiloted_move(tx: Tx, vid: str) -> None:
    """VEH-24, VEH-26, VEH-27: a vehicle nobody pilots moves on its count."""
    fv = tx.state.vehicles[vid]
    _mark_round(tx, vid)
    v, opts = fv.vehicle, tx.state.vehicle_options
    if v.state.control == "autopilot":
        _autopilot_drive(tx, fv)
        return
    res = P.unpiloted_turn(v, dice=tx.dice, grid=tx.state.grid, occupied=V.spaces_around(tx.state, fv), options=opts)
    for ch in res.checks:
        tx.emit(CheckMade(id=vid, what="autocontrol Piloting (VEH-26)", success=ch.success, check=check_data(ch)))
    start = V.footprint(fv)
    rule = "VEH-26" if v.state.control == "autocontrol" else "VEH-24"
    for line in res.lines:
        tx.note(line)
    if start is not None and res.path:
        _emit_path(tx, vid, [start, *res.path], _cost([start, *res.path]), res.vehicle, "rolls on, unpiloted", rule)
    else:
        _emit_state(tx, vid, res.vehicle)
    if res.obstruction is not None:
        crash_into(tx, vid, res.obstruction.what if res.obstruction.kind == "occupant" else None)


def _autopilot_drive(tx: Tx, fv: FightVehicle) -> None:
    """VEH-27: the autopilot drives toward its destination (one drive on its count; it never rams or runs over)."""
    v = fv.vehicle
    start, dest, grid = V.footprint(fv), v.state.destination, tx.state.grid
    speed = drive_speed(v, tx.state.vehicle_options).total
    if start is None or dest is None or grid is None or speed == 0:
        return
    occupied = {sq: "filling" for f in V.spaces_around(tx.state, fv).values() for sq in f.squares}
    from sftactics.grid.movement import Occupant

    occ = {sq: Occupant.FILLING for sq in occupied}
    mover = Mover(size=v.stat.grid_size, speed=speed, can_squeeze=False)
    found = find_path(grid, start, dest, mover, occupants=occ, budget_ft=speed * 20)
    if found is None or not found.steps:
        tx.note(f"{fv.id}'s autopilot finds no way to {dest[0]},{dest[1]} and waits [VEH-27]")
        return
    path, spent = [start], 0
    for st in found.steps:
        if spent + st.cost_ft > speed:
            break
        spent += st.cost_ft
        path.append(st.to)
    new = v.with_state(moving=spent > 0, moved_this_round=True, last_action="drive", last_move_ft=spent)
    if path[-1].anchor == dest:
        new = new.with_state(destination=None)
    tx.note(f"{fv.id}'s autopilot drives toward {dest[0]},{dest[1]} [VEH-27]")
    _traverse(tx, fv, path, new, "drives (autopilot)", "VEH-27", racing=False)


def crash_into(tx: Tx, vid: str, what: str | None) -> None:
    """VEH-25: a crash deals double collision damage to the vehicle and to what it hit (a controlled vehicle may
    dodge, as if rammed); the vehicle stops. A creature in the way takes the doubled damage too."""
    fv = tx.state.vehicles[vid]
    v, opts = fv.vehicle, tx.state.vehicle_options
    if what is not None and what in tx.state.vehicles:
        ofv = tx.state.vehicles[what]
        op = V.pilot_of(tx.state, ofv)
        res = P.crash(v, tx.dice, ofv.vehicle, obstacle_pilot=op.creature if op is not None else None, options=opts)
        for ch in res.checks:
            tx.emit(CheckMade(id=what, what="Piloting to avoid a crash (VEH-25)", success=ch.success,
                              check=check_data(ch)))  # fmt: skip
        _emit_state(tx, vid, res.vehicle, res.lines)
        if isinstance(res.obstacle, Vehicle):
            _emit_state(tx, what, res.obstacle)
            if res.obstacle.wrecked:
                _wrecked(tx, what)
    elif what is not None and what in tx.state.combatants:
        coll = roll_collision(v, tx.dice, target_times=2, self_share="double", purpose="crash", options=opts)
        hit = strike(tx.state.creature(what), coll.to_target, source=f"{vid}'s crash", options=opts)
        own = damage_vehicle(v, coll.to_self, source="its crash", options=opts)
        lines = [*coll.lines, f"{vid} crashes into {what}: double collision damage ({coll.to_target.total}) to "
                 "both [VEH-25]", *own.lines]  # fmt: skip
        _emit_state(tx, vid, own.vehicle.with_state(moving=False, last_move_ft=0), lines)
        assert isinstance(hit.target, Creature)
        tx.creature(what, hit.target, hit.lines)
    else:
        res = P.crash(v, tx.dice, None, options=opts)
        _emit_state(tx, vid, res.vehicle, res.lines)
    if tx.state.vehicles[vid].vehicle.wrecked:
        _wrecked(tx, vid)


__all__ = [
    "before_turn",
    "check_command",
    "crash_into",
    "do_attack_vehicle",
    "new_round",
    "round_over",
    "settle",
    "strike_vehicle",
    "unpiloted_move",
    "vehicle_aoo",
]
