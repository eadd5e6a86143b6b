"""Effect descriptors, the pure rules: what each of the 35 descriptors means and when one keeps an effect off
its target (EFF-14..26).

Nothing here knows whose turn it is or where anyone stands: the caller (the encounter) passes what each side
perceives and how the two can communicate. An answer is a :class:`Gate` (whether the effect can work, why, and
the rule that decides it); :func:`descriptor_gate` asks every descriptor rule at once. Refused requests raise
:class:`RuleViolation` naming the rule; nothing is changed. ``sf1e.effect_rules`` imports every public name of
this module, so code may import them from either.

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
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Literal

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain
from sftactics.core.check import CheckKind, CheckResult, resolve
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import general, saves, stats
from sftactics.sf1e.awareness import Observation
from sftactics.sf1e.creature_senses import Mechanism, TelepathyCheck
from sftactics.sf1e.effect_durations import Duration, DurationKind
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
