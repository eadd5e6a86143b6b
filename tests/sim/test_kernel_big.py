"""The compiled kernel plays creatures of two squares or more as the engine does (issue 22).

Same dice, same fight: rooms with a Large creature (10-ft reach, tall), a Huge one (10-ft reach, long) and the
Gargantuan predator against a party, with cover objects, low walls and gaps a big creature squeezes through, the
simple policy on both sides; then the same rooms and a Colossal creature's hall with the tactical policy on both
sides (a big creature choosing its squares, grenades, charges and withdrawals, and one-square creatures choosing
against a big foe), and with a cautious side that retreats.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import given

from sftactics.encounter.state import Encounter
from sftactics.io.scenario import load_scenario
from sftactics.sim.kernel.model import unsupported
from sftactics.sim.kernel.run import kernel_fight
from sftactics.sim.policies import make_policy
from sftactics.sim.runner import SimJob
from tests.sim.test_kernel import (
    FIGHTS,
    MAX_ROUNDS,
    SCENARIOS,
    _build,
    assert_same_fight,
    assert_same_run,
    engine_fight,
    scenario,
    scripts,
)
from tests.sim.test_kernel_modes import KNOWN
from tests.sim.test_kernel_specials import assert_same
from tests.sim.test_kernel_tactical import fixed_script

# A Large biped with a 10-ft reach (tall, Table 8-1) whose club staggers on a critical hit.
OGRE: dict[str, Any] = {
    "name": "Test Ogre",
    "kind": "npc",
    "cr": "4",
    "size": "large",
    "reach_ft": 10,
    "abilities": {"str": 5, "dex": 0, "con": 3, "int": -2, "wis": 0, "cha": -1},
    "eac": 15,
    "kac": 17,
    "saves": {"fort": 7, "ref": 3, "will": 4},
    "initiative": 0,
    "hp": 55,
    "speed": {"land": 30},
    "weapons": [
        {"name": "club", "category": "natural", "damage": "1d8+7 B", "attack_bonus": 12, "critical": "Staggered",
         "critical_dc": 14},
    ],
}  # fmt: skip
# A Huge quadruped with a 10-ft reach (long) that bites and bleeds.
BEHEMOTH: dict[str, Any] = {
    "name": "Test Behemoth",
    "kind": "npc",
    "cr": "5",
    "size": "huge",
    "reach_ft": 10,
    "abilities": {"str": 6, "dex": 0, "con": 4, "int": -4, "wis": 1, "cha": -2},
    "eac": 16,
    "kac": 18,
    "saves": {"fort": 9, "ref": 4, "will": 4},
    "initiative": 1,
    "hp": 70,
    "speed": {"land": 40},
    "weapons": [
        {"name": "bite", "category": "natural", "damage": "1d10+8 P", "attack_bonus": 13, "critical": "Bleed 1d4"},
    ],
}  # fmt: skip


@cache
def ogre_room() -> Encounter:
    """A level-4 party against a Large ogre and a hobbe hound among crates and low walls: the ogre's reach
    threatens two squares away (attacks of opportunity from any of its squares), a gap of one square between
    two crates makes it squeeze, shots at it meet soft cover from the hound, melee fighters flank it."""
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
    return _build(
        "ogre room",
        room,
        [
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-4", "at": [2, 2]},
            {"id": "Nyx", "side": "party", "statblock": "pregen-operative-4", "at": [2, 5]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-4", "at": [1, 7]},
            {"id": "Ogre", "side": "brutes", "statblock": OGRE, "at": [12, 2]},
            {"id": "Hound", "side": "brutes", "statblock": "hobbe-hound", "at": [13, 6]},
        ],
    )


@cache
def behemoth_room() -> Encounter:
    """A level-4 party against a Huge long creature (a 3x3 space, 10-ft reach) in a room with a row of crates
    it must squeeze past or go around; grenades may catch it with one corner of a burst."""
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
    return _build(
        "behemoth room",
        room,
        [
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-4", "at": [2, 3]},
            {"id": "Nyx", "side": "party", "statblock": "pregen-operative-4", "at": [3, 6]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-4", "at": [1, 1]},
            {"id": "Behemoth", "side": "beasts", "statblock": BEHEMOTH, "at": [13, 3]},
        ],
    )


# A Colossal biped (a 30-ft space, 30-ft reach: tall, Table 8-1) that stomps.
COLOSSUS: dict[str, Any] = {
    "name": "Test Colossus",
    "kind": "npc",
    "cr": "12",
    "size": "colossal",
    "reach_ft": 30,
    "abilities": {"str": 8, "dex": 0, "con": 5, "int": -4, "wis": 1, "cha": -2},
    "eac": 25,
    "kac": 27,
    "saves": {"fort": 15, "ref": 10, "will": 11},
    "initiative": 0,
    "hp": 200,
    "speed": {"land": 40},
    "weapons": [{"name": "stomp", "category": "natural", "damage": "4d6+20 B", "attack_bonus": 23}],
}  # fmt: skip


@cache
def colossus_room() -> Encounter:
    """The level-10 party against a Colossal creature (a 6x6 space, 30-ft reach) in an open hall with two
    boulders and two patches of rubble: it threatens most of the hall, squeezes past the rubble, and the party
    may withdraw from it."""
    room = (
        "############################\n"
        "#..........................#\n"
        "#...o......................#\n"
        "#..............~~..........#\n"
        "#..............~~..........#\n"
        "#..........................#\n"
        "#..........................#\n"
        "#.....~~...................#\n"
        "#..........................#\n"
        "#..........................#\n"
        "#..........o...............#\n"
        "#..........................#\n"
        "############################\n"
    )
    return _build(
        "colossus room",
        room,
        [
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-10", "at": [2, 4]},
            {"id": "Nyx", "side": "party", "statblock": "pregen-operative-10", "at": [2, 7]},
            {"id": "Sorin", "side": "party", "statblock": "pregen-mystic-10", "at": [1, 2]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-10", "at": [1, 9]},
            {"id": "Colossus", "side": "giant", "statblock": COLOSSUS, "at": [18, 3]},
        ],
    )


@cache
def charging_ogre() -> Encounter:
    """The ogre across an open hall from two of the party: one move leaves it out of reach, a charge does not
    (its space moves 45 ft of the 60 it may, ACT-50)."""
    room = "#" * 22 + "\n" + ("#" + "." * 20 + "#\n") * 8 + "#" * 22 + "\n"
    return _build(
        "charging ogre",
        room,
        [
            {"id": "Ogre", "side": "brutes", "statblock": {**OGRE, "initiative": 8}, "at": [1, 3]},
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-4", "at": [15, 3]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-4", "at": [17, 6]},
        ],
    )


@cache
def predator_with_spells() -> Encounter:
    """The shipped predator fight with every class ability: the mystic's spells and healing channel (heals, *mind
    thrust*...), trick attack and get 'em (``sim.kernel.classes``)."""
    return load_scenario(SCENARIOS / "gargantuan-predator.yaml")


