"""Reading lines at the table: line editing, history kept between sessions and tab completion (prompt_toolkit)
when a person types at a terminal; plain ``input`` otherwise, so piped play still works.

The completer knows the verbs (:mod:`sftactics.play.verbs`) and, from the state of the fight, the combatants,
the weapons of the combatant whose turn it is, and squares (free squares it can reach, and where the others
stand). It asks a callable for the state, so it always completes against the fight as it stands.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from sftactics.encounter import space
from sftactics.encounter.engine import pending
from sftactics.encounter.state import Encounter
from sftactics.play.grammar import grenades
from sftactics.play.verbs import VERBS, verb_named
from sftactics.sf1e import conditions as cond


def history_path() -> Path:
    """Where the history of lines typed at the table is kept: ``$SFTACTICS_HISTORY``, else
    ``$XDG_STATE_HOME/sftactics/play_history`` (``~/.local/state`` when unset)."""
    given = os.environ.get("SFTACTICS_HISTORY")
    if given:
        return Path(given)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "sftactics" / "play_history"


def _squares_near(state: Encounter, who: str | None) -> list[str]:
    """Squares worth offering: the free squares within a double move of ``who``, then where everyone stands."""
    out: list[str] = []
    grid = state.grid
    if grid is not None and who is not None:
        c = state.get(who)
        if c.position is not None:
            from sftactics.encounter import movement
            from sftactics.grid.movement import reachable

            fp = space.footprint(c)
            if fp is not None:
                try:
                    found = reachable(grid, fp, movement.mover_for(c), occupants=movement.occupants(state, c),
                                      actions=2)  # fmt: skip
                    out += [f"{x},{y}" for (x, y), n in sorted(found.actions.items(), key=lambda kv: kv[1]) if n]
                except Exception:  # a completion must never break the prompt
                    pass
    out += [f"{c.position[0]},{c.position[1]}" for c in state.combatants.values() if c.position is not None]
    return list(dict.fromkeys(out))


class PlayCompleter(Completer):
    """Completes the word under the cursor from the verb being typed and the state of the fight."""

    def __init__(self, state: Callable[[], Encounter]) -> None:
        self.state = state

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        text = document.text_before_cursor
        words = text.split()
        current = "" if not words or text.endswith(" ") else words[-1]
        done = words if current == "" else words[:-1]
        for option in self.options(done, current):
            if option.lower().startswith(current.lower()) and option != current:
                yield Completion(option, start_position=-len(current))

    def options(self, done: list[str], current: str) -> list[str]:
        """What may come after the words ``done`` (the word being typed starts with ``current``)."""
        if not done:
            return sorted({*VERBS, *(a for v in VERBS.values() for a in v.aliases)})
        verb = verb_named(done[0])
        if verb is None:
            return []
        if verb.name == "ready" and len(done) >= 2 and not {"when", "watch"} & {w.lower() for w in done}:
            return [*self.options(done[1:], current), "when", "watch"]
        state = self.state()
        last = done[-1].lower() if len(done) > 1 else ""
        kind = verb.words.get(last) if last else None
        if not kind:
            if "=" in current:  # field=value of a verb read off its model
                key, _, _ = current.partition("=")
                kind = verb.words.get(key + "=")
                return [f"{key}={o}" for o in self.values(kind or "", state)] if kind else []
            i = sum(1 for w in done[1:] if w.lower() not in verb.words)
            kind = verb.args[min(i, len(verb.args) - 1)] if verb.args else ""
            return [*self.values(kind, state), *verb.words]
        return self.values(kind, state)

    def values(self, kind: str, state: Encounter) -> list[str]:
        who = pending(state)
        if kind == "name":
            return list(state.combatants)
        if kind == "side":
            return [str(s) for s in state.sides()]
        if kind == "subject":  # a combatant or a side
            return [*state.combatants, *(str(s) for s in state.sides())]
        if kind in ("weapon", "grenade") and who is not None:
            if kind == "grenade":
                return grenades(state, who)
            return [w.name for w in state.creature(who).stat.weapons]
        if kind in ("square", "squares"):
            return _squares_near(state, who)
        if kind.startswith("choice:"):
            return kind[7:].split("|")
        if kind == "verb":
            return [v.name for v in VERBS.values() if v.kind is not None]
        if kind == "condition":
            return sorted(cond.CONDITIONS)
        return []


class TerminalReader:
    """Reads lines with prompt_toolkit: editing, history (saved to ``history`` if given a path) and tab
    completion with ``completer`` at the command prompt. ``input``/``output``: for tests (a pipe input and a
    dummy output)."""

    def __init__(
        self,
        completer: Completer | None,
        *,
        history: Path | None = None,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        store: History = InMemoryHistory()
        if history is not None:
            try:
                history.parent.mkdir(parents=True, exist_ok=True)
                store = FileHistory(str(history))
            except OSError:
                store = InMemoryHistory()
        self.completer = completer
        self.session: PromptSession[str] = PromptSession(history=store, input=input, output=output)

    def __call__(self, prompt: str, *, complete: bool = False) -> str:
        """One line; EOFError at the end of input (Ctrl-D), KeyboardInterrupt on Ctrl-C."""
        return self.session.prompt(
            prompt,
            completer=self.completer if complete else None,
            complete_while_typing=False,
        )
