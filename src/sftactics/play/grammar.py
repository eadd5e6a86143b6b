"""The hand-written syntax of the common verbs: words in, a command out.

``attack ksarik with doshko``, ``grenade frag at 5,4``, ``step 3,2``, ``use fire blast on ksarik save ref 13
damage 2d6 F``... Each ``p_*`` function (or factory) reads the words after its verb against a :class:`Ctx` (the
state and whose turn it is) and returns the command, or raises :class:`Usage` saying how to write it. Names are
matched loosely (:func:`match_name`): a unique beginning in any case; weapons also by a unique part.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from typing import Any, get_args

from pydantic import BaseModel

from sftactics.core.errors import SftError
from sftactics.encounter import commands as cmds
from sftactics.encounter.commands import Command, parse_command
from sftactics.encounter.engine import pending
from sftactics.encounter.state import Encounter


class Usage(SftError):
    """A line that could not be read as a command (the message says how to write it)."""


# ---------------------------------------------------------------------- the context a verb reads
class Ctx:
    """What a verb needs to know: the state, and who acts (the combatant whose turn it is)."""

    def __init__(self, state: Encounter, actor: str | None = None) -> None:
        self.state = state
        self._actor = actor

    def actor(self) -> str:
        if self._actor is not None:
            return self._actor
        who = pending(self.state)
        if who is None:
            if self.state.timeline.phase == "setup":
                raise Usage("The fight has not begun: type begin.")
            raise Usage("Nobody is waiting to act.")
        return who

    def name(self, text: str, pool: Sequence[str] | None = None) -> str:
        ids = [*self.state.combatants, *self.state.vehicles] if pool is None else list(pool)
        return match_name(text, ids, "combatant")

    def weapon(self, actor: str, text: str) -> str:
        from sftactics.encounter.sf2e.table2e import strike_names

        names = strike_names(self.state, actor) or [w.name for w in self.state.creature(actor).stat.weapons]
        return match_name(text, names, f"weapon of {actor}", substring=True)


def match_name(text: str, names: Sequence[str], what: str, *, substring: bool = False) -> str:
    """The one name ``text`` means: exact (any case), else a unique beginning (else, with ``substring``, a
    unique part). Ambiguous or unknown text raises :class:`Usage` listing the candidates."""
    key = text.strip().lower()
    exact = [n for n in names if n.lower() == key]
    if exact:
        return exact[0]
    found = [n for n in names if n.lower().startswith(key)] if key else []
    if not found and substring and key:
        found = [n for n in names if key in n.lower()]
    if len(found) == 1:
        return found[0]
    if found:
        raise Usage(f"{text!r} could be {', '.join(found)}: type more of the name.")
    raise Usage(f"No {what} named {text!r} (known: {', '.join(names) or 'none'}).")


Parse = Callable[[Ctx, list[str]], Command]


def _type_of(model: type[BaseModel]) -> str:
    return str(get_args(model.model_fields["type"].annotation)[0])


_SQUARE = re.compile(r"(-?\d+)\s*,\s*(-?\d+)")
_INT = re.compile(r"-?\d+")


def square(text: str, usage: str) -> tuple[int, int]:
    m = _SQUARE.fullmatch(text.strip())
    if m is None:
        raise Usage(f"{text!r} is not a square (write X,Y). Usage: {usage}")
    return int(m.group(1)), int(m.group(2))


def squares(words: Sequence[str], usage: str) -> list[tuple[int, int]]:
    text = " ".join(words)
    found = [(int(x), int(y)) for x, y in _SQUARE.findall(text)]
    if not found or _SQUARE.sub("", text).strip():
        raise Usage(f"Usage: {usage}")
    return found


def integer(text: str, usage: str) -> int:
    if not _INT.fullmatch(text):
        raise Usage(f"{text!r} is not a whole number. Usage: {usage}")
    return int(text)


_JSON_START = re.compile(r"(?:^|(?<=\s))[A-Za-z_]+=[\[{]")


def split_line(line: str) -> list[str]:
    """The words of a line as a shell splits them (quotes group words: ``rest "ksarik 2" night``), except that
    a ``field=`` value written as JSON (``modifiers=[{"selector": "attack", "value": 1}]``) is kept whole, quotes
    and spaces included. Raises ValueError for an unclosed quote."""
    kept: list[str] = []
    out: list[str] = []
    i = 0
    while (m := _JSON_START.search(line, i)) is not None:
        k, depth, in_string = m.end() - 1, 0, False
        while k < len(line):
            ch = line[k]
            if in_string:
                if ch == "\\":
                    k += 1
                elif ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch in "[{":
                depth += 1
            elif ch in "]}":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        out.append(line[i : m.start()])
        out.append(f"\x00{len(kept)}\x00")
        kept.append(line[m.start() : k + 1])
        i = k + 1
    out.append(line[i:])
    words = shlex.split("".join(out))
    return [re.sub(r"\x00(\d+)\x00", lambda g: kept[int(g.group(1))], w) for w in words]


def split_words(words: Sequence[str], keys: Mapping[str, int]) -> tuple[list[str], dict[str, list[str]]]:
    """The words before the first keyword, and each keyword's words (``keys``: how many words a keyword takes;
    -1: all up to the next keyword; 0: a flag)."""
    head: list[str] = []
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    taking = 0
    for w in words:
        low = w.lower()
        if low in keys and taking <= 0:
            current = found.setdefault(low, [])
            taking = keys[low]
            continue
        if current is None:
            head.append(w)
        elif taking != 0:
            current.append(w)
            taking -= 1
        else:
            raise Usage(f"Unexpected {w!r} after a flag.")
    return head, found


def _one(found: dict[str, list[str]], key: str, usage: str) -> str | None:
    if key not in found:
        return None
    text = " ".join(found[key])
    if not text:
        raise Usage(f"{key} needs a value. Usage: {usage}")
    return text


def _no_args(kind: type[BaseModel]) -> Parse:
    def parse(ctx: Ctx, args: list[str]) -> Command:
        if args:
            raise Usage(f"That command takes no arguments (got {' '.join(args)!r}).")
        return parse_command({"type": _type_of(kind), "actor": ctx.actor()})

    return parse


def _to_square(kind: str, verb: str) -> Parse:
    usage = f"{verb} X,Y"

    def parse(ctx: Ctx, args: list[str]) -> Command:
        if [a.lower() for a in args[:1]] == ["step"]:  # "guarded step 3,4"
            args = args[1:]
        if len(args) != 1:
            raise Usage(f"Usage: {usage}")
        return parse_command({"type": kind, "actor": ctx.actor(), "to": square(args[0], usage)})

    return parse


def _to_or_path(kind: str, verb: str) -> Parse:
    usage = f"{verb} X,Y (a square) or {verb} X,Y X,Y ... (a path, without the square you are on)"

    def parse(ctx: Ctx, args: list[str]) -> Command:
        head, found = split_words(args, {"draw": -1} if kind == "move" else {})
        path = squares(head, usage)
        data: dict[str, Any] = {"type": kind, "actor": ctx.actor()}
        if len(path) == 1:
            data["to"] = path[0]
        else:
            data["path"] = path
        draw = _one(found, "draw", usage)
        if draw is not None:
            data["draw"] = ctx.weapon(data["actor"], draw)
        return parse_command(data)

    return parse


def _target_weapon(ctx: Ctx, actor: str, words: list[str], usage: str) -> tuple[str, str | None]:
    head, found = split_words(words, {"with": -1})
    who = " ".join(head)
    if not who:
        raise Usage(f"Who is the target? Usage: {usage}")
    weapon = _one(found, "with", usage)
    return ctx.name(who), (ctx.weapon(actor, weapon) if weapon else None)


def _flags(args: list[str], known: tuple[str, ...]) -> tuple[set[str], list[str]]:
    flags = {a.lower() for a in args if a.lower() in known}
    return flags, [a for a in args if a.lower() not in known]


def p_attack(ctx: Ctx, args: list[str]) -> Command:
    usage = "attack TARGET [with WEAPON] [nonlethal] [defensively] [throw] [at X,Y]"
    flags, rest = _flags(args, ("nonlethal", "defensively", "throw"))
    head, found = split_words(rest, {"at": 1})
    actor = ctx.actor()
    target, weapon = _target_weapon(ctx, actor, head, usage)
    at = _one(found, "at", usage)
    return cmds.Attack(actor=actor, target=target, weapon=weapon, nonlethal="nonlethal" in flags,
                       fight_defensively="defensively" in flags, throw="throw" in flags,
                       square=square(at, usage) if at else None)  # fmt: skip


def p_full(ctx: Ctx, args: list[str]) -> Command:
    usage = "full TARGET [with WEAPON] [then TARGET2 [with WEAPON2]] [defensively]"
    flags, rest = _flags(args, ("defensively",))
    actor = ctx.actor()
    low = [a.lower() for a in rest]
    first, second = (rest[: low.index("then")], rest[low.index("then") + 1 :]) if "then" in low else (rest, [])
    target, weapon = _target_weapon(ctx, actor, first, usage)
    target2, weapon2 = _target_weapon(ctx, actor, second, usage) if second else (None, None)
    return cmds.FullAttack(actor=actor, target=target, weapon=weapon, second_target=target2,
                           second_weapon=weapon2, fight_defensively="defensively" in flags)  # fmt: skip


def p_charge(ctx: Ctx, args: list[str]) -> Command:
    usage = "charge TARGET [with WEAPON] [from X,Y]"
    head, found = split_words(args, {"from": 1})
    actor = ctx.actor()
    target, weapon = _target_weapon(ctx, actor, head, usage)
    at = _one(found, "from", usage)
    return cmds.Charge(actor=actor, target=target, weapon=weapon, to=square(at, usage) if at else None)


def _weapon_only(kind: str, verb: str, *, default: Callable[[Ctx, str], list[str]] | None = None) -> Parse:
    usage = f"{verb} WEAPON"

    def parse(ctx: Ctx, args: list[str]) -> Command:
        actor = ctx.actor()
        if not args:
            choices = default(ctx, actor) if default else []
            if len(choices) != 1:
                raise Usage(f"Which weapon? Usage: {usage}")
            return parse_command({"type": kind, "actor": actor, "weapon": choices[0]})
        return parse_command({"type": kind, "actor": actor, "weapon": ctx.weapon(actor, " ".join(args))})

    return parse


def _reloadable(ctx: Ctx, actor: str) -> list[str]:
    return [w.name for w in ctx.state.creature(actor).stat.weapons if w.capacity is not None]


def grenades(state: Encounter, actor: str) -> list[str]:
    return [w.name for w in state.creature(actor).stat.weapons if w.is_grenade]


def p_grenade(ctx: Ctx, args: list[str]) -> Command:
    usage = "grenade [WEAPON] at X,Y (a grid point: the top-left corner of square X,Y)"
    head, found = split_words(args, {"at": 1})
    actor = ctx.actor()
    at = _one(found, "at", usage)
    if at is None and head and _SQUARE.fullmatch(head[-1]):
        at, head = head[-1], head[:-1]
    if at is None:
        raise Usage(f"Where to? Usage: {usage}")
    if head:
        weapon = match_name(" ".join(head), grenades(ctx.state, actor), f"grenade of {actor}", substring=True)
    else:
        carried = grenades(ctx.state, actor)
        if len(carried) != 1:
            raise Usage(f"Which grenade ({', '.join(carried) or f'{actor} carries none'})? Usage: {usage}")
        weapon = carried[0]
    return cmds.ThrowGrenade(actor=actor, weapon=weapon, at=square(at, usage))


def p_ally_fire(kind: str) -> Parse:
    field_name = "ally" if kind == "covering_fire" else "target"
    verb = "cover" if kind == "covering_fire" else "harry"
    usage = f"{verb} {field_name.upper()} [with WEAPON]"

    def parse(ctx: Ctx, args: list[str]) -> Command:
        actor = ctx.actor()
        who, weapon = _target_weapon(ctx, actor, args, usage)
        return parse_command({"type": kind, "actor": actor, field_name: who, "weapon": weapon})

    return parse


def _target_cmd(kind: str, verb: str, *, weapon: bool = False, number: str | None = None) -> Parse:
    usage = f"{verb} TARGET" + (" [with WEAPON]" if weapon else "") + (f" [{number.upper()}]" if number else "")

    def parse(ctx: Ctx, args: list[str]) -> Command:
        actor = ctx.actor()
        data: dict[str, Any] = {"type": kind, "actor": actor}
        if number and len(args) > 1 and _INT.fullmatch(args[-1]):
            data[number] = int(args[-1])
            args = args[:-1]
        if weapon:
            data["target"], data["weapon"] = _target_weapon(ctx, actor, args, usage)
        elif not args:
            raise Usage(f"Usage: {usage}")
        else:
            data["target"] = ctx.name(" ".join(args))
        return parse_command(data)

    return parse


MANEUVERS = ("bull_rush", "dirty_trick", "disarm", "grapple", "reposition", "sunder", "trip")
_MAN_KEYS = {"with": -1, "to": 1, "drag": 1, "item": -1, "condition": -1, "hardness": 1, "hp": 1, "full": 0}


def p_maneuver(kind: str | None) -> Parse:
    verb = "maneuver KIND" if kind is None else kind.replace("_", "")
    usage = f"{verb} TARGET [with WEAPON] [to X,Y] [drag X,Y] [full] [item ITEM] [condition NAME] [hardness N] [hp N]"

    def parse(ctx: Ctx, args: list[str]) -> Command:
        chosen = kind
        if chosen is None:
            if not args:
                raise Usage(f"Usage: {usage} (KIND: {', '.join(MANEUVERS)})")
            chosen = match_name(args[0].replace("-", "_"), MANEUVERS, "maneuver")
            args = args[1:]
        head, found = split_words(args, _MAN_KEYS)
        actor = ctx.actor()
        if not head:
            raise Usage(f"Who is the target? Usage: {usage}")
        data: dict[str, Any] = {"type": "maneuver", "actor": actor, "kind": chosen, "target": ctx.name(" ".join(head))}
        w = _one(found, "with", usage)
        if w:
            data["weapon"] = ctx.weapon(actor, w)
        for key in ("to", "drag"):
            at = _one(found, key, usage)
            if at:
                data["to" if key == "to" else "drag_to"] = square(at, usage)
        for key in ("item", "condition"):
            text = _one(found, key, usage)
            if text:
                data[key] = text
        for key in ("hardness", "hp"):
            text = _one(found, key, usage)
            if text:
                data[key] = integer(text, usage)
        if "full" in found:
            data["full_action"] = True
        return parse_command(data)

    return parse


def p_escape(ctx: Ctx, args: list[str]) -> Command:
    usage = "escape [acrobatics DC [BONUS]]"
    low = [a.lower() for a in args]
    if not low or low == ["grapple"]:
        return cmds.Escape(actor=ctx.actor())
    if low[0] == "acrobatics" and len(low) in (2, 3):
        bonus = integer(low[2], usage) if len(low) == 3 else None
        return cmds.Escape(actor=ctx.actor(), method="acrobatics", dc=integer(low[1], usage), bonus=bonus)
    raise Usage(f"Usage: {usage}")


_AREAS = ("burst", "emanation", "spread", "cone", "line")
_USE_KEYS = {"on": -1, "attack": -1, "save": -1, "damage": -1, "at": 1, "toward": 1, "dir": 1, "action": 1,
             "kind": 1, "provokes": 0, "with": -1, "to": 1, **dict.fromkeys(_AREAS, 1)}  # fmt: skip


def _own_ability(ctx: Ctx, args: list[str]) -> str | None:
    """The name of the actor's stat-block ability that ``args`` begin with (the longest), if any."""
    try:
        specials = ctx.state.creature(ctx.actor()).stat.specials
    except (Usage, SftError, KeyError):
        return None
    low = [a.lower() for a in args]
    for name in sorted((a.name for a in specials), key=len, reverse=True):
        words = name.lower().split()
        if low[: len(words)] == words:
            return name
    return None


