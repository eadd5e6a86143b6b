"""Vehicles in a grid fight driven through the engine (VEH, AOO-13): scripted dice, exact numbers.

The enercycle is the bundled basic enercycle: Large (2x2), item level 1, drive 20 ft, full 200 ft, EAC 10, KAC 12,
7 HP (broken at 3), hardness 5, collision 2d4 B DC 8, Piloting +2, attack -1 (-2 at full speed), no cover.
Tess pilots it with Piloting +7 (so +9 with the vehicle); she acts on 20, Ksarik (Ref +4, HP 25) on 10.
"""

from __future__ import annotations

from typing import Any

import pytest

from sftactics.content.vehicles import find_vehicle
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.encounter import narrate
from sftactics.encounter.commands import parse_command
from sftactics.encounter.engine import Fight
from sftactics.encounter.events import replay
from sftactics.encounter.state import Encounter, FightVehicle
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.vehicles.statblock import VehicleWeapon
from sftactics.sf1e.vehicles.state import Vehicle
from tests.builders import npc, pc
from tests.encounter.helpers import combatant, encounter

ROW = "#" + "." * 28 + "#"
MAP = "\n".join(["#" * 30, *[ROW] * 6, "#" * 30])


def cycle(**state: Any) -> Vehicle:
    stat = find_vehicle("basic enercycle")
    assert stat is not None
    v = Vehicle.fresh(stat, "Cycle", heading="E", position=(2, 2), started=True, pilot="Tess")
    return v.with_state(**state) if state else v


def setup(*others: Any, vehicle: Vehicle | None = None, riders: tuple[str, ...] = ("Tess",), **kw: Any) -> Encounter:
    tess = combatant("Tess", "party", pc(skills={"piloting": 7, "acrobatics": 6}), position=(2, 2), initiative=20)
    ks = others or (combatant("Ksarik", "aliens", npc(), position=(20, 5), initiative=10),)
    enc = encounter(tess, *ks, map=MAP, **kw)
    fv = FightVehicle(vehicle=vehicle or cycle(), riders=riders)
    return enc.model_copy(update={"vehicles": {"Cycle": fv}})


def run(enc: Encounter, dice: list[int], *commands: dict[str, Any]) -> tuple[Fight, list[str]]:
    f = Fight(enc, ScriptedDice(dice))
    text: list[str] = []
    for cmd in ({"type": "begin"}, *commands):
        text += narrate.lines(f.do(parse_command(cmd)))
    return f, text


def veh(f: Fight) -> Vehicle:
    return f.state.vehicles["Cycle"].vehicle


@pytest.mark.rule("VEH-15", "VEH-05", "VEH-28")
def test_drive_moves_vehicle_and_rider_then_rider_shoots_with_the_penalty() -> None:
    f, text = run(
        setup(),
        [15, 3],
        {"type": "drive", "actor": "Tess", "to": [6, 2], "heading": "S"},
        {"type": "attack", "actor": "Tess", "target": "Ksarik", "weapon": "tactical semi-auto pistol"},
    )
    v = veh(f)
    assert v.state.position == (6, 2) and v.state.heading == "S" and v.state.moving
    assert f.state.get("Tess").position == (6, 2)
    assert f.state.get("Tess").spent == ("move", "standard")
    out = "\n".join(text)
    assert "Cycle drives 20 ft: 2,2 -> 3,2 -> 4,2 -> 5,2 -> 6,2 (now at 6,2, heading S) [VEH-15]" in out
    assert "-1 attacking from Cycle [VEH-28]" in out
    assert replay(f.start, [e for evs in f.events for e in evs]) == f.state


@pytest.mark.rule("VEH-28")
def test_no_attack_penalty_while_stopped() -> None:
    _f, text = run(
        setup(), [15, 3], {"type": "attack", "actor": "Tess", "target": "Ksarik", "weapon": "tactical semi-auto pistol"}
    )
    assert "attacking from Cycle" not in "\n".join(text)


