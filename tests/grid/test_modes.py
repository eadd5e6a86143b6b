"""Flying, climbing, swimming, burrowing (MOV-29..35, EX-08) and movement scales (MOV-05, MOV-07..09)."""

from fractions import Fraction

import pytest

from sftactics.grid.map import Gravity
from sftactics.grid.modes import (
    TRIP_DESCENT_FT,
    Maneuverability,
    ascent_extra_ft,
    can_run,
    climb_budget_ft,
    falls,
    fly_check_term,
    hover_rules,
    maneuverability,
    price_flight,
)
from sftactics.grid.movement import MoveMode
from sftactics.grid.options import GridOptions
from sftactics.grid.scales import Pace, feet_per_minute, feet_per_round, is_hustling, miles_per_day, miles_per_hour

N, NW = (0, -1, 0), (-1, -1, 0)
UP, DOWN = (0, 0, 1), (0, 0, -1)


@pytest.mark.rule("EX-08", "MOV-32")
def test_ex08_sixty_feet_of_flight() -> None:
    flight = price_flight([N, N, N, N, NW])
    assert flight.cost_ft == 30
    assert [leg.turn_ft for leg in flight.legs] == [0, 0, 0, 0, 5]
    climb = price_flight([UP, UP, UP], heading=flight.heading, diagonals_before=flight.diagonals)
    assert climb.cost_ft == 30 and [leg.climb_ft for leg in climb.legs] == [5, 5, 5]
    assert flight.cost_ft + climb.cost_ft == 60


@pytest.mark.rule("MOV-32")
def test_gravity_changes_the_price_of_climbing_and_turns_cost_per_45_degrees() -> None:
    assert [ascent_extra_ft(g) for g in Gravity] == [0, 0, 5, 10]
    assert price_flight([UP, UP], gravity=Gravity.ZERO).cost_ft == 10
    assert price_flight([UP, UP], gravity=Gravity.HIGH).cost_ft == 30
    assert price_flight([DOWN, DOWN]).cost_ft == 10
    assert price_flight([DOWN], options=GridOptions(flight_descent_extra_ft=5)).cost_ft == 10
    about_turn = price_flight([N, (0, 1, 0)])
    assert about_turn.legs[1].turn_ft == 20
    rising = price_flight([(0, -1, 1), (0, -1, 1)])  # forward and up at once: diagonals
    assert [leg.move_ft for leg in rising.legs] == [5, 10] and rising.cost_ft == 25
    with pytest.raises(ValueError):
        price_flight([(2, 0, 0)])


@pytest.mark.rule("MOV-31")
def test_maneuverability_modifies_fly_checks_and_defaults_to_average() -> None:
    assert maneuverability(None) is Maneuverability.AVERAGE
    assert maneuverability(None, GridOptions(default_maneuverability="clumsy")) is Maneuverability.CLUMSY
    clumsy = fly_check_term(Maneuverability.CLUMSY)
    assert clumsy is not None and clumsy.value == -8 and clumsy.rule == "MOV-31"
    assert fly_check_term(Maneuverability.PERFECT).value == 8  # type: ignore[union-attr]
    assert fly_check_term(Maneuverability.AVERAGE) is None


@pytest.mark.rule("MOV-33")
def test_what_each_maneuverability_allows_for_hovering() -> None:
    assert not hover_rules(Maneuverability.CLUMSY).can_hover
    average = hover_rules(Maneuverability.AVERAGE)
    assert average.can_hover and not average.automatic
    perfect = hover_rules(Maneuverability.PERFECT)
    assert perfect.automatic and perfect.swift_action_hover


@pytest.mark.rule("MOV-29", "MOV-30", "MOV-34")
def test_which_movement_types_allow_running_and_fast_climbing() -> None:
    assert not can_run(MoveMode.BURROW) and not can_run(MoveMode.CLIMB)
    assert can_run(MoveMode.SWIM) and can_run(MoveMode.LAND)
    assert climb_budget_ft(20) == 20 and climb_budget_ft(20, accelerated=True) == 40


@pytest.mark.rule("MOV-35")
def test_fliers_that_fall() -> None:
    assert falls(flying=True, paralyzed=True)
    assert not falls(flying=True, paralyzed=True, wings=False)
    assert not falls(flying=True, paralyzed=True, incorporeal=True)
    assert not falls(flying=False, paralyzed=True)
    assert TRIP_DESCENT_FT == 10


@pytest.mark.rule("MOV-05", "MOV-09")
def test_speed_per_round_at_each_pace() -> None:
    assert [feet_per_round(s, p) for s in (20, 30, 40) for p in Pace] == [20, 40, 80, 30, 60, 120, 40, 80, 160]


@pytest.mark.rule("MOV-07", "MOV-09")
def test_local_and_overland_scales() -> None:
    assert [feet_per_minute(30, p) for p in Pace] == [300, 600, 1200]
    assert miles_per_hour(30) == 3 and miles_per_hour(30, Pace.HUSTLE) == 6
    assert [miles_per_day(s) for s in (20, 30, 40)] == [16, 24, 32]
    assert miles_per_hour(25) == Fraction(5, 2)
    with pytest.raises(ValueError):
        miles_per_hour(30, Pace.RUN)


@pytest.mark.rule("MOV-08")
def test_when_a_creature_hustles() -> None:
    assert is_hustling(moved_speed=True, other_move_or_standard=True, moved_twice=False)
    assert is_hustling(moved_speed=False, other_move_or_standard=False, moved_twice=True)
    assert not is_hustling(moved_speed=True, other_move_or_standard=False, moved_twice=False)
