"""Maneuvers by the book in a fight: forced movement stops at obstacles, grapples end and bind as the rules say,
hands are counted, and refusals name the rule that forbids (issue 14: MAN-02, MAN-07, MAN-09, CON-20, CON-28,
GEN-10...)."""

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.commands import (
    AddCondition,
    Attack,
    Begin,
    ChangeGrip,
    Damage,
    Draw,
    DropItem,
    EndTurn,
    Escape,
    Feint,
    FullAttack,
    GuardedStep,
    ManeuverCmd,
    MinimumMove,
    Move,
    Run,
    Withdraw,
)
from sftactics.encounter.engine import Fight
from sftactics.sf1e import stats
from sftactics.sf1e.state import ConditionInstance
from tests.builders import npc, pc
from tests.encounter.helpers import combatant, encounter, fight

OPEN = "\n".join(["." * 10] * 6)
BATON = "tactical baton"


def duel(dice: list[int], *, map: str = OPEN, tess_at=(2, 2), foe_at=(3, 2), bo_at=(0, 5), **kw: object) -> Fight:
    """Tess (baton +7) acts first, then Bo, then Ksarik (KAC 15 unless ``kac`` is given)."""
    t = combatant("Tess", "party", initiative=30, position=tess_at)
    bo = combatant("Bo", "party", pc(name="Bo"), initiative=20, position=bo_at)
    k = combatant("Ksarik", "aliens", npc(name="Ksarik", **kw), initiative=10, position=foe_at)
    f = fight(encounter(t, bo, k, map=map), dice)
    f.do(Begin())
    return f


def maneuver(f: Fight, kind: str, **kw: object) -> None:
    f.do(ManeuverCmd(actor="Tess", target="Ksarik", kind=kind, weapon=BATON, **kw))  # type: ignore[arg-type]


# ---------------------------------------------------------------- forced movement (MAN-02, MAN-09)
@pytest.mark.rule("MAN-02", "MOV-01")
def test_a_bull_rush_stops_before_a_wall_square() -> None:
    # +7 and d20 20 = 27 against KAC 5 + 8 = 13: beats it by 14, two extra steps, a 15-ft push; the wall
    # squares in column 5 stop Ksarik at 4,2 after 5 ft
    m = "\n".join(["....." + "#" + "...."] * 6)
    f = duel([20], map=m, kac=5)
    maneuver(f, "bull_rush")
    assert f.state.get("Ksarik").position == (4, 2)


@pytest.mark.rule("MAN-02", "MOV-11")
def test_a_bull_rush_never_crosses_a_wall_edge() -> None:
    f = duel([20], map=OPEN + "\n\nwall 3,2 E\n")
    maneuver(f, "bull_rush")
    assert f.state.get("Ksarik").position == (3, 2)


@pytest.mark.rule("MAN-02")
def test_a_bull_rush_stops_at_an_occupied_square() -> None:
    f = duel([20], kac=5, bo_at=(6, 2))  # 15 ft of push, Bo stands three squares behind Ksarik
    maneuver(f, "bull_rush")
    assert f.state.get("Ksarik").position == (5, 2)


@pytest.mark.rule("MAN-09", "MOV-11")
def test_a_reposition_does_not_pass_through_a_wall() -> None:
    # Tess at 3,3 reaches 4,2, but the wall on the east side of 3,2 (and its corners) is in the way: 5 ft
    # of reposition cannot get there, so Ksarik stays where it was
    f = duel([20], map=OPEN + "\n\nwall 3,2 E\n", tess_at=(3, 3))
    maneuver(f, "reposition", to=(4, 2))
    assert f.state.get("Ksarik").position == (3, 2)


@pytest.mark.rule("MAN-09")
def test_a_reposition_goes_around_a_creature_in_the_way() -> None:
    # 15 ft of reposition (KAC 5): from 3,2 to 3,4 past Tess at 3,3 is 10 ft around her; every space stays
    # in her reach
    f = duel([20], kac=5, tess_at=(3, 3))
    maneuver(f, "reposition", to=(3, 4))
    assert f.state.get("Ksarik").position == (3, 4)


@pytest.mark.rule("MAN-09", "MOV-16")
def test_a_reposition_never_ends_in_another_creatures_square() -> None:
    f = duel([20], bo_at=(3, 3))  # 5 ft of reposition; Bo stands on the square Tess names
    maneuver(f, "reposition", to=(3, 3))
    assert f.state.get("Ksarik").position == (3, 2) and f.state.get("Bo").position == (3, 3)


