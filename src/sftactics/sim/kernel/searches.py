"""The Search in the compiled kernel (``actions.do_search``, ``perception.search``, ``Seeker.search_check``): see
:mod:`sftactics.sim.kernel.stealth` for what it plays and in which order it rolls."""

from __future__ import annotations

from typing import Any

from sftactics.sim.kernel.books import FRESH, ROUND, _die, _log, _out, _sight_refresh, _spend
from sftactics.sim.kernel.geo import _jit, distance_ft
from sftactics.sim.kernel.sight import LOCATED, OBSERVING, UNAWARE, line_of_effect, line_of_sight
from sftactics.sim.kernel.stealth import LOG_SEARCH, PRESENCE, UNSEEN


# ---------------------------------------------------------------- kernel side
@_jit
def _senses(m: Any, st: Any, o: int, t: int) -> tuple[int, int, bool, bool]:
    """``senses.observe`` for one pair of one-square creatures: (ceiling, what noticing gives, a precise sense
    reaches it, a blindsense reaches it). Vision along a line of sight (in the dark, darkvision reaching) is
    precise; a blindsense within reach and ordinary senses need a line of effect."""
    pa, pt = st.pos[o], st.pos[t]
    d = distance_ft(pa, pt, m.width)
    loe = line_of_effect(st.cover_cache, st.pair, m.map_id, pa, pt)
    vis = line_of_sight(st.cover_cache, st.pair, m.map_id, pa, pt) and (not m.dark[pt] or m.dv_ft[o] >= d)
    keen = loe and m.bsense_ft[o] >= d
    if vis:
        return OBSERVING, OBSERVING, True, keen
    if keen:
        return LOCATED, LOCATED, False, True
    if loe:
        return LOCATED, PRESENCE, False, False
    return UNAWARE, UNAWARE, False, False


@_jit
def could_locate(m: Any, st: Any, me: int) -> bool:
    """``seek.search_could_locate``: ``me`` is aware of an able foe's presence only, and its senses could
    pinpoint it."""
    if not m.sk_on:
        return False
    for f in range(m.n):
        if m.side[f] == m.side[me] or _out(st, f) or st.aw[me, f] != PRESENCE:
            continue
        if _senses(m, st, me, f)[0] >= LOCATED:
            return True
    return False


@_jit
def _noticed(m: Any, st: Any, o: int, t: int, stl: int) -> tuple[bool, int, int]:
    """One Perception-against-Stealth check (``senses.perception_vs_stealth``, ties to the higher bonus):
    (noticed, Stealth total, Perception total)."""
    perc = m.sk_perc[o, 1 if st.deaf[o] else 0]
    s_total = _die(st, 20) + stl
    p_total = _die(st, 20) + perc
    if p_total != s_total:
        return p_total > s_total, s_total, p_total
    if perc != stl:
        return perc > stl, s_total, p_total
    while True:
        h = _die(st, 20)
        w = _die(st, 20)
        if h != w:
            return w > h, s_total, p_total


@_jit
def search(m: Any, st: Any, me: int) -> None:
    """``do_search``: a move action, a check against every able opponent ``me`` does not yet perceive as well as
    its senses allow; every pair looked at again if any changed."""
    _spend(st, 1)
    changed = False
    for t in range(m.n):
        if m.side[t] == m.side[me] or _out(st, t):
            continue
        before = st.aw[me, t]
        ceiling, notice, precise, keen = _senses(m, st, me, t)
        if before >= ceiling:
            continue
        stl = m.sk_stl[t] + (UNSEEN if not precise and not keen else 0)
        ok, s_total, p_total = _noticed(m, st, me, t, stl)
        after = max(before, notice if before == UNAWARE else ceiling) if ok else min(before, PRESENCE)
        _log(st.log, st.nlog, LOG_SEARCH, st.sc[ROUND], me, t, s_total, p_total, int(ok), after)
        if after != before:
            st.aw[me, t] = after
            changed = True
    if changed:
        _sight_refresh(m, st, -1)


@_jit
def search_step(m: Any, st: Any, me: int) -> bool:
    """``Seeker.search_check``: a Search when it could find a foe (True: the move action went to it)."""
    if not could_locate(m, st, me):
        return False
    search(m, st, me)
    st.sc[FRESH] = 0
    return True


__all__ = ["could_locate", "search", "search_step"]