def _stat_block_use(ctx: Ctx, name: str, found: dict[str, list[str]], usage: str) -> Command | None:
    """``use NAME [on TARGET] [with WEAPON] [to X,Y] [burst...]`` for an ability of the actor's stat block: the
    command with the stat block's numbers (``encounter.class_moves.use_command``); None when NAME is none of its
    abilities or the numbers are given inline."""
    from sftactics.encounter.class_moves import use_command

    if any(k in found for k in ("attack", "save", "damage", "action", "kind")):
        return None
    actor = ctx.actor()
    specials = ctx.state.creature(actor).stat.specials
    names = [a.name for a in specials]
    try:
        chosen = match_name(name, names, f"ability of {actor}")
    except Usage:
        return None
    ab = next(a for a in specials if a.name == chosen)
    on = _one(found, "on", usage)
    weapon = _one(found, "with", usage)
    to = _one(found, "to", usage)
    area = _area_from(found, usage) if any(shape in found for shape in _AREAS) else None
    return use_command(
        actor, ab, target=ctx.name(on) if on else None, area=cmds.AreaSpec.model_validate(area) if area else None,
        weapon=ctx.weapon(actor, weapon) if weapon else None, to=square(to, usage) if to else None,
    )  # fmt: skip


def p_use(ctx: Ctx, args: list[str]) -> Command:
    usage = ("use NAME [on TARGET] [attack eac|kac BONUS [melee] [range FT]] [save fort|ref|will DC "
             "[half|negates|partial]] [damage DICE] [burst|emanation|spread|cone|line FT [at X,Y] [toward X,Y] "
             "[dir N|NE|E...]] [action move|swift|full] [kind Ex|Sp|Su|spell|item] [provokes]")  # fmt: skip
    own = _own_ability(ctx, args)  # a stat-block ability's name may hold a key word ("trick attack")
    if own is not None:
        rest_head, found = split_words(args[len(own.split()) :], _USE_KEYS)
        head = [own, *rest_head]
    else:
        head, found = split_words(args, _USE_KEYS)
    if not head:
        raise Usage(f"Which ability? Usage: {usage}")
    known = _stat_block_use(ctx, " ".join(head), found, usage)
    if known is not None:
        return known
    data: dict[str, Any] = {"type": "use_ability", "actor": ctx.actor(), "name": " ".join(head)}
    on = _one(found, "on", usage)
    if on:
        data["target"] = ctx.name(on)
    if "attack" in found:
        words = [w.lower() for w in found["attack"]]
        spec: dict[str, Any] = {"vs": "eac", "ranged": "melee" not in words}
        words = [w for w in words if w != "melee"]
        if words and words[0] in ("eac", "kac"):
            spec["vs"] = words.pop(0)
        if "range" in words:
            i = words.index("range")
            spec["range_ft"] = integer(words[i + 1] if i + 1 < len(words) else "", usage)
            del words[i : i + 2]
        if len(words) != 1:
            raise Usage(f"attack needs a bonus, e.g. attack eac +7. Usage: {usage}")
        spec["bonus"] = integer(words[0].lstrip("+"), usage)
        data["attack"] = spec
    if "save" in found:
        words = [w.lower() for w in found["save"]]
        if len(words) not in (2, 3):
            raise Usage(f"save needs a kind and a DC, e.g. save ref 13 half. Usage: {usage}")
        data["save"] = {"type": match_name(words[0], ("fort", "ref", "will"), "save"), "dc": integer(words[1], usage)}
        if len(words) == 3:
            data["save"]["on_save"] = match_name(words[2], ("half", "negates", "partial"), "save result")
    damage = _one(found, "damage", usage)
    if damage:
        data["damage"] = damage
    if any(shape in found for shape in _AREAS):
        data["area"] = _area_from(found, usage)
    for key in ("action", "kind"):
        text = _one(found, key, usage)
        if text:
            choices = ("standard", "move", "swift", "full") if key == "action" else ("Ex", "Sp", "Su", "spell", "item")
            data[key] = match_name(text, choices, key)
    if "provokes" in found:
        data["provokes"] = True
    return parse_command(data)


