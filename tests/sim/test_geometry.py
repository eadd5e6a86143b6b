"""The attack geometry without explanations (what the policies use) has the same numbers as with them."""

from __future__ import annotations

import random

import pytest

from sftactics.core.errors import RuleViolation
from sftactics.encounter import space
from sftactics.sim.benchmark import benchmark_encounter


def test_same_terms_and_miss_chance_without_the_explanations() -> None:
    state = benchmark_encounter()
    grid = state.grid
    rng = random.Random(4)
    free = [(x, y) for y in range(grid.height) for x in range(grid.width) if not grid.features((x, y))]
    ids = list(state.combatants)
    checked = refused = 0
    for _ in range(300):
        spots = rng.sample(free, len(ids))
        s = state
        for cid, sq in zip(ids, spots, strict=True):
            s = s.update(cid, position=sq)
        a, t = rng.sample(ids, 2)
        attacker, target = s.get(a), s.get(t)
        for w in attacker.creature.stat.weapons:
            if w.is_grenade:
                continue
            try:
                want = space.attack_geometry(s, attacker, target, w)
            except RuleViolation as e:
                with pytest.raises(RuleViolation) as got:
                    space.attack_geometry(s, attacker, target, w, explain=False)
                assert got.value.rule == e.rule
                refused += 1
                continue
            have = space.attack_geometry(s, attacker, target, w, explain=False)
            assert (have.attack_terms, have.ac_terms, have.miss_chance) == (
                want.attack_terms,
                want.ac_terms,
                want.miss_chance,
            )
            checked += 1
    assert checked > 100 and refused > 10
