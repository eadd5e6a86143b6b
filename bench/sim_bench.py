"""Simulation speed: full-rules fights per second per core on the standard benchmark encounter
(``sftactics.sim.benchmark``: four level-5 characters against four aliens on a 30x30 map with cover).

Run ``python bench/sim_bench.py`` (printed only; ``--quick`` to check it runs, ``--fights N`` to change the
sample, ``--workers 1,2`` for the scaling figures) or, once listed in ``bench/run.py``, ``make bench``.

Figures (milliseconds per fight, so that they fit ``bench/common.py``; the fights-per-second figures are in the
details and printed):

* ``fight_<policy>``: one fight played to its end by the full engine in this process, for each policy
  (``simple``, ``tactical``), timed fight by fight in CPU time of this process (so other work on the machine
  does not count) after a warm-up (the caches a long simulation keeps warm: parsed map, exact odds);
* ``kernel_<policy>``: fights of the policy played by the compiled kernel (``sftactics.sim.kernel``), CPU
  time per fight measured over blocks of fights (a fight is too short to time alone) after a warm-up of the
  same size as the measurement (the kernel's cover cache fills as fights visit new positions); goals 0.4 ms
  for the simple policy (2,500 fights/s/core) and 4 ms for the tactical one (250 fights/s/core).
  ``kernel_<policy>_cold`` is the first block of a fresh process (the cover cache empty, the compiled code
  loaded from numba's cache);
* ``simulate_<policy>_<k>w``: the wall-clock time per fight of ``simulate()`` with the local backend and ``k``
  worker processes (process start-up included), to show how it scales; the kernel plays (``engine="auto"``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Figure

from sftactics.sim.benchmark import benchmark_encounter
from sftactics.sim.fight import run_fight
from sftactics.sim.policies import make_policy
from sftactics.sim.runner import SimJob, fight_seed, simulate

NAME = "sim"
DESCRIPTION = "simulated fights per second per core on the standard benchmark encounter, per policy"
POLICIES = ("simple", "tactical")
GOALS_MS = {"simple": 1000 / 2500, "tactical": 1000 / 250}
FIGHTS = {"simple": 60, "tactical": 30}
WARMUP = 3


def setup() -> dict[str, object]:
    enc = benchmark_encounter()
    grid = enc.grid
    return {
        "scenario": enc.name,
        "combatants": len(enc.combatants),
        "map": f"{grid.width}x{grid.height}",
        "cpus": os.cpu_count(),
    }


_ENCOUNTER: list[Any] = []


def _benchmark() -> Any:
    """One benchmark encounter object for the kernel figures (its compiled model and caches belong to it)."""
    if not _ENCOUNTER:
        _ENCOUNTER.append(benchmark_encounter())
    return _ENCOUNTER[0]


def _kernel_blocks(blocks: int, size: int, offset: int, policy: str = "simple") -> tuple[list[float], int]:
    """CPU ms per fight of the compiled kernel, one figure per block of ``size`` fights; and the cover misses."""
    from sftactics.sim.kernel import geo
    from sftactics.sim.kernel.run import kernel_batch

    enc = _benchmark()
    out = []
    misses = geo.cover_fallback_calls()
    for b in range(blocks):
        idx = list(range(offset + b * size, offset + (b + 1) * size))
        seeds = [fight_seed(0, i) for i in idx]
        t0 = time.process_time()
        kernel_batch(enc, seeds, idx, 50, {"*": policy})
        out.append((time.process_time() - t0) * 1000 / size)
    return out, geo.cover_fallback_calls() - misses


def _fights(policy: str, n: int, offset: int = 0) -> tuple[list[float], dict[str, float]]:
    enc = benchmark_encounter()
    times: list[float] = []
    rounds = commands = wins = 0
    for i in range(offset, offset + n):
        pol = {"*": make_policy(policy)}
        t0 = time.process_time()
        result, fight = run_fight(enc, fight_seed(0, i), pol)
        times.append((time.process_time() - t0) * 1000)
        rounds += result.rounds
        commands += fight.steps
        wins += result.winner == "party"
    return times, {"rounds": rounds / n, "commands": commands / n, "party_wins": wins / n}


def run(quick: bool = False, fights: int | None = None, workers: tuple[int, ...] = (1, 2)) -> list[Figure]:
    figures: list[Figure] = []
    for policy in POLICIES:
        n = 2 if quick else (fights or FIGHTS[policy])
        _fights(policy, 1 if quick else WARMUP, offset=10_000)  # warm the caches a long simulation keeps
        times, info = _fights(policy, n)
        mean = statistics.fmean(times)
        figures.append(
            Figure.from_runs(
                f"fight_{policy}",
                f"one full fight with the {policy} policy, played by the engine in one process (CPU time)",
                times,
                None,  # the goals are the compiled kernel's (kernel_<policy>)
                {
                    "mean_ms": round(mean, 2),
                    "fights_per_second_per_core": round(1000 / mean, 2),
                    **{k: round(v, 2) for k, v in info.items()},
                },
            )
        )
    from sftactics.sim.kernel import geo
    from sftactics.sim.kernel.run import compiled, kernel_batch

    for policy in POLICIES:
        blocks, size = (2, 20) if quick else ((10, 500) if policy == "simple" else (10, 200))
        ready = compiled(_benchmark(), {"*": policy})  # the model built, the compiled code loaded; then:
        kernel_batch(ready.encounter, [1], [0], 50, {"*": policy})
        geo.cover_cache(ready.compiled.model.map_id).clear()  # an empty cache
        cold, _ = _kernel_blocks(1, size, 1_000_000, policy)  # the first block of a new process
        _kernel_blocks(blocks, size, 2_000_000, policy)  # warm-up: as many fights as are measured
        times, misses = _kernel_blocks(blocks, size, 0, policy)
        mean = statistics.fmean(times)
        figures.append(
            Figure.from_runs(
                f"kernel_{policy}",
                f"fights of the {policy} policy played by the compiled kernel, CPU ms per fight over blocks of {size}",
                times,
                GOALS_MS[policy],
                {
                    "mean_ms": round(mean, 4),
                    "fights_per_second_per_core": round(1000 / mean),
                    "goal_fights_per_second_per_core": round(1000 / GOALS_MS[policy]),
                    "fights": blocks * size,
                    "cover_cache_misses": misses,
                },
            )
        )
        figures.append(
            Figure.from_runs(
                f"kernel_{policy}_cold",
                f"the first {size} kernel fights of a fresh process (cover cache empty), CPU ms per fight",
                cold,
                None,
                {"fights_per_second_per_core": round(1000 / cold[0])},
            )
        )
    if not quick:
        job_enc = benchmark_encounter()
        for policy in POLICIES:
            n = 20_000 if policy == "simple" else 4_000
            base = None
            for k in workers:
                job = SimJob(job_enc, {"*": policy}, seed=1)  # the kernel plays (engine="auto")
                t0 = time.perf_counter()
                summary = simulate(job, n, workers=k, backend="local")
                wall = time.perf_counter() - t0
                per = 1000 * wall / n
                base = base or per
                figures.append(
                    Figure(
                        f"simulate_{policy}_{k}w",
                        f"simulate() of {n} fights, local backend, {k} worker(s), wall clock per fight",
                        1,
                        per,
                        per,
                        None,
                        {
                            "fights": n,
                            "fights_per_second": round(n / wall, 2),
                            "fights_per_second_per_worker": round(n / wall / k, 2),
                            "speedup": round(base / per, 2),
                            "party_wins": round(summary.sides[0].win.p, 3),
                            "engine": summary.meta.get("engine"),
                        },
                    )
                )
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=DESCRIPTION)
    ap.add_argument("--quick", action="store_true", help="a couple of fights: checks it runs, measures nothing")
    ap.add_argument("--fights", type=int, default=None, help="fights per policy (default 60 simple, 30 tactical)")
    ap.add_argument("--workers", default="1,2", help="worker counts for the scaling figures (default 1,2)")
    args = ap.parse_args()
    print(", ".join(f"{k} {v}" for k, v in setup().items()))
    for f in run(args.quick, args.fights, tuple(int(x) for x in args.workers.split(","))):
        goal = f" (goal {f.goal_ms:g} ms)" if f.goal_ms is not None else ""
        rate = f.details.get("fights_per_second_per_core") or f.details.get("fights_per_second_per_worker")
        print(f"{f.name:24s} median {f.median_ms:9.2f} ms  best {f.best_ms:9.2f} ms  x{f.repeats}{goal}  "
              f"=> {rate} fights/s per core  {f.details}")  # fmt: skip


if __name__ == "__main__":
    main()
