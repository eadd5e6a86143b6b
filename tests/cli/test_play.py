"""``sftactics play``: an interactive session scripted line by line.

Each test feeds lines through ``input_fn`` and records the console; a snapshot of the encounter is taken at
every command prompt (``Script.states``), so a test can compare the state before and after any line.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from sftactics.cli import app
from sftactics.dice.source import SeededDice
from sftactics.encounter.engine import Fight
from sftactics.encounter.events import DiceRolled
from sftactics.io.scenario import load_scenario
from sftactics.play import Session, TableDice, match_name, play

ROOT = Path(__file__).parent.parent.parent
SOLDIER = str(ROOT / "examples" / "statblocks" / "vesk-soldier.yaml")
KSARIK = str(ROOT / "examples" / "statblocks" / "ksarik.yaml")

MAP = "\n".join(
    [
        "##########",
        "#........#",
        "#........#",
        "#........#",
        "##########",
    ]
)


def scenario(tmp_path: Path, *, initiative: bool = True, map: bool = False, **extra: Any) -> Path:
    """Krask (vesk soldier, party) against a ksarik. With ``initiative`` the counts are given (Krask 20 acts
    first, Ksarik 5), so no die is rolled to begin."""
    krask: dict[str, Any] = {"id": "Krask", "side": "party", "statblock": SOLDIER}
    ksarik: dict[str, Any] = {"id": "Ksarik", "side": "monsters", "statblock": KSARIK}
    if initiative:
        krask["initiative"], ksarik["initiative"] = 20, 5
    if map:
        krask["at"], ksarik["at"] = [1, 1], [8, 3]
    data: dict[str, Any] = {"name": "Duel", "combatants": [krask, ksarik, *extra.get("more", [])]}
    if map:
        data["map"] = MAP
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


class Script:
    """Lines to type, one per prompt; EOF when they run out. Records every prompt, and the encounter (as
    JSON) at every command prompt."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []
        self.states: list[str] = []
        self.session: Session | None = None

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt.endswith("> ") and self.session is not None:
            self.states.append(self.session.fight.state.model_dump_json())
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def session(
    path: Path, lines: list[str], *, seed: int = 1, physical: bool = False
) -> tuple[Session, Script, Callable[[], str]]:
    console = Console(record=True, width=120)
    script = Script(lines)
    s = Session.open(path, seed=seed, physical=physical, console=console, input_fn=script)
    script.session = s
    s.run()
    return s, script, lambda: console.export_text(clear=False)


def run_play(path: Path, lines: list[str], *, seed: int = 1, physical: bool = False) -> tuple[str, Script]:
    console = Console(record=True, width=120)
    script = Script(lines)
    play(path, seed=seed, physical=physical, console=console, input_fn=script)
    return console.export_text(), script


# ---------------------------------------------------------------------- a whole fight
def test_auto_all_plays_the_fight_to_its_end(tmp_path: Path) -> None:
    path = scenario(tmp_path, initiative=False)
    text, script = run_play(path, ["auto all"], seed=4)
    assert "rolls initiative" in text
    assert "Combat over in round" in text
    assert "Result:" in text and "Rounds:" in text
    assert "Died: Ksarik" in text or "Died: Krask" in text
    assert "Krask (party): dealt" in text and "Ksarik (monsters): dealt" in text
    # the session stays open after the end of the combat (and leaves when the input ends)
    assert script.prompts[1:] == ["(combat over) > "]
    assert "Traceback" not in text
    again, _ = run_play(path, ["auto all"], seed=4)
    assert again == text


def test_tracker_and_actions_are_shown_before_the_prompt(tmp_path: Path) -> None:
    _, _, text = session(scenario(tmp_path), ["attack ksarik"], seed=2)
    out = text()
    first = out.split("Krask > attack ksarik")[0]
    for heading in ("Init", "Combatant", "Side", "SP", "HP", "RP", "Conditions and effects", "Status"):
        assert heading in first
    assert "18/18" in first and "20/20" in first and "4/4" in first  # Krask's SP, HP, RP
    assert "25/25" in first  # Ksarik's HP
    assert "Krask's turn: left standard, move, swift or one full action" in first
    after = out.split("Krask > attack ksarik")[1]
    assert "Krask: attack Ksarik with tactical doshko (standard action)" in after
    assert "move, swift" in after and "standard" in after  # what is left, what is spent


