"""Commands: what a person, a command file or a policy asks the engine to do.

Every command is a small pydantic model with a ``type`` field, so command files (YAML or JSON lists) and the
Python API take the same things. ``actor`` is the combatant acting; GM commands have no actor and can be sent
at any time. The engine checks each command against the rules and either refuses it (``RuleViolation`` naming
the rule; nothing changes) or turns it into events.

The commands of a combatant's own actions (``Attack``, ``Move``, ``UseAbility``...) are in
:mod:`sftactics.encounter.action_commands`; this module imports every one of them, so
``from sftactics.encounter.commands import Attack`` keeps working. Here: the GM's commands, the GM's toolbox with
the small actions that come with it (dismiss, wake, right yourself, willing, smother), the ``Command`` union of
every command (with the 2nd edition's and the vehicles') and parsing.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter, ValidationError

from sftactics.core.errors import CommandError
from sftactics.core.validation import first_problem
from sftactics.encounter.action_commands import AreaSpec as AreaSpec
from sftactics.encounter.action_commands import Attack as Attack
from sftactics.encounter.action_commands import AttackSpec as AttackSpec
from sftactics.encounter.action_commands import Begin as Begin
from sftactics.encounter.action_commands import ChangeGrip as ChangeGrip
from sftactics.encounter.action_commands import Charge as Charge
from sftactics.encounter.action_commands import CoupDeGrace as CoupDeGrace
from sftactics.encounter.action_commands import CoveringFire as CoveringFire
from sftactics.encounter.action_commands import Crawl as Crawl
from sftactics.encounter.action_commands import Delay as Delay
from sftactics.encounter.action_commands import Draw as Draw
from sftactics.encounter.action_commands import DropItem as DropItem
from sftactics.encounter.action_commands import DropProne as DropProne
from sftactics.encounter.action_commands import EndTurn as EndTurn
from sftactics.encounter.action_commands import Escape as Escape
from sftactics.encounter.action_commands import Feint as Feint
from sftactics.encounter.action_commands import FirstAid as FirstAid
from sftactics.encounter.action_commands import FullAttack as FullAttack
from sftactics.encounter.action_commands import GuardedStep as GuardedStep
from sftactics.encounter.action_commands import HarryingFire as HarryingFire
from sftactics.encounter.action_commands import ManeuverCmd as ManeuverCmd
from sftactics.encounter.action_commands import Manipulate as Manipulate
from sftactics.encounter.action_commands import MinimumMove as MinimumMove
from sftactics.encounter.action_commands import Move as Move
from sftactics.encounter.action_commands import PickUp as PickUp
from sftactics.encounter.action_commands import Ready as Ready
from sftactics.encounter.action_commands import Reload as Reload
from sftactics.encounter.action_commands import RemoveDirtyTrick as RemoveDirtyTrick
from sftactics.encounter.action_commands import Resume as Resume
from sftactics.encounter.action_commands import Run as Run
from sftactics.encounter.action_commands import SaveSpec as SaveSpec
from sftactics.encounter.action_commands import Search as Search
from sftactics.encounter.action_commands import Sheathe as Sheathe
from sftactics.encounter.action_commands import StabilizeWithResolve as StabilizeWithResolve
from sftactics.encounter.action_commands import StandUp as StandUp
from sftactics.encounter.action_commands import StayInTheFight as StayInTheFight
from sftactics.encounter.action_commands import ThrowGrenade as ThrowGrenade
from sftactics.encounter.action_commands import TotalDefense as TotalDefense
from sftactics.encounter.action_commands import Trigger as Trigger
from sftactics.encounter.action_commands import UseAbility as UseAbility
from sftactics.encounter.action_commands import Withdraw as Withdraw
from sftactics.encounter.action_commands import _Cmd
from sftactics.encounter.sf2e.commands2e import BasicSave, Interact, Leap, Seek, Step, Stride, Strike, TakeCover
from sftactics.encounter.vehicle_commands import (
    Board,
    Disembark,
    Drive,
    FireVehicleWeapon,
    Pilot,
    Race,
    Ram,
    RunOver,
)
from sftactics.sf1e import limits as L
from sftactics.sf1e.limits import CommandSquare, DiceText, Name


# ---------------------------------------------------------------- GM commands (any time)
class Damage(_Cmd):
    """The GM deals damage (a trap, a hazard): ``amount`` or a dice ``roll`` such as "2d6 F"."""

    type: Literal["damage"] = "damage"
    target: str
    amount: int | None = L.ranged(None, 0, L.AMOUNT_MAX, "damage")
    roll: DiceText | None = None
    nonlethal: bool = False


class Heal(_Cmd):
    """The GM heals Hit Points and/or Stamina Points (INJ-10, INJ-18, INJ-19)."""

    type: Literal["heal"] = "heal"
    target: str
    hp: int = L.ranged(0, 0, L.AMOUNT_MAX, "Hit Points healed")
    sp: int = L.ranged(0, 0, L.AMOUNT_MAX, "Stamina Points recovered")


class AddCondition(_Cmd):
    """The GM gives a condition, for ``rounds`` rounds if given (CF-14), with a ``value`` such as "1d6"."""

    type: Literal["add_condition"] = "add_condition"
    target: str
    condition: str
    rounds: int | None = L.ranged(None, 1, L.ROUNDS_MAX, "rounds")
    value: DiceText | None = None


class RemoveCondition(_Cmd):
    """The GM removes a condition."""

    type: Literal["remove_condition"] = "remove_condition"
    target: str
    condition: str


class Join(_Cmd):
    """A combatant enters the fight in progress: it rolls initiative (unless given) and is inserted into the
    order (CF-06). ``statblock`` is a bundled creature's name or a stat block written inline."""

    type: Literal["join"] = "join"
    id: Name
    side: Name
    statblock: str | dict[str, object]
    at: CommandSquare | None = None
    initiative: int | None = L.ranged(None, L.INIT_MIN, L.INIT_MAX, "initiative count")


