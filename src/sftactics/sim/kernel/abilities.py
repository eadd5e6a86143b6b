"""Special abilities and spells in the compiled kernel: ``use_ability`` and the policies' choices of them.

The kernel's copy of what :mod:`sftactics.sim.choices` decides and :mod:`sftactics.encounter.effects` does, on
the arrays of :mod:`sftactics.sim.kernel.specials` (``Model.ab``):

* :func:`heal` is ``choices.heal``: the ally who needs it most (dying, then stable at 0 HP, then no Stamina
  left and at most half its Hit Points; then the fewest Hit Points, then the id), the healer included, with the
  heal of the highest average roll (Resolve-costed heals: 60% of it, and only with 1 Resolve Point left after);
  not worth an attack of opportunity unless the patient is dying; a touch heal (or one out of range) moves next
  to the patient first when a move and a standard action are both left and the move provokes nothing; before
  that, the heals of the user (a move action) and of every ally in range (a full action) that
  :mod:`sftactics.sim.kernel.classes` chooses;
* :func:`simple_blast` is ``choices.simple_blast``: the area ability whose placement catches the most foes (two
  at least) and no friend;
* :func:`plans` is ``choices.ability_plans``: every damaging ability on every foe in range with line of effect,
  every area ability at its best placement (bursts and spreads at the corners of the foes' squares, cones from
  each corner of the user's square in the eight directions, lines toward each foe), valued by the tactical
  policy's numbers, less the attacks of opportunity a spell provokes, 85% of it for an ability with limited
  uses;
* :func:`use` is ``do_use_ability``: the standard action, a use of the pool (SPA-02), attacks of opportunity
  for a spell or spell-like ability (AOO-06) and the spell lost if they damage the caster (AOO-11), then the
  attack roll (no critical hits), the save (half, partial: half, negates), one damage roll for an area with a
  save each and cover from the point of origin (MOD-08, MOD-14), healing (INJ-10, INJ-18, INJ-19; it stops
  bleeding, CON-02).

The squares of an area and line of effect between two squares are the grid package's own answers
(``grid.areas``, ``grid.lines.has_line_of_effect``), asked from object mode once per map and placement and
kept in a cache shared by the fights of a process (:func:`area_cache`). The simulation's tracker credits
damage to the last attack made in the same command, so a save-only ability credits nobody, or the foe whose
attack of opportunity came before it, as the engine's tracker does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sftactics.sim.choices import LIMITED
from sftactics.sim.kernel import classes
from sftactics.sim.kernel import setup as _setup
from sftactics.sim.kernel import tacplaces as _tplaces
from sftactics.sim.kernel import tacsquares as _tsquares
from sftactics.sim.kernel import tactics as _tac
from sftactics.sim.kernel import tacturn as _tturn
from sftactics.sim.kernel.attacks import (
    _attack_numbers,
    _can_take_aoo,
    _one_attack,
    _roll_damage,
    _save,
    _threatens_target,
)
from sftactics.sim.kernel.bodies import LINGER, PRONE
from sftactics.sim.kernel.books import (
    CHARGE_PENALTY,
    ENDED,
    FRESH,
    ROUND,
    TOTAL_COVER,
    _can,
    _die,
    _log,
    _objmode,
    _out,
)
from sftactics.sim.kernel.flow import _check_end
from sftactics.sim.kernel.footprints import fp_distance_ft
from sftactics.sim.kernel.geo import _jit, distance_to_point_ft
from sftactics.sim.kernel.grenades import _point_cover
from sftactics.sim.kernel.injury import _damage, _track
from sftactics.sim.kernel.movement import _move, _prepare_move
from sftactics.sim.kernel.specials import ON_NEGATES, S_BURST, S_CONE, S_SPREAD, T_ALLIES, T_ALLY, T_AREA, T_FOE

#: The plan command that uses an ability (after the tactical kernel's ``C_*``): (C_ABILITY, target or point,
#: slot | parameter << 8).
C_ABILITY = 9
#: Log rows of this module: (LOG_ABILITY, round, user, slot, target or -1, point, parameter, amount healed or -1)
LOG_ABILITY = 13
_LOE = 4  # area cache key: line of effect between two squares
MORALE_BOOK, MORALE_DEATH, MORALE_CAUTIOUS = 0, 1, 2
#: ``State.morale`` codes by name (``sim.morale``).
MORALE_CODES = {"by-the-book": MORALE_BOOK, "fight-to-the-death": MORALE_DEATH, "cautious": MORALE_CAUTIOUS}
_CACHES: dict[int, Any] = {}


def area_cache(map_id: int) -> Any:
    """The area cache of a registered map: a numba typed ``Dict`` from a key (shape, size, point, parameter)
    to the sorted squares of that area (for line of effect, ``[1]`` or ``[0]``)."""
    found = _CACHES.get(map_id)
    if found is None:
        from sftactics.sim.kernel.share import empty_area_cache  # (made by cached code: no compile)

        found = _CACHES[map_id] = empty_area_cache()
    return found


def _area_from_grid(map_id: int, shape: int, size: int, px: int, py: int, param: int, caster: int) -> Any:
    """Object mode: the squares of an area (or line of effect, shape 4) by the grid package."""
    from sftactics.grid import areas
    from sftactics.grid.geometry import DIRECTION_NAMES, Footprint
    from sftactics.grid.lines import has_line_of_effect
    from sftactics.sim.kernel import geo

    grid, _ = geo._MAPS[int(map_id)]
    w = grid.width
    shape, size, px, py, param, caster = (int(v) for v in (shape, size, px, py, param, caster))
    if shape == _LOE:  # ``point`` was the first square (read back from its point coordinates)
        sq = py * (w + 1) + px
        a, b = Footprint(sq % w, sq // w), Footprint(param % w, param // w)
        return np.array([1 if has_line_of_effect(grid, a, b) else 0], dtype=np.int32)
    fp = Footprint(caster % w, caster // w)
    try:
        if shape == S_BURST:
            area = areas.burst(grid, (px, py), size)
        elif shape == S_SPREAD:
            area = areas.spread(grid, (px, py), size)
        elif shape == S_CONE:
            area = areas.cone(grid, (px, py), DIRECTION_NAMES[param // 4], size, caster=fp)
        else:
            area = areas.line(grid, (px, py), (param % w, param // w), size, caster=fp)
    except ValueError:
        return np.zeros(0, dtype=np.int32)
    return np.array(sorted(y * w + x for x, y in area.squares), dtype=np.int32)


@_jit
def _area(m: Any, st: Any, shape: int, size: int, point: int, param: int, caster: int) -> Any:
    """The squares of an area (sorted), through the cache. ``point``: ``py * (width + 1) + px``; ``param``: a
    cone's direction * 4 + the corner's place on the caster's square, a line's square to go toward."""
    key = ((np.int64(shape) * 256 + size // 5) * (1 << 20) + point) * (1 << 22) + param
    if key in st.area_cache:
        return st.area_cache[key]
    map_id = m.map_id
    w1 = m.width + 1
    px, py = point % w1, point // w1
    with _objmode(found="int32[:]"):
        found = _area_from_grid(map_id, shape, size, px, py, param, caster)
    st.area_cache[key] = found
    return found


@_jit
def _loe(m: Any, st: Any, a: int, b: int) -> bool:
    """``grid.lines.has_line_of_effect`` between the squares ``a`` and ``b``."""
    found = _area(m, st, _LOE, 0, a, b, a)
    return bool(found[0] == 1)


@_jit
def _inside_fp(m: Any, st: Any, squares: Any, c: int) -> bool:
    """A square of ``c``'s space is among the area's ``squares`` (``areas.in_area``)."""
    q = st.pos[c]
    s = m.fside[c]
    if s == 1:
        return _inside(squares, q)
    for j in range(s):
        for i in range(s):
            if _inside(squares, q + j * m.width + i):
                return True
    return False


@_jit
def _inside(squares: Any, q: int) -> bool:
    lo, hi = 0, squares.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        v = squares[mid]
        if v == q:
            return True
        if v < q:
            lo = mid + 1
        else:
            hi = mid
    return False


# ---------------------------------------------------------------- uses
@_jit
def usable(m: Any, st: Any, c: int, j: int) -> bool:
    """A slot the policies use, with uses left (``choices.usable``)."""
    ab = m.ab
    if not ab.ok[c, j]:
        return False
    return bool(ab.uses[c, j] < 0 or st.ab_spent[c, ab.pool[c, j]] < ab.uses[c, j])


# ---------------------------------------------------------------- doing it
@_jit
def _provoke(m: Any, st: Any, c: int) -> tuple[int, int]:
    """``reactions.provoke_all`` (attacks._provoke_all), returning the last attack of opportunity made as
    (attacker, weapon), or (-1, -1): the tracker's source for what follows in the same command."""
    sa, sw = -1, -1
    for e in range(m.n):
        if not (_can_take_aoo(m, st, e, c) and m.zone[e] >= 0 and _threatens_target(m, st, e, m.zone[e], c)):
            continue
        if _out(st, c):
            continue
        for k in range(m.w_ok.shape[1]):
            if m.w_ok[e, k] and m.w_attack[e, k] and m.w_aoo[e, k] and _threatens_target(m, st, e, m.w_zone[e, k],
                                                                                          c):  # fmt: skip
                st.react_used[e] = True
                ok, _, _ = _attack_numbers(m, st, e, k, c)
                if ok:
                    sa, sw = e, k
                _one_attack(m, st, e, c, k, True)
                break
    return sa, sw


