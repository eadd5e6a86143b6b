"""Awareness, the pure rules: the four states one observer has of one target, what each allows against it,
what the observer's senses make of the target now, breaking observation and locating an unseen attacker
(SEN-03..12, SEN-15, MOD-05, MOD-20, SPA-15..17).

Nothing here knows whose turn it is or where anyone stands: the caller (the encounter) measures the distance,
the light on the target and the lines of sight and effect, and keeps one :class:`Awareness` per ordered pair
(observer, target). The senses themselves are ``sf1e.creature_senses``; ``sf1e.senses`` imports every public
name of this module, so code may import them from either.

Awareness (SEN-03..10)
----------------------
:class:`Awareness` orders the four states: UNAWARE < AWARE_OF_PRESENCE < AWARE_OF_LOCATION < OBSERVING.
Anything short of observing makes the target *unseen* (SEN-09). :func:`can_target` says what each state lets
the observer do; :func:`attack_awareness` decides one attack (miss chance, the defender flat-footed against an
unseen attacker, MOD-20).

:func:`observe` looks at one observer and one target in the present situation and returns an
:class:`Observation` with three states:

* ``awareness``: what the senses give *without a check*, against a target that is not hiding: a precise sense
  that perceives the target gives OBSERVING, a blindsense AWARE_OF_LOCATION, and ordinary hearing or smell
  nothing (noticing that way always needs a Perception check, SPA-17). A hiding target gives nothing.
* ``on_notice``: what a successful Perception check gives from UNAWARE (SEN-05, SEN-11, SEN-12): precise sense
  OBSERVING, blindsense AWARE_OF_LOCATION, ordinary imprecise senses AWARE_OF_PRESENCE.
* ``ceiling``: the best state reachable at all (pinpointing, SEN-05): OBSERVING with a precise sense,
  AWARE_OF_LOCATION with any imprecise one, UNAWARE when no sense can reach the target.

What each sense needs, in this module's reading:

* every sense: a conscious, living observer; the target not ethereal (even blindsight cannot perceive it,
  SEN-12); the target within the sense's range (vision, hearing and smell have none here; touch 5 ft);
* vision: not blinded, line of sight, the target not invisible (SPA-17; darkvision does not help, VIS-05), and
  enough light on the target: any light but darkness, or darkvision reaching it (VIS-01..06);
* every other sense: line of effect (a decision: the seeds give no way to sense through walls except sense
  through), its mechanism usable (deafened: sound; vacuum: sound, scent and unspecified blindsight or
  blindsense, SEN-12), and, against an incorporeal target, a mechanism other than scent, sound, touch or
  vibration (SPA-16; vibration counts as touch here, a decision; sound works when the creature wishes to be
  heard);
* sense through (mechanism): lets every sense of that mechanism reach past listed barriers within its range
  (SEN-13): see :func:`sense_through_penetrates` for the materials (EX-19).

An incorporeal observer inside an object senses only creatures in adjacent squares, and no better than
AWARE_OF_LOCATION (enemies have total concealment from it, SPA-15).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Final, Literal

from sftactics.core.breakdown import Term
from sftactics.core.errors import RuleViolation
from sftactics.grid.map import Light
from sftactics.sf1e import conditions as cond
from sftactics.sf1e.creature_senses import (
    INCORPOREAL_HIDES_FROM,
    LOST_BY_CONDITION,
    NEEDS_A_MEDIUM,
    SENSELESS,
    TOUCH_RANGE_FT,
    Barrier,
    Mechanism,
    Senses,
    parse_senses,
    sense_through_penetrates,
)
from sftactics.sf1e.state import Creature


# =========================================================================================== awareness
class Awareness(IntEnum):
    """One observer's awareness of one target (SEN-03), in increasing order."""

    UNAWARE = 0
    AWARE_OF_PRESENCE = 1
    AWARE_OF_LOCATION = 2
    OBSERVING = 3

    @property
    def unseen(self) -> bool:
        """Anything short of observing makes the target unseen to this observer (SEN-09)."""
        return self < Awareness.OBSERVING

    @property
    def text(self) -> str:
        return self.name.lower().replace("_", " ")


