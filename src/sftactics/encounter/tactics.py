"""Maneuvers, support fire, feints and the coup de grace in a fight: the encounter's side of
``sf1e.maneuvers`` and ``sf1e.actions_rules`` (reach, positions, durations, consuming one-shot bonuses).

One-shot benefits are timed effects with a flag, consumed by the first attack they apply to:
``covering_fire`` on the protected ally (+2 circumstance AC against an attacker in the shooter's line of
effect, ACT-15), ``harried`` on the foe (+2 circumstance to the next attack by an ally of the shooter,
ACT-19), ``feinted`` on the target (flat-footed against the feinter's next attack, ACT-17).
"""

from __future__ import annotations

from typing import Any, Literal

from sftactics.core.breakdown import BonusType, Term
from sftactics.core.errors import RuleViolation
from sftactics.encounter import gm_setup, hands, space, timing
from sftactics.encounter.commands import (
    CoupDeGrace,
    CoveringFire,
    Escape,
    Feint,
    HarryingFire,
    ManeuverCmd,
    RemoveDirtyTrick,
)
from sftactics.encounter.events import AttackMade, CheckMade, Moved
from sftactics.encounter.outcomes import (
    AttackData,
    MoveStepData,
    breakdown_data,
    check_data,
    damage_data,
    pools_data,
)
from sftactics.encounter.state import Combatant, Encounter
from sftactics.encounter.tx import Tx
from sftactics.grid import forced
from sftactics.grid.geometry import Footprint, footprint_distance_ft
from sftactics.grid.lines import has_line_of_effect
from sftactics.grid.space import Size, is_sub_square
from sftactics.sf1e import actions_rules, injury, maneuvers
from sftactics.sf1e.attack import Situation
from sftactics.sf1e.objects import ObjectState

Square = tuple[int, int]


def _h(name: str) -> Any:
    from sftactics.encounter import actions

    return getattr(actions, name)


# ---------------------------------------------------------------- one-shot bonuses in attacks
def one_shot_terms(
    state: Encounter, attacker: Combatant, target: Combatant
) -> tuple[list[Term], list[Term], list[int]]:
    """(attack terms, AC terms, effect ids to consume) that covering fire, harrying fire and feints give this
    attack."""
    attack: list[Term] = []
    ac: list[Term] = []
    used: list[int] = []
    grid = state.grid
    fa = space.footprint(attacker)
    for e in state.effects:
        if e.target == target.id and "covering_fire" in e.flags and attacker.side != target.side:
            shooter = state.combatants.get(e.source)
            fs = space.footprint(shooter) if shooter is not None else None
            if grid is not None and fs is not None and fa is not None and not has_line_of_effect(grid, fs, fa):
                continue
            ac.append(Term(2, "covering fire", "ACT-15", BonusType.CIRCUMSTANCE, source="covering fire"))
            used.append(e.id)
        elif e.target == target.id and "harried" in e.flags:
            shooter = state.combatants.get(e.source)
            if shooter is not None and shooter.side == attacker.side and shooter.id != attacker.id:
                attack.append(Term(2, "harrying fire", "ACT-19", BonusType.CIRCUMSTANCE, source="harrying fire"))
                used.append(e.id)
        elif e.target == target.id and "feinted" in e.flags and e.source == attacker.id:
            ac.append(Term(-2, "flat-footed against the feinter", "ACT-17", source="flat-footed"))
            used.append(e.id)
    return attack, ac, used


# ---------------------------------------------------------------- maneuvers
def _reach_check(c: Combatant, t: Combatant, weapon_name: str | None) -> None:
    weapon = c.creature.stat.weapon(weapon_name) if weapon_name else None
    melee = [w for w in c.creature.stat.weapons if w.is_melee]
    options = [weapon] if weapon is not None else melee
    if space.footprint(c) is None or space.footprint(t) is None:
        return
    if not options:
        # an unarmed maneuver reaches the creature's natural reach
        fc, ft = space.footprint(c), space.footprint(t)
        assert fc is not None and ft is not None
        if footprint_distance_ft(fc, ft) > c.creature.stat.reach_ft:
            raise RuleViolation("MAN-01", f"{t.id} is out of {c.id}'s reach")
        return
    if not any(space.in_reach(c, t, w) for w in options if w is not None):
        raise RuleViolation("MAN-01", f"{t.id} is out of {c.id}'s reach")


