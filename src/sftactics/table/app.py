"""The HTTP and WebSocket API of the live table (FastAPI), and the browser map's files.

Every request names its seat by the token of its link (``?token=``). Errors are JSON with an ``error`` kind:
``rule`` (409: the engine refused the command; ``rule`` and ``message`` say why, the fight is unchanged),
``stale`` (409: the command was made against an older state; ``seq`` is the fight's), ``command`` (422: not a
well-formed command or impossible dice), ``forbidden`` (403: not this seat's to send; logged), ``not_found``
(404). See docs/table.md.
"""

from __future__ import annotations

import asyncio
import contextlib
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from sftactics import query
from sftactics.core.errors import RuleViolation, SftError
from sftactics.table.fight import Stale
from sftactics.table.service import Forbidden, NotFound, Seat, TableService, hit_chance
from sftactics.table.store import Store

#: Seconds a socket waits for a wake-up before it looks at the store anyway: another process may have written to
#: a SQLite file; with PostgreSQL, NOTIFY wakes it and looking is only a safety net.
POLL_SECONDS = {"sqlite": 2.0, "postgresql": 30.0}
Token = Annotated[str, Query(max_length=200, description="the seat's token, from its link")]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Settings(_In):
    enemy_hp: Literal["exact", "status", "hidden"] = "status"
    typed_dice: bool = True


class CreateTable(_In):
    scenario: str = Field(
        max_length=500, description="a scenario file under the server's working folder, or a name under scenarios/"
    )
    seed: int = Field(1, ge=0, le=2**62)
    seats: dict[str, list[Annotated[str, Field(max_length=100)]]] | None = Field(
        None, description="seat name -> the combatants it commands (default: one seat per combatant of the first side)"
    )
    settings: Settings = Field(default_factory=Settings)
    name: str | None = Field(None, max_length=200)


class CommandIn(_In):
    command: dict[str, Any] = Field(description="an engine command (docs/commands.md)")
    seq: int = Field(ge=0, description="the last event the command was made against")
    dice: list[Annotated[int, Field(ge=1, le=1000)]] = Field(
        default_factory=list, max_length=100, description="die results typed by the player"
    )


class UndoIn(_In):
    seq: int = Field(ge=0)


class SeatIn(_In):
    combatants: list[Annotated[str, Field(max_length=100)]]


