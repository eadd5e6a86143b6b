"""``sftactics play``: a fight run at the table, one short command at a time.

A :class:`Session` holds a :class:`~sftactics.encounter.engine.Fight` and talks to a GM through a rich console:
before each prompt (whenever the fight changed) it shows the initiative tracker and what the combatant whose
turn it is has left; it reads a line, turns it into a command for that combatant (or a GM command, or a
session command such as ``undo``), lets the engine resolve it and narrates the events. A refused command
prints the rule it breaks and changes nothing; no line a person types ends in a traceback.

Dice come from one :class:`TableDice` source that either rolls (seeded) or asks the person for the result of
their physical die; switching between the two keeps one history, so undo, save and resume see every die.
"""

from __future__ import annotations

import difflib
import json
import re
import shlex
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from rich.console import Console
from rich.table import Table
from rich.text import Text

from sftactics.core.errors import CommandError, RuleViolation, SftError
from sftactics.dice.source import DiceSource, DieRoll, SeededDice
from sftactics.encounter import budget, narrate
from sftactics.encounter.commands import (
    AddCondition,
    Attack,
    Begin,
    Command,
    Damage,
    Delay,
    DropProne,
    EndCombat,
    EndTurn,
    FirstAid,
    FullAttack,
    Heal,
    Move,
    RemoveCondition,
    Resume,
    StabilizeWithResolve,
    StandUp,
    StayInTheFight,
    TotalDefense,
    parse_command,
)
from sftactics.encounter.engine import GM_COMMANDS, Fight, pending
from sftactics.encounter.events import DiceRolled, Event
from sftactics.encounter.policy import simple
from sftactics.encounter.runner import auto_play
from sftactics.encounter.state import Combatant, Effect, Encounter
from sftactics.sf1e import stats

#: ``auto all`` ends the fight (as the GM) after this many rounds.
MAX_ROUNDS = 50

Ask = Callable[[int, str], int | None]

HELP = """\
Commands for the combatant whose turn it is (names: any case, a unique beginning is enough):
  attack TARGET [with WEAPON] [nonlethal] [defensively]   one attack (standard action)
  full TARGET [with WEAPON] [then TARGET2 [with WEAPON2]] [defensively]   full attack
  move X,Y [X,Y ...]       move to a square (one square) or along a path (several)
  defend | prone | stand   total defense | drop prone | stand up
  delay | resume NAME      delay this turn | a delaying combatant acts now (between turns)
  stabilize | stay         spend Resolve to stabilize | to stay in the fight
  aid TARGET [BONUS]       first aid (Medicine bonus if the stat block has none)
  end                      end the turn
  auto | auto all          the simple policy takes this turn | runs the rest of the fight
GM commands (any time):
  damage NAME AMOUNT|DICE [nonlethal]    e.g. damage krask 7, damage krask 2d6 F
  heal NAME HP [SP]        cond NAME CONDITION [ROUNDS] [VALUE]      uncond NAME CONDITION
  endcombat [REASON]
  {"type": ...}            any command as JSON, e.g. {"type": "ready", "action": {"type": "attack",
                           "target": "Ksarik"}, "trigger": "enters_reach"} (actor defaults to the current one)
Session:
  dice me | dice engine    type your own die results | let the engine roll (seeded)
  reactions ask | auto     decide each attack of opportunity yourself | always take them
  undo [N]   save FILE   log [N|all]   show   brief | verbose   help   quit
At a dice prompt: the number rolled, 'roll' to let the engine roll that die, or 'cancel' to drop the command."""


class Usage(SftError):
    """A line that could not be read as a command (the message says how to write it)."""


class Cancelled(Exception):
    """The person cancelled the command at a dice prompt. ``eof``: the input ended (leave the session).

    Deliberately not an :class:`SftError`, so that no rule code can mistake it for a refusal and carry on."""

    def __init__(self, eof: bool = False) -> None:
        super().__init__("input ended" if eof else "cancelled")
        self.eof = eof


