"""Effects in general: descriptors, durations, ranges and targets, the pure rules (EFF-14..34, EFF-38..51,
with ACT-31, ACT-75, GEN-16 and CON-00 where they meet).

Nothing here knows whose turn it is, where anyone stands or which effects are running: the caller (the
encounter) passes distances, lines of effect, what each side perceives and the current moment, and keeps the
values this module returns. Refused requests raise :class:`RuleViolation` naming the rule; nothing is changed.

Descriptors are in ``sf1e.effect_descriptors`` and durations (the clock, suppression, concentration, holding the
charge, dismissing) in ``sf1e.effect_durations``; this module imports every public name of theirs, so code may
import them from here as before (``effect_rules.Duration``, ``effect_rules.descriptor_gate``). What this module
holds itself: ranges, targets and large vehicles.

Ranges (EFF-38..45)
-------------------
:class:`EffectRange` is personal, touch, close (25 + 5 × ⌊level/2⌋ ft), medium (100 + 10 × level ft), long
(400 + 40 × level ft), a fixed number of feet, a range increment (penalties and maximum delegated to
``grid.geometry.check_range``), or planetary, system-wide, plane or unlimited, measured on a
:class:`Location` (plane, system, planet). The level is the caster level for spells and spell-like abilities,
the class level for class features and the item level for weapons and equipment (:func:`range_level`).
:func:`check_effect_range` decides one request; :func:`area_in_range` drops the part of an area beyond range.

Targets (EFF-46..50, ACT-31, ACT-75)
------------------------------------
:func:`choose_targets` checks a choice when activation finishes (so creatures taken out meanwhile can be left
out): line of effect to each, the effect's :class:`TargetCategory`, the number allowed. "Living" means any
creature but constructs and undead; "willing or unconscious" means willing creatures or unconscious ones (§22).
Declaring willingness takes no action at any time (:data:`DECLARE_WILLING`); redirecting is a move action that
does not provoke (:func:`redirect_cost`). :func:`touch_attack` and :func:`effect_attack` resolve effects with an
attack roll: touch attacks are melee attacks against EAC unless the effect names another AC, damaging effects
can score critical hits (double damage), and a listed duration is how long the effect lasts on a hit.

Large vehicles (EFF-51)
-----------------------
:func:`vehicle_acts_as_terrain` (the GM decides; by default starship-like kinds and anything Colossal or
larger) and :func:`moves_with_vehicle` (which effects travel with such a vehicle).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Literal

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain
from sftactics.core.check import NORMAL, CheckKind, CheckResult, RollMode, resolve
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.grid.geometry import Footprint, Square, check_range, footprint_distance_ft
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats
from sftactics.sf1e.effect_descriptors import DESCRIPTOR_INFO as DESCRIPTOR_INFO
from sftactics.sf1e.effect_descriptors import ENERGY_DESCRIPTORS as ENERGY_DESCRIPTORS
from sftactics.sf1e.effect_descriptors import MAX_TIE_REROLLS as MAX_TIE_REROLLS
from sftactics.sf1e.effect_descriptors import REFORM_ROUNDS as REFORM_ROUNDS
from sftactics.sf1e.effect_descriptors import SCRYING_BLOCKERS as SCRYING_BLOCKERS
from sftactics.sf1e.effect_descriptors import SCRYING_NOTICE_BASE as SCRYING_NOTICE_BASE
from sftactics.sf1e.effect_descriptors import SHADOW_DAMAGE_IS_REAL as SHADOW_DAMAGE_IS_REAL
from sftactics.sf1e.effect_descriptors import CharmOrder as CharmOrder
from sftactics.sf1e.effect_descriptors import CharmResponse as CharmResponse
from sftactics.sf1e.effect_descriptors import Communication as Communication
from sftactics.sf1e.effect_descriptors import Conjured as Conjured
from sftactics.sf1e.effect_descriptors import Descriptor as Descriptor
from sftactics.sf1e.effect_descriptors import DescriptorContext as DescriptorContext
from sftactics.sf1e.effect_descriptors import DescriptorInfo as DescriptorInfo
from sftactics.sf1e.effect_descriptors import Fate as Fate
from sftactics.sf1e.effect_descriptors import Gate as Gate
from sftactics.sf1e.effect_descriptors import Perceiving as Perceiving
from sftactics.sf1e.effect_descriptors import ScryingSensor as ScryingSensor
from sftactics.sf1e.effect_descriptors import SummonDeparture as SummonDeparture
from sftactics.sf1e.effect_descriptors import answer_charm_order as answer_charm_order
from sftactics.sf1e.effect_descriptors import can_be_summoned as can_be_summoned
from sftactics.sf1e.effect_descriptors import charm_freed_by_attack as charm_freed_by_attack
from sftactics.sf1e.effect_descriptors import charmed_may_fight_former_friend as charmed_may_fight_former_friend
from sftactics.sf1e.effect_descriptors import check_dispellable as check_dispellable
from sftactics.sf1e.effect_descriptors import check_summoned_may_summon as check_summoned_may_summon
from sftactics.sf1e.effect_descriptors import communication as communication
from sftactics.sf1e.effect_descriptors import descriptor as descriptor
from sftactics.sf1e.effect_descriptors import descriptor_gate as descriptor_gate
from sftactics.sf1e.effect_descriptors import descriptors as descriptors
from sftactics.sf1e.effect_descriptors import fate_at_zero_hp as fate_at_zero_hp
from sftactics.sf1e.effect_descriptors import fate_when_effect_ends as fate_when_effect_ends
from sftactics.sf1e.effect_descriptors import fortitude_immune as fortitude_immune
from sftactics.sf1e.effect_descriptors import immune_to_descriptor as immune_to_descriptor
from sftactics.sf1e.effect_descriptors import intelligence_score as intelligence_score
from sftactics.sf1e.effect_descriptors import language_dependent_works as language_dependent_works
from sftactics.sf1e.effect_descriptors import mind_affecting_works as mind_affecting_works
from sftactics.sf1e.effect_descriptors import notice_scrying_sensor as notice_scrying_sensor
from sftactics.sf1e.effect_descriptors import opposed_charisma as opposed_charisma
from sftactics.sf1e.effect_descriptors import pain_works as pain_works
from sftactics.sf1e.effect_descriptors import perceiving_from as perceiving_from
from sftactics.sf1e.effect_descriptors import save_tags as save_tags
from sftactics.sf1e.effect_descriptors import scrying_blocked as scrying_blocked
from sftactics.sf1e.effect_descriptors import scrying_notice_dc as scrying_notice_dc
from sftactics.sf1e.effect_descriptors import sense_dependent_works as sense_dependent_works
from sftactics.sf1e.effect_descriptors import shares_language as shares_language
from sftactics.sf1e.effect_descriptors import summon_departure as summon_departure
from sftactics.sf1e.effect_descriptors import summoned_goes_away as summoned_goes_away
from sftactics.sf1e.effect_descriptors import teleportation_works as teleportation_works
from sftactics.sf1e.effect_durations import DECLARE_WILLING as DECLARE_WILLING
from sftactics.sf1e.effect_durations import DISMISS as DISMISS
from sftactics.sf1e.effect_durations import MAINTAIN_CONCENTRATION as MAINTAIN_CONCENTRATION
from sftactics.sf1e.effect_durations import MAX_TOUCH_TARGETS as MAX_TOUCH_TARGETS
from sftactics.sf1e.effect_durations import ROUNDS_PER_UNIT as ROUNDS_PER_UNIT
from sftactics.sf1e.effect_durations import STOP_CONCENTRATING as STOP_CONCENTRATING
from sftactics.sf1e.effect_durations import TOUCH_SIX_OVER_ROUNDS as TOUCH_SIX_OVER_ROUNDS
from sftactics.sf1e.effect_durations import ActionCost as ActionCost
from sftactics.sf1e.effect_durations import ActionName as ActionName
from sftactics.sf1e.effect_durations import ChargeStatus as ChargeStatus
from sftactics.sf1e.effect_durations import Concentration as Concentration
from sftactics.sf1e.effect_durations import ConcentrationOutcome as ConcentrationOutcome
from sftactics.sf1e.effect_durations import Duration as Duration
from sftactics.sf1e.effect_durations import DurationKind as DurationKind
from sftactics.sf1e.effect_durations import EffectEnd as EffectEnd
from sftactics.sf1e.effect_durations import Moment as Moment
from sftactics.sf1e.effect_durations import RolledDuration as RolledDuration
from sftactics.sf1e.effect_durations import RunningEffect as RunningEffect
from sftactics.sf1e.effect_durations import TimeUnit as TimeUnit
from sftactics.sf1e.effect_durations import TouchCharge as TouchCharge
from sftactics.sf1e.effect_durations import _need_level
from sftactics.sf1e.effect_durations import charge_after_other_action as charge_after_other_action
from sftactics.sf1e.effect_durations import charge_at_round_end as charge_at_round_end
from sftactics.sf1e.effect_durations import check_may_cast as check_may_cast
from sftactics.sf1e.effect_durations import concentration_at_turn_end as concentration_at_turn_end
from sftactics.sf1e.effect_durations import dismiss as dismiss
from sftactics.sf1e.effect_durations import effect_status as effect_status
from sftactics.sf1e.effect_durations import end_of as end_of
from sftactics.sf1e.effect_durations import lift_suppression as lift_suppression
from sftactics.sf1e.effect_durations import linger_rounds as linger_rounds
from sftactics.sf1e.effect_durations import maintain as maintain
from sftactics.sf1e.effect_durations import parse_duration as parse_duration
from sftactics.sf1e.effect_durations import roll_duration as roll_duration
from sftactics.sf1e.effect_durations import start_concentration as start_concentration
from sftactics.sf1e.effect_durations import stop_concentrating as stop_concentrating
from sftactics.sf1e.effect_durations import suppress as suppress
from sftactics.sf1e.effect_durations import to_rounds as to_rounds
from sftactics.sf1e.effect_durations import touch as touch
from sftactics.sf1e.effect_durations import touch_many as touch_many
from sftactics.sf1e.effect_durations import units_to_rounds as units_to_rounds
from sftactics.sf1e.state import Creature


# =========================================================================================== ranges
class RangeKind(StrEnum):
    PERSONAL = "personal"
    TOUCH = "touch"
    CLOSE = "close"
    MEDIUM = "medium"
    LONG = "long"
    FEET = "feet"
    INCREMENT = "increment"
    PLANETARY = "planetary"
    SYSTEM = "system-wide"
    PLANE = "plane"
    UNLIMITED = "unlimited"


LEVELLED_RANGES: Final = frozenset({RangeKind.CLOSE, RangeKind.MEDIUM, RangeKind.LONG})
LOCATION_RANGES: Final = frozenset({RangeKind.PLANETARY, RangeKind.SYSTEM, RangeKind.PLANE, RangeKind.UNLIMITED})

#: (base, feet per step, levels per step, rule) for close, medium and long (EFF-41..43).
_LEVELLED: Final[dict[RangeKind, tuple[int, int, int, str]]] = {
    RangeKind.CLOSE: (25, 5, 2, "EFF-41"),
    RangeKind.MEDIUM: (100, 10, 1, "EFF-42"),
    RangeKind.LONG: (400, 40, 1, "EFF-43"),
}


@dataclass(frozen=True, slots=True)
class EffectRange:
    """An effect's range. ``feet``: the distance of a FEET range or the increment of an INCREMENT range;
    ``thrown`` and ``max_increments`` as for weapons (ATK-11)."""

    kind: RangeKind
    feet: int = 0
    thrown: bool = False
    max_increments: int | None = None

    def __post_init__(self) -> None:
        if self.kind in (RangeKind.FEET, RangeKind.INCREMENT) and self.feet < 1:
            raise RuleViolation("EFF-45", f"a {self.kind} range needs a distance in feet, not {self.feet}")

    def describe(self) -> str:
        if self.kind is RangeKind.FEET:
            return f"{self.feet} ft."
        if self.kind is RangeKind.INCREMENT:
            return f"{self.feet} ft. increment"
        return str(self.kind)


def parse_range(text: str) -> EffectRange:
    """A range as printed: "close", "medium", "long", "personal", "touch", "planetary", "system-wide", "plane",
    "unlimited", "60 ft.", "60 feet", "30 ft. increment"."""
    s = re.sub(r"\s+", " ", text.strip().lower())
    s = s.split("(")[0].strip()
    for kind in RangeKind:
        if s == kind.value and kind not in (RangeKind.FEET, RangeKind.INCREMENT):
            return EffectRange(kind)
    if s == "system":
        return EffectRange(RangeKind.SYSTEM)
    m = re.match(r"^(\d+)\s*(?:ft\.?|feet|foot)(\s*(?:range\s*)?increment)?$", s)
    if m:
        return EffectRange(RangeKind.INCREMENT if m.group(2) else RangeKind.FEET, int(m.group(1)))
    raise RuleViolation("EFF-38", f"cannot read the range {text!r}")


def levelled_range(kind: RangeKind, level: int) -> Breakdown:
    """Close 25 + 5 ft per 2 levels (EFF-41), medium 100 + 10 ft per level (EFF-42), long 400 + 40 ft per
    level (EFF-43), as an explained number."""
    if kind not in _LEVELLED:
        raise RuleViolation("EFF-38", f"{kind} is not a level-based range")
    lvl = _need_level(level, f"{kind} range", "EFF-38")
    base, step, per, rule = _LEVELLED[kind]
    steps = lvl // per
    what = f"{step} ft x {steps} ({lvl} levels / {per})" if per > 1 else f"{step} ft x level {lvl}"
    return explain(
        f"{kind} range (ft)",
        [Term(base, f"{kind} base", rule, BonusType.BASE), Term(step * steps, what, rule, BonusType.BASE)],
    )


def close_range_ft(level: int) -> int:
    return levelled_range(RangeKind.CLOSE, level).total


def medium_range_ft(level: int) -> int:
    return levelled_range(RangeKind.MEDIUM, level).total


def long_range_ft(level: int) -> int:
    return levelled_range(RangeKind.LONG, level).total


class LevelBasis(StrEnum):
    CASTER = "caster level"
    CLASS = "class level"
    ITEM = "item level"


#: Which level a level-based range or duration uses, by where the effect comes from (EFF-38).
LEVEL_BASIS: Final[dict[str, LevelBasis]] = {
    "spell": LevelBasis.CASTER,
    "spell-like ability": LevelBasis.CASTER,
    "class feature": LevelBasis.CLASS,
    "weapon": LevelBasis.ITEM,
    "equipment": LevelBasis.ITEM,
    "item": LevelBasis.ITEM,
}


def range_level(
    origin: str, *, caster_level: int | None = None, class_level: int | None = None, item_level: int | None = None
) -> int:
    """The level that drives a level-based range (EFF-38): caster level for spells (and spell-like
    abilities), class level for class features, item level for weapons and equipment."""
    basis = LEVEL_BASIS.get(origin.strip().lower())
    if basis is None:
        raise RuleViolation("EFF-38", f"unknown effect origin {origin!r} (known: {', '.join(LEVEL_BASIS)})")
    value = {LevelBasis.CASTER: caster_level, LevelBasis.CLASS: class_level, LevelBasis.ITEM: item_level}[basis]
    if value is None:
        raise RuleViolation("EFF-38", f"a {origin}'s range uses its {basis}: give it")
    return _need_level(value, basis.value, "EFF-38")


@dataclass(frozen=True, slots=True)
class Location:
    """Where something is, for the ranges beyond the map (EFF-44): its plane, its solar system (None when it
    is in none) and its planet (None in open space). Something in orbit around a planet, a moon or an
    artificial satellite, gives that planet: planetary range covers it."""

    plane: str
    system: str | None = None
    planet: str | None = None


def within_planetary_range(a: Location, b: Location) -> bool:
    """Same planet (orbiting bodies included): the limit of planetary range, and of line of effect and line of
    sight unless an effect says otherwise (EFF-35, EFF-37, EFF-44)."""
    return a.plane == b.plane and a.system == b.system and a.planet is not None and a.planet == b.planet


def reaches(kind: RangeKind, user: Location, target: Location) -> Gate:
    """Planetary: same planet or its orbit; system-wide: same solar system; plane: same plane; unlimited:
    anywhere, other planes too (EFF-44)."""
    if kind is RangeKind.UNLIMITED:
        return Gate(True, "unlimited range reaches anywhere", "EFF-44")
    if kind is RangeKind.PLANE:
        ok = user.plane == target.plane
        return Gate(ok, "same plane" if ok else "another plane is beyond plane range", "EFF-44")
    if kind is RangeKind.SYSTEM:
        ok = user.plane == target.plane and user.system is not None and user.system == target.system
        return Gate(ok, "same solar system" if ok else "not in the same solar system", "EFF-44")
    if kind is RangeKind.PLANETARY:
        ok = within_planetary_range(user, target)
        return Gate(ok, "same planet or its orbit" if ok else "not on or around the same planet", "EFF-44")
    raise RuleViolation("EFF-44", f"{kind} is measured in feet, not by location")


@dataclass(frozen=True, slots=True)
class RangeResult:
    """One range question answered: ``limit_ft`` (None: not a distance), ``terms`` any range penalty (range
    increments, ATK-10), ``rule`` the rule that decided it."""

    in_range: bool
    kind: RangeKind
    limit_ft: int | None
    distance_ft: int | None
    terms: tuple[Term, ...]
    reason: str
    rule: str

    @property
    def penalty(self) -> int:
        return sum(t.value for t in self.terms)

    def require(self) -> RangeResult:
        if not self.in_range:
            raise RuleViolation(self.rule, self.reason)
        return self


def check_effect_range(
    rng: EffectRange,
    *,
    distance_ft: int | None = None,
    level: int | None = None,
    reach_ft: int = 5,
    target_is_user: bool = False,
    user_at: Location | None = None,
    target_at: Location | None = None,
) -> RangeResult:
    """Whether a target or point of origin is within an effect's range (EFF-38..45).

    Personal: only the user (EFF-39). Touch: the user, or something within its reach (``reach_ft``, EFF-40).
    Close, medium, long: ``distance_ft`` against the level-based limit (EFF-41..43). Feet: the printed
    distance (EFF-45). Increment: delegated to ``grid.geometry.check_range`` (penalty per increment beyond the
    first, ATK-10; at most 10 increments, 5 thrown, ATK-11). Planetary and beyond: ``user_at`` and
    ``target_at`` (EFF-44)."""
    k = rng.kind
    if k is RangeKind.PERSONAL:
        why = "personal: the user only" if target_is_user else "a personal effect affects only its user"
        return RangeResult(target_is_user, k, 0, distance_ft, (), why, "EFF-39")
    if k in LOCATION_RANGES:
        if user_at is None or target_at is None:
            raise RuleViolation("EFF-44", f"a {k} range needs both locations")
        g = reaches(k, user_at, target_at)
        return RangeResult(g.ok, k, None, distance_ft, (), g.reason, g.rule)
    if target_is_user and k is RangeKind.TOUCH:
        return RangeResult(True, k, 0, 0, (), "the user can touch itself", "EFF-40")
    if distance_ft is None:
        raise RuleViolation("EFF-38", f"a {rng.describe()} range needs the distance")
    if k is RangeKind.TOUCH:
        ok = distance_ft <= reach_ft
        why = f"{distance_ft} ft {'within' if ok else 'beyond'} reach {reach_ft} ft"
        return RangeResult(ok, k, reach_ft, distance_ft, (), why, "EFF-40")
    if k is RangeKind.INCREMENT:
        rc = check_range(distance_ft, rng.feet, thrown=rng.thrown, max_increments=rng.max_increments)
        why = f"{distance_ft} ft: increment {rc.increment} of {rng.feet} ft (max {rc.max_range_ft} ft)"
        return RangeResult(rc.in_range, k, rc.max_range_ft, distance_ft, rc.terms, why, rc.rule)
    if k in LEVELLED_RANGES:
        bd = levelled_range(k, _need_level(level, f"{k} range", "EFF-38"))
        limit, rule = bd.total, _LEVELLED[k][3]
    else:
        limit, rule = rng.feet, "EFF-45"
    ok = distance_ft <= limit
    return RangeResult(ok, k, limit, distance_ft, (), f"{distance_ft} ft of {limit} ft", rule)


def area_in_range(
    squares: Iterable[Square], user: Footprint, limit_ft: int
) -> tuple[tuple[Square, ...], tuple[Square, ...]]:
    """Split an area into the squares within ``limit_ft`` of the user and the wasted rest (EFF-38: any part
    of an area beyond the range is wasted). Distance as for range: nearest squares, 5-10-5 diagonals."""
    kept: list[Square] = []
    wasted: list[Square] = []
    for sq in squares:
        (kept if footprint_distance_ft(user, Footprint(sq[0], sq[1])) <= limit_ft else wasted).append(sq)
    return tuple(kept), tuple(wasted)


# =========================================================================================== targets
class TargetCategory(StrEnum):
    CREATURE = "creature"
    LIVING = "living"
    WILLING_OR_UNCONSCIOUS = "willing or unconscious"
    CONSTRUCT = "construct"
    UNDEAD = "undead"
    CORPSE = "corpse"


#: Creature types that are not living (EFF-47); everything else, artificial beings included, is.
NONLIVING_TYPES: Final = frozenset({"construct", "undead"})


def creature_type_word(creature: Creature | str) -> str:
    """The creature type without its subtypes: "Construct (technological)" → "construct"."""
    text = creature if isinstance(creature, str) else creature.stat.creature_type
    return text.split("(")[0].strip().lower()


def is_living(creature: Creature) -> bool:
    """Living: any creature but constructs and undead (artificially made beings of other types count), and
    not dead (EFF-47; a dead creature is a corpse)."""
    return creature_type_word(creature) not in NONLIVING_TYPES and not creature.has("dead")


def qualifies(creature: Creature, category: TargetCategory, *, willing: bool = False) -> Gate:
    """Whether a creature is a valid target of an effect that targets ``category`` (EFF-47). "Willing or
    unconscious": willing creatures, or unconscious ones (§22 default for the wording)."""
    dead = creature.has("dead")
    if category is TargetCategory.CORPSE:
        return Gate(dead, f"{creature.name} is {'a corpse' if dead else 'not dead'}", "EFF-47")
    if dead:
        return Gate(False, f"{creature.name} is dead: a corpse, not a creature", "EFF-47")
    if category is TargetCategory.CREATURE:
        return Gate(True, "a creature", "EFF-47")
    kind = creature_type_word(creature) or "creature of unknown type"
    if category is TargetCategory.LIVING:
        ok = is_living(creature)
        return Gate(ok, f"{creature.name} is {'living' if ok else 'not living'} ({kind})", "EFF-47")
    if category in (TargetCategory.CONSTRUCT, TargetCategory.UNDEAD):
        ok = kind == category.value
        return Gate(ok, f"{creature.name} is {'a' if ok else 'not a'} {category.value} ({kind})", "EFF-47")
    if willing:
        return Gate(True, f"{creature.name} is willing", "EFF-47")
    if "unconscious" in cond.active(creature):
        return Gate(True, f"{creature.name} is unconscious", "EFF-47")
    return Gate(False, f"{creature.name} is neither willing nor unconscious", "EFF-47")


