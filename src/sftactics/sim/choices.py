"""What the simulation policies do with a stat block's special abilities, spells and gear (issue 16).

The policies in :mod:`sftactics.sim.policies` call in here at a few points of a turn:

* :func:`draw_weapon`: a combatant whose hands are tracked and hold no weapon draws its first weapon (a move
  action, ACT-32).
* :func:`heal`: a healing ability or spell (``specials`` with ``heal``) goes to the ally who needs it most and
  is in reach: a dying ally first, then one stable at 0 HP, then a badly hurt one (no Stamina left and at most
  half its Hit Points), the healer itself included; a touch heal moves next to the patient first when a move
  and a standard action are both left and the move provokes nothing. Heals that cost Resolve Points (healing
  channel) keep 1 Resolve Point and count for :data:`RESOLVE_HEAL` of their mean against a spell's; a healer
  who is itself a patient heals itself as a move action first when it can (and its turn goes on), and a heal of
  every ally within its range (a full action) comes first when it reaches two patients or more.
* :func:`simple_blast`: the simple policy's use of an area ability that catches at least two foes and no
  friend (as it throws grenades).
* :func:`ability_plans`: the tactical policy's options from where it stands: each damaging ability on each
  foe in range and each area ability at each placement that catches foes and no friend, valued as the
  tactical policy values attacks (expected damage against each target's pool, weighed by its threat), less the
  attacks of opportunity a spell or spell-like ability provokes, and scaled by :data:`LIMITED` when its uses
  are limited (a spell slot is worth keeping for later).
* :func:`rider_value`: the value of the conditions a grenade's explosion gives (blinded, staggered, burning...)
  for the tactical policy's grenade choice; riders the kernel never sees (it refuses such grenades).

Uses are the engine's: the command carries the stat block's ``uses`` and ``pool``, the combatant's
``uses_spent`` counts them and the engine refuses one too many (SPA-02), so a policy needs no memory of them.
The compiled kernel makes the same choices by the same numbers (``sim.kernel.abilities``, ``sim.kernel.classes``
for the class abilities: Resolve-costed heals, trick attack, get 'em), except for abilities
that give conditions, take other than a standard action or fill an emanation, and grenades with riders or saves
other than Reflex half (``sim.kernel.model.unsupported``: the engine plays those fights).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sftactics.encounter import space
from sftactics.encounter.budget import Kind
from sftactics.encounter.class_moves import use_command
from sftactics.encounter.commands import AreaSpec, Command, Draw, Move, UseAbility
from sftactics.encounter.engine import Fight
from sftactics.encounter.policy import try_command
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid import areas, geometry
from sftactics.grid.geometry import DIRECTION_NAMES, footprint_distance_ft
from sftactics.grid.lines import has_line_of_effect
from sftactics.sf1e import stats
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.usable import UsableAbility
from sftactics.sim import odds
from sftactics.sim.perception import able_enemies, allies

if TYPE_CHECKING:
    from sftactics.sim.policies import _Turn

Square = tuple[int, int]

#: a limited ability's value is scaled by this (uses spent now are not there later)
LIMITED = 0.85
#: share of a foe's threat per round a condition from a grenade or ability takes away (durations capped at 3)
CONDITION_WEIGHT = {"blinded": 0.4, "staggered": 0.3, "entangled": 0.2, "dazzled": 0.1, "sickened": 0.1,
                    "shaken": 0.1, "deafened": 0.03, "off-target": 0.2, "flat-footed": 0.1}  # fmt: skip
_MAX_ROUNDS = 3.0


# ---------------------------------------------------------------- uses
def uses_left(me: Combatant, ab: UsableAbility) -> int | None:
    """Uses of ``ab`` (or its pool) left in this fight; None when unlimited."""
    if ab.uses is None:
        return None
    return ab.uses - me.uses_spent.get(ab.pool_name, 0)


def usable(me: Combatant) -> list[UsableAbility]:
    """Its abilities with uses left."""
    return [a for a in me.creature.stat.specials if a.uses is None or (uses_left(me, a) or 0) > 0]


def command(
    me: Combatant, ab: UsableAbility, *, target: str | None = None, area: AreaSpec | None = None,
    weapon: str | None = None, to: Square | None = None,
) -> UseAbility:  # fmt: skip
    """The ``use_ability`` command that uses ``ab`` (``encounter.class_moves.use_command``)."""
    return use_command(me.id, ab, target=target, area=area, weapon=weapon, to=to)


def _ready(fight: Fight, cid: str, kind: Kind = "standard") -> Combatant | None:
    """The combatant, if it is its turn, it is able and not confused, and it can still take ``kind``."""
    from sftactics.encounter import confusion
    from sftactics.sim.policies import _can, _my_turn

    if not _my_turn(fight, cid):
        return None
    s = fight.state
    me = s.get(cid)
    if me.out_of_fight or confusion.forced_targets(s, cid) is not None or not _can(me, kind, s):
        return None
    return me


# ---------------------------------------------------------------- weapons in hand
def draw_weapon(fight: Fight, cid: str) -> bool:
    """Draw the first weapon of the stat block when hands are tracked and none is held (ACT-32)."""
    s = fight.state
    me = s.get(cid)
    if me.in_hand is None or me.out_of_fight:
        return False
    weapons = [w for w in me.creature.stat.weapons if w.category not in ("natural", "unarmed") and not w.is_grenade]
    if not weapons or any(w.name in me.in_hand for w in weapons):
        return False
    if _ready(fight, cid, "move") is None:
        return False
    return any(w.name not in me.on_ground and try_command(fight, Draw(actor=cid, weapon=w.name)) for w in weapons)


# ---------------------------------------------------------------- healing
def _need(state: Encounter, c: Combatant) -> int:
    """How badly ``c`` needs healing: 3 dying, 2 stable at 0 HP, 1 badly hurt, 0 not at all."""
    cr = c.creature
    if cr.has("dead") or c.fled:
        return 0
    if cr.has("dying"):
        return 3
    if cr.state.hp == 0:
        return 2
    max_hp = stats.max_hp(cr).total
    if cr.state.sp == 0 and 2 * cr.state.hp <= max_hp:
        return 1
    return 0


def _within(me: Combatant, other: Combatant, range_ft: int) -> bool:
    if me.id == other.id:
        return True
    a, b = space.footprint(me), space.footprint(other)
    if a is None or b is None:
        return True
    return footprint_distance_ft(a, b) <= max(range_ft, 5)


def heal(fight: Fight, cid: str, *, self_move: bool = True) -> bool:
    """Heal the ally who needs it most with a healing ability in reach (see the module docstring). Without
    ``self_move`` (the simple policy, whose turn ends once its move action is spent) no heal of the user as a
    move action."""
    me = _ready(fight, cid)
    if me is None:
        return False
    s = fight.state
    patients = sorted(
        ((n, c) for c in allies(s, me.side, able=False) for n in [_need(s, c)] if n > 0),
        key=lambda x: (-x[0], x[1].creature.state.hp, x[1].id),
    )
    if not patients:
        return False
    paid = [a for a in usable(me) if a.is_heal and _affordable(me, a)]
    selfish = [a for a in paid if a.target == "self" and a.action == "move"]
    if self_move and selfish and any(c.id == cid for _, c in patients) and _ready(fight, cid, "move") is not None:
        ab = max(selfish, key=lambda a: (_mean(a.heal), a.name))
        if try_command(fight, command(me, ab)):
            return False  # a move action: the turn goes on (sim.class_choices)
    me = fight.state.get(cid)
    burst = [a for a in paid if a.target == "allies" and a.action == "full"]
    if burst and _ready(fight, cid, "full") is not None:
        near = [c for _, c in patients if _within(me, c, burst[0].range_ft)]
        if len(near) >= 2:
            ab = max(burst, key=lambda a: (_mean(a.heal), a.name))
            if try_command(fight, command(me, ab)):
                return True
    heals = [a for a in paid if a.target == "ally"]
    if not heals:
        return False
    ab = max(heals, key=lambda a: (_heal_worth(a), a.name))
    threatened = bool(_threats(s, me))
    for need, patient in patients:
        if need < 3 and threatened and _provokes(ab):
            continue  # not worth an attack of opportunity that would spoil the spell
        if _within(me, patient, ab.range_ft):
            return try_command(fight, command(me, ab, target=patient.id))
        spot = _spot_next_to(fight, me, patient, ab.range_ft)
        if spot is not None and try_command(fight, Move(actor=cid, to=spot)):
            after = fight.state.get(cid)
            from sftactics.sim.policies import _my_turn

            if not after.out_of_fight and _my_turn(fight, cid):
                try_command(fight, command(after, ab, target=patient.id))
            return True
    return False


#: a heal paid with Resolve Points is worth this share of its mean (Resolve also stabilizes and restores Stamina)
RESOLVE_HEAL = 0.6


def _heal_worth(ab: UsableAbility) -> float:
    return _mean(ab.heal) * (RESOLVE_HEAL if ab.resolve_cost else 1.0)


def _affordable(me: Combatant, ab: UsableAbility) -> bool:
    """Whether the user can pay the ability's Resolve cost and keep 1 Resolve Point (to stabilize if it drops)."""
    return not ab.resolve_cost or me.creature.state.rp - ab.resolve_cost >= 1


