"""Reading and running conformance cases (docs/conformance.md).

A case drives the project only through its public interfaces: a scenario (``ScenarioFile``) becomes an
``Encounter``; commands go through ``Fight.do`` with scripted dice; state is read from the ``Encounter`` value and
events from their JSON (``model_dump``). Rule-function cases call a public function by its dotted name.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from sftactics.core.errors import DiceError, RuleViolation
from sftactics.dice.source import ScriptedDice
from sftactics.encounter import budget
from sftactics.encounter.engine import Fight
from sftactics.io.scenario import ScenarioFile, build_encounter
from sftactics.sf1e import stats
from sftactics.sf1e.statblock import StatBlock
from sftactics.sf1e.state import Creature, CreatureState

CASES = Path(__file__).parent / "cases"
_DIE = re.compile(r"^\s*(\d+)\s*(.*?)\s*$")
_WORD = re.compile(r"[a-z0-9%]+")
_RULE = re.compile(r"^[A-Z][A-Z0-9]*-\d{2}$")
_CASE_KEYS = {"name", "rules", "ruling", "xfail", "setup", "steps", "calls", "dice"}
_STEP_KEYS = {"do", "dice", "expect", "refused", "message"}
_CALL_KEYS = {"call", "args", "kwargs", "as", "expect", "refused"}


class CaseError(AssertionError):
    """A case is malformed or its expectation does not hold."""


@dataclass
class Case:
    name: str
    file: str
    rules: tuple[str, ...]
    ruling: str
    body: dict[str, Any]
    library: dict[str, Any] = field(default_factory=dict)
    xfail: str | None = None
    default_setup: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------- loading


def load_cases(folder: Path = CASES) -> list[Case]:
    out: list[Case] = []
    seen: set[str] = set()
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        library = data.get("statblocks", {}) or {}
        default_setup = data.get("setup", {}) or {}
        for raw in data["cases"]:
            name = raw["name"]
            if name in seen:
                raise CaseError(f"{path.name}: two cases are named {name!r}")
            seen.add(name)
            check_shape(raw, f"{path.name}: case {name!r}")
            out.append(
                Case(
                    name=name,
                    file=path.name,
                    rules=tuple(raw["rules"]),
                    ruling=raw["ruling"],
                    body=raw,
                    library=library,
                    xfail=raw.get("xfail"),
                    default_setup=default_setup,
                )
            )
    return out


def check_shape(raw: dict[str, Any], where: str) -> None:
    """Typos must not turn a check into no check: unknown keys are errors, and every case checks something."""
    if not raw.get("rules") or not raw.get("ruling"):
        raise CaseError(f"{where}: needs 'rules' and a one-line 'ruling'")
    bad_rules = [r for r in raw["rules"] if not _RULE.match(str(r))]
    if bad_rules:
        raise CaseError(f"{where}: rule IDs look like ATK-14, not {bad_rules}")
    unknown = set(raw) - _CASE_KEYS
    if unknown:
        raise CaseError(f"{where}: unknown keys {sorted(unknown)}")
    if ("steps" in raw) == ("calls" in raw):
        raise CaseError(f"{where}: give either 'steps' (an encounter) or 'calls' (rule functions)")
    items, allowed = (raw["steps"], _STEP_KEYS) if "steps" in raw else (raw["calls"], _CALL_KEYS)
    for i, item in enumerate(items):
        extra = set(item) - allowed
        if extra:
            raise CaseError(f"{where}: item {i + 1} has unknown keys {sorted(extra)}")
    if not any("expect" in item or "refused" in item for item in items):
        raise CaseError(f"{where}: nothing is checked (no 'expect' or 'refused')")


# ---------------------------------------------------------------- dice


def parse_dice(items: list[Any] | None) -> list[tuple[int, str]]:
    """``["7 attack", "4 damage"]`` (a result and a label) or bare numbers."""
    out: list[tuple[int, str]] = []
    for item in items or []:
        if isinstance(item, int):
            out.append((item, ""))
            continue
        m = _DIE.match(str(item))
        if not m:
            raise CaseError(f"a die is 'RESULT label', not {item!r}")
        out.append((int(m.group(1)), m.group(2)))
    return out


def check_labels(dice: ScriptedDice, labels: list[tuple[int, str]], start: int, where: str) -> None:
    """Each word of a label must be a word of the purpose the engine recorded for that die (when it recorded
    one): "A attack" fits "A attack (club)"."""
    for i, (_, label) in enumerate(labels):
        rolled = dice.history[start + i]
        purpose = set(_WORD.findall(rolled.purpose.lower()))
        if not label or not purpose:
            continue
        missing = [w for w in _WORD.findall(label.lower()) if w not in purpose]
        if missing:
            raise CaseError(
                f"{where}: die #{i + 1} is labelled {label!r} but the engine rolled it for {rolled.purpose!r} "
                f"(a d{rolled.sides}); words not in that purpose: {missing}"
            )


# ---------------------------------------------------------------- paths and comparison


def get_path(value: Any, path: str) -> Any:
    """``a.b[0].c``, ``a.b.0.c``; attributes, mapping keys and sequence indices. ``|len`` at the end gives the
    length."""
    want_len = path.endswith("|len")
    if want_len:
        path = path[: -len("|len")]
    cur = value
    for part in [p for p in re.split(r"\.|\[|\]", path) if p != ""]:
        if isinstance(cur, dict):
            if part not in cur:
                raise CaseError(f"no {part!r} in {sorted(cur)} (path {path!r})")
            cur = cur[part]
        elif isinstance(cur, list | tuple) and re.fullmatch(r"-?\d+", part):
            idx = int(part)
            if not -len(cur) <= idx < len(cur):
                raise CaseError(f"index {idx} out of range for {len(cur)} items (path {path!r})")
            cur = cur[idx]
        elif hasattr(cur, part):
            cur = getattr(cur, part)
        else:
            raise CaseError(f"no {part!r} on {type(cur).__name__} (path {path!r})")
    return len(cur) if want_len else cur


def same(actual: Any, expected: Any) -> bool:
    """Equality as a GM would read it: booleans strictly; numbers and fractions by value ("1/2" matches 1/2);
    lists item by item; a mapping expectation checks only the keys it names; a string matches an enum or a
    number by its text."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return actual is expected
    if hasattr(actual, "model_dump") and isinstance(expected, dict):
        actual = actual.model_dump(mode="json")
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and same(actual[k], v) for k, v in expected.items())
    if isinstance(expected, list):
        if not isinstance(actual, list | tuple):
            return False
        return len(actual) == len(expected) and all(same(a, e) for a, e in zip(actual, expected, strict=True))
    if isinstance(actual, int | float | Fraction) and isinstance(expected, int | float | str):
        try:
            return Fraction(actual) == Fraction(str(expected))
        except (ValueError, ZeroDivisionError):
            return False
    if isinstance(expected, str) and not isinstance(actual, str) and actual is not None:
        return str(getattr(actual, "value", actual)) == expected
    return bool(actual == expected)


