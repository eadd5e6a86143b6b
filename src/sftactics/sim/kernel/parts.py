"""Damage rolls of more than one part in the compiled fight (a bite of ``2d8+17 P + 1d8 A``).

The engine rolls such a weapon as ``damage.roll_damage`` does: the damage bonus joins the first typed part, each
roll (two on a critical hit) rolls every part's dice in order, the parts' totals are split by their types
(DMG-08) and merged by type, and ``damage.mitigate`` takes the target's defenses off the whole roll (immunities,
DR shared by the kinetic portions, each energy resistance once per attack, incorporeal halving, vulnerability;
riders negated when nothing is left). What the defenses leave depends on every part's total together, so the
model keeps, per target and weapon, the engine's answer for every combination of the parts' totals
(:func:`fields`; ``mitigate`` itself fills the table), and the kernel only rolls the dice and looks it up
(``attacks._parts_damage``).

The kernel plays a weapon of several parts when each part has at most one kind of die, no part (with the bonus)
is negative (so the total is never below 1 and minimum damage, DMG-05, never comes up), and the table of every
combination of totals stays small (:data:`MAX_CELLS`); a grenade of several parts is the engine's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sftactics.core.breakdown import Breakdown
from sftactics.dice.expr import DiceExpr, DiceTerm, Part
from sftactics.dice.source import SeededDice
from sftactics.encounter import thrown as thrown_weapons
from sftactics.encounter.state import Combatant
from sftactics.sf1e import damage, stats
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.statblock import Weapon

#: Parts a damage roll may have in the kernel.
MAX_PARTS = 4
#: Combinations of the parts' totals one weapon's table may hold (per target).
MAX_CELLS = 40_000


# ---------------------------------------------------------------- building (Python)
def _parts_of(w: Weapon, bonus: int) -> list[tuple[int, int, int, frozenset[str]]] | None:
    """(dice, sides, flat, types) of each part of ``w``'s damage with the damage ``bonus`` where
    ``damage.roll_damage`` puts it; None if a part has more than one kind of die or a negative die."""
    full = damage._with_bonus(w.damage_expr, bonus)
    out: list[tuple[int, int, int, frozenset[str]]] = []
    for part in full.parts:
        dice = [t for t in part.terms if not t.is_flat]
        if len(dice) > 1 or any(t.sign < 0 for t in dice):
            return None
        flat = sum(t.count * t.sign for t in part.terms if t.is_flat)
        n, s = (dice[0].count, dice[0].sides) if dice else (0, 1)
        out.append((n, s, flat, part.types))
    return out


def _dims(parts: list[tuple[int, int, int, frozenset[str]]]) -> list[int]:
    """Per part, the number of totals it can reach (0 to twice its maximum: two rolls on a critical hit)."""
    return [2 * (n * s + flat) + 1 for n, s, flat, _ in parts]


def unsupported(w: Weapon, c: Combatant, opts: Sf1eOptions) -> str:
    """Why the kernel does not play ``w``'s damage of several parts ('' when it does)."""
    if w.is_grenade:
        return f"damage {w.damage} (a grenade of one part with one kind of die)"
    used = thrown_weapons.as_used(w, False)
    parts = _parts_of(used, stats.damage_bonus(c.creature, used, options=opts).total)
    if parts is None or len(parts) > MAX_PARTS:
        return f"damage {w.damage} (each part with one kind of die, at most {MAX_PARTS} parts)"
    if any(flat < 0 for _, _, flat, _ in parts) or sum(n + flat for n, _, flat, _ in parts) < 1:
        return f"damage {w.damage} (a part of several that can be below 0)"
    if int(np.prod(_dims(parts))) > MAX_CELLS:
        return f"damage {w.damage} (too many combinations of its parts' totals to tabulate)"
    return ""


def is_multipart(w: Weapon) -> bool:
    return not w.is_grenade and len(w.damage_expr.parts) > 1