def _provokes(ab: UsableAbility) -> bool:
    return ab.provokes if ab.provokes is not None else ab.kind in ("Sp", "spell")


def _threats(state: Encounter, me: Combatant) -> list[str]:
    from sftactics.encounter import reactions
    from sftactics.encounter import threat as enc_threat

    fp = space.footprint(me)
    if fp is None:
        return []
    out = []
    for e in able_enemies(state, me.side):
        if reactions.can_take_aoo(state, e, me)[0] and any(q in enc_threat.threatened_squares(state, e)
                                                            for q in fp.squares):  # fmt: skip
            out.append(e.id)
    return out


def _spot_next_to(fight: Fight, me: Combatant, patient: Combatant, range_ft: int) -> Square | None:
    """The cheapest square of one move within ``range_ft`` of ``patient`` that provokes nothing, when a move
    and a standard action are both left."""
    from sftactics.sim.policies import TacticalPolicy, _can_move_then_standard, _Turn

    s = fight.state
    fp = space.footprint(patient)
    if fp is None or not _can_move_then_standard(me, s):
        return None
    return _Turn(TacticalPolicy(), s, me.id).adjacent_spot(fp, max(range_ft, 5))


def _mean(text: str | None) -> float:
    if text is None:
        return 0.0
    from sftactics.dice.distribution import damage_die
    from sftactics.dice.expr import parse

    return float(damage_die(parse(text), 0).mean())


