from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sftactics.dice import parse
from sftactics.dice.distribution import attack_odds, chances, check_chance, damage_die, expr_die


@pytest.mark.rule("ATK-05", "ATK-14")
def test_hit_and_crit_chances_follow_natural_1_and_20() -> None:
    assert chances(9, 21) == (Fraction(9, 20), Fraction(1, 20))
    # needs a 30: only the natural 20 hits, and it is not a critical (total 29 < 30)
    assert chances(9, 30) == (Fraction(1, 20), Fraction(0))
    # AC 5 with +10: everything but the natural 1 hits
    assert chances(10, 5) == (Fraction(19, 20), Fraction(1, 20))


@pytest.mark.rule("ATK-14", "DMG-04")
def test_expected_damage_counts_crits_as_a_second_roll_with_bonuses() -> None:
    o = attack_odds(9, 21, parse("1d6"), 4)
    # 8/20 normal hits x 7.5 + 1/20 crits x 15 = 3.75
    assert o.expected_damage == Fraction(15, 4)
    assert o.expected_on_hit == Fraction(25, 3)
    probs = dict(o.table())
    assert probs[0] == Fraction(11, 20)
    assert probs[5] == Fraction(8, 20) * Fraction(1, 6)
    # crit range: 10..24, the lowest is 2 x (1 + 4)
    assert min(k for k in probs if k > 10) == 11
    assert max(probs) == 20
    assert sum(probs.values()) == 1


@pytest.mark.rule("ATK-17")
def test_crit_immune_target_takes_no_double_damage() -> None:
    o = attack_odds(9, 21, parse("1d6"), 4, crit_immune=True)
    assert o.critical == 0
    assert o.expected_damage == Fraction(9, 20) * Fraction(15, 2)


@pytest.mark.rule("DMG-05")
def test_minimum_damage_in_distribution() -> None:
    d = damage_die(parse("1d6"), -3)
    assert d.min_outcome() == 1
    # rolls 1-4 give -2..1, all raised to 1; 5 and 6 give 2 and 3
    assert d.probability(1) == Fraction(4, 6)
    assert d.probability(2) == Fraction(1, 6)


def test_expression_distribution() -> None:
    d = expr_die(parse("2d6"), 4)
    assert d.mean() == 11
    assert d.probability(">=", 10) == Fraction(13, 18)


@pytest.mark.rule("SV-02")
def test_check_chance_with_and_without_natural_results() -> None:
    assert check_chance(0, 25) == Fraction(1, 20)
    assert check_chance(0, 25, natural_rules=False) == 0
    assert check_chance(30, 10) == Fraction(19, 20)
    assert check_chance(30, 10, natural_rules=False) == 1


@given(st.integers(-10, 40), st.integers(1, 50))
def test_chances_are_consistent(bonus: int, ac: int) -> None:
    hit, crit = chances(bonus, ac)
    assert Fraction(1, 20) <= hit <= Fraction(19, 20)
    assert 0 <= crit <= Fraction(1, 20) <= hit
    assert hit == check_chance(bonus, ac)