# ---------------------------------------------------------------- grapples (MAN-07, CON-20, CON-28)
def _round(f: Fight, *who: str) -> None:
    for cid in who:
        f.do(EndTurn(actor=cid))


@pytest.mark.rule("MAN-07", "CF-14")
def test_a_renewed_grapple_lasts_until_the_end_of_the_grapplers_following_turn() -> None:
    # d20 16 + 7 = 23 meets KAC 15 + 8: grappled, then renewed the same way on Tess's next turn
    f = duel([16, 16])
    maneuver(f, "grapple")
    _round(f, "Tess", "Bo", "Ksarik")
    maneuver(f, "grapple")
    f.do(EndTurn(actor="Tess"))
    assert f.state.creature("Ksarik").has("grappled")  # the first grapple's end does not end the renewed one
    _round(f, "Bo", "Ksarik")
    assert f.state.creature("Ksarik").has("grappled")
    f.do(EndTurn(actor="Tess"))
    assert not f.state.creature("Ksarik").has("grappled")


@pytest.mark.rule("MAN-07", "CF-14")
def test_a_failed_renewal_lets_the_grapple_end_with_the_grapplers_turn() -> None:
    f = duel([16, 2])
    maneuver(f, "grapple")
    _round(f, "Tess", "Bo", "Ksarik")
    maneuver(f, "grapple")  # 9 misses 23
    assert f.state.creature("Ksarik").has("grappled")
    f.do(EndTurn(actor="Tess"))
    assert not f.state.creature("Ksarik").has("grappled")


@pytest.mark.rule("MAN-07", "CON-20")
def test_the_grapple_ends_at_once_when_the_grappler_moves_away() -> None:
    f = duel([16])
    maneuver(f, "grapple")
    f.do(Move(actor="Tess", to=(0, 2)))
    assert not f.state.creature("Ksarik").has("grappled") and not f.state.effects_on("Ksarik")


@pytest.mark.rule("MAN-07", "CF-14")
def test_a_dead_grapplers_grapple_ends_when_its_turn_passes() -> None:
    f = duel([16])
    maneuver(f, "grapple")
    _round(f, "Tess", "Bo")
    f.do(Damage(target="Tess", amount=200))
    f.do(EndTurn(actor="Ksarik"))  # round 2: Tess's turn is skipped, and with it the grapple ends
    assert f.state.timeline.turn == "Bo" and not f.state.creature("Ksarik").has("grappled")


def held(*conditions: str, map: str = OPEN, at=(6, 2), **kw: object) -> Fight:
    """Ksarik (acting first) under ``conditions`` given by Tess; Tess stands at 0,0."""
    k = npc(name="Ksarik", **kw)
    k = k.with_state(conditions=tuple(ConditionInstance(name=n, source="Tess") for n in conditions))
    f = fight(
        encounter(
            combatant("Tess", "party", initiative=10, position=(0, 0)),
            combatant("Ksarik", "aliens", k, initiative=40, position=at),
            map=map,
        ),
        [10] * 4,
    )
    f.do(Begin())
    return f


def refusal(f: Fight, cmd: object) -> RuleViolation:
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.do(cmd)  # type: ignore[arg-type]
    assert f.state == before
    return e.value


MOVES = [
    Move(actor="Ksarik", to=(8, 2)),
    GuardedStep(actor="Ksarik", to=(7, 2)),
    Withdraw(actor="Ksarik", to=(8, 2)),
    Run(actor="Ksarik", to=(9, 2)),
    MinimumMove(actor="Ksarik", to=(7, 2)),
]


@pytest.mark.rule("CON-20")
@pytest.mark.parametrize("cmd", MOVES, ids=lambda c: c.type)
def test_moving_while_grappled_is_refused_naming_grappled(cmd: object) -> None:
    e = refusal(held("grappled"), cmd)
    assert e.rule == "CON-20" and "grappled" in str(e)


@pytest.mark.rule("CON-28")
@pytest.mark.parametrize("cmd", MOVES, ids=lambda c: c.type)
def test_moving_while_pinned_is_refused_naming_pinned(cmd: object) -> None:
    e = refusal(held("pinned"), cmd)
    assert e.rule == "CON-28" and "pinned" in str(e)


