"""Questions about the board: pure functions over an :class:`~sftactics.encounter.state.Encounter` that answer
what a player, a GM, a bot or a table asks before acting (who threatens this square? what would this path
provoke? what is my AC right now?).

Every answer is an :class:`Answer`: the value, the terms that make a number (as ``Breakdown`` terms), the lines
checked or reasons, and the rule IDs, all JSON-serialisable (``answer.model_dump(mode="json")``). Nothing here
decides a rule: each answer calls the function the engine itself uses for the same check (``encounter.space``,
``encounter.movement``, ``encounter.reactions``, ``encounter.budget``, ``encounter.effects``, ``grid``,
``sf1e.stats``), so the answer and the engine cannot disagree. No question changes the state.

A target is a combatant's id or a square ``(x, y)``. Squares are ``(x, y)`` from the top-left of the map
(see docs/maps.md); area origins are grid points written the same way. The CLI is ``sftactics query``
(:mod:`sftactics.query_cli`); docs/query.md lists every question with an example.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from sftactics.core.breakdown import Breakdown, Term
from sftactics.core.errors import SftError
from sftactics.dice.source import ScriptedDice
from sftactics.encounter import budget, gm_setup, movement, perception, reactions, space, threat
from sftactics.encounter.commands import AreaSpec
from sftactics.encounter.effects import build_area
from sftactics.encounter.state import Combatant, Encounter
from sftactics.encounter.tx import Tx
from sftactics.grid import areas as grid_areas
from sftactics.grid.cover import CoverKind, cover
from sftactics.grid.geometry import Footprint, footprint_distance_ft
from sftactics.grid.lines import has_line_of_effect, has_line_of_sight
from sftactics.grid.movement import price_path
from sftactics.grid.movement import reachable as grid_reachable
from sftactics.grid.space import reach_covers
from sftactics.sf1e import stats as sf1e_stats
from sftactics.sf1e.class_abilities import describe as describe_ability
from sftactics.sf1e.statblock import Weapon

Square = tuple[int, int]
Where = str | Square  # a combatant's id or a square
T = TypeVar("T")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# ---------------------------------------------------------------- the explained value
class TermOut(_Model):
    """One term of an explained number (``core.breakdown.Term`` as data)."""

    value: int
    label: str
    type: str = "untyped"
    rule: str = ""
    source: str = ""

    @classmethod
    def of(cls, t: Term) -> TermOut:
        return cls(value=t.value, label=t.label, type=str(t.type), rule=t.rule, source=t.source)


class BreakdownOut(_Model):
    """An explained number: total, the terms counted and those left out (with why)."""

    label: str
    total: int
    terms: tuple[TermOut, ...] = ()
    not_counted: tuple[str, ...] = ()

    @classmethod
    def of(cls, b: Breakdown) -> BreakdownOut:
        left = tuple(f"{s.term.describe()}: {s.reason}" for s in b.suppressed)
        return cls(label=b.label, total=b.total, terms=tuple(TermOut.of(t) for t in b.applied), not_counted=left)

    def describe(self) -> str:
        body = " ".join(f"{t.value:+d} {t.label}" + (f" [{t.rule}]" if t.rule else "") for t in self.terms)
        return f"{self.label} {self.total} = {body or '0'}"


class Answer(_Model, Generic[T]):
    """The answer to one question: ``value``, the ``terms`` of the number it is (if it is one), the ``lines``
    checked or reasons given, and the ``rules`` behind it."""

    question: str
    value: T
    terms: tuple[TermOut, ...] = ()
    lines: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()


def _answer(
    question: str, value: T, *, terms: Iterable[Term] = (), lines: Iterable[str] = (), rules: Iterable[str] = ()
) -> Answer[T]:
    terms = tuple(terms)
    ids = list(dict.fromkeys([*rules, *(t.rule for t in terms if t.rule)]))
    return Answer(
        question=question,
        value=value,
        terms=tuple(TermOut.of(t) for t in terms),
        lines=tuple(lines),
        rules=tuple(ids),
    )


def _sq(s: Square) -> str:
    return f"{s[0]},{s[1]}"


def _placed(enc: Encounter, cid: str) -> tuple[Combatant, Footprint]:
    c = enc.get(cid)
    fp = space.footprint(c)
    if fp is None:
        raise SftError(f"{cid} has no position on the map")
    return c, fp


def _space_of(enc: Encounter, where: Where) -> tuple[str, Footprint]:
    """(name, space) of a combatant or a single square."""
    if isinstance(where, str):
        return where, _placed(enc, where)[1]
    return f"square {_sq(where)}", Footprint(where[0], where[1], 1)


def _grid(enc: Encounter, what: str) -> Any:
    if enc.grid is None:
        raise SftError(f"{what} needs a map (the encounter has none)")
    return enc.grid


# ---------------------------------------------------------------- threat and reach
def _threat(enc: Encounter, cid: str) -> frozenset[Square]:
    """The squares ``cid`` threatens, exactly as the engine's attacks of opportunity see them."""
    return threat.threatened_squares(enc, cid)


