"""Checks in a vehicle chase: being ahead (CHS-03, CHS-18), the modifiers of a pilot's check (tricks by pilots
ahead, CHS-13; off course, CHS-31; the environment, CHS-33; the double maneuver penalty, CHS-14), the DCs of the
pilot actions (Table 8-3, CHS-07..15) and a vehicle's AC in the chase (evade, CHS-09; broken, VEH-32).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain
from sftactics.core.errors import RuleViolation
from sftactics.sf1e.vehicles.chase_state import Chase, ChaseVehicle, Effect
from sftactics.sf1e.vehicles.checks import PilotLike, check_bonus
from sftactics.sf1e.vehicles.environment import NewTrick
from sftactics.sf1e.vehicles.options import DEFAULT_VEHICLE_OPTIONS, VehicleOptions
from sftactics.sf1e.vehicles.state import armor_class, full_speed

B = BonusType.BASE


# ---------------------------------------------------------------- being ahead (CHS-03) and check modifiers


def is_ahead(chase: Chase, a: str, b: str, zones: dict[str, int] | None = None) -> bool:
    """Whether ``a`` is ahead of ``b``: a higher zone, or (CHS-18) counted a zone ahead in a shared zone."""
    z = zones if zones is not None else chase.zones()
    return z[a] > z[b] or (a, b) in chase.virtual_ahead


def _ahead_terms(chase: Chase, vid: str, targets: Iterable[str], options: VehicleOptions) -> list[Term]:
    if chase.phase == "pilot_actions" and options.ahead_during_pilot_actions == "round_start":
        zones = {**chase.zones(), **chase.round_start_zones}
    else:
        zones = chase.zones()
    tgt = [t for t in targets if t in zones]
    enemies = [e.id for e in chase.enemies(vid)]
    vs_target = bool(tgt) and all(is_ahead(chase, vid, t, zones) for t in tgt)
    vs_all = bool(enemies) and all(is_ahead(chase, vid, e, zones) for e in enemies)
    out: list[Term] = []
    if vs_target:
        out.append(Term(2, "ahead of the enemy this check is against", "CHS-03", source="ahead of target"))
    if vs_all and (options.ahead_bonus == "stack" or not out):
        out.append(Term(2, "ahead of all enemies", "CHS-03", source="ahead of all"))
    return out


def _active_effects(chase: Chase, vid: str, kind: str) -> list[Effect]:
    now = chase.now()
    return [e for e in chase.effects if e.vehicle == vid and e.kind == kind and e.start <= now < e.until]


def _effect_terms(chase: Chase, vid: str) -> list[Term]:
    out = []
    for e in _active_effects(chase, vid, "trick"):
        out.append(Term(e.value, f"trick by {e.source}", "CHS-13", source=f"trick by {e.source}"))
    for e in _active_effects(chase, vid, "off_course"):
        out.append(Term(e.value, f"knocked off course by {e.source}", "CHS-31", source="off course"))
    return out


def _movement_terms(chase: Chase, cv: ChaseVehicle, action: str) -> list[Term]:
    out = []
    for m in chase.environment.movement(cv.zone, cv.route):
        v = m.for_action(action, cv.vehicle.stat.kinds)
        if v:
            out.append(Term(v, m.name, "CHS-33", source=m.name))
    return out


def double_penalty(chase: Chase, vid: str, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> Term:
    """CHS-14: -4 to each check of a double maneuver; -2 if the vehicle's full speed is at least 50 ft more than
    the fastest enemy vehicle's."""
    mine = full_speed(chase.get(vid).vehicle, options).total
    theirs = [full_speed(e.vehicle, options).total for e in chase.enemies(vid)]
    if theirs and mine >= max(theirs) + 50:
        return Term(-2, f"double maneuver (full speed {mine} ft, 50+ ft faster than {max(theirs)} ft)", "CHS-14",
                    source="double maneuver")  # fmt: skip
    return Term(-4, "double maneuver", "CHS-14", source="double maneuver")


