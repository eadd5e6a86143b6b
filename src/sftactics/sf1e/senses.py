"""Senses, awareness and light: the pure rules (SEN-01..15, VIS-01..08, MOD-05, MOD-06, MOD-20, EX-19).

Nothing here knows whose turn it is or where anyone stands: the caller (the encounter) measures the distance,
the light on the target and the lines of sight and effect, and keeps one :class:`Awareness` per ordered pair
(observer, target). These functions say what the senses allow and what a check changes.

Senses (SEN-01, SEN-02)
-----------------------
A creature's senses are :class:`Senses`, read from the stat block by :func:`parse_senses`. Every sense works
through a *mechanism* (:class:`Mechanism`): vision, sound, scent, touch, vibration, emotion, life, thought.

* **Precise** senses show a creature in detail: vision, and every form of blindsight.
* **Imprecise** senses only give clues: ordinary hearing, smell and touch (every creature has them), and the
  keen imprecise senses called blindsense.
* A blindsense, blindsight or sense through entry names its mechanism in parentheses; if that mechanism stops
  working the entry is lost entirely (blinded: vision; deafened: sound). "hearing" and "sound" are the same
  mechanism (SEN-13, §22 default), and so are "smell"/"scent" and "sight"/"vision".

Stat block keys :func:`parse_senses` accepts (case, underscores and extra spaces are forgiven; the value is the
range in feet)::

    darkvision: 60                      low-light vision: 0 (the value is ignored)
    see in darkness: 0                  darkvision without a range limit
    blindsight: 30                      blindsight (vibration): 30   blindsight (scent, sound): 30
    blindsense: 30                      blindsense (scent): 30
    sense through: 30                   sense through (vision): 60   sense through (hearing): 30
    sense through (vision [smoke only]): 60         sense through (scent [blocked by silver]): 30
    telepathy: 100                      limited telepathy: 30  (0 means the usual 100 ft, SEN-14)
    blind: 0 (or "no vision")           the creature has no vision at all

A parenthesis may list several mechanisms ("scent, sound"): each becomes its own entry, lost on its own.
Without a parenthesis the mechanism is *unspecified*: no condition takes it away, but a vacuum does (the rules
say blindsight typically fails in vacuum). Keys this module does not know are kept in
``Senses.unrecognized`` (or refused with ``strict=True``).

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

Checks (CF-07, SEN-05, SEN-08, SPA-17)
--------------------------------------
:func:`perception_vs_stealth` is the opposed check (the hider's Stealth first, then the observer's
Perception). Ties are this module's documented choice (the seeds have no rule for opposed skill checks): the
higher total bonus wins, and equal bonuses roll off with a d20 each, repeated until it breaks, as initiative
does (CF-04); ``ties="observer"`` (the Stealth total works as a DC) and ``ties="hider"`` are the alternatives.
An unseen hider gets +40 to Stealth standing still, +20 moving, unless the observer has a working blindsense
or blindsight (SEN-09, SEN-11; blindsight counts as the stronger blindsense, a decision). Which hider counts as
unseen for that bonus is a decision too: by default one that no precise sense of the observer reaches
(invisible, in darkness, out of sight), since reading "unseen" as "any state short of observing" would hand
+40 to every ambusher against foes who are merely unaware; ``unseen=True`` gives the literal reading.
:func:`perception_vs_dc` is a Perception check against a fixed DC (noticing an invisible creature that is not
hiding, SPA-17).

After a check: success raises the state to ``on_notice`` (from UNAWARE) or to ``ceiling`` (pinpointing from
AWARE_OF_PRESENCE or better); failure against a hider leaves an observer that knew more with only
AWARE_OF_PRESENCE (the hider is still around, its place is lost) and an UNAWARE one unaware.

Light (VIS-01..08)
------------------
A square's light is its base level raised by every :class:`LightSource` reaching it: within the radius the
source's own level, and dim light in a band just beyond it (VIS-03; the band is as wide as the radius unless
the source says otherwise: the seeds give no width, this is the decision). Light sources never lower light,
and an invisible source still lights (VIS-08). Source radii are equipment data (VIS-07): parameters here.
:func:`vision_concealment` is the concealment light gives against one observer's eyes: 20% in dim light
without low-light vision or darkvision, 50% in darkness without darkvision, none against blindsight (VIS-03 as
§22 reads it, VIS-04, MOD-06). The grid's ``light_concealment`` answers the same question for attacks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum, StrEnum
from fractions import Fraction
from typing import Final, Literal

from sftactics.core.breakdown import Breakdown, Term
from sftactics.core.check import CheckKind, CheckResult, judge, roll_d20
from sftactics.core.errors import RuleViolation, SftError
from sftactics.dice.source import DiceSource
from sftactics.grid.geometry import Square, distance_ft
from sftactics.grid.map import GridMap, Light
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats
from sftactics.sf1e.statblock import StatBlock
from sftactics.sf1e.state import Creature


# =========================================================================================== senses
class Mechanism(StrEnum):
    """How a sense perceives (SEN-02). ``UNSPECIFIED``: the stat block names none; ``OTHER``: a name this
    module does not know (it works unless something says otherwise)."""

    VISION = "vision"
    SOUND = "sound"
    SCENT = "scent"
    TOUCH = "touch"
    VIBRATION = "vibration"
    EMOTION = "emotion"
    LIFE = "life"
    THOUGHT = "thought"
    UNSPECIFIED = "unspecified"
    OTHER = "other"


#: Words for mechanisms; "hearing" is "sound" (SEN-13, §22 default).
MECHANISM_WORDS: Final[dict[str, Mechanism]] = {
    "vision": Mechanism.VISION,
    "sight": Mechanism.VISION,
    "sound": Mechanism.SOUND,
    "hearing": Mechanism.SOUND,
    "scent": Mechanism.SCENT,
    "smell": Mechanism.SCENT,
    "touch": Mechanism.TOUCH,
    "vibration": Mechanism.VIBRATION,
    "emotion": Mechanism.EMOTION,
    "life": Mechanism.LIFE,
    "thought": Mechanism.THOUGHT,
}

#: Mechanisms that cannot perceive an incorporeal creature (SPA-16). The text names scent, sound and touch;
#: vibration is counted as touch (a weightless creature shakes nothing): this module's decision.
INCORPOREAL_HIDES_FROM: Final = frozenset({Mechanism.SCENT, Mechanism.SOUND, Mechanism.TOUCH, Mechanism.VIBRATION})

#: Mechanisms that need air: in vacuum they fail (SEN-12 says blindsight "typically" does not work there, and
#: that an emotion-based one would). Blindsight/blindsense with no named mechanism count as typical.
NEEDS_A_MEDIUM: Final = frozenset({Mechanism.SOUND, Mechanism.SCENT, Mechanism.UNSPECIFIED})

#: Which condition takes away which mechanism (SEN-02, CON-03, CON-11).
LOST_BY_CONDITION: Final[dict[str, Mechanism]] = {"blinded": Mechanism.VISION, "deafened": Mechanism.SOUND}

#: Conditions under which a creature perceives nothing at all.
SENSELESS: Final = frozenset({"dead", "unconscious"})

#: Range of telepathy when the stat block gives none (SEN-14: "usually 100 feet").
DEFAULT_TELEPATHY_FT: Final = 100

#: Darkvision that sense through (vision) brings unless the stat block says otherwise (SEN-13).
SENSE_THROUGH_VISION_DARKVISION_FT: Final = 60

#: Range of ordinary touch: only what is adjacent.
TOUCH_RANGE_FT: Final = 5


class SpecialKind(StrEnum):
    BLINDSIGHT = "blindsight"
    BLINDSENSE = "blindsense"
    SENSE_THROUGH = "sense through"


@dataclass(frozen=True, slots=True)
class SpecialSense:
    """One blindsight, blindsense or sense through entry (SEN-11..13). ``only``: the materials a sense through
    works against ("[smoke only]"); ``blocked_by``: materials that stop it ("[blocked by silver]")."""

    kind: SpecialKind
    range_ft: int
    mechanism: Mechanism = Mechanism.UNSPECIFIED
    only: frozenset[str] = frozenset()
    blocked_by: frozenset[str] = frozenset()
    label: str = ""

    @property
    def precise(self) -> bool:
        """Blindsight is precise, blindsense imprecise (SEN-01); sense through is as precise as the sense it
        extends (vision: precise; others: imprecise)."""
        if self.kind is SpecialKind.SENSE_THROUGH:
            return self.mechanism is Mechanism.VISION
        return self.kind is SpecialKind.BLINDSIGHT

    @property
    def name(self) -> str:
        return self.label or (
            str(self.kind) if self.mechanism is Mechanism.UNSPECIFIED else f"{self.kind} ({self.mechanism})"
        )


@dataclass(frozen=True, slots=True)
class Senses:
    """What a creature can perceive with (SEN-01). Every creature with ``vision`` sees; every creature hears,
    smells and feels (ordinary imprecise senses)."""

    vision: bool = True
    darkvision_ft: int = 0
    see_in_darkness: bool = False
    low_light_vision: bool = False
    blindsight: tuple[SpecialSense, ...] = ()
    blindsense: tuple[SpecialSense, ...] = ()
    sense_through: tuple[SpecialSense, ...] = ()
    telepathy_ft: int = 0
    limited_telepathy_ft: int = 0
    unrecognized: tuple[str, ...] = ()

    @property
    def darkvision(self) -> bool:
        return self.see_in_darkness or self.darkvision_ft > 0

    def darkvision_reaches(self, distance: int | None) -> bool:
        """Darkvision sees that far (VIS-05); ``None`` distance means "assume in range"."""
        if self.see_in_darkness:
            return True
        return self.darkvision_ft > 0 and (distance is None or distance <= self.darkvision_ft)

    def blindsight_reaches(self, distance: int | None, lost: Iterable[Mechanism] = ()) -> bool:
        """Some blindsight with a usable mechanism reaches that far (SEN-12)."""
        gone = frozenset(lost)
        return any(s.mechanism not in gone and (distance is None or distance <= s.range_ft) for s in self.blindsight)


_KEY_SPACES = re.compile(r"\s+")
_SPECIAL = re.compile(r"^(blindsight|blindsense|sense through)\s*(?:\((.*)\))?$")
_PART = re.compile(r"^([a-z][a-z -]*?)\s*(?:\[(.*)\])?$")


def _norm(key: str) -> str:
    k = _KEY_SPACES.sub(" ", key.strip().lower().replace("_", " "))
    return k.replace("low light", "low-light").replace("lowlight", "low-light")


def _split_top(text: str) -> list[str]:
    """Split on commas that are not inside square brackets."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def _materials(text: str) -> frozenset[str]:
    words = re.split(r",|\band\b|\bor\b", text)
    return frozenset(w.strip() for w in words if w.strip())


