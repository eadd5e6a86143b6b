"""``sftactics play`` in a real pseudo-terminal (the standard library's pty): at a terminal the session reads
with prompt_toolkit (completion, history file), and everything it prints reaches the screen."""

from __future__ import annotations

import os
import re
import select
import sys
import time
from pathlib import Path

import pytest

from tests.cli.test_play import scenario

ROOT = Path(__file__).resolve().parents[2]


class Pty:
    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the command, on the terminal
            os.execvpe(argv[0], argv, env)
        self.seen = ""

    def expect(self, pattern: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.seen):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{pattern!r} not seen; the screen:\n{self.seen[-2000:]}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"{pattern!r} not seen before the end; the screen:\n{self.seen[-2000:]}")
                self.seen += re.sub(r"\x1b\[[0-9;?]*[ -/]*[@-~]", "", chunk.decode("utf-8", "replace"))
        return self.seen

    def send(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def wait(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_play_at_a_real_terminal_completes_and_keeps_history(tmp_path: Path) -> None:
    history = tmp_path / "history"
    env = {**os.environ, "SFTACTICS_HISTORY": str(history), "TERM": "xterm", "COLUMNS": "120", "LINES": "50",
           "PROMPT_TOOLKIT_NO_CPR": "1", "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), *sys.path])}  # fmt: skip
    argv = [sys.executable, "-c", "from sftactics.cli import main; main()", "play", str(scenario(tmp_path, map=True))]
    term = Pty(argv, env)
    term.expect("Krask >")
    term.send("mo\t")
    time.sleep(0.5)
    term.send(" 2,1\r")
    term.expect("Krask moves 5 ft: 1,1 -> 2,1")
    term.send("map\r")
    term.expect(r"K Krask at 2,1: HP 20/20")
    term.send("quit\r")
    term.expect(r"Leave anyway\? \[y/N\]")
    term.send("y\r")
    assert term.wait() == 0
    assert "+move 2,1" in history.read_text()
