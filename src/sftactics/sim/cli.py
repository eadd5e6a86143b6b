"""The ``simulate`` and ``sweep`` commands (register them on the main typer app)::

    from sftactics.sim.cli import simulate_cmd, sweep_cmd

    app.command("simulate")(simulate_cmd)
    app.command("sweep")(sweep_cmd)

Both print readable tables (or JSON with ``--json``), show a progress bar with the time left on standard error,
and with ``--report DIR`` write PNG plots and an HTML page. Mistakes raise ``SftError`` (the app prints them).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from sftactics.core.errors import SftError
from sftactics.dice.source import DEFAULT_SEED
from sftactics.sim.stats import Summary
from sftactics.views.console import console

out = console()
err = console(stderr=True)

ScenarioArg = Annotated[Path, typer.Argument(help="a scenario file (YAML or JSON)")]
RunsOpt = Annotated[int, typer.Option("--runs", "-n", min=1, help="how many fights to play")]
SeedOpt = Annotated[
    int, typer.Option(help="master seed (default 1, as everywhere): fight i uses a seed derived from (seed, i)")
]
WorkersOpt = Annotated[
    int | None, typer.Option(min=1, help="worker processes (default: every core, or the dask cluster's size)")
]
BackendOpt = Annotated[str, typer.Option(help="local (this machine's cores) or dask (a Dask cluster)")]
SchedulerOpt = Annotated[
    str | None, typer.Option(help="address of a Dask scheduler (dask backend); none: a local cluster")
]
PolicyOpt = Annotated[str, typer.Option(help="policy of every side: tactical, simple, veteran or engine")]
SidePolicyOpt = Annotated[list[str] | None, typer.Option("--side-policy", help="SIDE=POLICY for one side (repeatable)")]
RoundsOpt = Annotated[int, typer.Option(min=1, help="the GM ends a fight after this many rounds (a draw)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print the results as JSON")]
ReportOpt = Annotated[Path | None, typer.Option(help="write PNG plots and index.html into this directory")]
ProgressOpt = Annotated[bool, typer.Option("--progress/--no-progress", help="show a progress bar on stderr")]
MoraleOpt = Annotated[
    str | None,
    typer.Option(
        help="when combatants retreat, for every side: fight-to-the-death, by-the-book (the default) or cautious; "
        "without it, each side's sides.SIDE.morale in the scenario, else by-the-book (docs/simulation.md)"
    ),
]
EngineOpt = Annotated[
    str,
    typer.Option(
        help="who plays the fights: compiled (the numba kernel: simple and tactical policies, supported "
        "encounters), full (the engine, every rule and policy) or auto (the kernel when it can, else the engine)"
    ),
]
AbilitiesOpt = Annotated[
    bool,
    typer.Option(
        "--abilities/--no-abilities",
        help="let the policies use the stat blocks' special abilities and spells (specials); without them they "
        "fight with weapons, grenades and first aid only",
    ),
]


def _engine(engine: str) -> Any:
    if engine not in ("auto", "compiled", "full"):
        raise SftError(f"--engine: expected auto, compiled or full, not {engine!r}")
    return engine


class _RateColumn(ProgressColumn):
    """Fights per second so far."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.1f}/s", style="progress.data.speed")


