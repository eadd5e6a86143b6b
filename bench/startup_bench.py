"""Start-up of the compiled fight kernel: the first use after an install, and how ``simulate`` scales with workers.

Every figure is taken in fresh processes (``python bench/startup_bench.py`` prints them; ``make bench`` records
them), so that neither side of a comparison profits from code or caches another run left in memory.

* ``kernel_compile_cold``: compiling the kernel with nothing in numba's disk cache, as the first use after an
  install or an edit does (``python -m sftactics.sim.kernel.run``, what ``make setup`` runs), wall clock; goal
  60 s. The package is copied to a temporary folder for it, so the checkout's own cache is left alone (the kernel
  keeps its compiled code next to its sources). Details: the CPU seconds, and the load on the machine.
* ``kernel_ready_warm``: the same command once the code is cached: starting Python, importing, building the
  benchmark encounter and loading the compiled code.
* ``simulate_tactical_<k>w``: ``simulate()`` of 10,000 fights of the benchmark encounter with the tactical
  policy (the compiled kernel plays) and ``k`` local workers, wall clock of the call in a fresh process (the
  imports and the encounter built before the clock starts; the kernel's tables, code loading, worker start-up,
  cold caches and the results all inside it). ``speedup`` is 1 worker's time over k workers'; goal 1.8 for two.
  The machine is shared, so the wall clocks also measure other people's jobs: the details give the CPU
  seconds of each part (``cpu_before_fork``: the calling process making the kernel ready; ``cpu_per_worker``;
  ``cpu_in_simulate_parent``: all of the calling process's) and ``cpu_speedup``, the same ratio taken on
  ``cpu_path_seconds``: the calling process's CPU seconds plus the busiest worker's, what the run would take
  on an idle machine (counting all of the caller's work as if it ran alone, so a little pessimistic).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Figure

NAME = "startup"
DESCRIPTION = "first use of the compiled kernel (compiling it) and simulate() with 1 and 2 workers, fresh processes"
COMPILE_GOAL_MS = 60_000.0
SPEEDUP_GOAL = 1.8
FIGHTS = 10_000
HERE = Path(__file__).resolve()


def setup() -> dict[str, object]:
    return {"fights": FIGHTS, "policy": "tactical", "cpus": os.cpu_count(), "load": round(os.getloadavg()[0], 2)}


def _package_dir() -> Path:
    import sftactics

    return Path(sftactics.__file__).resolve().parent


def _run(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Wall and CPU seconds of a child process, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def compile_cold() -> Figure:
    """Compile the kernel from nothing in a copy of the package."""
    with tempfile.TemporaryDirectory(prefix="sftactics-cold-") as tmp:
        shutil.copytree(_package_dir(), Path(tmp) / "sftactics", ignore=shutil.ignore_patterns("__pycache__"))
        env = {**os.environ, "PYTHONPATH": tmp + os.pathsep + os.environ.get("PYTHONPATH", "")}
        load = os.getloadavg()[0]
        wall, cpu, out = _run([sys.executable, "-m", "sftactics.sim.kernel.run"], env)
        ticks = sum(1 for line in out.splitlines() if "still compiling" in line)
    return Figure.from_runs(
        "kernel_compile_cold",
        "first use: the kernel compiled with numba's cache empty (python -m sftactics.sim.kernel.run), wall clock",
        [wall * 1000],
        COMPILE_GOAL_MS,
        {"cpu_seconds": round(cpu, 1), "load_before": round(load, 2), "progress_lines": ticks + 2},
    )


def ready_warm(repeats: int) -> Figure:
    cmd = [sys.executable, "-m", "sftactics.sim.kernel.run"]
    _run(cmd)  # compiles if the checkout's cache is stale, so that the runs below load it
    times = [_run(cmd)[0] * 1000 for _ in range(repeats)]
    return Figure.from_runs(
        "kernel_ready_warm",
        "the same with the compiled code cached: Python start, imports, encounter, code loaded (wall clock)",
        times,
    )


def _simulate_child(workers: int, fights: int) -> None:
    from sftactics.sim.benchmark import benchmark_encounter
    from sftactics.sim.kernel import pool
    from sftactics.sim.kernel import run as kernel_run
    from sftactics.sim.runner import SimJob, simulate

    job = SimJob(benchmark_encounter(), {"*": "tactical"}, seed=1)
    ready = [0.0]
    real_prepare = kernel_run.prepare

    def prepare(*args: Any, **kw: Any) -> None:  # the serial part before the workers are forked
        c = time.process_time()
        real_prepare(*args, **kw)
        ready[0] += time.process_time() - c

    kernel_run.prepare = prepare  # type: ignore[assignment]
    t0, c0 = time.perf_counter(), time.process_time()
    summary = simulate(job, fights, workers=workers, backend="local")
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(json.dumps({"wall": wall, "cpu": cpu, "engine": summary.meta.get("engine"), "prepare_cpu": ready[0],
                      "worker_cpu": pool.LAST_WORKER_CPU if workers > 1 else [],
                      "party_wins": summary.sides[0].win.p}))  # fmt: skip


def simulate_figures(fights: int, repeats: int, workers: tuple[int, ...] = (1, 2)) -> list[Figure]:
    walls: dict[int, list[float]] = {k: [] for k in workers}
    cpus: dict[int, list[float]] = {k: [] for k in workers}
    paths: dict[int, list[float]] = {k: [] for k in workers}
    info: dict[int, dict[str, Any]] = {}
    loads: list[float] = []
    for _ in range(repeats):  # interleaved, so that a slow spell of the machine hits both
        for k in workers:
            loads.append(os.getloadavg()[0])
            _, cpu, out = _run([sys.executable, str(HERE), "--child", str(k), str(fights)])
            data = json.loads(out.strip().splitlines()[-1])
            walls[k].append(data["wall"] * 1000)
            cpus[k].append(cpu)
            # the time on an idle machine, from CPU seconds: the caller's (the serial start, turning the
            # numbers into results, the report) plus the busiest worker's (none with one worker)
            paths[k].append(data["cpu"] + max(data["worker_cpu"], default=0.0))
            info[k] = data
    one = statistics.median(walls[workers[0]])
    one_cpu = statistics.median(paths[workers[0]])
    figures = []
    for k in workers:
        med = statistics.median(walls[k])
        path = statistics.median(paths[k])
        details: dict[str, Any] = {
            "fights": fights,
            "fights_per_second": round(fights / med * 1000, 1),
            "speedup": round(one / med, 3),
            "best_speedup": round(min(walls[workers[0]]) / min(walls[k]), 3),
            "engine": info[k]["engine"],
            "party_wins": round(info[k]["party_wins"], 3),
            "load_average": round(statistics.fmean(loads), 2),
            # every process of the run (imports included): on a loaded machine the wall clock says little,
            # the CPU seconds say what the workers cost beyond the fights themselves
            "cpu_seconds": round(statistics.median(cpus[k]), 1),
            "cpu_in_simulate_parent": round(info[k]["cpu"], 1),
            "cpu_before_fork": round(info[k]["prepare_cpu"], 2),
            "cpu_per_worker": [round(c, 1) for c in info[k]["worker_cpu"]],
            "cpu_path_seconds": round(path, 1),
            "cpu_speedup": round(one_cpu / path, 3),
        }
        if k == 2:
            details["goal_speedup"] = SPEEDUP_GOAL
        figures.append(
            Figure.from_runs(
                f"simulate_tactical_{k}w",
                f"simulate() of {fights} tactical fights, {k} local worker(s), fresh process, wall clock",
                walls[k],
                None,
                details,
            )
        )
    return figures


def run(quick: bool = False) -> list[Figure]:
    if quick:
        return [ready_warm(1), *simulate_figures(500, 1)]
    return [compile_cold(), ready_warm(3), *simulate_figures(FIGHTS, 2)]


def main() -> None:
    ap = argparse.ArgumentParser(description=DESCRIPTION)
    ap.add_argument("--quick", action="store_true", help="no cold compile, 500 fights: checks it runs")
    ap.add_argument("--child", nargs=2, type=int, metavar=("WORKERS", "FIGHTS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _simulate_child(*args.child)
        return
    print(", ".join(f"{k} {v}" for k, v in setup().items()))
    for f in run(args.quick):
        goal = f" (goal {f.goal_ms:g} ms)" if f.goal_ms is not None else ""
        print(f"{f.name:24s} median {f.median_ms:10.1f} ms  best {f.best_ms:10.1f} ms  x{f.repeats}{goal}  {f.details}")


if __name__ == "__main__":
    main()
