"""Foundry VTT Starfinder (``sfrpg``) vehicle actors into :class:`VehicleStat` (VEH-02, X-14).

:func:`vehicle_from_foundry` converts already-parsed JSON (a dict) and reports every interpretation as a
:class:`VehicleNote`; :func:`load_foundry_vehicle` reads one file; ``sftactics import foundry`` writes vehicle actors as
vehicle stat-block YAML (:func:`vehicle_yaml`) and scenarios read them (``sftactics.io.vehicles``).

Field mapping (``system`` is the actor's ``system`` object)::

    name                                   -> name
    system.details.level                   -> item_level
    system.details.price / .source         -> price / source
    system.attributes.size                 -> size
    system.attributes.type                 -> kinds: land, air (A), water (W), burrowing (T), by letter
    system.attributes.dimensions           -> dimensions (length/width/height in ft)
    system.attributes.speed.drive/full/mph -> speed (first entry) and other_speeds (each further "; " or ", "
                                              entry, by its mode word: "30 ft (land), 20 ft (climb)")
    system.attributes.eac/kac.value        -> eac / kac
    system.attributes.cover                -> cover (none, partial, cover, improved, total)
    system.attributes.hp.max / .threshold  -> hp / broken_threshold
    system.attributes.hardness             -> hardness
    system.attributes.modifiers.piloting   -> modifiers.piloting
    system.attributes.modifiers.attackMoving / attackFullSpeed -> modifiers.attack / attack_full_speed
    system.crew.pilot/complement/passenger.limit -> crew.pilots / crew.crew / crew.passengers
    items[type=vehicleAttack] "Collision (Run Over)" -> collision.damage (formula + types), collision.dc (save
                                              DC), collision.ignores_hardness; "Collision (Ram)" is checked
                                              against it (its formula is "2*(...)" of the same dice)
    items[type=vehicleSystem] "Autopilot"  -> systems.autopilot (piloting.piloting)
    items[type=vehicleSystem] "Autocontrol" -> systems.autocontrol
    other vehicleSystem items              -> systems.other (by name)
    items[type=weapon]                     -> weapons (name, category, damage with types, range, item level,
                                              critical effect, capacity, usage, line area)

Not in the data, so reported or defaulted: the attack penalties (the exported data has 0 for every vehicle,
even where the book prints one: check the printed stat block and pass ``overrides``), whether a weapon is bound
to the pilot's controls (default: no), the war machine flag (default: no), how many actions starting takes
(default 1; a "Complicated Starter" system is reported), hangar bays, expansion bays, senses from sensors.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from sftactics.core.errors import DiceError, FileFormatError
from sftactics.dice.expr import parse
from sftactics.sf1e.statblock import Area, Weapon
from sftactics.sf1e.vehicles.statblock import VehicleStat


@dataclass(frozen=True, slots=True)
class VehicleNote:
    """One interpretation or gap: ``code`` (speed, attack, collision, weapon, system, type, unsupported...),
    the Foundry ``field`` it concerns, and what was done."""

    code: str
    field: str
    message: str

    def line(self) -> str:
        return f"[{self.code}] {self.field}: {self.message}" if self.field else f"[{self.code}] {self.message}"


@dataclass(frozen=True, slots=True)
class VehicleImport:
    stat: VehicleStat
    notes: tuple[VehicleNote, ...]


_TYPES = ("acid", "bludgeoning", "cold", "electricity", "fire", "piercing", "slashing", "sonic")
_WEAPON_CATEGORY = {
    "basicM": "basic_melee",
    "advancedM": "advanced_melee",
    "smallA": "small_arm",
    "longA": "longarm",
    "heavy": "heavy",
    "sniper": "sniper",
    "grenade": "grenade",
    "solarian": "solarian",
    "special": "special",
}
_MODE_WORDS = {
    "land": "land",
    "hover": "hover",
    "fly": "fly",
    "swim": "swim",
    "burrow": "burrow",
    "borrow": "burrow",  # a misspelling found in the data
    "climb": "climb",
    "clim": "climb",  # likewise
}
_SPEED = re.compile(r"^\s*(\d+)\s*(ft\.?|feet|mph)?\s*(?:\((.*)\))?\s*$", re.IGNORECASE)


class _Ctx:
    def __init__(self, source: str) -> None:
        self.source = source
        self.notes: list[VehicleNote] = []

    def fail(self, field: str, expected: str) -> Any:
        raise FileFormatError(self.source, field, expected)

    def note(self, code: str, field: str, message: str) -> None:
        self.notes.append(VehicleNote(code, field, message))

    def obj(self, data: Any, key: str, field: str) -> Mapping[str, Any]:
        v = data.get(key) if isinstance(data, Mapping) else None
        if not isinstance(v, Mapping):
            self.fail(field, "an object")
        assert isinstance(v, Mapping)
        return v

    def int_(self, v: Any, field: str, *, default: int | None = None) -> int:
        if v is None and default is not None:
            return default
        if isinstance(v, bool):
            self.fail(field, f"a whole number, got {v!r}")
        if isinstance(v, int):
            return v
        if isinstance(v, str) and re.fullmatch(r"\s*-?\d+\s*", v):
            return int(v)
        if isinstance(v, float) and v.is_integer():
            return int(v)
        return int(self.fail(field, f"a whole number, got {v!r}"))


def _modes(words: str) -> set[str]:
    out = set()
    for w in re.split(r"[\s,;/]+|\band\b", words.lower()):
        if w in _MODE_WORDS:
            out.add(_MODE_WORDS[w])
    return out


def _speed_entries(ctx: _Ctx, text: Any, field: str) -> list[tuple[int, set[str]]] | None:
    """Speed text such as "20 ft", "600 ft (swim)", "30 ft (land), 20 ft (climb)"; None if unreadable."""
    if not isinstance(text, str):
        ctx.fail(field, "speed text such as '20 ft'")
    out = []
    for piece in re.split(r";|,(?![^(]*\))", text):
        if not piece.strip():
            continue
        m = _SPEED.match(piece)
        if not m:
            return None
        out.append((int(m.group(1)), _modes(m.group(3) or "")))
    return out or None


def _kinds(ctx: _Ctx, code: str) -> frozenset[str]:
    if code.startswith("land"):
        kinds = {"land"}
        letters = code[4:]
    else:
        kinds, letters = set(), ""
        if code in ("air", "water", "space"):
            kinds = {code}
        else:
            ctx.note("type", "system.attributes.type", f"unknown vehicle type {code!r}: taken as land")
            kinds = {"land"}
    for ch in letters:
        kind = {"A": "air", "W": "water", "T": "burrowing"}.get(ch)
        if kind is None:
            ctx.note("type", "system.attributes.type", f"unknown letter {ch!r} in type {code!r}: ignored")
        else:
            kinds.add(kind)
    if letters:
        ctx.note("type", "system.attributes.type", f"{code!r} read as {', '.join(sorted(kinds))}")
    return frozenset(kinds)


def _damage(ctx: _Ctx, parts: Any, field: str) -> str | None:
    """Our dice expression from Foundry damage parts (formula + types)."""
    if not isinstance(parts, list) or not parts:
        return None
    pieces = []
    for i, part in enumerate(parts):
        if not isinstance(part, Mapping):
            ctx.fail(f"{field}[{i}]", "a damage part object")
        formula = str(part.get("formula", "")).replace(" ", "")
        types = part.get("types") or {}
        chosen = [t for t in _TYPES if isinstance(types, Mapping) and types.get(t) is True]
        label = " & ".join(chosen)
        pieces.append(f"{formula} {label}".strip())
    text = " + ".join(pieces)
    try:
        parse(text)
    except DiceError:
        ctx.note("damage", field, f"cannot read damage {text!r}")
        return None
    return text


def _weapon(ctx: _Ctx, item: Mapping[str, Any], path: str) -> Weapon | None:
    name = str(item.get("name", "")).strip()
    sysd = ctx.obj(item, "system", f"{path}.system")
    wtype = str(sysd.get("weaponType", ""))
    category = _WEAPON_CATEGORY.get(wtype)
    if category is None:
        ctx.note("weapon", f"{path}.system.weaponType", f"{name}: unknown weapon type {wtype!r}, not imported")
        return None
    damage = _damage(ctx, (sysd.get("damage") or {}).get("parts"), f"{path}.system.damage.parts")
    if damage is None:
        ctx.note("weapon", f"{path}.system.damage", f"{name}: no readable damage, not imported")
        return None
    rng = sysd.get("range") or {}
    range_ft = 0
    if isinstance(rng, Mapping) and rng.get("units") == "ft" and str(rng.get("value", "")).strip().isdigit():
        range_ft = int(str(rng["value"]).strip())
    area = None
    a = sysd.get("area") or {}
    if isinstance(a, Mapping) and a.get("shape") == "line" and str(a.get("value", "")).isdigit():
        area = Area(shape="line", size_ft=int(a["value"]), save=None, on_save="none")
    props = sysd.get("properties") or {}
    on = {k for k, v in props.items() if isinstance(v, Mapping) and v.get("value") is True}
    cap = (sysd.get("capacity") or {}).get("max")
    usage = (sysd.get("usage") or {}).get("value")
    crit = sysd.get("critical") or {}
    try:
        return Weapon(
            name=name,
            category=category,
            damage=damage,
            range_ft=range_ft,
            item_level=ctx.int_(sysd.get("level"), f"{path}.system.level", default=0),
            critical=str(crit.get("effect", "")) if isinstance(crit, Mapping) else "",
            capacity=cap if isinstance(cap, int) and cap > 0 else None,
            usage=usage if isinstance(usage, int) and usage > 0 else 1,
            area=area,
            unwieldy="unwieldy" in on,
            two_handed="two" in on,
        )
    except ValidationError as e:
        ctx.note("weapon", path, f"{name}: not imported ({e.errors()[0]['msg']})")
        return None


def vehicle_from_foundry(
    data: Any, *, source: str = "<data>", overrides: Mapping[str, Any] | None = None
) -> VehicleImport:
    """Build a :class:`VehicleStat` from a Foundry vehicle actor (see the module docstring for the mapping).

    ``overrides`` replaces top-level fields after the import (nested models as dicts), e.g. the attack penalties
    the data leaves at 0: ``{"modifiers": {"piloting": 2, "attack": -1, "attack_full_speed": -2}}``. Raises
    :class:`FileFormatError` naming the field when the data cannot be read."""
    ctx = _Ctx(source)
    if not isinstance(data, Mapping):
        ctx.fail("", "a Foundry actor object")
    if data.get("type") != "vehicle":
        ctx.fail("type", f'"vehicle", got {data.get("type")!r}')
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        ctx.fail("name", "the vehicle's name")
    sysd = ctx.obj(data, "system", "system")
    attrs = ctx.obj(sysd, "attributes", "system.attributes")
    details = ctx.obj(sysd, "details", "system.details")
    out: dict[str, Any] = {"name": name.strip(), "source": str(details.get("source", ""))}
    out["item_level"] = ctx.int_(details.get("level"), "system.details.level")
    price = details.get("price")
    if isinstance(price, int) and price >= 0:
        out["price"] = price
    size = str(attrs.get("size", "")).lower()
    out["size"] = size
    out["kinds"] = sorted(_kinds(ctx, str(attrs.get("type", "land"))))
    dims = attrs.get("dimensions")
    if isinstance(dims, Mapping) and all(isinstance(dims.get(k), int | float) for k in ("length", "width", "height")):
        out["dimensions"] = {"length_ft": dims["length"], "width_ft": dims["width"], "height_ft": dims["height"]}

    # speed
    speed = ctx.obj(attrs, "speed", "system.attributes.speed")
    drive = _speed_entries(ctx, speed.get("drive"), "system.attributes.speed.drive")
    full = _speed_entries(ctx, speed.get("full"), "system.attributes.speed.full")
    mph = _speed_entries(ctx, speed.get("mph"), "system.attributes.speed.mph")
    if drive is None or full is None:
        ctx.note(
            "speed",
            "system.attributes.speed",
            f"speed {speed.get('drive')!r} / {speed.get('full')!r} is not a number of feet: speeds set to 0",
        )
        out["speed"] = {"drive_ft": 0, "full_ft": 0, "mph": 0}
    else:
        if len(drive) != len(full):
            ctx.note("speed", "system.attributes.speed", "drive and full speed list different modes: paired in order")
        speeds: list[dict[str, Any]] = []
        for i, (d, modes) in enumerate(drive):
            f, fmodes = full[min(i, len(full) - 1)]
            m = mph[min(i, len(mph) - 1)] if mph else (0, set())
            all_modes = (modes | fmodes | m[1]) or {"land"}
            speeds.append({"drive_ft": d, "full_ft": max(f, d), "mph": m[0], "modes": sorted(all_modes)})
            if f < d:
                ctx.note("speed", "system.attributes.speed.full", f"full speed {f} below drive {d}: raised to {d}")
        if len(full) > len(drive):
            dropped = ", ".join(f"{f} ft ({'/'.join(sorted(m)) or 'land'})" for f, m in full[len(drive) :])
            ctx.note("speed", "system.attributes.speed.full", f"full speed {dropped} has no drive speed: not kept")
        out["speed"] = speeds[0]
        for extra in speeds[1:]:
            key = "/".join(extra["modes"])
            out.setdefault("other_speeds", {})[key] = extra
        if len(speeds) > 1:
            ctx.note("speed", "system.attributes.speed", f"{len(speeds) - 1} further speed(s) kept in other_speeds")

    out["eac"] = ctx.int_(ctx.obj(attrs, "eac", "system.attributes.eac").get("value"), "system.attributes.eac.value")
    out["kac"] = ctx.int_(ctx.obj(attrs, "kac", "system.attributes.kac").get("value"), "system.attributes.kac.value")
    cover = str(attrs.get("cover", "none")).lower()
    if cover not in ("none", "partial", "cover", "improved", "total"):
        ctx.note("cover", "system.attributes.cover", f"unknown cover {cover!r}: taken as none")
        cover = "none"
    out["cover"] = cover
    hp = ctx.obj(attrs, "hp", "system.attributes.hp")
    out["hp"] = ctx.int_(hp.get("max"), "system.attributes.hp.max")
    if hp.get("threshold") is not None:
        out["broken_threshold"] = ctx.int_(hp.get("threshold"), "system.attributes.hp.threshold")
    out["hardness"] = ctx.int_(attrs.get("hardness"), "system.attributes.hardness", default=0)

    mods = attrs.get("modifiers") or {}
    attack = ctx.int_(mods.get("attackMoving"), "system.attributes.modifiers.attackMoving", default=0)
    attack_full = ctx.int_(mods.get("attackFullSpeed"), "system.attributes.modifiers.attackFullSpeed", default=0)
    out["modifiers"] = {
        "piloting": ctx.int_(mods.get("piloting"), "system.attributes.modifiers.piloting", default=0),
        "attack": min(0, attack),
        "attack_full_speed": min(0, attack, attack_full),
    }
    if attack == 0 and attack_full == 0:
        ctx.note(
            "attack",
            "system.attributes.modifiers",
            "the data gives no attack penalty (0 moving, 0 at full speed); check the printed Modifiers entry",
        )

    crew = sysd.get("crew") or {}

    def limit(key: str) -> int:
        entry = crew.get(key) if isinstance(crew, Mapping) else None
        v = entry.get("limit") if isinstance(entry, Mapping) else None
        return v if isinstance(v, int) and v >= 0 else 0

    out["crew"] = {"pilots": limit("pilot"), "crew": limit("complement"), "passengers": limit("passenger")}
    if (sysd.get("hangarBay") or {}).get("limit"):
        ctx.note("unsupported", "system.hangarBay", "hangar bay not modelled")

    # items: collision, systems, weapons
    items = data.get("items") or []
    if not isinstance(items, list):
        ctx.fail("items", "a list")
    collision: dict[str, Any] | None = None
    ram_formula: str | None = None
    systems: dict[str, Any] = {"other": []}
    weapons: list[dict[str, Any]] = []
    for i, item in enumerate(items):
        path = f"items[{i}]"
        if not isinstance(item, Mapping):
            ctx.fail(path, "an item object")
        kind, iname = item.get("type"), str(item.get("name", ""))
        isys = item.get("system") or {}
        if kind == "vehicleAttack":
            parts = (isys.get("damage") or {}).get("parts")
            if "run over" in iname.lower():
                dmg = _damage(ctx, parts, f"{path}.system.damage.parts")
                save = isys.get("save") or {}
                if dmg is not None:
                    collision = {
                        "damage": dmg,
                        "dc": ctx.int_(save.get("dc"), f"{path}.system.save.dc"),
                        "ignores_hardness": ctx.int_(isys.get("ignoresHardness"), f"{path}.system.ignoresHardness",
                                                     default=0),
                    }  # fmt: skip
            elif "ram" in iname.lower() and isinstance(parts, list) and parts and isinstance(parts[0], Mapping):
                ram_formula = str(parts[0].get("formula", "")).replace(" ", "")
            else:
                ctx.note("unsupported", path, f"vehicle attack {iname!r} not used")
        elif kind == "vehicleSystem":
            low = iname.lower()
            if low.startswith("autopilot"):
                systems["autopilot"] = ctx.int_(
                    (isys.get("piloting") or {}).get("piloting"), f"{path}.system.piloting.piloting"
                )
            elif low.startswith("autocontrol"):
                systems["autocontrol"] = True
            else:
                systems["other"].append(iname)
                if "starter" in low:
                    ctx.note("system", path, f"{iname}: starting may take more than one action (not in the data)")
        elif kind == "weapon":
            w = _weapon(ctx, item, path)
            if w is not None:
                weapons.append({"weapon": w.model_dump(), "pilot_controlled": False})
                ctx.note("weapon", path, f"{w.name}: taken as fired by a gunner (the data does not say)")
        else:
            ctx.note("unsupported", path, f"item type {kind!r} ({iname}) not used")
    if collision is None:
        ctx.fail("items", 'a vehicleAttack "Collision (Run Over)" with damage and a save DC')
    assert collision is not None
    if ram_formula is not None:
        dice_only = collision["damage"].split(" ")[0]
        if ram_formula not in (f"2*({dice_only})", f"2*{dice_only}"):
            ctx.note("collision", "items", f"ram formula {ram_formula!r} is not twice {dice_only!r}; run over used")
    out["collision"] = collision
    systems["other"] = tuple(systems["other"])
    out["systems"] = systems
    out["weapons"] = weapons
    if overrides:
        for k, v in overrides.items():
            out[k] = v
            ctx.note("override", k, f"set by the caller to {v!r}")
    try:
        stat = VehicleStat.model_validate(out)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise FileFormatError(source, where, err["msg"]) from None
    return VehicleImport(stat, tuple(ctx.notes))


def load_foundry_vehicle(path: str | Path, *, overrides: Mapping[str, Any] | None = None) -> VehicleImport:
    """Read a Foundry vehicle JSON file (see :func:`vehicle_from_foundry`)."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise FileFormatError(str(p), "", f"a readable file ({e})") from None
    except json.JSONDecodeError as e:
        raise FileFormatError(str(p), f"line {e.lineno}", f"valid JSON ({e.msg})") from None
    return vehicle_from_foundry(data, source=str(p), overrides=overrides)


def vehicle_yaml(stat: VehicleStat, source: str = "", notes: Sequence[str] = ()) -> str:
    """The YAML written for an imported vehicle: a header saying where it came from and what the importer did,
    then the stat block (which loads back with ``sftactics.io.vehicles.load_vehicle``)."""
    from sftactics.io.foundry import dump_yaml

    data = stat.model_dump(mode="json", exclude_defaults=True)
    data = {"name": data.pop("name"), **data}
    lines = []
    if source:
        lines.append(f"# {stat.name}: imported from Foundry VTT (sfrpg) {Path(source.split('[')[0]).name} "
                     "by `sftactics import foundry`.")  # fmt: skip
        lines.append("# Game content: Open Game Content (OGL 1.0a), from the Foundry VTT Starfinder system's "
                     "compendium.")  # fmt: skip
    if notes:
        lines.append("# Importer notes (check the printed stat block, e.g. its attack penalties):")
        lines += [f"#   {n}" for n in notes]
    return "\n".join(lines) + ("\n" if lines else "") + dump_yaml(data)


__all__ = ["VehicleImport", "VehicleNote", "load_foundry_vehicle", "vehicle_from_foundry", "vehicle_yaml"]
