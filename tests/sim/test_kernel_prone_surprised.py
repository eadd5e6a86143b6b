"""The kernel's prone tables and its surprised (flat-footed) tables combine by adding the flat-footed difference
(``kernel.bodies.base_numbers``): true because the engine stacks the two conditions' penalties (different
sources, BON-*). This checks that on the engine's own numbers, so a change to stacking shows up here."""

from __future__ import annotations

import pytest

from sftactics.content import find_statblock
from sftactics.encounter.flow import SURPRISED
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats
from sftactics.sf1e.attack import attack_terms_against, target_ac
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.state import ConditionInstance, Creature

PAIRS = [("vesk-soldier", "ksarik"), ("pregen-operative-2", "space-goblin"), ("pregen-soldier-2", "pirate-lord")]


@pytest.mark.rule("CON-29", "CON-18", "CF-11")
@pytest.mark.parametrize(("attacker", "defender"), PAIRS)
def test_prone_and_flat_footed_add_up(attacker: str, defender: str) -> None:
    opts = Sf1eOptions()
    stat_a, stat_d = find_statblock(attacker), find_statblock(defender)
    assert stat_a is not None and stat_d is not None
    a, d = Creature.fresh(stat_a), Creature.fresh(stat_d)
    caught = cond.add_condition(d, ConditionInstance(name="flat-footed", source=SURPRISED))
    prone = cond.add_condition(d, ConditionInstance(name="prone"))
    both = cond.add_condition(prone, ConditionInstance(name="flat-footed", source=SURPRISED))
    for w in a.stat.weapons:
        if w.is_grenade:
            continue

        numbers = []
        for t in (d, caught, prone, both):
            extra = attack_terms_against(a, t, w, opts)
            numbers.append((stats.attack_bonus(a, w, extra=extra, options=opts).total,
                            target_ac(a, t, w, options=opts)[2].total))  # fmt: skip
        plain, ff, pr, together = numbers
        assert together == (pr[0] + ff[0] - plain[0], pr[1] + ff[1] - plain[1]), w.name
        assert ff[1] == plain[1] - 2  # flat-footed: -2 AC (CON-18)
