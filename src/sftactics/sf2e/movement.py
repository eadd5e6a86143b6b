"""Movement, cover and flanking for the 2E rules (E2-64..69), over the shared grid.

The grid (:mod:`sftactics.grid`) already knows squares, 5-10-5 diagonals, walls, difficult terrain (each
hampering doubles the cost: the seed's "typically double") and flanking lines; this module adds what 2E says:

* **Stride** moves up to the creature's Speed and can trigger reactions as it goes; **Step** moves 5 feet and
  triggers none; **Crawl** moves 5 feet while prone; **Drop Prone** and **Stand** change prone (E2-64, E2-50).
  A path that costs more than the budget is refused (a diagonal into difficult terrain costs 15 ft, so a Step
  can't take it).
* **Movement modes**: burrow, climb, fly and swim Speeds (E2-65); when an airborne creature falls is an option.
* **Forced movement** caused by an attack triggers no movement reactions except Reactive Strike-like ones
  (E2-67, option).
* **Cover**: lesser +1, standard +2 circumstance bonus to AC; greater cover's number is an option (E2-68).
* **Flanking**: two allies on opposite sides of an enemy; the enemy is off-guard to them (a -2 circumstance
  penalty to AC by default, which does not stack with being off-guard otherwise) (E2-69).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum

from sftactics.core.errors import RuleViolation
from sftactics.grid.cover import CoverKind
from sftactics.grid.flanking import flank_line, flanking
from sftactics.grid.geometry import Footprint, Square
from sftactics.grid.map import GridMap
from sftactics.grid.movement import MoveMode, Mover, Occupant, PricedPath, price_path
from sftactics.grid.options import GridOptions
from sftactics.grid.space import Body, Size
from sftactics.sf2e.conditions import condition_mods
from sftactics.sf2e.creature import Creature2e
from sftactics.sf2e.modifiers import Kind, Mod, mod
from sftactics.sf2e.options import DEFAULT_OPTIONS, Sf2eOptions

STEP_FT = 5
CRAWL_FT = 5


def speed_for(creature: Creature2e, mode: MoveMode = MoveMode.LAND) -> int:
    """The creature's Speed for a movement mode (E2-64, E2-65); refused if it has none."""
    if mode is MoveMode.LAND:
        return creature.speed
    found = creature.speeds.get(mode.value)
    if not found:
        raise RuleViolation("E2-65", f"{creature.name} has no {mode.value} Speed")
    return found


def _move(
    grid: GridMap,
    start: Square | Footprint,
    path: Sequence[Square | Footprint],
    budget_ft: int,
    action: str,
    rule: str,
    *,
    size: Size,
    mode: MoveMode,
    occupants: Mapping[Square, Occupant] | None,
    threats: Mapping[str, Collection[Square]] | None,
    hampered: Mapping[Square, int] | None,
) -> PricedPath:
    mover = Mover(size=size, speed=budget_ft, mode=mode)
    priced = price_path(grid, start, path, mover, occupants=occupants, threats=threats, hampered=hampered)
    if priced.cost_ft > budget_ft:
        raise RuleViolation(rule, f"{action} costs {priced.cost_ft} ft of movement; only {budget_ft} ft allowed")
    if not priced.end_legal:
        raise RuleViolation(rule, f"{action} can't end in another creature's space")
    return priced


def stride(
    creature: Creature2e,
    grid: GridMap,
    start: Square | Footprint,
    path: Sequence[Square | Footprint],
    *,
    size: Size = Size.MEDIUM,
    mode: MoveMode = MoveMode.LAND,
    occupants: Mapping[Square, Occupant] | None = None,
    threats: Mapping[str, Collection[Square]] | None = None,
    hampered: Mapping[Square, int] | None = None,
) -> PricedPath:
    """Stride along ``path`` (squares after the start), up to the creature's Speed for ``mode`` (E2-64).

    The path's ``provocations`` are the places where reactions to movement may trigger (``threats`` maps each
    enemy to the squares it can react in).
    """
    if creature.has("prone"):
        raise RuleViolation("E2-50", f"{creature.name} is prone: Stand first, or Crawl")
    speed = speed_for(creature, mode)
    action = "Stride" if mode is MoveMode.LAND else f"moving by {mode.value} Speed"
    return _move(
        grid,
        start,
        path,
        speed,
        action,
        "E2-64",
        size=size,
        mode=mode,
        occupants=occupants,
        threats=threats,
        hampered=hampered,
    )


def step(
    creature: Creature2e,
    grid: GridMap,
    start: Square | Footprint,
    to: Square | Footprint,
    *,
    size: Size = Size.MEDIUM,
    occupants: Mapping[Square, Occupant] | None = None,
    hampered: Mapping[Square, int] | None = None,
) -> PricedPath:
    """Step 5 feet; it triggers no reactions, so no threats are considered (E2-64)."""
    if creature.has("prone"):
        raise RuleViolation("E2-50", f"{creature.name} is prone: Crawl instead")
    return _move(
        grid,
        start,
        [to],
        STEP_FT,
        "Step",
        "E2-64",
        size=size,
        mode=MoveMode.LAND,
        occupants=occupants,
        threats=None,
        hampered=hampered,
    )


def crawl(
    creature: Creature2e,
    grid: GridMap,
    start: Square | Footprint,
    to: Square | Footprint,
    *,
    size: Size = Size.MEDIUM,
    occupants: Mapping[Square, Occupant] | None = None,
    threats: Mapping[str, Collection[Square]] | None = None,
    hampered: Mapping[Square, int] | None = None,
) -> PricedPath:
    """Crawl 5 feet while prone (E2-50)."""
    if not creature.has("prone"):
        raise RuleViolation("E2-50", f"{creature.name} is not prone: Crawl is for prone creatures")
    return _move(
        grid,
        start,
        [to],
        CRAWL_FT,
        "Crawl",
        "E2-50",
        size=size,
        mode=MoveMode.LAND,
        occupants=occupants,
        threats=threats,
        hampered=hampered,
    )


