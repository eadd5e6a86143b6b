from fractions import Fraction

import pytest

from sftactics.sf1e import general
from sftactics.sf1e.statblock import Weapon


@pytest.mark.rule("GEN-16")
def test_time_units() -> None:
    assert general.rounds_to_seconds(10) == 60
    assert general.minutes_to_rounds(1) == 10
    assert general.hours_to_rounds(8) == 4800


@pytest.mark.rule("GEN-09")
def test_significant_enemies() -> None:
    assert not general.is_significant_enemy(2, 6)
    assert general.is_significant_enemy(3, 6)
    assert not general.is_significant_enemy(Fraction(1, 3), 5)
    assert general.is_significant_enemy(Fraction(1, 2), 4)


@pytest.mark.rule("CF-02")
def test_insignificant_foes_for_a_party_use_the_average_level() -> None:
    assert general.insignificant_for_party(2, [6, 6, 7, 5])
    assert not general.insignificant_for_party(3, [6, 6, 7, 5])
    assert not general.insignificant_for_party(1, [])


@pytest.mark.rule("GEN-10")
def test_wielding_needs_the_right_number_of_hands() -> None:
    rifle = Weapon(name="laser rifle", category="longarm", damage="1d8 F", range_ft=120)
    pistol = Weapon(name="laser pistol", category="small_arm", damage="1d4 F", range_ft=80)
    doshko = Weapon(name="doshko", category="advanced_melee", damage="1d12 P", two_handed=True)
    bite = Weapon(name="bite", category="natural", damage="1d6 P", attack_bonus=5)
    assert general.is_wielded(rifle, 2) and not general.is_wielded(rifle, 1)
    assert general.is_wielded(pistol, 1)
    assert not general.is_wielded(pistol, 1, holstered=True)
    assert not general.is_wielded(doshko, 1)
    assert general.is_wielded(bite, 0)
