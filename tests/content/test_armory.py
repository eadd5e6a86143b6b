"""The bundled armory: generated from the Foundry compendium, covering every Core Rulebook weapon and armor."""

from __future__ import annotations

import importlib.util
import json
import re
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from sftactics.content import find_armor, find_weapon
from sftactics.content.armory import armory, find_armor_entry, find_weapon_entry, name_key, natural_name
from sftactics.sf1e.statblock import Armor, Weapon

ROOT = Path(__file__).parent.parent.parent
EQUIPMENT = ROOT / "tests" / "data" / "foundry-sfrpg" / "equipment"


@cache
def equipment() -> list[dict[str, Any]]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(EQUIPMENT.glob("*.json"))]


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_armory_covers_every_weapon_and_armor_in_the_fixtures() -> None:
    weapons = [d for d in equipment() if d["type"] == "weapon"]
    armors = [d for d in equipment() if d["type"] == "equipment" and isinstance(d["system"].get("armor"), dict)]
    assert len(weapons) == 310 and len(armors) == 86
    a = armory()
    have_w = {e.foundry_name for e in a.weapons}
    have_a = {e.foundry_name for e in a.armor}
    assert {d["name"] for d in weapons} <= have_w
    assert {d["name"] for d in armors} <= have_a
    for d in weapons:
        assert find_weapon_entry(d["name"]) is not None, d["name"]
    for d in armors:
        assert find_armor_entry(d["name"]) is not None, d["name"]


def test_entries_are_our_models_with_the_source_numbers() -> None:
    by_name = {d["name"]: d for d in equipment()}
    for e in armory().weapons:
        assert isinstance(e.weapon, Weapon)
        Weapon.model_validate(e.weapon.model_dump())
        src = by_name[e.foundry_name]["system"]
        assert e.level == src["level"]
        formula = "+".join(p["formula"] for p in src["damage"]["parts"])
        dice = re.findall(r"\d+d\d+", formula)
        if e.deals_damage:
            assert re.findall(r"\d+d\d+", e.weapon.damage) == dice, e.name
        else:
            assert not dice and e.weapon.damage == "0"
        if src["actionTarget"] in ("eac", "kac"):
            assert e.weapon.targets == src["actionTarget"]
    for e in armory().armor:
        assert isinstance(e.armor, Armor)
        arm = by_name[e.foundry_name]["system"]["armor"]
        assert (e.armor.eac, e.armor.kac, e.armor.max_dex) == (arm["eac"], arm["kac"], arm["dex"])
        assert e.armor.category == {"light": "light", "heavy": "heavy", "power": "powered"}[arm["type"]]


@pytest.mark.parametrize(
    ("name", "foundry"),
    [
        ("tactical semi-auto pistol", "Semi-auto pistol, tactical"),
        ("Semi-auto pistol, tactical", "Semi-auto pistol, tactical"),
        ("TACTICAL SEMI AUTO PISTOL", "Semi-auto pistol, tactical"),
        ("semi-auto pistol tactical", "Semi-auto pistol, tactical"),
        ("azimuth laser pistol", "Laser pistol, azimuth"),
        ("frag grenade II", "Frag grenade II"),
        ("frag grenade 2", "Frag grenade II"),
        ("tactical doshko", "Doshko, tactical"),
    ],
)
def test_names_match_loosely(name: str, foundry: str) -> None:
    entry = find_weapon_entry(name)
    assert entry is not None and entry.foundry_name == foundry
    assert find_weapon(name) == entry.weapon


def test_weapon_and_armor_lookups() -> None:
    pistol = find_weapon("tactical semi-auto pistol")
    assert pistol is not None
    assert (pistol.damage, pistol.range_ft, pistol.capacity, pistol.item_level, pistol.category) == (
        "1d6 P", 30, 9, 1, "small_arm",
    )  # fmt: skip
    frag = find_weapon("frag grenade I")
    assert frag is not None and frag.is_grenade and frag.area is not None and frag.area.size_ft == 15
    skin = find_armor("second skin")
    assert skin is not None and (skin.eac, skin.kac, skin.max_dex, skin.category) == (1, 2, 5, "light")
    assert find_armor("estex suit II") is not None
    assert find_weapon("second skin") is None and find_armor("tactical doshko") is None
    assert find_weapon("no such gun") is None


def test_natural_names() -> None:
    assert natural_name("Semi-auto pistol, tactical") == "tactical semi-auto pistol"
    assert natural_name("Frag grenade II") == "frag grenade II"
    assert natural_name("Second skin") == "second skin"
    assert name_key("Doshko, tactical") == name_key("tactical doshko")


def test_the_generated_armory_is_up_to_date() -> None:
    """The committed files are what scripts/gen_armory.py makes from the fixture copy."""
    gen = _script("gen_armory")
    files, skipped = gen.build(EQUIPMENT)
    out = ROOT / "src" / "sftactics" / "data" / "armory"
    for name, text in files.items():
        assert (out / name).read_text(encoding="utf-8") == text, f"{name}: run scripts/gen_armory.py"
    assert len(skipped) == 10 and all("ammunition" in s for s in skipped)