@_jit
def _amount(m: Any, c: int, j: int, saved: bool, raw: int) -> int:
    """``saves.save_outcome``: the damage that applies (0: none)."""
    ab = m.ab
    if ab.save[c, j] < 0 or not saved:
        return raw
    if ab.on_save[c, j] == ON_NEGATES:
        return 0
    return int(m.half[raw])  # half and partial: half damage (DMG-14)


@_jit
def _heal_hp(m: Any, st: Any, t: int, amount: int) -> None:
    """``injury.heal`` of ``amount`` Hit Points: never past the maximum; at 0 HP, 1 HP or more wakes a dying or
    stable creature, and any healing stabilizes a dying one; healing Hit Points stops bleeding."""
    at_zero = st.hp[t] == 0 and (st.dying[t] or st.stable[t])
    new = max(st.hp[t], min(m.max_hp[t], st.hp[t] + amount))
    st.hp[t] = new
    if at_zero and new >= 1:
        st.dying[t] = False
        st.stable[t] = False
        st.unconscious[t] = False
        st.dropped_round[t] = -1
        st.dropped_own[t] = False
        st.zero_rp_at_drop[t] = False
        st.stab_round[t] = -1
        st.hp_dmg_round[t] = -1
        st.body[t, LINGER] = 0
    elif at_zero and st.dying[t]:
        st.dying[t] = False
        st.stable[t] = True
        st.body[t, LINGER] = 0  # stabilized: no longer lingering (INJ-07)
    if amount > 0:
        st.bleed_prof[t] = -1
    _track(st, t, -1, -1)
    _log(st.log, st.nlog, LOG_ABILITY, st.sc[ROUND], -1, -1, t, -1, st.hp[t], amount)


