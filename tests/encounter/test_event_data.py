"""Events carry their numbers as data (encounter/outcomes.py), and the text is rendered from that data."""

from pathlib import Path
from typing import Any

import pytest

from sftactics.encounter import narrate
from sftactics.encounter.commands import (
    AddCondition,
    Attack,
    Begin,
    CoupDeGrace,
    Damage,
    EndTurn,
    ManeuverCmd,
    Move,
    Search,
    ThrowGrenade,
)
from sftactics.encounter.engine import Fight
from sftactics.encounter.events import EVENT_ADAPTER, Event
from sftactics.encounter.runner import auto_play
from sftactics.sf1e.state import ConditionInstance
from tests.builders import npc, pc, with_conditions
from tests.encounter.helpers import combatant, encounter, fight

OPEN = "\n".join(["." * 12] * 8)
DARK = "\n".join(["." * 8] * 4) + "\n\nlight 0,0..7,3 dark"


def one(events: list[Event], kind: str) -> Any:
    found = [e for e in events if e.type == kind]
    assert len(found) == 1, [e.type for e in events]
    return found[0]


def as_json(e: Event) -> dict[str, Any]:
    return e.model_dump(mode="json")


def duel(dice: list[int], foe: Any = None, *, map: str = OPEN, foe_at: tuple[int, int] = (1, 0)) -> Fight:
    """Tess (init 20) next to Ksarik (init 5); no dice needed to begin."""
    t = combatant("Tess", "party", initiative=20, position=(0, 0))
    k = combatant("Ksarik", "aliens", foe or npc(name="Ksarik"), initiative=5, position=foe_at)
    f = fight(encounter(t, k, map=map), dice)
    f.do(Begin())
    return f


@pytest.mark.rule("ATK-02", "ATK-05", "ATK-08", "ATK-14", "DMG-04", "SPA-06", "DMG-06")
def test_a_critical_hit_carries_every_number_from_the_d20_to_the_pools() -> None:
    # baton +7 (BAB 4, Str 3) vs KAC 15: natural 20 = 27, critical; 1d4+3 twice: (3+3) + (4+3) = 13; DR 2: 11
    foe = npc(name="Ksarik", dr=[{"value": 2, "bypass": "—"}])
    f = duel([20, 3, 4], foe)
    attack = one(f.do(Attack(actor="Tess", target="Ksarik", weapon="baton")), "attack_made")
    r = as_json(attack)["result"]
    assert (r["attacker"], r["target"], r["weapon"]) == ("Tess", "Ksarik", "tactical baton")
    assert (r["ac_kind"], r["ac"]["total"]) == ("kac", 15)
    assert [(t["value"], t["label"], t["type"]) for t in r["ac"]["terms"]] == [(15, "printed KAC", "base")]
    roll = r["roll"]
    assert [(t["value"], t["label"]) for t in roll["bonus"]["terms"]] == [(4, "base attack bonus"),
                                                                          (3, "Strength modifier")]  # fmt: skip
    assert (roll["natural"], roll["total"], roll["dc"], roll["degree"], roll["automatic"]) == (
        20, 27, 15, "success", "natural 20")  # fmt: skip
    assert (r["outcome"], r["cover"], r["flanking"], r["concealment"]) == ("critical", "none", False, None)
    d = r["damage"]
    assert [(x["sides"], x["result"]) for x in d["dice"]] == [(4, 3), (4, 4)]
    assert (d["times_rolled"], d["critical"], d["rolled"], d["amount"], d["bonus"]["total"]) == (2, True, 13, 11, 3)
    assert d["rolled_by_type"] == [{"types": ["bludgeoning"], "amount": 13}]
    assert [(x["step"], x["amount"]) for x in d["defenses"]] == [("incoming", 13), ("DR", -2), ("total", 0)]
    inj = d["injury"]
    assert (inj["temp_hp"], inj["sp"], inj["hp"], inj["massive"], inj["after"]["hp"]) == (0, 0, 11, None, 14)
    assert r["after"]["hp"] == 14 and [x["result"] for x in r["dice"]] == [20, 3, 4]
    # the text is rendered from these numbers
    text = "\n".join(attack.lines)
    assert "Roll: d20 20 +7 = 27 vs 15: success, natural 20" in text
    assert "DR: DR 2/— on kinetic damage: 13 -> 11 [SPA-06]" in text and "Ksarik: SP 0, HP 14, RP 0" in text


