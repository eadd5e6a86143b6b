"""Durations (CF-13, CF-14) and turn-anchored effects.

Two clocks run side by side:

* **count-anchored**: an effect lasting N rounds that began at initiative count c in round r ends just before
  count c in round r + N (CF-14, EX-06). It ends before the first turn of that round whose count is c or lower,
  or at the start of a later round if no such turn comes;
* **turn-anchored**: "until the start of your next turn" and "until the end of your next turn" (fight
  defensively, total defense, charge, covering fire, grapples) end at that combatant's turn boundary in the
  round where it is next reached.
"""

from __future__ import annotations

from sftactics.encounter.state import Encounter, Expiry


def current_count(state: Encounter) -> int:
    """The initiative count of the turn in progress (or of the last turn, between turns)."""
    cur = state.current
    if cur is not None and cur.initiative is not None:
        return cur.initiative
    return max((c.initiative or 0) for c in state.combatants.values()) if state.combatants else 0


def for_rounds(state: Encounter, rounds: int) -> Expiry:
    """An N-round duration beginning now (CF-14)."""
    return Expiry(kind="count", round=state.timeline.round + rounds, count=current_count(state))


def _next_turn_round(state: Encounter, anchor: str) -> int:
    """The round in which ``anchor``'s next turn boundary falls: this round if its turn is still to come,
    otherwise the next round."""
    t = state.timeline
    if t.turn == anchor:
        return t.round + 1
    order = list(t.order)
    if t.turn is None or anchor not in order or t.turn not in order:
        return t.round + 1 if state.get(anchor).acted and t.phase != "setup" else t.round
    return t.round if order.index(anchor) > order.index(t.turn) else t.round + 1


def until_start_of_next_turn(state: Encounter, anchor: str) -> Expiry:
    return Expiry(kind="turn_start", anchor=anchor, round=_next_turn_round(state, anchor))


def until_end_of_next_turn(state: Encounter, anchor: str) -> Expiry:
    return Expiry(kind="turn_end", anchor=anchor, round=_next_turn_round(state, anchor))


def due(state: Encounter, *, at: str, who: str | None = None) -> list[int]:
    """Ids of effects that end now. ``at`` is "round_start", "turn_start" or "turn_end"; ``who`` the
    combatant whose turn starts or ends."""
    rnd = state.timeline.round
    out = []
    for e in state.effects:
        x = e.expires
        if x.kind == "count":
            if at == "round_start" and rnd > x.round:
                out.append(e.id)
            elif at == "turn_start" and who is not None:
                count = state.get(who).initiative or 0
                if rnd > x.round or (rnd == x.round and count <= x.count):
                    out.append(e.id)
        elif x.kind == at and x.anchor == who and rnd >= x.round:
            out.append(e.id)
        elif x.kind in ("turn_start", "turn_end") and at == "round_start" and rnd > x.round + 1:
            out.append(e.id)  # the anchor never reached its turn (it left the fight): do not linger
    return out