@_jit
def use(m: Any, st: Any, c: int, j: int, t: int, point: int, param: int) -> None:
    """``do_use_ability`` after the policy's checks: on creature ``t``, or at ``point`` with ``param`` for an
    area."""
    ab = m.ab
    classes.spend(m, st, c, j)  # a standard action, or the heal's own action and Resolve cost
    st.sc[FRESH] = 0
    if ab.uses[c, j] >= 0:
        st.ab_spent[c, ab.pool[c, j]] += 1
    _log(st.log, st.nlog, LOG_ABILITY, st.sc[ROUND], c, j, t, point, param, -1)
    sa, sw = -1, -1
    if ab.provokes[c, j]:
        hp, sp, temp = st.hp[c], st.sp[c], st.temp[c]
        sa, sw = _provoke(m, st, c)
        if _out(st, c):
            _check_end(m, st)
            return
        if ab.spell[c, j] and (st.hp[c] != hp or st.sp[c] != sp or st.temp[c] != temp):
            return  # damaged while casting: the spell fails (AOO-11)
    if ab.target[c, j] == T_AREA:
        _area_effect(m, st, c, j, point, param, sa, sw)
    elif ab.target[c, j] == T_ALLIES:  # one roll heals every ally in range (class_moves._heal_all)
        amount = max(_roll_damage(st, ab.hn[c, j], ab.hs[c, j], ab.hflat[c, j], 1), 0)
        for k in range(m.n):
            if classes.in_burst(m, st, c, j, k):
                _heal_hp(m, st, k, amount)
    else:
        _single(m, st, c, j, t, sa, sw)
    _check_end(m, st)


