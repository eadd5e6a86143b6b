"""The conditions quick reference (sftactics.sf2e.conditions): E2-40, E2-51..63."""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.sf2e.attacks import attack_modifier, weapon
from sftactics.sf2e.conditions import (
    Awareness,
    active,
    condition_mods,
    definitions,
    end_of_turn,
    targeting,
    targeting_dc,
)
from sftactics.sf2e.defenses import Save, armor_class, perception, save_modifier
from sftactics.sf2e.modifiers import explain
from sftactics.sf2e.options import Sf2eOptions

from .make import hero

CLUB = weapon("baton", "1d6", "bludgeoning")


@pytest.mark.rule("E2-51", "E2-52", "E2-53", "E2-54", "E2-55", "E2-56", "E2-57", "E2-58", "E2-59", "E2-60")
@pytest.mark.rule("E2-61", "E2-62", "E2-63")
def test_the_quick_reference_is_complete() -> None:
    defs = definitions()
    expected = {
        "blinded",
        "broken",
        "concealed",
        "frightened",
        "hidden",
        "invisible",
        "off-guard",
        "quickened",
        "slowed",
        "unconscious",
        "undetected",
        "unnoticed",
        "prone",
        "dying",
        "wounded",
        "doomed",
    }
    assert set(defs) == expected
    assert {n for n, d in defs.items() if d.valued} == {"frightened", "slowed", "dying", "wounded", "doomed"}
    assert defs["broken"].item and defs["dying"].implies == ("unconscious",)
    assert [defs[n].rule for n in ("dying", "wounded", "doomed")] == ["E2-32", "E2-35", "E2-37"]


@pytest.mark.rule("E2-51")
def test_blinded() -> None:
    c = hero(conditions={"blinded": 1})
    assert perception(c).total == 6 - 4
    assert attack_modifier(c, CLUB).total == 6 - 4
    assert attack_modifier(c, CLUB, options=Sf2eOptions(blinded_attack_penalty=0)).total == 6


@pytest.mark.rule("E2-40", "E2-60", "E2-57", "E2-51")
def test_unconscious_brings_blinded_and_off_guard() -> None:
    c = hero(conditions={"unconscious": 1})
    assert active(c.conditions) == {"unconscious": 1, "blinded": 1, "off-guard": 1}
    assert armor_class(c).total == 20 - 4 - 2  # status and circumstance: both count
    assert perception(c).total == 6 - 4  # blinded's and unconscious's -4 are both status: one counts
    assert save_modifier(c, Save.REFLEX).total == 11 - 4
    assert save_modifier(c, Save.FORTITUDE).total == 7


@pytest.mark.rule("E2-57")
def test_off_guard_penalty_is_an_option() -> None:
    c = hero(conditions={"off-guard": 1})
    assert armor_class(c).total == 18
    assert armor_class(c, options=Sf2eOptions(off_guard_ac_penalty=3)).total == 17
    # the penalty type decides what it stacks with
    status = Sf2eOptions(off_guard_penalty_type="status")
    both = hero(conditions={"off-guard": 1, "unconscious": 1})
    assert armor_class(both, options=status).total == 16


@pytest.mark.rule("E2-54")
def test_frightened_penalty_equals_its_value_and_wears_off() -> None:
    c = hero(conditions={"frightened": 2})
    [m] = condition_mods(c, "will")
    assert (m.value, m.kind.value, m.label) == (-2, "status", "frightened 2")
    assert explain("x", condition_mods(c, "skill")).total == -2
    assert end_of_turn(c).condition("frightened") == 1
    assert end_of_turn(c, frightened_sustained=True).condition("frightened") == 2
    assert not end_of_turn(end_of_turn(c)).has("frightened")
    untyped = Sf2eOptions(frightened_penalty_type="untyped")
    assert condition_mods(c, "will", untyped)[0].kind.value == "untyped"


@pytest.mark.rule("E2-59")
def test_slowed_counts_down_by_option() -> None:
    c = hero(conditions={"slowed": 2})
    assert end_of_turn(c).condition("slowed") == 1
    assert end_of_turn(c, options=Sf2eOptions(slowed_decreases_each_turn=False)).condition("slowed") == 2


@pytest.mark.rule("E2-53", "E2-55", "E2-56", "E2-61", "E2-62")
def test_targeting_by_awareness() -> None:
    assert targeting_dc(Awareness.OBSERVED) is None and targeting(Awareness.OBSERVED, ScriptedDice([])) is None
    assert targeting_dc(Awareness.CONCEALED) == 5
    assert targeting_dc(Awareness.HIDDEN) == 11
    assert targeting_dc(Awareness.HIDDEN, Sf2eOptions(hidden_flat_check_dc=15)) == 15
    for state, rule in (
        (Awareness.UNDETECTED, "E2-61"),
        (Awareness.UNNOTICED, "E2-62"),
        (Awareness.INVISIBLE, "E2-56"),
    ):
        with pytest.raises(RuleViolation, match=rule):
            targeting_dc(state)
    check = targeting(Awareness.HIDDEN, ScriptedDice([11]))
    assert check is not None and check.succeeded and check.flat


@pytest.mark.rule("E2-58", "E2-52")
def test_conditions_without_numbers_give_no_modifiers() -> None:
    for name in ("quickened", "broken", "prone", "concealed", "hidden", "invisible"):
        assert condition_mods({name: 1}, "ac") == [] and condition_mods({name: 1}, "attack") == []
