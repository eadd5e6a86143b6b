"""The 2E actions in a fight: each checks first (turn, actions left, reach, path, line of effect), then emits.

Strike reads the positions for reach and range (E2-14), flanking (E2-69) and cover from the grid (E2-68), and
how the attacker perceives the target (hidden: a flat check; undetected: refused; E2-55, E2-61). Movement goes
through the shared planner with the 2E Speed as its budget. Reactions to movement (Reactive Strike) are not in
the seed, so a Stride provokes nothing.
"""

from __future__ import annotations

from sftactics.core.breakdown import Breakdown, Term
from sftactics.core.errors import RuleViolation
from sftactics.encounter import movement, space
from sftactics.encounter.events import Moved, OrderSet
from sftactics.encounter.outcomes import MoveStepData
from sftactics.encounter.sf2e import commands2e as c2
from sftactics.encounter.sf2e.events2e import (
    Acted2e,
    Body2eChanged,
    Check2eMade,
    Creature2eChanged,
    Strike2eMade,
    check2e,
    ledger2e,
)
from sftactics.encounter.sf2e.flow2e import body, options
from sftactics.encounter.state import Combatant, Encounter
from sftactics.encounter.tx import Tx
from sftactics.grid.geometry import footprint_distance_ft
from sftactics.grid.space import Body, Size
from sftactics.sf2e.attacks import strike as resolve_strike
from sftactics.sf2e.checks import roll_check
from sftactics.sf2e.conditions import Awareness
from sftactics.sf2e.creature import Attribute
from sftactics.sf2e.damage import basic_save_damage, damage, mitigate, roll_damage
from sftactics.sf2e.defenses import Save, initiative_after_knockout, perception, saving_throw, statistic
from sftactics.sf2e.defenses import attribute_term as attr_term
from sftactics.sf2e.degrees import Degree
from sftactics.sf2e.hero_points import reroll_with_hero_point
from sftactics.sf2e.injury import apply_damage
from sftactics.sf2e.modifiers import dc_from
from sftactics.sf2e.movement import Cover2e, cover_bonus, cover_from_grid, flanks, speed_for
from sftactics.sf2e.movement import drop_prone as prone_down
from sftactics.sf2e.movement import stand as stand_up
from sftactics.sf2e.persistent import add_persistent
from sftactics.sf2e.statblock import Strike2e


def spend(tx: Tx, cid: str, action: str, cost: int = 1, rule: str = "E2-42") -> None:
    """Pay ``cost`` actions on ``cid``'s turn, or refuse (nothing changes)."""
    can_spend(tx, cid, action, cost, rule)
    left = body(tx.state, cid).actions - cost
    tx.emit(Acted2e(id=cid, action=action, cost=str(cost), left=left, rule=rule))


def can_spend(tx: Tx, cid: str, action: str, cost: int = 1, rule: str = "E2-42") -> None:
    """Refuse unless it is ``cid``'s turn and it can still pay ``cost`` actions (checked before anything else)."""
    tx.state.require_turn(cid, "E2-42")
    b = body(tx.state, cid)
    c = b.creature
    if c.dead or c.unconscious or c.dying:
        raise RuleViolation("E2-31", f"{cid} cannot act ({'dead' if c.dead else 'unconscious'})")
    if b.actions < cost:
        raise RuleViolation("E2-42", f"{action} costs {cost} action{'s' if cost > 1 else ''}; {cid} has {b.actions} "
                            "left")  # fmt: skip


# ---------------------------------------------------------------- Strike
def grid_body(state: Encounter, c: Combatant) -> Body | None:
    fp = space.footprint(c)
    if fp is None or c.body2e is None:
        return None
    melee = [s for s in c.body2e.stat.strikes if s.range_increment is None or "thrown" in s.traits]
    creature = c.body2e.creature
    armed = bool(melee) and not (creature.dead or creature.unconscious or creature.dying)
    reach = max((s.reach_ft for s in melee), default=0)
    return Body(fp, Size(c.body2e.stat.size), reach_ft=reach, armed=armed, side=c.side)


