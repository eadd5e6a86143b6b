"""The map as SVG."""

from __future__ import annotations

import textwrap
from xml.sax.saxutils import escape, quoteattr

from sftactics.grid.cover import CoverKind
from sftactics.grid.map import VERTICAL, Feature, Light
from sftactics.views.cover import _COVER_COLOURS
from sftactics.views.legend import _directives, _token_legend
from sftactics.views.picture import (
    MapView,
)

# --- SVG --------------------------------------------------------------------------------------------------

_SIDE_COLOURS = ("#2b6cb0", "#c53030", "#2f855a", "#6b46c1", "#c05621", "#2c7a7b", "#b83280", "#4a5568")

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
    parts.append('<g id="tokens" text-anchor="middle">')
    side_colour = {s: _SIDE_COLOURS[i % len(_SIDE_COLOURS)] for i, s in enumerate(view.sides)}
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


def _legend_lines(view: MapView, width: int) -> list[tuple[str, str | None, int]]:
    """Legend lines (text, swatch colour or None, indent in pixels), wrapped to fit ``width`` pixels."""
    raw: list[tuple[str, str | None, int]] = [(view.title, None, 0)]
    side_colour = {s: _SIDE_COLOURS[i % len(_SIDE_COLOURS)] for i, s in enumerate(view.sides)}
    raw += [(f"{side}: {names}", side_colour.get(side), 0) for side, names in _token_legend(view).items()]
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
