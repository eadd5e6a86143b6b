"""``sftactics map`` pictures through the command line: walls drawn in the text, a key for every overlay, the
SVG drawn alike by rsvg-convert (when installed) and Debian's chromium (``.ci/run`` installs both), ``--png``, and the
walls in play's map."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from sftactics.cli import app
from sftactics.core.errors import SftError
from sftactics.play import Session
from sftactics.views.command import map_cmd
from tests.table.test_browser import CHROMIUM  # (the browser the live table's tests drive)

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[2]

ROOM = """\
name: Room
map: |
  ##########
  #........#
  #...~~...#
  #........#
  #....o...#
  ##########

  wall 4,1..4,2 E
  wall 5,2..6,2 S
  window 1,3..2,3 N
  window 8,1 E
  light 1,4..3,4 dark
combatants:
  - {id: Krask, side: party, statblock: vesk-soldier, at: [2, 2], initiative: 20}
  - {id: Nyx, side: party, statblock: ysoki-operative, at: [2, 4], initiative: 15}
  - {id: Ksarik, side: aliens, statblock: ksarik, at: [7, 3], initiative: 10}
  - {id: Gutter, side: aliens, statblock: space-goblin, at: [6, 4], initiative: 5}
"""


@pytest.fixture
def room(tmp_path: Path) -> Path:
    path = tmp_path / "room.yaml"
    path.write_text(ROOM, encoding="utf-8")
    return path


def sft(*args: str) -> str:
    r = CliRunner().invoke(app, list(args))
    assert r.exit_code == 0, r.output
    return r.output


def test_walls_and_windows_from_directives_are_drawn_between_the_squares(room: Path) -> None:
    out = sft("map", str(room))
    assert (
        "   0 1 2 3 4 5 6 7 8 9\n"
        "0  # # # # # # # # # #\n"
        "1  # . . . .|. . . .:#\n"  # the wall east of 4,1; the window east of 8,1
        "2  # . K . ~|~ . . . #\n"
        "     ===    +---\n"  # the window north of 1,3 and 2,3; the wall south of 5,2 and 6,2, meeting the other
        "3  # . . . . . . S . #\n"
        "4  # . N . . o G . . #\n"
        "5  # # # # # # # # # #\n"
    ) in out
    assert "edges: | - wall   : = window (on the line between two squares)   + walls meeting\n" in out
    # still listed as directives too, so the text picture describes the whole map
    assert "also (map directives): wall 5,3..6,3 N; wall 5,1..5,2 W; window 1,3..2,3 N; window 9,1 W;" in out


def test_a_mark_that_takes_a_walled_space_names_the_wall_under_the_panel(room: Path) -> None:
    out = sft("map", str(room), "--from", "Krask", "--show", "reach")
    assert "2  # 1 K 1 ~1~22 2 2 #\n" in out  # 4,2 is difficult: its mark takes the space of its east wall
    assert "  edges under a mark (not drawn): 4,2 E\n" in out


def test_every_overlay_has_a_key_in_the_text_and_in_the_svg(room: Path, tmp_path: Path) -> None:
    target = tmp_path / "room.svg"
    out = sft("map", str(room), "--from", "Krask", "--show", "reach,cover", "--area", "burst 10 at 6,3",
              "--svg", str(target))  # fmt: skip
    out += sft("map", str(room), "--show", "threat", "--svg", str(tmp_path / "threat.svg"))
    titles = ["reach: Krask (K)", "cover: each enemy's cover", "area: burst 10 ft at point 6,3",
              "threat: squares threatened by side party", "threat: squares threatened by side aliens"]  # fmt: skip
    lines = out.splitlines()
    for title in titles:
        start = next(i for i, ln in enumerate(lines) if ln.startswith(title))
        key = next(ln for ln in lines[start:] if ln.startswith("key: "))
        assert key != "key: "
    root = ET.parse(target).getroot()
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "legend")
    words = [t.text or "" for t in legend.iter(f"{SVG}text")]
    for meaning in ("1  one move action (up to 30 ft)", "2  double move (up to 60 ft)", "x  in the area",
                    "the point of origin"):  # fmt: skip
        assert meaning in words, words
    assert any(w.startswith("lines: from the attacker's corner") for w in words)
    assert any(w.startswith("c  cover") or w.startswith("t  total cover") for w in words)
    # the terrain key: what the map holds, the edges, the light
    for item in ("floor", "wall", "difficult terrain", "low obstacle", "darkness", "wall (on an edge)",
                 "window (blocks movement, not sight)"):  # fmt: skip
        assert item in words, item
    assert "cover object" not in words  # only what is on the map
    # each swatch is drawn the way the map draws its mark: the threatened squares' red hatching
    root = ET.parse(tmp_path / "threat.svg").getroot()
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "legend")
    assert "!  threatened (AOO-01)" in [t.text for t in legend.iter(f"{SVG}text")]
    threats = [g for g in root.iter(f"{SVG}g") if g.get("class") == "overlay threat"]
    hatching = [{(ln.get("stroke"), float(ln.get("x1", 0)) < float(ln.get("x2", 0))) for ln in g.iter(f"{SVG}line")}
                for g in threats]  # fmt: skip
    # one side's threat hatched in its colour one way, the other's in its own colour the other way
    assert hatching == [{("#2b6cb0", True)}, {("#c53030", False)}]
    swatches = {ln.get("stroke") for ln in legend.iter(f"{SVG}line")}
    assert {"#2b6cb0", "#c53030"} <= swatches


def _pixel(png: Path, x: int, y: int) -> tuple[int, int, int]:
    from PIL import Image

    with Image.open(png) as im:
        r, g, b, *_ = im.convert("RGB").getpixel((x, y))
        return r, g, b


def _close(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = 6) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


# the middle of squares (x, y) of the room's map: 28 px margin, 32 px squares
def _mid(x: int, y: int) -> tuple[int, int]:
    return 28 + 32 * x + 16, 28 + 32 * y + 16


EXPECTED = {
    (0, 0): (45, 55, 72),  # a wall square
    (1, 1): (171, 211, 185),  # floor tinted green: one move action (reach)
    (8, 3): (243, 227, 173),  # floor tinted yellow: a double move
    (1, 4): (104, 145, 121),  # dark floor, tinted green
    (5, 4): (132, 137, 61),  # the low obstacle's bar, tinted green
}


def _draw_with_rsvg(svg: Path, png: Path) -> None:
    exe = shutil.which("rsvg-convert")
    if exe is None:
        pytest.skip("rsvg-convert is not installed (apt-get install librsvg2-bin)")
    subprocess.run([exe, str(svg), "-o", str(png)], check=True, capture_output=True, timeout=120)


def _draw_with_chromium(svg: Path, png: Path) -> None:
    """The browser's own SVG renderer (Skia, not librsvg): the live table's maps are drawn by browsers."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"chromium is not installed ({CHROMIUM}); .ci/run installs it")
    root = ET.parse(svg).getroot()
    size = {"width": int(float(root.get("width", "0"))), "height": int(float(root.get("height", "0")))}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport=size, device_scale_factor=1)
            page.set_content("<html><body style='margin:0'>" + svg.read_text(encoding="utf-8") + "</body></html>")
            page.screenshot(path=str(png), clip={"x": 0, "y": 0, **size})
        finally:
            browser.close()


