"""Critical hit effects (ATK-14..17, SV-07, CON-04, MOD-18, CON-23; XREF X-09)."""

from __future__ import annotations

from typing import Any

import pytest

from sftactics.core.breakdown import Term, explain
from sftactics.dice import parse
from sftactics.dice.source import ScriptedDice
from sftactics.sf1e import conditions as cond
from sftactics.sf1e.criticals import (
    CriticalEffect,
    apply_critical,
    critical_dc,
    critical_dc_breakdown,
    immune_to_crits,
    parse_critical,
)
from sftactics.sf1e.damage import roll_damage
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.state import Creature
from tests.builders import npc, pc


def weapon(critical: str = "", **over: Any) -> Weapon:
    base: dict[str, Any] = {
        "name": "test rifle",
        "category": "longarm",
        "damage": "1d8 P",
        "critical": critical,
        "item_level": 6,
    }
    base.update(over)
    return Weapon.model_validate(base)


def crit(text: str, defender: Creature | None = None, rolls: list[int] | None = None, **kw: Any) -> Any:
    """Apply ``text`` from Tess (key Str +3) with a level-6 weapon to the ksarik (Fort +4)."""
    effect = parse_critical(text)
    assert effect is not None
    w = kw.pop("weapon", None) or weapon(text)
    dice = ScriptedDice(rolls or [])
    out = apply_critical(
        effect,
        attacker=pc(),
        defender=defender or npc(),
        weapon=w,
        dice=dice,
        broken=kw.pop("broken", False),
        **kw,
    )
    assert dice.remaining == 0  # every scripted die was needed
    return out


# ---------------------------------------------------------------- parsing
@pytest.mark.rule("ATK-15")
@pytest.mark.parametrize(
    ("text", "name", "amount", "dc", "save"),
    [
        ("Burn 1d6", "burn", "1d6", None, None),
        ("Bleed 2d6", "bleed", "2d6", None, None),
        ("Arc 2", "arc", "2", None, None),
        ("Corrode 1d4", "corrode", "1d4", None, None),
        ("Knockdown", "knockdown", None, None, None),
        ("knockdown", "knockdown", None, None, None),
        ("Staggered", "staggered", None, None, "fort"),
        ("staggered [Fort]", "staggered", None, None, "fort"),
        ("Staggered [DC 17]", "staggered", None, 17, "fort"),
        ("Deafen", "deafen", None, None, "fort"),
        ("Deafen [DC", "deafen", None, None, "fort"),
        ("Wound", "wound", None, None, "table"),
        ("Wound [DC 14]", "wound", None, 14, "table"),
        ("Severe wound", "severe wound", None, None, "table"),
        ("Degeneration", "degeneration", None, None, "fort"),
        ("critical confuse [DC 22]", "confuse", None, 22, None),
    ],
)
def test_parse_critical(text: str, name: str, amount: str | None, dc: int | None, save: str | None) -> None:
    e = parse_critical(text)
    assert e is not None
    assert (e.name, e.amount, e.dc, e.save) == (name, amount, dc, save)
    assert e.text == text


@pytest.mark.rule("ATK-15")
def test_parse_critical_injection_and_oddities() -> None:
    inj = parse_critical("Injection DC +2")
    assert inj is not None and (inj.name, inj.dc_bonus, inj.dc, inj.has_dc) == ("injection", 2, None, False)
    push = parse_critical("Push 10 ft.")
    assert push is not None and (push.name, push.amount, push.detail, push.known) == ("push", None, "10 ft.", False)
    assert parse_critical("") is None
    assert parse_critical("—") is None


# ---------------------------------------------------------------- DCs
@pytest.mark.rule("SV-07", "ATK-15")
def test_critical_dc_formula() -> None:
    tess = pc()  # key ability Strength +3
    assert critical_dc(weapon("Staggered"), tess) == 10 + 3 + 3  # base + item level 6 // 2 + Str
    assert critical_dc(weapon("Staggered", item_level=5), tess) == 10 + 2 + 3
    assert critical_dc(weapon("Staggered"), tess, Sf1eOptions(critical_dc_base=8)) == 14
    bd = critical_dc_breakdown(weapon("Staggered"), tess)
    assert bd is not None and all(t.rule == "SV-07" for t in bd.applied)


