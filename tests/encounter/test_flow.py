"""Combat flow: initiative, surprise, rounds and turns, the end of combat (CF-*)."""

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.encounter import budget, timing
from sftactics.encounter.commands import Attack, Begin, EndCombat, EndTurn, Join, Move
from sftactics.encounter.engine import Fight, pending
from sftactics.encounter.state import Expiry
from sftactics.encounter.tx import Tx
from tests.builders import npc, pc
from tests.encounter.helpers import combatant, duo, encounter, fight


@pytest.mark.rule("CF-01", "CF-03", "CF-12")
def test_begin_rolls_initiative_and_opens_round_1_with_the_highest() -> None:
    f = fight(duo(), [7, 15])
    events = f.do(Begin())
    rolled = {e.id: e.total for e in events if e.type == "initiative_rolled"}
    assert rolled == {"Tess": 9, "Ksarik": 17}
    s = f.state
    assert s.timeline.order == ("Ksarik", "Tess")
    assert (s.timeline.phase, s.timeline.round, s.timeline.turn) == ("round", 1, "Ksarik")


@pytest.mark.rule("CF-04")
def test_ties_go_to_the_higher_modifier() -> None:
    quick = pc(name="Quick", initiative_bonus=3)  # init +5
    enc = encounter(combatant("Quick", "party", quick), combatant("Ksarik", "aliens"))  # Ksarik init +2
    f = fight(enc, [10, 13])  # 15 and 15
    f.do(Begin())
    assert f.state.timeline.order == ("Quick", "Ksarik")


@pytest.mark.rule("CF-04")
def test_ties_with_equal_modifiers_roll_off_until_broken() -> None:
    enc = encounter(combatant("A", "party", npc(name="A")), combatant("B", "aliens", npc(name="B")))
    # both roll 10 (12 each, same +2): roll-off 5/5 (tied again), then 3/18
    f = fight(enc, [10, 10, 5, 5, 3, 18])
    events = f.do(Begin())
    order = next(e for e in events if e.type == "order_set")
    assert order.order == ("B", "A")
    assert order.roll_offs == {"A": (5, 3), "B": (5, 18)}


@pytest.mark.rule("CF-05", "CF-12", "CF-13")
def test_the_order_repeats_every_round() -> None:
    f = fight(duo(), [7, 15])
    f.do(Begin())
    seen = []
    for _ in range(4):
        who = pending(f.state)
        assert who is not None
        seen.append((f.state.timeline.round, who))
        f.do(EndTurn(actor=who))
    assert seen == [(1, "Ksarik"), (1, "Tess"), (2, "Ksarik"), (2, "Tess")]
    assert f.state.get("Tess").initiative == 9


@pytest.mark.rule("CF-12")
def test_acting_out_of_turn_is_refused_and_changes_nothing() -> None:
    f = fight(duo(), [7, 15])
    f.do(Begin())
    before = f.state.model_dump_json()
    with pytest.raises(RuleViolation) as e:
        f.do(Attack(actor="Tess", target="Ksarik"))
    assert e.value.rule == "CF-12" and "Ksarik's turn" in str(e.value)
    assert f.state.model_dump_json() == before


@pytest.mark.rule("CF-08", "CF-07")
def test_surprise_round_only_when_some_but_not_all_are_aware() -> None:
    everyone = fight(duo(), [7, 15])
    everyone.do(Begin())
    assert everyone.state.timeline.phase == "round"
    nobody = encounter(combatant("Tess", "party", aware=False), combatant("Ksarik", "aliens", aware=False))
    f = fight(nobody, [7, 15])
    f.do(Begin())
    assert f.state.timeline.phase == "round"
    some = encounter(combatant("Tess", "party", aware=False), combatant("Ksarik", "aliens"))
    f2 = fight(some, [7, 15])
    f2.do(Begin())
    assert (f2.state.timeline.phase, f2.state.timeline.round) == ("surprise", 0)


@pytest.mark.rule("CF-09", "CF-10", "CF-11")
def test_surprise_round_gives_the_aware_one_action_and_leaves_the_unaware_flat_footed() -> None:
    enc = encounter(combatant("Tess", "party", aware=False), combatant("Ksarik", "aliens"))
    f = fight(enc, [18, 3, 10, 2])  # Tess 20 beats Ksarik 5, but Tess is unaware
    f.do(Begin())
    s = f.state
    assert s.get("Tess").initiative == 20  # everyone rolled up front (CF-10)
    assert s.timeline.turn == "Ksarik"  # the unaware Tess is passed over
    assert s.get("Tess").creature.has("flat-footed")
    f.do(Attack(actor="Ksarik", target="Tess", weapon="claw"))
    with pytest.raises(RuleViolation) as e:
        f.do(Attack(actor="Ksarik", target="Tess", weapon="claw"))
    assert e.value.rule in ("CF-09", "ACT-02")
    with pytest.raises(RuleViolation) as e2:
        f.do(Move(actor="Ksarik", to=(0, 0)))
    assert e2.value.rule == "CF-09"
    f.do(EndTurn(actor="Ksarik"))
    s = f.state
    assert (s.timeline.round, s.timeline.turn) == (1, "Tess")
    assert not s.get("Tess").creature.has("flat-footed")  # its first turn: no longer surprised


@pytest.mark.rule("CF-09")
def test_no_full_actions_in_the_surprise_round() -> None:
    from sftactics.encounter.commands import FullAttack

    enc = encounter(combatant("Tess", "party", aware=False), combatant("Ksarik", "aliens"))
    f = fight(enc, [3, 18])
    f.do(Begin())
    with pytest.raises(RuleViolation) as e:
        f.do(FullAttack(actor="Ksarik", target="Tess", weapon="claw", second_weapon="claw"))
    assert e.value.rule == "CF-09"


