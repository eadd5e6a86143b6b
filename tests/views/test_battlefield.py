"""The battlefield at the table (``views.battlefield``): heading, roster, reach cut to the moves left."""

from __future__ import annotations

from pathlib import Path

import pytest

from sftactics.encounter.engine import Fight
from sftactics.io.scenario import load_scenario
from sftactics.views.battlefield import heading, moves_left, plain, reach_as_it_stands, roster
from sftactics.views.mapview import build_view
from tests.cli.test_play import scenario


@pytest.fixture
def duel(tmp_path: Path) -> Fight:
    fight = Fight.seeded(load_scenario(scenario(tmp_path, map=True)), 1)
    fight.do({"type": "begin"})
    return fight


def reach_marks(fight: Fight) -> set[str]:
    view = reach_as_it_stands(fight.state, build_view(fight.state, subject="Krask", show=["reach"]))
    return set(view.overlays[0].marks.values())


@pytest.mark.rule("ACT-02", "ACT-35")
def test_the_reach_overlay_shows_only_the_moves_left(duel: Fight) -> None:
    assert moves_left(duel.state, "Krask") == 2 and reach_marks(duel) == {"1", "2"}
    duel.do({"type": "move", "actor": "Krask", "to": [2, 1]})
    assert moves_left(duel.state, "Krask") == 1 and reach_marks(duel) == {"1"}  # the standard as a move
    duel.do({"type": "move", "actor": "Krask", "to": [3, 1]})
    assert moves_left(duel.state, "Krask") == 0 and reach_marks(duel) == set()
    view = reach_as_it_stands(duel.state, build_view(duel.state, subject="Krask", show=["reach"]))
    assert "no move action left this turn" in view.overlays[0].title
    assert moves_left(duel.state, "Ksarik") == 2  # as at the start of its turn


def test_heading_and_roster_say_whose_turn_and_how_everyone_stands(duel: Fight) -> None:
    duel.do({"type": "add_condition", "target": "Ksarik", "condition": "shaken", "rounds": 2})
    assert heading(duel.state) == "Duel: round 1, Krask's turn"
    view = build_view(duel.state)
    assert roster(duel.state, view) == [
        ("K", "party", "Krask at 1,1: HP 20/20 SP 18/18  <- turn"),
        ("S", "monsters", "Ksarik at 8,3: HP 25/25; shaken"),
    ]
    assert plain(duel.state, view).startswith("Duel: round 1, Krask's turn\nDuel: 10x5 squares")
    duel.do({"type": "end_combat", "reason": "truce"})
    assert heading(duel.state) == "Duel: over in round 1 (nobody wins)"
