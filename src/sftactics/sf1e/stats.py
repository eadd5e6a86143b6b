"""Derived numbers of a creature, each a :class:`~sftactics.core.breakdown.Breakdown`.

The declared order: ability modifiers (scores, drain, damage, penalties, helpless Dex) come first; AC, attack,
damage, saves, initiative, pools and speed are built from them and from the conditions in force.
"""

from __future__ import annotations

from collections.abc import Iterable

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain
from sftactics.sf1e import conditions as cond
from sftactics.sf1e.modifiers import ActionLimits, terms_from_mods
from sftactics.sf1e.options import DEFAULT_OPTIONS, Sf1eOptions
from sftactics.sf1e.statblock import SAVE_ABILITY, Ability, Weapon, score_to_mod
from sftactics.sf1e.state import Creature

B = BonusType.BASE
NAMES = {"str": "Strength", "dex": "Dexterity", "con": "Constitution", "int": "Intelligence",
         "wis": "Wisdom", "cha": "Charisma"}  # fmt: skip


# ---------------------------------------------------------------- modifiers from conditions and levels
def condition_terms(c: Creature, selectors: Iterable[str], tags: frozenset[str] = frozenset()) -> list[Term]:
    """Terms from the conditions in force, negative levels (ABL-10) and the stat block's own modifiers."""
    sel = frozenset(selectors)
    out: list[Term] = []
    active = cond.active(c)
    suppressed = {s for d in active.values() for s in d.suppresses}
    for name, d in active.items():
        if name in suppressed:
            continue
        out += terms_from_mods(name, d.rule, d.mods, sel, tags)
    nl = negative_levels(c)
    if nl and sel & {"ac", "attack", "save", "ability_check", "skill"}:
        out.append(Term(-nl, f"{nl} negative level{'s' if nl > 1 else ''}", "ABL-10", source="negative levels"))
    for m in (*c.stat.modifiers, *c.state.modifiers):
        if m.selector in sel:
            out.append(Term(m.value, m.label, m.rule, BonusType(m.type), m.label, m.when))
    if c.stat.specials:  # passive class abilities (a fighting style's numbers, sf1e.class_abilities)
        from sftactics.sf1e.class_abilities import passive_terms

        out += passive_terms(c.stat, sel)
    return out


def negative_levels(c: Creature) -> int:
    return sum(n.count for n in c.state.negative_levels)


def morale_ok(c: Creature) -> bool:
    """Creatures without Intelligence cannot benefit from morale bonuses (BON-10)."""
    return c.stat.base_mod("int") is not None


# ---------------------------------------------------------------- abilities
def ability_score(c: Creature, ability: Ability, *, include_damage: bool = True) -> int | None:
    """Current score after drain (ABL-08) and, optionally, minus ability damage."""
    base = c.stat.base_score(ability)
    if base is None:
        return None
    s = base - c.state.ability_drain.get(ability, 0)
    if include_damage:
        s -= c.state.ability_damage.get(ability, 0)
    return s


