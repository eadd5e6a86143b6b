"""What every benchmark shares: a figure (a timing over repeats, with its spread) and the timer."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Figure:
    """One measured figure: the median and best of ``repeats`` runs, in milliseconds, with their spread.

    ``goal_ms`` is the figure's budget (None if it has none); ``details`` holds what the run produced (e.g. how
    many squares were reachable), so a change in the work done is visible next to a change in time.
    ``iqr_ms`` (interquartile range) and ``stdev_ms`` are None when the figure was built without its runs
    (one run, or a module that passes median and best only).
    """

    name: str
    description: str
    repeats: int
    median_ms: float
    best_ms: float
    goal_ms: float | None = None
    details: dict[str, Any] = field(default_factory=dict)
    iqr_ms: float | None = None
    stdev_ms: float | None = None
    mean_ms: float | None = None

    @classmethod
    def from_runs(
        cls,
        name: str,
        description: str,
        runs: Sequence[float],
        goal_ms: float | None = None,
        details: dict[str, Any] | None = None,
    ) -> Figure:
        """A figure from every run's time (ms): median, best, mean, IQR and standard deviation."""
        runs = list(runs)
        if len(runs) >= 2:
            q = statistics.quantiles(runs, n=4, method="inclusive")
            iqr, stdev = q[2] - q[0], statistics.stdev(runs)
        else:
            iqr = stdev = None
        return cls(name, description, len(runs), statistics.median(runs), min(runs), goal_ms, details or {},
                   iqr, stdev, statistics.fmean(runs))  # fmt: skip

    @property
    def within_goal(self) -> bool | None:
        return None if self.goal_ms is None else self.median_ms <= self.goal_ms

    def to_dict(self) -> dict[str, Any]:
        def r(v: float | None) -> float | None:
            return None if v is None else round(v, 4)

        return {
            "name": self.name,
            "description": self.description,
            "unit": "ms",
            "repeats": self.repeats,
            "median": r(self.median_ms),
            "best": r(self.best_ms),
            "mean": r(self.mean_ms),
            "iqr": r(self.iqr_ms),
            "stdev": r(self.stdev_ms),
            "goal": self.goal_ms,
            "within_goal": self.within_goal,
            "details": self.details,
        }


def runs_of(fn: Callable[[], object], repeat: int) -> list[float]:
    """Wall-clock time of each of ``repeat`` calls of ``fn``, in milliseconds."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t0) * 1000)
    return runs


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(median, best) wall-clock time of ``repeat`` calls of ``fn``, in milliseconds."""
    runs = runs_of(fn, repeat)
    return statistics.median(runs), min(runs)


#: How many turns the per-turn timings cover, from Begin.
TURNS = 8


def turn_times(enc: Any, seed: int) -> list[float]:
    """Milliseconds the simple policy takes for each of the first :data:`TURNS` turns of a seeded fight."""
    from sftactics.encounter.commands import Begin
    from sftactics.encounter.engine import Fight, pending
    from sftactics.encounter.policy import simple

    fight = Fight.seeded(enc, seed)
    fight.do(Begin())
    out = []
    for _ in range(TURNS):
        who = pending(fight.state)
        if who is None or fight.state.result is not None:
            break
        t0 = time.perf_counter()
        simple(fight, who)
        out.append((time.perf_counter() - t0) * 1000)
    return out
