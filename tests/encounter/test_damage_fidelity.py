"""Damage by the book (issue 14): bleed does not stack, partial saves on grenades, the Arc critical effect,
thrown weapons that leave the hand (CON-02, SV-09, ATK-15, ATK-13, ACT-34)."""

from __future__ import annotations

import pytest

from sftactics.encounter.commands import Begin, EndTurn
from sftactics.sf1e.state import ConditionInstance
from tests.builders import pc
from tests.encounter.helpers import combatant, encounter, fight

MAP = """
..........
..........
..........
..........
"""


# ---------------------------------------------------------------- bleed (CON-02)
@pytest.mark.rule("CON-02")
def test_two_bleeds_from_different_sources_tick_only_the_worst() -> None:
    # bleed 1d4 (average 2.5) from one source, bleed 2 from another: only the 1d4 deals damage (3), not 3 + 2
    two = (
        ConditionInstance(name="bleeding", value="1d4", source="Ksarik's claw"),
        ConditionInstance(name="bleeding", value="2", source="a trap"),
    )
    t = combatant("Tess", "party", pc(name="Tess").with_state(conditions=two), initiative=20, position=(0, 0))
    k = combatant("Ksarik", "aliens", initiative=25, position=(5, 0))
    f = fight(encounter(t, k, map=MAP), [3])
    f.do(Begin())
    f.do(EndTurn(actor="Ksarik"))  # Tess's turn starts
    assert f.state.creature("Tess").state.sp == 28 - 3


@pytest.mark.rule("CON-02")
def test_the_worse_bleed_ticks_whichever_came_first() -> None:
    two = (
        ConditionInstance(name="bleeding", value="1", source="a scratch"),
        ConditionInstance(name="bleeding", value="1d6+1", source="a wound"),
    )
    t = combatant("Tess", "party", pc(name="Tess").with_state(conditions=two), initiative=20, position=(0, 0))
    k = combatant("Ksarik", "aliens", initiative=25, position=(5, 0))
    f = fight(encounter(t, k, map=MAP), [4])
    f.do(Begin())
    f.do(EndTurn(actor="Ksarik"))
    assert f.state.creature("Tess").state.sp == 28 - 5
