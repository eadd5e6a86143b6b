"""Who sees whom in the compiled kernel: lines of sight on maps with walls, and what light leaves unchanged.

The engine keeps an awareness state for every ordered pair of opponents (``encounter.perception``): after each
command it recomputes the pairs from the observer's senses, the light on the target and the lines of sight and
effect, and an observer out of the fight (unconscious, dying, stable, dead) keeps what it had. The kernel plays
the maps where that state is a function of where the two stand:

* walls (wall squares, walls and windows on edges) and no square that blocks sight alone (an obscuring square
  would let a creature be heard but not seen: aware of presence, Searches, total concealment);
* every combatant has vision, and no sense that perceives through walls (:func:`sees_plainly`);
* light: dim squares conceal a target from an attacker without low-light vision or darkvision (a 20% miss
  chance, :func:`dim_concealment`, rolled by the kernel as the engine rolls it); dark squares only where every
  combatant's darkvision reaches across the whole map (:func:`light_changes_nothing`);
* nobody hidden, invisible or unaware at the start (refused elsewhere).

Then an observer in the fight *observes* a foe it has a line of sight to and is *unaware* of one it has not
(``senses.observe``: vision needs a line of sight; hearing, smell and touch need a line of effect, which a wall
that blocks sight also blocks). The kernel stores the same state per pair (``st.aw``) and refreshes it after each
command, as the engine does. Lines of sight are the grid package's own answer (``grid.lines.has_line_of_sight``),
kept in the map's cover cache (:func:`sftactics.sim.kernel.geo.cover_cache`) under keys of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.encounter.state import Combatant
from sftactics.grid.geometry import Footprint, footprint_distance_ft
from sftactics.grid.lines import has_line_of_sight
from sftactics.grid.map import Feature, GridMap, Light
from sftactics.sf1e import senses
from sftactics.sim.kernel.geo import _MAPS, COVER_CACHE_LIMIT, _jit, _objmode

__all__ = [
    "CONCEALMENT_MISS",
    "LOCATED",
    "LOS_SLOT",
    "OBSERVING",
    "SEES_IN_DIM",
    "UNAWARE",
    "dim_concealment",
    "has_walls",
    "light_changes_nothing",
    "line_of_sight",
    "los_from_grid",
    "sees_plainly",
    "sight_refusals",
]

#: Awareness states as the kernel stores them (``sf1e.senses.Awareness`` values).
UNAWARE = int(senses.Awareness.UNAWARE)
LOCATED = int(senses.Awareness.AWARE_OF_LOCATION)
OBSERVING = int(senses.Awareness.OBSERVING)
#: The third slot of a cover-cache key (0 and 1 are melee and ranged cover) that marks a line-of-sight entry.
LOS_SLOT = 7


# ---------------------------------------------------------------- what the kernel plays
def has_walls(grid: GridMap) -> bool:
    """Walls inside the map: a wall square off the map's border, or a wall or window on an edge."""
    interior = bool((grid.array[1:-1, 1:-1] & int(Feature.SOLID)).any())
    return interior or bool(grid.blocking_edges)


def sees_plainly(c: Combatant) -> bool:
    """No sense of the combatant perceives through walls (sense through, SEN-13). Blindsense and blindsight
    need a line of effect, and where a wall leaves one it leaves a line of sight too, so on the maps the kernel
    plays vision already observes whatever they would reach."""
    return not senses.parse_senses(c.creature.stat).sense_through


def _map_reach_ft(grid: GridMap) -> int:
    return footprint_distance_ft(Footprint(0, 0), Footprint(grid.width - 1, grid.height - 1))


def _darkvision_reaches(c: Combatant, reach_ft: int) -> bool:
    keys = c.creature.stat.senses
    return "darkvision" in keys and senses.parse_senses(c.creature.stat).darkvision_reaches(reach_ft)


