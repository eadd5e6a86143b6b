"""What a 2E combatant carries (:class:`Body2e`) and the plain face the shared views read (:func:`face`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from sftactics.sf1e.statblock import StatBlock
from sftactics.sf1e.state import ConditionInstance, Creature, CreatureState
from sftactics.sf2e.conditions import Awareness
from sftactics.sf2e.creature import Creature2e
from sftactics.sf2e.defenses import Save, armor_class, perception, save_modifier
from sftactics.sf2e.statblock import StatBlock2e

#: 2E conditions the shared face shows with the 1E word the views and the end-of-fight check read.
_FACE_CONDITIONS = {"dying": "dying", "unconscious": "unconscious", "prone": "prone", "off-guard": "flat-footed"}


class Body2e(BaseModel):
    """A 2E combatant's rules side: its stat block, its live creature and its turn (three actions and a
    reaction, the attacks made this turn for the multiple attack penalty), whether it has taken cover, and how
    each opponent perceives it (``unseen_by``: observer -> hidden/undetected/unnoticed; missing: observed)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    stat: StatBlock2e
    creature: Creature2e
    actions: int = Field(0, ge=0, le=4)
    reaction: bool = True
    attacks: int = Field(0, ge=0)
    cover_taken: bool = False
    heroic_recovery: bool = Field(True, description="spend all Hero Points when dying would rise (E2-36)")
    initiative_skill: Literal["perception", "stealth"] = "perception"
    unseen_by: dict[str, Literal["hidden", "undetected", "unnoticed"]] = Field(default_factory=dict)

    def awareness_of_me(self, observer: str) -> Awareness:
        """How ``observer`` perceives this combatant (E2-55, E2-61, E2-62)."""
        return Awareness(self.unseen_by.get(observer, "observed"))


def face(stat: StatBlock2e, c: Creature2e, cid: str) -> Creature:
    """The 1E-shaped face of a 2E creature: name, size, reach, Speed, HP and the conditions that say whether it
    can fight on. Nothing in the 2E rules reads it; the shared views, movement and the end check do."""
    reach = max((s.reach_ft for s in stat.strikes if s.range_increment is None), default=5)
    speeds = {"land": c.speed, **{k: v for k, v in c.speeds.items() if v}}
    ac = armor_class(c).total  # shown as both ACs (2E has one)
    saves = {k: save_modifier(c, s).total for k, s in (("fort", Save.FORTITUDE), ("ref", Save.REFLEX),
                                                        ("will", Save.WILL))}  # fmt: skip
    sb = StatBlock(name=stat.name, kind="pc" if c.player else "npc", level=max(1, c.level), size=stat.size,
                   reach_ft=reach, hp=c.max_hp, speed=speeds, eac=ac, kac=ac, saves=saves,
                   initiative=perception(c).total)  # fmt: skip
    return Creature(id=cid, stat=sb, state=face_state(c))


def face_state(c: Creature2e) -> CreatureState:
    """The live part of the face: HP, temporary HP and the conditions the shared code reads (dead carries the
    cause of death as its source)."""
    conds = [ConditionInstance(name=word) for name, word in _FACE_CONDITIONS.items() if c.has(name)]
    if c.dead:
        conds.append(ConditionInstance(name="dead", source=c.death_cause))
    return CreatureState(hp=c.hp, temp_hp=c.temp_hp, conditions=tuple(conds))
