"""Attacks in the compiled fight (ATK-*, MOD-*, AOO-*): the attack's numbers (range, cover, flanking, concealment),
saves, critical hit effects and their riders, damage rolls, one attack end to end, and attacks of
opportunity (who may make one, and making it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sftactics.sim import kernel as _kernel
from sftactics.sim.kernel import bigfight as _big
from sftactics.sim.kernel import bigsqueeze as _bigsqueeze
from sftactics.sim.kernel import corrode as _corrode
from sftactics.sim.kernel import setup as _setup
from sftactics.sim.kernel.blasts import (
    R_BFLAT,
    R_BN,
    R_BS,
    R_DFLAT,
    R_DN,
    R_DS,
    R_KIND,
    R_MULT,
    R_PROF,
    RIDER_BURNING,
    RIDER_NONE,
    RIDER_STAGGERED,
)
from sftactics.sim.kernel.bodies import STAG_ROUNDS, base_numbers, knock_down
from sftactics.sim.kernel.books import (
    ARC_REACH_FT,
    BURNS,
    CHARGE_PENALTY,
    CRIT_ARC,
    CRIT_BLEED,
    CRIT_BURN,
    CRIT_CORRODE,
    CRIT_DEAFEN,
    CRIT_KNOCKDOWN,
    CRIT_STAGGER,
    CUR,
    ROUND,
    TOTAL_COVER,
    _die,
    _down_now,
    _geo_miss,
    _in_zone,
    _knows,
    _log,
    _out,
    _staggered,
)
from sftactics.sim.kernel.coverkind import can_aoo_geometry, cover_kind
from sftactics.sim.kernel.geo import _jit, distance_ft, flank_line, threatens
from sftactics.sim.kernel.injury import _damage
from sftactics.sim.kernel.sight import LOCATED, OBSERVING, TOTAL_MISS


# ---------------------------------------------------------------- attacks
@_jit
def _others(m: Any, st: Any, a: int, t: int) -> int:
    """Squares of the creatures (not dead) other than ``a`` and ``t`` into ``st.crowd``; their count."""
    k = 0
    for c in range(m.n):
        if c != a and c != t and not st.dead[c]:
            st.crowd[k] = st.pos[c]
            k += 1
    return k


@_jit
def _threatens_target(m: Any, st: Any, c: int, z: int, t: int) -> bool:
    if m.big:
        return _big.threat_fp(m, st, c, z, t)
    return z >= 0 and _in_zone(m, z, st.pos[c], st.pos[t])


@_jit
def _attack_numbers(m: Any, st: Any, a: int, k: int, t: int) -> tuple[bool, int, int]:
    """``space.attack_geometry`` and the totals: (possible, attack bonus, AC)."""
    if m.big:
        return _big.attack_numbers_fp(m, st, a, k, t)
    w = m.width
    pa = st.pos[a]
    pt = st.pos[t]
    melee = m.w_melee_geom[a, k]
    down = _down_now(st, t)
    bonus, base_ac = base_numbers(m, st, a, k, t, down)  # prone attacker or target: ``kernel.bodies``
    if melee:
        if not threatens(pa, pt, w, m.w_reach[a, k], True):
            return False, 0, 0
    else:
        d = distance_ft(pa, pt, w) // 5
        if d >= m.w_range.shape[2] or m.w_range[a, k, d] <= -10_000:
            return False, 0, 0
        bonus += m.w_range[a, k, d]
    count = _others(m, st, a, t)
    kind = cover_kind(st.cover_cache, st.pair, m.map_id, w, pa, pt, not melee, st.crowd, count)
    kind = _setup.with_imposed(m, t, a, kind)
    if kind == TOTAL_COVER:
        return False, 0, 0
    ac = base_ac + m.cover_ac[kind] - (CHARGE_PENALTY if st.charging[t] else 0)
    if melee and m.armed[a] and m.w_reach[a, k] > 0 and _threatens_target(m, st, a, m.w_zone[a, k], t):
        for p in range(m.n):
            if p in (a, t) or _out(st, p) or m.side[p] == m.side[t]:
                continue
            if m.flank_ally_only and m.side[p] != m.side[a]:
                continue
            if m.body_reach[p] <= 0 or not _threatens_target(m, st, p, m.zone[p], t):
                continue
            if flank_line(pa, st.pos[p], pt, w):
                bonus += m.flank_bonus
                break
    return True, bonus, ac


@_jit
def _save(m: Any, st: Any, c: int, which: int, extra: int, dc: int) -> bool:
    d = _die(st, 20)
    bonus = m.saves_down[c, which] if _down_now(st, c) else m.saves[c, which]
    bonus -= _bigsqueeze.penalty(m, st, c) if m.big and which == 1 else 0  # squeezed: -2 Reflex (MOV-19)
    bonus += _setup.save_delta(m, st, c, which, _down_now(st, c))
    ok: bool = d + bonus + extra >= dc
    if d == 20:
        ok = True
    elif d == 1:
        ok = False
    _log(st.log, st.nlog, 6, st.sc[ROUND], c, which, d, d + bonus + extra, dc, int(ok))
    return ok


@_jit
def _current_count(m: Any, st: Any) -> int:
    return st.init[st.sc[CUR]] if st.sc[CUR] >= 0 else 0


@_jit
def _critical(m: Any, st: Any, a: int, k: int, t: int) -> None:
    """The weapon's critical effect (ATK-15) on a target still alive."""
    eff = m.w_crit[a, k]
    if eff == CRIT_ARC:
        s = _arc_target(m, st, a, t)
        if s < 0:
            return
        raw = _roll_damage(st, m.w_crit_n[a, k], m.w_crit_s[a, k], m.w_crit_dc[a, k], 1)
        raw = min(max(raw, 0), m.mit.shape[2] - 1)
        _damage(m, st, s, m.mit[s, m.w_crit_prof[a, k], raw], a, k, m.prof_nl[m.w_crit_prof[a, k]])
        return
    if eff == CRIT_BLEED:
        if m.immune_cond[t, 0]:
            return
        n, s, flat = m.w_crit_n[a, k], m.w_crit_s[a, k], m.w_crit_dc[a, k]
        # CON-02: only the worst bleed stays (average, then maximum: conditions._severity); ties keep the older
        new_key = (n * (s + 1) + 2 * flat, n * s + flat)  # twice the average, to stay in integers
        old_key = (
            st.bleed_n[t] * (st.bleed_s[t] + 1) + 2 * st.bleed_flat[t],
            st.bleed_n[t] * st.bleed_s[t] + st.bleed_flat[t],
        )
        if st.bleed_prof[t] < 0 or new_key > old_key:
            st.bleed_n[t], st.bleed_s[t], st.bleed_flat[t] = n, s, flat
            st.bleed_prof[t] = m.w_crit_prof[a, k]
        st.bleed_last[t] = True  # the condition's instances move to the end of the list (their tick order)
        _corrode.gained_bleed(st, t)
        _log(st.log, st.nlog, 7, st.sc[ROUND], t, 1, n, s, flat, 0)
        return
    if eff == CRIT_BURN:
        if m.immune_cond[t, 3]:
            return
        _add_burn(st, t, m.w_crit_n[a, k], m.w_crit_s[a, k], m.w_crit_dc[a, k], m.w_crit_prof[a, k])
        return
    if eff == CRIT_CORRODE:  # acid that eats on, with no save to end it (``sim.kernel.corrode``)
        if not m.immune_cond[t, 4]:
            n, s, flat = m.w_crit_n[a, k], m.w_crit_s[a, k], m.w_crit_dc[a, k]
            _corrode.add_corrode(st, t, n, s, flat, m.w_crit_prof[a, k])
            _log(st.log, st.nlog, 7, st.sc[ROUND], t, 7, n, s, flat, 0)
        return
    if eff == CRIT_KNOCKDOWN:
        if knock_down(m, st, t):
            _log(st.log, st.nlog, 7, st.sc[ROUND], t, 6, 0, 0, 0, 0)
        return
    if eff in (CRIT_STAGGER, CRIT_DEAFEN):
        which = 1 if eff == CRIT_STAGGER else 2
        if m.immune_cond[t, which]:
            return
        if _save(m, st, t, m.w_crit_save[a, k], 0, m.w_crit_dc[a, k]):
            return
        if eff == CRIT_STAGGER:
            _stagger(m, st, t, 1)
        else:
            minutes = _die(st, 4)
            st.deaf[t] = True
            _log(st.log, st.nlog, 7, st.sc[ROUND], t, 3, minutes, 0, 0, 0)


