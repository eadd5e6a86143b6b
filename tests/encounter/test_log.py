"""The event log: replay, undo, save and resume; invariants under random command sequences."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sftactics.core.errors import FileFormatError, RuleViolation, SftError
from sftactics.dice.source import SeededDice
from sftactics.encounter.commands import Attack, Begin, EndTurn, parse_command
from sftactics.encounter.engine import Fight, pending
from sftactics.encounter.events import replay
from sftactics.encounter.runner import auto_play
from sftactics.sf1e import stats
from tests.builders import npc, pc
from tests.encounter.helpers import combatant, encounter

MAP = "\n".join(["." * 8] * 6)


def party_vs_aliens() -> object:
    return encounter(
        combatant("Tess", "party", position=(0, 0)),
        combatant("Bo", "party", pc(name="Bo"), position=(0, 2)),
        combatant("Ksarik", "aliens", position=(6, 1)),
        combatant("Grub", "aliens", npc(name="Grub", hp=8), position=(7, 4)),
        map=MAP,
    )


def test_the_event_log_replays_to_the_same_state_byte_for_byte() -> None:
    f = Fight.seeded(party_vs_aliens(), 4)
    auto_play(f)
    assert f.state.result is not None
    again = replay(f.start, f.all_events())
    assert again.model_dump_json() == f.state.model_dump_json()


def test_the_same_seed_and_commands_give_the_same_fight() -> None:
    a = auto_play(Fight.seeded(party_vs_aliens(), 9))
    b = Fight.seeded(party_vs_aliens(), 9)
    for cmd in a.commands:
        b.do(cmd)
    assert a.state.model_dump_json() == b.state.model_dump_json()


def test_undo_takes_back_the_last_command_and_redo_rolls_the_same_dice() -> None:
    f = Fight.seeded(party_vs_aliens(), 2)
    f.do(Begin())
    who = pending(f.state)
    assert who is not None
    before = f.state.model_dump_json()
    foe = "Ksarik" if who in ("Tess", "Bo") else "Tess"
    try:
        first = f.do(Attack(actor=who, target=foe))
    except RuleViolation:
        first = f.do(EndTurn(actor=who))
    after = f.state.model_dump_json()
    cmd = f.undo()
    assert f.state.model_dump_json() == before
    f.do(cmd)
    assert f.state.model_dump_json() == after
    assert [e.type for e in f.events[-1]] == [e.type for e in first]


def test_nothing_to_undo() -> None:
    with pytest.raises(SftError, match="nothing to undo"):
        Fight.seeded(party_vs_aliens(), 1).undo()


def test_a_refused_command_consumes_no_dice() -> None:
    f = Fight.seeded(party_vs_aliens(), 5)
    f.do(Begin())
    used = len(f.dice.history)
    who = pending(f.state)
    other = next(c for c in f.state.combatants if c != who)
    with pytest.raises(RuleViolation):
        f.do(Attack(actor=other, target=who or ""))
    assert len(f.dice.history) == used


def test_save_and_resume(tmp_path: Path) -> None:
    f = Fight.seeded(party_vs_aliens(), 8)
    f.do(Begin())
    for _ in range(3):
        who = pending(f.state)
        f.do(EndTurn(actor=who or ""))
    log = tmp_path / "fight.jsonl"
    f.save(log)
    g = Fight.load(log)
    assert g.state.model_dump_json() == f.state.model_dump_json()
    # the resumed fight continues with the same dice stream
    auto_play(f)
    auto_play(g)
    assert g.state.model_dump_json() == f.state.model_dump_json()


def test_a_corrupt_log_names_the_file_and_line(tmp_path: Path) -> None:
    f = Fight.seeded(party_vs_aliens(), 8)
    f.do(Begin())
    log = tmp_path / "fight.jsonl"
    f.save(log)
    text = log.read_text().splitlines()
    log.write_text("\n".join([*text, '{"command": {"type": "teleport"}}']) + "\n")
    with pytest.raises(FileFormatError) as e:
        Fight.load(log)
    assert e.value.field == f"line {len(text) + 1}"


# ---------------------------------------------------------------- invariants under random commands
NAMES = ["Tess", "Bo", "Ksarik", "Grub", "Nobody"]
command_st = st.one_of(
    st.builds(lambda a, t: {"type": "attack", "actor": a, "target": t}, st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.builds(
        lambda a, t: {"type": "full_attack", "actor": a, "target": t}, st.sampled_from(NAMES), st.sampled_from(NAMES)
    ),
    st.builds(
        lambda a, x, y: {"type": "move", "actor": a, "to": [x, y]},
        st.sampled_from(NAMES),
        st.integers(-1, 8),
        st.integers(-1, 6),
    ),
    st.builds(lambda a: {"type": "end_turn", "actor": a}, st.sampled_from(NAMES)),
    st.builds(
        lambda a, x, y: {"type": "run", "actor": a, "to": [x, y]},
        st.sampled_from(NAMES),
        st.integers(0, 7),
        st.integers(0, 5),
    ),
    st.builds(
        lambda a, x, y: {"type": "withdraw", "actor": a, "to": [x, y]},
        st.sampled_from(NAMES),
        st.integers(0, 7),
        st.integers(0, 5),
    ),
    st.builds(lambda a, t: {"type": "charge", "actor": a, "target": t}, st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.builds(
        lambda a, x, y: {"type": "guarded_step", "actor": a, "to": [x, y]},
        st.sampled_from(NAMES),
        st.integers(0, 7),
        st.integers(0, 5),
    ),
    st.builds(lambda a: {"type": "total_defense", "actor": a}, st.sampled_from(NAMES)),
    st.builds(lambda a: {"type": "drop_prone", "actor": a}, st.sampled_from(NAMES)),
    st.builds(lambda a: {"type": "stand_up", "actor": a}, st.sampled_from(NAMES)),
    st.builds(lambda a: {"type": "delay", "actor": a}, st.sampled_from(NAMES)),
    st.builds(lambda a: {"type": "resume", "actor": a}, st.sampled_from(NAMES)),
    st.builds(lambda a: {"type": "stabilize", "actor": a}, st.sampled_from(NAMES)),
    st.builds(lambda t, n: {"type": "damage", "target": t, "amount": n}, st.sampled_from(NAMES), st.integers(0, 40)),
)


@pytest.mark.rule("CF-12", "ACT-02", "DMG-07", "INJ-19", "ACT-35")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.lists(command_st, max_size=40))
def test_random_commands_never_break_an_invariant(seed: int, commands: list[dict[str, object]]) -> None:
    f = Fight(party_vs_aliens(), SeededDice(seed))
    f.do(Begin())
    for raw in commands:
        before = f.state
        turn = before.timeline.turn
        try:
            events = f.do(parse_command(raw))
        except SftError:
            assert f.state is before  # refused: nothing changed
            continue
        actor = raw.get("actor")
        if raw["type"] not in ("damage", "resume") and turn is not None and actor != turn:
            # only the combatant whose turn it is may act (between turns the next one may start its turn)
            raise AssertionError(f"{actor} acted during {turn}'s turn: {events}")
        for c in f.state.combatants.values():
            st_ = c.creature.state
            assert 0 <= st_.hp <= stats.max_hp(c.creature).total
            assert 0 <= st_.sp <= c.creature.stat.sp
            assert st_.rp >= 0
            assert len(c.spent) <= 3 and not ("full" in c.spent and len(c.spent) > 1)
            # never farther than the speed allows for the actions spent (a full action: at most 4x, running)
            speed = stats.speed(c.creature).total
            allowance = 4 * speed if "full" in c.spent else speed * sum(1 for x in c.spent if x in ("move", "standard"))
            assert c.moved_ft <= max(allowance, 5)
        if f.state.result is not None:
            break
    assert replay(f.start, f.all_events()).model_dump_json() == f.state.model_dump_json()


@pytest.mark.rule("ACT-71")
def test_auto_play_brings_a_delayer_back_in() -> None:
    f = Fight.seeded(party_vs_aliens(), 3)
    f.do(Begin())
    who = pending(f.state)
    f.do({"type": "delay", "actor": who})
    auto_play(f)
    assert f.state.result is not None
    resumed = [c for c in f.commands if c.type == "resume"]
    assert resumed and resumed[0].actor == who  # type: ignore[union-attr]


def test_a_refused_command_gives_its_scripted_dice_back() -> None:
    from sftactics.dice.source import ScriptedDice
    from tests.encounter.helpers import fight as scripted_fight

    f = scripted_fight(party_vs_aliens(), [5, 6])  # four initiative rolls are needed: it runs out part-way
    with pytest.raises(SftError, match="ran out"):
        f.do(Begin())
    assert isinstance(f.dice, ScriptedDice) and f.dice.remaining == 2 and f.dice.history == []
    assert f.state.timeline.phase == "setup"
