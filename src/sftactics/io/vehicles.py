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


__all__ = ["load_vehicle"]
