"""Journeys day by day (sf1e/journey.py) and `sftactics travel`: miles per hour by terrain and way, hustling and
forced marches with their Constitution checks and nonlethal damage, with scripted dice and exact numbers."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from sftactics.cli import app
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.sf1e import travel
from sftactics.sf1e.journey import overland_speed, plan_journey
from tests.builders import pc

runner = CliRunner()


@pytest.mark.rule("MOV-09", "MOV-22", "MOV-23", "MOV-26")
def test_a_day_walking_on_a_plains_road() -> None:
    j = plan_journey(pc(), ScriptedDice([]), terrain="plains", way="road", days=1)
    assert j.speed.mph == 3 and [f.rule for f in j.speed.factors] == ["MOV-09", "MOV-26"]
    day = j.days[0]
    assert (len(day.hours), day.miles, day.nonlethal, day.fatigued) == (8, 24, 0, False)
    assert all(h.check is None for h in day.hours)


@pytest.mark.rule("MOV-24", "MOV-27", "MOV-26", "DMG-12")
def test_hustle_and_forced_march_hour_by_hour() -> None:
    # Con +1; forced march hour 9: 11 + 1 = 12 vs DC 12 passes; hour 10: 5 + 1 = 6 vs DC 14 fails, 1d6 = 4
    j = plan_journey(pc(), ScriptedDice([11, 5, 4]), terrain="hill", way="trackless", hours_per_day=10,
                     hustle_hours=3, days=1)  # fmt: skip
    hours = j.days[0].hours
    assert j.hustle_speed is not None and j.hustle_speed.mph == 3 and j.speed.mph == Fraction(3, 2)
    assert [h.pace for h in hours] == ["hustle"] * 3 + ["walk"] * 7
    assert [h.nonlethal for h in hours] == [0, 1, 2, 0, 0, 0, 0, 0, 0, 4]
    assert hours[2].damage is not None and hours[2].damage.total == 2
    assert [h.dc.total if h.dc else None for h in hours][7:] == [None, 12, 14]
    assert hours[9].dc is not None and [t.rule for t in hours[9].dc.applied] == ["MOV-27", "MOV-27"]
    assert hours[8].check is not None and hours[8].check.success and not hours[9].check.success  # type: ignore[union-attr]
    day = j.days[0]
    assert (day.miles, day.nonlethal, day.fatigued) == (Fraction(39, 2), 7, True)


@pytest.mark.rule("MOV-24", "DMG-12")
def test_more_hustling_damage_keeps_a_traveller_fatigued_not_exhausted() -> None:
    c = travel.hustle(pc(), 2).creature
    c = travel.hustle(c, 3).creature
    assert c.has("fatigued") and not c.has("exhausted")


@pytest.mark.rule("MOV-22", "MOV-26")
def test_a_vehicle_journey_to_a_distance() -> None:
    j = plan_journey(
        None, ScriptedDice([]), terrain="desert", way="trail", vehicle_mph=22, distance_miles=Fraction(300)
    )
    assert j.speed.mph == 11  # a trail counts as trackless for vehicles: x 1/2
    assert [d.miles for d in j.days] == [110, 110, 80] and j.arrived
    assert len(j.days[2].hours) == 8 and j.days[2].hours[-1].miles == 3
    shifts = plan_journey(None, ScriptedDice([]), terrain="plains", way="highway", vehicle_mph=22, days=1,
                          vehicle_day="vehicle with shifts")  # fmt: skip
    assert shifts.days[0].miles == 22 * 24


def test_refusals() -> None:
    with pytest.raises(RuleViolation):
        plan_journey(pc(), ScriptedDice([]))
    with pytest.raises(RuleViolation):
        plan_journey(None, ScriptedDice([]), vehicle_mph=22, hustle_hours=1, days=1)
    with pytest.raises(RuleViolation):
        overland_speed(30, "lava", "road")


def test_travel_cli_table_and_json() -> None:
    r = runner.invoke(app, ["travel", "--speed", "30", "--terrain", "forest", "--way", "trackless", "--days", "2",
                            "--brief"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "1.5 mph = speed 30 ft / 10: 3 [MOV-09] x forest, trackless: 0.5 [MOV-26]" in r.output
    r2 = runner.invoke(app, ["travel", "pregen-soldier-2", "--hustle", "2", "--days", "1", "--dice", "10", "--json",
                             "--hours", "9"])  # fmt: skip
    assert r2.exit_code == 0, r2.output
    data = json.loads(r2.output)
    hours = data["days"][0]["hours"]
    assert [h["nonlethal"] for h in hours[:2]] == [0, 1]
    assert hours[8]["dc"]["total"] == 12 and hours[8]["check"]["natural"] == 10
    r3 = runner.invoke(app, ["travel", "--vehicle", "hovertrike", "--miles", "50", "--terrain", "urban"])
    assert r3.exit_code == 0 and "arrived: 50 of 50 miles" in r3.output


@pytest.mark.rule("MOV-09", "MOV-21")
def test_running_minute_by_minute_then_resting() -> None:
    from sftactics.grid.scales import Pace
    from sftactics.sf1e.journey import local_movement

    # Con 12: 12 rounds free; round 13: 15 + 1 = 16 vs DC 10 keeps running; round 14: 2 + 1 = 3 vs DC 11 stops:
    # 10 rounds of rest at the speed (30 ft), rounds 14 to 23, then it runs again
    per_round, mins = local_movement(pc(), 3, Pace.RUN, ScriptedDice([15, 2]))
    assert per_round.total == 120 and [t.rule for t in per_round.applied] == ["MOV-05", "MOV-09"]
    assert [(m.ran, m.rested, m.feet) for m in mins] == [(10, 0, 1200), (3, 7, 570), (7, 3, 930)]
    assert mins[1].lines[0].startswith("keeps running: d20 15 +1 = 16 vs 10")
    walk = local_movement(pc(), 1, Pace.HUSTLE, ScriptedDice([]))
    assert walk[1][0].feet == 600  # MOV-09: 30 ft hustling, a minute: 600 ft


def test_travel_cli_local_movement() -> None:
    r = runner.invoke(app, ["travel", "pregen-soldier-2", "--minutes", "2", "--pace", "run", "--dice", "15,2",
                            "--json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["feet_per_round"]["total"] == 120
    assert [m["rounds_run"] for m in data["minutes"]] == [10, 5]
