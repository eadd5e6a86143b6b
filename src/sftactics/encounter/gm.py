"""The GM's toolbox during (and after) a fight: ability damage, drain and negative levels and their
restoration (ABL-*), named timed effects (CF-14, EFF-34, ACT-16, ACT-77, DMG-09), rest (INJ-16, INJ-17,
ABL-06), waking a sleeper (CON-01), righting oneself in zero gravity (CON-23) and declaring oneself a willing
target (ACT-75).

The rules are the pure functions of ``sf1e.abilities`` and ``sf1e.injury``; these handlers only find the
creature, call them and record the result as events.
"""

from __future__ import annotations

from typing import Literal

from sftactics.core.errors import RuleViolation, SftError
from sftactics.encounter import space, timing
from sftactics.encounter.commands import (
    AbilityDamage,
    AddEffect,
    Dismiss,
    EndEffect,
    NegativeLevels,
    RemoveNegativeLevels,
    Rest,
    RestoreAbility,
    RightYourself,
    Wake,
    Willing,
)
from sftactics.encounter.state import Effect, Encounter, Expiry
from sftactics.encounter.tx import Tx
from sftactics.sf1e import abilities, injury
from sftactics.sf1e import conditions as cond
from sftactics.sf1e.statblock import ModifierSpec
from sftactics.sf1e.state import ConditionInstance

# ``Ctx`` comes from actions.py, which registers these handlers; only its type is needed here.
Ctx = object


def _target(tx: Tx, cid: str) -> None:
    tx.state.get(cid)  # an unknown name is refused before anything happens


# ---------------------------------------------------------------- ability damage, drain, negative levels
def do_ability_damage(tx: Tx, cmd: AbilityDamage, ctx: Ctx) -> None:
    c = tx.state.get(cmd.target)
    opts = tx.state.options
    if cmd.kind == "damage":
        res = abilities.damage_ability(c.creature, cmd.ability, cmd.points, opts)
    elif cmd.kind == "drain":
        res = abilities.drain_ability(c.creature, cmd.ability, cmd.points, opts)
    else:
        res = abilities.penalize_ability(c.creature, cmd.ability, cmd.points)
    tx.creature(c.id, res.creature, [f"GM: {cmd.points} {cmd.ability} {cmd.kind} to {c.id}", *res.lines])


def do_restore_ability(tx: Tx, cmd: RestoreAbility, ctx: Ctx) -> None:
    c = tx.state.get(cmd.target)
    res = abilities.restore_ability(c.creature, cmd.ability, cmd.points, kind=cmd.kind)
    tx.creature(c.id, res.creature, res.lines)


def do_negative_levels(tx: Tx, cmd: NegativeLevels, ctx: Ctx) -> None:
    c = tx.state.get(cmd.target)
    ictx = injury.InjuryContext(round=tx.state.timeline.round, own_turn=tx.state.timeline.turn == c.id)
    res = abilities.gain_negative_levels(
        c.creature, cmd.count, source=cmd.source, dc=cmd.dc, permanent=cmd.permanent, options=tx.state.options,
        ctx=ictx,
    )  # fmt: skip
    tx.creature(c.id, res.creature, res.lines)


def do_remove_negative_levels(tx: Tx, cmd: RemoveNegativeLevels, ctx: Ctx) -> None:
    c = tx.state.get(cmd.target)
    res = abilities.remove_negative_levels(
        c.creature, cmd.count, source=cmd.source, include_permanent=cmd.include_permanent
    )
    tx.creature(c.id, res.creature, res.lines)


# ---------------------------------------------------------------- named effects
def do_add_effect(tx: Tx, cmd: AddEffect, ctx: Ctx) -> None:
    c = tx.state.get(cmd.target)
    if cmd.name in {e.name for e in tx.state.effects_on(c.id)}:
        raise SftError(f"{c.id} already has an effect named {cmd.name!r}: end it first or use another name")
    for keeper in (cmd.concentration, cmd.dismissible):
        if keeper is not None:
            tx.state.get(keeper)
    if cmd.concentration is not None and cmd.dismissible is not None:
        raise SftError("an effect is kept up by concentration or dismissible, not both (a concentration effect "
                       "can always be ended by its keeper, ACT-77)")  # fmt: skip
    expires = timing.for_rounds(tx.state, cmd.rounds) if cmd.rounds is not None else Expiry()
    inst = None
    if cmd.condition is not None:
        inst = ConditionInstance(name=cond.get(cmd.condition).name, source=cmd.name)
    mods = tuple(
        ModifierSpec(selector=m.selector, value=m.value, type=m.type, label=cmd.name, when=m.when, rule="CF-14")
        for m in cmd.modifiers
    )
    if inst is not None:
        creature = tx.state.creature(c.id)
        tx.creature(c.id, cond.add_condition(creature, inst), [f"{cmd.name}: {c.id} gains {inst.name}"])
    if cmd.temp_hp:
        res = injury.add_temp_hp(tx.state.creature(c.id), cmd.temp_hp, tx.state.options)
        tx.creature(c.id, res.creature, res.lines)
    keep: Literal["none", "concentration", "dismissible"] = (
        "concentration" if cmd.concentration else "dismissible" if cmd.dismissible else "none"
    )
    keeper = cmd.concentration or cmd.dismissible
    tx.start_effect(c.id, cmd.name, expires=expires, condition=inst, modifiers=mods, source=cmd.source,
                    rule="CF-14", temp_hp=cmd.temp_hp, keeper=keeper, keep=keep)  # fmt: skip


