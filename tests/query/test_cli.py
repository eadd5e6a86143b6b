"""``sftactics query``: the board's questions on the command line, as text and as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sftactics.cli import app
from sftactics.core.errors import SftError
from sftactics.encounter.commands import Begin, EndTurn, Move
from tests.encounter.helpers import combatant, encounter, fight

HOLD = """\
name: Test hold
map: |
  ########
  #......#
  #..=...#
  #...~~.#
  ########
combatants:
  - id: Vex
    side: party
    at: [1, 2]
    statblock:
      {name: Vex, cr: "1", hp: 20, eac: 14, kac: 16, saves: {fort: 3, ref: 3, will: 1},
       weapons: [{name: baton, category: basic_melee, damage: 1d4 B, attack_bonus: 5},
                 {name: pistol, category: small_arm, damage: 1d6 P, range_ft: 30, attack_bonus: 5}]}
  - id: Kraa
    side: aliens
    at: [5, 2]
    statblock:
      {name: Kraa, cr: "2", hp: 25, eac: 13, kac: 15, saves: {fort: 6, ref: 4, will: 1}, reach_ft: 10,
       weapons: [{name: tentacle, category: natural, damage: 1d6+5 B, attack_bonus: 10}]}
  - id: Gib
    side: aliens
    at: [6, 3]
    statblock:
      {name: Gib, cr: "1/3", hp: 6, eac: 10, kac: 11, saves: {fort: 1, ref: 3, will: 0}, size: small,
       weapons: [{name: knife, category: basic_melee, damage: 1d4 S, attack_bonus: 3}]}
"""


@pytest.fixture
def hold(tmp_path: Path) -> Path:
    path = tmp_path / "hold.yaml"
    path.write_text(HOLD, encoding="utf-8")
    return path


def ask(*args: str) -> str:
    r = CliRunner().invoke(app, ["query", *args])
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.rule("AOO-01", "AOO-04")
def test_threat_as_text(hold: Path) -> None:
    # a 10-ft reach threatens the second square on a diagonal; the wall squares are left out
    assert ask(str(hold), "threat", "Kraa") == (
        "threat: 12 squares: 3,1 3,2 3,3 4,1 4,2 4,3 5,1 5,2 5,3 6,1 6,2 6,3\n"
        "  - tentacle: 10-ft reach\n"
        "  - 12 squares threatened (its own squares included)\n"
        "  rules: AOO-01, AOO-02, AOO-03, AOO-04, AOO-05\n"
    )
    assert ask(str(hold), "threateners", "4,1").startswith("threateners: Kraa\n")
    assert ask(str(hold), "threatens", "Kraa", "3,3").startswith("threatens: yes\n")
    assert ask(str(hold), "threatens", "Gib", "3,3").startswith("threatens: no\n")


@pytest.mark.rule("MOD-07", "MOD-08")
def test_cover_as_text_and_as_json(hold: Path) -> None:
    text = ask(str(hold), "cover", "Vex", "Kraa")
    assert text.startswith("cover: cover, no concealment\n  4 = +4 cover [MOD-08]\n")
    assert "  - line 1,2 -> 5,3: cover (through cover object at (3, 2))\n" in text
    data = json.loads(ask(str(hold), "cover", "Vex", "Kraa", "--json"))
    assert data["question"] == "cover" and data["rules"] == ["MOD-08", "MOD-01"]
    v = data["value"]
    assert (v["cover"], v["ac_bonus"], v["reflex_bonus"], v["corner"]) == ("cover", 4, 2, [1, 2])
    assert [ln["cover"] for ln in v["lines"]] == ["none", "none", "cover", "cover"]
    assert data["terms"] == [{"value": 4, "label": "cover", "type": "untyped", "rule": "MOD-08", "source": "cover"}]


@pytest.mark.rule("MOV-10", "MOV-17")
def test_path_to_a_square_and_along_squares(hold: Path) -> None:
    expected = (
        "path: 20 ft of 30 ft\n"
        "  20 = +5 to 2,3 (diagonal) [MOV-10] +5 to 3,3 (straight) [MOV-05] +10 to 4,3 (straight, hampered x2) "
        "[MOV-17]\n"
    )
    assert ask(str(hold), "path", "Vex", "to", "4,3").startswith(expected)
    assert ask(str(hold), "path", "Vex", "2,3", "3,3", "4,3").startswith(expected)
    data = json.loads(ask(str(hold), "path", "Vex", "to", "6,1", "--actions", "2", "--json"))
    assert data["value"]["budget_ft"] == 60 and data["value"]["squares"][-1] == [6, 1]


@pytest.mark.rule("EFF-03", "EFF-04", "ATK-10")
def test_area_and_range(hold: Path) -> None:
    assert ask(str(hold), "area", "burst", "10", "at", "4,2").startswith("area: Kraa\n")
    assert ask(str(hold), "area", "burst", "5", "at", "Kraa").startswith("area: Kraa, Gib\n")
    data = json.loads(ask(str(hold), "range", "Vex", "Gib", "--json"))
    assert data["value"] == {
        "weapon": "pistol", "distance_ft": 25, "melee": False, "in_range": True, "increment_ft": 30,
        "increment": 1, "penalty": 0, "max_range_ft": 300,
    }  # fmt: skip


@pytest.mark.rule("ACT-02", "ACT-35")
def test_a_saved_fight_is_asked_where_it_stands(tmp_path: Path) -> None:
    f = fight(
        encounter(
            combatant("Tess", "party", initiative=30, position=(0, 0)),
            combatant("Goblin", "aliens", initiative=5, position=(6, 0)),
            map="\n".join(["." * 8] * 3),
        ),
        [],
    )
    f.do(Begin())
    f.do(Move(actor="Tess", to=(2, 0)))
    log = tmp_path / "fight.jsonl"
    f.save(log)
    data = json.loads(ask(str(log), "actions", "Tess", "--json"))
    assert data["value"]["moved_ft"] == 10 and data["value"]["remaining"] == ["standard", "move", "swift"]
    assert ask(str(log), "stats", "Goblin").startswith("stats: EAC 13, KAC 15, Fort +4, Ref +4, Will +2, speed 30 ft\n")
    f.do(EndTurn(actor="Tess"))
    f.save(log)
    assert json.loads(ask(str(log), "actions", "Tess", "--json"))["value"]["their_turn"] is False


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bogus", "Vex"], "unknown question 'bogus'"),
        (["path", "Vex", "4,x"], "path: expected a square x,y (e.g. 4,2), got '4,x'"),
        (["cover", "Vex"], "cover: expected ATTACKER TARGET|X,Y [--melee]"),
        (["reach", "Nobody"], "no combatant named 'Nobody'"),
        (["area", "wave", "10", "at", "1,1"], "area: the shape is burst, emanation, spread, cone or line"),
        (["area", "cone", "15", "at", "Vex"], "a cone starts at a corner x,y"),
        (["reachable", "Vex", "--actions", "3"], "--actions is 1 (one move action) or 2 (a double move)"),
    ],
)
def test_mistakes_say_what_to_fix(hold: Path, args: list[str], message: str) -> None:
    r = CliRunner().invoke(app, ["query", str(hold), *args])
    assert isinstance(r.exception, SftError) and message in str(r.exception)
