"""The compiled kernel on maps with walls, doorways, windows and light (issue 22): same dice, same fight.

On these maps who perceives whom changes as the combatants move (``encounter.perception``): a side attacks
only the foes it has located, and when it has located none it goes looking (``sim.search``). The kernel keeps
the same awareness per pair (``sim.kernel.sight``) and the same search memory (``sim.kernel.seek``); driven by
the same dice script, its fights and the engine's must roll the same dice in the same order and end the same.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from sftactics.encounter.state import Encounter
from sftactics.grid.geometry import Footprint
from sftactics.grid.lines import has_line_of_sight
from sftactics.io.scenario import ScenarioFile, build_encounter, load_scenario
from sftactics.sim.choices import without_specials
from sftactics.sim.kernel import geo
from sftactics.sim.kernel.model import compile_encounter, unsupported
from sftactics.sim.kernel.sight import line_of_sight
from tests.sim.test_kernel import FIGHTS, _build, assert_same_fight, scripts

# Two rooms joined by a doorway (x 6, y 3) and a gap by the far wall; a wall on the edge of two squares and a
# window (it lets sight through, not attacks) in the east room.
HALLS = """\
##################
#.....#..........#
#.....#....=.....#
#..........#.....#
#.....#....#.....#
#.....#..........#
##################

wall 13,1..13,2 W
window 9,4..9,5 W
"""

# Pillars and a dim east end: the envoy has neither low-light vision nor darkvision, so a foe standing in the
# dim end is concealed from her (20% miss chance, VIS-03); the pillars hide the sides from each other at first.
PILLARS = """\
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


@cache
def halls() -> Encounter:
    """Two characters in the west room, a ksarik and a skip tracer in the east one: nobody sees anyone at the
    start, so both sides go looking (toward where the other side started) until they meet at the doorway."""
    return _build(
        "halls",
        HALLS,
        [
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-2", "at": [2, 1]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-2", "at": [1, 4]},
            {"id": "Ksarik", "side": "gang", "statblock": "ksarik", "at": [15, 2]},
            {"id": "Tracer", "side": "gang", "statblock": "skip-tracer", "at": [14, 5]},
        ],
    )


