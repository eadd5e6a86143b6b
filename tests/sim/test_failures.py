"""A simulation never loses its results because one fight failed; the retreat that used to fail."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from sftactics.io.scenario import load_scenario
from sftactics.sim import runner
from sftactics.sim.cli import print_summary
from sftactics.sim.runner import SimJob, run_batch
from sftactics.sim.stats import SimulationFailed, aggregate

ROOT = Path(__file__).resolve().parents[2]


def test_retreat_from_a_square_the_search_does_not_stop_on() -> None:
    """Fight 244 of melee-brawl with seed 0 once raised KeyError in the tactical policy's retreat."""
    job = SimJob(load_scenario(ROOT / "scenarios" / "melee-brawl.yaml"), seed=0, engine="full")
    (result,) = run_batch(job, 244, 245)
    assert result.error is None
    assert result.rounds >= 1


def test_a_failed_fight_is_kept_with_its_seed_and_left_out_of_the_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    job = SimJob(load_scenario(ROOT / "scenarios" / "melee-brawl.yaml"), seed=5, engine="full", max_rounds=2)
    real = runner.play_fight

    def flaky(*args: Any, **kw: Any) -> Any:
        if kw["index"] == 1:
            raise KeyError((15, 4))
        return real(*args, **kw)

    monkeypatch.setattr(runner, "play_fight", flaky)
    results = run_batch(job, 0, 3)
    assert [r.index for r in results] == [0, 1, 2]
    bad = results[1]
    assert bad.seed == runner.fight_seed(5, 1)
    assert bad.error is not None and "KeyError: (15, 4)" in bad.error
    summary = aggregate(results)
    assert summary.runs == 2
    assert [f.index for f in summary.failures] == [1]
    assert summary.to_dict(timing=False)["failures"][0]["seed"] == bad.seed
    out = io.StringIO()
    print_summary(summary, Console(file=out, width=200))
    assert "1 fight(s) failed" in out.getvalue()
    assert f"fight 1, seed {bad.seed}: KeyError: (15, 4)" in out.getvalue()


def test_every_fight_failed_is_an_error_that_names_the_first(monkeypatch: pytest.MonkeyPatch) -> None:
    job = SimJob(load_scenario(ROOT / "scenarios" / "melee-brawl.yaml"), seed=5, engine="full")

    def broken(*args: Any, **kw: Any) -> Any:
        raise RuntimeError("no")

    monkeypatch.setattr(runner, "play_fight", broken)
    expected = r"all 2 fights failed; the first \(index 0, seed \d+\): RuntimeError: no"
    with pytest.raises(SimulationFailed, match=expected):
        aggregate(run_batch(job, 0, 2))


def test_a_report_warns_when_most_fights_hit_the_round_limit() -> None:
    job = SimJob(load_scenario(ROOT / "scenarios" / "melee-brawl.yaml"), seed=1, engine="full", max_rounds=1)
    summary = aggregate(run_batch(job, 0, 2))
    assert summary.round_limited.count == 2
    out = io.StringIO()
    print_summary(summary, Console(file=out, width=200))
    assert "ended at the round limit" in out.getvalue()
