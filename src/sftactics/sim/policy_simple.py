"""The ``simple`` simulation policy (:class:`SimplePolicy`, ``sim.policies``): close in on the nearest foe and
attack it with the first weapon that reaches (melee fighters close in rather than shoot), throw a grenade that
catches two foes and no friend, reload an empty weapon, spend Resolve to stabilize and stay in the fight; a rider
drives and shoots from its vehicle (:func:`_rides`, which the tactical policy uses too).
"""

from __future__ import annotations

from collections.abc import Callable

from sftactics.core.errors import RuleViolation
from sftactics.encounter import confusion, space
from sftactics.encounter.commands import Attack, Move, Reload, ThrowGrenade
from sftactics.encounter.engine import Fight
from sftactics.encounter.policy import try_command
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid import geometry
from sftactics.grid.flanking import flank_line
from sftactics.grid.geometry import Footprint, footprint_distance_ft
from sftactics.sf1e.statblock import Weapon
from sftactics.sim import choices, class_choices
from sftactics.sim.morale import DEFAULT_MORALE, Morale, shaken
from sftactics.sim.perception import able_enemies, allies, targets_for
from sftactics.sim.policy_common import (
    Square,
    _attack_weapons,
    _burst,
    _can,
    _end_turn,
    _grenades,
    _loaded,
    _my_turn,
    _reach_map,
    _resolve_start,
    retreat,
)
from sftactics.sim.search import Seeker


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
