"""What every action handler builds on (ACT-*, ATK-*, AOO-06, AOO-08): how a handler is being run (``Ctx``: a
command on the actor's turn or a readied action), who may act (a dead, dying, stable or unconscious creature takes
no actions: CON-10, CON-12, CON-32, CON-35), the action slot a command takes and spending it (ACT-01..08, CF-09;
ACT-73 for a readied action), the weapon and the target a command names (ATK-09, CON-10), fighting defensively
(ACT-18, ACT-52), one attack roll with everything the positions and the senses give (:func:`one_attack`), and
movement along a plan that stops for the attacks of opportunity it provokes (:func:`execute_move`).
:mod:`sftactics.encounter.actions` and the other handler modules use them.
"""

from __future__ import annotations

from sftactics.core.breakdown import Term
from sftactics.core.errors import RuleViolation, SftError
from sftactics.encounter import budget, confusion, footing, movement, reactions, space, timing
from sftactics.encounter.events import ActionSpent, AttackMade, CombatantChanged, Moved
from sftactics.encounter.outcomes import AttackData, ConcealmentData, attack_data
from sftactics.encounter.state import Combatant
from sftactics.encounter.tx import Tx
from sftactics.sf1e import injury
from sftactics.sf1e.attack import Situation, resolve_attack
from sftactics.sf1e.statblock import ModifierSpec, Weapon


class Ctx:
    """How a handler is being run: as a normal command on the actor's turn, or as a readied action."""

    def __init__(self, readied: bool = False) -> None:
        self.readied = readied


def _surprise(tx: Tx) -> bool:
    return tx.state.timeline.phase == "surprise"


#: why a combatant that is down cannot act, most final first
_DOWN = (("dead", "CON-10"), ("dying", "CON-12"), ("stable", "CON-32"), ("unconscious", "CON-35"))


def _actor(tx: Tx, cid: str, ctx: Ctx) -> Combatant:
    if ctx.readied:
        return tx.state.get(cid)
    return _able(tx.state.require_turn(cid))


def _able(c: Combatant) -> Combatant:
    """``c``, if it can act at all: a dead, dying, stable or unconscious creature takes no actions (its turn
    is for stabilizing or staying in the fight only)."""
    for name, rule in _DOWN:
        if c.creature.has(name):
            raise RuleViolation(rule, f"{c.id} is {name} and cannot act")
    return c


def _slot(tx: Tx, c: Combatant, kind: budget.Kind, action: str, ctx: Ctx) -> str:
    """The slot the action will use (checked before anything else about the action)."""
    if ctx.readied:
        return "none"
    return budget.take(c, kind, surprise=_surprise(tx), what=action)


def _spend(tx: Tx, c: Combatant, kind: budget.Kind, action: str, rule: str, ctx: Ctx, slot: str | None = None) -> None:
    slot = slot or _slot(tx, c, kind, action, ctx)
    if slot == "none":
        tx.emit(ActionSpent(id=c.id, slot="none", action=f"{action} (readied)", rule="ACT-73"))
        return
    tx.emit(ActionSpent(id=c.id, slot=slot, action=action, rule=rule))


def _weapon(c: Combatant, name: str | None) -> Weapon:
    stat = c.creature.stat
    if not stat.weapons:
        raise SftError(f"{c.id} has no weapons")
    return stat.weapons[0] if name is None else stat.weapon(name)


def _target(tx: Tx, attacker: Combatant, tid: str) -> Combatant:
    t = tx.state.get(tid)
    if t.id == attacker.id:
        raise RuleViolation("ATK-09", f"{attacker.id} cannot attack itself")
    if t.creature.has("dead"):
        raise RuleViolation("CON-10", f"{t.id} is already dead")
    return t


