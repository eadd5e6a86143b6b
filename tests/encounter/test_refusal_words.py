"""A refused move says why in words a GM can act on: a wall, an object, an occupied square and a square off the
map are different messages (MOV-01, MOV-16), under the rule of the action refused."""

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.commands import Begin, GuardedStep, Move
from sftactics.encounter.engine import Fight
from tests.encounter.helpers import combatant, encounter, fight

ROOM = "\n".join(["######", "#..=.#", "#....#", "######"])


def _fight() -> Fight:
    f = fight(
        encounter(
            combatant("Tess", "party", initiative=30, position=(1, 1)),
            combatant("Ogre", "aliens", initiative=10, position=(4, 2)),
            map=ROOM,
        ),
        [],
    )
    f.do(Begin())
    return f


@pytest.mark.rule("MOV-01", "MOV-16")
@pytest.mark.parametrize(
    ("to", "words"),
    [
        ((0, 1), "0,1 is a wall: Tess cannot stand there"),
        ((3, 1), "3,1 holds an object: Tess cannot stand there"),
        ((9, 2), "9,2 is off the 6x4 map (x 0..5, y 0..3)"),
        ((4, 2), "Tess cannot end its move in Ogre's square"),
    ],
)
def test_a_move_to_where_no_one_can_stand_says_why(to: tuple[int, int], words: str) -> None:
    f = _fight()
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.do(Move(actor="Tess", to=to))
    assert words in str(e.value)
    assert f.state is before


@pytest.mark.rule("MOV-01", "ACT-33")
def test_a_guarded_step_into_a_wall_names_the_wall() -> None:
    f = _fight()
    with pytest.raises(RuleViolation) as e:
        f.do(GuardedStep(actor="Tess", to=(1, 0)))
    assert e.value.rule == "ACT-33" and "1,0 is a wall" in str(e.value)  # the action's rule, the wall's words


@pytest.mark.rule("ACT-33")
def test_a_guarded_step_to_a_square_not_next_to_the_mover_says_so() -> None:
    f = _fight()
    with pytest.raises(RuleViolation) as e:
        f.do(GuardedStep(actor="Tess", to=(3, 2)))
    assert str(e.value) == "a guarded step goes to a square next to Tess (at 1,1), not to 3,2 [ACT-33]"
