"""The GM's commands, at any time (CF-02, CF-06, DMG-*, INJ-10, CON-00): damage from a trap or a hazard (rolled or
a set amount, through the target's defenses), healing, giving and removing a condition, a combatant joining the
fight in progress (it rolls initiative and is inserted into the order) and ending the combat. The GM's toolbox
goes on in ``gm.py`` and ``gm_checks.py``.
"""

from __future__ import annotations

from pydantic import ValidationError

from sftactics.core.errors import CommandError, RuleViolation, SftError
from sftactics.core.validation import first_problem
from sftactics.dice import parse
from sftactics.encounter import flow, space
from sftactics.encounter.acting import Ctx
from sftactics.encounter.commands import AddCondition, Damage, EndCombat, Heal, Join, RemoveCondition
from sftactics.encounter.events import CombatEnded
from sftactics.encounter.outcomes import breakdown_data, damage_data, injury_data
from sftactics.encounter.tx import Tx
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import injury, stats
from sftactics.sf1e.damage import mitigate, roll_damage
from sftactics.sf1e.state import ConditionInstance


# ---------------------------------------------------------------- GM commands
def do_damage(tx: Tx, cmd: Damage, ctx: Ctx) -> None:
    if cmd.target in tx.state.vehicles:  # the GM damages a vehicle (hardness, broken, wrecked: VEH-32)
        from sftactics.encounter.driving import gm_damage_vehicle

        return gm_damage_vehicle(tx, cmd)
    t = tx.state.get(cmd.target)
    if (cmd.amount is None) == (cmd.roll is None):
        raise SftError("damage needs exactly one of 'amount' or 'roll'")
    mark = len(tx.dice.history)
    if cmd.roll is not None:
        from sftactics.core.breakdown import explain

        droll = roll_damage(parse(cmd.roll), explain("", []), tx.dice, nonlethal=cmd.nonlethal, purpose="GM damage")
    else:
        from sftactics.core.breakdown import explain

        assert cmd.amount is not None
        droll = roll_damage(parse(str(max(cmd.amount, 0))).typed(frozenset({"untyped"})), explain("", []), tx.dice,
                            nonlethal=cmd.nonlethal, purpose="GM damage")  # fmt: skip
    outcome = mitigate(droll, t.creature, options=tx.state.options)
    own = tx.state.timeline.turn == t.id
    ictx = injury.InjuryContext(round=tx.state.timeline.round, own_turn=own)
    res = injury.apply_damage(
        t.creature, outcome.amount, nonlethal=outcome.nonlethal, ctx=ictx, options=tx.state.options
    )
    data = damage_data(droll, outcome, res, t.creature, dice=tx.dice.history[mark:], kind="gm", source="GM",
                       options=tx.state.options)  # fmt: skip
    tx.creature(t.id, res.creature, damage=data)


def do_heal(tx: Tx, cmd: Heal, ctx: Ctx) -> None:
    t = tx.state.get(cmd.target)
    res = injury.heal(t.creature, hp=cmd.hp, sp=cmd.sp)
    tx.creature(t.id, res.creature, injury=injury_data(res))


def do_add_condition(tx: Tx, cmd: AddCondition, ctx: Ctx) -> None:
    t = tx.state.get(cmd.target)
    inst = ConditionInstance(name=cond.get(cmd.condition).name, value=cmd.value, rounds=cmd.rounds, source="GM")
    tx.creature(t.id, cond.add_condition(t.creature, inst), [f"GM: {t.id} gains {inst.name}"])


def do_remove_condition(tx: Tx, cmd: RemoveCondition, ctx: Ctx) -> None:
    t = tx.state.get(cmd.target)
    name = cond.get(cmd.condition).name
    if not t.creature.has(name):
        raise SftError(f"{t.id} does not have {name}")
    tx.creature(t.id, cond.remove_condition(t.creature, name), [f"GM: {t.id} loses {name}"])


def do_join(tx: Tx, cmd: Join, ctx: Ctx) -> None:
    """CF-06: a late entrant rolls initiative when it enters and is inserted into the order."""
    from sftactics.content import find_statblock
    from sftactics.encounter.events import CombatantJoined, InitiativeRolled, OrderSet
    from sftactics.encounter.state import Combatant
    from sftactics.sf1e.statblock import StatBlock
    from sftactics.sf1e.state import Creature

    if cmd.id in tx.state.combatants:
        raise SftError(f"there is already a combatant named {cmd.id!r}")
    if isinstance(cmd.statblock, str):
        stat = find_statblock(cmd.statblock)
        if stat is None:
            raise SftError(f"no bundled creature named {cmd.statblock!r}")
    else:
        try:
            stat = StatBlock.model_validate(cmd.statblock)
        except ValidationError as e:
            raise CommandError(*first_problem(e, "statblock")) from None
    newcomer = Combatant(id=cmd.id, side=cmd.side, creature=Creature.fresh(stat, cmd.id), position=cmd.at)
    if cmd.at is not None:
        problem = space.placement_problem(tx.state, newcomer, cmd.at)
        if problem is not None:
            raise RuleViolation(*problem)
    tx.emit(CombatantJoined(combatant=newcomer))
    if tx.state.timeline.phase == "setup":
        return
    c = tx.state.get(cmd.id)
    mod = stats.initiative(c.creature, tx.state.options)
    if cmd.initiative is None:
        r = tx.dice.d20(f"{cmd.id} initiative")
        total = r + mod.total
    else:
        r, total = cmd.initiative - mod.total, cmd.initiative
    tx.emit(InitiativeRolled(id=cmd.id, roll=r, modifier=mod.total, total=total, explain=mod.describe(),
                             bonus=breakdown_data(mod)))  # fmt: skip
    order = list(tx.state.timeline.order)
    at = len(order)
    for i, other in enumerate(order):
        o = tx.state.get(other)
        if (total, mod.total) > (o.initiative or 0, o.init_mod):
            at = i
            break
    order.insert(at, cmd.id)
    # it acts this round only if its place comes after the turn in progress; otherwise from the next round
    passed = at <= max((order.index(x) for x in tx.state.timeline.done if x in order), default=-1)
    tx.emit(OrderSet(order=tuple(order), reason=f"{cmd.id} joins (CF-06)", mark_done=(cmd.id,) if passed else ()))


def do_end_combat(tx: Tx, cmd: EndCombat, ctx: Ctx) -> None:
    if tx.state.result is not None:
        raise RuleViolation("CF-02", "the combat is already over")
    sides = flow.able_sides(tx.state)
    winner = sides[0] if len(sides) == 1 else None
    tx.emit(CombatEnded(winner=winner, reason=cmd.reason + " (CF-02)", round=tx.state.timeline.round))