@pytest.mark.rule("VEH-06", "VEH-07")
def test_race_from_a_dead_stop_fails_and_stalls() -> None:
    # Piloting +7 +2 = +9; d20 5 = 14 against DC 10 + 1 + 5 (dead stop) = 16: the vehicle stalls
    f, text = run(setup(), [5], {"type": "race", "actor": "Tess"})
    v = veh(f)
    assert v.state.position == (2, 2) and not v.state.moving
    assert f.state.get("Tess").spent == ("full",)
    out = "\n".join(text)
    assert "DC 10 + item level 1 + 5 from a dead stop" in out and "stalls" in out


@pytest.mark.rule("VEH-06", "VEH-08", "VEH-10")
def test_race_to_the_wall_stops_before_it_with_an_unsafe_race_check() -> None:
    # d20 10 + 9 = 19 >= 16: 200 ft east, but the wall at x 29 stops it at anchor 27 (125 ft);
    # unsafe race DC 20 + 1 = 21: d20 15 + 9 = 24, it stops short of the wall
    f, text = run(setup(), [10, 15], {"type": "race", "actor": "Tess"})
    v = veh(f)
    assert v.state.position == (27, 2) and f.state.get("Tess").position == (27, 2)
    out = "\n".join(text)
    assert "Cycle races 125 ft" in out and "[VEH-08]" in out and "+2 AC against them [VEH-10]" in out
    assert v.state.hp == 7


@pytest.mark.rule("VEH-08", "VEH-25", "VEH-32")
def test_failed_unsafe_race_crashes_and_wrecks_the_enercycle() -> None:
    # unsafe race d20 2 + 9 = 11 < 21: crash, double collision damage (3 + 4) x 2 = 14 - hardness 5 = 9 >= 7 HP
    f, text = run(setup(), [10, 2, 3, 4], {"type": "race", "actor": "Tess"})
    v = veh(f)
    assert v.state.hp == 0 and v.wrecked and v.state.control == "uncontrolled" and not v.state.moving
    out = "\n".join(text)
    assert "Cycle takes 14 damage from its crash - hardness 5 = 9 [DMG-15]" in out
    assert "wrecked" in out


@pytest.mark.rule("VEH-11", "VEH-12")
def test_ram_a_creature_double_damage_to_it_half_to_the_rammer() -> None:
    ks = combatant("Ksarik", "aliens", npc(), position=(8, 2), initiative=10)
    # race d20 10 + 9 = 19 >= 16; Ksarik Reflex d20 2 + 4 = 6 < 8: hit; 2d4 = 3 + 4 = 7: 14 to Ksarik, 3 to the
    # enercycle (hardness 5: nothing)
    f, text = run(setup(ks), [10, 2, 3, 4], {"type": "ram", "actor": "Tess", "target": "Ksarik"})
    assert f.state.creature("Ksarik").state.hp == 25 - 14
    assert veh(f).state.position == (6, 2) and veh(f).state.hp == 7
    out = "\n".join(text)
    assert "the target takes the roll doubled: 14 [VEH-11]" in out
    assert "Cycle takes half the collision damage, 3 [VEH-11]" in out


@pytest.mark.rule("VEH-11")
def test_ram_refused_when_the_target_is_not_ahead() -> None:
    ks = combatant("Ksarik", "aliens", npc(), position=(8, 6), initiative=10)
    f, _ = run(setup(ks), [])
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.do(parse_command({"type": "ram", "actor": "Tess", "target": "Ksarik"}))
    assert e.value.rule == "VEH-11" and f.state == before


@pytest.mark.rule("VEH-13")
def test_run_over_a_small_creature_reflex_for_half() -> None:
    gob = combatant("Gob", "aliens", npc(size="small"), position=(5, 2), initiative=10)
    # collision 2d4 = 4 + 4 = 8; Gob Reflex d20 10 + 4 = 14 >= 8: half, 4; the enercycle takes half the roll, 4,
    # all stopped by its hardness 5
    f, text = run(setup(gob), [4, 4, 10], {"type": "run_over", "actor": "Tess", "to": [8, 2]})
    assert f.state.creature("Gob").state.hp == 25 - 4
    assert veh(f).state.position == (8, 2) and veh(f).state.hp == 7
    assert f.state.get("Tess").spent == ("full",)
    assert "the damage is rolled once for every creature run over: 8 [VEH-13]" in "\n".join(text)


