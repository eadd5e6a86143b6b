"""Class abilities in a fight: the ``use_ability`` commands with a rider, a mark, a Resolve cost or a heal of the
user or its allies (``sf1e.class_abilities`` has the numbers and the module docstring the rules).

* A **rider** (trick attack) is an attack with the user's own weapon: the action the ability names (a full
  action for trick attack), an optional move up to the user's speed first (``to``), then the skill check against
  DC ``dc_base`` + the target's CR, then the attack; on a success the extra dice join the weapon's damage and the
  target is flat-footed against this attack (-2 AC, CON-18). A failed check still attacks, without either.
* A **mark** (get 'em) gives every creature of the user's side, the user included, a typed bonus on attack rolls
  against the foe named, until the start of the user's next turn; bonuses of one type do not stack (BON-01), and
  creatures without Intelligence get no morale bonus (BON-10).
* A **Resolve cost** is paid when the ability is used; a heal of the user (``self_only``), of an ally within
  ``range_ft`` (0: touch, an adjacent creature) or of every ally within ``allies_ft`` rolls once.

Everything is checked before anything happens: a refused command changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sftactics.core.breakdown import Term
from sftactics.core.check import CheckKind, resolve
from sftactics.core.errors import RuleViolation, SftError
from sftactics.encounter import movement, reactions, space, timing
from sftactics.encounter.commands import AreaSpec, AttackSpec, SaveSpec, UseAbility
from sftactics.encounter.events import CheckMade, CombatantChanged
from sftactics.encounter.outcomes import check_data, injury_data
from sftactics.encounter.state import Combatant
from sftactics.encounter.tx import Tx
from sftactics.grid.geometry import footprint_distance_ft
from sftactics.sf1e import class_abilities as ca
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import injury, stats
from sftactics.sf1e.statblock import ModifierSpec
from sftactics.sf1e.usable import UsableAbility

if TYPE_CHECKING:
    from sftactics.encounter.actions import Ctx


def use_command(
    actor: str, ab: UsableAbility, *, target: str | None = None, area: AreaSpec | None = None,
    weapon: str | None = None, to: tuple[int, int] | None = None,
) -> UseAbility:  # fmt: skip
    """The ``use_ability`` command that uses the stat-block ability ``ab`` (its numbers as they are written; a
    class ability also carries its range, Resolve cost, rider or mark, ``weapon`` and ``to``). The simulation
    policies and ``play``'s ``use NAME`` build their commands with it."""
    extra: dict[str, Any] = {}
    if ab.is_class_ability:
        extra = {
            "resolve_cost": ab.resolve_cost,
            "range_ft": ab.range_ft if ab.target in ("ally", "foe") and ab.rider is None else None,
            "allies_ft": ab.range_ft if ab.target == "allies" else None,
            "self_only": ab.target == "self",
            "weapon": weapon,
            "rider": ab.rider,
            "mark": ab.mark,
            "to": to,
        }
    return UseAbility(
        actor=actor,
        name=ab.name,
        action=ab.action,
        kind=ab.kind,
        target=target,
        area=area,
        attack=None if ab.attack is None else AttackSpec(vs=ab.attack.vs, bonus=ab.attack.bonus,
                                                          ranged=ab.attack.ranged, range_ft=ab.range_ft),
        save=None if ab.save is None else SaveSpec(type=ab.save.type, dc=ab.save.dc, on_save=ab.save.on_save),
        damage=ab.damage,
        heal=ab.heal,
        uses=ab.uses,
        pool=ab.pool_name,
        conditions=ab.conditions,
        provokes=ab.provokes,
        **extra,
    )  # fmt: skip


def is_class_move(cmd: UseAbility) -> bool:
    return (
        cmd.rider is not None
        or cmd.mark is not None
        or cmd.resolve_cost > 0
        or cmd.allies_ft is not None
        or cmd.self_only
        or cmd.range_ft is not None
    )


def _as_ability(cmd: UseAbility) -> UsableAbility:
    return UsableAbility(name=cmd.name, resolve_cost=cmd.resolve_cost)


def _distance(a: Combatant, b: Combatant) -> int | None:
    fa, fb = space.footprint(a), space.footprint(b)
    if fa is None or fb is None:
        return None
    return footprint_distance_ft(fa, fb)


def _in_range(user: Combatant, other: Combatant, range_ft: int) -> bool:
    if user.id == other.id:
        return True
    d = _distance(user, other)
    return d is None or d <= max(range_ft, 5)


