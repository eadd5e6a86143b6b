"""The table's event store, the same tests on SQLite and on a real PostgreSQL started for the test run."""

from __future__ import annotations

import threading

import pytest

from sftactics.core.errors import RuleViolation, SftError
from sftactics.dice.source import SeededDice
from sftactics.encounter.commands import parse_command
from sftactics.encounter.engine import Fight
from sftactics.io.scenario import load_scenario
from sftactics.table import fight as table_fight
from sftactics.table.fight import LiveFight, Stale
from sftactics.table.service import TableService
from sftactics.table.store import Conflict, Store
from tests.table.conftest import SKIRMISH

OPENING = [
    {"type": "begin"},
    {"type": "move", "actor": "Ann", "to": [2, 1]},
    {"type": "attack", "actor": "Ann", "target": "Ogg"},
    {"type": "end_turn", "actor": "Ann"},
    {"type": "move", "actor": "Bo", "to": [2, 2]},
    {"type": "end_turn", "actor": "Bo"},
]


def opened(store: Store, seed: int = 3) -> tuple[TableService, str]:
    service = TableService(store)
    table, _ = service.create(SKIRMISH, seed=seed)
    return service, table.id


def play(store: Store, table_id: str, commands: list[dict[str, object]]) -> LiveFight:
    live = LiveFight.load(store, table_id)
    for c in commands:
        live.do(store, "GM", parse_command(c), live.seq)
    return live


def test_migrations_make_the_schema_and_can_run_twice(store: Store) -> None:
    assert store.revision() == "0001"
    store.migrate()
    assert store.revision() == "0001"


def test_commands_and_events_are_numbered_and_reload_into_the_same_state(store: Store) -> None:
    _, tid = opened(store)
    live = play(store, tid, OPENING)
    assert store.head(tid) == (len(OPENING), live.seq)
    seqs = [seq for seq, _ in store.events_after(tid, 0)]
    assert seqs == list(range(1, live.seq + 1))
    again = LiveFight.load(store, tid)
    assert again.state == live.state and again.rng.getstate() == live.rng.getstate()
    # the engine itself, given the same commands and the same seed, plays the same fight
    engine = Fight.seeded(load_scenario(SKIRMISH), 3)
    for c in OPENING:
        engine.do(c)
    assert engine.state == live.state


def test_a_refused_command_records_nothing_and_leaves_the_dice_where_they_were(store: Store) -> None:
    _, tid = opened(store)
    live = play(store, tid, OPENING[:2])
    head, rng = store.head(tid), live.rng.getstate()
    with pytest.raises(RuleViolation):
        live.do(store, "GM", parse_command({"type": "move", "actor": "Ann", "to": [5, 0]}), live.seq)
    assert store.head(tid) == head and live.rng.getstate() == rng


def test_a_second_writer_with_the_same_numbers_conflicts(store: Store) -> None:
    _, tid = opened(store)
    store.append(tid, 1, "command", "GM", {"command": {}}, [{"type": "note", "text": "a"}], 1)
    with pytest.raises(Conflict):
        store.append(tid, 1, "command", "GM", {"command": {}}, [{"type": "note", "text": "b"}], 1)
    assert [e for _, e in store.events_after(tid, 0)] == [{"type": "note", "text": "a"}]


def test_two_processes_views_of_one_fight_stay_serialised(store: Store) -> None:
    """Two in-memory copies of one fight (as two server processes hold): a command against an old state is
    stale in the one that is behind, which then catches up."""
    _, tid = opened(store)
    a = play(store, tid, OPENING[:1])
    b = LiveFight.load(store, tid)
    a.do(store, "GM", parse_command(OPENING[1]), a.seq)
    with pytest.raises(Stale):
        b.do(store, "GM", parse_command(OPENING[1]), b.seq)
    assert b.state == a.state and b.seq == a.seq
    b.do(store, "GM", parse_command(OPENING[2]), b.seq)
    assert a.catch_up(store) and a.state == b.state


