"""The second benchmark room of issue 22 (``bench/reach_bench.py``: rooms joined by doorways, cover objects and
low walls, the far rooms in dim light) in the compiled kernel: same dice, same fight, with a Medium ksarik in the
Large creature's place (the level-5 party against it and two skip tracers, as ``simulate --no-abilities``)."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from sftactics.encounter.state import Encounter
from sftactics.sim.kernel.model import unsupported
from tests.sim.test_kernel import assert_same_fight, scripts

ROOM = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def room2() -> Encounter:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from reach_bench import room2 as bench_room2

    enc: Encounter = bench_room2("ksarik")
    return enc


def test_the_kernel_plays_the_second_room() -> None:
    assert unsupported(room2()) == []


@pytest.mark.rule("MOD-07", "MOD-08", "MOD-10", "MOD-11", "VIS-03", "EFF-37")
@ROOM
@given(values=scripts())
def test_same_dice_same_fight_second_room(values: list[int]) -> None:
    assert_same_fight(room2(), values)


@pytest.mark.rule("MOD-07", "MOD-08", "MOD-10", "MOD-11", "VIS-03", "EFF-37")
@ROOM
@given(values=scripts())
def test_tactical_same_dice_same_fight_second_room(values: list[int]) -> None:
    assert_same_fight(room2(), values, policy="tactical")
