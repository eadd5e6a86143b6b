"""Vehicles (inventory §19, VEH) and vehicle chases (§20, CHS) as pure rules. Guide: ``docs/vehicles.md``.

Modules:

* :mod:`~sftactics.sf1e.vehicles.statblock` - :class:`VehicleStat`, the vehicle stat block (VEH-02);
* :mod:`~sftactics.sf1e.vehicles.state` - :class:`Vehicle` (stat block + live state), broken and wrecked,
  damage (VEH-32);
* :mod:`~sftactics.sf1e.vehicles.heading` - heading, straight-line movement and paths on the grid (VEH-03, VEH-04);
* :mod:`~sftactics.sf1e.vehicles.checks` - Piloting checks, collision damage;
* :mod:`~sftactics.sf1e.vehicles.piloting` - pilot actions and vehicles in a grid battle (VEH-05..33);
* :mod:`~sftactics.sf1e.vehicles.chase` - the :class:`Chase` state machine (CHS-01..28, CHS-40, CHS-41);
* :mod:`~sftactics.sf1e.vehicles.environment` - chase environments, hazards, Table 8-4 (CHS-29..39);
* :mod:`~sftactics.sf1e.vehicles.options` - :class:`VehicleOptions`, every ambiguity as a named option.
"""

from sftactics.sf1e.vehicles.chase import Chase, ChaseStep, ChaseVehicle, start_chase, step
from sftactics.sf1e.vehicles.options import DEFAULT_VEHICLE_OPTIONS, VehicleOptions
from sftactics.sf1e.vehicles.statblock import VehicleStat
from sftactics.sf1e.vehicles.state import Vehicle, VehicleState

__all__ = [
    "DEFAULT_VEHICLE_OPTIONS",
    "Chase",
    "ChaseStep",
    "ChaseVehicle",
    "Vehicle",
    "VehicleOptions",
    "VehicleStat",
    "VehicleState",
    "start_chase",
    "step",
]
