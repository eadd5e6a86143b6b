"""Who sees whom in the compiled kernel: lines of sight and effect on maps with walls, light and darkness.

The engine keeps an awareness state for every ordered pair of opponents (``encounter.perception``): after each
command it recomputes the pairs from the observer's senses, the light on the target and the lines of sight and
effect, and an observer out of the fight (unconscious, dying, stable, dead) keeps what it had. The kernel plays
the maps where no Perception check is ever needed:

* walls (wall squares, walls and windows on edges) and no square that blocks sight alone (an obscuring square
  would let a creature be heard but not seen: aware of presence, Searches, total concealment);
* every combatant has vision; a sense through (SEN-13) reaches no further than the engine lets it, which is
  never past a wall (:func:`sees_plainly`);
* light: dim squares conceal a target from an attacker without low-light vision or darkvision (a 20% miss
  chance, :func:`dim_concealment`, rolled by the kernel as the engine rolls it); in dark squares a combatant
  sees only as far as its darkvision reaches, and where it cannot see a foe it hears it (option
  ``noisy_combat_locates``: aware of its location, which it keeps capped there while the foe is down or it is
  deafened), so it attacks with total concealment (50%) and the foe is flat-footed against it
  (:func:`dark_senses`; blindsight and blindsenses by sound are left to the engine);
* nobody hidden or invisible (refused elsewhere; a combatant unaware at the start only loses the surprise round).

Then an observer in the fight *observes* a foe it has a line of sight to (and, in the dark, darkvision
reaching), knows the location of one it hears or reaches with a blindsense, and is *unaware* of one without a
line of effect (``senses.observe``: vision needs a line of sight; hearing, smell and touch a line of effect).
The kernel stores the same state per pair (``st.aw``) and refreshes it after each command, as the engine does.
Lines of sight and effect are the grid package's own answers (``grid.lines``), kept in the map's cover cache
(:func:`sftactics.sim.kernel.geo.cover_cache`) under keys of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.encounter.state import Combatant
from sftactics.grid.geometry import Footprint, footprint_distance_ft
from sftactics.grid.lines import has_line_of_effect, has_line_of_sight
from sftactics.grid.map import Feature, GridMap, Light
from sftactics.sf1e import senses
from sftactics.sim.kernel.coverkind import _objmode
from sftactics.sim.kernel.geo import _MAPS, COVER_CACHE_LIMIT, PAIR_LOE, PAIR_LOS, _jit, pair_get, pair_put

__all__ = [
    "CONCEALMENT_MISS",
    "LOCATED",
    "LOE_SLOT",
    "LOS_SLOT",
    "OBSERVING",
    "SEES_IN_DIM",
    "TOTAL_MISS",
    "UNAWARE",
    "dark_senses",
    "dim_concealment",
    "has_darkness",
    "has_walls",
    "light_changes_nothing",
    "line_between",
    "line_of_effect",
    "line_of_sight",
    "lines_from_grid",
    "miss_kinds",
    "sees_plainly",
    "sight_refusals",
]

#: Awareness states as the kernel stores them (``sf1e.senses.Awareness`` values).
UNAWARE = int(senses.Awareness.UNAWARE)
LOCATED = int(senses.Awareness.AWARE_OF_LOCATION)
OBSERVING = int(senses.Awareness.OBSERVING)
#: The third slot of a cover-cache key (0 and 1 are melee and ranged cover) that marks a line-of-sight entry.
LOS_SLOT = 7
#: The same for a line-of-effect entry.
LOE_SLOT = 8


# ---------------------------------------------------------------- what the kernel plays
def has_walls(grid: GridMap) -> bool:
    """Walls inside the map: a wall square off the map's border, or a wall or window on an edge."""
    interior = bool((grid.array[1:-1, 1:-1] & int(Feature.SOLID)).any())
    return interior or bool(grid.blocking_edges)


def sees_plainly(c: Combatant) -> bool:
    """No sense of the combatant is a sense through (SEN-13). The engine's perception gives ``senses.observe`` no
    barriers (the map says nothing of what its walls are made of), so a sense through never reaches past a wall
    there: the kernel plays such a creature as any other (what its stat block's senses give besides, such as the
    darkvision of a sense through (vision), is in its parsed senses). Blindsense and blindsight need a line of
    effect, and where a wall leaves one it leaves a line of sight too, so on the maps the kernel plays vision
    already observes whatever they would reach."""
    return not senses.parse_senses(c.creature.stat).sense_through


