"""The panels printed before a prompt: the initiative tracker and what the combatant whose turn it is has left.

Pure: an :class:`~sftactics.encounter.state.Encounter` goes in, rich renderables come out."""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text

from sftactics.encounter import budget
from sftactics.encounter.engine import pending
from sftactics.encounter.state import Combatant, Effect, Encounter
from sftactics.sf1e import stats


def tracker(state: Encounter) -> Table:
    """The initiative tracker: order, counts, whose turn, side, pools, conditions and effects with their
    durations, delaying and readied flags."""
    t = state.timeline
    if t.phase == "setup":
        title = f"{state.name}: not begun"
    elif t.phase == "surprise":
        title = f"{state.name}: surprise round"
    elif t.phase == "ended":
        title = f"{state.name}: over"
    else:
        title = f"{state.name}: round {t.round}"
    # no vertical rules and no cell wider than its text, so that a terminal of 80 columns (or a pipe) shows
    # every cell whole: long conditions wrap at words instead of being cut
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1), collapse_padding=True)
    for col in ("", "Init", "Combatant", "Side", "At", "SP", "HP", "RP"):
        table.add_column(col, no_wrap=True)
    table.add_column("Conditions and effects", ratio=3, min_width=12, overflow="fold")
    table.add_column("Status", ratio=1, min_width=6, overflow="fold")
    nxt = pending(state)
    order = [cid for cid in t.order if cid in state.combatants]
    order += [cid for cid in state.combatants if cid not in order]
    for cid in order:
        c = state.combatants[cid]
        cr = c.creature
        st, stat = cr.state, cr.stat
        mark = ">" if t.turn == cid else ("next" if cid == nxt else "")
        hp = f"{st.hp}/{stat.hp}" + (f" +{st.temp_hp} temp" if st.temp_hp else "")
        table.add_row(
            Text(mark),
            Text("-" if c.initiative is None else str(c.initiative)),
            Text(cid),
            Text(c.side),
            Text("" if c.position is None else f"{c.position[0]},{c.position[1]}"),
            Text("-" if c.body2e is not None else f"{st.sp}/{stat.sp}"),  # 2E: Hit Points only
            Text(hp),
            Text("-" if c.body2e is not None else f"{st.rp}/{stat.rp}"),
            Text("; ".join(conditions_text(state, c)) or "-"),
            Text(", ".join(status_text(state, c))),
        )
    return table


def conditions_text(state: Encounter, c: Combatant) -> list[str]:
    """Each condition (with the duration of the effect that gave it, if timed) and each other timed effect."""
    if c.body2e is not None:  # a 2E creature's conditions with their values, and its persistent damage
        cr = c.body2e.creature
        out2e = ["dead"] if cr.dead else []
        out2e += [f"{k} {v}" if v > 1 or k in ("dying", "wounded", "doomed") else k for k, v in cr.conditions.items()]
        return out2e + [f"persistent {p.dice} {p.type}" for p in cr.persistent]
    effects = state.effects_on(c.id)
    used: set[int] = set()
    out: list[str] = []
    for inst in c.creature.state.conditions:
        text = inst.name + (f" {inst.value}" if inst.value else "")
        eff = next((e for e in effects if e.condition == inst and e.id not in used), None)
        if eff is not None:
            used.add(eff.id)
            text += f" ({duration_text(state, eff)})"
        elif inst.rounds is not None:
            text += f" ({inst.rounds} rounds)"
        out.append(text)
    for eff in effects:
        if eff.id not in used:
            out.append(f"{eff.name} ({duration_text(state, eff)})")
    return out


def duration_text(state: Encounter, effect: Effect) -> str:
    x = effect.expires
    if x.kind == "count":
        left = x.round - state.timeline.round
        return (f"{left} rd, " if left > 0 else "") + f"ends before count {x.count} of round {x.round}"
    return x.describe()