@_jit
def _single(m: Any, st: Any, c: int, j: int, t: int, sa: int, sw: int) -> None:
    ab = m.ab
    if ab.has_atk[c, j]:
        d = _die(st, 20)
        ac = ab.ac[c, j, t, st.body[t, PRONE]] - (CHARGE_PENALTY if st.charging[t] else 0)
        total = d + ab.atk[c, j]
        hit = total >= ac
        if d == 20:
            hit = True
        elif d == 1:
            hit = False
        sa, sw = c, ab.sw[c, j]  # the ability's AttackMade
        _log(st.log, st.nlog, 4, st.sc[ROUND], c, t, sw, d, total - ac, 1 if hit else -1)
        if not hit:
            return
    saved = False
    if ab.save[c, j] >= 0:
        saved = _save(m, st, t, ab.save[c, j], 0, ab.dc[c, j])
    if ab.prof[c, j] >= 0:
        raw = _roll_damage(st, ab.nd[c, j], ab.sd[c, j], ab.flat[c, j], 1)
        raw = min(max(raw, 0), m.mit.shape[2] - 1)
        amount = _amount(m, c, j, saved, raw)
        if amount > 0:
            _damage(m, st, t, m.mit[t, ab.prof[c, j], amount], sa, sw)
    if ab.hn[c, j] >= 0:
        amount = max(_roll_damage(st, ab.hn[c, j], ab.hs[c, j], ab.hflat[c, j], 1), 0)
        _heal_hp(m, st, t, amount)


@_jit
def _area_effect(m: Any, st: Any, c: int, j: int, point: int, param: int, sa: int, sw: int) -> None:
    """``area_effect``: everyone (not dead) inside, one damage roll, a save each with cover from the point."""
    ab = m.ab
    squares = _area(m, st, ab.shape[c, j], ab.size[c, j], point, param, st.pos[c])
    inside = 0
    for t in range(m.n):
        if not st.dead[t] and _inside_fp(m, st, squares, t):
            st.points[inside] = t
            inside += 1
    if inside == 0:
        return
    raw = 0
    if ab.prof[c, j] >= 0:
        raw = _roll_damage(st, ab.nd[c, j], ab.sd[c, j], ab.flat[c, j], 1)
        raw = min(max(raw, 0), m.mit.shape[2] - 1)
    for i in range(inside):
        t = st.points[i]
        kind = _setup.with_imposed(m, t, -1, _point_cover(st, m.map_id, point, st.pos[t], m.fside[t]))
        if kind == TOTAL_COVER:
            continue
        saved = False
        if ab.save[c, j] >= 0:
            extra = m.cover_ref[kind] if ab.save[c, j] == 1 else 0
            saved = _save(m, st, t, ab.save[c, j], extra, ab.dc[c, j])
        if ab.prof[c, j] >= 0:
            amount = _amount(m, c, j, saved, raw)
            if amount > 0:
                _damage(m, st, t, m.mit[t, ab.prof[c, j], amount], sa, sw)


