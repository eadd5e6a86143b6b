"""The GM's toolbox, continued (issue 15, section 3): an area effect from a point with no one using it, a check
the GM calls for with its action cost, the hourly long-term stability check and smothering flames."""

from __future__ import annotations

import pytest

from sftactics.core.errors import CommandError, RuleViolation, SftError
from sftactics.encounter import narrate
from sftactics.encounter.commands import Begin, EndTurn
from sftactics.encounter.engine import Fight
from sftactics.encounter.events import CheckMade, CreatureChanged, Event
from sftactics.sf1e.injury import apply_damage
from sftactics.sf1e.state import Creature
from tests.builders import npc, pc
from tests.encounter.helpers import combatant, encounter, fight

OPEN = "\n".join(["." * 12] * 8)


def _checks(events: list[Event]) -> list[CheckMade]:
    return [e for e in events if isinstance(e, CheckMade)]


def _terms(e: CheckMade) -> list[tuple[int, str]]:
    assert e.check is not None
    return [(t.value, t.label) for t in e.check.bonus.terms]


# ---------------------------------------------------------------- an area effect from a point
def _trap_room(dice: list[int]) -> Fight:
    """Tess (PC, Reflex +3, SP 28, HP 30) at 2,2; Ksarik (Reflex +4, HP 25) at 3,3; Bo (HP 25) far off at 8,3."""
    t = combatant("Tess", "party", initiative=20, position=(2, 2))
    k = combatant("Ksarik", "aliens", initiative=10, position=(3, 3))
    b = combatant("Bo", "aliens", npc(name="Bo"), initiative=5, position=(8, 3))
    f = fight(encounter(t, k, b, map=OPEN), dice)
    f.do(Begin())
    return f


@pytest.mark.rule("EFF-01", "EFF-03", "SV-09", "DMG-14")
def test_a_trap_burst_from_a_point_rolls_once_and_each_creature_saves_for_half() -> None:
    # 2d6 fire = 3 + 4 = 7 for everyone in the 10-ft burst around point 3,3; Tess d20 10 + 3 = 13 fails DC 14
    # (7 to Stamina); Ksarik d20 12 + 4 = 16 succeeds (half: 3); Bo is outside and rolls nothing
    f = _trap_room([3, 4, 10, 12])
    events = f.do({"type": "area_effect", "name": "plasma mine", "area": {"shape": "burst", "size_ft": 10,
                   "at": [3, 3]}, "save": {"type": "ref", "dc": 14}, "damage": "2d6 F"})  # fmt: skip
    assert f.state.creature("Tess").state.sp == 21
    assert f.state.creature("Ksarik").state.hp == 22
    assert f.state.creature("Bo").state.hp == 25
    tess, ksarik = _checks(events)
    assert tess.check is not None and ksarik.check is not None
    assert (tess.id, tess.check.natural, tess.check.total, tess.check.dc, tess.success) == ("Tess", 10, 13, 14, False)
    assert (ksarik.id, ksarik.check.total, ksarik.success) == ("Ksarik", 16, True)
    assert _terms(tess) == [(1, "base Reflex"), (2, "Dexterity modifier")]
    hurt = [e for e in events if isinstance(e, CreatureChanged) and e.damage is not None]
    assert [(e.id, e.damage.source) for e in hurt if e.damage] == [("Tess", "plasma mine"), ("Ksarik", "plasma mine")]
    assert f.state.get("Tess").spent == ()  # nobody acted: it is the GM's


