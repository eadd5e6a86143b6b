"""A journey, day by day and hour by hour (MOV-09, MOV-21..27): how far a traveller gets over a terrain and way,
walking or hustling, and what hustling and forced marching cost in Constitution checks and nonlethal damage.

:func:`plan_journey` is pure (dice injected). Every number explains itself: the miles per hour as
:class:`Factor`\\ s (speed / 10, the pace, the terrain with its way, each with its rule ID), each forced-march DC
and each point of hustling damage as a :class:`~sftactics.core.breakdown.Breakdown`, and the checks with their
dice. The rules' own pieces are in :mod:`sftactics.sf1e.travel` (hustle, forced march) and
:mod:`sftactics.grid.scales` (miles per hour).

Decisions, each documented in docs/vehicles.md ("Travel"):

* The hustled hours are the first ``hustle_hours`` of each day; the count of hustled hours starts again after
  a night's sleep (MOV-24: "between sleep cycles").
* Every hour beyond eight in a day is a forced-march hour (MOV-27), whatever the pace; a hustled ninth hour
  costs both its hustling damage and a forced-march check.
* Vehicles (``vehicle_mph``) travel at their overland speed with the terrain's factor (a trail counts as
  trackless, MOV-26); their people take no Constitution checks and no damage (the rules give none).
* Recovering nonlethal damage between days is outside the seeds: damage carries over unless ``rest_recovers``
  (then each night's sleep recovers the day's travel damage and the fatigue that came with it, DMG-12).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain
from sftactics.core.check import CheckResult
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.grid.scales import ROUNDS_PER_MINUTE, Pace, miles_per_hour
from sftactics.sf1e import travel
from sftactics.sf1e.state import Creature
from sftactics.sf1e.travel import Way

B = BonusType.BASE


@dataclass(frozen=True, slots=True)
class Factor:
    """One factor of a product (miles per hour): its value, what it is and its rule."""

    value: Fraction
    label: str
    rule: str

    def describe(self) -> str:
        return f"{self.label}: {_num(self.value)} [{self.rule}]"

    def to_dict(self) -> dict[str, Any]:
        return {"value": str(self.value), "label": self.label, "rule": self.rule}


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):.3g}".rstrip("0").rstrip(".")


@dataclass(frozen=True, slots=True)
class Speed:
    """Miles per hour as a product of factors."""

    factors: tuple[Factor, ...]

    @property
    def mph(self) -> Fraction:
        out = Fraction(1)
        for f in self.factors:
            out *= f.value
        return out

    def describe(self) -> str:
        return f"{_num(self.mph)} mph = " + " x ".join(f.describe() for f in self.factors)

    def to_dict(self) -> dict[str, Any]:
        return {"mph": str(self.mph), "mph_float": float(self.mph), "factors": [f.to_dict() for f in self.factors]}


@dataclass(frozen=True, slots=True)
class Hour:
    """One hour of travel: its pace, the miles covered, a forced-march check if any, the nonlethal damage taken
    (``damage`` explains hustling's share), and the explanation lines."""

    day: int
    hour: int
    pace: Literal["walk", "hustle", "vehicle"]
    miles: Fraction
    check: CheckResult | None = None
    dc: Breakdown | None = None
    damage: Breakdown | None = None
    nonlethal: int = 0
    fatigued: bool = False
    lines: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "hour": self.hour,
            "pace": self.pace,
            "miles": str(self.miles),
            "miles_float": float(self.miles),
            "check": self.check.to_dict() if self.check else None,
            "dc": self.dc.to_dict() if self.dc else None,
            "hustle_damage": self.damage.to_dict() if self.damage else None,
            "nonlethal": self.nonlethal,
            "fatigued": self.fatigued,
            "lines": list(self.lines),
        }


