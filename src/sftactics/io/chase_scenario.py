"""Chase scenario files: a vehicle chase in YAML or JSON (``kind: chase``; docs/vehicles.md, "Vehicle chases";
the JSON Schema is ``docs/chase.schema.json``, printed by ``sftactics schema chase``).

A chase file lists the vehicles (a bundled vehicle by name, a vehicle stat-block file relative to the scenario, or
one written inline), each with its side, its starting zone, its pilot and the people aboard (stat blocks by file
or bundled name, as in grid scenarios), the environment (one of the four sample environments by name, laid out
over the zones, or zones written out, whose features may name the sample's), the goal and the round limit. Every
error names the file, the field and what was expected.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from sftactics.core.errors import FileFormatError
from sftactics.encounter.chase_state import ChaseEncounter, Goal, Rider, Role
from sftactics.io.files import load_model, read_data, validation_error
from sftactics.io.scenario import _statblock
from sftactics.io.vehicles import vehicle_ref
from sftactics.sf1e.limits import Name
from sftactics.sf1e.statblock import StatBlock
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles.chase import Chase, ChaseVehicle
from sftactics.sf1e.vehicles.environment import (
    SAMPLE_ENVIRONMENTS,
    Environment,
    SampleEnvironment,
    Zone,
    sample_environment,
)
from sftactics.sf1e.vehicles.options import VehicleOptions
from sftactics.sf1e.vehicles.statblock import VehicleStat
from sftactics.sf1e.vehicles.state import Vehicle


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PilotEntry(_Model):
    id: Name = Field(description="the pilot's name in logs and commands (unique in the chase)")
    statblock: str | StatBlock = Field(description="a stat-block file (relative to the scenario), a bundled "
                                       "creature's name, or one inline")  # fmt: skip


class RiderEntry(_Model):
    id: Name = Field(description="the rider's name in logs and commands (unique in the chase)")
    statblock: str | StatBlock = Field(description="a stat-block file, a bundled creature's name, or one inline")
    role: Role = Field("passenger", description="gunner (fires a mounted weapon) or passenger (own weapons)")
    mounted: str | None = Field(None, description="the mounted weapon a gunner fires (by name)")


class VehicleEntry(_Model):
    id: Name = Field(description="the vehicle's name in logs and commands (unique)")
    side: Name = Field(description="vehicles with the same side are allies")
    vehicle: str | VehicleStat = Field(
        description="a bundled vehicle's name (docs/vehicles.md lists them), a vehicle stat-block file (relative "
        "to the scenario), or one inline"
    )
    zone: int = Field(0, ge=-50, le=50, description="the starting zone (higher is farther ahead, CHS-02)")
    hp: int | None = Field(None, ge=0, description="Hit Points at the start (default: full)")
    pilot: PilotEntry | None = Field(None, description="who drives it (none: its autopilot, or nobody)")
    autopilot: bool = Field(False, description="the autopilot drives it (the vehicle needs one, VEH-27)")
    crew: tuple[RiderEntry, ...] = Field((), description="everyone else aboard")


class EnvironmentEntry(_Model):
    """The environment: ``sample`` (aquatic, desert, forest or highway) with its hazards at challenge rating
    ``cr`` (Table 8-4); without ``zones`` the sample is laid out over zones 2 to 5 (docs/vehicles.md). In
    ``everywhere`` and ``zones`` each hazard, altered attack, altered movement, trick or route may be written
    out, or named from the sample."""

    sample: Literal["aquatic", "desert", "forest", "highway"] | None = None
    cr: str = Field("1", description="challenge rating of the sample's hazards (Table 8-4 gives their numbers)")
    name: str = ""
    everywhere: Zone = Zone()
    zones: dict[int, Zone] = Field(default_factory=dict)


class GoalEntry(_Model):
    side: Name = Field(description="the side whose goal it is")
    wants: Literal["catch", "escape"] = "catch"
    caught: Literal["engaged", "wrecked"] = Field(
        "engaged", description="the quarry is caught when engaged by pursuers at the end of a round, or only "
        "when wrecked"
    )  # fmt: skip


class ChaseScenarioFile(_Model):
    kind: Literal["chase"] = Field(description="marks the file as a chase scenario")
    name: str = "chase"
    description: str = ""
    goal: GoalEntry
    max_rounds: int = Field(20, ge=1, le=1000, description="the GM ends the chase after this many rounds")
    initiative: Literal["roll", "listed"] = Field(
        "roll", description="roll initiative for the pilots (CHS-04), or keep the vehicles' listed order"
    )
    options: VehicleOptions = Field(default_factory=VehicleOptions)
    environment: EnvironmentEntry | Literal["aquatic", "desert", "forest", "highway", "none"] = "none"
    vehicles: tuple[VehicleEntry, ...] = Field(min_length=2)

    @model_validator(mode="after")
    def _consistent(self) -> ChaseScenarioFile:
        ids: set[str] = set()
        for v in self.vehicles:
            for name in (v.id, *(p.id for p in ([v.pilot] if v.pilot else [])), *(r.id for r in v.crew)):
                if name in ids:
                    raise ValueError(f"the name {name!r} is used twice; vehicles and people need unique names")
                ids.add(name)
        sides = {v.side for v in self.vehicles}
        if len(sides) != 2:
            raise ValueError(f"a chase has exactly two sides (got {', '.join(sorted(sides))})")
        if self.goal.side not in sides:
            raise ValueError(f"goal.side {self.goal.side!r} is not a side of the vehicles ({', '.join(sorted(sides))})")
        return self


def is_chase_file(path: Path) -> bool:
    """Whether a scenario file is a chase (``kind: chase`` at its top level)."""
    try:
        data = read_data(path)
    except FileFormatError:
        return False
    return isinstance(data, dict) and data.get("kind") == "chase"


# ---------------------------------------------------------------- the environment

_KINDS = {"hazards": "hazards", "attacks": "attacks", "movement": "movement", "tricks": "tricks", "routes": "routes"}


def sample_layout(sample: SampleEnvironment) -> Environment:
    """A sample environment laid out over the zones ahead of a chase that starts in zones 0 and 1: its tricks
    everywhere; zone 2 its first hazard and altered movement; zone 3 its first altered attack; zone 4 its split
    routes; zone 5 its second hazard and altered movement; zone 6 its second altered attack."""

    def pick(items: tuple[Any, ...], i: int) -> tuple[Any, ...]:
        return items[i : i + 1]

    zones = {
        2: Zone(hazards=pick(sample.hazards, 0), movement=pick(sample.movement, 0)),
        3: Zone(attacks=pick(sample.attacks, 0)),
        4: Zone(routes=sample.routes),
        5: Zone(hazards=pick(sample.hazards, 1), movement=pick(sample.movement, 1)),
        6: Zone(attacks=pick(sample.attacks, 1)),
    }
    return Environment(name=sample.name, everywhere=Zone(tricks=sample.tricks), zones=zones)


def _named_features(raw: Any, sample: SampleEnvironment | None, file: str, where: str) -> Any:
    """A zone's data with features named from the sample replaced by their data."""
    if not isinstance(raw, dict):
        return raw
    out = dict(raw)
    for key, attr in _KINDS.items():
        items = out.get(key)
        if not isinstance(items, list):
            continue
        new: list[Any] = []
        for i, item in enumerate(items):
            if isinstance(item, str):
                known = {f.name: f for f in getattr(sample, attr)} if sample is not None else {}
                if item not in known:
                    what = f"a {key[:-1] if key != 'movement' else 'movement effect'} written out"
                    names = ", ".join(known) or "no sample environment is named"
                    raise FileFormatError(file, f"{where}.{key}[{i}]", f"{what}, or one of the sample's ({names})")
                new.append(known[item].model_dump())
            else:
                new.append(item)
        out[key] = new
    return out