def mechanism_of(word: str) -> Mechanism:
    """The mechanism a word names ("hearing" -> sound, SEN-13); unknown words give ``OTHER``."""
    w = word.strip().lower()
    if not w:
        return Mechanism.UNSPECIFIED
    return MECHANISM_WORDS.get(w, Mechanism.OTHER)


def _special_entries(kind: SpecialKind, inner: str | None, range_ft: int, key: str) -> list[SpecialSense]:
    if inner is None or not inner.strip():
        return [SpecialSense(kind, range_ft, Mechanism.UNSPECIFIED, label=str(kind))]
    out: list[SpecialSense] = []
    for part in _split_top(inner):
        m = _PART.match(part)
        if m is None:
            raise SftError(f"senses: cannot read {key!r} (expected e.g. 'sense through (vision [smoke only])')")
        word, bracket = m.group(1), m.group(2)
        only: frozenset[str] = frozenset()
        blocked: frozenset[str] = frozenset()
        if bracket:
            b = bracket.strip()
            if b.startswith("blocked by"):
                blocked = _materials(b[len("blocked by") :])
            elif b.endswith(" only"):
                only = _materials(b[: -len(" only")])
            else:
                raise SftError(f"senses: in {key!r}, [{b}] should be '[X only]' or '[blocked by X]' (SEN-13)")
        mech = mechanism_of(word)
        label = f"{kind} ({word}{f' [{bracket.strip()}]' if bracket else ''})"
        out.append(SpecialSense(kind, range_ft, mech, only, blocked, label))
    return out


