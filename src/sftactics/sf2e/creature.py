"""What the 2E rules need to know about a creature, as one frozen value (:class:`Creature2e`).

This is not a stat-block format: it carries only what the rules in this package read or change. Attribute
*modifiers* are stored directly (2E has no ability scores in the seed). Proficiency ranks are keyed by statistic:
``perception``, ``fortitude``, ``reflex``, ``will``, ``ac``, ``attack`` (weapons and unarmed attacks; a weapon may
name its own key, e.g. ``attack:rifle``) and ``spell``. A missing key means untrained.

Conditions are a mapping of name to value (1 for conditions without a value); dying, wounded and doomed are
conditions like the others. Rules return new creatures (``model_copy``); nothing is changed in place.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_serializer, field_validator, model_validator

from sftactics.sf2e.damage_types import DamageType
from sftactics.sf2e.modifiers import Proficiency


class Attribute(StrEnum):
    STR = "str"
    DEX = "dex"
    CON = "con"
    INT = "int"
    WIS = "wis"
    CHA = "cha"


class Life(StrEnum):
    """What vitality and void damage see (E2-21): living creatures, undead, or neither (constructs)."""

    LIVING = "living"
    UNDEAD = "undead"
    NEITHER = "neither"


class PersistentDamage(BaseModel):
    """Persistent damage a creature is taking (E2-26): ``dice`` (a plain expression) of ``type`` each turn."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dice: str
    type: DamageType
    doubled: bool = False

    def describe(self) -> str:
        return f"{self.dice}{' doubled' if self.doubled else ''} persistent {self.type}"


class Creature2e(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    level: int = Field(1, ge=-1)
    player: bool = Field(True, description="a player character: follows the dying rules at 0 HP (E2-31)")
    life: Life = Life.LIVING
    attributes: dict[Attribute, int] = Field(default_factory=dict)
    proficiency: dict[str, Proficiency] = Field(default_factory=dict)
    armor_bonus: int = Field(0, ge=0, description="the worn armor's bonus to AC (E2-15)")
    dex_cap: int | None = Field(None, description="the worn armor's cap on Dexterity to AC; None: no cap")
    speed: int = Field(25, ge=0, description="land Speed in feet")
    speeds: dict[str, int] = Field(default_factory=dict, description="other movement modes: fly, climb, swim...")
    max_hp: int = Field(ge=1)
    hp: int = Field(ge=0)
    temp_hp: int = Field(0, ge=0)
    temp_hp_source: str = ""
    immunities: frozenset[str] = frozenset()
    weaknesses: dict[str, int] = Field(default_factory=dict)
    resistances: dict[str, int] = Field(default_factory=dict)
    fast_healing: int = Field(0, ge=0)
    regeneration: int = Field(0, ge=0)
    regeneration_bypass: frozenset[DamageType] = frozenset()
    regeneration_off_turns: int = Field(0, ge=0, description="own turn ends until regeneration works again")
    conditions: dict[str, int] = Field(default_factory=dict)
    persistent: tuple[PersistentDamage, ...] = ()
    hero_points: int = Field(0, ge=0)
    dead: bool = False
    death_cause: str = ""

    @model_validator(mode="before")
    @classmethod
    def _full_hp_by_default(cls, data: Any) -> Any:
        if isinstance(data, dict) and "hp" not in data and "max_hp" in data:
            return {**data, "hp": data["max_hp"]}
        return data

    @field_validator("proficiency", mode="before")
    @classmethod
    def _rank_names(cls, value: Any) -> Any:
        """Ranks may be written by name (``trained``) as well as by number."""
        if isinstance(value, dict):
            return {k: Proficiency[v.upper()] if isinstance(v, str) else v for k, v in value.items()}
        return value

    @field_serializer("immunities", "regeneration_bypass")
    def _sorted(self, value: frozenset[str]) -> list[str]:
        """Sets are written sorted, so the same creature gives the same JSON in any process."""
        return sorted(value)

    @field_validator("weaknesses", "resistances", mode="before")
    @classmethod
    def _highest_entry_per_type(cls, value: Any) -> Any:
        """Several entries for one type (a list of ``{type, value}``): only the highest applies (E2-24, E2-25)."""
        if not isinstance(value, list | tuple):
            return value
        table: dict[str, int] = {}
        for entry in value:
            if not isinstance(entry, dict) or set(entry) - {"type", "value", "source"}:
                raise ValueError("each entry is {type, value} (and an optional source)")
            key, amount = entry.get("type"), entry.get("value")
            if not isinstance(key, str) or not isinstance(amount, int) or isinstance(amount, bool):
                raise ValueError("each entry is {type: a damage type or category, value: a whole number}")
            table[key] = max(table.get(key, amount), amount)
        return table

    @model_validator(mode="after")
    def _hp_within_max(self) -> Creature2e:
        if self.hp > self.max_hp:
            raise ValueError(f"hp {self.hp} is above max_hp {self.max_hp}")
        return self

    # --- reading -----------------------------------------------------------------------------------------

    def attribute(self, a: Attribute) -> int:
        return self.attributes.get(a, 0)

    def rank(self, key: str) -> Proficiency:
        """The proficiency rank for a statistic; ``attack:rifle`` falls back to ``attack``."""
        if key in self.proficiency:
            return self.proficiency[key]
        head = key.split(":", 1)[0]
        return self.proficiency.get(head, Proficiency.UNTRAINED)

    def condition(self, name: str) -> int:
        """The value of a condition (0 if the creature does not have it)."""
        return self.conditions.get(name, 0)

    def has(self, name: str) -> bool:
        return self.condition(name) > 0

    def immune_to(self, name: str) -> bool:
        """Immune to a damage type, a condition or an effect trait (``death-effects``, ``critical-hits``): the
        effect does not apply to it at all (E2-23)."""
        return name in self.immunities

    @property
    def dying(self) -> int:
        return self.condition("dying")

    @property
    def wounded(self) -> int:
        return self.condition("wounded")

    @property
    def doomed(self) -> int:
        return self.condition("doomed")

    @property
    def unconscious(self) -> bool:
        return self.has("unconscious")

    # --- changing (new values) ---------------------------------------------------------------------------

    def with_conditions(self, **values: int) -> Creature2e:
        """A copy with conditions set (a value of 0 removes the condition). Names use ``_`` for ``-``."""
        conds = dict(self.conditions)
        for key, value in values.items():
            name = key.replace("_", "-")
            if value > 0:
                conds[name] = value
            else:
                conds.pop(name, None)
        return self.model_copy(update={"conditions": conds})

    def with_weakness(self, type: str, value: int) -> Creature2e:
        """A copy with another weakness to ``type``: the highest of the old and new values applies (E2-24)."""
        return self.changed(weaknesses={**self.weaknesses, type: max(value, self.weaknesses.get(type, value))})

    def with_resistance(self, type: str, value: int) -> Creature2e:
        """A copy with another resistance to ``type``: the highest of the old and new values applies (E2-25)."""
        return self.changed(resistances={**self.resistances, type: max(value, self.resistances.get(type, value))})

    def changed(self, **fields: Any) -> Creature2e:
        """A copy with fields replaced."""
        return self.model_copy(update=fields)
