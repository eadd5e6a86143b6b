"""Moving through a vehicle chase: vehicles moving between zones and the hazards they meet there (CHS-19, CHS-30,
CHS-31), the chase progress phase (CHS-17..23: advancing, hazards that follow the chase, escaping and being left
behind, the end of the chase) and split routes, which break engagements and let them form again where the routes
converge (CHS-35). The small operations on engagements, routes and timed effects that the pilot actions phase
shares live here too.
"""

from __future__ import annotations

from typing import Literal

from sftactics.core.breakdown import Term, explain
from sftactics.core.check import CheckKind, CheckResult, resolve
from sftactics.core.errors import RuleViolation
from sftactics.dice import parse
from sftactics.dice.source import DiceSource
from sftactics.sf1e import damage as dmg
from sftactics.sf1e.vehicles.chase_checks import B, vehicle_ac
from sftactics.sf1e.vehicles.chase_state import (
    ActiveHazard,
    Chase,
    ChaseStep,
    ChaseVehicle,
    Effect,
    Outcome,
    PilotRecord,
    _check_over,
    _leave,
    damage,
)
from sftactics.sf1e.vehicles.environment import BOTH_ATTACK_PENALTY, OFF_COURSE_PENALTY, Hazard
from sftactics.sf1e.vehicles.options import DEFAULT_VEHICLE_OPTIONS, VehicleOptions

# ---------------------------------------------------------------- engagements, routes and timed effects


def _route_here(chase: Chase, cv: ChaseVehicle) -> str | None:
    """The route a vehicle is on in its current zone (None: the main way, or the zone is not split)."""
    return cv.route if chase.environment.zone(cv.zone).route(cv.route) is not None else None


def _join(chase: Chase, a: str, b: str) -> Chase:
    ga, gb = chase.engagement(a) or frozenset({a}), chase.engagement(b) or frozenset({b})
    rest = tuple(g for g in chase.engagements if g not in (ga, gb))
    return chase.model_copy(update={"engagements": (*rest, ga | gb)})


def _add_effect(
    chase: Chase, kind: Literal["trick", "evade", "off_course"], source: str, vid: str, value: int
) -> Chase:
    now = chase.now()
    until = (now[0] + 1, now[1], now[2])
    eff = Effect(kind=kind, source=source, vehicle=vid, value=value, start=now, until=until)
    return chase.model_copy(update={"effects": (*chase.effects, eff)})


# ---------------------------------------------------------------- moving between zones and hazards


def _zone_hazards(chase: Chase, zone: int, route: str | None) -> list[tuple[str, Hazard]]:
    z = chase.environment.zone(zone)
    r = z.route(route)
    out = [(f"{zone}::{h.name}", h) for h in z.hazards]
    if r is not None:
        out += [(f"{zone}:{r.name}:{h.name}", h) for h in r.hazards]
    out += [(f"{zone}:+{i}:{h.name}", h) for i, (zn, h) in enumerate(chase.added_hazards) if zn == zone]
    out += [(f"*::{h.name}", h) for h in chase.environment.everywhere.hazards]
    return out


def _move(
    chase: Chase, vid: str, delta: int, dice: DiceSource, options: VehicleOptions, sink: list[CheckResult] | None = None
) -> tuple[Chase, list[str]]:
    """Move a vehicle ``delta`` zones; each zone it enters triggers its hazards at once (CHS-19). The hazards'
    attack rolls go into ``sink``."""
    lines: list[str] = []
    step_ = 1 if delta > 0 else -1
    for _ in range(abs(delta)):
        cv = chase.get(vid)
        new_zone = cv.zone + step_
        keep = cv.route if chase.environment.zone(new_zone).route(cv.route) is not None else None
        chase = chase.with_vehicle(cv.model_copy(update={"zone": new_zone, "route": keep}))
        chase, more = _enter(chase, vid, new_zone, dice, options, sink)
        lines += more
    return chase, lines


