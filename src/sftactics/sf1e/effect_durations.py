"""Effect durations, the pure rules: how long an effect lasts and when it ends on the encounter's clock,
suppression, concentration, holding the charge and dismissing (EFF-27..34, EFF-40, GEN-16, CON-00), with
what each of those costs in actions (:class:`ActionCost`, also declaring willingness, EFF-48).

Nothing here knows whose turn it is or which effects are running: the caller (the encounter) passes the current
moment and keeps the values this module returns. Refused requests raise :class:`RuleViolation` naming the rule;
nothing is changed. ``sf1e.effect_rules`` imports every public name of this module, so code may import them from
either.

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
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final, Literal

from sftactics.core.errors import DiceError, RuleViolation
from sftactics.dice.expr import parse
from sftactics.dice.roll import RolledExpr, roll
from sftactics.dice.source import DiceSource
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import general
from sftactics.sf1e.state import Creature


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
