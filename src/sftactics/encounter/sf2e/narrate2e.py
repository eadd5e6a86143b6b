"""The 2E events as lines a GM can read, from their data alone (``narrate`` hands them here)."""

from __future__ import annotations

from typing import Any

from sftactics.encounter.outcomes import BreakdownData
from sftactics.encounter.sf2e.events2e import (
    Acted2e,
    Body2eChanged,
    Check2eData,
    Check2eMade,
    Creature2eChanged,
    LedgerData,
    Strike2eMade,
)
from sftactics.encounter.state import Combatant


def parts_text(b: BreakdownData) -> str:
    """``+4 Dex modifier, +5 trained proficiency...``: the terms with their kinds."""
    return ", ".join(f"{t.value:+d}{'' if t.type in ('base', 'untyped') else ' ' + t.type} {t.label}" for t in b.terms)


def terms_text(b: BreakdownData) -> str:
    """``+9 (+4 Dex modifier, +5 trained proficiency...)``: the total and its terms."""
    return f"{b.total:+d}" + (f" ({parts_text(b)})" if b.terms else "")


def check_text(c: Check2eData) -> str:
    """The check as a line: the die, the modifier, the total against the DC, the degree and why."""
    dc_word = "AC" if c.dc.label == "AC" else "DC"
    if c.natural is None:
        return f"{c.label}: {dc_word} {c.dc.total}, {c.automatic}: {c.degree}"
    rolls = f" (rolled {list(c.rolls)})" if len(c.rolls) > 1 else ""
    mod = "" if c.flat else f" {c.modifier.total:+d}"
    out = f"{c.label}: d20 {c.natural}{rolls}{mod} = {c.total} vs {dc_word} {c.dc.total}: "
    if c.why:
        out += f"{c.unshifted}, {c.why}: {c.degree}"
    else:
        out += c.degree
    return out + (f"; {c.note}" if c.note else "")


def check_detail(c: Check2eData) -> list[str]:
    """The modifier's and the DC's terms (verbose logs)."""
    if c.natural is None or c.flat:
        return []
    return [f"    modifier {terms_text(c.modifier)}; {c.dc.label} {c.dc.total} ({parts_text(c.dc)})"]


def step_text(x: LedgerData) -> str:
    return f"{x.step}: {x.detail}" + (f" [{x.rule}]" if x.rule else "")


def event_lines(e: Any, *, verbose: bool = True) -> list[str]:
    match e:
        case Acted2e():
            if not verbose:
                return []
            cost = {"1": "1 action", "2": "2 actions", "3": "3 actions"}.get(e.cost, e.cost)
            return [f"{e.id}: {e.action} ({cost}; {e.left} left)"]
        case Body2eChanged():
            return []
        case Check2eMade():
            out = [f"  {e.id} {e.what}: {check_text(e.check)}"]
            return out + (check_detail(e.check) if verbose else []) + [f"  {n}" for n in e.notes]
        case Strike2eMade():
            return strike_lines(e, verbose=verbose)
        case Creature2eChanged():
            return [f"  {step_text(x)}" for x in e.steps] + [f"  {n}" for n in e.notes]
    return []


def strike_lines(e: Strike2eMade, *, verbose: bool = True) -> list[str]:
    nth = "" if e.attack_number == 1 else f", attack {e.attack_number} this turn"
    if not verbose:
        dealt = f" for {e.total}" if e.degree in ("success", "critical success") else ""
        return [f"{e.attacker} Strikes {e.target} with {e.weapon}{nth}: {e.degree}{dealt}"]
    out = [f"  {e.attacker} Strikes {e.target} with {e.weapon}{nth}"]
    out += [f"  {n}" for n in e.notes]
    if e.targeting is not None:
        out.append(f"  {check_text(e.targeting)}")
    if e.attack is not None:
        out.append(f"  {check_text(e.attack)}")
        out += check_detail(e.attack)
    out += [f"  {step_text(x)}" for x in e.damage]
    if e.damage:
        out.append(f"  => {e.total} damage to {e.target}")
    return out


def summary_line(c: Combatant) -> str:
    """A 2E combatant's line in the end-of-fight summary: HP, conditions, persistent damage, Hero Points."""
    assert c.body2e is not None
    cr = c.body2e.creature
    conds = [f"{k} {v}" if v > 1 or k in ("dying", "wounded", "doomed", "frightened") else k
             for k, v in cr.conditions.items()]  # fmt: skip
    conds += [f"persistent {p.dice} {p.type}" for p in cr.persistent]
    if cr.dead:
        conds.insert(0, "dead")
    pos = f" at {c.position[0]},{c.position[1]}" if c.position else ""
    temp = f" (+{cr.temp_hp} temp)" if cr.temp_hp else ""
    hero = f"; Hero Points {cr.hero_points}" if cr.player else ""
    return f"{c.id} ({c.side}){pos}: HP {cr.hp}/{cr.max_hp}{temp}{hero}; {', '.join(conds) or '-'}"
