"""Effects in general: descriptors, durations, ranges and targets, the pure rules (EFF-14..34, EFF-38..51,
with ACT-31, ACT-75, GEN-16 and CON-00 where they meet).

Nothing here knows whose turn it is, where anyone stands or which effects are running: the caller (the
encounter) passes distances, lines of effect, what each side perceives and the current moment, and keeps the
values this module returns. Refused requests raise :class:`RuleViolation` naming the rule; nothing is changed.

Descriptors (EFF-14..26)
------------------------
:class:`Descriptor` lists the 35 descriptors; :data:`DESCRIPTOR_INFO` says, for each, whether it brings rules
of its own and what they are (in this project's words). Most descriptors only key interactions with other
rules: :func:`save_tags` turns them into the ``vs:<descriptor>`` situation tags that saving throw modifiers
already read ("+2 vs fear"), and :func:`immune_to_descriptor` reads the stat block's immunities ("fear
effects", "mind-affecting effects", "poison"). The descriptors with rules of their own:

* **mind-affecting** (EFF-20): only a creature with an Intelligence score of 1 or more (:func:`mind_affecting_works`).
* **language-dependent** (EFF-19): the user and target must share a way to communicate: a shared language
  carried by words the target hears or signs it sees, or telepathy reaching it (:class:`Communication`).
* **pain** (EFF-21): a creature immune to effects that call for a Fortitude save is immune (:func:`pain_works`).
* **sense-dependent** (EFF-23): the user sees or hears the target, *and* the target sees or hears the user
  (:class:`Perceiving`, built from two ``senses.Observation`` values by :func:`perceiving_from`).
* **scrying** (EFF-22): the sensor (:class:`ScryingSensor`) is noticed with Perception DC 20 + the effect's
  level (:func:`notice_scrying_sensor`), uses only the user's natural senses and ignores the user's blindness
  or deafness; lead sheeting, force fields and listed materials block it, and the user knows
  (:func:`scrying_blocked`).
* **charm** (EFF-16): :func:`answer_charm_order` decides an order by its kind (:class:`CharmOrder`): an ordinary
  request is obeyed; an out-of-character one is resisted with an opposed Charisma check (success: that order is
  refused, the charm holds); a vehemently opposed one allows a new saving throw to break free; an obviously
  suicidal or grievously harmful one is never obeyed. :func:`charm_freed_by_attack`: openly attacked by the
  charmer or its apparent allies, the creature is free.
* **summoning** (EFF-25), **calling** (EFF-15), **creation** (EFF-18): what happens to a brought creature or
  object at 0 HP and when the effect ends (:func:`fate_at_zero_hp`, :func:`fate_when_effect_ends`), the
  24-hour re-forming of a summoned creature (:func:`summon_departure`, :func:`can_be_summoned`), no dispelling
  a called creature (:func:`check_dispellable`).
* **teleportation** (EFF-26): blocked by whatever blocks astral travel (:func:`teleportation_works`).
* **shadow** (EFF-24) and **compulsion** (EFF-17): data only (the effect's own text does the work).

Durations (EFF-27..34, GEN-16, CON-00)
--------------------------------------
:class:`Duration` is timed (an amount of :class:`TimeUnit`, optionally per level, or dice rolled secretly by
the GM), instantaneous, permanent or concentration (optionally lingering some rounds after concentration
stops), with the flags *discharge* ("or until discharged") and *dismissible* ("(D)"). :func:`parse_duration`
reads the usual printed forms. Units are Pact Standard Time (GEN-16): 10 rounds a minute, 60 minutes an hour,
24 hours a day, 7 days a week, 365 days a year (the seeds also say "52 weeks", 364 days; the 365 is kept).

**How durations map onto the encounter's clock** (``encounter.timing``): a :class:`Moment` is (round,
initiative count); the encounter makes one from ``timeline.round`` and ``timing.current_count(state)``.
:func:`end_of` gives an :class:`EffectEnd`:

* a timed duration of N rounds begun at count c of round r ends just before count c of round r + N, which is
  exactly the encounter's count-anchored ``Expiry(kind="count", round=r+N, count=c)`` (CF-14), as
  ``timing.for_rounds`` builds it; :meth:`EffectEnd.expiry_fields` gives those keyword arguments;
* permanent, concentration and "until discharged" without a time limit are ``Expiry(kind="never")``: they end
  by an event (dispel, stopping concentration, discharge), which the encounter records by removing the effect;
* instantaneous effects need no ``Effect`` at all: their consequences are ordinary state changes.

Turn-anchored expiries ("until the start of your next turn") belong to actions, not to durations, and are not
produced here. **Suppression** (EFF-27, CON-00) never moves the end: :func:`suppress` keeps ``end`` and only
marks a window in which :func:`effect_status` answers "suppressed"; the encounter must keep the ``Expiry``
unchanged and only stop applying the effect's modifiers while suppressed.

**Concentration** (EFF-31) is a small machine (:class:`Concentration`): maintaining is a standard action each
round (:func:`maintain`); a round in which the user's turn ends unmaintained stops it
(:func:`concentration_at_turn_end`), after which it lingers as a count-anchored end if the duration says so;
while concentrating, the user may neither cast a spell nor start another concentration effect
(:func:`check_may_cast`). **Holding the charge** (EFF-33) is :class:`TouchCharge`; **dismissing** (EFF-34) is
:func:`dismiss`.

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
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final, Literal

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain
from sftactics.core.check import NORMAL, CheckKind, CheckResult, RollMode, resolve
from sftactics.core.errors import DiceError, RuleViolation
from sftactics.dice.expr import parse
from sftactics.dice.roll import RolledExpr, roll
from sftactics.dice.source import DiceSource
from sftactics.grid.geometry import Footprint, Square, check_range, footprint_distance_ft
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import general, saves, stats
from sftactics.sf1e.senses import Mechanism, Observation, TelepathyCheck
from sftactics.sf1e.state import Creature

B = BonusType.BASE


@dataclass(frozen=True, slots=True)
class Gate:
    """Whether an effect can work in the situation given, why, and the rule that decides it. Truthy when it
    can; :meth:`require` turns a refusal into a :class:`RuleViolation`."""

    ok: bool
    reason: str
    rule: str

    def __bool__(self) -> bool:
        return self.ok

    def require(self) -> None:
        if not self.ok:
            raise RuleViolation(self.rule, self.reason)


# =========================================================================================== descriptors
class Descriptor(StrEnum):
    """The 35 descriptors (EFF-14)."""

    ACID = "acid"
    AIR = "air"
    CALLING = "calling"
    CHAOTIC = "chaotic"
    CHARM = "charm"
    COLD = "cold"
    COMPULSION = "compulsion"
    CREATION = "creation"
    CURSE = "curse"
    DARKNESS = "darkness"
    DEATH = "death"
    DISEASE = "disease"
    EARTH = "earth"
    ELECTRICITY = "electricity"
    EMOTION = "emotion"
    EVIL = "evil"
    FEAR = "fear"
    FIRE = "fire"
    FORCE = "force"
    GOOD = "good"
    HEALING = "healing"
    LANGUAGE_DEPENDENT = "language-dependent"
    LAWFUL = "lawful"
    LIGHT = "light"
    MIND_AFFECTING = "mind-affecting"
    PAIN = "pain"
    POISON = "poison"
    RADIATION = "radiation"
    SCRYING = "scrying"
    SENSE_DEPENDENT = "sense-dependent"
    SHADOW = "shadow"
    SONIC = "sonic"
    SUMMONING = "summoning"
    TELEPORTATION = "teleportation"
    WATER = "water"


@dataclass(frozen=True, slots=True)
class DescriptorInfo:
    """What one descriptor means. ``own_rules``: it changes how the effect works (otherwise it only labels
    the effect for other rules to key on)."""

    descriptor: Descriptor
    own_rules: bool
    summary: str
    rule: str


_LABEL_ONLY = "no rule of its own: other rules and effects key on it"
#: Energy descriptors: an immunity to the energy is a damage immunity (``sf1e.damage``), not an immunity to
#: every effect with the descriptor.
ENERGY_DESCRIPTORS: Final = frozenset(
    {Descriptor.ACID, Descriptor.COLD, Descriptor.ELECTRICITY, Descriptor.FIRE, Descriptor.SONIC}
)

DESCRIPTOR_INFO: Final[dict[Descriptor, DescriptorInfo]] = {
    d: DescriptorInfo(d, False, _LABEL_ONLY, "EFF-14") for d in Descriptor
} | {
    Descriptor.FORCE: DescriptorInfo(
        Descriptor.FORCE, False, _LABEL_ONLY + " (force harms incorporeal creatures in full, SPA-12)", "EFF-14"
    ),
    Descriptor.DEATH: DescriptorInfo(
        Descriptor.DEATH, False, _LABEL_ONLY + " (death ward, bonuses 'vs death effects')", "EFF-14"
    ),
    Descriptor.FEAR: DescriptorInfo(Descriptor.FEAR, False, _LABEL_ONLY + " (fear immunities)", "EFF-14"),
    Descriptor.CALLING: DescriptorInfo(
        Descriptor.CALLING,
        True,
        "fetches a creature from another plane and gives it one chance to go home; killed here it is really "
        "dead; it cannot be dispelled, even when magic called it",
        "EFF-15",
    ),
    Descriptor.CHARM: DescriptorInfo(
        Descriptor.CHARM,
        True,
        "the subject treats the charmer as a dear friend but keeps its will: opposed Charisma check against "
        "orders out of character, a new save against vehemently opposed ones, never self-destruction; open "
        "attack by the charmer's side frees it",
        "EFF-16",
    ),
    Descriptor.COMPULSION: DescriptorInfo(
        Descriptor.COMPULSION,
        True,
        "overrides the subject's free will or changes how its mind works, as the effect describes",
        "EFF-17",
    ),
    Descriptor.CREATION: DescriptorInfo(
        Descriptor.CREATION,
        True,
        "makes an object or creature where the creator chooses; it vanishes without a trace when a "
        "non-instantaneous duration ends, and lasts for good when the duration is instantaneous",
        "EFF-18",
    ),
    Descriptor.LANGUAGE_DEPENDENT: DescriptorInfo(
        Descriptor.LANGUAGE_DEPENDENT,
        True,
        "fails unless the user can communicate with the target in a language it understands (spoken, signed "
        "or telepathic)",
        "EFF-19",
    ),
    Descriptor.MIND_AFFECTING: DescriptorInfo(
        Descriptor.MIND_AFFECTING, True, "works only on creatures with an Intelligence score of 1 or more", "EFF-20"
    ),
    Descriptor.PAIN: DescriptorInfo(
        Descriptor.PAIN,
        True,
        "hurts without lasting harm; creatures immune to effects calling for a Fortitude save are immune",
        "EFF-21",
    ),
    Descriptor.SCRYING: DescriptorInfo(
        Descriptor.SCRYING,
        True,
        "an invisible sensor with the user's natural senses, working even if the user is blinded or deafened; "
        "Perception DC 20 + level notices it; it can be dispelled; lead, force fields and some materials block "
        "it and the user feels the block",
        "EFF-22",
    ),
    Descriptor.SENSE_DEPENDENT: DescriptorInfo(
        Descriptor.SENSE_DEPENDENT,
        True,
        "needs the user to see or hear the target and the target to see or hear the user",
        "EFF-23",
    ),
    Descriptor.SHADOW: DescriptorInfo(
        Descriptor.SHADOW, True, "partly real, made of extradimensional energy; the damage it deals is real", "EFF-24"
    ),
    Descriptor.SUMMONING: DescriptorInfo(
        Descriptor.SUMMONING,
        True,
        "brings a creature or object; the creature goes back when the effect ends or at 0 HP (not truly dead, "
        "24 hours before it can come again), its spells end with it, and it cannot summon in turn",
        "EFF-25",
    ),
    Descriptor.TELEPORTATION: DescriptorInfo(
        Descriptor.TELEPORTATION,
        True,
        "instant travel through the Astral Plane; whatever blocks astral travel blocks it",
        "EFF-26",
    ),
}

#: Shadow effects deal real damage (EFF-24): nothing reduces it for being "shadow".
SHADOW_DAMAGE_IS_REAL: Final = True


def descriptor(word: str | Descriptor) -> Descriptor:
    """The descriptor a word names ("Mind Affecting", "language_dependent"...); refused if unknown (EFF-14)."""
    if isinstance(word, Descriptor):
        return word
    key = re.sub(r"[\s_]+", "-", word.strip().lower())
    try:
        return Descriptor(key)
    except ValueError:
        raise RuleViolation("EFF-14", f"unknown descriptor {word!r} (known: {', '.join(Descriptor)})") from None


def descriptors(words: Iterable[str | Descriptor]) -> frozenset[Descriptor]:
    return frozenset(descriptor(w) for w in words)


def save_tags(descs: Iterable[str | Descriptor]) -> frozenset[str]:
    """The situation tags a save against an effect with these descriptors carries: ``vs:fear``,
    ``vs:mind-affecting``... (EFF-14: the descriptor is what "+2 against fear effects" keys on)."""
    return frozenset(f"vs:{descriptor(d).value}" for d in descs)


def _immunity_words(creature: Creature) -> frozenset[str]:
    return frozenset(re.sub(r"\s+", " ", w.strip().lower()) for w in creature.stat.immunities)


def immune_to_descriptor(creature: Creature, desc: str | Descriptor) -> bool:
    """Whether the stat block's immunities name effects of this descriptor: "fear", "fear effects",
    "poisons"... (EFF-14). Energy descriptors are left to damage immunity (``sf1e.damage``): immunity to fire
    stops fire damage, not every effect labelled fire. This module's reading."""
    d = descriptor(desc)
    if d in ENERGY_DESCRIPTORS:
        return False
    words = _immunity_words(creature)
    return bool(words & {d.value, f"{d.value} effects", f"{d.value} effect", f"{d.value}s"})


