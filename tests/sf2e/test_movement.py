"""Movement, cover and flanking on the grid (sftactics.sf2e.movement): E2-50, E2-64..69."""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.grid.cover import CoverKind
from sftactics.grid.geometry import Footprint
from sftactics.grid.map import parse_map
from sftactics.grid.movement import MoveMode
from sftactics.grid.space import Body
from sftactics.sf2e.defenses import armor_class
from sftactics.sf2e.movement import (
    Cover2e,
    airborne_falls,
    check_leap,
    cover_bonus,
    cover_from_grid,
    crawl,
    drop_prone,
    flanks,
    forced_movement_triggers,
    speed_for,
    stand,
    step,
    stride,
)
from sftactics.sf2e.options import Sf2eOptions

from .make import hero

GRID = parse_map(
    """
    ........
    .~......
    ........
    """
).map


@pytest.mark.rule("E2-64")
def test_stride_moves_up_to_speed() -> None:
    h = hero()  # Speed 25
    path = stride(h, GRID, (0, 0), [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0)])
    assert path.cost_ft == 25 and path.end.anchor == (5, 0)
    with pytest.raises(RuleViolation, match="E2-64"):
        stride(h, GRID, (0, 0), [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0)])
    diagonal = stride(h, GRID, (0, 0), [(1, 1)])  # into difficult terrain: a diagonal costs 15 ft
    assert diagonal.cost_ft == 15


@pytest.mark.rule("E2-64")
def test_stride_can_trigger_reactions_but_step_cannot() -> None:
    threats = {"goblin": {(1, 0), (2, 0)}}
    path = stride(hero(), GRID, (1, 0), [(2, 0), (3, 0)], threats=threats)
    assert path.provokers() == {"goblin": 0} and len(path.provocations) == 2  # leaving each threatened square
    s = step(hero(), GRID, (1, 0), (2, 0))
    assert s.cost_ft == 5 and s.provocations == ()


@pytest.mark.rule("E2-64", "E2-66")
def test_step_is_five_feet_and_difficult_terrain_costs_double() -> None:
    with pytest.raises(RuleViolation, match="E2-64"):
        step(hero(), GRID, (0, 1), (1, 1))  # 10 ft into difficult terrain
    with pytest.raises(RuleViolation):
        step(hero(), GRID, (0, 0), (2, 0))  # not an adjacent square
    assert stride(hero(), GRID, (0, 1), [(1, 1), (2, 1)]).cost_ft == 15


@pytest.mark.rule("E2-50")
def test_prone_crawl_and_stand() -> None:
    down = drop_prone(hero())
    assert down.has("prone")
    with pytest.raises(RuleViolation, match="E2-50"):
        stride(down, GRID, (0, 0), [(1, 0)])
    with pytest.raises(RuleViolation, match="E2-50"):
        step(down, GRID, (0, 0), (1, 0))
    assert crawl(down, GRID, (0, 0), (1, 0)).cost_ft == 5
    with pytest.raises(RuleViolation, match="E2-50"):
        crawl(hero(), GRID, (0, 0), (1, 0))
    assert not stand(down).has("prone")
    with pytest.raises(RuleViolation, match="E2-50"):
        stand(hero())


@pytest.mark.rule("E2-50")
def test_leap_distances_are_options() -> None:
    check_leap(10, 0)
    check_leap(0, 3)
    with pytest.raises(RuleViolation, match="Athletics"):
        check_leap(15)
    with pytest.raises(RuleViolation, match="Athletics"):
        check_leap(0, 4)
    check_leap(15, options=Sf2eOptions(leap_horizontal_ft=15))


@pytest.mark.rule("E2-65")
def test_movement_modes() -> None:
    flier = hero(speeds={"fly": 30})
    assert speed_for(flier, MoveMode.FLY) == 30 and speed_for(flier) == 25
    with pytest.raises(RuleViolation, match="E2-65"):
        speed_for(flier, MoveMode.CLIMB)
    path = stride(flier, GRID, (0, 0), [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0)], mode=MoveMode.FLY)
    assert path.cost_ft == 30


