"""Alembic migrations of the table's database (run by :func:`sftactics.table.store.Store.migrate`)."""
