"""A simulated fight: the engine's fight without a log, and its statistics."""

from __future__ import annotations

from pathlib import Path

import pytest

from sftactics.core.errors import RuleViolation, SftError
from sftactics.encounter.commands import Attack, Begin
from sftactics.encounter.engine import Fight, pending
from sftactics.encounter.runner import auto_play
from sftactics.io.scenario import load_scenario
from sftactics.sim.fight import SimFight, run_fight
from sftactics.sim.policies import make_policy


@pytest.mark.parametrize("seed", [1, 2])
def test_engine_policy_plays_the_fight_sftactics_run_shows(skirmish: Path, seed: int) -> None:
    enc = load_scenario(skirmish)
    reference = auto_play(Fight.seeded(enc, seed))
    result, fight = run_fight(enc, seed, {"*": make_policy("engine")}, keep_log=True)
    assert fight.state == reference.state
    assert fight.all_events() == reference.all_events()
    assert result.winner == reference.state.result.winner  # type: ignore[union-attr]


def test_without_a_log_the_state_is_the_same(skirmish: Path) -> None:
    enc = load_scenario(skirmish)
    _, logged = run_fight(enc, 5, {"*": make_policy("tactical")}, keep_log=True)
    _, bare = run_fight(enc, 5, {"*": make_policy("tactical")})
    assert bare.state == logged.state
    assert bare.commands == [] and bare.sim_dice.history == []
    assert len(logged.commands) == bare.steps
    with pytest.raises(SftError):
        bare.undo()


def test_a_refused_command_rewinds_the_dice(skirmish: Path) -> None:
    fight = SimFight(load_scenario(skirmish), 3)
    fight.do(Begin())
    who = pending(fight.state)
    assert who is not None
    before = fight.state
    mark = fight.sim_dice.mark()
    with pytest.raises(RuleViolation):
        fight.do(Attack(actor=who, target=who))  # no one attacks itself
    assert fight.state is before
    assert fight.sim_dice.mark()[1] == mark[1]


def test_the_tracker_adds_up(skirmish: Path) -> None:
    result, fight = run_fight(load_scenario(skirmish), 7, {"*": make_policy("simple")})
    by_id = {c.id: c for c in result.combatants}
    assert result.winner == "party"
    assert by_id["Ksarik"].knocked_out and by_id["Ksarik"].died
    assert by_id["Ksarik"].death_cause is not None and by_id["Ksarik"].death_cause.startswith("killed at 0 HP")
    dealt = sum(c.damage_dealt for c in result.combatants)
    taken = sum(c.damage_taken for c in result.combatants)
    assert 0 < dealt <= taken
    ksarik = fight.state.get("Ksarik").creature.stat
    assert by_id["Ksarik"].damage_taken >= ksarik.hp
    assert result.rounds == fight.state.result.round  # type: ignore[union-attr]