@pytest.mark.rule("SV-07")
def test_printed_dcs_win_over_the_formula() -> None:
    tess = pc()
    assert critical_dc(weapon("Staggered", critical_dc=17), tess) == 17
    assert critical_dc(weapon("Wound [DC 14]", critical_dc=17), tess) == 14  # the effect text wins


@pytest.mark.rule("SV-07", "GEN-13")
def test_non_proficient_wielder_lowers_the_dc_by_4() -> None:
    tess = pc()
    odd = weapon("Staggered", category="special")  # not in Tess's proficiencies
    assert critical_dc(odd, tess) == 16 - 4


@pytest.mark.rule("SV-07")
def test_effects_without_a_save_have_no_dc() -> None:
    tess = pc()
    assert critical_dc(weapon("Burn 1d6"), tess) is None
    assert critical_dc(weapon("Knockdown"), tess) is None
    assert critical_dc(weapon(""), tess) is None
    assert critical_dc(weapon("Severe Wound"), tess) == 16  # table rows may allow a save


@pytest.mark.rule("SV-07")
def test_wielder_without_key_ability_uses_the_attack_ability() -> None:
    ksarik = npc()  # Str +3, Dex +2, no key ability
    claw = weapon("Staggered", category="natural", item_level=2)
    gun = weapon("Staggered", category="small_arm", item_level=2)
    assert critical_dc(claw, ksarik) == 10 + 1 + 3
    assert critical_dc(gun, ksarik) == 10 + 1 + 2


# ---------------------------------------------------------------- applying
@pytest.mark.rule("ATK-15", "CON-02")
def test_bleed_gives_bleeding_with_its_amount() -> None:
    out = crit("Bleed 1d6")
    assert out.status == "applied" and out.applied
    (inst,) = out.defender.state.conditions
    assert (inst.name, inst.value) == ("bleeding", "1d6")
    assert "test rifle" in inst.source
    assert out.added == (inst,)


@pytest.mark.rule("ATK-15", "CON-05")
def test_burn_gives_burning_and_ticks_fire() -> None:
    out = crit("Burn 1d4")
    (inst,) = out.defender.state.conditions
    assert (inst.name, inst.value) == ("burning", "1d4")
    assert cond.tick_expression(out.defender, inst) == parse("1d4 fire")
    default = crit("Burn")
    (d_inst,) = default.defender.state.conditions
    assert d_inst.name == "burning" and d_inst.value is None
    assert cond.tick_expression(default.defender, d_inst) == parse("1d6 fire")


@pytest.mark.rule("ATK-15", "MOD-18")
def test_knockdown_knocks_prone() -> None:
    out = crit("Knockdown")
    assert out.defender.has("prone")
    again = crit("Knockdown", defender=out.defender)
    assert [c.name for c in again.defender.state.conditions] == ["prone"]


@pytest.mark.rule("ATK-15", "CON-23")
def test_knockdown_in_zero_gravity_is_off_kilter() -> None:
    out = crit("Knockdown", zero_gravity=True)
    assert out.defender.has("off-kilter") and not out.defender.has("prone")


@pytest.mark.rule("ATK-15", "SV-07", "CON-33")
def test_staggered_on_a_failed_fortitude_save() -> None:
    # DC 16 (10 + 3 + Str 3); ksarik Fort +4: d20 11 -> 15 fails
    out = crit("Staggered", rolls=[11])
    assert out.save is not None and not out.save.success and out.save.total == 15
    assert out.dc is not None and out.dc.total == 16
    (inst,) = out.defender.state.conditions
    assert (inst.name, inst.rounds) == ("staggered", 1)


@pytest.mark.rule("ATK-15", "SV-07")
def test_staggered_resisted_with_a_successful_save() -> None:
    out = crit("Staggered", rolls=[12])  # 12 + 4 = 16 meets DC 16
    assert out.status == "resisted" and out.applied
    assert out.defender.state.conditions == ()


@pytest.mark.rule("ATK-15", "CON-11")
def test_deafen_lasts_1d4_minutes_on_a_failed_save() -> None:
    out = crit("Deafen", rolls=[2, 3])  # save 2 + 4 = 6 fails; 1d4 = 3 minutes
    (inst,) = out.defender.state.conditions
    assert (inst.name, inst.rounds) == ("deafened", 30)
    printed = crit("Deafen [DC 25]", rolls=[19, 1])  # 19 + 4 = 23 < 25
    assert printed.dc is not None and printed.dc.total == 25
    assert printed.defender.state.conditions[0].rounds == 10


