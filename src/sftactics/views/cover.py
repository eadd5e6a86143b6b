"""The cover overlay: each enemy's cover against an attack from one combatant, by the corner rule, with the
lines from the attacker's chosen corner.
"""

from __future__ import annotations

from dataclasses import replace

from sftactics.encounter import gm_setup
from sftactics.encounter import space as enc_space
from sftactics.encounter.state import Encounter
from sftactics.grid.cover import CoverKind, cover
from sftactics.grid.geometry import Point, Square
from sftactics.grid.options import DEFAULT_OPTIONS, GridOptions
from sftactics.views.picture import (
    Key,
    Overlay,
    _combatant,
    _grid,
    _letter,
    _placed,
    tokens_for,
)

COVER_MARKS: dict[CoverKind, str] = {
    CoverKind.NONE: "-",
    CoverKind.SOFT: "s",
    CoverKind.PARTIAL: "p",
    CoverKind.COVER: "c",
    CoverKind.IMPROVED: "i",
    CoverKind.TOTAL: "t",
}
_COVER_COLOURS: dict[CoverKind, str] = {
    CoverKind.NONE: "#38a169",
    CoverKind.SOFT: "#d69e2e",
    CoverKind.PARTIAL: "#dd6b20",
    CoverKind.COVER: "#e53e3e",
    CoverKind.IMPROVED: "#9b2c2c",
    CoverKind.TOTAL: "#1a202c",
}
COVER_NAMES: dict[CoverKind, str] = {
    CoverKind.NONE: "no cover",
    CoverKind.SOFT: "soft cover",
    CoverKind.PARTIAL: "partial cover",
    CoverKind.COVER: "cover",
    CoverKind.IMPROVED: "improved cover",
    CoverKind.TOTAL: "total cover",
}


def _cover_words(kind: CoverKind, rule: str) -> str:
    bonus = {
        CoverKind.SOFT: "+4 AC against ranged attacks",
        CoverKind.PARTIAL: "+2 AC, +1 Reflex",
        CoverKind.COVER: "+4 AC, +2 Reflex",
        CoverKind.IMPROVED: "+8 AC, +4 Reflex",
        CoverKind.TOTAL: "cannot be attacked",
        CoverKind.NONE: "no bonus",
    }[kind]
    return f"{COVER_NAMES[kind]} ({bonus}, {rule})"


def cover_overlay(
    state: Encounter, attacker: str, *, ranged: bool = True, options: GridOptions = DEFAULT_OPTIONS
) -> Overlay:
    """Each enemy's cover against an attack by ``attacker`` (ranged by default: creatures give soft cover)."""
    grid = _grid(state)
    a = _combatant(state, attacker)
    fa = _placed(a, "cover")
    tokens = tokens_for(state)
    marks: dict[Square, str] = {}
    notes: list[str] = []
    lines: list[tuple[Point, Point, str]] = []
    seen: set[CoverKind] = set()
    for e in state.enemies_of(a.id):
        fe = enc_space.footprint(e)
        if fe is None or e.fled:
            continue
        res = cover(grid, fa, fe, ranged=ranged, creatures=enc_space.others(state, a.id, e.id), options=options)
        gm = gm_setup.imposed(state, e.id, a.id)
        if gm_setup.wins(gm, res.kind):  # the GM's cover counts instead, as in the attack
            ac, ref = gm_setup.imposed_terms(gm)
            res = replace(
                res, kind=gm, ac_terms=ac, reflex_terms=ref, rule=f"{gm_setup.rule_of(gm)}, imposed by the GM"
            )
        seen.add(res.kind)
        for sq in fe.squares:
            marks[sq] = COVER_MARKS[res.kind]
        reasons = [ln.reason for ln in res.lines if ln.kind is res.kind and ln.reason]
        reasons += [ln.reason for ln in res.lines if ln.reason]  # total cover: every line blocked
        why = reasons[0] if reasons else ""
        corner = f" from corner {res.corner[0]},{res.corner[1]}" if res.corner is not None and res.lines else ""
        notes.append(
            f"{e.id} ({_letter(tokens, e.id)}): {_cover_words(res.kind, res.rule)}"
            + (f": {why}" if why else "")
            + corner
        )
        lines += [(ln.start, ln.end, COVER_MARKS[ln.kind]) for ln in res.lines]
    if not notes:
        notes.append(f"{a.id} has no enemy on the map")
    attack = "a ranged attack" if ranged else "a melee attack"
    keys = tuple(Key(COVER_MARKS[k], COVER_NAMES[k], _COVER_COLOURS[k]) for k in sorted(seen or {CoverKind.NONE}))
    return Overlay(
        "cover",
        f"cover: each enemy's cover against {attack} by {a.id} ({_letter(tokens, a.id)}), corner rule (MOD-07)",
        marks,
        keys,
        tuple(notes),
        tuple(lines),
    )
