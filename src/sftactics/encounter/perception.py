"""Who perceives whom (SEN-01..15, VIS-01..08, SPA-16..17): the encounter's side of ``sf1e.senses``.

The encounter keeps, for every ordered pair (observer, target), an awareness state: unaware, aware of presence,
aware of location, or observing (SEN-05..07). After every command :func:`refresh` recomputes each pair from the
observer's senses and conditions, the target's traits (invisible, incorporeal, hiding), the distance, the light
on the target's squares, and lines of sight and effect; a state established by a check stays as long as the
senses can still support it. Hiding (Stealth) is per pair; a creature that attacks gives its hiding up
(a documented choice: the attack shows where it is).

Attacks consult the pair (``attack_terms``): no direct attack while unaware (SEN-04), a guessed square while
aware of presence only (MOD-05), total concealment when the attacker knows only the square (SEN-06), and the
defender is flat-footed against an attacker it does not see (MOD-20). Policies ask :func:`perceived_enemies`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sftactics.encounter import space
from sftactics.encounter.events import AwarenessChanged, CheckMade
from sftactics.encounter.outcomes import check_data, opposed_data
from sftactics.encounter.state import Combatant, Encounter
from sftactics.encounter.tx import Tx
from sftactics.grid.geometry import Footprint, footprint_distance_ft
from sftactics.grid.lines import has_line_of_effect, has_line_of_sight
from sftactics.grid.map import Light, cached
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import senses
from sftactics.sf1e.senses import Awareness

Square = tuple[int, int]


def key(observer: str, target: str) -> str:
    return f"{observer}>{target}"


def view(state: Encounter, observer: str, target: str) -> Awareness:
    """The observer's awareness of the target (observing everything when awareness is not tracked)."""
    if not state.track_awareness:
        return Awareness.OBSERVING
    return Awareness(state.awareness.get(key(observer, target), int(Awareness.OBSERVING)))


@lru_cache(maxsize=1024)
def _senses(items: tuple[tuple[str, int], ...]) -> senses.Senses:
    return senses.parse_senses(dict(items))


@lru_cache(maxsize=65536)
def _observe(
    sense_items: tuple[tuple[str, int], ...],
    conditions: frozenset[str],
    traits: senses.TargetTraits,
    distance: int | None,
    light: Light,
    los: bool,
    loe: bool,
) -> senses.Observation:
    """``senses.observe``, remembered: the answer depends only on these values."""
    return senses.observe(_senses(sense_items), conditions, traits, distance, light, los, loe)


@dataclass(frozen=True, slots=True)
class _Body:
    fp: Footprint | None
    light: Light
    senses: tuple[tuple[str, int], ...]
    conditions: frozenset[str]
    out: bool


def _body(state: Encounter, c: Combatant) -> _Body:
    fp = space.footprint(c)
    grid = state.grid
    light = Light.NORMAL
    if grid is not None and fp is not None:
        light = max((grid.light_at(sq) for sq in fp.squares if grid.in_bounds(sq)), default=Light.NORMAL)
    out = c.out_of_fight or c.creature.has("dead")
    return _Body(fp, light, tuple(sorted(c.creature.stat.senses.items())), frozenset(cond.active(c.creature)), out)


def _pair(state: Encounter, o: Combatant, bo: _Body, t: Combatant, bt: _Body) -> senses.Observation:
    grid = state.grid
    fo, ft = bo.fp, bt.fp
    if grid is None or fo is None or ft is None:
        los = loe = True
    else:
        los = cached(grid, ("los", fo, ft), lambda: has_line_of_sight(grid, fo, ft))
        loe = cached(grid, ("loe", fo, ft), lambda: has_line_of_effect(grid, fo, ft))
    distance = footprint_distance_ft(fo, ft) if fo is not None and ft is not None else None
    traits = senses.TargetTraits.of(t.creature, hiding=key(o.id, t.id) in state.hiding)
    return _observe(bo.senses, bo.conditions, traits, distance, bt.light, los, loe)


def observation(state: Encounter, o: Combatant, t: Combatant) -> senses.Observation:
    return _pair(state, o, _body(state, o), t, _body(state, t))


