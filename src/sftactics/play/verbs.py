"""The short verbs typed at the table: one for every command the engine takes, with positional arguments.

Every command model in :data:`sftactics.encounter.commands.Command` gets a verb. The common ones have a
hand-written syntax (``attack ksarik with doshko``, ``grenade frag at 5,4``, ``step 3,2``); every other command
is reached by its type name with a syntax read off its model: the required fields in order, then optional
fields as ``field=value`` (``ability_damage krask str 2 kind=drain``). So a command added to the models has a
verb, a ``help`` entry and completions without any work here.

Arguments are matched loosely: combatant names and weapons by a unique beginning in any case (weapons also by
a unique part of the name), squares as ``X,Y``, choices by a unique beginning.

Pure: a verb turns words into a :class:`Command` against a :class:`Ctx` (the state, whose turn it is); the
session runs it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from sftactics.encounter import commands as cmds
from sftactics.encounter.commands import Command
from sftactics.encounter.engine import GM_COMMANDS
from sftactics.play import vehicle_verbs as vv
from sftactics.play.fields import MODELS, fields_of, generic, generic_example, generic_syntax, json_example
from sftactics.play.grammar import (
    _AREAS,
    MANEUVERS,
    TRIGGERS,
    Ctx,
    Parse,
    _no_args,
    _reloadable,
    _target_cmd,
    _to_or_path,
    _to_square,
    _weapon_only,
    p_ally_fire,
    p_attack,
    p_begin,
    p_charge,
    p_cond,
    p_damage,
    p_end,
    p_endcombat,
    p_escape,
    p_full,
    p_grenade,
    p_heal,
    p_join,
    p_maneuver,
    p_ready,
    p_resume,
    p_trigger,
    p_uncond,
    p_use,
)

# ---------------------------------------------------------------------- verbs


@dataclass(frozen=True)
class Verb:
    """One verb: its syntax and example for ``help``, the command type it makes (None for the session's own
    verbs such as ``undo``), how it reads its words, and what to complete where.

    ``args``: the kind of each positional argument (``name``, ``weapon``, ``grenade``, ``square``, ``text``,
    ``int``, ``verb``, ``choice:a|b``); ``words``: keywords and the kind of what follows each ("" for a flag)."""

    name: str
    syntax: str
    example: str
    summary: str
    group: Literal["turn", "gm", "session"]
    kind: str | None = None
    parse: Parse | None = None
    args: tuple[str, ...] = ()
    words: Mapping[str, str] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()

    def help_text(self) -> str:
        """The syntax, what it does, an example, and the command it makes (its description and its JSON), in
        lines of at most 79 characters."""
        model = MODELS.get(self.kind or "")
        doc = " ".join((model.__doc__ or "").replace("``", "").split()) if model is not None else ""
        lines = textwrap.wrap(self.syntax, 79, subsequent_indent="      ")
        if not doc.startswith(self.summary):
            lines += textwrap.wrap(self.summary, 79, initial_indent="  ", subsequent_indent="  ")
        lines.append(f"  e.g. {self.example}")
        if self.aliases:
            lines.append(f"  also: {', '.join(self.aliases)}")
        if model is not None:
            lines += textwrap.wrap(f"command {self.kind}: {doc}", 79, initial_indent="  ", subsequent_indent="  ")
            lines += textwrap.wrap(f"as JSON: {json_example(self.kind or '')}", 79, initial_indent="  ",
                                   subsequent_indent="    ", break_on_hyphens=False)  # fmt: skip
        return "\n".join(lines)


# ---------------------------------------------------------------------- the table
def _v(name: str, syntax: str, example: str, summary: str, kind: str, parse: Parse, *, args: tuple[str, ...] = (),
       words: Mapping[str, str] | None = None, aliases: tuple[str, ...] = ()) -> Verb:  # fmt: skip
    group: Literal["turn", "gm"] = "gm" if kind in GM_COMMANDS or kind == "begin" else "turn"
    return Verb(name, syntax, example, summary, group, kind, parse, args, words or {}, aliases)


_TW = {"with": "weapon"}
_MAN_EXAMPLES = {"dirty_trick": " condition blinded", "disarm": " item pistol", "reposition": " to 7,2",
                 "sunder": " item pistol hardness 5 hp 15"}  # fmt: skip
_MAN_WORDS = {"with": "weapon", "to": "square", "drag": "square", "full": "", "item": "text", "condition": "text",
              "hardness": "int", "hp": "int"}  # fmt: skip

_SQ, _FACING = {"facing": "choice:N|E|S|W"}, "choice:N|E|S|W"
VEHICLE_VERBS: tuple[Verb, ...] = (
    _v("drive", "drive X,Y [facing N|E|S|W]", "drive 6,2 facing E", "drive your vehicle (move action, VEH-15)",
       "drive", vv.p_drive, args=("square",), words=_SQ),
    _v("race", "race [drift N] [rough]", "race drift 1", "race at full speed, straight ahead (full action, VEH-06)",
       "race", vv.p_race, words={"drift": "int", "rough": ""}),
    _v("ram", "ram TARGET [drift N] [rough]", "ram gob1", "race into a creature or vehicle ahead (full action, "
       "VEH-11)", "ram", vv.p_ram, args=("name",), words={"drift": "int", "rough": ""}),
    _v("runover", "runover X,Y [facing N|E|S|W]", "runover 8,2", "run over smaller creatures (full action, VEH-13)",
       "run_over", vv.p_run_over, args=("square",), words=_SQ, aliases=("run_over",)),
    _v("board", "board VEHICLE [at X,Y] [athletics]", "board cycle1", "get into a vehicle (move action, VEH-14)",
       "board", vv.p_board, args=("text",), words={"at": "square", "athletics": ""}),
    _v("disembark", "disembark [X,Y] [athletics]", "disembark 4,2", "leave your vehicle (move action, VEH-14)",
       "disembark", vv.p_disembark, words={"athletics": ""}, aliases=("leave",)),
    _v("pilot", "pilot ACTION [to NAME] [at X,Y]", "pilot stop_short", "start, stop, hover, stop short, take "
       "control, relinquish, autopilot, autocontrol (VEH-16..27)", "pilot", vv.p_pilot,
       args=("choice:" + "|".join(vv.PILOT_ACTIONS),), words={"to": "name", "at": "square"}),
    _v("fire", "fire WEAPON at TARGET", "fire cannon at gob2", "fire your vehicle's mounted weapon (standard "
       "action, VEH-29)", "fire_vehicle_weapon", vv.p_fire, args=("text",), words={"at": "name"}),
)  # fmt: skip

HAND_WRITTEN: tuple[Verb, ...] = (
    _v(
        "attack",
        "attack TARGET [with WEAPON] [nonlethal] [defensively] [throw] [at X,Y]",
        "attack ksarik with doshko",
        "one attack (standard action)",
        "attack",
        p_attack,
        args=("name",),
        words={"with": "weapon", "at": "square", "nonlethal": "", "defensively": "", "throw": ""},
    ),
    _v(
        "full",
        "full TARGET [with WEAPON] [then TARGET2 [with WEAPON2]] [defensively]",
        "full ksarik with doshko then ksarik",
        "full attack: two attacks at -4 (full action)",
        "full_attack",
        p_full,
        args=("name",),
        words={"with": "weapon", "then": "name", "defensively": ""},
    ),
    _v(
        "move",
        "move X,Y | move X,Y X,Y ... [draw WEAPON]",
        "move 5,4",
        "move to a square, or along a path (move action)",
        "move",
        _to_or_path("move", "move"),
        args=("squares",),
        words={"draw": "weapon"},
    ),
    _v(
        "step",
        "step X,Y",
        "step 3,4",
        "guarded step: 5 ft without provoking (move action)",
        "guarded_step",
        _to_square("guarded_step", "step"),
        args=("square",),
        aliases=("guarded",),
    ),
    _v(
        "crawl",
        "crawl X,Y",
        "crawl 3,4",
        "crawl 5 ft while prone (move action)",
        "crawl",
        _to_square("crawl", "crawl"),
        args=("square",),
    ),
    _v(
        "withdraw",
        "withdraw X,Y | withdraw X,Y X,Y ...",
        "withdraw 1,4",
        "double speed; the first square is not threatened (full action)",
        "withdraw",
        _to_or_path("withdraw", "withdraw"),
        args=("squares",),
    ),
    _v(
        "run",
        "run X,Y | run X,Y X,Y ...",
        "run 12,4",
        "four times speed in a straight line (full action)",
        "run",
        _to_or_path("run", "run"),
        args=("squares",),
    ),
    _v(
        "charge",
        "charge TARGET [with WEAPON] [from X,Y]",
        "charge ksarik with doshko",
        "double speed, then one melee attack at -2 (full action)",
        "charge",
        p_charge,
        args=("name",),
        words={"with": "weapon", "from": "square"},
    ),
    _v(
        "minimum",
        "minimum X,Y",
        "minimum 3,4",
        "minimum movement: 5 ft whatever the speed (full action)",
        "minimum_move",
        _to_square("minimum_move", "minimum"),
        args=("square",),
    ),
    _v(
        "reload",
        "reload [WEAPON]",
        "reload pistol",
        "reload a weapon (move action)",
        "reload",
        _weapon_only("reload", "reload", default=_reloadable),
        args=("weapon",),
    ),
    _v(
        "draw",
        "draw WEAPON",
        "draw pistol",
        "draw a weapon (move action)",
        "draw",
        _weapon_only("draw", "draw"),
        args=("weapon",),
    ),
    _v(
        "sheathe",
        "sheathe WEAPON",
        "sheathe pistol",
        "put a weapon away (move action)",
        "sheathe",
        _weapon_only("sheathe", "sheathe"),
        args=("weapon",),
    ),
    _v(
        "drop",
        "drop WEAPON",
        "drop pistol",
        "drop a held item (no action)",
        "drop_item",
        _weapon_only("drop_item", "drop"),
        args=("weapon",),
    ),
    _v(
        "grip",
        "grip WEAPON",
        "grip doshko",
        "change grips (swift action)",
        "change_grip",
        _weapon_only("change_grip", "grip"),
        args=("weapon",),
    ),
    _v(
        "pickup",
        "pickup WEAPON",
        "pickup spear",
        "pick up your thrown weapon (move action)",
        "pick_up",
        _weapon_only("pick_up", "pickup"),
        args=("weapon",),
    ),
    _v(
        "grenade",
        "grenade [WEAPON] at X,Y",
        "grenade frag at 9,5",
        "throw a grenade at a grid point, the top-left corner of square X,Y (standard action)",
        "throw_grenade",
        p_grenade,
        args=("grenade",),
        words={"at": "square"},
    ),
    _v(
        "use",
        "use NAME [on TARGET] [with WEAPON] [to X,Y] [attack eac|kac BONUS] [save fort|ref|will DC [half]] "
        "[damage DICE] [burst|cone|line|... FT at X,Y]",
        "use fire blast on ksarik save ref 13 half damage 2d6 F",
        "use an ability of the stat block (trick attack, get 'em, healing channel, a spell...) with its numbers, "
        "or one described inline",
        "use_ability",
        p_use,
        args=("text",),
        words={
            "on": "name",
            "with": "weapon",
            "to": "square",
            "attack": "choice:eac|kac",
            "save": "choice:fort|ref|will",
            "damage": "text",
            **dict.fromkeys(_AREAS, "int"),
            "at": "square",
            "toward": "square",
            "dir": "text",
            "action": "choice:standard|move|swift|full",
            "kind": "choice:Ex|Sp|Su|spell|item",
            "provokes": "",
        },
        aliases=("ability",),
    ),
    _v(
        "maneuver",
        "maneuver KIND TARGET [with WEAPON] [to X,Y] [item ITEM] ...",
        "maneuver trip ksarik",
        "a combat maneuver (standard action)",
        "maneuver",
        p_maneuver(None),
        args=("choice:" + "|".join(MANEUVERS), "name"),
        words=_MAN_WORDS,
    ),
    *(
        _v(
            k.replace("_", ""),
            f"{k.replace('_', '')} TARGET [with WEAPON]"
            + {
                "disarm": " [item ITEM]",
                "sunder": " item ITEM [hardness N] [hp N]",
                "reposition": " to X,Y [full drag X,Y]",
                "dirty_trick": " condition NAME",
            }.get(k, ""),
            f"{k.replace('_', '')} ksarik" + _MAN_EXAMPLES.get(k, ""),
            f"the {k.replace('_', ' ')} maneuver",
            "maneuver",
            p_maneuver(k),
            args=("name",),
            words=_MAN_WORDS,
        )
        for k in MANEUVERS
    ),
    _v(
        "escape",
        "escape [acrobatics DC [BONUS]]",
        "escape",
        "escape a grapple",
        "escape",
        p_escape,
        args=("choice:grapple|acrobatics",),
    ),
    _v(
        "cover",
        "cover ALLY [with WEAPON]",
        "cover nyx",
        "covering fire: +2 AC to an ally (standard action)",
        "covering_fire",
        p_ally_fire("covering_fire"),
        args=("name",),
        words=_TW,
    ),
    _v(
        "harry",
        "harry TARGET [with WEAPON]",
        "harry ksarik",
        "harrying fire: +2 to an ally's next attack",
        "harrying_fire",
        p_ally_fire("harrying_fire"),
        args=("name",),
        words=_TW,
    ),
    _v(
        "feint",
        "feint TARGET [BLUFF]",
        "feint ksarik",
        "Bluff to make a foe flat-footed (standard action)",
        "feint",
        _target_cmd("feint", "feint", number="bluff"),
        args=("name", "int"),
    ),
    _v(
        "cdg",
        "cdg TARGET [with WEAPON]",
        "cdg ksarik",
        "coup de grace on a helpless foe (full action)",
        "coup_de_grace",
        _target_cmd("coup_de_grace", "cdg", weapon=True),
        args=("name",),
        words=_TW,
    ),
    _v(
        "aid",
        "aid TARGET [BONUS]",
        "aid krask",
        "first aid: Medicine DC 15 (standard action)",
        "first_aid",
        _target_cmd("first_aid", "aid", number="bonus"),
        args=("name", "int"),
        aliases=("firstaid",),
    ),
    _v(
        "search",
        "search",
        "search",
        "Perception against the foes not pinpointed (move action)",
        "search",
        _no_args(cmds.Search),
    ),
    _v(
        "defend",
        "defend",
        "defend",
        "total defense: +4 AC (standard action)",
        "total_defense",
        _no_args(cmds.TotalDefense),
    ),
    _v("prone", "prone", "prone", "drop prone (swift action)", "drop_prone", _no_args(cmds.DropProne)),
    _v("stand", "stand", "stand", "stand up (move action)", "stand_up", _no_args(cmds.StandUp)),
    _v("delay", "delay", "delay", "step out of the order before acting", "delay", _no_args(cmds.Delay)),
    _v(
        "resume",
        "resume NAME",
        "resume krask",
        "a delaying combatant acts now (between turns)",
        "resume",
        p_resume,
        args=("name",),
    ),
    _v(
        "ready",
        "ready VERB ARGS... [when TRIGGER] [watch NAME]",
        "ready attack ksarik when enters_reach",
        "ready an action against a trigger (standard action)",
        "ready",
        p_ready,
        args=("verb",),
        words={"when": "choice:" + "|".join(TRIGGERS), "watch": "name"},
    ),
    _v(
        "trigger",
        "trigger NAME",
        "trigger krask",
        "fire a readied action (manual trigger)",
        "trigger",
        p_trigger,
        args=("name",),
    ),
    _v("end", "end", "end", "end the turn", "end_turn", p_end),
    _v(
        "stabilize",
        "stabilize",
        "stabilize",
        "spend Resolve to stabilize while dying",
        "stabilize",
        _no_args(cmds.StabilizeWithResolve),
    ),
    _v(
        "stay",
        "stay",
        "stay",
        "spend 1 RP to stay in the fight at 0 HP",
        "stay_in_the_fight",
        _no_args(cmds.StayInTheFight),
    ),
    _v("begin", "begin [roll]", "begin", "start the fight (roll: awareness by Perception)", "begin", p_begin),
    _v(
        "damage",
        "damage NAME AMOUNT|DICE [nonlethal]",
        "damage krask 2d6 F",
        "the GM deals damage",
        "damage",
        p_damage,
        args=("name", "text"),
        words={"nonlethal": ""},
    ),
    _v(
        "heal",
        "heal NAME HP [SP]",
        "heal krask 5",
        "the GM heals Hit Points and Stamina",
        "heal",
        p_heal,
        args=("name", "int", "int"),
    ),
    _v(
        "cond",
        "cond NAME CONDITION [ROUNDS] [VALUE]",
        "cond krask shaken 3",
        "the GM gives a condition",
        "add_condition",
        p_cond,
        args=("name", "condition", "int"),
    ),
    _v(
        "uncond",
        "uncond NAME CONDITION",
        "uncond krask shaken",
        "the GM removes a condition",
        "remove_condition",
        p_uncond,
        args=("name", "condition"),
    ),
    _v(
        "join",
        "join ID SIDE STATBLOCK [at X,Y] [init N]",
        "join Gob2 aliens space-goblin at 9,5",
        "a combatant enters the fight",
        "join",
        p_join,
        args=("text", "text", "text"),
        words={"at": "square", "init": "int"},
    ),
    _v(
        "endcombat",
        "endcombat [REASON]",
        "endcombat the goblins flee",
        "the GM ends the combat",
        "end_combat",
        p_endcombat,
        args=("text",),
    ),
)
HAND_WRITTEN += VEHICLE_VERBS

SESSION_VERBS: tuple[Verb, ...] = (
    Verb(
        "map",
        "map [NAME|SIDE] [reach] [threat] [cover] [area SPEC] [bare] [view SIDE] [svg FILE] [png FILE]",
        "map svg hold.svg",
        "the battlefield now: tokens, conditions, whose turn, reach and threat",
        "session",
        args=("subject",),
        words={
            "reach": "",
            "threat": "",
            "cover": "",
            "area": "text",
            "bare": "",
            "view": "side",
            "svg": "file",
            "png": "file",
        },
    ),
    Verb("show", "show", "show", "the initiative tracker and the turn panel", "session", aliases=("init",)),
    Verb(
        "auto",
        "auto | auto all",
        "auto",
        "the simple policy takes this turn, or runs the rest of the fight",
        "session",
        args=("choice:all",),
    ),
    Verb("undo", "undo [N]", "undo 2", "take back the last N commands", "session", args=("int",)),
    Verb(
        "save",
        "save [FILE]",
        "save fight.jsonl",
        "save the fight log (resume with sftactics play FILE)",
        "session",
        args=("file",),
    ),
    Verb("again", "again [SEED]", "again 7", "start the same fight again from the beginning", "session", args=("int",)),
    Verb("summary", "summary", "summary", "who dropped, who died, damage dealt and taken", "session"),
    Verb("log", "log [N|all]", "log 3", "the events of the last N commands again", "session", args=("choice:all",)),
    Verb(
        "dice",
        "dice me | dice engine",
        "dice me",
        "type your own die results, or let the engine roll",
        "session",
        args=("choice:me|engine",),
    ),
    Verb(
        "reactions",
        "reactions ask | reactions auto",
        "reactions ask",
        "decide each attack of opportunity yourself, or always take them",
        "session",
        args=("choice:ask|auto",),
    ),
    Verb("brief", "brief", "brief", "one line per attack", "session"),
    Verb("verbose", "verbose", "verbose", "every number explained", "session"),
    Verb(
        "help",
        "help [VERB]",
        "help grenade",
        "the verbs, or one verb's syntax with an example",
        "session",
        args=("verb",),
    ),
    Verb("quit", "quit", "quit", "leave (asks first if the fight is not saved)", "session", aliases=("exit",)),
)


def _build() -> dict[str, Verb]:
    table: dict[str, Verb] = {}
    for v in (*HAND_WRITTEN, *SESSION_VERBS):
        table[v.name] = v
    for kind in MODELS:
        name = kind
        if kind in table:
            if table[kind].kind == kind:  # attack, move, feint...: the hand-written verb has the type's name
                continue
            name = f"{kind}_command"  # a new command named like a verb of the session or another command
        model = MODELS[kind]
        doc = " ".join((model.__doc__ or "").replace("``", "").split())
        summary = doc.split(". ")[0].rstrip(".")
        group: Literal["turn", "gm"] = "gm" if kind in GM_COMMANDS else "turn"
        args = tuple(k for n, k, r in fields_of(kind) if r and n != "actor")
        words = {f"{n}=" if k != "flag" else n: ("" if k == "flag" else k) for n, k, r in fields_of(kind) if not r}
        syntax, example = generic_syntax(kind), generic_example(kind)
        table[name] = Verb(
            name, name + syntax[len(kind) :], name + example[len(kind) :], summary, group, kind, generic(kind), args,
            words,
        )  # fmt: skip
    return table


VERBS: dict[str, Verb] = _build()
ALIASES: dict[str, str] = {a: v.name for v in VERBS.values() for a in v.aliases}


def verb_named(word: str) -> Verb | None:
    low = word.lower()
    return VERBS.get(ALIASES.get(low, low))


def verb_for(kind: str) -> Verb:
    """The short verb for a command type (hand-written if there is one)."""
    return next((v for v in HAND_WRITTEN if v.kind == kind), None) or next(v for v in VERBS.values() if v.kind == kind)


def parse_line(ctx: Ctx, words: list[str]) -> Command | None:
    """The command a line of words means (None: the first word is not a command verb)."""
    verb = verb_named(words[0])
    if verb is None or verb.parse is None:
        return None
    return verb.parse(ctx, words[1:])


def help_overview() -> str:
    """Every verb, grouped: the turn's, the GM's, the session's."""
    titles = {"turn": "On a combatant's turn (it acts; names: any case, a unique beginning is enough):",
              "gm": "The GM's, at any time:", "session": "The session:"}  # fmt: skip
    out: list[str] = []
    short = {v.kind for v in HAND_WRITTEN}
    for group, title in titles.items():
        out.append(title)
        for v in VERBS.values():
            if v.group == group and (v in HAND_WRITTEN or v.kind not in short):
                out += textwrap.wrap(v.syntax, 79, initial_indent="  ", subsequent_indent="      ")
    out.append('  {"type": ...}   any command as JSON (the actor: the one whose turn it is)')
    out.append("help VERB shows a verb's syntax with an example. At a dice prompt: the number")
    out.append("rolled, 'roll' to let the engine roll that die, or 'cancel' to drop the command.")
    return "\n".join(out)
