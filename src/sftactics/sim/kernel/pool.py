"""Worker processes for the compiled kernel's batches (Linux: forked once the kernel is ready in the caller).

``sim.runner`` uses this when the kernel plays a simulation on two or more local workers. The calling process
has compiled the encounter and loaded numba's code (``kernel.run.prepare``); the workers are forked from it, so
they start with both at once. Each worker serves batches over its own pipe, one at a time, and answers with
the raw numbers of the fights (two small integer arrays, cheap to send: the caller turns them into results)
and the cover answers it computed (:mod:`sftactics.sim.kernel.share`); each batch sent to a worker carries the
answers the other workers found since its last one. Which worker plays which batch changes no result: a fight
depends only on its seed, and the caller puts the results back in index order.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
import traceback
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.sim.kernel.share import CoverShare, Entries, empty

#: The CPU seconds each worker of the last :func:`play_forked` in this process spent (a forked process starts
#: at zero): with the caller's own, what the workers cost beyond the fights (``bench/startup_bench.py``).
LAST_WORKER_CPU: list[float] = []

#: What a worker plays: fights ``start`` to ``stop - 1`` -> the kernel's fight and combatant arrays.
Play = Callable[[int, int], tuple[NDArray[np.int64], NDArray[np.int64]]]
#: What the caller does with a batch: ``(start, stop, fight_out, comb_out, error)``; on an error (the
#: worker's traceback) the arrays are None.
Deliver = Callable[[int, int, Any, Any, str | None], None]


def _serve(conn: Connection, play: Play, cache: Any) -> None:
    """A worker's loop: a batch in, its numbers and the new cover answers out, until told to stop (None)."""
    share = CoverShare(cache) if cache is not None else None
    while True:
        try:
            msg = conn.recv()
        except EOFError:  # the caller is gone
            return
        if msg is None:
            return
        start, stop, entries = msg
        if share is not None:
            share.take(entries)
        fights: Any = None
        rows: Any = None
        error = None
        try:
            fights, rows = play(start, stop)
        except Exception:  # reported fight by fight by the caller, as run_batch does
            error = traceback.format_exc()
        given = share.give() if share is not None else empty()
        conn.send((start, stop, fights, rows, error, given, time.process_time()))


def play_forked(play: Play, batches: list[tuple[int, int]], workers: int, cache: Any, deliver: Deliver) -> None:
    """Play ``batches`` on ``workers`` forked processes, calling ``deliver`` in this process as each batch
    comes back (in the order they finish). ``cache``: the encounter's cover cache (shared as described above;
    None: nothing shared)."""
    ctx = multiprocessing.get_context("fork")
    conns: list[Connection] = []
    procs: list[Any] = []
    try:
        for _ in range(min(workers, len(batches))):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(theirs, play, cache), daemon=True)
            proc.start()
            theirs.close()
            conns.append(mine)
            procs.append(proc)
        LAST_WORKER_CPU[:] = _feed(conns, batches, deliver)
    finally:
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.send(None)
            conn.close()
        for proc in procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.terminate()
                proc.join()


def _feed(conns: list[Connection], batches: list[tuple[int, int]], deliver: Deliver) -> list[float]:
    queue = deque(batches)
    cpu = [0.0] * len(conns)
    found: list[tuple[int, NDArray[np.int64], NDArray[np.int64]]] = []  # (worker, keys, values), in order
    seen = [0] * len(conns)  # how much of ``found`` each worker has been sent
    busy: dict[Connection, int] = {}

    def send(w: int) -> None:
        start, stop = queue.popleft()
        chunks = [(k, v) for who, k, v in found[seen[w] :] if who != w]
        seen[w] = len(found)
        entries: Entries = empty()
        if chunks:
            entries = (np.concatenate([k for k, _ in chunks]), np.concatenate([v for _, v in chunks]))
        conns[w].send((start, stop, entries))
        busy[conns[w]] = w

    for w in range(len(conns)):
        if queue:
            send(w)
    while busy:
        for conn in wait(list(busy)):
            assert isinstance(conn, Connection)
            w = busy.pop(conn)
            try:
                start, stop, fights, rows, error, (keys, values), cpu[w] = conn.recv()
            except EOFError:
                raise RuntimeError("a simulation worker process ended unexpectedly") from None
            if len(values):
                found.append((w, keys, values))
            if queue:
                send(w)  # before the results are turned into objects here, so that the worker goes on at once
            deliver(start, stop, fights, rows, error)
    return cpu
