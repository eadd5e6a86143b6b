"""Special abilities: Ex/Sp/Su, daily uses, incorporeal, invisible, spell resistance (SPA-01..05, SPA-13..23).

What is elsewhere, and reused rather than repeated:

* incorporeal damage (immunity to nonmagical kinetic damage, halving, force) and incorporeal attacks against
  EAC: ``sf1e.damage`` (``mitigate``, ``weapon_targets_ac``);
* no combat maneuvers by or against an incorporeal creature: ``sf1e.maneuvers.attempt`` refuses them (SPA-13);
  :func:`check_physical_interaction` is the same rule for other physical actions that move or handle a foe
  or its gear;
* +2 circumstance to escape a grapple while invisible: ``sf1e.maneuvers.escape`` (SPA-19);
* what incorporeal and invisible creatures do to perception (SPA-15..17): ``sf1e.senses.observe``.

Kinds of ability (SPA-01..04, SPA-23)
-------------------------------------
:class:`AbilityKind` is Ex, Sp or Su (and spell, for comparison); an ability whose kind is not given is Ex
(SPA-04). :data:`KIND_RULES` says what each kind is subject to: spell resistance (Sp and spells only), dispel
magic (Sp), disruption in combat (Sp and spells), magic suppression (Sp and Su stop working, Ex goes on),
attacks of opportunity (Sp and spells provoke in a threatened square unless the text says otherwise), and
the action it takes when its text names none (standard).

Daily uses (SPA-05)
-------------------
:class:`DailyUses` is a small state machine on a clock in minutes: ``use``, ``rest``, ``interrupt``,
``activity``, ``concentrate``, ``regain``. Uses come back only when 24 hours have passed since they last came
back **and** the creature has rested 8 continuous hours in that time, plus 1 hour per interruption of that rest;
spell slots also need 15 minutes of concentration after the rest. An interruption keeps the rest already done
(it only lengthens what is needed); doing something else (``activity``) abandons an unfinished rest.

Incorporeal (SPA-13..16)
------------------------
* It may be inside an object only while it stays adjacent to the object's outside (SPA-14): at least one of
  its squares is outside the object or next to a square outside it (:func:`may_occupy_inside`). Crossing a
  wall straight through is possible up to its own width plus one square (:func:`can_pass_through`); the
  stricter reading ("never through an object larger than its own space") is ``strict=True``. Force effects
  stop it. It cannot fall, weighs nothing, and moves through vacuum, water and zero gravity as through air.
* Inside an object (SPA-15): it has total cover, but only cover (+4 AC, +2 Reflex) when it attacks a creature
  outside; creatures outside have total concealment (50%) from it; it senses only adjacent squares.
* It moves silently, and senses based on scent, sound or touch miss it (SPA-16, in ``senses``); it moves at
  full speed even when it cannot see.

Invisible (SPA-17..19)
----------------------
Observation is in ``senses`` (SPA-17). Items (SPA-18): gear it had when it became invisible is invisible; an
item it drops or puts down becomes visible; an item it picks up is visible until tucked into its clothing or
pouches (the literal reading); the part of a carried item more than 10 ft from it is visible; light is never
invisible. It cannot use gaze attacks and divination still finds it (SPA-19).

Spell resistance (SPA-20..22)
-----------------------------
:func:`sr_check` is the caster level check (1d20 + caster level against the SR). :class:`SrLedger` keeps one
result per casting per creature: a pass or failure holds for every later exposure to the same casting, and a
creature whose SR was lowered when first exposed is affected then and gets its single check when its SR comes
back (:meth:`SrLedger.resume`). :func:`lower_sr` is the standard action that lowers SR until the creature's
next turn. SR never stops a creature's own effects, and Su abilities ignore it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final, Literal

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain
from sftactics.core.check import CheckKind, CheckResult, resolve
from sftactics.core.errors import RuleViolation, SftError
from sftactics.dice.source import DiceSource
from sftactics.grid.cover import CoverKind, cover_terms
from sftactics.grid.geometry import Square
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import maneuvers, saves
from sftactics.sf1e.senses import (
    TOTAL_CONCEALMENT,
    TOUCH_RANGE_FT,
    Mechanism,
    Senses,
    incorporeal_perceivable_by,
)
from sftactics.sf1e.statblock import StatBlock
from sftactics.sf1e.state import Creature

B = BonusType.BASE


# =========================================================================================== Ex / Sp / Su
class AbilityKind(StrEnum):
    EX = "Ex"
    SP = "Sp"
    SU = "Su"
    SPELL = "spell"


@dataclass(frozen=True, slots=True)
class KindRules:
    """What one kind of ability is and is subject to (SPA-01..03)."""

    kind: AbilityKind
    magical: bool
    spell_resistance: bool
    dispel: bool
    disrupted: bool
    works_where_magic_suppressed: bool
    provokes: bool
    default_action: str | None
    pays_costs: bool
    rule: str


KIND_RULES: Final[dict[AbilityKind, KindRules]] = {
    AbilityKind.EX: KindRules(AbilityKind.EX, False, False, False, False, True, False, "standard", False, "SPA-01"),
    AbilityKind.SP: KindRules(AbilityKind.SP, True, True, True, True, False, True, "standard", False, "SPA-02"),
    AbilityKind.SU: KindRules(AbilityKind.SU, True, False, False, False, False, False, "standard", False, "SPA-03"),
    # for comparison: a spell's casting time is its own; it pays its credit and RP costs
    AbilityKind.SPELL: KindRules(AbilityKind.SPELL, True, True, True, True, False, True, None, True, "SPA-02"),
}

_KIND_WORDS: Final[dict[str, AbilityKind]] = {
    "ex": AbilityKind.EX,
    "extraordinary": AbilityKind.EX,
    "sp": AbilityKind.SP,
    "spell-like": AbilityKind.SP,
    "spell like": AbilityKind.SP,
    "su": AbilityKind.SU,
    "supernatural": AbilityKind.SU,
    "spell": AbilityKind.SPELL,
}


def ability_kind(label: str | AbilityKind | None) -> AbilityKind:
    """The kind a label names: "Ex", "(Sp)", "supernatural"...; none given means Extraordinary (SPA-04)."""
    if isinstance(label, AbilityKind):
        return label
    if label is None or not label.strip().strip("()").strip():
        return AbilityKind.EX
    word = label.strip().strip("()").strip().lower()
    if word not in _KIND_WORDS:
        raise SftError(f"unknown kind of ability {label!r} (Ex, Sp, Su or spell)")
    return _KIND_WORDS[word]


def kind_rules(kind: str | AbilityKind | None) -> KindRules:
    return KIND_RULES[ability_kind(kind)]


def works_where(kind: str | AbilityKind | None, magic_suppressed: bool) -> bool:
    """Whether the ability functions here (SPA-23): Sp, Su and spells stop where magic is suppressed or
    negated; Ex abilities go on."""
    return not magic_suppressed or kind_rules(kind).works_where_magic_suppressed


def provokes(kind: str | AbilityKind | None, *, text_says: bool | None = None) -> bool:
    """Whether using it in a threatened square provokes attacks of opportunity (SPA-02): Sp abilities (and
    spells) do unless their text says otherwise (``text_says``)."""
    return text_says if text_says is not None else kind_rules(kind).provokes


def ability_dc(
    kind: str | AbilityKind | None, *, level: int, ability_mod: int, spell_level: int | None = None
) -> Breakdown:
    """The usual DC of an ability: Ex and Su 10 + half level + the ability modifier (SV-05, SPA-01, SPA-03);
    Sp 10 + spell level + Charisma modifier (SV-06, SPA-02; ``ability_mod`` is then the Charisma modifier)."""
    k = ability_kind(kind)
    if k in (AbilityKind.SP, AbilityKind.SPELL):
        if spell_level is None:
            raise RuleViolation("SPA-02", "a spell-like ability's DC needs its spell level")
        return saves.spell_like_dc(spell_level, ability_mod)
    return saves.special_ability_dc(level, ability_mod)


def spell_like_caster_level(stat: StatBlock, printed: int | None = None) -> int:
    """A spell-like ability's caster level: the printed one, else the creature's character level or CR
    (SPA-02; a CR below 1 counts as 1)."""
    return printed if printed is not None else stat.effective_level


# =========================================================================================== daily uses
MINUTES_PER_HOUR: Final = 60
#: Time between regaining uses (SPA-05).
REGAIN_INTERVAL_MIN: Final = 24 * MINUTES_PER_HOUR
#: Continuous rest needed, and what each interruption adds (SPA-05).
REST_NEEDED_MIN: Final = 8 * MINUTES_PER_HOUR
INTERRUPTION_MIN: Final = 1 * MINUTES_PER_HOUR
#: Concentration spellcasters need after the rest to regain spell slots (SPA-05).
CONCENTRATION_MIN: Final = 15


@dataclass(frozen=True, slots=True)
class DailyUses:
    """Uses of an ability (or spell slots, ``spell_slots=True``) that come back with rest (SPA-05).

    Times are minutes on the caller's clock: ``now``, ``last_regained``. ``rested``: minutes of the current
    rest; ``interruptions`` during it; ``rest_done``: a full rest finished since the last regain;
    ``concentrated``: minutes of concentration since that rest finished (spell slots)."""

    max_uses: int
    used: int = 0
    spell_slots: bool = False
    now: int = 0
    last_regained: int = 0
    rested: int = 0
    interruptions: int = 0
    resting: bool = False
    rest_done: bool = False
    concentrated: int = 0

    def __post_init__(self) -> None:
        if self.max_uses < 0 or not 0 <= self.used <= self.max_uses:
            raise SftError(f"daily uses: {self.used} used of {self.max_uses} is impossible")

    @property
    def left(self) -> int:
        return self.max_uses - self.used

    @property
    def rest_needed(self) -> int:
        """8 hours plus 1 hour per interruption (SPA-05), in minutes."""
        return REST_NEEDED_MIN + INTERRUPTION_MIN * self.interruptions

    def use(self, n: int = 1) -> DailyUses:
        if n < 1:
            raise SftError(f"use at least one ({n})")
        if n > self.left:
            raise RuleViolation("SPA-05", f"only {self.left} use(s) left until they are regained")
        return replace(self, used=self.used + n)

    def _advance(self, minutes: int) -> int:
        if minutes < 0:
            raise SftError(f"time cannot run backwards ({minutes} minutes)")
        return self.now + minutes

    def rest(self, minutes: int) -> DailyUses:
        """Rest (no movement, combat, spellcasting, skill use, conversation or other demanding task; sleep is
        not needed every minute; creatures that never sleep still need this restful calm)."""
        now = self._advance(minutes)
        rested = self.rested + minutes
        done = self.rest_done or rested >= self.rest_needed
        return replace(self, now=now, rested=rested, resting=True, rest_done=done)

    def interrupt(self, minutes: int = 0) -> DailyUses:
        """An interruption of the rest under way: it takes ``minutes`` (not rest) and adds 1 hour to the rest
        needed (SPA-05). Outside a rest it is just activity."""
        if not self.resting or self.rest_done:
            return self.activity(minutes)
        return replace(self, now=self._advance(minutes), interruptions=self.interruptions + 1)

    def activity(self, minutes: int) -> DailyUses:
        """Time spent doing something else: an unfinished rest is abandoned (the next one starts over)."""
        now = self._advance(minutes)
        if self.rest_done:
            return replace(self, now=now, resting=False)
        return replace(self, now=now, rested=0, interruptions=0, resting=False)

    def concentrate(self, minutes: int = CONCENTRATION_MIN) -> DailyUses:
        """Concentration after the rest, which spell slots need (SPA-05); before the rest is done it counts
        for nothing."""
        now = self._advance(minutes)
        if not self.rest_done:
            return replace(self, now=now, rested=0, interruptions=0, resting=False)
        return replace(self, now=now, resting=False, concentrated=self.concentrated + minutes)

    def why_not(self) -> str | None:
        """Why the uses cannot come back now, or None if they can."""
        waited = self.now - self.last_regained
        if waited < REGAIN_INTERVAL_MIN:
            return f"only {waited // 60} h {waited % 60} min since they last came back (24 h needed)"
        if not self.rest_done:
            return f"rested {self.rested} of {self.rest_needed} minutes (8 h + 1 h per interruption)"
        if self.spell_slots and self.concentrated < CONCENTRATION_MIN:
            return f"spell slots need {CONCENTRATION_MIN} minutes of concentration after the rest"
        return None

    @property
    def can_regain(self) -> bool:
        return self.why_not() is None

    def regain(self) -> DailyUses:
        """All uses back (SPA-05); refused until the conditions are met."""
        why = self.why_not()
        if why is not None:
            raise RuleViolation("SPA-05", f"uses are not regained yet: {why}")
        return DailyUses(self.max_uses, 0, self.spell_slots, self.now, self.now)


# =========================================================================================== incorporeal
def check_physical_interaction(actor: Creature, target: Creature, action: str = "that") -> None:
    """Refuse a physical action that moves or handles a foe or its gear when either side is incorporeal
    (SPA-13): combat maneuvers (``maneuvers.attempt`` refuses those itself), taking an item, shoving..."""
    for who, role in ((actor, "take"), (target, "be subject to")):
        if who.stat.incorporeal:
            raise RuleViolation("SPA-13", f"{who.name} is incorporeal: it cannot {role} {action} physical action")


def _neighbours(s: Square) -> Iterable[Square]:
    x, y = s
    return ((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)


def may_occupy_inside(occupied: Iterable[Square], object_squares: Iterable[Square]) -> bool:
    """Whether an incorporeal creature may stand in ``occupied`` with ``object_squares`` solid (SPA-14): it
    stays adjacent to the object's outside, i.e. one of its squares is outside the object or next to a square
    outside it."""
    obj = frozenset(object_squares)
    mine = tuple(occupied)
    if any(s not in obj for s in mine):
        return True
    return any(n not in obj for s in mine for n in _neighbours(s))


def _side_squares(space_ft: float) -> int:
    return max(1, -(-int(space_ft * 2) // 10))  # ceil(space / 5), at least one square


def can_pass_through(
    thickness_ft: float, own_space_ft: float, *, force_effect: bool = False, strict: bool = False
) -> bool:
    """Whether an incorporeal creature can cross an object of this thickness in a straight line (SPA-14).
    Staying adjacent to the outside allows its own width plus one square (a Medium creature crosses a 10-ft
    wall, not a 15-ft one); ``strict``: no thicker than its own space. Never through a force effect."""
    if force_effect:
        return False
    side = _side_squares(own_space_ft)
    limit = side * 5 if strict else (side + 1) * 5
    return thickness_ft <= limit


@dataclass(frozen=True, slots=True)
class IncorporealMovement:
    """Movement facts of an incorporeal creature (SPA-14, SPA-16)."""

    falls: bool = False
    falling_damage: bool = False
    weight: int = 0
    triggers_weight_traps: bool = False
    media_as_air: tuple[str, ...] = ("vacuum", "water", "zero gravity")
    passes_force_effects: bool = False
    full_speed_when_unable_to_see: bool = True
    silent: bool = True


INCORPOREAL_MOVEMENT: Final = IncorporealMovement()


def moves_blind_at_full_speed(creature: Creature) -> bool:
    """An incorporeal creature moves at full speed even when it cannot see (SPA-16): the blinded half-speed
    rule (CON-03) does not slow it."""
    return creature.stat.incorporeal


@dataclass(frozen=True, slots=True)
class InsideObject:
    """An incorporeal creature inside an object (SPA-15). ``ac_terms``/``reflex_terms``: its cover against
    the creatures outside (none listed for total cover: nothing outside can target it); ``miss_chance`` of its
    own attacks on creatures outside (they have total concealment from it)."""

    cover: CoverKind
    ac_terms: tuple[Term, ...]
    reflex_terms: tuple[Term, ...]
    miss_chance: int
    senses_range_ft: int
    lines: tuple[str, ...]


def inside_object(*, attacking_out: bool = False) -> InsideObject:
    """What being inside an object means for an incorporeal creature (SPA-15): total cover, or only cover
    while it attacks a creature outside; creatures outside have total concealment from it; it senses only
    adjacent squares (``senses.observe(observer_inside_object=True)``)."""
    kind = CoverKind.COVER if attacking_out else CoverKind.TOTAL
    ac, ref = cover_terms(kind)
    lines = (
        "inside an object: " + ("only cover while attacking out" if attacking_out else "total cover") + " [SPA-15]",
        f"creatures outside have total concealment ({TOTAL_CONCEALMENT}%) from it [SPA-15]",
    )
    return InsideObject(kind, ac, ref, TOTAL_CONCEALMENT, TOUCH_RANGE_FT, lines)


def perceivable_by(mechanism: Mechanism | str, *, audible: bool = False) -> bool:
    """Whether a sense of this mechanism can perceive an incorporeal creature (SPA-16; ``audible``: it wishes
    to be heard). The same rule ``senses.observe`` applies."""
    return incorporeal_perceivable_by(Mechanism(mechanism), audible=audible)


# =========================================================================================== invisible
#: A carried item is visible beyond this distance from an invisible creature (SPA-18).
INVISIBLE_REACH_FT: Final = 10

ItemState = Literal["worn", "picked_up", "tucked", "dropped"]


def is_invisible(creature: Creature) -> bool:
    return "invisible" in cond.active(creature)


def item_visible(state: ItemState, *, extends_ft: float = 0) -> bool:
    """Whether an item of an invisible creature can be seen (SPA-18): gear it had when it turned invisible
    ("worn") and items it tucks into clothing or pouches are invisible, except any part more than 10 ft from
    it; items it drops or puts down are visible, and so is an item it picked up and has not tucked away."""
    if state in ("dropped", "picked_up"):
        return True
    return extends_ft > INVISIBLE_REACH_FT


def light_visible(*, source_invisible: bool = False) -> bool:
    """Light itself never becomes invisible; an invisible source gives light with no visible source (SPA-18,
    VIS-08)."""
    return True


def can_use_gaze(creature: Creature) -> bool:
    """Invisible creatures cannot use gaze attacks (SPA-19)."""
    return not is_invisible(creature)


def subject_to_gaze(senses: Senses) -> bool:
    """Whether a creature can be affected by gaze attacks: not with blindsight (SEN-12); darkvision does not
    protect (VIS-05). Other protections are the gaze ability's own (XREF Alien Archive)."""
    return not senses.blindsight