def threatened_squares(enc: Encounter, cid: str) -> Answer[list[Square]]:
    """Every square ``cid`` threatens (AOO-01..05): its melee weapons' reach, walls and lines of effect
    considered; nothing without a melee weapon, a position, or while out of the fight."""
    c = enc.get(cid)
    zone = sorted(_threat(enc, cid))
    lines: list[str] = []
    if c.position is None:
        lines.append(f"{cid} has no position on the map")
    elif (why := threat.no_threat_reason(c)) is not None:
        lines.append(f"{cid} threatens nothing: {why}")
    elif not threat.aoo_weapons(c):
        lines.append(f"{cid} has no weapon it could make an attack of opportunity with (unarmed strikes and "
                     "unwieldy weapons do not count) and threatens nothing")  # fmt: skip
    else:
        for w in threat.aoo_weapons(c):
            lines.append(f"{w.name}: {space.weapon_reach(c, w)}-ft reach")
        lines.append(f"{len(zone)} squares threatened (its own squares included)")
    return _answer("threat", zone, lines=lines, rules=("AOO-01", "AOO-02", "AOO-03", "AOO-04", "AOO-05"))


def threatens(enc: Encounter, cid: str, square: Square) -> Answer[bool]:
    """Whether ``cid`` threatens ``square`` (AOO-01..05)."""
    yes = square in _threat(enc, cid)
    line = f"{cid} {'threatens' if yes else 'does not threaten'} {_sq(square)}"
    return _answer("threatens", yes, lines=(line,), rules=("AOO-01",))


def threateners(enc: Encounter, square: Square) -> Answer[list[str]]:
    """Who threatens ``square`` (AOO-01), each with whether it has its reaction for an attack of opportunity
    now (ACT-05, CF-15)."""
    who = [cid for cid in enc.combatants if square in _threat(enc, cid)]
    lines = []
    for cid in who:
        ok, rule = budget.can_react(enc.get(cid))
        lines.append(f"{cid} threatens {_sq(square)}; " + ("reaction available" if ok else f"no reaction ({rule})"))
    if not who:
        lines.append(f"nobody threatens {_sq(square)}")
    return _answer("threateners", who, lines=lines, rules=("AOO-01", "ACT-05"))


class WeaponReach(_Model):
    weapon: str
    reach_ft: int


class ReachValue(_Model):
    reach_ft: int  # the longest melee reach
    natural_ft: int
    weapons: tuple[WeaponReach, ...]


def reach(enc: Encounter, cid: str) -> Answer[ReachValue]:
    """Natural reach and the reach with each melee weapon (AOO-02, AOO-03: a reach weapon adds 5 ft)."""
    c = enc.get(cid)
    melee = [w for w in c.creature.stat.weapons if w.is_melee]
    ws = tuple(WeaponReach(weapon=w.name, reach_ft=space.weapon_reach(c, w)) for w in melee)
    longest = max((w.reach_ft for w in ws), default=0)
    natural = c.creature.stat.reach_ft
    lines = [f"natural reach {natural} ft", *(f"{w.weapon}: {w.reach_ft} ft" for w in ws)]
    if not ws:
        lines.append("no melee weapon: no melee reach")
    return _answer(
        "reach",
        ReachValue(reach_ft=longest, natural_ft=natural, weapons=ws),
        lines=lines,
        rules=("AOO-02", "AOO-03", "AOO-04"),
    )


# ---------------------------------------------------------------- flanking, cover, sight
class FlankPair(_Model):
    attacker: str
    partner: str
    squares: tuple[Square, Square]  # the attacker's and the partner's squares whose line goes through


