"""The state of a vehicle chase (CHS-02..05, CHS-15, CHS-23): the frozen :class:`Chase` value, the vehicles in it
(:class:`ChaseVehicle`: side, pilot, zone, route and status), the pilots' records of the round
(:class:`PilotRecord`, :class:`Outcome`), timed effects (:class:`Effect`), engagements and the hazards that follow
the chase (:class:`ActiveHazard`); Table 8-3 (:data:`TABLE_8_3`); the :class:`ChaseStep` every command returns; and
damage to a vehicle in the chase, where a wrecked vehicle leaves the chase, which may end it (CHS-23).

The rules that move the chase on build on this module: ``chase_checks`` (check modifiers, DCs, a vehicle's AC),
``chase_progress`` (moving between zones, hazards, chase progress), ``chase_pilot_actions`` (the pilot actions
phase) and ``chase_combat`` (the combat phase, attacks in a chase); :mod:`~sftactics.sf1e.vehicles.chase` ties
them together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from sftactics.core.check import CheckResult
from sftactics.core.errors import RuleViolation
from sftactics.sf1e.statblock import NameSet
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles.environment import Environment, Hazard
from sftactics.sf1e.vehicles.options import DEFAULT_VEHICLE_OPTIONS, VehicleOptions
from sftactics.sf1e.vehicles.state import Vehicle, damage_vehicle

ActionName = Literal["break_free", "engage", "evade", "keep_pace", "slow_down", "speed_up", "trick"]
Phase = Literal["pilot_actions", "chase_progress", "combat", "over"]
Status = Literal["in", "escaped", "left_behind", "wrecked"]
_PHASE_INDEX = {"pilot_actions": 0, "chase_progress": 1, "combat": 2, "over": 3}


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One row of Table 8-3 (CHS-15)."""

    skill: str
    dc: str
    result: str


#: Table 8-3: pilot actions in a vehicle chase (CHS-15). Every action but double maneuver is a move action.
TABLE_8_3: dict[str, ActionRow] = {
    "break_free": ActionRow("Piloting", "5 + enemy vehicle's KAC", "end the engagement (+1 zone in chase progress)"),
    "double_maneuver": ActionRow("varies", "each at -4", "two pilot actions (at most +1 zone in chase progress)"),
    "engage": ActionRow("Piloting", "enemy vehicle's KAC", "riders can attack or board (+1 zone in chase progress)"),
    "evade": ActionRow("Piloting", "10 + item level", "+2 to the vehicle's AC for 1 round (+1 zone)"),
    "keep_pace": ActionRow("Piloting", "10 + item level", "+1 zone in chase progress (failure: back 1 zone)"),
    "slow_down": ActionRow("none", "none", "the vehicle does not move forward in chase progress"),
    "speed_up": ActionRow("Piloting", "17 + item level", "+1 zone now, +1 zone in chase progress"),
    "trick": ActionRow("varies", "15 + item level", "pilots behind take -2 to Piloting for 1 round (+1 zone)"),
}


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ChaseVehicle(_Model):
    """A vehicle in the chase: its side, its pilot (None: autopilot or nobody), zone, route and status."""

    vehicle: Vehicle
    side: str
    pilot: Creature | None = None
    zone: int = 0
    route: str | None = None
    status: Status = "in"

    @property
    def id(self) -> str:
        return self.vehicle.id

    @property
    def active(self) -> bool:
        return self.status == "in"

    @property
    def controlled(self) -> bool:
        if self.vehicle.wrecked:
            return False
        if self.vehicle.state.control == "autopilot":
            return True
        return self.pilot is not None and self.vehicle.state.control == "pilot"


class Effect(_Model):
    """A timed effect on a vehicle: ``trick`` (Piloting penalty), ``evade`` (+2 circumstance AC), ``off_course``
    (-4 Piloting). Active from ``start`` until just before ``until`` (round, phase, slot)."""

    kind: Literal["trick", "evade", "off_course"]
    source: str
    vehicle: str
    value: int
    start: tuple[int, int, int]
    until: tuple[int, int, int]


class Outcome(_Model):
    """One pilot action taken this round and how it went (for chase progress)."""

    action: str
    success: bool
    checked: bool = True
    failed_by: int = 0
    target: str | None = None


class PilotRecord(_Model):
    vehicle: str
    double: bool = False
    actions: tuple[Outcome, ...] = ()
    uncontrolled: bool = False
    done: bool = False

    @property
    def used(self) -> Literal["none", "move", "full"]:
        """The pilot's actions spent in the pilot actions phase (what is left is for the combat phase, CHS-06)."""
        if self.double:
            return "full"
        return "move" if self.actions else "none"


