"""Policies: pluggable decision makers for simulated fights.

A policy is the engine's ``Policy``: a callable ``policy(fight, cid)`` that takes the combatant's whole turn with
``fight.do(...)`` and ends it. It sees the fight's state but asks about enemies only through
:mod:`sftactics.sim.perception` (what its side perceives), and it proposes only commands it has checked, so the
engine rarely refuses one (a refused command changes nothing, and the policy then falls back).

* ``simple`` (:class:`SimplePolicy`): spend Resolve to stabilize and stay in the fight; close in on the nearest
  foe and attack it with the first weapon that reaches (melee fighters close in rather than shoot), throw a
  grenade that catches two foes and no friend, reload an empty weapon.
* ``tactical`` (:class:`TacticalPolicy`): compares the options of the turn by the exact expected damage of each
  attack against the target's AC (:mod:`sftactics.sim.odds`), weighed by how dangerous and how hurt each foe
  is (focus fire), against the expected damage it would take where it ends its turn (cover, range, staying
  outside melee reach) and the attacks of opportunity a move or a shot would provoke (guarded step, withdraw).
  It flanks (flanking is part of the attack's numbers), throws grenades at clusters, full attacks when two
  attacks at -4 beat one attack and a move, charges, gives first aid to a dying ally who cannot stabilize on
  its own, spends Resolve to stabilize and to stay in the fight while it keeps enough to stabilize again, and
  retreats when its side's position is hopeless (a side whose able members all retreat concedes the fight).
* ``engine``: the engine's built-in ``sftactics.encounter.policy.simple`` as it is (it sees everything); a
  simulated fight played with it is the fight ``sftactics run --seed S`` shows.

A confused combatant's turn follows its d% (CON-06, rolled by the engine at the start of the turn): babbling or
hurting itself leaves it nothing to do; bound to attack the nearest creature (or the one that last attacked it),
every policy closes in on it and attacks it as ``simple`` does (``confusion.forced_targets``). The kernel
refuses confused creatures, so it plays none of this.

Policies are created fresh for every fight (:func:`make_policy`) so their memories never leak between fights,
and they never roll dice: a fight depends only on its seed.

The compiled kernel plays ``simple`` and ``tactical`` again, decision for decision (``sim.kernel.fight`` and
``sim.kernel.tactics``; tested to roll the same dice in the same fights): a change to either policy here must
be made there too, or ``tests/sim/test_kernel*.py`` will say where they part.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sftactics.core.breakdown import Term
from sftactics.core.errors import RuleViolation
from sftactics.encounter import budget, confusion, reactions, space
from sftactics.encounter import threat as enc_threat
from sftactics.encounter.actions import ammo_left
from sftactics.encounter.commands import (
    Attack,
    Charge,
    Command,
    EndTurn,
    FirstAid,
    FullAttack,
    GuardedStep,
    Move,
    Reload,
    StabilizeWithResolve,
    StayInTheFight,
    ThrowGrenade,
    Withdraw,
)
from sftactics.encounter.engine import Fight, pending
from sftactics.encounter.movement import mover_for, occupants
from sftactics.encounter.policy import simple as engine_simple
from sftactics.encounter.policy import try_command
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid import areas, geometry
from sftactics.grid.cover import CoverKind, cover_terms
from sftactics.grid.flanking import FLANKING_BONUS, flank_line
from sftactics.grid.geometry import Footprint, footprint_distance_ft
from sftactics.grid.map import Feature
from sftactics.grid.movement import ReachMap, find_path, guarded_step_squares, reachable
from sftactics.grid.space import reach_covers
from sftactics.sf1e import injury, stats
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.state import Creature
from sftactics.sim import choices, class_choices, odds
from sftactics.sim.morale import DEFAULT_MORALE, Morale, breaks, shaken
from sftactics.sim.perception import able_enemies, allies, targets_for
from sftactics.sim.search import Seeker

Policy = Callable[[Fight, str], None]
Square = tuple[int, int]
_COVER_AC = cover_terms(CoverKind.COVER)[0]
_FLANK = (Term(FLANKING_BONUS, "flanking", "MOD-17"),)


# ---------------------------------------------------------------- shared helpers
def _my_turn(fight: Fight, cid: str) -> bool:
    s = fight.state
    return s.result is None and s.timeline.turn in (None, cid) and pending(s) == cid


def _end_turn(fight: Fight, cid: str) -> None:
    if _my_turn(fight, cid):
        fight.do(EndTurn(actor=cid))


def _surprise(state: Encounter) -> bool:
    return state.timeline.phase == "surprise"


def _can(c: Combatant, kind: budget.Kind, state: Encounter) -> bool:
    try:
        budget.take(c, kind, surprise=_surprise(state))
    except RuleViolation:
        return False
    return True


def _can_move_then_standard(c: Combatant, state: Encounter) -> bool:
    """A move action and then a standard action are both still possible this turn."""
    if not (_can(c, "move", state) and _can(c, "standard", state)):
        return False
    if _surprise(state) or stats.action_limits(c.creature).move_or_standard_only:
        return False
    return "move" not in c.spent and "standard" not in c.spent


def _held(c: Combatant, w: Weapon) -> bool:
    return c.in_hand is None or w.category in ("natural", "unarmed") or w.is_grenade or w.name in c.in_hand


def _loaded(c: Combatant, w: Weapon, shots: int = 1) -> bool:
    left = ammo_left(c, w)
    return left is None or left >= (w.usage if not w.is_grenade else 1) * shots


def _attack_weapons(c: Combatant) -> list[Weapon]:
    """Weapons it can attack with now: held (when tracked), not lying where a throw left them (ACT-34). A melee
    weapon with the thrown property counts as a melee weapon: the policies strike with it, never throw it."""
    return [w for w in c.creature.stat.weapons if not w.is_grenade and _held(c, w) and w.name not in c.on_ground]


def _resolve_start(fight: Fight, cid: str, *, keep_reserve: bool) -> None:
    """Spend Resolve at the start of the turn: stabilize if dying; stay in the fight if stable at 0 HP (with
    ``keep_reserve``, only while enough Resolve is left to stabilize again afterwards)."""
    s = fight.state
    me = s.get(cid)
    cr = me.creature
    if cr.has("dying"):
        if cr.state.rp >= injury.stabilize_cost(cr, s.options):
            try_command(fight, StabilizeWithResolve(actor=cid))
        return
    if cr.has("stable") and cr.state.hp == 0:
        rp = cr.state.rp
        if rp < 1 or cr.state.stabilized_round == s.timeline.round or not s.timeline.turn_fresh:
            return
        if keep_reserve and rp - 1 < injury.stabilize_cost(cr, s.options):
            return
        try_command(fight, StayInTheFight(actor=cid))


def _reach_map(state: Encounter, me: Combatant, actions: int = 1) -> ReachMap | None:
    grid = state.grid
    if grid is None or me.position is None:
        return None
    return reachable(
        grid, me.position, mover_for(me), occupants=occupants(state, me), actions=actions, diagonals_before=me.diagonals
    )


# bursts depend only on the map, the point and the radius: remembered per map (the map object is kept with its
# answers, so a new map can never be mistaken for an old one that had the same id)
_BURSTS: dict[int, tuple[Any, dict[tuple[Square, int], frozenset[Square]]]] = {}


def _burst(state: Encounter, point: Square, radius: int) -> frozenset[Square]:
    grid = state.grid
    entry = _BURSTS.get(id(grid))
    if entry is None or entry[0] is not grid:
        if len(_BURSTS) > 64:
            _BURSTS.clear()
        entry = (grid, {})
        _BURSTS[id(grid)] = entry
    store = entry[1]
    hit = store.get((point, radius))
    if hit is None:
        if len(store) > 20_000:
            store.clear()
        hit = frozenset(areas.burst(grid, point, radius).squares)
        store[(point, radius)] = hit
    return hit


_SIDES: dict[int, tuple[Any, dict[Square, frozenset[tuple[int, int]]]]] = {}


def _cover_sides(grid: Any) -> dict[Square, frozenset[tuple[int, int]]]:
    """For each square next to a cover object or low obstacle, the directions (sx, sy) from which a foe would
    find it between them: the neighbour in x, in y or on the diagonal toward the foe holds one. Per map."""
    hit = _SIDES.get(id(grid))
    if hit is not None and hit[0] is grid:
        return hit[1]
    h, w = grid.height, grid.width
    blk = np.zeros((h + 2, w + 2), dtype=np.bool_)  # a frame of open squares around the map
    blk[1:-1, 1:-1] = (grid.array & int(Feature.COVER | Feature.LOW)) != 0
    dirs = [(sx, sy) for sx in (-1, 0, 1) for sy in (-1, 0, 1) if (sx, sy) != (0, 0)]
    bits = np.zeros((h, w), dtype=np.int32)
    for k, (sx, sy) in enumerate(dirs):  # the neighbour in x, in y or on the diagonal holds one
        near = blk[1 + sy : 1 + sy + h, 1 + sx : 1 + sx + w].copy()
        if sx:
            near |= blk[1 : 1 + h, 1 + sx : 1 + sx + w]
        if sy:
            near |= blk[1 + sy : 1 + sy + h, 1 : 1 + w]
        bits |= near.astype(np.int32) << k
    out: dict[Square, frozenset[tuple[int, int]]] = {}
    ys, xs = np.nonzero(bits)  # only squares next to something: the rest of a large map costs nothing here
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        b = int(bits[y, x])
        out[(x, y)] = frozenset(d for k, d in enumerate(dirs) if b >> k & 1)
    if len(_SIDES) > 64:
        _SIDES.clear()
    _SIDES[id(grid)] = (grid, out)
    return out


def _grenades(me: Combatant) -> list[Weapon]:
    return [w for w in me.creature.stat.weapons if w.is_grenade and w.area is not None and _loaded(me, w)]


# ---------------------------------------------------------------- simple
def _rides(fight: Fight, cid: str, choose: Callable[[Encounter, Combatant], Combatant | None]) -> bool:
    """A rider's turn from its vehicle (``encounter.riding``): True when it was taken."""
    if not fight.state.vehicles or not _my_turn(fight, cid):
        return False
    from sftactics.encounter.riding import ride

    return ride(fight, cid, choose)


