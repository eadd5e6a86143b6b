"""The map as a picture made of plain shapes (:class:`Scene`): the one drawing that the SVG writer
(:mod:`~sftactics.views.svgmap`) and the PNG writer (:mod:`~sftactics.views.pngmap`) both put on paper, so the two
show the same thing.

Only opaque rectangles, lines, circles and text are used: no transparency, no fill patterns, no clip paths and no
``paint-order``, which SVG renderers disagree on (ImageMagick's own renderer draws patterns black and ignores
opacity). Where a square carries light, concealment or an overlay's colour, the colours are mixed here
(:func:`mix`); hatching is drawn as line segments cut to the square (:func:`hatch`); a token's name has a white
halo drawn as a stroked copy under it.

How the overlays look, so that several can be read on one map: ``reach`` tints the squares (green one move,
yellow a double move), ``area`` tints them orange and outlines them (squares the shape misses hatched grey),
``threat`` hatches them red, ``cover`` puts a badge with the cover's letter on each enemy's token and draws the
lines from the attacker's chosen corner (threat hatching takes the side's colour, one direction per side, so
two sides' threats can be told apart). Everything has a key under the map: the terrain drawn, the edges
(walls, windows, hard corners), light, the sides' tokens and each overlay's marks, each with a swatch drawn
the way the map draws it.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field

from sftactics.grid.cover import CoverKind
from sftactics.grid.map import VERTICAL, Feature, Light
from sftactics.views.cover import _COVER_COLOURS
from sftactics.views.legend import TERRAIN_NAMES, _directives, _terrain_char, _token_legend, _vehicle_line
from sftactics.views.picture import MapView, Overlay

CELL = 32
MARGIN = 28
LINE_H = 18
CHAR_W = 6.6  # average width of a 12-px sans-serif character, for wrapping the legend
FLOOR = "#f7f5ef"
INK = "#1a202c"
SIDE_COLOURS = ("#2b6cb0", "#c53030", "#2f855a", "#6b46c1", "#c05621", "#2c7a7b", "#b83280", "#4a5568")
_FILLS: dict[Feature, str] = {Feature.SOLID: "#2d3748", Feature.IMPASSABLE: "#7b341e", Feature.COVER: "#a0785a"}
#: Colours laid over a square, with their weight: light levels, concealment.
_LIGHT: dict[Light, tuple[str, float]] = {
    Light.DARK: ("#000000", 0.45),
    Light.DIM: ("#000000", 0.2),
    Light.BRIGHT: ("#fefcbf", 0.4),
}
_CONCEAL = ("#a0aec0", 0.45)
_OBSCURE = ("#718096", 0.75)
OVERLAY_WEIGHT = 0.4  # how much of an overlay's colour a tinted square takes
#: Hatching: (colour, line width, spacing, direction: 1 for /, -1 for \\).
HATCHES: dict[str, tuple[str, float, float, int]] = {
    "difficult": ("#975a16", 2.0, 8.0, 1),
    "canopy": ("#2f855a", 2.0, 8.0, -1),
    "threat": ("#e53e3e", 1.5, 6.0, -1),
    "shadow": ("#4a5568", 1.5, 6.0, 1),
}
AREA_EDGE = "#c05621"


# --- shapes -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None  # None: not filled
    stroke: str | None = None
    stroke_width: float = 0.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    width: float = 1.0
    dash: tuple[float, ...] = ()
    cls: str | None = None
    round_caps: bool = False


@dataclass(frozen=True, slots=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str
    stroke: str | None = None
    stroke_width: float = 0.0
    dash: tuple[float, ...] = ()
    cls: str | None = None


@dataclass(frozen=True, slots=True)
class Text:
    """Text at its baseline; ``halo``: a colour drawn around the letters first (a stroked copy under them)."""

    x: float
    y: float
    body: str
    size: float = 12.0
    fill: str = INK
    bold: bool = False
    middle: bool = False  # centred on x (else starting at x)
    halo: str | None = None


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str
    cls: str | None = None


Shape = Rect | Line | Circle | Text | Polygon


@dataclass(slots=True)
class Group:
    """Shapes drawn together; ``id``, ``cls`` and ``data`` become the SVG group's attributes."""

    id: str | None = None
    cls: str | None = None
    data: tuple[tuple[str, str], ...] = ()
    shapes: list[Shape | Group] = field(default_factory=list)

    def add(self, *shapes: Shape | Group) -> None:
        self.shapes.extend(shapes)


