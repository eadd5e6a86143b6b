"""Dice sources: the only place randomness enters the engine.

A :class:`DiceSource` is injected into every rule that rolls. Three kinds:

* :class:`SeededDice`  - a seeded generator: the same seed gives the same rolls on any machine;
* :class:`ScriptedDice` - a list of die results, for tests and replays; fails loudly when empty or impossible;
* :class:`ManualDice`  - asks a callback (a person at the table) for each result.

Every die rolled is recorded in ``history`` with its purpose, so results can be explained and replayed.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sftactics.core.errors import DiceError


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die result: a ``sides``-sided die showed ``result``, rolled for ``purpose``."""

    sides: int
    result: int
    purpose: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"sides": self.sides, "result": self.result, "purpose": self.purpose}


class DiceSource(ABC):
    """Gives die results and records them."""

    def __init__(self) -> None:
        self.history: list[DieRoll] = []

    def die(self, sides: int, purpose: str = "") -> int:
        """Roll one ``sides``-sided die for ``purpose`` and record it."""
        if sides < 1:
            raise DiceError(f"a die needs at least one side, not {sides}")
        result = self._next(sides, purpose)
        if not isinstance(result, int) or isinstance(result, bool) or not 1 <= result <= sides:
            raise DiceError(f"impossible result {result!r} for a d{sides} ({purpose or 'unnamed roll'})")
        self.history.append(DieRoll(sides, result, purpose))
        return result

    def snapshot(self) -> object:
        """Where the source stands now, to come back to with :meth:`restore` (a refused command)."""
        return len(self.history)

    def restore(self, snap: object) -> None:
        """Forget every die rolled since ``snap``: the next dice are the ones that would have come then."""
        assert isinstance(snap, int)
        del self.history[snap:]

    def d20(self, purpose: str = "") -> int:
        return self.die(20, purpose)

    def percentile(self, purpose: str = "") -> int:
        """A d% roll, 1-100 (GEN-15)."""
        return self.die(100, purpose)

    @abstractmethod
    def _next(self, sides: int, purpose: str) -> int:
        """The next raw result for a ``sides``-sided die."""


#: The seed the command line uses when none is given (every command: roll, attack, run, play, simulate...).
DEFAULT_SEED = 1


class SeededDice(DiceSource):
    """Reproducible pseudo-random dice (Mersenne Twister seeded with an integer)."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed
        self._rng = random.Random(seed)

    def _next(self, sides: int, purpose: str) -> int:
        return self._rng.randint(1, sides)

    def snapshot(self) -> object:
        return (len(self.history), self._rng.getstate())

    def restore(self, snap: object) -> None:
        assert isinstance(snap, tuple)
        count, state = snap
        del self.history[count:]
        self._rng.setstate(state)


class ScriptedDice(DiceSource):
    """Die results taken in order from a list. Raises :class:`DiceError` when the list runs out."""

    def __init__(self, results: Iterable[int]) -> None:
        super().__init__()
        self._results = list(results)
        self._pos = 0

    @property
    def remaining(self) -> int:
        return len(self._results) - self._pos

    def snapshot(self) -> object:
        return (len(self.history), self._pos)

    def restore(self, snap: object) -> None:
        assert isinstance(snap, tuple)
        count, self._pos = snap
        del self.history[count:]

    def _next(self, sides: int, purpose: str) -> int:
        if self._pos >= len(self._results):
            raise DiceError(
                f"scripted dice ran out: a d{sides} was needed for {purpose or 'a roll'} "
                f"after {len(self._results)} results"
            )
        r = self._results[self._pos]
        if not isinstance(r, int) or not 1 <= r <= sides:
            raise DiceError(
                f"scripted result #{self._pos + 1} ({r}) is impossible for the d{sides} "
                f"needed for {purpose or 'a roll'}"
            )
        self._pos += 1
        return r


class ManualDice(DiceSource):
    """Asks ``ask(sides, purpose)`` for each result (a person rolling physical dice)."""

    def __init__(self, ask: Callable[[int, str], int]) -> None:
        super().__init__()
        self._ask = ask

    def _next(self, sides: int, purpose: str) -> int:
        return self._ask(sides, purpose)
