"""Looking for foes in the compiled kernel: :class:`sftactics.sim.search.Seeker` in numba.

When nobody on a side has located an able foe (a wall between the sides), the policies go looking, one move
action at a time: toward where the side last saw a foe, else where the other side started, else along a search
pattern (waypoints every ``LATTICE`` squares over every square the actor can reach), the goal reached soonest
first (``Seeker.goal``), to the square of one move closest to it by path (``encounter.seek.step_toward``). Each
side remembers, as the Python policy does, where it last saw each foe (``st.sk_seen``) and the goals it has
visited (``st.sk_visited``); row 2 of both is a scratch memory for the tactical policy's fall-back to a fresh
simple policy (``st.sk_mode``). The path costs are the kernel's own search (:func:`~sftactics.sim.kernel.geo.search`),
the same as ``grid.movement.reachable``'s.

A combatant aware of a foe's presence but not of its square (a hidden start, or a pair the scenario sets there)
makes the Search of ``Seeker.search_check`` first, when its senses could pinpoint the foe
(:mod:`~sftactics.sim.kernel.searches`).
"""

from __future__ import annotations

from typing import Any

from sftactics.encounter.seek import NEAR_FT
from sftactics.sim.kernel import searches as _searches
from sftactics.sim.kernel.bigsight import seek_field
from sftactics.sim.kernel.books import FRESH, _out, _side_knows
from sftactics.sim.kernel.flow import _check_end
from sftactics.sim.kernel.footprints import fp_distance_ft
from sftactics.sim.kernel.geo import _jit
from sftactics.sim.kernel.modes import search_for
from sftactics.sim.kernel.movement import _move, _prepare_move, _unmark
from sftactics.sim.search import LATTICE

#: The budget of a search that reaches every square of the map (``encounter.seek._FAR``).
FAR_FT = 500_000
#: A goal no path reaches (``encounter.seek._NONE``).
NONE = 1 << 60
#: The memory row of the scratch seeker (a fresh ``SimplePolicy`` made by the tactical policy's fall-back).
SCRATCH = 2


@_jit
def seek_reset(m: Any, st: Any) -> None:
    """A fresh memory for every side at the start of a fight."""
    st.sk_mode[0] = -1
    for r in range(st.sk_seen.shape[0]):
        for f in range(st.sk_seen.shape[1]):
            st.sk_seen[r, f] = -1
        for q in range(st.sk_visited.shape[1]):
            st.sk_visited[r, q] = False


@_jit
def scratch(m: Any, st: Any) -> None:
    """Use an empty memory (row :data:`SCRATCH`) until :func:`own_memory`."""
    st.sk_mode[0] = SCRATCH
    for f in range(st.sk_seen.shape[1]):
        st.sk_seen[SCRATCH, f] = -1
    for q in range(st.sk_visited.shape[1]):
        st.sk_visited[SCRATCH, q] = False


@_jit
def own_memory(st: Any) -> None:
    st.sk_mode[0] = -1


@_jit
def _row(m: Any, st: Any, side: int) -> int:
    return st.sk_mode[0] if st.sk_mode[0] >= 0 else side


@_jit
def _near(m: Any, st: Any, side: int, sq: int) -> bool:
    """An able member of ``side`` stands within ``NEAR_FT`` of square ``sq``."""
    for a in range(m.n):
        if m.side[a] == side and not _out(st, a) and fp_distance_ft(st.pos[a], m.fside[a], sq, 1, m.width) <= NEAR_FT:
            return True
    return False


@_jit
def note(m: Any, st: Any, side: int) -> int:
    """``Seeker.note``: remember where ``side`` sees its able foes now (their count); with none in sight, the
    last-seen squares its members stand near are dropped and marked visited. Nothing on maps without walls
    or darkness (nobody ever goes looking there, and the memory has no room for the map's squares)."""
    if not m.sight:
        return 0
    row = _row(m, st, side)
    found = 0
    for f in range(m.n):
        if m.side[f] == side or _out(st, f) or not _side_knows(m, st, side, f):
            continue
        st.sk_seen[row, f] = st.pos[f]
        st.sk_visited[row, st.pos[f]] = False
        found += 1
    if found == 0:
        for f in range(m.n):
            q = st.sk_seen[row, f]
            if q >= 0 and _near(m, st, side, q):
                st.sk_seen[row, f] = -1
                st.sk_visited[row, q] = True
    return found


