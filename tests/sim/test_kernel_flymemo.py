"""A big flier's searches kept and recalled (``sim.kernel.flymemo``): a recalled search hands back what the
search itself would write, so fights played with the memory warm, cold or switched off are the same fight for
fight; and a recall answers only the inputs it was kept for (the engine's fights against the kernel's, with the
memory warm across examples, are the same-dice-same-fight tests of ``test_kernel_bigtactics_modes``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pytest

from sftactics.encounter.state import Encounter
from sftactics.sim.kernel import bigpath, bigtacmodes, bigtactics, flymemo, tacturn
from sftactics.sim.kernel import run as kernel_run
from sftactics.sim.runner import fight_seed

TACTICAL = {"*": "tactical"}
SEEDS = [fight_seed(7, i) for i in range(24)]


@cache
def room2() -> Encounter:
    """The second benchmark room with its Large barathu (fly 30): walls, doorways, dim light."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from reach_bench import room2 as bench_room2

    enc: Encounter = bench_room2()
    return enc


def _memo(enc: Encounter) -> tuple[Any, Any]:
    ready = kernel_run.compiled(enc, TACTICAL)
    return ready.compiled.model, ready


@pytest.fixture(autouse=True)
def _memory_left_on() -> Iterator[None]:
    """The encounter's model is cached for the process: whatever a test here does to its memory (switched off,
    nonsense in the buffers), the next test, here or elsewhere, finds it empty and on."""
    yield
    _forget(_memo(room2())[0])


def _forget(model: Any, *, off: bool = False) -> None:
    model.fm_scal[:] = 0
    model.fm_count[:] = 0
    model.fm_count[flymemo.OFF] = 1 if off else 0


@numba.njit
def _buffers(m: Any) -> tuple[np.ndarray, np.ndarray]:
    """Copies of what ``m.bw_dist`` and ``m.bw_parent`` point at now (a recall points them at a kept search)."""
    return m.bw_dist.copy(), m.bw_parent.copy()


def _play(enc: Encounter, seeds: list[int]) -> tuple[np.ndarray, np.ndarray]:
    return kernel_run.kernel_arrays(enc, seeds, 50, TACTICAL)


@pytest.mark.rule("MOV-32")
def test_fights_are_the_same_with_the_memory_warm_cold_or_off() -> None:
    enc = room2()
    model, _ = _memo(enc)
    _forget(model, off=True)
    off_f, off_c = _play(enc, SEEDS)
    assert model.fm_count[flymemo.HITS] == 0 and model.fm_count[flymemo.KEPT] == 0
    _forget(model)
    warm_f, warm_c = _play(enc, SEEDS)  # one batch: later fights recall the searches of earlier ones
    hits = int(model.fm_count[flymemo.HITS])
    kept = int(model.fm_count[flymemo.KEPT])
    assert hits > 0 and kept > 0
    cold_f, cold_c = [], []
    for seed in SEEDS:  # each fight from an empty memory
        _forget(model)
        f, c = _play(enc, [seed])
        cold_f.append(f[0])
        cold_c.append(c[0])
    assert np.array_equal(off_f, warm_f) and np.array_equal(off_c, warm_c)
    assert np.array_equal(off_f, np.array(cold_f)) and np.array_equal(off_c, np.array(cold_c))


@pytest.mark.rule("MOV-32")
def test_a_recall_answers_only_the_inputs_it_was_kept_for() -> None:
    enc = room2()
    model, ready = _memo(enc)
    _play(enc, SEEDS[:1])  # a fight's end: creatures where they ended up
    m, st = ready.model, ready.state
    big = next(i for i, s in enumerate(model.fside) if s > 1)
    _forget(model)
    bigtactics._anchors(m, st, big)
    bigtacmodes.first_move_fly(m, st, big)  # made, into an entry's buffers
    searched = _buffers(m)
    assert model.fm_count[flymemo.KEPT] == 1 and model.fm_count[flymemo.HITS] == 0
    flymemo.scratch(m)  # the model's own buffers, filled with nonsense
    model.bw_dist0[:] = -7
    model.bw_parent0[:] = -7
    bigtacmodes.first_move_fly(m, st, big)  # recalled: the buffers as the search left them, nothing copied
    assert model.fm_count[flymemo.HITS] == 1
    got = _buffers(m)
    assert np.array_equal(got[0], searched[0]) and np.array_equal(got[1], searched[1])
    assert (model.bw_dist0 == -7).all()
    # one anchor blocked: a different search, made and kept
    free = int(np.flatnonzero(model.bw_pass[0])[0])
    model.bw_pass[0, free] = False
    bigtacmodes.first_move_fly(m, st, big)
    assert model.fm_count[flymemo.HITS] == 1 and model.fm_count[flymemo.KEPT] == 2
    model.bw_pass[0, free] = True
    bigtacmodes.first_move_fly(m, st, big)  # the first again
    assert model.fm_count[flymemo.HITS] == 2 and model.fm_count[flymemo.KEPT] == 2
    # the double move's second search is another kind of search from the same start
    bigtacmodes.second_move_fly(m, st, big)
    assert model.fm_count[flymemo.HITS] == 2 and model.fm_count[flymemo.KEPT] == 3


