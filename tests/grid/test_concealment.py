"""Concealment from the map and from light (MOD-01..06, VIS-03, VIS-04)."""

import pytest

from sftactics.grid.concealment import MISS_CHANCE, ConcealmentKind, concealment, light_concealment
from sftactics.grid.geometry import Footprint
from sftactics.grid.map import parse_map
from sftactics.grid.options import GridOptions


def spots(text: str):  # type: ignore[no-untyped-def]
    m = parse_map(text)
    return m.map, {k: m.space(k) for k in m.marks}


@pytest.mark.rule("MOD-01", "MOD-04")
def test_a_line_through_smoke_conceals_with_a_20_percent_miss_chance() -> None:
    g, s = spots(
        """
        A..*..T
        .......
        B.....U
        """
    )
    res = concealment(g, s["A"], s["T"])
    assert res.kind is ConcealmentKind.CONCEALMENT and res.miss_chance == 20 and res.rule == "MOD-01"
    assert concealment(g, s["B"], s["U"]).kind is ConcealmentKind.NONE
    assert MISS_CHANCE[ConcealmentKind.TOTAL] == 50


@pytest.mark.rule("MOD-01")
def test_touching_the_border_of_a_concealing_square_is_enough_and_the_attacker_picks_its_corner() -> None:
    g, s = spots(
        """
        A.....
        ..*...
        .....T
        """
    )
    # lines from A's best corner run clear of the smoke...
    assert concealment(g, s["A"], Footprint(5, 0)).kind is ConcealmentKind.NONE
    # ...but a line that grazes the smoke's corner counts when every corner has one
    graze = parse_map("A..\n.*.\n..T\n")
    assert concealment(graze.map, graze.space("A"), graze.space("T")).kind is ConcealmentKind.CONCEALMENT
    # with the 'any' reading one concealing line from any corner is enough
    near = parse_map(".........\n.A......T\n.*.......\n")  # smoke under the attacker's own square
    best = concealment(near.map, near.space("A"), near.space("T"))
    anyc = concealment(near.map, near.space("A"), near.space("T"), options=GridOptions(concealment_corner="any"))
    assert best.kind is ConcealmentKind.NONE and anyc.kind is ConcealmentKind.CONCEALMENT


@pytest.mark.rule("MOD-01")
def test_reach_attacks_use_the_line_test() -> None:
    g, s = spots("A*T\n")
    assert concealment(g, s["A"], s["T"], melee=True).kind is ConcealmentKind.CONCEALMENT


@pytest.mark.rule("MOD-02")
def test_adjacent_melee_needs_the_whole_target_space_in_the_concealing_effect() -> None:
    g, s = spots(
        """
        AT.
        ...

        conceal 1,0
        """
    )
    assert concealment(g, s["A"], s["T"], melee=True).kind is ConcealmentKind.CONCEALMENT
    g2, s2 = spots(
        """
        ATT
        .TT

        conceal 1,0 2,0 1,1
        """
    )
    assert concealment(g2, s2["A"], s2["T"], melee=True).kind is ConcealmentKind.NONE
    assert concealment(g2, s2["A"], s2["T"], melee=True, concealing=[(2, 1)]).kind is ConcealmentKind.CONCEALMENT


@pytest.mark.rule("MOD-03")
def test_some_effects_conceal_against_every_attack() -> None:
    g, s = spots("AT\n")
    res = concealment(g, s["A"], s["T"], everywhere=True)
    assert res.kind is ConcealmentKind.CONCEALMENT and res.rule == "MOD-03"


@pytest.mark.rule("MOD-05", "EFF-37")
def test_line_of_effect_without_line_of_sight_is_total_concealment() -> None:
    g, s = spots('A.".T\n')
    res = concealment(g, s["A"], s["T"])
    assert res.kind is ConcealmentKind.TOTAL and res.miss_chance == 50
    assert res.line_of_effect and not res.line_of_sight
    walled, w = spots("A.#.T\n")
    assert concealment(walled, w["A"], w["T"]).kind is ConcealmentKind.NONE  # total cover instead


@pytest.mark.rule("MOD-06", "VIS-03", "VIS-04")
def test_light_conceals_unless_the_observer_sees_in_it() -> None:
    g, s = spots(
        """
        A...D
        ....M
        ....T

        light 4,0 dark
        light 4,1 dim
        """
    )
    assert concealment(g, s["A"], s["M"]).kind is ConcealmentKind.CONCEALMENT
    assert concealment(g, s["A"], s["M"], low_light_vision=True).kind is ConcealmentKind.NONE
    assert concealment(g, s["A"], s["D"]).kind is ConcealmentKind.TOTAL
    assert concealment(g, s["A"], s["D"], darkvision=True).kind is ConcealmentKind.NONE
    assert concealment(g, s["A"], s["T"]).kind is ConcealmentKind.NONE
    assert light_concealment(g, s["D"], low_light_vision=True) is ConcealmentKind.TOTAL
    smoke, sm = spots("A*T\n")
    assert concealment(smoke, sm["A"], sm["T"], blindsight=True).kind is ConcealmentKind.NONE


@pytest.mark.rule("VIS-03")
def test_a_big_creature_is_seen_by_its_best_lit_square() -> None:
    g, s = spots(
        """
        A..LL
        ...LL

        light 3,0..4,1 dim
        light 4,1 normal
        """
    )
    assert light_concealment(g, s["L"]) is ConcealmentKind.NONE