@dataclass(frozen=True, slots=True)
class Candidate:
    """A creature the user wants to target: whether it has line of effect to it and whether it has declared
    itself willing (EFF-48)."""

    creature: Creature
    line_of_effect: bool = True
    willing: bool = False


def choose_targets(
    chosen: Sequence[Candidate], *, max_targets: int = 1, category: TargetCategory = TargetCategory.CREATURE
) -> tuple[str, ...]:
    """Check a choice of targets (EFF-46, EFF-47). The encounter calls this when activation *finishes* (an
    effect with an activation time chooses its targets then, so it can leave out creatures taken out
    meanwhile). Each target needs line of effect and must fit the category; no more than ``max_targets``, no
    target twice. Returns the target ids in order."""
    if not chosen:
        raise RuleViolation("EFF-46", "choose at least one target")
    if len(chosen) > max_targets:
        raise RuleViolation("EFF-46", f"at most {max_targets} target(s), not {len(chosen)}")
    ids = [c.creature.id for c in chosen]
    if len(set(ids)) != len(ids):
        raise RuleViolation("EFF-46", "each target can be chosen once")
    for c in chosen:
        if not c.line_of_effect:
            raise RuleViolation("EFF-46", f"no line of effect to {c.creature.name}")
        qualifies(c.creature, category, willing=c.willing).require()
    return tuple(ids)