def status_text(state: Encounter, c: Combatant) -> list[str]:
    out: list[str] = []
    if c.delaying:
        out.append("delaying")
    if c.readied is not None:
        what = str(c.readied.command.get("type", "?"))
        watch = f" by {c.readied.watch}" if c.readied.watch else ""
        out.append(f"readied {what} ({c.readied.trigger}{watch})")
    if c.fled:
        out.append("fled")
    if c.insignificant:
        out.append("insignificant")
    if c.out_of_fight and not c.fled:
        out.append("out of the fight")
    elif c.id in state.timeline.done and state.timeline.turn != c.id:
        out.append("done")
    return out


def actions_left(c: Combatant, *, surprise: bool = False) -> str:
    """The actions ``c`` has left this turn, as a GM reads them: the unspent slots (a standard action may stand
    in for a spent move, ACT-02), one standard or one move in the surprise round (CF-09), and whether a full
    action is still possible."""
    left = budget.remaining(c, surprise=surprise)
    if not left:
        return "none"
    spent = set(c.spent)
    slots = [s for s in ("standard", "move", "swift") if s not in spent and s in left]
    parts: list[str] = []
    single = surprise or stats.action_limits(c.creature).move_or_standard_only
    if single and "standard" in slots and "move" in slots:
        parts.append("standard or move")
    else:
        for s in ("standard", "move"):
            if s in slots:
                parts.append(s + (" (or a move instead)" if s == "standard" and "move" in spent else ""))
    if "swift" in slots:
        parts.append("swift")
    text = ", ".join(parts)
    if "full" in left:
        text = f"{text} or one full action" if text else "one full action"
    return text or ", ".join(left)


def reaction_text(c: Combatant) -> str:
    """Whether ``c`` can take a reaction now, and if not the rule that says why (ACT-05, CF-15)."""
    ok, rule = budget.can_react(c)
    if ok:
        return "available"
    if rule == "ACT-05":
        return "used this round (ACT-05)"
    if rule == "CF-15":
        return "not before it has acted (CF-15)"
    return f"not now ({rule})"


def turn_panel(state: Encounter, who: str, *, dice: str = "") -> Text:
    """What ``who`` has left this turn, or would have if its turn has not started, on a line or two."""
    c = state.get(who)
    started = state.timeline.turn == who
    if not started:
        c = c.model_copy(update={"spent": (), "moved_ft": 0, "attacks_this_turn": 0, "reaction_used": False})
    out = Text()
    out.append(f"{who}'s turn" if started else f"Next: {who} (the turn starts with its first command)", style="bold")
    speed = stats.speed(c.creature).total
    if c.body2e is not None:  # the 2nd edition: three actions and a reaction (E2-42)
        b = c.body2e
        out.append(f": {b.actions} action{'s' if b.actions != 1 else ''} left; attacks {b.attacks} (the next takes "
                   f"the multiple attack penalty of attack {b.attacks + 1}); reaction "
                   f"{'ready' if b.reaction else 'used'}")  # fmt: skip
    else:
        out.append(f": left {actions_left(c, surprise=state.timeline.phase == 'surprise')}")
        if c.spent:
            out.append(f"; spent {', '.join(c.spent)}")
        out.append(f"; moved {c.moved_ft}/{speed} ft; attacks {c.attacks_this_turn}; reaction {reaction_text(c)}")
    notes = []
    delaying = [x.id for x in state.combatants.values() if x.delaying]
    if delaying and state.timeline.turn is None:
        notes.append(f"delaying: {', '.join(delaying)} (resume NAME to act now)")
    if dice:
        notes.append(f"dice: {dice}")
    if notes:
        out.append("\n" + "; ".join(notes), style="dim")
    return out


def tracker_key(state: Encounter) -> tuple[object, ...]:
    """What the initiative tracker is about: the round, the order, whose turn, who delays, readies or is out.
    The session prints the tracker again only when this changes (or on request)."""
    t = state.timeline
    flags = tuple((c.id, c.delaying, c.readied is not None, c.out_of_fight, c.fled) for c in state.combatants.values())
    return (t.phase, t.round, t.order, t.turn, pending(state), flags, state.result is not None)
