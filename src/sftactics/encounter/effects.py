"""Area effects, grenades and special abilities in a fight (ACT-21, ATK-12, ATK-13, EFF-01..13, SV-09, AOO-11).

An area effect rolls its damage once and lets each creature inside save on its own (half, rounded down, on a
success: DMG-14); cover between the effect's origin and a creature adds to its Reflex save (MOD-08), and total
cover keeps it out (MOD-14). A single-target effect makes an attack roll (touch and ray effects target EAC by
default, ATK-16) or forces a save.
"""

from __future__ import annotations

from functools import partial

from sftactics.core.breakdown import Term, explain
from sftactics.core.check import CheckKind, resolve
from sftactics.core.errors import RuleViolation, SftError
from sftactics.dice import parse, roll
from sftactics.dice.source import DiceSource
from sftactics.encounter import gm_setup, reactions, space
from sftactics.encounter.commands import AreaSpec, SaveSpec, ThrowGrenade, UseAbility
from sftactics.encounter.events import AttackMade, CheckMade, CombatantChanged
from sftactics.encounter.outcomes import AttackData, breakdown_data, check_data, damage_data
from sftactics.encounter.state import Combatant
from sftactics.encounter.tx import Tx
from sftactics.grid import areas as grid_areas
from sftactics.grid import geometry
from sftactics.grid.cover import CoverKind, cover
from sftactics.grid.geometry import Footprint
from sftactics.grid.scatter import scatter
from sftactics.sf1e import actions_rules, injury, saves, stats
from sftactics.sf1e import conditions as cond
from sftactics.sf1e.attack import Situation
from sftactics.sf1e.damage import halve, mitigate, roll_damage
from sftactics.sf1e.statblock import AreaRider, Weapon
from sftactics.sf1e.state import ConditionInstance, Creature

Point = tuple[int, int]


def build_area(tx: Tx, user: Combatant | None, spec: AreaSpec) -> grid_areas.Area:
    """The squares of ``spec``; a cone or a line used by a creature starts at a corner of its space. With no
    ``user`` (a trap, an explosion) every shape starts at the point ``at``."""
    grid = tx.state.grid
    if grid is None:
        raise RuleViolation("EFF-01", "area effects need a map")
    fp = space.footprint(user) if user is not None else None
    try:
        if spec.shape == "emanation":
            origin = fp if spec.at is None else spec.at
            if origin is None:
                raise RuleViolation("EFF-04", "an emanation needs a position")
            return grid_areas.emanation(grid, origin, spec.size_ft)
        if spec.at is None:
            raise RuleViolation("EFF-01", f"a {spec.shape} needs a point of origin 'at'")
        if spec.shape == "burst":
            return grid_areas.burst(grid, spec.at, spec.size_ft)
        if spec.shape == "spread":
            return grid_areas.spread(grid, spec.at, spec.size_ft)
        if spec.shape == "cone":
            if spec.direction is None:
                raise RuleViolation("EFF-05", "a cone needs a direction (N, NE, E, SE, S, SW, W, NW)")
            return grid_areas.cone(grid, spec.at, spec.direction, spec.size_ft, caster=fp)
        if spec.toward is None:
            raise RuleViolation("EFF-08", "a line needs a square to go toward")
        return grid_areas.line(grid, spec.at, spec.toward, spec.size_ft, caster=fp)
    except ValueError as e:
        raise RuleViolation("EFF-01", str(e)) from None


