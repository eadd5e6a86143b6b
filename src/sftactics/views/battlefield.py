"""The battlefield as it stands, for the table: the map with its tokens in colour (rich), whose turn it is, and
a roster of every combatant's pools and conditions under it.

Pure: a :class:`~sftactics.views.picture.MapView` and the :class:`~sftactics.encounter.state.Encounter` go
in, a rich :class:`~rich.text.Text` (or plain lines) comes out. The colour picture is one panel: the reach
overlay colours the squares' background (one move, double move), the other overlays put their mark in the
space after the square's character (``!`` threatened, cover letters, area ``-``), the combatant whose turn it
is stands in reverse video. Without colour, :func:`~sftactics.views.textmap.render_text` draws each overlay
as its own panel.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from rich.text import Text

from sftactics.core.errors import RuleViolation
from sftactics.encounter import budget
from sftactics.encounter.engine import pending
from sftactics.encounter.state import Encounter
from sftactics.grid.geometry import Square
from sftactics.views import legend, textmap
from sftactics.views.picture import MapView, Overlay

SIDE_STYLES = ("bold bright_cyan", "bold bright_red", "bold bright_green", "bold magenta", "bold yellow",
               "bold bright_blue", "bold dark_orange", "bold white")  # fmt: skip
TERRAIN_STYLES = {"#": "grey62 on grey30", ".": "grey42", "~": "yellow", "%": "red3", "o": "dark_orange3",
                  "=": "dark_orange3", "&": "orchid", "*": "grey58", '"': "grey58", ",": "cyan",
                  "^": "green"}  # fmt: skip
REACH_BACKGROUND = {"1": "on #1d4d26", "2": "on #4d4719"}
AREA_BACKGROUND = "on #5c2150"
MARK_STYLES = {"threat": "bold red", "cover": "bold yellow", "area": "dim"}
EDGE_STYLE = "bold"


def heading(state: Encounter) -> str:
    """The fight's name, the round and whose turn it is."""
    t = state.timeline
    if state.result is not None:
        return f"{state.name}: over in round {state.result.round} ({state.result.winner or 'nobody'} wins)"
    if t.phase == "setup":
        return f"{state.name}: not begun"
    who = pending(state)
    phase = "surprise round" if t.phase == "surprise" else f"round {t.round}"
    turn = f"{who}'s turn" if t.turn is not None else (f"next: {who}" if who else "between turns")
    return f"{state.name}: {phase}, {turn}"


def roster(state: Encounter, view: MapView) -> list[tuple[str, str, str]]:
    """(letter, side, text) for each token: name, pools and conditions (``down``, ``dead`` when so)."""
    out: list[tuple[str, str, str]] = []
    for t in view.tokens:
        c = state.combatants.get(t.name)
        if c is None:
            continue
        st, stat = c.creature.state, c.creature.stat
        pools = f"HP {st.hp}/{stat.hp}" + (f" SP {st.sp}/{stat.sp}" if stat.sp else "")
        if st.temp_hp:
            pools += f" +{st.temp_hp} temp"
        conds = ", ".join(i.name + (f" {i.value}" if i.value else "") for i in st.conditions)
        turn = "  <- turn" if state.timeline.turn == c.id else ""
        where = f" at {c.position[0]},{c.position[1]}" if c.position else ""
        out.append((t.letter, t.side, f"{c.id}{where}: {pools}" + (f"; {conds}" if conds else "") + turn))
    return out


def moves_left(state: Encounter, who: str) -> int:
    """How many move actions ``who`` can still take this turn (0, 1 or 2: a standard action may be one, ACT-02;
    one of the two in the surprise round, CF-09). Outside its turn: as at the start of one."""
    c = state.get(who)
    if state.timeline.turn != who:
        c = c.model_copy(update={"spent": ()})
    n = 0
    for _ in range(2):
        try:
            slot = budget.take(c, "move", surprise=state.timeline.phase == "surprise")
        except RuleViolation:
            break
        n += 1
        c = c.model_copy(update={"spent": (*c.spent, slot)})
    return n


def reach_as_it_stands(state: Encounter, view: MapView) -> MapView:
    """The view with its reach overlay cut to the move actions its combatant has left this turn: all of it with
    two, the squares of one move with one, none with none (the title says so)."""
    overlays: list[Overlay] = []
    for ov in view.overlays:
        who = next((t.name for t in view.tokens if ov.title.startswith(f"reach: {t.name} (")), None)
        if ov.kind != "reach" or who is None or who not in state.combatants:
            overlays.append(ov)
            continue
        n = moves_left(state, who)
        if n >= 2:
            overlays.append(ov)
            continue
        marks = {sq: m for sq, m in ov.marks.items() if n == 1 and m == "1"}
        keys = tuple(k for k in ov.keys if n == 1 and k.mark == "1")
        left = "one move action left" if n == 1 else "no move action left"
        title = ov.title.replace("from the start of a turn", f"{left} this turn")
        overlays.append(replace(ov, marks=marks, keys=keys, title=title))
    return replace(view, overlays=tuple(overlays))