def intelligence_score(creature: Creature) -> int | None:
    """The Intelligence score mind-affecting effects look at (EFF-20): None for a creature with no
    Intelligence (mindless, printed "—"); otherwise the score after drain (drain lowers the score, ABL-08;
    damage only lowers the modifier). When only a modifier is printed, the creature has a score and it is at
    least 1: the estimate is max(1, 10 + 2 × modifier), minus drain."""
    stat = creature.stat
    drain = creature.state.ability_drain.get("int", 0)
    if "int" in stat.scores:
        return stat.scores["int"] - drain
    mod = stat.base_mod("int")
    if mod is None:
        return None
    return max(1, 10 + 2 * mod) - drain


def mind_affecting_works(target: Creature) -> Gate:
    """A mind-affecting effect works only on a creature with an Intelligence score of 1 or more, and not on
    one immune to mind-affecting effects (EFF-20)."""
    score = intelligence_score(target)
    if score is None:
        return Gate(False, f"{target.name} has no Intelligence score: mind-affecting effects fail", "EFF-20")
    if score < 1:
        return Gate(False, f"{target.name}'s Intelligence score is {score}: mind-affecting effects fail", "EFF-20")
    if immune_to_descriptor(target, Descriptor.MIND_AFFECTING):
        return Gate(False, f"{target.name} is immune to mind-affecting effects", "EFF-20")
    return Gate(True, f"{target.name} has Intelligence {score}", "EFF-20")


