"""Special attack actions with scripted dice and exact numbers (ACT-15, ACT-17, ACT-19, ACT-50, ACT-51, ACT-54,
ATK-12, ATK-13, EX-07).

Tess (tests/builders.py): semi-auto pistol +6 (BAB 4, Dex 2), baton 1d4+3, frag grenade I +7 (BAB 4, Str 3; 1d6 P,
15-ft burst, Reflex DC 12 half), Ref +3, speed 30, Con 12, level 4. Ksarik: CR 2, Fort +4, Ref +4, Wis +1, 25 HP.
"""

from functools import partial

import pytest

from sftactics.core.breakdown import BonusType, Term
from sftactics.core.check import CheckKind
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.grid.geometry import Footprint
from sftactics.grid.scatter import scatter
from sftactics.sf1e import actions_rules as ar
from sftactics.sf1e import stats
from sftactics.sf1e.attack import Situation
from sftactics.sf1e.state import ConditionInstance
from tests.builders import npc, pc, with_conditions


# ------------------------------------------------------------------------------------------- ACT-15
@pytest.mark.rule("ACT-15", "ATK-18")
def test_covering_fire_hits_ac_15_and_gives_the_ally_plus_2_circumstance_ac() -> None:
    dice = ScriptedDice([9])
    r = ar.covering_fire(pc(), "semi-auto", "Vex", dice)
    assert r.ac.total == 15 and r.roll.kind is CheckKind.ATTACK and r.roll.total == 15 and r.hit
    assert r.ac_term == Term(2, "covering fire from Tess", "ACT-15", BonusType.CIRCUMSTANCE, "covering fire")
    assert r.ally == "Vex" and r.attack_term is None
    assert (r.expires, r.expires_anchor) == ("turn_start", "Tess")
    assert dice.remaining == 0 and len(dice.history) == 1  # the roll only: no damage dice


@pytest.mark.rule("ACT-15")
def test_covering_fire_miss_and_natural_results() -> None:
    assert not ar.covering_fire(pc(), "semi-auto", "Vex", ScriptedDice([8])).hit  # 14
    far = Situation(attack_terms=(Term(20, "huge bonus", ""),))
    r = ar.covering_fire(pc(), "semi-auto", "Vex", ScriptedDice([1]), situation=far)
    assert r.roll.total == 27 and not r.hit and r.ac_term is None
    worse = Situation(attack_terms=(Term(-20, "huge penalty", ""),))
    assert ar.covering_fire(pc(), "semi-auto", "Vex", ScriptedDice([20]), situation=worse).hit


@pytest.mark.rule("ACT-15", "BON-05")
def test_covering_fire_from_two_shooters_does_not_stack_by_default() -> None:
    ally = pc(name="Vex")
    t1 = ar.covering_fire(pc(), "semi-auto", ally, ScriptedDice([10])).ac_term
    t2 = ar.covering_fire(pc(name="Rho"), "semi-auto", ally, ScriptedDice([10])).ac_term
    assert t1 is not None and t2 is not None
    ac = stats.armor_class(ally, "eac")  # 17
    assert ac.plus(t1, t2).total == 19
    s1 = ar.covering_fire(pc(), "semi-auto", ally, ScriptedDice([10]), covering_fire_stacks=True).ac_term
    s2 = ar.covering_fire(pc(name="Rho"), "semi-auto", ally, ScriptedDice([10]), covering_fire_stacks=True).ac_term
    assert s1 is not None and s2 is not None and ac.plus(s1, s2).total == 21


@pytest.mark.rule("ACT-15")
def test_covering_fire_needs_a_ranged_weapon_and_a_creature_able_to_attack() -> None:
    with pytest.raises(RuleViolation) as e:
        ar.covering_fire(pc(), "baton", "Vex", ScriptedDice([10]))
    assert e.value.rule == "ACT-15"
    with pytest.raises(RuleViolation) as e:
        ar.covering_fire(with_conditions(pc(), "nauseated"), "semi-auto", "Vex", ScriptedDice([10]))
    assert e.value.rule == "CON-22"


