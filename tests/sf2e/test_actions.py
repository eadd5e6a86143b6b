"""The three-action economy (sftactics.sf2e.actions): E2-13, E2-42..50, E2-58, E2-59."""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.sf2e.actions import (
    BASIC_ACTIONS,
    DOWNTIME_ACTIVITIES,
    EXPLORATION_ACTIVITIES,
    SENTENCES_PER_ROUND,
    SPEAKING,
    ActionDef,
    Activity,
    Cost,
    begin,
    end_turn,
    finish,
    interrupt,
    start_turn,
    use,
)
from sftactics.sf2e.options import Sf2eOptions

from .make import hero

STRIKE, STRIDE, STEP = BASIC_ACTIONS["Strike"], BASIC_ACTIONS["Stride"], BASIC_ACTIONS["Step"]
BURST = ActionDef("Sudden Charge", Cost.TWO, "Stride twice and Strike", frozenset({"flourish"}))
BLAST = ActionDef("Overload", Cost.THREE, "a three-action activity")
REACTIVE_STRIKE = ActionDef(
    "Reactive Strike", Cost.REACTION, "Strike a creature leaving reach", frozenset({"attack"}), "an enemy moves"
)
DRAW = ActionDef("Quick Draw", Cost.FREE, "draw a weapon")
SHIELD = ActionDef("Reflexive Shield", Cost.FREE, "raise a shield", trigger="an attack targets you")


@pytest.mark.rule("E2-42")
def test_three_actions_and_a_reaction_each_turn() -> None:
    b = start_turn(hero())
    assert (b.actions, b.reaction, b.own_turn) == (3, True, True)
    b = use(use(use(b, STRIKE), STRIDE), STEP)
    assert b.actions == 0
    with pytest.raises(RuleViolation, match="E2-42"):
        use(b, STRIKE)
    assert use(b, DRAW).actions == 0  # free actions need no action


@pytest.mark.rule("E2-43")
def test_activities_spend_their_actions_together_and_are_lost_if_interrupted() -> None:
    b = start_turn(hero())
    assert use(b, BURST).actions == 1
    with pytest.raises(RuleViolation, match="needs 3"):
        use(use(b, STRIKE), BLAST)
    going = begin(b, BLAST)
    assert going.in_progress == "Overload" and going.actions == 0
    stopped = interrupt(going)
    assert stopped.actions == 0 and stopped.in_progress == "" and "interrupted" in stopped.log[-1]
    with pytest.raises(RuleViolation, match="E2-43"):
        interrupt(stopped)


@pytest.mark.rule("E2-44", "E2-13")
def test_reactions_need_a_trigger_and_come_back_at_the_start_of_the_turn() -> None:
    off_turn = end_turn(start_turn(hero()))
    used = use(off_turn, REACTIVE_STRIKE)
    assert not used.reaction and used.attacks == 0  # not on its own turn: no multiple attack penalty count
    with pytest.raises(RuleViolation, match="E2-44"):
        use(used, REACTIVE_STRIKE)
    with pytest.raises(RuleViolation, match="E2-44"):
        use(off_turn, ActionDef("Brace", Cost.REACTION))
    assert start_turn(hero(), used).reaction


@pytest.mark.rule("E2-45")
def test_free_actions() -> None:
    off_turn = end_turn(start_turn(hero()))
    with pytest.raises(RuleViolation, match="E2-45"):
        use(off_turn, DRAW)  # without a trigger: only on its own turn
    shielded = use(off_turn, SHIELD)
    assert shielded.reaction  # a triggered free action does not use the reaction (option)
    with pytest.raises(RuleViolation, match="E2-45"):
        use(shielded, SHIELD)  # once per trigger
    assert use(shielded, SHIELD, trigger="a second attack targets you").reaction
    costly = Sf2eOptions(triggered_free_uses_reaction=True, triggered_free_once_per_trigger=False)
    spent = use(off_turn, SHIELD, options=costly)
    assert not spent.reaction
    with pytest.raises(RuleViolation, match="E2-45"):
        use(spent, SHIELD, options=costly)


