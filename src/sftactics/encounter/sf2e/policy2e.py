"""The simple built-in policy for a 2E fight: close in on the nearest foe it can target and Strike it.

On its turn a combatant Seeks once when every foe is hidden from it, Strikes the nearest foe it perceives with
the first of its Strikes that reaches (a melee fighter first Strides into reach), Strides toward it when none
does, and spends its three actions so, except that it Takes Cover rather than make a third attack when it has
cover against that foe; then ends its turn. It only proposes commands: the engine decides.
"""

from __future__ import annotations

from sftactics.encounter import space
from sftactics.encounter.commands import EndTurn
from sftactics.encounter.engine import Fight, pending
from sftactics.encounter.policy import _approach, try_command
from sftactics.encounter.sf2e.commands2e import Seek, Stride, Strike, TakeCover
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid.cover import CoverKind


def _foes(state: Encounter, me: Combatant) -> tuple[list[Combatant], list[Combatant]]:
    """(foes it can target, foes hidden beyond that from it) among the enemies still fighting."""
    seen: list[Combatant] = []
    unseen: list[Combatant] = []
    for c in state.enemies_of(me.id):
        if c.out_of_fight or c.body2e is None:
            continue
        state_ = c.body2e.unseen_by.get(me.id)
        (seen if state_ in (None, "hidden") else unseen).append(c)
    return seen, unseen


def _behind_cover(state: Encounter, me: Combatant, foe: Combatant) -> bool:
    """Whether ``me`` has some cover against ``foe``'s ranged attacks (what Take Cover improves, E2-68)."""
    if me.body2e is None or me.body2e.cover_taken:
        return False
    fa, fb = space.footprint(foe), space.footprint(me)
    if fa is None or fb is None:
        return False
    found = space.cover_between(state, foe, fa, fb, melee=False, explain=False, target_id=me.id)
    return found is not None and found.kind not in (CoverKind.NONE, CoverKind.TOTAL)


def simple2e(fight: Fight, cid: str) -> None:
    """Take ``cid``'s whole 2E turn with the simple policy."""
    sought = False
    for _ in range(8):
        s = fight.state
        if s.result is not None or s.timeline.turn != cid:
            return
        me = s.get(cid)
        if me.body2e is None or me.body2e.actions == 0:
            break
        seen, unseen = _foes(s, me)
        if not seen:
            if unseen and not sought and try_command(fight, Seek(actor=cid)):
                sought = True
                continue
            break
        target = min(seen, key=lambda f: (space.distance_ft(me, f) or 0, f.id))
        strikes = me.body2e.stat.strikes
        if strikes and strikes[0].range_increment is None:
            dest = _approach(s, me.model_copy(update={"diagonals": 0}), target)
            dist = space.distance_ft(me, target) or 0
            if dest is not None and dist > strikes[0].reach_ft and try_command(fight, Stride(actor=cid, to=dest)):
                continue
        if me.body2e.attacks >= 2 and _behind_cover(s, me, target) and try_command(fight, TakeCover(actor=cid)):
            continue  # a third shot at -10 is worth less than the better cover
        if any(try_command(fight, Strike(actor=cid, target=target.id, weapon=w.name)) for w in strikes):
            continue
        dest = _approach(s, me.model_copy(update={"diagonals": 0}), target)
        if dest is None or not try_command(fight, Stride(actor=cid, to=dest)):
            break
    s = fight.state
    if s.result is None and s.timeline.turn == cid and pending(s) == cid:
        fight.do(EndTurn(actor=cid))
