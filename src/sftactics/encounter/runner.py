"""Running a fight to its end with a policy deciding for every combatant."""

from __future__ import annotations

from sftactics.core.errors import SftError
from sftactics.encounter import flow
from sftactics.encounter.commands import Begin, EndCombat, Resume
from sftactics.encounter.engine import Fight, pending
from sftactics.encounter.policy import Policy, simple


def auto_play(fight: Fight, policy: Policy = simple, *, max_rounds: int = 50) -> Fight:
    """Let ``policy`` take every turn until the combat ends (or the GM's round limit ends it). A 2E fight's
    default is the 2E simple policy."""
    if fight.state.ruleset == "sf2e" and policy is simple:
        from sftactics.encounter.sf2e.policy2e import simple2e

        policy = simple2e
    if fight.state.timeline.phase == "setup":
        fight.do(Begin())
    guard = 0
    while fight.state.result is None:
        who = pending(fight.state)
        if who is None:
            break
        if fight.state.timeline.round > max_rounds:
            fight.do(EndCombat(reason=f"round limit {max_rounds} reached"))
            break
        before = len(fight.commands)
        if fight.state.timeline.turn is None and flow.delayers(fight.state):
            # between turns a delayer may come back in; the built-in policies never wait longer
            fight.do(Resume(actor=flow.delayers(fight.state)[0]))
            continue
        policy(fight, who)
        if len(fight.commands) == before:
            guard += 1
            if guard > 3:
                raise SftError(f"the policy made no progress for {who}")
        else:
            guard = 0
    return fight
