"""`run --json` on every shipped scenario: each event validates against the committed docs/events.schema.json,
which must equal the generated schema (`sftactics schema events`, `make docs`)."""

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from sftactics.cli import app
from sftactics.io.reference import events_schema

ROOT = Path(__file__).parent.parent.parent
SCHEMA = ROOT / "docs" / "events.schema.json"
SCENARIOS = sorted([*(ROOT / "scenarios").glob("*.yaml"), *(ROOT / "examples" / "scenarios").glob("*.yaml")])
runner = CliRunner()


def test_the_committed_event_schema_is_the_generated_one() -> None:
    assert SCHEMA.read_text() == events_schema(), "regenerate: sftactics schema events > docs/events.schema.json"


def test_schema_events_prints_it() -> None:
    r = runner.invoke(app, ["schema", "events"])
    assert r.exit_code == 0 and json.loads(r.output)["title"] == "sftactics event"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_run_json_events_validate_against_the_schema(scenario: Path) -> None:
    r = runner.invoke(app, ["run", str(scenario), "--seed", "3", "--max-rounds", "4", "--json"])
    assert r.exit_code == 0, r.output
    events = json.loads(r.output)["events"]
    validator = Draft202012Validator(json.loads(SCHEMA.read_text()))
    kinds = set()
    for i, e in enumerate(events):
        errors = sorted(validator.iter_errors(e), key=lambda x: list(x.path))
        assert not errors, f"event {i} ({e.get('type')}): {errors[0].message}"
        kinds.add(e["type"])
    if "strike2e_made" in kinds:  # a 2E scenario's attacks are Strikes, each with its roll or its flat check
        strikes = [e for e in events if e["type"] == "strike2e_made"]
        assert all(e["attack"] is not None or e["targeting"] is not None for e in strikes)
        return
    assert "attack_made" in kinds
    attacks = [e for e in events if e["type"] == "attack_made" and e["result"]]
    assert attacks and all(e["result"]["attacker"] == e["attacker"] for e in attacks)


def test_the_schema_refuses_an_event_without_its_numbers() -> None:
    validator = Draft202012Validator(json.loads(SCHEMA.read_text()))
    bad = {"type": "attack_made", "attacker": "a", "target": "b", "weapon": "w", "hit": True, "critical": False,
           "damage": 3, "result": {"attacker": "a", "target": "b", "weapon": "w"}}  # fmt: skip
    assert not validator.is_valid(bad)


@pytest.mark.parametrize("scenario", SCENARIOS[:3], ids=lambda p: p.stem)
def test_the_text_log_fills_in_every_number(scenario: Path) -> None:
    r = runner.invoke(app, ["run", str(scenario), "--seed", "3", "--max-rounds", "4"])
    assert r.exit_code == 0, r.output
    for mark in ("{roll}", "{bonus}", "{ac}", "{damage}", "{overflow}"):
        assert mark not in r.output
    assert "Roll: d20" in r.output
