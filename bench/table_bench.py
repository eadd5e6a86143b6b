"""The live table under load: one ``sftactics serve`` process on 127.0.0.1 (SQLite in a temporary folder), 50
tables on the derelict ambush with 5 seats each (the GM and four players).

Every seat holds a WebSocket and, as the browser map does, fetches its state after each batch of events it
receives. At each table the seat whose combatant's turn it is sends the command (the GM for the aliens): a
``search`` and then an ``end_turn`` per turn, each against the last event it has seen, after a few seconds of
thought (``THINK``). Figures: the latency of a command (from sending it to its answer; median
``table_command``, with p50, p90, p99 and the commands per second in its details; the tables play once all
50 are open and have begun, whose ``begin`` commands are reported apart) and the p99 on its own
against the issue's goal of 100 ms (``table_command_p99``); and loading a long fight (300 turns, about 1,300
events) from its last snapshot and by replaying every event (``table_load_snapshot``, ``table_load_replay``).
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from common import Figure

ROOT = Path(__file__).resolve().parent.parent
NAME = "table"
DESCRIPTION = "the live table: 50 tables x 5 seats on loopback, command latency p50/p99 and commands per second"
SCENARIO = ROOT / "examples" / "scenarios" / "derelict-ambush.yaml"
TABLES, SEATS, TURNS = 50, 5, 8
#: Seconds a seat thinks before its turn's first command and between its two commands (with +-50% jitter):
#: 50 tables then offer about 25 commands a second, the pace of busy tables rather than a flood.
THINK = (3.0, 1.0)


def setup() -> dict[str, object]:
    return {"tables": TABLES, "seats_per_table": SEATS, "turns_per_table": TURNS, "think_s": THINK,
            "scenario": str(SCENARIO.relative_to(ROOT)), "database": "sqlite"}  # fmt: skip


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(db: str, port: int) -> subprocess.Popen[bytes]:
    code = "from sftactics.cli import main; main()"
    proc = subprocess.Popen([sys.executable, "-c", code, "serve", "--db", db, "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    import httpx

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the table server did not start")


def _table(
    base: str,
    turns: int,
    latencies: list[float],
    reads: list[float],
    spans: list[tuple[float, float]],
    begins: list[float],
    everyone: threading.Barrier,
) -> None:
    """One table: its five seats listening (a thread each) while the seat whose turn it is sends commands."""
    import httpx
    from websockets.sync.client import connect

    with httpx.Client(base_url=base, timeout=60) as client:
        t = client.post("/api/tables", json={"scenario": str(SCENARIO)}).json()
        tid = t["id"]
        tokens = {"GM": t["gm"]["token"], **{s["name"]: s["token"] for s in t["seats"]}}
        owner = {cid: s["name"] for s in t["seats"] for cid in s["combatants"]}
        stop = threading.Event()
        ready = threading.Barrier(len(tokens) + 1)

        def seat(token: str) -> None:
            url = base.replace("http", "ws") + f"/api/tables/{tid}/ws?token={token}&since=0"
            with httpx.Client(base_url=base, timeout=60) as mine, connect(url, open_timeout=60) as ws:
                ready.wait()
                while not stop.is_set():
                    try:
                        json.loads(ws.recv(timeout=0.2))
                    except TimeoutError:
                        continue
                    t0 = time.perf_counter()
                    mine.get(f"/api/tables/{tid}/state", params={"token": token})
                    reads.append((time.perf_counter() - t0) * 1000)

        listeners = [threading.Thread(target=seat, args=(tok,)) for tok in tokens.values()]
        for th in listeners:
            th.start()
        ready.wait()
        seq = 0
        rng = random.Random(tid)

        def send(token: str, command: dict[str, Any], into: list[float]) -> None:
            nonlocal seq
            t0 = time.perf_counter()
            r = client.post(f"/api/tables/{tid}/commands", params={"token": token},
                            json={"command": command, "seq": seq})  # fmt: skip
            into.append((time.perf_counter() - t0) * 1000)
            seq = r.json()["seq"]

        send(tokens["GM"], {"type": "begin"}, begins)
        everyone.wait()  # the tables play once every table is open and begun
        began = time.perf_counter()
        for _ in range(turns):
            st = client.get(f"/api/tables/{tid}/state", params={"token": tokens["GM"]}).json()
            who = st["turn"] if st["turn"] not in (None, "?") else st["pending"]
            if who is None:
                break
            token = tokens[owner.get(who, "GM")]
            time.sleep(THINK[0] * rng.uniform(0.5, 1.5))
            send(token, {"type": "search", "actor": who}, latencies)
            time.sleep(THINK[1] * rng.uniform(0.5, 1.5))
            send(token, {"type": "end_turn", "actor": who}, latencies)
        spans.append((began, time.perf_counter()))
        stop.set()
        for th in listeners:
            th.join()


def _loads(turns: int) -> list[Figure]:
    """Loading a long fight: from the last snapshot, and by replaying every event from the start."""
    from common import runs_of

    from sftactics.encounter.commands import parse_command
    from sftactics.table.fight import LiveFight
    from sftactics.table.service import TableService
    from sftactics.table.store import Store

    with tempfile.TemporaryDirectory(prefix="sftactics-bench-") as tmp:
        store = Store(str(Path(tmp) / "table.db"))
        store.migrate()
        table, _ = TableService(store).create(str(SCENARIO))
        live = LiveFight.load(store, table.id)
        live.do(store, "GM", parse_command({"type": "begin"}), 0)
        for _ in range(turns):
            who = live.state.timeline.turn or live.state.timeline.order[0]
            for c in ({"type": "search", "actor": who}, {"type": "end_turn", "actor": who}):
                live.do(store, "GM", parse_command(c), live.seq)
        details = {"events": live.seq, "commands": live.n, "snapshots": store.snapshot_count(table.id)}
        fast = runs_of(lambda: LiveFight.load(store, table.id), 5)
        slow = runs_of(lambda: LiveFight.load(store, table.id, snapshots=False), 5)
        store.close()
    return [
        Figure.from_runs("table_load_snapshot", "load a long fight from its last snapshot", fast, details=details),
        Figure.from_runs("table_load_replay", "load the same fight by replaying every event", slow, details=details),
    ]


def run(quick: bool = False) -> list[Figure]:
    tables, turns = (10, 3) if quick else (TABLES, TURNS)
    with tempfile.TemporaryDirectory(prefix="sftactics-bench-") as tmp:
        port = _free_port()
        proc = _start(str(Path(tmp) / "table.db"), port)
        latencies: list[float] = []
        reads: list[float] = []
        spans: list[tuple[float, float]] = []
        begins: list[float] = []
        everyone = threading.Barrier(tables)
        try:
            t0 = time.perf_counter()
            base = f"http://127.0.0.1:{port}"
            drivers = [
                threading.Thread(target=_table, args=(base, turns, latencies, reads, spans, begins, everyone))
                for _ in range(tables)
            ]
            for th in drivers:
                th.start()
            for th in drivers:
                th.join()
            elapsed = time.perf_counter() - t0
            playing = max(e for _, e in spans) - min(b for b, _ in spans)
        finally:
            proc.terminate()
            proc.wait(10)
    q = statistics.quantiles(latencies, n=100, method="inclusive")
    r = statistics.quantiles(reads, n=100, method="inclusive") if len(reads) >= 2 else [0.0] * 99
    details = {
        "tables": tables,
        "seats": tables * SEATS,
        "commands": len(latencies),
        "commands_per_s": round(len(latencies) / playing, 1),
        "p50_ms": round(q[49], 2),
        "p90_ms": round(q[89], 2),
        "p99_ms": round(q[98], 2),
        "over_100ms": sum(x > 100 for x in latencies),
        "state_reads": len(reads),
        "state_p50_ms": round(r[49], 2),
        "state_p99_ms": round(r[98], 2),
        "begin_p50_ms": round(statistics.median(begins), 2),
        "begin_max_ms": round(max(begins), 2),
        "seconds": round(elapsed, 1),
    }
    return [
        *_loads(40 if quick else 300),
        Figure.from_runs(
            "table_command", "one command's round trip with every seat listening", latencies, details=details
        ),
        Figure(
            "table_command_p99",
            "the 99th percentile of a command's round trip",
            1,
            q[98],
            q[98],
            100.0,
            {"p99_ms": round(q[98], 2)},
        ),
    ]


if __name__ == "__main__":
    for f in run(quick="--quick" in sys.argv):
        print(f.name, round(f.median_ms, 2), f.details)
