"""Cover imposed by the GM in the compiled kernel (``kernel.setup.with_imposed``) against the engine's
``space.attack_geometry``, square by square.

The GM's cover counts when it beats the map's (a larger AC bonus; total cover always, MOD-12..14), but it never
opens a line of effect the walls close: behind a pillar a creature keeps the map's total cover whatever cover the
GM gives it (the engine refuses the attack before it looks at the GM's). Each case puts the combatants on open
squares of a deck with pillars and compares what the kernel adds up for one attack with what the engine does;
then whole fights on that deck, same dice, same fight, with both policies (a charge whose attack the GM's total
cover would refuse is refused whole, ACT-50).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from sftactics.core.errors import RuleViolation
from sftactics.encounter import space
from sftactics.encounter.state import Encounter
from sftactics.io.scenario import ScenarioFile, build_encounter
from sftactics.sf1e import stats
from sftactics.sf1e.attack import Situation, attack_terms_against, target_ac
from sftactics.sim.choices import without_specials
from sftactics.sim.kernel import fight as kf
from sftactics.sim.kernel import geo
from sftactics.sim.kernel.run import compiled
from tests.sim.test_kernel import FIGHTS, _open_squares, assert_same_fight, scripts
from tests.sim.test_kernel_setup import _seeded_script

Square = tuple[int, int]

# Pillars two squares tall: a creature right behind one has total cover from a foe on the far side.
PILLARS = """\
################
#..............#
#....#....#....#
#....#....#....#
#..............#
#....#....#....#
#..............#
################
"""


@cache
def covered_deck() -> Encounter:
    """Two against three; the GM gives the first skip tracer partial cover against everyone, the second improved
    cover against the soldier, the soldier cover against the first skip tracer, and the goblin total cover
    against the envoy."""
    data: dict[str, Any] = {
        "name": "covered-deck",
        "map": PILLARS,
        "combatants": [
            {"id": "Krask", "side": "party", "statblock": "pregen-soldier-2", "at": [3, 4]},
            {"id": "Vela", "side": "party", "statblock": "pregen-envoy-2", "at": [2, 1]},
            {"id": "Tracer 1", "side": "gang", "statblock": "skip-tracer", "at": [12, 4]},
            {"id": "Tracer 2", "side": "gang", "statblock": "skip-tracer", "at": [12, 6]},
            {"id": "Goblin", "side": "gang", "statblock": "space-goblin", "at": [14, 1]},
        ],
        "cover": [
            {"target": "Tracer 1", "cover": "partial"},
            {"target": "Tracer 2", "cover": "improved", "against": ["Krask"]},
            {"target": "Krask", "cover": "cover", "against": ["Tracer 1"]},
            {"target": "Goblin", "cover": "total", "against": ["Vela"]},
        ],
    }
    return without_specials(build_encounter(ScenarioFile.model_validate(data), Path("covered-deck.yaml")))


@cache
def _probe() -> tuple[Any, Any, dict[str, Any]]:
    ready = compiled(covered_deck())
    m = ready.compiled.model
    state, arrays = kf.new_state(m.n, m.w_ok.shape[1], m.width * m.height, geo.cover_cache(m.map_id))
    return ready, state, arrays


def _kernel(attacker: str, target: str, k: int, placed: dict[str, Square]) -> tuple[bool, int, int]:
    ready, state, arrays = _probe()
    ids = ready.compiled.ids
    width = covered_deck().grid.width
    for cid, (x, y) in placed.items():
        arrays["pos"][ids.index(cid)] = y * width + x
    return kf._attack_numbers(ready.model, state, ids.index(attacker), k, ids.index(target))  # type: ignore[no-any-return]


def _engine(enc: Encounter, attacker: str, target: str, k: int, placed: dict[str, Square]) -> tuple[bool, int, int]:
    for cid, sq in placed.items():
        enc = enc.update(cid, position=sq)
    a, t = enc.get(attacker), enc.get(target)
    weapon = a.creature.stat.weapons[k]
    try:
        geometry = space.attack_geometry(enc, a, t, weapon)
    except RuleViolation:
        return False, 0, 0
    extra = [*geometry.attack_terms, *attack_terms_against(a.creature, t.creature, weapon, enc.options)]
    bonus = stats.attack_bonus(a.creature, weapon, extra=extra, options=enc.options).total
    ac = target_ac(a.creature, t.creature, weapon, Situation(ac_terms=geometry.ac_terms), enc.options)[2].total
    return True, bonus, ac


@st.composite
def layouts(draw: st.DrawFn) -> tuple[str, str, int, dict[str, Square]]:
    """An attacker, one of its foes, one of its weapons (not a grenade), and every combatant on an open square
    (often the two a few squares apart along a row, with a pillar likely between)."""
    enc = covered_deck()
    ids = list(enc.combatants)
    attacker = draw(st.sampled_from(ids))
    side = enc.get(attacker).side
    target = draw(st.sampled_from([c for c in ids if enc.get(c).side != side]))
    weapons = [k for k, w in enumerate(enc.get(attacker).creature.stat.weapons) if not w.is_grenade]
    k = draw(st.sampled_from(weapons))
    free = _open_squares(enc)
    placed: dict[str, Square] = {}
    if draw(st.booleans()):  # around a pillar: the same rows, either side of it
        y = draw(st.sampled_from([2, 3, 5]))
        pillar = draw(st.sampled_from([5, 10]))
        placed[attacker] = (draw(st.integers(pillar - 4, pillar - 1)), y)
        placed[target] = (draw(st.integers(pillar + 1, pillar + 4)), draw(st.sampled_from([y, 2, 3, 5])))
    for cid in ids:
        left = [sq for sq in free if sq not in placed.values()]
        if cid not in placed or placed[cid] not in left:
            placed[cid] = draw(st.sampled_from(left))
    return attacker, target, k, placed


@pytest.mark.rule("MOD-07", "MOD-08", "MOD-12", "MOD-13", "MOD-14")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=layouts())
def test_attack_numbers_with_imposed_cover_are_the_engines(case: tuple[str, str, int, dict[str, Square]]) -> None:
    attacker, target, k, placed = case
    expected = _engine(covered_deck(), attacker, target, k, placed)
    event("possible" if expected[0] else "refused")
    if not expected[0] and _engine(_uncovered(), attacker, target, k, placed)[0]:
        event("refused for the GM's total cover")
    assert _kernel(attacker, target, k, placed) == expected


def _uncovered() -> Encounter:
    enc = covered_deck()
    assert enc.setup is not None
    return enc.model_copy(update={"setup": enc.setup.model_copy(update={"cover": ()})})


@pytest.mark.rule("MOD-12", "MOD-14")
def test_the_gms_partial_cover_does_not_open_a_line_the_pillar_closes() -> None:
    # the soldier's laser rifle west of a pillar, the first skip tracer (partial cover against everyone) right
    # behind it: the map alone gives total cover, and so it stays
    rifle = 1
    assert covered_deck().get("Krask").creature.stat.weapons[rifle].name == "azimuth laser rifle"
    placed = {"Krask": (3, 2), "Vela": (2, 6), "Tracer 1": (7, 2), "Tracer 2": (12, 6), "Goblin": (14, 1)}
    assert _engine(_uncovered(), "Krask", "Tracer 1", rifle, placed) == (False, 0, 0)
    assert _engine(covered_deck(), "Krask", "Tracer 1", rifle, placed) == (False, 0, 0)
    assert _kernel("Krask", "Tracer 1", rifle, placed) == (False, 0, 0)
    # in the open the GM's partial cover counts: +2 AC where the map gives none
    placed = {**placed, "Krask": (1, 1), "Tracer 1": (4, 1)}
    bare = _engine(_uncovered(), "Krask", "Tracer 1", rifle, placed)
    covered = _engine(covered_deck(), "Krask", "Tracer 1", rifle, placed)
    assert bare[0] and covered == (True, bare[1], bare[2] + 2)
    assert _kernel("Krask", "Tracer 1", rifle, placed) == covered


# ---------------------------------------------------------------- whole fights on the covered deck
@pytest.mark.rule("MOD-09", "MOD-12", "MOD-13", "MOD-14")
@FIGHTS
@given(values=scripts())
def test_same_dice_same_fight_covered_deck(values: list[int]) -> None:
    assert_same_fight(covered_deck(), values)


@pytest.mark.rule("MOD-09", "MOD-12", "MOD-13", "MOD-14", "ACT-50")
@FIGHTS
@given(values=scripts())
def test_tactical_same_dice_same_fight_covered_deck(values: list[int]) -> None:
    assert_same_fight(covered_deck(), values, policy="tactical")


@pytest.mark.rule("MOD-14", "ACT-50")
def test_no_charge_at_a_foe_the_gm_covers_totally() -> None:
    """Round 1: the envoy's best plan is a charge at the goblin, whom the GM gives total cover against her. The
    engine refuses the charge whole (its attack at the end would be refused, MOD-14), so she plans again without
    one: a move and a grenade. The kernel once charged and arrived without attacking."""
    run = assert_same_fight(covered_deck(), _seeded_script(0), policy="tactical")
    vela = [c for c in run.fight.commands if getattr(c, "actor", None) == "Vela"]
    assert [c.type for c in vela[:3]] == ["move", "throw_grenade", "end_turn"]