def _fight_defensively(tx: Tx, c: Combatant, rule: str) -> None:
    """-4 to attacks this round, +2 AC until the start of the next turn (ACT-18, ACT-52)."""
    if tx.state.has_flag(c.id, "fight_defensively"):
        return
    if tx.state.has_flag(c.id, "total_defense"):
        raise RuleViolation("ACT-20", "total defense does not combine with other actions that raise AC")
    tx.start_effect(
        c.id,
        "fighting defensively",
        expires=timing.until_start_of_next_turn(tx.state, c.id),
        modifiers=(
            ModifierSpec(selector="attack", value=-4, label="fighting defensively", rule=rule),
            ModifierSpec(selector="ac", value=2, label="fighting defensively", rule=rule),
        ),
        flags=("fight_defensively",),
        rule=rule,
    )


def one_attack(
    tx: Tx,
    attacker_id: str,
    target_id: str,
    weapon: Weapon,
    extra: list[Term],
    *,
    nonlethal: bool = False,
    reaction: bool = False,
    square: tuple[int, int] | None = None,
    arc_to: str | None = None,
    throw: bool = False,
    ac_extra: tuple[Term, ...] = (),
) -> None:
    """One attack roll with everything the positions give (reach, range, cover, flanking, concealment) and
        what each side perceives of the other (SEN-04..10, MOD-20). A critical hit with an Arc weapon leaps to the
        creature ``arcs.secondary`` finds (``arc_to``: the attacker's choice among equally near ones, ATK-15). A
    weapon with the thrown property is thrown (``throw``, or a target beyond its reach: ``thrown.throwing``) and
    then lies where it lands; otherwise a melee weapon strikes in melee."""
    from sftactics.encounter import arcs, gm_setup, perception, thrown
    from sftactics.encounter.tactics import one_shot_terms

    s = tx.state
    attacker, target = s.get(attacker_id), s.get(target_id)
    throws = thrown.throwing(attacker, target, weapon, throw)
    weapon = thrown.as_used(weapon, throws)
    leaves = throws and thrown.tracked(weapon)
    geo = space.attack_geometry(s, attacker, target, weapon)
    seen = perception.attack_terms(s, attacker, target, melee=weapon.is_melee, square=square)
    if seen.automatic_miss:
        auto = AttackData(
            attacker=attacker_id,
            target=target_id,
            weapon=weapon.name,
            outcome="miss",
            automatic=f"automatic miss ({seen.rule})",
            cover=geo.cover,
            flanking=geo.flanking,
        )
        tx.emit(AttackMade(attacker=attacker_id, target=target_id, weapon=weapon.name, hit=False, critical=False,
                           damage=None, result=auto, notes=(*geo.notes, *seen.lines), reaction=reaction))  # fmt: skip
        if leaves:
            thrown.land(tx, attacker_id, target_id, weapon, False)
        perception.after_attack(tx, attacker, target, melee=weapon.is_melee)
        return
    shot_attack, shot_ac, consumed = one_shot_terms(s, attacker, target)
    miss, why = geo.miss_chance, geo.miss_reason
    if seen.miss_chance > miss:
        miss, why = seen.miss_chance, f"the attacker does not see the target, {seen.rule}"
    arc = arcs.secondary(s, attacker_id, target_id, arc_to) if arcs.leaps(weapon) else None
    situation = Situation(
        attack_terms=(*geo.attack_terms, *extra, *shot_attack),
        ac_terms=(*geo.ac_terms, *shot_ac, *seen.ac_terms, *ac_extra),
        tags=frozenset({f"target:{target_id}"}),  # a side's bonus against one foe (get 'em, sf1e.class_abilities)
        nonlethal=nonlethal,
        zero_gravity=gm_setup.zero_gravity(s, target_id),  # the target's surroundings (a knockdown)
        miss_chance=miss,
        miss_reason=why,
        ctx=injury.InjuryContext(round=s.timeline.round, own_turn=s.timeline.turn == target_id),
        secondary=arc.creature if arc is not None else None,
        secondary_ctx=injury.InjuryContext(
            round=s.timeline.round, own_turn=arc is not None and s.timeline.turn == arc.id
        ),
    )
    mark = len(tx.dice.history)
    result = resolve_attack(attacker.creature, target.creature, weapon, tx.dice, situation, s.options)
    rolled = tx.dice.history[mark:]
    d100 = next((d for d in rolled if d.sides == 100 and "miss chance" in d.purpose), None)
    concealment = None
    if d100 is not None:
        concealment = ConcealmentData(chance=miss, reason=why, roll=d100.result, missed=d100.result <= miss)
    data = attack_data(result, target.creature, dice=rolled, concealment=concealment, cover=geo.cover,
                       flanking=geo.flanking, range_ft=geo.range_ft, range_increment=geo.range_increment,
                       options=s.options)  # fmt: skip
    tx.emit(
        AttackMade(
            attacker=attacker_id,
            target=target_id,
            weapon=weapon.name,
            hit=result.hit,
            critical=result.critical,
            damage=None if result.damage is None else result.damage.amount,
            result=data,
            notes=geo.notes,
            reaction=reaction,
        )
    )
    tx.creature(target_id, result.defender)
    if arc is not None and result.secondary_injury is not None and result.secondary is not None:
        tx.creature(arc.id, result.secondary)
    if leaves:
        thrown.land(tx, attacker_id, target_id, weapon, result.hit)
    for eid in consumed:
        tx.end_effect(eid, "used by this attack")
    perception.after_attack(tx, attacker, target, melee=weapon.is_melee)
    confusion.note_attacked(tx, attacker_id, target_id)
    if not reaction:
        tx.emit(CombatantChanged(id=attacker_id, changes={"attacks_this_turn": attacker.attacks_this_turn + 1}))


