"""The 2E commands (the 1E ``begin``, ``end_turn``, ``drop_prone``, ``stand_up``, ``crawl`` and ``end_combat``
serve both editions). Each costs what the 2E action costs: one action unless said otherwise (E2-42, E2-50)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from sftactics.sf1e.limits import CommandSquare, Name

#: The 2E damage types by name (E2-21; ``sftactics.sf2e.damage_types.DamageType``).
DamageTypeName = Literal["bludgeoning", "piercing", "slashing", "acid", "cold", "electricity", "fire", "sonic",
                         "vitality", "void", "force", "spirit", "mental", "poison", "bleed", "precision"]  # fmt: skip


class _Cmd(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Strike(_Cmd):
    """2E: Strike (one action): an attack roll against the target's AC with one of your Strikes; each attack after
    the first this turn takes the multiple attack penalty (E2-13, E2-50). ``hero_point``: if the attack roll
    fails, spend a Hero Point to reroll it and keep the second result (E2-72)."""

    type: Literal["strike"] = "strike"
    actor: str
    target: str
    weapon: str | None = None
    hero_point: bool = False


class Stride(_Cmd):
    """2E: Stride (one action): move up to your Speed, to a square or along a path (E2-64)."""

    type: Literal["stride"] = "stride"
    actor: str
    to: CommandSquare | None = None
    path: tuple[CommandSquare, ...] | None = None


class Step(_Cmd):
    """2E: Step (one action): move 5 ft to an adjacent square; it triggers no reactions (E2-64). At the table the
    verb ``step`` takes it in a 2E fight (``step_2e``: the 1E ``step`` verb is the guarded step)."""

    type: Literal["step_2e"] = "step_2e"
    actor: str
    to: CommandSquare


class Leap(_Cmd):
    """2E: Leap (one action): jump up to 10 ft horizontally without a check, landing on ``to`` (E2-50)."""

    type: Literal["leap"] = "leap"
    actor: str
    to: CommandSquare


class Interact(_Cmd):
    """2E: Interact (one action): draw a weapon, pick up an object, open a door, shake a creature awake (E2-50,
    E2-41). ``what`` says what; ``target``: an adjacent creature being shaken awake."""

    type: Literal["interact"] = "interact"
    actor: str
    what: str = Field("", max_length=200)
    target: str | None = None


class TakeCover(_Cmd):
    """2E: Take Cover (one action): the cover you have counts one degree better until you move, attack or your
    next turn starts (an assumption: the seed names cover but not this action; docs/sf2e.md)."""

    type: Literal["take_cover"] = "take_cover"
    actor: str


class Seek(_Cmd):
    """2E: Seek (one action): a Perception check against the Stealth DC of each opponent hidden from you,
    undetected or unnoticed (E2-50, E2-55, E2-61); ``targets`` limits it to those named."""

    type: Literal["seek"] = "seek"
    actor: str
    targets: tuple[Name, ...] = ()


class BasicSave(_Cmd):
    """2E, the GM: an area effect with a basic save (E2-17): ``damage`` of ``damage_type`` rolled once, each of
        ``targets`` rolls its ``save`` against ``dc``: critical success none, success half, failure full, critical
        failure double. ``persistent``: persistent damage dice of the same type it also starts (none on a critical
    success, doubled on a critical failure: ``Sf2eOptions.persistent_on_critical``)."""

    type: Literal["basic_save"] = "basic_save"
    source: str = Field("area effect", max_length=80)
    targets: tuple[Name, ...] = ()
    at: CommandSquare | None = Field(None, description="a burst's centre: the grid intersection at the top left of x,y")
    burst_ft: int | None = Field(None, ge=5, le=500, description="a burst's radius: everyone in it saves")
    save: Literal["fortitude", "reflex", "will"] = "reflex"
    dc: int = Field(ge=1, le=60)
    damage: str = Field(max_length=40)
    damage_type: DamageTypeName
    persistent: str | None = Field(None, max_length=40)
    death_effect: bool = Field(False, description="a death effect: a creature it takes to 0 HP dies (E2-38)")
    hero_point: tuple[Name, ...] = Field(
        (), description="targets that spend a Hero Point to reroll a failed save, keeping the second result (E2-72)"
    )
