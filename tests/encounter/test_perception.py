"""Who perceives whom in a fight (SEN-*, VIS-*, SPA-16/17, MOD-05, MOD-20, CF-07)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import SeededDice
from sftactics.encounter.commands import Attack, Begin, Search
from sftactics.encounter.engine import Fight
from sftactics.encounter.perception import perceived_enemies, view
from sftactics.encounter.runner import auto_play
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.senses import Awareness
from tests.builders import npc, pc, with_conditions
from tests.encounter.helpers import combatant, encounter, fight

OPEN = "\n".join(["." * 8] * 4)
DARK = OPEN + "\n\nlight 0,0..7,3 dark"


def pair(tess_kw: dict, foe, *, map: str = OPEN, dice: list[int] | None = None, **enc_kw: object):
    t = combatant("Tess", "party", initiative=20, position=(0, 0), **tess_kw)
    f = combatant("Foe", "aliens", foe, initiative=5, position=(1, 0))
    fi = fight(encounter(t, f, map=map, **enc_kw), dice or [10] * 20)
    fi.do(Begin())
    return fi


@pytest.mark.rule("SEN-07", "SEN-01")
def test_in_plain_sight_both_observe() -> None:
    f = pair({}, npc(name="Foe"))
    assert view(f.state, "Tess", "Foe") == Awareness.OBSERVING == view(f.state, "Foe", "Tess")


@pytest.mark.rule("SPA-17", "SEN-04", "MOD-20")
def test_an_invisible_foe_cannot_be_attacked_until_found() -> None:
    ghost = with_conditions(npc(name="Foe", skills={"stealth": 0}), "invisible")
    f = pair({}, ghost)
    assert view(f.state, "Tess", "Foe") == Awareness.UNAWARE
    with pytest.raises(RuleViolation) as e:
        f.do(Attack(actor="Tess", target="Foe", weapon="baton"))
    assert e.value.rule == "SEN-04" and f.state.get("Tess").spent == ()
    assert perceived_enemies(f.state, "Tess") == []


@pytest.mark.rule("SEN-05", "SEN-09", "SEN-06")
def test_searching_finds_an_invisible_foe_by_sound() -> None:
    ghost = with_conditions(npc(name="Foe", skills={"stealth": 0}), "invisible")
    # the ghost's Stealth: d20 1 + 0 + 40 (unseen, standing still) = 41; Tess's Perception d20 20... fails
    f = pair({}, ghost, dice=[1, 20, 1, 1])
    f.do(Search(actor="Tess"))
    assert view(f.state, "Tess", "Foe") < Awareness.AWARE_OF_LOCATION
    tess = pc(name="Tess", skills={"perception": 40})
    f2 = pair({"creature": tess}, ghost, dice=[1, 20])
    f2.do(Search(actor="Tess"))
    assert view(f2.state, "Tess", "Foe") >= Awareness.AWARE_OF_PRESENCE


@pytest.mark.rule("VIS-04", "SEN-06", "MOD-05")
def test_darkness_without_darkvision_is_total_concealment() -> None:
    # a goblin with darkvision sees Tess; Tess hears the goblin fighting (option noisy_combat_locates):
    # she knows its square, so her hits face a 50% miss chance
    gob = npc(name="Foe", senses={"darkvision": 60})
    f = pair({}, gob, map=DARK, dice=[15, 40, 2])
    assert view(f.state, "Foe", "Tess") == Awareness.OBSERVING
    assert view(f.state, "Tess", "Foe") == Awareness.AWARE_OF_LOCATION
    events = f.do(Attack(actor="Tess", target="Foe", weapon="baton"))
    attack = next(e for e in events if e.type == "attack_made")
    assert "Concealment 50%" in "\n".join(attack.lines) and not attack.hit


@pytest.mark.rule("SEN-05")
def test_without_noisy_combat_hearing_needs_a_check() -> None:
    gob = npc(name="Foe", senses={"darkvision": 60})
    f = pair({}, gob, map=DARK, options=Sf1eOptions(noisy_combat_locates=False))
    assert view(f.state, "Tess", "Foe") == Awareness.UNAWARE


@pytest.mark.rule("VIS-05", "SEN-03")
def test_darkvision_sees_in_the_dark() -> None:
    tess = pc(name="Tess", senses={"darkvision": 60})
    f = pair({"creature": tess}, npc(name="Foe"), map=DARK)
    assert view(f.state, "Tess", "Foe") == Awareness.OBSERVING


@pytest.mark.rule("CF-07", "CF-08", "SEN-08")
def test_rolled_awareness_a_hidden_ambusher_surprises() -> None:
    gob = npc(name="Foe", skills={"stealth": 10})
    t = combatant("Tess", "party", initiative=20, position=(0, 0))
    g = combatant("Foe", "aliens", gob, initiative=5, position=(4, 0), hidden=True)
    f = fight(encounter(t, g, map=OPEN), [15, 5] + [10] * 10)  # Stealth 25 vs Perception 5
    f.do(Begin(roll_awareness=True))
    s = f.state
    assert view(s, "Tess", "Foe") == Awareness.UNAWARE and not s.get("Tess").aware
    assert s.timeline.phase == "surprise" and s.timeline.turn == "Foe"


@pytest.mark.rule("SEN-10", "SEN-09", "MOD-20")
def test_attacking_gives_hiding_away() -> None:
    gob = npc(name="Foe", skills={"stealth": 10})
    t = combatant("Tess", "party", initiative=5, position=(0, 0))
    g = combatant("Foe", "aliens", gob, initiative=20, position=(1, 0), hidden=True)
    f = fight(encounter(t, g, map=OPEN), [15, 5, 12, 3] + [10] * 10)
    f.do(Begin(roll_awareness=True))
    events = f.do(Attack(actor="Foe", target="Tess", weapon="claw"))
    attack = next(e for e in events if e.type == "attack_made")
    assert "flat-footed against an unseen attacker" in "\n".join(attack.lines)
    assert view(f.state, "Tess", "Foe") >= Awareness.AWARE_OF_LOCATION
    assert not f.state.hiding


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 1000))
@pytest.mark.rule("SEN-04", "SEN-06")
def test_the_policy_never_attacks_what_it_has_not_located(seed: int) -> None:
    ghost = with_conditions(npc(name="Ghost"), "invisible")
    cs = [
        combatant("Tess", "party", position=(0, 0)),
        combatant("Bo", "party", pc(name="Bo"), position=(0, 3)),
        combatant("Ghost", "aliens", ghost, position=(6, 1)),
        combatant("Gob", "aliens", npc(name="Gob", senses={"darkvision": 60}), position=(7, 3)),
    ]
    f = Fight(encounter(*cs, map=DARK.replace("0,0..7,3", "4,0..7,3")), SeededDice(seed))
    log: list[tuple[object, list]] = []
    plain_do = f.do

    def recording_do(cmd: object) -> list:
        before = f.state
        events = plain_do(cmd)  # type: ignore[arg-type]
        log.append((before, events))
        return events

    f.do = recording_do  # type: ignore[method-assign]
    auto_play(f, max_rounds=4)
    attacks = 0
    for before, events in log:
        for e in events:
            if e.type == "attack_made" and not e.reaction and e.target in before.combatants:
                attacks += 1
                assert view(before, e.attacker, e.target) >= Awareness.AWARE_OF_LOCATION
    assert attacks > 0  # the visible goblin and the party do fight


@pytest.mark.rule("SEN-04", "AOO-01")
def test_no_attack_of_opportunity_against_a_foe_not_located() -> None:
    from sftactics.encounter import reactions
    from sftactics.encounter.commands import EndTurn, Move

    ghost = with_conditions(npc(name="Foe", skills={"stealth": 0}), "invisible")
    f = pair({}, ghost)
    f.do(EndTurn(actor="Tess"))
    assert view(f.state, "Tess", "Foe") == Awareness.UNAWARE
    ok, why = reactions.can_take_aoo(f.state, f.state.get("Tess"), f.state.get("Foe"))
    assert not ok and why == "Tess has not located Foe (SEN-04)"
    events = f.do(Move(actor="Foe", to=(4, 0)))
    assert [e for e in events if e.type == "attack_made"] == []
    # the same walk away from a visible foe provokes
    g = pair({}, npc(name="Foe"), dice=[10, 2] * 5)
    g.do(EndTurn(actor="Tess"))
    assert [e.attacker for e in g.do(Move(actor="Foe", to=(4, 0))) if e.type == "attack_made"] == ["Tess"]
