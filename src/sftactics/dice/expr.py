"""Dice expressions as Starfinder and Foundry write them.

Grammar (whitespace is free)::

    expr  := term (("+" | "-") term)*
    term  := (NdM | N) [label]
    label := damage type words or abbreviations, joined by "&" or "and": "B", "fire", "A & P", "So"

A label closes a *part*: it types every term since the previous label. ``"3d6 B + 1d6 fire"`` has two parts
(3d6 bludgeoning, 1d6 fire); ``"2d6+4 S"`` has one (2d6+4 slashing); ``"1d8+1d4+11"`` has one untyped part.
Parsing is separate from rolling, so a caller can rewrite an expression (add a bonus term, change a type)
before rolling it.

Limits (issue 20): at most ``MAX_DICE`` dice in an expression, dice of at most ``MAX_SIDES`` sides, flat
numbers of at most ``MAX_FLAT`` and at most ``MAX_TERMS`` terms. The largest printed damage is a few dozen
dice (a frag grenade VIII rolls 20d6, Table 8-4's hazards 25d10); the odd sizes Foundry data uses (d3, d16)
are allowed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from sftactics.core.errors import DiceError

#: Damage types (DMG-08). Kinetic: bludgeoning, piercing, slashing. Energy: acid, cold, electricity, fire, sonic.
KINETIC: frozenset[str] = frozenset({"bludgeoning", "piercing", "slashing"})
ENERGY: frozenset[str] = frozenset({"acid", "cold", "electricity", "fire", "sonic"})
OTHER_TYPES: frozenset[str] = frozenset({"force", "untyped", "nonlethal"})
DAMAGE_TYPES: frozenset[str] = KINETIC | ENERGY | OTHER_TYPES

_ALIASES: dict[str, str] = {
    "b": "bludgeoning",
    "p": "piercing",
    "s": "slashing",
    "a": "acid",
    "c": "cold",
    "e": "electricity",
    "f": "fire",
    "so": "sonic",
    "elec": "electricity",
    "electric": "electricity",
    "nl": "nonlethal",
}


def damage_type(word: str) -> str:
    """The canonical name of a damage type word or abbreviation (``"F"`` -> ``"fire"``)."""
    w = word.strip().lower().rstrip(".")
    w = _ALIASES.get(w, w)
    if w not in DAMAGE_TYPES:
        raise DiceError(f"unknown damage type {word!r} (expected one of {', '.join(sorted(DAMAGE_TYPES))})")
    return w


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of ``sides`` faces (sides 0 means a flat number ``count``), added or subtracted."""

    count: int
    sides: int = 0
    sign: int = 1

    @property
    def is_flat(self) -> bool:
        return self.sides == 0

    def __str__(self) -> str:
        body = str(self.count) if self.is_flat else f"{self.count}d{self.sides}"
        return body

    def bounds(self) -> tuple[int, int]:
        """(lowest, highest) signed value of the term."""
        if self.is_flat:
            lo = hi = self.count
        else:
            lo, hi = self.count, self.count * self.sides
        return (lo, hi) if self.sign > 0 else (-hi, -lo)


