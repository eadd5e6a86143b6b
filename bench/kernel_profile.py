"""Where the compiled kernel's time goes: ``perf`` over fights of a benchmark room, by compiled function.

numba's machine code has no symbols that ``perf`` can read, so this script gives it a map
(``/tmp/perf-<pid>.map``, the format ``perf`` reads for JIT code): numba hands each compiled library's object code
to :func:`_capture` as it loads it from its disk cache (run the script again if it had to compile the kernel),
``nm`` lists the functions in it with their offsets and sizes, and the address the library's own entry function was
loaded at places them all. numba's reference counting (``NRT_incref``, ``NRT_decref``), compiled in the process
at start-up, is placed from its own library. Then the script plays fights of the room in a loop while
``perf record`` samples the process, and prints each function's share of the samples (specializations of one
function added together).

    python bench/kernel_profile.py                       # room 2 with the barathu, every side tactical, 40 s
    python bench/kernel_profile.py --large ksarik --seconds 20 --top 30
    POLICIES='{"party": "tactical", "aliens": "simple"}' python bench/kernel_profile.py
    python bench/kernel_profile.py --callers             # who pays numba's reference counts

``--callers`` records 64 bytes of the stack with each sample (``perf record --call-graph dwarf,64``): in
``NRT_incref`` and ``NRT_decref``, which push nothing, the top of the stack is the return address, so the map
names the function that counted (:func:`nrt_callers`).

Needs ``perf`` (Debian: ``apt-get install linux-perf``) and leave to sample one's own processes
(``/proc/sys/kernel/perf_event_paranoid`` at 2 or less). A development tool: not part of ``make bench`` or
``make test`` (its helpers are tested in ``tests/sim/test_kernel_profile.py``).
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from numba.core import codegen as _codegen

ROOT = Path(__file__).resolve().parents[1]
_LOADED: list[tuple[Any, bytes]] = []
_original_unserialize = _codegen.CPUCodeLibrary._unserialize.__func__  # type: ignore[attr-defined]


def _capture(cls: Any, codegen: Any, state: Any) -> Any:
    """numba's ``CPUCodeLibrary._unserialize``, keeping the object code of each library loaded from the cache."""
    library = _original_unserialize(cls, codegen, state)
    _name, kind, data = state
    if kind == "object":
        _LOADED.append((library, bytes(data[0])))
    return library


def install() -> None:
    """Keep the object code of every library numba loads from now on (before the kernel is imported)."""
    _codegen.CPUCodeLibrary._unserialize = classmethod(_capture)  # type: ignore[assignment]


def short_name(symbol: str) -> str:
    """``module.function`` of a numba symbol (``_ZN9sftactics3sim6kernel10bigbuckets19space_bucket_searchB2v1B...``
    gives ``bigbuckets.space_bucket_search``; the Python wrapper's ``_ZN7cpython...`` gets `` (wrapper)``); any
    other symbol as it is."""
    wrapper = symbol.startswith("_ZN7cpython")
    rest = symbol[len("_ZN7cpython") :] if wrapper else symbol[3:] if symbol.startswith("_ZN") else None
    if rest is None:
        return symbol
    parts: list[str] = []
    while rest and rest[0].isdigit():
        m = re.match(r"\d+", rest)
        assert m is not None
        n = int(m.group())
        parts.append(rest[m.end() : m.end() + n])
        rest = rest[m.end() + n :]
    if not parts:
        return symbol
    name = ".".join(parts[-2:]) if len(parts) > 1 else parts[0]
    return name + (" (wrapper)" if wrapper else "")


def parse_nm(text: str) -> list[tuple[int, int, str, str]]:
    """``nm -S --defined-only`` lines of code symbols: (offset, size, kind letter, name)."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "TtWw":
            out.append((int(parts[0], 16), int(parts[1], 16), parts[2], parts[3]))
    return out


def map_lines(symbols: list[tuple[int, int, str, str]], base: int) -> list[str]:
    """``perf``'s map lines (start, size, name; hexadecimal) for symbols at offsets from ``base``."""
    return [f"{base + off:x} {max(size, 1):x} {name}" for off, size, _kind, name in symbols]


