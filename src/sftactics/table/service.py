"""The table's work without the web: creating tables with their seats, checking who may send what, running
commands through the fight, and answering each seat's questions about the board.

Every fight has a lock: commands from two seats are taken one after the other. Listeners (the WebSockets) are
woken after every recorded command (and, with PostgreSQL, after another process recorded one: see
:mod:`sftactics.table.notify`); they then read the new events from the store.
"""

from __future__ import annotations

import copy
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sftactics.core.errors import CommandError, RuleViolation, SftError
from sftactics.encounter import budget, perception, space
from sftactics.encounter.commands import Command, command_actor, parse_command
from sftactics.encounter.engine import GM_COMMANDS, step
from sftactics.encounter.state import Encounter
from sftactics.table import views
from sftactics.table.fight import LiveFight, TableDice
from sftactics.table.store import FightRow, SeatRow, Store, TableRow

log = logging.getLogger("sftactics.table")

#: The table's settings and their defaults.
DEFAULT_SETTINGS: dict[str, Any] = {"enemy_hp": "status", "typed_dice": True}
#: Commands without a target that the action buttons offer when the engine would take them now.
SIMPLE_ACTIONS = ("end_turn", "total_defense", "drop_prone", "stand_up", "search", "delay", "stabilize",
                  "stay_in_the_fight", "right_yourself")  # fmt: skip
#: Seconds a table's settings and seats are kept in memory before they are read from the store again.
TABLE_TTL = 2.0
#: Where a scenario named without a path is looked for (relative to the working directory).
SCENARIO_DIRS = ("scenarios", "examples/scenarios")


class Forbidden(SftError):
    """The seat may not send this (a combatant not of the seat, a GM command)."""


class NotFound(SftError):
    """No such table, or a token that opens no seat at it."""


@dataclass(frozen=True)
class Seat:
    """Who is asking: the GM (``side`` None) or a player seat."""

    table_id: str
    name: str
    side: str | None
    combatants: tuple[str, ...]

    @property
    def gm(self) -> bool:
        return self.side is None


def find_scenario(name: str, root: Path | None = None) -> Path:
    """A scenario file: a path, or the name of one under ``scenarios/`` or ``examples/scenarios/``; with
    ``root``, only a file inside that folder (what the API lets a remote client open)."""
    for cand in (Path(name), *(Path(d) / n for d in SCENARIO_DIRS for n in (name, f"{name}.yaml"))):
        try:
            if cand.is_file() and (root is None or cand.resolve().is_relative_to(root.resolve())):
                return cand
        except (OSError, ValueError):  # a name too long, a NUL byte...
            break
    raise NotFound(f"no scenario {name!r} (a file, or a name in {', '.join(SCENARIO_DIRS)})")


