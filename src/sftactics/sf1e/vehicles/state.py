"""A vehicle's live state, the numbers derived from it, and damage to it (VEH-01, VEH-03, VEH-32, X-14).

A vehicle is an object (VEH-01): it has no actions of its own. Its state says who controls it (a pilot, an
autopilot, its autocontrol, or nobody), where it heads, whether and how it moved, and its Hit Points.

Broken and wrecked (VEH-32, CON-04): a broken vehicle takes -2 to its AC and its collision DC, its Piloting
modifier drops by 2, and its full speed and MPH are halved (rounded down to a 5-ft multiple for the speed). At 0
Hit Points it is wrecked and can no longer move. When it is broken depends on ``VehicleOptions.broken_at``.

Damage (DMG-15, MAN-11): the vehicle's hardness comes off each hit (less what the attack ignores), unless
``VehicleOptions.hardness_vs_attacks`` is ``ignored``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from sftactics.core.breakdown import BonusType, Breakdown, Term, explain
from sftactics.core.errors import RuleViolation
from sftactics.sf1e.statblock import NameSet
from sftactics.sf1e.vehicles.options import DEFAULT_VEHICLE_OPTIONS, VehicleOptions
from sftactics.sf1e.vehicles.statblock import VehicleStat

B = BonusType.BASE

Heading = Literal["N", "E", "S", "W"]
HEADINGS: tuple[Heading, ...] = ("N", "E", "S", "W")
Control = Literal["pilot", "autopilot", "autocontrol", "uncontrolled"]
MoveAction = Literal["drive", "race", "ram", "run_over", "uncontrolled", "autocontrol"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class VehicleState(_Model):
    """What changes during a fight.

    * ``control``/``pilot``/``initiative``: who controls it and on which initiative count it moves (VEH-05,
      VEH-23: an uncontrolled vehicle keeps the count it had);
    * ``heading``: the edge of its space it faces (VEH-03); ``position``: the top-left square of its space;
    * ``moving``: not stopped (attack penalties apply, VEH-28); ``moved_this_round``/``moved_last_round``: a
      vehicle that did not move last round starts a race from a dead stop (VEH-06);
      ``raced_this_round``/``raced_last_round``: it moved at full speed during the last round (VEH-28);
    * ``last_action`` and ``last_move_ft``: the last movement (VEH-09, VEH-24, VEH-26); ``last_piloting``: the
      most recent Piloting result (autocontrol reuses it, VEH-26);
    * ``run_over``: creatures it has run over this round (once per round each, VEH-13).
    """

    hp: int
    heading: Heading = "N"
    position: tuple[int, int] | None = None
    started: bool = False
    control: Control = "uncontrolled"
    pilot: str | None = None
    initiative: int | None = None
    moving: bool = False
    moved_this_round: bool = False
    moved_last_round: bool = False
    raced_this_round: bool = False
    raced_last_round: bool = False
    last_action: MoveAction | None = None
    last_move_ft: int = 0
    last_piloting: int | None = None
    destination: tuple[int, int] | None = None
    run_over: NameSet = frozenset()


class Vehicle(_Model):
    """A vehicle stat block and its live state; ``id`` tells vehicles with the same stat block apart."""

    id: str
    stat: VehicleStat
    state: VehicleState

    @classmethod
    def fresh(
        cls,
        stat: VehicleStat,
        id: str | None = None,
        *,
        heading: Heading = "N",
        position: tuple[int, int] | None = None,
        started: bool = False,
        pilot: str | None = None,
        initiative: int | None = None,
    ) -> Vehicle:
        """An undamaged, stopped vehicle; with a ``pilot`` it is under that pilot's control."""
        return cls(
            id=id or stat.name,
            stat=stat,
            state=VehicleState(
                hp=stat.hp,
                heading=heading,
                position=position,
                started=started,
                control="pilot" if pilot else "uncontrolled",
                pilot=pilot,
                initiative=initiative,
            ),
        )

    @property
    def name(self) -> str:
        return self.id

    def with_state(self, **changes: object) -> Vehicle:
        return self.model_copy(update={"state": self.state.model_copy(update=changes)})

    @property
    def controlled(self) -> bool:
        """A pilot or an autopilot controls it (an engaged autocontrol leaves it uncontrolled, VEH-26)."""
        return self.state.control in ("pilot", "autopilot")

    @property
    def wrecked(self) -> bool:
        """At 0 Hit Points a vehicle is wrecked (VEH-32, sample chase)."""
        return self.state.hp <= 0


# ---------------------------------------------------------------- broken and the numbers it changes


