"""Reading YAML/JSON files into typed models, with errors that name the file, the field and what was expected."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from sftactics.core.errors import FileFormatError
from sftactics.core.validation import first_problem

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


class _Loader(yaml.SafeLoader):
    """YAML's safe loader, refusing a mapping that gives one key twice (YAML itself would keep the last)."""


def _unique_keys(loader: _Loader, node: yaml.MappingNode) -> Any:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":  # "<<: *anchor" fills in keys not given
            continue
        key = loader.construct_object(key_node)
        try:
            twice = key in seen
        except TypeError:  # a list as a key: the constructor below says so
            continue
        if twice:
            raise yaml.constructor.ConstructorError(None, None, f"the key {key!r} given twice", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _unique_keys)


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"the key {k!r} given twice")
        out[k] = v
    return out


def read_data(path: Path) -> Any:
    """Parse a YAML or JSON file (by extension; YAML otherwise) into plain data. A mapping that gives one key
    twice is an error (the parsers would silently keep the last)."""
    name = str(path)
    text = read_text(path)
    try:
        if path.suffix.lower() == ".json":
            return json.loads(text, object_pairs_hook=_json_object)
        return yaml.load(text, Loader=_Loader)  # a SafeLoader
    except RecursionError:
        raise FileFormatError(name, "", "data nested less deeply (lists and mappings inside each other)") from None
    except json.JSONDecodeError as e:
        raise FileFormatError(name, f"line {e.lineno} column {e.colno}", f"valid JSON ({e.msg})") from None
    except ValueError as e:  # a key given twice in a JSON object
        raise FileFormatError(name, "", f"valid JSON ({e})") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1} column {mark.column + 1}" if mark else ""
        problem = getattr(e, "problem", None) or "syntax error"
        raise FileFormatError(name, where, f"valid YAML ({problem})") from None


def validation_error(name: str, err: ValidationError, prefix: str = "") -> FileFormatError:
    """The first problem of a pydantic error as a FileFormatError (field path and expectation)."""
    return FileFormatError(name, *first_problem(err, prefix))


def load_model(path: Path, model: type[M], prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> M:
    """Read ``path`` and validate it as ``model`` (``prepare``: applied to the data first, e.g. to write out the
    armory items a stat block names)."""
    data = read_data(path)
    if not isinstance(data, dict):
        raise FileFormatError(
            str(path), "", f"expected a mapping of fields at the top level, got {type(data).__name__}"
        )
    try:
        return model.model_validate(prepare(data) if prepare is not None else data)
    except ValidationError as e:
        raise validation_error(str(path), e) from None
    except RecursionError:
        raise FileFormatError(str(path), "", "data nested less deeply") from None