def parse_senses(stat: StatBlock | Mapping[str, int], *, strict: bool = False) -> Senses:
    """The :class:`Senses` a stat block's ``senses`` mapping describes (see the module docstring for the keys).

    Sense through (vision) gives darkvision 60 ft unless the stat block lists darkvision itself (SEN-13).
    Telepathy with range 0 means the usual 100 ft (SEN-14). Unknown keys are kept in ``unrecognized``, or
    refused with :class:`SftError` when ``strict``."""
    raw = stat.senses if isinstance(stat, StatBlock) else stat
    vision = True
    darkvision_ft = 0
    dark_given = False
    see_dark = low_light = False
    blindsight: list[SpecialSense] = []
    blindsense: list[SpecialSense] = []
    through: list[SpecialSense] = []
    telepathy = limited = 0
    unknown: list[str] = []
    for key, value in raw.items():
        k = _norm(key)
        rng = int(value)
        if rng < 0:
            raise SftError(f"senses: {key!r} has a negative range ({rng} ft)")
        if k == "darkvision":
            darkvision_ft, dark_given = max(darkvision_ft, rng), True
        elif k in ("low-light vision", "low-light"):
            low_light = True
        elif k in ("see in darkness", "see in the dark"):
            see_dark = True
        elif k in ("blind", "no vision", "blind (no vision)"):
            vision = False
        elif k == "telepathy":
            telepathy = rng or DEFAULT_TELEPATHY_FT
        elif k == "limited telepathy":
            limited = rng or DEFAULT_TELEPATHY_FT
        elif (m := _SPECIAL.match(k)) is not None:
            kind = SpecialKind(m.group(1))
            entries = _special_entries(kind, m.group(2), rng, key)
            {SpecialKind.BLINDSIGHT: blindsight, SpecialKind.BLINDSENSE: blindsense}.get(kind, through).extend(entries)
        elif strict:
            raise SftError(f"senses: unknown sense {key!r} (see sftactics.sf1e.senses for the accepted keys)")
        else:
            unknown.append(key)
    if any(s.mechanism is Mechanism.VISION for s in through) and not dark_given:
        darkvision_ft = SENSE_THROUGH_VISION_DARKVISION_FT
    return Senses(
        vision=vision,
        darkvision_ft=darkvision_ft,
        see_in_darkness=see_dark,
        low_light_vision=low_light,
        blindsight=tuple(blindsight),
        blindsense=tuple(blindsense),
        sense_through=tuple(through),
        telepathy_ft=telepathy,
        limited_telepathy_ft=limited,
        unrecognized=tuple(unknown),
    )


