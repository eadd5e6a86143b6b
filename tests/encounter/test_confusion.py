"""A confused creature's turn (CON-06): the d% at the start of its turn, recorded in an event, and a turn that
follows it whether commands, ``play`` or a policy plays it.

Tess (party, confused) stands at 0,0 with her ally Bo adjacent at 1,0 and Ksarik (aliens) 15 ft away at 3,0.
Initiative is given, so the first die of each fight is Tess's d%."""

from __future__ import annotations

from typing import Any

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.commands import Attack, Begin, EndTurn, Move, Search
from sftactics.encounter.engine import Fight, pending
from sftactics.encounter.events import ConfusionRolled
from sftactics.encounter.policy import simple
from sftactics.sim.policies import SimplePolicy, TacticalPolicy
from tests.builders import pc, with_conditions
from tests.encounter.helpers import combatant, encounter, fight

MAP = """
..........
..........
..........
..........
"""


def confused_tess(dice: list[int], *, tess_init: int = 20, **tess: Any) -> Fight:
    t = combatant("Tess", "party", with_conditions(pc(name="Tess", **tess), "confused"), initiative=tess_init,
                  position=(0, 0))  # fmt: skip
    b = combatant("Bo", "party", pc(name="Bo"), initiative=10, position=(1, 0))
    k = combatant("Ksarik", "aliens", initiative=15, position=(3, 0))
    f = fight(encounter(t, b, k, map=MAP), dice)
    f.do(Begin())
    return f


def rolled(f: Fight) -> ConfusionRolled:
    found = [e for batch in f.events for e in batch if isinstance(e, ConfusionRolled)]
    assert found, "no confusion roll"
    return found[-1]


@pytest.mark.rule("CON-06", "GEN-15")
def test_76_to_100_attacks_the_nearest_creature_even_an_ally() -> None:
    f = confused_tess([90, 10])
    ev = rolled(f)
    assert (ev.id, ev.roll, ev.behavior, ev.targets) == ("Tess", 90, "attack_nearest", ("Bo",))
    assert any("d% 90" in line and "CON-06" in line for line in ev.lines)
    assert f.state.timeline.turn == "Tess"
    with pytest.raises(RuleViolation) as e:
        f.do(Attack(actor="Tess", target="Ksarik", weapon="tactical semi-auto pistol"))
    assert e.value.rule == "CON-06"
    with pytest.raises(RuleViolation) as e:
        f.do(Search(actor="Tess"))
    assert e.value.rule == "CON-06"
    events = f.do(Attack(actor="Tess", target="Bo", weapon="tactical baton"))  # 10 + 7 = 17 vs KAC 18: a miss
    assert any(ev.type == "attack_made" and ev.target == "Bo" for ev in events)


@pytest.mark.rule("CON-06")
def test_26_to_50_babbles_and_the_turn_passes() -> None:
    f = confused_tess([30])
    ev = rolled(f)
    assert (ev.roll, ev.behavior, ev.targets) == (30, "babble", ())
    assert pending(f.state) == "Ksarik"  # nothing to decide: Tess's turn passed
    assert "Tess" in f.state.timeline.done and f.state.get("Tess").confused_turn is None


@pytest.mark.rule("CON-06", "DMG-06")
def test_51_to_75_hurts_itself_with_the_item_in_hand() -> None:
    f = confused_tess([60, 5])  # 1d8 5 + Str 3 = 8 bludgeoning with her tactical baton
    ev = rolled(f)
    assert (ev.roll, ev.behavior) == (60, "hurt_self")
    assert f.state.creature("Tess").state.sp == 28 - 8
    assert pending(f.state) == "Ksarik"


@pytest.mark.rule("CON-06")
def test_51_to_75_with_nothing_in_hand_babbles() -> None:
    claws = [{"name": "claw", "category": "natural", "damage": "1d6 S"}]
    f = confused_tess([60], weapons=claws)
    ev = rolled(f)
    assert ev.behavior == "babble" and any("babbles instead" in line for line in ev.lines)
    assert f.state.creature("Tess").state.sp == 28 and pending(f.state) == "Ksarik"


@pytest.mark.rule("CON-06")
def test_01_to_25_acts_normally() -> None:
    f = confused_tess([25])
    assert rolled(f).behavior == "act_normally"
    f.do(Move(actor="Tess", to=(0, 2)))  # anything goes
    assert f.state.get("Tess").position == (0, 2)


@pytest.mark.rule("CON-06")
def test_attacked_while_confused_it_attacks_that_creature_without_rolling() -> None:
    f = confused_tess([3], tess_init=5)  # Ksarik (15), Bo (10), then Tess (5)
    f.do(Attack(actor="Ksarik", target="Tess", weapon="spit"))  # 3 + 6 = 9 vs EAC 17: a miss, still an attack
    assert f.state.get("Tess").confused_by == "Ksarik"
    f.do(EndTurn(actor="Ksarik"))
    f.do(EndTurn(actor="Bo"))
    ev = rolled(f)
    assert (ev.roll, ev.behavior, ev.targets) == (None, "attack_attacker", ("Ksarik",))
    assert len(f.dice.history) == 1  # no d% was rolled for Tess
    with pytest.raises(RuleViolation) as e:
        f.do(Attack(actor="Tess", target="Bo", weapon="tactical baton"))
    assert e.value.rule == "CON-06"


