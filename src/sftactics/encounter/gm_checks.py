"""The GM's toolbox, continued: an area effect with no one using it (a trap, an explosion: EFF-01..08, SV-09,
MOD-08, MOD-14), a check the GM calls for with its action cost (GEN-01, GEN-02, SV-01, ACT-74), the hourly
long-term stability check (INJ-13) and smothering flames (CON-05).

The numbers come from the rules modules (``sf1e.stats``, ``sf1e.injury``, ``sf1e.conditions``) and the area
code the engine already uses for grenades and abilities (``encounter.effects``); these handlers check the
request, spend the action when there is one to spend, roll from the injected dice and record events.
"""

from __future__ import annotations

from typing import Final

from sftactics.core.breakdown import BonusType, Breakdown, Term
from sftactics.core.check import CheckKind, resolve
from sftactics.core.errors import RuleViolation, SftError
from sftactics.dice import parse
from sftactics.encounter.commands import AreaEffect, Check, Smother, StabilityCheck
from sftactics.encounter.condition_saves import reflex_to_end
from sftactics.encounter.effects import area_effect, build_area
from sftactics.encounter.events import CheckMade
from sftactics.encounter.outcomes import check_data, injury_data
from sftactics.encounter.state import Combatant
from sftactics.encounter.tx import Tx
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import injury, skills, stats
from sftactics.sf1e.state import ConditionInstance

# ``Ctx`` comes from actions.py, which registers these handlers; only its type is needed here.
Ctx = object

#: the largest area template the GM may set off (a bound on the work, far past any map)
MAX_AREA_FT: Final = 1000


# ---------------------------------------------------------------- an area effect from a point
def do_area_effect(tx: Tx, cmd: AreaEffect, ctx: Ctx) -> None:
    grid = tx.state.grid
    if grid is None:
        raise RuleViolation("EFF-01", "area effects need a map")
    spec = cmd.area
    if not 5 <= spec.size_ft <= MAX_AREA_FT:
        raise SftError(f"an area is 5 to {MAX_AREA_FT} ft (got {spec.size_ft})")
    if spec.at is None:
        raise RuleViolation("EFF-01", "an area effect with no one using it needs its point of origin 'at'")
    x, y = spec.at
    if not (0 <= x <= grid.width and 0 <= y <= grid.height):
        raise RuleViolation("EFF-01", f"the point {spec.at} is off the map")
    if cmd.damage is None and not cmd.conditions:
        raise SftError(f"{cmd.name}: give damage, conditions or both")
    if cmd.damage is not None:
        parse(cmd.damage)  # a malformed expression is refused before anything happens
    conds = tuple(_condition(c.name, c.value, c.rounds, cmd.name) for c in cmd.conditions)
    area = build_area(tx, None, spec)
    area_effect(tx, "GM", cmd.name, area, damage=cmd.damage, save=cmd.save, conditions=conds, origin=area.origin)


def _condition(name: str, value: str | None, rounds: int | None, source: str) -> ConditionInstance:
    d = cond.get(name)  # an unknown condition is refused here
    if value is not None:
        parse(value)
    elif d.tick is not None and d.tick_default is None:
        raise SftError(f"{d.name} needs an amount of damage, such as '1d4' ({d.rule})")
    return ConditionInstance(name=d.name, value=value, rounds=rounds, source=source)


# ---------------------------------------------------------------- a check the GM calls for
def do_check(tx: Tx, cmd: Check, ctx: Ctx) -> None:
    from sftactics.encounter.actions import _able, _spend

    t = tx.state.get(cmd.target)
    if sum(x is not None for x in (cmd.skill, cmd.ability, cmd.save)) != 1:
        raise SftError("a check needs exactly one of 'skill', 'ability' or 'save'")
    if cmd.bonus is not None and cmd.skill is None:
        raise SftError("'bonus' stands in for a skill's printed total; give other numbers as 'modifiers'")
    if t.creature.has("dead"):
        raise RuleViolation("CON-10", f"{t.id} is dead")
    kind, base, rule = _check_bonus(t, cmd, tx)
    label = base.label + (f" ({cmd.what})" if cmd.what else "")
    if cmd.action != "none" and tx.state.timeline.turn == t.id:
        _spend(tx, _able(t), cmd.action, label, rule, ctx)  # type: ignore[arg-type]
    extra = tuple(Term(m.value, m.label, "GEN-01", BonusType(m.type)) for m in cmd.modifiers)
    bonus = base.plus(*extra) if extra else base
    r = resolve(kind, bonus, cmd.dc, tx.dice, purpose=f"{t.id} {base.label}")
    tx.emit(CheckMade(id=t.id, what=label, success=r.success, check=check_data(r)))