class SimplePolicy:
    """Close in on the nearest foe and attack it (the engine's simple policy, through the side's perception and
    without proposing commands the engine would refuse)."""

    name = "simple"

    def __init__(self, morale: Morale = DEFAULT_MORALE) -> None:
        self.morale = morale
        self.seeker = Seeker()
        self.retreating: set[str] = set()

    def concedes(self, state: Encounter, side: str) -> bool:
        able = allies(state, side)
        return bool(able) and all(c.id in self.retreating for c in able)

    def __call__(self, fight: Fight, cid: str) -> None:
        _resolve_start(fight, cid, keep_reserve=False)
        if self._retreats(fight, cid) or _rides(fight, cid, self._nearest):
            _end_turn(fight, cid)
            return
        choices.draw_weapon(fight, cid)
        if choices.heal(fight, cid, self_move=False) or choices.simple_blast(fight, cid):  # abilities and spells
            _end_turn(fight, cid)
            return
        for moves in range(3):
            s = fight.state
            if not _my_turn(fight, cid):
                return
            me = s.get(cid)
            if me.out_of_fight or not _can(me, "move", s):
                break
            forced = confusion.forced_targets(s, cid)  # confused: bound to attack these (CON-06)
            target = self._nearest(s, me) if forced is None else self._nearest_of(s, me, forced)
            if target is None:
                if forced is None and moves < 2 and self.seeker.step(fight, cid):
                    continue  # nobody located: go looking (sim.search)
                break
            if forced is None and _can(me, "standard", s):
                grenade = self._grenade_point(s, me)
                if grenade is not None and try_command(
                    fight, ThrowGrenade(actor=cid, weapon=grenade[0], at=grenade[1])
                ):
                    break
            weapons = _attack_weapons(me)
            weapon = self._usable(s, me, target, weapons)
            first = weapons[0] if weapons else None
            if first is not None and first.is_melee and weapon is not None and not weapon.is_melee and moves < 2:
                dest = self._approach(s, me, target)  # a melee fighter closes in rather than shooting
                if dest is not None and try_command(fight, Move(actor=cid, to=dest)):
                    continue
            if weapon is not None and _can(me, "standard", s):
                if not _loaded(me, weapon):
                    if try_command(fight, Reload(actor=cid, weapon=weapon.name)):
                        continue
                elif (
                    (forced is None and class_choices.simple_rider(fight, cid, target))
                    or (forced is None and class_choices.simple_mark(
                        fight, cid, target, Attack(actor=cid, target=target.id, weapon=weapon.name)))
                    or try_command(fight, Attack(actor=cid, target=target.id, weapon=weapon.name))
                ):  # fmt: skip
                    break
            dest = self._approach(s, me, target) if moves < 2 else None
            if dest is None or not try_command(fight, Move(actor=cid, to=dest)):
                break
        _end_turn(fight, cid)

    def _retreats(self, fight: Fight, cid: str) -> bool:
        """Retreat when the morale says so (by the book the simple policy never does; see ``sim.morale``)."""
        s = fight.state
        me = s.get(cid)
        if self.morale != "cautious" or not _my_turn(fight, cid) or me.out_of_fight:
            return False
        if confusion.forced_targets(s, cid) is not None:
            return False
        if cid not in self.retreating and not shaken(s, me):
            return False
        self.retreating.add(cid)
        if not able_enemies(s, me.side) or retreat(fight, cid):
            return True  # withdrawn, or out of sight of every foe: it stays there
        self.retreating.discard(cid)  # cornered: fight
        return False

    @staticmethod
    def _nearest_of(state: Encounter, me: Combatant, ids: tuple[str, ...]) -> Combatant | None:
        """The nearest of the creatures a confused combatant must attack (CON-06)."""
        them = [state.get(i) for i in ids if i in state.combatants]
        if not them:
            return None
        return min(them, key=lambda f: (space.distance_ft(me, f) or 0, f.id))

    @staticmethod
    def _nearest(state: Encounter, me: Combatant) -> Combatant | None:
        """The nearest foe it can aim at (or, if none, the nearest its side knows of)."""
        foes = targets_for(state, me.id) or able_enemies(state, me.side)
        if not foes:
            return None
        return min(foes, key=lambda f: (space.distance_ft(me, f) or 0, f.id))

    @staticmethod
    def _usable(state: Encounter, me: Combatant, target: Combatant, weapons: list[Weapon]) -> Weapon | None:
        for w in weapons:
            try:
                space.attack_geometry(state, me, target, w, explain=False)
            except RuleViolation:
                continue
            return w
        return None

    @staticmethod
    def _approach(state: Encounter, me: Combatant, target: Combatant) -> Square | None:
        """The square of one move closest to ``target``, preferring one that flanks it with an ally."""
        rm = _reach_map(state, me)
        fp_t = space.footprint(target)
        here = space.footprint(me)
        if rm is None or fp_t is None or here is None:
            return None
        mates = [
            fp
            for c in allies(state, me.side)
            if c.id != me.id
            for fp in [space.footprint(c)]
            if fp is not None and footprint_distance_ft(fp, fp_t) <= 5
        ]
        best: tuple[int, int, int, Square] | None = None
        for sq, acts in rm.actions.items():
            if acts != 1 or sq in rm.squeezed:
                continue
            fp = Footprint(sq[0], sq[1], here.side)
            d = footprint_distance_ft(fp, fp_t)
            flanks = 0 if d <= 5 and any(flank_line(fp, a, fp_t) for a in mates) else 1
            cand = (d, flanks, rm.cost[sq], sq)
            if best is None or cand < best:
                best = cand
        if best is None or best[0] >= footprint_distance_ft(here, fp_t):
            return None
        return best[3]

    @staticmethod
    def _grenade_point(state: Encounter, me: Combatant) -> tuple[str, Square] | None:
        """A grenade and an intersection whose burst catches at least two foes and no friend, in range."""
        grenades = _grenades(me)
        here = space.footprint(me)
        if not grenades or here is None or state.grid is None:
            return None
        foes = {c.id: fp for c in able_enemies(state, me.side) for fp in [space.footprint(c)] if fp is not None}
        if len(foes) < 2:
            return None
        friends = [fp for c in allies(state, me.side, able=False) for fp in [space.footprint(c)] if fp is not None]
        best: tuple[int, str, Square] | None = None
        for w in grenades:
            assert w.area is not None
            top = geometry.max_range_ft(max(w.range_ft, 5), thrown=True, max_increments=w.max_increments)
            points = {(fp.x + dx, fp.y + dy) for fp in foes.values() for dx in (0, 1) for dy in (0, 1)}
            for p in sorted(points):
                if geometry.distance_to_point_ft(here, p) > top:
                    continue
                sqs = _burst(state, p, w.area.size_ft)
                hit = [n for n, fp in foes.items() if any(q in sqs for q in fp.squares)]
                if len(hit) < 2 or any(q in sqs for fp in friends for q in fp.squares):
                    continue
                if best is None or len(hit) > best[0]:
                    best = (len(hit), w.name, p)
        return None if best is None else (best[1], best[2])


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
            t = _Turn(self, fight.state, cid)
            t.no_charge = True
            plan = t.best_plan()
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


