"""The verbs typed at the table (``sftactics.play.verbs``): one for every command, the words each reads, help."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from sftactics.encounter.commands import COMMAND_ADAPTER, UseAbility, parse_command
from sftactics.encounter.engine import Fight
from sftactics.io.scenario import load_scenario
from sftactics.play.grammar import Ctx, Usage
from sftactics.play.lineinput import PlayCompleter
from sftactics.play.verbs import (
    HAND_WRITTEN,
    MODELS,
    VERBS,
    help_overview,
    json_example,
    parse_line,
    verb_for,
    verb_named,
)
from sftactics.sf1e.statblock import Weapon
from tests.cli.test_play import scenario


@pytest.fixture
def duel(tmp_path: Path) -> Fight:
    """Krask (vesk soldier, at 1,1) against a ksarik (at 8,3) on a 10x5 room, Krask's turn."""
    fight = Fight.seeded(load_scenario(scenario(tmp_path, map=True)), 1)
    fight.do({"type": "begin"})
    return fight


def read(fight: Fight, line: str) -> dict[str, Any]:
    cmd = parse_line(Ctx(fight.state), line.split())
    assert cmd is not None
    return {"type": cmd.type, **cmd.model_dump(mode="json", exclude_defaults=True)}


def test_every_command_has_a_verb_with_help() -> None:
    """A command added to the models gets a verb read off its fields, so the table never falls behind."""
    assert set(MODELS) == set(COMMAND_ADAPTER.json_schema()["discriminator"]["mapping"])
    for kind in MODELS:
        verb = verb_for(kind)
        assert verb.kind == kind and verb.parse is not None
        assert verb.syntax and verb.example and f"command {kind}:" in verb.help_text()
        assert VERBS[kind].kind == kind  # the type name works as a verb too
    overview = help_overview()
    for v in HAND_WRITTEN:
        assert f"\n  {v.syntax[:30]}" in overview


def test_the_examples_of_the_verbs_read_off_the_models_parse(duel: Fight) -> None:
    for kind, verb in VERBS.items():
        if verb.parse is None or verb in HAND_WRITTEN or kind in ("join",):
            continue
        cmd = parse_line(Ctx(duel.state), verb.example.split())
        assert cmd is not None and cmd.type == kind, verb.example
        assert parse_command(json.loads(json_example(kind))).type == kind


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("attack ks with dosh nonlethal", {"type": "attack", "actor": "Krask", "target": "Ksarik",
                                           "weapon": "tactical doshko", "nonlethal": True}),
        ("full ksarik with azimuth then ksarik defensively",
         {"type": "full_attack", "actor": "Krask", "target": "Ksarik", "weapon": "azimuth laser pistol",
          "second_target": "Ksarik", "fight_defensively": True}),
        ("move 2,1 3,2", {"type": "move", "actor": "Krask", "path": [[2, 1], [3, 2]]}),
        ("step 2,2", {"type": "guarded_step", "actor": "Krask", "to": [2, 2]}),
        ("guarded step 2,2", {"type": "guarded_step", "actor": "Krask", "to": [2, 2]}),
        ("run 5,1", {"type": "run", "actor": "Krask", "to": [5, 1]}),
        ("withdraw 1,2", {"type": "withdraw", "actor": "Krask", "to": [1, 2]}),
        ("charge ksarik from 7,3", {"type": "charge", "actor": "Krask", "target": "Ksarik", "to": [7, 3]}),
        ("minimum 2,1", {"type": "minimum_move", "actor": "Krask", "to": [2, 1]}),
        ("reload semi", {"type": "reload", "actor": "Krask", "weapon": "tactical semi-auto pistol"}),
        ("trip ksarik", {"type": "maneuver", "actor": "Krask", "target": "Ksarik", "kind": "trip"}),
        ("maneuver reposition ksarik to 7,2 full drag 6,2",
         {"type": "maneuver", "actor": "Krask", "target": "Ksarik", "kind": "reposition", "to": [7, 2],
          "full_action": True, "drag_to": [6, 2]}),
        ("disarm ksarik item barb", {"type": "maneuver", "actor": "Krask", "target": "Ksarik", "kind": "disarm",
                                     "item": "barb"}),
        ("cover krask with azimuth", {"type": "covering_fire", "actor": "Krask", "ally": "Krask",
                                      "weapon": "azimuth laser pistol"}),
        ("harry ksarik", {"type": "harrying_fire", "actor": "Krask", "target": "Ksarik"}),
        ("feint ksarik 9", {"type": "feint", "actor": "Krask", "target": "Ksarik", "bluff": 9}),
        ("aid krask 4", {"type": "first_aid", "actor": "Krask", "target": "Krask", "bonus": 4}),
        ("cdg ksarik", {"type": "coup_de_grace", "actor": "Krask", "target": "Ksarik"}),
        ("escape acrobatics 20", {"type": "escape", "actor": "Krask", "method": "acrobatics", "dc": 20}),
        ("use fire blast on ksarik save ref 13 half damage 2d6 F action move kind Sp",
         {"type": "use_ability", "actor": "Krask", "name": "fire blast", "target": "Ksarik", "action": "move",
          "kind": "Sp", "save": {"type": "ref", "dc": 13}, "damage": "2d6 F"}),
        ("use spray cone 15 at 2,1 dir e attack eac +6 range 30",
         {"type": "use_ability", "actor": "Krask", "name": "spray",
          "area": {"shape": "cone", "size_ft": 15, "at": [2, 1], "direction": "E"},
          "attack": {"bonus": 6, "range_ft": 30}}),
        ("ready attack ksarik when enters watch ksarik",
         {"type": "ready", "actor": "Krask", "trigger": "enters_reach", "watch": "Ksarik",
          "action": {"type": "attack", "actor": "Krask", "target": "Ksarik"}}),
        ("defend", {"type": "total_defense", "actor": "Krask"}),
        ("search", {"type": "search", "actor": "Krask"}),
        ("damage ksarik 2d6 F nonlethal", {"type": "damage", "target": "Ksarik", "roll": "2d6 F", "nonlethal": True}),
        ("cond krask shaken 2", {"type": "add_condition", "target": "Krask", "condition": "shaken", "rounds": 2}),
        ("join Gob aliens space-goblin at 5,2 init 12",
         {"type": "join", "id": "Gob", "side": "aliens", "statblock": "space-goblin", "at": [5, 2],
          "initiative": 12}),
        ("ability_damage ksarik dex 2 kind=drain",
         {"type": "ability_damage", "target": "Ksarik", "ability": "dex", "points": 2, "kind": "drain"}),
        ("add_effect krask bless rounds=3 modifiers=[{\"selector\":\"attack\",\"value\":1}]",
         {"type": "add_effect", "target": "Krask", "name": "bless", "rounds": 3,
          "modifiers": [{"selector": "attack", "value": 1}]}),
        ("willing actor=ksarik toward=krask", {"type": "willing", "actor": "Ksarik", "toward": "Krask"}),
        ("rest krask night interrupted", {"type": "rest", "target": "Krask", "kind": "night", "interrupted": True}),
        ("area_effect burst 10 at 5,2 name=vent save=ref:13:half damage=2d6",
         {"type": "area_effect", "area": {"shape": "burst", "size_ft": 10, "at": [5, 2]}, "name": "vent",
          "save": {"type": "ref", "dc": 13}, "damage": "2d6"}),
        ("check krask 12 str action=move what=lift",
         {"type": "check", "target": "Krask", "dc": 12, "ability": "str", "action": "move", "what": "lift"}),
        ("impose_cover krask improved against=ksar rounds=2",
         {"type": "impose_cover", "target": "Krask", "cover": "improved", "against": ["Ksarik"], "rounds": 2}),
    ],
)  # fmt: skip
def test_short_verbs_make_the_commands(duel: Fight, line: str, expected: dict[str, Any]) -> None:
    assert read(duel, line) == expected


