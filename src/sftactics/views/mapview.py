"""The battle map as a picture: terrain, walls, combatant tokens and overlays, as terminal text or as SVG.

Pure: an :class:`~sftactics.encounter.state.Encounter` goes in, a :class:`MapView` (plain data) comes out, and
:func:`render_text` / :func:`render_svg` turn that into strings. Nothing here prints or writes files.

Tokens
    Every combatant with a position is a token: one character (the first letter of its name, or the next
    letter of the name not yet taken, then any free letter A-Z or digit) on every square of its space. The
    legend lists each side's letters and names.

Overlays (:data:`OVERLAYS`), each built by its own function:

* ``reach`` (:func:`reach_overlay`): the squares a combatant can move to with one move action (``1``) and with
  a double move (``2``), from the start of a turn, with its land speed after armor and conditions
  (``sf1e.stats.speed``) and the other combatants in the way as the encounter sees them (allies passable,
  enemies not, nobody ends in a square held by a creature that is not helpless: MOV-05, MOV-13..17). For a
  creature bigger than a square, every square of every space it can end in is marked.
* ``threat`` (:func:`threat_overlay`): the squares threatened (``!``) by one combatant or a whole side, as
  :mod:`sftactics.encounter.threat` answers for attacks of opportunity and flanking: the weapons that can make
  attacks of opportunity (melee and natural weapons; not unarmed strikes, not unwieldy weapons), each with its
  reach (natural reach, a reach weapon's +5 ft, the 10-ft diagonal exception; walls and lines of effect taken
  into account: AOO-01..05). A creature's own squares are left out (they always count, AOO-05) unless its reach
  is 0 ft, when they are all it threatens.
* ``cover`` (:func:`cover_overlay`): each enemy's cover against a ranged attack from the chosen combatant, by
  the corner rule (MOD-07, MOD-08, MOD-11, MOD-14), marked after the enemy's letter (``c`` cover, ``s`` soft,
  ``t`` total, ``-`` none); the notes say what gives it.
* ``area`` (:func:`area_overlay`): an area template at a point of origin (a grid intersection): burst,
  emanation, spread, cone, line, cylinder (EFF-01..09, EFF-36), written as in :func:`parse_area`. Squares in
  the area are ``x``; squares of the shape that line of effect from the origin does not reach are ``-``.

``view SIDE`` (:func:`side_view`) draws only what that side perceives: opponents whose location no member
knows are left out (SEN-05..07).

Text
    One character per square as in the map's text format (see ``docs/maps.md``), with a space after it so
    that squares look square in a terminal; column numbers on top, row numbers on the left. An overlay mark
    replaces an empty floor square's ``.``; on anything else (terrain, a token) it goes in the space after the
    square's character (``~2``: difficult terrain reached with a double move; ``Gc``: G has cover). Each
    overlay is its own panel, since one mark per square is all a character grid can show. Walls on square
    edges and second features of a square are listed under the map as directives.

SVG
    Hand-written SVG 1.1: floor, wall squares and objects filled, difficult terrain hatched, walls drawn on the
    edges, tokens as discs coloured by side with their letter and name; every overlay is a group of
    translucent squares (so they can be shown together), cover lines from the attacker's chosen corner, an
    area's point of origin as a dot; the legend is written below the map.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from sftactics.core.errors import SftError
from sftactics.encounter import gm_setup, threat
from sftactics.encounter import movement as enc_movement
from sftactics.encounter import space as enc_space
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid import areas
from sftactics.grid.areas import Area, AreaKind
from sftactics.grid.cover import CoverKind, cover
from sftactics.grid.geometry import DIRECTION_NAMES, DIRECTIONS, Footprint, Point, Square, direction_index
from sftactics.grid.map import LEGEND, VERTICAL, Feature, GridMap, Light
from sftactics.grid.movement import reachable
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.sf1e import stats

#: The overlays a view can show, in the order the help lists them.
OVERLAYS: tuple[str, ...] = ("reach", "threat", "cover", "area")

#: What each character of the map's text format stands for (for the legend).
TERRAIN_NAMES: dict[str, str] = {
    ".": "floor",
    "#": "wall",
    "~": "difficult terrain",
    "%": "impassable ground",
    "o": "low obstacle",
    "=": "cover object",
    "&": "soft-cover object",
    "*": "concealing",
    '"': "obscuring",
    ",": "narrow passage",
    "^": "canopy (difficult for fliers)",
}
_CHAR_OF: dict[Feature, str] = {f: c for c, f in LEGEND.items()}

COVER_MARKS: dict[CoverKind, str] = {
    CoverKind.NONE: "-",
    CoverKind.SOFT: "s",
    CoverKind.PARTIAL: "p",
    CoverKind.COVER: "c",
    CoverKind.IMPROVED: "i",
    CoverKind.TOTAL: "t",
}
_COVER_COLOURS: dict[CoverKind, str] = {
    CoverKind.NONE: "#38a169",
    CoverKind.SOFT: "#d69e2e",
    CoverKind.PARTIAL: "#dd6b20",
    CoverKind.COVER: "#e53e3e",
    CoverKind.IMPROVED: "#9b2c2c",
    CoverKind.TOTAL: "#1a202c",
}
COVER_NAMES: dict[CoverKind, str] = {
    CoverKind.NONE: "no cover",
    CoverKind.SOFT: "soft cover",
    CoverKind.PARTIAL: "partial cover",
    CoverKind.COVER: "cover",
    CoverKind.IMPROVED: "improved cover",
    CoverKind.TOTAL: "total cover",
}
_SIDE_COLOURS = ("#2b6cb0", "#c53030", "#2f855a", "#6b46c1", "#c05621", "#2c7a7b", "#b83280", "#4a5568")


@dataclass(frozen=True, slots=True)
class Token:
    """A combatant on the map: its name, the character drawn for it, its side and its space."""

    name: str
    letter: str
    side: str
    space: Footprint
    down: bool = False  # out of the fight (dead, dying, unconscious)


@dataclass(frozen=True, slots=True)
class VehicleToken:
    """A vehicle on the map (VEH-03): its space, the edge it faces, its side, HP and riders."""

    name: str
    space: Footprint
    heading: str
    side: str | None
    hp: int
    max_hp: int
    riders: tuple[str, ...] = ()

    @property
    def arrow(self) -> str:
        return _ARROWS.get(self.heading, "?")


_ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}


@dataclass(frozen=True, slots=True)
class Key:
    """One entry of an overlay's legend: the mark drawn on squares, what it means, its SVG colour."""

    mark: str
    meaning: str
    colour: str


