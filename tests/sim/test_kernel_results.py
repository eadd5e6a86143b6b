"""The compiled kernel's numbers become the same results from one version to the next.

Speed work on the kernel (``sim/kernel/run.py`` turning a batch's arrays into
:class:`~sftactics.sim.stats.FightResult` values) must not change a single field: the conversion is compared
with the plain one it replaced, over every way a fight ends and every cause of death; and a fixed list of the
benchmark's fights played by the kernel gives, field for field, the results recorded before that work (a
deliberate change of a rule the benchmark plays changes that digest too: record the new one and say so).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

import numpy as np

from sftactics.encounter.state import Encounter
from sftactics.sim.benchmark import benchmark_encounter
from sftactics.sim.fight import death_cause
from sftactics.sim.kernel import fight as kf
from sftactics.sim.kernel import run as kernel_run
from sftactics.sim.kernel.model import compile_encounter
from sftactics.sim.kernel.run import kernel_batch
from sftactics.sim.runner import fight_seed
from sftactics.sim.stats import CombatantOutcome, FightResult


@cache
def _benchmark() -> Encounter:
    return benchmark_encounter()


def _plain_result(comp: Any, who: list[tuple[str, str, bool]], f: list[int], rows: list[list[int]], index: int,
                  seed: int, max_rounds: int) -> FightResult:  # fmt: skip
    """The conversion as ``run._result`` wrote it before its words were cached: every field built afresh."""
    winner = None if f[kf.F_WINNER] < 0 else comp.sides[f[kf.F_WINNER]]
    conceded = comp.sides[f[kf.F_CONCEDED]] if f[kf.F_REASON] == kf.REASON_CONCEDE else None
    if conceded is not None:
        reason = f"the {conceded} side retreats (CF-02)"
    elif f[kf.F_REASON] == kf.REASON_LIMIT:
        reason = f"round limit {max_rounds} reached (CF-02)"
    elif winner is not None:
        reason = "no one on the other side can fight on (CF-02)"
    else:
        reason = "no one can fight on (CF-02)"

    def source(a: int, w: int) -> tuple[str, str] | None:
        if a < 0:
            return None
        weapons = comp.weapons[a]
        return comp.ids[a], weapons[w] if 0 <= w < len(weapons) else "?"

    why = {kf.CAUSE_MASSIVE: "massive damage", kf.CAUSE_ZERO_HP: "0 HP", kf.CAUSE_RP: "Resolve exhausted"}
    outcomes = []
    for (cid, side, pc), r in zip(who, rows, strict=True):
        cause = None
        if r[kf.DIED]:
            dropped = source(r[kf.DROP_A], r[kf.DROP_W])
            cause = death_cause(why.get(r[kf.CAUSE], "unknown"), source(r[kf.CAUSE_A], r[kf.CAUSE_W]),
                                f"{dropped[0]} ({dropped[1]})" if dropped else None)  # fmt: skip
        outcomes.append(CombatantOutcome(cid, side, pc, bool(r[kf.KO]), bool(r[kf.DIED]), bool(r[kf.DYING_END]),
                                         r[kf.RP_SPENT], r[kf.RP_LOST], r[kf.DEALT], r[kf.TAKEN], cause))  # fmt: skip
    return FightResult(index, seed, winner, f[kf.F_ROUNDS], reason, tuple(outcomes), conceded)


def test_the_numbers_become_the_same_results_as_before() -> None:
    """``run._Results`` (the words of ends and deaths made once per batch) gives, field for field, what the
    plain conversion gives, over every way a fight ends and every cause of death (pure Python: no kernel)."""
    comp = compile_encounter(_benchmark())
    m = comp.model
    who = [(comp.ids[c], comp.sides[int(m.side[c])], bool(m.pc[c])) for c in range(m.n)]
    rng = np.random.default_rng(5)
    k = 400
    fights = np.zeros((k, 4), dtype=np.int64)
    fights[:, kf.F_WINNER] = rng.integers(-1, 2, k)
    fights[:, kf.F_ROUNDS] = rng.integers(1, 51, k)
    fights[:, kf.F_REASON] = rng.integers(0, 3, k)
    fights[:, kf.F_CONCEDED] = rng.integers(-1, 2, k)
    rows = np.zeros((k, m.n, kf.COLUMNS), dtype=np.int64)
    spans = [(kf.KO, 0, 2), (kf.DIED, 0, 2), (kf.DYING_END, 0, 2), (kf.RP_SPENT, 0, 7), (kf.RP_LOST, 0, 7),
             (kf.DEALT, 0, 120), (kf.TAKEN, 0, 90), (kf.CAUSE, 0, 5), (kf.CAUSE_A, -1, m.n), (kf.CAUSE_W, -1, 5),
             (kf.DROP_A, -1, m.n), (kf.DROP_W, -1, 5)]  # fmt: skip
    for col, lo, hi in spans:
        rows[:, :, col] = rng.integers(lo, hi, (k, m.n))
    f, r = fights.tolist(), rows.tolist()
    make = kernel_run._Results(comp, who, 50)
    got = [make(f[i], r[i], i, 1000 + i) for i in range(k)]
    assert got == [_plain_result(comp, who, f[i], r[i], i, 1000 + i, 50) for i in range(k)]
    assert {g.reason for g in got} >= {"round limit 50 reached (CF-02)", "no one can fight on (CF-02)"}
    assert {c.death_cause for g in got for c in g.combatants} > {None}


#: The simple policy's fights 0..399 of seed 0 on the benchmark (``fight_seed(0, i)``): the digest of every
#: result's fields, the party's wins, the rounds and the deaths, recorded from the kernel before the speed work.
RECORDED = {"digest": "977113190db3b624", "party_wins": 400, "rounds": 2056, "deaths": 1600}


def test_a_fixed_seed_list_gives_the_recorded_results() -> None:
    n = 400
    results = kernel_batch(_benchmark(), [fight_seed(0, i) for i in range(n)], list(range(n)), 50, {"*": "simple"})
    text = json.dumps([r.to_dict() for r in results], sort_keys=True)
    assert {
        "digest": hashlib.sha256(text.encode()).hexdigest()[:16],
        "party_wins": sum(r.winner == "party" for r in results),
        "rounds": sum(r.rounds for r in results),
        "deaths": sum(c.died for r in results for c in r.combatants),
    } == RECORDED
