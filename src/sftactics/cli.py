"""The ``sftactics`` command line. A thin shell over the headless core: it reads files, builds dice sources,
calls rules and prints their explained results. User mistakes print a message, never a traceback."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from sftactics.core.errors import SftError
from sftactics.dice import parse, roll
from sftactics.dice.distribution import attack_odds, damage_die
from sftactics.dice.source import DiceSource, ScriptedDice, SeededDice

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Starfinder tactical combat by the book: explained numbers, deterministic dice.",
    pretty_exceptions_show_locals=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _dice(seed: int | None, scripted: str | None) -> DiceSource:
    if seed is not None and scripted:
        raise SftError("give --seed or --dice, not both")
    if scripted:
        try:
            values = [int(x) for x in re.split(r"[,\s]+", scripted.strip()) if x]
        except ValueError:
            raise SftError(f"--dice expects whole numbers separated by commas, got {scripted!r}") from None
        return ScriptedDice(values)
    return SeededDice(0 if seed is None else seed)


def _fraction(p: object) -> str:
    from fractions import Fraction

    assert isinstance(p, Fraction)
    return f"{float(p) * 100:.2f}% ({p.numerator}/{p.denominator})" if p else "0%"


@app.command("roll")
def roll_cmd(
    expression: Annotated[str, typer.Argument(help='a dice expression, e.g. "2d6+4" or "3d6 B + 1d6 fire"')],
    seed: Annotated[int | None, typer.Option(help="seed for reproducible rolls (default 0)")] = None,
    dice: Annotated[str | None, typer.Option(help="scripted die results, e.g. 5,3")] = None,
    times: Annotated[int, typer.Option(min=1, max=1000, help="how many times to roll")] = 1,
) -> None:
    """Roll a dice expression and show every die."""
    expr = parse(expression)
    src = _dice(seed, dice)
    for _ in range(times):
        out.print(roll(expr, src, "roll").describe())


@app.command("odds")
def odds_cmd(
    attack: Annotated[str, typer.Argument(help='the attack roll, e.g. "1d20+9"')],
    ac: Annotated[int, typer.Option(help="the target's AC (EAC or KAC)")],
    damage: Annotated[str | None, typer.Option(help='damage expression, e.g. "1d6+4"')] = None,
    crit_immune: Annotated[bool, typer.Option(help="the target is immune to critical hits")] = False,
    table: Annotated[bool, typer.Option(help="print the full damage distribution")] = False,
) -> None:
    """Exact chance to hit and to score a critical hit, and the expected damage."""
    expr = parse(attack)
    dice_terms = [t for t in expr.terms if not t.is_flat]
    if len(dice_terms) != 1 or dice_terms[0].sides != 20 or dice_terms[0].count != 1 or dice_terms[0].sign < 0:
        raise SftError(f"the attack roll must be one d20 plus a bonus, like 1d20+9 (got {attack!r})")
    bonus = sum(t.sign * t.count for t in expr.terms if t.is_flat)
    dmg = parse(damage) if damage else None
    if dmg is not None:
        # the flat part is the damage bonus: a critical hit adds it twice, minimum damage applies to it
        dmg_dice, flat = dmg.split_flat()
        o = attack_odds(bonus, ac, dmg_dice, flat, crit_immune)
    else:
        o = attack_odds(bonus, ac, None, 0, crit_immune)
    t = Table(title=f"{attack} against AC {ac}", show_header=False)
    t.add_row("hit (natural 20 always hits, 1 always misses)", _fraction(o.hit))
    t.add_row("critical hit (natural 20 and total meets AC)", _fraction(o.critical))
    if dmg is not None:
        t.add_row("expected damage per attack", f"{float(o.expected_damage):.3f}")
        t.add_row("expected damage when it hits", f"{float(o.expected_on_hit):.3f}")
        normal = damage_die(dmg_dice, flat)
        lo, hi, mean = normal.min_outcome(), normal.max_outcome(), float(normal.mean())
        t.add_row("damage on a normal hit", f"{lo}-{hi}, mean {mean:.2f}")
    out.print(t)
    if table and dmg is not None:
        dt = Table("damage", "probability")
        for value, p in o.table():
            dt.add_row(str(value), f"{float(p) * 100:.3f}%")
        out.print(dt)


@app.command("attack")
def attack_cmd(
    attacker: Annotated[Path, typer.Argument(help="attacker's stat block (YAML)")],
    defender: Annotated[Path, typer.Argument(help="defender's stat block (YAML)")],
    weapon: Annotated[str, typer.Option(help="weapon name (or a unique part of it)")],
    seed: Annotated[int | None, typer.Option(help="seed for reproducible dice")] = None,
    dice: Annotated[str | None, typer.Option(help="scripted die results in order, e.g. 20,5,3")] = None,
    nonlethal: Annotated[bool, typer.Option(help="deal nonlethal damage")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
) -> None:
    """Resolve one attack between two stat blocks and explain every number."""
    from sftactics.io.statblocks import load_statblock
    from sftactics.sf1e.attack import Situation, resolve_attack
    from sftactics.sf1e.state import Creature

    a = Creature.fresh(load_statblock(attacker))
    d = Creature.fresh(load_statblock(defender))
    if a.id == d.id:
        d = d.model_copy(update={"id": d.id + " (2)"})
    src = _dice(seed, dice)
    result = resolve_attack(a, d, weapon, src, Situation(nonlethal=nonlethal))
    if as_json:
        data = result.to_dict()
        data["dice"] = [r.to_dict() for r in src.history]
        out.print_json(json.dumps(data))
        return
    for line in result.lines():
        out.print(line)


@app.command("duel")
def duel_cmd(
    first: Annotated[Path, typer.Argument(help="first combatant's stat block")],
    second: Annotated[Path, typer.Argument(help="second combatant's stat block")],
    seed: Annotated[int, typer.Option(help="seed for reproducible dice")] = 1,
    rounds: Annotated[int, typer.Option(min=1, max=100, help="the GM stops the fight after this many rounds")] = 20,
    brief: Annotated[bool, typer.Option(help="one line per attack instead of the full explanation")] = False,
) -> None:
    """Two stat blocks fight it out, side by side with no map, each on the simple built-in policy."""
    from sftactics.encounter import narrate
    from sftactics.encounter.engine import Fight
    from sftactics.encounter.runner import auto_play
    from sftactics.encounter.state import Combatant, Encounter
    from sftactics.io.statblocks import load_statblock
    from sftactics.sf1e.state import Creature

    a, b = load_statblock(first), load_statblock(second)
    ids = (a.name, b.name if b.name != a.name else b.name + " (2)")
    combatants = {
        cid: Combatant(id=cid, side=side, creature=Creature.fresh(sb, cid))
        for cid, side, sb in ((ids[0], "first", a), (ids[1], "second", b))
    }
    fight = auto_play(Fight.seeded(Encounter(name="duel", combatants=combatants), seed), max_rounds=rounds)
    for line in narrate.lines(fight.all_events(), verbose=not brief):
        out.print(line, markup=False)
    out.print("")
    for line in narrate.summary(fight.state):
        out.print(line, markup=False)


def _fight_dice(seed: int, dice: str | None) -> DiceSource:
    """--dice scripted:FILE (die results, whitespace or comma separated) or the seed."""
    if dice is None:
        return SeededDice(seed)
    kind, _, arg = dice.partition(":")
    if kind != "scripted" or not arg:
        raise SftError(f"--dice expects scripted:FILE, got {dice!r}")
    try:
        text = Path(arg).read_text(encoding="utf-8")
    except OSError as e:
        raise SftError(f"{arg}: cannot be read ({e.strerror})") from None
    try:
        return ScriptedDice(int(x) for x in re.split(r"[,\s]+", text.strip()) if x)
    except ValueError:
        raise SftError(f"{arg}: expected whole numbers separated by commas or spaces") from None


@app.command("run")
def run_cmd(
    scenario: Annotated[Path, typer.Argument(help="scenario file (YAML)")],
    seed: Annotated[int, typer.Option(help="seed for reproducible dice")] = 1,
    commands: Annotated[
        Path | None, typer.Option(help="command file (YAML/JSON list); default: built-in policy")
    ] = None,
    dice: Annotated[str | None, typer.Option(help="scripted:FILE to take die results from a file")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the event log and final state as JSON")] = False,
    brief: Annotated[bool, typer.Option(help="one line per attack instead of the full explanation")] = False,
    save: Annotated[Path | None, typer.Option(help="save the fight log (JSON lines) to this file")] = None,
    max_rounds: Annotated[int, typer.Option(help="the GM ends the fight after this many rounds")] = 50,
) -> None:
    """Run an encounter: from a command file, or with every combatant on the simple built-in policy."""
    from sftactics.encounter import narrate
    from sftactics.encounter.engine import Fight
    from sftactics.encounter.runner import auto_play
    from sftactics.io.scenario import load_commands, load_scenario

    start = load_scenario(scenario)
    fight = Fight(start, _fight_dice(seed, dice), seed=None if dice else seed)
    if commands is not None:
        for i, cmd in enumerate(load_commands(commands)):
            try:
                fight.do(cmd)
            except SftError as e:
                raise SftError(f"{commands}: command [{i}] ({cmd.type}) refused: {e}") from None
    else:
        auto_play(fight, max_rounds=max_rounds)
    if save is not None:
        fight.save(save)
    if as_json:
        data = {
            "events": [e.model_dump(mode="json") for e in fight.all_events()],
            "state": fight.state.model_dump(mode="json"),
        }
        sys.stdout.write(json.dumps(data) + "\n")
        return
    for line in narrate.lines(fight.all_events(), verbose=not brief):
        out.print(line, markup=False)
    out.print("")
    out.print("Final state:", markup=False)
    for line in narrate.summary(fight.state):
        out.print("  " + line, markup=False)


@app.command("replay")
def replay_cmd(
    log: Annotated[Path, typer.Argument(help="a fight log saved with run --save or play")],
    as_json: Annotated[bool, typer.Option("--json", help="print the final state as JSON")] = False,
) -> None:
    """Rebuild a fight's final state from its saved events (no dice are rolled)."""
    from sftactics.encounter import narrate
    from sftactics.encounter.engine import Fight

    fight = Fight.load(log)
    if as_json:
        sys.stdout.write(fight.state.model_dump_json() + "\n")
        return
    for line in narrate.summary(fight.state):
        out.print(line, markup=False)


