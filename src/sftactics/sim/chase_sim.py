"""Many vehicle chases: ``sftactics simulate`` on a chase scenario answers "does the party catch them, and how
often does a vehicle break?" with win rates and Wilson 95% intervals (:mod:`sftactics.sim.stats`).

Each chase is played by the engine's chase runner on the chase policy (:mod:`sftactics.encounter.chase_policy`)
with its own seed derived from the master seed (:func:`sftactics.sim.runner.fight_seed`), so a run is
reproducible and any one chase can be replayed with ``sftactics chase SCENARIO --seed S``. The compiled kernel
does not play chases.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sftactics.dice.source import SeededDice
from sftactics.encounter.chase import ChaseFight
from sftactics.encounter.chase_policy import auto_play
from sftactics.encounter.chase_state import ChaseEncounter, ChaseResult
from sftactics.sim.runner import fight_seed
from sftactics.sim.stats import Estimate, Proportion, mean_estimate


@dataclass(frozen=True, slots=True)
class ChaseSummary:
    name: str
    runs: int
    seed: int
    goal: str
    wins: dict[str, Proportion]
    undecided: Proportion
    goal_met: Proportion
    broken: dict[str, Proportion]
    wrecked: dict[str, Proportion]
    escaped: dict[str, Proportion]
    any_broken: Proportion
    rounds: Estimate
    seeds: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.name,
            "runs": self.runs,
            "seed": self.seed,
            "goal": self.goal,
            "goal_met": self.goal_met.to_dict(),
            "wins": {k: v.to_dict() for k, v in self.wins.items()},
            "undecided": self.undecided.to_dict(),
            "any_vehicle_broken": self.any_broken.to_dict(),
            "broken": {k: v.to_dict() for k, v in self.broken.items()},
            "wrecked": {k: v.to_dict() for k, v in self.wrecked.items()},
            "escaped": {k: v.to_dict() for k, v in self.escaped.items()},
            "rounds": self.rounds.to_dict(),
        }


def play_one(start: ChaseEncounter, seed: int) -> ChaseResult:
    fight = auto_play(ChaseFight(start, SeededDice(seed), seed=seed))
    assert fight.state.result is not None
    return fight.state.result


def simulate_chase(
    start: ChaseEncounter, runs: int, *, seed: int, progress: Callable[[int, int], None] | None = None
) -> ChaseSummary:
    """Play ``runs`` chases and summarise them."""
    results: list[ChaseResult] = []
    seeds = tuple(fight_seed(seed, i) for i in range(runs))
    for i, s in enumerate(seeds):
        results.append(play_one(start, s))
        if progress is not None:
            progress(i + 1, runs)
    sides = start.sides()
    vids = [cv.id for cv in start.chase.vehicles]
    n = len(results)

    def count(pred: Callable[[ChaseResult], bool]) -> Proportion:
        return Proportion(sum(1 for r in results if pred(r)), n)

    g = start.goal
    return ChaseSummary(
        name=start.name,
        runs=n,
        seed=seed,
        goal=f"{g.side} want to {g.wants}",
        wins={s: count(lambda r, s=s: r.winner == s) for s in sides},  # type: ignore[misc]
        undecided=count(lambda r: r.winner is None),
        goal_met=count(lambda r: r.winner == g.side),
        broken={v: count(lambda r, v=v: v in r.broken or v in r.wrecked) for v in vids},  # type: ignore[misc]
        wrecked={v: count(lambda r, v=v: v in r.wrecked) for v in vids},  # type: ignore[misc]
        escaped={v: count(lambda r, v=v: v in r.escaped) for v in vids},  # type: ignore[misc]
        any_broken=count(lambda r: bool(r.broken or r.wrecked)),
        rounds=mean_estimate([float(r.rounds) for r in results]),
        seeds=seeds,
    )


def summary_lines(s: ChaseSummary) -> list[str]:
    out = [
        f"{s.name}: {s.runs} chases (master seed {s.seed}); {s.goal}",
        f"  goal met: {s.goal_met.describe()}",
    ]
    for side, p in s.wins.items():
        out.append(f"  {side} win: {p.describe()}")
    out.append(f"  undecided (round limit): {s.undecided.describe()}")
    out.append(f"  a vehicle broken or wrecked: {s.any_broken.describe()}")
    out.append(f"  rounds: {s.rounds.value:.1f} [{s.rounds.low:.1f}-{s.rounds.high:.1f}]")
    out.append("  vehicle          broken or wrecked   wrecked            escaped")
    for v in s.broken:
        out.append(f"  {v:<16} {s.broken[v].describe():<19} {s.wrecked[v].describe():<18} {s.escaped[v].describe()}")
    return out


__all__ = ["ChaseSummary", "play_one", "simulate_chase", "summary_lines"]