# ---------------------------------------------------------------- areas
def placements(state: Encounter, me: Combatant, ab: UsableAbility) -> list[tuple[AreaSpec, frozenset[Square]]]:
    """Where ``ab``'s area can go from where ``me`` stands, with the squares each placement covers: bursts and
    spreads at grid points near the foes within range, cones from each corner of its space in each direction,
    lines toward each foe, an emanation around it."""
    grid = state.grid
    fp = space.footprint(me)
    a = ab.area
    if grid is None or fp is None or a is None:
        return []
    foes = [f for c in able_enemies(state, me.side) for f in [space.footprint(c)] if f is not None]
    out: list[tuple[AreaSpec, frozenset[Square]]] = []
    try:
        if a.shape in ("burst", "spread"):
            points = {(f.x + dx, f.y + dy) for f in foes for dx in range(f.side + 1) for dy in range(f.side + 1)}
            for p in sorted(points):
                if geometry.distance_to_point_ft(fp, p) > ab.range_ft:
                    continue
                spec = AreaSpec(shape=a.shape, size_ft=a.size_ft, at=p)
                shape = areas.burst(grid, p, a.size_ft) if a.shape == "burst" else areas.spread(grid, p, a.size_ft)
                out.append((spec, frozenset(shape.squares)))
        elif a.shape == "cone":
            corners = sorted({(fp.x + dx, fp.y + dy) for dx in (0, fp.side) for dy in (0, fp.side)})
            for corner in corners:
                for d in DIRECTION_NAMES:
                    try:
                        shape = areas.cone(grid, corner, d, a.size_ft, caster=fp)
                    except ValueError:
                        continue
                    out.append((AreaSpec(shape="cone", size_ft=a.size_ft, at=corner, direction=d),
                                frozenset(shape.squares)))  # fmt: skip
        elif a.shape == "line":
            corners = sorted({(fp.x + dx, fp.y + dy) for dx in (0, fp.side) for dy in (0, fp.side)})
            for f in foes:
                for corner in corners:
                    try:
                        shape = areas.line(grid, corner, f.anchor, a.size_ft, caster=fp)
                    except ValueError:
                        continue
                    out.append((AreaSpec(shape="line", size_ft=a.size_ft, at=corner, toward=f.anchor),
                                frozenset(shape.squares)))  # fmt: skip
        elif a.shape == "emanation":
            shape = areas.emanation(grid, fp, a.size_ft)
            out.append((AreaSpec(shape="emanation", size_ft=a.size_ft), frozenset(shape.squares - set(fp.squares))))
    except ValueError:
        return out
    return out


