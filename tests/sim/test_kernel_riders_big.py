"""Trick attack and get 'em against a creature of two squares or more in the compiled kernel (issue 22).

The tactical policy ranks the squares of the operative's move, its flanking and range terms and the envoy's
target between spaces (``footprint_distance_ft``, ``flank_line`` across a big space, ``reach_covers``), as
``sim.class_choices`` does through ``sim.policies._Turn``. Same dice, same fight: an operative, an envoy and a
soldier (with their class abilities) against a Large walker with a hound among crates and low walls, and against
a Huge walker in a hall with a row of crates.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given

from sftactics.encounter.state import Encounter
from sftactics.sim.kernel.model import unsupported
from sftactics.sim.kernel.run import kernel_fight
from sftactics.sim.policies import make_policy
from sftactics.sim.runner import SimJob

from .test_kernel import FIGHTS, MAX_ROUNDS, assert_same_run, engine_fight, scripts
from .test_kernel_big import BEHEMOTH, OGRE
from .test_kernel_riders import _build
from .test_kernel_specials import assert_same
from .test_kernel_tactical import fixed_script


@cache
def ogre_strike() -> Encounter:
    """The party with its class abilities against a Large ogre (10-ft reach) and a hobbe hound among crates and
    low walls: the operative may move to flank the ogre's 2x2 space with the soldier, or shoot it from behind a
    crate; the envoy marks one of the two."""
    room = (
        "################\n"
        "#..............#\n"
        "#.....o........#\n"
        "#..............#\n"
        "#.....o....=...#\n"
        "#..........=...#\n"
        "#..............#\n"
        "#..............#\n"
        "################\n"
    )
    return _build("ogre strike", [
        {"id": "Krask", "side": "party", "statblock": "pregen-soldier-4", "at": [2, 2]},
        {"id": "Nyx", "side": "party", "statblock": "pregen-operative-4", "at": [2, 5]},
        {"id": "Vela", "side": "party", "statblock": "pregen-envoy-4", "at": [1, 7]},
        {"id": "Ogre", "side": "brutes", "statblock": OGRE, "at": [12, 2]},
        {"id": "Hound", "side": "brutes", "statblock": "hobbe-hound", "at": [13, 6]},
    ], room)  # fmt: skip


@cache
def behemoth_strike() -> Encounter:
    """The party with its class abilities against a Huge walker (a 3x3 space, 10-ft reach) that must go around
    or squeeze past a row of crates: flanking lines cross its space between opposite sides."""
    room = (
        "##################\n"
        "#................#\n"
        "#................#\n"
        "#.......o........#\n"
        "#.......o........#\n"
        "#................#\n"
        "#.......o........#\n"
        "#................#\n"
        "##################\n"
    )
    return _build("behemoth strike", [
        {"id": "Krask", "side": "party", "statblock": "pregen-soldier-6", "at": [2, 3]},
        {"id": "Nyx", "side": "party", "statblock": "pregen-operative-6", "at": [3, 6]},
        {"id": "Vela", "side": "party", "statblock": "pregen-envoy-6", "at": [1, 1]},
        {"id": "Behemoth", "side": "beasts", "statblock": BEHEMOTH, "at": [13, 3]},
    ], room)  # fmt: skip


def test_the_tactical_kernel_takes_trick_attack_and_get_em_against_big_foes() -> None:
    for enc in (ogre_strike(), behemoth_strike()):
        assert unsupported(enc) == []
        job = SimJob(enc, {"*": "tactical"}, engine="compiled")
        assert job.kernel_refusals() == []


@pytest.mark.rule("X-04", "CON-18", "BON-01", "MOV-04", "MOD-17", "ATK-14", "AOO-02")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_riders_against_a_large_ogre(values: list[int]) -> None:
    assert_same(ogre_strike(), values, "tactical")


@pytest.mark.rule("X-04", "CON-18", "BON-01", "MOV-04", "MOD-17", "ATK-14", "AOO-02")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_riders_against_a_huge_behemoth(values: list[int]) -> None:
    assert_same(behemoth_strike(), values, "tactical")


@pytest.mark.rule("X-04", "CON-18", "BON-01", "MOV-04")
def test_trick_attack_after_a_move_and_get_em_on_a_big_foe_come_up_and_play_the_same() -> None:
    """Over fixed scripts the engine's operative uses trick attack on a big foe after the rider's move, and the
    envoy marks a big foe; the kernel plays each fight the same."""
    moved, marks = 0, 0
    for enc, big in ((ogre_strike(), "Ogre"), (behemoth_strike(), "Behemoth")):
        for i in range(4):
            values = fixed_script(i)
            engine = engine_fight(enc, values, MAX_ROUNDS, {s: make_policy("tactical") for s in enc.sides()})
            kernel = kernel_fight(enc, seed=0, script=values, max_rounds=MAX_ROUNDS, policies={"*": "tactical"})
            assert_same_run(engine, kernel)
            for c in engine.fight.commands:
                if c.type == "use_ability" and c.target == big:
                    moved += c.name == "trick attack" and c.to is not None
                    marks += c.name == "get 'em"
    assert moved and marks
