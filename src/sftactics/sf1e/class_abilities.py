"""Class abilities written as stat-block abilities (``sf1e.usable``): the numbers, checks and refusals that do not
depend on the map (issue 16). The encounter plays them in ``encounter.class_moves``.

The Core Rulebook's class chapter is outside the seeds (inventory X-04). What the engine needs of it is a few
general mechanisms, each a field of :class:`~sftactics.sf1e.usable.UsableAbility`:

* ``rider``: one attack with the user's own weapon, with a skill check first (DC ``dc_base`` + the target's
  CR), extra damage dice and the target flat-footed against that attack on a success, and an optional move
  before it (the operative's *trick attack*, CRB p. 93: a full action; 1d4 at 1st level, 1d8 at 3rd, 3d8 at 5th
  and 1d8 more every two levels after).
* ``mark``: a typed bonus the user's side gets on attack rolls against one foe until the start of the user's
  next turn (the envoy's *get 'em*, CRB p. 63: a move action, a foe within 60 ft, +1 morale, +1 more at 5th
  level and every 4 levels after).
* ``resolve_cost`` with ``heal`` and ``target`` ``self``/``ally``/``allies``: Resolve Points spent for healing
  (the healer mystic's *healing channel*, CRB p. 85: 1 RP; the user as a move action, an ally touched as a
  standard action, every ally within 30 ft as a full action; 2d8 Hit Points, 2d8 more at 3rd level and every 3
  levels after).
* ``passive``: always-on numbers (a soldier's fighting style, e.g. *blitz*'s rapid response, CRB p. 113).

Rule ids: the class features are inventory X-04; flat-footed is CON-18, typed bonuses BON-01..13 (BON-13 names
get 'em's morale bonus).
"""

from __future__ import annotations

from fractions import Fraction

from sftactics.core.breakdown import BonusType, Term
from sftactics.core.check import CheckKind, resolve
from sftactics.core.errors import RuleViolation, SftError
from sftactics.dice.source import DiceSource
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats
from sftactics.sf1e.statblock import StatBlock, Weapon
from sftactics.sf1e.state import Creature
from sftactics.sf1e.usable import UsableAbility, UsableCheck, UsableRider

#: the inventory's id for class features named in chapter 8 but defined in the class chapter
CLASS_RULE = "X-04"
#: flat-footed's AC penalty (CON-18)
FLAT_FOOTED_AC = -2
FLAT_FOOTED_RULE = "CON-18"


def flat_footed_term(name: str) -> Term:
    """The -2 AC of a target flat-footed against ``name``'s attack: the flat-footed condition's own penalty
    (source "flat-footed"), so it counts once beside the condition or an unseen attacker's (MOD-20, BON-12)."""
    return Term(FLAT_FOOTED_AC, f"flat-footed against {name}", FLAT_FOOTED_RULE, source="flat-footed")


def trick_attack_dice(level: int) -> str:
    """The operative's trick attack damage at ``level`` (CRB p. 93, the operative table)."""
    if level < 3:
        return "1d4"
    if level < 5:
        return "1d8"
    return f"{3 + (level - 5) // 2}d8"


