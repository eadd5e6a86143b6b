"""Every 1st-edition condition as data (CON-00..36), and the set of conditions a creature is under.

The table is filled in ``CONDITIONS``; each entry's modifiers, action limits, speed effects and implied
conditions are read by ``stats.py`` (numbers) and, later, by the encounter (timing and ticks).
"""

from __future__ import annotations

from sftactics.sf1e.modifiers import NO_ACTIONS, ActionLimits, ConditionDef, mod
from sftactics.sf1e.state import Creature

CONDITIONS: dict[str, ConditionDef] = {}


def _add(c: ConditionDef) -> None:
    CONDITIONS[c.name] = c


_add(
    ConditionDef(
        "flat-footed",
        "CON-18",
        "-2 AC; no reactions (so no attacks of opportunity).",
        mods=(mod("ac", -2),),
        actions=ActionLimits(reaction=False),
        no_aoo=True,
        ends="when the cause ends (surprised creatures: once aware and they have acted)",
    )
)
_add(
    ConditionDef(
        "prone",
        "CON-29",
        "-4 melee attack rolls; +4 AC against ranged attacks, -4 AC against melee attacks.",
        mods=(mod("attack", -4, "melee"), mod("ac", 4, "vs:ranged"), mod("ac", -4, "vs:melee")),
        ends="standing up (a move action)",
    )
)
_add(
    ConditionDef(
        "shaken",
        "CON-30",
        "-2 to attack rolls, saving throws, skill checks and ability checks.",
        mods=(mod("attack", -2), mod("save", -2), mod("skill", -2), mod("ability_check", -2)),
        stacking="extend",
    )
)
_add(
    ConditionDef(
        "dead",
        "CON-10",
        "Dead: cannot act and cannot be healed by normal or magical means.",
        actions=NO_ACTIONS,
    )
)


def get(name: str) -> ConditionDef:
    from sftactics.core.errors import SftError

    key = name.strip().lower().replace("_", "-")
    if key == "flatfooted":
        key = "flat-footed"
    if key not in CONDITIONS:
        raise SftError(f"unknown condition {name!r} (known: {', '.join(sorted(CONDITIONS))})")
    return CONDITIONS[key]


def active(creature: Creature) -> dict[str, ConditionDef]:
    """Every condition in force on ``creature``: its own, the ones they imply (transitively), and the ones
    its stat block or gear imposes (non-proficient powered armor: flat-footed and off-target, GEN-12)."""
    names: list[str] = [c.name for c in creature.state.conditions]
    armor = creature.stat.armor
    if armor is not None and armor.category == "powered" and not _proficient_armor(creature):
        names += ["flat-footed", "off-target"]
    out: dict[str, ConditionDef] = {}
    while names:
        n = names.pop()
        if n in out:
            continue
        d = CONDITIONS.get(n)
        if d is None:
            continue
        out[n] = d
        names.extend(d.implies)
    return out


def _proficient_armor(creature: Creature) -> bool:
    armor = creature.stat.armor
    if armor is None:
        return True
    if armor.proficient is not None:
        return armor.proficient
    prof = creature.stat.proficiencies
    if prof is None:
        return True
    return armor.category in prof.armor