# ------------------------------------------------------------------------------------------- ACT-19
@pytest.mark.rule("ACT-19", "ATK-18")
def test_harrying_fire_gives_the_next_ally_plus_2_circumstance_to_attack() -> None:
    r = ar.harrying_fire(pc(), "semi-auto", npc(), ScriptedDice([9]))
    assert r.hit and r.foe == "Ksarik" and r.ac_term is None
    assert r.attack_term == Term(2, "harrying fire from Tess", "ACT-19", BonusType.CIRCUMSTANCE, "harrying fire")
    # the ally's next attack: baton +7 becomes +9
    bonus = stats.attack_bonus(pc(name="Vex"), pc().stat.weapon("baton"), extra=(r.attack_term,))
    assert bonus.total == 9
    assert not ar.harrying_fire(pc(), "semi-auto", "Ksarik", ScriptedDice([8])).hit
    with pytest.raises(RuleViolation) as e:
        ar.harrying_fire(pc(), "baton", "Ksarik", ScriptedDice([9]))
    assert e.value.rule == "ACT-19"


# ------------------------------------------------------------------------------------------- ACT-17
@pytest.mark.rule("ACT-17")
def test_feint_dc_is_the_greater_of_sense_motive_and_cr() -> None:
    # Ksarik: Sense Motive not printed -> Wisdom +1: 11; CR 2: 15 + 3 = 18
    assert ar.feint_dc(npc()).total == 18
    assert ar.feint_dc(npc(skills={"sense_motive": 12})).total == 22
    assert ar.feint_dc(npc(), sense_motive=9).total == 19
    # shaken lowers the target's Sense Motive total: 12 - 2 + 10 = 20
    assert ar.feint_dc(with_conditions(npc(skills={"sense motive": 12}), "shaken")).total == 20


@pytest.mark.rule("ACT-17")
def test_feint_dc_rounds_one_and_a_half_cr_down() -> None:
    low = {"sense_motive": -5}
    assert ar.feint_dc(npc(cr="1/3", skills=low)).total == 15
    assert ar.feint_dc(npc(cr="1/2", skills=low)).total == 15
    assert ar.feint_dc(npc(cr="3", skills=low)).total == 19  # 4.5 -> 4
    assert ar.feint_dc(pc()).total == 21  # a character's level stands for CR: 15 + 6


@pytest.mark.rule("ACT-17", "MOD-20")
def test_a_successful_feint_makes_the_target_flat_footed_against_the_next_attack() -> None:
    r = ar.feint(pc(), npc(), ScriptedDice([10]), bluff=8)
    assert r.check.kind is CheckKind.SKILL and r.check.total == 18 and r.success
    assert r.ac_term is not None and r.ac_term.value == -2 and r.ac_term.key == "flat-footed"
    assert (r.expires, r.expires_anchor) == ("turn_end", "Tess")
    # on the next attack: KAC 15 - 2 = 13; it does not add to a real flat-footed condition (same penalty)
    assert stats.armor_class(npc(), "kac").plus(r.ac_term).total == 13
    ff = stats.armor_class(with_conditions(npc(), "flat-footed"), "kac")
    assert ff.plus(r.ac_term).total == 13
    miss = ar.feint(pc(), npc(), ScriptedDice([9]), bluff=8)
    assert not miss.success and miss.ac_term is None
    assert not ar.feint(pc(), npc(), ScriptedDice([20]), bluff=-3).success  # no automatic success


@pytest.mark.rule("ACT-17")
def test_no_feint_against_a_creature_without_intelligence() -> None:
    mindless = npc(abilities={"str": 3, "dex": 2, "con": 2, "int": None, "wis": 1, "cha": -2})
    with pytest.raises(RuleViolation) as e:
        ar.feint(pc(), mindless, ScriptedDice([20]), bluff=8)
    assert e.value.rule == "ACT-17"


