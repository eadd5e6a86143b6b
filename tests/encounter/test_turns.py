"""The action economy, delay and ready, turn upkeep (ACT-*, CF-16, INJ-04, CON-02, CON-05)."""

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter import budget
from sftactics.encounter.commands import (
    Attack,
    Begin,
    Delay,
    DropProne,
    EndTurn,
    FirstAid,
    FullAttack,
    Move,
    Ready,
    Resume,
    Run,
    StabilizeWithResolve,
    StandUp,
    StayInTheFight,
    TotalDefense,
)
from sftactics.encounter.engine import pending
from sftactics.sf1e import stats
from sftactics.sf1e.state import ConditionInstance
from tests.builders import npc, pc
from tests.encounter.helpers import combatant, encounter, fight

MAP = """
..........
..........
..........
..........
"""


def tess_first(dice: list[int], **kw: object) -> object:
    """Tess (party) at 0,0 acts first (init 20), Ksarik (aliens) adjacent at 1,0 (init 5); an ally of Tess's
    (init 1) stands far off so the fight goes on if Tess drops."""
    t = combatant("Tess", "party", initiative=20, position=(0, 0), **kw)
    k = combatant("Ksarik", "aliens", initiative=5, position=(1, 0))
    a = combatant("Bo", "party", pc(name="Bo"), initiative=1, position=(9, 3))
    f = fight(encounter(t, k, a, map=MAP), dice)
    f.do(Begin())
    return f


@pytest.mark.rule("ACT-01", "ACT-02")
def test_a_turn_is_a_standard_a_move_and_a_swift_action() -> None:
    f = tess_first([])
    c = f.state.get("Tess")
    assert budget.remaining(c) == ["standard", "move", "swift", "full"]
    f.do(DropProne(actor="Tess"))  # swift
    f.do(StandUp(actor="Tess"))  # move
    f.do(TotalDefense(actor="Tess"))  # standard
    assert f.state.get("Tess").spent == ("swift", "move", "standard")
    with pytest.raises(RuleViolation) as e:
        f.do(DropProne(actor="Tess"))
    assert e.value.rule == "ACT-02"


@pytest.mark.rule("ACT-02")
def test_downgrades_a_standard_as_a_move_and_a_move_as_a_swift() -> None:
    f = tess_first([])
    f.do(Move(actor="Tess", to=(0, 1)))
    f.do(Move(actor="Tess", to=(0, 2)))  # the second move uses the standard action (double move)
    assert f.state.get("Tess").spent == ("move", "standard")
    f2 = tess_first([])
    f2.do(DropProne(actor="Tess"))
    f2.do(StandUp(actor="Tess"))
    f2.do(DropProne(actor="Tess"))  # swift taken: a third action spends the standard slot as a swift
    assert f2.state.get("Tess").spent == ("swift", "move", "standard")


@pytest.mark.rule("ACT-03", "ACT-04", "ACT-53")
def test_a_full_action_takes_the_whole_turn() -> None:
    f = tess_first([10, 1, 10, 1])
    f.do(FullAttack(actor="Tess", target="Ksarik", weapon="baton"))
    assert f.state.get("Tess").spent == ("full",)
    with pytest.raises(RuleViolation) as e:
        f.do(DropProne(actor="Tess"))
    assert e.value.rule == "ACT-03"
    f2 = tess_first([])
    f2.do(DropProne(actor="Tess"))
    with pytest.raises(RuleViolation) as e2:
        f2.do(FullAttack(actor="Tess", target="Ksarik", weapon="baton"))
    assert e2.value.rule == "ACT-03"


@pytest.mark.rule("ACT-53", "ATK-19")
def test_full_attack_makes_two_attacks_at_minus_4() -> None:
    f = tess_first([11, 2, 11, 2])
    events = f.do(FullAttack(actor="Tess", target="Ksarik", weapon="baton"))
    attacks = [e for e in events if e.type == "attack_made"]
    assert len(attacks) == 2
    assert all("-4 full attack [ACT-53]" in "\n".join(a.lines) for a in attacks)
    # 11 + 7 - 4 = 14 < KAC 15: both miss
    assert [a.hit for a in attacks] == [False, False]


@pytest.mark.rule("ACT-53")
def test_unwieldy_weapons_attack_once_even_in_a_full_attack() -> None:
    t = pc(name="Tess", weapons=[{"name": "doshko", "category": "advanced_melee", "damage": "1d12 P",
                                  "unwieldy": True}])  # fmt: skip
    f = tess_first([], creature=t)
    with pytest.raises(RuleViolation) as e:
        f.do(FullAttack(actor="Tess", target="Ksarik", weapon="doshko"))
    assert e.value.rule == "ACT-53"


