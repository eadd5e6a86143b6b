"""The GM's commands in a 2E fight: damage, healing, conditions given and taken away (the shared ``damage``,
``heal``, ``add_condition`` and ``remove_condition`` commands). Immunity to a condition cancels it (E2-23)."""

from __future__ import annotations

from typing import Any

from sftactics.core.errors import RuleViolation
from sftactics.encounter.sf2e.actions2e import knocked_out
from sftactics.encounter.sf2e.events2e import Creature2eChanged, ledger2e
from sftactics.encounter.sf2e.flow2e import body, options
from sftactics.encounter.tx import Tx
from sftactics.sf2e.conditions import definitions
from sftactics.sf2e.injury import apply_damage, heal

#: Conditions the GM does not hand out directly: the dying rules and the perception states have their own ways.
_NOT_GIVEN = frozenset({"dying", "hidden", "undetected", "unnoticed", "concealed", "invisible", "broken"})


def damage(tx: Tx, cmd: Any) -> None:
    """Damage of no type (a hazard the GM describes): ``amount`` only; typed 2E damage is a ``basic_save``."""
    if cmd.amount is None or cmd.roll is not None:
        raise RuleViolation("E2-19", "in a 2E fight the GM's damage is an amount (typed damage: basic_save)")
    c = body(tx.state, cmd.target).creature
    hurt = apply_damage(c, cmd.amount, nonlethal=cmd.nonlethal, cause="the GM", options=options(tx.state))
    tx.emit(Creature2eChanged(id=cmd.target, creature=hurt.creature, steps=ledger2e(hurt.lines)))
    if hurt.knocked_out and not hurt.creature.dead:
        knocked_out(tx, cmd.target, None)


def heal_hp(tx: Tx, cmd: Any) -> None:
    if cmd.sp:
        raise RuleViolation("E2-27", "2E creatures have no Stamina Points")
    r = heal(body(tx.state, cmd.target).creature, cmd.hp)
    tx.emit(Creature2eChanged(id=cmd.target, creature=r.creature, steps=ledger2e(r.lines)))


def add_condition(tx: Tx, cmd: Any) -> None:
    name = cmd.condition.strip().lower()
    known = definitions(options(tx.state))
    if name not in known or name in _NOT_GIVEN:
        given = ", ".join(k for k in known if k not in _NOT_GIVEN)
        raise RuleViolation("E2-51", f"{cmd.condition!r} is not a condition the GM gives in 2E ({given})")
    if cmd.rounds is not None:
        raise RuleViolation("E2-51", "2E conditions here last until they end by their own rule or are removed")
    value = 1
    if cmd.value is not None:
        if not cmd.value.strip().isdigit():
            raise RuleViolation("E2-51", f"{name}'s value is a whole number, not {cmd.value!r}")
        value = int(cmd.value)
    c = body(tx.state, cmd.target).creature
    if c.immune_to(name):
        tx.note(f"{cmd.target} is immune to {name}: it has no effect (E2-23)", "E2-23")
        return
    if not known[name].valued:
        value = 1
    new = c.model_copy(update={"conditions": {**c.conditions, name: max(value, c.condition(name))}})
    tx.emit(Creature2eChanged(id=cmd.target, creature=new, notes=(f"{cmd.target} is {name} {value} (the GM)",)))


def remove_condition(tx: Tx, cmd: Any) -> None:
    name = cmd.condition.strip().lower()
    c = body(tx.state, cmd.target).creature
    if not c.has(name):
        raise RuleViolation("E2-51", f"{cmd.target} is not {name}")
    new = c.model_copy(update={"conditions": {k: v for k, v in c.conditions.items() if k != name}})
    tx.emit(Creature2eChanged(id=cmd.target, creature=new, notes=(f"{cmd.target} is no longer {name} (the GM)",)))
