"""The 2nd edition through the command line (issue 21): run, replay, play, map, simulate, attack, odds and
schema on the shipped 2E scenarios and bundled 2E stat blocks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sftactics.cli import app
from sftactics.io.reference import scenario2e_schema, statblock2e_schema

ROOT = Path(__file__).parent.parent.parent
SCENARIOS = [ROOT / "scenarios" / "sf2e-ksarik-den.yaml", ROOT / "scenarios" / "sf2e-robot-breach.yaml"]
runner = CliRunner()


def run_main(*args: str) -> subprocess.CompletedProcess[str]:
    """Through the real entry point: errors are messages with exit code 2."""
    code = "from sftactics.cli import main; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    r = runner.invoke(app, list(args), input=input)
    return r.exit_code, r.output


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
@pytest.mark.rule("E2-42", "E2-50", "E2-18")
def test_a_shipped_2e_scenario_runs_to_its_end_and_replays(path: Path, tmp_path: Path) -> None:
    code, text = run("run", str(path), "--seed", "3", "--save", str(tmp_path / "fight.jsonl"))
    assert code == 0, text
    assert "Strikes" in text and "Combat over in round" in text
    assert "rolls initiative: d20" in text
    code, replayed = run("replay", str(tmp_path / "fight.jsonl"))
    assert code == 0 and replayed == text
    code, data = run("run", str(path), "--seed", "3", "--json")
    assert code == 0
    parsed = json.loads(data)
    assert parsed["state"]["ruleset"] == "sf2e" and parsed["state"]["result"] is not None
    assert any(e["type"] == "strike2e_made" for e in parsed["events"])


def test_the_same_seed_gives_the_same_2e_fight() -> None:
    assert run("run", str(SCENARIOS[1]), "--seed", "7") == run("run", str(SCENARIOS[1]), "--seed", "7")


def test_a_2e_scenario_draws_its_map() -> None:
    code, text = run("map", str(SCENARIOS[0]))
    assert code == 0 and "party: B Brakka, I Iseph" in text


@pytest.mark.rule("E2-42")
def test_a_2e_scenario_at_the_table() -> None:
    # the shared verbs mean the 2E actions: attack is a Strike, move a Stride; the panel counts three actions
    code, text = run("play", str(SCENARIOS[1]), "--seed", "2", input="auto all\nquit\ny\n")
    assert code == 0, text
    assert "Combat over in round" in text
    code, text = run("play", str(SCENARIOS[0]), "--seed", "2", input="move 10,4\nquit\ny\n")
    assert code == 0, text
    assert "3 actions left" in text and "Stride (1 action; 2 left)" in text


def test_a_2e_scenario_simulates_on_the_engine() -> None:
    code, text = run("simulate", str(SCENARIOS[1]), "--runs", "4", "--workers", "1", "--no-progress", "--json")
    assert code == 0, text
    start = text.index("{")
    summary = json.loads(text[start:])
    assert summary["runs"] == 4


@pytest.mark.rule("E2-10", "E2-13", "E2-22", "E2-24")
def test_attack_between_two_2e_stat_blocks_explains_the_strike() -> None:
    # plasma hammer +11 (Str 4, expert 7) vs the ksarik's AC 16: d20 15 = 26, critical success (16 + 10);
    # (1d10 6 + 1 fire + 4) x 2 = 22, the fire part 2 + weakness 5: 27
    code, text = run("attack", "2e-soldier", "2e-ksarik", "--weapon", "hammer", "--dice", "15,6")
    assert code == 0, text
    assert "d20 15 +11 = 26 vs AC 16: critical success" in text
    assert "=> 27" in text
    # the second attack with an agile knife: -4
    code, text = run("attack", "2e-operative", "2e-ksarik", "--weapon", "knife", "--dice", "10,3,4",
                     "--attack-number", "2")  # fmt: skip
    assert code == 0 and "d20 10 +7 = 17 vs AC 16: success" in text
    r = run_main("attack", "2e-soldier", "ksarik", "--weapon", "hammer")
    assert r.returncode == 2 and "same edition" in r.stderr + r.stdout


@pytest.mark.rule("E2-03", "E2-04", "E2-13")
def test_odds_of_each_degree_of_success() -> None:
    # +11 - 4 (2nd agile attack) = +7 vs AC 20: natural 20 critical success (27 is a success, improved), 13-19
    # success, 4-12 failure, 1-3 critical failure (10 or less)
    code, text = run("odds", "1d20+11", "--ac", "20", "--sf2e", "--attack-number", "2", "--agile")
    assert code == 0, text
    assert "critical success (natural 20)" in text and "5.00% (1/20)" in text
    assert "success (natural 13-19)" in text and "35.00% (7/20)" in text
    assert "critical failure (natural 1-3)" in text and "15.00% (3/20)" in text


def test_the_2e_schemas_are_current() -> None:
    assert (ROOT / "docs" / "statblock2e.schema.json").read_text() == statblock2e_schema()
    assert (ROOT / "docs" / "scenario2e.schema.json").read_text() == scenario2e_schema()
    code, text = run("schema", "statblock2e")
    assert code == 0 and json.loads(text)["title"] == "StatBlock2e"


def test_a_bad_2e_scenario_names_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: sf2e\ncombatants:\n  - {id: A, side: x, statblock: no-such-creature}\n", encoding="utf-8")
    r = run_main("run", str(bad))
    assert r.returncode == 2 and "combatants[0].statblock" in r.stderr + r.stdout


def test_the_same_seed_gives_the_same_2e_bytes_in_any_process() -> None:
    """Sets (immunities, traits) are written sorted: the JSON does not depend on the process's hash seed."""
    import os

    outs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        code = "from sftactics.cli import main; main()"
        args = ["run", str(SCENARIOS[1]), "--seed", "4", "--json", "--max-rounds", "2"]
        r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120, env=env)
        assert r.returncode == 0, r.stderr
        outs.append(r.stdout)
    assert outs[0] == outs[1]


def test_sweep_says_it_varies_1e_scenarios() -> None:
    r = run_main("sweep", str(SCENARIOS[1]), "--vary", "party_level=2,3", "--runs", "2")
    assert r.returncode == 2 and "1st-edition scenario" in r.stderr + r.stdout
