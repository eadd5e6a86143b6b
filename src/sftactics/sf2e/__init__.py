"""The 2nd-edition ruleset (Starfinder 2E "Playing the Game", inventory §21, E2-01..75).

A sibling of :mod:`sftactics.sf1e`: it shares the dice (:mod:`sftactics.dice`), explained numbers
(:class:`~sftactics.core.breakdown.Breakdown`), errors and the grid, and keeps what differs here. The seed is a
summary of the chapter, so every number it leaves out is a named option of :class:`Sf2eOptions`.

Modules, in the order of the chapter:

* :mod:`~sftactics.sf2e.general` modes of play, conventions (rounding, multipliers, duplicate effects);
* :mod:`~sftactics.sf2e.degrees` the four degrees of success; :mod:`~sftactics.sf2e.checks` checks, flat and
  secret checks, the Hero Point reroll; :mod:`~sftactics.sf2e.modifiers` 2E bonus and penalty types and their
  stacking, proficiency;
* :mod:`~sftactics.sf2e.creature` the creature value; :mod:`~sftactics.sf2e.defenses` AC, saves, basic saves,
  Perception, initiative, spell attack and DC; :mod:`~sftactics.sf2e.attacks` attack rolls, multiple attack
  penalty, range, the Strike;
* :mod:`~sftactics.sf2e.damage_types`, :mod:`~sftactics.sf2e.damage` (roll, double/halve, immunity, weakness,
  resistance), :mod:`~sftactics.sf2e.persistent`;
* :mod:`~sftactics.sf2e.injury` HP, temporary HP, dying, wounded, doomed, death, healing, waking up;
* :mod:`~sftactics.sf2e.actions` the three-action economy; :mod:`~sftactics.sf2e.turns` turn upkeep;
* :mod:`~sftactics.sf2e.conditions` the conditions quick reference; :mod:`~sftactics.sf2e.movement` Stride,
  Step, cover, flanking; :mod:`~sftactics.sf2e.hero_points`;
* :mod:`~sftactics.sf2e.options` every assumption, named.
"""

from sftactics.sf2e.checks import Check2e, flat_check, reroll, roll_check
from sftactics.sf2e.creature import Attribute, Creature2e, Life, PersistentDamage
from sftactics.sf2e.damage_types import DamageType
from sftactics.sf2e.degrees import Degree, DegreeOfSuccess
from sftactics.sf2e.modifiers import Kind, Mod, Proficiency, mod
from sftactics.sf2e.options import DEFAULT_OPTIONS, Sf2eOptions

__all__ = [
    "DEFAULT_OPTIONS",
    "Attribute",
    "Check2e",
    "Creature2e",
    "DamageType",
    "Degree",
    "DegreeOfSuccess",
    "Kind",
    "Life",
    "Mod",
    "PersistentDamage",
    "Proficiency",
    "Sf2eOptions",
    "flat_check",
    "mod",
    "reroll",
    "roll_check",
]