# ---------------------------------------------------------------------- refusals
@pytest.mark.rule("CF-12")
def test_acting_out_of_turn_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    raw = '{"type": "attack", "actor": "Ksarik", "target": "Krask"}'
    s, script, text = session(scenario(tmp_path), [raw])
    assert "Refused: it is Krask's turn, not Ksarik's [CF-12]" in text()
    assert script.states[1] == script.states[0]
    assert s.dice.history == []


@pytest.mark.rule("ACT-02")
def test_a_second_standard_action_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    s, script, text = session(scenario(tmp_path), ["attack ksarik", "attack ksarik"], seed=2)
    out = text()
    assert "[ACT-02]" in out and "Refused: Krask has no action left" in out
    assert script.states[1] != script.states[0]
    assert script.states[2] == script.states[1]
    assert len(s.fight.commands) == 2  # begin, the first attack


def test_unknown_and_malformed_lines_print_hints_never_tracebacks(tmp_path: Path) -> None:
    lines = [
        "fly ksarik",
        "atack ksarik",
        "attack",
        "attack nobody",
        "attack ksarik with spoon",
        "move",
        "move a,b",
        "move 3,3",  # no map and no position: refused by the engine
        "heal krask x",
        "damage krask",
        "damage krask 2d",
        "{bad json",
        '{"type": "explode"}',
        '{"type": "attack"}',
        '"unbalanced',
        "undo 0",
        "save",
        "cond krask notacondition",
        "uncond krask shaken",
        "resume",
        "resume krask",
        "log 5 6",
        "aid",
        "full",
        "dice sideways",
        "end now",
        "defend at once",
    ]
    _, script, text = session(scenario(tmp_path), lines)
    out = text()
    assert "Traceback" not in out and "Internal error" not in out
    assert "Unknown command 'fly'" in out
    assert "did you mean attack?" in out
    assert "No combatant named 'nobody'" in out
    assert "No weapon of Krask named 'spoon'" in out
    assert "Usage: move X,Y" in out
    assert "Not valid JSON" in out
    assert "Not a valid command" in out
    assert "unknown condition 'notacondition'" in out
    assert "Nobody is delaying." in out
    assert len(script.prompts) == len(lines) + 1  # the session read every line and was still there
    assert set(script.states) == {script.states[0]}  # nothing changed


def test_names_match_by_case_insensitive_unique_prefix(tmp_path: Path) -> None:
    more = [{"id": "Ksarik 2", "side": "monsters", "statblock": KSARIK, "initiative": 3}]
    _, _, text = session(scenario(tmp_path, more=more), ["attack ks", "attack KSARIK 2 with TENT"], seed=2)
    out = text()
    assert "'ks' could be Ksarik, Ksarik 2" in out
    assert "Krask: attack Ksarik 2 with tactical doshko" not in out  # "tent" is not Krask's weapon
    assert "No weapon of Krask named 'TENT'" in out
    assert match_name("ksarik", ["Ksarik", "Ksarik 2"], "combatant") == "Ksarik"
    assert match_name("dosh", ["tactical doshko", "tactical semi-auto pistol"], "weapon", substring=True) == (
        "tactical doshko"
    )


# ---------------------------------------------------------------------- undo
def test_undo_restores_the_previous_state_and_shows_the_tracker(tmp_path: Path) -> None:
    _, script, text = session(scenario(tmp_path), ["attack ksarik", "undo", "attack ksarik"], seed=2)
    before, after_attack, after_undo, again = script.states
    assert after_attack != before
    assert after_undo == before
    assert again == after_attack  # the seeded dice roll the same again after undo
    out = text()
    assert "Undone: attack (actor=Krask, target=Ksarik)" in out
    tail = out.split("Undone: attack")[1]
    assert "Conditions and effects" in tail.split("Krask > ")[0]  # the tracker again


def test_undo_can_go_back_before_the_beginning(tmp_path: Path) -> None:
    s, script, text = session(scenario(tmp_path), ["undo", "begin"])
    out = text()
    assert "Duel: not begun" in out
    assert "(not begun: type begin) > " in script.prompts
    assert s.fight.state.timeline.phase == "round"


