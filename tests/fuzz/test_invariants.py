"""Random command sequences (legal and illegal) on every shipped scenario keep the engine's invariants: a refused
command changes nothing and keeps no dice; nobody stands on a wall, off the map or on a creature that is not
helpless; only the combatant the engine waits for acts, and only if it can; undo and replay give the state back.
``make fuzz`` runs the same checks for much longer (scripts/fuzz.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sftactics.encounter.commands import Begin
from sftactics.encounter.engine import Fight
from sftactics.io.scenario import load_scenario
from tests.fuzz.invariants import SCENARIOS, play_sequence


@pytest.mark.rule("CF-12", "MOV-01", "MOV-16", "CON-12", "CON-35")
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_commands_keep_the_invariants(path: object, seed: int) -> None:
    fight = Fight.seeded(load_scenario(path), seed)  # type: ignore[arg-type]
    fight.do(Begin())
    problems = list(play_sequence(fight, random.Random(seed), 60))
    assert problems == []
