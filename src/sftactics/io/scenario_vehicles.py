"""The ``vehicles:`` of a scenario file: vehicles on the grid with their position, heading, pilot and passengers
(docs/vehicles.md). Every error names the file, the field and what was expected."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from sftactics.core.errors import FileFormatError
from sftactics.encounter.state import Encounter, FightVehicle
from sftactics.grid.geometry import Footprint
from sftactics.grid.map import Feature
from sftactics.io.vehicles import vehicle_ref
from sftactics.sf1e.limits import Name, Square
from sftactics.sf1e.vehicles.statblock import VehicleStat
from sftactics.sf1e.vehicles.state import Vehicle


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class VehicleStart(_Model):
    """How the vehicle starts if not fresh and stopped."""

    hp: int | None = Field(None, ge=0, le=100_000, description="its Hit Points now (default: its maximum)")
    moving: bool = Field(False, description="already moving when the fight begins (no dead stop, VEH-06)")
    raced: bool = Field(False, description="moved at full speed last round (VEH-28's larger attack penalty)")
    last_move_ft: int = Field(0, ge=0, le=100_000, description="how far its last action took it (VEH-24)")
    control: Literal["pilot", "autopilot", "autocontrol", "uncontrolled"] | None = Field(
        None, description="who controls it (default: its pilot if it has one, else nobody)"
    )
    destination: Square | None = Field(None, description="the autopilot's destination [x, y] (VEH-27)")
    initiative: int | None = Field(None, ge=-100, le=1000, description="the count it moves on when unpiloted")


class VehicleEntry(_Model):
    id: Name | None = Field(None, description="the name used in logs and commands (default: the stat block's)")
    vehicle: str | VehicleStat = Field(
        description="a bundled vehicle's name, a vehicle stat-block file (YAML, or a Foundry VTT vehicle actor as "
        "JSON) relative to the scenario, or one inline"
    )
    at: Square = Field(description="the top-left square of its space [x, y]")
    heading: Literal["N", "E", "S", "W"] = Field("N", description="the edge of its space it faces (VEH-03)")
    side: Name | None = Field(None, description="the side it belongs to (default: its pilot's)")
    pilot: Name | None = Field(None, description="the combatant piloting it (it rides in it)")
    passengers: tuple[Name, ...] = Field((), description="other combatants riding in it")
    started: bool = Field(True, description="its engine is running (VEH-16)")
    state: VehicleStart | None = None


def add_vehicles(entries: tuple[VehicleEntry, ...], enc: Encounter, path: Path) -> Encounter:
    """The encounter with the scenario's vehicles: each checked (names, space on the map, riders inside its
    space and within its capacity) with an error naming the file and the field."""
    name = str(path)
    grid = enc.grid
    out: dict[str, FightVehicle] = {}
    taken: dict[tuple[int, int], str] = {}
    riding: dict[str, str] = {}
    for i, e in enumerate(entries):
        where = f"vehicles[{i}]"
        stat = vehicle_ref(e.vehicle, path, f"{where}.vehicle")
        vid = e.id or stat.name
        if vid in out or vid in enc.combatants:
            raise FileFormatError(name, f"{where}.id", f"a name no other vehicle or combatant has; {vid!r} is taken")
        fp = Footprint(e.at[0], e.at[1], stat.side_squares)
        if grid is not None:
            if not grid.fits(fp):
                side = stat.side_squares
                raise FileFormatError(name, f"{where}.at", f"a space on the map for {vid} ({side}x{side} squares)")
            for sq in fp.squares:
                if grid.features(sq) & (Feature.SOLID | Feature.COVER | Feature.IMPASSABLE):
                    raise FileFormatError(name, f"{where}.at", f"open ground for {vid}; {sq[0]},{sq[1]} is not")
        for sq in fp.squares:
            if sq in taken:
                raise FileFormatError(name, f"{where}.at", f"a space apart from {taken[sq]}'s")
            taken[sq] = vid
        riders = ([e.pilot] if e.pilot else []) + list(e.passengers)
        crew = stat.crew.pilots + stat.crew.crew + stat.crew.passengers
        if len(riders) > crew:
            raise FileFormatError(name, f"{where}.passengers", f"at most {crew} riders in {vid}, not {len(riders)}")
        free = [sq for sq in fp.squares]
        for j, r in enumerate(riders):
            field = f"{where}.pilot" if e.pilot and j == 0 else f"{where}.passengers[{j - (1 if e.pilot else 0)}]"
            if r not in enc.combatants:
                raise FileFormatError(name, field, f"a combatant's name; there is no combatant named {r!r}")
            if r in riding:
                raise FileFormatError(name, field, f"a combatant in one vehicle only ({r} rides {riding[r]})")
            riding[r] = vid
            c = enc.combatants[r]
            if c.position is not None and not fp.contains(c.position):
                raise FileFormatError(name, field, f"a rider standing inside {vid}'s space ({r} is at "
                                                   f"{c.position[0]},{c.position[1]}; leave its `at` out)")  # fmt: skip
            if c.position is None:
                if not free:
                    raise FileFormatError(name, field, f"a free square in {vid}'s space for {r}")
                enc = enc.update(r, position=free[0])
            pos = enc.combatants[r].position
            if pos in free:
                free.remove(pos)
        v = Vehicle.fresh(stat, vid, heading=e.heading, position=(e.at[0], e.at[1]), started=e.started,
                          pilot=e.pilot)  # fmt: skip
        st = e.state
        if st is not None:
            if st.hp is not None and st.hp > stat.hp:
                raise FileFormatError(name, f"{where}.state.hp", f"at most {vid}'s {stat.hp} Hit Points")
            control = st.control or v.state.control
            if control == "pilot" and not e.pilot:
                raise FileFormatError(name, f"{where}.state.control", "a pilot to control it (vehicles[].pilot)")
            if control == "autopilot" and stat.systems.autopilot is None:
                raise FileFormatError(name, f"{where}.state.control", f"a system {vid} has; it has no autopilot")
            v = v.with_state(
                hp=stat.hp if st.hp is None else st.hp, moving=st.moving or st.raced, moved_last_round=st.moving
                or st.raced, raced_last_round=st.raced, last_move_ft=st.last_move_ft, control=control,
                pilot=e.pilot if control == "pilot" else None, initiative=st.initiative,
                destination=None if st.destination is None else (st.destination[0], st.destination[1]),
                last_action="race" if st.raced else ("drive" if st.moving else None),
            )  # fmt: skip
        out[vid] = FightVehicle(vehicle=v, side=e.side, riders=tuple(riders))
    for i, c in enumerate(enc.combatants.values()):
        if c.position is not None and c.id not in riding and c.position in taken:
            raise FileFormatError(name, f"combatants[{i}].at", f"a square outside {taken[c.position]}'s space "
                                                               "(or list it among the vehicle's riders)")  # fmt: skip
    return enc.model_copy(update={"vehicles": out})


__all__ = ["VehicleEntry", "VehicleStart", "add_vehicles"]
