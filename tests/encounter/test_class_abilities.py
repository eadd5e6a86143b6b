"""Class abilities as stat-block abilities: attack riders (trick attack), marks (get 'em), Resolve-costed heals
(healing channel) and passive numbers (a fighting style); sf1e.class_abilities, encounter.class_moves."""

from __future__ import annotations

from typing import Any

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.commands import Attack, Begin, EndTurn, UseAbility
from sftactics.encounter.engine import Fight
from sftactics.sf1e import class_abilities as ca
from sftactics.sf1e import stats
from sftactics.sf1e.state import Creature
from sftactics.sf1e.usable import UsableAbility
from tests.builders import npc, pc
from tests.encounter.helpers import combatant, encounter, fight

OPEN = "........\n........\n........\n........\n"

TRICK: dict[str, Any] = {
    "name": "trick attack",
    "action": "full",
    "target": "Gob",
    "weapon": "tactical semi-auto pistol",
    "rider": {"check": {"skills": ["stealth", "bluff"]}, "extra_damage": "1d8", "flat_footed": True, "move": True,
              "weapons": "operative_or_small_arm"},
}  # fmt: skip


def _tess(**kw: Any) -> Creature:
    return pc(name="Tess", skills={"stealth": 10}, **kw)


def _two(dice: list[int], tess: Creature | None = None, gob_at: tuple[int, int] = (5, 1)) -> Fight:
    t = combatant("Tess", "party", tess or _tess(), initiative=30, position=(1, 1))
    g = combatant("Gob", "aliens", npc(name="Gob"), initiative=5, position=gob_at)
    f = fight(encounter(t, g, map=OPEN), dice)
    f.do(Begin())
    return f


def _use(**kw: Any) -> UseAbility:
    return UseAbility.model_validate({"actor": "Tess", **kw})


# ---------------------------------------------------------------- numbers from the class tables
@pytest.mark.rule("X-04")
def test_class_table_numbers() -> None:
    assert [ca.trick_attack_dice(n) for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)] == [
        "1d4", "1d4", "1d8", "1d8", "3d8", "3d8", "4d8", "4d8", "5d8", "5d8"]  # fmt: skip
    assert [ca.get_em_bonus(n) for n in (1, 4, 5, 8, 9, 13)] == [1, 1, 2, 2, 3, 4]
    assert [ca.healing_channel_dice(n) for n in (1, 2, 3, 5, 6, 9, 10)] == ["2d8", "2d8", "4d8", "4d8", "6d8", "8d8",
                                                                            "8d8"]  # fmt: skip


# ---------------------------------------------------------------- trick attack
@pytest.mark.rule("X-04", "CON-18")
def test_trick_attack_success_adds_dice_and_flat_footed() -> None:
    # Stealth 10 + d20 12 = 22 vs DC 20 + CR 2 = 22; pistol +6 (BAB 4, Dex 2) + d20 7 = 13 vs KAC 15 - 2 = 13: a hit
    f = _two([12, 7, 4, 5])  # check, attack, 1d6 = 4, 1d8 = 5
    events = f.do(_use(**TRICK))
    gob = f.state.creature("Gob")
    assert gob.state.hp == 25 - 9
    checks = [e for e in events if e.type == "check_made"]
    assert checks[0].success and "DC 22" in checks[0].what
    attack = next(e for e in events if e.type == "attack_made")
    assert attack.hit and attack.damage == 9
    ac = attack.result.ac
    assert ac is not None and ac.total == 13
    assert any(t.rule == "CON-18" and t.value == -2 for t in ac.terms)


@pytest.mark.rule("X-04", "CON-18", "MOD-20", "BON-12")
def test_trick_attacks_flat_footed_counts_once_beside_an_unseen_attackers() -> None:
    """Flat-footed is one condition: a target that does not see the trick attacker is flat-footed against it
    already (MOD-20), and the rider's -2 AC does not come on top of it (the same penalty, BON-12)."""
    from sftactics.sf1e.attack import Situation, target_ac
    from sftactics.sf1e.senses import Awareness, unseen_attack_terms

    tess, gob = _tess(), npc(name="Gob")
    pistol = next(w for w in tess.stat.weapons if w.name == "tactical semi-auto pistol")

    def ac(*terms: Any) -> int:
        return target_ac(tess, gob, pistol, Situation(ac_terms=terms))[2].total

    unseen = unseen_attack_terms(Awareness.AWARE_OF_LOCATION)
    trick = ca.flat_footed_term("trick attack")
    assert ac(trick) == ac(*unseen) == ac() - 2
    assert ac(*unseen, trick) == ac() - 2