@pytest.mark.rule("ACT-18")
def test_fight_defensively_minus_4_attack_plus_2_ac_until_next_turn() -> None:
    f = tess_first([15, 2, 1])
    events = f.do(Attack(actor="Tess", target="Ksarik", weapon="baton", fight_defensively=True))
    attack = next(e for e in events if e.type == "attack_made")
    assert "-4 fighting defensively" in "\n".join(attack.lines)
    assert stats.armor_class(f.state.creature("Tess"), "kac").total == 18 + 2
    f.do(EndTurn(actor="Tess"))
    f.do(EndTurn(actor="Ksarik"))
    f.do(EndTurn(actor="Bo"))
    assert f.state.timeline.turn == "Tess"
    assert stats.armor_class(f.state.creature("Tess"), "kac").total == 18


@pytest.mark.rule("ACT-20")
def test_total_defense_plus_4_ac_and_no_combining_with_fight_defensively() -> None:
    f = tess_first([])
    f.do(TotalDefense(actor="Tess"))
    assert stats.armor_class(f.state.creature("Tess"), "eac").total == 17 + 4
    assert f.state.has_flag("Tess", "no_aoo")
    f2 = tess_first([15, 2])
    f2.do(Attack(actor="Tess", target="Ksarik", weapon="baton", fight_defensively=True))
    f2.do(EndTurn(actor="Tess"))
    # on Ksarik's turn Tess still fights defensively; total defense next turn would not stack anyway
    assert stats.armor_class(f2.state.creature("Tess"), "eac").total == 19


@pytest.mark.rule("ACT-41", "ACT-37", "MOD-18")
def test_drop_prone_and_stand_up() -> None:
    f = tess_first([])
    f.do(DropProne(actor="Tess"))
    assert f.state.creature("Tess").has("prone")
    with pytest.raises(RuleViolation):
        f.do(DropProne(actor="Tess"))
    f.do(StandUp(actor="Tess"))
    assert not f.state.creature("Tess").has("prone")


@pytest.mark.rule("ACT-35", "MOV-05")
def test_moving_costs_feet_within_speed() -> None:
    f = tess_first([])
    events = f.do(Move(actor="Tess", to=(3, 3)))  # three diagonals: 5 + 10 + 5 (MOV-10)
    moved = next(e for e in events if e.type == "moved")
    assert moved.cost_ft == 20 and f.state.get("Tess").position == (3, 3)
    events = f.do(Move(actor="Tess", to=(5, 1)))  # the fourth diagonal of the turn costs 10, the fifth 5
    assert next(e for e in events if e.type == "moved").cost_ft == 15
    assert f.state.get("Tess").spent == ("move", "standard")


@pytest.mark.rule("ACT-35")
def test_a_move_beyond_speed_is_refused() -> None:
    f = tess_first([])
    with pytest.raises(RuleViolation) as e:
        f.do(Move(actor="Tess", to=(8, 3)))  # 45 ft away
    assert e.value.rule == "ACT-35"
    assert f.state.get("Tess").position == (0, 0) and f.state.get("Tess").spent == ()
    with pytest.raises(RuleViolation) as e:
        f.do(Move(actor="Tess", to=(9, 3)))  # Bo's square: no move may end there, however long (MOV-16)
    assert e.value.rule == "MOV-16"


@pytest.mark.rule("ATK-09")
def test_melee_needs_reach_and_ranged_needs_range() -> None:
    t = combatant("Tess", "party", initiative=20, position=(0, 0))
    k = combatant("Ksarik", "aliens", initiative=5, position=(5, 0))
    f = fight(encounter(t, k, map=MAP), [])
    f.do(Begin())
    with pytest.raises(RuleViolation) as e:
        f.do(Attack(actor="Tess", target="Ksarik", weapon="baton"))
    assert e.value.rule == "ATK-09" and "25 ft away" in str(e.value)
    assert f.state.get("Tess").spent == ()


