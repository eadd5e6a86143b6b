"""Pydantic validation errors as one readable problem: the field's path and what was expected."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError


def field_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


# A value of the wrong kind for one alternative of a union ("a file name or an inline stat block"): when another
# alternative says what is really wrong (hp below 1), that one is the problem to report.
_KIND_MISMATCH = {
    "string_type", "int_type", "float_type", "bool_type", "dict_type", "list_type", "tuple_type",
    "model_type", "model_attributes_type", "literal_error", "is_instance_of", "none_required",
}  # fmt: skip


def _union_tag(part: int | str) -> bool:
    """A location part that names a union alternative or a validator (``str``, ``StatBlock``,
    ``function-after[...]``, ``tuple[int, int]``) rather than a field."""
    if not isinstance(part, str):
        return False
    return part.startswith("function-") or "[" in part or part[:1].isupper()


def _problems(err: ValidationError) -> list[Any]:
    errors = list(err.errors())
    real = [e for e in errors if e["type"] not in _KIND_MISMATCH]
    if not real or len(real) == len(errors):
        return errors

    # only the mismatches that sit beside no real problem (another field's wrong kind) are kept
    def stem(e: Any) -> tuple[Any, ...]:
        return tuple(x for x in e["loc"][:-1] if not _union_tag(x))

    stems = {stem(e) for e in real}
    kept = [e for e in errors if e["type"] not in _KIND_MISMATCH or not any(
        stem(e)[: len(s)] == s or s[: len(stem(e))] == stem(e) for s in stems)]  # fmt: skip
    kept.sort(key=lambda e: e["type"] in _KIND_MISMATCH)
    return kept


def first_problem(err: ValidationError, prefix: str = "") -> tuple[str, str]:
    """The problem of a pydantic error to report first, as (field path, expectation)."""
    problems = _problems(err)
    first = problems[0]
    loc = tuple(x for x in first["loc"] if not _union_tag(x))
    if first["type"] == "string_type" and loc[-1:] == ("str",):
        loc = loc[:-1]  # the "a text" alternative of a union, not the Strength score
    path = field_path(loc)
    if prefix:
        path = f"{prefix}.{path}" if path else prefix
    msg = first["msg"]
    if first["type"] == "extra_forbidden":
        msg = "unknown field (check the spelling; see docs)"
    elif first["type"] == "missing":
        msg = "required field is missing"
    msg = msg.removeprefix("Value error, ")
    more = len(problems) - 1
    if more:
        msg += f" (and {more} more problem{'s' if more > 1 else ''})"
    return path, msg
