"""The vehicle chase runner: a chase played phase by phase from commands, headless, with every roll recorded
(docs/vehicles.md, "Vehicle chases").

:func:`step` applies one command (:mod:`sftactics.encounter.chase_commands`) to a
:class:`~sftactics.encounter.chase_state.ChaseEncounter` with an injected dice source and returns the new value and
its :class:`~sftactics.encounter.chase_state.ChaseEvent`\\ s. The rules are the pure functions of
:mod:`sftactics.sf1e.vehicles.chase` (pilot actions, chase progress, collisions, boarding, attacks on vehicles);
this layer adds the people aboard (gunners, passengers, attacks on riders and what happens when a pilot drops),
who has acted in the combat phase, the goal and the result. A refused command raises
:class:`~sftactics.core.errors.RuleViolation` with the state and the dice stream unchanged.

:class:`ChaseFight` keeps the start, the dice and the command/event log: ``do``, ``undo``, ``save``/``load``
(JSON lines; replaying needs no dice: each event holds the chase after it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sftactics.core.breakdown import Term
from sftactics.core.check import CheckResult
from sftactics.core.errors import RuleViolation, SftError
from sftactics.dice.source import DEFAULT_SEED, DiceSource, DieRoll, SeededDice
from sftactics.encounter.chase_commands import (
    CHASE_COMMANDS,
    BeginChase,
    BoardCmd,
    ChaseAttackCmd,
    ChaseCommand,
    CollideCmd,
    DamageVehicleCmd,
    DoubleManeuverCmd,
    EndRoundCmd,
    ForfeitCmd,
    NoPilotActionCmd,
    PilotCmd,
    ProgressCmd,
    RejoinCmd,
    UncontrolledCmd,
)
from sftactics.encounter.chase_state import ChaseEncounter, ChaseEvent, ChaseResult, Rider
from sftactics.sf1e.attack import Situation, resolve_attack
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles import chase as rules
from sftactics.sf1e.vehicles.chase import Chase, ChaseStep, ChaseVehicle
from sftactics.sf1e.vehicles.piloting import vehicle_weapon_terms

_CHECK_ACTIONS = ("break_free", "engage", "evade", "keep_pace", "speed_up", "trick")


# ---------------------------------------------------------------- one command


def step(state: ChaseEncounter, cmd: ChaseCommand, dice: DiceSource) -> tuple[ChaseEncounter, list[ChaseEvent]]:
    """Apply one command. Refused: RuleViolation, and the dice stream is where it was."""
    if state.over:
        raise RuleViolation("CHS-23", "the chase is over")
    if not state.begun and not isinstance(cmd, BeginChase):
        raise RuleViolation("CHS-04", "begin the chase first (initiative)")
    snap = dice.snapshot()
    n0 = len(dice.history)
    try:
        new, lines, checks, dcs, actor = _apply(state, cmd, dice)
    except Exception:
        dice.restore(snap)
        raise
    rolled = tuple(r.to_dict() for r in dice.history[n0:])
    new = _met_hazards(state.chase, new)
    new = _judge(new, after_round=isinstance(cmd, EndRoundCmd))
    event = ChaseEvent(kind=cmd.type, round=state.chase.round, phase=state.chase.phase, actor=actor,
                       lines=tuple(lines), checks=tuple(c.to_dict() for c in checks), dcs=tuple(dcs),
                       dice=rolled, after=new)  # fmt: skip
    events = [event]
    if new.result is not None:
        events.append(ChaseEvent(kind="result", round=new.chase.round, phase=new.chase.phase,
                                 lines=result_lines(new.result), after=new))  # fmt: skip
    return new, events


Applied = tuple[ChaseEncounter, list[str], list[CheckResult], list[dict[str, Any]], str | None]


def _apply(state: ChaseEncounter, cmd: ChaseCommand, dice: DiceSource) -> Applied:
    chase, opts = state.chase, state.options
    if isinstance(cmd, BeginChase):
        if state.begun:
            raise RuleViolation("CHS-04", "the chase has begun already")
        listed = [cv.id for cv in chase.vehicles]
        st = rules.start_chase(chase.vehicles, order=listed if state.initiative == "listed" else None,
                               dice=dice, environment=chase.environment)  # fmt: skip
        lines = [f"the chase begins: {state.name}", *_positions(st.chase), *st.lines]
        new = state.model_copy(update={"chase": st.chase, "begun": True})
        return new, lines, list(st.checks), [], None
    if isinstance(cmd, PilotCmd):
        dcs: list[dict[str, Any]] = []
        if cmd.action in _CHECK_ACTIONS and not cmd.willing:
            try:
                trick = rules._find_trick(chase, chase.get(cmd.vehicle), cmd.trick) if cmd.action == "trick" else None
                dcs.append(rules.action_dc(chase, cmd.vehicle, cmd.action, cmd.target, trick=trick,
                                           options=opts).to_dict())  # fmt: skip
            except RuleViolation:
                pass  # the step below refuses with the rule's own message
        rule_cmd = rules.PilotAction(vehicle=cmd.vehicle, action=cmd.action, target=cmd.target, skill=cmd.skill,
                                     route=cmd.route, trick=cmd.trick, willing=cmd.willing)  # fmt: skip
        return _ruled(state, rules.step(chase, rule_cmd, dice, opts), _pilot_of(chase, cmd.vehicle), dcs)
    if isinstance(cmd, DoubleManeuverCmd):
        st = rules.step(chase, rules.DoubleManeuver(cmd.vehicle), dice, opts)
        return _ruled(state, st, _pilot_of(chase, cmd.vehicle))
    if isinstance(cmd, ForfeitCmd):
        return _ruled(state, rules.step(chase, rules.Forfeit(cmd.vehicle), dice, opts), _pilot_of(chase, cmd.vehicle))
    if isinstance(cmd, UncontrolledCmd):
        st = rules.step(chase, rules.LeaveUncontrolled(cmd.vehicle), dice, opts)
        return _ruled(state, st, _pilot_of(chase, cmd.vehicle))
    if isinstance(cmd, NoPilotActionCmd):
        return _ruled(state, rules.step(chase, rules.Pass(cmd.vehicle), dice, opts), _pilot_of(chase, cmd.vehicle))
    if isinstance(cmd, ProgressCmd):
        st = rules.step(chase, rules.Progress(frozenset(cmd.decline_escape)), dice, opts)
        new, lines, checks, dcs, actor = _ruled(state, st, None)
        return new, [*lines, *_positions(new.chase)], checks, dcs, actor
    if isinstance(cmd, EndRoundCmd):
        st = rules.step(chase, rules.EndRound(), dice, opts)
        new, lines, checks, dcs, actor = _ruled(state, st, None)
        return new.model_copy(update={"acted": frozenset()}), lines, checks, dcs, actor
    if isinstance(cmd, DamageVehicleCmd):
        st = rules.step(chase, rules.DamageVehicle(cmd.vehicle, cmd.amount, source=cmd.source), dice, opts)
        return _ruled(state, st, None)
    if isinstance(cmd, CollideCmd):
        pilot = _pilot_of(chase, cmd.vehicle)
        _not_acted(state, pilot or cmd.vehicle)
        st = rules.step(chase, rules.Collide(cmd.vehicle, cmd.target), dice, opts)
        new, lines, checks, dcs, _ = _ruled(state, st, pilot)
        new = new.model_copy(update={"acted": new.acted | {pilot or cmd.vehicle}})
        return new, lines, checks, dcs, pilot
    if isinstance(cmd, BoardCmd):
        return _board(state, cmd, dice)
    if isinstance(cmd, RejoinCmd):
        st = rules.step(chase, rules.Rejoin(cmd.vehicle, cmd.zone, gm_allows=True), dice, opts)
        return _ruled(state, st, None)
    return _attack(state, cmd, dice)


def _ruled(state: ChaseEncounter, st: ChaseStep, actor: str | None, dcs: Sequence[dict[str, Any]] = ()) -> Applied:
    return state.model_copy(update={"chase": st.chase}), list(st.lines), list(st.checks), list(dcs), actor


def _pilot_of(chase: Chase, vid: str) -> str | None:
    cv = chase.get(vid)
    return cv.pilot.id if cv.pilot is not None else None


def _positions(chase: Chase) -> list[str]:
    parts = []
    for cv in sorted(chase.vehicles, key=lambda c: -c.zone):
        where = f"zone {cv.zone}" if cv.active else cv.status.replace("_", " ")
        parts.append(f"{cv.id} ({cv.side}) {where}")
    return ["positions: " + "; ".join(parts) + " [CHS-02]"]


def _not_acted(state: ChaseEncounter, who: str) -> None:
    if state.chase.phase != "combat":
        raise RuleViolation("CHS-05", f"that happens in the combat phase (now: {state.chase.phase})")
    if who in state.acted:
        raise RuleViolation("CHS-24", f"{who} has already acted in this combat phase")


#: Conditions that keep a creature from acting in the combat phase, and a pilot from steering.
DOWN = ("dead", "unconscious", "dying", "stunned", "paralyzed", "helpless")


def _able(c: Creature) -> None:
    for bad in DOWN:
        if c.has(bad):
            raise RuleViolation("CHS-24", f"{c.name} is {bad} and cannot act")


def _set_creature(state: ChaseEncounter, c: Creature) -> tuple[ChaseEncounter, list[str]]:
    """Put a changed creature back where it rides; a pilot who can no longer act leaves the vehicle
    uncontrolled (it fails every check, CHS-17)."""
    lines: list[str] = []
    chase = state.chase
    for cv in chase.vehicles:
        if cv.pilot is not None and cv.pilot.id == c.id:
            v = cv.vehicle
            down = any(c.has(x) for x in DOWN)
            if down and v.state.control == "pilot":
                v = v.with_state(control="uncontrolled")
                lines.append(f"{cv.id} has no pilot able to act: it is uncontrolled [CHS-17] [VEH-23]")
            chase = chase.with_vehicle(cv.model_copy(update={"pilot": c, "vehicle": v}))
            return state.model_copy(update={"chase": chase}), lines
    riders = tuple(r.model_copy(update={"creature": c}) if r.id == c.id else r for r in state.riders)
    return state.model_copy(update={"riders": riders}), lines


def _weapon(state: ChaseEncounter, who: Creature, vid: str, rider: Rider | None, name: str | None,
            engaged: bool, *, is_pilot: bool = False) -> tuple[Creature, Weapon, bool]:  # fmt: skip
    """The weapon an attack uses, the attacker holding it (a mounted weapon is added to a copy) and whether it
    is a mounted weapon. Gunners fire their mounted weapon; a pilot fires only mounted weapons bound to the
    controls, with a standard action left (VEH-29)."""
    cv = state.chase.get(vid)
    mounted = {w.weapon.name.lower(): w for w in cv.vehicle.stat.weapons}
    pick = None
    if rider is not None and rider.role == "gunner" and (name is None or name == rider.mounted):
        pick = mounted[str(rider.mounted).lower()]
    elif name is not None and name.lower() in mounted:
        pick = mounted[name.lower()]
        if not is_pilot:
            raise RuleViolation("VEH-29", f"{pick.weapon.name} is a mounted weapon: its gunner fires it")
        rec = state.chase.record(vid)
        vehicle_weapon_terms(cv.vehicle, pick.weapon.name, by_pilot=True,
                             pilot_full_action=rec is not None and rec.used == "full", chase=True)  # fmt: skip
    if pick is not None:
        w = pick.weapon
        armed = who.model_copy(update={"stat": who.stat.model_copy(update={"weapons": (*who.stat.weapons, w)})})
        return armed, w, True
    if name is not None:
        return who, who.stat.weapon(name), False
    usable = [w for w in who.stat.weapons if not w.is_grenade and (not w.is_melee or (engaged and w.reach))]
    if not usable:
        raise RuleViolation("CHS-25", f"{who.name} has no weapon to use from a vehicle in a chase")
    ranged = [w for w in usable if not w.is_melee]
    return who, (ranged or usable)[0], False


def _attack(state: ChaseEncounter, cmd: ChaseAttackCmd, dice: DiceSource) -> Applied:
    chase = state.chase
    who, vid, is_pilot = state.creature(cmd.actor)
    _not_acted(state, who.id)
    _able(who)
    if is_pilot and not rules.pilot_can_attack(chase, vid):
        raise RuleViolation("CHS-06", f"{who.name} spent a full action on pilot actions: no standard action left")
    if cmd.full_attack and is_pilot and not rules.pilot_can_attack(chase, vid, full_attack=True):
        raise RuleViolation("CHS-25", f"{who.name} makes a full attack only after leaving {vid} uncontrolled")
    rider = state.rider(who.id)
    engaged = cmd.target in chase.engagement(vid)
    armed, w, on_mount = _weapon(state, who, vid, rider, cmd.weapon, engaged, is_pilot=is_pilot)
    if cmd.full_attack and w.unwieldy:
        raise RuleViolation("ACT-53", f"{w.name} is unwieldy: it attacks only once per round, even in a full attack")
    mount = [f"{who.name} fires {vid}'s mounted {w.name}; the vehicle's attack penalty applies [VEH-29]"] if (
        on_mount) else []  # fmt: skip
    extra = (Term(-4, "full attack", "ACT-53"),) if cmd.full_attack else ()
    lines: list[str] = [f"{who.name} makes a full attack: two attacks at -4 [ACT-53]"] if cmd.full_attack else []
    checks: list[CheckResult] = []
    new = state.model_copy(update={"acted": state.acted | {who.id}})
    for _ in range(2 if cmd.full_attack else 1):
        if not new.chase.get(cmd.target).active:
            lines.append(f"{cmd.target} is out of the chase: no second attack")
            break
        if cmd.rider is None:
            res = rules.attack_vehicle(new.chase, armed, w.name, vid, cmd.target, dice, state.options, extra=extra)
            new = new.model_copy(update={"chase": res.chase})
            lines += _attack_first(list(res.lines)) + mount
            checks.append(res.check)
            if not res.hit and not w.is_melee:
                chase2, more = _ricochet(new.chase, armed, w, vid, cmd.target, dice, state)
                new = new.model_copy(update={"chase": chase2})
                lines += more
            continue
        target, tvid, _ = new.creature(cmd.rider)
        if tvid != cmd.target:
            raise RuleViolation("CHS-25", f"{target.name} rides {tvid}, not {cmd.target}")
        setup = rules.attack_setup(new.chase, vid, tvid, melee=w.is_melee, reach=w.reach,
                                   range_increment_ft=w.range_ft or None, grenade=w.is_grenade, target_rider=True,
                                   options=state.options)  # fmt: skip
        sit = Situation(attack_terms=(*setup.attack_terms, *extra), ac_terms=setup.ac_terms,
                        miss_chance=setup.miss_chance,
                        miss_reason="the chase environment" if setup.miss_chance else "")  # fmt: skip
        res2 = resolve_attack(armed, target, w, dice, sit)
        lines += [f"{who.name} attacks {target.name} aboard {tvid} with {w.name}", *mount, *setup.lines,
                  *res2.lines()]  # fmt: skip
        checks.append(res2.roll)
        new, more = _set_creature(new, res2.defender)
        lines += more
        if res2.defender.has("dead"):
            break
    return new, lines, checks, [], who.id


def _ricochet(chase: Chase, attacker: Creature, w: Weapon, vid: str, target: str, dice: DiceSource,
              state: ChaseEncounter) -> tuple[Chase, list[str]]:  # fmt: skip
    """CHS-32, CHS-38: where the target's zone has ricocheting shots, a missed ranged attack hits a vehicle next to
    the target (engaged with it; not the attacker's) on a d% roll at or under the chance; its damage is rolled
    as for a hit (no critical)."""
    from sftactics.sf1e import damage as dmg
    from sftactics.sf1e import stats

    chance = max((a.chance for a in chase.environment.attacks(chase.get(target).zone) if a.kind == "ricochet"),
                 default=0)  # fmt: skip
    near = sorted(x for x in chase.engagement(target) if x not in (target, vid) and chase.get(x).active)
    if not chance or not near:
        return chase, []
    roll = dice.percentile(f"{attacker.name}'s shot ricochets")
    if roll > chance:
        return chase, [f"the miss does not ricochet (d% {roll} > {chance}) [CHS-38]"]
    hit = near[0] if len(near) == 1 else near[dice.die(len(near), "ricochet target") - 1]
    roll_ = dmg.roll_damage(w.damage_expr, stats.damage_bonus(attacker, w), dice, purpose=f"{w.name} ricochet")
    st = rules.damage(chase, hit, roll_.total, source=f"{attacker.name}'s ricochet", options=state.options)
    return st.chase, [f"the miss ricochets into {hit} (d% {roll} <= {chance}): damage {roll_.total} [CHS-38]",
                      *st.lines]  # fmt: skip


def _attack_first(lines: list[str]) -> list[str]:
    """The attack line first (a brief narration shows only it), then the chase's range line."""
    setup = [x for x in lines if x.startswith(("range ", "melee with a reach"))]
    return [x for x in lines if x not in setup] + setup


def _board(state: ChaseEncounter, cmd: BoardCmd, dice: DiceSource) -> Applied:
    who, vid, is_pilot = state.creature(cmd.actor)
    _not_acted(state, who.id)
    _able(who)
    if is_pilot:
        raise RuleViolation("CHS-27", "boarding is for passengers: the pilot must hand over control first")
    st = rules.step(state.chase, rules.Board(who, vid, cmd.to, skill=cmd.skill), dice, state.options)
    new = state.model_copy(update={"chase": st.chase, "acted": state.acted | {who.id}})
    lines = list(st.lines)
    c = st.creature or who
    rider = state.rider(who.id)
    assert rider is not None
    check = st.checks[0] if st.checks else None
    boarded = check is None or check.success
    fell = check is not None and not check.success and check.dc - check.total >= 5
    if boarded:
        moved = rider.model_copy(update={"creature": c, "vehicle": cmd.to, "role": "passenger", "mounted": None})
        new = new.model_copy(update={"riders": tuple(moved if r.id == who.id else r for r in new.riders)})
        lines.append(f"{who.name} is aboard {cmd.to}; attacks from it take its penalty [CHS-27]")
    elif fell:
        new = new.model_copy(update={"riders": tuple(r for r in new.riders if r.id != who.id)})
        lines.append(f"{who.name} falls off and is out of the chase [CHS-27]")
    else:
        new, more = _set_creature(new, c)
        lines += more
    return new, lines, list(st.checks), [], who.id


# ---------------------------------------------------------------- the result


def _judge(state: ChaseEncounter, *, after_round: bool) -> ChaseEncounter:
    chase = state.chase
    q, p = state.quarry, state.pursuers
    qv = [cv for cv in chase.vehicles if cv.side == q]
    pv = [cv for cv in chase.vehicles if cv.side == p]
    winner: str | None = None
    reason = ""

    def engaged_by_pursuer(vid: str) -> bool:
        return any(chase.get(x).side == p for x in chase.engagement(vid) if x != vid)

    def held(cv: ChaseVehicle) -> bool:
        if cv.status in ("wrecked", "left_behind"):
            return True
        return after_round and state.goal.caught == "engaged" and cv.active and engaged_by_pursuer(cv.id)

    escaped = [cv.id for cv in qv if cv.status == "escaped"]
    if all(held(cv) or cv.status == "escaped" for cv in qv):
        if escaped:
            winner, reason = q, f"{', '.join(escaped)} escaped; {p} did not catch every {q} vehicle [CHS-20] [CHS-23]"
        else:
            how = "wrecked, left behind or engaged at the end of a round" if state.goal.caught == "engaged" else (
                "wrecked or left behind")  # fmt: skip
            winner, reason = p, f"every {q} vehicle is {how}: {p} catch them [CHS-20] [CHS-23]"
    elif all(not cv.active for cv in pv):
        winner, reason = q, f"every {p} vehicle is out of the chase: {q} get away [CHS-20] [CHS-23]"
    if not reason and after_round and chase.round > state.max_rounds:
        reason = f"the GM ends the chase after {state.max_rounds} rounds: undecided"
    if not reason:
        return state
    res = ChaseResult(
        winner=winner,
        reason=reason,
        rounds=min(chase.round - (1 if after_round else 0), state.max_rounds),
        broken=state.broken_vehicles(),
        wrecked=tuple(cv.id for cv in chase.vehicles if cv.vehicle.wrecked),
        escaped=tuple(cv.id for cv in chase.vehicles if cv.status == "escaped"),
        left_behind=tuple(cv.id for cv in chase.vehicles if cv.status == "left_behind"),
        xp_crs=_xp_crs(state, winner),
    )
    return state.model_copy(update={"result": res})


def _met_hazards(before: Chase, state: ChaseEncounter) -> ChaseEncounter:
    """Remember the active hazards of every zone a vehicle entered (for experience, CHS-40)."""
    env, after = state.chase.environment, state.chase
    met = list(state.hazards_met)
    names = {h.name for h in met}
    for cv in before.vehicles:
        new_zone = after.get(cv.id).zone
        lo, hi = sorted((cv.zone, new_zone))
        zones = [z for z in range(lo, hi + 1) if z != cv.zone]
        for z in zones:
            zone = env.zone(z)
            found = [*zone.hazards, *(h for r in zone.routes for h in r.hazards if r.name == after.get(cv.id).route),
                     *(h for zn, h in after.added_hazards if zn == z)]  # fmt: skip
            for h in found:
                if h.name not in names:
                    names.add(h.name)
                    met.append(h)
    if len(met) == len(state.hazards_met):
        return state
    return state.model_copy(update={"hazards_met": tuple(met)})


def _xp_crs(state: ChaseEncounter, winner: str | None) -> tuple[str, ...]:
    if winner != state.goal.side:
        return ()
    foes = [(c.id, c.stat.cr) for cv in state.chase.vehicles if cv.side != winner for c in state.aboard(cv.id)]
    crs = rules.chase_xp_crs([(cid, cr) for cid, cr in foes if cr is not None], state.hazards_met)
    return tuple(str(c) for c in crs)


def result_lines(res: ChaseResult) -> tuple[str, ...]:
    out = [f"chase over after {res.rounds} round(s): {res.reason}"]
    for label, ids in (("wrecked", res.wrecked), ("broken", res.broken), ("escaped", res.escaped),
                       ("left behind", res.left_behind)):  # fmt: skip
        if ids:
            out.append(f"  {label}: {', '.join(ids)}")
    if res.xp_crs:
        out.append(f"  experience for CRs {', '.join(res.xp_crs)} (Table 11-3) [CHS-40]")
    return tuple(out)


# ---------------------------------------------------------------- a chase with its log


class ChaseFight:
    """A chase in progress: the start, the dice, and each command with its events (``log``)."""

    def __init__(self, start: ChaseEncounter, dice: DiceSource, *, seed: int | None = None) -> None:
        self.start = start
        self.state = start
        self.dice = dice
        self.seed = seed
        self.log: list[tuple[ChaseCommand, list[ChaseEvent]]] = []
        self._snaps: list[tuple[ChaseEncounter, object]] = []

    def do(self, cmd: ChaseCommand | dict[str, Any]) -> list[ChaseEvent]:
        c = CHASE_COMMANDS.validate_python(cmd) if isinstance(cmd, dict) else cmd
        before = (self.state, self.dice.snapshot())
        self.state, events = step(self.state, c, self.dice)
        self._snaps.append(before)
        self.log.append((c, events))
        return events

    def undo(self) -> None:
        if not self.log:
            raise SftError("nothing to undo")
        self.state, snap = self._snaps.pop()
        self.dice.restore(snap)
        self.log.pop()

    def all_events(self) -> list[ChaseEvent]:
        return [e for _, evs in self.log for e in evs]

    def save(self, path: Path) -> None:
        """JSON lines: a header with the start, then one command with its events per line."""
        with path.open("w", encoding="utf-8") as f:
            f.write(json.dumps({"chase": True, "seed": self.seed, "start": self.start.model_dump(mode="json")}) + "\n")
            for cmd, events in self.log:
                row = {"command": cmd.model_dump(mode="json"), "events": [e.model_dump(mode="json") for e in events]}
                f.write(json.dumps(row) + "\n")

    @classmethod
    def load(cls, path: Path, dice: DiceSource | None = None) -> ChaseFight:
        """A saved chase, replayed from its events (no rules run). ``dice`` serve the commands to come (default:
        seeded with the log's seed); they are moved past every die the log rolled, so a seeded stream continues
        where it stopped and undo finds the same dice."""
        from sftactics.core.errors import FileFormatError

        try:
            rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
            start = ChaseEncounter.model_validate(rows[0]["start"])
            seed = rows[0].get("seed")
            src = dice if dice is not None else SeededDice(seed if isinstance(seed, int) else DEFAULT_SEED)
            fight = cls(start, src, seed=seed if isinstance(seed, int) else None)
            for row in rows[1:]:
                cmd = CHASE_COMMANDS.validate_python(row["command"])
                events = [ChaseEvent.model_validate(e) for e in row["events"]]
                fight._snaps.append((fight.state, src.snapshot()))
                _catch_up(src, [d for e in events for d in e.dice])
                fight.log.append((cmd, events))
                if events:
                    fight.state = events[-1].after
        except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
            raise FileFormatError(str(path), "", f"a saved chase log ({e})") from None
        return fight


def saved_seed(path: Path) -> int | None:
    """The seed in a saved chase's header (None if it has none or cannot be read)."""
    try:
        with path.open(encoding="utf-8") as f:
            head = json.loads(f.readline() or "{}")
    except (OSError, ValueError):
        return None
    seed = head.get("seed") if isinstance(head, dict) else None
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def _catch_up(dice: DiceSource, rolled: Sequence[dict[str, Any]]) -> None:
    """Move a dice source past dice a saved log rolled: a seeded stream rolls them again (same sides, same
    stream); any other source records them."""
    if isinstance(dice, SeededDice):
        for d in rolled:
            dice.die(int(d["sides"]), str(d.get("purpose", "")))
    else:
        dice.history.extend(DieRoll(int(d["sides"]), int(d["result"]), str(d.get("purpose", ""))) for d in rolled)


def narrate(events: Sequence[ChaseEvent], *, brief: bool = False) -> list[str]:
    """The chase as the GM reads it: a heading per round and phase, then each event's lines (``brief``: the first
    line of each event)."""
    out: list[str] = []
    where: tuple[int, str] | None = None
    for e in events:
        if e.kind not in ("begin", "result") and (e.round, e.phase) != where:
            where = (e.round, e.phase)
            out.append(f"== round {e.round}, {e.phase.replace('_', ' ')}")
        lines = e.lines[:1] if brief and e.kind != "result" else e.lines
        indent = "" if e.kind in ("begin", "result") else "  "
        out += [indent + line for line in lines]
    return out


__all__ = ["ChaseFight", "narrate", "result_lines", "saved_seed", "step"]
