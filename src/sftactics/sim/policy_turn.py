"""What the ``tactical`` simulation policy (``sim.policy_tactical``) computes once for a turn (:class:`_TurnView`).

The exact expected damage of an attack against the target's AC (``sim.odds``, remembered per pair of creatures),
a foe's threat and what it has left (the Lanchester value of damage), the damage the actor expects to take where
it ends its turn and the attacks of opportunity a move provokes, the attacks it can make from a square (roughly
for many squares, with the engine's geometry for the best), the squares worth examining, and whether its side's
fight is hopeless. The choice among the options is :class:`~sftactics.sim.policy_tactical._Turn`'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from sftactics.core.breakdown import Term
from sftactics.core.errors import RuleViolation
from sftactics.encounter import reactions, space
from sftactics.encounter import threat as enc_threat
from sftactics.encounter.commands import Attack, Command, FullAttack
from sftactics.encounter.movement import mover_for, occupants
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid import geometry
from sftactics.grid.cover import CoverKind, cover_terms
from sftactics.grid.flanking import FLANKING_BONUS, flank_line
from sftactics.grid.geometry import Footprint, footprint_distance_ft
from sftactics.grid.movement import ReachMap, find_path, guarded_step_squares
from sftactics.grid.space import reach_covers
from sftactics.sf1e import stats
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.state import Creature
from sftactics.sim import odds
from sftactics.sim.perception import able_enemies, allies, targets_for
from sftactics.sim.policy_common import Square, _attack_weapons, _cover_sides, _loaded, _reach_map

if TYPE_CHECKING:
    from sftactics.sim.policy_tactical import TacticalPolicy

_COVER_AC = cover_terms(CoverKind.COVER)[0]
_FLANK = (Term(FLANKING_BONUS, "flanking", "MOD-17"),)


class _TurnView:
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
