"""Every shipped scenario simulates without a failed fight (the short version; ``make soak`` plays 1,000 fights of
each with ``scripts/sim_soak.py``).

Scenarios the compiled kernel plays get a few hundred fights per policy; the others are played by the engine at a
few fights a second, so they get a few fights each here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sftactics.io.scenario import load_scenario
from sftactics.sim.runner import SimJob, run_batch

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted([*ROOT.glob("scenarios/*.yaml"), *ROOT.glob("examples/scenarios/*.yaml")])
KERNEL_FIGHTS = 300
ENGINE_FIGHTS = 3


def test_the_shipped_scenarios_are_found() -> None:
    names = {p.name for p in SHIPPED}
    assert {"bulkhead-hunt.yaml", "firefight-cover.yaml", "derelict-ambush.yaml"} <= names


@pytest.mark.parametrize("policy", ["simple", "tactical"])
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_a_shipped_scenario_simulates_without_failure(path: Path, policy: str) -> None:
    job = SimJob(load_scenario(path), {"*": policy}, seed=20)
    runs = KERNEL_FIGHTS if job.compiled() else ENGINE_FIGHTS
    results = run_batch(job, 0, runs)
    assert len(results) == runs
    failed = [r for r in results if r.error is not None]
    assert not failed, f"fight {failed[0].index} (seed {failed[0].seed}) failed:\n{failed[0].error}"
    assert all(r.rounds >= 1 for r in results)