def thwarts_divination(creature: Creature) -> bool:
    """Invisibility does not hide a creature from divinations (SPA-19)."""
    return False


def may_hide_from(creature: Creature, observer: str) -> bool:
    """A grappled creature, invisible or not, cannot hide from the creature grappling it: invisibility gives
    it nothing against its grappler but the +2 to escape (``maneuvers.escape``) (SPA-19, CON-20)."""
    return "grappled" not in cond.active(creature) or maneuvers.grappled_by(creature) != observer


# =========================================================================================== spell resistance
def sr_check(caster_level: int, sr: int, dice: DiceSource, *, purpose: str = "") -> CheckResult:
    """The caster level check against spell resistance (SPA-20): 1d20 + caster level, success if it meets
    the SR. No automatic results on a natural 1 or 20."""
    bonus = explain("caster level check", [Term(caster_level, "caster level", "SPA-20", B)])
    return resolve(CheckKind.CASTER_LEVEL, bonus, sr, dice, purpose=purpose or "caster level check vs SR")


@dataclass(frozen=True, slots=True)
class SrApplies:
    applies: bool
    reason: str
    rule: str


def sr_applies(
    sr: int,
    kind: str | AbilityKind | None = AbilityKind.SPELL,
    *,
    own_effect: bool = False,
    ignores_sr: bool = False,
    lowered: bool = False,
) -> SrApplies:
    """Whether SR gets a check against this effect now (SPA-20..22): not without SR, not against Ex or Su
    abilities (SPA-03), not against spells that ignore it, never against the creature's own spells, items and
    abilities; not while lowered (the check comes when it returns, :class:`SrLedger`)."""
    k = ability_kind(kind)
    if sr <= 0:
        return SrApplies(False, "no spell resistance", "SPA-20")
    if own_effect:
        return SrApplies(False, "spell resistance never hinders the creature's own effects", "SPA-20")
    if not KIND_RULES[k].spell_resistance:
        return SrApplies(False, f"{k} abilities are not subject to spell resistance", KIND_RULES[k].rule)
    if ignores_sr:
        return SrApplies(False, "this spell ignores spell resistance", "SPA-22")
    if lowered:
        return SrApplies(False, "spell resistance is lowered", "SPA-21")
    return SrApplies(True, f"SR {sr}", "SPA-20")


