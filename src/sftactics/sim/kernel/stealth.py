"""Stealth in the compiled kernel: hidden starts, pairs aware of presence only, and the Search the policies make.

What the engine does in a simulated fight (``Begin`` without rolled awareness, ``encounter.perception``):

* **A hidden start** (``Combatant.hidden``): ``begin`` makes the hidden creature hide from every opponent, then
  looks around: a pair whose target hides is what the observer already knew of it (nothing, at the start), never
  more than its senses could reach. Nothing is rolled at the start (the scenario's ``aware`` flags decide the
  surprise round), and moving does not end the hiding: attacking does (``perception.after_attack``: every pair
  of the attacker is looked at again when the command ends). The kernel gives these pairs to
  ``kernel.setup``'s hiding pairs (``aw0``, ``hide0``), which already play an unnoticed target until it
  attacks.
* **Aware of presence** (SEN-05): a pair the scenario sets there, or a Search that notices a foe only by
  hearing, smell or touch. The observer may not attack such a foe or aim at it (the policies target only
  located foes), and it does not see it (the foe is unseen, MOD-20).
* **The Search** (``sim.search.Seeker.search_check``, ``actions.do_search``, ``perception.search``): when nobody
  on its side has located an able foe and the actor is aware of a foe's presence only, with senses that could
  pinpoint it, the policy's next move action is a Search instead of a step. It checks every able opponent the
  actor has not yet perceived as well as its senses allow, in the encounter's order: the opponent's Stealth d20,
  then the actor's Perception d20 (``senses.perception_vs_stealth``), with +40 to the Stealth of a foe no
  precise sense reaches (SEN-09) unless a blindsense reaches it (SEN-11); a tie goes to the higher bonus, then
  to roll-offs (the hider's d20 first). Noticed: an unaware observer gets what noticing gives (observing by a
  precise sense, its location by a blindsense, its presence by ordinary senses); an observer already aware of
  it gets the best its senses allow. Not noticed: at most aware of its presence. When any pair changed, every
  pair is looked at again (``perception._EVERYONE``).

The Search itself is compiled in :mod:`sftactics.sim.kernel.searches` (this module builds the model's fields and
says what stays with the engine). Perception and Stealth bonuses are ``stats.skill_bonus``'s (opposed checks),
Perception with and without deafened (CON-11: -4 to opposed Perception checks); a fight where another condition
the kernel plays would change them is the engine's (:func:`refusals`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sftactics.encounter import perception
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid.space import Size, footprint_side
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats
from sftactics.sf1e.senses import UNSEEN_STEALTH_STATIONARY, Awareness
from sftactics.sf1e.state import ConditionInstance

PRESENCE = int(Awareness.AWARE_OF_PRESENCE)
#: The log row of one Perception-against-Stealth check: (observer, target, Stealth total, Perception total,
#: noticed, the state after).
LOG_SEARCH = 21
UNSEEN = UNSEEN_STEALTH_STATIONARY
#: Conditions the kernel plays whose effect on Perception and Stealth it does not carry (checked: none of them
#: changes either today; a change sends the fight to the engine).
_PLAYED = ("prone", "staggered", "flat-footed", "burning", "bleeding", "corroding")


# ---------------------------------------------------------------- Python side
def hidden_pairs(enc: Encounter) -> dict[str, int]:
    """``flow.begin`` for the hidden combatants: each opponent's pair with a hidden target, looked at with the
    target hiding (what the observer knew before: nothing)."""
    hide = frozenset(perception.key(o.id, t.id) for t in enc.combatants.values() if t.hidden
                     for o in enc.enemies_of(t.id))  # fmt: skip
    if not hide or not enc.track_awareness:
        return {}
    looked = perception.compute(enc.model_copy(update={"hiding": enc.hiding | hide}))
    return {k: looked[k] for k in sorted(hide)}


def needs_stealth(enc: Encounter) -> bool:
    """Someone starts hidden, or the scenario sets a pair at aware of presence: Searches may follow."""
    if not enc.track_awareness:
        return False
    if any(c.hidden for c in enc.combatants.values()):
        return True
    s = enc.setup
    return bool(s is not None and any(v == int(Awareness.AWARE_OF_PRESENCE) for v in s.awareness.values()))


def _with(cr: Any, name: str) -> Any:
    value = "1d4" if cond.get(name).tick else None  # (bleeding, burning, corroding: any amount)
    return cond.add_condition(cr, ConditionInstance(name=name, value=value))


def _perception(cr: Any) -> int:
    return int(stats.skill_bonus(cr, "perception", ability="wis", tags=frozenset({"opposed"})).total)


def _stealth(cr: Any) -> int:
    return int(stats.skill_bonus(cr, "stealth", ability="dex", tags=frozenset({"opposed"})).total)


def refusals(enc: Encounter) -> list[str]:
    """What of hidden starts and Searches the kernel leaves to the engine (empty when it plays them)."""
    if not needs_stealth(enc):
        return []
    out: list[str] = []
    if any(footprint_side(Size(c.creature.stat.size)) > 1 for c in enc.combatants.values()):
        out.append("Stealth and Searches with a creature bigger than a square (between spaces: the engine's)")
    if enc.setup is not None and enc.setup.grapples:
        out.append("Stealth and Searches with a grapple under way (grappled's -2 to skill checks: the engine's)")
    for c in enc.combatants.values():
        cr = c.creature
        if cr.stat.incorporeal:
            out.append(f"{c.id}: Stealth and Searches with an incorporeal creature (SPA-16: the engine's)")
        p, s = _perception(cr), _stealth(cr)
        changed = [n for n in _PLAYED if _perception(_with(cr, n)) != p or _stealth(_with(cr, n)) != s]
        if _stealth(_with(cr, "deafened")) != s:
            changed.append("deafened")
        if changed:
            out.append(f"{c.id}: Perception or Stealth changed by {', '.join(changed)} (the engine's)")
    return out


def fields(enc: Encounter, cs: list[Combatant]) -> dict[str, Any]:
    """The model's Stealth fields: ``sk_on`` (Searches may happen), ``sk_perc`` [N, 2] (Perception, then
    deafened), ``sk_stl`` [N] (Stealth)."""
    if not needs_stealth(enc):
        return {}
    n = len(cs)
    perc = np.zeros((n, 2), dtype=np.int32)
    stl = np.zeros(n, dtype=np.int32)
    for i, c in enumerate(cs):
        perc[i, 0] = _perception(c.creature)
        perc[i, 1] = _perception(_with(c.creature, "deafened"))
        stl[i] = _stealth(c.creature)
    return {"sk_on": True, "sk_perc": perc, "sk_stl": stl}


__all__ = ["LOG_SEARCH", "PRESENCE", "UNSEEN", "fields", "hidden_pairs", "needs_stealth", "refusals"]
