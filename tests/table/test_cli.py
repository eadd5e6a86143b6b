"""``sftactics serve``: opening a table prints the GM's link and one per seat; serving an existing database
lists its tables."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from sftactics.cli import app
from tests.table.conftest import SKIRMISH

runner = CliRunner()


def test_serve_opens_a_table_and_prints_its_links(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    out = runner.invoke(app, ["serve", SKIRMISH, "--db", db, "--port", "8123", "--no-serve"])
    assert out.exit_code == 0, out.output
    links = re.findall(r"http://127\.0\.0\.1:8123/t/\w+\?token=[\w-]+", out.output)
    assert len(links) == 3 and "Table skirmish" in out.output
    assert "Ann: " in out.output and "Bo: " in out.output
    again = runner.invoke(app, ["serve", "--db", db, "--port", "8123", "--no-serve", "--base-url", "https://x.example"])
    assert again.exit_code == 0 and again.output.count("https://x.example/t/") == 3


def test_serve_names_a_missing_scenario_and_a_bad_setting(tmp_path: Path) -> None:
    out = runner.invoke(app, ["serve", "no-such-fight", "--db", str(tmp_path / "t.db"), "--no-serve"])
    assert out.exit_code == 2 and "no scenario 'no-such-fight'" in out.output
    out = runner.invoke(app, ["serve", SKIRMISH, "--db", str(tmp_path / "t.db"), "--enemy-hp", "some"])
    assert out.exit_code == 2
