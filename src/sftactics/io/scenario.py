"""Scenario files: an encounter in YAML (or JSON), and command files.

A scenario names its map, its options and its combatants. A combatant's stat block is a path to a stat-block
file (relative to the scenario), or written inline. Its starting state may differ from fresh (current SP/HP/RP,
conditions with their remaining rounds, an initiative already rolled). See ``docs/scenarios.md``; the JSON
Schema is ``docs/scenario.schema.json``. Every error names the file, the path in it and what was expected.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from sftactics.core.errors import FileFormatError, SftError
from sftactics.core.validation import first_problem
from sftactics.dice.expr import parse
from sftactics.encounter.commands import COMMANDS_ADAPTER, Command
from sftactics.encounter.space import placement_problem
from sftactics.encounter.state import (
    Combatant,
    Encounter,
    ImposedCover,
    StartAt,
    StartGrapple,
    StartSetup,
)
from sftactics.io.files import load_model, read_data, validation_error
from sftactics.io.scenario_vehicles import VehicleEntry, add_vehicles
from sftactics.io.statblocks import load_statblock
from sftactics.sf1e import limits as L
from sftactics.sf1e.limits import Name, Square
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.statblock import StatBlock
from sftactics.sf1e.state import ConditionInstance, Creature, CreatureState, NegativeLevels
from sftactics.sf1e.vehicles.options import VehicleOptions


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StartingState(_Model):
    """Where a combatant starts if not fresh. Omitted values are the stat block's maxima."""

    hp: int | None = Field(None, ge=0, le=L.HP_MAX)
    sp: int | None = Field(None, ge=0, le=L.SP_MAX)
    rp: int | None = Field(None, ge=0, le=L.RP_MAX)
    temp_hp: int = Field(0, ge=0, le=L.HP_MAX)
    conditions: tuple[ConditionInstance, ...] = ()
    ability_damage: dict[str, Annotated[int, Field(ge=0, le=L.ABILITY_DAMAGE_MAX)]] = Field(default_factory=dict)
    negative_levels: tuple[NegativeLevels, ...] = ()


AwarenessName = Literal["unaware", "aware_of_presence", "aware_of_location", "observing"]


class Environment(_Model):
    """A combatant's own surroundings where they differ from the map's (the rules that read them apply to it)."""

    gravity: Literal["zero", "low", "normal", "high"] | None = Field(
        None, description="the gravity around this creature (default: the map's); zero: knocked down or tripped, "
        "it is off-kilter instead of prone (MOD-18, MAN-12, CON-23)",
    )  # fmt: skip


class GrappleEntry(_Model):
    """A grapple under way when the fight begins, as a successful grapple leaves it (MAN-05..07)."""

    grappler: str = Field(description="the creature holding")
    grappled: str = Field(description="the creature held")
    pinned: bool = Field(False, description="pinned rather than grappled (MAN-06)")


class CoverEntry(_Model):
    """Cover the GM imposes on a creature from the start (MOD-08, MOD-12..14)."""

    target: str
    cover: Literal["partial", "cover", "improved", "total"]
    against: tuple[str, ...] = Field((), description="the attackers it counts against (default: everyone)")
    rounds: int | None = Field(None, ge=1, le=100_000, description="how long it lasts (default: until ended)")


class CombatantEntry(_Model):
    id: Name = Field(description="the name used in logs and commands (unique)")
    side: Name = Field(description="combatants with the same side are allies")
    statblock: str | StatBlock = Field(description="a stat-block file (relative to the scenario) or one inline")
    at: Square | None = Field(None, description="starting square [x, y] (column, row from the top)")
    aware: bool = Field(True, description="aware of its foes when the fight begins (CF-07)")
    initiative: int | None = Field(None, ge=L.INIT_MIN, le=L.INIT_MAX, description="an initiative count already rolled")
    state: StartingState | None = None
    takes_aoo: bool = Field(True, description="takes attacks of opportunity when it can (AOO-06)")
    hidden: bool = Field(False, description="starts hidden (Stealth) from its opponents (SEN-08, CF-07)")
    in_hand: tuple[str, ...] | None = Field(
        None, description="weapons held at the start; when given, weapons must be drawn to be used (GEN-10)"
    )
    one_hand_grip: tuple[str, ...] = Field(
        (), description="held two-handed weapons gripped in one hand at the start: not wielded (ACT-40, GEN-10)"
    )
    ammo: dict[str, Annotated[int, Field(ge=0, le=L.CAPACITY_MAX)]] = Field(
        default_factory=dict, description="shots left per weapon (default: full)"
    )
    aware_of: dict[str, str] = Field(
        default_factory=dict,
        description="how aware it is of named opponents when the fight begins, overriding the senses' start "
        "(SEN-03..07): unaware, aware_of_presence, aware_of_location or observing",
        json_schema_extra={"additionalProperties": {"enum": list(get_args(AwarenessName))}},
    )  # the states are checked by _setup, so that an error names the opponent's key
    environment: Environment | None = None


