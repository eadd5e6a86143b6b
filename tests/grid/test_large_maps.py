"""Large maps (issue 20): a few bytes a square, searches bounded by the mover's speed, a drawn window, a limit."""

from __future__ import annotations

import pickle
import tracemalloc
from pathlib import Path

import pytest

from sftactics.core.errors import FileFormatError
from sftactics.encounter.commands import Begin, Move
from sftactics.grid.map import MAX_SIDE, Feature, GridMap, edge, parse_map
from sftactics.grid.movement import Mover, StepTable, reachable
from sftactics.io.scenario import load_scenario
from sftactics.views.mapview import VIEW_MAX_SIDE, build_view, render_svg, render_text, view_window
from tests.encounter.helpers import combatant, encounter, fight

MB = 2**20


def open_map(width: int, height: int | None = None) -> str:
    return "\n".join("." * width for _ in range(height or width)) + "\n"


@pytest.mark.rule("MOV-01", "ACT-35")
def test_a_1000_by_1000_map_loads_and_a_creature_moves_in_under_100_mb() -> None:
    text = open_map(1000)
    tracemalloc.start()
    try:
        tess = combatant("Tess", "party", initiative=20, position=(500, 500))
        ksarik = combatant("Ksarik", "aliens", initiative=5, position=(530, 500))
        f = fight(encounter(tess, ksarik, map=text), [])
        f.do(Begin())
        f.do(Move(actor="Tess", to=(505, 503)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert f.state.get("Tess").position == (505, 503)
    assert peak < 100 * MB  # about a kilobyte a square before, a few bytes now


@pytest.mark.rule("MOV-05")
def test_a_search_builds_steps_only_for_the_squares_within_the_movers_reach() -> None:
    grid = GridMap(1000, 1000)
    rm = reachable(grid, (500, 500), Mover(speed=30), actions=2)
    assert max(abs(x - 500) for x, _ in rm.cost) == 12  # 60 ft of a double move
    tables = [v[0] for v in grid.memo.values() if isinstance(v, tuple) and isinstance(v[0], StepTable)]
    assert len(tables) == 1
    assert 0 < len(tables[0]) <= 27 * 27  # rows of steps built: the searched squares, not a million


@pytest.mark.rule("MOV-01")
def test_a_map_taller_than_the_limit_is_refused_naming_the_file_and_field(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError) as e:
        parse_map(open_map(2, MAX_SIDE + 1), file="big.yaml: map")
    assert str(e.value) == (
        f"big.yaml: map: a map at most {MAX_SIDE} squares wide and {MAX_SIDE} high, not 2x{MAX_SIDE + 1}"
    )
    stats = "cr: '1', hp: 10, kac: 12, eac: 12, saves: {fort: 1, ref: 1, will: 1}"
    p = tmp_path / "tall.yaml"
    rows = "\n".join("  .." for _ in range(MAX_SIDE + 1))
    p.write_text(
        f"name: tall\nmap: |\n{rows}\ncombatants:\n"
        f"  - {{id: Ann, side: party, statblock: {{name: Ann, {stats}}}, at: [0, 0]}}\n"
    )
    with pytest.raises(FileFormatError) as e:
        load_scenario(p)
    assert str(e.value) == (
        f"{p}: map: a map at most {MAX_SIDE} squares wide and {MAX_SIDE} high, not 2x{MAX_SIDE + 1}"
    )
    assert parse_map(open_map(MAX_SIDE, 1)).map.width == MAX_SIDE  # the limit itself is allowed


def test_a_map_is_kept_in_two_bytes_a_square_and_stays_a_value() -> None:
    m = parse_map(
        """
        .#~.
        ..*.

        wall 1,1 E
        light 0,0..1,1 dim
        difficult 3,1
        """
    ).map
    assert m.cells.nbytes == 2 * 8 and m.light is not None and m.light.nbytes == 8
    assert list(m.cells) == [0, 1, 2, 0, 0, 0, 64, 2]
    assert m.array.shape == (2, 4) and not m.array.flags.writeable
    same = GridMap(4, 2, tuple(m.cells), m.walls, light=tuple(m.light))
    assert same == m and hash(same) == hash(m)
    assert pickle.loads(pickle.dumps(m)) == m
    assert m.with_features([(0, 0)], Feature.CONCEAL) != m
    assert m.is_hard_point((1, 0)) and m.is_hard_point((2, 2)) and not m.is_hard_point((0, 2))
    assert m.hard_points == {(1, 0), (2, 0), (1, 1), (2, 1), (2, 2)}
    assert m.crossing_blocked((1, 1), (2, 1)) and edge((1, 1), "E") in m.blocking_edges
    with pytest.raises(ValueError, match="integers from 0 to"):
        GridMap(2, 1, (0, 5000))


def test_a_large_map_is_drawn_as_a_window_around_the_combatants() -> None:
    a = combatant("Ann", "party", position=(250, 40))
    b = combatant("Bob", "aliens", position=(262, 45))
    enc = encounter(a, b, map=open_map(300, 200))
    view = build_view(enc)
    assert view.window == (240, 30, 273, 56)  # the combatants' box with 10 squares around it
    text = render_text(view)
    rows = [line for line in text.splitlines() if line[:4].strip().isdigit()]
    assert len(rows) == 26 and rows[0].startswith("30 ") and rows[-1].startswith("55 ")
    assert "A" in rows[10] and "B" in rows[15]
    assert f"more than the {VIEW_MAX_SIDE} a view draws" in text and "columns 240-272 and rows 30-55" in text
    svg = render_svg(view)
    assert svg.count('fill="#f7f5ef"') == 33 * 26 + 1  # one floor square per drawn square, and the legend's swatch


def test_a_window_is_at_most_the_limit_each_way() -> None:
    a = combatant("Ann", "party", position=(0, 0))
    b = combatant("Bob", "aliens", position=(399, 5))
    view = build_view(encounter(a, b, map=open_map(400, 30)))
    assert view.window == (140, 0, 140 + VIEW_MAX_SIDE, 30)  # cut across, drawn whole down
    assert view_window(GridMap(400, 300), ()) == (0, 0, VIEW_MAX_SIDE, VIEW_MAX_SIDE)  # no one: the top-left corner
    assert view_window(GridMap(VIEW_MAX_SIDE, 40), ()) is None


@pytest.mark.rule("ACT-50", "AOO-04")
@pytest.mark.parametrize("reach", [5, 10, 15, 20])
def test_the_squares_to_charge_to_are_looked_for_only_within_reach_of_the_target(reach: int) -> None:
    from sftactics.encounter import movement
    from sftactics.grid.space import reach_covers

    tess = combatant("Tess", "party", position=(1, 1))
    ksarik = combatant("Ksarik", "aliens", position=(9, 6))
    state = encounter(tess, ksarik, map=open_map(16, 12))

    def can_hit(fp: object) -> bool:
        return reach_covers(fp, (9, 6), reach)  # type: ignore[arg-type]

    everywhere = movement.attack_squares(state, tess, ksarik, can_hit)
    assert movement.attack_squares(state, tess, ksarik, can_hit, reach_ft=reach) == everywhere
    assert len(everywhere) > 8


def _sides_on(size: int) -> object:
    from sftactics.io.scenario import ScenarioFile, build_encounter

    data = {
        "name": "big",
        "map": open_map(size),
        "combatants": [
            {"id": "P", "side": "party", "statblock": "pregen-soldier-4", "at": [10, 10]},  # carries grenades
            {"id": "A", "side": "aliens", "statblock": "space-goblin", "at": [20, 10]},
        ],
    }
    return build_encounter(ScenarioFile.model_validate(data), Path("big.yaml"))


def test_the_kernel_leaves_maps_too_large_for_its_per_square_tables_to_the_engine() -> None:
    from sftactics.sim.kernel.model import KERNEL_MAX_GRENADE_SQUARES, KERNEL_MAX_SQUARES, unsupported

    assert KERNEL_MAX_GRENADE_SQUARES < 250 * 250 < KERNEL_MAX_SQUARES < 600 * 600
    assert not [why for why in unsupported(_sides_on(60)) if "map of more" in why]  # type: ignore[arg-type]
    assert [why for why in unsupported(_sides_on(250)) if "map of more" in why] == [  # type: ignore[arg-type]
        "grenades on a map of more than 40,000 squares (a burst per point)"
    ]
    assert [why for why in unsupported(_sides_on(600)) if "map of more" in why] == [  # type: ignore[arg-type]
        "a map of more than 250,000 squares (the kernel's tables are per square)"
    ]
