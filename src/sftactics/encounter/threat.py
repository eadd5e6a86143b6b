"""Who threatens which square: the one answer the attacks of opportunity, flanking, the map's threat overlay and
the simulation (the policies and the compiled kernel's model) all read (AOO-01..05, MOD-17).

A combatant threatens the squares into which it could make an attack of opportunity, so only with the weapons it
could make one with (:func:`aoo_weapons`):

* melee weapons and natural weapons it has at hand (a weapon tracked as not held does not count, GEN-10);
* not unarmed strikes: a creature whose only melee attack is an unarmed strike threatens nothing (AOO-01). A
  feature that arms a creature's unarmed strikes (the vesk's natural weapons, for instance) is written in the
  stat block as a ``natural`` weapon;
* not unwieldy weapons, which never make attacks of opportunity (the unwieldy property; a tactical doshko
  threatens nothing).

Each weapon reaches as far as :func:`sftactics.encounter.space.weapon_reach` says (natural reach, +5 ft with a
reach weapon, AOO-02/03, the 10-ft diagonal of AOO-04); the grid leaves out squares off the map, wall squares and
squares out of line of effect. A combatant's own squares always count, since anyone can attack into its own
square; with 0 ft of reach they are all it threatens (AOO-05), so it threatens no adjacent square, its
neighbours may leave without provoking it, and it cannot flank. A combatant that is out of the fight, not on the
map, or cannot make physical attacks (helpless, paralyzed, nauseated, no actions at all) threatens nothing.

Whether a threatening enemy may *take* an attack of opportunity now (its reaction, cover, flat-footed...) is
:func:`sftactics.encounter.reactions.can_take_aoo`.
"""

from __future__ import annotations

from sftactics.core.breakdown import Term
from sftactics.encounter import space
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid.flanking import FLANKING_BONUS, FlankResult, flank_line
from sftactics.grid.geometry import Footprint, Square
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.grid.space import Size
from sftactics.grid.space import threatened_squares as grid_threatened_squares
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats
from sftactics.sf1e.statblock import Weapon

__all__ = [
    "aoo_weapons",
    "can_flank",
    "flanking",
    "no_threat_reason",
    "reaches",
    "threatened_squares",
    "threateners",
    "threatens",
    "weapon_zone",
]


def _held(c: Combatant, w: Weapon) -> bool:
    return c.in_hand is None or w.category in ("natural", "unarmed") or w.name in c.in_hand


def aoo_weapons(c: Combatant) -> tuple[Weapon, ...]:
    """The weapons ``c`` could make an attack of opportunity with, in stat block order: melee (natural included)
    and at hand, neither an unarmed strike (AOO-01) nor unwieldy."""
    return tuple(
        w
        for w in c.creature.stat.weapons
        if w.is_melee and not w.is_grenade and w.category != "unarmed" and not w.unwieldy and _held(c, w)
    )


def no_threat_reason(c: Combatant) -> str | None:
    """Why ``c`` threatens no square at all, or None if it may threaten some."""
    if c.position is None or c.fled:
        return "not on the map"
    if c.out_of_fight:
        return "out of the fight"
    limits = stats.action_limits(c.creature)
    if "helpless" in cond.active(c.creature):
        return "helpless"
    if not limits.attack or limits.mental_only or not (limits.standard or limits.full or limits.reaction):
        return "unable to make attacks"
    if not aoo_weapons(c):
        melee = [w for w in c.creature.stat.weapons if w.is_melee and not w.is_grenade]
        if any(w.unwieldy for w in melee):
            return "no weapon that can make attacks of opportunity (unwieldy weapons cannot, unarmed strikes do not)"
        return "no melee weapon (unarmed strikes do not threaten, AOO-01)"
    return None


def reaches(c: Combatant) -> tuple[int, ...]:
    """The reaches in feet of ``c``'s :func:`aoo_weapons`, ascending and without repeats (empty: threatens
    nothing wherever it stands)."""
    return tuple(sorted({space.weapon_reach(c, w) for w in aoo_weapons(c)}))


def can_flank(c: Combatant) -> bool:
    """Whether ``c`` could be the creature that flanks with an attacker: it threatens with some reach above 0 ft
    (MOD-17, AOO-05)."""
    return no_threat_reason(c) is None and any(r > 0 for r in reaches(c))


