"""What every benchmark shares: a figure (a timing over repeats) and the timer."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Figure:
    """One measured figure: the median and best of ``repeats`` runs, in milliseconds.

    ``goal_ms`` is the figure's budget (None if it has none); ``details`` holds what the run produced (e.g. how
    many squares were reachable), so a change in the work done is visible next to a change in time.
    """

    name: str
    description: str
    repeats: int
    median_ms: float
    best_ms: float
    goal_ms: float | None = None
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def within_goal(self) -> bool | None:
        return None if self.goal_ms is None else self.median_ms <= self.goal_ms

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "unit": "ms",
            "repeats": self.repeats,
            "median": round(self.median_ms, 4),
            "best": round(self.best_ms, 4),
            "goal": self.goal_ms,
            "within_goal": self.within_goal,
            "details": self.details,
        }


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(median, best) wall-clock time of ``repeat`` calls of ``fn``, in milliseconds."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t0) * 1000)
    return statistics.median(runs), min(runs)
