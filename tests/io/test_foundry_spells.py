"""Spells imported from Foundry VTT actors as usable abilities (io.foundry_spells)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sftactics.io.foundry import load_actor
from sftactics.io.foundry_spells import spell_range_ft
from sftactics.sf1e.usable import UsableAbility

CREATURES = Path(__file__).parent.parent / "data" / "foundry-sfrpg" / "creatures"


def _specials(name: str) -> dict[str, UsableAbility]:
    sb = load_actor(CREATURES / f"{name}.json").statblock
    assert sb is not None
    return {a.name: a for a in sb.specials}


@pytest.mark.rule("SPA-02", "INJ-18", "SV-09")
def test_a_shamans_healing_and_damaging_spells_are_usable() -> None:
    found = _specials("kiirinta_shaman")
    assert set(found) == {"Mystic Cure", "Mind Thrust", "Force Blast"}
    cure = found["Mystic Cure"]
    assert (cure.target, cure.range_ft, cure.heal, cure.uses, cure.pool) == ("ally", 0, "1d8+5", 6, "spells of level 1")
    thrust = found["Mind Thrust"]
    assert thrust.save is not None and (thrust.save.type, thrust.save.dc, thrust.save.on_save) == ("will", 17, "half")
    assert (thrust.target, thrust.range_ft, thrust.damage) == ("foe", 40, "2d10")  # close: 25 + 5 x (CR 6 // 2)
    blast = found["Force Blast"]
    assert blast.area is not None and (blast.area.shape, blast.area.size_ft) == ("cone", 30)
    assert blast.save is not None and (blast.save.type, blast.save.dc) == ("ref", 18)
    assert (blast.uses, blast.pool) == (3, "spells of level 2")


def test_spells_without_usable_numbers_stay_listed_by_name() -> None:
    result = load_actor(CREATURES / "aanung-an.json")  # Mind Thrust's damage is a lookup formula, with no DC
    assert result.statblock is not None and result.statblock.specials == ()
    assert any(s.name == "Mind Thrust" and not s.usable for s in result.abilities)


def test_spell_ranges_by_caster_level() -> None:
    assert [spell_range_ft(u, "", 6) for u in ("touch", "close", "medium", "long")] == [0, 40, 160, 640]
    assert spell_range_ft("ft", "10", 1) == 10
    assert spell_range_ft("personal", "", 1) is None