@pytest.mark.rule("VEH-13")
def test_run_over_goes_around_a_medium_creature_and_is_refused_with_nobody_to_run_over() -> None:
    ks = combatant("Ksarik", "aliens", npc(), position=(5, 2), initiative=10)
    f, _ = run(setup(ks), [])
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.do(parse_command({"type": "run_over", "actor": "Tess", "to": [8, 2]}))
    assert e.value.rule == "VEH-13" and f.state == before  # a Medium creature blocks; the path goes around it


@pytest.mark.rule("VEH-23", "VEH-24")
def test_knocked_out_pilot_leaves_the_vehicle_uncontrolled_and_it_rolls_on() -> None:
    al = combatant("Al", "party", pc(name="Al"), position=(2, 6), initiative=5)
    enc = setup(al, combatant("Ksarik", "aliens", npc(), position=(20, 5), initiative=10))
    f, text = run(
        enc,
        [],
        {"type": "drive", "actor": "Tess", "to": [6, 2]},
        {"type": "damage", "target": "Tess", "amount": 58},
        {"type": "end_turn", "actor": "Tess"},
    )
    v = veh(f)
    assert v.state.control == "uncontrolled" and v.state.initiative == 20
    assert v.state.position == (6, 2)  # it moved this round under its pilot
    # Ksarik's turn, then round 2: at count 20 the enercycle rolls on: 3/4 of 20 = 15 ft, then 3/4 of 15 = 10 ft
    text += narrate.lines(f.do(parse_command({"type": "end_turn", "actor": "Ksarik"})))
    text += narrate.lines(f.do(parse_command({"type": "end_turn", "actor": "Al"})))
    v = veh(f)
    assert v.state.position == (11, 2)
    out = "\n".join(text)
    assert "Tess knocked out: Cycle is uncontrolled; it keeps initiative count 20 [VEH-23]" in out
    assert "20 -> 15 -> 10 ft [VEH-24]" in out


@pytest.mark.rule("AOO-13", "VEH-15", "VEH-32")
def test_driving_out_of_a_threatened_square_provokes_an_attack_on_the_vehicle() -> None:
    ks = combatant("Ksarik", "aliens", npc(), position=(4, 1), initiative=10, acted=True)
    # Ksarik's claw +9: d20 5 = 14 vs the enercycle's KAC 12: hit; 1d6+5 = 3 + 5 = 8 - hardness 5 = 3: 7 -> 4 HP
    f, text = run(setup(ks), [5, 3], {"type": "drive", "actor": "Tess", "to": [2, 5]})
    out = "\n".join(text)
    assert "Cycle provokes an attack of opportunity from Ksarik" in out
    assert veh(f).state.hp == 4 and veh(f).state.position == (2, 5)
    assert f.state.get("Ksarik").reaction_used


@pytest.mark.rule("VEH-32", "ATK-08")
def test_attacks_on_a_vehicle_take_hardness_and_break_it() -> None:
    ks = combatant("Ksarik", "aliens", npc(), position=(4, 1), initiative=30)
    # Ksarik acts first: claw d20 10 + 9 = 19 vs KAC 12; 1d6+5 = 4 + 5 = 9 - 5 = 4: 7 -> 3 HP, broken (threshold 3)
    f, text = run(setup(ks), [10, 4], {"type": "attack", "actor": "Ksarik", "target": "Cycle", "weapon": "claw"})
    assert veh(f).state.hp == 3
    assert "Cycle is broken: -2 AC, collision DC and Piloting modifier; full speed and MPH halved [VEH-32]" in (
        "\n".join(text)
    )


@pytest.mark.rule("VEH-33", "AOO-13")
def test_total_cover_rider_cannot_be_shot_and_does_not_provoke() -> None:
    stat = find_vehicle("basic enercycle")
    assert stat is not None
    armored = Vehicle.fresh(stat.model_copy(update={"cover": "total"}), "Cycle", heading="E", position=(2, 2),
                            started=True, pilot="Tess")  # fmt: skip
    ks = combatant("Ksarik", "aliens", npc(), position=(1, 2), initiative=30, acted=True)
    f, _ = run(setup(ks, vehicle=armored), [15, 3])
    with pytest.raises(RuleViolation) as e:
        f.do(parse_command({"type": "attack", "actor": "Ksarik", "target": "Tess", "weapon": "spit"}))
    assert e.value.rule == "VEH-33"
    f.do(parse_command({"type": "end_turn", "actor": "Ksarik"}))
    events = f.do(parse_command({"type": "attack", "actor": "Tess", "target": "Ksarik",
                                 "weapon": "tactical semi-auto pistol"}))  # fmt: skip
    assert "provokes" not in "\n".join(narrate.lines(events)) and not f.state.get("Ksarik").reaction_used