@pytest.mark.rule("EFF-06", "SV-09", "CF-14")
def test_a_gas_cone_from_a_point_gives_its_condition_to_those_who_fail_for_its_rounds() -> None:
    # a 15-ft cone east from point 4,4: Ksarik at 5,4 fails (d20 5 + 4 = 9 vs 13), Bo at 6,3 saves (15 + 4);
    # Tess at 2,4 is behind the point, outside the cone
    t = combatant("Tess", "party", initiative=20, position=(2, 4))
    k = combatant("Ksarik", "aliens", initiative=10, position=(5, 4))
    b = combatant("Bo", "aliens", npc(name="Bo"), initiative=5, position=(6, 3))
    f = fight(encounter(t, k, b, map=OPEN), [5, 15])
    f.do(Begin())
    events = f.do({"type": "area_effect", "name": "nerve gas", "area": {"shape": "cone", "size_ft": 15,
                   "at": [4, 4], "direction": "E"}, "save": {"type": "fort", "dc": 13, "on_save": "negates"},
                   "conditions": [{"name": "sickened", "rounds": 1}]})  # fmt: skip
    assert [e.id for e in _checks(events)] == ["Ksarik", "Bo"]
    assert f.state.creature("Ksarik").has("sickened")
    assert not f.state.creature("Bo").has("sickened") and not f.state.creature("Tess").has("sickened")
    for who in ("Tess", "Ksarik", "Bo"):
        f.do(EndTurn(actor=who))
    assert not f.state.creature("Ksarik").has("sickened")  # 1 round from count 20: gone when it comes again


@pytest.mark.rule("MOD-08", "EFF-36")
def test_cover_from_the_point_helps_the_reflex_save_and_a_wall_keeps_a_creature_out() -> None:
    # a low obstacle at 4,3 between the point 3,3 and Ksarik at 5,3: +2 to its Reflex save, so d20 9 + 4 + 2 = 15
    # makes DC 15 (half of 5: 2); Bo, behind a wall on the west side of column 8, is not in the burst at all
    rows = ["." * 12 for _ in range(8)]
    rows[3] = "....o......."
    walled = "\n".join(rows) + "\n\nwall 8,0..8,7 W"
    t = combatant("Tess", "party", initiative=20, position=(11, 0))
    k = combatant("Ksarik", "aliens", initiative=10, position=(5, 3))
    b = combatant("Bo", "aliens", npc(name="Bo"), initiative=5, position=(8, 2))
    f = fight(encounter(t, k, b, map=walled), [5, 9])
    f.do(Begin())
    events = f.do({"type": "area_effect", "area": {"shape": "burst", "size_ft": 30, "at": [3, 3]},
                   "damage": "1d6 B", "save": {"type": "ref", "dc": 15}})  # fmt: skip
    (save,) = _checks(events)
    assert save.check is not None and (save.check.total, save.success) == (15, True)
    assert (2, "cover") in _terms(save)
    assert f.state.creature("Ksarik").state.hp == 23
    assert f.state.creature("Bo").state.hp == 25


@pytest.mark.rule("EFF-01")
def test_an_area_effect_is_refused_without_a_map_or_off_it_and_nothing_moves() -> None:
    f = _trap_room([])
    with pytest.raises(RuleViolation) as e:
        f.do({"type": "area_effect", "area": {"shape": "burst", "size_ft": 10, "at": [30, 3]}, "damage": "1d6"})
    assert e.value.rule == "EFF-01"
    with pytest.raises(SftError, match="unknown condition"):
        f.do({"type": "area_effect", "area": {"shape": "burst", "size_ft": 10, "at": [3, 3]},
              "conditions": [{"name": "grumpy"}]})  # fmt: skip
    with pytest.raises(SftError, match="damage, conditions or both"):
        f.do({"type": "area_effect", "area": {"shape": "burst", "size_ft": 10, "at": [3, 3]}})
    with pytest.raises(RuleViolation) as e:
        f.do({"type": "area_effect", "area": {"shape": "cone", "size_ft": 15, "at": [3, 3]}, "damage": "1d6"})
    assert e.value.rule == "EFF-05"
    g = fight(encounter(combatant("Tess", "party", initiative=20), combatant("Ksarik", "aliens")), [])
    with pytest.raises(RuleViolation) as e:
        g.do({"type": "area_effect", "area": {"shape": "burst", "size_ft": 10, "at": [3, 3]}, "damage": "1d6"})
    assert e.value.rule == "EFF-01"
    assert f.state.creature("Tess").state.sp == 28 and not f.dice.history


