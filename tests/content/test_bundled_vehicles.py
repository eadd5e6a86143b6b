"""The bundled vehicle stat blocks load and are found by name (docs/vehicles.md)."""

from sftactics.content.vehicles import bundled_vehicles, find_vehicle, vehicle_names


def test_bundled_vehicles_load_and_are_found_by_name() -> None:
    assert vehicle_names() == ["Basic Enercycle", "Heavy Walker", "Hovertrike"]
    cycle = find_vehicle("basic-enercycle")
    assert cycle is not None and cycle is find_vehicle("Basic Enercycle")
    # the sample chase's Modifiers entry (VEH-02): Piloting +2, attack -1, -2 at full speed
    m = cycle.modifiers
    assert (m.piloting, m.attack, m.full_speed_attack) == (2, -1, -2)
    assert (cycle.item_level, cycle.eac, cycle.kac, cycle.hp, cycle.hardness) == (1, 10, 12, 7, 5)
    assert find_vehicle("flying carpet") is None
    assert all(v.hp > 0 for v in bundled_vehicles().values())
