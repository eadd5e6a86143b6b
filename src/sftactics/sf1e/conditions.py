"""Every 1st-edition condition as data (CON-00..36), and the set of conditions a creature is under.

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
from enum import StrEnum
from fractions import Fraction
from typing import Final

from sftactics.core.breakdown import Term
from sftactics.core.errors import SftError
from sftactics.dice.expr import DiceExpr, Part, parse
from sftactics.sf1e.modifiers import NO_ACTIONS, ActionLimits, ConditionDef, Mod, mod
from sftactics.sf1e.state import ConditionInstance, Creature

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

#: Checks a condition makes fail outright, keyed by the situation tag that marks them (CON-03, CON-11).
AUTO_FAIL: Final[dict[str, frozenset[str]]] = {
    "blinded": frozenset({"sense:sight"}),
    "deafened": frozenset({"sense:sound"}),
}

#: Stat-block immunity words that protect against conditions (Alien Archive style: "immune to paralysis,
#: sleep, stunning"). A condition's own name in ``immunities`` always works too.
IMMUNITY_WORDS: Final[dict[str, frozenset[str]]] = {
    "bleed": frozenset({"bleeding"}),
    "paralysis": frozenset({"paralyzed"}),
    "sleep": frozenset({"asleep"}),
    "stunning": frozenset({"stunned"}),
    "fear": frozenset({"shaken", "frightened", "panicked", "cowering"}),
    "fear effects": frozenset({"shaken", "frightened", "panicked", "cowering"}),
}


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


# ------------------------------------------------------------------------------------------- lookups
_ALIASES: Final[dict[str, str]] = {
    "flatfooted": "flat-footed",
    "offkilter": "off-kilter",
    "offtarget": "off-target",
}


def get(name: str) -> ConditionDef:
    """The definition of a condition by name (case, spaces and underscores are forgiven). Raises
    :class:`SftError` for an unknown name."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = _ALIASES.get(key, key)
    if key not in CONDITIONS:
        if key == "broken":
            raise SftError(
                "broken is a state of an item, not of a creature: set broken on the weapon or armor (CON-04)"
            )
        raise SftError(f"unknown condition {name!r} (known: {', '.join(sorted(CONDITIONS))})")
    return CONDITIONS[key]


def active(creature: Creature) -> dict[str, ConditionDef]:
    """Every condition in force on ``creature``: its own, the ones they imply (transitively), and the ones
    its stat block or gear imposes (non-proficient powered armor: flat-footed and off-target, GEN-12)."""
    names: list[str] = [c.name for c in creature.state.conditions]
    armor = creature.stat.armor
    if armor is not None and armor.category == "powered" and not _proficient_armor(creature):
        names += ["flat-footed", "off-target"]
    out: dict[str, ConditionDef] = {}
    while names:
        n = names.pop()
        if n in out:
            continue
        d = CONDITIONS.get(n)
        if d is None:
            continue
        out[n] = d
        names.extend(d.implies)
    return out


def _proficient_armor(creature: Creature) -> bool:
    armor = creature.stat.armor
    if armor is None:
        return True
    if armor.proficient is not None:
        return armor.proficient
    prof = creature.stat.proficiencies
    if prof is None:
        return True
    return armor.category in prof.armor


def is_immune(creature: Creature, name: str) -> bool:
    """Whether the stat block's ``immunities`` keep the condition off the creature: either the condition's
    own name ("stunned") or an immunity word that covers it ("stunning", "fear effects"; see
    ``IMMUNITY_WORDS``)."""
    cname = get(name).name
    for word in creature.stat.immunities:
        w = word.strip().lower()
        if w == cname or cname in IMMUNITY_WORDS.get(w, frozenset()):
            return True
    return False


def auto_fail_reason(creature: Creature, tags: Iterable[str]) -> str | None:
    """The condition that makes a check with ``tags`` fail outright (blinded: ``sense:sight``, deafened:
    ``sense:sound``; CON-03, CON-11), or None."""
    t = frozenset(tags)
    for name in sorted(active(creature)):
        if AUTO_FAIL.get(name, frozenset()) & t:
            return name
    return None


# ------------------------------------------------------------------------------------------- adding/removing
def _longer(a: int | None, b: int | None) -> int | None:
    """The longer of two remaining durations; None (no set end) outlasts any number of rounds."""
    if a is None or b is None:
        return None
    return max(a, b)


def _duration_key(rounds: int | None) -> float:
    return float("inf") if rounds is None else float(rounds)


def expected_value(expr: DiceExpr) -> Fraction:
    """The average result of a dice expression (each die averages (sides + 1) / 2): '1d6' -> 7/2."""
    total = Fraction(0)
    for t in expr.terms:
        each = Fraction(t.count) if t.is_flat else Fraction(t.count * (t.sides + 1), 2)
        total += t.sign * each
    return total