# ---------------------------------------------------------------- placements
@_jit
def _placements(m: Any, st: Any, me: int, j: int, pts: Any, params: Any) -> int:
    """``choices.placements``: (point, parameter) of each placement of area slot ``j`` from where ``me``
    stands, in the order the Python policy lists them."""
    ab = m.ab
    w = m.width
    h1 = m.height + 1
    here = st.pos[me]
    hx, hy = here % w, here // w
    n = 0
    shape = ab.shape[me, j]
    if shape in (S_BURST, S_SPREAD):
        for f in range(m.n):
            if m.side[f] == m.side[me] or _out(st, f):
                continue
            q = st.pos[f]
            for dx in range(m.fside[f] + 1):  # the corners of every square of its space
                for dy in range(m.fside[f] + 1):
                    pts[n] = (q % w + dx) * h1 + q // w + dy  # sorted by (x, y)
                    n += 1
        keys = np.sort(pts[:n])
        out = 0
        for i in range(n):
            if i > 0 and keys[i] == keys[i - 1]:
                continue
            px, py = keys[i] // h1, keys[i] % h1
            p = py * (w + 1) + px
            if distance_to_point_ft(here, p, w) > ab.rng[me, j]:
                continue
            pts[out] = p
            params[out] = 0
            out += 1
        return out
    if shape == S_CONE:
        for dx in range(2):
            for dy in range(2):
                for d in range(8):
                    pts[n] = (hy + dy) * (w + 1) + hx + dx
                    params[n] = d * 4 + dx * 2 + dy
                    n += 1
        return n
    for f in range(m.n):  # lines: toward each foe, from each corner
        if m.side[f] == m.side[me] or _out(st, f):
            continue
        for dx in range(2):
            for dy in range(2):
                pts[n] = (hy + dy) * (w + 1) + hx + dx
                params[n] = st.pos[f]
                n += 1
    return n


@_jit
def _caught(m: Any, st: Any, me: int, squares: Any) -> tuple[int, bool]:
    """``choices._caught``: (able foes inside, whether a friend not dead, the user included, is inside)."""
    foes = 0
    friend = False
    for c in range(m.n):
        if not _inside_fp(m, st, squares, c):
            continue
        if m.side[c] != m.side[me]:
            if not _out(st, c):
                foes += 1
        elif not st.dead[c]:
            friend = True
    return foes, friend


@_jit
def simple_blast(m: Any, st: Any, me: int) -> bool:
    """``choices.simple_blast``."""
    ab = m.ab
    if not ab.has[me] or not _can(m, st, me, 0):
        return False
    size = (8 + (int(m.fside.max()) + 1) ** 2) * m.n + 32  # the corners of the foes' spaces
    pts = np.empty(size, dtype=np.int64)
    params = np.empty(size, dtype=np.int64)
    best_n, best_j, best_p, best_q = 0, -1, 0, 0
    for j in range(ab.ok.shape[1]):
        if not usable(m, st, me, j) or ab.target[me, j] != T_AREA:
            continue
        k = _placements(m, st, me, j, pts, params)
        for i in range(k):
            squares = _area(m, st, ab.shape[me, j], ab.size[me, j], pts[i], params[i], st.pos[me])
            foes, friend = _caught(m, st, me, squares)
            if foes >= 2 and not friend and (best_j < 0 or foes > best_n):
                best_n, best_j, best_p, best_q = foes, j, pts[i], params[i]
    if best_j < 0:
        return False
    use(m, st, me, best_j, -1, best_p, best_q)
    return True


