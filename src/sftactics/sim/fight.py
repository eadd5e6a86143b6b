"""One simulated fight: the engine's :class:`~sftactics.encounter.engine.Fight`, lighter, with a tracker.

:class:`SimFight` is a ``Fight`` whose command and event log is optional (``keep_log``): without it, each
command's events are shown to the observers (the :class:`Tracker` that collects the statistics) and dropped,
and the dice history is cleared after each command. A refused command rewinds the dice by restoring the random
generator's state instead of replaying the whole history. The dice are the engine's seeded stream, so a
simulated fight played by the engine's own policy is the fight ``sftactics run --seed S`` shows.

:func:`play_fight` runs one fight to its end with a policy per side and returns a
:class:`~sftactics.sim.stats.FightResult`.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Mapping
from typing import Any

from sftactics.core.errors import SftError
from sftactics.dice.source import DiceSource
from sftactics.encounter import flow
from sftactics.encounter.commands import Begin, Command, EndCombat, EndTurn, Resume, parse_command
from sftactics.encounter.engine import Fight, pending, step
from sftactics.encounter.events import (
    AttackMade,
    CombatantJoined,
    CreatureChanged,
    Event,
    RoundStarted,
    TurnEnded,
    TurnStarted,
)
from sftactics.encounter.sf2e.events2e import Creature2eChanged, Strike2eMade
from sftactics.encounter.sf2e.model import face_state
from sftactics.encounter.state import Encounter
from sftactics.sf1e.state import CreatureState
from sftactics.sim.stats import CombatantOutcome, FightResult

Policy = Callable[[Fight, str], None]
Observer = Callable[[Encounter, Command, list[Event]], None]


class SimDice(DiceSource):
    """The engine's seeded dice (same generator, same stream as ``SeededDice``) with a cheap rewind."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed
        self._rng = random.Random(seed)
        self._randint = self._rng.randint

    def _next(self, sides: int, purpose: str) -> int:
        return self._randint(1, sides)

    def mark(self) -> tuple[int, Any]:
        return len(self.history), self._rng.getstate()

    def rewind(self, mark: tuple[int, Any]) -> None:
        used, rng_state = mark
        self._rng.setstate(rng_state)
        del self.history[used:]


class SimFight(Fight):
    """A fight for simulation: the log is kept only with ``keep_log``; ``observers`` see every command's events."""

    def __init__(self, start: Encounter, seed: int, *, keep_log: bool = False) -> None:
        self.sim_dice = SimDice(seed)
        super().__init__(start, self.sim_dice, seed=seed)
        self.keep_log = keep_log
        self.steps = 0  # commands accepted
        self.observers: list[Observer] = []

    def do(self, command: Command | dict[str, Any]) -> list[Event]:
        cmd = parse_command(command) if isinstance(command, dict) else command
        mark = self.sim_dice.mark()
        before = self.state
        try:
            result = step(before, cmd, self.sim_dice)
        except SftError:
            self.sim_dice.rewind(mark)  # nothing half-applied, not even the dice stream
            raise
        self.state = result.state
        self.steps += 1
        if self.keep_log:
            self.commands.append(cmd)
            self.events.append(result.events)
        else:
            del self.sim_dice.history[:]
        for observe in self.observers:
            observe(before, cmd, result.events)
        return result.events

    def undo(self) -> Command:
        if not self.keep_log:
            raise SftError("this simulated fight keeps no log: nothing to undo")
        last = super().undo()
        self.sim_dice = SimDice(self.seed or 0)
        for d in self.dice.history:
            self.sim_dice.die(d.sides, d.purpose)
        self.dice = self.sim_dice
        return last


# ---------------------------------------------------------------- statistics from the events
def _pool(st: CreatureState) -> int:
    return st.sp + st.hp + st.temp_hp


def _down(st: CreatureState) -> bool:
    return st.has("unconscious") or st.has("dying") or st.has("dead") or st.has("stable")