@pytest.mark.rule("ATK-10", "ATK-11")
def test_range_penalty_and_maximum_range() -> None:
    wide = "\n".join(["." * 70] * 2)
    t = combatant("Tess", "party", initiative=20, position=(0, 0))
    k = combatant("Ksarik", "aliens", initiative=5, position=(9, 0))
    f = fight(encounter(t, k, map=wide), [10])
    f.do(Begin())
    events = f.do(Attack(actor="Tess", target="Ksarik", weapon="semi-auto"))  # 45 ft, increment 30: -2
    text = "\n".join(next(e for e in events if e.type == "attack_made").lines)
    assert "-2 range" in text
    k2 = combatant("Ksarik", "aliens", initiative=5, position=(61, 0))  # 305 ft > 10 increments of 30
    f2 = fight(encounter(t, k2, map=wide), [])
    f2.do(Begin())
    with pytest.raises(RuleViolation) as e:
        f2.do(Attack(actor="Tess", target="Ksarik", weapon="semi-auto"))
    assert e.value.rule == "ATK-11"


@pytest.mark.rule("ACT-71", "CF-16")
def test_delay_then_come_back_in_at_the_current_count() -> None:
    f = tess_first([])
    f.do(Delay(actor="Tess"))
    assert f.state.get("Tess").delaying and f.state.timeline.turn is None
    f.do(EndTurn(actor="Ksarik"))  # between turns the engine waits: Ksarik's command starts its turn
    assert f.state.timeline.turn is None  # Ksarik's turn ended; Tess may come back in
    f.do(Resume(actor="Tess"))
    s = f.state
    assert s.timeline.turn == "Tess" and s.get("Tess").initiative == 5
    assert s.timeline.order == ("Ksarik", "Tess", "Bo")
    with pytest.raises(RuleViolation):
        f.do(Delay(actor="Ksarik"))


@pytest.mark.rule("ACT-71")
def test_delay_must_come_before_acting() -> None:
    f = tess_first([])
    f.do(DropProne(actor="Tess"))
    with pytest.raises(RuleViolation) as e:
        f.do(Delay(actor="Tess"))
    assert e.value.rule == "ACT-71"


@pytest.mark.rule("ACT-73", "CF-16")
def test_a_readied_attack_goes_off_when_the_enemy_attacks() -> None:
    # Tess readies an attack against Ksarik for when Ksarik attacks; Ksarik's claw misses (d20 2)
    f = tess_first([2, 15, 2])
    f.do(Ready(actor="Tess", action={"type": "attack", "actor": "Tess", "target": "Ksarik", "weapon": "baton"},
               trigger="enemy_attacks"))  # fmt: skip
    assert f.state.get("Tess").spent == ("standard",)
    f.do(EndTurn(actor="Tess"))
    events = f.do(Attack(actor="Ksarik", target="Tess", weapon="claw"))
    attacks = [(e.attacker, e.hit) for e in events if e.type == "attack_made"]
    assert attacks == [("Ksarik", False), ("Tess", True)]
    s = f.state
    assert s.get("Tess").readied is None
    assert s.timeline.order == ("Tess", "Ksarik", "Bo") and s.get("Tess").initiative == 5


@pytest.mark.rule("ACT-73")
def test_a_readied_action_lapses_when_the_readiers_turn_comes() -> None:
    f = tess_first([])
    f.do(Ready(actor="Tess", action={"type": "total_defense", "actor": "Tess"}, trigger="attacked"))
    f.do(EndTurn(actor="Tess"))
    f.do(EndTurn(actor="Ksarik"))
    assert f.state.get("Tess").readied is not None
    f.do(EndTurn(actor="Bo"))
    assert f.state.get("Tess").readied is None


@pytest.mark.rule("ACT-73")
def test_only_standard_move_or_swift_actions_can_be_readied() -> None:
    f = tess_first([])
    with pytest.raises(RuleViolation) as e:
        f.do(Ready(actor="Tess", action={"type": "full_attack", "actor": "Tess", "target": "Ksarik"}))
    assert e.value.rule == "ACT-73"


@pytest.mark.rule("INJ-04", "INJ-11", "CON-12")
def test_a_dying_character_loses_resolve_at_the_end_of_its_turn_or_stabilizes() -> None:
    dying = pc(name="Tess").with_state(hp=0, sp=0, rp=5, conditions=(
        ConditionInstance(name="dying"), ConditionInstance(name="unconscious")))  # fmt: skip
    f = tess_first([], creature=dying)
    assert f.state.timeline.turn == "Tess"  # a dying PC with enough RP has a choice to make
    f.do(EndTurn(actor="Tess"))
    assert f.state.creature("Tess").state.rp == 4
    f.do(EndTurn(actor="Ksarik"))
    f.do(EndTurn(actor="Bo"))
    f.do(StabilizeWithResolve(actor="Tess"))  # 5 max RP // 4 = 1
    tess = f.state.creature("Tess")
    assert tess.has("stable") and tess.state.rp == 3
    with pytest.raises(RuleViolation) as e:
        f.do(StayInTheFight(actor="Tess"))
    assert e.value.rule == "INJ-12"


