"""Events: what happened. Each event knows how it changes the encounter (:func:`apply`).

The event log is the source of truth: folding the events of a fight over its starting state gives its current
state without rolling a die (:func:`replay`). Events carry results (a creature's new state, the explained
attack), never instructions to roll.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from sftactics.encounter.outcomes import (
    AttackData,
    BreakdownData,
    CheckData,
    DamageData,
    InjuryData,
    MoveStepData,
    OpposedData,
    StateChangeData,
)
from sftactics.encounter.state import (
    Combatant,
    CombatResult,
    ConfusedTurn,
    Effect,
    Encounter,
    ReadiedAction,
    Slot,
    Zone,
)
from sftactics.encounter.vehicles import VehicleChanged, VehicleMoved, apply_changed, apply_moved
from sftactics.sf1e.state import CreatureState


class _Ev(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _rendered(e: Event) -> tuple[str, ...]:
    from sftactics.encounter import narrate

    return tuple(narrate.detail_lines(e))


class InitiativeRolled(_Ev):
    """An initiative check: the d20 (``roll``; for a count given by the scenario, total - modifier), the
    ``modifier`` and its terms (``bonus``), the ``total``; ``explain`` is "given" for a given count."""

    type: Literal["initiative_rolled"] = "initiative_rolled"
    id: str
    roll: int
    modifier: int
    total: int
    explain: str = ""
    bonus: BreakdownData | None = None


class OrderSet(_Ev):
    type: Literal["order_set"] = "order_set"
    order: tuple[str, ...]
    roll_offs: dict[str, tuple[int, ...]] = Field(default_factory=dict)
    reason: str = ""
    mark_done: tuple[str, ...] = ()  # combatants who count as having had their turn this round


class RoundStarted(_Ev):
    type: Literal["round_started"] = "round_started"
    round: int
    surprise: bool = False


class TurnStarted(_Ev):
    type: Literal["turn_started"] = "turn_started"
    id: str


class TurnEnded(_Ev):
    type: Literal["turn_ended"] = "turn_ended"
    id: str


class TurnSkipped(_Ev):
    """A turn passed without acting (unaware in the surprise round, dead), or put off by delaying."""

    type: Literal["turn_skipped"] = "turn_skipped"
    id: str
    reason: str
    delay: bool = False


class ActionSpent(_Ev):
    type: Literal["action_spent"] = "action_spent"
    id: str
    slot: Slot | Literal["reaction", "none"]
    action: str
    rule: str = "ACT-02"


class CreatureChanged(_Ev):
    """A creature's live state after a rule was applied. ``change``: its pools before and after and the
    conditions gained, refreshed and lost (filled in by the engine); ``damage``: the damage that caused it,
    from the dice to the pools; ``injury``: what another injury rule did (healing, dying, stabilizing);
    ``notes``: explanations with no numbers of their own. ``lines`` is the text, rendered from all of these."""

    type: Literal["creature_changed"] = "creature_changed"
    id: str
    state: CreatureState
    change: StateChangeData | None = None
    damage: DamageData | None = None
    injury: InjuryData | None = None
    notes: tuple[str, ...] = ()

    @property
    def lines(self) -> tuple[str, ...]:
        return _rendered(self)


class CombatantChanged(_Ev):
    """Bookkeeping on a combatant (flags and counters, never its creature)."""

    type: Literal["combatant_changed"] = "combatant_changed"
    id: str
    changes: dict[str, Any]


class Moved(_Ev):
    """One stretch of movement: ``path`` (start square first), ``steps`` (each square with its cost and
    whether it was diagonal), the total ``cost_ft``. A move that provokes attacks of opportunity is cut where
    the mover leaves a threatened square: ``provokes`` lists the enemies whose attacks come before it goes on
    (AOO-08). ``kind``: how it moved (``push`` and ``reposition`` are forced movement by ``by``); ``part``: 0
    for the first stretch of a move; ``budget_ft``: how far the action allowed."""

    type: Literal["moved"] = "moved"
    id: str
    path: tuple[tuple[int, int], ...]
    cost_ft: int
    diagonals: int = 0
    kind: str = "move"
    verb: str = "moves"
    steps: tuple[MoveStepData, ...] = ()
    provokes: tuple[str, ...] = ()
    part: int = 0
    budget_ft: int | None = None
    by: str | None = None
    rule: str = ""

    @property
    def lines(self) -> tuple[str, ...]:
        return _rendered(self)


class AttackMade(_Ev):
    """An attack. ``result`` holds its numbers (:class:`~sftactics.encounter.outcomes.AttackData`: AC and its
    terms, attack bonus terms, the d20, outcome, concealment, cover, flanking, damage to the pools);
    ``notes`` explain what the positions and senses did, or (for maneuvers, support fire, grenades, abilities
    and coups de grace) the rule's own account. ``lines`` is the text, rendered from both."""

    type: Literal["attack_made"] = "attack_made"
    attacker: str
    target: str
    weapon: str
    hit: bool
    critical: bool
    damage: int | None
    result: AttackData | None = None
    notes: tuple[str, ...] = ()
    reaction: bool = False  # an attack of opportunity

    @property
    def lines(self) -> tuple[str, ...]:
        return _rendered(self)


