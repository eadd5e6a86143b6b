"""The setup a scenario can describe and the cover a GM imposes (issue 15, section 4).

* **Awareness per pair** (SEN-03..10): a scenario may say who has noticed whom, and how well, when the fight
  begins (``Encounter.setup.awareness``). ``begin`` sets those pairs after its own perception step (after the
  rolls when it rolls awareness, CF-07). A state lower than what the observer's senses give without a check
  means the target has gone unnoticed: it counts as hiding from that observer (Stealth, SEN-08), until it
  attacks or a Perception check finds it. A state higher than the senses can support now is lowered to what
  they can (their ceiling), with a note.
* **Grapples under way** (MAN-05..07): the grappled (or pinned) condition with the grappler as its source and the
  timed effect a successful grapple starts, ending at the end of the grappler's next turn unless renewed.
* **Cover imposed by the GM** (MOD-12 and MOD-13 are GM calls; MOD-14): a timed effect on the creature,
  against everyone or named attackers. Attacks take the better of it and the map's cover (the larger AC bonus;
  total cover always wins and refuses the attack), with a term naming it as imposed; partial cover or better
  stops attacks of opportunity (MOD-09); imposed against everyone, it also counts against area effects (Reflex
  bonus; total cover keeps the creature out, MOD-14).
* **A creature's own gravity**: ``Combatant.gravity`` (None: the map's). The zero-gravity rules (a knockdown or a
  trip makes the creature off-kilter instead of prone: MOD-18, MAN-12, CON-23) look at the creature knocked down.
"""

from __future__ import annotations

from typing import Literal

from sftactics.core.breakdown import Term
from sftactics.core.errors import SftError
from sftactics.encounter.commands import ImposeCover
from sftactics.encounter.events import AwarenessChanged, CombatantChanged
from sftactics.encounter.state import Effect, Encounter, Expiry, ImposedCover, StartGrapple
from sftactics.encounter.tx import Tx
from sftactics.grid.cover import CoverKind, cover_terms
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import senses
from sftactics.sf1e.senses import Awareness
from sftactics.sf1e.state import ConditionInstance

#: The flag of an imposed-cover effect; ``cover:KIND`` and ``against:NAME`` flags say the rest.
IMPOSED = "imposed_cover"
EFFECT_NAME = "cover imposed by the GM"
_RULE = {CoverKind.PARTIAL: "MOD-12", CoverKind.COVER: "MOD-08", CoverKind.IMPROVED: "MOD-13",
         CoverKind.TOTAL: "MOD-14"}  # fmt: skip

Ctx = object


# ---------------------------------------------------------------- gravity
def gravity_of(state: Encounter, cid: str) -> Literal["zero", "low", "normal", "high"]:
    """The gravity around ``cid``: its own (a scenario's ``environment``) or the map's."""
    c = state.combatants.get(cid)
    return c.gravity if c is not None and c.gravity is not None else state.gravity


def zero_gravity(state: Encounter, cid: str) -> bool:
    return gravity_of(state, cid) == "zero"


# ---------------------------------------------------------------- imposed cover
def imposed(state: Encounter, target: str, attacker: str | None) -> CoverKind:
    """The best cover the GM imposes on ``target`` against ``attacker`` (None: an area effect, which only cover
    imposed against everyone counts against)."""
    best = CoverKind.NONE
    if state.timeline.phase == "setup" and state.setup is not None:  # a scenario's cover, before ``begin``
        for spec in state.setup.cover:
            if spec.target == target and (not spec.against or attacker in spec.against):
                best = max(best, CoverKind[spec.cover.upper()])
    for e in state.effects:
        if e.target != target or IMPOSED not in e.flags:
            continue
        against = _against(e)
        if against and (attacker is None or attacker not in against):
            continue
        kind = next((f.removeprefix("cover:") for f in e.flags if f.startswith("cover:")), "none")
        best = max(best, CoverKind[kind.upper()])
    return best


def _against(e: Effect) -> frozenset[str]:
    """The attackers an imposed-cover effect counts against (empty: everyone)."""
    return frozenset(f.removeprefix("against:") for f in e.flags if f.startswith("against:"))


def imposed_terms(kind: CoverKind) -> tuple[tuple[Term, ...], tuple[Term, ...]]:
    """The AC and Reflex terms of imposed cover, labelled as the GM's."""
    ac, ref = cover_terms(kind)
    return tuple(_relabel(t) for t in ac), tuple(_relabel(t) for t in ref)


def _relabel(t: Term) -> Term:
    """The same bonus, named as the GM's (its source stays "cover": cover never stacks with cover)."""
    return Term(t.value, f"{t.label} (imposed by the GM)", t.rule, t.type, source="cover")


def wins(imposed_kind: CoverKind, map_kind: CoverKind) -> bool:
    """Whether imposed cover replaces the map's: total cover always, otherwise a larger AC bonus (cover does
    not stack: the better one counts)."""
    if imposed_kind is CoverKind.NONE:
        return False
    if imposed_kind is CoverKind.TOTAL:
        return True
    return _ac(imposed_kind) > _ac(map_kind)


def _ac(kind: CoverKind) -> int:
    return sum(t.value for t in cover_terms(kind)[0])