def weapon_zone(
    enc: Encounter, c: Combatant, w: Weapon, *, options: GridOptions = DEFAULT_OPTIONS
) -> frozenset[Square]:
    """The squares ``c`` could attack into with melee weapon ``w`` from where it stands (its own squares
    included), whether or not ``w`` may make attacks of opportunity; empty off the map."""
    here = space.footprint(c)
    if here is None:
        return frozenset()
    reach = space.weapon_reach(c, w)
    size = Size(c.creature.stat.size)
    if w.reach and w.category != "natural" and w.reach_ft is None and reach >= 5:
        # a manufactured reach weapon: the grid applies AOO-03's option on the adjacent squares
        return grid_threatened_squares(here, size, reach - 5, reach_weapon=True, grid=enc.grid, options=options)
    return grid_threatened_squares(here, size, reach, zero_reach=reach == 0, grid=enc.grid, options=options)


def _combatant(enc: Encounter, cid: str | Combatant) -> Combatant:
    return cid if isinstance(cid, Combatant) else enc.get(cid)


def threatened_squares(
    enc: Encounter, cid: str | Combatant, *, options: GridOptions = DEFAULT_OPTIONS
) -> frozenset[Square]:
    """Every square combatant ``cid`` threatens (AOO-01..05): the union of its :func:`aoo_weapons`' zones, its
    own squares included; empty when :func:`no_threat_reason` gives a reason."""
    c = _combatant(enc, cid)
    if no_threat_reason(c) is not None:
        return frozenset()
    out: set[Square] = set()
    for w in aoo_weapons(c):
        out |= weapon_zone(enc, c, w, options=options)
    return frozenset(out)


def threatens(enc: Encounter, cid: str | Combatant, square: Square, *, options: GridOptions = DEFAULT_OPTIONS) -> bool:
    """Whether combatant ``cid`` threatens ``square``."""
    return tuple(square) in threatened_squares(enc, cid, options=options)


def threatens_space(
    enc: Encounter, cid: str | Combatant, space_: Footprint, *, options: GridOptions = DEFAULT_OPTIONS
) -> bool:
    """Whether combatant ``cid`` threatens any square of ``space_`` (a creature's space)."""
    zone = threatened_squares(enc, cid, options=options)
    return any(sq in zone for sq in space_.squares)


def threateners(enc: Encounter, square: Square, *, options: GridOptions = DEFAULT_OPTIONS) -> list[str]:
    """The ids of every combatant (any side) that threatens ``square``, sorted."""
    sq = tuple(square)
    return sorted(c.id for c in enc.combatants.values() if sq in threatened_squares(enc, c, options=options))


def first_aoo_weapon(
    enc: Encounter, reactor: Combatant, target: Combatant, *, options: GridOptions = DEFAULT_OPTIONS
) -> Weapon | None:
    """The first of ``reactor``'s :func:`aoo_weapons` (stat block order) whose zone holds a square of
    ``target``: the weapon an attack of opportunity is made with (AOO-08)."""
    fp = space.footprint(target)
    if fp is None or no_threat_reason(reactor) is not None:
        return None
    for w in aoo_weapons(reactor):
        zone = weapon_zone(enc, reactor, w, options=options)
        if any(sq in zone for sq in fp.squares):
            return w
    return None


def flanking(
    enc: Encounter,
    attacker: Combatant,
    target: Combatant,
    weapon: Weapon,
    *,
    options: GridOptions = DEFAULT_OPTIONS,
) -> FlankResult:
    """Whether ``attacker``'s melee attack with ``weapon`` on ``target`` flanks it (MOD-17): the attacker reaches
    the target with more than 0 ft, and another creature hostile to the target (on the attacker's side with
    ``GridOptions.flank_partner`` 'ally_of_attacker') that :func:`can_flank` and threatens the target stands so
    that the line between their centres crosses opposite borders or corners of the target's space."""

    def no(reason: str) -> FlankResult:
        return FlankResult(False, None, None, (), reason)

    me, fb = space.footprint(attacker), space.footprint(target)
    if me is None or fb is None:
        return no("not on the map")
    if space.weapon_reach(attacker, weapon) <= 0:
        return no("the attacker has no reach and cannot flank")
    if not any(sq in weapon_zone(enc, attacker, weapon, options=options) for sq in fb.squares):
        return no("the attacker does not threaten the target")
    why = "no creature threatens the target from the opposite side"
    for i, p in enumerate(enc.combatants.values()):
        if p.id in (attacker.id, target.id) or p.side == target.side:
            continue
        if options.flank_partner == "ally_of_attacker" and p.side != attacker.side:
            continue
        fp = space.footprint(p)
        if fp is None:
            continue
        if not can_flank(p) or not threatens_space(enc, p, fb, options=options):
            why = "the other creature does not threaten the target"
            continue
        line = flank_line(me, fp, fb)
        if line is not None:
            return FlankResult(True, i, line, (Term(FLANKING_BONUS, "flanking", "MOD-17"),), "flanking")
    return no(why)
