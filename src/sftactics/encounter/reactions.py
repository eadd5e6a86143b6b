"""Threat and attacks of opportunity (AOO-01..14, ACT-05, ACT-60, MOD-09).

Who threatens which square is :mod:`sftactics.encounter.threat` (the weapons that can make attacks of
opportunity, their reach, AOO-01..05). A combatant may take one attack of opportunity per round with its reaction
(ACT-05) against an enemy in a threatened square who leaves such a square other than by a guarded step or the
first square of a withdraw, makes a ranged attack, or uses an ability that provokes (AOO-06). The attack comes
before the action that provoked it (AOO-08). No attack of opportunity while flat-footed, in total defense,
grappled, pinned, staggered or otherwise unable to react, before having acted in the combat, or against a
creature that has cover from you (AOO-09, MOD-09). A combatant whose ``takes_aoo`` is False never takes them
(the GM's or a player's choice; the built-in policies always take them).
"""

from __future__ import annotations

from sftactics.encounter import budget, confusion, perception, space
from sftactics.encounter import threat as threat_
from sftactics.encounter.events import ActionSpent, Note
from sftactics.encounter.state import Combatant, Encounter
from sftactics.encounter.tx import Tx
from sftactics.grid.cover import CoverKind, can_make_attack_of_opportunity
from sftactics.sf1e import conditions as cond
from sftactics.sf1e.senses import Awareness
from sftactics.sf1e.statblock import Weapon

Square = tuple[int, int]


def melee_weapons(c: Combatant) -> list[Weapon]:
    """Weapons it can make melee attacks with (natural weapons included)."""
    return [w for w in c.creature.stat.weapons if w.is_melee and not w.is_grenade]


def threat(state: Encounter, c: Combatant) -> frozenset[Square]:
    """Every square ``c`` threatens: :func:`sftactics.encounter.threat.threatened_squares`."""
    return threat_.threatened_squares(state, c)


def can_take_aoo(state: Encounter, reactor: Combatant, provoker: Combatant) -> tuple[bool, str]:
    """Whether ``reactor`` may make an attack of opportunity against ``provoker`` now, and why not."""
    if reactor.side == provoker.side or reactor.id == provoker.id:
        return False, "not an enemy"
    if reactor.out_of_fight or reactor.creature.has("dead"):
        return False, "out of the fight"
    if not reactor.takes_aoo:
        return False, "does not take attacks of opportunity"
    ok, why = confusion.may_take_aoo(reactor, provoker)
    if not ok:
        return False, why
    if not threat_.aoo_weapons(reactor):
        return False, "no weapon that can make attacks of opportunity (AOO-01)"
    if state.has_flag(reactor.id, "no_aoo"):
        return False, "in total defense (ACT-20)"
    blocked = [n for n, d in cond.active(reactor.creature).items() if d.no_aoo]
    if blocked:
        return False, f"{', '.join(sorted(blocked))} (AOO-09)"
    ok, rule = budget.can_react(reactor)
    if not ok:
        return False, f"no reaction available ({rule})"
    if perception.view(state, reactor.id, provoker.id) < Awareness.AWARE_OF_LOCATION:
        return False, f"{reactor.id} has not located {provoker.id} (SEN-04)"
    fr, fp = space.footprint(reactor), space.footprint(provoker)
    grid = state.grid
    if grid is not None and fr is not None and fp is not None and not can_make_attack_of_opportunity(grid, fr, fp):
        return False, f"{provoker.id} has cover from {reactor.id} (MOD-09)"
    from sftactics.encounter import gm_setup

    if gm_setup.imposed(state, provoker.id, reactor.id) >= CoverKind.PARTIAL:
        return False, f"{provoker.id} has cover from {reactor.id}, imposed by the GM (MOD-09)"
    return True, ""


def threats_against(state: Encounter, mover: Combatant) -> dict[str, frozenset[Square]]:
    """The threat of every enemy that could take an attack of opportunity against ``mover``."""
    out: dict[str, frozenset[Square]] = {}
    for c in state.enemies_of(mover.id):
        if can_take_aoo(state, c, mover)[0]:
            zone = threat(state, c)
            if zone:
                out[c.id] = zone
    return out


def threatening(state: Encounter, c: Combatant) -> list[str]:
    """Enemies that threaten ``c`` where it stands and could take an attack of opportunity now."""
    fp = space.footprint(c)
    if fp is None:
        return []
    return [e for e, zone in threats_against(state, c).items() if any(sq in zone for sq in fp.squares)]


def attack_of_opportunity(tx: Tx, reactor_id: str, provoker_id: str, why: str) -> bool:
    """Resolve one attack of opportunity (AOO-08) if it is still allowed; True if one was made."""
    from sftactics.encounter.actions import one_attack

    s = tx.state
    reactor, provoker = s.get(reactor_id), s.get(provoker_id)
    ok, _ = can_take_aoo(s, reactor, provoker)
    if not ok or provoker.out_of_fight or provoker.creature.has("dead"):
        return False
    weapon = threat_.first_aoo_weapon(s, reactor, provoker)
    if weapon is None:
        return False
    if tx.decide is not None and not tx.decide(s, reactor_id, provoker_id, why):
        tx.emit(Note(text=f"{reactor_id} lets {provoker_id} go: no attack of opportunity ({why})", rule="AOO-06"))
        return False
    tx.emit(Note(text=f"{provoker_id} provokes an attack of opportunity from {reactor_id}: {why}", rule="AOO-06"))
    tx.emit(ActionSpent(id=reactor_id, slot="reaction", action=f"attack of opportunity on {provoker_id}",
                        rule="ACT-60"))  # fmt: skip
    one_attack(tx, reactor_id, provoker_id, weapon, [], reaction=True)
    return True


def provoke_all(tx: Tx, provoker_id: str, why: str) -> None:
    """Every enemy threatening ``provoker_id`` may take its attack of opportunity (ranged attacks, abilities)."""
    if tx.state.vehicles:
        from sftactics.encounter.vehicles import rider_provokes

        if not rider_provokes(tx.state, provoker_id):  # total cover inside a vehicle (VEH-15, AOO-13)
            return
    for enemy in threatening(tx.state, tx.state.get(provoker_id)):
        attack_of_opportunity(tx, enemy, provoker_id, why)
