"""Skills by name and the ability each one keys off (XREF: the skills chapter is not in the seeds).

Stat blocks print skill totals under snake_case keys (``sense_motive``, ``life_science``); :func:`skill_key`
turns what a person types ("Sense Motive", "sleight-of-hand") into that key. :data:`SKILL_ABILITY` is the key
ability of each Core Rulebook skill, so a check can carry the ``ability:*`` tag that conditions look for
(entangled's -2 to Dexterity-based checks, CON-14) and so ability damage changes a printed total (ABL-03).
Profession has no fixed ability and is left out.
"""

from __future__ import annotations

from typing import Final

from sftactics.sf1e.statblock import Ability

SKILL_ABILITY: Final[dict[str, Ability]] = {
    "acrobatics": "dex",
    "athletics": "str",
    "bluff": "cha",
    "computers": "int",
    "culture": "int",
    "diplomacy": "cha",
    "disguise": "cha",
    "engineering": "int",
    "intimidate": "cha",
    "life_science": "int",
    "medicine": "int",
    "mysticism": "wis",
    "perception": "wis",
    "physical_science": "int",
    "piloting": "dex",
    "sense_motive": "wis",
    "sleight_of_hand": "dex",
    "stealth": "dex",
    "survival": "wis",
}


def skill_key(name: str) -> str:
    """The stat block key of a skill name: lower case, words joined by ``_`` (``"Sense Motive"`` ->
    ``"sense_motive"``)."""
    return "_".join(name.strip().lower().replace("-", " ").replace("_", " ").split())


def key_ability(name: str) -> Ability | None:
    """The ability a skill keys off, or None for a skill with no fixed one (Profession) or an unknown name."""
    return SKILL_ABILITY.get(skill_key(name))
