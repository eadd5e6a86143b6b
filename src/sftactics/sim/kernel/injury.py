"""Damage and injury in the compiled fight (INJ-*, DMG-10, DMG-13): Stamina then Hit Points, dying, death,
massive damage, Resolve lost, nonlethal damage knocking out at 0 HP, and the results' tallies."""

from __future__ import annotations

from typing import Any

from sftactics.sim.kernel.bodies import LINGER, LINGER_ROUNDS
from sftactics.sim.kernel.books import CUR, ROUND, _down_now, _log
from sftactics.sim.kernel.geo import _jit


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
