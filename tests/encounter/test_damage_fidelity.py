"""Damage by the book (issue 14): bleed does not stack, partial saves on grenades, the Arc critical effect,
thrown weapons that leave the hand (CON-02, SV-09, ATK-15, ATK-13, ACT-34)."""

from __future__ import annotations

import pytest

from sftactics.content.armory import find_weapon
from sftactics.core.errors import RuleViolation
from sftactics.encounter.commands import (
    Attack,
    Begin,
    EndTurn,
    FullAttack,
    Move,
    PickUp,
    ThrowGrenade,
    UseAbility,
)
from sftactics.encounter.engine import Fight
from sftactics.encounter.events import EVENT_ADAPTER, replay
from sftactics.sf1e.options import Sf1eOptions
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
def test_the_compiled_kernel_plays_burning_riders_and_refuses_blinding_ones() -> None:
    from sftactics.sim.kernel.model import unsupported

    f = grenadier("incendiary grenade I", [], goblin=(5, 3))
    assert not any("incendiary grenade I" in why for why in unsupported(f.start))
    f = grenadier("flash grenade I", [], goblin=(5, 3))
    assert any("flash grenade I" in why and "blinded" in why for why in unsupported(f.start))


# ---------------------------------------------------------------- Arc (ATK-15)
def arc_fight(dice: list[int], options: Sf1eOptions | None = None, **positions: tuple[int, int]) -> Fight:
    """Tess (static arc pistol: 1d6 E, Arc 2) at ``tess`` (default 0,0), acting first; the others are aliens
    with 20 HP unless named ``ally_*`` (Tess's side)."""
    pistol = find_weapon("static arc pistol")
    assert pistol is not None and pistol.critical == "Arc 2"
    tess = pc(name="Tess", weapons=[pistol.model_dump()])
    cs = [combatant("Tess", "party", tess, initiative=30, position=positions.pop("tess", (0, 0)))]
    for i, (name, at) in enumerate(positions.items()):
        side = "party" if name.startswith("ally") else "aliens"
        cid = name.capitalize()
        cs.append(combatant(cid, side, npc(name=cid, hp=20), initiative=10 - i, position=at))
    kw = {"options": options} if options is not None else {}
    f = fight(encounter(*cs, map=OPEN, **kw), dice)
    f.do(Begin())
    return f


@pytest.mark.rule("ATK-15", "ATK-14")
def test_an_arc_leaps_to_the_nearest_creature_within_10_ft() -> None:
    # natural 20 against EAC 13: critical; 1d6 twice = 3 + 4 = 7 to Goblin; the arc's 2 electricity (not
    # doubled) to Ogre, 5 ft from Goblin; Troll, 10 ft from Goblin, is farther and takes nothing
    f = arc_fight([20, 3, 4], goblin=(5, 0), ogre=(6, 0), troll=(5, 2))
    events = f.do(Attack(actor="Tess", target="Goblin"))
    assert f.state.creature("Goblin").state.hp == 13
    assert f.state.creature("Ogre").state.hp == 18
    assert f.state.creature("Troll").state.hp == 20
    attack = next(e for e in events if e.type == "attack_made")
    assert any("arc 2" in line and "Ogre" in line for line in attack.lines)


@pytest.mark.rule("ATK-15")
def test_no_arc_beyond_10_ft_and_never_to_the_attacker_by_default() -> None:
    # Tess is adjacent to Goblin; Ogre is 15 ft from Goblin: the arc finds no one
    f = arc_fight([20, 3, 4], tess=(4, 0), goblin=(5, 0), ogre=(8, 0))
    f.do(Attack(actor="Tess", target="Goblin"))
    assert f.state.creature("Ogre").state.hp == 20
    assert f.state.creature("Tess").state.sp == 28


@pytest.mark.rule("ATK-15")
def test_the_option_lets_the_arc_strike_the_attacker() -> None:
    f = arc_fight([20, 3, 4], Sf1eOptions(arc_can_strike_attacker=True), tess=(4, 0), goblin=(5, 0), ogre=(8, 0))
    f.do(Attack(actor="Tess", target="Goblin"))
    assert f.state.creature("Tess").state.sp == 28 - 2


@pytest.mark.rule("ATK-15")
def test_among_equally_near_creatures_the_attacker_chooses() -> None:
    # Ally (Tess's side) at 5,1 and Ogre at 6,0 are both 5 ft from Goblin: without a choice, the enemy
    f = arc_fight([20, 3, 4], goblin=(5, 0), ally=(5, 1), ogre=(6, 0))
    f.do(Attack(actor="Tess", target="Goblin"))
    assert (f.state.creature("Ogre").state.hp, f.state.creature("Ally").state.hp) == (18, 20)
    # the attacker may name the other one
    f = arc_fight([20, 3, 4], goblin=(5, 0), ally=(5, 1), ogre=(6, 0))
    f.do(Attack(actor="Tess", target="Goblin", arc_to="Ally"))
    assert (f.state.creature("Ogre").state.hp, f.state.creature("Ally").state.hp) == (20, 18)


@pytest.mark.rule("ATK-15")
def test_an_arc_to_a_creature_that_is_not_nearest_is_refused() -> None:
    f = arc_fight([20, 3, 4], goblin=(5, 0), ogre=(6, 0), troll=(5, 2))
    with pytest.raises(RuleViolation) as e:
        f.do(Attack(actor="Tess", target="Goblin", arc_to="Troll"))
    assert e.value.rule == "ATK-15"
    assert f.state.timeline.turn == "Tess" and f.state.get("Tess").spent == ()


