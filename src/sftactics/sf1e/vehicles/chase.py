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
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain
from sftactics.core.check import CheckKind, CheckResult, resolve
from sftactics.core.errors import RuleViolation
from sftactics.dice import parse
from sftactics.dice.source import DiceSource
from sftactics.grid.cover import CoverKind
from sftactics.grid.geometry import check_range
from sftactics.sf1e import damage as dmg
from sftactics.sf1e import stats
from sftactics.sf1e.statblock import NameSet
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles.checks import PilotLike, check_bonus, failed_by, roll_check, roll_collision, skill_of
from sftactics.sf1e.vehicles.environment import (
    BOTH_ATTACK_PENALTY,
    OFF_COURSE_PENALTY,
    Environment,
    Hazard,
    NewTrick,
)
from sftactics.sf1e.vehicles.options import DEFAULT_VEHICLE_OPTIONS, VehicleOptions
from sftactics.sf1e.vehicles.piloting import BoardResult, attack_penalty, boarding, passenger_cover
from sftactics.sf1e.vehicles.state import Vehicle, armor_class, damage_vehicle, full_speed

B = BonusType.BASE
ActionName = Literal["break_free", "engage", "evade", "keep_pace", "slow_down", "speed_up", "trick"]
Phase = Literal["pilot_actions", "chase_progress", "combat", "over"]
Status = Literal["in", "escaped", "left_behind", "wrecked"]
_PHASE_INDEX = {"pilot_actions": 0, "chase_progress": 1, "combat": 2, "over": 3}


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One row of Table 8-3 (CHS-15)."""

    skill: str
    dc: str
    result: str


#: Table 8-3: pilot actions in a vehicle chase (CHS-15). Every action but double maneuver is a move action.
TABLE_8_3: dict[str, ActionRow] = {
    "break_free": ActionRow("Piloting", "5 + enemy vehicle's KAC", "end the engagement (+1 zone in chase progress)"),
    "double_maneuver": ActionRow("varies", "each at -4", "two pilot actions (at most +1 zone in chase progress)"),
    "engage": ActionRow("Piloting", "enemy vehicle's KAC", "riders can attack or board (+1 zone in chase progress)"),
    "evade": ActionRow("Piloting", "10 + item level", "+2 to the vehicle's AC for 1 round (+1 zone)"),
    "keep_pace": ActionRow("Piloting", "10 + item level", "+1 zone in chase progress (failure: back 1 zone)"),
    "slow_down": ActionRow("none", "none", "the vehicle does not move forward in chase progress"),
    "speed_up": ActionRow("Piloting", "17 + item level", "+1 zone now, +1 zone in chase progress"),
    "trick": ActionRow("varies", "15 + item level", "pilots behind take -2 to Piloting for 1 round (+1 zone)"),
}


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ChaseVehicle(_Model):
    """A vehicle in the chase: its side, its pilot (None: autopilot or nobody), zone, route and status."""

    vehicle: Vehicle
    side: str
    pilot: Creature | None = None
    zone: int = 0
    route: str | None = None
    status: Status = "in"

    @property
    def id(self) -> str:
        return self.vehicle.id

    @property
    def active(self) -> bool:
        return self.status == "in"

    @property
    def controlled(self) -> bool:
        if self.vehicle.wrecked:
            return False
        if self.vehicle.state.control == "autopilot":
            return True
        return self.pilot is not None and self.vehicle.state.control == "pilot"


class Effect(_Model):
    """A timed effect on a vehicle: ``trick`` (Piloting penalty), ``evade`` (+2 circumstance AC), ``off_course``
    (-4 Piloting). Active from ``start`` until just before ``until`` (round, phase, slot)."""

    kind: Literal["trick", "evade", "off_course"]
    source: str
    vehicle: str
    value: int
    start: tuple[int, int, int]
    until: tuple[int, int, int]


class Outcome(_Model):
    """One pilot action taken this round and how it went (for chase progress)."""

    action: str
    success: bool
    checked: bool = True
    failed_by: int = 0
    target: str | None = None


class PilotRecord(_Model):
    vehicle: str
    double: bool = False
    actions: tuple[Outcome, ...] = ()
    uncontrolled: bool = False
    done: bool = False

    @property
    def used(self) -> Literal["none", "move", "full"]:
        """The pilot's actions spent in the pilot actions phase (what is left is for the combat phase, CHS-06)."""
        if self.double:
            return "full"
        return "move" if self.actions else "none"


class ActiveHazard(_Model):
    """A hazard that follows the chase (rear or random attacks), with the rounds it has left (None: no limit)."""

    key: str
    hazard: Hazard
    zone: int
    rounds_left: int | None = None


class Chase(_Model):
    vehicles: tuple[ChaseVehicle, ...]
    order: tuple[str, ...]
    environment: Environment = Environment()
    round: int = 1
    phase: Phase = "pilot_actions"
    turn: int = 0
    records: tuple[PilotRecord, ...] = ()
    engagements: tuple[NameSet, ...] = ()
    effects: tuple[Effect, ...] = ()
    round_start_zones: dict[str, int] = Field(default_factory=dict)
    virtual_ahead: tuple[tuple[str, str], ...] = ()
    split_engaged: tuple[tuple[str, str], ...] = ()
    spent_hazards: NameSet = frozenset()
    active_hazards: tuple[ActiveHazard, ...] = ()
    added_hazards: tuple[tuple[int, Hazard], ...] = ()

    # ----- lookups
    def get(self, vid: str) -> ChaseVehicle:
        for cv in self.vehicles:
            if cv.id == vid:
                return cv
        raise RuleViolation("CHS-02", f"no vehicle {vid!r} in the chase")

    def record(self, vid: str) -> PilotRecord | None:
        for r in self.records:
            if r.vehicle == vid:
                return r
        return None

    @property
    def active(self) -> tuple[ChaseVehicle, ...]:
        return tuple(cv for cv in self.vehicles if cv.active)

    def enemies(self, vid: str) -> tuple[ChaseVehicle, ...]:
        side = self.get(vid).side
        return tuple(cv for cv in self.active if cv.side != side)

    def engagement(self, vid: str) -> frozenset[str]:
        for g in self.engagements:
            if vid in g:
                return g
        return frozenset()

    def zones(self) -> dict[str, int]:
        return {cv.id: cv.zone for cv in self.vehicles}

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def current_pilot(self) -> str | None:
        if self.phase != "pilot_actions" or self.turn >= len(self.order):
            return None
        return self.order[self.turn]

    def now(self) -> tuple[int, int, int]:
        slot = self.turn if self.phase == "pilot_actions" else 0
        return (self.round, _PHASE_INDEX[self.phase], slot)

    def with_vehicle(self, cv: ChaseVehicle) -> Chase:
        return self.model_copy(update={"vehicles": tuple(cv if x.id == cv.id else x for x in self.vehicles)})


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


# ---------------------------------------------------------------- commands


@dataclass(frozen=True, slots=True)
class PilotAction:
    """A pilot action for ``vehicle`` (Table 8-3). ``target``: the enemy (engage, the engagement's enemies for
    break free) or ally to engage. ``skill``: the skill for a trick (Piloting unless the GM allows Bluff,
    Stealth...). ``bonus`` overrides the pilot's skill bonus. ``route``: the split route the vehicle takes
    (CHS-35). ``trick``: the name of an environment's new trick (CHS-34). ``willing``: every party wants the
    engagement to end (break free without a check, CHS-07)."""

    vehicle: str
    action: ActionName
    target: str | None = None
    skill: str = "piloting"
    bonus: int | Breakdown | None = None
    route: str | None = None
    trick: str | None = None
    willing: bool = False