def get_em_bonus(level: int) -> int:
    """The envoy's get 'em bonus at ``level`` (CRB p. 63): +1, +1 more at 5th level and every 4 levels after."""
    return 1 + max(0, (level - 1) // 4)


def healing_channel_dice(level: int) -> str:
    """The healer mystic's healing channel at ``level`` (CRB p. 85): 2d8, 2d8 more at 3rd and every 3 levels."""
    return f"{2 * (1 + level // 3)}d8"


def passive_terms(stat: StatBlock, selectors: frozenset[str]) -> list[Term]:
    """The always-on numbers of the stat block's passive abilities that change one of ``selectors``."""
    out: list[Term] = []
    for ab in stat.specials:
        for p in ab.passive:
            if p.selector in selectors:
                out.append(Term(p.value, ab.name, CLASS_RULE, BonusType(p.type), ab.name, frozenset(p.when)))
    return out


def check_dc(check: UsableCheck, target: Creature) -> tuple[int, tuple[Term, ...]]:
    """The DC of a rider's skill check: ``dc_base`` + the target's CR (its level for a character). A CR below 1
    (1/2, 1/3...) adds nothing: the DC is a whole number and the table's fractions are below 1."""
    cr = target.stat.cr_value if target.stat.cr is not None else Fraction(target.stat.effective_level)
    add = int(cr) if cr >= 1 else 0
    terms = (
        Term(check.dc_base, "base DC", CLASS_RULE),
        Term(add, f"{target.name}'s CR {target.stat.cr or add}", CLASS_RULE),
    )
    return check.dc_base + add, terms


def best_skill(user: Creature, check: UsableCheck) -> str:
    """The skill the user rolls for ``check``: its highest printed total among those allowed (first on ties)."""
    return max(check.skills, key=lambda s: (user.stat.skills.get(s, -99), -check.skills.index(s)))


def check_rider_weapon(ab: UsableAbility, rider: UsableRider, weapon: Weapon) -> None:
    """Refuse a weapon the rider cannot be used with (trick attack: a melee weapon with the operative property
    or a small arm, never an unwieldy one)."""
    if weapon.unwieldy:
        raise RuleViolation(CLASS_RULE, f"{ab.name} cannot be used with {weapon.name}: it is unwieldy")
    if rider.weapons == "operative_or_small_arm":
        ok = weapon.category == "small_arm" or (weapon.is_melee and weapon.operative)
        if not ok:
            why = f"{ab.name} needs a small arm or a melee weapon with the operative property, not {weapon.name}"
            raise RuleViolation(CLASS_RULE, why)
    if weapon.area is not None or weapon.is_grenade:
        raise RuleViolation(CLASS_RULE, f"{ab.name} needs a weapon that makes an attack roll, not {weapon.name}")


def with_extra_damage(weapon: Weapon, dice: str) -> Weapon:
    """``weapon`` dealing ``dice`` more of its own damage type(s) (doubled with it on a critical hit)."""
    text = weapon.damage.strip()
    parts = text.split(" ", 1)
    head, types = (parts[0], " " + parts[1]) if len(parts) > 1 else (text, "")
    return weapon.model_copy(update={"damage": f"{head}+{dice}{types}"})


def mark_label(ab: UsableAbility, user: str, foe: str) -> str:
    return f"{ab.name} ({user}) against {foe}"


def target_tag(target_id: str) -> str:
    """The situation tag an attack on ``target_id`` carries, which a mark's bonus needs."""
    return f"target:{target_id}"


def check_resolve(user: Creature, ab: UsableAbility) -> None:
    """Refuse an ability whose Resolve cost the user cannot pay."""
    if ab.resolve_cost and user.state.rp < ab.resolve_cost:
        raise RuleViolation(
            CLASS_RULE, f"{user.name} has {user.state.rp} Resolve Points: {ab.name} costs {ab.resolve_cost}"
        )


def rider_attack(
    user: Creature, target: Creature, name: str, weapon: Weapon, dice: DiceSource
) -> tuple[Weapon, tuple[Term, ...], list[str]]:
    """The attack ``user``'s rider ability ``name`` makes with ``weapon`` on ``target`` away from a map (the
    ``attack`` command): its skill check, then the weapon with the extra dice and the AC terms on a success, and
    the lines that explain the check."""
    ab = next((a for a in user.stat.specials if a.name.lower() == name.lower()), None)
    if ab is None or ab.rider is None:
        riders = ", ".join(a.name for a in user.stat.specials if a.rider is not None) or "none"
        raise SftError(f"{user.name} has no attack-rider ability named {name!r} (has: {riders})")
    rider = ab.rider
    check_rider_weapon(ab, rider, weapon)
    lines: list[str] = []
    if rider.check is not None:
        skill = best_skill(user, rider.check)
        dc, terms = check_dc(rider.check, target)
        r = resolve(CheckKind.SKILL, stats.skill_bonus(user, skill), dc, dice, purpose=f"{ab.name} ({skill})")
        lines.append(f"{ab.name}: {skill} check against DC {dc} ({' '.join(t.describe() for t in terms)})")
        lines.append(f"  Roll: {r.describe()}" + ("" if r.success else " (a plain attack: no extra damage)"))
        if not r.success:
            return weapon, (), lines
    used = with_extra_damage(weapon, rider.extra_damage) if rider.extra_damage else weapon
    ac: tuple[Term, ...] = ()
    if rider.flat_footed and "flat-footed" not in cond.active(target):
        ac = (flat_footed_term(ab.name),)
    return used, ac, lines


def describe(ab: UsableAbility) -> str:
    """One line for people: what the stat-block ability does, with its numbers."""
    head: list[str] = [ab.kind]
    if ab.target != "passive":
        head.append(f"{ab.action} action")
    if ab.resolve_cost:
        head.append(f"{ab.resolve_cost} RP")
    if ab.uses is not None:
        head.append(f"{ab.uses} uses" + (f" ({ab.pool})" if ab.pool else ""))
    parts: list[str] = []
    if ab.rider is not None:
        r = ab.rider
        if r.move:
            parts.append("move up to its speed, then")
        what = (
            "attack with a small arm or an operative melee weapon"
            if r.weapons == "operative_or_small_arm"
            else ("attack with a weapon")
        )
        parts.append(what)
        if r.check is not None:
            parts.append(
                f"after {' or '.join(r.check.skills)} against DC {r.check.dc_base} + the target's CR; on a success"
            )
        if r.extra_damage:
            parts.append(f"+{r.extra_damage} damage")
        if r.flat_footed:
            parts.append("and the target flat-footed against it")
    if ab.mark is not None:
        reach = f" within {ab.range_ft} ft" if ab.range_ft else ""
        parts.append(
            f"+{ab.mark.bonus} {ab.mark.type} to its side's attack rolls against one foe{reach} until the "
            "start of its next turn"
        )
    if ab.heal is not None:
        who = {
            "self": "itself",
            "allies": f"every ally within {ab.range_ft} ft",
            "ally": "an ally" + (" touched" if ab.range_ft == 0 else f" within {ab.range_ft} ft"),
        }.get(ab.target, ab.target)
        parts.append(f"heals {ab.heal} to {who}")
    if ab.damage is not None:
        parts.append(f"{ab.damage} damage" + (f", {ab.save.type} DC {ab.save.dc} {ab.save.on_save}" if ab.save else ""))
    for p in ab.passive:
        parts.append(f"{p.value:+d} {p.selector}" + (f" ({p.type})" if p.type != "untyped" else ""))
    return f"{ab.name} ({', '.join(head)}): {' '.join(parts) or 'see its source'}"


__all__ = [
    "CLASS_RULE",
    "FLAT_FOOTED_AC",
    "FLAT_FOOTED_RULE",
    "best_skill",
    "check_dc",
    "check_resolve",
    "check_rider_weapon",
    "describe",
    "flat_footed_term",
    "get_em_bonus",
    "healing_channel_dice",
    "mark_label",
    "passive_terms",
    "rider_attack",
    "target_tag",
    "trick_attack_dice",
    "with_extra_damage",
]