class CheckMade(_Ev):
    """Any other d20 roll: a save, a skill check, Perception against Stealth... ``check`` holds its numbers
    (bonus terms, natural, total, DC, degree), ``opposed`` the other side of an opposed check, ``notes`` the
    rule's own account where it has one. ``lines`` is the text, rendered from these."""

    type: Literal["check_made"] = "check_made"
    id: str
    what: str
    success: bool
    check: CheckData | None = None
    opposed: OpposedData | None = None
    notes: tuple[str, ...] = ()

    @property
    def lines(self) -> tuple[str, ...]:
        return _rendered(self)


class EffectStarted(_Ev):
    """A timed effect started; ``zone``: the patch of the map it changes while it lasts (a smoke cloud)."""

    type: Literal["effect_started"] = "effect_started"
    effect: Effect
    zone: Zone | None = None


class EffectEnded(_Ev):
    """A timed effect ended: it expired or was ended (``why``); ``target`` and ``name`` say which."""

    type: Literal["effect_ended"] = "effect_ended"
    effect_id: int
    why: str = ""
    target: str = ""
    name: str = ""


class Readied(_Ev):
    type: Literal["readied"] = "readied"
    id: str
    readied: ReadiedAction | None


class InitiativeChanged(_Ev):
    """Delay or ready moved a combatant to a new count and place in the order (CF-16)."""

    type: Literal["initiative_changed"] = "initiative_changed"
    id: str
    count: int
    order: tuple[str, ...]
    why: str = ""


class AwarenessChanged(_Ev):
    """Who now perceives whom: "observer>target" -> the new awareness state (``sf1e.senses.Awareness``);
    ``hide`` / ``unhide`` start or end hiding for those pairs."""

    type: Literal["awareness_changed"] = "awareness_changed"
    changes: dict[str, int] = Field(default_factory=dict)
    hide: tuple[str, ...] = ()
    unhide: tuple[str, ...] = ()


class DiceRolled(_Ev):
    """Every die rolled by one command, in order (so a replay needs no RNG and a seed can resume)."""

    type: Literal["dice_rolled"] = "dice_rolled"
    dice: tuple[tuple[int, int, str], ...]  # (sides, result, purpose)


class Note(_Ev):
    type: Literal["note"] = "note"
    text: str
    rule: str = ""


class ConfusionRolled(_Ev):
    """A confused creature's turn decided (CON-06): the d% roll (None when it is devoted to attacking the last
    creature that attacked it), the behaviour, the creatures it must attack, and the explanation."""

    type: Literal["confusion_rolled"] = "confusion_rolled"
    id: str
    roll: int | None
    behavior: Literal["act_normally", "babble", "hurt_self", "attack_nearest", "attack_attacker"]
    targets: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()
    rule: str = "CON-06"


class CombatantJoined(_Ev):
    type: Literal["combatant_joined"] = "combatant_joined"
    combatant: Combatant


class CombatEnded(_Ev):
    type: Literal["combat_ended"] = "combat_ended"
    winner: str | None
    reason: str
    round: int