@dataclass(frozen=True, slots=True)
class DoubleManeuver:
    """Declare a double maneuver (a full action) before the first of its two pilot actions (CHS-14)."""

    vehicle: str


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Give up the second action of a double maneuver; the first keeps its penalty (CHS-14)."""

    vehicle: str


@dataclass(frozen=True, slots=True)
class LeaveUncontrolled:
    """The pilot takes no pilot action and leaves the vehicle uncontrolled this round: it counts as failing every
    check (CHS-17), and its pilot may make a full attack in the combat phase (CHS-25)."""

    vehicle: str


@dataclass(frozen=True, slots=True)
class Pass:
    """The pilot takes no pilot action (the vehicle does not move forward: no check succeeded, CHS-17)."""

    vehicle: str


@dataclass(frozen=True, slots=True)
class Progress:
    """Run the chase progress phase. ``decline_escape``: vehicles that would escape but stay one zone ahead
    instead (CHS-21)."""

    decline_escape: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Collide:
    """Combat phase, standard action: smash ``vehicle`` into the engaged enemy ``target`` (CHS-28)."""

    vehicle: str
    target: str
    bonus: int | Breakdown | None = None


@dataclass(frozen=True, slots=True)
class Board:
    """Combat phase, move action: ``creature`` on ``from_vehicle`` jumps to the engaged ``to_vehicle`` (CHS-27)."""

    creature: Creature
    from_vehicle: str
    to_vehicle: str
    skill: Literal["acrobatics", "athletics"] = "acrobatics"
    fall_ft: float | None = None


@dataclass(frozen=True, slots=True)
class DamageVehicle:
    """Damage to a vehicle in the chase from outside the chase rules (an attack the encounter resolved)."""

    vehicle: str
    amount: int
    ignores_hardness: int = 0
    source: str = ""


@dataclass(frozen=True, slots=True)
class EndRound:
    """End the combat phase: a new round starts with the pilot actions phase."""


@dataclass(frozen=True, slots=True)
class Rejoin:
    """CHS-22: a vehicle that escaped or was left behind comes back, in extraordinary circumstances the GM allows."""

    vehicle: str
    zone: int
    gm_allows: bool = False


Command = (
    PilotAction | DoubleManeuver | Forfeit | LeaveUncontrolled | Pass | Progress | Collide | Board | DamageVehicle
    | EndRound | Rejoin
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class ChaseStep:
    chase: Chase
    checks: tuple[CheckResult, ...] = ()
    lines: tuple[str, ...] = ()
    creature: Creature | None = None  # the boarding creature after a Board command

    def describe(self) -> str:
        return "\n".join(self.lines)


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


# ---------------------------------------------------------------- being ahead (CHS-03) and check modifiers


def is_ahead(chase: Chase, a: str, b: str, zones: dict[str, int] | None = None) -> bool:
    """Whether ``a`` is ahead of ``b``: a higher zone, or (CHS-18) counted a zone ahead in a shared zone."""
    z = zones if zones is not None else chase.zones()
    return z[a] > z[b] or (a, b) in chase.virtual_ahead


def _ahead_terms(chase: Chase, vid: str, targets: Iterable[str], options: VehicleOptions) -> list[Term]:
    if chase.phase == "pilot_actions" and options.ahead_during_pilot_actions == "round_start":
        zones = {**chase.zones(), **chase.round_start_zones}
    else:
        zones = chase.zones()
    tgt = [t for t in targets if t in zones]
    enemies = [e.id for e in chase.enemies(vid)]
    vs_target = bool(tgt) and all(is_ahead(chase, vid, t, zones) for t in tgt)
    vs_all = bool(enemies) and all(is_ahead(chase, vid, e, zones) for e in enemies)
    out: list[Term] = []
    if vs_target:
        out.append(Term(2, "ahead of the enemy this check is against", "CHS-03", source="ahead of target"))
    if vs_all and (options.ahead_bonus == "stack" or not out):
        out.append(Term(2, "ahead of all enemies", "CHS-03", source="ahead of all"))
    return out


def _active_effects(chase: Chase, vid: str, kind: str) -> list[Effect]:
    now = chase.now()
    return [e for e in chase.effects if e.vehicle == vid and e.kind == kind and e.start <= now < e.until]


def _effect_terms(chase: Chase, vid: str) -> list[Term]:
    out = []
    for e in _active_effects(chase, vid, "trick"):
        out.append(Term(e.value, f"trick by {e.source}", "CHS-13", source=f"trick by {e.source}"))
    for e in _active_effects(chase, vid, "off_course"):
        out.append(Term(e.value, f"knocked off course by {e.source}", "CHS-31", source="off course"))
    return out


def _movement_terms(chase: Chase, cv: ChaseVehicle, action: str) -> list[Term]:
    out = []
    for m in chase.environment.movement(cv.zone, cv.route):
        v = m.for_action(action, cv.vehicle.stat.kinds)
        if v:
            out.append(Term(v, m.name, "CHS-33", source=m.name))
    return out


def double_penalty(chase: Chase, vid: str, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> Term:
    """CHS-14: -4 to each check of a double maneuver; -2 if the vehicle's full speed is at least 50 ft more than
    the fastest enemy vehicle's."""
    mine = full_speed(chase.get(vid).vehicle, options).total
    theirs = [full_speed(e.vehicle, options).total for e in chase.enemies(vid)]
    if theirs and mine >= max(theirs) + 50:
        return Term(-2, f"double maneuver (full speed {mine} ft, 50+ ft faster than {max(theirs)} ft)", "CHS-14",
                    source="double maneuver")  # fmt: skip
    return Term(-4, "double maneuver", "CHS-14", source="double maneuver")


