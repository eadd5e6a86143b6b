"""A vehicle chase as the encounter layer plays it: the chase rules' :class:`~sftactics.sf1e.vehicles.chase.Chase`
plus the people riding (crews and passengers), the goal, the round limit and the result, and the events the
runner records (docs/vehicles.md, "Vehicle chases").

The chase value from the rules already holds each vehicle with its pilot; :class:`Rider` adds everyone else
aboard (gunners at a mounted weapon, passengers with their own weapons). :class:`ChaseEncounter` is a frozen value
like :class:`~sftactics.encounter.state.Encounter`: the runner returns new ones.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from sftactics.core.errors import RuleViolation
from sftactics.sf1e.statblock import NameSet
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles.chase import Chase
from sftactics.sf1e.vehicles.environment import Hazard
from sftactics.sf1e.vehicles.options import VehicleOptions
from sftactics.sf1e.vehicles.state import is_broken

Role = Literal["gunner", "passenger"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Rider(_Model):
    """Someone aboard a vehicle who is not its pilot: a ``gunner`` fires the vehicle's mounted weapon ``mounted``
    (VEH-29, CHS-25), a ``passenger`` uses their own weapons."""

    creature: Creature
    vehicle: str
    role: Role = "passenger"
    mounted: str | None = None

    @property
    def id(self) -> str:
        return self.creature.id


class Goal(_Model):
    """What the chase is about: ``side`` wants to ``catch`` the other side or to ``escape`` from it. The quarry
    is caught when every one of its vehicles still in the chase is engaged with a pursuer at the end of a round
    (``caught: engaged``), or only when every one is wrecked (``caught: wrecked``); a quarry vehicle wrecked or
    left behind (the pursuers two zones past it) is caught either way. The quarry gets away when its vehicles
    escape or every pursuer is out of the chase."""

    side: str
    wants: Literal["catch", "escape"] = "catch"
    caught: Literal["engaged", "wrecked"] = "engaged"


class ChaseResult(_Model):
    """How the chase ended: the winning side (None: the round limit ended it undecided), why, after how many
    rounds, the vehicles broken or wrecked by then, and when the goal side won, the challenge ratings to award
    experience for (CHS-40: each creature with a CR aboard the other side's vehicles, each active hazard met)."""

    winner: str | None
    reason: str
    rounds: int
    broken: tuple[str, ...] = ()
    wrecked: tuple[str, ...] = ()
    escaped: tuple[str, ...] = ()
    left_behind: tuple[str, ...] = ()
    xp_crs: tuple[str, ...] = ()


class ChaseEncounter(_Model):
    """A chase under way: the rules' chase, the riders, who has acted in this combat phase, the goal and the
    result once it is over. ``initiative``: ``roll`` (CHS-04) or ``listed`` (keep the vehicles' listed order,
    as when a grid fight turns into a chase)."""

    name: str = "chase"
    description: str = ""
    chase: Chase
    riders: tuple[Rider, ...] = ()
    goal: Goal
    max_rounds: int = Field(20, ge=1)
    options: VehicleOptions = VehicleOptions()
    initiative: Literal["roll", "listed"] = "roll"
    begun: bool = False
    acted: NameSet = frozenset()
    hazards_met: tuple[Hazard, ...] = ()
    result: ChaseResult | None = None

    # ----- lookups
    def sides(self) -> tuple[str, ...]:
        seen: list[str] = []
        for cv in self.chase.vehicles:
            if cv.side not in seen:
                seen.append(cv.side)
        return tuple(seen)

    @property
    def pursuers(self) -> str:
        other = [s for s in self.sides() if s != self.goal.side]
        return self.goal.side if self.goal.wants == "catch" else other[0]

    @property
    def quarry(self) -> str:
        other = [s for s in self.sides() if s != self.goal.side]
        return other[0] if self.goal.wants == "catch" else self.goal.side

    def rider(self, cid: str) -> Rider | None:
        for r in self.riders:
            if r.id == cid:
                return r
        return None

    def creature(self, cid: str) -> tuple[Creature, str, bool]:
        """A creature aboard by id: (creature, its vehicle, whether it is that vehicle's pilot)."""
        for cv in self.chase.vehicles:
            if cv.pilot is not None and cv.pilot.id == cid:
                return cv.pilot, cv.id, True
        r = self.rider(cid)
        if r is not None:
            return r.creature, r.vehicle, False
        raise RuleViolation("CHS-25", f"nobody called {cid!r} rides in the chase")

    def aboard(self, vid: str) -> tuple[Creature, ...]:
        """Everyone aboard a vehicle: its pilot first, then its riders."""
        cv = self.chase.get(vid)
        out = [cv.pilot] if cv.pilot is not None else []
        return tuple(out + [r.creature for r in self.riders if r.vehicle == vid])

    def broken_vehicles(self) -> tuple[str, ...]:
        return tuple(cv.id for cv in self.chase.vehicles if is_broken(cv.vehicle, self.options))

    @property
    def over(self) -> bool:
        return self.result is not None


class ChaseEvent(_Model):
    """One step of a chase, as data: what was done (``kind``: the command's type), when (round and phase before
    it), by whom, the checks rolled (each with its bonus as Breakdown terms carrying rule IDs, its DC and the
    die), the DCs as Breakdowns where the rules build them, every die rolled, the explanation lines (each naming
    its rule), and the chase as it stands afterwards, so a saved chase replays without dice."""

    kind: str
    round: int
    phase: str
    actor: str | None = None
    lines: tuple[str, ...] = ()
    checks: tuple[dict[str, Any], ...] = ()
    dcs: tuple[dict[str, Any], ...] = ()
    dice: tuple[dict[str, Any], ...] = ()
    after: ChaseEncounter


__all__ = ["ChaseEncounter", "ChaseEvent", "ChaseResult", "Goal", "Rider", "Role"]
