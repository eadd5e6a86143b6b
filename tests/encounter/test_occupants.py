"""What a mover finds in each square (``encounter.movement.occupants``)."""

from __future__ import annotations

import pytest

from sftactics.encounter.movement import occupants
from sftactics.grid.movement import Occupant
from sftactics.sf1e import conditions as cond
from sftactics.sf1e.state import ConditionInstance
from tests.builders import pc

from .helpers import combatant, encounter

ROOM = "#######\n#.....#\n#.....#\n#######\n"


def _down(name: str) -> object:
    return cond.add_condition(pc(name=name), ConditionInstance(name="unconscious"))


@pytest.mark.rule("MOV-13", "MOV-16")
def test_a_helpless_creature_alone_lets_a_mover_stop_in_its_square() -> None:
    enc = encounter(
        combatant("Tess", "party", position=(1, 1)),
        combatant("Vela", "party", _down("Vela"), position=(2, 1)),  # type: ignore[arg-type]
        map=ROOM,
    )
    assert occupants(enc, enc.get("Tess"))[(2, 1)] is Occupant.HELPLESS


@pytest.mark.rule("MOV-13", "MOV-16")
@pytest.mark.parametrize("order", ["standing first", "helpless first"])
def test_someone_standing_over_a_helpless_creature_still_holds_the_square(order: str) -> None:
    """A creature may end its move in a helpless creature's square; one that stands there too keeps it: the
    square is an ally's (pass, do not stop) or an enemy's (do not pass), whatever order they are listed in."""
    standing = combatant("Sorin", "party", position=(2, 1))
    lying = combatant("Vela", "party", _down("Vela"), position=(2, 1))  # type: ignore[arg-type]
    foe = combatant("Ksarik", "aliens", position=(3, 2))
    foe_lying = combatant("Hound", "aliens", _down("Hound"), position=(3, 2))  # type: ignore[arg-type]
    pairs = [standing, lying, foe, foe_lying] if order == "standing first" else [lying, standing, foe_lying, foe]
    enc = encounter(combatant("Tess", "party", position=(1, 1)), *pairs, map=ROOM)
    found = occupants(enc, enc.get("Tess"))
    assert found[(2, 1)] is Occupant.ALLY
    assert found[(3, 2)] is Occupant.ENEMY
