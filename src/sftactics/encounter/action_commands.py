"""The commands of a combatant's own actions in a fight (ACT-*, MAN-*, INJ-09..12, CF-01): starting the fight,
attacks, movement, weapons and items in hand, grenades, abilities, combat maneuvers, covering and harrying fire,
feints, coup de grace, searching, total defense, prone and standing, delaying, readying, ending the turn, and
the dying's stabilizing, staying in the fight and first aid. :mod:`sftactics.encounter.commands` puts them into
the one ``Command`` union with the GM's commands and parses them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from sftactics.sf1e import limits as L
from sftactics.sf1e.limits import CommandSquare, DiceText
from sftactics.sf1e.usable import UsableMark, UsableRider


class _Cmd(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Begin(_Cmd):
    """Start the fight: decide awareness, roll initiative, open the surprise round or round 1 (CF-01).
    ``roll_awareness``: decide who is aware by Perception against the hidden combatants' Stealth (CF-07)
    instead of the scenario's ``aware`` flags."""

    type: Literal["begin"] = "begin"
    roll_awareness: bool = False


class Attack(_Cmd):
    """One attack as a standard action (ACT-11); ``fight_defensively`` adds -4/+2 AC (ACT-18). ``square``: the
    square aimed at when the attacker is aware only of the target's presence (MOD-05). ``arc_to``: with an Arc
    weapon, which of the creatures equally near the target the arc leaps to on a critical hit (ATK-15; without
    it, an enemy of the attacker first, then the first by id). ``throw``: throw a melee weapon with the thrown
    property at a target within its reach (beyond its reach it is thrown anyway); a thrown weapon then lies
    where it lands until picked up (``pick_up``, ACT-34)."""

    type: Literal["attack"] = "attack"
    actor: str
    target: str
    weapon: str | None = None
    square: CommandSquare | None = None
    nonlethal: bool = False
    fight_defensively: bool = False
    arc_to: str | None = None
    throw: bool = False


class FullAttack(_Cmd):
    """Two attacks at -4 each as a full action (ACT-53); the second may use another weapon or target.
    ``fight_defensively`` adds another -4 and +2 AC (ACT-52)."""

    type: Literal["full_attack"] = "full_attack"
    actor: str
    target: str
    weapon: str | None = None
    second_target: str | None = None
    second_weapon: str | None = None
    fight_defensively: bool = False


class Move(_Cmd):
    """Move up to your speed as a move action (ACT-35): to a square (cheapest legal path) or along a path."""

    type: Literal["move"] = "move"
    actor: str
    to: CommandSquare | None = None
    path: tuple[CommandSquare, ...] | None = None
    draw: str | None = None  # draw this weapon as part of the move (BAB +1 or more, ACT-32)


class GuardedStep(_Cmd):
    """Move 5 ft to an adjacent square without provoking attacks of opportunity (ACT-33)."""

    type: Literal["guarded_step"] = "guarded_step"
    actor: str
    to: CommandSquare


class Crawl(_Cmd):
    """A prone creature crawls 5 ft as a move action; it provokes as movement does (ACT-30)."""

    type: Literal["crawl"] = "crawl"
    actor: str
    to: CommandSquare


class Withdraw(_Cmd):
    """Full action: up to double speed; the starting square is not threatened by foes it can see (ACT-55)."""

    type: Literal["withdraw"] = "withdraw"
    actor: str
    to: CommandSquare | None = None
    path: tuple[CommandSquare, ...] | None = None


class Run(_Cmd):
    """Full action: up to four times speed in a straight line; flat-footed until the next turn (ACT-54)."""

    type: Literal["run"] = "run"
    actor: str
    to: CommandSquare | None = None
    path: tuple[CommandSquare, ...] | None = None


class Charge(_Cmd):
    """Full action: up to double speed straight at a foe, then one melee attack at -2; -2 AC (ACT-50). ``to``:
    the square to attack from (one of the nearest from which the weapon reaches the foe); ``path``: the squares
    on the way, ending there. Without either the engine picks the nearest square most directly toward the foe."""

    type: Literal["charge"] = "charge"
    actor: str
    target: str
    weapon: str | None = None
    to: CommandSquare | None = None
    path: tuple[CommandSquare, ...] | None = None


class MinimumMove(_Cmd):
    """Full action: 5 ft in any direction even when penalties leave less speed (ACT-56)."""

    type: Literal["minimum_move"] = "minimum_move"
    actor: str
    to: CommandSquare


class Reload(_Cmd):
    """Reload a weapon to its capacity as a move action (ACT-36)."""

    type: Literal["reload"] = "reload"
    actor: str
    weapon: str


class Draw(_Cmd):
    """Draw a weapon (move action; ACT-32). Only matters when the scenario tracks what is in hand."""

    type: Literal["draw"] = "draw"
    actor: str
    weapon: str


class Sheathe(_Cmd):
    """Put a weapon away (move action; ACT-32)."""

    type: Literal["sheathe"] = "sheathe"
    actor: str
    weapon: str


