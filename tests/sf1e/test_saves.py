import pytest

from sftactics.core.breakdown import Term
from sftactics.dice.source import ScriptedDice
from sftactics.sf1e import saves
from tests.builders import npc, pc


@pytest.mark.rule("SV-03")
def test_class_feature_dc() -> None:
    assert saves.class_feature_dc(5, 4).total == 10 + 2 + 4


@pytest.mark.rule("SV-04")
def test_spell_dc() -> None:
    assert saves.spell_dc(3, 5).total == 18


@pytest.mark.rule("SV-05", "SPA-01", "SPA-03")
def test_ex_and_su_ability_dc() -> None:
    assert saves.special_ability_dc(7, 3).total == 10 + 3 + 3


@pytest.mark.rule("SV-06", "SPA-02")
def test_spell_like_ability_dc() -> None:
    assert saves.spell_like_dc(2, 4).total == 16


@pytest.mark.rule("SV-07", "GEN-13")
def test_item_dc_is_printed_less_4_for_a_non_proficient_wielder() -> None:
    assert saves.item_dc(14).total == 14
    assert saves.item_dc(14, wielder_proficient=False).total == 10


@pytest.mark.rule("SV-01", "SV-02")
def test_saving_throw_rolls_the_creatures_bonus() -> None:
    c = pc()  # Fort +5
    r = saves.saving_throw(c, "fort", 15, ScriptedDice([10]))
    assert r.total == 15 and r.success
    assert not saves.saving_throw(c, "fort", 15, ScriptedDice([9])).success
    assert saves.saving_throw(c, "fort", 40, ScriptedDice([20])).success
    assert not saves.saving_throw(c, "fort", 2, ScriptedDice([1])).success


@pytest.mark.rule("SV-12", "MOD-08")
def test_situational_terms_such_as_cover_add_to_reflex() -> None:
    n = npc()  # Ref +4
    r = saves.saving_throw(n, "ref", 15, ScriptedDice([9]), extra=(Term(2, "cover", "MOD-08"),))
    assert r.total == 15 and r.success


@pytest.mark.rule("SV-09", "DMG-14", "GEN-03")
def test_save_outcomes() -> None:
    assert saves.save_outcome("half", True, 7).damage == 3
    assert saves.save_outcome("half", False, 7).damage == 7
    assert not saves.save_outcome("negates", True).applies
    assert saves.save_outcome("negates", False).applies
    assert saves.save_outcome("partial", True, 5).applies
    assert not saves.save_outcome("disbelieves", True).applies
    assert saves.save_outcome("none", True, 9).damage == 9
    assert not saves.save_outcome("harmless", True).applies


@pytest.mark.rule("SV-08")
def test_forgoing_a_save_accepts_the_full_effect() -> None:
    o = saves.forgo_save("half", 8)
    assert o.applies and o.damage == 8


@pytest.mark.rule("SV-11")
def test_object_saves() -> None:
    assert saves.object_save_bonus(5).total == 5
    assert saves.object_save_bonus(5, holder_bonus=7).total == 7
    assert saves.object_save_bonus(5, holder_bonus=3).total == 5
    assert not saves.object_gets_save(0, attended=False)
    assert saves.object_gets_save(0, attended=True)
    assert saves.object_gets_save(1, attended=False)