def test_commands_sent_at_once_are_taken_one_at_a_time(store: Store) -> None:
    service, tid = opened(store)
    gm = service.seat(tid, store.table(tid).gm_token)  # type: ignore[union-attr]
    service.command(gm, {"type": "begin"}, 0)
    seq = service.live(tid).seq
    results: list[object] = []

    def send(amount: str) -> None:
        try:
            results.append(service.command(gm, {"type": "damage", "target": "Ogg", "amount": amount}, seq))
        except SftError as e:
            results.append(e)

    threads = [threading.Thread(target=send, args=(a,)) for a in ("1", "2", "3", "4")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(isinstance(r, tuple) for r in results) == 1
    assert sum(isinstance(r, Stale) for r in results) == 3


def test_snapshots_make_loading_start_late_and_give_the_same_state(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_fight, "SNAPSHOT_EVERY", 5)
    _, tid = opened(store)
    live = play(store, tid, OPENING)
    assert store.snapshot_count(tid) >= 2
    snap = store.snapshot(tid)
    assert snap is not None and snap.seq > 0
    fast = LiveFight.load(store, tid)
    slow = LiveFight.load(store, tid, snapshots=False)
    assert fast.state == slow.state == live.state
    assert fast.rng.getstate() == slow.rng.getstate()
    assert fast.standing == [c for c in slow.standing if c.n > snap.n]


def test_undo_takes_back_the_last_command_rewinds_the_dice_and_drops_later_snapshots(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_fight, "SNAPSHOT_EVERY", 3)
    _, tid = opened(store)
    before = play(store, tid, OPENING[:2])
    live = play(store, tid, [])
    live.do(store, "GM", parse_command(OPENING[2]), live.seq)
    undone = live.undo(store, "GM", live.seq)
    assert undone == 3
    assert live.state == before.state and live.rng.getstate() == before.rng.getstate()
    snap = store.snapshot(tid)
    assert snap is None or snap.seq <= before.seq
    again = LiveFight.load(store, tid)
    assert again.state == before.state and again.seq == live.seq
    # the same attack again rolls the same dice (the stream was rewound, as Fight.undo does)
    redo = again.do(store, "GM", parse_command(OPENING[2]), again.seq)
    engine = Fight.seeded(load_scenario(SKIRMISH), 3)
    for c in OPENING[:3]:
        engine.do(c)
    assert again.state == engine.state and [e.type for e in redo] == [e.type for e in engine.events[-1]]
    with pytest.raises(Stale):
        again.undo(store, "GM", 0)


def test_nothing_to_undo(store: Store) -> None:
    _, tid = opened(store)
    live = LiveFight.load(store, tid)
    with pytest.raises(SftError, match="nothing to undo"):
        live.undo(store, "GM", 0)


def test_the_seeded_stream_moves_one_roll_per_typed_die() -> None:
    import random

    dice = table_fight.TableDice(random.Random(5), [20])
    assert dice.d20() == 20
    plain = SeededDice(5)
    plain.d20()
    assert dice.d20() == plain.d20()


def test_typed_dice_go_to_the_rolls_of_their_owners_only() -> None:
    import random

    dice = table_fight.TableDice(random.Random(5), [20], owners=["Ann"])
    theirs = dice.d20("Kit Stealth")
    assert dice.d20("Ann Perception") == 20 and dice.typed == []
    plain = SeededDice(5)
    assert theirs == plain.d20()


def test_the_seats_streams_come_from_memory_as_the_store_has_them(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, tid = opened(store)
    live = play(store, tid, OPENING[:3])
    live.undo(store, "GM", live.seq)
    live.do(store, "GM", parse_command(OPENING[2]), live.seq)
    from_store = store.events_after(tid, 4, standing=True)
    assert live.events_since(4) == from_store and LiveFight.load(store, tid).events_since(4) == from_store
    monkeypatch.setattr(table_fight, "RECENT", 3)
    short = LiveFight.load(store, tid)
    assert short.events_since(0) is None and short.events_since(live.seq - 2) == from_store[-2:]
