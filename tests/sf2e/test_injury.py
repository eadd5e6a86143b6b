"""HP, temporary HP, knocked out, dying, wounded, doomed, death, healing, waking (sftactics.sf2e.injury):
E2-27..41, E2-63, EX-20.

``hero()`` has 30 HP and 2 Hero Points; ``foe()`` is a non-player creature with 24 HP.
"""

from __future__ import annotations

from typing import Any

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.sf2e.checks import roll_check
from sftactics.sf2e.creature import Creature2e
from sftactics.sf2e.damage_types import DamageType
from sftactics.sf2e.injury import (
    WakeCause,
    apply_damage,
    full_night_rest,
    gain_doomed,
    gain_temp_hp,
    heal,
    heroic_recovery,
    kill,
    max_dying,
    recovery_check,
    rest_ten_minutes,
    treat_wounds_success,
    wake,
)
from sftactics.sf2e.modifiers import base, explain
from sftactics.sf2e.options import Sf2eOptions

from .make import foe, hero


def dying(value: int, *, wounded: int = 0, doomed: int = 0, **over: Any) -> Creature2e:
    """The hero at 0 HP, unconscious and prone, with dying ``value`` (and wounded/doomed if given)."""
    conds = {"dying": value, "unconscious": 1, "prone": 1, "wounded": wounded, "doomed": doomed}
    return hero(hp=0, conditions={k: v for k, v in conds.items() if v}, **over)


@pytest.mark.rule("E2-27")
def test_damage_and_healing_move_hp_one_for_one_within_the_maximum() -> None:
    r = apply_damage(hero(), 12)
    assert r.creature.hp == 18 and r.lines[0].describe() == "HP: 30 - 12 = 18 [E2-27]"
    assert heal(r.creature, 20).creature.hp == 30
    assert apply_damage(hero(hp=5), 0).creature.hp == 5


@pytest.mark.rule("E2-28")
def test_temporary_hp_are_spent_first_and_never_healed() -> None:
    c = gain_temp_hp(hero(), 5, "shield spell").creature
    r = apply_damage(c, 8)
    assert (r.creature.temp_hp, r.creature.hp, r.creature.temp_hp_source) == (0, 27, "")
    assert heal(r.creature, 10).creature.temp_hp == 0
    partial = apply_damage(c, 3).creature
    assert (partial.temp_hp, partial.hp, partial.temp_hp_source) == (2, 30, "shield spell")


@pytest.mark.rule("E2-28")
def test_one_source_of_temporary_hp() -> None:
    c = gain_temp_hp(hero(), 5, "A").creature
    kept = gain_temp_hp(c, 3, "B").creature
    assert (kept.temp_hp, kept.temp_hp_source) == (5, "A")
    replaced = gain_temp_hp(c, 8, "B").creature
    assert (replaced.temp_hp, replaced.temp_hp_source) == (8, "B")
    newer = gain_temp_hp(c, 3, "B", options=Sf2eOptions(temp_hp_new_source="newer")).creature
    assert (newer.temp_hp, newer.temp_hp_source) == (3, "B")


@pytest.mark.rule("E2-31", "E2-40")
def test_a_player_character_knocked_out_gains_dying_1() -> None:
    r = apply_damage(hero(hp=5), 7)
    c = r.creature
    assert r.knocked_out and c.hp == 0 and c.dying == 1 and c.unconscious and c.has("prone") and not c.dead


@pytest.mark.rule("E2-31")
def test_critical_hit_or_critical_failure_knocks_out_at_dying_2() -> None:
    assert apply_damage(hero(hp=5), 7, critical=True).creature.dying == 2
    assert apply_damage(hero(hp=5), 7, critical_failure_save=True).creature.dying == 2


@pytest.mark.rule("E2-31")
def test_non_player_creatures_die_at_0_hp() -> None:
    r = apply_damage(foe(hp=4), 4)
    assert r.died and r.creature.death_cause == "a non-player creature at 0 HP"
    lives = apply_damage(foe(hp=4), 4, options=Sf2eOptions(npc_dies_at_zero=False))
    assert not lives.died and lives.creature.dying == 1


@pytest.mark.rule("E2-31")
def test_nonlethal_damage_knocks_out_without_dying() -> None:
    c = apply_damage(hero(hp=5), 9, nonlethal=True).creature
    assert c.unconscious and c.dying == 0 and c.hp == 0 and not c.dead


