"""Combat flow: awareness, initiative, rounds and turns, start- and end-of-turn upkeep (CF-01..17).

* ``begin``: a surprise round happens when some but not all combatants are aware (CF-08). Everyone rolls
  initiative up front (CF-10, option default): d20 + modifier; ties go to the higher modifier, then to a
  roll-off repeated until it breaks (CF-04). Surprised combatants are flat-footed until their first turn
  (CF-11).
* Turns run in order; a combatant that cannot act at all (dead; unconscious with no Resolve choice; dazed,
  stunned...) has its turn passed automatically, still with end-of-turn upkeep (a dying creature loses RP).
* Start of a turn: expiries due, reaction back (ACT-05), readied actions lapse (ACT-73), surprise's
  flat-footed ends, bleeding/burning/corroding damage (CON-02, CON-05), a confused creature's d% (CON-06,
  ``confusion``): babbling or hurting itself leaves it nothing to decide.
* End of a turn: dying RP loss (INJ-04), burning save (CON-05), expiries anchored to the end of the turn.
* The combat ends when at most one side still has someone able to fight (CF-02).
"""

from __future__ import annotations

from sftactics.core.breakdown import explain
from sftactics.encounter import confusion, timing
from sftactics.encounter.condition_saves import SAVED, reflex_to_end
from sftactics.encounter.events import (
    CombatantChanged,
    CombatEnded,
    InitiativeRolled,
    OrderSet,
    Readied,
    RoundStarted,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from sftactics.encounter.outcomes import breakdown_data, damage_data, injury_data
from sftactics.encounter.state import Combatant, Encounter, StartAt
from sftactics.encounter.tx import Tx
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import injury, stats
from sftactics.sf1e.damage import mitigate, roll_damage
from sftactics.sf1e.state import ConditionInstance

SURPRISED = "surprised"


# ---------------------------------------------------------------- beginning
def surprise_round(state: Encounter) -> bool:
    """CF-08: a surprise round happens if some but not all combatants are aware of their foes."""
    aware = [c.aware for c in state.combatants.values()]
    return any(aware) and not all(aware)


def roll_initiative(tx: Tx, cid: str) -> None:
    c = tx.state.get(cid)
    mod = stats.initiative(c.creature, tx.state.options)
    if c.initiative is not None:  # already rolled (given by the scenario)
        r = c.initiative - mod.total
        tx.emit(InitiativeRolled(id=cid, roll=r, modifier=mod.total, total=c.initiative, explain="given",
                                 bonus=breakdown_data(mod)))  # fmt: skip
        return
    r = tx.dice.d20(f"{cid} initiative")
    tx.emit(InitiativeRolled(id=cid, roll=r, modifier=mod.total, total=r + mod.total, explain=mod.describe(),
                             bonus=breakdown_data(mod)))  # fmt: skip


def sort_order(tx: Tx, ids: list[str]) -> None:
    """Highest count first; ties by higher initiative modifier, then a roll-off repeated until broken (CF-04)."""
    s = tx.state
    key = {cid: (s.get(cid).initiative or 0, s.get(cid).init_mod) for cid in ids}
    groups: dict[tuple[int, int], list[str]] = {}
    for cid in ids:
        groups.setdefault(key[cid], []).append(cid)
    roll_offs: dict[str, list[int]] = {}
    order: list[str] = []
    for k in sorted(groups, reverse=True):
        tied = groups[k]
        while len(tied) > 1:
            rolls = {cid: tx.dice.d20(f"{cid} initiative roll-off") for cid in tied}
            for cid, r in rolls.items():
                roll_offs.setdefault(cid, []).append(r)
            if len(set(rolls.values())) == len(rolls):
                tied = sorted(tied, key=lambda x: rolls[x], reverse=True)
                break
            # re-roll only among those still tied (CF-04 default: repeat until broken)
            by_roll: dict[int, list[str]] = {}
            for cid, r in rolls.items():
                by_roll.setdefault(r, []).append(cid)
            resolved: list[str] = []
            for r in sorted(by_roll, reverse=True):
                sub = by_roll[r]
                if len(sub) > 1:
                    sub = _break_ties(tx, sub, roll_offs)
                resolved += sub
            tied = resolved
            break
        order += tied
    tx.emit(
        OrderSet(
            order=tuple(order),
            roll_offs={k: tuple(v) for k, v in roll_offs.items()},
            reason="initiative (CF-03, CF-04)",
        )
    )


def _break_ties(tx: Tx, tied: list[str], roll_offs: dict[str, list[int]]) -> list[str]:
    while True:
        rolls = {cid: tx.dice.d20(f"{cid} initiative roll-off") for cid in tied}
        for cid, r in rolls.items():
            roll_offs.setdefault(cid, []).append(r)
        if len(set(rolls.values())) == len(rolls):
            return sorted(tied, key=lambda x: rolls[x], reverse=True)


def begin(tx: Tx, *, roll_awareness: bool = False) -> None:
    from sftactics.encounter import gm_setup, perception
    from sftactics.encounter.events import AwarenessChanged

    s = tx.state
    hide = tuple(perception.key(o.id, t.id) for t in s.combatants.values() if t.hidden for o in s.enemies_of(t.id))
    if hide:
        tx.emit(AwarenessChanged(hide=hide))
    if roll_awareness:
        perception.roll_surprise(tx)
    elif s.track_awareness:
        perception.refresh(tx, force=True)
    gm_setup.awareness_at_begin(tx, rolled=roll_awareness)  # the scenario's pairs (issue 15)
    s = tx.state
    surprise = surprise_round(s) and s.start_at is None
    for cid in s.combatants:
        roll_initiative(tx, cid)
    sort_order(tx, list(s.combatants))
    if s.start_at is not None:
        _under_way(tx, s.start_at)
    elif surprise:
        for c in list(tx.state.combatants.values()):
            if not c.aware:
                new = cond.add_condition(c.creature, ConditionInstance(name="flat-footed", source=SURPRISED))
                tx.creature(c.id, new, [f"{c.id} is surprised: flat-footed until its first turn (CF-11)"])
        tx.emit(RoundStarted(round=0, surprise=True))
        tx.note("surprise round: aware combatants take a standard or a move action, plus a swift action (CF-09)")
    else:
        tx.emit(RoundStarted(round=1))
    gm_setup.effects_at_begin(tx)  # grapples under way, imposed cover
    advance(tx)


def _under_way(tx: Tx, at: StartAt) -> None:
    """Open the round a scenario's fight is already in: those who have had their turn this round are done,
    and everyone has acted at least once if this is not the first round (no surprise flat-footedness)."""
    tx.emit(RoundStarted(round=at.round))
    order = tx.state.timeline.order
    done = [*at.acted]
    if at.turn is not None:
        done += [cid for cid in order[: order.index(at.turn)] if cid not in done]
    tx.emit(OrderSet(order=order, reason=f"the fight is under way: round {at.round}", mark_done=tuple(done)))
    for cid in order:
        if at.round > 1 or cid in done:
            tx.emit(CombatantChanged(id=cid, changes={"acted": True}))
    tx.note(f"the fight is already under way: round {at.round}" + (f", {at.turn}'s turn" if at.turn else ""), "CF-12")


# ---------------------------------------------------------------- turns
def acts_this_round(state: Encounter, c: Combatant) -> bool:
    if state.timeline.phase == "surprise":
        return c.aware
    return True


def can_choose(state: Encounter, c: Combatant) -> bool:
    """Whether the combatant has any decision to make on its turn."""
    cr = c.creature
    if cr.has("dead") or c.fled:
        return False
    if cr.has("dying"):
        return cr.state.rp >= injury.stabilize_cost(cr, state.options)
    if cr.has("stable") or (cr.has("unconscious") and cr.state.hp == 0):
        rnd = state.timeline.round
        return cr.state.rp >= 1 and cr.state.stabilized_round != rnd
    return confusion.decides(c) and not stats.action_limits(cr).none


def delayers(state: Encounter) -> list[str]:
    return [c.id for c in state.combatants.values() if c.delaying]


def next_in_order(state: Encounter) -> str | None:
    """The next combatant in the order who has not had its turn this round and is not delaying."""
    done = set(state.timeline.done)
    for cid in state.timeline.order:
        c = state.get(cid)
        if cid not in done and not c.delaying:
            return cid
    return None


def advance(tx: Tx, *, pause_for_delayers: bool = False) -> None:
    """Start the next turn (or round), passing the turns of combatants with nothing to decide, until someone
    has a decision to make or the combat ends. With ``pause_for_delayers`` it stops between turns while
    someone is delaying, so that it may come back in (ACT-71)."""
    for _ in range(10_000):
        s = tx.state
        if check_end(tx):
            return
        if s.timeline.turn is not None:
            return
        if pause_for_delayers and delayers(s):
            return
        pause_for_delayers = False
        nxt = next_in_order(s)
        if nxt is None:
            start_round(tx)
            continue
        c = s.get(nxt)
        if not acts_this_round(s, c):
            tx.emit(TurnSkipped(id=nxt, reason="unaware in the surprise round (CF-09)"))
            continue
        if c.creature.has("dead") or c.fled:
            why = "dead" if c.creature.has("dead") else "out of the fight"
            tx.emit(TurnSkipped(id=nxt, reason=why))
            for at in ("turn_start", "turn_end"):  # its turn still passes: "until its next turn" effects end
                for eid in timing.due(tx.state, at=at, who=nxt):
                    tx.end_effect(eid, f"{nxt}'s turn passed ({why})")
            continue
        start_turn(tx, nxt)
        if check_end(tx):
            return
        if not can_choose(tx.state, tx.state.get(nxt)):
            end_turn(tx, nxt)
            pause_for_delayers = True
            continue
        return


def start_round(tx: Tx) -> None:
    from sftactics.encounter import driving

    driving.round_over(tx)  # unpiloted vehicles still to move this round (VEH-24)
    rnd = tx.state.timeline.round + 1
    tx.emit(RoundStarted(round=rnd))
    driving.new_round(tx)  # last round's movement: dead stop, full speed (VEH-06, VEH-28)
    for cid in delayers(tx.state):
        tx.emit(CombatantChanged(id=cid, changes={"delaying": False}))
        tx.note(f"{cid} delayed through the whole round: it takes its turn at its old place (ACT-71)", "ACT-71")
    for eid in timing.due(tx.state, at="round_start"):
        tx.end_effect(eid, f"round {rnd} began")
    for c in tx.state.combatants.values():
        if c.burn_taken:
            tx.emit(CombatantChanged(id=c.id, changes={"burn_taken": 0}))
        if c.corrode_taken:
            tx.emit(CombatantChanged(id=c.id, changes={"corrode_taken": 0}))


def start_turn(tx: Tx, cid: str) -> None:
    from sftactics.encounter import driving

    driving.before_turn(tx, cid)  # unpiloted vehicles whose count comes first (VEH-23, VEH-24)
    for eid in timing.due(tx.state, at="turn_start", who=cid):
        tx.end_effect(eid, f"{cid}'s turn began")
    c = tx.state.get(cid)
    if c.readied is not None:
        tx.emit(Readied(id=cid, readied=None))
        tx.note(f"{cid}'s readied action lapses: its turn came first (ACT-73)", "ACT-73")
    tx.emit(TurnStarted(id=cid))
    cr = tx.state.creature(cid)
    surprised = [i for i in cr.state.conditions if i.name == "flat-footed" and i.source == SURPRISED]
    if surprised:
        new = cr.with_state(conditions=tuple(i for i in cr.state.conditions if i not in surprised))
        tx.creature(cid, new, [f"{cid} is no longer surprised (CF-11)"])
    _ticks(tx, cid)
    confusion.start_of_turn(tx, cid)


def _ticks(tx: Tx, cid: str) -> None:
    """Bleeding, burning and corroding damage at the start of the turn (CON-02, CON-05)."""
    cr = tx.state.creature(cid)
    for inst, expr in cond.tick_expressions(cr):
        mark = len(tx.dice.history)
        droll = roll_damage(expr, explain("", []), tx.dice, purpose=f"{cid} {inst.name}", options=tx.state.options)
        cr = tx.state.creature(cid)
        outcome = mitigate(droll, cr, options=tx.state.options)
        ctx = injury.InjuryContext(round=tx.state.timeline.round, own_turn=True)
        res = injury.apply_damage(cr, outcome.amount, nonlethal=outcome.nonlethal, ctx=ctx, options=tx.state.options)
        data = damage_data(droll, outcome, res, cr, dice=tx.dice.history[mark:], kind="condition", source=inst.name,
                           options=tx.state.options)  # fmt: skip
        tx.creature(cid, res.creature, damage=data)
        if inst.name in SAVED:
            taken = SAVED[inst.name][0]
            c = tx.state.get(cid)
            tx.emit(CombatantChanged(id=cid, changes={taken: getattr(c, taken) + outcome.amount}))


def end_turn(tx: Tx, cid: str) -> None:
    """End-of-turn upkeep; the caller then advances to the next turn."""
    rnd = tx.state.timeline.round
    cr = tx.state.creature(cid)
    if cr.has("dying"):
        res = injury.dying_end_of_turn(cr, rnd, options=tx.state.options)
        tx.creature(cid, res.creature, injury=injury_data(res))
    for name in SAVED:
        _reflex_ends(tx, cid, name)
    for eid in timing.due(tx.state, at="turn_end", who=cid):
        tx.end_effect(eid, f"{cid}'s turn ended")
    tx.emit(TurnEnded(id=cid))


#: The ticking conditions a Reflex save at the end of the creature's turn ends (CON-05): the counters of the
#: damage taken this round (the DC) and of the consecutive attempts, and what a success says. Corroding works
#: like burning with acid (the corrode critical effect; ``conditions`` "corroding"), so it is saved against the
#: same way, on its own: its own damage sets its DC and its own attempts count.
def _reflex_ends(tx: Tx, cid: str, name: str) -> None:
    """CON-05: a burning (or corroding) creature attempts a Reflex save at the end of its turn (inventory
    default; ``condition_saves.reflex_to_end``); a creature no longer under it has its count of saves reset."""
    saves, success = SAVED[name][1:]
    cr = tx.state.creature(cid)
    c = tx.state.get(cid)
    if not cr.has(name) or cr.has("dead"):
        if getattr(c, saves):
            tx.emit(CombatantChanged(id=cid, changes={saves: 0}))
        return
    reflex_to_end(tx, cid, name, smothering=False, what=f"Reflex save against {name} (CON-05)",
                  purpose=f"{cid} {name} save", note=f"{cid} {success} (CON-05)")  # fmt: skip


# ---------------------------------------------------------------- the end
def able_sides(state: Encounter) -> list[str]:
    """Sides that still have someone able to fight who matters (not insignificant, CF-02)."""
    out = []
    for c in state.combatants.values():
        if not c.out_of_fight and not c.insignificant and c.side not in out:
            out.append(c.side)
    return out


def check_end(tx: Tx) -> bool:
    s = tx.state
    if s.result is not None:
        return True
    if s.timeline.phase == "setup" or len(s.sides()) < 2 or s.options.combat_ends == "gm":
        return False
    sides = able_sides(s)
    if len(sides) <= 1:
        winner = sides[0] if sides else None
        why = (
            f"no one on the other side{'s' if len(s.sides()) > 2 else ''} can fight on"
            if winner
            else "no one can fight on"
        )
        tx.emit(CombatEnded(winner=winner, reason=why + " (CF-02)", round=s.timeline.round))
        return True
    return False
