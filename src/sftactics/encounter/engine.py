"""The engine's entry point: ``step(state, command, dice) -> StepResult``.

``step`` is pure with respect to the encounter: it never changes the state it is given. A refused command
raises :class:`~sftactics.core.errors.RuleViolation` (or another ``SftError``) and the caller still holds the
untouched state. :class:`Fight` wraps a state, a dice source and the command/event log for interactive and
scripted use: ``do``, ``undo``, ``save`` (JSON lines) and ``load``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from sftactics.core.errors import CommandError, FileFormatError, RuleViolation, SftError
from sftactics.dice.source import DiceSource, SeededDice
from sftactics.encounter import confusion, driving, flow, footing, hands, perception, restraint
from sftactics.encounter.actions import HANDLERS, Ctx
from sftactics.encounter.commands import Command, command_actor, parse_command
from sftactics.encounter.events import EVENT_ADAPTER, Event, replay
from sftactics.encounter.state import Encounter
from sftactics.encounter.tx import ReactionDecider, Tx

#: Commands a GM may send at any time (no actor, no turn order).
GM_COMMANDS = frozenset({"damage", "heal", "add_condition", "remove_condition", "end_combat", "trigger", "join",
                         "ability_damage", "restore_ability", "negative_levels", "remove_negative_levels",
                         "add_effect", "end_effect", "rest", "willing", "area_effect", "check",
                         "stability_check", "impose_cover"})  # fmt: skip
#: GM commands that still work once the combat is over: the fight's aftermath is the GM's too
AFTER_THE_END = GM_COMMANDS - {"end_combat", "trigger", "join"}


@dataclass(frozen=True)
class StepResult:
    state: Encounter
    events: list[Event]


def step(state: Encounter, command: Command, dice: DiceSource, *, decide: ReactionDecider | None = None) -> StepResult:
    """Validate and resolve one command. Raises RuleViolation (state untouched) when it breaks a rule.
    ``decide`` is asked before each attack of opportunity (default: every combatant takes the ones it can)."""
    if state.result is not None and command.type != "begin" and command.type not in AFTER_THE_END:
        raise RuleViolation("CF-02", f"the combat is over ({state.result.reason})")
    tx = Tx(state, dice, decide)
    actor = command_actor(command)
    t = tx.state.timeline
    if (
        t.phase in ("surprise", "round")
        and t.turn is None
        and command.type not in GM_COMMANDS
        and command.type != "resume"
    ):
        flow.advance(tx)  # between turns: anyone but a delayer coming back in lets the next turn start
    if actor is not None and command.type not in ("resume", "trigger"):
        me = tx.state.get(actor)  # unknown names are refused before anything happens
        confusion.check_command(tx.state, command)  # a confused creature bound to attack someone (CON-06)
        if tx.state.timeline.turn == actor:
            restraint.check(me, command)  # grappled, pinned, panicked: refused naming the condition
        driving.check_command(tx.state, command)  # riders leave their vehicle before walking (VEH-14)
    HANDLERS[command.type](tx, command, Ctx())
    driving.settle(tx)  # pilots knocked out or delaying leave their vehicles uncontrolled (VEH-23)
    hands.drop_forced(tx)  # panicked and stunned creatures drop what they hold
    footing.settle_recovered(tx, state)
    footing.refresh_squeezing(tx)
    perception.refresh(tx)
    flow.check_end(tx)
    events = tx.finish()
    return StepResult(tx.state, events)


class _NeedsDice(Exception):
    pass


class _NoDice(DiceSource):
    """Dice for a look ahead that must not roll: asking for a die stops the look."""

    def _next(self, sides: int, purpose: str) -> int:
        raise _NeedsDice(purpose)


def pending(state: Encounter) -> str | None:
    """Whose decision the engine is waiting for: the combatant whose turn it is, or (between turns) the one
    whose command the engine accepts next: the combatant whose turn it would start, passing turns with nothing
    to decide and starting a new round when only delayers are left, exactly as a command would (CF-12, ACT-71).
    When starting that turn needs dice (bleeding, a confusion roll...), the combatant whose turn was being
    started then (:func:`pending_needs_dice`: the dice may still pass it). None when the combat is over or has
    not begun, or when it would end before anyone decides."""
    if state.result is not None or state.timeline.phase in ("setup", "ended"):
        return None
    if state.timeline.turn is not None:
        return state.timeline.turn
    ahead, needs_dice = _look_ahead(state)
    if needs_dice:  # the turn being started when a die was needed is the one the engine will start
        return ahead.timeline.turn or flow.next_in_order(state) or flow.next_in_order(_next_round(state))
    if ahead.result is not None:
        return None
    return ahead.timeline.turn


def _look_ahead(state: Encounter) -> tuple[Encounter, bool]:
    """Start the next turn as a command would, without dice: the state reached, and whether a die was needed
    (the state is then the one at that moment)."""
    tx = Tx(state, _NoDice())
    try:
        flow.advance(tx)
    except _NeedsDice:
        return tx.state, True
    return tx.state, False


def pending_needs_dice(state: Encounter) -> bool:
    """Whether starting the next turn needs dice (a confusion roll, burning or bleeding damage...): then who
    decides next depends on them (a confused creature that babbles passes its turn) and :func:`pending` names
    the combatant whose turn the engine will try to start first."""
    if state.result is not None or state.timeline.phase in ("setup", "ended") or state.timeline.turn is not None:
        return False
    return _look_ahead(state)[1]


def _next_round(state: Encounter) -> Encounter:
    """The order as a new round would find it: nobody has acted and nobody is delaying any more."""
    s = state.with_timeline(done=())
    for cid in flow.delayers(state):
        s = s.update(cid, delaying=False)
    return s


@dataclass
class Fight:
    """A fight in progress: the state, its dice, and the log of commands and events since the start."""

    start: Encounter
    dice: DiceSource
    state: Encounter = field(init=False)
    commands: list[Command] = field(default_factory=list)
    events: list[list[Event]] = field(default_factory=list)
    seed: int | None = None
    decide: ReactionDecider | None = None

    def __post_init__(self) -> None:
        self.state = self.start

    @classmethod
    def seeded(cls, start: Encounter, seed: int) -> Fight:
        return cls(start, SeededDice(seed), seed=seed)

    def do(self, command: Command | dict[str, Any]) -> list[Event]:
        cmd = parse_command(command) if isinstance(command, dict) else command
        mark = self.dice.snapshot()
        try:
            result = step(self.state, cmd, self.dice, decide=self.decide)
        except SftError:
            # nothing half-applied: the dice a refused command rolled are taken back too
            self.dice.restore(mark)
            raise
        self.state = result.state
        self.commands.append(cmd)
        self.events.append(result.events)
        return result.events

    def undo(self) -> Command:
        """Take back the last command: replay the others from the start (seeded dice re-roll identically)."""
        if not self.commands:
            raise SftError("nothing to undo")
        last = self.commands[-1]
        kept = self.events[:-1]
        self.state = replay(self.start, (e for batch in kept for e in batch))
        self.commands.pop()
        self.events.pop()
        if isinstance(self.dice, SeededDice):
            self.dice = _reseed(self.dice, self.state.dice_used)
        else:
            del self.dice.history[self.state.dice_used :]
        return last

    def all_events(self) -> list[Event]:
        return [e for batch in self.events for e in batch]

    # ------------------------------------------------------------------ files
    def save(self, path: str | Path) -> None:
        """The log as JSON lines: a header with the starting state and seed, then one line per command with
        its events."""
        with Path(path).open("w", encoding="utf-8") as f:
            f.write(json.dumps({"start": self.start.model_dump(mode="json"), "seed": self.seed}) + "\n")
            for cmd, evs in zip(self.commands, self.events, strict=True):
                f.write(
                    json.dumps(
                        {"command": cmd.model_dump(mode="json"), "events": [e.model_dump(mode="json") for e in evs]}
                    )
                    + "\n"
                )

    @classmethod
    def load(cls, path: str | Path) -> Fight:
        """Resume a saved fight: its state is the replay of the saved events; seeded dice continue where they
        stopped."""
        name = str(path)
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except OSError as e:
            raise FileFormatError(name, "", f"cannot be read ({e.strerror})") from None
        if not lines:
            raise FileFormatError(name, "line 1", "a header line with the starting state")
        try:
            head = json.loads(lines[0])
            start = Encounter.model_validate(head["start"])
            seed = head.get("seed")
            if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
                raise TypeError("seed")
        except (json.JSONDecodeError, KeyError, ValidationError, TypeError, AttributeError, RecursionError) as e:
            raise FileFormatError(
                name, "line 1", f"a header with 'start' and 'seed' ({e.__class__.__name__})"
            ) from None
        dice: DiceSource = SeededDice(seed if seed is not None else 0)
        fight = cls(start, dice, seed=seed)
        for i, line in enumerate(lines[1:], start=2):
            try:
                rec = json.loads(line)
                cmd = parse_command(rec["command"])
                evs = [EVENT_ADAPTER.validate_python(e) for e in rec["events"]]
            except (json.JSONDecodeError, KeyError, ValidationError, CommandError, TypeError, RecursionError) as e:
                raise FileFormatError(
                    name, f"line {i}", f"a command with its events ({e.__class__.__name__})"
                ) from None
            fight.commands.append(cmd)
            fight.events.append(evs)
        try:
            fight.state = replay(start, fight.all_events())
        except (SftError, KeyError, ValueError, TypeError, AttributeError, IndexError) as e:
            raise FileFormatError(name, "", f"events that replay from the starting state ({e})") from None
        rolled = [d for e in fight.all_events() if e.type == "dice_rolled" for d in e.dice]
        fight.dice = _seeded_after(seed if seed is not None else 0, [(d[0], d[2]) for d in rolled])
        return fight


def _reseed(dice: SeededDice, used: int) -> SeededDice:
    """A seeded source positioned after the first ``used`` of its dice (its history keeps those dice)."""
    return _seeded_after(dice.seed, [(d.sides, d.purpose) for d in dice.history[:used]])


def _seeded_after(seed: int, rolled: list[tuple[int, str]]) -> SeededDice:
    """A seeded source that has already rolled these dice (same sides in the same order: same stream)."""
    fresh = SeededDice(seed)
    for sides, purpose in rolled:
        fresh.die(sides, purpose)
    return fresh


def run_commands(start: Encounter, commands: Iterable[Command | dict[str, Any]], dice: DiceSource) -> Fight:
    fight = Fight(start, dice, seed=getattr(dice, "seed", None))
    for c in commands:
        fight.do(c)
    return fight
