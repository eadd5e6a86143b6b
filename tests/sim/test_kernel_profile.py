"""``bench/kernel_profile.py``: the map that lets ``perf`` name the compiled kernel's functions."""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from kernel_profile import STACK_AT, Placer, map_lines, nrt_callers, parse_nm, short_name, tally  # noqa: E402

SEARCH = (
    "_ZN9sftactics3sim6kernel10bigbuckets19space_bucket_searchB4v621B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5"
    "ArrayIiLi3E1C7mutable7alignedEx23Literal_5bint_5d_289_2927Literal_5bbool_5d_28True_29"
)


def test_a_numba_symbol_is_named_by_its_module_and_function() -> None:
    assert short_name(SEARCH) == "bigbuckets.space_bucket_search"
    assert short_name("_ZN7cpython9sftactics3sim6kernel4loop10play_batchB2v1E") == "loop.play_batch (wrapper)"
    assert short_name("NRT_incref") == "NRT_incref"
    assert short_name("_ZN") == "_ZN"


def test_nm_lines_give_the_code_symbols_with_offsets_and_sizes() -> None:
    text = (
        "0000000000000008 0000000000000008 C _ZN08NumbaEnv9sftactics\n"
        f"000000000006a110 0000000000001855 W {SEARCH}\n"
        "0000000000000100 0000000000000020 t helper\n"
        "                 U NRT_incref\n"
    )
    symbols = parse_nm(text)
    assert symbols == [(0x6A110, 0x1855, "W", SEARCH), (0x100, 0x20, "t", "helper")]
    assert map_lines(symbols, 0x7F0000000000) == [f"7f000006a110 1855 {SEARCH}", "7f0000000100 20 helper"]


def test_perf_report_shares_add_up_by_function() -> None:
    report = (
        "# Overhead  Symbol\n"
        f"    17.20%  [.] {SEARCH}\n"
        f"    11.76%  [.] {SEARCH.replace('v621', 'v432')}\n"
        "     6.57%  [.] NRT_decref\n"
        "     0.85%  [.] 0x00007fb673e1bbf8\n"
        "     0.40%  [.] 0x00007fb673e1bc00\n"
    )
    shares = tally(report)
    assert shares["bigbuckets.space_bucket_search"] == pytest.approx(28.96)
    assert shares["NRT_decref"] == pytest.approx(6.57)
    assert shares["(unplaced JIT code)"] == pytest.approx(1.25)


def _sample(ip: int, top_of_stack: int) -> list[str]:
    """``perf script -D``'s lines for one sample: the raw record (16 bytes a line), then the summary line."""
    raw = bytearray(STACK_AT + 16)
    struct.pack_into("<Q", raw, 8, ip)
    struct.pack_into("<Q", raw, STACK_AT, top_of_stack)
    lines = [f". ... raw event: size {len(raw)} bytes"]
    for off in range(0, len(raw), 16):
        lines.append(f".  {off:04x}:  " + " ".join(f"{b:02x}" for b in raw[off : off + 16]) + "  ................")
    lines.append(f"1 0x11870 [0x138]: PERF_RECORD_SAMPLE(IP, 0x2): 1/1: {ip:#x} period: 2004008 addr: 0")
    return lines


def test_reference_counts_are_put_on_the_function_they_return_to() -> None:
    placer = Placer(["1000 10 NRT_incref", "1010 10 NRT_decref", f"2000 100 {SEARCH}", "3000 80 helper"])
    assert placer.name(0x2050) == "bigbuckets.space_bucket_search"
    assert placer.name(0x2100) is None and placer.name(0xFFF) is None
    dump = [
        *_sample(0x1009, 0x2040),  # in NRT_incref, called from the search
        *_sample(0x1019, 0x3010),  # in NRT_decref, called from the helper
        *_sample(0x1009, 0x9000),  # from somewhere the map does not hold
        *_sample(0x2010, 0x1234),  # in the search itself: not a reference count
    ]
    samples, callers = nrt_callers(dump, placer)
    assert samples == 4
    assert callers == {"bigbuckets.space_bucket_search": 1, "helper": 1, "(unplaced)": 1}


@pytest.mark.skipif(shutil.which("nm") is None, reason="needs nm (binutils)")
def test_the_map_places_the_kernels_functions_where_numba_loaded_them(tmp_path: Path) -> None:
    """In a fresh process (the kernel loaded from numba's cache): the map names the bucket search and the
    reference counting, and places the functions as the engine does wherever it resolves a name in the same
    library (a name two libraries share may resolve in the other)."""
    path = tmp_path / "perf.map"
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "kernel_profile.py"), "--map-only", str(path), "--warm", "2"],
        capture_output=True, text=True, check=True, cwd=ROOT, timeout=1800,
    )  # fmt: skip
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert summary["libraries"] >= 1
    assert summary["agree"] >= 0.9 * summary["resolved"] > 0
    names = {short_name(line.split(" ", 2)[2]) for line in path.read_text().splitlines()}
    assert {"bigbuckets.space_bucket_search", "NRT_incref", "NRT_decref"} <= names
    starts = [int(line.split()[0], 16) for line in path.read_text().splitlines()]
    assert all(s > 0 for s in starts)
