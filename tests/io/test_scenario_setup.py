"""A scenario can describe a fight already under way (issue 15, section 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sftactics.core.errors import FileFormatError, RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.encounter.commands import Begin, EndTurn
from sftactics.encounter.engine import Fight, pending
from sftactics.io.scenario import load_scenario

UNDER_WAY = """\
name: under way
map: |
  ........
  ........
{timeline}
combatants:
  - {{id: Krask, side: party, statblock: vesk-soldier, at: [0, 0], initiative: 18, aware: false}}
  - {{id: Nyx, side: party, statblock: ysoki-operative, at: [0, 1], initiative: 12}}
  - {{id: Gutter, side: aliens, statblock: space-goblin, at: [6, 0], initiative: 15}}
  - {{id: Snip, side: aliens, statblock: space-goblin, at: [6, 1], initiative: 9}}
"""


def _load(tmp_path: Path, timeline: str) -> Fight:
    p = tmp_path / "s.yaml"
    p.write_text(UNDER_WAY.format(timeline=timeline))
    f = Fight(load_scenario(p), ScriptedDice([]))
    f.do(Begin())
    return f


@pytest.mark.rule("CF-12", "CF-15")
def test_a_fight_under_way_starts_at_its_round_and_turn(tmp_path: Path) -> None:
    f = _load(tmp_path, "timeline: {round: 3, turn: Nyx}")
    t = f.state.timeline
    assert (t.phase, t.round, t.turn) == ("round", 3, "Nyx")
    assert t.order == ("Krask", "Gutter", "Nyx", "Snip")
    assert set(t.done) == {"Krask", "Gutter"}
    assert all(c.acted for c in f.state.combatants.values())  # round 3: everyone can react
    assert not f.state.get("Krask").creature.has("flat-footed")  # no surprise round for a fight under way
    with pytest.raises(RuleViolation):
        f.do(EndTurn(actor="Krask"))
    f.do(EndTurn(actor="Nyx"))
    assert pending(f.state) == "Snip"


@pytest.mark.rule("CF-15")
def test_in_the_first_round_only_those_who_acted_have_acted(tmp_path: Path) -> None:
    f = _load(tmp_path, "timeline: {round: 1, acted: [Gutter]}")
    t = f.state.timeline
    assert t.turn == "Krask" and t.done == ("Gutter",)
    assert f.state.get("Gutter").acted and not f.state.get("Nyx").acted


@pytest.mark.parametrize(
    ("timeline", "expected"),
    [("timeline: {round: 2, turn: Bob}", "no combatant named 'Bob'"),
     ("timeline: {round: 2, turn: Nyx, acted: [Nyx]}", "cannot have acted already"),
     ("timeline: {round: 0}", "greater than or equal to 1")],
)  # fmt: skip
def test_a_bad_timeline_is_refused_naming_it(tmp_path: Path, timeline: str, expected: str) -> None:
    p = tmp_path / "s.yaml"
    p.write_text(UNDER_WAY.format(timeline=timeline))
    with pytest.raises(FileFormatError) as e:
        load_scenario(p)
    assert expected in e.value.expected
    assert e.value.field.startswith("timeline") or "timeline" in e.value.expected


def test_a_fight_under_way_needs_every_initiative(tmp_path: Path) -> None:
    p = tmp_path / "s.yaml"
    p.write_text(UNDER_WAY.format(timeline="timeline: {round: 2}").replace(", initiative: 9", ""))
    with pytest.raises(FileFormatError, match=r"needs everyone's initiative \(Snip\)"):
        load_scenario(p)
