"""The table's database: every fight is its event log (SQLAlchemy Core; SQLite in WAL mode by default,
PostgreSQL by URL; the schema is made by the Alembic migrations in ``migrations/``).

Rows:

* ``tables``: a table (its name, settings as JSON, the GM's token); ``seats``: the player seats (token, side,
  the combatants they command); ``fights``: the fight's starting state, the scenario it came from and the seed
  of its dice;
* ``commands``: every accepted command (``kind`` "command") or GM undo (``kind`` "undo"), numbered ``n`` per
  table, with the range of event sequence numbers it appended; ``events``: the events, numbered ``seq`` per
  table from 1. A command and its events are written in one transaction; the primary keys make a second
  writer with the same numbers fail (:class:`Conflict`), which is how two processes stay serialised;
* ``snapshots``: the state (and the dice stream's position) after some command, so a long fight loads fast;
  an undo deletes the snapshots it makes wrong;
* ``refusals``: commands refused for want of a permission (403), for the GM to read.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from sftactics.core.errors import SftError

META = sa.MetaData()
TABLES = sa.Table(
    "tables",
    META,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(200)),
    sa.Column("created", sa.Float),
    sa.Column("settings", sa.Text),
    sa.Column("gm_token", sa.String(64)),
)
SEATS = sa.Table(
    "seats",
    META,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(100), primary_key=True),
    sa.Column("token", sa.String(64)),
    sa.Column("side", sa.String(100)),
    sa.Column("combatants", sa.Text),
)
FIGHTS = sa.Table(
    "fights",
    META,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("scenario", sa.String(500)),
    sa.Column("start", sa.Text),
    sa.Column("seed", sa.BigInteger),
)
COMMANDS = sa.Table(
    "commands",
    META,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16)),
    sa.Column("seat", sa.String(100)),
    sa.Column("command", sa.Text),
    sa.Column("first_seq", sa.Integer),
    sa.Column("last_seq", sa.Integer),
    sa.Column("at", sa.Float),
)
EVENTS = sa.Table(
    "events",
    META,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("n", sa.Integer),
    sa.Column("data", sa.Text),
)
SNAPSHOTS = sa.Table(
    "snapshots",
    META,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("n", sa.Integer),
    sa.Column("state", sa.Text),
    sa.Column("rng", sa.Text),
    sa.Column("dice", sa.Integer),
)
REFUSALS = sa.Table(
    "refusals",
    META,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32)),
    sa.Column("seat", sa.String(100)),
    sa.Column("status", sa.Integer),
    sa.Column("reason", sa.Text),
    sa.Column("command", sa.Text),
    sa.Column("at", sa.Float),
)


class Conflict(SftError):
    """Another writer appended to the fight first (the command was made against an older state)."""


@dataclass(frozen=True)
class TableRow:
    id: str
    name: str
    settings: dict[str, Any]
    gm_token: str


@dataclass(frozen=True)
class SeatRow:
    name: str
    token: str
    side: str
    combatants: tuple[str, ...]


@dataclass(frozen=True)
class FightRow:
    scenario: str
    start: str
    seed: int


@dataclass(frozen=True)
class CommandRow:
    n: int
    kind: str
    seat: str
    command: dict[str, Any]
    first_seq: int
    last_seq: int
    events: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Snapshot:
    seq: int
    n: int
    state: str
    rng: Any
    dice: int


def sqlalchemy_url(url: str) -> str:
    """A database URL as SQLAlchemy wants it: ``postgresql://`` goes through psycopg 3; a bare path is a
    SQLite file."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url