@dataclass(frozen=True, slots=True)
class Scene:
    width: float
    height: float
    title: str
    groups: tuple[Group, ...]


# --- colours and hatching ---------------------------------------------------------------------------------


def mix(base: str, layers: list[tuple[str, float]]) -> str:
    """``base`` (``#rrggbb``) with each ``(colour, weight)`` laid over it in turn, as one opaque colour."""
    r, g, b = (int(base[i : i + 2], 16) for i in (1, 3, 5))
    for colour, w in layers:
        cr, cg, cb = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        r, g, b = (round(v + (c - v) * w) for v, c in ((r, cr), (g, cg), (b, cb)))
    return f"#{r:02x}{g:02x}{b:02x}"


def hatch(
    x: float, y: float, w: float, h: float, kind: str, colour: str | None = None, sense: int | None = None
) -> list[Line]:
    """Parallel diagonal lines of ``HATCHES[kind]`` cut to the rectangle (``/`` or ``\\``), spaced along x;
    ``colour`` and ``sense`` (1 for ``/``, -1 for ``\\``) instead of the kind's own."""
    own, width, step, own_sense = HATCHES[kind]
    colour, sense = colour or own, sense or own_sense
    out: list[Line] = []
    k = step / 2
    while k < w + h:
        if sense > 0:  # "/": u + (h - v) = k, from the bottom or right edge to the left or top edge
            x1, y1 = (x + k, y + h) if k <= w else (x + w, y + h - (k - w))
            x2, y2 = (x, y + h - k) if k <= h else (x + (k - h), y)
        else:  # "\\": u - v = k - h, from the top or left edge to the bottom or right edge
            c = k - h
            x1, y1 = (x + c, y) if c >= 0 else (x, y - c)
            x2, y2 = (x + k, y + h) if k <= w else (x + w, y + h - (k - w))
        out.append(Line(round(x1, 2), round(y1, 2), round(x2, 2), round(y2, 2), colour, width))
        k += step
    return out


def _dots(x: float, y: float, w: float, h: float) -> list[Circle]:
    return [
        Circle(x + i + 4, y + j + 4, 1.5, "#805ad5") for i in range(0, int(w) - 4, 8) for j in range(0, int(h) - 4, 8)
    ]


# --- a square ---------------------------------------------------------------------------------------------


def _tint_layers(flags: int, light: Light) -> list[tuple[str, float]]:
    layers: list[tuple[str, float]] = []
    if flags & Feature.CONCEAL:
        layers.append(_CONCEAL)
    if flags & Feature.OBSCURE:
        layers.append(_OBSCURE)
    if light in _LIGHT:
        layers.append(_LIGHT[light])
    return layers


def square(px: float, py: float, size: float, flags: int, light: Light, tints: list[tuple[str, float]]) -> list[Shape]:
    """The shapes of one square at ``px, py`` (``size`` pixels a side): its terrain, its light, the overlay
    ``tints`` over both (colour, weight)."""
    layers = _tint_layers(flags, light) + tints
    base = next((c for f, c in _FILLS.items() if f is not Feature.COVER and flags & f), FLOOR)
    out: list[Shape] = [Rect(px, py, size, size, fill=mix(base, layers))]
    s = size / CELL
    if flags & Feature.COVER:
        out.append(Rect(px + 3 * s, py + 3 * s, size - 6 * s, size - 6 * s, fill=mix(_FILLS[Feature.COVER], layers)))
    if flags & Feature.LOW:
        out.append(Rect(px + 2 * s, py + size * 0.4, size - 4 * s, size * 0.2, fill=mix("#b7791f", layers)))
    if flags & Feature.DIFFICULT:
        out += hatch(px, py, size, size, "difficult")
    if flags & Feature.CANOPY:
        out += hatch(px, py, size, size, "canopy")
    if flags & Feature.SOFT:
        out += _dots(px, py, size, size)
    if flags & Feature.NARROW:
        out.append(Rect(px + 4 * s, py + 4 * s, size - 8 * s, size - 8 * s, stroke="#4a5568", stroke_width=1,
                        dash=(3, 2)))  # fmt: skip
    return out


