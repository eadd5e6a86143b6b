"""Reading the fields of Foundry VTT (``sfrpg``) data for the importer (``io.foundry``).

Typed access (:class:`_Ctx`) that fails with a :class:`~sftactics.core.errors.FileFormatError` naming the file,
the field and what was expected, and collects the creature's :class:`~sftactics.io.foundry_results.Note`; the
tables that map Foundry's keys to ours (sizes, skills, speeds, damage and weapon types, saves, immunity packages,
materials, senses); whole-number formulas (:func:`_eval_arith`, once the ``@references`` are numbers); and the
text fields Foundry keeps as printed (space and reach, senses, the speed line, a DC in a name).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final, NoReturn

from sftactics.core.errors import FileFormatError
from sftactics.io.foundry_results import Note

# ----------------------------------------------------------------------------------------------- reading

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


#: A save DC written in a name ("Breath Weapon (DC 15)"): read by the creature's abilities and its spells.
_DC_TEXT = re.compile(r"\bDC\s*(\d{1,3})\b", re.IGNORECASE)


def _plausible_speed(v: int) -> bool:
    return 0 <= v <= 500 and v % 5 == 0
