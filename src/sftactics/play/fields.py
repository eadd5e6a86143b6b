"""Verbs read off the command models: a command's fields, in order, become a verb's arguments.

Every command the engine takes is a pydantic model (:mod:`sftactics.encounter.commands`); :func:`generic`
reads one from words by its fields: the required ones in order (the last text-like one takes the rest of the
words), the others as ``field=value``, a yes/no field by its bare name, an optional choice by its bare value.
Each field's *kind* (:func:`field_kind`: a combatant's name, a weapon, a square, a choice, an area template, a
save, JSON...) says how its words are read and what Tab completes. So a command added to the models has a verb
at the table, a syntax for ``help`` and completions, without any work in :mod:`sftactics.play.verbs`.
"""

from __future__ import annotations

import json
import re
import types
import typing
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from sftactics.encounter import commands as cmds
from sftactics.encounter.commands import Command, parse_command
from sftactics.play.grammar import Ctx, Parse, Usage, area_spec, integer, match_name, square, squares

MODELS: dict[str, type[BaseModel]] = {}
for _m in get_args(get_args(Command)[0]):
    MODELS[typing.get_args(_m.model_fields["type"].annotation)[0]] = _m

NAME_FIELDS = frozenset({"target", "ally", "actor", "watch", "toward", "concentration", "dismissible", "arc_to",
                         "second_target", "keeper", "healer", "against"})  # fmt: skip
WEAPON_FIELDS = frozenset({"weapon", "second_weapon", "draw"})


def _plain(t: Any) -> Any:
    """The type without its ``Annotated`` bounds, however deep (``tuple[CommandSquare, ...]`` is
    ``tuple[tuple[int, int], ...]``)."""
    origin = get_origin(t)
    if origin is Annotated:
        return _plain(get_args(t)[0])
    if origin in (Union, types.UnionType):
        return Union[tuple(_plain(a) for a in get_args(t))]  # noqa: UP007
    if origin is tuple:
        return tuple[tuple(a if a is Ellipsis else _plain(a) for a in get_args(t))]  # type: ignore[misc]
    return t


