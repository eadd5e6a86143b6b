"""The ``tactical`` simulation policy (:class:`TacticalPolicy`, ``sim.policies``) and its choice of a turn.

:class:`TacticalWeights` holds its judgement; :class:`TacticalPolicy` takes the turn (Resolve, a confused or riding
combatant, healing, looking for foes, first aid, retreat, then the best plan and a second move or a step to safety
after it); :class:`_Turn` weighs the options of the turn on what :class:`~sftactics.sim.policy_turn._TurnView`
computes: attacks and full attacks from here or after a move or guarded step, grenades, abilities and spells
(``sim.choices``), class abilities (``sim.class_choices``), reloading, withdrawing, charging or closing in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sftactics.core.errors import RuleViolation
from sftactics.encounter import confusion, space
from sftactics.encounter.actions import ammo_left
from sftactics.encounter.commands import (
    Attack,
    Charge,
    Command,
    FirstAid,
    GuardedStep,
    Move,
    Reload,
    ThrowGrenade,
    Withdraw,
)
from sftactics.encounter.engine import Fight
from sftactics.encounter.policy import try_command
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid import geometry
from sftactics.grid.geometry import Footprint, footprint_distance_ft
from sftactics.grid.movement import ReachMap
from sftactics.sf1e import injury, stats
from sftactics.sim import choices, class_choices, odds
from sftactics.sim.morale import DEFAULT_MORALE, Morale, breaks
from sftactics.sim.perception import allies
from sftactics.sim.policy_common import (
    Square,
    _burst,
    _can,
    _can_move_then_standard,
    _end_turn,
    _grenades,
    _loaded,
    _my_turn,
    _resolve_start,
    retreat,
)
from sftactics.sim.policy_simple import SimplePolicy, _rides
from sftactics.sim.policy_turn import _TurnView
from sftactics.sim.search import Seeker


# ---------------------------------------------------------------- tactical
@dataclass(frozen=True)
class TacticalWeights:
    """The tactical policy's judgement, in one place (see ``docs/simulation.md``).

    Damage is valued the Lanchester way: taking ``x`` from a foe with ``pool`` left removes ``x / pool`` of its
    expected damage per round (``threat``); the same holds for damage the actor takes (its own threat and pool).
    """

    drop_bonus: float = 0.5  # extra value of the chance to drop a target outright, in units of its threat
    risk: float = 1.0  # weight of the damage the actor expects to take where it ends its turn
    danger: float = 2.0  # extra weight on expected damage beyond half of a player character's pool
    focus: float = 0.15  # bonus (share of threat) for the target the side attacked last
    keep_move: float = 0.05  # bonus (share of the best attack) for keeping the move action to use after attacking
    hopeless: float = 3.0  # a side retreats when its foes would finish it this many times faster than it them
    candidates: int = 6  # squares per weapon kind examined when moving (the best three of them exactly)
    exact_attacks: int = 4  # target and weapon pairs examined with the engine's geometry from one square
    melee_focus: float = 0.35  # share of a melee foe's attacks expected on a creature that is not its nearest


@dataclass
class _Plan:
    value: float
    commands: list[Command]
    label: str
    after_move: bool = False  # keep the move action for after the attack
    target: str | None = None


def _rank(p: _Plan) -> tuple[float, int]:
    """Plans are weighed by value, then by fewer commands; of equal plans, the first weighed is chosen."""
    return (p.value, -len(p.commands))


@dataclass
class _Memo:
    """Answers keyed by object identity (keeping the objects alive so identities are never reused)."""

    store: dict[tuple[Any, ...], tuple[tuple[object, ...], Any]] = field(default_factory=dict)

    def get(self, objs: tuple[object, ...], extra: Any, compute: Callable[[], Any]) -> Any:
        key = (*map(id, objs), extra)
        hit = self.store.get(key)
        if hit is not None and all(a is b for a, b in zip(hit[0], objs, strict=True)):
            return hit[1]
        value = compute()
        self.store[key] = (objs, value)
        return value


class TacticalPolicy:
    """Choose the turn a Starfinder player would: see the module docstring."""

    name = "tactical"

    def __init__(self, weights: TacticalWeights | None = None, morale: Morale = DEFAULT_MORALE) -> None:
        self.w = weights or TacticalWeights()
        self.morale = morale
        self.seeker = Seeker()
        self.memo = _Memo()
        self.retreating: set[str] = set()
        self.focus: dict[str, str] = {}  # side -> the foe it attacked last

    # ------------------------------------------------------------ the runner's question
    def concedes(self, state: Encounter, side: str) -> bool:
        able = allies(state, side)
        return bool(able) and all(c.id in self.retreating for c in able)

    # ------------------------------------------------------------ hooks for a policy built on this one
    def extra_plans(self, t: _Turn, stay_cost: float, aoo_here: float) -> list[_Plan]:
        """More options for the turn ``t`` (``sim.veteran``); the tactical policy has none, so the compiled
        kernel plays it."""
        return []

    def chose(self, cid: str, plan: _Plan) -> None:
        """``cid`` carried out ``plan`` (``sim.veteran`` remembers readied actions)."""

    # ------------------------------------------------------------ a turn
    def __call__(self, fight: Fight, cid: str) -> None:
        _resolve_start(fight, cid, keep_reserve=True)
        s = fight.state
        me = s.get(cid)
        if _my_turn(fight, cid) and confusion.forced_targets(s, cid) is not None:
            SimplePolicy()(fight, cid)  # confused and bound to attack someone: no plan but that (CON-06)
            return
        if _rides(fight, cid, SimplePolicy._nearest):  # riders drive and shoot from their vehicle
            _end_turn(fight, cid)
            return
        if _my_turn(fight, cid) and not me.out_of_fight:
            self._turn(fight, cid)
        _end_turn(fight, cid)

    def _turn(self, fight: Fight, cid: str) -> None:
        choices.draw_weapon(fight, cid)
        if choices.heal(fight, cid):
            return
        t = _Turn(self, fight.state, cid)
        self.seeker.note(t.s, t.me.side)
        if not t.foes:
            found = None if cid in self.retreating else self._seek(fight, cid)
            if found is None:
                return
            t = found
        if self._first_aid(fight, t):
            return
        if cid in self.retreating or breaks(self.morale, t.s, t.me, t.hopeless):
            self.retreating.add(cid)
            if self._retreat(fight, t):
                return
            self.retreating.discard(cid)  # cornered: fight
            t = _Turn(self, fight.state, cid)
        plan = t.best_plan()
        done = self._execute(fight, plan)
        if done:
            self.chose(cid, plan)
        if plan.target is not None and done:
            self.focus[t.me.side] = plan.target
        if not done and plan.label == "charge" and _my_turn(fight, cid):
            plan = t.without_charge  # the charge was refused: the best plan without it, from the same look
            done = self._execute(fight, plan)
        if not done:
            if _my_turn(fight, cid):
                SimplePolicy()(fight, cid)
            return
        if plan.label == "approach":
            for _ in range(2):  # a double move: plan the second move from where the first one ended
                if not _my_turn(fight, cid):
                    return
                t2 = _Turn(self, fight.state, cid)
                if t2.me.out_of_fight or not t2.foes:
                    return
                again = t2.best_plan()
                if not again.commands or not self._execute(fight, again) or again.label != "approach":
                    break
            return
        if plan.after_move and _my_turn(fight, cid):
            t2 = _Turn(self, fight.state, cid)
            if t2.foes and _can(t2.me, "move", t2.s):
                dest = t2.safest_step()
                if dest is not None:
                    try_command(fight, dest)

    def _seek(self, fight: Fight, cid: str) -> _Turn | None:
        """Nobody on the side has located an able foe: go looking (``sim.search``), a move action at a time;
        the turn to plan once a foe is found, else None."""
        for _ in range(2):
            me = fight.state.get(cid)
            if not _my_turn(fight, cid) or me.out_of_fight or not _can(me, "move", fight.state):
                return None
            if not self.seeker.step(fight, cid) or not _my_turn(fight, cid):
                return None
            t = _Turn(self, fight.state, cid)
            if t.foes:
                return t
        return None

    def _execute(self, fight: Fight, plan: _Plan) -> bool:
        for cmd in plan.commands:
            if not try_command(fight, cmd):
                return False
            if fight.state.result is not None:
                return True
            actor = getattr(cmd, "actor", None)
            if actor is not None and fight.state.get(actor).out_of_fight:
                return True
        return True

    # ------------------------------------------------------------ first aid
    def _first_aid(self, fight: Fight, t: _Turn) -> bool:
        me = t.me
        medicine = me.creature.stat.skills.get("medicine")
        if medicine is None or not _can(me, "standard", t.s):
            return False
        here = space.footprint(me)
        for ally in allies(t.s, me.side, able=False):
            cr = ally.creature
            if ally.id == me.id or not cr.has("dying"):
                continue
            if cr.state.rp >= injury.stabilize_cost(cr, t.s.options):
                continue  # it can stabilize on its own turn
            fp = space.footprint(ally)
            if here is None or fp is None or footprint_distance_ft(here, fp) <= 5:
                return try_command(fight, FirstAid(actor=me.id, target=ally.id))
            if not _can_move_then_standard(me, t.s):
                continue
            spot = t.adjacent_spot(fp)
            if spot is not None and try_command(fight, Move(actor=me.id, to=spot)):
                if fight.state.get(me.id).out_of_fight or not _my_turn(fight, me.id):
                    return True
                try_command(fight, FirstAid(actor=me.id, target=ally.id))
                return True
        return False

    # ------------------------------------------------------------ retreat
    def _retreat(self, fight: Fight, t: _Turn) -> bool:
        return retreat(fight, t.me.id)


class _Turn(_TurnView):
    """The turn a Starfinder player would choose, from what the turn's view computes (``sim.policy_turn``)."""

    #: After :meth:`best_plan`: the best of its plans but a charge (what the turn does if the charge is refused)
    without_charge: _Plan

    # ------------------------------------------------------------ grenades from a square
    def grenade_from(self, sq: Square) -> tuple[float, Command] | None:
        """The best grenade throw from ``sq``: expected value over the foes in the burst (none with a friend)."""
        grenades = _grenades(self.me)
        if not grenades or self.grid is None:
            return None
        here = Footprint(sq[0], sq[1], self.side_len)
        friends = [fp for c in allies(self.s, self.me.side, able=False) if c.id != self.me.id
                   for fp in [space.footprint(c)] if fp is not None]  # fmt: skip
        best: tuple[float, Command] | None = None
        for w in grenades:
            assert w.area is not None
            inc = max(w.range_ft, 5)
            top = geometry.max_range_ft(inc, thrown=True, max_increments=w.max_increments)
            dex = stats.ability_mod(self.me.creature, "dex").total
            dc = w.area.dc if w.area.dc is not None else 10 + w.item_level // 2 + dex
            points = {(fp.x + dx, fp.y + dy) for fp in self.foe_fps.values() for dx in (0, 1, 2) for dy in (0, 1, 2)
                      if fp.side > 1 or (dx < 2 and dy < 2)}  # fmt: skip
            for p in sorted(points):
                dist = geometry.distance_to_point_ft(here, p)
                if dist > top:
                    continue
                sqs = _burst(self.s, p, w.area.size_ft)
                hit = [e for e in self.foes if any(q in sqs for q in self.foe_fps.get(e.id, here).squares)]
                if len(hit) < 2 or any(q in sqs for fp in friends for q in fp.squares) or here.squares[0] in sqs:
                    continue
                rc = geometry.check_range(dist, inc, thrown=True, max_increments=w.max_increments)
                bonus = stats.attack_bonus(self.me.creature, w, extra=list(rc.terms), options=self.s.options).total
                p_land = odds.chance(bonus, 5)
                value = 0.0
                for e in hit:
                    save = stats.save_bonus(e.creature, w.area.save or "ref", options=self.s.options).total
                    p_half = odds.chance(save, dc) if w.area.save else 0.0
                    red = odds.reduction(e.creature, w)
                    if w.area.on_save == "negates":  # a success keeps it all off (SV-09)
                        table = odds.flat_table(w.damage_expr, 0, red, p_land * (1 - p_half), 0.0)
                    else:
                        table = odds.flat_table(w.damage_expr, 0, red, p_land, p_half)
                    value += self.attack_value(e, table) + choices.rider_value(self, e, w, p_land * (1 - p_half))
                cmd = ThrowGrenade(actor=self.me.id, weapon=w.name, at=p)
                if best is None or value > best[0]:
                    best = (value, cmd)
        return best

    # ------------------------------------------------------------ the choice
    def best_plan(self) -> _Plan:
        me, s = self.me, self.s
        here = me.position
        plans: list[_Plan] = []
        can_std = _can(me, "standard", s)
        can_full = _can(me, "full", s)
        can_move = _can(me, "move", s)
        both = _can_move_then_standard(me, s)
        if here is None:  # no map: just the best attack
            for v, cmd, tid, _ in self.attacks_from((0, 0), full=can_full) if can_std else []:
                plans.append(_Plan(v, [cmd], "attack", target=tid))
            return max(plans, key=lambda p: p.value) if plans else _Plan(0.0, [], "nothing")
        stay_cost = self.risk_cost(here)
        here_threat = self.threatened_by(here)
        # attacks from where it stands (keeping the move action for afterwards)
        best_here = 0.0
        if can_std or can_full:
            for v, cmd, tid, ranged in self.attacks_from(here, full=can_full):
                full = cmd.type == "full_attack"
                if (full and not can_full) or (not full and not can_std):
                    continue
                cost = stay_cost + (self.aoo_cost(here_threat) if ranged else 0.0)
                keep = not full and can_move and both
                bonus = self.w.keep_move * v if keep else 0.0
                plans.append(_Plan(v - cost + bonus, [cmd], cmd.type, after_move=keep, target=tid))
                best_here = max(best_here, v)
            grenade = self.grenade_from(here) if can_std else None
            if grenade is not None:
                cost = stay_cost + self.aoo_cost(here_threat)
                plans.append(_Plan(grenade[0] - cost, [grenade[1]], "grenade", after_move=both))
            for value, cmds, label, who in choices.ability_plans(self) if can_std else []:  # abilities, spells
                plans.append(_Plan(value - stay_cost, cmds, label, after_move=both, target=who))
        # a move (or a guarded step) first, then an attack
        if both and self.grid is not None:
            rm = self.reach(1)
            squares: list[tuple[Square, bool]] = []
            if rm is not None:
                squares += [(sq, False) for sq in self.candidates(rm)]
            if here_threat:
                squares += [(sq, True) for sq in self.guarded_steps()]
            # rank every square by its best attack and a rough risk; examine the best three exactly
            scored: list[tuple[float, Square, bool, float, Command, str]] = []
            for sq, guarded in squares:
                opts = self.attacks_from(sq, full=False, exact=False)
                if not opts:
                    continue
                end_threat = self.threatened_by(sq)
                v, cmd, tid = max(
                    ((v - (self.aoo_cost(end_threat) if r else 0.0), cmd, tid) for v, cmd, tid, r in opts),
                    key=lambda x: x[0],
                )
                scored.append((v - self.risk_cost(sq, exact=False), sq, guarded, v, cmd, tid))
            scored.sort(key=lambda x: (-x[0], x[1]))
            for _, sq, guarded, _, _, _ in scored[:3]:
                exact = self.attacks_from(sq, full=False)
                if not exact:
                    continue
                end_threat = self.threatened_by(sq)
                v, cmd, tid = max(
                    ((v - (self.aoo_cost(end_threat) if r else 0.0), cmd, tid) for v, cmd, tid, r in exact),
                    key=lambda x: x[0],
                )
                end_cost = self.risk_cost(sq)
                value = v - end_cost
                if len(self.foes) > 1:
                    g = self.grenade_from(sq)
                    if g is not None and g[0] - self.aoo_cost(self.threatened_by(sq)) > v:
                        value, cmd, tid = g[0] - self.aoo_cost(self.threatened_by(sq)) - end_cost, g[1], ""
                move: Command
                if guarded:
                    move = GuardedStep(actor=me.id, to=sq)
                else:
                    value -= self.aoo_cost(self.provokers(sq))
                    move = Move(actor=me.id, to=sq)
                plans.append(_Plan(value, [move, cmd], "move+" + cmd.type, target=tid or None))
        # reload an empty weapon and attack from here
        if both:
            for w in self.weapons:
                if _loaded(me, w) or ammo_left(me, w) is None:
                    continue
                loaded = me.model_copy(update={"ammo": {**me.ammo, w.name: w.capacity or 0}})
                for t in self.targets:
                    try:
                        geo = space.attack_geometry(s, loaded, t, w, explain=False)
                    except RuleViolation:
                        continue
                    v = self.attack_value(t, self.table(loaded, t, w, geo))
                    cost = stay_cost + self.aoo_cost(here_threat)
                    plans.append(_Plan(v - cost, [Reload(actor=me.id, weapon=w.name),
                                                  Attack(actor=me.id, target=t.id, weapon=w.name)],
                                       "reload+attack", target=t.id))  # fmt: skip
        # class abilities: trick attack, get 'em (sim.class_choices; their values include the square's risk)
        for value, cmds, label, who in class_choices.class_plans(self):
            plans.append(_Plan(value, cmds, label, target=who))
        # get out of reach without provoking: withdraw (full action)
        if can_full and here_threat:
            spot = self.safest_withdraw()
            if spot is not None:
                plans.append(_Plan(-self.risk_cost(spot), [Withdraw(actor=me.id, to=spot)], "withdraw"))
        # nothing better: close in (charge, or move toward the best target)
        offensive = [p for p in plans if p.target is not None or p.label.endswith("grenade")]
        if not offensive:
            plans += self.approach_plans(can_full, can_move)
        plans += self.pol.extra_plans(self, stay_cost, self.aoo_cost(here_threat))  # other policies' options
        # what the turn does if its charge is refused (which changes nothing): the best of the other plans
        rest = [p for p in plans if p.label != "charge"]
        self.without_charge = max(rest, key=_rank) if rest else _Plan(0.0, [], "nothing")
        if not plans:
            return _Plan(0.0, [], "nothing")
        return max(plans, key=_rank)

    def safest_step(self) -> Command | None:
        """After attacking: the move (a guarded step if threatened) to the square where the actor risks least,
        if that is better than staying."""
        me = self.me
        here = me.position
        if here is None or self.grid is None:
            return None
        best_cost = self.risk_cost(here)
        best: Command | None = None
        if self.threatened_by(here):
            steps = sorted(self.guarded_steps(), key=lambda q: (self.risk_cost(q, exact=False), q))
            for sq in steps[:3]:
                c = self.risk_cost(sq)
                if c < best_cost - 1e-9:
                    best_cost, best = c, GuardedStep(actor=me.id, to=sq)
            return best
        rm = self.reach(1)
        if rm is None:
            return None
        squares = [sq for sq, a in rm.actions.items() if a == 1 and sq not in rm.squeezed and sq != here]
        ranked = sorted(
            (self.risk_cost(sq, exact=False) + self._drift(sq), rm.cost[sq], sq) for sq in self._shortlist(squares, rm)
        )
        for *_, sq in ranked[:3]:
            c = self.risk_cost(sq) + self.aoo_cost(self.provokers(sq)) + self._drift(sq)
            if c < best_cost - 1e-9:
                best_cost, best = c, Move(actor=me.id, to=sq)
        return best

    def _shortlist(self, squares: list[Square], rm: ReachMap, n: int = 12) -> list[Square]:
        """The squares most worth a risk estimate: out of the foes' reach first, then with cover from most foes,
        then nearest the foes (staying in the fight), then cheapest to reach."""
        zones = set().union(*self.zones().values()) if self.zones() else set()
        melee_reach = [(fp, r) for e in self.foes for fp in [self.foe_fps.get(e.id)] if fp is not None
                       for r, _, _ in self._foe_profile(e)[1]]  # fmt: skip

        def key(sq: Square) -> tuple[int, int, int, int, Square]:
            fp = Footprint(sq[0], sq[1], self.side_len)
            reached = sum(1 for efp, r in melee_reach if footprint_distance_ft(efp, fp) <= r + 30)
            near = min((footprint_distance_ft(fp, f) for f in self.foe_fps.values()), default=0)
            return (int(any(q in zones for q in fp.squares)) + reached, -self.cover_hint(sq), near, rm.cost[sq], sq)

        return sorted(squares, key=key)[:n]

    def _drift(self, sq: Square) -> float:
        """A small cost for ending out of range of every foe (a shooter should stay in the fight)."""
        if not self.weapons:
            return 0.0
        fp = Footprint(sq[0], sq[1], self.side_len)
        d = min((footprint_distance_ft(fp, f) for f in self.foe_fps.values()), default=0)
        top = max((w.range_ft if not w.is_melee else 5) for w in self.weapons)
        return 0.0 if d <= top else 0.05 * self.threat(self.me)

    def safest_withdraw(self) -> Square | None:
        rm = self.reach(2)
        here = self.me.position
        if rm is None or here is None:
            return None
        squares = [sq for sq, c in rm.cost.items() if c <= 2 * self.speed and sq not in rm.squeezed and sq != here]
        ranked = sorted(
            (self.risk_cost(sq, exact=False) + self._drift(sq), rm.cost[sq], sq) for sq in self._shortlist(squares, rm)
        )
        best: tuple[float, Square] | None = None
        for *_, sq in ranked[:3]:
            c = self.risk_cost(sq) + self._drift(sq)
            if best is None or c < best[0]:
                best = (c, sq)
        return None if best is None else best[1]

    def approach_plans(self, can_full: bool, can_move: bool) -> list[_Plan]:
        """No attack this turn: charge a foe, or move toward the most valuable one (to the reach of its best
        weapon, or to the first range increment of a ranged one, preferring squares with cover)."""
        me = self.me
        here = self.fp
        if not self.foes or not can_move or me.position is None or here is None:
            return []

        def worth(t: Combatant) -> float:
            fp = self.foe_fps.get(t.id)
            d = footprint_distance_ft(here, fp) if fp is not None else 0
            return self.threat(t) / self.pool(t) / (1 + d / 30)

        target = max(self.foes, key=lambda t: (worth(t), t.id))
        plans: list[_Plan] = []
        fp_t = self.foe_fps.get(target.id)
        if not self.weapons or fp_t is None:
            return plans
        primary = max(self.weapons, key=lambda x: (self.plain_mean(me, target, x), x.name))
        melee = primary.is_melee
        if can_full and melee:
            plans.append(_Plan(0.5 * self.threat(target) / self.pool(target),
                               [Charge(actor=me.id, target=target.id, weapon=primary.name)], "charge",
                               target=target.id))  # fmt: skip
        rm = self.reach(2 if can_full else 1)
        if rm is None:
            return plans
        want = space.weapon_reach(me, primary) if melee else max(primary.range_ft, 5)

        def key(sq: Square) -> tuple[int, int]:
            d = footprint_distance_ft(Footprint(sq[0], sq[1], self.side_len), fp_t)
            return max(0, d - want), 0 if melee else -self.cover_hint(sq)

        best: tuple[tuple[int, int], int, int, Square] | None = None
        for sq, cost in rm.cost.items():
            if sq in rm.squeezed or sq == me.position:
                continue
            cand = (key(sq), rm.actions[sq], cost, sq)
            if best is None or cand < best:
                best = cand
        if best is None or best[0] >= key(me.position):
            return plans
        goal = best[3]
        step = goal if rm.actions[goal] == 1 else self._midpoint(rm, goal)
        if step is not None:
            plans.append(_Plan(0.0, [Move(actor=me.id, to=step)], "approach"))
        return plans

    def _midpoint(self, rm: ReachMap, sq: Square) -> Square | None:
        """Where the first move of a double move to ``sq`` ends (on the path the search found)."""
        try:
            path = rm.path_to(sq)
        except KeyError:
            return None
        spent = 0
        mid: Square | None = None
        for st in path.steps:
            spent += st.cost_ft
            if spent > self.speed:
                break
            if rm.actions.get(st.to.anchor) == 1 and st.to.anchor not in rm.squeezed:
                mid = st.to.anchor
        return mid
