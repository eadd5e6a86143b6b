"""The compiled kernel's worker processes: cover answers shared between them, files that never recompile."""

from __future__ import annotations

import ast
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numba import types as nb_types
from numba.typed import Dict

from sftactics.sim.kernel import NOT_COMPILED, geo, share


def _cache() -> Any:
    return Dict.empty(key_type=geo._COVER_KEY, value_type=nb_types.int64)


def _key(i: int) -> tuple[int, ...]:
    return (i, i + 1, 1) + (-1,) * geo.COVER_KEY_CREATURES


def test_cover_answers_go_from_one_cache_to_another_once() -> None:
    a, b = _cache(), _cache()
    mine, theirs = share.CoverShare(a), share.CoverShare(b)
    a[_key(1)], a[_key(2)] = 3, 1
    keys, values = mine.give()
    assert [tuple(k) for k in keys.tolist()] == [_key(1), _key(2)] and values.tolist() == [3, 1]
    assert len(mine.give()[1]) == 0  # given once
    theirs.take((keys, values))
    assert dict(b) == {_key(1): 3, _key(2): 1}
    assert len(theirs.give()[1]) == 0  # what it took is not given back
    b[_key(3)] = 2
    theirs.take(share.empty())
    b[_key(4)] = 0
    assert theirs.give()[1].tolist() == [0]  # taken (even nothing) marks what came before as known
    b.clear()  # a cache that reached its limit starts again: everything in it is new
    b[_key(5)] = 2
    assert theirs.give()[1].tolist() == [2]


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only")
def test_each_batch_carries_the_answers_the_other_workers_found(tmp_path: Path) -> None:
    """A worker's next batch brings every answer the other workers had sent back before it was sent; what the
    caller gets is every batch once."""
    from sftactics.sim.kernel.pool import play_forked

    cache = _cache()
    marker = tmp_path / "batch 1 played"

    def play(a: int, b: int) -> Any:  # in a worker: what it knew at the start, who it is; then an "answer"
        known = sorted(int(k[0]) for k in cache)
        cache[_key(a)] = a
        if a == 0:  # the first batch ends after the second, so its worker's next batch has the second's answer
            t0 = time.monotonic()
            while not marker.exists() and time.monotonic() - t0 < 60:
                time.sleep(0.001)
        elif a == 1:
            marker.touch()
        else:
            time.sleep(0.05)
        return np.array(known, dtype=np.int64), np.array([os.getpid()], dtype=np.int64)

    got: list[tuple[int, list[int], int]] = []

    def deliver(a: int, b: int, fights: Any, rows: Any, error: str | None) -> None:
        assert error is None
        got.append((a, fights.tolist(), int(rows[0])))

    play_forked(play, [(i, i + 1) for i in range(12)], 2, cache, deliver)
    assert sorted(a for a, _, _ in got) == list(range(12))
    assert len({pid for _, _, pid in got}) == 2
    by = {a: pid for a, _, pid in got}
    # the second worker to finish its first batch had the first one's answer with its next batch
    assert any(any(by[k] != pid for k in known) for _, known, pid in got)
    for n, (a, known, pid) in enumerate(got):
        assert a not in known
        # every answer known came from this worker's earlier batches or was sent back before this batch left
        for k in known:
            assert by[k] == pid or [x for x, _, _ in got].index(k) < n


def test_a_worker_error_comes_back_with_its_batch() -> None:
    from sftactics.sim.kernel.pool import play_forked

    def play(a: int, b: int) -> Any:
        if a == 1:
            raise ValueError("no such fight")
        return np.zeros((b - a, 4), dtype=np.int64), np.zeros((b - a, 1, 1), dtype=np.int64)

    errors: dict[int, str | None] = {}
    play_forked(play, [(0, 1), (1, 2), (2, 3)], 2, None, lambda a, b, f, r, e: errors.__setitem__(a, e))
    assert errors[0] is None and errors[2] is None
    assert errors[1] is not None and "no such fight" in errors[1]


def test_files_outside_the_digest_hold_no_njit_code_and_feed_none() -> None:
    """Editing run.py or pool.py must not leave stale compiled code: no njit function in them, and no kernel
    file with njit code imports them."""
    here = Path(geo.__file__).parent
    for name in NOT_COMPILED:
        text = (here / name).read_text()
        assert "njit" not in text and "_jit" not in text, name
    outside = {n.removesuffix(".py") for n in NOT_COMPILED}
    for f in here.glob("*.py"):
        if f.name in NOT_COMPILED:
            continue
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = {node.module.rsplit(".", 1)[-1]} | {alias.name for alias in node.names}
                assert not names & outside, f.name
