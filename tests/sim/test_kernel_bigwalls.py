"""The compiled kernel plays creatures of two squares or more on maps with walls and light (issue 22).

Who perceives whom is asked between spaces (``encounter.perception``): lines of sight and effect between the two
footprints, the distance between their nearest squares, the light on the target's best-lit square. Same dice,
same fight: a Large ogre and a hound behind an interior wall with a doorway and a wall on an edge, in dim light;
a Huge behemoth in a dark hall it leaves through a doorway it squeezes through. The simple policy on both sides.
"""

from __future__ import annotations

from collections import namedtuple
from functools import cache

import numpy as np
import pytest
from hypothesis import given

from sftactics.encounter.movement import mover_for
from sftactics.encounter.seek import distance_field
from sftactics.encounter.state import Encounter
from sftactics.grid.geometry import Footprint
from sftactics.grid.lines import has_line_of_effect, has_line_of_sight
from sftactics.grid.map import Light, parse_map
from sftactics.grid.space import Size, footprint_side
from sftactics.grid.squeezing import squeezed_at
from sftactics.sim.kernel import bigsight, bigsqueeze, geo
from sftactics.sim.kernel.model import compile_encounter, unsupported
from tests.sim.test_kernel import FIGHTS, _build, assert_same_fight, scripts
from tests.sim.test_kernel_big import BEHEMOTH, OGRE

# Two halls joined by a doorway two squares wide (x 8, rows 3..4); a wall on the edge of two squares in the east
# hall; the east hall in dim light (the envoy has no low-light vision: a foe there is concealed from her).
GATE = """\
####################
#.......#..........#
#.......#..........#
#..................#
#..................#
#.......#..........#
#.......#..........#
#.......#..........#
####################

wall 12,1..12,2 W
wall 5,5..5,6 E
light 9,0..19,8 dim
"""

# A dark east hall (the behemoth's 3 x 3 space straddles its edge at first: its best-lit square is lit), a dim
# west one, and a doorway two squares wide that a Huge creature squeezes through (MOV-19).
DEN = """\
####################
#.......#..........#
#.......#..........#
#..................#
#..................#
#.......#..........#
#.......#..........#
####################

light 12,0..19,7 dark
light 0,0..8,7 dim
"""


