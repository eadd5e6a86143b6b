"""What each seat is sent: the fight as its side perceives it, and the events it may see.

The GM sees everything. A player seat sees its own side and the opponents some member of the side knows the
location of (the engine's perception, :func:`sftactics.views.mapview.side_view`); every other opponent is left
out of the state, of the events and of the board queries, not just not drawn. An opponent's pools are shown as
the table's ``enemy_hp`` setting says: ``exact`` numbers, a ``status`` word, or ``hidden``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Literal

from sftactics.encounter import narrate, space
from sftactics.encounter.engine import pending
from sftactics.encounter.events import EVENT_ADAPTER
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid.map import GridMap
from sftactics.views.mapview import side_view

EnemyHp = Literal["exact", "status", "hidden"]
_POOL_WORDS = re.compile(r"\b(HP|SP|RP|Stamina|Hit Points|Resolve)\b")


def perceived(state: Encounter, side: str | None) -> Encounter:
    """The state a side sees (None: the GM, everything)."""
    if side is None or side not in state.sides():
        return state
    return side_view(state, side)


def hidden_from(state: Encounter, side: str | None) -> frozenset[str]:
    """The combatants a side does not perceive (left out of everything it is sent)."""
    if side is None:
        return frozenset()
    seen = perceived(state, side).combatants
    return frozenset(cid for cid in state.combatants if cid not in seen)


def status_word(c: Combatant) -> str:
    s, stat = c.creature.state, c.creature.stat
    if c.fled:
        return "fled"
    if c.out_of_fight:
        return "down"
    if s.hp >= stat.hp and s.sp >= stat.sp:
        return "unhurt"
    return "bloodied" if s.hp * 2 <= stat.hp else "wounded"


def map_data(state: Encounter) -> dict[str, Any] | None:
    grid = state.grid
    if grid is None:
        return None
    assert isinstance(grid, GridMap)
    return {
        "width": grid.width,
        "height": grid.height,
        "cells": list(grid.cells),
        "walls": sorted(list(e) for e in grid.walls),
        "windows": sorted(list(e) for e in grid.windows),
        "light": None if grid.light is None else list(grid.light),
    }


def combatant_data(state: Encounter, c: Combatant, *, full: bool, enemy_hp: EnemyHp) -> dict[str, Any]:
    fp = space.footprint(c)
    s, stat = c.creature.state, c.creature.stat
    out: dict[str, Any] = {
        "id": c.id,
        "side": c.side,
        "position": None if c.position is None else list(c.position),
        "side_squares": 1 if fp is None else fp.side,
        "size": stat.size,
        "initiative": c.initiative,
        "conditions": [
            {"name": x.name, "value": x.value, "rounds": x.rounds, "source": x.source} for x in s.conditions
        ],
        "effects": [e.name for e in state.effects_on(c.id)],
        "out": c.out_of_fight,
        "fled": c.fled,
        "delaying": c.delaying,
        "status": status_word(c),
    }
    if full or enemy_hp == "exact":
        out["pools"] = {"hp": s.hp, "max_hp": stat.hp, "sp": s.sp, "max_sp": stat.sp, "rp": s.rp, "max_rp": stat.rp,
                        "temp_hp": s.temp_hp}  # fmt: skip
    if enemy_hp == "hidden" and not full:
        out["status"] = "down" if c.out_of_fight else "?"
    if full:
        out["weapons"] = [w.name for w in stat.weapons]
        out["speed"] = {k: v.ft if hasattr(v, "ft") else v for k, v in stat.speed.items()}
        out["moved_ft"] = c.moved_ft
        out["spent"] = list(c.spent)
    return out


def seat_state(
    state: Encounter,
    *,
    side: str | None,
    mine: Iterable[str],
    enemy_hp: EnemyHp,
    seq: int,
) -> dict[str, Any]:
    """The JSON a seat's browser draws: the map, the combatants it perceives, the turn and its own combatants."""
    view = perceived(state, side)
    own = set(mine)
    combatants = [
        combatant_data(view, c, full=side is None or c.side == side, enemy_hp=enemy_hp)
        for c in view.combatants.values()
    ]
    t = state.timeline
    turn = t.turn if t.turn is None or t.turn in view.combatants else "?"
    nxt = pending(state)
    return {
        "seq": seq,
        "name": state.name,
        "phase": t.phase,
        "round": t.round,
        "turn": turn,
        "pending": nxt if nxt is None or nxt in view.combatants else "?",
        "order": [cid for cid in t.order if cid in view.combatants],
        "result": None if state.result is None else state.result.model_dump(mode="json"),
        "map": map_data(state),
        "combatants": combatants,
        "mine": sorted(own),
        "side": side,
    }


def _mentions(data: Any, ids: frozenset[str]) -> bool:
    if isinstance(data, str):
        return data in ids or any(re.search(rf"\b{re.escape(i)}\b", data) for i in ids)
    if isinstance(data, dict):
        return any(_mentions(k, ids) or _mentions(v, ids) for k, v in data.items())
    if isinstance(data, list | tuple):
        return any(_mentions(v, ids) for v in data)
    return False


def seat_event(event: dict[str, Any], state: Encounter, side: str | None, hidden: frozenset[str],
               enemy_hp: EnemyHp) -> dict[str, Any] | None:  # fmt: skip
    """The event as the seat may see it (None: not at all), with its text lines (``lines``)."""
    if event.get("type") == "table_undo":
        return {"type": "table_undo", "undone": event.get("undone"), "lines": ["(the GM took back a command)"]}
    if hidden:
        if event.get("type") == "order_set":
            event = {**event, "order": [c for c in event["order"] if c not in hidden],
                     "roll_offs": {k: v for k, v in event.get("roll_offs", {}).items() if k not in hidden}}  # fmt: skip
        elif event.get("type") == "awareness_changed":
            changes = {k: v for k, v in event["changes"].items() if not _mentions(k.split(">"), hidden)}
            unhide = [k for k in event.get("unhide", ()) if not _mentions(k.split(">"), hidden)]
            if not changes and not unhide:
                return None
            event = {**event, "changes": changes, "unhide": unhide}
        elif _mentions(event, hidden):
            return None
    lines = [x for x in narrate.event_lines(EVENT_ADAPTER.validate_python(event)) if x.strip()]
    if side is not None and enemy_hp != "exact":
        enemies = {cid for cid, c in state.combatants.items() if c.side != side}
        if _mentions(event, frozenset(enemies)):
            lines = [x for x in lines if not _POOL_WORDS.search(x)]
            event = _strip_pools(event)
    return {**event, "lines": lines}


def _strip_pools(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _strip_pools(v) for k, v in data.items() if k not in ("state", "injury", "pools", "change")}
    if isinstance(data, list):
        return [_strip_pools(v) for v in data]
    return data
