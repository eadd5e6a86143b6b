import json

import pytest

from sftactics.core.errors import FileFormatError
from sftactics.io.foundry_vehicles import load_foundry_vehicle, vehicle_from_foundry
from sftactics.sf1e.vehicles import state as vs
from sftactics.sf1e.vehicles.options import VehicleOptions
from sftactics.sf1e.vehicles.statblock import VehicleStat
from sftactics.sf1e.vehicles.state import Vehicle, damage_vehicle
from tests.sf1e.vehicles.helpers import DATA, buggy_stat, enercycle_stat, foundry_stat, stat


@pytest.mark.rule("VEH-02")
def test_enercycle_from_foundry() -> None:
    imp = load_foundry_vehicle(DATA / "basic_enercycle.json")
    s = imp.stat
    assert (s.name, s.item_level, s.size, s.side_squares) == ("Basic Enercycle", 1, "large", 2)
    assert (s.speed.drive_ft, s.speed.full_ft, s.speed.mph) == (20, 200, 22)
    assert (s.eac, s.kac, s.hp, s.broken_threshold, s.hardness, s.cover) == (10, 12, 7, 3, 5, "none")
    assert (s.collision.damage, s.collision.dc) == ("2d4 bludgeoning", 8)
    assert s.modifiers.piloting == 2 and s.modifiers.attack == 0
    assert (s.crew.pilots, s.crew.passengers) == (1, 1)
    assert s.dimensions is not None and s.dimensions.height_ft == 3
    assert any(n.code == "attack" for n in imp.notes)  # the data has no attack penalty: reported
    # the sample chase's -1 comes in as an override, and is reported too
    assert enercycle_stat().modifiers.attack == -1


@pytest.mark.rule("VEH-02")
def test_systems_weapons_and_odd_speeds_from_foundry() -> None:
    walker = load_foundry_vehicle(DATA / "heavy_walker.json")
    s = walker.stat
    assert s.systems.autopilot == 26 and not s.systems.autocontrol
    assert s.speed.drive_ft == 30 and s.other_speeds["climb"].full_ft == 350
    (w,) = s.weapons
    assert w.weapon.name == "Reaction cannon, advanced" and w.weapon.damage == "6d10 piercing"
    assert w.weapon.category == "heavy" and w.weapon.range_ft == 100 and not w.pilot_controlled
    assert s.threshold == 140 and s.cover == "total"
    assert foundry_stat("water_bear").systems.autocontrol and foundry_stat("water_bear").kinds == {"water"}
    auger = load_foundry_vehicle(DATA / "acid_auger.json")
    assert auger.stat.collision.ignores_hardness == 5 and auger.stat.kinds == {"land", "burrowing"}
    codes = {n.code for n in auger.notes}
    assert {"collision", "speed", "type"} <= codes  # ram 2*(5d8) vs run over 6d6; a burrow speed without drive
    pod = load_foundry_vehicle(DATA / "drop_pod.json")
    assert pod.stat.speed.full_ft == 0 and any("not a number of feet" in n.message for n in pod.notes)
    trike = load_foundry_vehicle(DATA / "hovertrike.json")
    assert trike.stat.speed.modes == {"hover"} and "Complicated Starter (Ex)" in trike.stat.systems.other


@pytest.mark.rule("VEH-02")
def test_bad_foundry_data_names_the_field() -> None:
    data = json.loads((DATA / "basic_enercycle.json").read_text())
    with pytest.raises(FileFormatError, match="type"):
        vehicle_from_foundry({**data, "type": "npc2"})
    broken = json.loads(json.dumps(data))
    broken["system"]["attributes"]["eac"]["value"] = "ten"
    with pytest.raises(FileFormatError, match=r"system\.attributes\.eac\.value"):
        vehicle_from_foundry(broken, source="x.json")
    no_collision = {**data, "items": []}
    with pytest.raises(FileFormatError, match="Run Over"):
        vehicle_from_foundry(no_collision)


@pytest.mark.rule("VEH-02")
def test_yaml_stat_block_and_validation() -> None:
    b = buggy_stat()
    assert b.item_level == 1 and b.modifiers.attack == -2 and b.modifiers.full_speed_attack == -3
    assert str(b.collision.expr) == "3d4 bludgeoning"
    with pytest.raises(ValueError, match="full speed"):
        stat(b, speed={"drive_ft": 30, "full_ft": 20})
    with pytest.raises(ValueError, match="smaller penalty"):
        stat(b, modifiers={"attack": -2, "attack_full_speed": -1})
    with pytest.raises(ValueError, match="extra"):
        VehicleStat.model_validate({**b.model_dump(), "wings": 2})


@pytest.mark.rule("VEH-32", "CON-04")
def test_broken_vehicle_numbers() -> None:
    v = Vehicle.fresh(enercycle_stat(), "cycle")
    assert not vs.is_broken(v)
    hit = damage_vehicle(v, 9)  # 9 - hardness 5 = 4: 7 -> 3 HP, the printed threshold
    assert hit.dealt == 4 and hit.became_broken and hit.vehicle.state.hp == 3
    b = hit.vehicle
    assert vs.armor_class(b, "eac").total == 8 and vs.armor_class(b, "kac").total == 10
    assert vs.collision_dc(b).total == 6
    assert vs.piloting_modifier(b).total == 0
    assert vs.full_speed(b).total == 100 and vs.mph(b).total == 11 and vs.drive_speed(b).total == 20
    assert "VEH-32" in " ".join(hit.lines)


@pytest.mark.rule("VEH-32")
def test_broken_threshold_option_and_wrecked() -> None:
    walker = Vehicle.fresh(foundry_stat("heavy_walker"), "walker").with_state(hp=140)
    assert vs.is_broken(walker)  # at the printed threshold
    assert not vs.is_broken(walker, VehicleOptions(broken_at="half"))  # lost exactly half: not more than half
    v = Vehicle.fresh(enercycle_stat(), "cycle")
    out = damage_vehicle(v, 50)
    assert out.wrecked and out.vehicle.state.hp == 0 and vs.full_speed(out.vehicle).total == 0
    again = damage_vehicle(out.vehicle, 5)
    assert again.dealt == 0 and "already wrecked" in again.lines[0]
    assert vs.repair(out.vehicle, 100).state.hp == 7


@pytest.mark.rule("DMG-15", "CHS-41")
def test_hardness_and_the_sample_chase_option() -> None:
    v = Vehicle.fresh(enercycle_stat(), "cycle")
    assert damage_vehicle(v, 2).dealt == 0  # hardness 5 stops a 2-point hit
    assert damage_vehicle(v, 7, ignores_hardness=5).dealt == 7
    assert damage_vehicle(v, 2, options=VehicleOptions(hardness_vs_attacks="ignored")).dealt == 2
