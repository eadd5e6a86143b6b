"""The bundled armory: the Core Rulebook weapons, grenades and armor as data (``sftactics/data/armory``).

The files are generated from the Foundry VTT Starfinder system's compendium by ``scripts/gen_armory.py`` (facts
only; see ``data/armory/NOTICE``). Each entry keeps the item's facts (level, price, bulk, properties, the source
page) and its statistics as our own :class:`~sftactics.sf1e.statblock.Weapon` or
:class:`~sftactics.sf1e.statblock.Armor`, so a stat block can take a weapon by name::

    find_weapon("tactical semi-auto pistol")     # the Foundry item "Semi-auto pistol, tactical"
    find_armor("second skin")

Names are matched loosely: case and punctuation do not matter, the Foundry "base, grade" order and the natural
"grade base" order are the same name, word order does not matter when the words are unique, and a trailing
number may be written as a Roman numeral or not ("frag grenade 2" is "Frag grenade II").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from sftactics.sf1e import limits as L
from sftactics.sf1e.limits import Name
from sftactics.sf1e.statblock import Armor, Weapon


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ArmoryWeapon(_Model):
    """A weapon or grenade of the armory."""

    name: Name = Field(description='our name, grade first: "tactical semi-auto pistol"')
    foundry_name: Name = Field(description='the compendium name: "Semi-auto pistol, tactical"')
    kind: Literal["weapon", "grenade"] = "weapon"
    source: str = ""
    level: int = L.ranged(0, 0, L.ITEM_LEVEL_MAX, "item level")
    price: int | None = L.ranged(None, 0, L.PRICE_MAX, "price in credits")
    bulk: str = ""
    weapon_type: str = Field("", description="Foundry weaponType: basicM, advancedM, smallA, longA, heavy...")
    weapon_category: str = Field("", description="Foundry weaponCategory: laser, plasma, shock, cryo...")
    properties: tuple[str, ...] = Field((), description="Foundry weapon properties: analog, automatic, ...")
    save_dc: str = Field("", description="the save DC as the compendium writes it (grenades)")
    deals_damage: bool = True
    notes: tuple[str, ...] = ()
    weapon: Weapon


class ArmoryArmor(_Model):
    """A suit of armor of the armory (light, heavy or powered)."""

    name: Name
    foundry_name: Name
    source: str = ""
    level: int = L.ranged(0, 0, L.ITEM_LEVEL_MAX, "item level")
    price: int | None = L.ranged(None, 0, L.PRICE_MAX, "price in credits")
    bulk: str = ""
    strength: int | None = L.ranged(None, L.SCORE_MIN, L.SCORE_MAX, "powered armor: its Strength score")
    land_speed: int | None = L.feet(None, L.SPEED_MAX, "powered armor: its land speed")
    notes: tuple[str, ...] = ()
    armor: Armor


_ROMAN = {1: "i", 2: "ii", 3: "iii", 4: "iv", 5: "v", 6: "vi", 7: "vii", 8: "viii", 9: "ix", 10: "x"}


def natural_name(foundry_name: str) -> str:
    """Our name for a compendium item: "Semi-auto pistol, tactical" -> "tactical semi-auto pistol".

    Words are lower-cased except Roman numerals ("Frag grenade II" -> "frag grenade II")."""
    text = " ".join(foundry_name.split())
    if ", " in text:
        base, _, grade = text.partition(", ")
        text = f"{grade} {base}"
    words = []
    for w in text.split(" "):
        words.append(w if re.fullmatch(r"[IVX]+", w) else w.lower())
    return " ".join(words)


def _words(name: str) -> list[str]:
    text = " ".join(str(name).split())
    if ", " in text:
        base, _, grade = text.partition(", ")
        text = f"{grade} {base}"
    words = [w for w in re.split(r"[^0-9a-z]+", text.lower()) if w]
    if words and words[-1].isdigit() and int(words[-1]) in _ROMAN:
        words[-1] = _ROMAN[int(words[-1])]
    return words


def name_key(name: str) -> str:
    """The key two names share when they name the same item (order as written, after "base, grade")."""
    return "".join(_words(name))


def _bag_key(name: str) -> str:
    return " ".join(sorted(_words(name)))


class Armory:
    """Every armory entry, found by name."""

    def __init__(self, weapons: list[ArmoryWeapon], armor: list[ArmoryArmor]) -> None:
        self.weapons = tuple(weapons)
        self.armor = tuple(armor)
        self._w = self._index(weapons)
        self._a = self._index(armor)

    @staticmethod
    def _index(entries: list[Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        exact: dict[str, Any] = {}
        bags: dict[str, Any] = {}
        ambiguous: set[str] = set()
        for e in entries:
            for n in (e.name, e.foundry_name):
                exact.setdefault(name_key(n), e)
                b = _bag_key(n)
                if b in bags and bags[b] is not e:
                    ambiguous.add(b)
                bags.setdefault(b, e)
        for b in ambiguous:
            del bags[b]
        return exact, bags

    @staticmethod
    def _find(index: tuple[dict[str, Any], dict[str, Any]], name: str) -> Any:
        exact, bags = index
        return exact.get(name_key(name)) or bags.get(_bag_key(name))

    def weapon_entry(self, name: str) -> ArmoryWeapon | None:
        found = self._find(self._w, name)
        return found if isinstance(found, ArmoryWeapon) else None

    def armor_entry(self, name: str) -> ArmoryArmor | None:
        found = self._find(self._a, name)
        return found if isinstance(found, ArmoryArmor) else None


def _load_list(name: str) -> list[Any]:
    import yaml

    root = resources.files("sftactics") / "data" / "armory"
    entry = root / name
    if not entry.is_file():
        return []
    data = yaml.safe_load(entry.read_text(encoding="utf-8"))
    items = data.get("items", []) if isinstance(data, Mapping) else data
    return list(items or [])


@lru_cache(maxsize=1)
def armory() -> Armory:
    """The bundled armory (loaded once)."""
    weapons = [ArmoryWeapon.model_validate(d) for f in ("weapons.yaml", "grenades.yaml") for d in _load_list(f)]
    armor = [ArmoryArmor.model_validate(d) for d in _load_list("armor.yaml")]
    return Armory(weapons, armor)


def find_weapon(name: str) -> Weapon | None:
    """A bundled weapon or grenade by name ("tactical semi-auto pistol", "Frag grenade I"), or None."""
    entry = armory().weapon_entry(name)
    return entry.weapon if entry is not None else None


def find_armor(name: str) -> Armor | None:
    """A bundled suit of armor by name ("second skin", "Estex suit II"), or None."""
    entry = armory().armor_entry(name)
    return entry.armor if entry is not None else None


def find_weapon_entry(name: str) -> ArmoryWeapon | None:
    """The full armory entry of a weapon (level, price, properties, source...), or None."""
    return armory().weapon_entry(name)


def find_armor_entry(name: str) -> ArmoryArmor | None:
    return armory().armor_entry(name)


__all__ = [
    "Armory",
    "ArmoryArmor",
    "ArmoryWeapon",
    "armory",
    "find_armor",
    "find_armor_entry",
    "find_weapon",
    "find_weapon_entry",
    "name_key",
    "natural_name",
]
