"""What the tactical kernel still leaves to the engine with a creature of two squares or more (issue 22).

The runner asks :func:`big_tactical_refusals` beside ``kernel.model.unsupported`` before it hands a tactical job to
the kernel; each reason names the kernel module whose choices are not yet held to the engine's for that case.
"""

from __future__ import annotations

from collections.abc import Mapping

from sftactics.encounter.state import Encounter


def big_tactical_refusals(enc: Encounter, policies: Mapping[str, str]) -> list[str]:
    """What the tactical kernel leaves to the engine with a creature of two squares or more (``kernel.bigtactics``
    moves a big creature by its own mode, a flier with its headings (``kernel.bigtacmodes``), squeezing on the way,
    and is held to the engine on maps without walls or light): with a squeezed start (``grid.squeezing.squeezed_at``,
    the reading the simple policy's squeezing penalties use too), walls and light, or a big swimmer, climber or
    burrower, a tactical side stays with the engine."""
    from sftactics.grid.geometry import Footprint
    from sftactics.grid.movement import MoveMode
    from sftactics.grid.space import Size, footprint_side
    from sftactics.grid.squeezing import squeezed_at
    from sftactics.sim.kernel import sight
    from sftactics.sim.kernel.modes import kernel_mover

    grid = enc.grid
    big = [c for c in enc.combatants.values() if footprint_side(Size(c.creature.stat.size)) > 1]
    if grid is None or not big or "tactical" not in policies.values():
        return []
    out = []
    if sight.has_walls(grid) or grid.light is not None:
        out.append("the tactical policy with a creature bigger than a square on a map with walls or light (not yet "
                   "held to the engine by hypothesis-generated fights: kernel.bigtactics)")  # fmt: skip
    for c in big:
        mode = kernel_mover(c).mode
        if mode in (MoveMode.SWIM, MoveMode.CLIMB, MoveMode.BURROW):
            why = "choices part from the engine's in hypothesis-found fights: the engine's until mended"
            out.append(f"{c.id}: the tactical policy with a creature bigger than a square that moves by its "
                       f"{mode.value} speed (the kernel's {why})")  # fmt: skip
        elif c.position is not None and squeezed_at(
            grid, Footprint(*c.position, footprint_side(Size(c.creature.stat.size))), Size(c.creature.stat.size)
        ):
            out.append(f"{c.id}: the tactical policy with a creature bigger than a square that starts squeezed "
                       "(grid.squeezing.squeezed_at; kernel.bigtactics values attacks without squeezing's "
                       "-2)")  # fmt: skip
    return out