@pytest.mark.rule("E2-35", "E2-31")
def test_wounded_adds_to_dying_when_knocked_out() -> None:
    assert apply_damage(hero(hp=5, conditions={"wounded": 1}), 9).creature.dying == 2
    r = apply_damage(hero(hp=5, conditions={"wounded": 2}), 9, critical=True)
    assert r.died  # dying 2 + wounded 2 = 4


@pytest.mark.rule("E2-34")
def test_damage_while_dying_adds_1_or_2_on_a_critical_hit() -> None:
    assert apply_damage(dying(1), 3).creature.dying == 2
    assert apply_damage(dying(1), 3, critical=True).creature.dying == 3
    assert apply_damage(dying(1), 3, critical_failure_save=True).creature.dying == 2
    opt = Sf2eOptions(dying_crit_fail_save_adds_two=True)
    assert apply_damage(dying(1), 3, critical_failure_save=True, options=opt).creature.dying == 3


@pytest.mark.rule("E2-32")
def test_dying_4_is_death() -> None:
    r = apply_damage(dying(3), 1)
    assert r.died and r.creature.death_cause == "dying 4 reaches 4"
    assert max_dying(hero()) == 4


@pytest.mark.rule("EX-20", "E2-37")
def test_ex20_doomed_1_dies_at_dying_3() -> None:
    c = dying(2, doomed=1)
    assert max_dying(c) == 3
    r = apply_damage(c, 1)
    assert r.died and r.creature.death_cause == "dying 3 reaches 3 (doomed 1)"
    assert r.lines[-1].rule == "E2-37"


@pytest.mark.rule("E2-37")
def test_doomed_that_leaves_no_dying_room_kills() -> None:
    assert gain_doomed(hero(conditions={"doomed": 3})).died
    assert not gain_doomed(hero(conditions={"doomed": 2})).died
    assert gain_doomed(dying(2, doomed=1)).died  # max 2 <= dying 2


@pytest.mark.rule("E2-33")
@pytest.mark.parametrize(
    ("value", "natural", "after", "wounded"),
    [
        (1, 20, 0, 1),  # DC 11: 20 is a critical success: -2
        (1, 11, 0, 1),  # success: -1
        (1, 10, 2, 0),  # failure: +1
        (1, 1, 3, 0),  # 1 is 10 below DC 11: critical failure: +2
        (2, 20, 0, 1),  # DC 12: 20 succeeds, the natural 20 makes it critical: -2
        (3, 13, 2, 0),  # DC 13: success: -1
    ],
)
def test_recovery_check(value: int, natural: int, after: int, wounded: int) -> None:
    r = recovery_check(dying(value), ScriptedDice([natural]))
    c = r.creature
    assert c.dying == after and c.wounded == wounded and c.hp == 0 and c.unconscious
    assert r.checks[0].dc.total == 10 + value and r.checks[0].flat


@pytest.mark.rule("E2-33", "E2-32")
def test_a_failed_recovery_check_can_kill() -> None:
    r = recovery_check(dying(2), ScriptedDice([2]))  # 2 vs DC 12: critical failure, dying 4
    assert r.died
    with pytest.raises(RuleViolation, match="E2-33"):
        recovery_check(hero(), ScriptedDice([10]))


@pytest.mark.rule("E2-34", "E2-35", "E2-41")
def test_healing_ends_dying_gives_wounded_and_wakes() -> None:
    r = heal(dying(2), 4)
    c = r.creature
    assert c.hp == 4 and c.dying == 0 and c.wounded == 1 and not c.unconscious
    again = heal(dying(1, wounded=1), 1).creature
    assert again.wounded == 2


@pytest.mark.rule("E2-36", "E2-73")
def test_heroic_recovery_spends_all_hero_points_and_gives_no_wounded() -> None:
    r = heroic_recovery(dying(2), deed="thinks of her ship")
    c = r.creature
    assert c.hero_points == 0 and c.dying == 0 and c.wounded == 0 and c.hp == 0 and c.unconscious
    assert "spends all 2 Hero Points: thinks of her ship" in r.describe()
    with pytest.raises(RuleViolation, match="E2-36"):
        heroic_recovery(dying(2, hero_points=0))
    with pytest.raises(RuleViolation, match="E2-36"):
        heroic_recovery(hero())


