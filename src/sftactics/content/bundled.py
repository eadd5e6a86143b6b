"""Reading a folder of bundled YAML files into models, found by a simplified name (one loader for the bundled
stat blocks of both editions and the bundled vehicles)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import Any, TypeVar

from pydantic import BaseModel

from sftactics.core.errors import FileFormatError

M = TypeVar("M", bound=BaseModel)


def key(name: str) -> str:
    """The simplified name files and lookups meet on: lower case, letters and digits only."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


def load_folder(
    folder: str, model: type[M], name_of: Callable[[M], str], prepare: Callable[[Any, str], Any] | None = None
) -> dict[str, M]:
    """Every ``*.yaml`` in ``sftactics/data/FOLDER`` as ``model`` (``prepare(data, file name)`` first, if given),
    keyed by :func:`key` of its name and of its file name."""
    import yaml
    from pydantic import ValidationError

    out: dict[str, M] = {}
    root = resources.files("sftactics") / "data" / folder
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith((".yaml", ".yml")):
            continue
        data = yaml.safe_load(entry.read_text(encoding="utf-8"))
        try:
            item = model.model_validate(prepare(data, entry.name) if prepare is not None else data)
        except ValidationError as e:  # pragma: no cover - the bundled files are tested
            raise FileFormatError(entry.name, "", str(e)) from None
        out[key(name_of(item))] = item
        out[key(entry.name.rsplit(".", 1)[0])] = item
    return out
