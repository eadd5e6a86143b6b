"""Chase scenario files (io/chase_scenario.py): what they build, and errors naming file, field and expectation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sftactics.content.vehicles import find_vehicle, vehicle_names
from sftactics.core.errors import FileFormatError
from sftactics.io.chase_scenario import is_chase_file, load_chase, sample_layout
from sftactics.sf1e.vehicles.environment import sample_environment

ROOT = Path(__file__).parent.parent.parent
DATA = ROOT / "tests" / "data" / "chases"
BUGGY = str(ROOT / "tests" / "data" / "vehicles" / "sample-chase-buggy.yaml")


def base(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "kind": "chase",
        "goal": {"side": "PCs"},
        "vehicles": [
            {"id": "buggy", "side": "PCs", "vehicle": BUGGY,
             "pilot": {"id": "Pilot", "statblock": str(DATA / "driver.yaml")}},
            {"id": "cycle", "side": "Gang", "vehicle": "basic enercycle", "zone": 1,
             "pilot": {"id": "Y", "statblock": "space goblin"}},
        ],
    }  # fmt: skip
    data.update(changes)
    return data


def load(tmp_path: Path, data: dict[str, Any]) -> Any:
    p = tmp_path / "chase.json"
    p.write_text(json.dumps(data))
    return load_chase(p)


def error(tmp_path: Path, data: dict[str, Any]) -> FileFormatError:
    with pytest.raises(FileFormatError) as e:
        load(tmp_path, data)
    return e.value


def test_bundled_vehicles_load_by_name() -> None:
    assert "Basic Enercycle" in vehicle_names() and "Hovertrike" in vehicle_names()
    cycle = find_vehicle("basic-enercycle")
    assert cycle is not None and cycle.modifiers.attack == -1 and cycle.modifiers.piloting == 2  # CHS-41
    assert find_vehicle("sample-chase buggy") is None  # a test and scenario file, not bundled


def test_a_chase_file_builds_vehicles_pilots_and_riders(tmp_path: Path) -> None:
    start = load_chase(DATA / "sample.yaml")
    assert [cv.id for cv in start.chase.vehicles] == ["buggy", "cycle1", "cycle2"]
    assert start.chase.get("buggy").pilot.id == "Pilot"  # type: ignore[union-attr]
    assert [r.id for r in start.riders] == ["Gunner"] and start.options.hardness_vs_attacks == "ignored"
    assert start.quarry == "Gang" and start.pursuers == "PCs" and not start.begun
    assert is_chase_file(DATA / "sample.yaml") and not is_chase_file(DATA / "driver.yaml")


@pytest.mark.rule("CHS-29", "CHS-30", "CHS-36", "CHS-37", "CHS-38", "CHS-39")
def test_sample_environments_by_name_and_features_by_name(tmp_path: Path) -> None:
    env = load(tmp_path, base(environment="forest")).chase.environment
    assert env == sample_layout(sample_environment("forest"))
    assert [h.name for h in env.zone(2).hazards] == ["angry beasts"] and env.zone(2).hazards[0].base_attack == 8
    named = base(environment={"sample": "desert", "cr": "3", "zones": {"3": {"hazards": ["falling rocks"],
                                                                            "routes": ["narrow canyon"]}}})  # fmt: skip
    env2 = load(tmp_path, named).chase.environment
    rocks = env2.zone(3).hazards[0]
    assert (rocks.name, rocks.trigger, rocks.base_attack, rocks.base_damage) == (
        "falling rocks",
        "first_entry",
        10,
        "5d4",
    )
    assert env2.zone(3).routes[0].name == "narrow canyon"


@pytest.mark.parametrize(
    ("change", "field", "expected"),
    [
        ({"vehicles": [{"id": "a", "side": "PCs", "vehicle": "flying carpet"}, {"id": "b", "side": "X",
                                                                                  "vehicle": "hovertrike"}]},
         "vehicles[0].vehicle", "a vehicle file or a bundled vehicle"),
        ({"environment": {"sample": "desert", "zones": {"2": {"hazards": ["kraken"]}}}},
         "environment.zones.2.hazards[0]", "falling rocks"),
        ({"goal": {"side": "Nobody"}}, "", "goal.side 'Nobody' is not a side"),
        ({"environment": "swamp"}, "environment", ""),
    ],
)  # fmt: skip
def test_errors_name_the_file_and_the_field(tmp_path: Path, change: dict[str, Any], field: str, expected: str) -> None:
    e = error(tmp_path, base(**change))
    assert e.file.endswith("chase.json")
    assert e.field.startswith(field)
    assert expected in e.expected


def test_a_gunner_needs_a_mounted_weapon_of_the_vehicle(tmp_path: Path) -> None:
    data = base()
    data["vehicles"][0]["crew"] = [{"id": "G", "statblock": str(DATA / "shooter.yaml"), "role": "gunner",
                                    "mounted": "cannon"}]  # fmt: skip
    e = error(tmp_path, data)
    assert e.field == "vehicles[0].crew[0].mounted" and "it has none" in e.expected


def test_too_many_aboard_is_an_error(tmp_path: Path) -> None:
    data = base()
    data["vehicles"][1]["crew"] = [{"id": f"P{i}", "statblock": "space goblin"} for i in range(3)]
    e = error(tmp_path, data)
    assert e.field == "vehicles[1].crew" and "at most 2 aboard" in e.expected


def test_every_bundled_vehicle_file_loads() -> None:
    files = sorted((ROOT / "src" / "sftactics" / "data" / "vehicles").glob("*.yaml"))
    assert len(vehicle_names()) == len(files)
    for f in files:
        assert find_vehicle(f.stem) is not None, f.name