def drop_prone(creature: Creature2e) -> Creature2e:
    """Drop Prone (E2-50)."""
    return creature.with_conditions(prone=1)


def stand(creature: Creature2e) -> Creature2e:
    """Stand up from prone (E2-50)."""
    if not creature.has("prone"):
        raise RuleViolation("E2-50", f"{creature.name} is not prone")
    return creature.with_conditions(prone=0)


def check_leap(horizontal_ft: int, vertical_ft: int = 0, *, options: Sf2eOptions = DEFAULT_OPTIONS) -> None:
    """A Leap without a check goes up to ``leap_horizontal_ft`` across or ``leap_vertical_ft`` up (E2-50);
    further needs an Athletics check (XREF), so it is refused here."""
    if horizontal_ft > options.leap_horizontal_ft or vertical_ft > options.leap_vertical_ft:
        raise RuleViolation(
            "E2-50",
            f"a Leap of {horizontal_ft} ft across / {vertical_ft} ft up is beyond {options.leap_horizontal_ft} ft "
            f"/ {options.leap_vertical_ft} ft: that needs an Athletics check",
        )


def airborne_falls(
    *,
    fly_speed_left_ft: int,
    turn_ended: bool,
    used_fly_action: bool,
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> bool:
    """Whether a flying creature falls (E2-65, per ``options.fly_falls_when``)."""
    if options.fly_falls_when == "speed_exhausted":
        return fly_speed_left_ft <= 0
    return turn_ended and not used_fly_action


def forced_movement_triggers(
    *, caused_by_attack: bool, reactive_strike_like: bool, options: Sf2eOptions = DEFAULT_OPTIONS
) -> bool:
    """Whether being moved by force triggers a reaction based on movement (E2-67).

    Forced movement from an attack triggers only Reactive Strike-like reactions (or none, per
    ``options.forced_movement_reactive_strike``); forced movement not from an attack is not covered by the
    seed and is treated as ordinary movement here.
    """
    if not caused_by_attack:
        return True
    return reactive_strike_like and options.forced_movement_reactive_strike


# --- cover (E2-68) -----------------------------------------------------------------------------------------------


class Cover2e(IntEnum):
    NONE = 0
    LESSER = 1
    STANDARD = 2
    GREATER = 3


def cover_bonus(degree: Cover2e, *, options: Sf2eOptions = DEFAULT_OPTIONS) -> Mod | None:
    """The circumstance bonus to AC a degree of cover gives (E2-68): lesser +1, standard +2, greater (option)."""
    value = {Cover2e.NONE: 0, Cover2e.LESSER: 1, Cover2e.STANDARD: 2, Cover2e.GREATER: options.greater_cover_ac}[degree]
    if not value:
        return None
    return mod(value, f"{degree.name.lower()} cover", Kind.CIRCUMSTANCE, "E2-68", source="cover")


def cover_from_grid(kind: CoverKind, *, options: Sf2eOptions = DEFAULT_OPTIONS) -> Cover2e:
    """The 2E degree of cover for what the grid's corner rule finds.

    The grid speaks 1E: a creature in the way (soft cover) gives ``options.creature_cover``; partial cover is
    lesser, cover is standard, improved cover is greater. Total cover means no line of effect: refused.
    """
    if kind is CoverKind.TOTAL:
        raise RuleViolation("E2-68", "no line of effect to the target")
    table = {
        CoverKind.NONE: Cover2e.NONE,
        CoverKind.SOFT: Cover2e.LESSER if options.creature_cover == "lesser" else Cover2e.STANDARD,
        CoverKind.PARTIAL: Cover2e.LESSER,
        CoverKind.COVER: Cover2e.STANDARD,
        CoverKind.IMPROVED: Cover2e.GREATER,
    }
    return table[kind]


# --- flanking (E2-69) -------------------------------------------------------------------------------------------

_ALLIES_ONLY = GridOptions(flank_partner="ally_of_attacker")


@dataclass(frozen=True, slots=True)
class Flank2e:
    flanked: bool
    partner: int | None
    off_guard: tuple[Mod, ...]
    reason: str


def flanks(
    attacker: Body,
    target: Footprint,
    allies: Sequence[Body],
    *,
    target_side: str = "",
    grid: GridMap | None = None,
    options: Sf2eOptions = DEFAULT_OPTIONS,
) -> Flank2e:
    """Whether ``attacker`` and one of ``allies`` are on opposite sides of ``target`` (E2-69); if so, the target
    is off-guard to the attacker (the terms to add to its AC).

    The opposite-sides test is the grid's line between the two creatures' squares. Whether both must threaten the
    target is ``options.flanking_requires_threat``; allies are bodies with the attacker's ``side``.
    """
    off_guard = tuple(condition_mods({"off-guard": 1}, "ac", options))
    if options.flanking_requires_threat:
        r = flanking(attacker, target, allies, target_side=target_side, grid=grid, options=_ALLIES_ONLY)
        if r.flanked:
            return Flank2e(True, r.partner, off_guard, "flanked: off-guard to the flankers")
        return Flank2e(False, None, (), r.reason)
    for i, ally in enumerate(allies):
        if ally.side == attacker.side and flank_line(attacker.space, ally.space, target) is not None:
            return Flank2e(True, i, off_guard, "flanked: off-guard to the flankers")
    return Flank2e(False, None, (), "no ally on the opposite side")
