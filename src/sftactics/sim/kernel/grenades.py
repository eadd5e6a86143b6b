"""Grenades in the compiled fight (ATK-12, ATK-13): the burst's squares, the point the simple policy throws at,
the throw (AC 5, scatter on a miss, the grid package's scatter and cover from the point), and the save."""

from __future__ import annotations

from typing import Any

import numpy as np

from sftactics.sim.kernel import bigsqueeze as _bigsqueeze
from sftactics.sim.kernel import setup as _setup
from sftactics.sim.kernel.attacks import _provoke_all, _riders, _roll_damage, _save
from sftactics.sim.kernel.blasts import ON_NEGATES
from sftactics.sim.kernel.books import ROUND, TOTAL_COVER, _die, _log, _objmode, _out, _side_knows, _spend
from sftactics.sim.kernel.footprints import fp_distance_to_point_ft
from sftactics.sim.kernel.geo import _jit
from sftactics.sim.kernel.injury import _damage


# ---------------------------------------------------------------- grenades
@_jit
def _burst_has(m: Any, r: int, p: int, q: int) -> bool:
    lo = m.b_off[r, p]
    hi = m.b_off[r, p + 1]
    while lo < hi:  # the squares of a point are sorted
        mid = (lo + hi) // 2
        v = m.b_sq[mid]
        if v == q:
            return True
        if v < q:
            lo = mid + 1
        else:
            hi = mid
    return False


@_jit
def _burst_hits(m: Any, st: Any, r: int, p: int, who: int) -> bool:
    """A square of ``who``'s space is in the burst of table ``r`` at point ``p`` (``areas.in_area``)."""
    q = st.pos[who]
    s = m.fside[who]
    if s == 1:
        return _burst_has(m, r, p, q)
    for j in range(s):
        for i in range(s):
            if _burst_has(m, r, p, q + j * m.width + i):
                return True
    return False


@_jit
def _grenade_point(m: Any, st: Any, c: int) -> tuple[int, int]:
    """``SimplePolicy._grenade_point``: (weapon slot, point) catching the most foes (two at least) and no friend."""
    w = m.width
    armed = False
    for k in range(m.w_ok.shape[1]):
        if m.w_ok[c, k] and m.w_grenade[c, k] and st.ammo[c, k] >= 1:
            armed = True
    if not armed:
        return -1, -1
    nf = 0
    for f in range(m.n):
        if m.side[f] != m.side[c] and not _out(st, f) and _side_knows(m, st, m.side[c], f):
            st.mates[nf] = f
            nf += 1
    if nf < 2:
        return -1, -1
    best_k, best_p, best_n = -1, -1, 0
    # candidate points: the corners of the foes' squares, in (x, y) order
    npts = 0
    for i in range(nf):
        q = st.pos[st.mates[i]]
        for dx in range(2):
            for dy in range(2):
                px, py = q % w + dx, q // w + dy
                st.points[npts] = px * (m.height + 1) + py
                npts += 1
    pts = st.points[:npts]
    pts.sort()
    for k in range(m.w_ok.shape[1]):
        if not (m.w_ok[c, k] and m.w_grenade[c, k]) or st.ammo[c, k] < 1:
            continue
        r = m.w_bidx[c, k]
        for j in range(pts.shape[0]):
            if j > 0 and pts[j] == pts[j - 1]:
                continue  # the same corner of two foes' squares
            px, py = pts[j] // (m.height + 1), pts[j] % (m.height + 1)
            p = py * (w + 1) + px
            if fp_distance_to_point_ft(st.pos[c], m.fside[c], p, w) > m.w_top_ft[c, k]:
                continue
            hit = 0
            for i in range(nf):
                if _burst_hits(m, st, r, p, st.mates[i]):
                    hit += 1
            if hit < 2:
                continue
            friend = False
            for a in range(m.n):
                if m.side[a] == m.side[c] and _burst_hits(m, st, r, p, a):
                    friend = True
                    break
            if friend:
                continue
            if best_k < 0 or hit > best_n:
                best_k, best_p, best_n = k, p, hit
    return best_k, best_p