def _area_from(found: dict[str, list[str]], usage: str) -> dict[str, Any]:
    shapes = [s for s in _AREAS if s in found]
    if len(shapes) > 1:
        raise Usage(f"One area at a time (got {', '.join(shapes)}).")
    size = found[shapes[0]][0] if found[shapes[0]] else ""
    area: dict[str, Any] = {"shape": shapes[0], "size_ft": integer(size, usage)}
    for key in ("at", "toward"):
        at = _one(found, key, usage)
        if at:
            area[key] = square(at, usage)
    direction = _one(found, "dir", usage)
    if direction:
        area["direction"] = direction.upper()
    return area


def area_spec(words: list[str], usage: str) -> dict[str, Any]:
    """An area template from words: ``SHAPE FT [at X,Y] [toward X,Y] [dir N|NE|E...]``."""
    head, found = split_words(words, {"at": 1, "toward": 1, "dir": 1, **dict.fromkeys(_AREAS, 1)})
    if head or not any(shape in found for shape in _AREAS):
        raise Usage(f"An area is SHAPE FT [at X,Y] [toward X,Y] [dir E] (SHAPE: {', '.join(_AREAS)}). Usage: {usage}")
    return _area_from(found, usage)


TRIGGERS = ("attacked", "enemy_attacks", "enters_reach", "casts", "manual")


