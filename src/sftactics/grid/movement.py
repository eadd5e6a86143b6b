"""Moving on the grid: the cost of each step, legal paths, the cheapest path and everything reachable
(MOV-05, MOV-10..20, ACT-56, with the geometric parts of fly, climb, swim and burrow: MOV-29..35).

The values movement speaks in (:class:`Mover`, :class:`Occupant`, :class:`PricedPath`...) and the cost of one
step are in :mod:`sftactics.grid.step_costs`, the legal steps of each map in :mod:`sftactics.grid.step_tables`;
this module imports the public names of the first (``movement.X`` keeps working) and searches the second.

Cost of one step, in feet (:func:`step_cost`, :func:`turn_cost`): straight 5 ft; diagonal 5 ft or 10 ft,
alternating (MOV-10); every hampering of the step doubles it, and doublings compound (MOV-18); a flier pays
5 ft more for each 45 degrees it turns (MOV-32). See :mod:`sftactics.grid.step_costs` for the details.

A step is illegal if the new space leaves the map or holds a wall square, impassable ground or a cover object
(fliers pass over impassable ground; burrowers go under everything but rock), if it crosses a wall or window, or
if it goes diagonally past a hard corner (MOV-11). Creatures (``occupants``, as seen by the mover):

* an ally's square may be passed, except when charging (MOV-13);
* an opponent's square may not, unless it is helpless (MOV-14) or the mover may pass opponents (e.g. a successful
  tumble; the check is the caller's); a creature that fills its squares can never be passed;
* movement may not end in another creature's square unless that creature is helpless (MOV-16), ally or enemy
  alike; a paralyzed creature is not helpless (CON-27): its square may be passed, at double cost, but not
  ended in; creatures smaller than a square may enter and share occupied squares (MOV-03, AOO-05).

Running and charging may not enter difficult terrain (MOV-17). Squeezing: a Small or Medium creature squeezes
through narrow squares; a creature of two squares or more squeezes into a space half as wide (a Large creature
through a one-square passage): it shrinks into part of its space and later grows back around where it is, at no
cost but never twice in a row, pays double for every square it moves while squeezed, and may stop squeezed only
where its full space does not fit (MOV-19). The caller applies the rest of the entangled condition; the grid
already charges the half speed.

Threat: ``threats`` maps each enemy to the squares it threatens; every step that leaves a space with a square
threatened by an enemy is reported as a :class:`Provocation`, so attacks of opportunity can be resolved before the
move goes on (AOO-06, AOO-07). ``start_exempt`` lists enemies whose threat on the starting space does not count
(withdraw, ACT-55); a guarded step provokes nothing (ACT-33).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from sftactics.core.errors import RuleViolation
from sftactics.grid.geometry import DIRECTIONS, Footprint, Square, as_footprint
from sftactics.grid.map import Feature, GridMap, edge_between
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.grid.space import is_sub_square
from sftactics.grid.step_costs import _NO_HEADING
from sftactics.grid.step_costs import CAN_RUN as CAN_RUN
from sftactics.grid.step_costs import MoveMode as MoveMode
from sftactics.grid.step_costs import Mover as Mover
from sftactics.grid.step_costs import Occupant as Occupant
from sftactics.grid.step_costs import PricedPath as PricedPath
from sftactics.grid.step_costs import Provocation as Provocation
from sftactics.grid.step_costs import Step as Step
from sftactics.grid.step_costs import step_cost as step_cost
from sftactics.grid.step_costs import turn_cost as turn_cost
from sftactics.grid.step_tables import StepTable, _blocked_mask, _difficulty_mask, _squeeze_stops, _steps_table

_SHIFT = 1 << 20  # search keys are primary * _SHIFT + secondary
_BIG = 1 << 60


# --- the search ---------------------------------------------------------------------------------------

# A search state is an int: ((anchor index * 2 + squeezed) * 2 + diagonal parity) * 18 + shifted * 9 + heading
# (heading 8: none; shifted: the last move was a squeeze shift, and two shifts in a row are not allowed).
# A move is (next state, cost, diagonal, doublings, squeezing, turn feet).
_Move = tuple[int, int, bool, int, bool, int]


class _Ctx:
    """Everything one movement question needs, precomputed."""

    def __init__(
        self,
        grid: GridMap,
        mover: Mover,
        occupants: Mapping[Square, Occupant] | None,
        hampered: Mapping[Square, int] | None,
        options: GridOptions,
    ) -> None:
        if mover.running and not CAN_RUN[mover.mode]:
            rule = "MOV-30" if mover.mode is MoveMode.CLIMB else "MOV-29"
            raise RuleViolation(rule, f"cannot run while using a {mover.mode} speed")
        self.grid, self.mover, self.options = grid, mover, options
        self.w, self.h = grid.width, grid.height
        n = mover.side
        self.sides = (n, (n + 1) // 2)
        self.squeeze_large = n >= 2 and mover.can_squeeze
        self.sqd = 2 if options.squeeze_speed == "quarter" else 1
        sub = is_sub_square(mover.size)
        walls = not (mover.mode is MoveMode.BURROW and mover.through_rock)
        narrow = 0 if (sub or n >= 2) else int(Feature.NARROW)
        difficult = _difficulty_mask(mover)
        self.blocked = (_blocked_mask(mover, False), _blocked_mask(mover, True))
        full, full_fits = _steps_table(grid, n, self.blocked[0], difficult, narrow, walls)
        small, small_fits = (
            _steps_table(grid, self.sides[1], self.blocked[1], difficult, 0, walls)
            if self.squeeze_large
            else (StepTable(self.w, self.h, 0, b"", b"", b"", b""), b"")
        )
        self.tables = (full, small)
        self.fits = (full_fits, small_fits)
        # a squeezed space is a place to stop only where no full space around it fits (MOV-19)
        self.squeeze_stop = _squeeze_stops(grid, n, full, small) if self.squeeze_large else b""
        self.no_difficult = mover.running or mover.charging
        self.hdc = options.hampered_diagonal_counts
        self.fly = mover.mode is MoveMode.FLY
        self.occ = tuple(self._occupancy(occupants or {}, hampered or {}, s, sub) for s in self.sides)

    def _occupancy(
        self, occupants: Mapping[Square, Occupant], hampered: Mapping[Square, int], side: int, sub: bool
    ) -> dict[int, tuple[bool, bool, int]]:
        """Per anchor whose space holds someone (or extra hampering): (passable, may stop, doublings)."""
        charging, pass_enemies = self.mover.charging, self.mover.pass_enemies
        per_square: dict[Square, tuple[bool, bool, int]] = {}
        for sq, who in occupants.items():
            if who is Occupant.FILLING:
                info = (False, False, 0)
            elif who is Occupant.HELPLESS_OBSTACLE:
                info = (True, True, 1)
            elif who is Occupant.PARALYZED:
                info = (True, sub, 1)
            elif who is Occupant.HELPLESS or sub:
                info = (True, True, 0)
            elif who is Occupant.ALLY:
                info = (not charging, False, 0)
            else:
                info = (pass_enemies, False, 0)
            per_square[sq] = info
        for sq, k in hampered.items():
            p, s, d = per_square.get(sq, (True, True, 0))
            per_square[sq] = (p, s, d + k)
        out: dict[int, tuple[bool, bool, int]] = {}
        for (sx, sy), (p, s, d) in per_square.items():
            for ax, ay in self._anchors_over(sx, sy, side):
                idx = ay * self.w + ax
                op, os_, od = out.get(idx, (True, True, 0))
                out[idx] = (op and p, os_ and s, max(od, d))
        return out

    def _anchors_over(self, sx: int, sy: int, side: int) -> Iterable[tuple[int, int]]:
        """Top-left squares of the side x side spaces on the map that contain square (sx, sy)."""
        for j in range(side):
            for i in range(side):
                ax, ay = sx - i, sy - j
                if 0 <= ax <= self.w - side and 0 <= ay <= self.h - side:
                    yield ax, ay

    def anchor_set(self, squares: Iterable[Square], sq: int) -> frozenset[int]:
        side = self.sides[sq]
        return frozenset(ay * self.w + ax for sx, sy in squares for ax, ay in self._anchors_over(sx, sy, side))

    def state(self, fp: Footprint, parity: int, heading: int | None) -> int:
        sq = 1 if fp.side != self.sides[0] else 0
        head = _NO_HEADING if heading is None else heading
        return (((fp.y * self.w + fp.x) * 2 + sq) * 2 + parity) * 18 + head

    @staticmethod
    def decode(st: int) -> tuple[int, int, int, int]:
        """(anchor index, squeezed, parity, heading) of a state."""
        rest, hs = divmod(st, 18)
        rest, par = divmod(rest, 2)
        idx, sq = divmod(rest, 2)
        return idx, sq, par, hs % 9

    def footprint(self, st: int) -> Footprint:
        idx, sq, _, _ = self.decode(st)
        return Footprint(idx % self.w, idx // self.w, self.sides[sq])

    def can_stop(self, st: int) -> bool:
        idx, sq, _, _ = self.decode(st)
        if sq and not self.squeeze_stop[idx]:
            return False
        info = self.occ[sq].get(idx)
        return info is None or info[1]

    def moves(self, st: int) -> list[_Move]:
        """Every legal move from a state (squeeze shifts cost 0)."""
        idx, sq, par, head = self.decode(st)
        occ = self.occ[sq]
        out: list[_Move] = []
        for nidx, di, diag, tdbl, narrow in self.tables[sq][idx]:
            if tdbl and self.no_difficult:
                continue
            k = tdbl
            o = occ.get(nidx)
            if o is not None:
                if not o[0]:
                    continue
                k += o[2]
            squeezing = bool(sq or narrow)
            if squeezing:
                k += self.sqd
            c = step_cost(diag, k, par)
            npar = par ^ 1 if diag and (k == 0 or self.hdc) else par
            turn = turn_cost(head, di) if self.fly else 0
            nhead = di if self.fly else head
            out.append(((((nidx * 2 + sq) * 2 + npar) * 18 + nhead), c + turn, diag, k, squeezing, turn))
        if self.squeeze_large and st % 18 < 9:
            out.extend(self._shifts(idx, sq, par, head))
        return out

    def _shifts(self, idx: int, sq: int, par: int, head: int) -> list[_Move]:
        n, m = self.sides
        x, y = idx % self.w, idx // self.w
        span = n - m
        if sq == 0:  # shrink into any part of the current space
            cand = [(x + i, y + j) for j in range(span + 1) for i in range(span + 1)]
        else:  # grow back into any full space around the squeezed one
            cand = [(x - i, y - j) for j in range(span + 1) for i in range(span + 1)]
        to_sq = 1 - sq
        size = self.sides[to_sq]
        out: list[_Move] = []
        for cx, cy in cand:
            if not (0 <= cx <= self.w - size and 0 <= cy <= self.h - size):
                continue
            cidx = cy * self.w + cx
            if not self.fits[to_sq][cidx]:
                continue
            o = self.occ[to_sq].get(cidx)
            if o is not None and not o[0]:
                continue
            out.append((((cidx * 2 + to_sq) * 2 + par) * 18 + 9 + head, 0, False, 0, to_sq == 1, 0))
        return out


_Parents = dict[int, tuple[int, int, bool, int, bool, int]]  # state -> (previous state, cost, diag, k, sq, turn)


def _search(
    ctx: _Ctx,
    seeds: Mapping[int, int],
    budget: int,
    *,
    provoking: tuple[frozenset[int], frozenset[int]] | None = None,
    goal: tuple[int, int] | None = None,
) -> tuple[dict[int, int], _Parents]:
    """Least-cost search from ``seeds`` (state -> key). Keys are ``used * _SHIFT + secondary``: the secondary is
    the total feet, or with ``provoking`` anchor sets the number of steps out of threatened spaces. Stops once
    ``goal`` (anchor index, squeezed) is settled in a state where the mover may stop."""
    dist: dict[int, int] = dict(seeds)
    parent: _Parents = {}
    heap = [(k, s) for s, k in seeds.items()]
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    tables, occs, sqd, hdc = ctx.tables, ctx.occ, ctx.sqd, ctx.hdc
    no_difficult, fly, shifts = ctx.no_difficult, ctx.fly, ctx.squeeze_large
    big = _BIG
    while heap:
        key, st = pop(heap)
        if key != dist.get(st):
            continue
        rest, hs = divmod(st, 18)
        shifted, head = divmod(hs, 9)
        rest, par = divmod(rest, 2)
        idx, sq = divmod(rest, 2)
        if goal is not None and idx == goal[0] and sq == goal[1] and ctx.can_stop(st):
            break
        used = key // _SHIFT
        # secondary key: -1 = add the feet; else 1 if leaving this space provokes
        leave = -1 if provoking is None else int(idx in provoking[sq])
        occ = occs[sq]
        base = sq * 36
        for nidx, di, diag, tdbl, narrow in tables[sq][idx]:
            k = tdbl
            if k and no_difficult:
                continue
            o = occ.get(nidx)
            if o is not None:
                if not o[0]:
                    continue
                k += o[2]
            if sq or narrow:
                k += sqd
            if k == 0:
                c = 10 if diag and par else 5
                npar = par ^ 1 if diag else par
            else:
                c = (15 << (k - 1)) if diag else (5 << k)
                npar = par ^ 1 if diag and hdc else par
            turn = 0
            nhead = head
            if fly:
                if head != _NO_HEADING:
                    d = (di - head) % 8
                    turn = 5 * (d if d <= 4 else 8 - d)
                nhead = di
            cost = c + turn
            if used + cost > budget:
                continue
            nst = nidx * 72 + base + npar * 18 + nhead
            nkey = key + cost * _SHIFT + (cost if leave < 0 else leave)
            if nkey < dist.get(nst, big):
                dist[nst] = nkey
                parent[nst] = (st, cost, diag, k, bool(sq or narrow), turn)
                push(heap, (nkey, nst))
        if shifts and not shifted:
            for nst, _cost, _diag, _k, sqz, _turn in ctx._shifts(idx, sq, par, head):
                if key < dist.get(nst, big):
                    dist[nst] = key
                    parent[nst] = (st, 0, False, 0, sqz, 0)
                    push(heap, (key, nst))
    return dist, parent


def _steps_to(ctx: _Ctx, parent: _Parents, end: int) -> tuple[int, list[Step]]:
    """Walk back from ``end`` to a state without a parent (a seed): (that seed, the steps in order)."""
    steps: list[Step] = []
    st = end
    while st in parent:
        prev, cost, diag, k, sqz, turn = parent[st]
        steps.append(Step(ctx.footprint(st), cost, diag, k, sqz, turn))
        st = prev
    steps.reverse()
    return st, steps


def _provocations(
    positions: Sequence[Footprint],
    threats: Mapping[str, Collection[Square]] | None,
    start_exempt: Collection[str],
) -> tuple[Provocation, ...]:
    if not threats:
        return ()
    out = []
    for i, here in enumerate(positions[:-1]):
        if _is_shift(here, positions[i + 1]):
            continue  # squeezing in place leaves no square
        for enemy, zone in threats.items():
            if i == 0 and enemy in start_exempt:
                continue
            if any(s in zone for s in here.squares):
                out.append(Provocation(i, here, enemy))
    return tuple(out)


def _is_shift(a: Footprint, b: Footprint) -> bool:
    """A squeeze (or growing back) within the same space."""
    big, small = (a, b) if a.side >= b.side else (b, a)
    return a.side != b.side and all(big.contains(s) for s in small.squares)


def _priced(
    ctx: _Ctx,
    start: Footprint,
    steps: Sequence[Step],
    diagonals_before: int,
    heading: int | None,
    threats: Mapping[str, Collection[Square]] | None,
    start_exempt: Collection[str],
) -> PricedPath:
    positions = [start, *(s.to for s in steps)]
    diagonals = diagonals_before
    head = heading
    for prev, s in zip(positions, steps, strict=False):
        if s.diagonal and (s.doublings == 0 or ctx.hdc):
            diagonals += 1
        if ctx.fly and not _is_shift(prev, s.to):
            head = DIRECTIONS.index((s.to.x - prev.x, s.to.y - prev.y))
    last_legal = 0
    for i, p in enumerate(positions):
        if i == 0 or ctx.can_stop(ctx.state(p, 0, None)):
            last_legal = i
    return PricedPath(
        start,
        tuple(steps),
        sum(s.cost_ft for s in steps),
        diagonals,
        head,
        _provocations(positions, threats, start_exempt),
        last_legal == len(positions) - 1,
        last_legal,
    )


# --- public API ---------------------------------------------------------------------------------------


def _start(start: Square | Footprint, mover: Mover) -> Footprint:
    return as_footprint(start, mover.side)


def price_path(
    grid: GridMap,
    start: Square | Footprint,
    path: Sequence[Square | Footprint],
    mover: Mover = Mover(),  # noqa: B008 (Mover is a frozen dataclass)
    *,
    occupants: Mapping[Square, Occupant] | None = None,
    threats: Mapping[str, Collection[Square]] | None = None,
    start_exempt: Collection[str] = (),
    hampered: Mapping[Square, int] | None = None,
    diagonals_before: int = 0,
    heading: int | None = None,
    options: GridOptions = DEFAULT_OPTIONS,
) -> PricedPath:
    """Check and price a path given square by square: each entry is the top-left square of the mover's next
    space, or a :class:`Footprint` (a smaller one for a Large or bigger creature that squeezes). Raises
    :class:`RuleViolation` naming the rule an illegal step breaks."""
    ctx = _Ctx(grid, mover, occupants, hampered, options)
    first = here = _start(start, mover)
    st = ctx.state(here, diagonals_before % 2, heading)
    steps: list[Step] = []
    for i, nxt in enumerate(path):
        target = nxt if isinstance(nxt, Footprint) else Footprint(nxt[0], nxt[1], here.side)
        for nst, cost, diag, k, sqz, turn in ctx.moves(st):
            if ctx.footprint(nst) == target:
                st = nst
                steps.append(Step(target, cost, diag, k, sqz, turn))
                break
        else:
            rule, why = _why_illegal(ctx, here, target)
            raise RuleViolation(rule, f"step {i + 1}, {here.anchor} to {target.anchor}: {why}")
        here = target
    return _priced(ctx, first, steps, diagonals_before, heading, threats, start_exempt)


def _why_illegal(ctx: _Ctx, here: Footprint, to: Footprint) -> tuple[str, str]:
    """The rule a step that the search does not allow breaks, for the error message."""
    grid, mover = ctx.grid, ctx.mover
    dx, dy = to.x - here.x, to.y - here.y
    if to.side == here.side and max(abs(dx), abs(dy)) != 1:
        return "MOV-01", "not an adjacent square"
    if not grid.fits(to):
        return "MOV-01", "off the map"
    for sq in to.squares:
        f = grid.features(sq)
        if f & (Feature.SOLID | Feature.COVER):
            return "MOV-01", f"{sq} is a wall or an object"
        if f & Feature.IMPASSABLE and mover.mode is not MoveMode.FLY:
            return "MOV-01", f"{sq} is impassable"
        if f & Feature.NARROW and ctx.blocked[0 if to.side == ctx.sides[0] else 1] & Feature.NARROW:
            return "MOV-19", f"{sq} is too narrow"
        if f & Feature.DIFFICULT and ctx.no_difficult and not mover.incorporeal:
            return "MOV-17", f"{sq} is difficult terrain: no running or charging across it"
    if to.side != here.side:
        return "MOV-19", "cannot squeeze or grow back there"
    for sq in here.squares:
        t = (sq[0] + dx, sq[1] + dy)
        if here.contains(t):
            continue
        if dx and dy and grid.is_hard_point((max(sq[0], t[0]), max(sq[1], t[1]))):
            return "MOV-11", "no diagonal move past a hard corner"
        if not (dx and dy) and edge_between(sq, t) in grid.blocking_edges:
            return "MOV-11", "a wall is in the way"
    if mover.charging:
        return "MOV-13", "no moving through other creatures while charging"
    return "MOV-14", "an opponent is in the way"


def _exempt_start(
    provoking: tuple[frozenset[int], frozenset[int]],
    seed: int,
    here: Footprint,
    threats: Mapping[str, Collection[Square]] | None,
    start_exempt: Collection[str],
) -> tuple[frozenset[int], frozenset[int]]:
    """The anchors whose leaving counts as a provocation, without the starting space when only exempt enemies
    threaten it (a withdraw, ACT-55): leaving it provokes nothing, so a path that begins by stepping out of it
    is not ranked behind an equally cheap one that provokes later (a big mover may leave it by a squeeze)."""
    if not start_exempt or not threats:
        return provoking
    if any(s in zone for e, zone in threats.items() if e not in start_exempt for s in here.squares):
        return provoking
    idx, sq = divmod(seed // 36, 2)
    out = list(provoking)
    out[sq] = out[sq] - {idx}
    return out[0], out[1]


def find_path(
    grid: GridMap,
    start: Square | Footprint,
    goal: Square | Footprint,
    mover: Mover = Mover(),  # noqa: B008 (Mover is a frozen dataclass)
    *,
    occupants: Mapping[Square, Occupant] | None = None,
    threats: Mapping[str, Collection[Square]] | None = None,
    start_exempt: Collection[str] = (),
    hampered: Mapping[Square, int] | None = None,
    budget_ft: int | None = None,
    diagonals_before: int = 0,
    heading: int | None = None,
    options: GridOptions = DEFAULT_OPTIONS,
) -> PricedPath | None:
    """The cheapest legal path to ``goal`` that ends where the mover may stop, within ``budget_ft`` if given.

    Among equally cheap paths it takes one with the fewest steps out of threatened spaces. None if there is
    no such path.
    """
    ctx = _Ctx(grid, mover, occupants, hampered, options)
    here = _start(start, mover)
    target = goal if isinstance(goal, Footprint) else Footprint(goal[0], goal[1], here.side)
    if not grid.fits(target):
        return None
    seed = ctx.state(here, diagonals_before % 2, heading)
    want = (target.y * grid.width + target.x, 0 if target.side == ctx.sides[0] else 1)
    zone = [sq for squares in (threats or {}).values() for sq in squares]
    provoking = (ctx.anchor_set(zone, 0), ctx.anchor_set(zone, 1) if ctx.squeeze_large else frozenset())
    provoking = _exempt_start(provoking, seed, here, threats, start_exempt)
    budget = budget_ft if budget_ft is not None else _SHIFT - 1
    dist, parent = _search(ctx, {seed: 0}, budget, provoking=provoking, goal=want)
    ends = [(k, st) for st, k in dist.items() if ctx.decode(st)[:2] == want and ctx.can_stop(st)]
    if not ends:
        return None
    _, steps = _steps_to(ctx, parent, min(ends)[1])
    return _priced(ctx, here, steps, diagonals_before, heading, threats, start_exempt)


@dataclass(frozen=True)
class ReachMap:
    """Every space the mover can reach and stop in, keyed by its top-left square.

    ``cost`` is the feet of movement spent on the way, ``actions`` how many move actions it takes (0 for the
    start square). ``squeezed`` holds the squares where the mover ends up squeezed (Large and bigger).
    """

    start: Footprint
    cost: dict[Square, int]
    actions: dict[Square, int]
    squeezed: frozenset[Square]
    paths: Mapping[Square, PricedPath]

    def within(self, actions: int = 1) -> frozenset[Square]:
        return frozenset(s for s, a in self.actions.items() if a <= actions)

    def path_to(self, square: Square) -> PricedPath:
        """The path the search found to ``square`` (built on request)."""
        return self.paths[square]


class _LazyPaths(dict[Square, PricedPath]):
    """Builds the path to a square only when it is asked for."""

    def __init__(self, build: Callable[[Square], PricedPath]) -> None:
        super().__init__()
        self._build = build

    def __missing__(self, key: Square) -> PricedPath:
        value = self._build(key)
        self[key] = value
        return value


def reachable(
    grid: GridMap,
    start: Square | Footprint,
    mover: Mover = Mover(),  # noqa: B008 (Mover is a frozen dataclass)
    *,
    occupants: Mapping[Square, Occupant] | None = None,
    hampered: Mapping[Square, int] | None = None,
    actions: int = 1,
    diagonals_before: int = 0,
    heading: int | None = None,
    options: GridOptions = DEFAULT_OPTIONS,
) -> ReachMap:
    """Every space reachable with one move action (``actions=1``) or a double move (``actions=2``), with cost.

    A double move is two move actions, each within the speed and each ending in a legal space, the diagonal
    count carrying over unless ``GridOptions.diagonal_count_resets`` says otherwise; with
    ``GridOptions.double_move = "pooled"`` it is one movement of up to twice the speed (MOV-05).
    """
    if actions not in (1, 2):
        raise ValueError("one move action or a double move (actions=1 or 2)")
    ctx = _Ctx(grid, mover, occupants, hampered, options)
    here = _start(start, mover)
    seed = ctx.state(here, diagonals_before % 2, heading)
    speed = mover.speed
    pooled = options.double_move == "pooled" and actions == 2
    d1, p1 = _search(ctx, {seed: 0}, 2 * speed if pooled else speed)
    # square -> (actions, total feet, squeezed, stage, state)
    best: dict[Square, tuple[int, int, int, int, int]] = {}
    w = grid.width

    def consider(dist: Mapping[int, int], stage: int) -> None:
        for st, key in dist.items():
            if not ctx.can_stop(st):
                continue
            idx, sq, _, _ = ctx.decode(st)
            used, total = divmod(key, _SHIFT)
            n_act = 2 if stage == 2 else (0 if st == seed else (1 if used <= speed else 2))
            anchor = (idx % w, idx // w)
            cand = (n_act, total, sq, stage, st)
            old = best.get(anchor)
            if old is None or cand < old:
                best[anchor] = cand

    consider(d1, 1)
    links: dict[int, int] = {}
    p2: _Parents = {}
    if actions == 2 and not pooled:
        reset = options.diagonal_count_resets == "move_action"
        seeds2: dict[int, int] = {}
        for st, key in d1.items():
            if not ctx.can_stop(st):
                continue
            s2 = st
            if reset:
                s2 = st - st % 36 + st % 18  # diagonal parity 0, the rest kept
            if key % _SHIFT < seeds2.get(s2, _BIG):
                seeds2[s2] = key % _SHIFT
                links[s2] = st
        d2, p2 = _search(ctx, seeds2, speed)
        consider(d2, 2)

    def build(anchor: Square) -> PricedPath:
        _, _, _, stage, st = best[anchor]
        steps: list[Step] = []
        if stage == 2:
            mid, steps = _steps_to(ctx, p2, st)
            st = links[mid]
        _, first = _steps_to(ctx, p1, st)
        return _priced(ctx, here, first + steps, diagonals_before, heading, None, ())

    return ReachMap(
        here,
        {a: v[1] for a, v in best.items()},
        {a: v[0] for a, v in best.items()},
        frozenset(a for a, v in best.items() if v[2]),
        _LazyPaths(build),
    )


def guarded_step_squares(
    grid: GridMap,
    start: Square | Footprint,
    mover: Mover = Mover(),  # noqa: B008 (Mover is a frozen dataclass)
    *,
    occupants: Mapping[Square, Occupant] | None = None,
    diagonals_before: int = 0,
    options: GridOptions = DEFAULT_OPTIONS,
) -> frozenset[Square]:
    """Squares a guarded step (5 ft, provokes nothing) can reach (ACT-33). A step costing more than 5 ft
    (difficult terrain, a second diagonal) is allowed only with ``GridOptions.guarded_step_into_difficult``."""
    ctx = _Ctx(grid, mover, occupants, None, options)
    st = ctx.state(_start(start, mover), diagonals_before % 2, None)
    return frozenset(
        ctx.footprint(nst).anchor
        for nst, cost, *_ in ctx.moves(st)
        if ctx.decode(nst)[1] == 0 and ctx.can_stop(nst) and (cost <= 5 or options.guarded_step_into_difficult)
    )


def minimum_move_squares(
    grid: GridMap,
    start: Square | Footprint,
    mover: Mover = Mover(),  # noqa: B008 (Mover is a frozen dataclass)
    *,
    occupants: Mapping[Square, Occupant] | None = None,
    options: GridOptions = DEFAULT_OPTIONS,
) -> frozenset[Square]:
    """Squares a full-action minimum move reaches: 1 square in any direction whatever it costs, but never
    through walls or impassable squares, nor into a space where one cannot stop (ACT-56, MOV-20). Unlike a
    guarded step it provokes as normal movement does."""
    ctx = _Ctx(grid, mover, occupants, None, options)
    st = ctx.state(_start(start, mover), 0, None)
    return frozenset(
        ctx.footprint(nst).anchor for nst, *_ in ctx.moves(st) if ctx.decode(nst)[1] == 0 and ctx.can_stop(nst)
    )
