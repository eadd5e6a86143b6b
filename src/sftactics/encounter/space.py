"""Where combatants are: the encounter's bridge to the grid layer (footprints, reach, range, cover).

Fights without a map (or combatants without positions) skip the geometric checks: everyone is in reach.
"""

from __future__ import annotations

from dataclasses import dataclass

from sftactics.core.breakdown import Term
from sftactics.core.errors import RuleViolation
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid import geometry
from sftactics.grid.concealment import concealment
from sftactics.grid.cover import CoverKind, cover
from sftactics.grid.flanking import flanking
from sftactics.grid.geometry import Footprint
from sftactics.grid.space import Body, Size, footprint_side, reach_covers
from sftactics.sf1e.statblock import Weapon


def footprint(c: Combatant) -> Footprint | None:
    if c.position is None:
        return None
    return Footprint(c.position[0], c.position[1], footprint_side(Size(c.creature.stat.size)))


def weapon_reach(c: Combatant, weapon: Weapon) -> int:
    """Reach in feet with ``weapon``: its own reach, or natural reach plus 5 ft for a reach weapon (AOO-03)."""
    if weapon.reach_ft is not None:
        return weapon.reach_ft
    natural = c.creature.stat.reach_ft
    return natural + 5 if weapon.reach and weapon.category not in ("natural",) else natural


def distance_ft(a: Combatant, b: Combatant) -> int | None:
    fa, fb = footprint(a), footprint(b)
    if fa is None or fb is None:
        return None
    return geometry.footprint_distance_ft(fa, fb)


def in_reach(attacker: Combatant, target: Combatant, weapon: Weapon) -> bool:
    fa, fb = footprint(attacker), footprint(target)
    if fa is None or fb is None:
        return True
    reach = weapon_reach(attacker, weapon)
    return any(reach_covers(fa, sq, reach) for sq in fb.squares)


def others(state: Encounter, *ids: str) -> list[Footprint]:
    out = []
    for c in state.combatants.values():
        if c.id in ids or c.creature.has("dead"):
            continue
        fp = footprint(c)
        if fp is not None:
            out.append(fp)
    return out


@dataclass(frozen=True, slots=True)
class Geometry:
    """What the positions give one attack."""

    attack_terms: tuple[Term, ...] = ()
    ac_terms: tuple[Term, ...] = ()
    notes: tuple[str, ...] = ()
    miss_chance: int = 0
    miss_reason: str = ""


def body(state: Encounter, c: Combatant, weapon: Weapon | None = None) -> Body | None:
    """The grid's view of a combatant: space, size, reach (with ``weapon``, or its longest melee reach)."""
    fp = footprint(c)
    if fp is None:
        return None
    melee = [w for w in c.creature.stat.weapons if w.is_melee and not w.is_grenade]
    if weapon is not None and weapon.is_melee:
        reach = weapon_reach(c, weapon)
    else:
        reach = max((weapon_reach(c, w) for w in melee), default=0)
    armed = bool(melee) and not c.out_of_fight
    return Body(fp, Size(c.creature.stat.size), reach_ft=reach, armed=armed, side=c.side)


def attack_geometry(
    state: Encounter, attacker: Combatant, target: Combatant, weapon: Weapon, *, explain: bool = True
) -> Geometry:
    """Reach (ATK-09), range penalty and maximum range (ATK-10, ATK-11), cover (MOD-07..14), flanking (MOD-17)
    and concealment (MOD-01..06) for one attack. Raises RuleViolation when the attack is impossible.
    ``explain=False`` skips tracing the cover lines again to explain them (the same numbers, cheaper: what a
    policy weighing many hypothetical attacks wants)."""
    fa, fb = footprint(attacker), footprint(target)
    if fa is None or fb is None:
        return Geometry()
    attack_terms: list[Term] = []
    ac_terms: list[Term] = []
    notes: list[str] = []
    melee = weapon.is_melee  # a melee weapon that is thrown comes as ``thrown.as_used``: not melee
    if melee:
        if not in_reach(attacker, target, weapon):
            reach = weapon_reach(attacker, weapon)
            dist = geometry.footprint_distance_ft(fa, fb)
            raise RuleViolation("ATK-09", f"{target.id} is {dist} ft away, out of {attacker.id}'s {reach}-ft reach")
    else:
        dist = geometry.footprint_distance_ft(fa, fb)
        thrown = weapon.thrown or weapon.is_grenade
        inc = max(weapon.range_ft, 5)
        rc = geometry.check_range(dist, inc, thrown=thrown, max_increments=weapon.max_increments)
        if not rc.in_range:
            raise RuleViolation(
                "ATK-11", f"{target.id} is {dist} ft away, beyond {weapon.name}'s {rc.max_range_ft}-ft maximum range"
            )
        attack_terms += list(rc.terms)
        if rc.terms:
            notes.append(f"range {dist} ft: increment {rc.increment}")
    grid = state.grid
    miss, why = 0, ""
    if grid is not None:
        cv = cover(grid, fa, fb, ranged=not melee, creatures=others(state, attacker.id, target.id), explain=explain)
        if cv.kind is CoverKind.TOTAL:
            raise RuleViolation("MOD-14", f"{target.id} has total cover from {attacker.id}: no line of effect")
        ac_terms += list(cv.ac_terms)
        if cv.kind is not CoverKind.NONE:
            notes.append(f"{target.id} has {cv.kind.name.lower()} cover ({cv.rule})")
        senses = attacker.creature.stat.senses
        cc = concealment(
            grid,
            fa,
            fb,
            melee=melee,
            low_light_vision="low-light vision" in senses,
            darkvision="darkvision" in senses,
            blindsight="blindsight" in senses,
        )
        if cc.miss_chance:
            miss, why = cc.miss_chance, f"{cc.reason}, {cc.rule}"
    if melee:
        me = body(state, attacker, weapon)
        partners = [
            b
            for c in state.combatants.values()
            if c.id not in (attacker.id, target.id) and not c.out_of_fight and c.side != target.side
            for b in [body(state, c)]
            if b is not None
        ]
        if me is not None and partners:
            fl = flanking(me, fb, partners, target_side=target.side, grid=grid)
            if fl.flanked:
                attack_terms += list(fl.terms)
                notes.append(f"{attacker.id} flanks {target.id} (MOD-17)")
    return Geometry(tuple(attack_terms), tuple(ac_terms), tuple(notes), miss, why)
