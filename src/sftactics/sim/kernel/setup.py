"""A scenario's setup in the compiled kernel (``encounter.gm_setup``): awareness the scenario imposes, cover the
GM imposes, and a grapple already under way.

* **Awareness per pair** (SEN-03..10): ``begin`` looks around (every pair as the senses give it), then sets the
  pairs the scenario names, lowered to what the observer's senses could reach (their ceiling). A pair set below
  what the senses give without a check counts as the target hiding from that observer: the pair keeps what it
  was set to (never more than the ceiling) until the target attacks, which gives its hiding up; the command's
  end then looks at every pair again (``perception.after_attack``, ``refresh``). The model's ``aw0`` and
  ``hide0`` are worked out here with the engine's own ``perception.observation`` at the starting squares; the
  fight's ``st.hide`` holds the pairs still hiding (its diagonal: an attacker gave its hiding up and every pair
  is to be looked at again when the command ends). Combatants that start hidden hide from every opponent in the
  same way; a pair aware of presence only sends the policies to Search (``kernel.stealth``).
* **Imposed cover** (MOD-12..14): ``imp[t, a]`` the cover the GM gives ``t`` against ``a`` (against everyone it
  also counts against area effects: ``imp_all``); attacks take it when it beats the map's (a larger AC bonus;
  total cover always, and refuses the attack), and partial cover or better stops attacks of opportunity
  (MOD-09). Cover imposed for a number of rounds is the engine's.
* **A grapple under way** (MAN-05..07, CON-20, CON-28): the held creature's numbers move by the grappled (or
  pinned) condition's penalties to attacks, AC and Reflex (``held_d``: the difference the engine's stats give
  with and without the condition), it takes no attack of opportunity, and the grapple ends when the grappler
  moves away or at the end of its turn. The kernel plays a grapple whose grappler has the fight's first turn
  (a fight under way, ``timeline.turn``): the held creature never has a turn while held, so its own choices
  (it cannot move, escaping) never arise. Other grapples are the engine's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sftactics.encounter import perception
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid.cover import CoverKind, cover_terms
from sftactics.grid.space import Size, footprint_side
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import maneuvers, stats
from sftactics.sf1e.attack import attack_terms_against, target_ac
from sftactics.sf1e.senses import Awareness
from sftactics.sf1e.state import ConditionInstance
from sftactics.sim.kernel import stealth
from sftactics.sim.kernel.geo import _jit, distance_ft
from sftactics.sim.kernel.sight import LOCATED, OBSERVING, UNAWARE, line_of_effect, line_of_sight

#: Columns of ``held_d``: the held creature's attack, AC, AC while down, Reflex and Reflex while down, each as
#: the difference the grapple makes.
H_ATK, H_AC, H_AC_DOWN, H_REF, H_REF_DOWN = range(5)
_PARTIAL = int(CoverKind.PARTIAL)
_TOTAL = int(CoverKind.TOTAL)
_REF = 1  # the Reflex column of the model's saves


# ---------------------------------------------------------------- Python side
def _grapple_condition(g: Any) -> ConditionInstance:
    return ConditionInstance(name="pinned" if g.pinned else "grappled", source=g.grappler)


def stripped(enc: Encounter) -> Encounter:
    """``enc`` with the grapples under way taken off the held creatures (the kernel's tables are those of the
    creatures free; the grapple's penalties ride on top, ``held_d``)."""
    if enc.setup is None or not enc.setup.grapples:
        return enc
    cs = dict(enc.combatants)
    for g in enc.setup.grapples:
        c = cs.get(g.target)
        if c is not None:
            cs[g.target] = c.model_copy(update={"creature": maneuvers.release(c.creature, g.grappler)})
    return enc.model_copy(update={"combatants": cs})


def refusals(enc: Encounter) -> list[str]:
    """What of ``enc``'s setup the kernel leaves to the engine (empty when it plays all of it)."""
    s = enc.setup
    if s is None:
        return []
    out: list[str] = []
    if any(footprint_side(Size(c.creature.stat.size)) > 1 for c in enc.combatants.values()):
        out.append("a scenario's setup with a creature bigger than a square (hiding and held between spaces: the "
                   "engine's)")  # fmt: skip
    if s.awareness and enc.track_awareness:
        try:
            imposed_pairs(enc)
        except (KeyError, ValueError):
            out.append("awareness set by the scenario for combatants not on the map (the engine's)")
    at = enc.start_at
    for g in s.grapples:
        if at is None or at.turn != g.grappler:
            out.append("a grapple under way whose grappler does not have the first turn (the engine's)")
        elif enc.combatants[g.target].initiative is None:
            out.append("a grapple under way on a combatant whose initiative is rolled (the engine's)")
    if s.grapples and len({g.target for g in s.grapples}) < len(s.grapples):
        out.append("a combatant held by two grapples (the engine's)")
    if any(spec.rounds is not None for spec in s.cover):
        out.append("cover imposed for a number of rounds (the engine's)")
    if not out and s.grapples:
        try:
            _held_deltas(enc, list(stripped(enc).combatants.values()))
        except ValueError as e:
            out.append(str(e))
    return out


def imposed_pairs(enc: Encounter) -> dict[str, tuple[int, bool]]:
    """``gm_setup.awareness_at_begin`` at the starting squares: each pair the scenario names -> (its state,
    whether the target then hides from the observer)."""
    out: dict[str, tuple[int, bool]] = {}
    s = enc.setup
    if s is None:
        return out
    for k, v in s.awareness.items():
        o, t = k.split(">", 1)
        obs = perception.observation(enc, enc.combatants[o], enc.combatants[t])
        want = min(Awareness(v), obs.ceiling)
        out[k] = (int(want), want < obs.awareness)
    return out


def _held_deltas(enc: Encounter, cs: list[Combatant]) -> dict[int, tuple[int, list[int]]]:
    """For each held combatant (its index in ``cs``, the creatures free): (its grappler's index, the deltas
    ``held_d``). Raises ValueError when the penalties are not one number per column (the engine's then)."""
    opts = enc.options
    ids = [c.id for c in cs]
    out: dict[int, tuple[int, list[int]]] = {}
    assert enc.setup is not None
    for g in enc.setup.grapples:
        h = ids.index(g.target)
        free = cs[h].creature
        held = cond.add_condition(free, _grapple_condition(g))
        down_f = cond.add_condition(cond.add_condition(free, ConditionInstance(name="unconscious")),
                                    ConditionInstance(name="dying"))  # fmt: skip
        down_h = cond.add_condition(cond.add_condition(held, ConditionInstance(name="unconscious")),
                                    ConditionInstance(name="dying"))  # fmt: skip
        cols: list[set[int]] = [set() for _ in range(5)]
        for j, t in enumerate(cs):
            if j == h:
                continue
            for w in free.stat.weapons:
                if w.is_grenade:
                    continue
                a1 = stats.attack_bonus(held, w, extra=attack_terms_against(held, t.creature, w, opts), options=opts)
                a0 = stats.attack_bonus(free, w, extra=attack_terms_against(free, t.creature, w, opts), options=opts)
                cols[H_ATK].add(a1.total - a0.total)
            for w in t.creature.stat.weapons:
                if w.is_grenade:
                    continue
                tc = t.creature
                cols[H_AC].add(_ac(tc, held, w, opts) - _ac(tc, free, w, opts))
                cols[H_AC_DOWN].add(_ac(tc, down_h, w, opts) - _ac(tc, down_f, w, opts))
        cols[H_REF].add(_ref(held, opts) - _ref(free, opts))
        cols[H_REF_DOWN].add(_ref(down_h, opts) - _ref(down_f, opts))
        if any(len(col) > 1 for col in cols):
            raise ValueError(f"a grapple under way whose penalties differ by weapon ({g.target}: the engine's)")
        out[h] = (ids.index(g.grappler), [next(iter(col), 0) for col in cols])
    return out


def _ac(attacker: Any, target: Any, w: Any, opts: Any) -> int:
    return int(target_ac(attacker, target, w, options=opts)[2].total)


def _ref(cr: Any, opts: Any) -> int:
    return int(stats.save_bonus(cr, "ref", options=opts).total)


def fields(enc: Encounter, cs: list[Combatant]) -> dict[str, Any]:
    """The model's setup fields (``cs``: the combatants in the model's order, grapples taken off)."""
    s = enc.setup
    hidden = stealth.hidden_pairs(enc)  # combatants that start hidden hide from every opponent (``kernel.stealth``)
    if s is None and not hidden:
        return {}
    n = len(cs)
    ids = [c.id for c in cs]
    aw0 = np.full((n, n), -1, dtype=np.int32)
    hide0 = np.zeros((n, n), dtype=np.bool_)
    for k, v in hidden.items():
        o, t = (ids.index(x) for x in k.split(">", 1))
        aw0[o, t], hide0[o, t] = v, True
    if enc.track_awareness and s is not None:
        for k, (v, hide) in imposed_pairs(enc).items():
            o, t = (ids.index(x) for x in k.split(">", 1))
            aw0[o, t], hide0[o, t] = v, hide or bool(hide0[o, t])
    held0 = np.full(n, -1, dtype=np.int32)
    held_d = np.zeros((n, 5), dtype=np.int32)
    for h, (g, deltas) in _held_deltas(enc, cs).items() if s is not None else ():
        held0[h] = g
        held_d[h] = deltas
    imp = np.zeros((n, n), dtype=np.int32)
    imp_all = np.zeros(n, dtype=np.int32)
    for spec in s.cover if s is not None else ():
        t = ids.index(spec.target)
        kind = int(CoverKind[spec.cover.upper()])
        if not spec.against:
            imp_all[t] = max(imp_all[t], kind)
        for a in range(n):
            if not spec.against or ids[a] in spec.against:
                imp[t, a] = max(imp[t, a], kind)
    return {"setup": True, "aw0": aw0, "hide0": hide0, "held0": held0, "held_d": held_d, "imp": imp,
            "imp_all": imp_all}  # fmt: skip


def needs_sight(enc: Encounter) -> bool:
    """Awareness set by the scenario, or someone hidden: the kernel tracks who sees whom even on a map without
    walls."""
    if stealth.needs_stealth(enc):
        return True
    return bool(enc.setup is not None and enc.setup.awareness and enc.track_awareness)


def cover_wins(imposed: int, kind: int) -> bool:
    """``gm_setup.wins`` (for the tests)."""
    if imposed == 0:
        return False
    return imposed == _TOTAL or sum(t.value for t in cover_terms(CoverKind(imposed))[0]) > sum(
        t.value for t in cover_terms(CoverKind(kind))[0]
    )


# ---------------------------------------------------------------- kernel side
@_jit
def start(m: Any, st: Any) -> None:
    """Before ``begin`` looks around: nobody hides yet, the grapples under way hold."""
    for c in range(m.n):
        st.held[c] = m.held0[c] if m.setup else -1
        for t in range(m.n):
            st.hide[c, t] = False


@_jit
def impose(m: Any, st: Any) -> None:
    """After ``begin`` looked around: the scenario's pairs (``gm_setup.awareness_at_begin``)."""
    if not m.setup:
        return
    for o in range(m.n):
        for t in range(m.n):
            if m.aw0[o, t] >= 0:
                st.aw[o, t] = m.aw0[o, t]
                st.hide[o, t] = m.hide0[o, t]


@_jit
def hiding_pair(m: Any, st: Any, o: int, t: int) -> None:
    """``perception.compute`` for a pair whose target hides from its observer: what the pair holds, never more
    than the senses could reach (a line of sight, and in the dark darkvision reaching: observing; a line of
    effect: its location; else nothing). Hiding, it is not heard fighting."""
    pa, pt = st.pos[o], st.pos[t]
    ceiling = UNAWARE
    if line_of_sight(st.cover_cache, st.pair, m.map_id, pa, pt) and (
        not m.dark[pt] or m.dv_ft[o] >= distance_ft(pa, pt, m.width)
    ):
        ceiling = OBSERVING
    elif line_of_effect(st.cover_cache, st.pair, m.map_id, pa, pt):
        ceiling = LOCATED
    st.aw[o, t] = min(st.aw[o, t], ceiling)


@_jit
def attacked(m: Any, st: Any, a: int) -> None:
    """``perception.after_attack``: the attacker gives its hiding up (every pair is looked at again when the
    command ends: :func:`pending`)."""
    if not m.setup:
        return
    for o in range(m.n):
        if o != a and st.hide[o, a]:
            st.hide[o, a] = False
            st.hide[a, a] = True


@_jit
def pending(m: Any, st: Any) -> bool:
    """Someone gave its hiding up in this command (its pairs are not looked at yet)."""
    if not m.setup:
        return False
    for c in range(m.n):  # noqa: SIM110 (numba)
        if st.hide[c, c]:
            return True
    return False


@_jit
def take_pending(m: Any, st: Any) -> bool:
    """:func:`pending`, cleared (the caller looks at every pair)."""
    out = pending(m, st)
    if out:
        for c in range(m.n):
            st.hide[c, c] = False
    return out


@_jit
def save_delta(m: Any, st: Any, c: int, which: int, down: bool) -> int:
    """What a grapple under way adds to ``c``'s save (Reflex only)."""
    if not m.setup or which != _REF or st.held[c] < 0:
        return 0
    return int(m.held_d[c, H_REF_DOWN] if down else m.held_d[c, H_REF])


@_jit
def no_aoo(m: Any, st: Any, e: int, c: int) -> bool:
    """``reactions.can_take_aoo``'s setup reasons: ``e`` is held (grappled or pinned: no attacks of
    opportunity, CON-20, CON-28), or ``c`` has cover from ``e`` imposed by the GM, partial or better (MOD-09)."""
    if not m.setup:
        return False
    return bool(st.held[e] >= 0 or m.imp[c, e] >= _PARTIAL)


@_jit
def with_imposed(m: Any, t: int, a: int, kind: int) -> int:
    """``space._with_imposed_cover``: the imposed cover of ``t`` against ``a`` (``a < 0``: an area effect, only
    cover imposed against everyone) when it beats the map's ``kind``. The map's total cover stays total: the
    engine refuses the attack (or keeps the creature out of the area) before it looks at the GM's cover, which
    never opens a line of effect the walls close (MOD-14)."""
    if not m.setup or kind == _TOTAL:
        return kind
    imp = m.imp_all[t] if a < 0 else m.imp[t, a]
    if imp == 0:
        return kind
    if imp == _TOTAL or m.cover_ac[imp] > m.cover_ac[kind]:
        return int(imp)
    return kind


@_jit
def moved(m: Any, st: Any, c: int) -> None:
    """``tactics.release_held``: whoever ``c`` holds is free once it moves away (MAN-07)."""
    if not m.setup:
        return
    for t in range(m.n):
        if st.held[t] == c:
            st.held[t] = -1


@_jit
def turn_ended(m: Any, st: Any, c: int) -> bool:
    """The end of ``c``'s turn: the grapples it holds end (not renewed, MAN-07); whether a pending look at every
    pair is due."""
    moved(m, st, c)
    return pending(m, st)


__all__ = ["fields", "imposed_pairs", "refusals", "stripped"]
