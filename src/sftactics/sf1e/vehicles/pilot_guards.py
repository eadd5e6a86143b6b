"""What every pilot action in a grid battle shares: what each vehicle action costs the creature taking it
(:data:`ACTION_COST`, VEH-06..22, VEH-27), what a pilot may do on the turn after a race (:data:`AFTER_RACE`,
VEH-09), the :class:`PilotResult` a pilot action returns, and the guards and bookkeeping: only a started vehicle
under the pilot's control moves (VEH-01, VEH-16, VEH-18, VEH-20, VEH-32), and a move is recorded in the vehicle's
state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sftactics.core.check import CheckResult
from sftactics.core.errors import RuleViolation
from sftactics.grid.geometry import Footprint
from sftactics.grid.movement import Provocation
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles.checks import PilotLike
from sftactics.sf1e.vehicles.heading import Obstruction
from sftactics.sf1e.vehicles.state import Heading, MoveAction, Vehicle

ActionCost = Literal["full", "move", "swift", "none"]

#: What each vehicle action costs the creature taking it (VEH-06..22, VEH-27).
ACTION_COST: dict[str, ActionCost] = {
    "race": "full",
    "ram": "full",
    "run_over": "full",
    "drive": "move",
    "board": "move",
    "disembark": "move",
    "start": "move",
    "stop_short": "move",
    "take_control": "move",
    "set_destination": "move",
    "engage_autocontrol": "swift",
    "disengage_autocontrol": "swift",
    "engage_autopilot": "swift",
    "disengage_autopilot": "swift",
    "relinquish": "swift",
    "stop": "none",
}
#: What a pilot may do on the turn after a race (VEH-09); a ram moves like a race, so it is allowed too.
AFTER_RACE: frozenset[str] = frozenset({"race", "ram", "drive", "stop_short", "relinquish"})
Terrain = Literal["flat", "rough"]


@dataclass(frozen=True, slots=True)
class PilotResult:
    """The outcome of a pilot action: the vehicle after it, what it cost, whether it worked, how far the vehicle
    went (and, on a grid, through which spaces), the checks and the ledger."""

    vehicle: Vehicle
    action: str
    cost: ActionCost
    success: bool = True
    distance_ft: int = 0
    checks: tuple[CheckResult, ...] = ()
    lines: tuple[str, ...] = ()
    path: tuple[Footprint, ...] = ()
    provocations: tuple[Provocation, ...] = ()
    stalled: bool = False
    off_course: tuple[int, int] | None = None
    obstruction: Obstruction | None = None

    def describe(self) -> str:
        return "\n".join(self.lines)


# ---------------------------------------------------------------- guards and bookkeeping


def _pilot_name(pilot: PilotLike | None) -> str:
    if pilot is None:
        return "the autopilot"
    return pilot.name if isinstance(pilot, Creature) else "the pilot"


def _require_control(vehicle: Vehicle, pilot: PilotLike | None, action: str) -> None:
    st = vehicle.state
    if vehicle.wrecked:
        raise RuleViolation("VEH-32", f"{vehicle.name} is wrecked: it cannot {action}")
    if not st.started:
        raise RuleViolation("VEH-16", f"{vehicle.name} must be started first (a move action)")
    if pilot is None:
        if st.control != "autopilot":
            raise RuleViolation("VEH-01", f"{vehicle.name} is an object: it needs a pilot or an engaged autopilot")
        return
    if st.control == "uncontrolled" or st.control == "autocontrol":
        raise RuleViolation("VEH-18", f"{vehicle.name} is uncontrolled: take control of it first (a move action)")
    if st.control == "autopilot":
        raise RuleViolation("VEH-20", f"{vehicle.name} is on autopilot: disengage it first (a swift action)")
    if isinstance(pilot, Creature) and st.pilot is not None and pilot.id != st.pilot:
        raise RuleViolation("VEH-18", f"{pilot.name} does not control {vehicle.name} ({st.pilot} does)")


def _after_race(vehicle: Vehicle, action: str) -> None:
    st = vehicle.state
    if st.last_action == "race" and st.moving and not st.moved_this_round and action not in AFTER_RACE:
        raise RuleViolation(
            "VEH-09", f"after a race {vehicle.name} keeps going: race, drive, stop short or relinquish control"
        )


def _moved(
    vehicle: Vehicle,
    action: MoveAction,
    distance: int,
    *,
    full: bool,
    heading: Heading | None = None,
    position: tuple[int, int] | None = None,
    piloting: int | None = None,
) -> Vehicle:
    st = vehicle.state
    changes: dict[str, object] = {
        "moving": distance > 0 or (full and st.moving),
        "moved_this_round": st.moved_this_round or distance > 0,
        "raced_this_round": st.raced_this_round or full,
        "last_action": action,
        "last_move_ft": distance,
    }
    if heading is not None:
        changes["heading"] = heading
    if position is not None:
        changes["position"] = position
    if piloting is not None:
        changes["last_piloting"] = piloting
    return vehicle.with_state(**changes)


__all__ = [
    "ACTION_COST",
    "AFTER_RACE",
    "ActionCost",
    "PilotResult",
    "Terrain",
]
