"""The threat overlay: the squares a combatant or a side threatens (attacks of opportunity, flanking)."""

from __future__ import annotations

from sftactics.core.errors import SftError
from sftactics.encounter import space as enc_space
from sftactics.encounter import threat
from sftactics.encounter.state import Encounter
from sftactics.grid.geometry import Square
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.views.picture import (
    Key,
    Overlay,
    _combatant,
    _find,
    _grid,
    _letter,
    _side,
    tokens_for,
)


def threatened_by(
    state: Encounter, name: str, *, options: GridOptions = DEFAULT_OPTIONS
) -> tuple[frozenset[Square], str]:
    """The squares combatant ``name`` threatens (AOO-01..05, by :mod:`sftactics.encounter.threat`) and a sentence
    saying why. Its own squares are left out of the picture unless its reach is 0 ft (they always count)."""
    _grid(state)
    c = _combatant(state, name)
    here = enc_space.footprint(c)
    why_not = threat.no_threat_reason(c)
    if here is None or c.fled:
        return frozenset(), f"{c.id} is not on the map"
    if c.out_of_fight:
        return frozenset(), f"{c.id} is out of the fight and threatens nothing"
    if why_not is not None:
        return frozenset(), f"{c.id} threatens nothing: {why_not}"
    zone: set[Square] = set(threat.threatened_squares(state, c, options=options))
    parts: list[str] = []
    for w in threat.aoo_weapons(c):
        reach = enc_space.weapon_reach(c, w)
        extra = " (and the second square on a diagonal, AOO-04)" if reach == 10 else ""
        parts.append(f"{w.name} {reach} ft{extra}")
    if any(r > 0 for r in threat.reaches(c)):
        zone -= set(here.squares)
    return frozenset(zone), f"{c.id} threatens {len(zone)} squares: {'; '.join(parts)}"


def threat_overlay(state: Encounter, who: str, *, options: GridOptions = DEFAULT_OPTIONS) -> Overlay:
    """Squares threatened by combatant ``who``, or by every member of side ``who`` (a name first, then a side)."""
    tokens = tokens_for(state)
    c = _find(state, who)
    side = None if c is not None else _side(state, who)
    if c is None and side is None:
        raise SftError(
            f"no combatant or side named {who!r} (combatants: {', '.join(state.combatants)}; "
            f"sides: {', '.join(state.sides())})"
        )
    members = [c] if c is not None else [m for m in state.combatants.values() if m.side == side]
    zone: set[Square] = set()
    notes: list[str] = []
    for m in members:
        squares, why = threatened_by(state, m.id, options=options)
        zone |= squares
        notes.append(why)
    label = f"{c.id} ({_letter(tokens, c.id)})" if c is not None else f"side {side}"
    return Overlay(
        "threat",
        f"threat: squares threatened by {label}",
        {sq: "!" for sq in sorted(zone)},
        (Key("!", "threatened (AOO-01)", "#e53e3e"),),
        tuple(notes),
        side=c.side if c is not None else side,
    )
