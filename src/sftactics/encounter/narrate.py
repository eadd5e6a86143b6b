"""Events as lines a GM can read (pure: events in, strings out).

This is the one renderer of the fight's text: every number shown comes from the event's data (its
:mod:`~sftactics.encounter.outcomes` models), so the text and the data cannot disagree. ``event_lines`` gives
an event's lines in the log; ``detail_lines`` the explanation of an attack, check, move or change (what the
events' ``lines`` property returns).
"""

from __future__ import annotations

from collections.abc import Iterable

from sftactics.encounter import events as ev
from sftactics.encounter.events import Event
from sftactics.encounter.outcomes import (
    AttackData,
    BreakdownData,
    CheckData,
    ConditionData,
    DamageData,
    InjuryData,
    LedgerStepData,
    PoolsData,
    TermData,
)
from sftactics.encounter.state import Encounter
from sftactics.encounter.vehicles import VehicleChanged, VehicleMoved, moved_lines
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
                return ["  " + x for x in detail_lines(e)]
            if "," in e.target:  # a thrown area weapon: its target is where it lands
                how = "on target" if e.hit else "off target, it scatters"
                return [f"{e.attacker} throws {e.weapon}: {how}; it lands at {e.target}"]
            verdict = "critical hit" if e.critical else ("hit" if e.hit else "miss")
            dmg = f" for {e.damage}" if e.damage is not None else ""
            aoo = " (attack of opportunity)" if e.reaction else ""
            return [f"{e.attacker} attacks {e.target} with {e.weapon}{aoo}: {verdict}{dmg}{_fate(e)}"]
        case ev.CreatureChanged() | ev.Moved() | ev.CheckMade():
            return ["  " + x for x in detail_lines(e)]
        case ev.ConfusionRolled():
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
            out = awareness_lines(e.changes)
            out += [f"  {k.split('>', 1)[1]} no longer hides from {k.split('>', 1)[0]}" for k in e.unhide]
            return out
        case ev.InitiativeChanged():
            return [f"{e.id} moves to initiative {e.count}: {e.why}"]
        case ev.Note():
            return [f"  {e.text}"]
        case ev.CombatEnded():
            return ["", f"Combat over in round {e.round}: {e.winner or 'nobody'} wins ({e.reason})"]
        case VehicleMoved():
            return ["  " + x for x in moved_lines(e)]
        case VehicleChanged():
            return ["  " + x for x in e.notes]
    return []


_AWARE_WORDS = {
    Awareness.OBSERVING: "sees {}",
    Awareness.AWARE_OF_LOCATION: "knows where {} {} but cannot see {}",
    Awareness.AWARE_OF_PRESENCE: "knows {} {} near but not where",
    Awareness.UNAWARE: "is unaware of {}",
}


def awareness_lines(changes: dict[str, int]) -> list[str]:
    """One line per observer: whom it now sees, locates, senses or has lost (SEN-03..07)."""
    by_observer: dict[str, dict[Awareness, list[str]]] = {}
    for k, v in sorted(changes.items()):
        o, t = k.split(">", 1)
        by_observer.setdefault(o, {}).setdefault(Awareness(v), []).append(t)
    out = []
    for o, states in by_observer.items():
        parts = []
        for state in sorted(states, reverse=True):
            names = states[state]
            who = ", ".join(names)
            verb, pron = ("are", "them") if len(names) > 1 else ("is", "it")
            if state is Awareness.AWARE_OF_LOCATION:
                parts.append(_AWARE_WORDS[state].format(who, verb, pron))
            elif state is Awareness.AWARE_OF_PRESENCE:
                parts.append(_AWARE_WORDS[state].format(who, verb))
            else:
                parts.append(_AWARE_WORDS[state].format(who))
        out.append(f"  {o} {'; '.join(parts)}")
    return out


