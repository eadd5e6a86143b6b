"""Degrees of success (sftactics.sf2e.degrees): E2-03, E2-04."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sftactics.sf2e.degrees import Degree, DegreeOfSuccess, degree_for, natural_shift

CF, F, S, CS = Degree.CRITICAL_FAILURE, Degree.FAILURE, Degree.SUCCESS, Degree.CRITICAL_SUCCESS


@pytest.mark.rule("E2-03")
@pytest.mark.parametrize(
    ("total", "dc", "expected"),
    [
        (25, 15, CS),  # exactly DC + 10
        (24, 15, S),
        (15, 15, S),  # meets the DC
        (14, 15, F),
        (6, 15, F),
        (5, 15, CF),  # exactly DC - 10: "below DC by 10 or more"
        (-3, 15, CF),
    ],
)
def test_degree_from_total_and_dc(total: int, dc: int, expected: Degree) -> None:
    assert degree_for(total, dc) is expected
    assert DegreeOfSuccess(total, dc).degree is expected


@pytest.mark.rule("E2-04")
@pytest.mark.parametrize(
    ("total", "dc", "natural", "expected"),
    [
        (20, 25, 20, S),  # failure improved to success
        (9, 25, 20, F),  # critical failure improved to failure only
        (30, 20, 20, CS),  # already a critical success: stays
        (21, 20, 1, F),  # success worsened to failure
        (30, 20, 1, S),  # critical success worsened to success
        (5, 20, 1, CF),  # already a critical failure: stays
        (20, 20, 10, S),  # other naturals change nothing
    ],
)
def test_natural_20_and_1_shift_one_step(total: int, dc: int, natural: int, expected: Degree) -> None:
    d = DegreeOfSuccess(total, dc, natural)
    assert d.degree is expected


@pytest.mark.rule("E2-04")
def test_the_explanation_says_how_the_degree_was_reached() -> None:
    assert DegreeOfSuccess(20, 25, 20).describe() == "20 vs DC 25: failure, improved to success by a natural 20"
    assert DegreeOfSuccess(5, 20, 1).describe() == "5 vs DC 20: critical failure (natural 1: already the worst degree)"
    assert DegreeOfSuccess(16, 15).describe() == "16 vs DC 15: success"


@pytest.mark.rule("E2-03", "E2-04")
def test_degree_shifting_stops_at_the_ends() -> None:
    assert CS.improved() is CS and CF.worsened() is CF
    assert F.shifted(2) is CS and S.shifted(-5) is CF
    assert [d.succeeded for d in Degree] == [False, False, True, True]
    assert natural_shift(None) == 0 and natural_shift(20) == 1 and natural_shift(1) == -1


totals = st.integers(min_value=-40, max_value=80)
dcs = st.integers(min_value=-5, max_value=50)
naturals = st.one_of(st.none(), st.integers(min_value=1, max_value=20))


@pytest.mark.rule("E2-03", "E2-04")
@given(a=totals, b=totals, dc=dcs, natural=naturals)
def test_degree_is_monotonic_in_the_total(a: int, b: int, dc: int, natural: int | None) -> None:
    lo, hi = sorted((a, b))
    assert DegreeOfSuccess(lo, dc, natural).degree <= DegreeOfSuccess(hi, dc, natural).degree


@pytest.mark.rule("E2-04")
@given(total=totals, dc=dcs)
def test_natural_20_is_never_worse_and_natural_1_never_better(total: int, dc: int) -> None:
    plain = DegreeOfSuccess(total, dc).degree
    twenty = DegreeOfSuccess(total, dc, 20)
    one = DegreeOfSuccess(total, dc, 1)
    assert twenty.degree >= plain and twenty.unshifted is plain
    assert one.degree <= plain
    assert abs(twenty.degree - plain) <= 1 and abs(one.degree - plain) <= 1


@pytest.mark.rule("E2-03")
@given(total=totals, dc=dcs)
def test_degree_depends_only_on_the_margin(total: int, dc: int) -> None:
    assert degree_for(total, dc) is degree_for(total - dc, 0)