class TableService:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._fights: dict[str, LiveFight] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._listeners: dict[str, set[Callable[[], None]]] = {}
        self._tables: dict[str, tuple[float, TableRow, list[SeatRow]]] = {}

    # ------------------------------------------------------------------ tables
    def create(
        self,
        scenario: str,
        *,
        seed: int = 1,
        seats: Mapping[str, Sequence[str]] | None = None,
        settings: dict[str, Any] | None = None,
        name: str | None = None,
        root: Path | None = None,
    ) -> tuple[TableRow, list[SeatRow]]:
        from sftactics.io.scenario import load_scenario

        path = find_scenario(scenario, root)
        start = load_scenario(path)
        if seats is None:
            first = start.sides()[0]
            seats = {c.id: [c.id] for c in start.combatants.values() if c.side == first}
        rows = []
        for seat, ids in seats.items():
            sides = {start.get(cid).side for cid in ids}  # unknown ids raise RuleViolation/KeyError
            if len(sides) != 1:
                raise CommandError("seats", f"seat {seat!r}: the combatants of one seat on one side ({ids})")
            rows.append(SeatRow(seat, secrets.token_urlsafe(16), sides.pop(), tuple(ids)))
        table = TableRow(secrets.token_hex(8), name or start.name, {**DEFAULT_SETTINGS, **(settings or {})},
                         secrets.token_urlsafe(16))  # fmt: skip
        self.store.create_table(table, rows, FightRow(str(path), start.model_dump_json(), seed))
        return table, rows

    def _table(self, table_id: str) -> tuple[TableRow, list[SeatRow]]:
        """The table and its seats, read again from the store after TABLE_TTL seconds (another process may
        have changed them) or after this process changed them."""
        now = time.monotonic()
        with self._guard:
            hit = self._tables.get(table_id)
        if hit is not None and now - hit[0] < TABLE_TTL:
            return hit[1], hit[2]
        table = self.store.table(table_id)
        if table is None:
            raise NotFound("no such table")
        seats = self.store.seats(table_id)
        with self._guard:
            self._tables[table_id] = (now, table, seats)
        return table, seats

    def forget(self, table_id: str) -> None:
        with self._guard:
            self._tables.pop(table_id, None)

    def seat(self, table_id: str, token: str | None) -> Seat:
        table, seats = self._table(table_id)
        if not token:
            raise NotFound("no token")
        if secrets.compare_digest(token, table.gm_token):
            return Seat(table_id, "GM", None, ())
        for s in seats:
            if secrets.compare_digest(token, s.token):
                return Seat(table_id, s.name, s.side, s.combatants)
        raise NotFound("this link opens no seat at this table")

    def settings(self, table_id: str) -> dict[str, Any]:
        return self._table(table_id)[0].settings

    def set_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        self._table(table_id)
        self.store.set_settings(table_id, settings)
        self.forget(table_id)

    def assign(self, table_id: str, seat_name: str, combatants: Sequence[str]) -> SeatRow:
        state = self.live(table_id).state
        seat = next((s for s in self._table(table_id)[1] if s.name == seat_name), None)
        if seat is None:
            raise NotFound(f"no seat {seat_name!r}")
        sides = {state.get(cid).side for cid in combatants}
        if len(sides) > 1:
            raise CommandError("combatants", "combatants of one side")
        row = SeatRow(seat.name, seat.token, sides.pop() if sides else seat.side, tuple(combatants))
        self.store.set_seat(table_id, row)
        self.forget(table_id)
        return row

    # ------------------------------------------------------------------ the fight
    def _lock(self, table_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(table_id, threading.Lock())

    def live(self, table_id: str) -> LiveFight:
        """The fight in memory, caught up with what other processes recorded (PostgreSQL: SQLite serves one
        process, and a command catches up before it runs anyway)."""
        with self._lock(table_id):
            fight = self._fights.get(table_id)
            if fight is None:
                self._table(table_id)  # an unknown table is a 404
                fight = self._fights[table_id] = LiveFight.load(self.store, table_id)
            elif not self.store.is_sqlite:
                fight.catch_up(self.store)
            return fight

    def command(self, seat: Seat, data: Any, against: int, typed: Sequence[int] = ()) -> tuple[int, int]:
        """Run one command for ``seat``; (first, last) sequence numbers of its events."""
        cmd = parse_command(data)
        fight = self.live(seat.table_id)
        self._allowed(seat, cmd, fight.state, typed)
        with self._lock(seat.table_id):
            before = fight.seq
            fight.do(self.store, seat.name, cmd, against, typed, None if seat.gm else seat.combatants)
            first, last = before + 1, fight.seq
        self.wake(seat.table_id)
        return first, last

    def undo(self, seat: Seat, against: int) -> int:
        if not seat.gm:
            self._refuse(seat, {"undo": against}, "only the GM may undo")
        fight = self.live(seat.table_id)
        with self._lock(seat.table_id):
            n = fight.undo(self.store, seat.name, against)
        self.wake(seat.table_id)
        return n

    def _allowed(self, seat: Seat, cmd: Command, state: Encounter, typed: Sequence[int]) -> None:
        if typed and not (seat.gm or self.settings(seat.table_id).get("typed_dice")):
            self._refuse(seat, cmd.model_dump(mode="json"), "this table does not let players type their dice")
        if seat.gm:
            return
        actor = command_actor(cmd)
        if cmd.type in GM_COMMANDS or cmd.type == "begin" or actor is None:
            self._refuse(seat, cmd.model_dump(mode="json"), f"{cmd.type} is the GM's command")
        if actor not in seat.combatants:
            self._refuse(seat, cmd.model_dump(mode="json"), f"{actor} is not a combatant of seat {seat.name}")
        hidden = views.hidden_from(state, seat.side)
        for f in ("target", "second_target"):
            if getattr(cmd, f, None) in hidden:
                raise RuleViolation("SEN-03", f"{seat.name} perceives no {getattr(cmd, f)!r}")

    def _refuse(self, seat: Seat, command: Any, reason: str) -> None:
        log.warning("table %s: seat %s refused: %s", seat.table_id, seat.name, reason)
        self.store.refuse(seat.table_id, seat.name, 403, reason, command)
        raise Forbidden(reason)

    # ------------------------------------------------------------------ what a seat sees
    def state_for(self, seat: Seat) -> dict[str, Any]:
        fight = self.live(seat.table_id)
        settings = self.settings(seat.table_id)
        mine = fight.state.combatants if seat.gm else seat.combatants
        out = views.seat_state(fight.state, side=seat.side, mine=mine, enemy_hp=settings["enemy_hp"], seq=fight.seq)
        out["seat"] = seat.name
        out["gm"] = seat.gm
        out["settings"] = settings
        return out

    def events_for(self, seat: Seat, since: int, limit: int = 10_000) -> tuple[list[dict[str, Any]], int]:
        """The events after ``since`` the seat may see, each with its ``seq`` and text ``lines``, and the last
        sequence number looked at (events the seat may not see included)."""
        fight = self.live(seat.table_id)
        hidden = views.hidden_from(fight.state, seat.side)
        enemy_hp = self.settings(seat.table_id)["enemy_hp"]
        out = []
        head, last = fight.seq, since
        rows = fight.events_since(since)
        if rows is None or len(rows) > limit:
            rows = self.store.events_after(seat.table_id, since, limit, standing=True)
        for seq, e in rows:
            if seq > head:  # recorded by another process after this one caught up: the next call takes it
                break
            last = seq
            shown = views.seat_event(e, fight.state, seat.side, hidden, enemy_hp)
            if shown is not None:
                out.append({"seq": seq, **shown})
        if len(rows) < limit:  # everything up to the fight's last event was looked at (undone ones are skipped)
            last = max(since, head)
        return out, last

    def view_state(self, seat: Seat) -> Encounter:
        """The state the seat's board questions are asked of (a player's: what its side perceives)."""
        return views.perceived(self.live(seat.table_id).state, seat.side)

    def legal_actions(self, seat: Seat, actor: str) -> dict[str, Any]:
        """What ``actor`` may do now, as the engine would take it: the simple actions, whether it can move, and
        each perceived enemy it can attack with which weapon and the chance to hit."""
        fight = self.live(seat.table_id)
        state = fight.state
        if not seat.gm and actor not in seat.combatants:
            raise Forbidden(f"{actor} is not a combatant of seat {seat.name}")
        me = state.get(actor)
        left = budget.remaining(me, surprise=state.timeline.phase == "surprise")
        rng = copy.deepcopy(fight.rng)

        def takes(cmd: dict[str, Any]) -> bool:
            try:
                step(state, parse_command(cmd), TableDice(copy.deepcopy(rng)))
            except SftError:
                return False
            return True

        simple = [t for t in SIMPLE_ACTIONS if takes({"type": t, "actor": actor})]
        targets = []
        for enemy in perception.perceived_enemies(state, actor) if state.track_awareness else state.enemies_of(actor):
            if enemy.out_of_fight or enemy.id in views.hidden_from(state, seat.side):
                continue
            for w in me.creature.stat.weapons:
                if not takes({"type": "attack", "actor": actor, "target": enemy.id, "weapon": w.name}):
                    continue
                targets.append({"target": enemy.id, "weapon": w.name, **hit_chance(state, actor, enemy.id, w.name)})
        return {"actor": actor, "remaining": list(left), "simple": simple, "attacks": targets,
                "can_move": "move" in left or "standard" in left or "full" in left}  # fmt: skip

    # ------------------------------------------------------------------ listeners
    def listen(self, table_id: str, wake: Callable[[], None]) -> Callable[[], None]:
        with self._guard:
            self._listeners.setdefault(table_id, set()).add(wake)

        def stop() -> None:
            with self._guard:
                self._listeners.get(table_id, set()).discard(wake)

        return stop

    def wake_all(self) -> None:
        with self._guard:
            tables = list(self._listeners)
        for t in tables:
            self.wake(t)

    def wake(self, table_id: str) -> None:
        with self._guard:
            targets = list(self._listeners.get(table_id, ()))
        for w in targets:
            w()


def hit_chance(state: Encounter, actor: str, target: str, weapon: str) -> dict[str, Any]:
    """The attack bonus, the AC and the chance to hit (with the concealment miss chance) of one attack now,
    from the positions as the engine sees them (cover, flanking, range)."""
    from sftactics.sim import odds

    me, them = state.get(actor), state.get(target)
    w = next(x for x in me.creature.stat.weapons if x.name == weapon)
    geo = space.attack_geometry(state, me, them, w, explain=False)
    bonus, ac, _ = odds.attack_numbers(me.creature, them.creature, w, geo.attack_terms, geo.ac_terms, state.options)
    p = odds.chance(bonus, ac) * (1 - geo.miss_chance / 100)
    return {"bonus": bonus, "ac": ac, "miss_chance": geo.miss_chance, "cover": geo.cover, "chance": round(p, 3)}
