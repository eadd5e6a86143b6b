"""Chases for the tests: vehicles in zones, pilots with round Piloting bonuses."""

from __future__ import annotations

from typing import Any

from sftactics.sf1e.vehicles.chase import Chase, ChaseVehicle, start_chase
from sftactics.sf1e.vehicles.environment import Environment
from sftactics.sf1e.vehicles.statblock import VehicleStat
from sftactics.sf1e.vehicles.state import Vehicle
from tests.sf1e.vehicles.helpers import buggy_stat, enercycle_stat, pilot


def entry(
    id: str, side: str, zone: int = 0, *, stat: VehicleStat | None = None, piloting: int = 5, piloted: bool = True
) -> ChaseVehicle:
    """A vehicle (an enercycle unless ``stat``: item level 1, KAC 12, +2 Piloting) with a pilot named P-<id>."""
    name = f"P-{id}"
    v = Vehicle.fresh(stat or enercycle_stat(), id, started=True, pilot=name if piloted else None)
    return ChaseVehicle(vehicle=v, side=side, pilot=pilot(name, piloting) if piloted else None, zone=zone)


def chase_of(*vehicles: ChaseVehicle, env: Environment | None = None, **update: Any) -> Chase:
    c = start_chase(vehicles, order=[v.id for v in vehicles], environment=env).chase
    return c.model_copy(update=update) if update else c


def buggy(id: str = "buggy", side: str = "PCs", zone: int = 0, piloting: int = 8) -> ChaseVehicle:
    return entry(id, side, zone, stat=buggy_stat(), piloting=piloting)
