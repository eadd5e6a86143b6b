"""`sftactics chase`, `play`, `simulate` and `schema chase` on chase scenarios, through the CLI. Data:
tests/data/chases; the shipped chases are in scenarios/chases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sftactics.cli import app
from sftactics.io.chase_scenario import chase_schema

ROOT = Path(__file__).parent.parent.parent
DATA = ROOT / "tests" / "data" / "chases"
SAMPLE = str(DATA / "sample.yaml")
COMMANDS = str(DATA / "sample-commands.yaml")
SHIPPED = sorted((ROOT / "scenarios" / "chases").glob("*.yaml"))
runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    r = runner.invoke(app, list(args), input=input)
    return r.exit_code, r.output


@pytest.mark.rule("CHS-41", "CHS-14", "CHS-12", "CHS-20", "CHS-24")
def test_chase_from_a_command_file_with_scripted_dice() -> None:
    code, text = run("chase", SAMPLE, "--commands", COMMANDS, "--dice", "18,5,12,2,20,3,4")
    assert code == 0, text
    assert (
        "buggy speed up: Piloting d20 18 (+8 piloting bonus [GEN-01] +0 Sample-chase buggy Piloting modifier "
        "[VEH-02] -4 double maneuver [CHS-14]) = 22 vs DC 18" in text
    )
    assert "buggy trick: Piloting d20 5" in text and "= 9 vs DC 16" in text
    assert "cycle2 is 2+ zones behind its nearest adversary: it is left behind [CHS-20]" in text
    assert (
        "Gunner attacks cycle1 with rifle: d20 20 (+6 printed attack bonus (rifle) [ATK-01] -2 attacking from "
        "buggy [CHS-24]) = 24 vs EAC 10" in text
    )
    assert "chase over after 1 round(s): every Gang vehicle is wrecked or left behind: PCs catch them" in text


def test_chase_json_has_checks_with_terms_dcs_and_dice() -> None:
    code, text = run("chase", SAMPLE, "--commands", COMMANDS, "--dice", "18,5,12,2,20,3,4", "--json")
    assert code == 0
    data = json.loads(text)
    speed = next(e for e in data["events"] if e["kind"] == "pilot")
    assert speed["checks"][0]["total"] == 22
    rules = {t["rule"] for t in speed["checks"][0]["bonus"]["terms"]}
    assert {"GEN-01", "VEH-02", "CHS-14"} <= rules
    assert speed["dcs"][0]["total"] == 18 and speed["dice"][0]["result"] == 18
    assert data["state"]["result"]["winner"] == "PCs"


def test_chase_refused_command_names_the_file_and_index(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("- {type: begin}\n- {type: progress}\n")
    r = runner.invoke(app, ["chase", SAMPLE, "--commands", str(bad), "--dice", "1"])
    assert r.exit_code != 0
    assert "command [1] (progress) refused" in str(r.exception) and "CHS-05" in str(r.exception)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_chases_run_to_an_end_and_repeat_by_seed(path: Path) -> None:
    a = run("chase", str(path), "--seed", "5", "--brief")
    b = run("chase", str(path), "--seed", "5", "--brief")
    assert a == b and a[0] == 0, a[1]
    assert "chase over after" in a[1]
    assert "== round 1, pilot actions" in a[1]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_simulate_a_shipped_chase(path: Path) -> None:
    code, text = run("simulate", str(path), "-n", "20", "--json", "--no-progress")
    assert code == 0, text
    data = json.loads(text[text.index("{") :])  # after the note on standard error
    assert data["runs"] == 20
    wins = sum(v["count"] for v in data["wins"].values()) + data["undecided"]["count"]
    assert wins == 20
    assert set(data["broken"]) == set(data["wrecked"])
    lo, hi = data["goal_met"]["ci95"]
    assert lo <= data["goal_met"]["p"] <= hi


def test_simulate_is_deterministic_and_refuses_the_compiled_kernel() -> None:
    a = run("simulate", str(SHIPPED[0]), "-n", "10", "--no-progress", "--seed", "3")
    b = run("simulate", str(SHIPPED[0]), "-n", "10", "--no-progress", "--seed", "3")
    assert a == b and "goal met" in a[1]
    r = runner.invoke(app, ["simulate", str(SHIPPED[0]), "-n", "5", "--engine", "compiled", "--no-progress"])
    assert r.exit_code != 0 and "does not play vehicle chases" in str(r.exception)


def test_play_a_chase_at_the_table(tmp_path: Path) -> None:
    save = tmp_path / "c.jsonl"
    lines = ["begin", "double buggy", "speed", "trick", "speed", "speed", "progress", "attack gunner cycle1",
             f"save {save}", "status", "quit"]  # fmt: skip
    code, text = run("play", SAMPLE, "--seed", "1", input="\n".join(lines) + "\n")
    assert code == 0, text
    assert "double maneuver (a full action), each check at -4 [CHS-14]" in text
    assert "Gunner attacks cycle1 with rifle" in text
    assert save.exists()
    code2, text2 = run("play", str(save), input="status\nundo\nstatus\nquit\n")
    assert code2 == 0 and "undone" in text2 and "round 1, combat" in text2


def test_play_refuses_with_the_rule_and_goes_on() -> None:
    code, text = run("play", SAMPLE, input="begin\nprogress\nengage cycle1\nbogus\nquit\n")
    assert code == 0
    assert "refused: chase progress comes after every pilot has acted" in text
    assert "buggy engage: Piloting" in text
    assert "unknown verb 'bogus'" in text


def test_chase_schema_is_current() -> None:
    code, text = run("schema", "chase")
    assert code == 0 and text == chase_schema()
    assert (ROOT / "docs" / "chase.schema.json").read_text() == text, (
        "regenerate: sftactics schema chase > docs/chase.schema.json"
    )


def test_play_a_chase_with_physical_dice() -> None:
    # the GM types the buggy's speed up die (12: 12 + 8 = 20 vs DC 18), cancels a keep pace, then lets the engine roll
    code, text = run("play", SAMPLE, "--physical", input="begin\nspeed\n12\nkeep\ncancel\nquit\n")
    assert code == 0, text
    assert "buggy speed up: Piloting d20 12" in text and "= 20 vs DC 18" in text
    assert "cancelled: nothing changed" in text


def test_a_saved_chase_replays_through_the_cli(tmp_path: Path) -> None:
    log = tmp_path / "c.jsonl"
    code, first = run("chase", SAMPLE, "--commands", COMMANDS, "--dice", "18,5,12,2,20,3,4", "--save", str(log))
    assert code == 0 and log.exists()
    code2, again = run("chase", str(log))  # no dice needed
    assert code2 == 0 and again == first


def test_run_on_a_chase_file_points_to_the_chase_command() -> None:
    r = runner.invoke(app, ["run", str(SHIPPED[0])])
    assert r.exit_code != 0
    assert "kind: a grid scenario; this is a vehicle chase: use sftactics chase" in str(r.exception)
