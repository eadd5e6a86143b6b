"""How much of real play the compiled kernel takes: ``kernel_reach`` (issue 22).

Every creature of the Foundry fixtures (``tests/data/foundry-sfrpg/creatures``) and of the bundled bestiary
(``src/sftactics/data/statblocks``, the pregenerated characters left out) is set, two copies of it, against the
four bundled pregenerated characters of the matching level (the bundled level nearest the creature's CR, rounded
up: CR 3 meets the 4th-level party), on two maps:

* ``open``: a 30 x 20 room with nothing inside;
* ``walls``: the same room cut by an interior wall with a doorway (the map format has no doors: an opening in
  the wall), a blocking edge (a wall on the edge of two squares) and the creatures' half in dim light.

Each encounter is only *asked* whether the kernel plays it (``sftactics.sim.kernel.model.unsupported``); nothing
is played, so the whole census takes seconds. The encounters are asked as ``simulate --no-abilities`` plays
them (``sim.choices.without_specials``: every pregenerated mystic has spells, which the kernel leaves to the
engine); how many the kernel would take with the abilities kept is in the details. The figures: the share
accepted on each map, and the refusal reasons tallied (a reason counted once per encounter, with the combatant
and weapon names taken out), printed most common first. The time is the mean per encounter (building it and asking).

``kernel_shipped``: which shipped scenarios the kernel plays, and why not the others.

``kernel_room2_tactical``: the second benchmark room of issue 22 (interior walls, dim light, a Large creature):
whether the kernel plays it, and how fast the tactical policy plays it (fights per second per core, by the kernel
when it accepts the room, else by the engine, said in the details). While the kernel refuses the room with the
Large barathu (walls and light with a big creature), ``kernel_room2_medium_tactical`` measures the same room with a
Medium ksarik in its place. Its details split a round's time by side (``by_side``: each side tactical in turn, the
others simple), to show whose turns cost the most.

Run ``python bench/reach_bench.py`` (printed), or ``make bench`` (recorded in ``bench/results.json``).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Figure

NAME = "reach"
DESCRIPTION = "share of real encounters the compiled kernel plays (kernel_reach) and the second benchmark room"
ROOT = Path(__file__).resolve().parent.parent
FOUNDRY = ROOT / "tests" / "data" / "foundry-sfrpg" / "creatures"
BUNDLED = ROOT / "src" / "sftactics" / "data" / "statblocks"
PREGEN_LEVELS = (2, 4, 6, 8, 10)
CLASSES = ("soldier", "operative", "mystic", "envoy")
GOAL_SHARE = 0.95

WIDTH, HEIGHT = 30, 20
OPEN_MAP = "\n".join(["." * WIDTH] * HEIGHT)
#: An interior wall down column 12 with a one-square doorway at row 9, a wall on the edge between two squares
#: (x 20, rows 3..5), and the far half of the room in dim light.
WALLS_MAP = (
    "\n".join(("." * 12 + ("." if y == 9 else "#") + "." * (WIDTH - 13)) for y in range(HEIGHT))
    + "\n\nwall 20,3..20,5 W\nlight 13,0..29,19 dim\n"
)
MAPS = {"open": OPEN_MAP, "walls": WALLS_MAP}
PARTY_AT = ((2, 6), (2, 9), (4, 7), (4, 11))
FOES_AT = ((17, 2), (17, 11))  # room for a Colossal creature's 6 x 6 space at each


def setup() -> dict[str, object]:
    return {"creatures": len(creatures()), "maps": f"{WIDTH}x{HEIGHT}: {', '.join(MAPS)}", "party": "4 pregens"}


_CREATURES: list[tuple[str, Any]] = []


def creatures() -> list[tuple[str, Any]]:
    """(name, stat block or bundled name) of every creature in the census, Foundry fixtures first."""
    if not _CREATURES:
        from sftactics.io.foundry import import_paths

        report = import_paths([FOUNDRY])
        for r in report.imported:
            if r.statblock is not None:
                _CREATURES.append((f"foundry:{r.name}", r.statblock))
        for p in sorted(BUNDLED.glob("*.yaml")):
            if not p.stem.startswith("pregen-"):
                _CREATURES.append((f"bundled:{p.stem}", p.stem))
    return _CREATURES


def party_level(cr: str | None) -> int:
    """The bundled pregen level for a creature of challenge rating ``cr`` (nearest, rounded up; 2 to 10)."""
    value = Fraction(cr) if cr else Fraction(1)
    level = 2 * math.ceil(value / 2)
    return min(PREGEN_LEVELS[-1], max(PREGEN_LEVELS[0], level))


def _cr(block: Any) -> str | None:
    if isinstance(block, str):
        from sftactics.io.statblocks import statblock_ref

        return statblock_ref(block).cr
    return getattr(block, "cr", None)


def encounter(block: Any, map_text: str) -> Any:
    """Two copies of ``block`` against the four pregens of the matching level on ``map_text``."""
    from sftactics.io.scenario import ScenarioFile, build_encounter

    level = party_level(_cr(block))
    combatants: list[dict[str, Any]] = [
        {"id": f"PC {cls}", "side": "party", "statblock": f"pregen-{cls}-{level}", "at": list(at)}
        for cls, at in zip(CLASSES, PARTY_AT, strict=True)
    ]
    combatants += [
        {"id": f"Foe {i + 1}", "side": "foes", "statblock": block, "at": list(at)} for i, at in enumerate(FOES_AT)
    ]
    scen = ScenarioFile.model_validate({"name": "kernel reach", "map": map_text, "combatants": combatants})
    return build_encounter(scen, ROOT / "bench" / "reach.yaml")


_WEAPON = re.compile(r"^weapon .+?: ")
#: Reasons that end with the combatants concerned, in brackets.
_NAMING = ("darkness and", "combatants without vision", "walls inside the map and")


def reason_key(why: str) -> str:
    """A refusal reason without the combatant's id and the weapon's name (so equal reasons tally together)."""
    if ": " in why and not why.startswith(("weapon ", "a map", "grenades", "the tactical policy")):
        head, rest = why.split(": ", 1)
        if not head.startswith(("lighting", "walls", "narrow", "awareness", "clouds", "zero", "NPC", "no map")):
            why = rest
    why = _WEAPON.sub("weapon: ", why)
    if why.startswith(_NAMING):
        why = re.sub(r" \([^()]*\)$", "", why)
    return re.sub(r"\(([a-z]+) [^)]*\)$", r"(\1 ...)", why) if why.startswith("starts with") else why


def census(map_name: str) -> tuple[int, int, int, Counter[str], list[float], list[str]]:
    """(encounters, accepted without abilities, accepted with them, reasons tallied (without abilities), ms per
    encounter, encounters that could not be built)."""
    from sftactics.sim.choices import without_specials
    from sftactics.sim.kernel.model import unsupported

    total = accepted = with_abilities = 0
    tally: Counter[str] = Counter()
    times: list[float] = []
    broken: list[str] = []
    for name, block in creatures():
        t0 = time.perf_counter()
        try:
            enc = encounter(block, MAPS[map_name])
        except Exception as e:  # a creature that cannot be placed is reported, not fatal
            broken.append(f"{name}: {type(e).__name__}: {e}"[:160])
            continue
        why = unsupported(without_specials(enc))
        times.append((time.perf_counter() - t0) * 1000)
        total += 1
        if not why:
            accepted += 1
            if not unsupported(enc):
                with_abilities += 1
        tally.update(set(map(reason_key, why)))
    return total, accepted, with_abilities, tally, times, broken


# ---------------------------------------------------------------- the second benchmark room
ROOM2_MAP = """\
##############################
#.........#..................#
#.........#.....=............#
#..=......#.....=.......o....#
#..=...........o........o....#
#..............o.............#
#.........#..........==......#
#.........#..........==......#
#####.#####..................#
#.........#.......#..........#
#..o......#.......#....=.....#
#..o..............#....=.....#
#.........#.......#..........#
#.........#..................#
##############################