def flanking(enc: Encounter, target: str, attacker: str | None = None) -> Answer[list[FlankPair]]:
    """Which of ``target``'s opponents (or only ``attacker``) flank it in melee now, with whom (MOD-17): the
    same test an attack makes, with each attacker's longest melee reach."""
    t = enc.get(target)
    candidates = [enc.get(attacker)] if attacker is not None else [c for c in enc.enemies_of(target)]
    pairs: list[FlankPair] = []
    lines: list[str] = []
    everyone = list(enc.combatants)
    for a in candidates:
        weapons = [w for w in a.creature.stat.weapons if w.is_melee and not w.thrown]
        if a.position is None or a.out_of_fight or not weapons:
            continue
        results = [threat.flanking(enc, a, t, w) for w in weapons]  # the same test each melee attack makes
        fl = next((r for r in results if r.flanked), results[0])
        if fl.flanked and fl.partner is not None and fl.squares is not None:
            partner = everyone[fl.partner]
            pairs.append(FlankPair(attacker=a.id, partner=partner, squares=fl.squares))
            lines.append(f"{a.id} flanks {target} with {partner} (line {_sq(fl.squares[0])} to {_sq(fl.squares[1])})")
        else:
            lines.append(f"{a.id}: {fl.reason}")
    terms = [Term(2, "flanking", "MOD-17")] if pairs else []
    return _answer("flanking", pairs, terms=terms, lines=lines, rules=("MOD-17",))


class CoverLine(_Model):
    start: Square  # a point (grid intersection)
    end: Square
    cover: str
    reason: str


class CoverValue(_Model):
    cover: str  # none, soft, partial, cover, improved, total
    ac_bonus: int
    reflex_bonus: int
    blocks_attacks_of_opportunity: bool
    corner: Square | None  # the attacker's chosen corner
    lines: tuple[CoverLine, ...]
    concealment: str  # none, concealment, total
    miss_chance: int
    concealment_reason: str
    line_of_effect: bool
    line_of_sight: bool
    awareness: str | None = None  # the attacker's awareness of a target creature (SEN-05..07)
    imposed_by_gm: bool = False  # the cover is the GM's (``impose_cover``), better than the map's


def cover_and_concealment(enc: Encounter, frm: str, to: Where, *, melee: bool = False) -> Answer[CoverValue]:
    """The cover (MOD-07..15) and concealment (MOD-01..06, VIS-03, VIS-04) of ``to`` (a combatant or a square)
    against an attack by ``frm``, ranged unless ``melee``: the corner the attacker picks and every line drawn
    from it, as the engine's attack uses them."""
    _grid(enc, "cover")
    a, fa = _placed(enc, frm)
    name, fb = _space_of(enc, to)
    tid = to if isinstance(to, str) else ""
    cv = space.cover_between(enc, a, fa, fb, melee=melee, target_id=tid)
    cc = space.concealment_between(enc, a, fa, fb, melee=melee)
    assert cv is not None and cc is not None
    gm = gm_setup.imposed(enc, tid, frm) if tid else CoverKind.NONE
    by_gm = gm_setup.wins(gm, cv.kind)
    if by_gm:  # the attack takes the GM's cover instead (encounter.space.attack_geometry)
        ac, ref = gm_setup.imposed_terms(gm)
        cv = replace(cv, kind=gm, ac_terms=ac, reflex_terms=ref, rule=gm_setup.rule_of(gm))
    value = CoverValue(
        cover=cv.kind.name.lower(),
        ac_bonus=sum(t.value for t in cv.ac_terms),
        reflex_bonus=sum(t.value for t in cv.reflex_terms),
        blocks_attacks_of_opportunity=cv.blocks_attacks_of_opportunity,
        corner=cv.corner,
        lines=tuple(CoverLine(start=v.start, end=v.end, cover=v.kind.name.lower(), reason=v.reason) for v in cv.lines),
        concealment=cc.kind.name.lower(),
        miss_chance=cc.miss_chance,
        concealment_reason=cc.reason,
        line_of_effect=cc.line_of_effect,
        line_of_sight=cc.line_of_sight,
        awareness=perception.view(enc, frm, to).name.lower() if isinstance(to, str) else None,
        imposed_by_gm=by_gm,
    )
    kind = "melee" if melee else "ranged"
    worded = {"none": "no cover", "cover": "cover"}.get(value.cover, f"{value.cover} cover")
    worded += " imposed by the GM" if by_gm else ""
    lines = [f"{name} against a {kind} attack by {frm}: {worded} ({cv.rule})"]
    if cv.corner is not None:
        lines.append(f"{frm} picks corner {_sq(cv.corner)}")
    lines += [
        f"line {_sq(v.start)} -> {_sq(v.end)}: {v.cover}" + (f" ({v.reason})" if v.reason else "") for v in value.lines
    ]
    conc = f"{value.concealment} ({cc.reason}, {cc.rule}, {cc.miss_chance}% miss chance)" if cc.miss_chance else "none"
    lines.append(f"concealment: {conc}")
    return _answer("cover", value, terms=cv.ac_terms, lines=lines, rules=(cv.rule, cc.rule))