@pytest.mark.rule("X-04")
def test_trick_attack_failed_check_is_a_plain_attack() -> None:
    f = _two([5, 9, 4])  # 15 < 22: no extra dice, no flat-footed; 9 + 6 = 15 vs KAC 15 hits for 1d6 = 4
    events = f.do(_use(**TRICK))
    assert f.state.creature("Gob").state.hp == 21
    attack = next(e for e in events if e.type == "attack_made")
    assert attack.result.ac is not None and attack.result.ac.total == 15


@pytest.mark.rule("X-04")
def test_trick_attack_moves_first() -> None:
    f = _two([12, 7, 4, 5], gob_at=(7, 3))
    f.do(_use(**{**TRICK, "to": [3, 1]}))
    assert f.state.get("Tess").position == (3, 1)
    assert f.state.creature("Gob").state.hp == 16


@pytest.mark.rule("X-04")
def test_trick_attack_refusals_change_nothing() -> None:
    f = _two([12, 7, 4, 5])
    before = f.state
    for bad in ({"weapon": "tactical baton"},  # a basic melee weapon without the operative property
                {"action": "standard", "to": [2, 2], "rider": {**TRICK["rider"], "move": False}}):  # fmt: skip
        with pytest.raises(RuleViolation) as e:
            f.do(_use(**{**TRICK, **bad}))
        assert e.value.rule == "X-04"
        assert f.state == before


# ---------------------------------------------------------------- get 'em
def _party(dice: list[int]) -> Fight:
    t = combatant("Tess", "party", _tess(), initiative=30, position=(1, 1))
    k = combatant("Krask", "party", pc(name="Krask"), initiative=20, position=(1, 2))
    g = combatant("Gob", "aliens", npc(name="Gob"), initiative=5, position=(5, 1))
    h = combatant("Hob", "aliens", npc(name="Hob"), initiative=4, position=(6, 3))
    f = fight(encounter(t, k, g, h, map=OPEN), dice)
    f.do(Begin())
    return f


GET_EM: dict[str, Any] = {"name": "get 'em", "action": "move", "target": "Gob", "range_ft": 60,
                          "mark": {"bonus": 1, "type": "morale"}}  # fmt: skip


@pytest.mark.rule("X-04", "BON-13", "BON-01")
def test_get_em_gives_the_side_a_morale_bonus_against_one_foe() -> None:
    f = _party([])
    f.do(_use(**GET_EM))
    krask = f.state.creature("Krask")
    pistol = krask.stat.weapon("pistol")
    on_gob = stats.attack_bonus(krask, pistol, tags=frozenset({ca.target_tag("Gob")}))
    on_hob = stats.attack_bonus(krask, pistol, tags=frozenset({ca.target_tag("Hob")}))
    assert on_gob.total == on_hob.total + 1
    assert any(t.type == "morale" and t.value == 1 for t in on_gob.applied)
    # a second envoy's get 'em on the same foe: morale bonuses do not stack (BON-01)
    f.do(_use(**{**GET_EM, "name": "get 'em again", "action": "standard"}))
    krask = f.state.creature("Krask")
    assert stats.attack_bonus(krask, pistol, tags=frozenset({ca.target_tag("Gob")})).total == on_gob.total


@pytest.mark.rule("X-04")
def test_get_em_counts_in_an_allys_attack_and_ends_at_the_users_next_turn() -> None:
    f = _party([10, 3])
    f.do(_use(**GET_EM))
    f.do(EndTurn(actor="Tess"))
    ev = f.do(Attack(actor="Krask", target="Gob", weapon="tactical semi-auto pistol"))
    attack = next(e for e in ev if e.type == "attack_made")
    assert any("get 'em" in t.label and t.value == 1 for t in attack.result.roll.bonus.terms)
    f.do(EndTurn(actor="Krask"))
    for cid in ("Gob", "Hob"):
        if f.state.timeline.turn == cid:
            f.do(EndTurn(actor=cid))
    assert f.state.timeline.turn == "Tess"
    assert not any("get 'em" in e.name for e in f.state.effects)


