"""More E2 items driven through the engine: range increments (EX-20), unnoticed, frightened and slowed at the
turn's edges, waking by Interact, Leap."""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.sf2e.events2e import Strike2eMade

from .helpers2e import beast, encounter2e, hero, started

LONG = "\n".join(["." * 40] * 3)


@pytest.mark.rule("E2-14", "EX-20")
def test_the_sixth_range_increment_takes_minus_10_and_beyond_it_is_out_of_range() -> None:
    # pistol, 30-ft increments: 175 ft is in the sixth (151-180 ft): -10; 185 ft is beyond the 180-ft maximum
    enc = encounter2e(hero(at=(0, 1), initiative=20), beast(at=(35, 1), initiative=10), map=LONG)
    f = started(enc, [10])
    f.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": "pistol"})
    (s,) = [e for e in f.all_events() if isinstance(e, Strike2eMade)]
    assert s.attack is not None
    assert any(t.value == -10 for t in s.attack.modifier.terms)
    far = encounter2e(hero(at=(0, 1), initiative=20), beast(at=(37, 1), initiative=10), map=LONG)
    f = started(far, [])
    with pytest.raises(RuleViolation) as e:
        f.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": "pistol"})
    assert e.value.rule == "E2-14"


@pytest.mark.rule("E2-62", "E2-50")
def test_an_unnoticed_creature_cannot_be_targeted_until_a_critical_seek_finds_it() -> None:
    # Seek +6 vs Stealth DC 14: d20 18 = 24, a critical success: observed at once
    f = started(encounter2e(hero(initiative=20), beast(initiative=10, unseen="unnoticed")), [18, 10, 2])
    with pytest.raises(RuleViolation) as e:
        f.do({"type": "strike", "actor": "Hero", "target": "Beast"})
    assert e.value.rule == "E2-62"
    f.do({"type": "seek", "actor": "Hero", "targets": ["Beast"]})
    beast_body = f.state.get("Beast").body2e
    assert beast_body is not None and beast_body.unseen_by == {}
    f.do({"type": "strike", "actor": "Hero", "target": "Beast"})  # no flat check now: d20 10, then damage 2


@pytest.mark.rule("E2-54", "E2-59", "E2-42")
def test_frightened_and_slowed_wear_off_at_the_end_of_the_turn() -> None:
    start = {"conditions": {"frightened": 2, "slowed": 1}}
    f = started(encounter2e(hero(initiative=20, state=start), beast(initiative=10)), [])
    b = f.state.get("Hero").body2e
    assert b is not None and b.actions == 2  # slowed 1: one action fewer
    f.do({"type": "end_turn", "actor": "Hero"})
    b = f.state.get("Hero").body2e
    assert b is not None and b.creature.conditions.get("frightened") == 1 and not b.creature.has("slowed")


@pytest.mark.rule("E2-41")
def test_interact_shakes_an_unconscious_ally_awake() -> None:
    start = {"hp": 10, "conditions": {"unconscious": 1, "prone": 1}}
    enc = encounter2e(hero(initiative=20), hero("Ally", at=(1, 2), initiative=15, state=start), beast(at=(8, 4)))
    f = started(enc, [1])
    f.do({"type": "interact", "actor": "Hero", "target": "Ally", "what": "shake awake"})
    b = f.state.get("Ally").body2e
    assert b is not None and not b.creature.unconscious and b.creature.has("prone")


@pytest.mark.rule("E2-50")
def test_leap_goes_10_ft_without_a_check() -> None:
    f = started(encounter2e(hero(at=(1, 1), initiative=20), beast(at=(8, 4), initiative=10)), [])
    with pytest.raises(RuleViolation, match="Leap"):
        f.do({"type": "leap", "actor": "Hero", "to": [4, 1]})
    f.do({"type": "leap", "actor": "Hero", "to": [3, 1]})
    assert f.state.get("Hero").position == (3, 1)


@pytest.mark.rule("E2-23", "E2-51", "E2-27")
def test_the_gm_gives_conditions_and_immunity_cancels_them() -> None:
    enc = encounter2e(hero(initiative=20), beast(initiative=10, stat={"immunities": ["frightened"]}))
    f = started(enc, [])
    f.do({"type": "add_condition", "target": "Hero", "condition": "frightened", "value": "2"})
    f.do({"type": "add_condition", "target": "Beast", "condition": "frightened", "value": "2"})
    hb, bb = f.state.get("Hero").body2e, f.state.get("Beast").body2e
    assert hb is not None and bb is not None
    assert hb.creature.condition("frightened") == 2 and not bb.creature.has("frightened")
    f.do({"type": "damage", "target": "Hero", "amount": 7})
    f.do({"type": "heal", "target": "Hero", "hp": 3})
    hb = f.state.get("Hero").body2e
    assert hb is not None and hb.creature.hp == 36
    with pytest.raises(RuleViolation):
        f.do({"type": "add_condition", "target": "Hero", "condition": "dying"})
