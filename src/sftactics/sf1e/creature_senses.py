"""A creature's senses, the pure rules: what it perceives with, read from its stat block, how far sense through
reaches past barriers, and whom its telepathy reaches (SEN-01, SEN-02, SEN-11..14, EX-19).

Nothing here knows where anyone stands: the caller gives distances and what lies in the way. What the senses
make of one target is ``sf1e.awareness``; ``sf1e.senses`` imports every public name of this module, so code
may import them from either.

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
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Final

from sftactics.core.errors import SftError
from sftactics.sf1e.statblock import StatBlock


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
