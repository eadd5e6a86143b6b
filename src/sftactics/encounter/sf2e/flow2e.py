"""The 2E flow of a fight: initiative by Perception (E2-18), rounds and turns, the start of a turn (fast healing,
regeneration, the recovery check while dying, three actions and the reaction: E2-29..33, E2-42) and its end
(persistent damage and its flat check, conditions that wear off: E2-26, E2-54, E2-59).

The shared flow's pieces serve as they are: the order and who is next (``flow.next_in_order``), timed effects
(``timing``), and the end of the fight (``flow.check_end``, which reads each combatant's plain face).
"""

from __future__ import annotations

from sftactics.core.breakdown import Breakdown
from sftactics.encounter import flow, timing
from sftactics.encounter.events import (
    InitiativeRolled,
    OrderSet,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from sftactics.encounter.sf2e.events2e import (
    Body2eChanged,
    Check2eMade,
    Creature2eChanged,
    breakdown2e,
    check2e,
    ledger2e,
)
from sftactics.encounter.sf2e.model import Body2e
from sftactics.encounter.state import Encounter
from sftactics.encounter.tx import Tx
from sftactics.sf2e.actions import TurnBudget
from sftactics.sf2e.creature import Attribute
from sftactics.sf2e.defenses import attribute_term, perception, statistic
from sftactics.sf2e.options import DEFAULT_OPTIONS, Sf2eOptions
from sftactics.sf2e.turns import end_of_turn, start_of_turn


def options(state: Encounter) -> Sf2eOptions:
    return state.options2e or DEFAULT_OPTIONS


def body(state: Encounter, cid: str) -> Body2e:
    b = state.get(cid).body2e
    assert b is not None, f"{cid} is not a 2E combatant"
    return b


def begin(tx: Tx) -> None:
    """Everyone rolls Perception for initiative (E2-18), unless the scenario gave the result; highest first,
    ties by ``Sf2eOptions.initiative_ties``; then round 1 (the 2E seed has no surprise round)."""
    s = tx.state
    opts = options(s)
    ids = list(s.combatants)
    rolling = [cid for cid in ids if s.get(cid).initiative is None]
    for cid in rolling:  # one d20 each, in the scenario's order
        b = body(s, cid)
        rolled = initiative_modifier(b, opts)
        natural = tx.dice.d20(f"initiative ({cid})")
        tx.emit(InitiativeRolled(id=cid, roll=natural, modifier=rolled.total, total=natural + rolled.total,
                                 explain=rolled.describe(), bonus=breakdown2e(rolled)))  # fmt: skip
    totals: dict[str, tuple[int, bool, int]] = {}
    for cid in ids:
        c = tx.state.get(cid)
        b = body(tx.state, cid)
        mod = perception(b.creature, options=opts).total
        if cid not in rolling:
            assert c.initiative is not None
            tx.emit(InitiativeRolled(id=cid, roll=c.initiative - mod, modifier=mod, total=c.initiative,
                                     explain="given"))  # fmt: skip
        total = tx.state.get(cid).initiative or 0
        totals[cid] = (total, b.creature.player, mod)
    first_pc = opts.initiative_ties == "pc_first"
    order = sorted(ids, key=lambda i: (-totals[i][0], totals[i][1] != first_pc, -totals[i][2], ids.index(i)))
    tx.emit(OrderSet(order=tuple(order), reason="initiative, highest first (E2-18)"))
    flow.start_round(tx)


def initiative_modifier(b: Body2e, opts: Sf2eOptions) -> Breakdown:
    """Perception, or the skill the creature rolls instead (Stealth while sneaking up) (E2-18)."""
    if b.initiative_skill == "perception":
        return perception(b.creature, options=opts)
    c = b.creature
    return statistic(c, "Stealth (initiative)", "stealth", [attribute_term(c, Attribute.DEX, "E2-18")], "stealth",
                     options=opts)  # fmt: skip


def can_act(state: Encounter, cid: str) -> bool:
    c = body(state, cid).creature
    return not (c.dead or c.unconscious or c.dying) and body(state, cid).actions > 0


def advance(tx: Tx) -> None:
    """Start the next turn (or round), passing the turns of those who cannot act, until someone can decide or
    the fight ends."""
    for _ in range(10_000):
        s = tx.state
        if flow.check_end(tx) or s.timeline.turn is not None:
            return
        nxt = flow.next_in_order(s)
        if nxt is None:
            flow.start_round(tx)
            continue
        c = s.get(nxt)
        if body(s, nxt).creature.dead or c.fled:
            tx.emit(TurnSkipped(id=nxt, reason="dead" if body(s, nxt).creature.dead else "out of the fight"))
            continue
        start_turn(tx, nxt)
        if flow.check_end(tx):
            return
        if not can_act(tx.state, nxt):
            end_turn(tx, nxt)
            continue
        return


def start_turn(tx: Tx, cid: str) -> None:
    for eid in timing.due(tx.state, at="turn_start", who=cid):
        tx.end_effect(eid, f"{cid}'s turn began")
    tx.emit(TurnStarted(id=cid))
    b = body(tx.state, cid)
    start = start_of_turn(b.creature, tx.dice, heroic_recovery=b.heroic_recovery, deed="heroic recovery")
    steps = [*start.healing.lines]
    if start.recovery is not None:
        for chk in start.recovery.checks:
            tx.emit(Check2eMade(id=cid, what="recovery check (E2-33)", check=check2e(chk)))
        steps += start.recovery.lines
    if start.creature != b.creature:
        tx.emit(Creature2eChanged(id=cid, creature=start.creature, steps=ledger2e(steps)))
    changes: dict[str, object] = {"actions": start.budget.actions + start.budget.quickened, "reaction": True,
                                  "attacks": 0}  # fmt: skip
    if b.cover_taken:
        changes["cover_taken"] = False
    tx.emit(Body2eChanged(id=cid, changes=changes))


def end_turn(tx: Tx, cid: str) -> None:
    """Persistent damage and its flat checks, then conditions that wear off (frightened, slowed)."""
    b = body(tx.state, cid)
    if not b.creature.dead:
        done = end_of_turn(b.creature, TurnBudget(actions=b.actions, own_turn=True), tx.dice, options=options(tx.state))
        for chk in done.persistent.checks:
            tx.emit(Check2eMade(id=cid, what="flat check to end persistent damage (E2-26)", check=check2e(chk)))
        steps = [line for o in done.persistent.damage for line in o.ledger] + list(done.persistent.lines)
        if done.creature != b.creature or steps:
            tx.emit(Creature2eChanged(id=cid, creature=done.creature, steps=ledger2e(steps)))
    if body(tx.state, cid).actions:
        tx.emit(Body2eChanged(id=cid, changes={"actions": 0}))
    for eid in timing.due(tx.state, at="turn_end", who=cid):
        tx.end_effect(eid, f"{cid}'s turn ended")
    tx.emit(TurnEnded(id=cid))