def declare_willing(willing: frozenset[str], who: str, *, is_willing: bool = True) -> frozenset[str]:
    """A creature declares itself a willing target, or stops being one: no action, at any time, even
    flat-footed or on another's turn (EFF-48, ACT-75). ``willing`` is the set of willing creature ids the
    encounter keeps (per effect, or for the fight)."""
    return willing | {who} if is_willing else willing - {who}


def redirect_cost(effect_action: ActionName | None = None) -> ActionCost:
    """Redirecting an effect to new targets or areas: a move action unless the effect names another, and it
    never provokes attacks of opportunity (EFF-49, ACT-31)."""
    return ActionCost(effect_action or "move", False, "EFF-49")


@dataclass(frozen=True, slots=True)
class EffectAttack:
    """An effect delivered by an attack roll (EFF-40, EFF-50). ``check`` is None when no roll was needed
    (a willing or unconscious target of a touch); ``damage_multiplier`` is 2 on a critical hit of a damaging
    effect against a creature that is not immune (ATK-14, ATK-17); ``lasts`` is when the effect ends on the
    target (None on a miss)."""

    hit: bool
    critical: bool
    damage_multiplier: int
    check: CheckResult | None
    ac: Breakdown | None
    lasts: EffectEnd | None
    lines: tuple[str, ...]
    rule: str


