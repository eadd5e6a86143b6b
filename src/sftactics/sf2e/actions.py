"""The three-action economy (E2-42..50, E2-58, E2-59).

Each turn a creature has **3 actions** and **1 reaction** (regained at the start of its turn), and may use any
number of free actions (E2-42). Quickened gives one more action, usable only as its effect says (E2-58); slowed
takes away actions equal to its value (E2-59). An unconscious or dead creature can't act.

* A **single action** is one self-contained action; an **activity** spends 2 or 3 actions together, all at once;
  if it is interrupted, every action committed to it is lost (E2-43).
* A **reaction** uses the reaction and needs its trigger (E2-44).
* A **free action** costs nothing; with a trigger it works like a reaction in timing (whether it also uses the
  reaction, and how often per trigger, are options: E2-45); without one it is used on the creature's own turn
  like a single action.
* Only one single action, activity or untriggered free action happens at a time; reactions and triggered free
  actions may interrupt (E2-46).
* A **subordinate action** used inside another costs nothing more (its cost is included in the parent) but keeps
  its traits (E2-47), so a subordinate Strike still counts for the multiple attack penalty.

:class:`TurnBudget` is the value that tracks this; :func:`use`, :func:`begin`, :func:`finish` and
:func:`interrupt` return new budgets or raise :class:`RuleViolation` and change nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from sftactics.core.errors import RuleViolation
from sftactics.sf2e.creature import Creature2e
from sftactics.sf2e.options import DEFAULT_OPTIONS, Sf2eOptions

#: Actions per turn (E2-42).
ACTIONS_PER_TURN = 3
#: Reactions per round, regained at the start of the creature's turn (E2-42, E2-44).
REACTIONS_PER_TURN = 1


class Cost(StrEnum):
    ONE = "one action"
    TWO = "two actions"
    THREE = "three actions"
    REACTION = "reaction"
    FREE = "free action"

    @property
    def actions(self) -> int:
        return {Cost.ONE: 1, Cost.TWO: 2, Cost.THREE: 3}.get(self, 0)


@dataclass(frozen=True, slots=True)
class ActionDef:
    """An action as data: its cost, traits, trigger (reactions and triggered free actions) and a summary."""

    name: str
    cost: Cost
    summary: str = ""
    traits: frozenset[str] = frozenset()
    trigger: str = ""
    rule: str = "E2-50"

    @property
    def is_activity(self) -> bool:
        return self.cost in (Cost.TWO, Cost.THREE)


def _a(name: str, summary: str, *traits: str, cost: Cost = Cost.ONE, rule: str = "E2-50") -> ActionDef:
    return ActionDef(name, cost, summary, frozenset(traits), rule=rule)


#: The basic actions the seed lists (E2-50, E2-64). Leap's distances are options (leap_horizontal_ft/_vertical_ft).
BASIC_ACTIONS: dict[str, ActionDef] = {
    a.name: a
    for a in (
        _a("Interact", "draw a weapon, pick up an object, open a door...", "manipulate"),
        _a("Leap", "jump up to the Leap distances; longer jumps need Athletics", "move"),
        _a("Seek", "Perception check to find hidden or undetected creatures or objects", "concentrate"),
        _a("Sense Motive", "read a creature's intent (seed: 'Perception or Insight check')", "concentrate"),
        _a("Step", "move 5 feet without triggering reactions", "move", rule="E2-64"),
        _a("Stride", "move up to your Speed; can trigger reactions", "move", rule="E2-64"),
        _a("Strike", "attack with a weapon or unarmed attack against AC", "attack"),
        _a("Crawl", "move 5 feet while prone", "move"),
        _a("Drop Prone", "fall to the ground", "move"),
        _a("Stand", "rise from prone", "move"),
    )
}

#: Speaking costs no action; about one brief sentence per 6-second round; speech has the auditory trait; lying or
#: persuading needs the skill actions (E2-48).
SPEAKING = ActionDef(
    "Speak",
    Cost.FREE,
    "no action: one brief sentence per round (not a free action use)",
    frozenset({"auditory"}),
    rule="E2-48",
)
SENTENCES_PER_ROUND = 1


class Activity(StrEnum):
    """Exploration and downtime activities the seed names (E2-49); their rules are not in the seed."""

    AVOID_NOTICE = "Avoid Notice"
    DETECT_MAGIC = "Detect Magic"
    SCOUTING = "Scouting"
    SEARCHING = "Searching"
    INVESTIGATING = "Investigating"
    REPAIR_OR_CRAFT = "Repair or craft equipment"
    RESEARCH_SPELLS = "Research spells"
    PREPARE = "Prepare for adventures"
    RECOVER = "Recover from injuries"


EXPLORATION_ACTIVITIES: frozenset[Activity] = frozenset(
    {Activity.AVOID_NOTICE, Activity.DETECT_MAGIC, Activity.SCOUTING, Activity.SEARCHING, Activity.INVESTIGATING}
)
DOWNTIME_ACTIVITIES: frozenset[Activity] = frozenset(set(Activity) - EXPLORATION_ACTIVITIES)


@dataclass(frozen=True, slots=True)
class TurnBudget:
    """What a creature may still do: actions this turn, its quickened action, its reaction, the attacks made
    this turn (for the multiple attack penalty), the action in progress and the triggers already answered."""

    actions: int = 0
    quickened: int = 0
    quickened_for: frozenset[str] = frozenset()
    reaction: bool = True
    own_turn: bool = False
    attacks: int = 0
    in_progress: str = ""
    answered: frozenset[str] = frozenset()
    log: tuple[str, ...] = ()

    @property
    def attack_number(self) -> int:
        """The number the next attack will have this turn (1 for the first)."""
        return self.attacks + 1


def start_turn(
    creature: Creature2e, budget: TurnBudget | None = None, *, quickened_for: Iterable[str] = ()
) -> TurnBudget:
    """The budget at the start of the creature's turn: 3 actions (+1 quickened, - slowed), reaction regained.

    ``quickened_for`` names the actions the quickened action may be used for (E2-58).
    """
    if creature.dead or creature.unconscious:
        return TurnBudget(reaction=False, own_turn=True, log=("can't act",))
    slowed = creature.condition("slowed")
    quick = 1 if creature.has("quickened") else 0
    # slowed takes the general actions first, then the quickened one
    general = ACTIONS_PER_TURN - slowed
    extra = quick + min(0, general)
    return TurnBudget(
        actions=max(0, general),
        quickened=max(0, extra),
        quickened_for=frozenset(quickened_for) if quick else frozenset(),
        reaction=True,
        own_turn=True,
        log=(budget.log if budget else ()),
    )


def end_turn(budget: TurnBudget) -> TurnBudget:
    """The budget once the turn is over: unspent actions are gone; the reaction stays until the next turn."""
    if budget.in_progress:
        raise RuleViolation("E2-46", f"{budget.in_progress} is still going on")
    return replace(budget, actions=0, quickened=0, quickened_for=frozenset(), own_turn=False, attacks=0)


def _pay(budget: TurnBudget, action: ActionDef) -> TurnBudget:
    need = action.cost.actions
    use_quick = budget.quickened and action.name in budget.quickened_for
    available = budget.actions + (budget.quickened if use_quick else 0)
    if need > available:
        raise RuleViolation("E2-42", f"{action.name} needs {need} action(s); {available} left")
    from_quick = min(need, budget.quickened) if use_quick else 0
    return replace(budget, actions=budget.actions - (need - from_quick), quickened=budget.quickened - from_quick)


def begin(
    budget: TurnBudget,
    action: ActionDef,
    *,
    subordinate: bool = False,
    trigger: str = "",
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> TurnBudget:
    """Start ``action``: pay for it and mark it in progress (reactions and triggered free actions complete at
    once). See the module docstring for the rules checked."""
    attack = 1 if "attack" in action.traits else 0
    if subordinate:
        if not budget.in_progress:
            raise RuleViolation("E2-47", f"{action.name} can be subordinate only to an action in progress")
        return replace(budget, attacks=budget.attacks + attack, log=(*budget.log, f"{action.name} (subordinate)"))
    if action.cost is Cost.REACTION:
        if not (trigger or action.trigger):
            raise RuleViolation("E2-44", f"{action.name} is a reaction: it needs its trigger")
        if not budget.reaction:
            raise RuleViolation("E2-44", "the reaction is already used until the start of the next turn")
        # a reaction made on another creature's turn does not count toward the multiple attack penalty (E2-13)
        return replace(
            budget,
            reaction=False,
            attacks=budget.attacks + (attack if budget.own_turn else 0),
            log=(*budget.log, f"{action.name} (reaction to {trigger or action.trigger})"),
        )
    if action.cost is Cost.FREE and (trigger or action.trigger):
        what = trigger or action.trigger
        key = f"{action.name}@{what}"
        if options.triggered_free_once_per_trigger and key in budget.answered:
            raise RuleViolation("E2-45", f"{action.name} was already used for this trigger ({what})")
        if options.triggered_free_uses_reaction and not budget.reaction:
            raise RuleViolation("E2-45", "the reaction is already used (triggered free actions use it: option)")
        return replace(
            budget,
            reaction=budget.reaction and not options.triggered_free_uses_reaction,
            answered=budget.answered | {key},
            log=(*budget.log, f"{action.name} (free, triggered by {what})"),
        )
    if not budget.own_turn:
        raise RuleViolation(
            "E2-45" if action.cost is Cost.FREE else "E2-42", f"{action.name} can be used only on your turn"
        )
    if budget.in_progress:
        raise RuleViolation("E2-46", f"{budget.in_progress} is in progress: one action or activity at a time")
    paid = _pay(budget, action)
    return replace(paid, attacks=paid.attacks + attack, in_progress=action.name, log=(*budget.log, action.name))


def finish(budget: TurnBudget) -> TurnBudget:
    """The action in progress is complete."""
    return replace(budget, in_progress="")


def interrupt(budget: TurnBudget) -> TurnBudget:
    """The action or activity in progress is disrupted: the actions spent on it stay spent (E2-43)."""
    if not budget.in_progress:
        raise RuleViolation("E2-43", "nothing is in progress to interrupt")
    return replace(budget, in_progress="", log=(*budget.log, f"{budget.in_progress} interrupted: actions lost"))


def use(
    budget: TurnBudget,
    action: ActionDef,
    *,
    trigger: str = "",
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> TurnBudget:
    """Use ``action`` from start to finish. While something else is in progress only reactions and triggered
    free actions are allowed, and they complete at once, leaving that action in progress."""
    after = begin(budget, action, trigger=trigger, options=options)
    return after if budget.in_progress else finish(after)
