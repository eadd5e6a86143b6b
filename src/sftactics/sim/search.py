"""Looking for foes: what a side does when none of its members has located an able foe.

A wall between the sides, darkness or a foe that slipped out of sight leaves a side with nobody to attack while
the fight goes on. The policies then go looking, with the engine's own movement (``grid.movement``: the same
costs, walls and squeezes as a ``move`` command) and perception (what the side knows comes from
``sim.perception``; a foe is found when the engine's awareness says a member knows where it is). The goals, in
order:

1. **where a foe was last located**: each policy remembers, for its side, the square where it last saw each foe
   (the foe may have moved since; once a member has been there, the memory is dropped);
2. **where the other side started** (the GM's placement: the side knows where the enemy came from);
3. **a search pattern**: waypoints every ``LATTICE`` squares over every square the actor can reach (around walls,
   through corridors), nearest first; when all have been visited the pattern starts again.

A goal counts as visited once a member of the side stands within ``NEAR_FT`` of it. Among the goals of the first
kind that has any, the actor takes the one its path reaches soonest, and moves (one move action at a time) to
the reachable square closest to it by path (``encounter.seek``, which the built-in policy uses too). Before
moving, a combatant that is aware of a foe's presence but not of its square makes a Search (an active Perception
check, a move action) when its senses could pinpoint it.

The map has no doors (``docs/maps.md``); openings in walls are found by the path search itself. Nothing here
rolls dice, and the memory lives in the policy, which is fresh for every fight.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sftactics.core.errors import RuleViolation
from sftactics.encounter import space
from sftactics.encounter.commands import Move, Search
from sftactics.encounter.engine import Fight
from sftactics.encounter.movement import mover_for
from sftactics.encounter.seek import NEAR_FT, distance_field, search_could_locate, step_toward
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid.geometry import Footprint, footprint_distance_ft
from sftactics.sim.perception import able_enemies, allies

Square = tuple[int, int]

LATTICE = 4  # the search pattern's waypoints: every 4th square in both directions (20 ft apart)


@dataclass
class SideSearch:
    """What one side remembers while it fights: where it last located each foe, and the goals it has visited."""

    last_seen: dict[str, Square] = field(default_factory=dict)
    visited: set[Square] = field(default_factory=set)


def _waypoints(state: Encounter, reach: dict[Square, int]) -> list[Square]:
    half = LATTICE // 2
    return [sq for sq in reach if sq[0] % LATTICE == half and sq[1] % LATTICE == half]


class Seeker:
    """The search memory of each side a policy plays, and the moves that follow from it."""

    def __init__(self) -> None:
        self.sides: dict[str, SideSearch] = {}

    def memory(self, side: str) -> SideSearch:
        return self.sides.setdefault(side, SideSearch())

    def note(self, state: Encounter, side: str) -> list[Combatant]:
        """Remember where the side sees its able foes now (returned); with none in sight, mark the goals its
        members stand near as visited."""
        mem = self.memory(side)
        foes = able_enemies(state, side)
        for f in foes:
            if f.position is not None:
                mem.last_seen[f.id] = f.position
                mem.visited.discard(f.position)
        if not foes:
            self._visit(state, side, mem)
        return foes

    def _visit(self, state: Encounter, side: str, mem: SideSearch) -> None:
        here = [fp for c in allies(state, side) for fp in [space.footprint(c)] if fp is not None]

        def near(sq: Square) -> bool:
            spot = Footprint(sq[0], sq[1], 1)
            return any(footprint_distance_ft(fp, spot) <= NEAR_FT for fp in here)

        for fid, sq in list(mem.last_seen.items()):
            if near(sq):
                del mem.last_seen[fid]
                mem.visited.add(sq)

    def goal(self, fight: Fight, me: Combatant) -> Square | None:
        """Where ``me`` goes looking (see the module docstring), or None if it can reach no goal."""
        state = fight.state
        if state.grid is None or me.position is None:
            return None
        mem = self.memory(me.side)
        reach = distance_field(state, mover_for(me), me.position)
        mates = [fp for c in allies(state, me.side) for fp in [space.footprint(c)] if fp is not None]

        def fresh(sq: Square) -> bool:
            if sq in mem.visited:
                return False
            spot = Footprint(sq[0], sq[1], 1)
            if any(footprint_distance_ft(fp, spot) <= NEAR_FT for fp in mates):
                mem.visited.add(sq)
                return False
            return True

        starts = [c.position for c in fight.start.combatants.values() if c.side != me.side and c.position]
        for kind in (list(mem.last_seen.values()), starts, None):
            for _ in range(2):
                squares = _waypoints(state, reach) if kind is None else kind
                options = sorted((reach[sq], sq) for sq in squares if sq in reach and fresh(sq))
                if options:
                    return options[0][1]
                if kind is not None:
                    break
                mem.visited -= set(squares)  # the whole pattern visited: search it again
        return None

    @staticmethod
    def search_check(fight: Fight, me: Combatant) -> bool:
        """Make a Search when ``me`` knows a foe is there but not where, and its senses could pinpoint it."""
        return search_could_locate(fight.state, me) and _try(fight, Search(actor=me.id))

    def step(self, fight: Fight, cid: str) -> bool:
        """One move action toward the side's foes: a Search if that could find one, else a move toward the goal.
        False if neither was possible (nowhere closer to go)."""
        state = fight.state
        me = state.get(cid)
        if self.note(state, me.side):
            return False
        if self.search_check(fight, me):
            return True
        target = self.goal(fight, me)
        if target is None:
            return False
        dest = step_toward(state, me, target)
        if dest is None:
            self.memory(me.side).visited.add(target)  # cannot get closer this turn: try another goal next time
            return False
        return _try(fight, Move(actor=cid, to=dest))


def _try(fight: Fight, cmd: Move | Search) -> bool:
    try:
        fight.do(cmd)
    except RuleViolation:
        return False
    return True
