import pytest
from hypothesis import given
from hypothesis import strategies as st

from sftactics.core.errors import DiceError
from sftactics.dice import parse, roll
from sftactics.dice.expr import DiceTerm, damage_type
from sftactics.dice.source import ScriptedDice


def test_plain_expressions_parse_into_terms() -> None:
    e = parse("1d8 +1d4+11")
    assert e.terms == (DiceTerm(1, 8), DiceTerm(1, 4), DiceTerm(11))
    assert e.bounds() == (13, 23)
    assert parse("4d6+3d8").bounds() == (7, 48)
    assert parse("2d6 - 1").bounds() == (1, 11)
    assert parse("-2").bounds() == (-2, -2)
    assert parse("d20").terms == (DiceTerm(1, 20),)
    assert parse("1d%").terms == (DiceTerm(1, 100),)


@pytest.mark.rule("DMG-08")
def test_typed_parts_close_at_each_label() -> None:
    e = parse("3d6 B + 1d6 fire")
    assert [p.types for p in e.parts] == [frozenset({"bludgeoning"}), frozenset({"fire"})]
    assert parse("2d6+4 S").parts[0].types == frozenset({"slashing"})
    assert len(parse("2d6+4 S").parts) == 1
    both = parse("1d8 A & P")
    assert both.parts[0].types == frozenset({"acid", "piercing"})
    assert parse("1d6 So").types == frozenset({"sonic"})
    assert parse("1d8 E and F").types == frozenset({"electricity", "fire"})
    assert parse("1d4+1").parts[0].types == frozenset()


@pytest.mark.parametrize(
    "bad",
    ["", "   ", "2d6+", "+", "d", "2x6", "1d6 banana", "1d6 1d4", "3d0", "0d6", "1d6 & P", "fire", "1d6++2"],
)
def test_malformed_expressions_are_refused_with_dice_error(bad: str) -> None:
    with pytest.raises(DiceError):
        parse(bad)


def test_damage_type_words() -> None:
    assert damage_type("F") == "fire"
    assert damage_type("elec") == "electricity"
    assert damage_type("Bludgeoning") == "bludgeoning"
    with pytest.raises(DiceError):
        damage_type("radiant")


def test_rolling_uses_each_scripted_die_in_order_and_records_it() -> None:
    dice = ScriptedDice([3, 5, 2])
    r = roll(parse("2d6 B + 1d4 + 3 fire"), dice, "test")
    assert [p.total for p in r.parts] == [8, 5]
    assert r.total == 13
    assert [(d.sides, d.result, d.purpose) for d in dice.history] == [
        (6, 3, "test"),
        (6, 5, "test"),
        (4, 2, "test"),
    ]
    assert r.describe() == "2d6[3,5] bludgeoning + 1d4[2] +3 fire = 13"


def test_subtracted_dice() -> None:
    r = roll(parse("10-1d4"), ScriptedDice([3]))
    assert r.total == 7


def test_plus_and_split_flat_rewrite_an_expression_before_rolling() -> None:
    e = parse("1d6 F + 1d4 P").plus(3)
    assert str(e.parts[0]) == "1d6 + 3 fire"
    dice, flat = parse("2d6+4 S").split_flat()
    assert flat == 4 and dice.bounds() == (2, 12)
    assert parse("1d6").plus(0) == parse("1d6")


@given(st.lists(st.tuples(st.integers(1, 20), st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20])), min_size=1, max_size=5),
       st.integers(-20, 20))  # fmt: skip
def test_parse_round_trips_and_rolls_stay_within_bounds(terms: list[tuple[int, int]], flat: int) -> None:
    text = " + ".join(f"{n}d{s}" for n, s in terms) + (f" + {flat}" if flat >= 0 else f" - {-flat}")
    e = parse(text)
    assert parse(str(e)) == e
    lo, hi = e.bounds()
    needed = sum(n for n, _ in terms)
    low = roll(e, ScriptedDice([1] * needed))
    assert low.total == lo
    high = roll(e, ScriptedDice([s for n, s in terms for _ in range(n)]))
    assert high.total == hi
