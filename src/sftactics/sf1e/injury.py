"""Injury, dying, death, stabilizing and healing (INJ-01..21, DMG-06, DMG-07, DMG-09, DMG-10, DMG-12, DMG-13).

Every function here is pure: it takes a :class:`~sftactics.sf1e.state.Creature` and returns an
:class:`InjuryResult` holding the changed creature and a ledger of what happened, one line per step, each line
ending with the inventory rule it applies (``"... [INJ-02]"``). Requests the rules forbid raise
:class:`~sftactics.core.errors.RuleViolation` naming the rule.

Damage (DMG-06): temporary HP soak it first, then Stamina, then Hit Points; HP stop at 0 (DMG-07) and what is
left over only matters for massive damage (INJ-03).

Who follows the dying rules (INJ-02, INJ-07): player characters, and NPCs that have Resolve Points when the
option ``npc_with_rp`` is ``"pc_rules"``. Every other creature dies at 0 HP from lethal damage, or (option
``npc_without_rp_at_zero = "three_rounds"``) lies unconscious and dying for three of its turns before it dies;
any further lethal damage kills it at once (the inventory's §22 reading of INJ-07). Nonlethal damage never
kills: a creature it takes to 0 HP stays at exactly 0 HP, unconscious and stable (DMG-10, DMG-13, INJ-21).

The dying state machine (INJ-04, INJ-05, INJ-14, INJ-15), driven by the bookkeeping fields on the state:

* reaching 0 HP records ``dropped_round``, ``dropped_on_own_turn`` and ``zero_rp_at_drop`` (0 RP at the moment
  of the drop); the hit that drops a creature does not count as "HP damage while dying";
* :func:`dying_end_of_turn` runs at the end of each of the dying creature's own turns:

  - the turn it dropped on, if it dropped during its own turn: nothing (INJ-04);
  - if it had 0 RP when it dropped: nothing until the end of its turn in round ``dropped_round + 1``, where it
    dies unless healed or stabilized before then (the INJ-05 grace; §22 default); with option
    ``zero_rp_grace = "next_turn"`` it dies at the end of its next turn instead (the same round's turn when it
    dropped before acting in that round);
  - otherwise it loses 1 RP, or dies if it has none left to lose (INJ-05);

* Hit Point damage while dying (or stable, which makes it dying again, INJ-15) costs 1 RP the first time in a
  round (``hp_damaged_round`` remembers the round); any later single source that round dealing more than half
  the maximum HP (and less than the maximum) costs 1 more. Having to lose RP with none left kills, the grace
  above notwithstanding: the grace delays only the end-of-turn loss. A single attack of at least the maximum
  HP kills outright (INJ-03, counted per option ``massive_damage_at_zero``). Option ``big_hit_first_costs``
  decides whether a big first hit costs 1 or 2.

Stable creatures are unconscious at 0 HP and lose nothing (INJ-08); healing of any amount stabilizes a dying
creature, and healing to 1 HP or more wakes it as if it had never dropped (INJ-10).

The result of each step, the context damage lands in, the running edit of a creature they are built with
(:class:`InjuryResult`, :class:`InjuryContext`, :class:`CreatureEdit`) and the condition names used here are in
:mod:`sftactics.sf1e.injury_ledger`; this module imports them, so ``injury.X`` keeps working for them.

Conditions are named :class:`~sftactics.sf1e.state.ConditionInstance` entries. The "unconscious" caused by
0 HP carries the source ``"0 HP"`` so that healing removes that one and not, say, unconsciousness from ability
damage (sources ``"<ability> damage"`` / ``"<ability> drain"``).
"""

from __future__ import annotations

from dataclasses import replace

from sftactics.core.breakdown import Breakdown, Term, constant
from sftactics.core.check import CheckKind, CheckResult, resolve
from sftactics.core.errors import RuleViolation, SftError
from sftactics.dice.source import DiceSource
from sftactics.sf1e import stats
from sftactics.sf1e.injury_ledger import (
    BLEEDING,
    DEAD,
    DYING,
    FATIGUED,
    NO_CONTEXT,
    NONLETHAL_FATIGUE,
    RP_EXHAUSTED,
    STABLE,
    UNCONSCIOUS,
    ZERO_HP,
    CreatureEdit,
    InjuryContext,
    InjuryResult,
)
from sftactics.sf1e.options import DEFAULT_OPTIONS, Sf1eOptions
from sftactics.sf1e.state import Creature