@pytest.mark.rule("INJ-12")
def test_stay_in_the_fight_at_the_start_of_a_later_turn() -> None:
    stable = pc(name="Tess").with_state(hp=0, sp=0, rp=2, stabilized_round=0, conditions=(
        ConditionInstance(name="stable"), ConditionInstance(name="unconscious")))  # fmt: skip
    f = tess_first([], creature=stable)
    f.do(StayInTheFight(actor="Tess"))
    tess = f.state.creature("Tess")
    assert tess.state.hp == 1 and tess.state.rp == 1 and not tess.has("unconscious")


@pytest.mark.rule("INJ-09")
def test_first_aid_stabilizes_an_adjacent_dying_ally() -> None:
    dying = pc(name="Ally").with_state(hp=0, sp=0, rp=0, conditions=(
        ConditionInstance(name="dying"), ConditionInstance(name="unconscious")))  # fmt: skip
    t = combatant("Tess", "party", pc(name="Tess", skills={"medicine": 6}), initiative=20, position=(0, 0))
    a = combatant("Ally", "party", dying, initiative=1, position=(0, 1))
    k = combatant("Ksarik", "aliens", initiative=5, position=(5, 0))
    f = fight(encounter(t, a, k, map=MAP), [9])
    f.do(Begin())
    f.do(FirstAid(actor="Tess", target="Ally"))  # 9 + 6 = 15
    assert f.state.creature("Ally").has("stable")


@pytest.mark.rule("CON-02")
def test_bleeding_deals_damage_at_the_start_of_the_turn() -> None:
    bleeding = pc(name="Tess").with_state(conditions=(ConditionInstance(name="bleeding", value="1d4"),))
    t = combatant("Tess", "party", bleeding, initiative=20, position=(0, 0))
    k = combatant("Ksarik", "aliens", initiative=25, position=(5, 0))
    f = fight(encounter(t, k, map=MAP), [3])
    f.do(Begin())
    f.do(EndTurn(actor="Ksarik"))  # Tess's turn starts: bleed 3
    assert f.state.creature("Tess").state.sp == 28 - 3


@pytest.mark.rule("CON-05")
def test_burning_damage_then_a_reflex_save_at_the_end_of_the_turn() -> None:
    burning = pc(name="Tess").with_state(conditions=(ConditionInstance(name="burning", value="1d6"),))
    t = combatant("Tess", "party", burning, initiative=20, position=(0, 0))
    k = combatant("Ksarik", "aliens", initiative=5, position=(5, 0))
    # start of Tess's turn: 1d6 = 4 fire; end of turn: Reflex +3 vs DC 14: 11 + 3 = 14 succeeds
    f = fight(encounter(t, k, map=MAP), [4, 11])
    f.do(Begin())
    assert f.state.creature("Tess").state.sp == 24
    events = f.do(EndTurn(actor="Tess"))
    check = next(e for e in events if e.type == "check_made")
    assert check.success and "vs 14" in check.lines[0]
    assert not f.state.creature("Tess").has("burning")


@pytest.mark.rule("CON-05", "ATK-15")
def test_corroding_is_saved_against_like_burning_on_its_own_count() -> None:
    both = pc(name="Tess").with_state(conditions=(
        ConditionInstance(name="burning", value="1d6"), ConditionInstance(name="corroding", value="1d4")))  # fmt: skip
    t = combatant("Tess", "party", both, initiative=20, position=(0, 0))
    k = combatant("Ksarik", "aliens", initiative=5, position=(5, 0))
    # start of Tess's turn: 1d6 = 4 fire, then 1d4 = 2 acid; end of turn: Reflex +3 vs DC 14 (burning): 5 + 3 fails;
    # vs DC 12 (corroding, its own damage): 9 + 3 = 12 succeeds
    f = fight(encounter(t, k, map=MAP), [4, 2, 5, 9, 1])
    f.do(Begin())
    assert f.state.creature("Tess").state.sp == 28 - 6
    events = f.do(EndTurn(actor="Tess"))
    checks = [e for e in events if e.type == "check_made"]
    assert [(c.what, c.success) for c in checks] == [
        ("Reflex save against burning (CON-05)", False), ("Reflex save against corroding (CON-05)", True)]  # fmt: skip
    assert "vs 14" in checks[0].lines[0] and "vs 12" in checks[1].lines[0]
    cr = f.state.creature("Tess")
    assert cr.has("burning") and not cr.has("corroding")
    assert (f.state.get("Tess").burn_saves, f.state.get("Tess").corrode_saves) == (1, 0)


