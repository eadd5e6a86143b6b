"""The policies in situations a player would recognise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sftactics.encounter.commands import Begin
from sftactics.encounter.engine import pending
from sftactics.encounter.events import AttackMade
from sftactics.io.scenario import load_scenario
from sftactics.sim import perception
from sftactics.sim.fight import SimFight, run_fight
from sftactics.sim.policies import TacticalPolicy, make_policy, policy_names

from .conftest import write

OPEN = """\
##############
#............#
#............#
#............#
#............#
#............#
##############"""


def _turn(path: Path, who: str, policy: str = "tactical", seed: int = 1) -> SimFight:
    """Begin the fight (initiatives fixed in the scenario so that ``who`` goes first) and play its turn."""
    fight = SimFight(load_scenario(path), seed, keep_log=True)
    fight.do(Begin())
    assert pending(fight.state) == who
    make_policy(policy)(fight, who)
    return fight


def _types(fight: SimFight, who: str) -> list[str]:
    return [c.type for c in fight.commands if getattr(c, "actor", None) == who]


def test_registry() -> None:
    assert policy_names() == ["engine", "simple", "tactical", "veteran"]
    with pytest.raises(ValueError, match="unknown policy"):
        make_policy("genius")


def test_full_attack_when_two_attacks_beat_one(tmp_path: Path) -> None:
    path = write(tmp_path, "duel", [
        "{id: A, side: a, statblock: hobbe-hound, at: [5, 3], initiative: 30}",
        "{id: B, side: b, statblock: hobbe-hound, at: [6, 3], initiative: 1}",
    ], OPEN)  # fmt: skip
    fight = _turn(path, "A")
    assert _types(fight, "A")[0] == "full_attack"


def test_a_shooter_does_not_provoke(tmp_path: Path) -> None:
    path = write(tmp_path, "shooter", [
        "{id: Nyx, side: party, statblock: pregen-operative-2, at: [5, 3], initiative: 30}",
        "{id: Hound, side: foes, statblock: hobbe-hound, at: [6, 3], initiative: 1}",
    ], OPEN)  # fmt: skip
    fight = _turn(path, "Nyx")
    reactions = [e for batch in fight.events for e in batch if isinstance(e, AttackMade) and e.reaction]
    assert reactions == []  # a guarded step or a withdraw, never a provoked attack of opportunity
    assert fight.state.combatants["Hound"].creature.state.hp <= 24


def test_flank_when_closing_in(tmp_path: Path) -> None:
    path = write(tmp_path, "flank", [
        "{id: Mate, side: a, statblock: hobbe-hound, at: [5, 3], initiative: 1}",
        "{id: Me, side: a, statblock: hobbe-hound, at: [8, 1], initiative: 30}",
        "{id: Foe, side: b, statblock: skip-tracer, at: [6, 3], initiative: 2}",
    ], OPEN)  # fmt: skip
    fight = _turn(path, "Me")
    assert fight.state.get("Me").position == (7, 3)  # opposite its ally: flanking (+2)
    attacks = [e for batch in fight.events for e in batch if isinstance(e, AttackMade) and e.attacker == "Me"]
    assert attacks and any("flanks" in line for line in attacks[0].lines)


def test_grenade_at_a_cluster(tmp_path: Path) -> None:
    path = write(tmp_path, "cluster", [
        "{id: Krask, side: party, statblock: pregen-soldier-4, at: [2, 3], initiative: 30}",
        "{id: G1, side: foes, statblock: skip-tracer, at: [6, 2], initiative: 1}",
        "{id: G2, side: foes, statblock: skip-tracer, at: [6, 3], initiative: 2}",
        "{id: G3, side: foes, statblock: skip-tracer, at: [7, 3], initiative: 3}",
    ], OPEN)  # fmt: skip
    fight = _turn(path, "Krask")
    assert "throw_grenade" in _types(fight, "Krask")


def test_first_aid_for_a_dying_ally_without_resolve(tmp_path: Path) -> None:
    path = write(tmp_path, "medic", [  # an envoy with Medicine: the mystic would cast mystic cure instead
        "{id: Sorin, side: party, statblock: pregen-envoy-2, at: [3, 3], initiative: 30}",
        "{id: Krask, side: party, statblock: pregen-soldier-2, at: [2, 3], initiative: 5, state: {hp: 0, rp: 0, "
        "conditions: [{name: dying}, {name: unconscious, source: 0 HP}]}}",
        "{id: Foe, side: foes, statblock: skip-tracer, at: [11, 1], initiative: 1}",
    ], OPEN)  # fmt: skip
    fight = _turn(path, "Sorin")
    assert _types(fight, "Sorin")[0] == "first_aid"