def fields(cs: list[Combatant], wmax: int, opts: Sf1eOptions) -> dict[str, Any]:
    """The model's fields for weapons of several parts: ``w_xp[a, k]`` the weapon's index (-1: one part);
    per index the parts' dice, sides and flat parts (the bonus included) and how many totals each can reach;
    the offset of its table; whether its damage is nonlethal; and per target what the defenses leave of every
    combination (``xp_mit``) and whether that negates the riders (``xp_neg``)."""
    n = len(cs)
    w_xp = np.full((n, wmax), -1, dtype=np.int32)
    rows: list[tuple[list[tuple[int, int, int, frozenset[str]]], Weapon, Combatant]] = []
    for i, c in enumerate(cs):
        for k, weapon in enumerate(c.creature.stat.weapons):
            if not is_multipart(weapon):
                continue
            w = thrown_weapons.as_used(weapon, False)
            parts = _parts_of(w, stats.damage_bonus(c.creature, w, options=opts).total)
            assert parts is not None
            w_xp[i, k] = len(rows)
            rows.append((parts, w, c))
    q = max(1, len(rows))
    xp_n = np.zeros((q, MAX_PARTS), dtype=np.int32)
    xp_s = np.zeros((q, MAX_PARTS), dtype=np.int32)
    xp_flat = np.zeros((q, MAX_PARTS), dtype=np.int32)
    xp_dim = np.ones((q, MAX_PARTS), dtype=np.int32)
    xp_off = np.zeros(q + 1, dtype=np.int64)
    xp_nl = np.zeros(q, dtype=np.bool_)
    for r, (parts, _w, _c) in enumerate(rows):
        for p, (nd, sd, flat, _) in enumerate(parts):
            xp_n[r, p], xp_s[r, p], xp_flat[r, p] = nd, sd if nd else 0, flat
        xp_dim[r, : len(parts)] = _dims(parts)
        xp_off[r + 1] = xp_off[r] + int(np.prod(_dims(parts)))
    cells = max(1, int(xp_off[len(rows)]))
    xp_mit = np.zeros((n, cells), dtype=np.int32)
    xp_neg = np.zeros((n, cells), dtype=np.bool_)
    for r, (parts, w, c) in enumerate(rows):
        dims = _dims(parts)
        types = [t for _, _, _, t in parts]
        base = int(xp_off[r])
        for cell, totals in enumerate(np.ndindex(*dims)):
            roll = _roll_of(totals, types, w.nonlethal, opts)
            if cell == 0:
                xp_nl[r] = roll.nonlethal
            for j, t in enumerate(cs):
                out = damage.mitigate(roll, t.creature, magic=w.magic, materials=w.materials, alignment=w.alignment,
                                      from_incorporeal=c.creature.stat.incorporeal, options=opts)  # fmt: skip
                xp_mit[j, base + cell], xp_neg[j, base + cell] = out.amount, out.negated
    return {"w_xp": w_xp, "xp_n": xp_n, "xp_s": xp_s, "xp_flat": xp_flat, "xp_dim": xp_dim, "xp_off": xp_off,
            "xp_nl": xp_nl, "xp_mit": xp_mit, "xp_neg": xp_neg}  # fmt: skip


def _roll_of(totals: tuple[int, ...], types: list[frozenset[str]], nonlethal: bool, opts: Sf1eOptions) -> Any:
    """The engine's damage roll whose parts came to ``totals`` (split and merged by type as ``roll_damage`` does)."""
    expr = DiceExpr(tuple(Part((DiceTerm(int(a), 0, 1),), ts) for a, ts in zip(totals, types, strict=True)))
    return damage.roll_damage(expr, Breakdown("none", 0, ()), SeededDice(0), nonlethal=nonlethal, purpose="table",
                              options=opts)  # fmt: skip


__all__ = ["MAX_CELLS", "MAX_PARTS", "fields", "is_multipart", "unsupported"]