def p_ready(ctx: Ctx, args: list[str]) -> Command:
    usage = "ready VERB ARGS... [when attacked|enemy_attacks|enters_reach|casts|manual] [watch NAME]"
    head, found = split_words(args, {"when": 1, "watch": -1})
    if not head:
        raise Usage(f"Ready what? Usage: {usage}")
    actor = ctx.actor()
    from sftactics.play.verbs import parse_line

    inner = parse_line(Ctx(ctx.state, actor), head)
    if inner is None:
        raise Usage(f"{head[0]!r} is not an action to ready. Usage: {usage}")
    action = inner.model_dump(mode="json", exclude_defaults=True)
    action["type"] = inner.type
    data: dict[str, Any] = {"type": "ready", "actor": actor, "action": action}
    when = _one(found, "when", usage)
    if when:
        data["trigger"] = match_name(when.replace("-", "_"), TRIGGERS, "trigger")
    watch = _one(found, "watch", usage)
    if watch:
        data["watch"] = ctx.name(watch)
    return parse_command(data)


def p_trigger(ctx: Ctx, args: list[str]) -> Command:
    readied = [c.id for c in ctx.state.combatants.values() if c.readied is not None]
    if not args:
        if len(readied) == 1:
            return cmds.Trigger(actor=readied[0])
        raise Usage(f"Usage: trigger NAME (readied: {', '.join(readied) or 'nobody'})")
    return cmds.Trigger(actor=ctx.name(" ".join(args), readied or None))


