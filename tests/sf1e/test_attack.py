"""One attack end to end, with scripted dice and exact numbers."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sftactics.core.breakdown import Term
from sftactics.core.check import RollMode
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.sf1e.attack import Situation, fixed_ac, resolve_attack
from sftactics.sf1e.options import Sf1eOptions
from tests.builders import npc, pc, with_conditions


@pytest.mark.rule("ATK-01", "ATK-02", "DMG-01", "DMG-03")
def test_melee_hit_rolls_damage_with_strength() -> None:
    # Tess: baton +7 (BAB 4, Str 3), 1d4+3 B; Ksarik KAC 15, 25 HP
    r = resolve_attack(pc(), npc(), "baton", ScriptedDice([8, 2]))
    assert r.ac_kind == "kac" and r.ac.total == 15
    assert r.roll.total == 15 and r.hit and not r.critical
    assert r.damage is not None and r.damage.amount == 5
    assert r.defender.state.hp == 20


@pytest.mark.rule("ATK-01")
def test_a_miss_changes_nothing() -> None:
    target = npc()
    r = resolve_attack(pc(), target, "baton", ScriptedDice([7]))
    assert not r.hit and r.damage is None and r.defender == target


@pytest.mark.rule("ATK-08")
def test_energy_only_attacks_target_eac_kinetic_targets_kac() -> None:
    fire = resolve_attack(pc(), npc(), "flame pistol", ScriptedDice([7, 1]))
    assert fire.ac_kind == "eac" and fire.ac.total == 13
    # flame pistol: BAB 4 + Dex 2 = 6; 7 + 6 = 13 meets EAC 13
    assert fire.hit
    spit = resolve_attack(npc(), pc(), "spit", ScriptedDice([1]))
    assert spit.ac_kind == "eac"
    claw = resolve_attack(npc(), pc(), "claw", ScriptedDice([1]))
    assert claw.ac_kind == "kac"


@pytest.mark.rule("ATK-08")
def test_mixed_kinetic_and_energy_targets_kac() -> None:
    n = npc(weapons=[{"name": "plasma claw", "category": "natural", "damage": "1d6 S + 1d6 F", "attack_bonus": 9}])
    r = resolve_attack(n, pc(), "plasma claw", ScriptedDice([1]))
    assert r.ac_kind == "kac"


@pytest.mark.rule("ATK-14", "DMG-04")
def test_natural_20_that_meets_ac_is_a_critical_rolling_damage_twice_with_bonuses() -> None:
    r = resolve_attack(pc(), npc(), "baton", ScriptedDice([20, 2, 3]))
    assert r.critical
    # (2 + 3) + (3 + 3) = 11
    assert r.damage is not None and r.damage.amount == 11
    assert r.defender.state.hp == 14


@pytest.mark.rule("ATK-14", "ATK-05")
def test_natural_20_below_ac_hits_for_normal_damage() -> None:
    target = npc(kac=40)
    r = resolve_attack(pc(), target, "baton", ScriptedDice([20, 2]))
    assert r.hit and not r.critical
    assert "below the AC" in r.critical_note
    assert r.damage is not None and r.damage.amount == 5


@pytest.mark.rule("ATK-05")
def test_natural_1_misses_whatever_the_total() -> None:
    r = resolve_attack(pc(bab=30), npc(), "baton", ScriptedDice([1]))
    assert not r.hit


@pytest.mark.rule("ATK-17")
def test_crit_immune_target_takes_normal_damage_and_no_effect() -> None:
    target = npc(immunities=["critical hits"])
    r = resolve_attack(pc(), target, "flame pistol", ScriptedDice([20, 3]))
    assert r.hit and not r.critical and "immune to critical hits" in r.critical_note
    assert r.damage is not None and r.damage.amount == 3
    assert not r.defender.has("burning")


@pytest.mark.rule("ATK-15", "CON-05")
def test_critical_effect_is_applied_on_a_crit() -> None:
    r = resolve_attack(pc(), npc(), "flame pistol", ScriptedDice([20, 3, 2]))
    assert r.critical and r.damage is not None and r.damage.amount == 5
    assert r.defender.has("burning")
    assert r.critical_effect is not None and r.critical_effect.status == "applied"


@pytest.mark.rule("DMG-11")
def test_switching_lethality_costs_4_to_attack() -> None:
    r = resolve_attack(pc(), npc(), "baton", ScriptedDice([12, 2]), Situation(nonlethal=True))
    assert r.roll.bonus.total == 7 - 4
    assert r.damage is not None and r.damage.nonlethal
    stunner = pc(weapons=[{"name": "stun baton", "category": "basic_melee", "damage": "1d4 B", "nonlethal": True}])
    r2 = resolve_attack(stunner, npc(), "stun baton", ScriptedDice([12, 2]), Situation(lethal=True))
    assert r2.roll.bonus.total == 3 and r2.damage is not None and not r2.damage.nonlethal
    r3 = resolve_attack(stunner, npc(), "stun baton", ScriptedDice([12, 2]))
    assert r3.roll.bonus.total == 7 and r3.damage is not None and r3.damage.nonlethal


@pytest.mark.rule("MOD-19", "CON-21")
def test_helpless_target_gives_plus_4_to_melee_and_dex_minus_5() -> None:
    target = with_conditions(npc(), "unconscious")
    r = resolve_attack(pc(), target, "baton", ScriptedDice([1]))
    assert r.roll.bonus.total == 7 + 4
    # printed KAC 15 includes Dex +2; helpless Dex is -5: 15 - 7 = 8
    assert r.ac.total == 8
    ranged = resolve_attack(pc(), target, "semi-auto", ScriptedDice([1]))
    assert ranged.roll.bonus.total == 6


@pytest.mark.rule("MOD-19")
def test_helpless_and_prone_stacking_option() -> None:
    target = with_conditions(npc(), "unconscious", "prone")
    stacked = resolve_attack(pc(), target, "baton", ScriptedDice([1]))
    assert stacked.roll.bonus.total == 11 and stacked.ac.total == 8 - 4
    apart = resolve_attack(pc(), target, "baton", ScriptedDice([1]), options=Sf1eOptions(helpless_prone_stack=False))
    assert apart.roll.bonus.total == 7


@pytest.mark.rule("ATK-18", "ATK-12")
def test_fixed_target_numbers() -> None:
    r = resolve_attack(
        pc(), npc(), "semi-auto", ScriptedDice([9, 1]), Situation(target_ac=fixed_ac("AC 15", 15, "ACT-15"))
    )
    assert r.ac.total == 15 and r.roll.total == 15 and r.hit


@pytest.mark.rule("ATK-19", "MOD-17", "MOD-08")
def test_situational_terms_from_the_grid_and_actions() -> None:
    s = Situation(attack_terms=(Term(2, "flanking", "MOD-17"), Term(-2, "charge", "ACT-50")),
                  ac_terms=(Term(4, "cover", "MOD-08"),))  # fmt: skip
    r = resolve_attack(pc(), npc(), "baton", ScriptedDice([11]), s)
    assert r.roll.bonus.total == 7 and r.ac.total == 19 and not r.hit


@pytest.mark.rule("GEN-06")
def test_roll_modes_pass_through() -> None:
    r = resolve_attack(pc(), npc(), "baton", ScriptedDice([3, 14, 1]), Situation(mode=RollMode(better=True)))
    assert r.roll.rolls == (3, 14) and r.hit


@pytest.mark.rule("CON-22", "CON-08")
def test_attacker_who_cannot_attack_is_refused_and_nothing_changes() -> None:
    for condition, rule in (("nauseated", "CON-22"), ("dazed", "CON-08")):
        attacker = with_conditions(pc(), condition)
        dice = ScriptedDice([20, 4])
        with pytest.raises(RuleViolation) as e:
            resolve_attack(attacker, npc(), "baton", dice)
        assert e.value.rule == rule
        assert dice.history == []


@pytest.mark.rule("CON-10")
def test_dead_targets_cannot_be_attacked() -> None:
    with pytest.raises(RuleViolation, match="already dead"):
        resolve_attack(pc(), with_conditions(npc(), "dead"), "baton", ScriptedDice([20]))


@pytest.mark.rule("SPA-13", "ATK-08")
def test_incorporeal_attackers_always_target_eac() -> None:
    ghost = npc(incorporeal=True)
    r = resolve_attack(ghost, pc(), "claw", ScriptedDice([1]))
    assert r.ac_kind == "eac"


def test_explanation_names_every_step() -> None:
    r = resolve_attack(pc(), npc(), "baton", ScriptedDice([20, 2, 3]))
    text = "\n".join(r.lines())
    assert "Target: KAC" in text and "critical hit" in text and "Ksarik: SP 0, HP 14, RP 0" in text
    assert r.to_dict()["damage"] == 11


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 20), min_size=12, max_size=12), st.sampled_from(["baton", "semi-auto", "flame pistol"]))
def test_damage_from_one_attack_never_leaves_hp_out_of_range(faces: list[int], weapon: str) -> None:
    # the first face is the d20; the rest feed d4/d6 damage dice (kept within 1-4)
    dice = ScriptedDice([f if i == 0 else min(f, 4) for i, f in enumerate(faces)])
    target = npc()
    r = resolve_attack(pc(), target, weapon, dice)
    assert 0 <= r.defender.state.hp <= target.state.hp
    lost = target.state.hp - r.defender.state.hp
    assert lost == (r.damage.amount if r.damage is not None else 0) or r.defender.state.hp == 0


@pytest.mark.rule("MOD-04", "GEN-15")
def test_concealment_miss_chance_is_rolled_on_a_hit() -> None:
    s = Situation(miss_chance=20, miss_reason="smoke")
    missed = resolve_attack(pc(), npc(), "baton", ScriptedDice([15, 20]), s)
    assert not missed.hit and "d% 20, the attack misses" in missed.concealment
    through = resolve_attack(pc(), npc(), "baton", ScriptedDice([15, 21, 2]), s)
    assert through.hit and through.damage is not None and through.damage.amount == 5


@pytest.mark.rule("MOD-05")
def test_total_concealment_is_a_50_percent_miss_chance() -> None:
    s = Situation(miss_chance=50)
    assert not resolve_attack(pc(), npc(), "baton", ScriptedDice([15, 50]), s).hit
    assert resolve_attack(pc(), npc(), "baton", ScriptedDice([15, 51, 2]), s).hit


def test_no_miss_chance_roll_on_a_miss() -> None:
    dice = ScriptedDice([2])
    r = resolve_attack(pc(), npc(), "baton", dice, Situation(miss_chance=20))
    assert not r.hit and len(dice.history) == 1
