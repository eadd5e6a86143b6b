"""Scenario files: an encounter in YAML (or JSON), and command files.

A scenario names its map, its options and its combatants. A combatant's stat block is a path to a stat-block
file (relative to the scenario), or written inline. Its starting state may differ from fresh (current SP/HP/RP,
conditions with their remaining rounds, an initiative already rolled). See ``docs/scenarios.md``; the JSON
Schema is ``docs/scenario.schema.json``. Every error names the file, the path in it and what was expected.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from sftactics.core.errors import FileFormatError, SftError
from sftactics.core.validation import first_problem
from sftactics.encounter.commands import COMMANDS_ADAPTER, Command
from sftactics.encounter.space import placement_problem
from sftactics.encounter.state import Combatant, Encounter, StartAt
from sftactics.io.files import load_model, read_data, validation_error
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.statblock import StatBlock
from sftactics.sf1e.state import ConditionInstance, Creature, CreatureState, NegativeLevels


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StartingState(_Model):
    """Where a combatant starts if not fresh. Omitted values are the stat block's maxima."""

    hp: int | None = Field(None, ge=0)
    sp: int | None = Field(None, ge=0)
    rp: int | None = Field(None, ge=0)
    temp_hp: int = Field(0, ge=0)
    conditions: tuple[ConditionInstance, ...] = ()
    ability_damage: dict[str, int] = Field(default_factory=dict)
    negative_levels: tuple[NegativeLevels, ...] = ()


class CombatantEntry(_Model):
    id: str = Field(description="the name used in logs and commands (unique)")
    side: str = Field(description="combatants with the same side are allies")
    statblock: str | StatBlock = Field(description="a stat-block file (relative to the scenario) or one inline")
    at: tuple[int, int] | None = Field(None, description="starting square [x, y] (column, row from the top)")
    aware: bool = Field(True, description="aware of its foes when the fight begins (CF-07)")
    initiative: int | None = Field(None, description="an initiative count already rolled")
    state: StartingState | None = None
    takes_aoo: bool = Field(True, description="takes attacks of opportunity when it can (AOO-06)")
    hidden: bool = Field(False, description="starts hidden (Stealth) from its opponents (SEN-08, CF-07)")
    in_hand: tuple[str, ...] | None = Field(
        None, description="weapons held at the start; when given, weapons must be drawn to be used (GEN-10)"
    )
    one_hand_grip: tuple[str, ...] = Field(
        (), description="held two-handed weapons gripped in one hand at the start: not wielded (ACT-40, GEN-10)"
    )
    ammo: dict[str, int] = Field(default_factory=dict, description="shots left per weapon (default: full)")


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
    sides: dict[str, SideEntry] = Field(default_factory=dict, description="settings per side, by the side's name")

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
    scen = load_model(p, ScenarioFile)
    return build_encounter(scen, p)


def build_encounter(scen: ScenarioFile, path: Path) -> Encounter:
    name = str(path)
    combatants: dict[str, Combatant] = {}
    grid = None
    if scen.map is not None:
        from sftactics.grid.map import parse_map

        try:
            grid = parse_map(scen.map, file=f"{name}: map").map
        except FileFormatError:
            raise
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
            in_hand=tuple(stat.weapon(n).name for n in entry.in_hand) if entry.in_hand is not None else None,
            ammo=entry.ammo,
            one_hand_grip=tuple(stat.weapon(n).name for n in entry.one_hand_grip),
        )
    enc = Encounter(name=scen.name, options=scen.options, map=scen.map, combatants=combatants,
                    gravity=_gravity(grid), track_awareness=scen.track_awareness, start_at=scen.timeline)  # fmt: skip
    for i, c in enumerate(combatants.values()):
        if c.position is not None:
            problem = placement_problem(enc, c, c.position, among=list(combatants)[:i])
            if problem is not None:
                raise FileFormatError(name, f"combatants[{i}].at", f"a square where {c.id} can stand ({problem[1]})")
    return enc


def _gravity(grid: Any) -> Literal["zero", "low", "normal", "high"]:
    if grid is None:
        return "normal"
    g = str(getattr(grid, "gravity", "normal"))
    return g if g in ("zero", "low", "normal", "high") else "normal"  # type: ignore[return-value]


def _statblock(ref: str | StatBlock, scenario: Path, where: str) -> StatBlock:
    if isinstance(ref, StatBlock):
        return ref
    target = (scenario.parent / ref).resolve()
    if not target.exists():
        from sftactics.content import find_statblock

        found = find_statblock(ref)
        if found is not None:
            return found
        raise FileFormatError(str(scenario), where, f"a stat-block file or a bundled creature; {ref!r} is neither")
    try:
        return load_model(target, StatBlock)
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