def plain(state: Encounter, view: MapView) -> str:
    """Without colour: the heading, the map panels of :func:`textmap.render_text`, then the roster."""
    lines = [heading(state), textmap.render_text(view).rstrip("\n"), ""]
    lines += [f"{letter} {text}" for letter, _, text in roster(state, view)]
    return "\n".join(lines) + "\n"


def _styles(view: MapView) -> dict[str, str]:
    return {s: SIDE_STYLES[i % len(SIDE_STYLES)] for i, s in enumerate(view.sides)}


def _background(overlays: Iterable[Overlay]) -> dict[Square, str]:
    out: dict[Square, str] = {}
    for ov in overlays:
        for sq, mark in ov.marks.items():
            if ov.kind == "reach" and mark in REACH_BACKGROUND:
                out.setdefault(sq, REACH_BACKGROUND[mark])
            elif ov.kind == "area" and mark == "x":
                out[sq] = AREA_BACKGROUND
    return out


def _marks(overlays: Iterable[Overlay]) -> dict[Square, tuple[str, str]]:
    out: dict[Square, tuple[str, str]] = {}
    for ov in overlays:
        if ov.kind == "reach":
            continue
        for sq, mark in ov.marks.items():
            if ov.kind == "area" and mark == "x":
                continue
            out[sq] = (mark, MARK_STYLES.get(ov.kind, "bold"))
    return out


def coloured(state: Encounter, view: MapView, *, focus: str | None = None) -> Text:
    """The view as one colour panel (see the module's docstring), its key, and the roster."""
    g = view.grid
    base = textmap._base_chars(view)
    edges = textmap.edges_of(view)
    tokens = {sq: t for t in view.tokens for sq in t.space.squares}
    side_style = _styles(view)
    back = _background(view.overlays)
    marks = _marks(view.overlays)
    out = Text()
    out.append(heading(state) + "\n", style="bold")
    x0, y0, x1, y1 = view.bounds
    label_w = len(str(y1 - 1))
    digits = len(str(x1 - 1))
    for k in range(digits):
        place = 10 ** (digits - 1 - k)
        row = " ".join(str(x // place % 10) if x >= place or place == 1 else " " for x in range(x0, x1))
        out.append(" " * (label_w + 2) + row.rstrip() + "\n", style="grey50")
    hidden: list[str] = []
    for y in range(y0, y1 + 1):
        if y in edges.rows:
            out.append(" " * (label_w + 1))
            out.append(edges.rows[y].rstrip() + "\n", style=EDGE_STYLE)
        if y == y1:
            break
        out.append(f"{y:>{label_w}} ", style="grey50")
        out.append(edges.gaps.get((x0 - 1, y), " "), style=EDGE_STYLE)
        for x in range(x0, x1):
            sq = (x, y)
            ch = base[sq]
            bg = back.get(sq, "")
            token = tokens.get(sq)
            if token is not None:
                style = "dim strike" if token.down else side_style.get(token.side, "bold")
                if token.name == focus:
                    style += " reverse"
            else:
                style = TERRAIN_STYLES.get(ch, "")
            out.append(ch, style=f"{style} {bg}".strip())
            edge = edges.gaps.get(sq)
            mark, mstyle = marks.get(sq, (" ", ""))
            if edge is not None and mark == " ":
                mark, mstyle = edge, EDGE_STYLE
            elif edge is not None:
                hidden.append(f"{x},{y} E")
            out.append(mark, style=f"{mstyle} {bg}".strip())
        out.append("\n")
    for ov in view.overlays:
        out.append(ov.title + ": ", style="bold")
        for i, key in enumerate(ov.keys):
            if i:
                out.append("   ")
            if ov.kind == "reach":
                out.append("  ", style=REACH_BACKGROUND.get(key.mark, ""))
            elif ov.kind == "area" and key.mark == "x":
                out.append("  ", style=AREA_BACKGROUND)
            else:
                out.append(key.mark, style=MARK_STYLES.get(ov.kind, "bold"))
            out.append(" " + key.meaning)
        out.append("\n")
    out.append("terrain: ")
    for ch in textmap.terrain_present(view):
        out.append(ch, style=TERRAIN_STYLES.get(ch, ""))
        out.append(f" {legend.TERRAIN_NAMES[ch]}   ")
    out.append("\n")
    if edges:
        out.append(textmap.EDGE_KEY + "\n")
    if hidden:
        out.append(f"edges under a mark (not drawn): {', '.join(hidden)}\n")
    extra = legend._directives(g, view.window)
    if extra:
        out.append("also (map directives): " + "; ".join(extra) + "\n")
    for note in view.notes:
        out.append(note + "\n")
    for letter, side, text in roster(state, view):
        out.append(letter, style=side_style.get(side, "bold"))
        out.append(f" {text}\n")
    return out