def end_named(tx: Tx, effect: Effect, why: str) -> None:
    """End ``effect``; the temporary HP it granted go with it (DMG-09)."""
    tx.end_effect(effect.id, why)  # its condition and modifiers go with it
    if effect.temp_hp and effect.target in tx.state.combatants:
        creature = tx.state.creature(effect.target)
        if creature.state.temp_hp:
            res = injury.lose_temp_hp(creature)
            tx.creature(effect.target, res.creature, res.lines)


def _named(tx: Tx, name: str, target: str | None) -> list[Effect]:
    if target is not None:
        tx.state.get(target)
    found = [e for e in tx.state.effects if e.name == name and (target is None or e.target == target)]
    if not found:
        where = f" on {target}" if target else ""
        raise SftError(f"no effect named {name!r}{where}")
    return found


def do_end_effect(tx: Tx, cmd: EndEffect, ctx: Ctx) -> None:
    for effect in _named(tx, cmd.name, cmd.target):
        end_named(tx, effect, "ended by the GM")


def do_dismiss(tx: Tx, cmd: Dismiss, ctx: Ctx) -> None:
    from sftactics.encounter.actions import _actor, _spend

    c = _actor(tx, cmd.actor, ctx)  # type: ignore[arg-type]
    mine = [e for e in _named(tx, cmd.name, None) if e.keeper == c.id and e.keep != "none"]
    if not mine:
        raise RuleViolation("EFF-34", f"{c.id} keeps up no effect named {cmd.name!r} that it can end")
    if any(e.keep == "dismissible" for e in mine):
        _spend(tx, c, "standard", f"dismiss {cmd.name}", "ACT-16", ctx)  # type: ignore[arg-type]
        why = "dismissed (EFF-34, ACT-16)"
    else:
        why = f"{c.id} stops concentrating (ACT-77)"
    for effect in mine:
        end_named(tx, effect, why)


# ---------------------------------------------------------------- rest and recovery
def do_rest(tx: Tx, cmd: Rest, ctx: Ctx) -> None:
    c = tx.state.get(cmd.target)
    if cmd.kind == "stamina":
        if cmd.interrupted:
            raise RuleViolation("INJ-16", "Stamina comes back only after 10 uninterrupted minutes of rest")
        res = injury.recover_stamina(c.creature)
    else:
        res = injury.night_rest(c.creature, bed_rest=cmd.kind == "bed_rest", interrupted=cmd.interrupted)
    tx.creature(c.id, res.creature, res.lines)


# ---------------------------------------------------------------- small actions
def do_wake(tx: Tx, cmd: Wake, ctx: Ctx) -> None:
    from sftactics.encounter.actions import _actor, _spend

    c = _actor(tx, cmd.actor, ctx)  # type: ignore[arg-type]
    t = tx.state.get(cmd.target)
    if not t.creature.has("asleep"):
        if t.creature.has("unconscious"):
            raise RuleViolation("CON-35", f"{t.id} is unconscious, not asleep: shaking it does not wake it")
        raise RuleViolation("CON-01", f"{t.id} is not asleep")
    dist = space.distance_ft(c, t)
    if dist is not None and dist > 5:
        raise RuleViolation("CON-01", f"{t.id} is {dist} ft away: {c.id} must be next to it to wake it")
    _spend(tx, c, "standard", f"wake {t.id}", "CON-01", ctx)  # type: ignore[arg-type]
    tx.creature(t.id, cond.remove_condition(t.creature, "asleep"), [f"{c.id} wakes {t.id} (CON-01)"])


def do_right_yourself(tx: Tx, cmd: RightYourself, ctx: Ctx) -> None:
    from sftactics.encounter.actions import _actor, _spend

    c = _actor(tx, cmd.actor, ctx)  # type: ignore[arg-type]
    if not c.creature.has("off-kilter"):
        raise RuleViolation("CON-23", f"{c.id} is not off-kilter")
    _spend(tx, c, "move", "right itself", "CON-23", ctx)  # type: ignore[arg-type]
    tx.creature(c.id, cond.remove_condition(c.creature, "off-kilter"),
                [f"{c.id} grabs hold and rights itself (CON-23)"])  # fmt: skip


def do_willing(tx: Tx, cmd: Willing, ctx: Ctx) -> None:
    c = tx.state.get(cmd.actor)
    if cmd.toward is not None:
        tx.state.get(cmd.toward)
    current = [e for e in tx.state.effects_on(c.id) if "willing" in e.flags and e.source == (cmd.toward or "")]
    whom = cmd.toward or "anyone"
    if cmd.willing:
        if current:
            raise SftError(f"{c.id} is already a willing target of {whom}")
        tx.start_effect(c.id, f"willing target of {whom}", expires=Expiry(), flags=("willing",),
                        source=cmd.toward or "", rule="ACT-75")  # fmt: skip
        return
    if not current:
        raise SftError(f"{c.id} has not declared itself a willing target of {whom}")
    for e in current:
        tx.end_effect(e.id, f"{c.id} is no longer willing (ACT-75)")


def is_willing(state: Encounter, cid: str, toward: str) -> bool:
    """Whether ``cid`` has declared itself a willing target of ``toward`` (or of anyone) (ACT-75)."""
    return any("willing" in e.flags and e.source in ("", toward) for e in state.effects_on(cid))