# ------------------------------------------------------------------------------------------- ACT-50
@pytest.mark.rule("ACT-50")
def test_charge_numbers() -> None:
    r = ar.charge(pc())
    assert r.attack_term == Term(-2, "charge", "ACT-50")
    assert r.ac_term.value == -2 and r.ac_modifier.selector == "ac" and r.ac_modifier.value == -2
    assert (r.min_ft, r.max_ft) == (10, 60)
    assert (r.expires, r.expires_anchor) == ("turn_start", "Tess")
    assert ar.charge(pc(), distance_ft=60).max_ft == 60
    for bad in (5, 65):
        with pytest.raises(RuleViolation) as e:
            ar.charge(pc(), distance_ft=bad)
        assert e.value.rule == "ACT-50"


@pytest.mark.rule("ACT-50", "CON-14", "CON-15", "CON-17")
@pytest.mark.parametrize(("condition", "rule"), [("entangled", "CON-14"), ("fatigued", "CON-17"),
                                                  ("exhausted", "CON-15")])  # fmt: skip
def test_no_charge_or_run_while_entangled_fatigued_or_exhausted(condition: str, rule: str) -> None:
    tired = with_conditions(pc(), condition)
    with pytest.raises(RuleViolation) as e:
        ar.charge(tired)
    assert e.value.rule == rule
    with pytest.raises(RuleViolation) as e:
        ar.run(tired)
    assert e.value.rule == rule


@pytest.mark.rule("ACT-50")
def test_no_charge_without_a_full_action_or_room_to_move() -> None:
    with pytest.raises(RuleViolation) as e:
        ar.charge(with_conditions(pc(), "staggered"))
    assert e.value.rule == "CON-33"
    with pytest.raises(RuleViolation) as e:
        ar.charge(with_conditions(pc(), "grappled"))  # speed 0
    assert e.value.rule == "ACT-50"


# ------------------------------------------------------------------------------------------- ACT-51
@pytest.mark.rule("ACT-51", "ATK-14")
def test_coup_de_grace_is_an_automatic_critical_then_fortitude_or_die() -> None:
    victim = with_conditions(npc(), "helpless")
    r = ar.coup_de_grace(pc(), victim, "baton", ScriptedDice([2, 3, 9]))
    # (2 + 3) + (3 + 3) = 11 damage; Fortitude 9 + 4 = 13 against 10 + level 4 = 14: dies
    assert r.critical and r.damage.amount == 11
    assert r.dc is not None and r.dc.total == 14
    assert r.save is not None and r.save.total == 13 and not r.save.success
    assert r.died and r.defender.has("dead") and r.defender.state.hp == 14
    lives = ar.coup_de_grace(pc(), victim, "baton", ScriptedDice([2, 3, 10]))
    assert not lives.died and lives.defender.state.hp == 14


@pytest.mark.rule("ACT-51", "ATK-17")
def test_coup_de_grace_on_a_creature_immune_to_crits_is_a_plain_hit_without_save() -> None:
    victim = with_conditions(npc(immunities=["critical hits"]), "helpless")
    dice = ScriptedDice([2])
    r = ar.coup_de_grace(pc(), victim, "baton", dice)
    assert not r.critical and r.damage.amount == 5 and r.save is None and r.dc is None
    assert not r.died and dice.remaining == 0


@pytest.mark.rule("ACT-51")
def test_coup_de_grace_that_kills_outright_needs_no_save() -> None:
    r = ar.coup_de_grace(pc(), with_conditions(npc(hp=5), "helpless"), "baton", ScriptedDice([2, 3]))
    assert r.died and r.save is None


@pytest.mark.rule("ACT-51", "CON-27")
def test_coup_de_grace_needs_a_helpless_target() -> None:
    for state in ((), ("paralyzed",)):
        with pytest.raises(RuleViolation) as e:
            ar.coup_de_grace(pc(), with_conditions(npc(), *state), "baton", ScriptedDice([2, 3, 9]))
        assert e.value.rule == "ACT-51"
    assert ar.coup_de_grace(pc(), with_conditions(npc(), "unconscious"), "baton", ScriptedDice([2, 3, 9])).died


