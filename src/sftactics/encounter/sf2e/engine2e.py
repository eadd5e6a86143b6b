"""``step2e``: one command of a 2E fight, through the shared transaction (``Tx``) and events.

The 2E handlers are a table like the 1E one; a command the 2nd edition does not play (a 1E full attack, a
combat maneuver...) is refused naming the edition. GM commands may come at any time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.encounter import flow
from sftactics.encounter.events import CombatEnded, Event
from sftactics.encounter.sf2e import actions2e as a2
from sftactics.encounter.sf2e import flow2e, gm2e
from sftactics.encounter.state import Encounter
from sftactics.encounter.tx import ReactionDecider, Tx


def _begin(tx: Tx, cmd: Any) -> None:
    if tx.state.timeline.phase != "setup":
        raise RuleViolation("CF-01", "the combat has already begun")
    flow2e.begin(tx)


def _end_turn(tx: Tx, cmd: Any) -> None:
    tx.state.require_turn(cmd.actor, "E2-42")
    flow2e.end_turn(tx, cmd.actor)


def _end_combat(tx: Tx, cmd: Any) -> None:
    if tx.state.result is not None:
        raise RuleViolation("CF-02", "the combat is already over")
    sides = flow.able_sides(tx.state)
    winner = sides[0] if len(sides) == 1 else None
    tx.emit(CombatEnded(winner=winner, reason=cmd.reason, round=tx.state.timeline.round))


HANDLERS2E: dict[str, Callable[[Tx, Any], None]] = {
    "begin": _begin,
    "end_turn": _end_turn,
    "end_combat": _end_combat,
    "strike": a2.strike,
    "stride": a2.stride,
    "step_2e": a2.step,
    "leap": a2.leap,
    "crawl": lambda tx, cmd: a2.crawl(tx, cmd.actor, cmd.to),
    "drop_prone": lambda tx, cmd: a2.drop_prone(tx, cmd.actor),
    "stand_up": lambda tx, cmd: a2.stand(tx, cmd.actor),
    "take_cover": a2.take_cover,
    "interact": a2.interact,
    "seek": a2.seek,
    "basic_save": a2.basic_save,
    "damage": gm2e.damage,
    "heal": gm2e.heal_hp,
    "add_condition": gm2e.add_condition,
    "remove_condition": gm2e.remove_condition,
}
#: Commands with no actor: the GM's, at any time.
GM_COMMANDS2E = frozenset({"begin", "end_combat", "basic_save", "damage", "heal", "add_condition", "remove_condition"})


def step2e(
    state: Encounter, command: Any, dice: DiceSource, decide: ReactionDecider | None = None
) -> tuple[Encounter, list[Event]]:
    """Validate and resolve one command of a 2E fight; RuleViolation (state untouched) when it breaks a rule."""
    handler = HANDLERS2E.get(command.type)
    if handler is None:
        raise RuleViolation("E2-50", f"{command.type} is a 1st-edition command; this fight plays the 2nd edition")
    if state.result is not None and command.type not in GM_COMMANDS2E - {"end_combat"}:
        raise RuleViolation("CF-02", f"the combat is over ({state.result.reason})")
    tx = Tx(state, dice, decide)
    t = tx.state.timeline
    if t.phase == "round" and t.turn is None and command.type not in GM_COMMANDS2E:
        flow2e.advance(tx)
    actor = getattr(command, "actor", None)
    if actor is not None:
        tx.state.get(actor)  # unknown names are refused before anything happens
    handler(tx, command)
    flow.check_end(tx)
    if command.type in ("begin", "end_turn"):
        flow2e.advance(tx)
    events = tx.finish()
    return tx.state, events
