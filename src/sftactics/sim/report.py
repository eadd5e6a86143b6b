"""Reports with plots: PNG files (matplotlib, Agg backend) and one HTML page that shows them.

:func:`write_report` writes, for one simulation, into a directory:

* ``wins.png``: each side's win probability (and draws) with its 95% interval;
* ``rounds.png``: the distribution of the number of rounds;
* ``knocked_out.png``: per combatant the chance to be knocked out and to die (95% intervals);
* ``damage.png``: per combatant the mean damage dealt and taken;
* ``resolve.png``: per player character the mean Resolve spent and lost (if any PC);
* ``deaths.png``: the most common causes of PC deaths (if any);
* ``summary.json``: the summary as ``--json`` prints it;
* ``index.html``: the tables and every picture.

:func:`write_sweep_report` does the same for a sweep: win probability, chance that someone is knocked out and
that someone dies (for the side with PCs, or the first side) per variation, and a table.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sftactics.sim.stats import Proportion, Summary

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 1100px; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
img { max-width: 100%; margin: 1em 0; border: 1px solid #eee; }
.note { color: #666; font-size: 90%; }
"""


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _err(props: Sequence[Proportion]) -> list[list[float]]:
    lows = [100 * (p.p - p.ci[0]) for p in props]
    highs = [100 * (p.ci[1] - p.p) for p in props]
    return [lows, highs]


