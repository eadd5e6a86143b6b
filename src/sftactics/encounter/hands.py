"""What a combatant's hands hold, when the scenario tracks it (``Combatant.in_hand`` is not None; GEN-10,
ACT-32, ACT-40, MAN-05).

A creature has two hands. A small arm or a one-handed melee weapon takes one hand; a longarm, a heavy or
sniper weapon or a two-handed melee weapon takes both, unless its wielder has changed grips to hold it in one
hand (``Combatant.one_hand_grip``, a swift action, ACT-40): then it takes one hand and is not wielded, so it
cannot attack (GEN-10) until the grip is changed back. Natural weapons and unarmed strikes take none.

A grapple needs a free hand (MAN-05), so does catching a disarmed item (MAN-04). A panicked or stunned
creature drops everything it holds (:func:`drop_forced`, after every command). When hands are not tracked,
every weapon is at hand and a hand is assumed free.
"""

from __future__ import annotations

from typing import Final

from sftactics.core.errors import RuleViolation
from sftactics.encounter.events import CombatantChanged
from sftactics.encounter.state import Combatant
from sftactics.encounter.tx import Tx
from sftactics.sf1e import conditions as cond
from sftactics.sf1e.general import hands_needed
from sftactics.sf1e.statblock import Weapon

#: Hands a creature has (the stat blocks do not give more).
HANDS: Final = 2


def hands_on(c: Combatant, weapon: Weapon) -> int:
    """Hands ``weapon`` takes now: 0 if it is not held."""
    if c.in_hand is not None and weapon.name not in c.in_hand:
        return 0
    need = hands_needed(weapon)
    return min(need, 1) if weapon.name in c.one_hand_grip else need


def hands_used(c: Combatant) -> int:
    if c.in_hand is None:
        return 0
    return sum(hands_on(c, c.creature.stat.weapon(n)) for n in c.in_hand)


def free_hands(c: Combatant) -> int:
    """Hands holding nothing (all of them when hands are not tracked)."""
    return max(HANDS - hands_used(c), 0)


def held_text(c: Combatant) -> str:
    held = [f"{n} (one hand)" if n in c.one_hand_grip else n for n in (c.in_hand or ())]
    return ", ".join(held) or "nothing"


def check_wielded(c: Combatant, weapon: Weapon) -> None:
    """Refuse an attack with ``weapon`` unless it is held in as many hands as it needs (GEN-10)."""
    if c.in_hand is None or weapon.category in ("natural", "unarmed") or weapon.is_grenade:
        return
    if weapon.name not in c.in_hand:
        raise RuleViolation("GEN-10", f"{c.id} is not holding its {weapon.name}: draw it first (ACT-32)")
    if weapon.name in c.one_hand_grip:
        raise RuleViolation(
            "GEN-10", f"{c.id} holds {weapon.name} in one hand: it is not wielded until the grip changes (ACT-40)"
        )
    if hands_used(c) > HANDS:
        raise RuleViolation("GEN-10", f"{weapon.name} needs both hands; {c.id} holds {held_text(c)}")


def check_free_hand(c: Combatant, rule: str, what: str) -> None:
    """Refuse ``what`` (a grapple: MAN-05) when no hand is free."""
    if c.in_hand is not None and free_hands(c) < 1:
        raise RuleViolation(rule, f"{c.id} needs a free hand to {what} (GEN-10); it holds {held_text(c)}")


def change_grip(c: Combatant, weapon: Weapon) -> tuple[tuple[str, ...], str]:
    """The new ``one_hand_grip`` after changing grips on ``weapon`` (ACT-40), and a line saying so. Only a
    held weapon that needs two hands has grips to change; taking it back in both hands needs the other hand
    free."""
    if c.in_hand is None:
        return c.one_hand_grip, f"{c.id} changes grip on {weapon.name} (hands are not tracked)"
    if weapon.name not in c.in_hand:
        raise RuleViolation("ACT-40", f"{c.id} is not holding {weapon.name}")
    if hands_needed(weapon) < 2:
        return c.one_hand_grip, f"{c.id} changes grip on {weapon.name} (a one-handed weapon: nothing else changes)"
    if weapon.name in c.one_hand_grip:
        if free_hands(c) < 1:
            raise RuleViolation("GEN-10", f"{c.id} needs its other hand free to wield {weapon.name} ({held_text(c)})")
        grips = tuple(n for n in c.one_hand_grip if n != weapon.name)
        return grips, f"{c.id} takes {weapon.name} in both hands: wielded (ACT-40, GEN-10)"
    grips = (*c.one_hand_grip, weapon.name)
    return grips, f"{c.id} holds {weapon.name} in one hand, freeing the other; not wielded (ACT-40, GEN-10)"


def drop_forced(tx: Tx) -> None:
    """Conditions that make a creature drop what it holds (panicked CON-26, stunned CON-34): empty the hands
    of everyone under one, when hands are tracked. The items fall in the creature's square."""
    for c in list(tx.state.combatants.values()):
        if not c.in_hand:
            continue
        why = [n for n, d in cond.active(c.creature).items() if d.drops_held_items]
        if why:
            d = cond.get(why[0])
            tx.emit(CombatantChanged(id=c.id, changes={"in_hand": (), "one_hand_grip": ()}))
            tx.note(f"{c.id} is {why[0]}: it drops {held_text(c)} ({d.rule})", d.rule)
