"""Bundled vehicle stat blocks (``sftactics/data/vehicles``), found by name ("basic enercycle", "hovertrike")."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from sftactics.core.errors import FileFormatError
from sftactics.sf1e.vehicles.statblock import VehicleStat


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


@lru_cache(maxsize=1)
def bundled_vehicles() -> dict[str, VehicleStat]:
    """Every bundled vehicle stat block, keyed by a simplified name (and by its file name)."""
    import yaml
    from pydantic import ValidationError

    out: dict[str, VehicleStat] = {}
    root = resources.files("sftactics") / "data" / "vehicles"
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith((".yaml", ".yml")):
            continue
        data = yaml.safe_load(entry.read_text(encoding="utf-8"))
        try:
            v = VehicleStat.model_validate(data)
        except ValidationError as e:  # pragma: no cover - the bundled files are tested
            raise FileFormatError(entry.name, "", str(e)) from None
        out[_key(v.name)] = v
        out[_key(entry.name.rsplit(".", 1)[0])] = v
    return out


def find_vehicle(name: str) -> VehicleStat | None:
    """A bundled vehicle stat block by name, or None."""
    return bundled_vehicles().get(_key(name))


def vehicle_names() -> list[str]:
    """The bundled vehicles' names."""
    return sorted({v.name for v in bundled_vehicles().values()})


__all__ = ["bundled_vehicles", "find_vehicle", "vehicle_names"]
