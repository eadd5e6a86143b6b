"""Output that goes to a file or another program is never cut short."""

from __future__ import annotations

import io

import pytest
from rich.table import Table

from sftactics.views.console import CliConsole


def _table() -> Table:
    t = Table("combatant", "knocked out")
    t.add_row("Pirate Lord the Very Long-Named", "25.0% [18-54]")
    return t


def test_piped_tables_keep_every_character(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    buf = io.StringIO()
    con = CliConsole(file=buf, highlight=False, soft_wrap=True)
    con.print(_table())
    text = buf.getvalue()
    assert "…" not in text
    assert "Pirate Lord the Very Long-Named" in text and "[18-54]" in text


def test_an_explicit_width_still_applies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "20")
    buf = io.StringIO()
    CliConsole(file=buf, highlight=False, soft_wrap=True).print(_table())
    assert "…" in buf.getvalue()
