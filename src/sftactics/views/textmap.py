"""The map as text for a terminal: one character per square and a space, walls on edges between them, one
panel per overlay, the legend under it.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from sftactics.grid.geometry import Square
from sftactics.views.legend import TERRAIN_NAMES, _directives, _terrain_char, _token_legend
from sftactics.views.picture import (
    MapView,
)


def _window_cells(view: MapView) -> tuple[tuple[int, int, int, int], list[int]]:
    """The drawn part of the map and the feature flags of its squares, row by row."""
    x0, y0, x1, y1 = view.bounds
    return (x0, y0, x1, y1), view.grid.array[y0:y1, x0:x1].reshape(-1).tolist()


def _base_chars(view: MapView) -> dict[Square, str]:
    (x0, y0, x1, _), flags = _window_cells(view)
    w = x1 - x0
    chars = {(x0 + i % w, y0 + i // w): _terrain_char(c) for i, c in enumerate(flags)}
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
    shown = np.unique(_window_cells(view)[1]).tolist()
    present = sorted({_terrain_char(c) for c in shown}, key=lambda ch: list(TERRAIN_NAMES).index(ch))
    out.append("terrain: " + "   ".join(f"{ch} {TERRAIN_NAMES[ch]}" for ch in present))
    extra = _directives(view.grid, view.window)
    if extra:
        out.append("also (map directives): " + "; ".join(extra))
    out += view.notes
    return "\n".join(out) + "\n"
