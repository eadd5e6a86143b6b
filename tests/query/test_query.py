"""Questions about the board (sftactics.query): exact answers, and the same answers the engine acts on."""

from __future__ import annotations

import json

import pytest

from sftactics import query as q
from sftactics.core.errors import RuleViolation, SftError
from sftactics.encounter import space
from sftactics.encounter.commands import Begin, EndTurn, Move, TotalDefense
from sftactics.encounter.engine import Fight
from sftactics.encounter.state import Encounter
from tests.builders import npc, pc, with_conditions
from tests.encounter.helpers import combatant, encounter, fight

OPEN = "\n".join(["." * 20] * 12)

KSARIK = npc(name="Ksarik", reach_ft=10, weapons=[{"name": "tentacle", "category": "natural", "damage": "1d6+5 B",
                                                   "attack_bonus": 10}])  # fmt: skip
GOBLIN = npc(name="Goblin", weapons=[{"name": "claw", "category": "natural", "damage": "1d4 S", "attack_bonus": 4}])
LONG = npc(name="Long", reach_ft=15, weapons=[{"name": "whip arm", "category": "natural", "damage": "1d6 B",
                                               "attack_bonus": 8}])  # fmt: skip


def ready(
    *others: tuple[str, object, tuple[int, int]],
    tess_at: tuple[int, int] = (0, 3),
    map: str = OPEN,
    dice: tuple[int, ...] = (),
) -> Fight:
    """Tess (init 30) and the others in round 2, Tess's turn: everyone has acted, reactions are available."""
    cs = [combatant("Tess", "party", initiative=30, position=tess_at)]
    cs += [combatant(n, "aliens", c, initiative=10 - i, position=at) for i, (n, c, at) in enumerate(others)]  # type: ignore[arg-type]
    f = fight(encounter(*cs, map=map), list(dice))
    f.do(Begin())
    for c in cs:
        f.do(EndTurn(actor=c.id))
    assert f.state.timeline.turn == "Tess" and f.state.timeline.round == 2
    return f


def aoos(events: list) -> list[str]:  # type: ignore[type-arg]
    return [e.attacker for e in events if e.type == "attack_made" and e.reaction]


def placed(map: str = OPEN, **at: tuple[int, int]) -> Encounter:
    cs = {"Tess": pc(name="Tess"), "Ksarik": KSARIK, "Goblin": GOBLIN, "Long": LONG}
    return encounter(
        *(combatant(n, "party" if n == "Tess" else "aliens", cs[n], position=p) for n, p in at.items()), map=map
    )


# ---------------------------------------------------------------- threat and reach
@pytest.mark.rule("AOO-02", "AOO-04", "MOV-10")
def test_a_15_ft_reach_counts_diagonals_5_10_5_and_has_no_diagonal_exception() -> None:
    enc = placed(Long=(6, 6), Ksarik=(15, 6))
    zone = set(q.threatened_squares(enc, "Long").value)
    # 15 ft: two diagonals (5 + 10) but not three (20), and 3 straight + 1 diagonal (15) but not 3 + 2 (20)
    assert (8, 8) in zone and (9, 9) not in zone
    assert (9, 7) in zone and (9, 8) not in zone and (9, 6) in zone
    assert len(zone) == 1 + 8 + 16 + 12
    # 10 ft reach: the second square on a diagonal is threatened after all (AOO-04), a 5x5 block
    kz = set(q.threatened_squares(enc, "Ksarik").value)
    assert (17, 8) in kz and len(kz) == 25
    assert q.threatens(enc, "Long", (9, 6)).value and not q.threatens(enc, "Long", (9, 8)).value
    assert q.threateners(enc, (9, 7)).value == ["Long"]
    assert q.threateners(enc, (9, 8)).value == []
    assert q.threateners(enc, (11, 6)).value == []
    r = q.reach(enc, "Long")
    assert r.value.reach_ft == 15 and [(w.weapon, w.reach_ft) for w in r.value.weapons] == [("whip arm", 15)]