@dataclass(frozen=True, slots=True)
class Day:
    day: int
    hours: tuple[Hour, ...]
    miles: Fraction
    total_miles: Fraction
    nonlethal: int
    hp_left: int | None
    fatigued: bool
    unconscious: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "miles": str(self.miles),
            "miles_float": float(self.miles),
            "total_miles": str(self.total_miles),
            "total_miles_float": float(self.total_miles),
            "nonlethal": self.nonlethal,
            "hp_left": self.hp_left,
            "fatigued": self.fatigued,
            "unconscious": self.unconscious,
            "hours": [h.to_dict() for h in self.hours],
        }


@dataclass(frozen=True, slots=True)
class Journey:
    who: str
    speed: Speed
    hustle_speed: Speed | None
    days: tuple[Day, ...]
    distance: Fraction | None
    arrived: bool
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def total_miles(self) -> Fraction:
        return self.days[-1].total_miles if self.days else Fraction(0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "who": self.who,
            "speed": self.speed.to_dict(),
            "hustle_speed": self.hustle_speed.to_dict() if self.hustle_speed else None,
            "distance": None if self.distance is None else str(self.distance),
            "arrived": self.arrived,
            "total_miles": str(self.total_miles),
            "total_miles_float": float(self.total_miles),
            "notes": list(self.notes),
            "days": [d.to_dict() for d in self.days],
        }


def overland_speed(
    speed_ft: int | None, terrain: str, way: Way, *, pace: Pace = Pace.WALK, vehicle_mph: int | None = None
) -> Speed:
    """Miles per hour (MOV-09, MOV-26): speed / 10 walking, twice that hustling, or a vehicle's overland mph;
    times the terrain's factor for the way."""
    if vehicle_mph is not None:
        factors = [Factor(Fraction(vehicle_mph), "the vehicle's overland speed (mph)", "VEH-02")]
    else:
        if speed_ft is None or speed_ft <= 0:
            raise RuleViolation("MOV-09", "a land speed in feet is needed to travel overland")
        factors = [Factor(miles_per_hour(speed_ft), f"speed {speed_ft} ft / 10", "MOV-09")]
        if pace is Pace.HUSTLE:
            factors.append(Factor(Fraction(2), "hustling", "MOV-09"))
    mult = travel.terrain_multiplier(terrain, way, vehicle=vehicle_mph is not None)
    way_label = "trail (vehicles use trackless)" if way == "trail" and vehicle_mph is not None else way
    factors.append(Factor(mult, f"{terrain}, {way_label}", "MOV-26"))
    return Speed(tuple(factors))


def _hustle_breakdown(hour: int) -> Breakdown | None:
    amount = travel.hustle_damage(hour)
    if amount <= 0:
        return None
    label = (
        "second hour of hustling since sleeping" if hour == 2 else f"hour {hour} of hustling: double the hour before"
    )
    return explain("hustling damage", [Term(amount, label, "MOV-24", B)])


def _march_dc(extra: int) -> Breakdown:
    return explain(
        "forced march DC",
        [Term(10, "base", "MOV-27", B), Term(2 * extra, f"{extra} hour(s) beyond eight", "MOV-27", B)],
    )


