"""The 2E conditions quick reference as data (E2-40, E2-51..63), and what they do to numbers.

Each condition is a :class:`ConditionDef2e`: whether it has a value, the modifiers it gives (to which
statistics, of which type, fixed or equal to the value), the conditions it brings with it, and how it ends.
Numbers the seed does not give are read from :class:`~sftactics.sf2e.options.Sf2eOptions` (off-guard's AC
penalty and type, blinded's attack penalty, frightened's type and reach), so the table is built per options.

Statistics are named by *selectors*: ``attack``, ``spell-attack``, ``perception``, ``fortitude``, ``reflex``,
``will``, ``skill``, ``initiative`` (all checks), and ``ac``, ``spell-dc``, ``class-dc`` (DCs that are not simply
10 + a check modifier; a save or Perception DC is 10 + that modifier by E2-09, so it carries the check's
penalties already). A modifier may name the groups ``check`` or ``dc``.

Perception states (concealed, hidden, undetected, unnoticed, invisible) are relations between an observer and a
creature; :func:`targeting` resolves what they mean for one attacker.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.sf2e.checks import Check2e, flat_check
from sftactics.sf2e.creature import Creature2e
from sftactics.sf2e.modifiers import Kind, Mod, mod
from sftactics.sf2e.options import DEFAULT_OPTIONS, Sf2eOptions

CHECKS: frozenset[str] = frozenset(
    {"attack", "spell-attack", "perception", "fortitude", "reflex", "will", "skill", "initiative"}
)
DCS: frozenset[str] = frozenset({"ac", "spell-dc", "class-dc"})
_GROUPS: dict[str, frozenset[str]] = {"check": CHECKS, "dc": DCS}


@dataclass(frozen=True, slots=True)
class CondEffect:
    """A modifier a condition gives: ``amount`` (times the value if ``per_value``) as a penalty to ``to``."""

    to: frozenset[str]
    amount: int
    kind: Kind
    per_value: bool = False

    def covers(self, selector: str) -> bool:
        return selector in self.to or any(selector in _GROUPS.get(g, frozenset()) for g in self.to)


@dataclass(frozen=True, slots=True)
class ConditionDef2e:
    name: str
    rule: str
    summary: str
    valued: bool = False
    effects: tuple[CondEffect, ...] = ()
    implies: tuple[str, ...] = ()
    ends: str = ""
    item: bool = False  # a condition of objects (broken)


@lru_cache(maxsize=16)
def definitions(options: Sf2eOptions = DEFAULT_OPTIONS) -> Mapping[str, ConditionDef2e]:
    """Every condition of the quick reference, with the option-dependent numbers filled in."""

    def pen(to: str, amount: int, kind: Kind | str, per_value: bool = False) -> CondEffect:
        return CondEffect(frozenset(to.split()), -amount, Kind(kind), per_value)

    blinded_effects = [pen("perception", 4, Kind.STATUS)]
    if options.blinded_attack_penalty:
        blinded_effects.append(pen("attack spell-attack", options.blinded_attack_penalty, Kind.STATUS))
    frightened_to = "check dc" if options.frightened_applies_to_dcs else "check"
    defs = [
        ConditionDef2e(
            "blinded",
            "E2-51",
            "can't see; automatically fails Perception checks that need sight; -4 status to Perception; "
            "seed: -4 status to attack rolls (Sf2eOptions.blinded_attack_penalty)",
            effects=tuple(blinded_effects),
        ),
        ConditionDef2e(
            "broken", "E2-52", "an item that can't work normally, grants no bonuses, must be repaired", item=True
        ),
        ConditionDef2e("concealed", "E2-53", "attackers must succeed at a DC 5 flat check or miss"),
        ConditionDef2e(
            "frightened",
            "E2-54",
            "penalty equal to the value on checks and attack rolls",
            valued=True,
            effects=(pen(frightened_to, 1, Kind(options.frightened_penalty_type), per_value=True),),
            ends="-1 at the end of each of its turns unless a triggering effect goes on",
        ),
        ConditionDef2e(
            "hidden",
            "E2-55",
            "observers don't know exactly where it is; it can't be targeted directly; attacks need a flat check "
            "(Sf2eOptions.hidden_flat_check_dc)",
            ends="a successful Perception check (Seek), or it attacks",
        ),
        ConditionDef2e(
            "invisible",
            "E2-56",
            "can't be seen; treated as undetected; can't be targeted by attacks that need sight",
        ),
        ConditionDef2e(
            "off-guard",
            "E2-57",
            "exposed: a penalty to AC (Sf2eOptions.off_guard_ac_penalty); surprised and flanked creatures are "
            "off-guard",
            effects=(pen("ac", options.off_guard_ac_penalty, Kind(options.off_guard_penalty_type)),),
        ),
        ConditionDef2e(
            "quickened",
            "E2-58",
            "one extra action each turn, usable only as the granting effect says",
            ends="when its effect ends",
        ),
        ConditionDef2e(
            "slowed",
            "E2-59",
            "loses actions equal to the value each turn",
            valued=True,
            ends="seed: -1 at the end of each of its turns (Sf2eOptions.slowed_decreases_each_turn)",
        ),
        ConditionDef2e(
            "unconscious",
            "E2-40",
            "can't act, falls prone, drops held items; -4 status to AC, Perception and Reflex; blinded and off-guard",
            effects=(pen("ac perception reflex", 4, Kind.STATUS),),
            implies=("blinded", "off-guard"),
            ends="see waking up (E2-41)",
        ),
        ConditionDef2e(
            "undetected", "E2-61", "observers don't know it is there; it can't be targeted", ends="found by Seek"
        ),
        ConditionDef2e("unnoticed", "E2-62", "undetected by observers unaware of it; observed by those who noticed it"),
        ConditionDef2e(
            "prone",
            "E2-40",
            "on the ground (falls prone when unconscious; Drop Prone, Stand, Crawl). Its numbers are not in the seed",
            ends="Stand",
        ),
        ConditionDef2e(
            "dying",
            "E2-32",
            "unconscious at death's door; dies at dying 4 (less doomed); recovery check each turn",
            valued=True,
            implies=("unconscious",),
            ends="recovery checks to 0, healing to 1 HP or more, heroic recovery",
        ),
        ConditionDef2e(
            "wounded",
            "E2-35",
            "added to the dying value whenever it gains dying; +1 each time dying is lost",
            valued=True,
            ends="Treat Wounds, or full HP and 10 minutes' rest",
        ),
        ConditionDef2e(
            "doomed",
            "E2-37",
            "the dying value that kills is lowered by the doomed value",
            valued=True,
            ends="-1 after a full night's rest",
        ),
    ]
    return {d.name: d for d in defs}


def active(conditions: Mapping[str, int], options: Sf2eOptions = DEFAULT_OPTIONS) -> dict[str, int]:
    """The conditions in effect: those held plus those they bring (unconscious -> blinded, off-guard), each once
    at its highest value."""
    defs = definitions(options)
    out: dict[str, int] = {}
    todo = [(n, v) for n, v in conditions.items() if v > 0]
    while todo:
        name, value = todo.pop()
        if out.get(name, 0) >= value:
            continue
        out[name] = value
        d = defs.get(name)
        if d is not None:
            todo.extend((implied, 1) for implied in d.implies)
    return out


def condition_mods(
    conditions: Mapping[str, int] | Creature2e, selector: str, options: Sf2eOptions = DEFAULT_OPTIONS
) -> list[Mod]:
    """The modifiers the conditions give to the statistic ``selector``, as 2E terms (stacked by the caller)."""
    held = conditions.conditions if isinstance(conditions, Creature2e) else conditions
    defs = definitions(options)
    out: list[Mod] = []
    for name, value in sorted(active(held, options).items()):
        d = defs.get(name)
        if d is None:
            continue
        for e in d.effects:
            if e.covers(selector) and e.amount:
                amount = e.amount * value if e.per_value else e.amount
                label = f"{name} {value}" if d.valued else name
                out.append(mod(amount, label, e.kind, d.rule, source=name))
    return out


def end_of_turn(
    creature: Creature2e, *, frightened_sustained: bool = False, options: Sf2eOptions = DEFAULT_OPTIONS
) -> Creature2e:
    """Conditions that wear off at the end of the creature's turn: frightened -1 unless its cause goes on
    (E2-54); slowed -1 if ``options.slowed_decreases_each_turn`` (E2-59)."""
    changes: dict[str, int] = {}
    if creature.has("frightened") and not frightened_sustained:
        changes["frightened"] = creature.condition("frightened") - 1
    if creature.has("slowed") and options.slowed_decreases_each_turn:
        changes["slowed"] = creature.condition("slowed") - 1
    return creature.with_conditions(**changes) if changes else creature


# --- perception states and targeting (E2-53, E2-55, E2-56, E2-61, E2-62) ------------------------------------


class Awareness(StrEnum):
    """How an attacker perceives its target."""

    OBSERVED = "observed"
    CONCEALED = "concealed"
    HIDDEN = "hidden"
    UNDETECTED = "undetected"
    UNNOTICED = "unnoticed"
    INVISIBLE = "invisible"


#: The flat check DC to affect a concealed target (E2-53).
CONCEALED_DC = 5


def targeting_dc(awareness: Awareness, options: Sf2eOptions = DEFAULT_OPTIONS) -> int | None:
    """The flat check an attacker needs against a target it perceives this way (None: no check).

    Raises :class:`RuleViolation` when the target cannot be targeted at all: undetected (E2-61), unnoticed
    (treated as undetected, E2-62) and invisible (treated as undetected, E2-56).
    """
    if awareness is Awareness.OBSERVED:
        return None
    if awareness is Awareness.CONCEALED:
        return CONCEALED_DC
    if awareness is Awareness.HIDDEN:
        return options.hidden_flat_check_dc
    rule = {Awareness.UNDETECTED: "E2-61", Awareness.UNNOTICED: "E2-62", Awareness.INVISIBLE: "E2-56"}[awareness]
    raise RuleViolation(rule, f"a {awareness} creature can't be targeted")


def targeting(awareness: Awareness, dice: DiceSource, options: Sf2eOptions = DEFAULT_OPTIONS) -> Check2e | None:
    """Roll the flat check for targeting a concealed or hidden creature (None when none is needed); a failed
    check means the attack or effect misses it."""
    dc = targeting_dc(awareness, options)
    if dc is None:
        return None
    return flat_check(dc, dice, label=f"flat check to target a {awareness} creature")
