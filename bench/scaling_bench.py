"""Scaling curves: the cost of one turn and of a whole fight against the number of combatants (2 to 64) and
against the map size (20x20 to 200x200).

Encounters are built programmatically on an open map (walls around, nothing inside) with two sides: vesk
soldiers (``party``) against space goblins (``aliens``), bundled stat blocks, everyone aware. The engine's own
``Fight`` and ``policy.simple`` play them (``encounter.runner.auto_play`` for a whole fight).

* combatants: a 40x40 map; the sides face each other in columns 12 squares apart;
* map size: four against four, 12 squares apart in the middle of the map, so the work of the fight is the same
  on every map and only the map's own costs (parsing, tables, lines) grow.

A turn is the mean of the first turns after ``Begin`` (up to 8, on a fresh fight each repeat, the map already
parsed); a whole fight includes ``Begin`` (initiative, first awareness) and the first call's table building.
Details carry the work done (turns, commands, rounds) so that time per unit of work can be read off.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from common import Figure, turn_times

from sftactics.encounter.engine import Fight
from sftactics.encounter.runner import auto_play
from sftactics.encounter.state import Encounter
from sftactics.io.scenario import ScenarioFile, build_encounter

NAME = "scaling"
DESCRIPTION = "cost of a turn and of a whole fight versus the number of combatants and the map size"
COUNTS = (2, 4, 8, 16, 32, 64)
SIZES = (20, 40, 60, 100, 140, 200)
QUICK_COUNTS = (2, 4, 8)
QUICK_SIZES = (20, 40)
FIGHT_BUDGET_S = 40.0  # stop repeating a whole fight once its repeats have taken this long


def open_map(size: int) -> str:
    rows = ["#" * size] + ["#" + "." * (size - 2) + "#" for _ in range(size - 2)] + ["#" * size]
    return "\n".join(rows) + "\n"


def encounter(count: int, size: int, gap: int = 12) -> Encounter:
    """``count`` combatants (half a side, vesk soldiers against space goblins) on an open ``size`` map, the two
    sides in columns ``gap`` squares apart around the middle, two rows between creatures of a column."""
    half = count // 2
    rows = (size - 4) // 2  # creatures per column
    mid = size // 2
    combatants: list[dict[str, Any]] = []
    for i in range(count):
        party = i < half
        j = i if party else i - half
        col, row = divmod(j, rows)
        per_side = half if party else count - half
        top = max(2, mid - min(per_side, rows))
        x = mid - gap // 2 - col if party else mid + gap // 2 + col
        combatants.append({
            "id": f"{'P' if party else 'A'}{j}",
            "side": "party" if party else "aliens",
            "statblock": "vesk-soldier" if party else "space-goblin",
            "at": [x, top + 2 * row],
        })  # fmt: skip
    data = {"name": f"scaling {count} on {size}x{size}", "map": open_map(size), "combatants": combatants}
    return build_encounter(ScenarioFile.model_validate(data), Path(f"scaling-{count}-{size}.yaml"))


def whole_fight(enc: Encounter, seed: int) -> tuple[float, dict[str, Any]]:
    from sftactics.encounter.events import TurnStarted
    from sftactics.encounter.state import _parsed_map

    _parsed_map.cache_clear()  # the whole fight pays for parsing its map and building its tables
    t0 = time.perf_counter()
    fight = auto_play(Fight.seeded(enc, seed))
    ms = (time.perf_counter() - t0) * 1000
    turns = sum(isinstance(e, TurnStarted) for evs in fight.events for e in evs)
    return ms, {"rounds": fight.state.timeline.round, "commands": len(fight.commands), "turns": turns,
                "winner": getattr(fight.state.result, "winner", None)}  # fmt: skip


def _point(enc: Encounter, turn_reps: int, fight_reps: int) -> dict[str, Any]:
    turn_times(enc, 0)  # warm-up: the parsed map and the tables a long fight keeps
    per_turn = [statistics.fmean(t) for t in (turn_times(enc, 100 + i) for i in range(turn_reps)) if t]
    fights: list[float] = []
    info: dict[str, Any] = {}
    spent = 0.0
    for i in range(fight_reps):
        ms, info = whole_fight(enc, 200 + i) if i == 0 else (whole_fight(enc, 200)[0], info)
        fights.append(ms)  # the same seed each repeat: the same fight, so the spread is timing noise only
        spent += ms / 1000
        if spent > FIGHT_BUDGET_S:
            break
    turn = Figure.from_runs("turn", "", per_turn)
    fight = Figure.from_runs("fight", "", fights)
    return {
        "turn_ms": turn.to_dict(),
        "fight_ms": fight.to_dict(),
        **info,
        "ms_per_command": round(fight.median_ms / max(1, info.get("commands", 1)), 3),
        "ms_per_turn_in_fight": round(fight.median_ms / max(1, info.get("turns", 1)), 3),
    }


CURVES: dict[str, Any] = {}  # filled by run(): the curves for the JSON and the plot


def setup() -> dict[str, object]:
    return {
        "sides": "vesk-soldier (party) against space-goblin (aliens), open map, simple policy",
        "counts": list(COUNTS),
        "count_map": "40x40",
        "sizes": list(SIZES),
        "size_combatants": 8,
        "curves": CURVES,
    }


def run(quick: bool = False) -> list[Figure]:
    counts, sizes = (QUICK_COUNTS, QUICK_SIZES) if quick else (COUNTS, SIZES)
    figures: list[Figure] = []
    CURVES.clear()
    CURVES["combatants"] = {}
    for n in counts:
        reps = 2 if quick else (5 if n <= 16 else 3)
        fights = 1 if quick else (5 if n <= 8 else (3 if n <= 16 else 1))
        pt = _point(encounter(n, 40), reps, fights)
        CURVES["combatants"][n] = pt
        print(f"  {n:3d} combatants: turn {pt['turn_ms']['median']:8.2f} ms, fight {pt['fight_ms']['median']:9.1f}"
              f" ms ({pt['commands']} commands, {pt['rounds']} rounds)", flush=True)  # fmt: skip
    CURVES["map_size"] = {}
    for s in sizes:
        reps = 2 if quick else 5
        fights = 1 if quick else 3
        pt = _point(encounter(8, s), reps, fights)
        CURVES["map_size"][s] = pt
        print(f"  {s:3d}x{s:<3d} map:     turn {pt['turn_ms']['median']:8.2f} ms, fight {pt['fight_ms']['median']:9.1f}"
              f" ms ({pt['commands']} commands, {pt['rounds']} rounds)", flush=True)  # fmt: skip
    # two summary figures (the curves' ends) so that the table and bench-check see them
    for key, xs, label in (("combatants", counts, "combatants"), ("map_size", sizes, "map")):
        for what in ("turn", "fight"):
            x = xs[-1]
            d = CURVES[key][x][f"{what}_ms"]
            figures.append(Figure(f"{what}_{x}_{label}", f"one {what} at {x} {label} (end of the curve)",
                                  d["repeats"], d["median"], d["best"], None,
                                  {k: v for k, v in CURVES[key][x].items() if not k.endswith("_ms")},
                                  d["iqr"], d["stdev"], d["mean"]))  # fmt: skip
    return figures


def main() -> None:
    """Redraw ``bench/scaling.png`` from ``bench/results.json`` (no new measurement)."""
    import json

    here = Path(__file__).resolve().parent
    report = json.loads((here / "results.json").read_text(encoding="utf-8"))
    plot(report["benchmarks"]["scaling"]["setup"]["curves"], here / "scaling.png")


def plot(curves: dict[str, Any], path: Path) -> bool:
    """Draw the four curves to ``path`` (matplotlib, Agg); False if matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        return False
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, key, xlabel in ((axes[0], "combatants", "combatants"), (axes[1], "map_size", "map side (squares)")):
        pts = curves.get(key) or {}
        xs = sorted(int(k) for k in pts)
        if not xs:
            continue
        for what, style in (("turn_ms", "o-"), ("fight_ms", "s-")):
            ys = [pts[x if x in pts else str(x)][what]["median"] for x in xs]
            ax.plot(xs, ys, style, label=what.replace("_ms", "") + " (median ms)")
        if key == "combatants":
            ys = [pts[x if x in pts else str(x)]["ms_per_command"] for x in xs]
            ax.plot(xs, ys, "^--", label="fight ms per command")
            first = pts[xs[0] if xs[0] in pts else str(xs[0])]["fight_ms"]["median"]
            ref = [first * x / xs[0] for x in xs]
            ax.plot(xs, ref, ":", color="grey", label="linear from the first point")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks(xs, [str(x) for x in xs])
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        ax.set_xlabel(xlabel)
        ax.set_ylabel("ms")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    axes[0].set_title("cost vs combatants (40x40 open map)")
    axes[1].set_title("cost vs map size (8 combatants)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


if __name__ == "__main__":
    main()
