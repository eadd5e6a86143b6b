"""Where a move may end: never in another creature's square unless that creature is helpless (MOV-16), whoever
plans the move (a command, ``play``, the policies: they all ask ``movement.occupants`` and the grid's search).

The text allows ending a move in the square of a helpless creature, ally or enemy, and an unconscious creature is
helpless (CON-35); a paralyzed creature is not (CON-27): its square may be crossed, at double cost (MOV-15), but
not ended in.
"""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.commands import Begin, Move
from sftactics.encounter.movement import occupants
from sftactics.encounter.policy import _approach
from sftactics.grid.movement import Occupant
from tests.builders import npc, pc, with_conditions
from tests.encounter.helpers import combatant, encounter, fight

ROW = "......\n"


def _fight(other: str, *conditions: str, side: str = "party", map: str | None = ROW) -> object:
    body = pc(name=other) if side == "party" else npc(name=other)
    f = fight(
        encounter(
            combatant("Tess", "party", initiative=30, position=(0, 0)),
            combatant(other, side, with_conditions(body, *conditions), initiative=5, position=(2, 0)),
            combatant("Far", "aliens", initiative=1, position=(5, 0)),
            map=map,
        ),
        [],
    )
    f.do(Begin())
    return f


@pytest.mark.rule("MOV-16", "MOV-15", "CON-27")
def test_a_paralyzed_allys_square_may_be_crossed_but_not_ended_in() -> None:
    f = _fight("Vela", "paralyzed")
    assert occupants(f.state, f.state.get("Tess"))[(2, 0)] is Occupant.PARALYZED
    with pytest.raises(RuleViolation) as e:
        f.do(Move(actor="Tess", path=((1, 0), (2, 0))))
    assert e.value.rule == "MOV-16"
    assert f.state.get("Tess").position == (0, 0)
    f.do(Move(actor="Tess", path=((1, 0), (2, 0), (3, 0))))  # 5 + 10 (paralyzed: double) + 5 ft
    assert f.state.get("Tess").position == (3, 0) and f.state.get("Tess").moved_ft == 20


@pytest.mark.rule("MOV-16", "CON-35")
@pytest.mark.parametrize("side", ["party", "aliens"])
def test_a_move_may_end_in_an_unconscious_creatures_square(side: str) -> None:
    f = _fight("Vela", "unconscious", side=side)
    f.do(Move(actor="Tess", to=(2, 0)))
    assert f.state.get("Tess").position == (2, 0)


@pytest.mark.rule("MOV-16", "CON-35")
def test_without_a_map_the_same_squares_are_legal_ends() -> None:
    """A fight without a map checks the end square only, by the same rule as the grid: a helpless creature's
    square is a legal end, anyone else's is not."""
    down = _fight("Vela", "unconscious", map=None)
    down.do(Move(actor="Tess", to=(2, 0)))
    assert down.state.get("Tess").position == (2, 0)
    up = _fight("Vela", map=None)
    with pytest.raises(RuleViolation) as e:
        up.do(Move(actor="Tess", to=(2, 0)))
    assert e.value.rule == "MOV-16"
    still = _fight("Vela", "paralyzed", map=None)
    with pytest.raises(RuleViolation):
        still.do(Move(actor="Tess", to=(2, 0)))


@pytest.mark.rule("MOV-16", "CON-27")
def test_the_simple_policy_does_not_plan_to_stop_on_a_paralyzed_creature() -> None:
    # a paralyzed ally at 3,0 next to the goblin at 4,0 on a one-row map: the nearest square to end in is 2,0
    f = fight(
        encounter(
            combatant("Tess", "party", initiative=30, position=(0, 0)),
            combatant("Vela", "party", with_conditions(pc(name="Vela"), "paralyzed"), initiative=5, position=(3, 0)),
            combatant("Goblin", "aliens", initiative=1, position=(4, 0)),
            map="......\n",
        ),
        [],
    )
    f.do(Begin())
    s = f.state
    assert _approach(s, s.get("Tess"), s.get("Goblin")) == (2, 0)
