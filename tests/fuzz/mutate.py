"""Mutations of the shipped files (scenarios, stat blocks, command files): each load must either succeed with
valid data or raise the project's error naming the file (and, for bad data, the field)."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from sftactics.core.errors import FileFormatError, SftError
from sftactics.io.scenario import load_commands, load_scenario
from sftactics.io.statblocks import load_statblock

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "sftactics" / "data" / "statblocks"
KINDS: dict[str, tuple[list[Path], Callable[[Path], object]]] = {
    "scenario": (sorted([*ROOT.glob("scenarios/*.yaml"), *ROOT.glob("examples/scenarios/*.yaml")]), load_scenario),
    "statblock": (sorted([*SRC.glob("*.yaml"), *ROOT.glob("examples/statblocks/*.yaml")]), load_statblock),
    "commands": (sorted(ROOT.glob("examples/commands/*.yaml")), load_commands),
}
JUNK: list[Any] = [None, -1, 0, 10**12, -(10**9), 1.5, float("nan"), "", "x" * 300, "1000d1000", [], {}, [1, 2],
                   {"a": 1}, True, "\u0000", [-5, -5], [10**6, 3]]  # fmt: skip


def _paths(data: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*at, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*at, i))
    return out


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        data = data[p]
    return data


def mutate(data: Any, rng: random.Random) -> Any:
    """One to three random changes: a value replaced by junk, a key removed, a value doubled up or negated."""
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _paths(data) if p]
        if not paths:
            return rng.choice(JUNK)
        path = rng.choice(paths)
        parent = _get(data, path[:-1])
        key = path[-1]
        roll = rng.random()
        value = parent[key]
        if roll < 0.5:
            parent[key] = copy.deepcopy(rng.choice(JUNK))  # a fresh one: JUNK itself must never change
        elif roll < 0.7 and isinstance(parent, dict):
            del parent[key]
        elif roll < 0.85 and isinstance(value, (int, float)) and not isinstance(value, bool):
            parent[key] = rng.choice([-value, value * 1000, -1])
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(value))
        else:
            parent[key] = [value, value]
    return data


def check_one(kind: str, source: Path, rng: random.Random, out: Path) -> str | None:
    """Load one mutation of ``source``; the problem (a traceback's type, an error not naming the file), or None."""
    loader = KINDS[kind][1]
    data = yaml.safe_load(source.read_text())
    target = out / source.name
    try:
        text = yaml.safe_dump(mutate(data, rng), allow_unicode=False)
    except (yaml.YAMLError, ValueError):
        return None
    target.write_text(text)
    try:
        loader(target)
    except FileFormatError as e:
        if e.file != str(target):
            return f"{kind}: error names {e.file!r}, not the file"
    except SftError as e:
        if str(target) not in str(e):
            return f"{kind}: error does not name the file: {e}"
    except Exception as e:  # the failure this test exists to find
        return f"{kind}: {type(e).__name__}: {e}"
    return None
