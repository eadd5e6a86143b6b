"""``sftactics map``: the command body, and the command as cli.py registers it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from sftactics.cli import app
from sftactics.core.errors import SftError
from sftactics.io.scenario import load_scenario
from sftactics.views.command import map_cmd

ROOT = Path(__file__).resolve().parents[2]
DERELICT = ROOT / "examples" / "scenarios" / "derelict-ambush.yaml"

HOLD = """\
name: Test hold
map: |
  ########
  #......#
  #..=...#
  #......#
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


def console() -> Console:
    return Console(record=True, width=200, highlight=False, soft_wrap=True)


def test_the_shipped_scenario_is_drawn_with_its_legend() -> None:
    con = console()
    map_cmd(DERELICT, None, [], None, None, con)
    text = con.export_text()
    state = load_scenario(DERELICT)
    assert text.startswith(f"{state.name}: ")
    legend = {line.split(": ", 1)[0]: line.split(": ", 1)[1] for line in text.splitlines() if ": " in line}
    for c in state.combatants.values():
        assert f" {c.id}" in legend[c.side]


@pytest.mark.rule("AOO-04", "MOD-08", "EFF-03", "EFF-36")
def test_overlays_and_svg_through_the_cli(hold: Path, tmp_path: Path) -> None:
    target = tmp_path / "hold.svg"
    r = CliRunner().invoke(
        app,
        ["map", str(hold), "--from", "Kraa", "--show", "threat,cover", "--svg", str(target),
         "--area", "burst 10 at 4,2"],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    # 10-ft reach: everything within two squares, the crate's square too (it does not block line of effect)
    assert (
        "threat: squares threatened by Kraa (K)\n"
        "   0 1 2 3 4 5 6 7\n"
        "0  # # # # # # # #\n"
        "1  # . . ! ! ! ! #\n"
        "2  # V . =!! K ! #\n"
        "3  # . . ! ! ! G!#\n"
        "4  # # # # # # # #\n"
        "key: ! threatened (AOO-01)\n"
        "  Kraa threatens 11 squares: tentacle 10 ft (and the second square on a diagonal, AOO-04)\n"
    ) in r.output
    assert "2  # Vc. = . K . #\n" in r.output
    assert "  Vex (V): cover (+4 AC, +2 Reflex, MOD-08): through cover object at (3, 2)" in r.output
    # the 10-ft burst's two squares in the north wall are left out (EFF-36)
    assert (
        "area: burst 10 ft at point 4,2 (EFF-03)\n"
        "   0 1 2 3 4 5 6 7\n"
        "0  # # # #-#-# # #\n"
        "1  # . x x x x . #\n"
        "2  # V x =xx Kx. #\n"
        "3  # . . x x . G #\n"
    ) in r.output
    assert "  in the area: Kraa\n" in r.output
    assert f"SVG written to {target}" in r.output
    root = ET.parse(target).getroot()
    names = [g.get("data-name") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "token"]
    assert names == ["Vex", "Kraa", "Gib"]


def test_repeated_show_options_and_the_side_view(hold: Path) -> None:
    r = CliRunner().invoke(
        app, ["map", str(hold), "--from", "Vex", "--show", "reach", "--show", "threat", "--view", "party"]
    )
    assert r.exit_code == 0, r.output
    assert "reach: Vex (V), land speed 30 ft, from the start of a turn" in r.output
    assert "threat: squares threatened by Vex (V)" in r.output
    assert "view of side party: only what the side perceives is drawn" in r.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from", "Nobody"], "no combatant named 'Nobody' (combatants: Vex, Kraa, Gib)"),
        (["--area", "burst 15 at"], "bad area 'burst 15 at'"),
        (["--area", "wave 15 at 3,3"], "unknown shape 'wave'"),
        (["--show", "cover"], "--show cover needs --from NAME"),
        (["--show", "sight"], "unknown overlay 'sight'"),
        (["--view", "robots"], "no side named 'robots' (sides: party, aliens)"),
    ],
)
def test_user_errors_are_sft_errors(hold: Path, args: list[str], message: str) -> None:
    r = CliRunner().invoke(app, ["map", str(hold), *args])
    assert isinstance(r.exception, SftError)
    assert message in str(r.exception)


def test_a_scenario_without_a_map_is_refused(tmp_path: Path) -> None:
    start, end = HOLD.index("map: |"), HOLD.index("combatants:")
    scenario = tmp_path / "nomap.yaml"
    scenario.write_text(HOLD[:start] + HOLD[end:], encoding="utf-8")
    with pytest.raises(SftError, match="the scenario has no map"):
        map_cmd(scenario, None, [], None, None, console())


def test_an_unwritable_svg_path_is_an_error(hold: Path, tmp_path: Path) -> None:
    with pytest.raises(SftError, match="cannot be written"):
        map_cmd(hold, None, [], tmp_path / "missing" / "map.svg", None, console())


def test_a_saved_fight_is_drawn_as_it_stands(tmp_path: Path) -> None:
    """``sftactics map fight.jsonl``: the log of a fight is read as a fight (not as a YAML scenario) and the
    map shows where everyone stands at its end."""
    from sftactics.encounter.engine import Fight

    fight = Fight.seeded(load_scenario(DERELICT), 3)
    fight.do({"type": "begin"})
    who = fight.state.timeline.turn
    assert who is not None
    start = fight.state.get(who).position
    assert start is not None
    fight.do({"type": "move", "actor": who, "to": [start[0], start[1] + 1]})
    log = tmp_path / "fight.jsonl"
    fight.save(log)
    r = CliRunner().invoke(app, ["map", str(log), "--from", who, "--show", "reach"])
    assert r.exit_code == 0, r.output
    assert f"reach: {who}" in r.output
    con = console()
    map_cmd(log, None, [], None, None, con)
    rows = con.export_text().splitlines()
    letter = next(line.split(": ")[1] for line in rows if line.startswith(fight.state.get(who).side + ": "))
    mark = next(part.split()[0] for part in letter.split(", ") if part.split()[1] == who)
    row = next(line for line in rows if line.startswith(f"{start[1] + 1}  ") or line.startswith(f" {start[1] + 1}  "))
    assert row.split()[1:][start[0]] == mark
