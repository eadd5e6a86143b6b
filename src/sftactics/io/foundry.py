"""Foundry VTT Starfinder (``sfrpg`` system) actors into sftactics stat blocks.

A GM's creatures already live in Foundry; this module reads an exported actor (JSON, type ``npc2``, the older
``npc``, or ``character`` where the same fields exist) or a folder of them, and builds our
:class:`~sftactics.sf1e.statblock.StatBlock`. Every number is the printed total Foundry stores; where the data
has to be interpreted (a CR stored as 0, reach written as text, a duplicate weapon entry, a formula with
``@abilities.str.mod``, an ability whose numbers cannot be read) the importer says so in a :class:`Note` on the
creature's :class:`ImportResult`. See ``docs/import.md`` for the field-by-field mapping.

Errors: anything unreadable raises :class:`~sftactics.core.errors.FileFormatError` naming the file, the field
(a dotted path such as ``items[3] "Slam".system.attackBonus``) and what was expected. Nothing else escapes
:func:`import_actor` or :func:`load_actor`; :func:`import_paths` goes on past a bad file and reports it.

Vehicles (and starships, hazards, drones) are reported as not supported yet, not imported.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, NoReturn, Protocol

from pydantic import ValidationError

from sftactics.core.errors import DiceError, FileFormatError
from sftactics.dice.expr import parse
from sftactics.io.files import read_text
from sftactics.sf1e.statblock import Area, StatBlock, Weapon

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


# ----------------------------------------------------------------------------------------------- reading

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

_BOUND: Final = 1_000_000


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return f"a boolean ({str(v).lower()})"
    if isinstance(v, str):
        return f"text {v[:40]!r}"
    if isinstance(v, (int, float)):
        return f"the number {v!r}"
    if isinstance(v, Mapping):
        return "an object"
    if isinstance(v, list):
        return "a list"
    return type(v).__name__


class _Ctx:
    """Where we are: the file, and the notes collected for the creature."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.notes: list[Note] = []

    def fail(self, path: str, expected: str) -> NoReturn:
        raise FileFormatError(self.file, path, expected)

    def note(self, code: str, path: str, message: str) -> None:
        n = Note(code, path, message)
        if n not in self.notes:
            self.notes.append(n)

    # --- typed access -------------------------------------------------------------------------------------
    def obj(self, parent: Mapping[str, Any], key: str, path: str, *, required: bool = False) -> Mapping[str, Any]:
        v = parent.get(key)
        if v is None:
            if required:
                self.fail(path, "required field is missing")
            return {}
        if not isinstance(v, Mapping):
            self.fail(path, f"an object, got {_kind(v)}")
        return v

    def lst(self, parent: Mapping[str, Any], key: str, path: str) -> list[Any]:
        v = parent.get(key)
        if v is None:
            return []
        if not isinstance(v, list):
            self.fail(path, f"a list, got {_kind(v)}")
        return v

    def text(self, parent: Mapping[str, Any], key: str, path: str, *, required: bool = False) -> str:
        v = parent.get(key)
        if v is None:
            if required:
                self.fail(path, "required field is missing")
            return ""
        if isinstance(v, bool) or not isinstance(v, (str, int, float)):
            self.fail(path, f"text, got {_kind(v)}")
        if isinstance(v, float) and not math.isfinite(v):
            self.fail(path, f"text, got {_kind(v)}")
        if isinstance(v, str) and _CONTROL.search(v):
            self.fail(path, "text without control characters (a stat block written with one cannot be read back)")
        return str(v)

    def to_int(self, v: Any, path: str, *, lo: int = -_BOUND, hi: int = _BOUND) -> int:
        out: int | None = None
        if isinstance(v, bool):
            out = None
        elif isinstance(v, int):
            out = v
        elif (isinstance(v, float) and math.isfinite(v) and v.is_integer()) or (
            isinstance(v, str) and re.fullmatch(r"\s*[+-]?\d{1,9}\s*", v)
        ):
            out = int(v)
        if out is None:
            self.fail(path, f"a whole number, got {_kind(v)}")
        if not lo <= out <= hi:
            self.fail(path, f"a whole number from {lo} to {hi}, got {out}")
        return out

    def num(
        self, parent: Mapping[str, Any], key: str, path: str, *, required: bool = False, default: int = 0,
        lo: int = -_BOUND, hi: int = _BOUND,
    ) -> int:  # fmt: skip
        v = parent.get(key)
        if v is None or v == "":
            if required:
                self.fail(path, "required field is missing")
            return default
        return self.to_int(v, path, lo=lo, hi=hi)


def load_actor(path: str | Path) -> ImportResult:
    """Read one Foundry actor JSON file."""
    results = load_actors(path)
    if len(results) != 1:
        raise FileFormatError(str(path), "", f"one actor, found {len(results)}")
    return results[0]


def load_actors(path: str | Path) -> list[ImportResult]:
    """Read a Foundry JSON file: one actor, or a list of actors (each read as ``file[i]``)."""
    p = Path(path)
    name = str(p)
    text = read_text(p)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise FileFormatError(name, f"line {e.lineno} column {e.colno}", f"valid JSON ({e.msg})") from None
    except RecursionError:
        raise FileFormatError(name, "", "valid JSON (nested too deeply)") from None
    if isinstance(data, list):
        return [import_actor(d, source=f"{name}[{i}]") for i, d in enumerate(data)]
    return [import_actor(data, source=name)]


def import_actor(data: Any, *, source: str = "<data>") -> ImportResult:
    """Import one actor (already parsed JSON). Raises FileFormatError (and nothing else) on bad data."""
    ctx = _Ctx(source)
    if not isinstance(data, Mapping):
        ctx.fail("", f"a Foundry actor (a JSON object), got {_kind(data)}")
    name = ctx.text(data, "name", "name", required=True).strip()
    if not name:
        ctx.fail("name", "a name, got empty text")
    actor_type = ctx.text(data, "type", "type", required=True)
    if actor_type in VEHICLE_TYPES:
        from sftactics.io.foundry_vehicles import vehicle_from_foundry

        imp = vehicle_from_foundry(data, source=source)
        notes = [Note(n.code, n.field, n.message) for n in imp.notes]
        return ImportResult(source, name, actor_type, None, notes, vehicle=imp.stat)
    if actor_type in UNSUPPORTED_TYPES:
        note = Note("unsupported", "type", UNSUPPORTED_TYPES[actor_type])
        return ImportResult(source, name, actor_type, None, [note])
    if actor_type in ITEM_TYPES:
        note = Note("not-an-actor", "type", f"a Foundry item ({actor_type}), not an actor: skipped")
        return ImportResult(source, name, actor_type, None, [note])
    if actor_type not in CREATURE_TYPES:
        known = ", ".join(sorted(CREATURE_TYPES | VEHICLE_TYPES | set(UNSUPPORTED_TYPES)))
        ctx.fail("type", f"a Foundry actor type ({known}), got {actor_type!r}")
    try:
        return _Creature(ctx, data, name, actor_type).build()
    except DiceError as e:  # pragma: no cover - every formula is checked where it is read
        ctx.fail("", f"a readable dice expression ({e})")
    except RecursionError:  # pragma: no cover
        ctx.fail("", "data nested too deeply")


# ----------------------------------------------------------------------------------------------- tables

SIZES: Final = ("fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan", "colossal")
#: Space and (tall) natural reach by size (CRB p. 255), used when the data gives none.
SIZE_SPACE: Final[dict[str, float]] = {
    "fine": 0.5, "diminutive": 1, "tiny": 2.5, "small": 5, "medium": 5, "large": 10, "huge": 15,
    "gargantuan": 20, "colossal": 30,
}  # fmt: skip
SIZE_REACH: Final[dict[str, int]] = {
    "fine": 0, "diminutive": 0, "tiny": 0, "small": 5, "medium": 5, "large": 10, "huge": 15, "gargantuan": 20,
    "colossal": 30,
}  # fmt: skip

SKILLS: Final[dict[str, str]] = {
    "acr": "acrobatics", "ath": "athletics", "blu": "bluff", "com": "computers", "cul": "culture",
    "dip": "diplomacy", "dis": "disguise", "eng": "engineering", "int": "intimidate", "lsc": "life_science",
    "med": "medicine", "mys": "mysticism", "per": "perception", "phs": "physical_science", "pil": "piloting",
    "pro": "profession", "sen": "sense_motive", "sle": "sleight_of_hand", "ste": "stealth", "sur": "survival",
}  # fmt: skip

_SPEED_MODES: Final = (("land", "land"), ("climbing", "climb"), ("swimming", "swim"), ("burrowing", "burrow"),
                       ("flying", "fly"))  # fmt: skip
_MANEUVERABILITY: Final[dict[int, str]] = {-1: "clumsy", 0: "average", 1: "perfect"}

#: Foundry damage type keys and our abbreviations (DMG-08).
DAMAGE_ABBR: Final[dict[str, str]] = {
    "acid": "A", "bludgeoning": "B", "cold": "C", "electricity": "E", "fire": "F", "piercing": "P",
    "slashing": "S", "sonic": "So", "force": "force",
}  # fmt: skip
#: Damage types a weapon category implies, used when an entry lost its types.
CATEGORY_TYPES: Final[dict[str, str]] = {
    "laser": "F", "flame": "F", "plasma": "E & F", "shock": "E", "cryo": "C", "sonic": "So", "acid": "A",
    "corrosive": "A",
}  # fmt: skip

WEAPON_TYPES: Final[dict[str, str]] = {
    "basicM": "basic_melee", "advancedM": "advanced_melee", "smallA": "small_arm", "longA": "longarm",
    "heavy": "heavy", "sniper": "sniper", "grenade": "grenade", "special": "special", "solarian": "solarian",
}  # fmt: skip
MELEE_TYPES: Final = frozenset({"basicM", "advancedM", "solarian"})
RANGED_TYPES: Final = frozenset({"smallA", "longA", "heavy", "sniper", "grenade"})
_MELEE_CATS: Final = frozenset({"basic_melee", "advanced_melee", "solarian", "natural", "unarmed"})