@pytest.mark.rule("AOO-01", "AOO-05")
def test_out_of_the_fight_or_off_the_map_threatens_nothing() -> None:
    enc = placed(Goblin=(3, 3))
    assert len(q.threatened_squares(enc, "Goblin").value) == 9
    down = enc.update("Goblin", creature=with_conditions(GOBLIN, "unconscious"))
    ans = q.threatened_squares(down, "Goblin")
    assert ans.value == [] and ans.lines == ("Goblin threatens nothing: out of the fight",)


@pytest.mark.rule("AOO-01", "MOD-07")
def test_threat_stops_at_walls_as_the_engine_sees_it() -> None:
    # a wall square is never threatened; across a wall edge the goblin still threatens (with cover, MOD-09)
    enc = placed("........\n........\n....#...\n........\n\nwall 3,0 E", Goblin=(3, 1))
    zone = set(q.threatened_squares(enc, "Goblin").value)
    assert (4, 2) not in zone and (4, 1) in zone and (4, 0) in zone and len(zone) == 8


# ---------------------------------------------------------------- flanking, cover, sight
@pytest.mark.rule("MOD-17")
def test_flanking_names_both_flankers_and_their_line() -> None:
    enc = placed(Tess=(4, 3), Goblin=(3, 3), Ksarik=(5, 3))
    ans = q.flanking(enc, "Tess")
    assert [(p.attacker, p.partner, p.squares) for p in ans.value] == [
        ("Goblin", "Ksarik", ((3, 3), (5, 3))),
        ("Ksarik", "Goblin", ((5, 3), (3, 3))),
    ]
    assert [(t.value, t.rule) for t in ans.terms] == [(2, "MOD-17")]
    # the same +2 an attack gets
    g = space.attack_geometry(enc, enc.get("Goblin"), enc.get("Tess"), GOBLIN.stat.weapons[0])
    assert [(t.value, t.rule) for t in g.attack_terms] == [(2, "MOD-17")]
    # moved off the line: nobody flanks
    off = enc.update("Ksarik", position=(5, 4))
    assert q.flanking(off, "Tess").value == []


@pytest.mark.rule("EX-15", "MOD-07", "MOD-08", "MOD-09")
def test_cover_from_a_wall_corner_with_the_lines_checked() -> None:
    # EX-15 diagram 2: O#. / .K.  the wall square's corner gives cover both ways, and no attacks of opportunity
    enc = placed("O#.\n.K.\n...", Tess=(0, 0), Goblin=(1, 1))
    ans = q.cover_and_concealment(enc, "Tess", "Goblin")
    v = ans.value
    assert (v.cover, v.ac_bonus, v.reflex_bonus, v.blocks_attacks_of_opportunity) == ("cover", 4, 2, True)
    assert [(t.value, t.rule) for t in ans.terms] == [(4, "MOD-08")]
    assert [ln.reason for ln in v.lines if ln.cover == "cover"] == ["through square at (1, 0)"]
    assert v.corner in [(0, 0), (1, 0), (0, 1), (1, 1)] and len(v.lines) == 4
    back = q.cover_and_concealment(enc, "Goblin", "Tess", melee=True).value
    assert back.cover == "cover" and [ln.reason for ln in back.lines if ln.cover == "cover"] == [
        "along square at (1, 0)"
    ]
    # the same AC terms the attack adds
    g = space.attack_geometry(enc, enc.get("Tess"), enc.get("Goblin"), pc().stat.weapons[1])
    assert [(t.value, t.rule) for t in g.ac_terms] == [(4, "MOD-08")]
    # to a square with nothing in the way: no cover
    assert q.cover_and_concealment(enc, "Tess", (0, 2)).value.cover == "none"


@pytest.mark.rule("MOD-01", "MOD-04", "EFF-35", "EFF-37")
def test_concealment_and_lines_of_sight_and_effect() -> None:
    smoke = ".......\n..*....\n.......\n\nwindow 4,0..4,2 E"
    enc = placed(smoke, Tess=(0, 1), Goblin=(4, 1))
    v = q.cover_and_concealment(enc, "Tess", "Goblin").value
    assert (v.concealment, v.miss_chance, v.line_of_effect, v.line_of_sight) == ("concealment", 20, True, True)
    assert v.awareness == "observing"
    # a window: line of sight, no line of effect
    s = q.line_of_sight(enc, (4, 1), (5, 1)).value
    assert (s.line_of_effect, s.line_of_sight) == (False, True)
    s = q.line_of_sight(enc, "Tess", (6, 1)).value
    assert (s.line_of_effect, s.line_of_sight) == (False, True)
    s = q.line_of_sight(enc, "Tess", "Goblin").value
    assert (s.line_of_effect, s.line_of_sight) == (True, True)


