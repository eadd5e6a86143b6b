"""Attacks of opportunity and the movement actions (AOO-06..14, ACT-30, ACT-33, ACT-50, ACT-54..56, EX-14)."""

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter import reactions
from sftactics.encounter.commands import (
    Attack,
    Begin,
    Charge,
    Crawl,
    DropProne,
    EndTurn,
    GuardedStep,
    MinimumMove,
    Move,
    Run,
    TotalDefense,
    Withdraw,
)
from sftactics.sf1e import stats
from tests.builders import npc, pc
from tests.encounter.helpers import combatant, encounter, fight

OPEN = "\n".join(["." * 12] * 8)

# a ksarik with a 10-ft reach tentacle, and a goblin with a 5-ft claw
KSARIK = npc(name="Ksarik", reach_ft=10, weapons=[{"name": "tentacle", "category": "natural", "damage": "1d6+5 B",
                                                   "attack_bonus": 10}])  # fmt: skip
GOBLIN = npc(name="Goblin", weapons=[{"name": "claw", "category": "natural", "damage": "1d4 S", "attack_bonus": 4}])


def setup(dice: list[int], *, tess_at: tuple[int, int] = (0, 3), map: str = OPEN, **others: tuple[int, int]) -> object:
    """Tess acts first (init 30). The foes have acted already (init 10, 5) so they can react: round 1 is
    skipped by starting in round 2 through two end turns."""
    cs = [combatant("Tess", "party", initiative=30, position=tess_at)]
    if "ksarik" in others:
        cs.append(combatant("Ksarik", "aliens", KSARIK, initiative=10, position=others["ksarik"]))
    if "goblin" in others:
        cs.append(combatant("Goblin", "aliens", GOBLIN, initiative=5, position=others["goblin"]))
    f = fight(encounter(*cs, map=map), dice)
    f.do(Begin())
    for name in [c.id for c in cs]:
        f.do(EndTurn(actor=name))  # everyone acts once: reactions are now available (CF-15)
    assert f.state.timeline.turn == "Tess" and f.state.timeline.round == 2
    return f


def aoos(events: list) -> list[tuple[str, str]]:
    return [(e.attacker, e.target) for e in events if e.type == "attack_made" and e.reaction]


@pytest.mark.rule("AOO-01", "AOO-06", "AOO-08", "ACT-60", "AOO-14")
def test_leaving_a_threatened_square_provokes_before_the_step() -> None:
    # goblin at 3,3 threatens 2..4 x 2..4; Tess at 2,3 walks west to 0,3: leaving 2,3 provokes (claw misses: 2)
    f = setup([2], tess_at=(2, 3), goblin=(3, 3))
    events = f.do(Move(actor="Tess", to=(0, 3)))
    assert aoos(events) == [("Goblin", "Tess")]
    kinds = [e.type for e in events]
    assert kinds.index("attack_made") < kinds.index("moved")
    assert f.state.get("Goblin").reaction_used
    assert f.state.get("Tess").position == (0, 3)


@pytest.mark.rule("AOO-07", "EX-14", "AOO-03")
def test_approaching_through_two_threat_zones_provokes_both() -> None:
    # EX-14: moving past a reach ksarik and a goblin provokes an attack of opportunity from each
    f = setup([2, 2], tess_at=(1, 3), ksarik=(6, 3), goblin=(5, 5))
    events = f.do(Move(actor="Tess", path=((2, 3), (3, 3), (4, 4), (5, 4))))
    assert sorted(aoos(events)) == [("Goblin", "Tess"), ("Ksarik", "Tess")]


@pytest.mark.rule("ACT-05", "AOO-08")
def test_one_attack_of_opportunity_per_round() -> None:
    f = setup([2, 3], tess_at=(3, 3), goblin=(4, 3))
    events = f.do(Move(actor="Tess", path=((3, 2), (3, 1))))  # leaves 3,3 then 3,2: both threatened
    assert aoos(events) == [("Goblin", "Tess")]


@pytest.mark.rule("ACT-33", "AOO-06")
def test_guarded_step_does_not_provoke() -> None:
    f = setup([], tess_at=(2, 3), goblin=(3, 3))
    events = f.do(GuardedStep(actor="Tess", to=(1, 3)))
    assert aoos(events) == [] and f.state.get("Tess").position == (1, 3)
    with pytest.raises(RuleViolation) as e:
        f.do(GuardedStep(actor="Tess", to=(1, 5)))
    assert e.value.rule in ("ACT-33", "ACT-02")


