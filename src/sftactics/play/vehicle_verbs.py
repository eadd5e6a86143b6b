"""The table's verbs for vehicles (docs/vehicles.md): ``drive 6,2 facing E``, ``race``, ``ram gob1``,
``runover 8,2``, ``board cycle1``, ``disembark``, ``pilot stop_short``, ``fire cannon at gob2``.

Pure like the other verbs: words in, a command out (``sftactics.encounter.vehicle_commands``)."""

from __future__ import annotations

from typing import Any, get_args

from sftactics.encounter.commands import Command, parse_command
from sftactics.encounter.vehicle_commands import PilotActionName
from sftactics.play.grammar import Ctx, Usage, _flags, _one, match_name, split_words, square

_HEADINGS = ("n", "e", "s", "w")


def _heading(found: dict[str, list[str]], usage: str) -> str | None:
    h = _one(found, "facing", usage)
    if h is None:
        return None
    if h.lower() not in _HEADINGS:
        raise Usage(f"facing N, E, S or W (an edge of the vehicle's space, VEH-03). Usage: {usage}")
    return h.upper()


def _drift(found: dict[str, list[str]], usage: str) -> int:
    d = _one(found, "drift", usage)
    if d is None:
        return 0
    try:
        return int(d)
    except ValueError:
        raise Usage(f"drift is a number of squares to the right (negative: left). Usage: {usage}") from None


def _vehicle(ctx: Ctx, text: str) -> str:
    return match_name(text, list(ctx.state.vehicles), "vehicle")


def p_drive(ctx: Ctx, args: list[str]) -> Command:
    usage = "drive X,Y [facing N|E|S|W]"
    head, found = split_words(args, {"facing": 1})
    data: dict[str, Any] = {"type": "drive", "actor": ctx.actor(), "heading": _heading(found, usage)}
    if len(head) > 1:
        raise Usage(f"Usage: {usage}")
    if head:
        data["to"] = square(head[0], usage)
    return parse_command(data)


def p_race(ctx: Ctx, args: list[str]) -> Command:
    usage = "race [drift N] [rough]"
    flags, rest = _flags(args, ("rough",))
    head, found = split_words(rest, {"drift": 1})
    if head:
        raise Usage(f"Usage: {usage}")
    return parse_command({"type": "race", "actor": ctx.actor(), "drift": _drift(found, usage),
                          "terrain": "rough" if "rough" in flags else "flat"})  # fmt: skip


def p_ram(ctx: Ctx, args: list[str]) -> Command:
    usage = "ram TARGET [drift N] [rough]"
    flags, rest = _flags(args, ("rough",))
    head, found = split_words(rest, {"drift": 1})
    if not head:
        raise Usage(f"Whom to ram? Usage: {usage}")
    terrain = "rough" if "rough" in flags else "flat"
    return parse_command({"type": "ram", "actor": ctx.actor(), "target": ctx.name(" ".join(head)),
                          "drift": _drift(found, usage), "terrain": terrain})  # fmt: skip


def p_run_over(ctx: Ctx, args: list[str]) -> Command:
    usage = "runover X,Y [facing N|E|S|W]"
    head, found = split_words(args, {"facing": 1})
    if len(head) != 1:
        raise Usage(f"Usage: {usage}")
    return parse_command({"type": "run_over", "actor": ctx.actor(), "to": square(head[0], usage),
                          "heading": _heading(found, usage)})  # fmt: skip


def p_board(ctx: Ctx, args: list[str]) -> Command:
    usage = "board VEHICLE [at X,Y] [athletics]"
    flags, rest = _flags(args, ("athletics",))
    head, found = split_words(rest, {"at": 1})
    if not head:
        raise Usage(f"Which vehicle? Usage: {usage}")
    at = _one(found, "at", usage)
    return parse_command({"type": "board", "actor": ctx.actor(), "vehicle": _vehicle(ctx, " ".join(head)),
                          "at": square(at, usage) if at else None,
                          "skill": "athletics" if "athletics" in flags else "acrobatics"})  # fmt: skip


def p_disembark(ctx: Ctx, args: list[str]) -> Command:
    usage = "disembark [X,Y] [athletics]"
    flags, rest = _flags(args, ("athletics",))
    if len(rest) > 1:
        raise Usage(f"Usage: {usage}")
    return parse_command({"type": "disembark", "actor": ctx.actor(), "to": square(rest[0], usage) if rest else None,
                          "skill": "athletics" if "athletics" in flags else "acrobatics"})  # fmt: skip


PILOT_ACTIONS: tuple[str, ...] = get_args(PilotActionName)


def p_pilot(ctx: Ctx, args: list[str]) -> Command:
    usage = f"pilot ACTION [to NAME] [at X,Y]  (ACTION: {', '.join(PILOT_ACTIONS)})"
    head, found = split_words(args, {"to": 1, "at": 1})
    if len(head) != 1:
        raise Usage(f"Which pilot action? Usage: {usage}")
    action = match_name(head[0], list(PILOT_ACTIONS), "pilot action")
    to, at = _one(found, "to", usage), _one(found, "at", usage)
    return parse_command({"type": "pilot", "actor": ctx.actor(), "action": action,
                          "to": ctx.name(to) if to else None,
                          "destination": square(at, usage) if at else None})  # fmt: skip


def p_fire(ctx: Ctx, args: list[str]) -> Command:
    usage = "fire WEAPON at TARGET"
    head, found = split_words(args, {"at": -1})
    target = _one(found, "at", usage)
    if not head or target is None:
        raise Usage(f"Usage: {usage}")
    actor = ctx.actor()
    from sftactics.encounter.vehicles import aboard

    fv = aboard(ctx.state, actor)
    names = [w.weapon.name for w in fv.vehicle.stat.weapons] if fv is not None else []
    weapon = match_name(" ".join(head), names, f"mounted weapon of {fv.id if fv else 'no vehicle'}", substring=True)
    return parse_command({"type": "fire_vehicle_weapon", "actor": actor, "weapon": weapon,
                          "target": ctx.name(target)})  # fmt: skip


__all__ = [
    "PILOT_ACTIONS",
    "p_board",
    "p_disembark",
    "p_drive",
    "p_fire",
    "p_pilot",
    "p_race",
    "p_ram",
    "p_run_over",
]