@_jit
def _field(m: Any, st: Any, start: int, out: Any, me: int) -> None:
    """``encounter.seek.distance_field``: the cheapest path's cost for ``me``'s mover from ``start`` to every
    square (creatures ignored) into ``out`` (-1 where none); a big mover's, every anchor of its space."""
    if m.fside[me] > 1:
        seek_field(m, start, FAR_FT, out, me)
        return
    search_for(m, me, start, 0, FAR_FT, st.passable, st.stoppable, st.extra_k, st.noprov, -1, st.sk_dist,
               st.sk_parent, st.sk_heap, out, st.sk_prov, st.sk_state)  # fmt: skip


@_jit
def _fresh(m: Any, st: Any, row: int, side: int, q: int) -> bool:
    if st.sk_visited[row, q]:
        return False
    if _near(m, st, side, q):
        st.sk_visited[row, q] = True
        return False
    return True


@_jit
def _better(cost: int, q: int, w: int, best: int, bc: int) -> bool:
    return best < 0 or (cost, q % w, q // w) < (bc, best % w, best // w)


@_jit
def goal(m: Any, st: Any, me: int) -> int:
    """``Seeker.goal``: where ``me`` goes looking (a square), or -1."""
    w = m.width
    side = m.side[me]
    row = _row(m, st, side)
    _field(m, st, st.pos[me], st.sk_a, me)
    reach = st.sk_a
    best, bc = -1, 0
    for f in range(m.n):  # 1. where the side last saw a foe
        q = st.sk_seen[row, f]
        if q >= 0 and reach[q] >= 0 and _fresh(m, st, row, side, q) and _better(reach[q], q, w, best, bc):
            best, bc = q, reach[q]
    if best >= 0:
        return best
    for f in range(m.n):  # 2. where the other side started
        if m.side[f] == side:
            continue
        q = m.pos0[f]
        if reach[q] >= 0 and _fresh(m, st, row, side, q) and _better(reach[q], q, w, best, bc):
            best, bc = q, reach[q]
    if best >= 0:
        return best
    half = LATTICE // 2
    for _attempt in range(2):  # 3. the search pattern, started again once every waypoint has been visited
        for q in range(reach.shape[0]):
            if reach[q] < 0 or q % w % LATTICE != half or q // w % LATTICE != half:
                continue
            if _fresh(m, st, row, side, q) and _better(reach[q], q, w, best, bc):
                best, bc = q, reach[q]
        if best >= 0:
            return best
        for q in range(reach.shape[0]):
            if reach[q] >= 0 and q % w % LATTICE == half and q // w % LATTICE == half:
                st.sk_visited[row, q] = False
    return -1


@_jit
def seek_step(m: Any, st: Any, me: int) -> bool:
    """``Seeker.step``: one move action toward the side's foes; False if there was nowhere closer to go (or the
    side sees a foe after all)."""
    if not m.sight:
        return False
    side = m.side[me]
    if note(m, st, side) > 0:
        return False
    if _searches.search_step(m, st, me):  # aware of a foe's presence only: a Search first (``kernel.searches``)
        return True
    target = goal(m, st, me)
    if target < 0:
        return False
    # encounter.seek.step_toward: the square of one move closest to the goal by path, then the cheapest, then
    # the lowest x and y; none if nothing is closer than where it stands
    _field(m, st, target, st.sk_b, me)
    to_goal = st.sk_b
    w = m.width
    nthreat = _prepare_move(m, st, me)
    here = st.pos[me]
    r = m.speed[me] // 5 if m.fside[me] == 1 else w + m.height  # (a big mover's squeeze shifts: every anchor)
    cx, cy = here % w, here // w
    best, bg, bc = -1, 0, 0
    for qx in range(max(0, cx - r), min(w, cx + r + 1)):
        for qy in range(max(0, cy - r), min(m.height, cy + r + 1)):
            q = qy * w + qx
            cost = st.best_cost[q]
            if cost <= 0:
                continue
            g = to_goal[q] if to_goal[q] >= 0 else NONE
            if best < 0 or (g, cost, qx, qy) < (bg, bc, best % w, best // w):
                best, bg, bc = q, g, cost
    now = to_goal[here] if to_goal[here] >= 0 else NONE
    if best < 0 or bg >= now:
        _unmark(m, st, nthreat)
        st.sk_visited[_row(m, st, side), target] = True  # no closer this turn: another goal next time
        return False
    _move(m, st, me, best, nthreat)
    st.sc[FRESH] = 0
    _check_end(m, st)
    return True


__all__ = ["goal", "note", "own_memory", "scratch", "seek_reset", "seek_step"]
