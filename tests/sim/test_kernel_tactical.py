"""The tactical policy in the compiled kernel against the Python policy it replays.

``sftactics.sim.kernel.tactics`` takes the turns of :class:`~sftactics.sim.policies.TacticalPolicy` by the
same numbers. Driven by the same dice script, the engine's fight with the Python policy and the kernel's fight
must roll the same dice in the same order (every decision shows in the dice: who attacks whom with what, who
provokes an attack of opportunity, who throws where, who gives first aid) and end the same way. These tests
do that on every kind of room the kernel plays, with fixed scripts that are known to bring up the rare
actions (charge, first aid, guarded step, withdrawal, a side that concedes), then check the damage tables the
kernel decides by and the runner's use of the kernel for the tactical policy.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis.control import currently_in_test_context

from sftactics.encounter.state import Encounter
from sftactics.grid.geometry import check_range
from sftactics.sf1e import stats
from sftactics.sim import odds
from sftactics.sim.kernel.bigsqueeze import PENALTY as SQUEEZE_PENALTY
from sftactics.sim.kernel.model import compile_encounter
from sftactics.sim.kernel.run import kernel_fight
from sftactics.sim.kernel.tables import NEED_HI, NEED_LO
from sftactics.sim.policies import TacticalPolicy
from sftactics.sim.runner import SimJob, simulate, simulate_results

from .test_kernel import (
    BRUTE,
    FIGHTS,
    MAX_ROUNDS,
    _build,
    assert_same_fight,
    assert_same_run,
    benchmark,
    crossfire,
    duel,
    embers,
    engine_fight,
    scenario,
    scripts,
    scrum,
)

TACTICAL = {"*": "tactical"}


# ---------------------------------------------------------------- two more rooms
@cache
def gallop() -> Encounter:
    """A long empty hall: the hound and the brute start out of one move's reach, in a straight line from the
    party, so they charge (ACT-50); the party steps back (guarded step, withdrawal) and the beasts give up."""
    hall = "#" * 32 + "\n" + ("#" + "." * 30 + "#\n") * 5 + "#" * 32 + "\n"
    return _build(
        "gallop",
        hall,
        [
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-4", "at": [3, 3]},
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-2", "at": [3, 1]},
            {"id": "Hound", "side": "beasts", "statblock": "hobbe-hound", "at": [16, 3]},
            {"id": "Brute", "side": "beasts", "statblock": BRUTE, "at": [18, 1]},
        ],
    )


@cache
def triage() -> Encounter:
    """Two hurt characters without the Resolve to stabilize and a mystic with Medicine: first aid (INJ-09). The
    soldier without its fighting style (its initiative and speed), as the scripts below were chosen for."""
    room = "#" * 14 + "\n" + ("#" + "." * 12 + "#\n") * 5 + "#" * 14 + "\n"
    return _without_passives(_build(
        "triage",
        room,
        [
            {"id": "Sorin", "side": "crew", "statblock": "pregen-mystic-2", "at": [1, 3]},
            {"id": "Krask", "side": "crew", "statblock": "pregen-soldier-2", "at": [4, 2],
             "state": {"rp": 0, "sp": 0, "hp": 6}},
            {"id": "Vela", "side": "crew", "statblock": "pregen-envoy-2", "at": [4, 4],
             "state": {"rp": 1, "sp": 0, "hp": 5}},
            {"id": "Brute", "side": "gang", "statblock": BRUTE, "at": [8, 2]},
            {"id": "Ksarik", "side": "gang", "statblock": "ksarik", "at": [9, 4]},
        ],
    ))  # fmt: skip


def _without_passives(enc: Encounter) -> Encounter:
    out = {}
    for cid, c in enc.combatants.items():
        stat = c.creature.stat
        stat = stat.model_copy(update={"specials": tuple(a for a in stat.specials if a.target != "passive")})
        out[cid] = c.model_copy(update={"creature": c.creature.model_copy(update={"stat": stat})})
    return enc.model_copy(update={"combatants": out})


# ---------------------------------------------------------------- the engine with a script, the tactical policy
def assert_same_tactical_fight(enc: Encounter, values: list[int], max_rounds: int = MAX_ROUNDS) -> set[str]:
    """The two fights are the same; returns the kinds of command the engine's fight used (and ``concede``)."""
    engine = assert_same_fight(enc, values, max_rounds, "tactical")
    kinds = {c.type for c in engine.fight.commands}
    if engine.result.conceded:
        kinds.add("concede")
    if currently_in_test_context():
        for kind in sorted(kinds):
            event(f"the fight used {kind}")
    return kinds


def fixed_script(i: int, length: int = 4000) -> list[int]:
    """A reproducible script (the ones the rare-action tests below were chosen from)."""
    rng = random.Random(i)
    low = [0.0, 0.3, 0.7, 1.0][i % 4]
    return [rng.randint(1, 4) if rng.random() < low else rng.randint(1, 20) for _ in range(length)]


# ---------------------------------------------------------------- same dice, same fight
@pytest.mark.rule("ACT-53", "ACT-55", "AOO-06", "CF-02", "INJ-11")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_benchmark(values: list[int]) -> None:
    assert_same_tactical_fight(benchmark(), values)


