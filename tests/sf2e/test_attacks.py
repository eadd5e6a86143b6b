"""Attack rolls, multiple attack penalty, range, the Strike (sftactics.sf2e.attacks): E2-10, E2-11, E2-13, E2-14,
E2-50, E2-53, E2-55, E2-69, EX-20.

``hero()``: level 3, Str +1, Dex +4, trained in attacks (+5). ``foe()``: AC 16, 24 HP, a non-player creature.
"""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.sf2e.attacks import attack_modifier, multiple_attack_penalty, range_check, strike, weapon
from sftactics.sf2e.conditions import Awareness
from sftactics.sf2e.damage import damage
from sftactics.sf2e.degrees import Degree
from sftactics.sf2e.options import Sf2eOptions

from .make import foe, hero

RIFLE = weapon("laser rifle", "1d8", "fire", range_increment=120)
CLUB = weapon("baton", "1d6", "bludgeoning")
KNIFE = weapon("knife", "1d4", "slashing", traits=("agile", "finesse", "thrown"), range_increment=10)
BOW = weapon("bow", "1d8", "piercing", traits=("propulsive",), range_increment=60)


@pytest.mark.rule("E2-13")
@pytest.mark.parametrize(
    ("number", "agile", "value"),
    [(1, False, 0), (2, False, -5), (2, True, -4), (3, False, -10), (3, True, -8), (5, False, -10)],
)
def test_multiple_attack_penalty(number: int, agile: bool, value: int) -> None:
    p = multiple_attack_penalty(number, agile=agile)
    assert (p.value if p else 0) == value


@pytest.mark.rule("E2-13")
def test_no_multiple_attack_penalty_off_your_turn() -> None:
    assert multiple_attack_penalty(3, on_own_turn=False) is None
    # computed with the weapon used for that attack
    assert attack_modifier(hero(), KNIFE, attack_number=2).total == 9 - 4
    assert attack_modifier(hero(), CLUB, attack_number=2).total == 6 - 5


@pytest.mark.rule("EX-20", "E2-14")
@pytest.mark.parametrize(
    ("distance", "increment", "penalty"),
    [(120, 1, 0), (121, 2, -2), (240, 2, -2), (241, 3, -4), (360, 3, -4), (600, 5, -8), (601, 6, -10), (720, 6, -10)],
)
def test_ex20_rifle_range_increments(distance: int, increment: int, penalty: int) -> None:
    rc = range_check(distance, 120)
    assert (rc.increment, rc.value, rc.in_range, rc.max_range_ft) == (increment, penalty, True, 720)


@pytest.mark.rule("EX-20", "E2-14")
def test_ex20_rifle_maximum_range_is_720_ft() -> None:
    assert not range_check(721, 120).in_range
    with pytest.raises(RuleViolation, match="E2-14"):
        attack_modifier(hero(), RIFLE, distance_ft=721)
    assert attack_modifier(hero(), RIFLE, distance_ft=720).total == 9 - 10


@pytest.mark.rule("E2-14")
def test_the_seeds_example_reading_is_an_option() -> None:
    opt = Sf2eOptions(range_increments="completed")
    assert [range_check(d, 120, options=opt).value for d in (239, 240, 360, 720)] == [0, -2, -4, -10]


@pytest.mark.rule("E2-10", "E2-11")
def test_attack_attributes() -> None:
    h = hero()
    assert attack_modifier(h, CLUB).total == 1 + 5  # Str
    assert attack_modifier(h, KNIFE).total == 4 + 5  # finesse: Dex is higher
    assert attack_modifier(hero(attributes={"str": 5, "dex": 2}), KNIFE).total == 5 + 5
    assert attack_modifier(h, RIFLE, distance_ft=100).total == 4 + 5  # ranged: Dex
    assert attack_modifier(h, KNIFE, ranged=True, distance_ft=10).total == 9  # thrown: Dex
    with pytest.raises(RuleViolation, match="E2-11"):
        attack_modifier(h, CLUB, ranged=True)
    with pytest.raises(RuleViolation, match="E2-10"):
        attack_modifier(h, RIFLE, ranged=False)


@pytest.mark.rule("E2-10", "E2-06")
def test_weapon_item_bonus_and_conditions() -> None:
    rune = weapon("baton +1", "1d6", "bludgeoning", item_bonus=1)
    assert attack_modifier(hero(), rune).total == 7
    scared = hero(conditions={"frightened": 1})
    assert attack_modifier(scared, rune).total == 6


