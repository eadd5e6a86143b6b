"""The map view: tokens, overlays, text and SVG (exact strings on tiny maps, hand-checked)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from sftactics.core.errors import SftError
from sftactics.encounter.state import Encounter
from sftactics.grid.options import GridOptions
from sftactics.views import (
    build_view,
    parse_area,
    render_svg,
    render_text,
    side_view,
    threatened_by,
    tokens_for,
)
from tests.builders import npc, pc, with_conditions
from tests.encounter.helpers import combatant, encounter

SVG = "{http://www.w3.org/2000/svg}"

TINY = """\
...~...
.#.....
.......
.......
.......
"""


def tiny() -> Encounter:
    """Ann (party, speed 10 ft, a baton) in the top-left corner; Bob (aliens, a claw) at 5,2."""
    return encounter(
        combatant("Ann", "party", pc(name="Ann", speed={"land": 10}), position=(0, 0)),
        combatant("Bob", "aliens", npc(name="Bob"), position=(5, 2)),
        map=TINY,
    )


def panel(text: str) -> list[str]:
    """The map rows of the first panel (header rows included), without the title and legend."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("   0"))
    end = next(i for i in range(start, len(lines)) if not lines[i] or lines[i].startswith("key:"))
    return lines[start:end]


# --- text -------------------------------------------------------------------------------------------------


def test_the_bare_map_shows_terrain_tokens_and_a_legend() -> None:
    assert render_text(build_view(tiny())) == (
        "encounter: 7x5 squares of 5 ft; x counts columns from the left, y rows from the top\n"
        "\n"
        "   0 1 2 3 4 5 6\n"
        "0  A . . ~ . . .\n"
        "1  . # . . . . .\n"
        "2  . . . . . B .\n"
        "3  . . . . . . .\n"
        "4  . . . . . . .\n"
        "\n"
        "party: A Ann\n"
        "aliens: B Bob\n"
        "terrain: . floor   # wall   ~ difficult terrain\n"
    )


@pytest.mark.rule("MOV-05", "MOV-10", "MOV-11", "MOV-17")
def test_reach_one_move_and_double_move() -> None:
    # speed 10 ft: the first move reaches 2 squares; diagonals past the wall square's corners are barred
    # (MOV-11); the second move enters the difficult square at 3,0 for 10 ft (MOV-17) and takes one 5-ft
    # diagonal but not a second (10 ft) one (MOV-10)
    text = render_text(build_view(tiny(), subject="Ann", show=["reach"]))
    assert panel(text) == [
        "   0 1 2 3 4 5 6",
        "0  A 1 1 ~2. . .",
        "1  1 # 2 2 2 . .",
        "2  1 2 2 2 . B .",
        "3  2 2 2 . . . .",
        "4  2 2 . . . . .",
    ]
    assert "reach: Ann (A), land speed 10 ft, from the start of a turn" in text
    assert "key: 1 one move action (up to 10 ft)   2 double move (up to 20 ft)" in text
    assert "  4 spaces with one move action, 12 more with a double move (MOV-05)" in text


@pytest.mark.rule("MOV-13", "MOV-16")
def test_reach_never_ends_on_another_creature() -> None:
    state = encounter(
        combatant("Ann", "party", pc(name="Ann", speed={"land": 10}), position=(0, 0)),
        combatant("Bob", "aliens", npc(name="Bob"), position=(1, 0)),
        combatant("Cat", "party", pc(name="Cat"), position=(0, 1)),
        map="....\n....\n",
    )
    # Bob (an enemy) blocks the way east; Cat (an ally) may be passed but not stopped on; the diagonal to 1,1
    # is the first (5 ft), so 2,1 ends the first move and 3,0 (a second diagonal, 10 ft) the second
    assert panel(render_text(build_view(state, subject="Ann", show=["reach"]))) == [
        "   0 1 2 3",
        "0  A B 2 2",
        "1  C 1 1 2",
    ]


