"""Events as lines a GM can read (pure: events in, strings out)."""

from __future__ import annotations

from collections.abc import Iterable

from sftactics.encounter import events as ev
from sftactics.encounter.events import Event
from sftactics.encounter.state import Encounter
from sftactics.sf1e.senses import Awareness


def lines(events: Iterable[Event], *, verbose: bool = True) -> list[str]:
    out: list[str] = []
    for e in events:
        out += event_lines(e, verbose=verbose)
    return out


def event_lines(e: Event, *, verbose: bool = True) -> list[str]:
    match e:
        case ev.InitiativeRolled():
            if e.explain == "given":
                return [f"{e.id} starts at initiative {e.total} (already rolled)"]
            return [f"{e.id} rolls initiative: d20 {e.roll} {e.modifier:+d} = {e.total}"]
        case ev.OrderSet():
            offs = ""
            if e.roll_offs:
                offs = " (roll-offs: " + ", ".join(f"{k} {list(v)}" for k, v in e.roll_offs.items()) + ")"
            return [f"Initiative order: {', '.join(e.order)}{offs}"]
        case ev.RoundStarted():
            return ["", "=== Surprise round ===" if e.surprise else f"=== Round {e.round} ==="]
        case ev.TurnStarted():
            return [f"-- {e.id}'s turn --"]
        case ev.TurnSkipped():
            return [] if e.reason in ("dead", "out of the fight") else [f"-- {e.id}: {e.reason} --"]
        case ev.CombatantJoined():
            return [f"{e.combatant.id} joins the fight on the {e.combatant.side} side"]
        case ev.ActionSpent():
            return [f"{e.id}: {e.action} ({e.slot} action)"] if verbose and e.slot != "none" else []
        case ev.AttackMade():
            if verbose:
                return ["  " + x for x in e.lines]
            if "," in e.target:  # a thrown area weapon: its target is where it lands
                how = "on target" if e.hit else "off target, it scatters"
                return [f"{e.attacker} throws {e.weapon}: {how}; it lands at {e.target}"]
            verdict = "critical hit" if e.critical else ("hit" if e.hit else "miss")
            dmg = f" for {e.damage}" if e.damage is not None else ""
            aoo = " (attack of opportunity)" if e.reaction else ""
            return [f"{e.attacker} attacks {e.target} with {e.weapon}{aoo}: {verdict}{dmg}"]
        case ev.CreatureChanged() | ev.Moved() | ev.CheckMade() | ev.ConfusionRolled():
            return ["  " + x for x in e.lines]
        case ev.EffectStarted():
            eff = e.effect
            return [f"  {eff.target}: {eff.name} ({eff.expires.describe()})"] if verbose else []
        case ev.EffectEnded():
            return [f"  effect ended: {e.why}"] if verbose else []
        case ev.Readied():
            if e.readied is None:
                return []
            return [f"{e.id} readies {e.readied.command.get('type')} (trigger: {e.readied.trigger})"]
        case ev.AwarenessChanged():
            if not verbose:
                return []
            out = []
            for k, v in sorted(e.changes.items()):
                o, t = k.split(">", 1)
                out.append(f"  awareness: {o} -> {t}: {Awareness(v).text}")
            out += [f"  {k.split('>', 1)[1]} no longer hides from {k.split('>', 1)[0]}" for k in e.unhide]
            return out
        case ev.InitiativeChanged():
            return [f"{e.id} moves to initiative {e.count}: {e.why}"]
        case ev.Note():
            return [f"  {e.text}"]
        case ev.CombatEnded():
            return ["", f"Combat over in round {e.round}: {e.winner or 'nobody'} wins ({e.reason})"]
    return []


def summary(state: Encounter) -> list[str]:
    """One line per combatant: pools and conditions."""
    out = []
    for c in state.combatants.values():
        st = c.creature.state
        conds = ", ".join(i.name + (f" {i.value}" if i.value else "") for i in st.conditions) or "-"
        pos = f" at {c.position[0]},{c.position[1]}" if c.position else ""
        out.append(
            f"{c.id} ({c.side}){pos}: SP {st.sp}/{c.creature.stat.sp} HP {st.hp}/{c.creature.stat.hp} "
            f"RP {st.rp}/{c.creature.stat.rp}; {conds}"
        )
    return out
