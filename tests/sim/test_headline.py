"""The plain-words headline of a simulation: total party kill, PC deaths and drops, length, the worst foe."""

from __future__ import annotations

import io
import math

from rich.console import Console

from sftactics.sim.cli import print_summary
from sftactics.sim.stats import CombatantOutcome, FightResult, aggregate, mean_estimate, share_estimate


def _c(
    cid: str, side: str, *, pc: bool = False, ko: bool = False, died: bool = False, dying: bool = False, dealt: int = 0
) -> CombatantOutcome:
    return CombatantOutcome(cid, side, pc, ko, died, dying, 0, 0, dealt, 0)


FIGHTS = [
    # both PCs dead: a total party kill
    FightResult(
        0,
        1,
        "foes",
        3,
        "r",
        (
            _c("A", "party", pc=True, ko=True, died=True),
            _c("B", "party", pc=True, ko=True, died=True),
            _c("X", "foes", dealt=30),
            _c("Y", "foes", dealt=10),
        ),
    ),
    # one dead, one left dying after the party lost: nobody saves it, also a total party kill
    FightResult(
        1,
        2,
        "foes",
        5,
        "r",
        (
            _c("A", "party", pc=True, ko=True, died=True),
            _c("B", "party", pc=True, ko=True, dying=True),
            _c("X", "foes", dealt=20),
            _c("Y", "foes", dealt=20),
        ),
    ),
    # the party wins with B dying: not a total party kill, nobody died, someone dropped
    FightResult(
        2,
        3,
        "party",
        4,
        "r",
        (
            _c("A", "party", pc=True),
            _c("B", "party", pc=True, ko=True, dying=True),
            _c("X", "foes", dealt=10),
            _c("Y", "foes", dealt=0),
        ),
    ),
    # a clean win
    FightResult(
        3,
        4,
        "party",
        2,
        "r",
        (_c("A", "party", pc=True), _c("B", "party", pc=True), _c("X", "foes", dealt=0), _c("Y", "foes", dealt=10)),
    ),
]


def test_the_headline_counts_what_a_gm_fears() -> None:
    h = aggregate(FIGHTS).headline
    assert h is not None and h.party == "party"
    assert (h.tpk.count, h.pc_death.count, h.pc_drop.count, h.tpk.n) == (2, 2, 3, 4)
    assert h.rounds.value == 3.5
    assert h.danger == "X" and h.danger_share.value == 60 / 100  # X dealt 60 of the foes' 100
    out = io.StringIO()
    print_summary(aggregate(FIGHTS), Console(file=out, width=200))
    text = out.getvalue()
    assert text.index("What a GM fears") < text.index("Sides")
    assert "total party kill:       50.0% [15-85]" in text
    assert "most dangerous foe:     X, 60% of its side's damage" in text


def test_no_player_characters_no_headline() -> None:
    fights = [FightResult(0, 1, "b", 1, "r", (_c("A", "a"), _c("B", "b")))]
    assert aggregate(fights).headline is None
    assert aggregate(fights).to_dict()["headline"] is None


def test_intervals() -> None:
    e = mean_estimate([2, 4, 4, 6])
    half = 1.959963984540054 * math.sqrt(8 / 3) / 2
    assert e.value == 4 and math.isclose(e.high - e.value, half)
    s = share_estimate([1, 1, 1, 1], [2, 2, 2, 2])
    assert (s.value, s.low, s.high) == (0.5, 0.5, 0.5)  # the same share every fight: no spread
