"""Timing of the rules kernel's hot paths and one encounter turn, with a raw numpy baseline measured in the same
run (every figure is also reported as a ratio to it: see ``run.py`` and ``check.py``).

* ``numpy_baseline``: ``numpy.random.default_rng(seed).integers(1, 21, size=N)`` (a million d20s in one call);
  the dice figures' details give nanoseconds per die for both and their ratio (``x_numpy_per_die``);
* ``dice_scalar``: N calls of ``SeededDice(seed).die(20)`` (each recorded in the history);
* ``dice_batched``: N // 4 rolls of the parsed expression ``"2d6+1d8+3"`` with ``sftactics.dice.roll``;
* ``attack_odds``: the exact distribution of a whole attack (``attack_odds``, +9 against AC 15, 1d6+5 damage,
  rebuilt each time: the function is not cached);
* ``resolve_attack``: one attack resolved end to end (``tests/builders.py``: a 4th-level soldier's baton
  against the CR 2 alien);
* ``encounter_turn``: one turn of ``policy.simple`` in the derelict ambush scenario (the first eight turns after
  ``Begin``, averaged), on a fresh ``Fight`` each repeat.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import numpy as np
from common import TURNS, Figure, runs_of, turn_times

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.builders import npc, pc  # noqa: E402

from sftactics.dice import parse, roll  # noqa: E402
from sftactics.dice.distribution import attack_odds  # noqa: E402
from sftactics.dice.source import SeededDice  # noqa: E402
from sftactics.io.scenario import load_scenario  # noqa: E402
from sftactics.sf1e.attack import resolve_attack  # noqa: E402

NAME = "core"
DESCRIPTION = "dice against a numpy baseline, exact attack odds, one attack, one encounter turn"
N_DICE = 100_000
N_NUMPY = 1_000_000  # large enough to time well above the timer's resolution
SCENARIO = ROOT / "examples" / "scenarios" / "derelict-ambush.yaml"


def setup() -> dict[str, object]:
    return {
        "dice": N_DICE,
        "expression": "2d6+1d8+3",
        "attack": "+9 vs AC 15, 1d6+5",
        "scenario": str(SCENARIO.relative_to(ROOT)),
        "turns_per_repeat": TURNS,
    }


def run(quick: bool = False) -> list[Figure]:
    n = N_DICE // 20 if quick else N_DICE
    rep = 3 if quick else 15
    figures: list[Figure] = []

    def numpy_base() -> object:
        return np.random.default_rng(1).integers(1, 21, size=N_NUMPY)

    numpy_base()
    base = Figure.from_runs("numpy_baseline", f"numpy: {N_NUMPY} d20s in one call (the reference)",
                            runs_of(numpy_base, 30), None, {"dice": N_NUMPY})  # fmt: skip
    figures.append(base)
    ns_numpy = base.median_ms * 1e6 / N_NUMPY

    def per_die(median_ms: float, dice: int) -> dict[str, float]:
        ns = median_ms * 1e6 / dice
        return {"ns_per_die": round(ns, 1), "numpy_ns_per_die": round(ns_numpy, 2),
                "x_numpy_per_die": round(ns / ns_numpy, 1)}  # fmt: skip

    def scalar() -> object:
        d = SeededDice(1)
        for _ in range(n):
            d.die(20)
        return d

    f = Figure.from_runs("dice_scalar", f"SeededDice.die(20), {n} times", runs_of(scalar, rep))
    figures.append(Figure(**{**f.__dict__, "details": {"dice": n, **per_die(f.median_ms, n)}}))

    expr = parse("2d6+1d8+3")
    m = n // 4

    def batched() -> object:
        d = SeededDice(1)
        for _ in range(m):
            roll(expr, d)
        return d

    f = Figure.from_runs("dice_batched", f"roll('2d6+1d8+3'), {m} times ({3 * m} dice)", runs_of(batched, rep))
    figures.append(Figure(**{**f.__dict__, "details": {"rolls": m, "dice": 3 * m, **per_die(f.median_ms, 3 * m)}}))

    dmg = parse("1d6+5")
    odds = attack_odds(9, 15, dmg)
    figures.append(Figure.from_runs("attack_odds", "exact odds of one attack (+9 vs AC 15, 1d6+5 damage)",
                                    runs_of(lambda: attack_odds(9, 15, dmg), rep * 20), None,
                                    {"hit": str(odds.hit),
                                     "expected_damage": round(float(odds.expected_damage), 4)}))  # fmt: skip

    att, dfn = pc(), npc()
    dice = SeededDice(1)

    def one_attack() -> object:
        return resolve_attack(att, dfn, "tactical baton", dice)

    one_attack()
    figures.append(Figure.from_runs("resolve_attack", "one attack resolved end to end (baton vs CR 2 alien)",
                                    runs_of(one_attack, rep * 20), None, {}))  # fmt: skip

    enc = load_scenario(SCENARIO)
    turn_times(enc, 0)  # warm-up: parsed map, tables, caches
    per_turn: list[float] = []
    for i in range(rep if not quick else 2):
        per_turn.append(statistics.fmean(turn_times(enc, 100 + i)))
    figures.append(Figure.from_runs("encounter_turn", f"one turn of policy.simple, derelict ambush (mean of "
                                    f"the first {TURNS} turns after Begin, per repeat)", per_turn, None,
                                    {"combatants": len(enc.combatants)}))  # fmt: skip
    return figures