@pytest.mark.rule("ACT-51")
def test_coup_de_grace_dc_uses_level_or_cr() -> None:
    assert ar.coup_de_grace_dc(pc()).total == 14
    assert ar.coup_de_grace_dc(npc()).total == 12
    assert ar.coup_de_grace_dc(npc(cr="1/2")).total == 10


# ------------------------------------------------------------------------------------------- ACT-54
@pytest.mark.rule("ACT-54")
def test_run_is_four_times_speed_and_flat_footed_until_the_next_turn() -> None:
    r = ar.run(pc())
    assert r.max_ft == 120 and r.provokes
    assert r.condition == ConditionInstance(name="flat-footed", source="running")
    assert r.creature.has("flat-footed") and stats.armor_class(r.creature, "kac").total == 16
    assert (r.expires, r.expires_anchor) == ("turn_start", "Tess")
    assert ar.run(with_conditions(pc(), "encumbered")).max_ft == 80  # 30 - 10 = 20 ft


@pytest.mark.rule("ACT-54")
def test_run_limits() -> None:
    assert ar.run(pc(), rounds_run=11).max_ft == 120
    with pytest.raises(RuleViolation) as e:
        ar.run(pc(), rounds_run=12)  # Constitution 12
    assert e.value.rule == "ACT-54"
    with pytest.raises(RuleViolation):
        ar.run(pc(), mode="climb")
    with pytest.raises(RuleViolation) as e:
        ar.run(with_conditions(pc(), "staggered"))
    assert e.value.rule == "CON-33"


# ------------------------------------------------------------------------------------------- ATK-12, ATK-13
@pytest.mark.rule("ATK-12", "ATK-18")
def test_a_grenade_is_a_ranged_attack_against_ac_5() -> None:
    r = ar.throw_grenade(pc(), "frag", (4, 2), ScriptedDice([2]))
    assert r.ac.total == 5 and r.roll.bonus.total == 7 and r.roll.total == 9
    assert r.hit and r.lands_at == (4, 2) and r.scatter_d8 is None


@pytest.mark.rule("ATK-12")
def test_only_thrown_area_weapons_target_an_intersection() -> None:
    with pytest.raises(RuleViolation) as e:
        ar.throw_grenade(pc(), "semi-auto", (4, 2), ScriptedDice([10]))
    assert e.value.rule == "ATK-12"


@pytest.mark.rule("ATK-13", "EX-07")
def test_ex07_a_missed_grenade_scatters_two_squares_short() -> None:
    # the thrower stands due south of the target intersection (as in the grid's own EX-07 test)
    where = partial(scatter, (4, 2), Footprint(3, 6))
    r = ar.throw_grenade(pc(), "frag", (4, 2), ScriptedDice([1, 1, 2]), scatter=where)
    assert not r.hit and r.roll.automatic == "natural 1"
    assert (r.scatter_d8, r.scatter_d4) == (1, 2) and r.lands_at == (4, 4)
    bare = ar.throw_grenade(pc(), "frag", (4, 2), ScriptedDice([1, 5, 3]))
    assert (bare.scatter_d8, bare.scatter_d4, bare.lands_at) == (5, 3, None)


@pytest.mark.rule("ATK-12", "SV-07")
def test_area_weapon_dc_printed_or_from_the_item_formula() -> None:
    frag = pc().stat.weapon("frag")
    assert ar.area_dc(pc(), frag).total == 12
    assert ar.area_dc(pc(proficiencies={"weapons": ["small_arm"], "armor": []}), frag).total == 8
    unprinted = frag.model_copy(update={"area": frag.area.model_copy(update={"dc": None}), "item_level": 3})  # type: ignore[union-attr]
    assert ar.area_dc(pc(), unprinted).total == 13  # 10 + 1 + Dex 2 (CRB "Grenades")
    no_prof = pc(proficiencies={"weapons": ["small_arm"], "armor": []})
    assert ar.area_dc(no_prof, unprinted).total == 9  # the attack's -4 applies to the DC too (GEN-13)
