"""What a creature's state does to its movement, as pure rules: moving while blinded (CON-03) and squeezing
(MOV-19). The encounter adds positions and timing.

* **Moving blind** (CON-03): a blinded creature that moves faster than half its speed attempts a DC 10
  Acrobatics check; on a failure it falls prone. The rules text does not say where: the engine's reading is
  that the creature trips as it sets off, so it falls prone where it stood and the movement (and its action)
  is lost. "Faster than half speed" compares the feet of movement one action spends (difficult terrain counts
  double) with half the creature's current speed. A creature with a working precise sense other than vision
  (blindsight) or an incorporeal one (SPA-16) moves normally. Without a printed Acrobatics bonus the check is
  untrained: the Dexterity modifier. Blinded's -4 to Dexterity-based checks applies.
* **Squeezing** (MOV-19): a creature in a space narrower than its own counts as entangled (-2 to AC, attack
  rolls, Reflex saves, initiative and Dexterity-based checks; no running or charging) and moves at half speed.
  The inventory's default (the AON wording) halves the speed once: the grid charges double movement for the
  squares squeezed through (``GridOptions.squeeze_speed``), so the entangled part given here carries the
  penalties but not entangled's own halving. Its penalties are entangled's, under the same name, so a creature
  that is also entangled by something else takes them once (BON-12).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from sftactics.core.check import CheckKind, CheckResult, resolve
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import senses, special, stats
from sftactics.sf1e.statblock import ModifierSpec
from sftactics.sf1e.state import ConditionInstance, Creature

#: The label the squeezing penalties carry: entangled's own, so that they never stack with it (BON-12).
SQUEEZE_LABEL: Final = "entangled"
#: The effect flag of a squeezing creature (the encounter's marker).
SQUEEZE_FLAG: Final = "squeezing"
#: The source of the prone condition a failed blind move gives.
BLIND_FALL_SOURCE: Final = "moving blind"


# ------------------------------------------------------------------------------------------- CON-03
def without_sight(creature: Creature) -> bool:
    """Blinded and without a working blindsight: a precise sense other than vision takes away blinded's effects
    other than the failed sight-based checks (CON-03)."""
    active = cond.active(creature)
    if "blinded" not in active:
        return False
    return not senses.parse_senses(creature.stat).blindsight_reaches(None, senses.lost_mechanisms(active))


def moves_blind(creature: Creature) -> bool:
    """Whether ``creature`` moves under the blinded movement rule: :func:`without_sight` and not incorporeal
    (an incorporeal creature moves at full speed when it cannot see, SPA-16)."""
    return without_sight(creature) and not special.moves_blind_at_full_speed(creature)


def blind_move_needs_check(creature: Creature, moved_ft: int) -> bool:
    """Whether moving ``moved_ft`` feet in one action is faster than half speed for a blinded creature
    (CON-03): more than half its current speed."""
    if moved_ft <= 0 or not moves_blind(creature):
        return False
    return 2 * moved_ft > stats.speed(creature).total


@dataclass(frozen=True, slots=True)
class BlindMoveResult:
    """A blinded creature's Acrobatics check to move faster than half speed: ``creature`` is prone when it
    failed (``fell``), and then it does not move."""

    creature: Creature
    check: CheckResult
    fell: bool
    lines: tuple[str, ...]


def acrobatics_bonus(creature: Creature) -> int:
    """The printed Acrobatics bonus, or the Dexterity modifier for an untrained check."""
    printed = creature.stat.skills.get("acrobatics")
    return printed if printed is not None else stats.ability_mod(creature, "dex").total


def blind_move(creature: Creature, moved_ft: int, dice: DiceSource) -> BlindMoveResult | None:
    """The DC 10 Acrobatics check of a blinded creature that moves ``moved_ft`` feet in one action (CON-03);
    None when no check is needed."""
    if not blind_move_needs_check(creature, moved_ft):
        return None
    speed = stats.speed(creature).total
    printed = creature.stat.skills.get("acrobatics")
    bonus = stats.skill_bonus(creature, "acrobatics", bonus=acrobatics_bonus(creature), ability="dex")
    check = resolve(
        CheckKind.SKILL, bonus, cond.BLINDED_MOVE_DC, dice, purpose=f"{creature.name} Acrobatics (moving blind)"
    )
    lines = [
        f"{creature.name} is blinded and moves {moved_ft} ft, more than half its speed ({speed} ft): "
        f"Acrobatics DC {cond.BLINDED_MOVE_DC} [CON-03]" + ("" if printed is not None else " (untrained: Dex)"),
        f"  {bonus.describe()}",
        f"  {check.describe()}",
    ]
    after = creature
    if not check.success:
        after = cond.add_condition(creature, ConditionInstance(name="prone", source=BLIND_FALL_SOURCE))
        lines.append(f"{creature.name} stumbles and falls prone where it stands; it does not move [CON-03]")
    return BlindMoveResult(after, check, not check.success, tuple(lines))


# ------------------------------------------------------------------------------------------- MOV-19
def squeezing_modifiers() -> tuple[ModifierSpec, ...]:
    """The penalties of squeezing: entangled's (CON-14), named as entangled, for MOV-19."""
    out = []
    for m in cond.get("entangled").mods:
        assert not m.unless, "entangled's penalties have no exceptions"
        out.append(ModifierSpec(selector=m.selector, value=m.value, label=SQUEEZE_LABEL, when=m.when, rule="MOV-19"))
    return tuple(out)


def refuse_while_squeezing(creature: Creature, what: str) -> None:
    """A squeezing creature counts as entangled: it cannot run or charge (MOV-19, CON-14)."""
    raise RuleViolation("MOV-19", f"{creature.name} is squeezing through a narrow space (entangled): it cannot {what}")
