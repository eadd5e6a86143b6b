"""2E damage types (E2-21), grouped as the seed groups them.

Physical: bludgeoning, piercing, slashing. Energy: acid, cold, electricity, fire, sonic, vitality (harms undead),
void (harms the living). Other: force, spirit, mental, poison, bleed (persistent), precision.

The shared dice parser knows only the 1st-edition damage words, so 2E damage keeps its type beside the dice
expression (``DamagePart("2d6", DamageType.FIRE)``) instead of inside it.
"""

from __future__ import annotations

from enum import StrEnum


class DamageType(StrEnum):
    BLUDGEONING = "bludgeoning"
    PIERCING = "piercing"
    SLASHING = "slashing"
    ACID = "acid"
    COLD = "cold"
    ELECTRICITY = "electricity"
    FIRE = "fire"
    SONIC = "sonic"
    VITALITY = "vitality"
    VOID = "void"
    FORCE = "force"
    SPIRIT = "spirit"
    MENTAL = "mental"
    POISON = "poison"
    BLEED = "bleed"
    PRECISION = "precision"


class Category(StrEnum):
    PHYSICAL = "physical"
    ENERGY = "energy"
    OTHER = "other"


CATEGORY: dict[DamageType, Category] = {
    **{t: Category.PHYSICAL for t in (DamageType.BLUDGEONING, DamageType.PIERCING, DamageType.SLASHING)},
    **{
        t: Category.ENERGY
        for t in (
            DamageType.ACID,
            DamageType.COLD,
            DamageType.ELECTRICITY,
            DamageType.FIRE,
            DamageType.SONIC,
            DamageType.VITALITY,
            DamageType.VOID,
        )
    },
    **{
        t: Category.OTHER
        for t in (
            DamageType.FORCE,
            DamageType.SPIRIT,
            DamageType.MENTAL,
            DamageType.POISON,
            DamageType.BLEED,
            DamageType.PRECISION,
        )
    },
}

#: Bleed damage is persistent by nature (E2-21).
ALWAYS_PERSISTENT: frozenset[DamageType] = frozenset({DamageType.BLEED})

_ALIASES = {"b": "bludgeoning", "p": "piercing", "s": "slashing", "elec": "electricity", "e": "electricity"}


def damage_type(word: str | DamageType) -> DamageType:
    """The damage type a word names (``"F"`` is not accepted: 2E abbreviates only B, P and S)."""
    if isinstance(word, DamageType):
        return word
    w = word.strip().lower()
    try:
        return DamageType(_ALIASES.get(w, w))
    except ValueError:
        names = ", ".join(t.value for t in DamageType)
        raise ValueError(f"unknown 2E damage type {word!r} (expected one of {names})") from None


def keys_for(t: DamageType, *, bleed_is_physical: bool = False) -> tuple[str, ...]:
    """The names an immunity, weakness or resistance may use to cover ``t``: the type itself, then its category
    (physical or energy).

    A resistance to ``"physical"`` covers bludgeoning, piercing and slashing; where several apply the highest
    is used (E2-24, E2-25). ``bleed_is_physical`` (``Sf2eOptions.bleed_is_physical``): bleed is covered by
    ``physical`` too (the usual 2E reading; the seed lists bleed among the other types).
    """
    category = CATEGORY[t]
    if t is DamageType.BLEED and bleed_is_physical:
        return (t.value, Category.PHYSICAL.value)
    return (t.value,) if category is Category.OTHER else (t.value, category.value)