@pytest.mark.rule("VEH-33")
def test_partial_cover_for_riders() -> None:
    stat = find_vehicle("hovertrike")
    assert stat is not None
    trike = Vehicle.fresh(stat, "Cycle", heading="E", position=(2, 2), started=True, pilot="Tess")
    ks = combatant("Ksarik", "aliens", npc(), position=(10, 2), initiative=30)
    _f, text = run(
        setup(ks, vehicle=trike), [10, 1], {"type": "attack", "actor": "Ksarik", "target": "Tess", "weapon": "spit"}
    )
    assert "Tess has partial cover in its vehicle (VEH-33)" in "\n".join(text)


@pytest.mark.rule("VEH-14", "VEH-21")
def test_board_and_disembark() -> None:
    al = combatant("Al", "party", pc(name="Al", skills={"acrobatics": 6}), position=(4, 2), initiative=15)
    enc = setup(al, combatant("Ksarik", "aliens", npc(), position=(20, 5), initiative=10))
    f, text = run(enc, [], {"type": "end_turn", "actor": "Tess"}, {"type": "board", "actor": "Al", "vehicle": "Cycle"})
    assert f.state.vehicles["Cycle"].riders == ("Tess", "Al")
    assert f.state.get("Al").position == (3, 2)
    with pytest.raises(RuleViolation) as e:
        f.do(parse_command({"type": "move", "actor": "Al", "to": [6, 6]}))
    assert e.value.rule == "VEH-14"
    text += narrate.lines(f.do(parse_command({"type": "disembark", "actor": "Al", "to": [4, 2]})))
    assert f.state.vehicles["Cycle"].riders == ("Tess",) and f.state.get("Al").position == (4, 2)


@pytest.mark.rule("VEH-14")
def test_boarding_a_moving_vehicle_takes_acrobatics_against_5_plus_kac() -> None:
    al = combatant("Al", "party", pc(name="Al", skills={"acrobatics": 6}), position=(4, 2), initiative=25)
    enc = setup(
        al,
        combatant("Ksarik", "aliens", npc(), position=(20, 5), initiative=10),
        vehicle=cycle(moving=True, moved_last_round=True, last_action="drive", last_move_ft=20),
    )
    # Acrobatics d20 8 + 6 = 14 < 5 + KAC 12 = 17, by less than 5: Al stays where he was
    f, text = run(enc, [8], {"type": "board", "actor": "Al", "vehicle": "Cycle"})
    assert f.state.vehicles["Cycle"].riders == ("Tess",) and f.state.get("Al").position == (4, 2)
    assert "failed by less than 5" in "\n".join(text)


@pytest.mark.rule("VEH-05", "VEH-18")
def test_only_the_pilot_drives_and_refusals_change_nothing() -> None:
    al = combatant("Al", "party", pc(name="Al"), position=(3, 3), initiative=25)
    enc = setup(al, combatant("Ksarik", "aliens", npc(), position=(20, 5), initiative=10), riders=("Tess", "Al"))
    f, _ = run(enc, [])
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.do(parse_command({"type": "drive", "actor": "Al", "to": [6, 2], "vehicle": "Cycle"}))
    assert e.value.rule == "VEH-18" and f.state == before


@pytest.mark.rule("VEH-21", "VEH-18")
def test_relinquish_then_take_control() -> None:
    al = combatant("Al", "party", pc(name="Al"), position=(3, 3), initiative=15)
    enc = setup(al, combatant("Ksarik", "aliens", npc(), position=(20, 5), initiative=10), riders=("Tess", "Al"))
    f, text = run(enc, [], {"type": "pilot", "actor": "Tess", "action": "relinquish"},
                  {"type": "end_turn", "actor": "Tess"},
                  {"type": "pilot", "actor": "Al", "action": "take_control"})  # fmt: skip
    v = veh(f)
    assert v.state.control == "pilot" and v.state.pilot == "Al" and v.state.initiative == 15
    assert f.state.get("Tess").spent == ("swift",) and f.state.get("Al").spent == ("move",)
    assert "Tess lets go of Cycle: it is uncontrolled [VEH-21]" in "\n".join(text)