#: Rule of each state.
AWARENESS_RULE: Final[dict[Awareness, str]] = {
    Awareness.UNAWARE: "SEN-04",
    Awareness.AWARE_OF_PRESENCE: "SEN-05",
    Awareness.AWARE_OF_LOCATION: "SEN-06",
    Awareness.OBSERVING: "SEN-07",
}

#: Miss chance of total concealment, in percent (MOD-05, SEN-06, SEN-09).
TOTAL_CONCEALMENT: Final = 50
#: Miss chance of concealment, in percent (MOD-04).
CONCEALMENT: Final = 20


AttackMode = Literal["normal", "square", "guess", "none"]


@dataclass(frozen=True, slots=True)
class Targeting:
    """What an observer in one state may do against the target (SEN-04..07, MOD-05).

    ``attack``: "normal" (observing), "square" (attack its square, which it knows: total concealment),
    "guess" (attack a square it picks: a wrong square is an automatic miss, the right one has total
    concealment), "none" (no direct attack). ``miss_chance`` applies to a hit on the right square.
    ``targeted_effects``: ranged effects aimed at a creature without an attack roll (SEN-07). Area effects
    always affect the target whatever the state (SEN-04..07)."""

    awareness: Awareness
    attack: AttackMode
    miss_chance: int
    wrong_square_misses: bool
    targeted_effects: bool
    area_effects: bool
    unseen: bool
    rule: str
    text: str


def can_target(state: Awareness) -> Targeting:
    """What the state allows (SEN-04..07). Aware of presence only: the seeds forbid attacking the creature
    directly, and MOD-05 (§22) lets anyone attack a square: so it may attack the square it guesses."""
    if state is Awareness.OBSERVING:
        return Targeting(state, "normal", 0, False, True, True, False, "SEN-07", "observing: normal attacks")
    if state is Awareness.AWARE_OF_LOCATION:
        return Targeting(
            state, "square", TOTAL_CONCEALMENT, False, False, True, True, "SEN-06",
            "aware of its location: attack its square, total concealment (50%)",
        )  # fmt: skip
    if state is Awareness.AWARE_OF_PRESENCE:
        return Targeting(
            state, "guess", TOTAL_CONCEALMENT, True, False, True, True, "MOD-05",
            "aware of its presence only: attack a guessed square; wrong square misses, right square 50%",
        )  # fmt: skip
    return Targeting(state, "none", 0, False, False, True, True, "SEN-04", "unaware: no direct attack")


@dataclass(frozen=True, slots=True)
class AttackAwareness:
    """Awareness applied to one attack: the attacker's miss chance (a hit still misses on d% at or under it),
    an automatic miss on a wrong guessed square, and the AC terms for the defender being flat-footed against
    an unseen attacker (MOD-20; source "flat-footed", so it does not add to the real condition)."""

    miss_chance: int
    automatic_miss: bool
    ac_terms: tuple[Term, ...]
    rule: str
    lines: tuple[str, ...]


def unseen_attack_terms(defender_view: Awareness) -> tuple[Term, ...]:
    """The defender is flat-footed (-2 AC) against the attacks of a creature unseen to it (SEN-09, MOD-20),
    even with blindsense (SEN-11). ``defender_view``: the defender's awareness of the attacker."""
    if not defender_view.unseen:
        return ()
    return (Term(-2, "flat-footed against an unseen attacker", "MOD-20", source="flat-footed"),)