# --- overlays ---------------------------------------------------------------------------------------------


VEHICLE_WEIGHT = 0.25  # how much of its side's colour a vehicle's squares take


def _tints(view: MapView, side_colour: dict[str, str]) -> dict[tuple[int, int], list[tuple[str, float]]]:
    """The colours over each square: vehicles' spaces (their side's), then the overlays' (reach and area
    squares), in the overlays' order."""
    out: dict[tuple[int, int], list[tuple[str, float]]] = {}
    for vt in view.vehicles:
        for sq in vt.space.squares:
            out.setdefault(sq, []).append((side_colour.get(vt.side or "", "#4a5568"), VEHICLE_WEIGHT))
    for ov in view.overlays:
        colour = {k.mark: k.colour for k in ov.keys}
        for sq, mark in ov.marks.items():
            if (ov.kind == "reach") or (ov.kind == "area" and mark == "x"):
                out.setdefault(sq, []).append((colour.get(mark, "#718096"), OVERLAY_WEIGHT))
    return out


def threat_style(ov: Overlay, view: MapView) -> tuple[str, int]:
    """The colour and direction of a threat overlay's hatching: its side's colour, one direction per side (so
    two sides' threats can be told apart where they overlap); red for an overlay of no side."""
    if ov.side is None or ov.side not in view.sides:
        return HATCHES["threat"][0], HATCHES["threat"][3]
    i = view.sides.index(ov.side)
    return SIDE_COLOURS[i % len(SIDE_COLOURS)], -1 if i % 2 == 0 else 1


def _overlay_group(n: int, ov: Overlay, view: MapView, ox: float, oy: float) -> Group:
    """What an overlay draws over the terrain (its tints are mixed into the squares): threat hatching, area
    outlines and shadows, cover lines, points of origin. Cover badges go with the tokens."""
    x0, y0, x1, y1 = view.bounds
    colour = {k.mark: k.colour for k in ov.keys}
    g = Group(f"overlay-{n}", f"overlay {ov.kind}")
    tcolour, tsense = threat_style(ov, view)

    def inside(x: float, y: float) -> bool:
        return x0 <= x <= x1 and y0 <= y <= y1

    for (x, y), mark in sorted(ov.marks.items()):
        if not (x0 <= x < x1 and y0 <= y < y1):
            continue
        px, py = ox + x * CELL, oy + y * CELL
        if ov.kind == "threat":
            g.add(*hatch(px, py, CELL, CELL, "threat", tcolour, tsense))
        elif ov.kind == "area" and mark == "-":
            g.add(*hatch(px, py, CELL, CELL, "shadow"))
        elif ov.kind == "area":
            g.add(Rect(px + 1.5, py + 1.5, CELL - 3, CELL - 3, stroke=AREA_EDGE, stroke_width=1.5))
    for (ax, ay), (bx, by), mark in ov.lines:
        if inside(ax, ay) and inside(bx, by):
            stroke = colour.get(mark, _COVER_COLOURS[CoverKind.NONE] if mark == "-" else "#e53e3e")
            g.add(Line(ox + ax * CELL, oy + ay * CELL, ox + bx * CELL, oy + by * CELL, stroke, 1.5, cls="cover-line"))
    for px, py in ov.points:
        if inside(px, py):
            g.add(Circle(ox + px * CELL, oy + py * CELL, 5, AREA_EDGE, "#ffffff", 1.5, cls="origin"))
    return g


