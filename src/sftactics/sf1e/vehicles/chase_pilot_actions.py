"""The pilot actions phase of a vehicle chase (CHS-05..16): pilots act in initiative order, each taking one pilot
action of Table 8-3 (two with a double maneuver, CHS-14), leaving the vehicle uncontrolled or passing; vehicles
nobody controls are passed over (CHS-17). A successful action takes effect at once: speed up moves the vehicle a
zone (CHS-12), evade and tricks add timed effects (CHS-09, CHS-13, CHS-34), engage and break free change the
engagements (CHS-07, CHS-08); a route taken in a split zone may break an engagement (CHS-35).
"""

from __future__ import annotations

from sftactics.core.check import CheckResult
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.sf1e.vehicles.chase_checks import action_dc, double_penalty, is_ahead, pilot_check_bonus
from sftactics.sf1e.vehicles.chase_commands import DoubleManeuver, Forfeit, LeaveUncontrolled, Pass, PilotAction
from sftactics.sf1e.vehicles.chase_progress import _add_effect, _join, _move, _route_here, _split_engagements
from sftactics.sf1e.vehicles.chase_state import TABLE_8_3, Chase, ChaseStep, ChaseVehicle, Outcome, PilotRecord, _leave
from sftactics.sf1e.vehicles.checks import failed_by, roll_check
from sftactics.sf1e.vehicles.environment import NewTrick
from sftactics.sf1e.vehicles.options import VehicleOptions

# ---------------------------------------------------------------- pilot actions phase


def _replace_record(chase: Chase, rec: PilotRecord) -> Chase:
    others = tuple(r for r in chase.records if r.vehicle != rec.vehicle)
    return chase.model_copy(update={"records": (*others, rec)})


def _settle_turn(chase: Chase) -> tuple[Chase, list[str]]:
    """Move past pilots who are done and vehicles nobody controls; open chase progress when everyone is done."""
    lines: list[str] = []
    while chase.phase == "pilot_actions" and chase.turn < len(chase.order):
        vid = chase.order[chase.turn]
        cv = chase.get(vid)
        rec = chase.record(vid)
        if rec is not None and rec.done:
            chase = chase.model_copy(update={"turn": chase.turn + 1})
            continue
        if not cv.active:
            chase = chase.model_copy(update={"turn": chase.turn + 1})
            continue
        if not cv.controlled:
            chase = _replace_record(chase, PilotRecord(vehicle=vid, uncontrolled=True, done=True))
            lines.append(f"{vid} is uncontrolled: it counts as failing every check [CHS-17]")
            chase = chase.model_copy(update={"turn": chase.turn + 1})
            continue
        break
    if chase.phase == "pilot_actions" and chase.turn >= len(chase.order):
        chase = chase.model_copy(update={"phase": "chase_progress"})
        lines.append("every pilot has acted: chase progress [CHS-05]")
    return chase, lines


def _check_turn(chase: Chase, vid: str) -> ChaseVehicle:
    if chase.phase != "pilot_actions":
        raise RuleViolation("CHS-05", f"pilot actions happen in the pilot actions phase (now: {chase.phase})")
    if chase.current_pilot != vid:
        raise RuleViolation("CHS-05", f"it is {chase.current_pilot}'s turn to take pilot actions, not {vid}'s")
    return chase.get(vid)


def _pilot_phase(
    chase: Chase,
    cmd: PilotAction | DoubleManeuver | Forfeit | LeaveUncontrolled | Pass,
    dice: DiceSource,
    options: VehicleOptions,
) -> ChaseStep:
    cv = _check_turn(chase, cmd.vehicle)
    rec = chase.record(cv.id) or PilotRecord(vehicle=cv.id)
    if isinstance(cmd, DoubleManeuver):
        if rec.actions or rec.double:
            raise RuleViolation("CHS-14", "declare a double maneuver before the first pilot action")
        chase = _replace_record(chase, rec.model_copy(update={"double": True}))
        return ChaseStep(chase, (), (f"{cv.id}: double maneuver (a full action), each check at "
                                     f"{double_penalty(chase, cv.id, options).value} [CHS-14]",))  # fmt: skip
    if isinstance(cmd, Forfeit):
        if not rec.double or len(rec.actions) != 1:
            raise RuleViolation("CHS-14", "only the second action of a double maneuver can be forfeited")
        chase, more = _settle_turn(_replace_record(chase, rec.model_copy(update={"done": True})))
        return ChaseStep(
            chase, (), (f"{cv.id} forfeits its second action; the first keeps its penalty [CHS-14]", *more)
        )
    if isinstance(cmd, LeaveUncontrolled | Pass):
        if rec.actions:
            raise RuleViolation("CHS-06", f"{cv.id} has already taken a pilot action this round")
        unc = isinstance(cmd, LeaveUncontrolled)
        chase, more = _settle_turn(_replace_record(chase, PilotRecord(vehicle=cv.id, uncontrolled=unc, done=True)))
        text = ("is left uncontrolled: it fails every check; its pilot may make a full attack later [CHS-17] [CHS-25]"
                if unc else "takes no pilot action: it does not move forward [CHS-17]")  # fmt: skip
        return ChaseStep(chase, (), (f"{cv.id} {text}", *more))
    return _take_action(chase, cv, rec, cmd, dice, options)


