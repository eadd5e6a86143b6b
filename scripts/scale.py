"""Cost of a large map: memory and time to load an open N x N map, play the first turn and draw the text view.

    python scripts/scale.py [--sizes 200,500,1000,2000] [--no-limit] [--json FILE] [--src DIR]

Each size runs in a fresh process, twice: once timed (wall-clock seconds per phase and the process's peak
resident memory, ``ru_maxrss``) and once under ``tracemalloc`` (the peak of Python allocations per phase,
counted from the start of that phase, and overall). The encounter is four vesk soldiers against four space
goblins twelve squares apart in the middle of an open map walled round (``bench/scaling_bench.py``), played by
``encounter.policy.simple``; the bundled stat blocks are read once before anything is measured. ``--no-limit``
lifts ``grid.map.MAX_SIDE`` to measure maps the loader refuses; ``--src`` measures another checkout's sources
(e.g. an older commit unpacked with ``git archive``). Not part of ``make test``; the figures are in
docs/performance.md ("Large maps").
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

PHASES = ("load", "first_turn", "view")


def _measure(size: int, trace: bool, no_limit: bool) -> dict[str, Any]:
    import sftactics.grid.map as gmap

    if no_limit:
        gmap.MAX_SIDE = 1 << 30
    from scaling_bench import encounter

    from sftactics.encounter.commands import Begin
    from sftactics.encounter.engine import Fight, pending
    from sftactics.encounter.policy import simple
    from sftactics.views.mapview import build_view, render_text

    encounter(2, 20)  # warm-up: the bundled stat blocks and the modules, read once per process
    out: dict[str, Any] = {"size": size}
    if trace:
        tracemalloc.start()
    state: dict[str, Any] = {}

    def load() -> None:
        enc = encounter(8, size)
        enc.grid  # noqa: B018 - parses the map and keeps it (the engine's cache)
        state["enc"] = enc

    def first_turn() -> None:
        fight = Fight.seeded(state["enc"], 1)
        fight.do(Begin())
        who = pending(fight.state)
        assert who is not None
        simple(fight, who)
        state["fight"] = fight

    def view() -> None:
        text = render_text(build_view(state["fight"].state))
        out["view_lines"] = text.count("\n")

    for name, phase in zip(PHASES, (load, first_turn, view), strict=True):
        if trace:
            tracemalloc.reset_peak()
            before = tracemalloc.get_traced_memory()[0]
        t0 = time.perf_counter()
        phase()
        secs = time.perf_counter() - t0
        if trace:
            cur, peak = tracemalloc.get_traced_memory()
            out[f"{name}_peak_mb"] = round((peak - before) / 2**20, 1)
            out[f"{name}_kept_mb"] = round((cur - before) / 2**20, 1)
        else:
            out[f"{name}_s"] = round(secs, 3)
    if trace:
        out["traced_mb"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 1)
    else:
        out["maxrss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default="200,500,1000,2000", help="map sides, comma separated")
    parser.add_argument("--no-limit", action="store_true", help="lift MAX_SIDE (to measure refused sizes)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the sources to measure (default: ./src)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # the child process: one size
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.src.resolve()))
    if args.one is not None:
        print(json.dumps(_measure(args.one, args.trace, args.no_limit)))
        return 0
    rows: list[dict[str, Any]] = []
    for size in (int(s) for s in args.sizes.split(",")):
        row: dict[str, Any] = {}
        for trace in (False, True):
            cmd = [sys.executable, __file__, "--one", str(size), "--src", str(args.src)]
            cmd += ["--trace"] * trace + ["--no-limit"] * args.no_limit
            done = subprocess.run(cmd, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                row.update(size=size, error=done.stderr.strip().splitlines()[-1:])
                break
            row.update(json.loads(done.stdout))
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
