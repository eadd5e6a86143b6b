"""The Reflex save that ends burning or corroding (CON-05), one function for every way it is made: at the end of
the creature's turn (``flow``) and when it spends a full action smothering the flames (``gm_checks.do_smother``)."""

from __future__ import annotations

from typing import Final

from sftactics.core.check import CheckKind, resolve
from sftactics.encounter.events import CheckMade, CombatantChanged
from sftactics.encounter.outcomes import check_data
from sftactics.encounter.tx import Tx
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats

#: Each condition ended by a Reflex save: the combatant's field with the damage it dealt this round, the field
#: counting consecutive saves, and what success reads as.
SAVED: Final[dict[str, tuple[str, str, str]]] = {
    "burning": ("burn_taken", "burn_saves", "puts out the flames"),
    "corroding": ("corrode_taken", "corrode_saves", "shakes off the acid"),
}


def reflex_to_end(tx: Tx, cid: str, name: str, *, smothering: bool, what: str, purpose: str, note: str) -> bool:
    """CON-05: ``cid`` attempts a Reflex save against DC 10 + the damage ``name`` dealt it this round, +2 per
    previous consecutive attempt (+4 more when ``smothering``); success ends the condition and resets the count,
    failure adds one attempt. ``what``/``purpose``/``note``: the check's event text, the roll's purpose and the
    note when the condition ends. Returns whether the save succeeded."""
    taken, saves, _ = SAVED[name]
    c = tx.state.get(cid)
    cr = c.creature
    dc = cond.burning_save_dc(getattr(c, taken))
    bonus = stats.save_bonus(cr, "ref", options=tx.state.options)
    extra = cond.burning_save_bonus(getattr(c, saves), smothering, condition=name)
    if extra:
        bonus = bonus.plus(*extra)
    r = resolve(CheckKind.SAVE, bonus, dc, tx.dice, purpose=purpose)
    tx.emit(CheckMade(id=cid, what=what, success=r.success, check=check_data(r)))
    if r.success:
        tx.creature(cid, cond.remove_condition(cr, name), [note])
        tx.emit(CombatantChanged(id=cid, changes={saves: 0}))
    else:
        tx.emit(CombatantChanged(id=cid, changes={saves: getattr(c, saves) + 1}))
    return r.success