SAVE_NAMES: Final[dict[str, str]] = {"fort": "fort", "fortitude": "fort", "reflex": "ref", "ref": "ref",
                                     "will": "will"}  # fmt: skip
ON_SAVE: Final[dict[str, str]] = {"half": "half", "negate": "negates", "negates": "negates", "partial": "partial"}

#: Universal creature rules' immunity packages (Alien Archive, appendix 4), restated as the words our
#: condition and damage rules read ("paralysis" keeps *paralyzed* off, "nonlethal" is the damage type...).
IMMUNITY_PACKAGES: Final[dict[str, tuple[str, ...]]] = {
    "construct immunities": (
        "bleed", "death effects", "disease", "mind-affecting effects", "necromancy effects", "paralysis",
        "poison", "sleep", "stunning", "ability damage", "ability drain", "energy drain", "exhausted",
        "fatigued", "negative levels", "nonlethal",
    ),
    "undead immunities": (
        "bleed", "death effects", "disease", "mind-affecting effects", "paralysis", "poison", "sleep",
        "stunning", "ability drain", "energy drain", "exhausted", "fatigued", "negative levels", "nonlethal",
    ),
    "elemental immunities": ("bleed", "critical hits", "paralysis", "poison", "sleep", "stunning"),
    "plant immunities": ("mind-affecting effects", "paralysis", "poison", "sleep", "stunning"),
    "ooze immunities": ("critical hits", "gaze effects", "illusions", "mind-affecting effects", "paralysis",
                        "poison", "polymorph", "sleep", "stunning", "visual effects", "flanking"),
    "swarm immunities": ("bull rush", "critical hits", "dirty trick", "disarm", "flanking", "grapple",
                         "reposition", "sunder", "trip"),
}  # fmt: skip

_MATERIALS: Final[dict[str, str]] = {"coldiron": "cold iron", "cold-iron": "cold iron", "cold_iron": "cold iron",
                                     "-": "—", "": "—"}  # fmt: skip
_SENSE_NAMES: Final = (
    "low-light vision", "darkvision", "blindsense", "blindsight", "see in darkness", "sense through", "sightless",
    "tremorsense", "telepathy", "limited telepathy", "scent",
)  # fmt: skip

# ----------------------------------------------------------------------------------------------- formulas

_REF = re.compile(r"@([A-Za-z0-9_.]+)")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_FLOOR_EXPR = re.compile(r"^[0-9+\-*/() ]*$")


def _eval_arith(text: str) -> int | None:
    """A whole number from + - * / ( ) and ``floor(...)`` (division is floored), or None if unreadable."""
    s = text.replace(" ", "").lower().replace("floor(", "(")
    if not s or not _FLOOR_EXPR.match(s) or len(s) > 200:
        return None
    pos = 0

    def expr() -> Fraction:
        nonlocal pos
        v = term()
        while pos < len(s) and s[pos] in "+-":
            op = s[pos]
            pos += 1
            w = term()
            v = v + w if op == "+" else v - w
        return v

    def term() -> Fraction:
        nonlocal pos
        v = atom()
        while pos < len(s) and s[pos] in "*/":
            op = s[pos]
            pos += 1
            w = atom()
            if op == "*":
                v = v * w
            else:
                if w == 0:
                    raise ValueError("division by zero")
                v = Fraction(math.floor(v / w))
        return v

    def atom() -> Fraction:
        nonlocal pos
        if pos < len(s) and s[pos] == "-":
            pos += 1
            return -atom()
        if pos < len(s) and s[pos] == "(":
            pos += 1
            v = expr()
            if pos >= len(s) or s[pos] != ")":
                raise ValueError("unbalanced")
            pos += 1
            return Fraction(math.floor(v))
        m = re.match(r"\d{1,9}", s[pos:])
        if not m:
            raise ValueError("number expected")
        pos += m.end()
        return Fraction(int(m.group(0)))

    try:
        v = expr()
    except (ValueError, RecursionError):
        return None
    if pos != len(s):
        return None
    return math.floor(v)


# ----------------------------------------------------------------------------------------------- weapon facts


@dataclass(slots=True)
class WeaponFacts:
    """What a Foundry weapon item says, in our terms, before creature-specific numbers (attack bonus, resolved
    formulas) are added. Shared by the creature importer and the armory generator."""

    name: str
    category: str
    melee: bool
    damage: str | None  # our dice expression with types, None when the item deals no damage
    damage_refs: list[str]  # @references left in the damage formula (e.g. "abilities.str.mod")
    raw_damage: list[tuple[str, list[str]]]
    targets: str | None
    range_ft: int
    thrown: bool
    reach: bool
    unwieldy: bool
    operative: bool
    nonlethal: bool
    two_handed: bool
    critical: str
    item_level: int
    capacity: int | None
    usage: int
    area: Area | None
    area_ft: int
    save_dc_text: str
    properties: list[str]
    weapon_type: str
    weapon_category: str
    materials: list[str]
    notes: list[tuple[str, str, str]]  # (code, field, message)


def _properties(ctx: _Ctx, sysd: Mapping[str, Any], path: str) -> list[str]:
    props = sysd.get("properties")
    if props is None:
        return []
    if not isinstance(props, Mapping):
        ctx.fail(f"{path}.properties", f"an object, got {_kind(props)}")
    out = []
    for k, v in props.items():
        on = v.get("value") if isinstance(v, Mapping) else v
        if on is True:
            out.append(str(k))
    return sorted(out)


def _damage_types(ctx: _Ctx, part: Mapping[str, Any], path: str) -> list[str]:
    types = part.get("types")
    if types is None:
        return []
    if isinstance(types, list):
        return [str(t) for t in types if isinstance(t, str)]
    if not isinstance(types, Mapping):
        ctx.fail(f"{path}.types", f"an object of damage types, got {_kind(types)}")
    return [str(k) for k, v in types.items() if v is True]


def _substitute(formula: str, values: Mapping[str, int]) -> tuple[str, list[str], list[str]]:
    """Replace @references with numbers: (formula, references resolved, references left)."""
    resolved: list[str] = []
    left: list[str] = []

    def repl(m: re.Match[str]) -> str:
        ref = m.group(1).rstrip(".")
        if ref in values:
            resolved.append(ref)
            return f"({values[ref]})"
        left.append(ref)
        return m.group(0)

    out = _REF.sub(repl, formula)
    return out, resolved, left


def _clean_formula(formula: str) -> str | None:
    """A damage formula our dice parser reads ("1d6 + (5)" -> "1d6+5"), or None."""
    f = formula.strip()
    if not f:
        return None
    # fold parenthesised numbers from substitutions: "+ (-1)" -> "-1", "(3)" -> "3"
    f = re.sub(r"\+\s*\((-?\d+)\)", lambda m: f"+{m.group(1)}" if not m.group(1).startswith("-") else m.group(1), f)
    f = re.sub(r"-\s*\((-?\d+)\)", lambda m: f"-{m.group(1)}" if not m.group(1).startswith("-")
               else f"+{m.group(1)[1:]}", f)  # fmt: skip
    f = re.sub(r"^\((-?\d+)\)", r"\1", f)
    f = f.replace("+-", "-").replace("--", "+").replace(" ", "")
    f = re.sub(r"[+-]0(?!\d|d)", "", f)
    if not re.fullmatch(r"[0-9dD+\-]+", f) or len(f) > 120:
        return None
    try:
        expr = parse(f)
    except DiceError:
        return None
    if any(t.sides == 0 and t.count > _BOUND for t in expr.terms):
        return None
    return f


def _area_shape(shape: str, effect: str) -> str:
    shape = shape.lower()
    effect = effect.lower()
    if shape in ("cone", "line", "cylinder"):
        return shape
    if effect in ("burst", "spread", "emanation"):
        return effect
    return "burst"


def _make_area(shape: str, size_ft: int, save: str | None, on_save: str, dc: int | None) -> Area:
    return Area.model_validate({"shape": shape, "size_ft": size_ft, "save": save, "on_save": on_save, "dc": dc})


