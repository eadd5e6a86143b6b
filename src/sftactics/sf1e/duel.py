"""A one-on-one exchange of attacks between two stat blocks, for the demo until the encounter engine exists.

No map: both combatants are in reach. Initiative is rolled (CF-03, ties by the higher modifier and then a
roll-off, CF-04); each turn a combatant who can act attacks with its first weapon; a dying character spends
Resolve to stabilize when it can (INJ-11) and stays in the fight at the start of a later turn (INJ-12); dying
characters lose Resolve at the end of their turns (INJ-04). Pure: returns the lines of the log.
"""

from __future__ import annotations

from dataclasses import dataclass

from sftactics.core.errors import RuleViolation
from sftactics.dice.source import DiceSource
from sftactics.sf1e import injury, stats
from sftactics.sf1e.attack import Situation, resolve_attack
from sftactics.sf1e.statblock import StatBlock
from sftactics.sf1e.state import Creature


@dataclass(frozen=True, slots=True)
class DuelResult:
    winner: str | None
    rounds: int
    combatants: tuple[Creature, ...]
    lines: tuple[str, ...]


def out_of_fight(c: Creature) -> bool:
    return c.has("dead") or c.has("unconscious") or c.has("dying") or c.has("stable")


def roll_initiative(cs: list[Creature], dice: DiceSource) -> tuple[list[Creature], list[str]]:
    """Initiative order, highest first; ties go to the higher modifier, then to a roll-off (CF-04)."""
    rolled = []
    lines = []
    for c in cs:
        mod = stats.initiative(c).total
        r = dice.d20(f"{c.name} initiative")
        rolled.append((r + mod, mod, c))
        lines.append(f"{c.name} initiative: d20 {r} {mod:+d} = {r + mod}")
    keys = {id(c): (total, mod) for total, mod, c in rolled}
    order = sorted((c for _, _, c in rolled), key=lambda c: keys[id(c)], reverse=True)
    for i in range(len(order) - 1):
        a, b = order[i], order[i + 1]
        while keys[id(a)] == keys[id(b)]:
            ra, rb = dice.d20(f"{a.name} roll-off"), dice.d20(f"{b.name} roll-off")
            lines.append(f"tie: roll-off {a.name} {ra}, {b.name} {rb}")
            if ra != rb:
                if rb > ra:
                    order[i], order[i + 1] = b, a
                break
    return order, lines


def run_duel(first: StatBlock, second: StatBlock, dice: DiceSource, *, rounds: int = 20) -> DuelResult:
    a = Creature.fresh(first)
    b = Creature.fresh(second, second.name if second.name != first.name else second.name + " (2)")
    order, lines = roll_initiative([a, b], dice)
    lines.append("Order: " + ", ".join(c.name for c in order))
    live = {c.id: c for c in order}
    last_round = 0
    for rnd in range(1, rounds + 1):
        last_round = rnd
        lines.append(f"--- Round {rnd} ---")
        for cid in [c.id for c in order]:
            me = live[cid]
            foe_id = next(k for k in live if k != cid)
            if me.has("dead"):
                continue
            if me.has("stable") and me.state.rp >= 1:
                try:
                    r = injury.stay_in_the_fight(me, rnd)
                    me = r.creature
                    lines += [f"{me.name}: {x}" for x in r.lines]
                except RuleViolation as e:
                    lines.append(f"{me.name} cannot stay in the fight yet: {e}")
            if me.has("dying"):
                try:
                    r = injury.stabilize_with_resolve(me, rnd)
                    me = r.creature
                    lines += [f"{me.name}: {x}" for x in r.lines]
                except RuleViolation as e:
                    lines.append(f"{me.name} cannot stabilize: {e}")
            if not out_of_fight(me) and not live[foe_id].has("dead"):
                foe = live[foe_id]
                weapon = me.stat.weapons[0]
                res = resolve_attack(me, foe, weapon, dice, Situation(ctx=injury.InjuryContext(round=rnd)))
                lines += res.lines()
                live[foe_id] = res.defender
            if me.has("dying"):
                r = injury.dying_end_of_turn(me, rnd)
                me = r.creature
                lines += [f"{me.name}: {x}" for x in r.lines]
            live[cid] = me
            standing = [c for c in live.values() if not out_of_fight(c)]
            if len(standing) <= 1:
                break
        standing = [c for c in live.values() if not out_of_fight(c)]
        if len(standing) <= 1:
            break
    standing = [c for c in live.values() if not out_of_fight(c)]
    winner = standing[0].name if len(standing) == 1 else None
    lines.append("=== Result ===")
    for c in live.values():
        st = c.state
        conds = ", ".join(x.name for x in st.conditions) or "fighting"
        lines.append(f"{c.name}: SP {st.sp}, HP {st.hp}, RP {st.rp} ({conds})")
    lines.append(f"Winner: {winner}" if winner else f"No winner after {last_round} rounds")
    return DuelResult(winner, last_round, tuple(live.values()), tuple(lines))
