"""Movement by the book: moving blind (CON-03), the surprise round's single action (CF-09, CF-17), squeezing
(MOV-19), minimum movement (ACT-56) and where a charge ends (ACT-50)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.commands import (
    Begin,
    Charge,
    EndTurn,
    FullAttack,
    GuardedStep,
    MinimumMove,
    Move,
    Run,
    Withdraw,
)
from sftactics.encounter.engine import Fight
from sftactics.encounter.events import Event
from sftactics.io.scenario import load_scenario
from sftactics.sf1e import stats
from sftactics.sim.fight import SimFight
from sftactics.sim.kernel.model import unsupported
from sftactics.sim.policies import make_policy
from tests.builders import npc, pc, with_conditions
from tests.encounter.helpers import combatant, encounter, fight
from tests.sim.conftest import write

OPEN = "\n".join(["." * 12] * 8)
GOBLIN = npc(name="Goblin", weapons=[{"name": "claw", "category": "natural", "damage": "1d4 S", "attack_bonus": 4}])


def _map(**rows: str) -> str:
    """OPEN with some rows replaced (``r3="..."``)."""
    lines = OPEN.splitlines()
    for key, text in rows.items():
        lines[int(key[1:])] = text
    return "\n".join(lines)


def duel(dice: list[int], *, tess: Any = None, at: tuple[int, int] = (0, 3), goblin: tuple[int, int] = (11, 7),
         map: str = OPEN, **kw: Any) -> Fight:  # fmt: skip
    """Tess (first, init 30) and a goblin on a map; the fight has begun and it is Tess's turn."""
    cs = [combatant("Tess", "party", tess, initiative=30, position=at),
          combatant("Goblin", "aliens", GOBLIN, initiative=5, position=goblin, **kw)]  # fmt: skip
    f = fight(encounter(*cs, map=map), dice)
    f.do(Begin())
    assert f.state.timeline.turn == "Tess"
    return f


def checks(events: list[Event]) -> list[Any]:
    return [e for e in events if e.type == "check_made"]


def refused(f: Fight, cmd: Any) -> RuleViolation:
    before = f.state.model_dump_json()
    with pytest.raises(RuleViolation) as e:
        f.do(cmd)
    assert f.state.model_dump_json() == before
    return e.value


# ================================================================ CON-03 moving blind
BLIND = with_conditions(pc(name="Tess"), "blinded")  # speed 30, no Acrobatics entry: untrained Dex +2, -4 blinded


@pytest.mark.rule("CON-03")
def test_a_blinded_creature_moving_faster_than_half_speed_falls_prone_on_a_failed_acrobatics_check() -> None:
    f = duel([11], tess=BLIND)  # d20 11 + 2 (Dex, untrained) - 4 (blinded) = 9 < DC 10
    events = f.do(Move(actor="Tess", to=(4, 3)))  # 20 ft > 15 ft
    (check,) = checks(events)
    text = "\n".join(check.lines)
    assert not check.success and "DC 10" in text and "-4 blinded" in text and "d20 11 -2 = 9" in text
    tess = f.state.get("Tess")
    assert tess.position == (0, 3) and tess.creature.has("prone") and tess.spent == ("move",)
    assert [e for e in events if e.type == "moved"] == []
    assert f.dice.history[-1].purpose == "Tess Acrobatics (moving blind)"


@pytest.mark.rule("CON-03")
def test_a_blinded_creature_that_makes_the_check_moves() -> None:
    f = duel([12], tess=BLIND)  # 12 + 2 - 4 = 10: success
    events = f.do(Move(actor="Tess", to=(4, 3)))
    assert checks(events)[0].success
    tess = f.state.get("Tess")
    assert tess.position == (4, 3) and not tess.creature.has("prone")


@pytest.mark.rule("CON-03")
def test_half_speed_or_less_needs_no_check_and_blindsight_needs_none_at_all() -> None:
    f = duel([], tess=BLIND)  # no dice scripted: a roll would fail the test
    assert checks(f.do(Move(actor="Tess", to=(3, 3)))) == []  # 15 ft: half of 30
    seer = with_conditions(pc(name="Tess", senses={"blindsight (vibration)": 30}), "blinded")
    g = duel([], tess=seer)
    assert checks(g.do(Move(actor="Tess", to=(6, 3)))) == []
    assert g.state.get("Tess").position == (6, 3)


