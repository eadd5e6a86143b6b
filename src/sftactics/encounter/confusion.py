"""A confused creature's turn (CON-06), whoever plays it: commands, ``play`` or a policy.

At the start of its turn (after bleeding and burning) a confused creature that can act either is devoted to
attacking the creature that last attacked it while it was confused (while that creature is alive, in the fight
and located by it), or rolls d% on the confusion table (``conditions.confusion_behavior``). Either way a
:class:`~sftactics.encounter.events.ConfusionRolled` event records the roll, the behaviour and the creatures it
must attack, and the turn follows it:

* act normally: nothing is constrained;
* babble: the turn has no decision and passes (end-of-turn upkeep still happens);
* hurt itself: 1d8 + its Strength modifier damage with the weapon in hand (of that weapon's damage type) at
  once, then the turn passes; a creature with no manufactured weapon in hand cannot, so it babbles;
* attack the nearest creature whose location it knows (ally or foe: it cannot tell them apart; the dead do not
  count), or the devoted target: its commands are limited to moving, readying a weapon and attacks (attack,
  full attack, charge, combat maneuver, coup de grace, targeted ability) against those creatures; anything else
  is refused naming CON-06. Ending the turn without attacking is what "cannot carry out the action: babble"
  comes to.

Being attacked while confused remembers the attacker (``Combatant.confused_by``); a confused creature makes
attacks of opportunity only against that creature (``may_take_aoo``).
"""

from __future__ import annotations

from sftactics.core.breakdown import explain
from sftactics.core.errors import RuleViolation
from sftactics.dice import parse
from sftactics.encounter import space
from sftactics.encounter.commands import Command, command_actor
from sftactics.encounter.events import CombatantChanged, ConfusionRolled
from sftactics.encounter.state import Combatant, ConfusedTurn, Encounter
from sftactics.encounter.tx import Tx
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import injury, stats
from sftactics.sf1e.damage import mitigate, roll_damage
from sftactics.sf1e.senses import Awareness
from sftactics.sf1e.statblock import Weapon

CONFUSED = "confused"
RULE = "CON-06"

#: Commands a confused creature bound to attack may still give: getting there and getting ready.
_PREPARE = frozenset({"move", "guarded_step", "crawl", "minimum_move", "stand_up", "reload", "draw", "change_grip",
                      "end_turn"})  # fmt: skip
#: Commands that attack their ``target`` (and ``second_target``).
_ATTACKS = frozenset({"attack", "full_attack", "charge", "maneuver", "coup_de_grace", "use_ability"})


def _alive(c: Combatant) -> bool:
    return not c.creature.has("dead") and not c.fled


def devoted_target(state: Encounter, c: Combatant) -> str | None:
    """The creature ``c`` keeps attacking: the last one that attacked it while confused, until that creature
    is dead, gone or out of its sight (not located)."""
    from sftactics.encounter.perception import view

    tid = c.confused_by
    if tid is None or tid not in state.combatants:
        return None
    t = state.get(tid)
    if not _alive(t) or view(state, c.id, tid) < Awareness.AWARE_OF_LOCATION:
        return None
    return tid


def nearest_creatures(state: Encounter, c: Combatant) -> tuple[str, ...]:
    """Every other living creature whose location ``c`` knows, at the smallest distance (ties all count);
    without positions, all of them."""
    from sftactics.encounter.perception import view

    others = [o for o in state.combatants.values()
              if o.id != c.id and _alive(o) and view(state, c.id, o.id) >= Awareness.AWARE_OF_LOCATION]  # fmt: skip
    dist = {o.id: space.distance_ft(c, o) for o in others}
    if not others or any(d is None for d in dist.values()):
        return tuple(sorted(o.id for o in others))
    low = min(d for d in dist.values() if d is not None)
    return tuple(sorted(i for i, d in dist.items() if d == low))


def weapon_in_hand(c: Combatant) -> Weapon | None:
    """The manufactured weapon a confused creature hurts itself with: the first held one (hands tracked) or the
    first in its stat block; None if it has none."""
    for w in c.creature.stat.weapons:
        if w.is_grenade or w.category in ("natural", "unarmed"):
            continue
        if c.in_hand is None or w.name in c.in_hand:
            return w
    return None


