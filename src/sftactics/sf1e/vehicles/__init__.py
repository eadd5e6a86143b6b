"""Vehicles (inventory §19, VEH) and vehicle chases (§20, CHS) as pure rules. Guide: ``docs/vehicles.md``.

Modules:

* :mod:`~sftactics.sf1e.vehicles.statblock` - :class:`VehicleStat`, the vehicle stat block (VEH-02);
* :mod:`~sftactics.sf1e.vehicles.state` - :class:`Vehicle` (stat block + live state), broken and wrecked,
  damage (VEH-32);
* :mod:`~sftactics.sf1e.vehicles.heading` - heading, straight-line movement and paths on the grid (VEH-03, VEH-04);
* :mod:`~sftactics.sf1e.vehicles.checks` - Piloting checks, collision damage;
* :mod:`~sftactics.sf1e.vehicles.piloting` - pilot actions and vehicles in a grid battle (VEH-05..33), with
  :mod:`~sftactics.sf1e.vehicles.pilot_guards` (action costs, the checks every pilot action passes),
  :mod:`~sftactics.sf1e.vehicles.racing` (race, ram, run over), :mod:`~sftactics.sf1e.vehicles.uncontrolled`
  (nobody piloting, autocontrol, crashes) and :mod:`~sftactics.sf1e.vehicles.riders` (boarding, falling off,
  attacks from a vehicle, passengers' cover);
* :mod:`~sftactics.sf1e.vehicles.chase` - the :class:`Chase` state machine (CHS-01..28, CHS-40, CHS-41), with
  ``chase_state`` (the state value, Table 8-3, damage, the end), ``chase_commands``, ``chase_checks`` (DCs and
  modifiers), ``chase_progress`` (zones, hazards, escaping), ``chase_pilot_actions`` and ``chase_combat``;
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
