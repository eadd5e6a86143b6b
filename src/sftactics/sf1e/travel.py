"""Local and overland movement (MOV-21..28): running endurance, travel days, hustling and forced marches, terrain
and pursuit outside the grid. Distances per pace are in ``sftactics.grid.scales``.

* Running (MOV-21): a creature runs for as many rounds as its Constitution score; after that, each round a
  Constitution check (DC 10, +1 per earlier check) keeps it running; on a failure it stops and must rest a
  minute (10 rounds), moving no faster than a normal move meanwhile.
* A travel day (MOV-22) is 8 hours on foot or mount, about 10 for small-crew vehicles, 24 for vehicles with
  shifts. Walking 8 hours is free (MOV-23); more is a forced march (MOV-27): each extra hour a Constitution check
  (DC 10 + 2 per extra hour) or 1d6 nonlethal damage.
* Hustling (MOV-24): one hour is free; the second hour between sleeps deals 1 nonlethal damage, and each hour
  after that twice the previous hour's. Running overland works out as hustling (MOV-25). Nonlethal damage from
  hustling or a forced march leaves the creature fatigued until it recovers that damage (DMG-12).
* Terrain (MOV-26) multiplies overland speed by the kind of way (highway, road or trail, trackless).
* Pursuit off the grid (MOV-28): the faster creature wins; at equal speeds opposed Dexterity checks over a few
  rounds, or opposed Constitution checks over a long chase (ties go to the pursuer; §22 default for Dex: the
  higher modifier, then a re-roll).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from sftactics.core.check import CheckKind, CheckResult, resolve
from sftactics.core.errors import RuleViolation
from sftactics.dice import parse, roll
from sftactics.dice.source import DiceSource
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import injury, stats
from sftactics.sf1e.statblock import Ability
from sftactics.sf1e.state import ConditionInstance, Creature

TRAVEL_DAY_HOURS = {"foot": 8, "mount": 8, "small crew vehicle": 10, "vehicle with shifts": 24}
FREE_WALK_HOURS = 8
FREE_HUSTLE_HOURS = 1
REST_AFTER_RUN_ROUNDS = 10

Way = Literal["highway", "road", "trail", "trackless"]
#: Overland speed multipliers (MOV-26): terrain -> (highway, road or trail, trackless).
TERRAIN: dict[str, tuple[Fraction, Fraction, Fraction]] = {
    "desert": (Fraction(1), Fraction(1, 2), Fraction(1, 2)),
    "forest": (Fraction(1), Fraction(1), Fraction(1, 2)),
    "dense forest": (Fraction(1), Fraction(3, 4), Fraction(1, 4)),
    "hill": (Fraction(1), Fraction(3, 4), Fraction(1, 2)),
    "marsh": (Fraction(1), Fraction(3, 4), Fraction(1, 2)),
    "mountain": (Fraction(3, 4), Fraction(3, 4), Fraction(1, 2)),
    "plains": (Fraction(1), Fraction(1), Fraction(3, 4)),
    "urban": (Fraction(3, 4), Fraction(1, 2), Fraction(1, 2)),
}


def terrain_multiplier(terrain: str, way: Way, *, vehicle: bool = False) -> Fraction:
    """MOV-26. A trail is single file: it gives a party with vehicles no benefit, so they use the trackless
    column (§22 default)."""
    row = TERRAIN.get(terrain.lower())
    if row is None:
        raise RuleViolation("MOV-26", f"unknown terrain {terrain!r} (known: {', '.join(TERRAIN)})")
    if way == "highway":
        return row[0]
    if way == "trail" and vehicle:
        return row[2]
    return row[1] if way in ("road", "trail") else row[2]


def travel_day_hours(kind: str) -> int:
    """MOV-22: how long a day of travel is."""
    try:
        return TRAVEL_DAY_HOURS[kind]
    except KeyError:
        raise RuleViolation("MOV-22", f"unknown way of travelling {kind!r} ({', '.join(TRAVEL_DAY_HOURS)})") from None


def hustle_damage(hour: int) -> int:
    """Nonlethal damage for hustling in ``hour`` (1-based) since the last sleep (MOV-24): 0, then 1, 2, 4, 8..."""
    if hour <= FREE_HUSTLE_HOURS:
        return 0
    return int(2 ** (hour - FREE_HUSTLE_HOURS - 1))


@dataclass(frozen=True, slots=True)
class TravelResult:
    creature: Creature
    nonlethal: int
    fatigued: bool
    checks: tuple[CheckResult, ...]
    lines: tuple[str, ...]


def _hurt(creature: Creature, amount: int, why: str, rule: str) -> tuple[Creature, list[str], bool]:
    """Nonlethal damage from travel, and the fatigue that comes with it (DMG-12)."""
    if amount <= 0:
        return creature, [], False
    res = injury.apply_damage(creature, amount, nonlethal=True)
    c = res.creature
    lines = [f"{why}: {amount} nonlethal damage [{rule}]", *res.lines]
    if not c.has("dead"):
        if not (c.has("fatigued") or c.has("exhausted")):  # more travel damage does not make it exhausted
            c = cond.add_condition(c, ConditionInstance(name="fatigued", source="travel"))
        c = c.with_state(nonlethal_fatigue=True)
        lines.append(f"{c.name} is fatigued until it recovers that damage [DMG-12]")
    return c, lines, True


def hustle(creature: Creature, hour: int) -> TravelResult:
    """The ``hour``-th hour of hustling since the last sleep (MOV-24)."""
    c, lines, tired = _hurt(creature, hustle_damage(hour), f"hustling for a {hour}th hour", "MOV-24")
    if not lines:
        lines = [f"hustling for hour {hour}: no harm (the first hour is free) [MOV-24]"]
    return TravelResult(c, hustle_damage(hour), tired, (), tuple(lines))


def forced_march_dc(extra_hour: int) -> int:
    """MOV-27: DC 10 + 2 per hour beyond eight (the 9th hour is DC 12)."""
    return 10 + 2 * extra_hour


def forced_march(creature: Creature, hour: int, dice: DiceSource) -> TravelResult:
    """The ``hour``-th hour of walking in a day (MOV-23, MOV-27): beyond 8, a Con check or 1d6 nonlethal."""
    if hour <= FREE_WALK_HOURS:
        return TravelResult(creature, 0, False, (), (f"walking hour {hour}: no harm [MOV-23]",))
    dc = forced_march_dc(hour - FREE_WALK_HOURS)
    check = resolve(CheckKind.ABILITY, stats.ability_check_bonus(creature, "con"), dc, dice,
                    purpose=f"{creature.name} forced march hour {hour}")  # fmt: skip
    lines = [f"forced march, hour {hour}: Constitution check {check.describe()} [MOV-27]"]
    if check.success:
        return TravelResult(creature, 0, False, (check,), tuple(lines))
    dmg = roll(parse("1d6"), dice, f"{creature.name} forced march damage").total
    c, more, tired = _hurt(creature, dmg, "the forced march", "MOV-27")
    return TravelResult(c, dmg, tired, (check,), tuple(lines + more))


@dataclass(frozen=True, slots=True)
class RunEndurance:
    """How long a creature has run (MOV-21): rounds run, Con checks made, resting rounds left."""

    rounds: int = 0
    checks: int = 0
    resting: int = 0


def keep_running(creature: Creature, run: RunEndurance, dice: DiceSource) -> tuple[bool, RunEndurance, str]:
    """Can it run this round? (MOV-21) Free for Con-score rounds; then a Con check DC 10 + 1 per earlier check;
    a failure stops it for a minute of rest."""
    if run.resting > 0:
        return False, run, f"{creature.name} is resting after running ({run.resting} rounds left) [MOV-21]"
    score = stats.ability_score(creature, "con")
    if score is None or run.rounds < score:
        return True, RunEndurance(run.rounds + 1, run.checks, 0), f"{creature.name} runs (round {run.rounds + 1})"
    dc = 10 + run.checks
    check = resolve(CheckKind.ABILITY, stats.ability_check_bonus(creature, "con"), dc, dice,
                    purpose=f"{creature.name} keeps running")  # fmt: skip
    if check.success:
        return True, RunEndurance(run.rounds + 1, run.checks + 1, 0), f"keeps running: {check.describe()} [MOV-21]"
    return False, RunEndurance(0, 0, REST_AFTER_RUN_ROUNDS), f"must stop and rest a minute: {check.describe()} [MOV-21]"


def rest_round(run: RunEndurance) -> RunEndurance:
    return RunEndurance(run.rounds, run.checks, max(0, run.resting - 1))


@dataclass(frozen=True, slots=True)
class Pursuit:
    escaped: bool
    how: str
    checks: tuple[CheckResult, ...] = ()


def pursuit(
    quarry: Creature, pursuer: Creature, dice: DiceSource, *, quarry_speed: int, pursuer_speed: int,
    long_chase: bool = False,
) -> Pursuit:  # fmt: skip
    """Evasion and pursuit off the grid (MOV-28): the faster wins; at equal speed opposed Dexterity checks (short)
    or Constitution checks (long chase; ties favour the pursuer)."""
    if quarry_speed != pursuer_speed:
        ok = quarry_speed > pursuer_speed
        return Pursuit(ok, "the faster one " + ("gets away" if ok else "catches up") + " [MOV-28]")
    ability: Ability = "con" if long_chase else "dex"
    checks: list[CheckResult] = []
    for _ in range(20):
        qb = stats.ability_check_bonus(quarry, ability)
        pb = stats.ability_check_bonus(pursuer, ability)
        q = resolve(CheckKind.ABILITY, qb, 0, dice, purpose=f"{quarry.name} flees")
        p = resolve(CheckKind.ABILITY, pb, 0, dice, purpose=f"{pursuer.name} pursues")
        checks += [q, p]
        if q.total != p.total:
            return Pursuit(
                q.total > p.total, f"opposed {ability} checks {q.total} vs {p.total} [MOV-28]", tuple(checks)
            )
        if long_chase:
            return Pursuit(False, f"opposed Con checks tie at {q.total}: the pursuer wins [MOV-28]", tuple(checks))
        if qb.total != pb.total:
            return Pursuit(qb.total > pb.total, f"tie at {q.total}: the higher modifier wins [MOV-28]", tuple(checks))
    return Pursuit(False, "still tied after repeated checks: the pursuer wins", tuple(checks))
