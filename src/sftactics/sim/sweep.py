"""Sweeps: the same simulation over a grid of variations of a scenario, one summary per variation.

A variation is ``KEY=v1,v2,...``; several ``--vary`` options make a grid (every combination, the first key
varying slowest). Every variation runs with the same master seed (common random numbers: fight ``i`` gets the
same dice stream in every variation, which makes the differences between rows less noisy). KEYs:

``party_level=2,4,6``
    Player characters given by a pregenerated stat block (``pregen-CLASS-N``) become ``pregen-CLASS-LEVEL``.
``enemy_count=1,2,3`` (``count:SIDE=...`` for a given side)
    The number of combatants on the side without player characters (there must be exactly one such side for
    ``enemy_count``): fewer keeps the first ones in file order; more adds copies of them in turn (``Goblin 2``,
    ``Goblin 3``...), each on the free square nearest to its original.
``creature:ID=name1,name2``
    Combatant ``ID`` gets another stat block: a bundled creature's name or a stat-block file (relative to the
    scenario).
``policy=simple,tactical`` (``policy:SIDE=...`` for one side)
    The policy of every side (or of one side).
``max_rounds=10,20``
    The round limit.
"""

from __future__ import annotations

import itertools
import re
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sftactics.core.errors import FileFormatError, SftError
from sftactics.encounter.state import Encounter
from sftactics.io.files import load_model
from sftactics.io.scenario import CombatantEntry, ScenarioFile, build_encounter, side_morale
from sftactics.sim.morale import DEFAULT_MORALE, parse_morale
from sftactics.sim.runner import Backend, DaskSession, EngineChoice, SimJob, simulate
from sftactics.sim.stats import Summary

KEYS = ("party_level", "enemy_count", "count:SIDE", "creature:ID", "policy", "policy:SIDE", "max_rounds")
_PREGEN = re.compile(r"^pregen-([a-z]+)-(\d+)$", re.IGNORECASE)


@dataclass(frozen=True)
class Vary:
    """One ``--vary`` option: a key and its values (as written)."""

    key: str
    values: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> Vary:
        key, sep, rest = text.partition("=")
        key = key.strip()
        values = tuple(v.strip() for v in rest.split(",") if v.strip())
        if not sep or not key or not values:
            raise SftError(f"--vary expects KEY=v1,v2,... (keys: {', '.join(KEYS)}), not {text!r}")
        base = key.split(":", 1)[0]
        if base not in ("party_level", "enemy_count", "count", "creature", "policy", "max_rounds"):
            raise SftError(f"--vary: unknown key {key!r} (keys: {', '.join(KEYS)})")
        if base in ("count", "creature") and ":" not in key:
            raise SftError(f"--vary: {base} needs a name, as in {base}:{'SIDE' if base == 'count' else 'ID'}=...")
        if base in ("party_level", "enemy_count", "count", "max_rounds"):
            for v in values:
                if not v.isdigit() or int(v) < 1:
                    raise SftError(f"--vary {key}: values must be whole numbers of at least 1, not {v!r}")
        return cls(key, values)


@dataclass(frozen=True)
class Variation:
    """One row of a sweep: the values chosen, the encounter they give, the policies and the round limit."""

    label: dict[str, str]
    encounter: Encounter
    policies: dict[str, str]
    max_rounds: int

    @property
    def name(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.label.items())


def load_scenario_file(path: str | Path) -> ScenarioFile:
    from sftactics.io.scenario import is_sf2e

    if is_sf2e(Path(path)):
        raise FileFormatError(str(path), "ruleset", "a 1st-edition scenario: sweep varies 1E parties and foes "
                              "(simulate plays a 2E one)")  # fmt: skip
    return load_model(Path(path), ScenarioFile)