def test_the_kernel_takes_big_creatures() -> None:
    for enc in (ogre_room(), behemoth_room(), scenario("gargantuan-predator"), predator_with_spells(), colossus_room()):
        assert unsupported(enc) == []


def test_the_kernel_takes_the_tactical_policy_and_every_morale_with_big_creatures() -> None:
    for policy in ("simple", "tactical"):
        for morale in ("by-the-book", "cautious", "fight-to-the-death"):
            job = SimJob(ogre_room(), {"*": policy}, engine="compiled", morale={"*": morale})
            assert job.kernel_refusals() == []
            assert job.compiled()


def test_the_tactical_policy_takes_big_fliers_and_walls() -> None:
    """A big creature that moves by another speed than land (``kernel.bigtacmodes``), and one on a map with
    walls (``kernel.bigpath``: held to the engine in ``test_kernel_bigtactics_walls``)."""
    flier = {**OGRE, "name": "Test Flier", "speed": {"fly": 40}}
    room = "########\n#......#\n#......#\n#......#\n#......#\n########\n"
    enc = _build("flier", room, [
        {"id": "Krask", "side": "party", "statblock": "pregen-soldier-4", "at": [1, 1]},
        {"id": "Flier", "side": "brutes", "statblock": flier, "at": [4, 2]},
    ])  # fmt: skip
    assert SimJob(enc, {"*": "tactical"}).kernel_refusals() == []
    walls = "########\n#......#\n#..#...#\n#..#...#\n#......#\n########\n"
    enc = _build("walls", walls, [
        {"id": "Krask", "side": "party", "statblock": "pregen-soldier-4", "at": [1, 1]},
        {"id": "Ogre", "side": "brutes", "statblock": OGRE, "at": [4, 2]},
    ])  # fmt: skip
    assert SimJob(enc, {"*": "tactical"}).kernel_refusals() == []
    assert SimJob(enc, {"*": "simple"}).kernel_refusals() == []


@pytest.mark.rule("MOV-04", "MOV-19", "AOO-02", "AOO-04", "AOO-06", "MOD-11", "MOD-17", "ATK-14", "CON-33")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_large_ogre(values: list[int]) -> None:
    assert_same_fight(ogre_room(), values)


@pytest.mark.rule("MOV-04", "MOV-19", "AOO-02", "AOO-06", "ATK-12", "EFF-02", "EFF-12", "CON-02")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_huge_behemoth(values: list[int]) -> None:
    assert_same_fight(behemoth_room(), values)