def expect_eq(actual: Any, expected: Any, what: str) -> None:
    if not same(actual, expected):
        raise CaseError(f"{what}: expected {expected!r}, got {actual!r}")


# ---------------------------------------------------------------- encounter cases


def _statblock(ref: Any, library: dict[str, Any]) -> Any:
    if isinstance(ref, str) and ref in library:
        return library[ref]
    return ref


def build(case: Case) -> Any:
    setup = {**case.default_setup, **(case.body.get("setup") or {})}
    combatants = []
    for entry in setup.get("combatants", []):
        entry = dict(entry)
        entry["statblock"] = _statblock(entry["statblock"], case.library)
        combatants.append(entry)
    setup["combatants"] = combatants
    scen = ScenarioFile.model_validate(setup)
    return build_encounter(scen, Path(f"{case.file}#{case.name}"))


def _combatant_view(fight: Fight, cid: str) -> dict[str, Any]:
    """The named numbers a case can check on one combatant, read from the public state."""
    c = fight.state.combatants[cid]
    st = c.creature.state
    surprise = fight.state.timeline.phase == "surprise"
    return {
        "hp": st.hp,
        "sp": st.sp,
        "rp": st.rp,
        "temp_hp": st.temp_hp,
        "at": list(c.position) if c.position is not None else None,
        "conditions": sorted({ci.name for ci in st.conditions}),
        "actions_left": budget.remaining(c, surprise=surprise),
        "reaction_used": c.reaction_used,
        "in_hand": list(c.in_hand) if c.in_hand is not None else None,
    }


