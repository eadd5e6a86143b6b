"""The demo fight (examples/scenarios/derelict-ambush.yaml) from start to finish at the table with short verbs
only: a scripted GM lets the simple policy play the aliens (`auto`) and tries, for each of the party, an attack
on the nearest foe with each of its weapons (by the first letters of its name), then a charge, a move toward it
and the attacks again, then ends the turn; at the end it asks for the summary and quits."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

from rich.console import Console

from sftactics.encounter.engine import pending
from sftactics.encounter.state import Combatant, Encounter
from sftactics.play import Session

DEMO = Path(__file__).resolve().parents[2] / "examples" / "scenarios" / "derelict-ambush.yaml"


def _tries(state: Encounter, who: str) -> Iterator[str]:
    me = state.get(who)
    if me.side == "aliens" and state.timeline.turn == who:
        yield "auto"  # the GM lets the simple policy play the monsters
        return
    foes = [c for c in state.combatants.values() if c.side != me.side and not c.out_of_fight and c.position]
    if not foes or me.position is None:
        yield "end"
        return
    x, y = me.position

    def far(c: Combatant) -> int:
        assert c.position is not None
        return max(abs(c.position[0] - x), abs(c.position[1] - y))

    foe = min(foes, key=far)
    assert foe.position is not None
    weapons = [w for w in me.creature.stat.weapons if not w.is_grenade]
    for w in weapons:
        yield f"attack {foe.id.lower()[:3]} with {w.name}"
    if far(foe) > 1:
        yield f"charge {foe.id}"
        step = (foe.position[0] - x, foe.position[1] - y)
        n = min(far(foe) - 1, 6)
        yield f"move {x + n * (step[0] > 0) - n * (step[0] < 0)},{y + n * (step[1] > 0) - n * (step[1] < 0)}"
        for w in weapons:
            yield f"attack {foe.id} with {w.name}"
    yield "end"


class GM:
    """Answers each prompt with the next try for the combatant whose turn it is (a new list at each turn)."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.lines: list[str] = []
        self.turn: tuple[int, str] | None = None
        self.tries: Iterator[str] = iter(())

    def __call__(self, prompt: str) -> str:
        assert self.session is not None
        state = self.session.fight.state
        if prompt.endswith("[y/N] "):
            return "y"
        if len(self.lines) > 2000:
            raise EOFError
        if state.result is not None:
            self.lines.append("summary" if "summary" not in self.lines else "quit")
            return self.lines[-1]
        who = pending(state)
        assert who is not None, prompt
        turn = (len(self.session.fight.commands), who) if state.timeline.turn != who else (state.timeline.round, who)
        if turn != self.turn:
            self.turn, self.tries = turn, _tries(state, who)
        line = next(self.tries, "end")
        self.lines.append(line)
        return line


def test_the_demo_fight_runs_to_its_end_with_short_verbs_only() -> None:
    gm = GM()
    console = Console(record=True, width=120, file=io.StringIO())
    session = Session.open(DEMO, seed=3, physical=False, console=console, input_fn=gm)
    gm.session = session
    session.run()
    out = console.export_text()
    assert session.fight.state.result is not None, out[-3000:]
    assert "Result:" in out and "Rounds:" in out and "Internal error" not in out
    assert not any(line.startswith("{") for line in gm.lines)
    verbs = {line.split()[0] for line in gm.lines}
    assert {"attack", "charge", "move", "end", "auto", "summary", "quit"} <= verbs