@pytest.mark.rule("ACT-55", "EX-14", "AOO-10")
def test_withdraw_does_not_provoke_for_the_first_square_only() -> None:
    # Tess next to the goblin and within the ksarik's reach: withdrawing west, leaving the first square
    # provokes nobody; leaving the second square, still in the ksarik's 10-ft reach, provokes the ksarik
    f = setup([2], tess_at=(4, 3), ksarik=(3, 5), goblin=(5, 3))
    events = f.do(Withdraw(actor="Tess", to=(0, 3)))
    assert aoos(events) == [("Ksarik", "Tess")]
    assert f.state.get("Tess").spent == ("full",)


@pytest.mark.rule("AOO-12", "AOO-06")
def test_a_ranged_attack_while_threatened_provokes_first() -> None:
    f = setup([2, 10, 1], tess_at=(3, 3), goblin=(4, 3), ksarik=(10, 3))
    events = f.do(Attack(actor="Tess", target="Ksarik", weapon="semi-auto"))
    attacks = [(e.attacker, e.reaction) for e in events if e.type == "attack_made"]
    assert attacks == [("Goblin", True), ("Tess", False)]


@pytest.mark.rule("AOO-09", "ACT-20")
def test_no_attacks_of_opportunity_in_total_defense_or_while_flat_footed() -> None:
    f = setup([], tess_at=(2, 3), goblin=(3, 3))
    gob = f.state.get("Goblin")
    tess = f.state.get("Tess")
    assert reactions.can_take_aoo(f.state, gob, tess) == (True, "")
    from tests.builders import with_conditions

    flat = f.state.update("Goblin", creature=with_conditions(gob.creature, "flat-footed"))
    ok, why = reactions.can_take_aoo(flat, flat.get("Goblin"), tess)
    assert not ok and "flat-footed" in why
    f2 = setup([], tess_at=(2, 3), goblin=(3, 3))
    f2.do(EndTurn(actor="Tess"))
    f2.do(EndTurn(actor="Goblin"))  # round 3 for Tess; make the goblin go into total defense instead:
    assert f2.state.timeline.turn == "Tess"


@pytest.mark.rule("AOO-09", "MOD-09")
def test_cover_stops_attacks_of_opportunity() -> None:
    walled = "\n".join(["." * 12] * 8) + "\n\nwall 3,3 W"
    f = setup([], tess_at=(2, 3), goblin=(3, 3), map=walled)
    ok, why = reactions.can_take_aoo(f.state, f.state.get("Goblin"), f.state.get("Tess"))
    assert not ok and "MOD-09" in why
    events = f.do(Move(actor="Tess", to=(0, 3)))
    assert aoos(events) == []


@pytest.mark.rule("AOO-09", "CF-15")
def test_no_attack_of_opportunity_before_acting() -> None:
    cs = [combatant("Tess", "party", initiative=30, position=(2, 3)),
          combatant("Goblin", "aliens", GOBLIN, initiative=5, position=(3, 3))]  # fmt: skip
    f = fight(encounter(*cs, map=OPEN), [])
    f.do(Begin())
    events = f.do(Move(actor="Tess", to=(0, 3)))
    assert aoos(events) == []


@pytest.mark.rule("AOO-05")
def test_zero_reach_creatures_do_not_threaten() -> None:
    tiny = npc(name="Goblin", size="tiny", reach_ft=0,
               weapons=[{"name": "bite", "category": "natural", "damage": "1d2 P", "attack_bonus": 2}])  # fmt: skip
    f = setup([], goblin=(11, 7))
    f.state = f.state.with_combatant(combatant("Mite", "aliens", tiny, initiative=5, position=(3, 3), acted=True))
    assert reactions.threat(f.state, f.state.get("Mite")) == frozenset({(3, 3)})


@pytest.mark.rule("ACT-30")
def test_crawl_needs_prone_and_provokes() -> None:
    f = setup([2], tess_at=(2, 3), goblin=(3, 3))
    with pytest.raises(RuleViolation) as e:
        f.do(Crawl(actor="Tess", to=(1, 3)))
    assert e.value.rule == "ACT-30"
    f.do(DropProne(actor="Tess"))
    events = f.do(Crawl(actor="Tess", to=(1, 3)))
    assert aoos(events) == [("Goblin", "Tess")]