@pytest.mark.rule("AOO-01", "AOO-02")
def test_threat_of_one_creature_leaves_out_walls_and_its_own_square() -> None:
    text = render_text(build_view(tiny(), subject="Bob", show=["threat"]))
    assert panel(text) == [
        "   0 1 2 3 4 5 6",
        "0  A . . ~ . . .",
        "1  . # . . ! ! !",
        "2  . . . . ! B !",
        "3  . . . . ! ! !",
        "4  . . . . . . .",
    ]
    assert "  Bob threatens 8 squares: claw 5 ft" in text
    # Ann's baton: the wall square at 1,1 is not threatened
    zone, _ = threatened_by(tiny(), "Ann")
    assert zone == {(1, 0), (0, 1)}


@pytest.mark.rule("AOO-04", "AOO-02")
def test_ten_foot_reach_takes_the_second_diagonal_square_and_a_side_panel_unites_its_members() -> None:
    state = encounter(
        combatant("Ann", "party", pc(name="Ann"), position=(0, 0)),
        combatant("Kes", "aliens", npc(name="Kes", reach_ft=10), position=(3, 2)),
        combatant("Gob", "aliens", npc(name="Gob"), position=(6, 4)),
        map="\n".join(["......."] * 5) + "\n",
    )
    text = render_text(build_view(state, subject="aliens", show=["threat"]))
    assert "threat: squares threatened by side aliens" in text
    assert panel(text) == [
        "   0 1 2 3 4 5 6",
        "0  A ! ! ! ! ! .",
        "1  . ! ! ! ! ! .",
        "2  . ! ! K ! ! .",
        "3  . ! ! ! ! ! !",
        "4  . ! ! ! ! ! G",
    ]
    assert "  Kes threatens 24 squares: claw 10 ft (and the second square on a diagonal, AOO-04)" in text


@pytest.mark.rule("AOO-03")
def test_a_reach_weapon_threatens_ten_feet_and_adjacent_squares_by_option() -> None:
    pole = {"name": "pike", "category": "advanced_melee", "damage": "1d8 P", "reach": True}
    state = encounter(
        combatant("Ann", "party", pc(name="Ann", weapons=[pole]), position=(2, 2)),
        combatant("Bob", "aliens", npc(name="Bob"), position=(4, 4)),
        map="\n".join(["....."] * 5) + "\n",
    )
    zone, why = threatened_by(state, "Ann")
    assert (
        len(zone) == 24 and why == "Ann threatens 24 squares: pike 10 ft (and the second square on a diagonal, AOO-04)"
    )
    ring, _ = threatened_by(state, "Ann", options=GridOptions(reach_weapon_threatens_adjacent=False))
    assert len(ring) == 16 and (1, 1) not in ring and (0, 0) in ring


@pytest.mark.rule("AOO-01", "AOO-05")
def test_unarmed_creatures_threaten_nothing_and_zero_reach_threatens_its_own_square() -> None:
    fists = {"name": "unarmed strike", "category": "unarmed", "damage": "1d3 B"}
    tiny_claw = {"name": "bite", "category": "natural", "damage": "1d2 P", "attack_bonus": 1}
    state = encounter(
        combatant("Ann", "party", pc(name="Ann", weapons=[fists]), position=(0, 0)),
        combatant("Rat", "aliens", npc(name="Rat", size="tiny", reach_ft=0, weapons=[tiny_claw]), position=(2, 1)),
        map="....\n....\n",
    )
    zone, why = threatened_by(state, "Ann")
    assert zone == frozenset() and "unarmed strikes do not threaten, AOO-01" in why
    zone, _ = threatened_by(state, "Rat")
    assert zone == {(2, 1)}


@pytest.mark.rule("MOD-07", "MOD-08")
def test_cover_marks_each_enemy_after_its_letter() -> None:
    state = encounter(
        combatant("Ann", "party", pc(name="Ann"), position=(0, 1)),
        combatant("Bob", "aliens", npc(name="Bob"), position=(6, 1)),
        combatant("Dee", "aliens", npc(name="Dee"), position=(6, 4)),
        map=".......\n...=...\n.......\n.......\n.......\n",
    )
    text = render_text(build_view(state, subject="Ann", show=["cover"]))
    # every corner of Ann's square has a line to Bob through the crate (cover); a line from Ann's bottom-right
    # corner to Dee misses it (no cover)
    assert panel(text) == [
        "   0 1 2 3 4 5 6",
        "0  . . . . . . .",
        "1  A . . = . . Bc",
        "2  . . . . . . .",
        "3  . . . . . . .",
        "4  . . . . . . D-",
    ]
    assert "key: - no cover   c cover" in text
    assert "  Bob (B): cover (+4 AC, +2 Reflex, MOD-08): through cover object at (3, 1)" in text
    assert "  Dee (D): no cover (no bonus, MOD-07)" in text


