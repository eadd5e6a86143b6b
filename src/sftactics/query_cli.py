"""``sftactics query FILE QUESTION [ARGS]``: ask the board a question (:mod:`sftactics.query`) about a scenario
or a saved fight (``.jsonl``), and print the explained answer as text or as JSON (``--json``).

Squares and points are written ``x,y`` as everywhere on the command line (docs/maps.md); a creature is named by
its id (quote ids with spaces). Every mistake is an :class:`~sftactics.core.errors.SftError` saying what to fix.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated, Any, Literal, cast

import typer

from sftactics import query as q
from sftactics.core.errors import SftError
from sftactics.encounter.state import Encounter
from sftactics.views.console import console

_XY = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")

#: Each question with the arguments it takes (for the help and the error messages).
USAGE: dict[str, str] = {
    "threat": "CREATURE",
    "threatens": "CREATURE X,Y",
    "threateners": "X,Y",
    "reach": "CREATURE",
    "flanking": "TARGET [ATTACKER]",
    "cover": "ATTACKER TARGET|X,Y [--melee]",
    "sight": "CREATURE|X,Y CREATURE|X,Y",
    "reachable": "CREATURE [--actions 2]",
    "path": "CREATURE (to X,Y | X,Y X,Y ...) [--actions 2]",
    "provoked": "CREATURE (to X,Y | X,Y X,Y ...) [--actions 2]",
    "area": "SHAPE FEET at X,Y|CREATURE [toward DIR|X,Y] [by CREATURE]",
    "range": "ATTACKER TARGET|X,Y [--weapon NAME]",
    "actions": "CREATURE",
    "effects": "CREATURE",
    "stats": "CREATURE",
}


def load_state(path: Path) -> Encounter:
    """A scenario (YAML) as it starts, or a saved fight log (``.jsonl``) as it stands now."""
    if path.suffix.lower() == ".jsonl":
        from sftactics.encounter.engine import Fight

        return Fight.load(path).state
    from sftactics.io.scenario import load_scenario

    return load_scenario(path)


def square(text: str) -> tuple[int, int] | None:
    m = _XY.match(text)
    return None if m is None else (int(m[1]), int(m[2]))


def _need_square(text: str, what: str) -> tuple[int, int]:
    sq = square(text)
    if sq is None:
        raise SftError(f"{what}: expected a square x,y (e.g. 4,2), got {text!r}")
    return sq


def _where(state: Encounter, text: str) -> str | tuple[int, int]:
    """A combatant's id, or a square x,y."""
    sq = square(text)
    if sq is not None:
        return sq
    state.get(text)  # names the combatants if it is not one
    return text


def _moves(args: list[str], question: str) -> dict[str, Any]:
    if not args:
        raise SftError(f"{question}: give 'to X,Y' or the squares of the path")
    if args[0] == "to":
        if len(args) != 2:
            raise SftError(f"{question}: 'to' takes one square x,y")
        return {"to": _need_square(args[1], question)}
    return {"path": [_need_square(a, question) for a in args]}


def _area(state: Encounter, args: list[str]) -> q.Answer[Any]:
    if len(args) < 2:
        raise SftError(f"area: expected {USAGE['area']}")
    shape, size = args[0].lower(), args[1].lower().removesuffix("ft")
    if shape not in ("burst", "emanation", "spread", "cone", "line"):
        raise SftError(f"area: the shape is burst, emanation, spread, cone or line, not {args[0]!r}")
    if not size.isdigit():
        raise SftError(f"area: the size is a number of feet, not {args[1]!r}")
    opts: dict[str, str] = {}
    rest = args[2:]
    if len(rest) % 2:
        raise SftError(f"area: expected {USAGE['area']}")
    for key, val in zip(rest[::2], rest[1::2], strict=True):
        if key not in ("at", "toward", "by"):
            raise SftError(f"area: unexpected {key!r} (expected at, toward or by)")
        opts[key] = val
    at: tuple[int, int] | None = None
    by = opts.get("by")
    if "at" in opts:
        where = _where(state, opts["at"])
        if isinstance(where, str):  # around a creature: an emanation from its space
            if shape not in ("burst", "emanation"):
                raise SftError(f"area: a {shape} starts at a corner x,y ('at X,Y by CREATURE')")
            by, shape = where, "emanation"
        else:
            at = where
    direction = toward = None
    if "toward" in opts:
        if shape == "cone":
            direction = opts["toward"].upper()
        else:
            toward = _need_square(opts["toward"], "area")
    if by is not None:
        state.get(by)
    kind = cast(Literal["burst", "emanation", "spread", "cone", "line"], shape)
    return q.creatures_in_area(state, kind, int(size), at=at, by=by, direction=direction, toward=toward)