@pytest.mark.rule("E2-36")
def test_heroic_recovery_when_dying_would_increase() -> None:
    by_damage = apply_damage(dying(3), 5, heroic_recovery=True).creature
    assert not by_damage.dead and by_damage.dying == 0 and by_damage.hero_points == 0
    by_check = recovery_check(dying(3), ScriptedDice([5]), heroic_recovery=True).creature
    assert not by_check.dead and by_check.dying == 0 and by_check.wounded == 0
    # a success lowers dying normally: no Hero Points spent
    fine = recovery_check(dying(1), ScriptedDice([15]), heroic_recovery=True).creature
    assert fine.hero_points == 2 and fine.wounded == 1


@pytest.mark.rule("E2-38")
def test_death_effect_that_reaches_0_hp_kills() -> None:
    assert apply_damage(hero(hp=5), 5, death_effect=True).died
    assert not apply_damage(hero(hp=6), 5, death_effect=True).died
    assert kill(hero(), "disintegrated").creature.death_cause == "disintegrated"


@pytest.mark.rule("E2-39")
def test_massive_damage_is_twice_the_maximum_hp() -> None:
    r = apply_damage(hero(), 60)
    assert r.died and "massive damage" in r.creature.death_cause
    assert not apply_damage(hero(), 59).died


@pytest.mark.rule("E2-27", "E2-32")
def test_the_dead_stay_dead() -> None:
    dead = kill(hero(), "test").creature
    with pytest.raises(RuleViolation, match="E2-32"):
        heal(dead, 5)
    assert apply_damage(dead, 5).creature == dead


@pytest.mark.rule("E2-31", "E2-35")
def test_damage_at_0_hp_when_stable_knocks_out_again() -> None:
    stable = hero(hp=0, conditions={"unconscious": 1, "wounded": 1})
    assert apply_damage(stable, 2).creature.dying == 2
    opt = Sf2eOptions(damage_at_zero_not_dying="nothing")
    assert apply_damage(stable, 2, options=opt).creature.dying == 0


@pytest.mark.rule("E2-30")
def test_regeneration_keeps_dying_below_death_until_its_bypass_type_hits() -> None:
    c = dying(3, regeneration=5, regeneration_bypass=frozenset({DamageType.FIRE}))
    held = apply_damage(c, 4, types=frozenset({DamageType.SLASHING})).creature
    assert held.dying == 3 and not held.dead
    burnt = apply_damage(c, 4, types=frozenset({DamageType.FIRE}))
    assert burnt.died and burnt.creature.regeneration_off_turns == 1


@pytest.mark.rule("E2-35", "E2-37")
def test_rest() -> None:
    c = hero(conditions={"doomed": 2, "wounded": 2})
    night = full_night_rest(c).creature
    assert night.doomed == 1 and night.wounded == 2
    assert full_night_rest(c, options=Sf2eOptions(wounded_daily_recovery=True)).creature.wounded == 1
    assert rest_ten_minutes(c).creature.wounded == 0  # full HP
    assert rest_ten_minutes(hero(hp=20, conditions={"wounded": 1})).creature.wounded == 1
    assert treat_wounds_success(hero(hp=20, conditions={"wounded": 1})).creature.wounded == 0


@pytest.mark.rule("E2-41")
def test_waking_up() -> None:
    asleep = hero(conditions={"unconscious": 1})
    assert not apply_damage(asleep, 3).creature.unconscious
    assert not heal(hero(hp=20, conditions={"unconscious": 1}), 1).creature.unconscious
    assert not wake(asleep, WakeCause.SHAKEN).creature.unconscious
    assert not wake(asleep, WakeCause.SLEEP_ENDS).creature.unconscious
    perception = explain("Perception", [base(6, "Perception")])
    loud = roll_check("Perception", perception, 15, ScriptedDice([10]))
    assert not wake(asleep, WakeCause.NOISE, perception=loud).creature.unconscious
    quiet = roll_check("Perception", perception, 15, ScriptedDice([2]))
    assert wake(asleep, WakeCause.NOISE, perception=quiet).creature.unconscious
    with pytest.raises(RuleViolation, match="E2-41"):
        wake(asleep, WakeCause.NOISE)
    with pytest.raises(RuleViolation, match="E2-41"):
        wake(asleep, WakeCause.NATURAL)


@pytest.mark.rule("E2-41")
def test_waking_at_0_hp() -> None:
    with pytest.raises(RuleViolation, match="1 HP or more"):
        wake(dying(1), WakeCause.SHAKEN)
    out_cold = hero(hp=0, conditions={"unconscious": 1})
    with pytest.raises(RuleViolation, match="naturally"):
        wake(out_cold, WakeCause.SHAKEN)
    assert not wake(out_cold, WakeCause.NATURAL).creature.unconscious
