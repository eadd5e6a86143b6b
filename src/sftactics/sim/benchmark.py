"""The standard benchmark encounter: four level-5 characters against four aliens on a 30x30 map with cover.

The party is the bundled pregenerated party (vesk soldier, ysoki operative, human mystic, lashunta envoy) built
at 5th level by the same rules as ``scripts/gen_pregens.py`` (ability increases at 5th level, HP = race + class
x 5, SP = (class + Con) x 5, RP = 2 + key ability modifier, weapon specialization; the 4th-level gear, item level
at most 5). The aliens are a ksarik (CR 2), a hobbe hound (CR 2) and two skip tracers (CR 1): 2,000 XP, between
the average (CR 5, 1,600 XP) and the challenging (CR 6, 2,400 XP) budget of four 5th-level characters.

The map is 30 x 30 squares: walls around, crates (``=``) and low walls (``o``) scattered between the two
groups, who start about 110 ft apart, everyone aware (no surprise round).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from sftactics.encounter.state import Encounter

MAP = """\
##############################
#............................#
#............................#
#....=.......o........=......#
#....=.......o........=......#
#.........................o..#
#..o.........==..............#
#..o.........==.......o......#
#.....................o......#
#........=........=..........#
#........=........=.....==...#
#...==...............o..==...#
#...==.......o.......o.......#
#............o...............#
#......o..........=..........#
#......o..........=......o...#
#...............~~~......o...#
#....=....==....~~~..........#
#....=....==.........=.......#
#....................=...o...#
#..o.....o.......o.......o...#
#..o.....o.......o...........#
#............==.........=....#
#............==.........=....#
#.....o..............o.......#
#.....o.....=........o.......#
#...........=................#
#...=..............=.........#
#............................#
##############################"""


def _pc(name: str, cls: str, level: int, size: str, scores: dict[str, int], key: str, armor: str, hp: int,
        sp: int, rp: int, weapons: list[str], prof: dict[str, list[str]], skills: dict[str, int],
        **more: Any) -> dict[str, Any]:  # fmt: skip
    data: dict[str, Any] = {
        "name": name,
        "kind": "pc",
        "level": level,
        "size": size,
        "scores": scores,
        "key_ability": key,
        "classes": {cls: level},
        "armor": armor,
        "hp": hp,
        "sp": sp,
        "rp": rp,
        "speed": {"land": 30},
        "weapon_specialization": True,
        "proficiencies": prof,
        "skills": skills,
        "weapons": weapons,
    }
    data.update(more)
    return data


SOLDIER = ["basic_melee", "advanced_melee", "small_arm", "longarm", "heavy", "sniper", "grenade"]

#: The party at 5th level (armory names are expanded when the scenario is built).
PARTY: list[dict[str, Any]] = [
    _pc("Vesk Soldier 5", "soldier", 5, "medium", {"str": 18, "dex": 16, "con": 16, "int": 8, "wis": 12, "cha": 10},
        "str", "officer ceremonial plate", 41, 50, 6,
        ["carbon steel curve blade", "frostbite-class zero rifle", "frag grenade II"],
        {"weapons": SOLDIER, "armor": ["light", "heavy"]}, {"athletics": 12, "intimidate": 8},
        modifiers=[{"selector": "ac", "value": 1, "type": "racial", "label": "armor savant (vesk, in armor)"}]),
    _pc("Ysoki Operative 5", "operative", 5, "small", {"str": 8, "dex": 19, "con": 14, "int": 15, "wis": 14,
                                                       "cha": 10},
        "dex", "graphite carbon skin", 32, 40, 6,
        ["survival knife", "tactical shirren-eye rifle", "thunderstrike sonic pistol"],
        {"weapons": ["basic_melee", "small_arm", "sniper", "grenade"], "armor": ["light"]},
        {"perception": 12, "stealth": 14}, initiative_bonus=6),
    _pc("Human Mystic 5", "mystic", 5, "medium", {"str": 10, "dex": 16, "con": 13, "int": 10, "wis": 19, "cha": 12},
        "wis", "freebooter armor I", 34, 35, 6, ["tactical baton", "static arc pistol"],
        {"weapons": ["basic_melee", "small_arm"], "armor": ["light"]}, {"medicine": 8, "perception": 12}),
    _pc("Lashunta Envoy 5", "envoy", 5, "medium", {"str": 12, "dex": 16, "con": 13, "int": 12, "wis": 8, "cha": 19},
        "cha", "freebooter armor I", 34, 35, 6, ["tactical dueling sword", "static arc pistol", "shock grenade II"],
        {"weapons": ["basic_melee", "small_arm", "grenade"], "armor": ["light"]}, {"medicine": 9, "perception": 7}),
]  # fmt: skip

PLACES = {
    "Krask": (PARTY[0], (3, 13)),
    "Nyx": (PARTY[1], (2, 15)),
    "Sorin": (PARTY[2], (2, 11)),
    "Vela": (PARTY[3], (3, 17)),
}
ALIENS = [
    ("Ksarik", "ksarik", (25, 13)),
    ("Hound", "hobbe-hound", (26, 16)),
    ("Tracer 1", "skip-tracer", (27, 10)),
    ("Tracer 2", "skip-tracer", (27, 19)),
]


def scenario_data() -> dict[str, Any]:
    """The benchmark as scenario data (stat blocks of the party inline, armory expanded)."""
    from sftactics.content import expand_refs

    combatants: list[dict[str, Any]] = []
    for cid, (block, at) in PLACES.items():
        combatants.append({"id": cid, "side": "party", "statblock": expand_refs(block), "at": list(at)})
    for cid, name, at in ALIENS:
        combatants.append({"id": cid, "side": "aliens", "statblock": name, "at": list(at)})
    return {
        "name": "Benchmark: level-5 party against aliens",
        "description": "Four 5th-level characters against a ksarik, a hobbe hound and two skip tracers on a "
        "30x30 map with cover (sftactics.sim.benchmark).",
        "map": MAP + "\n",
        "combatants": combatants,
    }


def benchmark_encounter() -> Encounter:
    """The benchmark encounter, ready to simulate."""
    from sftactics.io.scenario import ScenarioFile, build_encounter

    return build_encounter(ScenarioFile.model_validate(scenario_data()), Path("benchmark.yaml"))


def write_scenario(path: str | Path) -> Path:
    """Write the benchmark as a scenario file (for ``sftactics simulate``)."""
    p = Path(path)
    data = scenario_data()
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120)
    p.write_text(
        "# The sftactics simulation benchmark (written by sftactics.sim.benchmark).\n" + text, encoding="utf-8"
    )
    return p
