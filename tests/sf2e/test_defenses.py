"""AC, saves, Perception, initiative, spells (sftactics.sf2e.defenses): E2-09, E2-12, E2-15..18, E2-31, E2-70.

``hero()``: level 3, Dex +4 (armor caps it at +3), armor +2, trained in AC (+5): AC 20. Fortitude +7 (Con +2),
Reflex +11 (expert, Dex +4), Will +6, Perception +6. ``foe()``: level 2, Dex +2, trained (+4): AC 16,
Perception +5.
"""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.sf2e.creature import Attribute
from sftactics.sf2e.defenses import (
    BASIC_SAVE,
    SAVE_PURPOSE,
    Save,
    SpellSource,
    armor_class,
    initiative_after_knockout,
    perception,
    roll_initiative,
    save_dc,
    save_modifier,
    saving_throw,
    spell_attack,
    spell_dc,
    spellcasting_attribute,
)
from sftactics.sf2e.degrees import Degree
from sftactics.sf2e.modifiers import Kind, Proficiency, mod
from sftactics.sf2e.options import Sf2eOptions

from .make import foe, hero


@pytest.mark.rule("E2-15", "E2-05")
def test_armor_class() -> None:
    ac = armor_class(hero())
    assert ac.total == 20
    assert ac.lines() == [
        "+10 AC base [E2-15]",
        "+3 Dex modifier +4, capped at +3 by armor [E2-15]",
        "+5 trained proficiency in armor (level 3 + 2) [E2-05]",
        "+2 item armor [E2-15]",
    ]
    assert armor_class(foe()).total == 16


@pytest.mark.rule("E2-15", "E2-06")
def test_armor_bonus_is_an_item_bonus_by_default() -> None:
    field = mod(3, "force field", Kind.ITEM)
    assert armor_class(hero(), extra=[field]).total == 21  # item +3 replaces the armor's +2
    own = Sf2eOptions(armor_bonus_is_item=False)
    assert armor_class(hero(), extra=[field], options=own).total == 23


@pytest.mark.rule("E2-16", "E2-09")
def test_saving_throws_and_their_dcs() -> None:
    h = hero()
    assert [save_modifier(h, s).total for s in Save] == [7, 11, 6]
    assert save_dc(h, Save.REFLEX).total == 21
    assert save_dc(h, Save.REFLEX).applied[0].describe() == "+10 DC base [E2-09]"
    r = saving_throw(h, Save.FORTITUDE, 18, ScriptedDice([11]))
    assert (r.total, r.degree) == (18, Degree.SUCCESS)
    assert set(SAVE_PURPOSE) == set(Save)


@pytest.mark.rule("E2-17")
def test_basic_save_table() -> None:
    assert BASIC_SAVE == {
        Degree.CRITICAL_SUCCESS: (0, 1),
        Degree.SUCCESS: (1, 2),
        Degree.FAILURE: (1, 1),
        Degree.CRITICAL_FAILURE: (2, 1),
    }


@pytest.mark.rule("E2-18")
def test_perception_sets_initiative() -> None:
    assert perception(hero()).total == 6 and perception(foe()).total == 5
    order = roll_initiative([hero(), foe()], ScriptedDice([12, 5]))
    assert [(r.name, r.total) for r in order] == [("Navasi", 18), ("ksarik", 10)]


@pytest.mark.rule("E2-18")
def test_initiative_ties_are_an_option() -> None:
    tied = roll_initiative([hero(), foe()], ScriptedDice([10, 11]))  # 16 and 16
    assert [r.name for r in tied] == ["ksarik", "Navasi"]
    pcs = roll_initiative([hero(), foe()], ScriptedDice([10, 11]), options=Sf2eOptions(initiative_ties="pc_first"))
    assert [r.name for r in pcs] == ["Navasi", "ksarik"]


@pytest.mark.rule("E2-31")
def test_initiative_moves_before_whoever_knocked_you_out() -> None:
    order = ["Navasi", "Obozaya", "ksarik", "goblin"]
    assert initiative_after_knockout(order, "Navasi", "goblin") == ("Obozaya", "ksarik", "Navasi", "goblin")
    assert initiative_after_knockout(order, "Navasi", None) == tuple(order)
    same = Sf2eOptions(knockout_initiative="unchanged")
    assert initiative_after_knockout(order, "Navasi", "goblin", options=same) == tuple(order)
    with pytest.raises(RuleViolation, match="E2-31"):
        initiative_after_knockout(order, "nobody", "goblin")


@pytest.mark.rule("E2-70")
def test_spellcasting_attribute() -> None:
    assert spellcasting_attribute(SpellSource.CLASS, key=Attribute.WIS) is Attribute.WIS
    assert spellcasting_attribute(SpellSource.INNATE) is Attribute.CHA
    assert spellcasting_attribute(SpellSource.INNATE, specified=Attribute.INT) is Attribute.INT
    assert spellcasting_attribute(SpellSource.FOCUS, specified=Attribute.WIS) is Attribute.WIS
    with pytest.raises(RuleViolation, match="E2-70"):
        spellcasting_attribute(SpellSource.FOCUS)


@pytest.mark.rule("E2-12", "E2-70")
def test_spell_attack_and_spell_dc() -> None:
    caster = hero(proficiency={"spell": Proficiency.EXPERT})
    assert spell_attack(caster, Attribute.CHA).total == 3 + 7
    dc = spell_dc(caster, Attribute.CHA)
    assert dc.total == 20 and dc.label == "spell DC"


@pytest.mark.rule("E2-54", "E2-09")
def test_frightened_lowers_checks_and_by_option_other_dcs() -> None:
    scared = hero(conditions={"frightened": 2}, proficiency={**hero().proficiency, "spell": Proficiency.TRAINED})
    assert save_modifier(scared, Save.WILL).total == 4
    assert save_dc(scared, Save.WILL).total == 14  # 10 + the Will modifier (E2-09)
    assert armor_class(scared).total == 18 and spell_dc(scared, Attribute.CHA).total == 16
    checks_only = Sf2eOptions(frightened_applies_to_dcs=False)
    assert armor_class(scared, options=checks_only).total == 20
    assert spell_dc(scared, Attribute.CHA, options=checks_only).total == 18
