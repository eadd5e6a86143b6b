"""Ammunition, reloading, drawing and holding weapons (ACT-32, ACT-34, ACT-36, ACT-40, ACT-72, GEN-10)."""

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.commands import (
    Attack,
    Begin,
    ChangeGrip,
    Draw,
    DropItem,
    FullAttack,
    Manipulate,
    Move,
    Reload,
    Sheathe,
)
from tests.builders import pc
from tests.encounter.helpers import combatant, encounter, fight

OPEN = "\n".join(["." * 10] * 4)


def tess(dice: list[int], **kw: object) -> object:
    t = combatant("Tess", "party", initiative=30, position=(0, 0), **kw)
    k = combatant("Ksarik", "aliens", initiative=5, position=(3, 0))
    f = fight(encounter(t, k, map=OPEN), dice)
    f.do(Begin())
    return f


@pytest.mark.rule("ACT-36")
def test_shots_are_used_and_reloading_is_a_move_action() -> None:
    f = tess([5, 5], ammo={"tactical semi-auto pistol": 1})
    f.do(Attack(actor="Tess", target="Ksarik", weapon="semi-auto"))
    assert f.state.get("Tess").ammo["tactical semi-auto pistol"] == 0
    f2 = tess([], ammo={"tactical semi-auto pistol": 0})
    with pytest.raises(RuleViolation) as e:
        f2.do(Attack(actor="Tess", target="Ksarik", weapon="semi-auto"))
    assert e.value.rule == "ACT-36" and f2.state.get("Tess").spent == ()
    f2.do(Reload(actor="Tess", weapon="semi-auto"))
    assert f2.state.get("Tess").ammo["tactical semi-auto pistol"] == 9
    assert f2.state.get("Tess").spent == ("move",)
    with pytest.raises(RuleViolation, match="already fully loaded"):
        f2.do(Reload(actor="Tess", weapon="semi-auto"))


@pytest.mark.rule("ACT-36", "ACT-53")
def test_a_full_attack_needs_ammunition_for_both_shots() -> None:
    f = tess([], ammo={"tactical semi-auto pistol": 1})
    with pytest.raises(RuleViolation) as e:
        f.do(FullAttack(actor="Tess", target="Ksarik", weapon="semi-auto"))
    assert e.value.rule == "ACT-36"


@pytest.mark.rule("ACT-36")
def test_weapons_without_capacity_never_run_out() -> None:
    f = tess([5])
    f.do(Attack(actor="Tess", target="Ksarik", weapon="flame pistol"))
    assert "burning flame pistol" not in f.state.get("Tess").ammo


@pytest.mark.rule("ACT-32", "GEN-10")
def test_weapons_must_be_drawn_when_hands_are_tracked() -> None:
    f = tess([], in_hand=())
    with pytest.raises(RuleViolation) as e:
        f.do(Attack(actor="Tess", target="Ksarik", weapon="semi-auto"))
    assert e.value.rule == "GEN-10"
    f.do(Draw(actor="Tess", weapon="semi-auto"))
    assert f.state.get("Tess").in_hand == ("tactical semi-auto pistol",)
    with pytest.raises(RuleViolation):
        f.do(Draw(actor="Tess", weapon="semi-auto"))


@pytest.mark.rule("ACT-32")
def test_draw_while_moving_with_bab_1() -> None:
    f = tess([], in_hand=())
    f.do(Move(actor="Tess", to=(1, 1), draw="baton"))
    s = f.state.get("Tess")
    assert s.in_hand == ("tactical baton",) and s.spent == ("move",)
    low = pc(name="Tess", bab=0)
    f2 = tess([], creature=low, in_hand=())
    with pytest.raises(RuleViolation) as e:
        f2.do(Move(actor="Tess", to=(1, 1), draw="baton"))
    assert e.value.rule == "ACT-32"


@pytest.mark.rule("GEN-10", "ACT-32")
def test_hands_fill_up() -> None:
    rifle = pc(name="Tess", weapons=[
        {"name": "laser rifle", "category": "longarm", "damage": "1d8 F", "range_ft": 120},
        {"name": "baton", "category": "basic_melee", "damage": "1d4 B"},
    ])  # fmt: skip
    f = tess([], creature=rifle, in_hand=("baton",))
    with pytest.raises(RuleViolation, match="hands are full"):
        f.do(Draw(actor="Tess", weapon="laser rifle"))


@pytest.mark.rule("ACT-72", "ACT-32", "ACT-40", "ACT-34")
def test_sheathe_drop_change_grip_and_manipulate() -> None:
    f = tess([], in_hand=("tactical baton",))
    f.do(DropItem(actor="Tess", weapon="baton"))  # no action
    assert f.state.get("Tess").in_hand == () and f.state.get("Tess").spent == ()
    f.do(Draw(actor="Tess", weapon="baton"))
    f.do(ChangeGrip(actor="Tess", weapon="baton"))
    assert f.state.get("Tess").spent == ("move", "swift")
    f2 = tess([], in_hand=("tactical baton",))
    f2.do(Sheathe(actor="Tess", weapon="baton"))
    f2.do(Manipulate(actor="Tess", what="open the door"))
    assert f2.state.get("Tess").in_hand == () and f2.state.get("Tess").spent == ("move", "standard")
