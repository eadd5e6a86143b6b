"""Grenades of every kind for the compiled kernel: the save each allows and what a success does, and the
conditions its explosion gives (the explode property's riders), as arrays.

``encounter.effects.do_throw_grenade`` and ``area_effect`` are the reference: one save per creature inside of
the grenade's kind (cover adds to Reflex saves only), ``half`` (and ``none`` with a save, as the engine reads it)
halves the damage on a success, ``partial`` halves it and keeps the riders off, ``negates`` keeps everything
off; the riders reach every creature that fails (all of them without a save), each duration rolled for each
creature in the riders' order (minutes are 10 rounds). The kernel plays the riders burning (its amount, no set
duration: it burns until a Reflex save puts it out, CON-05), staggered for a number of rounds (CON-33) and
deafened (recorded: the kernel's fights are ones where hearing changes nothing); a grenade with another rider
(blinded...) is left to the engine.

The tactical policy values the riders as ``sim.choices.rider_value`` does; the numbers it needs per rider (the
condition's weight and its rounds, or burning's damage over its rounds) are computed here by the same helpers.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from sftactics.dice.expr import parse
from sftactics.encounter.state import Combatant
from sftactics.sf1e import conditions as cond
from sftactics.sf1e.statblock import AreaRider, Weapon
from sftactics.sim import choices

#: Riders per grenade the kernel keeps.
RIDERS = 4
#: Rider kinds (``g_rider[..., R_KIND]``).
RIDER_NONE, RIDER_BURNING, RIDER_STAGGERED, RIDER_DEAFENED = 0, 1, 2, 3
_KINDS = {"burning": RIDER_BURNING, "staggered": RIDER_STAGGERED, "deafened": RIDER_DEAFENED}
#: Columns of ``g_rider``: kind; duration dice (count, sides, flat) and its multiplier (10 for minutes, 0 for no
#: duration); burning's amount (count, sides, flat) and its damage profile.
R_KIND, R_DN, R_DS, R_DFLAT, R_MULT, R_BN, R_BS, R_BFLAT, R_PROF = range(9)
R_COLUMNS = 9
#: What a successful save does (``g_mode[..., 1]``).
ON_HALF, ON_PARTIAL, ON_NEGATES = 0, 1, 2
_ON_SAVE = {"half": ON_HALF, "none": ON_HALF, "partial": ON_PARTIAL, "negates": ON_NEGATES}
_SAVES = {"fort": 0, "ref": 1, "will": 2}


def _dice(text: str) -> tuple[int, int, int] | None:
    """(count, sides, flat) of a one-die-kind expression such as ``1d4`` or ``1``; None otherwise."""
    expr = parse(text)
    if len(expr.parts) != 1:
        return None
    dice = [t for t in expr.parts[0].terms if not t.is_flat]
    if len(dice) > 1 or any(t.sign < 0 for t in dice):
        return None
    flat = sum(t.count * t.sign for t in expr.parts[0].terms if t.is_flat)
    return (dice[0].count, dice[0].sides, flat) if dice else (0, 1, flat)


def _duration(r: AreaRider) -> tuple[int, int, int, int] | None:
    text = r.rounds if r.rounds is not None else r.minutes
    if text is None:
        return 0, 1, 0, 0
    found = _dice(text)
    if found is None:
        return None
    return (*found, 1 if r.rounds is not None else 10)


def unsupported_grenade(w: Weapon) -> str:
    """Why the kernel does not play this grenade's explosion ('' when it does)."""
    area = w.area
    assert area is not None
    if len(area.riders) > RIDERS:
        return f"a grenade with more than {RIDERS} conditions"
    for r in area.riders:
        if r.condition not in _KINDS:
            return f"a grenade whose explosion gives {r.condition}"
        dur = _duration(r)
        if dur is None:
            return f"a grenade whose {r.condition} lasts {r.rounds or r.minutes}"
        if r.condition == "burning":
            if dur[3]:
                return "a grenade whose burning lasts a set time"
            amount = _dice(r.value or cond.BURNING_DEFAULT)
            if amount is None or amount[2] < 0:
                return f"a grenade that burns {r.value}"
        elif r.condition == "staggered" and not dur[3]:
            return "a grenade that staggers until removed"
    return ""


def grenade_fields(
    cs: list[Combatant], wmax: int, profile: object
) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.float64]]:
    """(g_mode, g_rider, g_rval) for every grenade slot: ``g_mode[i, k]`` = (save index or -1, what a success
    does); ``g_rider[i, k, r]`` the rider's columns (``R_*``); ``g_rval[i, k, r]`` the tactical policy's numbers
    (a condition's weight and its rounds, at most three; for burning 0 and its damage over those rounds).
    ``profile(key, most)`` is the model's damage-profile registry (burning's fire through the target's defenses)."""
    n = len(cs)
    mode = np.full((n, wmax, 2), -1, dtype=np.int32)
    rider = np.zeros((n, wmax, RIDERS, R_COLUMNS), dtype=np.int32)
    rval = np.zeros((n, wmax, RIDERS, 2), dtype=np.float64)
    for i, c in enumerate(cs):
        for k, w in enumerate(c.creature.stat.weapons):
            if not w.is_grenade or w.area is None:
                continue
            a = w.area
            mode[i, k, 0] = _SAVES[a.save] if a.save else -1
            mode[i, k, 1] = _ON_SAVE[a.on_save]
            for j, r in enumerate(a.riders):
                dur = _duration(r)
                assert dur is not None
                rider[i, k, j, R_KIND] = _KINDS[r.condition]
                rider[i, k, j, R_DN : R_MULT + 1] = dur
                # choices.rider_value's numbers, by its own helpers
                if r.rounds is not None:
                    rounds = choices._mean(r.rounds)
                elif r.minutes is not None:
                    rounds = 10 * choices._mean(r.minutes)
                else:
                    rounds = choices._MAX_ROUNDS
                if r.condition == "burning":
                    text = r.value or cond.BURNING_DEFAULT
                    amount = _dice(text)
                    assert amount is not None
                    rider[i, k, j, R_BN : R_BFLAT + 1] = amount
                    rider[i, k, j, R_PROF] = profile(  # type: ignore[operator]
                        ("tick", frozenset({"fire"}), False, frozenset(), frozenset(), False, False),
                        amount[0] * max(amount[1], 1) + amount[2],
                    )
                    rval[i, k, j, 1] = choices._mean(r.value or "1d6") * min(rounds, choices._MAX_ROUNDS)
                else:
                    rval[i, k, j, 0] = choices.CONDITION_WEIGHT.get(r.condition, 0.0)
                    rval[i, k, j, 1] = min(rounds, choices._MAX_ROUNDS)
    return mode, rider, rval
