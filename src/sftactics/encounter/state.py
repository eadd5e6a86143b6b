"""The state of an encounter: a plain, JSON-serialisable value.

Everything the engine needs to continue a fight lives here: combatants (stat block, live creature state,
side, position, initiative, what they have spent this turn), the timeline (phase, round, order, whose turn),
timed effects with their expiry, and how many dice have been used (so a seeded fight can resume exactly).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from sftactics.core.errors import RuleViolation, SftError
from sftactics.encounter.sf2e.model import Body2e
from sftactics.sf1e.options import Sf1eOptions
from sftactics.sf1e.statblock import ModifierSpec, NameSet
from sftactics.sf1e.state import ConditionInstance, Creature
from sftactics.sf1e.vehicles.options import VehicleOptions
from sftactics.sf1e.vehicles.state import Vehicle
from sftactics.sf2e.options import Sf2eOptions

Square = tuple[int, int]
Slot = Literal["standard", "move", "swift", "full"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Expiry(_Model):
    """When a timed effect ends.

    * ``count``: just before initiative count ``count`` in round ``round`` (an N-round effect that began at
      count c in round r: round r + N, count c; CF-14). Any turn at or below that count in that round, or
      the start of a later round, ends it.
    * ``turn_start`` / ``turn_end``: at the start or end of ``anchor``'s turn, after skipping ``skip`` of them
      ("until the start of your next turn", "until the end of your next turn").
    * ``never``: until removed.
    """

    kind: Literal["count", "turn_start", "turn_end", "never"] = "never"
    anchor: str | None = None
    round: int = 0
    count: int = 0
    skip: int = 0

    def describe(self) -> str:
        if self.kind == "count":
            return f"ends just before count {self.count} of round {self.round}"
        if self.kind == "turn_start":
            return f"until the start of {self.anchor}'s {'next ' if self.skip == 0 else ''}turn"
        if self.kind == "turn_end":
            return f"until the end of {self.anchor}'s {'next ' if self.skip <= 1 else ''}turn"
        return "until removed"


class Effect(_Model):
    """A timed effect on one combatant: a condition instance it gave and/or temporary modifiers, removed
    together when it expires."""

    id: int
    target: str
    name: str
    source: str = ""
    condition: ConditionInstance | None = None
    modifiers: tuple[ModifierSpec, ...] = ()
    flags: NameSet = frozenset()  # e.g. "total_defense", "no_aoo"
    expires: Expiry = Field(default_factory=Expiry)
    rule: str = ""
    temp_hp: int = 0  # temporary HP it granted: they end with it (DMG-09)
    keeper: str | None = None  # the creature that keeps it up by concentrating, or may dismiss it
    keep: Literal["none", "concentration", "dismissible"] = "none"


class ReadiedAction(_Model):
    """A readied action (ACT-73): the command to take and the trigger that fires it."""

    command: dict[str, Any]
    trigger: Literal["attacked", "enemy_attacks", "enters_reach", "casts", "manual"] = "manual"
    watch: str | None = None  # the creature the trigger is about (None: any enemy)
    defensive: bool = False  # purely defensive readied actions happen before the trigger


class ConfusedTurn(_Model):
    """What a confused creature does this turn (CON-06): the d% roll (None when it is devoted to attacking the
    last creature that attacked it), the behaviour, and the creatures it must attack."""

    behavior: Literal["act_normally", "babble", "hurt_self", "attack_nearest", "attack_attacker"]
    roll: int | None = None
    targets: tuple[str, ...] = ()
    round: int = 0


class Combatant(_Model):
    id: str
    side: str
    creature: Creature
    position: Square | None = None
    aware: bool = True
    initiative: int | None = None
    init_roll: int | None = None
    init_mod: int = 0
    roll_off: tuple[int, ...] = ()
    acted: bool = False  # has taken a turn in this combat (CF-15: no reactions before)
    reaction_used: bool = False
    spent: tuple[Slot, ...] = ()  # action slots used this turn
    moved_ft: int = 0  # feet moved this turn
    diagonals: int = 0  # diagonals counted this turn (MOV-10 parity)
    attacks_this_turn: int = 0
    delaying: bool = False
    readied: ReadiedAction | None = None
    burn_taken: int = 0  # burning damage taken this round (CON-05 save DC)
    burn_saves: int = 0  # consecutive burning saves attempted
    corrode_taken: int = 0  # acid damage taken from corroding this round (its save's DC, as for burning)
    corrode_saves: int = 0  # consecutive saves against corroding attempted
    fled: bool = False
    insignificant: bool = False
    takes_aoo: bool = True  # takes attacks of opportunity when it can (AOO-06)
    hidden: bool = False  # starts the fight hidden (Stealth) from its opponents
    ammo: dict[str, int] = Field(default_factory=dict)  # shots (or grenades) left per weapon; missing = full
    in_hand: tuple[str, ...] | None = None  # weapons held (GEN-10); None: not tracked, all at hand
    confused_turn: ConfusedTurn | None = None  # this turn's confusion result (CON-06), until the turn ends
    confused_by: str | None = None  # the last creature that attacked it while confused (CON-06)
    one_hand_grip: tuple[str, ...] = ()  # held two-handed weapons gripped in one hand (ACT-40): not wielded
    on_ground: dict[str, list[int]] = Field(default_factory=dict)  # its thrown weapons lying at [x, y] (ACT-34)
    gravity: Literal["zero", "low", "normal", "high"] | None = None  # its own surroundings' gravity (None: the map's)
    uses_spent: dict[str, int] = Field(default_factory=dict)  # limited abilities used, per pool (SPA-02)
    # a 2E combatant's rules side (``creature`` is then its plain face); left out of a 1E fight's JSON
    body2e: Body2e | None = Field(None, exclude_if=lambda v: v is None)

    @property
    def name(self) -> str:
        return self.id

    @property
    def out_of_fight(self) -> bool:
        """Cannot fight on: dead, unconscious (dying and stable included), or gone."""
        c = self.creature
        return self.fled or c.has("dead") or c.has("unconscious") or c.has("dying") or c.has("stable")


class Timeline(_Model):
    phase: Literal["setup", "surprise", "round", "ended"] = "setup"
    round: int = 0
    order: tuple[str, ...] = ()
    turn: str | None = None
    turn_fresh: bool = False  # the current turn has not done anything yet (for stay in the fight, delay)
    done: tuple[str, ...] = ()  # who has had (or passed) a turn this round


class StartAt(_Model):
    """A fight already under way when the scenario begins: ``begin`` opens round ``round`` (no surprise round)
    with everyone at their given initiative, the combatants in ``acted`` and every one before ``turn`` in the
    order counted as having had their turn this round, and ``turn``'s turn (or the next one) starting."""

    round: int = Field(1, ge=1, le=10_000)
    turn: str | None = None
    acted: tuple[str, ...] = ()


