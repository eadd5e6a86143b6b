"""Ruleset options for the 2nd edition: every number or reading the summary seed leaves open.

The 2E seed (``sf2e-playing-the-game.txt``) is a summary of the chapter, not its text. The inventory (§22.2)
recommends making every missing number an explicit, named parameter; this model is that list. Each field names
the inventory item it settles. A description that starts with **ASSUMPTION** marks a default the seed does not
give (taken from the inventory's notes or chosen by this package); **SEED** marks a default that is the seed's
own wording kept although the inventory flags it as doubtful. ``docs/sf2e.md`` lists them all.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

PenaltyType = Literal["circumstance", "status", "item", "untyped"]


class Sf2eOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # --- checks and modifiers --------------------------------------------------------------------------
    untyped_bonuses: Literal["stack", "highest"] = Field(
        "stack",
        description="E2-06 (gap). ASSUMPTION: the seed types every bonus and says nothing of untyped ones; "
        "'stack' adds them all (as untyped penalties do), 'highest' keeps only the largest.",
    )
    one_fortune_per_check: bool = Field(
        True,
        description="E2-72 (gap). ASSUMPTION: a check already rerolled by a fortune effect (a Hero Point) cannot "
        "be rerolled again by another one.",
    )
    initiative_ties: Literal["npc_first", "pc_first"] = Field(
        "npc_first",
        description="E2-18 (gap). ASSUMPTION: the seed says only that Perception sets the initiative order. On "
        "equal results non-player creatures act first ('npc_first') or player characters do ('pc_first'); "
        "still equal: the higher Perception modifier, then the order given.",
    )

    # --- attacks and defenses --------------------------------------------------------------------------
    range_increments: Literal["started", "completed"] = Field(
        "started",
        description="E2-14 (conflict in the seed). 'started': a distance is in the increment it has entered, "
        "-2 per increment after the first (121-240 ft with a 120-ft rifle is the second, -2; 601-720 ft the "
        "sixth, -10), as the rule reads and the inventory says to implement. 'completed': only whole increments "
        "count, which reproduces the seed's example numbers (240+ ft -2, 360+ ft -4, 720 ft -10).",
    )
    armor_bonus_is_item: bool = Field(
        True,
        description="E2-15 (gap). ASSUMPTION: the seed's 'armor bonus' to AC is an item bonus (it competes with "
        "other item bonuses to AC). False: a separate term that always counts.",
    )

    # --- damage ----------------------------------------------------------------------------------------
    propulsive_negative_strength: Literal["full", "half", "none"] = Field(
        "full",
        description="E2-19 (gap). ASSUMPTION: a propulsive weapon adds half a positive Strength modifier (seed); "
        "a negative Strength modifier is subtracted in full ('full'), halved ('half') or ignored ('none').",
    )
    vitality_void_only_harm: bool = Field(
        True,
        description="E2-21 (gap). ASSUMPTION: the seed says vitality damage harms undead and void damage harms "
        "the living; True reads that as 'only': vitality deals nothing to non-undead, void nothing to "
        "non-living creatures (constructs: neither harms them). False: both damage everyone.",
    )
    persistent_on_critical: Literal["double", "normal"] = Field(
        "double",
        description="E2-26 (ambiguous seed sentence). ASSUMPTION: persistent damage applied by a critical success "
        "is doubled like the rest of the damage ('double'), or always rolled normally ('normal').",
    )
    persistent_same_type: Literal["keep_higher", "stack"] = Field(
        "keep_higher",
        description="E2-26 / E2-74 (gap). ASSUMPTION: new persistent damage of a type the creature already takes "
        "replaces the old one only if its average is higher (the duplicate-effects convention); 'stack' keeps both.",
    )
    minimum_damage: int = Field(
        0,
        ge=0,
        description="(gap, no inventory item). ASSUMPTION: the least a damage roll deals when its penalties take "
        "it below that; the seed gives a minimum only for halving (1). Default 0 (the seed's reading): penalties "
        "can cancel a hit's damage. 1 is the usual 2E reading (a hit deals at least 1).",
    )
    precision_damage: Literal["own_type", "weapon_type"] = Field(
        "own_type",
        description="E2-21 (reading). SEED: the seed lists precision as a damage type of its own ('own_type'): "
        "only a weakness, resistance or immunity to precision touches it. 'weapon_type' is the usual 2E reading: "
        "precision damage adds to the weapon's own (first) damage type for weaknesses and resistances, and a "
        "creature immune to precision ignores it.",
    )
    bleed_is_physical: bool = Field(
        False,
        description="E2-21 (reading). SEED: the seed lists bleed among the 'other' types, so a resistance or "
        "weakness to 'physical' does not cover it. True is the usual 2E reading: bleed counts as physical.",
    )
    temp_hp_new_source: Literal["higher", "newer"] = Field(
        "higher",
        description="E2-28 (gap). ASSUMPTION: a creature has one source of temporary HP; when a new source "
        "arrives it keeps the higher amount ('higher', the inventory's suggestion) or the newer one ('newer').",
    )

    # --- injury ----------------------------------------------------------------------------------------
    npc_dies_at_zero: bool = Field(
        True,
        description="E2-31. SEED ('typically'): a non-player creature dies when reduced to 0 HP. False: NPCs "
        "follow the dying rules like player characters.",
    )
    knockout_initiative: Literal["before_attacker", "unchanged"] = Field(
        "before_attacker",
        description="E2-31 (ambiguous/suspect). ASSUMPTION: a creature knocked out moves its initiative to just "
        "before the creature (or effect) that reduced it to 0 HP, the usual statement the inventory cites; "
        "'unchanged' reads the summary's 'before their next turn' as no move.",
    )
    dying_crit_fail_save_adds_two: bool = Field(
        False,
        description="E2-34 (ambiguous). SEED: damage taken while dying adds 1, or 2 from a critical hit; the seed "
        "names the critical failure on a save only for the knock-out itself. True: a critical failure on a save "
        "against damage while dying also adds 2.",
    )
    damage_at_zero_not_dying: Literal["knocked_out", "nothing"] = Field(
        "knocked_out",
        description="(gap, no inventory item). ASSUMPTION: a creature at 0 HP that is not dying (stable, or out "
        "from nonlethal damage) and takes lethal damage is knocked out again: dying 1 (2 on a critical) plus "
        "wounded. 'nothing': only damage while dying raises the dying value.",
    )
    wounded_daily_recovery: bool = Field(
        False,
        description="E2-35 (internal conflict). The seed's condition reference removes wounded only by Treat "
        "Wounds or full HP and 10 minutes' rest; one list adds 'decreases by 1 daily with full rest', which "
        "looks like doomed's rule. True follows that list.",
    )

    # --- actions ---------------------------------------------------------------------------------------
    triggered_free_uses_reaction: bool = Field(
        False,
        description="E2-45 (gap). ASSUMPTION: a free action with a trigger does not use up the reaction.",
    )
    triggered_free_once_per_trigger: bool = Field(
        True,
        description="E2-45 (gap). ASSUMPTION: one triggered free action can be used once per occurrence of its "
        "trigger.",
    )
    leap_horizontal_ft: int = Field(
        10,
        ge=0,
        description="E2-50. SEED (flagged as simplified): how far a Leap goes horizontally without a check.",
    )
    leap_vertical_ft: int = Field(
        3,
        ge=0,
        description="E2-50. SEED (flagged as simplified): how high a Leap goes without a check.",
    )

    # --- conditions ------------------------------------------------------------------------------------
    blinded_attack_penalty: int = Field(
        4,
        ge=0,
        description="E2-51. SEED (flagged as suspect): blinded gives this status penalty to attack rolls "
        "(0 removes it).",
    )
    frightened_penalty_type: PenaltyType = Field(
        "status",
        description="E2-54 (gap). ASSUMPTION: the type of frightened's penalty (decides what it stacks with).",
    )
    frightened_applies_to_dcs: bool = Field(
        True,
        description="E2-54 (gap). ASSUMPTION: frightened's penalty also lowers the creature's AC, spell DC and class "
        "DC, not only its checks and attack rolls. (Save and Perception DCs are 10 + the check modifier, E2-09, so "
        "they carry the penalty either way.)",
    )
    hidden_flat_check_dc: int = Field(
        11,
        ge=1,
        le=21,
        description="E2-55 (gap). ASSUMPTION: the flat check DC to affect a hidden creature (the inventory's "
        "'commonly DC 11').",
    )
    off_guard_ac_penalty: int = Field(
        2,
        ge=0,
        description="E2-57 (gap). The off-guard penalty to AC. The number comes from the seed's flanking text "
        "('reduces enemy AC by 2'); the condition reference gives none.",
    )
    off_guard_penalty_type: PenaltyType = Field(
        "circumstance",
        description="E2-57 (gap). ASSUMPTION: the type of the off-guard penalty (so flanking and other off-guard "
        "sources do not stack: one penalty of one type).",
    )
    slowed_decreases_each_turn: bool = Field(
        True,
        description="E2-59. SEED (flagged as suspect): slowed drops by 1 at the end of each of the creature's "
        "turns. False: it lasts until its effect ends.",
    )

    # --- movement, cover, flanking ---------------------------------------------------------------------
    fly_falls_when: Literal["speed_exhausted", "turn_ends_without_fly"] = Field(
        "speed_exhausted",
        description="E2-65. SEED (flagged as suspect): an airborne creature falls when its fly speed for the round "
        "is used up mid-air ('speed_exhausted'), or when it ends its turn in the air without having used a fly "
        "action that turn ('turn_ends_without_fly', the usual rule the inventory mentions).",
    )
    forced_movement_reactive_strike: bool = Field(
        True,
        description="E2-67 (ambiguous). SEED: forced movement caused by an attack triggers no movement-based "
        "reactions except Reactive Strike-like ones. False: it triggers none at all.",
    )
    greater_cover_ac: int = Field(
        4,
        ge=0,
        description="E2-68 (gap). ASSUMPTION: greater cover's circumstance bonus to AC (the seed has only lesser "
        "+1 and standard +2).",
    )
    creature_cover: Literal["lesser", "standard"] = Field(
        "lesser",
        description="E2-68 (gap). ASSUMPTION: the degree of cover a creature in the way gives (the grid's 'soft "
        "cover').",
    )
    flanking_requires_threat: bool = Field(
        True,
        description="E2-69 (gap). ASSUMPTION: both flankers must threaten the target (be able to reach it with a "
        "melee attack); False: the opposite-sides geometry alone is enough.",
    )


DEFAULT_OPTIONS = Sf2eOptions()
