"""The narration rendered from event data reads well."""

import pytest


@pytest.mark.rule("SEN-03")
def test_awareness_reads_one_line_per_observer() -> None:
    from sftactics.encounter.narrate import awareness_lines

    lines = awareness_lines({"Krask>EMT": 3, "Krask>Tracer 1": 2, "Krask>Tracer 2": 2, "EMT>Krask": 1, "Nyx>Gob": 0})
    assert lines == [
        "  EMT knows Krask is near but not where",
        "  Krask sees EMT; knows where Tracer 1, Tracer 2 are but cannot see them",
        "  Nyx is unaware of Gob",
    ]
