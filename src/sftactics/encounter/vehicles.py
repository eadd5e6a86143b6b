"""Vehicles in a grid fight: where they are, who rides them, their events, and what they change for the riders'
attacks (VEH-01, VEH-15, VEH-28, VEH-33, AOO-13).

A vehicle (``state.FightVehicle``) is an object with no turn of its own (VEH-01). Its riders are ordinary
combatants standing on squares of its space; they move with it. Nobody else may stand in or pass through its
space. Its pilot's commands (``encounter/driving.py``) move it on the pilot's turn; an uncontrolled vehicle moves
on its own initiative count (VEH-23, VEH-24). The rules themselves are the pure functions of
``sftactics.sf1e.vehicles``; this module only looks things up and records what happened.

Riders (VEH-28, VEH-33): anyone attacking from a moving vehicle takes its attack penalty (the larger one after
moving at full speed in the last round); riders have the vehicle's cover against attacks from outside it (the
better of it and the map's cover; total cover blocks the attack). Occupants provoke attacks of opportunity for
their own provoking actions unless the vehicle gives them total cover (VEH-15, AOO-13).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from sftactics.core.breakdown import Term
from sftactics.core.errors import SftError
from sftactics.encounter.state import Combatant, Encounter, FightVehicle
from sftactics.grid.cover import CoverKind
from sftactics.grid.geometry import Footprint
from sftactics.sf1e.vehicles import piloting
from sftactics.sf1e.vehicles.state import Heading, VehicleState

Square = tuple[int, int]


class _Ev(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class VehicleChanged(_Ev):
    """A vehicle's live state after a rule (control, heading, speed bookkeeping, Hit Points); ``riders`` (when
    given) who is aboard now; ``notes``: the rule's explanation, each line ending in its rule ID."""

    type: Literal["vehicle_changed"] = "vehicle_changed"
    id: str
    state: VehicleState
    riders: tuple[str, ...] | None = None
    notes: tuple[str, ...] = ()
    unpiloted_round: int | None = None  # the round it has had its movement in (set when that changes)


class VehicleMoved(_Ev):
    """A vehicle moved: ``path`` (the top-left square of its space at each step, start first), ``cost_ft``, its
    state after the move (position and heading included), where each rider stands now, how it moved (``verb``:
    drives, races, rams, runs over, coasts, rolls on uncontrolled...) and the rule."""

    type: Literal["vehicle_moved"] = "vehicle_moved"
    id: str
    path: tuple[Square, ...]
    cost_ft: int
    state: VehicleState
    riders: dict[str, Square] = {}
    verb: str = "drives"
    rule: str = "VEH-15"


def apply_changed(s: Encounter, e: VehicleChanged) -> Encounter:
    fv = s.vehicles[e.id]
    new = fv.model_copy(update={"vehicle": fv.vehicle.model_copy(update={"state": e.state})})
    if e.riders is not None:
        new = new.model_copy(update={"riders": e.riders})
    if e.unpiloted_round is not None:
        new = new.model_copy(update={"unpiloted_round": e.unpiloted_round})
    return s.model_copy(update={"vehicles": {**s.vehicles, e.id: new}})


def apply_moved(s: Encounter, e: VehicleMoved) -> Encounter:
    fv = s.vehicles[e.id]
    new = fv.model_copy(update={"vehicle": fv.vehicle.model_copy(update={"state": e.state})})
    s = s.model_copy(update={"vehicles": {**s.vehicles, e.id: new}})
    for cid, sq in e.riders.items():
        s = s.update(cid, position=tuple(sq))
    return s


def moved_lines(e: VehicleMoved) -> list[str]:
    end = e.path[-1]
    route = " -> ".join(f"{x},{y}" for x, y in e.path)
    return [f"{e.id} {e.verb} {e.cost_ft} ft: {route} (now at {end[0]},{end[1]}, heading {e.state.heading}) "
            f"[{e.rule}]"]  # fmt: skip


# ---------------------------------------------------------------- lookups


def get(state: Encounter, vid: str) -> FightVehicle:
    try:
        return state.vehicles[vid]
    except KeyError:
        known = ", ".join(state.vehicles) or "none"
        raise SftError(f"no vehicle named {vid!r} (vehicles: {known})") from None


