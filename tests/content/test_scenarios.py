"""The scenario library (``scenarios/``): every scenario loads and runs to a result."""

from __future__ import annotations

from pathlib import Path

import pytest

from sftactics.dice.source import SeededDice
from sftactics.encounter.engine import Fight
from sftactics.encounter.runner import auto_play
from sftactics.io.foundry import import_paths
from sftactics.io.scenario import ScenarioFile, build_encounter, load_scenario

ROOT = Path(__file__).parent.parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
FIXTURES = ROOT / "tests" / "data" / "foundry-sfrpg" / "creatures"


def test_there_are_at_least_six_scenarios() -> None:
    names = {p.stem for p in SCENARIOS}
    assert len(names) >= 6
    assert {"corridor-ambush", "firefight-cover", "melee-brawl", "dark-warehouse", "grenade-alley",
            "gargantuan-predator"} <= names  # fmt: skip


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_runs_to_a_result(path: Path) -> None:
    fight = Fight(load_scenario(path), SeededDice(1), seed=1)
    auto_play(fight, max_rounds=50)
    assert fight.state.result is not None


def test_the_ambush_has_a_surprise_round() -> None:
    enc = load_scenario(ROOT / "scenarios" / "corridor-ambush.yaml")
    aware = {c.aware for c in enc.combatants.values()}
    assert aware == {True, False}


def test_every_imported_creature_can_fight() -> None:
    """Each fixture creature, imported, fights a 2nd-level soldier on a small map to a result; those with a
    usable attack make at least one."""
    report = import_paths([FIXTURES])
    assert len(report.imported) == 40
    for r in report.imported:
        sb = r.statblock
        assert sb is not None
        scen = ScenarioFile.model_validate(
            {
                "name": r.name,
                "map": "\n".join(["." * 12] * 8),
                "combatants": [
                    {"id": "it", "side": "monsters", "statblock": sb, "at": [0, 0]},
                    {"id": "Krask", "side": "party", "statblock": "pregen-soldier-2", "at": [8, 4]},
                ],
            }
        )
        fight = Fight(build_encounter(scen, Path("test.yaml")), SeededDice(1), seed=1)
        auto_play(fight, max_rounds=10)
        assert fight.state.result is not None, r.name
        attacks = [e for e in fight.all_events() if getattr(e, "attacker", None) == "it"]
        if sb.weapons:
            assert attacks, f"{r.name} never attacked"
