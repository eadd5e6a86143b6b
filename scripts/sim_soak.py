"""``make soak``: simulate every shipped scenario many times and report failed fights and the main figures.

    python scripts/sim_soak.py [--runs N] [--policy tactical --policy simple] [--workers K] [--seed S]
                               [--engine-runs M] [--json FILE]

Every scenario under ``scenarios/`` and ``examples/scenarios/`` is simulated ``--runs`` times (default 1,000)
per policy, by the compiled kernel where it plays the job and by the engine otherwise; ``--engine-runs`` caps
the fights the engine plays (it plays a few fights a second per core). The short version of this check is
``tests/sim/test_shipped.py`` in ``make test``. Exit status 1 when a fight failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--engine-runs", type=int, default=None, help="at most this many fights played by the engine")
    ap.add_argument("--policy", action="append", default=None, help="policies to try (default: tactical)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default="", help="only scenarios whose file name contains this")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures as JSON")
    args = ap.parse_args(argv)

    from sftactics.io.scenario import load_scenario
    from sftactics.sim.runner import SimJob, simulate

    paths = sorted([*ROOT.glob("scenarios/*.yaml"), *ROOT.glob("examples/scenarios/*.yaml")])
    rows = []
    failed = 0
    print(f"{'scenario':24} {'policy':9} {'by':8} {'fights':>6} {'failed':>6} {'draw':>6} {'limit':>6} "
          f"{'retreat':>7} {'rounds':>6} {'s':>7}  wins")  # fmt: skip
    for path in paths:
        if args.only not in path.name:
            continue
        enc = load_scenario(path)
        for policy in args.policy or ["tactical"]:
            job = SimJob(enc, {"*": policy}, seed=args.seed)
            kernel = job.compiled()
            runs = args.runs if kernel or args.engine_runs is None else min(args.runs, args.engine_runs)
            t0 = time.perf_counter()
            s = simulate(job, runs, workers=args.workers)
            took = time.perf_counter() - t0
            wins = ", ".join(f"{side.side} {100 * side.win.p:.1f}%" for side in s.sides)
            failed += len(s.failures)
            by = "kernel" if kernel else "engine"
            print(f"{path.stem:24} {policy:9} {by:8} {s.runs + len(s.failures):6d} {len(s.failures):6d} "
                  f"{100 * s.draws.p:5.1f}% {100 * s.round_limited.p:5.1f}% {100 * s.ended_by_retreat.p:6.1f}% "
                  f"{s.rounds.mean:6.2f} {took:7.1f}  {wins}", flush=True)  # fmt: skip
            for f in s.failures[:3]:
                last = (f.error or "").strip().splitlines()[-1:] or ["?"]
                print(f"    fight {f.index}, seed {f.seed}: {last[0]}")
            rows.append({"scenario": path.name, "policy": policy, "by": by, "fights": runs, "seconds": took,
                         "failures": [{"index": f.index, "seed": f.seed, "error": f.error} for f in s.failures],
                         "summary": s.to_dict(timing=False)})  # fmt: skip
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    print(f"{failed} failed fight(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