def _enter(
    chase: Chase, vid: str, zone: int, dice: DiceSource, options: VehicleOptions, sink: list[CheckResult] | None = None
) -> tuple[Chase, list[str]]:
    lines: list[str] = []
    cv = chase.get(vid)
    for key, hz in _zone_hazards(chase, zone, cv.route):
        if key in chase.spent_hazards:
            continue
        if hz.trigger == "each_entry":
            chase, more = hazard_attack(chase, hz, vid, dice, options, sink=sink)
            lines += more
        elif hz.trigger == "first_entry":
            chase = chase.model_copy(update={"spent_hazards": chase.spent_hazards | {key}})
            chase, more = hazard_attack(chase, hz, vid, dice, options, sink=sink)
            lines += [f"{vid} is the first to enter zone {zone}: {hz.name} strikes [CHS-30]", *more]
        else:
            chase = chase.model_copy(
                update={
                    "spent_hazards": chase.spent_hazards | {key},
                    "active_hazards": (*chase.active_hazards, ActiveHazard(key=key, hazard=hz, zone=zone,
                                                                           rounds_left=hz.rounds)),
                }
            )  # fmt: skip
            lines.append(f"{hz.name} wakes as {vid} enters zone {zone} [CHS-30]")
        if not chase.get(vid).active:
            break
    return chase, lines


def hazard_attack(
    chase: Chase,
    hazard: Hazard,
    vid: str,
    dice: DiceSource,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
    *,
    sink: list[CheckResult] | None = None,
) -> tuple[Chase, list[str]]:
    """A hazard attacks a vehicle (CHS-30, CHS-31): d20 + its attack bonus (Table 8-4 by CR; -2 if it both
    damages and knocks off course) against the vehicle's KAC or EAC; a hit deals its damage (halved for both),
    and/or gives the pilot -4 to Piloting checks for 1 round. The attack roll is appended to ``sink``."""
    kind = hazard.ac or options.hazard_ac
    ac = vehicle_ac(chase, vid, kind, options)
    terms = [Term(hazard.base_attack, f"{hazard.name} attack (CR {hazard.cr})", "CHS-30", B)]
    if hazard.effect == "both":
        terms.append(Term(BOTH_ATTACK_PENALTY, "damages and knocks off course", "CHS-31"))
    bonus = explain(f"{hazard.name} attack", terms)
    check = resolve(CheckKind.ATTACK, bonus, ac.total, dice, purpose=f"{hazard.name} attacks {vid}")
    if sink is not None:
        sink.append(check)
    lines = [f"{hazard.name} attacks {vid}: {check.describe()} ({kind.upper()}) [CHS-30]"]
    if not check.success:
        return chase, lines
    if hazard.effect in ("damage", "both"):
        roll = dmg.roll_damage(parse(hazard.base_damage), explain("hazard", []), dice, purpose=f"{hazard.name} damage")
        amount = roll.total // 2 if hazard.effect == "both" else roll.total
        half = " halved" if hazard.effect == "both" else ""
        lines.append(f"{hazard.name} damage {' '.join(roll.rolls)}{half}: {amount} [CHS-30]")
        step_ = damage(chase, vid, amount, source=hazard.name, options=options)
        chase = step_.chase
        lines += step_.lines
    if hazard.effect in ("off_course", "both") and chase.get(vid).active:
        chase = _add_effect(chase, "off_course", hazard.name, vid, OFF_COURSE_PENALTY)
        lines.append(f"{vid} is knocked off course: -4 to Piloting checks for 1 round [CHS-31]")
    return chase, lines


# ---------------------------------------------------------------- chase progress


