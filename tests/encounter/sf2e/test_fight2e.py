"""A 2E fight through the engine (issue 21): initiative, three actions, Strike and the multiple attack penalty,
movement, flanking, cover, hidden and Seek, basic saves, persistent damage, dying and Hero Points. Dice are
scripted and every number is worked by hand in the comments."""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.engine import Fight
from sftactics.encounter.sf2e.events2e import Check2eMade, Strike2eMade

from .helpers2e import beast, encounter2e, hero, started


def strikes(f: Fight) -> list[Strike2eMade]:
    return [e for e in f.all_events() if isinstance(e, Strike2eMade)]


def body(f: Fight, cid: str):  # type: ignore[no-untyped-def]
    b = f.state.get(cid).body2e
    assert b is not None
    return b


@pytest.mark.rule("E2-18")
def test_initiative_is_perception_and_ties_go_to_the_npc() -> None:
    # Hero Perception +6 (Wis 1 + trained 5), Beast +3: 10 + 6 = 16 and 13 + 3 = 16, a tie: the NPC first
    f = started(encounter2e(hero(), beast()), [10, 13])
    assert f.state.timeline.order == ("Beast", "Hero")
    assert f.state.timeline.turn == "Beast"
    assert body(f, "Beast").actions == 3
    f = started(encounter2e(hero(), beast(), options={"initiative_ties": "pc_first"}), [10, 13])
    assert f.state.timeline.order == ("Hero", "Beast")


@pytest.mark.rule("E2-13", "E2-04", "E2-42", "E2-50", "E2-10", "E2-31")
def test_three_strikes_take_the_multiple_attack_penalty_and_a_fourth_action_is_refused() -> None:
    # init: Hero 15+6 = 21, Beast 5+3 = 8. Hammer +11 (Str 4, expert 7) vs AC 14: d20 10 = 21, success;
    # 1d8 5 + 4 = 9: 30 -> 21. Knife (agile, finesse) +11 - 4 = +7: d20 3 = 10, failure. Hammer +11 - 10 = +1:
    # d20 20 = 21, success, a natural 20: critical success; (1d8 2 + 4) x 2 = 12: 21 -> 9.
    f = started(encounter2e(hero(), beast(stat={"max_hp": 30})), [15, 5, 10, 5, 3, 20, 2])
    f.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": "hammer"})
    f.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": "knife"})
    f.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": "hammer"})
    first, second, third = strikes(f)
    assert first.attack is not None and second.attack is not None and third.attack is not None
    assert (first.attack.total, first.degree, first.total) == (21, "success", 9)
    assert second.attack.modifier.total == 7
    assert any(t.value == -4 and "agile" in t.label for t in second.attack.modifier.terms)
    assert second.degree == "failure" and second.total == 0
    assert third.attack.modifier.total == 1
    assert (third.attack.unshifted, third.degree) == ("success", "critical success")
    assert "natural 20" in third.attack.why
    assert third.total == 12
    assert body(f, "Beast").creature.hp == 30 - 9 - 12
    assert body(f, "Hero").actions == 0
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.do({"type": "stride", "actor": "Hero", "to": [1, 2]})
    assert e.value.rule == "E2-42"
    assert f.state == before


@pytest.mark.rule("E2-64", "E2-50")
def test_stride_step_drop_prone_crawl_and_stand() -> None:
    f = started(encounter2e(hero(at=(0, 0)), beast(at=(9, 5))), [15, 5])
    with pytest.raises(RuleViolation, match="adjacent"):
        f.do({"type": "step_2e", "actor": "Hero", "to": [2, 0]})  # 10 ft is no Step
    f.do({"type": "stride", "actor": "Hero", "to": [5, 0]})  # 25 ft: the Speed
    assert f.state.get("Hero").position == (5, 0)
    f.do({"type": "drop_prone", "actor": "Hero"})
    with pytest.raises(RuleViolation, match="prone"):
        f.do({"type": "stride", "actor": "Hero", "to": [6, 0]})
    f.do({"type": "crawl", "actor": "Hero", "to": [6, 0]})
    assert f.state.get("Hero").position == (6, 0)
    assert body(f, "Hero").actions == 0
    f.do({"type": "end_turn", "actor": "Hero"})
    f.do({"type": "end_turn", "actor": "Beast"})
    f.do({"type": "stand_up", "actor": "Hero"})
    f.do({"type": "step_2e", "actor": "Hero", "to": [7, 1]})
    assert not body(f, "Hero").creature.has("prone")
    assert f.state.get("Hero").position == (7, 1)