# ----------------------------------------------------------------------------------- language-dependent
@dataclass(frozen=True, slots=True)
class Communication:
    """The ways a language-dependent effect can reach its target (EFF-19). ``shared_language``: the two have a
    language in common; ``audible``: the user's words reach the target's ears; ``visual``: the target sees
    the user's signs or writing; ``telepathic``: the user's telepathy reaches the target (SEN-14, which
    already needs the target to know a language, and limited telepathy a shared one)."""

    shared_language: bool
    audible: bool = False
    visual: bool = False
    telepathic: bool = False


def shares_language(a: Iterable[str], b: Iterable[str]) -> bool:
    return bool({x.strip().lower() for x in a} & {y.strip().lower() for y in b})


def communication(
    user_languages: Iterable[str],
    target: Creature,
    target_languages: Iterable[str],
    *,
    speaks: bool = True,
    signs: bool = False,
    within_earshot: bool = True,
    sees_user: bool = False,
    vacuum: bool = False,
    telepathy: TelepathyCheck | None = None,
) -> Communication:
    """:class:`Communication` from the facts: spoken words carry unless the target is deafened, out of
    earshot or in vacuum; signs carry if the target sees the user and is not blinded; telepathy carries if
    ``senses.telepathy_reaches`` said so (EFF-19)."""
    active = cond.active(target)
    return Communication(
        shares_language(user_languages, target_languages),
        audible=speaks and within_earshot and not vacuum and "deafened" not in active,
        visual=signs and sees_user and "blinded" not in active,
        telepathic=telepathy is not None and telepathy.possible,
    )


def language_dependent_works(comm: Communication) -> Gate:
    """A language-dependent effect fails unless the user can communicate with the target and the target
    understands (EFF-19): telepathy that reaches it, or a shared language carried by sound or sight."""
    if comm.telepathic:
        return Gate(True, "telepathy carries the words", "EFF-19")
    if not comm.shared_language:
        return Gate(False, "the target does not understand any language the user can use", "EFF-19")
    if comm.audible:
        return Gate(True, "the target hears words it understands", "EFF-19")
    if comm.visual:
        return Gate(True, "the target sees signs it understands", "EFF-19")
    return Gate(False, "the user's words cannot reach the target (not heard, not seen, no telepathy)", "EFF-19")


# ----------------------------------------------------------------------------------------------- pain
def fortitude_immune(creature: Creature) -> bool:
    """Whether the stat block's immunities include effects that require a Fortitude save (any immunity entry
    naming "fortitude", e.g. "effects that require a Fortitude save")."""
    return any("fortitude" in w for w in _immunity_words(creature))


def pain_works(target: Creature, *, immune_to_fortitude_effects: bool | None = None) -> Gate:
    """A pain effect does not affect a creature immune to effects that require a Fortitude save, nor one
    immune to pain effects (EFF-21). ``immune_to_fortitude_effects`` overrides what the stat block says
    (creature-type immunities from outside the seeds, X-22)."""
    fort = fortitude_immune(target) if immune_to_fortitude_effects is None else immune_to_fortitude_effects
    if fort:
        return Gate(False, f"{target.name} is immune to effects requiring a Fortitude save, so to pain", "EFF-21")
    if immune_to_descriptor(target, Descriptor.PAIN):
        return Gate(False, f"{target.name} is immune to pain effects", "EFF-21")
    return Gate(True, "pain effects work on it", "EFF-21")


# ------------------------------------------------------------------------------------- sense-dependent
@dataclass(frozen=True, slots=True)
class Perceiving:
    """Who perceives whom by sight or hearing, for sense-dependent effects (EFF-23)."""

    user_sees_target: bool = False
    user_hears_target: bool = False
    target_sees_user: bool = False
    target_hears_user: bool = False


def _sight_and_sound(view: Observation | None) -> tuple[bool, bool]:
    if view is None:
        return False, False
    mechanisms = {c.mechanism for c in view.perceiving}
    return Mechanism.VISION in mechanisms, Mechanism.SOUND in mechanisms


def perceiving_from(user_view: Observation | None, target_view: Observation | None) -> Perceiving:
    """:class:`Perceiving` from two observations (``senses.observe``): the user's of the target and the
    target's of the user. Seeing is a vision channel that reaches; hearing is any sound channel that reaches
    (ordinary hearing, or a blindsense or blindsight working by sound)."""
    us, uh = _sight_and_sound(user_view)
    ts, th = _sight_and_sound(target_view)
    return Perceiving(us, uh, ts, th)


def sense_dependent_works(p: Perceiving) -> Gate:
    """A sense-dependent effect needs the user to see or hear the target, and the target to see or hear the
    user (EFF-23)."""
    if not (p.user_sees_target or p.user_hears_target):
        return Gate(False, "the user neither sees nor hears the target", "EFF-23")
    if not (p.target_sees_user or p.target_hears_user):
        return Gate(False, "the target neither sees nor hears the user", "EFF-23")
    return Gate(True, "each can see or hear the other", "EFF-23")


# ----------------------------------------------------------------------------------------------- scrying
SCRYING_NOTICE_BASE: Final = 20
#: What blocks scrying without further ado (EFF-22); exotic materials and magical protections are passed in.
SCRYING_BLOCKERS: Final = frozenset({"lead", "lead sheeting", "force field", "force"})


def scrying_notice_dc(effect_level: int) -> Breakdown:
    """DC 20 + the spell's or effect's level to notice a scrying sensor (EFF-22)."""
    if effect_level < 0:
        raise RuleViolation("EFF-22", f"an effect level is 0 or more, not {effect_level}")
    return explain(
        "scrying sensor Perception DC",
        [Term(SCRYING_NOTICE_BASE, "base", "EFF-22", B), Term(effect_level, "effect level", "EFF-22", B)],
    )


@dataclass(frozen=True, slots=True)
class ScryingSensor:
    """A scrying sensor (EFF-22). It senses with the user's *natural* senses (the stat block's, never ones
    granted by spells or technology), as an independent source: to see what it perceives, the encounter calls
    ``senses.observe(natural_senses, (), ...)`` with no conditions of the user's (blinded or deafened users
    still get its input) and the sensor's own position, light and vacuum. It can be dispelled like an active
    spell."""

    user: str
    effect_level: int
    dispellable: bool = True

    @property
    def notice_dc(self) -> int:
        return scrying_notice_dc(self.effect_level).total


def notice_scrying_sensor(
    observer: Creature,
    sensor: ScryingSensor,
    dice: DiceSource,
    *,
    perception_bonus: int | None = None,
    situational: Iterable[Term] = (),
) -> CheckResult:
    """A Perception check against DC 20 + level to notice a scrying sensor (EFF-22)."""
    bonus = stats.skill_bonus(observer, "perception", bonus=perception_bonus)
    extra = tuple(situational)
    if extra:
        bonus = bonus.plus(*extra)
    return resolve(CheckKind.SKILL, bonus, sensor.notice_dc, dice, purpose=f"{observer.name} notices scrying sensor")


def scrying_blocked(barriers: Iterable[str], *, also_blocking: Iterable[str] = ()) -> Gate:
    """Whether scrying gets through (EFF-22): lead sheeting, force fields and the exotic materials or magical
    protections the caller lists in ``also_blocking`` block it; when blocked, the user senses the block."""
    blockers = SCRYING_BLOCKERS | {w.strip().lower() for w in also_blocking}
    for b in barriers:
        if b.strip().lower() in blockers:
            return Gate(False, f"blocked by {b}: the user senses that the scrying is blocked", "EFF-22")
    return Gate(True, "nothing blocks the scrying", "EFF-22")