def _derived(fight: Fight, cid: str, key: str) -> Any:
    creature = fight.state.combatants[cid].creature
    opts = fight.state.options
    if key in ("eac", "kac"):
        return stats.armor_class(creature, key, options=opts).total
    if key in ("eac_vs_melee", "kac_vs_melee", "eac_vs_ranged", "kac_vs_ranged"):
        which, _, vs = key.split("_")
        return stats.armor_class(creature, which, vs=vs, options=opts).total
    if key in ("fort", "ref", "will"):
        return stats.save_bonus(creature, key, options=opts).total
    if key in ("max_hp", "max_sp", "max_rp"):
        return getattr(stats, key)(creature).total
    if key == "speed":
        return stats.speed(creature).total
    if key == "initiative":
        return stats.initiative(creature, opts).total
    if key.startswith("attack:"):
        weapon = creature.stat.weapon(key.split(":", 1)[1])
        return stats.attack_bonus(creature, weapon, options=opts).total
    raise CaseError(f"unknown combatant field {key!r}")


def check_combatant(fight: Fight, cid: str, want: dict[str, Any], where: str) -> None:
    if cid not in fight.state.combatants:
        raise CaseError(f"{where}: no combatant {cid!r}")
    view = _combatant_view(fight, cid)
    for key, exp in want.items():
        what = f"{where}: {cid}.{key}"
        if key == "has":
            missing = [n for n in exp if n not in view["conditions"]]
            if missing:
                raise CaseError(f"{what}: missing {missing}; conditions are {view['conditions']}")
        elif key == "lacks":
            present = [n for n in exp if n in view["conditions"]]
            if present:
                raise CaseError(f"{what}: should not have {present}; conditions are {view['conditions']}")
        elif key == "conditions":
            expect_eq(view["conditions"], sorted(exp), what)
        elif key == "actions_left":
            expect_eq(sorted(view["actions_left"]), sorted(exp), what)
        elif key in view:
            expect_eq(view[key], exp, what)
        else:
            expect_eq(_derived(fight, cid, key), exp, what)


def _event_matches(ev: dict[str, Any], want: dict[str, Any]) -> bool:
    for path, exp in want.items():
        try:
            actual = get_path(ev, path)
        except CaseError:
            return False
        if not same(actual, exp):
            return False
    return True


def check_events(
    events: list[dict[str, Any]], want: list[dict[str, Any]], none: list[dict[str, Any]], where: str
) -> None:
    for w in want:
        count = w.get("count")
        spec = {k: v for k, v in w.items() if k != "count"}
        hits = [e for e in events if _event_matches(e, spec)]
        if count is not None and len(hits) != count:
            raise CaseError(f"{where}: {count} events like {spec}, found {len(hits)}")
        if count is None and not hits:
            kinds = [e.get("type") for e in events]
            raise CaseError(f"{where}: no event like {spec} (events: {kinds})")
    for w in none:
        hits = [e for e in events if _event_matches(e, w)]
        if hits:
            raise CaseError(f"{where}: unexpected event like {w}: {hits[0]}")


