"""What the ground and the senses do to a combatant on the move: squeezing (MOV-19) and moving blind (CON-03).

* :func:`refresh_squeezing` gives a combatant that stands in a space narrower than its own the squeezing
  effect (entangled's penalties under entangled's name, ``movement_rules.squeezing_modifiers``) and takes it
  away once it stands in the open. The engine calls it after every command and after every stretch of a move,
  so an attack of opportunity on a creature in a crawlspace meets its lowered AC.
* :func:`blind_move_allowed` rolls a blinded mover's Acrobatics check before a move of more than half its speed;
  on a failure the mover falls prone where it stands and does not move.
* :func:`settle_recovered` applies the option ``shared_square_on_recovery`` to a creature that stops being
  helpless while another stands in its square (MOV-16).
"""

from __future__ import annotations

from collections.abc import Iterable

from sftactics.encounter import space
from sftactics.encounter.events import CheckMade, Moved
from sftactics.encounter.outcomes import check_data
from sftactics.encounter.state import Combatant, Encounter, Expiry
from sftactics.encounter.tx import Tx
from sftactics.grid.geometry import Footprint
from sftactics.grid.space import Size
from sftactics.grid.squeezing import has_narrow_squares, squeezed_at
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import movement_rules as mr


def squeezing(tx: Tx, c: Combatant) -> bool:
    """Whether ``c`` stands squeezed where it is (MOV-19)."""
    grid = tx.state.grid
    fp = space.footprint(c)
    if grid is None or fp is None or c.creature.has("dead") or c.fled:
        return False
    return squeezed_at(grid, fp, Size(c.creature.stat.size))


def refresh_squeezing(tx: Tx, ids: Iterable[str] | None = None) -> None:
    """Start or end the squeezing effect of each combatant (``ids``: only those) to match where it stands."""
    grid = tx.state.grid
    if grid is None:
        return
    narrow = has_narrow_squares(grid)
    for cid in list(tx.state.combatants) if ids is None else ids:
        c = tx.state.get(cid)
        marked = [e for e in tx.state.effects_on(cid) if mr.SQUEEZE_FLAG in e.flags]
        if not marked and not narrow and _side(c) == 1:
            continue  # nothing on this map can squeeze a one-square creature
        now = squeezing(tx, c)
        if now and not marked:
            pos = c.position or (0, 0)
            tx.start_effect(cid, "squeezing", expires=Expiry(), modifiers=mr.squeezing_modifiers(),
                            flags=(mr.SQUEEZE_FLAG,), rule="MOV-19")  # fmt: skip
            tx.note(f"{cid} squeezes into a narrow space at {pos[0]},{pos[1]}: it counts as entangled "
                    "(-2 AC, attack rolls, Reflex saves; no running or charging)", "MOV-19")  # fmt: skip
        elif marked and not now:
            for e in marked:
                tx.end_effect(e.id, "out of the narrow space")


def refuse_if_squeezing(tx: Tx, c: Combatant, what: str) -> None:
    """A squeezing combatant counts as entangled: no running or charging (MOV-19)."""
    if tx.state.has_flag(c.id, mr.SQUEEZE_FLAG):
        mr.refuse_while_squeezing(c.creature, what)


def squeezes_on(tx: Tx, c: Combatant, squares: Iterable[tuple[int, int]]) -> tuple[int, int] | None:
    """The first of ``squares`` (top-left squares of ``c``'s space) where ``c`` would be squeezing, or None."""
    grid = tx.state.grid
    fp = space.footprint(c)
    if grid is None or fp is None:
        return None
    size = Size(c.creature.stat.size)
    return next((sq for sq in squares if squeezed_at(grid, Footprint(sq[0], sq[1], fp.side), size)), None)


def _side(c: Combatant) -> int:
    fp = space.footprint(c)
    return 1 if fp is None else fp.side


def blind_move_allowed(tx: Tx, cid: str, moved_ft: int) -> bool:
    """Roll the Acrobatics check of a blinded combatant that moves ``moved_ft`` feet in one action (CON-03).
    False when it failed: it is now prone and does not move."""
    c = tx.state.get(cid)
    res = mr.blind_move(c.creature, moved_ft, tx.dice)
    if res is None:
        return True
    tx.emit(CheckMade(id=cid, what="Acrobatics, moving blind (CON-03)", success=not res.fell,
                      check=check_data(res.check), notes=(res.lines[0], "  {bonus}", "  {roll}")))  # fmt: skip
    if res.fell:
        tx.creature(cid, res.creature, [f"{cid} falls prone (CON-03)"])
    return not res.fell


def settle_recovered(tx: Tx, before: Encounter) -> None:
    """A creature may end its move in a helpless creature's square (MOV-16). When the helpless one recovers,
    the default (``share_until_moved``) lets the two share the square until one of them moves; with
    ``nearest_free`` the one that recovered is set down at once in the nearest square it may stand on (no
    movement, no attacks of opportunity). Nothing happens when no square is free on the map."""
    grid = tx.state.grid
    if grid is None or tx.state.options.shared_square_on_recovery != "nearest_free":
        return
    for cid, was in before.combatants.items():
        c = tx.state.combatants.get(cid)
        if c is None or c.position is None or "helpless" not in cond.active(was.creature):
            continue
        if "helpless" in cond.active(c.creature) or c.creature.has("dead") or c.fled:
            continue
        fp = space.footprint(c)
        if fp is None or space.occupant(tx.state, c, fp) is None:
            continue
        to = _nearest_free(tx, c, c.position)
        if to is None:
            continue
        tx.emit(Moved(id=cid, path=(c.position, to), cost_ft=0, kind="settle", verb="is set down",
                      rule="MOV-16"))  # fmt: skip


def _nearest_free(tx: Tx, c: Combatant, at: tuple[int, int]) -> tuple[int, int] | None:
    """The free square nearest ``at`` (by grid distance, then row, then column) where ``c`` may be put down."""
    grid = tx.state.grid
    assert grid is not None
    for ring in range(1, max(grid.width, grid.height)):
        ring_squares = sorted(
            (max(abs(dx), abs(dy)), at[1] + dy, at[0] + dx)
            for dx in range(-ring, ring + 1)
            for dy in range(-ring, ring + 1)
            if max(abs(dx), abs(dy)) == ring
        )
        for _, y, x in ring_squares:
            if space.placement_problem(tx.state, c, (x, y)) is None:
                return (x, y)
    return None