@dataclass(frozen=True, slots=True)
class Overlay:
    """Marks on squares (one character each, explained by ``keys``) plus notes for the legend.

    ``lines`` are segments between grid intersections with the mark that colours them (cover lines);
    ``points`` are intersections to dot (an area's point of origin). Both are drawn only in SVG.
    """

    kind: str
    title: str
    marks: Mapping[Square, str]
    keys: tuple[Key, ...]
    notes: tuple[str, ...] = ()
    lines: tuple[tuple[Point, Point, str], ...] = ()
    points: tuple[Point, ...] = ()


#: The most squares a view draws across or down: a larger map is drawn as a window of at most this many
#: squares each way around its combatants (:func:`view_window`), and the view says so in its notes.
VIEW_MAX_SIDE = 120
_WINDOW_MARGIN = 10  # squares of map drawn around the combatants, where there is room


@dataclass(frozen=True)
class MapView:
    """Everything a renderer needs: the map, the tokens, the overlays (in order) and notes.

    ``window`` is the part of the map drawn, ``(x0, y0, x1, y1)`` with the far bounds excluded; None draws the
    whole map."""

    title: str
    grid: GridMap
    tokens: tuple[Token, ...]
    overlays: tuple[Overlay, ...] = ()
    notes: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()
    window: tuple[int, int, int, int] | None = None
    vehicles: tuple[VehicleToken, ...] = ()

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        """The drawn part of the map, ``(x0, y0, x1, y1)`` (far bounds excluded)."""
        return self.window or (0, 0, self.grid.width, self.grid.height)


