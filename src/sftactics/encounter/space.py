"""Where combatants are: the encounter's bridge to the grid layer (footprints, reach, range, cover).

Fights without a map (or combatants without positions) skip the geometric checks: everyone is in reach.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

from sftactics.core.breakdown import Term
from sftactics.core.errors import RuleViolation
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid import geometry
from sftactics.grid.concealment import ConcealmentResult, concealment
from sftactics.grid.cover import CoverKind, CoverResult, cover, cover_words
from sftactics.grid.geometry import Footprint
from sftactics.grid.map import Feature
from sftactics.grid.space import Body, Size, footprint_side, is_sub_square, reach_covers
from sftactics.sf1e import conditions as cond
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
    cover: str = "none"  # none, partial, cover, improved (MOD-07..13)
    flanking: bool = False
    range_ft: int | None = None
    range_increment: int | None = None


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


def range_check(fa: Footprint, fb: Footprint, weapon: Weapon) -> geometry.RangeCheck:
    """Distance, range increment and penalty of a ranged or thrown ``weapon`` from space ``fa`` to ``fb``
    (ATK-10, ATK-11)."""
    dist = geometry.footprint_distance_ft(fa, fb)
    thrown = weapon.thrown or weapon.is_grenade
    inc = max(weapon.range_ft, 5)
    return geometry.check_range(dist, inc, thrown=thrown, max_increments=weapon.max_increments)


def cover_between(
    state: Encounter,
    attacker: Combatant,
    fa: Footprint,
    fb: Footprint,
    *,
    melee: bool,
    explain: bool = True,
    target_id: str = "",
) -> CoverResult | None:
    """The cover of the space ``fb`` against an attack from ``attacker`` (at ``fa``), the other combatants
    standing in the way (MOD-07..14); None without a map."""
    grid = state.grid
    if grid is None:
        return None
    return cover(grid, fa, fb, ranged=not melee, creatures=others(state, attacker.id, target_id), explain=explain)


def concealment_between(
    state: Encounter, attacker: Combatant, fa: Footprint, fb: Footprint, *, melee: bool
) -> ConcealmentResult | None:
    """The concealment of the space ``fb`` against ``attacker`` (at ``fa``) with its senses (MOD-01..06,
    VIS-03, VIS-04); None without a map."""
    grid = state.grid
    if grid is None:
        return None
    senses = attacker.creature.stat.senses
    return concealment(
        grid,
        fa,
        fb,
        melee=melee,
        low_light_vision="low-light vision" in senses,
        darkvision="darkvision" in senses,
        blindsight="blindsight" in senses,
    )


def attack_geometry(
    state: Encounter, attacker: Combatant, target: Combatant, weapon: Weapon, *, explain: bool = True
) -> Geometry:
    """Reach (ATK-09), range penalty and maximum range (ATK-10, ATK-11), cover (MOD-07..14), flanking (MOD-17)
    and concealment (MOD-01..06) for one attack. Raises RuleViolation when the attack is impossible.
    ``explain=False`` skips tracing the cover lines again to explain them (the same numbers, cheaper: what a
    policy weighing many hypothetical attacks wants)."""
    fa, fb = footprint(attacker), footprint(target)
    if fa is None or fb is None:
        return _with_imposed_cover(state, attacker, target, Geometry())
    attack_terms: list[Term] = []
    ac_terms: list[Term] = []
    notes: list[str] = []
    melee = weapon.is_melee  # a melee weapon that is thrown comes as ``thrown.as_used``: not melee
    rng: tuple[int | None, int | None] = (None, None)
    if melee:
        if not in_reach(attacker, target, weapon):
            reach = weapon_reach(attacker, weapon)
            dist = geometry.footprint_distance_ft(fa, fb)
            raise RuleViolation("ATK-09", f"{target.id} is {dist} ft away, out of {attacker.id}'s {reach}-ft reach")
    else:
        dist = geometry.footprint_distance_ft(fa, fb)
        rc = range_check(fa, fb, weapon)
        if not rc.in_range:
            raise RuleViolation(
                "ATK-11", f"{target.id} is {dist} ft away, beyond {weapon.name}'s {rc.max_range_ft}-ft maximum range"
            )
        attack_terms += list(rc.terms)
        rng = (dist, rc.increment)
        if rc.terms:
            notes.append(f"range {dist} ft: increment {rc.increment}")
    miss, why = 0, ""
    cover_kind, flanked = "none", False
    cv = cover_between(state, attacker, fa, fb, melee=melee, explain=explain, target_id=target.id)
    if cv is not None:
        if cv.kind is CoverKind.TOTAL:
            raise RuleViolation("MOD-14", f"{target.id} has total cover from {attacker.id}: no line of effect")
        ac_terms += list(cv.ac_terms)
        cover_kind = cv.kind.name.lower()
        if cv.kind is not CoverKind.NONE:
            notes.append(f"{target.id} has {cover_words(cv.kind)} ({cv.rule})")
        cc = concealment_between(state, attacker, fa, fb, melee=melee)
        if cc is not None and cc.miss_chance:
            miss, why = cc.miss_chance, f"{cc.reason}, {cc.rule}"
    if melee:
        from sftactics.encounter.threat import flanking  # who threatens: one answer (AOO-01..05)

        fl = flanking(state, attacker, target, weapon)
        if fl.flanked:
            attack_terms += list(fl.terms)
            flanked = True
            notes.append(f"{attacker.id} flanks {target.id} (MOD-17)")
    geo = Geometry(tuple(attack_terms), tuple(ac_terms), tuple(notes), miss, why, cover_kind, flanked, *rng)
    if state.vehicles:
        geo = _with_vehicle(state, attacker, target, geo)
    return _with_imposed_cover(state, attacker, target, geo)


def _with_vehicle(state: Encounter, attacker: Combatant, target: Combatant, geo: Geometry) -> Geometry:
    """Riders: the attack penalty of the attacker's vehicle (VEH-28) and the cover the target's vehicle gives
    it when that beats the map's (VEH-33; total cover refuses the attack)."""
    from sftactics.encounter import vehicles

    extra = vehicles.rider_attack_terms(state, attacker)
    if extra:
        geo = replace(geo, attack_terms=(*geo.attack_terms, *extra))
    kind, terms = vehicles.rider_cover(state, attacker, target)
    if kind <= CoverKind[geo.cover.upper()]:
        return geo
    if kind is CoverKind.TOTAL:
        raise RuleViolation("VEH-33", f"{target.id} has total cover inside its vehicle from {attacker.id}")
    ac_terms = tuple(t for t in geo.ac_terms if t.source != "cover") + terms
    notes = (*(n for n in geo.notes if " cover (" not in n), f"{target.id} has {cover_words(kind)} in its vehicle "
             "(VEH-33)")  # fmt: skip
    return replace(geo, ac_terms=ac_terms, notes=notes, cover=kind.name.lower())


