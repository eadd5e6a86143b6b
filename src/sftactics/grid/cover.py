"""Cover by the corner rule (MOD-07..15) and what it does to attacks of opportunity (MOD-09, AOO-12).

The attacker chooses one corner of a square it occupies and draws lines from it to every corner of the target's
space. A line is blocked if it meets a wall square or a wall (see :mod:`sftactics.grid.lines` for crossing,
running along and grazing), passes through a cover object, or passes through a low obstacle that counts (below).
A line through another creature's space gives soft cover, against ranged attacks only (MOD-11). The attacker
keeps the corner that gives the target the least cover; if every line from every corner has no line of effect,
the target has total cover (MOD-14). Line of effect to only part of the target gives cover (MOD-15).

A low obstacle counts only if the target is within 30 ft of it (``GridOptions.low_obstacle_within``) and the
attacker is not nearer to it than the target is (MOD-10).

Degrees (:class:`CoverKind`) and their bonuses as :class:`~sftactics.core.breakdown.Term` values:

=========  ======  ======  ======
kind       AC      Reflex  rule
=========  ======  ======  ======
soft       +4      --      MOD-11 (ranged attacks only)
partial    +2      +1      MOD-12 (a GM call: more than half the target visible)
cover      +4      +2      MOD-08
improved   +8      +4      MOD-13 (a GM call: e.g. a gun port)
total      --      --      MOD-14 (cannot be attacked)
=========  ======  ======  ======

Any cover except soft cover stops attacks of opportunity from the other side (MOD-09); cover usually works both
ways, so a creature shooting from a square an adjacent enemy threatens provokes only if that enemy has no cover
from it (AOO-12).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from sftactics.core.breakdown import Term
from sftactics.grid.geometry import Footprint, Point, Square, distance_to_point_ft, footprint_distance_ft
from sftactics.grid.lines import (
    B_COVER,
    B_LOE,
    B_LOW,
    B_SOFT,
    LineHits,
    Thing,
    ends,
    near_band,
    owner_boxes,
    segment_flags,
    space_things,
    things_along,
    trace,
)
from sftactics.grid.map import GridMap
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions


class CoverKind(IntEnum):
    """Degrees of cover, from none to total (ordered: a higher value protects more)."""

    NONE = 0
    SOFT = 1
    PARTIAL = 2
    COVER = 3
    IMPROVED = 4
    TOTAL = 5


_BONUS: dict[CoverKind, tuple[int, int, str, str]] = {
    CoverKind.SOFT: (4, 0, "soft cover", "MOD-11"),
    CoverKind.PARTIAL: (2, 1, "partial cover", "MOD-12"),
    CoverKind.COVER: (4, 2, "cover", "MOD-08"),
    CoverKind.IMPROVED: (8, 4, "improved cover", "MOD-13"),
}


def cover_terms(kind: CoverKind) -> tuple[tuple[Term, ...], tuple[Term, ...]]:
    """The AC terms and Reflex terms a degree of cover gives (empty for none and total)."""
    if kind not in _BONUS:
        return (), ()
    ac, ref, label, rule = _BONUS[kind]
    return (Term(ac, label, rule, source="cover"),), ((Term(ref, label, rule, source="cover"),) if ref else ())


@dataclass(frozen=True, slots=True)
class LineVerdict:
    """One line of the decisive corner: where it went, what (if anything) it met and what that gives."""

    start: Point
    end: Point
    kind: CoverKind
    reason: str


def cover_words(kind: CoverKind) -> str:
    """The kind of cover in words: ``cover``, ``partial cover``, ``improved cover`` ... (never "cover cover")."""
    return "cover" if kind is CoverKind.COVER else f"{kind.name.lower()} cover"


@dataclass(frozen=True, slots=True)
class CoverResult:
    """The target's cover against one attacker. ``corner`` is the attacker's chosen corner (None when the
    attacker is a point of origin) and ``lines`` are the lines from it that decided the result."""

    kind: CoverKind
    ac_terms: tuple[Term, ...]
    reflex_terms: tuple[Term, ...]
    corner: Point | None
    lines: tuple[LineVerdict, ...]
    rule: str

    @property
    def blocks_attacks_of_opportunity(self) -> bool:
        """MOD-09: any cover but soft cover keeps the other side from making attacks of opportunity."""
        return self.kind >= CoverKind.PARTIAL

    @property
    def allows_stealth(self) -> bool:
        """MOD-16: cover (but not soft cover) lets the target try to hide."""
        return self.kind >= CoverKind.PARTIAL

    @property
    def can_be_attacked(self) -> bool:
        return self.kind is not CoverKind.TOTAL

    def adjusted(self, kind: CoverKind) -> CoverResult:
        """The same lines with a GM's degree instead (partial: MOD-12; improved: MOD-13)."""
        ac, ref = cover_terms(kind)
        return CoverResult(kind, ac, ref, self.corner, self.lines, _RULE[kind])