def _check_bonus(t: Combatant, cmd: Check, tx: Tx) -> tuple[CheckKind, Breakdown, str]:
    """The kind of d20 roll, its bonus before the GM's modifiers, and the rule of the action it takes."""
    if cmd.skill is not None:
        key = skills.skill_key(cmd.skill)
        if cmd.bonus is None and key not in t.creature.stat.skills:
            raise SftError(f"{t.id} has no {key} bonus in its stat block; give one with 'bonus'")
        bd = stats.skill_bonus(t.creature, key, bonus=cmd.bonus, ability=skills.key_ability(key))
        return CheckKind.SKILL, bd, "ACT-74"
    if cmd.ability is not None:
        return CheckKind.ABILITY, stats.ability_check_bonus(t.creature, cmd.ability), "GEN-02"
    assert cmd.save is not None
    return CheckKind.SAVE, stats.save_bonus(t.creature, cmd.save, options=tx.state.options), "SV-01"


# ---------------------------------------------------------------- long-term stability
def do_stability_check(tx: Tx, cmd: StabilityCheck, ctx: Ctx) -> None:
    from sftactics.encounter.actions import _able

    t = tx.state.get(cmd.target)
    medicine: Breakdown | None = None
    healer: Combatant | None = None
    if cmd.healer is not None:
        healer = _able(tx.state.get(cmd.healer))
        if healer.id == t.id:
            raise RuleViolation("INJ-13", f"{t.id} cannot tend itself while unconscious")
        if cmd.medicine_bonus is None and "medicine" not in healer.creature.stat.skills:
            raise SftError(f"{healer.id} has no Medicine bonus in its stat block; give one with 'medicine_bonus'")
        medicine = stats.skill_bonus(healer.creature, "medicine", bonus=cmd.medicine_bonus, ability="int")
    elif cmd.medicine_bonus is not None:
        raise SftError("'medicine_bonus' is the tending healer's: name the 'healer' too")
    res = injury.long_term_stability_check(t.creature, tx.dice, tended_medicine_bonus=medicine, hour=cmd.hour)
    *tending, con = res.checks
    if healer is not None and tending:
        med = tending[0]
        tx.emit(CheckMade(id=healer.id, what=f"Medicine check tending {t.id}, hour {cmd.hour} (INJ-13)",
                          success=med.success, check=check_data(med)))  # fmt: skip
    outcome = "dies" if res.died else "wakes" if res.became_conscious else "stays stable"
    tx.emit(CheckMade(id=t.id, what=f"Constitution check for long-term stability, hour {cmd.hour} (INJ-13): "
                      f"{outcome}", success=res.became_conscious, check=check_data(con)))  # fmt: skip
    data = injury_data(res)
    # the checks are rendered from their own events: keep only what the rule made of them
    kept = tuple(x for x in data.lines if not x.startswith(_CHECK_LINES) and " Constitution check: d20 " not in x)
    tx.creature(t.id, res.creature, injury=data.model_copy(update={"lines": kept}))


#: the stability rule's lines that only restate a check's roll (shown from the CheckMade events instead)
_CHECK_LINES: Final = ("tending healer's Medicine check:",)


# ---------------------------------------------------------------- smothering flames
def do_smother(tx: Tx, cmd: Smother, ctx: Ctx) -> None:
    from sftactics.encounter.actions import _actor, _spend

    c = _actor(tx, cmd.actor, ctx)  # type: ignore[arg-type]
    if not c.creature.has("burning"):
        raise RuleViolation("CON-05", f"{c.id} is not burning: there are no flames to smother")
    _spend(tx, c, "full", "smother the flames", "CON-05", ctx)  # type: ignore[arg-type]
    reflex_to_end(tx, c.id, "burning", smothering=True, what="Reflex save smothering the flames (CON-05)",
                  purpose=f"{c.id} smothers the flames", note=f"{c.id} smothers the flames (CON-05)")  # fmt: skip