@pytest.mark.rule("E2-69", "E2-57")
def test_flanking_makes_the_target_off_guard_to_the_flanker() -> None:
    # Hero at 2,2 and Ally at 4,2 on opposite sides of the Beast at 3,2: AC 14 - 2 circumstance = 12
    enc = encounter2e(hero(at=(2, 2), initiative=20), hero("Ally", at=(4, 2), initiative=15),
                      beast(at=(3, 2), initiative=10))  # fmt: skip
    f = started(enc, [2, 1])
    f.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": "hammer"})
    (s,) = strikes(f)
    assert s.attack is not None and s.attack.dc.total == 12
    assert any("off-guard" in t.label and t.type == "circumstance" for t in s.attack.dc.terms)
    assert any("flanked" in n for n in s.notes)


COVER_MAP = "\n".join(["..........", "..........", "....=.....", "..........", ".........."])


@pytest.mark.rule("E2-68")
def test_cover_from_the_grid_and_take_cover() -> None:
    # the crate ("=") between them gives standard cover: AC 14 + 2; after Take Cover, greater: + 4
    enc = encounter2e(hero(at=(1, 2), initiative=10), beast(at=(7, 2), initiative=20), map=COVER_MAP)
    f = started(enc, [2, 2])
    f.do({"type": "take_cover", "actor": "Beast"})
    f.do({"type": "end_turn", "actor": "Beast"})
    f.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": "pistol"})
    (s,) = strikes(f)
    assert s.attack is not None and s.attack.dc.total == 18
    assert any("greater cover" in t.label for t in s.attack.dc.terms)
    f2 = started(encounter2e(hero(at=(1, 2), initiative=20), beast(at=(7, 2), initiative=10), map=COVER_MAP), [2])
    f2.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": "pistol"})
    (s2,) = strikes(f2)
    assert s2.attack is not None and s2.attack.dc.total == 16


@pytest.mark.rule("E2-55", "E2-61", "E2-50", "E2-07", "E2-09", "E2-02")
def test_hidden_takes_a_flat_check_undetected_cannot_be_targeted_and_seek_finds() -> None:
    enc = encounter2e(hero(initiative=20), beast(initiative=10, unseen="hidden"))
    # flat check DC 11: 10 fails, the Strike misses without an attack roll; then 11 succeeds, d20 2 misses
    f = started(enc, [10, 11, 2])
    f.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": "hammer"})
    f.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": "hammer"})
    a, b = strikes(f)
    assert a.targeting is not None and a.targeting.dc.total == 11 and a.attack is None and a.degree == "failure"
    assert b.targeting is not None and b.targeting.degree == "success" and b.attack is not None
    enc = encounter2e(hero(initiative=20), beast(initiative=10, unseen="undetected"))
    # Seek: Perception +6 against Stealth DC 10 + Dex 1 + trained 3 = 14: d20 8 = 14, success: undetected -> hidden
    f = started(enc, [8])
    before = f.state
    with pytest.raises(RuleViolation) as e:
        f.do({"type": "strike", "actor": "Hero", "target": "Beast"})
    assert e.value.rule == "E2-61" and f.state == before
    f.do({"type": "seek", "actor": "Hero"})
    seek = [x for x in f.all_events() if isinstance(x, Check2eMade)][-1]
    assert (seek.check.total, seek.check.dc.total, seek.check.degree) == (14, 14, "success")
    assert body(f, "Beast").unseen_by == {"Hero": "hidden"}


@pytest.mark.rule("E2-17", "E2-22", "E2-16")
def test_an_area_with_a_basic_save_rolls_damage_once_and_each_target_saves() -> None:
    # 2d6 fire [3, 4] = 7; Hero Reflex +7 (Dex 2 + trained 5): d20 8 = 15 vs DC 15, success: half, 3;
    # Beast Reflex +4: d20 1 = 5, critical failure: double, 14
    f = started(encounter2e(hero(initiative=20), beast(initiative=10)), [3, 4, 8, 1])
    f.do({"type": "basic_save", "source": "grenade", "targets": ["Hero", "Beast"], "save": "reflex", "dc": 15,
          "damage": "2d6", "damage_type": "fire"})  # fmt: skip
    assert body(f, "Hero").creature.hp == 40 - 3
    assert body(f, "Beast").creature.hp == 20 - 14
    degrees = [e.check.degree for e in f.all_events() if isinstance(e, Check2eMade)]
    assert degrees == ["success", "critical failure"]