class SideEntry(_Model):
    """Settings of one side (by its name in ``combatants[].side``)."""

    morale: Literal["fight-to-the-death", "by-the-book", "cautious"] | None = Field(
        None, description="when the side's members retreat in a simulation (docs/simulation.md); none: by-the-book"
    )


class ScenarioFile(_Model):
    name: str = "encounter"
    description: str = ""
    track_awareness: bool = Field(True, description="track who perceives whom (SEN-05..10)")
    map: str | None = Field(None, description="the battle map in the grid's text format (docs/maps.md)")
    options: Sf1eOptions = Field(default_factory=Sf1eOptions)
    timeline: StartAt | None = Field(
        None,
        description="a fight already under way: the round, whose turn it is and who else has acted this round "
        "(everyone needs an initiative)",
    )
    combatants: tuple[CombatantEntry, ...]
    grapples: tuple[GrappleEntry, ...] = Field((), description="grapples under way when the fight begins")
    cover: tuple[CoverEntry, ...] = Field((), description="cover the GM imposes from the start")
    sides: dict[str, SideEntry] = Field(default_factory=dict, description="settings per side, by the side's name")
    vehicles: tuple[VehicleEntry, ...] = Field((), description="vehicles on the grid (docs/vehicles.md)")
    vehicle_options: VehicleOptions = Field(
        default_factory=VehicleOptions, description="ambiguous vehicle rules (docs/vehicles.md)"
    )

    @model_validator(mode="after")
    def _unique(self) -> ScenarioFile:
        seen: set[str] = set()
        for c in self.combatants:
            if c.id in seen:
                raise ValueError(f"two combatants are named {c.id!r}; names must be unique")
            seen.add(c.id)
        if not self.combatants:
            raise ValueError("a scenario needs at least one combatant")
        known = {c.side for c in self.combatants}
        for side in self.sides:
            if side not in known:
                raise ValueError(f"sides: no combatant is on the side {side!r} (sides: {', '.join(sorted(known))})")
        t = self.timeline
        if t is not None:
            missing = [c.id for c in self.combatants if c.initiative is None]
            if missing:
                raise ValueError(f"timeline: a fight under way needs everyone's initiative ({', '.join(missing)})")
            for name in (*t.acted, *([t.turn] if t.turn else [])):
                if name not in seen:
                    raise ValueError(f"timeline: no combatant named {name!r}")
            if t.turn is not None and t.turn in t.acted:
                raise ValueError(f"timeline: {t.turn} cannot have acted already and be about to take its turn")
        return self


def side_morale(scen: ScenarioFile) -> dict[str, str]:
    """The morale the scenario gives each side that names one (``sides.SIDE.morale``)."""
    return {side: e.morale for side, e in scen.sides.items() if e.morale is not None}


def load_scenario(path: str | Path) -> Encounter:
    """Read a scenario file into a fresh :class:`Encounter`."""
    p = Path(path)
    scen = load_model(p, ScenarioFile, prepare=lambda data: _not_a_chase(data, p))
    return build_encounter(scen, p)


def _not_a_chase(data: dict[str, Any], path: Path) -> dict[str, Any]:
    if data.get("kind") == "chase":
        raise FileFormatError(str(path), "kind", "a grid scenario; this is a vehicle chase: use sftactics chase, "
                              "play or simulate (docs/vehicles.md)")  # fmt: skip
    return data


