"""A transaction: the working state of one command, and the events it has produced so far.

Rules run against ``tx.state``; every change goes through :meth:`Tx.emit`, which applies the event and
records it. If the command is refused part-way, the caller drops the transaction: the encounter it started
from is an immutable value and is untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal

from sftactics.dice.source import DiceSource
from sftactics.encounter import narrate, timing
from sftactics.encounter.events import (
    AttackMade,
    CheckMade,
    CreatureChanged,
    DiceRolled,
    EffectEnded,
    EffectStarted,
    Event,
    Note,
    apply,
)
from sftactics.encounter.outcomes import DamageData, InjuryData, state_change
from sftactics.encounter.state import Effect, Encounter, Expiry
from sftactics.sf1e.statblock import ModifierSpec
from sftactics.sf1e.state import ConditionInstance, Creature

#: Asked whether a combatant takes a reaction: (state, reactor, provoker, why) -> take it?
ReactionDecider = Callable[[Encounter, str, str, str], bool]


class Tx:
    def __init__(self, state: Encounter, dice: DiceSource, decide: ReactionDecider | None = None) -> None:
        self.state = state
        self.dice = dice
        self.decide = decide
        self.events: list[Event] = []
        self._dice_mark = len(dice.history)

    def emit(self, event: Event) -> None:
        if isinstance(event, CreatureChanged) and event.change is None and event.id in self.state.combatants:
            before = self.state.creature(event.id).state
            event = event.model_copy(update={"change": state_change(before, event.state)})
        elif isinstance(event, AttackMade) and event.notes and event.result is not None:
            notes = narrate.templated(event.notes, event.result.ac, event.result.roll)
            event = event.model_copy(update={"notes": notes})
        elif isinstance(event, CheckMade) and event.notes and event.check is not None:
            event = event.model_copy(update={"notes": narrate.templated(event.notes, None, event.check)})
        self.state = apply(self.state, event)
        self.events.append(event)

    def note(self, text: str, rule: str = "") -> None:
        self.emit(Note(text=text, rule=rule))

    def creature(
        self,
        cid: str,
        new: Creature,
        lines: Iterable[str] = (),
        *,
        damage: DamageData | None = None,
        injury: InjuryData | None = None,
    ) -> None:
        """Record a creature's new live state (``lines``: notes; ``damage``/``injury``: the numbers that
        changed it); new timed conditions get their expiry (CF-14)."""
        before = self.state.creature(cid)
        notes = tuple(lines)
        event = CreatureChanged(id=cid, state=new.state, damage=damage, injury=injury, notes=notes)
        if new.state == before.state:
            if notes or damage is not None or (injury is not None and injury.lines):
                self.emit(event)
            return
        self.emit(event)
        self._track_timed_conditions(cid, before, new)

    def _track_timed_conditions(self, cid: str, before: Creature, after: Creature) -> None:
        old = list(before.state.conditions)
        for inst in after.state.conditions:
            if inst in old:
                old.remove(inst)
                continue
            if inst.rounds is not None and not any(e.condition == inst and e.target == cid for e in self.state.effects):
                self.start_effect(
                    cid,
                    inst.name,
                    condition=inst,
                    expires=timing.for_rounds(self.state, inst.rounds),
                    source=inst.source,
                )

    def start_effect(
        self,
        target: str,
        name: str,
        *,
        expires: Expiry,
        condition: ConditionInstance | None = None,
        modifiers: Iterable[ModifierSpec] = (),
        flags: Iterable[str] = (),
        source: str = "",
        rule: str = "",
        temp_hp: int = 0,
        keeper: str | None = None,
        keep: Literal["none", "concentration", "dismissible"] = "none",
    ) -> Effect:
        """Start a timed effect; its modifiers take hold on the creature at once. ``temp_hp``: the temporary HP
        it granted (they end with it); ``keeper``/``keep``: who keeps it up, and how."""
        eid = self.state.next_effect_id
        mods = tuple(m.model_copy(update={"label": f"{m.label}"}) for m in modifiers)
        effect = Effect(
            id=eid,
            target=target,
            name=name,
            source=source,
            condition=condition,
            modifiers=mods,
            flags=frozenset(flags),
            expires=expires,
            rule=rule,
            temp_hp=temp_hp,
            keeper=keeper,
            keep=keep,
        )
        self.emit(EffectStarted(effect=effect))
        if mods:
            c = self.state.creature(target)
            new = c.with_state(modifiers=(*c.state.modifiers, *mods))
            self.emit(CreatureChanged(id=target, state=new.state, notes=(f"{name}: {expires.describe()}",)))
        return effect

    def end_effect(self, effect_id: int, why: str) -> None:
        """End a timed effect: remove its condition instance and modifiers from the creature."""
        effect = next((e for e in self.state.effects if e.id == effect_id), None)
        if effect is None:
            return
        self.emit(EffectEnded(effect_id=effect_id, why=why, target=effect.target, name=effect.name))
        if effect.target not in self.state.combatants:
            return
        c = self.state.creature(effect.target)
        conds = list(c.state.conditions)
        if effect.condition is not None and effect.condition in conds:
            conds.remove(effect.condition)
        mods = list(c.state.modifiers)
        for m in effect.modifiers:
            if m in mods:
                mods.remove(m)
        if tuple(conds) != c.state.conditions or tuple(mods) != c.state.modifiers:
            new = c.with_state(conditions=tuple(conds), modifiers=tuple(mods))
            self.emit(CreatureChanged(id=effect.target, state=new.state, notes=(f"{effect.name} ends ({why})",)))

    def finish(self) -> list[Event]:
        rolled = self.dice.history[self._dice_mark :]
        if rolled:
            self.emit(DiceRolled(dice=tuple((d.sides, d.result, d.purpose) for d in rolled)))
        return self.events