@pytest.mark.rule("E2-26")
def test_persistent_damage_at_the_end_of_the_turn_then_the_dc_15_flat_check() -> None:
    start = {"persistent": [{"dice": "1d6", "type": "fire"}]}
    f = started(encounter2e(hero(initiative=20, state=start), beast(initiative=10)), [4, 14, 5, 15])
    f.do({"type": "end_turn", "actor": "Hero"})  # 1d6 4: 40 -> 36; flat check 14: still burning
    assert body(f, "Hero").creature.hp == 36 and body(f, "Hero").creature.persistent
    f.do({"type": "end_turn", "actor": "Beast"})
    f.do({"type": "end_turn", "actor": "Hero"})  # 1d6 5: 36 -> 31; flat check 15: it ends
    assert body(f, "Hero").creature.hp == 31 and not body(f, "Hero").creature.persistent
    checks = [e.check for e in f.all_events() if isinstance(e, Check2eMade)]
    assert [(c.dc.total, c.degree) for c in checks] == [(15, "failure"), (15, "success")]


@pytest.mark.rule("E2-31", "E2-33", "E2-37", "E2-32")
def test_ex20_doomed_1_dies_at_dying_3_through_recovery_checks() -> None:
    # the Beast's claw +5: d20 15 = 20 vs AC 20, success; 1d6 3 + 2 = 5: 3 HP -> 0, dying 1; it now acts just
    # before the Beast. Round 2: recovery check DC 11, d20 5: failure, dying 2. Round 3: DC 12, d20 3: dying 3,
    # and doomed 1 kills at dying 3 (EX-20).
    enc = encounter2e(hero(initiative=10, state={"hp": 3, "conditions": {"doomed": 1}, "hero_points": 0}),
                      beast(initiative=20), hero("Ally", at=(8, 5), initiative=5))  # fmt: skip
    f = started(enc, [15, 3, 5, 3])
    f.do({"type": "strike", "actor": "Beast", "target": "Hero"})
    h = body(f, "Hero").creature
    assert (h.hp, h.dying, h.unconscious) == (0, 1, True)
    assert f.state.timeline.order == ("Hero", "Beast", "Ally")
    f.do({"type": "end_turn", "actor": "Beast"})
    assert f.state.timeline.turn == "Ally"  # the Hero had its turn this round: it moved before the Beast
    f.do({"type": "end_turn", "actor": "Ally"})
    assert body(f, "Hero").creature.dying == 2
    assert f.state.timeline.turn == "Beast"
    f.do({"type": "end_turn", "actor": "Beast"})
    f.do({"type": "end_turn", "actor": "Ally"})
    assert body(f, "Hero").creature.dead


@pytest.mark.rule("E2-36", "E2-73")
def test_heroic_recovery_spends_the_hero_points_when_dying_would_rise() -> None:
    start = {"hp": 0, "conditions": {"dying": 1, "unconscious": 1, "prone": 1}, "hero_points": 2}
    enc = encounter2e(hero(initiative=20, state=start), beast(initiative=10), hero("Ally", at=(8, 5), initiative=5))
    f = started(enc, [5])  # recovery check DC 11: 5 fails, so dying would rise: the Hero Points go instead
    h = body(f, "Hero").creature
    assert (h.dying, h.wounded, h.hero_points, h.hp) == (0, 0, 0, 0)


@pytest.mark.rule("E2-24", "E2-25", "E2-23")
def test_resistances_weaknesses_and_immunities_through_a_strike() -> None:
    # EX-20: fire against weakness 5 adds 5; the highest of two resistances applies; immune to fire: nothing
    weak = beast(stat={"weaknesses": [{"type": "fire", "value": 2}, {"type": "fire", "value": 5}]}, initiative=1)
    torch = {"strikes": [{"name": "torch", "damage": "2d6", "type": "fire"}]}
    f = started(encounter2e(hero(initiative=20, stat=torch), weak), [10, 3, 4])
    f.do({"type": "strike", "actor": "Hero", "target": "Beast"})
    assert strikes(f)[0].total == 3 + 4 + 4 + 5  # 2d6 + Str 4 + weakness 5
    tough = beast(stat={"resistances": [{"type": "fire", "value": 3}, {"type": "energy", "value": 6}]}, initiative=1)
    f = started(encounter2e(hero(initiative=20, stat=torch), tough), [10, 3, 4])
    f.do({"type": "strike", "actor": "Hero", "target": "Beast"})
    assert strikes(f)[0].total == 11 - 6
    immune = beast(stat={"immunities": ["fire"]}, initiative=1)
    f = started(encounter2e(hero(initiative=20, stat=torch), immune), [10, 3, 4])
    f.do({"type": "strike", "actor": "Hero", "target": "Beast"})
    assert strikes(f)[0].total == 0 and body(f, "Beast").creature.hp == 20