def area_effect(
    tx: Tx,
    user_id: str,
    name: str,
    area: grid_areas.Area,
    *,
    damage: str | None,
    save: SaveSpec | None,
    conditions: tuple[ConditionInstance, ...] = (),
    riders: tuple[AreaRider, ...] = (),
    origin: Point | Footprint,
) -> None:
    """Damage and conditions for every creature in ``area``, each saving separately. ``conditions`` and
    ``riders`` (a weapon's special effects, their durations rolled for each creature) reach the creatures that
    fail their save, or everyone when there is none (SV-09: a success keeps them off, whatever the kind)."""
    s = tx.state
    spaces = {c.id: fp for c in s.combatants.values() if not c.creature.has("dead") for fp in [space.footprint(c)]
              if fp is not None}  # fmt: skip
    inside = grid_areas.in_area(area, spaces)
    tx.note(f"{name}: {area.shape} of {area.size_ft} ft covers {len(area.squares)} squares; inside: "
            f"{', '.join(inside) or 'nobody'} ({area.rule})", area.rule)  # fmt: skip
    if not inside:
        return
    droll = None
    mark = len(tx.dice.history)
    if damage is not None:
        droll = roll_damage(parse(damage), explain("", []), tx.dice, purpose=f"{name} damage", options=s.options)
        tx.note(f"{name} damage: {droll.rolls[0] if droll.rolls else droll.total} (rolled once for everyone)", "DMG-01")
    dice_count = len(tx.dice.history) - mark
    grid = s.grid
    for cid in inside:
        target = tx.state.get(cid)
        fp = spaces[cid]
        extra: tuple[Term, ...] = ()
        if grid is not None:
            cv = cover(grid, origin, fp, ranged=True, creatures=())
            if cv.kind is CoverKind.TOTAL:
                tx.note(f"{cid} has total cover from the origin: unaffected (MOD-14)", "MOD-14")
                continue
            extra = cv.reflex_terms if save is not None and save.type == "ref" else ()
            gm = gm_setup.imposed(s, cid, None)  # cover the GM imposed against everyone
            if gm_setup.wins(gm, cv.kind):
                if gm is CoverKind.TOTAL:
                    tx.note(f"{cid} has total cover imposed by the GM: unaffected (MOD-14)", "MOD-14")
                    continue
                extra = gm_setup.imposed_terms(gm)[1] if save is not None and save.type == "ref" else ()
        success = False
        if save is not None:
            r = saves.saving_throw(target.creature, save.type, save.dc, tx.dice, extra=extra, options=s.options)
            success = r.success
            tx.emit(CheckMade(id=cid, what=f"{save.type} save against {name}", success=r.success,
                              check=check_data(r)))  # fmt: skip
        effect = save.on_save if save is not None else "none"
        if droll is not None:
            out = saves.save_outcome(effect, success, droll.total)
            if out.applies and out.damage > 0:
                part = droll if out.damage == droll.total else halve(droll)
                mitigated = mitigate(part, tx.state.creature(cid), options=s.options)
                ictx = injury.InjuryContext(round=s.timeline.round, own_turn=s.timeline.turn == cid)
                before = tx.state.creature(cid)
                res = injury.apply_damage(before, mitigated.amount, nonlethal=mitigated.nonlethal,
                                          ctx=ictx, options=s.options)  # fmt: skip
                data = damage_data(part, mitigated, res, before, dice=tx.dice.history[mark : mark + dice_count],
                                   kind="effect", source=name, note=out.note, options=s.options)  # fmt: skip
                tx.creature(cid, res.creature, damage=data)
            else:
                tx.note(f"{cid}: {out.note}", "SV-09")
        if (conditions or riders) and saves.riders_apply(effect, success):
            gained = (*conditions, *(rider_condition(r, name, cid, tx.dice) for r in riders))
            cr = tx.state.creature(cid)
            for inst in gained:
                cr = cond.add_condition(cr, inst)
            tx.creature(cid, cr, [f"{cid} gains {', '.join(_shown(i) for i in gained)} from {name}"])
        elif conditions or riders:
            tx.note(f"{cid} saved: no {', '.join([*(i.name for i in conditions), *(r.condition for r in riders)])}"
                    f" from {name} (SV-09)", "SV-09")  # fmt: skip


def rider_condition(rider: AreaRider, name: str, cid: str, dice: DiceSource) -> ConditionInstance:
    """The condition a rider gives one creature, its duration rolled for it (minutes are 10 rounds each)."""
    rounds: int | None = None
    if rider.rounds is not None:
        rounds = roll_total(rider.rounds, dice, f"{cid} {rider.condition} from {name} (rounds)")
    elif rider.minutes is not None:
        rounds = 10 * roll_total(rider.minutes, dice, f"{cid} {rider.condition} from {name} (minutes)")
    return ConditionInstance(name=rider.condition, source=name, value=rider.value, rounds=rounds)


def roll_total(text: str, dice: DiceSource, purpose: str) -> int:
    """The total of a dice expression such as ``1d4`` or ``1`` (a duration), at least 0."""
    return max(roll(parse(text), dice, purpose).total, 0)


def _shown(inst: ConditionInstance) -> str:
    bits = [inst.name, *([inst.value] if inst.value else [])]
    if inst.rounds is not None:
        bits.append(f"for {inst.rounds} round{'s' if inst.rounds != 1 else ''}")
    return " ".join(bits)


def grenade_save_dc(thrower: Creature, weapon: Weapon) -> int:
    """The save DC of a thrown grenade (``actions_rules.area_dc``: printed, or the item formula)."""
    return actions_rules.area_dc(thrower, weapon).total


