"""Stat-block files: one creature per YAML/JSON file, in the schema of ``sftactics.sf1e.statblock``; weapons and
armor may name items of the bundled armory (expanded as the bundled stat blocks are)."""

from __future__ import annotations

from pathlib import Path

from sftactics.core.errors import FileFormatError
from sftactics.io.files import load_model
from sftactics.sf1e.statblock import StatBlock


def load_statblock(path: str | Path) -> StatBlock:
    """Load a stat block; raises FileFormatError naming the file and the field on any problem."""
    from sftactics.content import expand_refs

    return load_model(Path(path), StatBlock, prepare=lambda data: expand_refs(data, file=str(path)))


def statblock_ref(ref: str) -> StatBlock:
    """A stat block from a file, or else a bundled creature by name ("ksarik", "pregen-soldier-4")."""
    from sftactics.content import find_statblock

    try:
        target = Path(ref)
        is_file = target.is_file()
    except (OSError, ValueError):  # a name too long for the system, or with a NUL character
        is_file = False
    if is_file:
        return load_statblock(target)
    found = find_statblock(ref)
    if found is not None:
        return found
    if "/" in ref or ref.endswith((".yaml", ".yml", ".json")):
        return load_statblock(ref)  # meant as a file: the error says it is not there
    raise FileFormatError(ref, "", "a stat-block file or a bundled creature's name (docs/content.md lists them)")