class TableDice(DiceSource):
    """The session's one dice source: a seeded stream, or a person typing physical results (``manual``).

    The seeded stream advances by one die for every die in ``history``, whoever rolled it, so it stays where a
    saved log resumes it (:meth:`Fight.load` positions a seeded source the same way) and undo re-rolls the
    same engine dice. When something outside truncates ``history`` (a refused command, undo), the stream is
    rebuilt before the next die."""

    def __init__(self, seed: int, ask: Ask, *, manual: bool = False, history: Iterable[DieRoll] = ()) -> None:
        super().__init__()
        self.seed = seed
        self.manual = manual
        self._ask = ask
        self.history.extend(history)
        self._engine = SeededDice(seed)
        self._sync()

    def _sync(self) -> None:
        if len(self._engine.history) == len(self.history):
            return
        fresh = SeededDice(self.seed)
        for d in self.history:
            fresh.die(d.sides, d.purpose)
        self._engine = fresh

    def _next(self, sides: int, purpose: str) -> int:
        self._sync()
        typed = self._ask(sides, purpose) if self.manual else None
        rolled = self._engine.die(sides, purpose)
        return rolled if typed is None else typed


def play(
    path: Path,
    *,
    seed: int,
    physical: bool,
    console: Console,
    input_fn: Callable[[str], str] | None = None,
) -> None:
    """Run an interactive fight from a scenario file (or resume a saved ``.jsonl`` fight log) until the combat
    ends or the person quits. Lines are read with ``input_fn`` (default ``console.input``); lines read through
    ``input_fn`` are echoed after their prompt, so a scripted session's transcript reads like a live one."""
    Session.open(path, seed=seed, physical=physical, console=console, input_fn=input_fn).run()