def check_expect(fight: Fight, events: list[dict[str, Any]], expect: dict[str, Any], where: str) -> None:
    for key, want in (expect or {}).items():
        if key == "events":
            check_events(events, want, [], where)
        elif key == "no_events":
            check_events(events, [], want, where)
        elif key == "turn":
            expect_eq(fight.state.timeline.turn, want, f"{where}: turn")
        elif key == "round":
            expect_eq(fight.state.timeline.round, want, f"{where}: round")
        elif key == "phase":
            expect_eq(fight.state.timeline.phase, want, f"{where}: phase")
        elif key == "state":
            dump = fight.state.model_dump(mode="json")
            for path, exp in want.items():
                expect_eq(get_path(dump, path), exp, f"{where}: state {path}")
        else:
            check_combatant(fight, key, want, where)


def run_encounter(case: Case) -> None:
    """Each step gets its own scripted dice (``Fight.dice``), so a step's dice are exactly the ones it rolls."""
    fight = Fight(build(case), ScriptedDice([]))
    for i, s in enumerate(case.body["steps"]):
        cmd = s["do"]
        where = f"step {i + 1} ({cmd.get('type')})"
        labels = parse_dice(s.get("dice"))
        dice = ScriptedDice([r for r, _ in labels])
        fight.dice = dice
        before = fight.state.model_dump(mode="json")
        if "refused" in s:
            try:
                fight.do(cmd)
            except RuleViolation as e:
                if e.rule != s["refused"]:
                    raise CaseError(f"{where}: refused naming {e.rule} ({e.message}), expected {s['refused']}") from e
                if "message" in s and s["message"].lower() not in e.message.lower():
                    raise CaseError(f"{where}: refusal message {e.message!r} lacks {s['message']!r}") from e
            except DiceError as e:
                raise CaseError(f"{where}: {e} (after the {len(labels)} dice listed for this step)") from e
            else:
                raise CaseError(f"{where}: expected a refusal naming {s['refused']}, but the command was accepted")
            if fight.state.model_dump(mode="json") != before:
                raise CaseError(f"{where}: the refused command changed the state")
            if dice.history:
                raise CaseError(f"{where}: the refused command kept dice it rolled")
            check_expect(fight, [], s.get("expect") or {}, where)
            continue
        try:
            evs = fight.do(cmd)
        except DiceError as e:
            raise CaseError(f"{where}: {e} (after the {len(labels)} dice listed for this step)") from e
        except RuleViolation as e:
            raise CaseError(f"{where}: refused unexpectedly: {e}") from e
        if len(dice.history) != len(labels):
            extra = [f"d{d.sides}={d.result} for {d.purpose!r}" for d in dice.history]
            raise CaseError(
                f"{where}: the step lists {len(labels)} dice but the engine rolled {len(dice.history)}: {extra}"
            )
        check_labels(dice, labels, 0, where)
        check_expect(fight, [e.model_dump(mode="json") for e in evs], s.get("expect") or {}, where)


# ---------------------------------------------------------------- rule-function cases


def _resolve_name(dotted: str) -> Any:
    mod_name, _, attr = dotted.rpartition(".")
    while mod_name:
        try:
            mod = importlib.import_module(mod_name)
        except ModuleNotFoundError:
            mod_name, _, head = mod_name.rpartition(".")
            attr = f"{head}.{attr}"
            continue
        obj: Any = mod
        for part in attr.split("."):
            obj = getattr(obj, part)
        return obj
    raise CaseError(f"cannot find {dotted!r}")


