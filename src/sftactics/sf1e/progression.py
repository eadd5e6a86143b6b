"""Base attack bonus and base saves from class levels (BON-04; the class tables are XREF X-03, CRB ch. 4).

Each Core Rulebook class has a full or three-quarter attack progression and good or poor saves. Base bonuses
from several classes add together (BON-04): a soldier 5/operative 1 has BAB +5, Fort +4, Ref +3, Will +6.
"""

from __future__ import annotations

from dataclasses import dataclass

from sftactics.core.errors import SftError


@dataclass(frozen=True, slots=True)
class ClassProgression:
    full_bab: bool
    good_saves: frozenset[str]


CLASSES: dict[str, ClassProgression] = {
    "envoy": ClassProgression(False, frozenset({"ref", "will"})),
    "mechanic": ClassProgression(False, frozenset({"fort", "ref"})),
    "mystic": ClassProgression(False, frozenset({"will"})),
    "operative": ClassProgression(False, frozenset({"ref", "will"})),
    "solarian": ClassProgression(True, frozenset({"fort", "will"})),
    "soldier": ClassProgression(True, frozenset({"fort", "will"})),
    "technomancer": ClassProgression(False, frozenset({"will"})),
}


def bab_for(full: bool, level: int) -> int:
    return level if full else (3 * level) // 4


def save_for(good: bool, level: int) -> int:
    return 2 + level // 2 if good else level // 3


def base_bonuses(classes: dict[str, int]) -> tuple[int, dict[str, int]]:
    """(BAB, {fort, ref, will}) for a set of class levels, summed over classes (BON-04)."""
    bab = 0
    saves = {"fort": 0, "ref": 0, "will": 0}
    for name, level in classes.items():
        prog = CLASSES.get(name.lower())
        if prog is None:
            raise SftError(f"unknown class {name!r} (known: {', '.join(sorted(CLASSES))})")
        if level < 1:
            raise SftError(f"class level for {name} must be at least 1")
        bab += bab_for(prog.full_bab, level)
        for s in saves:
            saves[s] += save_for(s in prog.good_saves, level)
    return bab, saves