LINGER_ROUNDS = 3  # INJ-07 optional rule
FIRST_AID_DC = 15  # INJ-09
TENDING_DC = 15  # INJ-13
LONG_TERM_HOURS = 8  # INJ-13


def uses_dying_rules(creature: Creature, options: Sf1eOptions = DEFAULT_OPTIONS) -> bool:
    """Player characters follow the dying rules; an NPC with Resolve Points does when the option
    ``npc_with_rp`` is ``"pc_rules"`` (INJ-02, INJ-07)."""
    if creature.stat.kind == "pc":
        return True
    return creature.stat.rp > 0 and options.npc_with_rp == "pc_rules"


def is_dead(creature: Creature) -> bool:
    return creature.has(DEAD)


# ---------------------------------------------------------------- damage
def apply_damage(
    creature: Creature,
    amount: int,
    *,
    nonlethal: bool = False,
    ctx: InjuryContext = NO_CONTEXT,
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> InjuryResult:
    """Apply ``amount`` damage (already reduced by the target's defenses) to temporary HP, SP and HP, and
    settle what 0 HP means for this creature (see the module docstring)."""
    if amount < 0:
        raise SftError(f"damage cannot be negative ({amount})")
    e = CreatureEdit(creature)
    kind = "nonlethal" if nonlethal else "lethal"
    if e.has(DEAD):
        e.line("CON-10", f"{e.name} is dead: {amount} damage changes nothing")
        return e.result()
    st = e.st
    max_hp = stats.max_hp(creature).total
    temp_lost = min(st.temp_hp, amount)
    rest = amount - temp_lost
    sp_lost = min(st.sp, rest)
    hp_damage = rest - sp_lost
    hp_lost = min(st.hp, hp_damage)
    overflow = hp_damage - hp_lost
    e.put(temp_hp=st.temp_hp - temp_lost, sp=st.sp - sp_lost, hp=st.hp - hp_lost)
    if amount == 0:
        e.line("DMG-06", f"{e.name} takes no damage")
        return e.result()
    parts = []
    if temp_lost:
        parts.append(f"{temp_lost} temporary HP")
    if sp_lost or st.sp:
        parts.append(f"{sp_lost} SP")
    parts.append(f"{hp_lost} HP")
    e.line(
        "DMG-06",
        f"{e.name} takes {amount} {kind} damage: {', '.join(parts)} "
        f"(now {e.st.temp_hp} temp, {e.st.sp} SP, {e.st.hp} HP)",
    )
    if overflow and st.hp > 0:
        e.line("DMG-07", f"Hit Points stop at 0; {overflow} damage is left over")
    if st.hp == 0 and (e.has(DYING) or e.has(STABLE)):
        _damage_at_zero(e, amount, hp_damage, nonlethal, ctx, options, max_hp)
    elif e.st.hp == 0 and hp_damage > 0:
        _reach_zero(e, nonlethal=nonlethal, ctx=ctx, options=options, overflow=overflow, max_hp=max_hp)
    return e.result(temp_lost=temp_lost, sp_lost=sp_lost, hp_lost=hp_lost, overflow=overflow)


def _reach_zero(
    e: CreatureEdit, *, nonlethal: bool, ctx: InjuryContext, options: Sf1eOptions, overflow: int, max_hp: int
) -> None:
    """A creature has just been brought to 0 HP."""
    c = e.start
    if nonlethal:
        e.add(UNCONSCIOUS, ZERO_HP)
        e.add(STABLE)
        e.put(dropped_round=ctx.round, dropped_on_own_turn=ctx.own_turn, hp_damaged_round=None)
        rule = "DMG-10" if uses_dying_rules(c, options) else "DMG-13"
        e.line(rule, f"nonlethal damage leaves {e.name} at exactly 0 HP, unconscious and stable")
        e.flag("became_unconscious")
        e.flag("became_stable")
        return
    if overflow >= max_hp:
        e.kill("INJ-03", f"{overflow} damage left past 0 HP is at least {e.name}'s maximum {max_hp} HP: dead",
               "massive damage")  # fmt: skip
        return
    if uses_dying_rules(c, options):
        e.drop(STABLE)
        e.add(UNCONSCIOUS, ZERO_HP)
        e.add(DYING)
        e.put(
            dropped_round=ctx.round,
            dropped_on_own_turn=ctx.own_turn,
            zero_rp_at_drop=e.st.rp == 0,
            hp_damaged_round=None,
            stabilized_round=None,
        )
        e.line("INJ-02", f"{e.name} falls to 0 HP: unconscious and dying")
        if e.st.rp == 0:
            e.line(
                "INJ-05",
                f"{e.name} has no RP: dies at the end of its turn next round unless healed or stabilized",
            )
        e.flag("became_unconscious")
        e.flag("became_dying")
        return
    if c.stat.rp == 0 and options.npc_without_rp_at_zero == "three_rounds":
        e.drop(STABLE)
        e.add(UNCONSCIOUS, ZERO_HP)
        e.add(DYING, "INJ-07")
        e.put(
            dropped_round=ctx.round,
            dropped_on_own_turn=ctx.own_turn,
            lingering_rounds=LINGER_ROUNDS,
            hp_damaged_round=None,
        )
        e.line("INJ-07", f"{e.name} falls to 0 HP: dies after {LINGER_ROUNDS} of its turns unless healed")
        e.flag("became_unconscious")
        e.flag("became_dying")
        return
    why = "no Resolve Points" if c.stat.rp == 0 else "NPC with Resolve Points, option npc_with_rp = dies"
    e.kill("INJ-07", f"{e.name} is reduced to 0 HP by lethal damage: dead ({why})", "0 HP")


def _damage_at_zero(
    e: CreatureEdit,
    amount: int,
    hp_damage: int,
    nonlethal: bool,
    ctx: InjuryContext,
    options: Sf1eOptions,
    max_hp: int,
) -> None:
    """Damage to a creature that was already at 0 HP and dying or stable (INJ-03b, INJ-07, INJ-14, INJ-15)."""
    if nonlethal:
        e.line("DMG-10", f"nonlethal damage cannot take {e.name} below 0 HP or make its state worse")
        return
    measure = hp_damage if options.massive_damage_at_zero == "hp_damage" else amount
    if measure >= max_hp:
        what = "Hit Point damage" if options.massive_damage_at_zero == "hp_damage" else "damage"
        e.kill("INJ-03", f"{measure} {what} in one attack at 0 HP is at least the maximum {max_hp} HP: dead",
               "massive damage")  # fmt: skip
        return
    if e.st.lingering_rounds is not None:
        e.kill("INJ-07", f"{e.name} takes more lethal damage while lingering at 0 HP: dead", "0 HP")
        return
    if not uses_dying_rules(e.start, options):
        if hp_damage == 0:
            e.line("INJ-07", f"the damage does not reach {e.name}'s Hit Points")
            return
        _reach_zero(e, nonlethal=False, ctx=ctx, options=options, overflow=0, max_hp=max_hp)
        return
    if e.has(STABLE):
        e.drop(STABLE)
        e.add(DYING)
        e.put(
            dropped_round=ctx.round,
            dropped_on_own_turn=ctx.own_turn,
            zero_rp_at_drop=False,
            hp_damaged_round=None,
        )
        e.line("INJ-15", f"{e.name} takes damage while stable: dying again")
        e.flag("became_dying")
    if hp_damage == 0:
        e.line("INJ-14", "no Hit Point damage got through: no Resolve Points lost")
        return
    big = 2 * hp_damage > max_hp  # > half maximum; < maximum is guaranteed by the massive damage check
    if e.st.hp_damaged_round != ctx.round:
        e.put(hp_damaged_round=ctx.round)
        cost = 2 if big and options.big_hit_first_costs == 2 else 1
        why = "first Hit Point damage this round while dying"
        if cost == 2:
            why += ", more than half maximum HP"
        e.lose_rp(cost, "INJ-14", why)
    elif big:
        e.lose_rp(1, "INJ-14", f"{hp_damage} Hit Point damage from one source, more than half maximum HP")
    else:
        e.line("INJ-14", "later Hit Point damage this round is not more than half maximum HP: no more RP lost")


def knock_out(
    creature: Creature,
    *,
    nonlethal: bool = False,
    ctx: InjuryContext = NO_CONTEXT,
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> InjuryResult:
    """Something other than HP damage has left ``creature`` at 0 HP (e.g. negative levels, ABL-10): apply the
    0-HP rules as lethal damage would (``nonlethal=False``) or as a nonlethal knock-out."""
    e = CreatureEdit(creature.with_state(hp=0))
    if e.has(DEAD) or e.has(DYING) or e.has(STABLE):
        return e.result()
    _reach_zero(e, nonlethal=nonlethal, ctx=ctx, options=options, overflow=0, max_hp=stats.max_hp(creature).total)
    return e.result()


def kill(creature: Creature, rule: str, cause: str) -> InjuryResult:
    """Mark ``creature`` dead for ``cause`` (CON-10)."""
    e = CreatureEdit(creature)
    if not e.has(DEAD):
        e.kill(rule, f"{e.name} dies ({cause})", cause)
    return e.result()


# ---------------------------------------------------------------- dying over time
def dying_end_of_turn(creature: Creature, round: int, *, options: Sf1eOptions = DEFAULT_OPTIONS) -> InjuryResult:
    """The end of a dying creature's own turn in ``round``: Resolve loss or death (INJ-04, INJ-05), or the
    INJ-07 countdown of a creature lingering at 0 HP. See the module docstring for the state machine."""
    e = CreatureEdit(creature)
    st = e.st
    if e.has(DEAD):
        e.line("CON-10", f"{e.name} is dead")
        return e.result()
    if not e.has(DYING):
        e.line("INJ-08", f"{e.name} is not dying: nothing is lost")
        return e.result()
    if st.dropped_on_own_turn and st.dropped_round == round:
        rule = "INJ-07" if st.lingering_rounds is not None else "INJ-04"
        e.line(rule, f"{e.name} dropped during this turn: nothing is lost until the end of its next turn")
        return e.result()
    if st.lingering_rounds is not None:
        left = st.lingering_rounds - 1
        if left <= 0:
            e.kill("INJ-07", f"{e.name} has lain at 0 HP for {LINGER_ROUNDS} rounds: dead", "0 HP")
        else:
            e.put(lingering_rounds=left)
            e.line("INJ-07", f"{e.name} lingers at 0 HP: dies after {left} more of its turns")
        return e.result()
    if st.zero_rp_at_drop:
        deadline = grace_deadline(st.dropped_round or 0, options)
        if round < deadline:
            e.line("INJ-05", f"{e.name} had no RP when it dropped: it has until the end of its turn next round")
        else:
            e.kill(
                "INJ-05",
                f"{e.name} was not healed or stabilized within a round of dropping with 0 RP: dead",
                RP_EXHAUSTED,
            )
        return e.result()
    e.lose_rp(1, "INJ-04", "dying, end of turn")
    return e.result()


def grace_deadline(dropped_round: int, options: Sf1eOptions = DEFAULT_OPTIONS) -> int:
    """INJ-05: the round at the end of whose turn a creature that dropped with 0 RP dies if nobody healed or
    stabilized it (a drop during its own turn is further delayed by INJ-04, see :func:`dying_end_of_turn`)."""
    return dropped_round + (1 if options.zero_rp_grace == "round_after_drop" else 0)


# ---------------------------------------------------------------- stabilizing
def stabilize_cost(creature: Creature, options: Sf1eOptions = DEFAULT_OPTIONS) -> int:
    """Resolve needed to stabilize: a quarter of maximum RP, at least 1 and at most 3 (INJ-11), or a flat 3
    with option ``stabilize_cost = "three"`` (the Dying condition's text, CON-12)."""
    if options.stabilize_cost == "three":
        return 3
    return max(1, min(3, stats.max_rp(creature).total // 4))


def stabilize(creature: Creature, *, rule: str = "INJ-10", how: str = "healing") -> InjuryResult:
    """Stabilize a dying creature by outside help (first aid, a *stabilize* spell, any healing): it stops
    dying but stays unconscious at 0 HP (INJ-08, INJ-09, INJ-10)."""
    e = CreatureEdit(creature)
    if e.has(DEAD):
        raise RuleViolation("INJ-20", f"{e.name} is dead and cannot be stabilized")
    if not e.has(DYING):
        raise RuleViolation(rule, f"{e.name} is not dying")
    _stabilize(e, rule, how)
    return e.result()


def _stabilize(e: CreatureEdit, rule: str, how: str) -> None:
    e.drop(DYING)
    e.add(STABLE)
    e.put(lingering_rounds=None)
    e.line(rule, f"{how} stabilizes {e.name}: no longer dying, still unconscious at 0 HP")
    e.flag("became_stable")


def stabilize_with_resolve(creature: Creature, round: int, *, options: Sf1eOptions = DEFAULT_OPTIONS) -> InjuryResult:
    """On its turn a dying creature spends Resolve to stabilize (INJ-11; cost per :func:`stabilize_cost`)."""
    if creature.has(DEAD):
        raise RuleViolation("INJ-11", f"{creature.name} is dead")
    if not creature.has(DYING):
        raise RuleViolation("INJ-11", f"{creature.name} is not dying: only a dying creature can stabilize")
    cost = stabilize_cost(creature, options)
    rule = "CON-12" if options.stabilize_cost == "three" else "INJ-11"
    if creature.state.rp < cost:
        raise RuleViolation(rule, f"{creature.name} needs {cost} RP to stabilize but has {creature.state.rp}")
    if creature.state.stayed_round is not None and creature.state.stayed_round == round:
        raise RuleViolation(
            "INJ-12", f"{creature.name} spent RP to stay in the fight this round: no stabilizing with RP too"
        )
    e = CreatureEdit(creature)
    e.put(rp=e.st.rp - cost, stabilized_round=round)
    e.rp_lost = cost
    _stabilize(e, rule, f"spending {cost} RP")
    return e.result()


def stay_in_the_fight(creature: Creature, round: int) -> InjuryResult:
    """At the start of its turn a stable creature at 0 HP (knocked out by nonlethal damage included) spends
    1 RP to regain 1 HP and wake (INJ-12, INJ-21); not in the round it stabilized by spending RP, and it cannot
    then stabilize with RP in the same round (:func:`stabilize_with_resolve`)."""
    st = creature.state
    if creature.has(DEAD):
        raise RuleViolation("INJ-12", f"{creature.name} is dead")
    if st.hp != 0 or not creature.has(STABLE):
        raise RuleViolation("INJ-12", f"{creature.name} must be stable at 0 HP to stay in the fight")
    if st.stabilized_round is not None and st.stabilized_round == round:
        raise RuleViolation("INJ-12", f"{creature.name} stabilized with RP this round: no staying in the fight too")
    if st.rp < 1:
        raise RuleViolation("INJ-12", f"{creature.name} has no RP to stay in the fight")
    e = CreatureEdit(creature)
    e.put(rp=st.rp - 1, hp=1)
    e.rp_lost = 1
    e.wake("INJ-12", f"{e.name} spends 1 RP to stay in the fight: 1 HP and conscious")
    e.put(stayed_round=round)
    return e.result(hp_healed=1)


def _bonus(value: int | Breakdown, label: str, rule: str) -> Breakdown:
    return value if isinstance(value, Breakdown) else constant(label, value, rule)


def first_aid(creature: Creature, medicine_bonus: int | Breakdown, dice: DiceSource) -> InjuryResult:
    """A healer's DC 15 Medicine check stabilizes a dying creature (INJ-09). ``medicine_bonus`` is the
    healer's Medicine bonus (a number, or a Breakdown from ``stats.skill_bonus``)."""
    if creature.has(DEAD):
        raise RuleViolation("INJ-20", f"{creature.name} is dead and cannot be stabilized")
    if not creature.has(DYING):
        raise RuleViolation("INJ-09", f"{creature.name} is not dying: first aid has nothing to stabilize")
    bonus = _bonus(medicine_bonus, "Medicine bonus", "INJ-09")
    check = resolve(CheckKind.SKILL, bonus, FIRST_AID_DC, dice, purpose=f"first aid on {creature.name} (Medicine)")
    e = CreatureEdit(creature)
    e.line("INJ-09", f"first aid on {e.name}: {check.describe()}")
    if check.success:
        _stabilize(e, "INJ-09", "first aid")
    r = e.result()
    return _with_checks(r, check)


def _with_checks(r: InjuryResult, *checks: CheckResult) -> InjuryResult:
    return replace(r, checks=(*r.checks, *checks))


# ---------------------------------------------------------------- healing
def heal(creature: Creature, hp: int = 0, sp: int = 0) -> InjuryResult:
    """Healing of ``hp`` Hit Points and ``sp`` Stamina Points.

    Magical or technological healing restores HP only unless it says otherwise, so pass ``sp`` only when it
    does (INJ-18); nothing rises past its maximum (INJ-19). Any healing stabilizes a dying creature, and 1 HP
    or more wakes it (INJ-10); a heal of 0 and 0 stands for an effect that only stabilizes (the *stabilize*
    spell). Stamina alone does not help a creature at 0 HP (DMG-07). Restoring HP stops bleeding (CON-02).
    Dead creatures cannot be healed (INJ-20). Temporary HP are never restored here (DMG-09).
    """
    if hp < 0 or sp < 0:
        raise SftError("healing cannot be negative")
    if creature.has(DEAD):
        raise RuleViolation("INJ-20", f"{creature.name} is dead and cannot be healed")
    e = CreatureEdit(creature)
    st = e.st
    max_hp = stats.max_hp(creature).total
    max_sp = stats.max_sp(creature).total
    new_hp = max(st.hp, min(max_hp, st.hp + hp))
    new_sp = max(st.sp, min(max_sp, st.sp + sp))
    hp_healed, sp_healed = new_hp - st.hp, new_sp - st.sp
    e.put(hp=new_hp, sp=new_sp)
    if hp:
        e.line("INJ-18", f"{e.name} regains {hp_healed} HP (now {new_hp}/{max_hp})")
        if hp_healed < hp:
            e.line("INJ-19", f"healing stops at maximum HP: {hp - hp_healed} HP wasted")
    if sp:
        e.line("INJ-18", f"{e.name} regains {sp_healed} SP (now {new_sp}/{max_sp})")
        if sp_healed < sp:
            e.line("INJ-19", f"healing stops at maximum SP: {sp - sp_healed} SP wasted")
    at_zero = st.hp == 0 and (e.has(DYING) or e.has(STABLE))
    if at_zero and new_hp >= 1:
        e.wake("INJ-10", f"healing brings {e.name} to {new_hp} HP: conscious and fully functional")
    elif at_zero and e.has(DYING) and (hp > 0 or sp == 0):
        _stabilize(e, "INJ-10", "healing")
    elif at_zero and sp and not hp:
        e.line("DMG-07", f"Stamina does not help {e.name} while at 0 HP")
    if not hp and not sp and not (at_zero and e.start.has(DYING)):
        e.line("INJ-10", f"no healing for {e.name}")
    if hp and e.drop(BLEEDING):
        e.line("CON-02", f"healing Hit Points stops {e.name}'s bleeding")
    _settle_nonlethal_fatigue(e)
    return e.result(hp_healed=hp_healed, sp_healed=sp_healed)


def add_temp_hp(creature: Creature, amount: int, options: Sf1eOptions = DEFAULT_OPTIONS) -> InjuryResult:
    """Temporary Hit Points from a new effect (DMG-09): with option ``temp_hp_stacking = "highest"`` they
    replace the current ones only if higher; with ``"add"`` they add to them."""
    if amount < 0:
        raise SftError("temporary Hit Points cannot be negative")
    if creature.has(DEAD):
        raise RuleViolation("INJ-20", f"{creature.name} is dead")
    e = CreatureEdit(creature)
    old = e.st.temp_hp
    new = old + amount if options.temp_hp_stacking == "add" else max(old, amount)
    e.put(temp_hp=new)
    how = "added" if options.temp_hp_stacking == "add" else "the higher amount kept"
    e.line("DMG-09", f"{e.name} gains {amount} temporary HP ({how}): {old} -> {new}")
    return e.result(temp_gained=new - old)


def lose_temp_hp(creature: Creature) -> InjuryResult:
    """The effect that granted temporary HP ends: what is left of them goes away (DMG-09)."""
    e = CreatureEdit(creature)
    old = e.st.temp_hp
    e.put(temp_hp=0)
    e.line("DMG-09", f"the temporary HP effect ends: {e.name} loses {old} temporary HP")
    return e.result(temp_lost=old)


def recover_stamina(creature: Creature) -> InjuryResult:
    """Spend 1 RP and rest 10 uninterrupted minutes to regain all Stamina Points (INJ-16)."""
    st = creature.state
    if creature.has(DEAD) or creature.has(UNCONSCIOUS):
        raise RuleViolation("INJ-16", f"{creature.name} must be conscious to rest and spend Resolve")
    if st.rp < 1:
        raise RuleViolation("INJ-16", f"{creature.name} has no RP to spend on recovering Stamina")
    max_sp = stats.max_sp(creature).total
    if st.sp >= max_sp:
        raise RuleViolation("INJ-16", f"{creature.name}'s Stamina is already full")
    e = CreatureEdit(creature)
    e.put(rp=st.rp - 1, sp=max_sp)
    e.rp_lost = 1
    e.line("INJ-16", f"{e.name} spends 1 RP and rests 10 minutes: SP {st.sp} -> {max_sp}")
    _settle_nonlethal_fatigue(e)
    return e.result(sp_healed=max_sp - st.sp)


def night_rest(creature: Creature, *, bed_rest: bool = False, interrupted: bool = False) -> InjuryResult:
    """A full night's rest (8 hours) or, with ``bed_rest``, 24 hours of complete bed rest.

    All Stamina comes back (INJ-16); HP rise by the character level, twice that with bed rest (INJ-17); each
    damaged ability score heals 1 point, 2 with bed rest (ABL-06, read per night as the §22 default); fatigue
    from nonlethal damage ends (DMG-12). A significant interruption means it was not a full night's rest:
    nothing is recovered. Regaining Resolve Points overnight is outside the seeds and not done here.
    """
    if creature.has(DEAD):
        raise RuleViolation("INJ-20", f"{creature.name} is dead")
    if creature.has(DYING):
        raise RuleViolation("INJ-17", f"{creature.name} is dying: stabilize it before it can rest")
    e = CreatureEdit(creature)
    what = "24 hours of bed rest" if bed_rest else "a night's rest"
    if interrupted:
        e.line("INJ-17", f"{e.name}'s rest is significantly interrupted: no healing this night")
        return e.result()
    st = e.st
    level = creature.stat.effective_level
    per = 2 if bed_rest else 1
    # ability damage first, so the pools are judged against the restored maxima
    healed = {ab: max(0, v - per) for ab, v in st.ability_damage.items()}
    for ab, v in st.ability_damage.items():
        if v:
            e.line("ABL-06", f"{what}: {e.name}'s {ab} damage {v} -> {healed[ab]}")
    e.put(ability_damage={ab: v for ab, v in healed.items() if v})
    e.settle_ability_unconsciousness()
    now = e.creature
    max_hp = stats.max_hp(now).total
    max_sp = stats.max_sp(now).total
    new_hp = max(st.hp, min(max_hp, st.hp + per * level))
    new_sp = max(st.sp, max_sp)
    e.put(hp=new_hp, sp=new_sp)
    e.line("INJ-16", f"{what}: {e.name} regains all Stamina ({st.sp} -> {new_sp})")
    e.line("INJ-17", f"{what}: {e.name} regains {per} x level {level} HP ({st.hp} -> {new_hp}, max {max_hp})")
    if st.hp == 0 and new_hp > 0 and e.has(STABLE):
        e.wake("INJ-17", f"{e.name} wakes with {new_hp} HP")
    if e.st.nonlethal_fatigue:
        e.drop(FATIGUED, NONLETHAL_FATIGUE)
        e.put(nonlethal_fatigue=False)
        e.line("DMG-12", f"rest ends {e.name}'s fatigue from nonlethal damage")
    return e.result(hp_healed=new_hp - st.hp, sp_healed=new_sp - st.sp)


def long_term_stability_check(
    creature: Creature,
    con_check_dice: DiceSource,
    *,
    tended_medicine_bonus: int | Breakdown | None = None,
    hour: int,
) -> InjuryResult:
    """The hourly Constitution check of a creature that is stable at 0 HP without RP to stay in the fight
    (INJ-13). A tending healer first attempts a DC 15 Medicine check (``tended_medicine_bonus``; both rolls
    come from ``con_check_dice``, the Medicine check first): success gives +2 and raises a result below 10
    to 10.

    Result 20+: 1 HP and conscious. 10-19: still stable. 9 or less: dead. Checks are made at hours 1 to 8;
    a creature that survives its eighth check without waking wakes with 1 HP per character level.
    """
    st = creature.state
    if creature.has(DEAD):
        raise RuleViolation("INJ-13", f"{creature.name} is dead")
    if st.hp != 0 or not creature.has(STABLE):
        raise RuleViolation("INJ-13", f"{creature.name} is not unconscious and stable at 0 HP")
    if st.rp >= 1:
        raise RuleViolation("INJ-13", f"{creature.name} has RP to stay in the fight instead (INJ-12)")
    if not 1 <= hour <= LONG_TERM_HOURS:
        raise RuleViolation("INJ-13", f"long-term stability checks are made at hours 1 to 8, not {hour}")
    e = CreatureEdit(creature)
    checks: list[CheckResult] = []
    tended = False
    if tended_medicine_bonus is not None:
        med = resolve(
            CheckKind.SKILL,
            _bonus(tended_medicine_bonus, "Medicine bonus", "INJ-13"),
            TENDING_DC,
            con_check_dice,
            purpose=f"tending {creature.name} (Medicine), hour {hour}",
        )
        checks.append(med)
        tended = med.success
        e.line("INJ-13", f"tending healer's Medicine check: {med.describe()}")
    bonus = stats.ability_check_bonus(creature, "con")
    if tended:
        bonus = bonus.plus(Term(2, "tended by a healer", "INJ-13"))
    con = resolve(CheckKind.ABILITY, bonus, 20, con_check_dice, purpose=f"long-term stability, hour {hour}")
    checks.append(con)
    result = con.total
    e.line("INJ-13", f"hour {hour} Constitution check: d20 {con.natural} {bonus.total:+d} = {result}")
    if tended and result < 10:
        e.line("INJ-13", f"tended: the result {result} counts as 10")
        result = 10
    if result <= 9:
        e.kill("INJ-13", f"{e.name} fails to hold on (result {result}): dead", "long-term stability")
        return _with_checks(e.result(), *checks)
    if hour == LONG_TERM_HOURS:
        level = creature.stat.effective_level
        new_hp = min(stats.max_hp(creature).total, level)
        e.put(hp=new_hp)
        e.wake("INJ-13", f"after 8 hours {e.name} wakes and recovers 1 HP per level: {new_hp} HP")
        return _with_checks(e.result(hp_healed=new_hp), *checks)
    if result >= 20:
        e.put(hp=1)
        e.wake("INJ-13", f"{e.name} regains 1 HP and consciousness")
        return _with_checks(e.result(hp_healed=1), *checks)
    e.line("INJ-13", f"{e.name} remains stable; next check in 1 hour")
    return _with_checks(e.result(), *checks)


# ---------------------------------------------------------------- nonlethal fatigue (DMG-12)
def fatigue_from_nonlethal(
    creature: Creature,
    amount: int,
    *,
    ctx: InjuryContext = NO_CONTEXT,
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> InjuryResult:
    """Nonlethal damage that also fatigues (hustling, a forced march): apply the damage and mark the fatigue
    as nonlethal-sourced, so it ends once the lost SP and HP are back or after a night's rest (DMG-12).
    Escalation of fatigued to exhausted (CON-17) is left to the condition rules."""
    r = apply_damage(creature, amount, nonlethal=True, ctx=ctx, options=options)
    if r.creature.has(DEAD):
        return r
    e = CreatureEdit(r.creature)
    e.add(FATIGUED, NONLETHAL_FATIGUE)
    e.put(nonlethal_fatigue=True)
    e.line("DMG-12", f"{e.name} is fatigued until this nonlethal damage is recovered")
    return InjuryResult(
        creature=e.creature,
        lines=(*r.lines, *e.lines),
        temp_lost=r.temp_lost,
        sp_lost=r.sp_lost,
        hp_lost=r.hp_lost,
        overflow=r.overflow,
        became_unconscious=r.became_unconscious,
        became_stable=r.became_stable,
    )


def _settle_nonlethal_fatigue(e: CreatureEdit) -> None:
    if not e.st.nonlethal_fatigue:
        return
    now = e.creature
    if e.st.hp >= stats.max_hp(now).total and e.st.sp >= stats.max_sp(now).total:
        e.drop(FATIGUED, NONLETHAL_FATIGUE)
        e.put(nonlethal_fatigue=False)
        e.line("DMG-12", f"{e.name} has recovered the nonlethal damage: its fatigue ends")


__all__ = [
    "BLEEDING",
    "DEAD",
    "DYING",
    "FATIGUED",
    "NONLETHAL_FATIGUE",
    "NO_CONTEXT",
    "STABLE",
    "UNCONSCIOUS",
    "ZERO_HP",
    "CreatureEdit",
    "InjuryContext",
    "InjuryResult",
    "add_temp_hp",
    "apply_damage",
    "dying_end_of_turn",
    "fatigue_from_nonlethal",
    "first_aid",
    "grace_deadline",
    "heal",
    "is_dead",
    "kill",
    "knock_out",
    "long_term_stability_check",
    "lose_temp_hp",
    "night_rest",
    "recover_stamina",
    "stabilize",
    "stabilize_cost",
    "stabilize_with_resolve",
    "stay_in_the_fight",
    "uses_dying_rules",
]