def _badges(view: MapView) -> dict[str, tuple[str, str]]:
    """Cover overlay marks by token name: (letter, colour)."""
    out: dict[str, tuple[str, str]] = {}
    for ov in view.overlays:
        if ov.kind != "cover":
            continue
        colour = {k.mark: k.colour for k in ov.keys}
        for t in view.tokens:
            mark = next((ov.marks[sq] for sq in t.space.squares if sq in ov.marks), None)
            if mark is not None:
                out[t.name] = (mark, colour.get(mark, "#718096"))
    return out


def badge(cx: float, cy: float, letter: str, colour: str) -> list[Shape]:
    """A cover badge: a small disc with the cover's letter."""
    return [Circle(cx, cy, 8, colour, "#ffffff", 1.5, cls="cover-badge"),
            Text(cx, cy + 4, letter, 11, "#ffffff", bold=True, middle=True)]  # fmt: skip


def _vehicles(view: MapView, ox: float, oy: float, side_colour: dict[str, str]) -> Group:
    """Each vehicle's space outlined in its side's colour (its squares are tinted with it), an arrow on the
    edge it faces, its name and HP."""
    g = Group("vehicles")
    for vt in view.vehicles:
        x, y, s = ox + vt.space.x * CELL, oy + vt.space.y * CELL, vt.space.side * CELL
        colour = side_colour.get(vt.side or "", "#4a5568")
        box = Group(cls="vehicle", data=(("name", vt.name), ("heading", vt.heading)))
        box.add(Rect(x + 2, y + 2, s - 4, s - 4, stroke=colour, stroke_width=2))
        cx, cy, h = x + s / 2, y + s / 2, s / 2 - 4
        tip = {"N": (cx, cy - h), "E": (cx + h, cy), "S": (cx, cy + h), "W": (cx - h, cy)}.get(vt.heading, (cx, cy))
        bx, by = {"N": (0, 1), "E": (-1, 0), "S": (0, -1), "W": (1, 0)}.get(vt.heading, (0, 0))
        sx, sy = by, bx
        b1 = (tip[0] + bx * 10 + sx * 7, tip[1] + by * 10 + sy * 7)
        b2 = (tip[0] + bx * 10 - sx * 7, tip[1] + by * 10 - sy * 7)
        box.add(Polygon((tip, b1, b2), colour, cls="heading"))
        box.add(Text(cx, y + s - 6, f"{vt.name} {vt.hp}/{vt.max_hp}", 9, INK, middle=True, halo="#ffffff"))
        g.add(box)
    return g


# --- the legend -------------------------------------------------------------------------------------------

SW = 14  # a swatch's side in pixels


def _swatch_for(ov: Overlay, view: MapView, mark: str, colour: str, x: float, y: float) -> list[Shape]:
    """A legend swatch of ``ov``'s ``mark`` at ``x, y`` (its top-left corner), drawn as the map draws it."""
    if ov.kind == "reach" or (ov.kind == "area" and mark == "x"):
        out: list[Shape] = [Rect(x, y, SW, SW, fill=mix(FLOOR, [(colour, OVERLAY_WEIGHT)]))]
        if ov.kind == "area":
            out.append(Rect(x + 1, y + 1, SW - 2, SW - 2, stroke=AREA_EDGE, stroke_width=1.5))
        return out
    if ov.kind == "threat":
        return [Rect(x, y, SW, SW, fill=FLOOR), *hatch(x, y, SW, SW, "threat", *threat_style(ov, view))]
    if ov.kind == "area":
        return [Rect(x, y, SW, SW, fill=FLOOR), *hatch(x, y, SW, SW, "shadow")]
    if ov.kind == "cover":
        return badge(x + SW / 2, y + SW / 2, mark, colour)
    return [Rect(x, y, SW, SW, fill=colour)]