# ---------------------------------------------------------------- movement and provocations
DIFFICULT = """\
........
.~......
....~...
........
........"""


@pytest.mark.rule("EX-09", "MOV-10", "MOV-17")
def test_path_cost_step_by_step_with_diagonals_and_difficult_terrain() -> None:
    enc = placed(DIFFICULT, Tess=(0, 0))
    # EX-09: 5 + 5 (first diagonal) + 10 (second diagonal) + 10 (straight into difficult terrain) = 30 ft
    ans = q.path_cost(enc, "Tess", path=[(1, 0), (2, 1), (3, 2), (4, 2)])
    assert [(s.cost_ft, s.diagonal, s.doublings) for s in ans.value.steps] == [
        (5, False, 0), (5, True, 0), (10, True, 0), (10, False, 1)
    ]  # fmt: skip
    assert ans.value.cost_ft == 30 and sum(t.value for t in ans.terms) == 30 and ans.value.budget_ft == 30
    assert [t.rule for t in ans.terms] == ["MOV-05", "MOV-10", "MOV-10", "MOV-17"]
    # a diagonal into difficult terrain is 15 ft and still counts as a diagonal: the next one costs 10
    ans = q.path_cost(enc, "Tess", path=[(1, 1), (2, 2)])
    assert [s.cost_ft for s in ans.value.steps] == [15, 10] and ans.value.cost_ft == 25
    # too long for one move action, fine for a double move
    with pytest.raises(RuleViolation) as e:
        q.path_cost(enc, "Tess", path=[(1, 1), (2, 2), (3, 3), (4, 4)])
    assert "costs 40 ft" in str(e.value)
    assert q.path_cost(enc, "Tess", path=[(1, 1), (2, 2), (3, 3), (4, 4)], actions=2).value.budget_ft == 60


@pytest.mark.rule("MOV-05", "MOV-10")
def test_reachable_squares_with_one_and_two_move_actions_and_the_diagonal_count() -> None:
    enc = placed(Tess=(3, 3))
    one = {r.square: (r.cost_ft, r.actions) for r in q.reachable_squares(enc, "Tess").value}
    two = {r.square: (r.cost_ft, r.actions) for r in q.reachable_squares(enc, "Tess", 2).value}
    assert one[(9, 3)] == (30, 1) and (10, 3) not in one
    assert two[(10, 3)] == (35, 2) and two[(15, 3)] == (60, 2) and (16, 3) not in two
    assert one[(4, 4)] == (5, 1) and one[(5, 5)] == (15, 1)
    # one diagonal already counted this turn: the next one costs 10 ft
    moved = enc.update("Tess", diagonals=1)
    again = {r.square: r.cost_ft for r in q.reachable_squares(moved, "Tess").value}
    assert again[(4, 4)] == 10 and again[(5, 5)] == 15


@pytest.mark.rule("AOO-06", "AOO-07", "EX-14")
def test_provoked_lists_the_attacks_of_opportunity_the_move_then_gets() -> None:
    # EX-14: past a reach ksarik and a goblin, both get an attack of opportunity
    f = ready(("Ksarik", KSARIK, (6, 3)), ("Goblin", GOBLIN, (5, 5)), tess_at=(1, 3), dice=(2, 2))
    path = [(2, 3), (3, 3), (4, 4), (5, 4)]
    ans = q.provoked(f.state, "Tess", path=path)
    firsts = [(p.enemy, p.leaves) for p in ans.value.provocations if p.first]
    assert firsts == [("Goblin", (4, 4)), ("Ksarik", (4, 4))]  # both threaten 4,4, which Tess leaves third
    assert ans.value.not_offered == ()
    events = f.do(Move(actor="Tess", path=tuple(path)))
    assert aoos(events) == [e for e, _ in firsts]


