"""Class abilities in the compiled kernel (``sim.kernel.classes``) against the engine and the Python policies.

The healer mystic's healing channel (1 Resolve Point: itself as a move action, an ally touched as a standard
action, every ally within 30 ft as a full action) is the kernel's, chosen as ``sim.choices.heal`` chooses it.
The operative's trick attack and the envoy's get 'em are the kernel's too (tests/sim/test_kernel_riders.py).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import given

from sftactics.encounter.state import Encounter
from sftactics.io.scenario import ScenarioFile, build_encounter
from sftactics.sim.kernel.model import unsupported
from sftactics.sim.kernel.run import kernel_fight
from sftactics.sim.policies import make_policy

from .test_kernel import FIGHTS, MAX_ROUNDS, assert_same_run, engine_fight, scripts
from .test_kernel_specials import assert_same
from .test_kernel_tactical import fixed_script

ROOM = "############\n#..........#\n#..........#\n#..........#\n#..........#\n############\n"


@cache
def infirmary() -> Encounter:
    """The healer mystic pregen (healing channel and its spells), hurt, next to two hurt soldiers, against a
    pack of hobbe hounds: it heals itself, one ally or all of them."""
    data = {
        "name": "infirmary",
        "map": ROOM,
        "combatants": [
            {"id": "Sorin", "side": "crew", "statblock": "pregen-mystic-4", "at": [1, 2], "state": {"sp": 0, "hp": 9}},
            {"id": "Krask", "side": "crew", "statblock": "pregen-soldier-2", "at": [3, 3], "state": {"sp": 0, "hp": 6}},
            {"id": "Kora", "side": "crew", "statblock": "pregen-soldier-4", "at": [2, 1], "state": {"sp": 0, "hp": 9}},
            {"id": "Hound 1", "side": "beasts", "statblock": "hobbe-hound", "at": [8, 1]},
            {"id": "Hound 2", "side": "beasts", "statblock": "hobbe-hound", "at": [8, 2]},
            {"id": "Hound 3", "side": "beasts", "statblock": "hobbe-hound", "at": [9, 4]},
        ],
    }  # fmt: skip
    return build_encounter(ScenarioFile.model_validate(data), Path("infirmary.yaml"))


def test_the_kernel_plays_healing_channel_trick_attack_and_get_em() -> None:
    enc = infirmary()
    names = [a.name for a in enc.combatants["Sorin"].creature.stat.specials]
    assert {"healing channel (self)", "healing channel (touch)", "healing channel (30 ft)"} <= set(names)
    assert unsupported(enc) == []
    data = {
        "name": "talk",
        "map": ROOM,
        "combatants": [
            {"id": "Nyx", "side": "party", "statblock": "pregen-operative-2", "at": [1, 1]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-2", "at": [1, 3]},
            {"id": "Hound", "side": "beasts", "statblock": "hobbe-hound", "at": [8, 2]},
        ],
    }
    assert unsupported(build_encounter(ScenarioFile.model_validate(data), Path("talk.yaml"))) == []


@pytest.mark.rule("X-04", "INJ-10", "INJ-18", "ACT-21")
@FIGHTS
@given(values=scripts())
def test_healing_channel_same_dice_same_fight(values: list[int]) -> None:
    assert_same(infirmary(), values, "tactical")
    assert_same(infirmary(), values, "simple")


@pytest.mark.rule("X-04", "INJ-10")
def test_each_healing_channel_comes_up_and_plays_the_same() -> None:
    """Over fixed scripts the engine's mystic heals itself (tactical: a move action), an ally by touch and every
    ally within 30 ft, and the kernel plays each fight the same; Resolve is spent the same (the outcome rows)."""
    used: set[str] = set()
    for policy in ("tactical", "simple"):
        for i in range(6):
            values = fixed_script(i)
            enc = infirmary()
            engine = engine_fight(enc, values, MAX_ROUNDS, {s: make_policy(policy) for s in enc.sides()})
            kernel = kernel_fight(enc, seed=0, script=values, max_rounds=MAX_ROUNDS, policies={"*": policy})
            assert_same_run(engine, kernel)
            used |= {getattr(c, "name", "") for c in engine.fight.commands if c.type == "use_ability"}
    assert {"healing channel (self)", "healing channel (30 ft)"} <= used
    assert used & {"healing channel (touch)", "mystic cure"}


@pytest.mark.rule("X-04")
def test_resolve_paid_for_healing_channel_is_spent_by_choice() -> None:
    """The simulation's tracker counts the Resolve Point healing channel costs as spent by choice (``rp_spent``),
    not lost while dying (``rp_lost``), in the engine as in the kernel."""
    enc = infirmary()
    checked = 0
    for i in range(6):
        engine = engine_fight(enc, fixed_script(i), MAX_ROUNDS, {s: make_policy("tactical") for s in enc.sides()})
        paid = sum(1 for c in engine.fight.commands if c.type == "use_ability" and "channel" in c.name)
        if paid:
            sorin = next(o for o in engine.result.combatants if o.id == "Sorin")
            assert sorin.rp_spent >= paid
            checked += 1
    assert checked


def test_class_heals_the_kernel_would_choose_differently_are_left_to_the_engine() -> None:
    """A class heal that provokes (the policies would weigh an attack of opportunity the class move never
    provokes), one with another action than ``choices.heal`` uses it with, and heals of the user with and without
    a Resolve cost (``choices.heal`` ranks those by their mean) stay with the engine, each said."""
    base = {
        "name": "Odd Healer",
        "kind": "npc",
        "cr": "2",
        "eac": 13,
        "kac": 14,
        "hp": 24,
        "initiative": 1,
        "abilities": {"str": 0, "dex": 1, "con": 1, "int": 0, "wis": 4, "cha": 0},
        "saves": {"fort": 3, "ref": 2, "will": 5},
        "weapons": [{"name": "baton", "category": "basic_melee", "damage": "1d4 B", "attack_bonus": 4}],
    }
    specials = [
        {"name": "prayer", "kind": "spell", "action": "move", "target": "self", "heal": "1d8", "resolve_cost": 1},
        {"name": "slow mend", "kind": "Su", "action": "standard", "target": "self", "heal": "1d6", "resolve_cost": 1},
        {"name": "free mend", "kind": "Su", "action": "move", "target": "self", "heal": "1d4"},
    ]  # fmt: skip
    data = {"name": "odd", "map": ROOM, "combatants": [
        {"id": "Odd", "side": "a", "statblock": {**base, "specials": specials}, "at": [1, 1]},
        {"id": "Hound", "side": "b", "statblock": "hobbe-hound", "at": [8, 2]},
    ]}  # fmt: skip
    why = unsupported(build_encounter(ScenarioFile.model_validate(data), Path("odd.yaml")))
    assert any("prayer" in w and "provokes" in w for w in why)
    assert any("slow mend" in w and "a standard action" in w for w in why)
    assert any(w.startswith("Odd: heals of self with and without a Resolve cost") for w in why)
