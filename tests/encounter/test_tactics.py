"""Maneuvers, covering and harrying fire, feints and the coup de grace in a fight."""

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.commands import (
    Attack,
    Begin,
    CoupDeGrace,
    CoveringFire,
    EndTurn,
    Escape,
    Feint,
    HarryingFire,
    ManeuverCmd,
    RemoveDirtyTrick,
)
from sftactics.sf1e.state import ConditionInstance
from tests.builders import npc, pc
from tests.encounter.helpers import combatant, encounter, fight

OPEN = "\n".join(["." * 10] * 6)


def duel(dice: list[int], *, tess_at: tuple[int, int] = (2, 2), foe_at: tuple[int, int] = (3, 2), **kw: object):
    t = combatant("Tess", "party", initiative=30, position=tess_at)
    bo = combatant("Bo", "party", pc(name="Bo"), initiative=20, position=(0, 5))
    k = combatant("Ksarik", "aliens", npc(name="Ksarik", **kw), initiative=10, position=foe_at)
    f = fight(encounter(t, bo, k, map=OPEN), dice)
    f.do(Begin())
    return f


@pytest.mark.rule("MAN-01", "MAN-05", "MAN-07", "ACT-13")
def test_a_grapple_lasts_until_the_end_of_the_grapplers_next_turn() -> None:
    # baton +7 vs KAC 15 + 8 = 23: d20 16 -> 23 grapples (not a pin: 28 needed)
    f = duel([16])
    f.do(ManeuverCmd(actor="Tess", target="Ksarik", kind="grapple", weapon="baton"))
    assert f.state.creature("Ksarik").has("grappled") and f.state.get("Tess").spent == ("standard",)
    for who in ("Tess", "Bo", "Ksarik"):
        f.do(EndTurn(actor=who))
    assert f.state.creature("Ksarik").has("grappled")  # Tess's next turn has begun, not ended
    f.do(EndTurn(actor="Tess"))
    assert not f.state.creature("Ksarik").has("grappled")


@pytest.mark.rule("MAN-06")
def test_a_grapple_beating_kac_plus_13_pins() -> None:
    f = duel([20])  # 27 vs 28: no pin... natural 20 is a success, not a pin
    f.do(ManeuverCmd(actor="Tess", target="Ksarik", kind="grapple", weapon="baton"))
    assert f.state.creature("Ksarik").has("grappled") and not f.state.creature("Ksarik").has("pinned")
    f2 = duel([20], kac=10)  # 27 vs 23 pins
    f2.do(ManeuverCmd(actor="Tess", target="Ksarik", kind="grapple", weapon="baton"))
    assert f2.state.creature("Ksarik").has("pinned")


@pytest.mark.rule("MAN-08")
def test_escape_by_grappling_back() -> None:
    f = duel([16, 20])
    f.do(ManeuverCmd(actor="Tess", target="Ksarik", kind="grapple", weapon="baton"))
    f.do(EndTurn(actor="Tess"))
    f.do(EndTurn(actor="Bo"))
    f.do(Escape(actor="Ksarik", method="grapple"))  # natural 20
    assert not f.state.creature("Ksarik").has("grappled") and f.state.creature("Tess").has("grappled")


@pytest.mark.rule("MAN-02")
def test_bull_rush_pushes_directly_away() -> None:
    f = duel([20])  # 27 vs 23: 5 ft + 0 extra steps
    f.do(ManeuverCmd(actor="Tess", target="Ksarik", kind="bull_rush", weapon="baton"))
    assert f.state.get("Ksarik").position == (4, 2)


@pytest.mark.rule("MAN-12")
def test_trip_knocks_prone() -> None:
    f = duel([18])
    f.do(ManeuverCmd(actor="Tess", target="Ksarik", kind="trip", weapon="baton"))
    assert f.state.creature("Ksarik").has("prone")


@pytest.mark.rule("MAN-03")
def test_dirty_trick_lasts_rounds_and_can_be_shaken_off() -> None:
    f = duel([17])  # 24 vs 23: 1 round
    f.do(ManeuverCmd(actor="Tess", target="Ksarik", kind="dirty_trick", weapon="baton", condition="off-target"))
    assert f.state.creature("Ksarik").has("off-target")
    f.do(EndTurn(actor="Tess"))
    f.do(EndTurn(actor="Bo"))
    f.do(RemoveDirtyTrick(actor="Ksarik"))
    assert not f.state.creature("Ksarik").has("off-target")