class StartGrapple(_Model):
    """A grapple already under way when the fight begins: ``grappler`` holds ``target`` (pinned or grappled)."""

    grappler: str
    target: str
    pinned: bool = False


class ImposedCover(_Model):
    """Cover the GM gives a creature (MOD-12, MOD-13: a GM call): its degree, the attackers it counts against
    (everyone when empty) and how many rounds it lasts (until ended when None)."""

    target: str
    cover: Literal["partial", "cover", "improved", "total"]
    against: tuple[str, ...] = ()
    rounds: int | None = Field(None, ge=1, le=100_000)


class StartSetup(_Model):
    """What a scenario sets up that takes hold when ``begin`` starts the fight: awareness per pair
    ("observer>target" -> ``sf1e.senses.Awareness``), grapples under way and cover the GM imposes."""

    awareness: dict[str, int] = Field(default_factory=dict)
    grapples: tuple[StartGrapple, ...] = ()
    cover: tuple[ImposedCover, ...] = ()


class Zone(_Model):
    """A patch of the battlefield changed for a while (a smoke cloud): ``feature`` (a map feature word, e.g.
    ``conceal``) added to ``squares`` for as long as effect ``effect`` lasts."""

    effect: int
    name: str
    feature: Literal["conceal", "obscure"] = "conceal"
    squares: tuple[Square, ...] = ()


class FightVehicle(_Model):
    """A vehicle on the battlefield (VEH-01: an object, no turn of its own): the vehicle with its live state
    (position, heading, controller, HP; ``sftactics.sf1e.vehicles``), the side it fights for, who rides in it
    (the pilot included; riders stand on squares of its space and move with it) and the round in which it last
    moved on its own, uncontrolled or on autocontrol (VEH-23, VEH-24, VEH-26). Rules: ``encounter/vehicles.py``."""

    vehicle: Vehicle
    side: str | None = None
    riders: tuple[str, ...] = ()
    unpiloted_round: int = -1

    @property
    def id(self) -> str:
        return self.vehicle.id


class CombatResult(_Model):
    winner: str | None
    reason: str
    round: int


