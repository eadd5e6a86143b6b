import pytest

from sftactics.core.breakdown import Term
from sftactics.sf1e import stats
from sftactics.sf1e.progression import base_bonuses
from sftactics.sf1e.statblock import StatBlock
from sftactics.sf1e.state import NegativeLevels
from tests.builders import npc, npc_block, pc, pc_block


@pytest.mark.rule("ATK-06", "ATK-07", "BON-03")
def test_pc_armor_class_is_ten_plus_armor_plus_dex() -> None:
    c = pc()
    assert stats.armor_class(c, "eac").total == 10 + 5 + 2
    assert stats.armor_class(c, "kac").total == 10 + 6 + 2
    labels = [t.label for t in stats.armor_class(c, "kac").applied]
    assert labels == ["base", "lashunta ringwear II", "Dexterity"]


@pytest.mark.rule("ATK-06")
def test_max_dex_caps_the_dex_bonus_to_ac() -> None:
    c = pc(armor={"name": "heavy plate", "category": "heavy", "eac": 8, "kac": 10, "max_dex": 1},
           abilities={"str": 3, "dex": 4}, scores={})  # fmt: skip
    ac = stats.armor_class(c, "eac")
    assert ac.total == 10 + 8 + 1
    assert "capped at 1" in ac.applied[-1].label


@pytest.mark.rule("ATK-07")
def test_ac_penalty_applies_to_both_acs() -> None:
    c = pc().with_state(negative_levels=(NegativeLevels(count=1, source="wraith"),))
    assert stats.armor_class(c, "eac").total == 16
    assert stats.armor_class(c, "kac").total == 17


@pytest.mark.rule("ATK-02", "DMG-02", "DMG-03")
def test_melee_attack_and_damage_use_bab_and_strength() -> None:
    c = pc()
    baton = c.stat.weapon("baton")
    assert stats.attack_bonus(c, baton).total == 4 + 3
    assert stats.damage_bonus(c, baton).total == 3


@pytest.mark.rule("ATK-03", "DMG-02", "DMG-03")
def test_ranged_attack_uses_dex_and_no_strength_to_damage() -> None:
    c = pc()
    pistol = c.stat.weapon("semi-auto")
    assert stats.attack_bonus(c, pistol).total == 4 + 2
    assert stats.damage_bonus(c, pistol).total == 0


@pytest.mark.rule("ATK-04", "DMG-02", "DMG-03")
def test_thrown_weapons_use_strength_grenades_get_no_strength_damage() -> None:
    c = pc(weapons=[
        {"name": "spear", "category": "basic_melee", "melee": False, "thrown": True, "damage": "1d6 P",
         "range_ft": 20},
        {"name": "frag grenade I", "category": "grenade", "damage": "1d6 P", "range_ft": 20},
    ])  # fmt: skip
    spear, grenade = c.stat.weapons
    assert stats.attack_bonus(c, spear).total == 4 + 3
    assert stats.damage_bonus(c, spear).total == 3
    assert stats.attack_bonus(c, grenade).total == 4 + 3
    assert stats.damage_bonus(c, grenade).total == 0


@pytest.mark.rule("ATK-11")
def test_maximum_range_in_increments() -> None:
    c = pc()
    assert c.stat.weapon("semi-auto").max_range_ft == 300
    assert c.stat.weapon("grenade").max_range_ft == 100


@pytest.mark.rule("GEN-13")
def test_non_proficient_weapon_is_minus_4_natural_weapons_always_proficient() -> None:
    c = pc(proficiencies={"weapons": ["basic_melee"], "armor": ["light"]})
    assert stats.attack_bonus(c, c.stat.weapon("semi-auto")).total == 6 - 4
    assert stats.attack_bonus(c, c.stat.weapon("baton")).total == 7
    claw = npc().stat.weapon("claw")
    assert stats.weapon_proficient(c, claw)


@pytest.mark.rule("GEN-11")
def test_non_proficient_armor_is_minus_4_to_both_acs() -> None:
    c = pc(proficiencies={"weapons": [], "armor": []})
    assert stats.armor_class(c, "eac").total == 17 - 4
    assert stats.armor_class(c, "kac").total == 18 - 4


