"""Options for vehicles and vehicle chases: every ambiguous vehicle rule as a named choice.

Each field names the inventory item it settles. Defaults are the inventory's suggested defaults (§22) unless the
description says otherwise; the descriptions are what ``docs/vehicles.md`` lists. Vehicle rules take a
:class:`VehicleOptions` (``DEFAULT_VEHICLE_OPTIONS`` when none is given), in the way creature rules take
``Sf1eOptions``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from sftactics.sf1e.statblock import NameSet


class VehicleOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # ----- grid rules (VEH)
    ram_damage: Literal["roll_once", "roll_per_multiple"] = Field(
        "roll_once",
        description="VEH-11 / VEH-25: collision damage that is doubled (ram, crash) or halved (the rammer's own "
        "share) is rolled once and the roll is doubled or halved ('roll_once'); 'roll_per_multiple' rolls the "
        "collision damage twice for the doubled share as GEN-04 does for multipliers (the halved share is half "
        "of the first roll).",
    )
    run_over_movement: Literal["free", "straight"] = Field(
        "free",
        description="VEH-13: a run over moves like a drive, turning as needed ('free'), or in a straight line at "
        "the heading like a race ('straight'). No Piloting check is needed either way.",
    )
    uncontrolled_slowdown: float = Field(
        0.75,
        gt=0,
        description="VEH-24: each action of an uncontrolled vehicle covers this fraction of the previous action's "
        "distance, rounded down to a 5-ft multiple; the first action uses the last pilot action's distance; the "
        "vehicle stops when an action would cover 0 ft. A GM may pass another factor for a slope or zero-g.",
    )
    uncontrolled_dodge_dc: Literal["collision_dc", "last_piloting"] = Field(
        "collision_dc",
        description="VEH-25: the DC of the Piloting check to avoid an uncontrolled vehicle 'as if rammed'. Under "
        "autocontrol it is always the last pilot's Piloting result; otherwise the vehicle's collision DC "
        "('collision_dc') or its last pilot's Piloting result if there was one ('last_piloting').",
    )
    board_moving_dc: Literal["chase", "none"] = Field(
        "chase",
        description="VEH-14: the Acrobatics or Athletics DC to board or leave a moving vehicle on the grid: the "
        "chase boarding DC, 5 + the vehicle's KAC ('chase'), or no check ('none').",
    )
    coast_after_race: Literal["full_speed"] | int = Field(
        "full_speed",
        description="VEH-17: how far a vehicle goes after a race before it stops, before a stop short check "
        "takes its result off: the vehicle's full speed, or a fixed number of feet.",
    )
    broken_at: Literal["threshold", "half"] = Field(
        "threshold",
        description="VEH-32 / X-14: a vehicle is broken when its Hit Points are at or below the threshold its stat "
        "block prints ('threshold'; half its HP, rounded down, if none is printed), or when it has lost more than "
        "half its Hit Points as other items (CON-04, 'half').",
    )
    hardness_vs_attacks: Literal["applies", "ignored"] = Field(
        "applies",
        description="CHS-41 / DMG-15: hardness comes off every hit on a vehicle, as on any object ('applies'); "
        "'ignored' reproduces the sample chase, where a 2-point and a 5-point hit wreck a 7-HP enercycle of "
        "hardness 5.",
    )
    vehicle_aoo_target: Literal["vehicle", "pilot"] = Field(
        "vehicle",
        description="VEH-15 / AOO-13: an attack of opportunity provoked by a driving or racing vehicle strikes the "
        "vehicle (its EAC or KAC, +2 while racing, VEH-10: 'vehicle'), or its pilot ('pilot'; the pilot's own "
        "cover from the vehicle applies). The text says the vehicle provokes without saying whom the attack hits.",
    )
    terrain_size: Literal["colossal", "never"] = Field(
        "colossal",
        description="VEH-33: vehicles of this size or larger count as terrain for spells and abilities unless the "
        "GM says otherwise ('never': only when the GM says so).",
    )

    # ----- chases (CHS)
    ahead_bonus: Literal["max_two", "stack"] = Field(
        "max_two",
        description="CHS-03: the two +2 Piloting bonuses for being ahead (against an enemy behind you; ahead of all "
        "enemies) are alternatives and give at most +2 ('max_two'), or add up ('stack').",
    )
    ahead_during_pilot_actions: Literal["round_start", "current"] = Field(
        "round_start",
        description="CHS-03 / CHS-41: during the pilot actions phase, who is ahead for the +2 Piloting bonuses is "
        "judged from the zones at the start of the round ('round_start': the sample chase gives a pilot who has "
        "just sped past every enemy no bonus on his trick), or from the zones at the moment of the check "
        "('current'). The targets of a trick are always the vehicles behind at the moment of the trick.",
    )
    break_free_dc: Literal["keep_base", "drop_base"] = Field(
        "keep_base",
        description="CHS-07: break free from several enemy vehicles: 5 + the highest KAC + 5 per enemy vehicle "
        "beyond the first ('keep_base'), or the highest KAC + 5 per extra enemy ('drop_base').",
    )
    engaged_forbidden: NameSet = Field(
        frozenset({"speed_up", "slow_down", "engage"}),
        description="CHS-16: pilot actions an engaged vehicle may not take (engage means engaging another enemy; "
        "engaging an ally is allowed). Break free is the only way out of an engagement.",
    )
    keep_pace_fallback: Literal["all_failed", "only_check"] = Field(
        "all_failed",
        description="CHS-17: a vehicle whose pilot failed a keep pace falls back one zone if every check of the "
        "round failed ('all_failed'; any success wins), or only if keep pace was the only kind of pilot action it "
        "took ('only_check').",
    )
    checkless_success: bool = Field(
        True,
        description="CHS-17: a pilot action that succeeds without a check (a break free all parties want, engaging "
        "an ally) counts as a success for chase progress.",
    )
    escape_zones: int = Field(
        2,
        ge=1,
        description="CHS-20: a vehicle escapes when it ends chase progress at least this many zones ahead of every "
        "adversary, and is left behind when it ends at least this many zones behind every adversary (that is, "
        "behind the nearest one).",
    )
    same_zone_ft: int = Field(50, description="CHS-02: distance between vehicles in the same zone, in feet.")
    one_zone_ft: int = Field(200, description="CHS-02: distance between vehicles one zone apart, in feet.")
    engaged_ft: int = Field(5, description="CHS-02: distance between engaged vehicles (adjacent), in feet.")
    hazard_ac: Literal["kac", "eac"] = Field(
        "kac", description="CHS-30: the AC a hazard attacks when the hazard does not say (KAC for physical hazards)."
    )
    grenades_in_chase: bool = Field(
        False,
        description="CHS-25: a GM may allow throwing grenades between moving vehicles; by default it is refused.",
    )
    falling_die: str = Field(
        "1d6",
        description="CHS-27 / X-18 (outside the seeds): normal falling damage per 10 ft fallen; a rider who falls "
        "while boarding takes it doubled (rolled twice, GEN-04), or 1d6 for a fall under 10 ft.",
    )


DEFAULT_VEHICLE_OPTIONS = VehicleOptions()
