"""What an injury-rule step returns, and the running edit of a creature it is built with (INJ-*, CON-10).

* :class:`InjuryResult`: the changed creature, the amounts moved (damage soaked, healing, Resolve lost), what
  changed state (dying, unconscious, stable, conscious, dead) and a ledger of what happened, one line per step,
  each line ending with the inventory rule it applies (``"... [INJ-02]"``);
* :class:`InjuryContext`: when damage lands, the round and whether it is the damaged creature's own turn
  (INJ-04); ``NO_CONTEXT`` outside an encounter;
* :class:`CreatureEdit`: a running edit of one creature that the injury rules (:mod:`sftactics.sf1e.injury`) and
  the ability rules (``abilities.py``) build their results with, and the transitions they share: death (CON-10),
  losing Resolve Points one at a time (INJ-05), waking above 0 HP (INJ-10), unconsciousness from ability damage
  or drain that no longer applies (ABL-02, ABL-09);
* the names of the conditions these rules give and take away, and the sources and causes they record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sftactics.core.check import CheckResult
from sftactics.sf1e.statblock import ABILITIES
from sftactics.sf1e.state import ConditionInstance, Creature, CreatureState

DYING = "dying"
STABLE = "stable"
UNCONSCIOUS = "unconscious"
DEAD = "dead"
BLEEDING = "bleeding"
FATIGUED = "fatigued"

ZERO_HP = "0 HP"  # source of the unconsciousness that comes with 0 HP
NONLETHAL_FATIGUE = "nonlethal damage"  # source of fatigue that ends when the nonlethal damage is recovered
RP_EXHAUSTED = "Resolve exhausted"  # cause of death

_RULE_AT_END = re.compile(r"\[([A-Z0-9]+-[0-9]+)\]$")


@dataclass(frozen=True, slots=True)
class InjuryContext:
    """When damage lands: the round number and whether it is the damaged creature's own turn (INJ-04).
    Outside an encounter both stay at their defaults."""

    round: int = 0
    own_turn: bool = False


NO_CONTEXT = InjuryContext()


@dataclass(frozen=True, slots=True)
class InjuryResult:
    """The creature after an injury-rule step, the amounts moved, what changed state, and the ledger.

    Damage: ``temp_lost``, ``sp_lost``, ``hp_lost`` (never more than the HP it had), ``overflow`` (damage past
    0 HP, INJ-03), ``rp_lost``. Healing: ``hp_healed``, ``sp_healed``, ``temp_gained``. ``cause`` says why a
    creature died ("" if it did not). ``checks`` holds any d20 checks rolled (first aid, Constitution checks).
    """

    creature: Creature
    lines: tuple[str, ...] = ()
    temp_lost: int = 0
    sp_lost: int = 0
    hp_lost: int = 0
    overflow: int = 0
    rp_lost: int = 0
    temp_gained: int = 0
    sp_healed: int = 0
    hp_healed: int = 0
    became_dying: bool = False
    became_unconscious: bool = False
    became_stable: bool = False
    became_conscious: bool = False
    died: bool = False
    cause: str = ""
    checks: tuple[CheckResult, ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule IDs the ledger cites, in order (duplicates removed)."""
        out: list[str] = []
        for line in self.lines:
            m = _RULE_AT_END.search(line)
            if m and m.group(1) not in out:
                out.append(m.group(1))
        return tuple(out)

    def describe(self) -> str:
        return "\n".join(self.lines)


