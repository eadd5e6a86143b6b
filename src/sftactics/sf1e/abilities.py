"""Ability damage, ability penalties, ability drain and negative levels (ABL-01..14).

Pure functions over :class:`~sftactics.sf1e.state.Creature` that return an :class:`AbilityResult` (the new
creature, amounts and a ledger whose lines end with their rule ID). The state keeps three tallies per ability:

* ``ability_damage``: every 2 points lower the modifier by 1 (ABL-01); damage stops at the score, and damage
  equal to the score knocks the creature out until it drops below, or kills it for Constitution (ABL-02);
* ``ability_drain``: lowers the score itself (ABL-08); a score drained to 0 knocks out, Constitution kills
  (ABL-09); with ``as_damage`` the GM books drain as damage until the fight ends;
* ``ability_penalty``: lowers the modifier like damage but never knocks out or kills (ABL-07).

Pools follow from ``stats.max_sp`` / ``stats.max_rp``, which already take off a level's worth of Stamina per
point of Constitution modifier lost (ABL-04) and 1 Resolve per point of key-ability modifier lost (ABL-05).
Damage and drain lower the current SP and RP only as far as needed to fit under the new maxima; restoring the
score raises the maxima but not the current values (they come back by resting or spending RP).

Negative levels (ABL-10..13) are kept per source. Each takes 5 from current and maximum HP and SP; the
modifiers they impose on checks, AC and attacks are applied by ``stats``. Reaching as many negative levels as
the character level (or CR) kills (ABL-11).

Unconsciousness from an ability carries the source ``"<ability> damage"`` or ``"<ability> drain"`` so it ends
on its own terms (see ``CreatureEdit.settle_ability_unconsciousness``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from sftactics.core.check import CheckKind, CheckResult, resolve
from sftactics.core.errors import RuleViolation, SftError
from sftactics.dice.source import DiceSource
from sftactics.sf1e import stats
from sftactics.sf1e.injury import (
    DEAD,
    NO_CONTEXT,
    UNCONSCIOUS,
    CreatureEdit,
    InjuryContext,
    InjuryResult,
    knock_out,
)
from sftactics.sf1e.options import DEFAULT_OPTIONS, Sf1eOptions
from sftactics.sf1e.statblock import Ability, SaveName, score_to_mod
from sftactics.sf1e.state import Creature, NegativeLevels

NAMES = stats.NAMES
NEGATIVE_LEVEL_HP = 5  # ABL-10: current and maximum HP and SP lost per negative level
RAISED_SURVIVAL_ROUNDS = 3  # ABL-13

RestoreKind = Literal["damage", "drain", "penalty"]


@dataclass(frozen=True, slots=True)
class AbilityResult:
    """The creature after an ability rule, what changed, and the ledger.

    ``points``: points of damage/drain/penalty actually added (or removed, for restoring), or negative levels
    gained (or removed). ``hp_lost``/``sp_lost``/``rp_lost``: current pool points lost. ``checks``: any save
    rolled.
    """

    creature: Creature
    lines: tuple[str, ...] = ()
    ability: Ability | None = None
    points: int = 0
    hp_lost: int = 0
    sp_lost: int = 0
    rp_lost: int = 0
    became_unconscious: bool = False
    became_conscious: bool = False
    became_dying: bool = False
    died: bool = False
    cause: str = ""
    checks: tuple[CheckResult, ...] = ()

    def describe(self) -> str:
        return "\n".join(self.lines)


def _result(
    e: CreatureEdit,
    *,
    ability: Ability | None = None,
    points: int = 0,
    hp_lost: int = 0,
    sp_lost: int = 0,
    rp_lost: int = 0,
    checks: tuple[CheckResult, ...] = (),
    merged: InjuryResult | None = None,
) -> AbilityResult:
    f = e.flags
    lines = tuple(e.lines)
    unconscious = f.get("became_unconscious", False)
    dying = f.get("became_dying", False)
    died = f.get("died", False)
    cause = e.cause
    creature = e.creature
    if merged is not None:
        lines += merged.lines
        unconscious = unconscious or merged.became_unconscious
        dying = dying or merged.became_dying
        died = died or merged.died
        cause = cause or merged.cause
        creature = merged.creature
    return AbilityResult(
        creature=creature,
        lines=lines,
        ability=ability,
        points=points,
        hp_lost=hp_lost,
        sp_lost=sp_lost,
        rp_lost=rp_lost,
        became_unconscious=unconscious,
        became_conscious=f.get("became_conscious", False),
        became_dying=dying,
        died=died,
        cause=cause,
        checks=checks,
    )


def _score(creature: Creature, ability: Ability) -> int | None:
    """The score after drain, before damage."""
    return stats.ability_score(creature, ability, include_damage=False)


def _mod_text(creature: Creature, ability: Ability) -> str:
    """The ability modifier from score, drain and damage (penalties and conditions aside), for the ledger."""
    score = _score(creature, ability) or 0
    return f"{score_to_mod(score) - creature.state.ability_damage.get(ability, 0) // 2:+d}"


def _fit_pools(e: CreatureEdit, before: Creature, options: Sf1eOptions) -> tuple[int, int]:
    """Current SP and RP after the maxima fell (ABL-04, ABL-05); returns (sp_lost, rp_lost).

    Option ``ability_pool_loss``: "lose" takes what the maximum lost off the current value too (a 4th-level
    character with 5 Con damage loses 8 SP, EX-04); "clamp" only trims the current value to the new maximum."""
    now = e.creature
    max_sp = stats.max_sp(now).total
    max_rp = stats.max_rp(now).total
    if options.ability_pool_loss == "lose":
        sp_drop = max(0, stats.max_sp(before).total - max_sp)
        rp_drop = max(0, stats.max_rp(before).total - max_rp)
        sp_lost = min(e.st.sp, max(sp_drop, e.st.sp - max_sp))
        rp_lost = min(e.st.rp, max(rp_drop, e.st.rp - max_rp))
    else:
        sp_lost = max(0, e.st.sp - max_sp)
        rp_lost = max(0, e.st.rp - max_rp)
    if sp_lost:
        e.put(sp=e.st.sp - sp_lost)
        e.line("ABL-04", f"{e.name}'s maximum SP falls to {max_sp}: loses {sp_lost} SP")
    if rp_lost:
        e.put(rp=e.st.rp - rp_lost)
        e.line("ABL-05", f"{e.name}'s maximum RP falls to {max_rp}: loses {rp_lost} RP")
    return sp_lost, rp_lost


def _check_points(points: int) -> None:
    if points < 0:
        raise SftError(f"points cannot be negative ({points})")


# ---------------------------------------------------------------- damage, drain, penalties
def damage_ability(
    creature: Creature, ability: Ability, points: int, options: Sf1eOptions = DEFAULT_OPTIONS
) -> AbilityResult:
    """Ability damage (ABL-01, ABL-02, ABL-04, ABL-05); option ``ability_pool_loss`` decides how current SP and
    RP follow their lowered maxima."""
    _check_points(points)
    e = CreatureEdit(creature)
    if e.has(DEAD):
        e.line("CON-10", f"{e.name} is dead: ability damage changes nothing")
        return _result(e, ability=ability)
    score = _score(creature, ability)
    if score is None:
        e.line("ABL-01", f"{e.name} has no {NAMES[ability]} score: unaffected")
        return _result(e, ability=ability)
    had = e.st.ability_damage.get(ability, 0)
    new = max(had, min(had + points, score))
    applied = new - had
    e.put(ability_damage={**e.st.ability_damage, ability: new})
    e.line(
        "ABL-01",
        f"{e.name} takes {applied} {NAMES[ability]} damage (total {new}): modifier "
        f"{_mod_text(creature, ability)} -> {_mod_text(e.creature, ability)}",
    )
    if applied < points:
        e.line("ABL-02", f"damage to {NAMES[ability]} stops at the score {score}")
    if new >= score and applied:
        if ability == "con":
            e.kill("ABL-02", f"{e.name}'s Constitution damage equals its score: dead", "Constitution damage")
            return _result(e, ability=ability, points=applied)
        e.add(UNCONSCIOUS, f"{ability} damage")
        e.flag("became_unconscious")
        e.line("ABL-02", f"{NAMES[ability]} damage equals the score: {e.name} falls unconscious")
    sp_lost, rp_lost = _fit_pools(e, creature, options)
    return _result(e, ability=ability, points=applied, sp_lost=sp_lost, rp_lost=rp_lost)


def drain_ability(
    creature: Creature,
    ability: Ability,
    points: int,
    options: Sf1eOptions = DEFAULT_OPTIONS,
    *,
    as_damage: bool = False,
) -> AbilityResult:
    """Ability drain lowers the score (ABL-08); drained to 0: unconscious, or dead for Constitution (ABL-09).
    With ``as_damage`` (a GM call, ABL-08) the points are booked as ability damage instead."""
    _check_points(points)
    if as_damage:
        r = damage_ability(creature, ability, points, options)
        line = f"the GM books {points} {NAMES[ability]} drain as damage until the fight ends [ABL-08]"
        return replace(r, lines=(line, *r.lines))
    e = CreatureEdit(creature)
    if e.has(DEAD):
        e.line("CON-10", f"{e.name} is dead: ability drain changes nothing")
        return _result(e, ability=ability)
    base = creature.stat.base_score(ability)
    if base is None:
        e.line("ABL-08", f"{e.name} has no {NAMES[ability]} score: unaffected")
        return _result(e, ability=ability)
    had = e.st.ability_drain.get(ability, 0)
    new = max(had, min(had + points, base))
    applied = new - had
    score = base - new
    e.put(ability_drain={**e.st.ability_drain, ability: new})
    e.line(
        "ABL-08",
        f"{e.name} takes {applied} {NAMES[ability]} drain: score {base - had} -> {score}, modifier "
        f"{_mod_text(creature, ability)} -> {_mod_text(e.creature, ability)}",
    )
    if score <= 0:
        if ability == "con":
            e.kill("ABL-09", f"{e.name}'s Constitution is drained to 0: dead", "Constitution drain")
            return _result(e, ability=ability, points=applied)
        e.add(UNCONSCIOUS, f"{ability} drain")
        e.flag("became_unconscious")
        e.line("ABL-09", f"{NAMES[ability]} drained to 0: {e.name} falls unconscious")
    else:
        dmg = e.st.ability_damage.get(ability, 0)
        if dmg >= score:
            e.put(ability_damage={**e.st.ability_damage, ability: score})
            if ability == "con":
                e.kill("ABL-02", f"{e.name}'s Constitution damage now equals its score: dead", "Constitution damage")
                return _result(e, ability=ability, points=applied)
            if not e.has(UNCONSCIOUS, f"{ability} damage"):
                e.add(UNCONSCIOUS, f"{ability} damage")
                e.flag("became_unconscious")
                e.line("ABL-02", f"{NAMES[ability]} damage now equals the score: {e.name} falls unconscious")
    sp_lost, rp_lost = _fit_pools(e, creature, options)
    return _result(e, ability=ability, points=applied, sp_lost=sp_lost, rp_lost=rp_lost)


def penalize_ability(creature: Creature, ability: Ability, points: int) -> AbilityResult:
    """An ability penalty: lowers the modifier like damage (ABL-07) but never causes unconsciousness or death,
    and does not touch Stamina or Resolve."""
    _check_points(points)
    e = CreatureEdit(creature)
    had = e.st.ability_penalty.get(ability, 0)
    e.put(ability_penalty={**e.st.ability_penalty, ability: had + points})
    e.line(
        "ABL-07",
        f"{e.name} takes a {points}-point {NAMES[ability]} penalty (total {had + points}): "
        "temporary, never unconscious or dead",
    )
    return _result(e, ability=ability, points=points)


def restore_ability(
    creature: Creature, ability: Ability, points: int | None = None, *, kind: RestoreKind = "damage"
) -> AbilityResult:
    """Remove ``points`` (all if None) of ability damage (ABL-06, *lesser restoration*), drain (ABL-08,
    *restoration*) or penalty (ABL-07). Unconsciousness caused by the ability ends once no longer justified;
    the maxima of SP and RP rise again but current SP and RP do not. A dead creature stays dead."""
    if points is not None:
        _check_points(points)
    tally = {"damage": "ability_damage", "drain": "ability_drain", "penalty": "ability_penalty"}[kind]
    rule = {"damage": "ABL-06", "drain": "ABL-08", "penalty": "ABL-07"}[kind]
    e = CreatureEdit(creature)
    current: dict[Ability, int] = dict(getattr(e.st, tally))
    had = current.get(ability, 0)
    removed = had if points is None else min(had, points)
    if had - removed:
        current[ability] = had - removed
    else:
        current.pop(ability, None)
    e.put(**{tally: current})
    e.line(rule, f"{e.name} recovers {removed} {NAMES[ability]} {kind} ({had} -> {had - removed})")
    if not e.has(DEAD):
        e.settle_ability_unconsciousness()
    return _result(e, ability=ability, points=removed)


# ---------------------------------------------------------------- negative levels
def negative_level_count(creature: Creature) -> int:
    return sum(n.count for n in creature.state.negative_levels)


def death_threshold(creature: Creature) -> Fraction:
    """Negative levels that kill (ABL-11): the character level, or the CR for monsters and NPCs."""
    stat = creature.stat
    if stat.kind == "pc" or stat.cr is None:
        return Fraction(stat.level or 1)
    return stat.cr_value


def gain_negative_levels(
    creature: Creature,
    count: int,
    *,
    source: str,
    dc: int | None = None,
    permanent: bool = False,
    options: Sf1eOptions = DEFAULT_OPTIONS,
    ctx: InjuryContext = NO_CONTEXT,
) -> AbilityResult:
    """Gain ``count`` negative levels from ``source`` (ABL-10..13).

    Current HP and SP each drop by 5 per level (the maxima drop through ``stats``). If that takes HP to 0 the
    option ``negative_levels_to_zero_hp`` decides: ``"dying"`` applies the 0-HP rules as lethal damage would
    (dying, or death for creatures without the dying rules); ``"unconscious"`` leaves the creature unconscious
    and stable. As many negative levels as the character level (or CR) kill (ABL-11). ``dc`` is the effect's
    DC for the daily save; ``permanent`` levels get no save (ABL-13). Levels from the same source and of the
    same kind are kept together.
    """
    if count < 1:
        raise SftError(f"negative levels must be at least 1, not {count}")
    e = CreatureEdit(creature)
    if e.has(DEAD):
        e.line("CON-10", f"{e.name} is dead: negative levels change nothing")
        return _result(e)
    levels = list(e.st.negative_levels)
    for i, n in enumerate(levels):
        if n.source == source and n.permanent == permanent:
            levels[i] = NegativeLevels(count=n.count + count, source=source, dc=dc or n.dc, permanent=permanent)
            break
    else:
        levels.append(NegativeLevels(count=count, source=source, dc=dc, permanent=permanent))
    st = e.st
    hp_lost = min(st.hp, NEGATIVE_LEVEL_HP * count)
    sp_lost = min(st.sp, NEGATIVE_LEVEL_HP * count)
    e.put(negative_levels=tuple(levels), hp=st.hp - hp_lost, sp=st.sp - sp_lost)
    total = sum(n.count for n in levels)
    kind = "permanent" if permanent else "temporary"
    e.line(
        "ABL-10",
        f"{e.name} gains {count} {kind} negative level(s) from {source} (total {total}): -{total} to checks, AC, "
        f"attacks and saves; loses {hp_lost} HP and {sp_lost} SP (now {e.st.hp} HP, {e.st.sp} SP)",
    )
    threshold = death_threshold(creature)
    if total >= threshold:
        e.kill("ABL-11", f"{e.name}'s {total} negative levels reach its level/CR {threshold}: dead", "negative levels")
        return _result(e, points=count, hp_lost=hp_lost, sp_lost=sp_lost)
    if st.hp > 0 and e.st.hp == 0:
        nonlethal = options.negative_levels_to_zero_hp == "unconscious"
        how = "unconscious and stable" if nonlethal else "as if reduced to 0 HP by damage"
        e.line("ABL-10", f"negative levels take {e.name} to 0 HP: {how} (option negative_levels_to_zero_hp)")
        ko = knock_out(e.creature, nonlethal=nonlethal, ctx=ctx, options=options)
        return _result(e, points=count, hp_lost=hp_lost, sp_lost=sp_lost, merged=ko)
    return _result(e, points=count, hp_lost=hp_lost, sp_lost=sp_lost)


def negative_level_daily_save(
    creature: Creature,
    source: str,
    dice: DiceSource,
    options: Sf1eOptions = DEFAULT_OPTIONS,
    *,
    save: SaveName = "fort",
) -> AbilityResult:
    """The daily save against temporary negative levels from one ``source`` (ABL-12), against that effect's
    DC. Success removes every temporary level from that source, or one with option
    ``negative_level_save_removes = "one"``. Permanent levels get no save (ABL-13). The maxima of HP and SP
    come back; current HP and SP must be healed."""
    if creature.has(DEAD):
        raise RuleViolation("CON-10", f"{creature.name} is dead and makes no saves")
    levels = creature.state.negative_levels
    temp = [n for n in levels if n.source == source and not n.permanent]
    if not temp:
        if any(n.source == source for n in levels):
            raise RuleViolation("ABL-13", f"{creature.name}'s negative levels from {source} are permanent: no save")
        raise RuleViolation("ABL-12", f"{creature.name} has no temporary negative levels from {source}")
    dc = next((n.dc for n in temp if n.dc is not None), None)
    if dc is None:
        raise RuleViolation("ABL-12", f"the DC of {source} is unknown: give it when the levels are gained")
    check = resolve(
        CheckKind.SAVE,
        stats.save_bonus(creature, save, options=options),
        dc,
        dice,
        purpose=f"daily save against negative levels from {source}",
    )
    e = CreatureEdit(creature)
    e.line("ABL-12", f"{e.name}'s daily save against {source}: {check.describe()}")
    removed = 0
    if check.success:
        mine = [i for i, n in enumerate(levels) if n.source == source and not n.permanent]
        if options.negative_level_save_removes == "all_from_source":
            take = {i: levels[i].count for i in mine}
        else:
            take = {mine[-1]: 1}
        removed = sum(take.values())
        e.put(negative_levels=_reduce(levels, take))
        e.line("ABL-12", f"{removed} negative level(s) from {source} removed")
    return _result(e, points=removed, checks=(check,))


def _reduce(levels: tuple[NegativeLevels, ...], take: dict[int, int]) -> tuple[NegativeLevels, ...]:
    """``levels`` with ``take[i]`` levels removed from entry ``i`` (entries that reach 0 disappear)."""
    out: list[NegativeLevels] = []
    for i, n in enumerate(levels):
        left = n.count - take.get(i, 0)
        if left > 0:
            out.append(n if left == n.count else n.model_copy(update={"count": left}))
    return tuple(out)


def remove_negative_levels(
    creature: Creature, count: int | None = None, *, source: str | None = None, include_permanent: bool = False
) -> AbilityResult:
    """Remove negative levels (a *restoration*-like effect): up to ``count`` (all if None), from ``source``
    (any if None), temporary ones first; permanent ones only with ``include_permanent`` (ABL-13). Maximum HP
    and SP come back; current HP and SP do not. A dead creature stays dead."""
    if count is not None and count < 0:
        raise SftError(f"count cannot be negative ({count})")
    e = CreatureEdit(creature)
    levels = e.st.negative_levels
    picks = sorted(
        (
            i
            for i, n in enumerate(levels)
            if (source is None or n.source == source) and (include_permanent or not n.permanent)
        ),
        key=lambda i: levels[i].permanent,
    )
    take: dict[int, int] = {}
    left = count
    for i in picks:
        n = levels[i].count if left is None else min(left, levels[i].count)
        take[i] = n
        if left is not None:
            left -= n
    removed = sum(take.values())
    e.put(negative_levels=_reduce(levels, take))
    e.line("ABL-13" if include_permanent else "ABL-12", f"{removed} negative level(s) removed from {e.name}")
    return _result(e, points=removed)


def revival_survival_rounds(creature: Creature) -> int | None:
    """A creature whose permanent negative levels reach its class levels (or CR) lives only 3 rounds after being
    brought back to life unless a *restoration* or similar effect also reaches it (ABL-13); None otherwise.
    Revival itself (spells) is outside the seeds."""
    permanent = sum(n.count for n in creature.state.negative_levels if n.permanent)
    return RAISED_SURVIVAL_ROUNDS if permanent and permanent >= death_threshold(creature) else None


# ---------------------------------------------------------------- prerequisites (ABL-14)
def meets_prerequisites(
    creature: Creature, *, min_scores: Mapping[Ability, int] | None = None, min_level: int | None = None
) -> tuple[bool, tuple[str, ...]]:
    """Whether ``creature`` still meets a feat's or ability's prerequisites after drain and negative levels
    (ABL-14): scores are taken after drain (damage lowers only the modifier), and each negative level counts
    as one level lower (ABL-10). Returns (ok, reasons it fails)."""
    reasons: list[str] = []
    for ability, minimum in (min_scores or {}).items():
        score = _score(creature, ability)
        if score is None or score < minimum:
            reasons.append(f"{NAMES[ability]} {score} < {minimum}")
    if min_level is not None:
        level = creature.stat.effective_level - negative_level_count(creature)
        if level < min_level:
            reasons.append(f"effective level {level} < {min_level}")
    return not reasons, tuple(reasons)


__all__ = [
    "NEGATIVE_LEVEL_HP",
    "RAISED_SURVIVAL_ROUNDS",
    "AbilityResult",
    "damage_ability",
    "death_threshold",
    "drain_ability",
    "gain_negative_levels",
    "meets_prerequisites",
    "negative_level_count",
    "negative_level_daily_save",
    "penalize_ability",
    "remove_negative_levels",
    "restore_ability",
    "revival_survival_rounds",
]
