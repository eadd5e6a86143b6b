"""Reading YAML/JSON files into typed models, with errors that name the file, the field and what was expected."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from sftactics.core.errors import FileFormatError

M = TypeVar("M", bound=BaseModel)


def read_text(path: Path) -> str:
    """A text file's contents; a FileFormatError naming the file when it cannot be read."""
    name = str(path)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileFormatError(name, "", "file not found") from None
    except IsADirectoryError:
        raise FileFormatError(name, "", "expected a file, found a folder") from None
    except UnicodeDecodeError:
        raise FileFormatError(name, "", "expected UTF-8 text") from None
    except OSError as e:
        raise FileFormatError(name, "", f"cannot be read ({e.strerror})") from None


def read_data(path: Path) -> Any:
    """Parse a YAML or JSON file (by extension; YAML otherwise) into plain data."""
    name = str(path)
    text = read_text(path)
    try:
        if path.suffix.lower() == ".json":
            return json.loads(text)
        return yaml.safe_load(text)
    except json.JSONDecodeError as e:
        raise FileFormatError(name, f"line {e.lineno} column {e.colno}", f"valid JSON ({e.msg})") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1} column {mark.column + 1}" if mark else ""
        problem = getattr(e, "problem", None) or "syntax error"
        raise FileFormatError(name, where, f"valid YAML ({problem})") from None


def field_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def validation_error(name: str, err: ValidationError, prefix: str = "") -> FileFormatError:
    """The first problem of a pydantic error as a FileFormatError (field path and expectation)."""
    first = err.errors()[0]
    loc = tuple(x for x in first["loc"] if not (isinstance(x, str) and x.startswith("function-")))
    path = field_path(loc)
    if prefix:
        path = f"{prefix}.{path}" if path else prefix
    msg = first["msg"]
    if first["type"] == "extra_forbidden":
        msg = "unknown field (check the spelling; see docs)"
    elif first["type"] == "missing":
        msg = "required field is missing"
    msg = msg.removeprefix("Value error, ")
    more = len(err.errors()) - 1
    if more:
        msg += f" (and {more} more problem{'s' if more > 1 else ''})"
    return FileFormatError(name, path, msg)


def load_model(path: Path, model: type[M]) -> M:
    """Read ``path`` and validate it as ``model``."""
    data = read_data(path)
    if not isinstance(data, dict):
        raise FileFormatError(
            str(path), "", f"expected a mapping of fields at the top level, got {type(data).__name__}"
        )
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise validation_error(str(path), e) from None