@pytest.mark.rule("ACT-05", "AOO-09", "MOD-09", "CF-15")
def test_provoked_one_reaction_a_round_and_who_cannot_take_one() -> None:
    f = ready(("Goblin", GOBLIN, (4, 3)), tess_at=(3, 3))
    ans = q.provoked(f.state, "Tess", path=[(3, 2), (3, 1)])
    assert [(p.enemy, p.step, p.first) for p in ans.value.provocations] == [("Goblin", 0, True), ("Goblin", 1, False)]
    # behind a wall edge the goblin cannot take one (MOD-09); before acting it cannot either (CF-15)
    walled = ready(("Goblin", GOBLIN, (3, 3)), tess_at=(2, 3), map=OPEN + "\n\nwall 3,3 W")
    ans = q.provoked(walled.state, "Tess", to=(0, 3))
    assert ans.value.provocations == () and ans.value.not_offered == ("Goblin: Tess has cover from Goblin (MOD-09)",)
    fresh = placed(Tess=(2, 3), Goblin=(3, 3))
    assert q.provoked(fresh, "Tess", to=(0, 3)).value.not_offered == ("Goblin: no reaction available (CF-15)",)


# ---------------------------------------------------------------- areas and range
@pytest.mark.rule("EFF-03", "EFF-06", "EFF-08")
def test_creatures_in_a_burst_a_cone_and_a_line() -> None:
    enc = placed(Tess=(2, 2), Goblin=(4, 4), Ksarik=(7, 5), Long=(6, 6))
    burst = q.creatures_in_area(enc, "burst", 10, at=(5, 5))
    # 10-ft burst from a point: the 4x4 block around it without its corners
    assert len(burst.value.squares) == 12 and (6, 5) in burst.value.squares and (6, 6) not in burst.value.squares
    assert [c.id for c in burst.value.creatures] == ["Goblin"]
    cone = q.creatures_in_area(enc, "cone", 15, at=(3, 3), by="Tess", direction="SE")
    assert [c.id for c in cone.value.creatures] == ["Goblin"] and (2, 2) not in cone.value.squares
    line = q.creatures_in_area(enc, "line", 30, at=(3, 3), by="Tess", toward=(8, 8))
    assert [c.id for c in line.value.creatures] == ["Goblin", "Long"]
    around = q.creatures_in_area(enc, "emanation", 5, by="Goblin")
    assert [c.id for c in around.value.creatures] == ["Goblin"] and len(around.value.squares) == 9
    with pytest.raises(RuleViolation):
        q.creatures_in_area(enc, "cone", 15, at=(6, 6), by="Tess", direction="E")  # not a corner of its space


@pytest.mark.rule("ATK-10", "ATK-11", "ATK-09")
def test_range_increment_and_penalty() -> None:
    enc = placed(Tess=(0, 0), Goblin=(6, 0), Ksarik=(9, 0))
    at30 = q.range_to(enc, "Tess", "Goblin", "semi-auto")
    assert (at30.value.distance_ft, at30.value.increment, at30.value.penalty) == (30, 1, 0)
    at45 = q.range_to(enc, "Tess", "Ksarik")  # the first ranged weapon: the pistol, 30-ft increments
    assert at45.value.weapon == "tactical semi-auto pistol"
    v = at45.value
    assert (v.distance_ft, v.increment, v.penalty, v.max_range_ft) == (45, 2, -2, 300)
    assert [(t.value, t.rule) for t in at45.terms] == [(-2, "ATK-10")]
    far = q.range_to(enc, "Tess", (14, 0), "frag")  # a thrown grenade: 5 increments of 20 ft
    assert (far.value.distance_ft, far.value.increment, far.value.penalty, far.value.max_range_ft) == (70, 4, -6, 100)
    assert far.value.in_range and not q.range_to(enc, "Tess", (19, 11), "frag").value.in_range
    assert not q.range_to(enc, "Tess", "Goblin", "baton").value.in_range