class SightValue(_Model):
    line_of_effect: bool
    line_of_sight: bool


def line_of_sight(enc: Encounter, frm: Where, to: Where) -> Answer[SightValue]:
    """Line of effect (EFF-35: walls and windows block it) and line of sight (EFF-37: windows do not block it,
    obscuring squares do) between two combatants or squares, corner to corner, as perception traces them."""
    na, fa = _space_of(enc, frm)
    nb, fb = _space_of(enc, to)
    grid = enc.grid
    if grid is None:
        value = SightValue(line_of_effect=True, line_of_sight=True)
        return _answer("sight", value, lines=("no map: nothing blocks",), rules=("EFF-35", "EFF-37"))
    value = SightValue(line_of_effect=has_line_of_effect(grid, fa, fb), line_of_sight=has_line_of_sight(grid, fa, fb))
    lines = [
        f"{na} to {nb}: line of effect {'yes' if value.line_of_effect else 'no'}, "
        f"line of sight {'yes' if value.line_of_sight else 'no'}"
    ]
    return _answer("sight", value, lines=lines, rules=("EFF-35", "EFF-37"))


# ---------------------------------------------------------------- movement
class ReachableSquare(_Model):
    square: Square  # top-left square of the space
    cost_ft: int
    actions: int  # move actions it takes (1 or 2)


def reachable_squares(enc: Encounter, cid: str, actions: Literal[1, 2] = 1) -> Answer[list[ReachableSquare]]:
    """Every space ``cid`` can move to and stop in with one move action or a double move (MOV-05, MOV-10..19),
    with its speed now (after armor and conditions, MOV-06), the diagonal count it has already used this turn,
    and the other combatants in the way (allies passable, enemies not: MOV-13..16)."""
    grid = _grid(enc, "reachable squares")
    c, fp = _placed(enc, cid)
    spd = sf1e_stats.speed(c.creature)
    found = grid_reachable(
        grid,
        fp,
        movement.mover_for(c),
        occupants=movement.occupants(enc, c),
        actions=actions,
        diagonals_before=c.diagonals,
    )
    out = sorted(
        (ReachableSquare(square=sq, cost_ft=found.cost[sq], actions=n) for sq, n in found.actions.items() if n > 0),
        key=lambda r: (r.actions, r.cost_ft, r.square[1], r.square[0]),
    )
    lines = [spd.describe(), f"{len(out)} spaces within {actions} move action{'s' if actions > 1 else ''}"]
    return _answer("reachable", out, terms=spd.applied, lines=lines, rules=("MOV-05", "MOV-06", "MOV-10", "MOV-17"))


class PathStep(_Model):
    square: Square  # the top-left square entered
    cost_ft: int
    diagonal: bool
    doublings: int  # hampered terrain doublings (difficult terrain, squeezing...: MOV-17, MOV-18)


class Provocation(_Model):
    enemy: str
    step: int  # index of the square left in ``squares`` (0 = the start)
    leaves: Square
    first: bool  # its first chance on this path (one reaction a round: ACT-05)


class PathValue(_Model):
    squares: tuple[Square, ...]  # start first
    steps: tuple[PathStep, ...]
    cost_ft: int
    budget_ft: int
    provocations: tuple[Provocation, ...]


def _plan(
    enc: Encounter,
    c: Combatant,
    to: Square | None,
    path: Sequence[Square] | None,
    actions: int,
    threats: dict[str, frozenset[Square]],
) -> tuple[movement.MovePlan, int]:
    spd = sf1e_stats.speed(c.creature).total
    budget_ft = spd * actions
    p = movement.plan(
        enc, c, to=to, path=tuple(path) if path is not None else None, budget_ft=budget_ft, threats=threats
    )
    return p, budget_ft


