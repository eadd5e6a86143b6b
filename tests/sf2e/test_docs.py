"""docs/sf2e.md stays true: its example runs as shown and its options table lists every option with its default."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from sftactics.sf2e.options import Sf2eOptions

DOC = Path(__file__).resolve().parents[2] / "docs" / "sf2e.md"


@pytest.mark.rule("E2-02", "E2-11", "E2-13", "E2-14", "E2-24")
def test_the_example_prints_what_the_doc_says() -> None:
    block = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert block is not None
    code = block.group(1)
    expected = "\n".join(line[2:] for line in code.splitlines() if line.startswith("# "))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})
    assert out.getvalue().strip() == expected.strip()


def test_every_option_is_documented_with_its_default() -> None:
    text = DOC.read_text()
    for name, field in Sf2eOptions.model_fields.items():
        row = f"| `{name}` | `{json.dumps(field.default)}` |"
        assert row in text, f"docs/sf2e.md lacks the row for {name}"
        assert field.description and ("E2-" in field.description or "gap" in field.description)
