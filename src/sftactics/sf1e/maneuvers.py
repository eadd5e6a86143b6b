"""Combat maneuvers, without the map (MAN-01..14, SPA-13).

Every maneuver is one melee attack roll against the defender's KAC + 8 (:func:`maneuver_target`, MAN-01). The
roll is an attack roll, so a natural 20 succeeds and a natural 1 fails whatever the total (§22 default for
MAN-01), and everything that changes attack rolls changes it (conditions, negative levels, a helpless target's
+4 against melee...). Several maneuvers grow with the margin: one extra *step* for each full 5 by which the
total beats KAC + 8 (:func:`steps`; a natural 20 that falls short of the number succeeds with 0 steps).

:func:`attempt` resolves one maneuver and returns a :class:`ManeuverResult`: the new creatures and what the
grid and the encounter must still do (push the defender, time the condition...). What each kind does:

* **bull rush** (MAN-02): the defender is pushed 5 ft + 5 ft per step, directly away from the attacker (§22
  default); the grid moves it and stops it at the first obstacle.
* **dirty trick** (MAN-03): the attacker's choice of blinded, deafened, entangled, off-target, shaken or sickened
  for 1 round + 1 per step; removing it is a move action (:func:`remove_dirty_trick`). At range (GM's call) the
  roll takes -2 per 5 ft between the two.
* **disarm** (MAN-04): the attacker picks the held item (§22 default; by default the defender's first
  manufactured weapon); it lands in the defender's square, or in the attacker's free hand.
* **grapple** (MAN-05..07): needs a free hand; the defender is grappled, or pinned when the total also reaches
  KAC + 13. The condition lasts until the end of the grappler's next turn unless renewed (the encounter times
  it: ``expires``/``expires_anchor``); the grappler itself never becomes grappled. A grapple against the
  creature one already holds is a *renewal*: the new roll sets the state (grappled or pinned, §22 default), and
  a renewal may take one item off the defender, which ends the grapple at once. A creature holding one target
  cannot grapple another (``holding``).
* **grapple back** (MAN-08 a): a grappled creature's grapple maneuver against its own grappler. Grappled's -2
  does not count on it (pinned's -4 does); success frees it and grapples the old grappler instead. The
  reversal is a grapple maneuver, so a total of KAC + 13 pins (a decision: the text only names grappled).
* **escape** (MAN-08 b): :func:`escape`, the Acrobatics task with a supplied bonus and DC; +2 circumstance
  while invisible; pinned's -4 counts, grappled's -2 does not.
* **reposition** (MAN-09, MAN-10): the defender moves up to 5 ft + 5 ft per step, staying within the attacker's
  reach; done as a full action, the attacker may then move as far as it moved the defender (at most its speed),
  dragging it along (the defender stays within reach and provokes nothing: §22 default).
* **sunder** (MAN-11): the attacker's weapon damage (§22 default) against one object the defender could draw as a
  move action, less the object's hardness (``objects.damage_object``).
* **trip** (MAN-12): prone; a flying defender instead descends 10 ft and is prone only if that lands it; in zero
  gravity it is off-kilter instead.

Incorporeal creatures can neither attempt nor suffer a maneuver (SPA-13). Forced movement provoking attacks of
opportunity (MAN-13) is the ``forced_movement_provokes`` switch, off by default (§22): the result's ``provokes``
tells the encounter whether the push or shift provokes from the squares the defender leaves. A feint is a Bluff
check, not a maneuver (MAN-14): see ``actions_rules.feint``.

Nothing is changed when a request is refused: the checks come before any die is rolled.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Final, Literal

from sftactics.core.breakdown import BonusType, Breakdown, Term
from sftactics.core.check import NORMAL, CheckKind, CheckResult, RollMode, resolve
from sftactics.core.errors import RuleViolation, SftError
from sftactics.dice.source import DiceSource
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import damage, stats
from sftactics.sf1e.attack import attack_terms_against, check_can_attack
from sftactics.sf1e.objects import ObjectDamage, ObjectState, damage_object
from sftactics.sf1e.options import DEFAULT_OPTIONS, Sf1eOptions
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.state import ConditionInstance, Creature

B = BonusType.BASE

#: Added to KAC for the number a maneuver must reach (MAN-01).
MANEUVER_BONUS: Final = 8
#: Added to KAC for the number a grapple must reach to pin (MAN-06).
PIN_BONUS: Final = 13
#: Each full this-many points over KAC + 8 is one extra step (MAN-01).
STEP: Final = 5
#: Feet per step of bull rush and reposition (MAN-02, MAN-09).
STEP_FT: Final = 5
#: Conditions a dirty trick may impose (MAN-03).
DIRTY_TRICK_CONDITIONS: Final = frozenset({"blinded", "deafened", "entangled", "off-target", "shaken", "sickened"})
#: Prefix of the ``source`` of a dirty trick's condition, so the move action that removes it finds it.
DIRTY_TRICK_SOURCE: Final = "dirty trick"
#: Penalty per 5 ft between the two for a dirty trick the GM allows at range (MAN-03).
RANGED_DIRTY_TRICK_PENALTY: Final = 2
#: Which way a bull rush pushes (MAN-02, §22 default).
BULL_RUSH_DIRECTION: Final = "directly away from the attacker"
#: How far a tripped flier descends (MAN-12).
TRIP_DESCENT_FT: Final = 10
#: MAN-13 default (§22): being pushed or shifted by a maneuver does not provoke attacks of opportunity.
FORCED_MOVEMENT_PROVOKES: Final = False
#: Conditions a grapple gives; their ``source`` is the grappler's id.
GRAPPLE_CONDITIONS: Final = ("grappled", "pinned")

#: The attack used when a maneuver is made without a weapon (XREF: unarmed strike, 1d3 bludgeoning, nonlethal).
UNARMED_STRIKE: Final = Weapon(name="unarmed strike", category="unarmed", damage="1d3 B", nonlethal=True)

#: Turn-anchored ends, as the encounter's ``Expiry`` names them.
Expires = Literal["turn_start", "turn_end"]


class Maneuver(StrEnum):
    BULL_RUSH = "bull rush"
    DIRTY_TRICK = "dirty trick"
    DISARM = "disarm"
    GRAPPLE = "grapple"
    REPOSITION = "reposition"
    SUNDER = "sunder"
    TRIP = "trip"


_RULE: Final[dict[Maneuver, str]] = {
    Maneuver.BULL_RUSH: "MAN-02",
    Maneuver.DIRTY_TRICK: "MAN-03",
    Maneuver.DISARM: "MAN-04",
    Maneuver.GRAPPLE: "MAN-05",
    Maneuver.REPOSITION: "MAN-09",
    Maneuver.SUNDER: "MAN-11",
    Maneuver.TRIP: "MAN-12",
}


@dataclass(frozen=True, slots=True)
class ManeuverResult:
    """One maneuver, resolved.

    ``attacker`` and ``defender`` are the creatures afterwards (the attacker changes only when a grapple back
    frees it). ``target`` is KAC + 8, ``roll`` the attack roll, ``steps`` the extra steps (0 on a failure).

    Kind-specific fields (left at their defaults when they do not apply or the maneuver failed):
    ``distance_ft`` how far the grid moves the defender (bull rush: exactly; reposition: at most) and
    ``direction`` which way (bull rush); ``drag_ft`` how far a full-action reposition lets the attacker move
    with the defender; ``provokes`` whether that forced movement provokes (MAN-13 switch); ``condition`` the
    condition instance the defender gained (None if it was immune); ``pinned``; ``expires`` and
    ``expires_anchor`` the turn-anchored end of that condition ("turn_end" of the grappler for grapples;
    dirty tricks last ``condition.rounds`` rounds instead); ``renewal`` (a grapple on a creature already held),
    ``reversed`` (a grapple back that succeeded), ``grapple_ended`` (a renewal that took an item);
    ``item`` and ``item_to`` ("attacker" or "ground": the defender's square) for disarm and renewal item
    removal; ``object_damage`` and ``damage_roll`` for sunder; ``descent_ft`` for a tripped flier."""

    kind: Maneuver
    attacker: Creature
    defender: Creature
    weapon: Weapon
    target: Breakdown
    roll: CheckResult
    success: bool
    steps: int
    lines: tuple[str, ...]
    distance_ft: int = 0
    direction: str = ""
    drag_ft: int = 0
    provokes: bool = False
    condition: ConditionInstance | None = None
    pinned: bool = False
    expires: Expires | None = None
    expires_anchor: str = ""
    renewal: bool = False
    reversed: bool = False
    grapple_ended: bool = False
    item: str = ""
    item_to: str = ""
    object_damage: ObjectDamage | None = None
    damage_roll: damage.DamageRoll | None = None
    descent_ft: int = 0

    def describe(self) -> str:
        return "\n".join(self.lines)


# ------------------------------------------------------------------------------------------- numbers
def maneuver_target(
    defender: Creature,
    *,
    ac_terms: tuple[Term, ...] = (),
    tags: frozenset[str] = frozenset(),
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> Breakdown:
    """The number a maneuver must reach: the defender's KAC against a melee attack, + 8 (MAN-01).

    ``ac_terms`` are what the surroundings add to the KAC (cover from the grid, for instance)."""
    return _kac_plus(defender, MANEUVER_BONUS, "MAN-01", ac_terms, tags, options)


def pin_target(
    defender: Creature,
    *,
    ac_terms: tuple[Term, ...] = (),
    tags: frozenset[str] = frozenset(),
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> Breakdown:
    """The number a grapple must reach to pin: KAC + 13 (MAN-06)."""
    return _kac_plus(defender, PIN_BONUS, "MAN-06", ac_terms, tags, options)


def _kac_plus(
    defender: Creature, plus: int, rule: str, ac_terms: tuple[Term, ...], tags: frozenset[str], options: Sf1eOptions
) -> Breakdown:
    kac = stats.armor_class(defender, "kac", vs="melee", tags=tags, options=options)
    if ac_terms:
        kac = kac.plus(*ac_terms, tags=tags | {"vs:melee"})
    term = Term(plus, "combat maneuver" if plus == MANEUVER_BONUS else "pin", rule, B)
    return Breakdown(f"KAC + {plus}", kac.total + plus, (*kac.applied, term), kac.suppressed)


def steps(total: int, target: int, success: bool = True) -> int:
    """Extra steps of a maneuver: one per full 5 by which ``total`` beats ``target`` (MAN-01); never negative,
    and 0 for a failure. ``steps(27, 23) == 0``, ``steps(28, 23) == 1``, ``steps(33, 23) == 2``."""
    if not success:
        return 0
    return max(0, (total - target) // STEP)


# ------------------------------------------------------------------------------------------- grapple helpers
def grappled_by(creature: Creature) -> str | None:
    """The id of whoever grapples or pins ``creature`` (its own grappled/pinned condition's source), or None."""
    for inst in creature.state.conditions:
        if inst.name in GRAPPLE_CONDITIONS and inst.source:
            return inst.source
    return None


def release(creature: Creature, grappler: str | None = None) -> Creature:
    """``creature`` without the grappled and pinned conditions ``grappler`` gave it (all of them if None)."""
    kept = tuple(
        c
        for c in creature.state.conditions
        if not (c.name in GRAPPLE_CONDITIONS and (grappler is None or c.source == grappler))
    )
    return creature.with_state(conditions=kept)


@dataclass(frozen=True, slots=True)
class GrappleEnd:
    creature: Creature
    ended: bool
    lines: tuple[str, ...]


GrappleEndReason = Literal["not renewed", "grappler moved away", "item removed", "released", "grappler cannot act"]


def end_grapple(creature: Creature, grappler: str, reason: GrappleEndReason = "not renewed") -> GrappleEnd:
    """The grapple ``grappler`` holds ``creature`` in ends (MAN-07): at the end of the grappler's next turn
    when it did not renew it, at once when the grappler moves away or takes an item on renewing, or when it lets
    go. The encounter decides when; this removes the condition."""
    after = release(creature, grappler)
    if after == creature:
        return GrappleEnd(creature, False, (f"{creature.name} is not held by {grappler} [MAN-07]",))
    return GrappleEnd(after, True, (f"{grappler}'s grapple on {creature.name} ends ({reason}) [MAN-07]",))


@dataclass(frozen=True, slots=True)
class EscapeResult:
    """An Acrobatics escape from a grapple (MAN-08): the creature afterwards, the check, whether it got free."""

    creature: Creature
    grappler: str | None
    check: CheckResult
    escaped: bool
    lines: tuple[str, ...]


def escape(
    creature: Creature,
    dc: int,
    dice: DiceSource,
    *,
    bonus: int | None = None,
    invisible: bool | None = None,
    grappler: str | None = None,
    mode: RollMode = NORMAL,
) -> EscapeResult:
    """The Acrobatics escape task against a grapple (MAN-08 b; the DC is the caller's, XREF Acrobatics).

    ``bonus`` is the creature's Acrobatics bonus (default: its printed one). Pinned's -4 applies, grappled's -2
    does not (CON-20, CON-28); an invisible creature gets +2 circumstance (``invisible``: default, whether it
    has the *invisible* marker). A skill check: no automatic results on 1 or 20. Success removes the grapple
    of ``grappler`` (default: whoever holds it)."""
    if "grappled" not in cond.active(creature):
        raise RuleViolation("MAN-08", f"{creature.name} is not grappled or pinned: nothing to escape")
    holder = grappler if grappler is not None else grappled_by(creature)
    tags = frozenset({"grapple_or_escape"})
    skill = stats.skill_bonus(creature, "acrobatics", bonus=bonus, ability="dex", tags=tags)
    if invisible if invisible is not None else creature.has("invisible"):
        inv = Term(2, "invisible while grappled", "MAN-08", BonusType.CIRCUMSTANCE)
        skill = skill.plus(inv, tags=tags | {"skill:acrobatics", "ability:dex"})
    check = resolve(CheckKind.SKILL, skill, dc, dice, purpose=f"{creature.name} escape (Acrobatics)", mode=mode)
    lines = [
        f"{creature.name} tries to escape{f' from {holder}' if holder else ''} with Acrobatics [MAN-08]",
        f"  {skill.describe()}",
        *(f"    (not counted: {s.term.describe()} - {s.reason})" for s in skill.suppressed),
        f"  {check.describe()}",
    ]
    if not check.success:
        lines.append(f"{creature.name} stays held [MAN-08]")
        return EscapeResult(creature, holder, check, False, tuple(lines))
    lines.append(f"{creature.name} breaks free [MAN-08]")
    return EscapeResult(release(creature, holder), holder, check, True, tuple(lines))


# ------------------------------------------------------------------------------------------- dirty trick removal
@dataclass(frozen=True, slots=True)
class DirtyTrickRemoval:
    creature: Creature
    removed: tuple[ConditionInstance, ...]
    lines: tuple[str, ...]


def remove_dirty_trick(creature: Creature, condition: str | None = None) -> DirtyTrickRemoval:
    """A move action that shakes off a dirty trick's condition (MAN-03): every instance a dirty trick gave
    (its ``source`` starts with ``DIRTY_TRICK_SOURCE``), or only those of ``condition``. Refused when there is
    none. (A dirty-trick shaken merged into an older shaken keeps the older source, CON-30: it cannot be shaken
    off this way.)"""
    name = cond.get(condition).name if condition is not None else None
    gone = tuple(
        c
        for c in creature.state.conditions
        if c.source.startswith(DIRTY_TRICK_SOURCE) and (name is None or c.name == name)
    )
    if not gone:
        what = f"no {name} from a dirty trick" if name else "no condition from a dirty trick"
        raise RuleViolation("MAN-03", f"{creature.name} has {what} to remove")
    kept = tuple(c for c in creature.state.conditions if c not in gone)
    names = ", ".join(c.name for c in gone)
    line = f"{creature.name} spends a move action to remove {names} (dirty trick) [MAN-03]"
    return DirtyTrickRemoval(creature.with_state(conditions=kept), gone, (line,))


# ------------------------------------------------------------------------------------------- the maneuver
def _weapon(attacker: Creature, weapon: Weapon | str | None) -> Weapon:
    if weapon is None:
        return UNARMED_STRIKE
    if isinstance(weapon, str):
        return attacker.stat.weapon(weapon)
    return weapon


def _default_item(defender: Creature) -> str:
    for w in defender.stat.weapons:
        if w.category not in ("natural", "unarmed"):
            return w.name
    raise RuleViolation("MAN-04", f"{defender.name} holds no item to knock away (name one)")


def _check_request(
    kind: Maneuver,
    attacker: Creature,
    defender: Creature,
    weapon: Weapon,
    *,
    condition: str | None,
    range_ft: int,
    item: str | None,
    obj: ObjectState | None,
    free_hand: bool,
    holding: str | None,
    altitude_ft: int,
) -> None:
    """Every refusal, before anything is rolled."""
    for who in (attacker, defender):
        if who.stat.incorporeal:
            role = "attempt" if who is attacker else "be the target of"
            raise RuleViolation("SPA-13", f"{who.name} is incorporeal: it cannot {role} a combat maneuver")
    check_can_attack(attacker)
    if defender.has("dead"):
        raise RuleViolation("CON-10", f"{defender.name} is dead")
    held_by = grappled_by(attacker)
    if "pinned" in cond.active(attacker) and not (kind is Maneuver.GRAPPLE and held_by == defender.id):
        raise RuleViolation("CON-28", f"{attacker.name} is pinned: it can only try to get free")
    if "grappled" in cond.active(attacker) and weapon.two_handed:
        raise RuleViolation("CON-20", f"{attacker.name} is grappled: no two-handed actions ({weapon.name})")
    if range_ft < 0:
        raise RuleViolation("MAN-03", f"a distance cannot be negative ({range_ft} ft)")
    if range_ft and kind is not Maneuver.DIRTY_TRICK:
        raise RuleViolation("MAN-01", f"a {kind} is made against a creature within reach, not at range")
    if not weapon.is_melee and not range_ft:
        raise RuleViolation("MAN-01", f"a combat maneuver is a melee attack: {weapon.name} is a ranged weapon")
    if kind is Maneuver.DIRTY_TRICK:
        if condition is None:
            choices = ", ".join(sorted(DIRTY_TRICK_CONDITIONS))
            raise RuleViolation("MAN-03", f"choose the dirty trick's condition: {choices}")
        try:
            chosen = cond.get(condition).name
        except SftError:
            chosen = condition
        if chosen not in DIRTY_TRICK_CONDITIONS:
            raise RuleViolation(
                "MAN-03",
                f"a dirty trick gives {', '.join(sorted(DIRTY_TRICK_CONDITIONS))}, not {condition}",
            )
    if kind is Maneuver.GRAPPLE:
        if not free_hand:
            raise RuleViolation("MAN-05", f"{attacker.name} needs a free hand to grapple")
        if holding is not None and holding != defender.id:
            raise RuleViolation("MAN-07", f"{attacker.name} already holds {holding}: it cannot grapple another")
        if item is not None and grappled_by(defender) != attacker.id:
            raise RuleViolation("MAN-07", "an item can be taken only when renewing a grapple on a creature held")
    if kind is Maneuver.SUNDER and obj is None:
        raise RuleViolation("MAN-11", "name the object to sunder (something the defender could draw as a move action)")
    if kind is Maneuver.TRIP and altitude_ft < 0:
        raise RuleViolation("MAN-12", f"altitude cannot be negative ({altitude_ft} ft)")


def attempt(
    kind: Maneuver | str,
    attacker: Creature,
    defender: Creature,
    weapon: Weapon | str | None,
    dice: DiceSource,
    *,
    extra_terms: tuple[Term, ...] = (),
    ac_terms: tuple[Term, ...] = (),
    condition: str | None = None,
    range_ft: int = 0,
    item: str | None = None,
    catch: bool = True,
    obj: ObjectState | None = None,
    free_hand: bool = True,
    holding: str | None = None,
    full_action: bool = False,
    altitude_ft: int = 0,
    zero_gravity: bool = False,
    forced_movement_provokes: bool = FORCED_MOVEMENT_PROVOKES,
    mode: RollMode = NORMAL,
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> ManeuverResult:
    """Resolve one combat maneuver of ``kind`` by ``attacker`` against ``defender`` (see the module docstring).

    ``weapon``: the melee weapon used (a name, a Weapon, or None for an unarmed strike). ``extra_terms`` are
    attack terms from the surroundings (flanking +2...), ``ac_terms`` KAC terms (cover...).

    Per kind: ``condition`` the dirty trick's choice, ``range_ft`` the distance of a ranged dirty trick (0:
    melee); ``item`` the item to knock away (disarm) or to take on renewing a grapple, ``catch`` whether a
    disarmer with a free hand grabs it; ``obj`` the object to sunder; ``free_hand`` whether the attacker has a
    hand free (grapple, catching); ``holding`` the id of the creature the attacker already grapples;
    ``full_action`` for a reposition that drags; ``altitude_ft`` how high a flying trip target is (0: on the
    ground) and ``zero_gravity``; ``forced_movement_provokes`` the MAN-13 switch."""
    try:
        kind = Maneuver(kind)
    except ValueError:
        known = ", ".join(k.value for k in Maneuver)
        raise RuleViolation("MAN-01", f"{kind!r} is not a combat maneuver ({known})") from None
    wpn = _weapon(attacker, weapon)
    _check_request(
        kind, attacker, defender, wpn, condition=condition, range_ft=range_ft, item=item, obj=obj,
        free_hand=free_hand, holding=holding, altitude_ft=altitude_ft,
    )  # fmt: skip
    if kind is Maneuver.DISARM and item is None:
        item = _default_item(defender)

    reversal = kind is Maneuver.GRAPPLE and grappled_by(attacker) == defender.id
    renewal = kind is Maneuver.GRAPPLE and not reversal and grappled_by(defender) == attacker.id
    tags = frozenset({"maneuver"} | ({"grapple_or_escape"} if reversal else set()))
    target = maneuver_target(defender, ac_terms=ac_terms, options=options)
    terms = list(extra_terms)
    terms += attack_terms_against(attacker, defender, wpn, options)
    if range_ft:
        pen = RANGED_DIRTY_TRICK_PENALTY * (range_ft // 5)
        terms.append(Term(-pen, f"dirty trick at {range_ft} ft", "MAN-03"))
    bonus = stats.attack_bonus(attacker, wpn, tags=tags, extra=terms, options=options)
    roll = resolve(
        CheckKind.ATTACK, bonus, target.total, dice, purpose=f"{attacker.name} {kind} ({wpn.name})", mode=mode
    )
    ok = roll.success
    n = steps(roll.total, target.total, ok)
    rule = _RULE[kind]
    a, d = attacker.name, defender.name
    what = "grapple back" if reversal else ("renew the grapple on" if renewal else f"{kind}")
    lines = [
        f"{a} attempts to {what} {d} with {wpn.name} [{rule}]",
        f"  Target: {target.describe()}",
        *(f"    (not counted: {s.term.describe()} - {s.reason})" for s in target.suppressed),
        f"  Attack: {bonus.describe()}",
        *(f"    (not counted: {s.term.describe()} - {s.reason})" for s in bonus.suppressed),
        f"  Roll: {roll.describe()}" + (f" - {roll.note}" if roll.note else ""),
    ]
    base = ManeuverResult(kind, attacker, defender, wpn, target, roll, ok, n, ())

    def done(**fields: Any) -> ManeuverResult:
        return replace(base, lines=tuple(lines), **fields)

    if not ok:
        why = f" ({roll.automatic})" if roll.automatic else ""
        lines.append(f"  Result: failure{why} [MAN-01]")
        if renewal:
            lines.append(f"{a} does not renew the grapple: it ends at the end of {a}'s turn [MAN-07]")
        return done(renewal=renewal)
    over = f", {n} extra step{'s' if n != 1 else ''}" if n else ""
    why = f" ({roll.automatic})" if roll.automatic else ""
    lines.append(f"  Result: success{why}, beats {target.total} by {roll.total - target.total}{over} [MAN-01]")

    def gain(who: Creature, inst: ConditionInstance, text: str, r: str) -> tuple[Creature, ConditionInstance | None]:
        if cond.is_immune(who, inst.name):
            lines.append(f"{who.name} is immune to {inst.name} [{r}]")
            return who, None
        lines.append(text)
        return cond.add_condition(who, inst), inst

    provokes = forced_movement_provokes
    provoke_note = "provokes" if provokes else "does not provoke"
    if kind is Maneuver.BULL_RUSH:
        dist = STEP_FT * (1 + n)
        lines.append(f"{d} is pushed {dist} ft {BULL_RUSH_DIRECTION}, stopping at any obstacle [MAN-02]")
        lines.append(f"being pushed {provoke_note} attacks of opportunity [MAN-13]")
        return done(distance_ft=dist, direction=BULL_RUSH_DIRECTION, provokes=provokes)

    if kind is Maneuver.DIRTY_TRICK:
        assert condition is not None
        name = cond.get(condition).name
        rounds = 1 + n
        inst = ConditionInstance(name=name, source=f"{DIRTY_TRICK_SOURCE}: {attacker.id}", rounds=rounds)
        text = f"{d} is {name} for {rounds} round{'s' if rounds != 1 else ''} (a move action removes it) [MAN-03]"
        after, got = gain(defender, inst, text, "MAN-03")
        return done(defender=after, condition=got)

    if kind is Maneuver.DISARM:
        assert item is not None
        to = "attacker" if free_hand and catch else "ground"
        where = f"{a} catches it" if to == "attacker" else f"it falls in {d}'s square"
        lines.append(f"{d} loses {item}: {where} [MAN-04]")
        return done(item=item, item_to=to)

    if kind is Maneuver.GRAPPLE:
        pin = pin_target(defender, ac_terms=ac_terms, options=options)
        pinned = roll.total >= pin.total
        name = "pinned" if pinned else "grappled"
        if pinned:
            lines.append(f"  {roll.total} also reaches {pin.describe()}: pinned [MAN-06]")
        if reversal:
            freed = release(attacker, defender.id)
            lines.append(f"{a} breaks {d}'s hold and grapples {d} in turn [MAN-08]")
            inst = ConditionInstance(name=name, source=attacker.id)
            after, got = gain(defender, inst, f"{d} is {name} until the end of {a}'s next turn [MAN-07]", "MAN-05")
            return done(
                attacker=freed, defender=after, condition=got, pinned=pinned and got is not None,
                expires="turn_end" if got else None, expires_anchor=attacker.id if got else "", reversed=True,
            )  # fmt: skip
        held = release(defender, attacker.id)
        if renewal and item is not None:
            lines.append(f"{a} renews the grapple and takes {item} from {d}: the grapple ends [MAN-07]")
            return done(defender=held, renewal=True, grapple_ended=True, item=item, item_to="attacker")
        inst = ConditionInstance(name=name, source=attacker.id)
        verb = "renewed: " if renewal else ""
        text = f"{verb}{d} is {name} until the end of {a}'s next turn; {a} is not grappled [MAN-07]"
        after, got = gain(held, inst, text, "MAN-05")
        return done(
            defender=after if got else defender, condition=got, pinned=pinned and got is not None,
            expires="turn_end" if got else None, expires_anchor=attacker.id if got else "", renewal=renewal,
        )  # fmt: skip

    if kind is Maneuver.REPOSITION:
        dist = STEP_FT * (1 + n)
        lines.append(f"{a} may move {d} up to {dist} ft, staying within {a}'s reach, not past obstacles [MAN-09]")
        lines.append(f"being moved {provoke_note} attacks of opportunity [MAN-13]")
        drag = 0
        if full_action:
            speed = stats.speed(attacker).total
            drag = min(dist, speed)
            lines.append(
                f"as a full action {a} may then move up to {drag} ft (the distance moved, at most its speed "
                f"{speed} ft), dragging {d} along within reach; the drag provokes nothing for {d} [MAN-10]"
            )
        return done(distance_ft=dist, drag_ft=drag, provokes=provokes)

    if kind is Maneuver.SUNDER:
        assert obj is not None
        dmg_bonus = stats.damage_bonus(attacker, wpn, options=options)
        droll = damage.roll_damage(
            wpn.damage_expr, dmg_bonus, dice, nonlethal=wpn.nonlethal, purpose=f"{a} sunder damage ({wpn.name})",
            options=options,
        )  # fmt: skip
        lines += [f"  {line.describe()}" for line in droll.ledger]
        hurt = damage_object(obj, droll.total, attended=True, affects_objects=True)
        lines.append(f"{a} strikes {d}'s {obj.name}: {droll.total} damage, less hardness {obj.hardness} [MAN-11]")
        lines += list(hurt.lines)
        return done(item=obj.name, object_damage=hurt, damage_roll=droll)

    # trip
    if zero_gravity:
        inst = ConditionInstance(name="off-kilter", source=attacker.id)
        after, got = gain(defender, inst, f"{d} is tripped in zero gravity: off-kilter [MAN-12]", "MAN-12")
        return done(defender=after, condition=got)
    if altitude_ft > 0:
        descent = min(TRIP_DESCENT_FT, altitude_ft)
        if altitude_ft > TRIP_DESCENT_FT:
            lines.append(f"{d} is flying: it descends {descent} ft (now {altitude_ft - descent} ft up) [MAN-12]")
            return done(descent_ft=descent)
        inst = ConditionInstance(name="prone", source=attacker.id)
        text = f"{d} is flying: it descends {descent} ft to the ground and falls prone [MAN-12]"
        after, got = gain(defender, inst, text, "MAN-12")
        return done(defender=after, condition=got, descent_ft=descent)
    inst = ConditionInstance(name="prone", source=attacker.id)
    after, got = gain(defender, inst, f"{d} is knocked prone [MAN-12]", "MAN-12")
    return done(defender=after, condition=got)