def pilot_check_bonus(
    chase: Chase,
    vid: str,
    action: str,
    *,
    targets: Iterable[str] = (),
    skill: str = "piloting",
    bonus: int | Breakdown | None = None,
    double: bool = False,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> Breakdown:
    """Everything that goes into a pilot's check in a chase: the pilot's (or autopilot's) skill and the vehicle's
    Piloting modifier, being ahead (Piloting only, CHS-03), tricks by pilots ahead (CHS-13), off course
    (CHS-31), the environment (CHS-33) and the double maneuver penalty (CHS-14)."""
    cv = chase.get(vid)
    extra: list[Term] = []
    if skill == "piloting":
        extra += _ahead_terms(chase, vid, targets, options)
        extra += _effect_terms(chase, vid)
    if chase.phase == "pilot_actions":
        extra += _movement_terms(chase, cv, action)
    if double:
        extra.append(double_penalty(chase, vid, options))
    pilot: PilotLike | None = bonus if bonus is not None else cv.pilot
    if pilot is None and cv.vehicle.state.control != "autopilot":
        raise RuleViolation("CHS-17", f"{vid} has no pilot: it counts as failing every check")
    return check_bonus(cv.vehicle, pilot, skill=skill, extra=extra, options=options)


# ---------------------------------------------------------------- DCs (Table 8-3)


def action_dc(
    chase: Chase,
    vid: str,
    action: str,
    target: str | None = None,
    *,
    trick: NewTrick | None = None,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> Breakdown:
    """The DC of a pilot action (CHS-07..13, Table 8-3); an enemy's KAC includes its evade bonus and broken."""
    cv = chase.get(vid)
    il = cv.vehicle.stat.item_level
    if action in ("evade", "keep_pace"):
        return explain(f"{action} DC", [Term(10, "base", "CHS-15", B), Term(il, "item level", "CHS-15", B)])
    if action == "speed_up":
        return explain("speed up DC", [Term(17, "base", "CHS-12", B), Term(il, "item level", "CHS-12", B)])
    if action == "trick":
        terms = [Term(15, "base", "CHS-13", B), Term(il, "item level", "CHS-13", B)]
        if trick is not None and trick.dc_increase:
            terms.append(Term(trick.dc_increase, f"new trick: {trick.name}", "CHS-34", B))
        return explain("trick DC", terms)
    if action == "engage":
        if target is None:
            raise RuleViolation("CHS-08", "engage needs a target vehicle")
        return explain("engage DC", [Term(vehicle_kac(chase, target, options), f"{target} KAC", "CHS-08", B)])
    if action == "break_free":
        foes = [x for x in chase.engagement(vid) if x != vid and chase.get(x).side != cv.side]
        if not foes:
            raise RuleViolation("CHS-07", f"{vid} is not engaged with an enemy")
        top = max(vehicle_kac(chase, f, options) for f in foes)
        terms = [Term(top, "highest enemy KAC", "CHS-07", B)]
        if options.break_free_dc == "keep_base" or len(foes) == 1:
            terms.insert(0, Term(5, "base", "CHS-07", B))
        if len(foes) > 1:
            terms.append(Term(5 * (len(foes) - 1), f"{len(foes) - 1} more enemy vehicle(s)", "CHS-07", B))
        return explain("break free DC", terms)
    raise RuleViolation("CHS-15", f"{action} needs no check")


def vehicle_kac(chase: Chase, vid: str, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> int:
    return vehicle_ac(chase, vid, "kac", options).total


def vehicle_ac(
    chase: Chase, vid: str, kind: Literal["eac", "kac"], options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS
) -> Breakdown:
    """A vehicle's AC in the chase: printed, broken (VEH-32), evade's +2 circumstance bonus (CHS-09)."""
    cv = chase.get(vid)
    extra = tuple(
        Term(e.value, "evading", "CHS-09", BonusType.CIRCUMSTANCE, source="evade")
        for e in _active_effects(chase, vid, "evade")
    )
    return armor_class(cv.vehicle, kind, extra, options=options)


__all__ = [
    "action_dc",
    "double_penalty",
    "is_ahead",
    "pilot_check_bonus",
    "vehicle_ac",
    "vehicle_kac",
]
