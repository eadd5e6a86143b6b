"""Commands for vehicles in a grid fight (VEH-05..29): what a pilot or a rider asks the engine to do.

``vehicle`` may be left out when it is obvious: the vehicle the actor pilots (or, for ``take_control``, rides
in). The engine (``encounter/driving.py``) checks each against the rules; a refusal is a ``RuleViolation``
naming the rule, with nothing changed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from sftactics.sf1e.limits import CommandSquare

HeadingName = Literal["N", "E", "S", "W"]
Terrain = Literal["flat", "rough"]


class _Cmd(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Drive(_Cmd):
    """Drive (a move action, VEH-15): up to the drive speed to ``to`` (the top-left square of the vehicle's
    space at the end), turning as needed, then face ``heading`` (default: as it was). The vehicle provokes
    attacks of opportunity as it goes; it never passes a creature's square."""

    type: Literal["drive"] = "drive"
    actor: str
    to: CommandSquare | None = None
    heading: HeadingName | None = None
    vehicle: str | None = None


class Race(_Cmd):
    """Race (a full action, VEH-06, VEH-07): full speed in a straight line at the heading, ``drift`` squares to
    the right (negative: left; at most 45 degrees). Piloting DC 10 + item level (+5 from a dead stop);
    ``terrain`` says what a failure does (the GM's call, VEH-07)."""

    type: Literal["race"] = "race"
    actor: str
    drift: int = Field(0, ge=-100, le=100)
    terrain: Terrain = "flat"
    vehicle: str | None = None


class Ram(_Cmd):
    """Ram (a full action, VEH-11, VEH-12): race straight at ``target`` (a creature or a vehicle in the path at
    the heading, with ``drift``) and hit it: Reflex (creature) or Piloting (vehicle) to avoid; double collision
    damage to it, half to the rammer."""

    type: Literal["ram"] = "ram"
    actor: str
    target: str
    drift: int = Field(0, ge=-100, le=100)
    terrain: Terrain = "flat"
    vehicle: str | None = None


class RunOver(_Cmd):
    """Run over (a full action, VEH-13): up to twice the drive speed to ``to`` over creatures two or more sizes
    smaller; each takes the collision damage (Reflex for half), the vehicle half of it for each."""

    type: Literal["run_over"] = "run_over"
    actor: str
    to: CommandSquare
    heading: HeadingName | None = None
    vehicle: str | None = None


PilotActionName = Literal[
    "start",
    "stop",
    "hover",
    "stop_short",
    "take_control",
    "relinquish",
    "engage_autopilot",
    "disengage_autopilot",
    "set_destination",
    "engage_autocontrol",
    "disengage_autocontrol",
]


class Pilot(_Cmd):
    """The other pilot actions: ``start`` (move, VEH-16), ``stop``/``hover`` (no action after a drive, VEH-22;
    ``hover`` is the word for a hovering or flying vehicle staying where it is), ``stop_short`` (move, VEH-17),
    ``take_control`` (move, VEH-18), ``relinquish`` (swift, to ``to`` or to nobody, VEH-21),
    ``engage_autopilot``/``disengage_autopilot`` (swift, VEH-20), ``set_destination`` (move, ``destination``,
    VEH-27), ``engage_autocontrol``/``disengage_autocontrol`` (swift, VEH-19)."""

    type: Literal["pilot"] = "pilot"
    actor: str
    action: PilotActionName
    vehicle: str | None = None
    to: str | None = None
    destination: CommandSquare | None = None


class Board(_Cmd):
    """Board a vehicle next to you (a move action, VEH-14): onto a free square of its space (``at``, default the
    first free one). A moving vehicle takes an Acrobatics or Athletics check (option ``board_moving_dc``)."""

    type: Literal["board"] = "board"
    actor: str
    vehicle: str
    at: CommandSquare | None = None
    skill: Literal["acrobatics", "athletics"] = "acrobatics"


class Disembark(_Cmd):
    """Leave the vehicle (a move action, VEH-14) to a free square next to it (``to``, default the nearest); from
    a moving vehicle with an Acrobatics or Athletics check. A pilot who leaves lets go of the controls."""

    type: Literal["disembark"] = "disembark"
    actor: str
    to: CommandSquare | None = None
    skill: Literal["acrobatics", "athletics"] = "acrobatics"


class FireVehicleWeapon(_Cmd):
    """Fire a mounted weapon of the vehicle you ride (a standard action, VEH-29) at ``target`` (a creature or
    a vehicle): a ranged attack with the vehicle's attack penalty. The pilot fires only weapons on the controls,
    and not on a turn with a full action."""

    type: Literal["fire_vehicle_weapon"] = "fire_vehicle_weapon"
    actor: str
    weapon: str
    target: str


VehicleCommand = Drive | Race | Ram | RunOver | Pilot | Board | Disembark | FireVehicleWeapon

__all__ = ["Board", "Disembark", "Drive", "FireVehicleWeapon", "Pilot", "Race", "Ram", "RunOver", "VehicleCommand"]
