"""Hit Points, temporary HP, knocked out, dying, wounded, doomed, death, healing and waking up
(E2-27..41, E2-36/E2-73 heroic recovery).

* **HP** (E2-27): damage takes HP 1 for 1, never below 0; healing restores up to the maximum.
* **Temporary HP** (E2-28): spent first; one source at a time (which one stays: ``temp_hp_new_source``); they
  cannot be healed, only gained anew.
* **Knocked out** (E2-31): reaching 0 HP kills a non-player creature (``npc_dies_at_zero``). A player character
  gains dying 1, or dying 2 from a critical hit or a critical failure on a save, plus its wounded value
  (E2-35); it falls unconscious and prone. Nonlethal damage knocks it out without dying. Its initiative moves
  (:func:`sftactics.sf2e.defenses.initiative_after_knockout`): the result says ``knocked_out``.
* **Dying** (E2-32, E2-34): damage while dying adds 1 (2 from a critical hit); the creature dies when the value
  reaches 4 less its doomed value (E2-37); if that maximum is 0 or less it dies at once. Regeneration keeps the
  value below the maximum (E2-30).
* **Recovery check** (E2-33) at the start of each turn while dying: a flat check against 10 + the dying value;
  critical success -2, success -1, failure +1, critical failure +2.
* **Losing dying** (E2-34, E2-35): at dying 0 the creature stays unconscious at 0 HP and gains wounded 1 (or
  wounded +1); healing to 1 HP or more ends dying and unconsciousness (and also gives wounded +1, since dying is
  lost).
* **Heroic recovery** (E2-36, E2-73): spending all Hero Points (at least 1) at the start of the turn or when the
  dying value would rise ends dying at 0 HP, with no wounded for it. Not an action: usable while unable to act.
* **Death effects** (E2-38) that take a creature to 0 HP kill it; **massive damage** (E2-39) of at least twice
  the maximum HP in one blow kills outright (compared with the blow's damage after the target's defenses and
  before temporary HP).
* **Waking up** (E2-41): see :func:`wake`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from sftactics.core.errors import RuleViolation
from sftactics.core.ledger import LedgerLine
from sftactics.dice.source import DiceSource
from sftactics.sf2e.checks import Check2e, flat_check
from sftactics.sf2e.creature import Creature2e
from sftactics.sf2e.damage_types import DamageType
from sftactics.sf2e.degrees import Degree
from sftactics.sf2e.options import DEFAULT_OPTIONS, Sf2eOptions

#: The dying value at which a creature dies, before doomed (E2-32).
DEATH_AT_DYING = 4
#: A single blow of at least this many times the maximum HP kills (E2-39).
MASSIVE_DAMAGE_FACTOR = 2
#: The immunity that cancels death effects (E2-23, E2-38).
DEATH_EFFECTS = "death-effects"
#: Recovery check DC = this + the dying value (E2-33).
RECOVERY_DC_BASE = 10
#: Dying change per recovery check degree (E2-33).
RECOVERY_CHANGE: dict[Degree, int] = {
    Degree.CRITICAL_SUCCESS: -2,
    Degree.SUCCESS: -1,
    Degree.FAILURE: 1,
    Degree.CRITICAL_FAILURE: 2,
}


@dataclass(frozen=True, slots=True)
class InjuryResult2e:
    """The creature after the change, with a line for every step."""

    creature: Creature2e
    lines: tuple[LedgerLine, ...] = ()
    knocked_out: bool = False
    checks: tuple[Check2e, ...] = ()

    @property
    def died(self) -> bool:
        return self.creature.dead

    def describe(self) -> str:
        return "; ".join(line.describe() for line in self.lines)


@dataclass
class _Edit:
    """A creature being changed by one rule, and the notes of what changed."""

    c: Creature2e
    lines: list[LedgerLine] = field(default_factory=list)
    knocked_out: bool = False
    checks: list[Check2e] = field(default_factory=list)

    def note(self, step: str, detail: str, rule: str, amount: int = 0) -> None:
        self.lines.append(LedgerLine(step, amount, detail, rule))

    def done(self) -> InjuryResult2e:
        return InjuryResult2e(self.c, tuple(self.lines), self.knocked_out, tuple(self.checks))

    def die(self, cause: str, rule: str) -> None:
        self.c = self.c.changed(dead=True, death_cause=cause)
        self.note("death", f"{self.c.name} dies: {cause}", rule)


def max_dying(creature: Creature2e) -> int:
    """The dying value that kills: 4 less the doomed value (E2-32, E2-37)."""
    return DEATH_AT_DYING - creature.doomed


def regenerating(creature: Creature2e) -> bool:
    return creature.regeneration > 0 and creature.regeneration_off_turns == 0


def _set_dying(e: _Edit, value: int, why: str, rule: str) -> None:
    limit = max_dying(e.c)
    if value >= limit and regenerating(e.c):
        e.note("regeneration", f"dying {value} held at {limit - 1}: regeneration prevents death", "E2-30")
        value = limit - 1
    e.c = e.c.with_conditions(dying=value, unconscious=1)
    e.note("dying", f"{why}: dying {value}", rule)
    if value >= limit:
        e.die(
            f"dying {value} reaches {limit}" + (f" (doomed {e.c.doomed})" if e.c.doomed else ""),
            "E2-37" if e.c.doomed else "E2-32",
        )


def _lose_dying(e: _Edit, why: str, rule: str, *, wounded: bool = True) -> None:
    e.c = e.c.with_conditions(dying=0)
    e.note("dying", f"{why}: no longer dying", rule)
    if wounded:
        w = e.c.wounded + 1
        e.c = e.c.with_conditions(wounded=w)
        e.note("wounded", f"loses dying: wounded {w}", "E2-35")


def _knock_out(e: _Edit, critical: bool, cause: str, options: Sf2eOptions) -> None:
    if not e.c.player and options.npc_dies_at_zero:
        e.die("a non-player creature at 0 HP", "E2-31")
        return
    e.knocked_out = True
    start = 2 if critical else 1
    wounded = e.c.wounded
    e.c = e.c.with_conditions(prone=1)
    why = f"knocked out{' by a critical' if critical else ''}{', ' + cause if cause else ''}"
    if wounded:
        why += f" (dying {start} + wounded {wounded})"
    _set_dying(e, start + wounded, why, "E2-35" if wounded else "E2-31")


def _heroic(e: _Edit, deed: str) -> None:
    spent = e.c.hero_points
    e.c = e.c.changed(hero_points=0)
    e.note("hero points", f"spends all {spent} Hero Points{': ' + deed if deed else ''}", "E2-73")
    _lose_dying(e, "heroic recovery, stable at 0 HP", "E2-36", wounded=False)


def _check_alive(c: Creature2e, what: str) -> None:
    if c.dead:
        raise RuleViolation("E2-32", f"{c.name} is dead: {what} does not apply")


def apply_damage(
    creature: Creature2e,
    amount: int,
    *,
    critical: bool = False,
    critical_failure_save: bool = False,
    nonlethal: bool = False,
    death_effect: bool = False,
    types: frozenset[DamageType] = frozenset(),
    during_own_turn: bool = False,
    heroic_recovery: bool = False,
    deed: str = "",
    cause: str = "",
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> InjuryResult2e:
    """Apply ``amount`` damage (after the target's defenses) to temporary HP and HP, with everything it sets off.

    ``critical``: from a critical hit; ``critical_failure_save``: from a critical failure on a save; ``types``:
    the types dealt (regeneration's bypass). ``heroic_recovery``: if the dying value would rise, spend all Hero
    Points instead (E2-36). A dead creature takes no more damage (the result says so).
    """
    if amount < 0:
        raise ValueError("damage is never negative")
    e = _Edit(creature)
    c = creature
    if c.dead:
        e.note("damage", f"{c.name} is already dead", "E2-32")
        return e.done()
    if death_effect and c.immune_to(DEATH_EFFECTS):
        death_effect = False
        e.note("immunity", f"{c.name} is immune to death effects: only the damage applies", "E2-23")
    if c.regeneration and types & c.regeneration_bypass:
        off = 2 if during_own_turn else 1
        e.c = e.c.changed(regeneration_off_turns=off)
        hit = ", ".join(sorted(types & c.regeneration_bypass))
        e.note("regeneration", f"{hit} damage turns regeneration off until the end of its next turn", "E2-30")
    if amount >= MASSIVE_DAMAGE_FACTOR * c.max_hp and not nonlethal:
        e.note("HP", f"{amount} damage in one blow", "E2-27", -amount)
        e.c = e.c.changed(hp=0, temp_hp=0, temp_hp_source="")
        e.die(f"massive damage: {amount} is at least twice the maximum HP {c.max_hp}", "E2-39")
        return e.done()
    rest = amount
    if c.temp_hp and rest:
        used = min(c.temp_hp, rest)
        left = c.temp_hp - used
        e.c = e.c.changed(temp_hp=left, temp_hp_source=c.temp_hp_source if left else "")
        e.note("temporary HP", f"{used} of {c.temp_hp} temporary HP absorb the damage", "E2-28", -used)
        rest -= used
    if rest == 0:
        return e.done()
    new_hp = max(0, c.hp - rest)
    e.c = e.c.changed(hp=new_hp)
    e.note("HP", f"{c.hp} - {rest} = {new_hp}" + (" (nonlethal)" if nonlethal else ""), "E2-27", new_hp - c.hp)
    crit = critical or critical_failure_save
    if c.hp > 0 and new_hp == 0:
        if death_effect:
            e.die("a death effect reduced it to 0 HP", "E2-38")
        elif nonlethal:
            e.c = e.c.with_conditions(unconscious=1, prone=1)
            e.note("unconscious", "nonlethal damage: unconscious, not dying", "E2-31")
        else:
            _knock_out(e, crit, cause, options)
    elif c.hp == 0:
        if c.dying:
            step = 2 if critical or (critical_failure_save and options.dying_crit_fail_save_adds_two) else 1
            if heroic_recovery and c.hero_points:
                _heroic(e, deed)
            else:
                why = f"damage while dying{' from a critical hit' if step == 2 else ''}: +{step}"
                _set_dying(e, c.dying + step, why, "E2-34")
        elif death_effect:
            e.die("a death effect at 0 HP", "E2-38")
        elif not nonlethal and options.damage_at_zero_not_dying == "knocked_out":
            _knock_out(e, crit, cause, options)
    elif c.unconscious and not c.dying:
        e.c = e.c.with_conditions(unconscious=0)
        e.note("wakes", "damage that leaves it above 0 HP wakes it", "E2-41")
    return e.done()


def heal(creature: Creature2e, amount: int) -> InjuryResult2e:
    """Restore HP up to the maximum (E2-27). Reaching 1 HP or more ends dying (wounded +1) and unconsciousness
    (E2-34, E2-41). Temporary HP are not healed (E2-28)."""
    if amount < 0:
        raise ValueError("healing is never negative")
    _check_alive(creature, "healing")
    e = _Edit(creature)
    c = creature
    new_hp = min(c.max_hp, c.hp + amount)
    e.c = c.changed(hp=new_hp)
    e.note("healing", f"{c.hp} + {amount} = {new_hp} (maximum {c.max_hp})", "E2-27", new_hp - c.hp)
    if new_hp >= 1:
        if c.dying:
            _lose_dying(e, "healed to 1 HP or more", "E2-34")
        if c.unconscious and amount > 0:
            e.c = e.c.with_conditions(unconscious=0)
            e.note("wakes", "healing wakes it", "E2-41")
    return e.done()


def gain_temp_hp(
    creature: Creature2e, amount: int, source: str, *, options: Sf2eOptions = DEFAULT_OPTIONS
) -> InjuryResult2e:
    """Gain temporary HP from ``source`` (E2-28). One source at a time: a new source replaces the old one
    only if it gives more (``temp_hp_new_source="higher"``) or always (``"newer"``); the same source never adds."""
    if amount < 0:
        raise ValueError("temporary HP are never negative")
    _check_alive(creature, "temporary HP")
    e = _Edit(creature)
    c = creature
    keep_old = c.temp_hp > 0 and options.temp_hp_new_source == "higher" and c.temp_hp >= amount
    if keep_old:
        e.note(
            "temporary HP",
            f"keeps {c.temp_hp} from {c.temp_hp_source or 'its source'}, not {amount} from {source}",
            "E2-28",
        )
    else:
        e.c = c.changed(temp_hp=amount, temp_hp_source=source)
        e.note("temporary HP", f"{amount} from {source} (replacing {c.temp_hp})", "E2-28")
    return e.done()


def recovery_check(
    creature: Creature2e,
    dice: DiceSource,
    *,
    heroic_recovery: bool = False,
    deed: str = "",
) -> InjuryResult2e:
    """The recovery check at the start of a dying creature's turn (E2-33): flat check, DC 10 + dying.

    ``heroic_recovery``: if the result would raise the dying value, spend all Hero Points instead (E2-36).
    """
    _check_alive(creature, "a recovery check")
    if not creature.dying:
        raise RuleViolation("E2-33", f"{creature.name} is not dying")
    e = _Edit(creature)
    dc = RECOVERY_DC_BASE + creature.dying
    check = flat_check(dc, dice, label=f"recovery check (dying {creature.dying})")
    e.checks.append(check)
    change = RECOVERY_CHANGE[check.degree]
    e.note("recovery check", f"{check.describe()}: dying {change:+d}", "E2-33")
    value = creature.dying + change
    if value <= 0:
        _lose_dying(e, "recovery check brings dying to 0, unconscious at 0 HP", "E2-33")
    elif change > 0 and heroic_recovery and creature.hero_points:
        _heroic(e, deed)
    else:
        _set_dying(e, value, "recovery check", "E2-33")
    return e.done()


def heroic_recovery(creature: Creature2e, *, deed: str = "") -> InjuryResult2e:
    """Spend all Hero Points (at least 1) to stop dying at 0 HP, without gaining wounded (E2-36, E2-73).

    This is the start-of-turn use; for 'when the dying value would rise' pass ``heroic_recovery=True`` to
    :func:`apply_damage` or :func:`recovery_check`. Not an action: an unconscious creature can do it.
    """
    _check_alive(creature, "heroic recovery")
    if not creature.dying:
        raise RuleViolation("E2-36", f"{creature.name} is not dying")
    if creature.hero_points < 1:
        raise RuleViolation("E2-36", f"{creature.name} has no Hero Points to spend")
    e = _Edit(creature)
    _heroic(e, deed)
    return e.done()


def gain_doomed(creature: Creature2e, value: int = 1) -> InjuryResult2e:
    """Doomed rises by ``value`` (E2-37); if the dying value that kills falls to 0, or to the current dying
    value, the creature dies."""
    _check_alive(creature, "doomed")
    e = _Edit(creature.with_conditions(doomed=creature.doomed + value))
    limit = max_dying(e.c)
    e.note("doomed", f"doomed {e.c.doomed}: dies at dying {limit}", "E2-37")
    if limit <= 0:
        e.die(f"doomed {e.c.doomed}: maximum dying value is {limit}", "E2-37")
    elif e.c.dying >= limit:
        e.die(f"dying {e.c.dying} reaches the new maximum {limit}", "E2-37")
    return e.done()


def kill(creature: Creature2e, cause: str, rule: str = "E2-38", *, death_effect: bool = False) -> InjuryResult2e:
    """Death outright (a death effect, a GM's call). A ``death_effect`` does nothing to a creature immune to
    death effects (E2-23)."""
    e = _Edit(creature)
    if death_effect and creature.immune_to(DEATH_EFFECTS):
        e.note("immunity", f"{creature.name} is immune to death effects: {cause} does not apply", "E2-23")
    elif not creature.dead:
        e.die(cause, rule)
    return e.done()


# --- rest and treatment ------------------------------------------------------------------------------------------


def full_night_rest(creature: Creature2e, *, options: Sf2eOptions = DEFAULT_OPTIONS) -> InjuryResult2e:
    """A full night's rest: doomed -1 (E2-37); wounded -1 only with ``options.wounded_daily_recovery`` (E2-35)."""
    _check_alive(creature, "rest")
    e = _Edit(creature)
    if creature.doomed:
        e.c = e.c.with_conditions(doomed=creature.doomed - 1)
        e.note("doomed", f"a night's rest: doomed {creature.doomed - 1}", "E2-37")
    if creature.wounded and options.wounded_daily_recovery:
        e.c = e.c.with_conditions(wounded=creature.wounded - 1)
        e.note("wounded", f"a night's rest: wounded {creature.wounded - 1}", "E2-35")
    return e.done()


def rest_ten_minutes(creature: Creature2e) -> InjuryResult2e:
    """Ten minutes' rest: at full HP it ends wounded (E2-35)."""
    _check_alive(creature, "rest")
    e = _Edit(creature)
    if creature.wounded and creature.hp == creature.max_hp:
        e.c = e.c.with_conditions(wounded=0)
        e.note("wounded", "full HP and 10 minutes' rest: wounded removed", "E2-35")
    elif creature.wounded:
        e.note(
            "wounded", f"not at full HP ({creature.hp}/{creature.max_hp}): stays wounded {creature.wounded}", "E2-35"
        )
    return e.done()


def treat_wounds_success(creature: Creature2e) -> InjuryResult2e:
    """A successful Treat Wounds ends wounded (E2-35; the activity itself, and its healing, is not in the seed)."""
    _check_alive(creature, "Treat Wounds")
    e = _Edit(creature.with_conditions(wounded=0))
    if creature.wounded:
        e.note("wounded", "successful Treat Wounds: wounded removed", "E2-35")
    return e.done()


# --- fast healing and regeneration (E2-29, E2-30) -----------------------------------------------------------------


def turn_start_healing(creature: Creature2e) -> InjuryResult2e:
    """Fast healing and (working) regeneration restore their HP at the start of the creature's turn."""
    amount = creature.fast_healing + (creature.regeneration if regenerating(creature) else 0)
    if creature.dead or amount == 0 or creature.hp == creature.max_hp:
        return InjuryResult2e(creature)
    r = heal(creature, amount)
    kinds = [
        f"fast healing {creature.fast_healing}" if creature.fast_healing else "",
        f"regeneration {creature.regeneration}" if regenerating(creature) else "",
    ]
    rule = "E2-29" if creature.fast_healing else "E2-30"
    line = LedgerLine("start of turn", amount, " and ".join(k for k in kinds if k), rule)
    return InjuryResult2e(r.creature, (line, *r.lines), r.knocked_out, r.checks)


def turn_end_regeneration(creature: Creature2e) -> Creature2e:
    """Count down the turns regeneration is off (it comes back after the end of the creature's next turn)."""
    if creature.regeneration_off_turns:
        return creature.changed(regeneration_off_turns=creature.regeneration_off_turns - 1)
    return creature


# --- waking up (E2-41) ------------------------------------------------------------------------------------------


class WakeCause(StrEnum):
    SHAKEN = "shaken awake (an Interact action)"
    NOISE = "a loud noise (a successful Perception check)"
    SLEEP_ENDS = "restful sleep ends"
    NATURAL = "natural recovery (10 minutes to several hours, the GM's call)"


def wake(creature: Creature2e, cause: WakeCause, *, perception: Check2e | None = None) -> InjuryResult2e:
    """Wake an unconscious creature (E2-41). Damage and healing wake it through :func:`apply_damage` and
    :func:`heal`.

    Unconscious from dying: only 1 HP or more wakes it (heal it). At 0 HP and not dying: only natural recovery.
    With 1 HP or more: being shaken, a loud noise (``perception`` must succeed) or the end of restful sleep.
    """
    _check_alive(creature, "waking up")
    if not creature.unconscious:
        raise RuleViolation("E2-41", f"{creature.name} is not unconscious")
    if creature.dying:
        raise RuleViolation("E2-41", "a dying creature wakes only when restored to 1 HP or more")
    if creature.hp == 0 and cause is not WakeCause.NATURAL:
        raise RuleViolation("E2-41", "at 0 HP a creature recovers only naturally, after 10 minutes to hours")
    if creature.hp > 0 and cause is WakeCause.NATURAL:
        raise RuleViolation(
            "E2-41", "with 1 HP or more the creature wakes from damage, healing, noise, shaking or sleep ending"
        )
    e = _Edit(creature)
    if cause is WakeCause.NOISE:
        if perception is None:
            raise RuleViolation("E2-41", "waking from a noise needs a Perception check against the noise's DC")
        e.checks.append(perception)
        if not perception.succeeded:
            e.note("stays asleep", f"{perception.describe()}", "E2-41")
            return e.done()
    e.c = creature.with_conditions(unconscious=0)
    e.note("wakes", cause.value, "E2-41")
    return e.done()