@cache
def gate() -> Encounter:
    """A level-4 party in the west hall against a Large ogre and a hobbe hound in the east one: they see each
    other only through the doorway, and go looking for each other (the ogre as a 2 x 2 space)."""
    return _build(
        "gate",
        GATE,
        [
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-4", "at": [2, 1]},
            {"id": "Nyx", "side": "party", "statblock": "pregen-operative-4", "at": [2, 6]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-4", "at": [1, 4]},
            {"id": "Ogre", "side": "brutes", "statblock": OGRE, "at": [14, 1]},
            {"id": "Hound", "side": "brutes", "statblock": "hobbe-hound", "at": [16, 6]},
        ],
    )


def _ogre_at(at: list[int]) -> Encounter:
    enc = gate()
    ogre = enc.combatants["Ogre"].model_copy(update={"position": (at[0], at[1])})
    return enc.model_copy(update={"combatants": {**enc.combatants, "Ogre": ogre}})


@cache
def astride() -> Encounter:
    """The gate with the ogre's space across the wall on the edge (x 12, rows 1..2): its full space does not fit
    there, but no square of it is too tight, so it is not squeezing (``grid.squeezing.squeezed_at``: no
    penalties) and walks off as the grid's search moves it."""
    return _ogre_at([11, 1])


@cache
def den() -> Encounter:
    """A level-4 party in the dim west hall against a Huge behemoth half in the dark east hall: it hears them
    fighting, they see it while its best-lit square is lit (and the operative with darkvision within 60 ft)."""
    return _build(
        "den",
        DEN,
        [
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-4", "at": [2, 2]},
            {"id": "Nyx", "side": "party", "statblock": "pregen-operative-4", "at": [3, 5]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-4", "at": [1, 3]},
            {"id": "Behemoth", "side": "beasts", "statblock": BEHEMOTH, "at": [10, 2]},
        ],
    )


def test_the_kernel_takes_big_creatures_among_walls_and_light() -> None:
    assert unsupported(gate()) == []
    assert unsupported(den()) == []
    assert compile_encounter(gate()).model.sight and compile_encounter(den()).model.sight


@pytest.mark.rule("MOV-19")
def test_a_big_creature_across_a_wall_on_an_edge_is_not_squeezed() -> None:
    """The ogre astride the wall on the edge is not squeezed; in the doorway (its space holds the wall south of
    it) it is; the kernel plays both (a squeezed start: ``test_kernel_bigtactics_walls``)."""
    grid = gate().grid
    assert grid is not None
    assert not squeezed_at(grid, Footprint(11, 1, 2), Size.LARGE)
    assert squeezed_at(grid, Footprint(7, 4, 2), Size.LARGE)
    assert unsupported(astride()) == [] and unsupported(_ogre_at([7, 4])) == []


@pytest.mark.rule("MOV-19")
def test_where_a_big_creature_squeezes_is_the_grids() -> None:
    for text in (GATE, DEN):
        grid = parse_map(text).map
        table = bigsqueeze.squeeze_table(grid, {2, 3, 4, 6})
        for size in (Size.LARGE, Size.HUGE, Size.GARGANTUAN, Size.COLOSSAL):
            s = footprint_side(size)
            for y in range(grid.height):
                for x in range(grid.width):
                    want = squeezed_at(grid, Footprint(x, y, s), size)
                    assert table[s, y * grid.width + x] == want, (size, x, y)
    assert bigsqueeze.PENALTY == 2


@pytest.mark.rule("MOV-19", "CON-14")
def test_a_big_creature_standing_squeezed_has_the_penalties() -> None:
    """Where the behemoth's 3 x 3 space would hold the wall (in the doorway, squeezed) its AC, attack rolls and
    Reflex saves are 2 lower (``attacks._one_attack``, ``attacks._save``); in the open, not."""
    enc = den()
    m = compile_encounter(enc).model
    grid = enc.grid
    assert grid is not None
    me = [c.id for c in enc.combatants.values()].index("Behemoth")
    pos = np.array([c.position[1] * grid.width + c.position[0] for c in enc.combatants.values()], dtype=np.int64)
    state = namedtuple("state", "pos")
    assert bigsqueeze.penalty(m, state(pos), me) == 0
    pos[me] = 3 * grid.width + 8  # the doorway (x 8, rows 3..4): a 2 x 2 squeezed space there
    assert bigsqueeze.penalty(m, state(pos), me) == 2
    assert bigsqueeze.penalty(m, state(pos), 0) == 0  # a one-square creature never squeezes here


@pytest.mark.rule("VIS-03", "VIS-04")
def test_the_light_on_a_space_is_its_best_lit_square() -> None:
    grid = parse_map(DEN).map
    table = bigsight.light_table(grid)
    w = grid.width
    for size in (Size.MEDIUM, Size.LARGE, Size.HUGE, Size.GARGANTUAN, Size.COLOSSAL):
        s = footprint_side(size)
        for y in range(grid.height - s + 1):
            for x in range(w - s + 1):
                best = max(grid.light_at(sq) for sq in Footprint(x, y, s).squares)
                assert table[s, y * w + x] == int(best), (size, x, y)
    assert table[3, 2 * w + 10] == int(Light.NORMAL) and table[3, 2 * w + 12] == int(Light.DARK)


def test_lines_between_spaces_are_the_grid_packages() -> None:
    enc = gate()
    m = compile_encounter(enc).model
    grid = enc.grid
    assert grid is not None
    cache_ = geo.cover_cache(m.map_id)
    pair = geo.pair_table(m.map_id)  # (filled on the first pass, read on the second)
    w = grid.width
    pairs = [((14, 1), 2, (2, 1), 1), ((10, 3), 2, (2, 6), 1), ((3, 3), 1, (13, 5), 3), ((9, 2), 2, (4, 4), 2),
             ((13, 1), 2, (11, 1), 1), ((6, 5), 1, (2, 5), 2)]  # fmt: skip
    for _ in range(2):  # then from the cache
        for (ax, ay), sa, (bx, by), sb in pairs:
            a, b = ay * w + ax, by * w + bx
            fa, fb = Footprint(ax, ay, sa), Footprint(bx, by, sb)
            assert bigsight.fp_line_of_sight(cache_, pair, m.map_id, a, sa, b, sb) == has_line_of_sight(grid, fa, fb)
            assert bigsight.fp_line_of_effect(cache_, pair, m.map_id, a, sa, b, sb) == has_line_of_effect(grid, fa, fb)


@pytest.mark.rule("MOV-04", "MOV-19")
def test_a_big_movers_search_field_is_the_engines() -> None:
    """``encounter.seek.distance_field`` for a Huge walker (squeezing through the doorway) from two anchors."""
    enc = den()
    m = compile_encounter(enc).model
    grid = enc.grid
    assert grid is not None
    me = [c.id for c in enc.combatants.values()].index("Behemoth")
    w = grid.width
    out = np.zeros(w * grid.height, dtype=np.int32)
    for start in ((10, 2), (2, 1)):
        bigsight.seek_field(m, start[1] * w + start[0], 500_000, out, me)
        want = distance_field(enc, mover_for(enc.combatants["Behemoth"]), start)
        got = {(q % w, q // w): int(v) for q, v in enumerate(out.tolist()) if v >= 0}
        assert got == want


@pytest.mark.rule("MOV-04", "VIS-03", "SEN-04", "SEN-06", "MOD-20", "AOO-02", "AOO-06", "MOD-11", "MOD-17")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_large_ogre_behind_a_wall(values: list[int]) -> None:
    assert_same_fight(gate(), values)


@pytest.mark.rule("MOV-04", "MOV-19", "VIS-04", "SEN-06", "SEN-10", "MOD-05", "MOD-20", "AOO-06")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_huge_behemoth_in_the_dark(values: list[int]) -> None:
    assert_same_fight(den(), values)


@pytest.mark.rule("MOV-04", "MOV-19", "AOO-06")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_large_ogre_across_a_wall_on_an_edge(values: list[int]) -> None:
    assert_same_fight(astride(), values)
