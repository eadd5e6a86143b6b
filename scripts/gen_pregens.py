#!/usr/bin/env python
"""Write the pregenerated characters (``src/sftactics/data/statblocks/pregen-*.yaml``): a party of four at
levels 2, 4, 6, 8 and 10, with combat statistics built by the Core Rulebook rules.

Usage: ``.venv/bin/python scripts/gen_pregens.py [--check]``

The builds (see ``docs/content.md``):

* Ability scores: 10 in each, the race's adjustments, the theme's +1, then 10 points (CRB ch. 2, point buy);
  at 5th and 10th level four scores rise by 2 (by 1 at 17 or more). No personal upgrades.
* Hit Points: race + class x level. Stamina Points: (class + Constitution modifier) x level. Resolve Points:
  half the level + the key ability modifier (at least 1).
* BAB and base saves come from the class (the engine derives them from ``classes``); AC, attacks, saves and
  initiative are built by the engine from the scores, armor and proficiencies.
* Weapon specialization from 3rd level (every class gets it). Feats that change numbers: Improved Initiative
  (operative). Operative's edge (+1, +2 at 3rd, +3 at 7th) is an insight bonus to initiative. Vesk armor savant:
  +1 racial bonus to AC in armor. The mystic's spells as usable abilities (``specials``, see ``mystic_specials``):
  *mystic cure*, *mind thrust* and, from 4th level, *force blast*, with the spells per day of the mystic table
  and the bonus spells of its Wisdom.
* Key class abilities as stat-block abilities (``class_specials``): the operative's trick attack, the envoy's
  get 'em, the mystic's healing channel (healer connection) and the soldier's blitz fighting style (rapid
  response), with the numbers of the class tables at the character's level (``sf1e.class_abilities``). No other
  class features (exploits, debilitating trick, expertise, other improvisations).
* Senses: the race's (vesk low-light vision, ysoki darkvision 60 ft), when the stat block has a senses field.
* Gear: armor and weapons from the bundled armory with an item level at most the character's level, chosen as
  the Core Rulebook's wealth-by-level allows a character to carry (roughly one best weapon plus backups).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "sftactics" / "data" / "statblocks"

LEVELS = (2, 4, 6, 8, 10)

CLASSES: dict[str, dict[str, Any]] = {
    "soldier": {
        "hp": 7,
        "sp": 7,
        "weapons": ["basic_melee", "advanced_melee", "small_arm", "longarm", "heavy", "sniper", "grenade"],
        "armor": ["light", "heavy"],
    },
    "operative": {"hp": 6, "sp": 6, "weapons": ["basic_melee", "small_arm", "sniper", "grenade"], "armor": ["light"]},
    "mystic": {"hp": 6, "sp": 6, "weapons": ["basic_melee", "small_arm"], "armor": ["light"]},
    "envoy": {"hp": 6, "sp": 6, "weapons": ["basic_melee", "small_arm", "grenade"], "armor": ["light"]},
}

# name, race, race HP, size, class, key ability, scores at 1st level (race, theme and 10 points applied),
# the four scores raised at 5th and at 10th, gear by level, skills (trained: ability used)
PARTY: list[dict[str, Any]] = [
    {
        "file": "soldier",
        "name": "Vesk Soldier",
        "race": "vesk",
        "race_hp": 6,
        "size": "medium",
        "class": "soldier",
        "key": "str",
        "theme": "mercenary (+1 Str)",
        "scores": {"str": 17, "dex": 14, "con": 14, "int": 8, "wis": 10, "cha": 10},
        "points": "race +2 Str +2 Con -2 Int; theme +1 Str; points: Str +4, Dex +4, Con +2",
        "raise5": ["str", "dex", "con", "wis"],
        "raise10": ["str", "dex", "con", "wis"],
        "skills": {"athletics": "str", "intimidate": "cha"},
        "senses": {"low-light vision": 0},
        "modifiers": [{"selector": "ac", "value": 1, "type": "racial", "label": "armor savant (vesk, in armor)"}],
        "gear": {
            2: ("hidden soldier armor", ["tactical doshko", "azimuth laser rifle", "frag grenade I"]),
            4: (
                "officer ceremonial plate",
                ["carbon steel curve blade", "frostbite-class zero rifle", "frag grenade II"],
            ),
            6: ("vesk overplate I", ["red star plasma doshko", "corona laser rifle", "frag grenade II"]),
            8: ("lashunta ringwear III", ["advanced doshko", "hailstorm-class zero rifle", "frag grenade III"]),
            10: ("pinion skyfire armor", ["ultrathin curve blade", "combat rifle", "frag grenade IV"]),
        },
    },
    {
        "file": "operative",
        "name": "Ysoki Operative",
        "race": "ysoki",
        "race_hp": 2,
        "size": "small",
        "class": "operative",
        "key": "dex",
        "theme": "ace pilot (+1 Dex)",
        "scores": {"str": 8, "dex": 18, "con": 12, "int": 13, "wis": 12, "cha": 10},
        "points": "race +2 Dex +2 Int -2 Str; theme +1 Dex; points: Dex +5, Con +2, Wis +2, Int +1",
        "raise5": ["dex", "con", "int", "wis"],
        "raise10": ["dex", "con", "int", "wis"],
        "skills": {"perception": "wis", "stealth": "dex"},
        "senses": {"darkvision": 60},
        "feats": ["Improved Initiative"],
        "gear": {
            2: ("second skin", ["survival knife", "tactical shirren-eye rifle", "tactical semi-auto pistol"]),
            4: ("graphite carbon skin", ["survival knife", "tactical shirren-eye rifle", "thunderstrike sonic pistol"]),
            6: ("freebooter armor II", ["survival knife", "tactical shirren-eye rifle", "corona laser pistol"]),
            8: ("kasatha microcord III", ["tactical knife", "advanced shirren-eye rifle", "advanced semi-auto pistol"]),
            10: (
                "carbon skin, white carbon",
                ["tactical knife", "advanced shirren-eye rifle", "elite semi-auto pistol"],
            ),
        },
    },
    {
        "file": "mystic",
        "name": "Human Mystic",
        "race": "human",
        "race_hp": 4,
        "size": "medium",
        "class": "mystic",
        "key": "wis",
        "theme": "priest (+1 Wis)",
        "scores": {"str": 10, "dex": 14, "con": 11, "int": 10, "wis": 18, "cha": 10},
        "points": "race +2 Wis; theme +1 Wis; points: Wis +5, Dex +4, Con +1",
        "raise5": ["wis", "dex", "con", "cha"],
        "raise10": ["wis", "dex", "con", "cha"],
        "skills": {"medicine": "int", "perception": "wis"},
        "gear": {
            2: ("second skin", ["tactical baton", "azimuth laser pistol"]),
            4: ("freebooter armor I", ["tactical baton", "static arc pistol"]),
            6: ("estex suit II", ["tactical baton", "frostbite-class zero pistol"]),
            8: ("kasatha microcord III", ["carbon staff", "corona laser pistol"]),
            10: ("freebooter armor III", ["carbon staff", "aphelion laser pistol"]),
        },
    },
    {
        "file": "envoy",
        "name": "Lashunta Envoy",
        "race": "lashunta (korasha)",
        "race_hp": 4,
        "size": "medium",
        "class": "envoy",
        "key": "cha",
        "theme": "icon (+1 Cha)",
        "scores": {"str": 12, "dex": 14, "con": 11, "int": 10, "wis": 8, "cha": 18},
        "points": "race +2 Str +2 Cha -2 Wis; theme +1 Cha; points: Cha +5, Dex +4, Con +1",
        "raise5": ["cha", "dex", "con", "int"],
        "raise10": ["cha", "dex", "con", "int"],
        "skills": {"medicine": "int", "perception": "wis"},
        "gear": {
            2: ("second skin", ["tactical dueling sword", "static arc pistol", "frag grenade I"]),
            4: ("freebooter armor I", ["tactical dueling sword", "static arc pistol", "shock grenade II"]),
            6: (
                "freebooter armor II",
                ["tactical dueling sword", "frostbite-class zero pistol", "incendiary grenade II"],
            ),
            8: (
                "advanced lashunta tempweave",
                ["buzzblade dueling sword", "advanced semi-auto pistol", "frag grenade III"],
            ),
            10: (
                "freebooter armor III",
                ["buzzblade dueling sword", "hailstorm-class zero pistol", "shock grenade III"],
            ),
        },
    },
]


def mod(score: int) -> int:
    return (score - 10) // 2


def scores_at(member: dict[str, Any], level: int) -> dict[str, int]:
    s = dict(member["scores"])
    for at, key in ((5, "raise5"), (10, "raise10")):
        if level >= at:
            for a in member[key]:
                s[a] += 1 if s[a] >= 17 else 2
    return s


def operative_edge(level: int) -> int:
    return 1 + (1 if level >= 3 else 0) + max(0, (level - 3) // 4)


#: Mystic spells per day by class level, 1st- and 2nd-level slots (Core Rulebook, the mystic's table; external
#: to the seeds, inventory X-04 and X-16).
MYSTIC_SLOTS = {1: (2, 0), 2: (2, 0), 3: (3, 0), 4: (3, 2), 5: (4, 2), 6: (4, 3), 7: (4, 3), 8: (4, 4), 9: (5, 4),
                10: (5, 4)}  # fmt: skip


def bonus_spells(key_mod: int, spell_level: int) -> int:
    """Bonus spells per day from a high key ability (CRB ch. 1): one of each level up to the modifier (max 4)."""
    return 1 if 1 <= spell_level <= min(key_mod, 4) else 0


def mystic_specials(level: int, wis: int) -> list[dict[str, Any]]:
    """The mystic's spells the engine can use, with the numbers of the Foundry compendium's spell entries
    (shared/fixtures/foundry-sfrpg: *mystic cure* 1d8 + Wis, *mind thrust* 2d10 Will half, *force blast* 2d6 in a
    30-ft cone, Reflex half) and DC 10 + spell level + Wisdom modifier. Spells of a level share their slots."""
    first, second = MYSTIC_SLOTS[level]
    close = 25 + 5 * (level // 2)  # close range (CRB ch. 10): 25 ft + 5 ft per two caster levels
    pool1 = "1st-level mystic spells"
    out: list[dict[str, Any]] = [
        {"name": "mystic cure", "kind": "spell", "target": "ally", "range_ft": 0, "heal": f"1d8+{wis}",
         "uses": first + bonus_spells(wis, 1), "pool": pool1,
         "source": "mystic cure, 1st level (Foundry sfrpg: kiirinta shaman, 1d8 + Wis); mystic spells per day"},
        {"name": "mind thrust", "kind": "spell", "target": "foe", "range_ft": close,
         "save": {"type": "will", "dc": 11 + wis, "on_save": "half"}, "damage": "2d10",
         "uses": first + bonus_spells(wis, 1), "pool": pool1,
         "source": "mind thrust, 1st level (Foundry sfrpg: kiirinta shaman, 2d10, Will half); DC 10 + 1 + Wis"},
    ]  # fmt: skip
    if second:
        out.append({"name": "force blast", "kind": "spell", "target": "area", "area": {"shape": "cone", "size_ft": 30},
                    "save": {"type": "ref", "dc": 12 + wis, "on_save": "half"}, "damage": "2d6 B",
                    "uses": second + bonus_spells(wis, 2), "pool": "2nd-level mystic spells",
                    "source": "force blast, 2nd level (Foundry sfrpg: kiirinta shaman, 2d6 in a 30-ft cone, Reflex "
                              "half); DC 10 + 2 + Wis"})  # fmt: skip
    return out


def class_specials(cls: str, level: int) -> list[dict[str, Any]]:
    """Each class's key class ability at ``level``, as a stat-block ability (``sf1e.class_abilities`` has the
    tables): the operative's trick attack, the envoy's get 'em (its first improvisation), the healer mystic's
    healing channel (its connection: the user, an ally touched or every ally within 30 ft) and the blitz soldier's
    rapid response (its fighting style)."""
    from sftactics.sf1e.class_abilities import get_em_bonus, healing_channel_dice, trick_attack_dice

    if cls == "operative":
        return [
            {
                "name": "trick attack",
                "kind": "Ex",
                "action": "full",
                "target": "foe",
                "rider": {
                    "check": {"skills": ["stealth", "bluff", "intimidate"], "dc_base": 20},
                    "extra_damage": trick_attack_dice(level),
                    "flat_footed": True,
                    "move": True,
                    "weapons": "operative_or_small_arm",
                },
                "source": f"trick attack (Core Rulebook p. 93): move, then a skill check against DC 20 + CR; on a "
                f"success +{trick_attack_dice(level)} and the target flat-footed against the attack",
            }
        ]
    if cls == "envoy":
        return [
            {
                "name": "get 'em",
                "kind": "Ex",
                "action": "move",
                "target": "foe",
                "range_ft": 60,
                "mark": {"bonus": get_em_bonus(level), "type": "morale"},
                "source": f"get 'em (Core Rulebook p. 63): +{get_em_bonus(level)} morale bonus to the side's attack "
                "rolls against one foe within 60 ft until the start of the envoy's next turn",
            }
        ]
    if cls == "mystic":
        dice = healing_channel_dice(level)
        src = f"healing channel (healer connection, Core Rulebook p. 85): 1 Resolve Point, {dice}"
        return [
            {"name": "healing channel (self)", "kind": "Su", "action": "move", "target": "self", "heal": dice,
             "resolve_cost": 1, "source": f"{src}; the mystic itself as a move action"},
            {"name": "healing channel (touch)", "kind": "Su", "action": "standard", "target": "ally", "range_ft": 0,
             "heal": dice, "resolve_cost": 1, "source": f"{src}; an ally touched as a standard action"},
            {"name": "healing channel (30 ft)", "kind": "Su", "action": "full", "target": "allies", "range_ft": 30,
             "heal": dice, "resolve_cost": 1, "source": f"{src}; every ally within 30 ft as a full action"},
        ]  # fmt: skip
    if cls == "soldier":
        return [{"name": "rapid response", "kind": "Ex", "target": "passive",
                 "passive": [{"selector": "initiative", "value": 4},
                             {"selector": "speed.land", "value": 10, "type": "enhancement"}],
                 "source": "blitz fighting style, rapid response (Core Rulebook p. 113): +4 to initiative checks, "
                           "+10 ft enhancement bonus to land speed"}]  # fmt: skip
    return []


def build(member: dict[str, Any], level: int) -> tuple[str, dict[str, Any]]:
    from sftactics.content.armory import find_armor_entry, find_weapon_entry
    from sftactics.sf1e.statblock import StatBlock

    cls = CLASSES[member["class"]]
    s = scores_at(member, level)
    con = mod(s["con"])
    hp = member["race_hp"] + cls["hp"] * level
    sp = (cls["sp"] + con) * level
    rp = max(1, level // 2 + mod(s[member["key"]]))
    armor_name, weapons = member["gear"][level]
    armor = find_armor_entry(armor_name)
    assert armor is not None, armor_name
    assert armor.level <= level, (armor_name, armor.level, level)
    for w in weapons:
        e = find_weapon_entry(w)
        assert e is not None, w
        assert e.level <= level, (w, e.level, level)
        assert e.weapon.category in cls["weapons"], (w, e.weapon.category)
    init_bonus = 0
    notes = []
    if member["class"] == "operative":
        init_bonus += operative_edge(level)
        notes.append(f"operative's edge +{operative_edge(level)}")
    if "Improved Initiative" in member.get("feats", []):
        init_bonus += 4
        notes.append("Improved Initiative +4")
    skills = {}
    for skill, ability in member["skills"].items():
        bonus = level + 3 + mod(s[ability])
        if member["class"] == "operative":
            bonus += operative_edge(level)
        skills[skill] = bonus
    data: dict[str, Any] = {
        "name": f"{member['name']} {level}",
        "kind": "pc",
        "level": level,
        "size": member["size"],
        "scores": s,
        "key_ability": member["key"],
        "classes": {member["class"]: level},
        "armor": armor_name,
        "hp": hp,
        "sp": sp,
        "rp": rp,
    }
    if init_bonus:
        data["initiative_bonus"] = init_bonus
    data["speed"] = {"land": 30}
    data["weapon_specialization"] = level >= 3
    data["proficiencies"] = {"weapons": cls["weapons"], "armor": cls["armor"]}
    data["skills"] = skills
    if member.get("senses") and "senses" in StatBlock.model_fields:
        data["senses"] = member["senses"]
    if member.get("modifiers"):
        data["modifiers"] = member["modifiers"]
    data["weapons"] = weapons
    specials = mystic_specials(level, mod(s["wis"])) if member["class"] == "mystic" else []
    specials += class_specials(member["class"], level)
    if specials:
        data["specials"] = specials
    header = [
        f"# {member['name']} {level}: a pregenerated {member['race']} {member['class']} (combat statistics only),",
        "# written for sftactics from the Core Rulebook rules; see scripts/gen_pregens.py and docs/content.md.",
        f"# Scores: {member['points']} (theme: {member['theme']})"
        + ("; +2 to four scores at 5th" if level >= 5 else "")
        + (" and 10th" if level >= 10 else "")
        + ".",
        f"# HP {hp} = {member['race']} {member['race_hp']} + {member['class']} {cls['hp']} x {level}; "
        f"SP {sp} = ({cls['sp']} + Con {con:+d}) x {level}; RP {rp} = {level // 2} + {member['key'].title()} "
        f"{mod(s[member['key']]):+d}.",
        f"# Armor and weapons from the bundled armory (item level <= {level})."
        + (f" Initiative: {', '.join(notes)}." if notes else ""),
    ]
    return "\n".join(header) + "\n", data


def render(member: dict[str, Any], level: int) -> str:
    from sftactics.io.foundry import dump_yaml

    header, data = build(member, level)
    return header + dump_yaml(data)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="write the pregenerated characters")
    ap.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    args = ap.parse_args(argv)
    changed = []
    for member in PARTY:
        for level in LEVELS:
            path = OUT / f"pregen-{member['file']}-{level}.yaml"
            text = render(member, level)
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                changed.append(path.name)
                if not args.check:
                    path.write_text(text, encoding="utf-8")
    if args.check:
        print("up to date" if not changed else f"would change: {', '.join(changed)}")
        return 1 if changed else 0
    print(f"wrote {len(changed)} file(s)" + (f": {', '.join(changed)}" if changed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