@pytest.mark.rule("E2-46")
def test_one_action_at_a_time_but_reactions_interrupt() -> None:
    going = begin(start_turn(hero()), BURST)
    with pytest.raises(RuleViolation, match="E2-46"):
        begin(going, STEP)
    with pytest.raises(RuleViolation, match="E2-46"):
        begin(going, DRAW)
    with pytest.raises(RuleViolation, match="E2-46"):
        end_turn(going)
    reacted = use(going, REACTIVE_STRIKE)
    assert reacted.in_progress == "Sudden Charge" and not reacted.reaction
    assert use(going, SHIELD).in_progress == "Sudden Charge"
    assert finish(going).in_progress == ""


@pytest.mark.rule("E2-47", "E2-13")
def test_subordinate_actions_cost_nothing_and_keep_their_traits() -> None:
    going = begin(start_turn(hero()), BURST)
    inner = begin(going, STRIDE, subordinate=True)
    inner = begin(inner, STRIKE, subordinate=True)
    assert inner.actions == 1 and inner.attacks == 1 and inner.attack_number == 2
    with pytest.raises(RuleViolation, match="E2-47"):
        begin(start_turn(hero()), STRIKE, subordinate=True)


@pytest.mark.rule("E2-13")
def test_attacks_are_counted_for_the_multiple_attack_penalty() -> None:
    b = use(use(start_turn(hero()), STRIKE), STRIKE)
    assert b.attack_number == 3
    assert end_turn(b).attacks == 0


@pytest.mark.rule("E2-58", "E2-59")
def test_quickened_and_slowed_change_the_actions() -> None:
    quick = start_turn(hero(conditions={"quickened": 1}), quickened_for={"Stride", "Strike"})
    assert (quick.actions, quick.quickened) == (3, 1)
    b = use(use(use(quick, STEP), STEP), STEP)
    with pytest.raises(RuleViolation, match="E2-42"):
        use(b, ActionDef("Interact", Cost.ONE))  # the extra action is only for what the effect allows
    assert use(b, STRIDE).quickened == 0
    assert start_turn(hero(conditions={"slowed": 1})).actions == 2
    both = start_turn(hero(conditions={"slowed": 4, "quickened": 1}))
    assert (both.actions, both.quickened) == (0, 0)


@pytest.mark.rule("E2-42", "E2-40")
def test_unconscious_creatures_cannot_act() -> None:
    b = start_turn(hero(conditions={"unconscious": 1}))
    assert (b.actions, b.reaction) == (0, False)


@pytest.mark.rule("E2-48")
def test_speaking_costs_no_action() -> None:
    assert SPEAKING.cost is Cost.FREE and "auditory" in SPEAKING.traits and SENTENCES_PER_ROUND == 1


@pytest.mark.rule("E2-49")
def test_exploration_and_downtime_activities_are_named() -> None:
    assert {a.value for a in EXPLORATION_ACTIVITIES} == {
        "Avoid Notice",
        "Detect Magic",
        "Scouting",
        "Searching",
        "Investigating",
    }
    assert Activity.REPAIR_OR_CRAFT in DOWNTIME_ACTIVITIES and not EXPLORATION_ACTIVITIES & DOWNTIME_ACTIVITIES


@pytest.mark.rule("E2-50")
def test_basic_actions() -> None:
    assert set(BASIC_ACTIONS) == {
        "Interact",
        "Leap",
        "Seek",
        "Sense Motive",
        "Step",
        "Stride",
        "Strike",
        "Crawl",
        "Drop Prone",
        "Stand",
    }
    assert all(a.cost is Cost.ONE for a in BASIC_ACTIONS.values())
    assert "attack" in STRIKE.traits and "move" in STRIDE.traits