@pytest.mark.rule("MOV-04", "MOV-17", "AOO-02", "AOO-06", "MOD-07", "INJ-04", "INJ-11")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_gargantuan_predator(values: list[int]) -> None:
    assert_same_fight(scenario("gargantuan-predator"), values)


@pytest.mark.rule("MOV-04", "EFF-02", "EFF-12", "MOD-08", "INJ-10", "AOO-06", "AOO-11")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_gargantuan_predator_with_spells(values: list[int]) -> None:
    """The mystic heals (moving next to a patient past the predator) and blasts (bursts at the corners of every
    square of the predator's space)."""
    assert_same_fight(predator_with_spells(), values)


# ---------------------------------------------------------------- the tactical policy (kernel.bigtactics)
@pytest.mark.rule("MOV-04", "MOV-19", "AOO-02", "AOO-04", "AOO-06", "MOD-17", "ACT-50", "ACT-55", "ACT-33")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_large_ogre(values: list[int]) -> None:
    assert_same(ogre_room(), values, "tactical")
    assert_same(charging_ogre(), values, "tactical")


@pytest.mark.rule("ACT-50", "MOV-04", "MOV-10")
def test_a_large_creature_charges_as_the_engine_makes_it() -> None:
    """The Large ogre charges (its space's move measured as the engine measures it, ``geometry.space_shift_ft``)
    in the engine and in the kernel alike."""
    enc = charging_ogre()
    for i in (0, 1):
        engine = engine_fight(enc, fixed_script(i), MAX_ROUNDS, {s: make_policy("tactical") for s in enc.sides()})
        kernel = kernel_fight(enc, seed=0, script=fixed_script(i), max_rounds=MAX_ROUNDS, policies={"*": "tactical"})
        assert_same_run(engine, kernel)
        charges = [(c.actor, c.target) for c in engine.fight.commands if c.type == "charge"]
        assert charges[:1] == [("Ogre", "Krask")]


@pytest.mark.rule("MOV-04", "MOV-19", "AOO-02", "AOO-06", "ATK-12", "EFF-02", "ACT-50")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_huge_behemoth(values: list[int]) -> None:
    assert_same(behemoth_room(), values, "tactical")


@pytest.mark.rule("ACT-55", "AOO-06", "AOO-07", "MOV-19")
def test_tactical_same_dice_same_fight_gargantuan_predator_withdraws() -> None:
    """Once a known divergence: the predator withdraws, and of two paths of 55 ft the engine took the one that
    squeezes out of its starting space and later provokes the mystic (the starting space counted among the
    provoking ones); now both take the one that provokes nothing (``grid.movement.find_path``)."""
    assert_same(scenario("gargantuan-predator"), KNOWN["gargantuan_predator_tactical"], "tactical")


def test_the_tactical_policy_takes_gargantuan_and_colossal_creatures() -> None:
    for enc in (scenario("gargantuan-predator"), colossus_room()):
        for morale in ("by-the-book", "cautious"):
            job = SimJob(enc, {"*": "tactical"}, engine="compiled", morale={"*": morale})
            assert job.kernel_refusals() == []


@pytest.mark.rule("MOV-04", "MOV-19", "AOO-02", "AOO-06", "ACT-50", "ACT-55", "ACT-33")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_gargantuan_predator(values: list[int]) -> None:
    assert_same(scenario("gargantuan-predator"), values, "tactical")


@pytest.mark.rule("MOV-04", "MOV-19", "AOO-02", "AOO-06", "ACT-50", "ACT-55", "ACT-33")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_colossus(values: list[int]) -> None:
    assert_same(colossus_room(), values, "tactical")


@pytest.mark.rule("CF-02", "ACT-55", "MOV-04")
@FIGHTS
@given(values=scripts())
def test_cautious_same_dice_same_fight_with_big_creatures(values: list[int]) -> None:
    """A cautious side retreats (the tactical withdrawal, and the simple policy's) from a big foe, and a big
    creature retreats from its foes."""
    assert_same(ogre_room(), values, "tactical", "cautious")
    assert_same(behemoth_room(), values, "simple", "cautious")


@pytest.mark.rule("CF-02", "ACT-55", "MOV-04", "MOV-19")
@FIGHTS
@given(values=scripts())
def test_cautious_same_dice_same_fight_with_gargantuan_and_colossal_creatures(values: list[int]) -> None:
    """A cautious party withdraws from the predator and from the colossus (and either may retreat)."""
    assert_same(scenario("gargantuan-predator"), values, "tactical", "cautious")
    assert_same(colossus_room(), values, "tactical", "cautious")
