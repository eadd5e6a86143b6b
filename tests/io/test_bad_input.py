"""Bad input is refused with a message naming the file (or command), the field and what was expected; never a
traceback, and a refused command leaves the fight as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from sftactics.core.errors import CommandError, FileFormatError, RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.encounter.commands import Begin, parse_command
from sftactics.encounter.engine import Fight
from sftactics.io.scenario import load_commands, load_scenario

ROOM = """\
name: room
map: |
  ######
  #....#
  #.=..#
  #....#
  ######
combatants:
{combatants}
"""
STATS = "cr: '1', hp: 10, kac: 12, eac: 12, saves: {fort: 1, ref: 1, will: 1}"
PC = "{id: Ann, side: party, statblock: {name: Ann, " + STATS + "}, at: [1, 1]}"
FOE = "{id: Bob, side: foes, statblock: {name: Bob, " + STATS + "}, at: [4, 3]}"


def _scenario(tmp_path: Path, *combatants: str) -> Path:
    p = tmp_path / "room.yaml"
    p.write_text(ROOM.format(combatants="\n".join(f"  - {c}" for c in combatants)))
    return p


def test_a_bad_inline_stat_block_names_the_real_problem(tmp_path: Path) -> None:
    bad = "{id: Ann, side: party, statblock: {name: Ann, cr: '1', hp: -1, kac: 12, eac: 12}, at: [1, 1]}"
    with pytest.raises(FileFormatError) as e:
        load_scenario(_scenario(tmp_path, bad, FOE))
    assert e.value.field == "combatants[0].statblock.hp"
    assert "greater than or equal to 1" in e.value.expected


def test_the_strength_score_is_still_called_str(tmp_path: Path) -> None:
    bad = "{id: Ann, side: party, statblock: {name: Ann, cr: '1', hp: 5, abilities: {str: x}}, at: [1, 1]}"
    with pytest.raises(FileFormatError) as e:
        load_scenario(_scenario(tmp_path, bad, FOE))
    assert e.value.field == "combatants[0].statblock.abilities.str"


@pytest.mark.rule("MOV-01", "MOV-16")
@pytest.mark.parametrize(
    ("at", "why"),
    [("[0, 0]", "0,0 is a wall"), ("[2, 2]", "2,2 holds an object"), ("[9, 9]", "9,9 is off the"),
     ("[4, 3]", "cannot be put on Bob's square")],
)  # fmt: skip
def test_a_scenario_cannot_start_a_creature_where_it_cannot_stand(tmp_path: Path, at: str, why: str) -> None:
    bad = PC.replace("[1, 1]", at)
    with pytest.raises(FileFormatError) as e:
        load_scenario(_scenario(tmp_path, FOE, bad))
    assert e.value.field == "combatants[1].at"
    assert why in e.value.expected


def test_duplicate_names_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError) as e:
        load_scenario(_scenario(tmp_path, PC, PC.replace("[1, 1]", "[3, 1]"), FOE))
    assert "two combatants are named 'Ann'" in e.value.expected


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_deeply_nested_data_is_an_error_not_a_crash(tmp_path: Path, suffix: str) -> None:
    p = tmp_path / f"deep{suffix}"
    p.write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(FileFormatError) as e:
        load_scenario(p)
    assert e.value.file == str(p)


def test_a_command_file_names_the_command_and_field(tmp_path: Path) -> None:
    p = tmp_path / "cmds.yaml"
    p.write_text("- {type: end_turn, actor: Ann}\n- {type: attack, target: Bob}\n")
    with pytest.raises(FileFormatError) as e:
        load_commands(p)
    assert e.value.field == "[1].attack.actor"
    assert e.value.expected == "required field is missing"


def _fight(tmp_path: Path) -> Fight:
    f = Fight(load_scenario(_scenario(tmp_path, PC, FOE)), ScriptedDice([15, 5]))
    f.do(Begin())
    return f


def test_ready_with_an_empty_action_is_a_clear_error_and_changes_nothing(tmp_path: Path) -> None:
    f = _fight(tmp_path)
    before = f.state
    with pytest.raises(CommandError) as e:
        f.do({"type": "ready", "actor": "Ann", "action": {}})
    assert e.value.field == "action"
    assert f.state == before


def test_parse_command_names_the_field() -> None:
    with pytest.raises(CommandError) as e:
        parse_command({"type": "move", "actor": "Ann", "to": "north"})
    assert e.value.field.startswith("move.to")


def test_join_with_a_bad_inline_stat_block_names_the_field(tmp_path: Path) -> None:
    f = _fight(tmp_path)
    before = f.state
    with pytest.raises(CommandError) as e:
        f.do({"type": "join", "id": "Cy", "side": "foes", "statblock": {"name": "Cy", "hp": -1}, "at": [3, 1]})
    assert e.value.field == "statblock.hp"
    assert f.state == before


@pytest.mark.rule("MOV-01", "MOV-16")
@pytest.mark.parametrize(("at", "rule"), [([0, 2], "MOV-01"), ([2, 2], "MOV-01"), ([7, 1], "MOV-01"),
                                          ([4, 3], "MOV-16")])  # fmt: skip
def test_join_cannot_place_a_creature_where_it_cannot_stand(tmp_path: Path, at: list[int], rule: str) -> None:
    f = _fight(tmp_path)
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.do({"type": "join", "id": "Cy", "side": "foes", "statblock": "space-goblin", "at": at, "initiative": 3})
    assert e.value.rule == rule
    assert f.state == before
    f.do({"type": "join", "id": "Cy", "side": "foes", "statblock": "space-goblin", "at": [3, 1], "initiative": 3})
    assert f.state.get("Cy").position == (3, 1)


def test_a_map_larger_than_the_limit_is_refused_up_front(tmp_path: Path) -> None:
    from sftactics.grid.map import MAX_SIDE

    p = tmp_path / "big.yaml"
    rows = "\n".join("  " + "." * (MAX_SIDE + 1) for _ in range(2))
    p.write_text(f"name: big\nmap: |\n{rows}\ncombatants:\n  - {PC}\n  - {FOE}\n")
    with pytest.raises(FileFormatError) as e:
        load_scenario(p)
    assert str(e.value).startswith(f"{p}: map: a map at most {MAX_SIDE} squares wide")