def do_throw_grenade(tx: Tx, cmd: ThrowGrenade, ctx: object) -> None:
    from sftactics.encounter.actions import _actor, _check_ammo, _spend, _use_ammo, _weapon

    c = _actor(tx, cmd.actor, ctx)  # type: ignore[arg-type]
    weapon = _weapon(c, cmd.weapon)
    if not weapon.is_grenade or weapon.area is None:
        raise RuleViolation("ATK-12", f"{weapon.name} is not a grenade with an area")
    fp = space.footprint(c)
    grid = tx.state.grid
    if fp is None or grid is None:
        raise RuleViolation("ATK-12", "throwing a grenade needs positions on a map")
    if not (0 <= cmd.at[0] <= grid.width and 0 <= cmd.at[1] <= grid.height):
        raise RuleViolation("ATK-12", f"the point {cmd.at} is off the map")
    dist = geometry.distance_to_point_ft(fp, cmd.at)
    rc = geometry.check_range(dist, max(weapon.range_ft, 5), thrown=True, max_increments=weapon.max_increments)
    if not rc.in_range:
        raise RuleViolation("ATK-11", f"{cmd.at} is {dist} ft away, beyond {weapon.name}'s {rc.max_range_ft} ft")
    _check_ammo(c, weapon)
    _spend(tx, c, "standard", f"throw {weapon.name} at {cmd.at}", "ATK-12", ctx)  # type: ignore[arg-type]
    _use_ammo(tx, c, weapon)
    reactions.provoke_all(tx, c.id, "throws a grenade while threatened (AOO-12)")
    if tx.state.get(c.id).out_of_fight or tx.state.result is not None:
        return
    c = tx.state.get(c.id)
    throw = actions_rules.throw_grenade(
        c.creature, weapon, cmd.at, tx.dice, scatter=partial(scatter, cmd.at, fp),
        situation=Situation(attack_terms=rc.terms), options=tx.state.options,
    )  # fmt: skip
    point = throw.lands_at or cmd.at
    point = (min(max(point[0], 0), grid.width), min(max(point[1], 0), grid.height))
    data = AttackData(kind="grenade", attacker=c.id, target=f"{point[0]},{point[1]}", weapon=weapon.name,
                      ac_kind="ac", ac=breakdown_data(throw.ac), roll=check_data(throw.roll),
                      outcome="hit" if throw.hit else "miss", automatic=throw.roll.automatic)  # fmt: skip
    tx.emit(AttackMade(attacker=c.id, target=f"{point[0]},{point[1]}", weapon=weapon.name, hit=throw.hit,
                       critical=False, damage=None, result=data, notes=throw.lines))  # fmt: skip
    a = weapon.area
    area = grid_areas.burst(grid, point, a.size_ft)
    if a.cloud is not None:
        from sftactics.encounter import clouds

        clouds.start(tx, c.id, weapon.name, area, a.cloud)
        if not a.riders and not any(t.count for p in weapon.damage_expr.parts for t in p.terms):
            return  # nothing else: no damage, no conditions, no saves
    dc_terms = actions_rules.area_dc(c.creature, weapon)
    dc = dc_terms.total
    if a.save:
        body = " ".join(t.describe() for t in dc_terms.applied)
        tx.note(f"{weapon.name}: save DC {dc} = {body}", "SV-07")
    save = (
        SaveSpec(type=a.save or "ref", dc=dc, on_save=a.on_save if a.on_save != "none" else "half") if a.save else None
    )
    area_effect(tx, c.id, weapon.name, area, damage=weapon.damage, save=save, riders=a.riders, origin=point)


def do_use_ability(tx: Tx, cmd: UseAbility, ctx: object) -> None:
    from sftactics.encounter.actions import _actor, _spend
    from sftactics.encounter.class_moves import do_class_move, is_class_move

    if is_class_move(cmd):  # riders, marks, Resolve costs, heals of the user or its allies
        return do_class_move(tx, cmd, ctx)  # type: ignore[arg-type]
    c = _actor(tx, cmd.actor, ctx)  # type: ignore[arg-type]
    if cmd.area is None and cmd.target is None:
        raise SftError(f"{cmd.name}: give a target or an area")
    if cmd.attack is not None and cmd.target is None:
        raise SftError(f"{cmd.name}: an attack roll needs a target")
    if cmd.heal is not None and cmd.target is None:
        raise SftError(f"{cmd.name}: healing needs a target")
    if cmd.heal is not None and cmd.target is not None and tx.state.creature(cmd.target).has("dead"):
        raise RuleViolation("INJ-20", f"{cmd.target} is dead and cannot be healed")
    conds = tuple(ConditionInstance.model_validate(x) for x in cmd.conditions)
    for inst in conds:
        cond.get(inst.name)
    area = build_area(tx, c, cmd.area) if cmd.area is not None else None
    target = tx.state.get(cmd.target) if cmd.target is not None else None
    pool = cmd.pool or cmd.name
    spent = c.uses_spent.get(pool, 0)
    if cmd.uses is not None and spent >= cmd.uses:
        raise RuleViolation("SPA-02", f"{c.id} has used {pool} {spent} of {cmd.uses} times: none left")
    _spend(tx, c, cmd.action, f"use {cmd.name}", "ACT-21", ctx)  # type: ignore[arg-type]
    if cmd.uses is not None:
        tx.emit(CombatantChanged(id=c.id, changes={"uses_spent": {**c.uses_spent, pool: spent + 1}}))
    provokes = cmd.provokes if cmd.provokes is not None else cmd.kind in ("Sp", "spell")
    if provokes:
        before = tx.state.creature(c.id).state
        reactions.provoke_all(tx, c.id, f"uses {cmd.name} ({cmd.kind}) while threatened (AOO-06)")
        after = tx.state.creature(c.id).state
        if tx.state.get(c.id).out_of_fight or tx.state.result is not None:
            return
        if cmd.kind in ("Sp", "spell") and (after.hp, after.sp, after.temp_hp) != (
            before.hp,
            before.sp,
            before.temp_hp,
        ):
            tx.note(f"{c.id} is damaged while using {cmd.name}: it fails (AOO-11)", "AOO-11")
            return
    if area is not None:
        origin = area.origin
        area_effect(tx, c.id, cmd.name, area, damage=cmd.damage, save=cmd.save, conditions=conds, origin=origin)
        return
    assert target is not None
    _single(tx, c, target, cmd, conds)