def holding(state: Encounter, cid: str) -> str | None:
    """Whom ``cid`` grapples (the source of a grappled/pinned condition), if anyone."""
    for c in state.combatants.values():
        if maneuvers.grappled_by(c.creature) == cid:
            return c.id
    return None


def _maneuver_data(attacker: str, target: str, r: maneuvers.ManeuverResult) -> AttackData:
    """A combat maneuver's roll against KAC + 8 (MAN-01) as data."""
    return AttackData(kind="maneuver", attacker=attacker, target=target, weapon=r.weapon.name, ac_kind="kac",
                      ac_reason="KAC + 8 (MAN-01)", ac=breakdown_data(r.target), roll=check_data(r.roll),
                      outcome="hit" if r.success else "miss", automatic=r.roll.automatic,
                      after=pools_data(r.defender.state))  # fmt: skip


def _support_data(kind: Literal["covering_fire", "harrying_fire"], attacker: str, r: Any) -> AttackData:
    """Covering or harrying fire: an attack roll against AC 15 (ACT-15, ACT-19) as data."""
    return AttackData(kind=kind, attacker=attacker, target="AC 15", weapon=r.weapon.name, ac_kind="ac",
                      ac_reason="a fixed AC 15", ac=breakdown_data(r.ac), roll=check_data(r.roll),
                      outcome="hit" if r.hit else "miss", automatic=r.roll.automatic)  # fmt: skip


def do_maneuver(tx: Tx, cmd: ManeuverCmd, ctx: Any) -> None:
    c = _h("_actor")(tx, cmd.actor, ctx)
    t = _h("_target")(tx, c, cmd.target)
    kind = "full" if cmd.full_action else "standard"
    if cmd.drag_to is not None and not (cmd.full_action and cmd.kind == "reposition"):
        raise RuleViolation("MAN-10", "only a reposition made as a full action drags the target along")
    slot = _h("_slot")(tx, c, kind, f"a {cmd.kind.replace('_', ' ')}", ctx)
    _reach_check(c, t, cmd.weapon)
    if cmd.kind == "grapple":
        hands.check_free_hand(c, "MAN-05", "grapple")
    obj = (
        ObjectState(cmd.item or "item", hp=cmd.hp, max_hp=cmd.hp, hardness=cmd.hardness)
        if cmd.kind == "sunder"
        else None
    )
    result = maneuvers.attempt(
        cmd.kind.replace("_", " "),
        c.creature,
        t.creature,
        cmd.weapon,
        tx.dice,
        condition=cmd.condition,
        item=cmd.item,
        obj=obj,
        free_hand=hands.free_hands(c) >= 1,
        holding=holding(tx.state, c.id),
        full_action=cmd.full_action,
        zero_gravity=gm_setup.zero_gravity(tx.state, t.id),  # the defender's surroundings (a trip)
        options=tx.state.options,
    )
    _h("_spend")(tx, c, kind, f"{cmd.kind.replace('_', ' ')} {t.id}", "MAN-01", ctx, slot)
    tx.emit(AttackMade(attacker=c.id, target=t.id, weapon=result.weapon.name, hit=result.success, critical=False,
                       damage=None, result=_maneuver_data(c.id, t.id, result), notes=result.lines))  # fmt: skip
    if result.success and (result.renewal or result.grapple_ended):
        # the old grapple's expiry must not end the renewed one (MAN-07)
        _end_grapple_effects(tx, c.id, t.id, "renewed" if result.condition is not None else "an item was taken")
    tx.creature(c.id, result.attacker)
    tx.creature(t.id, result.defender)
    if not result.success:
        return
    if cmd.kind == "grapple" and result.condition is not None:
        anchor = result.expires_anchor or c.id
        until = timing.until_end_of_next_turn(tx.state, anchor)
        name = "pinned" if result.pinned else "grappled"
        tx.start_effect(t.id, name, condition=result.condition, expires=until, source=c.id, rule="MAN-07")
    if cmd.kind == "bull_rush" and result.distance_ft:
        _push(tx, c, tx.state.get(t.id), result.distance_ft)
    if cmd.kind == "reposition" and result.distance_ft:
        moved = _reposition(tx, c, tx.state.get(t.id), cmd.to, result.distance_ft)
        if cmd.drag_to is not None and result.drag_ft:
            _drag(tx, tx.state.get(c.id), tx.state.get(t.id), cmd.drag_to, min(moved, result.drag_ft))
    if cmd.kind == "disarm" and result.item:
        d = tx.state.get(t.id)
        if d.in_hand is not None and result.item in d.in_hand:
            from sftactics.encounter.events import CombatantChanged

            left = tuple(x for x in d.in_hand if x != result.item)
            grips = tuple(x for x in d.one_hand_grip if x != result.item)
            tx.emit(CombatantChanged(id=t.id, changes={"in_hand": left, "one_hand_grip": grips}))


