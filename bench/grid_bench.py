"""Timing of the grid's two hot paths (a plain script, not a test): run ``python bench/grid_bench.py``.

* reachable squares for a Medium creature with speed 30 on a 100x100 map with 40 creatures and scattered
  difficult terrain (goal: well under 10 ms), for one move action and for a double move;
* cover between every ordered pair of 40 combatants (goal: well under 50 ms).

The map's own tables (steps, line index) are built once per map; that one-off cost is printed separately.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from sftactics.grid.cover import cover_table
from sftactics.grid.geometry import Footprint, Square
from sftactics.grid.map import Feature, GridMap, edge
from sftactics.grid.movement import Mover, Occupant, reachable

SIZE = 100
CREATURES = 40


def build_map(seed: int = 1) -> tuple[GridMap, list[Square]]:
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


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t0) * 1000)
    return statistics.median(runs), min(runs)


def main() -> None:
    grid, spots = build_map()
    me = spots[0]
    occupants = {s: (Occupant.ALLY if i % 2 else Occupant.ENEMY) for i, s in enumerate(spots[1:], 1)}
    mover = Mover(speed=30)

    t0 = time.perf_counter()
    reachable(grid, me, mover, occupants=occupants)
    first = (time.perf_counter() - t0) * 1000
    single = reachable(grid, me, mover, occupants=occupants)
    double = reachable(grid, me, mover, occupants=occupants, actions=2)
    med1, best1 = timed(lambda: reachable(grid, me, mover, occupants=occupants), 50)
    med2, best2 = timed(lambda: reachable(grid, me, mover, occupants=occupants, actions=2), 50)
    print(f"map {SIZE}x{SIZE}, {CREATURES} creatures, {len(grid.squares_with(Feature.DIFFICULT))} difficult squares")
    print(f"first call (builds the map's step table): {first:.1f} ms")
    print(f"reachable, one move (speed 30):   {len(single.cost):4d} squares, median {med1:.2f} ms, best {best1:.2f} ms")
    print(f"reachable, double move:           {len(double.cost):4d} squares, median {med2:.2f} ms, best {best2:.2f} ms")

    spaces = [Footprint(x, y) for x, y in spots]
    t0 = time.perf_counter()
    table = cover_table(grid, spaces)
    first = (time.perf_counter() - t0) * 1000
    med, best = timed(lambda: cover_table(grid, spaces), 20)
    kinds: dict[str, int] = {}
    for k in table.values():
        kinds[k.name] = kinds.get(k.name, 0) + 1
    print(f"cover, every ordered pair of {CREATURES} ({len(table)} pairs): first {first:.1f} ms, "
          f"median {med:.2f} ms, best {best:.2f} ms")  # fmt: skip
    print("  results:", ", ".join(f"{k.lower()} {n}" for k, n in sorted(kinds.items())))


if __name__ == "__main__":
    main()