@pytest.mark.rule("CON-08")
def test_a_creature_that_cannot_act_has_its_turn_passed() -> None:
    from tests.builders import with_conditions

    dazed = with_conditions(pc(name="Tess"), "dazed")
    f = tess_first([], creature=dazed)
    assert f.state.timeline.turn == "Ksarik"
    assert pending(f.state) == "Ksarik"


def test_unknown_combatants_are_refused() -> None:
    f = tess_first([])
    with pytest.raises(Exception, match="no combatant named 'Nobody'"):
        f.do(Attack(actor="Tess", target="Nobody"))
    _ = npc


@pytest.mark.rule("ACT-06", "ACT-73")
def test_a_defensive_readied_action_goes_off_before_the_trigger() -> None:
    # Tess readies total defense for when she is attacked; Ksarik's claw (d20 10: 10 + 9 = 19) then meets
    # KAC 18 + 4 = 22: a miss that would have hit without it
    f = tess_first([10])
    f.do(Ready(actor="Tess", action={"type": "total_defense", "actor": "Tess"}, trigger="attacked"))
    f.do(EndTurn(actor="Tess"))
    events = f.do(Attack(actor="Ksarik", target="Tess", weapon="claw"))
    kinds = [e.type for e in events]
    assert kinds.index("effect_started") < kinds.index("attack_made")
    attack = next(e for e in events if e.type == "attack_made")
    assert not attack.hit and "KAC 22" in "\n".join(attack.lines)


@pytest.mark.rule("ACT-52", "ACT-11")
def test_fight_defensively_with_a_full_attack_is_minus_8_per_attack() -> None:
    f = tess_first([18, 1, 18, 1])
    events = f.do(FullAttack(actor="Tess", target="Ksarik", weapon="baton", fight_defensively=True))
    attacks = [e for e in events if e.type == "attack_made"]
    for a in attacks:
        text = "\n".join(a.lines)
        assert "-4 full attack [ACT-53]" in text and "-4 fighting defensively [ACT-52]" in text
        assert "d20 18 -1 = 17 vs 15" in text
    assert stats.armor_class(f.state.creature("Tess"), "kac").total == 20


@pytest.mark.rule("CON-30", "CF-14")
def test_a_condition_given_for_rounds_expires_by_the_count() -> None:
    from sftactics.encounter.commands import AddCondition

    f = tess_first([])
    f.do(AddCondition(target="Tess", condition="shaken", rounds=1))  # on Tess's turn, count 20
    assert f.state.creature("Tess").has("shaken")
    f.do(EndTurn(actor="Tess"))
    f.do(EndTurn(actor="Ksarik"))
    assert f.state.creature("Tess").has("shaken")
    f.do(EndTurn(actor="Bo"))  # round 2, Tess at count 20: the 1-round effect ended just before
    assert not f.state.creature("Tess").has("shaken")


@pytest.mark.rule("MOV-05", "MOV-31")
def test_a_creature_that_only_flies_moves_with_its_fly_speed() -> None:
    bird = npc(name="Ksarik", speed={"land": 0, "fly": 40})
    t = combatant("Tess", "party", initiative=5, position=(0, 0))
    k = combatant("Ksarik", "aliens", bird, initiative=30, position=(9, 3))
    f = fight(encounter(t, k, map=MAP), [])
    f.do(Begin())
    events = f.do(Move(actor="Ksarik", to=(2, 3)))
    assert f.state.get("Ksarik").position == (2, 3)
    assert next(e for e in events if e.type == "moved").cost_ft == 35


@pytest.mark.rule("ACT-54", "MOV-31")
def test_a_creature_that_only_flies_runs_at_four_times_its_fly_speed() -> None:
    bird = npc(name="Ksarik", speed={"land": 0, "fly": 10})
    assert stats.move_mode(bird) == "fly"
    assert stats.speed(bird).total == 10
    t = combatant("Tess", "party", initiative=5, position=(0, 0))
    k = combatant("Ksarik", "aliens", bird, initiative=30, position=(9, 3))
    f = fight(encounter(t, k, map=MAP), [])
    f.do(Begin())
    events = f.do(Run(actor="Ksarik", to=(1, 3)))  # 40 ft: four times a 10-ft fly speed
    assert f.state.get("Ksarik").position == (1, 3)
    assert next(e for e in events if e.type == "moved").cost_ft == 40