def effect_attack(
    attack_bonus: Breakdown,
    ac: Breakdown,
    dice: DiceSource,
    *,
    damaging: bool = True,
    crit_immune: bool = False,
    duration: Duration | None = None,
    start: Moment | None = None,
    level: int | None = None,
    rolled: int | None = None,
    mode: RollMode = NORMAL,
    rule: str = "EFF-50",
) -> EffectAttack:
    """An effect's attack roll (EFF-50): natural 1 misses and natural 20 hits (ATK-05); a natural 20 whose
    total also meets the AC is a critical hit (ATK-14), doubling a damaging effect's damage unless the target
    is immune (ATK-17). The listed ``duration`` is how long the effect lasts on a hit target, counted from
    ``start`` (the moment of the hit), not a window for attacking."""
    check = resolve(CheckKind.ATTACK, attack_bonus, ac.total, dice, purpose="effect attack", mode=mode)
    hit = check.success
    crit = hit and check.natural == 20 and check.total >= ac.total
    lines = [f"attack {check.describe()} against {ac.label} [{rule}]"]
    mult = 1
    if crit:
        if not damaging:
            lines.append("critical hit: no damage to double [EFF-50]")
        elif crit_immune:
            lines.append("critical hit, but the target is immune: normal damage [ATK-17]")
        else:
            mult = 2
            lines.append("critical hit: double damage [EFF-50]")
    lasts = None
    if hit and duration is not None:
        if start is None:
            raise RuleViolation("EFF-50", "a duration on a hit needs the moment of the hit")
        lasts = end_of(duration, start, level=level, rolled=rolled)
        lines.append(f"on the target: {duration.describe()}, {lasts.describe()} [EFF-50]")
    return EffectAttack(hit, crit, mult, check, ac, lasts, tuple(lines), rule)