def _take_action(
    chase: Chase, cv: ChaseVehicle, rec: PilotRecord, cmd: PilotAction, dice: DiceSource, options: VehicleOptions
) -> ChaseStep:
    action = cmd.action
    if action not in TABLE_8_3 or str(action) == "double_maneuver":
        raise RuleViolation("CHS-15", f"unknown pilot action {action!r}")
    engaged = chase.engagement(cv.id)
    if engaged and action in options.engaged_forbidden:
        target_is_ally = action == "engage" and cmd.target is not None and chase.get(cmd.target).side == cv.side
        if not target_is_ally:
            raise RuleViolation("CHS-16", f"an engaged vehicle cannot {action.replace('_', ' ')} (break free first)")
    lines: list[str] = []
    checks: list[CheckResult] = []
    if cmd.route is not None:
        if chase.environment.zone(cv.zone).route(cmd.route) is None and not _route_ahead(chase, cv.zone, cmd.route):
            raise RuleViolation("CHS-35", f"there is no route {cmd.route!r} here or in the next zone")
        cv = cv.model_copy(update={"route": cmd.route})
        chase = chase.with_vehicle(cv)
        lines.append(f"{cv.id} takes the {cmd.route} route [CHS-35]")
        chase, more = _split_engagements(chase)
        lines += more
        engaged = chase.engagement(cv.id)
    outcome: Outcome
    if action == "slow_down":
        slow_dc = _slow_down_dc(chase, cv)
        if slow_dc is None:
            outcome = Outcome(action=action, success=True, checked=False)
            lines.append(f"{cv.id} slows down: it will not move forward in chase progress [CHS-11]")
        else:
            bonus = pilot_check_bonus(chase, cv.id, action, double=rec.double, bonus=cmd.bonus, options=options)
            check = roll_check(bonus, slow_dc, dice, f"{cv.id} slow down")
            checks.append(check)
            outcome = Outcome(action=action, success=check.success, failed_by=failed_by(check))
            lines.append(f"{cv.id} slows down on a slope: Piloting {check.describe()} [CHS-33] [CHS-11]")
    elif action == "engage" and cmd.target is not None and chase.get(cmd.target).side == cv.side:
        ally = chase.get(cmd.target)
        _engage_ok(chase, cv, ally)
        chase = _join(chase, cv.id, ally.id)
        outcome = Outcome(action=action, success=True, checked=False, target=ally.id)
        lines.append(f"{cv.id} engages its ally {ally.id} freely [CHS-08]")
    elif action == "break_free" and cmd.willing:
        if not engaged:
            raise RuleViolation("CHS-07", f"{cv.id} is not engaged")
        chase = _leave(chase, cv.id)
        outcome = Outcome(action=action, success=True, checked=False)
        lines.append(f"{cv.id} breaks off: every party is willing, no check [CHS-07]")
    else:
        trick = _find_trick(chase, cv, cmd.trick) if action == "trick" else None
        targets: list[str] = []
        if action == "engage":
            if cmd.target is None:
                raise RuleViolation("CHS-08", "engage needs a target vehicle")
            _engage_ok(chase, cv, chase.get(cmd.target))
            targets = [cmd.target]
        elif action == "break_free":
            targets = [x for x in engaged if x != cv.id and chase.get(x).side != cv.side]
        dc = action_dc(chase, cv.id, action, cmd.target, trick=trick, options=options)
        skill = cmd.skill if action == "trick" else "piloting"
        bonus = pilot_check_bonus(chase, cv.id, action, targets=targets, skill=skill, bonus=cmd.bonus,
                                  double=rec.double, options=options)  # fmt: skip
        check = roll_check(bonus, dc.total, dice, f"{cv.id} {action.replace('_', ' ')}")
        checks.append(check)
        outcome = Outcome(action=action, success=check.success, failed_by=failed_by(check), target=cmd.target)
        rule = {"break_free": "CHS-07", "engage": "CHS-08", "evade": "CHS-09", "keep_pace": "CHS-10",
                "speed_up": "CHS-12", "trick": "CHS-13"}[action]  # fmt: skip
        terms = " ".join(t.describe() for t in bonus.applied)
        lines.append(
            f"{cv.id} {action.replace('_', ' ')}: {skill.title()} d20 {check.natural} ({terms}) = {check.total} "
            f"vs DC {dc.total} ({dc.describe()}): {'success' if check.success else f'failure by {outcome.failed_by}'} "
            f"[{rule}]"
        )
        if check.success:
            chase, more = _on_success(chase, cv.id, action, cmd.target, trick, dice, options, checks)
            lines += more
    new_rec = rec.model_copy(update={"actions": (*rec.actions, outcome)})
    if not new_rec.double or len(new_rec.actions) == 2:
        new_rec = new_rec.model_copy(update={"done": True})
    chase = _replace_record(chase, new_rec)
    chase, more = _settle_turn(chase)
    return ChaseStep(chase, tuple(checks), (*lines, *more))