@_jit
def _add_burn(st: Any, t: int, n: int, s: int, flat: int, prof: int) -> None:
    """``t`` gains an instance of burning (CON-05: every source burns), of ``n``d``s`` + ``flat`` fire."""
    i = st.burn_count[t]
    if i < BURNS:
        st.burn_n[t, i], st.burn_s[t, i], st.burn_flat[t, i] = n, s, flat
        st.burn_prof[t, i] = prof
        st.burn_count[t] = i + 1
    st.bleed_last[t] = False
    _corrode.gained_burn(st, t)
    _log(st.log, st.nlog, 7, st.sc[ROUND], t, 4, n, s, flat, 0)


@_jit
def _stagger(m: Any, st: Any, t: int, rounds: int) -> None:
    """``t`` is staggered for ``rounds`` rounds from now, to the current initiative count (CF-14). Already
    staggered, it keeps one instance, the one of more rounds (the older on a tie: ``conditions.add_condition``),
    and that instance's expiry."""
    rnd = st.sc[ROUND] + rounds
    cnt = _current_count(m, st)
    if st.stag_round[t] < 0 or rounds > st.body[t, STAG_ROUNDS]:
        st.stag_round[t] = rnd
        st.stag_count[t] = cnt
        st.body[t, STAG_ROUNDS] = rounds
    _log(st.log, st.nlog, 7, st.sc[ROUND], t, 2, rnd, cnt, 0, 0)