def _prepare(data: dict[str, Any], file: str) -> dict[str, Any]:
    env = data.get("environment")
    if not isinstance(env, dict):
        return data
    sample_name = env.get("sample")
    cr = env.get("cr", "1")
    sample = None
    if isinstance(sample_name, str) and sample_name in SAMPLE_ENVIRONMENTS:
        try:
            sample = sample_environment(sample_name, str(cr))
        except Exception:
            raise FileFormatError(file, "environment.cr", "a challenge rating of Table 8-4 (1/4 to 20)") from None
    env = dict(env)
    if "everywhere" in env:
        env["everywhere"] = _named_features(env["everywhere"], sample, file, "environment.everywhere")
    zones = env.get("zones")
    if isinstance(zones, dict):
        env["zones"] = {k: _named_features(v, sample, file, f"environment.zones.{k}") for k, v in zones.items()}
    return {**data, "environment": env}


def _environment(entry: EnvironmentEntry | str) -> Environment:
    if isinstance(entry, str):
        return Environment() if entry == "none" else sample_layout(sample_environment(entry))
    if entry.sample is not None and not entry.zones and entry.everywhere == Zone():
        return sample_layout(sample_environment(entry.sample, entry.cr))
    return Environment(name=entry.name or entry.sample or "", everywhere=entry.everywhere, zones=entry.zones)


