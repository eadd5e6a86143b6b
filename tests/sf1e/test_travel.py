from fractions import Fraction

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.grid import scales
from sftactics.sf1e import travel
from tests.builders import pc


@pytest.mark.rule("MOV-22", "MOV-23")
def test_travel_days() -> None:
    assert travel.travel_day_hours("foot") == 8
    assert travel.travel_day_hours("small crew vehicle") == 10
    assert travel.travel_day_hours("vehicle with shifts") == 24
    assert scales.miles_per_day(30) == 24
    with pytest.raises(RuleViolation):
        travel.travel_day_hours("teleport")


@pytest.mark.rule("MOV-24", "DMG-12", "CON-17")
def test_hustling_damage_doubles_each_hour_and_fatigues() -> None:
    assert [travel.hustle_damage(h) for h in range(1, 6)] == [0, 1, 2, 4, 8]
    c = pc()
    first = travel.hustle(c, 1)
    assert first.nonlethal == 0 and not first.fatigued
    second = travel.hustle(c, 2)
    assert second.creature.state.sp == 27 and second.creature.has("fatigued") and second.fatigued
    assert second.creature.state.nonlethal_fatigue


@pytest.mark.rule("MOV-25")
def test_running_is_not_an_overland_pace() -> None:
    with pytest.raises(ValueError):
        scales.miles_per_hour(30, scales.Pace.RUN)
    assert scales.miles_per_hour(30, scales.Pace.HUSTLE) == 6


@pytest.mark.rule("MOV-26")
def test_terrain_multipliers() -> None:
    assert travel.terrain_multiplier("dense forest", "trackless") == Fraction(1, 4)
    assert travel.terrain_multiplier("mountain", "highway") == Fraction(3, 4)
    assert travel.terrain_multiplier("plains", "road") == 1
    assert travel.terrain_multiplier("forest", "trail") == 1
    assert travel.terrain_multiplier("forest", "trail", vehicle=True) == Fraction(1, 2)
    with pytest.raises(RuleViolation):
        travel.terrain_multiplier("swamp of doom", "road")


@pytest.mark.rule("MOV-27")
def test_forced_march_con_check_each_extra_hour() -> None:
    assert [travel.forced_march_dc(h) for h in (1, 2, 3)] == [12, 14, 16]
    c = pc()  # Con +1
    assert travel.forced_march(c, 8, ScriptedDice([])).nonlethal == 0
    ok = travel.forced_march(c, 9, ScriptedDice([11]))  # 11 + 1 = 12 vs DC 12
    assert ok.nonlethal == 0 and not ok.fatigued
    bad = travel.forced_march(c, 10, ScriptedDice([12, 4]))  # 13 vs DC 14: 1d6 = 4 nonlethal
    assert bad.nonlethal == 4 and bad.creature.state.sp == 24 and bad.creature.has("fatigued")


@pytest.mark.rule("MOV-21")
def test_running_for_con_score_rounds_then_checks() -> None:
    c = pc()  # Con 12
    run = travel.RunEndurance(rounds=12)
    ok, run2, _ = travel.keep_running(c, run, ScriptedDice([9]))  # 9 + 1 = 10 vs DC 10
    assert ok and run2.checks == 1
    stop, run3, why = travel.keep_running(c, run2, ScriptedDice([9]))  # 10 vs DC 11: stop
    assert not stop and run3.resting == 10 and "rest a minute" in why
    again, _, _ = travel.keep_running(c, run3, ScriptedDice([]))
    assert not again
    fresh, r, _ = travel.keep_running(c, travel.RunEndurance(), ScriptedDice([]))
    assert fresh and r.rounds == 1


@pytest.mark.rule("MOV-28")
def test_pursuit() -> None:
    a, b = pc(name="A"), pc(name="B")
    assert travel.pursuit(a, b, ScriptedDice([]), quarry_speed=40, pursuer_speed=30).escaped
    assert not travel.pursuit(a, b, ScriptedDice([]), quarry_speed=30, pursuer_speed=40).escaped
    assert travel.pursuit(a, b, ScriptedDice([15, 10]), quarry_speed=30, pursuer_speed=30).escaped
    tie = travel.pursuit(a, b, ScriptedDice([10, 10]), quarry_speed=30, pursuer_speed=30, long_chase=True)
    assert not tie.escaped and "pursuer wins" in tie.how