def light_changes_nothing(grid: GridMap, combatants: Iterable[Combatant]) -> str:
    """Why the map's light changes what someone perceives ("" when it changes nothing the kernel does not play):
    dark squares and combatants whose darkvision does not reach across the map (VIS-04: they would hear, not
    see). Dim light only conceals (VIS-03), which the kernel plays (:func:`dim_concealment`). The senses are
    read as the engine reads them: the stat block's own keys for concealment
    (``encounter.space.concealment_between``), parsed for perception."""
    if grid.light is None:
        return ""
    levels = set(np.unique(grid.light_array).tolist())
    cs = list(combatants)
    if int(Light.DARK) in levels:
        reach = _map_reach_ft(grid)
        ids = [c.id for c in cs if not _darkvision_reaches(c, reach)]
        if ids:
            return f"darkness and combatants whose darkvision does not reach across the map ({', '.join(ids)})"
    return ""


#: The stat-block senses that see through dim light (``encounter.space.concealment_between``; blindsight
#: ignores concealment altogether, MOD-06).
SEES_IN_DIM = frozenset({"low-light vision", "darkvision", "blindsight"})
#: The miss chance of concealment, in percent (MOD-04).
CONCEALMENT_MISS = 20


def dim_concealment(grid: GridMap, combatants: Iterable[Combatant]) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """``(dim [S], concealed_from [N])``: the dim squares, and the combatants (in order) whose attacks face
    concealment against a target standing on one (VIS-03: a 20% miss chance, MOD-04)."""
    dim = (grid.light_array.reshape(-1) == int(Light.DIM)).copy()
    by = np.array([not (SEES_IN_DIM & set(c.creature.stat.senses)) for c in combatants], dtype=np.bool_)
    return dim, by


def sight_refusals(grid: GridMap, combatants: Iterable[Combatant]) -> list[str]:
    """What about sight the kernel leaves to the engine on ``grid`` with these combatants (each reason ends with
    the combatants concerned in brackets, where it names some)."""
    out: list[str] = []
    cs = list(combatants)
    if (grid.array & int(Feature.OBSCURE)).any():
        out.append("obscuring squares (heard but not seen: the engine's perception)")
    if (grid.array & int(Feature.CONCEAL)).any():
        out.append("concealing squares (miss chances: the engine's)")
    light = light_changes_nothing(grid, cs)
    if light:
        out.append(light)
    blind = [c.id for c in cs if not senses.parse_senses(c.creature.stat).vision]
    if blind:
        out.append(f"combatants without vision, heard but not seen ({', '.join(blind)})")
    if has_walls(grid):
        keen = [c.id for c in cs if not sees_plainly(c)]
        if keen:
            out.append(f"walls inside the map and senses that reach through them ({', '.join(keen)})")
    return out


# ---------------------------------------------------------------- lines of sight
def los_from_grid(map_id: int, a: int, b: int) -> int:
    """``has_line_of_sight`` between the one-square spaces in squares ``a`` and ``b`` of a registered map."""
    grid, options = _MAPS[int(map_id)]
    w = grid.width
    return int(has_line_of_sight(grid, Footprint(int(a) % w, int(a) // w), Footprint(int(b) % w, int(b) // w),
                                 options=options))  # fmt: skip


@_jit
def line_of_sight(cache: Any, map_id: int, a: int, b: int) -> bool:
    """Whether the creature in square ``a`` has a line of sight to the one in square ``b`` (EFF-37), through
    the map's cover cache; a miss asks the grid package from object mode."""
    n = np.int64(-1)
    key = (np.int64(a), np.int64(b), np.int64(LOS_SLOT), n, n, n, n, n, n, n, n)
    if key in cache:
        hit: int = cache[key]
        return hit != 0
    with _objmode(v="int64"):
        v = los_from_grid(map_id, a, b)
    if len(cache) >= COVER_CACHE_LIMIT:
        cache.clear()
    cache[key] = v
    return v != 0
