"""The first schema: tables, seats, fights, commands, events, snapshots and refusals.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("gm_token", sa.String(64), nullable=False, unique=True),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("name", sa.String(100), primary_key=True),
        sa.Column("token", sa.String(64), nullable=False, unique=True),
        sa.Column("side", sa.String(100), nullable=False),
        sa.Column("combatants", sa.Text, nullable=False),
    )
    op.create_table(
        "fights",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("scenario", sa.String(500), nullable=False),
        sa.Column("start", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "commands",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.String(100), nullable=False),
        sa.Column("command", sa.Text, nullable=False),
        sa.Column("first_seq", sa.Integer, nullable=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )
    op.create_table(
        "snapshots",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("rng", sa.Text, nullable=False),
        sa.Column("dice", sa.Integer, nullable=False),
    )
    op.create_table(
        "refusals",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.String(100), nullable=False),
        sa.Column("status", sa.Integer, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("command", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("refusals", "snapshots", "events", "commands", "fights", "seats", "tables"):
        op.drop_table(name)