def _map_reach_ft(grid: GridMap) -> int:
    return footprint_distance_ft(Footprint(0, 0), Footprint(grid.width - 1, grid.height - 1))


def _darkvision_reaches(c: Combatant, reach_ft: int) -> bool:
    keys = c.creature.stat.senses
    return "darkvision" in keys and senses.parse_senses(c.creature.stat).darkvision_reaches(reach_ft)


def has_darkness(grid: GridMap) -> bool:
    return grid.light is not None and bool((grid.light_array == int(Light.DARK)).any())


def light_changes_nothing(grid: GridMap, combatants: Iterable[Combatant], noisy: bool = True) -> str:
    """Why the map's darkness asks for perception the kernel does not play ("" when it does not): where a
    combatant's vision fails in the dark it hears its foes (option ``noisy_combat_locates``: aware of their
    location, total concealment), which the kernel plays; without that option hearing needs a Perception check,
    and blindsight or a blindsense that works by sound would decide differently (the engine's). Dim light only
    conceals (VIS-03), which the kernel plays (:func:`dim_concealment`)."""
    if not has_darkness(grid):
        return ""
    cs = list(combatants)
    reach = _map_reach_ft(grid)
    if not noisy and any(not _darkvision_reaches(c, reach) for c in cs):
        return "darkness without the option noisy_combat_locates (hearing needs a check: the engine's)"
    ids = [c.id for c in cs if _special_in_dark(c)]
    if ids:
        return f"darkness and blindsight or a blindsense by sound ({', '.join(ids)})"
    return ""


def _special_in_dark(c: Combatant) -> bool:
    s = senses.parse_senses(c.creature.stat)
    return bool(s.blindsight) or any(b.mechanism is senses.Mechanism.SOUND for b in s.blindsense)


def dark_senses(grid: GridMap, combatants: Iterable[Combatant]) -> dict[str, Any]:
    """The model's darkness fields: ``dark`` [S] dark squares; per combatant ``dv_ft`` (how far its darkvision
    sees, VIS-05), ``dark_miss`` (its attacks face total concealment against a target in the dark: no
    darkvision on its stat block, ``encounter.space.concealment_between``) and ``bsense_ft`` (its blindsense's
    reach, -1 without: it locates what it reaches, SEN-11)."""
    cs = list(combatants)
    dark = (grid.light_array.reshape(-1) == int(Light.DARK)).copy()
    dv = np.zeros(len(cs), dtype=np.int32)
    miss = np.zeros(len(cs), dtype=np.bool_)
    bsense = np.full(len(cs), -1, dtype=np.int32)
    for i, c in enumerate(cs):
        s = senses.parse_senses(c.creature.stat)
        dv[i] = 1_000_000 if s.see_in_darkness else s.darkvision_ft
        miss[i] = not ({"darkvision", "blindsight"} & set(c.creature.stat.senses))
        bsense[i] = max((b.range_ft for b in s.blindsense), default=-1)
    return {"dark": dark, "dv_ft": dv, "dark_miss": miss, "bsense_ft": bsense}


#: The stat-block senses that see through dim light (``encounter.space.concealment_between``; blindsight
#: ignores concealment altogether, MOD-06).
SEES_IN_DIM = frozenset({"low-light vision", "darkvision", "blindsight"})
#: The miss chance of concealment, in percent (MOD-04).
CONCEALMENT_MISS = 20
#: The miss chance of total concealment, in percent (MOD-05, SEN-06).
TOTAL_MISS = 50


def miss_kinds(grid: GridMap, combatants: Iterable[Combatant]) -> list[int]:
    """The miss chances the light can give an attack on this map with these combatants: 0 always, then 20
    (dim light, some attacker concealed from) and 50 (darkness, some attacker without darkvision), in that
    order: the last axis of the tactical policy's damage tables."""
    cs = list(combatants)
    out = [0]
    dim, by = dim_concealment(grid, cs)
    if dim.any() and by.any():
        out.append(CONCEALMENT_MISS)
    fields = dark_senses(grid, cs)
    if fields["dark"].any() and fields["dark_miss"].any():
        out.append(TOTAL_MISS)
    return out


