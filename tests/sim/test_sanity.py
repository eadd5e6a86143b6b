"""Checks of sanity: the simulator's win rates move the right way.

Small samples with fixed seeds (so the tests are deterministic) and generous but meaningful bounds, using the
Wilson 95% intervals the reports show.
"""

from __future__ import annotations

from pathlib import Path

from sftactics.io.scenario import load_scenario
from sftactics.sim.benchmark import benchmark_encounter
from sftactics.sim.runner import SimJob, simulate
from sftactics.sim.sweep import sweep


def test_identical_sides_win_about_half_the_time(mirror: Path) -> None:
    enc = load_scenario(mirror)
    for policy, runs in (("simple", 160), ("tactical", 60)):
        s = simulate(SimJob(enc, {"*": policy}, seed=2024), runs, workers=2)
        west, east = s.side("west").win, s.side("east").win
        assert s.draws.p < 0.1
        for side in (west, east):
            lo, hi = side.ci
            decided = 1 - s.draws.p
            assert lo <= decided / 2 <= hi, (policy, side.describe())


def test_more_enemies_lower_win_rate(skirmish: Path) -> None:
    rows = sweep(skirmish, ["enemy_count=1,2,4"], 40, seed=5, policies={"*": "simple"}, workers=2)
    wins = [r.summary.side("party").win for r in rows]
    assert [r.variation.label["enemy_count"] for r in rows] == ["1", "2", "4"]
    assert wins[0].p >= wins[1].p >= wins[2].p
    assert wins[0].ci[0] > wins[2].ci[1]  # clearly apart
    ko = [r.summary.side("party").any_knocked_out.p for r in rows]
    assert ko[0] <= ko[1] <= ko[2]
    tactical = sweep(skirmish, ["enemy_count=1,3"], 16, seed=5, policies={"*": "tactical"}, workers=2)
    assert tactical[0].summary.side("party").win.p > tactical[1].summary.side("party").win.p


def test_a_level_appropriate_fight_is_winnable() -> None:
    enc = benchmark_encounter()
    for policy, runs in (("simple", 12), ("tactical", 8)):
        s = simulate(SimJob(enc, {"*": policy}, seed=99), runs, workers=2)
        assert s.side("party").win.ci[0] > 0.5, (policy, s.side("party").win.describe())


def test_an_impossible_fight_is_lost(hopeless: Path) -> None:
    enc = load_scenario(hopeless)
    for policy, runs in (("simple", 30), ("tactical", 16)):
        s = simulate(SimJob(enc, {"*": policy}, seed=7), runs, workers=2)
        assert s.side("party").win.ci[1] < 0.25, (policy, s.side("party").win.describe())
        assert s.side("party").any_knocked_out.p > 0.5 or s.side("party").conceded.p > 0.5