def compute(state: Encounter, only: frozenset[str] | None = None) -> dict[str, int]:
    """The state now of every pair of opponents (allies always see each other: not tracked), or only of the
    pairs involving the combatants in ``only``; pairs whose observer is out of the fight keep what they had. A
    creature that is down is seen as the senses allow (it is not heard fighting)."""
    bodies = {c.id: _body(state, c) for c in state.combatants.values()}
    out: dict[str, int] = {}
    for o in state.combatants.values():
        bo = bodies[o.id]
        for t in state.combatants.values():
            if o.id == t.id or o.side == t.side:
                continue
            if only is not None and o.id not in only and t.id not in only:
                continue
            k = key(o.id, t.id)
            stored = state.awareness.get(k, int(Awareness.UNAWARE))
            bt = bodies[t.id]
            if bo.out:
                out[k] = stored
                continue
            obs = _pair(state, o, bo, t, bt)
            new = obs.settle(Awareness(stored))
            if not bt.out and _heard(state, o, bo, t, obs):  # a creature down makes no noise of fighting
                new = max(new, Awareness.AWARE_OF_LOCATION)
            out[k] = int(new)
    return out


def _heard(state: Encounter, o: Combatant, bo: _Body, t: Combatant, obs: senses.Observation) -> bool:
    """Option ``noisy_combat_locates``: a foe fighting in the open is heard where it is."""
    if not state.options.noisy_combat_locates or key(o.id, t.id) in state.hiding:
        return False
    if t.creature.stat.incorporeal or "invisible" in cond.active(t.creature) or "deafened" in bo.conditions:
        return False
    return obs.ceiling >= Awareness.AWARE_OF_LOCATION


#: Events after which who-perceives-whom may have changed.
_MAY_CHANGE = frozenset({"moved", "creature_changed", "combatant_joined", "effect_started", "effect_ended",
                         "awareness_changed", "round_started", "vehicle_moved"})  # fmt: skip


#: Events after which every pair is recomputed (not only those of the combatants involved).
_EVERYONE = frozenset({"round_started", "combatant_joined", "awareness_changed"})


def _touched(tx: Tx) -> frozenset[str] | None:
    """The combatants this command moved or changed; None when every pair should be looked at again."""
    ids: set[str] = set()
    for e in tx.events:
        if e.type in _EVERYONE:
            return None
        if e.type in ("moved", "creature_changed"):
            ids.add(e.id)
        elif e.type == "vehicle_moved":  # its riders moved with it
            ids.update(e.riders)
        elif e.type in ("effect_started", "effect_ended"):
            return None
    return frozenset(ids)


def refresh(tx: Tx, *, force: bool = False) -> None:
    """Recompute every pair and record what changed (one event). Skipped when nothing in this command could
    change what anyone perceives (no movement, no creature or effect change)."""
    s = tx.state
    if not s.track_awareness:
        return
    if not force and not any(e.type in _MAY_CHANGE for e in tx.events):
        return
    new = compute(s, None if force else _touched(tx))
    changes = {k: v for k, v in new.items() if s.awareness.get(k) != v}
    if changes:
        tx.emit(AwarenessChanged(changes=changes))


def roll_surprise(tx: Tx) -> None:
    """The awareness step decided by the dice (CF-07): every hidden combatant makes a Stealth check against
    each opponent's Perception; the others are noticed as the senses allow. A combatant is aware when it is
    aware of at least one opponent (``senses.aware_for_surprise``)."""
    s = tx.state
    states: dict[str, int] = {}
    for o in s.combatants.values():
        for t in s.enemies_of(o.id):
            obs = observation(s, o, t)
            k = key(o.id, t.id)
            if t.hidden:
                check = senses.perception_vs_stealth(o.creature, t.creature, tx.dice, observation=obs)
                states[k] = int(check.after)
                tx.emit(CheckMade(id=o.id, what=f"Perception against {t.id}'s Stealth (CF-07)",
                                  success=check.after >= Awareness.AWARE_OF_PRESENCE,
                                  check=check_data(check.perception), opposed=opposed_data(check),
                                  notes=check.lines))  # fmt: skip
            else:
                states[k] = int(obs.awareness)
    tx.emit(AwarenessChanged(changes=states))
    from sftactics.encounter.events import CombatantChanged

    for c in s.combatants.values():
        aware = senses.aware_for_surprise(Awareness(states[key(c.id, e.id)]) for e in s.enemies_of(c.id))
        if aware != c.aware:
            tx.emit(CombatantChanged(id=c.id, changes={"aware": aware}))