@dataclass(slots=True)
class _Legend:
    """The legend's lines: each a list of (swatch shapes drawn at the line's origin, text) items flowing from the
    left, wrapped to ``width`` pixels."""

    width: float
    lines: list[tuple[float, list[Shape], str]] = field(default_factory=list)  # (indent, swatch shapes, text)

    def text(self, body: str, indent: float = 0) -> None:
        room = max(20, int((self.width - 24 - indent) / CHAR_W))
        for i, piece in enumerate(textwrap.wrap(body, room) or [""]):
            self.lines.append((indent + (12 if i else 0), [], piece))

    def item(self, swatch: list[Shape], body: str, indent: float = 12) -> None:
        """A swatch (shapes drawn at 0, 0 and moved to their place) and its words."""
        room = max(20, int((self.width - 24 - indent - SW - 6) / CHAR_W))
        for i, piece in enumerate(textwrap.wrap(body, room) or [""]):
            self.lines.append((indent + (SW + 6 if i else 0), swatch if i == 0 else [], piece))

    def flow(self, items: list[tuple[list[Shape], str]], indent: float = 12) -> None:
        """Short items side by side, as many as fit a line."""
        row: list[tuple[list[Shape], str]] = []
        used = 0.0
        for sw, words in items:
            need = SW + 6 + len(words) * CHAR_W + 18
            if row and indent + used + need > self.width - 16:
                self._row(row, indent)
                row, used = [], 0.0
            row.append((sw, words))
            used += need
        if row:
            self._row(row, indent)

    def _row(self, row: list[tuple[list[Shape], str]], indent: float) -> None:
        shapes: list[Shape] = []
        x = 0.0
        text_runs: list[tuple[float, str]] = []
        for sw, words in row:
            shapes += [_moved(s, x, 0) for s in sw]
            text_runs.append((x + SW + 6, words))
            x += SW + 6 + len(words) * CHAR_W + 18
        shapes += [Text(tx, SW - 3, words) for tx, words in text_runs[1:]]
        first = text_runs[0]
        self.lines.append((indent, [*shapes, Text(first[0], SW - 3, first[1])], ""))


def _moved(s: Shape, dx: float, dy: float) -> Shape:
    if isinstance(s, Rect):
        return Rect(s.x + dx, s.y + dy, s.w, s.h, s.fill, s.stroke, s.stroke_width, s.dash)
    if isinstance(s, Line):
        return Line(s.x1 + dx, s.y1 + dy, s.x2 + dx, s.y2 + dy, s.stroke, s.width, s.dash, s.cls, s.round_caps)
    if isinstance(s, Circle):
        return Circle(s.cx + dx, s.cy + dy, s.r, s.fill, s.stroke, s.stroke_width, s.dash, s.cls)
    if isinstance(s, Polygon):
        return Polygon(tuple((x + dx, y + dy) for x, y in s.points), s.fill, s.cls)
    return Text(s.x + dx, s.y + dy, s.body, s.size, s.fill, s.bold, s.middle, s.halo)


def _terrain_swatch(flags: int, light: Light = Light.NORMAL) -> list[Shape]:
    return [*square(0, 0, SW, flags, light, []), Rect(0, 0, SW, SW, stroke="#a0aec0", stroke_width=0.5)]


_FEATURE_OF_CHAR = {"#": Feature.SOLID, "~": Feature.DIFFICULT, "%": Feature.IMPASSABLE, "o": Feature.LOW,
                    "=": Feature.COVER, "&": Feature.SOFT, "*": Feature.CONCEAL, '"': Feature.OBSCURE,
                    ",": Feature.NARROW, "^": Feature.CANOPY, ".": Feature.NONE}  # fmt: skip


