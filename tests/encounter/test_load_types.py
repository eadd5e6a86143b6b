"""A saved fight loads back into exactly the state it had: the same values with the same types."""

from __future__ import annotations

import warnings
from pathlib import Path

from sftactics.encounter.commands import Begin, Draw
from sftactics.encounter.engine import Fight
from tests.encounter.helpers import combatant, encounter, fight


def test_held_items_come_back_as_tuples(tmp_path: Path) -> None:
    t = combatant("Tess", "party", initiative=30, position=(0, 0), in_hand=())
    k = combatant("Ksarik", "aliens", initiative=5, position=(3, 0))
    f = fight(encounter(t, k, map="\n".join(["." * 10] * 4)), [5, 5, 5])
    f.do(Begin())
    f.do(Draw(actor="Tess", weapon="tactical baton"))
    f.save(tmp_path / "f.jsonl")
    g = Fight.load(tmp_path / "f.jsonl")
    assert g.state.get("Tess").in_hand == ("tactical baton",)
    assert g.state == f.state
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert g.state.model_dump_json() == f.state.model_dump_json()