@pytest.mark.rule("E2-50", "E2-11", "E2-19")
def test_strike_hits_and_deals_damage() -> None:
    r = strike(hero(), foe(), RIFLE, ScriptedDice([12, 6]), distance_ft=100)
    assert r.attack is not None and r.attack.total == 21 and r.degree is Degree.SUCCESS
    assert r.damage is not None and r.damage.total == 6  # ranged: no attribute
    assert r.target_after(foe()).hp == 18
    assert r.attack.describe() == "Navasi's Strike with laser rifle: d20 12 +9 = 21 vs AC 16: success"


@pytest.mark.rule("E2-50", "E2-22", "E2-10", "E2-19")
def test_strike_critical_doubles_and_misses_deal_nothing() -> None:
    crit = strike(hero(), foe(), CLUB, ScriptedDice([20, 4]))  # 26 vs 16: critical success
    assert crit.degree is Degree.CRITICAL_SUCCESS and crit.damage is not None and crit.damage.total == 10  # (4+1) x 2
    miss = strike(hero(), foe(), CLUB, ScriptedDice([5]))
    assert miss.degree is Degree.FAILURE and miss.damage is None and miss.target_after(foe()) == foe()


@pytest.mark.rule("E2-23", "E2-50")
def test_strike_against_a_creature_immune_to_critical_hits() -> None:
    r = strike(hero(), foe(immunities=frozenset({"critical-hits"})), CLUB, ScriptedDice([20, 4]))
    assert r.degree is Degree.CRITICAL_SUCCESS and r.damage is not None and r.damage.total == 5


@pytest.mark.rule("E2-19", "E2-20")
def test_strike_damage_attribute_by_weapon() -> None:
    strong = hero(attributes={"str": 3, "dex": 4})
    thrown = strike(strong, foe(), KNIFE, ScriptedDice([15, 2]), ranged=True, distance_ft=10)
    assert thrown.damage is not None and thrown.damage.total == 5  # full Str
    bow = strike(strong, foe(), BOW, ScriptedDice([15, 2]), distance_ft=30)
    assert bow.damage is not None and bow.damage.total == 3  # half Str, rounded down


@pytest.mark.rule("E2-31", "E2-50")
def test_strike_can_kill_a_non_player_creature() -> None:
    r = strike(hero(), foe(hp=5), CLUB, ScriptedDice([15, 4]))
    assert r.injury is not None and r.injury.died


@pytest.mark.rule("E2-53")
def test_concealed_target_needs_a_dc_5_flat_check_first() -> None:
    dice = ScriptedDice([4])
    miss = strike(hero(), foe(), CLUB, dice, awareness=Awareness.CONCEALED)
    assert miss.attack is None and miss.degree is Degree.FAILURE and len(dice.history) == 1
    hit = strike(hero(), foe(), CLUB, ScriptedDice([5, 15, 3]), awareness=Awareness.CONCEALED)
    assert hit.targeting is not None and hit.targeting.dc.total == 5 and hit.hit


@pytest.mark.rule("E2-55", "E2-61")
def test_hidden_and_undetected_targets() -> None:
    miss = strike(hero(), foe(), CLUB, ScriptedDice([10]), awareness=Awareness.HIDDEN)
    assert miss.targeting is not None and miss.targeting.dc.total == 11 and not miss.hit
    with pytest.raises(RuleViolation, match="E2-61"):
        strike(hero(), foe(), CLUB, ScriptedDice([20, 20]), awareness=Awareness.UNDETECTED)


@pytest.mark.rule("E2-69", "E2-57")
def test_flanked_target_is_off_guard_without_stacking() -> None:
    assert not strike(hero(), foe(), CLUB, ScriptedDice([8])).hit  # 14 vs 16
    flanked = strike(hero(), foe(), CLUB, ScriptedDice([8, 2]), flanked=True)
    assert flanked.hit and flanked.attack is not None and flanked.attack.dc.total == 14
    already = strike(hero(), foe(conditions={"off-guard": 1}), CLUB, ScriptedDice([8, 2]), flanked=True)
    assert already.attack is not None and already.attack.dc.total == 14


@pytest.mark.rule("E2-26", "E2-50")
def test_strike_starts_persistent_damage() -> None:
    flaming = weapon("flame baton", "1d6", "bludgeoning", extra_damage=[damage("1d4", "fire", persistent=True)])
    r = strike(hero(), foe(), flaming, ScriptedDice([15, 3]))
    after = r.target_after(foe())
    assert after.hp == 20 and [(p.dice, p.type.value, p.doubled) for p in after.persistent] == [("1d4", "fire", False)]
