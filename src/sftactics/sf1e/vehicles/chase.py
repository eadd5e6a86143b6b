"""Vehicle chases (CHS-01..41): zones, the three phases of a round, pilot actions (Table 8-3), chase progress,
escaping and being left behind, hazards, and the adjustments to combat.

A :class:`Chase` is a frozen value; :func:`step` applies one command to it with a dice source and returns a
:class:`ChaseStep` (the new chase, the checks rolled and the explanation lines). A refused command raises
:class:`~sftactics.core.errors.RuleViolation` and changes nothing.

Positions (CHS-02): each vehicle is in a numbered zone (higher = farther ahead); vehicles in one zone are about
50 ft apart, engaged ones adjacent, one zone apart about 200 ft (``VehicleOptions``). Who is ahead decides the
+2 bonuses (CHS-03).

A round (CHS-05):

1. **Pilot actions** - pilots act in initiative order (:attr:`Chase.order`, CHS-04). Each takes one pilot action
   (a move action), two with a double maneuver (a full action; each check at -4, or -2 for a vehicle at least
   50 ft faster than the fastest enemy, CHS-14), leaves the vehicle uncontrolled, or passes. Only speed up moves
   a vehicle now (CHS-06, CHS-12). Commands: :class:`PilotAction`, :class:`DoubleManeuver`, :class:`Forfeit`,
   :class:`LeaveUncontrolled`, :class:`Pass`. Vehicles nobody controls are passed over automatically.
2. **Chase progress** - :class:`Progress` moves every vehicle (CHS-17, CHS-18), triggers hazards (CHS-19, CHS-30),
   then removes vehicles that escaped or were left behind (CHS-20, CHS-21) and ends the chase when a side is out
   (CHS-23).
3. **Combat** - creatures act in the encounter's initiative order; the chase offers :func:`attack_setup` (range,
   being ahead, the normal attack penalty, cover, melee only between engaged vehicles with reach weapons:
   CHS-24..26), :func:`attack_vehicle`, and the commands :class:`Collide` (CHS-28), :class:`Board` (CHS-27) and
   :class:`DamageVehicle`. :class:`EndRound` starts the next round.

Effects "for 1 round" (a trick's penalty, evade's +2 AC, off course) last until the same moment of the next round.

The rules live in smaller modules, re-exported here:

* :mod:`~sftactics.sf1e.vehicles.chase_state` - the :class:`Chase` value, its vehicles, records and effects, Table
  8-3, :class:`ChaseStep`, damage to a vehicle in the chase (CHS-02..05, CHS-23);
* :mod:`~sftactics.sf1e.vehicles.chase_commands` - the commands :func:`step` applies;
* :mod:`~sftactics.sf1e.vehicles.chase_checks` - being ahead, check modifiers, DCs, a vehicle's AC (CHS-03,
  CHS-07..15);
* :mod:`~sftactics.sf1e.vehicles.chase_progress` - moving between zones, hazards, chase progress, split routes
  (CHS-17..23, CHS-30, CHS-31, CHS-35);
* :mod:`~sftactics.sf1e.vehicles.chase_pilot_actions` - the pilot actions phase (CHS-05..16);
* :mod:`~sftactics.sf1e.vehicles.chase_combat` - the combat phase and attacks in a chase (CHS-22, CHS-24..28).

This module keeps starting a chase (CHS-04), :func:`step`, and the helpers for after a chase (XP, CHS-40), ricochets
(CHS-38) and plain skill checks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from sftactics.core.breakdown import Breakdown
from sftactics.core.check import CheckKind, CheckResult, resolve
from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.sf1e import stats
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles.chase_checks import (
    action_dc,
    double_penalty,
    is_ahead,
    pilot_check_bonus,
    vehicle_ac,
    vehicle_kac,
)
from sftactics.sf1e.vehicles.chase_combat import (
    ChaseAttack,
    VehicleAttackResult,
    attack_setup,
    attack_vehicle,
    board,
    chase_distance_ft,
    collide,
    end_round,
    pilot_can_attack,
    rejoin,
)
from sftactics.sf1e.vehicles.chase_commands import (
    Board,
    Collide,
    Command,
    DamageVehicle,
    DoubleManeuver,
    EndRound,
    Forfeit,
    LeaveUncontrolled,
    Pass,
    PilotAction,
    Progress,
    Rejoin,
)
from sftactics.sf1e.vehicles.chase_pilot_actions import _find_trick as _find_trick
from sftactics.sf1e.vehicles.chase_pilot_actions import _pilot_phase, _settle_turn
from sftactics.sf1e.vehicles.chase_progress import _route_here as _route_here
from sftactics.sf1e.vehicles.chase_progress import hazard_attack, progress, progress_delta
from sftactics.sf1e.vehicles.chase_state import (
    TABLE_8_3,
    ActionRow,
    ActiveHazard,
    Chase,
    ChaseStep,
    ChaseVehicle,
    Effect,
    Outcome,
    PilotRecord,
    damage,
)
from sftactics.sf1e.vehicles.chase_state import ActionName as ActionName
from sftactics.sf1e.vehicles.chase_state import Phase as Phase
from sftactics.sf1e.vehicles.chase_state import Status as Status
from sftactics.sf1e.vehicles.checks import roll_check, skill_of
from sftactics.sf1e.vehicles.environment import Environment, Hazard
from sftactics.sf1e.vehicles.options import DEFAULT_VEHICLE_OPTIONS, VehicleOptions

# ---------------------------------------------------------------- starting a chase (CHS-04)


def start_chase(
    vehicles: Sequence[ChaseVehicle],
    *,
    order: Sequence[str] | None = None,
    dice: DiceSource | None = None,
    environment: Environment | None = None,
) -> ChaseStep:
    """CHS-04: a chase keeps the initiative order of the grid fight it comes from (``order``: vehicle ids, first
    to act first), or rolls initiative for every pilot (d20 + initiative; ties: the higher modifier, then the
    order given). Vehicles without a pilot go last."""
    ids = [cv.id for cv in vehicles]
    if len(set(ids)) != len(ids):
        raise RuleViolation("CHS-04", "every vehicle in a chase needs its own id")
    lines: list[str] = []
    checks: list[CheckResult] = []
    if order is not None:
        if sorted(order) != sorted(ids):
            raise RuleViolation("CHS-04", "the order must list every vehicle once")
        final = tuple(order)
        lines.append("the chase keeps the initiative order: " + ", ".join(final) + " [CHS-04]")
    else:
        if dice is None:
            raise RuleViolation("CHS-04", "roll initiative (dice) or give the order")
        scored: list[tuple[int, int, int, str]] = []
        for i, cv in enumerate(vehicles):
            if cv.pilot is None:
                scored.append((-1000, -1000, i, cv.id))
                continue
            bonus = stats.initiative(cv.pilot)
            r = resolve(CheckKind.INITIATIVE, bonus, 0, dice, purpose=f"{cv.pilot.name} initiative")
            checks.append(r)
            scored.append((r.total, bonus.total, -i, cv.id))
            lines.append(f"{cv.pilot.name} ({cv.id}) initiative d20 {r.natural} {bonus.total:+d} = {r.total} [CHS-04]")
        final = tuple(x[3] for x in sorted(scored, reverse=True))
    chase = Chase(vehicles=tuple(vehicles), order=final, environment=environment or Environment())
    chase = chase.model_copy(update={"round_start_zones": chase.zones()})
    chase, more = _settle_turn(chase)
    return ChaseStep(chase, tuple(checks), (*lines, *more))


# ---------------------------------------------------------------- applying a command


def step(
    chase: Chase, command: Command, dice: DiceSource, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS
) -> ChaseStep:
    """Apply one command (see the module docstring)."""
    if chase.over and not isinstance(command, Rejoin):
        raise RuleViolation("CHS-23", "the chase is over")
    if isinstance(command, PilotAction | DoubleManeuver | Forfeit | LeaveUncontrolled | Pass):
        return _pilot_phase(chase, command, dice, options)
    if isinstance(command, Progress):
        return progress(chase, dice, decline_escape=command.decline_escape, options=options)
    if isinstance(command, Collide):
        return collide(chase, command, dice, options)
    if isinstance(command, Board):
        return board(chase, command, dice, options)
    if isinstance(command, DamageVehicle):
        return damage(chase, command.vehicle, command.amount, ignores_hardness=command.ignores_hardness,
                      source=command.source, options=options)  # fmt: skip
    if isinstance(command, EndRound):
        return end_round(chase)
    return rejoin(chase, command)


# ---------------------------------------------------------------- experience (CHS-40)


def chase_xp_crs(
    enemy_creature_crs: Iterable[tuple[str, str]],
    hazards_encountered: Iterable[Hazard],
    *,
    already_awarded: Iterable[str] = (),
) -> list[Fraction]:
    """CHS-40: the CRs to award XP for after a successful chase (Table 11-3 is outside the seeds): each creature in
    an enemy vehicle once (``(id, cr)``; not those already awarded for defeating them), plus each active hazard
    encountered."""
    done = set(already_awarded)
    out = [Fraction(cr) for cid, cr in enemy_creature_crs if cid not in done]
    seen: set[str] = set()
    for h in hazards_encountered:
        if h.name not in seen:
            seen.add(h.name)
            out.append(Fraction(h.cr))
    return out


def ricochet(dice: DiceSource, chance: int = 10) -> bool:
    """CHS-38: a missed ranged attack ricochets into a vehicle adjacent to the target (not the attacker's) on a
    d% roll of ``chance`` or less."""
    return dice.percentile("ricochet") <= chance


def skill_check(
    creature: Creature | Breakdown | int, skill: str, dc: int, dice: DiceSource, purpose: str = ""
) -> CheckResult:
    """A plain skill check (X-05)."""
    return roll_check(skill_of(creature, skill), dc, dice, purpose or skill)


__all__ = [
    "TABLE_8_3",
    "ActionRow",
    "ActiveHazard",
    "Board",
    "Chase",
    "ChaseAttack",
    "ChaseStep",
    "ChaseVehicle",
    "Collide",
    "Command",
    "DamageVehicle",
    "DoubleManeuver",
    "Effect",
    "EndRound",
    "Forfeit",
    "LeaveUncontrolled",
    "Outcome",
    "Pass",
    "PilotAction",
    "PilotRecord",
    "Progress",
    "Rejoin",
    "VehicleAttackResult",
    "action_dc",
    "attack_setup",
    "attack_vehicle",
    "chase_distance_ft",
    "chase_xp_crs",
    "collide",
    "damage",
    "double_penalty",
    "end_round",
    "hazard_attack",
    "is_ahead",
    "pilot_can_attack",
    "pilot_check_bonus",
    "progress",
    "progress_delta",
    "rejoin",
    "ricochet",
    "skill_check",
    "start_chase",
    "step",
    "vehicle_ac",
    "vehicle_kac",
]