Event = Annotated[
    InitiativeRolled
    | OrderSet
    | RoundStarted
    | TurnStarted
    | TurnEnded
    | TurnSkipped
    | ActionSpent
    | CreatureChanged
    | CombatantChanged
    | Moved
    | AttackMade
    | CheckMade
    | EffectStarted
    | EffectEnded
    | Readied
    | InitiativeChanged
    | AwarenessChanged
    | DiceRolled
    | Note
    | ConfusionRolled
    | CombatantJoined
    | CombatEnded
    | VehicleChanged
    | VehicleMoved,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


# ---------------------------------------------------------------- apply
def _initiative(s: Encounter, e: InitiativeRolled) -> Encounter:
    return s.update(e.id, initiative=e.total, init_roll=e.roll, init_mod=e.modifier)


def _order(s: Encounter, e: OrderSet) -> Encounter:
    s = s.with_timeline(order=e.order)
    for cid in e.mark_done:
        s = _done(s, cid)
    for cid, offs in e.roll_offs.items():
        s = s.update(cid, roll_off=offs)
    return s


def _round(s: Encounter, e: RoundStarted) -> Encounter:
    return s.with_timeline(phase="surprise" if e.surprise else "round", round=e.round, turn=None, done=())


def _done(s: Encounter, cid: str) -> Encounter:
    done = s.timeline.done
    return s.with_timeline(done=done if cid in done else (*done, cid))


def _turn_started(s: Encounter, e: TurnStarted) -> Encounter:
    s = s.update(e.id, spent=(), moved_ft=0, diagonals=0, attacks_this_turn=0, reaction_used=False, delaying=False)
    return s.with_timeline(turn=e.id, turn_fresh=True)


def _turn_ended(s: Encounter, e: TurnEnded) -> Encounter:
    s = s.update(e.id, acted=True, confused_turn=None)
    return _done(s.with_timeline(turn=None, turn_fresh=False), e.id)


def _skipped(s: Encounter, e: TurnSkipped) -> Encounter:
    if e.delay:
        s = s.update(e.id, delaying=True).with_timeline(turn=None, turn_fresh=False)
        return s
    return _done(s, e.id)


def _spent(s: Encounter, e: ActionSpent) -> Encounter:
    c = s.get(e.id)
    if e.slot == "reaction":
        return s.update(e.id, reaction_used=True)
    if e.slot != "none":
        s = s.update(e.id, spent=(*c.spent, e.slot))
    if s.timeline.turn == e.id:
        s = s.with_timeline(turn_fresh=False)
    return s


def _creature(s: Encounter, e: CreatureChanged) -> Encounter:
    c = s.get(e.id)
    return s.update(e.id, creature=c.creature.model_copy(update={"state": e.state}))


@functools.cache
def _field(name: str) -> TypeAdapter[Any]:
    annotation: Any = Combatant.model_fields[name].annotation
    return TypeAdapter(annotation)


def _combatant(s: Encounter, e: CombatantChanged) -> Encounter:
    # values read back from a saved log are JSON (lists): give each field its own type again (tuples)
    return s.update(e.id, **{k: _field(k).validate_python(v) for k, v in e.changes.items()})


def _moved(s: Encounter, e: Moved) -> Encounter:
    c = s.get(e.id)
    s = s.update(e.id, position=e.path[-1], moved_ft=c.moved_ft + e.cost_ft, diagonals=c.diagonals + e.diagonals)
    if s.timeline.turn == e.id:
        s = s.with_timeline(turn_fresh=False)
    return s


def _nothing(s: Encounter, e: Any) -> Encounter:
    return s


def _effect_started(s: Encounter, e: EffectStarted) -> Encounter:
    zones = s.zones if e.zone is None else (*s.zones, e.zone)
    return s.model_copy(update={"effects": (*s.effects, e.effect), "next_effect_id": e.effect.id + 1, "zones": zones})


def _effect_ended(s: Encounter, e: EffectEnded) -> Encounter:
    effects = tuple(x for x in s.effects if x.id != e.effect_id)
    return s.model_copy(update={"effects": effects, "zones": tuple(z for z in s.zones if z.effect != e.effect_id)})


def _readied(s: Encounter, e: Readied) -> Encounter:
    return s.update(e.id, readied=e.readied)


def _init_changed(s: Encounter, e: InitiativeChanged) -> Encounter:
    return s.update(e.id, initiative=e.count).with_timeline(order=e.order)


def _awareness(s: Encounter, e: AwarenessChanged) -> Encounter:
    hiding = (s.hiding | frozenset(e.hide)) - frozenset(e.unhide)
    return s.model_copy(update={"awareness": {**s.awareness, **e.changes}, "hiding": hiding})


def _dice(s: Encounter, e: DiceRolled) -> Encounter:
    return s.model_copy(update={"dice_used": s.dice_used + len(e.dice)})


def _confusion(s: Encounter, e: ConfusionRolled) -> Encounter:
    turn = ConfusedTurn(behavior=e.behavior, roll=e.roll, targets=e.targets, round=s.timeline.round)
    return s.update(e.id, confused_turn=turn)


def _joined(s: Encounter, e: CombatantJoined) -> Encounter:
    return s.with_combatant(e.combatant)


def _ended(s: Encounter, e: CombatEnded) -> Encounter:
    s = s.model_copy(update={"result": CombatResult(winner=e.winner, reason=e.reason, round=e.round)})
    return s.with_timeline(phase="ended", turn=None)


_APPLY: dict[str, Callable[[Encounter, Any], Encounter]] = {
    "initiative_rolled": _initiative,
    "order_set": _order,
    "round_started": _round,
    "turn_started": _turn_started,
    "turn_ended": _turn_ended,
    "turn_skipped": _skipped,
    "action_spent": _spent,
    "creature_changed": _creature,
    "combatant_changed": _combatant,
    "moved": _moved,
    "attack_made": _nothing,
    "check_made": _nothing,
    "effect_started": _effect_started,
    "effect_ended": _effect_ended,
    "readied": _readied,
    "initiative_changed": _init_changed,
    "awareness_changed": _awareness,
    "dice_rolled": _dice,
    "note": _nothing,
    "confusion_rolled": _confusion,
    "combatant_joined": _joined,
    "combat_ended": _ended,
    "vehicle_changed": apply_changed,
    "vehicle_moved": apply_moved,
}


def apply(state: Encounter, event: Event) -> Encounter:
    """The encounter after ``event``."""
    return _APPLY[event.type](state, event)


def replay(state: Encounter, events: Iterable[Event]) -> Encounter:
    """Fold ``events`` over ``state``: no dice, no rules, just the recorded outcomes."""
    for e in events:
        state = apply(state, e)
    return state