class EndCombat(_Cmd):
    """The GM ends the combat (CF-02), e.g. because the remaining foes are insignificant."""

    type: Literal["end_combat"] = "end_combat"
    reason: str = "the GM ends the combat"


# ---------------------------------------------------------------- the GM's toolbox (gm.py)
AbilityName = Literal["str", "dex", "con", "int", "wis", "cha"]


class AbilityDamage(_Cmd):
    """The GM deals ability damage (ABL-01..05), drain (ABL-08, ABL-09) or a penalty (ABL-07) to one score."""

    type: Literal["ability_damage"] = "ability_damage"
    target: str
    ability: AbilityName
    points: int = Field(ge=1, le=100)
    kind: Literal["damage", "drain", "penalty"] = "damage"


class RestoreAbility(_Cmd):
    """Ability damage, drain or a penalty goes away: ``points`` of it, or all of it (ABL-06..08)."""

    type: Literal["restore_ability"] = "restore_ability"
    target: str
    ability: AbilityName
    points: int | None = Field(None, ge=1, le=100)
    kind: Literal["damage", "drain", "penalty"] = "damage"


class NegativeLevels(_Cmd):
    """The GM gives negative levels (ABL-10..13): temporary unless ``permanent``; ``dc`` for the daily save."""

    type: Literal["negative_levels"] = "negative_levels"
    target: str
    count: int = Field(ge=1, le=40)
    permanent: bool = False
    dc: int | None = Field(None, ge=0, le=100)
    source: str = "GM"


class RemoveNegativeLevels(_Cmd):
    """Negative levels go away: ``count`` (all if omitted), from ``source`` (any if omitted), temporary ones
    first; permanent ones only with ``include_permanent`` (ABL-13)."""

    type: Literal["remove_negative_levels"] = "remove_negative_levels"
    target: str
    count: int | None = Field(None, ge=1, le=40)
    source: str | None = None
    include_permanent: bool = False


class EffectModifier(_Cmd):
    """A number an effect changes while it lasts: ``selector`` as in stat blocks (``ac``, ``attack``,
    ``saves``, ``skill:stealth``...), a bonus ``type`` for stacking (BON-01..13), ``when`` tags."""

    selector: str
    value: int = Field(ge=-100, le=100)
    type: Literal[
        "untyped", "armor", "circumstance", "divine", "enhancement", "insight", "luck", "morale", "racial"
    ] = "untyped"
    when: frozenset[str] = frozenset()


class AddEffect(_Cmd):
    """The GM starts a named effect on ``target``: modifiers, a condition and/or temporary HP, for ``rounds``
    rounds counted by initiative count (CF-14) or until ended. ``concentration``: the creature keeping it up
    (it may stop at no action on its turn, ACT-77); ``dismissible``: the creature that may dismiss it as a
    standard action (EFF-34, ACT-16)."""

    type: Literal["add_effect"] = "add_effect"
    target: str
    name: str = Field(min_length=1, max_length=80)
    modifiers: tuple[EffectModifier, ...] = ()
    condition: str | None = None
    temp_hp: int = Field(0, ge=0, le=10_000)
    rounds: int | None = Field(None, ge=1, le=100_000)
    concentration: str | None = None
    dismissible: str | None = None
    source: str = "GM"