def variations(
    scenario: ScenarioFile,
    path: Path,
    varies: Sequence[Vary],
    policies: Mapping[str, str],
    max_rounds: int = 50,
) -> list[Variation]:
    """Every combination of the varied values, as encounters ready to simulate."""
    base = build_encounter(scenario, path)
    pc_sides = {c.side for c in base.combatants.values() if c.creature.stat.kind == "pc"}
    out = []
    for combo in itertools.product(*(v.values for v in varies)):
        scen = scenario
        pol = dict(policies)
        rounds = max_rounds
        label: dict[str, str] = {}
        for vary, value in zip(varies, combo, strict=True):
            label[vary.key] = value
            kind, _, name = vary.key.partition(":")
            if kind == "party_level":
                scen = _party_level(scen, base, pc_sides, int(value), path)
            elif kind in ("enemy_count", "count"):
                side = name if kind == "count" else _enemy_side(base, pc_sides)
                scen = _count(scen, base, side, int(value), path)
            elif kind == "creature":
                scen = _creature(scen, name, value)
            elif kind == "policy":
                pol[name or "*"] = value
                if not name:
                    pol = {"*": value}
            elif kind == "max_rounds":
                rounds = int(value)
        try:
            enc = build_encounter(scen, path)
        except SftError as e:
            raise SftError(f"variation {label}: {e}") from None
        out.append(Variation(label, enc, pol, rounds))
    return out


def _enemy_side(base: Encounter, pc_sides: set[str]) -> str:
    others = [s for s in base.sides() if s not in pc_sides]
    if len(others) != 1:
        raise SftError(
            f"enemy_count needs exactly one side without player characters (found: {', '.join(others) or 'none'}); "
            "use count:SIDE=..."
        )
    return others[0]


def _party_level(scen: ScenarioFile, base: Encounter, pc_sides: set[str], level: int, path: Path) -> ScenarioFile:
    from sftactics.content import find_statblock

    entries = []
    changed = 0
    for e in scen.combatants:
        if e.side in pc_sides and base.combatants[e.id].creature.stat.kind == "pc":
            m = _PREGEN.match(e.statblock) if isinstance(e.statblock, str) else None
            if m is None:
                raise SftError(
                    f"party_level: {e.id} is not a pregenerated character (its stat block must be 'pregen-CLASS-N')"
                )
            name = f"pregen-{m.group(1).lower()}-{level}"
            if find_statblock(name) is None:
                raise SftError(f"party_level: there is no bundled {name!r} for {e.id}")
            e = e.model_copy(update={"statblock": name})
            changed += 1
        entries.append(e)
    if not changed:
        raise SftError("party_level: the scenario has no player characters")
    return scen.model_copy(update={"combatants": tuple(entries)})


def _creature(scen: ScenarioFile, cid: str, statblock: str) -> ScenarioFile:
    if not any(e.id == cid for e in scen.combatants):
        raise SftError(f"creature:{cid}: no combatant named {cid!r}")
    entries = tuple(e.model_copy(update={"statblock": statblock}) if e.id == cid else e for e in scen.combatants)
    return scen.model_copy(update={"combatants": entries})


def _count(scen: ScenarioFile, base: Encounter, side: str, count: int, path: Path) -> ScenarioFile:
    mine = [e for e in scen.combatants if e.side == side]
    if not mine:
        raise SftError(f"count: no combatants on the side {side!r}")
    if count <= len(mine):
        keep = {e.id for e in mine[:count]}
        return scen.model_copy(
            update={"combatants": tuple(e for e in scen.combatants if e.side != side or e.id in keep)}
        )
    grid = None
    if scen.map is not None:
        from sftactics.grid.map import parse_map

        grid = parse_map(scen.map).map
    from sftactics.grid.geometry import Footprint
    from sftactics.grid.space import Size, footprint_side

    def side_of(e: CombatantEntry) -> int:
        c = base.combatants.get(e.id)
        size = c.creature.stat.size if c is not None else "medium"
        return footprint_side(Size(size))

    taken: set[tuple[int, int]] = set()
    for e in scen.combatants:
        if e.at is not None:
            taken |= set(Footprint(e.at[0], e.at[1], side_of(e)).squares)
    names = {e.id for e in scen.combatants}
    extra: list[CombatantEntry] = []
    for k in range(count - len(mine)):
        src = mine[k % len(mine)]
        n = 2
        while f"{src.id} {n}" in names:
            n += 1
        new_id = f"{src.id} {n}"
        names.add(new_id)
        at = src.at
        if at is not None and grid is not None:
            at = _free_square(grid, at, side_of(src), taken)
            if at is None:
                raise SftError(f"count: no free square on the map for another {src.id}")
            taken |= set(Footprint(at[0], at[1], side_of(src)).squares)
        extra.append(src.model_copy(update={"id": new_id, "at": at}))
    return scen.model_copy(update={"combatants": (*scen.combatants, *extra)})