def aboard(state: Encounter, cid: str) -> FightVehicle | None:
    """The vehicle ``cid`` rides in, if any."""
    for fv in state.vehicles.values():
        if cid in fv.riders:
            return fv
    return None


def piloted_by(state: Encounter, cid: str) -> FightVehicle | None:
    """The vehicle ``cid`` pilots, if any."""
    for fv in state.vehicles.values():
        if fv.vehicle.state.control == "pilot" and fv.vehicle.state.pilot == cid:
            return fv
    return None


def footprint(fv: FightVehicle) -> Footprint | None:
    pos = fv.vehicle.state.position
    return None if pos is None else Footprint(pos[0], pos[1], fv.vehicle.stat.side_squares)


def vehicle_squares(state: Encounter, *, skip: str | None = None) -> set[Square]:
    """Every square inside a vehicle's space (but ``skip``'s)."""
    out: set[Square] = set()
    for fv in state.vehicles.values():
        fp = footprint(fv)
        if fp is not None and fv.id != skip:
            out |= set(fp.squares)
    return out


def blocked_for(state: Encounter, cid: str) -> set[Square]:
    """The squares of vehicles a creature on foot cannot enter or pass (their spaces; its own vehicle's when it
    rides one, since riders do not walk about)."""
    return vehicle_squares(state)


def spaces_around(state: Encounter, fv: FightVehicle) -> dict[str, Footprint]:
    """What a vehicle can run into: every creature on foot (not dead, not fled) and every other vehicle (with its
    riders), by name, with its space."""
    from sftactics.encounter import space

    out: dict[str, Footprint] = {}
    aboard_any = {r for v in state.vehicles.values() for r in v.riders}  # riders are inside their vehicle's space
    for c in state.combatants.values():
        if c.id in aboard_any or c.fled or c.creature.has("dead"):
            continue
        fp = space.footprint(c)
        if fp is not None:
            out[c.id] = fp
    for other in state.vehicles.values():
        ofp = footprint(other)
        if other.id != fv.id and ofp is not None:
            out[other.id] = ofp
    return out


def pilot_of(state: Encounter, fv: FightVehicle) -> Combatant | None:
    p = fv.vehicle.state.pilot
    return state.combatants.get(p) if p is not None and fv.vehicle.state.control == "pilot" else None


def side_of(state: Encounter, fv: FightVehicle) -> str | None:
    """Whose side the vehicle is on: its pilot's, else its first rider's, else the scenario's."""
    pilot = pilot_of(state, fv)
    if pilot is not None:
        return pilot.side
    for r in fv.riders:
        if r in state.combatants:
            return state.combatants[r].side
    return fv.side


# ---------------------------------------------------------------- riders: attack penalty, cover, provoking


def rider_attack_terms(state: Encounter, attacker: Combatant) -> tuple[Term, ...]:
    """VEH-28: the attack penalty of the vehicle ``attacker`` rides in (none when it is stopped)."""
    fv = aboard(state, attacker.id)
    return () if fv is None else piloting.attack_penalty(fv.vehicle)


def rider_cover(state: Encounter, attacker: Combatant, target: Combatant) -> tuple[CoverKind, tuple[Term, ...]]:
    """VEH-33: the cover ``target``'s vehicle gives it against ``attacker`` (none against a fellow rider)."""
    fv = aboard(state, target.id)
    if fv is None or attacker.id in fv.riders:
        return CoverKind.NONE, ()
    kind, ac, _ = piloting.passenger_cover(fv.vehicle)
    return kind, ac


def rider_provokes(state: Encounter, cid: str) -> bool:
    """VEH-15, AOO-13: a rider provokes for its own provoking actions unless its vehicle gives total cover."""
    fv = aboard(state, cid)
    return fv is None or piloting.occupant_provokes(fv.vehicle, True)


def heading_of(fv: FightVehicle) -> Heading:
    return fv.vehicle.state.heading


__all__ = [
    "VehicleChanged",
    "VehicleMoved",
    "aboard",
    "apply_changed",
    "apply_moved",
    "blocked_for",
    "footprint",
    "get",
    "moved_lines",
    "pilot_of",
    "piloted_by",
    "rider_attack_terms",
    "rider_cover",
    "rider_provokes",
    "side_of",
    "spaces_around",
    "vehicle_squares",
]
