"""The map as PNG: the shapes of :func:`~sftactics.views.scene.build_scene` (the picture the SVG holds) drawn
with matplotlib, one pixel of the scene to one pixel of the image (``scale`` 2 for a sharper one).

matplotlib is already a dependency (simulation reports and benchmark curves) and draws without any system
library, so ``sftactics map --png`` works wherever sftactics installs; an SVG rasteriser (cairosvg, rsvg) would
need cairo or librsvg on the machine.
"""

from __future__ import annotations

import io
from typing import Any

from sftactics.views.picture import MapView
from sftactics.views.scene import Circle, Group, Line, Polygon, Rect, Scene, Shape, Text, build_scene

_DPI = 100
_PT = 72 / _DPI  # points per pixel at _DPI


def _dashes(d: tuple[float, ...], width: float) -> Any:
    if not d:
        return "solid"
    # matplotlib scales dash lengths by the line width; the scene's are in pixels
    return (0, tuple(v * _PT / max(width * _PT, 1e-6) for v in d))


def _flat(g: Shape | Group) -> list[Shape]:
    return [x for inner in g.shapes for x in _flat(inner)] if isinstance(g, Group) else [g]


def _patch(s: Rect | Circle | Polygon) -> Any:
    from matplotlib import patches

    if isinstance(s, Polygon):
        return patches.Polygon(s.points, closed=True, facecolor=s.fill, edgecolor="none", linewidth=0)
    width = s.stroke_width * _PT if s.stroke else 0
    common = {"edgecolor": s.stroke or "none", "linewidth": width, "linestyle": _dashes(s.dash, s.stroke_width)}
    if isinstance(s, Rect):
        return patches.Rectangle((s.x, s.y), s.w, s.h, facecolor=s.fill or "none", **common)
    return patches.Circle((s.cx, s.cy), s.r, facecolor=s.fill, **common)


def _draw_run(ax: Any, run: list[Shape], z: int) -> None:
    """Shapes of one kind in a row, as one matplotlib collection (a few thousand patches draw in a blink
    this way, not one artist each)."""
    from matplotlib import patheffects
    from matplotlib.collections import LineCollection, PatchCollection

    first = run[0]
    if isinstance(first, Line):
        lines = [s for s in run if isinstance(s, Line)]
        ax.add_collection(
            LineCollection(
                [((s.x1, s.y1), (s.x2, s.y2)) for s in lines], colors=[s.stroke for s in lines],
                linewidths=[s.width * _PT for s in lines], linestyles=[_dashes(s.dash, s.width) for s in lines],
                capstyle="round" if first.round_caps else "butt", zorder=z,
            )
        )  # fmt: skip
    elif isinstance(first, Rect | Circle | Polygon):
        shapes = [_patch(s) for s in run if isinstance(s, Rect | Circle | Polygon)]
        ax.add_collection(PatchCollection(shapes, match_original=True, zorder=z))
    else:
        for s in run:
            assert isinstance(s, Text)
            effects = [patheffects.withStroke(linewidth=3 * _PT, foreground=s.halo)] if s.halo else None
            ax.text(s.x, s.y, s.body, fontsize=s.size * _PT, color=s.fill,
                    fontweight="bold" if s.bold else "normal", ha="center" if s.middle else "left",
                    va="baseline", path_effects=effects, zorder=z, family="sans-serif")  # fmt: skip


def _kind(s: Shape) -> tuple[str, bool]:
    if isinstance(s, Line):
        return "line", s.round_caps
    return ("patch" if isinstance(s, Rect | Circle | Polygon) else "text"), False


def scene_png(scene: Scene, *, scale: float = 1.0) -> bytes:
    """A scene as PNG bytes (``scale`` times its size in pixels)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(scene.width / _DPI, scene.height / _DPI), dpi=_DPI)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, scene.width)
    ax.set_ylim(scene.height, 0)  # y down, as in SVG
    ax.set_axis_off()
    shapes = [s for g in scene.groups for s in _flat(g)]
    run: list[Shape] = []
    z = 0
    for s in shapes:
        if run and _kind(s) != _kind(run[-1]):
            z += 1
            _draw_run(ax, run, z)
            run = []
        run.append(s)
    if run:
        _draw_run(ax, run, z + 1)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=_DPI * scale, metadata={"Title": scene.title})
    return buf.getvalue()


def render_png(view: MapView, *, scale: float = 1.0) -> bytes:
    """The view as PNG bytes: the same picture as :func:`~sftactics.views.svgmap.render_svg`."""
    return scene_png(build_scene(view), scale=scale)