def _fate(e: ev.AttackMade) -> str:
    """What the hit did to the target, for the one-line form: it dies, drops or falls unconscious."""
    inj = e.result.damage.injury if e.result is not None and e.result.damage is not None else None
    if inj is None:
        return ""
    if inj.died:
        return f"; {e.target} dies"
    if inj.became_dying:
        return f"; {e.target} drops (dying)"
    if inj.became_unconscious:
        return f"; {e.target} drops (unconscious)"
    return ""


# ---------------------------------------------------------------- the explanation of one event
def detail_lines(e: Event) -> list[str]:
    """The explanation of an attack, check, move or creature change, rendered from its data."""
    match e:
        case ev.AttackMade():
            r = e.result
            out = [fill(x, r.ac, r.roll) for x in e.notes] if r is not None else list(e.notes)
            if r is not None and r.kind == "weapon" and r.roll is not None:
                out += attack_lines(r)
            return out
        case ev.CheckMade():
            if e.notes:
                return [fill(x, None, e.check) for x in e.notes]
            return [f"{e.id} {e.what}: {check_text(e.check)}"] if e.check is not None else []
        case ev.Moved():
            return move_lines(e)
        case ev.CreatureChanged():
            out = []
            if e.damage is not None:
                out += damage_lines(e.id, e.damage)
            if e.injury is not None:
                out += injury_lines(e.injury)
            return out + list(e.notes)
    return []


# placeholders in notes for the numbers an event carries as data: the rules' own account of a maneuver, a feint,
# support fire... keeps its words, and its numbers are filled in from the data when rendered
_ROLL, _AC, _BONUS = "{roll}", "{ac}", "{bonus}"


def templated(lines: Iterable[str], ac: BreakdownData | None, roll: CheckData | None) -> tuple[str, ...]:
    """``lines`` with the text of the AC, the bonus and the roll replaced by placeholders (see :func:`fill`)."""
    swaps = [(check_text(roll), _ROLL), (breakdown_text(roll.bonus), _BONUS)] if roll is not None else []
    if ac is not None:
        swaps.append((breakdown_text(ac), _AC))
    out = []
    for line in lines:
        for text, mark in swaps:
            line = line.replace(text, mark)
        out.append(line)
    return tuple(out)


def fill(line: str, ac: BreakdownData | None, roll: CheckData | None) -> str:
    """A note with its placeholders filled in from the event's data."""
    if roll is not None:
        line = line.replace(_ROLL, check_text(roll)).replace(_BONUS, breakdown_text(roll.bonus))
    if ac is not None:
        line = line.replace(_AC, breakdown_text(ac))
    return line


_DAMAGE, _OVERFLOW = "{damage}", "{overflow}"


def injury_damage_line(i: InjuryData) -> str:
    """Where damage went: temporary HP, Stamina, Hit Points (DMG-06)."""
    amount = i.temp_hp + i.sp + i.hp + i.overflow
    parts = [f"{i.temp_hp} temporary HP"] if i.temp_hp else []
    if i.sp or i.after.sp:
        parts.append(f"{i.sp} SP")
    parts.append(f"{i.hp} HP")
    now = f"now {i.after.temp_hp} temp, {i.after.sp} SP, {i.after.hp} HP"
    kind = "nonlethal" if i.nonlethal else "lethal"
    return f"{i.creature} takes {amount} {kind} damage: {', '.join(parts)} ({now}) [DMG-06]"


def injury_overflow_line(i: InjuryData) -> str:
    return f"Hit Points stop at 0; {i.overflow} damage is left over [DMG-07]"


def injury_templated(i: InjuryData) -> tuple[str, ...]:
    """The injury rules' lines with the two that only restate numbers replaced by placeholders."""
    swaps = {injury_damage_line(i): _DAMAGE, injury_overflow_line(i): _OVERFLOW}
    return tuple(swaps.get(line, line) for line in i.lines)