@pytest.mark.rule("VEH-17", "EX-10")
def test_stop_short_after_a_race() -> None:
    enc = setup(vehicle=cycle(moving=True, moved_last_round=True, raced_last_round=True, last_action="race",
                              last_move_ft=200))  # fmt: skip
    # Piloting d20 8 + 9 = 17: 17 rounded down to 15 ft off the coast of its full speed, 200 ft: 185 ft
    f, text = run(enc, [8], {"type": "pilot", "actor": "Tess", "action": "stop_short"})
    assert not veh(f).state.moving
    assert "17 rounded down to 5 ft = 15 ft less: it stops after 185 ft [VEH-17]" in "\n".join(text)
    # on the grid it coasts east and stops before the wall at x 29
    assert veh(f).state.position == (27, 2) and f.state.get("Tess").position == (27, 2)
    assert "Cycle stops early, before square (29, 2) [VEH-17]" in "\n".join(text)


@pytest.mark.rule("VEH-28")
def test_full_speed_penalty_after_racing_last_round() -> None:
    enc = setup(vehicle=cycle(moving=True, moved_last_round=True, raced_last_round=True, last_action="race",
                              last_move_ft=200))  # fmt: skip
    _f, text = run(
        enc, [15, 3], {"type": "attack", "actor": "Tess", "target": "Ksarik", "weapon": "tactical semi-auto pistol"}
    )
    assert "-2 attacking from Cycle at full speed [VEH-28]" in "\n".join(text)


def _gadget_cycle(**state: Any) -> Vehicle:
    stat = find_vehicle("basic enercycle")
    assert stat is not None
    stat = stat.model_copy(update={
        "systems": stat.systems.model_copy(update={"autopilot": 5, "autocontrol": True}),
        "weapons": (
            VehicleWeapon(weapon=Weapon(name="nose laser", category="heavy", damage="1d8 F", range_ft=60),
                          pilot_controlled=True),
            VehicleWeapon(weapon=Weapon(name="tail gun", category="heavy", damage="1d6 P", range_ft=60)),
        ),
    })  # fmt: skip
    v = Vehicle.fresh(stat, "Cycle", heading="E", position=(2, 2), started=True, pilot="Tess")
    return v.with_state(**state) if state else v


@pytest.mark.rule("VEH-20", "VEH-27")
def test_autopilot_drives_toward_its_destination_on_its_count() -> None:
    enc = setup(vehicle=_gadget_cycle())
    f, text = run(enc, [], {"type": "pilot", "actor": "Tess", "action": "engage_autopilot"},
                  {"type": "pilot", "actor": "Tess", "action": "set_destination", "destination": [10, 2]},
                  {"type": "end_turn", "actor": "Tess"})  # fmt: skip
    v = veh(f)
    assert v.state.control == "autopilot" and v.state.position == (6, 2)  # before Ksarik's count 10: 20 ft
    assert "Cycle's autopilot drives toward 10,2 [VEH-27]" in "\n".join(text)
    f.do(parse_command({"type": "end_turn", "actor": "Ksarik"}))
    assert veh(f).state.position == (10, 2) and veh(f).state.destination is None  # round 2, count 20


@pytest.mark.rule("VEH-19", "VEH-26")
def test_autocontrol_repeats_the_last_drive_twice_each_round() -> None:
    enc = setup(vehicle=_gadget_cycle())
    f, text = run(enc, [], {"type": "drive", "actor": "Tess", "to": [6, 2]},
                  {"type": "pilot", "actor": "Tess", "action": "engage_autocontrol"},
                  {"type": "end_turn", "actor": "Tess"}, {"type": "end_turn", "actor": "Ksarik"})  # fmt: skip
    v = veh(f)
    assert v.state.control == "autocontrol" and v.state.position == (14, 2)
    assert "autocontrol repeats the last drive: two drives of 20 ft at heading E [VEH-26]" in "\n".join(text)


