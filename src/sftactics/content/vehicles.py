"""Bundled vehicle stat blocks (``sftactics/data/vehicles``), found by name ("basic enercycle", "hovertrike")."""

from __future__ import annotations

from functools import lru_cache

from sftactics.content.bundled import key as _key
from sftactics.content.bundled import load_folder
from sftactics.sf1e.vehicles.statblock import VehicleStat


@lru_cache(maxsize=1)
def bundled_vehicles() -> dict[str, VehicleStat]:
    """Every bundled vehicle stat block, keyed by a simplified name (and by its file name)."""
    return load_folder("vehicles", VehicleStat, lambda v: v.name)


def find_vehicle(name: str) -> VehicleStat | None:
    """A bundled vehicle stat block by name, or None."""
    return bundled_vehicles().get(_key(name))


def vehicle_names() -> list[str]:
    """The bundled vehicles' names."""
    return sorted({v.name for v in bundled_vehicles().values()})


__all__ = ["bundled_vehicles", "find_vehicle", "vehicle_names"]
