"""The GM's toolbox: ability damage and negative levels, named timed effects, rest, waking, righting oneself,
willing targets, and the fight going on as long as the GM wants (issue 15, section 3)."""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation, SftError
from sftactics.encounter.commands import Begin, EndTurn
from sftactics.encounter.engine import Fight
from sftactics.sf1e import stats
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.state import Creature
from tests.encounter.helpers import combatant, encounter, fight

OPEN = "\n".join(["." * 8] * 4)


def _fight(**kw: object) -> Fight:
    """Tess (PC, level 4, Str 16 key, Dex +2, EAC 17, KAC 18, HP 30, SP 28, RP 5) acts first; Ksarik next."""
    t = combatant("Tess", "party", initiative=20, position=(0, 0))
    k = combatant("Ksarik", "aliens", initiative=10, position=(1, 0))
    f = fight(encounter(t, k, map=OPEN, **kw), [])
    f.do(Begin())
    return f


def _tess(f: Fight) -> Creature:
    return f.state.get("Tess").creature


@pytest.mark.rule("ABL-01", "ABL-03", "ABL-06")
def test_ability_damage_lowers_the_modifier_and_restoring_raises_it() -> None:
    f = _fight()
    assert stats.ability_mod(_tess(f), "dex").total == 2
    f.do({"type": "ability_damage", "target": "Tess", "ability": "dex", "points": 3})
    assert stats.ability_mod(_tess(f), "dex").total == 1  # 3 points: -1 per 2
    assert stats.armor_class(_tess(f), "eac").total == 16
    f.do({"type": "restore_ability", "target": "Tess", "ability": "dex", "points": 1})
    assert stats.ability_mod(_tess(f), "dex").total == 1  # 2 points left: still -1
    f.do({"type": "restore_ability", "target": "Tess", "ability": "dex"})
    assert stats.ability_mod(_tess(f), "dex").total == 2


@pytest.mark.rule("ABL-08")
def test_drain_lowers_the_score_itself() -> None:
    f = _fight()
    f.do({"type": "ability_damage", "target": "Tess", "ability": "str", "points": 1, "kind": "drain"})
    assert stats.ability_score(_tess(f), "str") == 15
    assert stats.ability_mod(_tess(f), "str").total == 2
    f.do({"type": "restore_ability", "target": "Tess", "ability": "str", "kind": "drain"})
    assert stats.ability_mod(_tess(f), "str").total == 3


@pytest.mark.rule("ABL-10")
def test_negative_levels_and_their_removal() -> None:
    f = _fight()
    f.do({"type": "negative_levels", "target": "Tess", "count": 2, "dc": 15})
    t = _tess(f)
    assert stats.armor_class(t, "kac").total == 16  # 18 - 2
    assert stats.max_hp(t).total == 20  # 30 - 2 x 5
    assert t.state.hp == 20
    f.do({"type": "remove_negative_levels", "target": "Tess"})
    t = _tess(f)
    assert stats.armor_class(t, "kac").total == 18
    assert stats.max_hp(t).total == 30 and t.state.hp == 20  # current HP stay


@pytest.mark.rule("CF-14")
def test_a_named_effect_lasts_its_rounds_by_initiative_count() -> None:
    f = _fight()
    f.do({"type": "add_effect", "target": "Ksarik", "name": "haze", "rounds": 1,
          "modifiers": [{"selector": "ac", "value": 2, "type": "insight"}]})  # fmt: skip
    assert stats.armor_class(f.state.get("Ksarik").creature, "kac").total == 17
    f.do(EndTurn(actor="Tess"))
    f.do(EndTurn(actor="Ksarik"))  # round 2 begins: Tess's count (20) comes first...
    assert not f.state.effects_on("Ksarik")  # ...and the effect began at count 20, so it ends just before it
    assert stats.armor_class(f.state.get("Ksarik").creature, "kac").total == 15


@pytest.mark.rule("DMG-09")
def test_ending_an_effect_ends_the_temporary_hp_it_granted() -> None:
    f = _fight()
    f.do({"type": "add_effect", "target": "Tess", "name": "shield", "temp_hp": 7})
    assert _tess(f).state.temp_hp == 7
    assert f.state.effects_on("Tess")[0].temp_hp == 7
    f.do({"type": "end_effect", "name": "shield"})
    assert _tess(f).state.temp_hp == 0
    assert not f.state.effects_on("Tess")
    with pytest.raises(SftError, match="no effect named 'shield'"):
        f.do({"type": "end_effect", "name": "shield"})