def _provocations(plan_: movement.MovePlan) -> tuple[Provocation, ...]:
    seen: set[str] = set()
    out = []
    for step, enemy in plan_.provocations:
        out.append(Provocation(enemy=enemy, step=step, leaves=plan_.positions[step], first=enemy not in seen))
        seen.add(enemy)
    return tuple(out)


def path_cost(
    enc: Encounter,
    cid: str,
    *,
    to: Square | None = None,
    path: Sequence[Square] | None = None,
    actions: Literal[1, 2] = 1,
) -> Answer[PathValue]:
    """The cost of a move, step by step (MOV-10 diagonals 5-10-5 carrying the count already used this turn,
    MOV-17 difficult terrain doubling, MOV-18 doublings compounding), along ``path`` (the squares entered, in
    order) or the cheapest path ``to`` a square, within one move action or a double move (a budget of
    twice the speed). Refused like a move command when illegal or too long (RuleViolation)."""
    c, _ = _placed(enc, cid)
    plan_, budget_ft = _plan(enc, c, to, path, actions, reactions.threats_against(enc, c))
    steps: list[PathStep] = []
    grid = enc.grid
    if grid is not None and len(plan_.positions) > 1:
        # the same pricing movement.plan used, for each step's doublings
        priced = price_path(
            grid,
            plan_.positions[0],
            list(plan_.positions[1:]),
            movement.mover_for(c, speed=budget_ft),
            occupants=movement.occupants(enc, c),
            diagonals_before=c.diagonals,
        )
        steps = [
            PathStep(square=s.to.anchor, cost_ft=s.cost_ft, diagonal=s.diagonal, doublings=s.doublings)
            for s in priced.steps
        ]
    else:
        steps = [
            PathStep(square=plan_.positions[-1], cost_ft=cost, diagonal=d, doublings=0)
            for cost, d in zip(plan_.costs, plan_.diagonal, strict=True)
        ]
    terms = []
    for s in steps:
        what = ("diagonal" if s.diagonal else "straight") + (f", hampered x{2**s.doublings}" if s.doublings else "")
        rule = "MOV-17" if s.doublings else ("MOV-10" if s.diagonal else "MOV-05")
        terms.append(Term(s.cost_ft, f"to {_sq(s.square)} ({what})", rule))
    value = PathValue(
        squares=plan_.positions,
        steps=tuple(steps),
        cost_ft=plan_.cost_ft,
        budget_ft=budget_ft,
        provocations=_provocations(plan_),
    )
    lines = [*plan_.lines, f"{plan_.cost_ft} ft of {budget_ft} ft ({actions} move action{'s' if actions > 1 else ''})"]
    return _answer("path", value, terms=terms, lines=lines, rules=("MOV-05", "MOV-10", "MOV-17", "MOV-18"))


class ProvokedValue(_Model):
    squares: tuple[Square, ...]
    provocations: tuple[Provocation, ...]  # the attacks of opportunity the engine would offer
    not_offered: tuple[str, ...]  # enemies whose threat the path leaves but who cannot take one, with why


def provoked(
    enc: Encounter,
    cid: str,
    *,
    to: Square | None = None,
    path: Sequence[Square] | None = None,
    actions: Literal[1, 2] = 1,
) -> Answer[ProvokedValue]:
    """The attacks of opportunity a move along ``path`` (or the cheapest path ``to`` a square) would provoke
    (AOO-06, AOO-07): each enemy that threatens a square the mover leaves and could react now, in the order
    the engine offers them; an enemy's first chance uses its one reaction (ACT-05). Enemies that threaten
    the path but cannot take an attack of opportunity are listed with the reason (AOO-09, MOD-09, CF-15)."""
    c, _ = _placed(enc, cid)
    plan_, _ = _plan(enc, c, to, path, actions, reactions.threats_against(enc, c))
    provs = _provocations(plan_)
    zones = {e.id: z for e in enc.enemies_of(cid) for z in [_threat(enc, e.id)] if z}
    every, _ = _plan(enc, c, None, plan_.positions[1:], actions, zones)  # the same squares, every threat
    offered = {p.enemy for p in provs}
    not_offered = []
    for enemy in dict.fromkeys(e for _, e in every.provocations):
        if enemy not in offered:
            why = reactions.can_take_aoo(enc, enc.get(enemy), c)[1]
            not_offered.append(f"{enemy}: {why}")
    lines = [
        f"leaving {_sq(p.leaves)} (step {p.step}) provokes {p.enemy}" + ("" if p.first else " (reaction spent)")
        for p in provs
    ]
    lines += [f"no attack of opportunity from {x}" for x in not_offered]
    if not provs:
        lines.append("this move provokes nothing")
    value = ProvokedValue(squares=plan_.positions, provocations=provs, not_offered=tuple(not_offered))
    return _answer("provoked", value, lines=lines, rules=("AOO-06", "AOO-07", "AOO-09", "ACT-05"))


