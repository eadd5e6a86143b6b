"""Stat blocks: what a creature *is* (the same for the whole fight). Live values are in ``state.py``.

One schema serves player characters and NPCs. Where a stat block prints a total (NPC attack bonuses, saves,
EAC/KAC, initiative), the total is the base term of the derived number and conditions add to it. Where it gives
parts (a PC's BAB, base saves, armor and ability modifiers), the engine builds the total from them.

The YAML form people write by hand is this schema (see ``docs/statblocks.md``); unknown keys are errors.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PlainSerializer, model_validator

from sftactics.core.errors import DiceError
from sftactics.dice.expr import DAMAGE_TYPES, ENERGY, KINETIC, DiceExpr, damage_type, parse
from sftactics.sf1e import limits as L
from sftactics.sf1e.limits import (
    AbilityMod,
    AbilityScore,
    ClassLevel,
    DiceText,
    Name,
    Resist,
    Save,
    SenseRange,
    Skill,
    Speed,
)
from sftactics.sf1e.usable import UsableAbility

Ability = Literal["str", "dex", "con", "int", "wis", "cha"]
ABILITIES: tuple[Ability, ...] = ("str", "dex", "con", "int", "wis", "cha")
SaveName = Literal["fort", "ref", "will"]
SAVE_ABILITY: dict[str, Ability] = {"fort": "con", "ref": "dex", "will": "wis"}

Size = Literal["fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan", "colossal"]
#: Sizes that take less than one square and have 0 ft of natural reach (Table 8-1).
_SUB_SQUARE = frozenset({"fine", "diminutive", "tiny"})

WeaponCategory = Literal[
    "basic_melee",
    "advanced_melee",
    "small_arm",
    "longarm",
    "heavy",
    "sniper",
    "grenade",
    "special",
    "solarian",
    "natural",
    "unarmed",
]
MELEE_CATEGORIES = frozenset({"basic_melee", "advanced_melee", "solarian", "natural", "unarmed"})

ArmorCategory = Literal["light", "heavy", "powered"]
MOVE_MODES = ("land", "fly", "swim", "climb", "burrow")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


#: A set of names that serialises as a sorted list, so saved states are the same byte for byte.
NameSet = Annotated[frozenset[str], PlainSerializer(lambda s: sorted(s), return_type=list[str])]


def _critical_dcs(v: str) -> str:
    for m in re.finditer(r"\bDC\s*(\d+)", v, re.IGNORECASE):
        if len(m.group(1)) > 3 or not L.DC_MIN <= int(m.group(1)) <= L.DC_MAX:
            raise ValueError(f"a critical effect with a DC from {L.DC_MIN} to {L.DC_MAX}, not {m.group(1)[:8]}")
    return v


#: A critical effect as printed ("Burn 1d6", "Staggered [DC 14]"): at most 200 characters, a DC in range.
CriticalText = Annotated[str, Field(max_length=200), AfterValidator(_critical_dcs)]


def score_to_mod(score: int) -> int:
    """Ability modifier from a score (X-01, external to the seeds): floor((score - 10) / 2)."""
    return (score - 10) // 2


class Saves(_Model):
    fort: Save = 0
    ref: Save = 0
    will: Save = 0

    def get(self, name: str) -> int:
        return int(getattr(self, name))


class AreaRider(_Model):
    """A condition an area gives each creature inside that fails its save (no save: every creature): the
    special effects of the explode property, such as burning 1d4, staggered 1 round, deafened 1d4 minutes or
    blinded 1d4 rounds. ``value`` is the amount of a condition that deals damage (burning); ``rounds`` and
    ``minutes`` (dice, rolled for each creature) its duration; neither: until removed."""

    condition: Name
    value: DiceText | None = None
    rounds: DiceText | None = None
    minutes: DiceText | None = None


class AreaCloud(_Model):
    """What an area leaves on the map for a while instead of (or besides) damage: a smoke grenade's cloud adds
    ``feature`` (``conceal``: concealment, MOD-01) to the squares it fills for ``rounds`` rounds, or ``minutes``
    minutes of 10 rounds each (CF-14)."""

    feature: Literal["conceal", "obscure"] = "conceal"
    rounds: int | None = Field(None, ge=1, le=100_000)
    minutes: int | None = Field(None, ge=1, le=10_000)


class Area(_Model):
    """An area a weapon or ability fills (explode, burst...). Geometry comes with the grid.

    ``on_save`` says what a successful save does (SV-09): ``half`` halves the damage; ``negates`` keeps the
    whole effect off; ``partial`` gives the lesser effect, which for an area (the explode property) is half
    damage and none of the ``riders``; a failed save takes the full damage and the riders."""

    shape: Literal["burst", "cone", "line", "emanation", "spread", "cylinder", "sphere"] = "burst"
    size_ft: int = L.feet(..., L.AREA_MAX, "radius, length or side of the area")
    save: Literal["fort", "ref", "will"] | None = "ref"
    on_save: Literal["half", "negates", "partial", "none"] = "half"
    dc: int | None = L.ranged(None, L.DC_MIN, L.DC_MAX, "save DC")
    riders: tuple[AreaRider, ...] = ()
    cloud: AreaCloud | None = None


class Weapon(_Model):
    """A weapon or natural attack.

    ``damage`` is a dice expression with damage types ("1d6 F", "2d6+4 P", "1d8 A & P"). For NPCs it is the
    printed damage (bonuses included); set ``attack_bonus`` to the printed attack total. For characters leave
    ``attack_bonus`` out: it is built from BAB, the ability modifier and proficiency, and Strength or
    specialization are added to damage as the rules say.
    """

    name: Name
    category: WeaponCategory = "small_arm"
    melee: bool | None = None
    damage: DiceText
    targets: Literal["eac", "kac"] | None = None
    attack_bonus: int | None = L.ranged(None, L.ATTACK_MIN, L.ATTACK_MAX, "printed attack total")
    ability: Ability | None = None
    range_ft: int = L.feet(0, L.RANGE_MAX, "range increment")
    max_increments: int | None = L.ranged(None, 1, L.INCREMENTS_MAX, "range increments")
    thrown: bool = False
    reach: bool = False
    reach_ft: int | None = L.feet(None, L.REACH_MAX, "reach with this weapon")
    unwieldy: bool = False
    operative: bool = False
    nonlethal: bool = False
    two_handed: bool = False
    critical: CriticalText = ""
    critical_dc: int | None = L.ranged(None, L.DC_MIN, L.DC_MAX, "printed critical effect DC")
    item_level: int = L.ranged(0, 0, L.ITEM_LEVEL_MAX, "item level")
    capacity: int | None = L.ranged(None, 1, L.CAPACITY_MAX, "charges or rounds")
    usage: int = L.ranged(1, 0, L.USAGE_MAX, "charges or rounds per shot")
    area: Area | None = None
    magic: bool = False
    materials: NameSet = frozenset()
    alignment: NameSet = frozenset()
    broken: bool = False
    proficient: bool | None = None
    multiattack: bool = False

    @property
    def damage_expr(self) -> DiceExpr:
        return parse(self.damage)

    @property
    def is_melee(self) -> bool:
        if self.melee is not None:
            return self.melee
        return self.category in MELEE_CATEGORIES

    @property
    def is_grenade(self) -> bool:
        return self.category == "grenade"

    @property
    def damage_types(self) -> frozenset[str]:
        return self.damage_expr.types

    @property
    def max_range_ft(self) -> int:
        """Maximum range: 10 increments, 5 for thrown weapons, unless the weapon says otherwise (ATK-11)."""
        if self.is_melee and not self.thrown:
            return 0
        n = self.max_increments or (5 if self.thrown or self.is_grenade else 10)
        return self.range_ft * n


class Armor(_Model):
    name: Name
    category: ArmorCategory = "light"
    eac: int = L.ranged(0, 0, L.AC_MAX, "EAC bonus")
    kac: int = L.ranged(0, 0, L.AC_MAX, "KAC bonus")
    max_dex: int | None = L.ranged(None, 0, L.MOD_MAX, "maximum Dexterity bonus")
    check_penalty: int = L.ranged(0, -20, 0, "armor check penalty")
    speed_adjust: int = Field(0, ge=-30, le=30, multiple_of=5, description="speed adjustment (feet, -30 to 30)")
    broken: bool = False
    proficient: bool | None = None
    fly_speed: Speed = 0


class DamageReduction(_Model):
    """DR ``value``/``bypass`` (SPA-07). ``bypass``: "—" (nothing bypasses), a quality ("magic",
    "adamantine", "good"), "a || b" / "a or b" (either) or "a && b" / "a and b" (both)."""

    value: int = L.ranged(..., 0, L.DR_MAX, "damage reduction")
    bypass: str = "—"


class Proficiencies(_Model):
    """Weapon categories and armor categories a creature is proficient with. NPCs are proficient with what
    they carry (their printed numbers already say so)."""

    weapons: NameSet = frozenset()
    armor: NameSet = frozenset()


class ModifierSpec(_Model):
    """An always-on modifier from a feat, trait or item: ``selector`` picks the number it changes (see
    ``sftactics.sf1e.modifiers``), ``when`` limits it to situations (tags)."""

    selector: str
    value: int = L.ranged(..., L.BONUS_MIN, L.BONUS_MAX, "bonus or penalty")
    type: Literal[
        "untyped", "armor", "circumstance", "divine", "enhancement", "insight", "luck", "morale", "racial"
    ] = "untyped"
    label: Name
    when: NameSet = frozenset()
    rule: str = ""


class StatBlock(_Model):
    name: Name
    kind: Literal["pc", "npc"] = "npc"
    level: int | None = Field(None, ge=1, le=L.LEVEL_MAX, description="character level (PCs) or level for DCs")
    cr: str | None = Field(None, description='challenge rating, e.g. "2" or "1/3"')
    size: Size = "medium"
    space_ft: float = Field(5, gt=0, le=L.SPACE_MAX, description="side of its space (feet)")
    reach_ft: int = L.feet(5, L.REACH_MAX, "natural reach")
    creature_type: str = ""
    abilities: dict[Ability, AbilityMod | None] = Field(default_factory=dict, description="ability modifiers")
    scores: dict[Ability, AbilityScore] = Field(default_factory=dict, description="ability scores (optional)")
    key_ability: Ability | None = None
    classes: dict[str, ClassLevel] = Field(default_factory=dict, description="class levels, e.g. {soldier: 5}")
    bab: int = L.ranged(0, 0, L.BAB_MAX, "base attack bonus")
    base_saves: Saves | None = None
    saves: Saves | None = None
    eac: int | None = L.ranged(None, L.AC_MIN, L.AC_MAX, "printed EAC")
    kac: int | None = L.ranged(None, L.AC_MIN, L.AC_MAX, "printed KAC")
    armor: Armor | None = None
    hp: int = Field(ge=1, le=L.HP_MAX, description=f"maximum Hit Points (1 to {L.HP_MAX})")
    sp: int = L.ranged(0, 0, L.SP_MAX, "maximum Stamina Points")
    rp: int = L.ranged(0, 0, L.RP_MAX, "maximum Resolve Points")
    initiative: int | None = L.ranged(None, L.INIT_MIN, L.INIT_MAX, "printed initiative bonus")
    initiative_bonus: int = L.ranged(0, L.INIT_MIN, L.INIT_MAX, "bonuses added to Dexterity for initiative")
    speed: dict[str, Speed] = Field(
        default_factory=lambda: {"land": 30},
        description="feet per movement type (land, fly, swim, climb, burrow; 0 to 500, a multiple of 5)",
    )
    fly_maneuverability: Literal["clumsy", "poor", "average", "good", "perfect"] = "average"
    weapons: tuple[Weapon, ...] = ()
    proficiencies: Proficiencies | None = None
    weapon_specialization: bool = False
    dr: tuple[DamageReduction, ...] = ()
    resistances: dict[str, Resist] = Field(default_factory=dict)
    immunities: NameSet = frozenset()
    vulnerabilities: NameSet = frozenset()
    sr: int = L.ranged(0, 0, L.SR_MAX, "spell resistance")
    incorporeal: bool = False
    skills: dict[str, Skill] = Field(default_factory=dict, description="printed skill totals")
    senses: dict[str, SenseRange] = Field(
        default_factory=dict,
        description='special senses and their range in feet, e.g. {darkvision: 60, "low-light vision": 0}',
    )
    modifiers: tuple[ModifierSpec, ...] = ()
    specials: tuple[UsableAbility, ...] = Field(
        (), description="special abilities and spells the engine can use (sf1e.usable)"
    )

    @model_validator(mode="before")
    @classmethod
    def _from_classes(cls, data: object) -> object:
        """Fill BAB, base saves and level from ``classes`` when they are not given (BON-04)."""
        if isinstance(data, dict) and data.get("classes"):
            from sftactics.core.errors import SftError
            from sftactics.sf1e.progression import base_bonuses

            classes = data["classes"]
            if not isinstance(classes, dict):
                raise ValueError("classes must map class names to levels")
            try:
                bab, saves = base_bonuses({str(k): int(v) for k, v in classes.items()})
            except (SftError, TypeError, ValueError) as e:
                raise ValueError(str(e)) from None
            data = dict(data)
            for key, value in (("bab", bab), ("base_saves", saves), ("level", sum(classes.values()))):
                if data.get(key) is None:
                    data[key] = value
        return data

    @model_validator(mode="before")
    @classmethod
    def _reach_by_size(cls, data: object) -> object:
        """A Fine, Diminutive or Tiny creature whose block gives no reach has 0 ft (Table 8-1, AOO-02, AOO-05);
        every other size keeps the 5-ft default unless the block says otherwise."""
        size = data.get("size") if isinstance(data, dict) else None
        if isinstance(data, dict) and data.get("reach_ft") is None and isinstance(size, str) and size in _SUB_SQUARE:
            data = {**data, "reach_ft": 0}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> StatBlock:
        if self.kind == "pc":
            if self.level is None:
                raise ValueError("a player character (kind: pc) needs a level")
        elif self.cr is None and self.level is None:
            raise ValueError("an NPC needs a cr (or a level)")
        if self.cr is not None:
            try:
                cr = Fraction(self.cr)
            except (ValueError, ZeroDivisionError):
                raise ValueError(f'cr must be a number or a fraction like "1/3", not {self.cr!r}') from None
            if not 0 <= cr <= L.CR_MAX:  # 0: unknown (an import that could not tell)
                raise ValueError(f"cr: a challenge rating from 0 to {L.CR_MAX}, not {self.cr}")
        for mode in self.speed:
            if mode not in MOVE_MODES:
                raise ValueError(f"speed: {mode!r} is not a movement type ({', '.join(MOVE_MODES)})")
        if sum(self.classes.values()) > 20:
            raise ValueError(f"classes: at most 20 levels in all, not {sum(self.classes.values())}")
        seen: set[str] = set()
        for i, w in enumerate(self.weapons):
            key = w.name.strip().lower()
            if key in seen:
                raise ValueError(f"weapons[{i}].name: {w.name!r} names two weapons; each needs its own name")
            seen.add(key)
        if self.armor is None and (self.eac is None or self.kac is None):
            raise ValueError("give eac and kac (printed), or armor")
        if self.saves is None and self.base_saves is None:
            raise ValueError("give saves (printed totals) or base_saves")
        for k in self.resistances:
            if damage_type(k) not in ENERGY:
                raise ValueError(f"resistances: {k!r} is not an energy type ({', '.join(sorted(ENERGY))})")
        for name, mod in self.abilities.items():
            if name in self.scores and mod is not None and mod != score_to_mod(self.scores[name]):
                raise ValueError(f"abilities.{name}: modifier {mod} does not match score {self.scores[name]}")
        return self

    # ----- plain facts derived from the stat block -----
    @property
    def cr_value(self) -> Fraction:
        if self.cr is not None:
            return Fraction(self.cr)
        return Fraction(self.level or 0)

    @property
    def effective_level(self) -> int:
        """Character level, or CR (at least 1) for creatures: the number level-based rules use."""
        if self.level is not None:
            return self.level
        return max(1, int(self.cr_value))

    def base_mod(self, ability: Ability) -> int | None:
        """Undamaged ability modifier; None when the creature has no such score (e.g. mindless: no Int)."""
        if ability in self.scores:
            return score_to_mod(self.scores[ability])
        if ability in self.abilities:
            return self.abilities[ability]
        return 0

    def base_score(self, ability: Ability) -> int | None:
        """Ability score; when only a modifier is printed the score is taken as 10 + 2 x modifier."""
        if ability in self.scores:
            return self.scores[ability]
        mod = self.base_mod(ability)
        return None if mod is None else 10 + 2 * mod

    def weapon(self, name: str) -> Weapon:
        for w in self.weapons:
            if w.name.lower() == name.lower():
                return w
        for w in self.weapons:
            if name.lower() in w.name.lower():
                return w
        names = ", ".join(w.name for w in self.weapons) or "none"
        from sftactics.core.errors import SftError

        raise SftError(f"{self.name} has no weapon named {name!r} (has: {names})")

    @property
    def uses_pc_dying_rules(self) -> bool:
        return self.kind == "pc"


def known_damage_type(word: str) -> bool:
    try:
        return damage_type(word) in DAMAGE_TYPES
    except DiceError:
        return False


__all__ = [
    "ABILITIES",
    "ENERGY",
    "KINETIC",
    "SAVE_ABILITY",
    "Ability",
    "Area",
    "Armor",
    "DamageReduction",
    "ModifierSpec",
    "Proficiencies",
    "Saves",
    "StatBlock",
    "Weapon",
    "score_to_mod",
]