def _free_square(grid: Any, start: tuple[int, int], side: int, taken: set[tuple[int, int]]) -> tuple[int, int] | None:
    """The nearest square (breadth first, 8 directions) where a ``side``-wide space fits, free of others."""
    from sftactics.grid.geometry import Footprint
    from sftactics.grid.map import Feature

    blocked = Feature.SOLID | Feature.COVER | Feature.IMPASSABLE
    seen = {start}
    queue = deque([start])
    while queue:
        sq = queue.popleft()
        fp = Footprint(sq[0], sq[1], side)
        if grid.fits(fp) and not any(q in taken or grid.features(q) & blocked for q in fp.squares):
            return sq
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                nxt = (sq[0] + dx, sq[1] + dy)
                if nxt not in seen and grid.in_bounds(nxt):
                    seen.add(nxt)
                    queue.append(nxt)
    return None


@dataclass(frozen=True)
class SweepRow:
    variation: Variation
    summary: Summary


def sweep(
    path: str | Path,
    varies: Sequence[str],
    runs: int,
    *,
    seed: int = 0,
    policies: Mapping[str, str] | None = None,
    max_rounds: int = 50,
    workers: int | None = None,
    backend: Backend = "local",
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    engine: EngineChoice = "auto",
    morale: str | None = None,
    abilities: bool = True,
) -> list[SweepRow]:
    """Simulate every variation ``runs`` times (same master seed for each); one row per variation. ``engine``
    as :class:`~sftactics.sim.runner.SimJob` takes it (each variation is checked on its own). ``morale``: every
    side's (``sim.morale``); None: the scenario's ``sides.SIDE.morale``, else by-the-book. Without
    ``abilities`` the stat blocks' special abilities and spells are left out (``sim.choices.without_specials``)."""
    p = Path(path)
    scen = load_scenario_file(p)
    try:
        sides_morale = parse_morale(morale) if morale is not None else parse_morale(None, side_morale(scen))
    except ValueError as e:
        raise SftError(f"--morale: {e}") from None
    parsed = [Vary.parse(v) for v in varies]
    rows = variations(scen, p, parsed, policies or {"*": "tactical"}, max_rounds)
    if not abilities:
        from dataclasses import replace

        from sftactics.sim.choices import without_specials

        rows = [replace(var, encounter=without_specials(var.encounter)) for var in rows]
    total = runs * len(rows)
    out = []
    session = None
    if backend == "dask":
        import os

        session = DaskSession(workers or os.cpu_count() or 1, scheduler)
    try:
        for i, var in enumerate(rows):
            out.append(_one(var, i, runs, total, seed, workers, backend, scheduler, progress, session, p, engine,
                            sides_morale))  # fmt: skip
    finally:
        if session is not None:
            session.close()
    return out


def _one(
    var: Variation,
    i: int,
    runs: int,
    total: int,
    seed: int,
    workers: int | None,
    backend: Backend,
    scheduler: str | None,
    progress: Callable[[int, int], None] | None,
    session: DaskSession | None,
    p: Path,
    engine: EngineChoice = "auto",
    morale: Mapping[str, str] | None = None,
) -> SweepRow:
    try:
        job = SimJob(var.encounter, var.policies, seed=seed, max_rounds=var.max_rounds, engine=engine,
                     morale=morale or {"*": DEFAULT_MORALE})  # fmt: skip
        job.compiled()
    except ValueError as e:
        raise SftError(f"variation {var.name}: {e}") from None

    def step(done: int, _total: int) -> None:
        if progress is not None:
            progress(i * runs + done, total)

    meta = {"variation": var.label, "scenario_file": str(p)}
    summary = simulate(job, runs, workers=workers, backend=backend, scheduler=scheduler, progress=step, meta=meta,
                       session=session)  # fmt: skip
    return SweepRow(var, summary)


def rows_to_dict(rows: Sequence[SweepRow]) -> list[dict[str, Any]]:
    return [{"variation": r.variation.label, **r.summary.to_dict()} for r in rows]
