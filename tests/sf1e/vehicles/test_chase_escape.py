"""CHS-20: one chase-progress step settles both the vehicles that escape and those left behind."""

import pytest

from sftactics.dice.source import ScriptedDice
from sftactics.sf1e.vehicles.chase import PilotAction, Progress, step
from sftactics.sf1e.vehicles.options import VehicleOptions
from tests.sf1e.vehicles.chase_helpers import buggy, chase_of, entry
from tests.sf1e.vehicles.helpers import foundry_stat, stat


@pytest.mark.rule("CHS-20", "CHS-23", "EX-17")
def test_escape_and_left_behind_in_the_same_step() -> None:
    """The EX-17 chase: the buggy ends in zone 3, the cruiser in zone 1. The buggy is two zones ahead of its only
    adversary (it escapes) and the cruiser is two zones behind its nearest adversary (it is left behind)."""
    cruiser = stat(foundry_stat("hovertrike"), name="police cruiser")
    c = chase_of(buggy(zone=1), entry("cruiser", "police", 0, stat=cruiser))
    dice = ScriptedDice([15, 10])
    s = step(c, PilotAction("buggy", "speed_up"), dice)
    s = step(s.chase, PilotAction("cruiser", "speed_up"), dice)
    p = step(s.chase, Progress(), ScriptedDice([]))
    assert p.chase.zones() == {"buggy": 3, "cruiser": 1}
    assert p.chase.get("buggy").status == "escaped"
    assert p.chase.get("cruiser").status == "left_behind"
    assert p.chase.over
    assert sum("[CHS-20]" in line for line in p.lines) == 2


@pytest.mark.rule("CHS-20")
def test_settled_together_whatever_the_order() -> None:
    """Two sides, three vehicles: x1 is two zones ahead of y (escapes), x2 two zones behind y (left behind); y
    has an adversary on each side and stays. Listing the vehicles in another order changes nothing."""
    for order in (("x1", "y", "x2"), ("x2", "y", "x1"), ("y", "x2", "x1")):
        vs = {"x1": entry("x1", "X", 4), "y": entry("y", "Y", 2), "x2": entry("x2", "X", 0)}
        c = chase_of(*(vs[v] for v in order), phase="chase_progress")
        p = step(c, Progress(), ScriptedDice([]))
        status = {v.id: v.status for v in p.chase.vehicles}
        assert status == {"x1": "escaped", "y": "in", "x2": "left_behind"}, order
        assert p.chase.over  # only Y remains


@pytest.mark.rule("CHS-20", "CHS-21")
def test_declining_escape_is_settled_before_the_others() -> None:
    """x declines its escape and drops back to one zone ahead of y (zone 3); y, which would have been left behind
    two zones behind x, is now only one zone behind and stays in the chase."""
    c = chase_of(entry("x", "X", 4), entry("y", "Y", 2), phase="chase_progress")
    p = step(c, Progress(decline_escape=frozenset({"x"})), ScriptedDice([]))
    assert p.chase.zones() == {"x": 3, "y": 2}
    assert {v.status for v in p.chase.vehicles} == {"in"} and not p.chase.over
    # the option: escaping at three zones
    c3 = chase_of(entry("x", "X", 4), entry("y", "Y", 2), phase="chase_progress")
    p3 = step(c3, Progress(), ScriptedDice([]), VehicleOptions(escape_zones=3))
    assert {v.status for v in p3.chase.vehicles} == {"in"}
