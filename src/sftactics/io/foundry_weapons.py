"""Foundry VTT ``weapon`` items in our terms (:class:`WeaponFacts`), for the importer (``io.foundry``).

What a weapon item says before a creature's own numbers are added: category, melee or ranged, damage with its
types (``@references`` in a formula resolved from the creature's numbers, or left out), critical effect, range,
area and save, capacity and usage, properties and special materials. The damage formula helpers here are shared
with the creature's abilities (``io.foundry_attacks``) and spells (``io.foundry_spells``);
:func:`read_weapon_item` reads a compendium weapon for the armory generator.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sftactics.core.errors import DiceError
from sftactics.dice.expr import parse
from sftactics.io.foundry_fields import (
    _BOUND,
    _MATERIALS,
    _REF,
    DAMAGE_ABBR,
    MELEE_TYPES,
    ON_SAVE,
    RANGED_TYPES,
    SAVE_NAMES,
    WEAPON_TYPES,
    _Ctx,
    _eval_arith,
    _kind,
)
from sftactics.sf1e.statblock import Area

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
