"""Fixtures of the live table's tests: stores (SQLite in a temporary folder; PostgreSQL in a temporary cluster
started for the session), an app with a test client, and servers in their own processes on free ports."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from sftactics.table.store import Store

HERE = Path(__file__).parent
SKIRMISH = str(HERE / "skirmish.yaml")
PG_BIN = Path(os.environ.get("SFTACTICS_PG_BIN", "/usr/lib/postgresql/15/bin"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(args: list[str], owner: str | None) -> list[str]:
    return ["runuser", "-u", owner, "--", *args] if owner else args


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A PostgreSQL cluster of its own in a temporary folder, on a free port of 127.0.0.1 (initdb refuses to run
    as root: as root, the cluster belongs to the ``postgres`` user, or ``nobody``)."""
    if not (PG_BIN / "initdb").exists():
        pytest.fail(f"PostgreSQL is not installed ({PG_BIN}/initdb); .ci/run installs it")
    owner = None
    if os.geteuid() == 0:
        import pwd

        try:
            owner = pwd.getpwnam("postgres").pw_name
        except KeyError:
            owner = "nobody"
    root = tempfile.mkdtemp(prefix="sftactics-pg-")
    data = os.path.join(root, "data")
    if owner:
        shutil.chown(root, user=owner)
    port = free_port()
    subprocess.run(_as_owner([str(PG_BIN / "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "--no-sync",
                              "-E", "UTF8"], owner), check=True, capture_output=True)  # fmt: skip
    opts = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    subprocess.run(_as_owner([str(PG_BIN / "pg_ctl"), "-D", data, "-o", opts, "-l", os.path.join(root, "log"),
                              "-w", "start"], owner), check=True, capture_output=True)  # fmt: skip
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_owner([str(PG_BIN / "pg_ctl"), "-D", data, "-m", "immediate", "stop"], owner),
                       capture_output=True)  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def pg_store(pg_url: str) -> Iterator[Store]:
    """A fresh database in the session's cluster."""
    import psycopg

    name = f"t{os.getpid()}_{time.monotonic_ns()}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    store = Store(pg_url.rsplit("/", 1)[0] + f"/{name}")
    store.migrate()
    yield store
    store.close()


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    store = Store(str(tmp_path / "table.db"))
    store.migrate()
    yield store
    store.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest) -> Store:
    """The same tests on both databases."""
    return request.getfixturevalue(f"{'pg' if request.param == 'postgresql' else 'sqlite'}_store")


class Server:
    """``sftactics serve`` in its own process."""

    def __init__(self, db: str, port: int | None = None) -> None:
        self.db = db
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        code = "from sftactics.cli import main; main()"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, "serve", "--db", self.db, "--host", "127.0.0.1", "--port", str(self.port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"the server stopped: {err}")
            try:
                if httpx.get(self.url + "/openapi.json", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start in 30 s")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def serve() -> Iterator[type[Server]]:
    """Start servers with ``serve(db).start()``; every one is stopped after the test."""
    started: list[Server] = []

    class Tracked(Server):
        def start(self) -> Server:
            started.append(self)
            return super().start()

    yield Tracked
    for s in started:
        s.stop()
