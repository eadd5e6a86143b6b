"""A table's fight in memory, kept in step with its event log in the store.

The state is never saved as such: it is the replay of the recorded events over the starting state (the
engine's own :func:`~sftactics.encounter.events.replay`), from the last snapshot when there is one. The dice are
one seeded stream per fight: every die the engine asks for moves it by one roll, whether the server rolled it
or a player typed the result in (the typed result replaces the stream's), so the stream's position is a
function of the dice recorded in the ``dice_rolled`` events and a reload continues it exactly. A GM undo takes
back the last command still standing and rewinds the stream, as :meth:`Fight.undo
<sftactics.encounter.engine.Fight.undo>` does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sftactics.core.errors import CommandError, SftError
from sftactics.dice.source import DiceSource
from sftactics.encounter.commands import Command
from sftactics.encounter.engine import step
from sftactics.encounter.events import EVENT_ADAPTER, Event, replay
from sftactics.encounter.state import Encounter
from sftactics.table.store import CommandRow, Conflict, Snapshot, Store

#: A snapshot is saved after this many events since the last one.
SNAPSHOT_EVERY = 100
#: The last events kept in memory for the seats' streams (older ones are read from the store).
RECENT = 2000
UNDO_EVENT = "table_undo"


class Stale(SftError):
    """The command was made against an older state than the fight's (its ``seq`` is behind)."""

    def __init__(self, expected: int, got: int) -> None:
        super().__init__(f"the fight has moved on: it is at event {expected}, the command was made at {got}")
        self.expected = expected
        self.got = got


class TableDice(DiceSource):
    """The fight's seeded stream; results typed in by a player replace the stream's, one die at a time, for
    the rolls of the player's own combatants (``owners``: a roll's purpose starts with its roller's name; None:
    any roll, as the GM types them)."""

    def __init__(self, rng: random.Random, typed: Sequence[int] = (), owners: Sequence[str] | None = None) -> None:
        super().__init__()
        self.rng = rng
        self.typed = list(typed)
        self.owners = None if owners is None else tuple(owners)

    def _mine(self, purpose: str) -> bool:
        return self.owners is None or any(purpose == o or purpose.startswith(f"{o} ") for o in self.owners)

    def _next(self, sides: int, purpose: str) -> int:
        rolled = self.rng.randint(1, sides)
        return self.typed.pop(0) if self.typed and self._mine(purpose) else rolled

    def snapshot(self) -> object:
        return (len(self.history), self.rng.getstate(), list(self.typed))

    def restore(self, snap: object) -> None:
        assert isinstance(snap, tuple)
        count, state, typed = snap
        del self.history[count:]
        self.rng.setstate(state)
        self.typed = typed


