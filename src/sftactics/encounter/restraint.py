"""What a held, pinned or panicked creature may not do (CON-20, CON-26, CON-28), checked before its command is
handled, so that the refusal names the condition and not a generic speed or action rule.

* **grappled** (CON-20): it cannot move (no move, step, withdraw, run, charge, crawl or minimum movement) and
  takes no action that needs two hands (an attack with a weapon wielded in both hands);
* **pinned** (CON-28): it cannot move either, and takes no action that needs a limb (attacks, throwing,
  drawing, reloading, handling items, standing up, first aid...) except trying to get free: grappling its
  grappler back or escaping (``escape``, or a grapple maneuver against its grappler, which the maneuver rules
  allow). Verbal and mental actions (a feint, a spell-like ability, total defense) stay possible;
* **panicked** (CON-26): it flees and does nothing else: only movement away (not a charge), total defense
  when cornered, abilities used to flee, escaping a grapple, and ending or delaying its turn.
"""

from __future__ import annotations

from typing import Any, Final

from sftactics.core.errors import RuleViolation, SftError
from sftactics.encounter.state import Combatant
from sftactics.sf1e import conditions as cond
from sftactics.sf1e.general import hands_needed
from sftactics.sf1e.statblock import Weapon

#: Commands that move the actor out of its space.
MOVES: Final = frozenset({"move", "guarded_step", "withdraw", "run", "charge", "crawl", "minimum_move"})
#: Commands that need a hand or another limb (CON-28).
LIMBS: Final = frozenset(
    {
        "attack",
        "full_attack",
        "charge",
        "throw_grenade",
        "covering_fire",
        "harrying_fire",
        "coup_de_grace",
        "reload",
        "draw",
        "sheathe",
        "manipulate",
        "change_grip",
        "first_aid",
        "stand_up",
    }
)
#: Commands whose weapon may need both hands (CON-20).
WEAPON_COMMANDS: Final = frozenset(
    {"attack", "full_attack", "charge", "covering_fire", "harrying_fire", "coup_de_grace"}
)
#: What a panicked creature may still do (CON-26).
PANIC_ALLOWED: Final = (MOVES - {"charge"}) | frozenset(
    {"total_defense", "use_ability", "escape", "end_turn", "delay", "resume", "drop_item", "stand_up"}
)


def _weapons(c: Combatant, cmd: Any) -> list[Weapon]:
    stat = c.creature.stat
    names = [getattr(cmd, "weapon", None)]
    if getattr(cmd, "second_weapon", None) is not None:
        names.append(cmd.second_weapon)
    out = []
    for name in names:
        if name is None:
            if stat.weapons:
                out.append(stat.weapons[0])
            continue
        try:
            out.append(stat.weapon(name))
        except SftError:  # an unknown weapon is the handler's to refuse
            continue
    return out


def check(c: Combatant, cmd: Any) -> None:
    """Refuse ``cmd`` by ``c`` when grappled, pinned or panicked forbid it (see the module docstring)."""
    kind = cmd.type
    active = cond.active(c.creature)
    if "panicked" in active and kind not in PANIC_ALLOWED:
        raise RuleViolation("CON-26", f"{c.id} is panicked: it can only flee ({kind.replace('_', ' ')} refused)")
    if "pinned" in active:
        if kind in MOVES:
            raise RuleViolation("CON-28", f"{c.id} is pinned: it cannot move (only try to get free)")
        if kind in LIMBS:
            what = kind.replace("_", " ")
            raise RuleViolation("CON-28", f"{c.id} is pinned: no {what}, only trying to get free")
    if "grappled" in active:
        if kind in MOVES:
            raise RuleViolation("CON-20", f"{c.id} is grappled: it cannot move out of its space")
        if kind in WEAPON_COMMANDS:
            for w in _weapons(c, cmd):
                if hands_needed(w) >= 2:
                    raise RuleViolation("CON-20", f"{c.id} is grappled: no two-handed actions ({w.name})")