def _save(fig: Any, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    _plt().close(fig)


def _pct(p: Proportion) -> str:
    return p.describe()


def _meta_lines(summary: Summary) -> list[str]:
    m = summary.meta
    t = summary.timing
    lines = [
        f"Scenario: {m.get('scenario', '?')}",
        f"Fights: {summary.runs}, master seed {m.get('seed', '?')}, round limit {m.get('max_rounds', '?')}",
        "Policies: " + ", ".join(f"{k}: {v}" for k, v in dict(m.get("policies", {})).items()),
    ]
    if t.get("seconds") is not None:
        lines.append(
            f"Backend {t.get('backend')}, {t.get('workers')} worker(s), {t['seconds']:.1f} s "
            f"({(t.get('fights_per_second') or 0):.1f} fights/s)"
        )
    if summary.round_limited.count * 2 > summary.runs:
        lines.append(f"Warning: {summary.round_limited.describe()} of the fights ended at the round limit")
    if summary.failures:
        where = ", ".join(f"{f.index} (seed {f.seed})" for f in summary.failures[:10])
        lines.append(f"{len(summary.failures)} fight(s) failed and are left out of every figure: {where}")
    return lines


def write_report(summary: Summary, directory: str | Path) -> Path:
    """Write the pictures, the JSON and ``index.html`` for ``summary`` into ``directory``; the page's path."""
    plt = _plt()
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    images: list[tuple[str, str]] = []

    # wins
    fig, ax = plt.subplots(figsize=(6, 3.5))
    labels = [s.side for s in summary.sides] + ["draw"]
    props = [s.win for s in summary.sides] + [summary.draws]
    ax.bar(labels, [100 * p.p for p in props], yerr=_err(props), capsize=6, color="#4c72b0")
    ax.set_ylabel("probability (%)")
    ax.set_ylim(0, 105)
    ax.set_title(f"Who wins ({summary.runs} fights, 95% intervals)")
    _save(fig, out / "wins.png")
    images.append(("wins.png", "Win probability per side"))

    # rounds
    fig, ax = plt.subplots(figsize=(6, 3.5))
    hist = summary.rounds.histogram
    xs = list(range(min(hist), max(hist) + 1)) if hist else []
    ax.bar(xs, [100 * hist.get(x, 0) / summary.runs for x in xs], color="#55a868")
    ax.set_xlabel("rounds to the end")
    ax.set_ylabel("fights (%)")
    ax.set_title(f"Length of the fight (mean {summary.rounds.mean:.1f}, median {summary.rounds.median:g})")
    _save(fig, out / "rounds.png")
    images.append(("rounds.png", "Rounds to the end"))

    # knocked out / died
    cs = summary.combatants
    names = [c.id for c in cs]
    fig, ax = plt.subplots(figsize=(max(6, 0.8 * len(cs) + 2), 4))
    idx = list(range(len(cs)))
    ko = [c.knocked_out for c in cs]
    dead = [c.died for c in cs]
    ax.bar([i - 0.2 for i in idx], [100 * p.p for p in ko], 0.4, yerr=_err(ko), capsize=3, label="knocked out",
           color="#dd8452")  # fmt: skip
    ax.bar([i + 0.2 for i in idx], [100 * p.p for p in dead], 0.4, yerr=_err(dead), capsize=3, label="dies",
           color="#c44e52")  # fmt: skip
    ax.set_xticks(idx, names, rotation=30, ha="right")
    ax.set_ylabel("probability (%)")
    ax.set_ylim(0, 105)
    ax.legend()
    ax.set_title("Chance to be knocked out and to die")
    _save(fig, out / "knocked_out.png")
    images.append(("knocked_out.png", "Knocked out and deaths per combatant"))

    # damage
    fig, ax = plt.subplots(figsize=(max(6, 0.8 * len(cs) + 2), 4))
    ax.bar([i - 0.2 for i in idx], [c.damage_dealt for c in cs], 0.4, label="dealt", color="#4c72b0")
    ax.bar([i + 0.2 for i in idx], [c.damage_taken for c in cs], 0.4, label="taken", color="#8172b3")
    ax.set_xticks(idx, names, rotation=30, ha="right")
    ax.set_ylabel("mean per fight (SP + HP)")
    ax.legend()
    ax.set_title("Damage dealt and taken")
    _save(fig, out / "damage.png")
    images.append(("damage.png", "Damage dealt and taken"))

    pcs = [c for c in cs if c.pc]
    if pcs:
        fig, ax = plt.subplots(figsize=(max(6, 0.8 * len(pcs) + 2), 3.5))
        pidx = list(range(len(pcs)))
        ax.bar([i - 0.2 for i in pidx], [c.rp_spent for c in pcs], 0.4, label="spent", color="#937860")
        ax.bar([i + 0.2 for i in pidx], [c.rp_lost for c in pcs], 0.4, label="lost while dying", color="#da8bc3")
        ax.set_xticks(pidx, [c.id for c in pcs], rotation=30, ha="right")
        ax.set_ylabel("mean Resolve Points per fight")
        ax.legend()
        ax.set_title("Resolve")
        _save(fig, out / "resolve.png")
        images.append(("resolve.png", "Resolve spent and lost"))

    if summary.pc_death_causes:
        causes = list(reversed(summary.pc_death_causes))
        fig, ax = plt.subplots(figsize=(8, 0.45 * len(causes) + 1.5))
        ax.barh([c for c, _ in causes], [n for _, n in causes], color="#c44e52")
        ax.set_xlabel("PC deaths")
        ax.set_title("Most common causes of PC deaths")
        _save(fig, out / "deaths.png")
        images.append(("deaths.png", "Causes of PC deaths"))

    (out / "summary.json").write_text(json.dumps(summary.to_dict(), indent=2), encoding="utf-8")
    page = _page(summary, images)
    path = out / "index.html"
    path.write_text(page, encoding="utf-8")
    return path


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    h = "".join(f"<th>{html.escape(x)}</th>" for x in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in r) + "</tr>" for r in rows)
    return f"<table><tr>{h}</tr>{body}</table>"


