"""What a side perceives of its enemies: the one place policies ask about them.

Every query a policy makes about enemies goes through :func:`visible_enemies` (what the side knows) or
:func:`targets_for` (what one combatant may aim at), so that the engine's per-pair awareness decides what a
policy sees. When the engine tracks awareness (``sftactics.encounter.perception``, ``state.track_awareness``),
a side sees the enemies whose location at least one of its members knows, and a combatant may target those
whose location it knows itself; otherwise everyone sees every enemy on the map that is not dead or gone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sftactics.encounter.state import Combatant, Encounter

_LOCATED = 2  # sftactics.sf1e.senses.Awareness.AWARE_OF_LOCATION


def _engine_view() -> Callable[[Encounter, str, str], Any] | None:
    try:
        from sftactics.encounter.perception import view
    except ImportError:  # an engine without per-pair awareness
        return None
    return view


_VIEW = _engine_view()


def _tracked(state: Encounter) -> bool:
    return _VIEW is not None and bool(getattr(state, "track_awareness", False))


def knows(state: Encounter, observer: str, target: str) -> bool:
    """Whether ``observer`` knows where ``target`` is (always, when awareness is not tracked)."""
    if not _tracked(state):
        return True
    assert _VIEW is not None
    return int(_VIEW(state, observer, target)) >= _LOCATED


def visible_enemies(state: Encounter, side: str) -> list[Combatant]:
    """The enemies of ``side`` it perceives now (in the encounter's order): everyone on another side who is
    not dead, has not fled, and whose location a member of ``side`` knows. Down (dying, stable, unconscious)
    enemies are included; see :func:`able_enemies`."""
    foes = [c for c in state.combatants.values() if c.side != side and not c.fled and not c.creature.has("dead")]
    if not _tracked(state):
        return foes
    members = [c.id for c in state.combatants.values() if c.side == side]
    return [f for f in foes if any(knows(state, m, f.id) for m in members)]


def able_enemies(state: Encounter, side: str) -> list[Combatant]:
    """Perceived enemies still able to fight (not dying, stable, unconscious, dead or gone)."""
    return [c for c in visible_enemies(state, side) if not c.out_of_fight]


def targets_for(state: Encounter, cid: str) -> list[Combatant]:
    """Enemies ``cid`` itself may aim at: able, perceived, and located by ``cid``."""
    me = state.get(cid)
    return [c for c in able_enemies(state, me.side) if knows(state, cid, c.id)]


def allies(state: Encounter, side: str, *, able: bool = True) -> list[Combatant]:
    """Members of ``side`` (a side always knows its own): with ``able``, only those still able to fight."""
    return [c for c in state.combatants.values() if c.side == side and not (able and c.out_of_fight)]
