from pathlib import Path

import pytest

from sftactics.core.errors import FileFormatError
from sftactics.io.reference import commands_markdown, scenario_schema
from sftactics.io.scenario import load_commands, load_scenario

ROOT = Path(__file__).parent.parent.parent
SCENARIOS = sorted((ROOT / "examples" / "scenarios").glob("*.yaml"))
SOLDIER = (ROOT / "examples" / "statblocks" / "vesk-soldier.yaml").as_posix()


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_shipped_scenarios_load(path: Path) -> None:
    enc = load_scenario(path)
    assert len(enc.sides()) >= 2 and enc.grid is not None


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "s.yaml"
    p.write_text(text)
    return p


BASE = f"""
name: test
combatants:
  - {{id: Krask, side: party, statblock: {SOLDIER}}}
  - {{id: Ksarik, side: aliens, statblock: ksarik}}
"""


def test_statblocks_by_path_and_by_bundled_name(tmp_path: Path) -> None:
    enc = load_scenario(write(tmp_path, BASE))
    assert enc.creature("Krask").stat.name == "Krask"
    assert enc.creature("Ksarik").stat.cr == "2"


def test_starting_state_and_conditions(tmp_path: Path) -> None:
    text = BASE.replace(
        "statblock: ksarik}",
        "statblock: ksarik, state: {hp: 10, conditions: [{name: shaken, rounds: 2}]}, initiative: 14}",
    )
    enc = load_scenario(write(tmp_path, text))
    k = enc.get("Ksarik")
    assert k.creature.state.hp == 10 and k.creature.has("shaken") and k.initiative == 14


@pytest.mark.parametrize(
    ("change", "field", "expected"),
    [
        ("statblock: ksarik}", "combatants[1].statblock", "neither"),
        ("statblock: ksarik, state: {hp: 99}}", "combatants[1].state.hp", "at most the maximum 25"),
        ("statblock: ksarik, state: {conditions: [{name: grumpy}]}}", "combatants[1].state.conditions[0].name",
         "unknown condition"),
        ("statblock: ksarik, at: [1]}", "combatants.1.at", ""),
        ("statblock: ksarik, colour: red}", "combatants.1.colour", "unknown field"),
    ],
)  # fmt: skip
def test_errors_name_the_file_and_the_field(tmp_path: Path, change: str, field: str, expected: str) -> None:
    text = BASE.replace("statblock: ksarik}", change)
    if field == "combatants[1].statblock":
        text = BASE.replace("statblock: ksarik}", "statblock: no-such-creature}")
    p = write(tmp_path, text)
    with pytest.raises(FileFormatError) as e:
        load_scenario(p)
    assert e.value.file == str(p)
    assert e.value.field.replace("[", ".").replace("]", "").startswith(field.replace("[", ".").replace("]", ""))
    assert expected in e.value.expected


def test_one_side_is_a_trap_room_and_names_are_unique(tmp_path: Path) -> None:
    one_side = BASE.replace("side: aliens", "side: party")
    enc = load_scenario(write(tmp_path, one_side))
    assert enc.sides() == ["party"]
    twins = BASE.replace("id: Ksarik", "id: Krask")
    with pytest.raises(FileFormatError, match="unique"):
        load_scenario(write(tmp_path, twins))


def test_a_combatant_off_the_map_is_refused(tmp_path: Path) -> None:
    text = "map: |\n  ....\n  ....\n" + BASE.replace("statblock: ksarik}", "statblock: ksarik, at: [9, 9]}")
    with pytest.raises(FileFormatError) as e:
        load_scenario(write(tmp_path, text))
    assert e.value.field == "combatants[1].at"


def test_command_files(tmp_path: Path) -> None:
    p = tmp_path / "c.yaml"
    p.write_text("- {type: begin}\n- {type: attack, actor: A, target: B}\n")
    cmds = load_commands(p)
    assert [c.type for c in cmds] == ["begin", "attack"]
    p.write_text("- {type: begin}\n- {type: attack, actor: A}\n")
    with pytest.raises(FileFormatError) as e:
        load_commands(p)
    assert e.value.field.startswith("[1]")
    p.write_text("- {type: teleport}\n")
    with pytest.raises(FileFormatError):
        load_commands(p)


def test_generated_scenario_docs_are_current() -> None:
    assert (ROOT / "docs" / "scenario.schema.json").read_text() == scenario_schema()
    assert (ROOT / "docs" / "commands.md").read_text() == commands_markdown()