def is_broken(v: Vehicle, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> bool:
    """VEH-32: broken at or below the HP threshold, or (option ``half``) after losing more than half its HP."""
    if v.wrecked:
        return True
    if options.broken_at == "half":
        return 2 * (v.stat.hp - v.state.hp) > v.stat.hp
    return v.state.hp <= v.stat.threshold


def _broken_term(v: Vehicle, label: str, options: VehicleOptions) -> list[Term]:
    return [Term(-2, f"broken ({label})", "VEH-32", source="broken")] if is_broken(v, options) else []


def armor_class(
    v: Vehicle,
    kind: Literal["eac", "kac"],
    extra: tuple[Term, ...] = (),
    *,
    tags: frozenset[str] = frozenset(),
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> Breakdown:
    """The vehicle's EAC or KAC: the printed number, -2 when broken (VEH-32), plus ``extra`` (evade, racing)."""
    printed = v.stat.eac if kind == "eac" else v.stat.kac
    terms = [Term(printed, f"{v.stat.name} {kind.upper()}", "VEH-02", B), *_broken_term(v, "AC", options), *extra]
    return explain(f"{v.name} {kind.upper()}", terms, tags=tags)


def collision_dc(v: Vehicle, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> Breakdown:
    """The collision DC (Attack (Collision) entry), -2 when broken (VEH-32)."""
    terms = [Term(v.stat.collision.dc, "collision DC", "VEH-02", B), *_broken_term(v, "collision DC", options)]
    return explain(f"{v.name} collision DC", terms)


def piloting_modifier(v: Vehicle, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> Breakdown:
    """The vehicle's modifier to Piloting checks (Modifiers entry), 2 lower when broken (VEH-32)."""
    terms = [
        Term(v.stat.modifiers.piloting, f"{v.stat.name} Piloting modifier", "VEH-02", B),
        *_broken_term(v, "Piloting modifier", options),
    ]
    return explain(f"{v.name} Piloting modifier", terms)


def _halved_speed(feet: int) -> int:
    return (feet // 2) // 5 * 5


def full_speed(v: Vehicle, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> Breakdown:
    """Full speed in feet per race; halved when broken (VEH-32), rounded down to a whole square."""
    full = v.stat.speed.full_ft
    terms = [Term(full, "full speed", "VEH-02", B)]
    if is_broken(v, options):
        terms.append(Term(_halved_speed(full) - full, "broken: full speed halved", "VEH-32", B))
    if v.wrecked:
        terms = [Term(0, "wrecked: cannot move", "VEH-32", B)]
    return explain(f"{v.name} full speed", terms)


def drive_speed(v: Vehicle, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> Breakdown:
    """Drive speed in feet per drive action (broken does not change it; a wrecked vehicle does not move)."""
    if v.wrecked:
        return explain(f"{v.name} drive speed", [Term(0, "wrecked: cannot move", "VEH-32", B)])
    return explain(f"{v.name} drive speed", [Term(v.stat.speed.drive_ft, "drive speed", "VEH-02", B)])


def mph(v: Vehicle, options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS) -> Breakdown:
    """Overland speed in miles per hour; halved (rounded down) when broken (VEH-32)."""
    m = v.stat.speed.mph
    terms = [Term(m, "overland speed (mph)", "VEH-02", B)]
    if is_broken(v, options):
        terms.append(Term(m // 2 - m, "broken: MPH halved", "VEH-32", B))
    return explain(f"{v.name} MPH", terms)


# ---------------------------------------------------------------- damage


@dataclass(frozen=True, slots=True)
class VehicleDamage:
    """Damage taken by a vehicle: the new vehicle, the HP lost and the ledger."""

    vehicle: Vehicle
    dealt: int
    lines: tuple[str, ...]
    became_broken: bool = False
    wrecked: bool = False


def damage_vehicle(
    v: Vehicle,
    amount: int,
    *,
    ignores_hardness: int = 0,
    source: str = "",
    options: VehicleOptions = DEFAULT_VEHICLE_OPTIONS,
) -> VehicleDamage:
    """``amount`` damage to a vehicle: hardness (less ``ignores_hardness``) comes off first (DMG-15, MAN-11,
    unless option ``hardness_vs_attacks`` is ``ignored``), then Hit Points, never below 0; broken and wrecked
    follow (VEH-32)."""
    if amount < 0:
        raise RuleViolation("DMG-15", f"damage cannot be negative ({amount})")
    what = f" from {source}" if source else ""
    if v.wrecked:
        return VehicleDamage(v, 0, (f"{v.name} is already wrecked: {amount} damage{what} changes nothing [VEH-32]",))
    hardness = 0 if options.hardness_vs_attacks == "ignored" else max(0, v.stat.hardness - ignores_hardness)
    dealt = min(v.state.hp, max(0, amount - hardness))
    if options.hardness_vs_attacks == "ignored":
        lines = [f"{v.name} takes {amount} damage{what} (hardness ignored by option) [DMG-15]"]
    else:
        ign = f" (ignoring {ignores_hardness})" if ignores_hardness else ""
        lines = [
            f"{v.name} takes {amount} damage{what} - hardness {hardness}{ign} = {max(0, amount - hardness)} [DMG-15]"
        ]
    was_broken = is_broken(v, options)
    new = v.with_state(hp=v.state.hp - dealt)
    lines.append(f"{v.name}: {v.state.hp} -> {new.state.hp} HP")
    became_broken = False
    if new.wrecked:
        new = new.with_state(moving=False)
        lines.append(f"{v.name} is wrecked (0 HP) [VEH-32]")
    elif is_broken(new, options) and not was_broken:
        became_broken = True
        lines.append(
            f"{v.name} is broken: -2 AC, collision DC and Piloting modifier; full speed and MPH halved [VEH-32]"
        )
    return VehicleDamage(new, dealt, tuple(lines), became_broken, new.wrecked)


def repair(v: Vehicle, hp: int) -> Vehicle:
    """Hit Points restored (a repair or a *mending*), never above the maximum."""
    return v.with_state(hp=min(v.stat.hp, v.state.hp + max(0, hp)))


__all__ = [
    "HEADINGS",
    "Control",
    "Heading",
    "MoveAction",
    "Vehicle",
    "VehicleDamage",
    "VehicleState",
    "armor_class",
    "collision_dc",
    "damage_vehicle",
    "drive_speed",
    "full_speed",
    "is_broken",
    "mph",
    "piloting_modifier",
    "repair",
]
