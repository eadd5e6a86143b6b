"""The compiled kernel on what issue 22 brought it from the small end: the corrode critical effect, damage rolls
of several parts, and creatures smaller than a square. The same dice, the same fight as the engine, with the
simple and the tactical policy, on rooms where each matters.

* **corrode** (ATK-15, CON-05): a critical hit leaves the target corroding, acid at the start of each of its
  turns that no save ends; with bleeding and burning on the same creature the groups tick in the order each
  last gained an instance.
* **several parts** (DMG-01, DMG-08, SPA-06, SPA-10): ``1d8+4 P + 1d4 A`` and a three-part tail, through DR
  and energy resistance taken off the whole roll.
* **smaller than a square** (MOV-03, AOO-05): Tiny creatures with 0 ft of reach move into their foes' squares to
  bite (provoking on the way), share squares with friends and foes, shoot from inside a foe's square (provoking
  it), threaten only their own square (a foe leaving it provokes) and never flank.
* **a fight already under way** (the scenario's ``timeline``, CF-12): it opens in the given round at the given
  turn, those before it (and those listed as having acted) wait for the next round, and everyone may take
  attacks of opportunity from the start.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from sftactics.encounter.events import Moved
from sftactics.encounter.state import Encounter
from sftactics.io.scenario import ScenarioFile, build_encounter
from sftactics.sf1e import injury
from sftactics.sim.choices import without_specials
from sftactics.sim.kernel.model import _down, compile_encounter, unsupported

from .test_kernel import BRUTE, FIGHTS, FIREBUG, GUNNER, SCRIPT_LENGTH, SPITTER, _build, assert_same_fight, scripts

# a spitter whose acid corrodes on a critical hit (ranged first: it shoots)
ACID_SPITTER: dict[str, Any] = {
    **FIREBUG,
    "name": "Test Acid Spitter",
    "weapons": [
        {"name": "acid spit", "category": "natural", "melee": False, "damage": "1d4+1 A", "attack_bonus": 8,
         "range_ft": 20, "critical": "Corrode 1d4"},
        {"name": "claw", "category": "natural", "damage": "1d6+3 S", "attack_bonus": 9},
    ],
}  # fmt: skip
# a warden whose hide shrugs off some acid and some blows
WARDEN: dict[str, Any] = {
    "name": "Test Warden",
    "kind": "npc",
    "cr": "2",
    "abilities": {"str": 3, "dex": 1, "con": 3, "int": 0, "wis": 0, "cha": 0},
    "eac": 13,
    "kac": 15,
    "saves": {"fort": 6, "ref": 2, "will": 2},
    "initiative": 0,
    "hp": 34,
    "dr": [{"value": 2}],
    "resistances": {"acid": 3},
    "weapons": [
        {"name": "maul", "category": "basic_melee", "damage": "1d8+4 B", "attack_bonus": 8, "item_level": 2},
    ],
}  # fmt: skip


@cache
def acid_bath() -> Encounter:
    """A level-2 soldier and a warden (acid resistance) against three bugs: one corrodes, one burns, one makes
    bleed, each on a critical hit, so a creature can carry all three ticking conditions."""
    room = "##########\n#........#\n#........#\n#........#\n##########\n"
    return _build(
        "acid-bath",
        room,
        [
            {"id": "Krask", "side": "crew", "statblock": "pregen-soldier-2", "at": [1, 1]},
            {"id": "Warden", "side": "crew", "statblock": WARDEN, "at": [1, 3]},
            {"id": "Bug 1", "side": "bugs", "statblock": ACID_SPITTER, "at": [7, 1]},
            {"id": "Bug 2", "side": "bugs", "statblock": SPITTER, "at": [7, 2]},
            {"id": "Bug 3", "side": "bugs", "statblock": FIREBUG, "at": [7, 3]},
        ],
    )


# a biter whose bite has two parts and whose tail three
BITER: dict[str, Any] = {
    **FIREBUG,
    "name": "Test Biter",
    "hp": 36,
    "weapons": [
        {"name": "bite", "category": "natural", "damage": "1d8+4 P + 1d4 A", "attack_bonus": 9,
         "critical": "Bleed 1d4"},
        {"name": "stinger", "category": "natural", "melee": False, "damage": "1d4+1 P + 1d4 F + 1d3 C",
         "attack_bonus": 8, "range_ft": 20},
    ],
}  # fmt: skip
STINGER: dict[str, Any] = {**BITER, "name": "Test Stinger", "weapons": BITER["weapons"][::-1]}


@cache
def two_part_bites() -> Encounter:
    """A level-2 soldier and a warden (DR 2/- and acid resistance 3, taken off the whole roll) against a biter
    (``1d8+4 P + 1d4 A``) and a stinger (``1d4+1 P + 1d4 F + 1d3 C``, shot first)."""
    room = "##########\n#........#\n#........#\n#........#\n##########\n"
    return _build(
        "two-part-bites",
        room,
        [
            {"id": "Krask", "side": "crew", "statblock": "pregen-soldier-2", "at": [1, 1]},
            {"id": "Warden", "side": "crew", "statblock": WARDEN, "at": [1, 3]},
            {"id": "Biter", "side": "bugs", "statblock": BITER, "at": [7, 1]},
            {"id": "Stinger", "side": "bugs", "statblock": STINGER, "at": [7, 3]},
        ],
    )


@st.composite
def crit_scripts(draw: st.DrawFn) -> list[int]:
    """A head hypothesis picks, then a tail where a fifth of the values are 20 (critical hits)."""
    head = draw(st.lists(st.integers(1, 20), max_size=30))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    tail = [20 if rng.random() < 0.2 else rng.randint(1, 20) for _ in range(SCRIPT_LENGTH)]
    return head + tail


def test_the_kernel_plays_corrode_and_several_parts() -> None:
    assert unsupported(acid_bath()) == []
    assert unsupported(two_part_bites()) == []
    m = compile_encounter(two_part_bites()).model
    biter, warden = 2, 1
    assert m.w_xp[biter, 0] >= 0 and m.w_xp[biter, 1] >= 0
    assert list(m.xp_dim[m.w_xp[biter, 0], :2]) == [2 * 12 + 1, 2 * 4 + 1]
    # 5 piercing and 3 acid: DR 2 off the piercing, resistance 3 takes all the acid
    q = int(m.w_xp[biter, 0])
    cell = int(m.xp_off[q]) + 5 * int(m.xp_dim[q, 1]) + 3
    assert m.xp_mit[warden, cell] == 3


@pytest.mark.rule("ATK-15", "CON-02", "CON-05")
@FIGHTS
@given(values=crit_scripts())
def test_same_dice_same_fight_corrode_simple(values: list[int]) -> None:
    assert_same_fight(acid_bath(), values)


@pytest.mark.rule("ATK-15", "CON-02", "CON-05")
@FIGHTS
@given(values=crit_scripts())
def test_same_dice_same_fight_corrode_tactical(values: list[int]) -> None:
    assert_same_fight(acid_bath(), values, policy="tactical")


@pytest.mark.rule("DMG-01", "DMG-08", "SPA-06", "SPA-10", "ATK-14")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_several_parts_simple(values: list[int]) -> None:
    assert_same_fight(two_part_bites(), values)


@pytest.mark.rule("DMG-01", "DMG-08", "SPA-06", "SPA-10", "ATK-14")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_several_parts_tactical(values: list[int]) -> None:
    assert_same_fight(two_part_bites(), values, policy="tactical")


# a tiny drone that shoots (ranged first) and a tiny mite whose bite bleeds
DRONE: dict[str, Any] = {
    "name": "Test Drone",
    "kind": "npc",
    "cr": "1",
    "size": "tiny",
    "abilities": {"str": -2, "dex": 4, "con": 1, "int": 0, "wis": 0, "cha": 0},
    "eac": 13,
    "kac": 13,
    "saves": {"fort": 2, "ref": 5, "will": 1},
    "initiative": 4,
    "hp": 16,
    "speed": {"land": 30},
    "weapons": [
        {"name": "needler", "category": "small_arm", "damage": "1d4+1 P", "attack_bonus": 7, "range_ft": 30,
         "capacity": 6, "usage": 1, "item_level": 1},
        {"name": "pincer", "category": "natural", "damage": "1d3+1 S", "attack_bonus": 6},
    ],
}  # fmt: skip
MITE: dict[str, Any] = {
    **DRONE,
    "name": "Test Mite",
    "hp": 18,
    "weapons": [{"name": "bite", "category": "natural", "damage": "1d4+2 P", "attack_bonus": 8,
                 "critical": "Bleed 1d3"}],
}  # fmt: skip


@cache
def squox_den() -> Encounter:
    """A level-2 soldier and envoy among crates against two trained squoxes and a mite (Tiny, 0-ft reach: they
    bite from inside their foes' squares) and a drone (Tiny, shoots), two of them starting in one square."""
    room = "##########\n#........#\n#...o....#\n#........#\n#.....o..#\n##########\n"
    return _build(
        "squox-den",
        room,
        [
            {"id": "Krask", "side": "crew", "statblock": "pregen-soldier-2", "at": [1, 1]},
            {"id": "Vela", "side": "crew", "statblock": "pregen-envoy-2", "at": [2, 4]},
            {"id": "Squox 1", "side": "pests", "statblock": "trained-squox", "at": [7, 1]},
            {"id": "Squox 2", "side": "pests", "statblock": "trained-squox", "at": [7, 1]},
            {"id": "Mite", "side": "pests", "statblock": MITE, "at": [8, 3]},
            {"id": "Drone", "side": "pests", "statblock": DRONE, "at": [8, 4]},
        ],
    )


@cache
def tiny_scrum() -> Encounter:
    """The same pests right next to their foes in a small room (a scenario may not start them inside a foe's
    square, MOV-16): they enter those squares at once, leaving a square a Tiny foe shares provokes it, and the
    drone shoots from next to or inside a foe's square."""
    room = "#######\n#.....#\n#.....#\n#.....#\n#######\n"
    return _build(
        "tiny-scrum",
        room,
        [
            {"id": "Krask", "side": "crew", "statblock": "pregen-soldier-2", "at": [2, 2]},
            {"id": "Vela", "side": "crew", "statblock": "pregen-envoy-2", "at": [3, 2]},
            {"id": "Squox 1", "side": "pests", "statblock": "trained-squox", "at": [2, 1]},
            {"id": "Mite", "side": "pests", "statblock": MITE, "at": [3, 3]},
            {"id": "Drone", "side": "pests", "statblock": DRONE, "at": [3, 3]},
        ],
    )


def test_the_kernel_plays_creatures_smaller_than_a_square() -> None:
    assert unsupported(squox_den()) == []
    assert unsupported(tiny_scrum()) == []
    m = compile_encounter(squox_den()).model
    assert list(m.sub) == [False, False, True, True, True, True]
    assert list(m.body_reach[2:]) == [0, 0, 0, 0]  # 0-ft reach: never a flanking partner (AOO-05)


def _shared(enc: Encounter, values: list[int], policy: str) -> int:
    """Play the same fight in both; how many moves of a Tiny creature ended in a foe's square."""
    engine = assert_same_fight(enc, values, policy=policy)
    at = {c.id: c.position for c in enc.combatants.values()}
    tiny = {c.id for c in enc.combatants.values() if c.creature.stat.size == "tiny"}
    shared = 0
    for batch in engine.fight.events:
        for e in batch:
            if isinstance(e, Moved) and e.path:
                at[e.id] = e.path[-1]
                foes = [o for o in enc.combatants.values() if o.side != enc.get(e.id).side]
                shared += e.id in tiny and any(at[o.id] == e.path[-1] for o in foes)
    if currently_in_test_context():
        event(f"moves into a foe's square: {min(shared, 3)}")
    return shared


@pytest.mark.rule("MOV-03", "AOO-05", "AOO-06", "MOV-16")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_tiny_simple(values: list[int]) -> None:
    _shared(squox_den(), values, "simple")


@pytest.mark.rule("MOV-03", "AOO-05", "AOO-06", "MOV-16")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_tiny_tactical(values: list[int]) -> None:
    _shared(squox_den(), values, "tactical")


@pytest.mark.rule("MOV-03", "AOO-05", "AOO-12")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_tiny_scrum_simple(values: list[int]) -> None:
    _shared(tiny_scrum(), values, "simple")


@pytest.mark.rule("MOV-03", "AOO-05", "AOO-12")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_tiny_scrum_tactical(values: list[int]) -> None:
    _shared(tiny_scrum(), values, "tactical")


@pytest.mark.rule("MOV-03", "AOO-05")
@pytest.mark.parametrize("policy", ["simple", "tactical"])
def test_tiny_creatures_do_go_into_their_foes_squares(policy: str) -> None:
    rng = random.Random(7)
    scripts_ = [[rng.randint(1, 20) for _ in range(SCRIPT_LENGTH)] for _ in range(4)]
    assert sum(_shared(tiny_scrum(), v, policy) for v in scripts_) > 0


@cache
def under_way() -> Encounter:
    """The scrum's four in round 3, the brute's turn next, the gunner having had its turn already this round:
    attacks of opportunity from the first step (everyone has acted before)."""
    room = "########\n#......#\n#......#\n#......#\n#......#\n########\n"
    data = {
        "name": "under-way",
        "map": room,
        "timeline": {"round": 3, "turn": "Brute", "acted": ["Gunner"]},
        "combatants": [
            {"id": "Gunner", "side": "crew", "statblock": GUNNER, "at": [2, 2], "initiative": 9},
            {"id": "Vela", "side": "crew", "statblock": "pregen-envoy-2", "at": [4, 2], "initiative": 18},
            {"id": "Brute", "side": "gang", "statblock": BRUTE, "at": [3, 2], "initiative": 12},
            {"id": "Ksarik", "side": "gang", "statblock": "ksarik", "at": [3, 3], "initiative": 5},
        ],
    }
    return without_specials(build_encounter(ScenarioFile.model_validate(data), Path("under-way.yaml")))


def test_a_fight_under_way_opens_in_its_round() -> None:
    m = compile_encounter(under_way()).model
    assert (m.start_round, m.start_turn) == (3, 2)
    assert list(m.start_done) == [True, False, False, False]


@pytest.mark.rule("CF-12", "CF-15", "AOO-06")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_under_way_simple(values: list[int]) -> None:
    assert_same_fight(under_way(), values)


@pytest.mark.rule("CF-12", "CF-15", "AOO-06")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_under_way_tactical(values: list[int]) -> None:
    assert_same_fight(under_way(), values, policy="tactical")


FOUNDRY = Path(__file__).resolve().parents[1] / "data" / "foundry-sfrpg" / "creatures"


@cache
def obfuchsia_den() -> Encounter:
    """A real creature with a two-part bite (``2d8+17 P + 1d8 A``, the Foundry fixture's Obfuchsia), two of
    them against the four level-10 pregens in an open room (``bench/reach_bench.py``'s census fight)."""
    from sftactics.io.foundry import import_paths

    block = import_paths([FOUNDRY / "obfuchsia.json"]).imported[0].statblock
    classes = ("soldier", "operative", "mystic", "envoy")
    combatants: list[dict[str, Any]] = [
        {"id": f"PC {cls}", "side": "party", "statblock": f"pregen-{cls}-10", "at": list(at)}
        for cls, at in zip(classes, ((2, 6), (2, 9), (4, 7), (4, 11)), strict=True)
    ]
    combatants += [{"id": f"Foe {i + 1}", "side": "foes", "statblock": block, "at": list(at)}
                   for i, at in enumerate(((17, 2), (17, 11)))]  # fmt: skip
    return _build("obfuchsia-den", "\n".join(["." * 30] * 20), combatants)


@pytest.mark.rule("INJ-11")
def test_the_resolve_to_stabilize_is_counted_as_the_creature_is_when_dying() -> None:
    enc = obfuchsia_den()
    m = compile_encounter(enc).model
    op = enc.get("PC operative").creature
    # an operative's Resolve comes from its Dexterity; treated as 0 while it is helpless (dying), which is
    # neither damage nor drain: its maximum Resolve, and so the cost, stays (ABL-05)
    assert injury.stabilize_cost(op) == 2
    assert m.stab_cost[1] == injury.stabilize_cost(_down(op)) == 2


@pytest.mark.rule("DMG-01", "DMG-08", "INJ-11", "INJ-12")
@pytest.mark.parametrize("policy", ["simple", "tactical"])
def test_same_dice_same_fight_a_real_two_part_bite(policy: str) -> None:
    rng = random.Random(0)  # a script where the operative drops, stabilizes with Resolve and gets up
    assert_same_fight(obfuchsia_den(), [rng.randint(1, 20) for _ in range(SCRIPT_LENGTH)], max_rounds=8,
                      policy=policy)  # fmt: skip
