"""Bundled content: stat blocks shipped with the package (``sftactics/data/statblocks``), found by name, and the
Core Rulebook armory (``sftactics/data/armory``, see :mod:`sftactics.content.armory`).

Bundled stat blocks may name armory items instead of writing their statistics (see :func:`expand_refs`)::

    armor: second skin
    weapons:
      - tactical semi-auto pistol
      - {armory: frag grenade I, name: grenade}
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from sftactics.content.armory import find_armor, find_armor_entry, find_weapon, find_weapon_entry
from sftactics.content.bundled import key as _key
from sftactics.content.bundled import load_folder
from sftactics.core.errors import FileFormatError
from sftactics.sf1e.statblock import StatBlock


def expand_refs(data: Mapping[str, Any], *, file: str = "<data>") -> dict[str, Any]:
    """Stat-block data with armory references replaced by the items' statistics.

    ``armor`` may be an armory name (or ``{armory: NAME, ...fields to change}``); each entry of ``weapons`` may
    be an armory name, or ``{armory: NAME, ...fields to change}`` (e.g. a new ``name`` or a printed
    ``attack_bonus``). Everything else is returned as it is. An unknown name raises FileFormatError naming the
    field."""
    out = dict(data)
    armor = out.get("armor")
    if isinstance(armor, str) or (isinstance(armor, Mapping) and "armory" in armor):
        out["armor"] = _expand(armor, "armor", file, weapon=False)
    weapons = out.get("weapons")
    if isinstance(weapons, list):
        out["weapons"] = [
            _expand(w, f"weapons[{i}]", file, weapon=True)
            if isinstance(w, str) or (isinstance(w, Mapping) and "armory" in w)
            else w
            for i, w in enumerate(weapons)
        ]
    return out


def _expand(ref: Any, where: str, file: str, *, weapon: bool) -> dict[str, Any]:
    name = ref if isinstance(ref, str) else ref.get("armory")
    if not isinstance(name, str):
        raise FileFormatError(file, f"{where}.armory", "the name of an armory item")
    item = find_weapon(name) if weapon else find_armor(name)
    if item is None:
        what = "weapon or grenade" if weapon else "armor"
        raise FileFormatError(file, where, f"a {what} of the bundled armory; {name!r} is not one")
    base = item.model_dump(exclude_defaults=True)
    if isinstance(ref, Mapping):
        base.update({k: v for k, v in ref.items() if k != "armory"})
    return base


@lru_cache(maxsize=1)
def bundled_statblocks() -> dict[str, StatBlock]:
    """Every bundled stat block, keyed by a simplified name (and by its file name)."""
    return load_folder("statblocks", StatBlock, lambda sb: sb.name, lambda data, file: expand_refs(data, file=file))


def find_statblock(name: str) -> StatBlock | None:
    """A bundled stat block by name ("ksarik", "Space Goblin", "vesk-soldier", "pregen-soldier-4"), or None."""
    return bundled_statblocks().get(_key(name))


__all__ = [
    "bundled_statblocks",
    "expand_refs",
    "find_armor",
    "find_armor_entry",
    "find_statblock",
    "find_weapon",
    "find_weapon_entry",
]