def _legend(view: MapView, width: float, side_colour: dict[str, str]) -> _Legend:
    leg = _Legend(width)
    leg.text(view.title)
    down = any(t.down for t in view.tokens)
    for side, names in _token_legend(view).items():
        leg.item([Circle(SW / 2, SW / 2, SW / 2 - 1, side_colour.get(side, "#4a5568"))], f"{side}: {names}", 0)
    for vt in view.vehicles:
        colour = side_colour.get(vt.side or "", "#4a5568")
        swatch: list[Shape] = [Rect(0, 0, SW, SW, fill=mix(FLOOR, [(colour, VEHICLE_WEIGHT)]), stroke=colour,
                                    stroke_width=1.5)]  # fmt: skip
        leg.item(swatch, _vehicle_line(vt), 0)
    if down:
        leg.item([Circle(SW / 2, SW / 2, SW / 2 - 1, "#a0aec0", "#ffffff", 1, (3, 2))], "down: out of the fight", 0)
    x0, y0, x1, y1 = view.bounds
    g = view.grid
    cells = g.array[y0:y1, x0:x1]
    present = sorted({_terrain_char(int(c)) for c in set(cells.reshape(-1).tolist())},
                     key=lambda ch: list(TERRAIN_NAMES).index(ch))  # fmt: skip
    terrain: list[tuple[list[Shape], str]] = [
        (_terrain_swatch(_FEATURE_OF_CHAR[ch]), TERRAIN_NAMES[ch]) for ch in present
    ]
    levels = {Light(int(v)) for v in set(g.light_array[y0:y1, x0:x1].reshape(-1).tolist())} - {Light.NORMAL}
    light_words = {Light.DARK: "darkness", Light.DIM: "dim light", Light.BRIGHT: "bright light"}
    terrain += [(_terrain_swatch(0, lv), light_words[lv]) for lv in sorted(levels)]
    walls, windows, corners = _edges_in(view)
    mid = SW / 2
    if walls:
        terrain.append(([Line(0, mid, SW, mid, INK, 5, round_caps=True)], "wall (on an edge)"))
    if windows:
        terrain.append(([Line(0, mid, SW, mid, "#3182ce", 5, (6, 4))], "window (blocks movement, not sight)"))
    if corners:
        terrain.append(([Circle(mid, mid, 3, INK)], "hard corner"))
    leg.text("terrain:")
    leg.flow(terrain)
    for ov in view.overlays:
        leg.text(ov.title)
        for k in ov.keys:
            leg.item(_swatch_for(ov, view, k.mark, k.colour, 0, 0), f"{k.mark}  {k.meaning}")
        if ov.lines:
            words = "lines: from the attacker's corner to the target's corners, coloured by the cover each gives"
            leg.item([Line(0, SW, SW, 0, _COVER_COLOURS[CoverKind.COVER], 1.5)], words)
        if ov.points:
            leg.item([Circle(SW / 2, SW / 2, 5, AREA_EDGE, "#ffffff", 1.5)], "the point of origin")
        for n in ov.notes:
            leg.text(n, 12)
    extra = [d for d in _directives(g, view.window, edges=False) if not d.startswith(("light ", "corner "))]
    if extra:
        leg.text("also (map directives): " + "; ".join(extra))
    for n in view.notes:
        leg.text(n)
    return leg


