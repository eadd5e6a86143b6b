"""Generated reference documents: the stat-block JSON Schema and the ruleset options table.

Tests compare the files in ``docs/`` with these functions, so the docs cannot drift from the code; regenerate
them with ``sftactics schema statblock > docs/statblock.schema.json``,
``sftactics schema events > docs/events.schema.json`` and ``sftactics schema options > docs/options.md``
(``make docs`` does them all).
"""

from __future__ import annotations

import json

from sftactics.sf1e.conditions import CONDITIONS
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.statblock import StatBlock


def statblock_schema() -> str:
    return json.dumps(StatBlock.model_json_schema(), indent=2, sort_keys=True) + "\n"


def statblock2e_schema() -> str:
    """The 2E stat-block file's JSON Schema (docs/statblock2e.schema.json)."""
    from sftactics.sf2e.statblock import StatBlock2e

    return json.dumps(StatBlock2e.model_json_schema(), indent=2, sort_keys=True) + "\n"


def scenario2e_schema() -> str:
    """The 2E scenario file's JSON Schema (docs/scenario2e.schema.json)."""
    from sftactics.io.scenario2e import ScenarioFile2e

    return json.dumps(ScenarioFile2e.model_json_schema(), indent=2, sort_keys=True) + "\n"


def options_markdown() -> str:
    lines = [
        "# Ruleset options (1st edition)",
        "",
        "Where the rules are ambiguous, conflict between sources, or leave a call to the GM, the engine follows a",
        "named option. The defaults are the rules inventory's suggested defaults (§22) unless noted. Set options",
        "per encounter (scenario files) or in code with `Sf1eOptions(name=value)`.",
        "",
        "| option | default | what it decides |",
        "|---|---|---|",
    ]
    for name, field in Sf1eOptions.model_fields.items():
        default = json.dumps(field.default)
        desc = (field.description or "").replace("|", "\\|")
        lines.append(f"| `{name}` | `{default}` | {desc} |")
    return "\n".join(lines) + "\n"


def conditions_markdown() -> str:
    lines = [
        "# Conditions (1st edition)",
        "",
        "Every condition the engine knows, generated from `sftactics.sf1e.conditions.CONDITIONS`: what it does",
        "(the modifiers are applied to every derived number automatically) and how it ends.",
        "",
        "| condition | rule | effect | implies | ends |",
        "|---|---|---|---|---|",
    ]
    for d in CONDITIONS.values():
        implies = ", ".join(d.implies) or ""
        cells = [d.name, d.rule, d.summary, implies, d.ends]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


def scenario_schema() -> str:
    from sftactics.io.scenario import ScenarioFile

    return json.dumps(ScenarioFile.model_json_schema(), indent=2, sort_keys=True) + "\n"


def commands_markdown() -> str:
    """Every command of the encounter engine, its fields and what it does."""
    import typing

    from sftactics.encounter import commands as c
    from sftactics.play.verbs import verb_for

    union = typing.get_args(typing.get_args(c.Command)[0])
    lines = [
        "# Commands",
        "",
        "What a person, a command file or a policy can ask the engine to do. A command file is a YAML or JSON",
        "list of these mappings (`sftactics run SCENARIO --commands FILE`); the Python API takes the same models",
        "(`sftactics.encounter.commands`). Commands with an `actor` must come on that combatant's turn; the",
        "others are the GM's and may come at any time. A refused command changes nothing and names its rule.",
        "At the table (`sftactics play`, docs/play.md) each has a short verb, in the second column.",
        "",
        "| type | at the table | fields | what it does |",
        "|---|---|---|---|",
    ]
    for model in union:
        fields = []
        for name, f in model.model_fields.items():
            if name == "type":
                continue
            need = "" if f.is_required() else "?"
            fields.append(f"`{name}{need}`")
        doc = " ".join((model.__doc__ or "").split())
        type_name = model.model_fields["type"].default
        verb = verb_for(str(type_name)).syntax.replace("|", "\\|")
        lines.append(f"| `{type_name}` | `{verb}` | {', '.join(fields)} | {doc} |")
    lines += [
        "",
        "Example (`examples/commands/opening.yaml`):",
        "",
        "```yaml",
        "- {type: begin}",
        "- {type: attack, actor: Ksarik, target: Krask, weapon: tentacle}",
        "- {type: end_turn, actor: Ksarik}",
        "```",
    ]
    return "\n".join(lines) + "\n"


def events_schema() -> str:
    """The JSON Schema of one event of a fight's log (``run --json``'s ``events``, a saved log's lines)."""
    from sftactics.encounter.events import EVENT_ADAPTER

    schema = EVENT_ADAPTER.json_schema()
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "sftactics event",
        "description": "One event of a fight's log: what happened, with every number as data (docs/events.md).",
        **schema,
    }
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"
