"""Vehicle stat-block files: the YAML format of ``docs/vehicles.md`` or a Foundry VTT vehicle actor (JSON)."""

from __future__ import annotations

import json
from pathlib import Path

from sftactics.core.errors import FileFormatError
from sftactics.io.files import load_model, read_text
from sftactics.sf1e.vehicles.statblock import VehicleStat


def load_vehicle(path: str | Path) -> VehicleStat:
    """A vehicle stat block from ``path``: a Foundry vehicle actor when the file is JSON with ``"type":
    "vehicle"``, otherwise the YAML (or JSON) stat-block format. Errors name the file and the field."""
    p = Path(path)
    if p.suffix.lower() == ".json":
        try:
            data = json.loads(read_text(p))
        except json.JSONDecodeError as e:
            raise FileFormatError(str(p), f"line {e.lineno}", f"valid JSON ({e.msg})") from None
        if isinstance(data, dict) and data.get("type") == "vehicle":
            from sftactics.io.foundry_vehicles import vehicle_from_foundry

            return vehicle_from_foundry(data, source=str(p)).stat
    return load_model(p, VehicleStat)


def vehicle_ref(ref: str | VehicleStat, scenario: Path, where: str) -> VehicleStat:
    """The vehicle a scenario (a grid fight or a chase) names at ``where``: one written inline, a file relative to
    the scenario (:func:`load_vehicle`) or a bundled vehicle by name. Errors name the scenario and the field."""
    if isinstance(ref, VehicleStat):
        return ref
    try:
        target = (scenario.parent / ref).resolve()
        is_file = target.is_file()
    except (OSError, ValueError):
        is_file = False
    if is_file:
        try:
            return load_vehicle(target)
        except FileFormatError as e:
            raise FileFormatError(e.file, e.field, f"{e.expected} (used by {scenario}: {where})") from None
    from sftactics.content.vehicles import find_vehicle, vehicle_names

    found = find_vehicle(ref)
    if found is None:
        names = ", ".join(vehicle_names())
        raise FileFormatError(
            str(scenario), where, f"a vehicle file or a bundled vehicle ({names}); {ref!r} is neither"
        )
    return found


__all__ = ["load_vehicle", "vehicle_ref"]
