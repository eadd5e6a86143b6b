"""What the Foundry VTT importer (``io.foundry``) gives back: a :class:`Note` for every normalisation it made, the
:class:`SpecialAbility` entries of a creature (usable or kept by name), one :class:`ImportResult` per actor and the
:class:`ImportReport` of a run over files and folders; and the Foundry actor and item types the importer knows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from sftactics.core.errors import FileFormatError
from sftactics.sf1e.statblock import StatBlock

# ----------------------------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Note:
    """One normalisation (or warning) the importer made for a creature.

    ``code`` groups them (``cr``, ``space``, ``reach``, ``speed``, ``senses``, ``duplicate``, ``formula``,
    ``damage``, ``critical``, ``range``, ``area``, ``ability``, ``immunity``, ``resistance``, ``dr``,
    ``modifier``, ``rp``, ``suspicious``, ``renamed``, ``unsupported``...), ``field`` is where in the Foundry
    data it comes from, ``message`` says what was done."""

    code: str
    field: str
    message: str

    def line(self) -> str:
        where = f"{self.field}: " if self.field else ""
        return f"[{self.code}] {where}{self.message}"


@dataclass(frozen=True, slots=True)
class SpecialAbility:
    """A special ability (a Foundry ``feat`` item or a spell): imported as a usable attack or kept by name."""

    name: str
    usable: bool
    kind: str = "ability"  # ability, spell, swarm
    detail: str = ""


@dataclass(slots=True)
class ImportResult:
    """One actor read from Foundry data: its stat block (None when the actor type is not supported) and what
    the importer did to get it."""

    source: str
    name: str
    actor_type: str
    statblock: StatBlock | None
    notes: list[Note] = field(default_factory=list)
    abilities: list[SpecialAbility] = field(default_factory=list)
    senses: str = ""
    cr_known: bool = True
    written: Path | None = None
    vehicle: Any = None  # a VehicleStat for a vehicle actor (io.foundry_vehicles)

    @property
    def supported(self) -> bool:
        return self.statblock is not None or self.vehicle is not None

    def notes_for(self, code: str) -> list[Note]:
        return [n for n in self.notes if n.code == code]


@dataclass(slots=True)
class ImportReport:
    """An importer run over files and folders: the results in order, and the files that failed."""

    results: list[ImportResult] = field(default_factory=list)
    failed: list[FileFormatError] = field(default_factory=list)

    @property
    def imported(self) -> list[ImportResult]:
        return [r for r in self.results if r.statblock is not None]

    @property
    def vehicles(self) -> list[ImportResult]:
        return [r for r in self.results if r.vehicle is not None]

    @property
    def unsupported(self) -> list[ImportResult]:
        return [r for r in self.results if not r.supported]

    def lines(self) -> list[str]:
        """The report for people: every creature with its normalisations, then failures and a summary."""
        out: list[str] = []
        for r in self.imported:
            sb = r.statblock
            assert sb is not None
            cr = sb.cr if r.cr_known else "unknown"
            dest = f" -> {r.written}" if r.written is not None else ""
            out.append(f"{r.source}: {r.name} (CR {cr}){dest}")
            if not r.notes:
                out.append("  (no normalisation needed)")
            for n in r.notes:
                out.append(f"  - {n.line()}")
        for r in self.vehicles:
            dest = f" -> {r.written}" if r.written is not None else ""
            out.append(f"{r.source}: {r.name} (vehicle, item level {r.vehicle.item_level}){dest}")
            if not r.notes:
                out.append("  (no normalisation needed)")
            for n in r.notes:
                out.append(f"  - {n.line()}")
        items = [r for r in self.unsupported if r.actor_type in ITEM_TYPES]
        actors = [r for r in self.unsupported if r.actor_type not in ITEM_TYPES]
        if actors:
            out.append("")
            out.append("Not supported yet:")
            for r in actors:
                out.append(f"  {r.source}: {r.name} ({r.actor_type}): {r.notes[0].message if r.notes else ''}")
        if items:
            kinds: dict[str, int] = {}
            for r in items:
                kinds[r.actor_type] = kinds.get(r.actor_type, 0) + 1
            out.append("")
            shown = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
            out.append(f"Skipped {len(items)} item file(s), not actors: {shown}")
        if self.failed:
            out.append("")
            out.append("Failed:")
            for e in self.failed:
                out.append(f"  error: {e}")
        out.append("")
        normalised = sum(1 for r in self.imported if r.notes)
        out.append(
            f"{len(self.imported)} creature(s) imported ({normalised} with normalisations), "
            + (f"{len(self.vehicles)} vehicle(s) imported, " if self.vehicles else "")
            + f"{len(actors)} not supported, {len(items)} item(s) skipped, {len(self.failed)} file(s) failed."
        )
        return out


# ----------------------------------------------------------------------------------------------- actor types

#: Actor types that are vehicles (read by ``io.foundry_vehicles``).
VEHICLE_TYPES: Final = frozenset({"vehicle"})
#: Actor types that are creatures we can read.
CREATURE_TYPES: Final = frozenset({"npc2", "npc", "character"})
#: Actor types we know but do not import yet.
UNSUPPORTED_TYPES: Final[dict[str, str]] = {
    "starship": "starships are not supported",
    "hazard": "hazards are not supported",
    "drone": "drones are not supported yet",
}

#: Foundry item (not actor) types: a compendium folder may hold them; they are skipped, not errors.
ITEM_TYPES: Final = frozenset({
    "weapon", "equipment", "ammunition", "effect", "actorResource", "feat", "spell", "consumable", "goods",
    "technological", "upgrade", "augmentation", "fusion", "container", "race", "theme", "class", "archetypes",
    "asi", "shield", "magic", "hybrid", "weaponAccessory", "chassis", "mod", "condition", "starshipWeapon",
    "starshipComponent", "vehicleAttack", "vehicleSystem",
})  # fmt: skip
