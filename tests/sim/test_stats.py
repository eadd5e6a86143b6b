"""Results, aggregation and intervals."""

from __future__ import annotations

import json

from sftactics.sim.fight import death_cause
from sftactics.sim.stats import CombatantOutcome, FightResult, Proportion, aggregate, wilson


def _c(cid: str, side: str, *, pc: bool = False, ko: bool = False, died: bool = False, dying: bool = False,
       cause: str | None = None, dealt: int = 0, taken: int = 0, spent: int = 0) -> CombatantOutcome:  # fmt: skip
    return CombatantOutcome(cid, side, pc, ko, died, dying, spent, 0, dealt, taken, cause)


def _fights() -> list[FightResult]:
    return [
        FightResult(2, 12, "party", 4, "r", (_c("A", "party", pc=True, dealt=10), _c("X", "foes", ko=True, died=True))),
        FightResult(
            0,
            10,
            "foes",
            3,
            "r",
            (
                _c("A", "party", pc=True, ko=True, died=True, cause="massive damage: X (claw)", taken=20),
                _c("X", "foes", dealt=20),
            ),
        ),
        FightResult(
            1, 11, None, 50, "limit", (_c("A", "party", pc=True, ko=True, dying=True, spent=2), _c("X", "foes"))
        ),
        FightResult(
            3, 13, "party", 3, "r", (_c("A", "party", pc=True), _c("X", "foes", ko=True, died=True)), conceded="foes"
        ),
    ]


def test_wilson_bounds() -> None:
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi
    assert abs((lo + hi) / 2 - 0.5) < 1e-9
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60  # the textbook 95% interval for 50/100
    assert wilson(0, 0) == (0.0, 1.0)
    assert Proportion(3, 4).p == 0.75


def test_aggregate_counts_in_run_order() -> None:
    s = aggregate(_fights())
    assert s.runs == 4
    party = s.side("party")
    assert party.pcs and party.win.count == 2
    assert s.side("foes").win.count == 1
    assert s.draws.count == 1
    assert party.any_knocked_out.count == 2
    assert party.any_died.count == 1
    assert party.any_died_or_left.count == 2  # the draw left A dying
    assert s.side("foes").conceded.count == 1
    assert (s.ended_by_retreat.count, s.ended_by_retreat.n) == (1, 4)
    assert s.rounds.histogram == {3: 2, 4: 1, 50: 1}
    assert s.rounds.median == 3.5 and s.rounds.max == 50
    a = next(c for c in s.combatants if c.id == "A")
    assert a.knocked_out.count == 2 and a.died.count == 1 and a.dying_at_end.count == 1
    assert a.damage_dealt == 2.5 and a.damage_taken == 5.0 and a.rp_spent == 0.5
    assert s.pc_death_causes == (("massive damage: X (claw)", 1),)


def test_summary_json_shape() -> None:
    d = json.loads(json.dumps(aggregate(_fights()).to_dict()))
    assert set(d) == {"meta", "runs", "sides", "draw", "rounds", "combatants", "pc_death_causes", "timing",
                      "round_limited", "failures", "headline", "ended_by_retreat"}  # fmt: skip
    assert d["failures"] == [] and d["round_limited"]["count"] == 0 and d["ended_by_retreat"]["count"] == 1
    assert set(d["sides"]["party"]) == {"members", "pcs", "win", "any_knocked_out", "any_died",
                                         "any_died_or_left_dying", "conceded"}  # fmt: skip
    assert set(d["sides"]["party"]["win"]) == {"p", "ci95", "count", "n"}
    assert set(d["rounds"]) == {"histogram", "mean", "median", "p90", "max"}
    assert set(d["combatants"]["A"]) == {"side", "pc", "knocked_out", "died", "dying_at_end", "rp_spent", "rp_lost",
                                         "damage_dealt", "damage_taken"}  # fmt: skip
    assert d["pc_death_causes"] == [{"cause": "massive damage: X (claw)", "count": 1}]
    assert "timing" not in aggregate(_fights()).to_dict(timing=False)


def test_death_causes_read_like_a_gm_would_say_them() -> None:
    assert death_cause("massive damage", ("Ogre", "club"), None) == "massive damage: Ogre (club)"
    assert death_cause("Resolve exhausted", None, "Ogre (club)") == "bled out, no Resolve left (dropped by Ogre (club))"
    assert death_cause("Resolve exhausted", ("Ogre", "club"), None).startswith("hit while dying")
    assert death_cause("0 HP", ("Nyx", "knife"), None) == "killed at 0 HP: Nyx (knife)"
    assert death_cause("coup de grace", ("Ogre", "club"), None) == "coup de grace: Ogre (club)"
