"""Commands of a vehicle chase (docs/vehicles.md, "Vehicle chases"): what a person, a command file or the chase
policy asks the chase runner (:mod:`sftactics.encounter.chase`) to do. Each is a pydantic model with a ``type``;
a command file is a YAML or JSON list of their mappings."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from sftactics.sf1e.vehicles.chase import ActionName


class _Cmd(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BeginChase(_Cmd):
    """Start the chase: roll initiative for the pilots, or keep the listed order (CHS-04)."""

    type: Literal["begin"] = "begin"


class PilotCmd(_Cmd):
    """A pilot action (Table 8-3, CHS-07..13) for ``vehicle`` on its turn in the pilot actions phase. ``target``:
    the vehicle to engage. ``skill``: a trick's skill (the GM may allow Bluff, Stealth...). ``route``: the split
    route to take (CHS-35); ``trick``: an environment's new trick by name (CHS-34); ``willing``: everyone wants
    the engagement to end (break free without a check)."""

    type: Literal["pilot"] = "pilot"
    vehicle: str
    action: ActionName
    target: str | None = None
    skill: str = "piloting"
    route: str | None = None
    trick: str | None = None
    willing: bool = False


class DoubleManeuverCmd(_Cmd):
    """Declare a double maneuver (full action): two pilot actions, each check at -4 or -2 (CHS-14)."""

    type: Literal["double_maneuver"] = "double_maneuver"
    vehicle: str


class ForfeitCmd(_Cmd):
    """Give up the second pilot action of a double maneuver (CHS-14)."""

    type: Literal["forfeit"] = "forfeit"
    vehicle: str


class UncontrolledCmd(_Cmd):
    """The pilot leaves the vehicle uncontrolled this round: it fails every check; the pilot may make a full
    attack in the combat phase (CHS-17, CHS-25)."""

    type: Literal["uncontrolled"] = "uncontrolled"
    vehicle: str


class NoPilotActionCmd(_Cmd):
    """The pilot takes no pilot action: the vehicle does not move forward (CHS-17)."""

    type: Literal["no_pilot_action"] = "no_pilot_action"
    vehicle: str


class ProgressCmd(_Cmd):
    """Run the chase progress phase (CHS-17..23). ``decline_escape``: vehicles that stay one zone ahead instead
    of escaping (CHS-21)."""

    type: Literal["progress"] = "progress"
    decline_escape: tuple[str, ...] = ()


class ChaseAttackCmd(_Cmd):
    """Combat phase: ``actor`` (a pilot with a standard action left, a gunner or a passenger) attacks the vehicle
    ``target`` or, with ``rider``, someone aboard it, with ``weapon`` (a gunner's mounted weapon by default; a
    passenger's first ranged weapon by default) (CHS-24..26). ``full_attack``: two attacks at -4 each (ACT-53): a
    passenger's full action, or a pilot's who left the vehicle uncontrolled (CHS-25)."""

    type: Literal["attack"] = "attack"
    actor: str
    target: str
    rider: str | None = None
    weapon: str | None = None
    full_attack: bool = False


class CollideCmd(_Cmd):
    """Combat phase, standard action: the pilot of ``vehicle`` smashes it into the engaged ``target`` (CHS-28)."""

    type: Literal["collide"] = "collide"
    vehicle: str
    target: str


class BoardCmd(_Cmd):
    """Combat phase, move action: the passenger ``actor`` jumps to the engaged vehicle ``to`` with Acrobatics or
    Athletics, DC 5 + its KAC (CHS-27)."""

    type: Literal["board"] = "board"
    actor: str
    to: str
    skill: Literal["acrobatics", "athletics"] = "acrobatics"


class EndRoundCmd(_Cmd):
    """End the combat phase; the next round starts with pilot actions (CHS-05)."""

    type: Literal["end_round"] = "end_round"


class DamageVehicleCmd(_Cmd):
    """The GM deals damage to a vehicle from outside the chase rules (hardness applies)."""

    type: Literal["damage_vehicle"] = "damage_vehicle"
    vehicle: str
    amount: int = Field(ge=0, le=100_000)
    source: str = "the GM"


class RejoinCmd(_Cmd):
    """The GM brings back a vehicle that escaped or was left behind, in extraordinary circumstances (CHS-22)."""

    type: Literal["rejoin"] = "rejoin"
    vehicle: str
    zone: int = Field(ge=-50, le=50)


ChaseCommand = Annotated[
    BeginChase | PilotCmd | DoubleManeuverCmd | ForfeitCmd | UncontrolledCmd | NoPilotActionCmd | ProgressCmd
    | ChaseAttackCmd | CollideCmd | BoardCmd | EndRoundCmd | DamageVehicleCmd | RejoinCmd,
    Field(discriminator="type"),
]  # fmt: skip
CHASE_COMMANDS: TypeAdapter[ChaseCommand] = TypeAdapter(ChaseCommand)
CHASE_COMMAND_LIST: TypeAdapter[list[ChaseCommand]] = TypeAdapter(list[ChaseCommand])

__all__ = [
    "CHASE_COMMANDS",
    "CHASE_COMMAND_LIST",
    "BeginChase",
    "BoardCmd",
    "ChaseAttackCmd",
    "ChaseCommand",
    "CollideCmd",
    "DamageVehicleCmd",
    "DoubleManeuverCmd",
    "EndRoundCmd",
    "ForfeitCmd",
    "NoPilotActionCmd",
    "PilotCmd",
    "ProgressCmd",
    "RejoinCmd",
    "UncontrolledCmd",
]