@pytest.mark.rule("CON-03")
def test_a_blinded_charge_or_run_rolls_too() -> None:
    f = duel([3], tess=BLIND)
    events = f.do(Run(actor="Tess", to=(8, 3)))
    assert not checks(events)[0].success and f.state.get("Tess").position == (0, 3)
    assert f.state.get("Tess").spent == ("full",)


@pytest.mark.rule("CON-03", "ACT-50")
def test_a_blinded_creature_cannot_charge_without_line_of_sight() -> None:
    f = duel([], tess=BLIND, goblin=(6, 3))
    e = refused(f, Charge(actor="Tess", target="Goblin", weapon="tactical baton"))
    assert e.rule == "ACT-50" and "line of sight" in str(e)


@pytest.mark.rule("CON-03")
def test_the_simulation_policies_roll_the_blind_move_check(tmp_path: Path) -> None:
    room = "##############\n" + "#............#\n" * 5 + "##############"
    path = write(tmp_path, "blind", [
        "{id: A, side: a, statblock: hobbe-hound, at: [1, 3], initiative: 30, state: {conditions: [{name: blinded}]}}",
        "{id: B, side: b, statblock: hobbe-hound, at: [12, 3], initiative: 1}",
    ], room)  # fmt: skip
    enc = load_scenario(path)
    assert any("blinded" in why for why in unsupported(enc))  # the compiled kernel leaves it to the engine
    for policy in ("simple", "tactical"):
        sim = SimFight(enc, 3, keep_log=True)
        sim.do(Begin())
        make_policy(policy)(sim, "A")
        rolled = [d.purpose for d in sim.dice.history]
        assert "A Acrobatics (moving blind)" in rolled, policy
        made = [e for batch in sim.events for e in checks(batch)]
        assert made and "CON-03" in made[0].what


# ================================================================ CF-09, CF-17 the surprise round
def ambush(dice: list[int] | None = None, *, tess: Any = None) -> Fight:
    """Tess is aware, the goblin is not: a surprise round in which Tess acts."""
    f = duel(dice or [], tess=tess, goblin=(6, 3), aware=False)
    assert f.state.timeline.phase == "surprise"
    return f


@pytest.mark.rule("CF-09", "CF-17", "ACT-50")
@pytest.mark.parametrize(
    "cmd",
    [
        Charge(actor="Tess", target="Goblin", weapon="tactical baton"),
        Charge(actor="Tess", target="Goblin", weapon="tactical baton", to=(5, 3)),
        Run(actor="Tess", to=(5, 3)),
        Withdraw(actor="Tess", to=(1, 3)),
        MinimumMove(actor="Tess", to=(1, 3)),
        FullAttack(actor="Tess", target="Goblin", weapon="tactical semi-auto pistol"),
    ],
)
def test_no_full_action_in_the_surprise_round(cmd: Any) -> None:
    e = refused(ambush(), cmd)
    assert e.rule == "CF-09" and "surprise round" in str(e)


@pytest.mark.rule("CF-09", "CF-17")
def test_the_surprise_round_refusal_comes_before_the_weapons_own() -> None:
    # an unwieldy weapon cannot full attack anyway (ACT-53), but the surprise round is the first reason
    heavy = pc(name="Tess", weapons=[{"name": "doshko", "category": "advanced_melee", "damage": "1d10 P",
                                      "unwieldy": True}])  # fmt: skip
    e = refused(ambush(tess=heavy), FullAttack(actor="Tess", target="Goblin", weapon="doshko"))
    assert e.rule == "CF-09"


@pytest.mark.rule("CF-09")
def test_the_surprise_round_gives_one_move_or_one_standard_action_plus_a_swift_one() -> None:
    f = ambush()
    f.do(Move(actor="Tess", to=(2, 3)))
    assert refused(f, Move(actor="Tess", to=(3, 3))).rule == "CF-09"
    f.do({"type": "drop_prone", "actor": "Tess"})  # the swift action is still there
    assert f.state.get("Tess").spent == ("move", "swift")