def _library_lines(library: Any, obj: bytes) -> tuple[list[str], int, int]:
    """The map lines of one library's functions, and of those the engine resolves by name, how many it places
    where the map does and how many it resolves (a name two libraries share may resolve in the other)."""
    with tempfile.NamedTemporaryFile(suffix=".o", delete=False) as f:
        f.write(obj)
        path = f.name
    try:
        text = subprocess.run(["nm", "-S", "--defined-only", path], capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(path)
    symbols = parse_nm(text)
    engine = library._codegen._engine
    # the library's own functions were loaded from this object; a name it shares with a function linked into
    # another library may resolve there, so the base is taken from a symbol naming the library's function
    own = library.name.split(".")[-1].split("$")[0]
    base = None
    for off, _size, kind, name in symbols:
        if kind in "TW" and own in name:
            address = engine.get_function_address(name)
            if address:
                base = address - off
                break
    if base is None:
        return [], 0, 0
    agree = resolved = 0
    for off, _size, kind, name in symbols:
        address = engine.get_function_address(name) if kind in "TW" else 0
        if address:
            resolved += 1
            agree += address == base + off
    return map_lines(symbols, base), agree, resolved


def _runtime_lines() -> list[str]:
    """numba's runtime functions (reference counting, allocation), compiled at start-up: placed from their
    library, each up to the next."""
    from numba.core.runtime.nrt import rtsys

    library = rtsys._library
    starts = []
    for fn in library._final_module.functions:
        if not fn.is_declaration:
            address = library.get_pointer_to_function(fn.name)
            if address:
                starts.append((address, fn.name))
    starts.sort()
    lines = []
    for i, (address, name) in enumerate(starts):
        size = min(starts[i + 1][0] - address, 4096) if i + 1 < len(starts) else 256
        lines.append(f"{address:x} {size:x} {name}")
    return lines


def write_map(path: Path | None = None) -> tuple[Path, int, int, int]:
    """Write the map (by default ``/tmp/perf-<pid>.map``, where ``perf`` looks) for every library loaded so far:
    its path, its lines, and how many of the names the engine resolves it places where the engine does, of how
    many resolved."""
    lines = _runtime_lines()
    agree = resolved = 0
    for library, obj in _LOADED:
        more, a, r = _library_lines(library, obj)
        lines += more
        agree += a
        resolved += r
    path = path or Path(f"/tmp/perf-{os.getpid()}.map")
    path.write_text("\n".join(lines) + "\n")
    return path, len(lines), agree, resolved


def tally(report: str) -> Counter[str]:
    """Shares (percent) by :func:`short_name` from ``perf report --sort sym`` text; unplaced JIT addresses as
    ``(unplaced JIT code)``."""
    shares: Counter[str] = Counter()
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(\S+)", line)
        if m is None:
            continue
        name = m.group(2)
        shares["(unplaced JIT code)" if name.startswith("0x") else short_name(name)] += float(m.group(1))
    return shares


class Placer:
    """Names of addresses from a map's lines (start, size, name)."""

    def __init__(self, lines: list[str]) -> None:
        rows = []
        for line in lines:
            start, size, name = line.split(" ", 2)
            rows.append((int(start, 16), int(size, 16), name))
        rows.sort()
        self.rows = rows
        self.starts = [r[0] for r in rows]

    def name(self, address: int) -> str | None:
        i = bisect.bisect_right(self.starts, address) - 1
        if i >= 0 and address < self.rows[i][0] + self.rows[i][1]:
            return short_name(self.rows[i][2])
        return None


#: Where a sample's first 8 bytes of user stack lie in its raw record, as ``perf record --call-graph dwarf,64``
#: writes it on x86-64: the header, ip, pid and tid, time, id, period, an empty call chain, the register ABI and
#: the 20 user registers, the stack's size.
STACK_AT = 0xE8


def nrt_callers(dump: Iterable[str], placer: Placer) -> tuple[int, Counter[str]]:
    """From ``perf script -D`` of a ``--call-graph dwarf,64`` recording: the samples, and per function the
    samples inside ``NRT_incref`` or ``NRT_decref`` whose return address (the top of the stack: they push
    nothing) lies in it."""
    raw = bytearray()
    samples = 0
    callers: Counter[str] = Counter()
    for line in dump:
        if line.startswith(". ... raw event"):
            raw = bytearray()
            continue
        m = re.match(r"^\.  [0-9a-f]{4}:  ((?:[0-9a-f]{2} ){1,16})", line)
        if m:
            raw += bytes.fromhex(m.group(1).replace(" ", ""))
            continue
        if "PERF_RECORD_SAMPLE" in line and len(raw) >= STACK_AT + 8:
            samples += 1
            if placer.name(struct.unpack_from("<Q", raw, 8)[0]) in ("NRT_incref", "NRT_decref"):
                caller = placer.name(struct.unpack_from("<Q", raw, STACK_AT)[0])
                callers[caller or "(unplaced)"] += 1
    return samples, callers


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--large", default="barathu", help="the stat block in room 2's Large creature's place")
    ap.add_argument("--seconds", type=float, default=40.0, help="how long perf samples the fights")
    ap.add_argument("--top", type=int, default=40, help="how many functions to print")
    ap.add_argument("--warm", type=int, default=100, help="fights played before sampling")
    ap.add_argument(
        "--callers",
        action="store_true",
        help="instead: which functions pay numba's reference counts (the callers of NRT_incref/decref)",
    )
    ap.add_argument("--map-only", type=Path, metavar="PATH", help="write the map there and stop (no perf)")
    args = ap.parse_args(argv)
    if (args.map_only is None and shutil.which("perf") is None) or shutil.which("nm") is None:
        print("kernel_profile: needs perf and nm (Debian: apt-get install linux-perf binutils)", file=sys.stderr)
        return 2
    install()
    sys.path.insert(0, str(ROOT / "bench"))
    import reach_bench

    from sftactics.sim.kernel.run import kernel_batch
    from sftactics.sim.runner import fight_seed

    policies = json.loads(os.environ.get("POLICIES", '{"*": "tactical"}'))
    enc = reach_bench.room2(args.large)
    kernel_batch(enc, [fight_seed(0, 10_000 + i) for i in range(args.warm)], list(range(args.warm)), 50, policies)
    if not _LOADED:
        print("kernel_profile: the kernel was compiled in this process; run it again to load it from the cache",
              file=sys.stderr)  # fmt: skip
        return 2
    path, n, agree, resolved = write_map(args.map_only)
    if args.map_only is not None:
        print(json.dumps({"map": str(path), "lines": n, "libraries": len(_LOADED), "agree": agree,
                          "resolved": resolved}))  # fmt: skip
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        graph = ["--call-graph", "dwarf,64"] if args.callers else []
        perf = subprocess.Popen(
            ["perf", "record", *graph, "-F", "499", "-p", str(os.getpid()), "-o", str(data), "--", "sleep",
             str(args.seconds)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        time.sleep(1.0)
        fights = 0
        start = time.time()
        while perf.poll() is None and time.time() - start < args.seconds + 30:
            idx = list(range(fights, fights + 50))
            kernel_batch(enc, [fight_seed(0, i) for i in idx], idx, 50, policies)
            fights += 50
        _, err = perf.communicate()
        if perf.returncode != 0 or not data.exists():
            print(f"kernel_profile: perf record failed: {err.strip()}", file=sys.stderr)
            return 2
        if args.callers:
            dump = subprocess.Popen(["perf", "script", "-i", str(data), "-D"], stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True)  # fmt: skip
            assert dump.stdout is not None
            samples, callers = nrt_callers(dump.stdout, Placer(path.read_text().splitlines()))
            dump.wait()
            total = sum(callers.values())
            share = 100 * total / max(samples, 1)
            print(f"room 2 with the {args.large}, {policies}: {fights} fights; reference counting {share:.2f}% of "
                  f"{samples} samples, by the function that counted:")  # fmt: skip
            for name, n in callers.most_common(args.top):
                print(f"{100 * n / max(samples, 1):6.2f}%  {name}")
            return 0
        report = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--sort", "sym", "--stdio"],
                                capture_output=True, text=True).stdout  # fmt: skip
    shares = tally(report)
    print(f"room 2 with the {args.large}, {policies}: {fights} fights sampled")
    for name, share in shares.most_common(args.top):
        print(f"{share:6.2f}%  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
