"""Grenades, area effects and special abilities in a fight (ATK-12, ATK-13, EFF-*, SV-09, ACT-21, AOO-11)."""

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.commands import Begin, EndTurn, ThrowGrenade, UseAbility
from tests.builders import npc, pc
from tests.encounter.helpers import combatant, encounter, fight

OPEN = "\n".join(["." * 12] * 8)


def party(dice: list[int], *, map: str = OPEN, **positions: tuple[int, int]) -> object:
    cs = [combatant("Tess", "party", initiative=30, position=positions.get("tess", (0, 0)))]
    for i, (name, at) in enumerate((k, v) for k, v in positions.items() if k != "tess"):
        cs.append(combatant(name.capitalize(), "aliens", npc(name=name.capitalize(), hp=20), initiative=10 - i,
                            position=at))  # fmt: skip
    f = fight(encounter(*cs, map=map), dice)
    f.do(Begin())
    return f


@pytest.mark.rule("ATK-12", "EFF-03", "SV-09", "DMG-14")
def test_a_grenade_hits_the_intersection_and_everyone_in_the_burst_saves_for_half() -> None:
    # Tess throws her frag grenade I (1d6 P, 15-ft burst, DC 12) at point 6,4 (between squares 5,3 and 6,4),
    # 30 ft away (-2 range): d20 5 + 7 - 2 = 10 vs AC 5 hits; damage 1d6 = 4; Goblin saves (15 + 4 = 19): 2;
    # Ogre fails (d20 2 + 4 = 6): 4
    f = party([5, 4, 15, 2], goblin=(5, 3), ogre=(7, 5))
    events = f.do(ThrowGrenade(actor="Tess", weapon="frag grenade", at=(6, 4)))
    throw = next(e for e in events if e.type == "attack_made")
    assert throw.hit and "[ATK-12]" in throw.lines[0] and "vs 5: success" in "\n".join(throw.lines)
    assert f.state.creature("Goblin").state.hp == 18
    assert f.state.creature("Ogre").state.hp == 16
    assert f.state.get("Tess").ammo["frag grenade I"] == 0
    f.do(EndTurn(actor="Tess"))
    f.do(EndTurn(actor="Goblin"))
    f.do(EndTurn(actor="Ogre"))
    with pytest.raises(RuleViolation) as e:
        f.do(ThrowGrenade(actor="Tess", weapon="frag grenade", at=(6, 4)))
    assert e.value.rule == "ACT-36"
    assert "Tess has no frag grenade I left to throw" in str(e.value) and "reload" not in str(e.value)


@pytest.mark.rule("ATK-13", "EX-07")
def test_a_missed_grenade_scatters() -> None:
    # natural 1 misses; d8 1 = back toward the thrower, d4 2: two squares short (EX-07)
    f = party([1, 1, 2, 3, 10], tess=(0, 4), goblin=(9, 4))
    events = f.do(ThrowGrenade(actor="Tess", weapon="frag grenade", at=(8, 4)))
    throw = next(e for e in events if e.type == "attack_made")
    assert not throw.hit and throw.target == "6,4" and "[ATK-13]" in throw.lines[-1]


@pytest.mark.rule("ATK-11", "ATK-12")
def test_a_grenade_beyond_five_increments_is_refused() -> None:
    wide = "\n".join(["." * 40] * 3)
    f = party([], map=wide, goblin=(39, 2))
    with pytest.raises(RuleViolation) as e:
        f.do(ThrowGrenade(actor="Tess", weapon="frag grenade", at=(30, 1)))  # 150 ft > 5 x 20 ft
    assert e.value.rule == "ATK-11"


@pytest.mark.rule("MOD-14", "MOD-08")
def test_total_cover_from_the_burst_keeps_a_creature_out() -> None:
    walled = OPEN + "\n\nwall 7,0..7,7 W"
    f = party([10, 3, 2], map=walled, goblin=(5, 3), ogre=(7, 3))
    f.do(ThrowGrenade(actor="Tess", weapon="frag grenade", at=(6, 4)))
    assert f.state.creature("Ogre").state.hp == 20


