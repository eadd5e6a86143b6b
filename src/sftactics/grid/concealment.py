"""Concealment from the map (MOD-01..06) and from light (VIS-03, VIS-04).

* Ranged attacks, and melee attacks against a target that is not adjacent (reach): the attacker picks a corner
  of its square; if a line from it to a corner of the target's space passes through a concealing square or
  touches the border of one, the target has concealment (MOD-01). Who picks the corner is
  ``GridOptions.concealment_corner`` (default: the attacker takes its best corner, as for cover).
* A melee attack against an adjacent target: concealment only if every square of the target's space is
  concealing (MOD-02).
* Some effects conceal a creature from every attack whatever lies between (``everywhere=True``, MOD-03).
* Total concealment: the attacker has line of effect but no line of sight (MOD-05).
* Light: a target whose best-lit square is dim has concealment from an observer without low-light vision or
  darkvision; in darkness it has total concealment from an observer without darkvision (VIS-03, VIS-04).
  Blindsight ignores all of it (MOD-06).

The miss chances (20% and 50%, MOD-04/05) are given as numbers; rolling them is the caller's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from sftactics.grid.geometry import Footprint, Point, Square, adjacent
from sftactics.grid.lines import B_CONCEAL, B_LOS, ends, owner_boxes, square_things, things_between, trace
from sftactics.grid.map import Feature, GridMap, Light
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions


class ConcealmentKind(IntEnum):
    NONE = 0
    CONCEALMENT = 1
    TOTAL = 2


MISS_CHANCE = {ConcealmentKind.NONE: 0, ConcealmentKind.CONCEALMENT: 20, ConcealmentKind.TOTAL: 50}


@dataclass(frozen=True, slots=True)
class ConcealmentResult:
    kind: ConcealmentKind
    miss_chance: int  # percent (MOD-04, MOD-05)
    reason: str
    rule: str
    line_of_effect: bool
    line_of_sight: bool


def _result(kind: ConcealmentKind, reason: str, rule: str, loe: bool, los: bool) -> ConcealmentResult:
    return ConcealmentResult(kind, MISS_CHANCE[kind], reason, rule, loe, los)


def light_concealment(
    grid: GridMap, target: Footprint, *, low_light_vision: bool = False, darkvision: bool = False
) -> ConcealmentKind:
    """Concealment a target gets from the light on its best-lit square (VIS-03, VIS-04, MOD-06)."""
    best = max(grid.light_at(s) for s in target.squares if grid.in_bounds(s))
    if best is Light.DARK and not darkvision:
        return ConcealmentKind.TOTAL
    if best is Light.DIM and not (low_light_vision or darkvision):
        return ConcealmentKind.CONCEALMENT
    return ConcealmentKind.NONE


def concealment(
    grid: GridMap,
    attacker: Footprint | Point,
    target: Footprint,
    *,
    melee: bool = False,
    concealing: Iterable[Square] = (),
    blocks_sight: Iterable[Square] = (),
    everywhere: bool = False,
    low_light_vision: bool = False,
    darkvision: bool = False,
    blindsight: bool = False,
    options: GridOptions = DEFAULT_OPTIONS,
) -> ConcealmentResult:
    """The target's concealment against an attack from ``attacker``.

    ``concealing`` adds squares that conceal (an effect's cloud) and ``blocks_sight`` squares this observer
    cannot see through; ``everywhere`` is concealment against all attacks (MOD-03). The observer's senses are
    ``low_light_vision``, ``darkvision`` and ``blindsight`` (the last ignores concealment, MOD-06).
    """
    from sftactics.grid.map import cached

    args = (attacker, target, melee, tuple(concealing), tuple(blocks_sight), everywhere)
    senses = (low_light_vision, darkvision, blindsight)
    return cached(grid, ("concealment", *args, *senses, options), lambda: _concealment(grid, *args, *senses, options))


def _concealment(
    grid: GridMap,
    attacker: Footprint | Point,
    target: Footprint,
    melee: bool,
    concealing: tuple[Square, ...],
    blocks_sight: tuple[Square, ...],
    everywhere: bool,
    low_light_vision: bool,
    darkvision: bool,
    blindsight: bool,
    options: GridOptions,
) -> ConcealmentResult:
    starts, box_a = ends(attacker, every_corner=True)
    goals, box_t = ends(target, every_corner=False)
    extra = square_things(concealing, B_CONCEAL, "concealing") + square_things(blocks_sight, B_LOS, "unseen")
    things = things_between(grid, box_a, box_t, extra)
    loe = los = False
    per_corner: list[bool] = []
    owners = owner_boxes(attacker, target)
    for p in starts:
        hidden = False
        for q in goals:
            if p == q:
                continue
            hits = trace(p, q, things, owners=owners, options=options)
            loe = loe or not hits.loe_blocked
            los = los or not hits.los_blocked
            hidden = hidden or hits.conceal
        per_corner.append(hidden)
    if not loe:
        return _result(ConcealmentKind.NONE, "no line of effect: total cover instead", "MOD-14", loe, los)
    if blindsight:
        return _result(ConcealmentKind.NONE, "blindsight", "MOD-06", loe, loe)
    if loe and not los:
        return _result(ConcealmentKind.TOTAL, "line of effect without line of sight", "MOD-05", loe, los)
    lit = light_concealment(grid, target, low_light_vision=low_light_vision, darkvision=darkvision)
    if lit is ConcealmentKind.TOTAL:
        return _result(lit, "in darkness", "VIS-04", loe, False)
    if everywhere:
        return _result(ConcealmentKind.CONCEALMENT, "concealed from every attack", "MOD-03", loe, los)
    extra_sq = set(concealing)
    if melee and isinstance(attacker, Footprint) and adjacent(attacker, target):
        inside = all(
            s in extra_sq or (grid.in_bounds(s) and grid.features(s) & Feature.CONCEAL) for s in target.squares
        )
        if inside:
            return _result(ConcealmentKind.CONCEALMENT, "whole space in a concealing square", "MOD-02", loe, los)
    else:
        hidden = all(per_corner) if options.concealment_corner == "best" else any(per_corner)
        if hidden:
            return _result(ConcealmentKind.CONCEALMENT, "line through a concealing square", "MOD-01", loe, los)
    if lit is ConcealmentKind.CONCEALMENT:
        return _result(lit, "in dim light", "VIS-03", loe, los)
    return _result(ConcealmentKind.NONE, "", "MOD-01", loe, los)