light 11,0..29,14 dim
light 1,1..9,7 normal
"""


def room2_data(large: str = "barathu") -> dict[str, Any]:
    """The second benchmark room: the level-5 party of the first benchmark against a Large barathu and two skip
    tracers, in rooms joined by doorways, the far rooms in dim light."""
    from sftactics.sim.benchmark import scenario_data

    party = [c for c in scenario_data()["combatants"] if c["side"] == "party"]
    for c, at in zip(party, ((2, 2), (3, 5), (5, 3), (6, 10)), strict=True):
        c["at"] = list(at)
    foes = [
        {"id": "Big", "side": "aliens", "statblock": large, "at": [25, 7]},
        {"id": "Tracer 1", "side": "aliens", "statblock": "skip-tracer", "at": [26, 3]},
        {"id": "Tracer 2", "side": "aliens", "statblock": "skip-tracer", "at": [26, 12]},
    ]
    return {"name": "Benchmark room 2: walls, dim light, a Large creature", "map": ROOM2_MAP,
            "combatants": [*party, *foes]}  # fmt: skip


def room2(large: str = "barathu") -> Any:
    """The second room as ``simulate --no-abilities`` plays it (the mystic's spells left out); ``large``: the
    stat block in the Large creature's place."""
    from sftactics.io.scenario import ScenarioFile, build_encounter
    from sftactics.sim.choices import without_specials

    data = ScenarioFile.model_validate(room2_data(large))
    return without_specials(build_encounter(data, ROOT / "bench" / "room2.yaml"))


def _room2_figure(quick: bool, large: str = "barathu", name: str = "kernel_room2_tactical") -> Figure:
    from sftactics.sim.fight import run_fight
    from sftactics.sim.policies import make_policy
    from sftactics.sim.runner import SimJob, fight_seed

    enc = room2(large)
    # what ``simulate --policy tactical`` would ask: the model's refusals and the tactical policy's own
    why = SimJob(enc, {"*": "tactical"}).kernel_refusals()
    details: dict[str, Any] = {"kernel_plays": not why, "refusals": sorted(set(map(reason_key, why)))}
    times: list[float] = []
    if not why:
        from sftactics.sim.kernel.run import kernel_batch

        size = 5 if quick else 100
        kernel_batch(enc, [fight_seed(0, 10_000 + i) for i in range(size)], list(range(size)), 50,
                     {"*": "tactical"})  # fmt: skip
        for b in range(1 if quick else 5):
            idx = list(range(b * size, (b + 1) * size))
            t0 = time.process_time()
            kernel_batch(enc, [fight_seed(0, i) for i in idx], idx, 50, {"*": "tactical"})
            times.append((time.process_time() - t0) * 1000 / size)
        details["engine"] = "compiled"
        details["flier_searches_recalled"] = _recalled(enc)
        if not quick:
            details["by_side"] = _by_side(enc, size)
    else:
        for i in range(1 if quick else 4):
            t0 = time.process_time()
            run_fight(enc, fight_seed(0, i), {"*": make_policy("tactical")})
            times.append((time.process_time() - t0) * 1000)
        details["engine"] = "full"
    details["fights_per_second_per_core"] = round(1000 / (sum(times) / len(times)), 2)
    details["goal_fights_per_second_per_core"] = 250
    return Figure.from_runs(
        name,
        f"second benchmark room (interior walls, dim light, {large} as the big foe), tactical policy, CPU ms per fight",
        times,
        4.0,
        details,
    )


def _by_side(enc: Any, size: int) -> dict[str, dict[str, float]]:
    """Where a round's time goes: CPU ms per round and rounds per fight over ``size`` fights (after as many
    warm-up fights) with every side tactical, then with each side tactical and the others simple."""
    from sftactics.sim.kernel.run import kernel_batch
    from sftactics.sim.runner import fight_seed

    sides = sorted(enc.sides())
    out: dict[str, dict[str, float]] = {}
    for who in ("*", *sides):
        policies = {s: "tactical" if who in ("*", s) else "simple" for s in sides}
        idx = list(range(size))
        kernel_batch(enc, [fight_seed(0, 20_000 + i) for i in idx], idx, 50, policies)
        t0 = time.process_time()
        results = kernel_batch(enc, [fight_seed(0, i) for i in idx], idx, 50, policies)
        spent = time.process_time() - t0
        rounds = sum(r.rounds for r in results) / size
        label = "every side tactical" if who == "*" else f"{who} tactical, the others simple"
        out[label] = {"ms_per_round": round(spent * 1000 / size / rounds, 3), "rounds_per_fight": round(rounds, 2)}
    return out


def _recalled(enc: Any) -> dict[str, float]:
    """The share of a big flier's searches the kernel recalled instead of making (``kernel/flymemo.py``), by kind
    of search, over the fights played so far in this process (empty without a big flier)."""
    from sftactics.sim.kernel import flymemo
    from sftactics.sim.kernel.run import compiled

    count = compiled(enc, {"*": "tactical"}).compiled.model.fm_count
    out: dict[str, float] = {}
    for name, kind in (("one move", flymemo.ONE_MOVE), ("second move", flymemo.SECOND_MOVE),
                       ("marked", flymemo.MARKED), ("marked, charging", flymemo.MARKED_CHARGING)):  # fmt: skip
        hits, made = int(count[flymemo.BY_KIND + kind]), int(count[flymemo.MADE + kind])
        if hits + made:
            out[name] = round(hits / (hits + made), 3)
    return out


def run(quick: bool = False) -> list[Figure]:
    figures: list[Figure] = []
    for map_name in MAPS:
        total, accepted, with_abilities, tally, times, broken = census(map_name)
        share = accepted / total if total else 0.0
        figures.append(
            Figure.from_runs(
                f"kernel_reach_{map_name}",
                f"kernel_reach on the {map_name} map: ms per encounter built and asked (the share in details)",
                times,
                None,
                {
                    "encounters": total,
                    "accepted": accepted,
                    "share": round(share, 3),
                    "accepted_with_abilities": with_abilities,
                    "goal_share": GOAL_SHARE,
                    "refusals": dict(tally.most_common()),
                    "not_built": broken,
                },
            )
        )
    figures.append(_shipped_figure())
    figures.append(_room2_figure(quick))
    if not figures[-1].details["kernel_plays"]:  # the room with a Medium ksarik in the Large creature's place
        figures.append(_room2_figure(quick, "ksarik", "kernel_room2_medium_tactical"))
    return figures


def _shipped_figure() -> Figure:
    """Which shipped scenarios (``scenarios/``, ``examples/scenarios/``) the kernel plays, as ``simulate
    --no-abilities`` asks it, and why not the others."""
    from sftactics.io.scenario import load_scenario
    from sftactics.sim.choices import without_specials
    from sftactics.sim.kernel.model import unsupported

    times: list[float] = []
    refused: dict[str, list[str]] = {}
    played: list[str] = []
    paths = sorted([*(ROOT / "scenarios").glob("*.yaml"), *(ROOT / "examples" / "scenarios").glob("*.yaml")])
    for p in paths:
        t0 = time.perf_counter()
        why = unsupported(without_specials(load_scenario(p)))
        times.append((time.perf_counter() - t0) * 1000)
        if why:
            refused[p.stem] = why
        else:
            played.append(p.stem)
    return Figure.from_runs(
        "kernel_shipped",
        "the shipped scenarios the compiled kernel plays (without abilities): ms per scenario loaded and asked",
        times,
        None,
        {"scenarios": len(paths), "played": played, "refused": refused},
    )


def report(figures: list[Figure]) -> str:
    lines = []
    for f in figures:
        d = f.details
        if "played" in d:
            lines.append(f"{f.name}: the kernel plays {len(d['played'])} of {d['scenarios']} shipped scenarios "
                         f"({', '.join(d['played'])})")  # fmt: skip
            for name, why in d["refused"].items():
                lines.append(f"  {name}: {'; '.join(why)}")
        elif "share" in d:
            lines.append(f"{f.name}: the kernel plays {d['accepted']} of {d['encounters']} encounters "
                         f"({100 * d['share']:.0f}%, goal {100 * d['goal_share']:.0f}%; with abilities "
                         f"{d['accepted_with_abilities']})")  # fmt: skip
            for why, count in d["refusals"].items():
                lines.append(f"  {count:4d}  {why}")
            for b in d["not_built"]:
                lines.append(f"  not built: {b}")
        else:
            lines.append(f"{f.name}: {d['engine']}, {d['fights_per_second_per_core']} fights/s per core "
                         f"(goal {d['goal_fights_per_second_per_core']})")  # fmt: skip
            for why in d["refusals"]:
                lines.append(f"  refused: {why}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=DESCRIPTION)
    ap.add_argument("--quick", action="store_true", help="fewer fights in the second room")
    args = ap.parse_args()
    print(report(run(args.quick)))


if __name__ == "__main__":
    main()
