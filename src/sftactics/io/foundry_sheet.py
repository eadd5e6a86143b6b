"""A Foundry VTT creature's sheet in our numbers, for the importer (``io.foundry``).

:class:`_CreatureSheet` reads what a stat block prints about the creature itself: ability modifiers (or scores on a
character sheet), hit points and the printed defences and saves, size, space and reach (reach "with" one attack
kept for that attack), speeds (checked against the printed speed line), senses, the challenge rating (a CR that
Foundry stored as 0 recovered from the hit points), damage reduction and energy resistances from the modifiers,
immunities (the universal creature rules' packages spelled out) and skills. Its attacks are read on top of it
(``io.foundry_attacks``) and the stat block is built last (``io.foundry``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

from sftactics.core.errors import DiceError
from sftactics.io.foundry_fields import (
    _MANEUVERABILITY,
    _MATERIALS,
    _SPEED_MODES,
    IMMUNITY_PACKAGES,
    SIZE_REACH,
    SIZE_SPACE,
    SIZES,
    SKILLS,
    _Ctx,
    _eval_arith,
    _kind,
    _plausible_speed,
    _split_top,
    parse_feet,
    parse_senses,
    parse_speed_text,
)
from sftactics.io.foundry_results import SpecialAbility

# ----------------------------------------------------------------------------------------------- the creature


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


class _CreatureSheet:
    """A Foundry creature as the importer reads it: its numbers, body, CR, defences and skills."""

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
