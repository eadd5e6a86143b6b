"""The style rule that keeps modules small (docs/architecture.md): no Python file of the package, its tests or its
benchmarks grows past 800 lines; one that does is split by the rules it implements."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 800


def test_no_module_is_longer_than_the_limit() -> None:
    files = [p for folder in ("src", "tests", "bench") for p in (ROOT / folder).rglob("*.py")]
    assert len(files) > 400  # the tree was found
    too_long = {
        str(p.relative_to(ROOT)): n for p in files if (n := len(p.read_text(encoding="utf-8").splitlines())) > LIMIT
    }
    assert too_long == {}
