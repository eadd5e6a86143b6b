"""Defenses and the statistics that are rolled against them (E2-09, E2-15..18, E2-70).

Every statistic is a 2E :class:`~sftactics.core.breakdown.Breakdown`: base terms for the formula (attribute
modifier, proficiency bonus, the 10 of a DC), then the bonuses and penalties (conditions, situation), stacked by
:func:`sftactics.sf2e.modifiers.explain`.

* **AC** = 10 + Dex modifier (capped by the armor) + proficiency + armor bonus + modifiers (E2-15). The armor
  bonus is an item bonus by default (``Sf2eOptions.armor_bonus_is_item``).
* **Saving throws**: d20 + attribute + proficiency + modifiers; Fortitude uses Con, Reflex Dex, Will Wis; a save
  DC is 10 + the save modifier (E2-16, E2-09).
* **Basic saves** (E2-17): critical success no damage, success half, failure full, critical failure double.
* **Perception**: d20 + Wis + proficiency + modifiers; it also sets the initiative order (E2-18).
* **Spells** (E2-12, E2-70): spell attack = d20 + spellcasting attribute + proficiency + modifiers; spell DC = 10
  + the same. The attribute is the class's key attribute for class spells, Charisma for innate spells unless
  stated, and whatever a focus spell names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from sftactics.core.breakdown import Breakdown, Term
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.sf2e.checks import Check2e, roll_check
from sftactics.sf2e.conditions import condition_mods
from sftactics.sf2e.creature import Attribute, Creature2e
from sftactics.sf2e.degrees import Degree
from sftactics.sf2e.modifiers import Kind, base, dc_from, explain, mod, proficiency_term
from sftactics.sf2e.options import DEFAULT_OPTIONS, Sf2eOptions


def attribute_term(creature: Creature2e, a: Attribute, rule: str = "") -> Term:
    return base(creature.attribute(a), f"{a.value.capitalize()} modifier", rule)


def statistic(
    creature: Creature2e,
    label: str,
    selector: str,
    attribute_terms: Sequence[Term],
    proficiency_key: str,
    *,
    extra: Iterable[Term] = (),
    tags: frozenset[str] = frozenset(),
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> Breakdown:
    """A check modifier: attribute + proficiency + condition modifiers for ``selector`` + ``extra`` (E2-02)."""
    prof = proficiency_term(creature.rank(proficiency_key), creature.level, proficiency_key)
    terms = [*attribute_terms, prof, *condition_mods(creature, selector, options), *extra]
    return explain(label, terms, tags=tags, options=options)


# --- Armor Class (E2-15) ----------------------------------------------------------------------------------


def armor_class(
    creature: Creature2e,
    *,
    extra: Iterable[Term] = (),
    tags: frozenset[str] = frozenset(),
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> Breakdown:
    """AC = 10 + Dex (capped by armor) + proficiency + armor bonus + modifiers (E2-15)."""
    dex = creature.attribute(Attribute.DEX)
    cap = creature.dex_cap
    if cap is not None and dex > cap:
        dex_term = base(cap, f"Dex modifier {dex:+d}, capped at {cap:+d} by armor", "E2-15")
    else:
        dex_term = base(dex, "Dex modifier", "E2-15")
    terms: list[Term] = [
        base(10, "AC base", "E2-15"),
        dex_term,
        proficiency_term(creature.rank("ac"), creature.level, "armor"),
    ]
    if creature.armor_bonus:
        kind = Kind.ITEM if options.armor_bonus_is_item else Kind.BASE
        terms.append(mod(creature.armor_bonus, "armor", kind, "E2-15", source="armor"))
    terms += condition_mods(creature, "ac", options)
    return explain("AC", [*terms, *extra], tags=tags, options=options)


# --- saving throws (E2-16, E2-17) ---------------------------------------------------------------------------


class Save(StrEnum):
    FORTITUDE = "fortitude"
    REFLEX = "reflex"
    WILL = "will"


SAVE_ATTRIBUTE: dict[Save, Attribute] = {
    Save.FORTITUDE: Attribute.CON,
    Save.REFLEX: Attribute.DEX,
    Save.WILL: Attribute.WIS,
}

#: What each save is for (E2-16), as data for views and help.
SAVE_PURPOSE: dict[Save, str] = {
    Save.FORTITUDE: "bodily effects: poison, disease, physical trauma",
    Save.REFLEX: "avoidance: explosions, traps, quick reactions",
    Save.WILL: "mental and spiritual effects: fear, mind control, charm",
}


def save_modifier(
    creature: Creature2e,
    save: Save,
    *,
    extra: Iterable[Term] = (),
    tags: frozenset[str] = frozenset(),
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> Breakdown:
    """d20 + attribute (Con/Dex/Wis) + proficiency + modifiers (E2-16)."""
    a = SAVE_ATTRIBUTE[save]
    return statistic(
        creature,
        save.value.capitalize(),
        save.value,
        [attribute_term(creature, a, "E2-16")],
        save.value,
        extra=extra,
        tags=tags,
        options=options,
    )


def save_dc(creature: Creature2e, save: Save, *, options: Sf2eOptions = DEFAULT_OPTIONS) -> Breakdown:
    """10 + the save modifier (E2-16, E2-09)."""
    return dc_from(save_modifier(creature, save, options=options), f"{save.value.capitalize()} DC")


def saving_throw(
    creature: Creature2e,
    save: Save,
    dc: int | Breakdown,
    dice: DiceSource,
    *,
    extra: Iterable[Term] = (),
    tags: frozenset[str] = frozenset(),
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> Check2e:
    """Roll a saving throw against ``dc``."""
    m = save_modifier(creature, save, extra=extra, tags=tags, options=options)
    return roll_check(f"{creature.name}'s {m.label} save", m, dc, dice)


#: Basic save results as a damage multiplier (E2-17): (numerator, denominator).
BASIC_SAVE: dict[Degree, tuple[int, int]] = {
    Degree.CRITICAL_SUCCESS: (0, 1),
    Degree.SUCCESS: (1, 2),
    Degree.FAILURE: (1, 1),
    Degree.CRITICAL_FAILURE: (2, 1),
}


# --- Perception and initiative (E2-18) ------------------------------------------------------------------------


def perception(
    creature: Creature2e,
    *,
    extra: Iterable[Term] = (),
    tags: frozenset[str] = frozenset(),
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> Breakdown:
    """d20 + Wis + proficiency + modifiers (E2-18)."""
    return statistic(
        creature,
        "Perception",
        "perception",
        [attribute_term(creature, Attribute.WIS, "E2-18")],
        "perception",
        extra=extra,
        tags=tags,
        options=options,
    )


@dataclass(frozen=True, slots=True)
class InitiativeRoll:
    name: str
    player: bool
    modifier: Breakdown
    natural: int

    @property
    def total(self) -> int:
        return self.natural + self.modifier.total


def roll_initiative(
    creatures: Sequence[Creature2e], dice: DiceSource, *, options: Sf2eOptions = DEFAULT_OPTIONS
) -> tuple[InitiativeRoll, ...]:
    """Everyone rolls Perception; the order is highest total first (E2-18).

    Ties (a gap in the seed) follow ``options.initiative_ties``, then the higher Perception modifier, then the
    order given.
    """
    rolls = []
    for c in creatures:
        p = perception(c, options=options)
        rolls.append(InitiativeRoll(c.name, c.player, p, dice.d20(f"initiative ({c.name})")))
    first_pc = options.initiative_ties == "pc_first"
    order = sorted(
        range(len(rolls)),
        key=lambda i: (-rolls[i].total, rolls[i].player != first_pc, -rolls[i].modifier.total, i),
    )
    return tuple(rolls[i] for i in order)


def initiative_after_knockout(
    order: Sequence[str], who: str, knocked_out_by: str | None, *, options: Sf2eOptions = DEFAULT_OPTIONS
) -> tuple[str, ...]:
    """The initiative order after ``who`` is knocked out (E2-31): by default ``who`` moves to just before the
    creature that reduced it to 0 HP (``options.knockout_initiative``). With no such creature (an effect, or
    the knocked-out creature itself) the order stays."""
    if who not in order:
        raise RuleViolation("E2-31", f"{who} is not in the initiative order")
    if options.knockout_initiative == "unchanged" or knocked_out_by in (None, who):
        return tuple(order)
    if knocked_out_by not in order:
        raise RuleViolation("E2-31", f"{knocked_out_by} is not in the initiative order")
    rest = [n for n in order if n != who]
    i = rest.index(knocked_out_by)
    return (*rest[:i], who, *rest[i:])


# --- spells (E2-12, E2-70) ------------------------------------------------------------------------------------


class SpellSource(StrEnum):
    CLASS = "class"
    INNATE = "innate"
    FOCUS = "focus"


def spellcasting_attribute(
    source: SpellSource, *, key: Attribute | None = None, specified: Attribute | None = None
) -> Attribute:
    """Which attribute casts a spell (E2-70): the class key attribute (e.g. Wis for a mystic) for class spells,
    Charisma for innate spells unless another is stated, the stated one for focus spells."""
    if specified is not None:
        return specified
    if source is SpellSource.INNATE:
        return Attribute.CHA
    if source is SpellSource.CLASS and key is not None:
        return key
    raise RuleViolation("E2-70", f"a {source} spell needs its attribute named")


def spell_attack(
    creature: Creature2e,
    attribute: Attribute,
    *,
    extra: Iterable[Term] = (),
    tags: frozenset[str] = frozenset(),
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> Breakdown:
    """Spell attack modifier: spellcasting attribute + proficiency + modifiers (E2-12)."""
    return statistic(
        creature,
        "spell attack",
        "spell-attack",
        [attribute_term(creature, attribute, "E2-12")],
        "spell",
        extra=extra,
        tags=tags,
        options=options,
    )


def spell_dc(
    creature: Creature2e,
    attribute: Attribute,
    *,
    extra: Iterable[Term] = (),
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> Breakdown:
    """Spell DC = 10 + spellcasting attribute + proficiency + modifiers (E2-70)."""
    m = statistic(
        creature,
        "spell DC",
        "spell-dc",
        [attribute_term(creature, attribute, "E2-70")],
        "spell",
        extra=extra,
        options=options,
    )
    return dc_from(m, "spell DC", "E2-70")
