"""Live state of a creature in a fight: pools, conditions, ability damage, negative levels, dying bookkeeping.

A :class:`Creature` pairs a stat block with its state. Both are frozen values: rules return new ones.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from sftactics.sf1e.statblock import Ability, ModifierSpec, StatBlock


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ConditionInstance(_Model):
    """A condition a creature has. ``value`` carries a parameter (bleed/burn damage such as "1d6");
    ``rounds`` the remaining duration if the source gave one (the encounter counts it down); ``source`` who or
    what imposed it."""

    name: str
    source: str = ""
    value: str | None = None
    rounds: int | None = None


class NegativeLevels(_Model):
    """Negative levels from one source (ABL-10..13)."""

    count: int = Field(ge=1)
    source: str = ""
    dc: int | None = None
    permanent: bool = False


class CreatureState(_Model):
    hp: int
    sp: int = 0
    rp: int = 0
    temp_hp: int = 0
    conditions: tuple[ConditionInstance, ...] = ()
    ability_damage: dict[Ability, int] = Field(default_factory=dict)
    ability_drain: dict[Ability, int] = Field(default_factory=dict)
    ability_penalty: dict[Ability, int] = Field(default_factory=dict)
    negative_levels: tuple[NegativeLevels, ...] = ()
    # dying bookkeeping (INJ-04, INJ-05, INJ-11, INJ-12, INJ-14)
    dropped_round: int | None = None
    dropped_on_own_turn: bool = False
    zero_rp_at_drop: bool = False
    stabilized_round: int | None = None
    stayed_round: int | None = None  # INJ-12: the round it last spent RP to stay in the fight
    hp_damaged_round: int | None = None
    lingering_rounds: int | None = None  # INJ-07 optional 3-round rule for creatures without RP
    nonlethal_fatigue: bool = False  # DMG-12
    modifiers: tuple[ModifierSpec, ...] = ()  # temporary modifiers from actions and effects (fight defensively...)

    def has(self, name: str) -> bool:
        return any(c.name == name for c in self.conditions)


class Creature(_Model):
    """A stat block and its live state; ``id`` tells combatants with the same stat block apart."""

    id: str
    stat: StatBlock
    state: CreatureState

    @classmethod
    def fresh(cls, stat: StatBlock, id: str | None = None) -> Creature:
        """A creature at full SP, HP and RP with no conditions."""
        return cls(id=id or stat.name, stat=stat, state=CreatureState(hp=stat.hp, sp=stat.sp, rp=stat.rp))

    @property
    def name(self) -> str:
        return self.id

    def with_state(self, **changes: object) -> Creature:
        return self.model_copy(update={"state": self.state.model_copy(update=changes)})

    def has(self, name: str) -> bool:
        return self.state.has(name)
