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

The parts live in modules of their own, in the order they build on each other: :mod:`~sftactics.sim.kernel.books`
(the scalars, the log, the dice, who sees whom), :mod:`~sftactics.sim.kernel.injury`,
:mod:`~sftactics.sim.kernel.attacks`, :mod:`~sftactics.sim.kernel.movement`, :mod:`~sftactics.sim.kernel.grenades`,
:mod:`~sftactics.sim.kernel.flow` and :mod:`~sftactics.sim.kernel.simple`. This module holds the fight's state and
model as numba structs, a fresh state and its reset between the fights of a batch, and names the result columns,
log kinds and policies for the callers (``run``, the tests).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from numba.core import types
from numba.core import types as nb_types
from numba.experimental import structref
from numba.typed import Dict as NumbaDict
from numpy.typing import NDArray

from sftactics.sim.kernel import seek as _seek
from sftactics.sim.kernel import setup as _setup
from sftactics.sim.kernel.attacks import _attack_numbers
from sftactics.sim.kernel.bodies import BODY_COLUMNS, reset_bodies
from sftactics.sim.kernel.books import (
    BURNS,
    CAUSE,
    CAUSE_A,
    CAUSE_MASSIVE,
    CAUSE_RP,
    CAUSE_W,
    CAUSE_ZERO_HP,
    COLUMNS,
    CONCEDED,
    CUR,
    DEALT,
    DIED,
    DROP_A,
    DROP_W,
    DYING_END,
    F_CONCEDED,
    F_REASON,
    F_ROUNDS,
    F_WINNER,
    KO,
    LOG_ATTACK,
    LOG_COND,
    LOG_DAMAGE,
    LOG_DIE,
    LOG_END,
    LOG_GRENADE,
    LOG_INIT,
    LOG_MOVE,
    LOG_PLAN,
    LOG_RESOLVE,
    LOG_SAVE,
    LOG_TURN,
    LOG_WIDTH,
    POLICY_SIMPLE,
    POLICY_TACTICAL,
    REASON_CONCEDE,
    REASON_LIMIT,
    REASON_SC,
    ROUND,
    RP_LOST,
    RP_SPENT,
    SCALARS,
    SCRIPT_N,
    TAKEN,
    WINNER,
    _sight_refresh,
)
from sftactics.sim.kernel.geo import _jit, no_pair_table
from sftactics.sim.kernel.model import Model
from sftactics.sim.kernel.sight import OBSERVING, UNAWARE

__all__ = [
    "BURNS",
    "CAUSE",
    "CAUSE_A",
    "CAUSE_MASSIVE",
    "CAUSE_RP",
    "CAUSE_W",
    "CAUSE_ZERO_HP",
    "COLUMNS",
    "CONCEDED",
    "CUR",
    "DEALT",
    "DIED",
    "DROP_A",
    "DROP_W",
    "DYING_END",
    "F_CONCEDED",
    "F_REASON",
    "F_ROUNDS",
    "F_WINNER",
    "KO",
    "LOG_ATTACK",
    "LOG_COND",
    "LOG_DAMAGE",
    "LOG_DIE",
    "LOG_END",
    "LOG_GRENADE",
    "LOG_INIT",
    "LOG_MOVE",
    "LOG_PLAN",
    "LOG_RESOLVE",
    "LOG_SAVE",
    "LOG_TURN",
    "LOG_WIDTH",
    "POLICY_SIMPLE",
    "POLICY_TACTICAL",
    "REASON_CONCEDE",
    "REASON_LIMIT",
    "REASON_SC",
    "ROUND",
    "RP_LOST",
    "RP_SPENT",
    "SCALARS",
    "SCRIPT_N",
    "STATE_FIELDS",
    "TAKEN",
    "WINNER",
    "ModelStruct",
    "State",
    "_attack_numbers",
    "model_struct",
    "new_state",
]


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
        f64(2), i64(16), i64(12),
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
