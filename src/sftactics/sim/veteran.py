"""The ``veteran`` policy: the tactical policy plus the rest of a player's action set (issue 16).

A table's players do more than attack, move and heal. This policy weighs, in the tactical policy's own units
(share of a foe's expected damage per round taken away, :class:`~sftactics.sim.policies.TacticalWeights`), these
extra options from the square where the actor stands, and takes one when it is worth more than the tactical
policy's best plan:

* **harrying fire** (ACT-19): a ranged attack against AC 15; on a hit the next ally to attack the foe gains +2.
  Worth the chance of that hit times what +2 adds to the best ally attack on that foe.
* **covering fire** (ACT-15): a ranged attack against AC 15; on a hit an ally gains +2 AC against the next attack
  of a foe in the shooter's line of effect. Worth the chance of the hit times what +2 AC takes off the worst
  attack the ally faces, in the ally's side's units.
* **total defense** (ACT-20): +4 AC until the actor's next turn, only when a foe threatens its square (else the
  tactical policy's choice of where to stand protects it); worth the share of the risk of staying there (the
  tactical policy's own cost) that +4 AC takes off the threatening foes' attacks.
* **trip** and **disarm** (MAN-01, MAN-04, MAN-12): a melee maneuver against KAC + 8. A tripped foe is prone
  (-4 AC against melee, and it spends a move action standing, provoking); a disarmed foe loses its weapon until
  it spends a move action to pick it up. Worth the chance of success times the foe's expected damage for the
  share of a round it loses (:data:`TRIP_ROUND`, :data:`DISARM_ROUND`).
* **feint** (ACT-17): a Bluff check; on a success the foe is flat-footed (-2 AC) against the actor's next attack.
  Worth the chance of success times the gain of -2 AC on next turn's attack, discounted (:data:`LATER`).
* **ready** (ACT-73): a melee combatant whose foes are out of reach and would have to come to it readies an
  attack against the first foe to enter its reach, rather than walking into their attacks. Worth the attack,
  times :data:`READY_CHANCE` (the foe may not come); never two turns running without a trigger.

* **delay** (ACT-71, CF-16): at the start of its turn, before doing anything, a combatant waits for the next
  combatant in the order when acting after it pays: that combatant is an ally with a mark to give (get 'em)
  and the actor has a foe to attack, or it is a foe that fights only in melee and can reach the actor this
  turn while the actor, a melee fighter, has no foe it could attack this turn (it would only walk into the
  foe's attacks). The simulation brings a delayer back in right after that combatant's turn; a combatant
  delays at most once a round.

The compiled kernel does not play this policy (it refuses every policy but simple and tactical), so a simulation
with it runs on the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sftactics.core.breakdown import BonusType, Term
from sftactics.core.errors import RuleViolation
from sftactics.encounter import space
from sftactics.encounter import threat as enc_threat
from sftactics.encounter.commands import (
    Attack,
    CoveringFire,
    Delay,
    Feint,
    HarryingFire,
    ManeuverCmd,
    Ready,
    TotalDefense,
)
from sftactics.encounter.engine import Fight
from sftactics.encounter.policy import try_command
from sftactics.encounter.state import Combatant
from sftactics.grid.geometry import footprint_distance_ft
from sftactics.sf1e import stats
from sftactics.sf1e.actions_rules import feint_dc
from sftactics.sf1e.maneuvers import maneuver_target
from sftactics.sf1e.statblock import Weapon
from sftactics.sim import odds
from sftactics.sim.morale import DEFAULT_MORALE, Morale
from sftactics.sim.policies import TacticalPolicy, TacticalWeights, _can, _can_move_then_standard, _Plan

if TYPE_CHECKING:
    from sftactics.sim.policies import _Turn

#: weapons that are part of the body: nothing to disarm
_BODY = ("natural", "unarmed")
#: the number covering and harrying fire must reach (ACT-15, ACT-19)
FIRE_AC = 15
#: share of a round of a foe's damage a trip takes away (it stands up with a move action, provoking)
TRIP_ROUND = 0.35
#: share of a round of a foe's damage a disarm takes away (it picks its weapon up with a move action)
DISARM_ROUND = 0.5
#: value kept of a gain that comes only on the next turn (feint)
LATER = 0.8
#: the chance a foe out of reach walks into a readied attack before the actor's next turn
READY_CHANCE = 0.5


def d20_chance(bonus: int, target: int, *, natural: bool = True) -> float:
    """Chance that d20 + ``bonus`` reaches ``target``; with ``natural`` a natural 20 always succeeds and a
    natural 1 always fails (attack rolls, CHK-03), without it a skill check (no automatic results)."""
    faces = 0
    for roll in range(1, 21):
        if natural and roll == 20:
            faces += 1
        elif natural and roll == 1:
            continue
        elif roll + bonus >= target:
            faces += 1
    return faces / 20


def _ranged(me: Combatant) -> list[Weapon]:
    return [w for w in me.creature.stat.weapons if not w.is_melee and not w.is_grenade]


def _melee(me: Combatant) -> list[Weapon]:
    return [w for w in me.creature.stat.weapons if w.is_melee and not w.is_grenade]


def _best_weapon(t: _Turn, attacker: Combatant, defender: Combatant) -> tuple[Weapon, float] | None:
    best: tuple[Weapon, float] | None = None
    for w in attacker.creature.stat.weapons:
        if w.is_grenade:
            continue
        mean = t.plain_mean(attacker, defender, w)
        if best is None or mean > best[1]:
            best = (w, mean)
    return best


def _fire_chance(t: _Turn, target: Combatant, w: Weapon) -> float | None:
    """The actor's chance to hit AC 15 with ``w`` aimed at ``target`` from where it stands; None if it cannot
    aim there."""
    try:
        geo = space.attack_geometry(t.s, t.me, target, w, explain=False)
    except RuleViolation:
        return None
    basis = odds.AttackBasis.of(t.me.creature, target.creature, w, t.s.options)
    bonus, _ = basis.numbers(geo.attack_terms, ())
    return d20_chance(bonus, FIRE_AC)


def harrying_plans(t: _Turn) -> list[_Plan]:
    plans: list[_Plan] = []
    helpers = [a for a in t.friends if not a.out_of_fight]
    if not helpers:
        return plans
    plus = (Term(2, "harrying fire", "ACT-19", BonusType.CIRCUMSTANCE),)
    for foe in t.targets:
        gain = 0.0
        for ally in helpers:
            best = _best_weapon(t, ally, foe)
            if best is None:
                continue
            w = best[0]
            before = t.attack_value(foe, t.table(ally, foe, w, space.Geometry()))
            after = t.attack_value(foe, t.table(ally, foe, w, space.Geometry(attack_terms=plus)))
            gain = max(gain, after - before)
        for w in _ranged(t.me):
            p = _fire_chance(t, foe, w)
            if p is not None and gain > 0:
                cmd = HarryingFire(actor=t.me.id, target=foe.id, weapon=w.name)
                plans.append(_Plan(p * gain, [cmd], "harrying_fire", target=foe.id))
    return plans


def covering_plans(t: _Turn) -> list[_Plan]:
    plans: list[_Plan] = []
    shooters = _ranged(t.me)
    if not shooters or not t.targets:
        return plans
    for ally in t.friends:
        if ally.out_of_fight:
            continue
        worst = 0.0
        foe_seen: Combatant | None = None
        for foe in t.foes:
            best = _best_weapon(t, foe, ally)
            if best is None:
                continue
            w = best[0]
            plain = t.table(foe, ally, w, space.Geometry()).mean
            shielded = t.table(
                foe, ally, w, space.Geometry(ac_terms=(Term(2, "covering fire", "ACT-15", BonusType.CIRCUMSTANCE),))
            ).mean
            if plain - shielded > worst:
                worst, foe_seen = plain - shielded, foe
        if foe_seen is None or worst <= 0:
            continue
        value_per_hp = t.threat(ally) / t.pool(ally)
        for w in shooters:
            p = _fire_chance(t, foe_seen, w) if foe_seen in t.targets else None
            if p is not None:
                cmd = CoveringFire(actor=t.me.id, ally=ally.id, weapon=w.name)
                plans.append(_Plan(p * worst * value_per_hp, [cmd], "covering_fire"))
    return plans


def total_defense_share(t: _Turn) -> float:
    """The share of the damage the foes threatening the actor's square expect to deal it that +4 AC takes off
    (0 when no foe threatens it: then the tactical policy's risk says where to stand instead)."""
    here = t.me.position
    if here is None:
        return 0.0
    plain = guarded = 0.0
    plus = (Term(4, "total defense", "ACT-20"),)
    fp = space.footprint(t.me)
    squares = set(fp.squares) if fp is not None else {here}
    for foe in t.foes:
        best = _best_weapon(t, foe, t.me)
        if best is None or not squares & enc_threat.threatened_squares(t.s, foe):
            continue
        plain += t.table(foe, t.me, best[0], space.Geometry()).mean
        guarded += t.table(foe, t.me, best[0], space.Geometry(ac_terms=plus)).mean
    return (plain - guarded) / plain if plain > 0 else 0.0


def total_defense_plan(t: _Turn, stay_cost: float) -> _Plan | None:
    """Total defense where it stands: worth the share of the risk there that +4 AC takes off."""
    share = total_defense_share(t)
    if share <= 0:
        return None
    return _Plan(share * stay_cost, [TotalDefense(actor=t.me.id)], "total_defense")


def _adjacent_targets(t: _Turn, w: Weapon) -> list[Combatant]:
    out: list[Combatant] = []
    for foe in t.targets:
        try:
            space.attack_geometry(t.s, t.me, foe, w, explain=False)
        except RuleViolation:
            continue
        out.append(foe)
    return out


def maneuver_plans(t: _Turn) -> list[_Plan]:
    plans: list[_Plan] = []
    for w in _melee(t.me):
        for foe in _adjacent_targets(t, w):
            if foe.creature.has("prone") and foe.creature.stat.size in ("huge", "gargantuan", "colossal"):
                continue
            basis = odds.AttackBasis.of(t.me.creature, foe.creature, w, t.s.options)
            bonus, _ = basis.numbers((), ())
            need = maneuver_target(foe.creature).total
            p = d20_chance(bonus, need)
            threat = t.threat(foe)
            if not foe.creature.has("prone"):
                trip = ManeuverCmd(actor=t.me.id, target=foe.id, kind="trip", weapon=w.name)
                plans.append(_Plan(p * threat * TRIP_ROUND, [trip], "trip", target=foe.id))
            item = _best_weapon(t, foe, t.me)
            if item is not None and item[0].category not in _BODY:
                cmd = ManeuverCmd(actor=t.me.id, target=foe.id, kind="disarm", weapon=w.name, item=item[0].name)
                plans.append(_Plan(p * threat * DISARM_ROUND, [cmd], "disarm", target=foe.id))
    return plans


def feint_plans(t: _Turn) -> list[_Plan]:
    plans: list[_Plan] = []
    bluff = stats.skill_bonus(t.me.creature, "bluff", ability="cha").total
    flat = (Term(-2, "flat-footed (feint)", "ACT-17"),)
    for w in _melee(t.me):
        for foe in _adjacent_targets(t, w):
            if foe.creature.stat.base_mod("int") is None:
                continue
            p = d20_chance(bluff, feint_dc(foe.creature).total, natural=False)
            before = t.attack_value(foe, t.table(t.me, foe, w, space.Geometry()))
            after = t.attack_value(foe, t.table(t.me, foe, w, space.Geometry(ac_terms=flat)))
            if after > before:
                plans.append(_Plan(LATER * p * (after - before), [Feint(actor=t.me.id, target=foe.id)], "feint",
                                   target=foe.id))  # fmt: skip
    return plans


def ready_plan(t: _Turn, readied_last: bool) -> _Plan | None:
    """Ready a melee attack against the nearest foe that would have to walk into the actor's reach."""
    here = space.footprint(t.me)
    if readied_last or here is None or _ranged(t.me) or not _melee(t.me):
        return None
    if any(f.id in t.threatened_by(t.me.position) for f in t.foes if t.me.position is not None):
        return None
    near: tuple[int, Combatant] | None = None
    for foe in t.targets:
        fp = t.foe_fps.get(foe.id)
        if fp is None or any(not w.is_melee for w in foe.creature.stat.weapons if not w.is_grenade):
            continue  # a foe that can shoot need not come
        d = footprint_distance_ft(here, fp)
        if d <= 2 * stats.speed(foe.creature).total and (near is None or d < near[0]):
            near = (d, foe)
    if near is None:
        return None
    foe = near[1]
    best = max(_melee(t.me), key=lambda w: t.plain_mean(t.me, foe, w))
    value = READY_CHANCE * t.attack_value(foe, t.table(t.me, foe, best, space.Geometry()))
    attack = Attack(actor=t.me.id, target=foe.id, weapon=best.name)
    cmd = Ready(actor=t.me.id, action=attack.model_dump(), trigger="enters_reach", watch=foe.id)
    return _Plan(value, [cmd], "ready", target=foe.id)


def _next_to_act(t: _Turn) -> Combatant | None:
    """The next able combatant after the actor in this round's order."""
    s = t.s
    order = s.timeline.order
    if t.me.id not in order:
        return None
    done = set(s.timeline.done)
    for cid in order[order.index(t.me.id) + 1 :]:
        c = s.get(cid)
        if cid not in done and not c.delaying and not c.out_of_fight:
            return c
    return None


def delay_reason(t: _Turn) -> str | None:
    """Why the actor should wait for the next combatant (see the module docstring), or None."""
    from sftactics.sim import choices

    if not t.s.timeline.turn_fresh or t.me.position is None:
        return None
    nxt = _next_to_act(t)
    if nxt is None:
        return None
    if nxt.side == t.me.side:
        marks = [a.name for a in choices.usable(nxt) if a.mark is not None]
        if marks and t.targets and t.attacks_from(t.me.position, full=False):
            return f"waits for {nxt.id}'s {marks[0]}"
        return None
    here = space.footprint(t.me)
    there = space.footprint(nxt)
    if here is None or there is None or _ranged(t.me) or not _melee(t.me) or _ranged(nxt) or not _melee(nxt):
        return None
    reach = max(space.weapon_reach(t.me, w) for w in _melee(t.me))
    nearest = min((footprint_distance_ft(here, fp) for fp in t.foe_fps.values()), default=None)
    if nearest is None or nearest <= t.speed + reach:
        return None  # a foe it can attack after a move: no reason to wait
    if footprint_distance_ft(here, there) > 2 * stats.speed(nxt.creature).total + 5:
        return None  # the foe cannot come this turn
    return f"waits for {nxt.id} to come into reach"


class VeteranPolicy(TacticalPolicy):
    """The tactical policy with harrying and covering fire, total defense, trip, disarm, feint and ready."""

    name = "veteran"

    def __init__(self, weights: TacticalWeights | None = None, morale: Morale = DEFAULT_MORALE) -> None:
        super().__init__(weights, morale)
        self.readied: set[str] = set()  # who readied on its last turn
        self.delayed: set[tuple[str, int]] = set()  # (who, round): delayed once this round

    def _turn(self, fight: Fight, cid: str) -> None:
        s = fight.state
        key = (cid, s.timeline.round)
        if key not in self.delayed and s.timeline.turn_fresh:
            from sftactics.sim.policies import _Turn

            if delay_reason(_Turn(self, s, cid)) is not None:
                self.delayed.add(key)
                if try_command(fight, Delay(actor=cid)):
                    return
        super()._turn(fight, cid)

    def extra_plans(self, t: _Turn, stay_cost: float, aoo_here: float) -> list[_Plan]:
        me, s = t.me, t.s
        readied_last = me.id in self.readied
        self.readied.discard(me.id)
        if not _can(me, "standard", s):
            return []
        both = _can_move_then_standard(me, s)  # a move left for afterwards (the tactical policy's safest step)
        found: list[tuple[_Plan, float]] = [(p, stay_cost + aoo_here) for p in harrying_plans(t) + covering_plans(t)]
        found += [(p, stay_cost) for p in maneuver_plans(t) + feint_plans(t)]
        for extra in (total_defense_plan(t, stay_cost), ready_plan(t, readied_last)):
            if extra is not None:
                found.append((extra, stay_cost))
        return [_Plan(p.value - cost, p.commands, p.label, after_move=both, target=p.target) for p, cost in found]

    def chose(self, cid: str, plan: _Plan) -> None:
        if plan.label == "ready":
            self.readied.add(cid)
