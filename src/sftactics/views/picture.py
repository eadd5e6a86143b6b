"""The picture of a battle map as plain data: the tokens (:func:`tokens_for`), the overlays' marks and keys
(:class:`Overlay`), the part of the map drawn (:func:`view_window`), and the look-ups the overlays share.
The renderers (``textmap``, ``svgmap``, ``pngmap``) draw a :class:`MapView`; ``mapview`` builds one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sftactics.core.errors import SftError
from sftactics.encounter import space as enc_space
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid.geometry import Footprint, Point, Square
from sftactics.grid.map import GridMap

OVERLAYS: tuple[str, ...] = ("reach", "threat", "cover", "area")


@dataclass(frozen=True, slots=True)
class Token:
    """A combatant on the map: its name, the character drawn for it, its side and its space."""

    name: str
    letter: str
    side: str
    space: Footprint
    down: bool = False  # out of the fight (dead, dying, unconscious)


@dataclass(frozen=True, slots=True)
class VehicleToken:
    """A vehicle on the map (VEH-03): its space, the edge it faces, its side, HP and riders."""

    name: str
    space: Footprint
    heading: str
    side: str | None
    hp: int
    max_hp: int
    riders: tuple[str, ...] = ()

    @property
    def arrow(self) -> str:
        return _ARROWS.get(self.heading, "?")


_ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}


@dataclass(frozen=True, slots=True)
class Key:
    """One entry of an overlay's legend: the mark drawn on squares, what it means, its SVG colour."""

    mark: str
    meaning: str
    colour: str


@dataclass(frozen=True, slots=True)
class Overlay:
    """Marks on squares (one character each, explained by ``keys``) plus notes for the legend.

    ``lines`` are segments between grid intersections with the mark that colours them (cover lines);
    ``points`` are intersections to dot (an area's point of origin). Both are drawn only in SVG.
    """

    kind: str
    title: str
    marks: Mapping[Square, str]
    keys: tuple[Key, ...]
    notes: tuple[str, ...] = ()
    lines: tuple[tuple[Point, Point, str], ...] = ()
    points: tuple[Point, ...] = ()
    side: str | None = None  # whose overlay it is, when it belongs to one side (threat): the SVG uses its colour


#: The most squares a view draws across or down: a larger map is drawn as a window of at most this many
#: squares each way around its combatants (:func:`view_window`), and the view says so in its notes.
VIEW_MAX_SIDE = 120
_WINDOW_MARGIN = 10  # squares of map drawn around the combatants, where there is room


@dataclass(frozen=True)
class MapView:
    """Everything a renderer needs: the map, the tokens, the overlays (in order) and notes.

    ``window`` is the part of the map drawn, ``(x0, y0, x1, y1)`` with the far bounds excluded; None draws the
    whole map."""

    title: str
    grid: GridMap
    tokens: tuple[Token, ...]
    overlays: tuple[Overlay, ...] = ()
    notes: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()
    window: tuple[int, int, int, int] | None = None
    vehicles: tuple[VehicleToken, ...] = ()

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        """The drawn part of the map, ``(x0, y0, x1, y1)`` (far bounds excluded)."""
        return self.window or (0, 0, self.grid.width, self.grid.height)


def view_window(grid: GridMap, tokens: Sequence[Token], limit: int = VIEW_MAX_SIDE) -> tuple[int, int, int, int] | None:
    """The part of a map wider or higher than ``limit`` squares to draw. Along a side longer than ``limit``:
    the combatants' spaces with a margin of 10 squares, at most ``limit`` squares (centred on the combatants
    when they are spread wider), kept on the map; the start of the map when no one is on it. A side within the
    limit is drawn whole. None when the whole map fits."""
    if grid.width <= limit and grid.height <= limit:
        return None
    spaces = [t.space for t in tokens]
    if not spaces:
        return 0, 0, min(grid.width, limit), min(grid.height, limit)
    x0, y0 = min(s.x for s in spaces), min(s.y for s in spaces)
    x1, y1 = max(s.x + s.side for s in spaces), max(s.y + s.side for s in spaces)

    def span(lo: int, hi: int, size: int) -> tuple[int, int]:
        if size <= limit:
            return 0, size
        n = min(limit, hi - lo + 2 * _WINDOW_MARGIN)
        start = max(0, min((lo + hi) // 2 - n // 2, size - n))
        return start, start + n

    (wx0, wx1), (wy0, wy1) = span(x0, x1, grid.width), span(y0, y1, grid.height)
    return wx0, wy0, wx1, wy1


# --- looking things up ------------------------------------------------------------------------------------


def _grid(state: Encounter) -> GridMap:
    grid = state.grid
    if grid is None:
        raise SftError(f"{state.name!r} has no map: add one under 'map:' in the scenario (see docs/maps.md)")
    assert isinstance(grid, GridMap)
    return grid


def _find(state: Encounter, name: str) -> Combatant | None:
    if name in state.combatants:
        return state.combatants[name]
    folded = [c for c in state.combatants.values() if c.id.casefold() == name.casefold()]
    return folded[0] if len(folded) == 1 else None


def _combatant(state: Encounter, name: str) -> Combatant:
    """The combatant called ``name`` (exactly, or ignoring case) or an error naming the combatants."""
    found = _find(state, name)
    if found is None:
        raise SftError(f"no combatant named {name!r} (combatants: {', '.join(state.combatants)})")
    return found


def _placed(c: Combatant, what: str) -> Footprint:
    fp = enc_space.footprint(c)
    if fp is None:
        raise SftError(f"{c.id} has no position on the map, so there is no {what} to draw")
    return fp


def _side(state: Encounter, name: str) -> str | None:
    sides = state.sides()
    if name in sides:
        return name
    folded = [s for s in sides if s.casefold() == name.casefold()]
    return folded[0] if len(folded) == 1 else None


def tokens_for(state: Encounter) -> tuple[Token, ...]:
    """A token for every combatant with a position (fled ones are gone), with a character each."""
    used: set[str] = set()
    pool = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + [str(d) for d in range(10)]
    out: list[Token] = []
    for c in state.combatants.values():
        fp = enc_space.footprint(c)
        if fp is None or c.fled:
            continue
        own = [ch.upper() for ch in c.id if ch.isascii() and ch.isalnum()]
        letter = next((ch for ch in [*own, *pool] if ch not in used), "@")
        if letter != "@":
            used.add(letter)
        out.append(Token(c.id, letter, c.side, fp, c.out_of_fight))
    return tuple(out)


def _letter(tokens: Sequence[Token], name: str) -> str:
    return next((t.letter for t in tokens if t.name == name), "?")
