"""Example stat blocks carry their species' senses (VIS-05, VIS-06, SEN-02): the vesk's low-light vision, the
ysoki's darkvision 60 ft and the ksarik's blindsense (scent) and low-light vision (Alien Archive), so that dim
light and darkness give the right miss chances in the demo."""

from __future__ import annotations

from pathlib import Path

import pytest

from sftactics.content import find_statblock
from sftactics.grid.map import Light
from sftactics.io.statblocks import load_statblock
from sftactics.sf1e.senses import parse_senses, vision_concealment
from sftactics.sf1e.statblock import StatBlock

ROOT = Path(__file__).parent.parent.parent


def _bundled(name: str) -> StatBlock:
    sb = find_statblock(name)
    assert sb is not None
    return sb


@pytest.mark.rule("VIS-06", "VIS-03")
def test_vesk_soldier_has_low_light_vision() -> None:
    for sb in (_bundled("vesk-soldier"), load_statblock(ROOT / "examples" / "statblocks" / "vesk-soldier.yaml")):
        senses = parse_senses(sb)
        assert senses.low_light_vision and not senses.darkvision_reaches(5)
        assert vision_concealment(Light.DIM, senses, distance_ft=30) == 0  # dim light is normal light to a vesk
        assert vision_concealment(Light.DARK, senses, distance_ft=30) == 50


@pytest.mark.rule("VIS-05", "VIS-03", "VIS-04")
def test_ysoki_operative_has_darkvision_60_ft() -> None:
    senses = parse_senses(_bundled("ysoki-operative"))
    assert vision_concealment(Light.DIM, senses, distance_ft=30) == 0
    assert vision_concealment(Light.DARK, senses, distance_ft=60) == 0
    assert vision_concealment(Light.DARK, senses, distance_ft=65) == 50  # beyond the darkvision's range


@pytest.mark.rule("VIS-03")
def test_human_and_lashunta_see_only_by_light() -> None:
    for name in ("human-envoy", "lashunta-mystic"):
        senses = parse_senses(_bundled(name))
        assert vision_concealment(Light.DIM, senses, distance_ft=30) == 20


@pytest.mark.rule("VIS-06", "SEN-02")
def test_ksarik_has_blindsense_and_low_light_vision() -> None:
    for sb in (_bundled("ksarik"), load_statblock(ROOT / "examples" / "statblocks" / "ksarik.yaml")):
        senses = parse_senses(sb)
        assert senses.low_light_vision and vision_concealment(Light.DIM, senses, distance_ft=10) == 0
        assert [(b.range_ft, str(b.mechanism)) for b in senses.blindsense] == [(30, "scent")]
