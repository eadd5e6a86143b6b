"""Building small encounters for tests."""

from __future__ import annotations

from typing import Any

from sftactics.dice.source import ScriptedDice
from sftactics.encounter.engine import Fight
from sftactics.encounter.state import Combatant, Encounter
from sftactics.sf1e.state import Creature
from tests.builders import npc, pc


def combatant(cid: str, side: str, creature: Creature | None = None, **kw: Any) -> Combatant:
    c = creature or (pc(name=cid) if side == "party" else npc(name=cid))
    c = c.model_copy(update={"id": cid})
    return Combatant(id=cid, side=side, creature=c, **kw)


def encounter(*cs: Combatant, map: str | None = None, **kw: Any) -> Encounter:
    return Encounter(combatants={c.id: c for c in cs}, map=map, **kw)


def duo(**kw: Any) -> Encounter:
    """Tess (party, init +2) and Ksarik (aliens, init +2)."""
    return encounter(combatant("Tess", "party"), combatant("Ksarik", "aliens"), **kw)


def fight(enc: Encounter, dice: list[int]) -> Fight:
    return Fight(enc, ScriptedDice(dice))
