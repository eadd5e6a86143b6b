"""The shipped vehicle fights through the command line: run, replay, map, simulate, play (VEH, AOO-13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sftactics.cli import app

ROOT = Path(__file__).parent.parent.parent
FIGHTS = [str(ROOT / "scenarios" / "enercycle-ambush.yaml"), str(ROOT / "scenarios" / "hovertrike-raid.yaml")]
runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    r = runner.invoke(app, list(args), input=input)
    return r.exit_code, r.output


@pytest.mark.rule("VEH-01", "VEH-15", "VEH-28")
@pytest.mark.parametrize("scenario", FIGHTS)
def test_run_then_replay_word_for_word(scenario: str, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    code, ran = run("run", scenario, "--seed", "3", "--brief", "--save", str(log))
    assert code == 0 and "Combat over" in ran
    code, replayed = run("replay", str(log), "--brief")
    assert code == 0 and replayed == ran
    _, state = run("replay", str(log), "--json")
    assert json.loads(state)["vehicles"]


@pytest.mark.rule("VEH-15", "AOO-13")
def test_the_raid_drives_and_provokes() -> None:
    code, text = run("run", FIGHTS[1], "--seed", "2")
    assert code == 0
    assert "drives Trike2" in text and "[VEH-15]" in text
    assert "Trike2 provokes an attack of opportunity from Sorin" in text


@pytest.mark.rule("VEH-03")
def test_map_draws_the_vehicles(tmp_path: Path) -> None:
    svg = tmp_path / "raid.svg"
    code, text = run("map", FIGHTS[1], "--svg", str(svg))
    assert code == 0
    assert "vehicle > Trike2 (raiders) at 2,7 (2x2), heading E, 28/28 HP, riders: Vex, Tam" in text
    row7 = next(line for line in text.splitlines() if line.startswith(" 7  "))
    assert row7.startswith(" 7  # . V T")
    body = svg.read_text()
    assert 'class="vehicle" data-name="Trike1" data-heading="E"' in body and 'class="heading"' in body


def test_simulate_plays_vehicle_fights_in_the_engine() -> None:
    code, text = run("simulate", FIGHTS[0], "-n", "3", "--no-progress")
    assert code == 0 and "party" in text


@pytest.mark.rule("VEH-15", "VEH-06")
def test_play_drives_and_races_with_the_verbs() -> None:
    lines = "begin\ndrive 5,3 facing E\nend\nquit\n"
    code, text = run("play", FIGHTS[0], "--seed", "4", input=lines)
    assert code == 0, text
    assert "Cycle1 drives 20 ft: 1,3 -> 2,3 -> 3,3 -> 4,3 -> 5,3 (now at 5,3, heading E) [VEH-15]" in text


def test_scenario_errors_name_the_file_and_field(tmp_path: Path) -> None:
    from sftactics.core.errors import FileFormatError
    from sftactics.io.scenario import load_scenario

    bad = tmp_path / "bad.yaml"
    text = (ROOT / "scenarios" / "enercycle-ambush.yaml").read_text()
    cases = [
        (text.replace("pilot: Krask", "pilot: Nobody"),
         "vehicles[1].pilot: a combatant's name; there is no combatant named 'Nobody'"),
        (text.replace("vehicle: basic enercycle, at: [1, 5]", "vehicle: flying carpet, at: [1, 5]"),
         "vehicles[1].vehicle: a vehicle file or a bundled vehicle (Acid Auger, Basic Enercycle, Heavy Walker, "
         "Hovertrike, Survey Walker, Water Bear); 'flying carpet' is neither"),
        (text.replace("at: [1, 5]", "at: [1, 4]"), "vehicles[1].at: a space apart from Cycle1's"),
        (text.replace("at: [1, 5]", "at: [0, 5]"), "vehicles[1].at: open ground for Cycle2; 0,5 is not"),
        (text.replace("heading: E, pilot: Krask", "heading: NE, pilot: Krask"), "vehicles[1].heading"),
        (text.replace("{id: Nyx, side: party, statblock: pregen-operative-4}",
                      "{id: Nyx, side: party, statblock: pregen-operative-4, at: [8, 1]}"),
         "vehicles[0].pilot: a rider standing inside Cycle1's space (Nyx is at 8,1; leave its `at` out)"),
        (text.replace("{id: Gob1, side: goblins, statblock: space-goblin, at: [14, 2]}",
                      "{id: Gob1, side: goblins, statblock: space-goblin, at: [2, 6]}"),
         "combatants[2].at: a square outside Cycle2's space"),
    ]  # fmt: skip
    for body, expected in cases:
        bad.write_text(body)
        with pytest.raises(FileFormatError) as e:
            load_scenario(bad)
        assert expected in str(e.value) and str(bad) in str(e.value)


def test_the_compiled_kernel_refuses_vehicle_fights() -> None:
    from sftactics.io.scenario import load_scenario
    from sftactics.sim.kernel.model import unsupported

    assert "vehicles (VEH: piloting, riders and collisions are the engine's)" in unsupported(load_scenario(FIGHTS[0]))