def _single(tx: Tx, c: Combatant, target: Combatant, cmd: UseAbility, conds: tuple[ConditionInstance, ...]) -> None:
    s = tx.state
    hit = True
    lines: list[str] = []
    if cmd.attack is not None:
        ac = stats.armor_class(target.creature, cmd.attack.vs, vs="ranged" if cmd.attack.ranged else "melee")
        bonus = explain(f"{cmd.name} attack", [Term(cmd.attack.bonus, "ability attack bonus", "ATK-16")])
        r = resolve(CheckKind.ATTACK, bonus, ac.total, tx.dice, purpose=f"{c.id} {cmd.name}")
        hit = r.success
        lines = [f"{c.id} uses {cmd.name} on {target.id}: {ac.describe()}", f"  Roll: {r.describe()}"]
        data = AttackData(kind="ability", attacker=c.id, target=target.id, weapon=cmd.name, ac_kind=cmd.attack.vs,
                          ac=breakdown_data(ac), roll=check_data(r), outcome="hit" if hit else "miss",
                          automatic=r.automatic)  # fmt: skip
        tx.emit(AttackMade(attacker=c.id, target=target.id, weapon=cmd.name, hit=hit, critical=False, damage=None,
                           result=data, notes=tuple(lines)))  # fmt: skip
    if not hit:
        return
    success = False
    if cmd.save is not None:
        r2 = saves.saving_throw(target.creature, cmd.save.type, cmd.save.dc, tx.dice, options=s.options)
        success = r2.success
        what = f"{cmd.save.type} save against {cmd.name}"
        tx.emit(CheckMade(id=target.id, what=what, success=success, check=check_data(r2)))
    effect = cmd.save.on_save if cmd.save is not None else "none"
    if cmd.damage is not None:
        mark = len(tx.dice.history)
        droll = roll_damage(
            parse(cmd.damage), explain("", []), tx.dice, purpose=f"{cmd.name} damage", options=s.options
        )
        out = saves.save_outcome(effect, success, droll.total)
        if out.applies and out.damage > 0:
            part = droll if out.damage == droll.total else halve(droll)
            mitigated = mitigate(part, tx.state.creature(target.id), options=s.options)
            ictx = injury.InjuryContext(round=s.timeline.round, own_turn=False)
            before = tx.state.creature(target.id)
            res = injury.apply_damage(before, mitigated.amount, nonlethal=mitigated.nonlethal, ctx=ictx,
                                      options=s.options)  # fmt: skip
            dealt = damage_data(part, mitigated, res, before, dice=tx.dice.history[mark:], kind="effect",
                               source=cmd.name, options=s.options)  # fmt: skip
            tx.creature(target.id, res.creature, damage=dealt)
    if cmd.heal is not None:
        _heal(tx, c, target, cmd)
    if conds and saves.riders_apply(effect, success):
        cr = tx.state.creature(target.id)
        for inst in conds:
            cr = cond.add_condition(cr, inst)
        tx.creature(target.id, cr, [f"{target.id} gains {', '.join(i.name for i in conds)} from {cmd.name}"])


def _heal(tx: Tx, c: Combatant, target: Combatant, cmd: UseAbility) -> None:
    """Hit Points restored by an ability (INJ-18): rolled once; any healing stabilizes a dying creature and 1 HP
    or more wakes it (INJ-10)."""
    assert cmd.heal is not None
    amount = roll_total(cmd.heal, tx.dice, f"{cmd.name} healing")
    res = injury.heal(tx.state.creature(target.id), hp=amount)
    from sftactics.encounter.outcomes import injury_data

    lines = (f"{c.id} uses {cmd.name} on {target.id}: {cmd.heal} = {amount} HP", *res.lines)
    tx.creature(target.id, res.creature, lines, injury=injury_data(res))
