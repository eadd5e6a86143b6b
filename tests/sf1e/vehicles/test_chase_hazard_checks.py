"""A hazard's attack roll comes back in the step's checks (as data), after the pilot's own check."""

import pytest

from sftactics.dice.source import ScriptedDice
from sftactics.sf1e.vehicles.chase import PilotAction, Progress, step
from sftactics.sf1e.vehicles.environment import Environment, Hazard, Zone
from tests.sf1e.vehicles.chase_helpers import chase_of, entry


@pytest.mark.rule("CHS-19", "CHS-30", "CHS-12")
def test_hazard_attack_rolls_are_in_the_checks() -> None:
    env = Environment(zones={1: Zone(hazards=(Hazard(name="traffic", cr="2"),))})
    c = chase_of(entry("a", "A"), entry("b", "B"), env=env)
    # a speeds up (15 + 5 + 2 = 22 vs 18) into zone 1: traffic attacks, 4 + 9 = 13 vs KAC 12, 5d4 of 1s
    s = step(c, PilotAction("a", "speed_up"), ScriptedDice([15, 4, 1, 1, 1, 1, 1]))
    assert [(x.natural, x.total, x.dc) for x in s.checks] == [(15, 22, 18), (4, 13, 12)]
    assert [(t.value, t.rule) for t in s.checks[1].bonus.applied] == [(9, "CHS-30")]
    # b keeps pace into zone 1 in chase progress (the speeding a is still there): the attack is progress's check
    s2 = step(s.chase, PilotAction("b", "keep_pace"), ScriptedDice([10]))
    s3 = step(s2.chase, Progress(), ScriptedDice([2]))
    assert [x.natural for x in s3.checks] == [2]
