"""``sftactics chase`` (a vehicle chase, explained like ``run``) and ``sftactics travel`` (local and overland
movement, day by day). Registered on the main app by ``cli.py``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from sftactics.core.errors import SftError
from sftactics.dice.source import DiceSource
from sftactics.sf1e.state import Creature
from sftactics.sf1e.vehicles.statblock import VehicleStat
from sftactics.views.console import console

out = console()


def chase_cmd(
    scenario: Annotated[
        Path, typer.Argument(help="a chase scenario file (YAML or JSON, kind: chase), or a saved chase (.jsonl)")
    ],
    seed: Annotated[int | None, typer.Option(help="seed for reproducible dice (default 1)")] = None,
    dice: Annotated[
        str | None, typer.Option(help="scripted die results instead of the seed: 20,5,3 or scripted:FILE")
    ] = None,
    commands: Annotated[
        Path | None, typer.Option(help="chase command file (YAML/JSON list); default: the chase policy")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the events and the final chase as JSON")] = False,
    brief: Annotated[bool, typer.Option(help="one line per step instead of the full explanation")] = False,
    save: Annotated[Path | None, typer.Option(help="save the chase log (JSON lines) to this file")] = None,
) -> None:
    """Run a vehicle chase: pilot actions, chase progress and combat, round by round, every number explained
    (from a command file, or with every pilot and rider on the chase policy)."""
    from sftactics.cli import _dice, _seed
    from sftactics.encounter.chase import ChaseFight, narrate
    from sftactics.encounter.chase_commands import CHASE_COMMAND_LIST
    from sftactics.encounter.chase_policy import auto_play
    from sftactics.io.chase_scenario import load_chase
    from sftactics.io.files import read_data

    if scenario.suffix.lower() == ".jsonl":  # a saved chase: replayed from its events, then any commands
        fight = ChaseFight.load(scenario, _dice(seed, dice) if seed is not None or dice else None)
    else:
        fight = ChaseFight(load_chase(scenario), _dice(seed, dice), seed=None if dice else _seed(seed))
    if commands is not None:
        from pydantic import ValidationError

        from sftactics.io.files import validation_error

        try:
            cmds = CHASE_COMMAND_LIST.validate_python(read_data(commands))
        except ValidationError as e:
            raise validation_error(str(commands), e) from None
        for i, cmd in enumerate(cmds):
            try:
                fight.do(cmd)
            except SftError as e:
                raise SftError(f"{commands}: command [{i}] ({cmd.type}) refused: {e}") from None
    elif scenario.suffix.lower() != ".jsonl":
        auto_play(fight)
    if save is not None:
        fight.save(save)
    if as_json:
        events = [e.model_dump(mode="json", exclude={"after"}) for e in fight.all_events()]
        data = {"events": events, "state": fight.state.model_dump(mode="json")}
        sys.stdout.write(json.dumps(data) + "\n")
        return
    for line in narrate(fight.all_events(), brief=brief):
        out.print(line, markup=False)
    if fight.state.result is None:
        out.print("")
        out.print(f"the chase is not over (round {fight.state.chase.round}, {fight.state.chase.phase})", markup=False)


def travel_cmd(
    who: Annotated[
        str | None,
        typer.Argument(help="the traveller's stat block (a file or a bundled name); none with --speed or --vehicle"),
    ] = None,
    terrain: Annotated[str, typer.Option(help="desert, forest, dense forest, hill, marsh, mountain, plains, urban")] = (
        "plains"
    ),
    way: Annotated[str, typer.Option(help="highway, road, trail or trackless")] = "road",
    days: Annotated[int | None, typer.Option(min=1, max=365, help="travel this many days")] = None,
    miles: Annotated[float | None, typer.Option(help="travel until this many miles are covered")] = None,
    speed: Annotated[int | None, typer.Option(help="land speed in feet (default: the stat block's)")] = None,
    hours: Annotated[int | None, typer.Option(help="hours of travel a day (default: 8 on foot, 10 by vehicle)")] = None,
    hustle: Annotated[int, typer.Option(help="hours hustled each day (the first ones)")] = 0,
    vehicle: Annotated[str | None, typer.Option(help="travel by a vehicle (bundled name or file): its mph")] = None,
    shifts: Annotated[bool, typer.Option(help="the vehicle's crew works in shifts: 24-hour days")] = False,
    minutes: Annotated[
        int | None, typer.Option(min=1, max=600, help="local movement: this many minutes at --pace, minute by minute")
    ] = None,
    pace: Annotated[str, typer.Option(help="local movement pace: walk, hustle or run")] = "walk",
    rest_recovers: Annotated[
        bool, typer.Option(help="each night's sleep recovers the day's travel damage (outside the seeds)")
    ] = False,
    seed: Annotated[int | None, typer.Option(help="seed for reproducible dice (default 1)")] = None,
    dice: Annotated[str | None, typer.Option(help="scripted die results: 20,5,3 or scripted:FILE")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the journey as JSON")] = False,
    brief: Annotated[bool, typer.Option(help="only the day-by-day table")] = False,
) -> None:
    """Local and overland movement: miles per hour by terrain and road, hustling and forced marches with their
    Constitution checks and nonlethal damage, as a day-by-day table with every number explained; with --minutes,
    local movement minute by minute (running and its Constitution checks)."""
    from fractions import Fraction

    from rich.table import Table

    from sftactics.cli import _dice
    from sftactics.sf1e.journey import plan_journey

    if way not in ("highway", "road", "trail", "trackless"):
        raise SftError(f"--way: expected highway, road, trail or trackless, not {way!r}")
    traveller = None
    if who is not None:
        from sftactics.io.statblocks import statblock_ref

        traveller = Creature.fresh(statblock_ref(who))
    if minutes is not None:
        _local(traveller, minutes, pace, speed, _dice(seed, dice), as_json)
        return
    mph = None
    if vehicle is not None:
        mph = _vehicle(vehicle).speed.mph
    if traveller is None and speed is None and mph is None:
        raise SftError("give a traveller's stat block, --speed or --vehicle")
    distance = Fraction(miles).limit_denominator(1000) if miles is not None else None
    journey = plan_journey(
        traveller,
        _dice(seed, dice),
        terrain=terrain,
        way=way,  # type: ignore[arg-type]
        speed_ft=speed,
        hours_per_day=hours,
        hustle_hours=hustle,
        days=days,
        distance_miles=distance,
        vehicle_mph=mph,
        vehicle_day="vehicle with shifts" if shifts else "small crew vehicle",
        rest_recovers=rest_recovers,
    )
    if as_json:
        sys.stdout.write(json.dumps(journey.to_dict()) + "\n")
        return
    out.print(f"{journey.who}: {journey.speed.describe()}", markup=False)
    if journey.hustle_speed is not None:
        out.print(f"hustling: {journey.hustle_speed.describe()}", markup=False)
    for n in journey.notes:
        out.print(n, markup=False)
    t = Table("day", "miles", "total", "nonlethal", "HP left", "condition")
    for d in journey.days:
        state = "unconscious" if d.unconscious else ("fatigued" if d.fatigued else "")
        hp = "" if d.hp_left is None else str(d.hp_left)
        t.add_row(str(d.day), f"{float(d.miles):g}", f"{float(d.total_miles):g}", str(d.nonlethal), hp, state)
    out.print(t)
    if journey.distance is not None:
        verdict = "arrived" if journey.arrived else "not there yet"
        out.print(f"{verdict}: {float(journey.total_miles):g} of {float(journey.distance):g} miles", markup=False)
    if brief:
        return
    for d in journey.days:
        out.print(f"== day {d.day}", markup=False)
        for h in d.hours:
            for line in h.lines:
                out.print("  " + line, markup=False)


def _local(traveller: Creature | None, minutes: int, pace: str, speed: int | None, dice: DiceSource,
           as_json: bool) -> None:  # fmt: skip
    """Local movement minute by minute (MOV-09, MOV-21)."""
    from rich.table import Table

    from sftactics.grid.scales import Pace
    from sftactics.sf1e.journey import local_movement

    if traveller is None:
        raise SftError("local movement (--minutes) needs the traveller's stat block (running depends on Constitution)")
    if pace not in ("walk", "hustle", "run"):
        raise SftError(f"--pace: expected walk, hustle or run, not {pace!r}")
    per_round, rows = local_movement(traveller, minutes, Pace(pace), dice, speed_ft=speed)
    if as_json:
        data = {"who": traveller.name, "pace": pace, "feet_per_round": per_round.to_dict(),
                "minutes": [m.to_dict() for m in rows]}  # fmt: skip
        sys.stdout.write(json.dumps(data) + "\n")
        return
    out.print(f"{traveller.name}: {per_round.describe()}; a minute is 10 rounds [MOV-09]", markup=False)
    t = Table("minute", "feet", "total", "rounds run", "rounds resting")
    for m in rows:
        t.add_row(str(m.minute), str(m.feet), str(m.total_feet), str(m.ran), str(m.rested))
    out.print(t)
    for m in rows:
        for line in m.lines:
            out.print(f"  minute {m.minute}: {line}", markup=False)


def _vehicle(ref: str) -> VehicleStat:
    from sftactics.content.vehicles import find_vehicle, vehicle_names
    from sftactics.io.files import load_model

    p = Path(ref)
    if p.is_file():
        return load_model(p, VehicleStat)
    found = find_vehicle(ref)
    if found is None:
        raise SftError(f"--vehicle: a vehicle file or a bundled vehicle ({', '.join(vehicle_names())}), not {ref!r}")
    return found


__all__ = ["chase_cmd", "travel_cmd"]