# ------------------------------------------------------------------------------------------------ charm
class CharmOrder(StrEnum):
    """How a charmed creature regards an order (EFF-16)."""

    ORDINARY = "ordinary"  # something it would do for a close friend: it obeys
    OUT_OF_CHARACTER = "out of character"  # not even for a close friend: opposed Charisma check to refuse
    VEHEMENTLY_OPPOSED = "vehemently opposed"  # a new saving throw to break free
    SELF_DESTRUCTIVE = "self-destructive"  # obviously suicidal or grievously harmful: never obeyed


@dataclass(frozen=True, slots=True)
class CharmResponse:
    order: CharmOrder
    obeys: bool
    still_charmed: bool
    checks: tuple[CheckResult, ...]
    lines: tuple[str, ...]
    rule: str = "EFF-16"


#: Re-rolls of an opposed check whose totals and bonuses tie, before the charmer wins by default.
MAX_TIE_REROLLS: Final = 20


def opposed_charisma(
    charmed: Creature,
    charmer: Creature,
    dice: DiceSource,
    *,
    charmed_terms: Iterable[Term] = (),
    charmer_terms: Iterable[Term] = (),
) -> tuple[bool, tuple[CheckResult, ...]]:
    """The opposed Charisma check of a charmed creature against its charmer (EFF-16): the charmed creature's
    check first, then the charmer's; the higher total wins. Ties are this module's decision, as the seeds have
    no rule for them: the higher Charisma check bonus wins; equal bonuses roll again (the charmer wins if it is
    still tied after :data:`MAX_TIE_REROLLS` rolls)."""
    cb = stats.ability_check_bonus(charmed, "cha")
    mb = stats.ability_check_bonus(charmer, "cha")
    ct, mt = tuple(charmed_terms), tuple(charmer_terms)
    if ct:
        cb = cb.plus(*ct, tags=frozenset({"ability:cha"}))
    if mt:
        mb = mb.plus(*mt, tags=frozenset({"ability:cha"}))
    checks: list[CheckResult] = []
    for _ in range(MAX_TIE_REROLLS):
        c = resolve(CheckKind.ABILITY, cb, 0, dice, purpose=f"{charmed.name} resists a charm order")
        m = resolve(CheckKind.ABILITY, mb, 0, dice, purpose=f"{charmer.name} insists")
        checks += [c, m]
        if c.total != m.total:
            return c.total > m.total, tuple(checks)
        if cb.total != mb.total:
            return cb.total > mb.total, tuple(checks)
    return False, tuple(checks)


def answer_charm_order(
    charmed: Creature,
    charmer: Creature,
    order: CharmOrder,
    dice: DiceSource,
    *,
    save: str = "will",
    dc: int | None = None,
    descs: Iterable[str | Descriptor] = (Descriptor.CHARM, Descriptor.MIND_AFFECTING),
    check_after_failed_save: bool = True,
) -> CharmResponse:
    """How a charmed creature answers an order (EFF-16).

    * ordinary: it obeys, no roll;
    * self-destructive (obviously suicidal or grievously harmful): it refuses, no roll, and stays charmed;
    * out of character: an opposed Charisma check; winning it refuses that order and the charm holds;
    * vehemently opposed: a new saving throw (``save`` against ``dc``, the effect's) to break free
      altogether. If that save fails, the order is still one it would not follow even for a close friend, so
      it may still try the opposed Charisma check to refuse it (``check_after_failed_save``, this module's
      reading)."""
    if order is CharmOrder.ORDINARY:
        return CharmResponse(order, True, True, (), ("an ordinary request: it obeys [EFF-16]",))
    if order is CharmOrder.SELF_DESTRUCTIVE:
        return CharmResponse(order, False, True, (), ("obviously suicidal or grievously harmful: refused [EFF-16]",))
    checks: list[CheckResult] = []
    lines: list[str] = []
    if order is CharmOrder.VEHEMENTLY_OPPOSED:
        if dc is None:
            raise RuleViolation("EFF-16", "a vehemently opposed order allows a new save: give the effect's DC")
        st = saves.saving_throw(charmed, save, dc, dice, tags=save_tags(descs))
        checks.append(st)
        lines.append(f"new {save} save: {st.describe()} [EFF-16]")
        if st.success:
            lines.append(f"{charmed.name} breaks free of the charm [EFF-16]")
            return CharmResponse(order, False, False, tuple(checks), tuple(lines))
        if not check_after_failed_save:
            lines.append(f"{charmed.name} stays charmed and obeys [EFF-16]")
            return CharmResponse(order, True, True, tuple(checks), tuple(lines))
    refused, opposed = opposed_charisma(charmed, charmer, dice)
    checks += opposed
    lines.append(
        f"opposed Charisma: {opposed[-2].total} vs {opposed[-1].total}: "
        + ("refuses this order, still charmed" if refused else "obeys")
        + " [EFF-16]"
    )
    return CharmResponse(order, not refused, True, tuple(checks), tuple(lines))


def charm_freed_by_attack(attacker: str, charmer: str, charmer_allies: Collection[str], *, openly: bool = True) -> bool:
    """A charmed creature openly attacked by its charmer or the charmer's apparent allies is freed (EFF-16)."""
    return openly and (attacker == charmer or attacker in charmer_allies)


def charmed_may_fight_former_friend(friend_threatens_charmer: bool) -> bool:
    """A charmed creature fights its former friends only when they threaten its new friend, and then with the
    least lethal means it has (EFF-16)."""
    return friend_threatens_charmer


# ------------------------------------------------------------------------- summoning, calling, creation
class Conjured(StrEnum):
    """How a creature or object came (EFF-15, EFF-18, EFF-25)."""

    SUMMONED = "summoned"
    CALLED = "called"
    CREATED = "created"


@dataclass(frozen=True, slots=True)
class Fate:
    """What becomes of a brought creature or object: ``what`` is "vanishes", "returns" (to where it came
    from), "stays", "dies" or "normal" (the ordinary rules apply); ``really_dead``: a corpse stays behind."""

    what: Literal["vanishes", "returns", "stays", "dies", "normal"]
    really_dead: bool
    reason: str
    rule: str


#: A summoned creature that was killed or dropped to 0 HP re-forms for 24 hours (EFF-25, GEN-16).
REFORM_ROUNDS: Final = general.hours_to_rounds(24)


def fate_at_zero_hp(kind: Conjured) -> Fate:
    """A brought creature killed or reduced to 0 HP (EFF-15, EFF-25)."""
    if kind is Conjured.SUMMONED:
        return Fate("returns", False, "a summoned creature at 0 HP goes away; it is not really dead", "EFF-25")
    if kind is Conjured.CALLED:
        return Fate("dies", True, "a called creature killed on this plane really dies", "EFF-15")
    return Fate("normal", False, "a created creature follows the ordinary rules", "EFF-18")


def fate_when_effect_ends(
    kind: Conjured, duration: Duration, *, creature: bool = True, sent_back: bool = False
) -> Fate:
    """What happens when the bringing effect ends (EFF-15, EFF-18, EFF-25). A summoned creature returns; a
    summoned object stays unless the effect says it goes back (``sent_back``); a creation vanishes without a
    trace unless its duration was instantaneous (then it lasts for good); a called creature is not tied to the
    effect (it has its one-time way home)."""
    if kind is Conjured.SUMMONED:
        if creature or sent_back:
            return Fate("returns", False, "the summoning ended: it goes back where it came from", "EFF-25")
        return Fate("stays", False, "a summoned object stays unless the effect says otherwise", "EFF-25")
    if kind is Conjured.CREATED:
        if duration.kind is DurationKind.INSTANTANEOUS:
            return Fate("stays", False, "an instantaneous creation needs no energy to last: it stays", "EFF-18")
        return Fate("vanishes", False, "the creation's duration ended: it vanishes without a trace", "EFF-18")
    return Fate("stays", False, "a called creature stays; it may use its one-time return", "EFF-15")


