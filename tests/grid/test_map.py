"""The map value, its text format and renderer (MOV-01)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sftactics.core.errors import FileFormatError
from sftactics.grid.geometry import Footprint
from sftactics.grid.map import (
    HORIZONTAL,
    LEGEND,
    VERTICAL,
    Feature,
    Gravity,
    GridMap,
    Light,
    edge,
    edge_between,
    parse_map,
    render_map,
)


@pytest.mark.rule("MOV-01")
def test_legend_markers_and_directives() -> None:
    m = parse_map(
        """
        .#~%o
        =&*",
        A^..B

        wall 0,0 E S      ; two walls on square (0,0)
        window 3,2 N
        corner 4,0
        conceal 4,2
        light 0,0..1,1 dim
        gravity low
        """
    )
    g = m.map
    assert (g.width, g.height) == (5, 3)
    assert g.features((1, 0)) == Feature.SOLID
    assert g.features((2, 0)) == Feature.DIFFICULT
    assert g.features((3, 0)) == Feature.IMPASSABLE
    assert g.features((4, 0)) == Feature.LOW
    assert [g.features((x, 1)) for x in range(5)] == [
        Feature.COVER,
        Feature.SOFT,
        Feature.CONCEAL,
        Feature.OBSCURE,
        Feature.NARROW,
    ]
    assert g.features((1, 2)) == Feature.CANOPY
    assert m.at("A") == (0, 2) and m.at("B") == (4, 2)
    assert g.features((4, 2)) == Feature.CONCEAL  # a marker square can still get features
    assert g.walls == {edge((0, 0), "E"), edge((0, 0), "S")}
    assert g.windows == {edge((3, 2), "N")}
    assert g.corners == {(4, 0)}
    assert g.light_at((1, 1)) is Light.DIM and g.light_at((2, 2)) is Light.NORMAL
    assert g.gravity is Gravity.LOW


def test_edges_name_the_side_shared_by_two_squares() -> None:
    assert edge((2, 3), "E") == (3, 3, VERTICAL) == edge_between((2, 3), (3, 3))
    assert edge((2, 3), "S") == (2, 4, HORIZONTAL) == edge_between((2, 4), (2, 3))
    with pytest.raises(ValueError, match="do not share an edge"):
        edge_between((0, 0), (1, 1))
    with pytest.raises(ValueError, match="unknown side"):
        edge((0, 0), "X")


def test_a_large_creature_is_drawn_as_a_block_of_its_letter() -> None:
    m = parse_map(
        """
        .KK.
        .KK.
        """
    )
    assert m.space("K") == Footprint(1, 0, 2)


@pytest.mark.parametrize(
    ("text", "field", "expected"),
    [
        ("...\n..\n", "row 1", "3 squares like row 0"),
        ("..?\n", "row 0, column 2", "a map character"),
        ("...\n\nwall 1,1 E\n", "line 3", "square on the 3x1 map"),
        ("...\n\nwall 0,0\n", "line 3", "SIDE"),
        ("...\n\nwall 0,0 Q\n", "line 3", "SIDE"),
        ("...\n\nlight 0,0 murky\n", "line 3", "LEVEL"),
        ("...\n\ngravity strong\n", "line 3", "gravity"),
        ("...\n\nteleport 0,0\n", "line 3", "a directive"),
        ("...\n\ndifficult 0;0\n", "line 3", "a square 'x,y'"),
    ],
)
def test_errors_name_the_row_column_or_line(text: str, field: str, expected: str) -> None:
    with pytest.raises(FileFormatError) as err:
        parse_map(text, file="arena.map")
    assert err.value.file == "arena.map"
    assert err.value.field == field
    assert expected in err.value.expected


def test_markers_must_be_unique_when_asked_for_one_square() -> None:
    m = parse_map("A.A\n")
    with pytest.raises(KeyError):
        m.at("A")
    with pytest.raises(ValueError, match="square block"):
        m.space("A")


def test_render_draws_tokens_and_writes_what_one_character_cannot_show() -> None:
    grid = parse_map(
        """
        ..~
        .#.

        wall 2,0 E
        """
    ).map
    text = render_map(grid, {"Kesk": Footprint(0, 0), "Zo": (2, 0)})
    assert text.splitlines()[:2] == ["K.Z", ".#."]
    assert "difficult 2,0" in text  # hidden under the token
    back = parse_map(text)
    assert back.map == grid
    assert back.at("K") == (0, 0) and back.at("Z") == (2, 0)


def test_build_and_with_features_make_equal_maps_to_parsing() -> None:
    parsed = parse_map("~.\n.#\n").map
    built = GridMap.build(2, 2, features={(0, 0): Feature.DIFFICULT, (1, 1): Feature.SOLID})
    assert built == parsed
    assert GridMap(2, 2).with_features([(0, 0)], Feature.DIFFICULT).with_features([(1, 1)], Feature.SOLID) == parsed
    with pytest.raises(ValueError, match="not on a 2x2 map"):
        GridMap.build(2, 2, features={(2, 0): Feature.SOLID})
    with pytest.raises(ValueError, match="not on a"):
        GridMap(2, 2, walls=frozenset({(5, 0, VERTICAL)}))


_flags = st.sampled_from([f for f in LEGEND.values() if f] + [Feature.DIFFICULT | Feature.CONCEAL])


@st.composite
def maps(draw: st.DrawFn) -> GridMap:
    w, h = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    feats = draw(st.dictionaries(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)), _flags, max_size=8))
    walls = draw(st.sets(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1), st.sampled_from("NESW")), max_size=5))
    light = draw(
        st.dictionaries(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)), st.sampled_from(Light), max_size=3)
    )
    return GridMap.build(
        w,
        h,
        features=feats,
        walls={edge((x, y), s) for x, y, s in walls},
        light=light or None,
        gravity=draw(st.sampled_from(Gravity)),
    )


@settings(max_examples=60)
@given(maps())
def test_render_then_parse_gives_the_same_map(grid: GridMap) -> None:
    assert parse_map(render_map(grid)).map == grid