def _end_grapple_effects(tx: Tx, grappler: str, target: str | None, why: str) -> None:
    """End the timed grapple effects ``grappler`` holds on ``target`` (on anyone if None), so that an old
    expiry cannot end a renewed grapple (MAN-07)."""
    for e in list(tx.state.effects):
        held = e.condition is not None and e.condition.name in maneuvers.GRAPPLE_CONDITIONS
        if held and e.source == grappler and e.target != grappler and target in (None, e.target):
            tx.end_effect(e.id, why)


def release_held(tx: Tx, grappler: str, why: str) -> None:
    """Whoever ``grappler`` holds is free (MAN-07: the grapple ends at once when the grappler moves away)."""
    _end_grapple_effects(tx, grappler, None, why)
    for o in list(tx.state.combatants.values()):
        if o.id != grappler and maneuvers.grappled_by(o.creature) == grappler:
            end = maneuvers.end_grapple(o.creature, grappler, "grappler moved away")
            tx.creature(o.id, end.creature, end.lines)


def _taken(state: Encounter, *ids: str) -> frozenset[Square]:
    """Squares of the creatures a forced movement cannot pass or end in: everyone on the map but the dead, the
    fled and ``ids``."""
    out: set[Square] = set()
    for o in state.combatants.values():
        if o.id in ids or o.fled or o.creature.has("dead"):
            continue
        fp = space.footprint(o)
        if fp is not None:
            out.update(fp.squares)
    return frozenset(out)


def _narrow_ok(t: Combatant) -> bool:
    return is_sub_square(Size(t.creature.stat.size))


def _forced_move(tx: Tx, t: Combatant, path: forced.ForcedPath, by: str, kind: str, rule: str) -> None:
    """Forced movement as data: the squares the target went through (kind ``push``, ``reposition`` or ``drag``),
    then why it stopped short, if it did."""
    if len(path.positions) > 1:
        squares = path.squares
        tx.emit(Moved(id=t.id, path=squares, cost_ft=0, kind=kind, verb="is moved", by=by, rule=rule,
                      steps=tuple(MoveStepData(to=sq, cost_ft=0) for sq in squares[1:])))  # fmt: skip
        _out_of_reach_grapples(tx, t.id)
    if path.stopped_by:
        tx.note(f"{t.id} stops after {path.moved_ft} ft: {path.stopped_by} ({rule})", rule)
    elif len(path.positions) <= 1:
        tx.note(f"{t.id} does not move ({rule})", rule)


def _out_of_reach_grapples(tx: Tx, moved: str) -> None:
    """A grapple ends when forced movement leaves the held creature out of its grappler's reach (MAN-07)."""
    s = tx.state
    pairs = [(g, moved) for g in [maneuvers.grappled_by(s.creature(moved))] if g in s.combatants]
    pairs += [(moved, o.id) for o in s.combatants.values() if maneuvers.grappled_by(o.creature) == moved]
    for g, held in pairs:
        grappler, target = s.get(g), s.get(held)
        body = space.body(s, grappler)
        reach = max((body.reach_ft or 0) if body is not None else 0, grappler.creature.stat.reach_ft)
        dist = space.distance_ft(grappler, target)
        if dist is not None and dist > reach:
            _end_grapple_effects(tx, g, held, "out of the grappler's reach")
            end = maneuvers.end_grapple(tx.state.creature(held), g, "grappler moved away")
            tx.creature(held, end.creature, (f"{held} is moved out of {g}'s reach: the grapple ends (MAN-07)",))