def attack_awareness(
    attacker_view: Awareness, defender_view: Awareness, *, right_square: bool | None = None
) -> AttackAwareness:
    """Decide what awareness does to one attack. ``attacker_view``: the attacker's awareness of the defender;
    ``defender_view``: the defender's awareness of the attacker; ``right_square``: for an attacker aware only
    of presence, whether the square it picked holds the defender (the encounter knows). Refused (SEN-04,
    SEN-05) for an unaware attacker, or a guessed square not named."""
    t = can_target(attacker_view)
    terms = unseen_attack_terms(defender_view)
    lines = [t.text + f" [{t.rule}]"]
    if terms:
        lines.append(f"the defender does not see the attacker: {terms[0].describe()}")
    if t.attack == "none":
        raise RuleViolation("SEN-04", "the attacker is unaware of its target: it cannot attack it directly")
    if t.attack == "guess":
        if right_square is None:
            raise RuleViolation("SEN-05", "aware only of its presence: name the square to attack")
        if not right_square:
            lines.append("the square is empty: the attack misses [MOD-05]")
            return AttackAwareness(0, True, terms, "MOD-05", tuple(lines))
    return AttackAwareness(t.miss_chance, False, terms, t.rule, tuple(lines))


# ----------------------------------------------------------------------------------------- target traits
@dataclass(frozen=True, slots=True)
class TargetTraits:
    """What about the target matters to being perceived. ``hiding``: it is using Stealth against this
    observer (the encounter sets it after a successful Stealth check and clears it when the target can no
    longer hide); ``audible``: an incorporeal creature that wishes to be heard (SPA-16); ``inside_object``: an
    incorporeal creature inside an object (total cover, SPA-15); ``ethereal``: beyond every sense (SEN-12)."""

    invisible: bool = False
    incorporeal: bool = False
    hiding: bool = False
    ethereal: bool = False
    audible: bool = False
    inside_object: bool = False

    @classmethod
    def of(cls, creature: Creature, **over: bool) -> TargetTraits:
        """The traits a creature shows: invisible (the condition marker), incorporeal (the stat block)."""
        base = {"invisible": "invisible" in cond.active(creature), "incorporeal": creature.stat.incorporeal}
        base.update(over)
        return cls(**base)


@dataclass(frozen=True, slots=True)
class Channel:
    """One way of perceiving: vision, a blindsight/blindsense entry, or ordinary hearing, smell or touch."""

    name: str
    mechanism: Mechanism
    precise: bool
    keen: bool  # blindsense or blindsight (SEN-01)
    range_ft: int | None

    @property
    def blindsight(self) -> bool:
        return self.keen and self.precise


def channels(senses: Senses) -> tuple[Channel, ...]:
    """Every way ``senses`` can perceive, precise ones first (SEN-01)."""
    out: list[Channel] = []
    if senses.vision:
        out.append(Channel("vision", Mechanism.VISION, True, False, None))
    out += [Channel(s.name, s.mechanism, True, True, s.range_ft) for s in senses.blindsight]
    out += [Channel(s.name, s.mechanism, False, True, s.range_ft) for s in senses.blindsense]
    out += [
        Channel("hearing", Mechanism.SOUND, False, False, None),
        Channel("smell", Mechanism.SCENT, False, False, None),
        Channel("touch", Mechanism.TOUCH, False, False, TOUCH_RANGE_FT),
    ]
    return tuple(out)


def lost_mechanisms(conditions: Iterable[str], *, vacuum: bool = False) -> frozenset[Mechanism]:
    """Mechanisms the observer cannot use: blinded (vision), deafened (sound) (SEN-02, CON-03, CON-11); in
    vacuum sound, scent and unspecified blindsight/blindsense (SEN-12)."""
    names = frozenset(conditions)
    lost = {m for c, m in LOST_BY_CONDITION.items() if c in names}
    if vacuum:
        lost |= NEEDS_A_MEDIUM
    return frozenset(lost)


def incorporeal_perceivable_by(mechanism: Mechanism, *, audible: bool = False) -> bool:
    """Whether a sense of this mechanism can perceive an incorporeal creature (SPA-16)."""
    if mechanism is Mechanism.SOUND and audible:
        return True
    return mechanism not in INCORPOREAL_HIDES_FROM


