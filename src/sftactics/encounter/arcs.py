"""Where an Arc critical effect leaps (ATK-15; XREF CRB p. 182).

The arc's damage goes to one more creature: the one nearest the original target, if it is within 10 feet of
it (grid distance between the two spaces, diagonals counted 5-10-5). Among equally near creatures the attacker
chooses (``Attack.arc_to``); without a choice the engine picks for it: a creature not on the attacker's side
first (the attacker's enemies), then the first by id. Dead creatures are objects, not creatures: the arc
passes them by. The attacker itself is never chosen unless ``options.arc_can_strike_attacker`` says so.
"""

from __future__ import annotations

from sftactics.core.errors import RuleViolation
from sftactics.encounter import space
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid import geometry
from sftactics.sf1e import criticals
from sftactics.sf1e.statblock import Weapon

#: How far from the original target the arc reaches.
ARC_REACH_FT = 10


def leaps(weapon: Weapon) -> bool:
    """Whether the weapon's critical effect is an Arc with an amount of damage."""
    eff = criticals.parse_critical(weapon.critical) if weapon.critical else None
    return eff is not None and eff.name == "arc" and bool(eff.amount)


def nearest(state: Encounter, attacker_id: str, target_id: str) -> list[Combatant]:
    """The creatures an arc from ``target_id`` may leap to: every one at the least distance from the target,
    within 10 ft (empty when there is none)."""
    fp_t = space.footprint(state.get(target_id))
    if fp_t is None:
        return []
    found: list[tuple[int, Combatant]] = []
    for c in state.combatants.values():
        if c.id == target_id or c.creature.has("dead"):
            continue
        if c.id == attacker_id and not state.options.arc_can_strike_attacker:
            continue
        fp = space.footprint(c)
        if fp is None:
            continue
        dist = geometry.footprint_distance_ft(fp_t, fp)
        if dist <= ARC_REACH_FT:
            found.append((dist, c))
    if not found:
        return []
    least = min(d for d, _ in found)
    return [c for d, c in found if d == least]


def check_choice(state: Encounter, attacker_id: str, target_id: str, chosen: str) -> None:
    """Refuse an ``arc_to`` that is not one of the nearest creatures within 10 ft of the target (ATK-15)."""
    near = nearest(state, attacker_id, target_id)
    if chosen not in {c.id for c in near}:
        names = ", ".join(c.id for c in near) or "no one"
        raise RuleViolation("ATK-15", f"an arc from {target_id} leaps to the nearest creature within "
                            f"{ARC_REACH_FT} ft ({names}), not {chosen}")  # fmt: skip


def secondary(state: Encounter, attacker_id: str, target_id: str, chosen: str | None = None) -> Combatant | None:
    """The creature the arc leaps to: ``chosen`` when it is one of the nearest, else the engine's pick (an
    enemy of the attacker first, then the first by id); None when no creature is within 10 ft."""
    near = nearest(state, attacker_id, target_id)
    if not near:
        return None
    for c in near:
        if c.id == chosen:
            return c
    side = state.get(attacker_id).side
    return min(near, key=lambda c: (c.side == side, c.id))