@pytest.mark.rule("MOD-11")
def test_a_creature_in_the_way_gives_soft_cover_against_ranged_attacks() -> None:
    state = encounter(
        combatant("Ann", "party", pc(name="Ann"), position=(0, 0)),
        combatant("Cat", "party", pc(name="Cat"), position=(2, 0)),
        combatant("Bob", "aliens", npc(name="Bob"), position=(4, 0)),
        map=".....\n",
    )
    text = render_text(build_view(state, subject="Ann", show=["cover"]))
    assert panel(text) == ["   0 1 2 3 4", "0  A . C . Bs"]


@pytest.mark.rule("EFF-02", "EFF-03")
def test_a_ten_foot_burst_is_a_four_by_four_block_without_corners() -> None:
    state = encounter(
        combatant("Ann", "party", pc(name="Ann"), position=(0, 0)),
        combatant("Bob", "aliens", npc(name="Bob"), position=(2, 2)),
        map="\n".join(["......"] * 6) + "\n",
    )
    text = render_text(build_view(state, area="burst 10 at 3,3"))
    assert panel(text) == [
        "   0 1 2 3 4 5",
        "0  A . . . . .",
        "1  . . x x . .",
        "2  . x Bxx x .",
        "3  . x x x x .",
        "4  . . x x . .",
        "5  . . . . . .",
    ]
    assert "area: burst 10 ft at point 3,3 (EFF-03)" in text
    assert "  in the area: Bob" in text


@pytest.mark.rule("EFF-36")
def test_a_burst_leaves_out_squares_behind_a_wall() -> None:
    state = encounter(
        combatant("Ann", "party", pc(name="Ann"), position=(0, 0)),
        combatant("Bob", "aliens", npc(name="Bob"), position=(5, 0)),
        map="......\n......\n..#...\n......\n",
    )
    text = render_text(build_view(state, area="burst 10 at 2,2"))
    assert panel(text) == [
        "   0 1 2 3 4 5",
        "0  A x x . . B",
        "1  x x x x . .",
        "2  x x #-- . .",
        "3  . x - . . .",
    ]
    assert "key: x in the area   - shape, but not reached" in text


@pytest.mark.rule("EFF-06")
def test_a_cone_from_the_caster_corner() -> None:
    state = encounter(
        combatant("Ann", "party", pc(name="Ann"), position=(0, 1)),
        combatant("Bob", "aliens", npc(name="Bob"), position=(4, 4)),
        map="\n".join(["......"] * 5) + "\n",
    )
    text = render_text(build_view(state, subject="Ann", area="cone 15 at 1,2 toward E"))
    assert panel(text) == [
        "   0 1 2 3 4 5",
        "0  . . x . . .",
        "1  A x x x . .",
        "2  . x x x . .",
        "3  . . x . . .",
        "4  . . . . B .",
    ]


def test_token_letters_avoid_clashes_and_the_legend_groups_sides() -> None:
    state = encounter(
        combatant("Krask", "party", pc(name="Krask"), position=(0, 0)),
        combatant("Ksarik", "aliens", npc(name="Ksarik"), position=(1, 0)),
        combatant("Snip", "aliens", npc(name="Snip"), position=(2, 0)),
        combatant("Sam", "aliens", npc(name="Sam"), position=(3, 0)),
        combatant("Gone", "aliens", npc(name="Gone"), position=None),
        map="....\n",
    )
    assert [(t.name, t.letter) for t in tokens_for(state)] == [
        ("Krask", "K"),
        ("Ksarik", "S"),
        ("Snip", "N"),
        ("Sam", "A"),
    ]
    text = render_text(build_view(state))
    assert "0  K S N A" in text
    assert "party: K Krask\naliens: S Ksarik, N Snip, A Sam\n" in text