class Encounter(_Model):
    """An encounter: everything needed to continue the fight."""

    name: str = "encounter"
    # the edition whose rules play the fight (encounter/sf2e/ for "sf2e"); left out of a 1E fight's JSON
    ruleset: Literal["sf1e", "sf2e"] = Field("sf1e", exclude_if=lambda v: v == "sf1e")
    options: Sf1eOptions = Field(default_factory=Sf1eOptions)
    options2e: Sf2eOptions | None = Field(None, exclude_if=lambda v: v is None)
    map: str | None = None  # the map in the grid's text format (parsed on demand)
    gravity: Literal["zero", "low", "normal", "high"] = "normal"
    combatants: dict[str, Combatant]
    timeline: Timeline = Field(default_factory=Timeline)
    start_at: StartAt | None = None  # a fight already under way (the scenario's ``timeline``)
    effects: tuple[Effect, ...] = ()
    next_effect_id: int = 1
    result: CombatResult | None = None
    dice_used: int = 0
    track_awareness: bool = True  # per-pair awareness (SEN-05..10) decides what may be targeted
    awareness: dict[str, int] = Field(default_factory=dict)  # "observer>target" -> sf1e.senses.Awareness
    hiding: frozenset[str] = frozenset()  # "observer>target": the target hides from that observer (Stealth)
    setup: StartSetup | None = None  # what the scenario sets up for ``begin`` (awareness, grapples, cover)
    zones: tuple[Zone, ...] = ()  # smoke clouds and the like: features added to the map while they last
    vehicles: dict[str, FightVehicle] = Field(default_factory=dict)  # vehicles on the grid (encounter/vehicles.py)
    vehicle_options: VehicleOptions = Field(default_factory=VehicleOptions)  # ambiguous vehicle rules

    # ------------------------------------------------------------------ lookups
    def get(self, cid: str) -> Combatant:
        try:
            return self.combatants[cid]
        except KeyError:
            known = ", ".join(self.combatants)
            raise SftError(f"no combatant named {cid!r} (combatants: {known})") from None

    def creature(self, cid: str) -> Creature:
        return self.get(cid).creature

    @property
    def current(self) -> Combatant | None:
        t = self.timeline.turn
        return None if t is None else self.combatants[t]

    def enemies_of(self, cid: str) -> list[Combatant]:
        side = self.get(cid).side
        return [c for c in self.combatants.values() if c.side != side]

    def allies_of(self, cid: str) -> list[Combatant]:
        side = self.get(cid).side
        return [c for c in self.combatants.values() if c.side == side and c.id != cid]

    def sides(self) -> list[str]:
        out: list[str] = []
        for c in self.combatants.values():
            if c.side not in out:
                out.append(c.side)
        return out

    def require_turn(self, cid: str, rule: str = "CF-12") -> Combatant:
        if self.result is not None or self.timeline.phase == "ended":
            raise RuleViolation("CF-02", "the combat is over")
        if self.timeline.phase == "setup":
            raise RuleViolation("CF-01", "the combat has not begun (send 'begin' first)")
        if self.timeline.turn != cid:
            whose = self.timeline.turn or "nobody"
            raise RuleViolation(rule, f"it is {whose}'s turn, not {cid}'s")
        return self.get(cid)

    # ------------------------------------------------------------------ updates
    def with_combatant(self, c: Combatant) -> Encounter:
        combatants = dict(self.combatants)
        combatants[c.id] = c
        return self.model_copy(update={"combatants": combatants})

    def update(self, cid: str, **changes: Any) -> Encounter:
        return self.with_combatant(self.get(cid).model_copy(update=changes))

    def with_timeline(self, **changes: Any) -> Encounter:
        return self.model_copy(update={"timeline": self.timeline.model_copy(update=changes)})

    def effects_on(self, cid: str) -> list[Effect]:
        return [e for e in self.effects if e.target == cid]

    def has_flag(self, cid: str, flag: str) -> bool:
        return any(flag in e.flags for e in self.effects if e.target == cid)

    @property
    def grid(self) -> Any:
        """The parsed map (a ``sftactics.grid.map.GridMap``), or None for a fight without a map."""
        if self.map is None:
            return None
        if not self.zones:
            return _parsed_map(self.map)
        return _zoned_map(self.map, tuple((z.feature, z.squares) for z in self.zones))

    def to_json(self) -> str:
        return self.model_dump_json()


@lru_cache(maxsize=64)
def _parsed_map(text: str) -> Any:
    from sftactics.grid.map import parse_map

    return parse_map(text).map


@lru_cache(maxsize=64)
def _zoned_map(text: str, zones: tuple[tuple[str, tuple[Square, ...]], ...]) -> Any:
    """The map with the zones' features added (squares off the map are left out)."""
    from sftactics.grid.map import FEATURE_WORDS

    grid = _parsed_map(text)
    for word, squares in zones:
        inside = [sq for sq in squares if grid.in_bounds(sq)]
        grid = grid.with_features(inside, FEATURE_WORDS[word])
    return grid