# ---------------------------------------------------------------------- dice typed at the table
@pytest.mark.rule("ATK-02")
def test_typed_dice_give_exactly_the_typed_results(tmp_path: Path) -> None:
    lines = ["dice me", "attack ksarik with doshko", "25", "seven", "", "12", "10"]
    s, script, text = session(scenario(tmp_path), lines)
    out = text()
    d20 = "d20 for Krask attack (tactical doshko): "
    assert script.prompts.count(d20) == 4  # 25, seven and an empty line are asked again
    assert "d12 for Krask damage (tactical doshko): " in script.prompts
    assert "A d20 shows 1 to 20" in out
    assert "d20 12 +5 = 17 vs 15: success" in out
    assert "1d12[10] +3 piercing = 13" in out
    assert s.fight.state.creature("Ksarik").state.hp == 12
    rolled = [e for e in s.fight.events[-1] if isinstance(e, DiceRolled)]
    assert [(d[0], d[1]) for d in rolled[0].dice] == [(20, 12), (12, 10)]
    assert [(d.sides, d.result) for d in s.dice.history] == [(20, 12), (12, 10)]


@pytest.mark.rule("CF-03")
def test_physical_dice_from_the_start_roll_initiative_by_hand(tmp_path: Path) -> None:
    s, script, text = session(scenario(tmp_path, initiative=False), ["1", "20"], physical=True)
    assert script.prompts[:2] == ["d20 for Krask initiative: ", "d20 for Ksarik initiative: "]
    assert "Krask rolls initiative: d20 1 +2 = 3" in text()
    assert s.fight.state.timeline.order == ("Ksarik", "Krask")
    assert script.prompts[2] == "Ksarik > "


def test_cancel_at_a_dice_prompt_changes_nothing(tmp_path: Path) -> None:
    s, script, text = session(scenario(tmp_path), ["dice me", "attack ksarik", "cancel", "dice engine"])
    assert "Cancelled: nothing changed." in text()
    assert script.states[2] == script.states[1]
    assert s.dice.history == []


def test_input_ending_at_a_dice_prompt_ends_the_session_quietly(tmp_path: Path) -> None:
    s, _, text = session(scenario(tmp_path), ["dice me", "attack ksarik"])
    assert "Input ended: the command was dropped." in text()
    assert "Traceback" not in text()
    assert s.dice.history == [] and len(s.fight.commands) == 1


def test_switching_dice_keeps_one_history_and_the_seeded_stream_in_step(tmp_path: Path) -> None:
    """Typed dice advance the seeded stream too, so the engine's next die after switching back is the one a
    resumed log would roll."""
    lines = ["dice me", "attack ksarik", "12", "10", "end", "dice engine", "auto", "save " + str(tmp_path / "a.jsonl")]
    s, _, _ = session(scenario(tmp_path), lines, seed=9)
    typed = [(d.sides, d.result) for d in s.dice.history[:2]]
    assert typed == [(20, 12), (12, 10)]
    assert len(s.dice.history) == s.fight.state.dice_used > 2
    resumed = Fight.load(tmp_path / "a.jsonl")
    assert resumed.state == s.fight.state
    assert [resumed.dice.die(20) for _ in range(5)] == [s.dice.die(20) for _ in range(5)]


def test_typed_dice_source_asks_and_may_let_the_engine_roll() -> None:
    asked: list[tuple[int, str]] = []

    def ask(sides: int, purpose: str) -> int | None:
        asked.append((sides, purpose))
        return None if purpose == "engine" else 3

    dice = TableDice(5, ask, manual=True)
    assert dice.die(6, "mine") == 3
    engine = dice.die(6, "engine")
    dice.manual = False
    plain = [dice.die(20) for _ in range(3)]
    from sftactics.dice.source import SeededDice

    ref = SeededDice(5)
    expected = [ref.die(6), ref.die(6), *(ref.die(20) for _ in range(3))]
    assert [3, engine, *plain] == [3, *expected[1:]]
    assert asked == [(6, "mine"), (6, "engine")]
    del dice.history[1:]  # a refused command's dice are dropped: the stream steps back too
    assert dice.die(6) == expected[1]