class Tracker:
    """Collects a fight's statistics from its events as they happen (no log needed)."""

    def __init__(self, start: Encounter) -> None:
        self.info: dict[str, tuple[str, bool]] = {}
        self.pool: dict[str, int] = {}
        self.rp: dict[str, int] = {}
        self.ko: set[str] = set()
        self.down: set[str] = set()
        self.cause: dict[str, str] = {}
        self.dropped_by: dict[str, str] = {}
        self.dealt: dict[str, int] = {}
        self.taken: dict[str, int] = {}
        self.spent: dict[str, int] = {}
        self.lost: dict[str, int] = {}
        for c in start.combatants.values():
            self._add(c.id, c.side, c.creature.stat.kind == "pc", c.creature.state)

    def _add(self, cid: str, side: str, pc: bool, st: CreatureState) -> None:
        self.info[cid] = (side, pc)
        self.pool[cid] = _pool(st)
        self.rp[cid] = st.rp
        for d in (self.dealt, self.taken, self.spent, self.lost):
            d[cid] = 0
        if _down(st):
            self.ko.add(cid)
            self.down.add(cid)

    def observe(self, before: Encounter, cmd: Command, events: list[Event]) -> None:
        source: tuple[str, str] | None = None
        chosen = cmd.type in ("stabilize", "stay_in_the_fight") or getattr(cmd, "resolve_cost", 0) > 0
        chooser = getattr(cmd, "actor", None) if chosen else None  # Resolve spent by choice (healing channel too)
        for ev in events:
            if isinstance(ev, CreatureChanged):
                self._changed(ev.id, ev.state, source, chooser == ev.id)
            elif isinstance(ev, AttackMade | Strike2eMade):
                source = (ev.attacker, ev.weapon)
            elif isinstance(ev, Creature2eChanged):  # a 2E fight: its plain face has the pools and conditions
                self._changed(ev.id, face_state(ev.creature), source, False)
            elif isinstance(ev, TurnStarted | TurnEnded | RoundStarted):
                source = None
            elif isinstance(ev, CombatantJoined):
                c = ev.combatant
                self._add(c.id, c.side, c.creature.stat.kind == "pc", c.creature.state)

    def _changed(self, cid: str, st: CreatureState, source: tuple[str, str] | None, chosen: bool) -> None:
        new_pool = _pool(st)
        delta = self.pool.get(cid, new_pool) - new_pool
        self.pool[cid] = new_pool
        if delta > 0:
            self.taken[cid] += delta
            if source is not None and source[0] != cid and source[0] in self.dealt:
                self.dealt[source[0]] += delta
        rp_delta = self.rp.get(cid, st.rp) - st.rp
        self.rp[cid] = st.rp
        if rp_delta > 0:
            (self.spent if chosen else self.lost)[cid] += rp_delta
        down = _down(st)
        if down and cid not in self.down:
            # who or what dropped it this time; a drop with no attacker (bleeding at the start of its turn,
            # say) names no one, not whoever dropped it an earlier time
            if source is not None:
                self.dropped_by[cid] = f"{source[0]} ({source[1]})"
            else:
                self.dropped_by.pop(cid, None)
            self.ko.add(cid)
            self.down.add(cid)
        elif not down:
            self.down.discard(cid)
        if st.has("dead") and cid not in self.cause:
            why = next((c.source for c in st.conditions if c.name == "dead"), "") or "unknown"
            self.cause[cid] = death_cause(why, source, self.dropped_by.get(cid))

    def result(self, state: Encounter, *, index: int, seed: int, conceded: str | None = None) -> FightResult:
        res = state.result
        winner = res.winner if res is not None else None
        reason = res.reason if res is not None else "not finished"
        rounds = res.round if res is not None else state.timeline.round
        if conceded is not None:
            others = [s for s in flow.able_sides(state) if s != conceded]
            winner = others[0] if len(others) == 1 else None
        outcomes = []
        for cid, (side, pc) in self.info.items():
            c = state.combatants[cid]
            cr = c.creature
            outcomes.append(
                CombatantOutcome(
                    id=cid,
                    side=side,
                    pc=pc,
                    knocked_out=cid in self.ko,
                    died=cr.has("dead"),
                    dying_at_end=cr.has("dying"),
                    rp_spent=self.spent[cid],
                    rp_lost=self.lost[cid],
                    damage_dealt=self.dealt[cid],
                    damage_taken=self.taken[cid],
                    death_cause=self.cause.get(cid) if cr.has("dead") else None,
                )
            )
        return FightResult(index, seed, winner, rounds, reason, tuple(outcomes), conceded)