@pytest.mark.rule("ATK-15")
def test_condition_immunity_keeps_the_effect_off_without_rolling() -> None:
    out = crit("Staggered", defender=npc(immunities=["staggered"]))
    assert out.status == "immune" and out.save is None
    bleed = crit("Bleed 1d6", defender=npc(immunities=["bleed"]))
    assert bleed.status == "immune" and bleed.defender.state.conditions == ()


@pytest.mark.rule("ATK-15")
def test_arc_hits_the_secondary_creature_for_undoubled_damage() -> None:
    arc_gun = weapon("Arc 1d6", damage="1d6 E", category="small_arm")
    other = npc(resistances={"electricity": 2})
    out = crit("Arc 1d6", rolls=[5], weapon=arc_gun, secondary=Creature.fresh(other.stat, "second"))
    assert out.status == "applied"
    assert out.secondary_damage is not None
    assert out.secondary_damage.amount == 3  # 5 electricity - resistance 2
    assert {t for p in out.secondary_damage.by_type for t in p.types} == {"electricity"}
    assert out.defender.state.conditions == ()  # the main target is not affected


@pytest.mark.rule("ATK-15")
def test_arc_without_a_secondary_creature_is_recorded() -> None:
    out = crit("Arc 2")
    assert out.status == "recorded" and out.recorded_only and not out.applied
    assert out.secondary_damage is None


@pytest.mark.rule("ATK-15")
@pytest.mark.parametrize("text", ["Wound", "Severe Wound", "Wound [DC 14]", "Degeneration", "critical confuse [DC 22]"])
def test_unapplied_effects_are_recorded_with_their_dc(text: str) -> None:
    out = crit(text)
    assert out.status == "recorded"
    assert out.defender == npc()
    assert out.dc is not None
    assert f"DC {out.dc.total}" in out.lines[-1]


@pytest.mark.rule("ATK-15")
def test_injection_is_recorded() -> None:
    inj = crit("Injection DC +2")
    assert inj.status == "recorded" and inj.dc is None


@pytest.mark.rule("ATK-15", "CON-05")
def test_corrode_gives_the_acid_twin_of_burning() -> None:
    corrode = crit("Corrode 1d4")
    assert corrode.status == "applied"
    (inst,) = corrode.defender.state.conditions
    assert (inst.name, inst.value) == ("corroding", "1d4")
    expr = cond.tick_expression(corrode.defender, inst)
    assert expr is not None and expr.types == frozenset({"acid"})


# ---------------------------------------------------------------- no effect
@pytest.mark.rule("ATK-15", "CON-04", "ATK-14")
def test_broken_weapon_doubles_damage_but_applies_no_effect() -> None:
    w = weapon("Knockdown", broken=True)
    out = crit("Knockdown", weapon=w, broken=True)
    assert out.status == "suppressed" and not out.applied
    assert not out.defender.has("prone")
    assert out.ledger[0].rule == "CON-04"
    broken_bonus = explain("damage bonus", [Term(-2, "broken weapon", "CON-04")])
    r = roll_damage(w.damage_expr, broken_bonus, ScriptedDice([4, 6]), critical=True)
    assert r.times_rolled == 2 and r.total == (4 - 2) + (6 - 2)


@pytest.mark.rule("ATK-17", "SPA-12")
def test_crit_immune_creatures_take_no_effect() -> None:
    for immune in (npc(immunities=["critical hits"]), npc(immunities=["Criticals"]), npc(incorporeal=True)):
        assert immune_to_crits(immune)
        out = crit("Bleed 1d6", defender=immune)
        assert out.status == "suppressed"
        assert out.defender.state.conditions == ()
        assert out.ledger[0].rule == "ATK-17"
    assert not immune_to_crits(npc(immunities=["fire"]))


@pytest.mark.rule("ATK-15")
def test_effect_object_can_come_from_elsewhere() -> None:
    """A wounding fusion offers the wound effect instead of the weapon's own: the DC follows the effect."""
    wound = CriticalEffect("wound", "Wound", save="table")
    out = apply_critical(
        wound, attacker=pc(), defender=npc(), weapon=weapon("Burn 1d6"), dice=ScriptedDice([]), broken=False
    )
    assert out.status == "recorded" and out.dc is not None and out.dc.total == 16