def _page(summary: Summary, images: Sequence[tuple[str, str]]) -> str:
    title = f"Simulation: {summary.meta.get('scenario', '')}"
    parts = [f"<h1>{html.escape(title)}</h1>"]
    parts += [f"<p class='note'>{html.escape(line)}</p>" for line in _meta_lines(summary)]
    parts.append("<h2>Sides</h2>")
    parts.append(
        _table(
            ["side", "wins", "someone knocked out", "someone dies", "dies or left dying", "retreats"],
            [
                [
                    s.side,
                    _pct(s.win),
                    _pct(s.any_knocked_out),
                    _pct(s.any_died),
                    _pct(s.any_died_or_left),
                    _pct(s.conceded),
                ]
                for s in summary.sides
            ]
            + [["draw", _pct(summary.draws), "", "", "", ""]],
        )
    )
    r = summary.rounds
    parts.append(f"<p>Rounds: mean {r.mean:.2f}, median {r.median:g}, 90% of fights end by round {r.p90}, "
                 f"longest {r.max}.</p>")  # fmt: skip
    parts.append("<h2>Combatants</h2>")
    parts.append(
        _table(
            [
                "combatant",
                "side",
                "knocked out",
                "dies",
                "left dying",
                "RP spent",
                "RP lost",
                "damage dealt",
                "damage taken",
            ],
            [
                [
                    c.id + (" (PC)" if c.pc else ""),
                    c.side,
                    _pct(c.knocked_out),
                    _pct(c.died),
                    _pct(c.dying_at_end),
                    f"{c.rp_spent:.2f}",
                    f"{c.rp_lost:.2f}",
                    f"{c.damage_dealt:.1f}",
                    f"{c.damage_taken:.1f}",
                ]
                for c in summary.combatants
            ],
        )
    )
    if summary.pc_death_causes:
        parts.append("<h2>Causes of PC deaths</h2>")
        parts.append(_table(["cause", "deaths"], [[c, str(n)] for c, n in summary.pc_death_causes]))
    parts.append("<h2>Pictures</h2>")
    for src, alt in images:
        parts.append(f"<figure><img src='{html.escape(src)}' alt='{html.escape(alt)}'>"
                     f"<figcaption>{html.escape(alt)}</figcaption></figure>")  # fmt: skip
    parts.append("<p class='note'>Probabilities are over the simulated fights, with Wilson 95% intervals in "
                 "brackets. Written by sftactics simulate.</p>")  # fmt: skip
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>"
        + "\n".join(parts)
        + "</body></html>\n"
    )


def write_sweep_report(rows: Sequence[Any], directory: str | Path) -> Path:
    """Pictures and ``index.html`` for a sweep (``rows``: :class:`sftactics.sim.sweep.SweepRow`)."""
    plt = _plt()
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    labels = [r.variation.name for r in rows]
    mains = [r.summary.party or r.summary.sides[0] for r in rows]
    side = mains[0].side if mains else ""
    idx = list(range(len(rows)))
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(rows) + 2), 4))
    for key, name, color in (("win", "wins", "#4c72b0"), ("any_knocked_out", "someone knocked out", "#dd8452"),
                             ("any_died", "someone dies", "#c44e52"),
                             ("any_died_or_left", "someone dies or is left dying", "#8c1c13")):  # fmt: skip
        props = [getattr(m, key) for m in mains]
        ax.errorbar(idx, [100 * p.p for p in props], yerr=_err(props), capsize=4, marker="o", label=name, color=color)
    ax.set_xticks(idx, labels, rotation=30, ha="right")
    ax.set_ylabel("probability (%)")
    ax.set_ylim(-2, 102)
    ax.legend()
    ax.set_title(f"The {side} side across the variations (95% intervals)")
    _save(fig, out / "sweep.png")
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(rows) + 2), 3.5))
    ax.bar(idx, [r.summary.rounds.mean for r in rows], color="#55a868")
    ax.set_xticks(idx, labels, rotation=30, ha="right")
    ax.set_ylabel("mean rounds")
    ax.set_title("Length of the fight")
    _save(fig, out / "sweep_rounds.png")
    from sftactics.sim.sweep import rows_to_dict

    (out / "sweep.json").write_text(json.dumps(rows_to_dict(rows), indent=2), encoding="utf-8")
    table = _table(
        ["variation", f"{side} wins", "someone knocked out", "someone dies", "dies or left dying", "mean rounds"],
        [
            [
                lab,
                _pct(m.win),
                _pct(m.any_knocked_out),
                _pct(m.any_died),
                _pct(m.any_died_or_left),
                f"{r.summary.rounds.mean:.2f}",
            ]
            for lab, m, r in zip(labels, mains, rows, strict=True)
        ],
    )
    first = rows[0].summary if rows else None
    notes = _meta_lines(first) if first is not None else []
    name = html.escape(str(first.meta.get("scenario", "")) if first else "")
    page = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Sweep</title>"
        f"<style>{_STYLE}</style></head><body><h1>Sweep: {name}</h1>"
        + "".join(f"<p class='note'>{html.escape(x)}</p>" for x in notes[:1])
        + table
        + "<img src='sweep.png' alt='win, knock-out and death chances per variation'>"
        + "<img src='sweep_rounds.png' alt='mean rounds per variation'>"
        + "</body></html>\n"
    )
    path = out / "index.html"
    path.write_text(page, encoding="utf-8")
    return path