@pytest.mark.rule("MOD-04", "MOD-05", "VIS-04")
def test_the_concealment_roll_is_data() -> None:
    # in darkness Tess only hears the goblin: 50% miss chance; d20 15 hits KAC 15 (+7 = 22), d% 40 misses
    gob = npc(name="Ksarik", senses={"darkvision": 60})
    f = duel([15, 40, 2], gob, map=DARK)
    attack = one(f.do(Attack(actor="Tess", target="Ksarik", weapon="baton")), "attack_made")
    r = as_json(attack)["result"]
    assert r["concealment"] == {"chance": 50, "reason": r["concealment"]["reason"], "roll": 40, "missed": True}
    assert r["outcome"] == "miss" and r["roll"]["degree"] == "success" and r["damage"] is None
    assert "Concealment 50%" in "\n".join(attack.lines) and ": d% 40, the attack misses (MOD-04)" in "\n".join(
        attack.lines
    )


@pytest.mark.rule("DMG-06", "INJ-02")
def test_damage_goes_to_stamina_then_hit_points_as_data() -> None:
    f = duel([])
    changed = one(f.do(Damage(target="Tess", amount=35)), "creature_changed")
    d = as_json(changed)["damage"]
    assert (d["kind"], d["rolled"], d["amount"], d["nonlethal"]) == ("gm", 35, 35, False)
    inj = d["injury"]
    assert (inj["sp"], inj["hp"], inj["overflow"], inj["massive"]) == (28, 7, 0, None)
    # the line that restates these numbers is rendered from them
    assert inj["lines"] == ["{damage}"]
    assert changed.lines[-1] == "Tess takes 35 lethal damage: 28 SP, 7 HP (now 0 temp, 0 SP, 23 HP) [DMG-06]"
    assert as_json(changed)["change"]["before"]["sp"] == 28 and as_json(changed)["change"]["after"]["hp"] == 23


@pytest.mark.rule("INJ-03", "INJ-07")
def test_the_massive_damage_test_is_reported() -> None:
    # 60 damage to a 25-HP NPC: 35 past 0 HP is at least its 25 maximum HP: dead
    f = duel([])
    changed = one(f.do(Damage(target="Ksarik", amount=60)), "creature_changed")
    inj = as_json(changed)["damage"]["injury"]
    assert inj["massive"] == {"measured": 35, "threshold": 25, "dead": True, "rule": "INJ-03"}
    assert inj["died"] and inj["cause"] == "massive damage"
    assert [c["name"] for c in as_json(changed)["change"]["conditions"]["gained"]] == ["dead"]


@pytest.mark.rule("SV-01", "SV-09", "DMG-14", "ATK-12")
def test_a_save_for_half_carries_the_check_and_the_halving() -> None:
    # grenade 1d6 = 4 at DC 12; the goblin saves (d20 15 + 4 = 19): half, 2 damage
    t = combatant("Tess", "party", initiative=30, position=(0, 0))
    g = combatant("Goblin", "aliens", npc(name="Goblin", hp=20), initiative=10, position=(5, 3))
    f = fight(encounter(t, g, map=OPEN), [5, 4, 15])
    f.do(Begin())
    events = f.do(ThrowGrenade(actor="Tess", weapon="frag grenade", at=(6, 4)))
    throw = as_json(one(events, "attack_made"))["result"]
    assert (throw["kind"], throw["roll"]["natural"], throw["ac"]["total"], throw["outcome"]) == ("grenade", 5, 5, "hit")
    # the rule's own account keeps its words; its numbers are placeholders filled in from the data
    made = one(events, "attack_made")
    assert "  Roll: {roll}" in made.notes and "  Roll: d20 5 +5 = 10 vs 5: success" in made.lines
    save = one(events, "check_made")
    c = as_json(save)["check"]
    assert (c["kind"], c["natural"], c["bonus"]["total"], c["total"], c["dc"], c["degree"]) == (
        "save", 15, 4, 19, 12, "success")  # fmt: skip
    assert save.lines == ("Goblin ref save against frag grenade I: d20 15 +4 = 19 vs 12: success",)
    d = as_json(one(events, "creature_changed"))["damage"]
    assert [(x["step"], x["amount"]) for x in d["roll_steps"] if x["step"] == "half"] == [("half", -2)]
    assert (d["kind"], d["source"], d["dice"][0]["result"]) == ("effect", "frag grenade I", 4)
    assert (d["rolled"], d["amount"], d["injury"]["hp"]) == (2, 2, 2)