# ================================================================ MOV-19 squeezing
# a crawlspace (4,3) to (0,3), walled in above and below; Tess starts just outside it, at 5,3
CRAWL = _map(r2="#####.......", r3=",,,,,.......", r4="#####.......")


@pytest.mark.rule("MOV-19", "CON-14")
def test_a_creature_in_a_narrow_space_takes_entangleds_penalties_and_loses_them_outside() -> None:
    f = duel([], at=(5, 3), map=CRAWL)
    tess = f.state.creature("Tess")
    assert (stats.armor_class(tess, "kac").total, stats.save_bonus(tess, "ref").total) == (18, 3)
    f.do(Move(actor="Tess", to=(4, 3)))  # into the crawlspace: 10 ft
    tess = f.state.creature("Tess")
    assert stats.armor_class(tess, "kac").total == 16 and stats.armor_class(tess, "eac").total == 15
    assert stats.save_bonus(tess, "ref").total == 1
    baton = tess.stat.weapon("tactical baton")
    assert stats.attack_bonus(tess, baton).total == 7 - 2
    assert "-2 entangled [MOV-19]" in stats.armor_class(tess, "kac").describe()
    f.do(EndTurn(actor="Tess"))
    f.do(EndTurn(actor="Goblin"))
    f.do(Move(actor="Tess", to=(5, 4)))
    tess = f.state.creature("Tess")
    assert stats.armor_class(tess, "kac").total == 18 and stats.save_bonus(tess, "ref").total == 3


@pytest.mark.rule("MOV-19", "CON-14", "BON-12")
def test_squeezing_while_entangled_counts_entangled_once() -> None:
    f = duel([], tess=with_conditions(pc(name="Tess"), "entangled"), at=(5, 3), map=CRAWL)
    f.do(Move(actor="Tess", to=(4, 3)))
    assert stats.armor_class(f.state.creature("Tess"), "kac").total == 16


@pytest.mark.rule("MOV-19")
def test_squeezing_costs_double_and_an_over_long_squeeze_is_refused_naming_mov_19() -> None:
    f = duel([], at=(5, 3), map=CRAWL)
    e = refused(f, Move(actor="Tess", path=((4, 3), (3, 3), (2, 3), (1, 3))))  # 4 narrow squares: 40 ft > 30
    assert e.rule == "MOV-19" and "40 ft" in str(e)
    e2 = refused(f, Move(actor="Tess", to=(1, 3)))  # the only way squeezes through 4 squares
    assert e2.rule == "MOV-19"
    f.do(Move(actor="Tess", path=((4, 3), (3, 3), (2, 3))))  # 3 squares at double cost: 30 ft
    assert f.state.get("Tess").position == (2, 3)


@pytest.mark.rule("MOV-19", "ACT-54", "ACT-50")
def test_no_running_or_charging_into_or_out_of_a_narrow_space() -> None:
    gap = _map(r2="....,.......")
    f = duel([], at=(0, 2), map=gap)
    along = tuple((x, 2) for x in range(1, 9))
    assert refused(f, Run(actor="Tess", path=along)).rule == "MOV-19"
    g = duel([], at=(0, 2), goblin=(9, 2), map=gap)
    assert refused(g, Charge(actor="Tess", target="Goblin", weapon="tactical baton")).rule == "ACT-50"
    h = duel([], at=(4, 3), map=CRAWL)  # starts squeezed
    e = refused(h, Run(actor="Tess", path=((5, 3), (6, 3), (7, 3))))
    assert e.rule == "MOV-19" and "squeezing" in str(e)


@pytest.mark.rule("MOV-19")
def test_the_compiled_kernel_leaves_narrow_squares_to_the_engine() -> None:
    cs = [combatant("Tess", "party", position=(5, 3)), combatant("Goblin", "aliens", GOBLIN, position=(11, 7))]
    assert any("MOV-19" in why for why in unsupported(encounter(*cs, map=CRAWL)))
    assert not any("MOV-19" in why for why in unsupported(encounter(*cs, map=OPEN)))


