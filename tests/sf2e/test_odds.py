"""Exact odds of each degree of success (sftactics.sf2e.odds): E2-03, E2-04, E2-22."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sftactics.sf2e.degrees import Degree
from sftactics.sf2e.odds import check_odds

CS, S, F, CF = Degree.CRITICAL_SUCCESS, Degree.SUCCESS, Degree.FAILURE, Degree.CRITICAL_FAILURE


@pytest.mark.rule("E2-03", "E2-04")
def test_the_twenty_faces_split_into_the_four_degrees() -> None:
    # +11 vs 20: 19-20 reach 30 (critical), 9-18 succeed, 2-8 fail, 1 (12, a failure) drops to a critical failure
    o = check_odds(11, 20)
    assert [o.chances[d] for d in (CS, S, F, CF)] == [Fraction(2, 20), Fraction(10, 20), Fraction(7, 20),
                                                      Fraction(1, 20)]  # fmt: skip
    assert o.faces(CS) == [19, 20] and o.faces(CF) == [1]
    # +0 vs 30: every total is 10 or more below the DC, a critical failure; a natural 20 improves it to a failure
    hopeless = check_odds(0, 30)
    assert hopeless.faces(F) == [20] and hopeless.faces(S) == [] and hopeless.chances[CF] == Fraction(19, 20)
    assert sum(check_odds(5, 15).chances.values()) == 1


@pytest.mark.rule("E2-22", "E2-19")
def test_expected_damage_doubles_on_a_critical_success() -> None:
    # 1d8+4: mean 8.5; +11 vs 20: 1/2 x 8.5 + 1/10 x 17 = 5.95
    o = check_odds(11, 20, "1d8+4")
    assert o.damage_mean == Fraction(17, 2)
    assert o.expected_damage == Fraction(119, 20)
    # a penalty below the minimum: 1d4-3 (-2, -1, 0, 1) counts 0 at least (the seed's reading), 1 with
    # minimum_damage=1
    assert check_odds(0, 10, "1d4-3").damage_mean == Fraction(1, 4)
    assert check_odds(0, 10, "1d4-3", minimum_damage=1).damage_mean == 1