def plan_journey(
    traveller: Creature | None,
    dice: DiceSource,
    *,
    terrain: str = "plains",
    way: Way = "road",
    speed_ft: int | None = None,
    hours_per_day: int | None = None,
    hustle_hours: int = 0,
    days: int | None = None,
    distance_miles: Fraction | None = None,
    vehicle_mph: int | None = None,
    vehicle_day: Literal["small crew vehicle", "vehicle with shifts"] = "small crew vehicle",
    rest_recovers: bool = False,
) -> Journey:
    """Travel day by day until ``distance_miles`` is covered or ``days`` have passed (at least one must be
    given). ``traveller``: the creature whose speed, Constitution and Hit Points count (None with a vehicle or a
    bare ``speed_ft``: no checks or damage). ``hours_per_day``: default the travel day of MOV-22 (8 on foot, 10
    for a small-crew vehicle, 24 with shifts)."""
    if days is None and distance_miles is None:
        raise RuleViolation("MOV-22", "give a number of days or a distance")
    if days is not None and not 1 <= days <= 365:
        raise RuleViolation("MOV-22", "between 1 and 365 days")
    if distance_miles is not None and distance_miles <= 0:
        raise RuleViolation("MOV-22", "a distance above 0 miles")
    by_vehicle = vehicle_mph is not None
    kind = vehicle_day if by_vehicle else "foot"
    hours = hours_per_day if hours_per_day is not None else travel.travel_day_hours(kind)
    if not 1 <= hours <= 24:
        raise RuleViolation("MOV-22", "a travel day has 1 to 24 hours")
    if hustle_hours < 0 or hustle_hours > hours:
        raise RuleViolation("MOV-24", f"hustle for 0 to {hours} hours a day")
    if by_vehicle and hustle_hours:
        raise RuleViolation("MOV-24", "vehicles do not hustle: their overland speed is their mph")
    if speed_ft is None and traveller is not None and not by_vehicle:
        speed_ft = traveller.stat.speed.get("land") or None
    walk = overland_speed(speed_ft, terrain, way, vehicle_mph=vehicle_mph)
    hustle = overland_speed(speed_ft, terrain, way, pace=Pace.HUSTLE) if hustle_hours else None
    notes = []
    if by_vehicle:
        notes.append(f"a travel day by {kind} is {hours} hours [MOV-22]; vehicles take no Constitution checks")
    else:
        notes.append(f"a travel day on foot is {hours} hours; walking 8 hours a day is free [MOV-22] [MOV-23]")
    if walk.mph <= 0:
        raise RuleViolation("MOV-26", "this way of travelling covers no ground")
    c = traveller
    total = Fraction(0)
    out_days: list[Day] = []
    limit = days if days is not None else 365
    arrived = False
    for d in range(1, limit + 1):
        day_start = c
        day_hours: list[Hour] = []
        day_miles = Fraction(0)
        day_damage = 0
        hustled = 0
        for h in range(1, hours + 1):
            if distance_miles is not None and total >= distance_miles:
                break
            if c is not None and c.has("unconscious"):
                break
            lines: list[str] = []
            pace: Literal["walk", "hustle", "vehicle"] = "vehicle" if by_vehicle else "walk"
            speed = walk
            if h <= hustle_hours and hustle is not None:
                pace, speed = "hustle", hustle
                hustled += 1
            miles = speed.mph
            if distance_miles is not None and total + miles > distance_miles:
                miles = distance_miles - total
            total += miles
            day_miles += miles
            lines.append(f"hour {h}: {pace} {_num(miles)} miles ({speed.describe()})")
            damage_bd = _hustle_breakdown(hustled) if pace == "hustle" else None
            nonlethal = 0
            fatigued = False
            check: CheckResult | None = None
            dc_bd: Breakdown | None = None
            if c is not None and not by_vehicle and pace == "hustle":
                res = travel.hustle(c, hustled)
                c, nonlethal, fatigued = res.creature, res.nonlethal, res.fatigued
                lines += list(res.lines)
            if c is not None and not by_vehicle and h > travel.FREE_WALK_HOURS and not c.has("unconscious"):
                dc_bd = _march_dc(h - travel.FREE_WALK_HOURS)
                res = travel.forced_march(c, h, dice)
                c = res.creature
                check = res.checks[0] if res.checks else None
                nonlethal += res.nonlethal
                fatigued = fatigued or res.fatigued
                lines += [*res.lines, f"forced march DC {dc_bd.total} ({dc_bd.describe()})"]
            day_damage += nonlethal
            day_hours.append(Hour(d, h, pace, miles, check, dc_bd, damage_bd, nonlethal, fatigued, tuple(lines)))
        fat = c is not None and c.has("fatigued")
        unc = c is not None and c.has("unconscious")
        out_days.append(Day(d, tuple(day_hours), day_miles, total, day_damage, c.state.hp if c else None, fat, unc))
        if distance_miles is not None and total >= distance_miles:
            arrived = True
            break
        if unc:
            notes.append(f"{c.name if c else ''} marched into unconsciousness on day {d} [MOV-27]")
            break
        if c is not None and day_start is not None and rest_recovers and day_damage:
            c = _recover(c, day_start)
    return Journey(
        who=traveller.name if traveller else ("vehicle" if by_vehicle else f"speed {speed_ft} ft"),
        speed=walk,
        hustle_speed=hustle,
        days=tuple(out_days),
        distance=distance_miles,
        arrived=arrived,
        notes=tuple(notes),
    )