def retreat(fight: Fight, cid: str) -> bool:
    """Withdraw (or move) to the square farthest from the able foes the side sees; False if nowhere is better
    than here. The retreat of every policy and morale (``sim.morale``)."""
    s = fight.state
    me = s.get(cid)
    if me.position is None or s.grid is None:
        return False
    full = _can(me, "full", s)
    rm = _reach_map(s, me, 2 if full else 1)
    if rm is None:
        return False
    speed = stats.speed(me.creature).total
    limit = 2 * speed if full else speed
    here = space.footprint(me)
    side_len = here.side if here is not None else 1
    foe_fps = [fp for c in able_enemies(s, me.side) for fp in [space.footprint(c)] if fp is not None]

    def far(sq: Square) -> tuple[int, int]:
        fp = Footprint(sq[0], sq[1], side_len)
        near = min((footprint_distance_ft(fp, f) for f in foe_fps), default=0)
        return near, -rm.cost.get(sq, 0)  # the square it stands on may be no stopping place of the search

    spots = [sq for sq, c in rm.cost.items() if c <= limit and sq not in rm.squeezed]
    if not spots:
        return False
    best = max(spots, key=lambda sq: (*far(sq), -sq[0], -sq[1]))  # ties: the lowest x, then y
    if far(best)[0] <= far(me.position)[0]:
        return False
    if full and try_command(fight, Withdraw(actor=cid, to=best)):
        return True
    return try_command(fight, Move(actor=cid, to=best)) if rm.cost.get(best, 999) <= speed else False


