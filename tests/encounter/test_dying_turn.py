"""The dying turn, step by step with scripted dice (INJ-04, INJ-05, INJ-11, INJ-12, INJ-14).

Tess (party, 4th level, 8 RP: stabilizing costs 8 // 4 = 2) fights Ksarik (claw +9, 1d6+5 S), who acts first;
Bo (party) stands far off so the fight goes on while Tess is down. Ksarik's claw against Tess's KAC 18: a d20 of
15 hits (24)."""

from __future__ import annotations

from typing import Any

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.commands import (
    Attack,
    Begin,
    Damage,
    EndTurn,
    StabilizeWithResolve,
    StayInTheFight,
)
from sftactics.encounter.engine import Fight, pending
from sftactics.encounter.policy import simple
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.state import ConditionInstance, Creature
from tests.builders import pc
from tests.encounter.helpers import combatant, encounter, fight

MAP = """
..........
..........
..........
..........
"""


def ksarik_first(tess: Creature, dice: list[int], **enc: Any) -> Fight:
    t = combatant("Tess", "party", tess, initiative=20, position=(0, 0))
    k = combatant("Ksarik", "aliens", initiative=25, position=(1, 0))
    b = combatant("Bo", "party", pc(name="Bo"), initiative=1, position=(9, 3))
    f = fight(encounter(t, k, b, map=MAP, **enc), dice)
    f.do(Begin())
    return f


def hp_rp(f: Fight, cid: str = "Tess") -> tuple[int, int]:
    st = f.state.creature(cid).state
    return st.hp, st.rp


def has(f: Fight, *names: str, cid: str = "Tess") -> bool:
    return all(f.state.creature(cid).has(n) for n in names)


@pytest.mark.rule("INJ-02", "INJ-04", "INJ-11", "INJ-12", "INJ-14", "CON-12")
def test_the_whole_dying_turn() -> None:
    # round 1: claw 15 + 9 = 24 hits, 1d6 3 + 5 = 8 damage on Tess's 5 HP: 0 HP, dying, still 8 RP
    # round 2: claw 15 hits, 2 + 5 = 7 HP damage while dying: 1 RP (INJ-14); round 3: Tess attacks (d20 2, a miss)
    f = ksarik_first(pc(name="Tess", rp=8).with_state(sp=0, hp=5), [15, 3, 15, 2, 2])
    f.do(Attack(actor="Ksarik", target="Tess", weapon="claw"))
    assert hp_rp(f) == (0, 8) and has(f, "dying", "unconscious")
    f.do(EndTurn(actor="Ksarik"))
    # Tess's turn is not passed: a dying PC with 8 RP (2 needed) decides whether to stabilize
    assert f.state.timeline.turn == "Tess" and pending(f.state) == "Tess"
    assert hp_rp(f) == (0, 8)
    with pytest.raises(RuleViolation):
        f.do(Attack(actor="Tess", target="Ksarik", weapon="tactical baton"))  # unconscious: no actions
    f.do(EndTurn(actor="Tess"))  # she keeps her Resolve: 1 RP lost at the end of her turn (INJ-04)
    assert hp_rp(f) == (0, 7) and has(f, "dying")
    f.do(EndTurn(actor="Bo"))
    f.do(Attack(actor="Ksarik", target="Tess", weapon="claw"))
    assert hp_rp(f) == (0, 6) and has(f, "dying")  # hit while dying, first time this round
    f.do(EndTurn(actor="Ksarik"))
    assert pending(f.state) == "Tess"
    f.do(StabilizeWithResolve(actor="Tess"))  # 8 // 4 = 2 RP, at once, on her turn
    assert hp_rp(f) == (0, 4) and has(f, "stable", "unconscious") and not has(f, "dying")
    with pytest.raises(RuleViolation) as e:
        f.do(StayInTheFight(actor="Tess"))  # not in the round she stabilized
    assert e.value.rule == "INJ-12"
    f.do(EndTurn(actor="Tess"))
    assert hp_rp(f) == (0, 4)  # stable: nothing lost at the end of the turn (INJ-08)
    f.do(EndTurn(actor="Bo"))
    f.do(EndTurn(actor="Ksarik"))
    # round 3: a stable PC with RP has a decision again: stay in the fight, then act normally
    assert pending(f.state) == "Tess" and f.state.timeline.round == 3
    f.do(StayInTheFight(actor="Tess"))
    assert hp_rp(f) == (1, 3) and not has(f, "unconscious") and not has(f, "stable")
    f.do(Attack(actor="Tess", target="Ksarik", weapon="tactical baton"))  # the rest of her turn as normal
    assert f.state.get("Tess").spent  # the attack took her standard action


@pytest.mark.rule("INJ-04")
def test_dropping_on_its_own_turn_delays_the_first_resolve_loss() -> None:
    f = ksarik_first(pc(name="Tess").with_state(sp=0, hp=5), [])
    f.do(EndTurn(actor="Ksarik"))
    f.do(Damage(target="Tess", amount=6))  # during Tess's own turn (say, an attack of opportunity she provoked)
    assert hp_rp(f) == (0, 5) and has(f, "dying")
    f.do(EndTurn(actor="Tess"))
    assert hp_rp(f) == (0, 5)  # not at the end of the turn she dropped in
    f.do(EndTurn(actor="Bo"))
    f.do(EndTurn(actor="Ksarik"))
    f.do(EndTurn(actor="Tess"))  # round 2: she chooses not to stabilize
    assert hp_rp(f) == (0, 4)


