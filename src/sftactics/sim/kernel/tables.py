"""The tactical policy's numbers for the compiled kernel: exact damage distributions, computed once.

:class:`~sftactics.sim.policies.TacticalPolicy` values an attack by the exact damage distribution of
:func:`sftactics.sim.odds.damage_table` (the chance to drop the target, the damage that counts) and a grenade
by :func:`sftactics.sim.odds.flat_table`. A distribution of attacks depends on the attacker, the weapon, the
target and the d20 roll the attack needs (AC minus attack bonus, from 2: everything but a natural 1 hits, to
21: only a natural 20 hits and it cannot be a critical hit), so the kernel keeps one per combination, made by
``odds.damage_table`` itself (the same values, the same floating-point probabilities). A grenade's chance to
land and the target's chance to halve it change with the distance and the save, so for grenades the kernel keeps
the full and halved damage over one denominator and mixes them as ``flat_table`` does when it decides.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np

from sftactics.encounter.movement import CHARGE_BLOCKERS
from sftactics.encounter.state import Encounter
from sftactics.grid.map import Feature
from sftactics.sf1e.actions_rules import INTERSECTION_AC
from sftactics.sim import odds
from sftactics.sim.kernel import sight
from sftactics.sim.kernel.bigsqueeze import PENALTY as SQUEEZE_PENALTY

#: The d20 rolls an attack may need, from 2 (all but a natural 1 hit) to 21 (a natural 20 hits, no critical).
NEED_LO, NEED_HI = 2, 21
NEEDS = NEED_HI - NEED_LO + 1
#: TacticalWeights' fields in the order of ``Model.tw``.
TACTICAL_WEIGHTS = ("drop_bonus", "risk", "danger", "focus", "keep_move", "hopeless", "candidates", "exact_attacks",
                    "melee_focus")  # fmt: skip
NO_SKILL = -10_000


def _dirs() -> list[tuple[int, int]]:
    return [(sx, sy) for sx in (-1, 0, 1) for sy in (-1, 0, 1) if (sx, sy) != (0, 0)]


def cover_sides(grid: Any) -> np.ndarray:
    """Per square, the directions from which a foe would find a cover object or low obstacle between them (the
    tactical policy's cheap cover hint, ``policy_common._cover_sides``), as bits ``(sx + 1) * 3 + (sy + 1)``."""
    blocking = int(Feature.COVER | Feature.LOW)
    h, w = grid.height, grid.width
    blk = np.zeros((h + 2, w + 2), dtype=np.bool_)  # a frame of open squares around the map
    blk[1:-1, 1:-1] = (grid.array & blocking) != 0

    def at(dx: int, dy: int) -> np.ndarray:  # blk of square (x + dx, y + dy), for every square of the map
        return blk[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]

    out = np.zeros((h, w), dtype=np.int32)
    for sx, sy in _dirs():
        hit = at(sx, sy).copy()
        if sx:
            hit |= at(sx, 0)
        if sy:
            hit |= at(0, sy)
        out |= hit.astype(np.int32) << ((sx + 1) * 3 + sy + 1)
    return out.reshape(-1)


def tactical_fields(
    enc: Encounter,
    tactical: bool,
    g_atk: np.ndarray,
    w_range: np.ndarray,
    saves: np.ndarray,
    w_gdc: np.ndarray,
) -> tuple[Any, ...]:
    """The ``Model`` fields from ``tactical`` on, in order (placeholders when ``tactical`` is False). The
    grenade chances come from the model's own numbers (``g_atk``, ``w_range``, ``saves``, ``w_gdc``) through
    ``odds.chance``."""
    from sftactics.sf1e import stats
    from sftactics.sim.policies import TacticalWeights

    cs = list(enc.combatants.values())
    n = len(cs)
    wmax = max(1, max(len(c.creature.stat.weapons) for c in cs))
    weights = TacticalWeights()
    tw = np.array([float(getattr(weights, f)) for f in TACTICAL_WEIGHTS], dtype=np.float64)
    w_rank = np.zeros((n, wmax), dtype=np.int32)
    w_unwieldy = np.zeros((n, wmax), dtype=np.bool_)
    w_range_ft = np.zeros((n, wmax), dtype=np.int32)
    stat_pool = np.zeros(n, dtype=np.int32)
    medicine = np.full(n, NO_SKILL, dtype=np.int32)
    for i, c in enumerate(cs):
        st = c.creature.stat
        names = sorted(w.name for w in st.weapons)
        for k, w in enumerate(st.weapons):
            w_rank[i, k] = names.index(w.name)
            w_unwieldy[i, k] = w.unwieldy
            w_range_ft[i, k] = w.range_ft
        stat_pool[i] = st.hp + st.sp
        given = st.skills.get("medicine")
        if given is not None:
            medicine[i] = stats.skill_bonus(c.creature, "medicine", bonus=given).total
    # the last axis: no miss chance, and (on maps with dim light and an attacker it conceals from) concealment's
    grid = enc.grid
    misses = sight.miss_kinds(grid, cs) if grid is not None else [0]
    shape = (n, wmax, n, NEEDS, 2, len(misses)) if tactical else (1, 1, 1, 1, 1, 1)
    t_off = np.full(shape, -1, dtype=np.int64)
    t_len = np.zeros(shape, dtype=np.int32)
    t_mean = np.zeros(shape, dtype=np.float64)
    t_hit = np.zeros(shape, dtype=np.float64)
    gshape = (n, wmax, n) if tactical else (1, 1, 1)
    # the last axis: the thrower (g_land) or the target (g_half) squeezing or not (its -2 to attack rolls and
    # Reflex saves: ``bigsqueeze``)
    g_land = np.zeros((n, wmax, w_range.shape[2], 2) if tactical else (1, 1, 1, 2), dtype=np.float64)
    g_half = np.zeros((*gshape, 2), dtype=np.float64)
    g_off = np.full(gshape, -1, dtype=np.int64)
    g_len = np.zeros(gshape, dtype=np.int32)
    g_den = np.ones(gshape, dtype=np.int64)
    vals: list[int] = []
    probs: list[float] = []
    gv: list[int] = []
    gf: list[int] = []
    gh: list[int] = []
    sides = cover_sides(grid) if tactical and grid is not None else np.zeros(1, dtype=np.int32)
    block = np.zeros(1, dtype=np.bool_)
    if tactical and grid is not None:
        bad = CHARGE_BLOCKERS  # movement.clear_line
        block = (grid.array.reshape(-1) & int(bad)) != 0
    if tactical:
        seen: dict[tuple[Any, ...], tuple[int, int, float, float]] = {}
        gseen: dict[tuple[Any, ...], tuple[int, int, int]] = {}
        for i, c in enumerate(cs):
            a = c.creature
            bonus_of = {w.name: stats.damage_bonus(a, w, options=enc.options).total for w in a.stat.weapons}
            for k, w in enumerate(a.stat.weapons):
                if w.is_grenade:  # the attack against the intersection's AC 5 at each distance (ATK-12)
                    for sq in range(w_range.shape[2]):
                        for pen in (0, 1):
                            bonus = int(g_atk[i, k] + w_range[i, k, sq]) - pen * SQUEEZE_PENALTY
                            g_land[i, k, sq, pen] = odds.chance(bonus, INTERSECTION_AC)
                for j, t in enumerate(cs):
                    if t.side == c.side:
                        continue
                    d = t.creature
                    red = odds.reduction(d, w)
                    if w.is_grenade:
                        if w.area is not None and w.area.save:  # as TacticalPolicy.grenade_from values it
                            which = ("fort", "ref", "will").index(w.area.save)  # the grenade's own save
                            for pen in (0, 1):
                                save = int(saves[j, which]) - (pen * SQUEEZE_PENALTY if which == 1 else 0)
                                g_half[i, k, j, pen] = odds.chance(save, int(w_gdc[i, k]))
                        gkey = (w.damage_expr, red)
                        if gkey not in gseen:
                            gseen[gkey] = _grenade_rows(w.damage_expr, red, gv, gf, gh)
                        g_off[i, k, j], g_len[i, k, j], g_den[i, k, j] = gseen[gkey]
                        continue
                    immune = odds.crit_immune(d)
                    for need in range(NEED_LO, NEED_HI + 1):
                        for attacks in (1, 2):
                            for mi, miss in enumerate(misses):
                                key = (w.damage_expr, bonus_of[w.name], immune, red, need, attacks, miss)
                                if key not in seen:
                                    tab = odds.damage_table(0, need, w.damage_expr, bonus_of[w.name],
                                                            crit_immune=immune, reduction=red, miss_chance=miss,
                                                            attacks=attacks)  # fmt: skip
                                    seen[key] = (len(vals), len(tab.values), tab.mean, tab.hit)
                                    vals.extend(tab.values)
                                    probs.extend(tab.probs)
                                at = (i, k, j, need - NEED_LO, attacks - 1, mi)
                                t_off[at], t_len[at], t_mean[at], t_hit[at] = seen[key]
    return (
        tactical, tw, w_rank, w_unwieldy, w_range_ft, stat_pool, medicine,
        t_off, t_len, t_mean, t_hit,
        np.array(vals or [0], dtype=np.int32), np.array(probs or [0.0], dtype=np.float64),
        g_off, g_len, g_den,
        np.array(gv or [0], dtype=np.int32), np.array(gf or [0], dtype=np.int64), np.array(gh or [0], dtype=np.int64),
        g_land, g_half, sides, block,
    )  # fmt: skip


def _grenade_rows(expr: Any, red: int, gv: list[int], gf: list[int], gh: list[int]) -> tuple[int, int, int]:
    """Append a grenade's full and halved damage (after ``red``) as numerators over one denominator: the parts
    ``odds.flat_table`` mixes. Returns (offset, length, denominator)."""
    from sftactics.dice.distribution import damage_die

    full: Any = damage_die(expr, 0)
    if red:
        full = full.map(lambda x: max(0, x - red))
    half: Any = full.map(lambda x: x // 2)
    pf = {int(v): Fraction(q, full.denominator()) for v, q in full.items()}
    ph = {int(v): Fraction(q, half.denominator()) for v, q in half.items()}
    den = lcm(*(f.denominator for f in (*pf.values(), *ph.values())))
    values = sorted(set(pf) | set(ph) | {0})
    off = len(gv)
    for v in values:
        gv.append(v)
        gf.append(int(pf.get(v, Fraction(0)) * den))
        gh.append(int(ph.get(v, Fraction(0)) * den))
    return off, len(values), den