def _slow_down_dc(chase: Chase, cv: ChaseVehicle) -> int | None:
    dcs = [m.slow_down_dc for m in chase.environment.movement(cv.zone, cv.route) if m.slow_down_dc is not None]
    return max(dcs) if dcs else None


def _route_ahead(chase: Chase, zone: int, route: str) -> bool:
    return chase.environment.zone(zone + 1).route(route) is not None


def _find_trick(chase: Chase, cv: ChaseVehicle, name: str | None) -> NewTrick | None:
    if name is None:
        return None
    for t in chase.environment.tricks(cv.zone):
        if t.name == name:
            return t
    raise RuleViolation("CHS-34", f"no trick {name!r} in {cv.id}'s zone")


def _engage_ok(chase: Chase, cv: ChaseVehicle, other: ChaseVehicle) -> None:
    if other.id == cv.id or not other.active:
        raise RuleViolation("CHS-08", f"{other.id} cannot be engaged")
    if other.zone != cv.zone:
        raise RuleViolation(
            "CHS-08", f"engaging needs the same zone ({cv.id} is in {cv.zone}, {other.id} in {other.zone})"
        )
    if _route_here(chase, cv) != _route_here(chase, other):
        raise RuleViolation("CHS-35", "vehicles on different routes of a split zone cannot interact")
    if other.id in chase.engagement(cv.id):
        raise RuleViolation("CHS-08", f"{cv.id} is already engaged with {other.id}")


def _on_success(
    chase: Chase,
    vid: str,
    action: str,
    target: str | None,
    trick: NewTrick | None,
    dice: DiceSource,
    options: VehicleOptions,
    sink: list[CheckResult] | None = None,
) -> tuple[Chase, list[str]]:
    lines: list[str] = []
    if action == "speed_up":
        lines.append(f"{vid} moves forward one zone now [CHS-12]")
        chase, more = _move(chase, vid, 1, dice, options, sink)
        lines += more
    elif action == "evade":
        chase = _add_effect(chase, "evade", vid, vid, 2)
        lines.append(f"{vid} gains +2 circumstance to AC for 1 round (not cumulative) [CHS-09]")
    elif action == "engage" and target is not None:
        chase = _join(chase, vid, target)
        lines.append(
            f"{vid} is engaged with " + ", ".join(sorted(chase.engagement(vid) - {vid})) + " [CHS-08] [CHS-16]"
        )
    elif action == "break_free":
        chase = _leave(chase, vid)
        lines.append(f"{vid} breaks free of the engagement [CHS-07]")
    elif action == "trick":
        penalty = -2 if trick is None else trick.pursuer_penalty
        behind = [cv.id for cv in chase.active if cv.id != vid and is_ahead(chase, vid, cv.id)]
        if penalty:
            for b in behind:
                chase = _add_effect(chase, "trick", vid, b, penalty)
            who = ", ".join(behind) or "nobody"
            lines.append(f"vehicles behind {vid} ({who}) take {penalty} to Piloting for 1 round [CHS-13]")
        if trick is not None and trick.hazard is not None:
            zone = chase.get(vid).zone - 1
            chase = chase.model_copy(update={"added_hazards": (*chase.added_hazards, (zone, trick.hazard))})
            lines.append(f"{trick.name}: a new hazard, {trick.hazard.name}, in zone {zone} behind {vid} [CHS-34]")
        if trick is not None and trick.creates:
            lines.append(f"{trick.name} creates {trick.creates} (GM) [CHS-34]")
    return chase, lines
