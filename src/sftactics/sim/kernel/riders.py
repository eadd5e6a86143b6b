"""Attack riders and marks compiled into arrays for the compiled kernel (issue 16): the operative's *trick attack*
and the envoy's *get 'em* as the bundled pregens carry them (``sf1e.usable``: ``rider``, ``mark``).

Every number comes from the rules modules, once per encounter: the rider's skill bonus (``stats.skill_bonus`` of
the skill ``class_abilities.best_skill`` picks) and its DC against each target (``class_abilities.check_dc``), the
weapons it may be used with (``class_abilities.check_rider_weapon``), its extra dice, whether a target is
flat-footed already (``conditions.active``: then the rider adds nothing, ``encounter.class_moves``), and the
attack bonus a mark adds for each attacker, weapon and set of marks in force (``stats.attack_bonus`` with the
marks' modifiers on the attacker: typed bonuses do not stack, morale needs Intelligence, BON-01, BON-10). The
tactical policy's numbers are ``sim.class_choices``': the chance of the check (``skill_chance``), the AC the
flat-footed term gives in its valuation (``odds.AttackBasis``), and the damage distributions of the weapon with
the extra dice (``odds.damage_table``, as :mod:`~sftactics.sim.kernel.tables` makes the plain ones).
:mod:`~sftactics.sim.kernel.classes` plays them.

:func:`unsupported` names what the kernel leaves to the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from sftactics.core.breakdown import Term
from sftactics.core.errors import RuleViolation
from sftactics.encounter import thrown as thrown_weapons
from sftactics.encounter.flow import SURPRISED
from sftactics.encounter.state import Combatant, Encounter
from sftactics.sf1e import class_abilities as ca
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats
from sftactics.sf1e.statblock import ModifierSpec, Weapon
from sftactics.sf1e.state import ConditionInstance
from sftactics.sf1e.usable import UsableAbility
from sftactics.sim import odds
from sftactics.sim.kernel import sight
from sftactics.sim.kernel.tables import NEED_HI, NEED_LO, NEEDS

#: the most creatures with a mark the kernel plays in one fight (the bonus table has a row per set of marks)
MAX_MARKERS = 4


class RidersMarks(NamedTuple):
    """Riders and marks of N combatants (W weapon slots; M creatures with a mark; X miss-chance slots)."""

    rider: NDArray[np.int32]  # [N] the rider ability's slot (-1: none)
    r_ok: NDArray[np.bool_]  # [N, W] the weapon qualifies (``check_rider_weapon``)
    r_check: NDArray[np.bool_]  # [N] a skill check comes first
    r_bonus: NDArray[np.int32]  # [N] the skill bonus
    r_dc: NDArray[np.int32]  # [N, N] the DC against each target
    r_p: NDArray[np.float64]  # [N, N] its chance (``class_choices.skill_chance``)
    r_xn: NDArray[np.int32]  # [N] extra dice: count and sides (0: none)
    r_xs: NDArray[np.int32]
    r_ff: NDArray[np.bool_]  # [N] the target is flat-footed against the attack
    r_move: NDArray[np.bool_]  # [N] a move up to its speed may come first
    ff_already: NDArray[np.bool_]  # [N] flat-footed whatever happens (non-proficient powered armor)
    ff_val: NDArray[np.int32]  # [N, W, N, 2] the policy's AC change for flat-footed (target surprised or not)
    b_off: NDArray[np.int64]  # [N, W, N, NEEDS, X] one attack with the extra dice: distribution offset
    b_len: NDArray[np.int32]
    b_hit: NDArray[np.float64]
    b_val: NDArray[np.int32]
    b_prob: NDArray[np.float64]
    mark: NDArray[np.int32]  # [N] the mark ability's slot (-1: none)
    mk_rng: NDArray[np.int32]  # [N] its range in feet (0: no limit in the policies)
    mk_bonus: NDArray[np.int32]  # [N] its bonus (the tactical policy's value)
    mk_index: NDArray[np.int32]  # [N] its bit in the sets of marks (-1: no mark)
    mk_delta: NDArray[np.int32]  # [N, W, 2^M] what a set of marks on the target adds to the attack bonus


def _rider(c: Combatant) -> list[tuple[int, UsableAbility]]:
    return [(j, a) for j, a in enumerate(c.creature.stat.specials) if a.rider is not None]


def _marks(c: Combatant) -> list[tuple[int, UsableAbility]]:
    """The marks the policies use (``class_choices``: a move action)."""
    return [(j, a) for j, a in enumerate(c.creature.stat.specials) if a.mark is not None and a.action == "move"]


def unsupported(enc: Encounter) -> list[str]:
    """Riders and marks the kernel leaves to the engine, with why."""
    out: list[str] = []
    markers = 0
    for c in enc.combatants.values():
        riders, marks = _rider(c), _marks(c)
        markers += bool(marks)
        if len(riders) > 1 or len(marks) > 1:
            out.append(f"{c.id}: more than one attack rider or mark")
        if (riders or marks) and c.creature.stat.size not in ("medium", "small"):
            out.append(f"{c.id}: an attack rider or a mark used by a creature that is not Small or Medium")
        for _, ab in (*riders, *marks):
            if ab.uses is not None or ab.resolve_cost or ab.pool is not None:
                out.append(f"{c.id}: {ab.name} has uses or a Resolve cost (the kernel plays unlimited ones)")
            if ab.mark is not None and ab.range_ft == 0:
                out.append(f"{c.id}: {ab.name} reaches a foe only by touch (the policies mark at any distance)")
        for _, ab in riders:
            assert ab.rider is not None
            for w in c.creature.stat.weapons:
                if _qualifies(ab, w) and len(w.damage_expr.parts) != 1:
                    out.append(f"{c.id}: {ab.name} with {w.name}, whose damage has several parts")
            if ab.rider.extra_damage and _one_die(ab.rider.extra_damage) is None:
                out.append(f"{c.id}: {ab.name}'s extra damage {ab.rider.extra_damage} (one kind of die)")
            check = ab.rider.check
            if check is not None:
                skill = ca.best_skill(c.creature, check)
                base = stats.skill_bonus(c.creature, skill).total
                for name in ("prone", "deafened", "staggered"):
                    other = cond.add_condition(c.creature, ConditionInstance(name=name))
                    if stats.skill_bonus(other, skill).total != base:
                        out.append(f"{c.id}: {ab.name}'s {skill} check changes while {name}")
    if markers > MAX_MARKERS:
        out.append(f"more than {MAX_MARKERS} creatures with a mark (get 'em)")
    return out


def _qualifies(ab: UsableAbility, w: Weapon) -> bool:
    assert ab.rider is not None
    if w.is_grenade:
        return False
    try:
        ca.check_rider_weapon(ab, ab.rider, w)
    except RuleViolation:
        return False
    return True


def _boosted(w: Weapon, dice: str | None) -> Weapon:
    return ca.with_extra_damage(w, dice) if dice else w


def _one_die(text: str) -> tuple[int, int] | None:
    """(count, sides) of extra damage written as one kind of die (``2d8``), else None."""
    from sftactics.dice.expr import parse

    expr = parse(text)
    terms = expr.parts[0].terms if len(expr.parts) == 1 else ()
    if len(terms) != 1 or terms[0].is_flat or terms[0].sign < 0:
        return None
    return terms[0].count, terms[0].sides


def build(enc: Encounter, cs: list[Combatant], wmax: int, profile: Callable[[tuple[Any, ...], int], int],
          tactical: bool) -> RidersMarks:  # fmt: skip
    """The arrays for ``cs`` (the encounter's order). ``profile(key, most)`` raises the model's mitigation table
    to the largest roll of a weapon with the extra dice (the weapon's own profile key, ``model``)."""
    opts = enc.options
    n = len(cs)
    rider = np.full(n, -1, dtype=np.int32)
    r_ok = np.zeros((n, wmax), dtype=np.bool_)
    r_check = np.zeros(n, dtype=np.bool_)
    r_bonus = np.zeros(n, dtype=np.int32)
    r_dc = np.zeros((n, n), dtype=np.int32)
    r_p = np.ones((n, n), dtype=np.float64)
    r_xn, r_xs = np.zeros(n, dtype=np.int32), np.ones(n, dtype=np.int32)
    r_ff, r_move = np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_)
    ff_already = np.array(["flat-footed" in cond.active(c.creature) for c in cs], dtype=np.bool_)
    mark = np.full(n, -1, dtype=np.int32)
    mk_rng, mk_bonus, mk_index = np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int32), np.full(n, -1, np.int32)
    from sftactics.sim.class_choices import skill_chance

    for i, c in enumerate(cs):
        for j, ab in _rider(c)[:1]:
            r = ab.rider
            assert r is not None
            rider[i] = j
            r_ff[i], r_move[i] = r.flat_footed, r.move
            if r.extra_damage:
                r_xn[i], r_xs[i] = _one_die(r.extra_damage) or (0, 1)
            for k, w in enumerate(c.creature.stat.weapons):
                r_ok[i, k] = _qualifies(ab, w)
                if r_ok[i, k] and r.extra_damage:
                    used = thrown_weapons.as_used(w, False)
                    bonus = stats.damage_bonus(c.creature, used, options=opts).total
                    expr = _boosted(used, r.extra_damage).damage_expr
                    flat = sum(t.count * t.sign for t in expr.parts[0].terms if t.is_flat)
                    top = sum(t.count * t.sides for t in expr.parts[0].terms if not t.is_flat)
                    # the weapon's own profile (``model.compile_encounter``), raised to the boosted roll's maximum
                    key = ("weapon", expr.parts[0].types, used.magic, used.materials, used.alignment,
                           c.creature.stat.incorporeal, used.nonlethal)  # fmt: skip
                    profile(key, 2 * (top + flat + bonus))
            if r.check is not None:
                r_check[i] = True
                skill = ca.best_skill(c.creature, r.check)
                r_bonus[i] = stats.skill_bonus(c.creature, skill).total
                for t, other in enumerate(cs):
                    r_dc[i, t] = ca.check_dc(r.check, other.creature)[0]
                    r_p[i, t] = skill_chance(int(r_bonus[i]), int(r_dc[i, t]))
        for j, ab in _marks(c)[:1]:
            assert ab.mark is not None
            mark[i] = j
            mk_rng[i], mk_bonus[i] = ab.range_ft, ab.mark.bonus
    markers = [i for i in range(n) if mark[i] >= 0][:MAX_MARKERS]
    for b, i in enumerate(markers):
        mk_index[i] = b
    mk_delta = np.zeros((n, wmax, 1 << len(markers)), dtype=np.int32)
    for a, c in enumerate(cs):
        for k, weapon in enumerate(c.creature.stat.weapons):
            if weapon.is_grenade or not markers:
                continue
            w = thrown_weapons.as_used(weapon, False)
            tags = frozenset({ca.target_tag("?")})
            plain = stats.attack_bonus(c.creature, w, tags=tags, options=opts).total
            for bits in range(1, 1 << len(markers)):
                specs = []
                for b, u in enumerate(markers):
                    user = cs[u]
                    if bits >> b & 1 and user.side == c.side:
                        ab = user.creature.stat.specials[int(mark[u])]
                        assert ab.mark is not None
                        specs.append(ModifierSpec(selector=ab.mark.selector, value=ab.mark.bonus, type=ab.mark.type,
                                                  label=ca.mark_label(ab, user.id, "?"), when=tags,
                                                  rule=ca.CLASS_RULE))  # fmt: skip
                marked = c.creature.with_state(modifiers=(*c.creature.state.modifiers, *specs))
                mk_delta[a, k, bits] = stats.attack_bonus(marked, w, tags=tags, options=opts).total - plain
    grid = enc.grid
    misses = sight.miss_kinds(grid, cs) if grid is not None else [0]
    shape = (n, wmax, n, NEEDS, len(misses)) if tactical and (rider >= 0).any() else (1, 1, 1, 1, 1)
    ff_val = np.zeros((n, wmax, n, 2) if tactical else (1, 1, 1, 2), dtype=np.int32)
    b_off = np.full(shape, -1, dtype=np.int64)
    b_len = np.zeros(shape, dtype=np.int32)
    b_hit = np.zeros(shape, dtype=np.float64)
    vals: list[int] = []
    probs: list[float] = []
    if tactical and (rider >= 0).any():
        seen: dict[tuple[Any, ...], tuple[int, int, float]] = {}
        ff = Term(ca.FLAT_FOOTED_AC, "flat-footed", ca.FLAT_FOOTED_RULE)  # as class_choices.rider_value has it
        for i, c in enumerate(cs):
            if rider[i] < 0:
                continue
            r = c.creature.stat.specials[int(rider[i])].rider
            assert r is not None
            for k, weapon in enumerate(c.creature.stat.weapons):
                if not r_ok[i, k]:
                    continue
                w = _boosted(thrown_weapons.as_used(weapon, False), r.extra_damage)
                for t, other in enumerate(cs):
                    if other.side == c.side:
                        continue
                    caught = cond.add_condition(other.creature, ConditionInstance(name="flat-footed", source=SURPRISED))
                    for s, d in enumerate((other.creature, caught)):
                        basis = odds.AttackBasis.of(c.creature, d, w, opts)
                        if r.flat_footed:
                            ff_val[i, k, t, s] = basis.numbers((), (ff,))[1] - basis.numbers()[1]
                    basis = odds.AttackBasis.of(c.creature, other.creature, w, opts)
                    for need in range(NEED_LO, NEED_HI + 1):
                        for x, miss in enumerate(misses):
                            tkey = (w.damage_expr, basis.damage_bonus, basis.crit_immune, basis.reduction, need, miss)
                            if tkey not in seen:
                                tab = odds.damage_table(0, need, w.damage_expr, basis.damage_bonus,
                                                        crit_immune=basis.crit_immune, reduction=basis.reduction,
                                                        miss_chance=miss)  # fmt: skip
                                seen[tkey] = (len(vals), len(tab.values), tab.hit)
                                vals.extend(tab.values)
                                probs.extend(tab.probs)
                            at = (i, k, t, need - NEED_LO, x)
                            b_off[at], b_len[at], b_hit[at] = seen[tkey]
    return RidersMarks(
        rider, r_ok, r_check, r_bonus, r_dc, r_p, r_xn, r_xs, r_ff, r_move, ff_already, ff_val,
        b_off, b_len, b_hit, np.array(vals or [0], dtype=np.int32), np.array(probs or [0.0], dtype=np.float64),
        mark, mk_rng, mk_bonus, mk_index, mk_delta,
    )  # fmt: skip


def empty(n: int = 1, wmax: int = 1) -> RidersMarks:
    """Placeholders: nobody has a rider or a mark."""
    z32 = np.zeros
    return RidersMarks(
        np.full(n, -1, dtype=np.int32), z32((n, wmax), dtype=np.bool_), z32(n, dtype=np.bool_),
        z32(n, dtype=np.int32), z32((n, n), dtype=np.int32), np.ones((n, n)), z32(n, dtype=np.int32),
        np.ones(n, dtype=np.int32), z32(n, dtype=np.bool_), z32(n, dtype=np.bool_), z32(n, dtype=np.bool_),
        z32((1, 1, 1, 2), dtype=np.int32), np.full((1, 1, 1, 1, 1), -1, dtype=np.int64),
        z32((1, 1, 1, 1, 1), dtype=np.int32), z32((1, 1, 1, 1, 1)), z32(1, dtype=np.int32), z32(1),
        np.full(n, -1, dtype=np.int32), z32(n, dtype=np.int32), z32(n, dtype=np.int32),
        np.full(n, -1, dtype=np.int32), z32((n, wmax, 1), dtype=np.int32),
    )  # fmt: skip


__all__ = ["MAX_MARKERS", "RidersMarks", "build", "empty", "unsupported"]