class DropItem(_Cmd):
    """Drop a held item: no action (ACT-72)."""

    type: Literal["drop_item"] = "drop_item"
    actor: str
    weapon: str


class ChangeGrip(_Cmd):
    """Change grips on a weapon as a swift action (ACT-40)."""

    type: Literal["change_grip"] = "change_grip"
    actor: str
    weapon: str


class Manipulate(_Cmd):
    """Manipulate an item (open a door, pick something up, retrieve a stored item) as a move action (ACT-34)."""

    type: Literal["manipulate"] = "manipulate"
    actor: str
    what: str


class PickUp(_Cmd):
    """Pick up one's own thrown weapon lying in one's square or an adjacent one: manipulating an item, a move
    action that provokes no attack of opportunity (ACT-34)."""

    type: Literal["pick_up"] = "pick_up"
    actor: str
    weapon: str


class ThrowGrenade(_Cmd):
    """Throw a grenade at a grid intersection: a ranged attack against AC 5 (ATK-12); a miss scatters
    (ATK-13); everyone in the burst saves for half (explode). ``at`` is a grid point [x, y]: the corner shared by
    squares (x-1, y-1) and (x, y)."""

    type: Literal["throw_grenade"] = "throw_grenade"
    actor: str
    weapon: str
    at: CommandSquare


class AreaSpec(_Cmd):
    """An area template: ``shape`` burst/emanation/spread (from the point ``at``, or the user's space for an
    emanation), cone (from ``at`` in ``direction``: N, NE, E...), line (from ``at`` toward the square
    ``toward``)."""

    shape: Literal["burst", "emanation", "spread", "cone", "line"]
    size_ft: int = L.feet(..., L.AREA_MAX, "radius or length of the area")
    at: CommandSquare | None = None
    direction: str | None = None
    toward: CommandSquare | None = None


class SaveSpec(_Cmd):
    type: Literal["fort", "ref", "will"]
    dc: int = L.ranged(..., L.DC_MIN, L.DC_MAX, "save DC")
    on_save: Literal["half", "negates", "partial"] = "half"


class AttackSpec(_Cmd):
    vs: Literal["eac", "kac"] = "eac"
    bonus: int = L.ranged(..., L.ATTACK_MIN, L.ATTACK_MAX, "attack bonus")
    ranged: bool = True
    range_ft: int = L.feet(0, L.RANGE_MAX, "range increment")


class UseAbility(_Cmd):
    """Use a special ability, spell-like ability, spell or item effect described inline (ACT-21): an attack
    roll or a save, a single target or an area, damage and conditions. ``kind`` Sp abilities provoke attacks of
    opportunity (SPA-02, AOO-06) unless ``provokes`` says otherwise; an attack of opportunity that damages the
    user spoils a spell or spell-like ability (AOO-11). ``heal`` restores Hit Points to the target (INJ-18).
    With ``uses``, the ability can be used that many times in the fight (abilities of one ``pool``, such as
    spells from the same slots, share them; SPA-02)."""

    type: Literal["use_ability"] = "use_ability"
    actor: str
    name: str
    action: Literal["standard", "move", "swift", "full"] = "standard"
    kind: Literal["Ex", "Sp", "Su", "spell", "item"] = "Ex"
    target: str | None = None
    area: AreaSpec | None = None
    attack: AttackSpec | None = None
    save: SaveSpec | None = None
    damage: DiceText | None = None
    heal: DiceText | None = None  # Hit Points restored to the target (a roll such as "1d8+4"; INJ-18)
    uses: int | None = Field(None, ge=0, le=100)  # uses in this fight (spell slots, daily uses); None: unlimited
    pool: str | None = Field(None, max_length=80)  # uses shared by the abilities of one pool; default: the name
    conditions: tuple[dict[str, object], ...] = ()
    provokes: bool | None = None
    # class abilities (sf1e.class_abilities, played by encounter.class_moves)
    resolve_cost: int = L.ranged(0, 0, L.RP_MAX, "Resolve Points per use")
    range_ft: int | None = L.feet(None, L.RANGE_MAX, "range the target must be within (0: touch)")
    allies_ft: int | None = L.feet(None, L.AREA_MAX, "heal every ally within this distance of the user")
    self_only: bool = False  # the ability works on the user only
    weapon: str | None = None  # the weapon a rider attacks with
    rider: UsableRider | None = None
    mark: UsableMark | None = None
    to: CommandSquare | None = None  # a rider that allows it: move here first (up to the user's speed)


class ManeuverCmd(_Cmd):
    """A combat maneuver (MAN-01..12) against a creature in reach: bull_rush, dirty_trick (with
    ``condition``), disarm (``item``), grapple, reposition (to the square ``to``; as a ``full_action`` the
    attacker then moves toward ``drag_to`` dragging the target along, MAN-10), sunder (``item``, with the
    object's ``hardness`` and ``hp``), trip."""

    type: Literal["maneuver"] = "maneuver"
    actor: str
    target: str
    kind: Literal["bull_rush", "dirty_trick", "disarm", "grapple", "reposition", "sunder", "trip"]
    weapon: str | None = None
    condition: str | None = None
    item: str | None = None
    to: CommandSquare | None = None
    full_action: bool = False
    drag_to: CommandSquare | None = None
    hardness: int = L.ranged(0, 0, L.HARDNESS_MAX, "the object's hardness")
    hp: int = L.ranged(10, 1, L.AMOUNT_MAX, "the object's Hit Points")


