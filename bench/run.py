"""Run the benchmarks and record the figures: ``make bench`` (or ``python bench/run.py [--quick] [NAME...]``).

Writes ``bench/results.json``: when, the machine, the Python, the git commit, and for each benchmark its setup
and figures (median, best, mean, IQR and standard deviation over the repeats, in milliseconds, the goal where
there is one, and ``ratio_to_numpy``: the median over the raw numpy baseline of the same run); draws the scaling
curves to ``bench/scaling.png``; prints a short table. ``check.py`` compares a run with ``baseline.json``.
Not part of ``make test``: timings depend on the machine and its load.

A benchmark is a module in this folder with ``NAME``, ``DESCRIPTION``, ``setup() -> dict`` and
``run(quick) -> list[Figure]`` (see ``common.py``); add it to ``BENCHMARKS``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import core_bench  # noqa: E402
import grid_bench  # noqa: E402
import reach_bench  # noqa: E402
import scaling_bench  # noqa: E402
import startup_bench  # noqa: E402
import table_bench  # noqa: E402
from common import Figure  # noqa: E402

try:  # the simulation benchmark belongs to the simulation engine; it may not exist yet
    import sim_bench

    SIM_ERROR: str | None = None
except ImportError as e:  # pragma: no cover - depends on the checkout
    sim_bench = None  # type: ignore[assignment]
    SIM_ERROR = f"not available: {e}"

BENCHMARKS: dict[str, ModuleType] = {
    m.NAME: m
    for m in (core_bench, grid_bench, scaling_bench, sim_bench, startup_bench, table_bench, reach_bench)
    if m is not None
}
#: The reference every figure is divided by (same run): raw numpy d20s, so a slower or faster machine cancels out.
REFERENCE = ("core", "numpy_baseline")
SIM_FIGHTS = 20  # fights per policy in bench/sim_bench.py (its own default: 60 simple, 30 tactical)


def _git(*args: str) -> subprocess.CompletedProcess[str] | None:
    """A read-only git query (no optional locks, nothing written to the repository)."""
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}
    try:
        return subprocess.run(["git", *args], cwd=HERE, capture_output=True, text=True, env=env, check=False)
    except OSError:
        return None


def git_info() -> dict[str, Any]:
    head = _git("rev-parse", "HEAD")
    if head is None or head.returncode != 0:
        return {"commit": None, "dirty": None}
    diff = _git("diff-index", "--quiet", "HEAD", "--")  # plumbing: compares without refreshing the index
    dirty = None if diff is None else diff.returncode != 0
    return {"commit": head.stdout.strip(), "dirty": dirty}


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def machine_info() -> dict[str, Any]:
    return {
        "system": platform.system(),
        "release": platform.release(),
        "machine": platform.machine(),
        "cpu": _cpu_model(),
        "cpus": os.cpu_count(),
    }


def python_info() -> dict[str, Any]:
    return {
        "version": platform.python_version(),
        "implementation": platform.python_implementation(),
        "compiler": platform.python_compiler(),
    }


def table(results: dict[str, list[Figure]], reference: float | None = None) -> str:
    rows = [("benchmark", "figure", "median ms", "best ms", "IQR ms", "runs", "x numpy", "goal ms", "goal?")]
    for bench, figures in results.items():
        for f in figures:
            verdict = {None: "", True: "ok", False: "OVER"}[f.within_goal]
            goal = "" if f.goal_ms is None else f"{f.goal_ms:g}"
            iqr = "" if f.iqr_ms is None else f"{f.iqr_ms:.2f}"
            ratio = "" if not reference else f"{f.median_ms / reference:.3g}"
            rows.append((bench, f.name, f"{f.median_ms:.2f}", f"{f.best_ms:.2f}", iqr, str(f.repeats), ratio, goal,
                         verdict))  # fmt: skip
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for n, r in enumerate(rows):
        cells = [c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("names", nargs="*", help=f"benchmarks to run (default: all: {', '.join(BENCHMARKS)})")
    parser.add_argument("--quick", action="store_true", help="a few repeats only (a smoke test, not a measurement)")
    parser.add_argument("--output", type=Path, default=HERE / "results.json", help="where to write the JSON")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}")
    chosen = args.names or list(BENCHMARKS)
    results: dict[str, list[Figure]] = {}
    report: dict[str, Any] = {
        "when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": machine_info(),
        "python": python_info(),
        "git": git_info(),
        "quick": args.quick,
        "benchmarks": {},
    }
    if REFERENCE[0] not in chosen:
        chosen.insert(0, REFERENCE[0])  # the ratios need the numpy baseline of the same run
    for name in chosen:
        module = BENCHMARKS[name]
        print(f"running {name}...", file=sys.stderr, flush=True)
        if module is sim_bench:  # a smaller sample than its own default, to keep `make bench` within ~5 minutes;
            # simulate() with 1 and 2 workers is measured in fresh processes by the startup benchmark
            results[name] = module.run(quick=args.quick, fights=SIM_FIGHTS, workers=())
        else:
            results[name] = module.run(quick=args.quick)
        report["benchmarks"][name] = {
            "description": module.DESCRIPTION,
            "setup": module.setup(),
            "figures": [f.to_dict() for f in results[name]],
        }
    if sim_bench is None:
        report["benchmarks"]["sim"] = {"available": False, "reason": SIM_ERROR, "figures": []}
    reference = next(f.median_ms for f in results[REFERENCE[0]] if f.name == REFERENCE[1])
    report["reference"] = {"benchmark": REFERENCE[0], "figure": REFERENCE[1], "median": round(reference, 4)}
    for bench in report["benchmarks"].values():
        for f in bench["figures"]:
            f["ratio_to_numpy"] = round(f["median"] / reference, 3)
    for bench_name in ("sim", "startup"):  # scaling of simulate(): speed-up from 1 to k workers, divided by k
        if bench_name not in results:
            continue
        per = {f.name: f.median_ms for f in results[bench_name]}
        eff = {}
        for name, ms in per.items():
            if name.startswith("simulate_") and not name.endswith("_1w"):
                stem, k = name.rsplit("_", 1)
                one = per.get(f"{stem}_1w")
                if one:
                    eff[name] = round(one / ms / int(k[:-1]), 3)
        report["benchmarks"][bench_name]["scaling_efficiency"] = eff
    if "scaling" in results:
        png = HERE / "scaling.png" if args.output == HERE / "results.json" else args.output.with_suffix(".png")
        drawn = scaling_bench.plot(scaling_bench.CURVES, png)
        report["benchmarks"]["scaling"]["plot"] = str(png.name) if drawn else None
        if not drawn:
            print("matplotlib is not installed: no plot", file=sys.stderr)
    args.output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    m, py, git = report["machine"], report["python"], report["git"]
    commit = (git["commit"] or "unknown")[:12] + (" (with local changes)" if git["dirty"] else "")
    print(f"{m['cpu']} ({m['cpus']} CPUs), {m['system']} {m['machine']}; {py['implementation']} {py['version']}; "
          f"commit {commit}")  # fmt: skip
    print(table(results, reference))
    if "reach" in results:
        print(reach_bench.report(results["reach"]))
    if sim_bench is None:
        print(f"sim: {SIM_ERROR}")
    print(f"results written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