def build_encounter(scen: ScenarioFile, path: Path) -> Encounter:
    name = str(path)
    combatants: dict[str, Combatant] = {}
    grid = None
    if scen.map is not None:
        from sftactics.grid.map import parse_map

        try:
            grid = parse_map(scen.map, file=name).map
        except FileFormatError as e:  # the scenario is the file; the map's row or directive is in the field
            raise FileFormatError(name, f"map: {e.field}" if e.field else "map", e.expected) from None
        except (ValueError, KeyError) as e:
            raise FileFormatError(name, "map", str(e)) from None
    for i, entry in enumerate(scen.combatants):
        where = f"combatants[{i}]"
        stat = _statblock(entry.statblock, path, f"{where}.statblock")
        creature = Creature.fresh(stat, entry.id)
        if entry.state is not None:
            creature = _with_start(creature, entry.state, name, f"{where}.state")
        combatants[entry.id] = Combatant(
            id=entry.id,
            side=entry.side,
            creature=creature,
            position=entry.at,
            aware=entry.aware,
            initiative=entry.initiative,
            takes_aoo=entry.takes_aoo,
            hidden=entry.hidden,
            in_hand=_weapons(stat, entry.in_hand, name, f"{where}.in_hand") if entry.in_hand is not None else None,
            ammo=entry.ammo,
            one_hand_grip=_weapons(stat, entry.one_hand_grip, name, f"{where}.one_hand_grip"),
            gravity=entry.environment.gravity if entry.environment is not None else None,
        )
    enc = Encounter(name=scen.name, options=scen.options, map=scen.map, combatants=combatants,
                    gravity=_gravity(grid), track_awareness=scen.track_awareness, start_at=scen.timeline)  # fmt: skip
    for i, c in enumerate(combatants.values()):
        if c.position is not None:
            problem = placement_problem(enc, c, c.position, among=list(combatants)[:i])
            if problem is not None:
                raise FileFormatError(name, f"combatants[{i}].at", f"a square where {c.id} can stand ({problem[1]})")
    if scen.vehicles:
        enc = add_vehicles(scen.vehicles, enc, path).model_copy(update={"vehicle_options": scen.vehicle_options})
    setup = _setup(scen, enc, name)
    if setup is None:
        return enc
    from sftactics.encounter.gm_setup import grapple_condition
    from sftactics.sf1e import conditions as cond

    for g in setup.grapples:  # held from the start (queries before ``begin`` see it); ``begin`` times it
        held = enc.get(g.target)
        creature = cond.add_condition(held.creature, grapple_condition(g)[1])
        enc = enc.update(g.target, creature=creature)
    return enc.model_copy(update={"setup": setup})


def _setup(scen: ScenarioFile, enc: Encounter, name: str) -> StartSetup | None:
    """What the scenario sets up for ``begin``: awareness per pair, grapples, imposed cover; each entry checked
    (names, sides, reach, hands) with an error naming the file and the field."""
    from sftactics.sf1e.senses import Awareness

    def who(cid: str, where: str, what: str = "a combatant's name") -> Combatant:
        if cid not in enc.combatants:
            raise FileFormatError(name, where, f"{what}; there is no combatant named {cid!r}")
        return enc.combatants[cid]

    awareness: dict[str, int] = {}
    for i, entry in enumerate(scen.combatants):
        for other, level in entry.aware_of.items():
            where = f"combatants[{i}].aware_of.{other}"
            if not scen.track_awareness:
                raise FileFormatError(name, where, "track_awareness: true (awareness is not tracked in this scenario)")
            if level not in get_args(AwarenessName):
                states = ", ".join(get_args(AwarenessName))
                raise FileFormatError(name, where, f"one of {states}; not {level!r}")
            o = who(other, where, "an opponent's name")
            if o.id == entry.id or o.side == entry.side:
                raise FileFormatError(name, where, f"an opponent of {entry.id} (allies always perceive each other)")
            awareness[f"{entry.id}>{o.id}"] = int(Awareness[level.upper()])
    grapples: list[StartGrapple] = []
    held: dict[str, str] = {}
    for j, g in enumerate(scen.grapples):
        where = f"grapples[{j}]"
        grappler = who(g.grappler, f"{where}.grappler")
        target = who(g.grappled, f"{where}.grappled")
        problem = _grapple_problem(enc, grappler, target, held)
        if problem:
            raise FileFormatError(name, where, problem)
        held[grappler.id] = target.id
        grapples.append(StartGrapple(grappler=grappler.id, target=target.id, pinned=g.pinned))
    covers: list[ImposedCover] = []
    for j, cv in enumerate(scen.cover):
        where = f"cover[{j}]"
        who(cv.target, f"{where}.target")
        for k, a in enumerate(cv.against):
            if who(a, f"{where}.against[{k}]").id == cv.target:
                raise FileFormatError(name, f"{where}.against[{k}]", f"another creature than {cv.target} itself")
        covers.append(ImposedCover(target=cv.target, cover=cv.cover, against=cv.against, rounds=cv.rounds))
    if not (awareness or grapples or covers):
        return None
    return StartSetup(awareness=awareness, grapples=tuple(grapples), cover=tuple(covers))


def _grapple_problem(enc: Encounter, grappler: Combatant, target: Combatant, held: dict[str, str]) -> str:
    """Why ``grappler`` could not be holding ``target`` as the fight begins (MAN-05..07), or ''."""
    from sftactics.encounter import hands, space
    from sftactics.sf1e import conditions as cond

    if grappler.id == target.id:
        return "a grappler and a different creature it holds"
    if grappler.id in held:
        return f"one creature held by {grappler.id} ({held[grappler.id]} already is, MAN-07)"
    if target.id in held.values():
        return f"{target.id} held by one grappler at a time"
    if cond.is_immune(target.creature, "grappled"):
        return f"a creature that can be grappled ({target.id} is immune)"
    if hands.free_hands(grappler) < 1:
        return f"{grappler.id} with a free hand to grapple with (MAN-05; it holds {hands.held_text(grappler)})"
    body = space.body(enc, grappler)
    reach = max((body.reach_ft or 0) if body is not None else 0, grappler.creature.stat.reach_ft)
    dist = space.distance_ft(grappler, target)
    if dist is not None and dist > reach:
        return f"{target.id} within {grappler.id}'s {reach}-ft reach, not {dist} ft away (MAN-01)"
    return ""