# ---------------------------------------------------------------- healing
@_jit
def _need(m: Any, st: Any, c: int) -> int:
    """``choices._need``: 3 dying, 2 at 0 HP, 1 badly hurt, 0 not at all."""
    if st.dead[c]:
        return 0
    if st.dying[c]:
        return 3
    if st.hp[c] == 0:
        return 2
    if st.sp[c] == 0 and 2 * st.hp[c] <= m.max_hp[c]:
        return 1
    return 0


@_jit
def _spot(m: Any, st: Any, me: int, p: int, within: int) -> int:
    """``choices._spot_next_to``: the cheapest square of one move within ``within`` ft of ``p`` (then the lowest
    x, y; the first four looked at) that provokes nothing, when a move and a standard action are both left."""
    if not _tsquares._move_then_standard(m, st, me):
        return -1
    w = m.width
    _tturn._search_a(m, st, me)
    speed = m.speed[me]
    x0, x1, y0, y1 = _tturn._box(m, st, me, speed)
    n = 0
    for qx in range(x0, x1):
        for qy in range(y0, y1):
            q = qy * w + qx
            cost = st.best_cost[q]
            if cost <= 0 or cost > speed or fp_distance_ft(q, m.fside[me], st.pos[p], m.fside[p], w) > within:
                continue
            st.keys[n, 0] = cost
            st.keys[n, 1] = qx
            st.keys[n, 2] = qy
            st.keys[n, 3] = 0
            st.keys[n, 4] = 0
            st.sqs[n] = q
            n += 1
    got = _tsquares._pick(st.keys, n, 4, st.idx)
    for i in range(got):
        q = st.sqs[st.idx[i]]
        if _tplaces._provokers(m, st, me, q)[0] == 0:
            return int(q)
    return -1


@_jit
def heal(m: Any, st: Any, me: int, self_move: bool) -> bool:
    """``choices.heal`` (after :func:`~sftactics.sim.kernel.tacturn._begin`; the caller undoes the marks);
    ``self_move``: a heal of the user as a move action first (``kernel.classes``)."""
    ab = m.ab
    if not ab.has[me] or not _can(m, st, me, 0):
        return False
    needs = np.zeros(m.n, dtype=np.int64)
    anyone = False
    for c in range(m.n):
        if m.side[c] == m.side[me]:
            needs[c] = _need(m, st, c)
            anyone = anyone or needs[c] > 0
    if not anyone:
        return False
    first, fj = classes.first_heal(m, st, me, needs, self_move)
    if first == 1:  # healed itself as a move action: the turn goes on, from a fresh look
        _tturn._done(m, st)
        use(m, st, me, fj, me, -1, 0)
        _tturn._begin(m, st, me)
        return False
    if first == 2:
        _tturn._done(m, st)
        use(m, st, me, fj, -1, -1, 0)
        return True
    best = -1
    for j in range(ab.ok.shape[1]):
        heals = usable(m, st, me, j) and ab.target[me, j] == T_ALLY and ab.hn[me, j] >= 0
        heals = heals and classes.affordable(m, st, me, j)
        if heals and (best < 0 or ab.heal_rank[me, j] > ab.heal_rank[me, best]):
            best = j
    if best < 0:
        return False
    threatened = _tplaces._threatened_count(m, st, st.pos[me]) > 0
    within = max(ab.rng[me, best], 5)
    taken = np.zeros(m.n, dtype=np.bool_)
    while True:  # the patients by (need, fewest Hit Points, id)
        p = -1
        pn = 0
        for c in range(m.n):
            if m.side[c] != m.side[me] or taken[c]:
                continue
            need = _need(m, st, c)
            if need == 0:
                continue
            if p < 0 or (-need, st.hp[c], m.rank[c]) < (-pn, st.hp[p], m.rank[p]):
                p, pn = c, need
        if p < 0:
            return False
        taken[p] = True
        if pn < 3 and threatened and ab.provokes[me, best]:
            continue  # not worth an attack of opportunity that would spoil the spell
        if p == me or fp_distance_ft(st.pos[me], m.fside[me], st.pos[p], m.fside[p], m.width) <= within:
            _tturn._done(m, st)
            use(m, st, me, best, p, -1, 0)
            return True
        spot = _spot(m, st, me, p, within)
        if spot >= 0:
            _tturn._done(m, st)
            nthreat = _prepare_move(m, st, me)
            _move(m, st, me, spot, nthreat)
            st.sc[FRESH] = 0
            _check_end(m, st)
            if not st.sc[ENDED] and not _out(st, me):
                use(m, st, me, best, p, -1, 0)
            return True


