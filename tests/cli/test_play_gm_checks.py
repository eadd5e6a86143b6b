"""``sftactics play`` takes the GM's checks, hazards and smothering as JSON lines, like any other command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_play import scenario, session


@pytest.mark.rule("GEN-02", "CON-05", "EFF-03")
def test_checks_hazards_and_smothering_as_json_lines(tmp_path: Path) -> None:
    lines = [
        '{"type": "smother"}',
        '{"type": "check", "target": "Krask", "ability": "str", "dc": 10, "action": "move", "what": "lift the hatch"}',
        '{"type": "area_effect", "name": "vent", "area": {"shape": "burst", "size_ft": 5, "at": [8, 3]}, '
        '"save": {"type": "ref", "dc": 30}, "damage": "3"}',
        "cond krask burning",
        '{"type": "smother"}',
    ]
    s, script, text = session(scenario(tmp_path, map=True), lines, seed=4)
    out = text()
    assert "Refused: Krask is not burning" in out and "[CON-05]" in out
    assert script.states[1] == script.states[0]
    assert "Krask Strength check (lift the hatch): d20" in out
    assert json.loads(script.states[2])["combatants"]["Krask"]["spent"] == ["move"]
    assert "Ksarik ref save against vent" in out
    assert (
        s.fight.state.creature("Ksarik").state.hp
        < json.loads(script.states[0])["combatants"]["Ksarik"]["creature"]["state"]["hp"]
    )
    # a full action after the move is refused, naming the rule
    assert "Refused: a full action needs the whole turn" in out
