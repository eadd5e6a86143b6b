"""Clouds an explosion leaves on the map (a smoke grenade, CRB explode property): the squares of its area gain a
map feature (``conceal``: concealment to anyone in them or seen through them, MOD-01) for the cloud's duration.

A cloud is a timed effect (kept on the list of the creature that made it, counted by initiative count, CF-14)
with a :class:`~sftactics.encounter.state.Zone`: while it lasts ``Encounter.grid`` is the map with the feature
added, so attacks, concealment, lines of sight and perception all see it; when the effect ends the zone goes.
"""

from __future__ import annotations

from sftactics.encounter import timing
from sftactics.encounter.events import EffectStarted
from sftactics.encounter.state import Effect, Zone
from sftactics.encounter.tx import Tx
from sftactics.grid.areas import Area
from sftactics.sf1e.statblock import AreaCloud

_WORDS = {"conceal": "concealment (MOD-01)", "obscure": "blocks sight (EFF-37)"}


def rounds_of(cloud: AreaCloud) -> int | None:
    """How many rounds a cloud lasts (minutes are 10 rounds each); None: until ended."""
    if cloud.rounds is not None:
        return cloud.rounds
    return 10 * cloud.minutes if cloud.minutes is not None else None


def start(tx: Tx, maker: str, name: str, area: Area, cloud: AreaCloud) -> Effect:
    """Leave ``cloud`` on the squares of ``area``, made by ``maker`` with ``name`` (a grenade)."""
    from sftactics.encounter.state import Expiry

    rounds = rounds_of(cloud)
    expires = timing.for_rounds(tx.state, rounds) if rounds is not None else Expiry()
    eid = tx.state.next_effect_id
    label = f"{name} cloud"
    effect = Effect(id=eid, target=maker, name=label, source=name, expires=expires, rule="MOD-01",
                    flags=frozenset({"cloud"}))  # fmt: skip
    squares = tuple(sorted(area.squares, key=lambda s: (s[1], s[0])))
    tx.emit(EffectStarted(effect=effect, zone=Zone(effect=eid, name=label, feature=cloud.feature, squares=squares)))
    how = f"for {rounds} rounds" if rounds is not None else "until ended"
    tx.note(f"{label} fills {len(squares)} squares {how}: {_WORDS[cloud.feature]}", "MOD-01")
    return effect