@pytest.mark.rule("CF-15", "ACT-05")
def test_no_reactions_before_first_acting() -> None:
    f = fight(duo(), [7, 15])
    f.do(Begin())
    assert budget.can_react(f.state.get("Tess")) == (False, "CF-15")
    f.do(EndTurn(actor="Ksarik"))
    assert budget.can_react(f.state.get("Ksarik")) == (True, "")


@pytest.mark.rule("CF-06")
def test_a_late_entrant_rolls_initiative_and_is_inserted() -> None:
    f = fight(duo(), [7, 15, 10])
    f.do(Begin())  # Ksarik 17, Tess 9
    f.do(Join(id="Goblin", side="aliens", statblock="space goblin"))  # d20 10 + 2 = 12
    s = f.state
    assert s.timeline.order == ("Ksarik", "Goblin", "Tess")
    f.do(EndTurn(actor="Ksarik"))
    assert f.state.timeline.turn == "Goblin"


@pytest.mark.rule("CF-06")
def test_a_late_entrant_whose_place_has_passed_waits_for_the_next_round() -> None:
    f = fight(duo(), [7, 15, 19])
    f.do(Begin())
    f.do(EndTurn(actor="Ksarik"))  # Tess's turn now
    f.do(Join(id="Goblin", side="aliens", statblock="space goblin"))  # 21: before Ksarik
    f.do(EndTurn(actor="Tess"))
    assert (f.state.timeline.round, f.state.timeline.turn) == (2, "Goblin")


@pytest.mark.rule("CF-02")
def test_combat_ends_when_one_side_cannot_fight() -> None:
    weak = npc(name="Ksarik", hp=3)
    f = fight(encounter(combatant("Tess", "party"), combatant("Ksarik", "aliens", weak)), [15, 7, 12, 3])
    f.do(Begin())  # Tess 17 first
    f.do(Attack(actor="Tess", target="Ksarik", weapon="baton"))  # 12+7 hits KAC 15, 1d4 3 + 3 = 6
    assert f.state.result is not None and f.state.result.winner == "party"
    with pytest.raises(RuleViolation) as e:
        f.do(EndTurn(actor="Tess"))
    assert e.value.rule == "CF-02"


@pytest.mark.rule("CF-02")
def test_the_gm_can_end_the_combat() -> None:
    f = fight(duo(), [7, 15])
    f.do(Begin())
    f.do(EndCombat(reason="the ksarik flees"))
    assert f.state.result is not None and "ksarik flees" in f.state.result.reason


@pytest.mark.rule("CF-02")
def test_insignificant_foes_do_not_keep_the_combat_going() -> None:
    enc = duo()
    enc = enc.update("Ksarik", insignificant=True)
    f = fight(enc, [7, 15])
    f.do(Begin())
    assert f.state.result is not None and f.state.result.winner == "party"


@pytest.mark.rule("CF-14", "EX-06", "CF-13")
def test_a_one_round_effect_ends_just_before_its_count_next_round() -> None:
    a = combatant("A", "party", pc(name="A"), initiative=20)
    b = combatant("B", "aliens", npc(name="B"), initiative=14)
    c = combatant("C", "aliens", npc(name="C"), initiative=10)
    f = fight(encounter(a, b, c), [])
    f.do(Begin())  # initiatives already rolled: no dice
    f.do(EndTurn(actor="A"))
    assert f.state.timeline.turn == "B"  # count 14
    tx = Tx(f.state, ScriptedDice([]))
    tx.start_effect("A", "blessing", expires=timing.for_rounds(tx.state, 1))
    f.state = tx.state
    assert f.state.effects[0].expires == Expiry(kind="count", round=2, count=14)
    f.do(EndTurn(actor="B"))
    f.do(EndTurn(actor="C"))
    assert (f.state.timeline.round, f.state.timeline.turn) == (2, "A")
    assert f.state.effects  # round 2, count 20: still on
    f.do(EndTurn(actor="A"))
    # B's turn at count 14 began: the effect ended just before it
    kinds = [e.type for e in f.events[-1]]
    assert kinds.index("effect_ended") < kinds.index("turn_started")
    assert not f.state.effects and f.state.timeline.turn == "B"


@pytest.mark.rule("CF-17", "CON-33")
def test_staggered_allows_a_move_or_a_standard_action_and_no_full_action() -> None:
    from sftactics.encounter.commands import FullAttack
    from tests.builders import with_conditions

    tess = with_conditions(pc(name="Tess"), "staggered")
    f = fight(encounter(combatant("Tess", "party", tess), combatant("Ksarik", "aliens")), [15, 7, 3])
    f.do(Begin())
    with pytest.raises(RuleViolation) as e:
        f.do(FullAttack(actor="Tess", target="Ksarik", weapon="baton"))
    assert e.value.rule == "CON-33"
    f.do(Attack(actor="Tess", target="Ksarik", weapon="baton"))
    with pytest.raises(RuleViolation) as e2:
        f.do(Move(actor="Tess", to=(0, 0)))
    assert e2.value.rule == "CON-33"


def test_seeded_fights_are_reproducible() -> None:
    a = Fight.seeded(duo(), 11)
    b = Fight.seeded(duo(), 11)
    for f in (a, b):
        f.do(Begin())
        f.do(EndTurn(actor=pending(f.state) or ""))
    assert a.state.model_dump_json() == b.state.model_dump_json()