def start_of_turn(tx: Tx, cid: str) -> None:
    """Decide a confused creature's turn (see the module docstring); nothing for anyone else."""
    c = tx.state.get(cid)
    cr = c.creature
    if not cr.has(CONFUSED):
        if c.confused_by is not None:
            tx.emit(CombatantChanged(id=cid, changes={"confused_by": None}))
        return
    if c.out_of_fight or stats.action_limits(cr).none:
        return
    if c.confused_turn is not None and c.confused_turn.round == tx.state.timeline.round:
        return  # coming back in after delaying: this round's turn was already decided (no second roll)
    devoted = devoted_target(tx.state, c)
    if devoted is not None:
        tx.emit(ConfusionRolled(id=cid, roll=None, behavior="attack_attacker", targets=(devoted,), lines=(
            f"{cid} is confused and attacks {devoted}, the last creature that attacked it ({RULE})",)))  # fmt: skip
        return
    if c.confused_by is not None:
        tx.emit(CombatantChanged(id=cid, changes={"confused_by": None}))
    roll = tx.dice.percentile(f"{cid} confusion (d%)")
    action = cond.confusion_behavior(roll)
    lines = [f"{cid} is confused: d% {roll}: {_TABLE[action]} ({RULE})"]
    targets: tuple[str, ...] = ()
    behavior = str(action)
    weapon = weapon_in_hand(c)
    if action is cond.ConfusedAction.ATTACK_NEAREST:
        targets = nearest_creatures(tx.state, c)
        if targets:
            lines.append(f"the nearest creature{'s' if len(targets) > 1 else ''}: {', '.join(targets)}")
        else:
            behavior = str(cond.ConfusedAction.BABBLE)
            lines.append(f"no other creature to attack: {cid} babbles instead ({RULE})")
    elif action is cond.ConfusedAction.HURT_SELF and weapon is None:
        behavior = str(cond.ConfusedAction.BABBLE)
        lines.append(f"{cid} holds no item to hurt itself with: it babbles instead ({RULE})")
    tx.emit(ConfusionRolled(id=cid, roll=roll, behavior=behavior, targets=targets, lines=tuple(lines)))
    if behavior == cond.ConfusedAction.HURT_SELF and weapon is not None:
        _hurt_self(tx, cid, weapon)


_TABLE = {
    cond.ConfusedAction.ACT_NORMALLY: "01-25, acts normally",
    cond.ConfusedAction.BABBLE: "26-50, does nothing but babble",
    cond.ConfusedAction.HURT_SELF: "51-75, hurts itself with the item in hand",
    cond.ConfusedAction.ATTACK_NEAREST: "76-100, attacks the nearest creature",
}


def _hurt_self(tx: Tx, cid: str, weapon: Weapon) -> None:
    cr = tx.state.creature(cid)
    parts = parse(weapon.damage).parts
    types = parts[0].types if parts and parts[0].types else frozenset({"untyped"})
    expr = cond.confusion_self_damage(cr).typed(types)
    droll = roll_damage(expr, explain("", []), tx.dice, purpose=f"{cid} hurts itself ({weapon.name})",
                        options=tx.state.options)  # fmt: skip
    outcome = mitigate(droll, cr, options=tx.state.options)
    ctx = injury.InjuryContext(round=tx.state.timeline.round, own_turn=True)
    res = injury.apply_damage(cr, outcome.amount, nonlethal=outcome.nonlethal, ctx=ctx, options=tx.state.options)
    lines = [f"{cid} hurts itself with its {weapon.name}: 1d8 + Strength = {droll.total} ({RULE})",
             *(x.describe() for x in outcome.ledger), *res.lines]  # fmt: skip
    tx.creature(cid, res.creature, lines)


def decides(c: Combatant) -> bool:
    """False when this turn's confusion leaves nothing to decide (babbling, or having hurt itself)."""
    t = c.confused_turn
    return t is None or t.behavior not in (cond.ConfusedAction.BABBLE, cond.ConfusedAction.HURT_SELF)


def forced_targets(state: Encounter, cid: str) -> tuple[str, ...] | None:
    """The creatures ``cid`` must attack this turn, or None when its turn is not bound by confusion."""
    c = state.get(cid)
    t = c.confused_turn
    if t is None or not t.targets or not c.creature.has(CONFUSED) or state.timeline.turn != cid:
        return None
    return t.targets


def check_command(state: Encounter, command: Command) -> None:
    """Refuse (CON-06) a command a confused creature cannot give on a turn bound to attacking someone."""
    actor = command_actor(command)
    if actor is None or actor not in state.combatants:
        return
    targets = forced_targets(state, actor)
    if targets is None:
        return
    kind = command.type
    if kind in _PREPARE:
        return
    if kind in _ATTACKS:
        aimed = [getattr(command, "target", None), getattr(command, "second_target", None)]
        wrong = [t for t in aimed if t is not None and t not in targets]
        if aimed[0] is not None and not wrong:
            return
        other = wrong[0] if wrong else "something else"
        raise RuleViolation(RULE, f"{actor} is confused and must attack {', '.join(targets)} this turn, not {other}")
    raise RuleViolation(RULE, f"{actor} is confused and must attack {', '.join(targets)} this turn: no {kind}")


def note_attacked(tx: Tx, attacker_id: str, target_id: str) -> None:
    """A confused creature remembers who attacked it last (it attacks that creature from then on)."""
    t = tx.state.get(target_id)
    if attacker_id != target_id and t.creature.has(CONFUSED) and t.confused_by != attacker_id:
        tx.emit(CombatantChanged(id=target_id, changes={"confused_by": attacker_id}))


def may_take_aoo(reactor: Combatant, provoker: Combatant) -> tuple[bool, str]:
    """A confused creature makes attacks of opportunity only against the creature it is committed to."""
    if reactor.creature.has(CONFUSED) and reactor.confused_by != provoker.id:
        return False, f"confused, not committed to attacking {provoker.id} ({RULE})"
    return True, ""


__all__ = [
    "ConfusedTurn",
    "check_command",
    "decides",
    "devoted_target",
    "forced_targets",
    "may_take_aoo",
    "nearest_creatures",
    "note_attacked",
    "start_of_turn",
    "weapon_in_hand",
]