def _weapons(stat: StatBlock, names: tuple[str, ...], file: str, where: str) -> tuple[str, ...]:
    """The stat block's names of the weapons ``names`` finds; an unknown one is the file's error."""
    out = []
    for j, n in enumerate(names):
        try:
            out.append(stat.weapon(n).name)
        except SftError as e:
            raise FileFormatError(file, f"{where}[{j}]", f"one of its weapons ({e})") from None
    return tuple(out)


def _gravity(grid: Any) -> Literal["zero", "low", "normal", "high"]:
    if grid is None:
        return "normal"
    g = str(getattr(grid, "gravity", "normal"))
    return g if g in ("zero", "low", "normal", "high") else "normal"  # type: ignore[return-value]


def _statblock(ref: str | StatBlock, scenario: Path, where: str) -> StatBlock:
    if isinstance(ref, StatBlock):
        return ref
    try:
        target = (scenario.parent / ref).resolve()
        exists = target.exists()
    except (OSError, ValueError):  # a name too long for the system, or with a NUL character
        raise FileFormatError(str(scenario), where, "a stat-block file or a bundled creature's name") from None
    if exists and not target.is_file():
        raise FileFormatError(str(scenario), where, f"a stat-block file; {ref!r} is a folder")
    if not exists:
        from sftactics.content import find_statblock

        found = find_statblock(ref)
        if found is not None:
            return found
        raise FileFormatError(str(scenario), where, f"a stat-block file or a bundled creature; {ref!r} is neither")
    try:
        return load_statblock(target)
    except FileFormatError as e:
        raise FileFormatError(e.file, e.field, f"{e.expected} (used by {scenario}: {where})") from None


def _with_start(c: Creature, st: StartingState, name: str, where: str) -> Creature:
    s = c.stat
    values = {
        "hp": s.hp if st.hp is None else st.hp,
        "sp": s.sp if st.sp is None else st.sp,
        "rp": s.rp if st.rp is None else st.rp,
    }
    for k, top in (("hp", s.hp), ("sp", s.sp), ("rp", s.rp)):
        if values[k] > top:
            raise FileFormatError(name, f"{where}.{k}", f"at most the maximum {top}, not {values[k]}")
    from sftactics.sf1e import conditions as cond

    for j, inst in enumerate(st.conditions):
        try:
            cond.get(inst.name)
        except SftError as e:
            raise FileFormatError(name, f"{where}.conditions[{j}].name", str(e)) from None
        if inst.rounds is not None and not 1 <= inst.rounds <= L.ROUNDS_MAX:
            raise FileFormatError(name, f"{where}.conditions[{j}].rounds", f"1 to {L.ROUNDS_MAX}, not {inst.rounds}")
        if inst.value is not None:
            try:
                parse(inst.value)
            except SftError as e:
                raise FileFormatError(name, f"{where}.conditions[{j}].value", f"a number or dice ({e})") from None
    for j, neg in enumerate(st.negative_levels):
        if neg.count > L.NEGATIVE_LEVELS_MAX or (neg.dc is not None and not L.DC_MIN <= neg.dc <= L.DC_MAX):
            raise FileFormatError(name, f"{where}.negative_levels[{j}]", f"a count from 1 to "
                                  f"{L.NEGATIVE_LEVELS_MAX} and a dc from {L.DC_MIN} to {L.DC_MAX}")  # fmt: skip
    try:
        state = CreatureState(
            hp=values["hp"],
            sp=values["sp"],
            rp=values["rp"],
            temp_hp=st.temp_hp,
            conditions=st.conditions,
            ability_damage=st.ability_damage,
            negative_levels=st.negative_levels,
        )
    except ValidationError as e:
        raise validation_error(name, e, where) from None
    return c.model_copy(update={"state": state})


def load_commands(path: str | Path) -> list[Command]:
    """A command file: a YAML or JSON list of commands (the same as the Python API takes)."""
    p = Path(path)
    data = read_data(p)
    if isinstance(data, dict) and "commands" in data:
        data = data["commands"]
    if not isinstance(data, list):
        raise FileFormatError(str(p), "", "a list of commands")
    try:
        return COMMANDS_ADAPTER.validate_python(data)
    except ValidationError as e:
        return _raise(str(p), *first_problem(e))


def _raise(name: str, where: str, msg: str) -> list[Command]:
    raise FileFormatError(name, where, msg)
