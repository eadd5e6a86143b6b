"""The compiled kernel plays the Arc critical effect as the engine does (ATK-15): same dice, same fight."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import given

from sftactics.encounter.events import AttackMade
from sftactics.encounter.state import Encounter
from sftactics.sim.kernel.model import unsupported
from tests.sim.test_kernel import FIGHTS, SCRIPT_LENGTH, _build, assert_same_fight, scripts

# A gunner whose pistol's arc rolls dice (1d4), so the arc's dice are in the script too.
ARCER: dict[str, Any] = {
    "name": "Test Arcer",
    "kind": "npc",
    "cr": "2",
    "abilities": {"str": 0, "dex": 4, "con": 1, "int": 0, "wis": 1, "cha": 0},
    "eac": 14,
    "kac": 15,
    "saves": {"fort": 2, "ref": 5, "will": 3},
    "initiative": 5,
    "hp": 24,
    "weapons": [
        {"name": "static arc pistol", "category": "small_arm", "damage": "1d6+2 E", "attack_bonus": 9,
         "range_ft": 30, "critical": "Arc 1d4", "capacity": 20, "item_level": 2},
    ],
}  # fmt: skip


@cache
def sparks() -> Encounter:
    """Two arc gunners against three ksariks who start bunched together and close in: arcs leap between the
    ksariks, and to a gunner (the attacker's ally) when nobody else is as near."""
    room = "###########\n#.........#\n#.........#\n#.........#\n#.........#\n###########\n"
    return _build(
        "sparks",
        room,
        [
            {"id": "Arcer 1", "side": "crew", "statblock": ARCER, "at": [1, 1]},
            {"id": "Arcer 2", "side": "crew", "statblock": ARCER, "at": [1, 3]},
            {"id": "Ksarik 1", "side": "gang", "statblock": "ksarik", "at": [7, 1]},
            {"id": "Ksarik 2", "side": "gang", "statblock": "ksarik", "at": [8, 2]},
            {"id": "Ksarik 3", "side": "gang", "statblock": "ksarik", "at": [7, 3]},
        ],
    )


def test_the_kernel_plays_arcs() -> None:
    assert unsupported(sparks()) == []


@pytest.mark.rule("ATK-14", "ATK-15")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_arcs(values: list[int]) -> None:
    assert_same_fight(sparks(), values)


@pytest.mark.rule("ATK-15")
def test_same_dice_same_fight_with_an_arc_that_leaps() -> None:
    # many natural 20s: critical hits, and arcs among the bunched ksariks
    values = [20, 19, 18, 17, 16] + [20, 3, 4, 2] * (SCRIPT_LENGTH // 4)
    engine = assert_same_fight(sparks(), values)
    lines = [ln for batch in engine.fight.events for e in batch if isinstance(e, AttackMade) for ln in e.lines]
    assert any("arc 1d4 (not doubled)" in ln for ln in lines)


# A Medium incorporeal creature with one touch (the last combatant of its room, so nothing after it in the model's
# loops is read by mistake).
SHADE: dict[str, Any] = {
    "name": "Test Shade",
    "kind": "npc",
    "cr": "2",
    "abilities": {"str": 0, "dex": 3, "con": 0, "int": 0, "wis": 1, "cha": 2},
    "eac": 13,
    "kac": 13,
    "saves": {"fort": 2, "ref": 5, "will": 3},
    "initiative": 3,
    "hp": 20,
    "incorporeal": True,
    "weapons": [{"name": "touch", "category": "natural", "damage": "1d6+2 C", "attack_bonus": 8}],
}


@pytest.mark.rule("ATK-15", "SPA-12")
def test_an_arc_from_a_corporeal_gunner_is_halved_on_an_incorporeal_creature() -> None:
    # SPA-12: energy from a corporeal, nonmagical source is halved on an incorporeal target; the arc's damage is the
    # gunner's, so it is halved too, whatever the other combatants are (the shade comes last in the model)
    from sftactics.sim.kernel.model import compile_encounter

    room = "########\n#......#\n#......#\n########\n"
    enc = _build(
        "arc-on-a-shade",
        room,
        [
            {"id": "Arcer", "side": "crew", "statblock": ARCER, "at": [1, 1]},
            {"id": "Shade", "side": "ghosts", "statblock": SHADE, "at": [5, 2]},
        ],
    )
    model = compile_encounter(enc).model
    arc = int(model.w_crit_prof[0, 0])
    assert int(model.mit[1, arc, 4]) == 2  # 4 electricity from the arc: 2 gets through
    assert int(model.mit[0, arc, 4]) == 4  # and in full on a corporeal creature (the gunner's ally, say)