class ActiveHazard(_Model):
    """A hazard that follows the chase (rear or random attacks), with the rounds it has left (None: no limit)."""

    key: str
    hazard: Hazard
    zone: int
    rounds_left: int | None = None


class Chase(_Model):
    vehicles: tuple[ChaseVehicle, ...]
    order: tuple[str, ...]
    environment: Environment = Environment()
    round: int = 1
    phase: Phase = "pilot_actions"
    turn: int = 0
    records: tuple[PilotRecord, ...] = ()
    engagements: tuple[NameSet, ...] = ()
    effects: tuple[Effect, ...] = ()
    round_start_zones: dict[str, int] = Field(default_factory=dict)
    virtual_ahead: tuple[tuple[str, str], ...] = ()
    split_engaged: tuple[tuple[str, str], ...] = ()
    spent_hazards: NameSet = frozenset()
    active_hazards: tuple[ActiveHazard, ...] = ()
    added_hazards: tuple[tuple[int, Hazard], ...] = ()

    # ----- lookups
    def get(self, vid: str) -> ChaseVehicle:
        for cv in self.vehicles:
            if cv.id == vid:
                return cv
        raise RuleViolation("CHS-02", f"no vehicle {vid!r} in the chase")

    def record(self, vid: str) -> PilotRecord | None:
        for r in self.records:
            if r.vehicle == vid:
                return r
        return None

    @property
    def active(self) -> tuple[ChaseVehicle, ...]:
        return tuple(cv for cv in self.vehicles if cv.active)

    def enemies(self, vid: str) -> tuple[ChaseVehicle, ...]:
        side = self.get(vid).side
        return tuple(cv for cv in self.active if cv.side != side)

    def engagement(self, vid: str) -> frozenset[str]:
        for g in self.engagements:
            if vid in g:
                return g
        return frozenset()

    def zones(self) -> dict[str, int]:
        return {cv.id: cv.zone for cv in self.vehicles}

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def current_pilot(self) -> str | None:
        if self.phase != "pilot_actions" or self.turn >= len(self.order):
            return None
        return self.order[self.turn]

    def now(self) -> tuple[int, int, int]:
        slot = self.turn if self.phase == "pilot_actions" else 0
        return (self.round, _PHASE_INDEX[self.phase], slot)

    def with_vehicle(self, cv: ChaseVehicle) -> Chase:
        return self.model_copy(update={"vehicles": tuple(cv if x.id == cv.id else x for x in self.vehicles)})


@dataclass(frozen=True, slots=True)
class ChaseStep:
    chase: Chase
    checks: tuple[CheckResult, ...] = ()
    lines: tuple[str, ...] = ()
    creature: Creature | None = None  # the boarding creature after a Board command

    def describe(self) -> str:
        return "\n".join(self.lines)


# ---------------------------------------------------------------- engagements and the end of the chase (CHS-07, CHS-23)


def _leave(chase: Chase, vid: str) -> Chase:
    groups = []
    for g in chase.engagements:
        g2 = g - {vid} if vid in g else g
        if len(g2) >= 2:
            groups.append(g2)
    return chase.model_copy(update={"engagements": tuple(groups)})


def _check_over(chase: Chase) -> tuple[Chase, list[str]]:
    sides = {cv.side for cv in chase.active}
    if len(sides) <= 1:
        winner = next(iter(sides)) if sides else "nobody"
        return chase.model_copy(update={"phase": "over"}), [f"the chase is over ({winner} remains) [CHS-23]"]
    return chase, []


def damage(
    chase: Chase,
    vid: str,
    amount: int,
    *,
    ignores_hardness: int = 0,
    source: str = "",
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> ChaseStep:
    """Damage to a vehicle in the chase; a wrecked vehicle leaves the chase, which may end it (CHS-23)."""
    cv = chase.get(vid)
    vd = damage_vehicle(cv.vehicle, amount, ignores_hardness=ignores_hardness, source=source, options=options)
    status: Status = "wrecked" if vd.wrecked and cv.status == "in" else cv.status
    chase = chase.with_vehicle(cv.model_copy(update={"vehicle": vd.vehicle, "status": status}))
    lines = list(vd.lines)
    if status == "wrecked" and cv.status == "in":
        chase = _leave(chase, vid)
        lines.append(f"{vid} is wrecked and out of the chase [CHS-23]")
        chase, more = _check_over(chase)
        lines += more
    return ChaseStep(chase, (), tuple(lines))


__all__ = [
    "TABLE_8_3",
    "ActionName",
    "ActionRow",
    "ActiveHazard",
    "Chase",
    "ChaseStep",
    "ChaseVehicle",
    "Effect",
    "Outcome",
    "Phase",
    "PilotRecord",
    "Status",
    "damage",
]