def _with_imposed_cover(state: Encounter, attacker: Combatant, target: Combatant, geo: Geometry) -> Geometry:
    """The geometry with the cover the GM imposes on ``target`` against ``attacker``, when it beats the map's
    (``gm_setup``); total cover refuses the attack (MOD-14)."""
    from sftactics.encounter import gm_setup

    kind = gm_setup.imposed(state, target.id, attacker.id)
    if not gm_setup.wins(kind, CoverKind[geo.cover.upper()]):
        return geo
    if kind is CoverKind.TOTAL:
        raise RuleViolation("MOD-14", f"{target.id} has total cover from {attacker.id} (imposed by the GM)")
    ac_terms = tuple(t for t in geo.ac_terms if t.source != "cover") + gm_setup.imposed_terms(kind)[0]
    notes = tuple(n for n in geo.notes if " cover (" not in n)
    notes += (f"{target.id} has {cover_words(kind)} imposed by the GM ({gm_setup.rule_of(kind)})",)
    return replace(geo, ac_terms=ac_terms, notes=notes, cover=kind.name.lower())


def placement_problem(
    state: Encounter, c: Combatant, at: tuple[int, int], among: Collection[str] | None = None
) -> tuple[str, str] | None:
    """Why ``c`` cannot be put down at ``at`` (a scenario's starting square, a combatant joining): off the map,
    on a wall, an object or impassable ground (MOV-01), or on another creature that is not dead (MOV-16; tiny
    creatures may share a square, MOV-03). ``among``: only these others count (default: everyone). None when it
    can stand there, or when there is no map."""
    grid = state.grid
    size = Size(c.creature.stat.size)
    fp = Footprint(at[0], at[1], footprint_side(size))
    if grid is None:
        return None
    if not grid.in_bounds(at):
        edge = f"x 0..{grid.width - 1}, y 0..{grid.height - 1}"
        return "MOV-01", f"{at[0]},{at[1]} is off the {grid.width}x{grid.height} map ({edge})"
    if not grid.fits(fp):
        return "MOV-01", f"{c.id} does not fit on the {grid.width}x{grid.height} map at {at[0]},{at[1]}"
    for sq in fp.squares:
        f = grid.features(sq)
        if f & Feature.SOLID:
            return "MOV-01", f"{sq[0]},{sq[1]} is a wall: {c.id} cannot stand there"
        if f & Feature.COVER:
            return "MOV-01", f"{sq[0]},{sq[1]} holds an object: {c.id} cannot stand there"
        if f & Feature.IMPASSABLE and not c.creature.stat.speed.get("fly"):
            return "MOV-01", f"{sq[0]},{sq[1]} is impassable ground: {c.id} cannot stand there"
    other = occupant(state, c, fp, among=among)
    if other is not None:
        return "MOV-16", f"{c.id} cannot be put on {other}'s square"
    return None


def occupant(
    state: Encounter,
    c: Combatant,
    fp: Footprint,
    *,
    among: Collection[str] | None = None,
    helpless_yield: bool = False,
) -> str | None:
    """Another creature, not dead or fled, in the space ``fp`` that ``c`` would take (MOV-16): two creatures
    smaller than a square may share one (MOV-03); with ``helpless_yield`` a helpless one does not count (a move
    may end on it). ``among``: only these others count."""
    small = is_sub_square(Size(c.creature.stat.size))
    for other in state.combatants.values():
        if other.id == c.id or other.fled or other.creature.has("dead"):
            continue
        if among is not None and other.id not in among:
            continue
        if small and is_sub_square(Size(other.creature.stat.size)):
            continue
        if helpless_yield and "helpless" in cond.active(other.creature):
            continue
        ofp = footprint(other)
        if ofp is not None and any(ofp.contains(sq) for sq in fp.squares):
            return other.id
    return None
