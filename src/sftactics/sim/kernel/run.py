"""Fights played by the compiled kernel, as the simulation's :class:`~sftactics.sim.stats.FightResult` values.

:func:`kernel_batch` is what :func:`sftactics.sim.runner.run_batch` calls when the kernel plays a job: the
encounter is compiled once per process (:func:`compiled`), one numba call plays the whole batch, and the
numbers come back as the same results the engine's fights give (so reports, JSON, sweeps and the statistics
do not know which one played). :func:`kernel_log` plays one fight with its log, for people and tests.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.encounter.state import Encounter
from sftactics.sim.fight import death_cause
from sftactics.sim.kernel import abilities, geo, share, stealth, trace
from sftactics.sim.kernel import fight as kf
from sftactics.sim.kernel import loop as kl
from sftactics.sim.kernel.model import Compiled, compile_encounter
from sftactics.sim.morale import DEFAULT_MORALE, check
from sftactics.sim.stats import CombatantOutcome, FightResult

#: Causes of death by the kernel's code, as the engine's dead condition names them.
_WHY = {kf.CAUSE_MASSIVE: "massive damage", kf.CAUSE_ZERO_HP: "0 HP", kf.CAUSE_RP: "Resolve exhausted"}


@dataclass
class _Ready:
    encounter: Encounter
    compiled: Compiled
    state: Any
    model: Any
    who: list[tuple[str, str, bool]]  # per combatant: id, side, player character
    arrays: dict[str, Any]  # the state's arrays by name


_CACHE: dict[tuple[int, bool], _Ready] = {}

#: Policies the kernel plays, by name.
KERNEL_POLICIES = {"simple": kf.POLICY_SIMPLE, "tactical": kf.POLICY_TACTICAL}


def _buffers(m: Any) -> dict[str, Any]:
    """``new_state``'s sizes for the abilities and the tactical tables of model ``m``, and the map's caches."""
    return {"grenade_values": int(max(m.g_len.max(), m.ab.t_len.max())), "pools": int(m.ab.spent0.shape[1]),
            "area_cache": abilities.area_cache(m.map_id), "sight": bool(m.sight), "headings": int(m.hs),
            "pair": geo.pair_table(m.map_id)}  # fmt: skip


def compiled(enc: Encounter, policies: dict[str, str] | None = None, morale: Mapping[str, str] | None = None) -> _Ready:
    """The encounter compiled for the kernel, with its fight buffers (once per encounter and process), each
    combatant playing its side's policy (``policies``: side -> ``simple`` or ``tactical``; all simple if
    None) with its side's morale (``morale``: side or ``*`` -> a ``sim.morale`` name; by the book if None)."""
    policies = policies or {}
    found = _built(enc, "tactical" in policies.values())
    _set_policies(found, policies, morale or {})
    return found


def _built(enc: Encounter, tactical: bool) -> _Ready:
    key = (id(enc), tactical)
    found = _CACHE.get(key)
    if found is None or found.encounter is not enc:
        comp = compile_encounter(enc, tactical=tactical)
        m = comp.model
        state, arrays = kf.new_state(m.n, m.w_ok.shape[1], m.width * m.height, geo.cover_cache(m.map_id),
                                     **_buffers(m))  # fmt: skip
        _warm_lines(m.map_id)
        if len(_CACHE) > 16 or _memo_bytes() + _memo_bytes(comp.model) > MEMO_BYTES_KEPT:
            _CACHE.clear()
        who = [(comp.ids[c], comp.sides[int(m.side[c])], bool(m.pc[c])) for c in range(m.n)]
        found = _CACHE[key] = _Ready(enc, comp, state, kf.model_struct(m), who, arrays)
    return found


#: The most the big fliers' search memories (``flymemo``, about 128 MB a model at most) of the encounters kept in
#: a process may hold together: a sweep over many encounters with a big flier lets the older ones go.
MEMO_BYTES_KEPT = 512 << 20