# ---------------------------------------------------------------- vehicles and people


def load_chase(path: str | Path) -> ChaseEncounter:
    """Load a chase scenario into the chase's starting value (initiative not rolled yet: the runner's ``begin``
    does it)."""
    path = Path(path)
    name = str(path)
    sf = load_model(path, ChaseScenarioFile, prepare=lambda d: _prepare(d, name))
    try:
        env = _environment(sf.environment)
    except Exception as e:  # a bad CR for a sample layout
        raise FileFormatError(name, "environment", str(e)) from None
    vehicles: list[ChaseVehicle] = []
    riders: list[Rider] = []
    for i, ve in enumerate(sf.vehicles):
        where = f"vehicles[{i}]"
        stat = vehicle_ref(ve.vehicle, path, f"{where}.vehicle")
        pilot = None
        if ve.pilot is not None:
            pilot = Creature.fresh(_statblock(ve.pilot.statblock, path, f"{where}.pilot.statblock"), ve.pilot.id)
        if ve.autopilot and stat.systems.autopilot is None:
            raise FileFormatError(name, f"{where}.autopilot", f"a vehicle with an autopilot; {stat.name} has none")
        if ve.autopilot and pilot is not None:
            raise FileFormatError(name, f"{where}.autopilot", "either a pilot or the autopilot, not both")
        v = Vehicle.fresh(stat, ve.id, started=True, pilot=pilot.id if pilot else None)
        if ve.autopilot:
            v = v.with_state(control="autopilot")
        if ve.hp is not None:
            if ve.hp > stat.hp:
                raise FileFormatError(name, f"{where}.hp", f"at most the vehicle's {stat.hp} Hit Points")
            v = v.with_state(hp=ve.hp)
        v = v.with_state(moving=True, moved_last_round=True)
        vehicles.append(ChaseVehicle(vehicle=v, side=ve.side, pilot=pilot, zone=ve.zone))
        for j, r in enumerate(ve.crew):
            rw = f"{where}.crew[{j}]"
            c = Creature.fresh(_statblock(r.statblock, path, f"{rw}.statblock"), r.id)
            if r.role == "gunner":
                if r.mounted is None:
                    raise FileFormatError(name, f"{rw}.mounted", "the mounted weapon the gunner fires")
                names = [w.weapon.name for w in stat.weapons]
                if r.mounted not in names:
                    raise FileFormatError(name, f"{rw}.mounted", f"a mounted weapon of {stat.name} "
                                          f"({', '.join(names) or 'it has none'})")  # fmt: skip
            elif r.mounted is not None:
                raise FileFormatError(name, f"{rw}.mounted", "only for a gunner (role: gunner)")
            riders.append(Rider(creature=c, vehicle=ve.id, role=r.role, mounted=r.mounted))
        aboard = (1 if pilot else 0) + len(ve.crew)
        room = stat.crew.pilots + stat.crew.crew + stat.crew.passengers
        if aboard > room:
            raise FileFormatError(name, f"{where}.crew", f"at most {room} aboard {stat.name} (got {aboard})")
    chase = Chase(vehicles=tuple(vehicles), order=tuple(v.id for v in vehicles), environment=env)
    goal = Goal(side=sf.goal.side, wants=sf.goal.wants, caught=sf.goal.caught)
    return ChaseEncounter(name=sf.name, description=sf.description, chase=chase, riders=tuple(riders), goal=goal,
                          max_rounds=sf.max_rounds, options=sf.options, initiative=sf.initiative)  # fmt: skip


def chase_schema() -> str:
    import json

    return json.dumps(ChaseScenarioFile.model_json_schema(), indent=2, sort_keys=True) + "\n"


def parse_chase(data: dict[str, Any], name: str = "<data>") -> ChaseScenarioFile:
    """Validate chase data already read (tests, tools)."""
    try:
        return ChaseScenarioFile.model_validate(_prepare(data, name))
    except ValidationError as e:
        raise validation_error(name, e) from None


__all__ = ["ChaseScenarioFile", "chase_schema", "is_chase_file", "load_chase", "parse_chase", "sample_layout"]