@pytest.mark.rule("ACT-77", "EFF-34", "ACT-16")
def test_concentration_ends_at_no_action_and_dismissing_takes_a_standard_action() -> None:
    f = _fight()
    f.do({"type": "add_effect", "target": "Ksarik", "name": "hold", "condition": "entangled",
          "concentration": "Tess"})  # fmt: skip
    f.do({"type": "add_effect", "target": "Ksarik", "name": "glow", "dismissible": "Tess",
          "modifiers": [{"selector": "ac", "value": -1}]})  # fmt: skip
    assert f.state.get("Ksarik").creature.has("entangled")
    f.do({"type": "dismiss", "actor": "Tess", "name": "hold"})
    assert not f.state.get("Ksarik").creature.has("entangled")
    assert f.state.get("Tess").spent == ()
    f.do({"type": "dismiss", "actor": "Tess", "name": "glow"})
    assert f.state.get("Tess").spent == ("standard",)
    assert not f.state.effects_on("Ksarik")
    with pytest.raises(SftError, match="no effect named 'glow'"):
        f.do({"type": "dismiss", "actor": "Tess", "name": "glow"})


@pytest.mark.rule("INJ-16", "CF-02")
def test_rest_after_the_fight_recovers_stamina_for_one_resolve() -> None:
    f = _fight()
    f.do({"type": "damage", "target": "Tess", "amount": 10})
    assert _tess(f).state.sp == 18
    f.do({"type": "end_combat"})
    with pytest.raises(RuleViolation) as e:
        f.do(EndTurn(actor="Tess"))
    assert e.value.rule == "CF-02"
    f.do({"type": "rest", "target": "Tess", "kind": "stamina"})
    t = _tess(f)
    assert (t.state.sp, t.state.rp) == (28, 4)
    f.do({"type": "heal", "target": "Tess", "hp": 1})  # other GM commands still work after the end


@pytest.mark.rule("CF-02")
def test_with_combat_ends_gm_the_fight_goes_on_when_a_side_is_down() -> None:
    f = _fight(options=Sf1eOptions(combat_ends="gm"))
    f.do({"type": "damage", "target": "Ksarik", "amount": 100})
    assert f.state.result is None
    f.do({"type": "end_combat"})
    assert f.state.result is not None


@pytest.mark.rule("CON-01", "CON-35")
def test_waking_a_sleeper_is_a_standard_action_and_the_unconscious_do_not_wake() -> None:
    t = combatant("Tess", "party", initiative=20, position=(0, 0))
    b = combatant("Bo", "party", initiative=15, position=(1, 0))
    k = combatant("Ksarik", "aliens", initiative=10, position=(5, 0))
    f = fight(encounter(t, b, k, map=OPEN), [])
    f.do(Begin())
    f.do({"type": "add_condition", "target": "Bo", "condition": "asleep"})
    f.do({"type": "wake", "actor": "Tess", "target": "Bo"})
    assert not f.state.get("Bo").creature.has("asleep")
    assert f.state.get("Tess").spent == ("standard",)
    with pytest.raises(RuleViolation) as e:
        f.do({"type": "wake", "actor": "Tess", "target": "Bo"})
    assert e.value.rule == "CON-01"


@pytest.mark.rule("CON-23")
def test_righting_yourself_is_a_move_action() -> None:
    f = _fight()
    with pytest.raises(RuleViolation) as e:
        f.do({"type": "right_yourself", "actor": "Tess"})
    assert e.value.rule == "CON-23"
    f.do({"type": "add_condition", "target": "Tess", "condition": "off-kilter"})
    f.do({"type": "right_yourself", "actor": "Tess"})
    assert not _tess(f).has("off-kilter")
    assert f.state.get("Tess").spent == ("move",)


@pytest.mark.rule("ACT-75")
def test_declaring_yourself_willing_takes_no_action_even_off_turn() -> None:
    from sftactics.encounter.gm import is_willing

    f = _fight()
    f.do({"type": "willing", "actor": "Ksarik", "toward": "Tess"})  # not Ksarik's turn: no matter
    assert is_willing(f.state, "Ksarik", "Tess") and not is_willing(f.state, "Ksarik", "Bo")
    assert f.state.get("Ksarik").spent == ()
    f.do({"type": "willing", "actor": "Ksarik", "toward": "Tess", "willing": False})
    assert not is_willing(f.state, "Ksarik", "Tess")


def test_a_scenario_with_one_side_runs_until_the_gm_ends_it() -> None:
    t = combatant("Tess", "party", initiative=20, position=(0, 0))
    f = fight(encounter(t, map=OPEN), [])
    f.do(Begin())
    f.do({"type": "damage", "target": "Tess", "amount": 5})
    f.do(EndTurn(actor="Tess"))
    assert f.state.result is None and f.state.timeline.round == 2