def test_a_large_creature_fills_its_space_and_map_directives_are_listed() -> None:
    state = encounter(
        combatant("Ann", "party", pc(name="Ann"), position=(0, 0)),
        combatant("Ogg", "aliens", npc(name="Ogg", size="large"), position=(2, 1)),
        map="....\n....\n....\n\nwall 0,0 E\nconceal 1,2\n",
    )
    text = render_text(build_view(state))
    assert "0  A|. . .\n1  . . O O\n2  . * O O\n" in text  # the wall drawn between its two squares
    assert "also (map directives): wall 1,0 W" in text


@pytest.mark.rule("SEN-06", "SEN-05")
def test_view_of_a_side_leaves_out_opponents_it_has_not_located() -> None:
    state = tiny()
    assert side_view(state, "aliens").combatants == state.combatants  # nothing computed yet: all observed
    text = render_text(build_view(state, view="aliens"))
    assert panel(text) == panel(render_text(build_view(state)))
    assert "view of side aliens: only what the side perceives is drawn (0 opponents not located)" in text
    friends = [c for c in state.combatants.values() if c.side == "aliens"]
    foes = [c for c in state.combatants.values() if c.side != "aliens"]
    lost = {f"{a.id}>{b.id}": 1 for a in friends for b in foes}  # 1: aware of presence only
    hidden = state.model_copy(update={"awareness": lost})
    seen = side_view(hidden, "aliens")
    assert set(seen.combatants) == {c.id for c in friends}


def test_threat_without_a_subject_draws_one_panel_per_side() -> None:
    text = render_text(build_view(tiny(), show=["threat"]))
    assert "threat: squares threatened by side party" in text
    assert "threat: squares threatened by side aliens" in text


def test_overlays_can_be_given_comma_separated_and_in_any_case() -> None:
    view = build_view(tiny(), subject="ann", show=["Reach,threat", "reach"])
    assert [o.kind for o in view.overlays] == ["reach", "threat"]


# --- SVG --------------------------------------------------------------------------------------------------


def test_svg_is_well_formed_and_holds_tokens_walls_and_overlays() -> None:
    state = encounter(
        combatant("R&D <unit>", "party", pc(name="R"), position=(0, 0)),
        combatant("Bob", "aliens", npc(name="Bob"), position=(5, 2)),
        map=TINY + "\nwall 2,2 E\nwindow 2,3 S\ncorner 4,4\nlight 0,0..1,1 dim\n",
    )
    svg = render_svg(build_view(state, subject="R&D <unit>", show=["reach", "threat", "cover"], area="burst 5 at 3,3"))
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    tokens = [g for g in root.iter(f"{SVG}g") if g.get("class") == "token"]
    assert [(g.get("data-name"), g.get("data-side")) for g in tokens] == [("R&D <unit>", "party"), ("Bob", "aliens")]
    letters = [t.text for g in tokens for t in g.iter(f"{SVG}text")]
    # the name twice: its white halo, then the name; Bob's cover badge
    assert letters == ["R", "R&D <unit>", "R&D <unit>", "B", "Bob", "Bob", "-"]
    overlays = [g.get("class") for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("overlay")]
    assert overlays == ["overlay reach", "overlay threat", "overlay cover", "overlay area"]
    lines = {ln.get("class") for ln in root.iter(f"{SVG}line")}
    assert {"wall", "window"} <= lines
    assert any(ln.get("stroke") == "#975a16" for ln in root.iter(f"{SVG}line"))  # difficult terrain hatched
    # nothing that renderers disagree on (ImageMagick's own draws patterns black and ignores opacity)
    assert "url(" not in svg and "opacity" not in svg and "paint-order" not in svg and "<pattern" not in svg
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "legend")
    assert any((t.text or "") == "party: R R&D <unit>" for t in legend.iter(f"{SVG}text"))


def test_svg_of_the_bare_map_parses() -> None:
    root = ET.fromstring(render_svg(build_view(tiny())))
    assert root.find(f"{SVG}title") is not None


