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

from pydantic import BaseModel, ConfigDict, Field

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


class UsableAbility(_Model):
    """One ability or spell in a form the ``use_ability`` command takes (see the module docstring).

    ``target``: ``foe`` (one enemy), ``ally`` (one creature of the user's side, the user included) or ``area``.
    ``range_ft`` 0 means touch (an adjacent creature, or the user). ``heal`` is a roll of Hit Points restored to
    the target (INJ-18); ``damage`` a damage roll with its types."""

    name: Name
    kind: Literal["Ex", "Sp", "Su", "spell", "item"] = "Ex"
    action: Literal["standard", "move", "swift", "full"] = "standard"
    target: Literal["foe", "ally", "area"] = "foe"
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
    source: str = Field("", max_length=300, description="where the numbers come from")

    @property
    def pool_name(self) -> str:
        return self.pool or self.name

    @property
    def is_heal(self) -> bool:
        return self.heal is not None

    @property
    def is_harmful(self) -> bool:
        return self.damage is not None or bool(self.conditions)


__all__ = ["UsableAbility", "UsableArea", "UsableAttack", "UsableSave"]
