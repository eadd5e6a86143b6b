"""Compare a fresh benchmark run with the stored baseline: ``make bench-check`` (or ``python bench/check.py``).

Both runs are compared as ratios to the raw numpy baseline of their own run (``ratio_to_numpy``), so a faster
or slower machine cancels out; a figure whose ratio grew by more than ``--tolerance`` (default 30%) is a
regression and the check exits 1. Only figures present in both runs are compared, and figures timed once
(``repeats`` 1: first calls, whole fights at the end of a curve, simulate() wall clock) are shown but never
fail the check: one run is noise, not a measurement. Not part of ``make test``.

By default the fresh run covers the ``core`` and ``grid`` benchmarks (about half a minute);
``--benchmarks core,grid,scaling,sim`` widens it. ``--results FILE`` compares an existing results file instead
of running. The baseline is written by ``python bench/run.py --output bench/baseline.json`` (commit it).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def ratios(report: dict[str, Any]) -> dict[tuple[str, str], tuple[float, int]]:
    out = {}
    for bench, body in report.get("benchmarks", {}).items():
        for f in body.get("figures", []):
            if f.get("ratio_to_numpy") is not None:
                out[(bench, f["name"])] = (float(f["ratio_to_numpy"]), int(f.get("repeats", 1)))
    return out


def compare(base: dict[str, Any], new: dict[str, Any], tolerance: float) -> tuple[list[str], list[str]]:
    """(report lines, regressions)."""
    b, n = ratios(base), ratios(new)
    lines = [f"{'figure':40s} {'baseline':>9s} {'now':>9s} {'change':>8s}"]
    bad = []
    for key in sorted(b.keys() & n.keys()):
        if key == ("core", "numpy_baseline"):
            continue
        (rb, _), (rn, reps) = b[key], n[key]
        change = rn / rb - 1 if rb else 0.0
        noisy = reps < 2 or b[key][1] < 2
        verdict = "" if noisy else ("REGRESSION" if change > tolerance else ("faster" if change < -tolerance else "ok"))
        if noisy:
            verdict = "(timed once: not checked)"
        lines.append(f"{key[0] + '/' + key[1]:40s} {rb:9.3g} {rn:9.3g} {change:+7.0%}  {verdict}")
        if verdict == "REGRESSION":
            bad.append(f"{key[0]}/{key[1]}: {change:+.0%} (ratio {rb:.2f} -> {rn:.2f})")
    missing = sorted(b.keys() - n.keys())
    if missing and len(missing) < len(b):
        lines.append(f"({len(missing)} baseline figures not in this run)")
    return lines, bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--baseline", type=Path, default=HERE / "baseline.json")
    ap.add_argument("--results", type=Path, default=None, help="compare this results file (default: a fresh run)")
    ap.add_argument("--benchmarks", default="core,grid", help="benchmarks of the fresh run (default core,grid)")
    ap.add_argument("--tolerance", type=float, default=0.30, help="allowed growth of a ratio (default 0.30)")
    args = ap.parse_args(argv)
    if not args.baseline.exists():
        print(f"no baseline at {args.baseline}: write one with "
              f"'python bench/run.py --output {args.baseline}'", file=sys.stderr)  # fmt: skip
        return 2
    base = json.loads(args.baseline.read_text(encoding="utf-8"))
    if args.results is None:
        out = HERE / ".cache" / "check.json"
        out.parent.mkdir(exist_ok=True)
        cmd = [sys.executable, str(HERE / "run.py"), "--output", str(out), *args.benchmarks.split(",")]
        if subprocess.run(cmd, check=False).returncode != 0:
            print("the fresh run failed", file=sys.stderr)
            return 2
        args.results = out
    new = json.loads(args.results.read_text(encoding="utf-8"))
    if bool(base.get("quick")) != bool(new.get("quick")):
        print("one run is --quick and the other is not: not comparable", file=sys.stderr)
        return 2
    lines, bad = compare(base, new, args.tolerance)
    print(f"\nagainst {args.baseline.name} (commit {(base.get('git', {}).get('commit') or '?')[:12]}), "
          f"ratios to the numpy baseline of each run, tolerance {args.tolerance:.0%}:")  # fmt: skip
    print("\n".join(lines))
    if bad:
        print(f"\n{len(bad)} regression(s) over {args.tolerance:.0%}:\n  " + "\n  ".join(bad))
        return 1
    print("\nno regression")
    return 0


if __name__ == "__main__":
    sys.exit(main())
