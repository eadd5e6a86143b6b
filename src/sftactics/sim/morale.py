"""Morale: when a simulated combatant stops fighting and withdraws, a choice the GM makes for each side.

* ``fight-to-the-death``: nobody ever retreats; a fight ends when one side can no longer fight (or at the round
  limit).
* ``by-the-book`` (the default): what each policy does on its own. The tactical policy retreats when its side's
  position is hopeless (``TacticalPolicy``: half the side down, or someone down and the actor below half its
  Stamina and Hit Points, *and* the foes would finish the side ``TacticalWeights.hopeless`` times faster than
  it can finish them); the simple and engine policies never retreat. Stat blocks carry no morale entry, so there
  is nothing more to follow.
* ``cautious``: as by the book, and also a combatant retreats as soon as it is *shaken* (:func:`shaken`): below
  half its Stamina and Hit Points together, or its side has lost half its members (down, dead or gone). The
  simple policy follows this rule too.

A retreating combatant withdraws as far from the foes it sees as it can; a side whose able members all retreat
concedes the fight, and the other side wins (the report counts these fights). The ``engine`` policy has no
morale: it is the fight ``sftactics run`` shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Literal, get_args

from sftactics.encounter.state import Combatant, Encounter
from sftactics.sim.perception import allies

Morale = Literal["fight-to-the-death", "by-the-book", "cautious"]
MORALES: tuple[str, ...] = get_args(Morale)
DEFAULT_MORALE: Morale = "by-the-book"


def check(name: str) -> Morale:
    """``name`` as a morale, or ValueError naming the choices."""
    if name not in MORALES:
        raise ValueError(f"unknown morale {name!r} (choose from {', '.join(MORALES)})")
    return name  # type: ignore[return-value]


def shaken(state: Encounter, me: Combatant) -> bool:
    """The cautious rule: ``me`` has less than half its Stamina and Hit Points left (temporary HP count), or its
    side has lost at least half its members."""
    cr = me.creature
    left = cr.state.sp + cr.state.hp + cr.state.temp_hp
    if 2 * left < cr.stat.sp + cr.stat.hp:
        return True
    everyone = allies(state, me.side, able=False)
    lost = len(everyone) - len(allies(state, me.side))
    return bool(everyone) and 2 * lost >= len(everyone)


def breaks(morale: Morale, state: Encounter, me: Combatant, hopeless: Callable[[], bool]) -> bool:
    """Whether ``me`` starts to retreat this turn under ``morale``; ``hopeless`` is the policy's own by-the-book
    test (asked only when the morale needs it)."""
    if morale == "fight-to-the-death":
        return False
    if morale == "cautious" and shaken(state, me):
        return True
    return hopeless()


def parse_morale(default: str | None, per_side: Mapping[str, str] | None = None) -> dict[str, Morale]:
    """``{"*": default}`` plus one entry per side, every name checked."""
    out: dict[str, Morale] = {"*": check(default or DEFAULT_MORALE)}
    for side, name in (per_side or {}).items():
        out[side] = check(name)
    return out