@pytest.mark.rule("CON-28", "CON-18", "MAN-06")
def test_pinned_carries_every_effect() -> None:
    f = held("pinned", at=(1, 0))
    k = f.state.creature("Ksarik")
    # KAC 15 - 4 pinned (in place of grappled's -2) - 2 flat-footed = 9; no reactions
    assert stats.armor_class(k, "kac").total == 9 and not stats.can_react(k)
    assert stats.attack_bonus(k, k.stat.weapon("claw")).total == 9 - 4
    for cmd in (
        Attack(actor="Ksarik", target="Tess", weapon="claw"),
        FullAttack(actor="Ksarik", target="Tess", weapon="claw"),
        Attack(actor="Ksarik", target="Tess", weapon="spit"),
    ):
        assert refusal(f, cmd).rule == "CON-28"
    # trying to get free stays possible: a grapple against the grappler (d20 10 + 9 - 4 = 15 vs KAC 18 + 8)
    f.do(Escape(actor="Ksarik", method="grapple"))
    assert f.state.creature("Ksarik").has("pinned")


@pytest.mark.rule("CON-20", "GEN-10")
def test_a_grappled_creature_takes_no_two_handed_action() -> None:
    rifle = {"name": "laser rifle", "category": "longarm", "damage": "1d8 F", "range_ft": 120, "attack_bonus": 6}
    f = held("grappled", weapons=[rifle])
    e = refusal(f, Attack(actor="Ksarik", target="Tess", weapon="laser rifle"))
    assert e.rule == "CON-20" and "two-handed" in str(e)


@pytest.mark.rule("CON-26")
def test_a_panicked_creature_only_flees() -> None:
    f = held("panicked")
    for cmd in (Draw(actor="Ksarik", weapon="claw"), Feint(actor="Ksarik", target="Tess", bluff=5)):
        assert refusal(f, cmd).rule == "CON-26"
    f.do(Move(actor="Ksarik", to=(9, 2)))  # running away is what it may do


@pytest.mark.rule("CON-14", "MOV-06")
def test_a_move_too_long_for_an_entangled_creature_names_entangled() -> None:
    # 20 ft is within its 30-ft speed but not within the 15 ft entangled leaves it
    for cmd in (Move(actor="Ksarik", to=(2, 2)), Move(actor="Ksarik", path=((5, 2), (4, 2), (3, 2), (2, 2)))):
        e = refusal(held("entangled"), cmd)
        assert e.rule == "CON-14" and "entangled" in str(e)


@pytest.mark.rule("MOV-18", "MOV-17", "MOV-19")
def test_a_move_too_long_because_costs_compound_names_mov_18() -> None:
    # narrow and difficult: a Medium creature squeezes into difficult terrain, 5 x 2 x 2 = 20 ft a square
    m = "\n".join(["..........", "..........", "...,,,....", ".........."]) + "\n\ndifficult 3,2..5,2\n"
    f = held(map=m, at=(7, 2))
    e = refusal(f, Move(actor="Ksarik", path=((6, 2), (5, 2), (4, 2))))  # 5 + 20 + 20 = 45 ft
    assert e.rule == "MOV-18"
    f.do(Move(actor="Ksarik", path=((6, 2), (5, 2))))  # 25 ft is fine


@pytest.mark.rule("CON-27", "MOV-06")
def test_a_paralyzed_creature_cannot_move_and_the_refusal_says_paralyzed() -> None:
    e = refusal(held("paralyzed"), GuardedStep(actor="Ksarik", to=(7, 2)))
    assert e.rule == "CON-27"


# ---------------------------------------------------------------- hands and grips (GEN-10, MAN-05, ACT-40)
RIFLE = {"name": "laser rifle", "category": "longarm", "damage": "1d8 F", "range_ft": 120, "item_level": 1}
BATON_SPEC = {"name": "tactical baton", "category": "basic_melee", "damage": "1d4 B", "item_level": 1}


def armed(dice: list[int], *held: str, grips: tuple[str, ...] = ()) -> Fight:
    """Tess (acting first) holding ``held``; Ksarik next to her."""
    tess = pc(name="Tess", weapons=[BATON_SPEC, RIFLE])
    extra = {"one_hand_grip": grips} if grips else {}
    t = combatant("Tess", "party", tess, initiative=30, position=(2, 2), in_hand=held, **extra)
    k = combatant("Ksarik", "aliens", npc(name="Ksarik"), initiative=10, position=(3, 2))
    f = fight(encounter(t, k, map=OPEN), dice)
    f.do(Begin())
    return f


@pytest.mark.rule("MAN-05", "GEN-10")
def test_a_grapple_needs_a_free_hand() -> None:
    f = armed([16], "laser rifle")  # the rifle takes both hands
    e = refusal(f, ManeuverCmd(actor="Tess", target="Ksarik", kind="grapple"))
    assert e.rule == "MAN-05" and "free hand" in str(e) and "laser rifle" in str(e)
    f = armed([16], "tactical baton")  # one hand holds the baton, the other is free
    f.do(ManeuverCmd(actor="Tess", target="Ksarik", kind="grapple", weapon=BATON))
    assert f.state.creature("Ksarik").has("grappled")


