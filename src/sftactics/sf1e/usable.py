"""Special abilities and spells a stat block carries in a form the engine can use (ACT-21).

A stat block lists them under ``specials``. Each one describes what the ``use_ability`` command needs: who it
aims at (a foe, an ally or an area), its range, an attack roll or a saving throw, damage or healing, conditions,
and how many times it can be used in a fight (``uses``; abilities that share a ``pool``, such as spells cast
from the same spell slots, share those uses). The numbers are written out in the data (a DC, a healing roll
with its ability modifier), each with the ``source`` it comes from, so nothing about a class is computed here.

The encounter does not read them: a player, a command file or a simulation policy (``sim.choices``) turns one
into a ``use_ability`` command.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sftactics.sf1e import limits as L
from sftactics.sf1e.limits import Name


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class UsableSave(_Model):
    """The saving throw a creature makes against the ability, and what a success does (SV-09)."""

    type: Literal["fort", "ref", "will"]
    dc: int = L.ranged(..., L.DC_MIN, L.DC_MAX, "save DC")
    on_save: Literal["half", "negates", "partial"] = "half"


class UsableAttack(_Model):
    """An attack roll against EAC or KAC with the printed total bonus (ATK-16)."""

    vs: Literal["eac", "kac"] = "eac"
    bonus: int = L.ranged(..., L.ATTACK_MIN, L.ATTACK_MAX, "attack bonus")
    ranged: bool = True


class UsableArea(_Model):
    """The template the ability fills: a burst or spread centred on a grid point in range, a cone or line from
    the user, an emanation around the user."""

    shape: Literal["burst", "spread", "cone", "line", "emanation"]
    size_ft: int = Field(ge=5, le=L.AREA_MAX, multiple_of=5, description=f"size (feet, 5 to {L.AREA_MAX})")


class UsableCheck(_Model):
    """A skill check made just before an attack (trick attack): the user's best printed total among ``skills``
    against ``dc_base`` + the target's CR (CR below 1 adds nothing)."""

    skills: tuple[Name, ...] = Field(min_length=1, max_length=10)
    dc_base: int = L.ranged(20, 0, L.DC_MAX, "DC before the target's CR")


class UsableRider(_Model):
    """What an ability adds to one attack with one of the user's own weapons (a class attack such as trick
    attack). ``check``: a skill check first, and the rest only on a success. ``extra_damage``: dice added to the
    weapon's damage (its damage type; doubled with it on a critical hit). ``flat_footed``: the target is
    flat-footed against this attack. ``move``: the user may first move up to its speed (a full action).
    ``weapons``: which weapons qualify (``operative_or_small_arm``: a melee weapon with the operative property or
    a small arm; never unwieldy)."""

    check: UsableCheck | None = None
    extra_damage: L.DiceText | None = None
    flat_footed: bool = False
    move: bool = False
    weapons: Literal["any", "operative_or_small_arm"] = "any"


class UsableMark(_Model):
    """A bonus the user's whole side (the user included) gets against the one foe it names, until the start of
    the user's next turn (get 'em). Typed bonuses follow the stacking rules (BON-01..13)."""

    bonus: int = L.ranged(..., 1, L.BONUS_MAX, "bonus")
    type: Literal["untyped", "circumstance", "insight", "morale", "luck"] = "morale"
    selector: Literal["attack"] = "attack"


class UsablePassive(_Model):
    """An always-on number an ability gives (a fighting style's technique): ``selector`` as in stat block
    ``modifiers`` (``initiative``, ``attack``, ``ac``...) plus ``speed.land`` and the other speeds (feet)."""

    selector: str = Field(max_length=40)
    value: int = L.ranged(..., L.BONUS_MIN, L.BONUS_MAX, "bonus or penalty")
    type: Literal["untyped", "circumstance", "enhancement", "insight", "morale", "racial"] = "untyped"
    when: tuple[Name, ...] = ()


class UsableAbility(_Model):
    """One ability or spell in a form the ``use_ability`` command takes (see the module docstring).

    ``target``: ``foe`` (one enemy), ``ally`` (one creature of the user's side, the user included), ``self``
    (the user only), ``allies`` (every creature of the user's side within ``range_ft`` of it, itself included),
    ``area``, or ``passive`` (never used: its ``passive`` numbers always apply).
    ``range_ft`` 0 means touch (an adjacent creature, or the user). ``heal`` is a roll of Hit Points restored to
    the target (INJ-18); ``damage`` a damage roll with its types. ``resolve_cost``: Resolve Points spent on
    each use. ``rider``: an attack with one of the user's weapons and what the ability adds to it (trick
    attack); ``mark``: a bonus for the user's side against one foe (get 'em). The class abilities of the bundled
    pregens (docs/statblocks.md) are written with these."""

    name: Name
    kind: Literal["Ex", "Sp", "Su", "spell", "item"] = "Ex"
    action: Literal["standard", "move", "swift", "full"] = "standard"
    target: Literal["foe", "ally", "self", "allies", "area", "passive"] = "foe"
    range_ft: int = L.feet(0, L.RANGE_MAX, "range (0: touch)")
    area: UsableArea | None = None
    attack: UsableAttack | None = None
    save: UsableSave | None = None
    damage: L.DiceText | None = None
    heal: L.DiceText | None = None
    conditions: tuple[dict[str, object], ...] = Field((), max_length=20)
    uses: int | None = Field(None, ge=0, le=L.USAGE_MAX, description="uses in a fight (0 to 100); none: unlimited")
    pool: Name | None = Field(None, description="abilities with the same pool share its uses (spell slots)")
    provokes: bool | None = None
    resolve_cost: int = L.ranged(0, 0, L.RP_MAX, "Resolve Points per use")
    rider: UsableRider | None = None
    mark: UsableMark | None = None
    passive: tuple[UsablePassive, ...] = Field((), max_length=20)
    source: str = Field("", max_length=300, description="where the numbers come from")

    @model_validator(mode="after")
    def _consistent(self) -> UsableAbility:
        if (self.rider is not None or self.mark is not None) and self.target != "foe":
            raise ValueError("an attack rider or a mark aims at one foe (target: foe)")
        if self.rider is not None and (self.damage is not None or self.attack is not None or self.save is not None):
            raise ValueError("an attack rider attacks with a weapon: no damage, attack or save of its own")
        if (self.target == "passive") != bool(self.passive):
            raise ValueError("passive numbers go with target: passive, and target: passive needs them")
        if self.target in ("self", "allies") and self.heal is None:
            raise ValueError(f"target: {self.target} is for healing (give heal)")
        return self

    @property
    def pool_name(self) -> str:
        return self.pool or self.name

    @property
    def is_heal(self) -> bool:
        return self.heal is not None

    @property
    def is_harmful(self) -> bool:
        return self.damage is not None or bool(self.conditions)

    @property
    def is_class_ability(self) -> bool:
        """An attack rider, a side's bonus against a foe, a Resolve cost or a heal of the user or its allies
        (the compiled kernel plays them all: ``sim.kernel.classes``)."""
        return (
            self.rider is not None
            or self.mark is not None
            or self.resolve_cost > 0
            or self.target in ("self", "allies")
        )


__all__ = [
    "UsableAbility",
    "UsableArea",
    "UsableAttack",
    "UsableCheck",
    "UsableMark",
    "UsablePassive",
    "UsableRider",
    "UsableSave",
]