def _tick_text(d: ConditionDef, inst: ConditionInstance) -> str | None:
    return inst.value or d.tick_default


def _severity(d: ConditionDef, inst: ConditionInstance) -> tuple[Fraction, int]:
    text = _tick_text(d, inst)
    if text is None:
        return Fraction(0), 0
    expr = parse(text)
    return expected_value(expr), expr.bounds()[1]


def _merge(d: ConditionDef, same: list[ConditionInstance], new: ConditionInstance) -> list[ConditionInstance]:
    """Combine a new instance with the creature's instances of the same condition per ``d.stacking``."""
    if not same:
        return [new]
    if d.stacking == "cumulative":  # burning: every source burns (CON-05)
        return [*same, new]
    if d.stacking == "extend":  # shaken, frightened: the new duration is added (CON-19, CON-30)
        rounds: int | None = 0
        for inst in (*same, new):
            rounds = None if rounds is None or inst.rounds is None else rounds + inst.rounds
        return [same[0].model_copy(update={"rounds": rounds})]
    candidates = [*same, new]
    if d.stacking == "worst":  # bleeding: only the worst bleed counts (CON-02); ties keep the older one
        best = candidates[0]
        for inst in candidates[1:]:
            if _severity(d, inst) > _severity(d, best):
                best = inst
        return [best]
    # replace: one instance, the one that lasts longer; ties keep the older one
    best = candidates[0]
    for inst in candidates[1:]:
        if _duration_key(inst.rounds) > _duration_key(best.rounds):
            best = inst
    return [best]


def add_condition(creature: Creature, instance: ConditionInstance) -> Creature:
    """The creature with one more condition, combined with what it already has (CON-00):

    * ``replace`` (most conditions): a single instance is kept, whichever has the longer remaining duration
      (an instance without ``rounds`` lasts until removed, so it wins);
    * ``extend`` (shaken, frightened): the new rounds are added to the remaining ones (CON-19, CON-30);
    * ``worst`` (bleeding): only the instance with the highest average damage stays (CON-02);
    * ``cumulative`` (burning): every instance stays, and each deals its damage (CON-05);
    * fatigued on a fatigued creature makes it exhausted instead (CON-17); fatigued on an exhausted creature
      changes nothing; exhausted removes fatigued (it replaces it).

    A creature immune to the condition (``is_immune``: the condition's name or a covering word such as
    "paralysis" in its stat block's ``immunities``) is returned unchanged. Unknown names, "broken" (an item
    state), a bleeding without an amount, a malformed damage amount or negative rounds raise
    :class:`SftError`.
    """
    d = get(instance.name)
    inst = instance if instance.name == d.name else instance.model_copy(update={"name": d.name})
    if inst.rounds is not None and inst.rounds < 0:
        raise SftError(f"{d.name}: rounds must not be negative (got {inst.rounds})")
    if d.tick is not None:
        text = _tick_text(d, inst)
        if text is None:
            raise SftError(f"{d.name} needs an amount of damage, such as '1d4' ({d.rule})")
        parse(text)  # a malformed amount is refused now, not when it first ticks
    if is_immune(creature, d.name):
        return creature
    conds = creature.state.conditions
    if d.name == "fatigued":
        if any(c.name == "exhausted" for c in conds):
            return creature
        fatigue = [c for c in conds if c.name == "fatigued"]
        if fatigue:
            if is_immune(creature, "exhausted"):
                return creature
            rounds = inst.rounds
            for c in fatigue:
                rounds = _longer(rounds, c.rounds)
            worse = ConditionInstance(name="exhausted", source=inst.source, rounds=rounds)
            return add_condition(remove_condition(creature, "fatigued"), worse)
    if d.name == "exhausted":
        conds = tuple(c for c in conds if c.name != "fatigued")
    same = [c for c in conds if c.name == d.name]
    others = [c for c in conds if c.name != d.name]
    return creature.with_state(conditions=(*others, *_merge(d, same, inst)))


def remove_condition(creature: Creature, name: str) -> Creature:
    """The creature without any instance of the condition ``name`` (unknown names raise :class:`SftError`).

    Only the creature's own instances are removed: a condition implied by another one (flat-footed while
    blinded) stays in force until its cause is removed."""
    cname = get(name).name
    return creature.with_state(conditions=tuple(c for c in creature.state.conditions if c.name != cname))


