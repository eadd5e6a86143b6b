"""Each command resolved into events. Handlers check everything before changing anything; a RuleViolation
raised by a handler drops the whole transaction (the engine's caller keeps the state it had).

The pieces every handler builds on (who acts, spending the action, the weapon and target named, one attack roll,
movement that provokes) are in :mod:`sftactics.encounter.acting`; ammunition and held weapons in
:mod:`sftactics.encounter.gear`; the GM's commands at any time (damage, healing, conditions, joining, ending the
combat) in :mod:`sftactics.encounter.gm_basics`. This module imports the names other modules use from them
(``Ctx``, ``one_attack``, ``execute_move``, ``ammo_left``, ``_actor``, ``_spend``...), so they keep working from
here, and holds the other handlers, readied actions and the table of ``HANDLERS``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sftactics.core.breakdown import Term
from sftactics.core.check import CheckKind, resolve
from sftactics.core.errors import RuleViolation, SftError
from sftactics.encounter import flow, footing, movement, reactions, space, timing
from sftactics.encounter.acting import Ctx as Ctx
from sftactics.encounter.acting import _able as _able
from sftactics.encounter.acting import _actor as _actor
from sftactics.encounter.acting import _fight_defensively
from sftactics.encounter.acting import _slot as _slot
from sftactics.encounter.acting import _spend as _spend
from sftactics.encounter.acting import _target as _target
from sftactics.encounter.acting import _weapon as _weapon
from sftactics.encounter.acting import execute_move as execute_move
from sftactics.encounter.acting import one_attack as one_attack
from sftactics.encounter.commands import (
    Attack,
    Begin,
    Charge,
    Command,
    Crawl,
    Delay,
    DropProne,
    EndTurn,
    FirstAid,
    FullAttack,
    GuardedStep,
    MinimumMove,
    Move,
    Ready,
    Resume,
    Run,
    StabilizeWithResolve,
    StandUp,
    StayInTheFight,
    TotalDefense,
    Trigger,
    Withdraw,
    parse_command,
)
from sftactics.encounter.events import CheckMade, CombatantChanged, InitiativeChanged, Readied, TurnSkipped
from sftactics.encounter.gear import _check_ammo as _check_ammo
from sftactics.encounter.gear import _check_in_hand as _check_in_hand
from sftactics.encounter.gear import _hands_free as _hands_free
from sftactics.encounter.gear import _use_ammo as _use_ammo
from sftactics.encounter.gear import ammo_left as ammo_left
from sftactics.encounter.gear import do_change_grip, do_draw, do_drop_item, do_manipulate, do_reload, do_sheathe
from sftactics.encounter.gm_basics import (
    do_add_condition,
    do_damage,
    do_end_combat,
    do_heal,
    do_join,
    do_remove_condition,
)
from sftactics.encounter.outcomes import check_data, injury_data, opposed_data
from sftactics.encounter.state import Combatant, ReadiedAction
from sftactics.encounter.tx import Tx
from sftactics.grid import geometry
from sftactics.grid.geometry import Footprint
from sftactics.grid.space import reach_covers
from sftactics.sf1e import actions_rules, injury, stats
from sftactics.sf1e import conditions as cond
from sftactics.sf1e.movement_rules import without_sight
from sftactics.sf1e.statblock import ModifierSpec
from sftactics.sf1e.state import ConditionInstance


# ---------------------------------------------------------------- handlers
def do_begin(tx: Tx, cmd: Begin, ctx: Ctx) -> None:
    if tx.state.timeline.phase != "setup":
        raise RuleViolation("CF-01", "the combat has already begun")
    flow.begin(tx, roll_awareness=cmd.roll_awareness)


def do_search(tx: Tx, cmd: Any, ctx: Ctx) -> None:
    from sftactics.encounter import perception

    c = _actor(tx, cmd.actor, ctx)
    _spend(tx, c, "move", "search (Perception)", "SEN-05", ctx)
    checks = perception.search(tx, c.id)
    for ch in checks:
        tx.emit(CheckMade(id=c.id, what=f"Perception against {ch.target}'s Stealth (SEN-05)", success=ch.noticed,
                          check=check_data(ch.perception), opposed=opposed_data(ch), notes=ch.lines))  # fmt: skip
    if not checks:
        tx.emit(CheckMade(id=c.id, what="Perception (SEN-05)", success=False,
                          notes=(f"{c.id} looks around: no one new to find",)))  # fmt: skip


def do_attack(tx: Tx, cmd: Attack, ctx: Ctx) -> None:
    from sftactics.encounter import perception, thrown

    if cmd.target in tx.state.vehicles:  # an attack on a vehicle (VEH-02, VEH-32)
        from sftactics.encounter.driving import do_attack_vehicle

        return do_attack_vehicle(tx, cmd, ctx)
    c = _actor(tx, cmd.actor, ctx)
    weapon = _weapon(c, cmd.weapon)
    slot = _slot(tx, c, "standard", "an attack", ctx)
    target = _target(tx, c, cmd.target)
    if cmd.throw and not weapon.thrown:
        raise RuleViolation("ATK-04", f"{weapon.name} is not a thrown weapon")
    thrown.check_at_hand(c, weapon)
    throws = thrown.throwing(c, target, weapon, cmd.throw)
    used = thrown.as_used(weapon, throws)
    space.attack_geometry(tx.state, c, target, used)  # out of reach or range: refused before anything happens
    perception.attack_terms(tx.state, c, target, melee=used.is_melee, square=cmd.square)  # SEN-04, SEN-05
    _check_in_hand(c, weapon)
    _check_ammo(c, weapon)
    if cmd.arc_to is not None:
        from sftactics.encounter import arcs

        if not arcs.leaps(weapon):
            raise RuleViolation("ATK-15", f"{weapon.name} has no Arc critical effect: arc_to does not apply")
        arcs.check_choice(tx.state, c.id, cmd.target, cmd.arc_to)
    _spend(tx, c, "standard", f"attack {cmd.target} with {weapon.name}", "ACT-11", ctx, slot)
    _use_ammo(tx, c, weapon)
    if cmd.fight_defensively:
        _fight_defensively(tx, c, "ACT-18")
    fire_readied(tx, trigger_attacker=c.id, trigger_target=cmd.target, defensive=True)
    if not used.is_melee:
        reactions.provoke_all(tx, c.id, "makes a ranged attack while threatened (AOO-12)")
        if tx.state.get(c.id).out_of_fight or tx.state.result is not None:
            return
    one_attack(tx, c.id, cmd.target, weapon, [], nonlethal=cmd.nonlethal, square=cmd.square, arc_to=cmd.arc_to,
               throw=throws)  # fmt: skip
    fire_readied(tx, trigger_attacker=c.id, trigger_target=cmd.target)


def do_full_attack(tx: Tx, cmd: FullAttack, ctx: Ctx) -> None:
    c = _actor(tx, cmd.actor, ctx)
    slot = _slot(tx, c, "full", "full attack", ctx)  # the surprise round and restricted turns first (CF-09, CF-17)
    w1 = _weapon(c, cmd.weapon)
    w2 = _weapon(c, cmd.second_weapon or cmd.weapon)
    t2 = cmd.second_target or cmd.target
    _target(tx, c, cmd.target)
    _target(tx, c, t2)
    if w1.unwieldy or (w2.unwieldy and w2 == w1):
        raise RuleViolation("ACT-53", f"{w1.name} is unwieldy: it attacks only once per round, even in a full attack")
    from sftactics.encounter import thrown

    for w in (w1, w2):
        _check_in_hand(c, w)
        thrown.check_at_hand(c, w)
    t1c, t2c = tx.state.get(cmd.target), tx.state.get(t2)
    used1 = thrown.as_used(w1, thrown.throwing(c, t1c, w1))
    used2 = thrown.as_used(w2, thrown.throwing(c, t2c, w2))
    if w1.name == w2.name and thrown.tracked(w1) and not used1.is_melee:
        raise RuleViolation("ACT-34", f"{c.id}'s {w1.name} leaves its hand with the first attack: no second throw")
    if w1 == w2:
        _check_ammo(c, w1, 2)
    else:
        _check_ammo(c, w1)
        _check_ammo(c, w2)
    _spend(tx, c, "full", "full attack", "ACT-53", ctx, slot)
    _use_ammo(tx, c, w1)
    _use_ammo(tx, c, w2)
    if cmd.fight_defensively:
        _fight_defensively(tx, c, "ACT-52")
    penalty = [Term(-4, "full attack", "ACT-53")]
    space.attack_geometry(tx.state, c, t1c, used1)
    fire_readied(tx, trigger_attacker=c.id, trigger_target=cmd.target, defensive=True)
    if not (used1.is_melee and used2.is_melee):
        reactions.provoke_all(tx, c.id, "makes a ranged attack while threatened (AOO-12)")
        if tx.state.get(c.id).out_of_fight or tx.state.result is not None:
            return
    one_attack(tx, c.id, cmd.target, w1, penalty)
    if not tx.state.get(t2).creature.has("dead") and not tx.state.get(c.id).out_of_fight:
        one_attack(tx, c.id, t2, w2, penalty)
    else:
        tx.note(f"{c.id}'s second attack has no living target", "ACT-53")
    fire_readied(tx, trigger_attacker=c.id, trigger_target=cmd.target)


def do_move(tx: Tx, cmd: Move, ctx: Ctx) -> None:
    c = _actor(tx, cmd.actor, ctx)
    _no_move_while(c, "off-kilter", "CON-23")
    slot = _slot(tx, c, "move", "move", ctx)
    drawn = None
    if cmd.draw is not None:
        drawn = _weapon(c, cmd.draw)
        if c.creature.stat.bab < 1:
            raise RuleViolation("ACT-32", f"drawing while moving needs a base attack bonus of +1 ({c.id} has +0)")
        if c.in_hand is not None:
            if drawn.name in c.in_hand:
                raise RuleViolation("ACT-32", f"{c.id} already holds {drawn.name}")
            _hands_free(c, drawn)
    threats = reactions.threats_against(tx.state, c)
    plan = movement.plan(tx.state, c, to=cmd.to, path=cmd.path, threats=threats)
    _spend(tx, c, "move", "move" + (f" drawing {drawn.name}" if drawn else ""), "ACT-35", ctx, slot)
    if drawn is not None:
        tx.emit(CombatantChanged(id=c.id, changes={"in_hand": (*(c.in_hand or ()), drawn.name)}))
    execute_move(tx, c.id, plan, "move")
    fire_readied(tx, mover=c.id)


def _no_move_while(c: Combatant, condition: str, rule: str) -> None:
    if c.creature.has(condition) or condition in cond.active(c.creature):
        raise RuleViolation(rule, f"{c.id} cannot do that while {condition}")


def do_guarded_step(tx: Tx, cmd: GuardedStep, ctx: Ctx) -> None:
    """ACT-33: 5 ft without provoking; not while off-kilter; not into difficult terrain (option default)."""
    c = _actor(tx, cmd.actor, ctx)
    _no_move_while(c, "off-kilter", "CON-23")
    slot = _slot(tx, c, "move", "guarded step", ctx)
    if c.position is not None and max(abs(cmd.to[0] - c.position[0]), abs(cmd.to[1] - c.position[1])) != 1:
        at = f"{c.position[0]},{c.position[1]}"
        raise RuleViolation("ACT-33", f"a guarded step goes to a square next to {c.id} (at {at}), not to "
                                      f"{cmd.to[0]},{cmd.to[1]}")  # fmt: skip
    plan = movement.plan(tx.state, c, to=cmd.to, path=None, budget_ft=5, what="takes a guarded step", rule="ACT-33")
    if len(plan.positions) != 2:
        raise RuleViolation("ACT-33", "a guarded step moves exactly one square")
    _spend(tx, c, "move", "guarded step", "ACT-33", ctx, slot)
    execute_move(tx, c.id, plan, "step")
    fire_readied(tx, mover=c.id)


def do_crawl(tx: Tx, cmd: Crawl, ctx: Ctx) -> None:
    """ACT-30: a prone creature crawls 5 ft as a move action; it provokes like any movement."""
    c = _actor(tx, cmd.actor, ctx)
    if not c.creature.has("prone"):
        raise RuleViolation("ACT-30", f"{c.id} must be prone to crawl")
    _no_move_while(c, "off-kilter", "CON-23")
    slot = _slot(tx, c, "move", "crawl", ctx)
    threats = reactions.threats_against(tx.state, c)
    plan = movement.plan(tx.state, c, to=cmd.to, path=None, budget_ft=5, threats=threats, what="crawls",
                         rule="ACT-30")  # fmt: skip
    _spend(tx, c, "move", "crawl", "ACT-30", ctx, slot)
    execute_move(tx, c.id, plan, "crawl")


def do_withdraw(tx: Tx, cmd: Withdraw, ctx: Ctx) -> None:
    """ACT-55: up to double speed; leaving the starting square provokes nothing from enemies it can see."""
    c = _actor(tx, cmd.actor, ctx)
    if c.creature.has("blinded") and not any(k in c.creature.stat.senses for k in ("blindsight",)):
        raise RuleViolation("ACT-55", f"{c.id} is blinded and has no other precise sense: it cannot withdraw")
    slot = _slot(tx, c, "full", "withdraw", ctx)
    threats = reactions.threats_against(tx.state, c)
    speed = stats.speed(c.creature).total
    plan = movement.plan(tx.state, c, to=cmd.to, path=cmd.path, budget_ft=2 * speed, threats=threats,
                         start_exempt=frozenset(threats), what="withdraws", rule="ACT-55")  # fmt: skip
    _spend(tx, c, "full", "withdraw", "ACT-55", ctx, slot)
    execute_move(tx, c.id, plan, "withdraw")
    fire_readied(tx, mover=c.id)


def do_run(tx: Tx, cmd: Run, ctx: Ctx) -> None:
    """ACT-54: up to four times speed in a straight line, not through difficult terrain; flat-footed until
    the start of the next turn (§22 default); provokes as movement."""
    c = _actor(tx, cmd.actor, ctx)
    slot = _slot(tx, c, "full", "run", ctx)
    rules = actions_rules.run(c.creature)
    footing.refuse_if_squeezing(tx, c, "run")
    threats = reactions.threats_against(tx.state, c)
    plan = movement.plan(tx.state, c, to=cmd.to, path=cmd.path, budget_ft=rules.max_ft, threats=threats,
                         running=True, what="runs", rule="ACT-54")  # fmt: skip
    if not movement.straight(plan):
        raise RuleViolation("ACT-54", "running goes in a straight line")
    tight = footing.squeezes_on(tx, c, plan.positions[1:])
    if tight is not None:
        raise RuleViolation("MOV-19", f"{c.id} would squeeze at {tight[0]},{tight[1]}: no running while squeezing")
    _spend(tx, c, "full", "run", "ACT-54", ctx, slot)
    tx.start_effect(c.id, "running", expires=timing.until_start_of_next_turn(tx.state, c.id),
                    condition=rules.condition, rule="ACT-54")  # fmt: skip
    tx.creature(c.id, rules.creature, rules.lines[1:])
    execute_move(tx, c.id, plan, "run")
    fire_readied(tx, mover=c.id)


def do_minimum_move(tx: Tx, cmd: MinimumMove, ctx: Ctx) -> None:
    """ACT-56: as a full action, 5 ft in any direction whatever the speed penalties, if it can move at all;
    it provokes (it is not a guarded step)."""
    c = _actor(tx, cmd.actor, ctx)
    if stats.speed(c.creature).total <= 0 and any(d.speed == "zero" for d in cond.active(c.creature).values()):
        raise RuleViolation("ACT-56", f"{c.id} cannot move at all")
    slot = _slot(tx, c, "full", "minimum movement", ctx)
    threats = reactions.threats_against(tx.state, c)
    plan = movement.minimum_plan(tx.state, c, cmd.to, threats=threats)
    _spend(tx, c, "full", "minimum movement", "ACT-56", ctx, slot)
    execute_move(tx, c.id, plan, "move")


def do_charge(tx: Tx, cmd: Charge, ctx: Ctx) -> None:
    """ACT-50: up to double speed straight to the nearest square from which it can attack, at least 10 ft (as far
    as its space moves: for a big creature, its anchor's shift), through a clear path (no creatures, nothing that
    slows), then one melee attack at -2; -2 AC until the start of its next turn. ``to``/``path`` name the square
    to attack from (one of the nearest) and the way there; without them the engine picks the nearest square most
    directly toward the target."""
    c = _actor(tx, cmd.actor, ctx)
    slot = _slot(tx, c, "full", "charge", ctx)
    weapon = _weapon(c, cmd.weapon)
    if not weapon.is_melee:
        raise RuleViolation("ACT-50", "a charge ends with a melee attack")
    target = _target(tx, c, cmd.target)
    _check_in_hand(c, weapon)
    if without_sight(c.creature):
        raise RuleViolation("ACT-50", f"{c.id} is blinded: a charge needs line of sight to {target.id} (CON-03)")
    footing.refuse_if_squeezing(tx, c, "charge")
    speed = stats.speed(c.creature).total
    me = space.footprint(c)
    fp_t = space.footprint(target)
    if me is None or fp_t is None:
        raise RuleViolation("ACT-50", "charging needs positions on a map")
    reach = space.weapon_reach(c, weapon)

    def can_hit(fp: Footprint) -> bool:
        return any(reach_covers(fp, sq, reach) for sq in fp_t.squares)

    if can_hit(me):
        raise RuleViolation("ACT-50", f"{c.id} can already attack {target.id}: no need to charge")
    squares = movement.attack_squares(tx.state, c, target, can_hit, reach_ft=reach)
    if not squares:
        raise RuleViolation("ACT-50", f"no square lets {c.id} attack {target.id}")
    goal = movement.charge_goal(c, target, squares, to=cmd.to, path=cmd.path, can_hit=can_hit)
    straight_ft = geometry.space_shift_ft(me, Footprint(goal[0], goal[1], me.side))  # a big space's move, too
    rules = actions_rules.charge(c.creature, distance_ft=straight_ft)
    why_not = movement.clear_line(tx.state, c, goal)
    if why_not is not None:
        raise RuleViolation("ACT-50", f"no clear path for a charge: {why_not}")
    threats = reactions.threats_against(tx.state, c)
    try:
        plan = movement.plan(tx.state, c, to=None if cmd.path else goal, path=cmd.path, budget_ft=2 * speed,
                             threats=threats, charging=True, running=True, what="charges", rule="ACT-50")  # fmt: skip
    except RuleViolation as e:
        raise RuleViolation("ACT-50", f"no clear, straight path for a charge: {e}") from None
    if plan.cost_ft != straight_ft:
        why = f"the path to {goal} is not clear and straight ({plan.cost_ft} ft for {straight_ft})"
        raise RuleViolation("ACT-50", why)
    tight = footing.squeezes_on(tx, c, plan.positions[1:])
    if tight is not None:
        raise RuleViolation("ACT-50", f"no charging through the narrow space at {tight[0]},{tight[1]} (MOV-19)")
    _spend(tx, c, "full", f"charge {target.id}", "ACT-50", ctx, slot)
    tx.start_effect(
        c.id,
        "charging",
        expires=timing.until_start_of_next_turn(tx.state, c.id),
        modifiers=(rules.ac_modifier,),
        rule="ACT-50",
    )
    arrived = execute_move(tx, c.id, plan, "charge")
    if not arrived or tx.state.get(c.id).out_of_fight or tx.state.get(target.id).creature.has("dead"):
        return
    one_attack(tx, c.id, target.id, weapon, [rules.attack_term])


def do_total_defense(tx: Tx, cmd: TotalDefense, ctx: Ctx) -> None:
    c = _actor(tx, cmd.actor, ctx)
    if tx.state.has_flag(c.id, "fight_defensively"):
        raise RuleViolation("ACT-20", "total defense does not combine with fighting defensively")
    _spend(tx, c, "standard", "total defense", "ACT-20", ctx)
    tx.start_effect(
        c.id,
        "total defense",
        expires=timing.until_start_of_next_turn(tx.state, c.id),
        modifiers=(ModifierSpec(selector="ac", value=4, label="total defense", rule="ACT-20"),),
        flags=("total_defense", "no_aoo"),
        rule="ACT-20",
    )


def do_drop_prone(tx: Tx, cmd: DropProne, ctx: Ctx) -> None:
    c = _actor(tx, cmd.actor, ctx)
    if c.creature.has("prone"):
        raise RuleViolation("ACT-41", f"{c.id} is already prone")
    _spend(tx, c, "swift", "drop prone", "ACT-41", ctx)
    tx.creature(c.id, cond.add_condition(c.creature, ConditionInstance(name="prone")), [f"{c.id} drops prone"])


def do_stand_up(tx: Tx, cmd: StandUp, ctx: Ctx) -> None:
    c = _actor(tx, cmd.actor, ctx)
    if not c.creature.has("prone"):
        raise RuleViolation("ACT-37", f"{c.id} is not prone")
    _spend(tx, c, "move", "stand up", "ACT-37", ctx)
    tx.creature(c.id, cond.remove_condition(c.creature, "prone"), [f"{c.id} stands up"])


def do_delay(tx: Tx, cmd: Delay, ctx: Ctx) -> None:
    c = _able(tx.state.require_turn(cmd.actor))
    if not tx.state.timeline.turn_fresh:
        raise RuleViolation("ACT-71", "delay must be chosen before taking any action this turn")
    tx.emit(TurnSkipped(id=c.id, reason="delays (ACT-71)", delay=True))
    flow.advance(tx, pause_for_delayers=True)


def do_resume(tx: Tx, cmd: Resume, ctx: Ctx) -> None:
    c = tx.state.get(cmd.actor)
    if not c.delaying:
        raise RuleViolation("ACT-71", f"{c.id} is not delaying")
    if tx.state.timeline.turn is not None:
        raise RuleViolation(
            "ACT-71", f"{c.id} can come back in only between turns, not during {tx.state.timeline.turn}'s"
        )
    order = [x for x in tx.state.timeline.order if x != c.id]
    done = tx.state.timeline.done
    # act now: place it after the last combatant to have acted this round, at that combatant's count (CF-16)
    last = next((x for x in reversed(order) if x in done), None)
    at = order.index(last) + 1 if last is not None else 0
    count = tx.state.get(last).initiative if last is not None else (tx.state.get(order[0]).initiative if order else 0)
    order.insert(at, c.id)
    tx.emit(InitiativeChanged(id=c.id, count=count or 0, order=tuple(order), why="came back in from delay (CF-16)"))
    tx.emit(CombatantChanged(id=c.id, changes={"delaying": False}))
    flow.start_turn(tx, c.id)
    if not flow.check_end(tx) and not flow.can_choose(tx.state, tx.state.get(c.id)):
        flow.end_turn(tx, c.id)
        flow.advance(tx, pause_for_delayers=True)


def do_ready(tx: Tx, cmd: Ready, ctx: Ctx) -> None:
    c = _actor(tx, cmd.actor, ctx)
    inner = parse_command(cmd.action, "action")
    kind = _kind_of(inner)
    if kind not in ("standard", "move", "swift"):
        raise RuleViolation("ACT-73", "only a standard, move or swift action can be readied")
    if getattr(inner, "actor", cmd.actor) != cmd.actor:
        raise RuleViolation("ACT-73", "a readied action must be the readier's own")
    _spend(tx, c, "standard", "ready an action", "ACT-73", ctx)
    defensive = inner.type in ("total_defense",)
    tx.emit(
        Readied(
            id=c.id,
            readied=ReadiedAction(
                command=inner.model_dump(), trigger=cmd.trigger, watch=cmd.watch, defensive=defensive
            ),
        )
    )


def do_trigger(tx: Tx, cmd: Trigger, ctx: Ctx) -> None:
    c = tx.state.get(cmd.actor)
    if c.readied is None:
        raise RuleViolation("ACT-73", f"{c.id} has no readied action")
    _fire(tx, c.id, before=tx.state.timeline.turn)


def do_end_turn(tx: Tx, cmd: EndTurn, ctx: Ctx) -> None:
    tx.state.require_turn(cmd.actor)
    flow.end_turn(tx, cmd.actor)
    flow.advance(tx, pause_for_delayers=True)


def do_stabilize(tx: Tx, cmd: StabilizeWithResolve, ctx: Ctx) -> None:
    c = tx.state.require_turn(cmd.actor)
    res = injury.stabilize_with_resolve(c.creature, tx.state.timeline.round, options=tx.state.options)
    tx.creature(c.id, res.creature, injury=injury_data(res))


def do_stay(tx: Tx, cmd: StayInTheFight, ctx: Ctx) -> None:
    c = tx.state.require_turn(cmd.actor)
    if not tx.state.timeline.turn_fresh:
        raise RuleViolation("INJ-12", "staying in the fight happens at the beginning of the turn")
    res = injury.stay_in_the_fight(c.creature, tx.state.timeline.round)
    tx.creature(c.id, res.creature, injury=injury_data(res))


def do_first_aid(tx: Tx, cmd: FirstAid, ctx: Ctx) -> None:
    c = _actor(tx, cmd.actor, ctx)
    t = tx.state.get(cmd.target)
    if t.creature.has("dead"):
        raise RuleViolation("INJ-20", f"{t.id} is dead")
    if not (t.creature.has("dying") or t.creature.has("bleeding")):
        raise RuleViolation("INJ-09", f"{t.id} is neither dying nor bleeding")
    d = space.distance_ft(c, t)
    if d is not None and d > 5:
        raise RuleViolation("INJ-09", f"{t.id} is {d} ft away; first aid needs an adjacent patient")
    bonus = cmd.bonus if cmd.bonus is not None else c.creature.stat.skills.get("medicine")
    if bonus is None:
        raise SftError(f"{c.id} has no Medicine bonus in its stat block; give one with 'bonus'")
    _spend(tx, c, "standard", f"first aid on {t.id}", "INJ-09", ctx)
    if t.creature.has("dying"):
        res = injury.first_aid(t.creature, stats.skill_bonus(c.creature, "medicine", bonus=bonus), tx.dice)
        lines = [f"{c.id} gives first aid to {t.id}: {x.describe()}" for x in res.checks]
        check = check_data(res.checks[0]) if res.checks else None
        tx.emit(CheckMade(id=c.id, what="first aid (INJ-09)", success=res.became_stable, check=check,
                          notes=tuple(lines)))  # fmt: skip
        tx.creature(t.id, res.creature, injury=injury_data(res))
    else:
        r = resolve(CheckKind.SKILL, stats.skill_bonus(c.creature, "medicine", bonus=bonus), 15, tx.dice,
                    purpose=f"{c.id} Medicine (stop bleeding)")  # fmt: skip
        tx.emit(CheckMade(id=c.id, what="Medicine to stop bleeding (CON-02)", success=r.success,
                          check=check_data(r)))  # fmt: skip
        if r.success:
            new = t.creature.with_state(
                conditions=tuple(i for i in t.creature.state.conditions if i.name != "bleeding")
            )
            tx.creature(t.id, new, [f"{c.id} stops {t.id}'s bleeding (CON-02)"])


# ---------------------------------------------------------------- readied actions
def _kind_of(cmd: Command) -> str:
    return {
        "attack": "standard",
        "total_defense": "standard",
        "first_aid": "standard",
        "move": "move",
        "guarded_step": "move",
        "throw_grenade": "standard",
        "reload": "move",
        "draw": "move",
        "sheathe": "move",
        "manipulate": "move",
        "pick_up": "move",
        "search": "move",
        "change_grip": "swift",
        "crawl": "move",
        "stand_up": "move",
        "drop_prone": "swift",
        "covering_fire": "standard",
        "harrying_fire": "standard",
        "feint": "standard",
        "maneuver": "standard",
        "wake": "standard",
        "right_yourself": "move",
        "dismiss": "standard",
    }.get(cmd.type, "other")


def _fire(tx: Tx, cid: str, *, before: str | None) -> None:
    """Take ``cid``'s readied action now; its initiative moves to the current count, just before the
    triggering combatant (CF-16, ACT-73)."""
    c = tx.state.get(cid)
    assert c.readied is not None
    inner = parse_command(c.readied.command)
    tx.emit(Readied(id=cid, readied=None))
    tx.note(f"{cid}'s readied action goes off: {inner.type} (ACT-73)", "ACT-73")
    order = [x for x in tx.state.timeline.order if x != cid]
    if before is not None and before in order:
        at = order.index(before)
        count = tx.state.get(before).initiative or 0
        order.insert(at, cid)
        tx.emit(InitiativeChanged(id=cid, count=count, order=tuple(order), why="readied action (CF-16)"))
    try:
        from sftactics.encounter import restraint

        restraint.check(tx.state.get(cid), inner)
        HANDLERS[inner.type](tx, inner, Ctx(readied=True))
    except RuleViolation as e:
        tx.note(f"{cid}'s readied {inner.type} cannot be taken: {e}", e.rule)


def fire_readied(
    tx: Tx,
    *,
    trigger_attacker: str | None = None,
    trigger_target: str | None = None,
    mover: str | None = None,
    defensive: bool = False,
) -> None:
    """Fire readied actions whose trigger happens (attacks and movement the engine can see). Purely
    defensive readied actions (total defense) go off just before the trigger (``defensive=True``), the others
    just after it (ACT-06, ACT-73)."""
    for c in list(tx.state.combatants.values()):
        r = c.readied
        if r is None or c.out_of_fight or tx.state.result is not None or r.defensive != defensive:
            continue
        enemy = trigger_attacker or mover
        if enemy is None or tx.state.get(enemy).side == c.side:
            continue
        if r.watch is not None and r.watch != enemy:
            continue
        hit = (
            (r.trigger == "attacked" and trigger_target == c.id)
            or (r.trigger == "enemy_attacks" and trigger_attacker is not None)
            or (r.trigger == "enters_reach" and mover is not None and _in_reach_of(tx, c, mover))
        )
        if hit:
            _fire(tx, c.id, before=tx.state.timeline.turn)


def _in_reach_of(tx: Tx, c: Combatant, mover: str) -> bool:
    m = tx.state.get(mover)
    weapons = [w for w in c.creature.stat.weapons if w.is_melee]
    return any(space.in_reach(c, m, w) for w in weapons) and space.footprint(m) is not None


def _lazy(name: str, module: str = "effects") -> Callable[[Tx, Any, Ctx], None]:
    def run(tx: Tx, cmd: Any, ctx: Ctx) -> None:
        import importlib

        getattr(importlib.import_module(f"sftactics.encounter.{module}"), name)(tx, cmd, ctx)

    return run


#: the GM's toolbox and the small actions that come with it (gm.py)
GM_TOOLBOX = (
    "ability_damage", "restore_ability", "negative_levels", "remove_negative_levels", "add_effect", "end_effect",
    "dismiss", "rest", "wake", "right_yourself", "willing",
)  # fmt: skip
#: checks and hazards the GM calls for, and smothering flames (gm_checks.py)
GM_CHECKS = ("area_effect", "check", "stability_check", "smother")

#: vehicles in a grid fight: pilot actions, boarding, mounted weapons (driving.py)
DRIVING = ("drive", "race", "ram", "run_over", "pilot", "board", "disembark", "fire_vehicle_weapon")

HANDLERS: dict[str, Callable[[Tx, Any, Ctx], None]] = {
    "begin": do_begin,
    "attack": do_attack,
    "full_attack": do_full_attack,
    "move": do_move,
    "guarded_step": do_guarded_step,
    "throw_grenade": _lazy("do_throw_grenade"),
    "use_ability": _lazy("do_use_ability"),
    "maneuver": _lazy("do_maneuver", "tactics"),
    "escape": _lazy("do_escape", "tactics"),
    "remove_dirty_trick": _lazy("do_remove_dirty_trick", "tactics"),
    "covering_fire": _lazy("do_covering_fire", "tactics"),
    "harrying_fire": _lazy("do_harrying_fire", "tactics"),
    "feint": _lazy("do_feint", "tactics"),
    "coup_de_grace": _lazy("do_coup_de_grace", "tactics"),
    "reload": do_reload,
    "draw": do_draw,
    "sheathe": do_sheathe,
    "drop_item": do_drop_item,
    "change_grip": do_change_grip,
    "manipulate": do_manipulate,
    "pick_up": _lazy("do_pick_up", "thrown"),
    "search": do_search,
    "crawl": do_crawl,
    "withdraw": do_withdraw,
    "run": do_run,
    "minimum_move": do_minimum_move,
    "charge": do_charge,
    "total_defense": do_total_defense,
    "drop_prone": do_drop_prone,
    "stand_up": do_stand_up,
    "delay": do_delay,
    "resume": do_resume,
    "ready": do_ready,
    "trigger": do_trigger,
    "end_turn": do_end_turn,
    "stabilize": do_stabilize,
    "stay_in_the_fight": do_stay,
    "first_aid": do_first_aid,
    "damage": do_damage,
    "heal": do_heal,
    "add_condition": do_add_condition,
    "remove_condition": do_remove_condition,
    "join": do_join,
    "end_combat": do_end_combat,
    **{name: _lazy(f"do_{name}", "gm") for name in GM_TOOLBOX},
    **{name: _lazy(f"do_{name}", "gm_checks") for name in GM_CHECKS},
    "impose_cover": _lazy("do_impose_cover", "gm_setup"),
    **{name: _lazy(f"do_{name}", "driving") for name in DRIVING},
}
