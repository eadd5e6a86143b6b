"""Every 1st-edition condition as data (CON-00..36), and the set of conditions a creature is under.

The conditions themselves are in :mod:`sftactics.sf1e.condition_defs`: one
:class:`~sftactics.sf1e.modifiers.ConditionDef` each (modifiers, action limits, speed effects, implied
conditions, damage ticks, how repeated applications combine), in the registry ``CONDITIONS``, with the numbers
their texts name. This module imports its public names (``CONDITIONS``, ``BLINDED_MOVE_DC``,
``BLEEDING_MEDICINE_DC``, ``BURNING_DEFAULT``, ``PANICKED_CORNERED_ACTIONS``), so ``cond.X`` keeps working.

Here: looking a condition up by name, the conditions in force on a creature (implied ones, and those its gear
imposes), immunities and the checks a condition makes fail outright; adding and removing conditions with their
stacking behaviour (CON-00); the save against burning (CON-05); the confusion table (CON-06); and the damage
ticks of bleeding, burning and corroding (CON-02, CON-05). Broken (CON-04) is a state of an item, not of a
creature: :func:`get` refuses it.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from fractions import Fraction
from typing import Final

from sftactics.core.breakdown import Term
from sftactics.core.errors import SftError
from sftactics.dice.expr import DiceExpr, Part, parse
from sftactics.sf1e.condition_defs import BLEEDING_MEDICINE_DC as BLEEDING_MEDICINE_DC
from sftactics.sf1e.condition_defs import BLINDED_MOVE_DC as BLINDED_MOVE_DC
from sftactics.sf1e.condition_defs import BURNING_DEFAULT as BURNING_DEFAULT
from sftactics.sf1e.condition_defs import CONDITIONS as CONDITIONS
from sftactics.sf1e.condition_defs import PANICKED_CORNERED_ACTIONS as PANICKED_CORNERED_ACTIONS
from sftactics.sf1e.condition_defs import blinded_move_dc as blinded_move_dc
from sftactics.sf1e.modifiers import ConditionDef
from sftactics.sf1e.state import ConditionInstance, Creature

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
