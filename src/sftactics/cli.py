"""The ``sftactics`` command line. A thin shell over the headless core: it reads files, builds dice sources,
calls rules and prints their explained results. User mistakes print a message, never a traceback."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from sftactics.core.errors import SftError
from sftactics.dice import parse, roll
from sftactics.dice.distribution import attack_odds, damage_die
from sftactics.dice.source import DEFAULT_SEED, DiceSource, ScriptedDice, SeededDice
from sftactics.views.console import console, hide_flag_types

if TYPE_CHECKING:
    from sftactics.encounter.engine import Fight

hide_flag_types()
app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Starfinder tactical combat by the book: explained numbers, deterministic dice.",
    pretty_exceptions_show_locals=False,
)
out = console()
err = console(stderr=True)


#: Help for ``--dice``, the same in every command.
DICE_HELP = "scripted die results instead of the seed: 20,5,3 or scripted:FILE (results separated by commas or spaces)"


SeedOpt = Annotated[int | None, typer.Option(help=f"seed for reproducible dice (default {DEFAULT_SEED})")]
DiceOpt = Annotated[str | None, typer.Option(help=DICE_HELP)]


def _dice(seed: int | None, dice: str | None) -> DiceSource:
    """The dice of a command: ``--dice`` (results in order, inline or ``scripted:FILE``) or the seed
    (default :data:`DEFAULT_SEED`); not both."""
    if seed is not None and dice:
        raise SftError("give --seed or --dice, not both")
    if not dice:
        return SeededDice(DEFAULT_SEED if seed is None else seed)
    text, where = dice, "--dice"
    kind, _, arg = dice.partition(":")
    if kind == "scripted":
        if not arg:
            raise SftError("--dice scripted: needs a file name, e.g. scripted:dice.txt")
        try:
            text, where = Path(arg).read_text(encoding="utf-8"), arg
        except OSError as e:
            raise SftError(f"{arg}: cannot be read ({e.strerror})") from None
    try:
        return ScriptedDice(int(x) for x in re.split(r"[,\s]+", text.strip()) if x)
    except ValueError:
        raise SftError(f"{where}: expected whole numbers separated by commas or spaces") from None


def _seed(seed: int | None) -> int:
    return DEFAULT_SEED if seed is None else seed


def _fraction(p: object) -> str:
    from fractions import Fraction

    assert isinstance(p, Fraction)
    return f"{float(p) * 100:.2f}% ({p.numerator}/{p.denominator})" if p else "0%"


@app.command("roll")
def roll_cmd(
    expression: Annotated[str, typer.Argument(help='a dice expression, e.g. "2d6+4" or "3d6 B + 1d6 fire"')],
    seed: SeedOpt = None,
    dice: DiceOpt = None,
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
    sf2e: Annotated[bool, typer.Option("--sf2e", help="2nd edition: the chance of each degree of success")] = False,
    attack_number: Annotated[
        int, typer.Option(help="2E: the attack's place in the turn (multiple attack penalty)", min=1, max=10)
    ] = 1,
    agile: Annotated[bool, typer.Option(help="2E: an agile weapon (-4/-8 instead of -5/-10)")] = False,
) -> None:
    """Exact chance to hit and to score a critical hit, and the expected damage (with --sf2e: the chance of each
    degree of success, critical success to critical failure)."""
    expr = parse(attack)
    dice_terms = [t for t in expr.terms if not t.is_flat]
    if len(dice_terms) != 1 or dice_terms[0].sides != 20 or dice_terms[0].count != 1 or dice_terms[0].sign < 0:
        raise SftError(f"the attack roll must be one d20 plus a bonus, like 1d20+9 (got {attack!r})")
    bonus = sum(t.sign * t.count for t in expr.terms if t.is_flat)
    if sf2e:
        _odds2e(attack, bonus, ac, damage, attack_number, agile)
        return
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


def _odds2e(attack: str, bonus: int, ac: int, damage: str | None, number: int, agile: bool) -> None:
    from sftactics.sf2e.attacks import multiple_attack_penalty
    from sftactics.sf2e.degrees import Degree
    from sftactics.sf2e.odds import check_odds

    penalty = multiple_attack_penalty(number, agile=agile)
    modifier = bonus + (penalty.value if penalty is not None else 0)
    o = check_odds(modifier, ac, damage)
    shown = f"{attack}" + (f", {penalty.label} {penalty.value}" if penalty is not None else "")
    t = Table(title=f"{shown} against AC {ac} (2E, E2-03/E2-04)", show_header=False)
    for d in sorted(Degree, reverse=True):
        faces = o.faces(d)
        nat = f" (natural {faces[0]}-{faces[-1]})" if len(faces) > 1 else (f" (natural {faces[0]})" if faces else "")
        t.add_row(d.label + nat, _fraction(o.chances[d]))
    if o.damage_mean is not None and o.expected_damage is not None:
        t.add_row("mean damage on a success (doubled on a critical success)", f"{float(o.damage_mean):.3f}")
        t.add_row("expected damage per Strike", f"{float(o.expected_damage):.3f}")
    out.print(t)


@app.command("attack")
def attack_cmd(
    attacker: Annotated[str, typer.Argument(help="attacker's stat block: a YAML file or a bundled name")],
    defender: Annotated[str, typer.Argument(help="defender's stat block: a YAML file or a bundled name")],
    weapon: Annotated[str, typer.Option(help="weapon name (or a unique part of it)")],
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    nonlethal: Annotated[bool, typer.Option(help="deal nonlethal damage")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
    attack_number: Annotated[
        int, typer.Option(help="2E: the attack's place in the turn (multiple attack penalty)", min=1, max=10)
    ] = 1,
    ability: Annotated[
        str | None, typer.Option(help="the attacker's attack-rider ability to use (e.g. 'trick attack')")
    ] = None,
) -> None:
    """Resolve one attack between two stat blocks and explain every number (two 2E stat blocks: a 2E Strike,
    with its degree of success). With --ability, the attacker's class ability adds to the attack (trick attack:
    its skill check first, then the extra dice and the target flat-footed on a success)."""
    from sftactics.io.scenario2e import statblock2e_ref
    from sftactics.io.statblocks import statblock_ref

    a2, d2 = statblock2e_ref(attacker), statblock2e_ref(defender)
    if a2 is not None or d2 is not None:
        if a2 is None or d2 is None:
            raise SftError("attack: both stat blocks must be of the same edition (one is a 2E stat block)")
        _strike2e(a2, d2, weapon, _dice(seed, dice), attack_number, as_json)
        return
    from sftactics.sf1e.attack import Situation, resolve_attack
    from sftactics.sf1e.state import Creature

    a = Creature.fresh(statblock_ref(attacker))
    d = Creature.fresh(statblock_ref(defender))
    if a.id == d.id:
        d = d.model_copy(update={"id": d.id + " (2)"})
    src = _dice(seed, dice)
    situation, used = Situation(nonlethal=nonlethal), a.stat.weapon(weapon)
    before: list[str] = []
    if ability is not None:
        from sftactics.sf1e.class_abilities import rider_attack

        used, ac_terms, before = rider_attack(a, d, ability, used, src)
        situation = Situation(nonlethal=nonlethal, ac_terms=ac_terms)
    result = resolve_attack(a, d, used, src, situation)
    if as_json:
        data = result.to_dict()
        data["dice"] = [r.to_dict() for r in src.history]
        out.print_json(json.dumps(data))
        return
    for line in [*before, *result.lines()]:
        out.print(line)


def _strike2e(a: Any, d: Any, weapon: str, src: DiceSource, number: int, as_json: bool) -> None:
    """One 2E Strike between two 2E stat blocks (``sftactics attack``)."""
    from sftactics.sf2e.attacks import strike

    attacker, defender = a.creature(), d.creature()
    if attacker.name == defender.name:
        defender = defender.changed(name=defender.name + " (2)")
    try:
        spec = a.strike(weapon)
    except SftError as e:
        raise SftError(f"attack: {e}") from None
    r = strike(attacker, defender, spec.weapon(), src, attack_number=number)
    if as_json:
        data = {
            "attacker": r.attacker,
            "weapon": r.weapon,
            "degree": r.degree.label,
            "targeting": r.targeting.to_dict() if r.targeting is not None else None,
            "attack": r.attack.to_dict() if r.attack is not None else None,
            "damage": r.damage.total if r.damage is not None else 0,
            "defender_after": r.target_after(defender).model_dump(mode="json"),
            "dice": [x.to_dict() for x in src.history],
        }
        out.print_json(json.dumps(data))
        return
    for line in r.describe().splitlines():
        out.print(line, markup=False)


@app.command("duel")
def duel_cmd(
    first: Annotated[str, typer.Argument(help="first combatant's stat block: a YAML file or a bundled name")],
    second: Annotated[str, typer.Argument(help="second combatant's stat block: a YAML file or a bundled name")],
    seed: SeedOpt = None,
    dice: DiceOpt = None,
    rounds: Annotated[int, typer.Option(min=1, max=100, help="the GM stops the fight after this many rounds")] = 20,
    brief: Annotated[bool, typer.Option(help="one line per attack instead of the full explanation")] = False,
) -> None:
    """Two stat blocks fight it out, side by side with no map, each on the simple built-in policy."""
    from sftactics.encounter import narrate
    from sftactics.encounter.engine import Fight
    from sftactics.encounter.runner import auto_play
    from sftactics.encounter.state import Combatant, Encounter
    from sftactics.io.statblocks import statblock_ref
    from sftactics.sf1e.state import Creature

    a, b = statblock_ref(first), statblock_ref(second)
    ids = (a.name, b.name if b.name != a.name else b.name + " (2)")
    combatants = {
        cid: Combatant(id=cid, side=side, creature=Creature.fresh(sb, cid))
        for cid, side, sb in ((ids[0], "first", a), (ids[1], "second", b))
    }
    start = Encounter(name="duel", combatants=combatants)
    fight = auto_play(Fight(start, _dice(seed, dice), seed=None if dice else _seed(seed)), max_rounds=rounds)
    for line in narrate.lines(fight.all_events(), verbose=not brief):
        out.print(line, markup=False)
    out.print("")
    for line in narrate.summary(fight.state):
        out.print(line, markup=False)


@app.command("run")
def run_cmd(
    scenario: Annotated[Path, typer.Argument(help="scenario file (YAML)")],
    seed: SeedOpt = None,
    commands: Annotated[
        Path | None, typer.Option(help="command file (YAML/JSON list); default: built-in policy")
    ] = None,
    dice: DiceOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the event log and final state as JSON")] = False,
    brief: Annotated[bool, typer.Option(help="one line per attack instead of the full explanation")] = False,
    save: Annotated[Path | None, typer.Option(help="save the fight log (JSON lines) to this file")] = None,
    max_rounds: Annotated[int, typer.Option(help="the GM ends the fight after this many rounds")] = 50,
) -> None:
    """Run an encounter: from a command file, or with every combatant on the simple built-in policy."""
    from sftactics.encounter.engine import Fight
    from sftactics.encounter.runner import auto_play
    from sftactics.io.scenario import load_commands, load_scenario

    start = load_scenario(scenario)
    fight = Fight(start, _dice(seed, dice), seed=None if dice else _seed(seed))
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
    _print_fight(fight, brief=brief)


def _print_fight(fight: Fight, *, brief: bool) -> None:
    """The fight as the GM reads it: the narration, the end-of-fight summary and the final state."""
    from sftactics.encounter import narrate

    for line in narrate.lines(fight.all_events(), verbose=not brief):
        out.print(line, markup=False)
    out.print("")
    if fight.state.result is not None:
        for line in narrate.fight_summary(fight.state, fight.all_events()):
            out.print(line, markup=False)
        out.print("")
    out.print("Final state:", markup=False)
    for line in narrate.summary(fight.state):
        out.print("  " + line, markup=False)


@app.command("replay")
def replay_cmd(
    log: Annotated[Path, typer.Argument(help="a fight log saved with run --save or play")],
    as_json: Annotated[bool, typer.Option("--json", help="print the final state as JSON")] = False,
    brief: Annotated[bool, typer.Option(help="one line per attack instead of the full explanation")] = False,
    final: Annotated[bool, typer.Option(help="only the final state, not the fight")] = False,
) -> None:
    """Replay a saved fight from its events (no dice are rolled): the narration, the summary and the final
    state."""
    from sftactics.encounter import narrate
    from sftactics.encounter.engine import Fight

    fight = Fight.load(log)
    if as_json:
        sys.stdout.write(fight.state.model_dump_json() + "\n")
        return
    if final:
        for line in narrate.summary(fight.state):
            out.print(line, markup=False)
        return
    _print_fight(fight, brief=brief)


@app.command("play")
def play_cmd(
    scenario: Annotated[Path, typer.Argument(help="scenario file (YAML), or a saved fight log (.jsonl) to resume")],
    seed: Annotated[int, typer.Option(help="seed for the engine's dice")] = DEFAULT_SEED,
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
    png: Annotated[Path | None, typer.Option(help="also write the picture as PNG to this file")] = None,
) -> None:
    """Draw a scenario's map (or a saved fight's, as it stands) with its combatants, and overlays: reach, threat,
    cover, an area template."""
    from sftactics.views.command import map_cmd

    map_cmd(scenario, from_, show or [], svg, area, out, view=view, png=png)


def _register_simulation() -> None:
    from sftactics.sim.cli import simulate_cmd, sweep_cmd

    app.command("simulate")(simulate_cmd)
    app.command("sweep")(sweep_cmd)


_register_simulation()


def _register_query() -> None:
    from sftactics.query_cli import query_cmd

    app.command("query")(query_cmd)


_register_query()


def _register_chase() -> None:
    from sftactics.chase_cli import chase_cmd, travel_cmd

    app.command("chase")(chase_cmd)
    app.command("travel")(travel_cmd)


_register_chase()


def _register_table() -> None:
    from sftactics.table.cli import serve_cmd

    app.command("serve")(serve_cmd)


_register_table()

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
        typer.Argument(
            help="statblock, scenario, statblock2e, scenario2e, chase or events (JSON Schema); options, conditions or "
            "commands (Markdown)"
        ),
    ],
) -> None:
    """Print a reference document generated from the code."""
    from sftactics.io import reference as ref
    from sftactics.io.chase_scenario import chase_schema

    docs = {
        "statblock": ref.statblock_schema,
        "scenario": ref.scenario_schema,
        "statblock2e": ref.statblock2e_schema,
        "scenario2e": ref.scenario2e_schema,
        "chase": chase_schema,
        "events": ref.events_schema,
        "options": ref.options_markdown,
        "conditions": ref.conditions_markdown,
        "commands": ref.commands_markdown,
    }
    if what not in docs:
        raise SftError(f"schema: expected one of {', '.join(docs)}, got {what!r}")
    sys.stdout.write(docs[what]())


def _one_line_summaries(typer_app: typer.Typer) -> None:
    """The command list shows each command's first paragraph as one flowing line (typer keeps the docstring's
    line breaks, which leaves ragged lines in an 80-column terminal)."""
    import inspect

    for info in typer_app.registered_commands:
        doc = info.help or (inspect.getdoc(info.callback) if info.callback is not None else None)
        if info.short_help is None and doc:
            info.short_help = " ".join(inspect.cleandoc(doc).split("\n\n")[0].split())


_one_line_summaries(app)
_one_line_summaries(import_app)


def main() -> None:
    """Entry point: run the app, printing user errors (``SftError``) without a traceback."""
    try:
        app(prog_name="sftactics")
    except SftError as e:
        err.print(f"[red]error:[/red] {e}", markup=True)
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