@_jit
def _riders(m: Any, st: Any, c: int, k: int, t: int) -> None:
    """The conditions of grenade ``k``'s explosion on ``t`` (``effects.area_effect``'s riders, each duration
    rolled for the creature; a creature immune to one does not gain it: ``conditions.add_condition``)."""
    for r in range(m.g_rider.shape[2]):
        kind = m.g_rider[c, k, r, R_KIND]
        if kind == RIDER_NONE:
            return
        rounds = 0
        if m.g_rider[c, k, r, R_MULT] > 0:
            dn, ds, dflat = m.g_rider[c, k, r, R_DN], m.g_rider[c, k, r, R_DS], m.g_rider[c, k, r, R_DFLAT]
            rounds = max(_roll_damage(st, dn, ds, dflat, 1), 0) * m.g_rider[c, k, r, R_MULT]
        if kind == RIDER_BURNING:
            if not m.immune_cond[t, 3]:
                _add_burn(st, t, m.g_rider[c, k, r, R_BN], m.g_rider[c, k, r, R_BS], m.g_rider[c, k, r, R_BFLAT],
                          m.g_rider[c, k, r, R_PROF])  # fmt: skip
        elif kind == RIDER_STAGGERED:
            if not m.immune_cond[t, 1]:
                _stagger(m, st, t, rounds)
        elif not m.immune_cond[t, 2]:  # deafened
            st.deaf[t] = True
            _log(st.log, st.nlog, 7, st.sc[ROUND], t, 3, rounds, 0, 0, 0)