@pytest.mark.rule("ACT-40", "GEN-10", "MAN-05")
def test_changing_grips_frees_a_hand_and_unwields_the_weapon() -> None:
    f = armed([16], "laser rifle")
    f.do(ChangeGrip(actor="Tess", weapon="laser rifle"))  # swift action: rifle in one hand
    assert f.state.get("Tess").one_hand_grip == ("laser rifle",) and f.state.get("Tess").spent == ("swift",)
    e = refusal(f, Attack(actor="Tess", target="Ksarik", weapon="laser rifle"))
    assert e.rule == "GEN-10" and "not wielded" in str(e)
    f.do(ManeuverCmd(actor="Tess", target="Ksarik", kind="grapple"))  # unarmed, with the free hand
    assert f.state.creature("Ksarik").has("grappled")


@pytest.mark.rule("GEN-10", "ACT-40")
def test_a_two_handed_weapon_needs_both_hands() -> None:
    f = armed([], "laser rifle", "tactical baton", grips=("laser rifle",))
    e = refusal(f, Attack(actor="Tess", target="Ksarik", weapon="laser rifle"))
    assert e.rule == "GEN-10"
    e = refusal(f, ChangeGrip(actor="Tess", weapon="laser rifle"))  # the baton fills the other hand
    assert e.rule == "GEN-10" and "other hand" in str(e)
    f.do(DropItem(actor="Tess", weapon="tactical baton"))
    f.do(ChangeGrip(actor="Tess", weapon="laser rifle"))
    assert f.state.get("Tess").one_hand_grip == ()


@pytest.mark.rule("MAN-10", "MAN-09")
def test_a_full_action_reposition_drags_the_target_as_far_as_it_moved_it() -> None:
    # 27 vs 23: Ksarik is moved 5 ft to 3,1; Tess then moves 5 ft (not the 10 asked) toward 0,2, dragging it
    f = duel([20])
    maneuver(f, "reposition", to=(3, 1), full_action=True, drag_to=(0, 2))
    assert f.state.get("Tess").position == (1, 2) and f.state.get("Ksarik").position == (2, 1)
    assert f.state.get("Tess").spent == ("full",)


@pytest.mark.rule("MAN-10", "MOV-11")
def test_a_drag_stops_where_either_creature_meets_a_wall() -> None:
    f = duel([20], map=OPEN + "\n\nwall 3,1 W\n")  # Ksarik's square after the reposition has a wall to its west
    maneuver(f, "reposition", to=(3, 1), full_action=True, drag_to=(0, 2))
    assert f.state.get("Tess").position == (2, 2) and f.state.get("Ksarik").position == (3, 1)
    with pytest.raises(RuleViolation) as e:
        maneuver(duel([20]), "reposition", to=(3, 1), drag_to=(0, 2))  # a standard action drags nothing
    assert e.value.rule == "MAN-10"


@pytest.mark.rule("CON-26", "CON-34", "GEN-10")
def test_a_panicked_creature_drops_what_it_holds() -> None:
    f = armed([], "tactical baton")
    f.do(AddCondition(target="Tess", condition="panicked"))
    assert f.state.get("Tess").in_hand == ()


@pytest.mark.rule("MAN-07", "MAN-02")
@pytest.mark.parametrize(("kac", "at", "held"), [(15, (4, 2), True), (5, (6, 2), False)])
def test_pushing_a_grappler_out_of_reach_of_the_creature_it_holds_ends_the_grapple(kac, at, held) -> None:
    # Ksarik holds Bo from the start; Tess's bull rush pushes Ksarik 5 ft (KAC 15) or 15 ft (KAC 5) away
    bo = pc(name="Bo").with_state(conditions=(ConditionInstance(name="grappled", source="Ksarik"),))
    f = fight(
        encounter(
            combatant("Tess", "party", initiative=30, position=(2, 2)),
            combatant("Bo", "party", bo, initiative=20, position=(3, 1)),
            combatant("Ksarik", "aliens", npc(name="Ksarik", kac=kac), initiative=10, position=(3, 2)),
            map=OPEN,
        ),
        [20],
    )
    f.do(Begin())
    maneuver(f, "bull_rush")
    assert f.state.get("Ksarik").position == at and f.state.creature("Bo").has("grappled") is held
