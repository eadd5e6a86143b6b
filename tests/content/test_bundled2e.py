"""The bundled 2E stat blocks load, and their derived numbers are the ones docs/sf2e.md justifies."""

from __future__ import annotations

import pytest

from sftactics.content.sf2e import bundled_statblocks2e, find_statblock2e
from sftactics.sf2e.attacks import attack_modifier
from sftactics.sf2e.defenses import armor_class


def test_every_bundled_2e_stat_block_loads_by_name_and_file_name() -> None:
    names = {sb.name for sb in bundled_statblocks2e().values()}
    assert names == {"2E soldier", "2E operative", "2E ksarik", "2E security robot", "2E void zombie"}
    assert find_statblock2e("pregen2e-soldier-3") is find_statblock2e("2e soldier")


@pytest.mark.rule("E2-05", "E2-10", "E2-11", "E2-15")
@pytest.mark.parametrize(
    ("name", "ac", "strike", "attack", "hp"),
    [("2e-soldier", 20, "plasma hammer", 11, 47), ("2e-operative", 20, "laser rifle", 11, 33),
     ("2e-ksarik", 16, "claw", 7, 24)],
)  # fmt: skip
def test_the_numbers_docs_sf2e_gives(name: str, ac: int, strike: str, attack: int, hp: int) -> None:
    sb = find_statblock2e(name)
    assert sb is not None
    c = sb.creature()
    assert armor_class(c).total == ac
    w = sb.strike(strike).weapon()
    assert attack_modifier(c, w, ranged=not w.melee).total == attack
    assert c.max_hp == hp == c.hp


@pytest.mark.rule("E2-21", "E2-23")
def test_the_construct_and_the_undead() -> None:
    robot, zombie = find_statblock2e("2e-security-robot"), find_statblock2e("2e-void-zombie")
    assert robot is not None and zombie is not None
    assert robot.creature().immune_to("death-effects") and robot.life == "neither"
    assert zombie.life == "undead" and zombie.weaknesses == {"vitality": 5}
