"""The area overlay: an area template (burst, emanation, spread, cone, line, cylinder) written as a short
spec (:func:`parse_area`) and the squares it covers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sftactics.core.errors import SftError
from sftactics.encounter.state import Encounter
from sftactics.grid import areas
from sftactics.grid.areas import Area, AreaKind
from sftactics.grid.geometry import DIRECTION_NAMES, DIRECTIONS, Footprint, Point, Square, direction_index
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.views.picture import (
    Key,
    Overlay,
    Token,
    _combatant,
    _find,
    _grid,
    _placed,
    tokens_for,
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
