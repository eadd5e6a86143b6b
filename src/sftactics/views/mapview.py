"""The battle map as a picture: terrain, walls, combatant tokens and overlays, as terminal text or as SVG.

Pure: an :class:`~sftactics.encounter.state.Encounter` goes in, a :class:`MapView` (plain data) comes out, and
:func:`render_text` / :func:`render_svg` turn that into strings. Nothing here prints or writes files.

Tokens
    Every combatant with a position is a token: one character (the first letter of its name, or the next
    letter of the name not yet taken, then any free letter A-Z or digit) on every square of its space. The
    legend lists each side's letters and names.

Overlays (:data:`OVERLAYS`), each built by its own function:

* ``reach`` (:func:`reach_overlay`): the squares a combatant can move to with one move action (``1``) and with
  a double move (``2``), from the start of a turn, with its land speed after armor and conditions
  (``sf1e.stats.speed``) and the other combatants in the way as the encounter sees them (allies passable,
  enemies not, nobody ends in a square held by a creature that is not helpless: MOV-05, MOV-13..17). For a
  creature bigger than a square, every square of every space it can end in is marked.
* ``threat`` (:func:`threat_overlay`): the squares threatened (``!``) by one combatant or a whole side, as
  :mod:`sftactics.encounter.threat` answers for attacks of opportunity and flanking: the weapons that can make
  attacks of opportunity (melee and natural weapons; not unarmed strikes, not unwieldy weapons), each with its
  reach (natural reach, a reach weapon's +5 ft, the 10-ft diagonal exception; walls and lines of effect taken
  into account: AOO-01..05). A creature's own squares are left out (they always count, AOO-05) unless its reach
  is 0 ft, when they are all it threatens.
* ``cover`` (:func:`cover_overlay`): each enemy's cover against a ranged attack from the chosen combatant, by
  the corner rule (MOD-07, MOD-08, MOD-11, MOD-14), marked after the enemy's letter (``c`` cover, ``s`` soft,
  ``t`` total, ``-`` none); the notes say what gives it.
* ``area`` (:func:`area_overlay`): an area template at a point of origin (a grid intersection): burst,
  emanation, spread, cone, line, cylinder (EFF-01..09, EFF-36), written as in :func:`parse_area`. Squares in
  the area are ``x``; squares of the shape that line of effect from the origin does not reach are ``-``.

``view SIDE`` (:func:`side_view`) draws only what that side perceives: opponents whose location no member
knows are left out (SEN-05..07).

Text
    One character per square as in the map's text format (see ``docs/maps.md``), with a space after it so
    that squares look square in a terminal; column numbers on top, row numbers on the left. An overlay mark
    replaces an empty floor square's ``.``; on anything else (terrain, a token) it goes in the space after the
    square's character (``~2``: difficult terrain reached with a double move; ``Gc``: G has cover). Each
    overlay is its own panel, since one mark per square is all a character grid can show. Walls on square
    edges and second features of a square are listed under the map as directives.

SVG
    Hand-written SVG 1.1: floor, wall squares and objects filled, difficult terrain hatched, walls drawn on the
    edges, tokens as discs coloured by side with their letter and name; every overlay is a group of
    translucent squares (so they can be shown together), cover lines from the attacker's chosen corner, an
    area's point of origin as a dot; the legend is written below the map.
"""

from __future__ import annotations

from collections.abc import Iterable

from sftactics.core.errors import SftError
from sftactics.encounter.state import Encounter
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.views.area import _AREA_HELP, area_overlay, parse_area
from sftactics.views.cover import COVER_MARKS, COVER_NAMES, cover_overlay
from sftactics.views.legend import TERRAIN_NAMES
from sftactics.views.picture import (
    OVERLAYS,
    VIEW_MAX_SIDE,
    Key,
    MapView,
    Overlay,
    Token,
    VehicleToken,
    _combatant,
    _find,
    _grid,
    _side,
    tokens_for,
    view_window,
)
from sftactics.views.reach import reach_overlay
from sftactics.views.svgmap import render_svg
from sftactics.views.textmap import render_text
from sftactics.views.threats import threat_overlay, threatened_by

__all__ = [
    "COVER_MARKS",
    "COVER_NAMES",
    "OVERLAYS",
    "TERRAIN_NAMES",
    "VIEW_MAX_SIDE",
    "Key",
    "MapView",
    "Overlay",
    "Token",
    "VehicleToken",
    "area_overlay",
    "build_view",
    "cover_overlay",
    "parse_area",
    "reach_overlay",
    "render_svg",
    "render_text",
    "side_view",
    "threat_overlay",
    "threatened_by",
    "tokens_for",
    "vehicle_tokens",
    "view_window",
]