@pytest.mark.rule("MOV-08", "MOV-10", "AOO-06", "AOO-08")
def test_a_move_lists_each_square_its_cost_and_what_it_provoked() -> None:
    # a goblin at 3,3 threatens 2..4 x 2..4: Tess at 2,3 goes 1,4 (diagonal, 5 ft) then 0,5 (diagonal, 10 ft);
    # leaving 2,3 provokes the goblin (claw: natural 2 misses)
    gob = npc(name="Goblin", weapons=[{"name": "claw", "category": "natural", "damage": "1d4 S", "attack_bonus": 4}])
    cs = [combatant("Tess", "party", initiative=30, position=(2, 3)),
          combatant("Goblin", "aliens", gob, initiative=5, position=(3, 3))]  # fmt: skip
    f = fight(encounter(*cs, map=OPEN), [2])
    f.do(Begin())
    f.do(EndTurn(actor="Tess"))
    f.do(EndTurn(actor="Goblin"))
    events = f.do(Move(actor="Tess", path=[(1, 4), (0, 5)]))
    moved = one(events, "moved")
    m = as_json(moved)
    assert m["steps"] == [
        {"to": [1, 4], "cost_ft": 5, "diagonal": True, "provokes": ["Goblin"]},
        {"to": [0, 5], "cost_ft": 10, "diagonal": True, "provokes": []},
    ]
    assert (m["cost_ft"], m["diagonals"], m["budget_ft"], m["kind"]) == (15, 2, 30, "move")
    aoo = one(events, "attack_made")
    assert aoo.reaction and aoo.result.roll.natural == 2 and aoo.result.outcome == "miss"
    assert moved.lines == ("Tess moves 15 ft: 2,3 -> 1,4 -> 0,5 (up to 30 ft)",)


@pytest.mark.rule("CF-14", "CON-01")
def test_conditions_gained_and_expired_with_source_and_expiry() -> None:
    f = duel([])
    events = f.do(AddCondition(target="Ksarik", condition="shaken", rounds=1))
    gained = as_json(one(events, "creature_changed"))["change"]["conditions"]["gained"]
    assert gained == [{"name": "shaken", "source": "GM", "value": None, "rounds": 1}]
    started = as_json(one(events, "effect_started"))["effect"]
    assert (started["target"], started["name"], started["source"]) == ("Ksarik", "shaken", "GM")
    assert started["expires"]["kind"] == "count" and started["expires"]["round"] == 2
    later = f.do(EndTurn(actor="Tess")) + f.do(EndTurn(actor="Ksarik")) + f.do(EndTurn(actor="Tess"))
    ended = one(later, "effect_ended")
    assert (ended.target, ended.name) == ("Ksarik", "shaken")
    lost = [e for e in later if e.type == "creature_changed" and e.change.conditions.lost]
    assert [c.name for e in lost for c in e.change.conditions.lost] == ["shaken"]


@pytest.mark.rule("CON-30")
def test_a_condition_given_again_is_refreshed() -> None:
    # shaken 1 round, then 2 more: the durations add up (CON-30); the change says refreshed, not gained
    f = duel([])
    f.do(AddCondition(target="Ksarik", condition="shaken", rounds=1))
    again = one(f.do(AddCondition(target="Ksarik", condition="shaken", rounds=2)), "creature_changed")
    ch = again.change.conditions
    assert (ch.gained, ch.lost) == ((), ())
    assert [(c.name, c.source, c.rounds) for c in ch.refreshed] == [("shaken", "GM", 3)]


@pytest.mark.rule("CF-03")
def test_initiative_carries_its_terms() -> None:
    t = combatant("Tess", "party", position=(0, 0))
    k = combatant("Ksarik", "aliens", position=(1, 0))
    events = fight(encounter(t, k, map=OPEN), [12, 7]).do(Begin())
    tess = next(e for e in events if e.type == "initiative_rolled" and e.id == "Tess")
    assert (tess.roll, tess.modifier, tess.total) == (12, 2, 14)
    assert tess.bonus is not None and [(x.value, x.label) for x in tess.bonus.terms] == [(2, "Dexterity modifier")]