Geometry2e = tuple[int | None, bool, list[Term], list[str]]


def _geometry(tx: Tx, att: Combatant, tgt: Combatant, spec: Strike2e, ranged: bool) -> Geometry2e:
    """Distance (for range), flanking, the cover terms for AC, and notes; refuses a melee Strike out of reach."""
    fa, fb = space.footprint(att), space.footprint(tgt)
    if fa is None or fb is None:
        return None, False, [], []
    dist = footprint_distance_ft(fa, fb)
    notes: list[str] = []
    if not ranged and dist > spec.reach_ft:
        raise RuleViolation("E2-10", f"{tgt.id} is {dist} ft away; {att.id}'s {spec.name} reaches {spec.reach_ft} ft")
    s = tx.state
    opts = options(s)
    flanked = False
    if not ranged and s.grid is not None:
        me = grid_body(s, att)
        allies = [b for a in s.allies_of(att.id) if (b := grid_body(s, a)) is not None and b.armed]
        if me is not None:
            fl = flanks(me, fb, allies, target_side=tgt.side, grid=s.grid, options=opts)
            flanked = fl.flanked
            if flanked:
                notes.append(f"{tgt.id} is flanked: off-guard to {att.id} (E2-69)")
    ac_terms: list[Term] = []
    found = space.cover_between(s, att, fa, fb, melee=not ranged, explain=False, target_id=tgt.id)
    if found is not None:
        degree = cover_from_grid(found.kind, options=opts)
        if body(s, tgt.id).cover_taken and degree is not Cover2e.NONE:
            degree = Cover2e(min(Cover2e.GREATER, degree + 1))
            notes.append(f"{tgt.id} has taken cover: {degree.name.lower()} cover")
        bonus = cover_bonus(degree, options=opts)
        if bonus is not None:
            ac_terms.append(bonus)
            notes.append(f"{tgt.id} has {degree.name.lower()} cover against {att.id} (E2-68)")
    return dist, flanked, ac_terms, notes


def strike(tx: Tx, cmd: c2.Strike) -> None:
    s = tx.state
    att, tgt = s.get(cmd.actor), s.get(cmd.target)
    if tgt.id == att.id:
        raise RuleViolation("E2-50", f"{att.id} cannot Strike itself")
    b, tb = body(s, att.id), body(s, tgt.id)
    if tb.creature.dead:
        raise RuleViolation("E2-32", f"{tgt.id} is dead")
    try:
        spec = b.stat.strike(cmd.weapon)
    except Exception as e:  # an unknown weapon name: the rules' refusal, nothing changed
        raise RuleViolation("E2-50", str(e)) from None
    can_spend(tx, att.id, f"Strike ({spec.name})", rule="E2-50")
    w = spec.weapon()
    ranged = not w.melee
    dist, flanked, ac_terms, notes = _geometry(tx, att, tgt, spec, ranged)
    aware = tb.awareness_of_me(att.id)
    number = b.attacks + 1
    spend(tx, att.id, f"Strike ({spec.name})", rule="E2-50")
    r = resolve_strike(b.creature, tb.creature, w, tx.dice, ranged=ranged, attack_number=number,
                       distance_ft=dist if ranged else None, awareness=aware, flanked=flanked, ac_extra=ac_terms,
                       hero_point=cmd.hero_point, options=options(s))  # fmt: skip
    dmg = ledger2e(r.damage.ledger) if r.damage is not None else ()
    tx.emit(Strike2eMade(attacker=att.id, target=tgt.id, weapon=spec.name, attack_number=number,
                         targeting=check2e(r.targeting) if r.targeting is not None else None,
                         attack=check2e(r.attack) if r.attack is not None else None, degree=r.degree.label,
                         damage=dmg, total=r.damage.total if r.damage is not None else 0,
                         notes=tuple(notes)))  # fmt: skip
    if r.attacker_after is not None:
        tx.emit(Creature2eChanged(id=att.id, creature=r.attacker_after,
                                  notes=(f"{att.id} spends a Hero Point to reroll the attack (E2-72)",)))  # fmt: skip
    changes: dict[str, object] = {"attacks": number}
    if b.cover_taken:
        changes["cover_taken"] = False
    if tgt.id in b.unseen_by:  # attacking gives it away (E2-55)
        changes["unseen_by"] = {k: v for k, v in b.unseen_by.items() if k != tgt.id}
    tx.emit(Body2eChanged(id=att.id, changes=changes))
    if r.injury is not None:
        tx.emit(Creature2eChanged(id=tgt.id, creature=r.injury.creature, steps=ledger2e(r.injury.lines)))
        if r.injury.knocked_out and not r.injury.creature.dead:
            knocked_out(tx, tgt.id, att.id)