def test_the_editions_refuse_each_others_commands() -> None:
    f = started(encounter2e(hero(initiative=20), beast(initiative=10)), [])
    with pytest.raises(RuleViolation, match="1st-edition"):
        f.do({"type": "attack", "actor": "Hero", "target": "Beast"})
    from tests.encounter.helpers import duo, fight

    f1 = fight(duo(), [10, 10])
    with pytest.raises(RuleViolation, match="2nd-edition"):
        f1.do({"type": "strike", "actor": "Tess", "target": "Ksarik"})


def test_a_1e_encounter_writes_no_2e_fields() -> None:
    from tests.encounter.helpers import duo

    data = duo().model_dump(mode="json")
    assert "ruleset" not in data and "options2e" not in data
    assert all("body2e" not in c for c in data["combatants"].values())


def test_the_2e_event_log_replays_to_the_same_state(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = started(encounter2e(hero(), beast(stat={"max_hp": 30})), [15, 5, 10, 5, 3, 20, 2])
    for w in ("hammer", "knife", "hammer"):
        f.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": w})
    path = tmp_path / "fight.jsonl"
    f.save(path)
    again = Fight.load(path)
    assert again.state.model_dump_json() == f.state.model_dump_json()
    f.undo()
    assert body(f, "Beast").creature.hp == 21


@pytest.mark.rule("E2-72", "E2-71")
def test_a_hero_point_rerolls_a_failed_attack_and_the_second_result_stands() -> None:
    # hammer +11 vs AC 14: d20 2 = 13 fails; the Hero Point rerolls: d20 12 = 23, success; 1d8 3 + 4 = 7
    f = started(encounter2e(hero(initiative=20), beast(initiative=10)), [2, 12, 3, 2, 1])
    f.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": "hammer", "hero_point": True})
    (s,) = strikes(f)
    assert s.attack is not None and s.attack.rolls == (2, 12) and s.degree == "success" and s.total == 7
    assert "Hero Point" in s.attack.note
    assert body(f, "Hero").creature.hero_points == 0
    # no Hero Point left: a failure stands
    f.do({"type": "strike", "actor": "Hero", "target": "Beast", "weapon": "hammer", "hero_point": True})
    assert strikes(f)[1].degree in ("failure", "critical failure")


@pytest.mark.rule("E2-17")
def test_a_burst_finds_its_targets_on_the_map() -> None:
    # a 5-ft burst at the intersection 2,1 (top left of square 2,1) covers squares 1..2 x 0..1: Hero and Beast,
    # not the Ally at 8,5. 2d6 [1, 1] = 2; Hero Reflex d20 10 = 17: success, 1; Beast d20 10 = 14: failure, 2
    enc = encounter2e(hero(initiative=20), beast(initiative=10), hero("Ally", at=(8, 5), initiative=5))
    f = started(enc, [1, 1, 10, 10])
    f.do({"type": "basic_save", "at": [2, 1], "burst_ft": 5, "save": "reflex", "dc": 15, "damage": "2d6",
          "damage_type": "fire"})  # fmt: skip
    saved = [e.id for e in f.all_events() if isinstance(e, Check2eMade)]
    assert saved == ["Hero", "Beast"]
    assert body(f, "Hero").creature.hp == 39 and body(f, "Beast").creature.hp == 18
    with pytest.raises(RuleViolation):
        f.do({"type": "basic_save", "dc": 15, "damage": "2d6", "damage_type": "fire"})


@pytest.mark.rule("E2-18")
def test_a_sneaking_creature_rolls_stealth_for_initiative() -> None:
    # Beast Stealth +4 (Dex 1 + trained 3) instead of Perception +3: d20 13 + 4 = 17 beats the Hero's 10 + 6
    f = started(encounter2e(hero(), beast(initiative_skill="stealth")), [10, 13])
    assert f.state.timeline.order == ("Beast", "Hero")
    assert f.state.get("Beast").initiative == 17
