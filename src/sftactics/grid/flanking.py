"""Flanking (MOD-17).

A melee attacker gets +2 to attack a target that another creature threatens from the far side. The geometric
test: draw the line between the centre of a square of the attacker and the centre of a square of the other
creature; the target is flanked if that line goes through the target's space entering by one border (or corner)
and leaving by the opposite one. A creature larger than one square may use any of its squares. Both creatures
must threaten the target, and a creature with 0-ft reach cannot flank. Who may be the other creature is
``GridOptions.flank_partner``: by default any creature hostile to the target (the rules say "another creature").
The bonus is +2 however many creatures flank.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sftactics.core.breakdown import Term
from sftactics.grid.geometry import Footprint, Square
from sftactics.grid.map import GridMap
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.grid.space import Body

FLANKING_BONUS = 2


def _crosses_opposite_sides(ax: int, ay: int, bx: int, by: int, x0: int, y0: int, x1: int, y1: int) -> bool:
    """True if the segment a-b passes through the open box and enters and leaves it by opposite sides.

    Corners belong to both sides they join, so a line through opposite corners counts.
    """
    dx, dy = bx - ax, by - ay
    ln, ld, hn, hd = 0, 1, 1, 1  # entry t = ln/ld, exit t = hn/hd
    for a0, d, lo, hi in ((ax, dx, x0, x1), (ay, dy, y0, y1)):
        if d == 0:
            if not lo < a0 < hi:
                return False
            continue
        n0, n1, dd = (lo - a0, hi - a0, d) if d > 0 else (a0 - hi, a0 - lo, -d)
        if n0 * ld > ln * dd:
            ln, ld = n0, dd
        if n1 * hd < hn * dd:
            hn, hd = n1, dd
    if ln * hd >= hn * ld:  # no stretch of the line inside the box
        return False

    def sides(tn: int, td: int) -> set[str]:
        px, py = ax * td + dx * tn, ay * td + dy * tn
        out = set()
        if px == x0 * td:
            out.add("W")
        if px == x1 * td:
            out.add("E")
        if py == y0 * td:
            out.add("N")
        if py == y1 * td:
            out.add("S")
        return out

    enter, leave = sides(ln, ld), sides(hn, hd)
    return (
        ("W" in enter and "E" in leave)
        or ("E" in enter and "W" in leave)
        or ("N" in enter and "S" in leave)
        or ("S" in enter and "N" in leave)
    )


def flank_line(a: Footprint, b: Footprint, target: Footprint) -> tuple[Square, Square] | None:
    """The pair of squares (one of ``a``, one of ``b``) whose centre line flanks ``target``, or None."""
    x0, y0 = 2 * target.x, 2 * target.y
    x1, y1 = x0 + 2 * target.side, y0 + 2 * target.side
    for sa in a.squares:
        for sb in b.squares:
            if _crosses_opposite_sides(2 * sa[0] + 1, 2 * sa[1] + 1, 2 * sb[0] + 1, 2 * sb[1] + 1, x0, y0, x1, y1):
                return sa, sb
    return None


@dataclass(frozen=True, slots=True)
class FlankResult:
    flanked: bool
    partner: int | None  # index of the flanking partner in the list given
    squares: tuple[Square, Square] | None  # the attacker's and partner's squares whose line decided it
    terms: tuple[Term, ...]
    reason: str


def flanking(
    attacker: Body,
    target: Footprint,
    partners: Sequence[Body],
    *,
    target_side: str = "",
    grid: GridMap | None = None,
    options: GridOptions = DEFAULT_OPTIONS,
) -> FlankResult:
    """Whether ``attacker`` flanks ``target`` with one of ``partners`` for a melee attack (MOD-17).

    ``target_side`` is the target's team label, compared with the bodies' ``side`` for
    ``GridOptions.flank_partner``. With a ``grid``, threat leaves out squares behind walls.
    """

    def no(reason: str) -> FlankResult:
        return FlankResult(False, None, None, (), reason)

    if attacker.reach <= 0 or not attacker.armed:
        return no("the attacker has no reach and cannot flank")
    if not attacker.threatens(target, grid, options):
        return no("the attacker does not threaten the target")
    why = "no creature threatens the target from the opposite side"
    for i, p in enumerate(partners):
        if options.flank_partner == "ally_of_attacker" and p.side != attacker.side:
            continue
        if p.side == target_side:
            continue
        if p.reach <= 0 or not p.threatens(target, grid, options):
            why = "the other creature does not threaten the target"
            continue
        line = flank_line(attacker.space, p.space, target)
        if line is not None:
            return FlankResult(True, i, line, (Term(FLANKING_BONUS, "flanking", "MOD-17"),), "flanking")
    return no(why)