def ability_mod(c: Creature, ability: Ability, *, pools: bool = False) -> Breakdown:
    """An ability modifier with its adjustments: drain lowers the score (ABL-08), every 2 points of damage
    or of ability penalty lower the modifier by 1 (ABL-01, ABL-07); a helpless or paralyzed creature's
    Dexterity modifier is -5 (CON-21, CON-27). With ``pools`` (for SP/RP), penalties and the helpless or
    paralyzed Dexterity are left out: pools drop only for damage and drain (ABL-04, ABL-05)."""
    label = f"{NAMES[ability]} modifier"
    base = c.stat.base_mod(ability)
    if base is None:
        return Breakdown(label, 0, ())
    if ability == "dex" and not pools and any(d.dex_zero for d in cond.active(c).values()):
        why = "helpless" if "helpless" in cond.active(c) else "paralyzed"
        return Breakdown(label, -5, (Term(-5, f"Dexterity treated as 0 ({why})", "CON-21", B),))
    terms = [Term(base, label, "GEN-02", B)]
    drain = c.state.ability_drain.get(ability, 0)
    if drain:
        score = c.stat.base_score(ability) or 0
        delta = score_to_mod(score - drain) - score_to_mod(score)
        terms.append(Term(delta, f"{NAMES[ability]} drain {drain}", "ABL-08", B))
    dmg = c.state.ability_damage.get(ability, 0)
    if dmg >= 2:
        terms.append(Term(-(dmg // 2), f"{NAMES[ability]} damage {dmg}", "ABL-01", B))
    pen = 0 if pools else c.state.ability_penalty.get(ability, 0)
    if pen >= 2:
        terms.append(Term(-(pen // 2), f"{NAMES[ability]} penalty {pen}", "ABL-07", B))
    return explain(label, terms)


def _ability_delta(c: Creature, ability: Ability) -> list[Term]:
    """For printed totals, which already include the undamaged modifier: only the change to it."""
    mod = ability_mod(c, ability)
    base = c.stat.base_mod(ability) or 0
    if mod.total == base:
        return []
    why = ", ".join(t.label for t in mod.applied if t.label != f"{NAMES[ability]} modifier")
    return [Term(mod.total - base, why or f"{NAMES[ability]} change", "ABL-03", B)]


# ---------------------------------------------------------------- armor class
def _armor_proficient(c: Creature) -> bool:
    return cond._proficient_armor(c)


def max_dex(c: Creature) -> int | None:
    """Maximum Dexterity bonus to AC: the armor's, lowered by encumbered (+2) or overburdened (+0)."""
    caps = [d.max_dex for d in cond.active(c).values() if d.max_dex is not None]
    if c.stat.armor is not None and c.stat.armor.max_dex is not None:
        caps.append(c.stat.armor.max_dex)
    return min(caps) if caps else None


def armor_class(
    c: Creature,
    which: str,
    *,
    vs: str | None = None,
    tags: frozenset[str] = frozenset(),
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> Breakdown:
    """EAC or KAC (ATK-06, ATK-07). ``vs`` is "melee" or "ranged" when the attack is known (prone, MOD-18)."""
    which = which.lower()
    label = which.upper()
    tags = tags | ({f"vs:{vs}"} if vs else set())
    terms: list[Term] = []
    dex = ability_mod(c, "dex")
    cap = max_dex(c)
    dex_value = dex.total if cap is None else min(dex.total, cap)
    stat = c.stat
    if stat.armor is None:
        printed = stat.eac if which == "eac" else stat.kac
        assert printed is not None
        terms.append(Term(printed, f"printed {label}", "ATK-06", B))
        base_dex = stat.base_mod("dex") or 0
        if dex_value != base_dex:
            terms.append(Term(dex_value - base_dex, "change to Dexterity bonus", "ABL-03", B))
    else:
        armor = stat.armor
        terms.append(Term(10, "base", "ATK-06", B))
        bonus = armor.eac if which == "eac" else armor.kac
        if armor.broken:
            terms.append(Term(bonus // 2, f"{armor.name} (broken: halved)", "CON-04", BonusType.ARMOR))
        elif bonus:
            terms.append(Term(bonus, armor.name, "BON-03", BonusType.ARMOR))
        capped = f" (capped at {cap})" if cap is not None and dex.total > cap else ""
        terms.append(Term(dex_value, f"Dexterity{capped}", "ATK-06", B))
        if not _armor_proficient(c):
            rule = "GEN-12" if armor.category == "powered" else "GEN-11"
            terms.append(Term(-4, "not proficient with armor", rule))
    sel = {"ac", which}
    terms += condition_terms(c, sel, tags)
    return explain(label, terms, tags=tags, morale_ok=morale_ok(c))


# ---------------------------------------------------------------- attacks and damage
def weapon_ability(weapon: Weapon) -> Ability:
    """Strength for melee and thrown weapons (grenades included), Dexterity for other ranged weapons
    (ATK-02..04); operative melee weapons use Dexterity (XREF weapon property)."""
    if weapon.ability:
        return weapon.ability
    if weapon.is_melee:
        return "dex" if weapon.operative else "str"
    if weapon.thrown or weapon.is_grenade:
        return "str"
    return "dex"


def attack_kind_tags(weapon: Weapon) -> frozenset[str]:
    tags = {"melee"} if weapon.is_melee else {"ranged"}
    if weapon.thrown or weapon.is_grenade:
        tags.add("thrown")
    return frozenset(tags)


def weapon_proficient(c: Creature, weapon: Weapon) -> bool:
    if weapon.proficient is not None:
        return weapon.proficient
    if weapon.category in ("natural", "unarmed"):
        return True  # everyone is proficient with their own natural weapons (GEN-13)
    prof = c.stat.proficiencies
    if prof is None:
        return True
    return weapon.category in prof.weapons


def attack_bonus(
    c: Creature,
    weapon: Weapon,
    *,
    tags: frozenset[str] = frozenset(),
    extra: Iterable[Term] = (),
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> Breakdown:
    """The attacker's side of an attack roll (ATK-02..04, GEN-13, ATK-19)."""
    tags = tags | attack_kind_tags(weapon)
    ability = weapon_ability(weapon)
    terms: list[Term] = []
    if weapon.attack_bonus is not None:
        terms.append(Term(weapon.attack_bonus, f"printed attack bonus ({weapon.name})", "ATK-01", B))
        terms += _ability_delta(c, ability)
    else:
        rule = "ATK-02" if weapon.is_melee else ("ATK-04" if "thrown" in tags else "ATK-03")
        terms.append(Term(c.stat.bab, "base attack bonus", rule, B))
        terms.append(Term(ability_mod(c, ability).total, f"{NAMES[ability]} modifier", rule, B))
    if not weapon_proficient(c, weapon):
        terms.append(Term(-4, "not proficient with weapon", "GEN-13"))
    if weapon.broken:
        terms.append(Term(-2, "broken weapon", "CON-04"))
    terms += condition_terms(c, {"attack"}, tags)
    terms += list(extra)
    return explain(f"attack bonus ({weapon.name})", terms, tags=tags, morale_ok=morale_ok(c))


def specialization_bonus(c: Creature, weapon: Weapon, options: Sf1eOptions = DEFAULT_OPTIONS) -> int:
    """Weapon Specialization (XREF, CRB p. 163): level to damage; half level with small arms and operative
    melee weapons. Only for characters flagged as specialized (option ``weapon_specialization``)."""
    if not (options.weapon_specialization and c.stat.weapon_specialization and c.stat.level):
        return 0
    if weapon.category in ("grenade", "natural", "unarmed") or weapon.attack_bonus is not None:
        return 0
    lvl = c.stat.level
    return lvl // 2 if weapon.category == "small_arm" or (weapon.is_melee and weapon.operative) else lvl


def damage_bonus(
    c: Creature, weapon: Weapon, *, tags: frozenset[str] = frozenset(), options: Sf1eOptions = DEFAULT_OPTIONS
) -> Breakdown:
    """Flat modifiers added to a weapon's damage roll (DMG-02, DMG-03): Strength for melee and thrown
    weapons (never grenades, never other ranged weapons), specialization, broken weapon, conditions."""
    tags = tags | attack_kind_tags(weapon)
    terms: list[Term] = []
    str_applies = (weapon.is_melee or weapon.thrown) and not weapon.is_grenade
    dex_applies = weapon.operative and weapon.is_melee and False  # operative Dex-to-damage needs a class feature
    if weapon.attack_bonus is not None:
        # printed damage already includes the creature's Strength; only changes to it count
        if str_applies:
            terms += _ability_delta(c, "str")
    else:
        if str_applies:
            terms.append(Term(ability_mod(c, "str").total, "Strength modifier", "DMG-02", B))
        if dex_applies:  # pragma: no cover - placeholder kept explicit
            terms.append(Term(ability_mod(c, "dex").total, "Dexterity modifier", "DMG-02", B))
        spec = specialization_bonus(c, weapon, options)
        if spec:
            terms.append(Term(spec, "weapon specialization", "GEN-14"))
    if weapon.broken:
        terms.append(Term(-2, "broken weapon", "CON-04"))
    dmg_tags = tags | {"weapon"}
    if options.fatigued_thrown_damage:
        dmg_tags |= {"fatigued_thrown"}
    terms += condition_terms(c, {"damage"}, dmg_tags)
    return explain(f"damage bonus ({weapon.name})", terms, tags=dmg_tags, morale_ok=morale_ok(c))


# ---------------------------------------------------------------- saves, initiative, checks
def save_bonus(
    c: Creature, save: str, *, tags: frozenset[str] = frozenset(), options: Sf1eOptions = DEFAULT_OPTIONS
) -> Breakdown:
    """A saving throw bonus (SV-01, SV-12): printed total or base save + ability, then conditions."""
    ability = SAVE_ABILITY[save]
    label = {"fort": "Fortitude", "ref": "Reflex", "will": "Will"}[save]
    terms: list[Term] = []
    if c.stat.saves is not None:
        terms.append(Term(c.stat.saves.get(save), f"printed {label}", "SV-01", B))
        terms += _ability_delta(c, ability)
    else:
        assert c.stat.base_saves is not None
        terms.append(Term(c.stat.base_saves.get(save), f"base {label}", "BON-04", B))
        terms.append(Term(ability_mod(c, ability).total, f"{NAMES[ability]} modifier", "SV-01", B))
    terms += condition_terms(c, {"save", f"save.{save}"}, tags)
    return explain(f"{label} save", terms, tags=tags, morale_ok=morale_ok(c))


def initiative(c: Creature, options: Sf1eOptions = DEFAULT_OPTIONS) -> Breakdown:
    """Initiative modifier (CF-03): printed, or Dexterity modifier plus other bonuses; condition penalties."""
    terms: list[Term] = []
    if c.stat.initiative is not None:
        terms.append(Term(c.stat.initiative, "printed initiative", "CF-03", B))
        terms += _ability_delta(c, "dex")
    else:
        terms.append(Term(ability_mod(c, "dex").total, "Dexterity modifier", "CF-03", B))
        if c.stat.initiative_bonus:
            terms.append(Term(c.stat.initiative_bonus, "initiative bonuses", "CF-03"))
    sel = {"initiative"} | ({"ability_check"} if options.initiative_is_ability_check else set())
    tags = frozenset({"ability:dex"})
    terms += condition_terms(c, sel, tags)
    return explain("initiative", terms, tags=tags, morale_ok=morale_ok(c))


def ability_check_bonus(c: Creature, ability: Ability, tags: frozenset[str] = frozenset()) -> Breakdown:
    """An ability check (GEN-02): d20 + the ability modifier + condition modifiers."""
    tags = tags | {f"ability:{ability}"}
    terms = [Term(ability_mod(c, ability).total, f"{NAMES[ability]} modifier", "GEN-02", B)]
    terms += condition_terms(c, {"ability_check"}, tags)
    return explain(f"{NAMES[ability]} check", terms, tags=tags, morale_ok=morale_ok(c))


def skill_bonus(
    c: Creature, skill: str, *, bonus: int | None = None, ability: Ability | None = None,
    tags: frozenset[str] = frozenset(),
) -> Breakdown:  # fmt: skip
    """A skill check with a supplied (or printed) bonus, plus condition modifiers (X-05)."""
    tags = tags | {f"skill:{skill}"} | ({f"ability:{ability}"} if ability else set())
    base = bonus if bonus is not None else c.stat.skills.get(skill, 0)
    terms = [Term(base, f"{skill} bonus", "GEN-01", B)]
    if ability and bonus is None and c.stat.skills.get(skill) is not None:
        terms += _ability_delta(c, ability)
    terms += condition_terms(c, {"skill"}, tags)
    return explain(f"{skill} check", terms, tags=tags, morale_ok=morale_ok(c))


# ---------------------------------------------------------------- pools
def max_hp(c: Creature) -> Breakdown:
    """Maximum HP: the stat block's, -5 per negative level (ABL-10)."""
    terms = [Term(c.stat.hp, "maximum Hit Points", "INJ-01", B)]
    nl = negative_levels(c)
    if nl:
        terms.append(Term(-5 * nl, f"{nl} negative level(s)", "ABL-10", B))
    return explain("maximum HP", terms)


def max_sp(c: Creature) -> Breakdown:
    """Maximum SP: -5 per negative level (ABL-10); -level per point of Constitution modifier lost to damage
    or drain (ABL-04: 4th level, 5 Con damage = -8 SP)."""
    terms = [Term(c.stat.sp, "maximum Stamina Points", "INJ-01", B)]
    if c.stat.sp:
        nl = negative_levels(c)
        if nl:
            terms.append(Term(-5 * nl, f"{nl} negative level(s)", "ABL-10", B))
        lost = (c.stat.base_mod("con") or 0) - ability_mod(c, "con", pools=True).total
        if lost > 0:
            terms.append(Term(-lost * c.stat.effective_level, "Constitution damage/drain", "ABL-04", B))
    bd = explain("maximum SP", terms)
    return bd if bd.total >= 0 else explain("maximum SP", [*bd.applied, Term(-bd.total, "floor 0", "", B)])


def max_rp(c: Creature) -> Breakdown:
    """Maximum RP: -1 per point of key ability modifier lost to damage or drain (ABL-05)."""
    terms = [Term(c.stat.rp, "maximum Resolve Points", "INJ-01", B)]
    key = c.stat.key_ability
    if key and c.stat.rp:
        lost = (c.stat.base_mod(key) or 0) - ability_mod(c, key, pools=True).total
        if lost > 0:
            terms.append(Term(-min(lost, c.stat.rp), f"{NAMES[key]} (key ability) damage/drain", "ABL-05", B))
    return explain("maximum RP", terms)


# ---------------------------------------------------------------- actions and speed
def action_limits(c: Creature) -> ActionLimits:
    """What the creature may do this turn, combining every condition (most severe wins, CON-00)."""
    out = ActionLimits()
    for d in cond.active(c).values():
        out = out & d.actions
    return out


def is_flat_footed(c: Creature) -> bool:
    return "flat-footed" in cond.active(c)


def can_react(c: Creature) -> bool:
    return action_limits(c).reaction


#: The order in which a creature without a land speed picks the speed it gets around with.
_OTHER_MODES = ("fly", "swim", "climb", "burrow")


def move_mode(c: Creature) -> str:
    """How the creature gets around: on land if it has a land speed, otherwise by its first other speed
    (fly, swim, climb, burrow), as a flying or swimming creature does (MOV-05, MOV-29..35)."""
    speeds = c.stat.speed
    if speeds.get("land", 0) > 0:
        return "land"
    return next((m for m in _OTHER_MODES if speeds.get(m, 0) > 0), "land")


def speed(c: Creature, mode: str | None = None) -> Breakdown:
    """A speed in feet (MOV-06) in ``mode`` (default: the way the creature gets around, :func:`move_mode`):
    armor adjustment and -10 ft (encumbered) first, then one halving however many conditions halve it (GEN-04),
    then the fixed 5 ft (overburdened) or 0 (can't move)."""
    if mode is None:
        mode = move_mode(c)
    base = c.stat.speed.get(mode, 0)
    terms: list[Term] = [Term(base, f"{mode} speed", "MOV-05", B)]
    if c.stat.armor is not None and c.stat.armor.speed_adjust and mode == "land":
        terms.append(Term(c.stat.armor.speed_adjust, f"{c.stat.armor.name}", "MOV-05", B))
    if c.stat.specials and base > 0:  # a passive ability's speed bonus (sf1e.class_abilities)
        from sftactics.sf1e.class_abilities import passive_terms

        passive = passive_terms(c.stat, frozenset({f"speed.{mode}"}))
        terms += [Term(t.value, t.label, t.rule, B, t.source) for t in passive]
    effects = {d.name: d.speed for d in cond.active(c).values() if d.speed}
    if c.stat.armor is not None and c.stat.armor.category == "powered" and not _armor_proficient(c):
        effects["non-proficient powered armor"] = "half"
    value = sum(t.value for t in terms)
    for name, e in effects.items():
        if e == "minus10":
            terms.append(Term(-10, name, "CON-13", B))
            value -= 10
    value = max(value, 0)
    halvers = [n for n, e in effects.items() if e == "half"]
    if halvers and value:
        halved = (value // 2) // 5 * 5
        terms.append(Term(halved - value, f"half speed ({', '.join(sorted(halvers))})", "MOV-06", B))
        value = halved
    fives = [n for n, e in effects.items() if e == "five"]
    if fives and value > 5:
        terms.append(Term(5 - value, f"speed 5 ft ({', '.join(fives)})", "CON-25", B))
        value = 5
    zeros = [n for n, e in effects.items() if e == "zero"]
    if zeros and value:
        rule = "CON-20" if "grappled" in zeros else cond.get(sorted(zeros)[0]).rule  # the condition that holds it
        terms.append(Term(-value, f"cannot move ({', '.join(sorted(zeros))})", rule, B))
    return explain(f"{mode} speed", terms)