class EndEffect(_Cmd):
    """The GM ends a named effect (on ``target`` only, if given); temporary HP it granted go with it (DMG-09)."""

    type: Literal["end_effect"] = "end_effect"
    name: str
    target: str | None = None


class Dismiss(_Cmd):
    """End an effect you keep up: stop concentrating (no action, on your turn, ACT-77) or dismiss a
    dismissible effect (a standard action, EFF-34, ACT-16)."""

    type: Literal["dismiss"] = "dismiss"
    actor: str
    name: str


class Rest(_Cmd):
    """Rest outside the fight's rounds (the GM's call): ``stamina`` spends 1 RP and 10 minutes to regain all
    Stamina (INJ-16); ``night`` is a full night's rest (INJ-16, INJ-17, ABL-06); ``bed_rest`` 24 hours of it."""

    type: Literal["rest"] = "rest"
    target: str
    kind: Literal["stamina", "night", "bed_rest"] = "stamina"
    interrupted: bool = False


class Wake(_Cmd):
    """Wake a sleeping creature within reach as a standard action (CON-01)."""

    type: Literal["wake"] = "wake"
    actor: str
    target: str


class RightYourself(_Cmd):
    """Grab a handhold or push off to stop floating off-kilter in zero gravity: a move action (CON-23)."""

    type: Literal["right_yourself"] = "right_yourself"
    actor: str


class Willing(_Cmd):
    """Declare yourself a willing target (of ``toward``'s effects, or anyone's) or take it back: no action, at
    any time, even off-turn or flat-footed (ACT-75)."""

    type: Literal["willing"] = "willing"
    actor: str
    toward: str | None = None
    willing: bool = True


# ---------------------------------------------------------------- the GM's toolbox: checks and hazards (gm_checks.py)
class HazardCondition(_Cmd):
    """A condition an area effect gives each creature it reaches: ``name`` as in docs/conditions.md, for
    ``rounds`` rounds counted by initiative count (CF-14) or until removed, with a ``value`` for a condition
    that has an amount (``burning`` "1d4 fire")."""

    name: str
    rounds: int | None = Field(None, ge=1, le=100_000)
    value: str | None = None


class AreaEffect(_Cmd):
    """An area effect with no creature using it (a trap, an explosion, a collapsing ceiling) goes off from a
    point (EFF-01..08). ``area``: the template as for ``use_ability`` (burst or spread from the grid point
    ``at``; an emanation from ``at``; a cone from ``at`` toward ``direction``; a line from ``at`` toward the
    square ``toward``), ``size_ft`` 5 to 1000. ``save``: ``{type, dc, on_save}`` (half, negates or partial,
    SV-09). ``damage``: dice rolled once for everyone, such as "4d6 F" (DMG-14 halves it for a success).
    ``conditions``: ``{name, rounds?, value?}``, given to each creature that fails its save (or to all, with
    no save), for ``rounds`` rounds (CF-14) if given. Every creature inside saves on its own, with the cover
    between the point and it added to a Reflex save (MOD-08); a creature the point has no line of effect to
    is not in the area (EFF-36), and total cover keeps it out (MOD-14). ``name`` labels the effect in the
    log."""

    type: Literal["area_effect"] = "area_effect"
    area: AreaSpec
    name: str = Field("hazard", min_length=1, max_length=80)
    save: SaveSpec | None = None
    damage: str | None = None
    conditions: tuple[HazardCondition, ...] = ()


class CheckTerm(_Cmd):
    """A situational modifier to a check: its ``value``, a ``label`` and a bonus ``type`` for stacking
    (BON-01..13)."""

    value: int = Field(ge=-100, le=100)
    label: str = Field("GM", min_length=1, max_length=80)
    type: Literal["untyped", "circumstance", "divine", "enhancement", "insight", "luck", "morale", "racial"] = "untyped"


class Check(_Cmd):
    """A check the GM calls for (GEN-01): ``target`` rolls a ``skill`` check (its printed bonus, or ``bonus``
    when the stat block lists none), an ``ability`` check (GEN-02) or a saving throw ``save`` (fort, ref,
    will; natural 1 and 20 decide it, SV-02), exactly one of the three, against ``dc``; conditions,
    ability damage and negative levels apply as to any such roll, and ``modifiers`` (``{value, label?,
    type?}``, stacked by bonus type) add the situation's.
    ``action`` (none, swift, move, standard, full) is what the task costs: during the target's own turn it is
    spent from that turn (refused naming the rule when none is left: ACT-02, ACT-03, CF-09...); at any
    other time nothing is spent. ``what`` names the task in the log."""

    type: Literal["check"] = "check"
    target: str
    dc: int = Field(ge=-100, le=1000)
    skill: str | None = Field(None, min_length=1, max_length=40)
    ability: AbilityName | None = None
    save: Literal["fort", "ref", "will"] | None = None
    bonus: int | None = Field(None, ge=-100, le=200)
    modifiers: tuple[CheckTerm, ...] = ()
    action: Literal["none", "swift", "move", "standard", "full"] = "none"
    what: str | None = Field(None, min_length=1, max_length=120)


