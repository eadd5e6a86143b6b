"""Maneuvers by the book in a fight: forced movement stops at obstacles, grapples end and bind as the rules say,
hands are counted, and refusals name the rule that forbids (issue 14: MAN-02, MAN-07, MAN-09, CON-20, CON-28,
GEN-10...)."""

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.commands import Begin, ManeuverCmd
from sftactics.encounter.engine import Fight
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
