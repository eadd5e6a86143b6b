"""Which of a big creature's equally cheap end states the engine's path search takes (MOV-19, issue 22).

The grid's search (``grid.movement._search``, as ``find_path`` runs it) stops as soon as it settles a state of
the goal's full space where the mover may stop, and walks back from the first one it settles. A space may be
reached in several states of equal key (the cost, then the steps out of threatened spaces): with either parity of
the diagonals counted, by a step (unshifted) or by growing back out of a squeezed space in place (shifted), and a
flier with any heading. The kernel searches the whole map once (``footprints.big_search``,
``bigmodes.big_fly_search``) and picks the state afterwards, so it has to tell which of them the engine settles
first: the heap pops ``(key, state)`` in order, and the kernel numbers states in the engine's order (anchor,
squeezed, parity, shifted, heading). Every state of a key reached by a step (5 ft or more) is in the heap before
the first state of that key is popped, so the unshifted states of the goal go in their order; a shifted one enters
the heap only when its parent (an unshifted squeezed space, numbered after every state of the goal's full space)
is popped, and is popped right after it: among the shifted ones, the one whose parent comes first. Found on maps
with walls, where a big walker squeezes through a doorway and two end states tie (``tests/sim/
test_kernel_bigtactics_walls.py``).
"""

from __future__ import annotations

from typing import Any

from sftactics.sim.kernel.geo import PROV_BITS, _jit

__all__ = ["best_full", "first_settled", "settled_at", "store_best", "store_states"]

_INF = 1 << 62
_MASK = (1 << PROV_BITS) - 1


@_jit
def first_settled(dist: Any, parent: Any, first: int, heads: int) -> int:
    """The state of the full space whose states start at ``first`` (``4 * heads`` of them: parity, shifted,
    heading) that the engine's search settles first: the lowest key, then an unshifted state before a shifted
    one, the lowest unshifted state, or the shifted state with the lowest parent; -1 if none was reached."""
    best = -1
    bk = _INF
    bsh = 0
    bord = 0
    for par in range(2):
        for sh in range(2):
            for h in range(heads):
                s = first + (par * 2 + sh) * heads + h
                k = dist[s]
                if k >= _INF:
                    continue
                order = parent[s] if sh else s
                if best < 0 or k < bk or (k == bk and (sh < bsh or (sh == bsh and order < bord))):
                    best, bk, bsh, bord = s, k, sh, order
    return best


@_jit
def settled_at(dist: Any, parent: Any, stop: Any, q: int, heads: int) -> int:
    """:func:`first_settled` for the full space anchored at ``q`` (its ``4 * heads`` states start at ``q * 8 *
    heads``: anchor, squeezed, parity, shifted, heading), or -1 where the mover may not stop (``stop[0, q]``)."""
    return first_settled(dist, parent, q * 8 * heads, heads) if stop[0, q] else -1


@_jit
def best_full(dist: Any, stop: Any, q: int, heads: int) -> int:
    """The state ``grid.movement.reachable`` keeps for the full space anchored at ``q`` (a search that marks
    nothing: the lowest total, then the lowest state), or -1 where the mover may not stop (``stop[0, q]``) or the
    search did not reach it; ``heads``: headings a state keeps (1 for a walker)."""
    if not stop[0, q]:
        return -1
    per = 4 * heads  # (parity, shifted, heading) of the full space
    first = q * 2 * per
    best, bt = -1, _INF
    for s in range(first, first + per):
        d = dist[s]
        if d < _INF and (d & _MASK) < bt:
            bt, best = d & _MASK, s
    return best


@_jit
def _put(dist: Any, cost: Any, prov: Any, state: Any, q: int, best: int) -> None:
    """Anchor ``q``'s cost, provocations and state from ``best`` (-1: none) of the search in ``dist``."""
    if best < 0:
        cost[q] = -1
        prov[q] = -1
        state[q] = -1
    else:
        bk = dist[best]
        cost[q] = bk >> PROV_BITS
        prov[q] = bk & _MASK
        state[q] = best


@_jit
def store_states(m: Any, st: Any, states: Any) -> None:
    """:func:`store_best` from the states already picked per anchor (``flymemo.anchor_states``; -1: none)."""
    dist = m.bw_dist
    cost, prov, state = st.best_cost, st.best_prov, st.best_state
    for q in range(states.shape[0]):
        _put(dist, cost, prov, state, q, states[q])


@_jit
def store_best(m: Any, st: Any, heads: int) -> None:
    """After a big mover's whole-map search (``m.bw_dist``, ``m.bw_parent``): per anchor of its full space,
    ``st.best_cost``, ``st.best_prov`` and ``st.best_state`` of the state :func:`settled_at` picks (-1 elsewhere),
    as the one-square search leaves them; ``heads``: headings a state keeps (1 for a walker)."""
    # (the fields read once: a field read in the loop costs a reference count taken and given back)
    dist, parent, stop = m.bw_dist, m.bw_parent, m.bw_stop
    cost, prov, state = st.best_cost, st.best_prov, st.best_state
    for q in range(m.width * m.height):
        _put(dist, cost, prov, state, q, settled_at(dist, parent, stop, q, heads))