# ---------------------------------------------------------------- areas and range
class AreaCreature(_Model):
    id: str
    cover: str  # its cover from the point of origin (total: unaffected, MOD-14)
    reflex_bonus: int


class AreaValue(_Model):
    shape: str
    size_ft: int
    squares: tuple[Square, ...]
    creatures: tuple[AreaCreature, ...]


def creatures_in_area(
    enc: Encounter,
    shape: Literal["burst", "emanation", "spread", "cone", "line"],
    size_ft: int,
    *,
    at: Square | None = None,
    by: str | None = None,
    direction: str | None = None,
    toward: Square | None = None,
) -> Answer[AreaValue]:
    """The squares and creatures of an area template (EFF-01..09), built as the engine builds an ability's
    area: a burst or spread from the point ``at``, an emanation from ``by``'s space (or ``at``), a cone from
    the point ``at`` toward ``direction`` (N, NE, E...), a line from ``at`` toward the square ``toward``; for a
    cone or a line used by ``by``, ``at`` must be a corner of its space. Each creature inside comes with its
    cover from the point of origin (total cover: unaffected; the rest helps a Reflex save)."""
    grid = _grid(enc, "an area")
    user = enc.get(by) if by is not None else None  # no user: every shape starts at the point
    spec = AreaSpec(shape=shape, size_ft=size_ft, at=at, direction=direction, toward=toward)
    area = build_area(Tx(enc, ScriptedDice([])), user, spec)
    spaces = {
        c.id: fp
        for c in enc.combatants.values()
        if not c.creature.has("dead")
        for fp in [space.footprint(c)]
        if fp is not None
    }
    inside = grid_areas.in_area(area, spaces)
    found = []
    for cid in inside:
        cv = cover(grid, area.origin, spaces[cid], ranged=True, creatures=())
        gm = gm_setup.imposed(enc, cid, None)  # cover the GM imposed against everyone (encounter.effects)
        if gm_setup.wins(gm, cv.kind):
            ac, ref = gm_setup.imposed_terms(gm)
            cv = replace(cv, kind=gm, ac_terms=ac, reflex_terms=ref, rule=gm_setup.rule_of(gm))
        found.append(
            AreaCreature(id=cid, cover=cv.kind.name.lower(), reflex_bonus=sum(t.value for t in cv.reflex_terms))
        )
    value = AreaValue(
        shape=area.shape,
        size_ft=area.size_ft,
        squares=tuple(sorted(area.squares, key=lambda s: (s[1], s[0]))),
        creatures=tuple(found),
    )
    lines = [f"{area.shape} of {area.size_ft} ft covers {len(area.squares)} squares ({area.rule})"]
    if area.shadowed:
        lines.append(f"{len(area.shadowed)} squares of the shape have no line of effect from the origin")
    lines += [
        f"{a.id}: inside"
        + (
            ", total cover: unaffected"
            if a.cover == "total"
            else (f", {a.cover} cover (+{a.reflex_bonus} Reflex)" if a.reflex_bonus else "")
        )
        for a in found
    ]
    if not found:
        lines.append("nobody inside")
    return _answer("area", value, lines=lines, rules=(area.rule, "EFF-01", "MOD-14"))


class RangeValue(_Model):
    weapon: str
    distance_ft: int
    melee: bool
    in_range: bool  # within reach (melee) or maximum range (ranged)
    increment_ft: int = 0
    increment: int = 0  # which range increment the target is in (1 = the first)
    penalty: int = 0
    max_range_ft: int = 0


