"""Sides that have located no foe go looking for them (sim.search), through the engine's movement and perception."""

from __future__ import annotations

from pathlib import Path

import pytest

from sftactics.encounter import perception as enc_perception
from sftactics.encounter.commands import Begin
from sftactics.encounter.engine import pending
from sftactics.encounter.seek import step_toward, toward_foes
from sftactics.io.scenario import load_scenario
from sftactics.sf1e.senses import Awareness
from sftactics.sim import perception
from sftactics.sim.fight import SimFight, run_fight
from sftactics.sim.policies import make_policy
from sftactics.sim.search import LATTICE, Seeker

from .conftest import write

# two rooms with a wall between them; the only way through is the gap at the bottom
ROOMS = """\
############
#....#.....#
#....#.....#
#....#.....#
#....#.....#
#..........#
############"""

BULKHEAD = Path(__file__).resolve().parents[2] / "scenarios" / "bulkhead-hunt.yaml"


@pytest.fixture
def rooms(tmp_path: Path) -> Path:
    return write(tmp_path, "rooms", [
        "{id: A, side: west, statblock: hobbe-hound, at: [1, 1], initiative: 30}",
        "{id: B, side: east, statblock: hobbe-hound, at: [9, 1], initiative: 1}",
    ], ROOMS)  # fmt: skip


def _begun(path: Path) -> SimFight:
    fight = SimFight(load_scenario(path), 1, keep_log=True)
    fight.do(Begin())
    return fight


def test_nobody_is_located_through_the_wall(rooms: Path) -> None:
    fight = _begun(rooms)
    assert perception.visible_enemies(fight.state, "west") == []
    assert perception.visible_enemies(fight.state, "east") == []


def test_the_goals_in_order(rooms: Path) -> None:
    """Last located square first, then where the foes started, then the search pattern's waypoints."""
    fight = _begun(rooms)
    me = fight.state.get("A")
    seeker = Seeker()
    assert seeker.goal(fight, me) == (9, 1)  # B's starting square
    seeker.memory("west").last_seen["B"] = (7, 3)
    assert seeker.goal(fight, me) == (7, 3)
    seeker.memory("west").visited |= {(7, 3), (9, 1)}
    seeker.memory("west").last_seen.clear()
    goal = seeker.goal(fight, me)
    assert goal is not None and goal[0] % LATTICE == LATTICE // 2 and goal[1] % LATTICE == LATTICE // 2
    assert goal == (6, 2)  # the nearest by path, through the gap: (2, 2) is next to A, so visited already
    assert (2, 2) in seeker.memory("west").visited


@pytest.mark.parametrize("policy", ["simple", "tactical"])
def test_a_turn_moves_toward_the_foes_start(rooms: Path, policy: str) -> None:
    fight = _begun(rooms)
    assert pending(fight.state) == "A"
    make_policy(policy)(fight, "A")
    moves = [c for c in fight.commands if c.type == "move"]
    assert len(moves) == 2  # a double move, down toward the gap
    end = fight.state.get("A").position
    assert end is not None and end[1] > 1
    assert end != (1, 1)


@pytest.mark.rule("SEN-05")
def test_a_search_when_it_knows_a_foe_is_there_but_not_where(tmp_path: Path) -> None:
    """Aware of B's presence (not of its square) while its senses could pinpoint it: A searches (a Perception
    check, SEN-05) before going anywhere."""
    path = write(tmp_path, "open", [
        "{id: A, side: west, statblock: hobbe-hound, at: [1, 1], initiative: 30}",
        "{id: B, side: east, statblock: hobbe-hound, at: [9, 4], initiative: 1}",
    ])  # fmt: skip
    fight = _begun(path)
    key = enc_perception.key("A", "B")
    fight.state = fight.state.model_copy(update={"awareness": {**fight.state.awareness, key: 1}})
    assert enc_perception.view(fight.state, "A", "B") == Awareness.AWARE_OF_PRESENCE
    assert perception.visible_enemies(fight.state, "west") == []
    assert Seeker().step(fight, "A")
    assert fight.commands[-1].type == "search"
    assert enc_perception.view(fight.state, "A", "B") >= Awareness.AWARE_OF_LOCATION


@pytest.mark.parametrize(("policy", "seeds"), [("simple", 16), ("tactical", 4)])
def test_sides_behind_a_wall_find_each_other_and_fight_it_out(policy: str, seeds: int) -> None:
    """The shipped bulkhead scenario: before the sides went looking, every fight was a draw at the round limit."""
    enc = load_scenario(BULKHEAD)
    results = [run_fight(enc, s, {"*": make_policy(policy)})[0] for s in range(seeds)]
    assert not any(r.round_limited for r in results)
    assert sum(r.winner is not None for r in results) >= 0.75 * seeds


def test_the_built_in_policy_searches_then_goes_toward_the_foes_start(rooms: Path) -> None:
    """``encounter.policy.simple`` (the policy of ``sftactics run``): a Perception check, then a move along the path
    toward where B started (encounter.seek), which the wall hides."""
    fight = _begun(rooms)
    make_policy("engine")(fight, "A")
    assert [c.type for c in fight.commands[1:]] == ["search", "move", "end_turn"]
    end = fight.state.get("A").position
    assert end is not None and end[1] > 1  # down toward the gap, not into the wall
    assert toward_foes(fight.start, fight.state, fight.state.get("B")) is not None


def test_the_built_in_policy_goes_toward_a_foe_an_ally_located(tmp_path: Path) -> None:
    path = write(tmp_path, "ally", [
        "{id: A, side: west, statblock: hobbe-hound, at: [1, 1], initiative: 30}",
        "{id: C, side: west, statblock: hobbe-hound, at: [6, 4], initiative: 20}",
        "{id: B, side: east, statblock: hobbe-hound, at: [9, 1], initiative: 1}",
    ], ROOMS)  # fmt: skip
    fight = _begun(path)
    assert perception.visible_enemies(fight.state, "west") != []  # C, in B's room, sees it
    assert perception.targets_for(fight.state, "A") == []
    to = toward_foes(fight.start, fight.state, fight.state.get("A"))
    assert to == step_toward(fight.state, fight.state.get("A"), (9, 1))
