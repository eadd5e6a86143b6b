"""The words under a map: what each terrain character means, each side's tokens, and what one character per
square cannot show (second features, light, gravity), as map directives.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from sftactics.grid.geometry import Square
from sftactics.grid.map import LEGEND, VERTICAL, Feature, GridMap, Light
from sftactics.views.picture import MapView, VehicleToken

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


_TERRAIN_CHARS: dict[int, str] = {}


def _terrain_char(flags: int) -> str:
    found = _TERRAIN_CHARS.get(flags)
    if found is None:
        found = next((_CHAR_OF[f] for f in Feature if f and flags & f), ".")
        _TERRAIN_CHARS[flags] = found
    return found


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


def _directives(grid: GridMap, window: tuple[int, int, int, int] | None = None, *, edges: bool = True) -> list[str]:
    """What one character per square cannot show, as map directives (docs/maps.md): second features of a
    square, walls and windows on edges, hard corners, light, gravity; only those within ``window`` (x0, y0, x1,
    y1, far bounds excluded) if given; without the walls and windows if not ``edges`` (a picture that draws them)."""
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
    for kind, found in (("wall", grid.walls), ("window", grid.windows)) if edges else ():
        by_side: dict[str, list[Square]] = {}
        for x, y, o in found:
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
