"""Senses, awareness and light: the pure rules (SEN-01..15, VIS-01..08, MOD-05, MOD-06, MOD-20, EX-19).

Nothing here knows whose turn it is or where anyone stands: the caller (the encounter) measures the distance,
the light on the target and the lines of sight and effect, and keeps one :class:`Awareness` per ordered pair
(observer, target). These functions say what the senses allow and what a check changes.

The rules are in three modules besides this one, and this module imports every public name of theirs, so
``senses.X`` and ``from sftactics.sf1e.senses import X`` keep working for all of them:

* ``sf1e.creature_senses``: a creature's senses, the stat block keys :func:`parse_senses` accepts, sense
  through and telepathy (SEN-01, SEN-02, SEN-11..14, EX-19);
* ``sf1e.awareness``: the four awareness states, what each allows, what one observer's senses make of one
  target (:func:`observe`), breaking observation, locating an attacker (SEN-03..12, SEN-15, SPA-15..17);
* ``sf1e.light``: light levels, light sources and the concealment light gives (VIS-01..08, MOD-06);
* here: the Perception checks, against Stealth or a DC.

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
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

from sftactics.core.breakdown import Breakdown, Term
from sftactics.core.check import CheckKind, CheckResult, judge, roll_d20
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.grid.map import Light
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats
from sftactics.sf1e.awareness import (
    AWARENESS_RULE,
    CONCEALMENT,
    TOTAL_CONCEALMENT,
    AttackAwareness,
    AttackMode,
    Awareness,
    AwarenessChange,
    Channel,
    CoverGrade,
    Observation,
    ObservationBreak,
    Targeting,
    TargetTraits,
    attack_awareness,
    aware_for_surprise,
    break_observation,
    can_target,
    channels,
    incorporeal_perceivable_by,
    locate_attacker,
    lost_mechanisms,
    observe,
    observe_creature,
    observe_state,
    unseen_attack_terms,
)
from sftactics.sf1e.creature_senses import (
    DEFAULT_TELEPATHY_FT,
    DENSITY_LIMIT_FT,
    ENERGY_FIELDS,
    INCORPOREAL_HIDES_FROM,
    LOST_BY_CONDITION,
    MATERIAL_CLASS,
    MECHANISM_WORDS,
    NEEDS_A_MEDIUM,
    SENSE_THROUGH_VISION_DARKVISION_FT,
    SENSELESS,
    TOUCH_RANGE_FT,
    Barrier,
    Mechanism,
    Penetration,
    Senses,
    SpecialKind,
    SpecialSense,
    TelepathyCheck,
    describe_senses,
    mechanism_of,
    parse_senses,
    sense_through_penetrates,
    telepathy_reaches,
)
from sftactics.sf1e.light import (
    BaseLight,
    LightSource,
    dim_light_allows_stealth,
    effective_light,
    light_level_at,
    lit,
    sees_at,
    vision_concealment,
)
from sftactics.sf1e.state import Creature

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


__all__ = [
    "AWARENESS_RULE",
    "CONCEALMENT",
    "DEFAULT_TELEPATHY_FT",
    "DENSITY_LIMIT_FT",
    "ENERGY_FIELDS",
    "INCORPOREAL_HIDES_FROM",
    "LOST_BY_CONDITION",
    "MATERIAL_CLASS",
    "MECHANISM_WORDS",
    "NEEDS_A_MEDIUM",
    "SENSELESS",
    "SENSE_THROUGH_VISION_DARKVISION_FT",
    "TOTAL_CONCEALMENT",
    "TOUCH_RANGE_FT",
    "AttackAwareness",
    "AttackMode",
    "Awareness",
    "AwarenessChange",
    "AwarenessCheck",
    "Barrier",
    "BaseLight",
    "Channel",
    "CoverGrade",
    "LightSource",
    "Mechanism",
    "Observation",
    "ObservationBreak",
    "Penetration",
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
    "mechanism_of",
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