def test_a_grenade_with_one_kind_carried_needs_no_name(duel: Fight) -> None:
    with pytest.raises(Usage, match="Krask carries none"):
        read(duel, "grenade at 5,3")
    frag = {"name": "frag grenade I", "category": "grenade", "damage": "1d6 P", "range_ft": 20,
            "area": {"shape": "burst", "size_ft": 15, "save": "ref", "on_save": "half", "dc": 12}}  # fmt: skip
    krask = duel.state.get("Krask")
    weapons = (*krask.creature.stat.weapons, Weapon.model_validate(frag))
    stat = krask.creature.stat.model_copy(update={"weapons": weapons})
    duel.state = duel.state.update("Krask", creature=krask.creature.model_copy(update={"stat": stat}))
    assert read(duel, "grenade at 5,3") == {"type": "throw_grenade", "actor": "Krask", "weapon": "frag grenade I",
                                            "at": [5, 3]}  # fmt: skip
    assert read(duel, "grenade frag 5,3")["weapon"] == "frag grenade I"


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("step", "Usage: step X,Y"),
        ("step here", "'here' is not a square"),
        ("trip", "Who is the target?"),
        ("maneuver", "KIND: bull_rush, dirty_trick"),
        ("use", "Which ability?"),
        ("use zap save ref", "save needs a kind and a DC"),
        ("ready", "Ready what?"),
        ("ready undo", "'undo' is not an action to ready"),
        ("ability_damage krask", "ability is missing"),
        ("ability_damage krask str two", "'two' is not a whole number"),
        ("rest krask kind=nap", "No kind named 'nap'"),
        ("willing willing=maybe", "willing is yes or no"),
        ("add_effect krask x modifiers=[", "modifiers is written as JSON"),
        ("resume", "Nobody is delaying."),
    ],
)
def test_malformed_verbs_say_how_to_write_them(duel: Fight, line: str, words: str) -> None:
    with pytest.raises(Usage) as e:
        read(duel, line)
    assert words in str(e.value)


