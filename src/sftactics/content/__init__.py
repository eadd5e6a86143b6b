"""Bundled content: stat blocks shipped with the package (``sftactics/data/statblocks``), found by name."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from sftactics.sf1e.statblock import StatBlock


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


@lru_cache(maxsize=1)
def bundled_statblocks() -> dict[str, StatBlock]:
    """Every bundled stat block, keyed by a simplified name (and by its file name)."""
    import yaml

    out: dict[str, StatBlock] = {}
    root = resources.files("sftactics") / "data" / "statblocks"
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith((".yaml", ".yml")):
            continue
        sb = StatBlock.model_validate(yaml.safe_load(entry.read_text(encoding="utf-8")))
        out[_key(sb.name)] = sb
        out[_key(entry.name.rsplit(".", 1)[0])] = sb
    return out


def find_statblock(name: str) -> StatBlock | None:
    """A bundled stat block by name ("ksarik", "Space Goblin", "vesk-soldier"), or None."""
    return bundled_statblocks().get(_key(name))