def view_window(grid: GridMap, tokens: Sequence[Token], limit: int = VIEW_MAX_SIDE) -> tuple[int, int, int, int] | None:
    """The part of a map wider or higher than ``limit`` squares to draw. Along a side longer than ``limit``:
    the combatants' spaces with a margin of 10 squares, at most ``limit`` squares (centred on the combatants
    when they are spread wider), kept on the map; the start of the map when no one is on it. A side within the
    limit is drawn whole. None when the whole map fits."""
    if grid.width <= limit and grid.height <= limit:
        return None
    spaces = [t.space for t in tokens]
    if not spaces:
        return 0, 0, min(grid.width, limit), min(grid.height, limit)
    x0, y0 = min(s.x for s in spaces), min(s.y for s in spaces)
    x1, y1 = max(s.x + s.side for s in spaces), max(s.y + s.side for s in spaces)

    def span(lo: int, hi: int, size: int) -> tuple[int, int]:
        if size <= limit:
            return 0, size
        n = min(limit, hi - lo + 2 * _WINDOW_MARGIN)
        start = max(0, min((lo + hi) // 2 - n // 2, size - n))
        return start, start + n

    (wx0, wx1), (wy0, wy1) = span(x0, x1, grid.width), span(y0, y1, grid.height)
    return wx0, wy0, wx1, wy1


# --- looking things up ------------------------------------------------------------------------------------


def _grid(state: Encounter) -> GridMap:
    grid = state.grid
    if grid is None:
        raise SftError(f"{state.name!r} has no map: add one under 'map:' in the scenario (see docs/maps.md)")
    assert isinstance(grid, GridMap)
    return grid


def _find(state: Encounter, name: str) -> Combatant | None:
    if name in state.combatants:
        return state.combatants[name]
    folded = [c for c in state.combatants.values() if c.id.casefold() == name.casefold()]
    return folded[0] if len(folded) == 1 else None


def _combatant(state: Encounter, name: str) -> Combatant:
    """The combatant called ``name`` (exactly, or ignoring case) or an error naming the combatants."""
    found = _find(state, name)
    if found is None:
        raise SftError(f"no combatant named {name!r} (combatants: {', '.join(state.combatants)})")
    return found


def _placed(c: Combatant, what: str) -> Footprint:
    fp = enc_space.footprint(c)
    if fp is None:
        raise SftError(f"{c.id} has no position on the map, so there is no {what} to draw")
    return fp


def _side(state: Encounter, name: str) -> str | None:
    sides = state.sides()
    if name in sides:
        return name
    folded = [s for s in sides if s.casefold() == name.casefold()]
    return folded[0] if len(folded) == 1 else None


def tokens_for(state: Encounter) -> tuple[Token, ...]:
    """A token for every combatant with a position (fled ones are gone), with a character each."""
    used: set[str] = set()
    pool = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + [str(d) for d in range(10)]
    out: list[Token] = []
    for c in state.combatants.values():
        fp = enc_space.footprint(c)
        if fp is None or c.fled:
            continue
        own = [ch.upper() for ch in c.id if ch.isascii() and ch.isalnum()]
        letter = next((ch for ch in [*own, *pool] if ch not in used), "@")
        if letter != "@":
            used.add(letter)
        out.append(Token(c.id, letter, c.side, fp, c.out_of_fight))
    return tuple(out)


def _letter(tokens: Sequence[Token], name: str) -> str:
    return next((t.letter for t in tokens if t.name == name), "?")


# --- overlays -----------------------------------------------------------------------------------------------


def reach_overlay(state: Encounter, name: str, *, options: GridOptions = DEFAULT_OPTIONS) -> Overlay:
    """Squares ``name`` can move to with one move action and with a double move, from the start of a turn."""
    grid = _grid(state)
    c = _combatant(state, name)
    here = _placed(c, "reach")
    mover = enc_movement.mover_for(c)
    speed = stats.speed(c.creature)
    found = reachable(grid, here, mover, occupants=enc_movement.occupants(state, c), actions=2, options=options)
    marks: dict[Square, str] = {}
    for anchor, n in sorted(found.actions.items(), key=lambda kv: kv[1]):
        if n == 0:
            continue
        for sq in Footprint(anchor[0], anchor[1], here.side).squares:
            if not here.contains(sq):
                marks.setdefault(sq, str(n))
    one = sum(1 for n in found.actions.values() if n == 1)
    two = sum(1 for n in found.actions.values() if n == 2)
    letter = _letter(tokens_for(state), c.id)
    notes = [
        speed.describe(),
        f"{one} spaces with one move action, {two} more with a double move (MOV-05); difficult terrain costs double "
        "(MOV-17); allies may be passed, enemies not, and no one ends in another creature's square unless that one is "
        "helpless (MOV-13..16)",
    ]
    if found.squeezed:
        notes.append(f"{len(found.squeezed)} of those spaces only squeezing (MOV-19)")
    return Overlay(
        "reach",
        f"reach: {c.id} ({letter}), land speed {speed.total} ft, from the start of a turn",
        marks,
        (
            Key("1", f"one move action (up to {speed.total} ft)", "#38a169"),
            Key("2", f"double move (up to {2 * speed.total} ft)", "#ecc94b"),
        ),
        tuple(notes),
    )


def threatened_by(
    state: Encounter, name: str, *, options: GridOptions = DEFAULT_OPTIONS
) -> tuple[frozenset[Square], str]:
    """The squares combatant ``name`` threatens (AOO-01..05, by :mod:`sftactics.encounter.threat`) and a sentence
    saying why. Its own squares are left out of the picture unless its reach is 0 ft (they always count)."""
    _grid(state)
    c = _combatant(state, name)
    here = enc_space.footprint(c)
    why_not = threat.no_threat_reason(c)
    if here is None or c.fled:
        return frozenset(), f"{c.id} is not on the map"
    if c.out_of_fight:
        return frozenset(), f"{c.id} is out of the fight and threatens nothing"
    if why_not is not None:
        return frozenset(), f"{c.id} threatens nothing: {why_not}"
    zone: set[Square] = set(threat.threatened_squares(state, c, options=options))
    parts: list[str] = []
    for w in threat.aoo_weapons(c):
        reach = enc_space.weapon_reach(c, w)
        extra = " (and the second square on a diagonal, AOO-04)" if reach == 10 else ""
        parts.append(f"{w.name} {reach} ft{extra}")
    if any(r > 0 for r in threat.reaches(c)):
        zone -= set(here.squares)
    return frozenset(zone), f"{c.id} threatens {len(zone)} squares: {'; '.join(parts)}"


def threat_overlay(state: Encounter, who: str, *, options: GridOptions = DEFAULT_OPTIONS) -> Overlay:
    """Squares threatened by combatant ``who``, or by every member of side ``who`` (a name first, then a side)."""
    tokens = tokens_for(state)
    c = _find(state, who)
    side = None if c is not None else _side(state, who)
    if c is None and side is None:
        raise SftError(
            f"no combatant or side named {who!r} (combatants: {', '.join(state.combatants)}; "
            f"sides: {', '.join(state.sides())})"
        )
    members = [c] if c is not None else [m for m in state.combatants.values() if m.side == side]
    zone: set[Square] = set()
    notes: list[str] = []
    for m in members:
        squares, why = threatened_by(state, m.id, options=options)
        zone |= squares
        notes.append(why)
    label = f"{c.id} ({_letter(tokens, c.id)})" if c is not None else f"side {side}"
    return Overlay(
        "threat",
        f"threat: squares threatened by {label}",
        {sq: "!" for sq in sorted(zone)},
        (Key("!", "threatened (AOO-01)", "#e53e3e"),),
        tuple(notes),
    )


def _cover_words(kind: CoverKind, rule: str) -> str:
    bonus = {
        CoverKind.SOFT: "+4 AC against ranged attacks",
        CoverKind.PARTIAL: "+2 AC, +1 Reflex",
        CoverKind.COVER: "+4 AC, +2 Reflex",
        CoverKind.IMPROVED: "+8 AC, +4 Reflex",
        CoverKind.TOTAL: "cannot be attacked",
        CoverKind.NONE: "no bonus",
    }[kind]
    return f"{COVER_NAMES[kind]} ({bonus}, {rule})"


def cover_overlay(
    state: Encounter, attacker: str, *, ranged: bool = True, options: GridOptions = DEFAULT_OPTIONS
) -> Overlay:
    """Each enemy's cover against an attack by ``attacker`` (ranged by default: creatures give soft cover)."""
    grid = _grid(state)
    a = _combatant(state, attacker)
    fa = _placed(a, "cover")
    tokens = tokens_for(state)
    marks: dict[Square, str] = {}
    notes: list[str] = []
    lines: list[tuple[Point, Point, str]] = []
    seen: set[CoverKind] = set()
    for e in state.enemies_of(a.id):
        fe = enc_space.footprint(e)
        if fe is None or e.fled:
            continue
        res = cover(grid, fa, fe, ranged=ranged, creatures=enc_space.others(state, a.id, e.id), options=options)
        gm = gm_setup.imposed(state, e.id, a.id)
        if gm_setup.wins(gm, res.kind):  # the GM's cover counts instead, as in the attack
            ac, ref = gm_setup.imposed_terms(gm)
            res = replace(
                res, kind=gm, ac_terms=ac, reflex_terms=ref, rule=f"{gm_setup.rule_of(gm)}, imposed by the GM"
            )
        seen.add(res.kind)
        for sq in fe.squares:
            marks[sq] = COVER_MARKS[res.kind]
        reasons = [ln.reason for ln in res.lines if ln.kind is res.kind and ln.reason]
        reasons += [ln.reason for ln in res.lines if ln.reason]  # total cover: every line blocked
        why = reasons[0] if reasons else ""
        corner = f" from corner {res.corner[0]},{res.corner[1]}" if res.corner is not None and res.lines else ""
        notes.append(
            f"{e.id} ({_letter(tokens, e.id)}): {_cover_words(res.kind, res.rule)}"
            + (f": {why}" if why else "")
            + corner
        )
        lines += [(ln.start, ln.end, COVER_MARKS[ln.kind]) for ln in res.lines]
    if not notes:
        notes.append(f"{a.id} has no enemy on the map")
    attack = "a ranged attack" if ranged else "a melee attack"
    keys = tuple(Key(COVER_MARKS[k], COVER_NAMES[k], _COVER_COLOURS[k]) for k in sorted(seen or {CoverKind.NONE}))
    return Overlay(
        "cover",
        f"cover: each enemy's cover against {attack} by {a.id} ({_letter(tokens, a.id)}), corner rule (MOD-07)",
        marks,
        keys,
        tuple(notes),
        tuple(lines),
    )


_AREA_HELP = (
    'e.g. "burst 15 at 5,5", "emanation 10 at Krask", "spread 20 at 6,6", "cone 30 at 3,4 toward NE", '
    '"line 60 at 3,4 toward 10,4" or "cylinder 10 at 5,5 high 30" (sizes in feet, points x,y are grid '
    "intersections: the top-left corner of square x,y)"
)
_SHAPES = ("burst", "emanation", "spread", "sphere", "cone", "line", "cylinder")
_XY = re.compile(r"^(-?\d+),(-?\d+)$")


def parse_area(
    spec: str, state: Encounter, *, caster: str | None = None, options: GridOptions = DEFAULT_OPTIONS
) -> Area:
    """An area template from a short description: ``SHAPE SIZE at ORIGIN [toward DIR|X,Y] [high FEET]``.

    SHAPE is burst, emanation, spread, sphere (a burst), cone, line or cylinder; SIZE is the radius or length in
    feet (a multiple of 5, optionally written ``15ft``); ORIGIN is a grid intersection ``x,y`` or, for a burst or
    an emanation, a combatant's name (measured from its whole space). A cone needs ``toward`` a compass
    direction (N, NE, E, SE, S, SW, W, NW); a line ``toward`` a square ``x,y`` (its centre) or a diagonal
    direction (NE, SE, SW, NW: along the diagonal through the corner; due N, E, S or W a line from a corner
    would run along a grid line and cross no square). With ``caster``, a cone's or a line's origin must be a
    corner of the caster's space (EFF-06, EFF-08).
    """
    grid = _grid(state)
    words = spec.replace("ft.", "ft").split()

    def bad(why: str) -> SftError:
        return SftError(f"bad area {spec!r}: {why}; {_AREA_HELP}")

    if not words:
        raise bad("it is empty")
    shape = words[0].lower()
    if shape not in _SHAPES:
        raise bad(f"unknown shape {words[0]!r} (shapes: {', '.join(_SHAPES)})")
    rest = words[1:]
    if rest and rest[0].lower().endswith("ft") and rest[0][:-2].isdigit():
        rest[0] = rest[0][:-2]
    elif len(rest) > 1 and rest[1].lower() == "ft":
        del rest[1]
    if not rest or not rest[0].isdigit():
        raise bad("the size in feet comes after the shape")
    size = int(rest[0])
    if size <= 0 or size % 5:
        raise bad(f"{size} ft is not a positive multiple of 5 ft")
    opts: dict[str, str] = {}
    i = 1
    while i < len(rest):
        word = rest[i].lower()
        if word not in ("at", "toward", "towards", "high") or i + 1 >= len(rest):
            raise bad(f"unexpected {rest[i]!r}")
        key = "toward" if word == "towards" else word
        if key in opts:
            raise bad(f"{word!r} given twice")
        opts[key] = rest[i + 1]
        i += 2
    if "at" not in opts:
        raise bad("the point of origin is missing ('at x,y')")
    where = opts["at"]
    point = _point(where)
    if point is not None and not (0 <= point[0] <= grid.width and 0 <= point[1] <= grid.height):
        raise bad(
            f"point {where} is off the {grid.width}x{grid.height} map (intersections run 0..{grid.width}, "
            f"0..{grid.height})"
        )
    origin: Point | Footprint
    if point is not None:
        origin = point
    else:
        who = _find(state, where)
        if who is None:
            raise bad(f"{where!r} is neither a point x,y on the {grid.width}x{grid.height} map nor a combatant")
        if shape not in ("burst", "emanation"):
            raise bad(f"a {shape} starts at a grid intersection x,y, not at a creature")
        origin = _placed(who, "area")
    if "toward" in opts and shape not in ("cone", "line"):
        raise bad(f"a {shape} has no direction")
    if "high" in opts and shape != "cylinder":
        raise bad("only a cylinder has a height")
    space = None
    if caster is not None and shape in ("cone", "line"):
        space = _placed(_combatant(state, caster), "area")
    try:
        if shape in ("burst", "emanation", "sphere"):
            kind = AreaKind.EMANATION if shape == "emanation" else AreaKind.BURST
            return areas.burst(grid, origin, size, kind=kind, options=options)
        assert isinstance(origin, tuple)
        if shape == "spread":
            return areas.spread(grid, origin, size, options=options)
        if shape == "cylinder":
            high = opts.get("high", str(size)).lower().removesuffix("ft")
            if not high.isdigit():
                raise bad(f"the height is a number of feet, not {opts['high']!r}")
            return areas.cylinder(grid, origin, size, int(high))
        toward = opts.get("toward")
        if toward is None:
            raise bad(f"a {shape} needs a direction ('toward NE'{' or toward x,y' if shape == 'line' else ''})")
        if shape == "cone":
            if toward.upper() not in DIRECTION_NAMES:
                raise bad(f"a cone points toward one of {', '.join(DIRECTION_NAMES)}, not {toward!r}")
            return areas.cone(grid, origin, direction_index(toward), size, caster=space, options=options)
        m = _XY.match(toward)
        if m:
            return areas.line(grid, origin, (int(m[1]), int(m[2])), size, caster=space, options=options)
        if toward.upper() in ("NE", "SE", "SW", "NW"):
            dx, dy = DIRECTIONS[direction_index(toward)]
            target = (origin[0] + dx, origin[1] + dy)
            return areas.line(grid, origin, target, size, toward_point=True, caster=space, options=options)
        if toward.upper() in DIRECTION_NAMES:
            raise bad(
                f"a line due {toward.upper()} from a corner runs along a grid line and crosses no square; "
                "aim it at a square x,y"
            )
        raise bad(f"a line goes toward a square x,y or a diagonal direction (NE, SE, SW, NW), not {toward!r}")
    except ValueError as e:
        raise bad(str(e)) from None


def _point(token: str) -> Point | None:
    m = _XY.match(token)
    return None if m is None else (int(m[1]), int(m[2]))


def _origin_words(origin: Point | Footprint, tokens: Sequence[Token]) -> str:
    if isinstance(origin, Footprint):
        who = next((t.name for t in tokens if t.space == origin), None)
        return f"around {who}'s space" if who else f"around the space at {origin.x},{origin.y}"
    return f"at point {origin[0]},{origin[1]}"


def area_overlay(
    state: Encounter, area: str | Area, *, caster: str | None = None, options: GridOptions = DEFAULT_OPTIONS
) -> Overlay:
    """An area template (a spec for :func:`parse_area`, or an :class:`~sftactics.grid.areas.Area`)."""
    shape = parse_area(area, state, caster=caster, options=options) if isinstance(area, str) else area
    tokens = tokens_for(state)
    marks: dict[Square, str] = {sq: "-" for sq in shape.shadowed}
    marks.update({sq: "x" for sq in shape.squares})
    if shape.shape.startswith("cylinder"):  # "cylinder 30 ft high"
        name = f"cylinder, radius {shape.size_ft} ft, {shape.shape.removeprefix('cylinder ')},"
    else:
        kind = shape.kind.value if shape.shape == "sphere" and shape.kind is not None else shape.shape
        name = f"{kind} {shape.size_ft} ft"
    title = f"area: {name} {_origin_words(shape.origin, tokens)} ({shape.rule})"
    inside = areas.in_area(shape, {t.name: t.space for t in tokens})
    notes = [f"{len(shape.squares)} squares, measured from the origin with the 5-10-5 count (EFF-02)"]
    if shape.shadowed:
        what = (
            "out of the spread's reach around walls (EFF-05)"
            if shape.shape == "spread"
            else "left out: no line of effect from the origin (EFF-36)"
        )
        notes.append(f"{len(shape.shadowed)} squares of the shape {what}")
    notes.append(f"in the area: {', '.join(inside) if inside else 'nobody'}")
    points = (shape.origin,) if not isinstance(shape.origin, Footprint) else ()
    keys = [Key("x", "in the area", "#dd6b20")]
    if shape.shadowed:
        keys.append(Key("-", "shape, but not reached", "#718096"))
    return Overlay("area", title, marks, tuple(keys), tuple(notes), (), points)


def side_view(state: Encounter, side: str) -> Encounter:
    """What ``side`` perceives of the fight (SEN-05..07): an opponent is drawn only if some member of the side
    knows its location (aware of location or observing); opponents known only to be present, or unknown, are
    left out, and no opponent's stat block is shown beyond its token. Before the fight begins, what the side
    would perceive at its start (``perception.before_the_fight``)."""
    from sftactics.encounter.perception import before_the_fight, side_knows
    from sftactics.sf1e.senses import Awareness

    if _side(state, side) is None:
        raise SftError(f"no side named {side!r} (sides: {', '.join(state.sides())})")
    known = side_knows(before_the_fight(state), side)
    keep = {
        cid: c
        for cid, c in state.combatants.items()
        if c.side == side or known.get(cid, Awareness.UNAWARE) >= Awareness.AWARE_OF_LOCATION
    }
    return state.model_copy(update={"combatants": keep})


def build_view(
    state: Encounter,
    *,
    subject: str | None = None,
    show: Iterable[str] = (),
    area: str | None = None,
    view: str | None = None,
    options: GridOptions = DEFAULT_OPTIONS,
) -> MapView:
    """The map of ``state`` with the overlays named in ``show`` (see :data:`OVERLAYS`).

    ``subject`` is the combatant the reach and cover overlays are for, and the combatant or side whose threat
    is drawn (without it, one threat panel per side). An ``area`` spec adds the area overlay even if ``show``
    does not name it (the subject, if any, is the caster). ``view`` names the side whose picture this is:
    opponents it has not located are left out.
    """
    grid = _grid(state)
    notes: list[str] = []
    if view is not None:
        seen = side_view(state, view)
        hidden = len(state.combatants) - len(seen.combatants)
        notes.append(
            f"view of side {_side(state, view)}: only what the side perceives is drawn "
            f"({hidden} opponent{'s' if hidden != 1 else ''} not located)"
        )
        state = seen
    wanted: list[str] = []
    for item in show:
        for name in (s.strip().lower() for s in item.split(",")):
            if not name:
                continue
            if name not in OVERLAYS:
                raise SftError(f"unknown overlay {name!r}; choose from {', '.join(OVERLAYS)}")
            if name not in wanted:
                wanted.append(name)
    if area is not None and "area" not in wanted:
        wanted.append("area")
    if subject is not None and _find(state, subject) is None and _side(state, subject) is None:
        _combatant(state, subject)  # raises, naming the combatants
    person = None if subject is None else _find(state, subject)
    overlays: list[Overlay] = []
    for name in wanted:
        if name in ("reach", "cover"):
            if person is None:
                what = "a combatant" if subject is None else f"a combatant, not the side {subject!r}"
                raise SftError(f"--show {name} needs --from NAME ({what}; combatants: {', '.join(state.combatants)})")
            make = reach_overlay if name == "reach" else cover_overlay
            overlays.append(make(state, person.id, options=options))
        elif name == "threat":
            if subject is None:
                overlays += [threat_overlay(state, s, options=options) for s in state.sides()]
            else:
                overlays.append(threat_overlay(state, subject, options=options))
        else:
            if area is None:
                raise SftError(f"--show area needs --area SPEC, {_AREA_HELP}")
            caster = person.id if person is not None else None
            overlays.append(area_overlay(state, area, caster=caster, options=options))
    title = f"{state.name}: {grid.width}x{grid.height} squares of 5 ft"
    tokens = tokens_for(state)
    window = view_window(grid, tokens)
    if window is not None:
        x0, y0, x1, y1 = window
        notes.append(
            f"the map is {grid.width}x{grid.height} squares, more than the {VIEW_MAX_SIDE} a view draws across "
            f"or down: drawn are columns {x0}-{x1 - 1} and rows {y0}-{y1 - 1}, around the combatants"
        )
    return MapView(title, grid, tokens, tuple(overlays), tuple(notes), tuple(state.sides()), window,
                   vehicle_tokens(state))  # fmt: skip


def vehicle_tokens(state: Encounter) -> tuple[VehicleToken, ...]:
    """The vehicles with a position: footprint, heading (its arrow), side, HP and riders (VEH-03)."""
    from sftactics.encounter import vehicles

    out = []
    for fv in state.vehicles.values():
        fp = vehicles.footprint(fv)
        if fp is not None:
            v = fv.vehicle
            out.append(VehicleToken(fv.id, fp, v.state.heading, vehicles.side_of(state, fv), v.state.hp, v.stat.hp,
                                    fv.riders))  # fmt: skip
    return tuple(out)


# --- text -------------------------------------------------------------------------------------------------


_TERRAIN_CHARS: dict[int, str] = {}


def _terrain_char(flags: int) -> str:
    found = _TERRAIN_CHARS.get(flags)
    if found is None:
        found = next((_CHAR_OF[f] for f in Feature if f and flags & f), ".")
        _TERRAIN_CHARS[flags] = found
    return found


def _window_cells(view: MapView) -> tuple[tuple[int, int, int, int], list[int]]:
    """The drawn part of the map and the feature flags of its squares, row by row."""
    x0, y0, x1, y1 = view.bounds
    return (x0, y0, x1, y1), view.grid.array[y0:y1, x0:x1].reshape(-1).tolist()


def _base_chars(view: MapView) -> dict[Square, str]:
    (x0, y0, x1, _), flags = _window_cells(view)
    w = x1 - x0
    chars = {(x0 + i % w, y0 + i // w): _terrain_char(c) for i, c in enumerate(flags)}
    for vt in view.vehicles:  # a vehicle's space shows its heading; riders' letters go on top
        for sq in vt.space.squares:
            if sq in chars:
                chars[sq] = vt.arrow
    for t in view.tokens:
        for sq in t.space.squares:
            if sq in chars:
                chars[sq] = t.letter
    return chars


def _grid_lines(view: MapView, base: Mapping[Square, str], marks: Mapping[Square, str]) -> list[str]:
    x0, y0, x1, y1 = view.bounds
    label_w = len(str(y1 - 1))
    digits = len(str(x1 - 1))
    pad = " " * (label_w + 2)
    out: list[str] = []
    for k in range(digits):
        place = 10 ** (digits - 1 - k)
        row = " ".join(str(x // place % 10) if x >= place or place == 1 else " " for x in range(x0, x1))
        out.append((pad + row).rstrip())
    for y in range(y0, y1):
        cells = []
        for x in range(x0, x1):
            ch = base[(x, y)]
            mark = marks.get((x, y))
            if mark is None:
                cells.append(ch + " ")
            elif ch == ".":
                cells.append(mark + " ")
            else:
                cells.append(ch + mark)
        out.append((f"{y:>{label_w}}  " + "".join(cells)).rstrip())
    return out


def _rectangles(squares: Iterable[Square]) -> list[str]:
    """Squares as few ``x,y`` / ``x1,y1..x2,y2`` rectangles (greedy: rows first, then down)."""
    left = set(squares)
    out: list[str] = []
    for y, x in sorted((sq[1], sq[0]) for sq in left):
        if (x, y) not in left:
            continue
        x2 = x
        while (x2 + 1, y) in left:
            x2 += 1
        y2 = y
        while all((i, y2 + 1) in left for i in range(x, x2 + 1)):
            y2 += 1
        left -= {(i, j) for i in range(x, x2 + 1) for j in range(y, y2 + 1)}
        out.append(f"{x},{y}" if (x, y) == (x2, y2) else f"{x},{y}..{x2},{y2}")
    return out


_FEATURE_WORDS: dict[Feature, str] = {
    Feature.SOLID: "solid",
    Feature.DIFFICULT: "difficult",
    Feature.IMPASSABLE: "impassable",
    Feature.LOW: "low",
    Feature.COVER: "cover",
    Feature.SOFT: "soft",
    Feature.CONCEAL: "conceal",
    Feature.OBSCURE: "obscure",
    Feature.NARROW: "narrow",
    Feature.CANOPY: "canopy",
}


def _directives(grid: GridMap, window: tuple[int, int, int, int] | None = None) -> list[str]:
    """What one character per square cannot show, as map directives (docs/maps.md): second features of a
    square, walls and windows on edges, hard corners, light, gravity; only those within ``window`` (x0, y0, x1,
    y1, far bounds excluded) if given."""
    x0, y0, x1, y1 = window or (0, 0, grid.width, grid.height)
    out: list[str] = []
    extra: dict[Feature, list[Square]] = {}
    cells = grid.array[y0:y1, x0:x1]
    many = cells & (cells - 1)  # squares with two features or more (the lowest one is drawn)
    ys, xs = np.nonzero(many)
    for y, x in zip((ys + y0).tolist(), (xs + x0).tolist(), strict=True):
        flags = int(grid.array[y, x])
        shown = next((f for f in Feature if f and flags & f), Feature.NONE)
        for f in Feature:
            if f and f is not shown and flags & f:
                extra.setdefault(f, []).append((x, y))
    out += [f"{_FEATURE_WORDS[f]} {' '.join(_rectangles(sqs))}" for f, sqs in extra.items()]
    for kind, edges in (("wall", grid.walls), ("window", grid.windows)):
        by_side: dict[str, list[Square]] = {}
        for x, y, o in edges:
            sq, side = ((x, y), "W") if o == VERTICAL else ((x, y), "N")
            if not grid.in_bounds(sq):  # the east or south border of the map
                sq, side = ((x - 1, y), "E") if o == VERTICAL else ((x, y - 1), "S")
            if x0 <= sq[0] < x1 and y0 <= sq[1] < y1:
                by_side.setdefault(side, []).append(sq)
        out += [f"{kind} {' '.join(_rectangles(sqs))} {side}" for side, sqs in sorted(by_side.items())]
    corners = sorted((x, y) for x, y in grid.corners if x0 <= x <= x1 and y0 <= y <= y1)
    if corners:
        out.append("corner " + " ".join(f"{x},{y}" for x, y in corners))
    if grid.light is not None:
        levels: dict[Light, list[Square]] = {}
        light = grid.light_array[y0:y1, x0:x1]
        ys, xs = np.nonzero(light != Light.NORMAL)
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
            levels.setdefault(Light(int(light[y, x])), []).append((x + x0, y + y0))
        out += [f"light {' '.join(_rectangles(sqs))} {lv.name.lower()}" for lv, sqs in sorted(levels.items())]
    if grid.gravity.value != "normal":
        out.append(f"gravity {grid.gravity.value}")
    return out


def _token_legend(view: MapView) -> dict[str, str]:
    """Each side's tokens: ``{"party": "K Krask, N Nyx"}`` (``(down)`` after those out of the fight)."""
    by_side: dict[str, list[str]] = {}
    for t in view.tokens:
        by_side.setdefault(t.side, []).append(f"{t.letter} {t.name}" + (" (down)" if t.down else ""))
    return {side: ", ".join(names) for side, names in by_side.items()}


def _vehicle_line(vt: VehicleToken) -> str:
    riders = ", ".join(vt.riders) or "nobody"
    side = f" ({vt.side})" if vt.side else ""
    return (f"vehicle {vt.arrow} {vt.name}{side} at {vt.space.x},{vt.space.y} ({vt.space.side}x{vt.space.side}), "
            f"heading {vt.heading}, {vt.hp}/{vt.max_hp} HP, riders: {riders}")  # fmt: skip


def render_text(view: MapView) -> str:
    """The view as plain text for a terminal: one panel per overlay (or the bare map), then the legend."""
    base = _base_chars(view)
    out = [view.title + "; x counts columns from the left, y rows from the top"]
    for ov in view.overlays or (None,):
        out.append("")
        if ov is not None:
            out.append(ov.title)
        out += _grid_lines(view, base, ov.marks if ov is not None else {})
        if ov is not None:
            out.append("key: " + "   ".join(f"{k.mark} {k.meaning}" for k in ov.keys))
            out += [f"  {n}" for n in ov.notes]
    out.append("")
    out += [f"{side}: {names}" for side, names in _token_legend(view).items()]
    out += [_vehicle_line(vt) for vt in view.vehicles]
    shown = np.unique(_window_cells(view)[1]).tolist()
    present = sorted({_terrain_char(c) for c in shown}, key=lambda ch: list(TERRAIN_NAMES).index(ch))
    out.append("terrain: " + "   ".join(f"{ch} {TERRAIN_NAMES[ch]}" for ch in present))
    extra = _directives(view.grid, view.window)
    if extra:
        out.append("also (map directives): " + "; ".join(extra))
    out += view.notes
    return "\n".join(out) + "\n"


# --- SVG --------------------------------------------------------------------------------------------------

CELL = 32
_MARGIN = 28
_LINE_H = 16
_CHAR_W = 6.6  # average width of a 12-px sans-serif character, for wrapping the legend
_FILLS: dict[Feature, str] = {
    Feature.SOLID: "#2d3748",
    Feature.IMPASSABLE: "#7b341e",
    Feature.COVER: "#a0785a",
}


def _a(value: object) -> str:
    return quoteattr(str(value))


def _rect(x: float, y: float, w: float, h: float, **attrs: object) -> str:
    extra = "".join(f" {k.replace('_', '-')}={_a(v)}" for k, v in attrs.items())
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"{extra}/>'


def _text(x: float, y: float, body: str, **attrs: object) -> str:
    extra = "".join(f" {k.replace('_', '-')}={_a(v)}" for k, v in attrs.items())
    return f'<text x="{x:g}" y="{y:g}"{extra}>{escape(body)}</text>'


_DEFS = """<defs>
<pattern id="hatch-difficult" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">\
<line x1="0" y1="0" x2="0" y2="8" stroke="#975a16" stroke-width="2"/></pattern>
<pattern id="hatch-canopy" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">\
<line x1="0" y1="0" x2="0" y2="8" stroke="#2f855a" stroke-width="2"/></pattern>
<pattern id="hatch-shadow" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">\
<line x1="0" y1="0" x2="0" y2="6" stroke="#4a5568" stroke-width="1.5"/></pattern>
<pattern id="dots-soft" width="8" height="8" patternUnits="userSpaceOnUse">\
<circle cx="4" cy="4" r="1.5" fill="#805ad5"/></pattern>
</defs>"""


def _square_svg(x: int, y: int, flags: int, light: Light, ox: int, oy: int) -> list[str]:
    px, py = ox + x * CELL, oy + y * CELL
    out = [_rect(px, py, CELL, CELL, fill="#f7f5ef")]
    for f, colour in _FILLS.items():
        if flags & f:
            inset = 0 if f is not Feature.COVER else 3
            out.append(_rect(px + inset, py + inset, CELL - 2 * inset, CELL - 2 * inset, fill=colour))
    if flags & Feature.LOW:
        out.append(_rect(px + 2, py + CELL * 0.4, CELL - 4, CELL * 0.2, fill="#b7791f"))
    if flags & Feature.DIFFICULT:
        out.append(_rect(px, py, CELL, CELL, fill="url(#hatch-difficult)"))
    if flags & Feature.CANOPY:
        out.append(_rect(px, py, CELL, CELL, fill="url(#hatch-canopy)"))
    if flags & Feature.SOFT:
        out.append(_rect(px, py, CELL, CELL, fill="url(#dots-soft)"))
    if flags & Feature.CONCEAL:
        out.append(_rect(px, py, CELL, CELL, fill="#a0aec0", fill_opacity="0.45"))
    if flags & Feature.OBSCURE:
        out.append(_rect(px, py, CELL, CELL, fill="#718096", fill_opacity="0.75"))
    if flags & Feature.NARROW:
        out.append(_rect(px + 4, py + 4, CELL - 8, CELL - 8, fill="none", stroke="#4a5568", stroke_dasharray="3 2"))
    if light is not Light.NORMAL:
        shade = {Light.DARK: ("#000000", "0.45"), Light.DIM: ("#000000", "0.2"), Light.BRIGHT: ("#fefcbf", "0.4")}
        colour, alpha = shade[light]
        out.append(_rect(px, py, CELL, CELL, fill=colour, fill_opacity=alpha))
    return out


def render_svg(view: MapView) -> str:
    """The view as a standalone SVG document (all overlays layered on one map, legend below)."""
    g = view.grid
    wx0, wy0, wx1, wy1 = view.bounds
    ox, oy = _MARGIN - wx0 * CELL, _MARGIN - wy0 * CELL  # where square (0, 0) would be drawn
    mx, my = _MARGIN, _MARGIN  # the drawn part's top-left corner
    map_w, map_h = (wx1 - wx0) * CELL, (wy1 - wy0) * CELL

    def inside(x: float, y: float) -> bool:  # a point of the drawn part (grid intersections included)
        return wx0 <= x <= wx1 and wy0 <= y <= wy1

    width = max(mx + map_w + 8, 720)
    legend = _legend_lines(view, width)
    height = my + map_h + 16 + _LINE_H * len(legend) + 8
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif" font-size="12">',
        f"<title>{escape(view.title)}</title>",
        _DEFS,
        _rect(0, 0, width, height, fill="#ffffff"),
        '<g id="terrain">',
    ]
    flags_of = g.array[wy0:wy1, wx0:wx1].tolist()
    light_of = g.light_array[wy0:wy1, wx0:wx1].tolist()
    for j, row in enumerate(flags_of):
        for i, flags in enumerate(row):
            parts += _square_svg(wx0 + i, wy0 + j, flags, Light(light_of[j][i]), ox, oy)
    parts.append("</g>")
    parts.append('<g id="grid-lines" stroke="#cbd5e0" stroke-width="0.5">')
    for x in range(wx0, wx1 + 1):
        parts.append(f'<line x1="{ox + x * CELL}" y1="{my}" x2="{ox + x * CELL}" y2="{my + map_h}"/>')
    for y in range(wy0, wy1 + 1):
        parts.append(f'<line x1="{mx}" y1="{oy + y * CELL}" x2="{mx + map_w}" y2="{oy + y * CELL}"/>')
    parts.append("</g>")
    parts.append('<g id="coordinates" fill="#4a5568" font-size="10" text-anchor="middle">')
    parts += [_text(ox + x * CELL + CELL / 2, my - 8, str(x)) for x in range(wx0, wx1)]
    parts += [_text(mx - 12, oy + y * CELL + CELL / 2 + 4, str(y)) for y in range(wy0, wy1)]
    parts.append("</g>")
    for n, ov in enumerate(view.overlays, 1):
        colour = {k.mark: k.colour for k in ov.keys}
        parts.append(f'<g id="overlay-{n}" class="overlay {ov.kind}">')
        for (x, y), mark in sorted(ov.marks.items()):
            if not (g.in_bounds((x, y)) and wx0 <= x < wx1 and wy0 <= y < wy1):
                continue
            fill = "url(#hatch-shadow)" if ov.kind == "area" and mark == "-" else colour.get(mark, "#718096")
            parts.append(_rect(ox + x * CELL, oy + y * CELL, CELL, CELL, fill=fill, fill_opacity="0.4"))
        for (x1, y1), (x2, y2), mark in ov.lines:
            if not (inside(x1, y1) and inside(x2, y2)):
                continue
            parts.append(
                f'<line x1="{ox + x1 * CELL}" y1="{oy + y1 * CELL}" x2="{ox + x2 * CELL}" y2="{oy + y2 * CELL}" '
                f"stroke={_a(colour.get(mark, _COVER_COLOURS[CoverKind.NONE] if mark == '-' else '#e53e3e'))} "
                'stroke-width="1.5" stroke-opacity="0.8"/>'
            )
        for px, py in ov.points:
            if not inside(px, py):
                continue
            parts.append(f'<circle cx="{ox + px * CELL}" cy="{oy + py * CELL}" r="5" fill="#c05621" stroke="#fff"/>')
        parts.append("</g>")
    parts.append('<g id="walls" stroke-linecap="round">')
    for kind, edges in (("wall", g.walls), ("window", g.windows)):
        style = (
            'stroke="#1a202c" stroke-width="5"'
            if kind == "wall"
            else ('stroke="#3182ce" stroke-width="5" stroke-dasharray="6 4"')
        )
        for x, y, o in sorted(edges):
            x2, y2 = (x, y + 1) if o == VERTICAL else (x + 1, y)
            if not (inside(x, y) and inside(x2, y2)):
                continue
            parts.append(
                f'<line class="{kind}" x1="{ox + x * CELL}" y1="{oy + y * CELL}" x2="{ox + x2 * CELL}" '
                f'y2="{oy + y2 * CELL}" {style}/>'
            )
    for px, py in sorted(g.corners):
        if not inside(px, py):
            continue
        parts.append(f'<circle class="corner" cx="{ox + px * CELL}" cy="{oy + py * CELL}" r="3" fill="#1a202c"/>')
    parts.append("</g>")
    side_colour = {s: _SIDE_COLOURS[i % len(_SIDE_COLOURS)] for i, s in enumerate(view.sides)}
    parts += _vehicles_svg(view, ox, oy, side_colour)
    parts.append('<g id="tokens" text-anchor="middle">')
    for t in view.tokens:
        if not (inside(t.space.x, t.space.y) and inside(t.space.x + t.space.side, t.space.y + t.space.side)):
            continue
        cx = ox + (t.space.x + t.space.side / 2) * CELL
        cy = oy + (t.space.y + t.space.side / 2) * CELL
        r = t.space.side * CELL * 0.4
        fill = "#a0aec0" if t.down else side_colour.get(t.side, "#4a5568")
        dash = ' stroke-dasharray="3 2"' if t.down else ""
        parts.append(f'<g class="token" data-name={_a(t.name)} data-side={_a(t.side)}>')
        parts.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{fill}" stroke="#ffffff" stroke-width="2"{dash}/>'
        )
        parts.append(_text(cx, cy + 5, t.letter, fill="#ffffff", font_size="14", font_weight="bold"))
        parts.append(
            _text(cx, cy + r + 10, t.name, fill="#1a202c", font_size="9", stroke="#ffffff", stroke_width="2.5",
                  paint_order="stroke")
        )  # fmt: skip
        parts.append("</g>")
    parts.append("</g>")
    parts.append('<g id="legend" fill="#1a202c">')
    y = my + map_h + 16 + 12
    for text, swatch, indent in legend:
        x = 8 + indent
        if swatch is not None:
            parts.append(_rect(x, y - 10, 10, 10, fill=swatch, fill_opacity="0.6"))
            x += 16
        parts.append(_text(x, y, text))
        y += _LINE_H
    parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _vehicles_svg(view: MapView, ox: int, oy: int, side_colour: Mapping[str, str]) -> list[str]:
    """Each vehicle's space as a rounded box in its side's colour, with an arrow on the edge it faces."""
    if not view.vehicles:
        return []
    parts = ['<g id="vehicles">']
    for vt in view.vehicles:
        x, y, s = ox + vt.space.x * CELL, oy + vt.space.y * CELL, vt.space.side * CELL
        colour = side_colour.get(vt.side or "", "#4a5568")
        parts.append(f'<g class="vehicle" data-name={_a(vt.name)} data-heading={_a(vt.heading)}>')
        parts.append(f'<rect x="{x + 2}" y="{y + 2}" width="{s - 4}" height="{s - 4}" rx="8" fill="{colour}" '
                     f'fill-opacity="0.25" stroke="{colour}" stroke-width="2"/>')  # fmt: skip
        cx, cy, h = x + s / 2, y + s / 2, s / 2 - 4
        tip = {"N": (cx, cy - h), "E": (cx + h, cy), "S": (cx, cy + h), "W": (cx - h, cy)}[vt.heading]
        back = {"N": (0, 1), "E": (-1, 0), "S": (0, -1), "W": (1, 0)}[vt.heading]
        side_dir = (back[1], back[0])
        b1 = (tip[0] + back[0] * 10 + side_dir[0] * 7, tip[1] + back[1] * 10 + side_dir[1] * 7)
        b2 = (tip[0] + back[0] * 10 - side_dir[0] * 7, tip[1] + back[1] * 10 - side_dir[1] * 7)
        pts = " ".join(f"{px:g},{py:g}" for px, py in (tip, b1, b2))
        parts.append(f'<polygon class="heading" points="{pts}" fill="{colour}"/>')
        parts.append(_text(cx, y + s - 6, f"{vt.name} {vt.hp}/{vt.max_hp}", fill="#1a202c", font_size="9",
                           text_anchor="middle"))  # fmt: skip
        parts.append("</g>")
    parts.append("</g>")
    return parts


def _legend_lines(view: MapView, width: int) -> list[tuple[str, str | None, int]]:
    """Legend lines (text, swatch colour or None, indent in pixels), wrapped to fit ``width`` pixels."""
    raw: list[tuple[str, str | None, int]] = [(view.title, None, 0)]
    side_colour = {s: _SIDE_COLOURS[i % len(_SIDE_COLOURS)] for i, s in enumerate(view.sides)}
    raw += [(f"{side}: {names}", side_colour.get(side), 0) for side, names in _token_legend(view).items()]
    raw += [(_vehicle_line(vt), side_colour.get(vt.side or ""), 0) for vt in view.vehicles]
    for ov in view.overlays:
        raw.append((ov.title, None, 0))
        raw += [(f"{k.mark}  {k.meaning}", k.colour, 12) for k in ov.keys]
        raw += [(n, None, 12) for n in ov.notes]
    extra = _directives(view.grid, view.window)
    if extra:
        raw.append(("also (map directives): " + "; ".join(extra), None, 0))
    raw += [(n, None, 0) for n in view.notes]
    out: list[tuple[str, str | None, int]] = []
    for text, swatch, indent in raw:
        room = max(20, int((width - 24 - indent) / _CHAR_W))
        for i, piece in enumerate(textwrap.wrap(text, room) or [""]):
            out.append((piece, swatch if i == 0 else None, indent + (0 if i == 0 else (16 if swatch else 12))))
    return out
