"""Flanking (MOD-17) and the worked flanking diagram (EX-16)."""

import pytest

from sftactics.grid.flanking import flank_line, flanking
from sftactics.grid.geometry import Footprint
from sftactics.grid.map import parse_map
from sftactics.grid.options import GridOptions
from sftactics.grid.space import Body, Size

DIAGRAM = """
    ..O..
    .AKR.
    .....
    ..N..
    """


def bodies(text: str, side: str = "pc", **reach: int) -> dict[str, Body]:
    m = parse_map(text)
    out = {}
    for k in m.marks:
        sp = m.space(k)
        size = Size.LARGE if sp.side == 2 else Size.MEDIUM
        out[k] = Body(sp, size, reach_ft=reach.get(k), side=side)
    return out


@pytest.mark.rule("EX-16", "MOD-17")
def test_ex16_1_opposite_sides_flank_and_give_plus_two_to_both() -> None:
    b = bodies(DIAGRAM)
    k = b["K"].space
    alt = flanking(b["A"], k, [b["R"]], target_side="foe")
    raia = flanking(b["R"], k, [b["A"]], target_side="foe")
    assert alt.flanked and raia.flanked
    assert [(t.value, t.rule) for t in alt.terms] == [(2, "MOD-17")]
    assert alt.squares == ((1, 1), (3, 1))


@pytest.mark.rule("EX-16", "MOD-17")
def test_ex16_2_no_opposite_line_and_a_non_threatening_ally_mean_no_flanking() -> None:
    b = bodies(DIAGRAM)
    k = b["K"].space
    res = flanking(b["O"], k, [b["A"], b["R"], b["N"]], target_side="foe")
    assert not res.flanked and res.terms == ()
    assert flank_line(b["O"].space, b["N"].space, k) is not None  # the line is fine: Navasi does not threaten
    assert not b["N"].threatens(k)


@pytest.mark.rule("EX-16", "MOD-17", "AOO-04")
def test_ex16_3_a_reach_creature_two_squares_away_flanks_with_an_adjacent_one() -> None:
    text = """
        .GN.K
        """
    with_reach = bodies(text, K=10)
    navasi = with_reach["N"].space
    assert flanking(with_reach["G"], navasi, [with_reach["K"]], target_side="foe").flanked
    assert flanking(with_reach["K"], navasi, [with_reach["G"]], target_side="foe").flanked
    without = bodies(text)
    res = flanking(without["G"], navasi, [without["K"]], target_side="foe")
    assert not res.flanked and "does not threaten" in res.reason


@pytest.mark.rule("MOD-17")
def test_opposite_corners_flank_but_a_knights_move_does_not() -> None:
    t = Footprint(1, 1)
    assert flank_line(Footprint(0, 0), Footprint(2, 2), t) is not None
    assert flank_line(Footprint(0, 1), Footprint(2, 2), t) is None
    assert flank_line(Footprint(0, 0), Footprint(2, 0), t) is None  # both on one side


@pytest.mark.rule("MOD-17", "MOV-04")
def test_big_creatures_flank_and_are_flanked_by_any_of_their_squares() -> None:
    big = Footprint(1, 1, 2)
    assert flank_line(Footprint(0, 0), Footprint(3, 3), big) is not None  # opposite corners of a 2x2
    assert flank_line(Footprint(0, 2), Footprint(3, 1), big) is not None  # opposite sides, off-centre
    ogre = Footprint(0, 0, 2)
    assert flank_line(ogre, Footprint(4, 0), Footprint(2, 0)) is not None  # via its top square
    b = bodies(
        """
        LL.M
        LL..
        """
    )
    target = Footprint(2, 0)
    assert flanking(b["L"], target, [b["M"]], target_side="foe").flanked


@pytest.mark.rule("MOD-17", "AOO-05")
def test_zero_reach_creatures_cannot_flank() -> None:
    tiny = Body(Footprint(0, 0), Size.TINY, side="pc")
    medium = Body(Footprint(2, 0), side="pc")
    target = Footprint(1, 0)
    assert not flanking(medium, target, [tiny], target_side="foe").flanked
    assert "no reach" in flanking(tiny, target, [medium], target_side="foe").reason


@pytest.mark.rule("MOD-17")
def test_who_may_be_the_flanking_partner_is_an_option() -> None:
    me = Body(Footprint(0, 0), side="pc")
    target = Footprint(1, 0)
    stray = Body(Footprint(2, 0), side="third party")
    assert flanking(me, target, [stray], target_side="foe").flanked
    strict = GridOptions(flank_partner="ally_of_attacker")
    assert not flanking(me, target, [stray], target_side="foe", options=strict).flanked
    same_side_as_target = Body(Footprint(2, 0), side="foe")
    assert not flanking(me, target, [same_side_as_target], target_side="foe").flanked


@pytest.mark.rule("MOD-17")
def test_the_attacker_must_itself_threaten_and_walls_cut_threat() -> None:
    m = parse_map(
        """
        A.T.B
        """
    )
    far = Body(m.space("A"), side="pc")
    assert not flanking(far, m.space("T"), [Body(m.space("B"), side="pc")], target_side="foe").flanked
    walled = parse_map("...\nATB\n...\n\nwall 1,0..1,2 E\n")  # a wall between T and B, wall to wall
    a, b = Body(walled.space("A"), side="pc"), Body(walled.space("B"), side="pc")
    assert flanking(a, walled.space("T"), [b], target_side="foe").flanked  # without the map
    assert not flanking(a, walled.space("T"), [b], target_side="foe", grid=walled.map).flanked