class StabilityCheck(_Cmd):
    """The hourly Constitution check of a creature unconscious and stable at 0 HP without the Resolve to stay
    in the fight (INJ-13): 20 or more, it wakes with 1 HP; 10 to 19, it stays stable until the next hour's
    check; 9 or less, it dies. ``hour`` (1 to 8) is which hour's check this is: a creature still stable after
    the eighth wakes with 1 HP per character level. ``healer``: a combatant tending it, who first attempts a
    DC 15 Medicine check (its printed Medicine bonus, or ``medicine_bonus``): on a success the Constitution
    check gets +2 and a result under 10 counts as 10."""

    type: Literal["stability_check"] = "stability_check"
    target: str
    hour: int = Field(1, ge=1, le=8)
    healer: str | None = None
    medicine_bonus: int | None = Field(None, ge=-100, le=200)


class Smother(_Cmd):
    """A burning creature rolls on the ground or otherwise smothers the flames: a full action for a new
    Reflex save against the burning DC with +4, plus +2 per earlier consecutive attempt; success ends the
    burning (CON-05). It is an extra attempt: the end-of-turn save still comes if the fire burns on."""

    type: Literal["smother"] = "smother"
    actor: str


class ImposeCover(_Cmd):
    """The GM gives ``target`` cover (MOD-12 partial and MOD-13 improved are GM calls; MOD-08 cover; MOD-14
    total): against the creatures in ``against`` (everyone when empty), for ``rounds`` rounds or until ended.
    Attacks use it when it beats the map's cover; ``cover: none`` ends it (for those ``against`` if given)."""

    type: Literal["impose_cover"] = "impose_cover"
    target: str
    cover: Literal["none", "partial", "cover", "improved", "total"]
    against: tuple[str, ...] = ()
    rounds: int | None = Field(None, ge=1, le=100_000)


Command = Annotated[
    Begin
    | Attack
    | FullAttack
    | Move
    | GuardedStep
    | Crawl
    | Withdraw
    | Run
    | Charge
    | MinimumMove
    | Reload
    | Draw
    | Sheathe
    | DropItem
    | ChangeGrip
    | Manipulate
    | PickUp
    | ThrowGrenade
    | UseAbility
    | Search
    | ManeuverCmd
    | Escape
    | RemoveDirtyTrick
    | CoveringFire
    | HarryingFire
    | Feint
    | CoupDeGrace
    | TotalDefense
    | DropProne
    | StandUp
    | Delay
    | Resume
    | Ready
    | Trigger
    | EndTurn
    | StabilizeWithResolve
    | StayInTheFight
    | FirstAid
    | Damage
    | Heal
    | AddCondition
    | RemoveCondition
    | Join
    | EndCombat
    | AbilityDamage
    | RestoreAbility
    | NegativeLevels
    | RemoveNegativeLevels
    | AddEffect
    | EndEffect
    | Dismiss
    | Rest
    | Wake
    | RightYourself
    | Willing
    | AreaEffect
    | Check
    | StabilityCheck
    | Smother
    | ImposeCover
    | Strike
    | Stride
    | Step
    | Leap
    | Interact
    | TakeCover
    | Seek
    | BasicSave
    | Drive
    | Race
    | Ram
    | RunOver
    | Pilot
    | Board
    | Disembark
    | FireVehicleWeapon,
    Field(discriminator="type"),
]

COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(Command)
COMMANDS_ADAPTER: TypeAdapter[list[Command]] = TypeAdapter(list[Command])


def parse_command(data: object, where: str = "") -> Command:
    """A command from plain data (``{"type": "attack", "actor": ..., ...}``); a :class:`CommandError` naming the
    field (under ``where``) when it is not a well-formed command."""
    try:
        return COMMAND_ADAPTER.validate_python(data)
    except ValidationError as e:
        raise CommandError(*first_problem(e, where)) from None


def command_actor(cmd: Command) -> str | None:
    return getattr(cmd, "actor", None)
