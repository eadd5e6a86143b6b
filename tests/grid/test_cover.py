"""Cover by the corner rule (MOD-07..16), attacks of opportunity and cover (MOD-09, AOO-12), EX-15."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sftactics.grid.cover import (
    CoverKind,
    can_make_attack_of_opportunity,
    cover,
    cover_table,
    cover_terms,
    ranged_attack_provokes_from,
)
from sftactics.grid.geometry import Footprint
from sftactics.grid.lines import has_line_of_effect
from sftactics.grid.map import Feature, GridMap, parse_map
from sftactics.grid.options import GridOptions
from sftactics.grid.space import Body


def spaces(text: str) -> tuple[GridMap, dict[str, Footprint]]:
    m = parse_map(text)
    return m.map, {k: m.space(k) for k in m.marks}


@pytest.mark.rule("EX-15", "MOD-07", "AOO-12")
def test_ex15_1_adjacent_with_a_clear_path_no_cover_and_shooting_provokes() -> None:
    g, s = spaces(
        """
        .....
        .AK..
        .....
        """
    )
    assert cover(g, s["A"], s["K"]).kind is CoverKind.NONE
    assert cover(g, s["K"], s["A"]).kind is CoverKind.NONE
    ksarik = Body(s["K"])
    assert ranged_attack_provokes_from(g, s["A"], {"ksarik": ksarik.threatened(g)}, {"ksarik": s["K"]}) == ["ksarik"]


@pytest.mark.rule("EX-15", "MOD-07", "MOD-09", "AOO-12")
def test_ex15_2_lines_along_and_through_a_wall_corner_give_cover_both_ways() -> None:
    g, s = spaces(
        """
        O#.
        .K.
        """
    )
    obozaya, ksarik = s["O"], s["K"]
    there = cover(g, obozaya, ksarik)
    back = cover(g, ksarik, obozaya)
    assert there.kind is CoverKind.COVER and back.kind is CoverKind.COVER
    # even the best corner has a blocked line: through the wall square, or running along its border
    assert [v.reason for v in there.lines if v.kind is CoverKind.COVER] == ["through square at (1, 0)"]
    assert [v.reason for v in back.lines if v.kind is CoverKind.COVER] == ["along square at (1, 0)"]
    assert not can_make_attack_of_opportunity(g, ksarik, obozaya)
    threat = {"ksarik": Body(ksarik).threatened()}
    assert ranged_attack_provokes_from(g, obozaya, threat, {"ksarik": ksarik}) == []


@pytest.mark.rule("EX-15", "MOD-07")
def test_ex15_3_a_distant_shooter_with_a_blocked_line_from_every_corner() -> None:
    g, s = spaces(
        """
        R.......
        ........
        .....#..
        ......K.
        """
    )
    res = cover(g, s["R"], s["K"])
    assert res.kind is CoverKind.COVER
    assert res.corner in s["R"].points
    assert any(v.kind is CoverKind.COVER and "square at (5, 2)" in v.reason for v in res.lines)
    # from straight above the target nothing is in the way
    assert cover(g, Footprint(6, 0), s["K"]).kind is CoverKind.NONE


@pytest.mark.rule("MOD-08")
def test_cover_gives_four_ac_and_two_reflex_as_terms() -> None:
    ac, ref = cover_terms(CoverKind.COVER)
    assert [(t.value, t.rule) for t in ac] == [(4, "MOD-08")]
    assert [(t.value, t.rule) for t in ref] == [(2, "MOD-08")]
    g, s = spaces(
        """
        A.=.T
        """
    )
    res = cover(g, s["A"], s["T"])
    assert res.kind is CoverKind.COVER and res.ac_terms == ac and res.reflex_terms == ref


@pytest.mark.rule("MOD-10")
def test_low_obstacles_cover_only_near_defenders_and_not_against_nearer_attackers() -> None:
    g, s = spaces(
        """
        A.......o.T
        """
    )
    assert cover(g, s["A"], s["T"]).kind is CoverKind.COVER  # 10 ft from the low wall
    # an attacker nearer to the obstacle than the target ignores it; one as far away does not
    assert cover(g, Footprint(7, 0), s["T"]).kind is CoverKind.NONE  # 5 ft from it, the target 10 ft
    assert cover(g, Footprint(6, 0), s["T"]).kind is CoverKind.COVER  # 10 ft from it, as the target
    # beyond 30 ft of the obstacle the defender gets nothing from it
    far = parse_map("A.o.......T\n")
    assert cover(far.map, far.space("T"), far.space("A")).kind is CoverKind.COVER
    assert cover(far.map, far.space("A"), far.space("T")).kind is CoverKind.NONE
    # the other reading: within 30 ft of the attacker
    opt = GridOptions(low_obstacle_within="attacker")
    assert cover(far.map, far.space("T"), far.space("A"), options=opt).kind is CoverKind.NONE


@pytest.mark.rule("MOD-11", "MOV-13")
def test_creatures_in_the_way_give_soft_cover_against_ranged_attacks_only() -> None:
    g, s = spaces(
        """
        A.E.T
        """
    )
    res = cover(g, s["A"], s["T"], creatures=[s["E"]])
    assert res.kind is CoverKind.SOFT
    assert [(t.value, t.rule) for t in res.ac_terms] == [(4, "MOD-11")] and res.reflex_terms == ()
    assert not res.blocks_attacks_of_opportunity and not res.allows_stealth
    assert cover(g, s["A"], s["T"], creatures=[s["E"]], ranged=False).kind is CoverKind.NONE
    # an ally the target moved through is not passed as a creature in the way
    assert cover(g, s["A"], s["T"]).kind is CoverKind.NONE
    assert next(v.reason for v in res.lines if v.kind is CoverKind.SOFT) == "through creature at " + repr(s["E"])


@pytest.mark.rule("MOD-12", "MOD-13", "MOD-16")
def test_partial_and_improved_cover_are_gm_degrees_with_their_own_bonuses() -> None:
    g, s = spaces("A.=.T\n")
    base = cover(g, s["A"], s["T"])
    partial = base.adjusted(CoverKind.PARTIAL)
    improved = base.adjusted(CoverKind.IMPROVED)
    assert [t.value for t in partial.ac_terms + partial.reflex_terms] == [2, 1] and partial.rule == "MOD-12"
    assert [t.value for t in improved.ac_terms + improved.reflex_terms] == [8, 4] and improved.rule == "MOD-13"
    assert partial.blocks_attacks_of_opportunity and partial.allows_stealth
    assert base.allows_stealth


@pytest.mark.rule("MOD-14", "EFF-35")
def test_no_line_of_effect_is_total_cover() -> None:
    g, s = spaces(
        """
        ..#..
        A.#.T
        ..#..
        """
    )
    res = cover(g, s["A"], s["T"])
    assert res.kind is CoverKind.TOTAL and not res.can_be_attacked and res.rule == "MOD-14"
    assert res.ac_terms == () and not has_line_of_effect(g, s["A"], s["T"])


@pytest.mark.rule("MOD-14", "MOD-09")
def test_a_long_thin_wall_between_adjacent_creatures_is_total_cover() -> None:
    g, s = spaces(
        """
        ...
        AT.
        ...

        wall 0,0..0,2 E
        """
    )
    assert cover(g, s["A"], s["T"]).kind is CoverKind.TOTAL
    assert not can_make_attack_of_opportunity(g, s["T"], s["A"])
    # a single wall edge between them leaves lines round its ends: cover, not total
    g2, s2 = spaces("AT\n\nwall 0,0 E\n")
    assert cover(g2, s2["A"], s2["T"]).kind is CoverKind.COVER


@pytest.mark.rule("MOD-15")
def test_line_of_effect_to_part_of_a_large_target_gives_cover() -> None:
    g, s = spaces(
        """
        ......
        A..#LL
        ....LL
        ......
        """
    )
    assert cover(g, s["A"], s["L"]).kind is CoverKind.COVER
    assert has_line_of_effect(g, s["A"], s["L"])


@pytest.mark.rule("MOD-07")
def test_the_along_the_wall_option_decides_cover_down_a_corridor() -> None:
    g, s = spaces(
        """
        ######
        A....T
        ######
        """
    )
    assert cover(g, s["A"], s["T"]).kind is CoverKind.COVER
    assert cover(g, s["A"], s["T"], options=GridOptions(line_along_wall_blocks=False)).kind is CoverKind.NONE


@pytest.mark.rule("MOD-08")
def test_cover_from_a_point_of_origin_gives_the_reflex_bonus() -> None:
    g, s = spaces(
        """
        ....
        .=T.
        ....
        """
    )
    res = cover(g, (0, 1), s["T"])
    assert res.kind is CoverKind.COVER and res.corner is None
    assert [t.value for t in res.reflex_terms] == [2]
    assert cover(g, (4, 1), s["T"]).kind is CoverKind.NONE


def test_cover_table_matches_pairwise_cover() -> None:
    g, s = spaces(
        """
        A...#...
        ....#.C.
        .B......
        .....=.D
        """
    )
    order = [s[k] for k in "ABCD"]
    table = cover_table(g, order)
    for i, a in enumerate(order):
        for j, t in enumerate(order):
            if i != j:
                others = [o for k, o in enumerate(order) if k not in (i, j)]
                assert table[(i, j)] is cover(g, a, t, creatures=others).kind


@settings(max_examples=40, deadline=None)
@given(
    st.sets(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=6),
    st.tuples(st.integers(0, 6), st.integers(0, 6)),
    st.tuples(st.integers(0, 6), st.integers(0, 6)),
    st.tuples(st.integers(0, 6), st.integers(0, 6)),
)
def test_more_walls_never_mean_less_cover_and_total_cover_is_exactly_no_line_of_effect(
    walls: set[tuple[int, int]], a: tuple[int, int], t: tuple[int, int], extra: tuple[int, int]
) -> None:
    if a == t:
        return
    free = walls - {a, t}
    g = GridMap.build(7, 7, features={w: Feature.SOLID for w in free})
    res = cover(g, Footprint(*a), Footprint(*t))
    assert CoverKind.NONE <= res.kind <= CoverKind.TOTAL
    assert (res.kind is CoverKind.TOTAL) == (not has_line_of_effect(g, Footprint(*a), Footprint(*t)))
    if extra not in (a, t):
        more = g.with_features([extra], Feature.SOLID)
        assert cover(more, Footprint(*a), Footprint(*t)).kind >= res.kind


@settings(max_examples=40, deadline=None)
@given(
    st.sets(st.tuples(st.integers(0, 29), st.integers(0, 29)), max_size=60),
    st.sets(st.tuples(st.integers(0, 29), st.integers(0, 29), st.sampled_from("NESW")), max_size=30),
    st.lists(st.tuples(st.integers(0, 28), st.integers(0, 28), st.sampled_from([1, 1, 2])), min_size=2, max_size=5),
)
def test_the_quick_search_for_things_near_a_line_misses_nothing(
    solid: set[tuple[int, int]], walls: set[tuple[int, int, str]], bodies: list[tuple[int, int, int]]
) -> None:
    from sftactics.grid.lines import space_things, things_between
    from sftactics.grid.map import edge

    g = GridMap.build(30, 30, features={s: Feature.SOLID for s in solid}, walls={edge((x, y), d) for x, y, d in walls})
    spaces_ = [Footprint(x, y, n) for x, y, n in bodies]
    a, t, others = spaces_[0], spaces_[1], spaces_[2:]
    if a.overlaps(t):
        return
    box_a, box_t = (a.x, a.y, a.x + a.side, a.y + a.side), (t.x, t.y, t.x + t.side, t.y + t.side)
    everything = things_between(
        g, box_a, box_t, space_things([o for o in others if not o.overlaps(a) and not o.overlaps(t)])
    )
    quick = cover(g, a, t, creatures=others)
    slow = cover(g, a, t, things=everything)
    assert quick.kind is slow.kind


@pytest.mark.rule("MOD-08")
def test_cover_in_words_never_doubles_the_word() -> None:
    from sftactics.grid.cover import cover_words

    assert cover_words(CoverKind.COVER) == "cover"
    assert cover_words(CoverKind.PARTIAL) == "partial cover"
    assert cover_words(CoverKind.IMPROVED) == "improved cover"
