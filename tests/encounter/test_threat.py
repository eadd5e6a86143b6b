"""Who threatens which square (``encounter.threat``), and the attacks of opportunity and flanking that follow from
it: unarmed strikes and unwieldy weapons threaten nothing, 0-ft reach threatens only the creature's own square
(AOO-01..05, MOD-17, the unwieldy property)."""

from __future__ import annotations

from typing import Any

import pytest

from sftactics.encounter import space, threat
from sftactics.encounter.commands import Attack, Begin, EndTurn, Move
from sftactics.encounter.engine import Fight
from sftactics.encounter.state import Combatant
from sftactics.views.mapview import threatened_by
from tests.builders import npc, pc, with_conditions
from tests.encounter.helpers import combatant, encounter, fight

OPEN = "\n".join(["." * 10] * 7)

UNARMED = {"name": "unarmed strike", "category": "unarmed", "damage": "1d3 B", "attack_bonus": 6, "nonlethal": True}
PISTOL = {"name": "pistol", "category": "small_arm", "damage": "1d6 P", "range_ft": 30, "attack_bonus": 6}
DOSHKO = {"name": "tactical doshko", "category": "advanced_melee", "damage": "1d12 P", "attack_bonus": 7,
          "two_handed": True, "unwieldy": True}  # fmt: skip
ADVANCED_DOSHKO = {"name": "advanced doshko", "category": "advanced_melee", "damage": "2d12 P", "attack_bonus": 12,
                   "two_handed": True, "unwieldy": True}  # fmt: skip
CLAW = {"name": "claw", "category": "natural", "damage": "1d4 S", "attack_bonus": 4}
BITE = {"name": "bite", "category": "natural", "damage": "1d2 P", "attack_bonus": 2}


def foe(name: str, *weapons: dict[str, Any], **over: Any) -> Any:
    return npc(name=name, weapons=list(weapons), **over)


def ready(*others: Combatant, tess_at: tuple[int, int] = (2, 3), dice: list[int] | None = None) -> Fight:
    """Tess (init 30) and the others have all acted once (so they may react); round 2, Tess's turn."""
    f = fight(encounter(combatant("Tess", "party", initiative=30, position=tess_at), *others, map=OPEN), dice or [])
    f.do(Begin())
    for name in ["Tess", *(c.id for c in others)]:
        f.do(EndTurn(actor=name))
    assert f.state.timeline.turn == "Tess" and f.state.timeline.round == 2
    return f


def aoos(events: list[Any]) -> list[tuple[str, str, str]]:
    return [(e.attacker, e.target, e.weapon) for e in events if e.type == "attack_made" and e.reaction]


def around(x: int, y: int) -> frozenset[tuple[int, int]]:
    return frozenset((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))


# ---------------------------------------------------------------- AOO-01: unarmed strikes do not threaten
@pytest.mark.rule("AOO-01", "AOO-06")
def test_a_creature_with_only_unarmed_strikes_threatens_nothing_and_takes_no_attack_of_opportunity() -> None:
    # the brawler next to Tess has an unarmed strike and a pistol: walking away provokes nothing (a die of 20
    # is there for the attack it must not make)
    f = ready(combatant("Brawler", "aliens", foe("Brawler", UNARMED, PISTOL), initiative=5, position=(3, 3)),
              dice=[20, 20])  # fmt: skip
    assert threat.threatened_squares(f.state, "Brawler") == frozenset()
    events = f.do(Move(actor="Tess", to=(0, 3)))
    assert aoos(events) == []
    assert f.state.get("Tess").position == (0, 3) and not f.state.get("Brawler").reaction_used


@pytest.mark.rule("AOO-01", "AOO-12")
def test_shooting_next_to_an_unarmed_creature_provokes_nothing() -> None:
    f = ready(combatant("Brawler", "aliens", foe("Brawler", UNARMED, PISTOL), initiative=5, position=(3, 3)),
              dice=[15, 3, 20])  # fmt: skip
    events = f.do(Attack(actor="Tess", target="Brawler", weapon="semi-auto"))
    assert [(e.attacker, e.reaction) for e in events if e.type == "attack_made"] == [("Tess", False)]


@pytest.mark.rule("AOO-01", "MOD-17")
def test_an_unarmed_creature_on_the_far_side_gives_no_flanking() -> None:
    # Tess (2,3) attacks the goblin (3,3); an ally on the far side (4,3) flanks only if it threatens the goblin
    def flank_terms(partner: dict[str, Any]) -> list[str]:
        enc = encounter(
            combatant("Tess", "party", position=(2, 3)),
            combatant("Goblin", "aliens", foe("Goblin", CLAW), position=(3, 3)),
            combatant("Ally", "party", pc(name="Ally", weapons=[partner]), position=(4, 3)),
            map=OPEN,
        )
        baton = enc.get("Tess").creature.stat.weapon("baton")
        geo = space.attack_geometry(enc, enc.get("Tess"), enc.get("Goblin"), baton)
        return [t.rule for t in geo.attack_terms]

    assert flank_terms({"name": "tactical baton", "category": "basic_melee", "damage": "1d4 B"}) == ["MOD-17"]
    assert flank_terms({"name": "unarmed strike", "category": "unarmed", "damage": "1d3 B", "nonlethal": True}) == []