def _midpoints(ready: Any, big: int) -> dict[int, int]:
    """``midpoint_big`` toward every anchor only the double move reaches, after a fresh look's ``reach_big``."""
    m, st = ready.model, ready.state
    tacturn._begin(m, st, big)
    bigtactics.reach_big(m, st, big, 2)
    speed = int(ready.compiled.model.speed[big])
    r2c = ready.arrays["r2c"]
    goals = [q for q in range(r2c.shape[0]) if r2c[q] > speed]
    assert goals
    return {q: bigtactics.midpoint_big(m, st, big, q, speed) for q in goals}


@pytest.mark.rule("MOV-32")
def test_the_double_moves_searches_are_held_for_the_midpoint() -> None:
    """The midpoint reads the double move's two searches from their entries (held, not copied): however many
    other searches are made into the memory before it, those two are never made over, and the midpoints are the
    ones the copies (the memory off) give."""
    enc = room2()
    model, ready = _memo(enc)
    _play(enc, SEEDS[:1])
    m, st = ready.model, ready.state
    big = next(i for i, s in enumerate(model.fside) if s > 1)
    _forget(model, off=True)
    copied = _midpoints(ready, big)
    assert model.bw_kept[1] == -1 and model.bw_kept[2] == -1
    _forget(model)
    tacturn._begin(m, st, big)
    bigtactics.reach_big(m, st, big, 2)
    held = {int(model.bw_kept[1]), int(model.bw_kept[2])}
    assert len(held) == 2 and min(held) >= 0
    for _ in range(3 * model.fm_scal.shape[0]):  # every other entry made over with nonsense, again and again
        e = flymemo.claim(m)
        assert e not in held
        model.fm_dist[e, :] = 7
        model.fm_parent[e, :] = -1
    speed = int(model.speed[big])
    assert {q: bigtactics.midpoint_big(m, st, big, q, speed) for q in copied} == copied


def test_the_memory_keeps_what_fits_the_map() -> None:
    assert flymemo.entries(450, 8 * 9 * 450) == 340  # about 128 MB
    assert flymemo.entries(10_000, 8 * 9 * 10_000) == 15  # the largest map the kernel takes a big flier on
    assert flymemo.entries(40, 8 * 9 * 40) == 400  # at most 400
    assert flymemo.key_bytes(450) == 3_600 and flymemo.key_bytes(451) == 3_608


@pytest.mark.rule("MOV-32")
def test_each_kept_search_keeps_the_states_its_anchors_pick() -> None:
    """``flymemo.anchor_states``, worked out once per kept search and read again on every recall, is per anchor
    the state the search's own buffers give: the first the engine settles for a marked search
    (``bigpath.settled_at``), the cheapest total for the double move's searches (``bigpath.best_full``)."""
    enc = room2()
    model, _ = _memo(enc)
    _forget(model)
    _play(enc, SEEDS[:6])
    scal = model.fm_scal
    n = model.width * model.height
    heads = 9
    seen = set()
    for e in range(scal.shape[0]):
        if scal[e, flymemo._STAMP] == 0 or scal[e, flymemo._BEST] == 0:
            continue
        kind = int(scal[e, flymemo._KIND])
        stop = model.fm_key[e, 2 * n : 4 * n].astype(np.bool_).reshape(2, n)  # the occupancy it searched over
        dist, parent = model.fm_dist[e], model.fm_parent[e]
        if kind >= flymemo.MARKED:
            want = [bigpath.settled_at(dist, parent, stop, q, heads) for q in range(n)]
        else:
            want = [bigpath.best_full(dist, stop, q, heads) for q in range(n)]
        assert model.fm_best[e].tolist() == want
        seen.add(kind >= flymemo.MARKED)
    assert seen == {True, False}  # both kinds were kept and checked


def test_a_process_lets_old_memories_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """The encounters a process keeps compiled hold their big fliers' search memories together within
    ``run.MEMO_BYTES_KEPT``: building one more that would pass it lets the others go."""
    kernel_run._CACHE.clear()  # (whatever other tests left compiled in this process)
    enc = room2()
    model, _ = _memo(enc)
    size = kernel_run._memo_bytes(model)
    assert size == model.fm_dist.nbytes + model.fm_parent.nbytes and size > 100 << 20  # 340 searches kept
    other = room2.__wrapped__()  # the same room, another encounter
    kernel_run.compiled(other, TACTICAL)
    assert (id(enc), True) in kernel_run._CACHE and (id(other), True) in kernel_run._CACHE  # both fit
    monkeypatch.setattr(kernel_run, "MEMO_BYTES_KEPT", 2 * size)
    third = room2.__wrapped__()
    kernel_run.compiled(third, TACTICAL)
    assert list(kernel_run._CACHE) == [(id(third), True)]