@dataclass
class LiveFight:
    """The fight as the store says it stands: state, dice stream, last command number and event number."""

    table_id: str
    start: Encounter
    seed: int
    state: Encounter
    rng: random.Random
    n: int = 0
    seq: int = 0
    snap_seq: int = 0
    standing: list[CommandRow] = field(default_factory=list)  # commands still standing (empty after a snapshot)
    recent: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)  # (seq, command n, event)
    recent_from: int = 1  # ``recent`` holds every event from this sequence number on
    undone: set[int] = field(default_factory=set)  # commands taken back

    def _remember(self, first_seq: int, n: int, events: Sequence[dict[str, Any]]) -> None:
        self.recent.extend((first_seq + i, n, e) for i, e in enumerate(events))
        if len(self.recent) > RECENT:
            del self.recent[: len(self.recent) - RECENT]
            self.recent_from = self.recent[0][0]

    def events_since(self, seq: int) -> list[tuple[int, dict[str, Any]]] | None:
        """The events after ``seq`` without those of commands taken back, from memory; None when they are older
        than what memory holds (read them from the store)."""
        if seq + 1 < self.recent_from:
            return None
        return [(q, e) for q, n, e in self.recent if q > seq and n not in self.undone]

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(cls, store: Store, table_id: str, *, snapshots: bool = True) -> LiveFight:
        row = store.fight(table_id)
        start = Encounter.model_validate_json(row.start)
        live = cls(table_id, start, row.seed, start, random.Random(row.seed))
        snap = store.snapshot(table_id) if snapshots else None
        if snap is not None:
            live.state = Encounter.model_validate_json(snap.state)
            live.rng.setstate(_rng_state(snap.rng))
            live.n, live.seq, live.snap_seq = snap.n, snap.seq, snap.seq
            live.recent_from = snap.seq + 1
        tail = store.commands_after(table_id, live.n)
        if snap is not None and any(c.kind == "undo" for c in tail):
            return cls.load(store, table_id, snapshots=False)
        live._take(tail)
        return live

    def _take(self, rows: Sequence[CommandRow]) -> None:
        """Apply recorded commands (already in the store) to the state, the stream and the counters."""
        for c in rows:
            self._remember(c.first_seq, c.n, c.events)
            if c.kind == "undo":
                self.undone.add(int(c.command["undo"]))
                self.standing.pop()
                self.state, self.rng = _rebuild(self.start, self.seed, self.standing)
            else:
                events = _parse(c.events)
                self.state = replay(self.state, events)
                _advance(self.rng, events)
                self.standing.append(c)
            self.n, self.seq = c.n, c.last_seq

    def catch_up(self, store: Store) -> bool:
        """Take what other processes recorded since; True when something was new."""
        n, _ = store.head(self.table_id)
        if n == self.n:
            return False
        tail = store.commands_after(self.table_id, self.n)
        if any(c.kind == "undo" for c in tail) and self.snap_seq:
            fresh = LiveFight.load(store, self.table_id, snapshots=False)
            self.__dict__.update(fresh.__dict__)
            return True
        self._take(tail)
        return True

    # ------------------------------------------------------------------ commands
    def do(
        self,
        store: Store,
        seat: str,
        command: Command,
        against: int,
        typed: Sequence[int] = (),
        owners: Sequence[str] | None = None,
    ) -> list[Event]:
        """Validate ``command`` with the engine and record its events; the new events. RuleViolation (nothing
        recorded, the stream unmoved) when the engine refuses it; :class:`Stale` when ``against`` is not the
        fight's last event. ``typed``: die results for the rolls of ``owners`` (None: any roll)."""
        self.catch_up(store)
        if against != self.seq:
            raise Stale(self.seq, against)
        dice = TableDice(self.rng, typed, owners)
        mark = dice.snapshot()
        try:
            result = step(self.state, command, dice)
        except SftError:
            dice.restore(mark)
            raise
        if dice.typed:
            used = len(typed) - len(dice.typed)
            dice.restore(mark)
            raise CommandError("dice", f"{len(typed)} dice typed but this command rolls only {used} of yours")
        events = result.events
        if not events:
            return []
        data = [e.model_dump(mode="json") for e in events]
        record = {"command": command.model_dump(mode="json"), "typed": list(typed)}
        try:
            last = store.append(self.table_id, self.n + 1, "command", seat, record, data, self.seq + 1)
        except Conflict:
            dice.restore(mark)
            self.catch_up(store)
            raise Stale(self.seq, against) from None
        row = CommandRow(self.n + 1, "command", seat, record, self.seq + 1, last, tuple(data))
        self.state = result.state
        self.standing.append(row)
        self._remember(row.first_seq, row.n, data)
        self.n, self.seq = row.n, last
        if self.seq - self.snap_seq >= SNAPSHOT_EVERY:
            store.save_snapshot(self.table_id, self.snapshot())
            self.snap_seq = self.seq
        return events

    def undo(self, store: Store, seat: str, against: int) -> int:
        """Take back the last command still standing (GM); the number of the command taken back."""
        self.catch_up(store)
        if against != self.seq:
            raise Stale(self.seq, against)
        if self.snap_seq:  # the commands before the snapshot are needed to know what is standing
            fresh = LiveFight.load(store, self.table_id, snapshots=False)
            self.__dict__.update(fresh.__dict__)
        if not self.standing:
            raise SftError("nothing to undo")
        last = self.standing[-1]
        marker = {"type": UNDO_EVENT, "undone": last.n}
        try:
            seq = store.append(self.table_id, self.n + 1, "undo", seat, {"undo": last.n}, [marker], self.seq + 1,
                               drop_snapshots_from=last.first_seq)  # fmt: skip
        except Conflict:
            self.catch_up(store)
            raise Stale(self.seq, against) from None
        self.standing.pop()
        self.state, self.rng = _rebuild(self.start, self.seed, self.standing)
        self._remember(seq, self.n + 1, [marker])
        self.undone.add(last.n)
        self.n, self.seq = self.n + 1, seq
        return last.n

    def snapshot(self) -> Snapshot:
        return Snapshot(self.seq, self.n, self.state.model_dump_json(), _rng_json(self.rng), self.state.dice_used)


def _parse(events: Sequence[dict[str, Any]]) -> list[Event]:
    return [EVENT_ADAPTER.validate_python(e) for e in events if e.get("type") != UNDO_EVENT]


def _advance(rng: random.Random, events: Sequence[Event]) -> None:
    for e in events:
        if e.type == "dice_rolled":
            for sides, _result, _purpose in e.dice:
                rng.randint(1, sides)


def _rebuild(start: Encounter, seed: int, standing: Sequence[CommandRow]) -> tuple[Encounter, random.Random]:
    events = [e for c in standing for e in _parse(c.events)]
    rng = random.Random(seed)
    _advance(rng, events)
    return replay(start, events), rng


def _rng_json(rng: random.Random) -> Any:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_state(data: Any) -> Any:
    version, internal, gauss = data
    return (version, tuple(internal), gauss)