# ---------------------------------------------------------------------- save and resume
def test_save_then_resume_continues_the_same_fight(tmp_path: Path) -> None:
    path = scenario(tmp_path, initiative=False)
    log = tmp_path / "fight.jsonl"
    s1, _, text1 = session(path, ["auto", f"save {log}"], seed=6)
    assert f"Saved 3 commands to {log}." in text1()  # begin, Krask's attack, the end of its turn
    saved_state = s1.fight.state

    s2, script2, _ = session(log, ["auto all"], seed=999)  # the log's own seed wins
    assert json.loads(script2.states[0]) == json.loads(saved_state.model_dump_json())
    assert s2.fight.state.result is not None

    # the same commands in one sitting end the same way: the seeded dice resumed where they stopped
    s3, _, _ = session(path, ["auto", "auto all"], seed=6)
    assert s3.fight.state == s2.fight.state


def test_resuming_a_finished_fight_prints_the_result_and_stays_open(tmp_path: Path) -> None:
    log = tmp_path / "done.jsonl"
    s, script, _ = session(scenario(tmp_path), ["endcombat truce", f"save {log}"])
    assert script.lines == []  # the session stayed open after the combat ended: the log could be saved
    assert log.exists() and not s.unsaved()

    done = Fight.seeded(load_scenario(scenario(tmp_path)), 1)
    done.do({"type": "begin"})
    done.do({"type": "end_combat", "reason": "truce"})
    done.save(log)
    text, script = run_play(log, ["auto all"])
    assert "Result: nobody wins in round 1 (truce (CF-02))." in text
    assert "The combat is over: nothing to play" in text
    assert script.prompts == ["(combat over) > ", "(combat over) > "]


def test_save_to_an_unwritable_place_is_a_message(tmp_path: Path) -> None:
    _, _, text = session(scenario(tmp_path), [f"save {tmp_path / 'no' / 'such' / 'dir.jsonl'}"])
    assert "cannot be written" in text()


# ---------------------------------------------------------------------- GM commands and the tracker
@pytest.mark.rule("CF-14")
def test_gm_commands_and_condition_durations_in_the_tracker(tmp_path: Path) -> None:
    lines = [
        "damage ksarik 7",
        "heal ksarik 3",
        "cond krask shaken 2",
        "show",
        "uncond krask shaken",
        "cond krask sickened 1",
        "init",
        "damage krask 1d4 nonlethal",
        "endcombat the ksarik flees",
    ]
    s, script, text = session(scenario(tmp_path), lines, seed=3)
    out = text()
    assert json.loads(script.states[1])["combatants"]["Ksarik"]["creature"]["state"]["hp"] == 25 - 7
    assert json.loads(script.states[2])["combatants"]["Ksarik"]["creature"]["state"]["hp"] == 25 - 4
    assert out.count("Conditions and effects") == 4  # at the start, on request (show, init), at the end
    assert "shaken (2 rd, ends before count 20 of round 3)" in out
    assert "GM: Krask loses shaken" in out
    assert "sickened (1 rd, ends before count 20 of round" in out
    assert "Result: nobody wins in round 1 (the ksarik flees (CF-02))." in out or "the ksarik flees" in out
    assert s.fight.state.result is not None


@pytest.mark.rule("ACT-20")
def test_turn_effects_show_their_duration(tmp_path: Path) -> None:
    _, _, text = session(scenario(tmp_path), ["defend"])
    assert "total defense (until the start of Krask's next turn)" in text()


def test_moves_on_a_map_to_a_square_and_along_a_path(tmp_path: Path) -> None:
    s, _, text = session(scenario(tmp_path, map=True), ["move 3,1", "move 4,2 5,2"])
    out = text()
    assert "Krask moves 10 ft" in out
    assert s.fight.state.get("Krask").position == (5, 2)
    assert "│ 5,2" in out or "5,2 " in out


@pytest.mark.rule("ACT-71", "CF-16")
def test_delay_and_resume(tmp_path: Path) -> None:
    lines = ["delay", "auto", "resume kr", "end", "delay", "auto all"]
    s, _, text = session(scenario(tmp_path), lines, seed=5)
    out = text()
    assert "-- Krask: delays (ACT-71) --" in out
    assert "delaying" in out
    assert "Krask's turn has not started yet" not in out  # Krask is the delayer: Ksarik is next
    assert "Ksarik's turn has not started yet (Krask may still come back in)" in out
    assert "came back in from delay (CF-16)" in out
    assert s.fight.state.result is not None  # auto all brings a delayer back in instead of stalling