# ---------------------------------------------------------------- a check the GM calls for
def _duel(dice: list[int], tess: Creature | None = None) -> Fight:
    t = combatant("Tess", "party", tess, initiative=20, position=(0, 0))
    k = combatant("Ksarik", "aliens", initiative=10, position=(5, 0))
    f = fight(encounter(t, k, map=OPEN), dice)
    f.do(Begin())
    return f


@pytest.mark.rule("GEN-01", "ACT-74", "ACT-02", "ACT-03")
def test_a_skill_check_on_its_own_turn_spends_the_action_it_costs() -> None:
    f = _duel([12, 3], pc(name="Tess", skills={"athletics": 9}))
    events = f.do({"type": "check", "target": "Tess", "skill": "Athletics", "dc": 20, "action": "move",
                   "what": "climb the bulkhead", "modifiers": [{"value": 2, "label": "rope"}]})  # fmt: skip
    (e,) = _checks(events)
    assert e.check is not None
    assert (e.check.natural, e.check.bonus.total, e.check.total, e.check.dc, e.success) == (12, 11, 23, 20, True)
    assert _terms(e) == [(9, "athletics bonus"), (2, "rope")]
    assert e.what == "athletics check (climb the bulkhead)"
    assert f.state.get("Tess").spent == ("move",)
    before = f.state
    with pytest.raises(RuleViolation) as err:
        f.do({"type": "check", "target": "Tess", "skill": "athletics", "dc": 10, "action": "full"})
    assert err.value.rule == "ACT-03"
    assert f.state == before and len(f.dice.history) == 1
    f.do({"type": "check", "target": "Tess", "skill": "athletics", "dc": 15, "action": "standard"})
    assert f.state.get("Tess").spent == ("move", "standard")
    with pytest.raises(RuleViolation) as err:
        f.do({"type": "check", "target": "Tess", "skill": "athletics", "dc": 15, "action": "move"})
    assert err.value.rule == "ACT-02"


@pytest.mark.rule("GEN-01")
def test_a_check_outside_the_creatures_turn_spends_nothing() -> None:
    f = _duel([10])
    f.do({"type": "check", "target": "Ksarik", "skill": "perception", "bonus": 6, "dc": 15, "action": "standard"})
    assert f.state.get("Ksarik").spent == () and f.state.get("Tess").spent == ()


@pytest.mark.rule("GEN-02", "CON-14")
def test_an_ability_check_and_a_dex_skill_carry_the_conditions_that_hit_them() -> None:
    # entangled: -2 to Dexterity-based skill and ability checks; Acrobatics keys off Dexterity
    f = _duel([10, 10, 10])
    f.do({"type": "add_condition", "target": "Tess", "condition": "entangled"})
    acro = _checks(f.do({"type": "check", "target": "Tess", "skill": "acrobatics", "bonus": 5, "dc": 13}))[0]
    dex = _checks(f.do({"type": "check", "target": "Tess", "ability": "dex", "dc": 11}))[0]
    strength = _checks(f.do({"type": "check", "target": "Tess", "ability": "str", "dc": 13}))[0]
    assert acro.check is not None and dex.check is not None and strength.check is not None
    assert (acro.check.total, acro.success) == (13, True)
    assert (dex.check.total, dex.success) == (10, False)  # 10 + 2 - 2
    assert (strength.check.total, strength.success) == (13, True)  # Strength: no penalty
    assert (-2, "entangled") in [(v, label.split(" ")[0]) for v, label in _terms(acro)]