def _value(v: Any, env: dict[str, Any], library: dict[str, Any]) -> Any:
    """Arguments: ``$dice``; ``$name`` or ``$name.path`` (an earlier call's result); ``{$new: dotted, ...}``
    (construct with keyword arguments); ``{$creature: statblock, state: {...}}``; lists and mappings recursively."""
    if isinstance(v, str) and v.startswith("$"):
        ref = v[1:]
        head, _, rest = ref.partition(".")
        if head not in env:
            raise CaseError(f"no earlier result named {head!r}")
        return get_path(env[head], rest) if rest else env[head]
    if isinstance(v, list):
        return [_value(x, env, library) for x in v]
    if isinstance(v, dict):
        if "$creature" in v:
            block = _statblock(v["$creature"], library)
            c = Creature.fresh(StatBlock.model_validate(block))
            if "state" in v:
                c = c.model_copy(update={"state": CreatureState.model_validate({**c.state.model_dump(), **v["state"]})})
            return c
        if "$new" in v:
            cls = _resolve_name(v["$new"])
            pos = [_value(x, env, library) for x in v.get("$args", [])]
            kwargs = {k: _value(x, env, library) for k, x in v.items() if k not in ("$new", "$args")}
            validate = getattr(cls, "model_validate", None)
            if validate is not None and not pos and all(_plain(x) for x in kwargs.values()):
                return validate(kwargs)
            return cls(*pos, **kwargs)
        if "$tuple" in v:
            return tuple(_value(x, env, library) for x in v["$tuple"])
        if "$fraction" in v:
            return Fraction(str(v["$fraction"]))
        if "$set" in v:
            return frozenset(_value(x, env, library) for x in v["$set"])
        return {k: _value(x, env, library) for k, x in v.items()}
    return v


def _plain(v: Any) -> bool:
    if isinstance(v, dict):
        return all(_plain(x) for x in v.values())
    if isinstance(v, list):
        return all(_plain(x) for x in v)
    return v is None or isinstance(v, str | int | float | bool)


def _items(value: Any) -> list[Any]:
    return [list(x) if isinstance(x, tuple) else x for x in value]


def check_result(result: Any, path: str, exp: Any, what: str) -> None:
    """``path`` on the result; ``path|has`` / ``path|lacks``: these items are (not) in the collection."""
    for suffix, present in (("|has", True), ("|lacks", False)):
        if path.endswith(suffix):
            items = _items(get_path(result, path[: -len(suffix)]))
            wrong = [e for e in exp if (e in items) != present]
            if wrong:
                raise CaseError(f"{what}: {'missing' if present else 'unexpected'} {wrong}")
            return
    actual = result if path in ("", "=") else get_path(result, path)
    expect_eq(actual, exp, what)


def run_calls(case: Case) -> None:
    labels = parse_dice(case.body.get("dice"))
    dice = ScriptedDice([r for r, _ in labels])
    env: dict[str, Any] = {"dice": dice}
    for i, call in enumerate(case.body["calls"]):
        where = f"call {i + 1} ({call['call']})"
        fn = _resolve_name(call["call"])
        args = [_value(a, env, case.library) for a in call.get("args", [])]
        kwargs = {k: _value(a, env, case.library) for k, a in (call.get("kwargs") or {}).items()}
        if "refused" in call:
            try:
                fn(*args, **kwargs)
            except RuleViolation as e:
                if e.rule != call["refused"]:
                    want = call["refused"]
                    raise CaseError(f"{where}: refused naming {e.rule} ({e.message}), expected {want}") from e
                continue
            raise CaseError(f"{where}: expected a refusal naming {call['refused']}")
        try:
            result = fn(*args, **kwargs)
        except DiceError as e:
            raise CaseError(f"{where}: {e}") from e
        if "as" in call:
            env[call["as"]] = result
        for path, exp in (call.get("expect") or {}).items():
            check_result(result, path, exp, f"{where}: {path or 'result'}")
    if len(dice.history) != len(labels):
        raise CaseError(f"the case lists {len(labels)} dice but {len(dice.history)} were rolled")
    check_labels(dice, labels, 0, "calls")


def run_case(case: Case) -> None:
    if "steps" in case.body:
        run_encounter(case)
    elif "calls" in case.body:
        run_calls(case)
    else:
        raise CaseError(f"case {case.name!r} has neither 'steps' nor 'calls'")
