"""``make fuzz``: random command sequences on the shipped scenarios and mutated files, with a summary.

    python scripts/fuzz.py [--commands N] [--files N] [--workers N] [--seed S]

Goal (issue 20): 0 tracebacks, 0 hangs (a command or a load taking over 10 s), 0 invariant breaks. The checks
are the ones the property tests in tests/fuzz/ run in ``make test``; this script runs them for longer. Exit
status 1 when anything was found.
"""

from __future__ import annotations

import argparse
import collections
import random
import signal
import sys
import tempfile
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HANG_S = 10


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang


def _commands(job: tuple[int, int]) -> tuple[int, dict[str, tuple[int, str]]]:
    """Sequences from seed ``start`` on until ``count`` commands were given: (commands, problems found)."""
    from sftactics.encounter.commands import Begin
    from sftactics.encounter.engine import Fight
    from sftactics.io.scenario import load_scenario
    from tests.fuzz.invariants import SCENARIOS, play_sequence

    start, count = job
    found: dict[str, tuple[int, str]] = {}
    given = 0
    seed = start
    signal.signal(signal.SIGALRM, _alarm)
    while given < count:
        path = SCENARIOS[seed % len(SCENARIOS)]
        fight = Fight.seeded(load_scenario(path), seed)
        steps = 150
        signal.alarm(HANG_S * 20)
        try:
            fight.do(Begin())
            for p in play_sequence(fight, random.Random(seed), steps, undo_every=0.05):
                key = "invariant: " + " ".join(w for w in p.split() if not any(ch.isdigit() for ch in w))
                n, ex = found.get(key, (0, f"{path.name} seed {seed}: {p}"))
                found[key] = (n + 1, ex)
        except _Hang:
            found.setdefault(f"hang: {path.name}", (0, f"seed {seed}"))
            found[f"hang: {path.name}"] = (found[f"hang: {path.name}"][0] + 1, f"seed {seed}")
        except Exception as e:
            where = traceback.extract_tb(e.__traceback__)[-1]
            key = f"traceback: {type(e).__name__} in {where.name} ({Path(where.filename).name}:{where.lineno})"
            n, ex = found.get(key, (0, f"{path.name} seed {seed}: {e}"))
            found[key] = (n + 1, ex)
        finally:
            signal.alarm(0)
        given += len(fight.commands) + 1
        seed += 1
    return given, found


def _files(job: tuple[int, int]) -> tuple[int, dict[str, tuple[int, str]]]:
    from tests.fuzz.mutate import KINDS, check_one

    start, count = job
    found: dict[str, tuple[int, str]] = {}
    signal.signal(signal.SIGALRM, _alarm)
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(start, start + count):
            rng = random.Random(seed)
            kind = rng.choice(sorted(KINDS))
            source = rng.choice(KINDS[kind][0])
            signal.alarm(HANG_S)
            try:
                problem = check_one(kind, source, rng, Path(tmp))
            except _Hang:
                problem = f"hang: loading a mutated {kind}"
            finally:
                signal.alarm(0)
            if problem is not None:
                key = problem if problem.startswith("hang") else "file: " + problem[:100]
                n, _ = found.get(key, (0, ""))
                found[key] = (n + 1, f"{source.name} seed {seed}: {problem[:300]}")
    return count, found


def _merge(parts: list[tuple[int, dict[str, tuple[int, str]]]]) -> tuple[int, dict[str, tuple[int, str]]]:
    total = 0
    merged: dict[str, tuple[int, str]] = {}
    for n, found in parts:
        total += n
        for k, (c, ex) in found.items():
            old = merged.get(k, (0, ex))
            merged[k] = (old[0] + c, old[1])
    return total, merged


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--commands", type=int, default=20_000)
    ap.add_argument("--files", type=int, default=2_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    t0 = time.perf_counter()
    per = max(1, a.commands // a.workers)
    fper = max(1, a.files // a.workers)
    with ProcessPoolExecutor(a.workers) as pool:
        cjobs = [(a.seed + i * 1_000_000, per) for i in range(a.workers)] if a.commands else []
        fjobs = [(a.seed + i * fper, fper) for i in range(a.workers)] if a.files else []
        commands = _merge(list(pool.map(_commands, cjobs)))
        files = _merge(list(pool.map(_files, fjobs)))
    elapsed = time.perf_counter() - t0
    kinds: collections.Counter[str] = collections.Counter()
    print(f"fuzz: {commands[0]:,} commands on the shipped scenarios, {files[0]:,} mutated files, {elapsed:.0f} s")
    for label, (_, found) in (("commands", commands), ("files", files)):
        for key, (n, ex) in sorted(found.items(), key=lambda kv: -kv[1][0]):
            kinds[key.split(":")[0]] += n
            print(f"  [{label}] {n} x {key}\n      e.g. {ex}")
    print(
        f"tracebacks: {kinds['traceback']}, hangs: {kinds['hang']}, invariant breaks: {kinds['invariant']}, "
        f"file loads that crashed or did not name the file: {kinds['file']}"
    )
    return 1 if sum(kinds.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
