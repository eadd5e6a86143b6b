"""Foundry data the importer cannot take at face value: refused with the field, or imported with a note."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from sftactics.core.errors import FileFormatError
from sftactics.io.foundry import import_actor, statblock_yaml

BARATHU = Path(__file__).resolve().parents[1] / "data" / "foundry-sfrpg" / "creatures" / "barathu.json"


@cache
def _barathu() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(BARATHU.read_text())
    return data


def _slam(data: dict[str, Any]) -> dict[str, Any]:
    return next(i for i in data["items"] if i["name"] == "Slam")


def test_a_name_with_a_control_character_is_refused_naming_the_field() -> None:
    data = copy.deepcopy(_barathu())
    data["name"] = "Bara\x00thu"
    with pytest.raises(FileFormatError) as e:
        import_actor(data, source="barathu.json")
    assert e.value.field == "name"
    assert "control characters" in e.value.expected


def test_every_imported_stat_block_reads_back() -> None:
    result = import_actor(copy.deepcopy(_barathu()), source="barathu.json")
    assert yaml.safe_load(statblock_yaml(result))["name"] == "Barathu"


def test_an_unknown_reference_in_a_damage_formula_is_noted() -> None:
    data = copy.deepcopy(_barathu())
    _slam(data)["system"]["damage"]["parts"][0]["formula"] = "1d4+6+@nothing.here"
    result = import_actor(data, source="barathu.json")
    slam = next(w for w in result.statblock.weapons if w.name.lower().startswith("slam"))  # type: ignore[union-attr]
    assert slam.damage is not None and slam.damage.startswith("1d4+6")
    assert any("@nothing.here" in n.message and "left out" in n.message for n in result.notes)


def test_a_numeric_critical_effect_is_left_out_with_a_note() -> None:
    data = copy.deepcopy(_barathu())
    _slam(data)["system"]["critical"]["effect"] = 5
    result = import_actor(data, source="barathu.json")
    slam = next(w for w in result.statblock.weapons if w.name.lower().startswith("slam"))  # type: ignore[union-attr]
    assert slam.critical in (None, "")
    assert any("is a number, not a critical effect" in n.message for n in result.notes)
