"""The shipped stat blocks, scenarios and command files with one number set outside its valid range
(sftactics/sf1e/limits.py) are refused with a FileFormatError naming the file and the field (issue 20)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sftactics.content import expand_refs
from sftactics.core.errors import FileFormatError
from sftactics.io.scenario import load_commands, load_scenario
from sftactics.io.statblocks import load_statblock
from sftactics.sf1e import limits as L
from tests.fuzz.mutate import KINDS

#: (path in the stat block, lowest, highest, step): a weapon's fields are those of its first weapon
STATBLOCK: list[tuple[tuple[Any, ...], int, int, int]] = [
    (("hp",), 1, L.HP_MAX, 1), (("sp",), 0, L.SP_MAX, 1), (("rp",), 0, L.RP_MAX, 1),
    (("eac",), L.AC_MIN, L.AC_MAX, 1), (("kac",), L.AC_MIN, L.AC_MAX, 1), (("bab",), 0, L.BAB_MAX, 1),
    (("initiative",), L.INIT_MIN, L.INIT_MAX, 1), (("initiative_bonus",), L.INIT_MIN, L.INIT_MAX, 1),
    (("sr",), 0, L.SR_MAX, 1), (("level",), 1, L.LEVEL_MAX, 1), (("reach_ft",), 0, L.REACH_MAX, 5),
    (("speed", "land"), 0, L.SPEED_MAX, 5), (("speed", "fly"), 0, L.SPEED_MAX, 5),
    (("saves", "fort"), L.SAVE_MIN, L.SAVE_MAX, 1), (("saves", "will"), L.SAVE_MIN, L.SAVE_MAX, 1),
    (("abilities", "dex"), L.MOD_MIN, L.MOD_MAX, 1), (("scores", "str"), L.SCORE_MIN, L.SCORE_MAX, 1),
    (("skills", "perception"), L.SKILL_MIN, L.SKILL_MAX, 1), (("senses", "darkvision"), 0, L.SENSE_MAX, 1),
    (("resistances", "fire"), 0, L.RESIST_MAX, 1),
    (("weapons", 0, "attack_bonus"), L.ATTACK_MIN, L.ATTACK_MAX, 1),
    (("weapons", 0, "range_ft"), 0, L.RANGE_MAX, 5), (("weapons", 0, "item_level"), 0, L.ITEM_LEVEL_MAX, 1),
    (("weapons", 0, "critical_dc"), L.DC_MIN, L.DC_MAX, 1), (("weapons", 0, "capacity"), 1, L.CAPACITY_MAX, 1),
    (("weapons", 0, "reach_ft"), 0, L.REACH_MAX, 5),
]  # fmt: skip
#: (path in a combatant entry, lowest, highest, step)
COMBATANT: list[tuple[tuple[Any, ...], int, int, int]] = [
    (("initiative",), L.INIT_MIN, L.INIT_MAX, 1), (("at", 0), 0, L.MAP_SIDE_MAX - 1, 1),
    (("at", 1), 0, L.MAP_SIDE_MAX - 1, 1), (("state", "hp"), 0, L.HP_MAX, 1),
    (("state", "temp_hp"), 0, L.HP_MAX, 1), (("state", "sp"), 0, L.SP_MAX, 1),
]  # fmt: skip
#: (GM command, its number field, lowest, highest)
GM: list[tuple[str, str, int, int]] = [
    ("heal", "hp", 0, L.AMOUNT_MAX), ("heal", "sp", 0, L.AMOUNT_MAX), ("damage", "amount", 0, L.AMOUNT_MAX),
    ("add_condition", "rounds", 1, L.ROUNDS_MAX), ("join", "initiative", L.INIT_MIN, L.INIT_MAX),
]  # fmt: skip
FAR = 10**15


def _outside(lo: int, hi: int, step: int) -> st.SearchStrategy[int]:
    out = st.one_of(st.integers(lo - FAR, lo - 1), st.integers(hi + 1, hi + FAR))
    if step > 1:
        out = st.one_of(out, st.integers(lo, hi).filter(lambda v: v % step != 0))
    return out


def _dotted(path: tuple[Any, ...]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else ("." if out else "") + p
    return out


def _put(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for p in path[:-1]:
        data = data.setdefault(p, {}) if isinstance(data, dict) else data[p]
    data[path[-1]] = value


def _statblocks() -> list[tuple[str, dict[str, Any]]]:
    """The shipped stat blocks as plain data that loads (armory names written out)."""
    return [(p.name, expand_refs(yaml.safe_load(p.read_text()))) for p in KINDS["statblock"][0]]


STATBLOCKS = _statblocks()
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip


def _refused(load: Any, path: Path, field: str) -> None:
    with pytest.raises(FileFormatError) as e:
        load(path)
    assert e.value.file == str(path)
    assert e.value.field == field or e.value.field.startswith(f"{field}[") or e.value.expected.startswith(field)


def test_the_shipped_stat_blocks_load_as_data(tmp_path: Path) -> None:
    for name, data in STATBLOCKS:
        p = tmp_path / name
        p.write_text(yaml.safe_dump(data))
        assert load_statblock(p).name == data["name"]


@SETTINGS
@given(data=st.data())
def test_a_stat_block_number_out_of_range_names_file_and_field(tmp_path: Path, data: st.DataObject) -> None:
    name, block = data.draw(st.sampled_from(STATBLOCKS))
    field, lo, hi, step = data.draw(st.sampled_from(STATBLOCK))
    if field[0] == "weapons" and not block.get("weapons"):
        field, lo, hi, step = STATBLOCK[0]
    block = copy.deepcopy(block)
    _put(block, field, data.draw(_outside(lo, hi, step)))
    p = tmp_path / name
    p.write_text(yaml.safe_dump(block))
    _refused(load_statblock, p, _dotted(field))


@SETTINGS
@given(data=st.data())
def test_absurd_dice_in_a_stat_block_name_file_and_field(tmp_path: Path, data: st.DataObject) -> None:
    name, block = data.draw(st.sampled_from([s for s in STATBLOCKS if s[1].get("weapons")]))
    count = data.draw(st.integers(1, 10**6))
    sides = data.draw(st.integers(101, 10**6) if count <= 100 else st.integers(1, 10**6))
    block = copy.deepcopy(block)
    block["weapons"][0]["damage"] = f"{count}d{sides} F"
    p = tmp_path / name
    p.write_text(yaml.safe_dump(block))
    _refused(load_statblock, p, "weapons[0].damage")


@SETTINGS
@given(data=st.data())
def test_a_scenario_number_out_of_range_names_file_and_field(tmp_path: Path, data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(KINDS["scenario"][0]))
    scen = yaml.safe_load(source.read_text())
    i = data.draw(st.integers(0, len(scen["combatants"]) - 1))
    field, lo, hi, step = data.draw(st.sampled_from(COMBATANT))
    entry = scen["combatants"][i]
    if field[0] == "at":
        entry["at"] = list(entry.get("at") or [1, 1])
    _put(entry, field, data.draw(_outside(lo, hi, step)))
    p = tmp_path / source.name
    p.write_text(yaml.safe_dump(scen))
    _refused(load_scenario, p, _dotted(("combatants", i, *field)))


@SETTINGS
@given(data=st.data())
def test_a_command_number_out_of_range_names_file_and_field(tmp_path: Path, data: st.DataObject) -> None:
    source = KINDS["commands"][0][0]
    commands = yaml.safe_load(source.read_text())
    kind, field, lo, hi = data.draw(st.sampled_from(GM))
    cmd: dict[str, Any] = {"type": kind, "target": "Krask", "condition": "shaken"}
    if kind == "join":
        cmd = {"type": kind, "id": "New", "side": "aliens", "statblock": "ksarik"}
    cmd[field] = data.draw(_outside(lo, hi, 1))
    at = data.draw(st.integers(0, len(commands)))
    commands.insert(at, cmd)
    p = tmp_path / source.name
    p.write_text(yaml.safe_dump(commands))
    _refused(load_commands, p, f"[{at}].{kind}.{field}")
