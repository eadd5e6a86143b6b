"""The compiled kernel and a scenario's setup (issue 22, ``sim.kernel.setup``): same dice, same fight.

A scenario may say who has noticed whom when the fight begins (a pair set below what the senses give: the
target hides from that observer until it attacks), give a creature cover the map cannot draw (a GM's call,
against named attackers or everyone), and start with a grapple under way. The kernel plays them as the engine's
``begin`` sets them up (``encounter.gm_setup``), with both policies; combatants that start hidden and pairs aware
of presence (Searches) play in the kernel too (tests/sim/test_kernel_stealth.py); a grapple the held creature
would have to live through on its own turn stays with the engine. The GM's cover square by square:
tests/sim/test_kernel_imposed.py.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from sftactics.encounter.state import Encounter
from sftactics.io.scenario import ScenarioFile, build_encounter, load_scenario
from sftactics.sim.choices import without_riders_and_marks, without_specials
from sftactics.sim.kernel import setup
from sftactics.sim.kernel.model import compile_encounter, unsupported
from sftactics.sim.runner import SimJob
from tests.sim.test_kernel import FIGHTS, SCRIPT_LENGTH, assert_same_fight, scripts

ROOT = Path(__file__).resolve().parents[2]

# Pillars and a dim east end (as in test_kernel_sight): the envoy has neither low-light vision nor darkvision.
DECK = """\
################
#..............#
#....#....#....#
#....#....#....#
#..............#
#....#....#....#
#..............#
################