# ================================================================ ACT-56 minimum movement
MUD = _map(r2="~~~.........", r3="~~~.........")


@pytest.mark.rule("ACT-56", "MOV-20", "MOV-17")
@pytest.mark.parametrize("to", [(1, 3), (1, 2), (0, 2)])
def test_minimum_movement_enters_difficult_terrain_and_moves_diagonally_whatever_it_costs(to: Any) -> None:
    slow = with_conditions(pc(name="Tess"), "overburdened")  # speed 5 ft
    f = duel([], tess=slow, at=(0, 3), map=MUD)
    assert stats.speed(f.state.creature("Tess")).total == 5
    assert refused(f, Move(actor="Tess", to=to)).rule in ("ACT-35", "MOV-17")  # 10 or 15 ft: too far for a move
    f.do(MinimumMove(actor="Tess", to=to))
    tess = f.state.get("Tess")
    assert tess.position == to and tess.spent == ("full",)


@pytest.mark.rule("ACT-56")
def test_minimum_movement_is_one_step_and_not_through_walls() -> None:
    f = duel([], at=(0, 3), map=_map(r2="#..........."))
    assert refused(f, MinimumMove(actor="Tess", to=(2, 3))).rule == "ACT-56"
    assert refused(f, MinimumMove(actor="Tess", to=(0, 2))).rule == "MOV-01"


# ================================================================ ACT-50 the charge's square and path
def charger(dice: list[int] | None = None, *, goblin: tuple[int, int] = (6, 3), map: str = OPEN, **kw: Any) -> Fight:
    return duel(dice or [], at=(0, 3), goblin=goblin, map=map, **kw)


@pytest.mark.rule("ACT-50")
def test_the_charge_names_the_square_to_attack_from_and_the_path() -> None:
    # the goblin at 6,1 diagonally up and right: 5,2 is one of the nearest squares to attack it from
    f = charger([14, 3], goblin=(6, 1))
    f.do(Charge(actor="Tess", target="Goblin", weapon="tactical baton", to=(5, 2),
                path=((1, 3), (2, 3), (3, 3), (4, 3), (5, 2))))  # fmt: skip
    assert f.state.get("Tess").position == (5, 2)
    g = charger([14, 3], goblin=(6, 1))
    g.do(Charge(actor="Tess", target="Goblin", weapon="tactical baton", to=(5, 2)))
    assert g.state.get("Tess").position == (5, 2)


@pytest.mark.rule("ACT-50")
def test_without_a_square_the_charge_still_picks_the_nearest_one_straight_at_the_target() -> None:
    f = charger([14, 3])
    f.do(Charge(actor="Tess", target="Goblin", weapon="tactical baton"))
    assert f.state.get("Tess").position == (5, 3)


@pytest.mark.rule("ACT-50", "MOV-17", "MOV-13")
@pytest.mark.parametrize(
    ("kw", "map", "goblin", "ally", "words"),
    [
        ({"to": (4, 3)}, OPEN, (6, 3), None, "could not attack"),
        ({"to": (7, 3)}, OPEN, (6, 3), None, "nearest square"),  # the far side: farther than 5,3
        ({"path": ((1, 2), (2, 2), (3, 2), (4, 2), (5, 3))}, OPEN, (6, 3), None, "straight"),  # a detour
        ({"to": (5, 3)}, _map(r3="..~........."), (6, 3), None, "blocks or slows"),  # difficult terrain
        ({"path": ((1, 3), (2, 3), (3, 3), (4, 3), (5, 3))}, _map(r3="..~........."), (6, 3), None, "clear"),
        ({"to": (5, 3)}, OPEN, (6, 3), (3, 3), "creature"),  # an ally in the way
        ({"to": (1, 3)}, OPEN, (2, 3), None, "10 to 60 ft"),  # too short: 5 ft
    ],
)
def test_an_illegal_charge_is_refused_naming_act_50(kw: dict[str, Any], map: str, goblin: Any, ally: Any,
                                                    words: str) -> None:  # fmt: skip
    cs = [combatant("Tess", "party", initiative=30, position=(0, 3)),
          combatant("Goblin", "aliens", GOBLIN, initiative=5, position=goblin)]  # fmt: skip
    if ally is not None:
        cs.append(combatant("Bo", "party", pc(name="Bo"), initiative=1, position=ally))
    f = fight(encounter(*cs, map=map), [14, 3])
    f.do(Begin())
    e = refused(f, Charge(actor="Tess", target="Goblin", weapon="tactical baton", **kw))
    assert e.rule == "ACT-50" and words in str(e), str(e)


