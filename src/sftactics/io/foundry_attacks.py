"""A Foundry VTT creature's attacks, for the importer (``io.foundry``).

:class:`_CreatureAttacks` reads, on top of the creature's sheet (``io.foundry_sheet``), its ``weapon`` items as
weapons (a duplicate with attack bonus 0 skipped, a missing damage type, range or area taken from another copy,
the armory or the weapon's category, a swarm attack kept by name) and its special abilities and spells (``feat``
and ``spell`` items) as attacks, area attacks or usable spells (``io.foundry_spells``) when their numbers say what
they do; everything else is kept by name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Final

from pydantic import ValidationError

from sftactics.core.errors import DiceError
from sftactics.dice.expr import parse
from sftactics.io.foundry_fields import (
    _DC_TEXT,
    _MELEE_CATS,
    CATEGORY_TYPES,
    DAMAGE_ABBR,
    ON_SAVE,
    SAVE_NAMES,
    _eval_arith,
    _kind,
)
from sftactics.io.foundry_results import SpecialAbility
from sftactics.io.foundry_sheet import _cr_text, _CreatureSheet
from sftactics.io.foundry_weapons import (
    WeaponFacts,
    _area_shape,
    _clean_formula,
    _damage_types,
    _make_area,
    _substitute,
    weapon_facts,
)
from sftactics.sf1e.statblock import Area, Weapon

# ----------------------------------------------------------------------------------------------- the creature's attacks

_BRACKET = re.compile(r"\[([^\]]{0,200})\]")
_DICE_TYPE = re.compile(r"(\d{1,3}d\d{1,3}(?:\s*[+-]\s*\d{1,4})?)\s+([A-Za-z]{1,2}(?:\s*&\s*[A-Za-z]{1,2})?)\b")
_AREA_TEXT = re.compile(r"(\d{1,4})\s*-?\s*ft\.?\s*(radius|cone|line|burst|spread|emanation)", re.IGNORECASE)
_PLUS_DICE = re.compile(r"\(plus\s+(\d{1,3}d\d{1,3})\s+([A-Za-z]{1,2})\)", re.IGNORECASE)
_SUFFIX = re.compile(r"\s*\((?:Ex|Su|Sp)\)\s*$", re.IGNORECASE)
_STANDARD_DICE: Final = frozenset({1, 2, 3, 4, 6, 8, 10, 12, 20, 100})


class _CreatureAttacks(_CreatureSheet):
    """A Foundry creature's weapons, special abilities and spells as the engine's attacks and specials."""

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