@dataclass(frozen=True, slots=True)
class Observation:
    """What one observer's senses make of one target now (see the module docstring): ``awareness`` without a
    check, ``on_notice`` after a successful notice check, ``ceiling`` the best reachable; ``perceiving`` the
    channels that reach the target; ``notes`` why the others do not."""

    awareness: Awareness
    on_notice: Awareness
    ceiling: Awareness
    perceiving: tuple[Channel, ...]
    notes: tuple[str, ...]
    rule: str

    @property
    def precise(self) -> bool:
        """A precise sense perceives the target: it is not unseen by that route (SEN-07)."""
        return any(c.precise for c in self.perceiving)

    @property
    def by_blindsight(self) -> bool:
        return any(c.blindsight for c in self.perceiving)

    @property
    def keen(self) -> bool:
        """A blindsense or blindsight reaches the target: it negates the unseen Stealth bonus (SEN-09, SEN-11)."""
        return any(c.keen for c in self.perceiving)

    def after_success(self, before: Awareness) -> Awareness:
        """The state after a successful Perception check (SEN-05): noticing from UNAWARE gives ``on_notice``;
        pinpointing from AWARE_OF_PRESENCE or better gives ``ceiling``. Never lower than ``before``."""
        gained = self.on_notice if before is Awareness.UNAWARE else self.ceiling
        return max(before, gained)

    def settle(self, stored: Awareness) -> Awareness:
        """The state to store now, given the state stored before: what the senses give without a check, or
        what earlier checks established as long as the senses can still support it (never above
        ``ceiling``). Recompute it whenever the situation changes."""
        return max(self.awareness, min(stored, self.ceiling))


def _path_ok(
    ch: Channel,
    senses: Senses,
    lost: frozenset[Mechanism],
    distance: int | None,
    los: bool,
    loe: bool,
    barriers: Sequence[Barrier],
) -> tuple[bool, str]:
    clear = los if ch.mechanism is Mechanism.VISION else loe
    if clear:
        return True, ""
    what = "line of sight" if ch.mechanism is Mechanism.VISION else "line of effect"
    if barriers:
        for st in senses.sense_through:
            if st.mechanism != ch.mechanism or st.mechanism in lost:
                continue
            if distance is not None and distance > st.range_ft:
                continue
            p = sense_through_penetrates(st, barriers)
            if p.passes:
                return True, f"{ch.name} reaches through with {st.name}"
    return False, f"{ch.name}: no {what}"