@pytest.mark.rule("CON-06", "AOO-06")
def test_attacks_of_opportunity_only_against_the_creature_it_is_committed_to() -> None:
    # Ksarik stands next to Tess and walks away; Tess (confused, not committed) takes no attack of opportunity
    def walk_away(committed: bool) -> list[str]:
        t = combatant("Tess", "party", with_conditions(pc(name="Tess"), "confused"), initiative=5,
                      position=(0, 0), confused_by="Ksarik" if committed else None, acted=True)  # fmt: skip
        k = combatant("Ksarik", "aliens", initiative=15, position=(1, 0))
        f = fight(encounter(t, k, map=MAP), [2])  # Tess's AoO, if any: d20 2, a miss
        f.do(Begin())
        events = f.do(Move(actor="Ksarik", to=(5, 0)))
        return [e.attacker for e in events if e.type == "attack_made"]

    assert walk_away(committed=False) == []
    assert walk_away(committed=True) == ["Tess"]


@pytest.mark.rule("CON-06")
@pytest.mark.parametrize("policy", [simple, SimplePolicy(), TacticalPolicy()], ids=["engine", "simple", "tactical"])
def test_policies_follow_the_roll(policy: Any) -> None:
    f = confused_tess([90, 10])  # attack the nearest creature: Bo; baton 10 + 7 = 17, a miss
    policy(f, "Tess")
    attacks = [e for batch in f.events for e in batch if e.type == "attack_made"]
    assert [(a.attacker, a.target) for a in attacks] == [("Tess", "Bo")]
    assert pending(f.state) == "Ksarik"


@pytest.mark.rule("CON-06")
def test_the_roll_is_narrated() -> None:
    from sftactics.encounter.narrate import lines

    f = confused_tess([30])
    text = "\n".join(lines(e for batch in f.events for e in batch))
    assert "Tess is confused: d% 30: 26-50, does nothing but babble (CON-06)" in text


@pytest.mark.rule("CON-06")
def test_play_rolls_the_d100_at_the_start_of_the_turn(tmp_path: Any) -> None:
    import json

    from rich.console import Console

    from sftactics.play import Session

    data = {"name": "Confused", "combatants": [
        {"id": "Krask", "side": "party", "statblock": "vesk-soldier", "initiative": 20,
         "state": {"conditions": [{"name": "confused"}]}},
        {"id": "Ksarik", "side": "monsters", "statblock": "ksarik", "initiative": 5}]}  # fmt: skip
    path = tmp_path / "confused.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    console = Console(record=True, width=120)

    def no_more(prompt: str) -> str:
        raise EOFError

    s = Session.open(path, seed=1, physical=False, console=console, input_fn=no_more)
    s.run()
    first = next(e for batch in s.fight.events for e in batch if isinstance(e, ConfusionRolled))
    assert first.id == "Krask" and first.roll is not None and 1 <= first.roll <= 100
    assert f"Krask is confused: d% {first.roll}:" in console.export_text()


@pytest.mark.rule("CON-06", "ACT-71")
def test_delaying_does_not_buy_a_second_roll() -> None:
    from sftactics.encounter.commands import Delay, Resume

    f = confused_tess([20])  # 01-25: acts normally, and may delay
    f.do(Delay(actor="Tess"))
    f.do(EndTurn(actor="Ksarik"))
    f.do(Resume(actor="Tess"))
    assert f.state.timeline.turn == "Tess"
    assert len([e for batch in f.events for e in batch if isinstance(e, ConfusionRolled)]) == 1
    assert f.state.get("Tess").confused_turn is not None


@pytest.mark.rule("CON-06", "ACT-71")
def test_a_new_round_is_a_new_roll_even_after_delaying_through_the_last() -> None:
    from sftactics.encounter.commands import Delay

    f = confused_tess([20, 40])  # round 1: acts normally and delays all round; round 2: 26-50, babbles
    f.do(Delay(actor="Tess"))
    f.do(EndTurn(actor="Ksarik"))
    f.do(EndTurn(actor="Bo"))
    f.do(EndTurn(actor="Ksarik"))  # round 2 (any command starts the next turn): Tess's turn came and passed
    assert [e.roll for batch in f.events for e in batch if isinstance(e, ConfusionRolled)] == [20, 40]


@pytest.mark.rule("CON-06", "CF-12")
def test_pending_names_the_turn_whose_start_needs_dice_past_a_dead_combatant() -> None:
    from sftactics.encounter.engine import pending_needs_dice

    t = combatant("Tess", "party", pc(name="Tess"), initiative=20, position=(0, 0))
    k = combatant("Ksarik", "aliens", initiative=15, position=(3, 0))
    b = combatant("Bo", "party", with_conditions(pc(name="Bo"), "confused"), initiative=10, position=(1, 0))
    z = combatant("Zed", "aliens", initiative=5, position=(5, 0))
    f = fight(encounter(t, k, b, z, map=MAP), [])
    f.do(Begin())
    f.do({"type": "add_condition", "target": "Ksarik", "condition": "dead"})
    between = f.state.with_timeline(turn=None, done=("Tess",))  # Tess's turn over, the next not yet started
    assert pending_needs_dice(between)
    assert pending(between) == "Bo"  # Ksarik's turn is passed; Bo's d% is rolled when its turn starts
    assert not pending_needs_dice(f.state) and pending(f.state) == "Tess"