def create_app(store: Store | str, *, base_url: str = "") -> FastAPI:
    """The app. Quick requests run on the event loop (one at a time, no thread switching); the slow ones
    (opening a table, the legal actions' dry runs) in worker threads, so they do not hold the others up."""
    st = Store(store) if isinstance(store, str) else store
    service = TableService(st)
    app = FastAPI(title="sftactics live table", version="1")
    app.state.service = service
    app.state.base_url = base_url
    poll = POLL_SECONDS["sqlite" if st.is_sqlite else "postgresql"]
    static = resources.files("sftactics.table") / "static"

    def link(request: Request | None, table_id: str, token: str) -> str:
        base = app.state.base_url or (str(request.base_url).rstrip("/") if request is not None else "")
        return f"{base}/t/{table_id}?token={token}"

    # ------------------------------------------------------------------ errors
    @app.exception_handler(SftError)
    async def _sft_error(_request: Request, exc: SftError) -> JSONResponse:
        return error_response(exc)

    def seat_of(table_id: str, token: str) -> Seat:
        return service.seat(table_id, token)

    # ------------------------------------------------------------------ tables
    @app.post("/api/tables", status_code=201)
    def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Open a table on a scenario: the GM's link and one link per seat."""
        table, seats = service.create(body.scenario, seed=body.seed, seats=body.seats,
                                      settings=body.settings.model_dump(), name=body.name, root=Path.cwd())  # fmt: skip
        return {
            "id": table.id,
            "name": table.name,
            "gm": {"token": table.gm_token, "link": link(request, table.id, table.gm_token)},
            "seats": [
                {
                    "name": s.name,
                    "side": s.side,
                    "combatants": list(s.combatants),
                    "token": s.token,
                    "link": link(request, table.id, s.token),
                }
                for s in seats
            ],
        }

    @app.get("/api/tables/{table_id}/seats")
    async def seats(table_id: str, token: Token, request: Request) -> list[dict[str, Any]]:
        """The seats and their links (GM only)."""
        seat = seat_of(table_id, token)
        if not seat.gm:
            raise Forbidden("only the GM sees the seats' links")
        return [
            {"name": s.name, "side": s.side, "combatants": list(s.combatants), "link": link(request, table_id, s.token)}
            for s in service.store.seats(table_id)
        ]

    @app.put("/api/tables/{table_id}/seats/{seat_name}")
    async def assign(table_id: str, seat_name: str, body: SeatIn, token: Token) -> dict[str, Any]:
        """Give a seat its combatants (GM only)."""
        if not seat_of(table_id, token).gm:
            raise Forbidden("only the GM assigns combatants to seats")
        row = service.assign(table_id, seat_name, body.combatants)
        return {"name": row.name, "side": row.side, "combatants": list(row.combatants)}

    @app.put("/api/tables/{table_id}/settings")
    async def settings(table_id: str, body: Settings, token: Token) -> dict[str, Any]:
        """Change the table's settings (GM only): how enemy HP is shown, whether players may type dice."""
        if not seat_of(table_id, token).gm:
            raise Forbidden("only the GM changes the settings")
        service.set_settings(table_id, body.model_dump())
        return body.model_dump()

    @app.get("/api/tables/{table_id}/refusals")
    async def refusals(table_id: str, token: Token) -> list[dict[str, Any]]:
        """Commands refused for want of permission (GM only)."""
        if not seat_of(table_id, token).gm:
            raise Forbidden("only the GM reads the refusals")
        return service.store.refusals(table_id)

    # ------------------------------------------------------------------ the fight
    @app.get("/api/tables/{table_id}/state")
    async def state(table_id: str, token: Token) -> dict[str, Any]:
        """The fight as this seat perceives it."""
        return service.state_for(seat_of(table_id, token))

    @app.get("/api/tables/{table_id}/events")
    async def events(table_id: str, token: Token, since: Annotated[int, Query(ge=0)] = 0) -> dict[str, Any]:
        """The events after ``since`` this seat may see, with their text."""
        evs, last = service.events_for(seat_of(table_id, token), since)
        return {"events": evs, "seq": last}

    @app.post("/api/tables/{table_id}/commands")
    async def command(table_id: str, body: CommandIn, token: Token) -> dict[str, Any]:
        """Send a command made against event ``seq``; its events as this seat sees them."""
        seat = seat_of(table_id, token)
        first, last = service.command(seat, body.command, body.seq, body.dice)
        evs, _ = service.events_for(seat, first - 1) if last >= first else ([], last)
        return {"first": first, "seq": last, "events": evs}

    @app.post("/api/tables/{table_id}/undo")
    async def undo(table_id: str, body: UndoIn, token: Token) -> dict[str, Any]:
        """Take back the last command (GM only)."""
        seat = seat_of(table_id, token)
        n = service.undo(seat, body.seq)
        return {"undone": n, "seq": service.live(table_id).seq}

    @app.get("/api/tables/{table_id}/actions")
    def actions(table_id: str, token: Token, actor: Annotated[str, Query(max_length=100)]) -> dict[str, Any]:
        """What ``actor`` may do now: simple actions the engine would take, moving, attacks with hit chances."""
        return service.legal_actions(seat_of(table_id, token), actor)

    @app.get("/api/tables/{table_id}/query/{question}")
    async def ask(
        table_id: str,
        question: Literal[
            "threat",
            "reach",
            "reachable",
            "path",
            "provoked",
            "cover",
            "sight",
            "actions",
            "effects",
            "statistics",
            "hit",
        ],
        token: Token,
        id: Annotated[str, Query(max_length=100)],
        to: Annotated[str | None, Query(max_length=100, description="a square x,y or a combatant")] = None,
        path: Annotated[str | None, Query(max_length=2000, description="squares x,y;x,y;...")] = None,
        actions: Literal[1, 2] = 1,
        weapon: Annotated[str | None, Query(max_length=100)] = None,
    ) -> dict[str, Any]:
        """A board question (docs/query.md) asked of what this seat perceives."""
        seat = seat_of(table_id, token)
        enc = service.view_state(seat)
        if id not in enc.combatants:
            raise NotFound(f"no combatant {id!r} in view")
        if question in ("statistics", "effects") and not seat.gm and enc.get(id).side != seat.side:
            raise Forbidden("a player sees the statistics of their own side only")
        where = _where(to) if to is not None else None
        squares = [_square(p) for p in path.split(";") if p] if path else None
        sq = where if isinstance(where, tuple) else None
        answer: Any
        match question:
            case "threat":
                answer = query.threatened_squares(enc, id)
            case "reach":
                answer = query.reach(enc, id)
            case "reachable":
                answer = query.reachable_squares(enc, id, actions)
            case "path":
                answer = query.path_cost(enc, id, to=sq, path=squares, actions=actions)
            case "provoked":
                answer = query.provoked(enc, id, to=sq, path=squares, actions=actions)
            case "cover":
                answer = query.cover_and_concealment(enc, id, _need(where))
            case "sight":
                answer = query.line_of_sight(enc, id, _need(where))
            case "actions":
                answer = query.actions(enc, id)
            case "effects":
                answer = query.effects(enc, id)
            case "statistics":
                answer = query.statistics(enc, id)
            case "hit":
                target = _need(where)
                if not isinstance(target, str) or target not in enc.combatants:
                    raise NotFound("hit needs a combatant in view as 'to'")
                names = [x.name for x in enc.get(id).creature.stat.weapons]
                if weapon is not None and weapon not in names:
                    raise NotFound(f"{id} has no weapon {weapon!r}")
                problem: SftError = NotFound(f"{id} has no weapon")
                for w in [weapon] if weapon is not None else names:
                    try:
                        return {"question": "hit", "value": {"weapon": w, **hit_chance(enc, id, target, w)}}
                    except RuleViolation as e:  # out of reach or range: the next weapon
                        problem = e
                raise problem
        out: dict[str, Any] = answer.model_dump(mode="json")
        return out

    # ------------------------------------------------------------------ live events
    @app.websocket("/api/tables/{table_id}/ws")
    async def ws(websocket: WebSocket, table_id: str, token: str = "", since: int = 0) -> None:
        try:
            seat = seat_of(table_id, token)
        except SftError:
            await websocket.close(code=4404)
            return
        await websocket.accept()
        loop = asyncio.get_running_loop()
        woken = asyncio.Event()

        def wake() -> None:
            loop.call_soon_threadsafe(woken.set)

        stop = service.listen(table_id, wake)
        last = max(0, since)
        reader = asyncio.create_task(_drain(websocket))
        try:
            while not reader.done():
                woken.clear()
                evs, seen = service.events_for(seat, last)
                if seen > last:
                    await websocket.send_json({"type": "events", "events": evs, "seq": seen})
                    last = seen
                waiter = asyncio.create_task(woken.wait())
                await asyncio.wait({waiter, reader}, timeout=poll, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            stop()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader

    # ------------------------------------------------------------------ the browser map
    @app.get("/", include_in_schema=False)
    async def home() -> RedirectResponse:
        return RedirectResponse("/static/index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(str(static / "index.html"), media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    return app


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the browser sends, until it goes away."""
    while True:
        msg = await websocket.receive()
        if msg["type"] == "websocket.disconnect":
            return


def error_response(exc: SftError) -> JSONResponse:
    if isinstance(exc, Stale):
        return JSONResponse({"error": "stale", "message": str(exc), "seq": exc.expected}, status_code=409)
    if isinstance(exc, RuleViolation):
        return JSONResponse({"error": "rule", "rule": exc.rule, "message": exc.message}, status_code=409)
    if isinstance(exc, Forbidden):
        return JSONResponse({"error": "forbidden", "message": str(exc)}, status_code=403)
    if isinstance(exc, NotFound):
        return JSONResponse({"error": "not_found", "message": str(exc)}, status_code=404)
    return JSONResponse({"error": "command", "message": str(exc)}, status_code=422)


def _square(text: str) -> tuple[int, int]:
    try:
        x, y = (int(v) for v in text.split(","))
    except ValueError:
        raise NotFound(f"expected a square x,y, not {text!r}") from None
    return x, y


def _where(text: str) -> str | tuple[int, int]:
    return _square(text) if "," in text else text


def _need(where: str | tuple[int, int] | None) -> str | tuple[int, int]:
    if where is None:
        raise NotFound("this question needs 'to'")
    return where