def check_dispellable(kind: Conjured) -> None:
    """A called creature cannot be dispelled, even if magic called it (EFF-15)."""
    if kind is Conjured.CALLED:
        raise RuleViolation("EFF-15", "a called creature cannot be dispelled")


def check_summoned_may_summon(is_summoned: bool) -> None:
    """A summoned creature cannot use its own innate summoning abilities (EFF-25)."""
    if is_summoned:
        raise RuleViolation("EFF-25", "a summoned creature cannot use its own summoning abilities")


def summoned_goes_away(creature: Creature) -> bool:
    """A summoned creature goes away when killed or when its Hit Points drop to 0 (EFF-25)."""
    return creature.state.hp <= 0 or creature.has("dead")


@dataclass(frozen=True, slots=True)
class SummonDeparture:
    """A summoned creature leaving (EFF-25): ``available_from`` is the round (on the encounter's clock) from
    which it can be summoned again (None: at once); ``expired_effects`` the ids of every spell it cast, which
    end with it."""

    creature: str
    reason: str
    really_dead: bool
    available_from: int | None
    expired_effects: tuple[int, ...]
    rule: str = "EFF-25"


def summon_departure(
    creature: str,
    *,
    reason: Literal["effect ended", "dispelled", "0 HP", "killed"],
    now_round: int,
    effects_cast_by: Iterable[tuple[int, str]] = (),
) -> SummonDeparture:
    """A summoned creature goes back (EFF-25). Killed or at 0 HP it is not really dead but needs 24 hours to
    re-form, during which it cannot be summoned; leaving because the effect ended or was dispelled has no such
    wait. All spells it cast expire when it disappears, whatever the reason (this module's reading of "when
    the summoned creature disappears"). ``effects_cast_by``: (effect id, caster id) pairs of running effects."""
    wait = reason in ("0 HP", "killed")
    mine = tuple(eid for eid, caster in effects_cast_by if caster == creature)
    return SummonDeparture(creature, reason, False, now_round + REFORM_ROUNDS if wait else None, mine)


def can_be_summoned(available_from: int | None, now_round: int) -> Gate:
    """Whether a creature that went away can be summoned again now (EFF-25)."""
    if available_from is None or now_round >= available_from:
        return Gate(True, "it can be summoned", "EFF-25")
    left = available_from - now_round
    return Gate(False, f"still re-forming: {left} more rounds of the 24 hours", "EFF-25")


def teleportation_works(*, astral_travel_blocked: bool, effect_ignores_blocks: bool = False) -> Gate:
    """Teleportation passes through the Astral Plane: whatever blocks astral travel blocks it, unless the
    effect says otherwise (EFF-26)."""
    if astral_travel_blocked and not effect_ignores_blocks:
        return Gate(False, "astral travel is blocked here, so teleportation is too", "EFF-26")
    return Gate(True, "the way through the Astral Plane is open", "EFF-26")


@dataclass(frozen=True, slots=True)
class DescriptorContext:
    """What the descriptor rules need beyond the target: communication (EFF-19), perception (EFF-23), and an
    override for Fortitude immunity (EFF-21). Leave out what the effect's descriptors do not need."""

    communication: Communication | None = None
    perceiving: Perceiving | None = None
    immune_to_fortitude_effects: bool | None = None


def descriptor_gate(target: Creature, descs: Iterable[str | Descriptor], context: DescriptorContext) -> Gate:
    """Every descriptor rule at once: the first one that keeps the effect off ``target``, or a pass
    (EFF-14, EFF-19..21, EFF-23). Refused when a descriptor needs a part of ``context`` that is missing."""
    ds = descriptors(descs)
    for d in sorted(ds):
        if d is Descriptor.MIND_AFFECTING:
            gate = mind_affecting_works(target)
        elif d is Descriptor.PAIN:
            gate = pain_works(target, immune_to_fortitude_effects=context.immune_to_fortitude_effects)
        elif d is Descriptor.LANGUAGE_DEPENDENT:
            if context.communication is None:
                raise RuleViolation("EFF-19", "a language-dependent effect needs to know how the two communicate")
            gate = language_dependent_works(context.communication)
        elif d is Descriptor.SENSE_DEPENDENT:
            if context.perceiving is None:
                raise RuleViolation("EFF-23", "a sense-dependent effect needs to know who sees or hears whom")
            gate = sense_dependent_works(context.perceiving)
        elif immune_to_descriptor(target, d):
            gate = Gate(False, f"{target.name} is immune to {d.value} effects", DESCRIPTOR_INFO[d].rule)
        else:
            continue
        if not gate:
            return gate
    return Gate(True, "no descriptor keeps the effect off " + target.name, "EFF-14")


# =========================================================================================== durations
class TimeUnit(StrEnum):
    ROUND = "round"
    MINUTE = "minute"
    HOUR = "hour"
    DAY = "day"
    WEEK = "week"
    YEAR = "year"


_DAY_ROUNDS: Final = general.hours_to_rounds(24)
#: Rounds in each unit, Pact Standard Time (GEN-16).
ROUNDS_PER_UNIT: Final[dict[TimeUnit, int]] = {
    TimeUnit.ROUND: 1,
    TimeUnit.MINUTE: general.minutes_to_rounds(1),
    TimeUnit.HOUR: general.hours_to_rounds(1),
    TimeUnit.DAY: _DAY_ROUNDS,
    TimeUnit.WEEK: 7 * _DAY_ROUNDS,
    TimeUnit.YEAR: 365 * _DAY_ROUNDS,
}


def units_to_rounds(amount: int, unit: TimeUnit) -> int:
    """``amount`` units in rounds (GEN-16): 1 minute = 10 rounds, 1 hour = 600, 1 day = 14,400."""
    return amount * ROUNDS_PER_UNIT[unit]


class DurationKind(StrEnum):
    TIMED = "timed"
    INSTANTANEOUS = "instantaneous"
    PERMANENT = "permanent"
    CONCENTRATION = "concentration"