class Escape(_Cmd):
    """Escape a grapple: grapple the grappler back (standard action) or the Acrobatics escape task with a
    supplied ``dc`` (MAN-08)."""

    type: Literal["escape"] = "escape"
    actor: str
    method: Literal["grapple", "acrobatics"] = "grapple"
    dc: int | None = L.ranged(None, L.DC_MIN, L.DC_MAX, "escape DC")
    bonus: int | None = L.ranged(None, L.SKILL_MIN, L.SKILL_MAX, "Acrobatics bonus")


class RemoveDirtyTrick(_Cmd):
    """Shake off a dirty trick's condition as a move action (MAN-03)."""

    type: Literal["remove_dirty_trick"] = "remove_dirty_trick"
    actor: str


class CoveringFire(_Cmd):
    """Ranged attack against AC 15; on a hit ``ally`` gains +2 circumstance AC against the next attack by a
    creature in the shooter's line of effect, before the shooter's next turn (ACT-15)."""

    type: Literal["covering_fire"] = "covering_fire"
    actor: str
    ally: str
    weapon: str | None = None


class HarryingFire(_Cmd):
    """Ranged attack against AC 15 aimed at ``target``; on a hit the next ally to attack it gains +2
    circumstance to that attack roll, before the shooter's next turn (ACT-19)."""

    type: Literal["harrying_fire"] = "harrying_fire"
    actor: str
    target: str
    weapon: str | None = None


class Feint(_Cmd):
    """Bluff against the feint DC; on a success the target is flat-footed against the actor's next attack
    before the end of its next turn (ACT-17)."""

    type: Literal["feint"] = "feint"
    actor: str
    target: str
    bluff: int | None = L.ranged(None, L.SKILL_MIN, L.SKILL_MAX, "Bluff bonus")


class CoupDeGrace(_Cmd):
    """Full action against an adjacent helpless creature: an automatic critical hit, then Fortitude or die
    (ACT-51)."""

    type: Literal["coup_de_grace"] = "coup_de_grace"
    actor: str
    target: str
    weapon: str | None = None


class Search(_Cmd):
    """An active Perception check against every opponent the actor has not pinpointed, as a move action
    (SEN-05; the action cost is XREF, Perception)."""

    type: Literal["search"] = "search"
    actor: str


class TotalDefense(_Cmd):
    """+4 AC until the start of your next turn; no attacks of opportunity meanwhile (ACT-20)."""

    type: Literal["total_defense"] = "total_defense"
    actor: str


class DropProne(_Cmd):
    """Drop prone in your space as a swift action (ACT-41)."""

    type: Literal["drop_prone"] = "drop_prone"
    actor: str


class StandUp(_Cmd):
    """Stand up from prone as a move action (ACT-37)."""

    type: Literal["stand_up"] = "stand_up"
    actor: str


class Delay(_Cmd):
    """Step out of the initiative order before acting this turn (ACT-71)."""

    type: Literal["delay"] = "delay"
    actor: str


class Resume(_Cmd):
    """A delaying combatant takes its turn now, after the turn that just ended (ACT-71, CF-16)."""

    type: Literal["resume"] = "resume"
    actor: str


class Ready(_Cmd):
    """Ready a standard, move or swift action against a trigger (ACT-73). ``action`` is the command to take."""

    type: Literal["ready"] = "ready"
    actor: str
    action: dict[str, object]
    trigger: Literal["attacked", "enemy_attacks", "enters_reach", "casts", "manual"] = "manual"
    watch: str | None = None


class Trigger(_Cmd):
    """The GM (or a person) fires a readied action whose trigger the engine cannot see (``manual``)."""

    type: Literal["trigger"] = "trigger"
    actor: str


class EndTurn(_Cmd):
    """End your turn: end-of-turn upkeep (dying, burning, expiries), then the next turn (CF-12)."""

    type: Literal["end_turn"] = "end_turn"
    actor: str


class StabilizeWithResolve(_Cmd):
    """A dying character spends Resolve to stabilize (INJ-11)."""

    type: Literal["stabilize"] = "stabilize"
    actor: str


class StayInTheFight(_Cmd):
    """A stable character at 0 HP spends 1 RP at the start of its turn to act with 1 HP (INJ-12)."""

    type: Literal["stay_in_the_fight"] = "stay_in_the_fight"
    actor: str


class FirstAid(_Cmd):
    """A DC 15 Medicine check as a standard action: stabilizes a dying adjacent ally (INJ-09) or stops bleeding
    (CON-02). ``bonus`` is the healer's Medicine bonus if the stat block does not list one."""

    type: Literal["first_aid"] = "first_aid"
    actor: str
    target: str
    bonus: int | None = L.ranged(None, L.SKILL_MIN, L.SKILL_MAX, "Medicine bonus")
