"""A stat block's special abilities and spells compiled into arrays for the compiled kernel (issues 16, 22).

The kernel plays ``use_ability`` as the engine does (``encounter.effects``) for what the simulation policies use
(``sim.choices``): a healing ability aimed at an ally, and damaging abilities with an attack roll or a saving
throw, aimed at one foe or filling a burst, spread, cone or line. The numbers are read from the same
:class:`~sftactics.sf1e.usable.UsableAbility` data the engine's command carries (the printed attack bonus, DC,
damage and healing rolls, uses and pools), and the AC an attack roll targets is ``stats.armor_class`` of the
target; the damage goes through the model's mitigation table (``sf1e.damage.mitigate``) like any other. The
tactical policy's values come from ``sim.odds`` as ``choices.effect_value`` asks for them: the chance to hit
(``odds.chance`` against the AC), the chance to save, and the full and halved damage after ``odds.reduction``
as numerators over one denominator (mixed as ``odds.flat_table`` mixes them, like a grenade's).

:func:`unsupported_ability` says which abilities the kernel leaves to the engine (then the engine plays the
fight): conditions given by an ability (the kernel models no conditions from abilities), actions other than a
standard action (a heal of the user as a move action and of every ally in range as a full action aside:
``kernel.classes``), emanations, damage or healing rolls that are not one kind of die in one part. Attack
riders (trick attack) and marks (get 'em) are :mod:`~sftactics.sim.kernel.riders`'.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from sftactics.dice.expr import DiceExpr, parse
from sftactics.encounter.state import Combatant, Encounter
from sftactics.sf1e import stats
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.usable import UsableAbility
from sftactics.sim import odds
from sftactics.sim.kernel.bodies import _set_prone

#: ``Specials.target`` (T_SELF, T_ALLIES: the heals of the user or of every ally in range, ``kernel.classes``)
T_FOE, T_ALLY, T_AREA, T_SELF, T_ALLIES = 0, 1, 2, 3, 4
#: ``Specials.shape``
S_BURST, S_SPREAD, S_CONE, S_LINE = 0, 1, 2, 3
_SHAPES = {"burst": S_BURST, "spread": S_SPREAD, "cone": S_CONE, "line": S_LINE}
#: ``Specials.on_save``
ON_HALF, ON_NEGATES, ON_PARTIAL = 0, 1, 2
_ON_SAVE = {"half": ON_HALF, "negates": ON_NEGATES, "partial": ON_PARTIAL}
_SAVES = {"fort": 0, "ref": 1, "will": 2}


class Specials(NamedTuple):
    """The abilities of N combatants, J slots each (``Model.ab``); P pools of uses."""

    has: NDArray[np.bool_]  # [N] the stat block lists specials (``choices.ability_plans`` asks for any)
    ok: NDArray[np.bool_]  # [N, J] a slot the policies may use (a heal for an ally, or a harmful ability)
    target: NDArray[np.int32]  # T_FOE, T_ALLY, T_AREA
    shape: NDArray[np.int32]  # S_* for areas
    size: NDArray[np.int32]  # area size in feet
    rng: NDArray[np.int32]  # range in feet (0: touch)
    provokes: NDArray[np.bool_]  # provokes attacks of opportunity (AOO-06)
    spell: NDArray[np.bool_]  # Sp or spell: damage while provoking spoils it (AOO-11)
    uses: NDArray[np.int32]  # -1: unlimited
    pool: NDArray[np.int32]  # [N, J] the pool's column in ``spent0``
    spent0: NDArray[np.int64]  # [N, P] uses spent when the fight starts
    has_atk: NDArray[np.bool_]
    atk: NDArray[np.int32]
    ac: NDArray[np.int32]  # [N, J, N, 2] the AC the attack roll targets (``stats.armor_class``), upright or prone
    save: NDArray[np.int32]  # -1 none, else fort/ref/will
    dc: NDArray[np.int32]
    on_save: NDArray[np.int32]
    nd: NDArray[np.int32]  # damage: dice, sides, flat, profile (-1: no damage)
    sd: NDArray[np.int32]
    flat: NDArray[np.int32]
    prof: NDArray[np.int32]
    hn: NDArray[np.int32]  # healing: dice, sides, flat (hn -1: no healing)
    hs: NDArray[np.int32]
    hflat: NDArray[np.int32]
    heal_rank: NDArray[np.int32]  # order of the heals by (worth, name): the policies take the highest
    sw: NDArray[np.int32]  # the source index the results name it by (after the weapons)
    rcost: NDArray[np.int32]  # Resolve Points it costs (healing channel; ``kernel.classes``)
    # the tactical policy's numbers (``choices.effect_value``)
    p_hit: NDArray[np.float64]  # [N, J, N, 2, 2] chance the attack roll hits (the target charging; prone)
    p_save: NDArray[np.float64]  # [N, J, N] chance the target saves
    t_off: NDArray[np.int64]  # [N, J, N] full and halved damage after the reduction: offset, length, denominator
    t_len: NDArray[np.int32]
    t_den: NDArray[np.int64]
    t_val: NDArray[np.int32]
    t_nf: NDArray[np.int64]
    t_nh: NDArray[np.int64]


def _one_part(text: str) -> tuple[int, int, int, frozenset[str]] | None:
    from sftactics.sim.kernel.model import _one_dice_part

    return _one_dice_part(parse(text))


#: the action each kind of heal takes in the kernel (``choices.heal`` uses a heal of the user as a move action,
#: of every ally in range as a full action; ``kernel.classes``)
_HEAL_ACTIONS = {"ally": "standard", "self": "move", "allies": "full"}


def used(ab: UsableAbility) -> bool:
    """Whether the simulation policies ever use ``ab`` (``sim.choices``): a heal for an ally, the user or every
    ally in range, or an ability that harms (damage or conditions)."""
    return (ab.is_heal and ab.target in _HEAL_ACTIONS) or ab.is_harmful


def unsupported_ability(ab: UsableAbility) -> str:
    """Why the kernel cannot play ``ab`` as the policies use it ("" when it can)."""
    if not used(ab):  # (attack riders and marks: kernel.riders, kernel.classes)
        return ""
    if ab.is_class_ability and (ab.provokes if ab.provokes is not None else ab.kind in ("Sp", "spell")):
        # the policies would weigh an attack of opportunity that encounter.class_moves never provokes
        return "a class ability that is a spell or provokes (the engine's class moves provoke nothing)"
    if ab.is_heal and ab.target in _HEAL_ACTIONS and not ab.is_harmful:
        if ab.action != _HEAL_ACTIONS[ab.target]:
            return f"a heal of {ab.target} as a {ab.action} action (the kernel plays them as choices.heal uses them)"
    elif ab.action != "standard":
        return f"a {ab.action} action (the kernel plays standard-action abilities)"
    if ab.conditions:
        names = ", ".join(sorted(str(c.get("name", "?")) for c in ab.conditions))
        return f"gives conditions ({names}: the kernel models no conditions from abilities)"
    if ab.is_heal and (ab.is_harmful or ab.attack is not None or ab.save is not None or ab.target == "area"):
        return "heals and harms at once"
    if ab.target == "area" and (ab.area is None or ab.area.shape not in _SHAPES):
        return f"an area of shape {ab.area.shape if ab.area else 'none'} (bursts, spreads, cones and lines)"
    if ab.target == "area" and ab.attack is not None:
        return "an area with an attack roll"
    for what, text in (("damage", ab.damage), ("healing", ab.heal)):
        if text is None:
            continue
        shape = _one_part(text)
        if shape is None:
            return f"{what} {text} (one kind of die in one part)"
        if shape[2] < 0:
            return f"{what} {text}: a negative flat term"
    return ""


def unsupported(c: Combatant) -> list[str]:
    """The abilities of ``c`` the kernel leaves to the engine, with why."""
    out = []
    for ab in c.creature.stat.specials:
        why = unsupported_ability(ab)
        if why:
            out.append(f"ability {ab.name}: {why}")
    for kind in ("self", "allies"):  # choices.heal ranks these by their mean, the kernel by heal_rank (worth)
        heals = [a for a in c.creature.stat.specials if a.is_heal and a.target == kind]
        if len({bool(a.resolve_cost) for a in heals}) > 1:
            out.append(f"heals of {kind} with and without a Resolve cost (ranked by their mean in choices.heal)")
    return out


def _mean(text: str) -> float:
    from sftactics.dice.distribution import damage_die

    return float(damage_die(parse(text), 0).mean())


def build(enc: Encounter, cs: list[Combatant], wcount: list[int], profile: Callable[[tuple[Any, ...], int], int],
          tactical: bool) -> Specials:  # fmt: skip
    """The abilities of ``cs`` (in the encounter's order) as arrays; ``profile(key, most)`` registers a damage
    profile of the model's mitigation table; ``wcount``: each combatant's number of weapons (the ability's
    source index follows them)."""
    opts = enc.options
    n = len(cs)
    jmax = max(1, max(len(c.creature.stat.specials) for c in cs))
    pools: list[list[str]] = [list(dict.fromkeys(a.pool_name for a in c.creature.stat.specials)) for c in cs]
    pmax = max(1, max(len(p) for p in pools))

    def i32(shape: Any, fill: int = 0) -> NDArray[np.int32]:
        return np.full(shape, fill, dtype=np.int32)

    def flags(shape: Any) -> NDArray[np.bool_]:
        return np.zeros(shape, dtype=np.bool_)

    has = flags(n)
    ok, provokes, spell, has_atk = (flags((n, jmax)) for _ in range(4))
    target, shape, size, rng, atk, dc, on_save, nd, sd, flat, hs, hflat, heal_rank, sw, rcost = (
        i32((n, jmax)) for _ in range(15)
    )
    uses, pool, save, prof, hn = (i32((n, jmax), -1) for _ in range(5))
    pool[:] = 0
    spent0 = np.zeros((n, pmax), dtype=np.int64)
    ac = i32((n, jmax, n, 2))
    tshape = (n, jmax, n) if tactical else (1, 1, 1)
    p_hit = np.ones((*tshape, 2, 2), dtype=np.float64)
    p_save = np.zeros(tshape, dtype=np.float64)
    t_off = np.full(tshape, -1, dtype=np.int64)
    t_len = i32(tshape)
    t_den = np.ones(tshape, dtype=np.int64)
    gv: list[int] = []
    gf: list[int] = []
    gh: list[int] = []
    seen: dict[tuple[Any, ...], tuple[int, int, int]] = {}
    for i, c in enumerate(cs):
        st = c.creature.stat
        has[i] = bool(st.specials)
        for p, name in enumerate(pools[i]):
            spent0[i, p] = c.uses_spent.get(name, 0)
        heals = sorted((_worth(a), a.name, j) for j, a in enumerate(st.specials) if a.heal is not None)
        for r, (_, _, j) in enumerate(heals):
            heal_rank[i, j] = r
        for j, ab in enumerate(st.specials):
            sw[i, j] = wcount[i] + j
            pool[i, j] = pools[i].index(ab.pool_name)
            uses[i, j] = -1 if ab.uses is None else ab.uses
            if not used(ab) or unsupported_ability(ab):
                continue
            ok[i, j] = True
            target[i, j] = {"foe": T_FOE, "ally": T_ALLY, "area": T_AREA, "self": T_SELF, "allies": T_ALLIES}[ab.target]
            rcost[i, j] = ab.resolve_cost
            if ab.area is not None:
                shape[i, j] = _SHAPES.get(ab.area.shape, 0)
                size[i, j] = ab.area.size_ft
            rng[i, j] = ab.range_ft
            provokes[i, j] = ab.provokes if ab.provokes is not None else ab.kind in ("Sp", "spell")
            if ab.is_class_ability:
                provokes[i, j] = False  # encounter.class_moves provokes nothing
            spell[i, j] = ab.kind in ("Sp", "spell")
            if ab.heal is not None:
                h = _one_part(ab.heal)
                assert h is not None
                hn[i, j], hs[i, j], hflat[i, j] = h[0], h[1] if h[0] else 1, h[2]
            if ab.attack is not None:
                has_atk[i, j] = True
                atk[i, j] = ab.attack.bonus
                for k, t in enumerate(cs):
                    for prone in (0, 1):  # a creature knocked down is prone (CON-29: kernel.bodies)
                        cr = _set_prone(t.creature, bool(prone))
                        vs = "ranged" if ab.attack.ranged else "melee"
                        ac[i, j, k, prone] = stats.armor_class(cr, ab.attack.vs, vs=vs).total
            if ab.save is not None:
                save[i, j] = _SAVES[ab.save.type]
                dc[i, j] = ab.save.dc
                on_save[i, j] = _ON_SAVE[ab.save.on_save]
            if ab.damage is not None:
                d = _one_part(ab.damage)
                assert d is not None
                nd[i, j], sd[i, j], flat[i, j] = d[0], d[1] if d[0] else 1, d[2]
                # ``effects`` mitigates an ability's damage with ``mitigate``'s defaults (not magic, no materials)
                pkey: tuple[Any, ...] = ("ability", d[3], False, frozenset(), frozenset(), False, False)
                prof[i, j] = profile(pkey, d[0] * max(d[1], 1) + d[2])
            if not tactical or ab.damage is None:
                continue
            expr: DiceExpr = parse(ab.damage)
            w = Weapon(name=ab.name, category="special", damage=ab.damage)  # as choices._effect_weapon
            for k, t in enumerate(cs):
                if t.side == c.side:
                    continue
                cr = t.creature
                if ab.attack is not None:
                    for prone in (0, 1):
                        target_ac = int(ac[i, j, k, prone])
                        p_hit[i, j, k, 0, prone] = odds.chance(ab.attack.bonus, target_ac)
                        p_hit[i, j, k, 1, prone] = odds.chance(ab.attack.bonus, target_ac - _charge_penalty())
                if ab.save is not None:
                    bonus = stats.save_bonus(cr, ab.save.type, options=opts).total
                    p_save[i, j, k] = odds.chance(bonus, ab.save.dc)
                red = odds.reduction(cr, w)
                key = (expr, red)
                if key not in seen:
                    from sftactics.sim.kernel.tables import _grenade_rows

                    seen[key] = _grenade_rows(expr, red, gv, gf, gh)
                t_off[i, j, k], t_len[i, j, k], t_den[i, j, k] = seen[key]
    return Specials(
        has, ok, target, shape, size, rng, provokes, spell, uses, pool, spent0, has_atk, atk, ac, save, dc, on_save,
        nd, sd, flat, prof, hn, hs, hflat, heal_rank, sw, rcost, p_hit, p_save, t_off, t_len, t_den,
        np.array(gv or [0], dtype=np.int32), np.array(gf or [0], dtype=np.int64), np.array(gh or [0], dtype=np.int64),
    )  # fmt: skip


def _worth(ab: UsableAbility) -> float:
    """``choices._heal_worth``: a heal's mean, scaled down when it costs Resolve Points."""
    from sftactics.sim.choices import _heal_worth

    return _heal_worth(ab)


def _charge_penalty() -> int:
    from sftactics.sf1e.actions_rules import CHARGE_PENALTY

    return int(CHARGE_PENALTY)


def names(c: Combatant) -> tuple[str, ...]:
    """The ability names of ``c``, in slot order (the results name an ability's damage by them)."""
    return tuple(a.name for a in c.creature.stat.specials)