def range_to(enc: Encounter, attacker: str, target: Where, weapon: str | None = None) -> Answer[RangeValue]:
    """The distance to ``target`` and, with a ranged or thrown weapon (default: the attacker's first one), the
    range increment it is in, the penalty (-2 per increment after the first, ATK-10) and whether it is within
    the maximum range (ATK-11); with a melee weapon, whether it is within reach (ATK-09)."""
    a, fa = _placed(enc, attacker)
    name, fb = _space_of(enc, target)
    w: Weapon = a.creature.stat.weapon(weapon) if weapon is not None else _first_weapon(a)
    dist = footprint_distance_ft(fa, fb)
    if w.is_melee and not w.thrown:
        r = space.weapon_reach(a, w)
        ok = space.in_reach(a, enc.get(target), w) if isinstance(target, str) else reach_covers(fa, target, r)
        value = RangeValue(weapon=w.name, distance_ft=dist, melee=True, in_range=ok)
        line = f"{name} is {dist} ft away: {'within' if ok else 'beyond'} {w.name}'s {r}-ft reach"
        return _answer("range", value, lines=(line,), rules=("ATK-09",))
    rc = space.range_check(fa, fb, w)
    value = RangeValue(
        weapon=w.name,
        distance_ft=dist,
        melee=False,
        in_range=rc.in_range,
        increment_ft=rc.increment_ft,
        increment=rc.increment,
        penalty=rc.penalty,
        max_range_ft=rc.max_range_ft,
    )
    line = f"{name} is {dist} ft away: increment {rc.increment} of {rc.increment_ft} ft, {rc.penalty:+d} to attack" + (
        "" if rc.in_range else f"; beyond the {rc.max_range_ft}-ft maximum range"
    )
    return _answer("range", value, terms=rc.terms, lines=(line,), rules=("ATK-10", "ATK-11"))


def _first_weapon(c: Combatant) -> Weapon:
    """The first ranged or thrown weapon, else the first weapon."""
    ws = c.creature.stat.weapons
    if not ws:
        raise SftError(f"{c.id} has no weapons")
    return next((w for w in ws if not w.is_melee or w.thrown), ws[0])


# ---------------------------------------------------------------- the turn, effects, statistics
class ActionsValue(_Model):
    their_turn: bool
    remaining: tuple[str, ...]  # kinds of action still available: standard, move, swift, full
    spent: tuple[str, ...]
    reaction: bool
    reaction_rule: str  # why not, when not
    moved_ft: int
    diagonals: int
    attacks_this_turn: int


def actions(enc: Encounter, cid: str) -> Answer[ActionsValue]:
    """What ``cid`` has left this turn (ACT-01..04; one standard or move in the surprise round, CF-09; as its
    conditions allow, CF-17) and whether it still has its reaction (ACT-05; not before it has acted, CF-15)."""
    c = enc.get(cid)
    surprise = enc.timeline.phase == "surprise"
    left = tuple(budget.remaining(c, surprise=surprise))
    ok, rule = budget.can_react(c)
    value = ActionsValue(
        their_turn=enc.timeline.turn == cid,
        remaining=left,
        spent=c.spent,
        reaction=ok,
        reaction_rule=rule,
        moved_ft=c.moved_ft,
        diagonals=c.diagonals,
        attacks_this_turn=c.attacks_this_turn,
    )
    turn = "its turn" if value.their_turn else f"not its turn (turn: {enc.timeline.turn or 'nobody'})"
    lines = [
        f"{cid}: {turn}, round {enc.timeline.round} ({enc.timeline.phase})",
        f"actions left: {', '.join(left) or 'none'}; spent: {', '.join(c.spent) or 'nothing'}",
        "reaction available" if ok else f"no reaction ({rule})",
        f"moved {c.moved_ft} ft this turn ({c.diagonals} diagonals counted)",
    ]
    return _answer("actions", value, lines=lines, rules=("ACT-02", "ACT-05", "CF-09", "CF-15", "CF-17"))


class EffectOut(_Model):
    id: int
    name: str
    source: str
    condition: str | None
    modifiers: tuple[dict[str, Any], ...]
    flags: tuple[str, ...]
    expires: dict[str, Any]
    ends: str


class ConditionOut(_Model):
    name: str
    source: str = ""
    value: str | None = None
    rounds: int | None = None