@app.command("play")
def play_cmd(
    scenario: Annotated[Path, typer.Argument(help="scenario file (YAML), or a saved fight log (.jsonl) to resume")],
    seed: Annotated[int, typer.Option(help="seed for the engine's dice")] = 1,
    physical: Annotated[bool, typer.Option(help="type in every die result yourself")] = False,
) -> None:
    """Run a fight at the table: a short verb for every command (help VERB), the map, your own dice or the
    engine's, undo and save (docs/play.md)."""
    from sftactics.play import play

    play(scenario, seed=seed, physical=physical, console=out)


@app.command("map")
def map_command(
    scenario: Annotated[Path, typer.Argument(help="scenario file (YAML) with a map, or a saved fight (.jsonl)")],
    from_: Annotated[
        str | None, typer.Option("--from", help="the combatant the overlays are for (for threat: or a side)")
    ] = None,
    show: Annotated[
        list[str] | None, typer.Option(help="overlay: reach, threat, cover or area (repeat, or separate by commas)")
    ] = None,
    svg: Annotated[Path | None, typer.Option(help="also write the picture as SVG to this file")] = None,
    area: Annotated[
        str | None, typer.Option(help='an area template, e.g. "burst 15 at 5,5" or "cone 15 at 2,3 toward E"')
    ] = None,
    view: Annotated[str | None, typer.Option(help="draw the map as this side sees it")] = None,
) -> None:
    """Draw a scenario's map (or a saved fight's, as it stands) with its combatants, and overlays: reach, threat,
    cover, an area template."""
    from sftactics.views.command import map_cmd

    map_cmd(scenario, from_, show or [], svg, area, out, view=view)


