"""The reach overlay: the squares a combatant can move to with one move action and with a double move."""

from __future__ import annotations

from sftactics.encounter import movement as enc_movement
from sftactics.encounter.state import Encounter
from sftactics.grid.geometry import Footprint, Square
from sftactics.grid.movement import reachable
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.sf1e import stats
from sftactics.views.picture import (
    Key,
    Overlay,
    _combatant,
    _grid,
    _letter,
    _placed,
    tokens_for,
)


def reach_overlay(state: Encounter, name: str, *, options: GridOptions = DEFAULT_OPTIONS) -> Overlay:
    """Squares ``name`` can move to with one move action and with a double move, from the start of a turn."""
    grid = _grid(state)
    c = _combatant(state, name)
    here = _placed(c, "reach")
    mover = enc_movement.mover_for(c)
    speed = stats.speed(c.creature)
    found = reachable(grid, here, mover, occupants=enc_movement.occupants(state, c), actions=2, options=options)
    marks: dict[Square, str] = {}
    for anchor, n in sorted(found.actions.items(), key=lambda kv: kv[1]):
        if n == 0:
            continue
        for sq in Footprint(anchor[0], anchor[1], here.side).squares:
            if not here.contains(sq):
                marks.setdefault(sq, str(n))
    one = sum(1 for n in found.actions.values() if n == 1)
    two = sum(1 for n in found.actions.values() if n == 2)
    letter = _letter(tokens_for(state), c.id)
    notes = [
        speed.describe(),
        f"{one} spaces with one move action, {two} more with a double move (MOV-05); difficult terrain costs double "
        "(MOV-17); allies may be passed, enemies not, and no one ends in another creature's square unless that one is "
        "helpless (MOV-13..16)",
    ]
    if found.squeezed:
        notes.append(f"{len(found.squeezed)} of those spaces only squeezing (MOV-19)")
    return Overlay(
        "reach",
        f"reach: {c.id} ({letter}), land speed {speed.total} ft, from the start of a turn",
        marks,
        (
            Key("1", f"one move action (up to {speed.total} ft)", "#38a169"),
            Key("2", f"double move (up to {2 * speed.total} ft)", "#ecc94b"),
        ),
        tuple(notes),
    )
