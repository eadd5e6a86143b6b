"""The session at the table: one person (the GM) running one fight, a line at a time.

A :class:`Session` holds a :class:`~sftactics.encounter.engine.Fight` and talks to the GM through a rich
console. Before each prompt it shows what the combatant whose turn it is has left (the initiative tracker only
when the order, the round or the turn changed, or on ``show``); it reads a line, turns it into a command with
the verb table (:mod:`sftactics.play.verbs`), a session verb such as ``undo`` or ``map``, or raw JSON, lets the
engine resolve it and narrates the events. A refused command prints the rule it breaks and changes nothing; no
line a person types ends in a traceback. When the combat ends the session stays open (summary, undo, save,
``again``); ``quit`` and Ctrl-C ask before dropping a fight that is not saved.

Dice come from one :class:`TableDice` source that either rolls (seeded) or asks the person for the result of
their physical die; switching between the two keeps one history, so undo, save and resume see every die.
"""

from __future__ import annotations

import difflib
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from pydantic import ValidationError
from rich.console import Console
from rich.text import Text

from sftactics.core.errors import CommandError, RuleViolation, SftError
from sftactics.dice.source import DiceSource, DieRoll, SeededDice
from sftactics.encounter import narrate
from sftactics.encounter.commands import Begin, Command, Resume, parse_command
from sftactics.encounter.engine import GM_COMMANDS, Fight, pending
from sftactics.encounter.events import DiceRolled, Event
from sftactics.encounter.narrate import fight_summary
from sftactics.encounter.policy import simple
from sftactics.encounter.runner import auto_play
from sftactics.play.grammar import Ctx, Usage, match_name, split_line
from sftactics.play.panels import tracker, tracker_key, turn_panel
from sftactics.play.verbs import ALIASES, VERBS, help_overview, verb_named

__all__ = ["Cancelled", "Session", "TableDice", "Usage", "match_name", "play"]

#: ``auto all`` ends the fight (as the GM) after this many rounds.
MAX_ROUNDS = 50

Ask = Callable[[int, str], int | None]


class Reader(Protocol):
    """Reads a line after a prompt; ``complete``: the command prompt (tab completion applies)."""

    def __call__(self, prompt: str, *, complete: bool = False) -> str: ...


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
    reader: Reader | None = None,
) -> None:
    """Run an interactive fight from a scenario file (or resume a saved ``.jsonl`` fight log) until the person
    quits or the input ends. Lines are read with ``input_fn`` (echoed after their prompt, so a scripted
    session's transcript reads like a live one), else ``reader``, else, when both ends are a terminal, with line
    editing, history and tab completion (:mod:`sftactics.play.lineinput`), else plain ``console.input``."""
    from sftactics.play.chase_session import is_chase_log, play_chase

    if (Path(path).suffix.lower() == ".jsonl" and is_chase_log(Path(path))) or _is_chase(Path(path)):
        play_chase(Path(path), seed=seed, console=console, input_fn=input_fn, physical=physical)  # a vehicle chase
        return
    session = Session.open(path, seed=seed, physical=physical, console=console, input_fn=input_fn, reader=reader)
    if input_fn is None and reader is None and sys.stdin.isatty() and sys.stdout.isatty():
        from sftactics.play.lineinput import PlayCompleter, TerminalReader, history_path

        session.reader = TerminalReader(PlayCompleter(lambda: session.fight.state), history=history_path())
    session.run()


