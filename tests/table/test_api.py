"""The live table's HTTP and WebSocket API (httpx through the ASGI app; SQLite in a temporary folder)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from sftactics.dice.source import SeededDice
from sftactics.encounter.engine import run_commands
from sftactics.encounter.state import Encounter
from sftactics.table.app import create_app
from sftactics.table.store import Store
from tests.table.conftest import HERE, SKIRMISH


class Table:
    """A table opened on the skirmish: the GM and the seats Ann and Bo."""

    def __init__(self, client: TestClient, **settings: Any) -> None:
        self.client = client
        body = {"scenario": SKIRMISH, "seed": 7, "seats": {"Ann": ["Ann"], "Bo": ["Bo"]}, "settings": settings}
        r = client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        self.data = r.json()
        self.id = self.data["id"]
        self.gm = self.data["gm"]["token"]
        self.tokens = {s["name"]: s["token"] for s in self.data["seats"]}
        self.tokens["GM"] = self.gm

    def state(self, who: str = "GM") -> dict[str, Any]:
        r = self.client.get(f"/api/tables/{self.id}/state", params={"token": self.tokens[who]})
        assert r.status_code == 200, r.text
        return r.json()

    def send(self, who: str, command: dict[str, Any], seq: int | None = None, dice: list[int] | None = None) -> Any:
        seq = self.state(who)["seq"] if seq is None else seq
        return self.client.post(
            f"/api/tables/{self.id}/commands",
            params={"token": self.tokens[who]},
            json={"command": command, "seq": seq, "dice": dice or []},
        )

    def ok(self, who: str, command: dict[str, Any], **kw: Any) -> dict[str, Any]:
        r = self.send(who, command, **kw)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def events(self, who: str, since: int = 0) -> list[dict[str, Any]]:
        r = self.client.get(f"/api/tables/{self.id}/events", params={"token": self.tokens[who], "since": since})
        assert r.status_code == 200, r.text
        return list(r.json()["events"])

    def ask(self, who: str, question: str, **params: Any) -> Any:
        return self.client.get(f"/api/tables/{self.id}/query/{question}", params={"token": self.tokens[who], **params})


@pytest.fixture
def store(sqlite_store: Store) -> Store:
    return sqlite_store


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as c:
        yield c


@pytest.fixture
def table(client: TestClient) -> Table:
    return Table(client)


def ids(state: dict[str, Any]) -> set[str]:
    return {c["id"] for c in state["combatants"]}


def position(state: dict[str, Any], cid: str) -> list[int]:
    return next(c["position"] for c in state["combatants"] if c["id"] == cid)


def test_a_table_gives_the_gm_and_each_seat_a_link_with_its_own_token(table: Table) -> None:
    links = [table.data["gm"]["link"], *(s["link"] for s in table.data["seats"])]
    assert all(f"/t/{table.id}?token=" in link for link in links)
    assert len(set(table.tokens.values())) == 3
    assert [(s["name"], s["side"], s["combatants"]) for s in table.data["seats"]] == [
        ("Ann", "party", ["Ann"]),
        ("Bo", "party", ["Bo"]),
    ]
    assert table.state("Ann")["mine"] == ["Ann"]
    r = table.client.get(f"/api/tables/{table.id}/state", params={"token": "not-a-token"})
    assert r.status_code == 404 and r.json()["error"] == "not_found"


def test_by_default_each_combatant_of_the_first_side_gets_a_seat(client: TestClient) -> None:
    r = client.post("/api/tables", json={"scenario": SKIRMISH})
    assert [s["combatants"] for s in r.json()["seats"]] == [["Ann"], ["Bo"]]


def test_an_unknown_scenario_or_combatant_is_refused_with_a_message(client: TestClient, tmp_path: Path) -> None:
    r = client.post("/api/tables", json={"scenario": "no-such-scenario"})
    assert r.status_code == 404 and "no-such-scenario" in r.json()["message"]
    outside = tmp_path / "elsewhere.yaml"  # the API opens only files under the server's working folder
    outside.write_text(Path(SKIRMISH).read_text())
    assert client.post("/api/tables", json={"scenario": str(outside)}).status_code == 404
    r = client.post("/api/tables", json={"scenario": SKIRMISH, "seats": {"x": ["Nobody"]}})
    assert r.status_code == 422 and "Nobody" in r.json()["message"]


def test_only_the_gm_begins_and_a_player_refused_is_logged(table: Table) -> None:
    r = table.send("Ann", {"type": "begin"})
    assert r.status_code == 403 and r.json()["error"] == "forbidden"
    assert table.state()["seq"] == 0
    out = table.ok("GM", {"type": "begin"})
    assert out["first"] == 1 and out["seq"] == table.state()["seq"] > 1
    assert table.state()["turn"] == "Ann"
    refused = table.client.get(f"/api/tables/{table.id}/refusals", params={"token": table.gm}).json()
    assert [(x["seat"], x["status"], x["command"]["type"]) for x in refused] == [("Ann", 403, "begin")]
    assert table.client.get(f"/api/tables/{table.id}/refusals", params={"token": table.tokens["Bo"]}).status_code == 403


def test_a_player_commands_only_the_combatants_of_the_seat(table: Table) -> None:
    table.ok("GM", {"type": "begin"})
    seq = table.state()["seq"]
    r = table.send("Bo", {"type": "move", "actor": "Ann", "to": [2, 1]})
    assert r.status_code == 403 and "Ann is not a combatant of seat Bo" in r.json()["message"]
    assert table.state()["seq"] == seq and position(table.state(), "Ann") == [1, 1]
    assert table.send("Ann", {"type": "damage", "target": "Ogg", "amount": "5"}).status_code == 403


def test_a_move_is_recorded_and_every_seat_sees_it(table: Table) -> None:
    table.ok("GM", {"type": "begin"})
    out = table.ok("Ann", {"type": "move", "actor": "Ann", "to": [2, 1]})
    assert "moved" in {e["type"] for e in out["events"]} and out["seq"] > out["first"]
    assert position(table.state("Bo"), "Ann") == [2, 1]
    moved = [e for e in table.events("Bo") if e["type"] == "moved"]
    assert moved[-1]["path"] == [[1, 1], [2, 1]] and moved[-1]["lines"]


def test_a_refused_move_returns_the_rule_and_changes_nothing(table: Table) -> None:
    table.ok("GM", {"type": "begin"})
    before = table.state()
    r = table.send("Ann", {"type": "move", "actor": "Ann", "to": [5, 0]})  # the wall
    body = r.json()
    assert r.status_code == 409 and body["error"] == "rule" and body["rule"] and body["message"]
    assert table.state() == before


def test_a_command_made_against_an_old_state_is_stale(table: Table) -> None:
    table.ok("GM", {"type": "begin"})
    seq = table.state()["seq"]
    table.ok("Ann", {"type": "move", "actor": "Ann", "to": [2, 1]}, seq=seq)
    before = table.state()
    r = table.send("Ann", {"type": "end_turn", "actor": "Ann"}, seq=seq)
    assert r.status_code == 409 and r.json() == {"error": "stale", "message": r.json()["message"],
                                                 "seq": before["seq"]}  # fmt: skip
    assert table.state() == before


def test_a_malformed_command_is_a_422_naming_the_field(table: Table) -> None:
    r = table.send("GM", {"type": "teleport"})
    assert r.status_code == 422 and r.json()["error"] == "command"


def test_an_unseen_creature_is_not_sent_to_the_players_until_noticed(table: Table) -> None:
    assert "Kit" in ids(table.state()) and "Kit" not in ids(table.state("Bo"))
    table.ok("GM", {"type": "begin"})
    for who in ("Ann", "Bo"):
        st = table.state(who)
        assert "Kit" not in ids(st) and "Kit" not in st["order"]
        assert not any("Kit" in str(e) for e in table.events(who))
    assert table.ask("Bo", "threat", id="Kit").status_code == 404
    table.ok("Ann", {"type": "end_turn", "actor": "Ann"})
    r = table.send("Bo", {"type": "attack", "actor": "Bo", "target": "Kit"})
    assert r.status_code == 409 and "Kit" in r.json()["message"] and r.json()["rule"] == "SEN-03"
    table.ok("Bo", {"type": "move", "actor": "Bo", "to": [4, 4]})  # past the end of the wall
    assert "Kit" in ids(table.state("Bo")) and "Kit" in ids(table.state("Ann"))


def test_enemy_hit_points_are_shown_as_the_gm_chooses(client: TestClient) -> None:
    def ogg(t: Table, who: str) -> dict[str, Any]:
        return next(c for c in t.state(who)["combatants"] if c["id"] == "Ogg")

    status = Table(client)
    assert "pools" not in ogg(status, "Ann") and ogg(status, "Ann")["status"] == "unhurt"
    assert "pools" in ogg(status, "GM")
    assert "pools" in next(c for c in status.state("Ann")["combatants"] if c["id"] == "Bo")
    exact = Table(client, enemy_hp="exact")
    assert ogg(exact, "Ann")["pools"]["hp"] > 0
    hidden = Table(client, enemy_hp="hidden")
    assert ogg(hidden, "Ann")["status"] == "?"


def test_typed_dice_decide_the_roll_and_are_recorded(table: Table) -> None:
    table.ok("GM", {"type": "begin"})
    table.ok("Ann", {"type": "move", "actor": "Ann", "to": [2, 1]})
    out = table.ok("Ann", {"type": "attack", "actor": "Ann", "target": "Ogg"}, dice=[20, 1, 1])
    attack = next(e for e in out["events"] if e["type"] == "attack_made")
    assert attack["result"]["roll"]["natural"] == 20
    rolled = next(e for e in out["events"] if e["type"] == "dice_rolled")
    assert [d[1] for d in rolled["dice"]][:3] == [20, 1, 1]


def test_typed_dice_can_be_refused_by_the_table_and_must_be_possible(client: TestClient) -> None:
    t = Table(client, typed_dice=False)
    t.ok("GM", {"type": "begin"})
    assert t.send("Ann", {"type": "total_defense", "actor": "Ann"}, dice=[3]).status_code == 403
    t2 = Table(client)
    t2.ok("GM", {"type": "begin"})
    t2.ok("Ann", {"type": "move", "actor": "Ann", "to": [2, 1]})
    before = t2.state()
    r = t2.send("Ann", {"type": "attack", "actor": "Ann", "target": "Ogg"}, dice=[21])
    assert r.status_code == 422 and "impossible" in r.json()["message"]
    assert t2.state() == before


def test_the_gm_undoes_the_last_command(table: Table) -> None:
    table.ok("GM", {"type": "begin"})
    before = table.state()
    table.ok("Ann", {"type": "move", "actor": "Ann", "to": [2, 1]})
    r = table.client.post(f"/api/tables/{table.id}/undo", params={"token": table.tokens["Ann"]},
                          json={"seq": table.state()["seq"]})  # fmt: skip
    assert r.status_code == 403
    r = table.client.post(f"/api/tables/{table.id}/undo", params={"token": table.gm},
                          json={"seq": table.state()["seq"]})  # fmt: skip
    assert r.status_code == 200, r.text
    after = table.state()
    assert after["seq"] == r.json()["seq"] > before["seq"]
    assert {**after, "seq": 0} == {**before, "seq": 0}
    log = table.events("Ann")
    assert log[-1]["type"] == "table_undo" and not any(e["type"] == "moved" for e in log)  # undone: not sent


def test_the_state_is_the_engines_replay_of_the_same_commands_with_the_same_dice(table: Table, store: Store) -> None:
    table.ok("GM", {"type": "begin"})
    table.ok("Ann", {"type": "move", "actor": "Ann", "to": [2, 1]})
    table.ok("Ann", {"type": "attack", "actor": "Ann", "target": "Ogg"})
    table.ok("Ann", {"type": "end_turn", "actor": "Ann"})
    start = Encounter.model_validate_json(store.fight(table.id).start)
    cmds = [c.command["command"] for c in store.commands_after(table.id, 0)]
    fight = run_commands(start, cmds, SeededDice(7))
    server = table.client.app.state.service.live(table.id).state  # type: ignore[attr-defined]
    assert server == fight.state


def test_legal_actions_list_what_the_engine_would_take_with_hit_chances(table: Table) -> None:
    table.ok("GM", {"type": "begin"})
    r = table.client.get(f"/api/tables/{table.id}/actions", params={"token": table.tokens["Ann"], "actor": "Ann"})
    acts = r.json()
    assert "end_turn" in acts["simple"] and "stand_up" not in acts["simple"] and acts["can_move"]
    ranged = [a for a in acts["attacks"] if a["target"] == "Ogg"]
    assert ranged and all(0 <= a["chance"] <= 1 and a["ac"] > 0 for a in ranged)
    assert not any(a["target"] == "Kit" for a in acts["attacks"])
    r = table.client.get(f"/api/tables/{table.id}/actions", params={"token": table.tokens["Bo"], "actor": "Ann"})
    assert r.status_code == 403


def test_board_questions_are_asked_of_what_the_seat_perceives(table: Table) -> None:
    table.ok("GM", {"type": "begin"})
    path = table.ask("Ann", "path", id="Ann", to="2,2").json()
    assert path["value"]["cost_ft"] == 5 and path["rules"]
    prov = table.ask("Ann", "provoked", id="Ann", to="4,1").json()
    assert "provocations" in prov["value"]
    assert table.ask("Ann", "statistics", id="Ogg").status_code == 403
    assert table.ask("GM", "statistics", id="Ogg").status_code == 200
    assert table.ask("Ann", "hit", id="Ann", to="Ogg").json()["value"]["chance"] > 0
    assert table.ask("Ann", "path", id="Ann", to="5,0").json()["error"] == "rule"


def test_a_seat_is_given_other_combatants_by_the_gm(table: Table) -> None:
    url = f"/api/tables/{table.id}/seats/Bo"
    r = table.client.put(url, params={"token": table.tokens["Bo"]}, json={"combatants": ["Ann", "Bo"]})
    assert r.status_code == 403
    r = table.client.put(url, params={"token": table.gm}, json={"combatants": ["Ann", "Bo"]})
    assert r.json() == {"name": "Bo", "side": "party", "combatants": ["Ann", "Bo"]}
    table.ok("GM", {"type": "begin"})
    table.ok("Bo", {"type": "move", "actor": "Ann", "to": [2, 1]})


def test_the_websocket_streams_a_seats_events_and_resumes_from_a_sequence_number(table: Table) -> None:
    table.ok("GM", {"type": "begin"})
    url = f"/api/tables/{table.id}/ws?token={table.tokens['Bo']}&since=0"
    with table.client.websocket_connect(url) as ws:
        first = ws.receive_json()
        assert first["type"] == "events" and first["seq"] == table.state()["seq"]
        assert not any("Kit" in str(e) for e in first["events"])
        table.ok("Ann", {"type": "move", "actor": "Ann", "to": [2, 1]})
        more = ws.receive_json()
        assert more["events"][0]["seq"] == first["seq"] + 1 and any(e["type"] == "moved" for e in more["events"])
    seen = more["seq"]
    table.ok("Ann", {"type": "end_turn", "actor": "Ann"})
    with table.client.websocket_connect(url.replace("since=0", f"since={seen}")) as ws:
        resumed = ws.receive_json()
        assert resumed["events"][0]["seq"] == seen + 1
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        table.client.websocket_connect(f"/api/tables/{table.id}/ws?token=bad") as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 4404


def test_the_map_page_and_its_files_are_served(table: Table) -> None:
    page = table.client.get(f"/t/{table.id}", params={"token": table.gm})
    assert page.status_code == 200 and "app.js" in page.text
    for f in ("app.js", "style.css"):
        assert table.client.get(f"/static/{f}").status_code == 200


def test_a_creature_hiding_with_stealth_is_sent_once_a_search_notices_it(client: TestClient) -> None:
    r = client.post("/api/tables", json={"scenario": str(HERE / "stealthy.yaml"), "seed": 2})
    t = r.json()
    tid, gm, ann = t["id"], t["gm"]["token"], t["seats"][0]["token"]

    def seen(token: str) -> set[str]:
        return {c["id"] for c in client.get(f"/api/tables/{tid}/state", params={"token": token}).json()["combatants"]}

    client.post(f"/api/tables/{tid}/commands", params={"token": gm}, json={"command": {"type": "begin"}, "seq": 0})
    assert "Kit" in seen(gm) and "Kit" not in seen(ann)
    seq = client.get(f"/api/tables/{tid}/state", params={"token": ann}).json()["seq"]
    r = client.post(f"/api/tables/{tid}/commands", params={"token": ann},
                    json={"command": {"type": "search", "actor": "Ann"}, "seq": seq, "dice": [20]})  # fmt: skip
    assert r.status_code == 200, r.text
    assert "Kit" in seen(ann)
    assert any("Kit" in " ".join(e["lines"]) for e in r.json()["events"])


def test_with_enemy_hp_shown_as_status_the_players_log_leaves_out_enemy_pools(table: Table) -> None:
    table.ok("GM", {"type": "begin"})
    table.ok("Ann", {"type": "move", "actor": "Ann", "to": [2, 1]})
    r = table.send("Ann", {"type": "attack", "actor": "Ann", "target": "Ogg"}, dice=[15, 12, 12])
    assert r.status_code == 422 and "3 dice typed but this command rolls only 2 of yours" in r.json()["message"]
    out = table.ok("Ann", {"type": "attack", "actor": "Ann", "target": "Ogg"}, dice=[15, 12])
    hurt = next(e for e in out["events"] if e["type"] == "creature_changed" and e["id"] == "Ogg")
    assert "state" not in hurt
    assert not any("HP" in line for e in out["events"] for line in e["lines"])
    gm_log = table.events("GM", since=out["first"] - 1)
    assert next(e for e in gm_log if e["type"] == "creature_changed" and e["id"] == "Ogg")["state"]["hp"] < 6
    assert any("HP" in line for e in gm_log for line in e["lines"])