def _caught(state: Encounter, me: Combatant, squares: frozenset[Square]) -> tuple[list[Combatant], bool]:
    """(foes inside, whether any friend, the user included, is inside)."""
    foes = [c for c in able_enemies(state, me.side) for f in [space.footprint(c)] if f is not None
            and any(q in squares for q in f.squares)]  # fmt: skip
    friend = any(
        any(q in squares for q in f.squares)
        for c in allies(state, me.side, able=False)
        if not c.creature.has("dead")
        for f in [space.footprint(c)]
        if f is not None
    )
    return foes, friend


def simple_blast(fight: Fight, cid: str) -> bool:
    """The simple policy: the area ability whose placement catches the most foes (at least two) and no friend."""
    me = _ready(fight, cid)
    if me is None:
        return False
    best: tuple[int, UseAbility] | None = None
    for ab in usable(me):
        if ab.target != "area" or not ab.is_harmful:
            continue
        for spec, squares in placements(fight.state, me, ab):
            foes, friend = _caught(fight.state, me, squares)
            if len(foes) >= 2 and not friend and (best is None or len(foes) > best[0]):
                best = (len(foes), command(me, ab, area=spec))
    return best is not None and try_command(fight, best[1])


# ---------------------------------------------------------------- the tactical policy's values
def _effect_weapon(ab: UsableAbility) -> Weapon:
    """The ability's damage as a weapon, for the reductions of :func:`odds.reduction`."""
    return Weapon(name=ab.name, category="special", damage=ab.damage or "0")


def effect_value(t: _Turn, ab: UsableAbility, target: Combatant) -> float:
    """The tactical value of ``ab`` on one foe: its expected damage (after the attack roll, the save and the
    foe's reductions) against the foe's pool, plus the conditions it gives."""
    cr = target.creature
    p_apply = 1.0
    if ab.attack is not None:
        ac = stats.armor_class(cr, ab.attack.vs, vs="ranged" if ab.attack.ranged else "melee").total
        p_apply = odds.chance(ab.attack.bonus, ac)
    p_save = 0.0
    if ab.save is not None:
        bonus = stats.save_bonus(cr, ab.save.type, options=t.s.options).total
        p_save = odds.chance(bonus, ab.save.dc)
    negates = ab.save is not None and ab.save.on_save == "negates"
    value = 0.0
    if ab.damage is not None:
        w = _effect_weapon(ab)
        table = odds.flat_table(w.damage_expr, 0, odds.reduction(cr, w), p_apply * (1 - p_save) if negates
                                else p_apply, 0.0 if negates else p_save)  # fmt: skip
        value += t.attack_value(target, table)
    p_cond = p_apply * (1 - p_save)
    for c in ab.conditions:
        rounds = c.get("rounds")
        value += _condition_value(t, target, str(c.get("name", "")), float(rounds) if isinstance(rounds, int) else 1.0,
                                  p_cond)  # fmt: skip
    return value


def _condition_value(t: _Turn, target: Combatant, name: str, rounds: float, p: float) -> float:
    weight = CONDITION_WEIGHT.get(name, 0.0)
    return p * weight * min(rounds, _MAX_ROUNDS) * t.threat(target)


def rider_value(t: _Turn, target: Combatant, weapon: Weapon, p: float) -> float:
    """The value of a grenade's riders on one foe who gets them with chance ``p`` (the grenade lands and the
    foe fails its save): blinded, staggered and the like take a share of its threat for their (average, at most
    three) rounds; burning deals its damage on each of them."""
    if weapon.area is None or not weapon.area.riders:
        return 0.0
    value = 0.0
    for r in weapon.area.riders:
        if r.rounds is not None:
            rounds = _mean(r.rounds)
        elif r.minutes is not None:
            rounds = 10 * _mean(r.minutes)
        else:
            rounds = _MAX_ROUNDS
        if r.condition == "burning":
            per_round = _mean(r.value or "1d6")
            pool = t.pool(target)
            value += p * t.threat(target) * min(1.0, per_round * min(rounds, _MAX_ROUNDS) / pool)
        else:
            value += _condition_value(t, target, r.condition, rounds, p)
    return value


