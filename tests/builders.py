"""Small stat blocks for tests. Numbers are chosen to make hand arithmetic easy; change them in the test
with ``pc(**overrides)`` rather than here."""

from __future__ import annotations

from typing import Any

from sftactics.sf1e.statblock import StatBlock
from sftactics.sf1e.state import ConditionInstance, Creature


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    out.update(over)
    return out


def pc_block(**over: Any) -> StatBlock:
    """A 4th-level soldier-like character: BAB +4, Str +3, Dex +2, Con +1 (score 12), Wis +0, key Str.
    EAC 10+5+2 = 17, KAC 10+6+2 = 18; HP 30, SP 28, RP 5."""
    base: dict[str, Any] = {
        "name": "Tess",
        "kind": "pc",
        "level": 4,
        "abilities": {"str": 3, "dex": 2, "con": 1, "int": 0, "wis": 0, "cha": 0},
        "scores": {"str": 16, "dex": 14, "con": 12, "int": 10, "wis": 10, "cha": 10},
        "key_ability": "str",
        "bab": 4,
        "base_saves": {"fort": 4, "ref": 1, "will": 1},
        "armor": {"name": "lashunta ringwear II", "category": "light", "eac": 5, "kac": 6, "max_dex": 5},
        "hp": 30,
        "sp": 28,
        "rp": 5,
        "weapons": [
            {"name": "tactical baton", "category": "basic_melee", "damage": "1d4 B", "item_level": 1},
            {"name": "tactical semi-auto pistol", "category": "small_arm", "damage": "1d6 P", "range_ft": 30,
             "item_level": 1, "capacity": 9},
            {"name": "frag grenade I", "category": "grenade", "damage": "1d6 P", "range_ft": 20,
             "area": {"shape": "burst", "size_ft": 15, "save": "ref", "on_save": "half", "dc": 12}},
            {"name": "burning flame pistol", "category": "small_arm", "damage": "1d4 F", "range_ft": 20,
             "critical": "Burn 1d4", "item_level": 2},
        ],
        "proficiencies": {"weapons": ["basic_melee", "advanced_melee", "small_arm", "longarm", "heavy",
                                      "sniper", "grenade"], "armor": ["light", "heavy"]},
    }  # fmt: skip
    return StatBlock.model_validate(_merge(base, over))


def npc_block(**over: Any) -> StatBlock:
    """A CR 2 alien with printed numbers: EAC 13, KAC 15, Fort +4, Ref +4, Will +2, init +2, HP 25,
    claw +9 (1d6+5 S), spit +6 (1d6 A, 30 ft)."""
    base: dict[str, Any] = {
        "name": "Ksarik",
        "kind": "npc",
        "cr": "2",
        "abilities": {"str": 3, "dex": 2, "con": 2, "int": -3, "wis": 1, "cha": -2},
        "eac": 13,
        "kac": 15,
        "saves": {"fort": 4, "ref": 4, "will": 2},
        "initiative": 2,
        "hp": 25,
        "weapons": [
            {"name": "claw", "category": "natural", "damage": "1d6+5 S", "attack_bonus": 9},
            {"name": "spit", "category": "natural", "melee": False, "damage": "1d6 A", "attack_bonus": 6,
             "range_ft": 30},
        ],
    }  # fmt: skip
    return StatBlock.model_validate(_merge(base, over))


def pc(**over: Any) -> Creature:
    return Creature.fresh(pc_block(**over))


def npc(**over: Any) -> Creature:
    return Creature.fresh(npc_block(**over))


def with_conditions(c: Creature, *names: str) -> Creature:
    return c.with_state(conditions=(*c.state.conditions, *(ConditionInstance(name=n) for n in names)))