@pytest.mark.rule("MAN-01")
def test_a_maneuver_out_of_reach_is_refused() -> None:
    f = duel([], foe_at=(6, 2))
    with pytest.raises(RuleViolation) as e:
        f.do(ManeuverCmd(actor="Tess", target="Ksarik", kind="trip", weapon="baton"))
    assert e.value.rule == "MAN-01" and f.state.get("Tess").spent == ()


@pytest.mark.rule("ACT-15", "BON-05")
def test_covering_fire_protects_the_ally_once() -> None:
    # Tess (pistol +6) hits AC 15 with 9; the ksarik's next attack on Bo meets KAC 18 + 2 circumstance
    f = duel([9, 12, 12], foe_at=(6, 4))
    f.do(CoveringFire(actor="Tess", ally="Bo", weapon="semi-auto"))
    f.do(EndTurn(actor="Tess"))
    f.do(EndTurn(actor="Bo"))
    events = f.do(Attack(actor="Ksarik", target="Bo", weapon="spit"))
    text = "\n".join(next(e for e in events if e.type == "attack_made").lines)
    assert "+2 circumstance covering fire [ACT-15]" in text
    assert not [e for e in f.state.effects if "covering_fire" in e.flags]


@pytest.mark.rule("ACT-19")
def test_harrying_fire_helps_the_next_ally() -> None:
    f = duel([9, 12, 3], foe_at=(6, 4))
    f.do(HarryingFire(actor="Tess", target="Ksarik", weapon="semi-auto"))
    f.do(EndTurn(actor="Tess"))
    events = f.do(Attack(actor="Bo", target="Ksarik", weapon="semi-auto"))
    text = "\n".join(next(e for e in events if e.type == "attack_made").lines)
    assert "+2 circumstance harrying fire [ACT-19]" in text


@pytest.mark.rule("ACT-17", "MOD-20")
def test_a_feint_leaves_the_target_flat_footed_against_the_feinter() -> None:
    # Bluff +10 vs DC max(10 + Sense Motive (Wis +1) = 11, 15 + 3 = 18): d20 8 -> 18 succeeds
    f = duel([8, 14, 2])
    f.do(Feint(actor="Tess", target="Ksarik", bluff=10))
    f.do(EndTurn(actor="Tess"))
    f.do(EndTurn(actor="Bo"))
    f.do(EndTurn(actor="Ksarik"))
    events = f.do(Attack(actor="Tess", target="Ksarik", weapon="baton"))
    attack = next(e for e in events if e.type == "attack_made")
    assert "flat-footed against the feinter" in "\n".join(attack.lines) and attack.hit


@pytest.mark.rule("ACT-51", "MOD-19")
def test_coup_de_grace_on_a_helpless_foe() -> None:
    helpless = npc(name="Ksarik").with_state(conditions=(ConditionInstance(name="asleep"),))
    t = combatant("Tess", "party", initiative=30, position=(2, 2))
    k = combatant("Ksarik", "aliens", helpless, initiative=10, position=(3, 2))
    f = fight(encounter(t, k, map=OPEN), [4, 4, 2])
    f.do(Begin())
    f.do(CoupDeGrace(actor="Tess", target="Ksarik", weapon="baton"))
    # automatic critical: (4 + 3) x 2 = 14 of 25 HP; the ksarik then fails its Fortitude save (2 + 4 < 14): dead
    k2 = f.state.creature("Ksarik")
    assert k2.has("dead")


@pytest.mark.rule("ACT-22", "ACT-38", "MAN-08", "MAN-03", "CON-02")
def test_other_actions_cost_what_the_rules_say() -> None:
    # escaping a grapple by grappling back is a standard action; shaking off a dirty trick a move action
    f = duel([16, 2])
    f.do(ManeuverCmd(actor="Tess", target="Ksarik", kind="grapple", weapon="baton"))
    f.do(EndTurn(actor="Tess"))
    f.do(EndTurn(actor="Bo"))
    f.do(Escape(actor="Ksarik", method="grapple"))
    assert f.state.get("Ksarik").spent == ("standard",)
    f2 = duel([17])
    f2.do(ManeuverCmd(actor="Tess", target="Ksarik", kind="dirty_trick", weapon="baton", condition="shaken"))
    f2.do(EndTurn(actor="Tess"))
    f2.do(EndTurn(actor="Bo"))
    f2.do(RemoveDirtyTrick(actor="Ksarik"))
    assert f2.state.get("Ksarik").spent == ("move",)