@pytest.mark.rule("VEH-29")
def test_mounted_weapons_pilot_fires_only_those_on_the_controls() -> None:
    ks = combatant("Ksarik", "aliens", npc(), position=(12, 2), initiative=10)
    f, text = run(
        setup(ks, vehicle=_gadget_cycle()),
        [15, 6],
        {"type": "fire_vehicle_weapon", "actor": "Tess", "weapon": "nose laser", "target": "Ksarik"},
    )
    assert f.state.creature("Ksarik").state.hp == 25 - 6
    assert "Tess attacks Ksarik with nose laser." in "\n".join(text)
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.do(parse_command({"type": "fire_vehicle_weapon", "actor": "Tess", "weapon": "tail gun", "target": "Ksarik"}))
    assert e.value.rule in ("VEH-29", "ACT-02") and f.state == before


@pytest.mark.rule("VEH-25", "VEH-24", "VEH-32")
def test_uncontrolled_vehicle_crashes_into_a_piloted_one_that_fails_to_dodge() -> None:
    stat = find_vehicle("basic enercycle")
    assert stat is not None
    runaway = cycle(control="uncontrolled", pilot=None, moving=True, moved_last_round=True, last_action="drive",
                    last_move_ft=20, initiative=25)  # fmt: skip
    other = Vehicle.fresh(stat, "Cycle2", heading="N", position=(6, 2), started=True, pilot="Al")
    al = combatant("Al", "party", pc(name="Al", skills={"piloting": 5}), position=(6, 2), initiative=5)
    ks = combatant("Ksarik", "aliens", npc(), position=(20, 5), initiative=10)
    enc = setup(al, ks, vehicle=runaway, riders=())
    tess = enc.combatants["Tess"].model_copy(update={"position": (2, 6)})
    enc = enc.with_combatant(tess)
    enc = enc.model_copy(update={"vehicles": {**enc.vehicles, "Cycle2": FightVehicle(vehicle=other, riders=("Al",))}})
    # at count 25 the runaway rolls 15 ft east and meets Cycle2 after 10 ft; Al's Piloting d20 1 + 5 + 2 = 8 does
    # not beat its collision DC 8: crash, (3 + 4) x 2 = 14 to both, 9 after hardness: both wrecked
    f, text = run(enc, [1, 3, 4])
    a, b = veh(f), f.state.vehicles["Cycle2"].vehicle
    assert a.state.position == (4, 2) and a.wrecked and b.wrecked and b.state.control == "uncontrolled"
    assert "Cycle crashes: double collision damage (14) to itself and to Cycle2 [VEH-25]" in "\n".join(text)


@pytest.mark.rule("VEH-23", "ACT-71")
def test_a_pilot_who_delays_leaves_the_vehicle_uncontrolled_on_the_old_count() -> None:
    f, text = run(setup(), [], {"type": "delay", "actor": "Tess"})
    v = veh(f)
    assert v.state.control == "uncontrolled" and v.state.initiative == 20 and v.state.pilot is None
    assert "Tess delayed: Cycle is uncontrolled; it keeps initiative count 20 [VEH-23]" in "\n".join(text)


@pytest.mark.rule("AOO-13", "VEH-15")
def test_a_rider_shooting_next_to_a_foe_provokes() -> None:
    ks = combatant("Ksarik", "aliens", npc(), position=(1, 2), initiative=10, acted=True)
    # Ksarik's claw first (d20 2: a miss), then Tess's shot (d20 15, 1d6 3)
    f, text = run(
        setup(ks),
        [2, 15, 3],
        {"type": "attack", "actor": "Tess", "target": "Ksarik", "weapon": "tactical semi-auto pistol"},
    )
    assert "Tess provokes an attack of opportunity from Ksarik" in "\n".join(text)
    assert f.state.get("Ksarik").reaction_used


@pytest.mark.rule("VEH-16")
def test_a_vehicle_must_be_started_first() -> None:
    f, _ = run(setup(vehicle=cycle(started=False)), [])
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.do(parse_command({"type": "drive", "actor": "Tess", "to": [6, 2]}))
    assert e.value.rule == "VEH-16" and f.state == before
    f.do(parse_command({"type": "pilot", "actor": "Tess", "action": "start"}))
    f.do(parse_command({"type": "drive", "actor": "Tess", "to": [4, 2]}))  # the standard action spent as a move
    assert veh(f).state.position == (4, 2) and f.state.get("Tess").spent == ("move", "standard")


