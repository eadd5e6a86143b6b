"""The conformance runner itself: a wrong expectation, a wrong die label or a wrong refusal must fail."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conformance.runner import Case, CaseError, check_shape, load_cases, run_case

BRUTE: dict[str, Any] = {
    "name": "Brute", "kind": "npc", "cr": "2", "abilities": {"str": 3, "dex": 1}, "eac": 13, "kac": 15,
    "saves": {"fort": 4, "ref": 2, "will": 1}, "initiative": 1, "hp": 25,
    "weapons": [{"name": "club", "category": "basic_melee", "damage": "1d6+3 B", "attack_bonus": 8}],
}  # fmt: skip
SETUP = {
    "map": ".....\n",
    "combatants": [
        {"id": "A", "side": "x", "statblock": "brute", "at": [1, 0], "initiative": 20},
        {"id": "B", "side": "y", "statblock": "brute", "at": [2, 0], "initiative": 10},
    ],
}


def case(steps: list[dict[str, Any]]) -> Case:
    body = {"name": "t", "rules": ["ATK-01"], "ruling": "r", "setup": SETUP, "steps": steps}
    return Case("t", "t.yaml", ("ATK-01",), "r", body, {"brute": BRUTE})


ATTACK = {"type": "attack", "actor": "A", "target": "B", "weapon": "club"}


@pytest.mark.rule("ATK-01")
def test_right_expectation_passes() -> None:
    run_case(case([{"do": {"type": "begin"}}, {"do": ATTACK, "dice": ["7 A attack", "4 A damage"],
                                                "expect": {"B": {"hp": 18}}}]))  # fmt: skip


@pytest.mark.parametrize(
    "step",
    [
        {"do": ATTACK, "dice": ["7 A attack", "4 A damage"], "expect": {"B": {"hp": 19}}},  # wrong number
        {"do": ATTACK, "dice": ["7 A damage", "4 A attack"], "expect": {"B": {"hp": 18}}},  # labels swapped
        {"do": ATTACK, "dice": ["7 A attack", "4 A damage", "3 spare"]},  # a die the engine never rolls
        {"do": ATTACK, "refused": "ATK-09"},  # not refused
        {
            "do": ATTACK,
            "dice": ["7 A attack", "4 A damage"],
            "expect": {"events": [{"type": "attack_made", "hit": False}]},
        },
    ],
)
def test_wrong_expectation_fails(step: dict[str, Any]) -> None:
    with pytest.raises(CaseError):
        run_case(case([{"do": {"type": "begin"}}, step]))


def test_refusal_naming_another_rule_fails() -> None:
    far = {**SETUP, "combatants": [SETUP["combatants"][0], {**SETUP["combatants"][1], "at": [4, 0]}]}
    c = case([{"do": {"type": "begin"}}, {"do": ATTACK, "refused": "ATK-01"}])
    c.body["setup"] = far
    with pytest.raises(CaseError, match="ATK-09"):
        run_case(c)


@pytest.mark.parametrize(
    "raw",
    [
        {"name": "t", "rules": ["ATK-01"], "ruling": "r", "steps": [{"do": {}, "expcet": {}}]},  # typo
        {"name": "t", "rules": ["ATK-01"], "ruling": "r", "steps": [{"do": {}}]},  # checks nothing
        {"name": "t", "rules": ["attack"], "ruling": "r", "steps": [{"do": {}, "expect": {}}]},  # not a rule ID
        {"name": "t", "rules": ["ATK-01"], "steps": [{"do": {}, "expect": {}}]},  # no ruling
    ],
)
def test_malformed_case_rejected(raw: dict[str, Any]) -> None:
    with pytest.raises(CaseError):
        check_shape(raw, "t")


def test_the_example_in_the_docs_runs(tmp_path: Path) -> None:
    """docs/conformance.md's complete example is a working case file."""
    text = (Path(__file__).parents[2] / "docs" / "conformance.md").read_text(encoding="utf-8")
    block = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "example.yaml").write_text(block, encoding="utf-8")
    cases = load_cases(tmp_path)
    assert [c.name for c in cases] == ["attack-total-equal-to-kac-hits"]
    run_case(cases[0])
