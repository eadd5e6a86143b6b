"""Reports, the commands, and sweeps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from sftactics.core.errors import SftError
from sftactics.io.scenario import load_scenario
from sftactics.sim.cli import simulate_cmd, sweep_cmd
from sftactics.sim.report import write_report, write_sweep_report
from sftactics.sim.runner import SimJob, simulate
from sftactics.sim.sweep import Vary, load_scenario_file, sweep, variations

PNG = b"\x89PNG\r\n\x1a\n"

app = typer.Typer()
app.command("simulate")(simulate_cmd)
app.command("sweep")(sweep_cmd)


def test_report_files(skirmish: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    summary = simulate(SimJob(load_scenario(skirmish), {"*": "simple"}, seed=3), 12, workers=1)
    page = write_report(summary, tmp_path / "report")
    html = page.read_text(encoding="utf-8")
    for name in ("wins.png", "rounds.png", "knocked_out.png", "damage.png", "resolve.png"):
        assert (tmp_path / "report" / name).read_bytes().startswith(PNG)
        assert f"<img src='{name}'" in html
    assert json.loads((tmp_path / "report" / "summary.json").read_text())["runs"] == 12
    assert "Krask (PC)" in html


def test_sweep_report(skirmish: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    rows = sweep(skirmish, ["enemy_count=1,2"], 4, policies={"*": "simple"}, workers=1)
    page = write_sweep_report(rows, tmp_path / "sweep")
    assert (tmp_path / "sweep" / "sweep.png").read_bytes().startswith(PNG)
    assert "enemy_count=2" in page.read_text(encoding="utf-8")
    assert len(json.loads((tmp_path / "sweep" / "sweep.json").read_text())) == 2


def test_simulate_command_json_and_table(skirmish: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    runner = CliRunner()
    res = runner.invoke(app, ["simulate", str(skirmish), "--runs", "6", "--workers", "1", "--policy", "simple",
                              "--json", "--no-progress", "--report", str(tmp_path / "r")])  # fmt: skip
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout[res.stdout.index("{") :])
    assert data["runs"] == 6 and set(data["sides"]) == {"party", "aliens"}
    assert data["meta"]["policies"] == {"party": "simple", "aliens": "simple"}
    assert (tmp_path / "r" / "index.html").exists()
    res = runner.invoke(app, ["simulate", str(skirmish), "-n", "4", "--workers", "1", "--side-policy",
                              "aliens=engine", "--no-progress"])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "Sides" in res.stdout and "Combatants" in res.stdout and "Krask" in res.stdout
    res = runner.invoke(app, ["simulate", str(skirmish), "-n", "2", "--policy", "genius", "--no-progress"])
    assert isinstance(res.exception, SftError)


def test_sweep_command(skirmish: Path) -> None:
    res = CliRunner().invoke(app, ["sweep", str(skirmish), "--vary", "enemy_count=1,2", "--vary", "policy=simple",
                                   "-n", "3", "--workers", "1", "--json", "--no-progress"])  # fmt: skip
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout[res.stdout.index("[") :])
    assert [r["variation"] for r in rows] == [{"enemy_count": "1", "policy": "simple"},
                                              {"enemy_count": "2", "policy": "simple"}]  # fmt: skip


def test_vary_keys(skirmish: Path) -> None:
    assert Vary.parse("party_level=2,4") == Vary("party_level", ("2", "4"))
    for bad in ("party_level", "speed=3", "creature=ksarik", "enemy_count=x", "count:aliens=0"):
        with pytest.raises(SftError):
            Vary.parse(bad)
    scen = load_scenario_file(skirmish)
    rows = variations(scen, skirmish, [Vary.parse("party_level=4,6"), Vary.parse("enemy_count=3")], {"*": "simple"})
    assert [r.name for r in rows] == ["party_level=4, enemy_count=3", "party_level=6, enemy_count=3"]
    enc = rows[1].encounter
    assert enc.get("Krask").creature.stat.name == "Vesk Soldier 6"
    assert [c.id for c in enc.combatants.values() if c.side == "aliens"] == ["Ksarik", "Ksarik 2", "Ksarik 3"]
    spots = [c.position for c in enc.combatants.values()]
    assert len(set(spots)) == len(spots)
    swapped = variations(scen, skirmish, [Vary.parse("creature:Ksarik=hobbe-hound")], {"*": "simple"})[0]
    assert swapped.encounter.get("Ksarik").creature.stat.name == "Hobbe Hound"
    pol = variations(scen, skirmish, [Vary.parse("policy:aliens=engine"), Vary.parse("max_rounds=5")],
                     {"*": "tactical"})[0]  # fmt: skip
    assert pol.policies == {"*": "tactical", "aliens": "engine"} and pol.max_rounds == 5
    fewer = variations(scen, skirmish, [Vary.parse("count:party=1")], {"*": "simple"})[0]
    assert list(fewer.encounter.combatants) == ["Krask", "Ksarik"]
    with pytest.raises(SftError, match="no bundled"):
        variations(scen, skirmish, [Vary.parse("party_level=3")], {"*": "simple"})


def test_a_cold_kernel_cache_is_announced(mirror: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first kernel run of an installation compiles for minutes: the command says so before it starts,
    and only then (a warm cache, or the engine playing, says nothing)."""
    import sftactics.sim.kernel.run as kernel_run

    runner = CliRunner()
    args = ["simulate", str(mirror), "-n", "2", "--workers", "1", "--policy", "simple", "--no-progress"]
    assert runner.invoke(app, args).exit_code == 0  # compiled now if it was not yet
    assert kernel_run.code_cached() is True
    assert "compiling the fight kernel" not in runner.invoke(app, args).output
    monkeypatch.setattr(kernel_run, "code_cached", lambda: False)
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "compiling the fight kernel" in res.output
    assert "compiling the fight kernel" not in runner.invoke(app, [*args, "--engine", "full"]).output


def test_the_kernel_plays_the_spells_and_no_abilities_leaves_them_out(tmp_path: Path) -> None:
    """A mystic's spells and healing channel are the kernel's too: ``--engine compiled`` plays them,
    ``--no-abilities`` removes them."""
    from .conftest import write

    path = write(tmp_path, "mystic", [
        "{id: Sorin, side: party, statblock: pregen-mystic-2, at: [2, 2]}",
        "{id: Ksarik, side: aliens, statblock: ksarik, at: [11, 3]}",
    ])  # fmt: skip
    runner = CliRunner()
    args = ["simulate", str(path), "-n", "2", "--workers", "1", "--policy", "simple", "--no-progress",
            "--engine", "compiled"]  # fmt: skip
    with_spells = runner.invoke(app, args)
    assert with_spells.exit_code == 0, with_spells.output
    assert "played by the compiled kernel" in with_spells.output
    played = runner.invoke(app, [*args, "--no-abilities"])
    assert played.exit_code == 0, played.output
    assert "played by the compiled kernel" in played.output


def test_a_sweep_without_abilities_is_the_kernels(tmp_path: Path) -> None:
    from .conftest import write

    path = write(tmp_path, "mystic", [
        "{id: Sorin, side: party, statblock: pregen-mystic-2, at: [2, 2]}",
        "{id: Ksarik, side: aliens, statblock: ksarik, at: [11, 3]}",
    ])  # fmt: skip
    assert len(sweep(path, ["party_level=2"], 1, workers=1, engine="compiled")) == 1  # healing channel too
    rows = sweep(path, ["party_level=2"], 1, workers=1, engine="compiled", abilities=False)
    assert len(rows) == 1
