"""Ammunition and held weapons (ACT-32, ACT-34, ACT-36, ACT-40, ACT-72, GEN-10): the shots left in a weapon and
the grenades carried, checking and spending them, a weapon in hand and a hand free for another; the handlers
that reload, draw, sheathe, drop an item, change grip and manipulate an item.
"""

from __future__ import annotations

from sftactics.core.errors import RuleViolation
from sftactics.encounter import hands
from sftactics.encounter.acting import Ctx, _actor, _spend, _weapon
from sftactics.encounter.commands import ChangeGrip, Draw, DropItem, Manipulate, Reload, Sheathe
from sftactics.encounter.events import ActionSpent, CombatantChanged
from sftactics.encounter.state import Combatant
from sftactics.encounter.tx import Tx
from sftactics.sf1e.statblock import Weapon


# ---------------------------------------------------------------- ammunition and held weapons
def ammo_left(c: Combatant, weapon: Weapon) -> int | None:
    """Shots left (grenades: how many are carried); None for weapons without ammunition."""
    cap = weapon.capacity if weapon.capacity is not None else (1 if weapon.is_grenade else None)
    if cap is None:
        return None
    return c.ammo.get(weapon.name, cap)


def _use_ammo(tx: Tx, c: Combatant, weapon: Weapon, shots: int = 1) -> None:
    left = ammo_left(tx.state.get(c.id), weapon)
    if left is None:
        return
    need = weapon.usage * shots if not weapon.is_grenade else shots
    if left < need:
        what = "no grenades of that kind left" if weapon.is_grenade else f"{left} shots left, {need} needed: reload"
        raise RuleViolation("ACT-36", f"{c.id}'s {weapon.name}: {what}")
    tx.emit(CombatantChanged(id=c.id, changes={"ammo": {**tx.state.get(c.id).ammo, weapon.name: left - need}}))


def _check_ammo(c: Combatant, weapon: Weapon, shots: int = 1) -> None:
    left = ammo_left(c, weapon)
    need = (weapon.usage if not weapon.is_grenade else 1) * shots
    if left is not None and left < need:
        if weapon.is_grenade:
            raise RuleViolation("ACT-36", f"{c.id} has no {weapon.name} left to throw: every one carried is thrown")
        raise RuleViolation("ACT-36", f"{c.id}'s {weapon.name} has {left} shots left ({need} needed): reload")


def _check_in_hand(c: Combatant, weapon: Weapon) -> None:
    hands.check_wielded(c, weapon)


def _hands_free(c: Combatant, weapon: Weapon) -> None:
    from sftactics.sf1e.general import hands_needed

    if hands.hands_used(c) + hands_needed(weapon) > hands.HANDS:
        raise RuleViolation("GEN-10", f"{c.id}'s hands are full ({hands.held_text(c)})")


def do_reload(tx: Tx, cmd: Reload, ctx: Ctx) -> None:
    c = _actor(tx, cmd.actor, ctx)
    weapon = _weapon(c, cmd.weapon)
    if weapon.capacity is None or weapon.is_grenade:
        raise RuleViolation("ACT-36", f"{weapon.name} does not use ammunition")
    if ammo_left(c, weapon) == weapon.capacity:
        raise RuleViolation("ACT-36", f"{weapon.name} is already fully loaded")
    _spend(tx, c, "move", f"reload {weapon.name}", "ACT-36", ctx)
    tx.emit(CombatantChanged(id=c.id, changes={"ammo": {**c.ammo, weapon.name: weapon.capacity}}))
    tx.note(f"{c.id} reloads {weapon.name} ({weapon.capacity} shots)", "ACT-36")


def do_draw(tx: Tx, cmd: Draw, ctx: Ctx) -> None:
    c = _actor(tx, cmd.actor, ctx)
    weapon = _weapon(c, cmd.weapon)
    held = c.in_hand or ()
    if c.in_hand is not None and weapon.name in held:
        raise RuleViolation("ACT-32", f"{c.id} already holds {weapon.name}")
    if c.in_hand is not None:
        _hands_free(c, weapon)
    _spend(tx, c, "move", f"draw {weapon.name}", "ACT-32", ctx)
    tx.emit(CombatantChanged(id=c.id, changes={"in_hand": (*held, weapon.name)}))


def do_sheathe(tx: Tx, cmd: Sheathe, ctx: Ctx) -> None:
    c = _actor(tx, cmd.actor, ctx)
    weapon = _weapon(c, cmd.weapon)
    if c.in_hand is not None and weapon.name not in c.in_hand:
        raise RuleViolation("ACT-32", f"{c.id} is not holding {weapon.name}")
    _spend(tx, c, "move", f"sheathe {weapon.name}", "ACT-32", ctx)
    held = tuple(n for n in (c.in_hand or ()) if n != weapon.name)
    grips = tuple(n for n in c.one_hand_grip if n != weapon.name)
    tx.emit(CombatantChanged(id=c.id, changes={"in_hand": held, "one_hand_grip": grips}))


def do_drop_item(tx: Tx, cmd: DropItem, ctx: Ctx) -> None:
    c = _actor(tx, cmd.actor, ctx)
    weapon = _weapon(c, cmd.weapon)
    if c.in_hand is not None and weapon.name not in c.in_hand:
        raise RuleViolation("ACT-72", f"{c.id} is not holding {weapon.name}")
    held = tuple(n for n in (c.in_hand or ()) if n != weapon.name)
    tx.emit(ActionSpent(id=c.id, slot="none", action=f"drop {weapon.name}", rule="ACT-72"))
    grips = tuple(n for n in c.one_hand_grip if n != weapon.name)
    tx.emit(CombatantChanged(id=c.id, changes={"in_hand": held, "one_hand_grip": grips}))


def do_change_grip(tx: Tx, cmd: ChangeGrip, ctx: Ctx) -> None:
    c = _actor(tx, cmd.actor, ctx)
    weapon = _weapon(c, cmd.weapon)
    grips, line = hands.change_grip(c, weapon)
    _spend(tx, c, "swift", f"change grip on {weapon.name}", "ACT-40", ctx)
    if grips != c.one_hand_grip:
        tx.emit(CombatantChanged(id=c.id, changes={"one_hand_grip": grips}))
    tx.note(line, "ACT-40")


def do_manipulate(tx: Tx, cmd: Manipulate, ctx: Ctx) -> None:
    c = _actor(tx, cmd.actor, ctx)
    _spend(tx, c, "move", f"manipulate an item: {cmd.what}", "ACT-34", ctx)