# =========================================================================================== sense through
#: Thickness of each material that stops sense through (EX-19, SEN-13), in feet.
DENSITY_LIMIT_FT: Final[dict[str, Fraction]] = {
    "wood": Fraction(10),
    "plastic": Fraction(10),
    "stone": Fraction(5),
    "metal": Fraction(1),
    "lead": Fraction(1, 2),
    "starmetal": Fraction(1, 2),
}

#: Other names for the density classes: common metals, and the starmetals (SEN-13: "lead or any starmetal").
MATERIAL_CLASS: Final[dict[str, str]] = {
    "common metal": "metal",
    "steel": "metal",
    "iron": "metal",
    "aluminum": "metal",
    "copper": "metal",
    "titanium": "metal",
    "adamantine": "starmetal",
    "adamantine alloy": "starmetal",
    "abysium": "starmetal",
    "djezet": "starmetal",
    "horacalcum": "starmetal",
    "inubrix": "starmetal",
    "noqual": "starmetal",
    "siccatite": "starmetal",
    "timber": "wood",
    "rock": "stone",
    "concrete": "stone",
}

#: Barriers that block sense through whatever their thickness, unless a sense says otherwise (SEN-13).
ENERGY_FIELDS: Final = frozenset({"energy field", "force field", "force", "force effect"})


@dataclass(frozen=True, slots=True)
class Barrier:
    """Something between observer and target: ``material`` ("wood", "stone", "steel", "lead", "adamantine",
    "smoke", "force field"...) and its thickness in feet (6 in. = 0.5). ``energy_field`` marks any energy
    field that affects the physical world (force fields, force effects)."""

    material: str
    thickness_ft: float | Fraction = 0
    energy_field: bool = False

    @property
    def klass(self) -> str:
        m = self.material.strip().lower()
        return MATERIAL_CLASS.get(m, m)

    @property
    def thickness(self) -> Fraction:
        t = self.thickness_ft
        return t if isinstance(t, Fraction) else Fraction(str(t))

    @property
    def is_energy_field(self) -> bool:
        return self.energy_field or self.material.strip().lower() in ENERGY_FIELDS


@dataclass(frozen=True, slots=True)
class Penetration:
    passes: bool
    reason: str
    rule: str = "SEN-13"


def sense_through_penetrates(sense: SpecialSense, barriers: Iterable[Barrier]) -> Penetration:
    """Whether a sense through entry reaches past ``barriers`` (SEN-13, EX-19).

    * "[X only]": every barrier must be one of those materials;
    * "[blocked by X]": any barrier of such a material stops it;
    * energy fields (force fields, force effects) stop it;
    * density: 10 ft of wood or plastic, 5 ft of stone, 1 ft of common metal, 6 in. of lead or any starmetal.
      Several barriers add up as fractions of their limits (2.5 ft of stone and 0.5 ft of metal = 1/2 + 1/2:
      blocked), this module's reading of "sufficiently dense material". Other materials (glass, cloth, smoke,
      typical armor and containers) never block by density."""
    bs = tuple(barriers)
    if sense.kind is not SpecialKind.SENSE_THROUGH:
        raise SftError(f"{sense.name} is not a sense through entry")
    if not bs:
        return Penetration(True, "nothing in the way")
    if sense.only:
        wrong = [b.material for b in bs if b.material.strip().lower() not in sense.only and b.klass not in sense.only]
        if wrong:
            return Penetration(
                False, f"{sense.name} works only through {', '.join(sorted(sense.only))}, not {wrong[0]}"
            )
        return Penetration(True, f"{sense.name} sees through {', '.join(b.material for b in bs)}")
    for b in bs:
        if b.material.strip().lower() in sense.blocked_by or b.klass in sense.blocked_by:
            return Penetration(False, f"{sense.name} is blocked by {b.material}")
        if b.is_energy_field:
            return Penetration(False, f"{b.material}: energy fields block sense through")
    load = sum((b.thickness / DENSITY_LIMIT_FT[b.klass] for b in bs if b.klass in DENSITY_LIMIT_FT), Fraction(0))
    if load >= 1:
        dense = ", ".join(f"{float(b.thickness):g} ft {b.material}" for b in bs if b.klass in DENSITY_LIMIT_FT)
        return Penetration(False, f"too dense for sense through: {dense}", "EX-19")
    return Penetration(True, "thin enough for sense through", "EX-19")


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


