"""Two server processes on one PostgreSQL database: commands sent to either reach every socket of both, each
event exactly once and in order (PostgreSQL LISTEN/NOTIFY wakes the other process's sockets)."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
from websockets.sync.client import connect

from sftactics.table.store import Store
from tests.table.conftest import SKIRMISH, Server

STREAM = [{"type": "damage", "target": "Bo", "roll": "1d4"}, {"type": "heal", "target": "Bo", "hp": 4, "sp": 4}]


def collect(url: str, until: threading.Event, out: list[int], ready: threading.Event) -> None:
    with connect(url, open_timeout=10) as ws:
        ready.set()
        while not until.is_set():
            try:
                msg = json.loads(ws.recv(timeout=0.2))
            except TimeoutError:
                continue
            out.extend(e["seq"] for e in msg["events"])


def test_two_processes_deliver_every_event_to_every_socket_once_in_order(serve: type[Server], pg_store: Store) -> None:
    a, b = serve(pg_store.url).start(), serve(pg_store.url).start()
    t = httpx.post(a.url + "/api/tables", json={"scenario": SKIRMISH}).json()
    tid, gm, ann = t["id"], t["gm"]["token"], t["seats"][0]["token"]
    got: dict[str, list[int]] = {}
    done = threading.Event()
    threads = []
    for name, server, token in [("a-gm", a, gm), ("b-gm", b, gm), ("b-ann", b, ann), ("a-ann", a, ann)]:
        got[name] = []
        ready = threading.Event()
        ws_url = server.url.replace("http", "ws") + f"/api/tables/{tid}/ws?token={token}&since=0"
        th = threading.Thread(target=collect, args=(ws_url, done, got[name], ready))
        th.start()
        assert ready.wait(10)
        threads.append(th)
    seq = 0
    last_ack: dict[str, Any] = {}
    for i, cmd in enumerate([{"type": "begin"}, *STREAM * 5]):
        server = (a, b)[i % 2]  # every other command to the other process
        r = httpx.post(f"{server.url}/api/tables/{tid}/commands", params={"token": gm},
                       json={"command": cmd, "seq": seq})  # fmt: skip
        assert r.status_code == 200, r.text
        last_ack = r.json()
        seq = last_ack["seq"]
    deadline = time.monotonic() + 10  # well below the sockets' 30-s safety poll: NOTIFY woke them
    while time.monotonic() < deadline and not all(g and g[-1] >= seq for n, g in got.items() if "gm" in n):
        time.sleep(0.05)
    done.set()
    for th in threads:
        th.join(5)
    assert got["a-gm"] == got["b-gm"] == list(range(1, seq + 1))
    # a player's sockets get the events the seat may see, the same on both processes, once each and in order
    assert got["a-ann"] == got["b-ann"] and got["b-ann"] == sorted(set(got["b-ann"]))
    assert got["b-ann"] and got["b-ann"][-1] > seq // 2