light 9,0..15,7 dim
"""


def _scenario(name: str, data: dict[str, Any]) -> Encounter:
    return without_specials(build_encounter(ScenarioFile.model_validate({"name": name, **data}), Path(f"{name}.yaml")))


_CREW = [
    {"id": "Krask", "side": "party", "statblock": "pregen-soldier-2", "at": [3, 4], "initiative": 21,
     "aware_of": {"Tracer 1": "unaware", "Tracer 2": "aware_of_location"}},
    {"id": "Vela", "side": "party", "statblock": "pregen-envoy-2", "at": [7, 4], "initiative": 18},
    {"id": "Goblin", "side": "gang", "statblock": "space-goblin", "at": [8, 4], "initiative": 15},
    {"id": "Tracer 1", "side": "gang", "statblock": "skip-tracer", "at": [12, 4], "initiative": 12},
    {"id": "Tracer 2", "side": "gang", "statblock": "skip-tracer", "at": [12, 6], "initiative": 8},
]  # fmt: skip


@cache
def gun_deck() -> Encounter:
    """Round 2, the goblin's turn: it holds the envoy in a grapple; the soldier has not noticed the first skip
    tracer (it hides from him) and knows only where the second one stands (total concealment); the GM gives the
    second tracer improved cover against the soldier and the first one cover against everyone (grenades too)."""
    return _scenario("gun-deck", {
        "map": DECK, "combatants": _CREW, "timeline": {"round": 2, "turn": "Goblin"},
        "grapples": [{"grappler": "Goblin", "grappled": "Vela"}],
        "cover": [{"target": "Tracer 2", "cover": "improved", "against": ["Krask"]},
                  {"target": "Tracer 1", "cover": "cover"}],
    })  # fmt: skip


@cache
def boarding() -> Encounter:
    """The shipped boarding action, without the operative's trick attack (the engine's until the kernel plays it)."""
    return without_riders_and_marks(load_scenario(ROOT / "scenarios" / "boarding-action.yaml"))


def test_the_kernel_plays_the_setup_and_says_what_it_leaves() -> None:
    assert unsupported(gun_deck()) == []
    pairs = setup.imposed_pairs(gun_deck())
    assert pairs["Krask>Tracer 1"] == (0, True)  # seen from where he stands, yet unnoticed: it hides from him
    m = compile_encounter(gun_deck()).model
    assert m.setup and m.sight and m.held0.tolist() == [-1, 2, -1, -1, -1]
    assert m.held_d[1].tolist() == [-2, -2, -2, -2, -2]  # grappled: -2 attack, AC and Reflex (CON-20)
    assert unsupported(boarding()) == []
    late = gun_deck().model_copy(update={"start_at": gun_deck().start_at.model_copy(update={"turn": "Vela"})})
    assert unsupported(late) == ["a grapple under way whose grappler does not have the first turn (the engine's)"]
    assert setup.cover_wins(4, 3) and not setup.cover_wins(2, 3) and setup.cover_wins(5, 4)


@pytest.mark.rule("SEN-03", "SEN-04", "SEN-08", "MOD-20")
def test_a_pair_set_at_presence_and_hidden_starts_with_a_grapple_stay_with_the_engine() -> None:
    # the kernel plays both (``kernel.stealth``, tests/sim/test_kernel_stealth.py), but not beside a grapple
    # under way (grappled's -2 to the held creature's skill checks)
    data = {"map": DECK, "combatants": [dict(c) for c in _CREW]}
    data["combatants"][0] = {**_CREW[0], "aware_of": {"Tracer 1": "aware_of_presence"}}
    assert unsupported(_scenario("presence", data)) == []
    grapple = "Stealth and Searches with a grapple under way (grappled's -2 to skill checks: the engine's)"
    held = {
        **data,
        "timeline": {"round": 2, "turn": "Goblin"},
        "grapples": [{"grappler": "Goblin", "grappled": "Vela"}],
    }
    assert unsupported(_scenario("presence-held", held)) == [grapple]
    data["combatants"][0] = {**_CREW[0], "aware_of": {}, "hidden": True}
    assert unsupported(_scenario("hidden", data)) == []
    timed = {"map": DECK, "combatants": _CREW, "cover": [{"target": "Goblin", "cover": "partial", "rounds": 2}]}
    assert unsupported(_scenario("timed", timed)) == ["cover imposed for a number of rounds (the engine's)"]


@pytest.mark.rule("SEN-03", "SEN-04", "SEN-06", "SEN-08", "MOD-09", "MOD-12", "MOD-13", "MAN-07", "CON-20")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_gun_deck(values: list[int]) -> None:
    assert_same_fight(gun_deck(), values)


@pytest.mark.rule("SEN-03", "SEN-04", "SEN-06", "SEN-08", "MOD-09", "MOD-12", "MOD-13", "MOD-14", "MAN-07", "CON-20")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_gun_deck(values: list[int]) -> None:
    assert_same_fight(gun_deck(), values, policy="tactical")


@pytest.mark.rule("SEN-03", "SEN-08", "MOD-13", "MAN-07", "CON-20", "CON-23")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_boarding_action(values: list[int]) -> None:
    assert_same_fight(boarding(), values)


@pytest.mark.rule("SEN-03", "SEN-08", "MOD-09", "MOD-13", "MAN-07", "CON-20", "CON-23")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_boarding_action(values: list[int]) -> None:
    assert_same_fight(boarding(), values, policy="tactical")


@pytest.mark.rule("SEN-03", "SEN-04", "SEN-06", "SEN-08", "MOD-12", "MOD-14")
def test_a_fixed_tactical_fight_on_the_gun_deck() -> None:
    """The fight that once parted ways (the tactical kernel let the GM's cover open a line of effect a pillar
    closes, MOD-14): round 2, skip tracer 1 (cover imposed against everyone) attacks Krask and steps away; both
    now step to the same square and roll the same dice to the end."""
    assert_same_fight(gun_deck(), _seeded_script(0), policy="tactical")


def _seeded_script(seed: int) -> list[int]:
    """A script as :func:`tests.sim.test_kernel.scripts` draws its tail, from ``random.Random(seed)``."""
    rng = random.Random(seed)
    low = rng.choice([0.0, 0.3, 0.7, 1.0])
    return [rng.randint(1, 4) if rng.random() < low else rng.randint(1, 20) for _ in range(SCRIPT_LENGTH)]


def test_imposed_cover_with_the_tactical_policy_plays_in_the_kernel() -> None:
    for policies in ({"*": "tactical", "party": "simple"}, {"*": "tactical"}, {"*": "simple"}):
        assert SimJob(boarding(), policies, seed=1).kernel_refusals() == []
    assert SimJob(gun_deck(), {"*": "tactical"}, seed=1).kernel_refusals() == []