class Store:
    """The database of one server (or of several processes sharing a PostgreSQL database)."""

    def __init__(self, url: str) -> None:
        self.url = sqlalchemy_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            self.engine: Engine = sa.create_engine(self.url, connect_args={"timeout": 30, "check_same_thread": False})
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = sa.create_engine(self.url, pool_size=10, max_overflow=20, pool_pre_ping=True)

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ schema
    def migrate(self) -> None:
        """Bring the schema up to the newest revision (Alembic)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(resources.files("sftactics.table") / "migrations"))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def revision(self) -> str | None:
        with self.engine.connect() as conn:
            try:
                row = conn.execute(sa.text("SELECT version_num FROM alembic_version")).first()
            except sa.exc.DBAPIError:
                return None
        return None if row is None else str(row[0])

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    # ------------------------------------------------------------------ tables and seats
    def create_table(
        self,
        table: TableRow,
        seats: Sequence[SeatRow],
        fight: FightRow,
    ) -> None:
        with self._tx() as conn:
            conn.execute(
                TABLES.insert().values(
                    id=table.id,
                    name=table.name,
                    created=time.time(),
                    settings=json.dumps(table.settings),
                    gm_token=table.gm_token,
                )
            )
            for s in seats:
                conn.execute(
                    SEATS.insert().values(
                        table_id=table.id,
                        name=s.name,
                        token=s.token,
                        side=s.side,
                        combatants=json.dumps(list(s.combatants)),
                    )
                )
            conn.execute(FIGHTS.insert().values(table_id=table.id, scenario=fight.scenario, start=fight.start,
                                                seed=fight.seed))  # fmt: skip

    def table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(sa.select(TABLES).where(TABLES.c.id == table_id)).first()
        if r is None:
            return None
        return TableRow(r.id, r.name, json.loads(r.settings), r.gm_token)

    def table_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(sa.select(TABLES.c.id).order_by(TABLES.c.created))]

    def seats(self, table_id: str) -> list[SeatRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(SEATS).where(SEATS.c.table_id == table_id).order_by(SEATS.c.name))
            return [SeatRow(r.name, r.token, r.side, tuple(json.loads(r.combatants))) for r in rows]

    def set_seat(self, table_id: str, seat: SeatRow) -> None:
        with self._tx() as conn:
            conn.execute(
                SEATS.update()
                .where(SEATS.c.table_id == table_id, SEATS.c.name == seat.name)
                .values(side=seat.side, combatants=json.dumps(list(seat.combatants)))
            )

    def set_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        with self._tx() as conn:
            conn.execute(TABLES.update().where(TABLES.c.id == table_id).values(settings=json.dumps(settings)))

    def fight(self, table_id: str) -> FightRow:
        with self.engine.connect() as conn:
            r = conn.execute(sa.select(FIGHTS).where(FIGHTS.c.table_id == table_id)).one()
        return FightRow(r.scenario, r.start, int(r.seed))

    # ------------------------------------------------------------------ the log
    def append(
        self,
        table_id: str,
        n: int,
        kind: str,
        seat: str,
        command: dict[str, Any],
        events: Sequence[dict[str, Any]],
        first_seq: int,
        *,
        drop_snapshots_from: int | None = None,
    ) -> int:
        """Write command ``n`` and its events (numbered from ``first_seq``) in one transaction; the last
        sequence number. :class:`Conflict` when another writer took those numbers first."""
        last = first_seq + len(events) - 1
        try:
            with self._tx() as conn:
                conn.execute(
                    COMMANDS.insert().values(
                        table_id=table_id,
                        n=n,
                        kind=kind,
                        seat=seat,
                        command=json.dumps(command),
                        first_seq=first_seq,
                        last_seq=last,
                        at=time.time(),
                    )
                )
                if events:
                    conn.execute(
                        EVENTS.insert(),
                        [
                            {"table_id": table_id, "seq": first_seq + i, "n": n, "data": json.dumps(e)}
                            for i, e in enumerate(events)
                        ],
                    )
                if drop_snapshots_from is not None:
                    conn.execute(
                        SNAPSHOTS.delete().where(
                            SNAPSHOTS.c.table_id == table_id, SNAPSHOTS.c.seq >= drop_snapshots_from
                        )
                    )
                if not self.is_sqlite:
                    conn.execute(sa.text("SELECT pg_notify('sftactics_events', :p)"),
                                 {"p": f"{table_id} {last}"})  # fmt: skip
        except IntegrityError:
            raise Conflict(f"table {table_id}: another command was recorded first (command {n})") from None
        return last

    def head(self, table_id: str) -> tuple[int, int]:
        """(last command number, last event sequence number); (0, 0) for a fight with nothing recorded."""
        with self.engine.connect() as conn:
            r = conn.execute(
                sa.select(COMMANDS.c.n, COMMANDS.c.last_seq)
                .where(COMMANDS.c.table_id == table_id)
                .order_by(COMMANDS.c.n.desc())
                .limit(1)
            ).first()
        return (0, 0) if r is None else (int(r.n), int(r.last_seq))

    def commands_after(self, table_id: str, n: int) -> list[CommandRow]:
        """The commands after command ``n`` with their events, in order."""
        with self.engine.connect() as conn:
            cmds = conn.execute(
                sa.select(COMMANDS).where(COMMANDS.c.table_id == table_id, COMMANDS.c.n > n).order_by(COMMANDS.c.n)
            ).all()
            if not cmds:
                return []
            evs = conn.execute(
                sa.select(EVENTS.c.seq, EVENTS.c.n, EVENTS.c.data)
                .where(EVENTS.c.table_id == table_id, EVENTS.c.n > n)
                .order_by(EVENTS.c.seq)
            ).all()
        by_n: dict[int, list[dict[str, Any]]] = {}
        for e in evs:
            by_n.setdefault(int(e.n), []).append(json.loads(e.data))
        return [
            CommandRow(
                int(c.n),
                c.kind,
                c.seat,
                json.loads(c.command),
                int(c.first_seq),
                int(c.last_seq),
                tuple(by_n.get(int(c.n), ())),
            )
            for c in cmds
        ]

    def events_after(
        self, table_id: str, seq: int, limit: int = 10_000, *, standing: bool = False
    ) -> list[tuple[int, dict[str, Any]]]:
        """(seq, event) after ``seq``, in order: every event recorded, or (``standing``) without the events of
        commands an undo took back (the undo markers stay)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(EVENTS.c.seq, EVENTS.c.n, EVENTS.c.data)
                .where(EVENTS.c.table_id == table_id, EVENTS.c.seq > seq)
                .order_by(EVENTS.c.seq)
                .limit(limit)
            ).all()
            undone: set[int] = set()
            if standing and rows:
                undos = conn.execute(
                    sa.select(COMMANDS.c.command).where(COMMANDS.c.table_id == table_id, COMMANDS.c.kind == "undo")
                )
                undone = {int(json.loads(u.command)["undo"]) for u in undos}
        return [(int(r.seq), json.loads(r.data)) for r in rows if int(r.n) not in undone]

    # ------------------------------------------------------------------ snapshots
    def save_snapshot(self, table_id: str, snap: Snapshot) -> None:
        try:
            with self._tx() as conn:
                conn.execute(
                    SNAPSHOTS.insert().values(
                        table_id=table_id,
                        seq=snap.seq,
                        n=snap.n,
                        state=snap.state,
                        rng=json.dumps(snap.rng),
                        dice=snap.dice,
                    )
                )
        except IntegrityError:  # another process saved the same one
            pass

    def snapshot(self, table_id: str) -> Snapshot | None:
        with self.engine.connect() as conn:
            r = conn.execute(
                sa.select(SNAPSHOTS).where(SNAPSHOTS.c.table_id == table_id).order_by(SNAPSHOTS.c.seq.desc()).limit(1)
            ).first()
        if r is None:
            return None
        return Snapshot(int(r.seq), int(r.n), r.state, json.loads(r.rng), int(r.dice))

    def snapshot_count(self, table_id: str) -> int:
        with self.engine.connect() as conn:
            q = sa.select(sa.func.count()).select_from(SNAPSHOTS).where(SNAPSHOTS.c.table_id == table_id)
            return int(conn.execute(q).scalar_one())

    # ------------------------------------------------------------------ refusals
    def refuse(self, table_id: str, seat: str, status: int, reason: str, command: Any) -> None:
        with self._tx() as conn:
            conn.execute(REFUSALS.insert().values(table_id=table_id, seat=seat, status=status, reason=reason,
                                                  command=json.dumps(command), at=time.time()))  # fmt: skip

    def refusals(self, table_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(REFUSALS).where(REFUSALS.c.table_id == table_id).order_by(REFUSALS.c.id))
            return [
                {"seat": r.seat, "status": r.status, "reason": r.reason, "command": json.loads(r.command)} for r in rows
            ]


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a killed process loses no committed transaction
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()