# ----------------------------------------------------------------------------------------- checks
Ties = Literal["higher_bonus", "observer", "hider"]

#: The unseen creature's bonus to Stealth (SEN-09).
UNSEEN_STEALTH_STATIONARY: Final = 40
UNSEEN_STEALTH_MOVING: Final = 20


def unseen_stealth_term(*, moving: bool, negated: bool) -> Term | None:
    """+40 to Stealth for a stationary unseen creature, +20 when it moves; none against an observer with a
    working blindsense or blindsight (SEN-09, SEN-11)."""
    if negated:
        return None
    value = UNSEEN_STEALTH_MOVING if moving else UNSEEN_STEALTH_STATIONARY
    return Term(value, f"unseen ({'moving' if moving else 'stationary'})", "SEN-09")


@dataclass(frozen=True, slots=True)
class AwarenessCheck:
    """An opposed Perception-against-Stealth check (CF-07, SEN-05). ``perception`` has the Stealth total as
    its number to meet (after tie-breaking, ``noticed`` is the verdict); ``rolloffs``: the d20 pairs of any
    roll-off (hider's first)."""

    observer: str
    target: str
    perception: CheckResult
    stealth: Breakdown
    stealth_natural: int
    stealth_total: int
    noticed: bool
    tie: str
    rolloffs: tuple[tuple[int, int], ...]
    before: Awareness
    after: Awareness
    lines: tuple[str, ...]


def _refuse_impossible(observer: Creature, observation: Observation | None, via: Mechanism | None) -> None:
    if via is Mechanism.VISION and (why := cond.auto_fail_reason(observer, {"sense:sight"})):
        raise RuleViolation("CON-03", f"{observer.name} is {why}: a sight-based Perception check fails outright")
    if via is Mechanism.SOUND and (why := cond.auto_fail_reason(observer, {"sense:sound"})):
        raise RuleViolation("CON-11", f"{observer.name} is {why}: a sound-based Perception check fails outright")
    if observation is not None and observation.ceiling is Awareness.UNAWARE:
        reason = "; ".join(observation.notes) or "no sense reaches it"
        raise RuleViolation(observation.rule, f"{observer.name} has no sense that can perceive the target ({reason})")


def _perception_bonus(observer: Creature, bonus: int | None, situational: Iterable[Term], opposed: bool) -> Breakdown:
    tags = frozenset({"opposed"} if opposed else set())
    bd = stats.skill_bonus(observer, "perception", bonus=bonus, ability="wis", tags=tags)
    extra = tuple(situational)
    return bd.plus(*extra, tags=tags | {"skill:perception", "ability:wis"}) if extra else bd


def _default_observation(observer: Creature, target: Creature | None, hiding: bool) -> Observation:
    traits = TargetTraits.of(target, hiding=hiding) if target is not None else TargetTraits(hiding=hiding)
    return observe(parse_senses(observer.stat), cond.active(observer), traits, None, Light.NORMAL, True, True)