_RULE = {
    CoverKind.NONE: "MOD-07",
    CoverKind.SOFT: "MOD-11",
    CoverKind.PARTIAL: "MOD-12",
    CoverKind.COVER: "MOD-08",
    CoverKind.IMPROVED: "MOD-13",
    CoverKind.TOTAL: "MOD-14",
}


def _low_counts(attacker: Footprint | Point, target: Footprint, low: Square, options: GridOptions) -> bool:
    obstacle = Footprint(low[0], low[1])
    to_target = footprint_distance_ft(target, obstacle)
    limit_to = to_target if options.low_obstacle_within == "obstacle" else _distance(attacker, target)
    near = limit_to <= 30
    return near and _distance(attacker, obstacle) >= to_target


def _distance(a: Footprint | Point, b: Footprint) -> int:
    if isinstance(a, Footprint):
        return footprint_distance_ft(a, b)
    return distance_to_point_ft(b, a)


def _reason(
    hits: LineHits, kind: CoverKind, attacker: Footprint | Point, target: Footprint, options: GridOptions
) -> str:
    """Why one line gives the target ``kind`` of cover (for the explanation)."""
    if kind is CoverKind.NONE:
        return ""
    if hits.loe_blocked:
        return hits.blocked_by
    if hits.cover:
        return f"through cover object at {hits.cover[0][1]}"  # type: ignore[index]
    for sq in hits.low:
        if _low_counts(attacker, target, sq, options):
            return f"over low obstacle at {sq}"
    tag = hits.soft[0]
    return f"through {tag[0]} at {tag[1]}" if isinstance(tag, tuple) else f"through {tag}"


_KINDS = tuple(CoverKind)
_Memo = dict[tuple[Point, Point], tuple[int, tuple[Square, ...]]]


def _best_corner(
    starts: Sequence[Point],
    goals: Sequence[Point],
    relevant: Sequence[Thing],
    attacker: Footprint | Point,
    target: Footprint,
    ranged: bool,
    memo: _Memo | None,
    options: GridOptions,
) -> tuple[int, Point, list[tuple[Point, int]]]:
    """The corner rule: the attacker's corner that leaves the target the least cover (a CoverKind value), with
    the level each of its lines gives."""
    along = options.line_along_wall_blocks
    owners = owner_boxes(attacker, target)
    soft = int(CoverKind.SOFT) if ranged else 0
    cov, total = int(CoverKind.COVER), int(CoverKind.TOTAL)
    best = total + 1
    best_p = starts[0]
    best_lines: list[tuple[Point, int]] = []
    for p in starts:
        verdicts: list[tuple[Point, int]] = []
        worst = 0
        all_blocked = True
        for q in goals:
            if p == q:
                continue  # a corner both spaces share is no line
            if memo is None:
                bits, low = segment_flags(p, q, relevant, along, owners)
            else:
                seg = (p, q) if p <= q else (q, p)
                hit = memo.get(seg)
                if hit is None:
                    hit = memo[seg] = segment_flags(p, q, relevant, along, owners)
                bits, low = hit
            if bits & (B_LOE | B_COVER) or (low and any(_low_counts(attacker, target, sq, options) for sq in low)):
                kind = cov
            else:
                kind = soft if bits & B_SOFT else 0
            if not bits & B_LOE:
                all_blocked = False
            verdicts.append((q, kind))
            if kind > worst:
                worst = kind
                if worst >= best:
                    break  # this corner cannot beat the best one found
        level = total if all_blocked else worst
        if level < best:
            best, best_p, best_lines = level, p, verdicts
            if level == 0:
                break
    return best, best_p, best_lines


def cover(
    grid: GridMap,
    attacker: Footprint | Point,
    target: Footprint,
    *,
    ranged: bool = True,
    creatures: Iterable[Footprint] = (),
    things: Sequence[Thing] | None = None,
    memo: _Memo | None = None,
    explain: bool = True,
    options: GridOptions = DEFAULT_OPTIONS,
) -> CoverResult:
    """The target's cover against an attack from ``attacker`` (a space, or a point of origin for an effect).

    ``creatures`` are the spaces of other creatures that may stand in the way (the attacker's and the target's
    own spaces are skipped); they give soft cover against ranged attacks. ``things`` may be given instead of
    looking them up (all those a line between the two spaces could meet), and ``memo`` reuses lines traced
    for the same things (both directions of a pair: see :func:`cover_table`). With ``explain=False`` the
    result leaves out the lines' explanations.
    """
    if things is None and memo is None:
        from sftactics.grid.map import cached

        crowd = tuple(sorted(creatures)) if ranged else ()
        key = ("cover", attacker, target, ranged, crowd, explain, options)
        return cached(grid, key, lambda: _cover(grid, attacker, target, ranged, crowd, None, None, explain, options))
    return _cover(grid, attacker, target, ranged, creatures, things, memo, explain, options)


