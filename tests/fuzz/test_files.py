"""Mutated scenario, stat-block and command files load cleanly or fail with an error naming the file."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.mutate import KINDS, check_one


@pytest.mark.parametrize("kind", sorted(KINDS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
          derandomize=True)  # fmt: skip
@given(seed=st.integers(0, 2**32 - 1))
def test_a_mutated_file_loads_or_names_itself(kind: str, seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    source = rng.choice(KINDS[kind][0])
    assert check_one(kind, source, rng, tmp_path) is None
