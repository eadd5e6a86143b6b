"""Bundled 2nd-edition stat blocks (``sftactics/data/statblocks2e``), found by name. docs/sf2e.md says where each
number comes from (the seed's formulas, and the named assumptions where it is silent)."""

from __future__ import annotations

from functools import lru_cache

from sftactics.content.bundled import key as _key
from sftactics.content.bundled import load_folder
from sftactics.sf2e.statblock import StatBlock2e


@lru_cache(maxsize=1)
def bundled_statblocks2e() -> dict[str, StatBlock2e]:
    """Every bundled 2E stat block, keyed by a simplified name and by its file name."""
    return load_folder("statblocks2e", StatBlock2e, lambda sb: sb.name)


def find_statblock2e(name: str) -> StatBlock2e | None:
    """A bundled 2E stat block by name ("2e-ksarik", "2e pregen soldier 3"), or None."""
    return bundled_statblocks2e().get(_key(name))
