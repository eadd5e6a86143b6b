"""Events from other processes: with PostgreSQL, every append sends ``NOTIFY sftactics_events, 'TABLE SEQ'``
(in the same transaction, so it is sent only if the events were committed); each server process listens on
its own connection and wakes the sockets of that table, which then read the new events from the store. With
SQLite (one process), the sockets' own wake-ups suffice and nothing is started."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

log = logging.getLogger("sftactics.table")
CHANNEL = "sftactics_events"


def start_listener(app: Any) -> threading.Thread | None:
    """Listen for other processes' events (PostgreSQL only), in a daemon thread; the thread, or None."""
    service = app.state.service
    store = service.store
    if store.is_sqlite:
        return None
    url = store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    t = threading.Thread(target=_listen, args=(url, service), name="sftactics-notify", daemon=True)
    t.start()
    return t


def _listen(url: str, service: Any) -> None:
    import psycopg

    while True:
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f"LISTEN {CHANNEL}")
                service.wake_all()  # anything written while not listening
                for note in conn.notifies():
                    table_id = note.payload.split(" ", 1)[0]
                    service.wake(table_id)
        except Exception as e:  # the database went away: try again shortly
            log.warning("table notify listener: %s", e)
            time.sleep(1.0)