# ---------------------------------------------------------------- the tactical policy's plans
@_jit
def _effect_value(m: Any, st: Any, me: int, j: int, t: int) -> float:
    """``choices.effect_value``: ``attack_value`` of ``odds.flat_table``'s mixture of full, halved and no
    damage (the attack roll, then the save)."""
    ab = m.ab
    p_apply = 1.0
    if ab.has_atk[me, j]:
        p_apply = ab.p_hit[me, j, t, 1 if st.charging[t] else 0, st.body[t, PRONE]]
    p_save = ab.p_save[me, j, t] if ab.save[me, j] >= 0 else 0.0
    if ab.save[me, j] >= 0 and ab.on_save[me, j] == ON_NEGATES:
        p_land = p_apply * (1 - p_save)
        p_half = 0.0
    else:
        p_land = p_apply
        p_half = p_save
    w1 = _tplaces._round_half_even(1000 * p_land * (1 - p_half))
    w2 = _tplaces._round_half_even(1000 * p_land * p_half)
    w3 = 1000 - w1 - w2
    off, ln, den = ab.t_off[me, j, t], ab.t_len[me, j, t], ab.t_den[me, j, t]
    total_den = 1000 * den
    hit = 0.0
    for i in range(ln):
        v = ab.t_val[off + i]
        num = w1 * ab.t_nf[off + i] + w2 * ab.t_nh[off + i] + (w3 * den if v == 0 else 0)
        st.ab_v[i] = v
        st.ab_p[i] = num / total_den
        if v > 0:
            hit += st.ab_p[i]
    return _tturn._value(m, st, me, t, st.ab_v, st.ab_p, 0, ln, hit)


@_jit
def plans(m: Any, st: Any, me: int, stay_cost: float, both: bool) -> bool:
    """``choices.ability_plans`` into the plan being chosen (``tactics._keep``); whether one of them has a
    target (an offensive plan)."""
    ab = m.ab
    if not ab.has[me] or not _can(m, st, me, 0):
        return False
    here = st.pos[me]
    offensive = False
    threat_cost = -1.0
    size = (8 + (int(m.fside.max()) + 1) ** 2) * m.n + 32  # the corners of the foes' spaces
    pts = np.empty(size, dtype=np.int64)
    params = np.empty(size, dtype=np.int64)
    for j in range(ab.ok.shape[1]):
        if not usable(m, st, me, j) or ab.target[me, j] == T_ALLY or ab.hn[me, j] >= 0:
            continue  # heals are choices.heal's
        cost = 0.0
        if ab.provokes[me, j]:
            if threat_cost < 0:
                threat_cost = _tplaces._aoo_here(m, st, me, here)
            cost = threat_cost
        scale = LIMITED if ab.uses[me, j] >= 0 else 1.0
        if ab.target[me, j] == T_FOE:
            within = max(ab.rng[me, j], 5)
            for i in range(st.t_n[0]):
                f = st.t_foes[i]
                if fp_distance_ft(here, m.fside[me], st.pos[f], m.fside[f], m.width) > within or not _loe(
                    m, st, here, st.pos[f]
                ):
                    continue
                v = scale * _effect_value(m, st, me, j, f) - cost
                _tac._keep(st, v - stay_cost, 1, C_ABILITY, f, j, _tturn.C_NONE, 0, 0, _tturn.L_OTHER, both, f)
                offensive = True
            continue
        k = _placements(m, st, me, j, pts, params)
        found = False
        bv, bp, bq = 0.0, 0, 0
        for i in range(k):
            squares = _area(m, st, ab.shape[me, j], ab.size[me, j], pts[i], params[i], here)
            foes, friend = _caught(m, st, me, squares)
            if foes == 0 or friend:
                continue
            total = 0.0
            for e in range(m.n):
                if m.side[e] != m.side[me] and not _out(st, e) and _inside_fp(m, st, squares, e):
                    total += _effect_value(m, st, me, j, e)
            v = scale * total - cost
            if not found or v > bv:
                found = True
                bv, bp, bq = v, pts[i], params[i]
        if found:
            _tac._keep(
                st,
                bv - stay_cost,
                1,
                C_ABILITY,
                int(bp),
                j + (int(bq) << 8),
                _tturn.C_NONE,
                0,
                0,
                _tturn.L_OTHER,
                both,
                -1,
            )
    return offensive


