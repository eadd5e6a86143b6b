"""Alembic's environment: migrations run on the connection the store hands over (no alembic.ini needed)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
