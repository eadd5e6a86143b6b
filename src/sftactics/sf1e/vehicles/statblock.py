"""Vehicle stat blocks: what a vehicle *is* (VEH-02, X-14). Its live values are in ``state.py``.

The seeds never print a vehicle stat block; they only refer to its entries (item level, Speed with drive speed,
full speed and MPH, EAC/KAC, cover, Hit Points, hardness, Attack (Collision) with damage and DC, Modifiers with
the Piloting modifier and the attack penalty - a larger one in parentheses at full speed -, Systems with
autopilot and autocontrol, passengers, weapons). :class:`VehicleStat` holds exactly those entries, in the style of
:class:`~sftactics.sf1e.statblock.StatBlock`: a frozen pydantic model, unknown keys are errors.

YAML form (see ``docs/vehicles.md``)::

    name: Basic enercycle
    item_level: 1
    size: large
    speed: {drive_ft: 20, full_ft: 200, mph: 22}
    eac: 10
    kac: 12
    cover: none
    hp: 7
    broken_threshold: 3
    hardness: 5
    collision: {damage: 2d4 B, dc: 8}
    modifiers: {piloting: 2, attack: -1, attack_full_speed: -2}
    crew: {pilots: 1, passengers: 1}
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from sftactics.dice.expr import DiceExpr, parse
from sftactics.grid.space import SIZES
from sftactics.grid.space import Size as GridSize
from sftactics.sf1e.limits import DiceText
from sftactics.sf1e.statblock import NameSet, Size, Weapon

CoverName = Literal["none", "partial", "cover", "improved", "total"]
#: Movement modes a vehicle speed can have.
VEHICLE_MODES = frozenset({"land", "hover", "fly", "swim", "burrow", "climb"})
#: Broad kinds of vehicle (chase environments can treat them differently, CHS-33).
VEHICLE_KINDS = frozenset({"land", "air", "water", "space", "burrowing"})


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Speed(_Model):
    """The Speed entry: ``drive_ft`` per drive action, ``full_ft`` per race, overland ``mph``; ``modes`` says how
    it moves (land, hover, fly, swim, burrow, climb)."""

    drive_ft: int = Field(ge=0)
    full_ft: int = Field(ge=0)
    mph: int = Field(0, ge=0)
    modes: NameSet = frozenset({"land"})

    @field_validator("modes")
    @classmethod
    def _known_modes(cls, v: frozenset[str]) -> frozenset[str]:
        bad = sorted(v - VEHICLE_MODES)
        if bad:
            raise ValueError(f"unknown movement mode(s) {bad} (known: {', '.join(sorted(VEHICLE_MODES))})")
        return v

    @model_validator(mode="after")
    def _full_not_slower(self) -> Speed:
        if self.full_ft < self.drive_ft:
            raise ValueError(f"full speed {self.full_ft} ft is slower than drive speed {self.drive_ft} ft")
        return self


class Collision(_Model):
    """The Attack (Collision) entry: the collision damage (a dice expression, normally bludgeoning) and the
    collision DC (Reflex saves against rams and run overs). ``ignores_hardness``: points of a target's hardness
    the collision ignores (some vehicles have it)."""

    damage: DiceText
    dc: int = Field(ge=0)
    ignores_hardness: int = Field(0, ge=0)

    @property
    def expr(self) -> DiceExpr:
        """The damage as an expression, bludgeoning when the entry gives no type."""
        e = parse(self.damage)
        return e.typed(frozenset({"bludgeoning"}))


class Modifiers(_Model):
    """The Modifiers entry: the vehicle's modifier to its pilot's Piloting checks, the attack penalty for anyone
    attacking from it while it moves, and the larger penalty while it moves at full speed (the number in
    parentheses; the normal penalty if none is printed)."""

    piloting: int = 0
    attack: int = Field(0, le=0)
    attack_full_speed: int | None = Field(None, le=0)

    @model_validator(mode="after")
    def _full_speed_not_better(self) -> Modifiers:
        if self.attack_full_speed is not None and self.attack_full_speed > self.attack:
            raise ValueError(
                f"attack_full_speed {self.attack_full_speed} is a smaller penalty than attack {self.attack}"
            )
        return self

    @property
    def full_speed_attack(self) -> int:
        return self.attack if self.attack_full_speed is None else self.attack_full_speed


class Systems(_Model):
    """The Systems entry, as far as the rules use it: the autopilot's Piloting modifier (None: no autopilot),
    autocontrol, whether the autopilot is programmed as a war machine (it may then ram and run over, VEH-27), how
    many move actions starting the vehicle takes (VEH-16), and the other systems by name."""

    autopilot: int | None = None
    autocontrol: bool = False
    war_machine: bool = False
    start_actions: int = Field(1, ge=1)
    other: tuple[str, ...] = ()


class Crew(_Model):
    """Who rides: pilots, other crew and passengers (how many of each the vehicle holds)."""

    pilots: int = Field(1, ge=0)
    crew: int = Field(0, ge=0)
    passengers: int = Field(0, ge=0)


class Dimensions(_Model):
    length_ft: float = Field(gt=0)
    width_ft: float = Field(gt=0)
    height_ft: float = Field(gt=0)


class VehicleWeapon(_Model):
    """A mounted weapon. ``pilot_controlled``: bound to the steering or the control panel, so the pilot can fire
    it (VEH-29); otherwise a dedicated gunner fires it."""

    weapon: Weapon
    pilot_controlled: bool = False


class VehicleStat(_Model):
    name: str
    item_level: int = Field(ge=0)
    price: int | None = Field(None, ge=0)
    size: Size = "large"
    kinds: NameSet = Field(frozenset({"land"}), description="land, air, water, space, burrowing")
    dimensions: Dimensions | None = None
    speed: Speed
    other_speeds: dict[str, Speed] = Field(default_factory=dict, description="alternative speeds by name")
    eac: int
    kac: int
    cover: CoverName = "none"
    hp: int = Field(ge=1)
    broken_threshold: int | None = Field(None, ge=0, description="the printed HP threshold for broken")
    hardness: int = Field(0, ge=0)
    collision: Collision
    modifiers: Modifiers = Modifiers()
    systems: Systems = Systems()
    crew: Crew = Crew()
    weapons: tuple[VehicleWeapon, ...] = ()
    source: str = ""

    @field_validator("kinds")
    @classmethod
    def _known_kinds(cls, v: frozenset[str]) -> frozenset[str]:
        bad = sorted(v - VEHICLE_KINDS)
        if bad:
            raise ValueError(f"unknown vehicle kind(s) {bad} (known: {', '.join(sorted(VEHICLE_KINDS))})")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> VehicleStat:
        if self.broken_threshold is not None and self.broken_threshold >= self.hp:
            raise ValueError(f"broken_threshold {self.broken_threshold} must be below hp {self.hp}")
        return self

    @property
    def grid_size(self) -> GridSize:
        return GridSize(self.size)

    @property
    def side_squares(self) -> int:
        """Squares per side of the vehicle's space on the grid (Table 8-1, as for a creature of its size)."""
        return SIZES[self.grid_size].side

    @property
    def threshold(self) -> int:
        """The HP at or below which the vehicle is broken: the printed threshold, or half its HP."""
        return self.broken_threshold if self.broken_threshold is not None else self.hp // 2

    def weapon(self, name: str) -> VehicleWeapon:
        for w in self.weapons:
            if w.weapon.name.lower() == name.lower():
                return w
        from sftactics.core.errors import SftError

        names = ", ".join(w.weapon.name for w in self.weapons) or "none"
        raise SftError(f"{self.name} has no mounted weapon named {name!r} (has: {names})")


__all__ = [
    "VEHICLE_KINDS",
    "VEHICLE_MODES",
    "Collision",
    "CoverName",
    "Crew",
    "Dimensions",
    "Modifiers",
    "Speed",
    "Systems",
    "VehicleStat",
    "VehicleWeapon",
]