def ability_plans(t: _Turn) -> list[tuple[float, list[Command], str, str | None]]:
    """(value, commands, label, target) for each damaging ability the actor can use from where it stands, the
    cost of the attacks of opportunity a spell provokes included (not the risk of staying there: the caller
    adds it, as for its attacks)."""
    me, s = t.me, t.s
    from sftactics.sim.policies import _can

    if not me.creature.stat.specials or not _can(me, "standard", s):
        return []
    out: list[tuple[float, list[Command], str, str | None]] = []
    here = me.position
    threat_here = t.threatened_by(here) if here is not None else []
    for ab in usable(me):
        if not ab.is_harmful or ab.action not in ("standard", "move", "swift"):
            continue
        cost = t.aoo_cost(threat_here) if _provokes(ab) else 0.0
        scale = LIMITED if ab.uses is not None else 1.0
        if ab.target == "foe":
            for f in t.targets:
                if not _within(me, f, ab.range_ft) or not _line(s, me, f):
                    continue
                v = scale * effect_value(t, ab, f) - cost
                out.append((v, [command(me, ab, target=f.id)], "ability", f.id))
        elif ab.target == "area":
            best: tuple[float, AreaSpec] | None = None
            for spec, squares in placements(s, me, ab):
                foes, friend = _caught(s, me, squares)
                if not foes or friend:
                    continue
                v = scale * sum(effect_value(t, ab, f) for f in foes) - cost
                if best is None or v > best[0]:
                    best = (v, spec)
            if best is not None:
                out.append((best[0], [command(me, ab, area=best[1])], "area ability", None))
    return out


def _line(state: Encounter, me: Combatant, other: Combatant) -> bool:
    a, b = space.footprint(me), space.footprint(other)
    if state.grid is None or a is None or b is None:
        return True
    return has_line_of_effect(state.grid, a, b)


def without_specials(enc: Encounter) -> Encounter:
    """``enc`` with no special abilities or spells on any stat block (``simulate --no-abilities``; the kernel's
    older same-fight tests). Passive abilities (a fighting style's numbers) stay: they are part of the creature's
    statistics, and the kernel plays them."""
    out = {}
    for cid, c in enc.combatants.items():
        if any(a.target != "passive" for a in c.creature.stat.specials):
            keep = tuple(a for a in c.creature.stat.specials if a.target == "passive")
            stat = c.creature.stat.model_copy(update={"specials": keep})
            c = c.model_copy(update={"creature": c.creature.model_copy(update={"stat": stat})})
        out[cid] = c
    return enc.model_copy(update={"combatants": out})


def without_class_abilities(enc: Encounter) -> Encounter:
    """``enc`` without the class abilities the compiled kernel refuses (riders, marks, Resolve costs, heals of the
    user or its allies: ``UsableAbility.is_class_ability``); spells and passive numbers stay."""
    out = {}
    for cid, c in enc.combatants.items():
        if any(a.is_class_ability for a in c.creature.stat.specials):
            keep = tuple(a for a in c.creature.stat.specials if not a.is_class_ability)
            stat = c.creature.stat.model_copy(update={"specials": keep})
            c = c.model_copy(update={"creature": c.creature.model_copy(update={"stat": stat})})
        out[cid] = c
    return enc.model_copy(update={"combatants": out})


def without_riders_and_marks(enc: Encounter) -> Encounter:
    """``enc`` without the attack riders (trick attack) and marks (get 'em); Resolve-costed heals (healing
    channel), spells and passive numbers stay. (The compiled kernel plays all of them: ``sim.kernel.classes``.)"""
    out = {}
    for cid, c in enc.combatants.items():
        specials = c.creature.stat.specials
        if any(a.rider is not None or a.mark is not None for a in specials):
            keep = tuple(a for a in specials if a.rider is None and a.mark is None)
            stat = c.creature.stat.model_copy(update={"specials": keep})
            c = c.model_copy(update={"creature": c.creature.model_copy(update={"stat": stat})})
        out[cid] = c
    return enc.model_copy(update={"combatants": out})


__all__ = [
    "ability_plans",
    "command",
    "draw_weapon",
    "heal",
    "placements",
    "rider_value",
    "simple_blast",
    "uses_left",
    "without_class_abilities",
    "without_riders_and_marks",
    "without_specials",
]
