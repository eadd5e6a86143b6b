"""The 2E stat-block file format (YAML or JSON): a :class:`Creature2e` with its Strikes, its Stealth, its size and
reach, as a person writes them.

The rules read a :class:`~sftactics.sf2e.creature.Creature2e` (live numbers) and
:class:`~sftactics.sf2e.attacks.Weapon2e` values; this model is the file that makes them
(:meth:`StatBlock2e.creature`, :meth:`StatBlock2e.weapons`). Its JSON Schema is ``docs/statblock2e.schema.json``
(``sftactics schema statblock2e``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer, field_validator

from sftactics.core.errors import SftError
from sftactics.sf2e.attacks import Weapon2e
from sftactics.sf2e.creature import Attribute, Creature2e, Life
from sftactics.sf2e.damage import DamagePart, damage
from sftactics.sf2e.damage_types import DamageType
from sftactics.sf2e.modifiers import Proficiency

Rank = Literal["untrained", "trained", "expert", "master", "legendary"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ExtraDamage(_Model):
    """More damage a Strike deals on a hit: ``dice`` of ``type``; ``persistent`` starts persistent damage (E2-26)."""

    dice: str = Field(description="a plain expression: 1d6, 2, 1d4+1")
    type: DamageType
    persistent: bool = False


class Strike2e(_Model):
    """One Strike: a weapon or an unarmed attack (E2-10, E2-11, E2-19)."""

    name: str
    damage: str = Field(description="the weapon's damage dice, a plain expression such as 1d8")
    type: DamageType = Field(description="the weapon's damage type")
    extra: tuple[ExtraDamage, ...] = Field((), description="more damage on a hit (persistent fire, precision...)")
    melee: bool | None = Field(None, description="a melee Strike (default: when it has no range increment)")
    range_increment: int | None = Field(None, ge=5, le=10_000, description="feet; makes it a ranged Strike")
    traits: frozenset[Literal["agile", "finesse", "thrown", "propulsive"]] = frozenset()
    item_bonus: int = Field(0, ge=0, le=4, description="an item bonus to attack rolls (XREF: potency)")
    proficiency: str = Field("attack", description="the proficiency key it uses (attack, or attack:GROUP)")
    reach_ft: int = Field(5, ge=0, le=100, description="how far a melee Strike reaches")

    @field_serializer("traits")
    def _sorted(self, value: frozenset[str]) -> list[str]:
        return sorted(value)

    def weapon(self) -> Weapon2e:
        parts: list[DamagePart] = [damage(self.damage, self.type)]
        parts += [damage(x.dice, x.type, persistent=x.persistent) for x in self.extra]
        melee = self.melee if self.melee is not None else (self.range_increment is None or "thrown" in self.traits)
        return Weapon2e(
            self.name, tuple(parts), melee, self.range_increment, frozenset(self.traits), self.item_bonus,
            self.proficiency,
        )  # fmt: skip


class StatBlock2e(_Model):
    """A 2E creature or character as a file. Attribute modifiers and proficiency ranks are written directly; AC,
    saves, Perception and attacks are derived from them (E2-09..18), so every number explains itself."""

    ruleset: Literal["sf2e"] = Field("sf2e", description="marks a 2nd-edition stat block")
    name: str = Field(min_length=1, max_length=80)
    level: int = Field(1, ge=-1, le=25)
    player: bool = Field(False, description="a player character: follows the dying rules at 0 HP (E2-31)")
    life: Life = Life.LIVING
    size: Literal["tiny", "small", "medium", "large", "huge", "gargantuan"] = "medium"
    attributes: dict[Attribute, int] = Field(default_factory=dict, description="attribute modifiers (-5 to +7)")
    proficiency: dict[str, Rank] = Field(
        default_factory=dict,
        description="ranks by statistic: perception, fortitude, reflex, will, ac, attack (or attack:GROUP), "
        "stealth, athletics...; missing: untrained",
    )
    armor_bonus: int = Field(0, ge=0, le=10, description="the worn armor's bonus to AC (E2-15)")
    dex_cap: int | None = Field(None, ge=0, le=10, description="the worn armor's cap on Dexterity to AC")
    speed: int = Field(25, ge=0, le=500, description="land Speed in feet")
    speeds: dict[Literal["fly", "climb", "swim", "burrow"], int] = Field(default_factory=dict)
    max_hp: int = Field(ge=1, le=10_000)
    immunities: frozenset[str] = Field(
        frozenset(), description="damage types, categories, conditions or effects (death-effects, critical-hits)"
    )
    weaknesses: dict[str, int] = Field(default_factory=dict, description="by damage type or category")
    resistances: dict[str, int] = Field(default_factory=dict, description="by damage type or category")
    fast_healing: int = Field(0, ge=0, le=1000)
    regeneration: int = Field(0, ge=0, le=1000)
    regeneration_bypass: frozenset[DamageType] = frozenset()
    hero_points: int = Field(0, ge=0, le=3, description="Hero Points at the start (E2-71)")
    strikes: tuple[Strike2e, ...] = ()
    notes: str = ""

    @field_validator("weaknesses", "resistances", mode="before")
    @classmethod
    def _entries(cls, value: Any) -> Any:
        """Entries may be listed; several for one type keep the highest (E2-24, E2-25)."""
        return Creature2e._highest_entry_per_type(value)

    @field_serializer("immunities", "regeneration_bypass")
    def _sorted(self, value: frozenset[str]) -> list[str]:
        """Sets are written sorted, so the same stat block gives the same JSON in any process."""
        return sorted(value)

    def creature(self) -> Creature2e:
        """The live creature at full HP."""
        return Creature2e(
            name=self.name,
            level=self.level,
            player=self.player,
            life=self.life,
            attributes=self.attributes,
            proficiency={k: Proficiency[v.upper()] for k, v in self.proficiency.items()},
            armor_bonus=self.armor_bonus,
            dex_cap=self.dex_cap,
            speed=self.speed,
            speeds=dict(self.speeds),
            max_hp=self.max_hp,
            hp=self.max_hp,
            immunities=self.immunities,
            weaknesses=self.weaknesses,
            resistances=self.resistances,
            fast_healing=self.fast_healing,
            regeneration=self.regeneration,
            regeneration_bypass=self.regeneration_bypass,
            hero_points=self.hero_points,
        )

    def strike(self, name: str | None) -> Strike2e:
        """The Strike named ``name`` (case-insensitive; a unique beginning or part will do); the first when None."""
        if not self.strikes:
            raise SftError(f"{self.name} has no Strikes")
        if name is None:
            return self.strikes[0]
        low = name.lower()
        exact = [s for s in self.strikes if s.name.lower() == low]
        found = exact or [s for s in self.strikes if s.name.lower().startswith(low)]
        found = found or [s for s in self.strikes if low in s.name.lower()]
        if len(found) != 1:
            names = ", ".join(s.name for s in self.strikes)
            raise SftError(f"{self.name} has no single Strike named {name!r} (Strikes: {names})")
        return found[0]
