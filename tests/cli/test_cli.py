"""The command line, run in-process. Errors must be messages with exit code 2, never tracebacks."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sftactics.cli import app

ROOT = Path(__file__).parent.parent.parent
SOLDIER = str(ROOT / "examples" / "statblocks" / "vesk-soldier.yaml")
KSARIK = str(ROOT / "examples" / "statblocks" / "ksarik.yaml")
runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.output


def run_main(*args: str) -> subprocess.CompletedProcess[str]:
    """Through the real entry point, so error handling is exercised as users see it."""
    code = "from sftactics.cli import main; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60)


def test_roll_is_reproducible_by_seed() -> None:
    a = run("roll", "3d6 B + 1d6 fire", "--seed", "4")
    b = run("roll", "3d6 B + 1d6 fire", "--seed", "4")
    assert a == b and a[0] == 0
    assert "bludgeoning" in a[1] and "fire" in a[1]


def test_roll_with_scripted_dice() -> None:
    code, text = run("roll", "2d6+4", "--dice", "3,5")
    assert code == 0 and text.strip() == "2d6[3,5] +4 = 12"


@pytest.mark.rule("ATK-05", "ATK-14")
def test_odds_prints_exact_chances_and_expected_damage() -> None:
    code, text = run("odds", "1d20+9", "--ac", "21", "--damage", "1d6+4")
    assert code == 0
    assert "45.00% (9/20)" in text
    assert "5.00% (1/20)" in text
    assert "3.750" in text and "8.333" in text


def test_attack_explains_every_number_with_scripted_dice() -> None:
    code, text = run("attack", SOLDIER, KSARIK, "--weapon", "doshko", "--dice", "12,10")
    assert code == 0, text
    assert "KAC 15 = +15 printed KAC [ATK-06]" in text
    assert "+2 base attack bonus [ATK-02] +3 Strength modifier [ATK-02]" in text
    assert "d20 12 +5 = 17 vs 15: success" in text
    assert "Ksarik: SP 0, HP 12, RP 0" in text


def test_attack_json_output_carries_the_dice() -> None:
    code, text = run("attack", SOLDIER, KSARIK, "--weapon", "doshko", "--dice", "12,10", "--json")
    assert code == 0
    data = json.loads(text)
    assert data["hit"] is True and data["damage"] == 13
    assert [d["result"] for d in data["dice"]] == [12, 10]
    assert data["defender_after"]["hp"] == 12


def test_duel_runs_to_a_result_and_is_deterministic() -> None:
    a = run("duel", SOLDIER, KSARIK, "--seed", "7", "--brief")
    assert a[0] == 0 and "Combat over in round 3: first wins" in a[1]
    assert "Krask attacks Ksarik with tactical doshko: hit for 13" in a[1]
    assert a == run("duel", SOLDIER, KSARIK, "--seed", "7", "--brief")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("roll", "2d6+"), "ends without a term"),
        (("odds", "2d6+1", "--ac", "10"), "one d20 plus a bonus"),
        (("attack", SOLDIER, "missing.yaml", "--weapon", "doshko"), "missing.yaml: file not found"),
        (("attack", SOLDIER, KSARIK, "--weapon", "banana"), "has no weapon named 'banana'"),
        (("attack", SOLDIER, KSARIK, "--weapon", "doshko", "--dice", "12"), "scripted dice ran out"),
        (("attack", SOLDIER, KSARIK, "--weapon", "doshko", "--dice", "25"), "impossible for the d20"),
        (("roll", "1d6", "--seed", "1", "--dice", "3"), "not both"),
        (("schema", "nothing"), "expected one of"),
    ],
)
def test_user_errors_are_messages_not_tracebacks(args: tuple[str, ...], message: str) -> None:
    p = run_main(*args)
    assert p.returncode == 2, p.stderr
    assert message in p.stderr
    assert "Traceback" not in p.stderr + p.stdout


SCENARIO = str(ROOT / "examples" / "scenarios" / "derelict-ambush.yaml")
OPENING = str(ROOT / "examples" / "commands" / "opening.yaml")


def test_run_plays_the_shipped_scenario_to_the_end() -> None:
    code, text = run("run", SCENARIO, "--seed", "3", "--brief")
    assert code == 0, text
    assert "=== Surprise round ===" in text and "Combat over in round" in text
    assert run("run", SCENARIO, "--seed", "3", "--brief") == (code, text)


def test_run_with_a_command_file() -> None:
    code, text = run("run", SCENARIO, "--seed", "3", "--commands", OPENING, "--brief")
    assert code == 0, text
    assert "Nyx takes a guarded step 5 ft: 2,6 -> 3,6" in text
    assert "Nyx attacks Ksarik with survival knife: hit for 2" in text  # adjacent: a melee strike (ATK-02)
    assert "Nyx (party) at 3,6: SP 9/14 HP 14/14 RP 5/5" in text


def test_run_json_replays_to_the_same_state(tmp_path: Path) -> None:
    from sftactics.encounter.events import EVENT_ADAPTER, replay
    from sftactics.io.scenario import load_scenario

    code, text = run("run", SCENARIO, "--seed", "5", "--json")
    assert code == 0
    data = json.loads(text)
    events = [EVENT_ADAPTER.validate_python(e) for e in data["events"]]
    final = replay(load_scenario(SCENARIO), events)
    assert json.loads(final.model_dump_json()) == data["state"]


def test_saved_log_replays(tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    code, _ = run("run", SCENARIO, "--seed", "5", "--save", str(log), "--brief")
    assert code == 0 and log.exists()
    code, state = run("replay", str(log), "--json")
    _, full = run("run", SCENARIO, "--seed", "5", "--json")
    assert json.loads(state) == json.loads(full)["state"]
    _, ran = run("run", SCENARIO, "--seed", "5", "--brief")
    code, replayed = run("replay", str(log), "--brief")  # the fight itself, word for word
    assert code == 0 and replayed == ran
    _, final = run("replay", str(log), "--final")
    assert final.strip() and all(f"  {line}" in ran.splitlines() for line in final.splitlines())


def test_run_with_scripted_dice_file(tmp_path: Path) -> None:
    dice = tmp_path / "dice.txt"
    dice.write_text("10 10 10 10 10 10 10 10\n")
    p = run_main("run", SCENARIO, "--dice", f"scripted:{dice}", "--commands", str(tmp_path / "none.yaml"))
    assert p.returncode == 2 and "none.yaml: file not found" in p.stderr


def test_run_refused_command_names_the_file_and_index() -> None:
    p = run_main("run", SCENARIO, "--seed", "3", "--commands", str(ROOT / "tests" / "data" / "bad-commands.yaml"))
    assert p.returncode == 2
    assert "bad-commands.yaml: command [1] (attack) refused" in p.stderr and "[CF-12]" in p.stderr


def test_the_same_seed_gives_the_same_bytes_in_any_process() -> None:
    import os

    outs = []
    for hashseed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        code = "from sftactics.cli import main; main()"
        p = subprocess.run([sys.executable, "-c", code, "run", SCENARIO, "--seed", "9", "--json"],
                           capture_output=True, text=True, timeout=120, env=env)  # fmt: skip
        assert p.returncode == 0, p.stderr
        outs.append(p.stdout)
    assert outs[0] == outs[1]


def test_attack_and_duel_take_bundled_names_and_pregen_files() -> None:
    pregen = Path(__file__).parents[2] / "src/sftactics/data/statblocks/pregen-soldier-2.yaml"
    by_name = runner.invoke(app, ["attack", "pregen-soldier-2", "ksarik", "--weapon", "a", "--dice", "15,4"])
    by_file = runner.invoke(app, ["attack", str(pregen), "ksarik", "--weapon", "a", "--dice", "15,4"])
    assert by_name.exit_code == 0, by_name.output
    assert by_name.output == by_file.output  # the file names armory items: expanded as the bundled one is
    duel = runner.invoke(app, ["duel", "ksarik", "space goblin", "--seed", "3"])
    assert duel.exit_code == 0, duel.output
    bad = run_main("duel", "nobody", "ksarik")
    assert bad.returncode == 2
    assert "nobody: a stat-block file or a bundled creature's name" in bad.stderr


def test_help_shows_no_bool_type_for_flags() -> None:
    for cmd in ("run", "simulate", "query", "map", "attack", "play"):
        text = runner.invoke(app, [cmd, "--help"], env={"COLUMNS": "80"}).output
        assert "--help" in text
        assert "<bool>" not in text, cmd


def test_one_default_seed_and_one_meaning_of_dice_in_every_command(tmp_path: Path) -> None:
    from sftactics.cli import DEFAULT_SEED

    for args in (("roll", "3d6"), ("attack", SOLDIER, KSARIK, "--weapon", "doshko"), ("duel", "ksarik", "ksarik")):
        default = run(*args)
        seeded = run(*args, "--seed", str(DEFAULT_SEED))
        assert default == seeded and default[0] == 0
    dice = tmp_path / "dice.txt"
    dice.write_text("4 5 6\n")
    assert run("roll", "3d6", "--dice", "4,5,6") == run("roll", "3d6", "--dice", f"scripted:{dice}")
    assert "4" in run("roll", "3d6", "--dice", "4,5,6")[1]
    p = run_main("roll", "1d6", "--dice", "x")
    assert p.returncode == 2 and "--dice: expected whole numbers" in p.stderr


def test_the_command_list_reads_as_flowing_lines_in_80_columns() -> None:
    for info in app.registered_commands:
        assert info.short_help and "\n" not in info.short_help, info.name
    text = runner.invoke(app, ["--help"], env={"COLUMNS": "80"}).output
    assert "VERB), the map, your own dice or the engine's, undo and save" in text
    assert all(len(line) <= 80 for line in text.splitlines())