def _edges_in(view: MapView) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]], list[tuple[int, int]]]:
    x0, y0, x1, y1 = view.bounds

    def inside(x: float, y: float) -> bool:
        return x0 <= x <= x1 and y0 <= y <= y1

    def keep(edges: frozenset[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        out = []
        for x, y, o in sorted(edges):
            x2, y2 = (x, y + 1) if o == VERTICAL else (x + 1, y)
            if inside(x, y) and inside(x2, y2):
                out.append((x, y, o))
        return out

    return keep(view.grid.walls), keep(view.grid.windows), [p for p in sorted(view.grid.corners) if inside(*p)]


# --- the whole picture ------------------------------------------------------------------------------------


def build_scene(view: MapView) -> Scene:
    """The view as shapes: the map (terrain, grid lines, coordinates, overlays, walls, tokens), legend below."""
    g = view.grid
    wx0, wy0, wx1, wy1 = view.bounds
    ox, oy = MARGIN - wx0 * CELL, MARGIN - wy0 * CELL  # where square (0, 0) would be drawn
    mx, my = MARGIN, MARGIN
    map_w, map_h = (wx1 - wx0) * CELL, (wy1 - wy0) * CELL
    width = max(mx + map_w + 8, 720)
    side_colour = {s: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(view.sides)}
    legend = _legend(view, width, side_colour)
    height = my + map_h + 16 + LINE_H * len(legend.lines) + 8
    groups: list[Group] = [Group(shapes=[Rect(0, 0, width, height, fill="#ffffff")])]

    tints = _tints(view, side_colour)
    terrain = Group("terrain")
    flags_of = g.array[wy0:wy1, wx0:wx1].tolist()
    light_of = g.light_array[wy0:wy1, wx0:wx1].tolist()
    for j, row in enumerate(flags_of):
        for i, flags in enumerate(row):
            x, y = wx0 + i, wy0 + j
            terrain.add(
                *square(ox + x * CELL, oy + y * CELL, CELL, flags, Light(light_of[j][i]), tints.get((x, y), []))
            )
    groups.append(terrain)
    lines = Group("grid-lines")
    lines.add(*(Line(ox + x * CELL, my, ox + x * CELL, my + map_h, "#cbd5e0", 0.5) for x in range(wx0, wx1 + 1)))
    lines.add(*(Line(mx, oy + y * CELL, mx + map_w, oy + y * CELL, "#cbd5e0", 0.5) for y in range(wy0, wy1 + 1)))
    groups.append(lines)
    coords = Group("coordinates")
    coords.add(*(Text(ox + x * CELL + CELL / 2, my - 8, str(x), 10, "#4a5568", middle=True) for x in range(wx0, wx1)))
    coords.add(
        *(Text(mx - 12, oy + y * CELL + CELL / 2 + 4, str(y), 10, "#4a5568", middle=True) for y in range(wy0, wy1))
    )
    groups.append(coords)
    groups += [_overlay_group(n, ov, view, ox, oy) for n, ov in enumerate(view.overlays, 1)]

    edges = Group("walls")
    walls, windows, corners = _edges_in(view)
    for kind, found in (("wall", walls), ("window", windows)):
        for x, y, o in found:
            x2, y2 = (x, y + 1) if o == VERTICAL else (x + 1, y)
            a, b = (ox + x * CELL, oy + y * CELL), (ox + x2 * CELL, oy + y2 * CELL)
            if kind == "wall":
                edges.add(Line(*a, *b, INK, 5, cls="wall", round_caps=True))
            else:
                edges.add(Line(*a, *b, "#3182ce", 5, (6, 4), cls="window"))
    edges.add(*(Circle(ox + px * CELL, oy + py * CELL, 3, INK, cls="corner") for px, py in corners))
    groups.append(edges)

    if view.vehicles:
        groups.append(_vehicles(view, ox, oy, side_colour))

    tokens = Group("tokens")
    badges = _badges(view)
    for t in view.tokens:
        sp = t.space
        if not (wx0 <= sp.x and sp.x + sp.side <= wx1 and wy0 <= sp.y and sp.y + sp.side <= wy1):
            continue
        cx = ox + (sp.x + sp.side / 2) * CELL
        cy = oy + (sp.y + sp.side / 2) * CELL
        r = sp.side * CELL * 0.4
        fill = "#a0aec0" if t.down else side_colour.get(t.side, "#4a5568")
        tok = Group(cls="token", data=(("name", t.name), ("side", t.side)))
        tok.add(Circle(cx, cy, r, fill, "#ffffff", 2, (3, 2) if t.down else ()))
        tok.add(Text(cx, cy + 5, t.letter, 14, "#ffffff", bold=True, middle=True))
        tok.add(Text(cx, cy + r + 10, t.name, 9, INK, middle=True, halo="#ffffff"))
        if t.name in badges:
            letter, colour = badges[t.name]
            tok.add(*badge(cx + r * math.cos(math.pi / 4), cy - r * math.sin(math.pi / 4), letter, colour))
        tokens.add(tok)
    groups.append(tokens)

    leg = Group("legend")
    y = my + map_h + 16
    for indent, swatch, words in legend.lines:
        lx = 8 + indent
        if swatch:
            leg.add(*(_moved(s, lx, y) for s in swatch))
            if words:
                leg.add(Text(lx + SW + 6, y + SW - 3, words))
        elif words:
            leg.add(Text(lx, y + SW - 3, words))
        y += LINE_H
    groups.append(leg)
    return Scene(width, height, view.title, tuple(groups))