def do_class_move(tx: Tx, cmd: UseAbility, ctx: Ctx) -> None:
    from sftactics.encounter.actions import _actor, _slot, _spend

    c = _actor(tx, cmd.actor, ctx)
    pool = cmd.pool or cmd.name
    spent = c.uses_spent.get(pool, 0)
    if cmd.uses is not None and spent >= cmd.uses:
        raise RuleViolation("SPA-02", f"{c.id} has used {pool} {spent} of {cmd.uses} times: none left")
    ca.check_resolve(c.creature, _as_ability(cmd))
    slot = _slot(tx, c, cmd.action, f"use {cmd.name}", ctx)
    if cmd.rider is not None:
        _rider(tx, c, cmd, ctx, slot)
        return
    # everything else is checked first, then paid for
    if cmd.mark is not None:
        foe = _mark_target(tx, c, cmd)
    else:
        patients = _patients(tx, c, cmd)
    _spend(tx, c, cmd.action, f"use {cmd.name}", "ACT-21", ctx, slot)
    _pay(tx, c, cmd, spent)
    if cmd.mark is not None:
        _mark(tx, c, cmd, foe)
    else:
        _heal_all(tx, c, cmd, patients)


def _pay(tx: Tx, c: Combatant, cmd: UseAbility, spent: int) -> None:
    if cmd.uses is not None:
        tx.emit(CombatantChanged(id=c.id, changes={"uses_spent": {**c.uses_spent, cmd.pool or cmd.name: spent + 1}}))
    if cmd.resolve_cost:
        cr = tx.state.creature(c.id)
        after = cr.model_copy(update={"state": cr.state.model_copy(update={"rp": cr.state.rp - cmd.resolve_cost})})
        tx.creature(c.id, after, [f"{c.id} spends {cmd.resolve_cost} Resolve Point(s) on {cmd.name} [{ca.CLASS_RULE}]"])


# ---------------------------------------------------------------- heals
def _patients(tx: Tx, c: Combatant, cmd: UseAbility) -> list[Combatant]:
    if cmd.heal is None:
        raise SftError(f"{cmd.name}: give heal, a rider or a mark")
    s = tx.state
    if cmd.allies_ft is not None:
        near = [x for x in s.combatants.values() if x.side == c.side and not x.creature.has("dead") and not x.fled]
        return sorted((x for x in near if x.id == c.id or (_distance(c, x) or 0) <= cmd.allies_ft), key=lambda x: x.id)
    tid = c.id if cmd.self_only and cmd.target is None else cmd.target
    if tid is None:
        raise SftError(f"{cmd.name}: healing needs a target")
    t = s.get(tid)
    if cmd.self_only and t.id != c.id:
        raise RuleViolation(ca.CLASS_RULE, f"{cmd.name} heals only its user ({c.id}), not {t.id}")
    if t.side != c.side:
        raise RuleViolation(ca.CLASS_RULE, f"{cmd.name} heals the user's allies: {t.id} is not one")
    if t.creature.has("dead"):
        raise RuleViolation("INJ-20", f"{t.id} is dead and cannot be healed")
    if cmd.range_ft is not None and not _in_range(c, t, cmd.range_ft):
        reach = "touch (an adjacent creature)" if cmd.range_ft == 0 else f"{cmd.range_ft} ft"
        raise RuleViolation(ca.CLASS_RULE, f"{t.id} is out of {cmd.name}'s range: {reach}")
    return [t]


def _heal_all(tx: Tx, c: Combatant, cmd: UseAbility, patients: list[Combatant]) -> None:
    from sftactics.encounter.effects import roll_total

    assert cmd.heal is not None
    amount = roll_total(cmd.heal, tx.dice, f"{cmd.name} healing")
    for p in patients:
        res = injury.heal(tx.state.creature(p.id), hp=amount)
        lines = (f"{c.id} uses {cmd.name} on {p.id}: {cmd.heal} = {amount} HP [{ca.CLASS_RULE}]", *res.lines)
        tx.creature(p.id, res.creature, lines, injury=injury_data(res))


# ---------------------------------------------------------------- marks (get 'em)
def _mark_target(tx: Tx, c: Combatant, cmd: UseAbility) -> Combatant:
    if cmd.target is None:
        raise SftError(f"{cmd.name}: name the foe")
    t = tx.state.get(cmd.target)
    if t.side == c.side:
        raise RuleViolation(ca.CLASS_RULE, f"{cmd.name} names a foe: {t.id} is on {c.id}'s side")
    if t.creature.has("dead"):
        raise RuleViolation("CON-10", f"{t.id} is already dead")
    if cmd.range_ft is not None and not _in_range(c, t, cmd.range_ft):
        raise RuleViolation(ca.CLASS_RULE, f"{t.id} is farther than {cmd.range_ft} ft: out of {cmd.name}'s range")
    return t


def _mark(tx: Tx, c: Combatant, cmd: UseAbility, foe: Combatant) -> None:
    assert cmd.mark is not None
    m = cmd.mark
    label = ca.mark_label(_as_ability(cmd), c.id, foe.id)
    spec = ModifierSpec(selector=m.selector, value=m.bonus, type=m.type, label=label,
                        when=frozenset({ca.target_tag(foe.id)}), rule=ca.CLASS_RULE)  # fmt: skip
    expires = timing.until_start_of_next_turn(tx.state, c.id)
    side = sorted(x.id for x in tx.state.combatants.values() if x.side == c.side and not x.creature.has("dead"))
    for cid in side:
        tx.start_effect(cid, label, expires=expires, modifiers=(spec,), source=c.id, rule=ca.CLASS_RULE)
    tx.note(
        f"{c.id} uses {cmd.name} on {foe.id}: +{m.bonus} {m.type} to attack rolls against it for {', '.join(side)} "
        f"until the start of {c.id}'s next turn [{ca.CLASS_RULE}, BON-01]",
        ca.CLASS_RULE,
    )


