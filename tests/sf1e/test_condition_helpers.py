"""The condition helpers (CON-00, CON-02, CON-05, CON-06): adding and removing conditions with their stacking
behaviour and immunities, the damage ticks of bleeding and burning, the save against burning and the confusion
table. What each condition does to the numbers is tested in test_conditions.py.

Baseline numbers of ``pc()`` (see tests/builders.py): tactical baton +7 (BAB 4 + Str 3), damage +3;
semi-auto pistol +6 (BAB 4 + Dex 2), damage +0; frag grenade +7 (thrown: Str), damage +0; EAC 17, KAC 18;
Fort +5, Ref +3, Will +1; initiative +2; land speed 30 ft; Str check +3, Dex check +2.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sftactics.core.breakdown import Term
from sftactics.core.errors import SftError
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats
from sftactics.sf1e.conditions import (
    CONDITIONS,
    ConfusedAction,
    add_condition,
    burning_save_bonus,
    burning_save_dc,
    confusion_behavior,
    remove_condition,
    tick_expression,
)
from sftactics.sf1e.state import ConditionInstance
from tests.builders import npc, pc
from tests.sf1e.test_conditions import ALL, BASE_SAVES, _atk, _c


def _inst(name: str, *, value: str | None = None, rounds: int | None = None, source: str = "") -> ConditionInstance:
    return ConditionInstance(name=name, value=value, rounds=rounds, source=source)


# ================================================================ one condition at a time
@pytest.mark.rule("CON-02")
def test_bleeding_ticks_untyped_amount() -> None:
    c = add_condition(pc(), _inst("bleeding", value="1d4"))
    expr = tick_expression(c, c.state.conditions[0])
    assert expr is not None
    assert str(expr) == "1d4"
    assert expr.types == frozenset()
    assert cond.BLEEDING_MEDICINE_DC == 15


@pytest.mark.rule("CON-02")
def test_bleeding_needs_an_amount() -> None:
    with pytest.raises(SftError, match="needs an amount"):
        add_condition(pc(), _inst("bleeding"))
    with pytest.raises(SftError, match="needs an amount"):
        tick_expression(pc(), _inst("bleeding"))


@pytest.mark.rule("CON-05")
def test_burning_default_is_1d6_fire() -> None:
    c = add_condition(pc(), _inst("burning"))
    expr = tick_expression(c, c.state.conditions[0])
    assert expr is not None
    assert str(expr) == "1d6 fire"


@pytest.mark.rule("CON-05")
def test_burning_amount_is_always_fire() -> None:
    c = pc()
    expr = tick_expression(c, _inst("burning", value="2d6"))
    assert expr is not None and str(expr) == "2d6 fire"
    expr = tick_expression(c, _inst("burning", value="1d4 A"))
    assert expr is not None and expr.types == frozenset({"fire"})


@pytest.mark.rule("CON-05")
@pytest.mark.parametrize(("damage", "dc"), [(0, 10), (1, 11), (4, 14), (12, 22)])
def test_burning_save_dc(damage: int, dc: int) -> None:
    assert burning_save_dc(damage) == dc


@pytest.mark.rule("CON-05")
def test_burning_save_dc_refuses_negative() -> None:
    with pytest.raises(SftError):
        burning_save_dc(-1)


@pytest.mark.rule("CON-05", "MOD-23", "SV-12")
@pytest.mark.parametrize(
    ("previous", "smothering", "total"),
    [(0, False, 0), (1, False, 2), (3, False, 6), (0, True, 4), (2, True, 8)],
)
def test_burning_save_bonus(previous: int, smothering: bool, total: int) -> None:
    terms = burning_save_bonus(previous, smothering)
    assert sum(t.value for t in terms) == total
    assert all(t.rule == "CON-05" for t in terms)
    c = _c("burning")
    save = stats.save_bonus(c, "ref").plus(*terms)
    assert save.total == BASE_SAVES["ref"] + total


@pytest.mark.rule("CON-05")
def test_burning_save_bonus_refuses_negative() -> None:
    with pytest.raises(SftError):
        burning_save_bonus(-1, False)


@pytest.mark.rule("CON-06")
@pytest.mark.parametrize(
    ("d100", "action"),
    [
        (1, ConfusedAction.ACT_NORMALLY),
        (25, ConfusedAction.ACT_NORMALLY),
        (26, ConfusedAction.BABBLE),
        (50, ConfusedAction.BABBLE),
        (51, ConfusedAction.HURT_SELF),
        (75, ConfusedAction.HURT_SELF),
        (76, ConfusedAction.ATTACK_NEAREST),
        (100, ConfusedAction.ATTACK_NEAREST),
    ],
)
def test_confusion_table(d100: int, action: ConfusedAction) -> None:
    assert confusion_behavior(d100) is action


@pytest.mark.rule("CON-06")
@pytest.mark.parametrize("bad", [0, 101, -5])
def test_confusion_table_refuses_out_of_range(bad: int) -> None:
    with pytest.raises(SftError):
        confusion_behavior(bad)


@pytest.mark.rule("CON-06")
def test_confusion_self_damage_uses_current_strength() -> None:
    assert str(cond.confusion_self_damage(pc())) == "1d8 + 3"
    weak = pc().with_state(ability_damage={"str": 8})  # Str 16 - 8 damage: modifier +3 - 4 = -1
    assert str(cond.confusion_self_damage(weak)) == "1d8 - 1"


# ================================================================ add_condition / remove_condition
@pytest.mark.rule("CON-00")
def test_add_condition_normalises_name_and_refuses_unknown() -> None:
    c = add_condition(pc(), _inst("Flat_Footed"))
    assert [i.name for i in c.state.conditions] == ["flat-footed"]
    assert stats.is_flat_footed(c)
    with pytest.raises(SftError, match="unknown condition"):
        add_condition(pc(), _inst("petrified"))
    with pytest.raises(SftError, match="item"):
        add_condition(pc(), _inst("broken"))
    with pytest.raises(SftError, match="negative"):
        add_condition(pc(), _inst("dazed", rounds=-1))


@pytest.mark.rule("CON-00")
def test_replace_keeps_longer_duration() -> None:
    c = add_condition(pc(), _inst("dazzled", rounds=3, source="flash"))
    c = add_condition(c, _inst("dazzled", rounds=2, source="glare"))
    assert [(i.rounds, i.source) for i in c.state.conditions] == [(3, "flash")]
    c = add_condition(c, _inst("dazzled", rounds=5, source="glare"))
    assert [(i.rounds, i.source) for i in c.state.conditions] == [(5, "glare")]
    c = add_condition(c, _inst("dazzled", source="curse"))  # no end: outlasts any count
    assert [(i.rounds, i.source) for i in c.state.conditions] == [(None, "curse")]


@pytest.mark.rule("CON-30", "CON-19")
@pytest.mark.parametrize("name", ["shaken", "frightened"])
def test_extend_adds_rounds(name: str) -> None:
    c = add_condition(pc(), _inst(name, rounds=3))
    c = add_condition(c, _inst(name, rounds=2))
    assert [(i.name, i.rounds) for i in c.state.conditions] == [(name, 5)]
    c = add_condition(c, _inst(name))
    assert [i.rounds for i in c.state.conditions] == [None]


@pytest.mark.rule("CON-02")
def test_bleeding_keeps_only_worst() -> None:
    c = add_condition(pc(), _inst("bleeding", value="1d6"))  # average 3.5
    c = add_condition(c, _inst("bleeding", value="3"))  # 3: weaker, ignored
    assert [i.value for i in c.state.conditions] == ["1d6"]
    c = add_condition(c, _inst("bleeding", value="2d4"))  # average 5
    assert [i.value for i in c.state.conditions] == ["2d4"]
    c = add_condition(c, _inst("bleeding", value="1d8+1"))  # average 5.5
    assert [i.value for i in c.state.conditions] == ["1d8+1"]


@pytest.mark.rule("CON-05")
def test_burning_is_cumulative() -> None:
    c = add_condition(pc(), _inst("burning"))
    c = add_condition(c, _inst("burning", value="1d4"))
    ticks = cond.tick_expressions(c)
    assert [str(e) for _, e in ticks] == ["1d6 fire", "1d4 fire"]


@pytest.mark.rule("CON-17", "CON-15")
def test_fatigued_twice_becomes_exhausted() -> None:
    c = add_condition(pc(), _inst("fatigued", rounds=4))
    c = add_condition(c, _inst("fatigued", rounds=2, source="forced march"))
    assert [(i.name, i.rounds, i.source) for i in c.state.conditions] == [("exhausted", 4, "forced march")]
    assert _atk(c, "baton") == 4
    again = add_condition(c, _inst("fatigued"))
    assert again == c


@pytest.mark.rule("CON-15", "CON-17")
def test_exhausted_removes_fatigued() -> None:
    c = add_condition(add_condition(pc(), _inst("fatigued")), _inst("exhausted"))
    assert [i.name for i in c.state.conditions] == ["exhausted"]


IMMUNE = [
    ("stunned", "stunned"),
    ("stunning", "stunned"),
    ("paralysis", "paralyzed"),
    ("sleep", "asleep"),
    ("bleed", "bleeding"),
    ("fear effects", "frightened"),
]


@pytest.mark.rule("CON-00")
@pytest.mark.parametrize(("immunity", "name"), IMMUNE)
def test_immunity_leaves_creature_unchanged(immunity: str, name: str) -> None:
    c = npc(immunities=[immunity])
    assert add_condition(c, _inst(name, value="1d4")) == c
    assert cond.is_immune(c, name)


@pytest.mark.rule("CON-02")
def test_immune_creature_takes_no_tick() -> None:
    c = npc(immunities=["bleed"])
    assert tick_expression(c, _inst("bleeding", value="1d6")) is None
    assert tick_expression(pc(), _inst("prone")) is None


@pytest.mark.rule("CON-00")
def test_remove_condition() -> None:
    c = _c("blinded", "shaken", "shaken")
    c = remove_condition(c, "Shaken")
    assert [i.name for i in c.state.conditions] == ["blinded"]
    c = remove_condition(c, "flat-footed")  # implied by blinded: stays in force
    assert stats.is_flat_footed(c)
    assert not stats.is_flat_footed(remove_condition(c, "blinded"))
    with pytest.raises(SftError):
        remove_condition(c, "petrified")


# ================================================================ properties
@pytest.mark.rule("CON-00", "CON-02", "CON-05", "CON-17")
@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(ALL), st.none() | st.integers(0, 10)), max_size=8))
def test_adding_keeps_one_instance_except_burning(adds: list[tuple[str, int | None]]) -> None:
    c = pc()
    for name, rounds in adds:
        value = "1d4" if CONDITIONS[name].tick else None
        c = add_condition(c, _inst(name, rounds=rounds, value=value))
    held = [i.name for i in c.state.conditions]
    assert all(held.count(n) == 1 for n in set(held) if n not in ("burning", "corroding"))
    assert held.count("burning") == sum(1 for n, _ in adds if n == "burning")
    assert not ({"fatigued", "exhausted"} <= set(held))
    for n in set(held):
        c = remove_condition(c, n)
    assert c.state.conditions == ()


@pytest.mark.rule("CON-05")
def test_burning_bonus_terms_are_terms() -> None:
    assert all(isinstance(t, Term) for t in burning_save_bonus(2, True))
