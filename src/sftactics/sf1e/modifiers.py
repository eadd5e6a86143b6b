"""Where modifiers come from, and which number each one changes.

A :class:`Mod` is a modifier declared as data: a *selector* names the number it changes and ``when`` /
``unless`` name the situations (tags) it applies in. Conditions (``conditions.py``), negative levels and a stat
block's own modifiers are all turned into :class:`~sftactics.core.breakdown.Term` objects here, and stacked in
one place (``core.breakdown.stack``).

Selectors
    ``ac`` (both ACs), ``eac``, ``kac``; ``attack`` (the creature's attack rolls, maneuvers included);
    ``attack_against`` (attack rolls made *against* the creature); ``damage`` (the creature's weapon damage
    rolls); ``save``, ``save.fort``, ``save.ref``, ``save.will``; ``initiative``; ``ability_check``; ``skill``.

Tags
    attacks and damage: ``melee``, ``ranged``, ``thrown``, ``maneuver``, ``grapple_or_escape``;
    AC: ``vs:melee``, ``vs:ranged``; checks: ``ability:str`` ... ``ability:cha``, ``skill:perception``,
    ``opposed``, ``sense:sight``, ``sense:sound``, ``passive``; saves: ``vs:death`` and other descriptors.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from sftactics.core.breakdown import BonusType, Term

SpeedEffect = Literal["half", "zero", "minus10", "five"]


@dataclass(frozen=True, slots=True)
class Mod:
    selector: str
    value: int
    when: frozenset[str] = frozenset()
    unless: frozenset[str] = frozenset()
    type: BonusType = BonusType.UNTYPED
    rule: str = ""

    def applies(self, selectors: frozenset[str], tags: frozenset[str]) -> bool:
        return self.selector in selectors and not (self.unless & tags)


def mod(selector: str, value: int, *when: str, unless: Iterable[str] = (), rule: str = "") -> Mod:
    """Shorthand for condition tables: ``mod("attack", -4, "melee")``."""
    return Mod(selector, value, frozenset(when), frozenset(unless), rule=rule)


@dataclass(frozen=True, slots=True)
class ActionLimits:
    """What a creature may do on its turn. All True: no restriction. Combined by ``&`` (most severe wins,
    CON-00)."""

    standard: bool = True
    move: bool = True
    swift: bool = True
    full: bool = True
    reaction: bool = True
    move_or_standard_only: bool = False  # staggered: a move or a standard action, not both (CON-33)
    mental_only: bool = False  # paralyzed: purely mental actions (CON-27)
    attack: bool = True  # nauseated: no attacks, spells or concentration (CON-22)

    def __and__(self, other: ActionLimits) -> ActionLimits:
        return ActionLimits(
            self.standard and other.standard,
            self.move and other.move,
            self.swift and other.swift,
            self.full and other.full,
            self.reaction and other.reaction,
            self.move_or_standard_only or other.move_or_standard_only,
            self.mental_only or other.mental_only,
            self.attack and other.attack,
        )

    @property
    def none(self) -> bool:
        return not (self.standard or self.move or self.swift or self.full)


NO_ACTIONS = ActionLimits(False, False, False, False, False)


@dataclass(frozen=True, slots=True)
class ConditionDef:
    """A condition's exact effects, as data.

    ``implies``: conditions that come with it (blinded -> flat-footed; unconscious -> helpless).
    ``suppresses``: conditions whose modifiers it replaces (pinned replaces grappled's penalties, CON-28).
    ``tick``: damage taken at the start of the creature's turn (bleeding, burning), rolled from the instance's
    ``value``. ``ends``: how it ends, in words, for the log and the docs.
    """

    name: str
    rule: str
    summary: str
    mods: tuple[Mod, ...] = ()
    implies: tuple[str, ...] = ()
    suppresses: tuple[str, ...] = ()
    actions: ActionLimits = field(default_factory=ActionLimits)
    speed: SpeedEffect | None = None
    no_run_charge: bool = False
    dex_zero: bool = False
    max_dex: int | None = None
    no_aoo: bool = False
    drops_held_items: bool = False
    unconscious: bool = False
    tick: Literal["bleed", "burn", "corrode"] | None = None
    tick_default: str | None = None
    stacking: Literal["replace", "extend", "worst", "cumulative"] = "replace"
    ends: str = ""


def terms_from_mods(
    label: str, rule: str, mods: Iterable[Mod], selectors: frozenset[str], tags: frozenset[str]
) -> list[Term]:
    """Turn the ``mods`` that apply to ``selectors`` in a situation into terms (source = ``label``)."""
    out = []
    for m in mods:
        if m.applies(selectors, tags):
            out.append(Term(m.value, label, m.rule or rule, m.type, label, m.when))
    return out
