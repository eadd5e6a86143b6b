"""A creature that recovers while another stands in its square (MOV-16, option shared_square_on_recovery)."""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.commands import Begin
from sftactics.encounter.engine import Fight
from sftactics.sf1e.options import Sf1eOptions
from tests.encounter.helpers import combatant, encounter, fight

OPEN = "\n".join(["." * 8] * 4)


def _tess_on_sleeping_bo(options: Sf1eOptions | None = None) -> Fight:
    t = combatant("Tess", "party", initiative=20, position=(0, 0))
    b = combatant("Bo", "party", initiative=15, position=(1, 0))
    k = combatant("Ksarik", "aliens", initiative=10, position=(6, 3))
    kw = {"options": options} if options is not None else {}
    f = fight(encounter(t, b, k, map=OPEN, **kw), [])
    f.do(Begin())
    f.do({"type": "add_condition", "target": "Bo", "condition": "asleep"})
    f.do({"type": "guarded_step", "actor": "Tess", "to": [1, 0]})  # a helpless creature's square (MOV-16)
    return f


@pytest.mark.rule("MOV-16")
def test_by_default_the_two_share_the_square_until_one_moves() -> None:
    f = _tess_on_sleeping_bo()
    f.do({"type": "remove_condition", "target": "Bo", "condition": "asleep"})
    assert f.state.get("Bo").position == f.state.get("Tess").position == (1, 0)
    f.do({"type": "end_turn", "actor": "Tess"})
    f.do({"type": "guarded_step", "actor": "Bo", "to": [2, 0]})  # Bo steps out on its turn
    assert f.state.get("Bo").position == (2, 0)
    with pytest.raises(RuleViolation) as e:  # and may not step back onto Tess, who is not helpless
        f.do({"type": "move", "actor": "Bo", "to": [1, 0]})
    assert e.value.rule == "MOV-16"
    assert f.state.get("Bo").position == (2, 0)


@pytest.mark.rule("MOV-16")
def test_with_nearest_free_the_one_that_recovered_takes_the_nearest_free_square() -> None:
    f = _tess_on_sleeping_bo(Sf1eOptions(shared_square_on_recovery="nearest_free"))
    events = f.do({"type": "remove_condition", "target": "Bo", "condition": "asleep"})
    assert f.state.get("Tess").position == (1, 0)
    assert f.state.get("Bo").position == (0, 0)  # ring 1 around 1,0: row 0 first, then column 0
    moved = [e for e in events if e.type == "moved"]
    assert len(moved) == 1 and moved[0].kind == "settle" and moved[0].rule == "MOV-16"
    assert "takes the nearest free one, 0,0" in moved[0].lines[0]
