"""The conformance suite: adjudication cases as data (tests/conformance/cases/*.yaml, docs/conformance.md).

One test per case, named after the case and marked with its rule IDs. A case marked ``xfail`` records a ruling
the engine does not follow yet: it must fail (strict), so a fix shows up as an XPASS and the mark comes off.
"""

from __future__ import annotations

import pytest

from tests.conformance.runner import Case, load_cases, run_case

CASES = load_cases()


def _param(case: Case) -> object:
    marks = [pytest.mark.rule(*case.rules)]
    if case.xfail:
        marks.append(pytest.mark.xfail(reason=case.xfail, strict=True))
    return pytest.param(case, id=case.name, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_case(case: Case) -> None:
    run_case(case)


def test_the_suite_is_large_enough() -> None:
    assert len(CASES) >= 150
    files = {c.file for c in CASES}
    for family in ("attacks", "damage", "injury", "conditions", "movement", "aoo", "maneuvers", "cover", "areas",
                   "vehicles", "chases", "travel"):  # fmt: skip
        assert f"{family}.yaml" in files, family