# ---------------------------------------------------------------- the turn, effects, statistics
@pytest.mark.rule("ACT-02", "ACT-05", "ACT-20", "CF-14", "CF-15")
def test_actions_left_reaction_and_effects_after_a_move_and_total_defense() -> None:
    f = ready(("Goblin", GOBLIN, (8, 3)), tess_at=(0, 3))
    f.do(Move(actor="Tess", to=(2, 3)))
    a = q.actions(f.state, "Tess").value
    assert (a.their_turn, a.remaining, a.spent, a.moved_ft, a.reaction) == (
        True, ("standard", "move", "swift"), ("move",), 10, True
    )  # fmt: skip
    f.do(TotalDefense(actor="Tess"))
    a = q.actions(f.state, "Tess").value
    assert a.remaining == ("swift",)
    e = q.effects(f.state, "Tess").value
    assert [(x.name, x.ends) for x in e.effects] == [("total defense", "until the start of Tess's next turn")]
    assert e.effects[0].expires["kind"] == "turn_start"
    s = q.statistics(f.state, "Tess").value
    assert s.eac.total == 17 + 4 and ("total defense", "ACT-20") in [(t.label, t.rule) for t in s.eac.terms]
    fresh = placed(Tess=(0, 0))
    a = q.actions(fresh, "Tess").value
    assert not a.their_turn and (a.reaction, a.reaction_rule) == (False, "CF-15")


@pytest.mark.rule("ATK-06", "ATK-02", "SV-01", "MOV-06")
def test_statistics_right_now_with_their_terms() -> None:
    enc = placed(Tess=(0, 0))
    s = q.statistics(enc, "Tess").value
    assert (s.eac.total, s.kac.total, s.fort.total, s.ref.total, s.will.total, s.speed.total) == (17, 18, 5, 3, 1, 30)
    baton = s.attacks[0]
    assert (baton.weapon, baton.attack.total, baton.damage_bonus.total) == ("tactical baton", 7, 3)
    assert [(t.value, t.label) for t in baton.attack.terms] == [(4, "base attack bonus"), (3, "Strength modifier")]
    entangled = enc.update("Tess", creature=with_conditions(enc.creature("Tess"), "entangled"))
    s2 = q.statistics(entangled, "Tess").value
    assert s2.speed.total == 15 and s2.attacks[0].attack.total == 5


def test_answers_are_json_and_refuse_what_they_cannot_answer() -> None:
    enc = placed(Tess=(0, 0), Goblin=(3, 0))
    for ans in (q.threatened_squares(enc, "Goblin"), q.cover_and_concealment(enc, "Tess", "Goblin"),
                q.statistics(enc, "Tess"), q.path_cost(enc, "Tess", to=(2, 2))):  # fmt: skip
        data = json.loads(ans.model_dump_json())
        assert set(data) == {"question", "value", "terms", "lines", "rules"} and data["rules"]
    with pytest.raises(SftError, match="no combatant named 'Nobody'"):
        q.reach(enc, "Nobody")
    nomap = enc.model_copy(update={"map": None})
    with pytest.raises(SftError, match="needs a map"):
        q.reachable_squares(nomap, "Tess")


@pytest.mark.rule("MOV-05", "MOV-10", "MOV-17", "ACT-35")
def test_every_reachable_square_is_a_move_the_engine_accepts_at_that_cost() -> None:
    f = ready(("Goblin", GOBLIN, (7, 4)), tess_at=(0, 0), map=DIFFICULT)
    f.do(Move(actor="Tess", path=((1, 1),)))  # one diagonal (into difficult terrain) already counted this turn
    reach = q.reachable_squares(f.state, "Tess", 2).value
    assert len(reach) > 20
    assert {r.actions for r in reach} == {1, 2}
    for r in reach:
        again = Fight(f.state, f.dice)
        if r.actions == 2:  # more than one move action away: the next move command refuses it
            with pytest.raises(RuleViolation):
                again.do(Move(actor="Tess", to=r.square))
            continue
        again.do(Move(actor="Tess", to=r.square))
        assert again.state.get("Tess").position == r.square and again.state.get("Tess").moved_ft == 15 + r.cost_ft