def p_end(ctx: Ctx, args: list[str]) -> Command:
    if [a.lower() for a in args] not in ([], ["turn"]):
        raise Usage("Usage: end")
    return cmds.EndTurn(actor=ctx.actor())


def p_resume(ctx: Ctx, args: list[str]) -> Command:
    delaying = [c.id for c in ctx.state.combatants.values() if c.delaying]
    if not delaying:
        raise Usage("Nobody is delaying.")
    if not args:
        if len(delaying) == 1:
            return cmds.Resume(actor=delaying[0])
        raise Usage(f"Usage: resume NAME (delaying: {', '.join(delaying)})")
    return cmds.Resume(actor=ctx.name(" ".join(args), delaying))


def p_damage(ctx: Ctx, args: list[str]) -> Command:
    flags, rest = _flags(args, ("nonlethal",))
    if len(rest) < 2:
        raise Usage("Usage: damage NAME AMOUNT|DICE [nonlethal], e.g. damage krask 7 or damage krask 2d6 F")
    target, amount = ctx.name(rest[0]), " ".join(rest[1:])
    if _INT.fullmatch(amount):
        return cmds.Damage(target=target, amount=int(amount), nonlethal="nonlethal" in flags)
    return cmds.Damage(target=target, roll=amount, nonlethal="nonlethal" in flags)