@pytest.mark.rule("VEH-22")
def test_hover_after_a_drive_takes_no_action() -> None:
    f, text = run(setup(), [], {"type": "drive", "actor": "Tess", "to": [6, 2]},
                  {"type": "pilot", "actor": "Tess", "action": "hover"})  # fmt: skip
    assert not veh(f).state.moving and f.state.get("Tess").spent == ("move",)
    assert "Cycle hovers where it is (stopping after a drive takes no action) [VEH-22]" in "\n".join(text)


@pytest.mark.rule("VEH-09", "VEH-04")
def test_after_a_race_the_pilot_races_drives_stops_short_or_relinquishes() -> None:
    gob = combatant("Gob", "aliens", npc(size="small"), position=(5, 2), initiative=10)
    enc = setup(gob, vehicle=cycle(moving=True, moved_last_round=True, raced_last_round=True, last_action="race",
                                   last_move_ft=200))  # fmt: skip
    f, _ = run(enc, [])
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.do(parse_command({"type": "run_over", "actor": "Tess", "to": [8, 2]}))
    assert e.value.rule == "VEH-09" and f.state == before


@pytest.mark.rule("VEH-32")
def test_gm_damage_to_a_vehicle_wrecks_it_and_it_stops() -> None:
    f, text = run(setup(vehicle=cycle(moving=True, moved_last_round=True, last_action="drive", last_move_ft=20)), [],
                  {"type": "damage", "target": "Cycle", "amount": 12})  # fmt: skip
    v = veh(f)
    assert v.state.hp == 0 and v.wrecked and not v.state.moving and v.state.control == "uncontrolled"
    out = "\n".join(text)
    assert "Cycle takes 12 damage from the GM - hardness 5 = 7 [DMG-15]" in out and "wrecked" in out
    with pytest.raises(RuleViolation) as e:
        f.do(parse_command({"type": "drive", "actor": "Tess", "to": [6, 2]}))
    assert e.value.rule in ("VEH-18", "VEH-32")


@pytest.mark.rule("VEH-30", "VEH-28", "VEH-10")
def test_drive_by_a_passenger_shoots_with_the_full_speed_penalty_after_the_pilot_races() -> None:
    al = combatant("Al", "party", pc(name="Al"), position=(3, 3), initiative=15)
    ks = combatant("Ksarik", "aliens", npc(), position=(20, 5), initiative=10)
    wide = "\n".join(["#" * 50, *["#" + "." * 48 + "#"] * 6, "#" * 50])
    enc = setup(al, ks, riders=("Tess", "Al")).model_copy(update={"map": wide})
    # race d20 10 + 9 = 19 >= 16: 200 ft east, still moving; Al then shoots: d20 15, 1d6 3
    f, text = run(
        enc,
        [10, 15, 3],
        {"type": "race", "actor": "Tess"},
        {"type": "end_turn", "actor": "Tess"},
        {"type": "attack", "actor": "Al", "target": "Ksarik", "weapon": "tactical semi-auto pistol"},
    )
    assert f.state.get("Al").position == (43, 3) and veh(f).state.moving
    assert "-2 attacking from Cycle at full speed [VEH-28]" in "\n".join(text)


@pytest.mark.rule("VEH-15", "VEH-28")
def test_the_simple_policy_drives_closer_and_shoots_from_the_vehicle() -> None:
    from sftactics.dice.source import SeededDice
    from sftactics.encounter.policy import simple

    f = Fight(setup(), SeededDice(1))
    f.do(parse_command({"type": "begin"}))
    simple(f, "Tess")  # Ksarik is 95 ft away (4 increments of the pistol's 30 ft); 5 ft east makes it 3
    text = "\n".join(narrate.lines([e for evs in f.events for e in evs]))
    assert veh(f).state.position == (3, 2) and "Cycle drives 5 ft" in text
    assert "attacking from Cycle [VEH-28]" in text and f.state.timeline.turn != "Tess"