@_jit
def _throw(m: Any, st: Any, c: int, k: int, p: int) -> None:
    """``do_throw_grenade`` and ``area_effect``: AC 5, scatter on a miss, one damage roll, a Reflex save each."""
    w = m.width
    d = fp_distance_to_point_ft(st.pos[c], m.fside[c], p, w) // 5
    _spend(st, 0)
    st.ammo[c, k] -= 1
    _provoke_all(m, st, c)
    if _out(st, c):
        return
    roll = _die(st, 20)
    total = roll + m.g_atk[c, k] + m.w_range[c, k, d] - (_bigsqueeze.penalty(m, st, c) if m.big else 0)
    hit = total >= m.intersection_ac
    if roll == 20:
        hit = True
    elif roll == 1:
        hit = False
    land = p
    if not hit:
        d8 = _die(st, 8)
        d4 = _die(st, 4)
        px, py = p % (w + 1), p // (w + 1)
        map_id = m.map_id
        thrower = st.pos[c]
        tside = m.fside[c]
        with _objmode(dx="int64", dy="int64"):
            dx, dy = _scatter_direction(map_id, px, py, thrower, d8, tside)
        px = min(max(px + dx * d4, 0), w)
        py = min(max(py + dy * d4, 0), m.height)
        land = py * (w + 1) + px
    _log(st.log, st.nlog, 9, st.sc[ROUND], c, k, p, land, roll, total)
    r = m.w_bidx[c, k]
    inside = 0
    for t in range(m.n):
        if not st.dead[t] and _burst_hits(m, st, r, land, t):
            st.points[inside] = t
            inside += 1
    if inside == 0:
        return
    raw = _roll_damage(st, m.w_ndice[c, k], m.w_sides[c, k], m.w_flat[c, k], 1)
    raw = min(max(raw, 0), m.mit.shape[2] - 1)
    which, on_save = m.g_mode[c, k, 0], m.g_mode[c, k, 1]
    for i in range(inside):
        t = st.points[i]
        kind = _setup.with_imposed(m, t, -1, _point_cover(st, m.map_id, land, st.pos[t], m.fside[t]))
        if kind == TOTAL_COVER:
            continue
        dmg = raw
        saved = False
        if which >= 0:  # cover adds to Reflex saves only
            saved = _save(m, st, t, which, m.cover_ref[kind] if which == 1 else 0, m.w_gdc[c, k])
            if saved:
                dmg = 0 if on_save == ON_NEGATES else m.half[raw]
        if dmg > 0:
            _damage(m, st, t, m.mit[t, m.w_prof[c, k], dmg], c, k, m.prof_nl[m.w_prof[c, k]])
        if not saved:  # SV-09: a success keeps the riders off, whatever the kind of save
            _riders(m, st, c, k, t)


def _map_of(map_id: int) -> Any:
    from sftactics.sim.kernel import geo

    return geo._MAPS[map_id]


def _scatter_direction(map_id: int, px: int, py: int, thrower: int, d8: int, side: int = 1) -> tuple[int, int]:
    """Object mode: the grid package's scatter direction for a thrower in square ``thrower``."""
    from sftactics.grid.geometry import Footprint
    from sftactics.grid.scatter import scatter_direction

    grid, options = _map_of(int(map_id))
    w = grid.width
    dx, dy = scatter_direction((int(px), int(py)), Footprint(int(thrower) % w, int(thrower) // w, int(side)),
                               int(d8), options=options)  # fmt: skip
    return int(dx), int(dy)


def _cover_from_point(map_id: int, point: int, square: int, side: int = 1) -> int:
    """Object mode: cover of ``square`` from a point of origin (no creatures: ``area_effect``)."""
    from sftactics.grid.cover import cover
    from sftactics.grid.geometry import Footprint

    grid, options = _map_of(int(map_id))
    w = grid.width
    at = (int(point) % (w + 1), int(point) // (w + 1))
    res = cover(grid, at, Footprint(int(square) % w, int(square) // w, int(side)), ranged=True, creatures=(),
                explain=False, options=options)  # fmt: skip
    return int(res.kind)


@_jit
def _point_cover(st: Any, map_id: int, point: int, square: int, side: int = 1) -> int:
    key = np.int64(point) * np.int64(1 << 32) + np.int64(square) + (np.int64(side) << 56)
    if key in st.point_cache:
        hit: int = st.point_cache[key]
        return hit
    with _objmode(found="int64"):
        found = _cover_from_point(map_id, point, square, side)
    st.point_cache[key] = found
    return found
