"""The commands of a vehicle chase (CHS-05..28): the pilot actions phase (:class:`PilotAction`,
:class:`DoubleManeuver`, :class:`Forfeit`, :class:`LeaveUncontrolled`, :class:`Pass`), the chase progress phase
(:class:`Progress`), the combat phase (:class:`Collide`, :class:`Board`, :class:`DamageVehicle`, :class:`EndRound`)
and :class:`Rejoin`. :func:`~sftactics.sf1e.vehicles.chase.step` applies one of them to a chase.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sftactics.core.breakdown import Breakdown
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles.chase_state import ActionName


@dataclass(frozen=True, slots=True)
class PilotAction:
    """A pilot action for ``vehicle`` (Table 8-3). ``target``: the enemy (engage, the engagement's enemies for
    break free) or ally to engage. ``skill``: the skill for a trick (Piloting unless the GM allows Bluff,
    Stealth...). ``bonus`` overrides the pilot's skill bonus. ``route``: the split route the vehicle takes
    (CHS-35). ``trick``: the name of an environment's new trick (CHS-34). ``willing``: every party wants the
    engagement to end (break free without a check, CHS-07)."""

    vehicle: str
    action: ActionName
    target: str | None = None
    skill: str = "piloting"
    bonus: int | Breakdown | None = None
    route: str | None = None
    trick: str | None = None
    willing: bool = False


@dataclass(frozen=True, slots=True)
class DoubleManeuver:
    """Declare a double maneuver (a full action) before the first of its two pilot actions (CHS-14)."""

    vehicle: str


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Give up the second action of a double maneuver; the first keeps its penalty (CHS-14)."""

    vehicle: str


@dataclass(frozen=True, slots=True)
class LeaveUncontrolled:
    """The pilot takes no pilot action and leaves the vehicle uncontrolled this round: it counts as failing every
    check (CHS-17), and its pilot may make a full attack in the combat phase (CHS-25)."""

    vehicle: str


@dataclass(frozen=True, slots=True)
class Pass:
    """The pilot takes no pilot action (the vehicle does not move forward: no check succeeded, CHS-17)."""

    vehicle: str


@dataclass(frozen=True, slots=True)
class Progress:
    """Run the chase progress phase. ``decline_escape``: vehicles that would escape but stay one zone ahead
    instead (CHS-21)."""

    decline_escape: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Collide:
    """Combat phase, standard action: smash ``vehicle`` into the engaged enemy ``target`` (CHS-28)."""

    vehicle: str
    target: str
    bonus: int | Breakdown | None = None


@dataclass(frozen=True, slots=True)
class Board:
    """Combat phase, move action: ``creature`` on ``from_vehicle`` jumps to the engaged ``to_vehicle`` (CHS-27)."""

    creature: Creature
    from_vehicle: str
    to_vehicle: str
    skill: Literal["acrobatics", "athletics"] = "acrobatics"
    fall_ft: float | None = None


@dataclass(frozen=True, slots=True)
class DamageVehicle:
    """Damage to a vehicle in the chase from outside the chase rules (an attack the encounter resolved)."""

    vehicle: str
    amount: int
    ignores_hardness: int = 0
    source: str = ""


@dataclass(frozen=True, slots=True)
class EndRound:
    """End the combat phase: a new round starts with the pilot actions phase."""


@dataclass(frozen=True, slots=True)
class Rejoin:
    """CHS-22: a vehicle that escaped or was left behind comes back, in extraordinary circumstances the GM allows."""

    vehicle: str
    zone: int
    gm_allows: bool = False


Command = (
    PilotAction | DoubleManeuver | Forfeit | LeaveUncontrolled | Pass | Progress | Collide | Board | DamageVehicle
    | EndRound | Rejoin
)  # fmt: skip


__all__ = [
    "Board",
    "Collide",
    "Command",
    "DamageVehicle",
    "DoubleManeuver",
    "EndRound",
    "Forfeit",
    "LeaveUncontrolled",
    "Pass",
    "PilotAction",
    "Progress",
    "Rejoin",
]
