"""The model's fields for creatures of two squares or more (Large to Colossal), and what the kernel leaves to the
engine when such a creature fights (:mod:`sftactics.sim.kernel.footprints` has the geometry).

* :func:`big_fields`: per combatant its footprint side (``fside``); per footprint side present the movement tables
  of the full and the squeezed space (``footprints.big_tables``); per (side, reach) the squares a creature of that
  side threatens from each anchor (``footprints.fp_threat_table``, the engine's ``threat.weapon_zone``), which the
  big creatures' ``zone`` and ``w_zone`` index; and the work arrays of the big movers' search.
* :func:`big_refusals` (in ``model.unsupported``): the parts a big creature brings that the kernel does not play
  yet, each with why. Both policies and every morale play with big creatures (``kernel.bigtactics`` is the
  tactical policy's geometry between spaces; what the runner still leaves to the engine with the tactical policy:
  ``kernel.bigrefusals``). A big creature may start squeezed (``grid.squeezing.squeezed_at``, tabled by
  ``bigsqueeze.squeeze_table``): it has squeezing's penalties where it stands, as the engine gives them at
  ``begin``, and may not charge there.
* ``fp_lit``: the light on the best-lit square of a space of each side at each anchor (``bigsight.light_table``);
  lines of sight and effect between spaces are asked in the fight (:mod:`sftactics.sim.kernel.bigsight`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sftactics.encounter import space
from sftactics.encounter import threat as enc_threat
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid.map import GridMap
from sftactics.grid.movement import MoveMode
from sftactics.grid.options import GridOptions
from sftactics.grid.space import Size, footprint_side
from sftactics.sim.kernel import bigmodes, bigsight, bigsqueeze, flymemo, specials
from sftactics.sim.kernel import footprints as fp
from sftactics.sim.kernel.modes import HEADINGS

__all__ = ["SEEK_FIELDS", "big_fields", "big_refusals", "has_big"]

#: How many of the big movers' seek fields (``bigsight.seek_field``) the model keeps, one slot per (tables, start).
SEEK_FIELDS = 16


def _side(c: Combatant) -> int:
    return footprint_side(Size(c.creature.stat.size))


def has_big(combatants: Any) -> bool:
    """Whether a creature of two squares or more is among ``combatants``."""
    return any(_side(c) > 1 for c in combatants)


def big_refusals(enc: Encounter) -> list[str]:
    """What a fight with a creature of two squares or more has that the kernel leaves to the engine."""
    grid = enc.grid
    cs = list(enc.combatants.values())
    if grid is None or not has_big(cs):
        return []
    out: list[str] = []
    if grid.width * grid.height > bigmodes.BIG_FLY_MAX_SQUARES and any(
        _side(c) > 1 and bigmodes.table_key(c)[1] is MoveMode.FLY for c in cs
    ):
        out.append(f"a flier bigger than a square on a map of more than {bigmodes.BIG_FLY_MAX_SQUARES:,} squares "
                   "(its search keeps headings for every space)")  # fmt: skip
    for c in cs:
        if _side(c) > 1 and any(specials.used(ab) for ab in c.creature.stat.specials):
            out.append(f"{c.id}: special abilities or spells of a creature bigger than a square (cones, lines and "
                       "touches from a space: the engine's)")  # fmt: skip
    return out


def big_fields(
    cs: list[Combatant], grid: GridMap, options: GridOptions, zone: Any, w_zone: Any, wmax: int
) -> dict[str, Any]:
    """The model's fields for big creatures (``Model._replace``); ``zone`` and ``w_zone`` come back with the big
    creatures' entries pointing into ``bz`` (one-square creatures keep theirs). Empty without big creatures."""
    if not has_big(cs):
        return {}
    n = len(cs)
    nsq = grid.width * grid.height
    fside = np.array([_side(c) for c in cs], dtype=np.int32)
    kinds = sorted({bigmodes.table_key(c) for c in cs if _side(c) > 1}, key=lambda k: (footprint_side(k[0]), k[1:]))
    tables = [bigmodes.big_mode_tables(grid, k, options) for k in kinds]
    kmax = max(t.shift_to.shape[2] for t in tables)
    bg_step_to = np.stack([t.step_to for t in tables])
    bg_step_k = np.stack([t.step_k for t in tables])
    bg_shift = np.full((len(tables), 2, nsq, kmax), -1, dtype=np.int32)
    for g, t in enumerate(tables):
        bg_shift[g, :, :, : t.shift_to.shape[2]] = t.shift_to
    bg_stop = np.stack([t.squeeze_stop for t in tables])
    bg_small = np.array([t.small for t in tables], dtype=np.int32)
    bg = np.array([kinds.index(bigmodes.table_key(c)) if _side(c) > 1 else -1 for c in cs], dtype=np.int32)
    # a flier's search keeps nine headings per state (``bigmodes.big_fly_search``)
    fly = any(_side(c) > 1 and bigmodes.table_key(c)[1] is MoveMode.FLY for c in cs)
    hs = HEADINGS if fly else 1
    heap = bigmodes.fly_heap_size(nsq, kmax) if fly else 72 * nsq + 1
    # the zones of the big creatures: one table per (size, reach), laid out in one box
    zone = zone.copy()
    w_zone = w_zone.copy()
    keys: dict[tuple[Size, int], int] = {}
    for i, c in enumerate(cs):
        if fside[i] == 1:
            continue
        size = Size(c.creature.stat.size)
        melee = [w for w in c.creature.stat.weapons if w.is_melee and not w.is_grenade]
        for k, w in enumerate(c.creature.stat.weapons):
            if w in melee:
                w_zone[i, k] = keys.setdefault((size, space.weapon_reach(c, w)), len(keys))
        reaches = enc_threat.reaches(c)
        zone[i] = keys.setdefault((size, reaches[-1]), len(keys)) if reaches else -1
    made = {key: fp.fp_threat_table(grid, key[0], key[1], options=options) for key in keys}
    radius = max([t.radius for t in made.values()] + [2])
    box = 2 * radius + int(fside.max())
    bz = np.zeros((max(1, len(keys)), nsq, box * box), dtype=np.bool_)
    for key, z in keys.items():
        zt = made[key]
        shift = radius - zt.radius
        for dy in range(zt.box):
            for dx in range(zt.box):
                bz[z, :, (dy + shift) * box + dx + shift] = zt.table[:, dy * zt.box + dx]
    dist = np.empty(8 * hs * nsq, dtype=np.int64)
    parent = np.empty(8 * hs * nsq, dtype=np.int32)
    return {
        "fside": fside,
        "big": True,
        "bg": bg,
        "bg_small": bg_small,
        "bg_step_to": bg_step_to,
        "bg_step_k": bg_step_k,
        "bg_shift": bg_shift,
        "bg_stop": bg_stop,
        "bg_sqd": tables[0].sqd,
        "bz": bz,
        "bz_radius": radius,
        "bz_box": box,
        "zone": zone,
        "w_zone": w_zone,
        "bw_dist": dist,
        "bw_parent": parent,
        "bw_dist0": dist,  # (the same buffers: ``flymemo.scratch``)
        "bw_parent0": parent,
        "bw_heap": np.empty(heap, dtype=np.int64),
        "bw_dist1": np.empty(8 * hs * nsq, dtype=np.int64),
        "bw_parent1": np.empty(8 * hs * nsq, dtype=np.int32),
        "bw_dist2": np.empty(8 * hs * nsq, dtype=np.int64),
        "bw_parent2": np.empty(8 * hs * nsq, dtype=np.int32),
        "bw_kept": np.full(3, -1, dtype=np.int64),
        **(flymemo.memo_fields(nsq, 8 * hs * nsq) if fly else {}),
        "bs_key": np.full(SEEK_FIELDS, -1, dtype=np.int64),
        "bs_budget": np.zeros(SEEK_FIELDS, dtype=np.int64),
        "bs_out": np.zeros((SEEK_FIELDS, nsq), dtype=np.int32),
        "bw_pass": np.ones((2, nsq), dtype=np.bool_),
        "bw_stop": np.ones((2, nsq), dtype=np.bool_),
        "bw_k": np.zeros((2, nsq), dtype=np.int8),
        "bw_prov": np.zeros((2, nsq), dtype=np.bool_),
        "bw_crowd_side": np.ones(n, dtype=np.int32),
        "fp_lit": bigsight.light_table(grid),
        "fp_sqz": bigsqueeze.squeeze_table(grid, {int(s) for s in fside}),
    }