@pytest.mark.rule("ACT-50")
def test_a_charge_longer_than_twice_the_speed_is_refused() -> None:
    f = duel([], tess=with_conditions(pc(name="Tess"), "encumbered"), at=(0, 3), goblin=(11, 3))  # speed 20
    e = refused(f, Charge(actor="Tess", target="Goblin", weapon="tactical baton", to=(10, 3)))
    assert e.rule == "ACT-50" and "10 to 40 ft" in str(e)


@pytest.mark.rule("ACT-50", "MOV-10", "MOV-04")
def test_a_large_creature_charges_as_far_as_its_space_moves() -> None:
    """A Large charger moves its space: from 0,3 to 6,3 (next to Tess at 8,3) is 30 ft, though the gap between the
    two spaces' nearest squares is only 25 ft. The straight line is the space's move, so the path matches it and
    the charge is made (the engine once measured the gap, and refused every charge of a big creature)."""
    ogre = npc(name="Ogre", size="large", reach_ft=5,
               weapons=[{"name": "club", "category": "basic_melee", "damage": "1d8 B", "attack_bonus": 9}])  # fmt: skip
    cs = [combatant("Ogre", "aliens", ogre, initiative=30, position=(0, 3)),
          combatant("Tess", "party", initiative=5, position=(8, 3))]  # fmt: skip
    f = fight(encounter(*cs, map=OPEN), [14, 3])
    f.do(Begin())
    events = f.do(Charge(actor="Ogre", target="Tess", weapon="club"))
    moved = next(e for e in events if e.type == "moved")
    assert (moved.kind, moved.cost_ft, moved.path[-1]) == ("charge", 30, (6, 3))
    attack = next(e for e in events if e.type == "attack_made")
    assert (attack.attacker, attack.target, attack.hit) == ("Ogre", "Tess", True)
    assert any(t.label == "charge" and t.value == -2 and t.rule == "ACT-50" for t in attack.result.roll.bonus.terms)


@pytest.mark.rule("ACT-50")
def test_a_large_charger_is_held_to_twice_its_speed_by_its_space_s_move() -> None:
    """The same Ogre (speed 30) 13 squares from Tess: its space would move 60 ft, the most a charge allows; one
    square farther it would move 65 ft (a gap of 60 ft), and the charge is refused."""
    ogre = npc(name="Ogre", size="large", reach_ft=5,
               weapons=[{"name": "club", "category": "basic_melee", "damage": "1d8 B", "attack_bonus": 9}])  # fmt: skip
    wide = "\n".join(["." * 16] * 8)
    for tess, ok in (((14, 3), True), ((15, 3), False)):
        cs = [combatant("Ogre", "aliens", ogre, initiative=30, position=(0, 3)),
              combatant("Tess", "party", initiative=5, position=tess)]  # fmt: skip
        f = fight(encounter(*cs, map=wide), [14, 3])
        f.do(Begin())
        cmd = Charge(actor="Ogre", target="Tess", weapon="club")
        if ok:
            f.do(cmd)
            assert f.state.get("Ogre").position == (12, 3)
        else:
            e = refused(f, cmd)
            assert e.rule == "ACT-50" and "not 65 ft" in str(e), str(e)


@pytest.mark.rule("MOV-19", "ACT-33")
def test_a_guarded_step_into_a_narrow_square_names_squeezing() -> None:
    f = duel([], at=(5, 3), map=CRAWL)
    assert refused(f, GuardedStep(actor="Tess", to=(4, 3))).rule == "MOV-19"
