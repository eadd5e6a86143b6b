"""Planning movement for a combatant: the grid's path finder with the creature's speed and the other combatants
as allies, enemies or helpless bodies (ACT-30..35, ACT-50, ACT-54..56, MOV-05..20).

One move action moves up to the creature's speed (after conditions and armor, MOV-06); a second move action is
a second command (a double move). The 1-2 diagonal count carries over between the moves of one turn (MOV-10
default). The plan lists where the mover leaves a square threatened by an enemy, so attacks of opportunity can
be resolved before it goes on (AOO-06, AOO-08).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sftactics.core.errors import RuleViolation
from sftactics.encounter import space
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid.geometry import Footprint, count_squares, space_shift_ft
from sftactics.grid.map import Feature
from sftactics.grid.movement import MoveMode, Mover, Occupant, PricedPath, find_path, price_path, step_cost
from sftactics.grid.space import Size, is_sub_square
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class MovePlan:
    """Where the mover goes: every position (start first), the cost and diagonal flag of each step, and the
    steps that leave a threatened square (step index, enemy)."""

    positions: tuple[Square, ...]
    costs: tuple[int, ...]
    diagonal: tuple[bool, ...]
    provocations: tuple[tuple[int, str], ...]
    lines: tuple[str, ...]
    what: str = "moves"
    budget_ft: int | None = None  # None: no map, the move is priced by distance alone

    @property
    def cost_ft(self) -> int:
        return sum(self.costs)


#: When creatures share a square (someone standing over a helpless one), the one that restricts movement most
#: decides what the square is to a mover.
_RESTRICTS = {Occupant.HELPLESS: 0, Occupant.PARALYZED: 1, Occupant.ALLY: 2, Occupant.ENEMY: 3}


def occupants(state: Encounter, mover: Combatant) -> dict[Square, Occupant]:
    """What stands in each square for ``mover``: helpless, paralyzed, an ally or an enemy (MOV-13..16); where
    several creatures share a square, the most restrictive of them."""
    out: dict[Square, Occupant] = {}
    for c in state.combatants.values():
        if c.id == mover.id or c.position is None or c.fled or c.creature.has("dead"):
            continue
        fp = space.footprint(c)
        assert fp is not None
        active = cond.active(c.creature)
        if "helpless" in active:
            kind = Occupant.HELPLESS
        elif "paralyzed" in active:
            kind = Occupant.PARALYZED
        elif c.side == mover.side:
            kind = Occupant.ALLY
        else:
            kind = Occupant.ENEMY
        for sq in fp.squares:
            old = out.get(sq)
            if old is None or _RESTRICTS.get(kind, 3) > _RESTRICTS.get(old, 3):
                out[sq] = kind
    if state.vehicles:  # a vehicle fills its space: nobody on foot enters or passes it (VEH-15)
        from sftactics.encounter.vehicles import vehicle_squares

        for sq in vehicle_squares(state):
            out[sq] = Occupant.FILLING
    return out


def mover_for(c: Combatant, *, speed: int | None = None, charging: bool = False, running: bool = False) -> Mover:
    return Mover(
        size=Size(c.creature.stat.size),
        speed=stats.speed(c.creature).total if speed is None else speed,
        mode=MoveMode(stats.move_mode(c.creature)),
        incorporeal=c.creature.stat.incorporeal,
        charging=charging,
        running=running,
    )


def plan(
    state: Encounter,
    c: Combatant,
    *,
    to: Square | None,
    path: tuple[Square, ...] | None,
    budget_ft: int | None = None,
    threats: dict[str, frozenset[Square]] | None = None,
    start_exempt: frozenset[str] = frozenset(),
    charging: bool = False,
    running: bool = False,
    what: str = "moves",
    rule: str = "ACT-35",
) -> MovePlan:
    """A legal path within ``budget_ft`` (default: the speed) to ``to`` or along ``path``; RuleViolation if
    there is none."""
    if c.position is None:
        raise RuleViolation("MOV-05", f"{c.id} has no position on the map")
    if (to is None) == (path is None):
        raise RuleViolation(rule, "a move needs either a destination ('to') or a 'path'")
    speed_bd = stats.speed(c.creature)
    if speed_bd.total <= 0:
        held = _slowed_by(c, ("zero",))
        if held:
            raise RuleViolation(held[0][1], f"{c.id} cannot move while {_names(held)} ({speed_bd.describe()})")
        if budget_ft is None:
            raise RuleViolation("MOV-06", f"{c.id} cannot move ({speed_bd.describe()})")
    budget = speed_bd.total if budget_ft is None else budget_ft
    grid = state.grid
    if grid is None:
        goal = to if to is not None else (path[-1] if path else c.position)
        dx, dy = abs(goal[0] - c.position[0]), abs(goal[1] - c.position[1])
        cost = 5 * count_squares(dx, dy, c.diagonals)
        if cost > budget:
            raise RuleViolation(rule, f"{goal} is {cost} ft away; {c.id} may move {budget} ft")
        taken = _occupied(state, c, goal)
        if taken:
            raise RuleViolation("MOV-16", f"{c.id} cannot end its move in {taken}'s square")
        line = f"{c.id} {what} {cost} ft to {goal[0]},{goal[1]}"
        return MovePlan((c.position, goal), (cost,), (dx > 0 and dy > 0,), (), (line,), what)
    occ = occupants(state, c)
    mover = mover_for(c, speed=budget, charging=charging, running=running)
    priced: PricedPath
    if path is not None:
        priced = price_path(grid, c.position, list(path), mover, occupants=occ, threats=threats,
                            start_exempt=start_exempt, diagonals_before=c.diagonals)  # fmt: skip
        if priced.cost_ft > budget:
            raise _too_far(c, priced, budget, budget_ft, rule, f"that path costs {priced.cost_ft} ft")
        if not priced.end_legal:
            raise RuleViolation("MOV-16", f"{c.id} cannot end its move in an occupied square")
    else:
        assert to is not None
        found = find_path(grid, c.position, to, mover, occupants=occ, threats=threats, start_exempt=start_exempt,
                          budget_ft=budget, diagonals_before=c.diagonals)  # fmt: skip
        if found is None:
            blocker = _blocker_at(state, c, to)
            if blocker is not None:
                raise RuleViolation("MOV-16", f"{c.id} cannot end its move in {blocker}'s square")
            cannot = space.placement_problem(state, c, to, among=())  # off the map, a wall, an object: say which
            if cannot is not None:
                raise RuleViolation(rule, cannot[1])
            # why not: the same goal with a looser budget (enough to tell a halved speed or doubled costs)
            anyhow = find_path(grid, c.position, to, mover, occupants=occ, budget_ft=max(4 * budget, 60),
                               diagonals_before=c.diagonals)  # fmt: skip
            if anyhow is None or anyhow.cost_ft <= budget:
                raise RuleViolation(rule, f"{c.id} has no legal path to {to} within {budget} ft")
            raise _too_far(c, anyhow, budget, budget_ft, rule, f"the cheapest path to {to} costs {anyhow.cost_ft} ft")
        priced = found
    squares = priced.squares
    provs = tuple(sorted((p.step, p.enemy) for p in priced.provocations))
    line = f"{c.id} {what} {priced.cost_ft} ft: {' -> '.join(f'{x},{y}' for x, y in squares)} (up to {budget} ft)"
    return MovePlan(
        squares,
        tuple(s.cost_ft for s in priced.steps),
        tuple(s.diagonal for s in priced.steps),
        provs,
        (line,),
        what,
        budget,
    )


def _slowed_by(c: Combatant, effects: tuple[str, ...]) -> list[tuple[str, str]]:
    """(name, rule) of each condition on ``c`` whose speed effect is one of ``effects`` ("zero", "half",
    "five", "minus10"), the most specific first (pinned before the grappled it implies)."""
    found = [(n, d.rule) for n, d in cond.active(c.creature).items() if d.speed in effects]
    return sorted(found, key=lambda nr: (nr[0] == "grappled", nr[0]))


def _names(found: list[tuple[str, str]]) -> str:
    return " and ".join(f"{n} ({r})" for n, r in found)


def _too_far(c: Combatant, path: PricedPath, budget: int, budget_ft: int | None, rule: str, what: str) -> RuleViolation:
    """The refusal of a path that costs more than the budget, naming its cause (issue 14): a condition that cut
    the speed when the path would be too long for the cut speed even on open ground but fits the speed without
    it (CON-14 entangled...), else terrain whose cost doubled twice or more (MOV-18), else the action's own
    rule."""
    speed = stats.speed(c.creature)
    base = sum(t.value for t in speed.applied if t.rule == "MOV-05")
    factor = 1  # how many speeds the budget is (a withdraw: 2, a run: 4); 0 if it is not a multiple
    if budget_ft is not None:
        factor = budget_ft // speed.total if speed.total and budget_ft % speed.total == 0 else 0
    slowed = _slowed_by(c, ("half", "five", "minus10"))
    diagonals = sum(1 for s in path.steps if s.diagonal)  # the same path on open ground:
    plain = 5 * (len(path.steps) - diagonals) + sum(step_cost(True, 0, i) for i in range(diagonals))
    if slowed and factor and plain > budget and path.cost_ft <= factor * base:
        why = f"{what}; {c.id} may move {budget} ft while {_names(slowed)}, {factor * base} ft otherwise"
        return RuleViolation(slowed[0][1], why)
    compounded = [s.to.anchor for s in path.steps if s.doublings >= 2]
    if compounded:
        where = ", ".join(f"{x},{y}" for x, y in compounded)
        why = f"{what} ({where}: movement cost doubled twice or more); {c.id} may move {budget} ft"
        return RuleViolation("MOV-18", why)
    tight = sum(1 for s in path.steps if s.squeezed)
    if tight:
        more = f"squeezing through {tight} narrow space(s) costs double movement"
        return RuleViolation("MOV-19", f"{what}; {c.id} may move {budget} ft: {more}")
    return RuleViolation(rule, f"{what}; {c.id} may move {budget} ft")


def minimum_plan(
    state: Encounter, c: Combatant, to: Square, *, threats: dict[str, frozenset[Square]] | None = None
) -> MovePlan:
    """Minimum movement (ACT-56, MOV-20): one step to an adjacent square, diagonal or into difficult terrain,
    whatever it costs and whatever penalties cut the speed; never through walls or impassable ground, nor to a
    square it may not stop in. It provokes as movement does."""
    if c.position is None:
        raise RuleViolation("MOV-05", f"{c.id} has no position on the map")
    dx, dy = to[0] - c.position[0], to[1] - c.position[1]
    if max(abs(dx), abs(dy)) != 1:
        raise RuleViolation("ACT-56", f"minimum movement is one step of 5 ft to an adjacent square, not to {to}")
    grid = state.grid
    if grid is None:
        taken = _occupied(state, c, to)
        if taken:
            raise RuleViolation("MOV-16", f"{c.id} cannot end its move in {taken}'s square")
        line = f"{c.id} moves 5 ft to {to[0]},{to[1]} (minimum movement, ACT-56)"
        return MovePlan((c.position, to), (5,), (bool(dx and dy),), (), (line,))
    priced = price_path(grid, c.position, [to], mover_for(c), occupants=occupants(state, c), threats=threats,
                        diagonals_before=c.diagonals)  # fmt: skip
    if not priced.end_legal:
        raise RuleViolation("MOV-16", f"{c.id} cannot end its move in an occupied square")
    step = priced.steps[0]
    line = (f"{c.id} moves 5 ft to {to[0]},{to[1]} (minimum movement, ACT-56: allowed whatever the speed; "
            f"the step costs {step.cost_ft} ft of movement)")  # fmt: skip
    provs = tuple(sorted((p.step, p.enemy) for p in priced.provocations))
    return MovePlan(priced.squares, (step.cost_ft,), (step.diagonal,), provs, (line,))


def straight(plan_: MovePlan) -> bool:
    """All steps in one direction (run, ACT-54)."""
    steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(plan_.positions, plan_.positions[1:], strict=False)}
    return len(steps) <= 1


def attack_squares(
    state: Encounter, c: Combatant, target: Combatant, reach_ok: object, *, reach_ft: int | None = None
) -> list[Square]:
    """Squares from which ``c`` could attack ``target`` (``reach_ok(footprint) -> bool``). With ``reach_ft``
    (the attack's reach), only spaces within that reach of the target are tried, not the whole map."""
    grid = state.grid
    fp_t = space.footprint(target)
    me = space.footprint(c)
    if grid is None or fp_t is None or me is None:
        return []
    xs, ys = range(grid.width), range(grid.height)
    if reach_ft is not None:  # a space within reach is at most this many squares from the target (AOO-04)
        r = max(2, reach_ft // 5) + me.side - 1
        xs = range(max(0, fp_t.x - r), min(grid.width, fp_t.x + fp_t.side + r))
        ys = range(max(0, fp_t.y - r), min(grid.height, fp_t.y + fp_t.side + r))
    out = []
    for y in ys:
        for x in xs:
            fp = Footprint(x, y, me.side)
            if grid.fits(fp) and reach_ok(fp):  # type: ignore[operator]
                out.append((x, y))

    def key(sq: Square) -> tuple[int, int, Square]:
        dist = space_shift_ft(me, Footprint(sq[0], sq[1], me.side))  # how far the space moves there
        # among equally near squares, the one most directly toward the target
        cx, cy = fp_t.x + fp_t.side / 2, fp_t.y + fp_t.side / 2
        ox, oy = me.x + me.side / 2, me.y + me.side / 2
        px, py = sq[0] + me.side / 2, sq[1] + me.side / 2
        off = abs((cx - ox) * (py - oy) - (cy - oy) * (px - ox))
        return (dist, round(off * 1000), sq)

    out.sort(key=key)
    return out


def charge_goal(
    c: Combatant,
    target: Combatant,
    squares: list[Square],
    *,
    to: Square | None,
    path: tuple[Square, ...] | None,
    can_hit: Callable[[Footprint], bool],
) -> Square:
    """The square a charge ends in (ACT-50). ``squares`` are the squares from which ``c`` could attack
    ``target``, nearest first (:func:`attack_squares`). Without ``to`` or ``path`` the first of them; otherwise
    the one named, which must let ``c`` attack and be one of the nearest such squares (the rules make the
    charger end in the space closest to its start)."""
    if to is None and not path:
        return squares[0]
    if path is not None and not path:
        raise RuleViolation("ACT-50", "a charge path needs at least one square")
    goal = to if to is not None else path[-1]  # type: ignore[index]
    if path and to is not None and path[-1] != to:
        raise RuleViolation("ACT-50", f"the charge path ends at {path[-1]}, not at {to}")
    me = space.footprint(c)
    assert me is not None
    fp = Footprint(goal[0], goal[1], me.side)
    if not can_hit(fp):
        raise RuleViolation("ACT-50", f"{c.id} could not attack {target.id} from {goal[0]},{goal[1]}")
    nearest = space_shift_ft(me, Footprint(squares[0][0], squares[0][1], me.side))
    dist = space_shift_ft(me, fp)
    if dist > nearest:
        raise RuleViolation(
            "ACT-50",
            f"a charge ends in the nearest square from which {c.id} can attack {target.id}: {goal[0]},{goal[1]} "
            f"is {dist} ft away, {squares[0][0]},{squares[0][1]} only {nearest} ft",
        )
    return goal


#: Squares the straight line of a charge may not cross: walls, obstacles, ground that slows movement (difficult
#: terrain, low obstacles) and narrow passages (squeezing makes the charger entangled) (ACT-50, MOV-19).
CHARGE_BLOCKERS = Feature.SOLID | Feature.IMPASSABLE | Feature.COVER | Feature.DIFFICULT | Feature.LOW | Feature.NARROW


def clear_line(state: Encounter, c: Combatant, goal: Square) -> str | None:
    """Why the straight line from ``c``'s space to ``goal`` is not clear for a charge (ACT-50), or None: every
    square the line crosses must be free of walls, obstacles, difficult terrain, narrow passages and creatures
    (helpless ones excepted)."""
    grid = state.grid
    me = space.footprint(c)
    if grid is None or me is None:
        return None
    bad = CHARGE_BLOCKERS
    occ = occupants(state, c)
    x0, y0 = me.x + me.side / 2, me.y + me.side / 2
    x1, y1 = goal[0] + me.side / 2, goal[1] + me.side / 2
    n = int(max(abs(x1 - x0), abs(y1 - y0)) * 8) + 1
    half = me.side / 2
    for i in range(n + 1):
        t = i / n
        cx, cy = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        # the squares the mover's space covers at this point of the line
        for sx in range(int(cx - half + 1e-9), int(cx + half - 1e-9) + 1):
            for sy in range(int(cy - half + 1e-9), int(cy + half - 1e-9) + 1):
                sq = (sx, sy)
                if me.contains(sq):
                    continue
                if not grid.in_bounds(sq) or grid.features(sq) & bad:
                    return f"the line to {goal} crosses {sq}, which blocks or slows movement"
                who = occ.get(sq)
                if who is not None and who is not Occupant.HELPLESS:
                    return f"the line to {goal} crosses {sq}, where a creature stands"
    return None


def _occupied(state: Encounter, c: Combatant, square: Square) -> str | None:
    """Who keeps ``c`` from ending its move in ``square`` on a fight without a map: anyone there but a helpless
    creature (MOV-16; the same answer as :func:`occupants` gives the grid). A creature smaller than a square may
    share squares (MOV-03)."""
    if is_sub_square(Size(c.creature.stat.size)):
        return None
    for o in state.combatants.values():
        if o.id == c.id or o.position is None or o.fled or o.creature.has("dead"):
            continue
        fp = space.footprint(o)
        if fp is not None and fp.contains(square) and "helpless" not in cond.active(o.creature):
            return o.id
    return None


def _blocker_at(state: Encounter, c: Combatant, to: Square) -> str | None:
    """A creature (not dead, not helpless) in the space ``c`` would end in at ``to``: no move may end there
    (MOV-16)."""
    here = space.footprint(c)
    if here is None or is_sub_square(Size(c.creature.stat.size)):
        return None
    return space.occupant(state, c, Footprint(to[0], to[1], here.side), helpless_yield=True)
