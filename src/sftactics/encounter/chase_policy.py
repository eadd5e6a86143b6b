"""A simple chase policy: what each pilot and rider does when nobody gives a command (``sftactics chase`` without
a command file, ``simulate`` on a chase, ``auto`` at the table).

* Pilots: a quarry engaged by a pursuer breaks free; a pursuer in the quarry's zone engages it (the one with the
  lowest KAC), and once engaged evades (a failure does not drop it back); a pursuer already ahead of every quarry
  slows down; otherwise the pilot takes speed up or keep pace, whichever moves it farther on average with its
  own bonus and DC: speed up is worth 2 zones on a success and 1 on a failure by less than 5, keep pace 1 zone
  on a success and -1 on a failure (CHS-10, CHS-12, CHS-17).
* Combat phase: in the pilots' order, each pilot with a standard action left smashes into an engaged quarry when
  pursuing, else attacks; gunners fire their mounted weapon and passengers their first ranged weapon at the
  enemy vehicle in range with the fewest Hit Points. Nobody boards (a command does that).
"""

from __future__ import annotations

from collections.abc import Set

from sftactics.core.errors import RuleViolation
from sftactics.encounter.chase import DOWN, ChaseFight, _weapon
from sftactics.encounter.chase_commands import (
    BeginChase,
    ChaseAttackCmd,
    ChaseCommand,
    CollideCmd,
    EndRoundCmd,
    NoPilotActionCmd,
    PilotCmd,
    ProgressCmd,
)
from sftactics.encounter.chase_state import ChaseEncounter
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles import chase as rules
from sftactics.sf1e.vehicles.chase import ActionName


def chance(bonus: int, dc: int) -> float:
    """The chance that d20 + ``bonus`` meets ``dc`` (a skill check: no automatic results, GEN-01)."""
    return min(1.0, max(0.0, (21 - (dc - bonus)) / 20))


def _best_move(state: ChaseEncounter, vid: str) -> ActionName:
    chase, opts = state.chase, state.options
    if opts.engaged_forbidden and chase.engagement(vid):
        return "keep_pace"
    b_up = rules.pilot_check_bonus(chase, vid, "speed_up", options=opts).total
    b_kp = rules.pilot_check_bonus(chase, vid, "keep_pace", options=opts).total
    dc_up = rules.action_dc(chase, vid, "speed_up", options=opts).total
    dc_kp = rules.action_dc(chase, vid, "keep_pace", options=opts).total
    p_up, p_near = chance(b_up, dc_up), chance(b_up, dc_up - 4)
    e_up = 2 * p_up + (p_near - p_up)
    p_kp = chance(b_kp, dc_kp)
    e_kp = p_kp - (1 - p_kp)
    return "speed_up" if e_up > e_kp else "keep_pace"


def pilot_choice(state: ChaseEncounter, vid: str) -> ChaseCommand:
    chase = state.chase
    cv = chase.get(vid)
    foes_engaged = [x for x in chase.engagement(vid) if x != vid and chase.get(x).side != cv.side]
    quarry = cv.side == state.quarry
    if foes_engaged:
        return PilotCmd(vehicle=vid, action="break_free" if quarry else "evade")
    if not quarry:
        same = [e for e in chase.enemies(vid) if e.zone == cv.zone and rules._route_here(chase, e) ==
                rules._route_here(chase, cv)]  # fmt: skip
        if same:
            target = min(same, key=lambda e: rules.vehicle_kac(chase, e.id, state.options))
            return PilotCmd(vehicle=vid, action="engage", target=target.id)
        if chase.enemies(vid) and all(cv.zone > e.zone for e in chase.enemies(vid)):
            return PilotCmd(vehicle=vid, action="slow_down")
    try:
        return PilotCmd(vehicle=vid, action=_best_move(state, vid))
    except RuleViolation:
        return NoPilotActionCmd(vehicle=vid)


def _attack_for(state: ChaseEncounter, who: Creature, vid: str, is_pilot: bool) -> ChaseCommand | None:
    chase, opts = state.chase, state.options
    cv = chase.get(vid)
    if not cv.active:
        return None
    if is_pilot and not rules.pilot_can_attack(chase, vid):
        return None
    if is_pilot and cv.side == state.pursuers:
        for x in sorted(chase.engagement(vid)):
            if x != vid and chase.get(x).side != cv.side and cv.controlled:
                return CollideCmd(vehicle=vid, target=x)
    targets = sorted(chase.enemies(vid), key=lambda e: (e.vehicle.state.hp, e.id))
    rider = state.rider(who.id)
    for t in targets:
        try:
            engaged = t.id in chase.engagement(vid)
            _, w, _ = _weapon(state, who, vid, rider, None, engaged, is_pilot=is_pilot)
            rules.attack_setup(chase, vid, t.id, melee=w.is_melee, reach=w.reach,
                               range_increment_ft=w.range_ft or None, grenade=w.is_grenade, options=opts)  # fmt: skip
        except (RuleViolation, StopIteration):
            continue
        return ChaseAttackCmd(actor=who.id, target=t.id)
    return None


def next_command(state: ChaseEncounter, skip: Set[str] = frozenset()) -> ChaseCommand:
    """The policy's next command (``skip``: creatures whose command was refused this phase)."""
    chase = state.chase
    if not state.begun:
        return BeginChase()
    if chase.phase == "pilot_actions":
        vid = chase.current_pilot
        assert vid is not None
        return pilot_choice(state, vid)
    if chase.phase == "chase_progress":
        return ProgressCmd()
    for vid in chase.order:
        cv = chase.get(vid)
        crew = [(c, c is cv.pilot) for c in state.aboard(vid)]
        for c, is_pilot in crew:
            if c.id in state.acted or c.id in skip or any(c.has(x) for x in DOWN):
                continue
            cmd = _attack_for(state, c, vid, is_pilot)
            if cmd is not None:
                return cmd
    return EndRoundCmd()


def auto_play(fight: ChaseFight, *, max_commands: int = 5000) -> ChaseFight:
    """Play the chase on the policy until it ends (its round limit ends it at the latest)."""
    skip: set[str] = set()
    phase = (fight.state.chase.round, fight.state.chase.phase)
    for _ in range(max_commands):
        if fight.state.over:
            return fight
        now = (fight.state.chase.round, fight.state.chase.phase)
        if now != phase:
            skip.clear()
            phase = now
        cmd = next_command(fight.state, skip)
        try:
            fight.do(cmd)
        except RuleViolation:
            actor = getattr(cmd, "actor", None) or getattr(cmd, "vehicle", None)
            if isinstance(cmd, PilotCmd):
                fight.do(NoPilotActionCmd(vehicle=cmd.vehicle))
            elif actor is not None and not isinstance(cmd, EndRoundCmd):
                pilot = state_pilot(fight.state, actor)
                skip.add(pilot or actor)
            else:
                raise
    return fight


def state_pilot(state: ChaseEncounter, vid_or_creature: str) -> str | None:
    for cv in state.chase.vehicles:
        if cv.id == vid_or_creature:
            return cv.pilot.id if cv.pilot is not None else vid_or_creature
    return None


__all__ = ["auto_play", "chance", "next_command", "pilot_choice"]
