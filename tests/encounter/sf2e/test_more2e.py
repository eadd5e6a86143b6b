"""Still more E2 items through the engine: temporary HP, fast healing and regeneration at the start of a turn,
damage while dying and wounded, massive damage, unconscious and blinded in a Strike's numbers, quickened,
difficult terrain."""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.engine import Fight
from sftactics.encounter.sf2e.events2e import Strike2eMade
from sftactics.encounter.sf2e.model import Body2e

from .helpers2e import beast, encounter2e, hero, started


def body(f: Fight, cid: str) -> Body2e:
    b = f.state.get(cid).body2e
    assert b is not None
    return b


def last_strike(f: Fight) -> Strike2eMade:
    return [e for e in f.all_events() if isinstance(e, Strike2eMade)][-1]


@pytest.mark.rule("E2-28", "E2-19", "E2-20")
def test_temporary_hp_take_a_strikes_damage_first() -> None:
    # claw +5 vs AC 20: d20 17 = 22, success; 1d6 4 + Str 2 = 6: 5 temporary HP, then 1 HP
    f = started(encounter2e(hero(initiative=10, state={"temp_hp": 5}), beast(initiative=20)), [17, 4])
    f.do({"type": "strike", "actor": "Beast", "target": "Hero"})
    h = body(f, "Hero").creature
    assert (h.temp_hp, h.hp) == (0, 39)
    assert last_strike(f).total == 6


@pytest.mark.rule("E2-29", "E2-30")
def test_fast_healing_and_regeneration_at_the_start_of_the_turn() -> None:
    enc = encounter2e(hero(initiative=20, stat={"fast_healing": 2}, state={"hp": 30}),
                      beast(initiative=10, stat={"regeneration": 3}, state={"hp": 10}))  # fmt: skip
    f = started(enc, [])
    assert body(f, "Hero").creature.hp == 32  # its turn began
    f.do({"type": "end_turn", "actor": "Hero"})
    assert body(f, "Beast").creature.hp == 13


@pytest.mark.rule("E2-31", "E2-35", "E2-34", "E2-32")
def test_wounded_adds_to_dying_and_damage_while_dying_adds_one() -> None:
    # 1 HP, wounded 1: the claw (d20 15 = 20 vs AC 20, 1d6 1 + 2 = 3) knocks it out at dying 1 + 1 = 2; the
    # second claw (+5 - 4 agile = +1: d20 19 = 20 against the unconscious Hero's lowered AC) hits: dying 3
    start = {"hp": 1, "conditions": {"wounded": 1}, "hero_points": 0}
    enc = encounter2e(hero(initiative=10, state=start), beast(initiative=20), hero("Ally", at=(8, 5), initiative=5))
    f = started(enc, [15, 1, 19, 1])
    f.do({"type": "strike", "actor": "Beast", "target": "Hero"})
    assert body(f, "Hero").creature.dying == 2
    f.do({"type": "strike", "actor": "Beast", "target": "Hero"})
    h = body(f, "Hero").creature
    assert h.dying == 3 and not h.dead
    ac = last_strike(f).attack
    assert ac is not None and any("unconscious" in t.label and t.type == "status" for t in ac.dc.terms)


@pytest.mark.rule("E2-39")
def test_massive_damage_kills_outright() -> None:
    f = started(encounter2e(hero(initiative=20), beast(initiative=10), hero("Ally", at=(8, 5), initiative=5)), [])
    f.do({"type": "damage", "target": "Hero", "amount": 80})  # twice the 40 maximum HP
    assert body(f, "Hero").creature.dead


@pytest.mark.rule("E2-51", "E2-06")
def test_blinded_gives_a_status_penalty_to_the_attack_roll() -> None:
    f = started(encounter2e(hero(initiative=20), beast(initiative=10)), [10, 1])
    f.do({"type": "add_condition", "target": "Hero", "condition": "blinded"})
    f.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": "hammer"})
    attack = last_strike(f).attack
    assert attack is not None and attack.modifier.total == 11 - 4
    assert any(t.value == -4 and t.type == "status" for t in attack.modifier.terms)


@pytest.mark.rule("E2-58", "E2-42")
def test_quickened_gives_a_fourth_action() -> None:
    f = started(encounter2e(hero(initiative=20), beast(initiative=10)), [])
    f.do({"type": "add_condition", "target": "Hero", "condition": "quickened"})
    f.do({"type": "end_turn", "actor": "Hero"})
    f.do({"type": "end_turn", "actor": "Beast"})
    assert body(f, "Hero").actions == 4