def _recover(c: Creature, day_start: Creature) -> Creature:
    """A night's sleep recovers the day's travel damage (Stamina and Hit Points as they were in the morning) and
    the fatigue it brought (``rest_recovers``, DMG-12)."""
    from sftactics.sf1e import conditions as cond

    c = c.with_state(sp=day_start.state.sp, hp=day_start.state.hp, nonlethal_fatigue=day_start.state.nonlethal_fatigue)
    if c.has("fatigued") and not day_start.has("fatigued"):
        c = cond.remove_condition(c, "fatigued")
    return c


# ---------------------------------------------------------------- local movement (MOV-09, MOV-21)


@dataclass(frozen=True, slots=True)
class Minute:
    """One minute (10 rounds) of local movement: the feet covered, the rounds run and rested (moving at most the
    speed), and the lines of the Constitution checks made to keep running."""

    minute: int
    feet: int
    total_feet: int
    ran: int
    rested: int
    lines: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "minute": self.minute,
            "feet": self.feet,
            "total_feet": self.total_feet,
            "rounds_run": self.ran,
            "rounds_resting": self.rested,
            "lines": list(self.lines),
        }


def local_movement(traveller: Creature, minutes: int, pace: Pace, dice: DiceSource, *, speed_ft: int | None = None
                   ) -> tuple[Breakdown, tuple[Minute, ...]]:  # fmt: skip
    """Minute by minute at a pace (MOV-09: a round covers the speed x 1, 2 or 4; a minute is 10 rounds). Running
    lasts as many rounds as the Constitution score, then takes a Constitution check each round (DC 10, +1 per
    earlier check); a failure stops it for a minute of rest at walking speed (MOV-21). Returns the feet per round
    at the pace (a Breakdown) and the minutes."""
    if not 1 <= minutes <= 600:
        raise RuleViolation("MOV-21", "between 1 and 600 minutes")
    speed = speed_ft if speed_ft is not None else traveller.stat.speed.get("land", 0)
    if speed <= 0:
        raise RuleViolation("MOV-05", f"{traveller.name} has no land speed")
    mult = {Pace.WALK: 1, Pace.HUSTLE: 2, Pace.RUN: 4}[pace]
    per_round = explain(f"{pace} feet per round", [Term(speed, "speed", "MOV-05", B),
                        Term(speed * (mult - 1), f"{pace} (x{mult})", "MOV-09", B)])  # fmt: skip
    run = travel.RunEndurance()
    total = 0
    out: list[Minute] = []
    for m in range(1, minutes + 1):
        feet = ran = rested = 0
        lines: list[str] = []
        for _ in range(ROUNDS_PER_MINUTE):
            if pace is not Pace.RUN:
                feet += per_round.total
                continue
            n0 = run.checks
            ok, run, why = travel.keep_running(traveller, run, dice)
            if run.checks > n0 or (not ok and run.resting == travel.REST_AFTER_RUN_ROUNDS):
                lines.append(why)
            if ok:
                feet += per_round.total
                ran += 1
            else:
                feet += speed
                rested += 1
                run = travel.rest_round(run)
        total += feet
        out.append(Minute(m, feet, total, ran, rested, tuple(lines)))
    return per_round, tuple(out)


__all__ = ["Day", "Factor", "Hour", "Journey", "Minute", "Speed", "local_movement", "overland_speed", "plan_journey"]