def observe(
    senses: Senses,
    conditions: Iterable[str],
    target: TargetTraits,
    distance_ft: int | None,
    light: Light,
    line_of_sight: bool,
    line_of_effect: bool,
    *,
    barriers: Sequence[Barrier] = (),
    vacuum: bool = False,
    observer_inside_object: bool = False,
) -> Observation:
    """What ``senses`` make of ``target`` (see the module docstring for what each sense needs).

    ``conditions``: the observer's condition names (``cond.active`` of it: blinded, deafened, unconscious...);
    ``distance_ft``: between the two (None: assume within every range); ``light``: the light on the target
    (its best-lit square); ``barriers``: what blocks the lines, for sense through (SEN-13). Rules: SEN-01..12,
    SEN-15, VIS-01..06, SPA-15..17."""
    names = frozenset(conditions)
    notes: list[str] = []
    if names & SENSELESS:
        which = sorted(names & SENSELESS)[0]
        return Observation(Awareness.UNAWARE, Awareness.UNAWARE, Awareness.UNAWARE, (), (f"{which}",), "SEN-15")
    if target.ethereal:
        return Observation(
            Awareness.UNAWARE, Awareness.UNAWARE, Awareness.UNAWARE, (), ("ethereal: beyond every sense",), "SEN-12"
        )
    if observer_inside_object:
        if distance_ft is None or distance_ft <= TOUCH_RANGE_FT:
            adj = Channel("sense of adjacent squares", Mechanism.OTHER, False, True, TOUCH_RANGE_FT)
            loc = Awareness.AWARE_OF_LOCATION
            return Observation(loc, loc, loc, (adj,), ("inside an object: senses adjacent squares",), "SPA-15")
        return Observation(
            Awareness.UNAWARE, Awareness.UNAWARE, Awareness.UNAWARE, (),
            ("inside an object: senses only adjacent squares",), "SPA-15",
        )  # fmt: skip
    los, loe = line_of_sight, line_of_effect
    if target.inside_object:
        los = loe = False
        notes.append("inside an object: total cover")
    lost = lost_mechanisms(names, vacuum=vacuum)
    perceiving: list[Channel] = []
    for ch in channels(senses):
        if ch.mechanism in lost:
            notes.append(f"{ch.name}: {ch.mechanism} unusable")
            continue
        if ch.range_ft is not None and distance_ft is not None and distance_ft > ch.range_ft:
            notes.append(f"{ch.name}: beyond {ch.range_ft} ft")
            continue
        if target.incorporeal and not incorporeal_perceivable_by(ch.mechanism, audible=target.audible):
            notes.append(f"{ch.name}: cannot perceive an incorporeal creature (SPA-16)")
            continue
        if ch.mechanism is Mechanism.VISION:
            if target.invisible:
                notes.append("vision: the target is invisible (SPA-17)")
                continue
            if light is Light.DARK and not senses.darkvision_reaches(distance_ft):
                notes.append("vision: darkness, no darkvision reaching it (VIS-04)")
                continue
        ok, why = _path_ok(ch, senses, lost, distance_ft, los, loe, barriers)
        if why:
            notes.append(why)
        if ok:
            perceiving.append(ch)
    precise = any(c.precise for c in perceiving)
    blindsense = any(c.keen and not c.precise for c in perceiving)
    ordinary = any(not c.keen and not c.precise for c in perceiving)
    if precise:
        auto = notice = ceiling = Awareness.OBSERVING
        rule = "SEN-12" if not any(c.mechanism is Mechanism.VISION for c in perceiving) else "SEN-07"
    elif blindsense:
        auto = notice = ceiling = Awareness.AWARE_OF_LOCATION
        rule = "SEN-11"
    elif ordinary:
        auto, notice, ceiling = Awareness.UNAWARE, Awareness.AWARE_OF_PRESENCE, Awareness.AWARE_OF_LOCATION
        rule = "SPA-17" if target.invisible else "SEN-05"
    else:
        auto = notice = ceiling = Awareness.UNAWARE
        rule = "SEN-15"
    if target.hiding and auto > Awareness.UNAWARE:
        notes.append("hiding: noticing it takes a Perception check")
        auto = Awareness.UNAWARE
    return Observation(auto, notice, ceiling, tuple(perceiving), tuple(notes), rule)


def observe_state(
    observer_senses: Senses,
    observer_conditions: Iterable[str],
    target_traits: TargetTraits,
    distance_ft: int | None,
    light_level: Light,
    line_of_sight: bool,
    line_of_effect: bool,
    *,
    barriers: Sequence[Barrier] = (),
    vacuum: bool = False,
    observer_inside_object: bool = False,
) -> Awareness:
    """The state the senses give without a check: ``observe(...).awareness`` (SEN-03..12)."""
    return observe(
        observer_senses, observer_conditions, target_traits, distance_ft, light_level, line_of_sight,
        line_of_effect, barriers=barriers, vacuum=vacuum, observer_inside_object=observer_inside_object,
    ).awareness  # fmt: skip