def touch_attack_needed(target: Creature, *, willing: bool = False) -> bool:
    """A touch against an unwilling target needs a melee attack roll (EFF-40). Willing creatures need none;
    unconscious ones need none either (this module's reading: the rule groups "willing or unconscious"
    targets as touched without a fight)."""
    return not willing and "unconscious" not in cond.active(target)


def touch_attack(
    target: Creature,
    attack_bonus: Breakdown,
    dice: DiceSource,
    *,
    willing: bool = False,
    ac_kind: Literal["eac", "kac"] = "eac",
    ac_terms: Iterable[Term] = (),
    damaging: bool = False,
    duration: Duration | None = None,
    start: Moment | None = None,
    level: int | None = None,
    rolled: int | None = None,
) -> EffectAttack:
    """Deliver a touch effect (EFF-40): a willing or unconscious target is simply touched; an unwilling one
    takes a melee attack roll against its EAC (or the AC the effect names), with the target's conditions
    (``stats.armor_class`` against melee) and ``ac_terms`` (cover...). Damaging touches can crit (EFF-50).
    ``attack_bonus`` is the user's melee attack bonus (its own rules build it)."""
    if not touch_attack_needed(target, willing=willing):
        lasts = None
        if duration is not None:
            if start is None:
                raise RuleViolation("EFF-50", "a duration on the touched target needs the moment of the touch")
            lasts = end_of(duration, start, level=level, rolled=rolled)
        why = "willing" if willing else "unconscious"
        return EffectAttack(True, False, 1, None, None, lasts, (f"{target.name} is {why}: touched [EFF-40]",), "EFF-40")
    ac = stats.armor_class(target, ac_kind, vs="melee")
    extra = tuple(ac_terms)
    if extra:
        ac = ac.plus(*extra, tags=frozenset({"vs:melee"}))
    return effect_attack(
        attack_bonus, ac, dice, damaging=damaging, duration=duration, start=start, level=level, rolled=rolled,
        rule="EFF-40",
    )  # fmt: skip


