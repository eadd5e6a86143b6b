"""``sftactics play`` driven through prompt_toolkit's test harness: keystrokes go into a pipe input as a person
would type them at a terminal (Tab, arrows, Ctrl-R, Ctrl-C), the session runs in a thread, the console is
recorded. Covers the short verbs, tab completion, the map, undo, save, history and the end of combat."""

from __future__ import annotations

import queue
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from sftactics.encounter.engine import Fight
from sftactics.play import Session
from sftactics.play.lineinput import PlayCompleter, TerminalReader, history_path
from sftactics.views.battlefield import coloured
from sftactics.views.mapview import build_view
from tests.cli.test_play import scenario

#: How long to let prompt_toolkit finish a completion before the next keys arrive.
SETTLE = 0.25
#: In the keys given to :meth:`Table.type`: wait here (as after a Tab) before sending the rest.
PAUSE = "\x00"


class Table:
    """A session at a pretend terminal: ``type`` waits for the next prompt, then sends the keys (a Tab lets
    the completion settle before the rest is sent)."""

    def __init__(self, path: Path, history: Path, *, colour: bool = False) -> None:
        self._pipe = create_pipe_input()
        self.input = self._pipe.__enter__()
        self.console = Console(record=True, width=120, force_terminal=colour, color_system="truecolor" if colour
                               else None)  # fmt: skip
        self.prompts: queue.Queue[str] = queue.Queue()
        self.session = Session.open(path, seed=2, physical=False, console=self.console)
        reader = TerminalReader(PlayCompleter(lambda: self.session.fight.state), history=history, input=self.input,
                                output=DummyOutput())  # fmt: skip

        def read(prompt: str, *, complete: bool = False) -> str:
            self.prompts.put(prompt)
            return reader(prompt, complete=complete)

        self.session.reader = read
        self.thread = threading.Thread(target=self.session.run, daemon=True)
        self.thread.start()

    def type(self, keys: str) -> str:
        """Wait for a prompt, type ``keys`` (pausing after each Tab and at each PAUSE); the prompt."""
        prompt = self.prompts.get(timeout=10)
        pieces = keys.replace("\t", "\t" + PAUSE).split(PAUSE)
        for i, piece in enumerate(pieces):
            if i:
                time.sleep(SETTLE)
            self.input.send_text(piece)
        return prompt

    def done(self) -> bool:
        self.thread.join(timeout=10)
        return not self.thread.is_alive()

    def close(self) -> str:
        """Wait for the last line typed to be carried out (the next prompt), end the input (Ctrl-D on an empty
        pipe); the transcript."""
        deadline = time.monotonic() + 10
        while self.thread.is_alive() and time.monotonic() < deadline:
            try:
                self.prompts.get(timeout=0.05)
                break
            except queue.Empty:
                continue
        self.input.close()
        assert self.done()
        self._pipe.__exit__(None, None, None)
        return self.console.export_text(clear=False)


@pytest.fixture
def history(tmp_path: Path) -> Path:
    return tmp_path / "history"


def test_a_fight_at_the_terminal_with_short_verbs(tmp_path: Path, history: Path) -> None:
    log = tmp_path / "fight.jsonl"
    t = Table(scenario(tmp_path, map=True), history)
    t.type("map\r")
    t.type("mo\t 2,1\r")  # Tab completes the verb
    t.type("undo\r")
    t.type("att\t k\t\r")  # ... and the name, when it is the only one (k: Krask or Ksarik, so none is chosen)
    t.type("ste\t 2,2\r")
    t.type(f"save {log}\r")
    t.type("endcombat truce\r")
    assert t.type("summary\r") == "(combat over) > "  # the session stays open after the combat
    t.type("undo\r")
    assert t.type("defend\r") == "Krask > "  # the end of combat was taken back
    t.type("quit\r")
    assert t.type("y\r").startswith("The fight is not saved")  # the defence is not saved: asked
    assert t.done()
    out = t.close()
    state = t.session.fight.state
    assert "reach: Krask (K), land speed 30 ft" in out and "threat: squares threatened by Krask (K)" in out
    assert "K Krask at 1,1: HP 20/20 SP 18/18  <- turn" in out
    assert "Krask moves 5 ft: 1,1 -> 2,1" in out and "Undone: move (actor=Krask, to=(2, 1))" in out
    assert "'k' could be Krask, Ksarik: type more of the name." in out  # k completes to both: nothing inserted
    assert "Krask: guarded step (move action)" in out
    assert state.get("Krask").position == (2, 2)
    assert Fight.load(log).state.get("Krask").position == (2, 2)
    assert "Result: nobody wins in round 1 (truce (CF-02))." in out and "Rounds: 1" in out
    assert "Undone: end_combat" in out and state.result is None
    assert "total defense" in out
    assert "attack k" in history.read_text()  # what was typed is in the history file