def _push(tx: Tx, c: Combatant, t: Combatant, distance_ft: int) -> None:
    """Bull rush: directly away from the attacker, square by square, ending in the last space the target could
    legally enter before a wall, an obstacle or a creature (MAN-02)."""
    fc, ft = space.footprint(c), space.footprint(t)
    grid = tx.state.grid
    if fc is None or ft is None or grid is None or t.position is None:
        return
    dx = (ft.x + ft.side / 2) - (fc.x + fc.side / 2)
    dy = (ft.y + ft.side / 2) - (fc.y + fc.side / 2)
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    path = forced.push(grid, ft, (sx, sy), distance_ft // 5, _taken(tx.state, t.id), can_enter_narrow=_narrow_ok(t))
    _forced_move(tx, t, path, c.id, "push", "MAN-02")


def _reposition(tx: Tx, c: Combatant, t: Combatant, to: Square | None, distance_ft: int) -> int:
    """Reposition: to a square within the attacker's reach and within the distance of the target, every space
    on the way within reach (MAN-09). With no clear way there, the target goes straight toward ``to`` and ends
    in the last space it could legally enter. Returns the feet moved."""
    if to is None or t.position is None:
        tx.note(f"{t.id} could be moved up to {distance_ft} ft: give 'to' to move it", "MAN-09")
        return 0
    ft = space.footprint(t)
    assert ft is not None
    dest = Footprint(to[0], to[1], ft.side)
    if footprint_distance_ft(ft, dest) > distance_ft:
        raise RuleViolation("MAN-09", f"{to} is farther than {distance_ft} ft from {t.id}")
    melee = [w for w in c.creature.stat.weapons if w.is_melee]

    def within_reach(fp: Footprint) -> bool:
        moved = t.model_copy(update={"position": fp.anchor})
        if not melee:
            fc = space.footprint(c)
            return fc is None or footprint_distance_ft(fc, fp) <= c.creature.stat.reach_ft
        return any(space.in_reach(c, moved, w) for w in melee)

    if not within_reach(dest):
        raise RuleViolation("MAN-09", f"{to} is outside {c.id}'s reach")
    grid = tx.state.grid
    if grid is None:
        tx.emit(Moved(id=t.id, path=(t.position, to), cost_ft=0, kind="reposition", verb="is moved", by=c.id,
                      rule="MAN-09", steps=(MoveStepData(to=to, cost_ft=0),)))  # fmt: skip
        return footprint_distance_ft(ft, dest)
    taken = _taken(tx.state, t.id)
    narrow = _narrow_ok(t)
    path = forced.shift(grid, ft, to, distance_ft, taken, allowed=within_reach, can_enter_narrow=narrow)
    if path is None:
        path = forced.toward(grid, ft, to, distance_ft, taken, allowed=within_reach, can_enter_narrow=narrow)
    _forced_move(tx, t, path, c.id, "reposition", "MAN-09")
    return path.moved_ft


def _drag(tx: Tx, c: Combatant, t: Combatant, goal: Square, max_ft: int) -> None:
    """A full-action reposition's drag (MAN-10): the attacker moves toward ``goal`` as far as it moved the
    target (at most its speed), the target keeping its place beside it; both stop at the first obstacle either
    meets. Part of the maneuver: neither provokes (the MAN-13 default)."""
    fc, ft = space.footprint(c), space.footprint(t)
    grid = tx.state.grid
    if fc is None or ft is None or grid is None:
        return
    narrow = (is_sub_square(Size(c.creature.stat.size)), _narrow_ok(t))
    a_path, t_path = forced.drag(grid, fc, ft, goal, max_ft, _taken(tx.state, c.id, t.id), can_enter_narrow=narrow)
    if len(a_path.positions) > 1:
        squares = a_path.squares
        tx.emit(Moved(id=c.id, path=squares, cost_ft=0, kind="drag", verb="drags", by=t.id, rule="MAN-10",
                      steps=tuple(MoveStepData(to=sq, cost_ft=0) for sq in squares[1:])))  # fmt: skip
    _forced_move(tx, t, t_path, c.id, "dragged", "MAN-10")


def do_escape(tx: Tx, cmd: Escape, ctx: Any) -> None:
    c = _h("_actor")(tx, cmd.actor, ctx)
    grappler = maneuvers.grappled_by(c.creature)
    if grappler is None:
        raise RuleViolation("MAN-08", f"{c.id} is not grappled")
    g = tx.state.get(grappler)
    if cmd.method == "grapple":
        slot = _h("_slot")(tx, c, "standard", "grapple back", ctx)
        result = maneuvers.attempt("grapple", c.creature, g.creature, None, tx.dice, holding=None,
                                   options=tx.state.options)  # fmt: skip
        _h("_spend")(tx, c, "standard", f"grapple {grappler} back", "MAN-08", ctx, slot)
        tx.emit(AttackMade(attacker=c.id, target=grappler, weapon="grapple", hit=result.success, critical=False,
                           damage=None, result=_maneuver_data(c.id, grappler, result), notes=result.lines))  # fmt: skip
        tx.creature(c.id, result.attacker)
        tx.creature(grappler, result.defender)
        if result.success and result.condition is not None:
            for e in [e for e in tx.state.effects if e.target == c.id and e.source == grappler]:
                tx.end_effect(e.id, "the grapple was reversed")
            until = timing.until_end_of_next_turn(tx.state, c.id)
            tx.start_effect(grappler, "grappled", condition=result.condition, expires=until, source=c.id, rule="MAN-08")
        return
    if cmd.dc is None:
        raise RuleViolation("MAN-08", "the Acrobatics escape needs its DC")
    slot = _h("_slot")(tx, c, "standard", "escape", ctx)
    r = maneuvers.escape(c.creature, cmd.dc, tx.dice, bonus=cmd.bonus, grappler=grappler)
    _h("_spend")(tx, c, "standard", "escape", "MAN-08", ctx, slot)
    tx.emit(CheckMade(id=c.id, what="escape (MAN-08)", success=r.escaped, check=check_data(r.check), notes=r.lines))
    tx.creature(c.id, r.creature)
    if r.escaped:
        for e in [e for e in tx.state.effects if e.target == c.id and e.source == grappler]:
            tx.end_effect(e.id, "escaped")


def do_remove_dirty_trick(tx: Tx, cmd: RemoveDirtyTrick, ctx: Any) -> None:
    c = _h("_actor")(tx, cmd.actor, ctx)
    r = maneuvers.remove_dirty_trick(c.creature)
    if not r.removed:
        raise RuleViolation("MAN-03", f"{c.id} has no condition from a dirty trick")
    _h("_spend")(tx, c, "move", "shake off a dirty trick", "MAN-03", ctx)
    tx.creature(c.id, r.creature, r.lines)


# ---------------------------------------------------------------- support fire, feint, coup de grace
def _support(tx: Tx, c: Combatant, other: Combatant, weapon_name: str | None, kind: str, ctx: Any) -> Any:
    from sftactics.encounter import thrown

    weapon = thrown.as_used(_h("_weapon")(c, weapon_name), True)  # a melee weapon that can be thrown is thrown
    if weapon.is_melee:
        raise RuleViolation("ACT-15" if kind == "covering" else "ACT-19", f"{kind} fire needs a ranged weapon")
    thrown.check_at_hand(c, weapon)
    _h("_check_ammo")(c, weapon)
    slot = _h("_slot")(tx, c, "standard", f"{kind} fire", ctx)
    geo = space.attack_geometry(tx.state, c, other, weapon) if kind == "harrying" else None
    situation = Situation(attack_terms=geo.attack_terms if geo else ())
    rule = "ACT-15" if kind == "covering" else "ACT-19"
    _h("_spend")(tx, c, "standard", f"{kind} fire", rule, ctx, slot)
    _h("_use_ammo")(tx, c, weapon)
    if kind == "covering":
        return actions_rules.covering_fire(c.creature, weapon, other.creature, tx.dice, situation=situation)
    return actions_rules.harrying_fire(c.creature, weapon, other.creature, tx.dice, situation=situation)


def do_covering_fire(tx: Tx, cmd: CoveringFire, ctx: Any) -> None:
    c = _h("_actor")(tx, cmd.actor, ctx)
    ally = tx.state.get(cmd.ally)
    if ally.side != c.side:
        raise RuleViolation("ACT-15", f"{ally.id} is not an ally of {c.id}")
    r = _support(tx, c, ally, cmd.weapon, "covering", ctx)
    tx.emit(AttackMade(attacker=c.id, target="AC 15", weapon=r.weapon.name, hit=r.hit, critical=False, damage=None,
                       result=_support_data("covering_fire", c.id, r), notes=r.lines))  # fmt: skip
    if r.hit:
        tx.start_effect(ally.id, f"covering fire from {c.id}", flags=("covering_fire",), source=c.id,
                        expires=timing.until_start_of_next_turn(tx.state, c.id), rule="ACT-15")  # fmt: skip


def do_harrying_fire(tx: Tx, cmd: HarryingFire, ctx: Any) -> None:
    c = _h("_actor")(tx, cmd.actor, ctx)
    foe = _h("_target")(tx, c, cmd.target)
    r = _support(tx, c, foe, cmd.weapon, "harrying", ctx)
    tx.emit(AttackMade(attacker=c.id, target="AC 15", weapon=r.weapon.name, hit=r.hit, critical=False, damage=None,
                       result=_support_data("harrying_fire", c.id, r), notes=r.lines))  # fmt: skip
    if r.hit:
        tx.start_effect(foe.id, f"harried by {c.id}", flags=("harried",), source=c.id,
                        expires=timing.until_start_of_next_turn(tx.state, c.id), rule="ACT-19")  # fmt: skip


def do_feint(tx: Tx, cmd: Feint, ctx: Any) -> None:
    c = _h("_actor")(tx, cmd.actor, ctx)
    t = _h("_target")(tx, c, cmd.target)
    slot = _h("_slot")(tx, c, "standard", "feint", ctx)
    r = actions_rules.feint(c.creature, t.creature, tx.dice, bluff=cmd.bluff)
    _h("_spend")(tx, c, "standard", f"feint against {t.id}", "ACT-17", ctx, slot)
    tx.emit(CheckMade(id=c.id, what="feint (ACT-17)", success=r.success, check=check_data(r.check), notes=r.lines))
    if r.success:
        tx.start_effect(t.id, f"feinted by {c.id}", flags=("feinted",), source=c.id,
                        expires=timing.until_end_of_next_turn(tx.state, c.id), rule="ACT-17")  # fmt: skip


def do_coup_de_grace(tx: Tx, cmd: CoupDeGrace, ctx: Any) -> None:
    c = _h("_actor")(tx, cmd.actor, ctx)
    t = _h("_target")(tx, c, cmd.target)
    weapon = _h("_weapon")(c, cmd.weapon)
    fc, ft = space.footprint(c), space.footprint(t)
    if fc is not None and ft is not None and footprint_distance_ft(fc, ft) > 5:
        raise RuleViolation("ACT-51", f"a coup de grace needs an adjacent target; {t.id} is not adjacent")
    slot = _h("_slot")(tx, c, "full", "coup de grace", ctx)
    ictx = injury.InjuryContext(round=tx.state.timeline.round, own_turn=False)
    r = actions_rules.coup_de_grace(c.creature, t.creature, weapon, tx.dice,
                                    zero_gravity=gm_setup.zero_gravity(tx.state, t.id), ctx=ictx)  # fmt: skip
    _h("_spend")(tx, c, "full", f"coup de grace on {t.id}", "ACT-51", ctx, slot)
    dmg = damage_data(r.damage_roll, r.damage, r.injury, t.creature, kind="attack", options=tx.state.options)
    data = AttackData(kind="coup_de_grace", attacker=c.id, target=t.id, weapon=weapon.name,
                      outcome="critical" if r.critical else "hit", damage=dmg,
                      critical_effect=() if r.critical_effect is None else r.critical_effect.lines,
                      critical_save=None if r.save is None else check_data(r.save),
                      after=pools_data(r.defender.state))  # fmt: skip
    tx.emit(AttackMade(attacker=c.id, target=t.id, weapon=weapon.name, hit=True, critical=r.critical,
                       damage=None if r.damage is None else r.damage.amount, result=data, notes=r.lines))  # fmt: skip
    tx.creature(t.id, r.defender)