# ---------------------------------------------------------------- thrown weapons (ATK-04, ATK-13, ACT-34)
def baton_fight(dice: list[int], **positions: tuple[int, int]) -> Fight:
    """Tess (the armory's tactical baton: melee, operative, thrown 20 ft) at ``tess`` (default 0,0) acts first;
    an alien (KAC 15, 20 HP) at each other named position."""
    baton = find_weapon("tactical baton")
    assert baton is not None and baton.thrown and baton.is_melee
    tess = pc(name="Tess", weapons=[baton.model_dump()])
    cs = [combatant("Tess", "party", tess, initiative=30, position=positions.pop("tess", (0, 0)))]
    for i, (name, at) in enumerate(positions.items()):
        cid = name.capitalize()
        cs.append(combatant(cid, "aliens", npc(name=cid, hp=20), initiative=10 - i, position=at))
    f = fight(encounter(*cs, map=OPEN), dice)
    f.do(Begin())
    return f


def next_turn(f: Fight) -> None:
    """End Tess's turn and everyone else's until Tess's next turn."""
    f.do(EndTurn(actor="Tess"))
    while f.state.timeline.turn != "Tess":
        turn = f.state.timeline.turn
        assert turn is not None
        f.do(EndTurn(actor=turn))


@pytest.mark.rule("ATK-04", "DMG-02", "ACT-34")
def test_a_thrown_baton_leaves_the_hand_and_lies_in_the_targets_square() -> None:
    # Goblin is 15 ft away, beyond the baton's reach: it is thrown. BAB 4 + Str 3 = +7 (a thrown attack uses
    # Strength even for an operative weapon): d20 12 + 7 = 19 vs KAC 15 hits; 1d4 2 + Str 3 = 5
    f = baton_fight([12, 2], goblin=(3, 0))
    f.do(Attack(actor="Tess", target="Goblin", weapon="tactical baton"))
    assert f.state.creature("Goblin").state.hp == 15
    assert f.state.get("Tess").on_ground == {"tactical baton": [3, 0]}
    next_turn(f)
    with pytest.raises(RuleViolation) as e:
        f.do(Attack(actor="Tess", target="Goblin", weapon="tactical baton"))
    assert e.value.rule == "ACT-34"


@pytest.mark.rule("ATK-13", "ACT-34")
def test_a_missed_throw_scatters_and_the_weapon_is_picked_up_as_a_move_action() -> None:
    # d20 3 + 7 = 10 misses KAC 15; d8 1: back toward the thrower; d4 2: two squares short of 5,2, at 3,2
    f = baton_fight([3, 1, 2], tess=(0, 2), goblin=(5, 2))
    f.do(Attack(actor="Tess", target="Goblin", weapon="tactical baton"))
    assert f.state.get("Tess").on_ground == {"tactical baton": [3, 2]}
    with pytest.raises(RuleViolation) as e:  # 15 ft away: out of reach
        f.do(PickUp(actor="Tess", weapon="tactical baton"))
    assert e.value.rule == "ACT-34"
    f.do(Move(actor="Tess", to=(2, 2)))
    next_turn(f)
    f.do(PickUp(actor="Tess", weapon="tactical baton"))
    tess = f.state.get("Tess")
    assert tess.on_ground == {} and tess.spent == ("move",)


@pytest.mark.rule("ATK-02", "ACT-34")
def test_a_baton_strikes_in_melee_within_reach_and_stays_in_hand() -> None:
    # adjacent: a melee attack, operative: BAB 4 + Dex 2 = +6: d20 10 + 6 = 16 vs KAC 15; 1d4 3 + Str 3 = 6
    f = baton_fight([10, 3], tess=(2, 0), goblin=(3, 0))
    events = f.do(Attack(actor="Tess", target="Goblin", weapon="tactical baton"))
    assert f.state.creature("Goblin").state.hp == 14
    assert f.state.get("Tess").on_ground == {}
    attack = next(e for e in events if e.type == "attack_made")
    assert not any("range" in line for line in attack.lines)


@pytest.mark.rule("ATK-04", "ACT-34")
def test_throwing_at_an_adjacent_target_on_request() -> None:
    # throw: BAB 4 + Str 3 = +7: d20 10 + 7 = 17 hits; 1d4 1 + 3 = 4; the baton lies in the Goblin's square
    f = baton_fight([10, 1], tess=(2, 0), goblin=(3, 0))
    f.do(Attack(actor="Tess", target="Goblin", weapon="tactical baton", throw=True))
    assert f.state.creature("Goblin").state.hp == 16
    assert f.state.get("Tess").on_ground == {"tactical baton": [3, 0]}


@pytest.mark.rule("ACT-53", "ACT-34")
def test_a_full_attack_cannot_throw_the_same_baton_twice() -> None:
    f = baton_fight([], goblin=(3, 0))
    with pytest.raises(RuleViolation) as e:
        f.do(FullAttack(actor="Tess", target="Goblin", weapon="tactical baton"))
    assert e.value.rule == "ACT-34"


@pytest.mark.rule("ACT-34")
def test_where_a_thrown_weapon_lies_survives_a_replay_from_json() -> None:
    f = baton_fight([3, 1, 2], tess=(0, 2), goblin=(5, 2))
    f.do(Attack(actor="Tess", target="Goblin", weapon="tactical baton"))
    events = [EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(e)) for batch in f.events for e in batch]
    assert replay(f.start, events) == f.state