@pytest.mark.rule("SV-01", "SV-02")
def test_a_saving_throw_check_has_its_natural_one_and_twenty() -> None:
    f = _duel([1, 20])
    low = _checks(f.do({"type": "check", "target": "Ksarik", "save": "will", "dc": -5}))[0]
    high = _checks(f.do({"type": "check", "target": "Ksarik", "save": "fort", "dc": 99}))[0]
    assert low.check is not None and high.check is not None
    assert (low.success, low.check.automatic, high.success, high.check.automatic) == (
        False, "natural 1", True, "natural 20")  # fmt: skip


def test_a_check_needs_one_roll_and_a_bonus_for_an_unlisted_skill() -> None:
    f = _duel([])
    with pytest.raises(SftError, match="exactly one"):
        f.do({"type": "check", "target": "Tess", "skill": "athletics", "ability": "str", "dc": 10})
    with pytest.raises(SftError, match="no engineering bonus"):
        f.do({"type": "check", "target": "Tess", "skill": "Engineering", "dc": 10})
    with pytest.raises(SftError, match="modifiers"):
        f.do({"type": "check", "target": "Tess", "ability": "str", "bonus": 3, "dc": 10})
    with pytest.raises(CommandError):
        f.do({"type": "check", "target": "Tess", "ability": "luck", "dc": 10})


# ---------------------------------------------------------------- long-term stability
def _out_cold(**kw: object) -> Creature:
    """Tess (Con +1, level 4) at 0 HP, unconscious and stable, with no Resolve left."""
    c = pc(name="Tess").with_state(hp=10, sp=0, rp=0)
    return apply_damage(c, 10, nonlethal=True).creature


def _aftermath(dice: list[int]) -> Fight:
    t = combatant("Tess", "party", _out_cold(), initiative=20, position=(0, 0))
    doc = combatant("Doc", "party", pc(name="Doc", skills={"medicine": 9}), initiative=15, position=(1, 0))
    k = combatant("Ksarik", "aliens", initiative=10, position=(5, 0))
    f = fight(encounter(t, doc, k, map=OPEN), dice)
    f.do(Begin())
    f.do({"type": "end_combat", "reason": "the ksarik flees"})
    return f


@pytest.mark.rule("INJ-13")
def test_a_tended_stable_creature_counts_a_low_result_as_ten_then_wakes() -> None:
    # hour 1: Doc's Medicine d20 6 + 9 = 15 succeeds; Tess's Constitution d20 3 + 1 + 2 = 6, counted as 10: stable
    f = _aftermath([6, 3, 8, 17])
    events = f.do({"type": "stability_check", "target": "Tess", "hour": 1, "healer": "Doc"})
    med, con = _checks(events)
    assert med.check is not None and con.check is not None
    assert (med.id, med.check.total, med.check.dc, med.success) == ("Doc", 15, 15, True)
    assert (con.id, con.check.total, con.check.dc) == ("Tess", 6, 20)
    assert _terms(con) == [(1, "Constitution modifier"), (2, "tended by a healer")]
    assert con.what.endswith("stays stable")
    tess = f.state.creature("Tess")
    assert tess.has("stable") and tess.state.hp == 0
    text = narrate.lines(events)
    assert sum("d20 3 +3 = 6" in line for line in text) == 1  # the roll is shown once, from the check's data
    assert any("counts as 10" in line for line in text)
    # hour 2: Medicine d20 8 + 9 = 17; Constitution d20 17 + 3 = 20: 1 HP and awake
    f.do({"type": "stability_check", "target": "Tess", "hour": 2, "healer": "Doc"})
    tess = f.state.creature("Tess")
    assert tess.state.hp == 1 and not tess.has("unconscious") and not tess.has("stable")