@_jit
def _arc_target(m: Any, st: Any, a: int, t: int) -> int:
    """``arcs.secondary`` without a choice: the creature (not dead, not the attacker) nearest ``t`` within 10 ft;
    among equally near ones an enemy of the attacker first, then the first by id; -1 for none."""
    best = -1
    best_d = 0
    for p in range(m.n):
        if p == t or st.dead[p]:
            continue
        if p == a:  # never the attacker (option arc_can_strike_attacker: refused by ``unsupported``)
            continue
        d = _big.pair_dist(m, st, t, p) if m.big else distance_ft(st.pos[t], st.pos[p], m.width)
        if d > ARC_REACH_FT:
            continue
        if best < 0 or d < best_d:
            best, best_d = p, d
            continue
        if d == best_d:
            mine, theirs = m.side[p] == m.side[a], m.side[best] == m.side[a]
            if (mine, m.rank[p]) < (theirs, m.rank[best]):
                best = p
    return best


@_jit
def _roll_damage(st: Any, n: int, s: int, flat: int, times: int) -> int:
    total = 0
    for _ in range(times):
        for _ in range(n):
            total += _die(st, s)
        total += flat
    return total


@_jit
def _parts_damage(m: Any, st: Any, a: int, k: int, t: int, times: int) -> tuple[int, bool, bool]:
    """``a``'s weapon ``k``, whose damage has several parts, rolled ``times`` times on ``t`` (every part's dice
    in order, each time): (damage after ``t``'s defenses, riders negated, nonlethal), from the model's table of
    every combination of the parts' totals (:mod:`~sftactics.sim.kernel.parts`)."""
    q = m.w_xp[a, k]
    idx = 0
    totals = np.zeros(m.xp_n.shape[1], dtype=np.int64)
    for _ in range(times):
        for p in range(m.xp_n.shape[1]):
            for _ in range(m.xp_n[q, p]):
                totals[p] += _die(st, m.xp_s[q, p])
            totals[p] += m.xp_flat[q, p]
    for p in range(m.xp_n.shape[1]):
        dim = m.xp_dim[q, p]
        idx = idx * dim + min(max(totals[p], 0), dim - 1)
    cell = m.xp_off[q] + idx
    return int(m.xp_mit[t, cell]), bool(m.xp_neg[t, cell]), bool(m.xp_nl[q])