# --- errors -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"subject": "Zed"}, "no combatant named 'Zed' (combatants: Ann, Bob)"),
        ({"show": ["smell"]}, "unknown overlay 'smell'; choose from reach, threat, cover, area"),
        ({"show": ["reach"]}, "--show reach needs --from NAME (a combatant; combatants: Ann, Bob)"),
        ({"show": ["cover"], "subject": "aliens"}, "--show cover needs --from NAME (a combatant, not the side"),
        ({"show": ["area"]}, "--show area needs --area SPEC"),
        ({"show": ["threat"], "subject": "nobody"}, "no combatant named 'nobody'"),
        ({"view": "robots"}, "no side named 'robots' (sides: party, aliens)"),
    ],
)
def test_bad_requests_are_clear_errors(kw: dict[str, Any], message: str) -> None:
    with pytest.raises(SftError) as e:
        build_view(tiny(), **kw)
    assert message in str(e.value)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "it is empty"),
        ("blob 15 at 1,1", "unknown shape 'blob'"),
        ("burst at 1,1", "the size in feet comes after the shape"),
        ("burst 12 at 1,1", "12 ft is not a positive multiple of 5 ft"),
        ("burst 15", "the point of origin is missing"),
        ("burst 15 at 9,9", "point 9,9 is off the 7x5 map"),
        ("burst 15 at Zed", "'Zed' is neither a point x,y on the 7x5 map nor a combatant"),
        ("burst 15 at 1,1 toward N", "a burst has no direction"),
        ("cone 15 at 1,1", "a cone needs a direction"),
        ("cone 15 at 1,1 toward up", "a cone points toward one of N, NE, E, SE, S, SW, W, NW, not 'up'"),
        ("line 15 at 1,1 toward nowhere", "a line goes toward a square x,y or a diagonal direction"),
        ("line 15 at 1,1", "a line needs a direction ('toward NE' or toward x,y)"),
        ("line 15 at 1,1 toward E", "a line due E from a corner runs along a grid line and crosses no square"),
        ("cone 15 at Ann toward E", "a cone starts at a grid intersection x,y, not at a creature"),
        ("burst 15 at 1,1 high 20", "only a cylinder has a height"),
        ("burst 15 at 1,1 at 2,2", "'at' given twice"),
        ("burst 15 at 1,1 please", "unexpected 'please'"),
    ],
)
def test_bad_area_specs_say_what_is_wrong_and_show_examples(spec: str, message: str) -> None:
    with pytest.raises(SftError) as e:
        parse_area(spec, tiny())
    assert message in str(e.value)
    assert 'e.g. "burst 15 at 5,5"' in str(e.value)


@pytest.mark.rule("EFF-06")
def test_a_cone_must_start_at_a_corner_of_the_casters_space() -> None:
    with pytest.raises(SftError, match=r"\(3, 3\) is not a corner of the user's space"):
        parse_area("cone 15 at 3,3 toward E", tiny(), caster="Ann")


def test_area_specs_in_other_words() -> None:
    state = tiny()
    assert parse_area("BURST 5ft at 1,1", state).squares == {(0, 0), (1, 0), (0, 1), (1, 1)} - {(1, 1)}
    assert parse_area("emanation 5 ft at Bob", state).rule == "EFF-04"
    open_floor = encounter(*state.combatants.values(), map="......\n......\n......\n")
    assert parse_area("line 15 at 0,0 toward 2,0", open_floor).squares == {(0, 0), (1, 0), (2, 0)}
    assert parse_area("line 15 at 0,0 toward SE", open_floor).squares == {(0, 0), (1, 1)}
    assert parse_area("spread 5 at 2,2", state).rule == "EFF-05"
    assert parse_area("cylinder 5 at 3,3 high 30", state).shape == "cylinder 30 ft high"


def test_a_fight_without_a_map_has_nothing_to_draw() -> None:
    state = encounter(combatant("Ann", "party", position=None), combatant("Bob", "aliens"))
    with pytest.raises(SftError, match="has no map"):
        build_view(state)


def test_reach_of_a_combatant_off_the_map_is_an_error() -> None:
    state = encounter(
        combatant("Ann", "party", position=None), combatant("Bob", "aliens", position=(1, 1)), map="...\n...\n"
    )
    with pytest.raises(SftError, match="Ann has no position on the map, so there is no reach to draw"):
        build_view(state, subject="Ann", show=["reach"])