def knocked_out(tx: Tx, who: str, by: str | None) -> None:
    """Move the knocked-out creature's initiative to just before the one that knocked it out (E2-31); it has
    then had its turn this round."""
    s = tx.state
    order = initiative_after_knockout(s.timeline.order, who, by, options=options(s))
    if order != s.timeline.order:
        tx.emit(OrderSet(order=order, mark_done=(who,), reason=f"{who} is knocked out: it now acts just before {by} "
                         "(E2-31)"))  # fmt: skip


# ---------------------------------------------------------------- moving
def _move(tx: Tx, cid: str, to: tuple[int, int] | None, path: tuple[tuple[int, int], ...] | None, budget: int,
          action: str, verb: str, rule: str) -> None:  # fmt: skip
    can_spend(tx, cid, action, rule=rule)
    c = tx.state.get(cid)
    fresh = c.model_copy(update={"diagonals": 0})  # each move counts its own diagonals (docs/sf2e.md)
    plan = movement.plan(tx.state, fresh, to=to, path=path, budget_ft=budget, what=verb, rule=rule)
    spend(tx, cid, action, rule=rule)
    steps = tuple(MoveStepData(to=plan.positions[i + 1], cost_ft=plan.costs[i], diagonal=plan.diagonal[i])
                  for i in range(len(plan.costs)))  # fmt: skip
    tx.emit(Moved(id=cid, path=plan.positions, cost_ft=plan.cost_ft, diagonals=sum(plan.diagonal), kind="move",
                  verb=verb, steps=steps, budget_ft=budget, rule=rule))  # fmt: skip
    if body(tx.state, cid).cover_taken:
        tx.emit(Body2eChanged(id=cid, changes={"cover_taken": False}))


def _refuse_prone(tx: Tx, cid: str, what: str) -> None:
    if body(tx.state, cid).creature.has("prone"):
        raise RuleViolation("E2-50", f"{cid} is prone: Stand first, or Crawl ({what})")


def stride(tx: Tx, cmd: c2.Stride) -> None:
    tx.state.require_turn(cmd.actor, "E2-42")
    _refuse_prone(tx, cmd.actor, "Stride")
    speed = speed_for(body(tx.state, cmd.actor).creature)
    _move(tx, cmd.actor, cmd.to, cmd.path, speed, "Stride", "strides", "E2-64")


def step(tx: Tx, cmd: c2.Step) -> None:
    tx.state.require_turn(cmd.actor, "E2-42")
    _refuse_prone(tx, cmd.actor, "Step")
    _move(tx, cmd.actor, None, (cmd.to,), 5, "Step", "steps", "E2-64")


def crawl(tx: Tx, actor: str, to: tuple[int, int]) -> None:
    tx.state.require_turn(actor, "E2-42")
    if not body(tx.state, actor).creature.has("prone"):
        raise RuleViolation("E2-50", f"{actor} is not prone: Crawl is for a prone creature")
    _move(tx, actor, None, (to,), 5, "Crawl", "crawls", "E2-64")