def _bare(annotation: Any) -> Any:
    """``X`` for ``X | None`` (and Optional[X]), without ``Annotated`` bounds."""
    annotation = _plain(annotation)
    if get_origin(annotation) in (Union, types.UnionType):
        rest = [a for a in get_args(annotation) if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return annotation


def field_kind(name: str, annotation: Any) -> str:
    """The completion kind of a model field: name, weapon, square, squares, int, flag, choice:a|b, text, json."""
    t = _bare(annotation)
    if name in NAME_FIELDS and t is str:
        return "name"
    if name in WEAPON_FIELDS and t is str:
        return "weapon"
    if t is str:
        return "text"
    if t is bool:
        return "flag"
    if t is int:
        return "int"
    if get_origin(t) is Literal:
        return "choice:" + "|".join(str(a) for a in get_args(t))
    if t == tuple[int, int]:
        return "square"
    if t == tuple[tuple[int, int], ...]:
        return "squares"
    if t is cmds.AreaSpec:
        return "area"
    if t is cmds.SaveSpec:
        return "save"
    if t == tuple[str, ...]:
        return "names" if name in NAME_FIELDS else "list"
    return "json"


def fields_of(kind: str) -> list[tuple[str, str, bool]]:
    """(field, completion kind, required) for each field a person fills in (not ``type``)."""
    model = MODELS[kind]
    return [(n, field_kind(n, f.annotation), f.is_required()) for n, f in model.model_fields.items() if n != "type"]


def _value(ctx: Ctx, actor: str | None, name: str, kind: str, text: str, usage: str) -> Any:
    if kind == "name":
        return ctx.name(text)
    if kind == "weapon":
        if actor is None:
            return text
        return ctx.weapon(actor, text)
    if kind == "int":
        return integer(text, usage)
    if kind == "flag":
        low = text.lower()
        if low in ("yes", "y", "true", "on", "1"):
            return True
        if low in ("no", "n", "false", "off", "0"):
            return False
        raise Usage(f"{name} is yes or no, not {text!r}. Usage: {usage}")
    if kind.startswith("choice:"):
        return match_name(text, kind[7:].split("|"), name)
    if kind == "square":
        return square(text, usage)
    if kind == "squares":
        return squares(text.split(), usage)
    if kind == "area":
        return area_spec(text.split(), usage)
    if kind == "save":
        parts = [p for p in re.split(r"[\s:,]+", text.lower()) if p]
        if len(parts) not in (2, 3):
            raise Usage(f"{name} is a kind and a DC, e.g. ref 13 half. Usage: {usage}")
        spec: dict[str, Any] = {
            "type": match_name(parts[0], ("fort", "ref", "will"), "save"),
            "dc": integer(parts[1], usage),
        }
        if len(parts) == 3:
            spec["on_save"] = match_name(parts[2], ("half", "negates", "partial"), "save result")
        return spec
    if kind in ("names", "list"):
        items = [p.strip() for p in text.split(",") if p.strip()]
        return [ctx.name(p) for p in items] if kind == "names" else items
    if kind == "json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise Usage(f"{name} is written as JSON here ({e.msg}). Usage: {usage}") from None
    return text


def generic_syntax(kind: str) -> str:
    parts = [kind]
    for name, fkind, required in fields_of(kind):
        if name == "actor":
            continue
        if required:
            parts.append(name.upper())
        elif fkind == "flag":
            parts.append(f"[{name}]")
        else:
            parts.append(f"[{name}={fkind.split(':', 1)[-1] if fkind.startswith('choice:') else fkind.upper()}]")
    return " ".join(parts)


_SAMPLES = {"name": "Krask", "weapon": "doshko", "int": "2", "square": "3,4", "squares": "3,4 4,4", "text": "x",
            "json": "{}", "area": "burst 10 at 3,4", "save": "ref 13 half", "names": "Krask", "list": "x"}  # fmt: skip


def generic_example(kind: str) -> str:
    parts = [kind]
    for name, fkind, required in fields_of(kind):
        if required and name != "actor":
            parts.append(fkind[7:].split("|")[0] if fkind.startswith("choice:") else _SAMPLES.get(fkind, name))
    return " ".join(parts)


def _optional_choice(fields: list[tuple[str, str, bool]], word: str, data: dict[str, Any]) -> str | None:
    """The optional choice field (not yet given) that ``word`` is exactly one of the choices of, if just one."""
    found = [
        n for n, k, r in fields if not r and n not in data and k.startswith("choice:") and word in k[7:].split("|")
    ]
    return found[0] if len(found) == 1 else None


def generic(kind: str) -> Parse:
    """Read a command off its model: required fields in order (the last text field takes the rest of the
    words), optional ones as ``field=value`` or, for yes/no fields, the bare field name."""
    fields = fields_of(kind)
    usage = generic_syntax(kind)

    def parse(ctx: Ctx, args: list[str]) -> Command:
        data: dict[str, Any] = {"type": kind}
        known = {n: k for n, k, _ in fields}
        positional: list[str] = []
        for a in args:
            key, eq, value = a.partition("=")
            if eq and key.lower() in known:
                data[key.lower()] = value
            elif a.lower() in known and known[a.lower()] == "flag":
                data[a.lower()] = "yes"
            elif (choice := _optional_choice(fields, a, data)) is not None:
                data[choice] = a
            else:
                positional.append(a)
        actor: str | None = None
        if "actor" in known:
            actor = ctx.name(data["actor"]) if "actor" in data else ctx.actor()
            data["actor"] = actor
        required = [(n, k) for n, k, r in fields if r and n != "actor" and n not in data]
        for i, (n, k) in enumerate(required):
            if not positional:
                raise Usage(f"{n} is missing. Usage: {usage}")
            last = i == len(required) - 1
            take = len(positional) if last and k in ("text", "name", "weapon", "squares", "area", "save") else 1
            data[n] = " ".join(positional[:take])
            positional = positional[take:]
        if positional:
            raise Usage(f"Unexpected {' '.join(positional)!r}. Usage: {usage}")
        for n, value in list(data.items()):
            if n not in ("type", "actor"):
                data[n] = _value(ctx, actor, n, known[n], value, usage)
        return parse_command(data)

    return parse


_JSON_SAMPLES: dict[str, Any] = {"name": "Krask", "weapon": "tactical doshko", "int": 2, "square": [3, 4], "text": "x",
                                 "area": {"shape": "burst", "size_ft": 10, "at": [3, 4]},
                                 "save": {"type": "ref", "dc": 13}, "names": ["Krask"], "list": ["x"]}  # fmt: skip


def json_example(kind: str) -> str:
    data: dict[str, Any] = {"type": kind}
    for n, k, r in fields_of(kind):
        if r:
            data[n] = _JSON_SAMPLES.get(k, k[7:].split("|")[0] if k.startswith("choice:") else {})
    return json.dumps(data)
