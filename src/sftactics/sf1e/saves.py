"""Saving throws and DCs (SV-01..12).

DC formulas (SV-03..06) are pure functions returning Breakdowns; :func:`saving_throw` rolls a save with
natural 1/20 (SV-02) and :func:`save_outcome` tells what a success or failure means for each kind of save
line (SV-09), including half damage rounded down (DMG-14, GEN-03); :func:`riders_apply` whether the effect's
conditions come with it. A partial save's lesser effect is half damage without the conditions: the explode
property's reading (a success halves the damage and negates the special effects), used for every area and
ability described with ``on_save: partial``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain, half
from sftactics.core.check import NORMAL, CheckKind, CheckResult, RollMode, resolve
from sftactics.dice.source import DiceSource
from sftactics.sf1e import stats
from sftactics.sf1e.options import DEFAULT_OPTIONS, Sf1eOptions
from sftactics.sf1e.state import Creature

B = BonusType.BASE
SaveEffect = Literal["none", "negates", "partial", "half", "disbelieves", "harmless"]


def class_feature_dc(class_level: int, key_ability_mod: int) -> Breakdown:
    """10 + half class level (rounded down) + key ability modifier (SV-03)."""
    return explain(
        "class feature DC",
        [
            Term(10, "base", "SV-03", B),
            Term(half(class_level), f"half class level {class_level}", "SV-03", B),
            Term(key_ability_mod, "key ability modifier", "SV-03", B),
        ],
    )


def spell_dc(spell_level: int, key_ability_mod: int) -> Breakdown:
    """10 + spell level + key ability modifier (SV-04)."""
    return explain(
        "spell DC",
        [
            Term(10, "base", "SV-04", B),
            Term(spell_level, "spell level", "SV-04", B),
            Term(key_ability_mod, "key ability modifier", "SV-04", B),
        ],
    )


def special_ability_dc(level: int, ability_mod: int) -> Breakdown:
    """Extraordinary and supernatural abilities: 10 + half level + the relevant ability modifier (SV-05)."""
    return explain(
        "special ability DC",
        [
            Term(10, "base", "SV-05", B),
            Term(half(level), f"half level {level}", "SV-05", B),
            Term(ability_mod, "ability modifier", "SV-05", B),
        ],
    )


def spell_like_dc(spell_level: int, cha_mod: int) -> Breakdown:
    """Spell-like abilities: 10 + spell level + Charisma modifier (SV-06)."""
    return explain(
        "spell-like ability DC",
        [
            Term(10, "base", "SV-06", B),
            Term(spell_level, "spell level", "SV-06", B),
            Term(cha_mod, "Charisma modifier", "SV-06", B),
        ],
    )


def item_dc(printed: int, *, wielder_proficient: bool = True) -> Breakdown:
    """An item's printed DC; -4 when the wielder is not proficient with the weapon (SV-07, GEN-13)."""
    terms = [Term(printed, "printed DC", "SV-07", B)]
    if not wielder_proficient:
        terms.append(Term(-4, "wielder not proficient", "GEN-13"))
    return explain("item DC", terms)


def object_save_bonus(item_level: int, holder_bonus: int | None = None) -> Breakdown:
    """An object's save bonus is its item level; a held or worn object uses its holder's bonus if better
    (SV-11)."""
    if holder_bonus is not None and holder_bonus > item_level:
        return explain("object save", [Term(holder_bonus, "holder's save bonus", "SV-11", B)])
    return explain("object save", [Term(item_level, "item level", "SV-11", B)])


def object_gets_save(item_level: int, attended: bool) -> bool:
    """Unattended objects of item level 0 get no save (SV-11)."""
    return attended or item_level > 0


def saving_throw(
    creature: Creature,
    save: str,
    dc: int,
    dice: DiceSource,
    *,
    tags: frozenset[str] = frozenset(),
    extra: tuple[Term, ...] = (),
    mode: RollMode = NORMAL,
    options: Sf1eOptions = DEFAULT_OPTIONS,
) -> CheckResult:
    """Roll a saving throw (SV-01, SV-02). ``extra`` adds situational terms (cover's Reflex bonus...)."""
    bonus = stats.save_bonus(creature, save, tags=tags, options=options)
    if extra:
        bonus = bonus.plus(*extra, tags=tags)
    return resolve(CheckKind.SAVE, bonus, dc, dice, purpose=f"{creature.name} {save} save", mode=mode)


@dataclass(frozen=True, slots=True)
class SaveOutcome:
    applies: bool  # whether the effect applies at all
    damage: int  # damage after the save
    note: str


def save_outcome(effect: SaveEffect, success: bool, damage: int = 0) -> SaveOutcome:
    """What a save result means (SV-09): negates, half (round down, DMG-14), partial, disbelieves..."""
    if effect == "none":
        return SaveOutcome(True, damage, "no save allowed")
    if not success:
        return SaveOutcome(True, damage, "save failed: full effect")
    if effect == "half":
        return SaveOutcome(True, half(damage), f"save succeeded: half damage ({damage} -> {half(damage)})")
    if effect == "partial":
        # the lesser effect: half damage (as the explode property gives), and none of the effect's other
        # conditions, which the caller keeps off (``riders_apply``)
        return SaveOutcome(
            True, half(damage), f"save succeeded: the lesser effect, half damage ({damage} -> {half(damage)})"
        )
    if effect == "harmless":
        return SaveOutcome(False, 0, "save succeeded against a harmless effect: it does not apply")
    return SaveOutcome(False, 0, f"save succeeded: {effect}")


def riders_apply(effect: SaveEffect, success: bool) -> bool:
    """Whether an effect's conditions (the special effects of an explosion, an ability's riders) reach a
    creature (SV-09): always without a save; on a failed save; never on a successful one (negates, partial,
    half: the lesser effect keeps only the reduced damage)."""
    return effect == "none" or not success


def forgo_save(effect: SaveEffect, damage: int = 0) -> SaveOutcome:
    """A creature may choose not to save and accept the effect (SV-08)."""
    return SaveOutcome(True, damage, "save forgone: full effect")


def caster_learns_result(*, single_target: bool, obvious_effect: bool) -> bool:
    """Whether the creator of an effect learns that a target saved (SV-10): generally yes when the effect
    targeted that one creature, or when the effect shows visibly; not for area effects without a sign."""
    return single_target or obvious_effect


def target_senses_success(*, obvious_effect: bool) -> str:
    """What a creature that saved against an effect notices (SV-10)."""
    if obvious_effect:
        return "the effect is plain to see"
    return "a vague sense of a hostile force that failed"
