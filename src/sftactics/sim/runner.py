"""Running many independent fights: seed streams, batches, backends.

Fight ``i`` of a simulation with master seed ``S`` is played with the seed :func:`fight_seed` ``(S, i)`` (a
64-bit BLAKE2b hash of both, so streams never overlap in practice and any fight can be replayed alone). Fights
are grouped in batches of consecutive indices; a batch runs in one process, with fresh policies for every
fight. The results are put back in index order before they are aggregated, so a simulation's report depends
only on the scenario, the policies, the seed and the number of runs: not on the backend, the number of workers
or the batch size.

Backends:

* ``local``: the machine's cores. One worker runs in this process; more run in a
  :class:`~concurrent.futures.ProcessPoolExecutor`, each worker receiving the job once. When the compiled kernel
  plays on Linux, the workers are forked from this process once it has the kernel ready (code loaded, the
  encounter's tables built: :func:`sftactics.sim.kernel.run.prepare`), so they start at once; otherwise the
  ``forkserver`` start method where available, ``spawn`` elsewhere.
* ``dask``: the same batches as tasks on a Dask distributed cluster: the scheduler at ``scheduler`` (an
  address such as ``tcp://10.0.0.5:8786``; the workers need sftactics installed) or, with no address, a
  :class:`~dask.distributed.LocalCluster` of ``workers`` processes started for the run.
"""

from __future__ import annotations

import hashlib
import importlib
import multiprocessing
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Literal

from sftactics.encounter.state import Encounter
from sftactics.sim.fight import play_fight
from sftactics.sim.morale import DEFAULT_MORALE, Morale, check
from sftactics.sim.policies import make_policy, policy_names
from sftactics.sim.stats import FightResult, Summary, aggregate, failed_fight

Backend = Literal["local", "dask"]
#: Who plays the fights: ``compiled`` the numba kernel (simple policy, supported encounters), ``full`` the
#: engine, ``auto`` the kernel when it can play the job and the engine otherwise.
EngineChoice = Literal["auto", "compiled", "full"]
Progress = Callable[[int, int], None]


