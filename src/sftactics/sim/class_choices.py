"""What the simulation policies do with class abilities (``sf1e.class_abilities``; issue 16).

* **Attack riders** (trick attack). The tactical policy values each foe it can attack with a qualifying weapon,
  from where it stands or after a move (the rider's own move, up to its speed: the squares the tactical policy
  examines for a move and an attack), as the chance of the skill check times the attack with the extra dice
  and the target flat-footed (-2 AC) plus the chance of a failed check times a plain attack, less the risk of
  the square and the attacks of opportunity of the move and of a ranged attack. It is a full action, so it
  competes with the full attack and with the move and attack. The simple policy uses it on its nearest foe
  whenever it can attack that foe from where it stands.
* **Marks** (get 'em). The tactical policy values +b on attack rolls against a foe as the extra expected damage
  of its whole side against that foe in a round (each +1 adds 5% of the hits; a hit is taken as worth twice an
  attack's expected damage), in its own units (a share of the foe's threat per point of its pool), and takes it
  with the best attack from where it stands (a move action and a standard action). The simple policy marks its
  nearest foe before attacking it, when it can attack it from where it stands.
* **Resolve-costed heals** (healing channel) are ``sim.choices.heal``'s, which keeps 1 Resolve Point for
  stabilizing: a heal of the user as a move action comes first when the healer is itself the patient (the turn
  goes on), the 30-ft heal when two or more hurt allies are within it, else the strongest heal for one ally.

The compiled kernel makes these choices by the same numbers (``sim.kernel.classes``, its arrays in
``sim.kernel.riders``): riders and marks as above, the Resolve-costed heals as ``choices.heal`` chooses them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sftactics.core.breakdown import Term
from sftactics.core.errors import RuleViolation
from sftactics.encounter import space
from sftactics.encounter.commands import Attack, Command
from sftactics.encounter.engine import Fight
from sftactics.encounter.policy import try_command
from sftactics.encounter.state import Combatant
from sftactics.grid.geometry import Footprint, footprint_distance_ft
from sftactics.sf1e import class_abilities as ca
from sftactics.sf1e import stats
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.usable import UsableAbility
from sftactics.sim import odds
from sftactics.sim.choices import command, usable

if TYPE_CHECKING:
    from sftactics.sim.policies import _Turn

Square = tuple[int, int]
#: how many squares (besides the actor's) a rider's move is examined for, best first by a rough estimate
RIDER_SQUARES = 3
#: what +1 on attack rolls adds to a round's expected damage, as a share of it (5% more hits, a hit worth twice
#: the mean of an attack)
MARK_SHARE = 0.1


def skill_chance(bonus: int, dc: int) -> float:
    """Chance that d20 + ``bonus`` meets ``dc`` on a skill check (no automatic results)."""
    return min(1.0, max(0.0, (21 - (dc - bonus)) / 20))


def rider_weapons(me: Combatant, ab: UsableAbility, weapons: list[Weapon]) -> list[Weapon]:
    assert ab.rider is not None
    out = []
    for w in weapons:
        try:
            ca.check_rider_weapon(ab, ab.rider, w)
        except RuleViolation:
            continue
        out.append(w)
    return out


def check_chance(me: Combatant, foe: Combatant, ab: UsableAbility) -> float:
    rider = ab.rider
    if rider is None or rider.check is None:
        return 1.0
    skill = ca.best_skill(me.creature, rider.check)
    dc, _ = ca.check_dc(rider.check, foe.creature)
    return skill_chance(stats.skill_bonus(me.creature, skill).total, dc)


def rider_value(t: _Turn, me_at: Combatant, foe: Combatant, w: Weapon, geo: space.Geometry, ab: UsableAbility) -> float:
    """The tactical value of ``ab``'s attack on ``foe`` with ``w`` from ``me_at`` (see the module docstring)."""
    rider = ab.rider
    assert rider is not None
    plain = t.attack_value(foe, t.table(me_at, foe, w, geo))
    p = check_chance(me_at, foe, ab)
    boosted = ca.with_extra_damage(w, rider.extra_damage) if rider.extra_damage else w
    basis = odds.AttackBasis.of(me_at.creature, foe.creature, boosted, t.s.options)
    ac_terms = geo.ac_terms
    if rider.flat_footed:
        ac_terms = (*ac_terms, Term(ca.FLAT_FOOTED_AC, "flat-footed", ca.FLAT_FOOTED_RULE))
    bonus, ac = basis.numbers(geo.attack_terms, ac_terms)
    table = odds.damage_table(bonus, ac, boosted.damage_expr, basis.damage_bonus, crit_immune=basis.crit_immune,
                              reduction=basis.reduction, miss_chance=geo.miss_chance)  # fmt: skip
    return p * t.attack_value(foe, table) + (1 - p) * plain