@contextmanager
def _progress(show: bool, what: str) -> Iterator[Callable[[int, int], None]]:
    if not show:
        yield lambda done, total: None
        return
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("fights"),
        _RateColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    )
    with bar:
        task = bar.add_task(what, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def _policies(policy: str, side_policy: Sequence[str] | None) -> dict[str, str]:
    from sftactics.sim.runner import parse_policies

    try:
        return parse_policies(policy, side_policy or ())
    except ValueError as e:
        raise SftError(f"--side-policy: {e}") from None


def _morale(morale: str | None, scenario_sides: dict[str, str]) -> Mapping[str, str]:
    """``--morale`` for every side; without it, the scenario's per-side morale (by-the-book otherwise)."""
    from sftactics.sim.morale import parse_morale

    try:
        return parse_morale(morale) if morale is not None else parse_morale(None, scenario_sides)
    except ValueError as e:
        raise SftError(f"--morale: {e}") from None


def _compiling_note() -> None:
    """Say so when the compiled kernel's code is not on disk yet: its first fights wait for numba."""
    from sftactics.sim.kernel.run import code_cached

    if code_cached() is False:
        err.print(
            "[dim]compiling the fight kernel (numba): once after an install or an upgrade, a minute or a few "
            "(`make setup` does it ahead: python -m sftactics.sim.kernel.run); later runs start in seconds[/dim]"
        )


def _compile_first(job: Any, show: bool) -> None:
    """Compile the kernel here, with its own progress line, before the workers start (they then load it from
    numba's disk cache instead of each compiling it)."""
    from sftactics.sim.kernel.run import code_cached, kernel_batch

    if code_cached() is not False:
        return
    if not show:
        _compiling_note()
        return
    line = Progress(SpinnerColumn(), TextColumn("[bold]{task.description}"), TimeElapsedColumn(), console=err,
                    transient=True)  # fmt: skip
    with line:
        line.add_task("compiling the fight kernel (numba; once after an install or an upgrade, a minute or a few)",
                      total=None)  # fmt: skip
        kernel_batch(job.encounter, [1], [0], 1, job.policy_map())
    err.print("[dim]fight kernel compiled and cached[/dim]")


def _backend(backend: str) -> Any:
    if backend not in ("local", "dask"):
        raise SftError(f"--backend: expected local or dask, not {backend!r}")
    return backend


def simulate_cmd(
    scenario: ScenarioArg,
    runs: RunsOpt = 1000,
    seed: SeedOpt = DEFAULT_SEED,
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    policy: PolicyOpt = "tactical",
    side_policy: SidePolicyOpt = None,
    max_rounds: RoundsOpt = 50,
    json_out: JsonOpt = False,
    report: ReportOpt = None,
    progress: ProgressOpt = True,
    engine: EngineOpt = "auto",
    morale: MoraleOpt = None,
    abilities: AbilitiesOpt = True,
) -> None:
    """Play the encounter many times with sensible tactics on both sides: who wins, how long it lasts, who
    drops, who dies and of what."""
    from sftactics.io.chase_scenario import is_chase_file
    from sftactics.io.files import load_model
    from sftactics.io.scenario import ScenarioFile, build_encounter, is_sf2e, side_morale
    from sftactics.sim.runner import SimJob, simulate

    if is_chase_file(scenario):
        _simulate_chase(scenario, runs, seed, engine, json_out, progress)
        return
    if is_sf2e(Path(scenario)):  # the 2nd edition: its own scenario file; every side plays the simple 2E policy
        from sftactics.io.scenario2e import load_scenario2e

        encounter, sides_morale = load_scenario2e(scenario), {}
        err.print("[dim]a 2E scenario: every side plays the simple 2E policy (docs/sf2e.md)[/dim]")
    else:
        scen = load_model(scenario, ScenarioFile)
        encounter, sides_morale = build_encounter(scen, scenario), side_morale(scen)
    if not abilities:
        from sftactics.sim.choices import without_specials

        encounter = without_specials(encounter)
    try:
        job = SimJob(encounter, _policies(policy, side_policy), seed=seed, max_rounds=max_rounds,
                     engine=_engine(engine), morale=_morale(morale, sides_morale))  # fmt: skip
        kernel = job.compiled()  # with --engine compiled, say now why the kernel cannot play it
    except ValueError as e:
        raise SftError(str(e)) from None
    if kernel:
        err.print(f"[dim]{runs} fights, all played by the compiled kernel[/dim]")
        _compile_first(job, progress)
    else:
        why = job.kernel_refusals() if engine != "full" else ["--engine full"]
        err.print(f"[dim]{runs} fights, all played by the engine (about one to a few fights a second per "
                  f"worker); the compiled kernel does not play this one: {'; '.join(why)}[/dim]")  # fmt: skip
    with _progress(progress, f"simulating {encounter.name}") as step:
        try:
            summary = simulate(job, runs, workers=workers, backend=_backend(backend), scheduler=scheduler,
                               progress=step, meta={"scenario_file": str(scenario)})  # fmt: skip
        except (ValueError, RuntimeError, OSError) as e:
            raise SftError(f"simulate: {e}") from None
    if report is not None:
        from sftactics.sim.report import write_report

        page = write_report(summary, report)
        err.print(f"report written to {page}")
    if json_out:
        out.print_json(json.dumps(summary.to_dict()))
    else:
        print_summary(summary, out)


def _simulate_chase(scenario: Path, runs: int, seed: int, engine: str, json_out: bool, progress: bool) -> None:
    """A chase scenario: many chases on the chase policy (sim/chase_sim.py); the compiled kernel refuses."""
    from sftactics.io.chase_scenario import load_chase
    from sftactics.sim.chase_sim import simulate_chase, summary_lines

    if _engine(engine) == "compiled":
        raise SftError("--engine compiled: the compiled kernel does not play vehicle chases (use auto or full)")
    start = load_chase(scenario)
    err.print(f"[dim]{runs} chases, all played by the engine's chase runner[/dim]")
    with _progress(progress, f"simulating {start.name}") as step:
        summary = simulate_chase(start, runs, seed=seed, progress=step)
    if json_out:
        out.print_json(json.dumps(summary.to_dict()))
    else:
        for line in summary_lines(summary):
            out.print(line, markup=False)


def sweep_cmd(
    scenario: ScenarioArg,
    vary: Annotated[
        list[str],
        typer.Option(
            help="KEY=v1,v2,... (repeatable: a grid). Keys: party_level, enemy_count, count:SIDE, creature:ID, "
            "policy, policy:SIDE, max_rounds"
        ),
    ],
    runs: RunsOpt = 500,
    seed: SeedOpt = DEFAULT_SEED,
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    policy: PolicyOpt = "tactical",
    side_policy: SidePolicyOpt = None,
    max_rounds: RoundsOpt = 50,
    json_out: JsonOpt = False,
    report: ReportOpt = None,
    progress: ProgressOpt = True,
    engine: EngineOpt = "auto",
    morale: MoraleOpt = None,
    abilities: AbilitiesOpt = True,
) -> None:
    """Simulate a grid of variations of the encounter (party level, enemy count, which creature, policy): one
    row per variation."""
    from sftactics.sim.sweep import rows_to_dict, sweep

    if engine != "full":
        _compiling_note()
    with _progress(progress, f"sweeping {scenario.name}") as step:
        try:
            rows = sweep(scenario, vary, runs, seed=seed, policies=_policies(policy, side_policy),
                         max_rounds=max_rounds, workers=workers, backend=_backend(backend), scheduler=scheduler,
                         progress=step, engine=_engine(engine), morale=morale,
                         abilities=abilities)  # fmt: skip
        except (ValueError, RuntimeError, OSError) as e:
            raise SftError(f"sweep: {e}") from None
    if report is not None:
        from sftactics.sim.report import write_sweep_report

        page = write_sweep_report(rows, report)
        err.print(f"report written to {page}")
    if json_out:
        out.print_json(json.dumps(rows_to_dict(rows)))
        return
    first = rows[0].summary
    main = first.party or first.sides[0]
    table = Table(title=f"{first.meta.get('scenario', '')}: {runs} fights per variation, seed {seed}")
    table.add_column("variation", no_wrap=True, min_width=max(len(r.variation.name) for r in rows))
    table.add_column(f"{main.side} wins", justify="right")
    table.add_column("someone KO", justify="right")
    table.add_column("someone dies", justify="right")
    table.add_column("dies or left dying", justify="right")
    table.add_column("draw", justify="right")
    table.add_column("rounds", justify="right")
    for r in rows:
        m = r.summary.party or r.summary.sides[0]
        cells = (m.win, m.any_knocked_out, m.any_died, m.any_died_or_left, r.summary.draws)
        table.add_row(r.variation.name, *(c.describe() for c in cells), f"{r.summary.rounds.mean:.1f}")
    out.print(table)
    out.print("[dim]percentages with Wilson 95% intervals; 'someone' means a member of the side in the header[/dim]")


def print_summary(summary: Summary, console: Console) -> None:
    """The readable report: sides, rounds, combatants, causes of PC deaths."""
    m, t = summary.meta, summary.timing
    pols = ", ".join(f"{k}: {v}" for k, v in dict(m.get("policies", {})).items())
    by = dict(m.get("fights_by", {}))
    played = (f"the compiled kernel ({by.get('kernel', 0)}) and the engine ({by.get('engine', 0)})" if by
              else "the compiled kernel" if m.get("engine") == "compiled" else "the full engine")  # fmt: skip
    console.print(f"[bold]{m.get('scenario', '')}[/bold]: {summary.runs} fights, seed {m.get('seed')}, "
                  f"policies {pols}, round limit {m.get('max_rounds')}, played by {played}")  # fmt: skip
    if t.get("seconds"):
        console.print(f"[dim]{t['seconds']:.1f} s on {t.get('workers')} worker(s) ({t.get('backend')}): "
                      f"{t.get('fights_per_second', 0):.1f} fights/s[/dim]")  # fmt: skip
    h = summary.headline
    if h is not None:
        length = h.rounds
        console.print(f"[bold]What a GM fears[/bold] for {h.party} (95% intervals):")
        console.print(f"  total party kill:       {h.tpk.describe()}")
        console.print(f"  at least one PC dies:   {h.pc_death.describe()}")
        console.print(f"  at least one PC drops:  {h.pc_drop.describe()}")
        console.print(f"  expected length:        {length.value:.1f} rounds [{length.low:.1f}-{length.high:.1f}]")
        if h.danger is not None:
            d = h.danger_share
            console.print(f"  most dangerous foe:     {h.danger}, {100 * d.value:.0f}% of its side's damage "
                          f"[{100 * d.low:.0f}-{100 * d.high:.0f}]", markup=False)  # fmt: skip
    sides = Table(title="Sides (95% intervals)")
    for col in ("side", "wins", "someone KO", "someone dies", "dies or left dying", "retreats"):
        sides.add_column(col, justify="left" if col == "side" else "right")
    for s in summary.sides:
        name = s.side + (" (PCs)" if s.pcs else "")
        sides.add_row(name, s.win.describe(), s.any_knocked_out.describe(), s.any_died.describe(),
                      s.any_died_or_left.describe(), s.conceded.describe())  # fmt: skip
    sides.add_row("draw", summary.draws.describe(), "", "", "", "")
    console.print(sides)
    morale = ", ".join(f"{k}: {v}" for k, v in dict(m.get("morale", {})).items())
    console.print(f"Ended by a retreat (a side's able members all withdrew and it conceded): "
                  f"{summary.ended_by_retreat.describe()}" + (f"; morale {morale}" if morale else ""))  # fmt: skip
    console.print("[dim]'dies or left dying': also counts a member still dying when a fight its side did not win "
                  "ended (nobody left to stabilize it)[/dim]")  # fmt: skip
    r = summary.rounds
    dist = "  ".join(f"{k}: {100 * v / summary.runs:.0f}%" for k, v in sorted(r.histogram.items()))
    console.print(f"Rounds: mean {r.mean:.2f}, median {r.median:g}, 90% end by round {r.p90}, longest {r.max}")
    console.print(f"[dim]  {dist}[/dim]")
    cs = Table(title="Combatants")
    for col in ("combatant", "side", "knocked out", "dies", "left dying", "RP spent", "RP lost", "dealt", "taken"):
        cs.add_column(col, justify="left" if col in ("combatant", "side") else "right")
    for c in summary.combatants:
        cs.add_row(c.id + (" (PC)" if c.pc else ""), c.side, c.knocked_out.describe(), c.died.describe(),
                   c.dying_at_end.describe(), f"{c.rp_spent:.2f}", f"{c.rp_lost:.2f}", f"{c.damage_dealt:.1f}",
                   f"{c.damage_taken:.1f}")  # fmt: skip
    console.print(cs)
    if summary.round_limited.count * 2 > summary.runs:
        console.print(f"[bold yellow]Warning:[/bold yellow] {summary.round_limited.describe()} of the fights ended at "
                      "the round limit: the sides rarely reached each other, so these figures say little about "
                      "the fight itself.")  # fmt: skip
    if summary.failures:
        console.print(f"[bold red]{len(summary.failures)} fight(s) failed[/bold red] and are left out of every "
                      "figure above (replay one with its seed):")  # fmt: skip
        for f in summary.failures[:5]:
            last = (f.error or "").strip().splitlines()[-1:] or ["?"]
            console.print(f"  fight {f.index}, seed {f.seed}: {last[0]}", markup=False)
    if summary.pc_death_causes:
        causes = Table(title="Most common causes of PC deaths")
        causes.add_column("cause")
        causes.add_column("deaths", justify="right")
        causes.add_column("share of fights", justify="right")
        for cause, n in summary.pc_death_causes[:5]:
            causes.add_row(cause, str(n), f"{100 * n / summary.runs:.1f}%")
        console.print(causes)
    else:
        console.print("No player character died.")
