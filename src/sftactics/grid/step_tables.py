"""The legal steps on one map, per space size, computed once with numpy and kept in the map's memo (MOV-11,
MOV-17, MOV-19): where a space fits (no wall square, impassable ground or cover object in it, and for a space
of two squares or more no wall, window or hard corner inside it), which of the eight steps from each place are
legal (no wall or window crossed, no hard corner passed diagonally), the terrain doublings and narrow squares of
each space, and where a squeezed space may stop. Which features block or hamper depends on the mover
(:func:`_blocked_mask`, :func:`_difficulty_mask`). :mod:`sftactics.grid.movement` searches these tables.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.grid.geometry import DIRECTIONS
from sftactics.grid.map import Feature, GridMap
from sftactics.grid.space import is_sub_square
from sftactics.grid.step_costs import MoveMode, Mover

# --- step tables (per map, cached) -------------------------------------------------------------------


def _blocked_mask(mover: Mover, squeezed: bool) -> int:
    if mover.mode is MoveMode.BURROW:
        return 0 if mover.through_rock else int(Feature.SOLID)
    mask = Feature.SOLID | Feature.COVER
    if mover.mode is not MoveMode.FLY:
        mask |= Feature.IMPASSABLE
    if (mover.side >= 2 or squeezed) or (not mover.can_squeeze and not is_sub_square(mover.size)):
        mask |= Feature.NARROW  # too narrow even to squeeze into, or squeezing not allowed
    return int(mask)


def _difficulty_mask(mover: Mover) -> int:
    if mover.mode is MoveMode.BURROW:
        return 0
    if mover.mode is MoveMode.FLY:
        return int(Feature.CANOPY)
    return 0 if mover.incorporeal else int(Feature.DIFFICULT)


_Entry = tuple[int, int, bool, int, bool]  # (destination anchor index, direction, diagonal, terrain doublings, narrow)
_Bools = NDArray[np.bool_]
#: The directions (indexes of DIRECTIONS) whose bit is set in each value of a byte.
_BITS: tuple[tuple[int, ...], ...] = tuple(tuple(d for d in range(8) if m >> d & 1) for m in range(256))
_DIAGONAL: tuple[bool, ...] = tuple(bool(dx and dy) for dx, dy in DIRECTIONS)
#: How many anchors' rows a step table keeps materialised before it starts afresh (about a kilobyte each).
ROWS_KEPT = 20_000


class StepTable(dict[int, tuple[_Entry, ...]]):
    """The legal steps of a side x side space from each anchor (index ``y * width + x`` of its top-left square),
    as ``table[idx]`` -> ``(destination index, direction, diagonal, terrain doublings, narrow)`` entries.

    The map's answers are kept compact, a byte per anchor each (``dirs``: a bit per legal direction of
    DIRECTIONS; ``doublings``; ``narrow``; ``fits``), and an anchor's row of entries is built from them the first
    time a search asks for it, so a search pays only for the squares it visits, whatever the size of the map.
    """

    def __init__(
        self,
        width: int,
        height: int,
        side: int,
        dirs: bytes,
        tdbl: bytes,
        narrow: bytes,
        fits: bytes,
        key: object = None,
    ) -> None:
        super().__init__()
        self.width, self.height, self.side, self.key = width, height, side, key
        self.dirs, self.tdbl, self.narrow, self.fits = dirs, tdbl, narrow, fits
        self._offsets = tuple(dy * width + dx for dx, dy in DIRECTIONS)

    def __missing__(self, idx: int) -> tuple[_Entry, ...]:
        if len(self) >= ROWS_KEPT:
            self.clear()
        offsets, tdbl, narrow = self._offsets, self.tdbl, self.narrow
        row = tuple(
            (idx + offsets[di], di, _DIAGONAL[di], tdbl[idx + offsets[di]], bool(narrow[idx + offsets[di]]))
            for di in _BITS[self.dirs[idx]]
        )
        self[idx] = row
        return row

    def array(self, name: str) -> NDArray[np.uint8]:
        """One of the compact tables (``dirs``, ``tdbl``, ``narrow``, ``fits``) as a flat uint8 array."""
        data: bytes = getattr(self, name)
        return np.frombuffer(data, dtype=np.uint8)


def _shift(a: NDArray[Any], dx: int, dy: int, h: int, w: int) -> NDArray[Any]:
    """``out[y, x] = a[y + dy, x + dx]`` for ``y < h``, ``x < w``; zero where that falls outside ``a``."""
    out = np.zeros((h, w), dtype=a.dtype)
    ah, aw = a.shape
    y0, y1 = max(0, -dy), min(h, ah - dy)
    x0, x1 = max(0, -dx), min(w, aw - dx)
    if y0 < y1 and x0 < x1:
        out[y0:y1, x0:x1] = a[y0 + dy : y1 + dy, x0 + dx : x1 + dx]
    return out


def _window_any(mask: _Bools, side: int) -> _Bools:
    """Per anchor: any square of the side x side space there has ``mask`` set."""
    if side == 1:
        return mask
    h, w = mask.shape
    out = np.zeros((h, w), dtype=np.bool_)
    for j in range(side):
        for i in range(side):
            out |= _shift(mask, i, j, h, w)
    return out


def _fits(
    grid: GridMap, side: int, blocked: int, difficult: int, narrow: int, walls: bool
) -> tuple[_Bools, _Bools, _Bools]:
    """Per anchor, as ``(height, width)`` arrays: whether a side x side space fits there, whether it holds
    terrain that hampers (a doubling) and whether it is narrow."""
    h, w = grid.height, grid.width
    cells = grid.array
    fits = ~_window_any((cells & blocked) != 0, side)
    fits[h - side + 1 :, :] = False
    fits[:, w - side + 1 :] = False
    if side > 1 and walls:  # no wall, window or hard corner strictly inside the space
        v, hz = grid.edge_bitmaps
        pts = grid.hard_bitmap
        inside = np.zeros((h, w), dtype=np.bool_)
        for j in range(side):
            for i in range(side):
                if i:
                    inside |= _shift(v, i, j, h, w)
                if j:
                    inside |= _shift(hz, i, j, h, w)
                if i and j:
                    inside |= _shift(pts, i, j, h, w)
        fits &= ~inside
    return fits, _window_any((cells & difficult) != 0, side), _window_any((cells & narrow) != 0, side)


def _crossing(grid: GridMap, side: int, dx: int, dy: int) -> _Bools:
    """Per anchor: a step of the side x side space there in direction ``(dx, dy)`` crosses a wall or window, or
    passes a hard corner diagonally (MOV-11)."""
    h, w = grid.height, grid.width
    v, hz = grid.edge_bitmaps
    pts = grid.hard_bitmap
    out = np.zeros((h, w), dtype=np.bool_)
    for j in range(side):
        for i in range(side):
            ti, tj = i + dx, j + dy
            if 0 <= ti < side and 0 <= tj < side:
                continue  # stays inside the old space
            if dx and dy:
                out |= _shift(pts, max(i, ti), max(j, tj), h, w)
            elif dx:
                out |= _shift(v, max(i, ti), j, h, w)
            else:
                out |= _shift(hz, i, max(j, tj), h, w)
    return out


def _steps_table(
    grid: GridMap,
    side: int,
    blocked: int,
    difficult: int,
    narrow: int,
    walls: bool,
) -> tuple[StepTable, bytes]:
    """The legal steps of a side x side space per anchor (see :class:`StepTable`), and where such a space may be
    (a byte per anchor), computed once per map with numpy: a few bytes a square."""
    key = ("movement.steps", side, blocked, difficult, narrow, walls)
    found = grid.memo.get(key)
    if found is not None:
        return found  # type: ignore[return-value]
    h, w = grid.height, grid.width
    fits, tdbl, narrows = _fits(grid, side, blocked, difficult, narrow, walls)
    dirs = np.zeros((h, w), dtype=np.uint8)
    for di, (dx, dy) in enumerate(DIRECTIONS):
        legal = fits & _shift(fits, dx, dy, h, w)
        if walls:
            legal &= ~_crossing(grid, side, dx, dy)
        dirs |= legal.astype(np.uint8) << di
    table = StepTable(w, h, side, dirs.tobytes(), tdbl.astype(np.uint8).tobytes(),
                      narrows.astype(np.uint8).tobytes(), fits.astype(np.uint8).tobytes(), key)  # fmt: skip
    grid.memo[key] = (table, table.fits)
    return table, table.fits


def _squeeze_stops(grid: GridMap, n: int, full: StepTable, small: StepTable) -> bytes:
    """Per anchor: a squeezed (m x m) space fits there and no full (n x n) space containing it does (cached)."""
    key = ("movement.squeeze_stops", n, full.key, small.key)
    found = grid.memo.get(key)
    if found is not None:
        return found  # type: ignore[return-value]
    h, w = grid.height, grid.width
    span = n - small.side
    full_fits = full.array("fits").reshape(h, w).astype(np.bool_)
    around = np.zeros((h, w), dtype=np.bool_)
    for j in range(span + 1):
        for i in range(span + 1):
            around |= _shift(full_fits, -i, -j, h, w)
    out = (small.array("fits").reshape(h, w).astype(np.bool_) & ~around).astype(np.uint8).tobytes()
    grid.memo[key] = out
    return out
