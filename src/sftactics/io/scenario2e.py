"""2nd-edition scenario files (``ruleset: sf2e``): the map, the 2E options and the combatants with 2E stat blocks.

``load_scenario`` reads a file's ``ruleset`` and hands a 2E one here. A combatant's stat block is a 2E
stat-block file (relative to the scenario), a bundled 2E creature's name, or written inline (the
``StatBlock2e`` schema, docs/statblock2e.schema.json). Every error names the file, the field and what was
expected.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sftactics.core.errors import FileFormatError
from sftactics.encounter.sf2e.model import Body2e, face
from sftactics.encounter.space import placement_problem
from sftactics.encounter.state import Combatant, Encounter
from sftactics.io.files import load_model
from sftactics.sf1e import limits as L
from sftactics.sf1e.limits import Name, Square
from sftactics.sf2e.creature import Creature2e, PersistentDamage
from sftactics.sf2e.options import Sf2eOptions
from sftactics.sf2e.statblock import StatBlock2e


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StartingState2e(_Model):
    """Where a 2E combatant starts if not fresh: HP, conditions with their values, persistent damage, Hero
    Points."""

    hp: int | None = Field(None, ge=0, le=L.HP_MAX)
    temp_hp: int = Field(0, ge=0, le=L.HP_MAX)
    conditions: dict[str, int] = Field(default_factory=dict, description="e.g. {wounded: 1, frightened: 2}")
    persistent: tuple[PersistentDamage, ...] = ()
    hero_points: int | None = Field(None, ge=0, le=3)


class CombatantEntry2e(_Model):
    id: Name = Field(description="the name used in logs and commands (unique)")
    side: Name = Field(description="combatants with the same side are allies")
    statblock: str | StatBlock2e = Field(description="a 2E stat-block file, a bundled 2E creature, or one inline")
    at: Square | None = Field(None, description="starting square [x, y] (column, row from the top)")
    initiative: int | None = Field(
        None, ge=L.INIT_MIN, le=L.INIT_MAX, description="an initiative result already rolled"
    )
    state: StartingState2e | None = None
    unseen: Literal["hidden", "undetected", "unnoticed"] | None = Field(
        None, description="how its opponents perceive it when the fight begins (E2-55, E2-61, E2-62)"
    )
    heroic_recovery: bool = Field(True, description="spends all its Hero Points when dying would rise (E2-36)")
    initiative_skill: Literal["perception", "stealth"] = Field(
        "perception", description="what it rolls for initiative: Perception, or Stealth when sneaking up (E2-18)"
    )


class ScenarioFile2e(_Model):
    ruleset: Literal["sf2e"] = Field(description="the 2nd edition plays this fight")
    name: str = "encounter"
    description: str = ""
    map: str | None = Field(None, description="the battle map in the grid's text format (docs/maps.md)")
    options: Sf2eOptions = Field(default_factory=Sf2eOptions, description="the 2E readings (docs/sf2e.md)")
    combatants: tuple[CombatantEntry2e, ...]

    @model_validator(mode="after")
    def _unique(self) -> ScenarioFile2e:
        seen: set[str] = set()
        for c in self.combatants:
            if c.id in seen:
                raise ValueError(f"two combatants are named {c.id!r}; names must be unique")
            seen.add(c.id)
        if not self.combatants:
            raise ValueError("a scenario needs at least one combatant")
        return self


def load_scenario2e(path: str | Path) -> Encounter:
    p = Path(path)
    return build_encounter2e(load_model(p, ScenarioFile2e), p)


def _statblock(ref: str | StatBlock2e, scenario: Path, where: str) -> StatBlock2e:
    if isinstance(ref, StatBlock2e):
        return ref
    try:
        target = (scenario.parent / ref).resolve()
        exists = target.is_file()
    except (OSError, ValueError):
        exists = False
    if exists:
        return load_model(target, StatBlock2e)
    from sftactics.content.sf2e import find_statblock2e

    found = find_statblock2e(ref)
    if found is None:
        raise FileFormatError(
            str(scenario), where, f"a 2E stat-block file or a bundled 2E creature; {ref!r} is neither"
        )
    return found


def _creature(stat: StatBlock2e, st: StartingState2e | None, name: str, where: str) -> Creature2e:
    c = stat.creature()
    if st is None:
        return c
    changes: dict[str, object] = {"temp_hp": st.temp_hp, "persistent": st.persistent}
    if st.hp is not None:
        if st.hp > c.max_hp:
            raise FileFormatError(name, f"{where}.hp", f"at most the maximum {c.max_hp}, not {st.hp}")
        changes["hp"] = st.hp
    if st.hero_points is not None:
        changes["hero_points"] = st.hero_points
    for k, v in st.conditions.items():
        if v < 0:
            raise FileFormatError(name, f"{where}.conditions.{k}", f"a value of 0 or more, not {v}")
    return c.changed(**changes).model_copy(update={"conditions": {k: v for k, v in st.conditions.items() if v}})


def build_encounter2e(scen: ScenarioFile2e, path: Path) -> Encounter:
    name = str(path)
    if scen.map is not None:
        from sftactics.grid.map import parse_map

        try:
            parse_map(scen.map, file=name)
        except FileFormatError as e:
            raise FileFormatError(name, f"map: {e.field}" if e.field else "map", e.expected) from None
        except (ValueError, KeyError) as e:
            raise FileFormatError(name, "map", str(e)) from None
    combatants: dict[str, Combatant] = {}
    for i, entry in enumerate(scen.combatants):
        where = f"combatants[{i}]"
        stat = _statblock(entry.statblock, path, f"{where}.statblock")
        creature = _creature(stat, entry.state, name, f"{where}.state")
        body = Body2e(stat=stat, creature=creature, heroic_recovery=entry.heroic_recovery,
                      initiative_skill=entry.initiative_skill)  # fmt: skip
        combatants[entry.id] = Combatant(id=entry.id, side=entry.side, creature=face(stat, creature, entry.id),
                                         position=entry.at, initiative=entry.initiative, body2e=body)  # fmt: skip
    for entry in scen.combatants:
        if entry.unseen is not None:
            unseen = {o.id: entry.unseen for o in scen.combatants if o.side != entry.side}
            c = combatants[entry.id]
            assert c.body2e is not None
            combatants[entry.id] = c.model_copy(update={"body2e": c.body2e.model_copy(update={"unseen_by": unseen})})
    enc = Encounter(name=scen.name, ruleset="sf2e", options2e=scen.options, map=scen.map, combatants=combatants,
                    track_awareness=False)  # fmt: skip
    for i, c in enumerate(combatants.values()):
        if c.position is not None:
            problem = placement_problem(enc, c, c.position, among=list(combatants)[:i])
            if problem is not None:
                raise FileFormatError(name, f"combatants[{i}].at", f"a square where {c.id} can stand ({problem[1]})")
    return enc


def statblock2e_ref(ref: str) -> StatBlock2e | None:
    """A 2E stat block from a file that says ``ruleset: sf2e``, or a bundled 2E creature by name; None when
    ``ref`` is neither (a 1E stat block, or nothing)."""
    from sftactics.content.sf2e import find_statblock2e
    from sftactics.io.files import read_data

    try:
        target = Path(ref)
        is_file = target.is_file()
    except (OSError, ValueError):
        is_file = False
    if is_file:
        data = read_data(target)
        return load_model(target, StatBlock2e) if isinstance(data, dict) and data.get("ruleset") == "sf2e" else None
    return find_statblock2e(ref)