@pytest.mark.rule("E2-66", "E2-64")
def test_difficult_terrain_costs_double() -> None:
    # three squares of difficult terrain cost 30 ft: more than the 25-ft Speed
    swamp = "\n".join([".~~~......", "..........", "..........", "..........", "..........", ".........."])
    f = started(encounter2e(hero(at=(0, 0), initiative=20), beast(at=(9, 5), initiative=10), map=swamp), [])
    with pytest.raises(RuleViolation):
        f.do({"type": "stride", "actor": "Hero", "path": [[1, 0], [2, 0], [3, 0]]})
    f.do({"type": "stride", "actor": "Hero", "path": [[1, 0], [2, 0]]})
    assert f.state.get("Hero").position == (2, 0)


@pytest.mark.rule("E2-38", "E2-23")
def test_a_death_effect_kills_at_0_hp_unless_the_creature_is_immune_to_death_effects() -> None:
    # 3d6 void [6, 6, 6] = 18 against two PCs at 10 HP; Fortitude +7: d20 5 = 12 vs DC 20, failure: full damage
    immune = {"immunities": ["death-effects"]}
    enc = encounter2e(hero(initiative=20, state={"hp": 10}), hero("Ally", at=(1, 2), initiative=15, state={"hp": 10},
                      stat=immune), beast(at=(8, 5), initiative=10))  # fmt: skip
    f = started(enc, [6, 6, 6, 5, 5])
    f.do({"type": "basic_save", "source": "death knell", "targets": ["Hero", "Ally"], "save": "fortitude",
          "dc": 20, "damage": "3d6", "damage_type": "void", "death_effect": True})  # fmt: skip
    assert body(f, "Hero").creature.dead
    ally = body(f, "Ally").creature
    assert not ally.dead and ally.hp == 0 and ally.dying == 1


def test_the_shared_verbs_become_the_2e_actions_at_the_table() -> None:
    from sftactics.encounter.commands import Attack, GuardedStep, Move
    from sftactics.encounter.sf2e.table2e import for_ruleset
    from tests.encounter.helpers import duo

    f = started(encounter2e(hero(initiative=20), beast(initiative=10)), [])
    assert for_ruleset(f.state, Attack(actor="Hero", target="Beast", weapon="knife")).type == "strike"
    assert for_ruleset(f.state, Move(actor="Hero", to=(3, 3))).type == "stride"
    assert for_ruleset(f.state, GuardedStep(actor="Hero", to=(2, 2))).type == "step_2e"
    one = Attack(actor="Tess", target="Ksarik")
    assert for_ruleset(duo(), one) is one


@pytest.mark.rule("E2-31", "E2-33")
def test_with_the_option_an_npc_goes_dying_and_rolls_recovery_checks() -> None:
    # hammer +11: d20 15 = 26 vs 14, critical success; (1d8 8 + 4) x 2 = 24 > 20: dying 2 (a critical hit);
    # it now acts just before the Hero, from round 2: recovery check DC 12, d20 20: critical success, dying 0:
    # unconscious, wounded 1
    enc = encounter2e(hero(initiative=20), beast(initiative=10), beast("Other", at=(8, 5), initiative=5),
                      options={"npc_dies_at_zero": False})  # fmt: skip
    f = started(enc, [15, 8, 20])
    f.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": "hammer"})
    b = body(f, "Beast").creature
    assert (b.dead, b.dying) == (False, 2)
    assert f.state.timeline.order == ("Beast", "Hero", "Other")
    f.do({"type": "end_turn", "actor": "Hero"})
    f.do({"type": "end_turn", "actor": "Other"})
    b = body(f, "Beast").creature
    assert (b.dying, b.wounded, b.unconscious) == (0, 1, True)
    assert f.state.timeline.turn == "Hero"


@pytest.mark.rule("E2-72", "E2-17")
def test_a_hero_point_rerolls_a_failed_basic_save() -> None:
    # 2d6 fire [3, 3] = 6; Reflex +7: d20 3 = 10 vs DC 15, failure; the Hero Point: d20 9 = 16, success: half, 3
    f = started(encounter2e(hero(initiative=20), beast(initiative=10)), [3, 3, 3, 9])
    f.do({"type": "basic_save", "targets": ["Hero"], "dc": 15, "damage": "2d6", "damage_type": "fire",
          "hero_point": ["Hero"]})  # fmt: skip
    h = body(f, "Hero").creature
    assert (h.hp, h.hero_points) == (37, 0)