@pytest.mark.rule("X-04")
def test_get_em_refuses_an_ally_and_a_foe_out_of_range() -> None:
    f = _party([])
    before = f.state
    for bad in ({"target": "Krask"}, {"range_ft": 10}):
        with pytest.raises(RuleViolation):
            f.do(_use(**{**GET_EM, **bad}))
        assert f.state == before


# ---------------------------------------------------------------- healing channel
CHANNEL: dict[str, Any] = {"name": "healing channel", "kind": "Su", "heal": "4d8", "resolve_cost": 1}


@pytest.mark.rule("X-04", "INJ-18")
def test_healing_channel_on_oneself_is_a_move_action_costing_resolve() -> None:
    f = _two([1, 2, 3, 4], tess=_tess().with_state(hp=10))
    f.do(_use(**CHANNEL, action="move", self_only=True))
    tess = f.state.creature("Tess")
    assert tess.state.hp == 20 and tess.state.rp == 4


@pytest.mark.rule("X-04")
def test_healing_channel_touch_and_burst() -> None:
    t = combatant("Tess", "party", _tess(), initiative=30, position=(1, 1))
    k = combatant("Krask", "party", pc(name="Krask").with_state(hp=5), initiative=20, position=(4, 1))
    m = combatant("Mo", "party", pc(name="Mo").with_state(hp=5), initiative=19, position=(7, 3))
    g = combatant("Gob", "aliens", npc(name="Gob"), initiative=5, position=(7, 0))
    f = fight(encounter(t, k, m, g, map=OPEN), [2, 2, 2, 2])
    f.do(Begin())
    before = f.state
    with pytest.raises(RuleViolation):  # touch: Krask is 15 ft away
        f.do(_use(**CHANNEL, target="Krask", range_ft=0))
    assert f.state == before
    f.do(_use(**CHANNEL, action="full", allies_ft=30))  # 4d8 = 8 to Krask (15 ft) and Tess; Mo is 35 ft away
    assert f.state.creature("Krask").state.hp == 13
    assert f.state.creature("Mo").state.hp == 5
    assert f.state.creature("Tess").state.rp == 4


@pytest.mark.rule("X-04")
def test_no_resolve_no_channel() -> None:
    f = _two([1, 2, 3, 4], tess=_tess().with_state(hp=10, rp=0))
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.do(_use(**CHANNEL, action="move", self_only=True))
    assert e.value.rule == "X-04" and f.state == before


# ---------------------------------------------------------------- fighting style
@pytest.mark.rule("X-04")
def test_passive_numbers_change_initiative_and_speed() -> None:
    style = {"name": "rapid response", "target": "passive",
             "passive": [{"selector": "initiative", "value": 4}, {"selector": "speed.land", "value": 10,
                                                                    "type": "enhancement"}]}  # fmt: skip
    plain, styled = _tess(), _tess(specials=[style])
    assert stats.initiative(styled).total == stats.initiative(plain).total + 4
    assert stats.speed(styled).total == stats.speed(plain).total + 10
    assert any(t.label == "rapid response" for t in stats.initiative(styled).applied)


def test_schema_refuses_inconsistent_class_abilities() -> None:
    with pytest.raises(ValueError):
        UsableAbility.model_validate({"name": "x", "target": "ally", "mark": {"bonus": 1}})
    with pytest.raises(ValueError):
        UsableAbility.model_validate({"name": "x", "target": "passive"})
    with pytest.raises(ValueError):
        UsableAbility.model_validate({"name": "x", "target": "self"})


@pytest.mark.rule("X-04", "CON-18")
def test_the_attack_command_plays_a_rider() -> None:
    from sftactics.dice.source import ScriptedDice
    from sftactics.sf1e.attack import Situation, resolve_attack

    tess, gob = _tess(specials=[{"name": "trick attack", "target": "foe", **{"rider": TRICK["rider"]}}]), npc()
    pistol = tess.stat.weapon("tactical semi-auto pistol")
    dice = ScriptedDice([12, 7, 4, 5])
    used, ac, lines = ca.rider_attack(tess, gob, "Trick Attack", pistol, dice)
    assert used.damage == "1d6+1d8 P" and ac[0].value == -2 and "DC 22" in lines[0]
    r = resolve_attack(tess, gob, used, dice, Situation(ac_terms=ac))
    assert r.hit and r.ac.total == 13 and r.damage is not None and r.damage.amount == 9