@pytest.mark.parametrize("renderer", [_draw_with_rsvg, _draw_with_chromium], ids=["rsvg", "chromium"])
def test_the_svg_is_drawn_alike_by_rsvg_and_a_browser(
    room: Path, tmp_path: Path, renderer: Callable[[Path, Path], None]
) -> None:
    # two renderers that share no code: librsvg (cairo) and chromium (Skia). ImageMagick's own renderer (msvg:) was
    # the second one until Debian 12's 6.9.11.60+dfsg-1.6+deb12u15 left it unable to read any SVG at all.
    svg, png = tmp_path / "room.svg", tmp_path / "room.png"
    sft("map", str(room), "--from", "Krask", "--show", "reach", "--svg", str(svg))
    renderer(svg, png)
    root = ET.parse(svg).getroot()
    from PIL import Image

    with Image.open(png) as im:
        assert im.size == (int(float(root.get("width", "0"))), int(float(root.get("height", "0"))))
    for (x, y), colour in EXPECTED.items():
        assert _close(_pixel(png, *_mid(x, y)), colour), ((x, y), _pixel(png, *_mid(x, y)))


def test_png_is_written_directly_and_shows_the_same_picture(room: Path, tmp_path: Path) -> None:
    svg, png = tmp_path / "room.svg", tmp_path / "room.png"
    out = sft("map", str(room), "--from", "Krask", "--show", "reach", "--svg", str(svg), "--png", str(png))
    assert f"PNG written to {png}" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    from PIL import Image

    root = ET.parse(svg).getroot()
    with Image.open(png) as im:
        assert im.size == (int(float(root.get("width", "0"))), int(float(root.get("height", "0"))))
    for (x, y), colour in EXPECTED.items():
        assert _close(_pixel(png, *_mid(x, y)), colour), ((x, y), _pixel(png, *_mid(x, y)))


def test_an_unwritable_png_path_is_an_error(room: Path, tmp_path: Path) -> None:
    with pytest.raises(SftError, match="cannot be written"):
        map_cmd(room, None, [], None, None, Console(record=True), png=tmp_path / "no" / "such" / "dir.png")


def test_plays_map_draws_the_walls_and_writes_a_png(room: Path, tmp_path: Path) -> None:
    console = Console(record=True, width=120)
    lines = iter(["map bare", f"map png {tmp_path / 'now.png'}"])

    def typed(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    Session.open(room, seed=1, physical=False, console=console, input_fn=typed).run()
    text = console.export_text()
    assert "1  # . . . .|. . . .:#\n" in text
    assert "     ===    +---\n" in text
    assert (tmp_path / "now.png").read_bytes()[:4] == b"\x89PNG"


def test_the_colour_map_of_play_draws_the_walls_too(room: Path) -> None:
    from sftactics.io.scenario import load_scenario
    from sftactics.views.battlefield import coloured
    from sftactics.views.mapview import build_view

    state = load_scenario(room)
    text = coloured(state, build_view(state), focus="Krask").plain
    assert "1  # . . . .|. . . .:# \n" in text  # one character per square and one space: no drift
    assert "     ===    +---\n" in text
    assert "edges: | - wall" in text