class _Turn:
    """Everything one turn's decision needs, computed once."""

    def __init__(self, pol: TacticalPolicy, state: Encounter, cid: str) -> None:
        self.pol = pol
        self.w = pol.w
        self.s = state
        self.me = state.get(cid)
        me = self.me
        self.grid = state.grid
        self.foes = able_enemies(state, me.side)
        self.targets = targets_for(state, cid)
        self.friends = [c for c in allies(state, me.side) if c.id != cid]
        self.fp = space.footprint(me)
        self.side_len = self.fp.side if self.fp is not None else 1
        self.speed = stats.speed(me.creature).total
        self.foe_fps = {c.id: fp for c in self.foes for fp in [space.footprint(c)] if fp is not None}
        self.mate_fps = [fp for c in self.friends for fp in [space.footprint(c)] if fp is not None]
        self.weapons = _attack_weapons(me)
        self._moved: dict[Square, Combatant] = {}
        self._risk: dict[Square, float] = {}
        self._risk_rough: dict[Square, float] = {}
        self._profiles: dict[str, tuple[int, list[tuple[int, float, float]], list[Weapon]]] = {}
        self._threat: dict[str, float] = {}
        self._zones: dict[str, frozenset[Square]] | None = None
        self.no_charge = False
        self._reach: dict[int, ReachMap | None] = {}

    def reach(self, actions: int) -> ReachMap | None:
        """The squares the actor can reach with one move action or a double move (computed once a turn)."""
        if actions not in self._reach:
            self._reach[actions] = _reach_map(self.s, self.me, actions)
        return self._reach[actions]

    # ------------------------------------------------------------ numbers
    def table(
        self,
        attacker: Combatant,
        defender: Combatant,
        w: Weapon,
        geo: space.Geometry,
        *,
        attacks: int = 1,
        penalty: int = 0,
    ) -> odds.DamageTable:
        a, d = attacker.creature, defender.creature
        key = (w.name, geo.attack_terms, geo.ac_terms, geo.miss_chance, attacks, penalty)
        return self.pol.memo.get((a, d), key, lambda: self._table(a, d, w, geo, attacks, penalty))  # type: ignore[no-any-return]

    def _table(
        self, a: Creature, d: Creature, w: Weapon, geo: space.Geometry, attacks: int, penalty: int
    ) -> odds.DamageTable:
        basis: odds.AttackBasis = self.pol.memo.get(
            (a, d), ("basis", w.name), lambda: odds.AttackBasis.of(a, d, w, self.s.options)
        )
        terms = geo.attack_terms
        if penalty:
            terms = (*terms, Term(penalty, "full attack" if attacks > 1 else "charge", "ACT-53"))
        bonus, ac = basis.numbers(terms, geo.ac_terms)
        return odds.damage_table(
            bonus,
            ac,
            w.damage_expr,
            basis.damage_bonus,
            crit_immune=basis.crit_immune,
            reduction=basis.reduction,
            miss_chance=geo.miss_chance,
            attacks=attacks,
        )

    def plain_mean(self, attacker: Combatant, defender: Combatant, w: Weapon, attacks: int = 1) -> float:
        """Expected damage of ``w`` from ``attacker`` on ``defender`` with no help from positions."""
        pen = -4 if attacks > 1 else 0
        return self.table(attacker, defender, w, space.Geometry(), attacks=attacks, penalty=pen).mean

    def dpr(self, c: Combatant, against: list[Combatant]) -> float:
        """Expected damage per round of ``c``'s best weapon, averaged over ``against``."""
        if not against:
            return 0.0
        weapons = [w for w in c.creature.stat.weapons if not w.is_grenade]
        if not weapons:
            return 0.0

        def compute() -> float:
            best = 0.0
            for w in weapons:
                mean = sum(self.plain_mean(c, o, w) for o in against) / len(against)
                best = max(best, mean)
            return best

        return float(self.pol.memo.get((c.creature, *(o.creature for o in against)), "dpr", compute))

    def threat(self, c: Combatant) -> float:
        """Expected damage per round ``c`` deals to the other side (at least a little)."""
        hit = self._threat.get(c.id)
        if hit is None:
            other = allies(self.s, self.me.side) if c.side != self.me.side else self.foes
            hit = max(0.5, self.dpr(c, other))
            self._threat[c.id] = hit
        return hit

    @staticmethod
    def pool(c: Combatant) -> int:
        st = c.creature.state
        return max(1, st.sp + st.hp + st.temp_hp)

    def attack_value(self, target: Combatant, table: odds.DamageTable) -> float:
        pool = self.pool(target)
        v = self.threat(target) * (table.capped_mean(pool) / pool + self.w.drop_bonus * table.p_at_least(pool))
        if self.pol.focus.get(self.me.side) == target.id:
            v += self.w.focus * self.threat(target) * table.hit
        return v

    def hp_value(self) -> float:
        """What one point of damage to the actor costs its side."""
        return self.threat(self.me) / self.pool(self.me)

    # ------------------------------------------------------------ positions
    def at(self, sq: Square) -> Combatant:
        if self.me.position == sq:
            return self.me
        c = self._moved.get(sq)
        if c is None:
            c = self.me.model_copy(update={"position": sq})
            self._moved[sq] = c
        return c

    def zones(self) -> dict[str, frozenset[Square]]:
        """The squares each foe threatens, for foes that could take an attack of opportunity on the actor."""
        if self._zones is None:
            out = {}
            for e in self.foes:
                if reactions.can_take_aoo(self.s, e, self.me)[0]:
                    z = enc_threat.threatened_squares(self.s, e)
                    if z:
                        out[e.id] = z
            self._zones = out
        return self._zones

    def threatened_by(self, sq: Square) -> list[str]:
        fp = Footprint(sq[0], sq[1], self.side_len)
        return [e for e, z in self.zones().items() if any(q in z for q in fp.squares)]

    def aoo_cost(self, provokers: Iterable[str]) -> float:
        """The expected cost of the attacks of opportunity these foes would make on the actor."""
        total = 0.0
        for eid in provokers:
            e = self.s.get(eid)
            total += max((self.plain_mean(e, self.me, w) for w in enc_threat.aoo_weapons(e)), default=0.0)
        return total * self.hp_value() * self.w.risk

    def risk(self, sq: Square, *, exact: bool = True) -> float:
        """Expected damage the actor takes next round if it ends its turn on ``sq``, were the foes to stay where
        they are: melee foes that can reach it attack (a full attack if already in reach), ranged foes shoot
        (each shooter's attacks shared among the actor's side; a melee foe keeps most of its attacks for the
        nearest of them). ``exact``: the engine's geometry for ranged attacks (cover with every line traced,
        concealment); otherwise range and a cheap cover hint (a cover object or low obstacle next to the square on
        the shooter's side), to rank many squares before examining the best exactly."""
        cache = self._risk if exact else self._risk_rough
        hit = cache.get(sq)
        if hit is not None:
            return hit
        me_at = self.at(sq)
        fp = Footprint(sq[0], sq[1], self.side_len)
        n_side = 1 + len(self.friends)
        total = 0.0
        for e in self.foes:
            efp = self.foe_fps.get(e.id)
            if efp is None:
                continue
            dist = footprint_distance_ft(efp, fp)
            speed, melee, ranged = self._foe_profile(e)
            best = 0.0
            weight = 1.0 / n_side
            for reach, single, full in melee:
                if dist <= reach:
                    mean = max(single, full)
                elif dist <= speed + reach:
                    mean = single
                else:
                    continue
                if mean > best:
                    nearer = any(footprint_distance_ft(efp, m) < dist for m in self.mate_fps)
                    best, weight = mean, (self.w.melee_focus if nearer else 1.0)
            for w in ranged:  # best first: with the engine's geometry, only the best weapon in range
                inc = max(w.range_ft, 5)
                rc = geometry.check_range(dist, inc, thrown=w.thrown, max_increments=w.max_increments)
                if not rc.in_range:
                    continue
                geo: space.Geometry
                if exact:
                    try:
                        geo = space.attack_geometry(self.s, e, me_at, w, explain=False)
                    except RuleViolation:
                        break  # no line of effect: no other weapon has one either
                else:
                    ac_terms = _COVER_AC if self._covered_from(sq, efp) else ()
                    geo = space.Geometry(attack_terms=tuple(rc.terms), ac_terms=ac_terms)
                mean = self.table(e, me_at, w, geo).mean
                if mean > best:
                    best, weight = mean, 1.0 / n_side
                if exact:
                    break
            total += best * weight
        cache[sq] = total
        return total

    def _foe_profile(self, e: Combatant) -> tuple[int, list[tuple[int, float, float]], list[Weapon]]:
        """(speed, melee weapons as (reach, one attack, full attack) expected on the actor, ranged weapons)."""
        hit = self._profiles.get(e.id)
        if hit is None:
            melee = []
            ranged = []
            for w in e.creature.stat.weapons:
                if w.is_grenade:
                    continue
                if w.is_melee:
                    single = self.plain_mean(e, self.me, w)
                    full = 0.0 if w.unwieldy else self.plain_mean(e, self.me, w, attacks=2)
                    melee.append((space.weapon_reach(e, w), single, full))
                else:
                    ranged.append(w)
            ranged.sort(key=lambda w: (-self.plain_mean(e, self.me, w), w.name))
            hit = (stats.speed(e.creature).total, melee, ranged)
            self._profiles[e.id] = hit
        return hit

    def risk_cost(self, sq: Square, *, exact: bool = True) -> float:
        r = self.risk(sq, exact=exact)
        cost = r * self.hp_value() * self.w.risk
        if self.me.creature.stat.kind == "pc":
            pool = self.pool(self.me)
            cost += self.w.danger * self.threat(self.me) * max(0.0, r - 0.5 * pool) / pool
        return cost

    # ------------------------------------------------------------ attacks from a square
    def attacks_from(self, sq: Square, *, full: bool, exact: bool = True) -> list[tuple[float, Command, str, bool]]:
        """The (value, command, target, ranged) attacks the actor can make from ``sq``: one attack per target and
        weapon, and with ``full`` the full attacks (two attacks at -4 with one weapon). ``exact``: the engine's
        geometry (reach, range, cover with every line traced, concealment, flanking) for the
        ``TacticalWeights.exact_attacks`` most promising target and weapon pairs by the rough estimate; otherwise
        every pair with reach, range, the cheap cover hint and flanking by position only (to rank many squares
        before examining the best exactly)."""
        me_at = self.at(sq)
        fp = Footprint(sq[0], sq[1], self.side_len)
        rough: list[tuple[float, Combatant, Weapon, space.Geometry]] = []
        for t in self.targets:
            for w in self.weapons:
                geo = self._rough_geometry(me_at, fp, t, w)
                if geo is None:
                    continue
                best = max(self._values(me_at, t, w, geo, full), default=None, key=lambda x: x[0])
                if best is not None:
                    rough.append((best[0], t, w, geo))
        if exact:
            rough.sort(key=lambda x: (-x[0], x[1].id, x[2].name))
            chosen = []
            for _, t, w, _ in rough[: self.w.exact_attacks]:
                geo_exact = self._geometry(me_at, fp, t, w)
                if geo_exact is not None:
                    chosen.append((0.0, t, w, geo_exact))
            rough = chosen
        out: list[tuple[float, Command, str, bool]] = []
        for _, t, w, geo in rough:
            out += self._values(me_at, t, w, geo, full)
        return out

    def _values(
        self, me_at: Combatant, t: Combatant, w: Weapon, geo: space.Geometry, full: bool
    ) -> list[tuple[float, Command, str, bool]]:
        out: list[tuple[float, Command, str, bool]] = []
        ranged = not w.is_melee
        if _loaded(me_at, w):
            v = self.attack_value(t, self.table(me_at, t, w, geo))
            out.append((v, Attack(actor=me_at.id, target=t.id, weapon=w.name), t.id, ranged))
        if full and not w.unwieldy and _loaded(me_at, w, 2):
            v = self.attack_value(t, self.table(me_at, t, w, geo, attacks=2, penalty=-4))
            out.append((v, FullAttack(actor=me_at.id, target=t.id, weapon=w.name), t.id, ranged))
        return out

    def _geometry(self, me_at: Combatant, fp: Footprint, t: Combatant, w: Weapon) -> space.Geometry | None:
        fp_t = self.foe_fps.get(t.id)
        if fp_t is not None and not self._in_reach_or_range(fp, fp_t, me_at, w):
            return None
        try:
            return space.attack_geometry(self.s, me_at, t, w, explain=False)
        except RuleViolation:
            return None

    def _in_reach_or_range(self, fp: Footprint, fp_t: Footprint, me_at: Combatant, w: Weapon) -> bool:
        dist = footprint_distance_ft(fp, fp_t)
        if w.is_melee:
            reach = space.weapon_reach(me_at, w)
            return any(reach_covers(fp, q, reach) for q in fp_t.squares)
        return dist <= geometry.max_range_ft(max(w.range_ft, 5), thrown=w.thrown, max_increments=w.max_increments)

    def _rough_geometry(self, me_at: Combatant, fp: Footprint, t: Combatant, w: Weapon) -> space.Geometry | None:
        fp_t = self.foe_fps.get(t.id)
        if fp_t is None:
            return None
        if not self._in_reach_or_range(fp, fp_t, me_at, w):
            return None
        if w.is_melee:
            flank = any(
                footprint_distance_ft(m, fp_t) <= 5 and flank_line(fp, m, fp_t) is not None for m in self.mate_fps
            )
            return space.Geometry(attack_terms=_FLANK if flank else ())
        rc = geometry.check_range(footprint_distance_ft(fp, fp_t), max(w.range_ft, 5), thrown=w.thrown,
                                  max_increments=w.max_increments)  # fmt: skip
        ac = _COVER_AC if self._covered_from(fp_t.anchor, fp) else ()
        return space.Geometry(attack_terms=tuple(rc.terms), ac_terms=ac)

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

    # ------------------------------------------------------------ candidate squares
    def _covered_from(self, sq: Square, efp: Footprint) -> bool:
        """A cover object or low obstacle right next to ``sq`` on the side of ``efp`` (a cheap hint of cover)."""
        dx, dy = efp.x - sq[0], efp.y - sq[1]
        return ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0)) in _cover_sides(self.grid).get(sq, ())

    def cover_hint(self, sq: Square) -> int:
        """How many foes the cheap hint says ``sq`` has cover from (to choose which squares to examine)."""
        return sum(1 for efp in self.foe_fps.values() if self._covered_from(sq, efp))

    def candidates(self, rm: ReachMap) -> list[Square]:
        """Squares worth examining for a move followed by an attack."""
        here = self.me.position
        assert here is not None
        melee = [w for w in self.weapons if w.is_melee]
        ranged = [w for w in self.weapons if not w.is_melee]
        one = [sq for sq, a in rm.actions.items() if a == 1 and sq not in rm.squeezed and sq != here]
        picked: list[Square] = []
        if melee:
            reach = max(space.weapon_reach(self.me, w) for w in melee)
            near = []
            for sq in one:
                fp = Footprint(sq[0], sq[1], self.side_len)
                d = min((footprint_distance_ft(fp, f) for f in self.foe_fps.values()), default=999)
                if d <= reach:
                    near.append((-self._flank_hint(fp), rm.cost[sq], sq))
            picked += [sq for _, _, sq in sorted(near)[: 2 * self.w.candidates]]
        if ranged:
            top = max(w.range_ft for w in ranged)
            zones = set().union(*self.zones().values()) if self.zones() else set()
            scored = []
            for sq in one:
                fp = Footprint(sq[0], sq[1], self.side_len)
                d = min((footprint_distance_ft(fp, f) for f in self.foe_fps.values()), default=999)
                if d > 10 * top:
                    continue
                safe = not any(q in zones for q in fp.squares)
                scored.append((-int(safe), -self.cover_hint(sq), int(d > top), rm.cost[sq], sq))
            picked += [sq for *_, sq in sorted(scored)[: self.w.candidates]]
        seen: set[Square] = set()
        return [sq for sq in picked if not (sq in seen or seen.add(sq))]  # type: ignore[func-returns-value]

    def _flank_hint(self, fp: Footprint) -> int:
        mates = [f for c in self.friends for f in [space.footprint(c)] if f is not None]
        n = 0
        for t in self.foe_fps.values():
            if footprint_distance_ft(fp, t) <= 5 and any(
                footprint_distance_ft(m, t) <= 5 and flank_line(fp, m, t) for m in mates
            ):
                n += 1
        return n

    def provokers(self, sq: Square) -> list[str]:
        """Foes whose attacks of opportunity a move to ``sq`` provokes (on the engine's path)."""
        if not self.zones() or self.grid is None or self.me.position is None:
            return []
        path = find_path(self.grid, self.me.position, sq, mover_for(self.me), occupants=occupants(self.s, self.me),
                         threats=self.zones(), budget_ft=self.speed, diagonals_before=self.me.diagonals)  # fmt: skip
        if path is None:
            return list(self.zones())
        return [p.enemy for p in path.provocations]

    def guarded_steps(self) -> list[Square]:
        if self.grid is None or self.me.position is None:
            return []
        found = guarded_step_squares(
            self.grid, self.me.position, mover_for(self.me), occupants=occupants(self.s, self.me),
            diagonals_before=self.me.diagonals,
        )  # fmt: skip
        return sorted(found)

    def adjacent_spot(self, patient: Footprint, within_ft: int = 5) -> Square | None:
        """The cheapest square of one move within ``within_ft`` of ``patient`` (next to it by default) that
        provokes nothing, or None."""
        rm = self.reach(1)
        if rm is None:
            return None
        spots = sorted(
            (rm.cost[sq], sq)
            for sq, a in rm.actions.items()
            if a == 1 and sq not in rm.squeezed
            and footprint_distance_ft(Footprint(sq[0], sq[1], self.side_len), patient) <= within_ft
        )  # fmt: skip
        for _, sq in spots[:4]:
            if not self.provokers(sq):
                return sq
        return None

    # ------------------------------------------------------------ the whole side
    def hopeless(self) -> bool:
        """The side's fight is lost: its foes would finish it ``hopeless`` times faster than it can finish them
        (expected damage per round against what each side has left), once half the side is down, or someone is
        down and the actor is below half its Stamina and Hit Points."""
        mine = allies(self.s, self.me.side)
        if not mine or not self.foes:
            return False
        everyone = allies(self.s, self.me.side, able=False)
        st = self.me.creature.stat
        lost = len(everyone) - len(mine)
        hurt = 2 * self.pool(self.me) < st.hp + st.sp
        if not (2 * lost >= len(everyone) or (lost and hurt)):
            return False
        our_dpr = sum(self.dpr(c, self.foes) for c in mine)
        their_dpr = sum(self.dpr(c, mine) for c in self.foes)
        our_pool = sum(self.pool(c) for c in mine)
        their_pool = sum(self.pool(c) for c in self.foes)
        if their_dpr <= 0:
            return False
        t_us = their_pool / max(our_dpr, 0.01)  # rounds we need
        t_them = our_pool / their_dpr  # rounds they need
        return t_us > self.w.hopeless * t_them

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
        if not plans:
            return _Plan(0.0, [], "nothing")
        return max(plans, key=lambda p: (p.value, -len(p.commands)))

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
        if can_full and melee and not self.no_charge:
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


# ---------------------------------------------------------------- registry
def _veteran(morale: Morale) -> Policy:
    from sftactics.sim.veteran import VeteranPolicy  # it builds on this module

    return VeteranPolicy(morale=morale)


POLICIES: dict[str, Callable[..., Policy]] = {
    "simple": SimplePolicy,
    "tactical": TacticalPolicy,
    "veteran": lambda morale=DEFAULT_MORALE: _veteran(morale),
    "engine": lambda morale=None: engine_simple,  # no morale: the engine's own policy, as ``sftactics run`` plays it
}


def policy_names() -> list[str]:
    return sorted(POLICIES)


def make_policy(name: str, morale: Morale = DEFAULT_MORALE) -> Policy:
    """A fresh policy by name (``simple``, ``tactical``, ``veteran``, ``engine``) with the side's ``morale``
    (``sim.morale``; the engine policy has none)."""
    try:
        factory = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r} (choose from {', '.join(policy_names())})") from None
    return factory(morale=morale)
