"""``sftactics serve``: the live table's server (docs/table.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from sftactics.table.store import SeatRow, TableRow

DEFAULT_DB = "sftactics-table.db"


def serve_cmd(
    scenario: Annotated[
        str | None, typer.Argument(help="open a table on this scenario (a file, or a name under scenarios/)")
    ] = None,
    db: Annotated[str, typer.Option("--db", help="database: a SQLite file, or postgresql://...")] = DEFAULT_DB,
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    seed: Annotated[int, typer.Option(help="seed of the new table's dice")] = 1,
    enemy_hp: Annotated[str, typer.Option(help="how players see enemy HP: exact, status or hidden")] = "status",
    base_url: Annotated[
        str, typer.Option(help="the address players reach (for the links; default http://HOST:PORT)")
    ] = "",
    no_serve: Annotated[
        bool, typer.Option("--no-serve", help="open the table, print its links and stop (serve it later with --db)")
    ] = False,
) -> None:
    """Serve the live table: a battle map in the browser for the GM and each player, the fights in a database.
    With a scenario, opens a table on it and prints the GM's link and one link per seat."""
    import uvicorn

    from sftactics.core.errors import SftError
    from sftactics.table.app import create_app
    from sftactics.table.notify import start_listener
    from sftactics.table.store import Store

    if enemy_hp not in ("exact", "status", "hidden"):
        raise typer.BadParameter("exact, status or hidden", param_hint="--enemy-hp")
    store = Store(db)
    store.migrate()
    base = base_url.rstrip("/") or f"http://{host}:{port}"
    app = create_app(store, base_url=base)
    if scenario is not None:
        try:
            table, seats = app.state.service.create(scenario, seed=seed, settings={"enemy_hp": enemy_hp})
        except SftError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from None
        _links(base, table, seats)
    else:
        for tid in store.table_ids():
            row = store.table(tid)
            assert row is not None
            _links(base, row, store.seats(tid))
        typer.echo(f"New tables: sftactics serve SCENARIO --db {db}, or POST {base}/api/tables (docs/table.md)")
    if no_serve:
        return
    start_listener(app)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def _links(base: str, table: TableRow, seats: list[SeatRow]) -> None:
    typer.echo(f"Table {table.id}: {table.name}")
    typer.echo(f"  GM: {base}/t/{table.id}?token={table.gm_token}")
    for s in seats:
        typer.echo(f"  {s.name}: {base}/t/{table.id}?token={s.token}  ({', '.join(s.combatants)})")
