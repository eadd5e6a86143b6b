"""Small 2E fights for the engine tests: a scenario written as data, dice scripted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sftactics.dice.source import ScriptedDice
from sftactics.encounter.engine import Fight
from sftactics.encounter.state import Encounter
from sftactics.io.scenario2e import ScenarioFile2e, build_encounter2e

#: A 3rd-level PC: Str +4, Dex +2, Wis +1; trained everywhere (+5), expert attack (+7); armor +3 (Dex cap 2):
#: AC 10 + 2 + 5 + 3 = 20; Perception +6; 40 HP. Strikes: hammer 1d8 B (+11, 1d8+4), knife 1d4 S agile
#: finesse (+11 with Str), pistol 1d6 P range 30 (+9).
HERO: dict[str, Any] = {
    "name": "Hero", "level": 3, "player": True,
    "attributes": {"str": 4, "dex": 2, "con": 2, "wis": 1},
    "proficiency": {"perception": "trained", "fortitude": "trained", "reflex": "trained", "will": "trained",
                    "ac": "trained", "attack": "expert"},
    "armor_bonus": 3, "dex_cap": 2, "speed": 25, "max_hp": 40, "hero_points": 1,
    "strikes": [
        {"name": "hammer", "damage": "1d8", "type": "bludgeoning"},
        {"name": "knife", "damage": "1d4", "type": "slashing", "traits": ["agile", "finesse"]},
        {"name": "pistol", "damage": "1d6", "type": "piercing", "range_increment": 30},
    ],
}  # fmt: skip

#: A level-1 NPC: Str +2, Dex +1, Wis +0; trained (+3): AC 10 + 1 + 3 = 14, Perception +3, Reflex +4, 20 HP.
#: Strikes: claw 1d6 S agile (+5, 1d6+2).
BEAST: dict[str, Any] = {
    "name": "Beast", "level": 1, "player": False,
    "attributes": {"str": 2, "dex": 1, "con": 1},
    "proficiency": {"perception": "trained", "fortitude": "trained", "reflex": "trained", "will": "trained",
                    "ac": "trained", "attack": "trained", "stealth": "trained"},
    "speed": 25, "max_hp": 20,
    "strikes": [{"name": "claw", "damage": "1d6", "type": "slashing", "traits": ["agile"]}],
}  # fmt: skip

OPEN = "\n".join(["." * 10] * 6)


def block(base: dict[str, Any], **over: Any) -> dict[str, Any]:
    return {**base, **over}


def encounter2e(*entries: dict[str, Any], map: str | None = OPEN, **kw: Any) -> Encounter:
    data = {"ruleset": "sf2e", "combatants": list(entries), **kw}
    if map is not None:
        data["map"] = map
    return build_encounter2e(ScenarioFile2e.model_validate(data), Path("test.yaml"))


def hero(cid: str = "Hero", at: tuple[int, int] = (1, 1), **kw: Any) -> dict[str, Any]:
    sb = block(HERO, **kw.pop("stat", {}))
    return {"id": cid, "side": "party", "statblock": sb, "at": list(at), **kw}


def beast(cid: str = "Beast", at: tuple[int, int] = (2, 1), **kw: Any) -> dict[str, Any]:
    sb = block(BEAST, **kw.pop("stat", {}))
    return {"id": cid, "side": "beasts", "statblock": sb, "at": list(at), **kw}


def started(enc: Encounter, dice: list[int]) -> Fight:
    """The fight after ``begin``; ``dice``: every die of the test in order (initiative first, one per combatant
    without a given result)."""
    f = Fight(enc, ScriptedDice(dice))
    f.do({"type": "begin"})
    return f