def side_view(state: Encounter, side: str) -> Encounter:
    """What ``side`` perceives of the fight (SEN-05..07): an opponent is drawn only if some member of the side
    knows its location (aware of location or observing); opponents known only to be present, or unknown, are
    left out, and no opponent's stat block is shown beyond its token. Before the fight begins, what the side
    would perceive at its start (``perception.before_the_fight``)."""
    from sftactics.encounter.perception import before_the_fight, side_knows
    from sftactics.sf1e.senses import Awareness

    if _side(state, side) is None:
        raise SftError(f"no side named {side!r} (sides: {', '.join(state.sides())})")
    known = side_knows(before_the_fight(state), side)
    keep = {
        cid: c
        for cid, c in state.combatants.items()
        if c.side == side or known.get(cid, Awareness.UNAWARE) >= Awareness.AWARE_OF_LOCATION
    }
    return state.model_copy(update={"combatants": keep})


def build_view(
    state: Encounter,
    *,
    subject: str | None = None,
    show: Iterable[str] = (),
    area: str | None = None,
    view: str | None = None,
    options: GridOptions = DEFAULT_OPTIONS,
) -> MapView:
    """The map of ``state`` with the overlays named in ``show`` (see :data:`OVERLAYS`).

    ``subject`` is the combatant the reach and cover overlays are for, and the combatant or side whose threat
    is drawn (without it, one threat panel per side). An ``area`` spec adds the area overlay even if ``show``
    does not name it (the subject, if any, is the caster). ``view`` names the side whose picture this is:
    opponents it has not located are left out.
    """
    grid = _grid(state)
    notes: list[str] = []
    if view is not None:
        seen = side_view(state, view)
        hidden = len(state.combatants) - len(seen.combatants)
        notes.append(
            f"view of side {_side(state, view)}: only what the side perceives is drawn "
            f"({hidden} opponent{'s' if hidden != 1 else ''} not located)"
        )
        state = seen
    wanted: list[str] = []
    for item in show:
        for name in (s.strip().lower() for s in item.split(",")):
            if not name:
                continue
            if name not in OVERLAYS:
                raise SftError(f"unknown overlay {name!r}; choose from {', '.join(OVERLAYS)}")
            if name not in wanted:
                wanted.append(name)
    if area is not None and "area" not in wanted:
        wanted.append("area")
    if subject is not None and _find(state, subject) is None and _side(state, subject) is None:
        _combatant(state, subject)  # raises, naming the combatants
    person = None if subject is None else _find(state, subject)
    overlays: list[Overlay] = []
    for name in wanted:
        if name in ("reach", "cover"):
            if person is None:
                what = "a combatant" if subject is None else f"a combatant, not the side {subject!r}"
                raise SftError(f"--show {name} needs --from NAME ({what}; combatants: {', '.join(state.combatants)})")
            make = reach_overlay if name == "reach" else cover_overlay
            overlays.append(make(state, person.id, options=options))
        elif name == "threat":
            if subject is None:
                overlays += [threat_overlay(state, s, options=options) for s in state.sides()]
            else:
                overlays.append(threat_overlay(state, subject, options=options))
        else:
            if area is None:
                raise SftError(f"--show area needs --area SPEC, {_AREA_HELP}")
            caster = person.id if person is not None else None
            overlays.append(area_overlay(state, area, caster=caster, options=options))
    title = f"{state.name}: {grid.width}x{grid.height} squares of 5 ft"
    tokens = tokens_for(state)
    window = view_window(grid, tokens)
    if window is not None:
        x0, y0, x1, y1 = window
        notes.append(
            f"the map is {grid.width}x{grid.height} squares, more than the {VIEW_MAX_SIDE} a view draws across "
            f"or down: drawn are columns {x0}-{x1 - 1} and rows {y0}-{y1 - 1}, around the combatants"
        )
    return MapView(title, grid, tokens, tuple(overlays), tuple(notes), tuple(state.sides()), window,
                   vehicle_tokens(state))  # fmt: skip


def vehicle_tokens(state: Encounter) -> tuple[VehicleToken, ...]:
    """The vehicles with a position: footprint, heading (its arrow), side, HP and riders (VEH-03)."""
    from sftactics.encounter import vehicles

    out = []
    for fv in state.vehicles.values():
        fp = vehicles.footprint(fv)
        if fp is not None:
            v = fv.vehicle
            out.append(VehicleToken(fv.id, fp, v.state.heading, vehicles.side_of(state, fv), v.state.hp, v.stat.hp,
                                    fv.riders))  # fmt: skip
    return tuple(out)