def pilot_check_bonus(
    chase: Chase,
    vid: str,
    action: str,
    *,
    targets: Iterable[str] = (),
    skill: str = "piloting",
    bonus: int | Breakdown | None = None,
    double: bool = False,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> Breakdown:
    """Everything that goes into a pilot's check in a chase: the pilot's (or autopilot's) skill and the vehicle's
    Piloting modifier, being ahead (Piloting only, CHS-03), tricks by pilots ahead (CHS-13), off course
    (CHS-31), the environment (CHS-33) and the double maneuver penalty (CHS-14)."""
    cv = chase.get(vid)
    extra: list[Term] = []
    if skill == "piloting":
        extra += _ahead_terms(chase, vid, targets, options)
        extra += _effect_terms(chase, vid)
    if chase.phase == "pilot_actions":
        extra += _movement_terms(chase, cv, action)
    if double:
        extra.append(double_penalty(chase, vid, options))
    pilot: PilotLike | None = bonus if bonus is not None else cv.pilot
    if pilot is None and cv.vehicle.state.control != "autopilot":
        raise RuleViolation("CHS-17", f"{vid} has no pilot: it counts as failing every check")
    return check_bonus(cv.vehicle, pilot, skill=skill, extra=extra, options=options)


# ---------------------------------------------------------------- DCs (Table 8-3)


def action_dc(
    chase: Chase,
    vid: str,
    action: str,
    target: str | None = None,
    *,
    trick: NewTrick | None = None,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> Breakdown:
    """The DC of a pilot action (CHS-07..13, Table 8-3); an enemy's KAC includes its evade bonus and broken."""
    cv = chase.get(vid)
    il = cv.vehicle.stat.item_level
    if action in ("evade", "keep_pace"):
        return explain(f"{action} DC", [Term(10, "base", "CHS-15", B), Term(il, "item level", "CHS-15", B)])
    if action == "speed_up":
        return explain("speed up DC", [Term(17, "base", "CHS-12", B), Term(il, "item level", "CHS-12", B)])
    if action == "trick":
        terms = [Term(15, "base", "CHS-13", B), Term(il, "item level", "CHS-13", B)]
        if trick is not None and trick.dc_increase:
            terms.append(Term(trick.dc_increase, f"new trick: {trick.name}", "CHS-34", B))
        return explain("trick DC", terms)
    if action == "engage":
        if target is None:
            raise RuleViolation("CHS-08", "engage needs a target vehicle")
        return explain("engage DC", [Term(vehicle_kac(chase, target, options), f"{target} KAC", "CHS-08", B)])
    if action == "break_free":
        foes = [x for x in chase.engagement(vid) if x != vid and chase.get(x).side != cv.side]
        if not foes:
            raise RuleViolation("CHS-07", f"{vid} is not engaged with an enemy")
        top = max(vehicle_kac(chase, f, options) for f in foes)
        terms = [Term(top, "highest enemy KAC", "CHS-07", B)]
        if options.break_free_dc == "keep_base" or len(foes) == 1:
            terms.insert(0, Term(5, "base", "CHS-07", B))
        if len(foes) > 1:
            terms.append(Term(5 * (len(foes) - 1), f"{len(foes) - 1} more enemy vehicle(s)", "CHS-07", B))
        return explain("break free DC", terms)
    raise RuleViolation("CHS-15", f"{action} needs no check")


def vehicle_kac(chase: Chase, vid: str, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> int:
    return vehicle_ac(chase, vid, "kac", options).total


def vehicle_ac(
    chase: Chase, vid: str, kind: Literal["eac", "kac"], options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS
) -> Breakdown:
    """A vehicle's AC in the chase: printed, broken (VEH-32), evade's +2 circumstance bonus (CHS-09)."""
    cv = chase.get(vid)
    extra = tuple(
        Term(e.value, "evading", "CHS-09", BonusType.CIRCUMSTANCE, source="evade")
        for e in _active_effects(chase, vid, "evade")
    )
    return armor_class(cv.vehicle, kind, extra, options=options)


# ---------------------------------------------------------------- pilot actions phase


def _replace_record(chase: Chase, rec: PilotRecord) -> Chase:
    others = tuple(r for r in chase.records if r.vehicle != rec.vehicle)
    return chase.model_copy(update={"records": (*others, rec)})


def _settle_turn(chase: Chase) -> tuple[Chase, list[str]]:
    """Move past pilots who are done and vehicles nobody controls; open chase progress when everyone is done."""
    lines: list[str] = []
    while chase.phase == "pilot_actions" and chase.turn < len(chase.order):
        vid = chase.order[chase.turn]
        cv = chase.get(vid)
        rec = chase.record(vid)
        if rec is not None and rec.done:
            chase = chase.model_copy(update={"turn": chase.turn + 1})
            continue
        if not cv.active:
            chase = chase.model_copy(update={"turn": chase.turn + 1})
            continue
        if not cv.controlled:
            chase = _replace_record(chase, PilotRecord(vehicle=vid, uncontrolled=True, done=True))
            lines.append(f"{vid} is uncontrolled: it counts as failing every check [CHS-17]")
            chase = chase.model_copy(update={"turn": chase.turn + 1})
            continue
        break
    if chase.phase == "pilot_actions" and chase.turn >= len(chase.order):
        chase = chase.model_copy(update={"phase": "chase_progress"})
        lines.append("every pilot has acted: chase progress [CHS-05]")
    return chase, lines


def _check_turn(chase: Chase, vid: str) -> ChaseVehicle:
    if chase.phase != "pilot_actions":
        raise RuleViolation("CHS-05", f"pilot actions happen in the pilot actions phase (now: {chase.phase})")
    if chase.current_pilot != vid:
        raise RuleViolation("CHS-05", f"it is {chase.current_pilot}'s turn to take pilot actions, not {vid}'s")
    return chase.get(vid)


def _pilot_phase(
    chase: Chase,
    cmd: PilotAction | DoubleManeuver | Forfeit | LeaveUncontrolled | Pass,
    dice: DiceSource,
    options: VehicleOptions,
) -> ChaseStep:
    cv = _check_turn(chase, cmd.vehicle)
    rec = chase.record(cv.id) or PilotRecord(vehicle=cv.id)
    if isinstance(cmd, DoubleManeuver):
        if rec.actions or rec.double:
            raise RuleViolation("CHS-14", "declare a double maneuver before the first pilot action")
        chase = _replace_record(chase, rec.model_copy(update={"double": True}))
        return ChaseStep(chase, (), (f"{cv.id}: double maneuver (a full action), each check at "
                                     f"{double_penalty(chase, cv.id, options).value} [CHS-14]",))  # fmt: skip
    if isinstance(cmd, Forfeit):
        if not rec.double or len(rec.actions) != 1:
            raise RuleViolation("CHS-14", "only the second action of a double maneuver can be forfeited")
        chase, more = _settle_turn(_replace_record(chase, rec.model_copy(update={"done": True})))
        return ChaseStep(
            chase, (), (f"{cv.id} forfeits its second action; the first keeps its penalty [CHS-14]", *more)
        )
    if isinstance(cmd, LeaveUncontrolled | Pass):
        if rec.actions:
            raise RuleViolation("CHS-06", f"{cv.id} has already taken a pilot action this round")
        unc = isinstance(cmd, LeaveUncontrolled)
        chase, more = _settle_turn(_replace_record(chase, PilotRecord(vehicle=cv.id, uncontrolled=unc, done=True)))
        text = ("is left uncontrolled: it fails every check; its pilot may make a full attack later [CHS-17] [CHS-25]"
                if unc else "takes no pilot action: it does not move forward [CHS-17]")  # fmt: skip
        return ChaseStep(chase, (), (f"{cv.id} {text}", *more))
    return _take_action(chase, cv, rec, cmd, dice, options)


def _take_action(
    chase: Chase, cv: ChaseVehicle, rec: PilotRecord, cmd: PilotAction, dice: DiceSource, options: VehicleOptions
) -> ChaseStep:
    action = cmd.action
    if action not in TABLE_8_3 or str(action) == "double_maneuver":
        raise RuleViolation("CHS-15", f"unknown pilot action {action!r}")
    engaged = chase.engagement(cv.id)
    if engaged and action in options.engaged_forbidden:
        target_is_ally = action == "engage" and cmd.target is not None and chase.get(cmd.target).side == cv.side
        if not target_is_ally:
            raise RuleViolation("CHS-16", f"an engaged vehicle cannot {action.replace('_', ' ')} (break free first)")
    lines: list[str] = []
    checks: list[CheckResult] = []
    if cmd.route is not None:
        if chase.environment.zone(cv.zone).route(cmd.route) is None and not _route_ahead(chase, cv.zone, cmd.route):
            raise RuleViolation("CHS-35", f"there is no route {cmd.route!r} here or in the next zone")
        cv = cv.model_copy(update={"route": cmd.route})
        chase = chase.with_vehicle(cv)
        lines.append(f"{cv.id} takes the {cmd.route} route [CHS-35]")
        chase, more = _split_engagements(chase)
        lines += more
        engaged = chase.engagement(cv.id)
    outcome: Outcome
    if action == "slow_down":
        slow_dc = _slow_down_dc(chase, cv)
        if slow_dc is None:
            outcome = Outcome(action=action, success=True, checked=False)
            lines.append(f"{cv.id} slows down: it will not move forward in chase progress [CHS-11]")
        else:
            bonus = pilot_check_bonus(chase, cv.id, action, double=rec.double, bonus=cmd.bonus, options=options)
            check = roll_check(bonus, slow_dc, dice, f"{cv.id} slow down")
            checks.append(check)
            outcome = Outcome(action=action, success=check.success, failed_by=failed_by(check))
            lines.append(f"{cv.id} slows down on a slope: Piloting {check.describe()} [CHS-33] [CHS-11]")
    elif action == "engage" and cmd.target is not None and chase.get(cmd.target).side == cv.side:
        ally = chase.get(cmd.target)
        _engage_ok(chase, cv, ally)
        chase = _join(chase, cv.id, ally.id)
        outcome = Outcome(action=action, success=True, checked=False, target=ally.id)
        lines.append(f"{cv.id} engages its ally {ally.id} freely [CHS-08]")
    elif action == "break_free" and cmd.willing:
        if not engaged:
            raise RuleViolation("CHS-07", f"{cv.id} is not engaged")
        chase = _leave(chase, cv.id)
        outcome = Outcome(action=action, success=True, checked=False)
        lines.append(f"{cv.id} breaks off: every party is willing, no check [CHS-07]")
    else:
        trick = _find_trick(chase, cv, cmd.trick) if action == "trick" else None
        targets: list[str] = []
        if action == "engage":
            if cmd.target is None:
                raise RuleViolation("CHS-08", "engage needs a target vehicle")
            _engage_ok(chase, cv, chase.get(cmd.target))
            targets = [cmd.target]
        elif action == "break_free":
            targets = [x for x in engaged if x != cv.id and chase.get(x).side != cv.side]
        dc = action_dc(chase, cv.id, action, cmd.target, trick=trick, options=options)
        skill = cmd.skill if action == "trick" else "piloting"
        bonus = pilot_check_bonus(chase, cv.id, action, targets=targets, skill=skill, bonus=cmd.bonus,
                                  double=rec.double, options=options)  # fmt: skip
        check = roll_check(bonus, dc.total, dice, f"{cv.id} {action.replace('_', ' ')}")
        checks.append(check)
        outcome = Outcome(action=action, success=check.success, failed_by=failed_by(check), target=cmd.target)
        rule = {"break_free": "CHS-07", "engage": "CHS-08", "evade": "CHS-09", "keep_pace": "CHS-10",
                "speed_up": "CHS-12", "trick": "CHS-13"}[action]  # fmt: skip
        terms = " ".join(t.describe() for t in bonus.applied)
        lines.append(
            f"{cv.id} {action.replace('_', ' ')}: {skill.title()} d20 {check.natural} ({terms}) = {check.total} "
            f"vs DC {dc.total} ({dc.describe()}): {'success' if check.success else f'failure by {outcome.failed_by}'} "
            f"[{rule}]"
        )
        if check.success:
            chase, more = _on_success(chase, cv.id, action, cmd.target, trick, dice, options, checks)
            lines += more
    new_rec = rec.model_copy(update={"actions": (*rec.actions, outcome)})
    if not new_rec.double or len(new_rec.actions) == 2:
        new_rec = new_rec.model_copy(update={"done": True})
    chase = _replace_record(chase, new_rec)
    chase, more = _settle_turn(chase)
    return ChaseStep(chase, tuple(checks), (*lines, *more))


def _slow_down_dc(chase: Chase, cv: ChaseVehicle) -> int | None:
    dcs = [m.slow_down_dc for m in chase.environment.movement(cv.zone, cv.route) if m.slow_down_dc is not None]
    return max(dcs) if dcs else None


def _route_ahead(chase: Chase, zone: int, route: str) -> bool:
    return chase.environment.zone(zone + 1).route(route) is not None


def _find_trick(chase: Chase, cv: ChaseVehicle, name: str | None) -> NewTrick | None:
    if name is None:
        return None
    for t in chase.environment.tricks(cv.zone):
        if t.name == name:
            return t
    raise RuleViolation("CHS-34", f"no trick {name!r} in {cv.id}'s zone")


def _engage_ok(chase: Chase, cv: ChaseVehicle, other: ChaseVehicle) -> None:
    if other.id == cv.id or not other.active:
        raise RuleViolation("CHS-08", f"{other.id} cannot be engaged")
    if other.zone != cv.zone:
        raise RuleViolation(
            "CHS-08", f"engaging needs the same zone ({cv.id} is in {cv.zone}, {other.id} in {other.zone})"
        )
    if _route_here(chase, cv) != _route_here(chase, other):
        raise RuleViolation("CHS-35", "vehicles on different routes of a split zone cannot interact")
    if other.id in chase.engagement(cv.id):
        raise RuleViolation("CHS-08", f"{cv.id} is already engaged with {other.id}")


def _route_here(chase: Chase, cv: ChaseVehicle) -> str | None:
    """The route a vehicle is on in its current zone (None: the main way, or the zone is not split)."""
    return cv.route if chase.environment.zone(cv.zone).route(cv.route) is not None else None


def _join(chase: Chase, a: str, b: str) -> Chase:
    ga, gb = chase.engagement(a) or frozenset({a}), chase.engagement(b) or frozenset({b})
    rest = tuple(g for g in chase.engagements if g not in (ga, gb))
    return chase.model_copy(update={"engagements": (*rest, ga | gb)})


def _leave(chase: Chase, vid: str) -> Chase:
    groups = []
    for g in chase.engagements:
        g2 = g - {vid} if vid in g else g
        if len(g2) >= 2:
            groups.append(g2)
    return chase.model_copy(update={"engagements": tuple(groups)})


def _add_effect(
    chase: Chase, kind: Literal["trick", "evade", "off_course"], source: str, vid: str, value: int
) -> Chase:
    now = chase.now()
    until = (now[0] + 1, now[1], now[2])
    eff = Effect(kind=kind, source=source, vehicle=vid, value=value, start=now, until=until)
    return chase.model_copy(update={"effects": (*chase.effects, eff)})


def _on_success(
    chase: Chase,
    vid: str,
    action: str,
    target: str | None,
    trick: NewTrick | None,
    dice: DiceSource,
    options: VehicleOptions,
    sink: list[CheckResult] | None = None,
) -> tuple[Chase, list[str]]:
    lines: list[str] = []
    if action == "speed_up":
        lines.append(f"{vid} moves forward one zone now [CHS-12]")
        chase, more = _move(chase, vid, 1, dice, options, sink)
        lines += more
    elif action == "evade":
        chase = _add_effect(chase, "evade", vid, vid, 2)
        lines.append(f"{vid} gains +2 circumstance to AC for 1 round (not cumulative) [CHS-09]")
    elif action == "engage" and target is not None:
        chase = _join(chase, vid, target)
        lines.append(
            f"{vid} is engaged with " + ", ".join(sorted(chase.engagement(vid) - {vid})) + " [CHS-08] [CHS-16]"
        )
    elif action == "break_free":
        chase = _leave(chase, vid)
        lines.append(f"{vid} breaks free of the engagement [CHS-07]")
    elif action == "trick":
        penalty = -2 if trick is None else trick.pursuer_penalty
        behind = [cv.id for cv in chase.active if cv.id != vid and is_ahead(chase, vid, cv.id)]
        if penalty:
            for b in behind:
                chase = _add_effect(chase, "trick", vid, b, penalty)
            who = ", ".join(behind) or "nobody"
            lines.append(f"vehicles behind {vid} ({who}) take {penalty} to Piloting for 1 round [CHS-13]")
        if trick is not None and trick.hazard is not None:
            zone = chase.get(vid).zone - 1
            chase = chase.model_copy(update={"added_hazards": (*chase.added_hazards, (zone, trick.hazard))})
            lines.append(f"{trick.name}: a new hazard, {trick.hazard.name}, in zone {zone} behind {vid} [CHS-34]")
        if trick is not None and trick.creates:
            lines.append(f"{trick.name} creates {trick.creates} (GM) [CHS-34]")
    return chase, lines


# ---------------------------------------------------------------- moving between zones and hazards


def _zone_hazards(chase: Chase, zone: int, route: str | None) -> list[tuple[str, Hazard]]:
    z = chase.environment.zone(zone)
    r = z.route(route)
    out = [(f"{zone}::{h.name}", h) for h in z.hazards]
    if r is not None:
        out += [(f"{zone}:{r.name}:{h.name}", h) for h in r.hazards]
    out += [(f"{zone}:+{i}:{h.name}", h) for i, (zn, h) in enumerate(chase.added_hazards) if zn == zone]
    out += [(f"*::{h.name}", h) for h in chase.environment.everywhere.hazards]
    return out


def _move(
    chase: Chase, vid: str, delta: int, dice: DiceSource, options: VehicleOptions, sink: list[CheckResult] | None = None
) -> tuple[Chase, list[str]]:
    """Move a vehicle ``delta`` zones; each zone it enters triggers its hazards at once (CHS-19). The hazards'
    attack rolls go into ``sink``."""
    lines: list[str] = []
    step_ = 1 if delta > 0 else -1
    for _ in range(abs(delta)):
        cv = chase.get(vid)
        new_zone = cv.zone + step_
        keep = cv.route if chase.environment.zone(new_zone).route(cv.route) is not None else None
        chase = chase.with_vehicle(cv.model_copy(update={"zone": new_zone, "route": keep}))
        chase, more = _enter(chase, vid, new_zone, dice, options, sink)
        lines += more
    return chase, lines


def _enter(
    chase: Chase, vid: str, zone: int, dice: DiceSource, options: VehicleOptions, sink: list[CheckResult] | None = None
) -> tuple[Chase, list[str]]:
    lines: list[str] = []
    cv = chase.get(vid)
    for key, hz in _zone_hazards(chase, zone, cv.route):
        if key in chase.spent_hazards:
            continue
        if hz.trigger == "each_entry":
            chase, more = hazard_attack(chase, hz, vid, dice, options, sink=sink)
            lines += more
        elif hz.trigger == "first_entry":
            chase = chase.model_copy(update={"spent_hazards": chase.spent_hazards | {key}})
            chase, more = hazard_attack(chase, hz, vid, dice, options, sink=sink)
            lines += [f"{vid} is the first to enter zone {zone}: {hz.name} strikes [CHS-30]", *more]
        else:
            chase = chase.model_copy(
                update={
                    "spent_hazards": chase.spent_hazards | {key},
                    "active_hazards": (*chase.active_hazards, ActiveHazard(key=key, hazard=hz, zone=zone,
                                                                           rounds_left=hz.rounds)),
                }
            )  # fmt: skip
            lines.append(f"{hz.name} wakes as {vid} enters zone {zone} [CHS-30]")
        if not chase.get(vid).active:
            break
    return chase, lines


def hazard_attack(
    chase: Chase,
    hazard: Hazard,
    vid: str,
    dice: DiceSource,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
    *,
    sink: list[CheckResult] | None = None,
) -> tuple[Chase, list[str]]:
    """A hazard attacks a vehicle (CHS-30, CHS-31): d20 + its attack bonus (Table 8-4 by CR; -2 if it both
    damages and knocks off course) against the vehicle's KAC or EAC; a hit deals its damage (halved for both),
    and/or gives the pilot -4 to Piloting checks for 1 round. The attack roll is appended to ``sink``."""
    kind = hazard.ac or options.hazard_ac
    ac = vehicle_ac(chase, vid, kind, options)
    terms = [Term(hazard.base_attack, f"{hazard.name} attack (CR {hazard.cr})", "CHS-30", B)]
    if hazard.effect == "both":
        terms.append(Term(BOTH_ATTACK_PENALTY, "damages and knocks off course", "CHS-31"))
    bonus = explain(f"{hazard.name} attack", terms)
    check = resolve(CheckKind.ATTACK, bonus, ac.total, dice, purpose=f"{hazard.name} attacks {vid}")
    if sink is not None:
        sink.append(check)
    lines = [f"{hazard.name} attacks {vid}: {check.describe()} ({kind.upper()}) [CHS-30]"]
    if not check.success:
        return chase, lines
    if hazard.effect in ("damage", "both"):
        roll = dmg.roll_damage(parse(hazard.base_damage), explain("hazard", []), dice, purpose=f"{hazard.name} damage")
        amount = roll.total // 2 if hazard.effect == "both" else roll.total
        half = " halved" if hazard.effect == "both" else ""
        lines.append(f"{hazard.name} damage {' '.join(roll.rolls)}{half}: {amount} [CHS-30]")
        step_ = damage(chase, vid, amount, source=hazard.name, options=options)
        chase = step_.chase
        lines += step_.lines
    if hazard.effect in ("off_course", "both") and chase.get(vid).active:
        chase = _add_effect(chase, "off_course", hazard.name, vid, OFF_COURSE_PENALTY)
        lines.append(f"{vid} is knocked off course: -4 to Piloting checks for 1 round [CHS-31]")
    return chase, lines


# ---------------------------------------------------------------- chase progress


def progress_delta(rec: PilotRecord | None, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> int:
    """How far one vehicle moves in chase progress on its own pilot actions (CHS-17): +1 if any check succeeded
    (a speed up failed by less than 5 counts; with a double maneuver still at most +1); -1 after a failed keep
    pace when nothing succeeded (option ``keep_pace_fallback``); 0 otherwise. Slow down cancels forward
    movement; an uncontrolled vehicle fails everything."""
    if rec is None or rec.uncontrolled or not rec.actions:
        return 0
    acts = rec.actions

    def advances(o: Outcome) -> bool:
        if o.action == "slow_down":
            return False
        if not o.checked:
            return o.success and options.checkless_success
        return o.success or (o.action == "speed_up" and o.failed_by < 5)

    if any(advances(o) for o in acts):
        delta = 1
    elif any(o.action == "keep_pace" and not o.success for o in acts) and (
        options.keep_pace_fallback == "all_failed" or all(o.action == "keep_pace" for o in acts)
    ):
        delta = -1
    else:
        delta = 0
    if delta > 0 and any(o.action == "slow_down" for o in acts):
        delta = 0
    return delta


def progress(
    chase: Chase,
    dice: DiceSource,
    *,
    decline_escape: frozenset[str] = frozenset(),
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> ChaseStep:
    """The chase progress phase (CHS-17..23): advance vehicles, trigger hazards, settle who escapes or is left
    behind, and whether the chase is over."""
    if chase.phase != "chase_progress":
        raise RuleViolation("CHS-05", f"chase progress comes after every pilot has acted (now: {chase.phase})")
    lines: list[str] = []
    sink: list[CheckResult] = []
    deltas = {cv.id: progress_delta(chase.record(cv.id), options) for cv in chase.active}
    virtual: list[tuple[str, str]] = []
    for group in chase.engagements:
        members = [m for m in group if m in deltas]
        movers = [m for m in members if deltas[m] > 0]
        if movers:
            for m in members:
                if deltas[m] <= 0:
                    deltas[m] = 1
                    lines.append(f"{m} failed its checks but moves on with the engaged {', '.join(movers)} [CHS-18]")
                    for a in movers:
                        if chase.get(a).side != chase.get(m).side:
                            virtual.append((a, m))
        else:
            for m in members:
                deltas[m] = 0
    chase = chase.model_copy(update={"virtual_ahead": tuple(virtual)})
    for a, m in virtual:
        lines.append(f"{a} counts as one zone ahead of {m} though they share a zone [CHS-18]")
    for vid in chase.order:
        if vid not in deltas or not chase.get(vid).active:
            continue
        d = deltas[vid]
        word = {1: "moves forward one zone", 0: "stays", -1: "falls back one zone"}[d]
        lines.append(f"{vid} {word} [CHS-17]")
        if d:
            chase, more = _move(chase, vid, d, dice, options, sink)
            lines += more
    chase, more = _after_progress_hazards(chase, dice, options, sink)
    lines += more
    chase, more = _escapes(chase, decline_escape, options)
    lines += more
    chase, more = _reengage(chase)
    lines += more
    chase, more = _check_over(chase)
    lines += more
    if not chase.over:
        chase = chase.model_copy(update={"phase": "combat"})
        lines.append("combat phase [CHS-05]")
    return ChaseStep(chase, tuple(sink), tuple(lines))


def _after_progress_hazards(
    chase: Chase, dice: DiceSource, options: VehicleOptions, sink: list[CheckResult] | None = None
) -> tuple[Chase, list[str]]:
    lines: list[str] = []
    kept: list[ActiveHazard] = []
    for ah in chase.active_hazards:
        pool = [cv for cv in chase.active]
        if ah.hazard.trigger == "random_after_progress":
            pool = [cv for cv in pool if cv.zone == ah.zone]
        if pool:
            if ah.hazard.trigger == "rear_after_progress":
                low = min(cv.zone for cv in pool)
                pool = [cv for cv in pool if cv.zone == low]
            pick = pool[0] if len(pool) == 1 else pool[dice.die(len(pool), f"{ah.hazard.name} picks a target") - 1]
            how = "the rearmost vehicle" if ah.hazard.trigger == "rear_after_progress" else "a random vehicle"
            lines.append(f"{ah.hazard.name} goes after {how}: {pick.id} [CHS-30]")
            chase, more = hazard_attack(chase, ah.hazard, pick.id, dice, options, sink=sink)
            lines += more
        left = None if ah.rounds_left is None else ah.rounds_left - 1
        if left is None or left > 0:
            new_zone = min((cv.zone for cv in chase.active), default=ah.zone)
            zone = new_zone if ah.hazard.trigger == "rear_after_progress" else ah.zone
            kept.append(ah.model_copy(update={"rounds_left": left, "zone": zone}))
        else:
            lines.append(f"{ah.hazard.name} gives up the chase [CHS-30]")
    return chase.model_copy(update={"active_hazards": tuple(kept)}), lines


def _escapes(chase: Chase, decline: frozenset[str], options: VehicleOptions) -> tuple[Chase, list[str]]:
    """CHS-20, CHS-21: who escapes and who is left behind, judged together from where the vehicles ended, so that
    one progress step can both let a vehicle escape and leave an adversary behind. A vehicle that declines its
    escape drops back first (which can change the others' standing); the judging repeats on the vehicles still in
    the chase until nothing changes (a vehicle that escaped no longer holds back the adversaries behind it)."""
    lines: list[str] = []
    n = options.escape_zones
    declined: set[str] = set()
    while True:
        active = chase.active
        ahead: list[ChaseVehicle] = []
        behind: list[ChaseVehicle] = []
        for cv in active:
            foes = [e for e in active if e.side != cv.side]
            if not foes:
                continue
            if cv.id not in declined and all(cv.zone - e.zone >= n for e in foes):
                ahead.append(cv)
            elif all(e.zone - cv.zone >= n for e in foes):
                behind.append(cv)
        drop = [cv for cv in ahead if cv.id in decline]
        if drop:
            for cv in drop:
                back = max(e.zone for e in active if e.side != cv.side) + 1
                chase = chase.with_vehicle(cv.model_copy(update={"zone": back}))
                declined.add(cv.id)
                lines.append(f"{cv.id} could escape but drops back to zone {back}, one zone ahead [CHS-21]")
            continue
        if not ahead and not behind:
            return chase, lines
        for cv in ahead:
            chase = _leave(chase.with_vehicle(cv.model_copy(update={"status": "escaped"})), cv.id)
            lines.append(f"{cv.id} is {n}+ zones ahead of every adversary: it escapes [CHS-20]")
        for cv in behind:
            chase = _leave(chase.with_vehicle(cv.model_copy(update={"status": "left_behind"})), cv.id)
            lines.append(f"{cv.id} is {n}+ zones behind its nearest adversary: it is left behind [CHS-20]")


def _split_engagements(chase: Chase) -> tuple[Chase, list[str]]:
    """CHS-35: engaged vehicles on different routes of a split zone are no longer engaged; remember them."""
    lines: list[str] = []
    for group in chase.engagements:
        routes = {m: _route_here(chase, chase.get(m)) for m in group}
        if len(set(routes.values())) > 1:
            pairs = [(a, b) for a in group for b in group if a < b and routes[a] != routes[b]]
            chase = chase.model_copy(update={"split_engaged": (*chase.split_engaged, *pairs)})
            for a, _ in pairs:
                chase = _leave(chase, a)
            lines.append("different routes break the engagement of " + ", ".join(sorted(group)) + " [CHS-35]")
    return chase, lines


def _reengage(chase: Chase) -> tuple[Chase, list[str]]:
    lines: list[str] = []
    keep: list[tuple[str, str]] = []
    for a, b in chase.split_engaged:
        ca, cb = chase.get(a), chase.get(b)
        if not (ca.active and cb.active) or ca.zone != cb.zone:
            continue
        if _route_here(chase, ca) is None and _route_here(chase, cb) is None:
            chase = _join(chase, a, b)
            lines.append(f"the routes converge: {a} and {b} are engaged again [CHS-35]")
        else:
            keep.append((a, b))
    return chase.model_copy(update={"split_engaged": tuple(keep)}), lines


def _check_over(chase: Chase) -> tuple[Chase, list[str]]:
    sides = {cv.side for cv in chase.active}
    if len(sides) <= 1:
        winner = next(iter(sides)) if sides else "nobody"
        return chase.model_copy(update={"phase": "over"}), [f"the chase is over ({winner} remains) [CHS-23]"]
    return chase, []


# ---------------------------------------------------------------- combat phase


def end_round(chase: Chase) -> ChaseStep:
    """Close the combat phase; the next round opens with pilot actions (CHS-05)."""
    if chase.phase != "combat":
        raise RuleViolation("CHS-05", f"the round ends after the combat phase (now: {chase.phase})")
    nxt = chase.round + 1
    kept = tuple(e for e in chase.effects if e.until > (nxt, 0, 0))
    chase = chase.model_copy(update={"round": nxt, "phase": "pilot_actions", "turn": 0, "records": (), "effects": kept})
    chase = chase.model_copy(update={"round_start_zones": chase.zones()})
    chase, more = _settle_turn(chase)
    return ChaseStep(chase, (), (f"round {nxt}: pilot actions [CHS-05]", *more))


def _combat(chase: Chase, what: str) -> None:
    if chase.phase != "combat":
        raise RuleViolation("CHS-05", f"{what} happens in the combat phase (now: {chase.phase})")


def pilot_can_attack(chase: Chase, vid: str, *, full_attack: bool = False) -> bool:
    """CHS-25, CHS-06: in the combat phase a pilot attacks only with a standard action left (none after a double
    maneuver), and makes a full attack only after leaving the vehicle uncontrolled in the pilot actions phase."""
    rec = chase.record(vid)
    if rec is None:
        return True
    if full_attack:
        return rec.uncontrolled
    return rec.used != "full"


def damage(
    chase: Chase,
    vid: str,
    amount: int,
    *,
    ignores_hardness: int = 0,
    source: str = "",
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> ChaseStep:
    """Damage to a vehicle in the chase; a wrecked vehicle leaves the chase, which may end it (CHS-23)."""
    cv = chase.get(vid)
    vd = damage_vehicle(cv.vehicle, amount, ignores_hardness=ignores_hardness, source=source, options=options)
    status: Status = "wrecked" if vd.wrecked and cv.status == "in" else cv.status
    chase = chase.with_vehicle(cv.model_copy(update={"vehicle": vd.vehicle, "status": status}))
    lines = list(vd.lines)
    if status == "wrecked" and cv.status == "in":
        chase = _leave(chase, vid)
        lines.append(f"{vid} is wrecked and out of the chase [CHS-23]")
        chase, more = _check_over(chase)
        lines += more
    return ChaseStep(chase, (), tuple(lines))


def collide(
    chase: Chase, cmd: Collide, dice: DiceSource, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS
) -> ChaseStep:
    """CHS-28: a standard action in the combat phase: Piloting check, DC the engaged enemy's KAC; on a success the
    enemy takes the vehicle's collision damage and the vehicle half of it (rolled once)."""
    _combat(chase, "a collision")
    cv, tg = chase.get(cmd.vehicle), chase.get(cmd.target)
    if tg.id not in chase.engagement(cv.id) or tg.side == cv.side:
        raise RuleViolation("CHS-28", f"{cv.id} can only smash into an enemy vehicle it is engaged with")
    if not cv.controlled:
        raise RuleViolation("CHS-28", f"{cv.id} has no pilot to steer it into {tg.id}")
    if not pilot_can_attack(chase, cv.id):
        raise RuleViolation("CHS-06", f"{cv.id}'s pilot spent a full action on pilot actions: no standard action left")
    dc = vehicle_kac(chase, tg.id, options)
    bonus = pilot_check_bonus(chase, cv.id, "collide", targets=[tg.id], bonus=cmd.bonus, options=options)
    check = roll_check(bonus, dc, dice, f"{cv.id} collides with {tg.id}")
    lines = [f"{cv.id} smashes into {tg.id}: Piloting {check.describe()} (KAC) [CHS-28]"]
    if not check.success:
        return ChaseStep(chase, (check,), tuple(lines))
    coll = roll_collision(cv.vehicle, dice, self_share="half", purpose="collision", options=options)
    lines += coll.lines
    s1 = damage(chase, tg.id, coll.roll.total, ignores_hardness=cv.vehicle.stat.collision.ignores_hardness,
                source=f"{cv.id}'s collision", options=options)  # fmt: skip
    s2 = damage(s1.chase, cv.id, coll.to_self, source="its own collision", options=options)
    lines += [*s1.lines, f"{cv.id} takes half, {coll.to_self} [CHS-28]", *s2.lines]
    return ChaseStep(s2.chase, (check,), tuple(lines))


def board(chase: Chase, cmd: Board, dice: DiceSource, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> ChaseStep:
    """CHS-27: a passenger of an engaged vehicle jumps across: a move action that provokes attacks of
    opportunity, and an Acrobatics or Athletics check, DC 5 + the KAC of the vehicle boarded (see
    :func:`~sftactics.sf1e.vehicles.piloting.boarding` for failing)."""
    _combat(chase, "boarding")
    src, dst = chase.get(cmd.from_vehicle), chase.get(cmd.to_vehicle)
    if dst.id not in chase.engagement(src.id):
        raise RuleViolation("CHS-27", f"{src.id} and {dst.id} must be engaged to board")
    if src.pilot is not None and src.pilot.id == cmd.creature.id and src.controlled:
        raise RuleViolation("CHS-27", "boarding is for passengers: the pilot must hand over control first")
    evade = tuple(
        Term(e.value, "evading", "CHS-09", BonusType.CIRCUMSTANCE, source="evade")
        for e in _active_effects(chase, dst.id, "evade")
    )
    res: BoardResult = boarding(cmd.creature, dst.vehicle, dice, skill=cmd.skill, fall_ft=cmd.fall_ft, rule="CHS-27",
                                ac_extra=evade, options=options)  # fmt: skip
    lines = [f"{cmd.creature.name} jumps from {src.id} to {dst.id}: a move action that provokes [CHS-27]", *res.lines]
    return ChaseStep(chase, tuple(c for c in (res.check,) if c is not None), tuple(lines), res.creature)


def rejoin(chase: Chase, cmd: Rejoin) -> ChaseStep:
    """CHS-22: only in extraordinary circumstances, at the GM's discretion."""
    cv = chase.get(cmd.vehicle)
    if cv.status not in ("escaped", "left_behind"):
        raise RuleViolation("CHS-22", f"{cv.id} has not left the chase")
    if not cmd.gm_allows:
        raise RuleViolation("CHS-22", "rejoining a chase takes extraordinary circumstances and the GM's say-so")
    chase = chase.with_vehicle(cv.model_copy(update={"status": "in", "zone": cmd.zone}))
    if chase.phase == "over" and len({c.side for c in chase.active}) > 1:
        chase = chase.model_copy(update={"phase": "combat"})
    return ChaseStep(chase, (), (f"{cv.id} rejoins the chase in zone {cmd.zone} (GM) [CHS-22]",))


# ---------------------------------------------------------------- attacks in a chase


@dataclass(frozen=True, slots=True)
class ChaseAttack:
    """What the chase adds to one attack: attack terms (vehicle penalty, being ahead, range), AC terms (cover of a
    rider, evade), the range in feet, a miss chance from the environment, and explanation lines."""

    range_ft: int
    attack_terms: tuple[Term, ...]
    ac_terms: tuple[Term, ...]
    miss_chance: int = 0
    lines: tuple[str, ...] = field(default_factory=tuple)


def chase_distance_ft(chase: Chase, a: str, b: str, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> int | None:
    """CHS-02: engaged 5 ft (adjacent), same zone 50 ft, one zone apart 200 ft; farther: out of range (None)."""
    if b in chase.engagement(a):
        return options.engaged_ft
    gap = abs(chase.get(a).zone - chase.get(b).zone)
    if gap == 0:
        return options.same_zone_ft
    if gap == 1:
        return options.one_zone_ft
    return None


def attack_setup(
    chase: Chase,
    from_vehicle: str,
    target_vehicle: str,
    *,
    melee: bool = False,
    reach: bool = False,
    range_increment_ft: int | None = None,
    grenade: bool = False,
    target_rider: bool = False,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> ChaseAttack:
    """The chase's part of an attack from a creature on ``from_vehicle`` at ``target_vehicle`` or someone on it
    (``target_rider``) (CHS-24..26, CHS-32, CHS-03). Refuses attacks the chase forbids."""
    _combat(chase, "an attack")
    src, dst = chase.get(from_vehicle), chase.get(target_vehicle)
    if not (src.active and dst.active):
        raise RuleViolation("CHS-20", "both vehicles must still be in the chase")
    if _route_here(chase, src) != _route_here(chase, dst) and src.zone == dst.zone:
        raise RuleViolation("CHS-35", "vehicles on different routes of a split zone cannot interact")
    lines: list[str] = []
    attack: list[Term] = list(attack_penalty(src.vehicle, chase=True))
    for a in chase.environment.attacks(src.zone):
        if a.kind == "easier" and a.reduction and attack:
            attack.append(Term(min(a.reduction, -attack[0].value), a.name, "CHS-32"))
    if melee:
        if dst.id not in chase.engagement(src.id):
            raise RuleViolation("CHS-26", "melee attacks reach only riders of an engaged vehicle")
        if not reach:
            raise RuleViolation("CHS-26", "melee attacks between vehicles need a reach weapon")
        lines.append("melee with a reach weapon across engaged vehicles; no squares are threatened [CHS-26]")
    if grenade and not options.grenades_in_chase:
        raise RuleViolation("CHS-25", "throwing a grenade between speeding vehicles is all but impossible (GM)")
    distance = chase_distance_ft(chase, src.id, dst.id, options)
    if distance is None:
        raise RuleViolation("CHS-25", f"{dst.id} is more than one zone away: out of range")
    if not melee and range_increment_ft:
        rc = check_range(distance, range_increment_ft)
        if not rc.in_range:
            raise RuleViolation("ATK-11", f"{distance} ft is beyond the weapon's range")
        attack += rc.terms
    if src.side != dst.side and is_ahead(chase, src.id, dst.id):
        attack.append(Term(2, f"{src.id} is ahead of {dst.id}", "CHS-03", source="ahead"))
    ac: list[Term] = []
    if target_rider:
        kind, cover_ac, _ = passenger_cover(dst.vehicle)
        if kind is CoverKind.TOTAL:
            raise RuleViolation("MOD-14", f"riders of {dst.id} have total cover")
        ac += cover_ac
    else:
        ac += [
            Term(e.value, "evading", "CHS-09", BonusType.CIRCUMSTANCE, source="evade")
            for e in _active_effects(chase, dst.id, "evade")
        ]
    miss = 0
    for a in chase.environment.attacks(dst.zone):
        if a.kind == "concealment":
            miss = max(miss, 20)
        elif a.kind == "total_concealment":
            miss = max(miss, 50)
        elif a.kind in ("cover", "improved_cover") and not any(t.source == "cover" for t in ac):
            ac.append(Term(4 if a.kind == "cover" else 8, a.name, "CHS-32", source="cover"))
    lines.append(f"range {distance} ft; the attacker's vehicle gives its normal attack penalty [CHS-24] [CHS-25]")
    return ChaseAttack(distance, tuple(attack), tuple(ac), miss, tuple(lines))


@dataclass(frozen=True, slots=True)
class VehicleAttackResult:
    chase: Chase
    hit: bool
    critical: bool
    check: CheckResult
    damage: int
    lines: tuple[str, ...]


def attack_vehicle(
    chase: Chase,
    attacker: Creature,
    weapon: str,
    from_vehicle: str,
    target_vehicle: str,
    dice: DiceSource,
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
    *,
    extra: tuple[Term, ...] = (),
) -> VehicleAttackResult:
    """A creature's attack on a vehicle in the chase: the attacker's attack bonus with the chase's terms (see
    :func:`attack_setup`) and ``extra`` ones (a full attack's -4) against the vehicle's EAC or KAC (by damage
    type, ATK-08); a natural 20 that hits is a critical hit, damage rolled twice (ATK-14); the damage goes through
    :func:`damage` (hardness)."""
    w = attacker.stat.weapon(weapon)
    setup = attack_setup(chase, from_vehicle, target_vehicle, melee=w.is_melee, reach=w.reach,
                         range_increment_ft=w.range_ft or None, grenade=w.is_grenade, options=options)  # fmt: skip
    kind, why = dmg.weapon_targets_ac(w.damage_types, explicit=w.targets)
    ac = vehicle_ac(chase, target_vehicle, "eac" if kind == "eac" else "kac", options)
    ac = ac.plus(*setup.ac_terms)
    bonus = stats.attack_bonus(attacker, w, extra=(*setup.attack_terms, *extra))
    check = resolve(CheckKind.ATTACK, bonus, ac.total, dice, purpose=f"{attacker.name} attacks {target_vehicle}")
    terms = " ".join(t.describe() for t in bonus.applied)
    verdict = "hit" if check.success else "miss"
    lines = [
        *setup.lines,
        f"{attacker.name} attacks {target_vehicle} with {w.name}: d20 {check.natural} ({terms}) = {check.total} "
        f"vs {kind.upper()} {ac.total} ({why}): {verdict} [ATK-01]",
    ]
    if not check.success:
        return VehicleAttackResult(chase, False, False, check, 0, tuple(lines))
    if setup.miss_chance and dice.percentile(f"{attacker.name} miss chance") <= setup.miss_chance:
        lines.append(f"concealment: the shot misses ({setup.miss_chance}%) [MOD-04]")
        return VehicleAttackResult(chase, False, False, check, 0, tuple(lines))
    crit = check.natural == 20 and check.total >= ac.total  # ATK-14: the total must also meet the AC
    roll = dmg.roll_damage(w.damage_expr, stats.damage_bonus(attacker, w), dice, critical=crit,
                           purpose=f"{w.name} damage")  # fmt: skip
    lines.append(("critical hit: " if crit else "") + f"damage {' + '.join(roll.rolls)} = {roll.total} "
                 + ("[ATK-14]" if crit else "[DMG-01]"))  # fmt: skip
    st = damage(chase, target_vehicle, roll.total, source=f"{attacker.name}'s {w.name}", options=options)
    lines += st.lines
    return VehicleAttackResult(st.chase, True, crit, check, roll.total, tuple(lines))


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