def progress_delta(rec: PilotRecord | None, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> int:
    """How far one vehicle moves in chase progress on its own pilot actions (CHS-17): +1 if any check succeeded
    (a speed up failed by less than 5 counts; with a double maneuver still at most +1); -1 after a failed keep
    pace when nothing succeeded (option ``keep_pace_fallback``); 0 otherwise. Slow down cancels forward
    movement; an uncontrolled vehicle fails everything."""
    if rec is None or rec.uncontrolled or not rec.actions:
        return 0
    acts = rec.actions

    def advances(o: Outcome) -> bool:
        if o.action == "slow_down":
            return False
        if not o.checked:
            return o.success and options.checkless_success
        return o.success or (o.action == "speed_up" and o.failed_by < 5)

    if any(advances(o) for o in acts):
        delta = 1
    elif any(o.action == "keep_pace" and not o.success for o in acts) and (
        options.keep_pace_fallback == "all_failed" or all(o.action == "keep_pace" for o in acts)
    ):
        delta = -1
    else:
        delta = 0
    if delta > 0 and any(o.action == "slow_down" for o in acts):
        delta = 0
    return delta


def progress(
    chase: Chase,
    dice: DiceSource,
    *,
    decline_escape: frozenset[str] = frozenset(),
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> ChaseStep:
    """The chase progress phase (CHS-17..23): advance vehicles, trigger hazards, settle who escapes or is left
    behind, and whether the chase is over."""
    if chase.phase != "chase_progress":
        raise RuleViolation("CHS-05", f"chase progress comes after every pilot has acted (now: {chase.phase})")
    lines: list[str] = []
    sink: list[CheckResult] = []
    deltas = {cv.id: progress_delta(chase.record(cv.id), options) for cv in chase.active}
    virtual: list[tuple[str, str]] = []
    for group in chase.engagements:
        members = [m for m in group if m in deltas]
        movers = [m for m in members if deltas[m] > 0]
        if movers:
            for m in members:
                if deltas[m] <= 0:
                    deltas[m] = 1
                    lines.append(f"{m} failed its checks but moves on with the engaged {', '.join(movers)} [CHS-18]")
                    for a in movers:
                        if chase.get(a).side != chase.get(m).side:
                            virtual.append((a, m))
        else:
            for m in members:
                deltas[m] = 0
    chase = chase.model_copy(update={"virtual_ahead": tuple(virtual)})
    for a, m in virtual:
        lines.append(f"{a} counts as one zone ahead of {m} though they share a zone [CHS-18]")
    for vid in chase.order:
        if vid not in deltas or not chase.get(vid).active:
            continue
        d = deltas[vid]
        word = {1: "moves forward one zone", 0: "stays", -1: "falls back one zone"}[d]
        lines.append(f"{vid} {word} [CHS-17]")
        if d:
            chase, more = _move(chase, vid, d, dice, options, sink)
            lines += more
    chase, more = _after_progress_hazards(chase, dice, options, sink)
    lines += more
    chase, more = _escapes(chase, decline_escape, options)
    lines += more
    chase, more = _reengage(chase)
    lines += more
    chase, more = _check_over(chase)
    lines += more
    if not chase.over:
        chase = chase.model_copy(update={"phase": "combat"})
        lines.append("combat phase [CHS-05]")
    return ChaseStep(chase, tuple(sink), tuple(lines))


def _after_progress_hazards(
    chase: Chase, dice: DiceSource, options: VehicleOptions, sink: list[CheckResult] | None = None
) -> tuple[Chase, list[str]]:
    lines: list[str] = []
    kept: list[ActiveHazard] = []
    for ah in chase.active_hazards:
        pool = [cv for cv in chase.active]
        if ah.hazard.trigger == "random_after_progress":
            pool = [cv for cv in pool if cv.zone == ah.zone]
        if pool:
            if ah.hazard.trigger == "rear_after_progress":
                low = min(cv.zone for cv in pool)
                pool = [cv for cv in pool if cv.zone == low]
            pick = pool[0] if len(pool) == 1 else pool[dice.die(len(pool), f"{ah.hazard.name} picks a target") - 1]
            how = "the rearmost vehicle" if ah.hazard.trigger == "rear_after_progress" else "a random vehicle"
            lines.append(f"{ah.hazard.name} goes after {how}: {pick.id} [CHS-30]")
            chase, more = hazard_attack(chase, ah.hazard, pick.id, dice, options, sink=sink)
            lines += more
        left = None if ah.rounds_left is None else ah.rounds_left - 1
        if left is None or left > 0:
            new_zone = min((cv.zone for cv in chase.active), default=ah.zone)
            zone = new_zone if ah.hazard.trigger == "rear_after_progress" else ah.zone
            kept.append(ah.model_copy(update={"rounds_left": left, "zone": zone}))
        else:
            lines.append(f"{ah.hazard.name} gives up the chase [CHS-30]")
    return chase.model_copy(update={"active_hazards": tuple(kept)}), lines


def _escapes(chase: Chase, decline: frozenset[str], options: VehicleOptions) -> tuple[Chase, list[str]]:
    """CHS-20, CHS-21: who escapes and who is left behind, judged together from where the vehicles ended, so that
    one progress step can both let a vehicle escape and leave an adversary behind. A vehicle that declines its
    escape drops back first (which can change the others' standing); the judging repeats on the vehicles still in
    the chase until nothing changes (a vehicle that escaped no longer holds back the adversaries behind it)."""
    lines: list[str] = []
    n = options.escape_zones
    declined: set[str] = set()
    while True:
        active = chase.active
        ahead: list[ChaseVehicle] = []
        behind: list[ChaseVehicle] = []
        for cv in active:
            foes = [e for e in active if e.side != cv.side]
            if not foes:
                continue
            if cv.id not in declined and all(cv.zone - e.zone >= n for e in foes):
                ahead.append(cv)
            elif all(e.zone - cv.zone >= n for e in foes):
                behind.append(cv)
        drop = [cv for cv in ahead if cv.id in decline]
        if drop:
            for cv in drop:
                back = max(e.zone for e in active if e.side != cv.side) + 1
                chase = chase.with_vehicle(cv.model_copy(update={"zone": back}))
                declined.add(cv.id)
                lines.append(f"{cv.id} could escape but drops back to zone {back}, one zone ahead [CHS-21]")
            continue
        if not ahead and not behind:
            return chase, lines
        for cv in ahead:
            chase = _leave(chase.with_vehicle(cv.model_copy(update={"status": "escaped"})), cv.id)
            lines.append(f"{cv.id} is {n}+ zones ahead of every adversary: it escapes [CHS-20]")
        for cv in behind:
            chase = _leave(chase.with_vehicle(cv.model_copy(update={"status": "left_behind"})), cv.id)
            lines.append(f"{cv.id} is {n}+ zones behind its nearest adversary: it is left behind [CHS-20]")


def _split_engagements(chase: Chase) -> tuple[Chase, list[str]]:
    """CHS-35: engaged vehicles on different routes of a split zone are no longer engaged; remember them."""
    lines: list[str] = []
    for group in chase.engagements:
        routes = {m: _route_here(chase, chase.get(m)) for m in group}
        if len(set(routes.values())) > 1:
            pairs = [(a, b) for a in group for b in group if a < b and routes[a] != routes[b]]
            chase = chase.model_copy(update={"split_engaged": (*chase.split_engaged, *pairs)})
            for a, _ in pairs:
                chase = _leave(chase, a)
            lines.append("different routes break the engagement of " + ", ".join(sorted(group)) + " [CHS-35]")
    return chase, lines


def _reengage(chase: Chase) -> tuple[Chase, list[str]]:
    lines: list[str] = []
    keep: list[tuple[str, str]] = []
    for a, b in chase.split_engaged:
        ca, cb = chase.get(a), chase.get(b)
        if not (ca.active and cb.active) or ca.zone != cb.zone:
            continue
        if _route_here(chase, ca) is None and _route_here(chase, cb) is None:
            chase = _join(chase, a, b)
            lines.append(f"the routes converge: {a} and {b} are engaged again [CHS-35]")
        else:
            keep.append((a, b))
    return chase.model_copy(update={"split_engaged": tuple(keep)}), lines


__all__ = [
    "hazard_attack",
    "progress",
    "progress_delta",
]
