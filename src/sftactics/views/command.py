"""The body of ``sftactics map``: read a scenario, build the view, print it as text and write SVG if asked.

This is the shell around :mod:`sftactics.views.mapview` (which stays pure); ``cli.py`` registers it as a typer
command. Every user mistake is an :class:`~sftactics.core.errors.SftError` with a message saying what to fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.console import Console

from sftactics.core.errors import SftError
from sftactics.io.scenario import load_scenario
from sftactics.views.mapview import build_view, render_svg, render_text


def map_cmd(
    scenario: Path,
    from_: str | None,
    show: Sequence[str],
    svg: Path | None,
    area: str | None,
    console: Console,
    *,
    view: str | None = None,
    png: Path | None = None,
) -> None:
    """Draw ``scenario``'s map (or a saved fight's, ``.jsonl``, as it stands at the end of the log) with its
    combatants and the overlays in ``show`` (reach, threat, cover, area; each item may hold several names
    separated by commas); ``from_`` names the combatant they are for (or the side, for threat); ``area`` is an
    area template such as ``"burst 15 at 5,5"``; ``svg`` and ``png`` also write the picture there (the same
    picture: :mod:`~sftactics.views.scene`); ``view`` names the side
    whose picture it is (opponents it has not located are left out)."""
    if scenario.suffix.lower() == ".jsonl":  # a fight saved by play or run --save: the battlefield as it stands
        from sftactics.encounter.engine import Fight

        state = Fight.load(scenario).state
    else:
        state = load_scenario(scenario)
    if state.map is None:
        raise SftError(f"{scenario}: the scenario has no map (add one under 'map:', see docs/maps.md)")
    picture = build_view(state, subject=from_, show=show, area=area, view=view)
    console.print(render_text(picture), markup=False, highlight=False, emoji=False, end="")
    for path, what in ((svg, "SVG"), (png, "PNG")):
        if path is None:
            continue
        if what == "SVG":
            data: bytes = render_svg(picture).encode("utf-8")
        else:
            from sftactics.views.pngmap import render_png

            data = render_png(picture)
        try:
            path.write_bytes(data)
        except OSError as e:
            raise SftError(f"{path}: cannot be written ({e.strerror})") from None
        console.print(f"{what} written to {path}", markup=False, highlight=False, emoji=False)