# ------------------------------------------------------------------------------------------- burning
def burning_save_dc(fire_damage_this_round: int) -> int:
    """DC of the Reflex save that puts out the flames: 10 + the fire damage the burning condition dealt
    this round (CON-05). ``burning_save_dc(4) == 14``."""
    if fire_damage_this_round < 0:
        raise SftError(f"burning damage cannot be negative (got {fire_damage_this_round})")
    return 10 + fire_damage_this_round


def burning_save_bonus(previous_consecutive_attempts: int, smothering: bool, condition: str = "burning") -> list[Term]:
    """Bonuses to the save against burning (CON-05, MOD-23): +2 for each save already attempted in the
    consecutive rounds just before, and +4 when the creature spends a full action rolling on the ground or
    otherwise smothering the fire. Untyped: pass them as extra terms to the save. ``condition``: the condition
    saved against (corroding is saved against as burning is), named in the term."""
    if previous_consecutive_attempts < 0:
        raise SftError(f"previous attempts cannot be negative (got {previous_consecutive_attempts})")
    out: list[Term] = []
    if previous_consecutive_attempts:
        n = previous_consecutive_attempts
        out.append(Term(2 * n, f"{n} previous consecutive {condition} save{'s' if n > 1 else ''}", "CON-05"))
    if smothering:
        out.append(Term(4, "smothering the flames (full action)", "CON-05"))
    return out


# ------------------------------------------------------------------------------------------- confusion
class ConfusedAction(StrEnum):
    """What a confused creature does on a turn it is not already committed to attacking (CON-06)."""

    ACT_NORMALLY = "act_normally"
    BABBLE = "babble"
    HURT_SELF = "hurt_self"
    ATTACK_NEAREST = "attack_nearest"


def confusion_behavior(d100: int) -> ConfusedAction:
    """The confusion table (CON-06): 1-25 act normally, 26-50 babble and do nothing, 51-75 hit itself with
    what it holds (see ``confusion_self_damage``), 76-100 attack the nearest creature. A creature that cannot
    do what the roll says babbles instead (the caller decides that)."""
    if not 1 <= d100 <= 100:
        raise SftError(f"a d% result is between 1 and 100 (got {d100})")
    if d100 <= 25:
        return ConfusedAction.ACT_NORMALLY
    if d100 <= 50:
        return ConfusedAction.BABBLE
    if d100 <= 75:
        return ConfusedAction.HURT_SELF
    return ConfusedAction.ATTACK_NEAREST


def confusion_self_damage(creature: Creature) -> DiceExpr:
    """Damage a confused creature deals to itself on a 51-75: 1d8 + its current Strength modifier (CON-06)."""
    from sftactics.sf1e import stats  # stats imports this module

    return parse("1d8").plus(stats.ability_mod(creature, "str").total)


# ------------------------------------------------------------------------------------------- ticks
def tick_expression(creature: Creature, instance: ConditionInstance) -> DiceExpr | None:
    """The damage a ticking condition instance deals at the start of the creature's turn (CON-02, CON-05),
    or None for a condition that does not tick or that the creature is immune to.

    Burning always deals fire damage: its amount (default ``1d6``) is typed fire whatever it was written
    with. Bleeding deals its amount as written (untyped unless a type is given); bleeding without an amount
    raises :class:`SftError`."""
    d = get(instance.name)
    if d.tick is None or is_immune(creature, d.name):
        return None
    text = _tick_text(d, instance)
    if text is None:
        raise SftError(f"{d.name} needs an amount of damage, such as '1d4' ({d.rule})")
    expr = parse(text)
    if d.tick in ("burn", "corrode"):
        energy = "fire" if d.tick == "burn" else "acid"
        expr = DiceExpr(tuple(Part(p.terms, frozenset({energy})) for p in expr.parts))
    return expr


def tick_expressions(creature: Creature) -> list[tuple[ConditionInstance, DiceExpr]]:
    """Every damage tick due at the start of the creature's turn, in the order its conditions were gained
    (each burning instance separately, CON-05). Of a condition that does not stack (``stacking="worst"``:
    bleeding, CON-02) only the worst instance ticks, even when a creature was given several (a scenario file,
    a state built by hand): the highest average damage, then the highest maximum; ties keep the older one."""
    worst: dict[str, ConditionInstance] = {}
    for inst in creature.state.conditions:
        d = get(inst.name)
        if d.tick is None or d.stacking != "worst":
            continue
        best = worst.get(d.name)
        if best is None or _severity(d, inst) > _severity(d, best):
            worst[d.name] = inst
    out: list[tuple[ConditionInstance, DiceExpr]] = []
    for inst in creature.state.conditions:
        d = get(inst.name)
        if d.stacking == "worst" and worst.get(d.name) is not inst:
            continue
        expr = tick_expression(creature, inst)
        if expr is not None:
            out.append((inst, expr))
    return out
