"""Every 1st-edition condition as data (CON-01..36), kept in the registry ``CONDITIONS``, with the numbers their
texts name (the DC that stops bleeding, burning's default damage, what a cornered panicked creature may do).
:mod:`sftactics.sf1e.conditions` looks them up and applies them.

Each :class:`~sftactics.sf1e.modifiers.ConditionDef` below states one condition's effects as data: modifiers
(read by ``stats.py`` to build numbers), action limits, speed effects, implied conditions, damage ticks and
how repeated applications combine. The entries follow the inventory's CON order.

Penalty stacking (BON-12): ``stats.condition_terms`` gives every term of a condition that condition's name as
its source, so the same condition never counts twice (two shaken effects: still -2), while different
conditions stack (shaken and frightened: -4 to attacks). Pinned is the one explicit exception: it *replaces*
grappled's penalties (``suppresses``), for a net -4 plus flat-footed's -2 to AC (CON-28, §22 default).

"Strength- and Dexterity-based" checks are written as two modifiers, one gated by ``ability:str`` and one by
``ability:dex``; a skill or ability check carries exactly one ability tag, so at most one of them applies.

Broken (CON-04) is a state of an item, not of a creature: it is the ``broken`` flag on a
:class:`~sftactics.sf1e.statblock.Weapon` or :class:`~sftactics.sf1e.statblock.Armor`, read by ``stats.py``;
there is no creature condition for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from sftactics.sf1e.modifiers import NO_ACTIONS, ActionLimits, ConditionDef, Mod, mod

CONDITIONS: dict[str, ConditionDef] = {}

#: DC of the Acrobatics check a blinded creature needs to move faster than half speed; failing it leaves
#: the creature prone (CON-03).
BLINDED_MOVE_DC: Final = 10
blinded_move_dc: Final = BLINDED_MOVE_DC  # lower-case alias, as the design brief names it

#: DC of the Medicine check (a standard action) that stops bleeding (CON-02).
BLEEDING_MEDICINE_DC: Final = 15

#: Fire damage a burning creature takes each round when the effect names no amount (CON-05).
BURNING_DEFAULT: Final = "1d6 fire"

#: The only action a cornered panicked creature takes (CON-26). The condition text says the creature
#: "cowers" but also that it typically takes the total defense action; the inventory default (§22)
#: settles it as: total defense and nothing else.
PANICKED_CORNERED_ACTIONS: Final = frozenset({"total_defense"})


def _add(c: ConditionDef) -> None:
    CONDITIONS[c.name] = c


def _str_dex_checks(value: int, *, unless: Iterable[str] = ()) -> tuple[Mod, ...]:
    """``value`` to skill and ability checks keyed to Strength or Dexterity."""
    u = tuple(unless)
    return tuple(
        mod(sel, value, f"ability:{a}", unless=u) for sel in ("skill", "ability_check") for a in ("str", "dex")
    )


def _dex_checks(value: int, *, unless: Iterable[str] = ()) -> tuple[Mod, ...]:
    """``value`` to skill and ability checks keyed to Dexterity."""
    u = tuple(unless)
    return (
        mod("skill", value, "ability:dex", unless=u),
        mod("ability_check", value, "ability:dex", unless=u),
    )


def _restraint(value: int, *, unless: Iterable[str] = ()) -> tuple[Mod, ...]:
    """The entangled / grappled / pinned family: AC, attacks, Reflex, initiative and Dex-based checks."""
    u = tuple(unless)
    return (
        mod("ac", value),
        mod("attack", value, unless=u),
        mod("save.ref", value),
        mod("initiative", value),
        *_dex_checks(value, unless=u),
    )


def _fatigue(value: int, *, thrown_tag: str | None) -> tuple[Mod, ...]:
    """The fatigued / exhausted family. ``thrown_tag``: the extra tag thrown weapon damage needs ("" for
    always, None for never)."""
    thrown: tuple[Mod, ...] = ()
    if thrown_tag is not None:
        thrown = (mod("damage", value, "thrown", *((thrown_tag,) if thrown_tag else ())),)
    return (
        mod("ac", value),
        mod("attack", value),
        mod("damage", value, "melee"),
        *thrown,
        mod("save.ref", value),
        mod("initiative", value),
        *_str_dex_checks(value),
    )


def _general(value: int, *, attacks: bool) -> tuple[Mod, ...]:
    """Saves, skill checks and ability checks (and attack rolls): shaken, frightened, panicked, sickened."""
    atk = (mod("attack", value),) if attacks else ()
    return (*atk, mod("save", value), mod("skill", value), mod("ability_check", value))


# ------------------------------------------------------------------------------------------- CON-01
_add(
    ConditionDef(
        "asleep",
        "CON-01",
        "Sleeping, so helpless and unable to act; -10 to Perception checks to notice things (a success "
        "despite the penalty wakes the sleeper).",
        mods=(mod("skill", -10, "skill:perception"),),
        implies=("helpless",),
        actions=NO_ACTIONS,
        no_aoo=True,
        ends="a successful Perception check to notice something, being slapped or wounded, an ally "
        "spending a standard action to wake you, or the end of the effect",
    )
)
# ------------------------------------------------------------------------------------------- CON-02
_add(
    ConditionDef(
        "bleeding",
        "CON-02",
        "Takes the instance's damage (e.g. '1d4') at the start of each of its turns; only the worst of "
        "several bleed effects applies. The damage counts as Hit Point damage while dying.",
        tick="bleed",
        stacking="worst",
        ends=f"a DC {BLEEDING_MEDICINE_DC} Medicine check (a standard action) or any healing of Hit Points",
    )
)
# ------------------------------------------------------------------------------------------- CON-03
_add(
    ConditionDef(
        "blinded",
        "CON-03",
        "Cannot see: flat-footed; -4 to most Strength- and Dexterity-based skill checks and to opposed "
        "Perception checks; sight-based checks fail outright; every creature has total concealment (50%) "
        f"against it; moving faster than half speed needs a DC {BLINDED_MOVE_DC} Acrobatics check or "
        "it falls prone. A creature with another precise sense only keeps the automatic failures.",
        mods=(
            mod("skill", -4, "ability:str"),
            mod("skill", -4, "ability:dex"),
            mod("skill", -4, "skill:perception", "opposed"),
        ),
        implies=("flat-footed",),
        ends="when the cause ends (creatures with blindsight cannot be blinded)",
    )
)
# CON-04 broken: an item state (Weapon.broken, Armor.broken), see the module docstring.
# ------------------------------------------------------------------------------------------- CON-05
_add(
    ConditionDef(
        "burning",
        "CON-05",
        "On fire: takes the instance's fire damage (default 1d6) at the start of its turn, before acting; "
        "several burning effects each deal their damage. At the end of its turn it may attempt a Reflex save "
        "(DC 10 + burning damage taken this round, +2 per previous consecutive attempt) to put the fire out.",
        tick="burn",
        tick_default=BURNING_DEFAULT,
        stacking="cumulative",
        ends="a successful Reflex save (see burning_save_dc); jumping into enough water; smothering the fire "
        "as a full action grants an extra save at +4",
    )
)
_add(
    ConditionDef(
        "corroding",
        "CON-05",
        "Eaten by acid (the Corrode critical effect, an XREF to the weapon rules): works like burning, but the "
        "damage taken at the start of each turn is acid. Several corroding effects each deal their damage.",
        tick="corrode",
        stacking="cumulative",
        ends="a successful Reflex save as for burning (see burning_save_dc), or washing the acid off",
    )
)
# ------------------------------------------------------------------------------------------- CON-06
_add(
    ConditionDef(
        "confused",
        "CON-06",
        "Treats every creature as an enemy; allies' beneficial touch effects must hit its EAC. Attacks the "
        "last creature that attacked it; otherwise rolls d% each turn (see confusion_behavior). No attacks "
        "of opportunity except against a creature it is already attacking. Attackers gain nothing special.",
        ends="when the effect ends",
    )
)
# ------------------------------------------------------------------------------------------- CON-07
_add(
    ConditionDef(
        "cowering",
        "CON-07",
        "Frozen by fear: flat-footed and no actions at all.",
        implies=("flat-footed",),
        actions=NO_ACTIONS,
        no_aoo=True,
        ends="when the fear effect ends",
    )
)
# ------------------------------------------------------------------------------------------- CON-08
_add(
    ConditionDef(
        "dazed",
        "CON-08",
        "No actions at all, but no penalty to AC.",
        actions=NO_ACTIONS,
        no_aoo=True,
        ends="usually after 1 round",
    )
)
# ------------------------------------------------------------------------------------------- CON-09
_add(
    ConditionDef(
        "dazzled",
        "CON-09",
        "-1 to attack rolls and to sight-based Perception checks.",
        mods=(mod("attack", -1), mod("skill", -1, "skill:perception", "sense:sight")),
        ends="when the effect ends",
    )
)
# ------------------------------------------------------------------------------------------- CON-10
_add(
    ConditionDef(
        "dead",
        "CON-10",
        "Dead: cannot act in any way and cannot be healed by normal or magical means.",
        actions=NO_ACTIONS,
        no_aoo=True,
        ends="only by magic or technology able to restore life",
    )
)
# ------------------------------------------------------------------------------------------- CON-11
_add(
    ConditionDef(
        "deafened",
        "CON-11",
        "Cannot hear: -4 to initiative checks and opposed Perception checks; sound-based Perception checks "
        "fail outright; sound-based blindsense or blindsight stops working.",
        mods=(mod("initiative", -4), mod("skill", -4, "skill:perception", "opposed")),
        ends="when the cause ends",
    )
)
# ------------------------------------------------------------------------------------------- CON-12
_add(
    ConditionDef(
        "dying",
        "CON-12",
        "At 0 HP and not stabilized: unconscious, no actions; loses 1 RP at the end of each of its turns "
        "(the injury rules run the RP bookkeeping).",
        implies=("unconscious",),
        actions=NO_ACTIONS,
        no_aoo=True,
        ends="stabilizing, being healed above 0 HP, or death",
    )
)
# ------------------------------------------------------------------------------------------- CON-13
_add(
    ConditionDef(
        "encumbered",
        "CON-13",
        "Every speed -10 ft; maximum Dexterity bonus to AC +2; -5 to Strength- and Dexterity-based checks "
        "(or the armor check penalty if that is worse).",
        mods=_str_dex_checks(-5),
        speed="minus10",
        max_dex=2,
        ends="dropping carried bulk to the creature's limit",
    )
)
# ------------------------------------------------------------------------------------------- CON-14
_add(
    ConditionDef(
        "entangled",
        "CON-14",
        "Half speed, no running or charging; -2 to AC, attack rolls, Reflex saves, initiative checks and "
        "Dexterity-based skill and ability checks. Anchored bonds stop movement entirely.",
        mods=_restraint(-2),
        speed="half",
        no_run_charge=True,
        ends="escaping or breaking the bonds, or the end of the effect",
    )
)
# ------------------------------------------------------------------------------------------- CON-15
_add(
    ConditionDef(
        "exhausted",
        "CON-15",
        "Half speed, no running or charging; -3 to AC, attack rolls, melee and thrown weapon damage, Reflex "
        "saves, initiative checks and Strength- and Dexterity-based skill and ability checks; carrying limit "
        "-3 bulk. Replaces fatigued.",
        mods=_fatigue(-3, thrown_tag=""),
        suppresses=("fatigued",),
        speed="half",
        no_run_charge=True,
        ends="1 hour of complete rest turns it into fatigued",
    )
)
# ------------------------------------------------------------------------------------------- CON-16
_add(
    ConditionDef(
        "fascinated",
        "CON-16",
        "Stays still, attending only to the fascinating effect (no actions); -4 to skill checks made "
        "passively in answer to what others do (such as Perception).",
        mods=(mod("skill", -4, "passive"),),
        actions=NO_ACTIONS,
        no_aoo=True,
        ends="the effect's duration; a potential threat grants a new save, an obvious threat (a weapon "
        "drawn, a spell cast, a ranged weapon aimed at it) ends it, or an ally spends a standard action",
    )
)
# ------------------------------------------------------------------------------------------- CON-17
_add(
    ConditionDef(
        "fatigued",
        "CON-17",
        "No running or charging; -1 to AC, attack rolls, melee weapon damage (thrown weapon damage too under "
        "the fatigued_thrown_damage option), Reflex saves, initiative checks and Strength- and "
        "Dexterity-based skill and ability checks; carrying limit -1 bulk. Fatigued again: exhausted.",
        mods=_fatigue(-1, thrown_tag="fatigued_thrown"),
        no_run_charge=True,
        ends="8 hours of complete rest (hustle or forced-march fatigue: once that nonlethal damage heals)",
    )
)
# ------------------------------------------------------------------------------------------- CON-18
_add(
    ConditionDef(
        "flat-footed",
        "CON-18",
        "-2 AC; no reactions (so no attacks of opportunity).",
        mods=(mod("ac", -2),),
        actions=ActionLimits(reaction=False),
        no_aoo=True,
        ends="when the cause ends (surprised creatures: once aware and they have acted)",
    )
)
# ------------------------------------------------------------------------------------------- CON-19
_add(
    ConditionDef(
        "frightened",
        "CON-19",
        "Flees from the source as well as it can (may fight when it cannot flee, and must use abilities to "
        "flee if they are the only way); -2 to attack rolls, saving throws, skill checks and ability checks.",
        mods=_general(-2, attacks=True),
        stacking="extend",
        ends="when the fear effect ends; a new frightening effect adds its duration",
    )
)
# ------------------------------------------------------------------------------------------- CON-20
_add(
    ConditionDef(
        "grappled",
        "CON-20",
        "Held: cannot move; -2 to AC, attack rolls, Reflex saves, initiative checks and Dexterity-based "
        "skill and ability checks, except checks to grapple back or to escape; no two-handed (or multi-limb) "
        "actions; no attacks of opportunity; cannot use Stealth against the grappler.",
        mods=_restraint(-2, unless=("grapple_or_escape",)),
        speed="zero",
        no_aoo=True,
        ends="escaping, or the grappler failing to renew it by the end of its next turn or moving away",
    )
)
# ------------------------------------------------------------------------------------------- CON-21
_add(
    ConditionDef(
        "helpless",
        "CON-21",
        "At an opponent's mercy: Dexterity treated as 0 (modifier -5); melee attacks against it get +4 "
        "(ranged attacks nothing); a valid target for a coup de grace; others may move through its square.",
        mods=(mod("attack_against", 4, "melee", rule="MOD-19"),),
        dex_zero=True,
        ends="when the cause (bonds, sleep, unconsciousness) ends",
    )
)
# ------------------------------------------------------------------------------------------- CON-22
_add(
    ConditionDef(
        "nauseated",
        "CON-22",
        "No attacks, spells, concentration or anything needing attention; a single move action per turn.",
        actions=ActionLimits(standard=False, swift=False, full=False, reaction=False, attack=False),
        no_aoo=True,
        ends="when the effect ends",
    )
)
# ------------------------------------------------------------------------------------------- CON-23
_add(
    ConditionDef(
        "off-kilter",
        "CON-23",
        "Tumbling in zero gravity: cannot move its speed, crawl or take a guarded step (move actions only to "
        "right itself); flat-footed; -2 to attack rolls.",
        mods=(mod("attack", -2),),
        implies=("flat-footed",),
        speed="zero",
        ends="righting itself with propulsion or by grabbing something solid (usually a move action)",
    )
)
# ------------------------------------------------------------------------------------------- CON-24
_add(
    ConditionDef(
        "off-target",
        "CON-24",
        "-2 to attack rolls.",
        mods=(mod("attack", -2),),
        ends="when the effect ends",
    )
)
# ------------------------------------------------------------------------------------------- CON-25
_add(
    ConditionDef(
        "overburdened",
        "CON-25",
        "Every speed becomes 5 ft; maximum Dexterity bonus to AC +0; -5 to Strength- and Dexterity-based "
        "checks (or the armor check penalty if that is worse).",
        mods=_str_dex_checks(-5),
        speed="five",
        max_dex=0,
        ends="dropping carried bulk",
    )
)
# ------------------------------------------------------------------------------------------- CON-26
_add(
    ConditionDef(
        "panicked",
        "CON-26",
        "Drops what it holds and flees at top speed on a random path away from danger, with no other actions "
        "(abilities only to flee); -2 to ability checks, saving throws and skill checks. Cornered: takes "
        "total defense and nothing else (PANICKED_CORNERED_ACTIONS).",
        mods=_general(-2, attacks=False),
        actions=ActionLimits(reaction=False, attack=False),
        no_aoo=True,
        drops_held_items=True,
        ends="when the fear effect ends",
    )
)
# ------------------------------------------------------------------------------------------- CON-27
_add(
    ConditionDef(
        "paralyzed",
        "CON-27",
        "Frozen in place but not helpless: Dexterity modifier -5; purely mental actions only; fliers using "
        "wings fall, swimmers may drown; anyone may move through its space (2 squares per square).",
        actions=ActionLimits(mental_only=True),
        speed="zero",
        dex_zero=True,
        no_aoo=True,
        ends="when the effect ends",
    )
)
# ------------------------------------------------------------------------------------------- CON-28
_add(
    ConditionDef(
        "pinned",
        "CON-28",
        "Held fast: cannot move; flat-footed; -4 to AC, attack rolls, Reflex saves, initiative checks and "
        "Dexterity-based skill and ability checks, in place of grappled's -2 and also on attempts to grapple "
        "back or escape; no actions needing a limb except trying to get free; verbal and mental actions "
        "allowed; no attacks of opportunity.",
        mods=_restraint(-4),
        implies=("grappled", "flat-footed"),
        suppresses=("grappled",),
        speed="zero",
        no_aoo=True,
        ends="escaping (attack roll or Acrobatics) or the grappler letting go",
    )
)
# ------------------------------------------------------------------------------------------- CON-29
_add(
    ConditionDef(
        "prone",
        "CON-29",
        "-4 melee attack rolls; +4 AC against ranged attacks, -4 AC against melee attacks.",
        mods=(mod("attack", -4, "melee"), mod("ac", 4, "vs:ranged"), mod("ac", -4, "vs:melee")),
        ends="standing up (a move action)",
    )
)
# ------------------------------------------------------------------------------------------- CON-30
_add(
    ConditionDef(
        "shaken",
        "CON-30",
        "-2 to attack rolls, saving throws, skill checks and ability checks.",
        mods=_general(-2, attacks=True),
        stacking="extend",
        ends="when the fear effect ends; a new shaking effect adds its duration",
    )
)
# ------------------------------------------------------------------------------------------- CON-31
_add(
    ConditionDef(
        "sickened",
        "CON-31",
        "-2 to attack rolls, weapon damage rolls, saving throws, skill checks and ability checks.",
        mods=(*_general(-2, attacks=True), mod("damage", -2, "weapon")),
        ends="when the effect ends",
    )
)
# ------------------------------------------------------------------------------------------- CON-32
_add(
    ConditionDef(
        "stable",
        "CON-32",
        "No longer dying but still unconscious; new damage makes it dying again.",
        implies=("unconscious",),
        actions=NO_ACTIONS,
        no_aoo=True,
        ends="regaining Hit Points; taking damage turns it back into dying",
    )
)
# ------------------------------------------------------------------------------------------- CON-33
_add(
    ConditionDef(
        "staggered",
        "CON-33",
        "One move action or one standard action per round, not both; no full actions and no reactions; "
        "swift actions as normal.",
        actions=ActionLimits(full=False, reaction=False, move_or_standard_only=True),
        no_aoo=True,
        ends="when the effect ends",
    )
)
# ------------------------------------------------------------------------------------------- CON-34
_add(
    ConditionDef(
        "stunned",
        "CON-34",
        "Drops what it holds, takes no actions, flat-footed.",
        implies=("flat-footed",),
        actions=NO_ACTIONS,
        no_aoo=True,
        drops_held_items=True,
        ends="when the effect ends",
    )
)
# ------------------------------------------------------------------------------------------- CON-35
_add(
    ConditionDef(
        "unconscious",
        "CON-35",
        "Knocked out: helpless and unable to act.",
        implies=("helpless",),
        actions=NO_ACTIONS,
        no_aoo=True,
        unconscious=True,
        ends="regaining consciousness (healing above 0 HP, nonlethal damage or ability damage recovered)",
    )
)
# ------------------------------------------------------------------------------------------- CON-36
_add(
    ConditionDef(
        "invisible",
        "CON-36",
        "Marker for a temporary invisibility effect (SPA-17): observers relying on sight cannot observe "
        "the creature. No modifiers of its own; the senses and attack rules read the marker.",
        ends="when the invisibility effect ends",
    )
)
