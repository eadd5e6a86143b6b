"""The action economy of one turn (ACT-01..08, CF-09, CF-17).

A turn offers one standard, one move and one swift action, or one full action instead (ACT-02, ACT-03).
A standard action may be spent as a move or a swift action, and a move action as a swift action. A full
action needs all three unspent and unrestricted (CF-17, ACT-04). In the surprise round a combatant takes a
standard *or* a move action, plus a swift action (CF-09); staggered works the same way (CON-33); nauseated
allows a single move action (CON-22); conditions such as dazed or stunned allow nothing.

:func:`take` answers which slot an action of a kind would use, or raises ``RuleViolation`` naming the rule.
"""

from __future__ import annotations

from typing import Literal

from sftactics.core.errors import RuleViolation
from sftactics.encounter.state import Combatant, Slot
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import stats

Kind = Literal["standard", "move", "swift", "full"]

#: The slots an action of each kind may use, in order of preference (downgrades, ACT-02).
USABLE: dict[str, tuple[Slot, ...]] = {
    "standard": ("standard",),
    "move": ("move", "standard"),
    "swift": ("swift", "move", "standard"),
    "full": ("full",),
}


def _blocker(c: Combatant, test: str) -> tuple[str, str]:
    """(condition name, rule) of the first condition that forbids ``test``."""
    for name, d in cond.active(c.creature).items():
        a = d.actions
        if (
            (test == "any" and a.none)
            or (test == "full" and not a.full)
            or (test == "standard" and not a.standard)
            or (test == "move" and not a.move)
            or (test == "swift" and not a.swift)
            or (test == "single" and a.move_or_standard_only)
        ):
            return name, d.rule
    return "", "CF-17"


def take(c: Combatant, kind: Kind, *, surprise: bool = False, what: str = "") -> Slot:
    """The slot ``c`` would spend on an action of ``kind`` this turn; refuses with the rule if none is left."""
    what = what or f"a {kind} action"
    limits = stats.action_limits(c.creature)
    spent = list(c.spent)
    if limits.none:
        name, rule = _blocker(c, "any")
        raise RuleViolation(rule, f"{c.id} can take no actions ({name or 'restricted'})")
    if "full" in spent:
        raise RuleViolation("ACT-03", f"{c.id} has taken a full action this turn: nothing else is left")
    if kind == "full":
        if surprise:
            raise RuleViolation("CF-09", "no full actions in the surprise round")
        if not limits.full or limits.move_or_standard_only:
            name, rule = _blocker(c, "full")
            raise RuleViolation(rule, f"{c.id} cannot take full actions while {name or 'restricted'} (CF-17)")
        if spent:
            raise RuleViolation("ACT-03", f"a full action needs the whole turn; {c.id} already used {', '.join(spent)}")
        return "full"
    allowed = {"standard": limits.standard, "move": limits.move, "swift": limits.swift}
    single = surprise or limits.move_or_standard_only
    for slot in USABLE[kind]:
        if slot in spent or not allowed.get(slot, False):
            continue
        if single and slot in ("standard", "move") and ({"standard", "move"} & set(spent)):
            continue
        return slot
    if single and kind in ("standard", "move") and ({"standard", "move"} & set(spent)):
        if surprise:
            raise RuleViolation("CF-09", f"in the surprise round {c.id} takes a standard or a move action, not both")
        name, rule = _blocker(c, "single")
        raise RuleViolation(rule, f"{c.id} is {name}: a move or a standard action each round, not both")
    if not allowed.get(kind, True):
        name, rule = _blocker(c, kind)
        raise RuleViolation(rule, f"{c.id} cannot take {kind} actions while {name or 'restricted'}")
    barred = [slot for slot in USABLE[kind] if slot not in spent and not allowed.get(slot, False)]
    if barred:  # what is left would do, but a condition forbids it (nauseated: no standard action)
        name, rule = _blocker(c, barred[0])
        if name:
            raise RuleViolation(rule, f"{c.id} has no action left for {what}: while {name} it cannot take a "
                                      f"{barred[0]} action (used: {', '.join(spent)})")  # fmt: skip
    raise RuleViolation("ACT-02", f"{c.id} has no action left for {what} (used: {', '.join(spent) or 'nothing'})")


def remaining(c: Combatant, *, surprise: bool = False) -> list[str]:
    """The kinds of action still available (for displays and policies)."""
    out: list[str] = []
    kinds: tuple[Kind, ...] = ("standard", "move", "swift", "full")
    for kind in kinds:
        try:
            take(c, kind, surprise=surprise)
        except RuleViolation:
            continue
        out.append(kind)
    return out


def can_react(c: Combatant) -> tuple[bool, str]:
    """Whether ``c`` may take a reaction now (ACT-05, CF-15, CON-18): one per round, not before it has acted
    in this combat, not while flat-footed or otherwise barred."""
    if not c.acted:
        return False, "CF-15"
    if c.reaction_used:
        return False, "ACT-05"
    if not stats.action_limits(c.creature).reaction:
        for d in cond.active(c.creature).values():
            if not d.actions.reaction:
                return False, d.rule
        return False, "CF-17"
    return True, ""