@pytest.mark.rule("ATK-12", "ATK-13", "EFF-02", "ACT-53", "INJ-12")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_grenade_alley(values: list[int]) -> None:
    assert_same_tactical_fight(scenario("grenade-alley"), values)


@pytest.mark.rule("MOD-07", "MOD-10", "MOD-11", "ATK-10", "ACT-33")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_firefight_cover(values: list[int]) -> None:
    assert_same_tactical_fight(scenario("firefight-cover"), values)


@pytest.mark.rule("ATK-15", "CON-02", "CON-05", "ACT-53")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_embers_and_duel(values: list[int]) -> None:
    assert_same_tactical_fight(embers(), values)
    assert_same_tactical_fight(duel(), values)


@pytest.mark.rule("AOO-06", "AOO-12", "MOD-17", "ACT-36", "ACT-33", "ACT-55")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_crossfire_and_scrum(values: list[int]) -> None:
    assert_same_tactical_fight(crossfire(), values)
    assert_same_tactical_fight(scrum(), values)


@pytest.mark.rule("ACT-50", "ACT-33", "ACT-55", "INJ-09")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_charges_and_first_aid(values: list[int]) -> None:
    assert_same_tactical_fight(gallop(), values)
    assert_same_tactical_fight(triage(), values)


@pytest.mark.rule("ATK-05", "ATK-14", "CF-02")
@pytest.mark.parametrize("room", ["grenade-alley", "gallop"])
def test_seeded_kernel_fights_replayed_by_the_engine(room: str) -> None:
    """Realistic dice: a seeded kernel fight's own dice, given to the engine as its script, make the engine
    play the same fight to its end (a script's values are uniform for one die size only)."""
    enc = gallop() if room == "gallop" else scenario(room)
    for seed in range(6):
        kernel = kernel_fight(enc, seed=seed, max_rounds=50, policies=TACTICAL)
        values = [v for _, v in kernel.dice]
        engine = engine_fight(enc, [*values, 1], 50, {side: TacticalPolicy() for side in enc.sides()})
        assert_same_run(engine, kernel)


# ---------------------------------------------------------------- the rare actions, by fixed scripts
@pytest.mark.rule("ACT-50", "MOV-13")
def test_a_charge_as_the_engine_makes_it() -> None:
    for i in (1, 2):
        assert "charge" in assert_same_tactical_fight(gallop(), fixed_script(i))


@pytest.mark.rule("INJ-09")
def test_first_aid_as_the_engine_gives_it() -> None:
    for i in (0, 1):
        assert "first_aid" in assert_same_tactical_fight(triage(), fixed_script(i))


@pytest.mark.rule("ACT-33", "ACT-55", "CF-02")
def test_guarded_steps_withdrawals_and_a_side_that_gives_up() -> None:
    kinds = assert_same_tactical_fight(gallop(), fixed_script(1))
    assert {"guarded_step", "withdraw", "concede"} <= kinds


def test_the_kernel_logs_the_plans_it_weighed() -> None:
    fight = kernel_fight(gallop(), seed=3, policies=TACTICAL)
    plans = fight.of_kind("plan")
    assert plans, "a tactical fight logs the plans of every turn"
    assert {row[2] for row in plans} >= {1, 4}  # attacks and moves were weighed
    assert kernel_fight(gallop(), seed=3, policies={"*": "simple"}).of_kind("plan") == []


# ---------------------------------------------------------------- the numbers it decides by
def test_damage_tables_are_the_odds_modules() -> None:
    """Every distribution the kernel keeps is ``odds.damage_table`` for that attacker, weapon, target and roll
    needed, value for value and probability for probability."""
    enc = benchmark()
    comp = compile_encounter(enc, tactical=True)
    m = comp.model
    cs = list(enc.combatants.values())
    checked = 0
    for i, a in enumerate(cs):
        for k, w in enumerate(a.creature.stat.weapons):
            if w.is_grenade:
                continue
            bonus = stats.damage_bonus(a.creature, w, options=enc.options).total
            for j, t in enumerate(cs):
                if t.side == a.side:
                    assert m.t_off[i, k, j, 0, 0, 0] == -1
                    continue
                for need in range(NEED_LO, NEED_HI + 1):
                    for attacks in (1, 2):
                        at = (i, k, j, need - NEED_LO, attacks - 1, 0)  # (no concealment in the benchmark)
                        ref = odds.damage_table(
                            7, 7 + need, w.damage_expr, bonus, crit_immune=odds.crit_immune(t.creature),
                            reduction=odds.reduction(t.creature, w), attacks=attacks,
                        )  # fmt: skip
                        off, ln = int(m.t_off[at]), int(m.t_len[at])
                        assert tuple(int(v) for v in m.t_val[off : off + ln]) == ref.values
                        assert tuple(float(p) for p in m.t_prob[off : off + ln]) == ref.probs
                        assert (float(m.t_mean[at]), float(m.t_hit[at])) == (ref.mean, ref.hit)
                        checked += 1
    assert checked > 500