@pytest.mark.rule("AOO-01")
def test_a_feature_that_arms_unarmed_strikes_is_written_as_a_natural_weapon() -> None:
    """A vesk's natural weapons (or a similar feature) make its unarmed strikes threaten: the stat block writes
    the attack as a ``natural`` weapon."""
    fists = {"name": "natural weapons", "category": "natural", "damage": "1d3 B", "attack_bonus": 5}
    enc = encounter(combatant("Vesk", "aliens", foe("Vesk", fists), position=(3, 3)), map=OPEN)
    assert threat.threatened_squares(enc, "Vesk") == around(3, 3)


# ---------------------------------------------------------------- unwieldy weapons make no attacks of opportunity
@pytest.mark.rule("AOO-01", "AOO-06", "AOO-07", "ACT-53", "X-08")
@pytest.mark.parametrize("doshko", [DOSHKO, ADVANCED_DOSHKO], ids=["tactical", "advanced"])
def test_an_unwieldy_doshko_threatens_nothing_and_makes_no_attack_of_opportunity(doshko: dict[str, Any]) -> None:
    f = ready(combatant("Vesk", "aliens", foe("Vesk", doshko, PISTOL), initiative=5, position=(3, 3)),
              dice=[20, 20, 20])  # fmt: skip
    assert threat.threatened_squares(f.state, "Vesk") == frozenset()
    assert threat.aoo_weapons(f.state.get("Vesk")) == ()
    events = f.do(Move(actor="Tess", to=(0, 3)))
    assert aoos(events) == [] and not f.state.get("Vesk").reaction_used


@pytest.mark.rule("AOO-08")
def test_an_attack_of_opportunity_is_made_with_a_weapon_that_can_make_one() -> None:
    # doshko first in the stat block, claw second: the attack of opportunity is the claw's (it misses: 2)
    f = ready(combatant("Vesk", "aliens", foe("Vesk", DOSHKO, CLAW), initiative=5, position=(3, 3)), dice=[2])
    events = f.do(Move(actor="Tess", to=(0, 3)))
    assert aoos(events) == [("Vesk", "Tess", "claw")]


@pytest.mark.rule("AOO-01", "MOD-17")
def test_the_threat_overlay_and_the_engine_agree_on_unwieldy_weapons() -> None:
    enc = encounter(combatant("Vesk", "aliens", foe("Vesk", DOSHKO), position=(3, 3)), map=OPEN)
    squares, why = threatened_by(enc, "Vesk")
    assert squares == frozenset() and "unwieldy" in why


# ---------------------------------------------------------------- AOO-05: 0-ft reach
@pytest.mark.rule("AOO-05", "AOO-02")
def test_a_tiny_creature_without_a_printed_reach_has_0_ft_and_threatens_only_its_own_square() -> None:
    mite = foe("Mite", BITE, size="tiny")
    assert mite.stat.reach_ft == 0
    f = ready(combatant("Mite", "aliens", mite, initiative=5, position=(3, 3)), dice=[20])
    assert threat.threatened_squares(f.state, "Mite") == frozenset({(3, 3)})
    assert threat.threatens(f.state, "Mite", (3, 3)) and not threat.threatens(f.state, "Mite", (2, 3))
    events = f.do(Move(actor="Tess", to=(0, 3)))  # Tess leaves the square next to it: nothing provoked
    assert aoos(events) == []


@pytest.mark.rule("AOO-05", "MOD-17")
def test_a_zero_reach_creature_cannot_flank() -> None:
    enc = encounter(
        combatant("Tess", "party", position=(2, 3)),
        combatant("Goblin", "aliens", foe("Goblin", CLAW), position=(3, 3)),
        combatant("Mite", "party", foe("Mite", BITE, size="tiny"), position=(4, 3)),
        map=OPEN,
    )
    assert not threat.can_flank(enc.get("Mite"))
    baton = enc.get("Tess").creature.stat.weapon("baton")
    assert space.attack_geometry(enc, enc.get("Tess"), enc.get("Goblin"), baton).attack_terms == ()


@pytest.mark.rule("AOO-05", "MOV-03")
def test_a_medium_creature_threatens_its_own_square_so_a_tiny_creature_leaving_it_provokes() -> None:
    """Anyone can attack into its own square (AOO-05): a Tiny creature sharing a goblin's square threatens it."""
    enc = encounter(
        combatant("Goblin", "aliens", foe("Goblin", CLAW), position=(3, 3)),
        combatant("Mite", "party", foe("Mite", BITE, size="tiny"), position=(3, 3)),
        map=OPEN,
    )
    assert threat.threateners(enc, (3, 3)) == ["Goblin", "Mite"]
    assert threat.threateners(enc, (2, 2)) == ["Goblin"]


# ---------------------------------------------------------------- the queries
@pytest.mark.rule("AOO-01", "AOO-03", "AOO-04")
def test_threateners_lists_every_side_and_skips_the_fallen() -> None:
    pike = {"name": "pike", "category": "advanced_melee", "damage": "1d8 P", "reach": True}
    enc = encounter(
        combatant("Ann", "party", pc(name="Ann", weapons=[pike]), position=(1, 1)),
        combatant("Goblin", "aliens", foe("Goblin", CLAW), position=(4, 1)),
        combatant("Down", "aliens", with_conditions(foe("Down", CLAW), "unconscious"), position=(4, 2)),
        map=OPEN,
    )
    assert threat.threateners(enc, (3, 1)) == ["Ann", "Goblin"]  # 10 ft for Ann's pike, adjacent to the goblin
    assert threat.threateners(enc, (3, 3)) == ["Ann"]  # the second square on a diagonal at 10 ft (AOO-04)
    assert threat.threateners(enc, (5, 3)) == []
    assert threat.reaches(enc.get("Ann")) == (10,)