class EffectsValue(_Model):
    effects: tuple[EffectOut, ...]
    conditions: tuple[ConditionOut, ...]


def effects(enc: Encounter, cid: str) -> Answer[EffectsValue]:
    """The timed effects on ``cid`` with when each ends (CF-14 counts, start or end of a turn, or until
    removed) and every condition it has now."""
    c = enc.get(cid)
    outs = tuple(
        EffectOut(
            id=e.id,
            name=e.name,
            source=e.source,
            condition=e.condition.name if e.condition else None,
            modifiers=tuple(m.model_dump(mode="json") for m in e.modifiers),
            flags=tuple(sorted(e.flags)),
            expires=e.expires.model_dump(mode="json"),
            ends=e.expires.describe(),
        )
        for e in enc.effects_on(cid)
    )
    conds = tuple(
        ConditionOut(name=i.name, source=i.source, value=i.value, rounds=i.rounds) for i in c.creature.state.conditions
    )
    lines = [f"{e.name}" + (f" from {e.source}" if e.source else "") + f": {e.ends}" for e in outs]
    lines += [f"condition {i.name}" + (f" ({i.rounds} rounds left)" if i.rounds is not None else "") for i in conds]
    if not lines:
        lines.append(f"{cid} has no effects and no conditions")
    rules = ["CF-14", *(e.rule for e in enc.effects_on(cid) if e.rule)]
    return _answer("effects", EffectsValue(effects=outs, conditions=conds), lines=lines, rules=rules)


class AttackStats(_Model):
    weapon: str
    attack: BreakdownOut
    damage_bonus: BreakdownOut
    damage: str


class StatsValue(_Model):
    eac: BreakdownOut
    kac: BreakdownOut
    fort: BreakdownOut
    ref: BreakdownOut
    will: BreakdownOut
    initiative: BreakdownOut
    speed: BreakdownOut
    attacks: tuple[AttackStats, ...]
    hp: int
    sp: int
    rp: int
    flat_footed: bool
    abilities: tuple[str, ...] = ()  # the stat block's usable abilities, one line each (sf1e.class_abilities)


def statistics(enc: Encounter, cid: str) -> Answer[StatsValue]:
    """``cid``'s numbers right now, each with its terms: EAC and KAC (ATK-06, ATK-07), the three saves (SV-01),
    initiative, speed (MOV-05, MOV-06), and attack and damage bonus with each weapon (ATK-02..04, DMG-02),
    conditions and effects included. Situational terms (cover, flanking, range) are other questions."""
    c = enc.get(cid).creature
    o = enc.options

    def b(x: Breakdown) -> BreakdownOut:
        return BreakdownOut.of(x)

    attacks = tuple(
        AttackStats(
            weapon=w.name,
            attack=b(sf1e_stats.attack_bonus(c, w, options=o)),
            damage_bonus=b(sf1e_stats.damage_bonus(c, w, options=o)),
            damage=w.damage,
        )
        for w in c.stat.weapons
    )
    value = StatsValue(
        eac=b(sf1e_stats.armor_class(c, "eac", options=o)),
        kac=b(sf1e_stats.armor_class(c, "kac", options=o)),
        fort=b(sf1e_stats.save_bonus(c, "fort", options=o)),
        ref=b(sf1e_stats.save_bonus(c, "ref", options=o)),
        will=b(sf1e_stats.save_bonus(c, "will", options=o)),
        initiative=b(sf1e_stats.initiative(c, options=o)),
        speed=b(sf1e_stats.speed(c)),
        attacks=attacks,
        hp=c.state.hp,
        sp=c.state.sp,
        rp=c.state.rp,
        flat_footed=sf1e_stats.is_flat_footed(c),
        abilities=tuple(describe_ability(a) for a in c.stat.specials),
    )
    outs = [value.eac, value.kac, value.fort, value.ref, value.will, value.initiative, value.speed]
    outs += [x for a in attacks for x in (a.attack, a.damage_bonus)]
    lines = [x.describe() for x in outs]
    lines.append(f"HP {c.state.hp}, SP {c.state.sp}, RP {c.state.rp}" + (", flat-footed" if value.flat_footed else ""))
    lines += [f"ability: {a}" for a in value.abilities]
    rules = dict.fromkeys(t.rule for x in outs for t in x.terms if t.rule)
    return _answer("stats", value, lines=lines, rules=rules)
