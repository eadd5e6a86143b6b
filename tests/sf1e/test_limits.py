"""The valid ranges (sf1e/limits.py) let in every real creature and item and refuse the absurd (issue 20)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from sftactics.content import bundled_statblocks
from sftactics.content.armory import armory
from sftactics.core.errors import DiceError, FileFormatError
from sftactics.core.validation import first_problem
from sftactics.dice.expr import parse
from sftactics.grid.map import MAX_SIDE
from sftactics.io.foundry import import_paths
from sftactics.io.statblocks import load_statblock
from sftactics.sf1e import limits as L
from sftactics.sf1e.statblock import StatBlock
from tests.builders import npc_block, pc_block

ROOT = Path(__file__).resolve().parents[2]
FOUNDRY = ROOT / "tests" / "data" / "foundry-sfrpg" / "creatures"


def _named(err: ValidationError, where: str) -> bool:
    """The first problem is at ``where`` (a field's bound) or says so (a check of the whole block)."""
    path, msg = first_problem(err)
    return path == where or (path == "" and msg.startswith(f"{where}:"))


def test_every_compendium_creature_is_within_the_limits() -> None:
    report = import_paths([FOUNDRY])
    assert report.failed == []
    blocks = [r.statblock for r in report.results if r.statblock is not None]
    assert len(blocks) >= 35
    # the largest of them, so a tighter bound would have to be argued against these
    assert max(b.hp for b in blocks) == 300
    assert max(w.attack_bonus or 0 for b in blocks for w in b.weapons) == 180  # a compendium typo, kept


def test_every_bundled_creature_example_and_armory_item_is_within_the_limits() -> None:
    assert len(bundled_statblocks()) > 30
    for path in sorted((ROOT / "examples" / "statblocks").glob("*.yaml")):
        load_statblock(path)
    assert len(armory().weapons) > 100 and len(armory().armor) > 30
    assert max(e.weapon.damage_expr.bounds()[1] for e in armory().weapons) <= 20 * 12


def test_the_map_limit_is_the_grids() -> None:
    assert L.MAP_SIDE_MAX == MAX_SIDE


@pytest.mark.parametrize("text", ["100d6", "1d%", "1d16", "1d3+2", "25d10", "10000", "1+" * 19 + "1", "50d6+50d4"])
def test_real_dice_are_accepted(text: str) -> None:
    lo, hi = parse(text).bounds()
    assert 1 <= lo <= hi <= 10000


@pytest.mark.parametrize(
    ("text", "why"),
    [("1000d1000", "too many dice"), ("101d6", "too many dice"), ("60d6+41d4", "too many dice"),
     ("1d101", "at most 100 sides"), ("10001", "at most 10000"), ("1+" * 20 + "1", "at most 20 terms"),
     ("9" * 5000, "too large"), ("1d" + "9" * 5000, "too large")],
)  # fmt: skip
def test_absurd_dice_are_refused(text: str, why: str) -> None:
    with pytest.raises(DiceError, match=why):
        parse(text)


@pytest.mark.parametrize(
    ("over", "where"),
    [({"hp": 0}, "hp"), ({"hp": L.HP_MAX + 1}, "hp"), ({"eac": 0}, "eac"), ({"kac": 10**9}, "kac"),
     ({"saves": {"fort": 61, "ref": 0, "will": 0}}, "saves.fort"), ({"speed": {"land": 33}}, "speed.land"),
     ({"speed": {"land": -5}}, "speed.land"), ({"speed": {"land": 10**6}}, "speed.land"),
     ({"speed": {"teleport": 30}}, "speed"), ({"reach_ft": 7}, "reach_ft"), ({"reach_ft": -5}, "reach_ft"),
     ({"space_ft": 0}, "space_ft"), ({"cr": "31"}, "cr"), ({"cr": "-1"}, "cr"), ({"level": 31}, "level"),
     ({"abilities": {"str": 21}}, "abilities.str"), ({"scores": {"str": 0}}, "scores.str"),
     ({"initiative": 101}, "initiative"), ({"sr": -1}, "sr"), ({"skills": {"stealth": 1000}}, "skills.stealth"),
     ({"senses": {"darkvision": -60}}, "senses.darkvision"), ({"resistances": {"fire": 101}}, "resistances.fire"),
     ({"dr": [{"value": 101}]}, "dr[0].value"), ({"name": ""}, "name"), ({"name": "  "}, "name"),
     ({"name": "x" * 101}, "name"), ({"name": "a\x00b"}, "name")],
)  # fmt: skip
def test_absurd_stat_block_numbers_are_refused(over: dict[str, Any], where: str) -> None:
    with pytest.raises(ValidationError) as e:
        npc_block(**over)
    assert _named(e.value, where)


@pytest.mark.parametrize(
    ("weapon", "where"),
    [({"attack_bonus": 201}, "attack_bonus"), ({"range_ft": 31}, "range_ft"), ({"damage": "1000d1000 F"}, "damage"),
     ({"reach_ft": 200}, "reach_ft"), ({"capacity": 0}, "capacity"), ({"item_level": 31}, "item_level"),
     ({"critical_dc": 0}, "critical_dc"), ({"name": ""}, "name"),
     ({"area": {"size_ft": 12}}, "size_ft"), ({"area": {"size_ft": 15, "dc": 500}}, "dc")],
)  # fmt: skip
def test_absurd_weapon_numbers_are_refused(weapon: dict[str, Any], where: str) -> None:
    w = {"name": "claw", "category": "natural", "damage": "1d6+5 S", "attack_bonus": 9, **weapon}
    with pytest.raises(ValidationError) as e:
        npc_block(weapons=[w])
    assert (
        _named(e.value, where) or _named(e.value, f"weapons[0].{where}") or _named(e.value, f"weapons[0].area.{where}")
    )


def test_two_weapons_with_one_name_are_refused() -> None:
    w = {"name": "Claw", "category": "natural", "damage": "1d6 S", "attack_bonus": 9}
    with pytest.raises(ValidationError, match=r"weapons\[1\]\.name: 'claw' names two weapons"):
        npc_block(weapons=[w, {**w, "name": "claw"}])


def test_a_character_has_at_most_twenty_class_levels() -> None:
    with pytest.raises(ValidationError, match="at most 20 levels"):
        pc_block(classes={"soldier": 15, "operative": 6}, level=None, bab=None, base_saves=None)


def test_armor_numbers_are_bounded() -> None:
    with pytest.raises(ValidationError, match="speed_adjust"):
        pc_block(armor={"name": "x", "eac": 1, "kac": 2, "speed_adjust": -7})
    with pytest.raises(ValidationError, match="check_penalty"):
        pc_block(armor={"name": "x", "eac": 1, "kac": 2, "check_penalty": 3})


def test_the_schema_documents_the_ranges() -> None:
    schema = StatBlock.model_json_schema()
    hp = schema["properties"]["hp"]
    assert (hp["minimum"], hp["maximum"]) == (1, L.HP_MAX)
    reach = schema["properties"]["reach_ft"]
    assert reach["multipleOf"] == 5 and "multiple of 5" in reach["description"]


def test_a_file_with_an_absurd_number_names_file_and_field(tmp_path: Path) -> None:
    p = tmp_path / "giant.yaml"
    p.write_text("name: Giant\ncr: '2'\nhp: 1000000000000\neac: 10\nkac: 10\nsaves: {fort: 1, ref: 1, will: 1}\n")
    with pytest.raises(FileFormatError) as e:
        load_statblock(p)
    assert (e.value.file, e.value.field) == (str(p), "hp")
    assert "less than or equal to 5000" in e.value.expected


@pytest.mark.parametrize("size", [["tiny"], {"tiny": 1}])
def test_a_size_that_is_not_text_is_a_clean_error(size: Any) -> None:
    with pytest.raises(ValidationError) as e:
        npc_block(size=size)
    assert first_problem(e.value)[0] == "size"


@pytest.mark.parametrize("text", ["Staggered [DC 500]", "Wound [DC " + "9" * 5000 + "]", "Burn " + "1" * 300])
def test_a_critical_effect_with_an_absurd_dc_or_length_is_refused(text: str) -> None:
    w = {"name": "claw", "category": "natural", "damage": "1d6+5 S", "attack_bonus": 9, "critical": text}
    with pytest.raises(ValidationError) as e:
        npc_block(weapons=[w])
    assert first_problem(e.value)[0] == "weapons[0].critical"