def weapon_facts(
    ctx: _Ctx, item: Mapping[str, Any], path: str, *, values: Mapping[str, int] | None = None
) -> WeaponFacts:
    """Read a Foundry ``weapon`` item. ``values`` resolves @references in formulas (a creature's numbers)."""
    values = values or {}
    pre = f"{path}." if path else ""
    name = ctx.text(item, "name", f"{pre}name", required=True).strip()
    sp = f"{pre}system"
    sysd = ctx.obj(item, "system", sp, required=True)
    wtype = ctx.text(sysd, "weaponType", f"{sp}.weaponType")
    wcat = ctx.text(sysd, "weaponCategory", f"{sp}.weaponCategory")
    action = ctx.text(sysd, "actionType", f"{sp}.actionType")
    props = _properties(ctx, sysd, sp)
    notes: list[tuple[str, str, str]] = []
    # targets, range
    target = ctx.text(sysd, "actionTarget", f"{sp}.actionTarget").lower()
    targets = target if target in ("eac", "kac") else None
    rng = ctx.obj(sysd, "range", f"{sp}.range")
    units = ctx.text(rng, "units", f"{sp}.range.units")
    range_ft = 0
    rv = rng.get("value")
    if rv not in (None, "") and units in ("ft", ""):
        range_ft = ctx.to_int(rv, f"{sp}.range.value", lo=0, hi=100_000)
    if wtype in MELEE_TYPES:
        melee = True
        if action == "rwak" and range_ft > 10 and "thrown" not in props:
            melee = False
            notes.append(("attack", f"{sp}.weaponType", f"{wtype} but a ranged attack with a {range_ft}-ft range: "
                                                         "a ranged weapon"))  # fmt: skip
    elif wtype in RANGED_TYPES:
        melee = False
    else:
        melee = action == "mwak"
    category = WEAPON_TYPES.get(wtype, "special")
    if wtype in MELEE_TYPES and not melee:
        category = "special"

    # damage
    dmg = ctx.obj(sysd, "damage", f"{sp}.damage")
    parts = ctx.lst(dmg, "parts", f"{sp}.damage.parts")
    raw: list[tuple[str, list[str]]] = []
    pieces: list[str] = []
    refs_left: list[str] = []
    nonlethal = "nonlethal" in props
    unreadable = False
    for j, part in enumerate(parts):
        pp = f"{sp}.damage.parts[{j}]"
        if not isinstance(part, Mapping):
            ctx.fail(pp, f"an object, got {_kind(part)}")
        formula = ctx.text(part, "formula", f"{pp}.formula")
        types = _damage_types(ctx, part, pp)
        raw.append((formula, types))
        if not formula.strip():
            continue
        subst, resolved, left = _substitute(formula, values)
        if resolved:
            shown = ", ".join(f"@{r} = {values[r]}" for r in resolved)
            notes.append(("formula", f"{pp}.formula", f"{formula!r}: resolved {shown}"))
        if left:
            refs_left += left
            notes.append(("formula", f"{pp}.formula", f"{formula!r}: {', '.join('@' + r for r in left)} cannot be "
                                                      "resolved here: left out"))  # fmt: skip
            # drop "+ @abilities.str.mod"-style terms for the base weapon (the engine adds Strength itself)
            subst = re.sub(r"\s*[+-]\s*@[A-Za-z0-9_.]+", "", subst)
        clean = _clean_formula(subst)
        if clean is None:
            notes.append(("damage", f"{pp}.formula", f"cannot read damage formula {formula!r}"))
            unreadable = True
            continue
        abbr = []
        for t in types:
            if t == "nonlethal":
                nonlethal = True
            elif t == "healing":
                notes.append(("damage", f"{pp}.types", "healing part: not a weapon's damage"))
                unreadable = True
            elif t in DAMAGE_ABBR:
                abbr.append(DAMAGE_ABBR[t])
            else:
                notes.append(("damage", f"{pp}.types", f"damage type {t!r} is not one we model: left out"))
        pieces.append(f"{clean} {' & '.join(abbr)}".strip())
    damage = " + ".join(pieces) if pieces and not unreadable else None

    # critical
    crit = ctx.obj(sysd, "critical", f"{sp}.critical")
    effect = " ".join(ctx.text(crit, "effect", f"{sp}.critical.effect").split())
    if isinstance(crit.get("effect"), (int, float)) and not isinstance(crit.get("effect"), bool):
        notes.append(("critical", f"{sp}.critical.effect", f"{effect!r} is a number, not a critical effect: left out"))
        effect = ""
    cparts = ctx.lst(crit, "parts", f"{sp}.critical.parts")
    extra = []
    for j, part in enumerate(cparts):
        if not isinstance(part, Mapping):
            ctx.fail(f"{sp}.critical.parts[{j}]", f"an object, got {_kind(part)}")
        f = ctx.text(part, "formula", f"{sp}.critical.parts[{j}].formula").strip()
        if f:
            extra.append(f)
    critical = effect
    for f in extra:
        if not critical.lower().endswith(f.lower()):
            critical = f"{critical} {f}".strip()
    if extra and critical != effect:
        notes.append(("critical", f"{sp}.critical", f"effect {effect!r} with its amount {' '.join(extra)!r}: "
                                                    f"{critical!r}"))  # fmt: skip

    # area (explode), save
    save = ctx.obj(sysd, "save", f"{sp}.save")
    save_type = SAVE_NAMES.get(ctx.text(save, "type", f"{sp}.save.type").lower())
    descriptor = ctx.text(save, "descriptor", f"{sp}.save.descriptor").lower()
    dc_text = ctx.text(save, "dc", f"{sp}.save.dc").strip()
    area: Area | None = None
    ar = ctx.obj(sysd, "area", f"{sp}.area")
    area_value = ar.get("value")
    area_ft = 0
    if area_value not in (None, "") and ctx.text(ar, "units", f"{sp}.area.units") in ("ft", ""):
        area_ft = ctx.to_int(area_value, f"{sp}.area.value", lo=0, hi=100_000)
    level = ctx.num(sysd, "level", f"{sp}.level", lo=0, hi=100)
    if "explode" in props or (wtype == "grenade" and area_ft):
        dc: int | None = None
        if dc_text:
            subst, _resolved, left = _substitute(dc_text, {**values, "item.level": level})
            dc = None if left else _eval_arith(subst)
        if area_ft:
            shape = _area_shape(ctx.text(ar, "shape", f"{sp}.area.shape"), ctx.text(ar, "effect", f"{sp}.area.effect"))
            area = _make_area(shape, area_ft, save_type or "ref", ON_SAVE.get(descriptor, "half"), dc)
    capacity_obj = ctx.obj(sysd, "capacity", f"{sp}.capacity")
    cap = capacity_obj.get("max")
    capacity = ctx.to_int(cap, f"{sp}.capacity.max", lo=0) if cap not in (None, "") else None
    usage_obj = ctx.obj(sysd, "usage", f"{sp}.usage")
    uv = usage_obj.get("value")
    usage = ctx.to_int(uv, f"{sp}.usage.value", lo=0) if uv not in (None, "") else 0
    mats_obj = sysd.get("specialMaterials")
    materials: list[str] = []
    if isinstance(mats_obj, Mapping):
        materials = sorted(_MATERIALS.get(str(k).lower(), str(k).lower()) for k, v in mats_obj.items() if v is True)
    return WeaponFacts(
        name=name,
        category=category,
        melee=melee,
        damage=damage,
        damage_refs=refs_left,
        raw_damage=raw,
        targets=targets,
        range_ft=range_ft,
        thrown="thrown" in props,
        reach="reach" in props,
        unwieldy="unwieldy" in props,
        operative="operative" in props,
        nonlethal=nonlethal,
        two_handed="two" in props,
        critical=critical,
        item_level=level,
        capacity=capacity if capacity else None,
        usage=usage,
        area=area,
        area_ft=area_ft,
        save_dc_text=dc_text,
        properties=props,
        weapon_type=wtype,
        weapon_category=wcat,
        materials=materials,
        notes=notes,
    )


def read_weapon_item(data: Any, *, source: str = "<data>") -> WeaponFacts:
    """A compendium weapon item (not on a creature): its facts, formulas with @references left out of the
    damage (the engine adds Strength and the like itself). Raises FileFormatError on bad data."""
    ctx = _Ctx(source)
    if not isinstance(data, Mapping):
        ctx.fail("", f"a Foundry item (a JSON object), got {_kind(data)}")
    if ctx.text(data, "type", "type") != "weapon":
        ctx.fail("type", f"a weapon item, got {ctx.text(data, 'type', 'type')!r}")
    return weapon_facts(ctx, data, "", values={})


# ----------------------------------------------------------------------------------------------- text fields

_FEET = re.compile(r"^\s*(?P<whole>\d{1,5})(?:\s*-\s*(?P<num>\d)/(?P<den>\d)|\.(?P<dec>\d{1,3}))?\s*(?:ft\.?|feet|')?")
_WITH = re.compile(r"\(\s*(\d{1,5})\s*(?:ft\.?|feet)\s+with\s+([^)]{1,80})\)", re.IGNORECASE)


def parse_feet(text: str) -> tuple[float | None, list[tuple[int, str]]]:
    """Space or reach text: ("10 ft. (15 ft. with bite)") -> (10, [(15, "bite")]); "2-1/2 ft." -> 2.5;
    unreadable or empty text gives None."""
    t = text.strip()
    extras = [(int(m.group(1)), " ".join(m.group(2).split())) for m in _WITH.finditer(t)]
    if re.fullmatch(r"\s*1/2\s*(?:ft\.?|feet)?\s*", t):
        return 0.5, extras
    m = _FEET.match(t)
    if not m or not t:
        return None, extras
    value = float(int(m.group("whole")))
    if m.group("num"):
        den = int(m.group("den"))
        if den == 0:
            return None, extras
        value += int(m.group("num")) / den
    elif m.group("dec"):
        value = float(f"{m.group('whole')}.{m.group('dec')}")
    return value, extras


_SENSE = re.compile(
    r"^(?P<name>[a-z][a-z\- ]*?)\s*(?P<q1>\((?:[^()]|\([^()]*\))*\))?\s*(?:(?P<ft>\d{1,4})\s*(?:ft\.?|feet))?"
    r"\s*(?P<q2>\((?:[^()]|\([^()]*\))*\))?\s*$"
)


def _split_top(text: str, seps: str = ",;") -> list[str]:
    """Split at separators outside brackets."""
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        if ch in seps and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return [s.strip() for s in out if s.strip()]


def parse_senses(text: str) -> tuple[dict[str, int], list[str]]:
    """Senses text -> ({sense: range in feet (0 if none)}, [remarks]). "blindsense (thought) 30 ft." gives
    ``blindsense: 30`` and a remark that the (thought) qualifier is not modelled."""
    senses: dict[str, int] = {}
    remarks: list[str] = []
    for chunk in _split_top(text[:2000]):
        low = " ".join(chunk.lower().split())
        m = _SENSE.match(low)
        if not m:
            remarks.append(f"{chunk!r} not understood: left out")
            continue
        name = m.group("name").strip()
        ft = int(m.group("ft")) if m.group("ft") else 0
        qual = m.group("q1") or m.group("q2") or ""
        if name not in _SENSE_NAMES:
            remarks.append(f"{chunk!r}: sense {name!r} kept as written")
        if qual:
            remarks.append(f"{name} {qual}: the qualifier {qual} is not modelled")
        senses[name] = max(senses.get(name, 0), ft)
    return senses, remarks


_SPEED_TEXT = re.compile(
    r"^(?:original\s+(?:base|special)\s*:\s*)?(?:(?P<mode>fly|flying|climb|climbing|swim|swimming|burrow|burrowing)"
    r"\s+)?(?P<ft>\d{1,4})\s*(?:ft\.?|feet)?(?:\s|\(|$)"
)
_MANEUVER_TEXT = re.compile(r"\b(clumsy|poor|average|good|perf[a-z]*)\b")