def test_completion_fills_in_a_name_and_a_weapon(tmp_path: Path, history: Path) -> None:
    t = Table(scenario(tmp_path, map=True), history)
    t.type("move 7,3\r")
    t.type("att\t ks\t with az\t\r")
    t.close()
    assert "Krask: attack Ksarik with azimuth laser pistol" in t.console.export_text()


def test_history_is_kept_between_sessions_and_searched_with_ctrl_r(tmp_path: Path, history: Path) -> None:
    t = Table(scenario(tmp_path, map=True), history)
    t.type("move 2,1\r")
    t.type("log\r")
    t.close()
    again = Table(scenario(tmp_path, map=True), history)
    again.type("\x1b[A\x1b[A\r")  # up twice: move 2,1, from the last session
    again.type("\x12lo\x00\r\x00\r")  # Ctrl-R finds log; Enter takes it, Enter again runs it
    out = again.close()
    assert again.session.fight.state.get("Krask").position == (2, 1)
    assert out.count("Krask moves 5 ft: 1,1 -> 2,1") == 2  # the move, and log telling it again


def test_ctrl_c_asks_before_dropping_an_unsaved_fight(tmp_path: Path, history: Path) -> None:
    t = Table(scenario(tmp_path, map=True), history)
    t.type("move 2,1\r")
    t.type("\x03")  # Ctrl-C at the prompt
    assert t.type("n\r").startswith("The fight is not saved")
    assert t.type("\x03") == "Krask > "  # still there
    t.type("y\r")
    assert t.done()
    t.close()


def test_ctrl_d_at_the_terminal_asks_too(tmp_path: Path, history: Path) -> None:
    t = Table(scenario(tmp_path, map=True), history)
    t.type("move 2,1\r")
    t.type("\x04")  # Ctrl-D on an empty line: the end of input
    assert t.type("n\r").startswith("The fight is not saved")
    t.type("\x04")
    t.type("\x04")  # at the question, Ctrl-D again leaves
    assert t.done()
    t.close()


def test_the_map_in_colour_and_as_svg(tmp_path: Path, history: Path) -> None:
    svg = tmp_path / "now.svg"
    t = Table(scenario(tmp_path, map=True), history, colour=True)
    t.type(f"map --svg {svg}\r")
    t.type("map ksarik threat\r")
    t.type("map monsters\r")
    t.close()
    out = t.console.export_text()
    assert "Duel: round 1, Krask's turn" in out
    assert f"SVG written to {svg}" in out
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert "threat: squares threatened by Ksarik" in out
    assert "threat: squares threatened by side monsters" in out
    # the combatant whose turn it is stands in reverse video; the squares it can reach have a background
    state = t.session.fight.state
    text = coloured(state, build_view(state, subject="Krask", show=["reach", "threat"]), focus="Krask")
    k_row = text.plain.splitlines()[3]  # the heading, the column numbers, row 0, then row 1
    assert k_row.startswith("1  # K")
    styles = [str(span.style) for span in text.spans if text.plain[span.start : span.end] == "K"]
    assert any("reverse" in s for s in styles)
    assert any("on #1d4d26" in str(span.style) for span in text.spans)


def test_the_history_file_lives_under_the_state_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("SFTACTICS_HISTORY", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert history_path() == tmp_path / "sftactics" / "play_history"
    monkeypatch.setenv("SFTACTICS_HISTORY", str(tmp_path / "h"))
    assert history_path() == tmp_path / "h"