@dataclass(frozen=True, slots=True)
class Duration:
    """An effect's duration (EFF-27..34).

    * timed: ``amount`` ``unit`` s (× level when ``per_level``), or ``dice`` rolled secretly (EFF-28);
    * instantaneous (EFF-29), permanent (EFF-30);
    * concentration (EFF-31), lingering ``linger_rounds`` + ``linger_per_level`` × level rounds after it stops;
    * ``discharge``: it also ends when triggered or discharged (EFF-32); ``dismissible``: "(D)" (EFF-34).
    """

    kind: DurationKind
    amount: int = 0
    unit: TimeUnit = TimeUnit.ROUND
    per_level: bool = False
    dice: str | None = None
    linger_rounds: int = 0
    linger_per_level: int = 0
    discharge: bool = False
    dismissible: bool = False

    def __post_init__(self) -> None:
        if self.kind is DurationKind.TIMED:
            if self.dice is not None:
                try:
                    expr = parse(self.dice)
                except DiceError as e:
                    raise RuleViolation("EFF-28", f"variable duration {self.dice!r}: {e}") from None
                if self.per_level:
                    raise RuleViolation("EFF-28", "a rolled duration per level is not a form the rules define")
                if expr.bounds()[0] < 1 or expr.types:
                    raise RuleViolation(
                        "EFF-28", f"variable duration {self.dice!r} could come out below 1 or names a damage type"
                    )
            elif self.amount < 1:
                raise RuleViolation("EFF-28", f"a timed duration lasts at least 1 {self.unit}, not {self.amount}")
        elif self.amount or self.dice or self.per_level:
            raise RuleViolation("EFF-27", f"a {self.kind} duration has no amount")
        if self.kind is not DurationKind.CONCENTRATION and (self.linger_rounds or self.linger_per_level):
            raise RuleViolation("EFF-31", "only concentration effects linger after concentration stops")
        if self.linger_rounds < 0 or self.linger_per_level < 0:
            raise RuleViolation("EFF-31", "lingering rounds cannot be negative")
        if self.kind is DurationKind.INSTANTANEOUS and (self.dismissible or self.discharge):
            raise RuleViolation("EFF-29", "an instantaneous effect is over at once: nothing to dismiss or discharge")

    # -- constructors
    @classmethod
    def timed(
        cls, amount: int, unit: TimeUnit = TimeUnit.ROUND, *, per_level: bool = False, dismissible: bool = False,
        discharge: bool = False,
    ) -> Duration:  # fmt: skip
        return cls(DurationKind.TIMED, amount, unit, per_level, dismissible=dismissible, discharge=discharge)

    @classmethod
    def rolled(cls, dice: str, unit: TimeUnit = TimeUnit.ROUND, *, dismissible: bool = False) -> Duration:
        return cls(DurationKind.TIMED, unit=unit, dice=dice, dismissible=dismissible)

    @classmethod
    def instantaneous(cls) -> Duration:
        return cls(DurationKind.INSTANTANEOUS)

    @classmethod
    def permanent(cls, *, dismissible: bool = False, discharge: bool = False) -> Duration:
        return cls(DurationKind.PERMANENT, dismissible=dismissible, discharge=discharge)

    @classmethod
    def concentration(cls, *, linger_rounds: int = 0, linger_per_level: int = 0) -> Duration:
        return cls(DurationKind.CONCENTRATION, linger_rounds=linger_rounds, linger_per_level=linger_per_level)

    @property
    def variable(self) -> bool:
        return self.dice is not None

    @property
    def dismissible_at_will(self) -> bool:
        """Dismissible: marked "(D)", or a concentration effect (inherently so, EFF-34)."""
        return self.dismissible or self.kind is DurationKind.CONCENTRATION

    def describe(self) -> str:
        if self.kind is DurationKind.TIMED:
            n = self.dice if self.dice is not None else str(self.amount)
            plural = "" if (self.dice is None and self.amount == 1) else "s"
            text = f"{n} {self.unit}{plural}" + ("/level" if self.per_level else "")
        elif self.kind is DurationKind.CONCENTRATION:
            text = "concentration"
            if self.linger_per_level:
                text += f" + {self.linger_per_level} round{'s' if self.linger_per_level > 1 else ''}/level"
            if self.linger_rounds:
                text += f" + {self.linger_rounds} round{'s' if self.linger_rounds > 1 else ''}"
        else:
            text = str(self.kind)
        if self.discharge:
            text += " or until discharged"
        return text + (" (D)" if self.dismissible else "")


_UNIT_WORDS: Final[dict[str, TimeUnit]] = {u.value: u for u in TimeUnit} | {
    "rd": TimeUnit.ROUND,
    "min": TimeUnit.MINUTE,
}
_TIMED = re.compile(
    r"^(?P<n>\d+d\d+(?:\s*[+-]\s*\d+)?|\d+)\s*(?P<unit>round|rd|minute|min|hour|day|week|year)s?\.?"
    r"(?:\s*(?:/|per)\s*(?P<level>level|lvl))?$"
)
_LINGER = re.compile(r"^concentration(?:\s*\+\s*(?P<n>\d+)\s*rounds?(?:\s*(?:/|per)\s*(?P<level>level))?)?$")


def parse_duration(text: str) -> Duration:
    """A duration as printed: "instantaneous", "permanent (D)", "concentration", "concentration + 1
    round/level", "1 round/level (D)", "10 minutes/level", "1d4 rounds", "1 hour or until discharged"..."""
    s = re.sub(r"\s+", " ", text.strip().lower())
    dismissible = False
    if s.endswith("(d)"):
        dismissible, s = True, s[:-3].strip()
    discharge = False
    m = re.search(r",?\s*or until (?:discharged|triggered)$", s)
    if m:
        discharge, s = True, s[: m.start()].strip()
    if s in ("instantaneous", "instant"):
        if dismissible or discharge:
            raise RuleViolation("EFF-29", f"{text!r}: an instantaneous effect cannot be dismissed or discharged")
        return Duration.instantaneous()
    if s == "permanent":
        return Duration.permanent(dismissible=dismissible, discharge=discharge)
    lm = _LINGER.match(s)
    if lm:
        n = int(lm.group("n") or 0)
        if lm.group("level"):
            return Duration.concentration(linger_per_level=n)
        return Duration.concentration(linger_rounds=n)
    tm = _TIMED.match(s)
    if tm:
        unit = _UNIT_WORDS[tm.group("unit")]
        n_text = tm.group("n").replace(" ", "")
        if "d" in n_text:
            if tm.group("level"):
                raise RuleViolation("EFF-28", f"{text!r}: a rolled duration per level is not a form the rules define")
            return Duration(DurationKind.TIMED, unit=unit, dice=n_text, dismissible=dismissible, discharge=discharge)
        return Duration.timed(
            int(n_text), unit, per_level=tm.group("level") is not None, dismissible=dismissible, discharge=discharge
        )
    raise RuleViolation("EFF-27", f"cannot read the duration {text!r}")


def _need_level(level: int | None, what: str, rule: str) -> int:
    if level is None:
        raise RuleViolation(rule, f"{what} depends on level: give the effect's level")
    if level < 0:
        raise RuleViolation(rule, f"a level is 0 or more, not {level}")
    return level


def to_rounds(duration: Duration, *, level: int | None = None, rolled: int | None = None) -> int | None:
    """The duration in rounds (EFF-28, GEN-16): 0 for instantaneous, None for open-ended ones (permanent,
    concentration). A per-level duration needs ``level``; a variable one needs the amount ``rolled`` (in its
    own units; see :func:`roll_duration`)."""
    if duration.kind is DurationKind.INSTANTANEOUS:
        return 0
    if duration.kind is not DurationKind.TIMED:
        return None
    if duration.dice is not None:
        if rolled is None:
            raise RuleViolation("EFF-28", f"the variable duration {duration.dice} must be rolled first")
        return units_to_rounds(rolled, duration.unit)
    amount = duration.amount * (_need_level(level, "this duration", "EFF-28") if duration.per_level else 1)
    return units_to_rounds(amount, duration.unit)


def linger_rounds(duration: Duration, *, level: int | None = None) -> int:
    """Rounds a concentration effect lasts after concentration stops (EFF-31)."""
    if duration.kind is not DurationKind.CONCENTRATION:
        return 0
    per = duration.linger_per_level * (_need_level(level, "lingering", "EFF-31") if duration.linger_per_level else 0)
    return duration.linger_rounds + per


@dataclass(frozen=True, slots=True)
class RolledDuration:
    """A duration made concrete: ``rounds`` (None: open-ended), the ``roll`` if it was variable, and
    ``secret``: the GM rolled it and players must not be told (EFF-28): the encounter keeps it in the event
    but narration and player views must not show it."""

    duration: Duration
    rounds: int | None
    roll: RolledExpr | None
    secret: bool

    def describe(self) -> str:
        if self.rounds is None:
            return self.duration.describe()
        shown = f" ({self.roll.describe()})" if self.roll is not None else ""
        return f"{self.rounds} rounds{shown}" + (" [rolled secretly]" if self.secret else "")


