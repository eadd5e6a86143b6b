"""Stat-block files: one creature per YAML/JSON file, in the schema of ``sftactics.sf1e.statblock``."""

from __future__ import annotations

from pathlib import Path

from sftactics.io.files import load_model
from sftactics.sf1e.statblock import StatBlock


def load_statblock(path: str | Path) -> StatBlock:
    """Load a stat block; raises FileFormatError naming the file and the field on any problem."""
    return load_model(Path(path), StatBlock)