@pytest.mark.rule("ACT-54", "CON-18")
def test_run_four_times_speed_straight_and_flat_footed() -> None:
    f = setup([], tess_at=(0, 0), goblin=(11, 7))
    with pytest.raises(RuleViolation) as e:
        f.do(Run(actor="Tess", path=((1, 0), (2, 1))))
    assert e.value.rule == "ACT-54"
    f.do(Run(actor="Tess", to=(11, 0)))  # 55 ft <= 120
    tess = f.state.get("Tess")
    assert tess.position == (11, 0) and stats.is_flat_footed(tess.creature)
    f.do(EndTurn(actor="Tess"))
    f.do(EndTurn(actor="Goblin"))
    assert not stats.is_flat_footed(f.state.creature("Tess"))


@pytest.mark.rule("ACT-54", "CON-17")
def test_fatigued_creatures_cannot_run_or_charge() -> None:
    from tests.builders import with_conditions

    tired = with_conditions(pc(name="Tess"), "fatigued")
    cs = [combatant("Tess", "party", tired, initiative=30, position=(0, 0)),
          combatant("Goblin", "aliens", GOBLIN, initiative=5, position=(8, 0))]  # fmt: skip
    f = fight(encounter(*cs, map=OPEN), [])
    f.do(Begin())
    with pytest.raises(RuleViolation) as e:
        f.do(Run(actor="Tess", to=(5, 0)))
    assert e.value.rule == "CON-17"
    with pytest.raises(RuleViolation) as e2:
        f.do(Charge(actor="Tess", target="Goblin", weapon="baton"))
    assert e2.value.rule == "CON-17"


@pytest.mark.rule("ACT-50")
def test_charge_moves_straight_then_attacks_at_minus_2_with_minus_2_ac() -> None:
    f = setup([14, 3], tess_at=(0, 3), goblin=(6, 3))
    events = f.do(Charge(actor="Tess", target="Goblin", weapon="baton"))
    assert f.state.get("Tess").position == (5, 3)
    attack = next(e for e in events if e.type == "attack_made")
    assert "-2 charge [ACT-50]" in "\n".join(attack.lines)
    assert stats.armor_class(f.state.creature("Tess"), "kac").total == 18 - 2


@pytest.mark.rule("ACT-50")
def test_charge_needs_ten_feet_and_a_clear_path() -> None:
    f = setup([], tess_at=(3, 3), goblin=(5, 3))
    with pytest.raises(RuleViolation, match="a charge moves 10 to 60 ft"):
        f.do(Charge(actor="Tess", target="Goblin", weapon="baton"))
    blocked = OPEN.splitlines()
    blocked[3] = "...~~......."
    f2 = setup([], tess_at=(0, 3), goblin=(7, 3), map="\n".join(blocked))
    with pytest.raises(RuleViolation) as e:
        f2.do(Charge(actor="Tess", target="Goblin", weapon="baton"))
    assert e.value.rule == "ACT-50"


@pytest.mark.rule("ACT-56")
def test_minimum_movement_is_five_feet_as_a_full_action_and_provokes() -> None:
    f = setup([2], tess_at=(2, 3), goblin=(3, 3))
    events = f.do(MinimumMove(actor="Tess", to=(1, 2)))
    assert aoos(events) == [("Goblin", "Tess")] and f.state.get("Tess").spent == ("full",)


@pytest.mark.rule("MOD-17", "EX-16")
def test_flanking_gives_plus_2_to_melee() -> None:
    bo = combatant("Bo", "party", pc(name="Bo"), initiative=1, position=(4, 3))
    cs = [combatant("Tess", "party", initiative=30, position=(2, 3)), bo,
          combatant("Goblin", "aliens", GOBLIN, initiative=5, position=(3, 3))]  # fmt: skip
    f = fight(encounter(*cs, map=OPEN), [8, 2])
    f.do(Begin())
    events = f.do(Attack(actor="Tess", target="Goblin", weapon="baton"))
    attack = next(e for e in events if e.type == "attack_made")
    text = "\n".join(attack.lines)
    assert "+2 flanking [MOD-17]" in text and "Tess flanks Goblin" in text
    _ = TotalDefense


@pytest.mark.rule("AOO-06", "ACT-05")
def test_a_reaction_decider_may_decline_an_attack_of_opportunity() -> None:
    asked: list[tuple[str, str]] = []

    def decline(state: object, reactor: str, provoker: str, why: str) -> bool:
        asked.append((reactor, provoker))
        return False

    f = setup([], tess_at=(2, 3), goblin=(3, 3))
    f.decide = decline
    events = f.do(Move(actor="Tess", to=(0, 3)))
    assert asked == [("Goblin", "Tess")] and aoos(events) == []
    assert not f.state.get("Goblin").reaction_used