class Session:
    """One person (the GM) running one fight."""

    def __init__(
        self,
        fight: Fight,
        *,
        seed: int,
        physical: bool,
        console: Console,
        input_fn: Callable[[str], str] | None = None,
    ) -> None:
        self.console = console
        self._input = input_fn
        self.verbose = True
        history = [DieRoll(s, r, p) for e in fight.all_events() if isinstance(e, DiceRolled) for s, r, p in e.dice]
        if fight.seed is None:
            fight.seed = seed
        self.dice = TableDice(fight.seed, self._ask_die, manual=physical, history=history)
        fight.dice = self.dice
        self.fight = fight
        self._shown: Encounter | None = None
        self._verbs: dict[str, Callable[[list[str]], bool | None]] = {
            "attack": self._attack,
            "full": self._full,
            "move": self._move,
            "defend": self._simple(TotalDefense),
            "prone": self._simple(DropProne),
            "stand": self._simple(StandUp),
            "delay": self._simple(Delay),
            "stabilize": self._simple(StabilizeWithResolve),
            "stay": self._simple(StayInTheFight),
            "end": self._end,
            "resume": self._resume,
            "aid": self._aid,
            "auto": self._auto,
            "damage": self._damage,
            "heal": self._heal,
            "cond": self._cond,
            "uncond": self._uncond,
            "endcombat": self._endcombat,
            "begin": self._begin,
            "dice": self._dice_mode,
            "reactions": self._reactions_mode,
            "undo": self._undo,
            "save": self._save,
            "log": self._log,
            "show": self._show,
            "brief": self._brief,
            "verbose": self._verbose,
            "help": self._help,
            "quit": self._quit,
            "exit": self._quit,
        }

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        seed: int,
        physical: bool,
        console: Console,
        input_fn: Callable[[str], str] | None = None,
    ) -> Session:
        """A session on a scenario file, or on a saved fight log (``.jsonl``: the fight continues where it
        stopped; its own seed wins over ``seed``)."""
        if Path(path).suffix.lower() == ".jsonl":
            fight = Fight.load(path)
        else:
            from sftactics.io.scenario import load_scenario

            fight = Fight(load_scenario(path), SeededDice(seed), seed=seed)
        return cls(fight, seed=seed, physical=physical, console=console, input_fn=input_fn)

    # ------------------------------------------------------------------ the loop
    def run(self) -> None:
        """Begin the fight if needed, then read and carry out commands until the combat ends or input ends."""
        state = self.fight.state
        if state.result is None and state.timeline.phase == "setup":
            self.say(f"{state.name}: the fight begins (dice: {self._dice_text()}).")
            if not self._execute(lambda: self._run(lambda: self.fight.do(Begin()))):
                return
        while True:
            if self.fight.state.result is not None:
                self._finish()
                return
            if self._shown is not self.fight.state:
                self.show()
            try:
                line = self._read(self._prompt())
            except (EOFError, KeyboardInterrupt):
                self.say("")
                return
            if not self.handle(line):
                return

    def handle(self, line: str) -> bool:
        """Carry out one line. False when the session should end."""
        line = line.strip()
        if not line:
            return True
        if line.startswith("{"):
            return self._execute(lambda: self._raw(line))
        try:
            words = shlex.split(line)
        except ValueError as e:
            self.say(f"Cannot read that line ({e}); type help for the commands.")
            return True
        if not words:
            return True
        verb, args = words[0].lower(), words[1:]
        handler = self._verbs.get(verb)
        if handler is None:
            close = difflib.get_close_matches(verb, list(self._verbs), n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            self.say(f"Unknown command {words[0]!r}{hint}; type help for the commands.")
            return True
        return self._execute(lambda: handler(args))

    def _execute(self, action: Callable[[], bool | None]) -> bool:
        """Run one step of the session, turning every failure into a message. False: end the session."""
        try:
            return action() is not False
        except Cancelled as e:
            if e.eof:
                self.say("Input ended: the command was dropped.")
                return False
            self.say("Cancelled: nothing changed.")
        except RuleViolation as e:
            self.say(f"Refused: {e}")
        except Usage as e:
            self.say(str(e))
        except CommandError as e:
            where = f"{e.field}: " if e.field else ""
            self.say(f"Not a valid command: {where}{e.expected}")
        except SftError as e:
            self.say(f"Refused: {e}")
        except ValidationError as e:
            self.say(f"Not a valid command: {_validation_text(e)}")
        except Exception as e:  # an engine bug must not end the session at the table
            self.say(f"Internal error, nothing changed ({type(e).__name__}: {e}); please report it.")
        finally:
            # a command that did not complete leaves no dice behind (the fight's state is the truth)
            used = self.fight.state.dice_used
            if len(self.dice.history) > used:
                del self.dice.history[used:]
        return True

    def _run(self, action: Callable[[], object]) -> None:
        """Run engine commands and narrate whatever they did, even if a later one fails."""
        mark = len(self.fight.events)
        try:
            action()
        finally:
            events = [e for batch in self.fight.events[mark:] for e in batch]
            self._narrate(events)

    def _do(self, cmd: Command) -> None:
        self._run(lambda: self.fight.do(cmd))

    # ------------------------------------------------------------------ input and output
    def say(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False)

    def _read(self, prompt: str) -> str:
        if self._input is None:
            return self.console.input(Text(prompt))
        line = self._input(prompt)
        self.console.print(Text(prompt + line), highlight=False)
        return line

    def _prompt(self) -> str:
        who = pending(self.fight.state)
        if who is None:
            return "(not begun: type begin) > " if self.fight.state.timeline.phase == "setup" else "> "
        return f"{who} > "

    def _ask_die(self, sides: int, purpose: str) -> int | None:
        """A physical die's result, asked until it is possible (None: the engine rolls this one)."""
        prompt = f"d{sides} for {purpose or 'a roll'}: "
        while True:
            try:
                raw = self._read(prompt).strip().lower()
            except EOFError:
                raise Cancelled(eof=True) from None
            except KeyboardInterrupt:
                raise Cancelled() from None
            if raw in ("cancel", "c"):
                raise Cancelled()
            if raw in ("roll", "r"):
                return None
            if raw.isdigit() and 1 <= int(raw) <= sides:
                return int(raw)
            self.say(f"  A d{sides} shows 1 to {sides}: type the result, 'roll' for the engine's die, or 'cancel'.")

    def _narrate(self, events: Sequence[Event]) -> None:
        for line in narrate.lines(events, verbose=self.verbose):
            self.say(line)

    def _dice_text(self) -> str:
        return "yours (typed)" if self.dice.manual else f"the engine's (seed {self.dice.seed})"

    def show(self) -> None:
        """The initiative tracker and the actions left to the combatant whose turn it is (or who is next)."""
        state = self.fight.state
        self.console.print(tracker(state))
        who = pending(state)
        if who is not None:
            self.console.print(actions_table(state, who, dice=self._dice_text()))
        self._shown = state

    def _finish(self) -> None:
        state = self.fight.state
        r = state.result
        assert r is not None
        self.say("")
        self.say(f"Result: {r.winner or 'nobody'} wins in round {r.round} ({r.reason}).")
        self.say("Final state:")
        for line in narrate.summary(state):
            self.say("  " + line)

    # ------------------------------------------------------------------ names
    def _name(self, text: str, pool: Iterable[str] | None = None) -> str:
        ids = list(self.fight.state.combatants) if pool is None else list(pool)
        return match_name(text, ids, "combatant")

    def _actor(self) -> str:
        who = pending(self.fight.state)
        if who is None:
            if self.fight.state.timeline.phase == "setup":
                raise Usage("The fight has not begun: type begin.")
            raise Usage("Nobody is waiting to act.")
        return who

    def _weapon(self, actor: str, text: str) -> str:
        names = [w.name for w in self.fight.state.creature(actor).stat.weapons]
        return match_name(text, names, f"weapon of {actor}", substring=True)

    # ------------------------------------------------------------------ turn commands
    def _attack(self, args: list[str]) -> None:
        flags, rest = _flags(args, ("nonlethal", "defensively"))
        actor = self._actor()
        target, weapon = self._target_weapon(actor, rest, "attack TARGET [with WEAPON] [nonlethal] [defensively]")
        self._do(
            Attack(
                actor=actor,
                target=target,
                weapon=weapon,
                nonlethal="nonlethal" in flags,
                fight_defensively="defensively" in flags,
            )
        )

    def _full(self, args: list[str]) -> None:
        flags, rest = _flags(args, ("defensively",))
        actor = self._actor()
        usage = "full TARGET [with WEAPON] [then TARGET2 [with WEAPON2]] [defensively]"
        low = [a.lower() for a in rest]
        first, second = (rest[: low.index("then")], rest[low.index("then") + 1 :]) if "then" in low else (rest, [])
        target, weapon = self._target_weapon(actor, first, usage)
        target2, weapon2 = self._target_weapon(actor, second, usage) if second else (None, None)
        self._do(
            FullAttack(
                actor=actor,
                target=target,
                weapon=weapon,
                second_target=target2,
                second_weapon=weapon2,
                fight_defensively="defensively" in flags,
            )
        )

    def _target_weapon(self, actor: str, words: list[str], usage: str) -> tuple[str, str | None]:
        low = [w.lower() for w in words]
        if "with" in low:
            i = low.index("with")
            who, weapon = " ".join(words[:i]), " ".join(words[i + 1 :])
            if not weapon:
                raise Usage(f"Which weapon? Usage: {usage}")
        else:
            who, weapon = " ".join(words), ""
        if not who:
            raise Usage(f"Who is the target? Usage: {usage}")
        return self._name(who), (self._weapon(actor, weapon) if weapon else None)

    def _move(self, args: list[str]) -> None:
        text = " ".join(args)
        squares = [(int(x), int(y)) for x, y in _SQUARE.findall(text)]
        if not squares or _SQUARE.sub("", text).strip():
            raise Usage("Usage: move X,Y (a square) or move X,Y X,Y ... (a path, without the square you are on)")
        actor = self._actor()
        if len(squares) == 1:
            self._do(Move(actor=actor, to=squares[0]))
        else:
            self._do(Move(actor=actor, path=tuple(squares)))

    def _simple(self, kind: Callable[..., Command]) -> Callable[[list[str]], None]:
        def run(args: list[str]) -> None:
            if args:
                raise Usage(f"That command takes no arguments (got {' '.join(args)!r}).")
            self._do(kind(actor=self._actor()))

        return run

    def _end(self, args: list[str]) -> None:
        if [a.lower() for a in args] not in ([], ["turn"]):
            raise Usage("Usage: end")
        self._do(EndTurn(actor=self._actor()))

    def _resume(self, args: list[str]) -> None:
        if not args:
            raise Usage("Usage: resume NAME (a delaying combatant comes back in now)")
        delaying = [c.id for c in self.fight.state.combatants.values() if c.delaying]
        if not delaying:
            raise Usage("Nobody is delaying.")
        self._do(Resume(actor=self._name(" ".join(args), delaying)))

    def _aid(self, args: list[str]) -> None:
        bonus: int | None = None
        if len(args) > 1 and _INT.fullmatch(args[-1]):
            bonus = int(args[-1])
            args = args[:-1]
        if not args:
            raise Usage("Usage: aid TARGET [BONUS]")
        self._do(FirstAid(actor=self._actor(), target=self._name(" ".join(args)), bonus=bonus))

    def _auto(self, args: list[str]) -> None:
        low = [a.lower() for a in args]
        if low == ["all"]:
            self._run(self._auto_all)
            return
        if low:
            raise Usage("Usage: auto (this turn) or auto all (the rest of the fight)")
        who = self._actor()
        state = self.fight.state
        if state.timeline.turn is None:
            delaying = ", ".join(c.id for c in state.combatants.values() if c.delaying)
            raise Usage(
                f"{who}'s turn has not started yet ({delaying} may still come back in): give {who} a command, "
                f"or 'resume' the delayer."
            )
        self._run(lambda: simple(self.fight, who))

    def _auto_all(self) -> None:
        """The simple policy plays everyone. Delaying combatants come back in at once (the policy never
        waits), because the policy cannot start a turn while the engine pauses for delayers."""
        fight = self.fight
        for _ in range(1000):
            s = fight.state
            delaying = [c.id for c in s.combatants.values() if c.delaying]
            if s.result is not None or not delaying:
                break
            if s.timeline.turn is not None:
                simple(fight, s.timeline.turn)
            else:
                fight.do(Resume(actor=delaying[0]))
        auto_play(fight, max_rounds=MAX_ROUNDS)

    # ------------------------------------------------------------------ GM commands
    def _damage(self, args: list[str]) -> None:
        flags, rest = _flags(args, ("nonlethal",))
        if len(rest) < 2:
            raise Usage("Usage: damage NAME AMOUNT|DICE [nonlethal], e.g. damage krask 7 or damage krask 2d6 F")
        target = self._name(rest[0])
        amount = " ".join(rest[1:])
        if _INT.fullmatch(amount):
            self._do(Damage(target=target, amount=int(amount), nonlethal="nonlethal" in flags))
        else:
            self._do(Damage(target=target, roll=amount, nonlethal="nonlethal" in flags))

    def _heal(self, args: list[str]) -> None:
        if len(args) not in (2, 3) or not all(_INT.fullmatch(a) for a in args[1:]):
            raise Usage("Usage: heal NAME HP [SP] (whole numbers)")
        sp = int(args[2]) if len(args) == 3 else 0
        self._do(Heal(target=self._name(args[0]), hp=int(args[1]), sp=sp))

    def _cond(self, args: list[str]) -> None:
        if len(args) < 2:
            raise Usage("Usage: cond NAME CONDITION [ROUNDS] [VALUE], e.g. cond krask shaken 3")
        rounds: int | None = None
        value: list[str] = []
        for a in args[2:]:
            if rounds is None and _INT.fullmatch(a):
                rounds = int(a)
            else:
                value.append(a)
        self._do(
            AddCondition(target=self._name(args[0]), condition=args[1], rounds=rounds, value=" ".join(value) or None)
        )

    def _uncond(self, args: list[str]) -> None:
        if len(args) != 2:
            raise Usage("Usage: uncond NAME CONDITION")
        self._do(RemoveCondition(target=self._name(args[0]), condition=args[1]))

    def _endcombat(self, args: list[str]) -> None:
        self._do(EndCombat(reason=" ".join(args)) if args else EndCombat())

    def _raw(self, line: str) -> None:
        try:
            data = json.loads(line)
        except json.JSONDecodeError as e:
            raise Usage(f"Not valid JSON: {e.msg} at column {e.colno}.") from None
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise Usage('A JSON command is an object with a "type", e.g. {"type": "end_turn"}.')
        kind = data["type"]
        who = pending(self.fight.state)
        if "actor" not in data and kind not in GM_COMMANDS and kind != "begin" and who is not None:
            data["actor"] = who
        inner = data.get("action")
        if kind == "ready" and isinstance(inner, dict) and "actor" not in inner and "actor" in data:
            data["action"] = {**inner, "actor": data["actor"]}
        self._do(parse_command(data))

    def _begin(self, args: list[str]) -> None:
        self._do(Begin())

    # ------------------------------------------------------------------ session commands
    def _dice_mode(self, args: list[str]) -> None:
        low = [a.lower() for a in args]
        if low in (["me"], ["mine"], ["physical"]):
            self.dice.manual = True
        elif low in (["engine"], ["auto"], ["seeded"]):
            self.dice.manual = False
        elif low:
            raise Usage("Usage: dice me (type your own results) or dice engine (the engine rolls)")
        self.say(f"Dice: {self._dice_text()}.")

    def _reactions_mode(self, args: list[str]) -> None:
        low = [a.lower() for a in args]
        if low == ["ask"]:
            self.fight.decide = self._ask_reaction
        elif low in (["auto"], ["always"]):
            self.fight.decide = None
        elif low:
            raise Usage("Usage: reactions ask (you decide each attack of opportunity) or reactions auto (always take)")
        mode = "asked" if self.fight.decide is not None else "always taken"
        self.say(f"Attacks of opportunity: {mode}.")

    def _ask_reaction(self, state: Encounter, reactor: str, provoker: str, why: str) -> bool:
        while True:
            answer = self._read(f"{provoker} {why}: does {reactor} take an attack of opportunity? [y/n] ")
            if answer.strip().lower() in ("y", "yes", ""):
                return True
            if answer.strip().lower() in ("n", "no"):
                return False
            self.say("Answer y or n.")

    def _undo(self, args: list[str]) -> None:
        if len(args) > 1 or (args and not (_INT.fullmatch(args[0]) and int(args[0]) >= 1)):
            raise Usage("Usage: undo [N] (take back the last N commands, default 1)")
        n = int(args[0]) if args else 1
        for _ in range(n):
            if not self.fight.commands:
                self.say("Nothing (more) to undo.")
                break
            last = self.fight.undo()
            self.say(f"Undone: {_command_text(last)}")
        self.show()

    def _save(self, args: list[str]) -> None:
        if len(args) != 1:
            raise Usage("Usage: save FILE (the fight log as JSON lines; resume with sftactics play FILE)")
        path = Path(args[0])
        try:
            self.fight.save(path)
        except OSError as e:
            raise SftError(f"{path}: cannot be written ({e.strerror})") from None
        self.say(f"Saved {len(self.fight.commands)} commands to {path}.")

    def _log(self, args: list[str]) -> None:
        low = [a.lower() for a in args]
        if low == ["all"]:
            batches = self.fight.events
        elif not low or (len(low) == 1 and _INT.fullmatch(low[0])):
            n = int(low[0]) if low else 1
            batches = self.fight.events[-n:] if n > 0 else []
        else:
            raise Usage("Usage: log [N|all] (the events of the last N commands, default 1)")
        if not batches:
            self.say("Nothing has happened yet.")
        self._narrate([e for batch in batches for e in batch])

    def _show(self, args: list[str]) -> None:
        self.show()

    def _brief(self, args: list[str]) -> None:
        self.verbose = False
        self.say("Narration: one line per attack.")

    def _verbose(self, args: list[str]) -> None:
        self.verbose = True
        self.say("Narration: every number explained.")

    def _help(self, args: list[str]) -> None:
        self.say(HELP)

    def _quit(self, args: list[str]) -> bool:
        return False


# ---------------------------------------------------------------------- views
def tracker(state: Encounter) -> Table:
    """The initiative tracker: order, counts, whose turn, side, pools, conditions and effects with their
    durations, delaying and readied flags."""
    t = state.timeline
    if t.phase == "setup":
        title = f"{state.name}: not begun"
    elif t.phase == "surprise":
        title = f"{state.name}: surprise round"
    elif t.phase == "ended":
        title = f"{state.name}: over"
    else:
        title = f"{state.name}: round {t.round}"
    table = Table(title=title, title_justify="left")
    for col in ("", "Init", "Combatant", "Side", "At", "SP", "HP", "RP"):
        table.add_column(col, no_wrap=True)
    table.add_column("Conditions and effects", ratio=3)
    table.add_column("Status", ratio=1)
    nxt = pending(state)
    order = [cid for cid in t.order if cid in state.combatants]
    order += [cid for cid in state.combatants if cid not in order]
    for cid in order:
        c = state.combatants[cid]
        cr = c.creature
        st, stat = cr.state, cr.stat
        mark = ">" if t.turn == cid else ("next" if cid == nxt else "")
        hp = f"{st.hp}/{stat.hp}" + (f" +{st.temp_hp} temp" if st.temp_hp else "")
        table.add_row(
            Text(mark),
            Text("-" if c.initiative is None else str(c.initiative)),
            Text(cid),
            Text(c.side),
            Text("" if c.position is None else f"{c.position[0]},{c.position[1]}"),
            Text(f"{st.sp}/{stat.sp}"),
            Text(hp),
            Text(f"{st.rp}/{stat.rp}"),
            Text("; ".join(conditions_text(state, c)) or "-"),
            Text(", ".join(status_text(state, c))),
        )
    return table


def conditions_text(state: Encounter, c: Combatant) -> list[str]:
    """Each condition (with the duration of the effect that gave it, if timed) and each other timed effect."""
    effects = state.effects_on(c.id)
    used: set[int] = set()
    out: list[str] = []
    for inst in c.creature.state.conditions:
        text = inst.name + (f" {inst.value}" if inst.value else "")
        eff = next((e for e in effects if e.condition == inst and e.id not in used), None)
        if eff is not None:
            used.add(eff.id)
            text += f" ({duration_text(state, eff)})"
        elif inst.rounds is not None:
            text += f" ({inst.rounds} rounds)"
        out.append(text)
    for eff in effects:
        if eff.id not in used:
            out.append(f"{eff.name} ({duration_text(state, eff)})")
    return out


def duration_text(state: Encounter, effect: Effect) -> str:
    x = effect.expires
    if x.kind == "count":
        left = x.round - state.timeline.round
        return (f"{left} rd, " if left > 0 else "") + f"ends before count {x.count} of round {x.round}"
    return x.describe()


def status_text(state: Encounter, c: Combatant) -> list[str]:
    out: list[str] = []
    if c.delaying:
        out.append("delaying")
    if c.readied is not None:
        what = str(c.readied.command.get("type", "?"))
        watch = f" by {c.readied.watch}" if c.readied.watch else ""
        out.append(f"readied {what} ({c.readied.trigger}{watch})")
    if c.fled:
        out.append("fled")
    if c.insignificant:
        out.append("insignificant")
    if c.out_of_fight and not c.fled:
        out.append("out of the fight")
    elif c.id in state.timeline.done and state.timeline.turn != c.id:
        out.append("done")
    return out


def actions_table(state: Encounter, who: str, *, dice: str = "") -> Table:
    """What ``who`` has left this turn (budget.remaining), or would have if its turn has not started."""
    c = state.get(who)
    started = state.timeline.turn == who
    if not started:
        c = c.model_copy(update={"spent": (), "moved_ft": 0, "attacks_this_turn": 0, "reaction_used": False})
    title = f"{who}'s turn" if started else f"Next: {who} (the turn starts with its first command)"
    table = Table(title=title, title_justify="left")
    for col in ("Actions left", "Spent", "Moved", "Attacks", "Reaction"):
        table.add_column(col, no_wrap=True)
    left = budget.remaining(c, surprise=state.timeline.phase == "surprise")
    react, rule = budget.can_react(c)
    speed = stats.speed(c.creature).total
    table.add_row(
        Text(", ".join(left) or "none"),
        Text(", ".join(c.spent) or "-"),
        Text(f"{c.moved_ft}/{speed} ft"),
        Text(str(c.attacks_this_turn)),
        Text("available" if react else f"no ({rule})"),
    )
    notes = []
    delaying = [x.id for x in state.combatants.values() if x.delaying]
    if delaying and state.timeline.turn is None:
        notes.append(f"delaying: {', '.join(delaying)} (resume NAME to act now)")
    if dice:
        notes.append(f"dice: {dice}")
    if notes:
        table.caption = "; ".join(notes)
        table.caption_justify = "left"
    return table


# ---------------------------------------------------------------------- helpers
_SQUARE = re.compile(r"(-?\d+)\s*,\s*(-?\d+)")
_INT = re.compile(r"-?\d+")


def match_name(text: str, names: Sequence[str], what: str, *, substring: bool = False) -> str:
    """The one name ``text`` means: exact (any case), else a unique beginning (else, with ``substring``, a
    unique part). Ambiguous or unknown text raises :class:`Usage` listing the candidates."""
    key = text.strip().lower()
    exact = [n for n in names if n.lower() == key]
    if exact:
        return exact[0]
    found = [n for n in names if n.lower().startswith(key)] if key else []
    if not found and substring and key:
        found = [n for n in names if key in n.lower()]
    if len(found) == 1:
        return found[0]
    if found:
        raise Usage(f"{text!r} could be {', '.join(found)}: type more of the name.")
    raise Usage(f"No {what} named {text!r} (known: {', '.join(names) or 'none'}).")


def _flags(args: list[str], known: tuple[str, ...]) -> tuple[set[str], list[str]]:
    flags = {a.lower() for a in args if a.lower() in known}
    return flags, [a for a in args if a.lower() not in known]


def _command_text(cmd: Command) -> str:
    data: dict[str, Any] = cmd.model_dump(exclude_defaults=True)
    data.pop("type", None)
    details = ", ".join(f"{k}={v}" for k, v in data.items())
    return f"{cmd.type}" + (f" ({details})" if details else "")


def _validation_text(e: ValidationError) -> str:
    parts = []
    for err in e.errors()[:3]:
        loc = ".".join(str(x) for x in err["loc"])
        parts.append(f"{loc}: {err['msg']}" if loc else str(err["msg"]))
    return "; ".join(parts)