def p_heal(ctx: Ctx, args: list[str]) -> Command:
    if len(args) not in (2, 3) or not all(_INT.fullmatch(a) for a in args[1:]):
        raise Usage("Usage: heal NAME HP [SP] (whole numbers)")
    return cmds.Heal(target=ctx.name(args[0]), hp=int(args[1]), sp=int(args[2]) if len(args) == 3 else 0)


def p_cond(ctx: Ctx, args: list[str]) -> Command:
    if len(args) < 2:
        raise Usage("Usage: cond NAME CONDITION [ROUNDS] [VALUE], e.g. cond krask shaken 3")
    rounds: int | None = None
    value: list[str] = []
    for a in args[2:]:
        if rounds is None and _INT.fullmatch(a):
            rounds = int(a)
        else:
            value.append(a)
    return cmds.AddCondition(target=ctx.name(args[0]), condition=args[1], rounds=rounds, value=" ".join(value) or None)


def p_uncond(ctx: Ctx, args: list[str]) -> Command:
    if len(args) != 2:
        raise Usage("Usage: uncond NAME CONDITION")
    return cmds.RemoveCondition(target=ctx.name(args[0]), condition=args[1])


def p_endcombat(ctx: Ctx, args: list[str]) -> Command:
    return cmds.EndCombat(reason=" ".join(args)) if args else cmds.EndCombat()


def p_join(ctx: Ctx, args: list[str]) -> Command:
    usage = "join ID SIDE STATBLOCK [at X,Y] [init N]"
    head, found = split_words(args, {"at": 1, "init": 1})
    if len(head) < 3:
        raise Usage(f"Usage: {usage}")
    data: dict[str, Any] = {"type": "join", "id": head[0], "side": head[1], "statblock": " ".join(head[2:])}
    at = _one(found, "at", usage)
    if at:
        data["at"] = square(at, usage)
    init = _one(found, "init", usage)
    if init:
        data["initiative"] = integer(init, usage)
    return parse_command(data)


def p_begin(ctx: Ctx, args: list[str]) -> Command:
    if [a.lower() for a in args] not in ([], ["rolled"], ["roll"]):
        raise Usage("Usage: begin [roll] (roll: decide awareness by Perception against Stealth)")
    return cmds.Begin(roll_awareness=bool(args))
