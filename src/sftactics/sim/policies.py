"""Policies: pluggable decision makers for simulated fights.

A policy is the engine's ``Policy``: a callable ``policy(fight, cid)`` that takes the combatant's whole turn with
``fight.do(...)`` and ends it. It sees the fight's state but asks about enemies only through
:mod:`sftactics.sim.perception` (what its side perceives), and it proposes only commands it has checked, so the
engine rarely refuses one (a refused command changes nothing, and the policy then falls back).

* ``simple`` (:class:`SimplePolicy`): spend Resolve to stabilize and stay in the fight; close in on the nearest
  foe and attack it with the first weapon that reaches (melee fighters close in rather than shoot), throw a
  grenade that catches two foes and no friend, reload an empty weapon.
* ``tactical`` (:class:`TacticalPolicy`): compares the options of the turn by the exact expected damage of each
  attack against the target's AC (:mod:`sftactics.sim.odds`), weighed by how dangerous and how hurt each foe
  is (focus fire), against the expected damage it would take where it ends its turn (cover, range, staying
  outside melee reach) and the attacks of opportunity a move or a shot would provoke (guarded step, withdraw).
  It flanks (flanking is part of the attack's numbers), throws grenades at clusters, full attacks when two
  attacks at -4 beat one attack and a move, charges, gives first aid to a dying ally who cannot stabilize on
  its own, spends Resolve to stabilize and to stay in the fight while it keeps enough to stabilize again, and
  retreats when its side's position is hopeless (a side whose able members all retreat concedes the fight).
* ``engine``: the engine's built-in ``sftactics.encounter.policy.simple`` as it is (it sees everything); a
  simulated fight played with it is the fight ``sftactics run --seed S`` shows.

A confused combatant's turn follows its d% (CON-06, rolled by the engine at the start of the turn): babbling or
hurting itself leaves it nothing to do; bound to attack the nearest creature (or the one that last attacked it),
every policy closes in on it and attacks it as ``simple`` does (``confusion.forced_targets``). The kernel
refuses confused creatures, so it plays none of this.

Policies are created fresh for every fight (:func:`make_policy`) so their memories never leak between fights,
and they never roll dice: a fight depends only on its seed.

The compiled kernel plays ``simple`` and ``tactical`` again, decision for decision (``sim.kernel.fight`` and
``sim.kernel.tactics``; tested to roll the same dice in the same fights): a change to either policy here must
be made there too, or ``tests/sim/test_kernel*.py`` will say where they part.

The code: ``sim.policy_common`` (what every policy asks: the turn, the actions left, weapons, Resolve, reach,
bursts, retreat), ``sim.policy_simple`` (``simple``), ``sim.policy_turn`` (what ``tactical`` computes for a turn)
and ``sim.policy_tactical`` (``tactical`` and its choice); this module names them (:func:`make_policy`).
"""

from __future__ import annotations

from collections.abc import Callable

from sftactics.encounter.policy import simple as engine_simple
from sftactics.sim.morale import DEFAULT_MORALE, Morale
from sftactics.sim.policy_common import Policy as Policy
from sftactics.sim.policy_common import Square as Square
from sftactics.sim.policy_common import _attack_weapons as _attack_weapons
from sftactics.sim.policy_common import _can as _can
from sftactics.sim.policy_common import _can_move_then_standard as _can_move_then_standard
from sftactics.sim.policy_common import _my_turn as _my_turn
from sftactics.sim.policy_common import retreat as retreat
from sftactics.sim.policy_simple import SimplePolicy as SimplePolicy
from sftactics.sim.policy_tactical import TacticalPolicy as TacticalPolicy
from sftactics.sim.policy_tactical import TacticalWeights as TacticalWeights
from sftactics.sim.policy_tactical import _Plan as _Plan
from sftactics.sim.policy_tactical import _Turn as _Turn


# ---------------------------------------------------------------- registry
def _veteran(morale: Morale) -> Policy:
    from sftactics.sim.veteran import VeteranPolicy  # it builds on this module

    return VeteranPolicy(morale=morale)


POLICIES: dict[str, Callable[..., Policy]] = {
    "simple": SimplePolicy,
    "tactical": TacticalPolicy,
    "veteran": lambda morale=DEFAULT_MORALE: _veteran(morale),
    "engine": lambda morale=None: engine_simple,  # no morale: the engine's own policy, as ``sftactics run`` plays it
}


def policy_names() -> list[str]:
    return sorted(POLICIES)


def make_policy(name: str, morale: Morale = DEFAULT_MORALE) -> Policy:
    """A fresh policy by name (``simple``, ``tactical``, ``veteran``, ``engine``) with the side's ``morale``
    (``sim.morale``; the engine policy has none)."""
    try:
        factory = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r} (choose from {', '.join(policy_names())})") from None
    return factory(morale=morale)