def _register_simulation() -> None:
    from sftactics.sim.cli import simulate_cmd, sweep_cmd

    app.command("simulate")(simulate_cmd)
    app.command("sweep")(sweep_cmd)


_register_simulation()


def _register_query() -> None:
    from sftactics.query_cli import query_cmd

    app.command("query")(query_cmd)


_register_query()

import_app = typer.Typer(help="Import creatures from other tools.", no_args_is_help=True)
app.add_typer(import_app, name="import")


@import_app.command("foundry")
def import_foundry(
    paths: Annotated[list[Path], typer.Argument(help="Foundry VTT actor JSON files, or folders of them")],
    out_dir: Annotated[Path, typer.Option("--out", help="folder for the YAML stat blocks (created if needed)")],
) -> None:
    """Import Foundry VTT (sfrpg) creatures as stat-block YAML; prints every normalisation made."""
    from sftactics.io.foundry import import_foundry_cmd

    code = import_foundry_cmd(paths, out_dir, out)
    if code:
        raise typer.Exit(code)


@app.command("schema")
def schema_cmd(
    what: Annotated[
        str,
        typer.Argument(help="statblock, scenario or events (JSON Schema); options, conditions or commands (Markdown)"),
    ],
) -> None:
    """Print a reference document generated from the code."""
    from sftactics.io import reference as ref

    docs = {
        "statblock": ref.statblock_schema,
        "scenario": ref.scenario_schema,
        "events": ref.events_schema,
        "options": ref.options_markdown,
        "conditions": ref.conditions_markdown,
        "commands": ref.commands_markdown,
    }
    if what not in docs:
        raise SftError(f"schema: expected one of {', '.join(docs)}, got {what!r}")
    sys.stdout.write(docs[what]())


def main() -> None:
    """Entry point: run the app, printing user errors (``SftError``) without a traceback."""
    try:
        app(prog_name="sftactics")
    except SftError as e:
        err.print(f"[red]error:[/red] {e}", markup=True)
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