def _memo_bytes(m: Any = None) -> int:
    """The bytes of model ``m``'s search memory (of every kept encounter's with ``m`` None)."""
    if m is None:
        return sum(_memo_bytes(r.compiled.model) for r in _CACHE.values())
    return int(m.fm_dist.nbytes + m.fm_parent.nbytes)


def _warm_lines(map_id: int) -> None:
    """Build the map's line tables and load the compiled lines (``kernel/trace.py``, about 0.2 s) now, with the
    kernel, rather than at the first miss of the cover cache (so forked workers inherit them too)."""
    trace.cover_answer(map_id, 0, 0, 1, np.full(9, -1, dtype=np.int64), 0)
    trace.line_answer(map_id, 0, 0, True)


def _set_policies(ready: _Ready, policies: dict[str, str], morale: Mapping[str, str]) -> None:
    pol = ready.arrays["pol"]
    codes = ready.arrays["morale"]
    for c, (_, side, _) in enumerate(ready.who):
        name = policies.get(side, policies.get("*", "simple"))
        if name not in KERNEL_POLICIES:
            raise ValueError(f"the compiled kernel plays the simple and tactical policies, not {name!r}")
        pol[c] = KERNEL_POLICIES[name]
        codes[c] = abilities.MORALE_CODES[check(morale.get(side, morale.get("*", DEFAULT_MORALE)))]


def code_cached() -> bool | None:
    """Whether numba holds the kernel's compiled code on disk, fresh for these sources and this numba (False:
    the first kernel fight of this installation compiles it, which takes minutes); None if numba does not say."""
    try:
        dispatcher: Any = kl.play_batch
        return bool(dispatcher._cache._cache_file._load_index())  # numba's own freshness test
    except Exception:  # a numba without these internals
        return None


#: Fights :func:`prepare` plays and drops: numba compiles the kernel's object-mode blocks (where a cache miss asks
#: Python) at their first run in each process, not from its disk cache (about 0.05-0.1 s each); run before the
#: workers are forked, the workers inherit them. (Results depend only on each fight's seed: nothing changes.)
WARM_FIGHTS = 8
WARM_SEED = 0x5F7A_C71C


def prepare(enc: Encounter, policies: dict[str, str] | None = None) -> None:
    """Make the kernel ready to play ``enc`` in this process: the encounter compiled (:func:`compiled`), numba's
    code for the batch loaded from its disk cache (compiled first, if it is not there) and its object-mode blocks
    compiled by :data:`WARM_FIGHTS` fights played and dropped. Worker processes forked afterwards inherit all of
    it (``sim.runner``)."""
    kernel_batch(enc, [], [], 1, policies)
    kernel_arrays(enc, [WARM_SEED + i for i in range(WARM_FIGHTS)], 50, policies)  # (results dropped)
    share.warm(cover_cache_of(enc, policies))


def cover_cache_of(enc: Encounter, policies: dict[str, str] | None = None) -> Any:
    """The cover cache the kernel's fights of ``enc`` use in this process (:func:`geo.cover_cache`)."""
    return geo.cover_cache(_built(enc, "tactical" in (policies or {}).values()).compiled.model.map_id)


def kernel_seed(seed: int) -> int:
    """The 32-bit seed numba's generator takes, folded from a 63-bit fight seed."""
    return (seed ^ (seed >> 32)) & 0xFFFF_FFFF


