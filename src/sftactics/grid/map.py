"""The battle map: terrain per square, walls on square edges, hard corners, light and gravity (MOV-01).

A :class:`GridMap` is a value: width and height in squares, a set of :class:`Feature` flags per square, wall and
window edges, extra hard corners, an optional light level per square and the gravity of the place.

Text format
-----------

A map is written as rows of one character per square, top row first (row 0 is north), optionally followed by a
blank line and directives. Common indentation is removed, so maps can be written inside triple-quoted strings.

Legend (one character per square)::

    .   floor
    #   wall square: blocks movement, line of effect and line of sight; its corners are hard corners
    ~   difficult terrain (MOV-17)
    %   impassable ground (chasm, lava): no walking, but lines and fliers pass over it
    o   low obstacle, e.g. a waist-high wall: cover within 30 ft (MOD-10); crossing it costs normal movement
        unless the square is also made difficult
    =   cover object (crates, a console): blocks movement and gives cover (MOD-07); hard corners
    &   soft-cover object (e.g. a hovering drone swarm): passable, soft cover against ranged attacks (MOD-11)
    *   concealing (smoke, thin foliage): concealment (MOD-01)
    "   obscuring (thick fog, an opaque hologram): blocks line of sight but not line of effect (EFF-37)
    ,   narrow passage (a crawlspace): creatures of Small size and larger squeeze through it (MOV-19)
    ^   canopy or a web of chains: difficult terrain for fliers only (MOV-17)
    A-Z 0-9   a marker on a floor square (a creature token); :func:`parse_map` returns where each one is

Directives (one per line after the grid; ``;`` starts a comment; squares are ``x,y``, a rectangle of squares
is ``x1,y1..x2,y2``, inclusive)::

    wall 3,1 E            a wall on the east edge of square (3,1); sides are N, E, S, W
    wall 3,1..3,4 E W     walls on the east and west edges of each square of a rectangle
    window 2,2 N          an edge that blocks movement and line of effect but not line of sight
    corner 4,4            a hard corner at grid intersection (4,4) (x,y here is a point, not a square)
    difficult 2,2..4,3    add a feature to squares: solid, difficult, impassable, low, cover, soft,
                          conceal, obscure, narrow, canopy
    light 0,0..5,5 dim    light level of squares: dark, dim, normal (the default) or bright
    gravity zero          gravity of the whole map: zero, low, normal (the default) or high

Edges are ``(x, y, o)`` triples: ``o = 0`` is the vertical edge from point ``(x, y)`` down to ``(x, y+1)`` (between
squares ``(x-1, y)`` and ``(x, y)``); ``o = 1`` is the horizontal edge from ``(x, y)`` to ``(x+1, y)`` (between
``(x, y-1)`` and ``(x, y)``). Use :func:`edge` to name the side of a square instead.

:func:`render_map` draws a map with creature tokens in the same format, so that ``parse_map(render_map(m))``
gives back ``m``.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum, IntFlag, StrEnum
from functools import cached_property
from typing import Any, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from sftactics.core.errors import FileFormatError
from sftactics.grid.geometry import Footprint, Point, Square, as_footprint

Edge = tuple[int, int, int]
T = TypeVar("T")
VERTICAL = 0
HORIZONTAL = 1


class Feature(IntFlag):
    """What a square holds. Flags combine (a square can be difficult and concealing)."""

    NONE = 0
    SOLID = 1
    DIFFICULT = 2
    IMPASSABLE = 4
    LOW = 8
    COVER = 16
    SOFT = 32
    CONCEAL = 64
    OBSCURE = 128
    NARROW = 256
    CANOPY = 512


class Light(IntEnum):
    DARK = 0
    DIM = 1
    NORMAL = 2
    BRIGHT = 3


class Gravity(StrEnum):
    ZERO = "zero"
    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


#: Map characters and the feature each one stands for (floor is '.').
LEGEND: dict[str, Feature] = {
    ".": Feature.NONE,
    "#": Feature.SOLID,
    "~": Feature.DIFFICULT,
    "%": Feature.IMPASSABLE,
    "o": Feature.LOW,
    "=": Feature.COVER,
    "&": Feature.SOFT,
    "*": Feature.CONCEAL,
    '"': Feature.OBSCURE,
    ",": Feature.NARROW,
    "^": Feature.CANOPY,
}
_CHAR_OF: dict[Feature, str] = {f: c for c, f in LEGEND.items()}
#: Directive keywords that add a feature to squares.
FEATURE_WORDS: dict[str, Feature] = {
    "solid": Feature.SOLID,
    "difficult": Feature.DIFFICULT,
    "impassable": Feature.IMPASSABLE,
    "low": Feature.LOW,
    "cover": Feature.COVER,
    "soft": Feature.SOFT,
    "conceal": Feature.CONCEAL,
    "obscure": Feature.OBSCURE,
    "narrow": Feature.NARROW,
    "canopy": Feature.CANOPY,
}
_WORD_OF: dict[Feature, str] = {f: w for w, f in FEATURE_WORDS.items()}
#: Squares with these features have hard corners: no diagonal movement past them (MOV-11).
HARD = Feature.SOLID | Feature.COVER
SIDES = ("N", "E", "S", "W")


def edge(square: Square, side: str) -> Edge:
    """The edge on one side (``"N"``, ``"E"``, ``"S"``, ``"W"``) of a square."""
    x, y = square
    match side.upper():
        case "N":
            return (x, y, HORIZONTAL)
        case "S":
            return (x, y + 1, HORIZONTAL)
        case "W":
            return (x, y, VERTICAL)
        case "E":
            return (x + 1, y, VERTICAL)
    raise ValueError(f"unknown side {side!r}; expected N, E, S or W")


def edge_between(a: Square, b: Square) -> Edge:
    """The edge shared by two orthogonally adjacent squares."""
    (ax, ay), (bx, by) = a, b
    if ay == by and abs(ax - bx) == 1:
        return (max(ax, bx), ay, VERTICAL)
    if ax == bx and abs(ay - by) == 1:
        return (ax, max(ay, by), HORIZONTAL)
    raise ValueError(f"{a} and {b} do not share an edge")


def edge_points(e: Edge) -> tuple[Point, Point]:
    x, y, o = e
    return ((x, y), (x, y + 1)) if o == VERTICAL else ((x, y), (x + 1, y))


def _packed(values: Any, dtype: type[np.generic], what: str, top: int) -> memoryview[int]:
    """``values`` (a sequence of ints or an array) as a read-only memoryview of ``dtype`` (``top`` is the largest
    value allowed): two bytes a square for features, one for light, indexable like a tuple."""
    code = "H" if dtype is np.uint16 else "B"
    if isinstance(values, memoryview) and values.readonly and values.format == code and values.ndim == 1:
        return values
    arr = np.asarray(values).reshape(-1)
    if arr.size and (arr.dtype.kind not in "iub" or int(arr.min()) < 0 or int(arr.max()) > top):
        raise ValueError(f"{what} are integers from 0 to {top}")
    packed: memoryview[int] = memoryview(arr.astype(dtype).tobytes()).cast(code)  # type: ignore[call-overload]
    return packed


_ALL_FEATURES = int(Feature.CANOPY) * 2 - 1  # every Feature flag set


@dataclass(frozen=True)
class GridMap:
    """A battle map. ``cells`` holds the :class:`Feature` flags of each square, row by row (empty = all floor);
    ``light`` holds a :class:`Light` per square, or is None when the whole map is in normal light.

    Both are stored packed, whatever sequence the caller gives: ``cells`` as a read-only memoryview of 16-bit
    integers (two bytes a square), ``light`` of bytes; indexing them gives ints, as a tuple would, and
    :attr:`array` / :attr:`light_array` view them as numpy arrays (rows first) without copying. Walls, windows
    and corners are sparse sets of edges and points; the per-map tables derived from them are numpy bitmaps
    (:attr:`hard_bitmap`, :attr:`edge_bitmaps`) of a bit or a byte per point, built on first use.
    """

    width: int
    height: int
    cells: Sequence[int] = ()
    walls: frozenset[Edge] = frozenset()
    windows: frozenset[Edge] = frozenset()
    corners: frozenset[Point] = frozenset()
    light: Sequence[int] | None = None
    gravity: Gravity = Gravity.NORMAL

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise ValueError(f"a map is at least 1x1 squares, not {self.width}x{self.height}")
        n = self.width * self.height
        if len(self.cells) == 0:
            object.__setattr__(self, "cells", memoryview(bytes(2 * n)).cast("H"))
        if len(self.cells) != n:
            raise ValueError(f"a {self.width}x{self.height} map needs {n} cells, got {len(self.cells)}")
        object.__setattr__(self, "cells", _packed(self.cells, np.uint16, "features", _ALL_FEATURES))
        if self.light is not None:
            if len(self.light) != n:
                raise ValueError(f"a {self.width}x{self.height} map needs {n} light levels, got {len(self.light)}")
            light = _packed(self.light, np.uint8, "light levels", int(Light.BRIGHT))
            if bool((np.frombuffer(light, dtype=np.uint8) == Light.NORMAL).all()):
                object.__setattr__(self, "light", None)  # one way to say "normal light everywhere"
            else:
                object.__setattr__(self, "light", light)
        for e in self.walls | self.windows:
            x, y, o = e
            ok = (
                (0 <= x <= self.width and 0 <= y < self.height)
                if o == VERTICAL
                else (0 <= x < self.width and 0 <= y <= self.height)
            )
            if o not in (VERTICAL, HORIZONTAL) or not ok:
                raise ValueError(f"edge {e} is not on a {self.width}x{self.height} map")

    def __hash__(self) -> int:
        light = None if self.light is None else bytes(self.light)
        return hash((self.width, self.height, bytes(self.cells), self.walls, self.windows, self.corners, light,
                     self.gravity))  # fmt: skip

    def __getstate__(self) -> dict[str, Any]:
        """Pickled with plain bytes (a memoryview cannot be pickled) and without the derived tables."""
        return {
            "width": self.width,
            "height": self.height,
            "cells": bytes(self.cells),
            "walls": self.walls,
            "windows": self.windows,
            "corners": self.corners,
            "light": None if self.light is None else bytes(self.light),
            "gravity": self.gravity,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        state["cells"] = memoryview(state["cells"]).cast("H")
        if state["light"] is not None:
            state["light"] = memoryview(state["light"]).cast("B")
        self.__dict__.update(state)

    # --- construction ---------------------------------------------------------------------------------

    @classmethod
    def build(
        cls,
        width: int,
        height: int,
        *,
        features: Mapping[Square, Feature] | None = None,
        walls: Iterable[Edge] = (),
        windows: Iterable[Edge] = (),
        corners: Iterable[Point] = (),
        light: Mapping[Square, Light] | None = None,
        gravity: Gravity = Gravity.NORMAL,
    ) -> GridMap:
        """A map from square features given by position (everything else is floor in normal light)."""
        cells = np.zeros((height, width), dtype=np.uint16)
        for (x, y), f in (features or {}).items():
            if not (0 <= x < width and 0 <= y < height):
                raise ValueError(f"square {(x, y)} is not on a {width}x{height} map")
            cells[y, x] |= int(f)
        lights: NDArray[np.uint8] | None = None
        if light:
            lights = np.full((height, width), int(Light.NORMAL), dtype=np.uint8)
            for (x, y), level in light.items():
                lights[y, x] = int(level)
        return cls(
            width,
            height,
            _packed(cells, np.uint16, "features", _ALL_FEATURES),
            frozenset(walls),
            frozenset(windows),
            frozenset(corners),
            None if lights is None else _packed(lights, np.uint8, "light levels", int(Light.BRIGHT)),
            gravity,
        )

    def with_features(self, squares: Iterable[Square], feature: Feature) -> GridMap:
        """A copy with ``feature`` added to the given squares."""
        cells = self.array.copy()
        for x, y in squares:
            self._check(x, y)
            cells[y, x] |= int(feature)
        return replace(self, cells=memoryview(cells.tobytes()).cast("H"))

    def with_walls(self, walls: Iterable[Edge]) -> GridMap:
        return replace(self, walls=self.walls | frozenset(walls))

    # --- queries --------------------------------------------------------------------------------------

    def _check(self, x: int, y: int) -> None:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"square {(x, y)} is not on a {self.width}x{self.height} map")

    def in_bounds(self, square: Square) -> bool:
        return 0 <= square[0] < self.width and 0 <= square[1] < self.height

    def fits(self, space: Footprint) -> bool:
        return (
            space.x >= 0
            and space.y >= 0
            and space.x + space.side <= self.width
            and (space.y + space.side <= self.height)
        )

    def features(self, square: Square) -> Feature:
        x, y = square
        self._check(x, y)
        return Feature(self.cells[y * self.width + x])

    def has(self, square: Square, feature: Feature) -> bool:
        return bool(self.features(square) & feature)

    def light_at(self, square: Square) -> Light:
        x, y = square
        self._check(x, y)
        return Light.NORMAL if self.light is None else Light(self.light[y * self.width + x])

    def squares(self) -> Iterable[Square]:
        return ((x, y) for y in range(self.height) for x in range(self.width))

    def squares_with(self, feature: Feature) -> frozenset[Square]:
        ys, xs = np.nonzero(self.array & int(feature))
        return frozenset(zip(xs.tolist(), ys.tolist(), strict=True))

    @cached_property
    def array(self) -> NDArray[np.uint16]:
        """The feature flags as a read-only ``(height, width)`` numpy array (a view of :attr:`cells`)."""
        return np.frombuffer(cast(memoryview, self.cells), dtype=np.uint16).reshape(self.height, self.width)

    @cached_property
    def light_array(self) -> NDArray[np.uint8]:
        """The light levels as a read-only ``(height, width)`` array (normal everywhere when :attr:`light` is
        None)."""
        if self.light is None:
            return np.full((self.height, self.width), int(Light.NORMAL), dtype=np.uint8)
        return np.frombuffer(cast(memoryview, self.light), dtype=np.uint8).reshape(self.height, self.width)

    def any_with(self, feature: Feature) -> bool:
        """Whether any square of the map has ``feature``."""
        key = ("map.any", int(feature))
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = bool((self.array & int(feature)).any())
        return bool(found)

    @cached_property
    def blocking_edges(self) -> frozenset[Edge]:
        """Edges that stop movement and line of effect (walls and windows)."""
        return self.walls | self.windows

    @cached_property
    def edge_bitmaps(self) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """The blocking edges as two boolean arrays: vertical edges ``[y, x]`` of shape ``(height, width + 1)``
        (edge ``(x, y, VERTICAL)``) and horizontal edges ``[y, x]`` of shape ``(height + 1, width)``."""
        v = np.zeros((self.height, self.width + 1), dtype=np.bool_)
        h = np.zeros((self.height + 1, self.width), dtype=np.bool_)
        for x, y, o in self.blocking_edges:
            (v if o == VERTICAL else h)[y, x] = True
        v.flags.writeable = h.flags.writeable = False
        return v, h

    @cached_property
    def hard_bitmap(self) -> NDArray[np.bool_]:
        """Hard intersections (see :attr:`hard_points`) as a boolean array ``[y, x]`` of shape
        ``(height + 1, width + 1)``."""
        pts = np.zeros((self.height + 1, self.width + 1), dtype=np.bool_)
        hard = (self.array & int(HARD)) != 0
        pts[:-1, :-1] |= hard
        pts[:-1, 1:] |= hard
        pts[1:, :-1] |= hard
        pts[1:, 1:] |= hard
        for x, y in self.corners:
            pts[y, x] = True
        for e in self.blocking_edges:
            for x, y in edge_points(e):
                pts[y, x] = True
        pts.flags.writeable = False
        return pts

    @cached_property
    def _hard_bytes(self) -> bytes:
        return self.hard_bitmap.tobytes()

    def is_hard_point(self, point: Point) -> bool:
        """Whether no one may move diagonally past intersection ``point`` (MOV-11); False off the map."""
        x, y = point
        if not (0 <= x <= self.width and 0 <= y <= self.height):
            return False
        return bool(self._hard_bytes[y * (self.width + 1) + x])

    @property
    def hard_points(self) -> frozenset[Point]:
        """Intersections no one may move diagonally past (MOV-11): ends and bends of walls and windows, explicit
        corners, and the corners of wall squares and cover objects. Built from :attr:`hard_bitmap` on each call:
        use :meth:`is_hard_point` to test one point."""
        ys, xs = np.nonzero(self.hard_bitmap)
        return frozenset(zip(xs.tolist(), ys.tolist(), strict=True))

    def crossing_blocked(self, a: Square, b: Square) -> bool:
        """True if one step from square ``a`` to the adjacent square ``b`` crosses a wall or window edge, or
        (diagonally) passes a hard corner. Terrain of the squares themselves is not considered."""
        (ax, ay), (bx, by) = a, b
        if ax == bx or ay == by:
            return edge_between(a, b) in self.blocking_edges
        return self.is_hard_point((max(ax, bx), max(ay, by)))

    @cached_property
    def memo(self) -> dict[object, object]:
        """Per-map store for tables other grid modules derive from the map (movement steps, line blockers)."""
        return {}

    @cached_property
    def results(self) -> dict[object, object]:
        """Per-map cache of answers that depend only on the map and their arguments (threat, cover,
        concealment), bounded in size: see :func:`cached`."""
        return {}


#: How many answers a map keeps in :attr:`GridMap.results` before it starts afresh.
RESULT_CACHE_LIMIT = 50_000


def cached(grid: GridMap, key: object, compute: Callable[[], T]) -> T:
    """``compute()``, remembered for ``key`` on this map (the map is immutable, so the answer cannot change)."""
    store = grid.results
    try:
        return store[key]  # type: ignore[return-value]
    except KeyError:
        pass
    value = compute()
    if len(store) >= RESULT_CACHE_LIMIT:
        store.clear()
    store[key] = value
    return value


# --- text format -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ParsedMap:
    """A parsed map and where each marker character stood (a tuple of squares per marker)."""

    map: GridMap
    marks: dict[str, tuple[Square, ...]]

    def at(self, mark: str) -> Square:
        """The one square of a marker (error if it appears on several squares or none)."""
        found = self.marks.get(mark, ())
        if len(found) != 1:
            raise KeyError(f"marker {mark!r} is on {len(found)} squares, expected exactly 1")
        return found[0]

    def space(self, mark: str) -> Footprint:
        """The footprint covered by a marker drawn as a full square block (e.g. a Large creature as 'KK/KK')."""
        found = self.marks.get(mark, ())
        if not found:
            raise KeyError(f"no marker {mark!r} on the map")
        xs = [s[0] for s in found]
        ys = [s[1] for s in found]
        side = max(xs) - min(xs) + 1
        fp = Footprint(min(xs), min(ys), side)
        if max(ys) - min(ys) + 1 != side or set(fp.squares) != set(found):
            raise ValueError(f"marker {mark!r} does not form a square block")
        return fp


_COORD = re.compile(r"^(-?\d+),(-?\d+)(?:\.\.(-?\d+),(-?\d+))?$")


def _is_marker(ch: str) -> bool:
    return ch.isascii() and (ch.isupper() or ch.isdigit())


#: The largest map side, in squares (10,000 ft): a tactical map larger than this is refused when it is read, so
#: that loading it and playing a turn stay quick (a 2,000 x 2,000 map loads in about a second and takes tens of
#: megabytes: see docs/performance.md). Larger distances are local or overland movement (MOV-21..28).
MAX_SIDE = 2000

# Per byte of a map row: its feature flags, and whether it is a legend character or a marker.
_FLAGS_OF = np.zeros(256, dtype=np.uint16)
_VALID = np.zeros(256, dtype=np.bool_)
_MARKER = np.zeros(256, dtype=np.bool_)
for _ch, _f in LEGEND.items():
    _FLAGS_OF[ord(_ch)] = int(_f)
    _VALID[ord(_ch)] = True
for _code in range(128):
    if _is_marker(chr(_code)):
        _MARKER[_code] = _VALID[_code] = True
#: str.translate table deleting every character allowed in a map row (what is left is a mistake).
_DROP_VALID = {c: None for c in range(128) if _VALID[c]}


def _row_problem(file: str, y: int, row: str) -> FileFormatError:
    x, ch = next((x, ch) for x, ch in enumerate(row) if not (ch in LEGEND or _is_marker(ch)))
    return FileFormatError(file, f"row {y}, column {x}", f"a map character ({''.join(LEGEND)}, A-Z or 0-9), not {ch!r}")


def parse_map(text: str, *, file: str = "<map>") -> ParsedMap:
    """Read a map in the text format of the module docstring.

    Raises :class:`~sftactics.core.errors.FileFormatError` naming the row and column (or directive line) of the
    first problem. Rows are decoded with numpy (a byte per character, two bytes per square kept), so a map of
    millions of squares reads in about a second.
    """
    lines = textwrap.dedent(text).strip("\n").split("\n")
    rows: list[str] = []
    i = 0
    while i < len(lines) and lines[i].strip():
        rows.append(lines[i].rstrip())
        i += 1
    if not rows:
        raise FileFormatError(file, "row 0", "a map needs at least one row of squares")
    width, height = len(rows[0]), len(rows)
    if width > MAX_SIDE or height > MAX_SIDE:
        raise FileFormatError(
            file, "", f"a map at most {MAX_SIDE} squares wide and {MAX_SIDE} high, not {width}x{height}"
        )
    for y, row in enumerate(rows):
        if len(row) != width:
            raise FileFormatError(file, f"row {y}", f"{width} squares like row 0, found {len(row)}")
        if row.translate(_DROP_VALID):
            raise _row_problem(file, y, row)
    codes = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8).reshape(height, width)
    cells = _FLAGS_OF[codes]
    marks: dict[str, list[Square]] = {}
    ys, xs = np.nonzero(_MARKER[codes])
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        marks.setdefault(chr(codes[y, x]), []).append((x, y))
    del codes
    walls: set[Edge] = set()
    windows: set[Edge] = set()
    corners: set[Point] = set()
    light: NDArray[np.uint8] | None = None
    gravity = Gravity.NORMAL

    def rect(token: str, where: str, *, points: bool = False) -> tuple[int, int, int, int]:
        """The inclusive rectangle ``(x1, y1, x2, y2)`` of a square, point or rectangle token."""
        m = _COORD.match(token)
        if not m:
            raise FileFormatError(file, where, f"a square 'x,y' or rectangle 'x1,y1..x2,y2', not {token!r}")
        x1, y1 = int(m[1]), int(m[2])
        x2, y2 = (int(m[3]), int(m[4])) if m[3] is not None else (x1, y1)
        lim_x, lim_y = (width, height) if points else (width - 1, height - 1)
        for px, py in ((x1, y1), (x2, y2)):
            if not (0 <= px <= lim_x and 0 <= py <= lim_y):
                what = "point" if points else "square"
                raise FileFormatError(file, where, f"a {what} on the {width}x{height} map, not {(px, py)}")
        return min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)

    def region(token: str, where: str, *, points: bool = False) -> list[Square]:
        x1, y1, x2, y2 = rect(token, where, points=points)
        return [(x, y) for y in range(y1, y2 + 1) for x in range(x1, x2 + 1)]

    for n, raw in enumerate(lines[i:], start=i + 1):
        line = raw.split(";", 1)[0].strip()
        if not line:
            continue
        where = f"line {n}"
        word, *args = line.split()
        word = word.lower()
        if word in ("wall", "window"):
            squares = [s for a in args if _COORD.match(a) for s in region(a, where)]
            sides = [a.upper() for a in args if not _COORD.match(a)]
            bad = [s for s in sides if s not in SIDES]
            if not squares or not sides or bad:
                raise FileFormatError(file, where, f"'{word} x,y[..x2,y2] SIDE...' with sides N, E, S, W")
            target = walls if word == "wall" else windows
            target.update(edge(s, side) for s in squares for side in sides)
        elif word == "corner":
            if not args:
                raise FileFormatError(file, where, "'corner x,y' naming a grid intersection")
            corners.update(p for a in args for p in region(a, where, points=True))
        elif word in FEATURE_WORDS:
            if not args:
                raise FileFormatError(file, where, f"'{word} x,y[..x2,y2]'")
            for a in args:
                x1, y1, x2, y2 = rect(a, where)
                cells[y1 : y2 + 1, x1 : x2 + 1] |= int(FEATURE_WORDS[word])
        elif word == "light":
            levels = [a for a in args if not _COORD.match(a)]
            if len(levels) != 1 or levels[0].upper() not in Light.__members__:
                raise FileFormatError(file, where, "'light x,y[..x2,y2] LEVEL' with LEVEL dark, dim, normal or bright")
            if light is None:
                light = np.full((height, width), int(Light.NORMAL), dtype=np.uint8)
            level = int(Light[levels[0].upper()])
            for a in args:
                if _COORD.match(a):
                    x1, y1, x2, y2 = rect(a, where)
                    light[y1 : y2 + 1, x1 : x2 + 1] = level
        elif word == "gravity":
            if len(args) != 1 or args[0].lower() not in {g.value for g in Gravity}:
                raise FileFormatError(file, where, "'gravity zero|low|normal|high'")
            gravity = Gravity(args[0].lower())
        else:
            known = ", ".join(["wall", "window", "corner", *FEATURE_WORDS, "light", "gravity"])
            raise FileFormatError(file, where, f"a directive ({known}), not {word!r}")
    grid = GridMap(
        width,
        height,
        memoryview(cells.tobytes()).cast("H"),
        frozenset(walls),
        frozenset(windows),
        frozenset(corners),
        None if light is None else memoryview(light.tobytes()).cast("B"),
        gravity,
    )
    return ParsedMap(grid, {k: tuple(v) for k, v in marks.items()})


def _pick_char(flags: int) -> tuple[str, int]:
    """The legend character that draws the most important of ``flags``, and the flags left to write out."""
    for f in Feature:
        if f and flags & f:
            return _CHAR_OF[f], flags & ~int(f)
    return ".", 0


def render_map(
    grid: GridMap, tokens: Mapping[str, Footprint | Square] | None = None, *, directives: bool = True
) -> str:
    """Draw ``grid`` in the text format, with each token's first character on every square of its space.

    Token characters must be markers (A-Z, 0-9). Features hidden under a token, and everything one character
    cannot show (walls on edges, corners, light, gravity, second features), are written as directives unless
    ``directives`` is False.
    """
    w = grid.width
    cells = grid.array
    values = np.unique(cells)
    picked = {int(v): _pick_char(int(v)) for v in values.tolist()}
    lut = np.zeros(int(values.max()) + 1, dtype=np.uint8)
    for v, (ch, _) in picked.items():
        lut[v] = ord(ch)
    chars = lut[cells]
    rest = np.zeros_like(cells)
    for v, (_, r) in picked.items():
        if r:
            rest[cells == v] = r
    for label, pos in (tokens or {}).items():
        ch = label[:1].upper()
        if not _is_marker(ch):
            raise ValueError(f"token {label!r} must start with A-Z or 0-9")
        for sx, sy in as_footprint(pos).squares:
            if grid.in_bounds((sx, sy)):
                chars[sy, sx] = ord(ch)
                rest[sy, sx] = cells[sy, sx]
    rows = chars.tobytes().decode("ascii")
    text = "\n".join(rows[y * w : (y + 1) * w] for y in range(grid.height)) + "\n"
    if not directives:
        return text
    extra: dict[Feature, list[Square]] = {}
    ys, xs = np.nonzero(rest)
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        flags = int(rest[y, x])
        for f in Feature:
            if f and flags & f:
                extra.setdefault(f, []).append((x, y))
    out: list[str] = []
    for f in Feature:
        if f in extra:
            out.append(f"{_WORD_OF[f]} " + " ".join(f"{x},{y}" for x, y in extra[f]))
    for kind, edges in (("wall", grid.walls), ("window", grid.windows)):
        for x, y, o in sorted(edges):
            sq, side = ((x, y), "W") if o == VERTICAL else ((x, y), "N")
            if not grid.in_bounds(sq):  # the east or south border of the map
                sq, side = ((x - 1, y), "E") if o == VERTICAL else ((x, y - 1), "S")
            out.append(f"{kind} {sq[0]},{sq[1]} {side}")
    if grid.corners:
        out.append("corner " + " ".join(f"{x},{y}" for x, y in sorted(grid.corners)))
    if grid.light is not None:
        ys, xs = np.nonzero(grid.light_array != Light.NORMAL)
        for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
            out.append(f"light {x},{y} {Light(int(grid.light_array[y, x])).name.lower()}")
    if grid.gravity is not Gravity.NORMAL:
        out.append(f"gravity {grid.gravity.value}")
    if out:
        text += "\n" + "\n".join(out) + "\n"
    return text
