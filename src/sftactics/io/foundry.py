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

Vehicles are imported by ``io.foundry_vehicles``; starships, hazards and drones are reported as not supported, not
imported.

The importer is split by what it reads: ``io.foundry_results`` (notes, results, the report, actor types),
``io.foundry_fields`` (typed field access, tables, formulas, text fields), ``io.foundry_weapons`` (weapon items),
``io.foundry_sheet`` (a creature's numbers, body, CR, defences and skills), ``io.foundry_attacks`` (its attacks,
abilities and spells) and ``io.foundry_spells`` (spells as usable abilities); this module reads files and
folders, builds the stat block and writes the YAML.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol

from pydantic import ValidationError

from sftactics.core.errors import DiceError, FileFormatError
from sftactics.io.files import read_text
from sftactics.io.foundry_attacks import _CreatureAttacks
from sftactics.io.foundry_fields import _MELEE_CATS, _Ctx, _kind, parse_feet, parse_senses, parse_speed_text
from sftactics.io.foundry_results import (
    CREATURE_TYPES,
    ITEM_TYPES,
    UNSUPPORTED_TYPES,
    VEHICLE_TYPES,
    ImportReport,
    ImportResult,
    Note,
    SpecialAbility,
)
from sftactics.io.foundry_sheet import _cr_text
from sftactics.io.foundry_weapons import WeaponFacts, read_weapon_item, weapon_facts
from sftactics.sf1e.statblock import StatBlock

# ----------------------------------------------------------------------------------------------- reading


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


# ----------------------------------------------------------------------------------------------- the creature


def slug(name: str) -> str:
    """A file name for a creature: "Dinosaur, Ceratopsid" -> "dinosaur-ceratopsid"."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:80] or "creature"


class _Creature(_CreatureAttacks):
    """A Foundry creature read (``io.foundry_sheet``, ``io.foundry_attacks``) and built into a stat block."""

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
