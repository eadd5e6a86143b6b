"""The veteran policy: the tactical policy plus harrying and covering fire, total defense, maneuvers, feint and
ready (``sim.veteran``, issue 16)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from sftactics.encounter.commands import Begin
from sftactics.io.scenario import load_scenario
from sftactics.sim import policies
from sftactics.sim.choices import without_class_abilities
from sftactics.sim.fight import SimFight, run_fight
from sftactics.sim.policies import make_policy
from sftactics.sim.runner import SimJob
from sftactics.sim.veteran import LATER, VeteranPolicy, d20_chance, feint_plans, ready_plan

from .conftest import write
from .test_policies import OPEN, _turn, _types

ROOT = Path(__file__).resolve().parents[2]


def _first_turn(tmp: Path, name: str, combatants: list[str]) -> tuple[SimFight, list[str]]:
    fight = _turn(write(tmp, name, combatants, OPEN), "A", "veteran")
    return fight, _types(fight, "A")


def _turn_of(tmp: Path, name: str, combatants: list[str]) -> policies._Turn:
    fight = SimFight(load_scenario(write(tmp, name, combatants, OPEN)), 1)
    fight.do(Begin())
    return policies._Turn(VeteranPolicy(), fight.state, "A")


def test_d20_chance_attack_and_skill() -> None:
    assert d20_chance(5, 15) == 0.55  # 10..20 of the die
    assert d20_chance(-10, 15) == 0.05  # only a natural 20
    assert d20_chance(30, 15) == 0.95  # a natural 1 still misses
    assert d20_chance(-10, 15, natural=False) == 0.0  # a skill check has no automatic success
    assert d20_chance(30, 15, natural=False) == 1.0


@pytest.mark.rule("ACT-19")
def test_harrying_fire_when_the_shot_helps_an_ally_more_than_it_hurts(tmp_path: Path) -> None:
    _, types = _first_turn(tmp_path, "harry", [
        "{id: A, side: x, statblock: pregen-operative-2, at: [2, 3], initiative: 30}",
        "{id: M, side: x, statblock: pregen-soldier-2, at: [8, 3], initiative: 20}",
        "{id: B, side: y, statblock: svartalfar, at: [9, 3], initiative: 1}",
    ])  # fmt: skip
    assert types[0] == "harrying_fire"


@pytest.mark.rule("ACT-20")
def test_total_defense_when_cornered_and_outmatched(tmp_path: Path) -> None:
    _, types = _first_turn(tmp_path, "turtle", [
        "{id: A, side: x, statblock: space-goblin, at: [1, 1], initiative: 30}",
        "{id: B, side: y, statblock: pregen-envoy-2, at: [2, 2], initiative: 1}",
    ])  # fmt: skip
    assert types[0] == "total_defense"


@pytest.mark.rule("MAN-01")
def test_a_maneuver_when_it_pays_more_than_an_attack(tmp_path: Path) -> None:
    fight, types = _first_turn(tmp_path, "trip", [
        "{id: A, side: x, statblock: hobbe-hound, at: [5, 3], initiative: 30}",
        "{id: B, side: y, statblock: svartalfar, at: [6, 3], initiative: 1}",
    ])  # fmt: skip
    assert types[0] == "maneuver"
    cmd = next(c for c in fight.commands if c.type == "maneuver")
    assert cmd.kind in ("trip", "disarm")


@pytest.mark.rule("ACT-73")
def test_ready_against_a_melee_foe_that_must_come(tmp_path: Path) -> None:
    cs = [
        "{id: A, side: x, statblock: hobbe-hound, at: [2, 3], initiative: 30}",
        "{id: B, side: y, statblock: barathu, at: [9, 3], initiative: 1}",
    ]
    fight, types = _first_turn(tmp_path, "ready", cs)
    assert types[0] == "ready"
    cmd = next(c for c in fight.commands if c.type == "ready")
    assert (cmd.trigger, cmd.watch, cmd.action["type"]) == ("enters_reach", "B", "attack")
    t = _turn_of(tmp_path, "ready2", cs)
    assert ready_plan(t, readied_last=False) is not None
    assert ready_plan(t, readied_last=True) is None  # never two turns running without a trigger


@pytest.mark.rule("ACT-17")
def test_feint_is_valued_on_next_turns_attack(tmp_path: Path) -> None:
    t = _turn_of(tmp_path, "feint", [
        "{id: A, side: x, statblock: pregen-envoy-2, at: [5, 3], initiative: 30}",
        "{id: B, side: y, statblock: vesk-soldier, at: [6, 3], initiative: 1}",
    ])  # fmt: skip
    plans = feint_plans(t)
    assert plans and all(p.commands[0].type == "feint" for p in plans)
    from sftactics.encounter import space

    w = next(w for w in t.me.creature.stat.weapons if w.is_melee)
    now = t.attack_value(t.s.get("B"), t.table(t.me, t.s.get("B"), w, space.Geometry()))
    # a feint pays off only on the next turn, and at most the -2 AC it gives: never more than attacking now
    assert max(p.value for p in plans) < now
    assert max(p.value for p in plans) <= LATER * now


def test_whole_fights_use_covering_and_harrying_fire() -> None:
    # without the pregens' class abilities: with them the operative trick-attacks and the envoy says get 'em
    # rather than harry (tests/sim/test_class_choices.py)
    enc = without_class_abilities(load_scenario(ROOT / "scenarios" / "corridor-ambush.yaml"))
    used: Counter[str] = Counter()
    for seed in range(6):
        _, fight = run_fight(enc, seed, {"*": make_policy("veteran")}, keep_log=True)
        used += Counter(c.type for c in fight.commands)
        assert fight.state.result is not None
    assert used["covering_fire"] >= 1 and used["harrying_fire"] >= 1


def test_tactical_has_no_extra_options_so_the_kernel_plays_it(tmp_path: Path) -> None:
    t = _turn_of(tmp_path, "plain", [
        "{id: A, side: x, statblock: hobbe-hound, at: [5, 3], initiative: 30}",
        "{id: B, side: y, statblock: svartalfar, at: [6, 3], initiative: 1}",
    ])  # fmt: skip
    assert policies.TacticalPolicy().extra_plans(t, 0.0, 0.0) == []
    job = SimJob(load_scenario(ROOT / "scenarios" / "firefight-cover.yaml"), policies={"*": "veteran"})
    assert any("veteran policy" in why for why in job.kernel_refusals())