def dim_concealment(grid: GridMap, combatants: Iterable[Combatant]) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """``(dim [S], concealed_from [N])``: the dim squares, and the combatants (in order) whose attacks face
    concealment against a target standing on one (VIS-03: a 20% miss chance, MOD-04)."""
    dim = (grid.light_array.reshape(-1) == int(Light.DIM)).copy()
    by = np.array([not (SEES_IN_DIM & set(c.creature.stat.senses)) for c in combatants], dtype=np.bool_)
    return dim, by


def sight_refusals(grid: GridMap, combatants: Iterable[Combatant], noisy: bool = True) -> list[str]:
    """What about sight the kernel leaves to the engine on ``grid`` with these combatants (each reason ends with
    the combatants concerned in brackets, where it names some)."""
    out: list[str] = []
    cs = list(combatants)
    if (grid.array & int(Feature.OBSCURE)).any():
        out.append("obscuring squares (heard but not seen: the engine's perception)")
    if (grid.array & int(Feature.CONCEAL)).any():
        out.append("concealing squares (miss chances: the engine's)")
    light = light_changes_nothing(grid, cs, noisy)
    if light:
        out.append(light)
    blind = [c.id for c in cs if not senses.parse_senses(c.creature.stat).vision]
    if blind:
        out.append(f"combatants without vision, heard but not seen ({', '.join(blind)})")
    return out


# ---------------------------------------------------------------- lines of sight
def lines_from_grid(map_id: int, a: int, sa: int, b: int, sb: int, sight: int) -> int:
    """Object mode: ``has_line_of_sight`` (``sight``) or ``has_line_of_effect`` from the space of side ``sa``
    anchored at square ``a`` to that of side ``sb`` at ``b``, on a registered map."""
    from sftactics.sim.kernel.trace import line_answer, space_line_answer  # (compiled lines: the same answers)

    if sa == 1 and sb == 1:
        fast = line_answer(map_id, a, b, bool(sight))
    else:
        fast = space_line_answer(map_id, a, sa, b, sb, bool(sight))
    if fast >= 0:
        return fast
    grid, options = _MAPS[int(map_id)]
    w = grid.width
    fa = Footprint(int(a) % w, int(a) // w, int(sa))
    fb = Footprint(int(b) % w, int(b) // w, int(sb))
    line = has_line_of_sight if sight else has_line_of_effect
    return int(line(grid, fa, fb, options=options))


@_jit
def line_between(cache: Any, pair: NDArray[np.int8], map_id: int, a: int, sa: int, b: int, sb: int, sight: int) -> bool:
    """Whether there is a line of sight (``sight``; EFF-37) or of effect (EFF-35) from the space of side ``sa``
    anchored at square ``a`` to that of side ``sb`` at ``b``: the map's pair table, then its cover cache (keys of
    their own: a one-square space is its square, a bigger one ``-(anchor * 8 + side) - 2`` as the footprint cover
    keys), then the grid package from object mode."""
    slot = PAIR_LOS if sight else PAIR_LOE
    known = pair_get(pair, slot, a, sa, b, sb)
    if known >= 0:
        return known != 0
    n = np.int64(-1)
    tag = np.int64(LOS_SLOT if sight else LOE_SLOT)
    if sa == 1 and sb == 1:
        key = (np.int64(a), np.int64(b), tag, n, n, n, n, n, n, n, n)
    else:
        key = (np.int64(-(a * 8 + sa) - 2), np.int64(-(b * 8 + sb) - 2), tag, n, n, n, n, n, n, n, n)
    if key in cache:
        v: int = cache[key]
    else:
        with _objmode(v="int64"):
            v = lines_from_grid(map_id, a, sa, b, sb, sight)
        if len(cache) >= COVER_CACHE_LIMIT:
            cache.clear()
        cache[key] = v
    pair_put(pair, slot, a, sa, b, sb, v)
    return v != 0


@_jit
def line_of_effect(cache: Any, pair: NDArray[np.int8], map_id: int, a: int, b: int) -> bool:
    """Whether there is a line of effect between the creatures in squares ``a`` and ``b`` (EFF-35)."""
    return line_between(cache, pair, map_id, a, 1, b, 1, 0)


@_jit
def line_of_sight(cache: Any, pair: NDArray[np.int8], map_id: int, a: int, b: int) -> bool:
    """Whether the creature in square ``a`` has a line of sight to the one in square ``b`` (EFF-37)."""
    return line_between(cache, pair, map_id, a, 1, b, 1, 1)