def ask(
    state: Encounter,
    question: str,
    args: list[str],
    *,
    actions: int = 1,
    weapon: str | None = None,
    melee: bool = False,
) -> q.Answer[Any]:
    """The answer to ``question`` with its command-line arguments."""
    if question not in USAGE:
        raise SftError(f"unknown question {question!r}; questions: {', '.join(USAGE)}")
    if actions not in (1, 2):
        raise SftError("--actions is 1 (one move action) or 2 (a double move)")
    n = cast(Literal[1, 2], actions)

    def need(count: int, most: int | None = None) -> None:
        top = count if most is None else most
        if not count <= len(args) <= top:
            raise SftError(f"{question}: expected {USAGE[question]}")

    if question == "area":
        return _area(state, args)
    if question == "threateners":
        need(1)
        return q.threateners(state, _need_square(args[0], question))
    if question in ("path", "provoked"):
        if not args:
            need(2)
        state.get(args[0])
        fn = q.path_cost if question == "path" else q.provoked
        return fn(state, args[0], actions=n, **_moves(args[1:], question))
    if question in ("cover", "sight", "range"):
        need(2)
        if question == "sight":
            return q.line_of_sight(state, _where(state, args[0]), _where(state, args[1]))
        state.get(args[0])
        if question == "cover":
            return q.cover_and_concealment(state, args[0], _where(state, args[1]), melee=melee)
        return q.range_to(state, args[0], _where(state, args[1]), weapon)
    if question == "threatens":
        need(2)
        return q.threatens(state, state.get(args[0]).id, _need_square(args[1], question))
    if question == "flanking":
        need(1, 2)
        return q.flanking(state, args[0], args[1] if len(args) > 1 else None)
    need(1)
    cid = state.get(args[0]).id
    one: dict[str, Any] = {
        "threat": q.threatened_squares,
        "reach": q.reach,
        "actions": q.actions,
        "effects": q.effects,
        "stats": q.statistics,
    }
    if question == "reachable":
        return q.reachable_squares(state, cid, n)
    return cast(q.Answer[Any], one[question](state, cid))


def _xy(s: Any) -> str:
    return f"{s[0]},{s[1]}"


def summary(answer: q.Answer[Any]) -> str:
    """The answer in one line (the rest is in its lines)."""
    v = answer.value
    name = answer.question
    if name == "threat":
        return f"{len(v)} squares: " + " ".join(_xy(s) for s in v) if v else "no square"
    if name == "threatens":
        return "yes" if v else "no"
    if name in ("threateners",):
        return ", ".join(v) or "nobody"
    if name == "flanking":
        return ", ".join(f"{p.attacker} with {p.partner}" for p in v) or "not flanked"
    if name == "reachable":
        return f"{len(v)} spaces: " + " ".join(f"{_xy(r.square)}({r.cost_ft})" for r in v)
    if name == "reach":
        return f"{v.reach_ft} ft"
    if name == "cover":
        cover = {"none": "no cover", "cover": "cover"}.get(v.cover, f"{v.cover} cover")
        seen = {"none": "no concealment", "total": "total concealment"}.get(v.concealment, v.concealment)
        return f"{cover}, {seen}"
    if name == "sight":
        loe, los = ("yes" if x else "no" for x in (v.line_of_effect, v.line_of_sight))
        return f"line of effect: {loe}, line of sight: {los}"
    if name == "path":
        return f"{v.cost_ft} ft of {v.budget_ft} ft"
    if name == "provoked":
        return ", ".join(f"{p.enemy} at {_xy(p.leaves)}" for p in v.provocations if p.first) or "nothing"
    if name == "area":
        return ", ".join(c.id for c in v.creatures) or "nobody"
    if name == "range":
        return (
            f"{v.distance_ft} ft, "
            + ("in range" if v.in_range else "out of range")
            + (f", {v.penalty:+d}" if v.penalty else "")
        )
    if name == "actions":
        return f"{', '.join(v.remaining) or 'no actions'}; reaction {'yes' if v.reaction else 'no'}"
    if name == "effects":
        return f"{len(v.effects)} effects, {len(v.conditions)} conditions"
    if name == "stats":
        saves = f"Fort {v.fort.total:+d}, Ref {v.ref.total:+d}, Will {v.will.total:+d}"
        return f"EAC {v.eac.total}, KAC {v.kac.total}, {saves}, speed {v.speed.total} ft"
    return str(v)


def render(answer: q.Answer[Any]) -> list[str]:
    """The answer as lines of text: the summary, the terms, the lines checked, the rules."""
    out = [f"{answer.question}: {summary(answer)}"]
    if answer.terms:
        total = sum(t.value for t in answer.terms)
        body = " ".join(f"{t.value:+d} {t.label}" + (f" [{t.rule}]" if t.rule else "") for t in answer.terms)
        out.append(f"  {total} = {body}")
    out += [f"  - {line}" for line in answer.lines]
    if answer.rules:
        out.append(f"  rules: {', '.join(answer.rules)}")
    return out


def query_cmd(
    file: Annotated[Path, typer.Argument(help="scenario file (YAML), or a saved fight log (.jsonl)")],
    question: Annotated[str, typer.Argument(help=f"one of: {', '.join(USAGE)}")],
    args: Annotated[list[str] | None, typer.Argument(help="the question's arguments: creatures, squares x,y")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the answer as JSON")] = False,
    actions: Annotated[int, typer.Option(help="move actions for reachable, path, provoked: 1 or 2")] = 1,
    weapon: Annotated[str | None, typer.Option(help="the weapon for range (default: the first ranged one)")] = None,
    melee: Annotated[bool, typer.Option(help="cover and concealment against a melee attack")] = False,
) -> None:
    """Ask the board a question: threat, threatens, threateners, reach, flanking, cover, sight, reachable, path,
    provoked, area, range, actions, effects, stats (see docs/query.md)."""
    state = load_state(file)
    answer = ask(state, question, list(args or []), actions=actions, weapon=weapon, melee=melee)
    if as_json:
        sys.stdout.write(answer.model_dump_json() + "\n")
        return
    con = console()
    for line in render(answer):
        con.print(line, markup=False)
