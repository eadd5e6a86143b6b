"""Morale as a choice per side: fight-to-the-death, by-the-book (the default), cautious (sim.morale)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from sftactics.core.errors import FileFormatError
from sftactics.encounter.commands import Begin
from sftactics.encounter.engine import pending
from sftactics.io.files import load_model
from sftactics.io.scenario import ScenarioFile, load_scenario, side_morale
from sftactics.sim.cli import simulate_cmd
from sftactics.sim.fight import SimFight, run_fight
from sftactics.sim.morale import MORALES, parse_morale, shaken
from sftactics.sim.policies import make_policy
from sftactics.sim.runner import SimJob

from .conftest import write

app = typer.Typer()
app.command("simulate")(simulate_cmd)  # the only command: invoked without its name


def _hurt(tmp_path: Path, hp: int, extra: str = "") -> Path:
    """Krask (20 HP, 18 SP) hurt to ``hp`` HP and no Stamina, 40 ft from a hobbe hound; Krask acts first.
    ``extra``: more of the scenario file (its ``sides``)."""
    path = write(tmp_path, f"hurt{hp}", [
        f"{{id: Krask, side: party, statblock: pregen-soldier-2, at: [2, 3], initiative: 30, "
        f"state: {{hp: {hp}, sp: 0}}}}",
        "{id: Hound, side: foes, statblock: hobbe-hound, at: [10, 3], initiative: 1}",
    ])  # fmt: skip
    path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return path


def _first_turn(path: Path, policy: str, morale: str) -> SimFight:
    fight = SimFight(load_scenario(path), 1, keep_log=True)
    fight.do(Begin())
    assert pending(fight.state) == "Krask"
    make_policy(policy, morale)(fight, "Krask")  # type: ignore[arg-type]
    return fight


def test_the_choices() -> None:
    assert MORALES == ("fight-to-the-death", "by-the-book", "cautious")
    assert parse_morale(None) == {"*": "by-the-book"}
    assert parse_morale("cautious", {"gang": "fight-to-the-death"}) == {"*": "cautious", "gang": "fight-to-the-death"}
    with pytest.raises(ValueError, match="unknown morale 'brave'"):
        parse_morale("brave")


def test_shaken_below_half_or_half_the_side_lost(tmp_path: Path) -> None:
    """Half of 38 (SP + HP) is 19: 19 left is not below half, 18 is."""
    at_half = load_scenario(_hurt(tmp_path, 19))
    assert not shaken(at_half, at_half.get("Krask"))
    below = load_scenario(_hurt(tmp_path, 18))
    assert shaken(below, below.get("Krask"))
    pair = load_scenario(write(tmp_path, "pair", [
        "{id: A, side: party, statblock: hobbe-hound, at: [2, 2]}",
        "{id: B, side: party, statblock: hobbe-hound, at: [2, 4], state: {hp: 0, conditions: [{name: dying}]}}",
        "{id: C, side: foes, statblock: hobbe-hound, at: [10, 3]}",
    ]))  # fmt: skip
    assert shaken(pair, pair.get("A"))  # one of two down: half the side lost


@pytest.mark.parametrize("policy", ["simple", "tactical"])
def test_cautious_withdraws_when_shaken(tmp_path: Path, policy: str) -> None:
    fight = _first_turn(_hurt(tmp_path, 10), policy, "cautious")
    kinds = [c.type for c in fight.commands if getattr(c, "actor", None) == "Krask"]
    assert kinds[0] == "withdraw"
    start, now = (2, 3), fight.state.get("Krask").position
    assert now is not None and now[0] < start[0]  # away from the hound


@pytest.mark.parametrize("policy", ["simple", "tactical"])
@pytest.mark.parametrize("morale", ["by-the-book", "fight-to-the-death"])
def test_by_the_book_and_to_the_death_do_not_withdraw_when_hurt(tmp_path: Path, policy: str, morale: str) -> None:
    fight = _first_turn(_hurt(tmp_path, 10), policy, morale)
    kinds = [c.type for c in fight.commands if getattr(c, "actor", None) == "Krask"]
    assert "withdraw" not in kinds


def test_a_cautious_side_concedes(tmp_path: Path) -> None:
    enc = load_scenario(_hurt(tmp_path, 10))
    result, _ = run_fight(enc, 1, {"party": make_policy("simple", "cautious"), "foes": make_policy("simple")})
    assert result.conceded == "party" and result.winner == "foes"


def test_fight_to_the_death_never_concedes(hopeless: Path) -> None:
    """By the book the party concedes some of these fights (test_policies); to the death it never does."""
    enc = load_scenario(hopeless)
    policies = {"party": make_policy("tactical", "fight-to-the-death"), "monster": make_policy("tactical")}
    results = [run_fight(enc, s, policies)[0] for s in range(4)]
    assert all(r.conceded is None for r in results)
    assert all(r.winner == "monster" for r in results)


def test_the_job_checks_morale_and_the_kernel_plays_every_morale(skirmish: Path) -> None:
    enc = load_scenario(skirmish)
    with pytest.raises(ValueError, match="unknown morale"):
        SimJob(enc, {"*": "simple"}, morale={"*": "brave"})
    with pytest.raises(ValueError, match="morale: no side named 'pirates'"):
        SimJob(enc, {"*": "simple"}, morale={"pirates": "cautious"})
    job = SimJob(enc, {"*": "tactical"}, morale={"*": "by-the-book", "aliens": "cautious"})
    assert job.morale_map() == {"party": "by-the-book", "aliens": "cautious"}
    assert not any("morale" in why for why in job.kernel_refusals())  # sim.kernel.abilities plays it
    simple = SimJob(enc, {"*": "simple"}, morale={"*": "cautious"})
    assert not any("morale" in why for why in simple.kernel_refusals())


def test_the_scenario_names_a_side_morale(tmp_path: Path) -> None:
    path = _hurt(tmp_path, 10, "sides:\n  party: {morale: cautious}\n")
    scen = load_model(path, ScenarioFile)
    assert side_morale(scen) == {"party": "cautious"}
    bad = _hurt(tmp_path, 10, "sides:\n  pirates: {morale: cautious}\n")
    with pytest.raises(FileFormatError, match="pirates"):
        load_scenario(bad)
    wrong = _hurt(tmp_path, 10, "sides:\n  party: {morale: brave}\n")
    with pytest.raises(FileFormatError, match="morale"):
        load_scenario(wrong)


def test_simulate_reports_fights_ended_by_a_retreat(tmp_path: Path) -> None:
    path = _hurt(tmp_path, 10, "sides:\n  party: {morale: cautious}\n")
    base = [str(path), "--runs", "3", "--workers", "1", "--no-progress", "--policy", "simple"]
    res = CliRunner().invoke(app, [*base, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout[res.stdout.index("{") :])
    assert data["meta"]["morale"] == {"party": "cautious", "foes": "by-the-book"}
    assert data["ended_by_retreat"]["count"] == 3
    assert data["sides"]["party"]["conceded"]["count"] == 3
    res = CliRunner().invoke(app, [*base, "--morale", "fight-to-the-death"])  # the option overrides the scenario
    assert res.exit_code == 0, res.output
    assert "Ended by a retreat" in res.stdout and "0.0%" in res.stdout
    assert "morale party: fight-to-the-death, foes: fight-to-the-death" in res.stdout
    res = CliRunner().invoke(app, [*base, "--morale", "brave"])
    assert res.exit_code != 0


def test_a_sweep_takes_the_morale(tmp_path: Path) -> None:
    from sftactics.sim.sweep import sweep

    path = _hurt(tmp_path, 10, "sides:\n  party: {morale: cautious}\n")
    rows = sweep(path, ["max_rounds=20"], 2, policies={"*": "simple"}, workers=1)
    assert rows[0].summary.meta["morale"] == {"party": "cautious", "foes": "by-the-book"}
    assert rows[0].summary.ended_by_retreat.count == 2
    rows = sweep(path, ["max_rounds=20"], 2, policies={"*": "simple"}, workers=1, morale="fight-to-the-death")
    assert rows[0].summary.ended_by_retreat.count == 0