def test_what_one_character_cannot_show_is_listed_as_directives_that_read_back_to_the_same_map() -> None:
    from sftactics.grid.map import parse_map

    source = (
        "~~~.\n~#~.\n....\n\n"
        "conceal 0,0..1,0 2,2\nwall 3,0..3,2 E\nwall 0,2 S\nwindow 1,0 S\ncorner 2,2\n"
        "light 0,0..1,1 dark\nlight 3,2 bright\ngravity low\n"
    )
    state = encounter(combatant("Ann", "party"), combatant("Bob", "aliens"), map=source)
    text = render_text(build_view(state))
    # 2,2 is concealing floor: its character shows it; the difficult squares 0,0 and 1,0 need the directive
    assert "2  . . * .|\n" in text
    assert (
        "also (map directives): conceal 0,0..1,0; wall 3,0..3,2 E; wall 0,2 S; window 1,1 N; corner 2,2; "
        "light 0,0..1,1 dark; light 3,2 bright; gravity low\n"
    ) in text
    # the walls and the window drawn on their edges, between the squares and between the rows
    assert "0  ~ ~ ~ .|\n     =    |\n1  ~ # ~ .|\n2  . . * .|\n   -\n" in text
    rows = [line[3:].replace(" ", "").rstrip("|") for line in panel(text)[1:] if line[:1].isdigit()]
    directives = text.split("also (map directives): ")[1].splitlines()[0].split("; ")
    assert parse_map("\n".join(rows) + "\n\n" + "\n".join(directives)).map == parse_map(source).map


@pytest.mark.rule("MOD-14")
def test_no_line_of_effect_is_total_cover_and_a_fallen_combatant_threatens_nothing() -> None:
    state = encounter(
        combatant("Ann", "party", pc(name="Ann"), position=(0, 1)),
        combatant("Bob", "aliens", npc(name="Bob"), position=(4, 1)),
        combatant("Cid", "aliens", with_conditions(npc(name="Cid"), "unconscious"), position=(1, 0)),
        map="..#..\n..#..\n..#..\n",
    )
    text = render_text(build_view(state, subject="Ann", show=["cover"]))
    assert panel(text) == ["   0 1 2 3 4", "0  . C-# . .", "1  A . # . Bt", "2  . . # . ."]
    assert "  Bob (B): total cover (cannot be attacked, MOD-14): " in text
    assert "aliens: B Bob, C Cid (down)\n" in text
    assert threatened_by(state, "Cid") == (frozenset(), "Cid is out of the fight and threatens nothing")


@pytest.mark.rule("EFF-07")
def test_a_cylinder_ignores_walls() -> None:
    state = encounter(
        combatant("Ann", "party", pc(name="Ann"), position=(0, 0)),
        combatant("Bob", "aliens", npc(name="Bob"), position=(3, 3)),
        map="....\n.#..\n....\n....\n",
    )
    text = render_text(build_view(state, area="cylinder 5 at 2,2 high 20"))
    assert "area: cylinder, radius 5 ft, 20 ft high, at point 2,2 (EFF-07)" in text
    assert panel(text)[2:4] == ["1  . #xx .", "2  . x x ."]


@pytest.mark.rule("SEN-06", "CF-07")
def test_before_the_fight_a_side_sees_only_what_its_senses_would_give_at_the_start() -> None:
    state = encounter(
        combatant("Ann", "party", pc(name="Ann"), position=(0, 0)),
        combatant("Ogg", "aliens", npc(name="Ogg"), position=(4, 0)),  # in plain sight
        combatant("Zub", "aliens", npc(name="Zub"), position=(4, 2)),  # behind the wall
        combatant("Kit", "aliens", npc(name="Kit"), position=(2, 0), hidden=True),  # hiding: Stealth at begin
        map=".....\n#####\n.....\n",
    )
    assert state.timeline.phase == "setup"
    seen = side_view(state, "party")
    assert set(seen.combatants) == {"Ann", "Ogg"}
    assert "(2 opponents not located)" in render_text(build_view(state, view="party"))