def test_resolve_to_stabilize_and_stay_in_the_fight(tmp_path: Path) -> None:
    path = write(tmp_path, "resolve", [
        "{id: Krask, side: party, statblock: pregen-soldier-4, at: [2, 3], initiative: 30, state: {hp: 0, rp: 5, "
        "conditions: [{name: dying}, {name: unconscious, source: 0 HP}]}}",
        "{id: Vela, side: party, statblock: pregen-envoy-4, at: [2, 1], initiative: 20}",
        "{id: Foe, side: foes, statblock: skip-tracer, at: [11, 1], initiative: 1}",
    ], OPEN)  # fmt: skip
    fight = SimFight(load_scenario(path), 1, keep_log=True)
    fight.do(Begin())
    pol = TacticalPolicy()
    pol(fight, "Krask")
    assert _types(fight, "Krask")[0] == "stabilize"
    assert fight.state.get("Krask").creature.has("stable")
    while pending(fight.state) != "Krask":  # the others play round 1; Krask's turn comes again in round 2
        who = pending(fight.state)
        assert who is not None
        pol(fight, who)
    pol(fight, "Krask")
    assert "stay_in_the_fight" in _types(fight, "Krask")
    assert fight.state.get("Krask").creature.state.hp == 1


def test_a_hopeless_side_retreats_and_concedes(hopeless: Path) -> None:
    enc = load_scenario(hopeless)
    results = [run_fight(enc, s, {"*": make_policy("tactical")})[0] for s in range(6)]
    assert all(r.winner == "monster" for r in results)
    assert any(r.conceded == "party" for r in results)


@pytest.mark.parametrize("scenario", ["corridor-ambush", "grenade-alley", "dark-warehouse"])
def test_tactical_plays_bundled_scenarios_to_the_end(scenario: str) -> None:
    path = Path(__file__).resolve().parents[2] / "scenarios" / f"{scenario}.yaml"
    if not path.exists():
        pytest.skip(f"{path.name} is not in this checkout")
    result, fight = run_fight(load_scenario(path), 2, {"*": make_policy("tactical")})
    assert fight.state.result is not None
    assert result.rounds >= 1


def test_perception_routes_enemy_queries(mirror: Path) -> None:
    state = load_scenario(mirror)
    assert [c.id for c in perception.visible_enemies(state, "west")] == ["East 1", "East 2"]
    if not hasattr(state, "awareness") or not getattr(state, "track_awareness", False):
        pytest.skip("the engine does not track awareness")
    blind = state.model_copy(update={"awareness": {"West 1>East 1": 0, "West 2>East 1": 1}})
    assert [c.id for c in perception.visible_enemies(blind, "west")] == ["East 2"]
    half = state.model_copy(update={"awareness": {"West 1>East 1": 0}})
    assert [c.id for c in perception.visible_enemies(half, "west")] == ["East 1", "East 2"]
    assert [c.id for c in perception.targets_for(half, "West 1")] == ["East 2"]


@pytest.mark.rule("ACT-50")
def test_a_refused_charge_takes_the_plan_weighing_the_turn_again_without_it_chooses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A refused command changes nothing, so when the tactical policy's charge is refused the turn takes the best
    of its other plans (``_Turn.without_charge``): the very plan a second weighing without the charge chooses."""
    from sftactics.sim.policy_tactical import _Turn
    from tests.sim.test_kernel_big import ogre_room

    last: dict[str, _Turn] = {}
    compared: list[str] = []
    best_plan, execute = _Turn.best_plan, TacticalPolicy._execute

    def remember(self: _Turn) -> Any:
        last[self.me.id] = self
        return best_plan(self)

    def check(self: TacticalPolicy, fight: Any, plan: Any) -> bool:
        done = execute(self, fight, plan)
        if plan.label == "charge" and not done:
            cid = plan.commands[0].actor
            kept = last[cid].without_charge
            again = _Turn(self, fight.state, cid)
            approach = again.approach_plans
            again.approach_plans = lambda *a: [p for p in approach(*a) if p.label != "charge"]  # type: ignore[method-assign]
            assert again.best_plan() == kept
            compared.append(kept.label)
        return done

    monkeypatch.setattr(_Turn, "best_plan", remember)
    monkeypatch.setattr(TacticalPolicy, "_execute", check)
    for seed in range(3):
        run_fight(ogre_room(), seed, {"*": make_policy("tactical")})
    assert len(compared) >= 3, compared
