"""Property: whatever the pilots do and however the dice fall, chase progress leaves every vehicle still in the
chase within reach of its adversaries, moves no vehicle more than it may, and ends the chase exactly when a side
is gone (CHS-10, CHS-12, CHS-14, CHS-17, CHS-20, CHS-23)."""

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import SeededDice
from sftactics.sf1e.vehicles.chase import (
    Chase,
    Command,
    DoubleManeuver,
    EndRound,
    Forfeit,
    LeaveUncontrolled,
    Pass,
    PilotAction,
    Progress,
    step,
)
from tests.sf1e.vehicles.chase_helpers import chase_of, entry

ACTIONS = ["keep_pace", "speed_up", "evade", "trick", "slow_down", "engage", "break_free", "double", "loose"]


def _command(c: Chase, vid: str, choice: str) -> Command:
    if choice == "double":
        return DoubleManeuver(vid)
    if choice == "loose":
        return LeaveUncontrolled(vid)
    target = None
    if choice == "engage":
        me = c.get(vid)
        near = [e.id for e in c.enemies(vid) if e.zone == me.zone]
        target = near[0] if near else None
    return PilotAction(vid, choice, target=target)  # type: ignore[arg-type]


def _pilot_phase(c: Chase, plan: Iterator[str], dice: SeededDice) -> Chase:
    while c.phase == "pilot_actions":
        vid = c.current_pilot
        assert vid is not None
        try:
            c = step(c, _command(c, vid, next(plan)), dice).chase
        except RuleViolation:
            rec = c.record(vid)
            fallback: Command = Forfeit(vid) if rec is not None and rec.double and rec.actions else Pass(vid)
            if rec is not None and rec.double and not rec.actions:
                fallback = PilotAction(vid, "keep_pace")
            c = step(c, fallback, dice).chase
    return c


@pytest.mark.rule("CHS-17", "CHS-20", "CHS-23")
@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    plan=st.lists(st.sampled_from(ACTIONS), min_size=40, max_size=40),
    starts=st.tuples(st.integers(-1, 1), st.integers(-1, 1), st.integers(-1, 1)),
)
def test_chase_positions_stay_in_range(seed: int, plan: list[str], starts: tuple[int, int, int]) -> None:
    c = chase_of(entry("a", "x", starts[0]), entry("b", "y", starts[1]), entry("c", "y", starts[2]))
    dice = SeededDice(seed)
    moves = iter(plan * 10)
    for _ in range(4):
        before = {v.id: v.zone for v in c.active}
        c = _pilot_phase(c, moves, dice)
        c = step(c, Progress(), dice).chase
        for vid, z in before.items():
            # up to two zones from a double maneuver's two speed-ups, plus one in chase progress
            assert -1 <= c.get(vid).zone - z <= 3
        for v in c.active:
            foes = [e.zone for e in c.enemies(v.id)]
            if foes:
                assert not all(v.zone - f >= 2 for f in foes)  # would have escaped
                assert not all(f - v.zone >= 2 for f in foes)  # would have been left behind
        assert c.over == (len({v.side for v in c.active}) <= 1)
        if c.over:
            break
        c = step(c, EndRound(), dice).chase
