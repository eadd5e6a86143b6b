"""At the table: the shared verbs mean the 2E action in a 2E fight (``attack`` is a Strike, ``move`` a Stride,
``step`` a Step), so a GM types the same words in either edition."""

from __future__ import annotations

from sftactics.encounter.commands import Attack, Command, GuardedStep, Move
from sftactics.encounter.sf2e.commands2e import Step, Stride, Strike
from sftactics.encounter.state import Encounter


def for_ruleset(state: Encounter, cmd: Command) -> Command:
    """``cmd`` as the fight's edition takes it: in a 2E fight a 1E attack, move or guarded step becomes the
    2E Strike, Stride or Step; anything else (and every command of a 1E fight) is left as it is."""
    if state.ruleset != "sf2e":
        return cmd
    if isinstance(cmd, Attack):
        return Strike(actor=cmd.actor, target=cmd.target, weapon=cmd.weapon)
    if isinstance(cmd, Move):
        return Stride(actor=cmd.actor, to=cmd.to, path=cmd.path)
    if isinstance(cmd, GuardedStep):
        return Step(actor=cmd.actor, to=cmd.to)
    return cmd


def strike_names(state: Encounter, cid: str) -> list[str] | None:
    """The names of a 2E combatant's Strikes (None for a 1E combatant: its weapons serve)."""
    body = state.get(cid).body2e
    return None if body is None else [s.name for s in body.stat.strikes]
