"""An encounter compiled into flat arrays for the compiled fight kernel (:mod:`sftactics.sim.kernel.fight`).

Every number here is computed by the rules modules themselves, once per encounter: attack bonuses
(``sf1e.stats.attack_bonus`` with the target's own terms), the AC each attack targets (``sf1e.attack.target_ac``),
damage bonuses, saves, initiative modifiers, the Resolve a creature needs to stabilize, critical hit DCs, range
penalties (``grid.geometry.check_range``), cover bonuses (``grid.cover.cover_terms``), the flanking bonus, and
what a target's defenses leave of every possible amount of damage of every kind it can take
(``sf1e.damage.mitigate``, one table row per damage profile), and who threatens with what (``encounter.threat``:
the weapons that can make attacks of opportunity and their reaches). The kernel only adds these numbers up, rolls
the dice and keeps the books, so a rule still has one place where it is written.

:func:`unsupported` says why an encounter is outside what the kernel plays (then the engine plays it);
:func:`compile_encounter` builds the :class:`Model`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from sftactics.core.breakdown import Breakdown
from sftactics.dice.expr import DiceExpr, DiceTerm, Part, parse
from sftactics.dice.source import SeededDice
from sftactics.encounter import space
from sftactics.encounter import threat as enc_threat
from sftactics.encounter import thrown as thrown_weapons
from sftactics.encounter.effects import grenade_save_dc
from sftactics.encounter.state import Combatant, Encounter
from sftactics.grid.cover import CoverKind, cover_terms
from sftactics.grid.flanking import FLANKING_BONUS
from sftactics.grid.geometry import check_range
from sftactics.grid.options import DEFAULT_OPTIONS as GRID_DEFAULTS
from sftactics.grid.space import Size, is_sub_square
from sftactics.grid.squeezing import has_narrow_squares
from sftactics.sf1e import conditions as cond
from sftactics.sf1e import criticals, damage, injury, stats
from sftactics.sf1e.actions_rules import INTERSECTION_AC
from sftactics.sf1e.attack import attack_terms_against, target_ac
from sftactics.sf1e.options import DEFAULT_OPTIONS, Sf1eOptions
from sftactics.sf1e.statblock import Weapon
from sftactics.sf1e.state import ConditionInstance
from sftactics.sim.kernel import bigmodel, blasts, bodies, geo, modes, parts, riders, specials, stealth
from sftactics.sim.kernel import setup as setup_mod
from sftactics.sim.kernel import sight as sight_mod
from sftactics.sim.kernel import tables as tables_mod

I32 = NDArray[np.int32]
I64 = NDArray[np.int64]
B = NDArray[np.bool_]

#: Critical effects the kernel carries out (anything else is recorded only, as the engine does).
CRIT_NONE, CRIT_BLEED, CRIT_STAGGER, CRIT_DEAFEN, CRIT_BURN, CRIT_ARC, CRIT_KNOCKDOWN = 0, 1, 2, 3, 4, 5, 6
CRIT_CORRODE = 7
#: Critical effects that give a ticking condition: (condition, kernel code, damage types if the condition's own
#: expression cannot be had). Burning always deals fire damage (``conditions.tick_expression``).
_TICKING: dict[str, tuple[str, int, frozenset[str]]] = {
    "bleed": ("bleeding", CRIT_BLEED, frozenset()),
    "burn": ("burning", CRIT_BURN, frozenset({"fire"})),
    "corrode": ("corroding", CRIT_CORRODE, frozenset({"acid"})),
}
#: Saves by index.
FORT, REF, WILL = 0, 1, 2
_SAVE_INDEX = {"fort": FORT, "ref": REF, "will": WILL}
#: Value in the range table for "out of range".
OUT_OF_RANGE = -10_000

#: Critical effects the engine carries out and the kernel does not (the engine only records every effect outside
#: ``criticals.APPLIED``, and so does the kernel).
_REFUSED_CRITICALS = criticals.APPLIED - {"bleed", "burn", "staggered", "deafen", "arc", "knockdown", "corrode"}


class Model(NamedTuple):
    """One encounter as arrays (N combatants, W weapon slots each, P damage profiles, A damage amounts)."""

    width: int
    height: int
    n: int
    # combatants [N]
    side: I32
    pc: B
    dying_rules: B
    init_mod: I32
    init_given: I32  # the total when the scenario gives it, else OUT_OF_RANGE
    hp0: I32
    sp0: I32
    temp0: I32
    rp0: I32
    max_hp: I32
    stab_cost: I32
    speed: I32
    pos0: I32
    saves: I32  # [N, 3]
    saves_down: I32  # [N, 3] while unconscious at 0 HP (dying or stable): helpless, Reflex as Dex 0
    takes_aoo: B  # takes attacks of opportunity and has a weapon that can make them (``threat.aoo_weapons``)
    zone: I32  # [N]: zone table of its longest reach with those weapons (-1: threatens nothing, ``threat.reaches``)
    body_reach: I32  # that longest reach (flanking partner)
    armed: B  # has a melee weapon (attacks with one)
    immune_crit: B
    immune_cond: B  # [N, 5]: bleeding, staggered, deafened, burning, corroding
    rank: I32  # order of the ids as strings (ties in the policies go to the lower id)
    # weapons [N, W]
    w_ok: B
    w_attack: B  # may be used for attacks (not a grenade)
    w_is_melee: B  # a melee weapon (the policy's "melee fighter" test)
    w_melee_geom: B  # attacks with it are melee attacks (melee and not thrown)
    w_reach: I32
    w_zone: I32  # zone table of the weapon's reach (-1: not a melee weapon)
    w_aoo: B  # may make attacks of opportunity (``threat.aoo_weapons``: not unarmed, not unwieldy)
    w_ndice: I32
    w_sides: I32
    w_flat: I32  # flat damage: the expression's own and the damage bonus
    w_prof: I32  # damage profile index
    w_cap: I32  # -1 without ammunition
    w_usage: I32
    w_crit: I32
    w_crit_n: I32
    w_crit_s: I32
    w_crit_prof: I32  # profile of the bleed damage
    w_crit_dc: I32
    w_crit_save: I32
    w_grenade: B
    w_radius: I32
    w_gdc: I32
    w_gsave: I32  # 1: half on a successful save (the kernel reads g_mode: every save and what it does)
    w_range: I32  # [N, W, D]: range penalty by distance in squares, OUT_OF_RANGE beyond reach
    w_top_ft: I32  # maximum range in feet (grenades)
    atk: I32  # [N, W, N] attack bonus with the target's own terms
    ac: I32  # [N, W, N] the AC the attack targets
    g_atk: I32  # [N, W] grenade attack bonus (against AC 5)
    # tables
    mit: I32  # [N, P, A] damage left after the target's defenses
    neg: B  # [N, P, A] negated (riders too)
    half: I32  # [A] half damage (rounded down)
    cover_ac: I32  # [6] by CoverKind
    cover_ref: I32  # [6]
    flank_bonus: int
    intersection_ac: int
    big_hit_first_costs: int
    massive_hp_damage: bool  # massive damage at 0 HP counts Hit Point damage (else all damage)
    grace_rounds: int  # INJ-05: a drop with 0 RP kills at the end of its turn this many rounds later
    # geometry (the grid package's own answers, as tables)
    map_id: int  # the map's id in ``geo``'s registry (cover asks the grid package on a cache miss)
    step_to: I32  # [S, 8] movement tables of a one-square land mover (``geo.map_tables``)
    step_k: NDArray[np.int8]
    step_diag: B
    hampered_diagonal_counts: bool
    flank_ally_only: bool
    zone_radius: int
    zones: B  # [Z, S, (2r+1)^2]: squares threatened around a square with the reach of table z
    b_off: I32  # [R, P+1]: burst squares per point for each grenade radius (CSR offsets into b_sq)
    b_sq: I32
    w_bidx: I32  # [N, W]: the burst table of a grenade
    atk_down: I32  # [N, W, N] attack bonus against the target while it is down (unconscious at 0 HP)
    ac_down: I32  # [N, W, N] the AC then
    # the tactical policy's numbers (:mod:`sftactics.sim.kernel.tables`; tiny placeholders unless asked for)
    tactical: bool
    tw: NDArray[np.float64]  # TacticalWeights, in TACTICAL_WEIGHTS order
    w_rank: I32  # [N, W] order of the weapon names (ties in the policies)
    w_unwieldy: B
    w_range_ft: I32  # [N, W] range increment as written (0 for melee)
    stat_pool: I32  # [N] Stamina and Hit Points of the stat block
    medicine: I32  # [N] Medicine bonus, OUT_OF_RANGE without the skill
    t_off: I64  # [N, W, N, NEEDS, 2] damage distribution of 1 or 2 attacks by the d20 roll needed: offset
    t_len: I32
    t_mean: NDArray[np.float64]
    t_hit: NDArray[np.float64]
    t_val: I32  # the distributions' values, ascending
    t_prob: NDArray[np.float64]
    g_off: I64  # [N, W, N] a grenade's damage on a target, full and halved, over a common denominator
    g_len: I32
    g_den: I64
    g_val: I32
    g_nf: I64
    g_nh: I64
    g_land: NDArray[np.float64]  # [N, W, D, 2] chance a grenade thrown this many squares reaches its point (AC 5),
    # by a thrower not squeezing or squeezing (``bigsqueeze``)
    g_half: NDArray[np.float64]  # [N, W, N, 2] chance the target (not squeezing, squeezing) makes the grenade's save
    # (0 without one)
    cover_side: I32  # [S] directions (bit (sx + 1) * 3 + sy + 1) with a cover object or low obstacle next to it
    charge_block: B  # [S] squares a charge's line may not cross (walls, obstacles, difficult terrain)
    # bodies (:mod:`sftactics.sim.kernel.bodies`)
    pr_atk: I32  # [N, W, N, 8] attack bonus by (attacker prone, target prone, target down); tiny if nobody falls
    pr_ac: I32  # [N, W, N, 8] the AC then
    prone0: B  # [N] starts prone
    immune_prone: B  # [N]
    # grenades of every kind (:mod:`sftactics.sim.kernel.blasts`)
    g_mode: I32  # [N, W, 2]: the save (index, -1 for none) and what a success does (blasts.ON_*)
    g_rider: I32  # [N, W, RIDERS, R_COLUMNS]: the conditions the explosion gives
    g_rval: NDArray[np.float64]  # [N, W, RIDERS, 2]: the tactical policy's numbers for them
    prof_nl: B  # [P] the profile's damage is nonlethal (DMG-10)
    linger: B  # [N] an NPC without Resolve that lingers 3 turns at 0 HP (option npc_without_rp_at_zero, INJ-07)
    start_ticks: I32  # [N, 1 + START_BURNS, 4]: the bleed and the burns a creature starts with (bodies.T_*)
    start_bleed_last: B  # [N]: its bleed ticks after its burns
    w_neg: I32  # [N, W] the negative terms of the damage (DMG-05: a roll they bring below 1 deals 1 nonlethal)
    w_min_prof: I32  # [N, W] the profile of that 1 nonlethal damage
    # special abilities and spells (:mod:`sftactics.sim.kernel.specials`)
    ab: specials.Specials
    # who sees whom (:mod:`sftactics.sim.kernel.sight`)
    sight: bool = False  # walls inside the map and awareness tracked: awareness follows the lines of sight
    dim: B = np.zeros(1, dtype=np.bool_)  # [S] dim squares (concealment, VIS-03)
    dim_miss: B = np.zeros(1, dtype=np.bool_)  # [N] its attacks face that concealment (no low-light vision...)
    dark: B = np.zeros(1, dtype=np.bool_)  # [S] dark squares (VIS-04)
    dv_ft: I32 = np.zeros(1, dtype=np.int32)  # [N] how far its darkvision sees
    dark_miss: B = np.zeros(1, dtype=np.bool_)  # [N] its attacks face total concealment against a target in the dark
    bsense_ft: I32 = np.zeros(1, dtype=np.int32)  # [N] its blindsense's reach (-1: none)
    miss_slot: I32 = np.zeros(3, dtype=np.int32)  # the tables' miss-chance slot of no, dim and dark concealment
    surprise: bool = False  # a surprise round (CF-08): some combatants are aware of their foes, some are not
    aware: B = np.ones(1, dtype=np.bool_)  # [N] acts in the surprise round (CF-09)
    atk_ff: I32 = np.zeros((1, 1, 1), dtype=np.int32)  # [N, W, N] attack bonus against the target surprised
    ac_ff: I32 = np.zeros((1, 1, 1), dtype=np.int32)  # [N, W, N] its AC then (flat-footed, CF-11)
    # movement modes (:mod:`sftactics.sim.kernel.modes`): each combatant's step tables, fliers' headings
    mv_to: I32 = np.zeros((1, 1, 8), dtype=np.int32)  # [T, S, 8] step tables, the land mover's first
    mv_k: NDArray[np.int8] = np.zeros((1, 1, 8), dtype=np.int8)  # [T, S, 8]
    mv_tab: I32 = np.zeros(1, dtype=np.int32)  # [N] the table of each combatant's mover
    fly: B = np.zeros(1, dtype=np.bool_)  # [N] moves by its fly speed (searches with headings)
    no_run: B = np.zeros(1, dtype=np.bool_)  # [N] burrows or climbs: no running, so no charge (MOV-29, MOV-30)
    hs: int = 1  # heading states per square and parity in the search buffers (9 with a flier)
    # damage rolls of several parts (:mod:`sftactics.sim.kernel.parts`; always set by ``compile_encounter``)
    w_xp: I32 = np.full((1, 1), -1, dtype=np.int32)  # [N, W] the weapon's row in the tables below (-1: one part)
    xp_n: I32 = np.zeros((1, 4), dtype=np.int32)  # [Q, PARTS] dice of each part
    xp_s: I32 = np.zeros((1, 4), dtype=np.int32)  # sides
    xp_flat: I32 = np.zeros((1, 4), dtype=np.int32)  # flat part (the damage bonus in the first typed part)
    xp_dim: I32 = np.ones((1, 4), dtype=np.int32)  # totals each part can reach (its table dimension)
    xp_off: I64 = np.zeros(2, dtype=np.int64)  # [Q + 1] the row's first cell
    xp_nl: B = np.zeros(1, dtype=np.bool_)  # [Q] nonlethal damage
    xp_mit: I32 = np.zeros((1, 1), dtype=np.int32)  # [N, cells] damage left after the target's defenses
    xp_neg: B = np.zeros((1, 1), dtype=np.bool_)  # [N, cells] negated (riders too)
    # creatures smaller than a square (MOV-03: they enter and share occupied squares; always set)
    sub: B = np.zeros(1, dtype=np.bool_)  # [N]
    # a fight already under way (the scenario's ``timeline``, ``flow._under_way``, CF-12)
    start_round: int = 0  # the round it opens (0: the fight starts from its beginning)
    start_turn: int = -1  # whose turn comes first in that round (-1: the first in the order)
    start_done: B = np.zeros(1, dtype=np.bool_)  # [N] has had its turn this round already (``acted``)
    # creatures of two squares or more (:mod:`sftactics.sim.kernel.bigmodel`; placeholders without them)
    fside: I32 = np.ones(1, dtype=np.int32)  # [N] footprint side (1: one square or less)
    big: bool = False  # someone is bigger than a square
    bg: I32 = np.full(1, -1, dtype=np.int32)  # [N] its movement tables in bg_* (-1: the one-square ones)
    bg_small: I32 = np.ones(1, dtype=np.int32)  # [G] side of the squeezed space
    bg_step_to: I32 = np.full((1, 2, 1, 8), -1, dtype=np.int32)  # [G, 2, S, 8] full and squeezed steps
    bg_step_k: NDArray[np.int8] = np.zeros((1, 2, 1, 8), dtype=np.int8)
    bg_shift: I32 = np.full((1, 2, 1, 1), -1, dtype=np.int32)  # [G, 2, S, K] squeeze shifts
    bg_stop: B = np.zeros((1, 1), dtype=np.bool_)  # [G, S] where a squeezed space may stop
    bg_sqd: int = 1
    bz: B = np.zeros((1, 1, 1), dtype=np.bool_)  # [Zb, S, box^2] what a big creature threatens per anchor
    bz_radius: int = 2
    bz_box: int = 5
    bw_dist: I64 = np.zeros(1, dtype=np.int64)  # the big movers' search: work arrays (``footprints.big_search``)
    bw_parent: I32 = np.zeros(1, dtype=np.int32)
    bw_heap: I64 = np.zeros(1, dtype=np.int64)
    bw_dist0: I64 = np.zeros(1, dtype=np.int64)  # the buffers bw_dist and bw_parent start as (``flymemo.scratch``)
    bw_parent0: I32 = np.zeros(1, dtype=np.int32)
    bw_dist1: I64 = np.zeros(1, dtype=np.int64)  # a big mover's one move and double move kept for the midpoint
    bw_parent1: I32 = np.zeros(1, dtype=np.int32)
    bw_dist2: I64 = np.zeros(1, dtype=np.int64)
    bw_parent2: I32 = np.zeros(1, dtype=np.int32)
    bw_kept: I64 = np.full(3, -1, dtype=np.int64)  # whose moves those are (-1: none), a flier's kept entries
    fm_scal: I64 = np.zeros((1, 8), dtype=np.int64)  # [E, 8] a big flier's searches kept (``kernel.flymemo``)
    fm_key: NDArray[np.uint8] = np.zeros((1, 8), dtype=np.uint8)  # [E, bytes] what each searched over
    fm_work: NDArray[np.uint8] = np.zeros(8, dtype=np.uint8)  # [bytes] the key being asked
    fm_dist: I64 = np.zeros((1, 1), dtype=np.int64)  # [E, states]
    fm_parent: I32 = np.zeros((1, 1), dtype=np.int32)  # [E, states]
    fm_best: I32 = np.full((2, 1), -1, dtype=np.int32)  # [E + 1, S] each entry's state per anchor
    fm_count: I64 = np.zeros(24, dtype=np.int64)  # the clock, recalls, searches kept, ... (``flymemo``)
    bs_key: I64 = np.full(1, -1, dtype=np.int64)  # [K] the big movers' seek fields kept (``bigsight.seek_field``)
    bs_budget: I64 = np.zeros(1, dtype=np.int64)
    bs_out: I32 = np.zeros((1, 1), dtype=np.int32)  # [K, S]
    bw_pass: B = np.ones((2, 1), dtype=np.bool_)
    bw_stop: B = np.ones((2, 1), dtype=np.bool_)
    bw_k: NDArray[np.int8] = np.zeros((2, 1), dtype=np.int8)
    bw_prov: B = np.zeros((2, 1), dtype=np.bool_)
    bw_crowd_side: I32 = np.ones(1, dtype=np.int32)  # [N] the sides of the creatures in ``st.crowd``
    fp_lit: NDArray[np.int8] = np.full((7, 1), 2, dtype=np.int8)  # [side, S] light on a space's best-lit square
    fp_sqz: B = np.zeros((7, 1), dtype=np.bool_)  # [side, S] a creature of that side standing there squeezes
    # a scenario's setup (:mod:`sftactics.sim.kernel.setup`; placeholders, never read, without one)
    setup: bool = False  # imposed awareness, imposed cover or a grapple under way
    aw0: I32 = np.full((1, 1), -1, dtype=np.int32)  # [N, N] awareness the scenario sets (-1: none)
    hide0: B = np.zeros((1, 1), dtype=np.bool_)  # [N, N] the target then hides from the observer
    held0: I32 = np.full(1, -1, dtype=np.int32)  # [N] its grappler (-1: free)
    held_d: I32 = np.zeros((1, 5), dtype=np.int32)  # [N, 5] what the grapple adds (setup.H_*)
    imp: I32 = np.zeros((1, 1), dtype=np.int32)  # [N target, N attacker] cover imposed by the GM (CoverKind)
    imp_all: I32 = np.zeros(1, dtype=np.int32)  # [N] cover imposed against everyone (area effects too)
    # attack riders and marks (trick attack, get 'em: :mod:`sftactics.sim.kernel.riders`; always set)
    rm: riders.RidersMarks = riders.empty()
    # hidden starts and Searches (:mod:`sftactics.sim.kernel.stealth`; placeholders without them)
    sk_on: bool = False  # someone starts hidden or aware of a foe's presence only: Searches may follow
    sk_perc: I32 = np.zeros((1, 2), dtype=np.int32)  # [N, 2] opposed Perception, then while deafened
    sk_stl: I32 = np.zeros(1, dtype=np.int32)  # [N] opposed Stealth


@dataclass(frozen=True)
class Compiled:
    """A model with the Python-side names it was built from."""

    model: Model
    ids: tuple[str, ...]
    sides: tuple[str, ...]
    weapons: tuple[tuple[str, ...], ...]
    profiles: tuple[str, ...]


#: The largest map the kernel plays, in squares (500 x 500): its movement, threat and cover tables take tens of
#: bytes a square, built before the first fight. The engine plays larger maps (it builds only what it visits).
KERNEL_MAX_SQUARES = 250_000
#: With grenades the kernel also tabulates a burst around every grid point: the largest map then (200 x 200).
KERNEL_MAX_GRENADE_SQUARES = 40_000


def unsupported(enc: Encounter) -> list[str]:
    """Why the kernel cannot play ``enc`` (empty when it can). The engine plays what the kernel does not."""
    if enc.ruleset != "sf1e":
        return [f"the ruleset {enc.ruleset} (the kernel plays the 1st edition)"]
    out: list[str] = []
    if enc.grid is None:
        out.append("no map (the kernel plays fights on a grid)")
    if enc.timeline.phase != "setup":
        out.append("the fight has already begun (the kernel starts from the setup)")
    if bodies.knockdown_in_zero_gravity(enc):
        out.append("a knockdown in zero gravity (off-kilter instead of prone, CON-23: the engine's)")
    if enc.options.temp_hp_stacking != "highest":
        out.append("temp_hp_stacking other than 'highest'")
    if enc.options.arc_can_strike_attacker:
        out.append("arc_can_strike_attacker (the kernel's arcs never strike the attacker)")
    if enc.options.shared_square_on_recovery != "share_until_moved":
        out.append("option shared_square_on_recovery other than 'share_until_moved'")
    grid = enc.grid
    if grid is not None:
        squares = grid.width * grid.height
        if squares > KERNEL_MAX_SQUARES:
            out.append(f"a map of more than {KERNEL_MAX_SQUARES:,} squares (the kernel's tables are per square)")
        elif squares > KERNEL_MAX_GRENADE_SQUARES and any(
            w.is_grenade for c in enc.combatants.values() for w in c.creature.stat.weapons
        ):
            out.append(f"grenades on a map of more than {KERNEL_MAX_GRENADE_SQUARES:,} squares (a burst per point)")
        out += sight_mod.sight_refusals(grid, enc.combatants.values(), enc.options.noisy_combat_locates)
        if has_narrow_squares(grid) and enc.combatants:  # (smaller creatures: their own movement tables)
            out.append("narrow squares (squeezing and its penalties, MOV-19, are the engine's)")
    out += bigmodel.big_refusals(enc)
    out += riders.unsupported(enc)  # trick attack and get 'em (kernel.classes plays them)
    out += setup_mod.refusals(enc)  # imposed awareness and cover, a grapple under way (``kernel.setup``)
    out += stealth.refusals(enc)  # hidden starts and Searches (``kernel.stealth``)
    if enc.zones:
        out.append("clouds on the map (smoke: the engine's)")
    if enc.vehicles:
        out.append("vehicles (VEH: piloting, riders and collisions are the engine's)")
    if len(enc.sides()) != 2:
        out.append("more or fewer than two sides")
    for c in setup_mod.stripped(enc).combatants.values():
        out += [f"{c.id}: {why}" for why in _unsupported_combatant(c, enc)]
    return out


def _unsupported_combatant(c: Combatant, enc: Encounter) -> list[str]:
    out: list[str] = []
    cr = c.creature
    st = cr.stat
    if c.position is None:
        out.append("no position")
    out += modes.mode_refusals(c, enc.grid)
    if not c.aware and enc.start_at is not None:
        out.append("unaware in a fight already under way (the engine's)")
    if c.insignificant:
        out.append("insignificant")
    if c.in_hand is not None:
        out.append("tracks what it holds in hand")
    starting = bodies.start_refusals(cr)
    if starting:
        out.append(f"starts with conditions ({', '.join(sorted(starting))})")
    if cr.state.hp <= 0:
        out.append("starts at 0 HP")
    out += specials.unsupported(c)  # abilities and spells the policies use: the kernel plays most (specials)
    for w in st.weapons:
        if thrown_weapons.tracked(w) and not w.is_melee:
            out.append(f"weapon {w.name}: a thrown weapon that lies where it lands (the engine tracks it)")
        why = _unsupported_weapon(w, c, enc.options)
        if why:
            out.append(f"weapon {w.name}: {why}")
    return out


def _one_dice_part(expr: DiceExpr) -> tuple[int, int, int, frozenset[str]] | None:
    """(dice count, sides, flat, types) of a single-part expression with at most one kind of die."""
    if len(expr.parts) != 1:
        return None
    part = expr.parts[0]
    dice = [t for t in part.terms if not t.is_flat]
    if len(dice) > 1 or any(t.sign < 0 for t in dice):
        return None
    flat = sum(t.count * t.sign for t in part.terms if t.is_flat)
    n, s = (dice[0].count, dice[0].sides) if dice else (0, 1)
    return n, s, flat, part.types


def _unsupported_weapon(w: Weapon, c: Combatant, opts: Sf1eOptions = DEFAULT_OPTIONS) -> str:
    shape = _one_dice_part(w.damage_expr)
    if shape is None and parts.is_multipart(w):
        why = parts.unsupported(w, c, opts)  # several parts: each one kind of die (``sim.kernel.parts``)
        if why:
            return why
    elif shape is None:
        return f"damage {w.damage} (one kind of die in one part)"
    elif shape[2] < 0:
        return "a negative flat damage term"
    if w.is_grenade:
        if w.area is None or w.area.shape != "burst":
            return "a grenade without a burst"
        if w.area.cloud is not None:
            return "a grenade that leaves a cloud (smoke: the engine's)"
        return blasts.unsupported_grenade(w)
    if w.critical:
        eff = criticals.parse_critical(w.critical)
        if eff is not None and eff.name in _REFUSED_CRITICALS:
            return f"critical effect {eff.name}"
        if eff is not None and eff.name == "arc" and eff.amount:
            amount = _one_dice_part(parse(eff.amount))
            if amount is None or amount[2] < 0:
                return f"arc {eff.amount}"
        if eff is not None and eff.name == "bleed":
            amount = _one_dice_part(parse(eff.amount)) if eff.amount else None
            if amount is None or amount[2] < 0:
                return f"bleed {eff.amount}"
        if eff is not None and eff.name == "burn":
            amount = _one_dice_part(parse(eff.amount or cond.BURNING_DEFAULT))
            if amount is None or amount[2] < 0:
                return f"burn {eff.amount}"
        if eff is not None and eff.name == "corrode" and eff.amount:
            amount = _one_dice_part(parse(eff.amount))
            if amount is None or amount[2] < 0:
                return f"corrode {eff.amount}"
    return ""


# ---------------------------------------------------------------- building
def _down(cr: Any) -> Any:
    """The creature unconscious and dying at 0 HP (helpless: its saves and AC then)."""
    return cond.add_condition(cond.add_condition(cr, ConditionInstance(name="unconscious")),
                              ConditionInstance(name="dying"))  # fmt: skip


def _surprise_fields(enc: Encounter, cs: list[Combatant], wmax: int) -> dict[str, Any]:
    """The model's surprise round (``flow.begin``): who acts in it, and the attack bonus and AC against each
    surprised combatant (flat-footed until its first turn, CF-11)."""
    from sftactics.encounter.flow import SURPRISED, surprise_round

    if not surprise_round(enc) or enc.start_at is not None:
        return {}
    n = len(cs)
    atk_ff = np.zeros((n, wmax, n), dtype=np.int32)
    ac_ff = np.zeros((n, wmax, n), dtype=np.int32)
    caught = [cond.add_condition(c.creature, ConditionInstance(name="flat-footed", source=SURPRISED)) for c in cs]
    for i, c in enumerate(cs):
        cr = c.creature
        for k, weapon in enumerate(cr.stat.weapons):
            w = thrown_weapons.as_used(weapon, False)
            if w.is_grenade:
                continue
            for j in range(n):
                if j != i:
                    extra = attack_terms_against(cr, caught[j], w, enc.options)
                    atk_ff[i, k, j] = stats.attack_bonus(cr, w, extra=extra, options=enc.options).total
                    ac_ff[i, k, j] = target_ac(cr, caught[j], w, options=enc.options)[2].total
    aware = np.array([c.aware for c in cs], dtype=np.bool_)
    return {"surprise": True, "aware": aware, "atk_ff": atk_ff, "ac_ff": ac_ff}


def _flat_roll(amount: int, types: frozenset[str], nonlethal: bool = False) -> damage.DamageRoll:
    """A damage roll of exactly ``amount`` with ``types`` (as the weapon's part would split it); ``nonlethal``: of
    a nonlethal weapon (DMG-10)."""
    expr = DiceExpr((Part((DiceTerm(amount, 0, 1),), types),))
    return damage.roll_damage(expr, Breakdown("none", 0, ()), SeededDice(0), nonlethal=nonlethal, purpose="table")


def compile_encounter(enc: Encounter, *, tactical: bool = False) -> Compiled:
    """Build the kernel's arrays for ``enc`` (see :func:`unsupported` first); with ``tactical``, the tables the
    tactical policy decides by (:mod:`sftactics.sim.kernel.tables`)."""
    why = unsupported(enc)
    if why:
        raise ValueError("the compiled kernel cannot play this encounter: " + "; ".join(why))
    enc = setup_mod.stripped(enc)  # a grapple under way rides on top of the free creatures' tables
    grid = enc.grid
    assert grid is not None
    opts = enc.options
    cs = list(enc.combatants.values())
    n = len(cs)
    ids = tuple(c.id for c in cs)
    sides = tuple(dict.fromkeys(c.side for c in cs))
    wmax = max(1, max(len(c.creature.stat.weapons) for c in cs))
    dmax = (grid.width + grid.height) * 2 + 2  # distances in squares
    ranks = {cid: i for i, cid in enumerate(sorted(ids))}

    def arr(shape: Any, fill: int = 0) -> I32:
        return np.full(shape, fill, dtype=np.int32)

    def flags(shape: Any) -> B:
        return np.zeros(shape, dtype=np.bool_)

    side, init_mod, init_given = arr(n), arr(n), arr(n, OUT_OF_RANGE)
    linger = np.array([c.creature.stat.rp == 0 and not injury.uses_dying_rules(c.creature, opts)
                       and opts.npc_without_rp_at_zero == "three_rounds" for c in cs], dtype=np.bool_)  # fmt: skip
    hp0, sp0, temp0, rp0, max_hp, stab, speed, pos0 = (arr(n) for _ in range(8))
    saves = arr((n, 3))
    saves_down = arr((n, 3))
    pc, dying_rules, takes_aoo, armed, immune_crit = (flags(n) for _ in range(5))
    immune_cond = flags((n, 5))
    zone, body_reach, rank = arr(n, -1), arr(n), arr(n)
    w_ok, w_attack, w_is_melee, w_melee_geom, w_grenade = (flags((n, wmax)) for _ in range(5))
    (w_reach, w_ndice, w_sides, w_flat, w_prof, w_usage, w_crit, w_crit_n, w_crit_s, w_crit_prof, w_crit_dc,
     w_crit_save, w_radius, w_gdc, w_gsave, w_top) = (arr((n, wmax)) for _ in range(16))  # fmt: skip
    w_cap = arr((n, wmax), -1)
    w_neg, w_min_prof = arr((n, wmax)), arr((n, wmax), -1)
    w_zone = arr((n, wmax), -1)
    w_aoo = flags((n, wmax))
    w_range = arr((n, wmax, dmax), OUT_OF_RANGE)
    atk, ac = arr((n, wmax, n)), arr((n, wmax, n))
    atk_down, ac_down = arr((n, wmax, n)), arr((n, wmax, n))
    downed = [_down(c.creature) for c in cs]
    g_atk = arr((n, wmax))

    profiles: dict[tuple[Any, ...], int] = {}
    top_amount = 1

    def profile(key: tuple[Any, ...], most: int) -> int:
        nonlocal top_amount
        top_amount = max(top_amount, most + 1)
        return profiles.setdefault(key, len(profiles))

    zone_keys: dict[int, int] = {}
    for i, c in enumerate(cs):
        cr = c.creature
        st = cr.stat
        side[i] = sides.index(c.side)
        pc[i] = st.kind == "pc"
        dying_rules[i] = injury.uses_dying_rules(cr, opts)
        init_mod[i] = stats.initiative(cr, opts).total
        if c.initiative is not None:
            init_given[i] = c.initiative
        hp0[i], sp0[i], temp0[i], rp0[i] = cr.state.hp, cr.state.sp, cr.state.temp_hp, cr.state.rp
        max_hp[i] = stats.max_hp(cr).total
        # INJ-11: the cost as the creature is when it pays it (dying, so helpless: a key ability of Dex counts as 0
        # in its maximum Resolve, ``stats``), not as it starts
        stab[i] = injury.stabilize_cost(_down(cr), opts)
        speed[i] = stats.speed(cr).total
        assert c.position is not None
        pos0[i] = c.position[1] * grid.width + c.position[0]
        down = _down(cr)
        for k, name in enumerate(("fort", "ref", "will")):
            saves[i, k] = stats.save_bonus(cr, name, options=opts).total
            saves_down[i, k] = stats.save_bonus(down, name, options=opts).total
        melee = [w for w in st.weapons if w.is_melee and not w.is_grenade]
        takes_aoo[i] = c.takes_aoo and bool(enc_threat.aoo_weapons(c))
        armed[i] = bool(melee)
        for r in sorted({space.weapon_reach(c, w) for w in melee}):
            zone_keys.setdefault(r, len(zone_keys))
        reaches = enc_threat.reaches(c)  # what it threatens: the engine's own answer (AOO-01..05)
        if reaches:
            zone[i] = zone_keys[reaches[-1]]
            body_reach[i] = reaches[-1]
        immune_crit[i] = criticals.immune_to_crits(cr)
        for k, cname in enumerate(("bleeding", "staggered", "deafened", "burning", "corroding")):
            immune_cond[i, k] = cond.is_immune(cr, cname)
        rank[i] = ranks[c.id]

    for i, c in enumerate(cs):
        cr = c.creature
        aoo = enc_threat.aoo_weapons(c)
        for k, weapon in enumerate(cr.stat.weapons):
            w = thrown_weapons.as_used(weapon, False)  # a melee weapon that can be thrown strikes in melee
            w_ok[i, k] = True
            w_grenade[i, k] = w.is_grenade
            w_attack[i, k] = not w.is_grenade
            w_is_melee[i, k] = w.is_melee
            w_melee_geom[i, k] = w.is_melee  # the policies strike with a melee weapon, never throw it
            w_reach[i, k] = space.weapon_reach(c, w)
            if w.is_melee and not w.is_grenade:
                w_zone[i, k] = zone_keys[int(w_reach[i, k])]
            w_aoo[i, k] = weapon in aoo
            # several parts (``parts``): the first part's numbers here (unused), the kernel rolls them all
            shape = _one_dice_part(w.damage_expr) or _one_dice_part(DiceExpr(w.damage_expr.parts[:1]))
            assert shape is not None
            nd, sd, flat, types = shape
            w_cap[i, k] = -1 if w.capacity is None else w.capacity
            w_usage[i, k] = w.usage
            inc = max(w.range_ft, 5)
            thrown = w.thrown or w.is_grenade
            for d in range(dmax):
                rc = check_range(d * 5, inc, thrown=thrown, max_increments=w.max_increments)
                if rc.in_range:
                    w_range[i, k, d] = sum(t.value for t in rc.terms)
            w_top[i, k] = check_range(0, inc, thrown=thrown, max_increments=w.max_increments).max_range_ft
            if w.is_grenade:
                assert w.area is not None
                w_ndice[i, k], w_sides[i, k], w_flat[i, k] = nd, sd, flat
                w_cap[i, k] = 1
                w_radius[i, k] = w.area.size_ft
                w_gdc[i, k] = grenade_save_dc(cr, w)
                w_gsave[i, k] = int(bool(w.area.save) and w.area.on_save == "half")
                w_prof[i, k] = profile(("area", types, w.magic, w.materials, w.alignment, False, False),
                                       nd * sd + flat)  # fmt: skip
                g_atk[i, k] = stats.attack_bonus(cr, w, options=opts).total
                continue
            bonus_bd = stats.damage_bonus(cr, w, options=opts)
            bonus = bonus_bd.total
            # DMG-05: penalties that bring a roll below 1 leave 1 nonlethal damage (``damage.roll_damage``)
            penalties = sum(t.value for t in bonus_bd.applied if t.value < 0)
            w_neg[i, k] = penalties + damage._negative_in_expr(w.damage_expr)
            w_min_prof[i, k] = profile(("weapon", types, w.magic, w.materials, w.alignment, cr.stat.incorporeal,
                                        True), 1)  # fmt: skip
            w_ndice[i, k], w_sides[i, k], w_flat[i, k] = nd, sd, flat + bonus
            most = 2 * (nd * sd + flat + bonus)
            w_prof[i, k] = profile(("weapon", types, w.magic, w.materials, w.alignment, cr.stat.incorporeal,
                                    w.nonlethal), most)  # fmt: skip
            for j, t in enumerate(cs):
                if j == i:
                    continue
                extra = attack_terms_against(cr, t.creature, w, opts)
                atk[i, k, j] = stats.attack_bonus(cr, w, extra=extra, options=opts).total
                ac[i, k, j] = target_ac(cr, t.creature, w, options=opts)[2].total
                extra = attack_terms_against(cr, downed[j], w, opts)
                atk_down[i, k, j] = stats.attack_bonus(cr, w, extra=extra, options=opts).total
                ac_down[i, k, j] = target_ac(cr, downed[j], w, options=opts)[2].total
            eff = criticals.parse_critical(w.critical) if w.critical else None
            if eff is None or eff.name not in criticals.APPLIED or (eff.name in ("arc", "corrode") and not eff.amount):
                continue  # recorded only (no dice, no change), as the engine does
            if eff.name == "knockdown":
                w_crit[i, k] = CRIT_KNOCKDOWN
                continue
            if eff.name == "arc":
                # ATK-15: the amount (not doubled), of the weapon's damage type unless it names its own, through
                # the defenses of the creature it leaps to (``criticals.apply_critical``)
                aexpr = parse(eff.amount or "0")
                amount = _one_dice_part(aexpr)
                assert amount is not None
                atypes = aexpr.parts[0].types or w.damage_types
                w_crit[i, k] = CRIT_ARC
                w_crit_n[i, k], w_crit_s[i, k] = amount[0], amount[1] if amount[0] else 0
                w_crit_dc[i, k] = amount[2]  # the flat part rides in the DC slot (no DC)
                akey = ("weapon", atypes, w.magic, w.materials, w.alignment, cr.stat.incorporeal, False)
                w_crit_prof[i, k] = profile(akey, amount[0] * max(amount[1], 1) + amount[2])
                continue
            if eff.name in _TICKING:
                # bleed, burn, corrode: a ticking condition; its dice and the profile of its damage against each target
                condition, code, fallback = _TICKING[eff.name]
                text = eff.amount or (cond.BURNING_DEFAULT if eff.name == "burn" else None)
                assert text is not None
                amount = _one_dice_part(parse(text))
                assert amount is not None
                w_crit[i, k] = code
                w_crit_n[i, k], w_crit_s[i, k] = amount[0], amount[1] if amount[0] else 0
                expr = cond.tick_expression(cr, ConditionInstance(name=condition, value=eff.amount))
                # None only when the attacker itself is immune to the condition, which says nothing of the type
                btypes = expr.parts[0].types if expr is not None else fallback
                w_crit_prof[i, k] = profile(("tick", btypes, False, frozenset(), frozenset(), False, False),
                                            amount[0] * max(amount[1], 1) + amount[2])  # fmt: skip
                w_crit_dc[i, k] = amount[2]  # the flat part rides in the DC slot (neither has a DC)
                continue
            w_crit[i, k] = CRIT_STAGGER if eff.name == "staggered" else CRIT_DEAFEN
            w_crit_dc[i, k] = criticals.critical_dc(w, cr, opts) or 0
            w_crit_save[i, k] = _SAVE_INDEX.get(eff.save or "fort", FORT)

    g_mode, g_rider, g_rval = blasts.grenade_fields(cs, wmax, profile)
    start_ticks, start_bleed_last = bodies.start_tick_fields(cs, profile)
    abilities = specials.build(enc, cs, [len(c.creature.stat.weapons) for c in cs], profile, tactical)
    rider_marks = riders.build(enc, cs, wmax, profile, tactical)  # (before the mitigation table: its sizes)
    keys = sorted(profiles, key=profiles.__getitem__)
    mit = np.zeros((n, len(keys), top_amount), dtype=np.int32)
    neg = np.zeros((n, len(keys), top_amount), dtype=np.bool_)
    # whether a profile's damage is nonlethal (a nonlethal weapon, or a part labelled so: ``damage.roll_damage``)
    prof_nl = np.array([_flat_roll(1, key[1], key[6]).nonlethal for key in keys] or [False], dtype=np.bool_)
    for j, t in enumerate(cs):
        for p, key in enumerate(keys):
            _, types, magic, materials, alignment, incorporeal, nonlethal = key
            for a in range(top_amount):
                out = damage.mitigate(_flat_roll(a, types, nonlethal), t.creature, magic=magic, materials=materials,
                                      alignment=alignment, from_incorporeal=incorporeal, options=opts)  # fmt: skip
                mit[j, p, a], neg[j, p, a] = out.amount, out.negated
    half = np.array([damage.halve(_flat_roll(a, frozenset())).total for a in range(top_amount)], dtype=np.int32)
    cover_ac = arr(len(CoverKind))
    cover_ref = arr(len(CoverKind))
    for kind in CoverKind:
        ac_terms, ref_terms = cover_terms(kind)
        cover_ac[int(kind)] = sum(t.value for t in ac_terms)
        cover_ref[int(kind)] = sum(t.value for t in ref_terms)

    pr_atk, pr_ac, prone0, immune_prone = bodies.prone_fields(cs, wmax, opts)
    bodies.upright_numbers(pr_atk, pr_ac, prone0, {"atk": atk, "ac": ac, "atk_down": atk_down, "ac_down": ac_down})
    gopts = GRID_DEFAULTS  # the engine plays with the grid's default options
    tables = geo.map_tables(grid, gopts, Size.MEDIUM)
    nsq = grid.width * grid.height
    threat = {r: geo.threat_table(grid, r, options=gopts) for r in zone_keys}
    radius = max([t.radius for t in threat.values()] + [2])
    side_len = 2 * radius + 1
    zones = np.zeros((max(1, len(zone_keys)), nsq, side_len * side_len), dtype=np.bool_)
    for r, z in zone_keys.items():
        tt = threat[r]
        shift = radius - tt.radius
        for dy in range(tt.side):
            for dx in range(tt.side):
                zones[z, :, (dy + shift) * side_len + dx + shift] = tt.table[:, dy * tt.side + dx]
    radii = sorted({int(w_radius[i, k]) for i in range(n) for k in range(wmax) if w_grenade[i, k]})
    npoints = (grid.width + 1) * (grid.height + 1)
    b_off = np.zeros((max(1, len(radii)), npoints + 1), dtype=np.int32)
    chunks: list[NDArray[np.int32]] = []
    base = 0
    for ri, r in enumerate(radii):
        off, sq = geo.burst_table(grid, r, options=gopts)
        b_off[ri] = off + base
        chunks.append(sq)
        base += int(sq.shape[0])
    b_sq = np.concatenate(chunks) if chunks else np.zeros(1, dtype=np.int32)
    w_bidx = arr((n, wmax), -1)
    for i in range(n):
        for k in range(wmax):
            if w_grenade[i, k]:
                w_bidx[i, k] = radii.index(int(w_radius[i, k]))
    bodies_and_blasts: tuple[Any, ...] = (pr_atk, pr_ac, prone0, immune_prone, g_mode, g_rider, g_rval, prof_nl,
                                           linger, start_ticks, start_bleed_last, w_neg, w_min_prof)  # fmt: skip
    model = Model(*(
        grid.width, grid.height, n,
        side, pc, dying_rules, init_mod, init_given, hp0, sp0, temp0, rp0, max_hp, stab, speed, pos0, saves, saves_down,
        takes_aoo, zone, body_reach, armed, immune_crit, immune_cond, rank,
        w_ok, w_attack, w_is_melee, w_melee_geom, w_reach, w_zone, w_aoo, w_ndice, w_sides, w_flat, w_prof, w_cap,
        w_usage,
        w_crit, w_crit_n, w_crit_s, w_crit_prof, w_crit_dc, w_crit_save, w_grenade, w_radius, w_gdc, w_gsave,
        w_range, w_top, atk, ac, g_atk,
        mit, neg, half, cover_ac, cover_ref, FLANKING_BONUS, INTERSECTION_AC,
        opts.big_hit_first_costs, opts.massive_damage_at_zero == "hp_damage", injury.grace_deadline(0, opts),
        geo.register_map(grid, gopts), tables.step_to, tables.step_k, tables.step_diag,
        gopts.hampered_diagonal_counts, gopts.flank_partner == "ally_of_attacker", radius, zones, b_off, b_sq, w_bidx,
        atk_down, ac_down, *tables_mod.tactical_fields(enc, tactical, g_atk, w_range, saves, w_gdc),
        *bodies_and_blasts,
        abilities,
    ))  # fmt: skip
    dim, dim_miss = sight_mod.dim_concealment(grid, cs)
    kinds = sight_mod.miss_kinds(grid, cs)
    by_kind = (0, sight_mod.CONCEALMENT_MISS, sight_mod.TOTAL_MISS)
    slots = np.array([kinds.index(v) if v in kinds else 0 for v in by_kind], dtype=np.int32)
    sight = (sight_mod.has_walls(grid) or sight_mod.has_darkness(grid)) and enc.track_awareness
    sight = sight or setup_mod.needs_sight(enc)
    model = model._replace(sight=sight, dim=dim, dim_miss=dim_miss, miss_slot=slots,
                           **sight_mod.dark_senses(grid, cs), **_surprise_fields(enc, cs, wmax))  # fmt: skip
    model = model._replace(**modes.mode_fields(grid, cs, (tables.step_to, tables.step_k), gopts))
    model = model._replace(**parts.fields(cs, wmax, opts))
    model = model._replace(sub=np.array([is_sub_square(Size(c.creature.stat.size)) for c in cs], dtype=np.bool_))
    if enc.start_at is not None:
        at = enc.start_at
        done = np.array([c.id in at.acted for c in cs], dtype=np.bool_)
        model = model._replace(start_round=at.round, start_turn=-1 if at.turn is None else ids.index(at.turn),
                               start_done=done)  # fmt: skip
    model = model._replace(rm=rider_marks)
    big = bigmodel.big_fields(cs, grid, gopts, model.zone, model.w_zone, wmax)
    model = model._replace(**{"fside": np.ones(n, dtype=np.int32), "bw_crowd_side": np.ones(n, dtype=np.int32), **big})
    model = model._replace(**setup_mod.fields(enc, cs))
    model = model._replace(**stealth.fields(enc, cs))
    weapons = tuple(tuple(w.name for w in c.creature.stat.weapons) + specials.names(c) for c in cs)
    names = tuple(f"{k[0]} {'/'.join(sorted(k[1])) or 'untyped'}" for k in keys)
    return Compiled(model, ids, sides, weapons, names)