@_jit
def _one_attack(m: Any, st: Any, a: int, t: int, k: int, reaction: bool, extra: int = 0, rider: bool = False) -> None:
    """``one_attack``; ``extra``: a penalty of the action (-4 in a full attack); ``rider``: a trick attack whose
    check succeeded (``kernel.classes``: extra dice, the target flat-footed)."""
    ok, bonus, ac = _attack_numbers(m, st, a, k, t)
    if not ok:
        return
    if m.big:  # a big creature standing squeezed: -2 AC and attack rolls (MOV-19)
        bonus, ac = bonus - _bigsqueeze.penalty(m, st, a), ac - _bigsqueeze.penalty(m, st, t)
    if m.sight and st.aw[t, a] < OBSERVING and not (st.surprised[t] and not _down_now(st, t)):
        # the defender does not see the attacker: flat-footed against it (MOD-20, SEN-09), down or not (a
        # creature out of the fight keeps the awareness it had, and helpless is not flat-footed); a surprised
        # one already is (the two do not stack), unless it is down (its AC then is the down one, ``bodies``)
        ac -= 2
    elif rider:
        ac += _kernel.classes.rider_ac(m, st, a, t)  # flat-footed once, whatever makes it so (CON-18)
    bonus += extra + _kernel.classes.mark_bonus(m, st, a, k, t)  # get 'em's bonus against ``t`` (kernel.classes)
    d = _die(st, 20)
    total = d + bonus
    hit = total >= ac
    if d == 20:
        hit = True
    elif d == 1:
        hit = False
    crit = hit and d == 20 and total >= ac and not m.immune_crit[t]
    miss = _geo_miss(m, st, a, t)
    if m.sight and st.aw[a, t] == LOCATED:
        miss = max(miss, TOTAL_MISS)  # it knows the square, not what is in it (SEN-06)
    if hit and miss > 0 and _die(st, 100) <= miss:
        hit = crit = False  # concealment (VIS-03, VIS-04, MOD-04, MOD-05): the d% says it misses
    dmg = -1
    if hit:
        times = 2 if crit else 1
        if m.w_xp[a, k] >= 0:  # a damage roll of several parts (``sim.kernel.parts``)
            dmg, negated, nonlethal = _parts_damage(m, st, a, k, t, times)
        else:
            if rider:
                raw = _kernel.classes.rider_roll(m, st, a, k, times)
            else:
                raw = _roll_damage(st, m.w_ndice[a, k], m.w_sides[a, k], m.w_flat[a, k], times)
            p = m.w_prof[a, k]
            if raw < 1 and raw - times * m.w_neg[a, k] >= 1:  # DMG-05: penalties leave 1 nonlethal damage
                raw = 1
                p = m.w_min_prof[a, k]
            raw = min(max(raw, 0), m.mit.shape[2] - 1)
            dmg, negated, nonlethal = m.mit[t, p, raw], m.neg[t, p, raw], m.prof_nl[p]
        _log(st.log, st.nlog, 4, st.sc[ROUND], a, t, k, d, total - ac, dmg)
        _damage(m, st, t, dmg, a, k, nonlethal)
        if crit and m.w_crit[a, k] > 0 and not negated and not st.dead[t]:
            _critical(m, st, a, k, t)
    else:
        _log(st.log, st.nlog, 4, st.sc[ROUND], a, t, k, d, total - ac, -1)
    near = _big.pair_dist(m, st, a, t) if m.big else distance_ft(st.pos[a], st.pos[t], m.width)
    if m.sight and m.w_melee_geom[a, k] and st.aw[t, a] < LOCATED and near <= 5:
        st.aw[t, a] = LOCATED  # attacked in melee from next to it: it knows where the attacker is (SEN-10)
    _setup.attacked(m, st, a)  # it gives its hiding up


@_jit
def _can_take_aoo(m: Any, st: Any, e: int, c: int) -> bool:
    """``reactions.can_take_aoo``."""
    if m.side[e] == m.side[c] or e == c or _out(st, e) or not m.takes_aoo[e]:
        return False
    if _staggered(st, e) or not st.acted[e] or st.react_used[e]:
        return False
    if not _knows(m, st, e, c):  # no attack against a foe it has not located (SEN-04)
        return False
    if _setup.no_aoo(m, st, e, c):  # held in a grapple, or cover imposed by the GM (MOD-09)
        return False
    if m.big:
        return _big.can_aoo_fp(m, st, e, c)
    return can_aoo_geometry(st.cover_cache, st.pair, m.map_id, st.pos[e], st.pos[c])


@_jit
def _aoo(m: Any, st: Any, e: int, c: int) -> None:
    """``reactions.attack_of_opportunity``: the first weapon that can make one and whose zone holds the target
    (``threat.first_aoo_weapon``)."""
    if not _can_take_aoo(m, st, e, c) or _out(st, c):
        return
    for k in range(m.w_ok.shape[1]):
        usable = m.w_ok[e, k] and m.w_attack[e, k] and m.w_aoo[e, k]
        if usable and (_big.threat_fp(m, st, e, m.w_zone[e, k], c) if m.big else
                       _in_zone(m, m.w_zone[e, k], st.pos[e], st.pos[c])):  # fmt: skip
            st.react_used[e] = True
            _one_attack(m, st, e, c, k, True)
            return


@_jit
def _provoke_all(m: Any, st: Any, c: int) -> None:
    """Every enemy that threatens ``c`` where it stands may take its attack of opportunity (AOO-12)."""
    for e in range(m.n):
        if _can_take_aoo(m, st, e, c) and m.zone[e] >= 0 and _threatens_target(m, st, e, m.zone[e], c):
            _aoo(m, st, e, c)