@pytest.mark.rule("INJ-11", "INJ-04", "CON-12")
def test_a_dying_pc_short_of_resolve_has_its_turn_passed_and_keeps_losing_rp() -> None:
    # the Dying condition's flat 3 RP (option): with 2 RP Tess cannot stabilize, so her turn has no decision
    dying = pc(name="Tess").with_state(hp=0, sp=0, rp=2, dropped_round=0, conditions=(
        ConditionInstance(name="dying"), ConditionInstance(name="unconscious", source="0 HP")))  # fmt: skip
    f = ksarik_first(dying, [], options=Sf1eOptions(stabilize_cost="three"))
    f.do(EndTurn(actor="Ksarik"))
    assert pending(f.state) == "Bo"  # Tess's turn passed on its own, with its end-of-turn loss
    assert hp_rp(f) == (0, 1)


def _zero_rp_drop(options: Sf1eOptions, *, own_turn: bool) -> Fight:
    """Tess with 0 RP drops in round 1: on Ksarik's turn (before hers) or during her own."""
    f = ksarik_first(pc(name="Tess").with_state(sp=0, hp=5, rp=0), [], options=options)
    if own_turn:
        f.do(EndTurn(actor="Ksarik"))
    f.do(Damage(target="Tess", amount=6))
    assert hp_rp(f) == (0, 0) and has(f, "dying")
    if not own_turn:
        f.do(EndTurn(actor="Ksarik"))
    return f


@pytest.mark.rule("INJ-05")
def test_zero_rp_grace_lasts_until_the_end_of_the_turn_in_the_next_round() -> None:
    f = _zero_rp_drop(Sf1eOptions(), own_turn=False)
    assert pending(f.state) == "Bo"  # no decision (0 RP) and alive after her round-1 turn
    assert has(f, "dying") and not has(f, "dead")
    f.do(EndTurn(actor="Bo"))
    f.do(EndTurn(actor="Ksarik"))  # round 2: Tess's turn passes and ends
    assert has(f, "dead")


@pytest.mark.rule("INJ-05")
def test_zero_rp_grace_option_next_turn() -> None:
    f = _zero_rp_drop(Sf1eOptions(zero_rp_grace="next_turn"), own_turn=False)
    assert has(f, "dead")  # the end of her very next turn, in the round she dropped
    g = _zero_rp_drop(Sf1eOptions(zero_rp_grace="next_turn"), own_turn=True)
    g.do(EndTurn(actor="Tess"))
    assert not has(g, "dead")  # the turn she dropped in does not count (INJ-04)
    g.do(EndTurn(actor="Bo"))
    g.do(EndTurn(actor="Ksarik"))
    assert has(g, "dead")


@pytest.mark.rule("INJ-05", "INJ-10")
def test_healing_within_the_grace_saves_her() -> None:
    from sftactics.encounter.commands import Heal

    f = _zero_rp_drop(Sf1eOptions(), own_turn=False)
    f.do(Heal(target="Tess", hp=3))
    assert hp_rp(f) == (3, 0) and not has(f, "dying") and not has(f, "unconscious")


@pytest.mark.rule("INJ-12", "INJ-11")
def test_no_stabilizing_with_resolve_in_the_round_she_stayed_in_the_fight() -> None:
    stable = pc(name="Tess").with_state(hp=0, sp=0, rp=5, stabilized_round=0, conditions=(
        ConditionInstance(name="stable"), ConditionInstance(name="unconscious", source="0 HP")))  # fmt: skip
    f = ksarik_first(stable, [])
    f.do(EndTurn(actor="Ksarik"))
    f.do(StayInTheFight(actor="Tess"))
    assert hp_rp(f) == (1, 4)
    f.do(Damage(target="Tess", amount=1))  # dropped again on her own turn
    assert has(f, "dying")
    with pytest.raises(RuleViolation) as e:
        f.do(StabilizeWithResolve(actor="Tess"))
    assert e.value.rule == "INJ-12" and hp_rp(f) == (0, 4)
    f.do(EndTurn(actor="Tess"))
    assert hp_rp(f) == (0, 4)  # dropped on her own turn: nothing lost yet
    f.do(EndTurn(actor="Bo"))
    f.do(EndTurn(actor="Ksarik"))
    f.do(StabilizeWithResolve(actor="Tess"))  # round 2: allowed again (5 // 4 = 1 RP)
    assert hp_rp(f) == (0, 3) and has(f, "stable")


@pytest.mark.rule("INJ-11", "INJ-12")
def test_the_simple_policy_decides_for_a_dying_pc() -> None:
    dying = pc(name="Tess").with_state(hp=0, sp=0, rp=5, dropped_round=0, conditions=(
        ConditionInstance(name="dying"), ConditionInstance(name="unconscious", source="0 HP")))  # fmt: skip
    f = ksarik_first(dying, [])
    f.do(EndTurn(actor="Ksarik"))
    simple(f, "Tess")
    assert [c.type for c in f.commands[-2:]] == ["stabilize", "end_turn"]
    assert hp_rp(f) == (0, 4) and has(f, "stable")
