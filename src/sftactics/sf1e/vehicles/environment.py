"""Chase environments: active hazards (Table 8-4), altered attacks, altered movement, new tricks and split routes
(CHS-29..39).

The GM decides an environment's effects, for the whole chase or for some zones (:class:`Environment`:
``everywhere`` and ``zones`` by zone number). Five kinds of effect (CHS-29):

* :class:`Hazard` - attacks vehicles: once when a vehicle enters its zone, only the first vehicle, or (creatures
  that follow the chase) the rearmost or a random vehicle after each chase progress phase. Its attack bonus and
  damage come from Table 8-4 by CR unless given. It deals damage, knocks the vehicle off course (-4 to its
  pilot's Piloting checks for 1 round), or both (then -2 to the attack and half damage) (CHS-30, CHS-31);
* :class:`AlteredAttack` - concealment, cover, ricochets (CHS-32);
* :class:`AlteredMovement` - usually +2 or -2 to the skill checks of pilot actions, perhaps only for some actions
  or some kinds of vehicle (CHS-33);
* :class:`NewTrick` - a trick with a DC 2-4 higher and a bigger effect: -4 to -6 to pursuers' Piloting, or a new
  hazard in the zone directly behind (CHS-34);
* :class:`Route` - a split route: a parallel way through one zone with its own movement effects or hazards;
  vehicles on different routes cannot interact (CHS-35).

:data:`SAMPLE_ENVIRONMENTS` holds the book's four sample environments as data (CHS-36..39); their hazards have no
CR of their own, so :func:`sample_environment` sets one (close to the vehicles' item levels, as CHS-30 advises).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from sftactics.core.errors import RuleViolation
from sftactics.sf1e.limits import DiceText
from sftactics.sf1e.statblock import NameSet


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


#: Table 8-4 (CHS-30): hazard CR -> (attack bonus, damage).
TABLE_8_4: dict[str, tuple[int, str]] = {
    "1/4": (3, "2d4"),
    "1/3": (4, "2d4"),
    "1/2": (6, "3d4"),
    "1": (8, "4d4"),
    "2": (9, "5d4"),
    "3": (10, "5d4"),
    "4": (11, "5d6"),
    "5": (12, "5d8"),
    "6": (14, "6d8"),
    "7": (15, "6d10"),
    "8": (17, "7d10"),
    "9": (19, "8d10"),
    "10": (20, "9d10"),
    "11": (21, "10d10"),
    "12": (23, "11d10"),
    "13": (24, "12d10"),
    "14": (25, "14d10"),
    "15": (26, "15d10"),
    "16": (28, "17d10"),
    "17": (29, "18d10"),
    "18": (30, "20d10"),
    "19": (31, "23d10"),
    "20": (32, "25d10"),
}

OFF_COURSE_PENALTY = -4  # CHS-31
BOTH_ATTACK_PENALTY = -2  # CHS-31


def hazard_row(cr: str) -> tuple[int, str]:
    """Table 8-4: attack bonus and damage of a hazard of challenge rating ``cr`` (CHS-30)."""
    key = str(Fraction(cr)) if cr not in TABLE_8_4 else cr
    if key not in TABLE_8_4:
        raise RuleViolation("CHS-30", f"Table 8-4 has no CR {cr} (1/4 to 20)")
    return TABLE_8_4[key]


Trigger = Literal["each_entry", "first_entry", "rear_after_progress", "random_after_progress"]


class Hazard(_Model):
    """An active hazard (CHS-30, CHS-31).

    ``trigger``: ``each_entry`` attacks every vehicle that enters its zone; ``first_entry`` only the first one;
    ``rear_after_progress`` wakes when a vehicle first enters its zone, then attacks the rearmost vehicle at the
    end of each chase progress phase, moving along with the chase (a megashark, a death worm, angry beasts for 2
    rounds: ``rounds``); ``random_after_progress`` attacks a random vehicle in its zone after each chase progress
    phase. ``effect``: damage, off course, or both. ``ac``: the AC it attacks (None: option ``hazard_ac``)."""

    name: str
    cr: str = "1"
    attack_bonus: int | None = None
    damage: DiceText | None = None
    effect: Literal["damage", "off_course", "both"] = "damage"
    ac: Literal["eac", "kac"] | None = None
    trigger: Trigger = "each_entry"
    rounds: int | None = Field(None, ge=1)

    @field_validator("cr")
    @classmethod
    def _cr(cls, v: str) -> str:
        hazard_row(v)
        return v

    @property
    def base_attack(self) -> int:
        return self.attack_bonus if self.attack_bonus is not None else hazard_row(self.cr)[0]

    @property
    def base_damage(self) -> str:
        return self.damage if self.damage is not None else hazard_row(self.cr)[1]


class AlteredAttack(_Model):
    """CHS-32: ``concealment`` (20% miss chance), ``total_concealment`` (50%), ``cover`` (+4 AC),
    ``improved_cover`` (+8 AC), ``ricochet`` (a missed ranged attack has ``chance`` % to hit a vehicle adjacent to
    the target, not the attacker's), ``easier`` (the chase attack penalty is reduced by ``reduction``)."""

    name: str
    kind: Literal["concealment", "total_concealment", "cover", "improved_cover", "ricochet", "easier"]
    chance: int = Field(0, ge=0, le=100)
    reduction: int = Field(0, ge=0)


class AlteredMovement(_Model):
    """CHS-33: ``modifier`` to every skill check of a pilot action; ``by_action`` replaces it for some actions
    (``speed_up``, ``keep_pace``, ``trick``...); ``kinds``: only these kinds of vehicle (empty: all);
    ``slow_down_dc``: slowing down takes a Piloting check at this DC (a steep slope)."""

    name: str
    modifier: int = 0
    by_action: dict[str, int] = Field(default_factory=dict)
    kinds: NameSet = frozenset()
    slow_down_dc: int | None = None

    def for_action(self, action: str, kinds: frozenset[str]) -> int:
        if self.kinds and not (self.kinds & kinds):
            return 0
        return self.by_action.get(action, self.modifier)


class NewTrick(_Model):
    """CHS-34: a trick the environment offers. DC 2 to 4 above a normal trick (``dc_increase``); success gives
    pursuers ``pursuer_penalty`` to Piloting for 1 round (usually -4 to -6; -2 like a normal trick if 0 is not
    wanted), and/or puts ``hazard`` in the zone directly behind the trickster; ``creates`` names anything else
    (concealment) for the GM."""

    name: str
    dc_increase: int = Field(2, ge=0)
    pursuer_penalty: int = Field(-4, le=0)
    hazard: Hazard | None = None
    creates: str = ""


class Route(_Model):
    """CHS-35: one of the parallel routes of a split zone, with its own movement effects and hazards."""

    name: str
    movement: tuple[AlteredMovement, ...] = ()
    hazards: tuple[Hazard, ...] = ()


class Zone(_Model):
    """What the environment puts in one zone (or everywhere)."""

    hazards: tuple[Hazard, ...] = ()
    attacks: tuple[AlteredAttack, ...] = ()
    movement: tuple[AlteredMovement, ...] = ()
    tricks: tuple[NewTrick, ...] = ()
    routes: tuple[Route, ...] = ()

    def route(self, name: str | None) -> Route | None:
        if name is None:
            return None
        for r in self.routes:
            if r.name == name:
                return r
        return None


class Environment(_Model):
    """A chase environment (CHS-29): effects for the whole chase (``everywhere``) and for numbered zones."""

    name: str = ""
    everywhere: Zone = Zone()
    zones: dict[int, Zone] = Field(default_factory=dict)

    def zone(self, n: int) -> Zone:
        return self.zones.get(n, Zone())

    def movement(self, n: int, route: str | None) -> list[AlteredMovement]:
        z = self.zone(n)
        r = z.route(route)
        return [*self.everywhere.movement, *z.movement, *(r.movement if r else ())]

    def attacks(self, n: int) -> list[AlteredAttack]:
        return [*self.everywhere.attacks, *self.zone(n).attacks]

    def tricks(self, n: int) -> list[NewTrick]:
        return [*self.everywhere.tricks, *self.zone(n).tricks]


# ---------------------------------------------------------------- the sample environments (CHS-36..39)


class SampleEnvironment(_Model):
    """One of the book's sample environments: its features by kind, to place in zones."""

    name: str
    hazards: tuple[Hazard, ...]
    attacks: tuple[AlteredAttack, ...]
    movement: tuple[AlteredMovement, ...]
    tricks: tuple[NewTrick, ...]
    routes: tuple[Route, ...]


_SHORTCUT = {"keep_pace": 2, "speed_up": 2, "trick": 2}


def sample_environment(name: str, cr: str = "1") -> SampleEnvironment:
    """The sample environment ``name`` (aquatic, desert, forest, highway) with its hazards at challenge rating
    ``cr`` (CHS-36..39)."""
    key = name.lower()
    if key == "aquatic":  # CHS-36
        return SampleEnvironment(
            name="aquatic",
            hazards=(
                Hazard(name="megashark", cr=cr, trigger="rear_after_progress"),
                Hazard(name="piranha swarm", cr=cr, trigger="random_after_progress"),
            ),
            attacks=(
                AlteredAttack(name="frightened squid shoal", kind="concealment"),
                AlteredAttack(name="sudden squall", kind="concealment"),
                AlteredAttack(name="underwater debris", kind="cover"),
            ),
            movement=(
                AlteredMovement(name="languid or opposing current", modifier=-2),
                AlteredMovement(name="swift current moving with you", modifier=2),
            ),
            tricks=(
                NewTrick(name="scatter whale pod", pursuer_penalty=-4),
                NewTrick(name="spew mud", pursuer_penalty=0, creates="concealment"),
            ),
            routes=(
                Route(name="coral reef", movement=(AlteredMovement(name="coral reef", modifier=-2),)),
                Route(name="shipwreck", movement=(AlteredMovement(name="shipwreck shortcut", by_action=_SHORTCUT),)),
            ),
        )
    if key == "desert":  # CHS-37
        return SampleEnvironment(
            name="desert",
            hazards=(
                Hazard(name="death worm", cr=cr, trigger="rear_after_progress"),
                Hazard(name="falling rocks", cr=cr, trigger="first_entry"),
            ),
            attacks=(
                AlteredAttack(name="rock spires", kind="cover"),
                AlteredAttack(name="sandstorm", kind="total_concealment"),
            ),
            movement=(
                AlteredMovement(name="deep sand", modifier=-2),
                AlteredMovement(name="mud flat", modifier=-2),
            ),
            tricks=(
                NewTrick(name="kick up dust clouds", pursuer_penalty=0, creates="concealment"),
                NewTrick(name="topple rocks", pursuer_penalty=0, hazard=Hazard(name="toppled rocks", cr=cr)),
            ),
            routes=(
                Route(name="giant antlion sand pit", hazards=(Hazard(name="giant antlion", cr=cr),)),
                Route(name="narrow canyon", movement=(AlteredMovement(name="canyon shortcut", by_action=_SHORTCUT),)),
            ),
        )
    if key == "forest":  # CHS-38
        return SampleEnvironment(
            name="forest",
            hazards=(
                Hazard(name="angry beasts", cr=cr, trigger="rear_after_progress", rounds=2),
                Hazard(name="falling tree", cr=cr, trigger="first_entry"),
            ),
            attacks=(
                AlteredAttack(name="obscuring trunks", kind="concealment"),
                AlteredAttack(name="ricocheting shots", kind="ricochet", chance=10),
            ),
            movement=(
                AlteredMovement(name="dense grove of narrow-trunked trees", modifier=-2),
                AlteredMovement(name="thick detritus", modifier=-2),
            ),
            tricks=(
                NewTrick(name="bank behind foliage", pursuer_penalty=0, creates="concealment"),
                NewTrick(name="topple brush to block path", pursuer_penalty=-4),
            ),
            routes=(
                Route(name="hidden cave", movement=(AlteredMovement(name="cave shortcut", by_action=_SHORTCUT),)),
                Route(
                    name="ramp off a cliff",
                    movement=(AlteredMovement(name="ramp off a cliff", modifier=-2, by_action={"speed_up": 2}),),
                ),
            ),
        )
    if key == "highway":  # CHS-39
        return SampleEnvironment(
            name="highway",
            hazards=(
                Hazard(name="oncoming traffic", cr=cr, trigger="each_entry"),
                Hazard(name="police barricade", cr=cr, trigger="first_entry"),
            ),
            attacks=(
                AlteredAttack(name="series of pillars", kind="cover"),
                AlteredAttack(name="smoke clouds", kind="concealment"),
            ),
            movement=(
                AlteredMovement(name="damaged road", modifier=-1),
                AlteredMovement(name="steep hill, downhill", modifier=1),
                AlteredMovement(name="steep hill, uphill", modifier=-1),
            ),
            tricks=(
                NewTrick(
                    name="divert traffic toward enemies",
                    pursuer_penalty=0,
                    hazard=Hazard(name="diverted traffic", cr=cr),
                ),
                NewTrick(name="hack traffic signals", pursuer_penalty=-2),
            ),
            routes=(
                Route(
                    name="hypertube",
                    movement=(AlteredMovement(name="hypertube", modifier=-2, by_action={"speed_up": 4}),),
                ),
                Route(name="surface street", movement=(AlteredMovement(name="surface street", modifier=-1),)),
                Route(name="tunnel", movement=(AlteredMovement(name="tunnel shortcut", by_action=_SHORTCUT),)),
            ),
        )
    raise RuleViolation("CHS-29", f"no sample environment {name!r} (aquatic, desert, forest, highway)")


SAMPLE_ENVIRONMENTS: tuple[str, ...] = ("aquatic", "desert", "forest", "highway")


__all__ = [
    "BOTH_ATTACK_PENALTY",
    "OFF_COURSE_PENALTY",
    "SAMPLE_ENVIRONMENTS",
    "TABLE_8_4",
    "AlteredAttack",
    "AlteredMovement",
    "Environment",
    "Hazard",
    "NewTrick",
    "Route",
    "SampleEnvironment",
    "Zone",
    "hazard_row",
    "sample_environment",
]
