"""The compiled kernel plays the INJ-05 grace as the ruleset option says: the same dice, the same fight as the
engine, under both readings, with a PC that has no Resolve left when she drops (so every drop starts the
grace)."""

from __future__ import annotations

import pytest
from hypothesis import given

from sftactics.encounter.state import Encounter
from sftactics.sf1e.options import Sf1eOptions
from tests.sim.test_kernel import FIGHTS, assert_same_fight, duel, scripts


def _no_resolve_duel(grace: str) -> Encounter:
    enc = duel()
    vela = enc.get("Vela")
    vela = vela.model_copy(update={"creature": vela.creature.with_state(rp=0)})
    combatants = {**enc.combatants, "Vela": vela}
    return enc.model_copy(update={"combatants": combatants, "options": Sf1eOptions(zero_rp_grace=grace)})


@pytest.mark.rule("INJ-05", "INJ-04")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_zero_rp_grace_round_after_drop(values: list[int]) -> None:
    assert_same_fight(_no_resolve_duel("round_after_drop"), values)


@pytest.mark.rule("INJ-05", "INJ-04")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_zero_rp_grace_next_turn(values: list[int]) -> None:
    assert_same_fight(_no_resolve_duel("next_turn"), values)