_MODE_WORDS: Final[dict[str, str]] = {
    "fly": "fly", "flying": "fly", "climb": "climb", "climbing": "climb", "swim": "swim", "swimming": "swim",
    "burrow": "burrow", "burrowing": "burrow",
}  # fmt: skip


def parse_speed_text(text: str) -> tuple[dict[str, int], str | None]:
    """Foundry's ``speed.special`` (the printed speed line kept as text): ({mode: ft}, maneuverability)."""
    speeds: dict[str, int] = {}
    for seg in re.split(r"[;,]", text[:1000].lower()):
        m = _SPEED_TEXT.match(seg.strip())
        if not m:
            continue
        word = m.group("mode") or ""
        mode = _MODE_WORDS.get(word, "land")
        speeds.setdefault(mode, int(m.group("ft")))
    man = None
    mm = _MANEUVER_TEXT.search(text[:1000].lower())
    if mm:
        word = mm.group(1)
        man = "perfect" if word.startswith("perf") else word
    return speeds, man


def _plausible_speed(v: int) -> bool:
    return 0 <= v <= 500 and v % 5 == 0


# ----------------------------------------------------------------------------------------------- the creature

_BRACKET = re.compile(r"\[([^\]]{0,200})\]")
_DICE_TYPE = re.compile(r"(\d{1,3}d\d{1,3}(?:\s*[+-]\s*\d{1,4})?)\s+([A-Za-z]{1,2}(?:\s*&\s*[A-Za-z]{1,2})?)\b")
_DC_TEXT = re.compile(r"\bDC\s*(\d{1,3})\b", re.IGNORECASE)
_AREA_TEXT = re.compile(r"(\d{1,4})\s*-?\s*ft\.?\s*(radius|cone|line|burst|spread|emanation)", re.IGNORECASE)
_PLUS_DICE = re.compile(r"\(plus\s+(\d{1,3}d\d{1,3})\s+([A-Za-z]{1,2})\)", re.IGNORECASE)
_SUFFIX = re.compile(r"\s*\((?:Ex|Su|Sp)\)\s*$", re.IGNORECASE)
_STANDARD_DICE: Final = frozenset({1, 2, 3, 4, 6, 8, 10, 12, 20, 100})