def execute_move(tx: Tx, cid: str, plan: movement.MovePlan, kind: str) -> bool:
    """Move along ``plan``, stopping for attacks of opportunity where the mover leaves a threatened square
    (AOO-06, AOO-08): the attack comes first; a mover that drops stays where it was. A blinded mover going
    faster than half speed first attempts its Acrobatics check (CON-03). False when it did not get to the end."""
    if not footing.blind_move_allowed(tx, cid, plan.cost_ft):
        return False
    pos = plan.positions
    if len(set(pos)) > 1:
        from sftactics.encounter.tactics import release_held

        release_held(tx, cid, f"{cid} moved away (MAN-07)")
    done = 0
    pending = list(plan.provocations)
    for step, enemy in pending:
        if step > done:
            _segment(tx, cid, plan, done, step, kind)
            done = step
        reactions.attack_of_opportunity(tx, enemy, cid, f"leaves a threatened square ({pos[step][0]},{pos[step][1]})")
        if tx.state.get(cid).out_of_fight or tx.state.result is not None:
            tx.note(f"{cid}'s movement ends at {pos[done][0]},{pos[done][1]}", "AOO-08")
            return False
    if done < len(pos) - 1:
        _segment(tx, cid, plan, done, len(pos) - 1, kind)
    return True


def _segment(tx: Tx, cid: str, plan: movement.MovePlan, a: int, b: int, kind: str) -> None:
    from sftactics.encounter.outcomes import MoveStepData

    path = plan.positions[a : b + 1]
    cost = sum(plan.costs[a:b])
    diagonals = sum(1 for d in plan.diagonal[a:b] if d)
    steps = tuple(
        MoveStepData(to=plan.positions[i + 1], cost_ft=plan.costs[i], diagonal=plan.diagonal[i],
                     provokes=tuple(e for s, e in plan.provocations if s == i))
        for i in range(a, b)
    )  # fmt: skip
    provokes = tuple(e for s, e in plan.provocations if s == b)
    tx.emit(Moved(id=cid, path=path, cost_ft=cost, diagonals=diagonals, kind=kind, verb=plan.what, steps=steps,
                  provokes=provokes, part=0 if a == 0 else 1, budget_ft=plan.budget_ft))  # fmt: skip
    footing.refresh_squeezing(tx, (cid,))
