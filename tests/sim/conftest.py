"""Small scenarios for the simulation tests (fast fights on small maps)."""

from __future__ import annotations

from pathlib import Path

import pytest

ARENA = """\
##############
#............#
#...o....o...#
#............#
#...o....o...#
#............#
##############"""


def write(tmp: Path, name: str, combatants: list[str], map_text: str = ARENA) -> Path:
    body = "\n".join(f"  - {c}" for c in combatants)
    indented = "\n".join("  " + line for line in map_text.splitlines())
    path = tmp / f"{name}.yaml"
    path.write_text(f"name: {name}\nmap: |\n{indented}\ncombatants:\n{body}\n", encoding="utf-8")
    return path


@pytest.fixture
def mirror(tmp_path: Path) -> Path:
    """Two identical pairs of hobbe hounds, placed symmetrically."""
    return write(
        tmp_path,
        "mirror",
        [
            "{id: West 1, side: west, statblock: hobbe-hound, at: [2, 2]}",
            "{id: West 2, side: west, statblock: hobbe-hound, at: [2, 4]}",
            "{id: East 1, side: east, statblock: hobbe-hound, at: [11, 2]}",
            "{id: East 2, side: east, statblock: hobbe-hound, at: [11, 4]}",
        ],
    )


@pytest.fixture
def skirmish(tmp_path: Path) -> Path:
    """Two level-2 pregenerated characters against one ksarik."""
    return write(
        tmp_path,
        "skirmish",
        [
            "{id: Krask, side: party, statblock: pregen-soldier-2, at: [2, 2]}",
            "{id: Vela, side: party, statblock: pregen-envoy-2, at: [2, 4]}",
            "{id: Ksarik, side: aliens, statblock: ksarik, at: [11, 3]}",
        ],
    )


@pytest.fixture
def hopeless(tmp_path: Path) -> Path:
    """Two level-2 characters against a CR 8 dinosaur."""
    return write(
        tmp_path,
        "hopeless",
        [
            "{id: Krask, side: party, statblock: pregen-soldier-2, at: [2, 2]}",
            "{id: Vela, side: party, statblock: pregen-envoy-2, at: [2, 4]}",
            "{id: Dino, side: monster, statblock: dinosaur-ceratopsid, at: [10, 2]}",
        ],
    )
