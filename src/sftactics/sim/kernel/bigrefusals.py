"""What the tactical kernel still leaves to the engine with a creature of two squares or more (issue 22).

The runner asks :func:`big_tactical_refusals` beside ``kernel.setup.policy_refusals`` and ``kernel.model.unsupported``
before it hands a tactical job to the kernel; each reason names the kernel module whose choices are not yet held to
the engine's for that case.
"""

from __future__ import annotations

from collections.abc import Mapping

from sftactics.encounter.state import Encounter


def big_tactical_refusals(enc: Encounter, policies: Mapping[str, str]) -> list[str]:
    """What the tactical kernel leaves to the engine with a creature of two squares or more (``kernel.bigtactics``
    moves a big creature by its own mode, a flier with its headings (``kernel.bigtacmodes``), from an unsqueezed
    start, and is held to the engine on maps without walls or light): with a squeezed start, walls and light, or
    a big swimmer, climber or burrower, a tactical side stays with the engine."""
    from sftactics.grid.movement import MoveMode
    from sftactics.grid.space import Size, footprint_side
    from sftactics.sim.kernel import bigmodes, sight
    from sftactics.sim.kernel.modes import kernel_mover

    grid = enc.grid
    big = [c for c in enc.combatants.values() if footprint_side(Size(c.creature.stat.size)) > 1]
    if grid is None or not big or "tactical" not in policies.values():
        return []
    out = []
    if sight.has_walls(grid) or grid.light is not None:
        out.append("the tactical policy with a creature bigger than a square on a map with walls or light (not yet "
                   "held to the engine: kernel.bigtactics)")  # fmt: skip
    for c in big:
        mode = kernel_mover(c).mode
        if mode in (MoveMode.SWIM, MoveMode.CLIMB, MoveMode.BURROW):
            why = "choices part from the engine's in hypothesis-found fights: the engine's until mended"
            out.append(f"{c.id}: the tactical policy with a creature bigger than a square that moves by its "
                       f"{mode.value} speed (the kernel's {why})")  # fmt: skip
        elif c.position is not None:  # the tables of its mode: a flier's space fits over a pool (kernel.bigmodes)
            table = bigmodes.big_mode_tables(grid, bigmodes.table_key(c))
            if not table.fits[0, c.position[1] * grid.width + c.position[0]]:
                out.append(f"{c.id}: the tactical policy with a creature bigger than a square that starts squeezed "
                           "(kernel.bigtactics starts it unsqueezed)")  # fmt: skip
    for c in big:
        if footprint_side(Size(c.creature.stat.size)) >= 4:
            why = "choices part from the engine's in hypothesis-found fights: the engine's until mended"
            out.append(
                f"{c.id}: the tactical policy with a creature of four squares a side or more (the kernel's {why})"
            )
    riders = sorted(c.id for c in enc.combatants.values()
                    if any(ab.rider is not None or ab.mark is not None for ab in c.creature.stat.specials))  # fmt: skip
    if riders:
        out.append(f"the tactical policy with trick attack or get 'em ({', '.join(riders)}) and a creature bigger "
                   "than a square (their squares are ranked for one-square foes in kernel.classes)")  # fmt: skip
    return out