def observe_creature(
    observer: Creature,
    target: Creature,
    *,
    distance_ft: int | None,
    light: Light = Light.NORMAL,
    line_of_sight: bool = True,
    line_of_effect: bool = True,
    hiding: bool = False,
    audible: bool = False,
    inside_object: bool = False,
    observer_inside_object: bool = False,
    barriers: Sequence[Barrier] = (),
    vacuum: bool = False,
) -> Observation:
    """:func:`observe` for two creatures: the observer's parsed senses and active conditions, the target's
    invisibility marker and incorporeality."""
    traits = TargetTraits.of(target, hiding=hiding, audible=audible, inside_object=inside_object)
    return observe(
        parse_senses(observer.stat), cond.active(observer), traits, distance_ft, light, line_of_sight,
        line_of_effect, barriers=barriers, vacuum=vacuum, observer_inside_object=observer_inside_object,
    )  # fmt: skip


def aware_for_surprise(states: Iterable[Awareness]) -> bool:
    """Whether a combatant counts as aware for the surprise round (CF-07, CF-08): aware of at least one
    opponent's presence. (A decision: the seeds say "aware of its opponents"; knowing a foe is there is
    enough to not be surprised.)"""
    return any(s >= Awareness.AWARE_OF_PRESENCE for s in states)


# ----------------------------------------------------------------------------------------- breaking observation
CoverGrade = Literal["none", "soft", "partial", "cover", "improved", "total"]


@dataclass(frozen=True, slots=True)
class ObservationBreak:
    """Whether the target may use Stealth against this observer now (SEN-08) and by what means."""

    broken: bool
    means: str
    rule: str


def break_observation(
    observation: Observation,
    *,
    cover: CoverGrade = "none",
    concealment: int = 0,
    everywhere: bool = False,
    distraction: bool = False,
) -> ObservationBreak:
    """May a target use Stealth against this observer (SEN-08)? ``observation`` is the observer's view of it
    now (after it moved, turned invisible...); ``cover`` its cover from the observer; ``concealment`` its
    concealment in percent from the map or the light (``vision_concealment``); ``everywhere``: that
    concealment is a displacement-like effect that still shows where it is (MOD-03), which breaks nothing;
    ``distraction``: a successful Bluff to create a distraction (its DC is outside the seeds, XREF).

    Broken when no precise sense of the observer reaches it (darkness, fog, invisibility), when it has cover
    other than soft cover (MOD-16, MOD-11), when it has concealment the observer's precise senses do not
    ignore (blindsight ignores concealment, MOD-06), or by a distraction."""
    if not observation.precise:
        return ObservationBreak(True, "no precise sense of the observer reaches it", "SEN-08")
    if distraction:
        return ObservationBreak(True, "a distraction (Bluff)", "SEN-08")
    if cover in ("partial", "cover", "improved", "total"):
        return ObservationBreak(True, f"{cover} cover", "MOD-16")
    if concealment > 0 and not everywhere:
        if observation.by_blindsight:
            return ObservationBreak(False, "blindsight ignores concealment", "MOD-06")
        return ObservationBreak(True, f"concealment ({concealment}%)", "SEN-08")
    if cover == "soft":
        return ObservationBreak(False, "soft cover does not allow Stealth", "MOD-11")
    if concealment > 0:
        return ObservationBreak(False, "a displacement-like effect still shows where it is", "SEN-08")
    return ObservationBreak(False, "in plain view", "SEN-08")


# ----------------------------------------------------------------------------------------- locating
@dataclass(frozen=True, slots=True)
class AwarenessChange:
    before: Awareness
    after: Awareness
    rule: str
    reason: str

    @property
    def changed(self) -> bool:
        return self.after != self.before


def locate_attacker(current: Awareness, *, melee: bool, adjacent: bool) -> AwarenessChange:
    """After an unseen creature attacks: a melee attack from an adjacent space shows where it is, so the
    defender is at least aware of its location (SEN-10; it may still move away afterwards). Other attacks
    change nothing here (the seeds name only adjacent melee attacks; a Perception check may still find it)."""
    if melee and adjacent and current < Awareness.AWARE_OF_LOCATION:
        return AwarenessChange(current, Awareness.AWARE_OF_LOCATION, "SEN-10", "attacked in melee from adjacent")
    return AwarenessChange(current, current, "SEN-10", "no change")