@_jit
def execute(m: Any, st: Any, me: int, a: int, b: int) -> bool:
    """A plan's ability command (``C_ABILITY``); False if the engine would refuse it."""
    j = b & 255
    if not _can(m, st, me, 0) or not usable(m, st, me, j):
        return False
    if m.ab.target[me, j] == T_AREA:
        use(m, st, me, j, -1, a, b >> 8)
    else:
        use(m, st, me, j, a, -1, 0)
    return True


# ---------------------------------------------------------------- morale and the simple policy's turn
@_jit
def shaken(m: Any, st: Any, me: int) -> bool:
    """``morale.shaken``: below half its Stamina and Hit Points (temporary HP count), or half its side lost."""
    if 2 * (st.sp[me] + st.hp[me] + st.temp[me]) < m.stat_pool[me]:
        return True
    everyone = 0
    lost = 0
    for c in range(m.n):
        if m.side[c] == m.side[me]:
            everyone += 1
            if _out(st, c):
                lost += 1
    return everyone > 0 and 2 * lost >= everyone


@_jit
def breaks(m: Any, st: Any, me: int) -> bool:
    """``morale.breaks`` for the tactical policy: never to the death; cautious, when shaken; else hopeless."""
    morale = st.morale[me]
    if morale == MORALE_DEATH:
        return False
    if morale == MORALE_CAUTIOUS and shaken(m, st, me):
        return True
    return _tsquares._hopeless(m, st, me)


@_jit
def simple_first(m: Any, st: Any, c: int) -> bool:
    """``SimplePolicy.__call__`` after Resolve, before its weapons: the cautious retreat (``sim.morale``), then a
    heal or an area ability (``sim.choices``). True when the turn is done."""
    if st.sc[ENDED] or _out(st, c):
        return False
    if st.morale[c] == MORALE_CAUTIOUS and (st.retreating[c] or shaken(m, st, c)):
        st.retreating[c] = True
        _tturn._begin(m, st, c)
        if _tsquares._retreat(m, st, c):
            _tturn._done(m, st)
            return True
        _tturn._done(m, st)
        st.retreating[c] = False  # cornered: fight
    return fallback(m, st, c)


@_jit
def fallback(m: Any, st: Any, c: int) -> bool:
    """The start of a fresh ``SimplePolicy`` (by the book) when a tactical plan was refused: a heal or an area
    ability. True when the turn is done."""
    if not m.ab.has[c]:
        return False
    _tturn._begin(m, st, c)
    done = heal(m, st, c, False)  # the simple policy heals itself with no move action
    _tturn._done(m, st)
    return bool(done or simple_blast(m, st, c))


__all__ = [
    "C_ABILITY",
    "LOG_ABILITY",
    "MORALE_CODES",
    "area_cache",
    "breaks",
    "execute",
    "fallback",
    "heal",
    "plans",
    "simple_blast",
    "simple_first",
    "use",
]