@dataclass(frozen=True, slots=True)
class Part:
    """A run of terms sharing damage types (empty types: untyped)."""

    terms: tuple[DiceTerm, ...]
    types: frozenset[str] = field(default_factory=frozenset)

    def __str__(self) -> str:
        out = ""
        for i, t in enumerate(self.terms):
            if i == 0:
                out += ("-" if t.sign < 0 else "") + str(t)
            else:
                out += (" - " if t.sign < 0 else " + ") + str(t)
        if self.types:
            out += " " + " & ".join(sorted(self.types))
        return out

    @property
    def flat(self) -> int:
        return sum(t.sign * t.count for t in self.terms if t.is_flat)


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A parsed expression: one or more typed parts."""

    parts: tuple[Part, ...]

    def __str__(self) -> str:
        return " + ".join(str(p) for p in self.parts).replace("+ -", "- ")

    @property
    def terms(self) -> tuple[DiceTerm, ...]:
        return tuple(t for p in self.parts for t in p.terms)

    @property
    def types(self) -> frozenset[str]:
        out: frozenset[str] = frozenset()
        for p in self.parts:
            out |= p.types
        return out

    def bounds(self) -> tuple[int, int]:
        lo = hi = 0
        for t in self.terms:
            a, b = t.bounds()
            lo, hi = lo + a, hi + b
        return lo, hi

    def plus(self, value: int) -> DiceExpr:
        """This expression with a flat number added to its first part (bonus damage goes with the weapon's type)."""
        if value == 0:
            return self
        first = self.parts[0]
        term = DiceTerm(abs(value), 0, 1 if value > 0 else -1)
        return DiceExpr((Part((*first.terms, term), first.types), *self.parts[1:]))

    def split_flat(self) -> tuple[DiceExpr, int]:
        """(the dice alone, the sum of the flat numbers): used where a flat bonus is handled on its own."""
        parts = tuple(Part(tuple(t for t in p.terms if not t.is_flat), p.types) for p in self.parts)
        flat = sum(t.sign * t.count for t in self.terms if t.is_flat)
        return DiceExpr(tuple(p for p in parts if p.terms)), flat

    def typed(self, types: frozenset[str]) -> DiceExpr:
        """This expression with every untyped part given ``types``."""
        return DiceExpr(tuple(p if p.types else Part(p.terms, types) for p in self.parts))


#: the most dice, the most sides of a die, the largest flat number and the most terms an expression may have
MAX_DICE = 100
MAX_SIDES = 100
MAX_FLAT = 10_000
MAX_TERMS = 20


def _number(digits: str, text: str) -> int:
    if len(digits) > 6:
        raise DiceError(f"number {digits[:8]}... too large in {text[:40]!r}")
    return int(digits)


_TOKEN = re.compile(
    r"\s*(?:(?P<dice>\d*)[dD](?P<sides>\d+|%)|(?P<num>\d+)|(?P<op>[+-])|(?P<word>[A-Za-z]+\.?)|(?P<amp>&|,|/))"
)


@lru_cache(maxsize=4096)
def parse(text: str) -> DiceExpr:
    """Parse a dice expression such as ``"1d8 +1d4+11"`` or ``"3d6 B + 1d6 fire"``. Cached: parse once."""
    if not isinstance(text, str) or not text.strip():
        raise DiceError("empty dice expression")
    pos = 0
    parts: list[Part] = []
    pending: list[DiceTerm] = []
    labels: list[str] = []
    sign = 1
    expect_term = True
    dice = n_terms = 0
    s = text.strip()
    while pos < len(s):
        m = _TOKEN.match(s, pos)
        if not m or m.end() == pos:
            raise DiceError(f"cannot read dice expression {text!r} at {s[pos:]!r}")
        pos = m.end()
        if m.group("sides") is not None or m.group("num") is not None:
            n_terms += 1
            if n_terms > MAX_TERMS:
                raise DiceError(f"at most {MAX_TERMS} terms in a dice expression, in {text[:40]!r}")
        if m.group("sides") is not None:
            if not expect_term:
                raise DiceError(f"missing '+' or '-' before {m.group(0).strip()!r} in {text!r}")
            count = _number(m.group("dice") or "1", text)
            sides_txt = m.group("sides")
            sides = 100 if sides_txt == "%" else _number(sides_txt, text)
            if count < 1 or sides < 1:
                raise DiceError(f"dice need at least one die of at least one side in {text!r}")
            dice += count
            if dice > MAX_DICE:
                raise DiceError(f"too many dice ({dice}; at most {MAX_DICE}) in {text!r}")
            if sides > MAX_SIDES:
                raise DiceError(f"dice of at most {MAX_SIDES} sides, not d{sides}, in {text!r}")
            pending.append(DiceTerm(count, sides, sign))
            expect_term = False
        elif m.group("num") is not None:
            if not expect_term:
                raise DiceError(f"missing '+' or '-' before {m.group('num')!r} in {text!r}")
            flat = _number(m.group("num"), text)
            if flat > MAX_FLAT:
                raise DiceError(f"numbers of at most {MAX_FLAT}, not {flat}, in {text!r}")
            pending.append(DiceTerm(flat, 0, sign))
            expect_term = False
        elif m.group("op") is not None:
            if expect_term:
                if m.group("op") == "-" and not pending and not parts and sign == 1:
                    sign = -1
                    continue
                raise DiceError(f"operator {m.group('op')!r} without a term in {text!r}")
            sign = 1 if m.group("op") == "+" else -1
            expect_term = True
        elif m.group("word") is not None:
            if m.group("word").lower().rstrip(".") not in _ALIASES and m.group("word").lower() not in DAMAGE_TYPES:
                raise DiceError(f"cannot read dice expression {text!r} at {m.group('word')!r} (not a damage type)")
            if expect_term or not pending:
                raise DiceError(f"damage type {m.group('word')!r} must follow a term in {text!r}")
            labels.append(damage_type(m.group("word")))
            # a label may be followed by "& P" / "and P"
            while True:
                m2 = re.match(r"\s*(?:&|and\b|/)\s*([A-Za-z]+\.?)", s[pos:])
                if not m2:
                    break
                labels.append(damage_type(m2.group(1)))
                pos += m2.end()
            parts.append(Part(tuple(pending), frozenset(labels)))
            pending, labels = [], []
        else:
            raise DiceError(f"unexpected {m.group(0).strip()!r} in {text!r}")
    if expect_term:
        raise DiceError(f"dice expression {text!r} ends without a term")
    if pending:
        parts.append(Part(tuple(pending)))
    return DiceExpr(tuple(parts))