@pytest.mark.rule("ATK-12", "ATK-10", "EFF-02", "MOV-19")
def test_grenade_chances_are_the_policys() -> None:
    """The chance a grenade reaches its point at each distance and each foe's chance to save against it are
    what ``TacticalPolicy.grenade_from`` computes: the attack bonus with the range penalty against AC 5, the
    Reflex save against the grenade's DC; and with squeezing's -2 to the thrower's attack roll or the foe's Reflex
    save (MOV-19)."""
    enc = scenario("grenade-alley")
    m = compile_encounter(enc, tactical=True).model
    cs = list(enc.combatants.values())
    checked = 0
    for i, a in enumerate(cs):
        dex = stats.ability_mod(a.creature, "dex").total
        for k, w in enumerate(a.creature.stat.weapons):
            if not w.is_grenade or w.area is None:
                continue
            for d in range(0, 8):
                rc = check_range(5 * d, max(w.range_ft, 5), thrown=True, max_increments=w.max_increments)
                bonus = stats.attack_bonus(a.creature, w, extra=list(rc.terms), options=enc.options).total
                assert m.g_land[i, k, d, 0] == odds.chance(bonus, 5)
                assert m.g_land[i, k, d, 1] == odds.chance(bonus - SQUEEZE_PENALTY, 5)  # a squeezing thrower
            dc = w.area.dc if w.area.dc is not None else 10 + w.item_level // 2 + dex
            for j, t in enumerate(cs):
                if t.side != a.side:
                    save = stats.save_bonus(t.creature, w.area.save or "ref", options=enc.options).total
                    assert m.g_half[i, k, j, 0] == (odds.chance(save, dc) if w.area.save else 0.0)
                    squeezed = save - (SQUEEZE_PENALTY if w.area.save == "ref" else 0)  # -2 to Reflex saves
                    assert m.g_half[i, k, j, 1] == (odds.chance(squeezed, dc) if w.area.save else 0.0)
                    checked += 1
    assert checked >= 8


@pytest.mark.rule("ATK-05", "ATK-14")
def test_a_roll_needed_beyond_the_die_changes_nothing() -> None:
    """The tables stop at the rolls that matter: below 2 every roll but a natural 1 hits, above 21 only a
    natural 20 hits and it is no critical hit, as ``attack_odds`` says."""
    enc = benchmark()
    w = enc.get("Krask").creature.stat.weapons[1]
    for lo in (-10, 0, 1, 2):
        assert odds.damage_table(0, lo, w.damage_expr, 3) == odds.damage_table(0, NEED_LO, w.damage_expr, 3)
    for hi in (21, 25, 40):
        assert odds.damage_table(0, hi, w.damage_expr, 3) == odds.damage_table(0, NEED_HI, w.damage_expr, 3)
    assert odds.damage_table(0, 20, w.damage_expr, 3) != odds.damage_table(0, 21, w.damage_expr, 3)


# ---------------------------------------------------------------- the runner
def test_auto_plays_the_tactical_policy_with_the_kernel() -> None:
    job = SimJob(gallop(), TACTICAL, seed=5, engine="auto")
    assert job.compiled() and job.kernel_refusals() == []
    summary = simulate(job, 40, workers=1)
    assert summary.meta["engine"] == "compiled"
    mixed = SimJob(gallop(), {"party": "tactical", "beasts": "simple"}, seed=5, engine="compiled")
    assert simulate(mixed, 10, workers=1).meta["engine"] == "compiled"


def test_kernel_tactical_results_do_not_depend_on_the_workers() -> None:
    job = SimJob(gallop(), TACTICAL, seed=11, engine="compiled")
    one, _, _ = simulate_results(job, 60, workers=1)
    two, _, _ = simulate_results(job, 60, workers=2, batch_size=7)
    assert [r.to_dict() for r in one] == [r.to_dict() for r in two]
    conceded = [r for r in one if r.conceded is not None]
    assert conceded, "in the hall the beasts give up in some fights"
    for r in conceded:
        assert r.reason == f"the {r.conceded} side retreats (CF-02)"
        assert r.winner is not None and r.winner != r.conceded


def test_kernel_and_engine_agree_on_seeded_fights() -> None:
    """Seeded (not scripted) fights: the engine's dice are Python's generator and the kernel's numpy's, so the
    fights differ one by one; their win rates and lengths agree (a coarse net over the exact tests above)."""
    engine = SimJob(gallop(), TACTICAL, seed=3, engine="full")
    kernel = SimJob(gallop(), TACTICAL, seed=3, engine="compiled")
    e, _, _ = simulate_results(engine, 40, workers=1)
    k, _, _ = simulate_results(kernel, 2000, workers=1)

    def party_wins(rs: list[Any]) -> float:
        return sum(r.winner == "party" for r in rs) / len(rs)

    def rounds(rs: list[Any]) -> float:
        return sum(r.rounds for r in rs) / len(rs)

    assert abs(party_wins(e) - party_wins(k)) < 0.2
    assert abs(rounds(e) - rounds(k)) < 1.5
