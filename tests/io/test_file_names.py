"""Every error a bad file causes names that file, the field and what was expected (issue 20): the load paths
that used to answer without the file (a weapon lookup, a stat-block reference the system cannot even look up,
a saved fight log of the wrong shape) and the ranges of scenario and command fields."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sftactics.core.errors import FileFormatError
from sftactics.encounter.commands import Begin
from sftactics.encounter.engine import Fight
from sftactics.encounter.runner import auto_play
from sftactics.io.scenario import load_commands, load_scenario

ROOT = Path(__file__).resolve().parents[2]
STATS = "cr: '1', hp: 10, kac: 12, eac: 12, saves: {fort: 1, ref: 1, will: 1}"
GUN = "weapons: [{name: laser pistol, damage: 1d4 F, attack_bonus: 3, range_ft: 80}]"


def _scenario(tmp_path: Path, entry: str, block: str = f"{{name: Ann, {STATS}, {GUN}}}") -> Path:
    """A one-combatant scenario; ``entry`` adds fields to the combatant or replaces its id or side."""
    fields = {"id": "Ann", "side": "party"}
    for key in fields:
        if entry.startswith(f", {key}:"):
            fields[key], entry = entry.removeprefix(f", {key}:").strip(), ""
    p = tmp_path / "room.yaml"
    p.write_text(
        f"name: room\ncombatants:\n  - {{id: {fields['id']}, side: {fields['side']}, statblock: {block}{entry}}}\n"
    )
    return p


def _refused(path: Path) -> FileFormatError:
    with pytest.raises(FileFormatError) as e:
        load_scenario(path)
    assert e.value.file == str(path)
    return e.value


@pytest.mark.parametrize("field", ["in_hand", "one_hand_grip"])
def test_an_unknown_weapon_in_hand_names_the_scenario(tmp_path: Path, field: str) -> None:
    err = _refused(_scenario(tmp_path, f", {field}: [laser pistol, doshko]"))
    assert err.field == f"combatants[0].{field}[1]"
    assert "no weapon named 'doshko'" in err.expected


@pytest.mark.parametrize("ref", ['"a\\0b"', "x" * 5000, "/", '""'])
def test_a_stat_block_reference_the_system_cannot_open_names_the_scenario(tmp_path: Path, ref: str) -> None:
    err = _refused(_scenario(tmp_path, "", block=ref))
    assert err.field == "combatants[0].statblock"


@pytest.mark.parametrize(
    ("entry", "field"),
    [(", at: [400, 0]", "combatants[0].at[0]"), (", at: [-1, 0]", "combatants[0].at[0]"),
     (", initiative: 1000000", "combatants[0].initiative"), (", id: ''", "combatants[0].id"),
     (", side: '  '", "combatants[0].side"), (", ammo: {laser pistol: -1}", "combatants[0].ammo.laser pistol"),
     (", state: {hp: 1000000}", "combatants[0].state.hp"), (", state: {temp_hp: -1}", "combatants[0].state.temp_hp"),
     (", state: {ability_damage: {str: 99}}", "combatants[0].state.ability_damage.str"),
     (", state: {conditions: [{name: shaken, rounds: 0}]}", "combatants[0].state.conditions[0].rounds"),
     (", state: {conditions: [{name: bleeding, value: 1000d1000}]}", "combatants[0].state.conditions[0].value"),
     (", state: {negative_levels: [{count: 41}]}", "combatants[0].state.negative_levels[0]")],
)  # fmt: skip
def test_absurd_scenario_values_name_the_file_and_field(tmp_path: Path, entry: str, field: str) -> None:
    assert _refused(_scenario(tmp_path, entry)).field == field


def test_a_command_file_with_an_absurd_number_names_the_file_and_field(tmp_path: Path) -> None:
    p = tmp_path / "cmds.yaml"
    p.write_text("- {type: begin}\n- {type: heal, target: Ann, hp: 1000000000}\n- {type: damage, target: Ann}\n")
    with pytest.raises(FileFormatError) as e:
        load_commands(p)
    assert (e.value.file, e.value.field) == (str(p), "[1].heal.hp")
    assert "less than or equal to 100000" in e.value.expected


@pytest.mark.parametrize(
    ("command", "field"),
    [("{type: damage, target: Ann, roll: 1000d1000}", "[0].damage.roll"),
     ("{type: move, actor: Ann, to: [100000000, 0]}", "[0].move.to[0]"),
     ("{type: add_condition, target: Ann, condition: shaken, rounds: 0}", "[0].add_condition.rounds"),
     ("{type: escape, actor: Ann, method: acrobatics, dc: 1000}", "[0].escape.dc")],
)  # fmt: skip
def test_absurd_command_values_name_the_field(tmp_path: Path, command: str, field: str) -> None:
    p = tmp_path / "cmds.yaml"
    p.write_text(f"- {command}\n")
    with pytest.raises(FileFormatError) as e:
        load_commands(p)
    assert (e.value.file, e.value.field) == (str(p), field)


def _log(tmp_path: Path) -> tuple[Path, list[str]]:
    f = Fight.seeded(load_scenario(ROOT / "examples" / "scenarios" / "derelict-ambush.yaml"), 3)
    f.do(Begin())
    auto_play(f, max_rounds=1)
    log = tmp_path / "fight.jsonl"
    f.save(log)
    return log, log.read_text().splitlines()


@pytest.mark.parametrize("head", ["[1, 2]", '"text"', '{"start": 5}', '{"start": {}, "seed": "x"}'])
def test_a_log_header_of_the_wrong_shape_names_the_file(tmp_path: Path, head: str) -> None:
    log, lines = _log(tmp_path)
    log.write_text("\n".join([head, *lines[1:]]) + "\n")
    with pytest.raises(FileFormatError) as e:
        Fight.load(log)
    assert (e.value.file, e.value.field) == (str(log), "line 1")


def test_a_log_line_of_the_wrong_shape_names_the_file_and_line(tmp_path: Path) -> None:
    log, lines = _log(tmp_path)
    log.write_text("\n".join([*lines[:2], "[1]", *lines[3:]]) + "\n")
    with pytest.raises(FileFormatError) as e:
        Fight.load(log)
    assert (e.value.file, e.value.field) == (str(log), "line 3")


def test_a_log_whose_events_do_not_replay_names_the_file(tmp_path: Path) -> None:
    log, lines = _log(tmp_path)
    head = json.loads(lines[0])
    head["start"]["combatants"].pop("Ksarik")
    log.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    with pytest.raises(FileFormatError) as e:
        Fight.load(log)
    assert e.value.file == str(log)
    assert "replay" in e.value.expected


def test_a_map_error_names_the_scenario_file_and_the_row(tmp_path: Path) -> None:
    p = tmp_path / "room.yaml"
    p.write_text("name: room\nmap: |\n  ####\n  #..\ncombatants:\n  - {id: Ann, side: a, statblock: ksarik}\n")
    err = _refused(p)
    assert err.field == "map: row 1"
    assert str(err) == f"{p}: map: row 1: 4 squares like row 0, found 3"


@pytest.mark.parametrize(
    ("suffix", "text", "where"),
    [(".yaml", "name: A\nhp: 5\ncr: '1'\nhp: 9000\n", "line 4 column 1"),
     (".json", '{"name": "A", "hp": 5, "hp": 9000}', "")],
)  # fmt: skip
def test_a_key_given_twice_is_refused_not_silently_replaced(tmp_path: Path, suffix: str, text: str, where: str) -> None:
    from sftactics.io.statblocks import load_statblock

    p = tmp_path / f"twice{suffix}"
    p.write_text(text)
    with pytest.raises(FileFormatError) as e:
        load_statblock(p)
    assert (e.value.file, e.value.field) == (str(p), where)
    assert "the key 'hp' given twice" in e.value.expected


def test_a_yaml_merge_key_is_not_a_key_given_twice(tmp_path: Path) -> None:
    p = tmp_path / "merge.yaml"
    ann = "{id: Ann, side: a, statblock: &s {name: Ann, " + STATS + "}}"
    bob = "{id: Bob, side: b, statblock: {<<: *s, name: Bob, hp: 12}}"
    p.write_text(f"combatants:\n  - {ann}\n  - {bob}\n")
    assert load_scenario(p).get("Bob").creature.stat.hp == 12