# =========================================================================================== large vehicles
#: Vehicles the seeds name as acting like terrain (EFF-51).
TERRAIN_VEHICLE_KINDS: Final = frozenset(
    {"airship", "factory crawler", "mobile factory crawler", "ocean liner", "space station", "starship", "train"}
)
_SIZES: Final = ("fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan", "colossal")


def vehicle_acts_as_terrain(*, size: str | None = None, kind: str | None = None, gm_ruling: bool | None = None) -> bool:
    """Whether a vehicle counts as terrain for abilities and spells (EFF-51). The GM decides
    (``gm_ruling``); otherwise the seeds' examples (airships, factory crawlers, ocean liners, space stations,
    starships, trains) and any vehicle of size Colossal or larger do."""
    if gm_ruling is not None:
        return gm_ruling
    if kind is not None and kind.strip().lower() in TERRAIN_VEHICLE_KINDS:
        return True
    if size is None:
        return False
    s = size.strip().lower()
    if s not in _SIZES:
        raise RuleViolation("EFF-51", f"unknown size {size!r} (known: {', '.join(_SIZES)})")
    return _SIZES.index(s) >= _SIZES.index("colossal")


def counts_as_object(*, component: bool, terrain: bool) -> bool:
    """For effects, a terrain vehicle as a whole is not an object; its parts (bulkheads, consoles, walls) are.
    A smaller vehicle is an object as usual (EFF-51)."""
    return component or not terrain


class VehicleEffect(StrEnum):
    """Kinds of effect aboard a vehicle (EFF-51)."""

    STATIONARY = "stationary"  # a stationary or immovable effect: a wall of force, a zone of truth...
    ANCHORED = "anchored"  # an effect anchored to the vehicle (wall of steel)
    AREA_ON_BOARD = "area on board"  # from someone aboard, aimed at an area of the vehicle
    ON_SUBJECT = "on subject"  # on a creature or object: it travels with its subject anyway (EFF-13)
    OTHER = "other"


def moves_with_vehicle(effect: VehicleEffect, *, terrain: bool) -> Literal["moves", "with subject", "fixed", "gm"]:
    """Whether an effect keeps its place on a moving vehicle (EFF-51). On a terrain vehicle, stationary,
    anchored and on-board area effects move with it; an effect on a subject follows the subject; anything else
    is the GM's call. On a smaller vehicle the usual rules hold: only an effect on a subject moves."""
    if effect is VehicleEffect.ON_SUBJECT:
        return "with subject"
    if not terrain:
        return "moves" if effect is VehicleEffect.ANCHORED else "fixed"
    if effect is VehicleEffect.OTHER:
        return "gm"
    return "moves"