def injury_lines(i: InjuryData) -> list[str]:
    """The injury rules' account, with the damage and overflow lines rendered from the numbers."""
    fills = {_DAMAGE: injury_damage_line(i), _OVERFLOW: injury_overflow_line(i)}
    return [fills.get(line, line) for line in i.lines]


def term_text(t: TermData) -> str:
    kind = "" if t.type in ("base", "untyped") or t.value < 0 else f" {t.type}"
    rule = f" [{t.rule}]" if t.rule else ""
    return f"{t.value:+d}{kind} {t.label}{rule}"


def breakdown_text(b: BreakdownData) -> str:
    body = " ".join(term_text(t) for t in b.terms) or "0"
    return f"{b.label} {b.total} = {body}"


def check_text(c: CheckData) -> str:
    shown = str(c.natural) if len(c.rolls) == 1 else f"{c.natural} (from {list(c.rolls)})"
    auto = f", {c.automatic}" if c.automatic else ""
    return f"d20 {shown} {c.bonus.total:+d} = {c.total} vs {c.dc}: {c.degree}{auto}"


def step_text(x: LedgerStepData) -> str:
    rule = f" [{x.rule}]" if x.rule else ""
    return f"{x.step}: {x.detail}{rule}"


def _suppressed(b: BreakdownData) -> list[str]:
    return [f"    (not counted: {term_text(s)} - {s.reason})" for s in b.suppressed]


def _conditions(cs: Iterable[ConditionData]) -> str:
    names = [c.name + (f" {c.value}" if c.value else "") for c in cs]
    return f"; {', '.join(names)}" if names else ""


def pools_text(who: str, p: PoolsData) -> str:
    return f"{who}: SP {p.sp}, HP {p.hp}, RP {p.rp}" + _conditions(p.conditions)


def attack_lines(a: AttackData) -> list[str]:
    """A weapon attack explained step by step: the AC, the attack bonus, the roll, concealment, damage."""
    assert a.ac is not None and a.roll is not None
    out = [f"{a.attacker} attacks {a.target} with {a.weapon}."]
    out.append(f"Target: {a.ac_kind.upper()} ({a.ac_reason})")
    out.append(f"  {breakdown_text(a.ac)}")
    out += _suppressed(a.ac)
    out.append(f"Attack: {breakdown_text(a.roll.bonus)}")
    out += _suppressed(a.roll.bonus)
    out.append(f"  Roll: {check_text(a.roll)}" + (f" - {a.roll.note}" if a.roll.note else ""))
    cc = a.concealment
    if cc is not None:
        why = f" ({cc.reason})" if cc.reason else ""
        how = "the attack misses" if cc.missed else "the attack gets through"
        out.append(f"  Concealment {cc.chance}%{why}: d% {cc.roll}, {how} (MOD-04)")
    verdict = "critical hit" if a.outcome == "critical" else a.outcome
    out.append(f"  Result: {verdict}" + (f" ({a.critical_note})" if a.critical_note else ""))
    d = a.damage
    if d is not None:
        out.append("Damage:")
        out += [f"  {step_text(x)}" for x in d.roll_steps]
        # the full ledger stays in the data; for people, skip the lines that repeat the roll
        steps = [x for x in d.defenses if x.step not in ("incoming", "total")]
        out += [f"  {step_text(x)}" for x in steps]
        if steps:
            out += [f"  {step_text(x)}" for x in d.defenses if x.step == "total"]
        if d.injury is not None:
            out += [f"  {line}" for line in injury_lines(d.injury)]
    out += [f"Critical effect: {line}" for line in a.critical_effect]
    if a.secondary_injury is not None:
        out += [f"  {line}" for line in injury_lines(a.secondary_injury)]
    if a.after is not None:
        out.append(pools_text(a.target, a.after))
    return out