def _cr_text(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def _engine_word(word: str) -> bool:
    """Whether the engine reads this immunity word (a damage type, a condition, an immunity word)."""
    from sftactics.dice.expr import DAMAGE_TYPES, damage_type
    from sftactics.sf1e.conditions import CONDITIONS, IMMUNITY_WORDS

    try:
        if damage_type(word) in DAMAGE_TYPES:
            return True
    except DiceError:
        pass
    return word in CONDITIONS or word in IMMUNITY_WORDS or word in ("critical hits", "criticals", "critical hit")


def slug(name: str) -> str:
    """A file name for a creature: "Dinosaur, Ceratopsid" -> "dinosaur-ceratopsid"."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:80] or "creature"


class _Creature:
    def __init__(self, ctx: _Ctx, data: Mapping[str, Any], name: str, actor_type: str) -> None:
        self.ctx = ctx
        self.name = name
        self.actor_type = actor_type
        self.system = ctx.obj(data, "system", "system", required=True)
        self.attr = ctx.obj(self.system, "attributes", "system.attributes", required=True)
        self.traits = ctx.obj(self.system, "traits", "system.traits")
        self.details = ctx.obj(self.system, "details", "system.details")
        self.items: list[tuple[str, Mapping[str, Any], str, str]] = []  # (path, item, type, name)
        for i, item in enumerate(ctx.lst(data, "items", "items")):
            if not isinstance(item, Mapping):
                ctx.fail(f"items[{i}]", f"an item (object), got {_kind(item)}")
            iname = ctx.text(item, "name", f"items[{i}].name").strip()
            itype = ctx.text(item, "type", f"items[{i}].type")
            self.items.append((f'items[{i}] "{iname[:40]}"', item, itype, iname))
        self.specials: list[SpecialAbility] = []
        self.usable: list[dict[str, Any]] = []  # spells the engine can use (the stat block's specials)

    # ------------------------------------------------------------------------------------------ numbers
    def _abilities(self) -> tuple[dict[str, int], dict[str, int]]:
        ctx = self.ctx
        ab = ctx.obj(self.system, "abilities", "system.abilities")
        mods: dict[str, int] = {}
        scores: dict[str, int] = {}
        missing = []
        for a in ("str", "dex", "con", "int", "wis", "cha"):
            p = f"system.abilities.{a}"
            entry = ctx.obj(ab, a, p)
            if self.actor_type == "character":
                if entry.get("mod") not in (None, ""):
                    mods[a] = ctx.num(entry, "mod", f"{p}.mod", lo=-10, hi=40)
                elif entry.get("value") not in (None, "") or entry.get("base") not in (None, ""):
                    key = "value" if entry.get("value") not in (None, "") else "base"
                    scores[a] = ctx.num(entry, key, f"{p}.{key}", lo=0, hi=90)
                    mods[a] = (scores[a] - 10) // 2
                else:
                    missing.append(a)
                    mods[a] = 0
            elif entry.get("base") not in (None, ""):
                mods[a] = ctx.num(entry, "base", f"{p}.base", lo=-10, hi=40)
            elif entry.get("mod") not in (None, ""):
                mods[a] = ctx.num(entry, "mod", f"{p}.mod", lo=-10, hi=40)
            else:
                missing.append(a)
                mods[a] = 0
        if missing:
            ctx.note("ability", "system.abilities", f"no modifier for {', '.join(missing)}: taken as +0")
        return mods, scores

    def _hp(self) -> int:
        p = "system.attributes.hp"
        obj = self.ctx.obj(self.attr, "hp", p, required=True)
        return self.ctx.num(obj, "max", f"{p}.max", required=True, lo=1)

    def _printed(self, key: str, sub: str) -> int:
        p = f"system.attributes.{key}"
        obj = self.ctx.obj(self.attr, key, p, required=True)
        return self.ctx.num(obj, sub, f"{p}.{sub}", required=True, lo=-1000, hi=1000)

    # ------------------------------------------------------------------------------------------ body
    def _size(self) -> str:
        raw = self.ctx.text(self.traits, "size", "system.traits.size").strip().lower()
        if not raw:
            self.ctx.note("space", "system.traits.size", "no size given: medium")
            return "medium"
        if raw not in SIZES:
            self.ctx.fail("system.traits.size", f"a size ({', '.join(SIZES)}), got {raw!r}")
        return raw

    def _space_reach(self, size: str) -> tuple[float, int, list[tuple[int, str]]]:
        ctx = self.ctx
        out: list[float] = []
        extras: list[tuple[int, str]] = []
        for key, default in (("space", SIZE_SPACE[size]), ("reach", float(SIZE_REACH[size]))):
            p = f"system.attributes.{key}"
            raw = ctx.text(self.attr, key, p)
            value, more = parse_feet(raw)
            if key == "reach":
                extras = more
            if value is None:
                what = "not given" if not raw.strip() else f"{raw!r} not understood"
                ctx.note(key, p, f"{what}: {default:g} ft for a {size} creature")
                value = default
            elif key == "space" and value == 0:
                ctx.note(key, p, f"{raw!r}: a creature takes up some space; {default:g} ft for a {size} creature")
                value = default
            elif key == "reach" and value == 0 and size not in ("fine", "diminutive", "tiny"):
                ctx.note(key, p, f"{raw!r} for a {size} creature: taken as not given, {default:g} ft")
                value = default
            elif key == "reach" and value != int(value):
                ctx.note(key, p, f"{raw!r}: reach {int(value)} ft (whole feet)")
            elif not re.fullmatch(r"\s*\d+\s*(?:ft\.)?\s*", raw) and raw.strip():
                ctx.note(key, p, f"{raw!r} read as {value:g} ft")
            out.append(value)
        for ft, what in extras:
            ctx.note("reach", "system.attributes.reach", f"{ft} ft with {what}: given to the matching attack")
        return out[0], int(out[1]), extras

    def _speed(self) -> tuple[dict[str, int], str | None]:
        ctx = self.ctx
        sp = ctx.obj(self.attr, "speed", "system.attributes.speed")
        special = ctx.text(sp, "special", "system.attributes.speed.special")
        text_speeds, text_man = parse_speed_text(special)
        speeds: dict[str, int] = {}
        structured_man: str | None = None
        for key, mode in _SPEED_MODES:
            p = f"system.attributes.speed.{key}"
            obj = ctx.obj(sp, key, p)
            v = ctx.num(obj, "base", f"{p}.base", lo=0)
            t = text_speeds.get(mode)
            if not _plausible_speed(v):
                if t is not None:
                    ctx.note("speed", f"{p}.base", f"{v} ft is not a speed; {mode} {t} ft from the speed text "
                                                   f"{special!r}")  # fmt: skip
                    v = t
                else:
                    ctx.note("speed", f"{p}.base", f"{v} ft is not a speed and the speed text gives none: 0")
                    v = 0
            elif v == 0 and t:
                ctx.note("speed", "system.attributes.speed.special", f"{mode} {t} ft recovered from {special!r}")
                v = t
            elif t is not None and t != v and v:
                ctx.note("speed", f"{p}.base", f"{mode} {v} ft kept; the speed text {special!r} says {t} ft")
            if mode == "fly" and obj.get("baseManeuverability") not in (None, "") and ctx.num(obj, "base", p) > 0:
                m = ctx.num(obj, "baseManeuverability", f"{p}.baseManeuverability", lo=-1, hi=1)
                structured_man = _MANEUVERABILITY[m]
            if v or mode == "land":
                speeds[mode] = v
        man = None
        if speeds.get("fly"):
            if structured_man is not None:
                man = structured_man
                if text_man and text_man != structured_man:
                    ctx.note("speed", "system.attributes.speed.flying.baseManeuverability",
                             f"{structured_man} kept; the speed text {special!r} says {text_man}")  # fmt: skip
            elif text_man:
                man = text_man
                ctx.note("speed", "system.attributes.speed.special", f"fly maneuverability {man} from the text")
            else:
                ctx.note("speed", "system.attributes.speed.flying", "no fly maneuverability given: average")
                man = "average"
        return speeds, man

    def _senses(self) -> tuple[str, dict[str, int]]:
        text = self.ctx.text(self.traits, "senses", "system.traits.senses").strip().rstrip(";").strip()
        if not text:
            return "", {}
        senses, remarks = parse_senses(text)
        for r in remarks:
            self.ctx.note("senses", "system.traits.senses", r)
        return text, senses

    # ------------------------------------------------------------------------------------------ CR
    def _raw_cr(self) -> Fraction | None:
        ctx = self.ctx
        p = "system.details.cr"
        raw = self.details.get("cr")
        if raw is None or raw == "":
            return None
        if isinstance(raw, bool):
            ctx.fail(p, f"a challenge rating, got {_kind(raw)}")
        try:
            if isinstance(raw, str):
                value = Fraction(raw.strip())
            elif isinstance(raw, int):
                value = Fraction(raw)
            elif isinstance(raw, float) and math.isfinite(raw):
                value = Fraction(raw).limit_denominator(8)
                if value and value.denominator != 1:
                    ctx.note("cr", p, f"{raw!r} read as CR {_cr_text(value)}")
            else:
                ctx.fail(p, f"a challenge rating, got {_kind(raw)}")
        except (ValueError, ZeroDivisionError):
            ctx.fail(p, f"a challenge rating such as 3 or 1/3, got {_kind(raw)}")
        if not 0 <= value <= 40:
            ctx.fail(p, f"a challenge rating from 0 to 40, got {raw!r}")
        return value

    def _final_cr(self, raw: Fraction | None, hp: int, best_attack: int | None) -> tuple[str, bool]:
        ctx = self.ctx
        p = "system.details.cr"
        if raw is not None and raw > 0:
            return _cr_text(raw), True
        why = "not given" if raw is None else "stored as 0 (Foundry stores fractional CRs as 0)"
        attack_ok = best_attack is None or best_attack <= 10
        if hp <= 8 and attack_ok:
            ctx.note("cr", p, f"{why}: CR 1/3 recovered from {hp} HP (CR 1/3 arrays: 5-6 HP)")
            return "1/3", True
        if hp <= 16 and attack_ok:
            ctx.note("cr", p, f"{why}: CR 1/2 recovered from {hp} HP (CR 1/2 arrays: 10-13 HP)")
            return "1/2", True
        ctx.note("cr", p, f"{why}: CR unknown ({hp} HP does not fit a fractional CR); written as cr 0")
        return "0", False

    # ------------------------------------------------------------------------------------------ weapons
    def _weapons(
        self, values: Mapping[str, int], weapon_reach: list[tuple[int, str]], cr_hint: Fraction | None
    ) -> list[dict[str, Any]]:
        from sftactics.content.armory import find_weapon_entry

        ctx = self.ctx
        entries = [(p, it, n) for p, it, t, n in self.items if t == "weapon"]
        bonuses: dict[str, list[int]] = {}
        parsed: list[tuple[str, Mapping[str, Any], str, int]] = []
        for p, item, name in entries:
            sysd = ctx.obj(item, "system", f"{p}.system", required=True)
            ab = ctx.num(sysd, "attackBonus", f"{p}.system.attackBonus")
            bonuses.setdefault(name.lower(), []).append(ab)
            parsed.append((p, item, name, ab))
        out: list[dict[str, Any]] = []
        for p, item, name, ab in parsed:
            sysd = ctx.obj(item, "system", f"{p}.system", required=True)
            equipped = sysd.get("equipped") is True
            if ab == 0 and any(b != 0 for b in bonuses[name.lower()]):
                ctx.note("duplicate", p, f"skipped: a copy of {name!r} with attack bonus 0 "
                                         f"(equipped: {str(equipped).lower()}); the printed entry is used")  # fmt: skip
                continue
            multi = False
            shown = name
            if shown.lower().startswith("[multiatk]"):
                shown = shown[len("[multiatk]") :].strip()
                multi = True
                ctx.note("multiattack", p, f"{shown!r} is a full-attack (multiattack) option")
            facts = weapon_facts(ctx, item, p, values=values)
            for code, where, msg in facts.notes:
                ctx.note(code, where, msg)
            action = ctx.text(sysd, "actionType", f"{p}.system.actionType")
            if ab == 0 and (action == "other" or "swarm" in name.lower()):
                self.specials.append(SpecialAbility(shown, False, "swarm", "automatic damage, no attack roll"))
                ctx.note(
                    "ability",
                    p,
                    f"{shown!r} ({facts.damage or 'no damage'}) is a swarm attack: automatic damage with no "
                    "attack roll, which the engine does not model; kept by name",
                )
                continue
            armory = find_weapon_entry(shown)
            damage = facts.damage
            if damage is None and armory is not None and armory.deals_damage and not facts.raw_damage:
                ctx.note("damage", p, f"no damage given: the armory's {armory.weapon.damage}")
                damage = armory.weapon.damage
            if damage is None:
                why = "deals no damage" if not facts.raw_damage else "damage cannot be read"
                self.specials.append(SpecialAbility(shown, False, "ability", why))
                ctx.note("ability", p, f"{shown!r} {why}: kept by name, not usable")
                continue
            damage = self._fill_types(p, shown, damage, facts, armory, [it for pp, it, n in entries if n == name])
            damage = self._split_plus(p, shown, damage)
            w: dict[str, Any] = {"name": shown}
            melee = facts.melee
            if melee and action == "rwak" and not facts.thrown:
                ctx.note("attack", f"{p}.system.actionType", "a ranged attack type on a melee weapon: melee")
            category = facts.category
            natural = armory is None and facts.weapon_type in ("basicM", "") and melee and not facts.properties
            if shown.lower().startswith("unarmed strike"):
                category = "unarmed"
            elif natural:
                category = "natural"
            elif not melee and armory is None and (_SUFFIX.search(shown) or facts.weapon_type == ""):
                category = "special"
            w["category"] = category
            default_melee = category in _MELEE_CATS
            if melee != default_melee:
                w["melee"] = melee
            w["damage"] = damage
            w["attack_bonus"] = ab
            if ab == 0:
                ctx.note("attack", f"{p}.system.attackBonus", f"{shown!r}: printed attack bonus +0")
            if cr_hint is not None and cr_hint > 0 and ab > cr_hint + 20:
                ctx.note("suspicious", f"{p}.system.attackBonus",
                         f"{shown!r}: +{ab} is far above what a CR {_cr_text(cr_hint)} creature has; "
                         "kept as written (check the source)")  # fmt: skip
            if facts.targets:
                w["targets"] = facts.targets
            self._range_reach(w, p, shown, melee, facts, armory, weapon_reach)
            for flag in ("thrown", "unwieldy", "operative", "nonlethal", "two_handed"):
                if getattr(facts, flag):
                    w[flag] = True
            if facts.reach and melee:
                w["reach"] = True
            if facts.critical:
                w["critical"] = facts.critical
            if facts.item_level and (armory is not None or category not in ("natural", "special", "unarmed")):
                w["item_level"] = facts.item_level
            if facts.capacity:
                w["capacity"] = facts.capacity
                if facts.usage > 1:
                    w["usage"] = facts.usage
            area = facts.area
            if category == "grenade" or "explode" in facts.properties:
                area = self._grenade_area(p, shown, facts, armory, values, w)
            if area is not None:
                w["area"] = area.model_dump(exclude_defaults=True)
            if facts.materials:
                w["materials"] = facts.materials
            if multi:
                w["multiattack"] = True
            try:
                Weapon.model_validate(w)
            except ValidationError as e:
                msg = e.errors()[0]["msg"].removeprefix("Value error, ")
                ctx.note("ability", p, f"{shown!r} cannot be used ({msg}): kept by name")
                self.specials.append(SpecialAbility(shown, False, "ability", msg))
                continue
            out.append(w)
        return out

    def _fill_types(
        self, p: str, name: str, damage: str, facts: WeaponFacts, armory: Any, same_name: Sequence[Mapping[str, Any]]
    ) -> str:
        ctx = self.ctx
        try:
            expr = parse(damage)
        except DiceError:
            return damage
        if expr.types or len(expr.parts) != 1:
            if armory is not None and expr.types and armory.deals_damage:
                theirs = armory.weapon.damage_types
                if theirs and theirs != expr.types:
                    ctx.note("damage", p, f"{name!r}: damage type {' & '.join(sorted(expr.types))} differs from the "
                                          f"armory's {' & '.join(sorted(theirs))}; kept as written")  # fmt: skip
            return damage
        found = ""
        for other in same_name:
            osys = other.get("system")
            odmg = osys.get("damage") if isinstance(osys, Mapping) else None
            oparts = odmg.get("parts") if isinstance(odmg, Mapping) else None
            for part in oparts if isinstance(oparts, list) else []:
                types = part.get("types") if isinstance(part, Mapping) else None
                if isinstance(types, Mapping):
                    ab = [DAMAGE_ABBR[k] for k, v in types.items() if v is True and k in DAMAGE_ABBR]
                    if ab:
                        found = " & ".join(ab)
                        ctx.note("damage", p, f"{name!r}: no damage type; {found} from its other copy")
                        break
            if found:
                break
        if not found and armory is not None and armory.deals_damage:
            t = armory.weapon.damage_types
            if t:
                found = " & ".join(DAMAGE_ABBR[x] for x in sorted(t) if x in DAMAGE_ABBR)
                ctx.note("damage", p, f"{name!r}: no damage type; {found} from the armory")
        if not found and facts.weapon_category in CATEGORY_TYPES:
            found = CATEGORY_TYPES[facts.weapon_category]
            ctx.note("damage", p, f"{name!r}: no damage type; {found} from its category ({facts.weapon_category})")
        if not found:
            ctx.note("damage", p, f"{name!r}: no damage type given: untyped")
            return damage
        return f"{damage} {found}"

    def _split_plus(self, p: str, name: str, damage: str) -> str:
        m = _PLUS_DICE.search(name)
        if not m:
            return damage
        dice, t = m.group(1), m.group(2)
        mm = re.fullmatch(r"(?P<main>.+?)\+" + re.escape(dice) + r"\s+(?P<types>[A-Za-z& ]+)", damage)
        if not mm:
            return damage
        candidate = f"{mm.group('main')} {mm.group('types').strip()} + {dice} {t}"
        try:
            parse(candidate)
        except DiceError:
            return damage
        self.ctx.note("damage", p, f"{name!r}: {damage!r} split as {candidate!r} (the extra dice are {t})")
        return candidate

    def _range_reach(
        self, w: dict[str, Any], p: str, name: str, melee: bool, facts: WeaponFacts, armory: Any,
        weapon_reach: list[tuple[int, str]],
    ) -> None:  # fmt: skip
        ctx = self.ctx
        special_reach = next((ft for ft, what in weapon_reach if what.lower() in name.lower()), None)
        if melee:
            if special_reach is not None:
                w["reach_ft"] = special_reach
            if facts.thrown:
                if facts.range_ft:
                    w["range_ft"] = facts.range_ft
                elif armory is not None and armory.weapon.range_ft:
                    w["range_ft"] = armory.weapon.range_ft
                    ctx.note("range", f"{p}.system.range", f"thrown range {w['range_ft']} ft from the armory")
            elif facts.range_ft and facts.range_ft != special_reach:
                ctx.note("range", f"{p}.system.range.value",
                         f"{facts.range_ft} ft on a melee weapon that is not thrown: ignored")  # fmt: skip
            return
        rng = facts.range_ft
        for prop in ("line", "blast"):
            if not rng and prop in facts.properties and facts.area_ft:
                rng = facts.area_ft
                ctx.note("range", f"{p}.system.range", f"{prop} weapon: range {rng} ft from its {prop}")
        if not rng and armory is not None and armory.weapon.range_ft:
            rng = armory.weapon.range_ft
            ctx.note("range", f"{p}.system.range", f"no range given: {rng} ft from the armory")
        if not rng and facts.category == "grenade":
            rng = 20
            ctx.note("range", f"{p}.system.range", "no range given: grenades are thrown 20 ft (CRB)")
        if not rng:
            ctx.note("range", f"{p}.system.range", f"{name!r}: no range increment given; it cannot reach anyone")
        if rng:
            w["range_ft"] = rng

    def _grenade_area(
        self, p: str, name: str, facts: WeaponFacts, armory: Any, values: Mapping[str, int], w: dict[str, Any]
    ) -> Area | None:
        ctx = self.ctx
        area = facts.area
        if area is None and armory is not None and armory.weapon.area is not None:
            area = armory.weapon.area
            ctx.note("area", f"{p}.system.area", f"no area given: the armory's {area.size_ft}-ft {area.shape}")
            if "item_level" not in w and armory.level:
                w["item_level"] = armory.level
        if area is None:
            ctx.note("area", f"{p}.system.area", f"{name!r} explodes but gives no area")
            return None
        if area.dc is None:
            text = facts.save_dc_text or (armory.save_dc if armory is not None else "")
            level = facts.item_level if facts.item_level > 1 or armory is None else armory.level
            dc = None
            if text:
                subst, _r, left = _substitute(text, {**values, "item.level": level})
                dc = None if left else _eval_arith(subst)
            if dc is not None:
                ctx.note("area", f"{p}.system.save.dc", f"save DC {dc} from {text!r} (item level {level})")
                area = area.model_copy(update={"dc": dc})
            else:
                ctx.note("area", f"{p}.system.save.dc", "no save DC given: the engine computes it")
        return area

    # ------------------------------------------------------------------------------------------ abilities
    def _features(self, values: Mapping[str, int]) -> list[dict[str, Any]]:
        ctx = self.ctx
        weapons: list[dict[str, Any]] = []
        passive: list[str] = []
        spells: list[str] = []
        for p, item, itype, name in self.items:
            if itype == "spell":
                entry, why = self._spell(p, item, name, values)
                if entry is None:
                    spells.append(name)
                    self.specials.append(SpecialAbility(name, False, "spell", f"not imported: {why}"))
                else:
                    self.usable.append(entry)
                    self.specials.append(SpecialAbility(entry["name"], True, "spell", "usable spell"))
                    ctx.note("spell", p, f"{name!r}: imported as a usable spell")
                continue
            if itype != "feat":
                continue
            sysd = ctx.obj(item, "system", f"{p}.system", required=True)
            w, reason, has_numbers = self._feature(p, name, sysd, values)
            if w is not None:
                weapons.append(w)
                self.specials.append(SpecialAbility(w["name"], True, "ability", reason))
                continue
            self.specials.append(SpecialAbility(name, False, "ability", reason))
            if has_numbers:
                ctx.note("ability", p, f"{name!r}: {reason}; kept by name, not usable")
            else:
                passive.append(name)
        if passive:
            ctx.note("ability", "items", "kept by name only (nothing the engine can use): " + ", ".join(passive))
        if spells:
            ctx.note("spell", "items", "spells without numbers the engine can use (listed): " + ", ".join(spells))
        return weapons

    def _spell(
        self, p: str, item: Mapping[str, Any], name: str, values: Mapping[str, int]
    ) -> tuple[dict[str, Any] | None, str]:
        """A spell as a usable ability (``io.foundry_spells``), or None and why not."""
        from sftactics.io.foundry_spells import spell_special

        ctx = self.ctx
        slots = ctx.obj(self.system, "spells", "system.spells")
        per_day = {}
        for n in range(10):
            entry = slots.get(f"spell{n}")
            if isinstance(entry, Mapping):
                per_day[n] = ctx.num(entry, "max", f"system.spells.spell{n}.max", lo=0, hi=100)
        cr = self._raw_cr()
        cl = max(1, int(cr)) if cr else 1
        return spell_special(ctx, p, item, name, values, per_day, cl)

    def _feature(
        self, p: str, name: str, sysd: Mapping[str, Any], values: Mapping[str, int]
    ) -> tuple[dict[str, Any] | None, str, bool]:
        ctx = self.ctx
        sp = f"{p}.system"
        bracket = _BRACKET.search(name)
        inside = bracket.group(1) if bracket else ""
        base = _BRACKET.sub("", name).strip() or name
        # damage from the item, or from the name ("[3d6 F, DC 15]", "(1d8+11 B, DC 16)")
        damage: str | None = None
        dmg = ctx.obj(sysd, "damage", f"{sp}.damage")
        parts = ctx.lst(dmg, "parts", f"{sp}.damage.parts")
        pieces = []
        healing = False
        for j, part in enumerate(parts):
            pp = f"{sp}.damage.parts[{j}]"
            if not isinstance(part, Mapping):
                ctx.fail(pp, f"an object, got {_kind(part)}")
            formula = ctx.text(part, "formula", f"{pp}.formula")
            types = _damage_types(ctx, part, pp)
            if "healing" in types:
                healing = True
            subst, resolved, left = _substitute(formula, values)
            clean = _clean_formula(subst) if formula.strip() and not left else None
            if clean is not None:
                if resolved:
                    ctx.note("formula", f"{pp}.formula", f"{formula!r}: resolved with the creature's numbers")
                abbr = [DAMAGE_ABBR[t] for t in types if t in DAMAGE_ABBR]
                pieces.append(f"{clean} {' & '.join(abbr)}".strip())
        if pieces:
            damage = " + ".join(pieces)
        else:
            m = _DICE_TYPE.search(name)
            if m:
                cand = f"{m.group(1).replace(' ', '')} {m.group(2)}"
                try:
                    parse(cand)
                    damage = cand
                except DiceError:
                    damage = None
        if healing:
            return None, "heals (not an attack)", True
        save = ctx.obj(sysd, "save", f"{sp}.save")
        save_type = SAVE_NAMES.get(ctx.text(save, "type", f"{sp}.save.type").lower())
        descriptor = ctx.text(save, "descriptor", f"{sp}.save.descriptor").lower()
        dc: int | None = None
        dc_raw = save.get("dc")
        if dc_raw not in (None, ""):
            text = ctx.text(save, "dc", f"{sp}.save.dc")
            subst, _r, left = _substitute(text, values)
            dc = None if left else _eval_arith(subst)
        if dc is None:
            m = _DC_TEXT.search(name)
            if m:
                dc = int(m.group(1))
        area_ft, shape = 0, ""
        ar = ctx.obj(sysd, "area", f"{sp}.area")
        if ar.get("value") not in (None, "") and ctx.text(ar, "units", f"{sp}.area.units") in ("ft", ""):
            area_ft = ctx.to_int(ar.get("value"), f"{sp}.area.value", lo=0, hi=100_000)
            shape = _area_shape(ctx.text(ar, "shape", f"{sp}.area.shape"), ctx.text(ar, "effect", f"{sp}.area.effect"))
        if not area_ft:
            m = _AREA_TEXT.search(inside or name)
            if m:
                area_ft = int(m.group(1))
                word = m.group(2).lower()
                shape = "burst" if word == "radius" else word
        action = ctx.text(sysd, "actionType", f"{sp}.actionType")
        ab = ctx.num(sysd, "attackBonus", f"{sp}.attackBonus")
        has_numbers = bool(damage or dc or ab or (area_ft and save_type))
        shown = base
        if action in ("mwak", "rwak") and ab and damage:
            w: dict[str, Any] = {"name": shown, "category": "special", "damage": damage, "attack_bonus": ab}
            if action == "mwak":
                w["melee"] = True
            else:
                w["melee"] = False
                rng = ctx.obj(sysd, "range", f"{sp}.range")
                rv = rng.get("value")
                ft = ctx.to_int(rv, f"{sp}.range.value", lo=0, hi=100_000) if rv not in (None, "") else 0
                if ft:
                    w["range_ft"] = ft
                else:
                    ctx.note("range", f"{sp}.range", f"{shown!r}: no range increment given")
            target = ctx.text(sysd, "actionTarget", f"{sp}.actionTarget").lower()
            if target in ("eac", "kac"):
                w["targets"] = target
            if not parse(damage).types:
                ctx.note("damage", f"{sp}.damage", f"{shown!r}: no damage type given: untyped")
            ctx.note("ability", p, f"{shown!r}: imported as an attack (+{ab}, {damage})")
            return self._valid(p, w), "attack", True
        if damage and dc and area_ft:
            if save_type is None:
                save_type = "ref"
                ctx.note("ability", f"{sp}.save.type", f"{shown!r}: no save named: Reflex")
            on_save = ON_SAVE.get(descriptor)
            if on_save is None:
                on_save = "half"
                ctx.note("ability", f"{sp}.save.descriptor", f"{shown!r}: no save effect named: half damage")
            area = _make_area(shape or "burst", area_ft, save_type, on_save, dc)
            w = {"name": shown, "category": "special", "melee": False, "damage": damage,
                 "area": area.model_dump(exclude_defaults=True)}  # fmt: skip
            if not parse(damage).types:
                ctx.note("damage", f"{sp}.damage", f"{shown!r}: no damage type given: untyped")
            ctx.note("ability", p, f"{shown!r}: imported as an area attack ({area_ft}-ft {area.shape}, {damage}, "
                                   f"{save_type} DC {dc} {on_save})")  # fmt: skip
            return self._valid(p, w), "area attack", True
        missing = [what for what, ok in (("damage", damage), ("a save DC", dc), ("an area", area_ft)) if not ok]
        if action in ("mwak", "rwak") and not damage:
            reason = "an attack with no damage to read"
        elif not has_numbers:
            reason = "no numbers"
        else:
            reason = "no " + " or ".join(m.removeprefix("a ").removeprefix("an ") for m in missing)
        return None, reason, has_numbers

    def _valid(self, p: str, w: dict[str, Any]) -> dict[str, Any] | None:
        try:
            Weapon.model_validate(w)
        except ValidationError as e:
            self.ctx.note("ability", p, f"{w['name']!r} cannot be used ({e.errors()[0]['msg']})")
            return None
        return w

    # ------------------------------------------------------------------------------------------ defenses
    def _modifiers(self) -> Iterator[tuple[str, str, Mapping[str, Any]]]:
        ctx = self.ctx
        for j, m in enumerate(ctx.lst(self.system, "modifiers", "system.modifiers")):
            yield f"system.modifiers[{j}]", "", m
        for p, item, _t, name in self.items:
            sysd = item.get("system")
            if not isinstance(sysd, Mapping):
                continue
            for j, m in enumerate(ctx.lst(sysd, "modifiers", f"{p}.system.modifiers")):
                yield f"{p}.system.modifiers[{j}]", name, m

    def _defenses(self) -> tuple[list[dict[str, Any]], dict[str, int]]:
        ctx = self.ctx
        dr: list[dict[str, Any]] = []
        res: dict[str, int] = {}
        ignored: list[str] = []
        for p, owner, m in self._modifiers():
            if not isinstance(m, Mapping):
                ctx.fail(p, f"a modifier (object), got {_kind(m)}")
            kind = ctx.text(m, "effectType", f"{p}.effectType")
            label = ctx.text(m, "name", f"{p}.name") or owner or kind
            enabled = m.get("enabled", True) is not False
            if kind not in ("damage-reduction", "energy-resistance"):
                if enabled and kind:
                    ignored.append(f"{label} ({kind})")
                continue
            raw = m.get("modifier")
            value: int | None
            if isinstance(raw, (int, float)) and not isinstance(raw, bool):
                value = ctx.to_int(raw, f"{p}.modifier", lo=0, hi=1000)
            else:
                text = ctx.text(m, "modifier", f"{p}.modifier")
                value = _eval_arith(text) if text else None
            if value is None or value < 0:
                ctx.note("dr" if kind == "damage-reduction" else "resistance", f"{p}.modifier",
                         f"{label}: value {raw!r} cannot be read; left out")  # fmt: skip
                continue
            affected = ctx.text(m, "valueAffected", f"{p}.valueAffected").strip()
            custom = ctx.text(m, "customValue", f"{p}.customValue").strip()
            if not enabled:
                ctx.note("dr" if kind == "damage-reduction" else "resistance", p,
                         f"{label} ({kind} {value} {affected or custom}) is disabled: left out")  # fmt: skip
                continue
            if kind == "damage-reduction":
                bypass = custom or affected
                canon = _MATERIALS.get(bypass.lower(), bypass)
                dr.append({"value": value, "bypass": canon})
                extra = f" (written {bypass!r})" if canon != bypass else ""
                ctx.note("dr", p, f"DR {value}/{canon} from {label!r}{extra}")
            else:
                energy = (custom or affected).lower()
                if energy not in ("acid", "cold", "electricity", "fire", "sonic"):
                    ctx.note("resistance", p, f"{label}: {energy!r} is not an energy type; left out")
                    continue
                res[energy] = max(res.get(energy, 0), value)
                ctx.note("resistance", p, f"{energy} resistance {value} from {label!r}")
        if ignored:
            ctx.note("modifier", "modifiers", "not applied (the printed totals are used): " + ", ".join(ignored))
        return dr, res

    def _immunities(self) -> tuple[list[str], list[str]]:
        ctx = self.ctx
        imm: list[str] = []
        vul: list[str] = []
        packages: set[str] = set()
        unmodelled: list[str] = []
        for key in ("di", "ci"):
            p = f"system.traits.{key}"
            obj = ctx.obj(self.traits, key, p)
            for j, v in enumerate(ctx.lst(obj, "value", f"{p}.value")):
                if not isinstance(v, str):
                    ctx.fail(f"{p}.value[{j}]", f"text, got {_kind(v)}")
                imm.append(v.strip().lower())
            custom = ctx.text(obj, "custom", f"{p}.custom")
            for word in _split_top(custom):
                w = " ".join(word.lower().split())
                if w in IMMUNITY_PACKAGES:
                    imm.extend(IMMUNITY_PACKAGES[w])
                    if w not in packages:
                        ctx.note("immunity", f"{p}.custom", f"{word!r}: {', '.join(IMMUNITY_PACKAGES[w])}")
                    packages.add(w)
                else:
                    imm.append(w)
                    if not _engine_word(w) and w not in unmodelled:
                        unmodelled.append(w)
        p = "system.traits.dv"
        obj = ctx.obj(self.traits, "dv", p)
        for j, v in enumerate(ctx.lst(obj, "value", f"{p}.value")):
            if not isinstance(v, str):
                ctx.fail(f"{p}.value[{j}]", f"text, got {_kind(v)}")
            vul.append(v.strip().lower())
        custom = ctx.text(obj, "custom", f"{p}.custom")
        if custom.strip():
            ctx.note("immunity", f"{p}.custom", f"weakness {custom.strip()!r} is not modelled (not a damage type)")
        if unmodelled:
            ctx.note("immunity", "system.traits", "kept as written, nothing in the engine uses them yet: "
                                                  + ", ".join(unmodelled))  # fmt: skip
        imm = [w for w in dict.fromkeys(imm) if w]
        vul = [w for w in dict.fromkeys(vul) if w]
        return imm, vul

    def _skills(self) -> dict[str, int]:
        ctx = self.ctx
        out: dict[str, int] = {}
        skills = ctx.obj(self.system, "skills", "system.skills")
        for code, sk in skills.items():
            p = f"system.skills.{code}"
            if not isinstance(sk, Mapping):
                ctx.fail(p, f"an object, got {_kind(sk)}")
            if sk.get("enabled") is not True:
                continue
            value = ctx.num(sk, "ranks", f"{p}.ranks", lo=-100, hi=200)
            key = SKILLS.get(str(code)[:3])
            if key is None:
                ctx.note("skills", p, f"unknown skill {code!r}: left out")
                continue
            if key == "profession":
                sub = ctx.text(sk, "subname", f"{p}.subname").strip().lower()
                key = f"profession ({sub})" if sub else "profession"
            out[key] = max(out.get(key, value), value)
        return out

    # ------------------------------------------------------------------------------------------ build
    def build(self) -> ImportResult:
        ctx = self.ctx
        mods, scores = self._abilities()
        hp = self._hp()
        eac = self._printed("eac", "base")
        kac = self._printed("kac", "base")
        saves = {
            "fort": self._printed("fort", "base"),
            "ref": self._printed("reflex", "base"),
            "will": self._printed("will", "base"),
        }
        init_obj = ctx.obj(self.attr, "init", "system.attributes.init")
        if init_obj.get("value") in (None, ""):
            initiative = mods["dex"]
            ctx.note("initiative", "system.attributes.init.value", f"not given: the Dexterity modifier {initiative:+d}")
        else:
            initiative = ctx.num(init_obj, "value", "system.attributes.init.value", lo=-1000, hi=1000)
        rp = 0
        rp_obj = ctx.obj(self.attr, "rp", "system.attributes.rp")
        if rp_obj.get("max") not in (None, ""):
            rp = ctx.num(rp_obj, "max", "system.attributes.rp.max", lo=0, hi=1000)
            if rp and rp_obj.get("value") not in (None, "") and rp_obj.get("value") != rp:
                cur = ctx.num(rp_obj, "value", "system.attributes.rp.value", lo=0, hi=1000)
                ctx.note("rp", "system.attributes.rp", f"maximum {rp} used (the file's current value is {cur})")
        size = self._size()
        space, reach, weapon_reach = self._space_reach(size)
        speed, man = self._speed()
        senses_text, senses = self._senses()
        raw_cr = self._raw_cr()
        level = None
        if self.actor_type == "character":
            dl = ctx.obj(self.details, "level", "system.details.level")
            level = ctx.num(dl, "value", "system.details.level.value", lo=1, hi=40, required=True)
            ctx.note("character", "type", "a character sheet: imported with its printed totals")
        values: dict[str, int] = {f"abilities.{a}.mod": v for a, v in mods.items()}
        weapons = self._weapons(values, weapon_reach, raw_cr)
        for ft, what in weapon_reach:
            if not any(what.lower() in w["name"].lower() for w in weapons):
                ctx.note("reach", "system.attributes.reach", f"no attack named {what!r}: its {ft}-ft reach is unused")
        weapons += self._features(values)
        weapons = self._unique_names(weapons)
        usable_attacks = [w["attack_bonus"] for w in weapons if isinstance(w.get("attack_bonus"), int)]
        cr: str | None = None
        cr_known = True
        if level is None:
            cr, cr_known = self._final_cr(raw_cr, hp, max(usable_attacks) if usable_attacks else None)
        elif raw_cr:
            cr = _cr_text(raw_cr)
        if not weapons:
            ctx.note("attack", "items", "no usable attack: this creature cannot hurt anyone in a fight")
        dr, res = self._defenses()
        imm, vul = self._immunities()
        sr = ctx.num(self.traits, "sr", "system.traits.sr", lo=0, hi=1000)
        ctype = self._creature_type()
        incorporeal = "incorporeal" in ctype or any(
            t == "feat" and n.lower().startswith("incorporeal") for _p, _i, t, n in self.items
        )
        if incorporeal:
            ctx.note("incorporeal", "system.details.subtype", "incorporeal")
        block: dict[str, Any] = {"name": self.name, "kind": "npc"}
        if cr is not None:
            block["cr"] = cr
        if level is not None:
            block["level"] = level
        block.update({"size": size, "space_ft": space, "reach_ft": reach, "creature_type": ctype})
        block["abilities"] = mods
        if scores:
            block["scores"] = scores
        block.update({"eac": eac, "kac": kac, "saves": saves, "initiative": initiative, "hp": hp, "rp": rp})
        block["speed"] = speed
        if man is not None:
            block["fly_maneuverability"] = man
        block["weapons"] = weapons
        if dr:
            block["dr"] = dr
        if res:
            block["resistances"] = res
        if imm:
            block["immunities"] = imm
        if vul:
            block["vulnerabilities"] = vul
        if sr:
            block["sr"] = sr
        if incorporeal:
            block["incorporeal"] = True
        skills = self._skills()
        if skills:
            block["skills"] = skills
        if self.usable:
            block["specials"] = self.usable
        if senses:
            if "senses" in StatBlock.model_fields:
                block["senses"] = senses
            else:  # pragma: no cover - depends on the stat block schema
                ctx.note("senses", "system.traits.senses", "the stat block has no senses field: kept in the report")
        try:
            sb = StatBlock.model_validate(block)
        except ValidationError as e:
            from sftactics.io.files import validation_error

            err = validation_error(ctx.file, e, prefix="(imported stat block)")
            raise err from None
        return ImportResult(ctx.file, self.name, self.actor_type, sb, ctx.notes, self.specials, senses_text, cr_known)

    def _creature_type(self) -> str:
        ctx = self.ctx
        t = ctx.text(self.details, "type", "system.details.type").strip()
        sub = ctx.text(self.details, "subtype", "system.details.subtype").strip()
        base = t.split("(")[0].strip().lower()
        if not base:
            return ""
        inner = t[t.index("(") + 1 :].rstrip(")").strip().lower() if "(" in t else sub.lower()
        return f"{base} ({inner})" if inner else base

    def _unique_names(self, weapons: list[dict[str, Any]]) -> list[dict[str, Any]]:
        seen: dict[str, dict[str, Any]] = {}
        out = []
        for w in weapons:
            key = w["name"].lower()
            if key in seen:
                first = seen[key]
                melee = w.get("melee", w.get("category") in _MELEE_CATS)
                first_melee = first.get("melee", first.get("category") in _MELEE_CATS)
                suffix = ("ranged" if not melee else "melee") if melee != first_melee else "2"
                new = f"{w['name']} ({suffix})"
                n = 2
                while new.lower() in seen:
                    n += 1
                    new = f"{w['name']} ({n})"
                self.ctx.note("renamed", "items", f"two attacks named {w['name']!r}: the second is {new!r}")
                w = {**w, "name": new}
            seen[w["name"].lower()] = w
            out.append(w)
        return out


# ----------------------------------------------------------------------------------------------- runs


def _json_files(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(p for p in path.rglob("*.json") if p.is_file())
    return [path]


def import_paths(paths: Iterable[str | Path]) -> ImportReport:
    """Import every actor in the given files and folders (``*.json``, recursively). A bad file is reported
    in ``failed`` and the run goes on."""
    report = ImportReport()
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            report.failed.append(FileFormatError(str(path), "", "file or folder not found"))
            continue
        for f in _json_files(path):
            try:
                report.results.extend(load_actors(f))
            except FileFormatError as e:
                report.failed.append(e)
    return report


def statblock_yaml(result: ImportResult) -> str:
    """The YAML we write for an imported creature: a header saying where it came from and what was done,
    then the stat block (which loads back with ``load_statblock``)."""
    sb = result.statblock
    if sb is None:
        raise ValueError(f"{result.name} has no stat block")
    data = sb.model_dump(mode="json", exclude_defaults=True)
    data = {"name": data.pop("name"), "kind": sb.kind, **data}
    if "speed" not in data:
        data["speed"] = dict(sb.speed)
    lines = [
        f"# {result.name}: imported from Foundry VTT (sfrpg) {Path(result.source.split('[')[0]).name}"
        " by `sftactics import foundry`.",
        "# Game content: Open Game Content (OGL 1.0a), from the Foundry VTT Starfinder system's compendium.",
    ]
    if not result.cr_known:
        lines.append("# CR unknown: Foundry stored it as 0 and it could not be recovered (written as cr 0).")
    if result.senses:
        lines.append(f"# Senses: {result.senses}")
    kept = [a for a in result.abilities if not a.usable]
    if kept:
        lines.append("# Special abilities kept by name (not usable by the engine):")
        for a in kept:
            lines.append(f"#   {a.name} ({a.kind}: {a.detail})")
    if result.notes:
        lines.append("# Normalisations:")
        for n in result.notes:
            lines.append(f"#   {n.line()}")
    body = dump_yaml(data)
    return "\n".join(lines) + "\n" + body


class _Flow(dict):  # type: ignore[type-arg]
    """A mapping written on one line."""


class _FlowList(list):  # type: ignore[type-arg]
    """A list written on one line."""


def dump_yaml(data: Any) -> str:
    """YAML for people: block style, with small mappings of plain values (abilities, saves, speed, areas)
    and lists of plain values on one line."""
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    def flow_map(dumper: yaml.SafeDumper, value: _Flow) -> yaml.Node:
        return dumper.represent_mapping("tag:yaml.org,2002:map", value, flow_style=True)

    def flow_list(dumper: yaml.SafeDumper, value: _FlowList) -> yaml.Node:
        return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=True)

    Dumper.add_representer(_Flow, flow_map)
    Dumper.add_representer(_FlowList, flow_list)

    def plain(v: Any) -> bool:
        return v is None or isinstance(v, (str, int, float, bool))

    def mark(v: Any, in_list: bool = False) -> Any:
        if isinstance(v, dict):
            inner = {k: mark(x) for k, x in v.items()}
            if inner and not in_list and all(plain(x) for x in inner.values()) and len(inner) <= 8:
                return _Flow(inner)
            return inner
        if isinstance(v, list):
            items = [mark(x, True) for x in v]
            return _FlowList(items) if items and all(plain(x) for x in items) else items
        return v

    return yaml.dump(mark(data), Dumper=Dumper, sort_keys=False, allow_unicode=True, width=120)


def write_statblocks(report: ImportReport, out: Path) -> list[Path]:
    """Write one YAML file per imported creature into ``out`` (created if needed); names are the creature's
    name as a slug, with -2, -3... when two creatures share one."""
    out.mkdir(parents=True, exist_ok=True)
    used: set[str] = set()
    written: list[Path] = []
    for r in report.imported:
        base = slug(r.name)
        stem, n = base, 1
        while stem in used:
            n += 1
            stem = f"{base}-{n}"
        used.add(stem)
        path = out / f"{stem}.yaml"
        path.write_text(statblock_yaml(r), encoding="utf-8")
        r.written = path
        written.append(path)
    if report.vehicles:
        from sftactics.io.foundry_vehicles import vehicle_yaml

        folder = out / "vehicles"
        folder.mkdir(exist_ok=True)
        for r in report.vehicles:
            stem, n = slug(r.name), 1
            while folder / f"{stem}.yaml" in written:
                n += 1
                stem = f"{slug(r.name)}-{n}"
            path = folder / f"{stem}.yaml"
            path.write_text(vehicle_yaml(r.vehicle, r.source, [x.line() for x in r.notes]), encoding="utf-8")
            r.written = path
            written.append(path)
    return written


class _Printer(Protocol):
    def print(self, *objects: Any, **kwargs: Any) -> None: ...


def import_foundry_cmd(paths: list[Path], out: Path, console: _Printer) -> int:
    """``sftactics import foundry PATH... --out DIR``: import, write the YAML, print the report.

    Returns the exit code: 0 when every file was read (unsupported actors such as vehicles are reported, not
    errors), 1 when some file failed, 2 when nothing was given."""
    if not paths:
        console.print("error: give at least one Foundry JSON file or folder", markup=False)
        return 2
    report = import_paths(paths)
    write_statblocks(report, out)
    lines = report.lines()
    (out / "import-report.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for line in lines:
        console.print(line, markup=False)
    return 1 if report.failed else 0


__all__ = [
    "CREATURE_TYPES",
    "ITEM_TYPES",
    "UNSUPPORTED_TYPES",
    "VEHICLE_TYPES",
    "ImportReport",
    "ImportResult",
    "Note",
    "SpecialAbility",
    "WeaponFacts",
    "dump_yaml",
    "import_actor",
    "import_foundry_cmd",
    "import_paths",
    "load_actor",
    "load_actors",
    "parse_feet",
    "parse_senses",
    "parse_speed_text",
    "read_weapon_item",
    "slug",
    "statblock_yaml",
    "weapon_facts",
    "write_statblocks",
]