# ---------------------------------------------------------------- riders (trick attack)
def _rider(tx: Tx, c: Combatant, cmd: UseAbility, ctx: Ctx, slot: str) -> None:
    from sftactics.encounter import perception, thrown
    from sftactics.encounter.actions import (
        _check_ammo,
        _check_in_hand,
        _spend,
        _target,
        _use_ammo,
        _weapon,
        execute_move,
        fire_readied,
        one_attack,
    )

    rider = cmd.rider
    assert rider is not None
    if cmd.target is None:
        raise SftError(f"{cmd.name}: name the target")
    weapon = _weapon(c, cmd.weapon)
    ca.check_rider_weapon(_as_ability(cmd), rider, weapon)
    target = _target(tx, c, cmd.target)
    if target.side == c.side:
        raise RuleViolation(ca.CLASS_RULE, f"{cmd.name} is used against a foe: {target.id} is on {c.id}'s side")
    if cmd.to is not None and not rider.move:
        raise RuleViolation(ca.CLASS_RULE, f"{cmd.name} allows no move before the attack")
    thrown.check_at_hand(c, weapon)
    _check_in_hand(c, weapon)
    _check_ammo(c, weapon)
    plan = None
    if cmd.to is not None and cmd.to != c.position:
        threats = reactions.threats_against(tx.state, c)
        plan = movement.plan(tx.state, c, to=cmd.to, path=None, threats=threats)
    else:  # no move: out of reach or range is refused before anything happens
        space.attack_geometry(tx.state, c, target, weapon)
        perception.attack_terms(tx.state, c, target, melee=weapon.is_melee, square=None)
    _spend(tx, c, cmd.action, f"use {cmd.name} on {target.id} with {weapon.name}", ca.CLASS_RULE, ctx, slot)
    _pay(tx, c, cmd, c.uses_spent.get(cmd.pool or cmd.name, 0))
    if plan is not None:
        arrived = execute_move(tx, c.id, plan, "move")
        fire_readied(tx, mover=c.id)
        if not arrived or tx.state.get(c.id).out_of_fight or tx.state.result is not None:
            return
        if tx.state.get(target.id).creature.has("dead"):
            tx.note(f"{c.id}'s {cmd.name} has no living target after the move", ca.CLASS_RULE)
            return
        me, t = tx.state.get(c.id), tx.state.get(target.id)
        space.attack_geometry(tx.state, me, t, weapon)  # the move must end where the attack is possible
        perception.attack_terms(tx.state, me, t, melee=weapon.is_melee, square=None)
    success = True
    if rider.check is not None:
        success = _skill_check(tx, c.id, target.id, cmd)
    used = weapon
    ac_extra: tuple[Term, ...] = ()
    if success:
        if rider.extra_damage:
            used = ca.with_extra_damage(weapon, rider.extra_damage)
        t_now = tx.state.creature(target.id)
        if rider.flat_footed and "flat-footed" not in cond.active(t_now):
            ac_extra = (ca.flat_footed_term(cmd.name),)
    _use_ammo(tx, c, weapon)
    fire_readied(tx, trigger_attacker=c.id, trigger_target=target.id, defensive=True)
    if not weapon.is_melee:
        reactions.provoke_all(tx, c.id, "makes a ranged attack while threatened (AOO-12)")
        if tx.state.get(c.id).out_of_fight or tx.state.result is not None:
            return
    one_attack(tx, c.id, target.id, used, [], ac_extra=ac_extra)
    fire_readied(tx, trigger_attacker=c.id, trigger_target=target.id)


def _skill_check(tx: Tx, cid: str, tid: str, cmd: UseAbility) -> bool:
    assert cmd.rider is not None and cmd.rider.check is not None
    check = cmd.rider.check
    user, target = tx.state.creature(cid), tx.state.creature(tid)
    skill = ca.best_skill(user, check)
    bonus = stats.skill_bonus(user, skill)
    dc, dc_terms = ca.check_dc(check, target)
    r = resolve(CheckKind.SKILL, bonus, dc, tx.dice, purpose=f"{cid} {cmd.name} ({skill})")
    dc_text = " ".join(t.describe() for t in dc_terms)
    what = f"{skill} check for {cmd.name} against {tid} (DC {dc} = {dc_text})"
    tx.emit(CheckMade(id=cid, what=what, success=r.success, check=check_data(r)))
    won = "the extra damage and flat-footed apply" if r.success else "a plain attack"
    tx.note(f"{cid}'s {cmd.name}: {skill} {r.total} against DC {dc}: {won} [{ca.CLASS_RULE}]", ca.CLASS_RULE)
    return r.success


__all__ = ["do_class_move", "is_class_move", "use_command"]
