"""The tactical kernel plays creatures of two squares or more that fly, swim, climb or burrow as the engine does
(issue 22).

A big flier's moves are planned over its search with headings (``sim.kernel.bigtacmodes``: one move and a double
move as ``reachable`` finds them, the first move of a double move, turns of 5 ft per 45 degrees); a big swimmer or
climber moves as a walker at its swim or climb speed, a big burrower under pools and crates, and a burrower or
climber never charges (it cannot run). Same dice, same fight with the tactical policy on both sides, and with a
cautious side: the party against the barathu and a Large flier over the fen of ``test_kernel_bigmodes``, against
a Huge burrower, a Huge swimmer and a Large incorporeal walker, against a Large climber and a hound, and the
shipped melee brawl (its barathu) without trick attack and get 'em. Around the fen's pools a big mover squeezes,
so its path among equally cheap end states (and the diagonals its second move inherits) is the one the engine's
search settles first (``kernel.bigpath``). A big flier going looking for its foes measures its way with its turns
(``encounter.seek.distance_field``).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given

from sftactics.encounter.movement import mover_for
from sftactics.encounter.seek import distance_field
from sftactics.encounter.state import Encounter
from sftactics.sim.kernel import bigsight
from sftactics.sim.kernel.model import compile_encounter
from sftactics.sim.runner import SimJob
from tests.sim.test_kernel import FIGHTS, _build, assert_same_fight, scripts
from tests.sim.test_kernel_bigmodes import FEN, WYVERN, _big, aerie, brawl, deeps
from tests.sim.test_kernel_bigwalls import GATE
from tests.sim.test_kernel_specials import assert_same

SPIDER = _big("Test Crag Spider", "large", {"land": 0, "climb": 30}, 10)


@cache
def crags() -> Encounter:
    """The fen of ``test_kernel_bigmodes`` with a Large climber of 30 ft (no land speed) and a hobbe hound
    against the party."""
    return _build(
        "crags",
        FEN,
        [
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-4", "at": [2, 2]},
            {"id": "Nyx", "side": "party", "statblock": "pregen-operative-4", "at": [1, 5]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-4", "at": [2, 7]},
            {"id": "Spider", "side": "crag", "statblock": SPIDER, "at": [17, 2]},
            {"id": "Hound", "side": "crag", "statblock": "hobbe-hound", "at": [18, 6]},
        ],
    )


@cache
def gate_wyvern() -> Encounter:
    """The walled, dim gate of ``test_kernel_bigwalls`` with a Large flier and a hound in the east hall: the
    sides find each other through the doorway, the flier as a 2 x 2 space with its turns."""
    return _build(
        "gate-wyvern",
        GATE,
        [
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-4", "at": [2, 1]},
            {"id": "Nyx", "side": "party", "statblock": "pregen-operative-4", "at": [2, 6]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-4", "at": [1, 4]},
            {"id": "Wyvern", "side": "sky", "statblock": WYVERN, "at": [14, 1]},
            {"id": "Hound", "side": "sky", "statblock": "hobbe-hound", "at": [16, 6]},
        ],
    )


def test_the_tactical_kernel_takes_big_fliers_swimmers_and_burrowers() -> None:
    for enc in (aerie(), brawl()):
        for morale in ("by-the-book", "cautious"):
            job = SimJob(enc, {"*": "tactical"}, engine="compiled", morale={"*": morale})
            assert job.kernel_refusals() == []
            assert job.compiled()


@pytest.mark.rule("MOV-32", "MOV-04", "MOV-19")
def test_a_big_fliers_search_field_is_the_engines() -> None:
    """``encounter.seek.distance_field`` for a Large flier, turns included, from three anchors."""
    enc = gate_wyvern()
    m = compile_encounter(enc).model
    grid = enc.grid
    assert grid is not None
    me = list(enc.combatants).index("Wyvern")
    w = grid.width
    out = np.zeros(w * grid.height, dtype=np.int32)
    for start in ((14, 1), (2, 1), (9, 3)):
        bigsight.seek_field(m, start[1] * w + start[0], 500_000, out, me)
        want = distance_field(enc, mover_for(enc.combatants["Wyvern"]), start)
        got = {(q % w, q // w): int(v) for q, v in enumerate(out.tolist()) if v >= 0}
        assert got == want


@pytest.mark.rule("MOV-32", "MOV-04", "VIS-03", "SEN-06", "AOO-06")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_large_flier_behind_a_wall(values: list[int]) -> None:
    """The simple policy (the tactical one with a big creature on a map with walls is the engine's for now): the
    flier goes looking for the party through the doorway."""
    assert_same_fight(gate_wyvern(), values)


@pytest.mark.rule("MOV-32", "MOV-04", "MOV-19", "AOO-03", "AOO-06", "ACT-50", "ACT-33", "MOD-17")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_large_fliers(values: list[int]) -> None:
    """The barathu (fly 30, 10-ft reach) and a Large flier of 50 ft choose their spaces, double moves and charges
    with their turns; the party chooses against them."""
    assert_same(aerie(), values, "tactical")


def test_the_tactical_kernel_takes_big_swimmers_climbers_and_burrowers() -> None:
    """The deeps (a Huge burrower, a Huge swimmer) and the crags (a Large climber) go to the kernel with the
    tactical policy too (the fight once found parting ways was the model's leftover-variable bug: an arc's
    damage read the last combatant's incorporeality)."""
    for enc in (deeps(), crags()):
        for morale in ("by-the-book", "cautious"):
            job = SimJob(enc, {"*": "tactical"}, engine="compiled", morale={"*": morale})
            assert job.kernel_refusals() == []
            assert job.compiled()


@pytest.mark.rule("MOV-29", "MOV-34", "SPA-14", "MOV-04", "AOO-06", "ACT-50")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_huge_burrower_and_swimmer(values: list[int]) -> None:
    """The burrower goes under pools and crates and never charges (it cannot run); the swimmer walks at its swim
    speed; the Large incorporeal walker is not hampered by the reeds."""
    assert_same(deeps(), values, "tactical")


@pytest.mark.rule("MOV-30", "MOV-04", "AOO-06", "ACT-50")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_large_climber(values: list[int]) -> None:
    """A Large climber (no land speed) moves at its climb speed, never charges nor runs."""
    assert_same(crags(), values, "tactical")


@pytest.mark.rule("CF-02", "ACT-55", "MOV-29", "MOV-30")
@FIGHTS
@given(values=scripts())
def test_cautious_same_dice_same_fight_with_big_swimmers_climbers_and_burrowers(values: list[int]) -> None:
    """A cautious side against the deeps and the crags: withdrawals by a burrower's, swimmer's and climber's
    speeds."""
    assert_same(deeps(), values, "tactical", "cautious")
    assert_same(crags(), values, "tactical", "cautious")


@pytest.mark.rule("MOV-32", "AOO-03", "MOD-17", "ACT-50")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_melee_brawl(values: list[int]) -> None:
    assert_same(brawl(), values, "tactical")


@pytest.mark.rule("CF-02", "ACT-55", "MOV-32")
@FIGHTS
@given(values=scripts())
def test_cautious_same_dice_same_fight_with_big_fliers(values: list[int]) -> None:
    """A cautious side withdraws from big fliers, and they from it (a flier's withdrawal with its turns)."""
    assert_same(aerie(), values, "tactical", "cautious")
