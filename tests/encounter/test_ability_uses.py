"""Healing abilities and limited uses of ``use_ability`` (INJ-10, INJ-18, INJ-20, SPA-02)."""

from __future__ import annotations

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter.commands import Begin, UseAbility
from sftactics.encounter.engine import Fight
from sftactics.sf1e.state import ConditionInstance, Creature
from tests.builders import npc, pc
from tests.encounter.helpers import combatant, encounter, fight

OPEN = "......\n......\n......\n"


def _dying(name: str) -> Creature:
    c = pc(name=name)
    return c.with_state(hp=0, sp=0, conditions=(ConditionInstance(name="dying"),
                                                ConditionInstance(name="unconscious", source="0 HP")))  # fmt: skip


def _cure(**kw: object) -> UseAbility:
    base: dict[str, object] = {"actor": "Sorin", "name": "mystic cure", "kind": "spell", "target": "Krask",
                               "heal": "1d8+4", "uses": 2, "pool": "1st-level spells"}  # fmt: skip
    return UseAbility.model_validate({**base, **kw})


def _party(dice: list[int]) -> Fight:
    sorin = combatant("Sorin", "party", pc(name="Sorin"), initiative=30, position=(1, 1))
    krask = combatant("Krask", "party", _dying("Krask"), initiative=10, position=(2, 1))
    gob = combatant("Gob", "aliens", npc(name="Gob"), initiative=5, position=(5, 2))
    f = fight(encounter(sorin, krask, gob, map=OPEN), dice)
    f.do(Begin())
    return f


@pytest.mark.rule("INJ-10", "INJ-18")
def test_a_healing_spell_wakes_a_dying_ally() -> None:
    f = _party([6])  # 1d8 = 6
    f.do(_cure())
    krask = f.state.creature("Krask")
    assert krask.state.hp == 10  # 6 + 4
    assert not krask.has("dying") and not krask.has("unconscious")
    assert f.state.get("Sorin").uses_spent == {"1st-level spells": 1}


@pytest.mark.rule("SPA-02")
def test_uses_of_a_pool_run_out() -> None:
    f = _party([6])
    f.do(_cure(uses=1))
    before = f.state
    with pytest.raises(RuleViolation) as e:  # another spell from the same slots: none left
        f.do(_cure(name="mind thrust", heal=None, target="Gob", save={"type": "will", "dc": 15}, damage="2d10", uses=1))
    assert e.value.rule == "SPA-02"
    assert f.state == before
    assert f.state.get("Sorin").uses_spent == {"1st-level spells": 1}


@pytest.mark.rule("INJ-20")
def test_the_dead_cannot_be_healed() -> None:
    sorin = combatant("Sorin", "party", pc(name="Sorin"), initiative=30, position=(1, 1))
    dead = pc(name="Krask").with_state(hp=0, conditions=(ConditionInstance(name="dead"),))
    krask = combatant("Krask", "party", dead, initiative=10, position=(2, 1))
    gob = combatant("Gob", "aliens", npc(name="Gob"), initiative=5, position=(5, 2))
    f = fight(encounter(sorin, krask, gob, map=OPEN), [6])
    f.do(Begin())
    with pytest.raises(RuleViolation) as e:
        f.do(_cure())
    assert e.value.rule == "INJ-20"
    assert f.state.get("Sorin").uses_spent == {}
