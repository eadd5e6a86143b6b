"""The policies use the pregens' class abilities (sim.class_choices, sim.choices.heal) and the veteran delays."""

from __future__ import annotations

from pathlib import Path

import pytest

from sftactics.encounter.commands import Begin, Command, Delay, UseAbility
from sftactics.encounter.engine import pending
from sftactics.encounter.state import Encounter
from sftactics.io.scenario import load_scenario
from sftactics.sim.fight import SimFight, run_fight
from sftactics.sim.kernel.model import unsupported
from sftactics.sim.policies import make_policy
from sftactics.sim.runner import SimJob

from .conftest import write

ROOT = Path(__file__).resolve().parents[2]
OPEN = """\
##############
#............#
#............#
#............#
#............#
#............#
##############"""


def _turn(enc: Encounter, who: str, policy: str, seed: int = 1) -> list[Command]:
    fight = SimFight(enc, seed, keep_log=True)
    fight.do(Begin())
    assert pending(fight.state) == who
    make_policy(policy)(fight, who)
    return [c for c in fight.commands if getattr(c, "actor", None) == who]


def _used(cmds: list[Command], name: str) -> list[UseAbility]:
    return [c for c in cmds if isinstance(c, UseAbility) and c.name == name]


@pytest.mark.rule("X-04")
@pytest.mark.parametrize("policy", ["simple", "tactical"])
def test_an_operative_trick_attacks(tmp_path: Path, policy: str) -> None:
    path = write(tmp_path, "trick", [
        "{id: Nyx, side: party, statblock: pregen-operative-6, at: [3, 3], initiative: 30}",
        f"{{id: Foe, side: foes, statblock: space-goblin, at: [{4 if policy == 'simple' else 7}, 3], initiative: 1}}",
    ], OPEN)  # fmt: skip
    # the simple policy closes in on a foe first (the operative's first weapon is a knife), then attacks
    cmds = _turn(load_scenario(path), "Nyx", policy)
    used = _used(cmds, "trick attack")
    assert used and used[0].rider is not None and used[0].rider.extra_damage == "3d8"
    assert used[0].action == "full" and used[0].target == "Foe"


@pytest.mark.rule("X-04", "BON-13")
@pytest.mark.parametrize("policy", ["simple", "tactical"])
def test_an_envoy_says_get_em_then_attacks(tmp_path: Path, policy: str) -> None:
    path = write(tmp_path, "getem", [
        "{id: Vela, side: party, statblock: pregen-envoy-4, at: [3, 3], initiative: 30}",
        "{id: Krask, side: party, statblock: pregen-soldier-4, at: [3, 4], initiative: 20}",
        "{id: Nyx, side: party, statblock: pregen-operative-4, at: [3, 2], initiative: 19}",
        f"{{id: Foe, side: foes, statblock: ksarik, at: [{4 if policy == 'simple' else 6}, 3], initiative: 1}}",
    ], OPEN)  # fmt: skip
    cmds = _turn(load_scenario(path), "Vela", policy)
    assert [c.type for c in cmds][:2] == ["use_ability", "attack"]
    assert _used(cmds, "get 'em")[0].target == "Foe"


@pytest.mark.rule("X-04", "INJ-18")
def test_a_hurt_mystic_channels_on_itself_then_fights_on(tmp_path: Path) -> None:
    hurt = "state: {hp: 5, sp: 0}"
    path = write(tmp_path, "self", [
        f"{{id: Sorin, side: party, statblock: pregen-mystic-4, at: [3, 3], initiative: 30, {hurt}}}",
        "{id: Foe, side: foes, statblock: space-goblin, at: [9, 3], initiative: 1}",
    ], OPEN)  # fmt: skip
    cmds = _turn(load_scenario(path), "Sorin", "tactical")
    assert cmds[0] == UseAbility(actor="Sorin", name="healing channel (self)", kind="Su", action="move",
                                 heal="4d8", pool="healing channel (self)", resolve_cost=1, self_only=True)  # fmt: skip
    assert len(cmds) >= 2  # the standard action is still there


@pytest.mark.rule("X-04", "INJ-18")
def test_a_mystic_channels_on_every_hurt_ally_nearby(tmp_path: Path) -> None:
    hurt = "state: {hp: 3, sp: 0}"
    path = write(tmp_path, "burst", [
        "{id: Sorin, side: party, statblock: pregen-mystic-4, at: [3, 3], initiative: 30}",
        f"{{id: Krask, side: party, statblock: pregen-soldier-4, at: [5, 3], initiative: 20, {hurt}}}",
        f"{{id: Vela, side: party, statblock: pregen-envoy-4, at: [3, 5], initiative: 19, {hurt}}}",
        "{id: Foe, side: foes, statblock: space-goblin, at: [11, 1], initiative: 1}",
    ], OPEN)  # fmt: skip
    cmds = _turn(load_scenario(path), "Sorin", "tactical")
    assert cmds[0].type == "use_ability" and cmds[0].name == "healing channel (30 ft)"  # type: ignore[union-attr]


@pytest.mark.rule("ACT-71")
def test_a_veteran_waits_for_a_melee_foe_to_come(tmp_path: Path) -> None:
    path = write(tmp_path, "wait", [
        "{id: Krask, side: party, statblock: pregen-soldier-2, at: [1, 3], initiative: 30}",
        "{id: Hound, side: foes, statblock: hobbe-hound, at: [12, 3], initiative: 1}",
    ], OPEN)  # fmt: skip
    enc = load_scenario(path)
    stat = enc.combatants["Krask"].creature.stat
    blades = tuple(w for w in stat.weapons if w.is_melee)
    krask = enc.combatants["Krask"]
    krask = krask.model_copy(update={"creature": krask.creature.model_copy(update={"stat": stat.model_copy(
        update={"weapons": blades})})})  # fmt: skip
    enc = enc.model_copy(update={"combatants": {**enc.combatants, "Krask": krask}})
    assert _turn(enc, "Krask", "veteran") == [Delay(actor="Krask")]
    assert Delay(actor="Krask") not in _turn(enc, "Krask", "tactical")


@pytest.mark.rule("ACT-71", "BON-13")
def test_a_veteran_waits_for_an_allys_get_em(tmp_path: Path) -> None:
    path = write(tmp_path, "buff", [
        "{id: Krask, side: party, statblock: pregen-soldier-4, at: [3, 3], initiative: 30}",
        "{id: Vela, side: party, statblock: pregen-envoy-4, at: [3, 4], initiative: 20}",
        "{id: Foe, side: foes, statblock: ksarik, at: [5, 3], initiative: 1}",
    ], OPEN)  # fmt: skip
    assert _turn(load_scenario(path), "Krask", "veteran") == [Delay(actor="Krask")]


@pytest.mark.rule("X-04")
def test_in_simulated_fights_the_operative_trick_attacks_and_the_envoy_says_get_em() -> None:
    enc = load_scenario(ROOT / "scenarios" / "firefight-cover.yaml")
    assert unsupported(enc) == []  # the compiled kernel plays them too (tests/sim/test_kernel_riders.py)
    assert SimJob(enc, {"*": "tactical"}).compiled()
    seen: set[str] = set()
    for seed in range(3):
        _, fight = run_fight(enc, seed, {"*": make_policy("simple")}, keep_log=True)
        seen |= {c.name for c in fight.commands if isinstance(c, UseAbility)}
    assert {"trick attack", "get 'em"} <= seen