def kernel_arrays(
    enc: Encounter,
    seeds: list[int],
    max_rounds: int,
    policies: dict[str, str] | None = None,
    morale: Mapping[str, str] | None = None,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Play one fight per seed with the compiled kernel; the raw numbers: per fight the ``F_*`` columns, per
    fight and combatant the ``COLUMNS`` (:func:`kernel_results` turns them into results)."""
    ready = compiled(enc, policies, morale)
    m = ready.compiled.model
    k = len(seeds)
    fight_out = np.zeros((k, 4), dtype=np.int64)
    comb_out = np.zeros((k, m.n, kf.COLUMNS), dtype=np.int64)
    folded = np.array([kernel_seed(s) for s in seeds], dtype=np.int64)
    kl.play_batch(ready.model, ready.state, folded, max_rounds, fight_out, comb_out)
    return fight_out, comb_out


def kernel_results(
    enc: Encounter,
    seeds: list[int],
    indexes: list[int],
    max_rounds: int,
    fight_out: NDArray[np.int64],
    comb_out: NDArray[np.int64],
    policies: dict[str, str] | None = None,
) -> list[FightResult]:
    """:func:`kernel_arrays`' numbers as the results the engine's fights give (in any process that has
    compiled ``enc``: the worker that played them or the one that asked)."""
    ready = _built(enc, "tactical" in (policies or {}).values())
    if not seeds:
        return []
    fights, rows = fight_out.tolist(), comb_out.tolist()
    make = _Results(ready.compiled, ready.who, max_rounds)
    return [make(fights[i], rows[i], indexes[i], seeds[i]) for i in range(len(seeds))]


def kernel_batch(
    enc: Encounter,
    seeds: list[int],
    indexes: list[int],
    max_rounds: int,
    policies: dict[str, str] | None = None,
    morale: Mapping[str, str] | None = None,
) -> list[FightResult]:
    """Play one fight per seed with the compiled kernel; results as the engine's fights give them."""
    fight_out, comb_out = kernel_arrays(enc, seeds, max_rounds, policies, morale)
    return kernel_results(enc, seeds, indexes, max_rounds, fight_out, comb_out, policies)


def _result(
    comp: Compiled,
    who: list[tuple[str, str, bool]],
    f: list[int],
    rows: list[list[int]],
    *,
    index: int,
    seed: int,
    max_rounds: int,
) -> FightResult:
    return _Results(comp, who, max_rounds)(f, rows, index, seed)


class _Results:
    """Builds a batch's results: the words of a fight's end and of a death are the same for the same codes, so
    each is made once per batch (a batch of the benchmark spends about a tenth of its time here otherwise)."""

    def __init__(self, comp: Compiled, who: list[tuple[str, str, bool]], max_rounds: int) -> None:
        self.comp = comp
        self.who = who
        self.max_rounds = max_rounds
        self.ends: dict[tuple[int, int, int], tuple[str | None, str, str | None]] = {}
        self.deaths: dict[tuple[int, int, int, int, int], str] = {}

    def __call__(self, f: list[int], rows: list[list[int]], index: int, seed: int) -> FightResult:
        key = (f[kf.F_WINNER], f[kf.F_REASON], f[kf.F_CONCEDED])
        end = self.ends.get(key)
        if end is None:
            end = self.ends[key] = self._end(*key)
        deaths, outcome = self.deaths, _outcome
        ko_, died_, dying_, spent_ = kf.KO, kf.DIED, kf.DYING_END, kf.RP_SPENT
        lost_, dealt_, taken_ = kf.RP_LOST, kf.DEALT, kf.TAKEN
        cause_, ca_, cw_, da_, dw_ = kf.CAUSE, kf.CAUSE_A, kf.CAUSE_W, kf.DROP_A, kf.DROP_W
        outcomes = []
        for (cid, side, pc), r in zip(self.who, rows, strict=True):
            cause = None
            if r[died_]:
                dk = (r[cause_], r[ca_], r[cw_], r[da_], r[dw_])
                cause = deaths.get(dk)
                if cause is None:
                    cause = deaths[dk] = self._death(*dk)
            outcomes.append(outcome(cid, side, pc, r[ko_] != 0, r[died_] != 0, r[dying_] != 0, r[spent_],
                                    r[lost_], r[dealt_], r[taken_], cause))  # fmt: skip
        return _fight_result(index, seed, end[0], f[kf.F_ROUNDS], end[1], tuple(outcomes), end[2], None)

    def _end(self, won: int, why: int, gave_up: int) -> tuple[str | None, str, str | None]:
        """(winner, reason, conceded) as ``run_fight`` words them."""
        comp = self.comp
        winner = None if won < 0 else comp.sides[won]
        conceded = comp.sides[gave_up] if why == kf.REASON_CONCEDE else None
        if conceded is not None:
            reason = f"the {conceded} side retreats (CF-02)"  # as run_fight's EndCombat words it
        elif why == kf.REASON_LIMIT:
            reason = f"round limit {self.max_rounds} reached (CF-02)"  # as the engine's EndCombat words it
        elif winner is not None:
            reason = "no one on the other side can fight on (CF-02)"
        else:
            reason = "no one can fight on (CF-02)"
        return winner, reason, conceded

    def _death(self, why: int, a: int, w: int, drop_a: int, drop_w: int) -> str:
        src = _source(self.comp, a, w)
        dropped = _source(self.comp, drop_a, drop_w)
        return death_cause(_WHY.get(why, "unknown"), src, f"{dropped[0]} ({dropped[1]})" if dropped else None)


# The results are frozen dataclasses with slots, whose ``__init__`` sets each field through
# ``object.__setattr__``; setting the slots directly makes the same objects in half the time (a batch makes
# one result and one outcome per combatant for every fight). The unpacking below fails at import if a field
# is added; tests/sim/test_kernel_results.py compares these objects with the classes' own.
_new = object.__new__
_o_id, _o_side, _o_pc, _o_ko, _o_died, _o_dying, _o_spent, _o_lost, _o_dealt, _o_taken, _o_cause = (
    CombatantOutcome.__dict__[name].__set__ for name in CombatantOutcome.__slots__
)
_f_index, _f_seed, _f_winner, _f_rounds, _f_reason, _f_combatants, _f_conceded, _f_error = (
    FightResult.__dict__[name].__set__ for name in FightResult.__slots__
)


def _outcome(cid: str, side: str, pc: bool, ko: bool, died: bool, dying: bool, spent: int, lost: int, dealt: int,
             taken: int, cause: str | None) -> CombatantOutcome:  # fmt: skip
    """``CombatantOutcome(...)``, the fields in their order."""
    o: CombatantOutcome = _new(CombatantOutcome)
    _o_id(o, cid)
    _o_side(o, side)
    _o_pc(o, pc)
    _o_ko(o, ko)
    _o_died(o, died)
    _o_dying(o, dying)
    _o_spent(o, spent)
    _o_lost(o, lost)
    _o_dealt(o, dealt)
    _o_taken(o, taken)
    _o_cause(o, cause)
    return o


def _fight_result(
    index: int,
    seed: int,
    winner: str | None,
    rounds: int,
    reason: str,
    combatants: tuple[CombatantOutcome, ...],
    conceded: str | None,
    error: str | None,
) -> FightResult:
    """``FightResult(...)``, the fields in their order."""
    r: FightResult = _new(FightResult)
    _f_index(r, index)
    _f_seed(r, seed)
    _f_winner(r, winner)
    _f_rounds(r, rounds)
    _f_reason(r, reason)
    _f_combatants(r, combatants)
    _f_conceded(r, conceded)
    _f_error(r, error)
    return r


def _source(comp: Compiled, a: int, w: int) -> tuple[str, str] | None:
    if a < 0:
        return None
    weapons = comp.weapons[a]
    return comp.ids[a], weapons[w] if 0 <= w < len(weapons) else "?"


#: Log row kinds, by name (see :mod:`sftactics.sim.kernel.fight`).
LOG_KINDS = {
    kf.LOG_INIT: "initiative",
    kf.LOG_TURN: "turn",
    kf.LOG_MOVE: "move",
    kf.LOG_ATTACK: "attack",
    kf.LOG_DAMAGE: "damage",
    kf.LOG_SAVE: "save",
    kf.LOG_COND: "condition",
    kf.LOG_RESOLVE: "resolve",
    kf.LOG_GRENADE: "grenade",
    kf.LOG_END: "end",
    kf.LOG_DIE: "die",
    kf.LOG_PLAN: "plan",
    abilities.LOG_ABILITY: "ability",
    stealth.LOG_SEARCH: "search",
}


@dataclass(frozen=True)
class KernelFight:
    """One fight played by the kernel with its log: ``rows`` are ``(kind, round, a, b, c, d, e, f)`` tuples
    (see :data:`LOG_KINDS` and the writers in ``fight.py``); ``dice`` every die rolled, ``(sides, value)``."""

    result: FightResult
    rows: tuple[tuple[int, ...], ...]

    @property
    def dice(self) -> list[tuple[int, int]]:
        return [(r[2], r[3]) for r in self.rows if r[0] == kf.LOG_DIE]

    def of_kind(self, name: str) -> list[tuple[int, ...]]:
        code = next(k for k, v in LOG_KINDS.items() if v == name)
        return [r for r in self.rows if r[0] == code]


def kernel_fight(
    enc: Encounter,
    seed: int,
    *,
    script: list[int] | None = None,
    max_rounds: int = 50,
    log_rows: int = 100_000,
    policies: dict[str, str] | None = None,
    morale: Mapping[str, str] | None = None,
) -> KernelFight:
    """Play one fight with the kernel and keep its log (and, with ``script``, the dice given, in order)."""
    ready = compiled(enc, policies, morale)
    m = ready.compiled.model
    state, arrays = kf.new_state(m.n, m.w_ok.shape[1], m.width * m.height, geo.cover_cache(m.map_id),
                                 log_rows=log_rows, script=script, **_buffers(m))  # fmt: skip
    arrays["pol"][:] = ready.arrays["pol"]
    arrays["morale"][:] = ready.arrays["morale"]
    kl.play(ready.model, state, kernel_seed(seed), max_rounds)
    n = int(arrays["nlog"][0])
    if n > log_rows:
        raise ValueError(f"the fight's log has {n} rows, more than the {log_rows} kept: raise log_rows")
    sc = arrays["sc"]
    fights = np.array([[sc[kf.WINNER], sc[kf.ROUND], sc[kf.REASON_SC], sc[kf.CONCEDED]]])
    result = _result(ready.compiled, ready.who, fights.tolist()[0], arrays["res"].tolist(), index=0, seed=seed,
                     max_rounds=max_rounds)  # fmt: skip
    rows = tuple(tuple(int(v) for v in row) for row in arrays["log"][:n])
    return KernelFight(result, rows)


def build(echo: Callable[[str], None] = print, *, every: float = 10.0) -> float:
    """Compile the kernel's code now (both entry points: the batches ``simulate`` plays and the one fight with
    its log), saying what it does and, every ``every`` seconds, how long it has been at it; the seconds taken.
    Nothing to do (a fraction of a second) when numba's disk cache already holds it. ``make setup`` runs this
    (``python -m sftactics.sim.kernel.run``) so that the first simulation does not wait for it."""
    from sftactics.sim.benchmark import benchmark_encounter

    t0 = time.perf_counter()
    fresh = code_cached() is not True
    if fresh:
        echo("compiling the fight kernel (numba; once after an install or an upgrade, a minute or a few) ...")
    done = threading.Event()

    def tick() -> None:
        while not done.wait(every):
            echo(f"  still compiling ({time.perf_counter() - t0:.0f} s)")

    ticker = threading.Thread(target=tick, daemon=True)
    if fresh:
        ticker.start()
    try:
        enc = benchmark_encounter()
        policies = {side: "tactical" for side in enc.sides()}
        prepare(enc, policies)  # the batch entry point
        kernel_fight(enc, 1, max_rounds=1, log_rows=1_000, policies=policies)  # the one with the log
    finally:
        done.set()
    took = time.perf_counter() - t0
    echo(f"fight kernel {'compiled and cached' if fresh else 'already compiled'} ({took:.0f} s)")
    return took


if __name__ == "__main__":  # python -m sftactics.sim.kernel.run: what `make setup` runs
    from sftactics.sim.kernel.run import build as _build

    _build(lambda line: print(line, flush=True))