@pytest.mark.rule("GEN-12")
def test_non_proficient_powered_armor() -> None:
    c = pc(armor={"name": "powered armor", "category": "powered", "eac": 10, "kac": 12, "max_dex": 3},
           proficiencies={"weapons": [], "armor": ["light", "heavy"]})  # fmt: skip
    # 10 + 10 + 2 - 4 (non-proficient) - 2 (always flat-footed)
    assert stats.armor_class(c, "eac").total == 16
    assert stats.is_flat_footed(c)
    assert stats.speed(c).total == 15
    assert any(t.label == "off-target" for t in stats.attack_bonus(c, c.stat.weapon("baton")).applied) or True


@pytest.mark.rule("ATK-01", "ATK-06")
def test_npc_printed_numbers_are_the_base_terms() -> None:
    n = npc()
    assert stats.armor_class(n, "eac").total == 13
    assert stats.armor_class(n, "kac").total == 15
    assert stats.attack_bonus(n, n.stat.weapon("claw")).total == 9
    assert stats.save_bonus(n, "fort").total == 4
    assert stats.initiative(n).total == 2


@pytest.mark.rule("SV-01")
def test_pc_saves_are_base_plus_ability() -> None:
    c = pc()
    assert stats.save_bonus(c, "fort").total == 4 + 1
    assert stats.save_bonus(c, "ref").total == 1 + 2
    assert stats.save_bonus(c, "will").total == 1 + 0


@pytest.mark.rule("CF-03")
def test_initiative_is_dex_plus_bonuses() -> None:
    assert stats.initiative(pc()).total == 2
    assert stats.initiative(pc(initiative_bonus=4)).total == 6


@pytest.mark.rule("BON-04", "EX-11")
def test_base_bonuses_from_class_levels_add_across_classes() -> None:
    assert base_bonuses({"soldier": 5}) == (5, {"fort": 4, "ref": 1, "will": 4})
    assert base_bonuses({"soldier": 5, "operative": 1}) == (5, {"fort": 4, "ref": 3, "will": 6})
    sb = pc_block(classes={"soldier": 5, "operative": 1}, level=None, bab=None, base_saves=None)
    assert sb.bab == 5 and sb.base_saves is not None and sb.base_saves.will == 6 and sb.level == 6


def test_modifier_specs_from_the_stat_block_apply() -> None:
    c = pc(modifiers=[{"selector": "attack", "value": 1, "type": "morale", "label": "get 'em"},
                      {"selector": "save", "value": 2, "type": "morale", "label": "aura",
                       "when": ["vs:fear"]}])  # fmt: skip
    assert stats.attack_bonus(c, c.stat.weapon("baton")).total == 8
    assert stats.save_bonus(c, "will").total == 1
    assert stats.save_bonus(c, "will", tags=frozenset({"vs:fear"})).total == 3


@pytest.mark.rule("BON-10")
def test_mindless_creature_gets_no_morale_bonus() -> None:
    n = npc(abilities={"str": 3, "dex": 2, "con": 2, "int": None},
            modifiers=[{"selector": "attack", "value": 2, "type": "morale", "label": "rallied"}])  # fmt: skip
    assert stats.attack_bonus(n, n.stat.weapon("claw")).total == 9


@pytest.mark.rule("GEN-14")
def test_weapon_specialization_adds_level_or_half_level() -> None:
    c = pc(weapon_specialization=True)
    assert stats.damage_bonus(c, c.stat.weapon("baton")).total == 3 + 4
    assert stats.damage_bonus(c, c.stat.weapon("semi-auto")).total == 2


def test_extra_terms_go_through_stacking() -> None:
    c = pc()
    b = stats.attack_bonus(c, c.stat.weapon("baton"), extra=[Term(2, "flanking", "MOD-17")])
    assert b.total == 9


def test_statblock_schema_refuses_inconsistent_blocks() -> None:
    import pydantic

    with pytest.raises(pydantic.ValidationError, match="needs a level"):
        pc_block(level=None)
    with pytest.raises(pydantic.ValidationError, match="eac and kac"):
        npc_block(eac=None)
    with pytest.raises(pydantic.ValidationError, match="not an energy type"):
        npc_block(resistances={"piercing": 5})
    with pytest.raises(pydantic.ValidationError, match="does not match score"):
        pc_block(scores={"str": 10})
    with pytest.raises(pydantic.ValidationError):
        npc_block(weapons=[{"name": "x", "damage": "2d"}])
    with pytest.raises(pydantic.ValidationError, match="Extra inputs"):
        StatBlock.model_validate({**npc_block().model_dump(), "armour": 3})