@pytest.mark.rule("ACT-21", "EFF-05", "SPA-01")
def test_a_breath_weapon_cone() -> None:
    tess = combatant("Tess", "party", pc(name="Tess"), initiative=5, position=(4, 1))
    drake = combatant("Drake", "aliens", npc(name="Drake"), initiative=30, position=(1, 1))
    f = fight(encounter(tess, drake, map=OPEN), [3, 4, 5, 1])
    f.do(Begin())
    events = f.do(UseAbility(actor="Drake", name="fire breath", area={"shape": "cone", "size_ft": 30,
                                                                        "at": [2, 2], "direction": "E"},
                             save={"type": "ref", "dc": 13}, damage="3d6 F"))  # fmt: skip
    # 3 + 4 + 5 = 12 fire; Tess's Reflex +3: d20 1 fails: 12 damage to Stamina
    assert f.state.creature("Tess").state.sp == 28 - 12
    assert any(e.type == "check_made" for e in events)


@pytest.mark.rule("ACT-21", "ATK-16")
def test_a_single_target_ability_with_an_attack_roll_and_a_condition() -> None:
    tess = combatant("Tess", "party", pc(name="Tess"), initiative=5, position=(4, 1))
    eel = combatant("Eel", "aliens", npc(name="Eel"), initiative=30, position=(1, 1))
    f = fight(encounter(tess, eel, map=OPEN), [15, 4])
    f.do(Begin())
    f.do(UseAbility(actor="Eel", name="shock ray", target="Tess", attack={"vs": "eac", "bonus": 6},
                    damage="1d6 E", conditions=[{"name": "staggered", "rounds": 1}]))  # fmt: skip
    t = f.state.creature("Tess")
    assert t.state.sp == 24 and t.has("staggered")


@pytest.mark.rule("AOO-11", "SPA-02", "ACT-12")
def test_a_spell_like_ability_used_while_threatened_provokes_and_is_spoiled_by_damage() -> None:
    tess = combatant("Tess", "party", pc(name="Tess"), initiative=5, position=(2, 1))
    mystic = combatant("Seer", "aliens", npc(name="Seer"), initiative=30, position=(1, 1))
    f = fight(encounter(tess, mystic, map=OPEN), [15, 4, 12])
    f.do(Begin())
    f.do(EndTurn(actor="Seer"))
    f.do(EndTurn(actor="Tess"))  # Tess has acted: she can react
    events = f.do(UseAbility(actor="Seer", name="mind thrust", kind="Sp", target="Tess",
                             save={"type": "will", "dc": 14}, damage="2d8"))  # fmt: skip
    reaction = [e for e in events if e.type == "attack_made" and e.reaction]
    assert reaction and reaction[0].hit
    assert any(e.type == "note" and "AOO-11" in e.rule for e in events)
    assert f.state.creature("Tess").state.sp == 28


@pytest.mark.rule("ACT-10", "ACT-14", "ACT-21")
def test_activating_an_item_or_keeping_up_an_effect_is_a_standard_action_that_does_not_provoke() -> None:
    tess = combatant("Tess", "party", pc(name="Tess"), initiative=30, position=(2, 1))
    gob = combatant("Gob", "aliens", npc(name="Gob"), initiative=5, position=(3, 1))
    f = fight(encounter(tess, gob, map=OPEN), [2])
    f.do(Begin())
    flash = UseAbility(
        actor="Tess",
        name="flash projector",
        kind="item",
        target="Gob",
        save={"type": "fort", "dc": 15},
        conditions=[{"name": "dazzled", "rounds": 1}],
    )
    events = f.do(flash)
    assert f.state.get("Tess").spent == ("standard",)
    assert not any(e.type == "attack_made" and e.reaction for e in events)
    assert f.state.creature("Gob").has("dazzled")  # Fort +4: d20 2 + 4 = 6 fails against DC 15
