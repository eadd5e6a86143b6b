"""What the tactical kernel still leaves to the engine with a creature of two squares or more (issue 22).

The runner asks :func:`big_tactical_refusals` beside ``kernel.model.unsupported`` before it hands a tactical job to
the kernel; each reason names the kernel module whose choices are not yet held to the engine's for that case.

What it no longer refuses, each held to the engine by same-dice tests: maps with walls and light (the engine's
path search settles the first of equally cheap end states, ``kernel.bigpath``), big swimmers, climbers and
burrowers, and a big creature that starts squeezed when no one in the fight has an ability that harms by an
attack roll or a saving throw (the policy's numbers read who stands squeezed: ``kernel.bigsqueeze.held``).
"""

from __future__ import annotations

from collections.abc import Mapping

from sftactics.encounter.state import Encounter
from sftactics.sf1e.usable import UsableAbility


def _rolled(ab: UsableAbility) -> bool:
    """A harmful ability with an attack roll or a saving throw: the tactical policy weighs it by the target's AC
    or save, which squeezing lowers."""
    return ab.is_harmful and (ab.attack is not None or ab.save is not None)


def big_tactical_refusals(enc: Encounter, policies: Mapping[str, str]) -> list[str]:
    """What the tactical kernel leaves to the engine with a creature of two squares or more (``kernel.bigtactics``
    moves a big creature by its own mode, a flier with its headings (``kernel.bigtacmodes``), squeezing on the way,
    among walls and in light): a big creature that starts squeezed (``grid.squeezing.squeezed_at``, the reading the
    simple policy's squeezing penalties use too) in a fight where someone has an ability that harms by an attack
    roll or a saving throw. The policy's values of such abilities (``kernel.abilities``, from the model's ability
    tables) hold the creatures' AC and saves without squeezing's -2, which the engine's values include; weapons and
    grenades take it (``kernel.bigsqueeze.held``)."""
    from sftactics.grid.geometry import Footprint
    from sftactics.grid.space import Size, footprint_side
    from sftactics.grid.squeezing import squeezed_at

    grid = enc.grid
    big = [c for c in enc.combatants.values() if footprint_side(Size(c.creature.stat.size)) > 1]
    if grid is None or not big or "tactical" not in policies.values():
        return []
    users = sorted({c.id for c in enc.combatants.values() for ab in c.creature.stat.specials if _rolled(ab)})
    if not users:
        return []
    out = []
    for c in big:
        size = Size(c.creature.stat.size)
        if c.position is not None and squeezed_at(grid, Footprint(*c.position, footprint_side(size)), size):
            out.append(f"{c.id}: the tactical policy with a creature bigger than a square that starts squeezed, "
                       f"and abilities that harm by an attack roll or a save ({', '.join(users)}: kernel.abilities "
                       "values them without squeezing's -2)")  # fmt: skip
    return out