def search(tx: Tx, observer_id: str) -> list[senses.AwarenessCheck]:
    """An active Perception check (SEN-05) against every opponent not yet pinpointed: the opponent's Stealth
    opposes it (hidden or invisible foes get their unseen bonus, SEN-09). Returns the checks made."""
    s = tx.state
    o = s.get(observer_id)
    bo = _body(s, o)
    changes: dict[str, int] = {}
    checks: list[senses.AwarenessCheck] = []
    for t in s.enemies_of(o.id):
        bt = _body(s, t)
        if bt.out:
            continue
        k = key(o.id, t.id)
        before = view(s, o.id, t.id)
        obs = _pair(s, o, bo, t, bt)
        if before >= obs.ceiling:
            continue
        check = senses.perception_vs_stealth(o.creature, t.creature, tx.dice, before=before, observation=obs)
        checks.append(check)
        if check.after != before:
            changes[k] = int(check.after)
    if changes:
        tx.emit(AwarenessChanged(changes=changes))
    return checks


def attack_terms(
    state: Encounter, attacker: Combatant, target: Combatant, *, melee: bool, square: Square | None
) -> senses.AttackAwareness:
    """What awareness does to one attack (SEN-04..07, MOD-05, MOD-20); refuses an attack on an unknown foe."""
    right = None
    if square is not None:
        ft = space.footprint(target)
        right = ft is None or ft.contains(square)
    return senses.attack_awareness(view(state, attacker.id, target.id), view(state, target.id, attacker.id),
                                   right_square=right)  # fmt: skip


def after_attack(tx: Tx, attacker: Combatant, target: Combatant, *, melee: bool) -> None:
    """The attacker gives up hiding; an adjacent melee attacker is located (SEN-10)."""
    s = tx.state
    changes: dict[str, int] = {}
    revealed = frozenset(k for k in s.hiding if k.endswith(f">{attacker.id}"))
    fa, ft = space.footprint(attacker), space.footprint(target)
    adjacent = fa is not None and ft is not None and footprint_distance_ft(fa, ft) <= 5
    change = senses.locate_attacker(view(s, target.id, attacker.id), melee=melee, adjacent=adjacent)
    if change.changed:
        changes[key(target.id, attacker.id)] = int(change.after)
    if revealed or changes:
        tx.emit(AwarenessChanged(changes=changes, unhide=tuple(sorted(revealed))))


def perceived_enemies(state: Encounter, cid: str) -> list[Combatant]:
    """Enemies ``cid`` knows the location of (the only ones it may attack or aim at)."""
    return [e for e in state.enemies_of(cid) if view(state, cid, e.id) >= Awareness.AWARE_OF_LOCATION]


def before_the_fight(state: Encounter) -> Encounter:
    """``state`` with the awareness its combatants would have when the fight begins, as far as it can be known
    without dice: what the senses give each pair (light, walls, darkvision...), and hidden combatants not
    noticed (their Stealth checks are rolled at ``begin``, CF-07). A fight already begun is returned as it is."""
    if state.timeline.phase != "setup" or not state.track_awareness:
        return state
    pairs = compute(state)
    hidden = {c.id for c in state.combatants.values() if c.hidden}
    for k in pairs:
        if k.split(">", 1)[1] in hidden:
            pairs[k] = int(Awareness.UNAWARE)
    return state.model_copy(update={"awareness": {**pairs, **state.awareness}})


def side_knows(state: Encounter, side: str) -> dict[str, Awareness]:
    """The best awareness any member of ``side`` has of each opponent."""
    out: dict[str, Awareness] = {}
    members = [c for c in state.combatants.values() if c.side == side]
    for t in state.combatants.values():
        if t.side == side:
            continue
        best = max((view(state, m.id, t.id) for m in members), default=Awareness.UNAWARE)
        out[t.id] = best
    return out