@cache
def pillars() -> Encounter:
    """A soldier, an envoy and an operative against two skip tracers and a space goblin among pillars, in dim
    light."""
    return _build(
        "pillars",
        PILLARS,
        [
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-2", "at": [1, 3]},
            {"id": "Nyx", "side": "party", "statblock": "pregen-operative-4", "at": [1, 5]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-2", "at": [2, 1]},
            {"id": "Tracer 1", "side": "gang", "statblock": "skip-tracer", "at": [12, 2]},
            {"id": "Tracer 2", "side": "gang", "statblock": "skip-tracer", "at": [12, 6]},
            {"id": "Goblin", "side": "gang", "statblock": "space-goblin", "at": [14, 3]},
        ],
    )


ROOT = Path(__file__).resolve().parents[2]


def _without_nyx(enc: Encounter) -> Encounter:
    """The 2nd-level operative's knife can hit for less than 1 (1 nonlethal damage, DMG-05: the engine's)."""
    return enc.model_copy(update={"combatants": {k: c for k, c in enc.combatants.items() if k != "Nyx"}})


@cache
def ambush() -> Encounter:
    """The shipped corridor ambush: the party is unaware, so the ambushers have a surprise round (CF-08, CF-09)
    and the party is flat-footed until its first turn (CF-11); the bend hides the sides from each other."""
    return _without_nyx(without_specials(load_scenario(ROOT / "scenarios" / "corridor-ambush.yaml")))


# A dark cellar wider than darkvision reaches (60 ft), with a lit corner where the party starts: the soldier
# (low-light vision only) hears the foes and swings at their squares (total concealment), the operative sees
# them with darkvision while they are within 60 ft; the tracers see the soldier, who is flat-footed against them.
CELLAR = """\
##################
#................#
#...##...........#
#................#
#..........##....#
#................#
##################

light 0,0..17,6 dark
light 1,1..3,5 dim
"""


@cache
def cellar() -> Encounter:
    return _build(
        "cellar",
        CELLAR,
        [
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-2", "at": [1, 2]},
            {"id": "Nyx", "side": "party", "statblock": "pregen-operative-4", "at": [2, 4]},
            {"id": "Tracer", "side": "gang", "statblock": "skip-tracer", "at": [15, 1]},
            {"id": "Ksarik", "side": "gang", "statblock": "ksarik", "at": [16, 4]},
        ],
    )


@cache
def bulkhead() -> Encounter:
    """The shipped bulkhead hunt: two holds, nobody sees anybody at the start, both sides go looking."""
    return _without_nyx(without_specials(load_scenario(ROOT / "scenarios" / "bulkhead-hunt.yaml")))


def test_the_kernel_plays_walls_doorways_windows_and_light_that_changes_nothing() -> None:
    assert unsupported(halls()) == []
    assert unsupported(pillars()) == []
    assert compile_encounter(halls()).model.sight and compile_encounter(pillars()).model.sight
    assert unsupported(ambush()) == [] == unsupported(bulkhead()) == unsupported(cellar())
    m = compile_encounter(ambush()).model
    assert m.surprise and list(m.aware) == [False] * 3 + [True] * 4


@pytest.mark.rule("VIS-03", "VIS-04", "MOD-01", "MOD-05")
def test_light_and_senses_the_kernel_leaves_to_the_engine() -> None:
    def room(map_text: str, party: str = "pregen-envoy-2", gang: Any = "skip-tracer") -> list[str]:
        return unsupported(_build("r", map_text, [
            {"id": "Vela", "side": "party", "statblock": party, "at": [1, 1]},
            {"id": "Foe", "side": "gang", "statblock": gang, "at": [6, 1]},
        ]))  # fmt: skip

    open_room = "########\n#......#\n#......#\n########\n"
    assert room(open_room) == []
    assert room(open_room + "\nlight 0,0..7,3 dim\n") == []  # concealment: the kernel rolls it
    assert room(open_room + "\nlight 0,0..7,3 dark\n", party="pregen-soldier-2") == []  # it hears its foes
    seer = {
        "name": "Seer",
        "kind": "npc",
        "cr": "1",
        "eac": 11,
        "kac": 12,
        "hp": 10,
        "initiative": 1,
        "saves": {"fort": 1, "ref": 1, "will": 1},
        "senses": {"blindsight (vibration)": 30},
        "weapons": [{"name": "claw", "category": "natural", "damage": "1d4 S", "attack_bonus": 3}],
    }
    assert room(open_room + "\nlight 0,0..7,3 dark\n", gang=seer) == [  # type: ignore[arg-type]
        "darkness and blindsight or a blindsense by sound (Foe)"
    ]
    assert room('########\n#..".*.#\n#......#\n########\n') == [
        "obscuring squares (heard but not seen: the engine's perception)",
        "concealing squares (miss chances: the engine's)",
    ]


def _grid_los(enc: Encounter, a: int, b: int) -> bool:
    grid = enc.grid
    assert grid is not None
    w = grid.width
    return has_line_of_sight(grid, Footprint(a % w, a // w), Footprint(b % w, b // w))


@pytest.mark.rule("EFF-37")
def test_lines_of_sight_are_the_grid_packages() -> None:
    enc = halls()
    m = compile_encounter(enc).model
    cache_ = geo.cover_cache(m.map_id)
    pair = geo.pair_table(m.map_id)  # (filled by the first question, read by the second)
    grid = enc.grid
    assert grid is not None
    squares = [y * grid.width + x for y in range(grid.height) for x in range(grid.width)]
    for a in squares[::3]:
        for b in squares[::5]:
            assert line_of_sight(cache_, pair, m.map_id, a, b) == _grid_los(enc, a, b), (a, b)
            assert line_of_sight(cache_, pair, m.map_id, a, b) == _grid_los(enc, a, b)  # from the cache now


@pytest.mark.rule("SEN-04", "SEN-07", "EFF-37", "AOO-06", "CF-02")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_halls(values: list[int]) -> None:
    assert_same_fight(halls(), values)


@pytest.mark.rule("SEN-04", "SEN-07", "VIS-03", "MOD-17", "CF-02")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_pillars(values: list[int]) -> None:
    assert_same_fight(pillars(), values)


@pytest.mark.rule("SEN-04", "SEN-07", "EFF-37", "ACT-53", "CF-02")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_halls(values: list[int]) -> None:
    assert_same_fight(halls(), values, policy="tactical")


@pytest.mark.rule("SEN-04", "SEN-07", "VIS-03", "ACT-53", "CF-02")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_pillars(values: list[int]) -> None:
    assert_same_fight(pillars(), values, policy="tactical")


@pytest.mark.rule("VIS-03", "MOD-04")
def test_dim_light_conceals_as_the_engine_says() -> None:
    enc = pillars()
    m = compile_encounter(enc, tactical=True).model
    ids = list(enc.combatants)
    assert [ids[i] for i in range(m.n) if m.dim_miss[i]] == ["Vela"]
    grid = enc.grid
    assert grid is not None
    assert m.dim[2 * grid.width + 12] and not m.dim[3 * grid.width + 1]
    assert m.t_off.shape[5] == 2  # the tactical tables with and without the miss chance
    rng = random.Random(7)  # a script with a concealed target hit
    engine = assert_same_fight(enc, [rng.randint(1, 20) for _ in range(3000)])
    assert any(sides == 100 for sides, _ in engine.dice)  # the d% of a concealed target, in both fights


@pytest.mark.rule("CF-08", "CF-09", "CF-11", "SEN-04", "EFF-37")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_surprise_round(values: list[int]) -> None:
    assert_same_fight(ambush(), values)


@pytest.mark.rule("CF-08", "CF-09", "CF-11", "ACT-53")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_surprise_round(values: list[int]) -> None:
    assert_same_fight(ambush(), values, policy="tactical")


@pytest.mark.rule("SEN-04", "EFF-37", "ACT-53", "CF-02")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_bulkhead(values: list[int]) -> None:
    assert_same_fight(bulkhead(), values, policy="tactical")


@pytest.mark.rule("VIS-04", "VIS-05", "SEN-06", "MOD-05", "MOD-20", "SEN-10")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_darkness(values: list[int]) -> None:
    assert_same_fight(cellar(), values)


@pytest.mark.rule("VIS-04", "VIS-05", "SEN-06", "MOD-05", "ACT-53")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_darkness(values: list[int]) -> None:
    assert_same_fight(cellar(), values, policy="tactical")


@pytest.mark.rule("VIS-04", "SEN-06")
def test_in_the_dark_a_foe_is_heard_not_seen() -> None:
    m = compile_encounter(cellar(), tactical=True).model
    assert m.sight and list(m.dark_miss) == [True, False, False, True]
    assert list(m.dv_ft) == [0, 60, 60, 0] and list(m.bsense_ft) == [-1, -1, -1, 30]
    assert m.t_off.shape[5] == 2 and list(m.miss_slot) == [0, 0, 1]  # nobody is concealed by the dim corner
    rng = random.Random(11)
    engine = assert_same_fight(cellar(), [rng.randint(1, 20) for _ in range(3000)])
    assert any(sides == 100 for sides, _ in engine.dice)


@cache
def derelict() -> Encounter:
    """The shipped derelict ambush (``examples/``): a dark wreck, walls, a surprise round."""
    return without_specials(load_scenario(ROOT / "examples" / "scenarios" / "derelict-ambush.yaml"))


@pytest.mark.rule("VIS-04", "SEN-06", "CF-08", "EFF-37")
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=scripts())
def test_same_dice_same_fight_derelict(values: list[int]) -> None:
    assert unsupported(derelict()) == []
    assert_same_fight(derelict(), values)


@pytest.mark.rule("VIS-04", "SEN-06", "CF-08", "ACT-53")
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=scripts())
def test_tactical_same_dice_same_fight_derelict(values: list[int]) -> None:
    assert_same_fight(derelict(), values, policy="tactical")


def test_the_kernel_searches_as_the_engine_does() -> None:
    """In the halls nobody sees anyone at first: the fight only happens because both sides go looking."""
    rng = random.Random(3)
    engine = assert_same_fight(halls(), [rng.randint(1, 20) for _ in range(3000)])
    assert any(c.type == "attack" for c in engine.fight.commands)


def test_a_scenario_file_with_walls_plays_in_the_kernel() -> None:
    data = {"name": "door", "map": HALLS, "combatants": [
        {"id": "Krask", "side": "party", "statblock": "pregen-soldier-2", "at": [2, 1]},
        {"id": "Ksarik", "side": "gang", "statblock": "ksarik", "at": [15, 2]},
    ]}  # fmt: skip
    enc = build_encounter(ScenarioFile.model_validate(data), Path("door.yaml"))
    assert unsupported(enc) == []