def _cover(
    grid: GridMap,
    attacker: Footprint | Point,
    target: Footprint,
    ranged: bool,
    creatures: Iterable[Footprint],
    things: Sequence[Thing] | None,
    memo: _Memo | None,
    explain: bool,
    options: GridOptions,
) -> CoverResult:
    starts, box_a = ends(attacker, every_corner=True)
    goals, box_t = ends(target, every_corner=False)
    if things is None:
        others = [c for c in creatures if not _same_or_overlapping(c, attacker) and not c.overlaps(target)]
        found = things_along(grid, box_a, box_t) + (space_things(others) if ranged else [])
        things = near_band(found, box_a, box_t)
    relevant = [t for t in things if not _in_own_squares(t, attacker, target)]
    if not any(t[4] & (B_LOE | B_COVER | B_LOW | (B_SOFT if ranged else 0)) for t in relevant):
        corner = starts[0] if isinstance(attacker, Footprint) else None
        return CoverResult(CoverKind.NONE, (), (), corner, (), "MOD-07")
    owners = owner_boxes(attacker, target)
    level, corner, chosen = _best_corner(starts, goals, relevant, attacker, target, ranged, memo, options)
    kind = CoverKind(level)
    lines: tuple[LineVerdict, ...] = ()
    if explain:
        lines = tuple(
            LineVerdict(
                corner,
                q,
                CoverKind(k),
                _reason(
                    trace(corner, q, relevant, owners=owners, options=options), CoverKind(k), attacker, target, options
                ),
            )
            for q, k in chosen
        )
    ac, ref = cover_terms(kind)
    return CoverResult(kind, ac, ref, corner if isinstance(attacker, Footprint) else None, lines, _RULE[kind])


def _same_or_overlapping(c: Footprint, attacker: Footprint | Point) -> bool:
    return isinstance(attacker, Footprint) and c.overlaps(attacker)


def _in_own_squares(t: Thing, attacker: Footprint | Point, target: Footprint) -> bool:
    """True for a cover object or low obstacle in the attacker's or the target's own squares (ignored)."""
    if t[2] - t[0] != 1 or t[3] - t[1] != 1 or not t[4] & (B_COVER | B_LOW):
        return False
    sq = (t[0], t[1])
    return target.contains(sq) or (isinstance(attacker, Footprint) and attacker.contains(sq))


def can_make_attack_of_opportunity(
    grid: GridMap, reactor: Footprint, provoker: Footprint, *, options: GridOptions = DEFAULT_OPTIONS
) -> bool:
    """MOD-09: a creature cannot make an attack of opportunity against a creature that has cover from it.

    Only the geometry: whether the reactor threatens the provoker and may react at all is the caller's.
    """
    return not cover(grid, reactor, provoker, ranged=False, options=options).blocks_attacks_of_opportunity


def ranged_attack_provokes_from(
    grid: GridMap,
    shooter: Footprint,
    threats: dict[str, frozenset[Square]],
    spaces: dict[str, Footprint],
    *,
    options: GridOptions = DEFAULT_OPTIONS,
) -> list[str]:
    """AOO-12: which threatening enemies get an attack of opportunity when ``shooter`` makes a ranged attack.

    ``threats`` maps each enemy to the squares it threatens and ``spaces`` to its space; an enemy provokes
    if it threatens a square of the shooter and the shooter has no cover from it.
    """
    out = []
    for name, zone in threats.items():
        if any(s in zone for s in shooter.squares) and can_make_attack_of_opportunity(
            grid, spaces[name], shooter, options=options
        ):
            out.append(name)
    return out


def cover_table(
    grid: GridMap,
    spaces: Sequence[Footprint],
    *,
    ranged: bool = True,
    options: GridOptions = DEFAULT_OPTIONS,
) -> dict[tuple[int, int], CoverKind]:
    """Cover of every space against an attack from every other one, keyed by (attacker index, target index).

    The other spaces in the list give soft cover against ranged attacks.
    """
    out: dict[tuple[int, int], CoverKind] = {}
    boxes = [(s.x, s.y, s.x + s.side, s.y + s.side) for s in spaces]
    starts = [ends(s, every_corner=True)[0] for s in spaces]
    bodies = space_things(spaces)
    wanted = B_LOE | B_COVER | B_LOW | (B_SOFT if ranged else 0)
    for i, a in enumerate(spaces):
        for j in range(i + 1, len(spaces)):
            t = spaces[j]
            ba, bt = boxes[i], boxes[j]
            things = things_along(grid, ba, bt)
            if ranged:
                x0, y0 = min(ba[0], bt[0]), min(ba[1], bt[1])
                x1, y1 = max(ba[2], bt[2]), max(ba[3], bt[3])
                things += [
                    b
                    for k, b in enumerate(bodies)
                    if b[0] <= x1 and b[2] >= x0 and b[1] <= y1 and b[3] >= y0 and k != i and k != j
                ]
            relevant = [th for th in near_band(things, ba, bt) if not _in_own_squares(th, a, t) and th[4] & wanted]
            if not relevant:
                out[(i, j)] = out[(j, i)] = CoverKind.NONE
                continue
            memo: _Memo = {}
            out[(i, j)] = _KINDS[_best_corner(starts[i], t.corners, relevant, a, t, ranged, memo, options)[0]]
            out[(j, i)] = _KINDS[_best_corner(starts[j], a.corners, relevant, t, a, ranged, memo, options)[0]]
    return out
