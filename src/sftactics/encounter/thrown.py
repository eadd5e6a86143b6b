"""Thrown weapons in a fight: throwing or striking, where a thrown weapon lands, picking it up (ATK-04, ATK-13,
ACT-34).

A weapon with the thrown property leaves the thrower's hand. A melee weapon that can be thrown (a knife, a
baton, a spear) strikes in melee when the target is within its reach and is thrown when it is not, or when the
attacker says so (``Attack.throw``); a weapon that is only thrown is always thrown. A thrown attack is a ranged
attack (Strength to attack and damage, range increments, AC against ranged attacks); a melee one is a melee
attack. The throw's weapon lands in the target's square on a hit; on a miss it scatters as ATK-13 says (a d8
for the direction, 1 back toward the thrower then clockwise, and a d4 for the squares, from the target's
square; kept on the map). There it lies (``Combatant.on_ground``) until its owner picks it up: manipulating an
item, a move action that provokes no attack of opportunity (ACT-34, AOO-06), from its own square or an adjacent
one. A creature cannot attack with a weapon lying on the ground.

Grenades are consumed from their count (ATK-12), and thrown weapons carried as a stack (with a ``capacity``,
such as shuriken) are counted as ammunition: neither is tracked on the ground.
"""

from __future__ import annotations

from sftactics.core.errors import RuleViolation
from sftactics.encounter import space
from sftactics.encounter.commands import PickUp
from sftactics.encounter.events import CombatantChanged
from sftactics.encounter.state import Combatant, Encounter
from sftactics.encounter.tx import Tx
from sftactics.grid import geometry
from sftactics.grid.scatter import scatter
from sftactics.sf1e.statblock import Weapon

Square = tuple[int, int]


def tracked(weapon: Weapon) -> bool:
    """Whether throwing ``weapon`` leaves it on the ground: a thrown weapon that is neither a grenade nor
    carried as a counted stack."""
    return weapon.thrown and not weapon.is_grenade and weapon.capacity is None


def throwing(attacker: Combatant, target: Combatant, weapon: Weapon, throw: bool = False) -> bool:
    """Whether this attack throws ``weapon``: a weapon that is only thrown always; a melee weapon with the
    thrown property when ``throw`` says so or the target is beyond its reach."""
    if not weapon.thrown or weapon.is_grenade:
        return False
    if not weapon.is_melee or throw:
        return True
    return not space.in_reach(attacker, target, weapon)


def as_used(weapon: Weapon, thrown: bool) -> Weapon:
    """The weapon as this attack uses it: a melee weapon with the thrown property becomes a ranged thrown
    weapon for a throw and a plain melee weapon for a strike (so reach, range, cover, flanking, the ability
    and the AC the attack targets follow the use); any other weapon is itself."""
    if not (weapon.thrown and weapon.is_melee) or weapon.is_grenade:
        return weapon
    return weapon.model_copy(update={"melee": False} if thrown else {"thrown": False})


def check_at_hand(c: Combatant, weapon: Weapon) -> None:
    """Refuse an attack with a weapon lying on the ground (ACT-34: pick it up first)."""
    if weapon.name in c.on_ground:
        x, y = c.on_ground[weapon.name]
        raise RuleViolation("ACT-34", f"{c.id}'s {weapon.name} lies at {x},{y}: pick it up first (a move action)")


def landing(state: Encounter, attacker: Combatant, target: Combatant, hit: bool, d8: int, d4: int) -> Square:
    """Where a thrown weapon lands: the target's square on a hit (the one of its space nearest the thrower);
    on a miss ``d4`` squares from there in the ``d8`` direction (ATK-13), kept on the map."""
    fa, fb = space.footprint(attacker), space.footprint(target)
    assert fa is not None and fb is not None
    sq = min(fb.squares, key=lambda s: (geometry.footprint_distance_ft(fa, geometry.Footprint(s[0], s[1])), s))
    if hit:
        return sq
    try:
        x, y = scatter(sq, fa, d8, d4, target_is_square=True)
    except ValueError:  # the thrower stands on the target's square: no way back toward it, it drops there
        return sq
    grid = state.grid
    if grid is not None:
        x, y = min(max(x, 0), grid.width - 1), min(max(y, 0), grid.height - 1)
    return (x, y)


def land(tx: Tx, attacker_id: str, target_id: str, weapon: Weapon, hit: bool) -> None:
    """The thrown ``weapon`` leaves ``attacker_id``'s hand and lies where it lands (a miss rolls its scatter)."""
    s = tx.state
    attacker, target = s.get(attacker_id), s.get(target_id)
    if space.footprint(attacker) is None or space.footprint(target) is None:
        return
    d8 = d4 = 0
    if not hit:
        d8 = tx.dice.die(8, f"{weapon.name} scatter direction")
        d4 = tx.dice.die(4, f"{weapon.name} scatter distance")
    x, y = landing(s, attacker, target, hit, d8, d4)
    changes: dict[str, object] = {"on_ground": {**attacker.on_ground, weapon.name: [x, y]}}  # JSON's own shape
    if attacker.in_hand is not None:
        changes["in_hand"] = tuple(n for n in attacker.in_hand if n != weapon.name)
    tx.emit(CombatantChanged(id=attacker_id, changes=changes))
    how = "in the target's square" if hit else f"scattered: d8 {d8}, d4 {d4} squares (ATK-13)"
    tx.note(f"{attacker_id}'s {weapon.name} lands at {x},{y}, {how}; it lies there until picked up (ACT-34)",
            "ATK-13" if not hit else "ACT-34")  # fmt: skip


def pick_up(tx: Tx, c: Combatant, weapon: Weapon) -> None:
    """``c`` picks up its own ``weapon`` from the ground (the caller spends the move action)."""
    where = c.on_ground[weapon.name]
    changes: dict[str, object] = {"on_ground": {n: sq for n, sq in c.on_ground.items() if n != weapon.name}}
    if c.in_hand is not None:
        changes["in_hand"] = (*c.in_hand, weapon.name)
    tx.emit(CombatantChanged(id=c.id, changes=changes))
    tx.note(f"{c.id} picks up its {weapon.name} at {where[0]},{where[1]} (ACT-34)", "ACT-34")


def check_pick_up(c: Combatant, weapon: Weapon) -> None:
    """Refuse picking up a weapon that is not on the ground or out of reach (ACT-34)."""
    if weapon.name not in c.on_ground:
        raise RuleViolation("ACT-34", f"{c.id}'s {weapon.name} is not lying on the ground")
    fp = space.footprint(c)
    x, y = c.on_ground[weapon.name]
    if fp is not None and geometry.footprint_distance_ft(fp, geometry.Footprint(x, y)) > 5:
        raise RuleViolation("ACT-34", f"{c.id}'s {weapon.name} lies at {x},{y}: out of reach (its square or an "
                            "adjacent one)")  # fmt: skip


def do_pick_up(tx: Tx, cmd: PickUp, ctx: object) -> None:
    from sftactics.encounter.actions import _actor, _hands_free, _spend, _weapon

    c = _actor(tx, cmd.actor, ctx)  # type: ignore[arg-type]
    weapon = _weapon(c, cmd.weapon)
    check_pick_up(c, weapon)
    if c.in_hand is not None:
        _hands_free(c, weapon)
    _spend(tx, c, "move", f"pick up {weapon.name}", "ACT-34", ctx)  # type: ignore[arg-type]
    pick_up(tx, c, weapon)
