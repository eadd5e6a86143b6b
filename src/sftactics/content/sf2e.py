"""Bundled 2nd-edition stat blocks (``sftactics/data/statblocks2e``), found by name. docs/sf2e.md says where each
number comes from (the seed's formulas, and the named assumptions where it is silent)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from sftactics.core.errors import FileFormatError
from sftactics.sf2e.statblock import StatBlock2e


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


@lru_cache(maxsize=1)
def bundled_statblocks2e() -> dict[str, StatBlock2e]:
    """Every bundled 2E stat block, keyed by a simplified name and by its file name."""
    import yaml
    from pydantic import ValidationError

    out: dict[str, StatBlock2e] = {}
    root = resources.files("sftactics") / "data" / "statblocks2e"
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith((".yaml", ".yml")):
            continue
        data = yaml.safe_load(entry.read_text(encoding="utf-8"))
        try:
            sb = StatBlock2e.model_validate(data)
        except ValidationError as e:  # pragma: no cover - the bundled files are tested
            raise FileFormatError(entry.name, "", str(e)) from None
        out[_key(sb.name)] = sb
        out[_key(entry.name.rsplit(".", 1)[0])] = sb
    return out


def find_statblock2e(name: str) -> StatBlock2e | None:
    """A bundled 2E stat block by name ("2e-ksarik", "2e pregen soldier 3"), or None."""
    return bundled_statblocks2e().get(_key(name))