def fight_seed(master: int, index: int) -> int:
    """The seed of fight ``index`` of a simulation with master seed ``master`` (63 bits, deterministic)."""
    digest = hashlib.blake2b(f"sftactics-sim:{master}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class SimJob:
    """What every fight of a simulation shares: the starting encounter, the policy of each side (``"*"``: the
    default for sides not named), the master seed, the round limit and the morale of each side (``"*"`` as for
    policies; ``sim.morale``)."""

    encounter: Encounter
    policies: Mapping[str, str] = field(default_factory=lambda: {"*": "tactical"})
    seed: int = 0
    max_rounds: int = 50
    engine: EngineChoice = "auto"
    morale: Mapping[str, str] = field(default_factory=lambda: {"*": DEFAULT_MORALE})

    def __post_init__(self) -> None:
        known = set(policy_names())
        for side, name in self.policies.items():
            if name not in known:
                raise ValueError(f"unknown policy {name!r} for {side!r} (choose from {', '.join(sorted(known))})")
        sides = set(self.encounter.sides())
        for side in self.policies:
            if side != "*" and side not in sides:
                raise ValueError(f"no side named {side!r} in the scenario (sides: {', '.join(sorted(sides))})")
        if "*" not in self.policies and not sides <= set(self.policies):
            missing = ", ".join(sorted(sides - set(self.policies)))
            raise ValueError(f"no policy for the side(s) {missing}: give one, or a default '*'")
        for side, name in self.morale.items():
            check(name)
            if side != "*" and side not in sides:
                raise ValueError(f"morale: no side named {side!r} in the scenario (sides: {', '.join(sorted(sides))})")

    def policy_map(self) -> dict[str, str]:
        """The policy of every side of the encounter."""
        default = self.policies.get("*", "tactical")
        return {side: self.policies.get(side, default) for side in self.encounter.sides()}

    def morale_map(self) -> dict[str, Morale]:
        """The morale of every side of the encounter."""
        default = self.morale.get("*", DEFAULT_MORALE)
        return {side: check(self.morale.get(side, default)) for side in self.encounter.sides()}

    def kernel_refusals(self) -> list[str]:
        """Why the compiled kernel cannot play this job (empty: it can)."""
        from sftactics.sim.kernel.bigrefusals import big_tactical_refusals
        from sftactics.sim.kernel.model import unsupported

        out = [f"side {side}: the {name} policy (the kernel plays the simple and tactical policies)"
               for side, name in self.policy_map().items() if name not in ("simple", "tactical")]  # fmt: skip
        out += big_tactical_refusals(self.encounter, self.policy_map())
        return out + unsupported(self.encounter)  # every morale is the kernel's too (kernel.abilities)

    def compiled(self) -> bool:
        """Whether the compiled kernel plays this job (``engine``: auto, compiled or full). With ``compiled``
        a job the kernel cannot play raises ValueError with the reasons."""
        key = (id(self.encounter), tuple(sorted(self.policy_map().items())), self.engine,
               tuple(sorted(self.morale_map().items())))  # fmt: skip
        found = _KERNEL_OK.get(key)
        if found is None or found[0] is not self.encounter:
            if self.engine == "full":
                ok = False
            else:
                why = self.kernel_refusals()
                if why and self.engine == "compiled":
                    raise ValueError("the compiled kernel cannot play this simulation: " + "; ".join(why))
                ok = not why
            if len(_KERNEL_OK) > 64:
                _KERNEL_OK.clear()
            found = _KERNEL_OK[key] = (self.encounter, ok)
        return found[1]


_KERNEL_OK: dict[tuple[Any, ...], tuple[Encounter, bool]] = {}


def run_batch(job: SimJob, start: int, stop: int) -> list[FightResult]:
    """Play fights ``start`` to ``stop - 1`` of ``job`` (fresh policies for each fight; or the compiled kernel,
    see :meth:`SimJob.compiled`)."""
    if job.compiled():
        from sftactics.sim.kernel.run import kernel_batch

        indexes = list(range(start, stop))
        seeds = [fight_seed(job.seed, i) for i in indexes]
        try:
            return kernel_batch(job.encounter, seeds, indexes, job.max_rounds, job.policy_map(), job.morale_map())
        except Exception:  # kept and reported fight by fight, as the engine's failures are
            error = traceback.format_exc()
            return [failed_fight(i, seed, error) for i, seed in zip(indexes, seeds, strict=True)]
    out = []
    names = job.policy_map()
    morale = job.morale_map()
    for i in range(start, stop):
        policies = {side: make_policy(name, morale[side]) for side, name in names.items()}
        if job.encounter.ruleset == "sf2e":  # the 1E policies read 1E stat blocks: a 2E fight has its own
            from sftactics.encounter.sf2e.policy2e import simple2e

            policies = {"*": simple2e}
        seed = fight_seed(job.seed, i)
        try:
            out.append(play_fight(job.encounter, seed, policies, index=i, max_rounds=job.max_rounds))
        except Exception:  # one broken fight must not lose the others: kept with its seed and reported
            out.append(failed_fight(i, seed, traceback.format_exc()))
    return out


def make_batches(
    runs: int, workers: int, batch_size: int | None = None, *, largest: int = 64, per_worker: int = 8
) -> list[tuple[int, int]]:
    """Consecutive index ranges: by default about ``per_worker`` batches per worker (8), 1 to ``largest`` fights
    each (64 for the engine's fights; the compiled kernel's fights are a hundred to a thousand times cheaper:
    more and bigger batches, so that the workers finish together)."""
    if runs <= 0:
        return []
    if batch_size is None:
        batch_size = max(1, min(largest, runs // max(1, per_worker * workers)))
    return [(a, min(runs, a + batch_size)) for a in range(0, runs, batch_size)]


#: Batches per worker when the compiled kernel plays: a batch of the benchmark's tactical fights takes a few
#: tenths of a second, so the last ones leave a worker idle for little; each costs a few milliseconds to send.
KERNEL_BATCHES_PER_WORKER = 32
#: The first batch of each worker when the compiled kernel plays on several (then twice as many, and so on up
#: to the usual size; the last ones shrink the same way).
KERNEL_FIRST_BATCH = 8


def kernel_batches(runs: int, workers: int, batch_size: int | None = None) -> list[tuple[int, int]]:
    """The batches of a simulation the compiled kernel plays. With several workers and no ``batch_size``: about
    :data:`KERNEL_BATCHES_PER_WORKER` per worker, but each worker's first batches small and growing (a worker
    sends the cover answers it found with each batch, and the others receive them with their next one: the
    first fights meet most of the squares, so the sooner they are shared the fewer each worker computes too) and
    the last ones shrinking (so that the workers finish together)."""
    batches = make_batches(runs, workers, batch_size, largest=4096, per_worker=KERNEL_BATCHES_PER_WORKER)
    if batch_size is not None or workers <= 1 or len(batches) <= 1:
        return batches
    size = batches[0][1] - batches[0][0]
    head = [s for s in _doubling(KERNEL_FIRST_BATCH, size) for _ in range(workers)]
    tail = [s for s in reversed(_doubling(KERNEL_FIRST_BATCH, size // 2 + 1)) for _ in range(workers)]
    middle = runs - sum(head) - sum(tail)
    if middle < 0:
        return batches
    sizes = head + [size] * (middle // size) + ([middle % size] if middle % size else []) + tail
    out, a = [], 0
    for n in sizes:
        out.append((a, a + n))
        a += n
    return out


def _doubling(first: int, below: int) -> list[int]:
    out = []
    while first < below:
        out.append(first)
        first *= 2
    return out


# ---------------------------------------------------------------- local processes
_JOB: SimJob | None = None


def _init_worker(job: SimJob) -> None:
    global _JOB
    _JOB = job


def _run_in_worker(start: int, stop: int) -> list[FightResult]:
    assert _JOB is not None, "worker not initialised"
    return run_batch(_JOB, start, stop)


def _fork_ready(job: SimJob) -> bool:
    """Whether the workers of ``job`` are forked from this process, after the compiled kernel is made ready here
    (Linux, the kernel playing): they start with the kernel's code loaded and the encounter's tables built, in
    milliseconds, instead of each importing numba, building the tables and loading the code (seconds)."""
    return sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods() and job.compiled()


def _mp_context(job: SimJob | None = None) -> Any:
    if job is not None and _fork_ready(job):
        from sftactics.sim.kernel.run import prepare

        try:
            prepare(job.encounter, job.policy_map())  # what the forked workers inherit
            return multiprocessing.get_context("fork")
        except Exception:  # the workers will meet the same trouble and report it fight by fight (run_batch)
            pass
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["sftactics.sim.runner", "sftactics.sim.kernel.run"])
        return ctx
    return multiprocessing.get_context("spawn")


def _run_local(
    job: SimJob, batches: list[tuple[int, int]], workers: int, progress: Progress | None, runs: int
) -> list[FightResult]:
    results: list[FightResult] = []
    done = 0
    if workers <= 1 or len(batches) <= 1:
        for a, b in batches:
            results += run_batch(job, a, b)
            done += b - a
            if progress is not None:
                progress(done, runs)
        return results
    if _fork_ready(job):
        forked = _run_forked(job, batches, workers, progress, runs)
        if forked is not None:
            return forked
    with ProcessPoolExecutor(max_workers=workers, mp_context=_mp_context(job), initializer=_init_worker,
                             initargs=(job,)) as pool:  # fmt: skip
        pending: set[Future[list[FightResult]]] = {pool.submit(_run_in_worker, a, b) for a, b in batches}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                batch = fut.result()
                results += batch
                done += len(batch)
                if progress is not None:
                    progress(done, runs)
    return results


def _run_forked(
    job: SimJob, batches: list[tuple[int, int]], workers: int, progress: Progress | None, runs: int
) -> list[FightResult] | None:
    """The compiled kernel's batches on workers forked from this process once the kernel is ready here
    (``sim.kernel.pool``: the workers send back the fights' numbers and share their cover answers); None if
    the kernel cannot be made ready (the process pool then meets the trouble and reports it fight by fight)."""
    from sftactics.sim.kernel import pool
    from sftactics.sim.kernel import run as kr

    policies, morale = job.policy_map(), job.morale_map()
    try:
        kr.prepare(job.encounter, policies)
        cache = kr.cover_cache_of(job.encounter, policies)
    except Exception:
        return None
    results: list[FightResult] = []

    def seeds(a: int, b: int) -> list[int]:
        return [fight_seed(job.seed, i) for i in range(a, b)]

    def play(a: int, b: int) -> Any:
        return kr.kernel_arrays(job.encounter, seeds(a, b), job.max_rounds, policies, morale)

    def deliver(a: int, b: int, fights: Any, rows: Any, error: str | None) -> None:
        batch: list[FightResult] = []
        if error is None:
            try:
                batch = kr.kernel_results(job.encounter, seeds(a, b), list(range(a, b)), job.max_rounds, fights,
                                          rows, policies)  # fmt: skip
            except Exception:
                error = traceback.format_exc()
        if error is not None:
            batch = [failed_fight(i, s, error) for i, s in zip(range(a, b), seeds(a, b), strict=True)]
        results.extend(batch)
        if progress is not None:
            progress(len(results), runs)

    pool.play_forked(play, batches, workers, cache, deliver)
    return results


# ---------------------------------------------------------------- dask
class DaskSession:
    """A Dask client for one or more simulations: connected to ``scheduler``, or to a ``LocalCluster`` of
    ``workers`` processes started here (and closed with the session)."""

    def __init__(self, workers: int, scheduler: str | None = None) -> None:
        try:
            self.dd: Any = importlib.import_module("dask.distributed")
        except ImportError as e:  # pragma: no cover - depends on the installation
            raise RuntimeError("the dask backend needs dask[distributed]: pip install 'dask[distributed]'") from e
        self.cluster: Any = None
        if scheduler:
            self.client: Any = self.dd.Client(scheduler)
        else:
            self.cluster = self.dd.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            )
            self.client = self.dd.Client(self.cluster)
        self.workers = len(self.client.scheduler_info().get("workers", {})) or workers

    def run(
        self, job: SimJob, batches: list[tuple[int, int]], progress: Progress | None, runs: int
    ) -> list[FightResult]:
        shared = self.client.scatter(job, broadcast=True)
        futures = self.client.map(run_batch, [shared] * len(batches), [a for a, _ in batches],
                                  [b for _, b in batches], pure=False)  # fmt: skip
        results: list[FightResult] = []
        done = 0
        for fut in self.dd.as_completed(futures):
            batch = fut.result()
            results += batch
            done += len(batch)
            if progress is not None:
                progress(done, runs)
        return results

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def __enter__(self) -> DaskSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---------------------------------------------------------------- the entry point
def simulate(
    job: SimJob,
    runs: int,
    *,
    workers: int | None = None,
    backend: Backend = "local",
    scheduler: str | None = None,
    batch_size: int | None = None,
    progress: Progress | None = None,
    meta: Mapping[str, Any] | None = None,
    session: DaskSession | None = None,
) -> Summary:
    """Play ``runs`` fights of ``job`` and aggregate them. ``workers``: processes (default: every core for
    ``local``, the cluster's size or every core for ``dask``)."""
    results, used, elapsed = simulate_results(
        job,
        runs,
        workers=workers,
        backend=backend,
        scheduler=scheduler,
        batch_size=batch_size,
        progress=progress,
        session=session,
    )
    summary = aggregate(results)
    info: dict[str, Any] = {
        "scenario": job.encounter.name,
        "runs": runs,
        "seed": job.seed,
        "policies": job.policy_map(),
        "max_rounds": job.max_rounds,
        "morale": job.morale_map(),
        "engine": "compiled" if job.compiled() else "full",
        "fights_by": {"kernel": runs if job.compiled() else 0, "engine": 0 if job.compiled() else runs},
    }
    info.update(meta or {})
    summary.meta.update(info)
    summary.timing.update(
        {
            "backend": backend,
            "workers": used,
            "seconds": elapsed,
            "fights_per_second": runs / elapsed if elapsed > 0 else None,
            "fights_per_second_per_worker": runs / elapsed / used if elapsed > 0 and used else None,
        }
    )
    return summary


def simulate_results(
    job: SimJob,
    runs: int,
    *,
    workers: int | None = None,
    backend: Backend = "local",
    scheduler: str | None = None,
    batch_size: int | None = None,
    progress: Progress | None = None,
    session: DaskSession | None = None,
) -> tuple[list[FightResult], int, float]:
    """The fights' results in index order, the number of workers used and the seconds it took."""
    if runs < 1:
        raise ValueError("runs must be at least 1")
    n = workers if workers is not None else (os.cpu_count() or 1)
    if n < 1:
        raise ValueError("workers must be at least 1")
    batches = kernel_batches(runs, n, batch_size) if job.compiled() else make_batches(runs, n, batch_size)
    t0 = time.perf_counter()
    if backend == "local":
        if scheduler:
            raise ValueError("--scheduler is for the dask backend")
        results = _run_local(job, batches, n, progress, runs)
        used = min(n, len(batches))
    elif backend == "dask":
        if session is not None:
            results, used = session.run(job, batches, progress, runs), session.workers
        else:
            with DaskSession(n, scheduler) as own:
                results, used = own.run(job, batches, progress, runs), own.workers
    else:
        raise ValueError(f"unknown backend {backend!r} (local or dask)")
    elapsed = time.perf_counter() - t0
    results.sort(key=lambda r: r.index)
    return results, used, elapsed


def parse_policies(default: str, per_side: Iterable[str] = ()) -> dict[str, str]:
    """``{"*": default}`` plus ``SIDE=POLICY`` entries (as the command line gives them)."""
    out = {"*": default}
    for item in per_side:
        side, sep, name = item.partition("=")
        if not sep or not side.strip() or not name.strip():
            raise ValueError(f"expected SIDE=POLICY, not {item!r}")
        out[side.strip()] = name.strip()
    return out