def damage_lines(who: str, d: DamageData) -> list[str]:
    """Damage outside an attack: a condition's tick shows its roll; other damage its defenses step by step."""
    out: list[str] = []
    if d.kind == "condition":
        out.append(f"{who} takes {d.source} damage: {d.rolls[0] if d.rolls else d.rolled}")
    else:
        out += [d.note] if d.note else []
        out += [step_text(x) for x in d.defenses]
    if d.injury is not None:
        out += injury_lines(d.injury)
    return out


def _path(path: Iterable[tuple[int, int]]) -> str:
    return " -> ".join(f"{x},{y}" for x, y in path)


def move_lines(m: ev.Moved) -> list[str]:
    end = m.path[-1]
    if m.kind == "push":
        return [f"{m.id} is pushed back {5 * (len(m.path) - 1)} ft ({m.rule or 'MAN-02'})"]
    if m.kind == "reposition":
        return [f"{m.by} moves {m.id} {5 * (len(m.path) - 1)} ft to {end[0]},{end[1]} ({m.rule or 'MAN-09'})"]
    if m.kind == "drag":
        return [f"{m.id} drags {m.by} along: {_path(m.path)} ({m.rule or 'MAN-10'})"]
    if m.kind == "dragged":
        return [f"{m.id} is dragged by {m.by} to {end[0]},{end[1]} ({m.rule or 'MAN-10'})"]
    if m.kind == "settle":
        return [f"{m.id} recovers in a shared square and takes the nearest free one, {end[0]},{end[1]} "
                f"({m.rule or 'MOV-16'}; option shared_square_on_recovery)"]  # fmt: skip
    if m.part > 0:
        return [f"{m.id} {m.kind}s on: {_path(m.path)}"]
    if m.budget_ft is None:
        return [f"{m.id} {m.verb} {m.cost_ft} ft to {end[0]},{end[1]}"]
    return [f"{m.id} {m.verb} {m.cost_ft} ft: {_path(m.path)} (up to {m.budget_ft} ft)"]


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


def fight_summary(state: Encounter, events: Iterable[Event]) -> list[str]:
    """The end of a fight in a few lines: rounds, who dropped (at any point), died or fled, the damage each
    dealt with its attacks and the damage each took from everything."""
    dealt: dict[str, int] = {}
    taken: dict[str, int] = {}
    dropped: list[str] = []
    for e in events:
        if isinstance(e, ev.AttackMade) and e.hit and e.damage:
            dealt[e.attacker] = dealt.get(e.attacker, 0) + e.damage
            taken[e.target] = taken.get(e.target, 0) + e.damage
        elif isinstance(e, ev.CreatureChanged):
            if e.damage is not None:
                taken[e.id] = taken.get(e.id, 0) + e.damage.amount
            if e.state.hp == 0 and e.id not in dropped:
                dropped.append(e.id)
    r = state.result
    out = [f"Rounds: {r.round if r is not None else state.timeline.round}"]
    died = [c.id for c in state.combatants.values() if c.creature.state.has("dead")]
    fled = [c.id for c in state.combatants.values() if c.fled]
    down = [f"{c.id} ({', '.join(i.name for i in c.creature.state.conditions) or 'out of the fight'})"
            for c in state.combatants.values() if c.out_of_fight and c.id not in died and not c.fled]  # fmt: skip
    back = [cid for cid in dropped if cid not in died and state.combatants[cid].creature.state.hp > 0]
    out.append(f"Dropped: {', '.join(cid for cid in dropped if cid not in died) or 'nobody'}")
    if down:
        out.append(f"Still down: {', '.join(down)}")
    if back:
        out.append(f"Back on their feet: {', '.join(back)}")
    out.append(f"Died: {', '.join(died) or 'nobody'}")
    if fled:
        out.append(f"Fled: {', '.join(fled)}")
    for c in state.combatants.values():
        out.append(f"  {c.id} ({c.side}): dealt {dealt.get(c.id, 0)} with attacks, took {taken.get(c.id, 0)}")
    return out
