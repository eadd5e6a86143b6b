"""Bundled stat blocks: the imported bestiary and the pregenerated characters."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from sftactics.content import bundled_statblocks, expand_refs, find_statblock
from sftactics.content.armory import find_armor_entry, find_weapon_entry
from sftactics.core.errors import FileFormatError
from sftactics.io.foundry import load_actor
from sftactics.sf1e import stats
from sftactics.sf1e.statblock import StatBlock
from sftactics.sf1e.state import Creature

ROOT = Path(__file__).parent.parent.parent
DATA = ROOT / "src" / "sftactics" / "data" / "statblocks"
FIXTURES = ROOT / "tests" / "data" / "foundry-sfrpg" / "creatures"

PREGENS = sorted(DATA.glob("pregen-*.yaml"))

#: Core Rulebook numbers, written out again here so the test checks the builds independently.
RACE_HP = {"vesk": 6, "ysoki": 2, "human": 4, "lashunta": 4}
CLASS_HP_SP = {"soldier": 7, "operative": 6, "mystic": 6, "envoy": 6}
PROFICIENT = {
    "soldier": {"basic_melee", "advanced_melee", "small_arm", "longarm", "heavy", "sniper", "grenade"},
    "operative": {"basic_melee", "small_arm", "sniper", "grenade"},
    "mystic": {"basic_melee", "small_arm"},
    "envoy": {"basic_melee", "small_arm", "grenade"},
}
ARMOR = {"soldier": {"light", "heavy"}, "operative": {"light"}, "mystic": {"light"}, "envoy": {"light"}}


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_bundled_stat_block_loads() -> None:
    blocks = bundled_statblocks()
    names = {sb.name for sb in blocks.values()}
    assert len(names) == len(list(DATA.glob("*.yaml")))
    for old in ("ksarik", "space goblin", "vesk-soldier", "human-envoy", "lashunta-mystic", "ysoki-operative"):
        assert find_statblock(old) is not None


def test_a_party_of_four_at_each_level() -> None:
    assert len(PREGENS) == 20
    for level in (2, 4, 6, 8, 10):
        party = [find_statblock(f"pregen-{cls}-{level}") for cls in ("soldier", "operative", "mystic", "envoy")]
        assert all(sb is not None and sb.kind == "pc" and sb.level == level for sb in party)


@pytest.mark.parametrize("path", PREGENS, ids=lambda p: p.stem)
def test_pregenerated_characters_follow_the_rules(path: Path) -> None:
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    sb = find_statblock(path.stem)
    assert sb is not None and sb.level is not None and sb.armor is not None
    ((cls, level),) = sb.classes.items()
    race = next(r for r in RACE_HP if r in sb.name.lower())
    con = (sb.scores["con"] - 10) // 2
    key = sb.key_ability
    assert key is not None
    assert sb.hp == RACE_HP[race] + CLASS_HP_SP[cls] * level
    assert sb.sp == (CLASS_HP_SP[cls] + con) * level
    assert sb.rp == max(1, level // 2 + (sb.scores[key] - 10) // 2)
    assert sb.weapon_specialization == (level >= 3)
    # point buy: 10 points above the race/theme baseline at 1st level; +2 (or +1 from 17) to four at 5 and 10
    assert max(sb.scores.values()) <= 18 + (level >= 5) + (level >= 10)
    armor = find_armor_entry(raw["armor"])
    assert armor is not None and armor.level <= level and armor.armor.category in ARMOR[cls]
    for ref in raw["weapons"]:
        entry = find_weapon_entry(ref)
        assert entry is not None and entry.level <= level
        assert entry.weapon.category in PROFICIENT[cls]
    c = Creature.fresh(sb, "pc")
    dex = min((sb.scores["dex"] - 10) // 2, sb.armor.max_dex if sb.armor.max_dex is not None else 99)
    savant = 1 if race == "vesk" else 0
    assert stats.armor_class(c, "eac").total == 10 + sb.armor.eac + dex + savant
    assert stats.armor_class(c, "kac").total == 10 + sb.armor.kac + dex + savant


def test_the_bestiary_is_the_importer_output() -> None:
    gen = _script("gen_bestiary")
    for stem in gen.CREATURES:
        result = load_actor(FIXTURES / f"{stem}.json")
        assert result.statblock is not None
        assert find_statblock(result.name) == result.statblock


def test_generated_content_is_up_to_date() -> None:
    assert _script("gen_pregens").main(["--check"]) == 0
    assert _script("gen_bestiary").main(["--check", "--src", str(FIXTURES)]) == 0


def test_armory_references_in_stat_block_data() -> None:
    data = {
        "name": "Guard",
        "kind": "pc",
        "level": 1,
        "scores": {"dex": 14},
        "classes": {"soldier": 1},
        "armor": "second skin",
        "hp": 13,
        "weapons": ["tactical semi-auto pistol", {"armory": "frag grenade I", "name": "grenade"}],
    }
    sb = StatBlock.model_validate(expand_refs(data))
    assert sb.armor is not None and sb.armor.name == "second skin"
    assert [w.name for w in sb.weapons] == ["tactical semi-auto pistol", "grenade"]
    assert sb.weapons[1].is_grenade
    with pytest.raises(FileFormatError) as e:
        expand_refs({**data, "weapons": ["laser sword of doom"]}, file="guard.yaml")
    assert e.value.file == "guard.yaml" and e.value.field == "weapons[0]"
    with pytest.raises(FileFormatError) as e:
        expand_refs({**data, "armor": {"armory": 3}}, file="guard.yaml")
    assert e.value.field == "armor.armory"
