"""The compiled kernel reads who threatens what from the rules' own answer (``encounter.threat``) when it builds
its model (AOO-01, AOO-05, MOV-03)."""

from __future__ import annotations

import pytest

from sftactics.encounter import threat
from sftactics.sim.kernel.model import compile_encounter, unsupported
from tests.builders import npc
from tests.encounter.helpers import combatant, encounter

OPEN = "\n".join(["." * 8] * 6)
DOSHKO = {"name": "tactical doshko", "category": "advanced_melee", "damage": "1d12 P", "attack_bonus": 7,
          "two_handed": True, "unwieldy": True}  # fmt: skip
CLAW = {"name": "claw", "category": "natural", "damage": "1d4 S", "attack_bonus": 4}
FISTS = {"name": "unarmed strike", "category": "unarmed", "damage": "1d3 B", "attack_bonus": 4}
PISTOL = {"name": "pistol", "category": "small_arm", "damage": "1d6 P", "range_ft": 30, "attack_bonus": 6}


@pytest.mark.rule("AOO-01", "AOO-08")
def test_the_model_threatens_with_the_weapons_that_can_make_attacks_of_opportunity() -> None:
    enc = encounter(
        combatant("Vesk", "party", npc(name="Vesk", weapons=[DOSHKO, CLAW]), position=(1, 1)),
        combatant("Brawler", "aliens", npc(name="Brawler", weapons=[FISTS, PISTOL]), position=(5, 1)),
        combatant("Hauler", "aliens", npc(name="Hauler", weapons=[DOSHKO]), position=(5, 4)),
        map=OPEN,
    )
    m = compile_encounter(enc).model
    assert [bool(x) for x in m.w_aoo[0, :2]] == [False, True]  # the doshko cannot, the claw can
    assert m.zone[0] >= 0 and m.body_reach[0] == 5 and m.takes_aoo[0]
    for i, cid in ((1, "Brawler"), (2, "Hauler")):  # unarmed strikes only / an unwieldy weapon only
        assert threat.threatened_squares(enc, cid) == frozenset()
        assert m.zone[i] == -1 and not m.takes_aoo[i] and not m.w_aoo[i].any()
    assert m.armed[1] and m.armed[2]  # they still attack in melee


@pytest.mark.rule("MOV-03", "AOO-05")
def test_creatures_smaller_than_a_square_threaten_their_own_square_only() -> None:
    mite = npc(name="Mite", size="tiny", weapons=[CLAW])
    enc = encounter(
        combatant("Mite", "party", mite, position=(1, 1)),
        combatant("Goblin", "aliens", npc(name="Goblin", weapons=[CLAW]), position=(5, 1)),
        map=OPEN,
    )
    assert unsupported(enc) == []
    m = compile_encounter(enc).model
    assert threat.threatened_squares(enc, "Mite") == frozenset({(1, 1)})
    assert m.sub[0] and not m.sub[1]
    assert m.w_reach[0, 0] == 0 and m.body_reach[0] == 0 and m.takes_aoo[0]  # threatens, never flanks
    r = m.zone_radius
    side = 2 * r + 1
    zone = m.zones[m.zone[0], 1 * 8 + 1].reshape(side, side)
    assert zone.sum() == 1 and zone[r, r]  # only its own square