def _is_chase(path: Path) -> bool:
    from sftactics.io.chase_scenario import is_chase_file

    return path.suffix.lower() != ".jsonl" and is_chase_file(path)


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
        reader: Reader | None = None,
        saved_to: Path | None = None,
    ) -> None:
        self.console = console
        self._input = input_fn
        self.reader = reader
        self.verbose = True
        history = [DieRoll(s, r, p) for e in fight.all_events() if isinstance(e, DiceRolled) for s, r, p in e.dice]
        if fight.seed is None:
            fight.seed = seed
        self.dice = TableDice(fight.seed, self._ask_die, manual=physical, history=history)
        fight.dice = self.dice
        self.fight = fight
        self.saved_to = saved_to
        self._saved: list[Command] = list(fight.commands)
        self._shown: object = None
        self._tracked: tuple[object, ...] | None = None
        self._reported = False
        self._session_verbs: dict[str, Callable[[list[str]], bool | None]] = {
            "map": self._map,
            "show": self._show,
            "auto": self._auto,
            "undo": self._undo,
            "save": self._save,
            "again": self._again,
            "summary": self._summary,
            "log": self._log,
            "dice": self._dice_mode,
            "reactions": self._reactions_mode,
            "brief": self._brief,
            "verbose": self._verbose,
            "help": self._help,
            "quit": self._quit,
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
        reader: Reader | None = None,
    ) -> Session:
        """A session on a scenario file, or on a saved fight log (``.jsonl``: the fight continues where it
        stopped; its own seed wins over ``seed``; ``save`` without a file writes it back there)."""
        saved_to: Path | None = None
        if Path(path).suffix.lower() == ".jsonl":
            fight = Fight.load(path)
            saved_to = Path(path)
        else:
            from sftactics.io.scenario import load_scenario

            fight = Fight(load_scenario(path), SeededDice(seed), seed=seed)
        return cls(fight, seed=seed, physical=physical, console=console, input_fn=input_fn, reader=reader,
                   saved_to=saved_to)  # fmt: skip

    # ------------------------------------------------------------------ the loop
    def run(self) -> None:
        """Begin the fight if needed, then read and carry out lines until the person quits or input ends."""
        self._begin_if_new()
        while True:
            state = self.fight.state
            if state.result is not None and not self._reported:
                self._finish()
            self._reported = state.result is not None
            if self._shown is not state:
                self.show()
            try:
                line = self._read(self._prompt(), complete=True)
            except EOFError:  # the end of piped input; Ctrl-D at a terminal asks first, as quit does
                self.say("")
                if self.reader is None or self._may_leave():
                    return
                continue
            except KeyboardInterrupt:
                self.say("")
                if self._may_leave():
                    return
                continue
            if not self.handle(line):
                return

    def _begin_if_new(self) -> bool:
        state = self.fight.state
        if state.result is None and state.timeline.phase == "setup":
            self.say(f"{state.name}: the fight begins (dice: {self._dice_text()}).")
            return self._execute(lambda: self._do(Begin()))
        return True

    def handle(self, line: str) -> bool:
        """Carry out one line. False when the session should end."""
        line = line.strip()
        if not line:
            return True
        if line.startswith("{"):
            return self._execute(lambda: self._raw(line))
        try:
            words = split_line(line)
        except ValueError as e:
            self.say(f"Cannot read that line ({e}); type help for the commands.")
            return True
        if not words:
            return True
        verb = verb_named(words[0])
        if verb is None:
            close = difflib.get_close_matches(words[0].lower(), [*VERBS, *ALIASES], n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            self.say(f"Unknown command {words[0]!r}{hint}; type help for the commands.")
            return True
        args = words[1:]
        parse = verb.parse
        if parse is None:
            return self._execute(lambda: self._session_verbs[verb.name](args))
        return self._execute(lambda: self._do(parse(Ctx(self.fight.state), args)))

    def _execute(self, action: Callable[[], bool | None]) -> bool:
        """Run one step of the session, turning every failure into a message. False: end the session."""
        try:
            return action() is not False
        except Cancelled as e:
            if e.eof:
                self.say("Input ended: the command was dropped.")
                return False
            self.say("Cancelled: nothing changed.")
        except KeyboardInterrupt:
            self.say("Interrupted: the command in progress was dropped.")
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

    def _read(self, prompt: str, *, complete: bool = False) -> str:
        if self._input is not None:
            line = self._input(prompt)
            self.console.print(Text(prompt + line), highlight=False)
            return line
        if self.reader is not None:
            return self.reader(prompt, complete=complete)
        return self.console.input(Text(prompt))

    def _prompt(self) -> str:
        state = self.fight.state
        if state.result is not None:
            return "(combat over) > "
        who = pending(state)
        if who is None:
            return "(not begun: type begin) > " if state.timeline.phase == "setup" else "> "
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

    def _yes(self, question: str, *, default: bool, interrupted: bool | None = None) -> bool:
        """A yes/no answer (an empty line: ``default``; the end of input or Ctrl-C: ``interrupted``, else the
        default)."""
        while True:
            try:
                answer = self._read(question).strip().lower()
            except (EOFError, KeyboardInterrupt):
                return default if interrupted is None else interrupted
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            if answer == "":
                return default
            self.say("Answer y or n.")

    def _narrate(self, events: Sequence[Event]) -> None:
        for line in narrate.lines(events, verbose=self.verbose):
            self.say(line)

    def _dice_text(self) -> str:
        return "yours (typed)" if self.dice.manual else f"the engine's (seed {self.dice.seed})"

    def show(self, *, tracker_too: bool = False) -> None:
        """The turn panel: what the combatant whose turn it is (or who is next) has left; the initiative tracker
        before it when the round, the order or the turn changed since it was last printed, or ``tracker_too``."""
        state = self.fight.state
        key = tracker_key(state)
        if tracker_too or key != self._tracked:
            self.console.print(tracker(state))
            self._tracked = key
        who = pending(state)
        if who is not None:
            self.console.print(turn_panel(state, who, dice=self._dice_text()))
        self._shown = state

    def _finish(self) -> None:
        state = self.fight.state
        r = state.result
        assert r is not None
        self.say("")
        self.say(f"Result: {r.winner or 'nobody'} wins in round {r.round} ({r.reason}).")
        for line in fight_summary(state, self.fight.all_events()):
            self.say(line)
        self.say("The session stays open: undo, save [FILE], again, summary, map, log; quit to leave.")

    # ------------------------------------------------------------------ unsaved work
    def unsaved(self) -> bool:
        """Whether leaving would drop commands not yet saved (a fight that only began counts as nothing)."""
        return self.fight.commands != self._saved and any(c.type != "begin" for c in self.fight.commands)

    def _may_leave(self) -> bool:
        if not self.unsaved():
            return True
        question = "The fight is not saved (save FILE keeps it). Leave anyway? [y/N] "
        return self._yes(question, default=False, interrupted=True)  # Ctrl-C twice leaves

    # ------------------------------------------------------------------ session verbs
    def _auto(self, args: list[str]) -> None:
        low = [a.lower() for a in args]
        if self.fight.state.result is not None:
            raise Usage("The combat is over: nothing to play (undo takes back the end; again starts afresh).")
        if low == ["all"]:
            self._run(self._auto_all)
            return
        if low:
            raise Usage("Usage: auto (this turn) or auto all (the rest of the fight)")
        who = Ctx(self.fight.state).actor()
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

    def _map(self, args: list[str]) -> None:
        from sftactics.views.battlefield import coloured, plain, reach_as_it_stands
        from sftactics.views.mapview import OVERLAYS, build_view, render_svg

        state = self.fight.state
        if state.grid is None:
            raise Usage("This fight has no map.")
        show: list[str] = []
        rest: list[str] = []
        area = side = None
        svg: Path | None = None
        png: Path | None = None
        bare = False
        words = list(args)
        while words:
            w = words.pop(0)
            low = w.lower().lstrip("-")
            if low in OVERLAYS and low != "area":
                show.append(low)
            elif low == "area":
                area, words = " ".join(words), []
                if not area:
                    raise Usage('Usage: map area SPEC, e.g. map area "burst 10 at 5,5"')
            elif low in ("svg", "png", "view") and words:
                if low == "svg":
                    svg = Path(words.pop(0))
                elif low == "png":
                    png = Path(words.pop(0))
                else:
                    side = words.pop(0)
            elif low == "bare":
                bare = True
            else:
                rest.append(w)
        focus = pending(state)
        subject = focus
        if rest:
            text = " ".join(rest)
            sides = state.sides()
            folded = [s for s in sides if s.lower() == text.lower()]
            subject = folded[0] if folded else Ctx(state).name(text)
        if not show and area is None and not bare and subject is not None:
            c = state.combatants.get(subject)
            if c is None:  # a side: what its members threaten
                show = ["threat"]
            elif c.position is not None and not c.out_of_fight and not c.fled:
                show = ["reach", "threat"]
        view = reach_as_it_stands(state, build_view(state, subject=subject, show=show, area=area, view=side))
        if self.console.is_terminal and self.console.color_system is not None:
            self.console.print(coloured(state, view, focus=focus))
        else:
            self.console.print(plain(state, view), markup=False, highlight=False, emoji=False, end="")
        if svg is not None:
            try:
                svg.write_text(render_svg(view), encoding="utf-8")
            except OSError as e:
                raise SftError(f"{svg}: cannot be written ({e.strerror})") from None
            self.say(f"SVG written to {svg}")
        if png is not None:
            from sftactics.views.pngmap import render_png

            try:
                png.write_bytes(render_png(view))
            except OSError as e:
                raise SftError(f"{png}: cannot be written ({e.strerror})") from None
            self.say(f"PNG written to {png}")

    def _show(self, args: list[str]) -> None:
        self.show(tracker_too=True)

    def _undo(self, args: list[str]) -> None:
        if len(args) > 1 or (args and not (args[0].isdigit() and int(args[0]) >= 1)):
            raise Usage("Usage: undo [N] (take back the last N commands, default 1)")
        n = int(args[0]) if args else 1
        for _ in range(n):
            if not self.fight.commands:
                self.say("Nothing (more) to undo.")
                break
            last = self.fight.undo()
            self.say(f"Undone: {_command_text(last)}")
        self.show(tracker_too=True)

    def _save(self, args: list[str]) -> None:
        if len(args) > 1 or (not args and self.saved_to is None):
            raise Usage("Usage: save FILE (the fight log as JSON lines; resume with sftactics play FILE)")
        path = Path(args[0]) if args else self.saved_to
        assert path is not None
        try:
            self.fight.save(path)
        except OSError as e:
            raise SftError(f"{path}: cannot be written ({e.strerror})") from None
        self.saved_to = path
        self._saved = list(self.fight.commands)
        self.say(f"Saved {len(self.fight.commands)} commands to {path}.")

    def _again(self, args: list[str]) -> None:
        if len(args) > 1 or (args and not args[0].isdigit()):
            raise Usage("Usage: again [SEED] (the same fight from its start; the same seed unless given)")
        if self.unsaved() and not self._yes("The fight is not saved. Start again anyway? [y/N] ", default=False):
            self.say("Carrying on.")
            return
        seed = int(args[0]) if args else self.dice.seed
        fight = Fight(self.fight.start, SeededDice(seed), seed=seed, decide=self.fight.decide)
        self.dice = TableDice(seed, self._ask_die, manual=self.dice.manual)
        fight.dice = self.dice
        self.fight = fight
        self._saved, self.saved_to, self._tracked = [], None, None
        self._begin_if_new()

    def _summary(self, args: list[str]) -> None:
        for line in fight_summary(self.fight.state, self.fight.all_events()):
            self.say(line)

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

    def _ask_reaction(self, state: object, reactor: str, provoker: str, why: str) -> bool:
        return self._yes(f"{provoker} {why}: does {reactor} take an attack of opportunity? [Y/n] ", default=True)

    def _log(self, args: list[str]) -> None:
        low = [a.lower() for a in args]
        if low == ["all"]:
            batches = self.fight.events
        elif not low or (len(low) == 1 and low[0].isdigit()):
            n = int(low[0]) if low else 1
            batches = self.fight.events[-n:] if n > 0 else []
        else:
            raise Usage("Usage: log [N|all] (the events of the last N commands, default 1)")
        if not batches:
            self.say("Nothing has happened yet.")
        self._narrate([e for batch in batches for e in batch])

    def _brief(self, args: list[str]) -> None:
        self.verbose = False
        self.say("Narration: one line per attack.")

    def _verbose(self, args: list[str]) -> None:
        self.verbose = True
        self.say("Narration: every number explained.")

    def _help(self, args: list[str]) -> None:
        if not args:
            self.say(help_overview())
            return
        verb = verb_named(args[0])
        if verb is None:
            close = difflib.get_close_matches(args[0].lower(), [*VERBS, *ALIASES], n=3)
            raise Usage(f"No verb {args[0]!r}" + (f" (did you mean {', '.join(close)}?)" if close else "") + ".")
        self.say(verb.help_text())

    def _quit(self, args: list[str]) -> bool:
        return not self._may_leave()


# ---------------------------------------------------------------------- helpers
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
