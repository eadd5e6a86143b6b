"""The pure movement rules: moving blind (CON-03) and squeezing's penalties (MOV-19)."""

from __future__ import annotations

import pytest

from sftactics.dice.source import ScriptedDice
from sftactics.sf1e import movement_rules as mr
from sftactics.sf1e import stats
from tests.builders import npc, pc, with_conditions


@pytest.mark.rule("CON-03")
@pytest.mark.parametrize(("speed", "moved", "check"), [(30, 15, False), (30, 20, True), (25, 10, False),
                                                      (25, 15, True), (30, 0, False)])  # fmt: skip
def test_faster_than_half_speed(speed: int, moved: int, check: bool) -> None:
    blind = with_conditions(pc(speed={"land": speed}), "blinded")
    assert mr.blind_move_needs_check(blind, moved) is check
    assert not mr.blind_move_needs_check(pc(speed={"land": speed}), moved)


@pytest.mark.rule("CON-03", "SPA-16")
def test_incorporeal_and_blindsight_creatures_move_blind_at_full_speed() -> None:
    assert not mr.moves_blind(with_conditions(npc(incorporeal=True), "blinded"))
    assert not mr.moves_blind(with_conditions(npc(senses={"blindsight (scent)": 30}), "blinded"))
    assert mr.without_sight(with_conditions(npc(incorporeal=True), "blinded"))


@pytest.mark.rule("CON-03")
def test_the_check_uses_the_printed_acrobatics_bonus_with_blinded_minus_4() -> None:
    nimble = with_conditions(npc(skills={"acrobatics": 7}), "blinded")
    res = mr.blind_move(nimble, 40, ScriptedDice([6]))  # 6 + 7 - 4 = 9 < 10
    assert res is not None and res.fell and res.creature.has("prone") and res.check.total == 9
    ok = mr.blind_move(nimble, 40, ScriptedDice([7]))
    assert ok is not None and not ok.fell and not ok.creature.has("prone")
    assert mr.blind_move(nimble, 10, ScriptedDice([])) is None


@pytest.mark.rule("MOV-19", "CON-14")
def test_squeezing_carries_entangleds_penalties_under_its_name() -> None:
    mods = mr.squeezing_modifiers()
    assert {m.label for m in mods} == {"entangled"} and {m.rule for m in mods} == {"MOV-19"}
    assert {(m.selector, m.value) for m in mods} >= {("ac", -2), ("attack", -2), ("save.ref", -2), ("initiative", -2)}
    squeezed = pc().with_state(modifiers=mods)
    assert stats.armor_class(squeezed, "kac").total == 16
    both = with_conditions(squeezed, "entangled")
    assert stats.armor_class(both, "kac").total == 16  # entangled counts once (BON-12)
    assert stats.speed(squeezed).total == 30  # the grid charges the half speed, not the penalties
