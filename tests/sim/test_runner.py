"""Seed streams, batches and backends: the same results whatever runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sftactics.io.scenario import load_scenario
from sftactics.sim.runner import SimJob, fight_seed, make_batches, parse_policies, simulate, simulate_results


def test_seed_streams_are_deterministic_and_distinct() -> None:
    assert fight_seed(7, 3) == fight_seed(7, 3)
    seeds = {fight_seed(7, i) for i in range(1000)} | {fight_seed(8, i) for i in range(1000)}
    assert len(seeds) == 2000
    assert all(0 <= s < 2**63 for s in seeds)


def test_batches_cover_every_run_once() -> None:
    for runs, workers in ((1, 4), (10, 1), (1000, 2), (37, 3)):
        batches = make_batches(runs, workers)
        flat = [i for a, b in batches for i in range(a, b)]
        assert flat == list(range(runs))
    assert make_batches(10, 1, batch_size=4) == [(0, 4), (4, 8), (8, 10)]


def test_job_checks_its_policies(mirror: Path) -> None:
    enc = load_scenario(mirror)
    with pytest.raises(ValueError, match="unknown policy"):
        SimJob(enc, {"*": "genius"})
    with pytest.raises(ValueError, match="no side named"):
        SimJob(enc, {"*": "simple", "nobody": "simple"})
    with pytest.raises(ValueError, match="no policy"):
        SimJob(enc, {"west": "simple"})
    assert SimJob(enc, {"*": "simple", "east": "tactical"}).policy_map() == {"west": "simple", "east": "tactical"}
    assert parse_policies("simple", ["east=tactical"]) == {"*": "simple", "east": "tactical"}
    with pytest.raises(ValueError):
        parse_policies("simple", ["east"])


def _key(summary: object) -> str:
    return json.dumps(summary.to_dict(timing=False), sort_keys=True)  # type: ignore[attr-defined]


@pytest.mark.parametrize("engine", ["full", "compiled"])
def test_same_results_whatever_the_backend_and_workers(mirror: Path, engine: str) -> None:
    """Local with 1 and 2 workers, and a local Dask cluster of 2 workers, give identical fights, whether the
    engine or the compiled kernel plays them."""
    job = SimJob(load_scenario(mirror), {"*": "tactical"}, seed=11, engine=engine)  # type: ignore[arg-type]
    one, used1, _ = simulate_results(job, 8, workers=1)
    two, used2, _ = simulate_results(job, 8, workers=2, batch_size=3)
    assert used1 == 1 and used2 == 2
    assert one == two
    pytest.importorskip("dask.distributed")
    dask, used, _ = simulate_results(job, 8, workers=2, backend="dask", batch_size=2)
    assert used == 2
    assert dask == one
    seen = []
    summary = simulate(job, 8, workers=1, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (8, 8)
    assert summary.meta["seed"] == 11 and summary.meta["policies"] == {"west": "tactical", "east": "tactical"}
    assert summary.timing["workers"] == 1 and summary.timing["fights_per_second"] > 0
    assert [f.index for f in one] == list(range(8))


def test_a_different_seed_gives_other_fights(mirror: Path) -> None:
    enc = load_scenario(mirror)
    a, _, _ = simulate_results(SimJob(enc, {"*": "simple"}, seed=1), 6, workers=1)
    b, _, _ = simulate_results(SimJob(enc, {"*": "simple"}, seed=2), 6, workers=1)
    assert a != b


def test_kernel_jobs_go_out_in_more_batches_so_that_workers_finish_together() -> None:
    from sftactics.sim.runner import KERNEL_BATCHES_PER_WORKER

    batches = make_batches(10_000, 2, largest=4096, per_worker=KERNEL_BATCHES_PER_WORKER)
    assert len(batches) >= 2 * KERNEL_BATCHES_PER_WORKER
    assert [i for a, b in batches for i in range(a, b)] == list(range(10_000))
    assert make_batches(10_000, 2) == make_batches(10_000, 2, per_worker=8)  # the engine's: as before


def test_kernel_batches_start_and_end_small_on_several_workers() -> None:
    from sftactics.sim.runner import KERNEL_FIRST_BATCH, kernel_batches

    batches = kernel_batches(10_000, 2)
    sizes = [b - a for a, b in batches]
    assert [i for a, b in batches for i in range(a, b)] == list(range(10_000))
    assert sizes[:4] == [KERNEL_FIRST_BATCH] * 2 + [2 * KERNEL_FIRST_BATCH] * 2  # shared answers arrive early
    assert sizes[-2:] == [KERNEL_FIRST_BATCH] * 2  # and the workers finish together
    assert max(sizes) == 10_000 // (2 * 32)
    assert kernel_batches(10_000, 1) == make_batches(10_000, 1, largest=4096, per_worker=32)  # one: as before
    assert kernel_batches(100, 2, batch_size=7) == make_batches(100, 2, 7)
    for runs, workers in ((1, 2), (37, 3), (200, 2), (100_000, 4)):
        assert [i for a, b in kernel_batches(runs, workers) for i in range(a, b)] == list(range(runs))


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only")
def test_kernel_workers_are_forked_from_a_process_with_the_kernel_ready(mirror: Path) -> None:
    from sftactics.sim import runner
    from sftactics.sim.kernel import run as kernel_run

    job = SimJob(load_scenario(mirror), {"*": "tactical"}, seed=11, engine="compiled")
    assert runner._mp_context(job).get_start_method() == "fork"
    # the encounter's tables are built here, before the fork, so the workers inherit them (and the loaded code)
    assert any(ready.encounter is job.encounter for ready in kernel_run._CACHE.values())
    engine = SimJob(job.encounter, {"*": "tactical"}, seed=11, engine="full")
    assert runner._mp_context(engine).get_start_method() in ("forkserver", "spawn")


def test_the_kernel_build_never_waits_silently(monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m sftactics.sim.kernel.run`` (what ``make setup`` runs) says what it does, then a line every
    few seconds while numba compiles, then that it is done."""
    import time

    from sftactics.sim.kernel import run as kernel_run

    real = kernel_run.prepare

    def slow(*args: object, **kw: object) -> None:  # a compile, as seen from the outside
        time.sleep(0.35)
        real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(kernel_run, "code_cached", lambda: False)
    monkeypatch.setattr(kernel_run, "prepare", slow)
    lines: list[str] = []
    kernel_run.build(lines.append, every=0.1)
    assert lines[0].startswith("compiling the fight kernel (numba")
    assert sum("still compiling" in line for line in lines) >= 2
    assert lines[-1].startswith("fight kernel compiled and cached")
    monkeypatch.undo()
    done = subprocess.run([sys.executable, "-m", "sftactics.sim.kernel.run"], capture_output=True, text=True,
                          check=True, timeout=1800)  # fmt: skip
    assert done.stdout.splitlines()[-1].startswith("fight kernel already compiled")