def test_brief_narration_and_log(tmp_path: Path) -> None:
    _, _, text = session(scenario(tmp_path), ["brief", "attack ksarik", "log", "verbose", "log all"], seed=2)
    out = text()
    assert "Krask attacks Ksarik with tactical doshko: " in out
    assert out.count("Initiative order: Krask, Ksarik") == 2  # at the start, and again by log all


def test_ready_through_raw_json_defaults_the_actor(tmp_path: Path) -> None:
    raw = '{"type": "ready", "action": {"type": "attack", "target": "Ksarik"}, "trigger": "manual"}'
    s, _, text = session(scenario(tmp_path), [raw, "end", '{"type": "trigger", "actor": "Krask"}'], seed=2)
    assert "Krask readies attack (trigger: manual)" in text()
    assert "readied attack (manual)" in text()
    assert "Krask's readied action goes off: attack (ACT-73)" in text()
    assert s.fight.state.get("Krask").readied is None


# ---------------------------------------------------------------------- through the command line
def test_play_from_the_command_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["play", str(scenario(tmp_path)), "--seed", "2"], input="help\nauto all\n")
    assert result.exit_code == 0, result.output
    assert "Combat over in round" in result.output
    assert "dice me | dice engine" in result.output


def test_reactions_can_be_asked_at_the_table(tmp_path: Path) -> None:
    from sftactics.encounter.commands import Begin, EndTurn
    from sftactics.encounter.engine import Fight
    from sftactics.encounter.state import Combatant, Encounter
    from sftactics.play import Session
    from tests.builders import npc, pc

    enc = Encounter(
        map="\n".join(["." * 6] * 3),
        combatants={
            "Tess": Combatant(id="Tess", side="party", creature=pc(name="Tess"), position=(1, 1), initiative=20),
            "Gob": Combatant(id="Gob", side="aliens", creature=npc(name="Gob"), position=(2, 1), initiative=10),
        },
    )
    fight = Fight(enc, SeededDice(1), seed=1)
    fight.do(Begin())
    fight.do(EndTurn(actor="Tess"))
    fight.do(EndTurn(actor="Gob"))
    lines = iter(["reactions ask", "move 0,1", "n", "quit", "y"])
    console = Console(record=True, width=120)
    Session(fight, seed=1, physical=False, console=console, input_fn=lambda p: next(lines)).run()
    text = console.export_text()
    assert "does Gob take an attack of opportunity?" in text
    assert "Gob lets Tess go" in text


def test_the_tracker_fits_80_columns_without_cutting_a_cell(tmp_path: Path) -> None:
    """A pipe or a narrow terminal gets every cell whole: long conditions wrap at words, nothing ends in '…'."""
    from sftactics.play.panels import tracker

    s, _, _ = session(scenario(tmp_path), ["cond krask shaken 2", "cond ksarik sickened 3"])
    console = Console(record=True, width=80)
    console.print(tracker(s.fight.state))
    out = console.export_text()
    assert "…" not in out and max(len(line) for line in out.splitlines()) <= 80
    for word in ("Conditions", "Combatant", "shaken", "sickened", "18/18", "25/25", "Krask", "Ksarik"):
        assert word in out


def test_again_starts_the_same_fight_afresh_after_asking(tmp_path: Path) -> None:
    s, script, text = session(scenario(tmp_path), ["attack ksarik", "endcombat", "again", "n", "again", "y"], seed=2)
    out = text()
    assert "The fight is not saved. Start again anyway? [y/N] " in script.prompts
    assert "Carrying on." in out
    assert s.fight.state.result is None and [c.type for c in s.fight.commands] == ["begin"]
    assert json.loads(script.states[0]) == json.loads(s.fight.state.model_dump_json())  # as at the first prompt


def test_save_without_a_file_writes_back_to_the_log_it_resumed(tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    session(scenario(tmp_path), ["attack ksarik", f"save {log}"], seed=2)
    s, _, text = session(log, ["end", "save", "quit"], seed=2)
    assert f"Saved 3 commands to {log}." in text()
    assert len(Fight.load(log).commands) == 3 and not s.unsaved()