# ---------------------------------------------------------------- editing a creature step by step
class CreatureEdit:
    """A running edit of one creature: state changes, condition changes, ledger lines and flags.

    Rule modules (this one and ``abilities.py``) use it to build results; ``creature`` is the current value.
    Its condition helpers work per source, unlike ``conditions.add_condition``: the unconsciousness of 0 HP must
    stand beside unconsciousness from ability damage, and healing removes only the first.
    """

    def __init__(self, creature: Creature) -> None:
        self.start = creature
        self.st: CreatureState = creature.state
        self.lines: list[str] = []
        self.flags: dict[str, bool] = {}
        self.cause = ""
        self.rp_lost = 0

    # --- values
    @property
    def creature(self) -> Creature:
        return self.start.model_copy(update={"state": self.st})

    def put(self, **changes: object) -> None:
        self.st = self.st.model_copy(update=changes)

    def line(self, rule: str, text: str) -> None:
        self.lines.append(f"{text} [{rule}]")

    def flag(self, name: str) -> None:
        self.flags[name] = True

    @property
    def name(self) -> str:
        return self.start.name

    # --- conditions
    def has(self, name: str, source: str | None = None) -> bool:
        return any(c.name == name and (source is None or c.source == source) for c in self.st.conditions)

    def add(self, name: str, source: str = "") -> None:
        if not self.has(name, source):
            self.put(conditions=(*self.st.conditions, ConditionInstance(name=name, source=source)))

    def drop_zero_hp_unconscious(self) -> None:
        """The unconsciousness that comes with 0 HP (or one given without a source, as a scenario may)."""
        self.drop(UNCONSCIOUS, ZERO_HP)
        self.drop(UNCONSCIOUS, "")

    def drop(self, name: str, source: str | None = None) -> bool:
        kept = tuple(c for c in self.st.conditions if not (c.name == name and (source is None or c.source == source)))
        changed = len(kept) != len(self.st.conditions)
        if changed:
            self.put(conditions=kept)
        return changed

    # --- common transitions
    def kill(self, rule: str, text: str, cause: str) -> None:
        """Dead (CON-10): dying, stable and the 0-HP unconsciousness give way to the dead condition."""
        self.drop(DYING)
        self.drop(STABLE)
        self.drop_zero_hp_unconscious()
        self.add(DEAD, cause)
        self.put(lingering_rounds=None)
        self.line(rule, text)
        self.flag("died")
        self.cause = cause

    def lose_rp(self, count: int, rule: str, why: str) -> None:
        """Lose ``count`` RP one at a time; needing to lose one with none left is death (INJ-05)."""
        for _ in range(count):
            if self.st.rp == 0:
                self.kill(
                    "INJ-05",
                    f"{self.name} must lose a Resolve Point with none left ({why}): dead",
                    RP_EXHAUSTED,
                )
                return
            self.put(rp=self.st.rp - 1)
            self.rp_lost += 1
            self.line(rule, f"{self.name} loses 1 RP ({why}), {self.st.rp} left")

    def wake(self, rule: str, text: str) -> None:
        """Back above 0 HP: not dying, stable or unconscious from 0 HP; the dying bookkeeping is reset."""
        self.drop(DYING)
        self.drop(STABLE)
        self.drop_zero_hp_unconscious()
        self.put(
            dropped_round=None,
            dropped_on_own_turn=False,
            zero_rp_at_drop=False,
            stabilized_round=None,
            hp_damaged_round=None,
            lingering_rounds=None,
        )
        self.line(rule, text)
        if not self.has(UNCONSCIOUS):
            self.flag("became_conscious")

    def settle_ability_unconsciousness(self) -> None:
        """Remove unconsciousness from ability damage or drain that no longer applies (ABL-02, ABL-09)."""
        for ab in ABILITIES:
            base = self.start.stat.base_score(ab)
            if base is None:
                continue
            score = base - self.st.ability_drain.get(ab, 0)
            if self.has(UNCONSCIOUS, f"{ab} damage") and self.st.ability_damage.get(ab, 0) < score:
                self.drop(UNCONSCIOUS, f"{ab} damage")
                self.line("ABL-02", f"{self.name}'s {ab} damage is now below its score: no longer unconscious")
            if self.has(UNCONSCIOUS, f"{ab} drain") and score > 0:
                self.drop(UNCONSCIOUS, f"{ab} drain")
                self.line("ABL-09", f"{self.name}'s {ab} score is above 0 again: no longer unconscious")
        if self.st.hp > 0 and not self.has(UNCONSCIOUS) and self.start.has(UNCONSCIOUS):
            self.flag("became_conscious")

    def result(
        self,
        *,
        temp_lost: int = 0,
        sp_lost: int = 0,
        hp_lost: int = 0,
        overflow: int = 0,
        temp_gained: int = 0,
        sp_healed: int = 0,
        hp_healed: int = 0,
        checks: tuple[CheckResult, ...] = (),
    ) -> InjuryResult:
        return InjuryResult(
            creature=self.creature,
            lines=tuple(self.lines),
            temp_lost=temp_lost,
            sp_lost=sp_lost,
            hp_lost=hp_lost,
            overflow=overflow,
            rp_lost=self.rp_lost,
            temp_gained=temp_gained,
            sp_healed=sp_healed,
            hp_healed=hp_healed,
            became_dying=self.flags.get("became_dying", False),
            became_unconscious=self.flags.get("became_unconscious", False),
            became_stable=self.flags.get("became_stable", False),
            became_conscious=self.flags.get("became_conscious", False),
            died=self.flags.get("died", False),
            cause=self.cause,
            checks=checks,
        )