def leap(tx: Tx, cmd: c2.Leap) -> None:
    tx.state.require_turn(cmd.actor, "E2-42")
    _refuse_prone(tx, cmd.actor, "Leap")
    far = options(tx.state).leap_horizontal_ft
    c = tx.state.get(cmd.actor)
    if c.position is not None:
        dx, dy = abs(cmd.to[0] - c.position[0]), abs(cmd.to[1] - c.position[1])
        if max(dx, dy) * 5 > far:
            raise RuleViolation("E2-50", f"a Leap goes {far} ft without a check; {cmd.to} is {max(dx, dy) * 5} ft "
                                "away (the Athletics check for longer jumps is not modelled)")  # fmt: skip
    path = None if c.position is None else _line(c.position, cmd.to)
    _move(tx, cmd.actor, None, path, far, "Leap", "leaps", "E2-50")


def _line(a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    out = []
    x, y = a
    while (x, y) != b:
        x += (b[0] > x) - (b[0] < x)
        y += (b[1] > y) - (b[1] < y)
        out.append((x, y))
    return tuple(out)


def drop_prone(tx: Tx, actor: str) -> None:
    b = body(tx.state, actor)
    if b.creature.has("prone"):
        raise RuleViolation("E2-50", f"{actor} is already prone")
    spend(tx, actor, "Drop Prone", rule="E2-50")
    tx.emit(Creature2eChanged(id=actor, creature=prone_down(b.creature), notes=(f"{actor} drops prone (E2-50)",)))


def stand(tx: Tx, actor: str) -> None:
    b = body(tx.state, actor)
    if not b.creature.has("prone"):
        raise RuleViolation("E2-50", f"{actor} is not prone")
    spend(tx, actor, "Stand", rule="E2-50")
    tx.emit(Creature2eChanged(id=actor, creature=stand_up(b.creature), notes=(f"{actor} stands up (E2-50)",)))


def take_cover(tx: Tx, cmd: c2.TakeCover) -> None:
    if body(tx.state, cmd.actor).cover_taken:
        raise RuleViolation("E2-68", f"{cmd.actor} has already taken cover")
    spend(tx, cmd.actor, "Take Cover", rule="E2-68")
    tx.emit(Body2eChanged(id=cmd.actor, changes={"cover_taken": True}))


def interact(tx: Tx, cmd: c2.Interact) -> None:
    if cmd.target is not None:
        dist = space.distance_ft(tx.state.get(cmd.actor), tx.state.get(cmd.target))
        if dist is not None and dist > 5:
            raise RuleViolation("E2-41", f"{cmd.target} is {dist} ft away: shaking it awake needs it adjacent")
    spend(tx, cmd.actor, f"Interact{': ' + cmd.what if cmd.what else ''}", rule="E2-50")
    if cmd.target is None:
        return
    t = body(tx.state, cmd.target).creature
    if t.unconscious and not t.dying and t.hp > 0:
        tx.emit(Creature2eChanged(id=cmd.target, creature=t.with_conditions(unconscious=0),
                                  notes=(f"{cmd.actor} shakes {cmd.target} awake (E2-41)",)))  # fmt: skip


# ---------------------------------------------------------------- Seek
def stealth_dc(state: Encounter, cid: str) -> Breakdown:
    """10 + the creature's Stealth modifier (Dex + Stealth proficiency), the DC a Seek must meet (E2-09)."""
    c = body(state, cid).creature
    mod = statistic(c, "Stealth", "stealth", [attr_term(c, Attribute.DEX, "E2-09")], "stealth",
                    options=options(state))  # fmt: skip
    return dc_from(mod, "Stealth DC")


def seek(tx: Tx, cmd: c2.Seek) -> None:
    s = tx.state
    me = body(s, cmd.actor)
    wanted = set(cmd.targets)
    for name in wanted:
        s.get(name)
    found = [o.id for o in s.enemies_of(cmd.actor) if cmd.actor in body(s, o.id).unseen_by
             and (not wanted or o.id in wanted)]  # fmt: skip
    spend(tx, cmd.actor, "Seek", rule="E2-50")
    if not found:
        tx.note(f"{cmd.actor} Seeks: nobody is hidden from it", "E2-50")
        return
    opts = options(s)
    for oid in found:
        dc = stealth_dc(tx.state, oid)
        chk = roll_check(f"{cmd.actor}'s Seek for {oid}", perception(me.creature, options=opts), dc, tx.dice)
        tx.emit(Check2eMade(id=cmd.actor, what=f"Seek: Perception against {oid}'s Stealth DC (E2-50)",
                            check=check2e(chk)))  # fmt: skip
        ob = body(tx.state, oid)
        was = Awareness(ob.unseen_by[cmd.actor])
        if chk.degree is Degree.CRITICAL_SUCCESS or (chk.succeeded and was is Awareness.HIDDEN):
            now = {k: v for k, v in ob.unseen_by.items() if k != cmd.actor}
        elif chk.succeeded:
            now = {**ob.unseen_by, cmd.actor: "hidden"}
        else:
            continue
        tx.emit(Body2eChanged(id=oid, changes={"unseen_by": now}))
        state = now.get(cmd.actor, "observed")
        tx.note(f"{cmd.actor} finds {oid}: {oid} is now {state} to {cmd.actor} (E2-55, E2-61)", "E2-55")


# ---------------------------------------------------------------- areas with a basic save (the GM)
def area_targets(state: Encounter, cmd: c2.BasicSave) -> list[str]:
    """The named targets, or everyone (alive, on the map) in the burst: the shared grid's area (line of effect
    from its centre)."""
    if (cmd.at is None) != (cmd.burst_ft is None):
        raise RuleViolation("E2-17", "a burst needs both its centre ('at') and its radius ('burst_ft')")
    if cmd.at is None or cmd.burst_ft is None:
        if not cmd.targets:
            raise RuleViolation("E2-17", "name the targets, or give a burst ('at' and 'burst_ft')")
        for name in cmd.targets:
            state.get(name)
        return list(cmd.targets)
    if cmd.targets:
        raise RuleViolation("E2-17", "name the targets or give a burst, not both")
    if state.grid is None:
        raise RuleViolation("E2-17", "a burst needs a map")
    from sftactics.grid.areas import burst, in_area

    area = burst(state.grid, cmd.at, cmd.burst_ft)
    spaces = {c.id: fp for c in state.combatants.values() if (fp := space.footprint(c)) is not None
              and c.body2e is not None and not c.body2e.creature.dead}  # fmt: skip
    return in_area(area, spaces)


def basic_save(tx: Tx, cmd: c2.BasicSave) -> None:
    s = tx.state
    targets = area_targets(s, cmd)
    opts = options(s)
    parts = [damage(cmd.damage, cmd.damage_type)]
    if cmd.persistent:
        parts.append(damage(cmd.persistent, cmd.damage_type, persistent=True))
    rolled = roll_damage(parts, tx.dice, purpose=f"{cmd.source} damage", options=opts)
    who = ", ".join(targets) or "nobody"
    tx.note(f"{cmd.source}: {rolled.describe()} (rolled once for every target: {who}; E2-17)", "E2-17")
    for name in targets:
        b = body(tx.state, name)
        if b.creature.dead:
            continue
        creature = b.creature
        chk = saving_throw(creature, Save(cmd.save), cmd.dc, tx.dice, options=opts)
        if name in cmd.hero_point and not chk.succeeded and creature.hero_points:
            spent = reroll_with_hero_point(creature, chk, tx.dice, options=opts)
            chk, creature = spent.check, spent.creature
        tx.emit(Check2eMade(id=name, what=f"basic {cmd.save} save against {cmd.source} (E2-17)", check=check2e(chk)))
        taken = basic_save_damage(rolled, chk.degree, options=opts)
        out = mitigate(taken, creature, options=opts)
        hurt = apply_damage(creature, out.total, critical_failure_save=chk.degree is Degree.CRITICAL_FAILURE,
                            death_effect=cmd.death_effect, types=out.types_dealt, cause=cmd.source,
                            options=opts)  # fmt: skip
        after = hurt.creature
        if out.persistent and not after.dead:
            after = add_persistent(after, out.persistent, options=opts)
        tx.emit(Creature2eChanged(id=name, creature=after, steps=ledger2e([*out.ledger, *hurt.lines])))
        if hurt.knocked_out and not after.dead:
            knocked_out(tx, name, None)