def death_cause(why: str, source: tuple[str, str] | None, dropped_by: str | None) -> str:
    """A death in words a GM reads: the rule's cause (the dead condition's source) and who or what did it."""
    by = f"{source[0]} ({source[1]})" if source is not None else None
    if why == "Resolve exhausted":
        if by is not None:
            return f"hit while dying, no Resolve left: {by}"
        return "bled out, no Resolve left" + (f" (dropped by {dropped_by})" if dropped_by else "")
    if why == "massive damage":
        return "massive damage" + (f": {by}" if by else "")
    if why == "0 HP":
        return "killed at 0 HP" + (f": {by}" if by else (f" (dropped by {dropped_by})" if dropped_by else ""))
    return why + (f": {by}" if by else "")


# ---------------------------------------------------------------- playing
def concedes(policy: Policy, state: Encounter, side: str) -> bool:
    """Whether ``policy`` gives the fight up for ``side`` (every able member retreating)."""
    fn = getattr(policy, "concedes", None)
    return bool(fn(state, side)) if fn is not None else False


def run_fight(
    start: Encounter,
    seed: int,
    policies: Mapping[str, Policy],
    *,
    index: int = 0,
    max_rounds: int = 50,
    keep_log: bool = False,
) -> tuple[FightResult, SimFight]:
    """Play one fight to its end; ``policies`` maps each side to the policy that takes its turns (a missing
    side uses the ``"*"`` entry). Returns the result and the fight (its log only with ``keep_log``)."""
    fight = SimFight(start, seed, keep_log=keep_log)
    tracker = Tracker(start)
    fight.observers.append(tracker.observe)
    if fight.state.timeline.phase == "setup":
        fight.do(Begin())
    conceded: str | None = None
    stalled = 0
    while fight.state.result is None:
        s = fight.state
        who = pending(s)
        if who is None:
            break
        if s.timeline.round > max_rounds:
            fight.do(EndCombat(reason=f"round limit {max_rounds} reached"))
            break
        if s.timeline.turn is None and flow.delayers(s):
            fight.do(Resume(actor=flow.delayers(s)[0]))
            continue
        side = s.get(who).side
        policy = policies.get(side) or policies["*"]
        before = fight.steps
        policy(fight, who)
        if fight.steps == before:
            # the policy did nothing: the GM ends the turn for it (a policy must never stall a long run)
            stalled += 1
            if stalled > 3:
                raise SftError(f"the policy made no progress for {who} (seed {seed})")
            if fight.state.timeline.turn in (None, who) and pending(fight.state) == who:
                with contextlib.suppress(SftError):
                    fight.do(EndTurn(actor=who))
        else:
            stalled = 0
        if fight.state.result is None and concedes(policy, fight.state, side):
            conceded = side
            fight.do(EndCombat(reason=f"the {side} side retreats"))
    return tracker.result(fight.state, index=index, seed=seed, conceded=conceded), fight


def play_fight(
    start: Encounter,
    seed: int,
    policies: Mapping[str, Policy],
    *,
    index: int = 0,
    max_rounds: int = 50,
) -> FightResult:
    """Play one fight without keeping its log; the result only."""
    return run_fight(start, seed, policies, index=index, max_rounds=max_rounds)[0]
