"""The map as text for a terminal: one character per square and a space, walls on edges between them, one
panel per overlay, the legend under it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from sftactics.grid.geometry import Square
from sftactics.grid.map import HORIZONTAL, VERTICAL, Edge
from sftactics.views.legend import TERRAIN_NAMES, _directives, _terrain_char, _token_legend, _vehicle_line
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
    for vt in view.vehicles:  # a vehicle's space shows its heading; riders' letters go on top
        for sq in vt.space.squares:
            if sq in chars:
                chars[sq] = vt.arrow
    for t in view.tokens:
        for sq in t.space.squares:
            if sq in chars:
                chars[sq] = t.letter
    return chars


#: The characters of edges in the text picture: a wall (``wall`` directives) and a window, across a row (on a
#: square's north or south edge) and down a column (in the space between two squares); ``+`` where walls meet.
EDGE_CHARS = {("wall", HORIZONTAL): "-", ("wall", VERTICAL): "|", ("window", HORIZONTAL): "=",
              ("window", VERTICAL): ":"}  # fmt: skip
EDGE_KEY = "edges: | - wall   : = window (on the line between two squares)   + walls meeting"


@dataclass(frozen=True)
class Edges:
    """Where a view's walls and windows go in the text picture. ``gaps``: the character in the space after a
    square (``(x - 1, y)``: the west edge of square ``x, y``; ``x - 1`` may be the column left of the drawn part),
    for vertical edges; ``rows``: for each line between two rows of squares with a horizontal edge on it (``y``:
    the north edge of row ``y``), its characters, two per square from the column left of the drawn part."""

    gaps: Mapping[Square, str]
    rows: Mapping[int, str]

    def __bool__(self) -> bool:
        return bool(self.gaps or self.rows)


def edges_of(view: MapView) -> Edges:
    """The walls and windows of ``view``'s drawn part, placed for the text picture."""
    x0, y0, x1, y1 = view.bounds
    kind: dict[Edge, str] = {e: "window" for e in view.grid.windows}
    kind.update({e: "wall" for e in view.grid.walls})
    gaps: dict[Square, str] = {}
    across: dict[int, dict[int, str]] = {}  # y -> x -> character on the north edge of square x, y
    for (x, y, o), what in kind.items():
        if o == VERTICAL and x0 <= x <= x1 and y0 <= y < y1:
            gaps[(x - 1, y)] = EDGE_CHARS[(what, o)]
        elif o == HORIZONTAL and x0 <= x < x1 and y0 <= y <= y1:
            across.setdefault(y, {})[x] = EDGE_CHARS[(what, o)]
    rows: dict[int, str] = {}
    for y, found in across.items():
        chars: list[str] = []
        for x in range(x0 - 1, x1):  # the space after square x, then square x + 1
            if x >= x0:
                chars.append(found.get(x, " "))
            left, right = found.get(x), found.get(x + 1)
            up, down = gaps.get((x, y - 1)), gaps.get((x, y))
            if (up or down) and (left or right):
                chars.append("+")
            elif left is not None and left == right:
                chars.append(left)
            elif up is not None and up == down:
                chars.append(up)
            else:
                chars.append(" ")
        rows[y] = "".join(chars)
    return Edges(gaps, rows)


def _grid_lines(
    view: MapView, base: Mapping[Square, str], marks: Mapping[Square, str], edges: Edges | None = None
) -> tuple[list[str], list[str]]:
    """The panel's lines, and the edges a mark hides (the mark takes the space after a square: the wall is
    named under the panel instead)."""
    x0, y0, x1, y1 = view.bounds
    edges = edges if edges is not None else edges_of(view)
    label_w = len(str(y1 - 1))
    digits = len(str(x1 - 1))
    pad = " " * (label_w + 2)
    out: list[str] = []
    hidden: list[str] = []
    for k in range(digits):
        place = 10 ** (digits - 1 - k)
        row = " ".join(str(x // place % 10) if x >= place or place == 1 else " " for x in range(x0, x1))
        out.append((pad + row).rstrip())
    for y in range(y0, y1 + 1):
        if y in edges.rows:
            out.append((" " * (label_w + 1) + edges.rows[y]).rstrip())
        if y == y1:
            break
        cells = [edges.gaps.get((x0 - 1, y), " ")]
        for x in range(x0, x1):
            ch = base[(x, y)]
            mark = marks.get((x, y))
            edge = edges.gaps.get((x, y), " ")
            if mark is None:
                cells.append(ch + edge)
            elif ch == ".":
                cells.append(mark + edge)
            else:
                cells.append(ch + mark)
                if edge != " ":
                    hidden.append(f"{x},{y} E")
        out.append((f"{y:>{label_w}} " + "".join(cells)).rstrip())
    return out, hidden


def render_text(view: MapView) -> str:
    """The view as plain text for a terminal: one panel per overlay (or the bare map), then the legend."""
    base = _base_chars(view)
    edges = edges_of(view)
    out = [view.title + "; x counts columns from the left, y rows from the top"]
    for ov in view.overlays or (None,):
        out.append("")
        if ov is not None:
            out.append(ov.title)
        lines, hidden = _grid_lines(view, base, ov.marks if ov is not None else {}, edges)
        out += lines
        if ov is not None:
            out.append("key: " + "   ".join(f"{k.mark} {k.meaning}" for k in ov.keys))
            out += [f"  {n}" for n in ov.notes]
        if hidden:
            out.append(f"  edges under a mark (not drawn): {', '.join(hidden)}")
    out.append("")
    out += [f"{side}: {names}" for side, names in _token_legend(view).items()]
    out += [_vehicle_line(vt) for vt in view.vehicles]
    out.append("terrain: " + "   ".join(f"{ch} {TERRAIN_NAMES[ch]}" for ch in terrain_present(view)))
    if edges:
        out.append(EDGE_KEY)
    extra = _directives(view.grid, view.window)
    if extra:
        out.append("also (map directives): " + "; ".join(extra))
    out += view.notes
    return "\n".join(out) + "\n"


def terrain_present(view: MapView) -> list[str]:
    """The terrain characters of the drawn part of the map, in the legend's order."""
    shown = np.unique(_window_cells(view)[1]).tolist()
    return sorted({_terrain_char(c) for c in shown}, key=lambda ch: list(TERRAIN_NAMES).index(ch))
