"""Small 2E creatures for the tests.

``hero()``: a 3rd-level player character, Str +1, Dex +4, Con +2, Wis +1, trained in attacks, AC, saves and
Perception (expert in Reflex); armor +2 with a Dex cap of +3; 30 HP, 2 Hero Points.
``foe()``: a 2nd-level non-player creature, Str +3, Dex +2, trained in attacks and AC; 24 HP.
"""

from __future__ import annotations

from typing import Any

from sftactics.sf2e.creature import Creature2e
from sftactics.sf2e.modifiers import Proficiency

T, E = Proficiency.TRAINED, Proficiency.EXPERT


def hero(**over: Any) -> Creature2e:
    data: dict[str, Any] = {
        "name": "Navasi",
        "level": 3,
        "player": True,
        "attributes": {"str": 1, "dex": 4, "con": 2, "int": 0, "wis": 1, "cha": 3},
        "proficiency": {"attack": T, "ac": T, "fortitude": T, "reflex": E, "will": T, "perception": T},
        "armor_bonus": 2,
        "dex_cap": 3,
        "max_hp": 30,
        "hero_points": 2,
    }
    data.update(over)
    return Creature2e(**data)


def foe(**over: Any) -> Creature2e:
    data: dict[str, Any] = {
        "name": "ksarik",
        "level": 2,
        "player": False,
        "attributes": {"str": 3, "dex": 2, "con": 3, "wis": 1},
        "proficiency": {"attack": T, "ac": T, "fortitude": T, "reflex": T, "will": T, "perception": T},
        "max_hp": 24,
    }
    data.update(over)
    return Creature2e(**data)
