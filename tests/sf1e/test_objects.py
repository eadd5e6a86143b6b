import pytest

from sftactics.sf1e import saves
from sftactics.sf1e.objects import ObjectState, damage_object

DOOR = ObjectState("door", hp=20, max_hp=20, hardness=5, item_level=1)


@pytest.mark.rule("DMG-15", "MAN-11")
def test_unattended_objects_take_damage_less_hardness() -> None:
    r = damage_object(DOOR, 12)
    assert r.dealt == 7 and r.obj.hp == 13 and not r.obj.broken
    assert damage_object(DOOR, 4).dealt == 0


@pytest.mark.rule("DMG-15")
def test_held_objects_are_not_damaged_unless_the_effect_says_so() -> None:
    gun = ObjectState("laser pistol", hp=10, max_hp=10, hardness=2)
    assert damage_object(gun, 9, attended=True).obj == gun
    assert damage_object(gun, 9, attended=True, affects_objects=True).obj.hp == 3


@pytest.mark.rule("CON-04", "DMG-15")
def test_broken_below_half_and_destroyed_at_zero() -> None:
    r = damage_object(DOOR, 15)  # 10 damage: exactly half left, not yet broken
    assert r.obj.hp == 10 and not r.obj.broken
    r2 = damage_object(r.obj, 6)
    assert r2.obj.hp == 9 and r2.obj.broken and "broken" in r2.lines[-1]
    r3 = damage_object(r2.obj, 50)
    assert r3.obj.destroyed and "destroyed" in r3.lines[-1]


@pytest.mark.rule("SV-10")
def test_who_learns_the_save_result() -> None:
    assert saves.caster_learns_result(single_target=True, obvious_effect=False)
    assert not saves.caster_learns_result(single_target=False, obvious_effect=False)
    assert "vague" in saves.target_senses_success(obvious_effect=False)