@dataclass(frozen=True, slots=True)
class SrRecord:
    """The one result a creature's SR has against one casting (SPA-22). ``resisted`` is None while pending
    (SR was lowered when first exposed)."""

    casting: str
    creature: str
    caster_level: int
    resisted: bool | None
    check: CheckResult | None = None


@dataclass(frozen=True, slots=True)
class SrExposure:
    """One exposure of a creature to a casting: ``affected`` or not; ``stops_spell``: the spell targets only
    this creature and is stopped altogether (otherwise SR protects only this creature); ``reused``: the result
    of an earlier exposure to the same casting."""

    casting: str
    creature: str
    affected: bool
    resisted: bool
    check: CheckResult | None
    reused: bool
    stops_spell: bool
    rule: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SrLedger:
    """Spell resistance results, one per casting per creature (SPA-22). A value: methods return a new one."""

    records: tuple[SrRecord, ...] = ()

    def get(self, casting: str, creature: str) -> SrRecord | None:
        for r in self.records:
            if r.casting == casting and r.creature == creature:
                return r
        return None

    def _put(self, rec: SrRecord) -> SrLedger:
        rest = tuple(r for r in self.records if (r.casting, r.creature) != (rec.casting, rec.creature))
        return SrLedger((*rest, rec))

    def expose(
        self,
        casting: str,
        creature: str,
        sr: int,
        caster_level: int,
        dice: DiceSource,
        *,
        kind: str | AbilityKind | None = AbilityKind.SPELL,
        own_effect: bool = False,
        ignores_sr: bool = False,
        lowered: bool = False,
        single_target: bool = False,
    ) -> tuple[SrLedger, SrExposure]:
        """``creature`` (with ``sr``) meets ``casting`` (targeted by it, in its area, or entering the area
        later). The first exposure rolls :func:`sr_check`; later ones reuse the result. With SR lowered the
        creature is affected now and its check waits for :meth:`resume`."""
        ok = sr_applies(sr, kind, own_effect=own_effect, ignores_sr=ignores_sr)
        if not ok.applies:
            line = f"{creature}: {ok.reason}; affected [{ok.rule}]"
            return self, SrExposure(casting, creature, True, False, None, False, False, ok.rule, (line,))
        prev = self.get(casting, creature)
        if prev is not None and prev.resisted is not None:
            verdict = "resists" if prev.resisted else "is affected"
            line = f"{creature} {verdict}: the result of its first exposure to this casting holds [SPA-22]"
            ex = SrExposure(
                casting, creature, not prev.resisted, prev.resisted, prev.check, True,
                prev.resisted and single_target, "SPA-22", (line,),
            )  # fmt: skip
            return self, ex
        if lowered:
            line = f"{creature}'s spell resistance is lowered: affected; it checks once when SR returns [SPA-22]"
            rec = prev or SrRecord(casting, creature, caster_level, None)
            return self._put(rec), SrExposure(casting, creature, True, False, None, False, False, "SPA-22", (line,))
        cl = prev.caster_level if prev is not None else caster_level
        check = sr_check(cl, sr, dice, purpose=f"caster level check vs {creature}'s SR")
        resisted = not check.success
        lines = (
            f"caster level check vs {creature}'s SR {sr}: {check.describe()}",
            f"{creature} " + ("resists the spell" if resisted else "is affected") + " [SPA-20]",
        )
        rec = SrRecord(casting, creature, cl, resisted, check)
        stops = resisted and single_target
        ex = SrExposure(casting, creature, not resisted, resisted, check, False, stops, "SPA-20", lines)
        return self._put(rec), ex

    def resume(self, creature: str, sr: int, dice: DiceSource) -> tuple[SrLedger, tuple[SrExposure, ...]]:
        """``creature``'s SR comes back: each casting it met while SR was lowered gets its single check now
        (SPA-22). A success means the effect stops affecting it from now on (the encounter ends it)."""
        ledger = self
        out: list[SrExposure] = []
        for rec in self.records:
            if rec.creature != creature or rec.resisted is not None:
                continue
            ledger, ex = ledger.expose(rec.casting, creature, sr, rec.caster_level, dice)
            out.append(ex)
        return ledger, tuple(out)


