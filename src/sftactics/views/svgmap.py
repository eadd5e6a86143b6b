"""The map as SVG: :func:`render_svg` writes the shapes of :func:`~sftactics.views.scene.build_scene` as a
standalone SVG 1.1 document.

Only opaque fills, strokes, dashes and text are written (no patterns, opacity, clip paths or ``paint-order``),
so browsers, rsvg-convert and ImageMagick's own renderer draw the same picture. Groups keep their ids
(``terrain``, ``walls``, ``tokens``, ``overlay-N``, ``legend``) and tokens carry ``data-name`` and ``data-side``.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from sftactics.views.picture import MapView
from sftactics.views.scene import CELL, Circle, Group, Line, Polygon, Rect, Scene, Shape, build_scene

__all__ = ["CELL", "render_svg", "scene_svg"]


def _a(value: object) -> str:
    return quoteattr(str(value))


def _n(v: float) -> str:
    return f"{v:g}" if v == int(v) else f"{round(v, 2):g}"


def _dash(d: tuple[float, ...]) -> str:
    return f' stroke-dasharray="{" ".join(_n(v) for v in d)}"' if d else ""


def _stroke(colour: str | None, width: float, dash: tuple[float, ...]) -> str:
    if colour is None or width <= 0:
        return ""
    return f' stroke="{colour}" stroke-width="{_n(width)}"{_dash(dash)}'


def _shape(s: Shape) -> list[str]:
    if isinstance(s, Rect):
        fill = s.fill or "none"
        return [f'<rect x="{_n(s.x)}" y="{_n(s.y)}" width="{_n(s.w)}" height="{_n(s.h)}" fill="{fill}"'
                f"{_stroke(s.stroke, s.stroke_width, s.dash)}/>"]  # fmt: skip
    if isinstance(s, Line):
        cls = f' class="{s.cls}"' if s.cls else ""
        caps = ' stroke-linecap="round"' if s.round_caps else ""
        return [f'<line{cls} x1="{_n(s.x1)}" y1="{_n(s.y1)}" x2="{_n(s.x2)}" y2="{_n(s.y2)}"'
                f"{_stroke(s.stroke, s.width, s.dash)}{caps}/>"]  # fmt: skip
    if isinstance(s, Circle):
        cls = f' class="{s.cls}"' if s.cls else ""
        return [f'<circle{cls} cx="{_n(s.cx)}" cy="{_n(s.cy)}" r="{_n(s.r)}" fill="{s.fill}"'
                f"{_stroke(s.stroke, s.stroke_width, s.dash)}/>"]  # fmt: skip
    if isinstance(s, Polygon):
        cls = f' class="{s.cls}"' if s.cls else ""
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in s.points)
        return [f'<polygon{cls} points="{points}" fill="{s.fill}"/>']
    attrs = f' x="{_n(s.x)}" y="{_n(s.y)}" font-size="{_n(s.size)}"'
    attrs += ' text-anchor="middle"' if s.middle else ""
    attrs += ' font-weight="bold"' if s.bold else ""
    body = escape(s.body)
    out = []
    if s.halo:  # a stroked copy under the letters: the same in every renderer, unlike paint-order
        out.append(f'<text{attrs} fill="{s.halo}" stroke="{s.halo}" stroke-width="3" stroke-linejoin="round">'
                   f"{body}</text>")  # fmt: skip
    out.append(f'<text{attrs} fill="{s.fill}">{body}</text>')
    return out


def _group(g: Group) -> list[str]:
    attrs = "".join(
        [f" id={_a(g.id)}" if g.id else "", f" class={_a(g.cls)}" if g.cls else ""]
        + [f" data-{k}={_a(v)}" for k, v in g.data]
    )
    out = [f"<g{attrs}>"]
    for s in g.shapes:
        out += _group(s) if isinstance(s, Group) else _shape(s)
    out.append("</g>")
    return out


def scene_svg(scene: Scene) -> str:
    """A scene as a standalone SVG document."""
    w, h = _n(scene.width), _n(scene.height)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        'font-family="Helvetica, Arial, sans-serif" font-size="12">',
        f"<title>{escape(scene.title)}</title>",
    ]
    for g in scene.groups:
        parts += _group(g)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def render_svg(view: MapView) -> str:
    """The view as a standalone SVG document (all overlays on the one map, the legend below)."""
    return scene_svg(build_scene(view))