def rider_plans(t: _Turn) -> list[tuple[float, list[Command], str, str | None]]:
    """(value, commands, label, target) for each rider ability the actor can use this turn (a full action)."""
    from sftactics.sim.policies import _can

    me, s = t.me, t.s
    here = me.position
    if here is None or not _can(me, "full", s):
        return []
    out: list[tuple[float, list[Command], str, str | None]] = []
    for ab in usable(me):
        if ab.rider is None:
            continue
        weapons = rider_weapons(me, ab, t.weapons)
        if not weapons:
            continue
        squares: list[Square] = [here]
        rm = t.reach(1) if ab.rider.move and t.grid is not None else None
        if rm is not None:
            ranked = []
            for sq in t.candidates(rm):
                me_at, fp = t.at(sq), Footprint(sq[0], sq[1], t.side_len)
                best = 0.0
                for foe in t.targets:
                    for w in weapons:
                        geo = t._rough_geometry(me_at, fp, foe, w)
                        if geo is not None:
                            best = max(best, rider_value(t, me_at, foe, w, geo, ab))
                if best > 0:
                    ranked.append((best - t.risk_cost(sq, exact=False), sq))
            ranked.sort(key=lambda x: (-x[0], x[1]))
            squares += [sq for _, sq in ranked[:RIDER_SQUARES]]
        for sq in squares:
            me_at, fp = t.at(sq), Footprint(sq[0], sq[1], t.side_len)
            cost = t.risk_cost(sq) + (0.0 if sq == here else t.aoo_cost(t.provokers(sq)))
            for foe in t.targets:
                for w in weapons:
                    geo = t._geometry(me_at, fp, foe, w)
                    if geo is None:
                        continue
                    v = rider_value(t, me_at, foe, w, geo, ab) - cost
                    if not w.is_melee:
                        v -= t.aoo_cost(t.threatened_by(sq))
                    cmd = command(me, ab, target=foe.id, weapon=w.name, to=None if sq == here else sq)
                    out.append((v, [cmd], ab.name, foe.id))
    return out


def mark_gain(t: _Turn, foe: Combatant, bonus: int) -> float:
    """The value of +``bonus`` on the side's attack rolls against ``foe`` for a round."""
    side = [t.me, *t.friends]
    extra = sum(MARK_SHARE * bonus * t.dpr(a, [foe]) for a in side)
    return t.threat(foe) * min(1.0, extra / t.pool(foe))


def mark_plans(t: _Turn) -> list[tuple[float, list[Command], str, str | None]]:
    """(value, commands, label, target): a mark on a foe (a move action) and the best attack from here."""
    from sftactics.sim.policies import _can, _can_move_then_standard

    me, s = t.me, t.s
    here = me.position
    if here is None or not _can_move_then_standard(me, s) or not _can(me, "move", s):
        return []
    marks = [ab for ab in usable(me) if ab.mark is not None and ab.action == "move"]
    if not marks:
        return []
    attacks = t.attacks_from(here, full=False)
    out: list[tuple[float, list[Command], str, str | None]] = []
    for ab in marks:
        assert ab.mark is not None
        for v, cmd, tid, ranged in attacks:
            if not isinstance(cmd, Attack):
                continue
            foe = s.get(tid)
            if ab.range_ft and (d := _distance(me, foe)) is not None and d > ab.range_ft:
                continue
            gain = mark_gain(t, foe, ab.mark.bonus)
            boosted = v * (1 + MARK_SHARE * ab.mark.bonus)  # the actor's own attack gains too
            cost = t.risk_cost(here) + (t.aoo_cost(t.threatened_by(here)) if ranged else 0.0)
            out.append((boosted + gain - cost, [command(me, ab, target=tid), cmd], ab.name, tid))
    return out


def _distance(a: Combatant, b: Combatant) -> int | None:
    fa, fb = space.footprint(a), space.footprint(b)
    if fa is None or fb is None:
        return None
    return footprint_distance_ft(fa, fb)


def class_plans(t: _Turn) -> list[tuple[float, list[Command], str, str | None]]:
    """Every class ability option of the tactical policy this turn (riders and marks)."""
    if not any(a.rider is not None or a.mark is not None for a in t.me.creature.stat.specials):
        return []
    return rider_plans(t) + mark_plans(t)


# ---------------------------------------------------------------- the simple policy
def simple_rider(fight: Fight, cid: str, target: Combatant) -> bool:
    """Use a rider ability (trick attack) on ``target`` from where the actor stands, if it can attack it."""
    from sftactics.sim.choices import _ready
    from sftactics.sim.policies import _attack_weapons

    me = _ready(fight, cid, "full")
    if me is None:
        return False
    for ab in usable(me):
        if ab.rider is None:
            continue
        for w in rider_weapons(me, ab, _attack_weapons(me)):
            try:
                space.attack_geometry(fight.state, me, target, w, explain=False)
            except RuleViolation:
                continue
            if try_command(fight, command(me, ab, target=target.id, weapon=w.name)):
                return True
    return False


def simple_mark(fight: Fight, cid: str, target: Combatant, attack: Command) -> bool:
    """Mark ``target`` (get 'em) and make ``attack``, when both actions are there."""
    from sftactics.sim.choices import _ready

    me = _ready(fight, cid, "move")
    if me is None:
        return False
    from sftactics.sim.policies import _can_move_then_standard

    if not _can_move_then_standard(me, fight.state):
        return False
    for ab in usable(me):
        if ab.mark is None or ab.action != "move":
            continue
        d = _distance(me, target)
        if ab.range_ft and d is not None and d > ab.range_ft:
            continue
        if try_command(fight, command(me, ab, target=target.id)):
            try_command(fight, attack)
            return True
    return False


__all__ = ["class_plans", "mark_plans", "rider_plans", "simple_mark", "simple_rider", "skill_chance"]