@dataclass(frozen=True, slots=True)
class LowerSr:
    """Lowering spell resistance (SPA-21): a standard action; SR stays down until the start of the creature's
    next turn (``expires`` of ``expires_anchor``, in the encounter's words) and comes back then unless the
    creature spends another standard action to keep it down."""

    creature: str
    action: str
    expires: str
    expires_anchor: str
    keep: bool
    lines: tuple[str, ...]


def lower_sr(creature: Creature, *, keep: bool = False) -> LowerSr:
    """Lower (or, with ``keep``, keep down) the creature's spell resistance: refused without SR (SPA-21)."""
    if creature.stat.sr <= 0:
        raise RuleViolation("SPA-21", f"{creature.name} has no spell resistance to lower")
    verb = "keeps its spell resistance down" if keep else "lowers its spell resistance"
    lines = (
        f"{creature.name} {verb} (standard action) [SPA-21]",
        f"SR {creature.stat.sr} returns at the start of {creature.name}'s next turn unless kept down [SPA-21]",
    )
    return LowerSr(creature.id, "standard", "turn_start", creature.id, keep, lines)


__all__ = [
    "INCORPOREAL_MOVEMENT",
    "KIND_RULES",
    "AbilityKind",
    "DailyUses",
    "IncorporealMovement",
    "InsideObject",
    "KindRules",
    "LowerSr",
    "SrApplies",
    "SrExposure",
    "SrLedger",
    "SrRecord",
    "ability_dc",
    "ability_kind",
    "can_pass_through",
    "can_use_gaze",
    "check_physical_interaction",
    "inside_object",
    "is_invisible",
    "item_visible",
    "kind_rules",
    "light_visible",
    "lower_sr",
    "may_hide_from",
    "may_occupy_inside",
    "moves_blind_at_full_speed",
    "perceivable_by",
    "provokes",
    "spell_like_caster_level",
    "sr_applies",
    "sr_check",
    "subject_to_gaze",
    "thwarts_divination",
    "works_where",
]