def roll_duration(duration: Duration, dice: DiceSource, *, level: int | None = None) -> RolledDuration:
    """Make a duration concrete (EFF-28): a variable duration is rolled (secretly: the result carries
    ``secret=True``); fixed ones roll nothing."""
    if duration.kind is DurationKind.TIMED and duration.dice is not None:
        r = roll(parse(duration.dice), dice, purpose=f"duration {duration.dice} {duration.unit}s (secret)")
        return RolledDuration(duration, to_rounds(duration, rolled=r.total), r, True)
    return RolledDuration(duration, to_rounds(duration, level=level), None, False)


# ----------------------------------------------------------------------------------- the clock
@dataclass(frozen=True, slots=True)
class Moment:
    """A point on the encounter's clock: a round and an initiative count (higher counts act first)."""

    round: int
    count: int

    @property
    def key(self) -> tuple[int, int]:
        """Sort key: later moments have larger keys."""
        return (self.round, -self.count)

    def before(self, other: Moment) -> bool:
        return self.key < other.key


@dataclass(frozen=True, slots=True)
class EffectEnd:
    """When an effect ends: ``count`` (just before initiative count ``count`` of round ``round``, CF-14),
    ``instant`` (already over) or ``never`` (until something ends it)."""

    kind: Literal["count", "instant", "never"]
    round: int = 0
    count: int = 0

    def is_over(self, at: Moment) -> bool:
        """Whether the effect has ended by ``at`` (a turn at that count of that round)."""
        if self.kind == "instant":
            return True
        if self.kind == "never":
            return False
        return at.round > self.round or (at.round == self.round and at.count <= self.count)

    def expiry_fields(self) -> dict[str, object]:
        """Keyword arguments for the encounter's ``Expiry`` (``encounter.state.Expiry(**fields)``). An instant
        end has no expiry: the encounter should not record an effect for it."""
        if self.kind == "instant":
            raise RuleViolation("EFF-29", "an instantaneous effect needs no expiry")
        if self.kind == "never":
            return {"kind": "never"}
        return {"kind": "count", "round": self.round, "count": self.count}

    def describe(self) -> str:
        if self.kind == "count":
            return f"ends just before count {self.count} of round {self.round}"
        return "already over" if self.kind == "instant" else "until ended"


def end_of(duration: Duration, start: Moment, *, level: int | None = None, rolled: int | None = None) -> EffectEnd:
    """When an effect begun at ``start`` ends (EFF-27..31, CF-14): N rounds later, just before the same count;
    instantaneous effects are over at once; permanent and concentration effects run until something ends them
    (a discharge flag only adds a way to end)."""
    rounds = to_rounds(duration, level=level, rolled=rolled)
    if duration.kind is DurationKind.INSTANTANEOUS:
        return EffectEnd("instant")
    if rounds is None:
        return EffectEnd("never")
    return EffectEnd("count", start.round + rounds, start.count)


# ----------------------------------------------------------------------------------- suppression
@dataclass(frozen=True, slots=True)
class RunningEffect:
    """An effect in force and its end. ``suppressed``: it is suppressed (not negated); ``suppressed_until``
    the moment the suppression lifts (None with ``suppressed``: until lifted by :func:`lift_suppression`)."""

    name: str
    end: EffectEnd
    suppressed: bool = False
    suppressed_until: Moment | None = None


def suppress(effect: RunningEffect, *, until: Moment | None = None) -> RunningEffect:
    """Suppress an effect or a condition (EFF-27, CON-00): it stops working for a while but its end does not
    move: it still ends when it would have ended had it never been suppressed."""
    return replace(effect, suppressed=True, suppressed_until=until)


def lift_suppression(effect: RunningEffect) -> RunningEffect:
    return replace(effect, suppressed=False, suppressed_until=None)


def effect_status(effect: RunningEffect, at: Moment) -> Literal["active", "suppressed", "ended"]:
    """The effect at ``at`` (EFF-27, CON-00): ended once its original end is reached, suppressed or not;
    suppressed while a suppression covers ``at``; otherwise active."""
    if effect.end.is_over(at):
        return "ended"
    if effect.suppressed and (effect.suppressed_until is None or at.before(effect.suppressed_until)):
        return "suppressed"
    return "active"


# ----------------------------------------------------------------------------------- concentration
ActionName = Literal["none", "swift", "move", "standard", "full"]


@dataclass(frozen=True, slots=True)
class ActionCost:
    """What doing something costs: the action, whether it provokes attacks of opportunity, and whether it
    may be done at any time (off-turn, flat-footed)."""

    action: ActionName
    provokes: bool
    rule: str
    any_time: bool = False


#: Maintaining concentration (EFF-31, ACT-14).
MAINTAIN_CONCENTRATION: Final = ActionCost("standard", False, "EFF-31")
#: Dismissing a (D) effect (EFF-34, ACT-16); stopping concentration costs nothing (on your turn).
DISMISS: Final = ActionCost("standard", False, "EFF-34")
STOP_CONCENTRATING: Final = ActionCost("none", False, "EFF-34")
#: Declaring yourself a willing target (EFF-48, ACT-75).
DECLARE_WILLING: Final = ActionCost("none", False, "EFF-48", any_time=True)
#: Touching up to six creatures when an effect allows touches over several rounds (EFF-40, ACT-57).
TOUCH_SIX_OVER_ROUNDS: Final = ActionCost("full", False, "EFF-40")


@dataclass(frozen=True, slots=True)
class Concentration:
    """A user concentrating on an effect (EFF-31). ``maintained_round``: the last round the user spent the
    standard action on it (the round it began counts); ``linger``: rounds it lasts after concentration stops."""

    user: str
    effect: str
    started: Moment
    maintained_round: int
    linger: int = 0


def start_concentration(
    user: str,
    effect: str,
    duration: Duration,
    at: Moment,
    *,
    level: int | None = None,
    current: Concentration | None = None,
) -> Concentration:
    """Begin a concentration effect (EFF-31). Refused if the duration is not concentration, or if the user is
    already concentrating on something (no second concentration effect while concentrating)."""
    if duration.kind is not DurationKind.CONCENTRATION:
        raise RuleViolation("EFF-31", f"{effect} does not last by concentration ({duration.describe()})")
    if current is not None:
        raise RuleViolation(
            "EFF-31", f"{user} is concentrating on {current.effect}: no other concentration effect meanwhile"
        )
    return Concentration(user, effect, at, at.round, linger_rounds(duration, level=level))


def check_may_cast(
    current: Concentration | None,
    *,
    now_round: int | None = None,
    reading: Literal["while_concentrating", "same_round"] = "while_concentrating",
    what: str = "cast a spell",
) -> None:
    """While concentrating, a creature can neither cast a spell nor use an effect that needs concentration
    (EFF-31). ``reading``: "while_concentrating" (default; the literal text: as long as it keeps a
    concentration effect going, it must stop concentrating first, which is free on its turn) or "same_round"
    (only in a round in which it spent its action maintaining; needs ``now_round``)."""
    if current is None:
        return
    if reading == "same_round":
        if now_round is None:
            raise RuleViolation("EFF-31", "the same-round reading needs the current round")
        if current.maintained_round != now_round:
            return
    raise RuleViolation("EFF-31", f"{current.user} cannot {what} while concentrating on {current.effect}")


