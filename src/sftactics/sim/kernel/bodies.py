"""What a creature's body adds to the compiled fight: the prone condition (a knockdown critical hit, or a
creature that starts prone).

Python side (:func:`prone_fields`): the attack bonus and the AC of every attacker, weapon and target for each
combination of "the attacker is prone", "the target is prone" and "the target is down" (unconscious at 0 HP),
computed by the rules modules on the creatures with the prone condition added or removed (``sf1e.stats`` and
``sf1e.attack``, CON-29, MOD-19 and the option ``helpless_prone_stack``), so the kernel only looks them up.

Kernel side (numba): :func:`base_numbers` is the attack bonus and AC before the positions' terms for the fight's
current state (``st.body[c, PRONE]``), and :func:`knock_down` carries out the knockdown critical effect as
``criticals.apply_critical`` does (no save; nothing on a creature immune to prone or already prone). The engine's
policies never stand up (their moves do not need it), so a prone creature stays prone for the rest of the fight.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from sftactics.dice.expr import DiceExpr
from sftactics.encounter import gm_setup
from sftactics.encounter import thrown as thrown_weapons
from sftactics.encounter.state import Combatant, Encounter
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import criticals, injury, stats
from sftactics.sf1e.attack import attack_terms_against, target_ac
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.state import ConditionInstance, Creature
from sftactics.sim.kernel import setup as _setup
from sftactics.sim.kernel.bigsqueeze import SQUEEZED
from sftactics.sim.kernel.geo import _jit, alive

#: Columns of the fight state's ``body`` array (per combatant): prone (0 or 1); the turns an NPC lingering at 0 HP
#: has left (option ``npc_without_rp_at_zero``, INJ-07; 0: not lingering); the rounds of the staggered instance it
#: has (a second one replaces it only when it lasts more rounds).
PRONE, LINGER, STAG_ROUNDS = 0, 1, 2
#: (columns 4 on: the corroding instances, :mod:`~sftactics.sim.kernel.corrode`; then whether the creature stands
#: squeezed as the tactical policy last looked, :data:`~sftactics.sim.kernel.bigsqueeze.SQUEEZED`)
BODY_COLUMNS = SQUEEZED + 1
#: INJ-07: the turns a lingering NPC lasts (``injury.LINGER_ROUNDS``).
LINGER_ROUNDS = injury.LINGER_ROUNDS


#: Columns of the model's ``start_ticks`` (a bleed or burn a creature starts with): dice count, sides, flat part,
#: damage profile (-1: none).
T_N, T_S, T_FLAT, T_PROF = range(4)
#: Burning instances a creature may start with (the fight keeps ``books.BURNS``).
START_BURNS = 8
#: Conditions a creature may start with, without a duration, whose numbers the model's tables already hold
#: (computed on the creature as it starts): they change nothing else the kernel plays.
_STATIC_START = frozenset({"shaken", "sickened", "off-target"})


# ---------------------------------------------------------------- building (Python)
def start_refusals(cr: Creature) -> list[str]:
    """Why the kernel does not play the conditions ``cr`` starts with (empty when it does): deafened (which
    changes nothing the kernel plays), prone (``base_numbers``), shaken, sickened and off-target without a
    duration (their numbers are in the tables), bleeding and burning without one (they tick from the start)."""
    out: list[str] = []
    for inst in cr.state.conditions:
        name = cond.get(inst.name).name
        if name == "deafened":
            continue
        if name not in (*_STATIC_START, "prone", "bleeding", "burning"):
            out.append(name)
        elif inst.rounds is not None:
            out.append(f"{name} for {inst.rounds} rounds")
    kinds = [inst.name for inst, _ in cond.tick_expressions(cr)]
    if "bleeding" in kinds[1:-1] or kinds.count("burning") > START_BURNS:
        out.append("bleeding between burnings")
    for _, expr in cond.tick_expressions(cr):
        shape = _dice_shape(expr)
        if shape is None or shape[2] < 0:
            out.append(f"a tick of {expr}")
    return out


def _dice_shape(expr: DiceExpr) -> tuple[int, int, int] | None:
    if len(expr.parts) != 1:
        return None
    dice = [t for t in expr.parts[0].terms if not t.is_flat]
    if len(dice) > 1 or any(t.sign < 0 for t in dice):
        return None
    flat = sum(t.count * t.sign for t in expr.parts[0].terms if t.is_flat)
    return (dice[0].count, dice[0].sides, flat) if dice else (0, 1, flat)


def start_tick_fields(cs: list[Combatant], profile: object) -> tuple[NDArray[np.int32], NDArray[np.bool_]]:
    """(start_ticks, start_bleed_last): ``start_ticks[c, 0]`` the bleed ``c`` starts with, ``[c, 1:]`` its burns
    in order (``T_*`` columns, profile -1 for none); ``start_bleed_last[c]``: its bleed ticks after its burns
    (``conditions.tick_expressions``' order). ``profile(key, most)`` is the model's damage-profile registry."""
    n = len(cs)
    ticks = np.full((n, 1 + START_BURNS, 4), -1, dtype=np.int32)
    last = np.zeros(n, dtype=np.bool_)
    for c, comb in enumerate(cs):
        burns = 0
        for inst, expr in cond.tick_expressions(comb.creature):
            shape = _dice_shape(expr)
            assert shape is not None
            key: tuple[Any, ...] = ("tick", expr.parts[0].types, False, frozenset(), frozenset(), False, False)
            prof = profile(key, shape[0] * max(shape[1], 1) + shape[2])  # type: ignore[operator]
            row = 0 if inst.name == "bleeding" else 1 + burns
            ticks[c, row] = (shape[0], shape[1] if shape[0] else 0, shape[2], prof)
            if inst.name == "bleeding":
                last[c] = burns > 0
            else:
                burns += 1
    return ticks, last


def _set_prone(cr: Creature, prone: bool) -> Creature:
    if prone:
        return cr if cr.has("prone") else cond.add_condition(cr, ConditionInstance(name="prone"))
    return cond.remove_condition(cr, "prone") if cr.has("prone") else cr


def _down(cr: Creature) -> Creature:
    return cond.add_condition(cond.add_condition(cr, ConditionInstance(name="unconscious")),
                              ConditionInstance(name="dying"))  # fmt: skip


def knocks_down(cs: list[Combatant]) -> bool:
    """Whether anyone in the fight can fall prone or starts prone (else the prone tables are left out)."""
    return any(c.creature.has("prone") for c in cs) or _knockdown_weapons(cs)


def _knockdown_weapons(cs: list[Combatant]) -> bool:
    for c in cs:
        for w in c.creature.stat.weapons:
            eff = criticals.parse_critical(w.critical) if w.critical else None
            if eff is not None and eff.name == "knockdown":
                return True
    return False


def knockdown_in_zero_gravity(enc: Encounter) -> bool:
    """Whether someone could be knocked down where there is no gravity (off-kilter instead: the engine's). Gravity
    changes nothing else the kernel plays: the engine reads it only for a knockdown or a trip (``gm_setup``)."""
    zero = [c for c in enc.combatants.values() if gm_setup.zero_gravity(enc, c.id)]
    return bool(zero) and _knockdown_weapons(list(enc.combatants.values()))


def prone_fields(
    cs: list[Combatant], wmax: int, opts: Sf1eOptions
) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.bool_], NDArray[np.bool_]]:
    """(pr_atk, pr_ac, prone0, immune_prone): ``pr_atk[a, k, t, i]`` and ``pr_ac[...]`` for the state index
    ``i`` = 4 x attacker prone + 2 x target prone + target down (the kernel's :func:`base_numbers`); who starts
    prone; who cannot be knocked prone. Tiny placeholders when nobody can be prone (:func:`knocks_down`)."""
    n = len(cs)
    prone0 = np.array([c.creature.has("prone") for c in cs], dtype=np.bool_)
    immune = np.array([cond.is_immune(c.creature, "prone") for c in cs], dtype=np.bool_)
    if not knocks_down(cs):
        return np.zeros((1, 1, 1, 8), np.int32), np.zeros((1, 1, 1, 8), np.int32), prone0, immune
    atk = np.zeros((n, wmax, n, 8), dtype=np.int32)
    ac = np.zeros((n, wmax, n, 8), dtype=np.int32)
    upright = [_set_prone(c.creature, False) for c in cs]
    variants = [[_set_prone(cr, False), _set_prone(cr, True)] for cr in upright]
    targets = [[[v, _down(v)] for v in pair] for pair in variants]  # [prone][down]
    for i, c in enumerate(cs):
        for k, weapon in enumerate(c.creature.stat.weapons):
            if weapon.is_grenade:
                continue
            w = thrown_weapons.as_used(weapon, False)
            for j in range(n):
                if j == i:
                    continue
                for idx in range(8):
                    a_cr = variants[i][idx >> 2]
                    t_cr = targets[j][(idx >> 1) & 1][idx & 1]
                    extra = attack_terms_against(a_cr, t_cr, w, opts)
                    atk[i, k, j, idx] = stats.attack_bonus(a_cr, w, extra=extra, options=opts).total
                    ac[i, k, j, idx] = target_ac(a_cr, t_cr, w, options=opts)[2].total
    return atk, ac, prone0, immune


def upright_numbers(
    pr_atk: NDArray[np.int32], pr_ac: NDArray[np.int32], prone0: NDArray[np.bool_], arrays: dict[str, Any]
) -> None:
    """A creature that starts prone: the model's plain tables (``atk``, ``ac``, ``atk_down``, ``ac_down``) are
    those of upright creatures (the kernel adds prone through :func:`base_numbers`)."""
    if not prone0.any():
        return
    n, w = pr_atk.shape[0], pr_atk.shape[1]
    arrays["atk"][:, :w, :n] = pr_atk[:, :, :, 0]
    arrays["ac"][:, :w, :n] = pr_ac[:, :, :, 0]
    arrays["atk_down"][:, :w, :n] = pr_atk[:, :, :, 1]
    arrays["ac_down"][:, :w, :n] = pr_ac[:, :, :, 1]


# ---------------------------------------------------------------- the fight (numba)
@_jit
def base_numbers(m: Any, st: Any, a: int, k: int, t: int, down: bool) -> tuple[int, int]:
    """(attack bonus, AC) of ``a``'s weapon ``k`` against ``t`` before the positions' terms: the model's plain
    tables, or its prone tables when either creature is prone (CON-29); a target still surprised is flat-footed
    (``sight``'s tables, CF-11); a grapple under way adds what ``kernel.setup`` worked out (``held_d``). It calls
    no other compiled function, so its reference counts can be pruned (``geo.alive``): the policy asks it for
    every square and foe it weighs."""
    pa = st.body[a, PRONE]
    pt = st.body[t, PRONE]
    surprised = st.surprised[t] and not down  # flat-footed until its first turn (CF-11); down covers it
    if pa == 0 and pt == 0:
        if down:
            atk, ac = int(m.atk_down[a, k, t]), int(m.ac_down[a, k, t])
        elif surprised:
            atk, ac = int(m.atk_ff[a, k, t]), int(m.ac_ff[a, k, t])
        else:
            atk, ac = int(m.atk[a, k, t]), int(m.ac[a, k, t])
    else:
        i = 4 * pa + 2 * pt + (1 if down else 0)
        atk, ac = int(m.pr_atk[a, k, t, i]), int(m.pr_ac[a, k, t, i])
        if surprised:  # prone and flat-footed: penalties of two sources stack (BON-*), so the difference adds
            atk += int(m.atk_ff[a, k, t]) - int(m.atk[a, k, t])
            ac += int(m.ac_ff[a, k, t]) - int(m.ac[a, k, t])
    if m.setup:  # a grapple under way: the held creature's penalties (``kernel.setup``)
        if st.held[a] >= 0:
            atk += int(m.held_d[a, _setup.H_ATK])
        if st.held[t] >= 0:
            ac += int(m.held_d[t, _setup.H_AC_DOWN] if down else m.held_d[t, _setup.H_AC])
    alive(m, st)
    return atk, ac


@_jit
def knock_down(m: Any, st: Any, t: int) -> bool:
    """The knockdown critical effect (ATK-15, MOD-18): ``t`` falls prone unless immune or already prone."""
    if m.immune_prone[t] or st.body[t, PRONE]:
        return False
    st.body[t, PRONE] = 1
    return True


@_jit
def reset_bodies(m: Any, st: Any) -> None:
    """The start of a fight: who is prone, and the bleeding and burning each creature starts with (after the
    fight's own reset, which clears them)."""
    for c in range(m.n):
        for j in range(st.body.shape[1]):
            st.body[c, j] = 0
        st.body[c, PRONE] = 1 if m.prone0[c] else 0
        if m.start_ticks[c, 0, T_PROF] >= 0:
            st.bleed_n[c] = m.start_ticks[c, 0, T_N]
            st.bleed_s[c] = m.start_ticks[c, 0, T_S]
            st.bleed_flat[c] = m.start_ticks[c, 0, T_FLAT]
            st.bleed_prof[c] = m.start_ticks[c, 0, T_PROF]
        count = 0
        for i in range(1, m.start_ticks.shape[1]):
            if m.start_ticks[c, i, T_PROF] < 0:
                break
            st.burn_n[c, count] = m.start_ticks[c, i, T_N]
            st.burn_s[c, count] = m.start_ticks[c, i, T_S]
            st.burn_flat[c, count] = m.start_ticks[c, i, T_FLAT]
            st.burn_prof[c, count] = m.start_ticks[c, i, T_PROF]
            count += 1
        st.burn_count[c] = count
        st.bleed_last[c] = m.start_bleed_last[c]
