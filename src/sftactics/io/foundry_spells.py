"""Spells of a Foundry VTT (sfrpg) actor as usable abilities (``specials``, ``sf1e.usable``).

A spell becomes one when its numbers say what it does in a fight: healing (``actionType: heal`` with a healing
formula), or damage with a saving throw (``actionType: save``, a save type, a DC on the spell or in its name
such as "Mind Thrust (DC 17)", and damage), on one target or in an area (cone, line, burst or spread). Spells
with an attack roll (the spell's attack bonus is the actor's, not the item's), with automatic damage or with no
numbers are listed by name as before.

Range follows the spell's range words and the caster level (the CR when none is given, SPA-02): touch 0 ft,
close 25 ft + 5 ft per two levels, medium 100 ft + 10 ft per level, long 400 ft + 40 ft per level. Uses: the
actor's spells per day of the spell's level (``system.spells.spellN.max``; spells of one level share them),
a spell-like ability's own uses per day, none for 0-level spells and spells used at will.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sftactics.core.errors import DiceError
from sftactics.dice.expr import parse

if TYPE_CHECKING:
    from sftactics.io.foundry_fields import _Ctx

_AT_WILL = re.compile(r"\bat will\b", re.IGNORECASE)
_SHAPES = {"cone": "cone", "line": "line", "burst": "burst", "spread": "spread", "sphere": "burst"}


def spell_range_ft(units: str, value: str, cl: int) -> int | None:
    """Feet of a spell's range words at caster level ``cl`` (None: not a range the engine can use)."""
    u = units.lower()
    if u == "touch":
        return 0
    if u == "close":
        return 25 + 5 * (cl // 2)
    if u == "medium":
        return 100 + 10 * cl
    if u == "long":
        return 400 + 40 * cl
    if u == "ft" and value.strip().isdigit():
        return int(value)
    return None


def spell_special(
    ctx: _Ctx, p: str, item: Mapping[str, Any], name: str, values: Mapping[str, int], per_day: Mapping[int, int],
    cl: int,
) -> tuple[dict[str, Any] | None, str]:  # fmt: skip
    """The ``specials`` entry for one spell item, or None with the reason it is kept by name."""
    from sftactics.io.foundry_fields import _DC_TEXT, ON_SAVE, SAVE_NAMES
    from sftactics.io.foundry_weapons import _clean_formula, _damage_types, _substitute

    sp = f"{p}.system"
    sysd = ctx.obj(item, "system", sp, required=True)
    action = ctx.text(sysd, "actionType", f"{sp}.actionType")
    level = ctx.num(sysd, "level", f"{sp}.level", lo=0, hi=9)
    base = re.sub(r"\s*\((?:DC \d+|at will)\)", "", name, flags=re.IGNORECASE).strip() or name
    formulas: list[str] = []
    heal_types = False
    for j, part in enumerate(ctx.lst(ctx.obj(sysd, "damage", f"{sp}.damage"), "parts", f"{sp}.damage.parts")):
        pp = f"{sp}.damage.parts[{j}]"
        if not isinstance(part, Mapping):
            return None, "a damage part that is not an object"
        formula = ctx.text(part, "formula", f"{pp}.formula")
        heal_types |= "healing" in _damage_types(ctx, part, pp)
        subst, _resolved, left = _substitute(formula, values)
        clean = _clean_formula(subst) if formula.strip() and not left else None
        if clean is None:
            return None, f"a formula the engine cannot read ({formula!r})"
        formulas.append(clean)
    if not formulas:
        return None, "no numbers"
    roll = "+".join(formulas)
    try:
        parse(roll)
    except DiceError:
        return None, f"a formula the engine cannot read ({roll!r})"
    rng = ctx.obj(sysd, "range", f"{sp}.range")
    range_ft = spell_range_ft(ctx.text(rng, "units", f"{sp}.range.units"), ctx.text(rng, "value", f"{sp}.range.value"),
                              cl)  # fmt: skip
    out: dict[str, Any] = {"name": base, "kind": "spell"}
    if action == "heal" or heal_types:
        out.update({"target": "ally", "range_ft": range_ft or 0, "heal": roll})
    elif action == "save":
        save = ctx.obj(sysd, "save", f"{sp}.save")
        save_type = SAVE_NAMES.get(ctx.text(save, "type", f"{sp}.save.type").lower())
        on_save = ON_SAVE.get(ctx.text(save, "descriptor", f"{sp}.save.descriptor").lower())
        dc: int | None = None
        if save.get("dc") not in (None, ""):
            text = ctx.text(save, "dc", f"{sp}.save.dc")
            dc = int(text) if text.strip().isdigit() else None
        m = _DC_TEXT.search(name)
        if dc is None and m:
            dc = int(m.group(1))
        if save_type is None or on_save is None or dc is None:
            return None, "damage with no save type, save effect or DC to read"
        out.update({"save": {"type": save_type, "dc": dc, "on_save": on_save}, "damage": roll})
        ar = ctx.obj(sysd, "area", f"{sp}.area")
        size = ctx.text(ar, "value", f"{sp}.area.value")
        shape = _SHAPES.get(ctx.text(ar, "shape", f"{sp}.area.shape").lower()) or _SHAPES.get(
            ctx.text(ar, "effect", f"{sp}.area.effect").lower()
        )
        if size.strip().isdigit() and int(size) >= 5 and shape is not None:
            out.update({"target": "area", "area": {"shape": shape, "size_ft": int(size)}})
            if shape in ("burst", "spread"):
                if range_ft is None:
                    return None, "an area with no range to place it"
                out["range_ft"] = range_ft
        elif range_ft is not None:
            out.update({"target": "foe", "range_ft": range_ft})
        else:
            return None, "no range the engine can use"
    else:
        return None, "an attack roll or automatic effect (not imported)" if action else "no action to read"
    uses = ctx.obj(sysd, "uses", f"{sp}.uses")
    mode = ctx.text(ctx.obj(sysd, "preparation", f"{sp}.preparation"), "mode", f"{sp}.preparation.mode")
    if _AT_WILL.search(name) or mode == "always" or level == 0:
        pass  # at will
    elif ctx.text(uses, "per", f"{sp}.uses.per") == "day" and uses.get("max") not in (None, ""):
        out["uses"] = ctx.to_int(uses.get("max"), f"{sp}.uses.max", lo=0, hi=100)
    elif per_day.get(level):
        out.update({"uses": per_day[level], "pool": f"spells of level {level}"})
    out["source"] = f"Foundry VTT spell item {name!r}"
    return out, "spell"