def rule_of(kind: CoverKind) -> str:
    return _RULE.get(kind, "MOD-07")


def start_imposed(tx: Tx, spec: ImposedCover) -> None:
    """Start (or replace) cover imposed on ``spec.target`` against the same attackers."""
    s = tx.state
    s.get(spec.target)
    for name in spec.against:
        s.get(name)
        if name == spec.target:
            raise SftError(f"{spec.target} cannot have cover against itself")
    against = frozenset(spec.against)
    for e in list(s.effects):
        if e.target == spec.target and IMPOSED in e.flags and _against(e) == against:
            tx.end_effect(e.id, "replaced by the GM")
    from sftactics.encounter import timing

    expires = timing.for_rounds(tx.state, spec.rounds) if spec.rounds is not None else Expiry()
    flags = (IMPOSED, f"cover:{spec.cover}", *(f"against:{a}" for a in sorted(against)))
    kind = CoverKind[spec.cover.upper()]
    whom = f" against {', '.join(sorted(against))}" if against else ""
    tx.start_effect(spec.target, EFFECT_NAME, expires=expires, flags=flags, source="GM", rule=rule_of(kind))
    tx.note(f"GM: {spec.target} has {_worded(kind)}{whom} ({rule_of(kind)})", rule_of(kind))


def _worded(kind: CoverKind) -> str:
    return "cover" if kind is CoverKind.COVER else f"{kind.name.lower()} cover"


def do_impose_cover(tx: Tx, cmd: ImposeCover, ctx: Ctx) -> None:
    if cmd.cover == "none":
        tx.state.get(cmd.target)
        ended = [e for e in tx.state.effects if e.target == cmd.target and IMPOSED in e.flags]
        if cmd.against:
            want = frozenset(cmd.against)
            ended = [e for e in ended if _against(e) == want]
        if not ended:
            raise SftError(f"{cmd.target} has no cover imposed by the GM to end")
        for e in ended:
            tx.end_effect(e.id, "ended by the GM")
        return
    spec = ImposedCover(target=cmd.target, cover=cmd.cover, against=cmd.against, rounds=cmd.rounds)
    start_imposed(tx, spec)


# ---------------------------------------------------------------- the scenario's setup, when the fight begins
def awareness_at_begin(tx: Tx, *, rolled: bool) -> None:
    """Set the pairs the scenario names (see the module docstring); after rolled awareness, who counts as aware
    for the surprise round is worked out again (CF-07, CF-08)."""
    from sftactics.encounter import perception

    s = tx.state
    setup = s.setup
    if setup is None or not setup.awareness or not s.track_awareness:
        return
    changes: dict[str, int] = {}
    hide: list[str] = []
    for k, v in setup.awareness.items():
        o, t = k.split(">", 1)
        obs = perception.observation(s, s.get(o), s.get(t))
        want = Awareness(v)
        if want > obs.ceiling:
            tx.note(f"{o} cannot be {want.text} of {t} now: its senses reach no further than {obs.ceiling.text} "
                    f"({obs.rule})", obs.rule)  # fmt: skip
            want = obs.ceiling
        if want < obs.awareness and k not in s.hiding:
            hide.append(k)
        changes[k] = int(want)
    tx.emit(AwarenessChanged(changes=changes, hide=tuple(hide)))
    shown = ", ".join(f"{k.replace('>', ' of ')}: {Awareness(v).text}" for k, v in changes.items())
    tx.note(f"awareness set by the scenario: {shown}", "SEN-03")
    if not rolled:
        return
    s = tx.state
    for c in s.combatants.values():
        aware = senses.aware_for_surprise(perception.view(s, c.id, e.id) for e in s.enemies_of(c.id))
        if aware != c.aware:
            tx.emit(CombatantChanged(id=c.id, changes={"aware": aware}))


def grapple_condition(g: StartGrapple) -> tuple[str, ConditionInstance]:
    """The condition a grapple gives its target, as a successful grapple does: grappled or pinned, its source the
    grappler (MAN-05, MAN-06)."""
    name = "pinned" if g.pinned else "grappled"
    return name, ConditionInstance(name=name, source=g.grappler)


def effects_at_begin(tx: Tx) -> None:
    """Start the scenario's grapples and imposed cover, once the order and the round are set."""
    setup = tx.state.setup
    if setup is None:
        return
    for g in setup.grapples:
        s = tx.state
        t = s.get(g.target)
        name, inst = grapple_condition(g)
        text = f"{t.id} is {name} by {g.grappler} (a grapple under way): until the end of {g.grappler}'s next turn"
        if inst in t.creature.state.conditions:  # the scenario gave it already (so that it shows before ``begin``)
            tx.note(f"{text} [MAN-07]", "MAN-07")
        else:
            tx.creature(t.id, cond.add_condition(t.creature, inst), [f"{text} [MAN-07]"])
        # the grappler's next turn: this round's if it has not had it yet, else the next round's
        rnd = s.timeline.round + (1 if g.grappler in s.timeline.done else 0)
        until = Expiry(kind="turn_end", anchor=g.grappler, round=rnd)
        tx.start_effect(t.id, name, condition=inst, expires=until, source=g.grappler, rule="MAN-07")
    for spec in setup.cover:
        start_imposed(tx, spec)
