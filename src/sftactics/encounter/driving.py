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

The rules live in smaller modules, re-exported here:

* ``encounter/vehicle_attacks.py`` - attacks against a vehicle, the GM's damage, attacks of opportunity against a
  moving vehicle, mounted weapons (VEH-10, VEH-15, VEH-29, VEH-32, AOO-13);
* ``encounter/vehicle_movement.py`` - moving a vehicle along a path with its riders, stopping for attacks of
  opportunity, crashes (VEH-15, VEH-25);
* ``encounter/vehicle_boarding.py`` - boarding and leaving a vehicle (VEH-14);
* ``encounter/vehicle_upkeep.py`` - lost pilots, unpiloted vehicles, the new round (VEH-06, VEH-23..28).

This module keeps the pilot commands (drive, race, ram, run over and the other pilot actions) and the check that
refuses walking away while riding.
"""

from __future__ import annotations

from typing import Any

from sftactics.core.check import CheckResult
from sftactics.core.errors import RuleViolation
from sftactics.encounter import space
from sftactics.encounter import vehicles as V
from sftactics.encounter.actions import Ctx, _actor, _slot, _spend
from sftactics.encounter.events import CheckMade
from sftactics.encounter.outcomes import check_data
from sftactics.encounter.state import Combatant, FightVehicle
from sftactics.encounter.tx import Tx
from sftactics.encounter.vehicle_attacks import _emit_state, _wrecked, do_attack_vehicle, strike_vehicle, vehicle_aoo
from sftactics.encounter.vehicle_attacks import do_fire_vehicle_weapon as do_fire_vehicle_weapon
from sftactics.encounter.vehicle_attacks import gm_damage_vehicle as gm_damage_vehicle
from sftactics.encounter.vehicle_boarding import do_board as do_board
from sftactics.encounter.vehicle_boarding import do_disembark as do_disembark
from sftactics.encounter.vehicle_commands import Drive, Pilot, Race, Ram, RunOver
from sftactics.encounter.vehicle_movement import _cost, _emit_path, _keep_hp, _threats, _traverse, crash_into
from sftactics.encounter.vehicle_upkeep import _mark_round, before_turn, new_round, round_over, settle, unpiloted_move
from sftactics.grid.geometry import Footprint
from sftactics.grid.space import Size, size_order
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles import piloting as P
from sftactics.sf1e.vehicles.heading import drive_path, first_obstruction, straight_line, swept
from sftactics.sf1e.vehicles.state import Vehicle, drive_speed, full_speed

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


def _checks(tx: Tx, who: str, what: str, checks: tuple[CheckResult, ...], lines: tuple[str, ...] = ()) -> None:
    for ch in checks:
        tx.emit(CheckMade(id=who, what=what, success=ch.success, check=check_data(ch)))
    for line in lines:
        tx.note(line)


def _with_initiative(tx: Tx, c: Combatant, v: Vehicle) -> Vehicle:
    return v.with_state(initiative=c.initiative)


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