@pytest.mark.rule("INJ-13")
def test_an_untended_low_result_kills_and_the_eighth_hour_wakes() -> None:
    f = _aftermath([8])
    events = f.do({"type": "stability_check", "target": "Tess"})  # d20 8 + 1 = 9
    assert f.state.creature("Tess").has("dead")
    assert _checks(events)[0].what.endswith("dies")
    g = _aftermath([12])
    g.do({"type": "stability_check", "target": "Tess", "hour": 8})  # 13: stable, and the eighth hour is up
    assert g.state.creature("Tess").state.hp == 4  # 1 HP per level


@pytest.mark.rule("INJ-13", "INJ-12")
def test_the_stability_check_is_refused_for_a_creature_that_can_stay_in_the_fight() -> None:
    f = _aftermath([])
    with pytest.raises(RuleViolation) as e:
        f.do({"type": "stability_check", "target": "Doc"})
    assert e.value.rule == "INJ-13"
    with pytest.raises(RuleViolation):
        f.do({"type": "stability_check", "target": "Tess", "healer": "Tess"})
    with pytest.raises(CommandError):
        f.do({"type": "stability_check", "target": "Tess", "hour": 9})
    assert not f.dice.history


# ---------------------------------------------------------------- smothering flames
def _on_fire(dice: list[int]) -> Fight:
    """Ksarik (count 20) acts before Tess (count 10, Reflex +3); the GM sets Tess on fire (1d6 fire); Tess's
    turn begins with the burn (first die)."""
    t = combatant("Tess", "party", initiative=10, position=(0, 0))
    k = combatant("Ksarik", "aliens", initiative=20, position=(5, 0))
    f = fight(encounter(t, k, map=OPEN), dice)
    f.do(Begin())
    f.do({"type": "add_condition", "target": "Tess", "condition": "burning"})
    f.do(EndTurn(actor="Ksarik"))
    return f


@pytest.mark.rule("CON-05", "ACT-57")
def test_smothering_the_flames_is_a_full_action_for_a_save_at_plus_four() -> None:
    # burn 4: DC 14; smother d20 7 + 3 + 4 = 14 puts the fire out; no end-of-turn save follows
    f = _on_fire([4, 7])
    assert f.state.creature("Tess").state.sp == 24
    events = f.do({"type": "smother", "actor": "Tess"})
    (e,) = _checks(events)
    assert e.check is not None
    assert (e.check.dc, e.check.total, e.success) == (14, 14, True)
    assert _terms(e)[-1] == (4, "smothering the flames (full action)")
    assert not f.state.creature("Tess").has("burning")
    assert f.state.get("Tess").spent == ("full",)
    f.do(EndTurn(actor="Tess"))
    assert f.dice.remaining == 0


@pytest.mark.rule("CON-05")
def test_a_failed_smother_counts_as_an_attempt_for_the_end_of_turn_save() -> None:
    # burn 4: DC 14; smother d20 6 + 7 = 13 fails; the end-of-turn save d20 9 + 3 + 2 (one attempt) = 14 succeeds
    f = _on_fire([4, 6, 9])
    f.do({"type": "smother", "actor": "Tess"})
    assert f.state.creature("Tess").has("burning") and f.state.get("Tess").burn_saves == 1
    events = f.do(EndTurn(actor="Tess"))
    save = _checks(events)[0]
    assert save.check is not None and (save.check.total, save.success) == (14, True)
    assert not f.state.creature("Tess").has("burning")


@pytest.mark.rule("CON-05", "ACT-03")
def test_smothering_is_refused_when_not_burning_or_after_another_action() -> None:
    f = _duel([])
    with pytest.raises(RuleViolation) as e:
        f.do({"type": "smother", "actor": "Tess"})
    assert e.value.rule == "CON-05"
    g = _on_fire([4])
    g.do({"type": "drop_prone", "actor": "Tess"})
    with pytest.raises(RuleViolation) as e:
        g.do({"type": "smother", "actor": "Tess"})
    assert e.value.rule == "ACT-03"
    with pytest.raises(RuleViolation) as e:
        g.do({"type": "smother", "actor": "Ksarik"})
    assert e.value.rule == "CF-12"
