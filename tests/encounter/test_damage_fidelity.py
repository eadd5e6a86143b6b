"""Damage by the book (issue 14): bleed does not stack, partial saves on grenades, the Arc critical effect,
thrown weapons that leave the hand (CON-02, SV-09, ATK-15, ATK-13, ACT-34)."""

from __future__ import annotations

import pytest

from sftactics.content.armory import find_weapon
from sftactics.encounter.commands import Begin, EndTurn, ThrowGrenade, UseAbility
from sftactics.encounter.engine import Fight
from sftactics.sf1e.state import ConditionInstance
from tests.builders import npc, pc
from tests.encounter.helpers import combatant, encounter, fight

MAP = """
..........
..........
..........
..........
"""


# ---------------------------------------------------------------- bleed (CON-02)
@pytest.mark.rule("CON-02")
def test_two_bleeds_from_different_sources_tick_only_the_worst() -> None:
    # bleed 1d4 (average 2.5) from one source, bleed 2 from another: only the 1d4 deals damage (3), not 3 + 2
    two = (
        ConditionInstance(name="bleeding", value="1d4", source="Ksarik's claw"),
        ConditionInstance(name="bleeding", value="2", source="a trap"),
    )
    t = combatant("Tess", "party", pc(name="Tess").with_state(conditions=two), initiative=20, position=(0, 0))
    k = combatant("Ksarik", "aliens", initiative=25, position=(5, 0))
    f = fight(encounter(t, k, map=MAP), [3])
    f.do(Begin())
    f.do(EndTurn(actor="Ksarik"))  # Tess's turn starts
    assert f.state.creature("Tess").state.sp == 28 - 3


@pytest.mark.rule("CON-02")
def test_the_worse_bleed_ticks_whichever_came_first() -> None:
    two = (
        ConditionInstance(name="bleeding", value="1", source="a scratch"),
        ConditionInstance(name="bleeding", value="1d6+1", source="a wound"),
    )
    t = combatant("Tess", "party", pc(name="Tess").with_state(conditions=two), initiative=20, position=(0, 0))
    k = combatant("Ksarik", "aliens", initiative=25, position=(5, 0))
    f = fight(encounter(t, k, map=MAP), [4])
    f.do(Begin())
    f.do(EndTurn(actor="Ksarik"))
    assert f.state.creature("Tess").state.sp == 28 - 5


# ---------------------------------------------------------------- partial saves (SV-09, explode)
OPEN = "\n".join(["." * 12] * 8)


def grenadier(grenade: str, dice: list[int], **positions: tuple[int, int]) -> Fight:
    """Tess (Dex +2) carries the bundled ``grenade``; an alien (Reflex +4, 20 HP) at each named position."""
    w = find_weapon(grenade)
    assert w is not None
    tess = pc(name="Tess", weapons=[w.model_dump()])
    cs = [combatant("Tess", "party", tess, initiative=30, position=(0, 0))]
    for i, (name, at) in enumerate(positions.items()):
        cs.append(combatant(name.capitalize(), "aliens", npc(name=name.capitalize(), hp=20), initiative=10 - i,
                            position=at))  # fmt: skip
    f = fight(encounter(*cs, map=OPEN), dice)
    f.do(Begin())
    return f


@pytest.mark.rule("SV-09", "DMG-14", "CON-05", "ATK-12")
def test_an_incendiary_grenade_halves_on_a_save_and_sets_on_fire_on_a_failure() -> None:
    # incendiary grenade II: 2d6 F, 10-ft burst, burning 1d6 on a failed Reflex save, DC 10 + 3 + 2 = 15.
    # Throw at 6,4 (30 ft: -2): d20 10 + 7 - 2 = 15 vs AC 5 hits. Damage 2d6 = 4 + 5 = 9.
    # Goblin saves (d20 14 + 4 = 18): half, 4, and no burning. Ogre fails (d20 3 + 4 = 7): 9 and burning 1d6.
    f = grenadier("incendiary grenade II", [10, 4, 5, 14, 3], goblin=(5, 3), ogre=(6, 4))
    f.do(ThrowGrenade(actor="Tess", weapon="incendiary grenade II", at=(6, 4)))
    goblin, ogre = f.state.creature("Goblin"), f.state.creature("Ogre")
    assert goblin.state.hp == 20 - 4 and not goblin.has("burning")
    assert ogre.state.hp == 20 - 9
    burning = [i for i in ogre.state.conditions if i.name == "burning"]
    assert [(i.value, i.source) for i in burning] == [("1d6", "incendiary grenade II")]