def test_help_for_a_verb_shows_its_syntax_and_an_example() -> None:
    grenade = verb_named("grenade")
    assert grenade is not None
    text = grenade.help_text()
    assert text.splitlines()[0] == "grenade [WEAPON] at X,Y"
    assert "e.g. grenade frag at 9,5" in text and '"type": "throw_grenade"' in text
    assert "command throw_grenade: Throw a grenade" in text and "``" not in text
    for verb in VERBS.values():
        assert all(len(line) <= 80 for line in verb.help_text().splitlines()), verb.name
    assert verb_named("guarded") is verb_named("step")


def completions(fight: Fight, text: str) -> list[str]:
    completer = PlayCompleter(lambda: fight.state)
    return [c.text for c in completer.get_completions(Document(text), CompleteEvent(completion_requested=True))]


def test_completion_of_verbs_names_weapons_and_squares(duel: Fight) -> None:
    assert completions(duel, "gre") == ["grenade"]
    assert {"attack", "ability_damage", "aid", "again", "auto", "add_condition"} <= set(completions(duel, "a"))
    assert completions(duel, "attack ks") == ["Ksarik"]
    assert completions(duel, "attack ksarik with ") == ["tactical doshko", "tactical semi-auto pistol",
                                                        "azimuth laser pistol"]  # fmt: skip
    assert completions(duel, "attack ksarik with az") == ["azimuth laser pistol"]
    assert "with" in completions(duel, "attack ksarik ")
    moves = completions(duel, "move ")
    assert "2,1" in moves and "1,1" in moves  # a square it can reach, and where Krask stands
    assert completions(duel, "step 2,") == ["2,1", "2,2", "2,3"]
    assert completions(duel, "rest krask kind=n") == ["kind=night"]
    assert completions(duel, "ready att") == ["attack"]
    assert completions(duel, "ready attack k") == ["Krask", "Ksarik"]
    assert completions(duel, "ready attack ksarik when en") == ["enemy_attacks", "enters_reach"]
    assert completions(duel, "help gren") == ["grenade"]
    assert completions(duel, "cond krask sha") == ["shaken"]
    assert completions(duel, "nonsense ") == []
    assert completions(duel, "map mo") == ["monsters"]


def test_docs_play_lists_every_hand_written_verb_with_its_example() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "play.md").read_text(encoding="utf-8")
    from sftactics.play.verbs import SESSION_VERBS

    for v in (*HAND_WRITTEN, *SESSION_VERBS):
        assert f"| `{v.syntax.replace('|', chr(92) + '|')}` | `{v.example}` |" in doc, v.name
    assert all(len(line) <= 80 for line in help_overview().splitlines())


def test_a_new_command_named_like_a_session_verb_still_gets_a_verb(monkeypatch: pytest.MonkeyPatch) -> None:
    from typing import Literal

    from pydantic import BaseModel

    from sftactics.play import verbs

    class MapCommand(BaseModel):
        """Someone's new command that happens to be called map."""

        type: Literal["map"] = "map"
        target: str

    monkeypatch.setitem(verbs.MODELS, "map", MapCommand)
    table = verbs._build()
    assert table["map"].kind is None  # the session's map stays
    assert table["map_command"].kind == "map" and table["map_command"].syntax == "map_command TARGET"


def test_a_line_keeps_json_values_whole_and_quoted_names_together(duel: Fight) -> None:
    from sftactics.play.grammar import split_line

    line = 'add_effect krask "bless me" rounds=3 modifiers=[{"selector": "attack", "value": 1, "when": ["a ]b"]}]'
    words = split_line(line)
    assert words == ["add_effect", "krask", "bless me", "rounds=3",
                     'modifiers=[{"selector": "attack", "value": 1, "when": ["a ]b"]}]']  # fmt: skip
    cmd = parse_line(Ctx(duel.state), words)
    assert cmd is not None and cmd.model_dump(mode="json")["modifiers"][0]["when"] == ["a ]b"]
    with pytest.raises(ValueError, match="No closing quotation"):
        split_line('attack "ksarik')


@pytest.mark.rule("X-04")
def test_use_takes_a_stat_block_ability_with_its_numbers() -> None:
    enc = load_scenario(Path(__file__).resolve().parents[2] / "scenarios" / "firefight-cover.yaml")
    trick = parse_line(Ctx(enc, "Nyx"), ["use", "trick", "attack", "on", "EMT", "with", "sonic", "to", "3,4"])
    assert isinstance(trick, UseAbility) and trick.rider is not None
    assert trick.weapon == "thunderstrike sonic pistol"
    assert trick.to == (3, 4) and trick.action == "full"
    get_em = parse_line(Ctx(enc, "Vela"), ["use", "get", "'em", "on", "EMT"])
    assert isinstance(get_em, UseAbility) and get_em.mark is not None and get_em.range_ft == 60
    inline = parse_line(
        Ctx(enc, "Sorin"), ["use", "fire", "blast", "on", "EMT", "save", "ref", "13", "half", "damage", "2d6", "F"]
    )
    assert isinstance(inline, UseAbility) and inline.rider is None and inline.damage == "2d6 F"
