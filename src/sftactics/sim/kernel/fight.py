"""The compiled fight: a fight's books and the simple policy, by the engine's rules, in numba nopython code.

This is the engine's fight (``sftactics.encounter``) played by :class:`~sftactics.sim.policies.SimplePolicy`
(the tactical policy's turns are :mod:`~sftactics.sim.kernel.tactics`', the round loop
:mod:`~sftactics.sim.kernel.loop`'s),
written again as plain loops over the arrays of a :class:`~sftactics.sim.kernel.model.Model` so that a fight
costs tens of microseconds instead of tens of milliseconds. The numbers it adds up all come from the rules
modules (see :mod:`~sftactics.sim.kernel.model`); the geometry comes from the grid package's own tables and,
for cover, from the grid package itself on a cache miss (:mod:`~sftactics.sim.kernel.geo`). What it writes
again is the bookkeeping of one fight, in the engine's order:

* initiative (CF-03, CF-04: ties by the modifier, then roll-offs repeated until broken), rounds and turns;
* the start of a turn: durations that end (count-anchored, CF-14), bleeding and burning in the order the
  creature gained them (CON-02, CON-05); creatures with no
  decision to make pass (dying without the Resolve to stabilize, stable without Resolve to stay in the fight);
* the simple policy: spend Resolve to stabilize or stay in the fight (INJ-11, INJ-12); its cautious retreat,
  heals and area abilities (:mod:`~sftactics.sim.kernel.abilities`, before its weapons); throw a grenade at a
  point whose burst catches two or more foes and no friend (ATK-12, ATK-13: AC 5, scatter on a miss; the
  grenade's save, with cover for Reflex, EFF-*; half, partial or negates, SV-09; burning, staggered and
  deafened riders on those who fail, :mod:`~sftactics.sim.kernel.blasts`); attack the nearest foe with the
  first weapon in reach or range (melee fighters close in first), reloading when empty (ACT-36); otherwise
  move to the square of one move nearest to it, preferring one that flanks;
* movement by the cheapest path with the fewest steps out of threatened squares (a creature smaller than a
  square passes and stops anywhere, MOV-03), attacks of opportunity
  where it leaves them (AOO-06..12: one reaction per round, none before the reactor's first turn, none
  through cover, none while staggered), and ranged attacks or throws while threatened provoking too; who
  threatens, and with which weapon, is the model's copy of ``encounter.threat`` (no unarmed strikes, no
  unwieldy weapons, AOO-01);
* attacks: d20 with natural 1 and 20 (ATK-05), range penalty (ATK-10), cover (MOD-07..14, soft cover from
  creatures against ranged attacks), flanking (MOD-17), critical hits (ATK-14: damage rolled twice; bleed,
  burn, corrode (:mod:`~sftactics.sim.kernel.corrode`), staggered with a Fortitude save, deafen with a save and a
  d4 of minutes, arc to the creature nearest the target within 10 ft, knockdown: prone, ATK-15; prone attackers
  and targets, CON-29, :mod:`~sftactics.sim.kernel.bodies`), damage through the target's
  defenses (table; a roll of several parts by the table of its parts' totals, :mod:`~sftactics.sim.kernel.parts`),
  Stamina then Hit Points, 0 HP: dying (PCs), dead (NPCs), massive damage, Resolve lost while dying, death
  when none is left (INJ-*); nonlethal damage to exactly 0 HP, stable (DMG-10, DMG-13);
  NPCs under the optional rules (INJ-07: the dying rules, or lingering for three of their turns);
* who sees whom on maps with walls (``sim.kernel.sight``): each pair's awareness after every command, the
  foes a side knows of and those the actor has located, flat-footed against an unseen attacker (MOD-20), and
  the search for foes nobody has located (``sim.kernel.seek``); dim light's concealment (VIS-03, d%);
* the end of a turn: a dying creature loses Resolve (INJ-04, INJ-05), a burning one saves against the flames
  (CON-05; saves of a creature down at 0 HP are a helpless creature's); the fight ends when at most one side
  has anyone able to fight (CF-02), or at the round limit.

Dice come from numpy's generator inside numba, seeded per fight: the same seed gives the same fight on the same
installation; or from a script (tests give the kernel and the engine the same dice). An optional log (``log``
with rows) records every roll and what it decided; without rows it costs nothing.

Known simplifications (the engine is the reference; each is rare or changes nothing the kernel models):

* deafened is recorded and does nothing: in the engine it only matters to hearing, and on the maps the kernel
  plays a foe is heard only where it is seen (walls block both);
* an attack of opportunity whose geometry the engine would refuse (total cover) is not made, where the engine
  would refuse the whole move.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

import numba
import numpy as np
from numba.core import types
from numba.core import types as nb_types
from numba.experimental import structref
from numba.typed import Dict as NumbaDict
from numpy.typing import NDArray

from sftactics.sf1e.actions_rules import CHARGE_PENALTY as _CHARGE_PENALTY
from sftactics.sim.kernel import bigfight as _big
from sftactics.sim.kernel import bigsight as _bigsight
from sftactics.sim.kernel import bigsqueeze as _bigsqueeze
from sftactics.sim.kernel import corrode as _corrode
from sftactics.sim.kernel import setup as _setup
from sftactics.sim.kernel.blasts import (
    ON_NEGATES,
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
from sftactics.sim.kernel.bodies import (
    BODY_COLUMNS,
    LINGER,
    LINGER_ROUNDS,
    STAG_ROUNDS,
    base_numbers,
    knock_down,
    reset_bodies,
)
from sftactics.sim.kernel.footprints import fp_distance_to_point_ft
from sftactics.sim.kernel.geo import (
    _count_ft,
    can_aoo_geometry,
    cover_kind,
    distance_ft,
    flank_line,
    no_pair_table,
    threatens,
    threatens_on_map,
)
from sftactics.sim.kernel.model import Model
from sftactics.sim.kernel.modes import path_for, search_for
from sftactics.sim.kernel.sight import (
    CONCEALMENT_MISS,
    LOCATED,
    OBSERVING,
    TOTAL_MISS,
    UNAWARE,
    line_of_effect,
    line_of_sight,
)

_F = TypeVar("_F")


def _jit(fn: _F) -> _F:
    return cast(_F, numba.njit(cache=True)(fn))


_objmode: Any = numba.objmode

# combatant results, per fight: columns of ``comb_out``
KO, DIED, DYING_END, RP_SPENT, RP_LOST, DEALT, TAKEN, CAUSE, CAUSE_A, CAUSE_W, DROP_A, DROP_W = range(12)
COLUMNS = 12
# death causes
CAUSE_NONE, CAUSE_MASSIVE, CAUSE_ZERO_HP, CAUSE_RP = 0, 1, 2, 3
# fight results: columns of ``fight_out``
F_WINNER, F_ROUNDS, F_REASON, F_CONCEDED = range(4)
REASON_END, REASON_LIMIT, REASON_CONCEDE = 0, 1, 2
#: Policies by code (``State.pol``, per combatant).
POLICY_SIMPLE, POLICY_TACTICAL = 0, 1
# log rows: (kind, round, a, b, c, d, e, f)
LOG_INIT, LOG_TURN, LOG_MOVE, LOG_ATTACK, LOG_DAMAGE, LOG_SAVE, LOG_COND, LOG_RESOLVE, LOG_GRENADE, LOG_END, LOG_DIE = (
    range(1, 12)
)
#: A plan the tactical policy weighed: (kind, round, command, arg, second command, arg, value x 10^4, weapon)
LOG_PLAN = 12
LOG_WIDTH = 8
TOTAL_COVER = 5
CRIT_BLEED, CRIT_STAGGER, CRIT_DEAFEN, CRIT_BURN, CRIT_ARC, CRIT_KNOCKDOWN, CRIT_CORRODE = 1, 2, 3, 4, 5, 6, 7
ARC_REACH_FT = 10
#: A charge's penalty to the attack and to the charger's AC (``actions_rules.CHARGE_PENALTY``, ACT-50).
CHARGE_PENALTY = _CHARGE_PENALTY
#: Burning instances kept per creature (CON-05: every source burns; more are not kept).
BURNS = 16


# the fight's scalars: ``st.sc[...]``
ROUND, CUR, STD, MOVE, DIAG, FRESH, ENDED, WINNER, REASON_SC, SCRIPT_POS, SCRIPT_N, TSTAMP, CONCEDED = range(13)
SCALARS = 16


@_jit
def _log(log: NDArray[np.int32], nlog: NDArray[np.int64], kind: int, rnd: int, a: int, b: int, c: int, d: int,
         e: int, f: int) -> None:  # fmt: skip
    i = nlog[0]
    if i < log.shape[0]:
        log[i, 0] = kind
        log[i, 1] = rnd
        log[i, 2] = a
        log[i, 3] = b
        log[i, 4] = c
        log[i, 5] = d
        log[i, 6] = e
        log[i, 7] = f
    nlog[0] = i + 1


@_jit
def _die(st: Any, sides: int) -> int:
    """One die: the next scripted value when the fight has a script (``st.script``), else numpy's generator.
    Every roll is written to the log (when there is one)."""
    i = st.sc[SCRIPT_POS]
    v: int = 0
    if i < st.sc[SCRIPT_N]:
        v = st.script[i]
        st.sc[SCRIPT_POS] = i + 1
        if v < 1 or v > sides:
            v = sides if v > sides else 1  # a script value that does not fit the die is clamped
    else:
        v = np.random.randint(1, sides + 1)
    _log(st.log, st.nlog, LOG_DIE, st.sc[ROUND], sides, v, 0, 0, 0, 0)
    return v


@_jit
def _in_zone(m: Any, z: int, a: int, b: int) -> bool:
    """Whether a creature in ``a`` threatens ``b`` with the reach of zone table ``z`` (walls and lines of effect
    included: the grid package's table)."""
    return threatens_on_map(m.zones[z], m.zone_radius, a, b, m.width)


# ---------------------------------------------------------------- the fight's state
@_jit
def _out(st: Any, c: int) -> bool:
    return bool(st.dead[c] or st.unconscious[c] or st.dying[c] or st.stable[c])


# ---------------------------------------------------------------- who sees whom (:mod:`sftactics.sim.kernel.sight`)
@_jit
def _sight_pair(m: Any, st: Any, o: int, t: int) -> None:
    """``perception.compute`` for one pair whose observer is in the fight (``senses.observe`` and ``settle``):
    vision observes along a line of sight (in the dark as far as darkvision reaches); without it, a line of
    effect lets ordinary senses know the location at most, which a blindsense within reach or hearing a foe
    fighting (not down, the observer not deafened) gives at once, and which is otherwise kept if known."""
    if m.setup and st.hide[o, t]:
        return _setup.hiding_pair(m, st, o, t)  # it hides from the observer (the scenario's setup)
    if m.big:  # between spaces (:mod:`sftactics.sim.kernel.bigsight`)
        _bigsight.sight_pair(m, st, o, t)
        return
    pa, pt = st.pos[o], st.pos[t]
    if line_of_sight(st.cover_cache, st.pair, m.map_id, pa, pt) and (
        not m.dark[pt] or m.dv_ft[o] >= distance_ft(pa, pt, m.width)
    ):
        st.aw[o, t] = OBSERVING
        return
    if not line_of_effect(st.cover_cache, st.pair, m.map_id, pa, pt):
        st.aw[o, t] = UNAWARE
        return
    auto = UNAWARE
    if m.bsense_ft[o] >= distance_ft(pa, pt, m.width) or (not _out(st, t) and not st.deaf[o]):
        auto = LOCATED
    st.aw[o, t] = max(auto, min(st.aw[o, t], LOCATED))


@_jit
def _geo_miss(m: Any, st: Any, a: int, t: int) -> int:
    """``attack_geometry``'s miss chance from the light on ``t``'s square against ``a`` (VIS-03, VIS-04)."""
    if m.big:
        return _bigsight.geo_miss(m, st, a, t)
    pt = st.pos[t]
    if m.dark[pt] and m.dark_miss[a]:
        return TOTAL_MISS
    if m.dim[pt] and m.dim_miss[a]:
        return CONCEALMENT_MISS
    return 0


@_jit
def _sight_refresh(m: Any, st: Any, c: int) -> None:
    """``perception.refresh`` after a command that moved or changed ``c`` (every pair with ``c < 0``): each
    pair of opponents whose observer is in the fight is what the lines of sight give now; an observer out of
    the fight keeps what it had. Nothing on maps without walls (everyone observes everyone)."""
    if not m.sight:
        return
    if _setup.take_pending(m, st):
        c = -1  # someone gave its hiding up: every pair is looked at again (``perception._EVERYONE``)
    for o in range(m.n):
        if _out(st, o):
            continue
        for t in range(m.n):
            if m.side[t] != m.side[o] and (c < 0 or o == c or t == c):
                _sight_pair(m, st, o, t)


@_jit
def _knows(m: Any, st: Any, o: int, t: int) -> bool:
    """``sim.perception.knows``: ``o`` knows where ``t`` is (aware of its location at least)."""
    return not m.sight or st.aw[o, t] >= LOCATED


@_jit
def _side_knows(m: Any, st: Any, side: int, t: int) -> bool:
    """A member of ``side`` (any member, down or dead ones with what they last knew) knows where ``t`` is."""
    known = not m.sight
    for a in range(m.n):
        if m.side[a] == side and st.aw[a, t] >= LOCATED:
            known = True
            break
    return known


@_jit
def _down_now(st: Any, c: int) -> bool:
    return bool(st.unconscious[c] or st.dying[c] or st.dead[c] or st.stable[c])


@_jit
def _staggered(st: Any, c: int) -> bool:
    return bool(st.stag_round[c] >= 0)


@_jit
def _can(m: Any, st: Any, c: int, kind: int) -> bool:
    """``budget.take``: kind 0 standard, 1 move. Staggered: a move or a standard action, not both (CON-33)."""
    single = _staggered(st, c) or st.sc[ROUND] == 0  # staggered, or the surprise round (CF-09)
    if single and (st.sc[STD] or st.sc[MOVE]):
        return False
    if kind == 0:
        return not st.sc[STD]
    return not st.sc[MOVE] or not st.sc[STD]


@_jit
def _spend(st: Any, kind: int) -> None:
    if kind == 0:
        st.sc[STD] = 1
    elif not st.sc[MOVE]:
        st.sc[MOVE] = 1
    else:
        st.sc[STD] = 1


@_jit
def _able_side(m: Any, st: Any) -> int:
    """-2 while two or more sides can fight on; else the one side that can (-1: none)."""
    found = -1
    for c in range(m.n):
        if not _out(st, c):
            if found == -1:
                found = m.side[c]
            elif m.side[c] != found:
                return -2
    return found


# ---------------------------------------------------------------- damage and injury
@_jit
def _lose_rp(m: Any, st: Any, c: int, k: int, sa: int, sw: int) -> None:
    """INJ-05: lose ``k`` Resolve one at a time; needing one with none left is death."""
    for _ in range(k):
        if st.rp[c] == 0:
            _kill(m, st, c, 3, sa, sw)
            return
        st.rp[c] -= 1
        st.res[c, 4] += 1


@_jit
def _kill(m: Any, st: Any, c: int, cause: int, sa: int, sw: int) -> None:
    st.dead[c] = True
    st.dying[c] = False
    st.stable[c] = False
    if st.res[c, 7] == 0:
        st.res[c, 7] = cause
        st.res[c, 8] = sa
        st.res[c, 9] = sw


@_jit
def _reach_zero(m: Any, st: Any, c: int, overflow: int, sa: int, sw: int) -> None:
    if overflow >= m.max_hp[c]:
        _kill(m, st, c, 1, sa, sw)
        return
    if m.dying_rules[c]:
        st.stable[c] = False
        st.unconscious[c] = True
        st.dying[c] = True
        st.dropped_round[c] = st.sc[ROUND]
        st.dropped_own[c] = st.sc[CUR] == c
        st.zero_rp_at_drop[c] = st.rp[c] == 0
        st.hp_dmg_round[c] = -1
        st.stab_round[c] = -1
        return
    if m.linger[c]:  # INJ-07, option npc_without_rp_at_zero = three_rounds: dying for three of its turns
        st.stable[c] = False
        st.unconscious[c] = True
        st.dying[c] = True
        st.dropped_round[c] = st.sc[ROUND]
        st.dropped_own[c] = st.sc[CUR] == c
        st.hp_dmg_round[c] = -1
        st.body[c, LINGER] = LINGER_ROUNDS
        return
    _kill(m, st, c, 2, sa, sw)


@_jit
def _knock_out(m: Any, st: Any, c: int) -> None:
    """Nonlethal damage takes ``c`` to 0 HP: exactly 0 HP, unconscious and stable (DMG-10, DMG-13)."""
    st.unconscious[c] = True
    st.stable[c] = True
    st.dropped_round[c] = st.sc[ROUND]
    st.dropped_own[c] = st.sc[CUR] == c
    st.hp_dmg_round[c] = -1


@_jit
def _damage(m: Any, st: Any, c: int, amount: int, sa: int, sw: int, nonlethal: bool = False) -> None:
    """``injury.apply_damage`` and the statistics the simulation keeps."""
    if st.dead[c]:
        return
    hp_before = st.hp[c]
    temp_lost = min(st.temp[c], amount)
    rest = amount - temp_lost
    sp_lost = min(st.sp[c], rest)
    hp_damage = rest - sp_lost
    hp_lost = min(st.hp[c], hp_damage)
    overflow = hp_damage - hp_lost
    st.temp[c] -= temp_lost
    st.sp[c] -= sp_lost
    st.hp[c] -= hp_lost
    lost = temp_lost + sp_lost + hp_lost
    st.res[c, 6] += lost
    if sa >= 0 and sa != c:
        st.res[sa, 5] += lost
    if amount > 0:
        if hp_before == 0 and (st.dying[c] or st.stable[c]):
            measure = hp_damage if m.massive_hp_damage else amount
            if nonlethal:
                pass  # DMG-10: nonlethal damage cannot make a creature at 0 HP worse
            elif measure >= m.max_hp[c]:
                _kill(m, st, c, 1, sa, sw)
            elif st.body[c, LINGER] > 0:  # INJ-07: more lethal damage while lingering kills
                _kill(m, st, c, 2, sa, sw)
            elif not m.dying_rules[c]:
                if hp_damage > 0:
                    _reach_zero(m, st, c, 0, sa, sw)
            else:
                if st.stable[c]:
                    st.stable[c] = False
                    st.dying[c] = True
                    st.dropped_round[c] = st.sc[ROUND]
                    st.dropped_own[c] = st.sc[CUR] == c
                    st.zero_rp_at_drop[c] = False
                    st.hp_dmg_round[c] = -1
                if hp_damage > 0:
                    big = 2 * hp_damage > m.max_hp[c]
                    if st.hp_dmg_round[c] != st.sc[ROUND]:
                        st.hp_dmg_round[c] = st.sc[ROUND]
                        _lose_rp(m, st, c, 2 if (big and m.big_hit_first_costs == 2) else 1, sa, sw)
                    elif big:
                        _lose_rp(m, st, c, 1, sa, sw)
        elif st.hp[c] == 0 and hp_damage > 0:
            if nonlethal:
                _knock_out(m, st, c)
            else:
                _reach_zero(m, st, c, overflow, sa, sw)
    _track(st, c, sa, sw)
    _log(st.log, st.nlog, 5, st.sc[ROUND], c, amount, st.sp[c], st.hp[c], st.rp[c], int(st.dead[c]))


@_jit
def _track(st: Any, c: int, sa: int, sw: int) -> None:
    """The simulation tracker: knocked out (and by whom), back up."""
    down = _down_now(st, c)
    if down and not st.down[c]:
        st.res[c, 10] = sa
        st.res[c, 11] = sw
        st.res[c, 0] = 1
        st.down[c] = True
    elif not down:
        st.down[c] = False


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
        ac += _classes.rider_ac(m, st, a, t)  # flat-footed once, whatever makes it so (CON-18)
    bonus += extra + _classes.mark_bonus(m, st, a, k, t)  # get 'em's bonus against ``t`` (kernel.classes)
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
                raw = _classes.rider_roll(m, st, a, k, times)
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


# ---------------------------------------------------------------- movement
@_jit
def _occupancy(m: Any, st: Any, c: int, charging: bool = False) -> None:
    """``movement.occupants`` as the search's arrays (set for the others' squares; :func:`_clear` undoes).
    ``charging``: no passing through allies either (MOV-13). A creature smaller than a square enters and shares
    any square (MOV-03: ``grid.movement``'s occupancy for a sub-square mover)."""
    if m.sub[c]:
        return
    for o in range(m.n):
        if o == c or st.dead[o]:
            continue
        q = st.pos[o]
        if _down_now(st, o):  # helpless: pass and stop
            continue
        if m.fside[o] > 1:  # every square of a big creature's space
            _big.occupy(m, st, o, False, not (m.side[o] != m.side[c] or charging))
            continue
        st.stoppable[q] = False
        if m.side[o] != m.side[c] or charging:
            st.passable[q] = False


@_jit
def _clear(m: Any, st: Any) -> None:
    for o in range(m.n):
        q = st.pos[o]
        if m.fside[o] > 1:
            _big.occupy(m, st, o, True, True)
            continue
        st.stoppable[q] = True
        st.passable[q] = True


@_jit
def _search(m: Any, st: Any, c: int, goal: int, budget: int) -> None:
    search_for(m, c, st.pos[c], st.sc[DIAG] & 1, budget, st.passable, st.stoppable, st.extra_k, st.provoking,
               goal, st.dist, st.parent, st.heap, st.best_cost, st.best_prov, st.best_state, m.width)  # fmt: skip


@_jit
def _approach(m: Any, st: Any, c: int, t: int) -> int:
    """``SimplePolicy._approach``: the square of one move nearest to ``t`` (flanking it if possible, then the
    cheapest, then the lowest x, y); -1 if none is nearer than where it stands. Reads the search of
    :func:`_prepare_move`."""
    if m.big:
        return _big.approach_fp(m, st, c, t)
    w = m.width
    pt = st.pos[t]
    here = distance_ft(st.pos[c], pt, w)
    nm = 0
    for a in range(m.n):
        if a != c and m.side[a] == m.side[c] and not _out(st, a) and distance_ft(st.pos[a], pt, w) <= 5:
            st.mates[nm] = st.pos[a]
            nm += 1
    best = -1
    bd, bf, bc, bx, by = 0, 0, 0, 0, 0
    # one move reaches at most speed / 5 squares away: look only there (in x, then y order as the full scan)
    r = m.speed[c] // 5
    cx, cy = st.pos[c] % w, st.pos[c] // w
    for qx in range(max(0, cx - r), min(w, cx + r + 1)):
        for qy in range(max(0, cy - r), min(m.height, cy + r + 1)):
            q = qy * w + qx
            cost = st.best_cost[q]
            if cost <= 0:
                continue
            if best >= 0 and _count_ft(qx - pt % w, qy - pt // w) > bd:
                continue  # farther than the best so far: it cannot win (distance comes first)
            best, bd, bf, bc, bx, by = _approach_pick(st, q, cost, pt, w, nm, best, bd, bf, bc, bx, by)
    if best < 0 or bd >= here:
        return -1
    return best


@_jit
def _approach_pick(st: Any, q: int, cost: int, pt: int, w: int, nm: int, best: int, bd: int, bf: int, bc: int,
                   bx: int, by: int) -> tuple[int, int, int, int, int, int]:  # fmt: skip
    """Keep ``q`` if it beats the best so far by (distance, not flanking, cost, x, y)."""
    d = distance_ft(q, pt, w)
    flanks = 1
    if d <= 5:
        for i in range(nm):
            if flank_line(q, st.mates[i], pt, w):
                flanks = 0
                break
    qx, qy = q % w, q // w
    if best < 0 or (d, flanks, cost, qx, qy) < (bd, bf, bc, bx, by):
        return q, d, flanks, cost, qx, qy
    return best, bd, bf, bc, bx, by


@_jit
def _prepare_move(m: Any, st: Any, c: int, actions: int = 1, exempt_start: bool = False, charging: bool = False) -> int:
    """The movement search from where ``c`` stands, with the squares it would provoke in leaving marked: the
    enemies that could react (``reactions.threats_against``) go to ``st.threat_ids`` (their count returned).
    Costs come first in the search's key, so one search serves both the choice of a square (``reachable``) and
    the path to it with the fewest provocations (``find_path``). :func:`_unmark` undoes the marks. ``actions``
    2: a budget of twice the speed (a withdrawal); ``exempt_start``: leaving the starting square provokes
    nothing (ACT-55); ``charging``: allies' squares may not be passed (MOV-13)."""
    nthreat = 0
    for e in range(m.n):
        if m.zone[e] >= 0 and _can_take_aoo(m, st, e, c):
            st.threat_ids[nthreat] = e
            nthreat += 1
    _mark(m, st, nthreat, True)  # the provoking squares: every square an able enemy that could react threatens
    _occupancy(m, st, c, charging)
    # The start is exempt as a space, as the engine's ``_exempt_start``: a big mover's full space at its anchor
    # (``bigfight.search_big``; a space squeezed onto the anchor, a path that begins by squeezing in place, still
    # provokes when left, ``movement._provocations``), a one-square mover's square (its only space; left so for
    # ``path_to``, and ``_unmark`` clears every marked square anyway).
    if m.fside[c] > 1:
        _big.search_big(m, st, c, actions * m.speed[c], charging, exempt_start)
    else:
        if exempt_start:
            st.provoking[st.pos[c]] = False
        _search(m, st, c, -1, actions * m.speed[c])
    _clear(m, st)
    return nthreat


@_jit
def _unmark(m: Any, st: Any, nthreat: int) -> None:
    _mark(m, st, nthreat, False)


@_jit
def _mark(m: Any, st: Any, nthreat: int, value: bool) -> None:
    """Set ``st.provoking`` to ``value`` on the squares the enemies in ``st.threat_ids`` threaten (unmarking
    before anyone moves clears exactly what marking set)."""
    w = m.width
    r = m.zone_radius
    for i in range(nthreat):
        e = st.threat_ids[i]
        if m.fside[e] > 1:
            _big.mark_big(m, st, e, value)
            continue
        pe = st.pos[e]
        ex, ey = pe % w, pe // w
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                x, y = ex + dx, ey + dy
                if 0 <= x < w and 0 <= y < m.height and _in_zone(m, m.zone[e], pe, y * w + x):
                    st.provoking[y * w + x] = value


@_jit
def _move(m: Any, st: Any, c: int, dest: int, nthreat: int, full: bool = False, refresh: bool = True) -> None:
    """``do_move`` after :func:`_prepare_move`: the path with the fewest provocations, attacks of opportunity
    where it leaves threatened squares (each enemy once), a mover that drops stays where it was. ``full``: the
    movement of a full action (a withdrawal). ``refresh``: the command ends with the move (who sees whom is
    looked at again; a trick attack's move leaves that to the end of its command, as a charge does)."""
    w = m.width
    if m.fside[c] > 1:
        squares, leaving, sides = _big.path_big(m, st, c, dest)
    else:
        squares, leaving = path_for(m, c, dest, st.best_state, st.parent, st.provoking)
        sides = squares[:0]  # one square throughout
    _unmark(m, st, nthreat)
    if squares.shape[0] == 0:
        return
    _setup.moved(m, st, c)  # a grappler that moves away lets go (MAN-07)
    if full:
        st.sc[STD] = 1
        st.sc[MOVE] = 1
    else:
        _spend(st, 1)
    _log(st.log, st.nlog, 3, st.sc[ROUND], c, squares[0], dest, st.best_cost[dest], 0, 0)
    done = 0
    for li in range(leaving.shape[0]):
        step = leaving[li]
        q = squares[step]
        # the enemies whose zone holds the square left, by id (sorted provocations)
        for _ in range(nthreat):
            pick = -1
            for i in range(nthreat):
                e = st.threat_ids[i]
                if e < 0:
                    continue
                if not (_big.threat_space(m, st, e, m.zone[e], q, sides[step] if sides.shape[0] else 1) if m.big
                        else _in_zone(m, m.zone[e], st.pos[e], q)):  # fmt: skip
                    continue
                if pick < 0 or m.rank[e] < m.rank[st.threat_ids[pick]]:
                    pick = i
            if pick < 0:
                break
            e = st.threat_ids[pick]
            st.threat_ids[pick] = -1 - e  # asked once per square; restored below
            if step > done:
                _walk(st, c, squares, done, step, w, sides)
                done = step
            _aoo(m, st, e, c)
            if _out(st, c):
                for i in range(nthreat):
                    if st.threat_ids[i] < 0:
                        st.threat_ids[i] = -1 - st.threat_ids[i]
                if not st.charging[c] and refresh:
                    _sight_refresh(m, st, c)
                return
        for i in range(nthreat):
            if st.threat_ids[i] < 0:
                st.threat_ids[i] = -1 - st.threat_ids[i]
    if done < squares.shape[0] - 1:
        _walk(st, c, squares, done, squares.shape[0] - 1, w, sides)
    if not st.charging[c] and refresh:  # a charge's command ends after its attack (tactics._charge refreshes then)
        _sight_refresh(m, st, c)


@_jit
def _walk(st: Any, c: int, squares: NDArray[np.int32], a: int, b: int, w: int,
          sides: NDArray[np.int32]) -> None:  # fmt: skip
    """Along ``squares`` from index ``a`` to ``b``: the diagonals counted (``sides``, for a big mover: a squeeze
    shift changes the side and is no step), the position."""
    for i in range(a, b):
        p, q = squares[i], squares[i + 1]
        if sides.shape[0] and sides[i] != sides[i + 1]:
            continue
        if p % w != q % w and p // w != q // w:
            st.sc[DIAG] += 1
    st.pos[c] = squares[b]


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


# ---------------------------------------------------------------- the simple policy's turn
@_jit
def _nearest(m: Any, st: Any, c: int) -> int:
    """``SimplePolicy._nearest``: the nearest foe ``c`` has located itself, else the nearest its side knows of."""
    t = _nearest_of(m, st, c, True)
    return t if t >= 0 else _nearest_of(m, st, c, False)


@_jit
def _nearest_of(m: Any, st: Any, c: int, own: bool) -> int:
    best, bd, br = -1, 0, 0
    for f in range(m.n):
        if m.side[f] == m.side[c] or _out(st, f) or not _side_knows(m, st, m.side[c], f):
            continue
        if own and not _knows(m, st, c, f):
            continue
        d = _big.pair_dist(m, st, c, f) if m.big else distance_ft(st.pos[c], st.pos[f], m.width)
        if best < 0 or (d, m.rank[f]) < (bd, br):
            best, bd, br = f, d, m.rank[f]
    return best


@_jit
def _usable(m: Any, st: Any, c: int, t: int) -> int:
    for k in range(m.w_ok.shape[1]):
        if m.w_ok[c, k] and m.w_attack[c, k]:
            ok, _, _ = _attack_numbers(m, st, c, k, t)
            if ok:
                return k
    return -1


@_jit
def _first_attack_weapon(m: Any, c: int) -> int:
    for k in range(m.w_ok.shape[1]):
        if m.w_ok[c, k] and m.w_attack[c, k]:
            return k
    return -1


@_jit
def _simple_turn(m: Any, st: Any, c: int) -> None:
    if _resolve_start(m, st, c, False) and not abilities.simple_first(m, st, c):  # morale, heals, areas
        _simple_actions(m, st, c)


@_jit
def _resolve_start(m: Any, st: Any, c: int, keep_reserve: bool) -> bool:
    """Resolve at the start of the turn (INJ-11, INJ-12): a dying creature stabilizes if it can (and its turn
    is over: False); a stable one at 0 HP stays in the fight (with ``keep_reserve``, only while it keeps enough
    to stabilize again)."""
    if st.dying[c]:
        if st.rp[c] >= m.stab_cost[c]:
            st.rp[c] -= m.stab_cost[c]
            st.res[c, 3] += m.stab_cost[c]
            st.stab_round[c] = st.sc[ROUND]
            st.dying[c] = False
            st.stable[c] = True
            st.body[c, LINGER] = 0
            _track(st, c, -1, -1)
            _log(st.log, st.nlog, 8, st.sc[ROUND], c, 1, m.stab_cost[c], 0, 0, 0)
        return False
    if (
        st.stable[c]
        and st.hp[c] == 0
        and st.rp[c] >= 1
        and st.stab_round[c] != st.sc[ROUND]
        and st.sc[FRESH]
        and not (keep_reserve and st.rp[c] - 1 < m.stab_cost[c])
    ):  # INJ-12: stay in the fight
        st.rp[c] -= 1
        st.res[c, 3] += 1
        st.hp[c] = 1
        st.stable[c] = False
        st.dying[c] = False
        st.unconscious[c] = False
        st.dropped_round[c] = -1
        st.dropped_own[c] = False
        st.zero_rp_at_drop[c] = False
        st.stab_round[c] = -1
        st.hp_dmg_round[c] = -1
        _track(st, c, -1, -1)
        _log(st.log, st.nlog, 8, st.sc[ROUND], c, 2, 1, 0, 0, 0)
        _sight_refresh(m, st, c)  # back in the fight: it looks around again
    return True


@_jit
def _attack_now(m: Any, st: Any, c: int, t: int, k: int, full: bool) -> None:
    """``do_attack`` (or ``do_full_attack``: two attacks at -4, the second if the target still lives) after
    the checks: the action, the ammunition, attacks of opportunity for a ranged attack, the attacks."""
    if full:
        st.sc[STD] = 1
        st.sc[MOVE] = 1
    else:
        _spend(st, 0)
    st.sc[FRESH] = 0
    shots = 2 if full else 1
    if m.w_cap[c, k] >= 0:
        st.ammo[c, k] -= m.w_usage[c, k] * shots
    if not m.w_is_melee[c, k]:
        _provoke_all(m, st, c)
    if _out(st, c):
        _check_end(m, st)
        return
    _one_attack(m, st, c, t, k, False, -4 if full else 0)
    if full and not st.dead[t] and not _out(st, c):
        _one_attack(m, st, c, t, k, False, -4)
    if _setup.pending(m, st):
        _sight_refresh(m, st, -1)  # the command's end looks again at the pairs of who gave its hiding up
    _check_end(m, st)


@_jit
def _simple_actions(m: Any, st: Any, c: int) -> None:
    """The simple policy's actions after Resolve (``SimplePolicy.__call__``)."""
    for moves in range(3):
        if st.sc[ENDED]:
            return
        if _out(st, c) or not _can(m, st, c, 1):
            break
        t = _nearest(m, st, c)
        if t < 0:
            if moves < 2 and _seek.seek_step(m, st, c):
                continue  # nobody located: go looking (``sim.search``)
            break
        if _can(m, st, c, 0):
            gk, gp = _grenade_point(m, st, c)
            if gk >= 0:
                _throw(m, st, c, gk, gp)
                _check_end(m, st)
                st.sc[FRESH] = 0
                break
        weapon = _usable(m, st, c, t)
        first = _first_attack_weapon(m, c)
        if first >= 0 and m.w_is_melee[c, first] and weapon >= 0 and not m.w_is_melee[c, weapon] and moves < 2:
            nthreat = _prepare_move(m, st, c)
            dest = _approach(m, st, c, t)
            if dest >= 0:
                _move(m, st, c, dest, nthreat)
                st.sc[FRESH] = 0
                _check_end(m, st)
                continue
            _unmark(m, st, nthreat)
        if weapon >= 0 and _can(m, st, c, 0):
            cap = m.w_cap[c, weapon]
            if cap >= 0 and st.ammo[c, weapon] < m.w_usage[c, weapon]:
                if st.ammo[c, weapon] < cap:  # reload (a move action)
                    _spend(st, 1)
                    st.ammo[c, weapon] = cap
                    st.sc[FRESH] = 0
                    continue
            elif _classes.simple(m, st, c, t, weapon):  # trick attack or get 'em first (class_choices)
                break
            elif _knows(m, st, c, t):  # the engine refuses an attack on a foe not located (SEN-04)
                _attack_now(m, st, c, t, weapon, False)
                break
        if moves >= 2:
            break
        nthreat = _prepare_move(m, st, c)
        dest = _approach(m, st, c, t)
        if dest < 0:
            _unmark(m, st, nthreat)
            break
        _move(m, st, c, dest, nthreat)
        st.sc[FRESH] = 0
        _check_end(m, st)


# ---------------------------------------------------------------- flow
@_jit
def _check_end(m: Any, st: Any) -> None:
    if st.sc[ENDED]:
        return
    side = _able_side(m, st)
    if side != -2:
        st.sc[ENDED] = 1
        st.sc[WINNER] = side


@_jit
def _expire(m: Any, st: Any, who: int, at_round_start: bool) -> None:
    """``timing.due`` for the count-anchored staggered condition (and marks, ``kernel.classes``)."""
    if at_round_start:
        _classes.round_start(m, st)
    for c in range(m.n):
        r = st.stag_round[c]
        if r < 0:
            continue
        if at_round_start:
            due = st.sc[ROUND] > r
        else:
            due = st.sc[ROUND] > r or (st.sc[ROUND] == r and st.init[who] <= st.stag_count[c])
        if due:
            st.stag_round[c] = -1


@_jit
def _can_choose(m: Any, st: Any, c: int) -> bool:
    if st.dead[c]:
        return False
    if st.dying[c]:
        return bool(st.rp[c] >= m.stab_cost[c])
    if st.stable[c] or (st.unconscious[c] and st.hp[c] == 0):
        return bool(st.rp[c] >= 1 and st.stab_round[c] != st.sc[ROUND])
    return True


@_jit
def _end_turn(m: Any, st: Any, c: int) -> None:
    if st.dying[c] and not st.dead[c]:
        if st.dropped_own[c] and st.dropped_round[c] == st.sc[ROUND]:
            pass
        elif st.body[c, LINGER] > 0:  # INJ-07: the countdown of an NPC lingering at 0 HP
            st.body[c, LINGER] -= 1
            if st.body[c, LINGER] <= 0:
                _kill(m, st, c, 2, -1, -1)
        elif st.zero_rp_at_drop[c]:
            if st.sc[ROUND] >= st.dropped_round[c] + m.grace_rounds:  # injury.grace_deadline
                _kill(m, st, c, 3, -1, -1)
        else:
            _lose_rp(m, st, c, 1, -1, -1)
        _track(st, c, -1, -1)
    # CON-05: a burning creature saves at the end of its turn (DC 10 + this round's burning damage, +2 per
    # earlier consecutive attempt: conditions.burning_save_dc and burning_save_bonus); success puts it out
    if st.burn_count[c] > 0 and not st.dead[c]:
        if _save(m, st, c, 1, 2 * st.burn_saves[c], 10 + st.burn_taken[c]):
            st.burn_count[c] = 0
            st.burn_saves[c] = 0
        else:
            st.burn_saves[c] += 1
    else:
        st.burn_saves[c] = 0
    if _corrode.count(st, c) > 0 and not st.dead[c]:  # corroding likewise, on its own count (corrode.py)
        _corrode.saved(st, c, _save(m, st, c, 1, _corrode.save_bonus(st, c), _corrode.save_dc(st, c)))
    else:
        _corrode.no_save(st, c)
    if _setup.turn_ended(m, st, c):  # its grapples end (MAN-07)
        _sight_refresh(m, st, -1)
    st.acted[c] = True
    _check_end(m, st)


@_jit
def _start_turn(m: Any, st: Any, c: int) -> None:
    _expire(m, st, c, False)
    st.sc[CUR] = c
    st.react_used[c] = False
    st.charging[c] = False  # ACT-50: until the start of its next turn
    st.surprised[c] = False  # CF-11: flat-footed from surprise until its first turn
    _classes.start_turn(st, c)  # its mark ends (get 'em)
    st.sc[STD] = 0
    st.sc[MOVE] = 0
    st.sc[DIAG] = 0
    st.sc[FRESH] = 1
    _log(st.log, st.nlog, 2, st.sc[ROUND], c, st.hp[c], st.sp[c], st.rp[c], 0, 0)
    # bleeding, burning and corroding (CON-02, CON-05), in the order the creature's conditions list them: each
    # group moves to the end of the list when an instance of it is gained; every instance rolls, even on a
    # creature its group's earlier tick killed (the engine takes the list before the first tick)
    for p in range(3):
        g = _corrode.group_at(st, c, p)
        if g == _corrode.G_BLEED:
            _bleed_tick(m, st, c)
        elif g == _corrode.G_BURN:
            for i in range(st.burn_count[c]):
                raw = _roll_damage(st, st.burn_n[c, i], st.burn_s[c, i], st.burn_flat[c, i], 1)
                amount = m.mit[c, st.burn_prof[c, i], min(max(raw, 0), m.mit.shape[2] - 1)]
                _damage(m, st, c, amount, -1, -1)
                st.burn_taken[c] += amount
        else:
            for i in range(_corrode.count(st, c)):
                n, s, flat, prof = _corrode.instance(st, c, i)
                raw = _roll_damage(st, n, s, flat, 1)
                amount = m.mit[c, prof, min(max(raw, 0), m.mit.shape[2] - 1)]
                _damage(m, st, c, amount, -1, -1)
                _corrode.took(st, c, amount)
    _check_end(m, st)


@_jit
def _bleed_tick(m: Any, st: Any, c: int) -> None:
    if st.bleed_prof[c] >= 0:
        raw = _roll_damage(st, st.bleed_n[c], st.bleed_s[c], st.bleed_flat[c], 1)
        raw = min(max(raw, 0), m.mit.shape[2] - 1)
        _damage(m, st, c, m.mit[c, st.bleed_prof[c], raw], -1, -1)


@_jit
def _initiative(m: Any, st: Any) -> None:
    n = m.n
    for c in range(n):
        if m.init_given[c] > -10_000:
            st.init[c] = m.init_given[c]
        else:
            st.init[c] = _die(st, 20) + m.init_mod[c]
        _log(st.log, st.nlog, 1, 0, c, st.init[c], m.init_mod[c], 0, 0, 0)
    # sort: higher count, then higher modifier, then roll-offs (repeated among those still tied)
    keys = np.empty(n, dtype=np.int64)
    for c in range(n):
        keys[c] = -(np.int64(st.init[c]) * 1000 + m.init_mod[c]) * 64 + c  # encounter order inside a group
    idx = np.argsort(keys)
    out = 0
    i = 0
    while i < n:
        j = i
        gk = keys[idx[i]] // 64
        while j < n and keys[idx[j]] // 64 == gk:
            j += 1
        if j - i == 1:
            st.order[out] = idx[i]
            out += 1
        else:
            group = idx[i:j].copy()
            out = _roll_off(st, group, out)
        i = j


@_jit
def _roll_off(st: Any, group: NDArray[np.int64], out: int) -> int:
    """CF-04 as ``flow.sort_order`` does it: one roll-off for the tied group, highest first; those tied again
    go to :func:`_break_ties` group by group (highest roll first). Appends the order to ``st.order``."""
    g = group.shape[0]
    rolls = np.empty(g, dtype=np.int64)
    for i in range(g):
        rolls[i] = _die(st, 20)
    order = np.argsort(-rolls * 64 + np.arange(g))
    i = 0
    while i < g:
        j = i
        while j < g and rolls[order[j]] == rolls[order[i]]:
            j += 1
        if j - i == 1:
            st.order[out] = group[order[i]]
            out += 1
        else:
            sub = np.empty(j - i, dtype=np.int64)
            for q in range(i, j):
                sub[q - i] = group[order[q]]
            out = _break_ties(st, sub, out)
        i = j
    return out


@_jit
def _break_ties(st: Any, group: NDArray[np.int64], out: int) -> int:
    """``flow._break_ties``: the whole group rolls again until every roll differs, then highest first."""
    g = group.shape[0]
    rolls = np.empty(g, dtype=np.int64)
    while True:
        for i in range(g):
            rolls[i] = _die(st, 20)
        distinct = True
        for i in range(g):
            for k in range(i + 1, g):
                if rolls[i] == rolls[k]:
                    distinct = False
        if distinct:
            break
    order = np.argsort(-rolls)
    for i in range(g):
        st.order[out] = group[order[i]]
        out += 1
    return out


# ---------------------------------------------------------------- a fight, a batch
@structref.register
class _StateType(types.StructRef):
    """A numba struct passed by reference (a namedtuple of ~50 arrays would be copied into every call)."""

    def preprocess_fields(self, fields: Any) -> Any:
        return tuple((name, types.unliteral(typ)) for name, typ in fields)  # type: ignore[no-untyped-call]


@structref.register
class _ModelType(types.StructRef):
    """The model, by reference too."""

    def preprocess_fields(self, fields: Any) -> Any:
        return tuple((name, types.unliteral(typ)) for name, typ in fields)  # type: ignore[no-untyped-call]


class State(structref.StructRefProxy):
    """The mutable state of one fight (reused from fight to fight of a batch): see :data:`STATE_FIELDS`."""


class ModelStruct(structref.StructRefProxy):
    """A :class:`~sftactics.sim.kernel.model.Model` as a struct for the kernel."""


#: The fields of :class:`State`, in order.
STATE_FIELDS = (
    "sc",
    "pos",
    "hp",
    "sp",
    "temp",
    "rp",
    "dead",
    "dying",
    "stable",
    "unconscious",
    "down",
    "dropped_round",
    "dropped_own",
    "zero_rp_at_drop",
    "hp_dmg_round",
    "stab_round",
    "acted",
    "react_used",
    "ammo",
    "bleed_n",
    "bleed_s",
    "bleed_flat",
    "bleed_prof",
    "bleed_last",
    "burn_n",
    "burn_s",
    "burn_flat",
    "burn_prof",
    "burn_count",
    "burn_taken",
    "burn_saves",
    "stag_round",
    "stag_count",
    "deaf",
    "init",
    "order",
    "res",
    "crowd",
    "mates",
    "points",
    "threat_ids",
    "passable",
    "stoppable",
    "extra_k",
    "provoking",
    "dist",
    "parent",
    "heap",
    "best_cost",
    "best_prov",
    "best_state",
    "pol",
    "charging",
    "retreating",
    "focus",
    "dist2",
    "parent2",
    "heap2",
    "bc2",
    "bp2",
    "bs2",
    "dist3",
    "parent3",
    "heap3",
    "r2c",
    "r2s",
    "noprov",
    "t_foes",
    "t_friends",
    "t_zones",
    "t_tmp",
    "t_n",
    "t_rw",
    "thr",
    "thr_stamp",
    "rk",
    "rk_stamp",
    "o_v",
    "o_c",
    "o_t",
    "o_k",
    "r_v",
    "r_t",
    "r_k",
    "r_b",
    "r_a",
    "x_t",
    "x_k",
    "x_b",
    "x_a",
    "g_v",
    "g_p",
    "keys",
    "fkeys",
    "sqs",
    "sqs2",
    "costs",
    "idx",
    "cand",
    "p_v",
    "p_n",
    "p_c",
    "morale",
    "ab_spent",
    "ab_v",
    "ab_p",
    "area_cache",
    "body",
    "aw",
    "sk_seen",
    "sk_visited",
    "sk_dist",
    "sk_parent",
    "sk_heap",
    "sk_a",
    "sk_b",
    "sk_prov",
    "sk_state",
    "sk_mode",
    "surprised",
    "hide",
    "held",
    "log",
    "nlog",
    "script",
    "cover_cache",
    "pair",
    "point_cache",
)
structref.define_proxy(State, _StateType, list(STATE_FIELDS))  # type: ignore[no-untyped-call]
structref.define_proxy(ModelStruct, _ModelType, list(Model._fields))  # type: ignore[no-untyped-call]


@_jit
def _new_model(*fields: Any) -> Any:
    # built inside compiled (and cached) code: the proxy's own constructor would be compiled in every process
    return ModelStruct(*fields)  # type: ignore[no-untyped-call]


@_jit
def _new_state(*fields: Any) -> Any:
    point_cache = NumbaDict.empty(key_type=nb_types.int64, value_type=nb_types.int64)
    return State(*fields, point_cache)  # type: ignore[no-untyped-call]


def model_struct(model: Model) -> ModelStruct:
    """The model as the kernel takes it."""
    return cast(ModelStruct, _new_model(*model))


def new_state(
    n: int,
    weapons: int,
    squares: int,
    cover_cache: Any,
    log_rows: int = 0,
    script: list[int] | None = None,
    grenade_values: int = 1,
    pools: int = 1,
    area_cache: Any = None,
    sight: bool = False,
    headings: int = 1,
    pair: Any = None,
) -> tuple[State, dict[str, Any]]:
    """Buffers for fights of ``n`` combatants with ``weapons`` slots on a map of ``squares`` squares: the struct
    the kernel takes and its fields by name (the same arrays, for reading results from Python). ``log_rows``:
    room for the log (none by default: the log is optional and costs nothing when absent). ``script``: dice
    values to use, in order, before the generator's (for tests: the same dice as a scripted engine fight).
    ``grenade_values``: room for the longest grenade (or ability) distribution of the tactical policy's tables.
    ``pools``: columns of the uses spent per combatant (``Model.ab.spent0``); ``area_cache``: the map's
    (``abilities.area_cache``; a fresh one if None). ``sight``:
    room for who sees whom and the search for foes (``Model.sight``: a map with walls). ``headings``: search
    states per square and diagonal parity (``Model.hs``: 9 when someone flies, ``modes.fly_search``). ``pair``: the
    map's pair table (``geo.pair_table``; None: one that keeps nothing)."""
    if area_cache is None:
        from numba.typed import Dict as _Dict

        area_cache = _Dict.empty(key_type=nb_types.int64, value_type=nb_types.int32[:])

    def i64(k: int) -> NDArray[np.int64]:
        return np.zeros(k, dtype=np.int64)

    def b(k: int) -> NDArray[np.bool_]:
        return np.zeros(k, dtype=np.bool_)

    def f64(*shape: int) -> NDArray[np.float64]:
        return np.zeros(shape, dtype=np.float64)

    e = 2 * n * weapons + 8
    hs = headings * squares  # the search buffers: (square, parity[, heading]) states
    tactical = (
        i64(n), b(n), b(n), np.full(n, -1, dtype=np.int64),
        i64(2 * hs), np.zeros(2 * hs, dtype=np.int32), i64(16 * hs + 16),
        np.zeros(squares, dtype=np.int32), np.zeros(squares, dtype=np.int32), np.zeros(squares, dtype=np.int32),
        i64(2 * hs), np.zeros(2 * hs, dtype=np.int32), i64(16 * hs + 16),
        np.zeros(squares, dtype=np.int32), np.zeros(squares, dtype=np.int32),
        np.zeros(squares, dtype=np.bool_),
        i64(n), i64(n), i64(n), i64(n), i64(8), i64(weapons),
        f64(n), np.full(n, -1, dtype=np.int64), f64(2, squares), np.full((2, squares), -1, dtype=np.int64),
        f64(e), i64(e), i64(e), i64(e),
        f64(e), i64(e), i64(e), i64(e), i64(e),
        i64(e), i64(e), i64(e), i64(e),
        i64(grenade_values + 1), f64(grenade_values + 1),
        np.zeros((squares + 16, 5), dtype=np.int64), f64(squares + 16, 3), i64(squares + 16), i64(squares + 16),
        i64(squares + 16), i64(squares + 16), i64(2 * squares + 16),
        f64(1), i64(8), i64(6),
    )  # fmt: skip
    values = (
        i64(SCALARS), i64(n), i64(n), i64(n), i64(n), i64(n),
        b(n), b(n), b(n), b(n), b(n), i64(n), b(n), b(n), i64(n), i64(n), b(n), b(n),
        np.zeros((n, weapons), dtype=np.int64),
        i64(n), i64(n), i64(n), i64(n),
        b(n), np.zeros((n, BURNS), dtype=np.int64), np.zeros((n, BURNS), dtype=np.int64),
        np.zeros((n, BURNS), dtype=np.int64), np.zeros((n, BURNS), dtype=np.int64), i64(n), i64(n), i64(n),
        i64(n), i64(n), b(n), i64(n), i64(n),
        np.zeros((n, COLUMNS), dtype=np.int64),
        np.zeros(n, dtype=np.int32), i64(4 * n + 4), i64(4 * n + 4), i64(n),
        np.ones(squares, dtype=np.bool_), np.ones(squares, dtype=np.bool_), np.zeros(squares, dtype=np.int8),
        np.zeros(squares, dtype=np.bool_),
        i64(2 * hs), np.zeros(2 * hs, dtype=np.int32), i64(16 * hs + 16),
        np.zeros(squares, dtype=np.int32), np.zeros(squares, dtype=np.int32), np.zeros(squares, dtype=np.int32),
        *tactical,
        i64(n), np.zeros((n, pools), dtype=np.int64), i64(grenade_values + 1), f64(grenade_values + 1), area_cache,
        np.zeros((n, BODY_COLUMNS), dtype=np.int64),
        *_sight_buffers(n, squares if sight else 1, headings),
        np.zeros((log_rows, LOG_WIDTH), dtype=np.int32), i64(1),
        np.array(script or [0], dtype=np.int64),
        cover_cache,
        no_pair_table() if pair is None else pair,
    )  # fmt: skip
    values[0][SCRIPT_N] = len(script or [])
    state = _new_state(*values)  # the point cache is made in compiled code (STATE_FIELDS' last)
    return cast(State, state), dict(zip(STATE_FIELDS, values, strict=False))


def _sight_buffers(n: int, squares: int, headings: int = 1) -> tuple[Any, ...]:
    """``aw`` (awareness per pair), the search memory of each side and a scratch one (``sk_seen``: where each
    foe was last seen; ``sk_visited``), a whole-map search's buffers (``sk_*``) and ``sk_mode``."""
    i32 = np.int32
    return (
        np.full((n, n), OBSERVING, dtype=np.int64), np.full((3, n), -1, dtype=np.int64),
        np.zeros((3, squares), dtype=np.bool_),
        np.zeros(2 * headings * squares, dtype=np.int64), np.zeros(2 * headings * squares, dtype=i32),
        np.zeros(16 * headings * squares + 16, np.int64),
        np.zeros(squares, dtype=i32), np.zeros(squares, dtype=i32), np.zeros(squares, dtype=i32),
        np.zeros(squares, dtype=i32), np.full(1, -1, dtype=np.int64), np.zeros(n, dtype=np.bool_),
        np.zeros((n, n), dtype=np.bool_), np.full(n, -1, dtype=np.int64),
    )  # fmt: skip


@_jit
def _reset(m: Any, st: Any) -> None:
    script_n = st.sc[SCRIPT_N]
    for i in range(st.sc.shape[0]):
        st.sc[i] = 0
    st.sc[SCRIPT_N] = script_n
    st.sc[CUR] = -1
    st.sc[WINNER] = -1
    st.sc[CONCEDED] = -1
    st.nlog[0] = 0
    for c in range(st.focus.shape[0]):
        st.focus[c] = -1
        st.retreating[c] = False
        st.charging[c] = False
        st.thr_stamp[c] = -1
    for q in range(st.rk_stamp.shape[1]):
        st.rk_stamp[0, q] = -1
        st.rk_stamp[1, q] = -1
    for c in range(m.n):
        st.pos[c] = m.pos0[c]
        st.hp[c] = m.hp0[c]
        st.sp[c] = m.sp0[c]
        st.temp[c] = m.temp0[c]
        st.rp[c] = m.rp0[c]
        st.dead[c] = False
        st.dying[c] = False
        st.stable[c] = False
        st.unconscious[c] = False
        st.down[c] = False
        st.dropped_round[c] = -1
        st.dropped_own[c] = False
        st.zero_rp_at_drop[c] = False
        st.hp_dmg_round[c] = -1
        st.stab_round[c] = -1
        st.acted[c] = False
        st.react_used[c] = False
        for k in range(m.w_ok.shape[1]):
            st.ammo[c, k] = m.w_cap[c, k]
        for p in range(st.ab_spent.shape[1]):
            st.ab_spent[c, p] = m.ab.spent0[c, p]
        st.bleed_n[c] = 0
        st.bleed_s[c] = 0
        st.bleed_flat[c] = 0
        st.bleed_prof[c] = -1
        st.bleed_last[c] = False
        st.burn_count[c] = 0
        st.burn_taken[c] = 0
        st.burn_saves[c] = 0
        st.stag_round[c] = -1
        st.stag_count[c] = 0
        st.deaf[c] = False
        for j in range(COLUMNS):
            st.res[c, j] = 0
        st.res[c, CAUSE_A] = -1
        st.res[c, CAUSE_W] = -1
        st.res[c, DROP_A] = -1
        st.res[c, DROP_W] = -1
    reset_bodies(m, st)  # prone, lingering, and the bleeding and burning a creature starts with

    for c in range(m.n):
        st.surprised[c] = m.surprise and not m.aware[c]  # CF-11: flat-footed until its first turn
        for t in range(m.n):
            st.aw[c, t] = UNAWARE  # nothing known before the first look (``state.awareness`` is empty)
    _seek.seek_reset(m, st)
    _setup.start(m, st)  # grapples under way, nobody hiding yet
    _sight_refresh(m, st, -1)  # ``begin``: who sees whom as the fight starts (perception.refresh, forced)
    _setup.impose(m, st)  # the scenario's awareness pairs (``gm_setup.awareness_at_begin``)


# abilities, spells and morale build on this module; the simple turn reaches them through the module (numba
# resolves it when it compiles, after both are loaded)
from sftactics.sim.kernel import abilities  # noqa: E402
from sftactics.sim.kernel import classes as _classes  # noqa: E402

# the search for foes nobody has located uses the movement above, and the simple policy uses it: imported last
from sftactics.sim.kernel import seek as _seek  # noqa: E402
