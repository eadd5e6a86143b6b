"""What positions give an attack, for decisions: :func:`sftactics.encounter.space.attack_geometry` without the
explanations.

The engine's ``attack_geometry`` asks the grid for cover *with* the explanation of every line (which traces the
chosen lines again); a policy weighing dozens of hypothetical attacks per turn needs only the numbers. This is
the same computation (reach, range and range penalty, cover, concealment, flanking), in the same order, with
``explain=False`` for cover and without notes; ``tests/sim/test_geometry.py`` checks that its terms and miss
chance equal the engine's on many positions. (The engine could take an ``explain`` flag instead: see
``docs/simulation.md``.)
"""

from __future__ import annotations

from sftactics.core.breakdown import Term
from sftactics.core.errors import RuleViolation
from sftactics.encounter import space
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid import geometry
from sftactics.grid.concealment import concealment
from sftactics.grid.cover import CoverKind, cover
from sftactics.grid.flanking import flanking
from sftactics.sf1e.statblock import Weapon


def attack_geometry(state: Encounter, attacker: Combatant, target: Combatant, weapon: Weapon) -> space.Geometry:
    """The attack and AC terms and the miss chance the positions give; RuleViolation when impossible."""
    fa, fb = space.footprint(attacker), space.footprint(target)
    if fa is None or fb is None:
        return space.Geometry()
    attack_terms: list[Term] = []
    ac_terms: list[Term] = []
    melee = weapon.is_melee and not weapon.thrown
    if melee:
        if not space.in_reach(attacker, target, weapon):
            raise RuleViolation("ATK-09", "out of reach")
    else:
        dist = geometry.footprint_distance_ft(fa, fb)
        thrown = weapon.thrown or weapon.is_grenade
        rc = geometry.check_range(dist, max(weapon.range_ft, 5), thrown=thrown, max_increments=weapon.max_increments)
        if not rc.in_range:
            raise RuleViolation("ATK-11", "out of range")
        attack_terms += list(rc.terms)
    grid = state.grid
    miss = 0
    if grid is not None:
        cv = cover(grid, fa, fb, ranged=not melee, creatures=space.others(state, attacker.id, target.id), explain=False)
        if cv.kind is CoverKind.TOTAL:
            raise RuleViolation("MOD-14", "total cover")
        ac_terms += list(cv.ac_terms)
        senses = attacker.creature.stat.senses
        cc = concealment(
            grid,
            fa,
            fb,
            melee=melee,
            low_light_vision="low-light vision" in senses,
            darkvision="darkvision" in senses,
            blindsight="blindsight" in senses,
        )
        miss = cc.miss_chance
    if melee:
        me = space.body(state, attacker, weapon)
        partners = [
            b
            for c in state.combatants.values()
            if c.id not in (attacker.id, target.id) and not c.out_of_fight and c.side != target.side
            for b in [space.body(state, c)]
            if b is not None
        ]
        if me is not None and partners:
            fl = flanking(me, fb, partners, target_side=target.side, grid=grid)
            if fl.flanked:
                attack_terms += list(fl.terms)
    return space.Geometry(tuple(attack_terms), tuple(ac_terms), (), miss, "")