@pytest.mark.rule("SV-09", "CON-31")
def test_a_cryo_grenade_staggers_only_those_who_fail() -> None:
    # cryo grenade I: 1d8 C, 10-ft burst, staggered 1 round on a failure; DC 10 + 3 + 2 = 15.
    # Hit (d20 12); damage 1d8 = 6; Goblin saves (d20 11 + 4 = 15): 3; Ogre fails (d20 10 + 4 = 14): 6, staggered
    f = grenadier("cryo grenade I", [12, 6, 11, 10], goblin=(5, 3), ogre=(6, 4))
    f.do(ThrowGrenade(actor="Tess", weapon="cryo grenade I", at=(6, 4)))
    goblin, ogre = f.state.creature("Goblin"), f.state.creature("Ogre")
    assert (goblin.state.hp, goblin.has("staggered")) == (17, False)
    assert (ogre.state.hp, ogre.has("staggered")) == (14, True)


@pytest.mark.rule("SV-09", "CON-03")
def test_a_flash_grenade_blinds_for_the_rolled_rounds_on_a_failure() -> None:
    # flash grenade II: no damage, 10-ft burst, blinded 1d4 rounds, printed DC 13 + Dex 2 = 15 (negated by a save)
    # Hit (d20 12); Goblin fails (d20 5 + 4 = 9): blinded 1d4 = 3 rounds; Ogre saves (d20 18 + 4): nothing
    f = grenadier("flash grenade II", [12, 5, 3, 18], goblin=(5, 3), ogre=(6, 4))
    f.do(ThrowGrenade(actor="Tess", weapon="flash grenade II", at=(6, 4)))
    blind = [i for i in f.state.creature("Goblin").state.conditions if i.name == "blinded"]
    assert [i.rounds for i in blind] == [3]
    assert not f.state.creature("Ogre").has("blinded")


@pytest.mark.rule("SV-09", "DMG-14", "ACT-21")
def test_an_ability_with_a_partial_save_deals_half_and_no_conditions_on_a_success() -> None:
    tess = combatant("Tess", "party", pc(name="Tess"), initiative=5, position=(4, 1))
    drake = combatant("Drake", "aliens", npc(name="Drake"), initiative=30, position=(1, 1))
    f = fight(encounter(tess, drake, map=OPEN), [3, 4, 5, 19])
    f.do(Begin())
    f.do(UseAbility(actor="Drake", name="frost breath", area={"shape": "cone", "size_ft": 30, "at": [2, 2],
                                                             "direction": "E"},
                    save={"type": "ref", "dc": 13, "on_save": "partial"}, damage="3d6 C",
                    conditions=[{"name": "staggered", "rounds": 1}]))  # fmt: skip
    # 3 + 4 + 5 = 12; Tess saves (d20 19 + 3): half, 6, and not staggered
    assert f.state.creature("Tess").state.sp == 28 - 6
    assert not f.state.creature("Tess").has("staggered")


@pytest.mark.rule("SV-09")
def test_the_compiled_kernel_refuses_grenades_with_riders() -> None:
    from sftactics.sim.kernel.model import unsupported

    f = grenadier("incendiary grenade I", [], goblin=(5, 3))
    assert any("incendiary grenade I" in why for why in unsupported(f.start))
