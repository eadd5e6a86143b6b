"""Faults: the server process is killed (SIGKILL) in the middle of a stream of commands. Every command it
acknowledged is in the database, and the restarted server is in the state the engine reaches by replaying the
recorded commands with the fight's seed."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx

from sftactics.dice.source import SeededDice
from sftactics.encounter.engine import run_commands
from sftactics.encounter.state import Encounter
from sftactics.table.fight import LiveFight
from sftactics.table.store import Store
from tests.table.conftest import SKIRMISH, Server

STREAM = [{"type": "damage", "target": "Bo", "roll": "1d4"}, {"type": "heal", "target": "Bo", "hp": 4, "sp": 4}]


def test_a_killed_server_loses_no_acknowledged_event_and_restarts_into_the_same_state(
    serve: type[Server], tmp_path: Path
) -> None:
    db = str(tmp_path / "table.db")
    server = serve(db).start()
    t = httpx.post(server.url + "/api/tables", json={"scenario": SKIRMISH, "seed": 5}).json()
    tid, gm = t["id"], t["gm"]["token"]
    url = f"{server.url}/api/tables/{tid}"
    r = httpx.post(f"{url}/commands", params={"token": gm}, json={"command": {"type": "begin"}, "seq": 0})
    acked: list[int] = [r.json()["seq"]]
    stop = threading.Event()

    def stream() -> None:
        seq, i = acked[-1], 0
        with httpx.Client(timeout=10) as client:
            while not stop.is_set():
                try:
                    r = client.post(f"{url}/commands", params={"token": gm},
                                    json={"command": STREAM[i % 2], "seq": seq})  # fmt: skip
                except httpx.HTTPError:
                    return  # the server is gone
                body: dict[str, Any] = r.json()
                if r.status_code == 200:
                    seq = body["seq"]
                    acked.append(seq)
                elif body.get("error") == "stale":
                    seq = body["seq"]
                i += 1

    sender = threading.Thread(target=stream)
    sender.start()
    deadline = time.monotonic() + 60
    while len(acked) < 12 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()
    stop.set()
    sender.join(15)
    assert len(acked) >= 12, "the stream did not get going"

    store = Store(db)
    events = [seq for seq, _ in store.events_after(tid, 0)]
    assert events == list(range(1, events[-1] + 1)) and events[-1] >= acked[-1]  # nothing acknowledged is lost

    again = serve(db).start()
    state = httpx.get(f"{again.url}/api/tables/{tid}/state", params={"token": gm}).json()
    assert state["seq"] == events[-1]
    start = Encounter.model_validate_json(store.fight(tid).start)
    cmds = [c.command["command"] for c in store.commands_after(tid, 0)]
    replayed = run_commands(start, cmds, SeededDice(5))
    assert LiveFight.load(store, tid).state == replayed.state
    # the restarted server goes on with the same dice stream as the engine
    r = httpx.post(f"{again.url}/api/tables/{tid}/commands", params={"token": gm},
                   json={"command": STREAM[0], "seq": state["seq"]})  # fmt: skip
    assert r.status_code == 200, r.text
    replayed.do(STREAM[0])
    assert LiveFight.load(store, tid).state == replayed.state
    store.close()