def test_the_text_of_a_saved_fight_is_the_same_after_loading(tmp_path: Path) -> None:
    t = combatant("Tess", "party", position=(0, 0))
    k = combatant("Ksarik", "aliens", position=(4, 2))
    f = auto_play(Fight.seeded(encounter(t, k, map=OPEN), 6))
    log = tmp_path / "fight.jsonl"
    f.save(log)
    g = Fight.load(log)
    again = tmp_path / "again.jsonl"
    g.save(again)
    assert again.read_bytes() == log.read_bytes()
    assert narrate.lines(g.all_events()) == narrate.lines(f.all_events())
    assert g.all_events() == f.all_events()
    for e in f.all_events():
        assert EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(e)) == e


@pytest.mark.rule("SEN-05", "SEN-09")
def test_a_search_is_a_perception_check_against_each_stealth() -> None:
    # the invisible foe's Stealth: d20 1 + 0 + 40 (unseen, standing still) = 41; Tess: d20 20 + 40 = 60
    ghost = with_conditions(npc(name="Foe", skills={"stealth": 0}), "invisible")
    t = combatant("Tess", "party", pc(name="Tess", skills={"perception": 40}), initiative=20, position=(0, 0))
    f = fight(encounter(t, combatant("Foe", "aliens", ghost, initiative=5, position=(1, 0)), map=OPEN), [1, 20])
    f.do(Begin())
    check = one(f.do(Search(actor="Tess")), "check_made")
    c, o = check.check, check.opposed
    assert (check.what, check.success) == ("Perception against Foe's Stealth (SEN-05)", True)
    assert (c.natural, c.bonus.total, c.total, c.dc, c.degree) == (20, 40, 60, 41, "success")
    assert (o.skill, o.natural, o.total) == ("stealth", 1, 41)
    assert [(x.value, x.label) for x in o.bonus.terms] == [(0, "stealth bonus"), (40, "unseen (stationary)")]


@pytest.mark.rule("ACT-51")
def test_a_coup_de_grace_carries_its_damage_and_the_save_against_death() -> None:
    # automatic critical: (4 + 3) + (4 + 3) = 14 of 25 HP; Fortitude d20 2 + 4 = 6 against DC 14: dead
    helpless = npc(name="Ksarik").with_state(conditions=(ConditionInstance(name="asleep"),))
    t = combatant("Tess", "party", initiative=30, position=(2, 2))
    k = combatant("Ksarik", "aliens", helpless, initiative=10, position=(3, 2))
    f = fight(encounter(t, k, map=OPEN), [4, 4, 2])
    f.do(Begin())
    r = one(f.do(CoupDeGrace(actor="Tess", target="Ksarik", weapon="baton")), "attack_made").result
    assert (r.kind, r.outcome, r.damage.rolled, r.damage.amount, r.damage.injury.hp) == (
        "coup_de_grace", "critical", 14, 14, 14)  # fmt: skip
    s = r.critical_save
    assert (s.kind, s.natural, s.bonus.total, s.total, s.dc, s.degree) == ("save", 2, 4, 6, 14, "failure")
    assert any(c.name == "dead" for c in r.after.conditions)


@pytest.mark.rule("MAN-01", "MAN-05")
def test_a_maneuver_is_an_attack_roll_against_kac_plus_8_as_data() -> None:
    # grapple with the baton: d20 16 + 7 = 23 against KAC 15 + 8 = 23: success
    f = duel([16])
    made = one(f.do(ManeuverCmd(actor="Tess", target="Ksarik", kind="grapple", weapon="baton")), "attack_made")
    r = made.result
    assert (r.kind, r.ac_kind, r.ac.total) == ("maneuver", "kac", 23)
    assert [(t.value, t.label) for t in r.ac.terms] == [(15, "printed KAC"), (8, "combat maneuver")]
    assert (r.roll.natural, r.roll.bonus.total, r.roll.total, r.roll.dc, r.roll.degree, r.outcome) == (
        16, 7, 23, 23, "success", "hit")  # fmt: skip
    assert "  Target: KAC + 8 23 = +15 printed KAC [ATK-06] +8 combat maneuver [MAN-01]" in made.lines
    assert any(c.name == "grappled" for c in r.after.conditions)
