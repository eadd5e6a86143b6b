"""Random command sequences on the shipped scenarios, and the invariants every state must keep.

Used by the property test in ``tests/fuzz/test_invariants.py`` (a few hundred commands in ``make test``) and by
``make fuzz`` (``scripts/fuzz.py``: as many as asked, with a summary). Each check returns the broken invariant's
description, or None.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sftactics.encounter import space
from sftactics.encounter.engine import GM_COMMANDS, Fight, pending, pending_needs_dice
from sftactics.encounter.events import replay
from sftactics.encounter.state import Encounter
from sftactics.grid.map import Feature
from sftactics.grid.space import Size, is_sub_square
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted([*ROOT.glob("scenarios/*.yaml"), *ROOT.glob("examples/scenarios/*.yaml")])

#: commands a combatant that is down (dying, unconscious, stable) may still give on its own turn
DOWN_OK = {"stabilize", "stay_in_the_fight", "end_turn"}
#: commands given out of turn by design: the GM's, a delayer coming back, a readied action fired by a person
OUT_OF_TURN = set(GM_COMMANDS) | {"resume", "trigger", "begin"}

KINDS = [
    "attack", "full_attack", "move", "guarded_step", "crawl", "withdraw", "run", "charge", "minimum_move",
    "reload", "draw", "sheathe", "drop_item", "change_grip", "throw_grenade", "search", "maneuver",
    "covering_fire", "harrying_fire", "feint", "coup_de_grace", "total_defense", "drop_prone", "stand_up",
    "delay", "resume", "ready", "trigger", "end_turn", "stabilize", "stay_in_the_fight", "first_aid", "damage",
    "heal", "add_condition", "remove_condition", "join", "end_combat", "escape", "remove_dirty_trick",
    "manipulate", "use_ability",
]  # fmt: skip
#: how often each kind comes up (1 by default): the fight should get somewhere before the GM ends it
WEIGHTS = {"attack": 8, "full_attack": 4, "move": 8, "end_turn": 6, "charge": 2, "throw_grenade": 2, "damage": 2,
           "maneuver": 2, "end_combat": 0.05, "join": 0.3}  # fmt: skip
CONDITIONS = [
    "prone", "entangled", "grappled", "blinded", "shaken", "flat-footed", "off-kilter", "staggered", "stunned",
    "unconscious", "bleeding", "burning", "confused", "nauseated", "panicked", "pinned",
]  # fmt: skip


def random_command(state: Encounter, rng: random.Random) -> dict[str, Any]:
    """A command, legal or not, biased toward the combatant whose decision the engine waits for."""
    names = [*state.combatants, "Nobody"]
    who = pending(state)
    actor = who if who is not None and rng.random() < 0.75 else rng.choice(names)
    target = rng.choice(names)
    c = state.combatants.get(actor)
    weapons = [w.name for w in c.creature.stat.weapons] if c is not None else []
    weapon = rng.choice([*weapons, "nothing at all"]) if weapons and rng.random() < 0.9 else None
    grid = state.grid
    w, h = (grid.width, grid.height) if grid is not None else (10, 10)
    if c is not None and c.position is not None and rng.random() < 0.8:
        x0, y0 = c.position
        square = [x0 + rng.randint(-7, 7), y0 + rng.randint(-7, 7)]
    else:
        square = [rng.randint(-2, w + 1), rng.randint(-2, h + 1)]
    kind = rng.choices(KINDS, weights=[WEIGHTS.get(k, 1) for k in KINDS])[0]
    cmd: dict[str, Any] = {"type": kind, "actor": actor}
    if kind in ("attack", "full_attack", "charge", "coup_de_grace", "harrying_fire", "feint", "first_aid"):
        cmd["target"] = target
        if weapon is not None and kind not in ("feint", "first_aid"):
            cmd["weapon"] = weapon
    elif kind == "covering_fire":
        cmd.update(ally=target, weapon=weapon)
    elif kind in ("move", "guarded_step", "crawl", "withdraw", "run", "minimum_move"):
        cmd["to"] = square
    elif kind in ("reload", "draw", "sheathe", "drop_item", "change_grip"):
        cmd["weapon"] = weapon or "nothing at all"
    elif kind == "throw_grenade":
        cmd.update(weapon=weapon or "frag grenade I", at=square)
    elif kind == "maneuver":
        cmd.update(target=target, kind=rng.choice(["bull_rush", "dirty_trick", "disarm", "grapple", "reposition",
                                                   "sunder", "trip"]), to=square)  # fmt: skip
    elif kind == "ready":
        inner = random_command(state, rng) if rng.random() < 0.8 else {}
        inner.pop("actor", None) if rng.random() < 0.2 else None
        cmd.update(action=inner, trigger=rng.choice(["attacked", "enemy_attacks", "enters_reach", "manual"]))
    elif kind == "damage":
        cmd = {"type": kind, "target": target, "amount": rng.randint(0, 40), "nonlethal": rng.random() < 0.2}
    elif kind == "heal":
        cmd = {"type": kind, "target": target, "hp": rng.randint(0, 20), "sp": rng.randint(0, 10)}
    elif kind in ("add_condition", "remove_condition"):
        cmd = {"type": kind, "target": target, "condition": rng.choice(CONDITIONS)}
        if kind == "add_condition" and rng.random() < 0.5:
            cmd["rounds"] = rng.randint(1, 3)
    elif kind == "join":
        cmd = {"type": kind, "id": f"New{rng.randint(1, 3)}", "side": rng.choice([*state.sides(), "newcomers"]),
               "statblock": rng.choice(["space-goblin", "ksarik", "nothing", {"name": "X", "hp": -1}]),
               "at": square, "initiative": rng.randint(0, 30)}  # fmt: skip
    elif kind == "end_combat":
        cmd = {"type": kind, "reason": "fuzz"}
    elif kind == "escape":
        cmd["method"] = rng.choice(["grapple", "acrobatics"])
    elif kind == "manipulate":
        cmd["what"] = "a console"
    elif kind == "use_ability":
        cmd.update(name="zap", action="standard", kind="Su", target=target, damage="1d6 F")
    return cmd


def able_to_act(state: Encounter, cid: str) -> bool:
    c = state.combatants.get(cid)
    return c is not None and not c.out_of_fight


def position_problems(state: Encounter, before: Encounter | None = None) -> Iterator[str]:
    """Nobody off the map or on a wall; two creatures share a square only when one is helpless, or when they
    already shared it before this command and neither moved (a helpless one recovered: option
    ``shared_square_on_recovery``, MOV-16)."""
    grid = state.grid
    if grid is None:
        return
    standing: dict[tuple[int, int], str] = {}
    for c in state.combatants.values():
        if c.position is None or c.fled or c.creature.has("dead"):
            continue
        fp = space.footprint(c)
        assert fp is not None
        squares = list(fp.squares)
        for sq in squares:
            if not grid.in_bounds(sq):
                yield f"{c.id} is off the map at {sq}"
                continue
            if grid.features(sq) & (Feature.SOLID | Feature.COVER):
                yield f"{c.id} stands on a wall or object at {sq}"
        active = cond.active(c.creature)
        if "helpless" in active or is_sub_square(Size(c.creature.stat.size)):
            continue
        for sq in squares:
            other = standing.get(sq)
            if other is not None and not _shared_before(state, before, c.id, other):
                yield f"{c.id} and {other} share {sq}, neither helpless (MOV-16)"
            standing[sq] = c.id


def pools_problems(state: Encounter) -> Iterator[str]:
    for c in state.combatants.values():
        s = c.creature.state
        if not 0 <= s.hp <= stats.max_hp(c.creature).total:
            yield f"{c.id} has {s.hp} HP"
        if not 0 <= s.sp <= c.creature.stat.sp:
            yield f"{c.id} has {s.sp} SP"
        if s.rp < 0:
            yield f"{c.id} has {s.rp} RP"


def step_problems(before: Encounter, cmd: dict[str, Any], after: Encounter) -> Iterator[str]:
    """What an accepted command may not have done."""
    kind = cmd["type"]
    actor = cmd.get("actor")
    if kind not in OUT_OF_TURN and actor is not None:
        who = pending(before)
        if who != actor and not pending_needs_dice(before):  # the dice decide whose turn starts (engine.pending)
            yield f"{kind} by {actor} was accepted while the engine waited for {who}"
        woke = before.timeline.turn != actor and able_to_act(after, actor)  # a timed condition ended as it began
        if not able_to_act(before, actor) and kind not in DOWN_OK and not woke:
            yield f"{actor} is down but gave {kind}"
    yield from position_problems(after, before)
    yield from pools_problems(after)


def play_sequence(fight: Fight, rng: random.Random, steps: int, *, undo_every: float = 0.1) -> Iterator[str]:
    """Give ``steps`` random commands; yields each broken invariant (refused commands must change nothing)."""
    from sftactics.core.errors import SftError

    for _ in range(steps):
        if fight.state.result is not None and rng.random() < 0.5:
            break
        before = fight.state
        used = len(fight.dice.history)
        cmd = random_command(before, rng)
        try:
            fight.do(cmd)
        except SftError:
            if fight.state is not before and fight.state != before:
                yield f"refused {cmd['type']} changed the state"
            if len(fight.dice.history) != used:
                yield f"refused {cmd['type']} kept dice"
            continue
        yield from step_problems(before, cmd, fight.state)
        if rng.random() < undo_every:
            fight.undo()
            if fight.state != before:
                yield f"undo of {cmd['type']} did not give the state back"
    if replay(fight.start, fight.all_events()).model_dump_json() != fight.state.model_dump_json():
        yield "replaying the events does not give the state"


def _shared_before(state: Encounter, before: Encounter | None, a: str, b: str) -> bool:
    if before is None or a not in before.combatants or b not in before.combatants:
        return False
    return all(before.combatants[x].position == state.combatants[x].position for x in (a, b))