def maintain(c: Concentration, round_: int) -> Concentration:
    """Spend the round's standard action keeping the effect going (EFF-31, ACT-14); refused if already done
    this round (once is all it takes)."""
    if round_ <= c.maintained_round:
        raise RuleViolation("EFF-31", f"{c.effect} is already maintained in round {round_}")
    return replace(c, maintained_round=round_)


@dataclass(frozen=True, slots=True)
class ConcentrationOutcome:
    """After a turn: ``going`` (still maintained) or stopped with ``end`` (the lingering end, or instant)."""

    going: bool
    end: EffectEnd | None
    reason: str
    rule: str = "EFF-31"


def stop_concentrating(
    c: Concentration, at: Moment, *, broken: bool = False, linger_when_broken: bool = False
) -> ConcentrationOutcome:
    """Concentration stops at ``at`` (EFF-31). Stopping of one's own accord ends the effect, which lingers
    ``c.linger`` rounds if it has that (count-anchored from ``at``). Concentration broken by something that
    could break casting ends the effect; whether a lingering part survives that is this module's reading:
    by default not (the text says breaking ends the effect), ``linger_when_broken`` keeps it."""
    linger = c.linger if (not broken or linger_when_broken) else 0
    why = "concentration broken" if broken else "stopped concentrating"
    if linger:
        return ConcentrationOutcome(False, EffectEnd("count", at.round + linger, at.count), f"{why}: lingers {linger}")
    return ConcentrationOutcome(False, EffectEnd("instant"), f"{why}: the effect ends")


def concentration_at_turn_end(c: Concentration, at: Moment) -> ConcentrationOutcome:
    """At the end of the user's turn: if it did not maintain the effect this round, concentration has
    stopped (EFF-31) and the effect ends or lingers."""
    if c.maintained_round >= at.round:
        return ConcentrationOutcome(True, None, "maintained this round")
    return stop_concentrating(c, at)


# ----------------------------------------------------------------------------------- holding the charge
#: Willing or unconscious creatures one activation (or one full action) can touch (EFF-40).
MAX_TOUCH_TARGETS: Final = 6


class ChargeStatus(StrEnum):
    FRESH = "fresh"  # created this round, not yet discharged
    HELD = "held"  # held past the round it was created (EFF-33)
    DISCHARGED = "discharged"
    DISSIPATED = "dissipated"  # another attack, ability or spell while holding it
    LAPSED = "lapsed"  # a multi-target touch whose round passed with targets untouched


@dataclass(frozen=True, slots=True)
class TouchCharge:
    """A touch effect waiting to be delivered (EFF-33, EFF-40). ``targets``: how many it may touch;
    ``over_rounds``: the effect lets its touches be spread over several rounds."""

    effect: str
    created_round: int
    targets: int = 1
    over_rounds: bool = False
    touched: tuple[str, ...] = ()
    status: ChargeStatus = ChargeStatus.FRESH

    def __post_init__(self) -> None:
        if self.targets < 1:
            raise RuleViolation("EFF-40", "a touch effect touches at least one target")

    @property
    def live(self) -> bool:
        return self.status in (ChargeStatus.FRESH, ChargeStatus.HELD)

    @property
    def multi(self) -> bool:
        return self.targets > 1


def _check_live(charge: TouchCharge) -> None:
    if not charge.live:
        raise RuleViolation("EFF-33", f"{charge.effect} is {charge.status}: nothing left to deliver")


def _check_round(charge: TouchCharge, round_: int) -> None:
    if charge.multi and not charge.over_rounds and round_ != charge.created_round:
        raise RuleViolation(
            "EFF-33", f"{charge.effect} touches several targets: all in the round it was activated, never held"
        )


def touch(charge: TouchCharge, target: str, *, round_: int, hit: bool = True) -> TouchCharge:
    """One touch with the charge (EFF-33): a miss keeps it (touch attacks may go on round after round); a hit
    delivers it to ``target`` and, once every target is touched, it is discharged."""
    _check_live(charge)
    _check_round(charge, round_)
    if target in charge.touched:
        raise RuleViolation("EFF-33", f"{target} was already touched with {charge.effect}")
    if not hit:
        return charge
    touched = (*charge.touched, target)
    status = ChargeStatus.DISCHARGED if len(touched) >= charge.targets else charge.status
    return replace(charge, touched=touched, status=status)


def touch_many(
    charge: TouchCharge, targets: Sequence[Creature], *, round_: int, willing: Collection[str]
) -> tuple[TouchCharge, ActionCost | None]:
    """Touch several willing or unconscious creatures at once (EFF-40): at most six, each willing (declared,
    EFF-48) or unconscious. Without ``over_rounds`` it happens in the round of activation, as part of it (no
    further action: cost None); with it, touching up to six is a full action."""
    _check_live(charge)
    _check_round(charge, round_)
    if len(targets) > MAX_TOUCH_TARGETS:
        raise RuleViolation("EFF-40", f"at most {MAX_TOUCH_TARGETS} creatures at a time, not {len(targets)}")
    left = charge.targets - len(charge.touched)
    if len(targets) > left:
        raise RuleViolation("EFF-40", f"{charge.effect} has only {left} touches left")
    for t in targets:
        if t.id not in willing and "unconscious" not in cond.active(t):
            raise RuleViolation("EFF-40", f"{t.name} is neither willing nor unconscious: touching it takes an attack")
    out = charge
    for t in targets:
        out = touch(out, t.id, round_=round_)
    return out, (TOUCH_SIX_OVER_ROUNDS if charge.over_rounds else None)


def charge_at_round_end(charge: TouchCharge, round_: int) -> TouchCharge:
    """At the end of the user's turn in ``round_`` (EFF-33): a single-target charge not delivered in its
    first round is now held (indefinitely); a multi-target charge that cannot be held lapses, its untouched
    targets lost."""
    if not charge.live or round_ < charge.created_round:
        return charge
    if charge.multi and not charge.over_rounds:
        return replace(charge, status=ChargeStatus.LAPSED)
    if charge.status is ChargeStatus.FRESH:
        return replace(charge, status=ChargeStatus.HELD)
    return charge


def charge_after_other_action(charge: TouchCharge, what: Literal["attack", "ability", "spell"]) -> TouchCharge:
    """Making any other attack, activating another ability or casting a spell while holding a touch effect
    dissipates it (EFF-33). (The round it was created counts as holding, this module's reading.)"""
    if not charge.live:
        return charge
    return replace(charge, status=ChargeStatus.DISSIPATED)


# ----------------------------------------------------------------------------------- dismissing
def dismiss(
    duration: Duration, *, within_range: bool, meets_conditions: bool = True, own_turn: bool = True
) -> ActionCost:
    """Dismiss an effect (EFF-34, ACT-16). A concentration effect is dismissed by stopping concentrating on
    one's turn, at no action. A "(D)" effect takes a standard action, the user within the effect's range and
    still able to meet what creating it required (able to concentrate, has the equipment), without spending
    the original action. Anything else cannot be dismissed."""
    if duration.kind is DurationKind.CONCENTRATION:
        if not own_turn:
            raise RuleViolation("EFF-34", "stop concentrating on your own turn")
        return STOP_CONCENTRATING
    if not duration.dismissible:
        raise RuleViolation("EFF-34", f"a {duration.describe()} effect is not dismissible")
    if not within_range:
        raise RuleViolation("EFF-34", "dismissing needs the user within the effect's range")
    if not meets_conditions:
        raise RuleViolation("EFF-34", "dismissing needs the user able to meet what creating the effect required")
    return DISMISS


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
    return explain(f"{kind} range (ft)", [Term(base, f"{kind} base", rule, B), Term(step * steps, what, rule, B)])


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
