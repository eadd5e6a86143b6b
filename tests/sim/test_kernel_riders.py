"""Trick attack and get 'em in the compiled kernel (``sim.kernel.riders``, ``sim.kernel.classes``) against the
engine and the Python policies (``sim.class_choices``): the operative's attack rider (a skill check against
DC 20 + the target's CR; extra dice and the target flat-footed on a success; a move first when the tactical
policy finds a better square) and the envoy's mark (+1 morale, +2 at 5th level, to the side's attack rolls
against one foe until the start of the envoy's next turn), each at two levels, with both policies.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from sftactics.encounter.state import Encounter
from sftactics.io.scenario import ScenarioFile, build_encounter, load_scenario
from sftactics.sim.kernel.model import compile_encounter, unsupported
from sftactics.sim.kernel.run import kernel_fight
from sftactics.sim.policies import make_policy

from .test_kernel import FIGHTS, MAX_ROUNDS, SCENARIOS, assert_same_run, engine_fight, scripts
from .test_kernel_specials import assert_same
from .test_kernel_tactical import fixed_script

HALL = (
    "################\n"
    "#..............#\n"
    "#...##.........#\n"
    "#..............#\n"
    "#.........##...#\n"
    "#..............#\n"
    "################\n"
)


def _build(name: str, combatants: list[dict[str, Any]], map_text: str = HALL) -> Encounter:
    data = {"name": name, "map": map_text, "combatants": combatants}
    return build_encounter(ScenarioFile.model_validate(data), Path(f"{name}.yaml"))


@cache
def strike_team(level: int) -> Encounter:
    """An operative and an envoy of ``level`` with a soldier, against hobbe hounds (CR 2, DC 22 for trick attack)
    that close in from the far side."""
    hounds = 3 if level < 5 else 5
    return _build(f"strike-{level}", [
        {"id": "Nyx", "side": "party", "statblock": f"pregen-operative-{level}", "at": [2, 1]},
        {"id": "Vela", "side": "party", "statblock": f"pregen-envoy-{level}", "at": [1, 4]},
        {"id": "Krask", "side": "party", "statblock": f"pregen-soldier-{level}", "at": [3, 3]},
        *({"id": f"Hound {i + 1}", "side": "beasts", "statblock": "hobbe-hound", "at": [13 - i % 2, 1 + i]}
          for i in range(hounds)),
    ])  # fmt: skip


@pytest.mark.parametrize("level", [2, 6])
def test_the_kernel_plays_trick_attack_and_get_em(level: int) -> None:
    enc = strike_team(level)
    assert unsupported(enc) == []
    rm = compile_encounter(enc, tactical=True).model.rm
    assert rm.rider[0] == 0 and rm.mark[1] == 0 and rm.rider[1] == -1
    assert list(rm.r_ok[0, :3]) == [True, False, True]  # the knife and the pistol; not the sniper rifle
    assert (rm.r_xn[0], rm.r_xs[0]) == ((1, 4) if level == 2 else (3, 8))
    assert rm.r_dc[0, 3] == 22  # DC 20 + the hound's CR 2
    assert rm.mk_bonus[1] == (1 if level == 2 else 2)
    assert rm.mk_delta[2, 0, 1] == rm.mk_bonus[1]  # the soldier's weapon, with the envoy's mark in force


@pytest.mark.rule("X-04", "CON-18", "BON-01", "ATK-14")
@FIGHTS
@given(values=scripts())
def test_trick_attack_and_get_em_same_dice_same_fight_level_2(values: list[int]) -> None:
    assert_same(strike_team(2), values, "tactical")
    assert_same(strike_team(2), values, "simple")


@pytest.mark.rule("X-04", "CON-18", "BON-01", "ATK-14")
@FIGHTS
@given(values=scripts())
def test_trick_attack_and_get_em_same_dice_same_fight_level_6(values: list[int]) -> None:
    assert_same(strike_team(6), values, "tactical")
    assert_same(strike_team(6), values, "simple")


@pytest.mark.rule("X-04", "CON-18", "MOD-20", "VIS-03", "CF-08")
@FIGHTS
@given(values=scripts())
def test_trick_attack_and_get_em_with_walls_light_and_surprise_same_dice_same_fight(values: list[int]) -> None:
    """The shipped scenarios with walls, dim light and a surprise round, where a target may not see its attacker
    (flat-footed once) or be surprised (flat-footed already)."""
    assert_same(load_scenario(SCENARIOS / "dark-warehouse.yaml"), values, "tactical")
    assert_same(load_scenario(SCENARIOS / "corridor-ambush.yaml"), values, "simple")


@pytest.mark.rule("X-04", "CON-18", "BON-01")
def test_trick_attack_with_and_without_a_move_and_get_em_come_up_and_play_the_same() -> None:
    """Over fixed scripts the engine's operative uses trick attack from where it stands and after the rider's
    move, and the envoy marks; the kernel plays each fight the same."""
    moved, still, marks = 0, 0, 0
    for level in (2, 6):
        for policy in ("tactical", "simple"):
            for i in range(4):
                values = fixed_script(i)
                enc = strike_team(level)
                engine = engine_fight(enc, values, MAX_ROUNDS, {s: make_policy(policy) for s in enc.sides()})
                kernel = kernel_fight(enc, seed=0, script=values, max_rounds=MAX_ROUNDS, policies={"*": policy})
                assert_same_run(engine, kernel)
                for c in engine.fight.commands:
                    if c.type == "use_ability" and c.name == "trick attack":
                        moved += c.to is not None
                        still += c.to is None
                    marks += c.type == "use_ability" and c.name == "get 'em"
    assert moved and still and marks


def test_riders_and_marks_the_kernel_leaves_to_the_engine_are_named() -> None:
    """A rider with uses, a mark by touch and two riders on one creature stay with the engine, each said."""
    base = {
        "name": "Odd Sneak", "kind": "npc", "cr": "2", "eac": 13, "kac": 14, "hp": 24, "initiative": 1,
        "abilities": {"str": 0, "dex": 3, "con": 1, "int": 1, "wis": 0, "cha": 0},
        "saves": {"fort": 3, "ref": 5, "will": 2}, "skills": {"stealth": 8},
        "weapons": [{"name": "pistol", "category": "small_arm", "damage": "1d4 P", "attack_bonus": 6,
                     "range_ft": 30}],
    }  # fmt: skip
    rider = {"name": "sneak", "action": "full", "target": "foe", "uses": 2,
             "rider": {"check": {"skills": ["stealth"]}, "extra_damage": "1d4", "flat_footed": True}}  # fmt: skip
    touch = {"name": "point", "action": "move", "target": "foe", "mark": {"bonus": 1}}
    twice = {**rider, "name": "sneak 2", "uses": None}
    data = [
        {"id": "Odd", "side": "a", "statblock": {**base, "specials": [rider, touch, twice]}, "at": [1, 1]},
        {"id": "Hound", "side": "b", "statblock": "hobbe-hound", "at": [8, 2]},
    ]
    why = unsupported(_build("odd", data))
    assert any(w.startswith("Odd: sneak has uses") for w in why)
    assert any(w.startswith("Odd: point reaches a foe only by touch") for w in why)
    assert "Odd: more than one attack rider or mark" in why
