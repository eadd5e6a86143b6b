"""Timing of the grid's two hot paths: run ``make bench`` (all benchmarks, results in ``bench/results.json``) or
``python bench/grid_bench.py`` (this one, printed only).

* reachable squares for a Medium creature with speed 30 on a 100x100 map with 40 creatures and scattered
  difficult terrain (goal: well under 10 ms), for one move action and for a double move;
* cover between every ordered pair of 40 combatants (goal: well under 50 ms).

The map's own tables (steps, line index) are built once per map; that one-off cost is measured separately
(the first call on a fresh map). See ``docs/performance.md``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import partial

from common import Figure, runs_of

from sftactics.grid.cover import cover_table
from sftactics.grid.flanking import flanking
from sftactics.grid.geometry import Footprint, Square
from sftactics.grid.map import Feature, GridMap, edge
from sftactics.grid.movement import Mover, Occupant, reachable
from sftactics.grid.space import Body

NAME = "grid"
DESCRIPTION = "the battle grid's hot paths: reachable squares and cover between every pair of combatants"
SIZE = 100
CREATURES = 40
REACH_REPEATS = 50
COVER_REPEATS = 20


def build_map(seed: int = 1) -> tuple[GridMap, list[Square]]:
    """A 100x100 map: ~15% difficult terrain, 60 pillars and crates, 25 short wall runs; 40 free squares."""
    rng = random.Random(seed)
    features: dict[Square, Feature] = {}
    for _ in range(SIZE * SIZE * 15 // 100):  # ~15% difficult terrain
        features[(rng.randrange(SIZE), rng.randrange(SIZE))] = Feature.DIFFICULT
    for _ in range(60):  # pillars and crates
        sq = (rng.randrange(SIZE), rng.randrange(SIZE))
        features[sq] = Feature.SOLID if rng.random() < 0.5 else Feature.COVER
    walls = set()
    for _ in range(25):  # short wall runs on square edges
        x, y = rng.randrange(SIZE - 6), rng.randrange(SIZE - 6)
        side = rng.choice("NESW")
        for i in range(rng.randrange(2, 6)):
            walls.add(edge((x + i, y) if side in "NS" else (x, y + i), side))
    grid = GridMap.build(SIZE, SIZE, features=features, walls=walls)
    free = [s for s in grid.squares() if not grid.features(s) & (Feature.SOLID | Feature.COVER)]
    spots = rng.sample(free, CREATURES)
    return grid, spots


def _once(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def setup() -> dict[str, object]:
    """What the benchmark runs on (recorded next to the figures)."""
    grid, _ = build_map()
    return {
        "map": f"{SIZE}x{SIZE}",
        "creatures": CREATURES,
        "difficult_squares": len(grid.squares_with(Feature.DIFFICULT)),
        "walls_on_edges": len(grid.walls),
        "mover": "Medium, land speed 30 ft",
    }


def run(quick: bool = False) -> list[Figure]:
    """Every figure of the grid benchmark (``quick``: a few repeats only, for a smoke test)."""
    reach_n, cover_n = (3, 3) if quick else (REACH_REPEATS, COVER_REPEATS)
    grid, spots = build_map()
    me = spots[0]
    occupants = {s: (Occupant.ALLY if i % 2 else Occupant.ENEMY) for i, s in enumerate(spots[1:], 1)}
    mover = Mover(speed=30)
    figures: list[Figure] = []

    first = _once(lambda: reachable(grid, me, mover, occupants=occupants))
    figures.append(
        Figure("reachable_first_call", "first reachable() on a fresh map (builds the map's step table)", 1,
               first, first)
    )  # fmt: skip
    for actions, name, words in ((1, "reachable_one_move", "one move"), (2, "reachable_double_move", "double move")):
        result = reachable(grid, me, mover, occupants=occupants, actions=actions)
        runs = runs_of(partial(reachable, grid, me, mover, occupants=occupants, actions=actions), reach_n)
        figures.append(
            Figure.from_runs(
                name,
                f"reachable squares, {words}: Medium, speed 30, {SIZE}x{SIZE} map, {CREATURES} creatures",
                runs,
                10.0,
                {"squares": len(result.cost)},
            )
        )

    # a path for one move: the farthest square reachable with one move action, found and priced
    rm = reachable(grid, me, mover, occupants=occupants)
    far = max(rm.cost, key=lambda sq: (rm.cost[sq], sq))
    runs = runs_of(lambda: reachable(grid, me, mover, occupants=occupants).path_to(far), reach_n)
    path = rm.path_to(far)
    figures.append(
        Figure.from_runs(
            "path_one_move",
            "reachable squares for one move, then the path to the farthest of them",
            runs,
            10.0,
            {"to": list(far), "steps": len(path.steps), "cost_ft": path.cost_ft},
        )
    )

    spaces = [Footprint(x, y) for x, y in spots]
    bodies = [Body(fp, side="a" if i % 2 else "b") for i, fp in enumerate(spaces)]

    def flank_all() -> int:
        n = 0
        for i, att in enumerate(bodies):
            partners = [b for j, b in enumerate(bodies) if j != i and b.side == att.side]
            for j, tgt in enumerate(bodies):
                if j != i and tgt.side != att.side:
                    n += flanking(att, tgt.space, partners, target_side=tgt.side, grid=grid).flanked
        return n

    flanks = flank_all()
    runs = runs_of(flank_all, cover_n)
    figures.append(
        Figure.from_runs(
            "flanking_all_pairs_40",
            f"flanking of every enemy pair of {CREATURES} combatants (two sides, every ally a partner)",
            runs,
            None,
            {"pairs": CREATURES * CREATURES // 2, "flanked": flanks},
        )
    )
    first = _once(lambda: cover_table(grid, spaces))
    table = cover_table(grid, spaces)
    runs = runs_of(lambda: cover_table(grid, spaces), cover_n)
    kinds: dict[str, int] = {}
    for k in table.values():
        kinds[k.name.lower()] = kinds.get(k.name.lower(), 0) + 1
    figures.append(
        Figure("cover_table_first_call", "first cover_table() (builds the map's line index)", 1, first, first)
    )
    figures.append(
        Figure.from_runs(
            "cover_table_40",
            f"cover between every ordered pair of {CREATURES} combatants ({len(table)} pairs)",
            runs,
            50.0,
            {"pairs": len(table), "results": dict(sorted(kinds.items()))},
        )
    )
    return figures


def main() -> None:
    print(", ".join(f"{k} {v}" for k, v in setup().items()))
    for f in run():
        goal = f" (goal {f.goal_ms:g} ms)" if f.goal_ms is not None else ""
        print(f"{f.name:24s} median {f.median_ms:8.2f} ms  best {f.best_ms:8.2f} ms  x{f.repeats}{goal}  {f.details}")


if __name__ == "__main__":
    main()