@pytest.mark.rule("E2-65")
def test_when_a_flier_falls_is_an_option() -> None:
    assert airborne_falls(fly_speed_left_ft=0, turn_ended=False, used_fly_action=True)
    assert not airborne_falls(fly_speed_left_ft=10, turn_ended=True, used_fly_action=False)
    usual = Sf2eOptions(fly_falls_when="turn_ends_without_fly")
    assert airborne_falls(fly_speed_left_ft=10, turn_ended=True, used_fly_action=False, options=usual)
    assert not airborne_falls(fly_speed_left_ft=0, turn_ended=True, used_fly_action=True, options=usual)


@pytest.mark.rule("E2-67")
def test_forced_movement_and_reactions() -> None:
    assert not forced_movement_triggers(caused_by_attack=True, reactive_strike_like=False)
    assert forced_movement_triggers(caused_by_attack=True, reactive_strike_like=True)
    none = Sf2eOptions(forced_movement_reactive_strike=False)
    assert not forced_movement_triggers(caused_by_attack=True, reactive_strike_like=True, options=none)
    assert forced_movement_triggers(caused_by_attack=False, reactive_strike_like=False)


@pytest.mark.rule("E2-68")
def test_cover_bonuses() -> None:
    values = [(b.value if (b := cover_bonus(d)) else 0) for d in Cover2e]
    assert values == [0, 1, 2, 4]
    lesser = cover_bonus(Cover2e.LESSER)
    assert lesser is not None and lesser.describe() == "+1 circumstance lesser cover [E2-68]"
    standard = cover_bonus(Cover2e.STANDARD)
    assert standard is not None and armor_class(hero(), extra=[standard]).total == 22
    greater = cover_bonus(Cover2e.GREATER, options=Sf2eOptions(greater_cover_ac=5))
    assert greater is not None and greater.value == 5


@pytest.mark.rule("E2-68")
def test_cover_from_the_grid() -> None:
    assert cover_from_grid(CoverKind.COVER) is Cover2e.STANDARD
    assert cover_from_grid(CoverKind.PARTIAL) is Cover2e.LESSER
    assert cover_from_grid(CoverKind.SOFT) is Cover2e.LESSER
    assert cover_from_grid(CoverKind.SOFT, options=Sf2eOptions(creature_cover="standard")) is Cover2e.STANDARD
    assert cover_from_grid(CoverKind.IMPROVED) is Cover2e.GREATER
    with pytest.raises(RuleViolation, match="E2-68"):
        cover_from_grid(CoverKind.TOTAL)


@pytest.mark.rule("E2-69", "E2-57")
def test_flanking_makes_the_target_off_guard() -> None:
    me, target = Body.at((1, 1), side="pc"), Footprint(2, 1, 1)
    ally = Body.at((3, 1), side="pc")
    r = flanks(me, target, [ally], target_side="foe")
    assert r.flanked and r.partner == 0
    assert [m.describe() for m in r.off_guard] == ["-2 circumstance off-guard [E2-57]"]
    beside = Body.at((2, 2), side="pc")
    assert not flanks(me, target, [beside], target_side="foe").flanked


@pytest.mark.rule("E2-69")
def test_flankers_must_be_allies_and_by_default_threaten() -> None:
    me, target = Body.at((1, 1), side="pc"), Footprint(2, 1, 1)
    stranger = Body.at((3, 1), side="third")
    assert not flanks(me, target, [stranger], target_side="foe").flanked
    far = Body.at((5, 1), side="pc")
    assert not flanks(me, target, [far], target_side="foe").flanked
    loose = Sf2eOptions(flanking_requires_threat=False)
    assert flanks(me, target, [far], target_side="foe", options=loose).flanked
