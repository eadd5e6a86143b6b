"""``sftactics play`` on a chase scenario: the GM runs a vehicle chase at the table, one short verb at a time
(docs/vehicles.md, "Vehicle chases"). The verbs turn into the chase runner's commands
(:mod:`sftactics.encounter.chase_commands`); the runner explains every roll.

Pilot actions name the vehicle whose pilot acts (by default the one whose turn it is)::

    speed [VEHICLE] [via ROUTE]       keep [VEHICLE]      evade [VEHICLE]     slow [VEHICLE]
    trick [VEHICLE] [SKILL] [named TRICK]                  engage [VEHICLE] TARGET
    break [VEHICLE] [willing]         double [VEHICLE]    forfeit [VEHICLE]   uncontrolled [VEHICLE]
    pass [VEHICLE]

Then ``progress``; in the combat phase ``attack ACTOR TARGET [rider NAME] [with WEAPON] [full]``,
``collide VEHICLE TARGET``, ``board ACTOR TARGET [athletics]``, ``end``. Anytime: ``damage VEHICLE AMOUNT``,
``rejoin VEHICLE ZONE``, ``auto`` (the chase policy takes the next step; ``auto round``, ``auto all``),
``status``, ``undo``, ``save FILE``, ``brief``, ``help``, ``quit``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.text import Text

from sftactics.core.errors import SftError
from sftactics.encounter.chase import ChaseFight, narrate, saved_seed
from sftactics.encounter.chase_commands import (
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
from sftactics.encounter.chase_policy import next_command
from sftactics.encounter.chase_state import ChaseEncounter
from sftactics.sf1e.vehicles.chase import ActionName

PILOT_VERBS: dict[str, ActionName] = {
    "speed": "speed_up",
    "keep": "keep_pace",
    "evade": "evade",
    "slow": "slow_down",
    "trick": "trick",
    "engage": "engage",
    "break": "break_free",
}

HELP = __doc__.split("::", 1)[1] if __doc__ else ""


class _Cancel(Exception):
    """The GM cancelled a command at a dice prompt (the runner restores the dice; nothing changed)."""


def is_chase_log(path: Path) -> bool:
    """Whether a ``.jsonl`` file is a saved chase (its header says ``chase: true``)."""
    try:
        with path.open(encoding="utf-8") as f:
            head = json.loads(f.readline() or "{}")
    except (OSError, ValueError):
        return False
    return isinstance(head, dict) and head.get("chase") is True


class ChaseSession:
    """One GM running one chase."""

    def __init__(self, fight: ChaseFight, console: Console, input_fn: Callable[[str], str] | None = None) -> None:
        self.fight = fight
        self.console = console
        self._input = input_fn
        self.brief = False
        self._heading = ""

    @classmethod
    def open(cls, path: Path, *, seed: int, console: Console, input_fn: Callable[[str], str] | None = None,
             physical: bool = False) -> ChaseSession:  # fmt: skip
        """A session on a chase scenario, or on a saved chase log (``.jsonl``). ``physical``: the GM types every
        die (``roll`` lets the engine roll one, ``cancel`` takes the command back)."""
        from sftactics.play.session import TableDice

        holder: list[ChaseSession] = []
        saved = path.suffix.lower() == ".jsonl"
        if saved:
            seed = saved_seed(path) or seed  # a saved chase keeps its own seed
        dice = TableDice(seed, lambda sides, purpose: holder[0]._ask_die(sides, purpose), manual=physical)
        if saved:
            fight = ChaseFight.load(path, dice)
        else:
            from sftactics.io.chase_scenario import load_chase

            fight = ChaseFight(load_chase(path), dice, seed=seed)
        holder.append(cls(fight, console, input_fn))
        return holder[0]

    def _ask_die(self, sides: int, purpose: str) -> int | None:
        prompt = f"d{sides} for {purpose or 'a roll'}: "
        while True:
            try:
                raw = self._read(prompt).strip().lower()
            except (EOFError, KeyboardInterrupt):
                raise _Cancel() from None
            if raw in ("cancel", "c"):
                raise _Cancel()
            if raw in ("roll", "r"):
                return None
            if raw.isdigit() and 1 <= int(raw) <= sides:
                return int(raw)
            self.say(f"  A d{sides} shows 1 to {sides}: type the result, 'roll' for the engine's die, or 'cancel'.")

    # ------------------------------------------------------------------ the loop
    def say(self, line: str = "") -> None:
        self.console.print(line, markup=False, highlight=False)

    def _read(self, prompt: str) -> str:
        if self._input is not None:
            line = self._input(prompt)
            self.console.print(Text(prompt + line), highlight=False)
            return line
        return self.console.input(Text(prompt))

    def prompt(self) -> str:
        st = self.fight.state
        if st.over:
            return "(chase over) > "
        if not st.begun:
            return "(not begun: type begin) > "
        ch = st.chase
        if ch.phase == "pilot_actions":
            return f"round {ch.round}, pilot actions: {ch.current_pilot} > "
        return f"round {ch.round}, {ch.phase.replace('_', ' ')} > "

    def run(self) -> None:
        self.say(f"{self.fight.state.name}: {self.fight.state.description}".rstrip(": "))
        while True:
            try:
                line = self._read(self.prompt())
            except (EOFError, KeyboardInterrupt):
                self.say("")
                return
            if not self.handle(line):
                return

    def handle(self, line: str) -> bool:
        """Carry out one line; False to leave."""
        words = line.split()
        if not words:
            return True
        verb, args = words[0].lower(), words[1:]
        try:
            if verb in ("quit", "exit", "q"):
                return False
            if verb == "help":
                self.say(HELP.strip("\n"))
            elif verb == "status":
                self.status()
            elif verb == "brief":
                self.brief = not self.brief
                self.say(f"brief narration {'on' if self.brief else 'off'}")
            elif verb == "undo":
                self.fight.undo()
                self.say("undone")
                self.status()
            elif verb == "save":
                if not args:
                    raise SftError("save FILE")
                self.fight.save(Path(args[0]))
                self.say(f"saved to {args[0]}")
            elif verb == "auto":
                self.auto(args[0] if args else "step")
            else:
                self.do(self.parse(verb, args))
        except SftError as e:
            self.say(f"refused: {e}")
        except _Cancel:
            self.say("cancelled: nothing changed")
        return True

    def do(self, cmd: ChaseCommand) -> None:
        events = self.fight.do(cmd)
        for line in narrate(events, brief=self.brief):
            if line.startswith("== "):
                if line == self._heading:
                    continue
                self._heading = line
            self.say(line)

    def auto(self, how: str) -> None:
        if how not in ("step", "round", "all"):
            raise SftError("auto, auto round or auto all")
        start_round = self.fight.state.chase.round
        for _ in range(5000):
            st = self.fight.state
            if st.over or (how == "round" and st.chase.round != start_round):
                return
            self.do(next_command(st))
            if how == "step":
                return

    def status(self) -> None:
        st: ChaseEncounter = self.fight.state
        ch = st.chase
        self.say(f"round {ch.round}, {ch.phase.replace('_', ' ')}; goal: {st.goal.side} want to {st.goal.wants}")
        for cv in sorted(ch.vehicles, key=lambda c: -c.zone):
            v = cv.vehicle
            where = f"zone {cv.zone}" if cv.active else cv.status.replace("_", " ")
            eng = sorted(ch.engagement(cv.id) - {cv.id})
            aboard = ", ".join(c.name for c in st.aboard(cv.id))
            extra = f"; engaged with {', '.join(eng)}" if eng else ""
            self.say(f"  {cv.id} ({cv.side}) {where}: {v.state.hp}/{v.stat.hp} HP, {v.state.control}{extra}; "
                     f"aboard: {aboard}")  # fmt: skip
        if st.result is not None:
            self.say(f"  over: {st.result.reason}")

    # ------------------------------------------------------------------ verbs
    def _vehicle_arg(self, args: list[str]) -> tuple[str, list[str]]:
        """The vehicle a pilot verb is for: a leading vehicle name, else the pilot whose turn it is."""
        ids = {cv.id.lower(): cv.id for cv in self.fight.state.chase.vehicles}
        for n in range(len(args), 0, -1):
            name = " ".join(args[:n]).lower()
            if name in ids:
                return ids[name], args[n:]
        cur = self.fight.state.chase.current_pilot
        if cur is None:
            raise SftError("name the vehicle: it is not the pilot actions phase")
        return cur, args

    def _name(self, words: list[str], kind: str) -> str:
        """A vehicle or creature name from the words given (case-insensitive, spaces allowed)."""
        st = self.fight.state
        names = [cv.id for cv in st.chase.vehicles] if kind == "vehicle" else [
            c.id for cv in st.chase.vehicles for c in st.aboard(cv.id)]  # fmt: skip
        text = " ".join(words).lower()
        for n in names:
            if n.lower() == text:
                return n
        starts = [n for n in names if n.lower().startswith(text)] if text else []
        if len(starts) == 1:
            return starts[0]
        raise SftError(f"no {kind} {text!r} (known: {', '.join(names)})")

    def _split(self, args: list[str], key: str) -> tuple[list[str], list[str] | None]:
        if key in args:
            i = args.index(key)
            return args[:i], args[i + 1 :]
        return args, None

    def parse(self, verb: str, args: list[str]) -> ChaseCommand:
        if verb == "begin":
            return BeginChase()
        if verb == "progress":
            return ProgressCmd()
        if verb == "end":
            return EndRoundCmd()
        if verb in PILOT_VERBS:
            return self._pilot(verb, args)
        if verb in ("double", "forfeit", "uncontrolled", "pass"):
            vid, _ = self._vehicle_arg(args)
            if verb == "double":
                return DoubleManeuverCmd(vehicle=vid)
            if verb == "forfeit":
                return ForfeitCmd(vehicle=vid)
            if verb == "uncontrolled":
                return UncontrolledCmd(vehicle=vid)
            return NoPilotActionCmd(vehicle=vid)
        if verb == "attack":
            return self._attack(args)
        if verb == "collide":
            return self._two(args, lambda a, b: CollideCmd(vehicle=a, target=b), "collide VEHICLE TARGET", "vehicle")
        if verb == "board":
            skill = "athletics" if args and args[-1].lower() == "athletics" else "acrobatics"
            rest = args[:-1] if args and args[-1].lower() in ("athletics", "acrobatics") else args
            return self._two(rest, lambda a, b: BoardCmd(actor=a, to=b, skill=skill), "board ACTOR VEHICLE",
                             "creature")  # fmt: skip
        if verb == "rejoin":
            if len(args) < 2 or not args[-1].lstrip("-").isdigit():
                raise SftError("rejoin VEHICLE ZONE")
            return RejoinCmd(vehicle=self._name(args[:-1], "vehicle"), zone=int(args[-1]))
        if verb == "damage":
            if len(args) < 2 or not args[-1].isdigit():
                raise SftError("damage VEHICLE AMOUNT")
            return DamageVehicleCmd(vehicle=self._name(args[:-1], "vehicle"), amount=int(args[-1]))
        raise SftError(f"unknown verb {verb!r}: type help")

    def _pilot(self, verb: str, args: list[str]) -> ChaseCommand:
        args, route = self._split(args, "via")
        args, trick = self._split(args, "named")
        willing = bool(args) and args[-1].lower() == "willing"
        if willing:
            args = args[:-1]
        action = PILOT_VERBS[verb]
        target = None
        skill = "piloting"
        if verb == "engage":
            if not args:
                raise SftError("engage [VEHICLE] TARGET")
            vids = {cv.id.lower() for cv in self.fight.state.chase.vehicles}
            lead = [n for n in range(1, len(args)) if " ".join(args[:n]).lower() in vids]
            vid = self._name(args[: lead[0]], "vehicle") if lead else self.fight.state.chase.current_pilot
            if vid is None:
                raise SftError("name the vehicle: it is not the pilot actions phase")
            target = self._name(args[lead[0] :] if lead else args, "vehicle")
        else:
            vid, rest = self._vehicle_arg(args)
            if verb == "trick" and rest:
                skill = rest[0].lower()
            elif rest:
                raise SftError(f"unexpected {' '.join(rest)!r}")
        return PilotCmd(vehicle=vid, action=action, target=target, skill=skill,
                        route=" ".join(route) if route else None, trick=" ".join(trick) if trick else None,
                        willing=willing)  # fmt: skip

    def _two(self, args: list[str], make: Callable[[str, str], ChaseCommand], usage: str, first: str) -> ChaseCommand:
        for n in range(1, len(args)):
            try:
                a = self._name(args[:n], first)
                b = self._name(args[n:], "vehicle")
            except SftError:
                continue
            return make(a, b)
        raise SftError(usage)

    def _attack(self, args: list[str]) -> ChaseCommand:
        full = bool(args) and args[-1].lower() == "full"
        args = args[:-1] if full else args
        args, weapon = self._split(args, "with")
        args, rider = self._split(args, "rider")
        cmd = self._two(args, lambda a, b: ChaseAttackCmd(actor=a, target=b), "attack ACTOR VEHICLE [rider NAME] "
                        "[with WEAPON]", "creature")  # fmt: skip
        assert isinstance(cmd, ChaseAttackCmd)
        update: dict[str, str | bool] = {"full_attack": True} if full else {}
        if rider:
            update["rider"] = self._name(rider, "creature")
        if weapon:
            update["weapon"] = " ".join(weapon)
        return cmd.model_copy(update=update) if update else cmd


def play_chase(path: Path, *, seed: int, console: Console, input_fn: Callable[[str], str] | None = None,
               physical: bool = False) -> None:  # fmt: skip
    """Run an interactive chase until the person quits or the input ends."""
    ChaseSession.open(path, seed=seed, console=console, input_fn=input_fn, physical=physical).run()


__all__ = ["ChaseSession", "is_chase_log", "play_chase"]