def perception_vs_stealth(
    observer: Creature,
    target: Creature,
    dice: DiceSource,
    *,
    observer_bonus: int | None = None,
    stealth_bonus: int | None = None,
    situational: Iterable[Term] = (),
    stealth_situational: Iterable[Term] = (),
    before: Awareness = Awareness.UNAWARE,
    observation: Observation | None = None,
    moving: bool = False,
    unseen: bool | None = None,
    broke_observation: bool = False,
    via: Mechanism | None = None,
    ties: Ties = "higher_bonus",
) -> AwarenessCheck:
    """The target's Stealth against the observer's Perception (CF-07, SEN-05, SEN-08, SEN-09).

    Bonuses default to the printed skills (``observer_bonus``/``stealth_bonus`` override them); conditions
    apply as for any opposed check (blinded, deafened: -4). ``situational`` terms go on the Perception check
    (the GM's circumstances, SPA-17), ``stealth_situational`` on the Stealth check. ``observation``: the
    observer's view of the target (default: its senses at no particular distance, in normal light, with clear
    lines). ``unseen`` (default: no precise sense of the observer reaches the target) adds +40 (+20
    ``moving``) to Stealth unless a blindsense or blindsight reaches it (SEN-09, SEN-11). ``before``: the
    observer's state until now. ``via``: the mechanism the observer relies on, if named (blinded with vision,
    deafened with sound: refused, the check fails outright).

    Refused before rolling when the observer observes the target and it has not broken observation (SEN-08),
    or when no sense of the observer can reach the target. Dice: the Stealth d20, then the Perception d20,
    then roll-off pairs if needed (hider first)."""
    if before is Awareness.OBSERVING and not broke_observation:
        raise RuleViolation(
            "SEN-08", f"{observer.name} observes {target.name}: it must break observation before using Stealth"
        )
    obs = observation if observation is not None else _default_observation(observer, target, hiding=True)
    _refuse_impossible(observer, obs, via)
    perc = _perception_bonus(observer, observer_bonus, situational, opposed=True)
    stags = frozenset({"opposed", "skill:stealth", "ability:dex"})
    stl = stats.skill_bonus(target, "stealth", bonus=stealth_bonus, ability="dex", tags=frozenset({"opposed"}))
    extra = list(stealth_situational)
    is_unseen = (not obs.precise) if unseen is None else unseen
    term = unseen_stealth_term(moving=moving, negated=obs.keen) if is_unseen else None
    if term is not None:
        extra.append(term)
    if extra:
        stl = stl.plus(*extra, tags=stags)
    s_nat, _, _ = roll_d20(dice, f"{target.name} Stealth")
    s_total = s_nat + stl.total
    p_nat, p_rolls, p_note = roll_d20(dice, f"{observer.name} Perception")
    check = judge(CheckKind.SKILL, perc, s_total, p_nat, p_rolls, p_note)
    lines = [
        f"{target.name} Stealth: d20 {s_nat} {stl.total:+d} = {s_total}",
        *(f"    {t.describe()}" for t in stl.applied),
        f"{observer.name} Perception: d20 {p_nat} {perc.total:+d} = {check.total}",
        *(f"    {t.describe()}" for t in perc.applied),
    ]
    if is_unseen and term is None:
        lines.append("  (no unseen bonus: the observer's blindsense or blindsight reaches it) [SEN-11]")
    tie = ""
    rolloffs: list[tuple[int, int]] = []
    if check.total != s_total:
        noticed = check.total > s_total
    elif ties == "observer":
        noticed, tie = True, "tie: the Stealth total is the number to meet"
    elif ties == "hider":
        noticed, tie = False, "tie: the hider keeps its cover"
    elif perc.total != stl.total:
        noticed = perc.total > stl.total
        tie = f"tie: the higher bonus wins ({perc.total:+d} against {stl.total:+d})"
    else:
        while True:
            h = dice.d20(f"{target.name} Stealth roll-off")
            o = dice.d20(f"{observer.name} Perception roll-off")
            rolloffs.append((h, o))
            if h != o:
                break
        noticed = rolloffs[-1][1] > rolloffs[-1][0]
        tie = "tie with equal bonuses: roll-off " + ", ".join(f"{h} vs {o}" for h, o in rolloffs)
    check = CheckResult(
        check.kind, check.bonus, check.dc, check.natural, check.rolls, check.total, noticed, "", tie or check.note
    )
    if tie:
        lines.append(tie)
    if noticed:
        after = obs.after_success(before)
        lines.append(f"{observer.name} notices {target.name}: {after.text} [{AWARENESS_RULE[after]}]")
    else:
        after = min(before, Awareness.AWARE_OF_PRESENCE)
        lines.append(f"{target.name} stays hidden from {observer.name}: {after.text} [{AWARENESS_RULE[after]}]")
    return AwarenessCheck(
        observer.name, target.name, check, stl, s_nat, s_total, noticed, tie, tuple(rolloffs), before, after,
        tuple(lines),
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class PerceptionResult:
    """A Perception check against a DC to notice or pinpoint a creature (SEN-05, SPA-17)."""

    observer: str
    check: CheckResult
    before: Awareness
    after: Awareness
    lines: tuple[str, ...]


def perception_vs_dc(
    observer: Creature,
    dc: int,
    dice: DiceSource,
    *,
    target: Creature | None = None,
    observer_bonus: int | None = None,
    situational: Iterable[Term] = (),
    before: Awareness = Awareness.UNAWARE,
    observation: Observation | None = None,
    via: Mechanism | None = None,
) -> PerceptionResult:
    """A Perception check against a DC (the DC is the caller's, XREF Perception): noticing an invisible
    creature that gives itself away, or pinpointing one already noticed (SEN-05, SPA-17). Success gives
    :meth:`Observation.after_success`; failure leaves ``before``. Refused like :func:`perception_vs_stealth`
    when no sense can reach the target."""
    obs = observation if observation is not None else _default_observation(observer, target, hiding=False)
    _refuse_impossible(observer, obs, via)
    bonus = _perception_bonus(observer, observer_bonus, situational, opposed=False)
    nat, rolls, note = roll_d20(dice, f"{observer.name} Perception")
    check = judge(CheckKind.SKILL, bonus, dc, nat, rolls, note)
    after = obs.after_success(before) if check.success else before
    verb = "notices" if before is Awareness.UNAWARE else "pinpoints"
    lines = [
        f"{observer.name} Perception: {check.describe()}",
        f"{observer.name} {verb if check.success else 'finds nothing new'}: {after.text} [{AWARENESS_RULE[after]}]",
    ]
    return PerceptionResult(observer.name, check, before, after, tuple(lines))


# =========================================================================================== telepathy
@dataclass(frozen=True, slots=True)
class TelepathyCheck:
    possible: bool
    reason: str
    rule: str = "SEN-14"


def telepathy_reaches(
    senses: Senses, distance_ft: int, *, target_knows_language: bool, shares_language: bool = False
) -> TelepathyCheck:
    """Whether a creature can speak mind to mind with another (SEN-14): telepathy reaches any creature that
    knows a language within range; limited telepathy only one that shares a language with it. (Several
    listeners are possible; keeping up several conversations is as hard as speaking to several people.)"""
    if senses.telepathy_ft and distance_ft <= senses.telepathy_ft:
        if target_knows_language:
            return TelepathyCheck(True, f"telepathy {senses.telepathy_ft} ft")
        return TelepathyCheck(False, "the other creature knows no language")
    if senses.limited_telepathy_ft and distance_ft <= senses.limited_telepathy_ft:
        if shares_language:
            return TelepathyCheck(True, f"limited telepathy {senses.limited_telepathy_ft} ft")
        return TelepathyCheck(False, "limited telepathy needs a shared language")
    if senses.telepathy_ft or senses.limited_telepathy_ft:
        return TelepathyCheck(False, f"out of range ({distance_ft} ft)")
    return TelepathyCheck(False, "no telepathy")


# =========================================================================================== light
@dataclass(frozen=True, slots=True)
class LightSource:
    """A light on the map (VIS-07: radii and levels are equipment data, given here). Within ``radius_ft`` of
    ``origin`` the light is ``level``; just beyond, in a band ``dim_band_ft`` wide (default: as wide as the
    radius), it is dim (VIS-03). ``invisible``: the source itself is invisible; its light is not (VIS-08)."""

    origin: Square
    radius_ft: int
    level: Light = Light.NORMAL
    kind: str = ""
    dim_band_ft: int | None = None
    invisible: bool = False

    def __post_init__(self) -> None:
        if self.radius_ft < 0 or (self.dim_band_ft is not None and self.dim_band_ft < 0):
            raise SftError(f"a light's radius cannot be negative ({self.kind or 'light'} at {self.origin})")
        if self.level is Light.DARK:
            raise SftError("a light source gives light: darkness effects are not light sources (VIS-07)")

    def level_at(self, square: Square) -> Light:
        """The light this source alone gives ``square`` (DARK when it does not reach)."""
        d = distance_ft(self.origin, square)
        if d <= self.radius_ft:
            return self.level
        band = self.radius_ft if self.dim_band_ft is None else self.dim_band_ft
        if self.level > Light.DIM and d <= self.radius_ft + band:
            return Light.DIM
        return Light.DARK


BaseLight = Light | Mapping[Square, Light] | GridMap


def _base_at(base: BaseLight, square: Square) -> Light:
    if isinstance(base, Light):
        return base
    if isinstance(base, GridMap):
        return base.light_at(square)
    return base.get(square, Light.NORMAL)


def light_level_at(square: Square, base_levels: BaseLight, sources: Iterable[LightSource] = ()) -> Light:
    """The light on ``square`` (VIS-01..03, VIS-07, VIS-08): its base level (one level for everywhere, a
    mapping with normal light for squares it leaves out, or a map's own light) raised by each source reaching
    it. Sources never lower the light."""
    level = _base_at(base_levels, square)
    for s in sources:
        level = max(level, s.level_at(square))
    return Light(level)


def lit(grid: GridMap, sources: Iterable[LightSource]) -> GridMap:
    """``grid`` with its light raised by ``sources``, so the grid's concealment rules see the lights."""
    srcs = tuple(sources)
    if not srcs:
        return grid
    levels = grid.light_array.copy()
    for s in srcs:  # only the squares a source can reach: the rest of a large map keeps its own light
        reach = s.radius_ft + (s.radius_ft if s.dim_band_ft is None else s.dim_band_ft)
        r = reach // 5 + 1
        ox, oy = s.origin
        for y in range(max(0, oy - r), min(grid.height, oy + r + 1)):
            for x in range(max(0, ox - r), min(grid.width, ox + r + 1)):
                levels[y, x] = max(int(levels[y, x]), int(s.level_at((x, y))))
    return replace(grid, light=memoryview(levels.tobytes()).cast("B"))


def sees_at(level: Light, senses: Senses, *, distance_ft: int | None = None, blinded: bool = False) -> bool:
    """Whether the observer's vision works on something in this light (VIS-01..05): any light but darkness;
    darkness only with darkvision reaching it."""
    if blinded or not senses.vision:
        return False
    return level is not Light.DARK or senses.darkvision_reaches(distance_ft)


def effective_light(level: Light, senses: Senses, *, distance_ft: int | None = None) -> Light:
    """The light as this observer's eyes take it: low-light vision sees dim light as normal (VIS-06);
    darkvision within range sees darkness and dim light as if lit, in black and white (VIS-05)."""
    if level is Light.DIM and (senses.low_light_vision or senses.darkvision_reaches(distance_ft)):
        return Light.NORMAL
    if level is Light.DARK and senses.darkvision_reaches(distance_ft):
        return Light.NORMAL
    return level


def vision_concealment(level: Light, senses: Senses, *, distance_ft: int | None = None, blinded: bool = False) -> int:
    """Concealment (percent) light gives a target against this observer (VIS-03, VIS-04, MOD-06): none in
    bright or normal light; 20 in dim light unless low-light vision or darkvision (§22 reading of VIS-03);
    50 in darkness unless darkvision reaches; none at all against blindsight within range. Blinded: 50 (but
    blindsight still works)."""
    if senses.blindsight_reaches(distance_ft, lost_mechanisms(("blinded",) if blinded else ())):
        return 0
    if blinded or not senses.vision:
        return TOTAL_CONCEALMENT
    seen = effective_light(level, senses, distance_ft=distance_ft)
    if seen is Light.DARK:
        return TOTAL_CONCEALMENT
    if seen is Light.DIM:
        return CONCEALMENT
    return 0


def dim_light_allows_stealth(level: Light, senses: Senses, *, distance_ft: int | None = None) -> bool:
    """In dim light a creature may try Stealth against observers without low-light vision, darkvision or
    blindsight (VIS-03); in darkness against those without darkvision or blindsight."""
    return vision_concealment(level, senses, distance_ft=distance_ft) > 0


def describe_senses(senses: Senses) -> str:
    """The senses in a few words, for narration ("darkvision 60 ft, blindsense (scent) 30 ft")."""
    parts: list[str] = []
    if not senses.vision:
        parts.append("no vision")
    if senses.see_in_darkness:
        parts.append("sees in darkness")
    elif senses.darkvision_ft:
        parts.append(f"darkvision {senses.darkvision_ft} ft")
    if senses.low_light_vision:
        parts.append("low-light vision")
    parts += [f"{s.name} {s.range_ft} ft" for s in (*senses.blindsight, *senses.blindsense, *senses.sense_through)]
    if senses.telepathy_ft:
        parts.append(f"telepathy {senses.telepathy_ft} ft")
    if senses.limited_telepathy_ft:
        parts.append(f"limited telepathy {senses.limited_telepathy_ft} ft")
    return ", ".join(parts) or "ordinary senses"


__all__ = [
    "AWARENESS_RULE",
    "DENSITY_LIMIT_FT",
    "AttackAwareness",
    "Awareness",
    "AwarenessChange",
    "AwarenessCheck",
    "Barrier",
    "Channel",
    "LightSource",
    "Mechanism",
    "Observation",
    "ObservationBreak",
    "PerceptionResult",
    "Senses",
    "SpecialKind",
    "SpecialSense",
    "TargetTraits",
    "Targeting",
    "TelepathyCheck",
    "attack_awareness",
    "aware_for_surprise",
    "break_observation",
    "can_target",
    "channels",
    "describe_senses",
    "dim_light_allows_stealth",
    "effective_light",
    "incorporeal_perceivable_by",
    "light_level_at",
    "lit",
    "locate_attacker",
    "lost_mechanisms",
    "observe",
    "observe_creature",
    "observe_state",
    "parse_senses",
    "perception_vs_dc",
    "perception_vs_stealth",
    "sees_at",
    "sense_through_penetrates",
    "telepathy_reaches",
    "unseen_attack_terms",
    "unseen_stealth_term",
    "vision_concealment",
]
